//! Limits: every bound on input size and work, as one policy value.
//!
//! A console imports kubeconfigs uploaded by users and talks to servers it does not control; a CI
//! check reads dumps of any size. Every reader and every program takes its bounds from one
//! [`Limits`] value instead of hard-coding them, so a caller can raise (or lower) any of them in
//! one place: library callers set the fields, the example programs take `--limit KEY=VALUE`
//! (and `--max-file-bytes N`, ...) flags, see [`Limits::apply`].
//!
//! Hitting a limit is never a hang, an abort or a silent truncation: the reader stops and returns
//! (or records) a [`LimitExceeded`] that says what was limited, where, the limit, and how to
//! raise it.
//!
//! | key | field | default | bounds |
//! |---|---|---|---|
//! | `file-bytes` | [`Limits::max_file_bytes`] | 4 GiB | largest file (or stdin) read |
//! | `http-body-bytes` | [`Limits::max_http_body_bytes`] | 256 MiB | largest HTTP response body |
//! | `pages-per-list` | [`Limits::max_pages_per_list`] | 10,000 | pages (`continue`) per list |
//! | `objects-per-snapshot` | [`Limits::max_objects_per_snapshot`] | 2,000,000 | objects kept in one snapshot |
//! | `collection-bytes` | [`Limits::max_collection_bytes`] | 2 GiB | bytes of list pages read in one live collection, every kind together |
//! | `replicas-expanded` | [`Limits::max_replicas_expanded`] | 10,000 | replica pods tried per workload (each is admitted and scheduled against the ones before it, on one incremental index) |
//! | `yaml-alias-expansions` | [`Limits::max_yaml_alias_expansions`] | 100,000 | YAML alias events replayed per file (all documents together) |
//! | `kubeconfig-bytes` | [`Limits::max_kubeconfig_bytes`] | 16 MiB | a kubeconfig file (a larger one is refused as bad input, never read as a snapshot) |
//! | `referenced-file-bytes` | [`Limits::max_referenced_file_bytes`] | 16 MiB | a file a kubeconfig references (`certificate-authority`, `client-certificate`, `client-key`, `tokenFile`) |
//! | `log-line-bytes` | [`Limits::max_log_line_bytes`] | 64 KiB | one line of a pasted log read by the classifiers (the rest of a longer line is not read) |
//! | `collection-deadline-secs` | [`Limits::collection_deadline`] | 900 s | a whole live collection |
//! | `request-timeout-secs` | [`Limits::request_timeout`] | 30 s | one HTTP request, body included |
//! | `documents-per-file` | [`Limits::max_documents_per_file`] | 1,000,000 | YAML documents (`---` markers, empty documents included) read from one file |
//! | `log-lines` | [`Limits::max_log_lines`] | 1,000,000 | lines of pasted logs read by the classifiers, all inputs together (the lines past it are counted, not read) |
//! | `findings-per-report` | [`Limits::max_findings_per_report`] | 10,000 | findings listed in one diagnosis report after equal ones are folded (the rest are counted in the summary and named by rule in a `report-truncated` finding) |
//!
//! The defaults fit Kubernetes' published scale limits (5,000 nodes, 150,000 pods: a ~2 GB
//! `kubectl get -o json` dump; the API server's JSON of a pod without managed fields is a few
//! KiB, so a live collection of such a cluster reads well under 2 GiB) with room to spare, and
//! keep a server that pages without end (a fresh `continue` token and fresh objects on every
//! page) from taking more than a few GB of memory: a debug build measured about 2 bytes of
//! peak memory per byte of list read (256 MiB of 500-Node pages: 490 MB), so the default
//! budget bounds such a server at about 4 GB.

use std::fmt;
use std::time::Duration;

