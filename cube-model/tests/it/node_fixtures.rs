//! Real node fixtures (`testdata/fixtures/nodes/*.yaml|json`): load them and assert the GPU facts
//! each `.meta.json` names. The `describe node` `.txt` fixtures are read by the snapshot loader.

use crate::support;

use std::path::{Path, PathBuf};

use cube_model::Quantity;
use cube_model::node::{GpuEvidenceSource, GpuVendor, NodeAttribute, NodeInfo};
use cube_model::objects::Node;
use support::{NODES, expected_diagnosis};

fn fixtures_dir() -> PathBuf {
    Path::new(NODES).to_path_buf()
}

/// Minimal test-side reader: one YAML/JSON document, a Node or a List holding Nodes.
fn load_nodes(file: &str) -> Vec<NodeInfo> {
    let path = fixtures_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: serde_json::Value = if file.ends_with(".json") {
        serde_json::from_str(&text).unwrap()
    } else {
        serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
    };
    let items = match value.get("kind").and_then(|k| k.as_str()) {
        Some("List") => value["items"].as_array().cloned().unwrap_or_default(),
        _ => vec![value],
    };
    items
        .into_iter()
        .filter(|i| i.get("kind").and_then(|k| k.as_str()) == Some("Node"))
        .map(|i| {
            let node: Node = serde_json::from_value(i).unwrap_or_else(|e| panic!("{file}: {e}"));
            NodeInfo::from_node(&node)
        })
        .collect()
}

fn q(s: &str) -> Quantity {
    s.parse().unwrap()
}

#[test]
fn every_structured_node_fixture_is_covered() {
    let mut files: Vec<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".yaml") || n.ends_with(".yml") || n.ends_with(".json"))
        .filter(|n| !n.ends_with(".meta.json"))
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "a100-mig-mixed-gpu-and-mig-allocatable.yaml",
            "g4dn-t4-nfd-0302-label.yaml",
            "gpu-capacity16-allocatable0.yaml",
            "timeslicing-config-not-applied.yaml",
        ],
        "a new node fixture needs its own test below"
    );
    for f in &files {
        assert!(!load_nodes(f).is_empty(), "{f} has a node");
    }
}

#[test]
fn a100_mig_mixed_keeps_each_gpu_resource_separate() {
    let file = "a100-mig-mixed-gpu-and-mig-allocatable.yaml";
    assert!(expected_diagnosis(file).contains("never sum mig-* into nvidia.com/gpu"));
    let [n] = load_nodes(file).try_into().unwrap();
    let g = &n.gpu;
    assert_eq!(g.mig_strategy.as_deref(), Some("mixed"));
    assert_eq!(g.vendor, Some(GpuVendor::Nvidia));
    // every GPU name kept apart, the empty profile included; never summed
    let alloc: Vec<(String, String)> = g
        .allocatable
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(
        alloc,
        [
            ("nvidia.com/gpu".to_owned(), "2".to_owned()),
            ("nvidia.com/mig-1g.10gb".to_owned(), "6".to_owned()),
            ("nvidia.com/mig-2g.20gb".to_owned(), "4".to_owned()),
            ("nvidia.com/mig-3g.40gb".to_owned(), "0".to_owned()),
        ]
    );
    assert!(
        g.has_full_gpu_and_mig(),
        "mixed strategy exposes both full GPUs and MIG slices"
    );
    assert_eq!(
        g.empty_advertised()
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>(),
        ["nvidia.com/mig-3g.40gb"]
    );
    // third-party resources are carried through untouched, but are not GPU names
    assert_eq!(n.allocatable.get("cerit.io/gpu-count"), Some(&q("2")));
    assert_eq!(n.allocatable.get("cerit.io/gpu-mem"), Some(&q("0")));
    assert!(!g.allocatable.contains("cerit.io/gpu-count"));
    assert!(g.claims_gpu());
    assert!(g.advertises_gpu());
    // capacity was not posted: kept empty, allocatable stays what the node reported
    assert!(n.capacity.is_empty());
    assert!(g.capacity.is_empty());
    assert_eq!(n.kernel_version, "6.2.0-37-generic");
    assert_eq!(n.container_runtime.name, "containerd");
    assert_eq!(n.container_runtime.version, "1.7.7");
    assert_eq!(
        n.attribute(NodeAttribute::KubeletMinor).as_deref(),
        Some("v1.27")
    );
    assert_eq!(n.allocatable.get("memory"), Some(&q("519659388Ki")));
}

