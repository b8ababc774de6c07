//! Issue 9 against the built programs, as a user (and the hold-out runner) runs them: closed
//! pipes, absurd numeric flags, FIFOs and devices, empty kubeconfigs, huge workloads, quantities
//! past `E`, terminal injection, secrets salted into every input form and every output format,
//! and arbitrary bytes fed to every program's input path. Every program must end, with one of the
//! documented exit codes (0, 1, 2, 3), without a panic, and never print a salted secret.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{code, drain, example as bin, root, run, run_with, wait_within};

/// A scratch directory for this test binary, under cargo's `CARGO_TARGET_TMPDIR` (inside
/// `target/`, so runs do not leave 20 MB behind in the system temp directory each time; the
/// process id keeps concurrent runs apart, and `cargo clean` removes them all).
fn scratch() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cube-examples-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = scratch().join(name);
    std::fs::write(&p, bytes).expect("write");
    p
}

const SAMPLE: &str = "examples/data/snapshot-gpu-cluster.json";
const GROUPS: &str = "cube-model/examples-data/resource-groups.yaml";
const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m, memory: 64Mi}}}]\n";
const KUBECONFIG: &str = "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: plain-token-value}\ncontexts:\n- name: a\n  context: {cluster: k, user: u}\n";

// ------------------------------------------------------------------ programs end cleanly

/// `pod_admit`, `group_plan` and `cluster_import` panicked on a closed stdout pipe; every
/// program in every output format ends with its exit code on a closed stdout, and on a closed
/// stderr too.
#[test]
fn a_closed_stdout_never_panics() {
    let pod = write("pipe-pod.yaml", POD.as_bytes());
    let kc = write("pipe-kubeconfig.yaml", KUBECONFIG.as_bytes());
    let registry = write(
        "pipe-registry.yaml",
        b"apiVersion: cube.io/v1alpha1\nkind: ClusterRegistry\nclusters: []\n",
    );
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("cluster_diagnose", vec![]),
        ("cluster_diagnose", vec!["--output".into(), "json".into()]),
        ("group_plan", vec![GROUPS.into()]),
        (
            "pod_admit",
            vec![
                "--snapshot".into(),
                SAMPLE.into(),
                "--pod".into(),
                pod.display().to_string(),
            ],
        ),
        (
            "cluster_import",
            vec![
                "--kubeconfig".into(),
                kc.display().to_string(),
                "--offline".into(),
            ],
        ),
        (
            "cluster_fleet",
            vec!["--registry".into(), registry.display().to_string()],
        ),
    ];
    let mut cases = cases;
    // every output format, and a run that fails (bad input) and a live read that fails
    for (name, out) in [
        ("cluster_diagnose", "sarif"),
        ("cluster_diagnose", "junit"),
        ("group_plan", "json"),
        ("pod_admit", "json"),
        ("cluster_import", "json"),
        ("cluster_fleet", "json"),
    ] {
        let mut args = cases
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| a.clone())
            .unwrap_or_default();
        args.extend(["--output".into(), out.into()]);
        cases.push((name, args));
    }
    cases.push((
        "pod_admit",
        vec![
            "--snapshot".into(),
            "/nonexistent".into(),
            "--pod".into(),
            pod.display().to_string(),
        ],
    ));
    cases.push((
        "cluster_diagnose",
        vec![
            "--kubeconfig".into(),
            kc.display().to_string(),
            "--request-timeout-secs".into(),
            "2".into(),
        ],
    ));
    for (name, args) in &cases {
        // stdout closed (`... | head -0`), then stderr closed too (`2>&- | head -0` from a
        // supervisor that went away): the exit code of the run, never a panic
        for close_stderr in [false, true] {
            let mut child = Command::new(bin(name))
                .args(args)
                .current_dir(root())
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .env("RUST_LOG", "debug")
                .spawn()
                .expect("spawn");
            drop(child.stdout.take());
            if close_stderr {
                drop(child.stderr.take());
            }
            let o = child.wait_with_output().expect("wait");
            // a panic with a closed stderr prints nothing: the exit code alone tells it (101)
            let c = o.status.code().expect("exited (not killed by a signal)");
            assert!(
                (0..=3).contains(&c),
                "{name} {args:?} (stderr closed: {close_stderr}): exit {c}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

/// `cluster_import > /dev/full` exited 1, its "not importable" answer, where every other
/// program exits 2 (red team 2 #10): an output that cannot be written is
/// `exit::OUTPUT_FAILED` (2) in every program and every output format, with the error on stderr.
#[cfg(target_os = "linux")]
#[test]
fn an_output_write_error_exits_2_in_every_program() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // no /dev/full in this sandbox
    };
    let pod = write("full-pod.yaml", POD.as_bytes());
    let kc = write("full-kubeconfig.yaml", KUBECONFIG.as_bytes());
    // one cluster on a closed loopback port: an answer (not ready), then the write fails
    let registry = write(
        "full-registry.yaml",
        format!(
            "apiVersion: cube-rs.io/v1alpha1\nkind: ClusterRegistry\nclusters:\n- name: a\n  kubeconfig:\n    inline: {}\n",
            serde_json::to_string(KUBECONFIG).expect("json string")
        )
        .as_bytes(),
    );
    let pod = pod.display().to_string();
    let kc = kc.display().to_string();
    let registry = registry.display().to_string();
    let mut cases: Vec<(&str, Vec<&str>)> = Vec::new();
    for out in ["table", "json", "sarif", "junit"] {
        cases.push(("cluster_diagnose", vec!["--output", out]));
    }
    for out in ["yaml", "json"] {
        cases.push(("group_plan", vec![GROUPS, "--output", out]));
    }
    for out in ["table", "json"] {
        cases.push((
            "pod_admit",
            vec!["--snapshot", SAMPLE, "--pod", &pod, "--output", out],
        ));
        cases.push((
            "cluster_import",
            vec!["--kubeconfig", &kc, "--offline", "--output", out],
        ));
        cases.push((
            "cluster_fleet",
            vec!["--registry", &registry, "--timeout", "2", "--output", out],
        ));
    }
    for (name, args) in &cases {
        let o = Command::new(bin(name))
            .args(args)
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(full.try_clone().expect("dup /dev/full"))
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG")
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name} {args:?}: {err}");
        assert!(
            err.contains("No space left on device"),
            "{name} {args:?}: {err}"
        );
    }
}

