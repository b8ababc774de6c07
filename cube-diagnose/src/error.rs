//! The crate's error type.

/// Errors of `cube-diagnose`. Rules never fail: broken input becomes findings or problems; only
/// configuration and rendering can fail.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiagnoseError {
    /// The configuration text could not be read.
    #[error("invalid diagnose configuration: {message}")]
    Config {
        /// Parser message.
        message: String,
    },
    /// An input text could not be read as any supported format.
    #[error("cannot read input {source_name}: {message}")]
    Input {
        /// File name or label.
        source_name: String,
        /// What went wrong.
        message: String,
    },
    /// Serializing a report failed.
    #[error("cannot render report")]
    Render(#[source] serde_json::Error),
}