#[test]
fn g4dn_nfd_class_prefixed_label_claims_nvidia_gpu() {
    let file = "g4dn-t4-nfd-0302-label.yaml";
    assert!(expected_diagnosis(file).contains("vendor 10de"));
    let [n] = load_nodes(file).try_into().unwrap();
    let g = &n.gpu;
    assert_eq!(n.hostname.as_deref(), Some("node-01"));
    assert!(g.claims_gpu());
    assert_eq!(g.vendor, Some(GpuVendor::Nvidia));
    let ev: Vec<(&str, GpuEvidenceSource)> = g
        .evidence
        .iter()
        .map(|e| (e.key.as_str(), e.source))
        .collect();
    // pci-0300_1d0f is Amazon's VGA device, not a GPU; the g4dn instance type is a GPU family
    // (issue 8: instance types are GPU evidence too)
    assert_eq!(
        ev,
        [
            (
                "beta.kubernetes.io/instance-type",
                GpuEvidenceSource::InstanceType
            ),
            (
                "feature.node.kubernetes.io/pci-0302_10de.present",
                GpuEvidenceSource::NodeFeatureDiscovery
            )
        ]
    );
    assert!(
        !n.labels
            .contains_key("feature.node.kubernetes.io/pci-10de.present")
    );
    assert!(!g.advertises_gpu());
    assert!(g.resource_names().is_empty());
}

#[test]
fn capacity16_allocatable0_is_unhealthy_not_missing() {
    let file = "gpu-capacity16-allocatable0.yaml";
    assert!(
        expected_diagnosis(file)
            .contains("Capacity math must use allocatable (0), not capacity (16)")
    );
    let [n] = load_nodes(file).try_into().unwrap();
    let g = &n.gpu;
    assert_eq!(g.capacity.get("nvidia.com/gpu"), Some(&q("16")));
    assert_eq!(g.allocatable.get("nvidia.com/gpu"), Some(&q("0")));
    assert!(!g.advertises_gpu());
    let unhealthy = g.unhealthy();
    assert_eq!(unhealthy.len(), 1);
    assert_eq!(unhealthy[0].0.as_str(), "nvidia.com/gpu");
    assert_eq!(*unhealthy[0].1, q("16"));
    assert!(unhealthy[0].2.is_zero());
    assert_eq!(
        g.vendor,
        Some(GpuVendor::Nvidia),
        "vendor from the advertised resource"
    );
    assert!(!g.claims_gpu(), "no label in the report claims a GPU");
    assert_eq!(
        n.addresses_of("InternalIP").collect::<Vec<_>>(),
        ["10.0.0.11"]
    );
    assert_eq!(n.kubelet_version, "v1.10.2");
    assert_eq!(n.allocatable.get("cpu"), Some(&q("48")));
}

#[test]
fn timeslicing_not_applied_advertises_one_gpu() {
    let file = "timeslicing-config-not-applied.yaml";
    assert!(expected_diagnosis(file).contains("Expected capacity with the config applied: 4"));
    let nodes = load_nodes(file);
    assert_eq!(nodes.len(), 1, "the ConfigMap in the List is not a node");
    let g = &nodes[0].gpu;
    assert_eq!(g.capacity.get("nvidia.com/gpu"), Some(&q("1")));
    // allocatable absent: API defaulting copies capacity
    assert_eq!(g.allocatable.get("nvidia.com/gpu"), Some(&q("1")));
    assert_eq!(
        g.replicas, None,
        "no nvidia.com/gpu.replicas label: sharing not in effect"
    );
    assert_eq!(g.sharing_strategy, None);
}
