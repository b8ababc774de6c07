//! Broken input becomes `LoadProblem`s (with file, document, item, object and field path) while
//! the rest loads; secrets are dropped; no input panics.

use cube_model::{ClusterSnapshot, InputFormat, LoadOutcome, LoadProblem};
use proptest::prelude::*;

fn pod_json(name: &str, cpu: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{name}","namespace":"team-a"}},
        "spec":{{"containers":[{{"name":"main","resources":{{"requests":{{"cpu":"{cpu}"}}}}}}]}}}}"#
    )
}

#[track_caller]
fn check_problem(p: &LoadProblem, document: usize, item: Option<usize>, object: &str, field: &str) {
    assert_eq!(p.document, document, "{p}");
    assert_eq!(p.item, item, "{p}");
    assert_eq!(p.object, object, "{p}");
    assert_eq!(p.field, field, "{p}");
    assert!(!p.message.is_empty());
}

#[test]
fn bad_quantity_in_a_list_names_the_field_and_the_rest_loads() {
    let text = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{},{},{}]}}"#,
        pod_json("a", "100m"),
        pod_json("b", "abc"),
        pod_json("c", "2")
    );
    let s = ClusterSnapshot::from_slice("pods.json", text.as_bytes());
    // The pod with the bad quantity is kept without that one request (as
    // `convert::node_from_k8s` drops only the bad entry); the problem names the field.
    let names: Vec<&str> = s.pods.iter().map(|p| p.metadata.name.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    let b = &s.pods[1].spec.containers[0];
    assert_eq!(b.name, "main");
    assert!(b.resources.requests.get("cpu").is_none());
    assert_eq!(s.problems.len(), 1);
    let p = &s.problems[0];
    assert_eq!(p.file, "pods.json");
    check_problem(
        p,
        0,
        Some(1),
        "Pod/team-a/b",
        "spec.containers[0].resources.requests.cpu",
    );
    assert!(!p.message.contains(" at line "), "{}", p.message);
}

#[test]
fn wrong_type_is_a_problem_with_its_path() {
    let text = r#"{"kind":"PriorityClass","apiVersion":"scheduling.k8s.io/v1","metadata":{"name":"high"},"value":"very"}"#;
    let s = ClusterSnapshot::from_slice("pc.json", text.as_bytes());
    // Kept, without the unreadable `value` (so it reads as 0, the API default).
    assert_eq!(s.priority_classes.len(), 1);
    assert_eq!(s.priority_classes[0].metadata.name, "high");
    check_problem(&s.problems[0], 0, None, "PriorityClass/high", "value");
    assert!(
        s.problems[0].message.contains("field dropped"),
        "{}",
        s.problems[0].message
    );
}