/// One kind of limit (a key of [`Limits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Limit {
    /// Largest file (or standard input) read, in bytes.
    FileBytes,
    /// Largest HTTP response body, in bytes.
    HttpBodyBytes,
    /// Pages fetched for one list (`limit` + `continue`).
    PagesPerList,
    /// Objects kept in one snapshot.
    ObjectsPerSnapshot,
    /// Replica pods expanded from one workload (a Deployment's `replicas`, a Job's
    /// `parallelism`).
    ReplicasExpanded,
    /// YAML alias events replayed while reading one file (every document of it together).
    YamlAliasExpansions,
    /// Largest kubeconfig file, in bytes.
    KubeconfigBytes,
    /// Largest file a kubeconfig references (CA, client certificate or key, `tokenFile`), in
    /// bytes.
    ReferencedFileBytes,
    /// Longest line of a pasted log read by the classifiers, in bytes.
    LogLineBytes,
    /// Overall deadline of a live collection, in seconds.
    CollectionDeadlineSecs,
    /// Timeout of one HTTP request (headers and body), in seconds.
    RequestTimeoutSecs,
    /// YAML documents read from one file (empty ones included).
    DocumentsPerFile,
    /// Lines of pasted logs read by the classifiers, all inputs together.
    LogLines,
    /// Findings listed in one diagnosis report (after equal findings are folded).
    FindingsPerReport,
    /// Bytes of list pages read in one live collection, every kind together.
    CollectionBytes,
}

impl Limit {
    /// Every limit, in documentation order.
    pub const ALL: [Limit; 15] = [
        Limit::FileBytes,
        Limit::HttpBodyBytes,
        Limit::PagesPerList,
        Limit::ObjectsPerSnapshot,
        Limit::ReplicasExpanded,
        Limit::YamlAliasExpansions,
        Limit::KubeconfigBytes,
        Limit::ReferencedFileBytes,
        Limit::LogLineBytes,
        Limit::CollectionDeadlineSecs,
        Limit::RequestTimeoutSecs,
        Limit::DocumentsPerFile,
        Limit::LogLines,
        Limit::FindingsPerReport,
        Limit::CollectionBytes,
    ];

