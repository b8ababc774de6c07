//! The bounds of every network read and of the files this crate reads itself, in one place.
//!
//! [`NetLimits`] bounds each HTTP exchange (body size, per-request time) and each paginated list
//! (pages, repeated `continue` tokens, overall deadline). Hitting a bound is a typed outcome
//! (see `crate::http`), never a hang, an abort or a silent truncation.
//!
//! The defaults are generous for real clusters (a 500-item page of Pods is a few MB; a v1.36
//! `/version` answer is about 400 bytes) and small enough that a hostile server cannot exhaust
//! memory or time.
//!
//! The policy itself is cube-model's [`cube_model::Limits`] (one place, one set of defaults,
//! one `--limit`/`--max-*` flag per bound in every program): [`NetLimits::default`] is
//! [`NetLimits::from_limits`] of the default policy, and every file this crate reads goes
//! through [`read_limited`] with the policy's bound for that kind of file
//! ([`cube_model::Limit::KubeconfigBytes`] for a kubeconfig,
//! [`cube_model::Limit::ReferencedFileBytes`] for a file a kubeconfig references,
//! [`cube_model::Limit::FileBytes`] for a registry). The constants below are the default
//! policy's values, for documentation and for callers without a policy at hand (a unit test
//! keeps them equal).

use std::path::Path;
use std::time::Duration;

