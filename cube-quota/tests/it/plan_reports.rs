//! Capacity report (overcommit per pool, exact ratios, quota/priority warnings) and usage
//! report (quota, used, requested, free per namespace and group).

use cube_model::objects::{Container, Node, Pod, ResourceRequirements};
use cube_model::{ClusterSnapshot, Quantity, ResourceGroup, ResourceList};
use cube_quota::plan::plan_group;
use cube_quota::report::{GroupWarningKind, capacity_report, usage_report};

fn q(s: &str) -> Quantity {
    s.parse().expect("quantity")
}

fn group(name: &str, ns: &str, gpu: u32, cpu: u32, org: Option<&str>, prio: bool) -> ResourceGroup {
    let mut y = format!(
        "name: {name}\nowner: o\nquota:\n  - name: compute\n    hard:\n      requests.cpu: \"{cpu}\"\n      requests.nvidia.com/gpu: \"{gpu}\"\n      limits.memory: 10Gi\n  - name: high\n    scopeSelector:\n      matchExpressions:\n        - {{scopeName: PriorityClass, operator: In, values: [{name}-high]}}\n    hard:\n      requests.nvidia.com/gpu: \"1\"\nnamespaces:\n  - {{name: {ns}, sharePercent: 100}}\n"
    );
    if let Some(o) = org {
        y.push_str(&format!("placement:\n  nodeSelector:\n    org: {o}\n"));
    }
    if prio {
        y.push_str(&format!(
            "priority:\n  className: {name}-high\n  value: 1000\n"
        ));
    }
    ResourceGroup::from_yaml(&y).expect("group")
}

fn node(name: &str, org: &str, cpu: &str, gpu: &str) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.metadata.labels.insert("org".into(), org.into());
    n.status.allocatable = [
        ("cpu", q(cpu)),
        ("nvidia.com/gpu", q(gpu)),
        ("pods", q("110")),
    ]
    .into_iter()
    .collect();
    n
}

#[test]
fn overcommit_per_pool_and_warnings() {
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![
        node("a", "nlp", "64", "4"),
        node("b", "nlp", "63500m", "4"),
        node("c", "vision", "32", "8"),
    ];
    let groups = vec![
        group("nlp-a", "nlp-a", 5, 100, Some("nlp"), true),
        group("nlp-b", "nlp-b", 6, 27, Some("nlp"), false),
        group("all", "all-ns", 2, 1, None, true),
    ];
    let r = capacity_report(&groups, &s);
    assert_eq!(r.pools.len(), 2);
    let nlp = &r.pools[0];
    assert_eq!(nlp.pool, "org=nlp");
    assert_eq!(nlp.nodes, vec!["a", "b"]);
    assert_eq!(nlp.groups, vec!["nlp-a", "nlp-b"]);
    let res = |name: &str| {
        nlp.resources
            .iter()
            .find(|r| r.resource.as_str() == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    // 5 + 6 GPUs on 8: 11/8 exactly; the scoped bucket is a subset of the unscoped one.
    let gpu = res("nvidia.com/gpu");
    assert_eq!(
        (gpu.overcommit.numerator, gpu.overcommit.denominator),
        (11, 8)
    );
    assert_eq!(gpu.overcommit.to_string(), "1.375");
    assert!(gpu.overcommit.is_overcommitted());
    assert_eq!(gpu.allocatable, q("8"));
    // 127 cores promised on 127.5: in millicores.
    let cpu = res("cpu");
    assert_eq!(
        (cpu.overcommit.numerator, cpu.overcommit.denominator),
        (127_000, 127_500)
    );
    assert_eq!(cpu.overcommit.to_string(), "0.996");
    assert_eq!(cpu.quota, q("127"));
    // limits.memory limits no node resource.
    assert!(
        nlp.resources
            .iter()
            .all(|r| r.resource.as_str() != "memory")
    );
    assert_eq!(r.pools[1].pool, "<all nodes>");
    assert_eq!(r.pools[1].nodes.len(), 3);
    assert_eq!(r.warnings.len(), 1);
    assert_eq!(r.warnings[0].group, "nlp-b");
    assert_eq!(r.warnings[0].kind, GroupWarningKind::QuotaWithoutPriority);

    let mut prio_only = group("p", "p-ns", 1, 1, None, true);
    prio_only.quota.clear();
    let r = capacity_report(&[prio_only], &s);
    assert_eq!(r.warnings[0].kind, GroupWarningKind::PriorityWithoutQuota);
}

fn pod(ns: &str, name: &str, node: &str, cpu: &str, gpu: &str, phase: &str) -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = ns.into();
    p.metadata.name = name.into();
    p.spec.node_name = node.into();
    p.status.phase = phase.into();
    let req: ResourceList = [("cpu", q(cpu)), ("nvidia.com/gpu", q(gpu))]
        .into_iter()
        .collect();
    p.spec.containers.push(Container {
        name: "c".into(),
        resources: ResourceRequirements {
            requests: req.clone(),
            limits: req,
        },
        ..Container::default()
    });
    p
}

#[test]
fn usage_per_namespace_and_group() {
    let g = ResourceGroup::from_yaml(
        "name: nlp\nowner: o\nquota:\n  - name: compute\n    hard:\n      requests.cpu: \"10\"\n      requests.nvidia.com/gpu: \"4\"\nnamespaces:\n  - {name: nlp-train, sharePercent: 50}\n  - {name: nlp-eval, sharePercent: 50}\npriority: {className: nlp-high, value: 10}\n",
    )
    .expect("group");
    let plan = plan_group(&g, None).expect("plan");
    let mut s = ClusterSnapshot::default();
    s.pods = vec![
        pod("nlp-train", "run", "a", "2", "1", "Running"),
        pod("nlp-train", "wait", "", "1", "1", "Pending"),
        pod("nlp-train", "done", "a", "4", "2", "Succeeded"),
        pod("nlp-eval", "big", "a", "1", "3", "Running"),
        pod("other", "x", "a", "8", "8", "Running"),
    ];
    let rows = usage_report(std::slice::from_ref(&plan), &s);
    let row = |ns: Option<&str>, key: &str| {
        rows.iter()
            .find(|r| r.namespace.as_deref() == ns && r.resource.as_str() == key)
            .unwrap_or_else(|| panic!("{ns:?} {key}"))
    };
    let t = row(Some("nlp-train"), "requests.nvidia.com/gpu");
    assert_eq!(
        (
            t.hard.clone(),
            t.used.clone(),
            t.requested.clone(),
            t.free.clone()
        ),
        (q("2"), q("2"), q("1"), q("0"))
    );
    let c = row(Some("nlp-train"), "requests.cpu");
    assert_eq!(
        (c.used.clone(), c.requested.clone(), c.free.clone()),
        (q("3"), q("2"), q("2"))
    );
    // nlp-eval holds 3 GPUs (admitted before a re-split) on a share of 2: free is negative.
    let e = row(Some("nlp-eval"), "requests.nvidia.com/gpu");
    assert_eq!((e.used.clone(), e.free.clone()), (q("3"), q("-1")));
    let total = row(None, "requests.nvidia.com/gpu");
    assert_eq!(
        (
            total.hard.clone(),
            total.used.clone(),
            total.requested.clone(),
            total.free.clone()
        ),
        (q("4"), q("5"), q("4"), q("-1"))
    );
    assert_eq!(rows.len(), 6);
}
