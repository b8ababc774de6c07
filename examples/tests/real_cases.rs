//! Real cases, end to end: every fixture whose `.meta.json` carries an `expect` block is run
//! through the built `cluster_diagnose` program exactly as a user (and the hold-out runner) does:
//! `cluster_diagnose --snapshot FILE... --output json`, reading `findings[].ruleId`.
//!
//! The `expect` block (documented in `testdata/fixtures/README.md`):
//!
//! ```json
//! "expect": {
//!   "inputs": ["other-file.txt"],             // optional: extra files of the same case, same folder
//!   "fire": [{"rule": "gpu-not-advertised",    // a finding with this rule id must be present
//!             "subject": "Node/node-01",       // optional: Kind/name or Kind/namespace/name
//!             "severity": "error",             // optional: exact severity
//!             "text": ["nvidia-device-plugin"] // optional: substrings of message+evidence+remedy
//!            }],
//!   "not_fire": ["cluster-tls-untrusted"],     // rule ids that must stay silent (false alarms)
//!   "max_severity": "info",                    // optional: no finding above this severity
//!   "exit": 1                                  // optional: the program's exit code
//! }
//! ```
//!
//! One test walks every case and reports every failure at once, naming the fixture.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `group_plan --diff/--apply` end to end (a module of this test binary: one binary per crate).
#[path = "programs/group_plan_apply.rs"]
mod group_plan_apply;

/// `cluster_fleet` over the `fleet_doubles` program's loopback doubles.
#[path = "programs/cluster_fleet_doubles.rs"]
mod cluster_fleet_doubles;

/// `cluster_import` end to end over TLS (a module of this test binary).
#[path = "programs/cluster_import_flow.rs"]
mod cluster_import_flow;

/// `pod_admit --scheduler-version/--timings` (a module of this test binary).
#[path = "programs/pod_admit_flags.rs"]
mod pod_admit_flags;

/// Every real case pasted in the shapes people paste (issue 8 item 5): same conclusions.
#[path = "real_cases/metamorphic.rs"]
mod metamorphic;

use serde_json::Value;

mod support;
use support::{example, root};

/// The `cluster_diagnose` example binary, built by `cargo test` before any test runs. When this
/// test is run on its own (`--test real_cases`), the example is built first.
fn program() -> PathBuf {
    example("cluster_diagnose")
}

fn metas(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            metas(&p, out);
        } else if p.to_string_lossy().ends_with(".meta.json") {
            out.push(p);
        }
    }
}

fn severity_rank(s: &str) -> u8 {
    match s {
        "error" => 3,
        "warning" => 2,
        "info" => 1,
        _ => 0,
    }
}

/// The subjects a folded finding lists (`group.subjects`, cube_diagnose::group), as
/// [`subject_name`] writes them.
fn group_names(f: &Value) -> Vec<String> {
    f["group"]["subjects"]
        .as_array()
        .map(|subjects| {
            subjects
                .iter()
                .map(|s| subject_name(&serde_json::json!({ "subject": s })))
                .collect()
        })
        .unwrap_or_default()
}

fn subject_name(f: &Value) -> String {
    let s = &f["subject"];
    let kind = s["kind"].as_str().unwrap_or("");
    let name = s["name"].as_str().unwrap_or("");
    match s["namespace"].as_str() {
        Some(ns) if !ns.is_empty() => format!("{kind}/{ns}/{name}"),
        _ => format!("{kind}/{name}"),
    }
}

