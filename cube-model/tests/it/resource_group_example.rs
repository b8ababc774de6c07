//! The documented example `examples-data/resource-groups.yaml` loads, validates, and round-trips.

use cube_model::ResourceGroup;
use cube_model::group::GroupProblemKind;
use cube_model::objects::Node;
use cube_model::snapshot::ClusterSnapshot;

const EXAMPLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples-data/resource-groups.yaml"
));

#[test]
fn example_loads_and_validates() {
    let g = ResourceGroup::from_yaml(EXAMPLE).unwrap();
    assert_eq!(g.name, "team-vision");
    assert_eq!(g.members.len(), 3);
    assert_eq!(g.quota.len(), 2);
    assert_eq!(
        g.namespaces[1].buckets["high-priority"].get("requests.cpu"),
        Some(&"10".parse().unwrap())
    );
    assert_eq!(
        g.placement.cluster_selector.as_deref(),
        Some("env=prod,location in (beijing)")
    );
    assert_eq!(g.validate(None), Ok(()));

    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(ResourceGroup::from_json(&json).unwrap(), g);
    let yaml = serde_saphyr::to_string(&g).unwrap();
    assert_eq!(ResourceGroup::from_yaml(&yaml).unwrap(), g);
}

#[test]
fn example_against_a_snapshot_without_the_pool() {
    let g = ResourceGroup::from_yaml(EXAMPLE).unwrap();
    let mut node = Node::default();
    node.metadata.name = "gpu-01".into();
    node.metadata.labels = [("org", "vision"), ("gpu", "true"), ("gpu-type", "T4")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    node.status.allocatable = [("nvidia.com/gpu", "4".parse().unwrap())]
        .into_iter()
        .collect();
    let mut snap = ClusterSnapshot::default();
    snap.nodes.push(node);
    // the only vision node has a T4, which the affinity (A100, V100) excludes: nothing advertises GPUs
    let problems = g.validate(Some(&snap)).unwrap_err();
    assert!(
        problems
            .iter()
            .all(|p| p.kind == GroupProblemKind::GpuNotAdvertised),
        "{problems:?}"
    );
    let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "gpuResources[0]",
            "quota[0].hard[requests.nvidia.com/gpu]",
            "quota[1].hard[requests.nvidia.com/gpu]"
        ]
    );
    snap.nodes[0]
        .metadata
        .labels
        .insert("gpu-type".into(), "A100".into());
    assert_eq!(g.validate(Some(&snap)), Ok(()));
}
