//! Shared helpers for the cube-rs example programs.

use std::path::Path;

use cube_model::ClusterSnapshot;
use cube_model::limits::Limits;
use cube_model::snapshot::LoadOutcome;

/// Loads `--snapshot` files for a program that needs a cluster snapshot, with the default
/// [`Limits`] (see [`load_snapshot_files_with`]).
///
/// # Errors
/// The message for exit code 2.
pub fn load_snapshot_files<P: AsRef<Path>>(
    paths: &[P],
) -> Result<(ClusterSnapshot, Vec<String>), String> {
    load_snapshot_files_with(paths, &Limits::default())
}

/// Loads `--snapshot` files for a program that needs a cluster snapshot.
///
/// Every file is read through the one bounded reader ([`cube_model::io::read_file`]: at most
/// `limits.max_file_bytes`, FIFOs, devices and directories refused) and must be readable
/// (`cannot read <path>: <reason>`) and must yield at least one Kubernetes object (`<path>: not
/// a cluster snapshot ...`): a program must never silently run against an empty cluster. Load
/// problems of the objects themselves are returned as warnings, each with its file, document,
/// object and field path (`LoadProblem`'s Display).
///
/// # Errors
/// The message for exit code 2.
pub fn load_snapshot_files_with<P: AsRef<Path>>(
    paths: &[P],
    limits: &Limits,
) -> Result<(ClusterSnapshot, Vec<String>), String> {
    load_snapshot_files_keeping(paths, limits, cube_model::PodFields::All)
}