    /// The key used in `--limit KEY=VALUE` (`file-bytes`).
    pub fn key(self) -> &'static str {
        match self {
            Limit::FileBytes => "file-bytes",
            Limit::HttpBodyBytes => "http-body-bytes",
            Limit::PagesPerList => "pages-per-list",
            Limit::ObjectsPerSnapshot => "objects-per-snapshot",
            Limit::ReplicasExpanded => "replicas-expanded",
            Limit::YamlAliasExpansions => "yaml-alias-expansions",
            Limit::KubeconfigBytes => "kubeconfig-bytes",
            Limit::ReferencedFileBytes => "referenced-file-bytes",
            Limit::LogLineBytes => "log-line-bytes",
            Limit::CollectionDeadlineSecs => "collection-deadline-secs",
            Limit::RequestTimeoutSecs => "request-timeout-secs",
            Limit::DocumentsPerFile => "documents-per-file",
            Limit::LogLines => "log-lines",
            Limit::FindingsPerReport => "findings-per-report",
            Limit::CollectionBytes => "collection-bytes",
        }
    }

    /// The dedicated flag of the example programs (`--max-file-bytes`).
    pub fn flag(self) -> &'static str {
        match self {
            Limit::FileBytes => "--max-file-bytes",
            Limit::HttpBodyBytes => "--max-http-body-bytes",
            Limit::PagesPerList => "--max-pages-per-list",
            Limit::ObjectsPerSnapshot => "--max-objects-per-snapshot",
            Limit::ReplicasExpanded => "--max-replicas-expanded",
            Limit::YamlAliasExpansions => "--max-yaml-alias-expansions",
            Limit::KubeconfigBytes => "--max-kubeconfig-bytes",
            Limit::ReferencedFileBytes => "--max-referenced-file-bytes",
            Limit::LogLineBytes => "--max-log-line-bytes",
            Limit::CollectionDeadlineSecs => "--collection-deadline-secs",
            Limit::RequestTimeoutSecs => "--request-timeout-secs",
            Limit::DocumentsPerFile => "--max-documents-per-file",
            Limit::LogLines => "--max-log-lines",
            Limit::FindingsPerReport => "--max-findings-per-report",
            Limit::CollectionBytes => "--max-collection-bytes",
        }
    }

    /// What is limited, as a noun phrase (`the file size`).
    pub fn what(self) -> &'static str {
        match self {
            Limit::FileBytes => "the file size",
            Limit::HttpBodyBytes => "the HTTP response body",
            Limit::PagesPerList => "the number of pages of one list",
            Limit::ObjectsPerSnapshot => "the number of objects in one snapshot",
            Limit::ReplicasExpanded => "the number of replicas expanded for one workload",
            Limit::YamlAliasExpansions => "the number of YAML alias expansions in one file",
            Limit::KubeconfigBytes => "the size of a kubeconfig",
            Limit::ReferencedFileBytes => "the size of a file a kubeconfig references",
            Limit::LogLineBytes => "the length of one log line",
            Limit::CollectionDeadlineSecs => "the time of the live collection",
            Limit::RequestTimeoutSecs => "the time of one request",
            Limit::DocumentsPerFile => "the number of YAML documents in one file",
            Limit::LogLines => "the number of log lines read",
            Limit::FindingsPerReport => "the number of findings listed in one report",
            Limit::CollectionBytes => "the bytes of list pages read in one live collection",
        }
    }

    /// The unit of the value (`bytes`, `pages`, `seconds`).
    pub fn unit(self) -> &'static str {
        match self {
            Limit::FileBytes
            | Limit::HttpBodyBytes
            | Limit::KubeconfigBytes
            | Limit::ReferencedFileBytes
            | Limit::LogLineBytes
            | Limit::CollectionBytes => "bytes",
            Limit::PagesPerList => "pages",
            Limit::ObjectsPerSnapshot => "objects",
            Limit::ReplicasExpanded => "replicas",
            Limit::YamlAliasExpansions => "alias expansions",
            Limit::CollectionDeadlineSecs | Limit::RequestTimeoutSecs => "seconds",
            Limit::DocumentsPerFile => "documents",
            Limit::LogLines => "lines",
            Limit::FindingsPerReport => "findings",
        }
    }

    /// Largest value accepted for this limit. Sizes stop at 1 TiB, counts at 2^32, durations at
    /// one year (so a deadline added to "now" can never overflow).
    pub fn max_value(self) -> u64 {
        match self {
            Limit::FileBytes
            | Limit::HttpBodyBytes
            | Limit::KubeconfigBytes
            | Limit::ReferencedFileBytes
            | Limit::LogLineBytes
            | Limit::CollectionBytes => 1 << 40,
            Limit::PagesPerList | Limit::ReplicasExpanded => u64::from(u32::MAX),
            Limit::ObjectsPerSnapshot
            | Limit::YamlAliasExpansions
            | Limit::DocumentsPerFile
            | Limit::LogLines
            | Limit::FindingsPerReport => 1 << 32,
            Limit::CollectionDeadlineSecs | Limit::RequestTimeoutSecs => 365 * 24 * 3600,
        }
    }

    /// The limit for a `--limit` key (`file-bytes`; the dedicated flag name without its dashes
    /// and `max-` prefix is accepted too).
    pub fn from_key(key: &str) -> Option<Limit> {
        let key = key.trim().trim_start_matches('-');
        let key = key.strip_prefix("max-").unwrap_or(key);
        Limit::ALL.into_iter().find(|l| {
            l.key() == key || l.flag().trim_start_matches("--").trim_start_matches("max-") == key
        })
    }

    /// How a user raises this limit, for messages:
    /// `--limit file-bytes=N (or --max-file-bytes N; library: Limits::max_file_bytes)`.
    pub fn how_to_raise(self) -> String {
        format!(
            "raise it with --limit {}=N (or {} N; library: Limits::{})",
            self.key(),
            self.flag(),
            self.field()
        )
    }

    fn field(self) -> &'static str {
        match self {
            Limit::FileBytes => "max_file_bytes",
            Limit::HttpBodyBytes => "max_http_body_bytes",
            Limit::PagesPerList => "max_pages_per_list",
            Limit::ObjectsPerSnapshot => "max_objects_per_snapshot",
            Limit::ReplicasExpanded => "max_replicas_expanded",
            Limit::YamlAliasExpansions => "max_yaml_alias_expansions",
            Limit::KubeconfigBytes => "max_kubeconfig_bytes",
            Limit::ReferencedFileBytes => "max_referenced_file_bytes",
            Limit::LogLineBytes => "max_log_line_bytes",
            Limit::CollectionDeadlineSecs => "collection_deadline",
            Limit::RequestTimeoutSecs => "request_timeout",
            Limit::DocumentsPerFile => "max_documents_per_file",
            Limit::LogLines => "max_log_lines",
            Limit::FindingsPerReport => "max_findings_per_report",
            Limit::CollectionBytes => "max_collection_bytes",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Every bound on input size and work (see the module docs for the keys and defaults).
///
/// ```
/// use cube_model::limits::{Limit, Limits};
/// let mut limits = Limits::default();
/// limits.apply("file-bytes=64Mi").unwrap();
/// assert_eq!(limits.max_file_bytes, 64 << 20);
/// assert_eq!(limits.get(Limit::FileBytes), 64 << 20);
/// assert!(limits.apply("file-bytes=0").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest file (or standard input) read, in bytes ([`crate::io::read_file`]).
    pub max_file_bytes: u64,
    /// Largest HTTP response body, in bytes (`/version`, one list page).
    pub max_http_body_bytes: u64,
    /// Pages fetched for one list; a server that keeps sending a `continue` token is stopped
    /// here.
    pub max_pages_per_list: u32,
    /// Objects kept in one snapshot; objects past it are counted, not stored.
    pub max_objects_per_snapshot: u64,
    /// Replica pods expanded (and admitted one by one) for one workload.
    pub max_replicas_expanded: u32,
    /// YAML alias events replayed while reading one file; the budget is shared by every
    /// document of the file (it does not restart per document).
    pub max_yaml_alias_expansions: u64,
    /// Largest kubeconfig file, in bytes (the same 16 MiB cube-cluster allows a file a
    /// kubeconfig references). A larger kubeconfig (100 MB of `certificate-authority-data`) is
    /// refused as bad input by every program, with this limit named; a larger input that only
    /// looks like a kubeconfig is never read as a snapshot instead.
    pub max_kubeconfig_bytes: u64,
    /// Largest file a kubeconfig references (`certificate-authority`, `client-certificate`,
    /// `client-key`, `tokenFile`), in bytes: a larger one is not read and its kubeconfig
    /// problem carries this limit (cube-cluster `SelectOptions::limits`). Real ones are a few
    /// KiB (a CA bundle of every public root is about 200 KiB).
    pub max_referenced_file_bytes: u64,
    /// Longest line of a pasted log read by the classifiers, in bytes; a longer line is read up
    /// to here, listed as an input problem and as a limit hit. No real log line is this long
    /// (journald's `LineMax` is 48 KiB, the CRI log format splits lines at 16 KiB); matching
    /// the message catalog against a 500 MB line of no newline took tens of minutes.
    pub max_log_line_bytes: u64,
    /// Overall deadline of a live collection (every list of every kind).
    pub collection_deadline: Duration,
    /// Timeout of one HTTP request, headers and body.
    pub request_timeout: Duration,
    /// YAML documents read from one file, empty ones (a bare `---`) included: the documents
    /// past it are not read, and the file is reported as cut (a snapshot of 150,000 pods
    /// written one document per object has 150,000).
    pub max_documents_per_file: u64,
    /// Lines of pasted logs (and other texts read as logs) read by the classifiers, all inputs
    /// of one run together: the lines past it are counted, not read, and reported as a limit
    /// hit. A day of `journalctl -u kubelet` on a busy node is about 100,000 lines.
    pub max_log_lines: u64,
    /// Findings listed in one diagnosis report, after equal findings of a rule are folded: a
    /// snapshot with 200,000 distinct problems gave a report of 200,000 entries in every
    /// format. The findings past it (the least severe first, by the report's order) are not
    /// listed; they are still counted in the summary and the score, and a `report-truncated`
    /// finding says how many were left out, per rule, and how to raise the limit.
    pub max_findings_per_report: u64,
    /// Bytes of list pages read in one live collection, every kind together (each page is
    /// also bounded by [`Limits::max_http_body_bytes`] and each list by
    /// [`Limits::max_pages_per_list`]): a server that answers every page with fresh objects and
    /// a fresh `continue` token is stopped here, the kind being read and every kind after it
    /// reported as not (completely) read with this limit, instead of growing the snapshot until
    /// memory runs out.
    pub max_collection_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 4 << 30,
            max_http_body_bytes: 256 << 20,
            max_pages_per_list: 10_000,
            max_objects_per_snapshot: 2_000_000,
            max_replicas_expanded: 10_000,
            max_yaml_alias_expansions: 100_000,
            max_kubeconfig_bytes: 16 << 20,
            max_referenced_file_bytes: 16 << 20,
            max_log_line_bytes: 64 << 10,
            collection_deadline: Duration::from_secs(900),
            request_timeout: Duration::from_secs(30),
            max_documents_per_file: 1_000_000,
            max_log_lines: 1_000_000,
            max_findings_per_report: 10_000,
            max_collection_bytes: 2 << 30,
        }
    }
}

