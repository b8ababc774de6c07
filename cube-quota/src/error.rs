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
        "unsupported workload kind {kind:?}: expected Pod, Job, CronJob, Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, PersistentVolumeClaim, ResourceQuota, LimitRange or PriorityClass"
    )]
    UnsupportedKind {
        /// The `kind` found (empty when absent).
        kind: String,
    },
    /// The document is empty (or only comments / `null`): it holds no object.
    #[error("the file holds no object")]
    NoObject,
    /// The object's own namespace differs from the one requested (kubectl's check).
    #[error(
        "the namespace from the provided object {object:?} does not match the namespace {requested:?}. You must pass '--namespace={object}' to perform this operation"
    )]
    NamespaceMismatch {
        /// `metadata.namespace` of the object.
        object: String,
        /// The namespace asked for (`--namespace`).
        requested: String,
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
