//! Preemption: victim selection, PodDisruptionBudgets, candidate choice, messages, and the
//! invariants (victims strictly lower priority, no victim can be spared).

use cube_model::objects::{
    Container, LabelSelector, Node, Pod, PodDisruptionBudget, PriorityClass, ResourceRequirements,
};
use cube_model::{ClusterSnapshot, Quantity, ResourceList};
use cube_quota::fit::{FitOptions, NodeUsage};
use cube_quota::preemption::{
    NodePreemption, PreemptionReport, failed_scheduling_message, preempt, select_victims_on_node,
};
use proptest::prelude::*;

fn list(pairs: &[(&str, i64)]) -> ResourceList {
    pairs
        .iter()
        .map(|(k, v)| (*k, Quantity::from_value(*v, cube_model::Format::DecimalSI)))
        .collect()
}

fn node(name: &str, cpu: i64, gpu: i64, pods: i64) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.status.allocatable = list(&[("cpu", cpu), ("nvidia.com/gpu", gpu), ("pods", pods)]);
    n
}

fn pod(name: &str, priority: i32, cpu: i64, gpu: i64) -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = "team".into();
    p.metadata.name = name.into();
    p.spec.priority = Some(priority);
    let mut req = Vec::new();
    if cpu > 0 {
        req.push(("cpu", cpu));
    }
    if gpu > 0 {
        req.push(("nvidia.com/gpu", gpu));
    }
    p.spec.containers.push(Container {
        name: "c".into(),
        resources: ResourceRequirements {
            requests: list(&req),
            limits: ResourceList::new(),
        },
        ..Container::default()
    });
    p.status.phase = "Pending".into();
    p
}

fn on(mut p: Pod, node: &str, start_secs: i64) -> Pod {
    p.spec.node_name = node.into();
    p.status.phase = "Running".into();
    p.status.start_time = cube_model::objects::Time::from_second(start_secs).ok();
    p
}

fn snap(nodes: Vec<Node>, pods: Vec<Pod>) -> ClusterSnapshot {
    let mut s = ClusterSnapshot::default();
    s.nodes = nodes;
    s.pods = pods;
    s
}

fn run(s: &ClusterSnapshot, p: &Pod) -> (PreemptionReport, Option<String>) {
    let usage = NodeUsage::build(s, &FitOptions::default());
    let fit = usage.fit(s, p);
    let pre = preempt(&usage, s, p, &fit);
    let msg = failed_scheduling_message(&fit, Some(&pre));
    (pre, msg)
}

fn victim_names(pre: &PreemptionReport) -> Vec<String> {
    pre.chosen
        .as_ref()
        .map(|(_, v)| v.iter().map(|v| v.pod.clone()).collect())
        .unwrap_or_default()
}

#[test]
fn reprieves_most_important_first_and_keeps_equal_priority() {
    let s = snap(
        vec![node("n1", 4, 0, 110)],
        vec![
            on(pod("a", 1, 1, 0), "n1", 10),
            on(pod("b", 2, 1, 0), "n1", 10),
            on(pod("c", 3, 2, 0), "n1", 10),
            on(pod("same", 100, 0, 0), "n1", 10),
        ],
    );
    let p = pod("pre", 100, 2, 0);
    let (pre, msg) = run(&s, &p);
    let (node, _) = pre.chosen.clone().expect("candidate");
    assert_eq!(node, "n1");
    assert_eq!(victim_names(&pre), vec!["team/b", "team/a"]);
    // Preemption found a candidate: the event carries no preemption part.
    assert_eq!(
        msg.as_deref(),
        Some("0/1 nodes are available: 1 Insufficient cpu.")
    );
}

#[test]
fn equal_priority_is_never_a_victim() {
    let s = snap(
        vec![node("n1", 2, 0, 110)],
        vec![on(pod("a", 5, 2, 0), "n1", 1)],
    );
    let (pre, msg) = run(&s, &pod("pre", 5, 1, 0));
    assert_eq!(pre.nodes[0].1, NodePreemption::NoVictims);
    assert_eq!(
        msg.as_deref(),
        Some(
            "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
        )
    );
}