/// Why a `--limit` setting was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitError {
    /// No such limit key.
    #[error("unknown limit {key:?} (known: {known})")]
    UnknownKey {
        /// The key given.
        key: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// Not `KEY=VALUE`.
    #[error("expected KEY=VALUE, got {given:?}")]
    Syntax {
        /// The text given.
        given: String,
    },
    /// The value is not a number (with an optional unit suffix).
    #[error(
        "invalid value {value:?} for limit {limit}: expected a whole number{suffixes}",
        suffixes = if limit.unit() == "bytes" { " with an optional k, M, G, T, Ki, Mi, Gi or Ti suffix" } else if limit.unit() == "seconds" { " of seconds with an optional s, m or h suffix" } else { "" }
    )]
    Invalid {
        /// The limit.
        limit: Limit,
        /// The value given.
        value: String,
    },
    /// The value is outside `1..=max`.
    #[error("limit {limit} must be between 1 and {max} {unit}, got {value}", unit = limit.unit())]
    OutOfRange {
        /// The limit.
        limit: Limit,
        /// The value given (saturated at `u64::MAX`).
        value: u64,
        /// The largest accepted value.
        max: u64,
    },
}

impl Limits {
    /// The current value of one limit (durations in whole seconds).
    pub fn get(&self, limit: Limit) -> u64 {
        match limit {
            Limit::FileBytes => self.max_file_bytes,
            Limit::HttpBodyBytes => self.max_http_body_bytes,
            Limit::PagesPerList => u64::from(self.max_pages_per_list),
            Limit::ObjectsPerSnapshot => self.max_objects_per_snapshot,
            Limit::ReplicasExpanded => u64::from(self.max_replicas_expanded),
            Limit::YamlAliasExpansions => self.max_yaml_alias_expansions,
            Limit::KubeconfigBytes => self.max_kubeconfig_bytes,
            Limit::ReferencedFileBytes => self.max_referenced_file_bytes,
            Limit::LogLineBytes => self.max_log_line_bytes,
            Limit::CollectionDeadlineSecs => self.collection_deadline.as_secs(),
            Limit::RequestTimeoutSecs => self.request_timeout.as_secs(),
            Limit::DocumentsPerFile => self.max_documents_per_file,
            Limit::LogLines => self.max_log_lines,
            Limit::FindingsPerReport => self.max_findings_per_report,
            Limit::CollectionBytes => self.max_collection_bytes,
        }
    }

