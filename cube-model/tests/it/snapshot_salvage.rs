//! Regression tests for the loader's salvage rules: one bad field drops only that field, a cut
//! JSON List keeps its complete items, the same cluster loaded twice is not doubled, and empty
//! or broken input says so.

use std::path::Path;

use cube_model::{ClusterSnapshot, DuplicateNote, InputFormat, LoadOutcome};

const APISERVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/fixtures/apiserver"
);

fn node_json(name: &str, cpu: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"{name}"}},
        "status":{{"allocatable":{{"cpu":"{cpu}","memory":"8Gi","nvidia.com/gpu":"2"}},
        "capacity":{{"cpu":"8","memory":"8Gi"}}}}}}"#
    )
}

fn pod_json(name: &str, node: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{name}","namespace":"team-a"}},
        "spec":{{"nodeName":"{node}","containers":[{{"name":"main",
        "resources":{{"requests":{{"cpu":"1"}}}}}}]}}}}"#
    )
}

fn list(items: &[String]) -> String {
    format!(
        r#"{{"apiVersion":"v1","items":[{}],"kind":"List","metadata":{{"resourceVersion":""}}}}"#,
        items.join(",")
    )
}

// ---------------------------------------------------------------- 2: one bad field

#[test]
fn bad_allocatable_entry_keeps_the_node_and_drops_only_that_key() {
    let text = list(&[
        node_json("gpu-1", "abc"),
        node_json("gpu-2", "8"),
        pod_json("p1", "gpu-1"),
    ]);
    let s = ClusterSnapshot::from_slice("nodes.json", text.as_bytes());
    let names: Vec<&str> = s.nodes.iter().map(|n| n.metadata.name.as_str()).collect();
    assert_eq!(names, ["gpu-1", "gpu-2"]);
    assert_eq!(s.pods.len(), 1);
    let alloc = &s.nodes[0].status.allocatable;
    assert!(alloc.get("cpu").is_none(), "the bad entry is dropped");
    assert_eq!(alloc.get("memory").map(|q| q.value()), Some(8 << 30));
    assert_eq!(alloc.get("nvidia.com/gpu").map(|q| q.value()), Some(2));
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    let p = &s.problems[0];
    assert_eq!(p.object, "Node/gpu-1");
    assert_eq!(p.field, "status.allocatable.cpu");
    assert_eq!(p.item, Some(0));
    assert!(p.message.contains("field dropped"), "{}", p.message);
    assert!(
        p.message.contains("a string of 3 characters"),
        "{}",
        p.message
    );
}

#[test]
fn yaml_node_with_bad_field_is_kept_too() {
    let text = "\
apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    cpu: abc
    memory: 1Gi
  capacity:
    cpu: 4
";
    let s = ClusterSnapshot::from_slice("node.yaml", text.as_bytes());
    assert_eq!(s.nodes.len(), 1);
    let alloc = &s.nodes[0].status.allocatable;
    assert!(alloc.get("cpu").is_none());
    assert_eq!(alloc.get("memory").map(|q| q.value()), Some(1 << 30));
    assert_eq!(s.problems.len(), 1);
    assert_eq!(s.problems[0].field, "status.allocatable.cpu");
}

#[test]
fn several_bad_fields_each_become_a_problem() {
    let text = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns"},
      "spec":{"priority":"high","containers":[{"name":"c","resources":{
        "requests":{"cpu":"x","memory":"1Gi"},"limits":{"memory":"y"}}}]}}"#;
    let s = ClusterSnapshot::from_slice("pod.json", text.as_bytes());
    assert_eq!(s.pods.len(), 1);
    let mut fields: Vec<&str> = s.problems.iter().map(|p| p.field.as_str()).collect();
    fields.sort_unstable();
    assert_eq!(
        fields,
        [
            "spec.containers[0].resources.limits.memory",
            "spec.containers[0].resources.requests.cpu",
            "spec.priority",
        ]
    );
    let r = &s.pods[0].spec.containers[0].resources;
    assert_eq!(r.requests.get("memory").map(|q| q.value()), Some(1 << 30));
}

