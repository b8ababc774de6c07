//! The crate's error type.

use std::path::PathBuf;

use crate::kubeconfig::Problem;

/// Errors of `cube-cluster`.
///
/// Messages are lowercase without a trailing period; the cause is in `source()`. No variant
/// carries a secret: tokens, passwords and key data never reach an error (parse errors are
/// passed through [`crate::kubeconfig::redact_text`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A kubeconfig file (or a file it references) could not be read.
    #[error("read {what} {path}")]
    Read {
        /// What was being read (`kubeconfig`, `certificate-authority`, `tokenFile`, ...).
        what: String,
        /// The path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A file given as a kubeconfig is empty (only whitespace, comments or `---`). Returned by
    /// [`crate::kubeconfig::Kubeconfig::read_strict`] (client-go itself loads such a file as an
    /// empty config, which then fails with "no configuration has been provided").
    #[error("{origin} is empty")]
    EmptyFile {
        /// The file (or `<memory>`).
        origin: String,
    },
    /// A file given as a kubeconfig is some other YAML document: its `kind` is present and not
    /// `Config` (for example a `List` of Nodes), or it has none of `clusters`, `users`,
    /// `contexts` and `current-context`. Returned by
    /// [`crate::kubeconfig::Kubeconfig::read_strict`].
    #[error("{origin} is not a kubeconfig: {reason}")]
    NotAKubeconfig {
        /// The file (or `<memory>`).
        origin: String,
        /// Why (`kind is "List", expected "Config"`); never contains a secret.
        reason: String,
    },
    /// A kubeconfig is not valid YAML or has a field of the wrong type.
    #[error("parse kubeconfig {origin}: {message}")]
    Parse {
        /// The file (or `<memory>`).
        origin: String,
        /// Redacted parser message (with line and column when known).
        message: String,
    },
    /// Two entries with the same name in one list of one file (client-go:
    /// `duplicate name "<n>" in list`).
    #[error("duplicate name \"{name}\" in list {list} of {origin}")]
    DuplicateName {
        /// `clusters`, `users` or `contexts`.
        list: &'static str,
        /// The repeated name.
        name: String,
        /// The file.
        origin: String,
    },
    /// An explicitly requested context is missing (client-go: `context "<n>" does not exist`).
    #[error("context \"{0}\" does not exist")]
    ContextNotFound(String),
    /// Validation of the selected context found errors; the message aggregates them like
    /// client-go (`invalid configuration: [e1, e2]`, a single error without brackets).
    #[error("{}", crate::kubeconfig::invalid_configuration_message(problems))]
    InvalidConfiguration {
        /// Every problem found (errors and warnings).
        problems: Vec<Problem>,
    },
    /// A server URL that cannot be parsed.
    #[error("invalid server URL {url:?}: {reason}")]
    InvalidServer {
        /// The URL as written.
        url: String,
        /// Why it was rejected.
        reason: String,
    },
    /// Certificate or key material that cannot be used (bad PEM, no certificate in it).
    #[error("invalid {what} for {subject}: {reason}")]
    InvalidMaterial {
        /// `certificate-authority-data`, `client-certificate-data`, ...
        what: String,
        /// `cluster "x"` / `user "y"`.
        subject: String,
        /// Why.
        reason: String,
    },
    /// Serializing a kubeconfig to YAML failed.
    #[error("serialize kubeconfig: {0}")]
    Serialize(String),
    /// The kube client could not be built.
    #[error("build kube client")]
    Client(#[source] kube::Error),
    /// The user's exec credential plugin gave no credential (not started, timed out, wrote too
    /// much, failed, or answered something unusable): see [`crate::exec`].
    #[error("user {user:?}: {source}")]
    ExecPlugin {
        /// The kubeconfig user.
        user: String,
        /// Why.
        source: Box<crate::exec::ExecError>,
    },
}

impl Error {
    /// The limit hit, when a file was not read because it is larger than a bound of the
    /// [`cube_model::Limits`] policy (a kubeconfig over `kubeconfig-bytes`, a referenced file
    /// over `referenced-file-bytes`, also as the problem of an
    /// [`Error::InvalidConfiguration`]): what, where, the limit and how to raise it.
    pub fn limit(&self) -> Option<&cube_model::limits::LimitExceeded> {
        match self {
            Error::Read { source, .. } => source
                .get_ref()
                .and_then(|e| e.downcast_ref::<crate::kubeconfig::ReadFailure>())
                .and_then(|f| f.limit.as_ref()),
            Error::InvalidConfiguration { problems } => {
                problems.iter().find_map(|p| p.limit.as_ref())
            }
            Error::ExecPlugin { .. } => None,
            _ => None,
        }
    }
}

/// Result alias.
pub type Result<T, E = Error> = std::result::Result<T, E>;