    /// Sets one limit.
    ///
    /// # Errors
    /// [`LimitError::OutOfRange`] when `value` is 0 or above [`Limit::max_value`].
    pub fn set(&mut self, limit: Limit, value: u64) -> Result<(), LimitError> {
        let max = limit.max_value();
        if value == 0 || value > max {
            return Err(LimitError::OutOfRange { limit, value, max });
        }
        // In range: the conversions below cannot fail (max_value fits each field).
        let small = u32::try_from(value).unwrap_or(u32::MAX);
        match limit {
            Limit::FileBytes => self.max_file_bytes = value,
            Limit::HttpBodyBytes => self.max_http_body_bytes = value,
            Limit::PagesPerList => self.max_pages_per_list = small,
            Limit::ObjectsPerSnapshot => self.max_objects_per_snapshot = value,
            Limit::ReplicasExpanded => self.max_replicas_expanded = small,
            Limit::YamlAliasExpansions => self.max_yaml_alias_expansions = value,
            Limit::KubeconfigBytes => self.max_kubeconfig_bytes = value,
            Limit::ReferencedFileBytes => self.max_referenced_file_bytes = value,
            Limit::LogLineBytes => self.max_log_line_bytes = value,
            Limit::CollectionDeadlineSecs => self.collection_deadline = Duration::from_secs(value),
            Limit::RequestTimeoutSecs => self.request_timeout = Duration::from_secs(value),
            Limit::DocumentsPerFile => self.max_documents_per_file = value,
            Limit::LogLines => self.max_log_lines = value,
            Limit::FindingsPerReport => self.max_findings_per_report = value,
            Limit::CollectionBytes => self.max_collection_bytes = value,
        }
        Ok(())
    }

