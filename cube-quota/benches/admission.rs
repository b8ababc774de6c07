//! Admissions per second: 100,000 pods across 1,000 namespaces, each namespace with a
//! ResourceQuota and a LimitRange. Input is generated here.
//!
//! Times are the benchmark thread's CPU time (`support/cpu_clock.rs`; `CUBE_BENCH_CLOCK=wall`
//! for wall time). On a shared machine: `-- --warm-up-time 1 --measurement-time 3`.
//!
//! Groups:
//! - `baseline/pod_usage`: quota usage of one pod (the inner arithmetic), the ratio baseline;
//! - `admit/pod`: the full pipeline for one pod in a 1,000-namespace snapshot whose quotas carry
//!   `status` (as read from a live cluster);
//! - `admit/pod_computed_status`: the same with quotas without status, so usage is computed
//!   from the 100 pods already in the namespace (100,000 in the snapshot);
//! - `admit/100k_pods_1k_namespaces`: one Deployment of 100 replicas per namespace, 1,000
//!   namespaces: 100,000 admissions per iteration, each charging quota for the next;
//! - `namespace_admission/pod_2_containers_2_quotas_1_limitrange`: the fast path
//!   (`NamespaceAdmission::admit_pod`) for a pod with 2 containers in a namespace with 2
//!   quotas (with status) and a LimitRange, each admission charging both quotas: the target
//!   is at least 1,000,000 admissions per second per core;
//! - `namespace_admission/detailed`: the same pod through the detailed pipeline
//!   (`admit_pod_detailed`: every step, the stored pod, the charges) for comparison.

use std::hint::black_box;

use criterion::measurement::Measurement;
use criterion::{BenchmarkId, Criterion, Throughput};
use cube_model::objects::{
    Container, LimitRange, LimitRangeItem, ObjectMeta, Pod, ResourceQuota, ResourceQuotaSpec,
    ResourceQuotaStatus,
};
use cube_model::{ClusterSnapshot, Quantity, ResourceList};
use cube_quota::admission::NamespaceAdmission;
use cube_quota::quota::{QuotaAdmissionConfig, pod_usage};
use cube_quota::whatif::{AdmitOptions, Submission, Workload, WorkloadKind, admit};

const NAMESPACES: usize = 1_000;
const PODS_PER_NAMESPACE: usize = 100;

fn q(s: &str) -> Quantity {
    s.parse().expect("quantity")
}

fn rl(pairs: &[(&str, &str)]) -> ResourceList {
    pairs.iter().map(|(k, v)| (*k, q(v))).collect()
}