fn summary(findings: &[Value]) -> String {
    findings
        .iter()
        .map(|f| {
            format!(
                "    {} {} {}: {}",
                f["severity"].as_str().unwrap_or("?"),
                f["ruleId"].as_str().unwrap_or("?"),
                subject_name(f),
                f["message"].as_str().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every string value inside `v`, newline-separated (message, evidence, remedy...).
fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Checks one case; returns the failures, each a line naming what was expected.
fn check_case(bin: &Path, meta_path: &Path, expect: &Value) -> Vec<String> {
    let data = PathBuf::from(
        meta_path
            .to_string_lossy()
            .trim_end_matches(".meta.json")
            .to_owned(),
    );
    let dir = data.parent().expect("fixture folder").to_path_buf();
    let mut files = vec![data.clone()];
    if let Some(extra) = expect["inputs"].as_array() {
        files.extend(extra.iter().filter_map(Value::as_str).map(|f| dir.join(f)));
    }
    let out = Command::new(bin)
        .arg("--snapshot")
        .args(&files)
        .args(["--output", "json"])
        .output()
        .expect("run cluster_diagnose");
    let code = out.status.code();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = match serde_json::from_str(&stdout) {
        Ok(v) => v,
        Err(e) => {
            return vec![format!(
                "output is not JSON ({e}); exit {code:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )];
        }
    };
    check_report(&report, code, expect)
}

/// Checks one report (`cluster_diagnose --output json`'s document) and its exit code against a
/// case's `expect` block; returns the failures, each a line naming what was expected.
fn check_report(report: &Value, code: Option<i32>, expect: &Value) -> Vec<String> {
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    let mut failures = Vec::new();
    for want in expect["fire"].as_array().into_iter().flatten() {
        let rule = want["rule"].as_str().unwrap_or("");
        let hit = findings.iter().any(|f| {
            f["ruleId"] == rule
                && want["subject"]
                    .as_str()
                    .is_none_or(|s| subject_name(f) == s || group_names(f).iter().any(|g| g == s))
                && want["severity"].as_str().is_none_or(|s| f["severity"] == s)
                && want["text"].as_array().is_none_or(|texts| {
                    let mut all = String::new();
                    strings(f, &mut all);
                    texts
                        .iter()
                        .filter_map(Value::as_str)
                        .all(|t| all.contains(t))
                })
        });
        if !hit {
            failures.push(format!("expected {want} to fire"));
        }
    }
    for rule in expect["not_fire"].as_array().into_iter().flatten() {
        let rule = rule.as_str().unwrap_or("");
        if findings.iter().any(|f| f["ruleId"] == rule) {
            failures.push(format!("{rule} fired (must not)"));
        }
    }
    if let Some(max) = expect["max_severity"].as_str() {
        for f in &findings {
            let sev = f["severity"].as_str().unwrap_or("");
            if severity_rank(sev) > severity_rank(max) {
                failures.push(format!(
                    "{} {} {} above max_severity {max}",
                    sev,
                    f["ruleId"].as_str().unwrap_or("?"),
                    subject_name(f)
                ));
            }
        }
    }
    if let Some(exit) = expect["exit"].as_i64()
        && code != Some(exit as i32)
    {
        failures.push(format!("exit code {code:?}, expected {exit}"));
    }
    if !failures.is_empty() {
        failures.push(format!("findings were:\n{}", summary(&findings)));
    }
    failures
}

#[test]
fn every_real_case_reaches_its_expected_conclusion() {
    let mut all = Vec::new();
    metas(&root().join("testdata/fixtures"), &mut all);
    let bin = program();
    let mut checked = 0;
    let mut report = String::new();
    for meta_path in &all {
        let text = std::fs::read_to_string(meta_path).expect("meta readable");
        let meta: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: meta is not JSON: {e}", meta_path.display()));
        let Some(expect) = meta.get("expect") else {
            continue;
        };
        checked += 1;
        let failures = check_case(&bin, meta_path, expect);
        if !failures.is_empty() {
            let rel = meta_path
                .strip_prefix(root().join("testdata/fixtures"))
                .unwrap_or(meta_path);
            report.push_str(&format!(
                "\n{}:\n  {}\n",
                rel.display(),
                failures.join("\n  ")
            ));
        }
    }
    assert!(report.is_empty(), "real cases that failed:{report}");
    eprintln!("{checked} real cases reached their conclusions");
}

/// Every data file under `testdata/fixtures` (recursively; `.meta.json` files excluded).
fn fixture_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            fixture_files(&p, out);
        } else if !p.to_string_lossy().ends_with(".meta.json")
            && p.file_name().is_some_and(|n| n != "README.md")
        {
            out.push(p);
        }
    }
}

/// Remedies a person can paste (issue 8): the full program runs over every fixture file; every
/// command of every remedy (`findings[].remedyCommands` and `remedies[].commands`) must pass
/// `bash -n` without a message (a heredoc whose delimiter is indented or followed by a
/// backtick leaves the shell waiting: `bash -n` warns and fails here), and the table output
/// prints each multi-line command verbatim at column 0.
#[test]
fn every_remedy_command_runs_as_printed() {
    let bin = program();
    let mut files = Vec::new();
    fixture_files(&root().join("testdata/fixtures"), &mut files);
    let dir = std::env::temp_dir().join(format!("cube-remedies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for file in &files {
        let out = Command::new(&bin)
            .arg("--snapshot")
            .arg(file)
            .args(["--output", "json"])
            .output()
            .expect("run cluster_diagnose");
        let Ok(report) = serde_json::from_slice::<Value>(&out.stdout) else {
            continue; // kubeconfig usage errors and the like print no document
        };
        let mut commands: Vec<String> = Vec::new();
        for f in report["findings"].as_array().into_iter().flatten() {
            for c in f["remedyCommands"].as_array().into_iter().flatten() {
                commands.extend(c.as_str().map(str::to_owned));
            }
        }
        for g in report["remedies"].as_array().into_iter().flatten() {
            for c in g["commands"].as_array().into_iter().flatten() {
                commands.extend(c.as_str().map(str::to_owned));
            }
        }
        commands.sort();
        commands.dedup();
        let table = Command::new(&bin)
            .arg("--snapshot")
            .arg(file)
            .output()
            .expect("run cluster_diagnose (table)");
        let table = String::from_utf8_lossy(&table.stdout).into_owned();
        for (k, c) in commands.iter().enumerate() {
            checked += 1;
            let script = dir.join(format!("c{k}.sh"));
            std::fs::write(&script, format!("{c}\n")).expect("write script");
            let check = Command::new("bash")
                .arg("-n")
                .arg(&script)
                .output()
                .expect("bash -n");
            // an unterminated heredoc (its `EOF` indented or followed by a backtick) is only a
            // warning for `bash -n` (exit 0): any message fails
            if !check.status.success() || !check.stderr.is_empty() {
                failures.push(format!(
                    "{}: `bash -n` rejects:\n{c}\n{}",
                    file.display(),
                    String::from_utf8_lossy(&check.stderr)
                ));
            }
            if c.contains('\n') && !table.contains(&format!("\n{c}\n")) {
                failures.push(format!(
                    "{}: the table does not print this command at column 0:\n{c}\n---\n{table}",
                    file.display()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "remedies that do not run as printed:\n{}",
        failures.join("\n")
    );
    assert!(checked > 0, "no remedy command found in any fixture");
    eprintln!("{checked} remedy commands parse in bash");
}
