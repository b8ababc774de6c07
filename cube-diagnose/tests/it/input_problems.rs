//! Regression tests for inputs that cannot be used, or only partly: they are reported (JSON
//! `inputProblems`, SARIF `invocations[0].toolExecutionNotifications`, table "INPUT PROBLEMS"),
//! an input that yielded nothing makes the exit code 2 while the other inputs are still
//! diagnosed, and broken JSON/YAML is never read as a log.

use cube_diagnose::render::{to_json, to_sarif, to_table};
use cube_diagnose::{Context, Engine, Inputs, Report};
use serde_json::Value;

const GPU: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/fixtures/apiserver/snapshot-gpu-cluster.json"
);
const GPU_YAML: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/fixtures/apiserver/snapshot-gpu-cluster.yaml"
);

fn read(path: &str) -> String {
    std::fs::read_to_string(path).expect("fixture")
}

fn run(inputs: &Inputs) -> Report {
    let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
    Engine::new()
        .run(&ctx)
        .with_input_problems(inputs.input_problems())
}

/// No finding may come from a log text with this source (the input was not a log).
#[track_caller]
fn not_read_as_log(inputs: &Inputs, report: &Report, source: &str) {
    assert!(
        !inputs.logs.iter().any(|l| l.source.starts_with(source)),
        "{source} was handed to the log classifiers"
    );
    for f in &report.findings {
        assert!(
            !(f.subject.kind == "Log" && f.subject.name.starts_with(source)),
            "finding from {source} read as a log: {f:?}"
        );
    }
}

#[track_caller]
fn fatal_for(report: &Report, source: &str) {
    assert!(
        report
            .input_problems
            .iter()
            .any(|p| p.fatal && p.source == source),
        "no fatal problem for {source}: {:#?}",
        report.input_problems
    );
    assert_eq!(report.exit_code(), 2);
}

#[test]
fn empty_input_is_fatal_and_not_a_log() {
    let mut i = Inputs::new();
    i.add("/tmp/bad/empty.json", "");
    i.add("blank.txt", " \n\n\t\n");
    let r = run(&i);
    fatal_for(&r, "/tmp/bad/empty.json");
    fatal_for(&r, "blank.txt");
    not_read_as_log(&i, &r, "/tmp/bad/empty.json");
    assert!(i.logs.is_empty());
}

#[test]
fn random_bytes_are_fatal_and_not_a_log() {
    // 4 KiB of deterministic pseudo-random bytes (xorshift)
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    let mut i = Inputs::new();
    assert_eq!(i.add_bytes("/tmp/bad/random.bin", &bytes), None);
    let r = run(&i);
    fatal_for(&r, "/tmp/bad/random.bin");
    assert!(i.logs.is_empty());
    assert_eq!(r.summary.score, 100, "no findings from garbage");
}

#[test]
fn yaml_with_tabs_is_fatal_and_not_a_log() {
    let text = "apiVersion: v1\nkind: Node\nmetadata:\n\tname: gpu-1\n";
    let mut i = Inputs::new();
    i.add("tabs.yaml", text);
    let r = run(&i);
    fatal_for(&r, "tabs.yaml");
    not_read_as_log(&i, &r, "tabs.yaml");
    assert_eq!(i.snapshot.object_count(), 0);
}

#[test]
fn node_with_bad_cpu_is_listed_and_fatal_only_if_nothing_loaded() {
    let text = r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"status":{"capacity":{"cpu":"abc"},"allocatable":{"cpu":"abc"}}}"#;
    let mut i = Inputs::new();
    i.add("bad-cpu.json", text);
    let r = run(&i);
    assert!(
        r.input_problems.iter().any(|p| p.source == "bad-cpu.json"
            && (p.to_string().contains("abc") || p.to_string().contains("cpu"))),
        "{:#?}",
        r.input_problems
    );
    not_read_as_log(&i, &r, "bad-cpu.json");
    if i.snapshot.object_count() == 0 {
        fatal_for(&r, "bad-cpu.json");
    } else {
        // field-level salvage kept the node, but its cpu was dropped: not fatal, and the
        // picture is incomplete (exit 3), never an all-clear (issue 9; fresh-user report F16)
        assert_eq!(r.exit_code(), 3);
        assert!(r.input_problems.iter().all(|p| !p.fatal));
    }
}