/// [`load_snapshot_files_with`], keeping of each Pod of a large JSON List the fields
/// `pod_fields` says (`PodFields::WhatIf` for a what-if such as `pod_admit`: the fields no step
/// of it reads are checked and left empty; see `cube_model::projection`).
///
/// # Errors
/// As [`load_snapshot_files_with`].
pub fn load_snapshot_files_keeping<P: AsRef<Path>>(
    paths: &[P],
    limits: &Limits,
    pod_fields: cube_model::PodFields,
) -> Result<(ClusterSnapshot, Vec<String>), String> {
    let mut snapshot = ClusterSnapshot::new();
    for path in paths {
        let path = path.as_ref();
        let label = path.display().to_string();
        // a large JSON List (over what the secret scan reads) is read in pieces, never whole
        let mut streamed = None;
        if let Ok((file, len)) = cube_model::io::open_file(path, limits)
            && len > LEARN_SECRETS_MAX_BYTES as u64
        {
            let mut reader = std::io::Read::take(file, limits.max_file_bytes.saturating_add(1));
            match snapshot.add_json_reader_with(&label, &mut reader, pod_fields) {
                Ok(cube_model::StreamOutcome::Loaded(outcome)) => streamed = Some(outcome),
                Ok(_) => {}
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        let outcome = match streamed {
            Some(outcome) => outcome,
            None => {
                let bytes = cube_model::io::read_file(path, limits).map_err(|e| e.to_string())?;
                learn_secrets(&bytes);
                snapshot.add_bytes(&label, &bytes)
            }
        };
        match outcome {
            LoadOutcome::Loaded { objects, .. } if objects > 0 => {}
            LoadOutcome::Loaded { .. } => {
                let why = snapshot
                    .problems
                    .iter()
                    .find(|p| p.file == label)
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default();
                return Err(format!(
                    "{}: the file holds no Kubernetes object{why}; expected `kubectl get -o json|yaml` output",
                    path.display()
                ));
            }
            _ => {
                return Err(format!(
                    "{}: not a cluster snapshot (no Kubernetes object found); expected `kubectl get -o json|yaml` output",
                    path.display()
                ));
            }
        }
    }
    let warnings = snapshot.problems.iter().map(ToString::to_string).collect();
    Ok((snapshot, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str, body: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cube-examples-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("tmp dir");
        let p = dir.join(name);
        std::fs::write(&p, body).expect("write");
        p
    }

    /// Regression: a missing, empty or garbage `--snapshot` ran against an empty cluster.
    #[test]
    fn snapshot_files_must_be_readable_and_hold_objects() {
        let err = load_snapshot_files(&["/nonexistent/snap.json"]).expect_err("missing");
        assert!(
            err.starts_with("cannot read /nonexistent/snap.json: "),
            "{err}"
        );
        let empty = tmp("empty.json", "");
        let err = load_snapshot_files(&[&empty]).expect_err("empty");
        assert!(err.contains("empty.json"), "{err}");
        let garbage = tmp("garbage.json", "this is not a snapshot\n");
        let err = load_snapshot_files(&[&garbage]).expect_err("garbage");
        assert!(err.contains("garbage.json"), "{err}");
        let good = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/snapshot-gpu-cluster.json"
        );
        let (s, _) = load_snapshot_files(&[good]).expect("good snapshot");
        assert!(!s.nodes.is_empty());
        let err = load_snapshot_files(&[Path::new(good), Path::new("/nonexistent")])
            .expect_err("good then missing");
        assert!(err.starts_with("cannot read /nonexistent: "), "{err}");
    }
}

/// Leaves `value` to the operating system instead of dropping it: for what a program holds
/// until it exits (a loaded snapshot, the report built from it). The process ends right after,
/// and the system takes its memory back at once, while dropping a 150,000-pod snapshot frees
/// millions of allocations one by one (a quarter of a second or more of a `pod_admit` run,
/// issue 12). Nothing is written or flushed by these values' destructors (they own only memory).
pub fn leave_at_exit<T>(value: T) {
    std::mem::forget(value);
}

/// Deserializes group number `index` (0-based) of a groups file, naming the failing field's
/// full path and its value: `groups[0].quota[0].hard.requests.cpu: "abc": quantities must
/// match ...`.
///
/// # Errors
/// The message.
pub fn group_from_value(
    index: usize,
    value: serde_json::Value,
) -> Result<cube_model::ResourceGroup, String> {
    match serde_path_to_error::deserialize::<_, cube_model::ResourceGroup>(&value) {
        Ok(g) => Ok(g),
        Err(e) => {
            let mut path = format!("groups[{index}]");
            let mut cur = Some(&value);
            for seg in e.path().iter() {
                match seg {
                    serde_path_to_error::Segment::Seq { index } => {
                        path.push_str(&format!("[{index}]"));
                        cur = cur.and_then(|v| v.get(*index));
                    }
                    serde_path_to_error::Segment::Map { key } => {
                        path.push('.');
                        path.push_str(key);
                        cur = cur.and_then(|v| v.get(key.as_str()));
                    }
                    serde_path_to_error::Segment::Enum { variant } => {
                        path.push('.');
                        path.push_str(variant);
                    }
                    serde_path_to_error::Segment::Unknown => path.push_str(".?"),
                }
            }
            let shown = match cur {
                Some(v) if !v.is_object() && !v.is_array() => format!(" {v}"),
                _ => String::new(),
            };
            Err(format!("{path}:{shown}: {}", e.inner()))
        }
    }
}

#[cfg(test)]
mod hide_tests {
    use std::io::Write;

    /// A report written in small pieces through [`super::HideKnown`] is the text
    /// [`super::hide_known`] makes of the whole, secrets across piece boundaries included, and
    /// is held about one piece at a time.
    #[test]
    fn hiding_while_writing_is_hiding_the_whole() {
        let secret = "hk-s3cr3t-token-value-0042";
        super::learn_secrets(
            format!("users:\n- name: u\n  user:\n    token: {secret}\n").as_bytes(),
        );
        let unit = format!("{{\"message\": \"token {secret} é\"}},\n");
        let text = unit.repeat(3 * super::HideKnown::<Vec<u8>>::PIECE / unit.len() + 7);
        let whole = format!("{}\n", super::hide_known(&text));
        assert!(!whole.contains(secret));
        for piece in [1, 7, 4096, 100_003] {
            let mut w = super::HideKnown::new(Vec::new());
            for chunk in text.as_bytes().chunks(piece) {
                w.write_all(chunk).expect("write");
                assert!(w.pending.len() < super::HideKnown::<Vec<u8>>::PIECE + piece);
            }
            w.finish(b"\n").expect("finish");
            assert_eq!(
                String::from_utf8(w.inner).expect("utf-8"),
                whole,
                "pieces of {piece}"
            );
        }
    }
}

#[cfg(test)]
mod group_tests {
    /// Regression: a bad quantity said `group #1: quantities must match...` with neither the
    /// field path nor the value.
    #[test]
    fn bad_group_field_names_path_and_value() {
        let v = serde_json::json!({
            "name": "g", "owner": "o",
            "quota": [{"name": "b", "hard": {"requests.cpu": "abc"}}],
            "namespaces": [{"name": "n"}]
        });
        let e = super::group_from_value(0, v).expect_err("bad cpu");
        assert!(
            e.starts_with("groups[0].quota[0].hard.requests.cpu: \"abc\": "),
            "{e}"
        );
    }
}

/// Writes `text` and a newline to stdout.
///
/// A closed pipe (`... | head`) is not an error for a report printer: the reader has what it
/// wanted, so this returns quietly instead of panicking as `println!` does.
///
/// # Errors
/// Any other write error.
pub fn print_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let text = hide_known(text);
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes what `render` writes, then a newline, to stdout as [`print_stdout`] does with a
/// string, but without holding the whole text in memory (a report on a pod-heavy dump is about a
/// quarter of the dump; one of a page of a million Pending pods about 1.4 GB, issue 9): the text
/// goes out through a buffer as it is rendered, and when secrets were learnt
/// ([`learn_secrets`]) through [`HideKnown`], which hides them piece by piece. Either way the
/// bytes on stdout are those of [`print_stdout`]; a closed pipe ends quietly.
///
/// # Errors
/// Any write error but a broken pipe, and any error of `render` that is not a write error.
pub fn print_stdout_streamed(
    render: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write;
    let nothing_to_hide = known_secrets()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .is_empty();
    let out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let result = if nothing_to_hide {
        let mut out = out;
        render(&mut out)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush())
    } else {
        let mut hiding = HideKnown::new(out);
        render(&mut hiding).and_then(|()| hiding.finish(b"\n"))
    };
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// A writer that passes text on with every secret learnt from the inputs ([`learn_secrets`])
/// hidden, as [`hide_known`] does on a whole string, holding about 1 MiB at a time
/// ([`cube_model::redact::KnownSecrets::hide_until`]: a value cut between two writes is still
/// found). Call [`HideKnown::finish`] at the end: the last bytes are held until then.
pub struct HideKnown<W: std::io::Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: std::io::Write> HideKnown<W> {
    /// Text held before a part of it is passed on.
    const PIECE: usize = 1 << 20;

    /// A writer into `inner`.
    pub fn new(inner: W) -> Self {
        HideKnown {
            inner,
            pending: Vec::new(),
        }
    }

    /// Passes on what is held (`last`: all of it, invalid UTF-8 replaced as
    /// `String::from_utf8_lossy` does; else all but the tail a secret may still continue in).
    fn pass_on(&mut self, last: bool) -> std::io::Result<()> {
        let known = known_secrets()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let lossy;
        let text: &str = if last {
            lossy = String::from_utf8_lossy(&self.pending);
            &lossy
        } else {
            let valid = match std::str::from_utf8(&self.pending) {
                Ok(t) => t.len(),
                Err(e) => e.valid_up_to(),
            };
            std::str::from_utf8(&self.pending[..valid]).unwrap_or_default()
        };
        let upto = if last {
            text.len()
        } else {
            let mut upto = text.len().saturating_sub(known.max_len());
            while !text.is_char_boundary(upto) {
                upto -= 1;
            }
            upto
        };
        let mut hidden = None;
        let done = known.hide_until(text, upto, &mut hidden);
        drop(known);
        match &hidden {
            Some(h) => self.inner.write_all(h.as_bytes())?,
            None => self.inner.write_all(&text.as_bytes()[..done])?,
        }
        if last {
            self.pending.clear();
        } else {
            self.pending.drain(..done);
        }
        Ok(())
    }

    /// Passes on the rest, then `tail` as it is, and flushes.
    ///
    /// # Errors
    /// The inner writer's.
    pub fn finish(&mut self, tail: &[u8]) -> std::io::Result<()> {
        self.pass_on(true)?;
        self.inner.write_all(tail)?;
        self.inner.flush()
    }
}

impl<W: std::io::Write> std::io::Write for HideKnown<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= Self::PIECE {
            self.pass_on(false)?;
        }
        Ok(buf.len())
    }
    /// Flushes what was passed on; the held tail waits for more text or
    /// [`HideKnown::finish`].
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Reads a cluster registry file (YAML or JSON) through the bounded reader with the registry's
/// strict parser ([`cube_model::ClusterRegistry::from_yaml`]: unknown keys refused, values never
/// quoted in errors) and validates it: every problem of
/// [`cube_model::ClusterRegistry::validate`] is reported with the file name.
///
/// # Errors
/// The message for exit code 2.
pub fn read_registry(path: &Path) -> Result<cube_model::ClusterRegistry, String> {
    read_registry_with(path, &Limits::default())
}

/// [`read_registry`] within `limits` (file size, YAML alias expansions).
///
/// # Errors
/// The message for exit code 2.
pub fn read_registry_with(
    path: &Path,
    limits: &Limits,
) -> Result<cube_model::ClusterRegistry, String> {
    let bytes = cube_model::io::read_file(path, limits).map_err(|e| e.to_string())?;
    learn_secrets(&bytes);
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: the registry is not UTF-8 text", path.display()))?;
    let registry = cube_model::ClusterRegistry::from_yaml_with(&text, limits)
        .map_err(|e| format!("{}: not a cluster registry: {e}", path.display()))?;
    let problems = registry.validate();
    if !problems.is_empty() {
        return Err(problems
            .iter()
            .map(|p| format!("{}: {p}", path.display()))
            .collect::<Vec<_>>()
            .join("\n"));
    }
    if registry.clusters.is_empty() {
        return Err(format!("{}: no clusters", path.display()));
    }
    Ok(registry)
}

/// The directory a registry file's relative kubeconfig paths resolve against (its own).
pub fn registry_dir(path: &Path) -> std::path::PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// Parses a duration flag in seconds (`--timeout 2.5`): finite, above 0 and at most one hour,
/// so `Duration::from_secs_f64` can never panic on it; a clap `value_parser`, so a bad value is
/// a usage error (exit 2) even when the flag's mode is not used.
///
/// # Errors
/// The message clap prints.
pub fn seconds(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if v.is_finite() && v > 0.0 && v <= 3600.0 {
        Ok(v)
    } else {
        Err(format!(
            "{text:?}: must be above 0 and at most 3600 seconds"
        ))
    }
}

/// The exit codes every example program uses for the same kind of outcome (documented in
/// `examples/README.md`).
pub mod exit {
    /// Everything was read and nothing is wrong (admitted, planned, importable, no error
    /// findings).
    pub const OK: u8 = 0;
    /// The answer is "no": error findings, rejected or Pending, not importable.
    pub const FINDINGS: u8 = 1;
    /// Bad input or usage: an unreadable, empty, oversized or unparseable file, an invalid
    /// flag value (clap's usage errors use 2 too).
    pub const BAD_INPUT: u8 = 2;
    /// The picture is incomplete: a kind could not be read, a limit was hit, part of the input
    /// was skipped; whatever else the output says, it is not "all clear".
    pub const INCOMPLETE: u8 = 3;
    /// The output could not be written (stdout on a full disk, `> /dev/full`, a failing
    /// device; a closed pipe is no failure): no answer was given, so the code is never one of
    /// the answers 0, 1 or 3. The same in every program (it is [`BAD_INPUT`]'s 2, the code of
    /// every run that ends without an answer).
    pub const OUTPUT_FAILED: u8 = 2;
}

/// Limit flags shared by every program: `--limit KEY=VALUE` (repeatable) and one dedicated flag
/// per limit (`--max-file-bytes 3Gi`); see [`cube_model::limits`] for the keys and defaults.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LimitArgs {
    /// Override a limit: KEY=VALUE, repeatable. Keys: file-bytes, http-body-bytes,
    /// pages-per-list, objects-per-snapshot, replicas-expanded, yaml-alias-expansions,
    /// kubeconfig-bytes, referenced-file-bytes, log-line-bytes, collection-deadline-secs,
    /// request-timeout-secs, documents-per-file, log-lines, findings-per-report,
    /// collection-bytes (sizes take
    /// k/M/G/Ki/Mi/Gi, times s/m/h).
    #[arg(long = "limit", value_name = "KEY=VALUE")]
    pub limit: Vec<String>,
    /// Largest file (or stdin) read, in bytes (default 4Gi).
    #[arg(long, value_name = "BYTES")]
    pub max_file_bytes: Option<String>,
    /// Largest HTTP response body, in bytes (default 256Mi).
    #[arg(long, value_name = "BYTES")]
    pub max_http_body_bytes: Option<String>,
    /// Pages read per list (default 10000).
    #[arg(long, value_name = "N")]
    pub max_pages_per_list: Option<String>,
    /// Objects kept in one snapshot (default 2000000).
    #[arg(long, value_name = "N")]
    pub max_objects_per_snapshot: Option<String>,
    /// Replica pods expanded per workload (default 10000).
    #[arg(long, value_name = "N")]
    pub max_replicas_expanded: Option<String>,
    /// YAML alias expansions per file (default 100000).
    #[arg(long, value_name = "N")]
    pub max_yaml_alias_expansions: Option<String>,
    /// Largest kubeconfig file, in bytes (default 16Mi).
    #[arg(long, value_name = "BYTES")]
    pub max_kubeconfig_bytes: Option<String>,
    /// Largest file a kubeconfig references (CA, client certificate or key, tokenFile), in
    /// bytes (default 16Mi).
    #[arg(long, value_name = "BYTES")]
    pub max_referenced_file_bytes: Option<String>,
    /// Longest log line read by the classifiers, in bytes (default 64Ki).
    #[arg(long, value_name = "BYTES")]
    pub max_log_line_bytes: Option<String>,
    /// Deadline of a whole live collection, in seconds (default 900).
    #[arg(long, value_name = "SECS")]
    pub collection_deadline_secs: Option<String>,
    /// Timeout of one request, in seconds (default 30).
    #[arg(long, value_name = "SECS")]
    pub request_timeout_secs: Option<String>,
    /// YAML documents read from one file, empty ones included (default 1000000).
    #[arg(long, value_name = "N")]
    pub max_documents_per_file: Option<String>,
    /// Lines of pasted logs read by the classifiers, all inputs together (default 1000000).
    #[arg(long, value_name = "N")]
    pub max_log_lines: Option<String>,
    /// Findings listed in one diagnosis report after folding (default 10000; the rest are
    /// counted and named by rule).
    #[arg(long, value_name = "N")]
    pub max_findings_per_report: Option<String>,
    /// Bytes of list pages read in one live collection, every kind together (default 2Gi).
    #[arg(long, value_name = "BYTES")]
    pub max_collection_bytes: Option<String>,
}

