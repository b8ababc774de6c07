//! The crate's error type.

/// Errors of `cube-quota`: bad input that cannot be analysed.
///
/// Admission rejections are not errors: they are outcomes (see [`crate::whatif`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A workload document could not be parsed as YAML or JSON.
    #[error("cannot parse workload ({format}): {message}")]
    WorkloadParse {
        /// `yaml` or `json`.
        format: &'static str,
        /// The parser's message (with line/column when known).
        message: String,
    },
    /// A workload document has a kind the what-if pipeline does not know.
    #[error(
        "unsupported workload kind {kind:?}: expected Pod, Job, Deployment, StatefulSet, ReplicaSet, ReplicationController or CronJob"
    )]
    UnsupportedKind {
        /// The `kind` found (empty when absent).
        kind: String,
    },
    /// A workload document is missing a required field.
    #[error("workload {kind} {name:?}: missing field {field}")]
    MissingField {
        /// Kind of the workload.
        kind: String,
        /// Name of the workload.
        name: String,
        /// Field path (`spec.template`).
        field: &'static str,
    },
}

/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
