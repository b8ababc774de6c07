//! Incremental scheduling gives the same answers as scheduling from scratch.
//!
//! The reference places the pods one at a time the slow, obvious way: clone the snapshot, add
//! every pod placed so far as a bound pod, build a fresh `NodeUsage`, fit, take the first
//! feasible node, else run preemption and build the FailedScheduling message. The incremental
//! path (`FitScheduler` sessions, as `admit` and `pod_admit` use them) keeps one index and
//! updates it; both must agree on every placement and every message. Also: the
//! allocation-free verdicts agree with the detailed report on every node.

use cube_model::objects::{
    Container, LabelSelector, Node, NodeCondition, Pod, PodDisruptionBudget, PodTemplateSpec,
    PriorityClass, ResourceRequirements, Taint, Time, Toleration,
};
use cube_model::{ClusterSnapshot, Format, Quantity, ResourceList};
use cube_quota::fit::{FitOptions, NodeUsage};
use cube_quota::preemption::{FitScheduler, failed_scheduling_message, preempt};
use cube_quota::whatif::{
    AdmitOptions, SchedulingOutcome, Submission, Workload, WorkloadKind, admit,
};
use proptest::prelude::*;

/// A small deterministic generator (xorshift64*), so one proptest seed describes a cluster.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn requests(g: &mut Gen, gpu_max: u64) -> ResourceList {
    let mut r = ResourceList::new();
    r.insert("cpu", Quantity::from_millis(100 * (1 + g.below(12)) as i64));
    r.insert(
        "memory",
        Quantity::from_value(((1 + g.below(4)) as i64) << 29, Format::BinarySI),
    );
    let gpu = if g.chance(40) {
        1 + g.below(gpu_max)
    } else {
        0
    };
    if gpu > 0 {
        r.insert(
            "nvidia.com/gpu",
            Quantity::from_value(gpu as i64, Format::DecimalSI),
        );
    }
    r
}

fn cluster(seed: u64, nodes: usize, pods: usize) -> ClusterSnapshot {
    let mut g = Gen(seed | 1);
    let mut s = ClusterSnapshot::default();
    for i in 0..nodes {
        let mut n = Node::default();
        n.metadata.name = format!("n{i}");
        n.metadata
            .labels
            .insert("pool".into(), if g.chance(50) { "a" } else { "b" }.into());
        let mut alloc = ResourceList::new();
        alloc.insert("cpu", Quantity::from_millis(2000 * (1 + g.below(8)) as i64));
        alloc.insert(
            "memory",
            Quantity::from_value(((2 + g.below(30)) as i64) << 30, Format::BinarySI),
        );
        alloc.insert(
            "pods",
            Quantity::from_value(2 + g.below(12) as i64, Format::DecimalSI),
        );
        if g.chance(50) {
            alloc.insert(
                "nvidia.com/gpu",
                Quantity::from_value(1 + g.below(4) as i64, Format::DecimalSI),
            );
            if g.chance(50) {
                n.spec.taints.push(Taint {
                    key: "nvidia.com/gpu".into(),
                    value: "present".into(),
                    effect: "NoSchedule".into(),
                    ..Taint::default()
                });
            }
        }
        n.spec.unschedulable = g.chance(10);
        n.status.conditions.push(NodeCondition {
            type_: "Ready".into(),
            status: if g.chance(10) { "False" } else { "True" }.into(),
            ..NodeCondition::default()
        });
        n.status.allocatable = alloc.clone();
        n.status.capacity = alloc;
        s.nodes.push(n);
    }
    for i in 0..pods {
        let mut p = Pod::default();
        p.metadata.namespace = "other".into();
        p.metadata.name = format!("p{i}");
        if g.chance(50) {
            p.metadata.labels.insert("app".into(), "x".into());
        }
        p.spec.priority = Some([0, 100, 1000][g.below(3) as usize]);
        let req = requests(&mut g, 2);
        p.spec.containers.push(Container {
            name: "c".into(),
            resources: ResourceRequirements {
                requests: req.clone(),
                limits: req,
            },
            ..Container::default()
        });
        p.spec.tolerations.push(Toleration {
            operator: "Exists".into(),
            ..Toleration::default()
        });
        match g.below(10) {
            0 => p.status.nominated_node_name = format!("n{}", g.below(nodes as u64)),
            1 => p.spec.node_name = "gone".into(),
            _ => p.spec.node_name = format!("n{}", g.below(nodes as u64)),
        }
        p.status.phase = if g.chance(10) { "Succeeded" } else { "Running" }.into();
        p.status.start_time = Time::from_second(1_700_000_000 + g.below(1000) as i64).ok();
        s.pods.push(p);
    }
    if g.chance(50) {
        let mut pdb = PodDisruptionBudget::default();
        pdb.metadata.namespace = "other".into();
        pdb.metadata.name = "x".into();
        pdb.spec.selector = Some(LabelSelector {
            match_labels: [("app".to_owned(), "x".to_owned())].into_iter().collect(),
            ..LabelSelector::default()
        });
        pdb.status.disruptions_allowed = g.below(2) as i32;
        s.pod_disruption_budgets.push(pdb);
    }
    let mut high = PriorityClass {
        value: 1000,
        ..PriorityClass::default()
    };
    high.metadata.name = "high".into();
    if g.chance(20) {
        high.preemption_policy = Some("Never".into());
    }
    s.priority_classes.push(high);
    s
}

