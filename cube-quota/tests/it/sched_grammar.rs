//! The scheduler's FailedScheduling grammar on real messages of every wording (v1.20-v1.36):
//! each is read into its parts, its version range is inferred from the markers it carries, and
//! rendering the parts in a version of that range gives the message back.

use cube_model::objects::{Container, Node, Pod, ResourceRequirements, Taint};
use cube_model::{ClusterSnapshot, Quantity, ResourceList};
use cube_quota::fit::{FitOptions, NodeUsage};
use cube_quota::preemption::{failed_scheduling_message_for, preempt};
use cube_quota::schedmsg::{
    DRA_NO_CLAIMS, MESSAGE_WORDINGS, Preemption, ReasonKind, SchedulerMessage, SchedulerVersion,
    parse,
};

/// Real messages (public reports and this repository's fixtures), with the version range their
/// wording belongs to.
const REAL: &[(&str, &str, (u16, u16))] = &[
    // testdata/fixtures/events/failedscheduling-insufficient-amd-gpu.txt (2021)
    (
        "amd",
        "0/9 nodes are available: 3 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 6 Insufficient amd.com/gpu.",
        (20, 25),
    ),
    // kubernetes/kubernetes#107775 (the PR that added the preemption part)
    (
        "pr107775",
        "0/4 nodes are available: 1 Insufficient cpu, 1 node(s) had taint {virtual-kubelet.io/provider: ***}, that the pod didn't tolerate, 2 node(s) didn't match Pod's node affinity/selector. preemption: not eligible due to preemptionPolicy=Never..",
        (24, 25),
    ),
    // testdata/fixtures/pods/triton-pending-insufficient-gpu.txt (NVIDIA/k8s-device-plugin#430)
    (
        "triton",
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..",
        (24, 31),
    ),
    // testdata/fixtures/events/local-path-volume-node-affinity-conflict.txt (2025)
    (
        "local-path",
        "0/6 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable, 2 Insufficient cpu, 2 node(s) had volume node affinity conflict. preemption: 0/6 nodes are available: 2 No preemption victims found for incoming pod, 4 Preemption is not helpful for scheduling..",
        (26, 31),
    ),
    // a PreFilter rejection: the claim does not exist (public AIOps test logs)
    (
        "prefilter",
        "0/3 nodes are available: persistentvolumeclaim \"rc-pending-definitely-missing-pvc\" not found. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
        (26, 31),
    ),
    // v1.35+: taint not named, DRA PostFilter text before preemption (public course notes)
    (
        "dra",
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu, 2 Insufficient memory. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
        (35, 36),
    ),
    // v1.33/v1.34 patch releases with DRA off: taint(s), one final dot
    (
        "taints-no-dra",
        "0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        (35, 36),
    ),
    // testdata/fixtures/events/pvc-pending-no-storageclass.txt
    (
        "pvc",
        "0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.",
        (20, 36),
    ),
    // testdata/fixtures/events/failedscheduling-pod-affinity-vs-gpu.txt
    (
        "affinity",
        "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
        (32, 36),
    ),
    // v1.20: node selector wording
    (
        "selector",
        "0/3 nodes are available: 3 node(s) didn't match node selector.",
        (20, 20),
    ),
];

#[test]
fn real_messages_parse_into_parts_and_render_back() {
    for (name, text, range) in REAL {
        let m = parse(text).unwrap_or_else(|| panic!("{name}: not parsed"));
        assert_eq!(m.versions(), *range, "{name}: {m:?}");
        let v = SchedulerVersion::new(range.0).expect("version");
        assert_eq!(m.render(v), *text, "{name}");
        // nothing read as Unknown: every reason of these reports is in the table
        for r in m.all_reasons() {
            assert_ne!(r.kind, ReasonKind::Unknown, "{name}: {}", r.text);
        }
    }
}