#[test]
fn yaml_documents_fail_alone() {
    let text = "\
apiVersion: v1
kind: Namespace
metadata:
  name: one
---
apiVersion: v1
kind: Pod
metadata:
  name: broken
  namespace: one
spec:
  containers:
  - name: c
    resources:
      limits:
        nvidia.com/gpu: lots
---
apiVersion: v1
kind: Node
metadata: {name: n1
---
apiVersion: v1
kind: Namespace
metadata:
  name: two
";
    let mut s = ClusterSnapshot::new();
    let outcome = s.add_bytes("multi.yaml", text.as_bytes());
    assert_eq!(
        outcome,
        LoadOutcome::Loaded {
            format: InputFormat::Yaml,
            objects: 3,
            skipped: 0,
            problems: 2
        }
    );
    let names: Vec<&str> = s
        .namespaces
        .iter()
        .map(|n| n.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["one", "two"]);
    check_problem(
        &s.problems[0],
        1,
        None,
        "Pod/one/broken",
        "spec.containers[0].resources.limits.nvidia.com/gpu",
    );
    assert_eq!(s.problems[1].document, 2);
    assert!(
        s.problems[1].message.starts_with("invalid YAML"),
        "{}",
        s.problems[1].message
    );
}

#[test]
fn broken_json_is_a_problem_not_a_panic() {
    let s = ClusterSnapshot::from_slice(
        "cut.json",
        br#"{"kind":"List","items":[{"kind":"Pod","metadata":{"na"#,
    );
    assert_eq!(s.problems.len(), 1);
    assert!(
        s.problems[0].message.starts_with("invalid JSON"),
        "{}",
        s.problems[0].message
    );
    // A stream: the first value loads, the broken second one is a problem.
    let s = ClusterSnapshot::from_slice(
        "stream.json",
        br#"{"kind":"Namespace","metadata":{"name":"a"}} {"kind":"Namespace","metadata":"#,
    );
    assert_eq!(s.namespaces.len(), 1);
    assert_eq!(s.problems.len(), 1);
    assert_eq!(s.problems[0].document, 1);
}

#[test]
fn typed_lists_arrays_streams_and_unknown_kinds() {
    // NodeList from the API server: items carry no kind.
    let s = ClusterSnapshot::from_slice(
        "nodes.json",
        br#"{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n1"}},{"metadata":{"name":"n2"}}]}"#,
    );
    assert_eq!(s.nodes.len(), 2);
    assert!(s.problems.is_empty());
    // A JSON array of mixed kinds, with a CRD that reuses a core kind name.
    let s = ClusterSnapshot::from_slice(
        "mixed.json",
        br#"[{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"}},
            {"apiVersion":"example.com/v1","kind":"Node","metadata":{"name":"x"}},
            {"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"ds","namespace":"kube-system"}},
            {"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"pdb"},"spec":{"minAvailable":"50%"}},
            {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"crb"},"roleRef":{"kind":"ClusterRole","name":"r"}}]"#,
    );
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    assert_eq!(s.unknown_kinds.get("Deployment"), None);
    assert_eq!(s.workloads[0].kind, "Deployment");
    assert_eq!(s.unknown_kinds.get("example.com/v1/Node"), Some(&1));
    assert!(s.nodes.is_empty());
    assert_eq!(s.daemon_sets.len(), 1);
    assert_eq!(s.pod_disruption_budgets.len(), 1);
    assert_eq!(s.role_bindings[0].kind, "ClusterRoleBinding");
    // An empty List is a snapshot with nothing in it.
    let mut s = ClusterSnapshot::new();
    let outcome = s.add_bytes(
        "empty.json",
        br#"{"apiVersion":"v1","items":[],"kind":"List"}"#,
    );
    assert!(
        matches!(
            outcome,
            LoadOutcome::Loaded {
                objects: 0,
                problems: 0,
                ..
            }
        ),
        "{outcome:?}"
    );
}

#[test]
fn events_k8s_io_v1_maps_onto_core_events() {
    let s = ClusterSnapshot::from_slice(
        "ev.yaml",
        b"apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: e1, namespace: team-a}
regarding: {kind: Pod, name: p, namespace: team-a}
reason: FailedScheduling
note: '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.'
type: Warning
eventTime: '2026-01-01T00:00:00.000000Z'
reportingController: default-scheduler
reportingInstance: default-scheduler-node-1
series: {count: 4, lastObservedTime: '2026-01-01T00:05:00.000000Z'}
",
    );
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    let e = &s.events[0];
    assert_eq!(e.involved_object.name, "p");
    assert_eq!(
        e.message,
        "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    );
    assert_eq!(e.count, Some(4));
    assert_eq!(e.source.component, "default-scheduler");
    assert_eq!(
        e.last_timestamp.map(|t| t.to_string()).as_deref(),
        Some("2026-01-01T00:05:00Z")
    );
}

#[test]
fn bootstrap_tokens_keep_only_the_public_part() {
    // token-id "abcdef", token-secret "0123456789abcdef", usages, expiration, groups.
    let text = r#"{"apiVersion":"v1","kind":"List","items":[
      {"apiVersion":"v1","kind":"Secret","type":"bootstrap.kubernetes.io/token",
       "metadata":{"name":"bootstrap-token-abcdef","namespace":"kube-system"},
       "data":{"token-id":"YWJjZGVm","token-secret":"MDEyMzQ1Njc4OWFiY2RlZg==",
               "usage-bootstrap-authentication":"dHJ1ZQ==","usage-bootstrap-signing":"dHJ1ZQ==",
               "expiration":"MjAzMC0wMS0wMVQwMDowMDowMFo=",
               "auth-extra-groups":"c3lzdGVtOmJvb3RzdHJhcHBlcnM6a3ViZWFkbTpkZWZhdWx0LW5vZGUtdG9rZW4="}},
      {"apiVersion":"v1","kind":"Secret","type":"Opaque","metadata":{"name":"db-password","namespace":"a"},
       "data":{"password":"aHVudGVyMg=="}},
      {"apiVersion":"v1","kind":"Secret","type":"bootstrap.kubernetes.io/token",
       "metadata":{"name":"bootstrap-token-zzzzzz","namespace":"kube-system"},
       "data":{"token-id":"not base64!","token-secret":"MDEyMzQ1Njc4OWFiY2RlZg=="}},
      {"apiVersion":"v1","kind":"Secret","type":"bootstrap.kubernetes.io/token",
       "metadata":{"name":"bootstrap-token-yyyyyy","namespace":"kube-system"},
       "data":"c2VjcmV0LXRva2VuLXZhbHVl"}]}"#;
    let s = ClusterSnapshot::from_slice("secrets.json", text.as_bytes());
    assert_eq!(s.skipped_secrets, 1);
    assert_eq!(s.bootstrap_tokens.len(), 1);
    let t = &s.bootstrap_tokens[0];
    assert_eq!(t.secret_name, "bootstrap-token-abcdef");
    assert_eq!(t.token_id, "abcdef");
    assert_eq!(t.usages, ["authentication", "signing"]);
    assert_eq!(
        t.expiration.map(|e| e.to_string()).as_deref(),
        Some("2030-01-01T00:00:00Z")
    );
    assert_eq!(
        t.auth_extra_groups,
        "system:bootstrappers:kubeadm:default-node-token"
    );
    check_problem(
        &s.problems[0],
        0,
        Some(2),
        "Secret/kube-system/bootstrap-token-zzzzzz",
        "data.token-id",
    );
    let everything = format!("{s:?} {}", serde_json::to_string(&s).unwrap());
    for secret in [
        "0123456789abcdef",
        "MDEyMzQ1Njc4OWFiY2RlZg",
        "hunter2",
        "aHVudGVyMg",
        "db-password",
    ] {
        assert!(!everything.contains(secret), "{secret} leaked");
    }
}

