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
    let mut snapshot = ClusterSnapshot::new();
    for path in paths {
        let path = path.as_ref();
        let bytes = cube_model::io::read_file(path, limits).map_err(|e| e.to_string())?;
        let label = path.display().to_string();
        match snapshot.add_bytes(&label, &bytes) {
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
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Reads a cluster registry file (YAML or JSON) through the bounded reader and validates it:
/// every problem of [`cube_model::ClusterRegistry::validate`] is reported with the file name.
///
/// # Errors
/// The message for exit code 2.
pub fn read_registry(path: &Path) -> Result<cube_model::ClusterRegistry, String> {
    let bytes = cube_model::io::read_file(path, &Limits::default()).map_err(|e| e.to_string())?;
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("{}: the registry is not UTF-8 text", path.display()))?;
    let registry: cube_model::ClusterRegistry = serde_saphyr::from_str(&text)
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