#[test]
fn no_preemption_victims_is_not_a_resource_and_dra_text_is_not_glued() {
    // The bug classes: `Insufficient nvidia.com/gpu. preemption: ... No preemption victims ...`
    // and the newer `no new claims to deallocate` ending.
    let m = parse(
        "  Warning  FailedScheduling  3m  default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
    )
    .expect("parsed");
    assert_eq!(m.nodes, 2);
    assert_eq!(
        m.insufficient().collect::<Vec<_>>(),
        vec![("nvidia.com/gpu", 2)]
    );
    assert_eq!(m.post_filter, vec![DRA_NO_CLAIMS.to_owned()]);
    let p = m.preemption.as_ref().expect("preemption part");
    assert_eq!((p.no_victims(), p.not_helpful()), (2, 0));
    assert_eq!(m.versions(), (34, 36));
    // the old wording without the DRA part, read the same way
    let old = parse("0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..").expect("parsed");
    assert_eq!(old.reasons, m.reasons);
    assert!(old.post_filter.is_empty());
}

#[test]
fn table_rows_prefixes_and_other_postfilter_orders() {
    // `kubectl get events -o wide`: columns follow the message.
    let m = parse("5m   Warning   FailedScheduling   pod/x   0/3 nodes are available: 3 Insufficient nvidia.com/gpu.   default-scheduler   5m   3   x.17a").expect("row");
    assert_eq!(
        m.insufficient().collect::<Vec<_>>(),
        vec![("nvidia.com/gpu", 3)]
    );
    assert!(m.trailing.is_none());
    // PodScheduled condition message in `describe` / pod status
    let m = parse("[Unschedulable] 0/1 nodes are available: 1 node unregistered.").expect("hami");
    assert_eq!(m.reasons[0].reason.kind, ReasonKind::NodeUnregistered);
    // a PostFilter reason after the preemption part stays out of the preemption histogram
    let m = parse("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod., no new claims to deallocate").expect("order");
    assert_eq!(m.post_filter, vec![DRA_NO_CLAIMS.to_owned()]);
    assert_eq!(m.preemption.expect("p").no_victims(), 1);
    // kube-scheduler's own log (Project-HAMi/HAMi#1069): quoted, inner quotes escaped
    let m = parse(r#"I0522 14:03:41.719192       1 scheduler.go:352] "Unable to schedule pod; no fit; waiting" pod="privatemodel/qwen2-5-0-5b-5d6b69597d-5bpm5" err="0/4 nodes are available: 4 Insufficient nvidia.com/gpu.memory. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.""#).expect("klog");
    assert_eq!(
        m.insufficient().collect::<Vec<_>>(),
        vec![("nvidia.com/gpu.memory", 4)]
    );
    assert_eq!(m.preemption.as_ref().expect("p").no_victims(), 4);
    assert_eq!(m.versions(), (32, 36));
    let m = parse(r#"{"message":"0/3 nodes are available: persistentvolumeclaim \"data\" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."}"#).expect("json");
    assert_eq!(
        m.all_reasons().next().map(|r| r.kind),
        Some(ReasonKind::ClaimNotFound)
    );
    assert!(parse("0/3 nodes are not here").is_none());
    let none = parse("no nodes available to schedule pods").expect("no nodes");
    assert_eq!(none.nodes, 0);
    // an unknown reason is kept verbatim
    let m = parse("0/2 nodes are available: 2 node(s) had some brand new problem.").expect("x");
    assert_eq!(m.reasons[0].reason.kind, ReasonKind::Unknown);
    assert_eq!(
        m.reasons[0].reason.text,
        "node(s) had some brand new problem"
    );
}

#[test]
fn preemption_parts() {
    let m = parse("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.").expect("never");
    assert_eq!(
        m.preemption,
        Some(Preemption::NotEligible {
            text: "not eligible due to preemptionPolicy=Never.".into()
        })
    );
    assert_eq!(m.versions(), (34, 36));
}

#[test]
fn version_table_is_contiguous() {
    let mut next = SchedulerVersion::OLDEST.minor();
    for w in MESSAGE_WORDINGS {
        assert_eq!(w.since, next, "{w:?}");
        assert!(w.until >= w.since);
        next = w.until + 1;
    }
    assert_eq!(next - 1, SchedulerVersion::LATEST.minor());
}

fn list(pairs: &[(&str, &str)]) -> ResourceList {
    pairs
        .iter()
        .map(|(k, v)| (*k, v.parse::<Quantity>().expect("quantity")))
        .collect()
}

fn pod(name: &str, req: &[(&str, &str)]) -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = "ns".into();
    p.metadata.name = name.into();
    p.spec.containers.push(Container {
        name: "c".into(),
        resources: ResourceRequirements {
            requests: list(req),
            limits: ResourceList::new(),
        },
        ..Container::default()
    });
    p
}

#[test]
fn predicted_message_in_each_version_reads_back_to_the_same_parts() {
    // one tainted node, one node whose GPUs are taken by an equal-priority pod
    let mut tainted = Node::default();
    tainted.metadata.name = "cp".into();
    tainted.status.allocatable = list(&[("cpu", "8"), ("pods", "110")]);
    tainted.spec.taints.push(Taint {
        key: "node-role.kubernetes.io/control-plane".into(),
        effect: "NoSchedule".into(),
        ..Taint::default()
    });
    let mut gpu = Node::default();
    gpu.metadata.name = "gpu".into();
    gpu.status.allocatable = list(&[("cpu", "8"), ("pods", "110"), ("nvidia.com/gpu", "1")]);
    let mut holder = pod("holder", &[("nvidia.com/gpu", "1")]);
    holder.spec.node_name = "gpu".into();
    let mut snap = ClusterSnapshot::default();
    snap.nodes = vec![tainted, gpu];
    snap.pods = vec![holder];
    let mut p = pod("p", &[("nvidia.com/gpu", "1")]);
    let usage = NodeUsage::build(&snap, &FitOptions::default());
    let fit = usage.fit(&snap, &p);
    let pre = preempt(&usage, &snap, &p, &fit);
    let at = |minor: u16, pre| {
        failed_scheduling_message_for(&fit, pre, SchedulerVersion::new(minor).expect("v"))
            .expect("unschedulable")
    };
    assert_eq!(
        at(22, Some(&pre)),
        "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had taint {node-role.kubernetes.io/control-plane: }, that the pod didn't tolerate."
    );
    assert_eq!(
        at(25, Some(&pre)),
        "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had taint {node-role.kubernetes.io/control-plane: }, that the pod didn't tolerate. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.."
    );
    assert_eq!(
        at(30, Some(&pre)),
        "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.."
    );
    assert_eq!(
        at(33, Some(&pre)),
        "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."
    );
    assert_eq!(
        at(36, Some(&pre)),
        "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling."
    );
    for minor in 20..=36 {
        let text = at(minor, Some(&pre));
        let m = parse(&text).expect("reads back");
        let (lo, hi) = m.versions();
        assert!((lo..=hi).contains(&minor), "{minor}: {text} -> {lo}-{hi}");
        assert_eq!(m.render(SchedulerVersion::new(minor).expect("v")), text);
        assert_eq!(
            m.insufficient().collect::<Vec<_>>(),
            vec![("nvidia.com/gpu", 1)]
        );
    }
    // preemptionPolicy Never: `..` up to v1.31, DRA text and one `.` in v1.36
    p.spec.preemption_policy = Some("Never".into());
    let pre = preempt(&usage, &snap, &p, &fit);
    assert!(
        at(28, Some(&pre)).ends_with(". preemption: not eligible due to preemptionPolicy=Never..")
    );
    assert!(at(36, Some(&pre)).ends_with(
        ". no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
    ));
    // a structure alone renders in any version too
    let m = SchedulerMessage::new(
        3,
        parse("0/3 nodes are available: 3 Insufficient cpu.")
            .expect("x")
            .reasons,
    );
    assert_eq!(
        m.render(SchedulerVersion::LATEST),
        "0/3 nodes are available: 3 Insufficient cpu."
    );
}
