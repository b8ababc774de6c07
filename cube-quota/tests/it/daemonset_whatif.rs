//! A DaemonSet through the what-if pipeline (fresh-user H18): one pod per eligible node, with
//! the DaemonSet controller's tolerations and pinned by node affinity on `metadata.name`
//! (kubernetes/kubernetes `pkg/controller/daemon/util/daemonset_util.go`
//! `AddOrUpdateDaemonPodTolerations`, `ReplaceDaemonSetPodNodeNameNodeAffinity`;
//! `pkg/controller/daemon/daemon_controller.go` `NodeShouldRunDaemonPod`), and the scheduler
//! filtering each pod on its node only (NodeAffinity's PreFilter result, kubernetes#108648;
//! the other nodes `node(s) didn't satisfy plugin(s) [NodeAffinity]` since kubernetes#119779).

use cube_model::ClusterSnapshot;
use cube_model::objects::{Node, Pod};
use cube_quota::preemption::FitScheduler;
use cube_quota::schedmsg::SchedulerVersion;
use cube_quota::whatif::{AdmissionOutcome, AdmitOptions, Submission, Verdict, admit};

fn node(name: &str, cpu: &str, taints: serde_json::Value, unschedulable: bool) -> Node {
    serde_json::from_value(serde_json::json!({
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, "pool": "a"}},
        "spec": {"taints": taints, "unschedulable": unschedulable},
        "status": {"allocatable": {"cpu": cpu, "memory": "16Gi", "pods": "110"}}
    }))
    .expect("node")
}

fn run_version(
    snapshot: &ClusterSnapshot,
    manifest: &str,
    version: SchedulerVersion,
) -> AdmissionOutcome {
    let sched = FitScheduler {
        version,
        ..FitScheduler::default()
    };
    let opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    let sub = Submission::parse(manifest).expect("manifest");
    admit(&sub, "", snapshot, &opts)
}

fn run(snapshot: &ClusterSnapshot, manifest: &str) -> AdmissionOutcome {
    run_version(snapshot, manifest, SchedulerVersion::LATEST)
}

fn daemonset(spec_extra: &str, cpu: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: agent, namespace: kube-system}}\nspec:\n  selector: {{matchLabels: {{app: agent}}}}\n  template:\n    metadata: {{labels: {{app: agent}}}}\n    spec:\n{spec_extra}      containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu}}}}}}}]\n"
    )
}

fn placed(out: &AdmissionOutcome) -> Vec<String> {
    out.replicas
        .iter()
        .filter_map(|r| r.scheduling.as_ref())
        .filter(|s| s.schedulable)
        .filter_map(|s| s.node.clone())
        .collect()
}

fn skipped(out: &AdmissionOutcome) -> Vec<(String, String)> {
    out.daemon_skipped
        .iter()
        .map(|d| (d.node.clone(), d.reason.clone()))
        .collect()
}