    /// Sets one limit from text: a whole number, for sizes with an optional `k`/`M`/`G`/`T`
    /// (powers of 1000) or `Ki`/`Mi`/`Gi`/`Ti` (powers of 1024) suffix, for durations with an
    /// optional `s`/`m`/`h` suffix.
    ///
    /// # Errors
    /// [`LimitError::Invalid`] or [`LimitError::OutOfRange`].
    pub fn set_text(&mut self, limit: Limit, value: &str) -> Result<(), LimitError> {
        let parsed = parse_value(limit, value).ok_or_else(|| LimitError::Invalid {
            limit,
            value: value.to_owned(),
        })?;
        self.set(limit, parsed)
    }

    /// Applies one `KEY=VALUE` setting (`file-bytes=3Gi`, `request-timeout-secs=10`).
    ///
    /// # Errors
    /// [`LimitError`] naming the key or the value.
    pub fn apply(&mut self, setting: &str) -> Result<(), LimitError> {
        let Some((key, value)) = setting.split_once('=') else {
            return Err(LimitError::Syntax {
                given: setting.to_owned(),
            });
        };
        let limit = Limit::from_key(key).ok_or_else(|| LimitError::UnknownKey {
            key: key.to_owned(),
            known: Limit::ALL.map(Limit::key).join(", "),
        })?;
        self.set_text(limit, value)
    }

    /// A [`LimitExceeded`] for `limit` at its current value.
    pub fn exceeded(
        &self,
        limit: Limit,
        subject: impl Into<String>,
        observed: Option<u64>,
    ) -> LimitExceeded {
        LimitExceeded {
            limit,
            max: self.get(limit),
            observed,
            subject: subject.into(),
        }
    }
}

fn parse_value(limit: Limit, text: &str) -> Option<u64> {
    let text = text.trim();
    let digits_end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, suffix) = text.split_at(digits_end);
    if digits.is_empty() {
        return None;
    }
    // Saturate: an absurd number is out of range, not a parse error.
    let n = digits.parse::<u64>().unwrap_or(u64::MAX);
    let factor: u64 = match (limit.unit(), suffix) {
        (_, "") => 1,
        ("bytes", "k" | "K") => 1_000,
        ("bytes", "M") => 1_000_000,
        ("bytes", "G") => 1_000_000_000,
        ("bytes", "T") => 1_000_000_000_000,
        ("bytes", "Ki") => 1 << 10,
        ("bytes", "Mi") => 1 << 20,
        ("bytes", "Gi") => 1 << 30,
        ("bytes", "Ti") => 1 << 40,
        ("seconds", "s") => 1,
        ("seconds", "m") => 60,
        ("seconds", "h") => 3600,
        _ => return None,
    };
    Some(n.saturating_mul(factor))
}