fn pod(ns: &str, i: usize) -> Pod {
    let mut p = Pod {
        metadata: ObjectMeta {
            name: format!("p{i}"),
            namespace: ns.into(),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut c = Container {
        name: "main".into(),
        ..Default::default()
    };
    c.resources.requests = rl(&[("cpu", "100m"), ("memory", "128Mi")]);
    c.resources.limits = rl(&[("cpu", "200m"), ("memory", "256Mi")]);
    if i.is_multiple_of(10) {
        c.resources.requests.insert("nvidia.com/gpu", q("1"));
        c.resources.limits.insert("nvidia.com/gpu", q("1"));
    }
    p.spec.containers.push(c);
    p.spec.init_containers.push(Container {
        name: "sidecar".into(),
        restart_policy: Some("Always".into()),
        ..Default::default()
    });
    p
}

fn snapshot(with_status: bool, existing_pods: bool) -> ClusterSnapshot {
    let mut s = ClusterSnapshot::default();
    for n in 0..NAMESPACES {
        let ns = format!("team-{n}");
        let hard = rl(&[
            ("requests.cpu", "1000"),
            ("requests.memory", "2000Gi"),
            ("limits.cpu", "2000"),
            ("limits.memory", "4000Gi"),
            ("requests.nvidia.com/gpu", "1000"),
            ("pods", "100000"),
        ]);
        s.resource_quotas.push(ResourceQuota {
            metadata: ObjectMeta {
                name: "compute".into(),
                namespace: ns.clone(),
                ..Default::default()
            },
            spec: ResourceQuotaSpec {
                hard: hard.clone(),
                ..Default::default()
            },
            status: with_status.then(|| ResourceQuotaStatus {
                hard: hard.clone(),
                used: rl(&[
                    ("requests.cpu", "10"),
                    ("requests.memory", "12800Mi"),
                    ("limits.cpu", "20"),
                    ("limits.memory", "25600Mi"),
                    ("requests.nvidia.com/gpu", "10"),
                    ("pods", "100"),
                ]),
            }),
        });
        let mut lr = LimitRange {
            metadata: ObjectMeta {
                name: "defaults".into(),
                namespace: ns.clone(),
                ..Default::default()
            },
            ..Default::default()
        };
        lr.spec.limits.push(LimitRangeItem {
            type_: "Container".into(),
            max: rl(&[("cpu", "8"), ("memory", "32Gi")]),
            default: rl(&[("cpu", "500m"), ("memory", "512Mi")]),
            default_request: rl(&[("cpu", "250m"), ("memory", "256Mi")]),
            ..Default::default()
        });
        s.limit_ranges.push(lr);
        if existing_pods {
            for i in 0..PODS_PER_NAMESPACE {
                s.pods.push(pod(&ns, i));
            }
        }
    }
    s
}

fn workload(ns: &str, replicas: u32) -> Submission {
    let p = pod(ns, 0);
    Submission::Workload(Box::new(Workload {
        kind: WorkloadKind::Deployment,
        name: "trainer".into(),
        namespace: ns.into(),
        replicas: Some(replicas),
        template: cube_model::objects::PodTemplateSpec {
            metadata: p.metadata,
            spec: p.spec,
        },
    }))
}

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let opts = AdmitOptions::default();
    let one = pod("team-1", 1);

    let mut g = c.benchmark_group("baseline");
    g.throughput(Throughput::Elements(1));
    g.bench_function("pod_usage", |b| b.iter(|| pod_usage(black_box(&one), None)));
    g.finish();

    let with_status = snapshot(true, true);
    let without_status = snapshot(false, true);
    let sub = Submission::pod(one.clone());
    let mut g = c.benchmark_group("admit");
    g.throughput(Throughput::Elements(1));
    g.bench_function("pod", |b| {
        b.iter(|| admit(black_box(&sub), "team-1", &with_status, &opts))
    });
    g.bench_function("pod_computed_status", |b| {
        b.iter(|| admit(black_box(&sub), "team-1", &without_status, &opts))
    });
    g.sample_size(10);
    g.throughput(Throughput::Elements(
        (NAMESPACES * PODS_PER_NAMESPACE) as u64,
    ));
    let subs: Vec<(String, Submission)> = (0..NAMESPACES)
        .map(|n| {
            let ns = format!("team-{n}");
            let w = workload(&ns, PODS_PER_NAMESPACE as u32);
            (ns, w)
        })
        .collect();
    g.bench_with_input(
        BenchmarkId::new("100k_pods_1k_namespaces", "status"),
        &with_status,
        |b, snap| {
            b.iter(|| {
                let mut admitted = 0u32;
                for (ns, w) in &subs {
                    admitted += admit(w, ns, snap, &opts).admitted;
                }
                assert_eq!(admitted as usize, NAMESPACES * PODS_PER_NAMESPACE);
                admitted
            })
        },
    );
    g.finish();

    // The fast path: 2 containers, 2 quotas, 1 LimitRange.
    let mut two = pod("team-2", 2);
    two.spec.init_containers.clear();
    let mut second = two.spec.containers[0].clone();
    second.name = "sidecar".into();
    second.resources.limits = ResourceList::new();
    two.spec.containers.push(second);
    let mut snap = snapshot(true, false);
    let mut gpu = snap.resource_quotas[2].clone();
    gpu.metadata.name = "gpu".into();
    let huge = rl(&[
        ("requests.nvidia.com/gpu", "1000000"),
        ("count/pods", "100000000"),
    ]);
    gpu.spec.hard = huge.clone();
    gpu.status = Some(ResourceQuotaStatus {
        hard: huge,
        used: rl(&[("requests.nvidia.com/gpu", "0"), ("count/pods", "0")]),
    });
    snap.resource_quotas.push(gpu);
    for q in &mut snap.resource_quotas {
        if q.metadata.name == "compute" && q.metadata.namespace == "team-2" {
            let huge = rl(&[
                ("requests.cpu", "100000000"),
                ("requests.memory", "100000Ti"),
                ("limits.cpu", "100000000"),
                ("limits.memory", "100000Ti"),
                ("pods", "100000000"),
            ]);
            q.spec.hard = huge.clone();
            if let Some(st) = q.status.as_mut() {
                st.hard = huge;
                st.used.remove("requests.nvidia.com/gpu");
            }
        }
    }
    let config = QuotaAdmissionConfig::default();
    let ns = NamespaceAdmission::new(&snap, "team-2", &config, None);
    {
        let mut check = ns.clone();
        assert!(check.admit_pod(&two).is_ok(), "the bench pod is admitted");
        assert_eq!(check.fast_admissions(), 1, "through the fast path");
        assert_eq!(check.quotas().len(), 2);
    }
    let mut g = c.benchmark_group("namespace_admission");
    g.throughput(Throughput::Elements(1));
    g.bench_function("pod_2_containers_2_quotas_1_limitrange", |b| {
        let mut state = ns.clone();
        b.iter(|| state.admit_pod(black_box(&two)).is_ok())
    });
    g.bench_function("detailed", |b| {
        let mut state = ns.clone();
        b.iter(|| {
            state
                .admit_pod_detailed(black_box(two.clone()))
                .rejection
                .is_none()
        })
    });
    g.finish();
}

#[path = "support/cpu_clock.rs"]
mod cpu_clock;

fn main() {
    let config = Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(4));
    cpu_clock::run_bench!(config, bench);
}