impl LimitArgs {
    /// Whether the request timeout was given (`--request-timeout-secs`, or
    /// `--limit request-timeout-secs=...`): a program with a flag of its own for the same
    /// timeout refuses both together instead of ignoring one (fresh-user G10).
    pub fn request_timeout_given(&self) -> bool {
        self.request_timeout_secs.is_some()
            || self.limit.iter().any(|l| {
                l.split('=')
                    .next()
                    .is_some_and(|k| k.trim() == "request-timeout-secs")
            })
    }

    /// The limits: defaults, then the dedicated flags, then every `--limit` in order.
    ///
    /// # Errors
    /// The message for exit code 2 (unknown key, not a number, out of range).
    pub fn limits(&self) -> Result<Limits, String> {
        use cube_model::limits::Limit;
        let mut limits = Limits::default();
        let flags = [
            (Limit::FileBytes, &self.max_file_bytes),
            (Limit::HttpBodyBytes, &self.max_http_body_bytes),
            (Limit::PagesPerList, &self.max_pages_per_list),
            (Limit::ObjectsPerSnapshot, &self.max_objects_per_snapshot),
            (Limit::ReplicasExpanded, &self.max_replicas_expanded),
            (Limit::YamlAliasExpansions, &self.max_yaml_alias_expansions),
            (Limit::KubeconfigBytes, &self.max_kubeconfig_bytes),
            (Limit::ReferencedFileBytes, &self.max_referenced_file_bytes),
            (Limit::LogLineBytes, &self.max_log_line_bytes),
            (
                Limit::CollectionDeadlineSecs,
                &self.collection_deadline_secs,
            ),
            (Limit::RequestTimeoutSecs, &self.request_timeout_secs),
            (Limit::DocumentsPerFile, &self.max_documents_per_file),
            (Limit::LogLines, &self.max_log_lines),
            (Limit::FindingsPerReport, &self.max_findings_per_report),
            (Limit::CollectionBytes, &self.max_collection_bytes),
        ];
        for (limit, value) in flags {
            if let Some(v) = value {
                limits
                    .set_text(limit, v)
                    .map_err(|e| format!("{}: {e}", limit.flag()))?;
            }
        }
        for setting in &self.limit {
            limits
                .apply(setting)
                .map_err(|e| format!("--limit {setting}: {e}"))?;
        }
        Ok(limits)
    }
}