/// `--timeout-secs 18446744073709551615` overflowed a `Duration`; every numeric flag is bounded.
#[test]
fn absurd_numeric_flags_are_usage_errors() {
    let kc = write("flags-kubeconfig.yaml", KUBECONFIG.as_bytes());
    let kc = kc.display().to_string();
    let huge = "18446744073709551615";
    let huger = "99999999999999999999999999";
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "cluster_import",
            vec!["--kubeconfig", &kc, "--timeout-secs", huge],
        ),
        (
            "cluster_import",
            vec!["--kubeconfig", &kc, "--timeout-secs", huger],
        ),
        (
            "cluster_diagnose",
            vec!["--limit", "request-timeout-secs=18446744073709551615"],
        ),
        (
            "cluster_diagnose",
            vec!["--collection-deadline-secs", huger],
        ),
        ("cluster_diagnose", vec!["--max-file-bytes", "0"]),
        ("cluster_diagnose", vec!["--limit", "no-such-limit=1"]),
        ("group_plan", vec![GROUPS, "--max-replicas-expanded", huge]),
        (
            "pod_admit",
            vec![
                "--snapshot",
                SAMPLE,
                "--pod",
                GROUPS,
                "--limit",
                "replicas-expanded=-1",
            ],
        ),
        (
            "cluster_fleet",
            vec!["--registry", GROUPS, "--concurrency", huge],
        ),
        (
            "cluster_fleet",
            vec!["--registry", GROUPS, "--timeout", "1e308"],
        ),
    ];
    for (name, args) in cases {
        let o = run(name, &args);
        assert_eq!(
            code(&o),
            2,
            "{name} {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Every numeric flag of every program (found in its `--help`: value names `N`, `BYTES`,
/// `SECS`, `TIMEOUT`, `CONCURRENCY`, ...) at its extremes: `u64::MAX`, `0`, negative, past
/// `u64`, `NaN`, infinity, `1e308`. Every run ends within the deadline with a documented exit
/// code and no panic; a value no flag can take (negative, past `u64`, not finite) is a usage
/// error (2).
#[test]
fn every_numeric_flag_of_every_program_at_its_extremes_ends_cleanly() {
    let kc = write("extremes-kubeconfig.yaml", KUBECONFIG.as_bytes())
        .display()
        .to_string();
    let pod = write("extremes-pod.yaml", POD.as_bytes())
        .display()
        .to_string();
    let registry = write(
        "extremes-registry.yaml",
        b"apiVersion: cube-rs.io/v1alpha1\nkind: ClusterRegistry\nclusters:\n- name: a\n  kubeconfig: {inline: \"apiVersion: v1\\nkind: Config\\ncurrent-context: a\\nclusters:\\n- name: k\\n  cluster: {server: 'https://127.0.0.1:1'}\\nusers:\\n- name: u\\n  user: {token: t}\\ncontexts:\\n- name: a\\n  context: {cluster: k, user: u}\\n\"}\n",
    )
    .display()
    .to_string();
    let programs: Vec<(&str, Vec<&str>)> = vec![
        ("cluster_diagnose", vec!["--snapshot", SAMPLE]),
        ("pod_admit", vec!["--snapshot", SAMPLE, "--pod", &pod]),
        ("group_plan", vec![GROUPS]),
        ("cluster_import", vec!["--kubeconfig", &kc, "--offline"]),
        (
            "cluster_fleet",
            vec!["--registry", &registry, "--timeout", "2"],
        ),
    ];
    let numeric = [
        "N",
        "BYTES",
        "SECS",
        "SECONDS",
        "TIMEOUT",
        "CONCURRENCY",
        "COUNT",
    ];
    let mut tried = 0;
    for (name, base) in &programs {
        let help = run(name, &["--help"]);
        let help = String::from_utf8_lossy(&help.stdout).into_owned();
        let flags: Vec<String> = help
            .lines()
            .filter_map(|l| {
                let l = l.trim_start();
                let l = l
                    .strip_prefix("-")
                    .filter(|_| l.starts_with("--"))
                    .map(|_| l)?;
                let (flag, rest) = l.split_once(' ')?;
                let value = rest.trim_start().strip_prefix('<')?.split('>').next()?;
                numeric
                    .iter()
                    .any(|n| value == *n || value.ends_with(&format!("_{n}")))
                    .then(|| flag.to_owned())
            })
            .collect();
        assert!(
            *name == "cluster_import" || flags.len() >= 2,
            "{name}: no numeric flag found in --help:\n{help}"
        );
        for flag in &flags {
            for (value, must_refuse) in [
                ("18446744073709551615", false),
                ("0", false),
                ("-1", true),
                ("-18446744073709551615", true),
                ("99999999999999999999999999", true),
                ("NaN", true),
                ("inf", true),
                ("1e308", true),
            ] {
                let mut args = base.clone();
                // the flag given last wins over one of the base arguments
                let value_arg = format!("{flag}={value}");
                args.push(&value_arg);
                let o = run_with(name, &args, &[], Duration::from_secs(120));
                let c = code(&o);
                tried += 1;
                if must_refuse {
                    assert_eq!(
                        c,
                        2,
                        "{name} {args:?}: {}",
                        String::from_utf8_lossy(&o.stderr)
                    );
                }
            }
        }
    }
    assert!(tried > 100, "only {tried} runs");
}

/// `--offline` import read a `/dev/zero` CA until memory ran out, or blocked forever on a FIFO:
/// every file of every program goes through the bounded reader.
#[cfg(unix)]
#[test]
fn fifos_devices_directories_and_oversized_files_are_refused_quickly() {
    let fifo = scratch().join("input.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo").arg(&fifo).status();
    let fifo = fifo.display().to_string();
    let dir = scratch().display().to_string();
    let mut specials = vec!["/dev/zero".to_owned(), dir];
    if made.is_ok_and(|s| s.success()) {
        specials.push(fifo);
    }
    let deadline = Duration::from_secs(60);
    let pod = write("special-pod.yaml", POD.as_bytes())
        .display()
        .to_string();
    for f in &specials {
        let f = f.as_str();
        for (name, args) in [
            ("cluster_diagnose", vec!["--snapshot", f]),
            ("cluster_diagnose", vec!["--config", f]),
            ("cluster_diagnose", vec!["--kubeconfig", f]),
            ("group_plan", vec![f]),
            ("pod_admit", vec!["--snapshot", SAMPLE, "--pod", f]),
            ("pod_admit", vec!["--snapshot", f, "--pod", &pod]),
            ("cluster_import", vec!["--kubeconfig", f, "--offline"]),
        ] {
            let o = run_with(name, &args, &[], deadline);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(code(&o), 2, "{name} {args:?}: {err}");
            assert!(
                err.contains("not a regular file") || err.contains("directory"),
                "{name} {args:?}: {err}"
            );
        }
    }
    // a file larger than the limit is refused, naming the limit and how to raise it
    let o = run(
        "cluster_diagnose",
        &["--snapshot", SAMPLE, "--max-file-bytes", "1Ki"],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(code(&o), 2);
    assert!(
        err.contains("exceeds the limit of 1024 bytes") && err.contains("--limit file-bytes=N"),
        "{err}"
    );
}

/// YAML alias expansion had a budget per document, so a 29 KB file of small "billion laughs"
/// documents took about 45 s: every YAML input path of every program now shares one budget per
/// file and ends quickly, saying the limit was hit where it reads documents one by one.
#[test]
fn a_file_of_alias_bombs_ends_quickly_in_every_program() {
    let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let p = i - 1;
        doc.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let mut text = String::new();
    while text.len() < 29 * 1024 {
        text.push_str("---\n");
        text.push_str(&doc);
    }
    let bombs = write("alias-bombs.yaml", text.as_bytes())
        .display()
        .to_string();
    let pod = write("alias-pod.yaml", POD.as_bytes())
        .display()
        .to_string();
    let b = bombs.as_str();
    let runs: Vec<(&str, Vec<&str>)> = vec![
        (
            "cluster_diagnose",
            vec!["--snapshot", b, "--output", "json"],
        ),
        (
            "cluster_diagnose",
            vec!["--snapshot", SAMPLE, "--groups", b],
        ),
        (
            "cluster_diagnose",
            vec!["--snapshot", SAMPLE, "--config", b],
        ),
        ("cluster_diagnose", vec!["--kubeconfig", b]),
        ("pod_admit", vec!["--snapshot", SAMPLE, "--pod", b]),
        ("pod_admit", vec!["--snapshot", b, "--pod", &pod]),
        ("group_plan", vec![b]),
        ("group_plan", vec![GROUPS, "--snapshot", b]),
        ("cluster_import", vec!["--kubeconfig", b, "--offline"]),
        ("cluster_fleet", vec!["--registry", b]),
    ];
    for (name, args) in runs {
        bin(name); // any build happens before the clock starts
        let start = Instant::now();
        let o = run_with(name, &args, &[], Duration::from_secs(120));
        let took = start.elapsed();
        code(&o);
        // every YAML parse goes once through cube-model's bounded entry (cluster_import's
        // kubeconfig too): the same bound for every program
        let bound = 30;
        assert!(
            took < Duration::from_secs(bound),
            "{name} {args:?} took {took:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // the snapshot reader says which limit it hit and how to raise it
    let o = run("cluster_diagnose", &["--snapshot", b, "--output", "json"]);
    // nothing else in the file: nothing could be read (2); with other documents, 3
    assert_eq!(code(&o), 2, "{}", String::from_utf8_lossy(&o.stderr));
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("--limit yaml-alias-expansions=N"), "{out}");
}

/// Every program takes the same limit flags (issue 9: the Limits policy is overridable by
/// flags): `--limit KEY=VALUE` and one `--max-...` flag per limit, and `cluster_import` /
/// `cluster_fleet` apply them to the files they read.
#[test]
fn every_program_takes_the_same_limit_flags() {
    let flags = [
        "--limit",
        "--max-file-bytes",
        "--max-http-body-bytes",
        "--max-pages-per-list",
        "--max-objects-per-snapshot",
        "--max-replicas-expanded",
        "--max-yaml-alias-expansions",
        "--max-kubeconfig-bytes",
        "--max-referenced-file-bytes",
        "--max-log-line-bytes",
        "--collection-deadline-secs",
        "--request-timeout-secs",
        "--max-findings-per-report",
    ];
    for name in [
        "cluster_diagnose",
        "cluster_import",
        "cluster_fleet",
        "group_plan",
        "pod_admit",
    ] {
        let o = run(name, &["--help"]);
        let help = String::from_utf8_lossy(&o.stdout);
        for f in flags {
            assert!(help.contains(f), "{name} --help lacks {f}");
        }
    }
    let kc = write("limits-kubeconfig.yaml", KUBECONFIG.as_bytes())
        .display()
        .to_string();
    let aliased = write(
        "limits-aliased-kubeconfig.yaml",
        KUBECONFIG
            .replace("- name: k\n  cluster: {", "- name: k\n  cluster: &c {")
            .replace("contexts:", "preferences: {a: *c, b: *c}\ncontexts:")
            .as_bytes(),
    )
    .display()
    .to_string();
    let registry = write(
        "limits-registry.yaml",
        format!(
            "apiVersion: cube.io/v1alpha1\nkind: ClusterRegistry\nclusters:\n- name: a\n  kubeconfig: {{path: {kc}}}\n"
        )
        .as_bytes(),
    )
    .display()
    .to_string();
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        (
            "cluster_import",
            vec!["--kubeconfig", &kc, "--offline", "--max-file-bytes", "16"],
            "--limit file-bytes=N",
        ),
        (
            "cluster_import",
            vec!["--kubeconfig", &kc, "--offline", "--limit", "file-bytes=16"],
            "--limit file-bytes=N",
        ),
        (
            "cluster_import",
            vec![
                "--kubeconfig",
                &aliased,
                "--offline",
                "--max-yaml-alias-expansions",
                "1",
            ],
            "--limit yaml-alias-expansions=N",
        ),
        (
            "cluster_import",
            vec!["--kubeconfig", &kc, "--offline", "--limit", "nope=1"],
            "nope",
        ),
        (
            "cluster_fleet",
            vec!["--registry", &registry, "--max-file-bytes", "16"],
            "--limit file-bytes=N",
        ),
        (
            "cluster_fleet",
            vec!["--registry", &registry, "--limit", "request-timeout-secs=0"],
            "request-timeout-secs",
        ),
    ];
    for (name, args, says) in cases {
        let o = run(name, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(code(&o), 2, "{name} {args:?}: {err}");
        assert!(err.contains(says), "{name} {args:?}: {err}");
    }
    // within the limits the same files are read as before
    let o = run("cluster_import", &["--kubeconfig", &aliased, "--offline"]);
    assert_ne!(code(&o), 2, "{}", String::from_utf8_lossy(&o.stderr));
}

/// Salvage keeps every item that parses, and the skipped ones are never silent: every program
/// that reads a snapshot exits 3 (incomplete picture) and lists the skipped item in every output
/// format, for a JSON `List` with a syntax error in one item and a YAML `List` with one
/// unreadable item.
#[test]
fn skipped_list_items_make_every_program_say_incomplete_in_every_format() {
    let node = |i: usize| {
        format!(
            r#"{{"apiVersion": "v1", "kind": "Node", "metadata": {{"name": "n{i}", "uid": "u{i}"}}, "status": {{"allocatable": {{"cpu": "8", "memory": "32Gi", "pods": "110"}}, "conditions": [{{"type": "Ready", "status": "True"}}]}}}}"#
        )
    };
    let mut items: Vec<String> = (1..10).map(node).collect();
    items[1] = items[1].replace(r#""kind": "Node","#, r#""kind": "Node" "oops","#);
    let json = write(
        "salvage-list.json",
        format!(
            "{{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n{}\n]}}\n",
            items.join(",\n")
        )
        .as_bytes(),
    )
    .display()
    .to_string();
    let mut yaml = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in 1..6 {
        if i == 2 {
            yaml.push_str("- {apiVersion: v1, kind: Node, metadata: {name: [n2, {uid: \"x\"}]}\n");
        } else {
            yaml.push_str(&format!("- {}\n", node(i)));
        }
    }
    let yaml = write("salvage-list.yaml", yaml.as_bytes())
        .display()
        .to_string();
    let pod = write("salvage-pod.yaml", POD.as_bytes())
        .display()
        .to_string();
    // JSON documents separated by YAML `---` markers are read whole, with no problem (a
    // marker is no broken document: nothing is skipped, the report is complete)
    let docs: Vec<String> = (0..3)
        .map(|i| format!(r#"{{"apiVersion": "v1", "kind": "Node", "metadata": {{"name": "dash{i}", "uid": "d{i}"}}, "status": {{"conditions": [{{"type": "Ready", "status": "False"}}]}}}}"#))
        .collect();
    let dashed = write(
        "dashed.yaml",
        format!("---\n{}\n...\n", docs.join("\n---\n")).as_bytes(),
    )
    .display()
    .to_string();
    let o = run(
        "cluster_diagnose",
        &["--snapshot", &dashed, "--output", "json"],
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        code(&o),
        1,
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for n in ["dash0", "dash1", "dash2"] {
        assert!(stdout.contains(n), "{n} lost: {stdout}");
    }
    // a tab-indented line (invalid YAML) inside item 1 costs only that item
    let mut tabbed = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for i in 0..5 {
        if i == 1 {
            tabbed.push_str("- apiVersion: v1\n\tkind: Node\n");
        } else {
            tabbed.push_str(&format!(
                "- apiVersion: v1\n  kind: Node\n  metadata: {{name: tab{i}, uid: t{i}}}\n  status: {{conditions: [{{type: Ready, status: \"False\"}}]}}\n"
            ));
        }
    }
    let tabbed = write("salvage-tab.yaml", tabbed.as_bytes())
        .display()
        .to_string();
    let o = run(
        "cluster_diagnose",
        &["--snapshot", &tabbed, "--output", "json"],
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 3, "{stdout}");
    for n in ["tab0", "tab2", "tab3", "tab4"] {
        assert!(stdout.contains(n), "{n} lost: {stdout}");
    }
    for snap in [json.as_str(), yaml.as_str()] {
        let mut runs: Vec<(&str, Vec<&str>)> = Vec::new();
        for out in ["table", "json", "sarif"] {
            runs.push((
                "cluster_diagnose",
                vec!["--snapshot", snap, "--output", out],
            ));
        }
        for out in ["table", "json"] {
            runs.push((
                "pod_admit",
                vec!["--snapshot", snap, "--pod", &pod, "--output", out],
            ));
        }
        for out in ["yaml", "json"] {
            runs.push((
                "group_plan",
                vec![GROUPS, "--snapshot", snap, "--output", out],
            ));
        }
        for (name, args) in runs {
            let o = run(name, &args);
            let stdout = String::from_utf8_lossy(&o.stdout);
            assert_eq!(
                code(&o),
                3,
                "{name} {args:?}: {stdout}{}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(
                stdout.contains("skipped") && stdout.contains("item 1"),
                "{name} {args:?} does not list the skipped item: {stdout}"
            );
        }
    }
}

/// The same kind of failure gives the same exit code in every program: a missing, empty,
/// unparseable file or a directory given to any file flag of any program is bad input (2).
#[test]
fn the_same_bad_input_exits_2_in_every_program() {
    let empty = write("matrix-empty.txt", b"").display().to_string();
    let garbage = write("matrix-garbage.txt", b"\x01\x02 not: [yaml\n{")
        .display()
        .to_string();
    let pod = write("matrix-pod.yaml", POD.as_bytes())
        .display()
        .to_string();
    let dir = scratch().display().to_string();
    for bad in [
        "/nonexistent/input.yaml",
        empty.as_str(),
        garbage.as_str(),
        dir.as_str(),
    ] {
        for (name, args) in [
            ("cluster_diagnose", vec!["--snapshot", bad]),
            ("cluster_diagnose", vec!["--kubeconfig", bad]),
            (
                "cluster_diagnose",
                vec!["--snapshot", SAMPLE, "--groups", bad],
            ),
            // (an empty --config is all defaults, like an empty config file of most tools)
            ("pod_admit", vec!["--snapshot", SAMPLE, "--pod", bad]),
            ("pod_admit", vec!["--snapshot", bad, "--pod", &pod]),
            ("group_plan", vec![bad]),
            ("group_plan", vec![GROUPS, "--snapshot", bad]),
            ("group_plan", vec![GROUPS, "--registry", bad]),
            ("cluster_import", vec!["--kubeconfig", bad, "--offline"]),
            ("cluster_import", vec!["--kubeconfig", bad]),
            ("cluster_fleet", vec!["--registry", bad]),
        ]
        .into_iter()
        .chain((bad != empty).then(|| {
            (
                "cluster_diagnose",
                vec!["--snapshot", SAMPLE, "--config", bad],
            )
        })) {
            let o = run(name, &args);
            assert_eq!(
                code(&o),
                2,
                "{name} {args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

/// Text in the encodings people's tools write is read, never dropped: UTF-16LE with a
/// byte-order mark (Windows PowerShell 5's `kubectl get nodes -o json > nodes.json`), UTF-16BE,
/// UTF-16 without a mark, in every program's file input; and a dump with a stray NUL byte in one
/// item is damage in that item (the other items are diagnosed, exit 3), not "binary data".
#[test]
fn utf16_files_and_stray_nul_bytes_are_read_by_every_program() {
    let nodes = |bad: &str| {
        format!(
            "{{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[\n{{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{{\"name\":\"n1\",\"labels\":{{\"x\":\"{bad}\"}}}}}},\n{{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{{\"name\":\"n2\"}},\"status\":{{\"conditions\":[{{\"type\":\"Ready\",\"status\":\"False\"}}]}}}}]}}\r\n"
        )
    };
    fn encode(enc: &str, t: &str) -> Vec<u8> {
        let le = t.encode_utf16().flat_map(u16::to_le_bytes);
        let be = t.encode_utf16().flat_map(u16::to_be_bytes);
        match enc {
            "le-bom" => [0xFF, 0xFE].into_iter().chain(le).collect(),
            "be-bom" => [0xFE, 0xFF].into_iter().chain(be).collect(),
            _ => le.collect(),
        }
    }
    let groups = std::fs::read_to_string(root().join(GROUPS)).expect("groups");
    for enc in ["le-bom", "be-bom", "le"] {
        let dump = write(&format!("utf16-{enc}.json"), &encode(enc, &nodes("ok")));
        let o = run(
            "cluster_diagnose",
            &["--snapshot", dump.to_str().unwrap(), "--output", "json"],
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(code(&o), 1, "{enc}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(out.contains("\"node-not-ready\""), "{enc}: {out}");
        let pod = write(&format!("utf16-{enc}-pod.yaml"), &encode(enc, POD));
        let o = run(
            "pod_admit",
            &["--snapshot", SAMPLE, "--pod", pod.to_str().unwrap()],
        );
        assert!(
            code(&o) < 2,
            "{enc}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let g = write(&format!("utf16-{enc}-groups.yaml"), &encode(enc, &groups));
        let o = run("group_plan", &[g.to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{enc}: {}", String::from_utf8_lossy(&o.stderr));
        let kc = write(&format!("utf16-{enc}-kc.yaml"), &encode(enc, KUBECONFIG));
        let o = run(
            "cluster_import",
            &["--kubeconfig", kc.to_str().unwrap(), "--offline"],
        );
        assert!(
            code(&o) < 2,
            "{enc}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // a raw NUL inside item 1's label: item 1 is reported unreadable, item 2 still diagnosed
    let damaged = write("nul-in-item.json", nodes("a\0b").as_bytes());
    let o = run(
        "cluster_diagnose",
        &["--snapshot", damaged.to_str().unwrap(), "--output", "json"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 3, "{out}");
    assert!(
        out.contains("\"node-not-ready\"") && !out.contains("binary data"),
        "{out}"
    );
}

/// `cluster_diagnose --kubeconfig` of an empty file exited 1 while `cluster_import` exited 2.
#[test]
fn an_empty_kubeconfig_is_bad_input_in_every_program() {
    let empty = write("empty-kubeconfig.yaml", b"\n# nothing\n");
    let e = empty.display().to_string();
    let o = run("cluster_diagnose", &["--kubeconfig", &e]);
    assert_eq!(code(&o), 2, "{}", String::from_utf8_lossy(&o.stderr));
    let o = run("cluster_import", &["--kubeconfig", &e, "--offline"]);
    assert_eq!(code(&o), 2);
    let o = run("cluster_import", &["--kubeconfig", &e]);
    assert_eq!(code(&o), 2);
}

/// A kubeconfig of 20 MB of `certificate-authority-data` junk: `cluster_diagnose --snapshot`
/// read it as a snapshot (its `Config` skipped) and exited 0. Every program refuses it as bad
/// input naming the `kubeconfig-bytes` limit (exit 2); raised past it, every program reads it
/// and says the CA data is no certificate (exit 1). Under the limit, junk in any base64 field
/// gives the same exit code in every program.
#[test]
fn an_oversized_kubeconfig_is_bad_input_in_every_program() {
    let kubeconfig_with_ca = |bytes: usize| {
        KUBECONFIG.replace(
            "insecure-skip-tls-verify: true}",
            &format!("certificate-authority-data: {}}}", "A".repeat(bytes)),
        )
    };
    let check = |prog: &str, args: &[&str], want: i32| {
        let o = run(prog, args);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        let shown = &all[..all.len().min(2000)];
        assert_eq!(code(&o), want, "{prog} {:?}: {shown}", &args[..2]);
        if want == 2 {
            assert!(all.contains("kubeconfig-bytes"), "{prog}: {shown}");
        }
        assert!(all.len() < 1 << 20, "{prog}: the junk is echoed");
    };
    // the reported case, at the default limit (16 MiB)
    let big = write(
        "oversized-kubeconfig.yaml",
        kubeconfig_with_ca(20 << 20).as_bytes(),
    );
    let big = big.display().to_string();
    check(
        "cluster_diagnose",
        &["--snapshot", &big, "--output", "json"],
        2,
    );
    // every program, at a lowered limit (quick)
    let p = write(
        "over-limit-kubeconfig.yaml",
        kubeconfig_with_ca(300 << 10).as_bytes(),
    );
    let p = p.display().to_string();
    let low = ["--max-kubeconfig-bytes", "100Ki"];
    let runs: [(&str, Vec<&str>); 3] = [
        (
            "cluster_diagnose",
            vec!["--snapshot", &p, "--output", "json"],
        ),
        (
            "cluster_diagnose",
            vec!["--kubeconfig", &p, "--output", "json"],
        ),
        (
            "cluster_import",
            vec!["--kubeconfig", &p, "--offline", "--output", "json"],
        ),
    ];
    for (prog, args) in &runs {
        check(prog, &[&args[..], &low[..]].concat(), 2);
        // under the limit the CA data is read and is no certificate: exit 1 in both
        if args[0] != "--kubeconfig" || *prog == "cluster_import" {
            check(prog, args, 1);
        }
    }
    // junk in every base64 field, under the limit: the same code in both programs
    for field in [
        "certificate-authority-data",
        "client-certificate-data",
        "client-key-data",
    ] {
        let text = if field == "certificate-authority-data" {
            kubeconfig_with_ca(1 << 20)
        } else {
            KUBECONFIG.replace(
                "token: plain-token-value}",
                &format!(
                    "token: plain-token-value, {field}: {}}}",
                    "A".repeat(1 << 20)
                ),
            )
        };
        let p = write("junk-field-kubeconfig.yaml", text.as_bytes());
        let p = p.display().to_string();
        let d = code(&run(
            "cluster_diagnose",
            &["--snapshot", &p, "--output", "json"],
        ));
        let i = code(&run("cluster_import", &["--kubeconfig", &p, "--offline"]));
        assert_eq!((d, i), (1, 1), "{field}: diagnose {d}, import {i}");
    }
}

/// The files a kubeconfig references (certificate-authority, client-certificate, client-key,
/// tokenFile) were bounded by a constant 16 MiB; they follow the `referenced-file-bytes` limit
/// (`--max-referenced-file-bytes`) in every program that reads a kubeconfig, and a file over it
/// is the kubeconfig's unreadable-file error naming the limit.
#[test]
fn files_a_kubeconfig_references_follow_the_limits_policy() {
    let ca = write("two-kib-ca.pem", &[b'x'; 2048]);
    let ca = ca.display().to_string();
    let with_ca = KUBECONFIG.replace(
        "insecure-skip-tls-verify: true}",
        &format!("certificate-authority: '{ca}'}}"),
    );
    let with_token_file =
        KUBECONFIG.replace("token: plain-token-value}", &format!("tokenFile: '{ca}'}}"));
    for (name, text) in [("ca", with_ca), ("token-file", with_token_file)] {
        let kc = write(&format!("referencing-{name}.yaml"), text.as_bytes());
        let kc = kc.display().to_string();
        let runs: [(&str, Vec<&str>); 3] = [
            (
                "cluster_import",
                vec!["--kubeconfig", &kc, "--offline", "--output", "json"],
            ),
            (
                "cluster_diagnose",
                vec!["--snapshot", &kc, "--output", "json"],
            ),
            (
                "cluster_diagnose",
                vec!["--kubeconfig", &kc, "--output", "json"],
            ),
        ];
        for (prog, args) in &runs {
            for (flags, named) in [
                (&["--max-referenced-file-bytes", "1Ki"][..], true),
                (&["--limit", "referenced-file-bytes=1Ki"][..], true),
                (&[][..], false),
            ] {
                let o = run(prog, &[&args[..], flags].concat());
                let all = format!(
                    "{}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                let c = code(&o);
                // over the limit the kubeconfig is not usable; under it a 2 KiB token file is
                // a token (a CA file of junk is still no certificate)
                if named {
                    assert_ne!(c, 0, "{name} {prog} {args:?} {flags:?}: {all}");
                }
                assert_eq!(
                    all.contains("referenced-file-bytes"),
                    named,
                    "{name} {prog} {args:?} {flags:?}: {all}"
                );
            }
        }
    }
}

/// `cluster_fleet` and `group_plan --registry/--kubeconfig` read the registry's kubeconfigs
/// and the files they reference with a constant 16 MiB: the limit flags did not reach them.
/// They follow the one policy now, and a hit names the limit and its flag: per cluster in the
/// fleet report (`limitsHit`, exit 1 as the cluster is not Ready), as bad input (exit 2) in
/// `group_plan`.
#[test]
fn the_fleet_and_group_plan_read_kubeconfigs_within_the_limit_flags() {
    let dir = scratch();
    let padded = format!("{KUBECONFIG}#{}\n", "x".repeat(300 << 10));
    std::fs::write(dir.join("big.kubeconfig"), padded.as_bytes()).expect("write");
    let registry = write(
        "fleet-big-kubeconfig.yaml",
        format!(
            "clusters:\n- name: big\n  kubeconfig: {{path: {}}}\n",
            dir.join("big.kubeconfig").display()
        )
        .as_bytes(),
    );
    let registry = registry.display().to_string();
    let fleet = |flags: &[&str]| {
        let args = [
            &[
                "--registry",
                registry.as_str(),
                "--timeout",
                "2",
                "--output",
                "json",
            ][..],
            flags,
        ]
        .concat();
        let o = run("cluster_fleet", &args);
        let json: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        (code(&o), json)
    };
    for flags in [
        &["--max-kubeconfig-bytes", "100Ki"][..],
        &["--limit", "kubeconfig-bytes=100Ki"][..],
    ] {
        let (c, json) = fleet(flags);
        assert_eq!(c, 1, "{json}");
        let hit = &json["clusters"][0]["limitsHit"][0];
        assert_eq!(hit["limit"], "kubeconfig-bytes", "{json}");
        assert_eq!(hit["max"], 100 << 10, "{json}");
        assert!(
            json["clusters"][0]["ready"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("--max-kubeconfig-bytes")),
            "{json}"
        );
    }
    // at the default limit (16 MiB) the kubeconfig is read (the server then refuses)
    let (_, json) = fleet(&[]);
    assert!(json["clusters"][0].get("limitsHit").is_none(), "{json}");
    // group_plan: the same kubeconfig given to --diff is bad input naming the limit
    let kc = dir.join("big.kubeconfig").display().to_string();
    let o = run(
        "group_plan",
        &[
            GROUPS,
            "--diff",
            "--kubeconfig",
            &kc,
            "--timeout",
            "2",
            "--max-kubeconfig-bytes",
            "100Ki",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(code(&o), 2, "{err}");
    assert!(err.contains("--max-kubeconfig-bytes"), "{err}");
}

/// A Deployment with `replicas: 2147483647` (or a Job's parallelism) never finished.
#[test]
fn huge_workloads_are_bounded_and_say_so() {
    // (restart policies each kind's validation accepts)
    for (kind, spec, restart) in [
        (
            "apps/v1\nkind: Deployment",
            "  replicas: 2147483647\n  selector: {matchLabels: {app: x}}\n",
            "Always",
        ),
        (
            "batch/v1\nkind: Job",
            "  parallelism: 2147483647\n",
            "Never",
        ),
    ] {
        let manifest = format!(
            "apiVersion: {kind}\nmetadata: {{name: huge, namespace: default}}\nspec:\n{spec}  template:\n    metadata: {{labels: {{app: x}}}}\n    spec:\n      restartPolicy: {restart}\n      containers: [{{name: c, image: x, resources: {{requests: {{cpu: 10m, memory: 16Mi}}}}}}]\n"
        );
        let pod = write("huge.yaml", manifest.as_bytes());
        let p = pod.display().to_string();
        let o = run_with(
            "pod_admit",
            &[
                "--snapshot",
                SAMPLE,
                "--pod",
                &p,
                "--output",
                "json",
                "--max-replicas-expanded",
                "20",
            ],
            &[],
            Duration::from_secs(120),
        );
        assert_eq!(code(&o), 3, "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(v["requested"], 2147483647);
        assert_eq!(v["replicas"].as_array().map(Vec::len), Some(20));
        let why = v["incomplete"].as_str().unwrap_or_default();
        assert!(
            why.contains("first 20 of 2147483647") && why.contains("--limit replicas-expanded=N"),
            "{why}"
        );
    }
}

/// Quantities of `1000E` and above printed without their exponent: a `2000E` bucket split 50/50
/// was rendered as `requests.cpu: "1"`.
#[test]
fn a_2000e_bucket_split_in_halves_keeps_its_exponent() {
    let groups = write(
        "g2000.yaml",
        b"name: big\nowner: alice\nquota:\n- name: compute\n  hard:\n    requests.cpu: 2000E\nnamespaces:\n- name: big-a\n  sharePercent: 50\n- name: big-b\n  sharePercent: 50\n",
    );
    let o = run("group_plan", &[&groups.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.matches("requests.cpu: \"1e21\"").count(), 2, "{out}");
    assert!(!out.contains("requests.cpu: \"1\""), "{out}");
}

/// Namespaces whose percentages add up to 100 get the whole bucket (33/33/34 % of 10 GPUs was
/// planned 3/3/3: one GPU planned nowhere, fresh-user F14); a misspelt key of a groups file was
/// ignored silently and the group planned without what it asked for (F15): it is bad input
/// naming the key and its line.
#[test]
fn group_plan_splits_by_largest_remainder_and_refuses_unknown_keys() {
    let groups = write(
        "g-thirds.yaml",
        b"name: thirds\nowner: alice\nquota:\n- name: gpu\n  hard:\n    requests.nvidia.com/gpu: 10\n    requests.cpu: 1\nnamespaces:\n- name: t-a\n  sharePercent: 33\n- name: t-b\n  sharePercent: 33\n- name: t-c\n  sharePercent: 34\n",
    );
    let o = run(
        "group_plan",
        &[&groups.display().to_string(), "--output", "json"],
    );
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    let gpus: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\"requests.nvidia.com/gpu\""))
        .collect();
    let total: i64 = gpus
        .iter()
        .filter_map(|l| l.rsplit(':').next())
        .filter_map(|v| v.trim().trim_matches([',', '"']).parse::<i64>().ok())
        .sum();
    assert_eq!(total, 10, "{gpus:?}\n{out}");
    for (typo, line) in [
        (
            "name: typo\nowner: alice\nquota:\n- name: gpu\n  hard: {requests.nvidia.com/gpu: 4}\nnamespaces:\n- name: t-a\n  sharePercnt: 50\n",
            8,
        ),
        (
            "name: typo\nowner: alice\nplacement:\n  nodeSelecter: {org: team-a}\nnamespaces:\n- name: t-a\n",
            4,
        ),
    ] {
        let f = write("g-typo.yaml", typo.as_bytes());
        let o = run("group_plan", &[&f.display().to_string()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(code(&o), 2, "{err}");
        let key = if line == 8 {
            "sharePercnt"
        } else {
            "nodeSelecter"
        };
        assert!(
            err.contains(&format!("unknown field `{key}`"))
                && err.contains(&format!("line {line}")),
            "{err}"
        );
    }
}

/// YAML written in flow style (`{apiVersion: v1, kind: Pod, metadata: {name: p}, ...}`, which
/// kubectl reads as it reads block YAML) was refused as "not valid JSON" by `pod_admit` and
/// `group_plan`, and read as no input at all by `cluster_diagnose`: every program reads it as
/// YAML.
#[test]
fn yaml_in_flow_style_is_read_by_every_program() {
    let pod = write(
        "flow-pod.yaml",
        b"{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: default}, spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 100m, memory: 64Mi}}}]}}\n",
    );
    let o = run(
        "pod_admit",
        &[
            "--snapshot",
            SAMPLE,
            "--pod",
            &pod.display().to_string(),
            "--output",
            "json",
        ],
    );
    assert!(
        matches!(code(&o), 0 | 1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(v.is_object(), "{v}");
    let groups = write(
        "flow-groups.yaml",
        b"{name: flow, owner: alice, quota: [{name: c, hard: {requests.cpu: 4}}], namespaces: [{name: flow-a, sharePercent: 100}]}\n",
    );
    let o = run("group_plan", &[&groups.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("name: flow-a"));
    let snap = write(
        "flow-snap.yaml",
        b"{apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: Node, metadata: {name: flow-node}, status: {allocatable: {cpu: '4', memory: 8Gi}, capacity: {cpu: '4', memory: 8Gi}, conditions: [{type: Ready, status: 'False', reason: KubeletNotReady, message: PLEG is not healthy}]}}]}\n",
    );
    let o = run(
        "cluster_diagnose",
        &[
            "--snapshot",
            &snap.display().to_string(),
            "--output",
            "json",
        ],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(code(&o), 1, "{}\n{out}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("flow-node"), "{out}");
    // JSON that is broken stays a JSON error
    let broken = write(
        "flow-broken.json",
        b"{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n",
    );
    let o = run(
        "pod_admit",
        &["--snapshot", SAMPLE, "--pod", &broken.display().to_string()],
    );
    assert_eq!(code(&o), 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("not valid JSON"));
}

/// `yes | program -` (endless standard input) stops at the file-size limit with a typed limit
/// outcome, as a file does, in every program that reads `-`.
#[test]
fn endless_stdin_stops_at_the_file_size_limit() {
    for (name, args) in [
        (
            "cluster_diagnose",
            vec!["--snapshot", "-", "--max-file-bytes", "4Mi"],
        ),
        ("group_plan", vec!["-", "--max-file-bytes", "4Mi"]),
        (
            "pod_admit",
            vec![
                "--snapshot",
                SAMPLE,
                "--pod",
                "-",
                "--max-file-bytes",
                "4Mi",
            ],
        ),
    ] {
        let mut child = Command::new(bin(name))
            .args(&args)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let chunk = "y\n".repeat(1 << 15);
            let mut sent = 0u64;
            while stdin.write_all(chunk.as_bytes()).is_ok() {
                sent += chunk.len() as u64;
                if sent > 1 << 32 {
                    break;
                }
            }
            sent
        });
        let reader = drain(child.stderr.take().expect("stderr"));
        let Some(status) = wait_within(&mut child, Duration::from_secs(60), || {}) else {
            panic!("{name} {args:?} kept reading an endless stdin");
        };
        let sent = writer.join().unwrap_or(0);
        let err = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
        assert_eq!(status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains("exceeds the limit of 4194304 bytes")
                && err.contains("--limit file-bytes=N"),
            "{name}: {err}"
        );
        // it stopped reading near the limit (the pipe buffers a little more)
        assert!(sent < 64 << 20, "{name} read {sent} bytes");
    }
}

/// H22: `cluster_diagnose --snapshot -` held a piped stream in memory up to the file limit
/// (4.2 GB resident for a 4 GiB default) before refusing it. A pipe is now kept in memory up to
/// 64 MiB and spooled past it, the limit applied to every window as it is read: 300 MiB of text
/// piped under `--max-file-bytes 256Mi` is refused (exit 2, the limit named) with a peak well
/// under the limit. A regular file on stdin (`< file`) over the limit is refused before any
/// byte is read.
#[cfg(target_os = "linux")]
#[test]
fn a_piped_stdin_over_the_limit_is_never_held_whole() {
    let mut child = Command::new(bin("cluster_diagnose"))
        .args(["--snapshot", "-", "--max-file-bytes", "256Mi"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let chunk = "kubelet: I1202 10:00:00.000000 1 x.go:1] y\n".repeat(1 << 12);
        let mut sent = 0u64;
        while sent < 300 << 20 && stdin.write_all(chunk.as_bytes()).is_ok() {
            sent += chunk.len() as u64;
        }
        sent
    });
    let reader = drain(child.stderr.take().expect("stderr"));
    let mut peak = 0;
    let Some(status) = wait_within(&mut child, Duration::from_secs(120), || {
        peak = peak.max(support::vm_hwm(pid).unwrap_or(0));
    }) else {
        panic!("cluster_diagnose kept reading stdin");
    };
    let _ = writer.join();
    let err = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains("exceeds the limit of 268435456 bytes")
            && err.contains("--limit file-bytes=N"),
        "{err}"
    );
    eprintln!("peak resident {} MiB for a 256 MiB limit", peak >> 20);
    assert!(peak < 160 << 20, "peak resident {} MiB", peak >> 20);

    // `< file` over the limit: refused by its size, unread
    let big = write("stdin-over-limit.json", &vec![b' '; 2 << 20]);
    let o = Command::new(bin("cluster_diagnose"))
        .args(["--snapshot", "-", "--max-file-bytes", "1Mi"])
        .current_dir(root())
        .stdin(std::fs::File::open(&big).expect("open"))
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(code(&o), 2, "{err}");
    assert!(
        err.contains("exceeds the limit of 1048576 bytes (at least 2097152"),
        "{err}"
    );
}

/// `cluster_diagnose --kubeconfig` against a cluster that never answers waited the request
/// timeout once per kind listed (17 kinds: minutes, fresh-user F5). It costs one timeout and
/// says the picture is incomplete.
#[test]
fn an_unreachable_cluster_costs_one_request_timeout() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    // accepts every connection and never answers
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    let kc = write(
        "silent-kubeconfig.yaml",
        KUBECONFIG
            .replace("https://127.0.0.1:1", &format!("https://{addr}"))
            .as_bytes(),
    );
    let kc = kc.display().to_string();
    // built before the clock starts (the first call may compile)
    bin("cluster_diagnose");
    let start = Instant::now();
    let o = run_with(
        "cluster_diagnose",
        &[
            "--kubeconfig",
            &kc,
            "--request-timeout-secs",
            "2",
            "--output",
            "json",
        ],
        &[],
        Duration::from_secs(120),
    );
    let took = start.elapsed();
    assert_eq!(code(&o), 3, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(took < Duration::from_secs(20), "{took:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["incomplete"], true, "{v}");
}

/// K9: `cluster_import` against a server that accepts and never answers waited twice the
/// request timeout (the bounded client's timeout was connect + read), and its default timeout
/// was 10 s while `request-timeout-secs` is documented as 30 s. The whole import now ends
/// within one request timeout (plus start-up), whichever flag sets it, over https and http,
/// classified `timeout`; with no flag it is the documented 30 s.
#[test]
fn cluster_import_on_a_silent_server_costs_one_request_timeout() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    let https = write(
        "silent-import-https.yaml",
        KUBECONFIG
            .replace("https://127.0.0.1:1", &format!("https://{addr}"))
            .as_bytes(),
    );
    let http = write(
        "silent-import-http.yaml",
        KUBECONFIG
            .replace("https://127.0.0.1:1", &format!("http://{addr}"))
            .replace(", insecure-skip-tls-verify: true", "")
            .as_bytes(),
    );
    bin("cluster_import");
    let cases: Vec<(std::path::PathBuf, Vec<&'static str>, u64)> = vec![
        (https.clone(), vec!["--timeout-secs", "2"], 2),
        (https.clone(), vec!["--request-timeout-secs", "2"], 2),
        (https.clone(), vec!["--limit", "request-timeout-secs=3"], 3),
        (http.clone(), vec!["--timeout-secs", "2"], 2),
        // the documented default
        (https, vec![], 30),
    ];
    let runs: Vec<_> = cases
        .into_iter()
        .map(|(kc, flags, secs)| {
            std::thread::spawn(move || {
                let kc = kc.display().to_string();
                let mut args = vec!["--kubeconfig", kc.as_str(), "--output", "json"];
                args.extend(flags.iter().copied());
                let start = Instant::now();
                let o = run_with("cluster_import", &args, &[], Duration::from_secs(120));
                (flags, secs, start.elapsed(), o)
            })
        })
        .collect();
    for r in runs {
        let (flags, secs, took, o) = r.join().expect("run");
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            code(&o),
            1,
            "{flags:?}: {out} {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains("timeout"), "{flags:?}: {out}");
        let limit = Duration::from_secs(secs);
        assert!(
            took >= limit.mul_f64(0.9) && took < limit + Duration::from_millis(1500),
            "{flags:?}: took {took:?} for a {secs} s request timeout"
        );
    }
}

/// An exec credential plugin that never exits hung `cluster_import --allow-exec` (kube-client
/// ran it with no deadline, fresh-user F19): it is stopped at the request timeout and the
/// cluster is not importable, the reason named.
#[cfg(unix)]
#[test]
fn a_hanging_exec_plugin_is_stopped() {
    use std::os::unix::fs::PermissionsExt as _;
    let plugin = write("hang-plugin.sh", b"#!/bin/sh\nexec sleep 600\n");
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let kc = write(
        "exec-kubeconfig.yaml",
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster: {{server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}}\nusers:\n- name: u\n  user:\n    exec: {{apiVersion: client.authentication.k8s.io/v1beta1, command: {}}}\ncontexts:\n- name: a\n  context: {{cluster: k, user: u}}\n",
            plugin.display()
        )
        .as_bytes(),
    );
    let kc = kc.display().to_string();
    // built before the clock starts (the first call may compile)
    bin("cluster_import");
    let start = Instant::now();
    let o = run_with(
        "cluster_import",
        &[
            "--kubeconfig",
            &kc,
            "--allow-exec",
            "--request-timeout-secs",
            "1",
            "--output",
            "json",
        ],
        &[],
        Duration::from_secs(60),
    );
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code(&o), 1, "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("did not finish within 1 s"), "{out}");
}

/// Escape sequences, newlines and right-to-left characters from names and messages reached the
/// terminal raw, even inside suggested `kubectl` commands; zero-width, soft-hyphen, BOM and tag
/// characters (a name that looks like another, hidden text) reached tables raw, and `pod_admit
/// --output json` carried raw U+202E and C1 CSI (red team 2 #05). Every program, human and JSON
/// output.
#[test]
fn terminal_injection_is_escaped_in_human_output() {
    let evil = "gpu\u{1b}]0;owned\u{7}\u{1b}[2J\u{202e}1-edon\u{2066}\u{200b}\u{ad}\u{feff}\u{e0041}\u{9b}31m";
    let node = serde_json::json!({
        "apiVersion": "v1", "kind": "List", "items": [{
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": evil, "labels": {"nvidia.com/gpu.present": "true"}},
            "status": {
                "conditions": [{"type": "Ready", "status": "False", "reason": "KubeletNotReady",
                                "message": format!("runtime down {evil}\r\nfake line")}],
                "allocatable": {"cpu": "4", "memory": "8Gi"},
                "capacity": {"cpu": "4", "memory": "8Gi"}
            }
        }, {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": evil, "namespace": "default"},
            "spec": {"nodeName": evil, "containers": [{"name": "c", "resources": {"requests": {"cpu": "9"}}}]},
            "status": {"phase": "Running"}
        }]
    });
    let snap = write("evil.json", node.to_string().as_bytes());
    let s = snap.display().to_string();
    let pod = write(
        "evil-pod.yaml",
        format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: \"p\\u202e\\u001b[1m\\u200b\\u009b31m\", namespace: default}}\nspec:\n  nodeName: \"{}\"\n  containers: [{{name: c, image: x}}]\n", evil.escape_default()).as_bytes(),
    );
    let kc = write(
        "evil-kubeconfig.yaml",
        format!("apiVersion: v1\nkind: Config\ncurrent-context: \"a{e}\"\nclusters:\n- name: \"k{e}\"\n  cluster: {{server: 'https://127.0.0.1:1'}}\nusers:\n- name: u\n  user: {{}}\ncontexts:\n- name: \"a{e}\"\n  context: {{cluster: \"missing{e}\", user: u}}\n", e = evil.escape_default()).as_bytes(),
    );
    let mut runs: Vec<(&str, Vec<String>)> = vec![
        ("cluster_diagnose", vec!["--snapshot".into(), s.clone()]),
        (
            "pod_admit",
            vec![
                "--snapshot".into(),
                s.clone(),
                "--pod".into(),
                pod.display().to_string(),
            ],
        ),
        (
            "group_plan",
            vec![GROUPS.into(), "--snapshot".into(), s.clone()],
        ),
        (
            "cluster_import",
            vec![
                "--kubeconfig".into(),
                kc.display().to_string(),
                "--offline".into(),
            ],
        ),
    ];
    // the same runs with each machine format the program has
    let machine: Vec<(&str, Vec<String>)> = runs
        .iter()
        .flat_map(|(name, args)| {
            let formats: &[&str] = match *name {
                "cluster_diagnose" => &["json", "sarif", "junit"],
                _ => &["json"],
            };
            formats.iter().map(move |f| {
                let mut a = args.clone();
                a.extend(["--output".to_owned(), (*f).to_owned()]);
                (*name, a)
            })
        })
        .collect();
    runs.extend(machine);
    for (name, args) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(name, &args);
        code(&o);
        for (what, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            for bad in [
                '\u{1b}',
                '\u{7}',
                '\u{202e}',
                '\u{2066}',
                '\r',
                '\u{9b}',
                '\u{200b}',
                '\u{ad}',
                '\u{feff}',
                '\u{e0041}',
            ] {
                assert!(
                    !text.contains(bad),
                    "{name} {what} holds raw {bad:?}:\n{text}"
                );
            }
        }
    }
}

// ------------------------------------------------------------------ salted secrets

/// Known secrets, each salted into the inputs in the forms of issue 9.
const BOOTSTRAP: &str = "q7z3k9.4s8f2m6x1c9v5b0n";
const BOOTSTRAP_SECRET: &str = "4s8f2m6x1c9v5b0n";
const PASSWORD: &str = "Pw-s4lt3d-7f2k9q";
const URL_PASSWORD: &str = "p/a#s?s@w0rd-s4lt";
const BEARER: &str = "sk-s4lt3d-bearer-77aa88bb99cc";
const JWT: &str = "eyJhbGciOiJSUzI1NiIsImtpZCI6InNhbHQifQ.eyJzdWIiOiJzYWx0ZWQtc3ViamVjdCJ9.c2FsdGVkLXNpZ25hdHVyZS1ieXRlcw";
const KEY_B64: &str = "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSVNhbHRlZEtleU1hdGVyaWFsU2FsdGVkS2V5TWF0ZXJpYWwKLS0tLS1FTkQgRUMgUFJJVkFURSBLRVktLS0tLQo";
const PEM_BODY: &str = "MHcCAQEEISaltedPemBodyLineSaltedPemBodyLine0a1b2c3d4e5f";
const PROXY_PASSWORD: &str = "Pr0xy-s4lt-pass";
const SECRET_DATA: &str = "c2FsdGVkLXNlY3JldC1kYXRhLXZhbHVl";
/// Secrets written in pasted prose (a ticket, a chat message), each form with its own value.
const PROSE: [&str; 6] = [
    "Pr0se-s4lt-pw1",
    "Pr0se-s4lt-pw2",
    "Pr0se-s4lt-pw3",
    "Pr0se-s4lt-pw4",
    "Pr0se-s4lt-bearer-0123456789",
    "UHJvc2Utc2FsdC1jbGllbnQta2V5LWRhdGE=",
];

/// Secrets with no `key=` the redactor knew before red team 2 (#02): signed URLs, environment
/// names, the short token flag, provider-prefixed tokens, URL-encoded pairs and user-info
/// without a scheme (also in an image reference), each form with its own value.
const FORMS: [&str; 12] = [
    "SALTformAmzSig01",
    "SALTformSas02",
    "SALTformEnv03",
    "SALTformFlag04",
    "ghp_SALTform05aaaaaaaaaaaaaaaaaaaaaaaa",
    "AKIASALTFORM06ZZZZZZ",
    "sk-SALTform07aaaaaaaaaaaaaaaaaaaaa",
    "SALTformEnc08",
    "SALTformProxy09",
    "SALTformImage10",
    "SALTformToken11",
    "glpat-SALTform12aaaaaaaaaaa",
];

fn salted() -> Vec<&'static str> {
    let mut v = vec![
        BOOTSTRAP_SECRET,
        PASSWORD,
        URL_PASSWORD,
        "p%2Fa%23s%3Fs%40w0rd-s4lt",
        BEARER,
        "eyJzdWIiOiJzYWx0ZWQtc3ViamVjdCJ9",
        "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t",
        PEM_BODY,
        PROXY_PASSWORD,
        SECRET_DATA,
        PROSE[0],
        PROSE[1],
        PROSE[2],
        PROSE[3],
        PROSE[4],
        PROSE[5],
    ];
    v.extend(FORMS);
    v
}

/// A corpus of inputs carrying the salted secrets in every form: logs (flags, key=value,
/// quoted, tab-separated, JSON lines, bearer headers, URL user-info), Secrets (valid and broken
/// YAML), kubeconfigs (YAML and JSON), a snapshot with Secrets, env values and annotations, pod
/// manifests and group files.
fn corpus() -> Vec<(String, String)> {
    let log = format!(
        "[preflight] Running pre-flight checks\n\
         kubeadm join 10.0.0.1:6443 --token {BOOTSTRAP} --discovery-token-ca-cert-hash sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n\
         kubeadm join 10.0.0.1:6443 --token={BOOTSTRAP} --discovery-token={BOOTSTRAP}\n\
         kubeadm join 10.0.0.1:6443 --token\t{BOOTSTRAP}\n\
         msg=\"join failed\" token={BOOTSTRAP} password={PASSWORD}\n\
         config: token=\"{BOOTSTRAP}\" password='{PASSWORD}'\n\
         token\t{BOOTSTRAP}\tpassword\t{PASSWORD}\n\
         {{\"level\":\"error\",\"msg\":\"could not find a JWS signature in the cluster-info ConfigMap for token ID \\\"q7z3k9\\\"\",\"token\":\"{BOOTSTRAP}\",\"password\": \"{PASSWORD}\"}}\n\
         curl -H 'Authorization: Bearer {BEARER}' https://10.0.0.1:6443/api\n\
         Authorization: Bearer {JWT}\n\
         E1201 Get \"https://admin:{URL_PASSWORD}@10.0.0.1:6443/version\": dial tcp 10.0.0.1:6443: connect: connection refused\n\
         proxyconnect tcp: dial tcp: lookup proxy on 10.0.0.2:53: no such host (proxy http://proxyuser:{PROXY_PASSWORD}@proxy:3128)\n\
         error: You must be logged in to the server (Unauthorized) token {BOOTSTRAP}\n\
         support: the db password {p0} works again after the restart\n\
         support: use the password: {p1} then retry the join\n\
         support: I set passwd={p2} on the node and ran it with --password {p3} too\n\
         support: the request had Authorization: Bearer {p4} and still got 401\n\
         support: the kubeconfig has client-key-data: {p5} in it\n\
         > GET /api/v1/nodes HTTP/2\n\
         > authorization: Bearer {BEARER}\n\
         > Cookie: lang=en; session={PASSWORD}; Path=/\n\
         < HTTP/2 403\n",
        p0 = PROSE[0],
        p1 = PROSE[1],
        p2 = PROSE[2],
        p3 = PROSE[3],
        p4 = PROSE[4],
        p5 = PROSE[5],
    );
    let secret_yaml = format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: default\ntype: Opaque\ndata:\n  password: {SECRET_DATA}\nstringData:\n  note: {PASSWORD}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: bootstrap-token-q7z3k9\n  namespace: kube-system\ntype: bootstrap.kubernetes.io/token\nstringData:\n  token-id: q7z3k9\n  token-secret: {BOOTSTRAP_SECRET}\n  usage-bootstrap-authentication: \"true\"\n"
    );
    let broken_secret = format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {SECRET_DATA}\n  other: [unclosed {PASSWORD}\n  key: |\n   -----BEGIN EC PRIVATE KEY-----\n   {PEM_BODY}\n"
    );
    let kubeconfig = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster:\n    server: https://admin:{}@127.0.0.1:1\n    proxy-url: http://proxyuser:{PROXY_PASSWORD}@127.0.0.1:3\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: {BOOTSTRAP}\n    client-key-data: {KEY_B64}\n    client-certificate-data: {KEY_B64}\n- name: v\n  user:\n    username: admin\n    password: {PASSWORD}\n- name: w\n  user:\n    auth-provider:\n      name: oidc\n      config:\n        id-token: {JWT}\n        refresh-token: {BEARER}\ncontexts:\n- name: a\n  context: {{cluster: k, user: u}}\n- name: b\n  context: {{cluster: k, user: v}}\n- name: c\n  context: {{cluster: k, user: w}}\n",
        URL_PASSWORD
            .replace('/', "%2F")
            .replace('#', "%23")
            .replace('?', "%3F")
            .replace('@', "%40")
    );
    let kubeconfig_json = {
        let v: serde_json::Value = serde_saphyr::from_str(&kubeconfig).expect("kubeconfig parses");
        serde_json::to_string(&v).expect("json")
    };
    let snapshot = serde_json::json!({
        "apiVersion": "v1", "kind": "List", "items": [
            {"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
             "metadata": {"name": "db", "namespace": "default"}, "data": {"password": SECRET_DATA}},
            {"apiVersion": "v1", "kind": "Secret", "type": "bootstrap.kubernetes.io/token",
             "metadata": {"name": "bootstrap-token-q7z3k9", "namespace": "kube-system"},
             "stringData": {"token-id": "q7z3k9", "token-secret": BOOTSTRAP_SECRET,
                            "usage-bootstrap-authentication": "true"}},
            {"apiVersion": "v1", "kind": "Node",
             "metadata": {"name": "n1", "labels": {"nvidia.com/gpu.present": "true"},
                          "annotations": {"note": format!("--token {BOOTSTRAP} password={PASSWORD}")}},
             "status": {"allocatable": {"cpu": "4", "memory": "8Gi"}, "capacity": {"cpu": "4", "memory": "8Gi"},
                        "conditions": [{"type": "Ready", "status": "False", "message": format!("kubelet: Authorization: Bearer {BEARER}")}]}},
            {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "app", "namespace": "default",
                          "annotations": {"kubectl.kubernetes.io/last-applied-configuration": format!("{{\"password\":\"{PASSWORD}\"}}")}},
             "spec": {"nodeName": "n1", "containers": [{"name": "c",
                      "env": [{"name": "DB_PASSWORD", "value": PASSWORD}, {"name": "TOKEN", "value": BOOTSTRAP}],
                      "args": [format!("--password={PASSWORD}"), format!("https://u:{URL_PASSWORD}@db")],
                      "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}]},
             "status": {"phase": "Pending"}},
            {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e1", "namespace": "default"},
             "involvedObject": {"kind": "Pod", "name": "app", "namespace": "default"},
             "type": "Warning", "reason": "Failed",
             "message": format!("Failed to pull image: Get https://robot:{URL_PASSWORD}@registry/v2/: unauthorized; token={BOOTSTRAP}")}
        ]
    })
    .to_string();
    let broken_snapshot = snapshot
        .replacen("\"kind\": \"Node\"", "\"kind\": Node", 1)
        .replacen("\"kind\":\"Node\"", "\"kind\":Node", 1);
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\n  annotations: {{note: \"password={PASSWORD}\"}}\nspec:\n  containers:\n  - name: c\n    image: x\n    env: [{{name: T, value: \"{BOOTSTRAP}\"}}]\n    args: [\"--token\", \"{BOOTSTRAP}\", \"Authorization: Bearer {BEARER}\"]\n    resources: {{requests: {{cpu: 100m, memory: 64Mi}}}}\n"
    );
    let broken_pod = format!("{pod}  bad: [password: {PASSWORD}\n");
    // a secret where no key says so (a quantity) is hidden because the same file holds it
    // under a secret key: every value an input holds under a secret key is hidden everywhere
    let bad_pod_value = pod.replace("cpu: 100m", &format!("cpu: \"{PASSWORD}\""));
    let groups = format!(
        "name: team\nowner: alice\n# password: {PASSWORD}\nquota:\n- name: compute\n  hard:\n    requests.cpu: \"{PASSWORD}\"\nnamespaces:\n- name: team-a\n"
    );
    let broken_groups = format!("name: team\nowner: [{PASSWORD}\npassword: {PASSWORD}\n");
    // cluster_fleet registries: credentials in the API server URL (refused at validation), and
    // an inline kubeconfig with a token and a proxy password (probed on a closed loopback port)
    let registry_bad_server = format!(
        "apiVersion: cube-rs.io/v1alpha1\nkind: ClusterRegistry\nclusters:\n- name: a\n  apiServer: https://admin:{URL_PASSWORD}@127.0.0.1:1\n  kubeconfig: {{inline: \"x\"}}\n"
    );
    let registry_inline = {
        let inline = serde_json::to_string(&kubeconfig.replace(
            &format!(
                "https://admin:{}@127.0.0.1:1",
                URL_PASSWORD
                    .replace('/', "%2F")
                    .replace('#', "%23")
                    .replace('?', "%3F")
                    .replace('@', "%40")
            ),
            "https://127.0.0.1:1",
        ))
        .expect("json string");
        format!(
            "apiVersion: cube-rs.io/v1alpha1\nkind: ClusterRegistry\nclusters:\n- name: a\n  kubeconfig:\n    inline: {inline}\n- name: b\n  kubeconfig:\n    inline: {inline}\n    context: b\n"
        )
    };
    let forms_log = format!(
        "E1130 12:00:00.000000    1234 x.go:1] failed: GET https://bucket.s3.amazonaws.com/x?X-Amz-Signature={f0}&X-Amz-Date=1\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: https://acct.blob.core.windows.net/c?sv=1&sig={f1}\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: DB_PASS={f2}\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: -t {f3}\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: {f4}\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: {f5}\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: {f6}\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: token%3D{f7}\n\
         E1130 12:00:00.000000    1234 x.go:1] proxyconnect tcp: dial via proxy admin:{f8}@proxy.local:3128: connection refused\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: the token {f10} is invalid\n\
         E1130 12:00:00.000000    1234 x.go:1] failed: {f11}\n",
        f0 = FORMS[0],
        f1 = FORMS[1],
        f2 = FORMS[2],
        f3 = FORMS[3],
        f4 = FORMS[4],
        f5 = FORMS[5],
        f6 = FORMS[6],
        f7 = FORMS[7],
        f8 = FORMS[8],
        f10 = FORMS[10],
        f11 = FORMS[11],
    );
    let forms_events = format!(
        "NAMESPACE   LAST SEEN   TYPE      REASON   OBJECT          MESSAGE\n\
         team-nlp    1m          Warning   Failed   pod/trainer-0   Failed to pull image \"u:{}@registry.example.com/x\": rpc error: code = Unknown desc = pull access denied\n",
        FORMS[9]
    );
    vec![
        ("forms.log".into(), forms_log),
        ("forms-events.txt".into(), forms_events),
        ("salted.log".into(), log),
        ("secret.yaml".into(), secret_yaml),
        ("broken-secret.yaml".into(), broken_secret),
        ("kubeconfig.yaml".into(), kubeconfig),
        ("kubeconfig.json".into(), kubeconfig_json),
        ("snapshot.json".into(), snapshot),
        ("broken-snapshot.json".into(), broken_snapshot),
        ("pod.yaml".into(), pod),
        ("broken-pod.yaml".into(), broken_pod),
        ("bad-value-pod.yaml".into(), bad_pod_value),
        ("groups.yaml".into(), groups),
        ("broken-groups.yaml".into(), broken_groups),
        ("registry-bad-server.yaml".into(), registry_bad_server),
        ("registry-inline.yaml".into(), registry_inline),
    ]
}

/// Every output format (table, JSON, SARIF, JUnit, YAML), stderr and `RUST_LOG=trace` of every program
/// over the salted corpus: no salted secret is ever printed.
#[test]
fn no_program_prints_a_salted_secret_in_any_output() {
    let dir = scratch().join("salted");
    std::fs::create_dir_all(&dir).expect("dir");
    let files: Vec<(String, String)> = corpus()
        .into_iter()
        .map(|(name, body)| {
            let p = dir.join(&name);
            std::fs::write(&p, body).expect("write");
            (name, p.display().to_string())
        })
        .collect();
    let f = |n: &str| {
        files
            .iter()
            .find(|(name, _)| name == n)
            .map(|(_, p)| p.clone())
            .expect("corpus file")
    };
    let all: Vec<String> = files.iter().map(|(_, p)| p.clone()).collect();
    let mut runs: Vec<(&str, Vec<String>)> = Vec::new();
    for out in ["table", "json", "sarif", "junit"] {
        let mut a = vec!["--snapshot".to_owned()];
        a.extend(all.iter().cloned());
        a.extend(["--output".to_owned(), out.to_owned()]);
        runs.push(("cluster_diagnose", a));
        for (_, p) in &files {
            runs.push((
                "cluster_diagnose",
                vec![
                    "--snapshot".into(),
                    p.clone(),
                    "--output".into(),
                    out.into(),
                ],
            ));
        }
        runs.push((
            "cluster_diagnose",
            vec![
                "--kubeconfig".into(),
                f("kubeconfig.yaml"),
                "--output".into(),
                out.into(),
                "--request-timeout-secs".into(),
                "2".into(),
            ],
        ));
        runs.push((
            "cluster_diagnose",
            vec![
                "--groups".into(),
                f("broken-groups.yaml"),
                "--output".into(),
                out.into(),
            ],
        ));
        runs.push((
            "cluster_diagnose",
            vec![
                "--config".into(),
                f("broken-groups.yaml"),
                "--output".into(),
                out.into(),
            ],
        ));
    }
    for out in ["table", "json"] {
        for kc in [
            "kubeconfig.yaml",
            "kubeconfig.json",
            "broken-secret.yaml",
            "salted.log",
        ] {
            for ctx in [None, Some("b"), Some("c")] {
                let mut a = vec!["--kubeconfig".to_owned(), f(kc), "--offline".to_owned()];
                if let Some(c) = ctx {
                    a.extend(["--context".to_owned(), c.to_owned()]);
                }
                a.extend(["--output".to_owned(), out.to_owned()]);
                runs.push(("cluster_import", a));
            }
        }
        for pod in [
            "pod.yaml",
            "broken-pod.yaml",
            "bad-value-pod.yaml",
            "secret.yaml",
            "salted.log",
        ] {
            runs.push((
                "pod_admit",
                vec![
                    "--snapshot".into(),
                    f("snapshot.json"),
                    "--pod".into(),
                    f(pod),
                    "--output".into(),
                    out.into(),
                ],
            ));
        }
        for snap in ["broken-snapshot.json", "secret.yaml", "broken-secret.yaml"] {
            runs.push((
                "pod_admit",
                vec![
                    "--snapshot".into(),
                    f(snap),
                    "--pod".into(),
                    f("pod.yaml"),
                    "--output".into(),
                    out.into(),
                ],
            ));
        }
    }
    for out in ["yaml", "json"] {
        for groups in ["groups.yaml", "broken-groups.yaml", "secret.yaml", GROUPS] {
            let g = if groups == GROUPS {
                GROUPS.to_owned()
            } else {
                f(groups)
            };
            runs.push((
                "group_plan",
                vec![
                    g,
                    "--snapshot".into(),
                    f("snapshot.json"),
                    "--output".into(),
                    out.into(),
                ],
            ));
        }
    }
    for out in ["table", "json"] {
        for reg in [
            "registry-bad-server.yaml",
            "registry-inline.yaml",
            "kubeconfig.yaml",
            "broken-secret.yaml",
        ] {
            runs.push((
                "cluster_fleet",
                vec![
                    "--registry".into(),
                    f(reg),
                    "--timeout".into(),
                    "2".into(),
                    "--output".into(),
                    out.into(),
                ],
            ));
        }
    }
    let secrets = salted();
    let mut leaks = Vec::new();
    for (name, args) in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for env in [&[][..], &[("RUST_LOG", "trace")][..]] {
            let o = run_with(name, &args, env, Duration::from_secs(120));
            code(&o);
            for (what, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
                let text = String::from_utf8_lossy(bytes);
                for s in &secrets {
                    if text.contains(s) {
                        let at = text.find(s).unwrap_or(0);
                        let from = text[..at]
                            .char_indices()
                            .rev()
                            .nth(80)
                            .map_or(0, |(i, _)| i);
                        let ctx: String = text[from..].chars().take(200).collect();
                        leaks.push(format!(
                            "{name} {args:?} {env:?} {what}: {s:?} in ...{ctx}..."
                        ));
                    }
                }
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "{} leak(s):\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

// ------------------------------------------------------------------ arbitrary bytes

mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    /// Valid inputs, cut, spliced and mutated: close enough to real input to reach deep into
    /// the readers, broken enough to hit every error path.
    fn mutated() -> impl Strategy<Value = Vec<u8>> {
        let seeds: Vec<Vec<u8>> = [
            std::fs::read(root().join(SAMPLE)).unwrap_or_default(),
            std::fs::read(root().join(GROUPS)).unwrap_or_default(),
            POD.as_bytes().to_vec(),
            KUBECONFIG.as_bytes().to_vec(),
            std::fs::read(root().join("testdata/fixtures/apiserver/snapshot-gpu-cluster.yaml"))
                .unwrap_or_default(),
        ]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..2048),
            (
                proptest::sample::select(seeds),
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                proptest::collection::vec(any::<u8>(), 0..16),
            )
                .prop_map(|(seed, cut, at, junk)| {
                    let cut = cut.index(seed.len() + 1);
                    let mut v = seed[..cut].to_vec();
                    let at = at.index(v.len() + 1);
                    v.splice(at..at, junk);
                    v
                }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

        /// Every program's input path, end to end through the built binary: no panic, no hang,
        /// a documented exit code.
        #[test]
        fn arbitrary_bytes_through_every_program(bytes in mutated()) {
            let p = write(&format!("arb-{}.bin", std::process::id()), &bytes);
            let p = p.display().to_string();
            let deadline = Duration::from_secs(120);
            for (name, args) in [
                ("cluster_diagnose", vec!["--snapshot", p.as_str(), "--output", "json"]),
                ("cluster_diagnose", vec!["--snapshot", p.as_str(), "--output", "sarif"]),
                ("cluster_diagnose", vec!["--kubeconfig", p.as_str(), "--output", "json", "--request-timeout-secs", "2"]),
                ("cluster_diagnose", vec!["--snapshot", SAMPLE, "--groups", p.as_str(), "--config", p.as_str()]),
                ("group_plan", vec![p.as_str(), "--snapshot", p.as_str()]),
                ("group_plan", vec![p.as_str(), "--output", "json"]),
                ("group_plan", vec![GROUPS, "--snapshot", p.as_str(), "--output", "json"]),
                ("pod_admit", vec!["--snapshot", SAMPLE, "--pod", p.as_str()]),
                ("pod_admit", vec!["--snapshot", SAMPLE, "--pod", p.as_str(), "--output", "json"]),
                ("pod_admit", vec!["--snapshot", p.as_str(), "--pod", p.as_str(), "--output", "json"]),
                ("cluster_import", vec!["--kubeconfig", p.as_str(), "--offline"]),
                ("cluster_import", vec!["--kubeconfig", p.as_str(), "--offline", "--output", "json"]),
                ("cluster_fleet", vec!["--registry", p.as_str(), "--timeout", "2", "--output", "json"]),
            ] {
                let o = run_with(name, &args, &[], deadline);
                let c = code(&o);
                // a machine output is one well-formed JSON document whenever one is printed
                // (always for an answer, 0 / 1 / 3; a usage error may print none)
                if args.contains(&"json") || args.contains(&"sarif") {
                    let out = String::from_utf8_lossy(&o.stdout);
                    if c != 2 || !out.trim().is_empty() {
                        let parsed = serde_json::from_str::<serde_json::Value>(&out);
                        prop_assert!(
                            parsed.is_ok(),
                            "{} {:?} exit {}: not JSON: {:?}\n{}",
                            name, args, c, parsed.err(), out
                        );
                    }
                }
            }
            // stdin too
            let mut child = Command::new(bin("cluster_diagnose"))
                .args(["--snapshot", "-"])
                .current_dir(root())
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn");
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(&bytes);
            }
            let o = child.wait_with_output().expect("wait");
            code(&o);
        }
    }
}

/// An uploaded kubeconfig whose `tokenFile` names a file outside its own directory made
/// `cluster_import` send that file (a salted `/etc/shadow` line here) to the kubeconfig's
/// server as a bearer token (fresh-user G25). The reference is refused, named, and nothing of
/// the file is printed; `--allow-file-refs` restores client-go's behaviour. `--inline` stored
/// the whole file, every other context's credentials included (G24): only the selected
/// context, its cluster and its user reach the registry now.
#[test]
fn an_imported_kubeconfig_reads_no_file_outside_its_directory_and_inlines_one_context() {
    let dir = scratch().join("file-refs");
    std::fs::create_dir_all(dir.join("upload")).expect("mkdir");
    let shadow = dir.join("shadow");
    std::fs::write(&shadow, "root:SALTshadowLine91:19000:0:99999:7:::\n").expect("write");
    let kc = dir.join("upload/config");
    std::fs::write(
        &kc,
        KUBECONFIG.replace(
            "token: plain-token-value}",
            &format!("tokenFile: '{}'}}", shadow.display()),
        ),
    )
    .expect("write");
    let kc = kc.display().to_string();
    for output in ["table", "json"] {
        let o = run(
            "cluster_import",
            &["--kubeconfig", &kc, "--offline", "--output", output],
        );
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        // bad input, as in every program that reads a kubeconfig (hostile_edges.rs)
        assert_eq!(code(&o), 2, "{output}: {all}");
        assert!(all.contains("file-reference-refused"), "{output}: {all}");
        assert!(
            all.contains(&shadow.display().to_string()),
            "{output}: {all}"
        );
        assert!(!all.contains("SALTshadow"), "{output}: {all}");
    }
    let o = run(
        "cluster_import",
        &["--kubeconfig", &kc, "--offline", "--allow-file-refs"],
    );
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stdout));

    // --inline: one context of three reaches the registry
    let multi = dir.join("upload/multi.yaml");
    std::fs::write(
        &multi,
        "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- {name: k, cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}}\n- {name: other, cluster: {server: 'https://u:SALTurlpass@127.0.0.1:2'}}\nusers:\n- {name: u, user: {token: SALTmine}}\n- {name: v, user: {username: admin, password: SALTotherpass}}\ncontexts:\n- {name: a, context: {cluster: k, user: u}}\n- {name: b, context: {cluster: other, user: v}}\n",
    )
    .expect("write");
    let registry = dir.join("registry.yaml");
    let _ = std::fs::remove_file(&registry);
    let o = run(
        "cluster_import",
        &[
            "--kubeconfig",
            &multi.display().to_string(),
            "--offline",
            "--registry",
            &registry.display().to_string(),
            "--name",
            "a",
            "--inline",
        ],
    );
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stdout));
    let stored = std::fs::read_to_string(&registry).expect("registry written");
    assert!(stored.contains("SALTmine"), "{stored}");
    assert!(
        !stored.contains("SALTotherpass") && !stored.contains("SALTurlpass"),
        "{stored}"
    );
}
