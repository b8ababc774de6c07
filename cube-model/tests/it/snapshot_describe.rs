//! The real `kubectl describe` / `kubectl get` text fixtures load, and the facts their
//! `.meta.json` names are read.

use std::path::Path;

use cube_model::{ClusterSnapshot, InputFormat, LoadOutcome, detect_format};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/fixtures");

#[track_caller]
fn load(rel: &str, expected: InputFormat) -> ClusterSnapshot {
    let bytes = std::fs::read(Path::new(FIXTURES).join(rel)).unwrap();
    assert_eq!(detect_format(&bytes), expected, "{rel}");
    let mut s = ClusterSnapshot::new();
    let outcome = s.add_bytes(rel, &bytes);
    if expected.is_snapshot() {
        assert!(
            matches!(outcome, LoadOutcome::Loaded { format, .. } if format == expected),
            "{rel}: {outcome:?}"
        );
    }
    assert!(s.problems.is_empty(), "{rel}: {:?}", s.problems);
    s
}

fn q(list: &cube_model::ResourceList, name: &str) -> Option<i64> {
    list.get(name).map(|q| q.value())
}

#[test]
fn a100_mig_labels_vs_resource_names() {
    let s = load(
        "nodes/a100-mig-mixed-label-name-vs-resource-name.txt",
        InputFormat::DescribeNode,
    );
    assert_eq!(s.nodes.len(), 1);
    let n = &s.nodes[0];
    let labels = &n.metadata.labels;
    assert_eq!(labels.len(), 11);
    assert_eq!(labels.get("nvidia.com/mig-3g.21gb.count"), Some("16"));
    assert_eq!(labels.get("nvidia.com/mig.strategy"), Some("mixed"));
    // Labels say 3g.21gb, the device plugin advertises 3g.20gb: read what is allocatable.
    assert_eq!(q(&n.status.capacity, "nvidia.com/mig-3g.20gb"), Some(16));
    assert_eq!(q(&n.status.allocatable, "nvidia.com/mig-3g.20gb"), Some(16));
    assert!(n.status.allocatable.get("nvidia.com/mig-3g.21gb").is_none());
}