#[test]
fn truncated_snapshot_is_never_scanned_as_a_log() {
    let full = read(GPU);
    let cut = full.len() / 2;
    let cut = (cut..full.len())
        .find(|c| full.is_char_boundary(*c))
        .expect("boundary");
    let mut i = Inputs::new();
    i.add("/tmp/bad/trunc.json", &full[..cut]);
    let r = run(&i);
    not_read_as_log(&i, &r, "/tmp/bad/trunc.json");
    assert!(
        r.input_problems
            .iter()
            .any(|p| p.source == "/tmp/bad/trunc.json"),
        "{:#?}",
        r.input_problems
    );
    for f in &r.findings {
        for e in &f.evidence {
            assert!(!e.to_string().contains("\"message\":"), "{e}");
        }
    }
    if i.snapshot.object_count() == 0 {
        fatal_for(&r, "/tmp/bad/trunc.json");
    } else {
        // salvaged objects are diagnosed, but the cut-off rest is skipped: the picture is
        // incomplete (issue 9: what could not be read never reads as absent), exit 3
        assert_eq!(r.exit_code(), 3, "salvaged objects, the rest skipped");
        assert!(
            r.findings
                .iter()
                .any(|f| f.rule_id == "snapshot-incomplete"),
            "{:#?}",
            r.findings
        );
    }
}

#[test]
fn unusable_input_still_diagnoses_the_others() {
    let mut i = Inputs::new();
    i.add("snapshot-gpu-cluster.json", &read(GPU));
    i.add("empty.json", "");
    let r = run(&i);
    assert_eq!(r.exit_code(), 2);
    assert!(r.summary.errors > 0, "the good input is still diagnosed");
}

#[test]
fn partly_broken_input_keeps_exit_code_by_findings() {
    let text = r#"{"kind":"List","apiVersion":"v1","items":[{"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}},{"kind":"Node","apiVersion":"v1","metadata":{"name":"b"},"status":{"capacity":{"cpu":"lots"}}}]}"#;
    let mut i = Inputs::new();
    i.add("part.json", text);
    let r = run(&i);
    assert!(i.snapshot.nodes.iter().any(|n| n.metadata.name == "a"));
    assert!(!r.input_problems.is_empty());
    assert!(
        r.input_problems.iter().all(|p| !p.fatal),
        "{:#?}",
        r.input_problems
    );
    // node b's capacity was dropped: the rest is diagnosed and the picture is incomplete
    // (exit 3 over 0/1: what could not be read never reads as healthy; fresh-user report F16)
    assert!(r.incomplete);
    assert_eq!(r.exit_code(), 3);
}

#[test]
fn unrecognised_text_is_listed_but_not_fatal_and_known_logs_are_not_listed() {
    let mut i = Inputs::new();
    i.add("notes.txt", "hello world, nothing to see here\n");
    i.add(
        "join.log",
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"",
    );
    let r = run(&i);
    let p: Vec<_> = r.input_problems.iter().map(|p| p.source.as_str()).collect();
    assert_eq!(p, ["notes.txt"]);
    assert!(!r.input_problems[0].fatal);
    // an input nothing recognised makes the picture incomplete (3 wins over 1), never all clear
    assert_eq!(r.exit_code(), 3, "notes.txt was not read");
    assert!(r.incomplete);
    assert!(r.by_rule("join-token-invalid").count() == 1);
    let unread: Vec<_> = r.by_rule("snapshot-incomplete").collect();
    assert_eq!(unread.len(), 1);
    assert_eq!(unread[0].subject.name, "notes.txt");
    assert_eq!(unread[0].severity, cube_diagnose::Severity::Warning);
}

#[test]
fn unrecognised_input_alone_is_never_an_all_clear_but_known_unused_shapes_are_read() {
    let mut i = Inputs::new();
    i.add(
        "garbage.txt",
        "lorem ipsum dolor sit amet\nconsectetur adipiscing\n",
    );
    let r = run(&i);
    assert_eq!(r.exit_code(), 3);
    assert!(r.summary.score < 100, "{:?}", r.summary);
    // `kubectl top nodes` is known: recognised, read by no analysis, no incomplete picture
    let mut i = Inputs::new();
    i.add(
        "top.txt",
        "$ kubectl top nodes\nNAME      CPU(cores)   CPU%   MEMORY(bytes)   MEMORY%\nnode-01   74m          3%     2666Mi          65%\n",
    );
    let r = run(&i);
    assert_eq!(r.exit_code(), 0, "{:#?}", r.input_problems);
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
    assert!(r.input_problems[0].message.contains("kubectl top"));
}