#[test]
fn preemption_policy_never_from_pod_or_class() {
    let s = snap(
        vec![node("n1", 2, 0, 110)],
        vec![on(pod("a", 0, 2, 0), "n1", 1)],
    );
    let mut p = pod("pre", 10, 1, 0);
    p.spec.preemption_policy = Some("Never".into());
    let (pre, msg) = run(&s, &p);
    assert!(pre.chosen.is_none());
    assert_eq!(
        msg.as_deref(),
        Some(
            "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
        )
    );
    // From the PriorityClass (batch-low in the v1.36 fixture has preemptionPolicy Never).
    let mut s2 = s.clone();
    let mut class = PriorityClass {
        value: 100,
        preemption_policy: Some("Never".into()),
        ..PriorityClass::default()
    };
    class.metadata.name = "batch-low".into();
    s2.priority_classes.push(class);
    let mut p = pod("pre", 100, 1, 0);
    p.spec.priority_class_name = "batch-low".into();
    assert_eq!(
        run(&s2, &p).0.not_eligible.as_deref(),
        Some("not eligible due to preemptionPolicy=Never.")
    );
}

#[test]
fn mixed_preemption_histogram() {
    let mut cordoned = node("n3", 8, 0, 110);
    cordoned.spec.unschedulable = true;
    let s = snap(
        vec![node("n1", 4, 0, 110), node("n2", 4, 0, 110), cordoned],
        vec![
            on(pod("big", 10, 3, 0), "n1", 1),
            on(pod("small", 0, 1, 0), "n1", 1),
            on(pod("peer", 5, 4, 0), "n2", 1),
        ],
    );
    let (pre, msg) = run(&s, &pod("pre", 5, 2, 0));
    assert!(pre.chosen.is_none());
    assert_eq!(
        msg.as_deref(),
        Some(
            "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."
        )
    );
}

fn pdb(name: &str, app: &str, allowed: i32) -> PodDisruptionBudget {
    let mut b = PodDisruptionBudget::default();
    b.metadata.name = name.into();
    b.metadata.namespace = "team".into();
    let mut sel = LabelSelector::default();
    sel.match_labels.insert("app".into(), app.into());
    b.spec.selector = Some(sel);
    b.status.disruptions_allowed = allowed;
    b
}

fn labelled(mut p: Pod, app: &str) -> Pod {
    p.metadata.labels.insert("app".into(), app.into());
    p
}

