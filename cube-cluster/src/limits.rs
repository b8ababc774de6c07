//! The bounds of every network read and of the files this crate reads itself, in one place.
//!
//! [`NetLimits`] bounds each HTTP exchange (body size, per-request time) and each paginated list
//! (pages, repeated `continue` tokens, overall deadline). Hitting a bound is a typed outcome
//! (see `crate::http`), never a hang, an abort or a silent truncation.
//!
//! The defaults are generous for real clusters (a 500-item page of Pods is a few MB; a v1.36
//! `/version` answer is about 400 bytes) and small enough that a hostile server cannot exhaust
//! memory or time.

use std::path::Path;
use std::time::Duration;

/// Largest HTTP body read from an API server for a list page or an object (bytes). 64 MiB.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;
/// Largest body of small answers (`/version`, SelfSubjectReview, access reviews, TokenRequest,
/// Status) (bytes). 1 MiB.
pub const DEFAULT_MAX_SMALL_BODY_BYTES: u64 = 1024 * 1024;
/// Most pages read for one list (at the default page size of 500, five million objects).
pub const DEFAULT_MAX_PAGES: usize = 10_000;
/// Time for one request, from sending it to the last byte of its body. 30 s.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest registry or kubeconfig file read by this crate (bytes). 16 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Bounds of network reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetLimits {
    /// Largest body of a list page or object ([`DEFAULT_MAX_BODY_BYTES`]).
    pub max_body_bytes: u64,
    /// Largest body of a small answer ([`DEFAULT_MAX_SMALL_BODY_BYTES`]).
    pub max_small_body_bytes: u64,
    /// Most pages per list ([`DEFAULT_MAX_PAGES`]).
    pub max_pages: usize,
    /// Time for one request including its whole body ([`DEFAULT_REQUEST_TIMEOUT`]); a body sent
    /// at 1 byte/s ends here even though each read makes progress.
    pub request_timeout: Duration,
    /// Time for a whole operation of many requests (a snapshot, an import); `None` = only the
    /// per-request bound.
    pub deadline: Option<Duration>,
}

impl Default for NetLimits {
    fn default() -> Self {
        NetLimits {
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_small_body_bytes: DEFAULT_MAX_SMALL_BODY_BYTES,
            max_pages: DEFAULT_MAX_PAGES,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            deadline: None,
        }
    }
}

impl NetLimits {
    /// Per-request timeout `t` (saturated to at least 1 ms), other bounds default.
    pub fn with_request_timeout(t: Duration) -> Self {
        NetLimits {
            request_timeout: t.max(Duration::from_millis(1)),
            ..NetLimits::default()
        }
    }
}

/// Why a file could not be read by [`read_file_bounded`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileReadError {
    /// The OS refused (missing, permission, ...).
    #[error("cannot read {path}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Not a regular file (a FIFO, a device, a directory): refused so a read never blocks or
    /// never ends.
    #[error("{path} is not a regular file")]
    NotRegular {
        /// The path.
        path: String,
    },
    /// Larger than the limit.
    #[error("{path} is larger than {limit} bytes")]
    TooLarge {
        /// The path.
        path: String,
        /// The limit in bytes.
        limit: u64,
    },
}

/// Reads a regular file of at most `limit` bytes (refuses FIFOs, devices and directories before
/// opening them, and stops reading at `limit + 1` bytes in case the file grows).
///
/// # Errors
/// [`FileReadError`].
pub fn read_file_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, FileReadError> {
    use std::io::Read as _;
    let shown = path.display().to_string();
    let io = |source| FileReadError::Io {
        path: shown.clone(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(FileReadError::NotRegular { path: shown });
    }
    if meta.len() > limit {
        return Err(FileReadError::TooLarge { path: shown, limit });
    }
    let f = std::fs::File::open(path).map_err(io)?;
    let mut buf = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    f.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(io)?;
    if buf.len() as u64 > limit {
        return Err(FileReadError::TooLarge { path: shown, limit });
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_directories_and_large_files() {
        assert!(matches!(
            read_file_bounded(Path::new("/dev/zero"), 10),
            Err(FileReadError::NotRegular { .. })
        ));
        let dir = tempfile::tempdir().expect("tmp");
        assert!(matches!(
            read_file_bounded(dir.path(), 10),
            Err(FileReadError::NotRegular { .. })
        ));
        let f = dir.path().join("f");
        std::fs::write(&f, b"0123456789ab").expect("write");
        assert!(matches!(
            read_file_bounded(&f, 10),
            Err(FileReadError::TooLarge { limit: 10, .. })
        ));
        assert_eq!(read_file_bounded(&f, 12).expect("read").len(), 12);
    }
}