/// Reads one input file through the bounded reader; `-` reads standard input (bounded the
/// same way).
///
/// # Errors
/// [`cube_model::io::ReadError`]: unreadable, not a regular file, larger than the limit.
pub fn read_input(path: &Path, limits: &Limits) -> Result<Vec<u8>, cube_model::io::ReadError> {
    let bytes = if path.as_os_str() == "-" {
        cube_model::io::read_stdin_text(std::io::stdin().lock(), limits)
    } else {
        cube_model::io::read_file(path, limits)
    }?;
    learn_secrets(&bytes);
    Ok(bytes)
}

/// Inputs larger than this are not scanned by [`learn_secrets`] (the line redactor still runs
/// on every output): scanning a multi-gigabyte dump would cost more than loading it.
pub const LEARN_SECRETS_MAX_BYTES: usize = 64 << 20;

fn known_secrets() -> &'static std::sync::Mutex<cube_model::redact::KnownSecrets> {
    static KNOWN: std::sync::OnceLock<std::sync::Mutex<cube_model::redact::KnownSecrets>> =
        std::sync::OnceLock::new();
    KNOWN.get_or_init(|| std::sync::Mutex::new(cube_model::redact::KnownSecrets::new()))
}

/// Remembers the secret values of an input ([`cube_model::redact::secret_values`]: values of
/// secret keys, Secret data, URL user-info, bootstrap tokens, ...) so that every output of this
/// process hides them wherever they show up again, even where the line redactor cannot see a
/// secret (a parse error quoting `owner: [hunter2-x`). Every program input read through
/// [`read_input`] is learnt; inputs over [`LEARN_SECRETS_MAX_BYTES`] are skipped.
pub fn learn_secrets(bytes: &[u8]) {
    if bytes.len() > LEARN_SECRETS_MAX_BYTES {
        return;
    }
    let text = String::from_utf8_lossy(bytes);
    let found = cube_model::redact::secret_values(&text);
    if found.is_empty() {
        return;
    }
    let mut known = known_secrets()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    known.extend(found);
}