fn template(seed: u64) -> PodTemplateSpec {
    let mut g = Gen(seed.wrapping_mul(31) | 1);
    let mut t = PodTemplateSpec::default();
    let req = requests(&mut g, 3);
    t.spec.containers.push(Container {
        name: "main".into(),
        resources: ResourceRequirements {
            requests: req.clone(),
            limits: req,
        },
        ..Container::default()
    });
    if g.chance(50) {
        t.spec.priority_class_name = "high".into();
    }
    if g.chance(50) {
        t.spec.tolerations.push(Toleration {
            key: "nvidia.com/gpu".into(),
            operator: "Exists".into(),
            ..Toleration::default()
        });
    }
    if g.chance(25) {
        t.spec.node_selector.insert("pool".into(), "a".into());
    }
    t
}

/// The reference: one fresh index per pod over a snapshot holding the pods placed before.
fn from_scratch(snapshot: &ClusterSnapshot, pods: &[Pod]) -> Vec<SchedulingOutcome> {
    let mut snap = snapshot.clone();
    let mut out = Vec::new();
    for pod in pods {
        let usage = NodeUsage::build(&snap, &FitOptions::default());
        let fit = usage.fit(&snap, pod);
        if let Some(node) = fit.feasible_nodes().next().map(str::to_owned) {
            let mut bound = pod.clone();
            bound.spec.node_name = node.clone();
            snap.pods.push(bound);
            out.push(SchedulingOutcome {
                schedulable: true,
                node: Some(node),
                message: String::new(),
                victims: Vec::new(),
                kubelet: None,
            });
            continue;
        }
        let pre = preempt(&usage, &snap, pod, &fit);
        let message = failed_scheduling_message(&fit, Some(&pre)).unwrap_or_default();
        out.push(match pre.chosen {
            Some((node, victims)) => SchedulingOutcome {
                schedulable: true,
                node: Some(node),
                message,
                victims: victims.into_iter().map(|v| v.pod).collect(),
                kubelet: None,
            },
            None => SchedulingOutcome {
                schedulable: false,
                node: None,
                message,
                victims: Vec::new(),
                kubelet: None,
            },
        });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// `admit` of a Deployment with a `FitScheduler` (one incremental session) places every
    /// replica where the from-scratch reference does, with the same messages and victims.
    #[test]
    fn workload_whatif_matches_from_scratch(
        seed in any::<u64>(),
        nodes in 1usize..7,
        pods in 0usize..25,
        replicas in 1u32..14,
    ) {
        let snap = cluster(seed, nodes, pods);
        let sub = Submission::Workload(Box::new(Workload {
            kind: WorkloadKind::Deployment,
            name: "train".into(),
            namespace: "team".into(),
            replicas: Some(replicas),
            template: template(seed),
        }));
        let sched = FitScheduler::default();
        let opts = AdmitOptions { scheduler: Some(&sched), ..AdmitOptions::default() };
        let out = admit(&sub, "", &snap, &opts);
        let stored: Vec<Pod> = out.replicas.iter().filter_map(|r| r.stored.clone()).collect();
        let got: Vec<SchedulingOutcome> =
            out.replicas.iter().filter_map(|r| r.scheduling.clone()).collect();
        prop_assert_eq!(stored.len(), replicas as usize);
        prop_assert_eq!(got, from_scratch(&snap, &stored));
    }

    /// A session fed pods of several shapes in any order agrees with the reference too (the
    /// search position and the remembered answer belong to one shape only).
    #[test]
    fn mixed_pods_match_from_scratch(
        seed in any::<u64>(),
        nodes in 1usize..7,
        pods in 0usize..25,
        order in proptest::collection::vec(0u64..3, 1..16),
    ) {
        let snap = cluster(seed, nodes, pods);
        let shapes: Vec<PodTemplateSpec> = (0..3).map(|k| template(seed ^ (k + 1))).collect();
        let list: Vec<Pod> = order
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let t = &shapes[k as usize];
                let mut p = Pod { metadata: t.metadata.clone(), spec: t.spec.clone(), status: Default::default() };
                p.metadata.namespace = "team".into();
                p.metadata.name = format!("w{i}");
                // as priority admission would store it
                p.spec.priority = Some(if p.spec.priority_class_name == "high" { 1000 } else { 0 });
                p
            })
            .collect();
        let sched = FitScheduler::default();
        let mut session = sched.start(&snap);
        let got: Vec<SchedulingOutcome> = list.iter().map(|p| session.schedule_pod(p)).collect();
        prop_assert_eq!(got, from_scratch(&snap, &list));
    }

    /// The allocation-free verdicts say what the detailed report says, node by node, and the
    /// indexed first-fit search finds the report's first feasible node.
    #[test]
    fn verdicts_agree_with_the_report(
        seed in any::<u64>(),
        nodes in 1usize..9,
        pods in 0usize..30,
    ) {
        let snap = cluster(seed, nodes, pods);
        let usage = NodeUsage::build(&snap, &FitOptions::default());
        let t = template(seed);
        let pod = Pod { metadata: t.metadata, spec: t.spec, status: Default::default() };
        let report = usage.fit(&snap, &pod);
        let v = usage.verdicts(&snap, &pod);
        prop_assert_eq!(v.nodes.len(), report.nodes.len());
        for (verdict, node) in v.nodes.iter().zip(&report.nodes) {
            prop_assert_eq!(verdict.code, node.code);
            prop_assert_eq!(verdict.plugin, node.plugin);
            prop_assert_eq!(v.demand.reasons(verdict), node.reasons.clone());
        }
        prop_assert_eq!(v.histogram(), report.histogram());
        prop_assert_eq!(v.filter_message(), report.filter_message());
        let first = report.nodes.iter().position(|n| n.fits());
        prop_assert_eq!(usage.first_fit(&snap, &v.demand, 0), first);
    }
}