#[test]
fn amd_labelled_node_has_no_amd_capacity() {
    let s = load(
        "nodes/amd-labelled-no-amd-gpu-capacity.txt",
        InputFormat::DescribeNode,
    );
    let n = &s.nodes[0];
    assert_eq!(n.metadata.name, "node-01");
    let labels = &n.metadata.labels;
    assert_eq!(labels.len(), 13);
    assert_eq!(labels.get("beta.amd.com/gpu.device-id.67df"), Some("1"));
    assert_eq!(labels.get("beta.amd.com/gpu.vram.8G"), Some("1"));
    assert_eq!(labels.get("node.kubernetes.io/instance-type"), Some("k3s"));
    assert_eq!(
        n.metadata
            .annotations
            .get("flannel.alpha.coreos.com/backend-data"),
        Some(r#"{"VNI":1,"VtepMAC":"02:00:00:00:00:01"}"#)
    );
    assert_eq!(
        n.metadata.annotations.get("k3s.io/node-args"),
        Some(r#"["agent"]"#)
    );
    assert!(n.status.capacity.get("amd.com/gpu").is_none());
    assert!(n.status.allocatable.is_empty());
}

#[test]
fn nodes_wide_table_runtime_and_kernel_drift() {
    let s = load(
        "nodes/nodes-wide-runtime-and-kernel-drift.txt",
        InputFormat::NodesWideTable,
    );
    let rows: Vec<(&str, &str, &str, &str)> = s
        .nodes
        .iter()
        .map(|n| {
            (
                n.metadata.name.as_str(),
                n.status.node_info.kernel_version.as_str(),
                n.status.node_info.container_runtime_version.as_str(),
                n.status.node_info.os_image.as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (
                "node-00",
                "5.4.0-166-generic",
                "docker://20.10.20",
                "Ubuntu 20.04.5 LTS"
            ),
            (
                "node-01",
                "5.4.0-144-generic",
                "docker://20.10.20",
                "Ubuntu 20.04.5 LTS"
            ),
            (
                "node-02",
                "5.4.0-144-generic",
                "containerd://1.6.4",
                "Ubuntu 20.04.5 LTS"
            ),
        ]
    );
    let n0 = &s.nodes[0];
    assert_eq!(n0.status.node_info.kubelet_version, "v1.24.10");
    assert!(
        n0.metadata
            .labels
            .contains_key("node-role.kubernetes.io/control-plane")
    );
    assert!(
        s.nodes[1]
            .metadata
            .labels
            .contains_key("node-role.kubernetes.io/compute")
    );
    assert_eq!(n0.status.addresses.len(), 1);
    assert_eq!(n0.status.addresses[0].type_, "InternalIP");
    assert_eq!(n0.status.addresses[0].address, "10.0.0.10");
    assert!(
        n0.status
            .conditions
            .iter()
            .any(|c| c.type_ == "Ready" && c.status == "True")
    );
}

#[test]
fn timeslicing_renamed_gpu_shared() {
    let s = load(
        "nodes/timeslicing-renamed-gpu-shared-mig.txt",
        InputFormat::DescribeNode,
    );
    let n = &s.nodes[0];
    assert_eq!(q(&n.status.capacity, "nvidia.com/gpu"), Some(0));
    assert_eq!(q(&n.status.capacity, "nvidia.com/gpu.shared"), Some(128));
    assert_eq!(q(&n.status.allocatable, "nvidia.com/gpu.shared"), Some(128));
    assert_eq!(
        n.status.capacity.get("cpu").map(|c| c.milli_value()),
        Some(192_000)
    );
    assert_eq!(
        n.status.allocatable.get("cpu").map(|c| c.milli_value()),
        Some(191_450)
    );
    assert_eq!(
        q(&n.status.allocatable, "ephemeral-storage"),
        Some(384_269_682_460)
    );
    assert_eq!(q(&n.status.capacity, "memory"), Some(2_097_096_404 * 1024));
    assert_eq!(n.status.capacity.len(), 8);
}

#[test]
fn gpu_pod_pending_plugin_not_advertising() {
    let s = load(
        "pods/gpu-pod-pending-plugin-not-advertising.txt",
        InputFormat::DescribePod,
    );
    let p = &s.pods[0];
    assert_eq!(p.key(), "default/gpu-pod");
    assert_eq!(p.spec.node_name, "");
    assert_eq!(p.status.phase, "Pending");
    assert_eq!(p.status.qos_class, "BestEffort");
    assert_eq!(p.spec.priority, Some(0));
    assert_eq!(p.spec.containers.len(), 1);
    let c = &p.spec.containers[0];
    assert_eq!(c.name, "cuda-container");
    assert_eq!(c.image, "nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda10.2");
    assert_eq!(q(&c.resources.limits, "nvidia.com/gpu"), Some(1));
    assert_eq!(q(&c.resources.requests, "nvidia.com/gpu"), Some(1));
    assert!(
        p.status
            .conditions
            .iter()
            .any(|c| c.type_ == "PodScheduled" && c.status == "False")
    );
    assert_eq!(s.events.len(), 1);
    let e = &s.events[0];
    assert_eq!(
        (e.type_.as_str(), e.reason.as_str()),
        ("Warning", "FailedScheduling")
    );
    assert_eq!(e.source.component, "default-scheduler");
    assert!(
        e.message
            .starts_with("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")
    );
    assert!(
        e.message
            .contains("No preemption victims found for incoming pod")
    );
    assert_eq!(
        (
            e.involved_object.kind.as_str(),
            e.involved_object.name.as_str()
        ),
        ("Pod", "gpu-pod")
    );
}

#[test]
fn nginx_limitranger_annotation() {
    let s = load(
        "pods/nginx-no-requests-limitranger-defaulted.txt",
        InputFormat::DescribePod,
    );
    let p = &s.pods[0];
    assert_eq!(p.key(), "default/nginx-pod2");
    assert_eq!(p.spec.node_name, "node-03");
    assert_eq!(p.status.phase, "Running");
    assert_eq!(p.metadata.labels.get("name"), Some("nginx-pod"));
    assert_eq!(
        p.metadata.annotations.get("kubernetes.io/limit-ranger"),
        Some("LimitRanger plugin set: cpu request for container nginx")
    );
    assert_eq!(
        p.status.start_time.map(|t| t.to_string()).as_deref(),
        Some("2017-11-13T21:06:30Z")
    );
}

#[test]
fn triton_pending_insufficient_gpu() {
    let s = load(
        "pods/triton-pending-insufficient-gpu.txt",
        InputFormat::DescribePod,
    );
    let p = &s.pods[0];
    assert_eq!(p.metadata.name, "triton-inference-server-5b6c7f889c-f54c6");
    assert_eq!(p.metadata.labels.len(), 2);
    assert_eq!(p.metadata.owner_references[0].kind, "ReplicaSet");
    assert_eq!(
        p.metadata.owner_references[0].name,
        "triton-inference-server-5b6c7f889c"
    );
    let c = &p.spec.containers[0];
    assert_eq!(c.name, "triton-server");
    assert_eq!(q(&c.resources.requests, "nvidia.com/gpu"), Some(1));
    let e = &s.events[0];
    assert_eq!(e.reason, "FailedScheduling");
    assert!(e.message.contains("1 Insufficient nvidia.com/gpu"));
    assert!(e.message.contains("No preemption victims found"));
}

#[test]
fn quota_failedcreate_event_row() {
    let s = load(
        "events/failedcreate-quota-must-specify.txt",
        InputFormat::EventsTable,
    );
    assert_eq!(s.events.len(), 1);
    let e = &s.events[0];
    assert_eq!(
        (e.type_.as_str(), e.reason.as_str()),
        ("Warning", "FailedCreate")
    );
    assert_eq!(e.count, Some(7));
    assert_eq!(e.source.component, "replicaset-controller");
    assert!(e.message.contains(
        "failed quota: compute-resources: must specify limits.cpu,limits.memory,requests.cpu,requests.memory"
    ));
}

#[test]
fn hami_and_kueue_event_tables() {
    let s = load(
        "events/hami-node-unregistered.txt",
        InputFormat::EventsTable,
    );
    assert_eq!(s.events.len(), 2);
    for e in &s.events {
        assert_eq!(e.reason, "FailedScheduling");
        assert_eq!(e.source.component, "hami-scheduler");
        assert_eq!(e.message, "0/1 nodes are available: 1 node unregistered.");
    }
    assert_eq!(s.events[1].count, Some(1));

    let s = load(
        "events/kueue-pending-resource-unavailable-in-clusterqueue.txt",
        InputFormat::EventsTable,
    );
    let msgs: Vec<&str> = s.events.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "couldn't assign flavors to pod set job: resource cpu unavailable in ClusterQueue",
            "couldn't assign flavors to pod set job: resource memory unavailable in ClusterQueue",
        ]
    );
    assert!(
        s.events
            .iter()
            .all(|e| e.reason == "Pending" && e.source.component == "kueue-admission")
    );
    assert_eq!(s.events[0].count, Some(3));
}

#[test]
fn pvc_pending_no_storageclass() {
    let s = load(
        "events/pvc-pending-no-storageclass.txt",
        InputFormat::EventsTable,
    );
    assert_eq!(s.events.len(), 2);
    assert_eq!(s.events[0].reason, "FailedScheduling");
    assert_eq!(s.events[0].count, Some(11));
    assert!(
        s.events[0]
            .message
            .contains("pod has unbound immediate PersistentVolumeClaims")
    );
    let binding = &s.events[1];
    assert_eq!(binding.reason, "FailedBinding");
    assert_eq!(
        binding.message,
        "no persistent volumes available for this claim and no storage class is set"
    );
    assert_eq!(binding.involved_object.kind, "PersistentVolumeClaim");
    assert_eq!(binding.involved_object.name, "hub-db-dir");
    assert_eq!(s.persistent_volume_claims.len(), 1);
    let pvc = &s.persistent_volume_claims[0];
    assert_eq!(
        (pvc.metadata.namespace.as_str(), pvc.metadata.name.as_str()),
        ("jhub", "hub-db-dir")
    );
    assert_eq!(pvc.spec.storage_class_name, None);
    assert_eq!(pvc.status.phase, "Pending");
    assert_eq!(pvc.metadata.labels.len(), 6);
    assert_eq!(
        pvc.metadata.annotations.get("meta.helm.sh/release-name"),
        Some("jhub")
    );
}

#[test]
fn local_path_storageclass_then_scheduler_text() {
    let s = load(
        "events/local-path-volume-node-affinity-conflict.txt",
        InputFormat::Yaml,
    );
    assert_eq!(s.storage_classes.len(), 1);
    let sc = &s.storage_classes[0];
    assert_eq!(sc.provisioner, "rancher.io/local-path");
    assert_eq!(
        sc.volume_binding_mode.as_deref(),
        Some("WaitForFirstConsumer")
    );
    assert!(!sc.is_default());
    // The scheduler message after the YAML is routed as text, not a problem.
    assert_eq!(s.not_snapshot.len(), 1);
    assert!(s.not_snapshot[0].source.ends_with("(document 1)"));
    assert_eq!(s.not_snapshot[0].format, InputFormat::Text);
}

/// Bare scheduler messages are not snapshot input: they go to the message classifiers.
#[test]
fn bare_scheduler_messages_are_text() {
    for rel in [
        "events/failedscheduling-insufficient-amd-gpu.txt",
        "events/failedscheduling-pod-affinity-vs-gpu.txt",
    ] {
        let bytes = std::fs::read(Path::new(FIXTURES).join(rel)).unwrap();
        assert_eq!(detect_format(&bytes), InputFormat::Text);
        let mut s = ClusterSnapshot::new();
        assert_eq!(
            s.add_bytes(rel, &bytes),
            LoadOutcome::NotSnapshot {
                format: InputFormat::Text
            }
        );
        assert!(s.problems.is_empty() && s.object_count() == 0);
    }
}

/// Detection reads the content, not the name: the same bytes under any label load the same.
#[test]
fn detection_ignores_the_file_name() {
    let bytes =
        std::fs::read(Path::new(FIXTURES).join("nodes/amd-labelled-no-amd-gpu-capacity.txt"))
            .unwrap();
    let a = ClusterSnapshot::from_slice("x.json", &bytes);
    let b = ClusterSnapshot::from_slice("y.yaml", &bytes);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.nodes.len(), 1);
}
