//! The filters that read other pods and objects (NodePorts, VolumeBinding, PodTopologySpread,
//! InterPodAffinity) and the kubelet's admission of `spec.nodeName` pods, through the what-if
//! pipeline with its default scheduler (fresh-user report 2: G37, G40).

use cube_model::ClusterSnapshot;
use cube_model::objects::{Node, Pod};
use cube_quota::whatif::{AdmissionOutcome, Verdict};
use proptest::prelude::*;

use crate::whatif_support::{placed_nodes, run};

/// `n` schedulable nodes `node-<i>` (4 cpu, 110 pods), in zone `zone-<i % zones>` when
/// `zones > 0` (no zone label otherwise), each with its hostname label.
fn nodes(n: usize, zones: usize) -> Vec<Node> {
    (0..n)
        .map(|i| {
            let mut labels = serde_json::json!({"kubernetes.io/hostname": format!("node-{i}")});
            if zones > 0 {
                labels["topology.kubernetes.io/zone"] = format!("zone-{}", i % zones).into();
            }
            serde_json::from_value(serde_json::json!({
                "metadata": {"name": format!("node-{i}"), "labels": labels},
                "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}
            }))
            .expect("node")
        })
        .collect()
}

fn pod(json: serde_json::Value) -> Pod {
    serde_json::from_value(json).expect("pod")
}

fn deployment(replicas: u32, spec_extra: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web, namespace: default}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n{spec_extra}      containers: [{{name: c, image: x, resources: {{requests: {{cpu: 100m}}}}}}]\n"
    )
}

fn pending_message(out: &AdmissionOutcome) -> String {
    out.replicas
        .iter()
        .filter_map(|r| r.scheduling.as_ref())
        .find(|s| !s.schedulable)
        .map(|s| s.message.clone())
        .unwrap_or_default()
}

const ANTI_SELF: &str = "      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - labelSelector: {matchLabels: {app: web}}\n            topologyKey: kubernetes.io/hostname\n";

/// G40: one replica per node, the rest Pending with InterPodAffinity's text.
#[test]
fn anti_affinity_replicas_take_one_node_each() {
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes(2, 0);
    let out = run(&s, &deployment(5, ANTI_SELF));
    assert_eq!(placed_nodes(&out), ["node-0", "node-1"]);
    assert!(matches!(
        out.verdict,
        Verdict::Admitted {
            admitted: 5,
            pending: 3
        }
    ));
    assert_eq!(
        pending_message(&out),
        "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
    );
}

/// The anti-affinity of a pod already running repels the incoming pod (symmetry), in the pod's
/// namespace only unless the term names others.
#[test]
fn existing_pods_anti_affinity_repels() {
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes(2, 0);
    s.pods.push(pod(serde_json::json!({
        "metadata": {"name": "db", "namespace": "default", "labels": {"app": "db"}},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c"}],
            "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}]}}},
        "status": {"phase": "Running"}
    })));
    let out = run(&s, &deployment(2, ""));
    assert_eq!(placed_nodes(&out), ["node-1", "node-1"]);
    // another namespace is not selected by the term
    let other = deployment(1, "").replace("namespace: default", "namespace: other");
    assert_eq!(placed_nodes(&run(&s, &other)), ["node-0"]);
    // the whole cluster repelled: existing pods' text
    s.nodes.truncate(1);
    let out = run(&s, &deployment(1, ""));
    assert!(
        pending_message(&out).starts_with(
            "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules."
        ),
        "{}",
        pending_message(&out)
    );
}

