//! H21 and K4: a node whose allocatable is unknown (read from a `kubectl get nodes` table or an
//! excerpt) is neither "fits" nor "does not fit" but `NotChecked`, and `whatif::admit` says so
//! in its public completeness verdict.

use cube_model::ClusterSnapshot;
use cube_model::objects::Node;
use cube_quota::fit::{FitCode, FitOptions, NodeUsage, REASON_ALLOCATABLE_UNKNOWN};
use cube_quota::whatif::{AdmitOptions, Completeness, Submission, Verdict, admit};

use crate::whatif_support::{placed_nodes, run};

/// A node as a `kubectl get nodes` row gives it: a name, no allocatable, marked partial.
fn table_node(name: &str, taint: bool) -> Node {
    let taints = if taint {
        serde_json::json!([{"key": "gpu", "effect": "NoSchedule"}])
    } else {
        serde_json::json!([])
    };
    serde_json::from_value(serde_json::json!({
        "metadata": {"name": name, "annotations": {
            cube_model::describe::PARTIAL_ANNOTATION: "read from a `kubectl get nodes` table; unknown: allocatable, taints"
        }},
        "spec": {"taints": taints}
    }))
    .expect("node")
}

fn known_node(name: &str, cpu: &str) -> Node {
    serde_json::from_value(serde_json::json!({
        "metadata": {"name": name},
        "status": {"allocatable": {"cpu": cpu, "memory": "16Gi", "pods": "110"}}
    }))
    .expect("node")
}

fn pod_manifest(cpu: &str) -> String {
    format!(
        "kind: Pod\napiVersion: v1\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu}}}}}}}]\n"
    )
}

/// The library's fit: an unknown node is `NotChecked` with its reason, never `Insufficient`.
#[test]
fn fit_reports_unknown_allocatable_as_not_checked() {
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![table_node("node-0", false), known_node("node-1", "1")];
    let pod: cube_model::objects::Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "2"}}}]}
    }))
    .expect("pod");
    let usage = NodeUsage::build(&s, &FitOptions::default());
    assert!(usage.nodes[0].allocatable_unknown);
    let report = usage.fit(&s, &pod);
    assert_eq!(report.nodes[0].code, FitCode::NotChecked);
    assert!(report.nodes[0].insufficient.is_empty());
    assert_eq!(report.nodes[0].reasons, [REASON_ALLOCATABLE_UNKNOWN]);
    assert_eq!(report.not_checked_nodes().collect::<Vec<_>>(), ["node-0"]);
    assert_eq!(report.nodes[1].code, FitCode::UnschedulableAndUnresolvable);
    let verdicts = usage.verdicts(&s, &pod);
    assert!(verdicts.nodes[0].not_checked());
    assert_eq!(verdicts.not_checked().collect::<Vec<_>>(), [0]);
    // the same histogram on both paths, the unknown node counted under its own reason
    assert_eq!(report.histogram(), verdicts.histogram());
    assert_eq!(report.filter_message(), verdicts.filter_message());
    let msg = verdicts.filter_message().expect("not schedulable");
    assert!(
        msg.contains(&format!("1 {REASON_ALLOCATABLE_UNKNOWN}")),
        "{msg}"
    );
    assert!(!msg.contains("2 Insufficient cpu"), "{msg}");
}

/// A static filter's refusal is definitive on an unknown node (the taint is read).
#[test]
fn static_refusal_on_unknown_node_stays_a_refusal() {
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![table_node("node-0", true)];
    let pod: cube_model::objects::Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c"}]}
    }))
    .expect("pod");
    let usage = NodeUsage::build(&s, &FitOptions::default());
    let report = usage.fit(&s, &pod);
    assert_eq!(report.nodes[0].code, FitCode::UnschedulableAndUnresolvable);
    assert!(!usage.verdicts(&s, &pod).nodes[0].not_checked());
}

/// K4: Pending only because the known nodes are full, unknown ones not checked: incomplete,
/// naming the nodes; placed on a known node: complete.
#[test]
fn admit_completeness_names_the_unknown_nodes() {
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![table_node("node-0", false), known_node("node-1", "1")];
    let out = run(&s, &pod_manifest("2"));
    assert!(matches!(out.verdict, Verdict::Admitted { pending: 1, .. }));
    let Completeness::Incomplete { not_checked } = &out.completeness else {
        panic!("expected incomplete: {:?}", out.completeness);
    };
    assert!(
        not_checked
            .iter()
            .any(|l| l.starts_with("node fit: 1 node(s)") && l.contains("node-0")),
        "{not_checked:?}"
    );
    let out = run(&s, &pod_manifest("500m"));
    assert_eq!(placed_nodes(&out), ["node-1"]);
    assert!(out.completeness.is_complete(), "{:?}", out.completeness);
}

/// A pod bound by `spec.nodeName` to an unknown node: the kubelet's admission is not checked
/// (never `OutOfcpu` against 0).
#[test]
fn bound_pod_on_unknown_node_is_not_checked() {
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![table_node("node-0", false)];
    let m = "kind: Pod\napiVersion: v1\nmetadata: {name: p, namespace: default}\nspec:\n  nodeName: node-0\n  containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]\n";
    let out = run(&s, m);
    let so = out.replicas[0].scheduling.as_ref().expect("scheduled");
    assert!(so.message.starts_with("not checked: "), "{}", so.message);
    assert!(!so.message.contains("OutOf"), "{}", so.message);
    assert!(!out.completeness.is_complete());
}

/// Without a scheduler the verdict says scheduling was not checked; a refusal is complete.
#[test]
fn admit_without_scheduler_is_incomplete_and_refusal_is_complete() {
    let s = ClusterSnapshot::default();
    let sub = Submission::parse(&pod_manifest("1")).expect("pod");
    let out = admit(&sub, "", &s, &AdmitOptions::default());
    assert!(
        out.completeness
            .not_checked()
            .iter()
            .any(|l| l.starts_with("scheduling: ")),
        "{:?}",
        out.completeness
    );
    let bad = Submission::parse(
        "kind: Pod\napiVersion: v1\nmetadata: {name: p, namespace: default}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: '2'}, limits: {cpu: '1'}}}]\n",
    )
    .expect("pod");
    let out = admit(&bad, "", &s, &AdmitOptions::default());
    assert!(
        matches!(out.verdict, Verdict::Rejected(_)),
        "{:?}",
        out.verdict
    );
    assert!(out.completeness.is_complete());
}