/// [`cube_model::redact::redact`], then every secret learnt from the inputs
/// ([`learn_secrets`]) hidden too.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    let known = known_secrets()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cube_model::redact::redact_with_known(text, &known)
}

/// Every secret learnt from the inputs ([`learn_secrets`]) hidden; nothing else changed (for
/// machine outputs such as YAML manifests, where the line redactor would be too eager).
pub fn hide_known(text: &str) -> std::borrow::Cow<'_, str> {
    let known = known_secrets()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    known.hide(text)
}

/// Reads a kubeconfig file as text through the bounded reader, at most
/// `limits.max_kubeconfig_bytes` (and `max_file_bytes`): a larger file is
/// [`cube_model::io::ReadError::TooLarge`] naming the `kubeconfig-bytes` limit, the same bad
/// input (exit 2) in every program.
///
/// # Errors
/// As [`read_input`].
pub fn read_kubeconfig_text(
    path: &Path,
    limits: &Limits,
) -> Result<String, cube_model::io::ReadError> {
    let mut bounded = limits.clone();
    let by_kubeconfig = limits.max_kubeconfig_bytes < limits.max_file_bytes;
    bounded.max_file_bytes = limits.max_file_bytes.min(limits.max_kubeconfig_bytes);
    read_input_text(path, &bounded).map_err(|e| match e {
        cube_model::io::ReadError::TooLarge(mut hit) if by_kubeconfig => {
            hit.limit = cube_model::limits::Limit::KubeconfigBytes;
            cube_model::io::ReadError::TooLarge(hit)
        }
        other => other,
    })
}