/// Required pod affinity: the first pod of a group may go anywhere it matches itself; later
/// ones follow it; a term nobody matches leaves the pod Pending (UnschedulableAndUnresolvable).
#[test]
fn pod_affinity_follows_the_group() {
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes(4, 2);
    let zone_affinity = "      affinity:\n        podAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n          - labelSelector: {matchLabels: {app: web}}\n            topologyKey: topology.kubernetes.io/zone\n";
    let out = run(&s, &deployment(3, zone_affinity));
    let placed = placed_nodes(&out);
    assert_eq!(placed.len(), 3);
    // every replica in the first one's zone (node-0 and node-2 are zone-0)
    assert!(
        placed.iter().all(|n| n == "node-0" || n == "node-2"),
        "{placed:?}"
    );
    let other = zone_affinity.replace("app: web}", "app: cache}");
    let out = run(&s, &deployment(1, &other));
    assert_eq!(
        pending_message(&out),
        "0/4 nodes are available: 4 node(s) didn't match pod affinity rules. no new claims to deallocate, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."
    );
}

/// G40: a DoNotSchedule constraint on a key no node carries; and a skew of 1 over two zones.
#[test]
fn topology_spread_do_not_schedule() {
    let spread = "      topologySpreadConstraints:\n      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}\n";
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes(2, 0);
    let out = run(&s, &deployment(2, spread));
    assert_eq!(
        pending_message(&out),
        "0/2 nodes are available: 2 node(s) didn't match pod topology spread constraints (missing required label). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
    // zone-0 holds 2 pods of the group already: the next two go to zone-1
    s.nodes = nodes(2, 2);
    for i in 0..2 {
        s.pods.push(pod(serde_json::json!({
            "metadata": {"name": format!("old-{i}"), "namespace": "default", "labels": {"app": "web"}},
            "spec": {"nodeName": "node-0", "containers": [{"name": "c"}]},
            "status": {"phase": "Running"}
        })));
    }
    let out = run(&s, &deployment(3, spread));
    let placed = placed_nodes(&out);
    assert_eq!(placed, ["node-1", "node-1", "node-0"]);
    // ScheduleAnyway only scores
    let anyway = spread.replace("DoNotSchedule", "ScheduleAnyway");
    assert_eq!(placed_nodes(&run(&s, &deployment(3, &anyway))).len(), 3);
}

/// G40: host ports, one replica per node; NodePorts comes before NodeResourcesFit.
#[test]
fn host_ports_one_per_node() {
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes(2, 0);
    let m = deployment(3, "").replace(
        "image: x, resources",
        "image: x, ports: [{containerPort: 80, hostPort: 8080}], resources",
    );
    let out = run(&s, &m);
    assert_eq!(placed_nodes(&out), ["node-0", "node-1"]);
    assert!(
        pending_message(&out).starts_with(
            "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports."
        ),
        "{}",
        pending_message(&out)
    );
    // another protocol or host IP does not conflict
    let udp = m.replace("hostPort: 8080}", "hostPort: 8080, protocol: UDP}");
    s.pods.push(pod(serde_json::json!({
        "metadata": {"name": "tcp", "namespace": "default"},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c", "ports": [{"containerPort": 1, "hostPort": 8080}]}]},
        "status": {"phase": "Running"}
    })));
    assert_eq!(placed_nodes(&run(&s, &udp))[0], "node-0");
}

/// G40: the pod's claims, read only when the snapshot's claims were read.
#[test]
fn volume_binding_claims() {
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes(2, 0);
    let m = "kind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  volumes: [{name: d, persistentVolumeClaim: {claimName: nothere}}]\n  containers: [{name: c, image: x}]\n";
    // no claims read: not judged here (pod_admit says what was not checked)
    assert_eq!(placed_nodes(&run(&s, m)), ["node-0"]);
    s.kinds_listed.insert("PersistentVolumeClaim".to_owned());
    assert_eq!(
        pending_message(&run(&s, m)),
        "0/2 nodes are available: persistentvolumeclaim \"nothere\" not found. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
    s.persistent_volume_claims.push(
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "nothere", "namespace": "default"},
            "spec": {"storageClassName": "", "accessModes": ["ReadWriteOnce"]},
            "status": {"phase": "Pending"}
        }))
        .expect("claim"),
    );
    assert!(
        pending_message(&run(&s, m)).starts_with(
            "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims."
        ),
        "{}",
        pending_message(&run(&s, m))
    );
}

