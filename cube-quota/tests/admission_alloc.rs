//! Admitting a pod through the fast path allocates nothing on the heap (issue 12: "no
//! allocation on the common path"); verdicts of a fit over every node allocate only their
//! result vector. Its own test binary with one test, so no other thread allocates while it
//! measures.

use cube_model::objects::{
    Container, LimitRange, LimitRangeItem, ObjectMeta, Pod, ResourceQuota, ResourceQuotaSpec,
    ResourceQuotaStatus,
};
use cube_model::{ClusterSnapshot, Quantity, ResourceList};
use cube_quota::admission::NamespaceAdmission;
use cube_quota::quota::QuotaAdmissionConfig;
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

fn rl(pairs: &[(&str, &str)]) -> ResourceList {
    pairs
        .iter()
        .map(|(k, v)| (*k, v.parse::<Quantity>().expect("quantity")))
        .collect()
}

fn quota(name: &str, hard: ResourceList, used: ResourceList) -> ResourceQuota {
    ResourceQuota {
        metadata: ObjectMeta {
            name: name.into(),
            namespace: "team".into(),
            ..ObjectMeta::default()
        },
        spec: ResourceQuotaSpec {
            hard: hard.clone(),
            ..ResourceQuotaSpec::default()
        },
        status: Some(ResourceQuotaStatus { hard, used }),
    }
}

#[test]
fn fast_path_admission_allocates_nothing() {
    let mut s = ClusterSnapshot::default();
    s.resource_quotas.push(quota(
        "compute",
        rl(&[
            ("requests.cpu", "1000000"),
            ("limits.cpu", "1000000"),
            ("requests.memory", "100000Ti"),
            ("limits.memory", "100000Ti"),
            ("pods", "1000000"),
        ]),
        rl(&[
            ("requests.cpu", "10"),
            ("limits.cpu", "20"),
            ("requests.memory", "10Gi"),
            ("limits.memory", "20Gi"),
            ("pods", "10"),
        ]),
    ));
    s.resource_quotas.push(quota(
        "gpu",
        rl(&[
            ("requests.nvidia.com/gpu", "100000"),
            ("count/pods", "1000000"),
        ]),
        rl(&[("requests.nvidia.com/gpu", "0"), ("count/pods", "10")]),
    ));
    let mut lr = LimitRange {
        metadata: ObjectMeta {
            name: "defaults".into(),
            namespace: "team".into(),
            ..ObjectMeta::default()
        },
        ..LimitRange::default()
    };
    lr.spec.limits.push(LimitRangeItem {
        type_: "Container".into(),
        max: rl(&[("cpu", "8"), ("memory", "32Gi")]),
        default: rl(&[("cpu", "500m"), ("memory", "512Mi")]),
        default_request: rl(&[("cpu", "250m"), ("memory", "256Mi")]),
        ..LimitRangeItem::default()
    });
    s.limit_ranges.push(lr);
    let mut pod = Pod::default();
    pod.metadata.namespace = "team".into();
    pod.metadata.name = "train-0".into();
    let mut main = Container {
        name: "main".into(),
        ..Container::default()
    };
    main.resources.requests = rl(&[("cpu", "1"), ("memory", "2Gi"), ("nvidia.com/gpu", "1")]);
    main.resources.limits = rl(&[("cpu", "2"), ("memory", "4Gi"), ("nvidia.com/gpu", "1")]);
    let mut side = Container {
        name: "sidecar".into(),
        ..Container::default()
    };
    side.resources.requests = rl(&[("cpu", "100m")]);
    pod.spec.containers = vec![main, side];

    let mut ns = NamespaceAdmission::new(&s, "team", &QuotaAdmissionConfig::default(), None);
    // warm-up: the name facts are computed once per resource name
    assert!(ns.admit_pod(&pod).is_ok());
    // let the test harness's main thread finish printing the test name (it allocates)
    std::thread::sleep(std::time::Duration::from_millis(100));
    let before = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    for _ in 0..1000 {
        assert!(ns.admit_pod(std::hint::black_box(&pod)).is_ok());
    }
    let peak = ALLOC.peak_usage();
    assert_eq!(ns.fast_admissions(), 1001);
    assert_eq!(
        peak,
        before,
        "the fast path allocated {} bytes",
        peak.saturating_sub(before)
    );
    let used = &ns.quotas()[0].used;
    assert_eq!(
        used.get("requests.cpu").map(ToString::to_string).as_deref(),
        Some("1111100m")
    );
    assert_eq!(
        used.get("pods").map(ToString::to_string).as_deref(),
        Some("1011")
    );
    fit_verdicts_allocate_only_their_result();
}

