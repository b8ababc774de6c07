//! The `kubectl describe node` / `kubectl get nodes -o wide` node fixtures, read by the snapshot
//! loader, then checked for the GPU and consistency facts each `.meta.json` names.

use crate::support;

use std::path::Path;

use cube_model::node::{GpuEvidenceSource, GpuVendor, NodeAttribute, NodeInfo};
use cube_model::{ClusterSnapshot, NodePool, ResourceList};
use support::{NODES, expected_diagnosis};

fn load(file: &str) -> Vec<NodeInfo> {
    let path = Path::new(NODES).join(file);
    let snap = ClusterSnapshot::load_files([&path]);
    assert!(snap.problems.is_empty(), "{file}: {:?}", snap.problems);
    snap.nodes.iter().map(NodeInfo::from_node).collect()
}

#[test]
fn mig_label_names_are_not_resource_names() {
    let file = "a100-mig-mixed-label-name-vs-resource-name.txt";
    assert!(
        expected_diagnosis(file)
            .contains("do not derive schedulable resource names from GFD labels")
    );
    let [n] = load(file).try_into().unwrap();
    let g = &n.gpu;
    assert_eq!(g.mig_strategy.as_deref(), Some("mixed"));
    assert!(g.claims_gpu());
    assert!(
        g.evidence
            .iter()
            .all(|e| e.source == GpuEvidenceSource::GpuFeatureDiscovery)
    );
    assert!(
        g.evidence
            .iter()
            .any(|e| e.key == "nvidia.com/mig-3g.21gb.count")
    );
    let names: Vec<&str> = g.resource_names().into_iter().map(|n| n.as_str()).collect();
    assert_eq!(
        names,
        ["nvidia.com/mig-3g.20gb"],
        "names come from allocatable, not labels"
    );
    assert_eq!(
        g.allocatable.get("nvidia.com/mig-3g.20gb"),
        Some(&"16".parse().unwrap())
    );
    assert_eq!(
        g.capacity.get("nvidia.com/mig-3g.20gb"),
        Some(&"16".parse().unwrap())
    );
    assert!(g.advertises_gpu());
    assert_eq!(g.vendor, Some(GpuVendor::Nvidia));
}

#[test]
fn amd_labels_without_amd_capacity() {
    let file = "amd-labelled-no-amd-gpu-capacity.txt";
    assert!(expected_diagnosis(file).contains("expect the vendor key amd.com/gpu"));
    let [n] = load(file).try_into().unwrap();
    let g = &n.gpu;
    assert_eq!(g.vendor, Some(GpuVendor::Amd));
    assert_eq!(g.vendor.map(GpuVendor::resource_name), Some("amd.com/gpu"));
    assert!(g.claims_gpu());
    let keys: Vec<&str> = g.evidence.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "beta.amd.com/gpu.cu-count.32",
            "beta.amd.com/gpu.device-id.67df",
            "beta.amd.com/gpu.family.VI",
            "beta.amd.com/gpu.simd-count.128",
            "beta.amd.com/gpu.vram.8G",
        ]
    );
    assert!(
        g.evidence
            .iter()
            .all(|e| e.source == GpuEvidenceSource::AmdLabeller)
    );
    assert_eq!(g.model.as_deref(), Some("VI"));
    assert_eq!(g.count, Some(1));
    assert!(!g.advertises_gpu());
    assert!(!n.allocatable.contains("amd.com/gpu") && !n.capacity.contains("amd.com/gpu"));
    assert_eq!(n.hostname.as_deref(), Some("node-01"));
}

#[test]
fn wide_table_runtime_and_kernel_drift() {
    let file = "nodes-wide-runtime-and-kernel-drift.txt";
    assert!(
        expected_diagnosis(file)
            .contains("container runtime differs (docker vs containerd) and kernel differs")
    );
    let nodes = load(file);
    assert_eq!(nodes.len(), 3);
    let all = NodePool::select(Default::default(), &nodes);
    let report = all.consistency();
    let rt = report
        .drift(NodeAttribute::ContainerRuntimeName)
        .expect("runtime drift");
    assert_eq!(rt.values["docker"], ["node-00", "node-01"]);
    assert_eq!(rt.values["containerd"], ["node-02"]);
    let major = report
        .drift(NodeAttribute::ContainerRuntimeMajor)
        .expect("major drift");
    assert_eq!(major.values["docker://20"], ["node-00", "node-01"]);
    assert_eq!(major.values["containerd://1"], ["node-02"]);
    let k = report.drift(NodeAttribute::Kernel).expect("kernel drift");
    assert_eq!(k.values["5.4.0-166-generic"], ["node-00"]);
    assert_eq!(k.values["5.4.0-144-generic"], ["node-01", "node-02"]);
    assert!(report.drift(NodeAttribute::OsImage).is_none());
    assert!(report.drift(NodeAttribute::KubeletMinor).is_none());
    // the two GPU workers alone still differ in runtime, not in kernel
    let workers: Vec<NodeInfo> = nodes
        .iter()
        .filter(|n| n.name != "node-00")
        .cloned()
        .collect();
    let w = NodePool::select(Default::default(), &workers).consistency();
    assert!(w.drift(NodeAttribute::ContainerRuntimeName).is_some());
    assert!(w.drift(NodeAttribute::Kernel).is_none());
}

#[test]
fn gpu_renamed_to_shared_by_sharing_config() {
    let file = "timeslicing-renamed-gpu-shared-mig.txt";
    assert!(expected_diagnosis(file).contains("renamed resource nvidia.com/gpu.shared"));
    let [n] = load(file).try_into().unwrap();
    let g = &n.gpu;
    assert_eq!(
        g.allocatable.get("nvidia.com/gpu.shared"),
        Some(&"128".parse().unwrap())
    );
    assert_eq!(
        g.capacity.get("nvidia.com/gpu.shared"),
        Some(&"128".parse().unwrap())
    );
    assert!(
        g.advertises_gpu(),
        "capacity exists, under the renamed name"
    );
    let empty: Vec<&str> = g.empty_advertised().iter().map(|n| n.as_str()).collect();
    assert_eq!(empty, ["nvidia.com/gpu"]);
    // a pod asking for nvidia.com/gpu does not fit
    let req: ResourceList = [("nvidia.com/gpu", "1".parse().unwrap())]
        .into_iter()
        .collect();
    let short = req.fits_within(&n.allocatable).unwrap_err();
    assert_eq!(
        short[0].to_string(),
        "Insufficient nvidia.com/gpu (requested 1, available 0)"
    );
    // 8 GPUs x 4 partitions x 4 replicas
    assert_eq!(
        g.allocatable.get("nvidia.com/gpu.shared").unwrap().value(),
        8 * 4 * 4
    );
    assert_eq!(n.allocatable.get("cpu"), Some(&"191450m".parse().unwrap()));
}