/// True when a text over the kubeconfig limit is a kubeconfig by its head (the first 64 KiB):
/// `kind: Config` (YAML or JSON), or kubeconfig keys at the top level (`clusters:` with
/// `contexts:` or `users:`, `current-context:`) and no other top-level `kind:`. Such a text is
/// refused as an oversized kubeconfig, never read as a snapshot (where its `Config` would be
/// skipped as a kind the analyses do not read, with exit 0).
pub fn looks_like_kubeconfig_head(text: &str) -> bool {
    let mut end = text.len().min(64 << 10);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = text[..end].trim_start_matches('\u{feff}');
    let compact: String = head.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.contains("\"kind\":\"Config\"") {
        return true;
    }
    let mut kind = None;
    let mut keys = 0;
    for line in head.lines() {
        let l = line.trim_end();
        if let Some(k) = l.strip_prefix("kind:") {
            kind = Some(
                k.split('#')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches(['"', '\''])
                    .to_owned(),
            );
        }
        if ["clusters:", "contexts:", "users:", "current-context:"]
            .iter()
            .any(|k| l.starts_with(k))
        {
            keys += 1;
        }
    }
    match kind.as_deref() {
        Some("Config") => true,
        Some(_) => false,
        None => keys >= 2,
    }
}

/// Reads one input file as text (invalid UTF-8 replaced), see [`read_input`].
///
/// # Errors
/// As [`read_input`].
pub fn read_input_text(path: &Path, limits: &Limits) -> Result<String, cube_model::io::ReadError> {
    let bytes = read_input(path, limits)?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Writes `text` (no newline added) to stdout; a closed pipe ends quietly like
/// [`print_stdout`].
///
/// # Errors
/// Any write error but a broken pipe.
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let text = hide_known(text);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes one line to stderr: secrets redacted, control and bidirectional characters escaped.
/// A closed stderr is ignored (never a panic, unlike `eprintln!`).
pub fn eprint_line(text: &str) {
    use std::io::Write;
    let redacted = redact(text);
    let safe = cube_model::terminal::escape(&redacted);
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{safe}");
}

/// Installs a tracing subscriber when `RUST_LOG` is set (for example `RUST_LOG=trace`): events
/// go to stderr through the one redactor and the terminal escaper, so no log level ever prints a
/// secret or raw control characters. Without `RUST_LOG` nothing is installed.
pub fn init_tracing() {
    let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("RUST_LOG") else {
        return;
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(|| SafeStderr(Vec::new()))
        .try_init();
}

/// A stderr writer that redacts and escapes each event when it is dropped (tracing's fmt layer
/// makes one writer per event).
struct SafeStderr(Vec<u8>);

impl std::io::Write for SafeStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // an event larger than 1 MiB is cut, never buffered without bound
        let room = (1usize << 20).saturating_sub(self.0.len());
        self.0.extend_from_slice(&buf[..buf.len().min(room)]);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for SafeStderr {
    fn drop(&mut self) {
        use std::io::Write;
        if self.0.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.0);
        let redacted = redact(&text);
        let safe = cube_model::terminal::escape(&redacted);
        let _ = std::io::stderr().lock().write_all(safe.as_bytes());
    }
}

/// Human-readable output made safe: secrets redacted ([`cube_model::redact::redact`]), then
/// control and bidirectional characters escaped (newlines kept).
pub fn safe_text(text: &str) -> String {
    let redacted = redact(text);
    cube_model::terminal::escape(&redacted).into_owned()
}

/// Runs every string of a JSON document (keys and values) through the one redactor, so a JSON
/// output never carries a secret that came in with the input.
pub fn redact_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) => {
            if let std::borrow::Cow::Owned(r) = redact(s) {
                *s = r;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(redact_json),
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if cube_model::redact::is_secret_key(key) && v.is_string() {
                    *v = Value::String(cube_model::redact::PLACEHOLDER.to_owned());
                } else {
                    redact_json(v);
                }
            }
        }
        _ => {}
    }
}

