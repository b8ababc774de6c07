//! Renderers: human table ([`table`]), JSON with a stable schema ([`json`]), SARIF 2.1.0
//! ([`sarif`], shaped for GitHub code scanning) and JUnit XML ([`junit`]).

pub mod json;
pub mod junit;
pub mod sarif;
pub mod table;

pub use json::{to_json, write_json};
pub use junit::to_junit;
pub use sarif::{SarifOptions, to_sarif, to_sarif_with};
pub use table::to_table;