/// Per-node verdicts over an index allocate their result vector (one `NodeVerdict` per node)
/// and nothing per node: no reason texts, no cloned names or taints, whatever the number of
/// nodes, with taints, tolerations and a node selector to check. (Part of the one test of
/// this binary: see the module docs.)
fn fit_verdicts_allocate_only_their_result() {
    use cube_model::objects::{Node, NodeCondition, Taint, Toleration};
    use cube_quota::fit::{FitOptions, NodeUsage, NodeVerdict};

    let mut s = ClusterSnapshot::default();
    for i in 0..2000 {
        let mut n = Node::default();
        n.metadata.name = format!("n{i}");
        let pool = if i % 2 == 0 { "gpu" } else { "cpu" };
        n.metadata.labels.insert("pool".into(), pool.into());
        let mut alloc = rl(&[("cpu", "8"), ("memory", "32Gi"), ("pods", "110")]);
        if i % 2 == 0 {
            alloc.insert("nvidia.com/gpu", "4".parse().expect("quantity"));
            n.spec.taints.push(Taint {
                key: "nvidia.com/gpu".into(),
                effect: "NoSchedule".into(),
                ..Taint::default()
            });
        }
        n.status.allocatable = alloc.clone();
        n.status.capacity = alloc;
        n.status.conditions.push(NodeCondition {
            type_: "Ready".into(),
            status: "True".into(),
            ..NodeCondition::default()
        });
        s.nodes.push(n);
    }
    let usage = NodeUsage::build(&s, &FitOptions::default());
    let mut pod = Pod::default();
    pod.metadata.name = "train".into();
    pod.metadata.namespace = "team".into();
    pod.spec.node_selector.insert("pool".into(), "gpu".into());
    pod.spec.tolerations.push(Toleration {
        key: "nvidia.com/gpu".into(),
        operator: "Exists".into(),
        ..Toleration::default()
    });
    pod.spec.containers.push(Container {
        name: "main".into(),
        resources: cube_model::objects::ResourceRequirements {
            requests: rl(&[("cpu", "6"), ("nvidia.com/gpu", "8")]),
            limits: ResourceList::new(),
        },
        ..Container::default()
    });
    let demand = usage.demand(&s, &pod);
    // warm-up, and the answer: every node refuses (a selector, a taint or too few GPUs)
    let warm = usage.verdicts_of(&s, &demand);
    assert!(warm.iter().all(|v| !v.fits()));
    std::thread::sleep(std::time::Duration::from_millis(100));
    let before = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    let verdicts = usage.verdicts_of(&s, std::hint::black_box(&demand));
    let peak = ALLOC.peak_usage();
    assert_eq!(verdicts, warm);
    assert_eq!(
        peak - before,
        s.nodes.len() * std::mem::size_of::<NodeVerdict>(),
        "verdicts allocated more than their result vector"
    );
    drop(verdicts);
    // the first node that fits allocates only its list of needs, not per node
    let before = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    assert_eq!(usage.first_fit(&s, std::hint::black_box(&demand), 0), None);
    assert!(
        ALLOC.peak_usage() - before <= 256,
        "first_fit allocated {} bytes",
        ALLOC.peak_usage() - before
    );
}