/// A limit was hit: what, where, the limit, and how to raise it.
///
/// Display: `dump.json: the file size exceeds the limit of 4294967296 bytes (at least
/// 4294967297 bytes); raise it with --limit file-bytes=N (or --max-file-bytes N; library:
/// Limits::max_file_bytes)`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct LimitExceeded {
    /// Which limit.
    #[serde(with = "limit_key")]
    pub limit: Limit,
    /// The limit's value when it was hit.
    pub max: u64,
    /// What was seen, when known (a lower bound: reading stops at the limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed: Option<u64>,
    /// Where: a file, a list path, a workload.
    pub subject: String,
}

impl fmt::Display for LimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} exceeds the limit of {} {}",
            self.subject,
            self.limit.what(),
            self.max,
            self.limit.unit()
        )?;
        if let Some(seen) = self.observed {
            write!(f, " (at least {seen} {})", self.limit.unit())?;
        }
        write!(f, "; {}", self.limit.how_to_raise())
    }
}

impl std::error::Error for LimitExceeded {}

mod limit_key {
    use super::Limit;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(l: &Limit, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(l.key())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Limit, D::Error> {
        let key = String::deserialize(d)?;
        Limit::from_key(&key)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown limit {key:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_flags_are_accepted_as_keys() {
        for l in Limit::ALL {
            assert_eq!(Limit::from_key(l.key()), Some(l));
            assert_eq!(Limit::from_key(l.flag()), Some(l), "{}", l.flag());
            assert!(l.max_value() >= Limits::default().get(l));
        }
        assert_eq!(Limit::from_key("nope"), None);
    }

    #[test]
    fn values_with_units_and_bounds() {
        let mut l = Limits::default();
        l.apply("file-bytes=2Gi").unwrap();
        assert_eq!(l.max_file_bytes, 2 << 30);
        l.apply("max-file-bytes=5k").unwrap();
        assert_eq!(l.max_file_bytes, 5000);
        l.apply("request-timeout-secs=2m").unwrap();
        assert_eq!(l.request_timeout, Duration::from_secs(120));
        // every numeric flag is bounded: no Duration overflow, no zero
        let e = l
            .apply("request-timeout-secs=18446744073709551615")
            .unwrap_err();
        assert!(matches!(e, LimitError::OutOfRange { .. }), "{e}");
        let e = l.apply("collection-deadline-secs=99999999999999999999999h");
        assert!(matches!(e, Err(LimitError::OutOfRange { .. })), "{e:?}");
        assert!(matches!(
            l.apply("pages-per-list=0"),
            Err(LimitError::OutOfRange { .. })
        ));
        assert!(matches!(
            l.apply("replicas-expanded=1Ki"),
            Err(LimitError::Invalid { .. })
        ));
        assert!(matches!(
            l.apply("bogus=1"),
            Err(LimitError::UnknownKey { .. })
        ));
        assert!(matches!(
            l.apply("file-bytes"),
            Err(LimitError::Syntax { .. })
        ));
    }

    #[test]
    fn exceeded_says_what_where_limit_and_how_to_raise() {
        let l = Limits::default();
        let e = l.exceeded(Limit::FileBytes, "dump.json", Some(5 << 30));
        let t = e.to_string();
        assert!(t.starts_with("dump.json: the file size exceeds the limit of 4294967296 bytes"));
        assert!(t.contains("--limit file-bytes=N"), "{t}");
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains("\"limit\":\"file-bytes\""), "{json}");
        let back: LimitExceeded = serde_json::from_str(&json).unwrap();
        assert_eq!(back, e);
    }
}