#[test]
fn node_with_fewer_pdb_violations_wins() {
    let mut s = snap(
        vec![node("n1", 0, 2, 110), node("n2", 0, 2, 110)],
        vec![
            on(labelled(pod("guarded", 1, 0, 2), "db"), "n1", 1),
            on(pod("free", 5, 0, 2), "n2", 1),
        ],
    );
    s.pod_disruption_budgets.push(pdb("db", "db", 0));
    let (pre, _) = run(&s, &pod("pre", 100, 0, 2));
    let (node, victims) = pre.chosen.clone().expect("candidate");
    // n1's victim has the lower priority, but evicting it violates the budget.
    assert_eq!(node, "n2");
    assert_eq!(victims.len(), 1);
    assert!(!victims[0].violates_pdb);
    match &pre.nodes[0].1 {
        NodePreemption::Candidate {
            pdb_violations,
            victims,
        } => {
            assert_eq!(*pdb_violations, 1);
            assert!(victims[0].violates_pdb);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn pdb_violating_victims_are_reprieved_first() {
    // One GPU must be freed; two priority-1 pods hold one each. The PDB-protected one is
    // reprieved first, so the unprotected one is evicted although it started earlier.
    let mut s = snap(
        vec![node("n1", 0, 2, 110)],
        vec![
            on(pod("plain", 1, 0, 1), "n1", 1),
            on(labelled(pod("guarded", 1, 0, 1), "web"), "n1", 2),
        ],
    );
    s.pod_disruption_budgets.push(pdb("web", "web", 0));
    let (pre, _) = run(&s, &pod("pre", 10, 0, 1));
    assert_eq!(victim_names(&pre), vec!["team/plain"]);
    // Without the budget the earlier-started (more important) pod is reprieved first.
    s.pod_disruption_budgets.clear();
    let (pre, _) = run(&s, &pod("pre", 10, 0, 1));
    assert_eq!(victim_names(&pre), vec!["team/guarded"]);
}

#[test]
fn pdb_budget_is_shared_across_victims() {
    // Budget allows 1 disruption: the first matching victim does not violate, the second does.
    let mut s = snap(
        vec![node("n1", 0, 2, 110)],
        vec![
            on(labelled(pod("w1", 2, 0, 1), "web"), "n1", 1),
            on(labelled(pod("w2", 1, 0, 1), "web"), "n1", 1),
        ],
    );
    s.pod_disruption_budgets.push(pdb("web", "web", 1));
    let usage = NodeUsage::build(&s, &FitOptions::default());
    match select_victims_on_node(&usage, &s, &pod("pre", 10, 0, 2), "n1") {
        NodePreemption::Candidate {
            victims,
            pdb_violations,
        } => {
            assert_eq!(pdb_violations, 1);
            let flags: Vec<(String, bool)> = victims
                .iter()
                .map(|v| (v.pod.clone(), v.violates_pdb))
                .collect();
            assert_eq!(
                flags,
                vec![("team/w1".into(), false), ("team/w2".into(), true)]
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn candidate_with_lowest_highest_priority_then_fewest_victims() {
    let s = snap(
        vec![
            node("n1", 2, 0, 110),
            node("n2", 2, 0, 110),
            node("n3", 2, 0, 110),
        ],
        vec![
            on(pod("a", 7, 2, 0), "n1", 1),
            on(pod("b1", 3, 1, 0), "n2", 1),
            on(pod("b2", 3, 1, 0), "n2", 1),
            on(pod("c", 3, 2, 0), "n3", 1),
        ],
    );
    let (pre, _) = run(&s, &pod("pre", 10, 2, 0));
    assert_eq!(pre.chosen.map(|c| c.0).as_deref(), Some("n3"));
}

#[test]
fn unknown_node_is_not_helpful() {
    let s = snap(vec![], vec![]);
    let usage = NodeUsage::build(&s, &FitOptions::default());
    assert_eq!(
        select_victims_on_node(&usage, &s, &pod("p", 1, 1, 0), "nope"),
        NodePreemption::NotHelpful
    );
}

// ------------------------------------------------------------------ properties

/// Independent fit check on cpu, GPU and pod count for the pods of `s` minus `removed`.
fn fits_without(s: &ClusterSnapshot, p: &Pod, removed: &[usize]) -> bool {
    let n = &s.nodes[0];
    let alloc = |k: &str| n.status.allocatable.get(k).map(|q| q.value()).unwrap_or(0);
    let req = |x: &Pod, k: &str| {
        x.spec.containers[0]
            .resources
            .requests
            .get(k)
            .map(|q| q.value())
            .unwrap_or(0)
    };
    let mut cpu = 0;
    let mut gpu = 0;
    let mut count = 0;
    for (i, x) in s.pods.iter().enumerate() {
        if removed.contains(&i) {
            continue;
        }
        cpu += req(x, "cpu");
        gpu += req(x, "nvidia.com/gpu");
        count += 1;
    }
    let pc = req(p, "cpu");
    let pg = req(p, "nvidia.com/gpu");
    count < alloc("pods")
        && (pc == 0 || pc <= alloc("cpu") - cpu)
        && (pg == 0 || pg <= alloc("nvidia.com/gpu") - gpu)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn victims_are_lower_priority_and_minimal(
        bound_pods in prop::collection::vec((0i32..6, 0i64..4, 0i64..3), 0..8),
        alloc_cpu in 0i64..12,
        alloc_gpu in 0i64..6,
        alloc_pods in 1i64..10,
        pre_prio in 0i32..6,
        pre_cpu in 0i64..6,
        pre_gpu in 0i64..4,
    ) {
        let pods: Vec<Pod> = bound_pods
            .iter()
            .enumerate()
            .map(|(i, (prio, cpu, gpu))| on(pod(&format!("p{i}"), *prio, *cpu, *gpu), "n1", i as i64))
            .collect();
        let s = snap(vec![node("n1", alloc_cpu, alloc_gpu, alloc_pods)], pods);
        let p = pod("pre", pre_prio, pre_cpu, pre_gpu);
        let usage = NodeUsage::build(&s, &FitOptions::default());
        let lower: Vec<usize> = s.pods.iter().enumerate()
            .filter(|(_, x)| x.spec.priority.unwrap_or(0) < pre_prio)
            .map(|(i, _)| i)
            .collect();
        match select_victims_on_node(&usage, &s, &p, "n1") {
            NodePreemption::NoVictims => prop_assert!(lower.is_empty()),
            NodePreemption::StillDoesNotFit { reasons } => {
                prop_assert!(!lower.is_empty());
                prop_assert!(!reasons.is_empty());
                prop_assert!(!fits_without(&s, &p, &lower));
            }
            NodePreemption::Candidate { victims, .. } => {
                let idx: Vec<usize> = victims.iter().map(|v| v.index).collect();
                for v in &victims {
                    prop_assert!(v.priority < pre_prio, "victim {} has priority {} >= {}", v.pod, v.priority, pre_prio);
                }
                prop_assert!(fits_without(&s, &p, &idx), "does not fit after evicting {:?}", idx);
                for (k, _) in idx.iter().enumerate() {
                    let mut spared = idx.clone();
                    spared.remove(k);
                    prop_assert!(!fits_without(&s, &p, &spared), "victim {} could be spared", idx[k]);
                }
            }
            NodePreemption::NotHelpful => prop_assert!(false, "node exists"),
            _ => prop_assert!(false, "unknown NodePreemption"),
        }
    }
}