/// Largest HTTP body read from an API server for a list page or an object (bytes). 256 MiB,
/// [`cube_model::Limits::max_http_body_bytes`] of the default policy.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 256 * 1024 * 1024;
/// Largest body of small answers (`/version`, SelfSubjectReview, access reviews, TokenRequest,
/// Status) (bytes). 1 MiB.
pub const DEFAULT_MAX_SMALL_BODY_BYTES: u64 = 1024 * 1024;
/// Most pages read for one list (at the default page size of 500, five million objects);
/// [`cube_model::Limits::max_pages_per_list`] of the default policy.
pub const DEFAULT_MAX_PAGES: usize = 10_000;
/// Time for one request, from sending it to the last byte of its body. 30 s,
/// [`cube_model::Limits::request_timeout`] of the default policy.
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest registry or kubeconfig file, and file a kubeconfig references (CA, client
/// certificate and key, tokenFile), read by this crate (bytes). 16 MiB: kubeconfigs are small;
/// anything larger is not one. [`cube_model::Limits::max_kubeconfig_bytes`] and
/// [`cube_model::Limits::max_referenced_file_bytes`] of the default policy; the code reads
/// with the policy's values ([`read_limited`]), never with this constant.
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
    /// The network bounds of the default [`cube_model::Limits`] policy, without an overall
    /// deadline.
    fn default() -> Self {
        NetLimits {
            deadline: None,
            ..NetLimits::from_limits(&cube_model::Limits::default())
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

/// Why a file could not be read: cube-model's one bounded reader's error.
pub use cube_model::io::ReadError as FileReadError;

/// Reads a regular file of at most `limit` bytes through cube-model's one bounded reader
/// ([`cube_model::io::read_file_with`]): FIFOs, devices and directories are refused before any
/// read, and one byte more than `limit` is [`FileReadError::TooLarge`].
///
/// # Errors
/// [`FileReadError`].
pub fn read_file_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, FileReadError> {
    let mut opts = cube_model::io::ReadOptions::new(&cube_model::limits::Limits::default());
    opts.max_bytes = limit;
    cube_model::io::read_file_with(path, &opts)
}

/// Reads a regular file within the bound `kind` of `limits`, through cube-model's one bounded
/// reader: [`cube_model::Limit::KubeconfigBytes`] (a kubeconfig, also never more than
/// `file-bytes`), [`cube_model::Limit::ReferencedFileBytes`] (a CA, client certificate or key,
/// `tokenFile`), or any other byte limit (a registry: [`cube_model::Limit::FileBytes`]). A
/// larger file is [`FileReadError::TooLarge`] naming the binding limit, its value, the path,
/// and the flag that raises it.
///
/// # Errors
/// [`FileReadError`].
pub fn read_limited(
    path: &Path,
    limits: &cube_model::Limits,
    kind: cube_model::Limit,
) -> Result<Vec<u8>, FileReadError> {
    let own = limits.get(kind);
    let (max, binding) = if own <= limits.max_file_bytes {
        (own, kind)
    } else {
        (limits.max_file_bytes, cube_model::Limit::FileBytes)
    };
    read_file_bounded(path, max).map_err(|e| match e {
        FileReadError::TooLarge(mut hit) => {
            hit.limit = binding;
            hit.max = max;
            FileReadError::TooLarge(hit)
        }
        other => other,
    })
}

impl NetLimits {
    /// The network bounds of a [`cube_model::limits::Limits`] policy: HTTP body size, pages per
    /// list, per-request timeout and the live-collection deadline (the small-answer bound stays
    /// [`DEFAULT_MAX_SMALL_BODY_BYTES`], or the body bound when that is smaller).
    pub fn from_limits(limits: &cube_model::limits::Limits) -> Self {
        NetLimits {
            max_body_bytes: limits.max_http_body_bytes,
            max_small_body_bytes: DEFAULT_MAX_SMALL_BODY_BYTES.min(limits.max_http_body_bytes),
            max_pages: usize::try_from(limits.max_pages_per_list).unwrap_or(usize::MAX),
            request_timeout: limits.request_timeout,
            deadline: Some(limits.collection_deadline),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_are_the_default_policy() {
        let p = cube_model::Limits::default();
        let n = NetLimits::default();
        assert_eq!(n.max_body_bytes, p.max_http_body_bytes);
        assert_eq!(DEFAULT_MAX_BODY_BYTES, p.max_http_body_bytes);
        assert_eq!(DEFAULT_MAX_PAGES as u64, u64::from(p.max_pages_per_list));
        assert_eq!(n.max_pages, DEFAULT_MAX_PAGES);
        assert_eq!(DEFAULT_REQUEST_TIMEOUT, p.request_timeout);
        assert_eq!(n.request_timeout, p.request_timeout);
        assert_eq!(DEFAULT_MAX_FILE_BYTES, p.max_kubeconfig_bytes);
        assert_eq!(DEFAULT_MAX_FILE_BYTES, p.max_referenced_file_bytes);
        assert_eq!(n.deadline, None);
    }

    #[test]
    fn read_limited_names_the_binding_limit() {
        use cube_model::Limit;
        let dir = tempfile::tempdir().expect("tmp");
        let f = dir.path().join("kc");
        std::fs::write(&f, vec![b'#'; 100]).expect("write");
        let mut l = cube_model::Limits::default();
        l.max_kubeconfig_bytes = 50;
        match read_limited(&f, &l, Limit::KubeconfigBytes) {
            Err(FileReadError::TooLarge(e)) => {
                assert_eq!((e.limit, e.max), (Limit::KubeconfigBytes, 50));
                assert!(e.to_string().contains("--max-kubeconfig-bytes"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // file-bytes below the kubeconfig bound binds first
        l.max_kubeconfig_bytes = 1000;
        l.max_file_bytes = 60;
        match read_limited(&f, &l, Limit::KubeconfigBytes) {
            Err(FileReadError::TooLarge(e)) => assert_eq!((e.limit, e.max), (Limit::FileBytes, 60)),
            other => panic!("{other:?}"),
        }
        l.max_file_bytes = 1000;
        assert_eq!(
            read_limited(&f, &l, Limit::KubeconfigBytes)
                .expect("read")
                .len(),
            100
        );
        l.max_referenced_file_bytes = 99;
        assert!(matches!(
            read_limited(&f, &l, Limit::ReferencedFileBytes),
            Err(FileReadError::TooLarge(e)) if e.limit == Limit::ReferencedFileBytes
        ));
    }

    #[test]
    fn refuses_devices_directories_and_large_files() {
        assert!(matches!(
            read_file_bounded(Path::new("/dev/zero"), 10),
            Err(FileReadError::NotRegularFile { .. })
        ));
        let dir = tempfile::tempdir().expect("tmp");
        assert!(matches!(
            read_file_bounded(dir.path(), 10),
            Err(FileReadError::NotRegularFile { .. })
        ));
        let f = dir.path().join("f");
        std::fs::write(&f, b"0123456789ab").expect("write");
        assert!(matches!(
            read_file_bounded(&f, 10),
            Err(FileReadError::TooLarge(e)) if e.max == 10
        ));
        assert_eq!(read_file_bounded(&f, 12).expect("read").len(), 12);
    }
}
