//! Fit of one pod over 5,000 nodes holding 150,000 bound pods (Kubernetes' published limits).
//!
//! Times are the benchmark thread's CPU time (`support/cpu_clock.rs`; `CUBE_BENCH_CLOCK=wall`
//! for wall time). On a shared machine: `-- --warm-up-time 1 --measurement-time 3`.
//!
//! Benches (group `fit_5000_nodes_150000_pods`):
//! - `baseline_pod_requests_all`: the effective requests of all 150,000 pods (the unavoidable
//!   per-pod work any fit over a snapshot does once): the ratio baseline of this run;
//! - `index_build`: building the `NodeUsage` index (target < 50 ms);
//! - `fit_verdicts`: one fit of a pod over every node, per-node verdicts without texts, as
//!   the scheduling step and the diagnosis use it (target < 0.5 ms);
//! - `first_fit`: the first node that fits, through the free-resource tree;
//! - `fit_report`: one fit with every node's reasons, shortfalls and the GPU picture;
//! - `fit_and_preempt_indexed`: fit, preemption on every node and the FailedScheduling text;
//! - `fit_without_index`: `fit_pod` (index build plus report);
//! - `whatif_deployment_1000_replicas`: `admit` of a 1,000-replica Deployment with the
//!   `FitScheduler`, the call `pod_admit` makes (target < 1 s).

use std::hint::black_box;
use std::time::Duration;

use criterion::Criterion;
use criterion::measurement::Measurement;
use cube_model::objects::{Container, Node, NodeCondition, Pod, ResourceRequirements, Taint};
use cube_model::{ClusterSnapshot, Format, Quantity, ResourceList};
use cube_quota::fit::{FitOptions, NodeUsage, fit_pod};
use cube_quota::preemption::{FitScheduler, failed_scheduling_message, preempt};
use cube_quota::requests::{PodResourcesOptions, pod_requests};
use cube_quota::whatif::{AdmitOptions, Submission, Workload, WorkloadKind, admit};

const NODES: usize = 5_000;
const PODS: usize = 150_000;

fn q(v: i64) -> Quantity {
    Quantity::from_value(v, Format::DecimalSI)
}

fn generate() -> ClusterSnapshot {
    let mut s = ClusterSnapshot::default();
    for i in 0..NODES {
        let mut n = Node::default();
        n.metadata.name = format!("node-{i:05}");
        n.metadata.labels.insert(
            "pool".into(),
            if i.is_multiple_of(5) { "gpu" } else { "cpu" }.into(),
        );
        let mut alloc: ResourceList = [
            ("cpu", Quantity::from_millis(63_500)),
            ("memory", Quantity::from_value(256 << 30, Format::BinarySI)),
            ("ephemeral-storage", q(1_000_000_000_000)),
            ("pods", q(110)),
        ]
        .into_iter()
        .collect();
        if i.is_multiple_of(5) {
            alloc.insert("nvidia.com/gpu", q(8));
            n.spec.taints.push(Taint {
                key: "nvidia.com/gpu".into(),
                value: "present".into(),
                effect: "NoSchedule".into(),
                ..Taint::default()
            });
        }
        n.status.capacity = alloc.clone();
        n.status.allocatable = alloc;
        n.status.conditions.push(NodeCondition {
            type_: "Ready".into(),
            status: "True".into(),
            ..NodeCondition::default()
        });
        s.nodes.push(n);
    }
    for i in 0..PODS {
        let node = i % NODES;
        let mut p = Pod::default();
        p.metadata.namespace = format!("ns-{}", i % 1000);
        p.metadata.name = format!("pod-{i}");
        p.spec.node_name = format!("node-{node:05}");
        p.spec.priority = Some((i % 3) as i32 * 100);
        p.status.phase = "Running".into();
        let mut requests: ResourceList = [
            ("cpu", Quantity::from_millis(250 + (i % 8) as i64 * 250)),
            (
                "memory",
                Quantity::from_value(((i % 16) as i64 + 1) << 28, Format::BinarySI),
            ),
        ]
        .into_iter()
        .collect();
        if node.is_multiple_of(5) && i.is_multiple_of(4) {
            requests.insert("nvidia.com/gpu", q(1 + (i % 2) as i64));
        }
        p.spec.containers.push(Container {
            name: "main".into(),
            resources: ResourceRequirements {
                requests: requests.clone(),
                limits: requests,
            },
            ..Container::default()
        });
        s.pods.push(p);
    }
    s
}