/// Adding and removing pods keeps the index equal to one built from the changed snapshot.
#[test]
fn add_and_remove_match_a_rebuilt_index() {
    let snap = cluster(7, 5, 20);
    let mut usage = NodeUsage::build(&snap, &FitOptions::default());
    let t = template(3);
    let mut pod = Pod {
        metadata: t.metadata,
        spec: t.spec,
        status: Default::default(),
    };
    pod.metadata.namespace = "team".into();
    pod.metadata.name = "added".into();
    // A scalar no node has yet: the index widens its rows.
    pod.spec.containers[0].resources.requests.insert(
        "example.com/fpga",
        Quantity::from_value(1, Format::DecimalSI),
    );
    let index = usage.add_pod(&snap, &pod, 2).expect("added");
    assert_eq!(index, snap.pods.len());
    let mut changed = snap.clone();
    let mut bound = pod.clone();
    bound.spec.node_name = "n2".into();
    changed.pods.push(bound);
    let rebuilt = NodeUsage::build(&changed, &FitOptions::default());
    for p in 0..5 {
        assert_eq!(usage.requested(p), rebuilt.requested(p), "node {p}");
        assert_eq!(usage.nodes[p].pods, rebuilt.nodes[p].pods, "node {p}");
    }
    assert_eq!(usage.amounts(2, "example.com/fpga"), (0, 1));
    let before = usage.generation();
    assert!(usage.remove_pod(index));
    assert!(!usage.remove_pod(index), "already removed");
    assert!(usage.generation() > before);
    let fresh = NodeUsage::build(&snap, &FitOptions::default());
    for p in 0..5 {
        assert_eq!(usage.requested(p).milli_cpu, fresh.requested(p).milli_cpu);
        assert_eq!(usage.nodes[p].pods, fresh.nodes[p].pods);
    }
}
