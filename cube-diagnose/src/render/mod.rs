//! Renderers: human table ([`table`]), JSON with a stable schema ([`json`]), SARIF 2.1.0
//! ([`sarif`]).

pub mod json;
pub mod sarif;
pub mod table;

pub use json::to_json;
pub use sarif::to_sarif;
pub use table::to_table;