#[test]
fn broken_secret_is_still_withheld_and_not_salvaged() {
    let text = r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"bootstrap-token-abcdef","namespace":"kube-system"},
      "type":"bootstrap.kubernetes.io/token","data":{"token-id":12345}}"#;
    let s = ClusterSnapshot::from_slice("secret.json", text.as_bytes());
    assert!(s.bootstrap_tokens.is_empty());
    assert_eq!(s.problems.len(), 1);
    let p = &s.problems[0];
    assert!(p.message.contains("withheld"), "{}", p.message);
    assert!(!p.message.contains("12345"), "{}", p.message);
}

// ---------------------------------------------------------------- 3: truncated input

#[test]
fn truncated_json_list_keeps_the_complete_items() {
    let items: Vec<String> = (0..5).map(|i| pod_json(&format!("p{i}"), "n1")).collect();
    let full = list(&items);
    // Cut in the middle of the fourth item (index 3).
    let cut_at = full.find(r#""name":"p3""#).expect("p3") + 5;
    let cut = &full.as_bytes()[..cut_at];
    let mut s = ClusterSnapshot::new();
    let outcome = s.add_bytes("cut.json", cut);
    let names: Vec<&str> = s.pods.iter().map(|p| p.metadata.name.as_str()).collect();
    assert_eq!(names, ["p0", "p1", "p2"]);
    assert!(
        matches!(
            outcome,
            LoadOutcome::Loaded {
                format: InputFormat::Json,
                objects: 3,
                problems: 1,
                ..
            }
        ),
        "{outcome:?}"
    );
    let p = &s.problems[0];
    assert_eq!(p.item, Some(3));
    assert!(p.message.starts_with("invalid JSON"), "{}", p.message);
    assert!(
        p.message.contains(&format!("truncated at byte {cut_at}")),
        "{}",
        p.message
    );
    assert!(p.message.contains(" line 7 column "), "{}", p.message);
    assert!(p.message.contains("3 complete items"), "{}", p.message);
}

#[test]
fn truncated_json_array_and_typed_list_keep_their_items() {
    let items = [
        node_json("a", "1"),
        node_json("b", "2"),
        node_json("c", "3"),
    ];
    let full = format!("[{}]", items.join(","));
    let cut = &full.as_bytes()[..full.len() - 20];
    let s = ClusterSnapshot::from_slice("cut.json", cut);
    assert_eq!(s.nodes.len(), 2);
    assert_eq!(s.problems.len(), 1);
    assert_eq!(s.problems[0].item, Some(2));

    // A NodeList from the API server: `kind` first, items without `kind`.
    let full = r#"{"apiVersion":"v1","kind":"NodeList","metadata":{},"items":[
      {"metadata":{"name":"a"}},{"metadata":{"name":"b"}},{"metadata":{"na"#;
    let s = ClusterSnapshot::from_slice("nodes.json", full.as_bytes());
    let names: Vec<&str> = s.nodes.iter().map(|n| n.metadata.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(s.problems.len(), 1);
}

#[test]
fn truncated_real_dump_keeps_its_complete_items() {
    let bytes = std::fs::read(Path::new(APISERVER).join("snapshot-gpu-cluster.json")).unwrap();
    let whole = ClusterSnapshot::from_slice("whole.json", &bytes);
    let total = whole.object_count() + whole.unknown_kinds.values().sum::<usize>();
    assert!(total > 4);
    let cut = &bytes[..bytes.len() * 2 / 3];
    let s = ClusterSnapshot::from_slice("cut.json", cut);
    let kept = s.object_count() + s.unknown_kinds.values().sum::<usize>();
    assert!(kept > 0 && kept < total, "kept {kept} of {total}");
    assert_eq!(s.problems.len(), 1, "{:?}", s.problems);
    assert_eq!(s.problems[0].item, Some(kept));
}

#[test]
fn truncated_multi_document_yaml_keeps_the_documents_before_the_cut() {
    let text = "\
apiVersion: v1
kind: Namespace
metadata:
  name: one
---
apiVersion: v1
kind: Namespace
metadata:
  name: two
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {a: \"b";
    let s = ClusterSnapshot::from_slice("cut.yaml", text.as_bytes());
    assert_eq!(s.namespaces.len(), 2);
    assert_eq!(s.problems.len(), 1);
    assert_eq!(s.problems[0].document, 2);
}

// ---------------------------------------------------------------- 4: duplicates

#[test]
fn the_same_cluster_as_json_and_yaml_is_not_doubled() {
    let json =
        ClusterSnapshot::load_files([Path::new(APISERVER).join("snapshot-gpu-cluster.json")]);
    let yaml =
        ClusterSnapshot::load_files([Path::new(APISERVER).join("snapshot-gpu-cluster.yaml")]);
    assert!(!json.nodes.is_empty() && !json.pods.is_empty());
    let both = ClusterSnapshot::load_files([
        Path::new(APISERVER).join("snapshot-gpu-cluster.json"),
        Path::new(APISERVER).join("snapshot-gpu-cluster.yaml"),
    ]);
    assert_eq!(both.nodes.len(), json.nodes.len());
    assert_eq!(both.pods.len(), json.pods.len());
    assert_eq!(both.object_count(), json.object_count());
    assert!(both.problems.is_empty(), "{:?}", both.problems);
    // The later input (the YAML dump) wins.
    assert_eq!(both.nodes, yaml.nodes);
    // One note per input and kind, never per object, all for the second input.
    let pods = both
        .duplicates
        .iter()
        .find(|d| d.kind == "Pod")
        .expect("pod note");
    assert_eq!(pods.count, json.pods.len());
    assert!(pods.source.ends_with("snapshot-gpu-cluster.yaml"));
    assert!(
        both.duplicates
            .iter()
            .all(|d| d.source.ends_with(".yaml") && d.count > 0)
    );
    let kinds: std::collections::BTreeSet<&str> =
        both.duplicates.iter().map(|d| d.kind.as_str()).collect();
    assert_eq!(kinds.len(), both.duplicates.len());
    assert!(json.duplicates.is_empty());
}

/// The same object (same uid) loaded again: the later input wins, in place. (Before issue 9 the
/// objects had no uid at all; two uid-less objects with different content are now kept apart,
/// see `snapshot_hostile::two_clusters_without_uids_are_kept_apart_and_flagged`.)
#[test]
fn later_input_replaces_the_earlier_object_in_place() {
    let with_uid = |j: String, uid: &str| {
        j.replace(
            r#""metadata":{"#,
            &format!(r#""metadata":{{"uid":"{uid}","#),
        )
    };
    let mut s = ClusterSnapshot::new();
    s.add_bytes(
        "old.json",
        list(&[
            with_uid(node_json("a", "1"), "ua"),
            with_uid(node_json("b", "2"), "ub"),
        ])
        .as_bytes(),
    );
    s.add_bytes(
        "new.json",
        list(&[
            with_uid(node_json("b", "7"), "ub"),
            with_uid(node_json("c", "3"), "uc"),
        ])
        .as_bytes(),
    );
    let got: Vec<(&str, i64)> = s
        .nodes
        .iter()
        .map(|n| {
            let cpu = n.status.allocatable.get("cpu").map_or(0, |q| q.value());
            (n.metadata.name.as_str(), cpu)
        })
        .collect();
    assert_eq!(got, [("a", 1), ("b", 7), ("c", 3)]);
    let dups: Vec<(&str, &str, usize)> = s
        .duplicates
        .iter()
        .map(|d: &DuplicateNote| (d.source.as_str(), d.kind.as_str(), d.count))
        .collect();
    assert_eq!(dups, [("new.json", "Node", 1)]);
    assert!(s.duplicates[0].to_string().contains("new.json"));
}

#[test]
fn uid_is_the_key_when_present_and_objects_of_one_input_are_not_merged() {
    let ns = |name: &str, uid: &str| {
        format!(
            r#"{{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"{name}","uid":"{uid}"}}}}"#
        )
    };
    let mut s = ClusterSnapshot::new();
    s.add_bytes("a.json", list(&[ns("x", "u1"), ns("x", "u1")]).as_bytes());
    assert_eq!(
        s.namespaces.len(),
        2,
        "one input is never merged with itself"
    );
    // Same name, other uid: a different (recreated) object.
    s.add_bytes("b.json", ns("x", "u2").as_bytes());
    assert_eq!(s.namespaces.len(), 3);
    s.add_bytes("c.json", ns("x", "u2").as_bytes());
    assert_eq!(s.namespaces.len(), 3);
    assert_eq!(s.duplicates.len(), 1);
    assert_eq!(s.duplicates[0].source, "c.json");
}

// ---------------------------------------------------------------- 5: empty / broken input

#[test]
fn empty_input_is_reported_as_empty() {
    for bytes in [&b""[..], b"   \n\t\n", b"\xEF\xBB\xBF\n"] {
        let mut s = ClusterSnapshot::new();
        assert_eq!(s.add_bytes("empty.json", bytes), LoadOutcome::Empty);
        assert!(s.is_empty());
        assert_eq!(s.problems.len(), 1);
        assert_eq!(s.problems[0].message, "input is empty");
        assert!(s.not_snapshot.is_empty());
    }
}

#[test]
fn broken_json_is_a_problem_with_line_and_column_not_text() {
    for (bytes, needle) in [
        (
            &b"{\n  \"kind\": \"Pod\",\n  \"metadata\": {\"name\": }\n}"[..],
            "line 3 column",
        ),
        (b"[{\"kind\":\"Pod\"},\n{\"kind\"", "line 2 column"),
        (
            b"{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [",
            "line 1 column",
        ),
    ] {
        let mut s = ClusterSnapshot::new();
        let outcome = s.add_bytes("broken.json", bytes);
        assert!(
            matches!(
                outcome,
                LoadOutcome::Loaded {
                    format: InputFormat::Json,
                    ..
                }
            ),
            "{outcome:?}"
        );
        assert!(s.not_snapshot.is_empty());
        let p = s.problems.last().expect("a problem");
        assert!(p.message.starts_with("invalid JSON"), "{}", p.message);
        assert!(p.message.contains(needle), "{}", p.message);
    }
}

#[test]
fn random_bytes_load_nothing() {
    // Deterministic pseudo-random bytes (xorshift), like `head -c 4096 /dev/urandom`.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    let mut s = ClusterSnapshot::new();
    let outcome = s.add_bytes("random.bin", &bytes);
    assert!(
        !matches!(outcome, LoadOutcome::Loaded { objects: 1.., .. }),
        "{outcome:?}"
    );
    assert!(s.is_empty());
    assert_eq!(s.object_count(), 0);
}

// ------------------------------------------- 4: two views of one object that disagree

const NOT_READY_JSON: &str = r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Node",
"metadata":{"name":"dup","uid":"uid-A","creationTimestamp":"2026-11-01T00:00:00Z"},
"status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"m"HEARTBEAT}],
"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}]}"#;

const READY_DESCRIBE: &str = "Name:               dup
Roles:              <none>
Labels:             kubernetes.io/hostname=dup
CreationTimestamp:  Sun, 01 Nov 2026 00:00:00 +0000
Taints:             <none>
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  Ready            True    Mon, 30 Nov 2026 12:00:00 +0000   Mon, 30 Nov 2026 12:00:00 +0000   KubeletReady                 kubelet is posting ready status
Capacity:
  cpu:                16
  memory:             64Gi
  pods:               110
Allocatable:
  cpu:                16
  memory:             64Gi
  pods:               110
";

fn ready_of(s: &ClusterSnapshot) -> Vec<String> {
    s.nodes
        .iter()
        .flat_map(|n| n.status.conditions.iter())
        .filter(|c| c.type_ == "Ready")
        .map(|c| c.status.clone())
        .collect()
}

fn both_orders(json: &str) -> [ClusterSnapshot; 2] {
    let mut a = ClusterSnapshot::default();
    a.add_bytes("node.json", json.as_bytes());
    a.add_bytes("node-describe.txt", READY_DESCRIBE.as_bytes());
    let mut b = ClusterSnapshot::default();
    b.add_bytes("node-describe.txt", READY_DESCRIBE.as_bytes());
    b.add_bytes("node.json", json.as_bytes());
    [a, b]
}

/// Red-team case 04: a NotReady node as JSON then `Ready` in a `describe` replaced the broken
/// view (false all-clear); the order of the arguments decided the verdict.
#[test]
fn a_view_that_reports_trouble_is_not_hidden_by_another_without_times() {
    for s in both_orders(&NOT_READY_JSON.replace("HEARTBEAT", "")) {
        assert_eq!(s.nodes.len(), 1);
        assert_eq!(ready_of(&s), ["False"], "the NotReady view must stay");
        assert_eq!(s.conflicts.len(), 1, "{:?}", s.conflicts);
        let c = &s.conflicts[0];
        assert_eq!((c.kind.as_str(), c.object.as_str()), ("Node", "dup"));
        assert!(
            c.to_string().contains("Ready=False (KubeletNotReady)"),
            "{c}"
        );
        assert!(c.to_string().contains("Ready=True"), "{c}");
        assert!(c.why.contains("reports trouble"), "{}", c.why);
    }
}

#[test]
fn between_two_views_with_status_times_the_newer_one_is_kept_whatever_the_order() {
    // the JSON view's heartbeat is newer than the describe's: NotReady is the current state
    let newer = NOT_READY_JSON.replace(
        "HEARTBEAT",
        r#","lastHeartbeatTime":"2026-12-01T08:00:00Z""#,
    );
    for s in both_orders(&newer) {
        assert_eq!(ready_of(&s), ["False"]);
        assert_eq!(s.conflicts.len(), 1);
        assert!(
            s.conflicts[0].why.contains("observed later"),
            "{}",
            s.conflicts[0].why
        );
    }
    // the JSON view is older: the node recovered, the Ready view is current
    let older = NOT_READY_JSON.replace(
        "HEARTBEAT",
        r#","lastHeartbeatTime":"2026-11-29T08:00:00Z""#,
    );
    for s in both_orders(&older) {
        assert_eq!(ready_of(&s), ["True"]);
        assert_eq!(s.conflicts.len(), 1);
    }
}

#[test]
fn views_that_agree_replace_each_other_without_a_conflict_note() {
    let agree = NOT_READY_JSON.replace("HEARTBEAT", "").replace(
        r#""status":"False","reason":"KubeletNotReady""#,
        r#""status":"True","reason":"KubeletReady""#,
    );
    for s in both_orders(&agree) {
        assert_eq!(s.nodes.len(), 1);
        assert!(s.conflicts.is_empty(), "{:?}", s.conflicts);
        assert_eq!(s.duplicates.len(), 1);
    }
}

/// Red-team round 3 (01): a `kubectl get nodes` row (a partial view) that says NotReady and a
/// `describe` that says Ready: the trouble view's conditions stay, in both orders, and the
/// conflict is listed.
#[test]
fn a_table_row_and_a_describe_that_disagree_keep_the_trouble_view() {
    let row = "NAME       STATUS     ROLES    AGE   VERSION\ndup        NotReady   <none>   5d    v1.29.0\n";
    for (a, b) in [(row, READY_DESCRIBE), (READY_DESCRIBE, row)] {
        let mut s = ClusterSnapshot::default();
        s.add_bytes("a.txt", a.as_bytes());
        s.add_bytes("b.txt", b.as_bytes());
        assert_eq!(s.nodes.len(), 1, "{:?}", s.nodes);
        assert_eq!(ready_of(&s), ["False"]);
        assert_eq!(s.conflicts.len(), 1, "{:?}", s.conflicts);
    }
}
