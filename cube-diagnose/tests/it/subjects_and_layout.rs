//! Regression tests: subjects always name something (events tables, nameless describe
//! excerpts), absolute and `./` paths are shown once and normalised, and multi-line remedies keep
//! the table layout.

use cube_diagnose::input::normalize_path;
use cube_diagnose::render::to_table;
use cube_diagnose::{Context, Engine, Finding, Inputs, Report, Severity, Subject};

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../testdata/fixtures/{rel}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

fn run(inputs: &Inputs) -> Report {
    let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
    Engine::new()
        .run(&ctx)
        .with_input_problems(inputs.input_problems())
}

#[test]
fn absolute_log_paths_have_no_double_slash() {
    assert_eq!(Subject::log("/tmp/x").display_name(), "Log:/tmp/x");
    assert_eq!(Subject::log("join.log").display_name(), "Log/join.log");
    let mut i = Inputs::new();
    i.add(
        "/tmp/bad/join.log",
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"",
    );
    let r = run(&i);
    let table = to_table(&r, false);
    assert!(table.contains("Log:/tmp/bad/join.log"), "{table}");
    assert!(!table.contains("//tmp"), "{table}");
}

#[test]
fn paths_are_normalised() {
    assert_eq!(
        normalize_path("kubeconfigs/./stage/admin.pem"),
        "kubeconfigs/stage/admin.pem"
    );
    assert_eq!(normalize_path("/tmp//a/../b"), "/tmp/b");
    assert_eq!(normalize_path("./x.json"), "x.json");
    assert_eq!(normalize_path("../x.json"), "../x.json");
    assert_eq!(normalize_path("-"), "-");
    let mut i = Inputs::new();
    i.add(
        "logs/./join.log",
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"",
    );
    assert_eq!(i.logs[0].source, "logs/join.log");
}

#[test]
fn findings_from_events_tables_name_their_file() {
    let mut i = Inputs::new();
    i.add(
        "events/pvc-pending.txt",
        &fixture("events/pvc-pending-no-storageclass.txt"),
    );
    let r = run(&i);
    assert!(!r.findings.is_empty());
    for f in &r.findings {
        let name = f.subject.display_name();
        assert!(
            !f.subject.kind.is_empty() && !f.subject.name.is_empty(),
            "empty subject: {f:?}"
        );
        assert!(!name.is_empty() && name != "Log/events", "{name}");
    }
    assert!(
        r.findings
            .iter()
            .any(|f| f.subject.name.contains("events/pvc-pending.txt")
                || f.subject.kind == "PersistentVolumeClaim"
                || f.subject.kind == "Pod"),
        "{:#?}",
        r.findings
    );
}

#[test]
fn nameless_describe_node_is_named_after_its_file() {
    let text = fixture("nodes/amd-labelled-no-amd-gpu-capacity.txt");
    let nameless: String = text
        .lines()
        .filter(|l| !l.starts_with("Name:") && !l.contains("node-01"))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut i = Inputs::new();
    i.add("excerpt.txt", &nameless);
    let r = run(&i);
    let table = to_table(&r, false);
    assert!(!table.contains("node  "), "{table}");
    assert!(
        !i.snapshot.nodes.is_empty(),
        "the excerpt still describes a node"
    );
    {
        assert!(
            i.snapshot
                .nodes
                .iter()
                .all(|n| n.metadata.name == "unnamed node (from excerpt.txt)"),
            "{:?}",
            i.snapshot
                .nodes
                .iter()
                .map(|n| &n.metadata.name)
                .collect::<Vec<_>>()
        );
        assert!(
            r.findings
                .iter()
                .any(|f| f.message.contains("unnamed node (from excerpt.txt)")),
            "{table}"
        );
    }
}

#[test]
fn multi_line_remedy_is_printed_at_column_0_to_paste() {
    // Issue 8: an indented heredoc (`      EOF`) leaves the shell waiting when pasted. The prose
    // stays under the finding; the command is printed at column 0, verbatim, between blank
    // lines.
    let remedy =
        "apply this:\ncat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: LimitRange\nEOF";
    let findings = vec![
        Finding::new(
            "quota-without-limitrange",
            Severity::Error,
            Subject::namespaced("ResourceQuota", "ns", "q"),
            "broken",
        )
        .with_remedy(remedy),
    ];
    let r = Report::from_findings(findings);
    let table = to_table(&r, false);
    let lines: Vec<&str> = table.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("remedy: apply this: (command below)"))
        .unwrap_or_else(|| panic!("remedy line: {table}"));
    assert_eq!(lines[at + 1], "", "{table}");
    for (k, want) in [
        "cat <<EOF | kubectl apply -f -",
        "apiVersion: v1",
        "kind: LimitRange",
        "EOF",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(lines[at + 2 + k], *want, "{table}");
    }
    assert_eq!(lines[at + 6], "", "{table}");
}