/// Cordoned, not-ready and network-unavailable nodes: the controller's tolerations decide;
/// a taint the template does not tolerate keeps the node without a pod.
fn mixed_nodes() -> ClusterSnapshot {
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![
        node("node-0", "4", serde_json::json!([]), false),
        node(
            "node-1",
            "4",
            serde_json::json!([{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]),
            true,
        ),
        node(
            "node-2",
            "4",
            serde_json::json!([{"key": "dedicated", "value": "gpu", "effect": "NoSchedule"}]),
            false,
        ),
        node(
            "node-3",
            "4",
            serde_json::json!([{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute"}]),
            false,
        ),
        node(
            "node-4",
            "4",
            serde_json::json!([{"key": "node.kubernetes.io/network-unavailable", "effect": "NoSchedule"}]),
            false,
        ),
    ];
    s
}

#[test]
fn one_pod_per_eligible_node_with_the_controllers_tolerations() {
    let s = mixed_nodes();
    let out = run(&s, &daemonset("", "100m"));
    assert_eq!(out.requested, 3);
    assert_eq!(placed(&out), ["node-0", "node-1", "node-3"]);
    assert!(matches!(
        out.verdict,
        Verdict::Admitted {
            admitted: 3,
            pending: 0
        }
    ));
    assert_eq!(
        skipped(&out),
        [
            (
                "node-2".to_owned(),
                "untolerated taint dedicated=gpu:NoSchedule".to_owned()
            ),
            (
                "node-4".to_owned(),
                "untolerated taint node.kubernetes.io/network-unavailable:NoSchedule".to_owned()
            ),
        ]
    );
    // each stored pod is pinned to its node and carries the tolerations
    let stored: &Pod = out.replicas[1].stored.as_ref().expect("stored");
    let terms = &stored
        .spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| {
            n.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        .expect("required node affinity")
        .node_selector_terms;
    assert_eq!(terms.len(), 1);
    assert_eq!(terms[0].match_fields[0].key, "metadata.name");
    assert_eq!(terms[0].match_fields[0].values, ["node-1"]);
    let keys: Vec<&str> = stored
        .spec
        .tolerations
        .iter()
        .map(|t| t.key.as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "node.kubernetes.io/not-ready",
            "node.kubernetes.io/unreachable",
            "node.kubernetes.io/disk-pressure",
            "node.kubernetes.io/memory-pressure",
            "node.kubernetes.io/pid-pressure",
            "node.kubernetes.io/unschedulable",
        ]
    );
}

/// `hostNetwork` pods also tolerate `node.kubernetes.io/network-unavailable`; a template
/// toleration with the same key, operator and effect is replaced (no `tolerationSeconds`).
#[test]
fn host_network_pods_tolerate_network_unavailable() {
    let s = mixed_nodes();
    let extra = "      hostNetwork: true\n      tolerations:\n      - {key: dedicated, operator: Exists}\n      - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}\n";
    let out = run(&s, &daemonset(extra, "100m"));
    assert_eq!(
        placed(&out),
        ["node-0", "node-1", "node-2", "node-3", "node-4"]
    );
    assert!(out.daemon_skipped.is_empty());
    let stored = out.replicas[0].stored.as_ref().expect("stored");
    let not_ready: Vec<_> = stored
        .spec
        .tolerations
        .iter()
        .filter(|t| t.key == "node.kubernetes.io/not-ready")
        .collect();
    assert_eq!(not_ready.len(), 1);
    assert_eq!(not_ready[0].toleration_seconds, None);
    assert!(
        stored
            .spec
            .tolerations
            .iter()
            .any(|t| t.key == "node.kubernetes.io/network-unavailable" && t.effect == "NoSchedule")
    );
}

/// `nodeSelector` and required node affinity choose the nodes; no eligible node: no pod.
#[test]
fn selector_chooses_the_nodes_and_none_gives_no_pod() {
    let s = mixed_nodes();
    let out = run(&s, &daemonset("      nodeSelector: {pool: b}\n", "100m"));
    assert_eq!(out.requested, 0);
    assert!(out.replicas.is_empty());
    assert_eq!(out.daemon_skipped.len(), 5);
    assert!(
        out.daemon_skipped
            .iter()
            .all(|d| d.reason == "nodeSelector/affinity does not match")
    );
    let affinity = "      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n            - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-0, node-2]}]\n";
    let out = run(&s, &daemonset(affinity, "100m"));
    assert_eq!(placed(&out), ["node-0"]);
    assert_eq!(out.daemon_skipped.len(), 4);
}

/// A DaemonSet pod that does not fit its own node stays Pending with the scheduler's text:
/// only its node is filtered (PreFilter result), the others are `didn't satisfy plugin(s)
/// [NodeAffinity]` and not helpful for preemption. Public report: `0/3 nodes are available:
/// 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]` for a DaemonSet pod
/// on a node with 8m cpu free (grafana alloy-logs, 10m request).
#[test]
fn pod_that_does_not_fit_its_node_is_pending_with_the_prefilter_text() {
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![
        node("node-0", "4", serde_json::json!([]), false),
        node("node-1", "3860m", serde_json::json!([]), false),
        node("node-2", "4", serde_json::json!([]), false),
    ];
    let busy: Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "busy", "namespace": "default"},
        "spec": {"nodeName": "node-1", "containers": [{"name": "c", "resources": {"requests": {"cpu": "3852m"}}}]},
        "status": {"phase": "Running"}
    }))
    .expect("pod");
    s.pods.push(busy);
    let out = run(&s, &daemonset("", "10m"));
    assert_eq!(placed(&out), ["node-0", "node-2"]);
    let pending = out
        .replicas
        .iter()
        .filter_map(|r| r.scheduling.as_ref())
        .find(|s| !s.schedulable)
        .expect("one pending");
    assert_eq!(
        pending.message,
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
    );
    // v1.24–v1.29: the nodes left out by the PreFilter result had no status
    let old = run_version(
        &s,
        &daemonset("", "10m"),
        SchedulerVersion::parse("1.27").unwrap(),
    );
    let pending = old
        .replicas
        .iter()
        .filter_map(|r| r.scheduling.as_ref())
        .find(|s| !s.schedulable)
        .expect("one pending");
    assert!(
        pending
            .message
            .starts_with("0/3 nodes are available: 1 Insufficient cpu. preemption: "),
        "{}",
        pending.message
    );
}
