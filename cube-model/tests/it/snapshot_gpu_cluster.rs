//! The API-server-captured GPU cluster (`testdata/fixtures/apiserver/snapshot-gpu-cluster.json`
//! and `.yaml`): the node, pool and quota-key facts its meta lists as planted problems.

use std::path::Path;

use cube_model::node::{GpuVendor, NodeAttribute, NodeInfo};
use cube_model::{ClusterSnapshot, NodePool, ResourceName};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/fixtures/apiserver"
);

fn snapshot(file: &str) -> ClusterSnapshot {
    let snap = ClusterSnapshot::load_files([Path::new(DIR).join(file)]);
    assert!(snap.problems.is_empty(), "{:?}", snap.problems);
    snap
}

fn nodes(snap: &ClusterSnapshot) -> Vec<NodeInfo> {
    snap.nodes.iter().map(NodeInfo::from_node).collect()
}

fn node<'a>(all: &'a [NodeInfo], name: &str) -> &'a NodeInfo {
    all.iter()
        .find(|n| n.name == name)
        .unwrap_or_else(|| panic!("no node {name}"))
}

fn planted(file: &str) -> Vec<String> {
    let meta = Path::new(DIR).join(format!("{file}.meta.json"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(meta).unwrap()).unwrap();
    v["planted_problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

fn check(file: &str) {
    let problems = planted(file);
    let snap = snapshot(file);
    let all = nodes(&snap);

    // gpu-node-03: labels claim 8 H100s, nothing advertised; driver 535 vs 550
    assert!(problems[0].contains("gpu-node-03 carries GPU labels"));
    let g3 = node(&all, "gpu-node-03");
    assert!(g3.gpu.claims_gpu());
    let keys: Vec<&str> = g3.gpu.evidence.iter().map(|e| e.key.as_str()).collect();
    for k in [
        "nvidia.com/gpu.present",
        "nvidia.com/gpu.product",
        "nvidia.com/gpu.count",
        "feature.node.kubernetes.io/pci-10de.present",
    ] {
        assert!(keys.contains(&k), "{k} in {keys:?}");
    }
    assert!(!g3.gpu.advertises_gpu());
    assert!(g3.gpu.resource_names().is_empty());
    assert_eq!(g3.gpu.count, Some(8));
    assert_eq!(g3.gpu.vendor, Some(GpuVendor::Nvidia));
    assert_eq!(g3.gpu.model.as_deref(), Some("NVIDIA-H100-80GB-HBM3"));

    let gpu_pool = NodePool::select_str("cube.example/pool=gpu-training", &all).unwrap();
    assert_eq!(
        gpu_pool.node_names().collect::<Vec<_>>(),
        ["gpu-node-01", "gpu-node-02", "gpu-node-03"]
    );
    let report = gpu_pool.consistency();
    let drv = report
        .drift(NodeAttribute::GpuDriver)
        .expect("driver drift");
    assert_eq!(drv.values["550"], ["gpu-node-01", "gpu-node-02"]);
    assert_eq!(drv.values["535"], ["gpu-node-03"]);
    assert!(report.drift(NodeAttribute::GpuModel).is_some());

    // cpu-node-03 not ready, tainted not-ready
    assert!(problems[2].contains("cpu-node-03 Ready=False"));
    let c3 = node(&all, "cpu-node-03");
    assert!(!c3.is_ready());
    let ready = c3.ready.as_ref().unwrap();
    assert_eq!(ready.reason, "KubeletNotReady");
    assert!(
        ready.message.contains("cni plugin not initialized"),
        "{}",
        ready.message
    );
    assert!(ready.last_heartbeat_time.is_some());
    assert!(
        c3.taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/not-ready" && t.effect == "NoSchedule")
    );

    // runtime/kernel drift across the cluster's real nodes
    assert!(problems[3].starts_with("Runtime/kernel drift"));
    let real: Vec<NodeInfo> = all
        .iter()
        .filter(|n| n.name != "fake-gpu-node")
        .cloned()
        .collect();
    let whole = NodePool::select(Default::default(), &real).consistency();
    let k = whole.drift(NodeAttribute::Kernel).unwrap();
    assert_eq!(
        k.values["5.15.0-105-generic"],
        ["cpu-node-01", "cpu-node-02", "gpu-node-01"]
    );
    assert_eq!(
        k.values["6.8.0-45-generic"],
        ["cpu-node-03", "gpu-node-02", "gpu-node-03"]
    );
    assert!(
        whole.drift(NodeAttribute::ContainerRuntimeName).is_none(),
        "all containerd"
    );
    let rt = whole.drift(NodeAttribute::ContainerRuntimeMajor);
    assert!(rt.is_none(), "1.7.12 and 1.6.28 share major 1");

    // gpu-node-01 over-committed 10 vs 8; gpu-node-02 4 free; gpu-node-03 asked for a GPU it lacks
    assert!(problems[4].contains("4+4+2 = 10"));
    let usage = gpu_pool.usage(&snap.pods).unwrap();
    let u1 = &usage.nodes[0];
    assert_eq!(
        u1.requested.get("nvidia.com/gpu"),
        Some(&"10".parse().unwrap())
    );
    assert_eq!(u1.free.get("nvidia.com/gpu"), Some(&"-2".parse().unwrap()));
    assert_eq!(
        u1.overcommitted()
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>(),
        ["nvidia.com/gpu"]
    );
    assert_eq!(
        usage.nodes[1].free.get("nvidia.com/gpu"),
        Some(&"4".parse().unwrap())
    );
    assert!(problems[5].contains("vision-eval (1 GPU) is bound to gpu-node-03"));
    assert!(
        usage.nodes[2]
            .overcommitted()
            .iter()
            .any(|n| n.as_str() == "nvidia.com/gpu")
    );
    // a 6-GPU pod fits nowhere (fragmentation)
    assert!(problems[6].contains("requests 6 GPUs"));
    let six: cube_model::ResourceList = [("nvidia.com/gpu", "6".parse().unwrap())]
        .into_iter()
        .collect();
    assert!(
        usage
            .nodes
            .iter()
            .all(|n| six.fits_within(&n.free).is_err())
    );
    assert_eq!(
        usage.free.get("nvidia.com/gpu"),
        Some(&"4".parse().unwrap())
    );

    // the bare quota key is accepted but never tracked
    assert!(problems[7].contains("bare key nvidia.com/gpu"));
    let legacy = snap
        .resource_quotas
        .iter()
        .find(|q| q.metadata.name == "gpu-legacy")
        .unwrap();
    let untracked: Vec<&ResourceName> = legacy
        .spec
        .hard
        .names()
        .filter(|n| !n.is_tracked_by_pod_quota())
        .collect();
    assert_eq!(
        untracked.iter().map(|n| n.as_str()).collect::<Vec<_>>(),
        ["nvidia.com/gpu"]
    );
    assert!(
        legacy
            .spec
            .hard
            .names()
            .all(|n| n.validate_for_quota().is_ok())
    );
}

#[test]
fn json_dump_facts() {
    check("snapshot-gpu-cluster.json");
}

#[test]
fn yaml_dump_facts() {
    check("snapshot-gpu-cluster.yaml");
}