#[test]
fn unrecognised_error_lines_by_their_own_marking_make_the_picture_incomplete() {
    // a kubelet fatal line and systemd's unit failure that no catalog message matches
    let text = "Jun 24 13:16:48 node-01 kubelet[13626]: F0624 13:16:48.816177   13626 server.go:233] failed to run Kubelet: something nobody has seen\nJun 24 13:16:48 node-01 systemd[1]: kubelet.service failed.\n";
    let mut i = Inputs::new();
    i.add("kubelet.journal", text);
    let r = run(&i);
    let w: Vec<_> = r
        .by_rule("log-line-unrecognised")
        .filter(|f| f.severity == cube_diagnose::Severity::Warning)
        .collect();
    assert_eq!(w.len(), 1, "{:#?}", r.findings);
    assert!(w[0].message.contains("2 line(s)"), "{}", w[0].message);
    assert_eq!(r.exit_code(), 3);
    // merely suspicious words stay an info and do not change the exit code
    let mut i = Inputs::new();
    i.add(
        "join.log",
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"\nI0101 12:00:00.000000 1 x.go:1] retrying after a failed attempt\n",
    );
    let r = run(&i);
    assert!(
        r.by_rule("log-line-unrecognised")
            .all(|f| f.severity == cube_diagnose::Severity::Info)
    );
    assert_eq!(r.exit_code(), 1);
}

#[test]
fn problems_reach_json_sarif_and_table() {
    let mut i = Inputs::new();
    i.add(
        "join.log",
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"",
    );
    i.add("/tmp/bad/empty.json", "");
    let r = run(&i);
    let doc: Value = serde_json::from_str(&to_json(&r).expect("json")).expect("json");
    assert_eq!(doc["exitCode"], 2);
    let p = &doc["inputProblems"][0];
    assert_eq!(p["source"], "/tmp/bad/empty.json");
    assert_eq!(p["fatal"], true);
    assert_eq!(p["message"], "empty input");

    let sarif: Value = serde_json::from_str(&to_sarif(&r).expect("sarif")).expect("sarif");
    let inv = &sarif["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let n = &inv["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "error");
    assert!(
        n["message"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("empty input")
    );
    // an absolute path outside the base directory is written as a file:// URI (SARIF
    // artifactLocation.uri is a URI; relative paths stay relative for code scanning)
    assert_eq!(
        n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "file:///tmp/bad/empty.json"
    );

    let table = to_table(&r, false);
    assert!(table.starts_with("INPUT PROBLEMS (1)"), "{table}");
    assert!(
        table.contains("unusable: /tmp/bad/empty.json: empty input"),
        "{table}"
    );
}

#[test]
fn clean_run_has_a_successful_invocation() {
    let mut i = Inputs::new();
    i.add(
        "join.log",
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"",
    );
    let r = run(&i);
    let sarif: Value = serde_json::from_str(&to_sarif(&r).expect("sarif")).expect("sarif");
    let inv = &sarif["runs"][0]["invocations"][0];
    assert_eq!(inv["executionSuccessful"], true);
    assert_eq!(
        inv["toolExecutionNotifications"].as_array().map(Vec::len),
        Some(0)
    );
    assert!(!to_table(&r, false).contains("INPUT PROBLEMS"));
}

#[test]
fn same_content_twice_is_read_once() {
    let log =
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"\n";
    let events = "LAST SEEN   TYPE      REASON             OBJECT              MESSAGE\n5m          Warning   FailedScheduling   pod/train-1         0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n";
    let mut once = Inputs::new();
    once.add("join.log", log);
    once.add("events.txt", events);
    let mut twice = Inputs::new();
    twice.add("join.log", log);
    twice.add("copy/join.log", log);
    twice.add("events.txt", events);
    twice.add("events-again.txt", events);
    assert_eq!(twice.logs.len(), once.logs.len());
    assert_eq!(twice.snapshot.events.len(), once.snapshot.events.len());
    let (a, b) = (run(&once), run(&twice));
    assert_eq!(a.findings, b.findings);
    assert!(
        b.input_problems
            .iter()
            .any(|p| !p.fatal && p.message.contains("same content as join.log"))
    );
    assert!(b.exit_code() < 2);
}

#[test]
fn same_cluster_as_json_and_yaml_does_not_double_logs() {
    let mut i = Inputs::new();
    i.add("snapshot-gpu-cluster.json", &read(GPU));
    let logs_once = i.logs.len();
    let mut j = i.clone();
    j.add("snapshot-gpu-cluster.yaml", &read(GPU_YAML));
    // the diagnose side adds no log text for a snapshot (object dedupe is the loader's job)
    assert_eq!(j.logs.len(), logs_once);
    let (a, b) = (run(&i), run(&j));
    let logs = |r: &Report| {
        r.findings
            .iter()
            .filter(|f| f.subject.kind == "Log")
            .count()
    };
    assert_eq!(logs(&a), logs(&b));
}
