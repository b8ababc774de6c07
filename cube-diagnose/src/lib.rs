//! `cube-diagnose`: a rule engine over cluster snapshots and log texts. It reads a
//! [`cube_model::ClusterSnapshot`], resource groups, log texts (kubeadm join output, kubelet
//! journals, device-plugin logs, events, client error texts) and import reports, and returns
//! findings with evidence and a remedy, rendered as a table, JSON, SARIF or JUnit XML.
//!
//! Module map:
//! - [`rule`]: the [`Rule`] trait (the extension point for user rules) and [`Category`].
//! - [`rules`]: the built-in catalog, one module per stable rule id.
//! - [`engine`]: [`Engine`], [`Report`], [`Summary`] (score, exit code).
//! - [`context`]: [`Context`] with indexes (pods by node and namespace), [`LogText`], [`GroupSpec`].
//! - [`finding`]: [`Finding`], [`Severity`], [`Subject`], [`Evidence`].
//! - [`catalog`]: the message catalog (templates taken from upstream sources, with their
//!   conclusions) the classifiers match lines against.
//! - [`classify`]: text classifiers producing [`classify::Signal`]s.
//! - [`config`]: [`Config`] (disabled rules, severity overrides, thresholds).
//! - [`render`]: table, JSON (schema in `schema/findings.schema.json`), SARIF 2.1.0.
//! - [`locate`]: [`locate::SourceLocation`]s of objects and log lines in the input files (for
//!   SARIF physical locations).
//! - [`suppress`]: per-object suppressions (annotation `cube-rs.io/ignore`, config patterns).
//! - [`input`]: content-based detection and reading of pasted inputs into a snapshot and texts;
//!   [`input::InputProblem`]s for inputs that could not be used (exit code 2) or only partly.
//!
//! Pure: no I/O, no network; callers hand in texts and objects.
//!
//! ```
//! use cube_diagnose::{Context, Engine, Inputs};
//! let mut inputs = Inputs::new();
//! inputs.add("join.log", "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"");
//! let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
//! let report = Engine::new().run(&ctx);
//! assert_eq!(report.by_rule("join-token-invalid").count(), 1);
//! assert_eq!(report.exit_code(), 1);
//! ```

mod ansible;
pub mod catalog;
pub mod classify;
pub mod config;
pub mod context;
pub mod engine;
pub mod error;
pub mod finding;
pub mod gpu;
pub mod group;
pub mod input;
pub mod locate;
mod plugin_runtime;
pub mod render;
pub mod resources;
pub mod rule;
pub mod rules;
pub mod suppress;
mod unread;

pub use config::{Config, Thresholds};
/// [`Context`] under a name that does not clash with `cube_cluster::kubeconfig::Context` or
/// `anyhow::Context` when a service imports them together.
pub use context::Context as DiagnoseContext;
pub use context::{Context, GroupSpec, LogText};
pub use engine::{Engine, RemedyGroup, Report, RuleInfo, Summary};
pub use error::DiagnoseError;
/// [`Severity`] under a name that does not clash with `cube_cluster::kubeconfig::Severity`.
pub use finding::Severity as FindingSeverity;
pub use finding::{Evidence, Finding, Severity, Subject};
pub use group::{FindingGroup, Grouping};
pub use input::{InputFormat, Inputs};
pub use locate::SourceLocation;
pub use rule::{Category, Rule};
pub use suppress::{Suppressed, Suppression, SuppressionKind, SuppressionRule};