#[test]
fn last_applied_configuration_is_not_kept() {
    let s = ClusterSnapshot::from_slice(
        "ns.json",
        br#"{"kind":"Namespace","metadata":{"name":"a","labels":null,"annotations":{
            "kubectl.kubernetes.io/last-applied-configuration":"{\"big\":true}","owner":"team-a"}}}"#,
    );
    let a = &s.namespaces[0].metadata.annotations;
    assert_eq!(a.len(), 1);
    assert_eq!(a.get("owner"), Some("team-a"));
    assert!(s.namespaces[0].metadata.labels.is_empty());
}

#[test]
fn yaml_label_values_written_without_quotes_read_as_text() {
    let s = ClusterSnapshot::from_slice(
        "n.yaml",
        b"apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    gpu: true\n    count: 8\n    hami: on\n",
    );
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    let labels = &s.nodes[0].metadata.labels;
    assert_eq!(labels.get("gpu"), Some("true"));
    assert_eq!(labels.get("count"), Some("8"));
    // YAML 1.1 booleans (`n`, `on`) stay text, as kubectl reads them into string fields.
    assert_eq!(labels.get("hami"), Some("on"));
    assert_eq!(s.nodes[0].metadata.name, "n");
}

/// Mutations of a real snapshot: truncated or with bytes replaced.
fn sample() -> &'static [u8] {
    include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/fixtures/nodes/timeslicing-config-not-applied.yaml"
    ))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut s = ClusterSnapshot::new();
        let _ = s.add_bytes("fuzz", &bytes);
        let _ = cube_model::detect_format(&bytes);
    }

    #[test]
    fn arbitrary_strings_never_panic(text in "\\PC{0,300}") {
        let mut s = ClusterSnapshot::new();
        let _ = s.add_bytes("fuzz", text.as_bytes());
    }

    #[test]
    fn kubectl_shaped_text_never_panics(
        lines in proptest::collection::vec(
            prop_oneof![
                Just("Name:  n".to_owned()),
                Just("Capacity:".to_owned()),
                Just("Containers:".to_owned()),
                Just("Events:".to_owned()),
                Just("  Type  Reason  Age  From  Message".to_owned()),
                Just("NAME  STATUS  ROLES  AGE  VERSION".to_owned()),
                Just("LAST SEEN  TYPE  REASON  OBJECT  MESSAGE".to_owned()),
                Just("apiVersion: v1".to_owned()),
                Just("kind: List".to_owned()),
                Just("---".to_owned()),
                "[ a-zA-Z0-9:/=<>().,\\-\u{4e00}]{0,40}",
                "  [ a-zA-Z0-9:/=<>()\u{e9}]{0,40}",
            ],
            0..30,
        )
    ) {
        let text = lines.join("\n");
        let mut s = ClusterSnapshot::new();
        let _ = s.add_bytes("fuzz", text.as_bytes());
    }

    #[test]
    fn truncated_and_mutated_snapshots_never_panic(
        cut in 0usize..2000,
        flips in proptest::collection::vec((0usize..2000, any::<u8>()), 0..8),
    ) {
        let mut bytes = sample().to_vec();
        bytes.truncate(cut.min(bytes.len()));
        for (at, b) in flips {
            if let Some(slot) = bytes.get_mut(at) {
                *slot = b;
            }
        }
        let mut s = ClusterSnapshot::new();
        let _ = s.add_bytes("fuzz.yaml", &bytes);
        let json = serde_json::to_vec(&serde_json::json!({"kind":"List","items":[
            {"kind":"Node","metadata":{"name":"n"},"status":{"capacity":{"cpu":"4"}}}]})).unwrap();
        let mut json = json;
        json.truncate(cut.min(json.len()));
        let _ = s.add_bytes("fuzz.json", &json);
    }
}