fn pending() -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = "team".into();
    p.metadata.name = "train".into();
    p.spec.priority = Some(1000);
    let requests: ResourceList = [
        ("cpu", q(16)),
        ("memory", Quantity::from_value(64 << 30, Format::BinarySI)),
        ("nvidia.com/gpu", q(8)),
    ]
    .into_iter()
    .collect();
    p.spec.containers.push(Container {
        name: "main".into(),
        resources: ResourceRequirements {
            requests,
            limits: ResourceList::new(),
        },
        ..Container::default()
    });
    p.spec.tolerations.push(cube_model::objects::Toleration {
        key: "nvidia.com/gpu".into(),
        operator: "Exists".into(),
        ..Default::default()
    });
    p
}

fn bench<M: Measurement>(c: &mut Criterion<M>) {
    let snap = generate();
    let pod = pending();
    let opts = FitOptions::default();
    let usage = NodeUsage::build(&snap, &opts);
    let mut g = c.benchmark_group("fit_5000_nodes_150000_pods");
    g.sample_size(10);
    g.bench_function("baseline_pod_requests_all", |b| {
        let ro = PodResourcesOptions::default();
        b.iter(|| {
            let mut n = 0usize;
            for p in &snap.pods {
                n += pod_requests(black_box(p), &ro).len();
            }
            n
        })
    });
    g.bench_function("index_build", |b| {
        b.iter(|| NodeUsage::build(black_box(&snap), &opts))
    });
    g.bench_function("fit_verdicts", |b| {
        b.iter(|| usage.verdicts(&snap, black_box(&pod)).nodes.len())
    });
    g.bench_function("first_fit", |b| {
        b.iter(|| {
            let d = usage.demand(&snap, black_box(&pod));
            usage.first_fit(&snap, &d, 0)
        })
    });
    g.bench_function("fit_report", |b| {
        b.iter(|| usage.fit(&snap, black_box(&pod)))
    });
    // A pod no node fits (60 cores; at least 7.5 of 63.5 are taken everywhere): preemption runs on every node.
    let mut big = pod.clone();
    big.spec.containers[0]
        .resources
        .requests
        .insert("cpu", q(60));
    {
        let fit = usage.fit(&snap, &big);
        let pre = preempt(&usage, &snap, &big, &fit);
        let victims = pre.chosen.as_ref().map(|c| c.1.len()).unwrap_or(0);
        eprintln!(
            "big pod: schedulable={} candidates={} chosen={:?} victims={victims}",
            fit.schedulable(),
            pre.nodes
                .iter()
                .filter(|n| matches!(
                    n.1,
                    cube_quota::preemption::NodePreemption::Candidate { .. }
                ))
                .count(),
            pre.chosen.as_ref().map(|c| c.0.as_str()),
        );
    }
    g.bench_function("fit_and_preempt_indexed", |b| {
        b.iter(|| {
            let fit = usage.fit(&snap, black_box(&big));
            let pre = preempt(&usage, &snap, &big, &fit);
            failed_scheduling_message(&fit, Some(&pre))
        })
    });
    g.bench_function("fit_without_index", |b| {
        b.iter(|| fit_pod(&snap, black_box(&pod), &opts))
    });
    // 1,000 replicas of a 1-GPU, 2-core pod: the GPU nodes fill up, then the rest stay Pending.
    let mut one_gpu = pod.clone();
    one_gpu.spec.priority = None;
    let r = &mut one_gpu.spec.containers[0].resources;
    r.requests.insert("nvidia.com/gpu", q(1));
    r.requests.insert("cpu", q(2));
    r.limits = r.requests.clone();
    let sub = Submission::Workload(Box::new(Workload {
        kind: WorkloadKind::Deployment,
        name: "train".into(),
        namespace: "team".into(),
        replicas: Some(1000),
        template: cube_model::objects::PodTemplateSpec {
            metadata: one_gpu.metadata.clone(),
            spec: one_gpu.spec.clone(),
        },
    }));
    let sched = FitScheduler::default();
    let admit_opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    {
        let out = admit(&sub, "", &snap, &admit_opts);
        eprintln!(
            "deployment: admitted={} verdict={:?}",
            out.admitted, out.verdict
        );
    }
    g.bench_function("whatif_deployment_1000_replicas", |b| {
        b.iter(|| admit(black_box(&sub), "", &snap, &admit_opts).admitted)
    });
    g.finish();
}

#[path = "support/cpu_clock.rs"]
mod cpu_clock;

fn main() {
    let config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    cpu_clock::run_bench!(config, bench);
}