/// A serializable value as pretty JSON with every string redacted ([`redact_json`]) and every
/// character a terminal would act on or not show (C1, bidirectional, zero-width, tag
/// characters: [`cube_model::terminal::is_unsafe`]) written as a `\uXXXX` escape
/// ([`cube_model::terminal::json_safe`]): the same value for a parser, nothing raw when printed.
/// Every program's `--output json` goes through it (cluster_diagnose's report through
/// cube-diagnose's JSON writer, which does the same).
///
/// # Errors
/// Serialization errors.
pub fn to_redacted_json<T: serde::Serialize>(value: &T) -> serde_json::Result<String> {
    let mut v = serde_json::to_value(value)?;
    redact_json(&mut v);
    let json = serde_json::to_string_pretty(&v)?;
    Ok(cube_model::terminal::json_safe(&json).into_owned())
}

/// What a kubeconfig someone else wrote may make a program do, the same two flags in every
/// program that reads kubeconfigs (`cluster_import`, `cluster_diagnose --kubeconfig`,
/// `cluster_fleet`, `group_plan`): run exec credential plugins (`--allow-exec`) and read the
/// files it names wherever they are (`--allow-file-refs`). Without them no plugin runs and only
/// files inside the kubeconfig's own directory are read: client-go sends a `tokenFile`'s
/// content to the kubeconfig's server as a bearer token, so an uploaded kubeconfig naming
/// `/etc/shadow` or the console's own ServiceAccount token would hand it over.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct KubeconfigTrust {
    /// Run exec credential plugins (and auth-provider plugins) the kubeconfig(s) name, as
    /// kubectl does (EKS, GKE, OIDC kubeconfigs need it); without it they are reported and not
    /// run.
    #[arg(long)]
    pub allow_exec: bool,
    /// Read the files the kubeconfig(s) name (certificate-authority, client-certificate,
    /// client-key, tokenFile) wherever they are, as kubectl does; without it only files inside
    /// each kubeconfig's own directory are read (a tokenFile's content is sent to the server as
    /// a bearer token).
    #[arg(long)]
    pub allow_file_refs: bool,
}

