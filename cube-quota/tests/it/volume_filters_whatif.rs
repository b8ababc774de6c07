//! Volume filters the snapshot has data for: VolumeZone (kubernetes/kubernetes
//! `pkg/scheduler/framework/plugins/volumezone/volume_zone.go` and `volume_zone_test.go`: a
//! bound volume's zone/region labels, `a__b` listing several zones, a beta volume label matched
//! by the node's GA label, a node without any zone label passing).

use cube_model::ClusterSnapshot;
use cube_quota::preemption::FitScheduler;
use cube_quota::whatif::{AdmitOptions, Submission, admit};

fn snapshot(pv_zone: &str, node_labels: &[serde_json::Value]) -> ClusterSnapshot {
    let mut items = vec![
        serde_json::json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-1", "labels": {"failure-domain.beta.kubernetes.io/zone": pv_zone}}, "spec": {"capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteOnce"], "claimRef": {"namespace": "default", "name": "data"}}, "status": {"phase": "Bound"}}),
        serde_json::json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "default"}, "spec": {"accessModes": ["ReadWriteOnce"], "volumeName": "pv-1", "resources": {"requests": {"storage": "10Gi"}}}, "status": {"phase": "Bound"}}),
    ];
    for (i, labels) in node_labels.iter().enumerate() {
        items.push(serde_json::json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": format!("node-{i}"), "labels": labels}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}));
    }
    let text = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string();
    let mut s = ClusterSnapshot::default();
    let _ = s.add_bytes("test.json", text.as_bytes());
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    s
}

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]\n  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]\n";

fn schedule(s: &ClusterSnapshot) -> (bool, Option<String>, String) {
    let sched = FitScheduler::default();
    let opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    let out = admit(&Submission::parse(POD).unwrap(), "", s, &opts);
    let so = out.replicas[0].scheduling.clone().expect("scheduled");
    (so.schedulable, so.node, so.message)
}

#[test]
fn a_node_outside_the_volume_zone_is_refused() {
    let s = snapshot(
        "us-west1-a",
        &[serde_json::json!({"topology.kubernetes.io/zone": "us-west1-b"})],
    );
    let (ok, _, msg) = schedule(&s);
    assert!(!ok);
    assert!(
        msg.starts_with("0/1 nodes are available: 1 node(s) had no available volume zone. "),
        "{msg}"
    );
    assert!(
        msg.contains("1 Preemption is not helpful for scheduling"),
        "{msg}"
    );
}

#[test]
fn matching_zone_several_zones_or_no_zone_label_pass() {
    // the beta volume label matched by the node's GA label
    let s = snapshot(
        "us-west1-a",
        &[
            serde_json::json!({"topology.kubernetes.io/zone": "us-west1-b"}),
            serde_json::json!({"topology.kubernetes.io/zone": "us-west1-a"}),
        ],
    );
    assert_eq!(schedule(&s).1.as_deref(), Some("node-1"));
    // `a__b` lists two zones
    let s = snapshot(
        "us-west1-b__us-west1-c",
        &[serde_json::json!({"failure-domain.beta.kubernetes.io/zone": "us-west1-c"})],
    );
    assert_eq!(schedule(&s).1.as_deref(), Some("node-0"));
    // a node without any zone or region label has no zone constraint
    let s = snapshot(
        "us-west1-a",
        &[serde_json::json!({"kubernetes.io/hostname": "node-0"})],
    );
    assert_eq!(schedule(&s).1.as_deref(), Some("node-0"));
}