/// G37: `spec.nodeName` bypasses the scheduler; the kubelet's admission decides, with its
/// wording, and NoSchedule taints and cordons do not apply.
#[test]
fn node_name_pods_meet_the_kubelet() {
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes(1, 0);
    s.nodes[0].spec.unschedulable = true;
    s.nodes[0].spec.taints = vec![
        serde_json::from_value(serde_json::json!({"key": "gpu", "effect": "NoSchedule"}))
            .expect("taint"),
    ];
    let m = |cpu: &str, node: &str| {
        format!(
            "kind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  nodeName: {node}\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu}}}, limits: {{example.com/dongle: 1}}}}}}]\n"
        )
    };
    let out = run(&s, &m("1", "node-0"));
    let k = out.replicas[0]
        .scheduling
        .as_ref()
        .and_then(|s| s.kubelet.clone())
        .expect("kubelet");
    // cordon and NoSchedule ignored; the dongle the node does not advertise is not checked
    assert!(k.admitted, "{k:?}");
    let out = run(&s, &m("5", "node-0"));
    let k = out.replicas[0]
        .scheduling
        .as_ref()
        .and_then(|s| s.kubelet.clone())
        .expect("kubelet");
    assert_eq!(
        (k.reason.as_str(), k.message.as_str()),
        (
            "OutOfcpu",
            "Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000"
        )
    );
    assert!(
        !out.replicas[0]
            .scheduling
            .as_ref()
            .expect("s")
            .message
            .contains("0/")
    );
    s.nodes[0].spec.taints.push(
        serde_json::from_value(serde_json::json!({"key": "bad", "effect": "NoExecute"}))
            .expect("taint"),
    );
    let out = run(&s, &m("1", "node-0"));
    let k = out.replicas[0]
        .scheduling
        .as_ref()
        .and_then(|s| s.kubelet.clone())
        .expect("kubelet");
    assert_eq!(
        (k.reason.as_str(), k.message.as_str()),
        (
            "TaintToleration",
            "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"
        )
    );
    let out = run(&s, &m("1", "ghost"));
    let sched = out.replicas[0].scheduling.as_ref().expect("s");
    assert!(!sched.schedulable);
    assert!(sched.kubelet.as_ref().is_some_and(|k| !k.node_exists));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Required hostname anti-affinity on the replicas' own labels: never two on one node, and
    /// as many placed as there are nodes (the rest Pending).
    #[test]
    fn anti_affinity_never_doubles_up(n in 1usize..6, replicas in 1u32..9) {
        let mut s = ClusterSnapshot::default();
        s.nodes = nodes(n, 0);
        let out = run(&s, &deployment(replicas, ANTI_SELF));
        let placed = placed_nodes(&out);
        let distinct: std::collections::BTreeSet<&String> = placed.iter().collect();
        prop_assert_eq!(distinct.len(), placed.len());
        prop_assert_eq!(placed.len(), n.min(replicas as usize));
    }

    /// DoNotSchedule with maxSkew k over z zones: the placed replicas per zone never differ by
    /// more than k, and every replica is placed (each zone has room).
    #[test]
    fn spread_keeps_the_skew(z in 1usize..4, per_zone in 1usize..3, k in 1i32..3, replicas in 1u32..10) {
        let mut s = ClusterSnapshot::default();
        s.nodes = nodes(z * per_zone, z);
        let spread = format!("      topologySpreadConstraints:\n      - {{maxSkew: {k}, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {{matchLabels: {{app: web}}}}}}\n");
        let out = run(&s, &deployment(replicas, &spread));
        let placed = placed_nodes(&out);
        prop_assert_eq!(placed.len(), replicas as usize);
        let mut per = vec![0i64; z];
        for n in &placed {
            let i: usize = n.trim_start_matches("node-").parse().expect("index");
            per[i % z] += 1;
        }
        let (lo, hi) = (per.iter().min().copied().unwrap_or(0), per.iter().max().copied().unwrap_or(0));
        prop_assert!(hi - lo <= i64::from(k), "{per:?}");
    }
}