impl KubeconfigTrust {
    /// The plugin policy of `--allow-exec`.
    pub fn plugins(&self) -> cube_cluster::kubeconfig::PluginPolicy {
        if self.allow_exec {
            cube_cluster::kubeconfig::PluginPolicy::Allow
        } else {
            cube_cluster::kubeconfig::PluginPolicy::Refuse
        }
    }

    /// The file-reference policy of `--allow-file-refs`.
    pub fn file_references(&self) -> cube_cluster::kubeconfig::FileReferencePolicy {
        if self.allow_file_refs {
            cube_cluster::kubeconfig::FileReferencePolicy::Allow
        } else {
            cube_cluster::kubeconfig::FileReferencePolicy::OwnDirectory
        }
    }

    /// Selection options with both policies and the limits' bounds (`context` when given).
    pub fn select_options(
        &self,
        context: Option<&str>,
        limits: &Limits,
    ) -> cube_cluster::kubeconfig::SelectOptions {
        let mut opts = cube_cluster::kubeconfig::SelectOptions::new().limits(limits);
        opts.context = context.map(str::to_owned);
        opts.plugins = self.plugins();
        opts.file_references = self.file_references();
        opts
    }
}

/// The one line that makes a kubeconfig bad input (exit 2) in every program, when `problems`
/// (the selected context's, [`cube_cluster::kubeconfig::Kubeconfig::check`]) hold an error that
/// no connection could change: no current-context and none requested (the contexts to choose
/// from named), a requested context that does not exist, an empty file, or a file reference
/// refused by [`KubeconfigTrust::file_references`] (`--allow-file-refs` named). `None`: the
/// kubeconfig can be tried.
pub fn unusable_kubeconfig(
    name: &str,
    problems: &[cube_cluster::kubeconfig::Problem],
) -> Option<String> {
    use cube_cluster::kubeconfig::{ProblemKind, Severity};
    let mut lines: Vec<String> = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .filter_map(|p| {
            let text = match &p.suggestion {
                Some(s) => format!("{} ({s})", p.message),
                None => p.message.clone(),
            };
            match p.kind {
                ProblemKind::NoCurrentContext => Some(match &p.suggestion {
                    Some(s) => format!(
                        "{}: choose one with --context ({})",
                        p.message,
                        s.trim_start_matches("choose one of: ")
                    ),
                    None => format!("{}: the file holds no context", p.message),
                }),
                ProblemKind::CurrentContextNotFound | ProblemKind::EmptyConfig => Some(text),
                ProblemKind::FileReferenceRefused => {
                    Some(format!("{text} with --allow-file-refs (kubectl reads it)"))
                }
                _ => None,
            }
        })
        .collect();
    lines.dedup();
    (!lines.is_empty()).then(|| format!("{name}: {}", lines.join("; ")))
}

/// Writes `text` to `path` the one safe way every program writes a file: to a new file created
/// next to `path` (`create_new`, so nothing existing is opened; mode 0600 when `private`, else
/// 0644, on Unix), which is then renamed over `path`. A symlink at `path` is replaced itself,
/// never written through, and an existing file's mode is never kept (fresh-user F31 for
/// `cluster_import`'s kubeconfig, G35 for `group_plan --out-dir`: a link planted in the output
/// directory had its target overwritten).
///
/// # Errors
/// The I/O error of the create, write or rename; the temporary file is removed on failure.
pub fn write_replacing(path: &Path, text: &str, private: bool) -> std::io::Result<()> {
    use std::io::Write as _;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_owned());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(".{name}.tmp-{}-{nanos}", std::process::id()));
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        o.mode(if private { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = private;
    let result = (|| {
        let mut f = o.open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
