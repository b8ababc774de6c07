//! Where the nodes of a `0/N nodes are available: ...` message fail, taken as a whole: which
//! reason excludes how many of the `N` nodes, whether one reason covers every node (then it is
//! the cause, whatever the others say), and what must change so that at least one node passes
//! every filter (the combination rule).
//!
//! How the counts combine depends on how the scheduler counted (kubernetes/kubernetes
//! `pkg/scheduler/framework/types.go` `FitError.Error`, `Diagnosis.NodeToStatus`;
//! `pkg/scheduler/framework/runtime/framework.go` `RunFilterPlugins`):
//! - v1.17+ (the scheduling framework): each node is counted under the reasons of the *first*
//!   Filter plugin that rejects it, in the profile's order (`pkg/scheduler/apis/config/v1/
//!   default_plugins.go`: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
//!   NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits, VolumeBinding,
//!   VolumeZone, PodTopologySpread, InterPodAffinity, DynamicResources). Reasons of different
//!   plugins therefore count disjoint nodes, and the nodes under a later plugin are exactly the
//!   ones that passed every earlier plugin; one plugin may give a node several reasons
//!   (NodeResourcesFit: `Insufficient cpu` and `Insufficient memory` on one node).
//! - before (v1.10-v1.16 predicates, `pkg/scheduler/algorithm/predicates/predicates.go`
//!   `GeneralPredicates`, until the predicates became Filter plugins): one node reports every failing check of the general predicates
//!   (`PodFitsResources`, `PodFitsHost`, `PodFitsHostPorts`, `PodMatchNodeSelector`), so the
//!   counts add up to more than `N` and each count is a set of nodes
//!   (kubernetes#49896: `0/10 nodes are available: 10 node(s) didn't match node selector, 4
//!   Insufficient cpu.`).
//!
//! The histogram itself is sorted as strings, so neither its order nor its largest count says
//! which reason blocks the pod: the accounting does.

use cube_quota::schedmsg::{ReasonCount, ReasonKind, SchedulerMessage};

use super::blocking::{self, Role};

/// The position of a reason's Filter plugin in the default profile's order (see the module
/// docs); extender and unknown reasons come last (extenders filter after the plugins).
fn filter_rank(r: &ReasonCount) -> u8 {
    use ReasonKind as K;
    match r.reason.kind {
        K::Unschedulable | K::UnknownCondition => 0,
        K::NodeName => 1,
        K::UntoleratedTaint => 2,
        K::NodeAffinity | K::EnforcedNodeAffinity => 3,
        K::NodePorts => 4,
        K::TooManyPods | K::Insufficient => 5,
        K::DiskConflict | K::ReadWriteOncePodConflict => 6,
        K::MaxVolumeCount => 7,
        K::VolumeNodeAffinityConflict
        | K::VolumeBindConflict
        | K::UnboundImmediateClaims
        | K::ClaimNotFound
        | K::NotEnoughStorage
        | K::BoundToMissingVolume => 8,
        K::VolumeZoneConflict => 9,
        K::TopologySpread | K::TopologySpreadMissingLabel => 10,
        K::PodAffinity | K::PodAntiAffinity | K::ExistingPodsAntiAffinity => 11,
        K::ClaimsNotAllocatable | K::ClaimNotAvailable | K::DynamicResources => 12,
        _ => 13,
    }
}

/// What one reason says about the nodes it counts, as a predicate ("do not match the pod's
/// nodeSelector / node affinity"), typed by cause.
pub(super) fn label(r: &ReasonCount) -> String {
    use ReasonKind as K;
    if let Some(c) = blocking::condition_of(r) {
        return format!("carry the system taint {} ({})", c.key, c.condition);
    }
    if blocking::is_pod_count(r) {
        return "are at their maximum pod count (allocatable pods)".to_owned();
    }
    match r.reason.kind {
        K::Insufficient => format!(
            "lack free {}",
            r.reason.resource().unwrap_or("of a resource")
        ),
        K::NodeAffinity => {
            "do not match the pod's nodeSelector / required node affinity".to_owned()
        }
        K::EnforcedNodeAffinity => {
            "do not match the scheduler profile's enforced node affinity (addedAffinity)".to_owned()
        }
        K::NodeName => "are not the node the pod names in spec.nodeName".to_owned(),
        K::Unschedulable => "are cordoned (spec.unschedulable)".to_owned(),
        K::UntoleratedTaint => match (r.reason.value("key"), r.reason.value("value")) {
            (Some(k), Some(v)) if !v.is_empty() => {
                format!("carry the taint {k}={v}, which the pod does not tolerate")
            }
            (Some(k), _) => format!("carry the taint {k}, which the pod does not tolerate"),
            _ => "carry a taint the pod does not tolerate".to_owned(),
        },
        K::NodePorts => "already use the pod's hostPort".to_owned(),
        K::TopologySpread => "would break the pod's topologySpreadConstraints (maxSkew)".to_owned(),
        K::TopologySpreadMissingLabel => {
            "lack the topologyKey label of the pod's topologySpreadConstraints".to_owned()
        }
        K::PodAffinity => "fail the pod's required pod affinity".to_owned(),
        K::PodAntiAffinity => "fail the pod's required pod anti-affinity".to_owned(),
        K::ExistingPodsAntiAffinity => "run pods whose anti-affinity rejects this pod".to_owned(),
        K::VolumeNodeAffinityConflict => {
            "are outside the nodeAffinity of the pod's PersistentVolume".to_owned()
        }
        K::VolumeZoneConflict => "are outside the zone of the pod's PersistentVolume".to_owned(),
        K::VolumeBindConflict => "have no PersistentVolume the pod's claim could bind".to_owned(),
        K::MaxVolumeCount => "are at their attachable-volume limit".to_owned(),
        K::DiskConflict | K::ReadWriteOncePodConflict => "already use the pod's volume".to_owned(),
        K::NotEnoughStorage => "lack free storage for the pod's claim".to_owned(),
        K::ClaimsNotAllocatable => "cannot satisfy the pod's ResourceClaims (DRA)".to_owned(),
        K::ClaimNotAvailable => "are not where the pod's allocated ResourceClaim is".to_owned(),
        _ => format!("report '{}'", r.reason.text),
    }
}

/// The short fix of a selection reason, for the combination rule.
fn widen(r: &ReasonCount) -> String {
    use ReasonKind as K;
    match r.reason.kind {
        K::NodeAffinity | K::EnforcedNodeAffinity => {
            "change the pod's nodeSelector / node affinity (or label more nodes)".to_owned()
        }
        K::NodeName => "drop spec.nodeName".to_owned(),
        K::Unschedulable => "uncordon a node".to_owned(),
        K::UntoleratedTaint => match r.reason.value("key") {
            Some(k) => {
                format!("tolerate the taint {k} (or remove it from the nodes meant for the pod)")
            }
            None => "tolerate the nodes' taint (or remove it from the nodes meant for the pod)"
                .to_owned(),
        },
        _ => format!("remove what '{}' names", r.reason.text),
    }
}

/// The accounting of one message.
pub(super) struct Accounting {
    /// Where the nodes fail, each reason with its count, largest first.
    pub cause: String,
    /// What makes at least one node fit.
    pub remedy: String,
    /// True when a selection reason (nodeSelector / affinity, taint, nodeName, cordon) holds
    /// on every node: it is the cause, and a shortage elsewhere in the message is secondary.
    pub selection_covers_all: bool,
}

/// The accounting of a message that mixes reasons that only select nodes (nodeSelector /
/// affinity, a purposeful taint, nodeName, a cordon) with a resource shortage (`Insufficient
/// <resource>`), or in which one reason covers every node while others are named too. `None`
/// for other messages (one reason, no node count, nothing to combine).
pub(super) fn of(m: &SchedulerMessage) -> Option<Accounting> {
    let n = m.nodes;
    if n == 0
        || m.reasons.len() < 2
        || m.dialect == cube_quota::schedmsg::Dialect::LegacyKubeScheduler
    {
        return None;
    }
    let role = |r: &ReasonCount| blocking::part(r, n).role;
    let shortage =
        |r: &&ReasonCount| r.reason.kind == ReasonKind::Insufficient && !blocking::is_pod_count(r);
    let selection: Vec<&ReasonCount> = m
        .reasons
        .iter()
        .filter(|r| role(r) == Role::Excludes)
        .collect();
    // the node count of each plugin: the largest count among its reasons (one plugin may give
    // one node several reasons); plugins count disjoint nodes unless the counts exceed N
    let mut ranks: std::collections::BTreeMap<u8, usize> = std::collections::BTreeMap::new();
    for r in &m.reasons {
        let e = ranks.entry(filter_rank(r)).or_default();
        *e = (*e).max(r.count);
    }
    let overlapping = ranks.values().sum::<usize>() > n;
    let covering: Vec<&ReasonCount> = m.reasons.iter().filter(|r| r.count >= n).collect();
    let mixed = !selection.is_empty() && m.reasons.iter().any(|r| shortage(&r));
    let covered = overlapping && !covering.is_empty();
    if !(mixed || covered) {
        return None;
    }
    let mut sorted: Vec<&ReasonCount> = m.reasons.iter().collect();
    sorted.sort_by_key(|r| (std::cmp::Reverse(r.count), filter_rank(r)));
    let listed: Vec<String> = sorted
        .iter()
        .map(|r| {
            format!(
                "{} of {n} node(s) {} ('{}')",
                r.count,
                label(r),
                r.reason.text
            )
        })
        .collect();
    let selection_covers_all = covering.iter().any(|r| role(r) == Role::Excludes);
    if overlapping {
        let all: Vec<String> = covering.iter().map(|r| label(r)).collect();
        let cause = if covering.is_empty() {
            format!(
                "how the {n} nodes fail: {}; the counts add up to more than {n} because a node is counted under every check it fails (the general predicates of v1.10-v1.17, or several resources of NodeResourcesFit), so each count is a set of nodes and no node passes them all",
                listed.join(", ")
            )
        } else {
            format!(
                "how the {n} nodes fail: {}; a node is counted under every check it fails (the general predicates of v1.10-v1.17, or several resources of NodeResourcesFit), so all {n} nodes {}: that alone keeps the pod off every node, whatever the other reasons say",
                listed.join(", "),
                all.join(" and ")
            )
        };
        let first: Vec<String> = covering
            .iter()
            .map(|r| {
                if role(r) == Role::Excludes {
                    widen(r)
                } else {
                    blocking::part(r, n).remedy
                }
            })
            .collect();
        let rest: Vec<String> = sorted
            .iter()
            .filter(|r| r.count < n)
            .map(|r| format!("{} ({} node(s))", r.reason.text, r.count))
            .collect();
        let remedy = format!(
            "for any node to fit, first {}{}",
            first.join("; and "),
            if rest.is_empty() {
                String::new()
            } else {
                format!(
                    "; the node that is then admitted must also pass the other checks ({})",
                    rest.join(", ")
                )
            }
        );
        return Some(Accounting {
            cause,
            remedy,
            selection_covers_all,
        });
    }
    // disjoint: each node under the first plugin that rejects it
    let selected_out: usize = selection.iter().map(|r| r.count).sum();
    let blockers: Vec<&ReasonCount> = m
        .reasons
        .iter()
        .filter(|r| role(r) == Role::Blocks)
        .collect();
    let passing = n.saturating_sub(selected_out);
    let blocked: Vec<String> = blockers
        .iter()
        .map(|r| format!("{} ({})", label(r), r.count))
        .collect();
    let top = sorted[0];
    // Volcano counts a node under every reason it reports (volcano-sh/volcano
    // pkg/scheduler/api/unschedule_info.go FitErrors.Error); kube-scheduler under its first
    // failing plugin's
    let counting = if m.dialect == cube_quota::schedmsg::Dialect::Volcano {
        "Volcano counts a node under each reason it reports; these add up to no more than the nodes"
    } else {
        "the scheduler counts each node once, under the first filter that rejects it"
    };
    let cause = format!(
        "how the {n} nodes fail ({counting}): {}. {} of {n} node(s) are excluded by node selection ({}); the {passing} node(s) that pass it {}; no node passes every filter, so the selection and the shortage together keep the pod Pending, not the shortage alone{}",
        listed.join(", "),
        selected_out,
        selection
            .iter()
            .map(|r| r.reason.text.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        blocked.join(", "),
        if role(top) == Role::Excludes {
            format!(
                " (the selection excludes the most nodes: '{}')",
                top.reason.text
            )
        } else {
            String::new()
        }
    );
    let fixes: Vec<String> = blockers
        .iter()
        .filter_map(|r| r.reason.resource().map(str::to_owned))
        .collect();
    let short = if fixes.is_empty() {
        "the later filters' reasons".to_owned()
    } else {
        fixes.join(" and ")
    };
    let widen_all: Vec<String> = selection.iter().map(|r| widen(r)).collect();
    let remedy = format!(
        "for one node to fit, either give one of the {passing} node(s) that pass the selection enough free {short} (free it there, or lower the pod's request), or {} so that it admits a node that also has the {short} free (the scheduler did not check the {selected_out} excluded node(s) for {short})",
        widen_all.join(", or ")
    );
    Some(Accounting {
        cause,
        remedy,
        selection_covers_all,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_quota::schedmsg;

    fn acc(msg: &str) -> Accounting {
        of(&schedmsg::parse(msg).expect(msg)).expect(msg)
    }

    #[test]
    fn selector_and_shortage_are_both_named_selector_first() {
        let a = acc(
            "0/14 nodes are available: 10 node(s) didn't match node selector, 4 Insufficient cpu.",
        );
        let sel = a
            .cause
            .find("10 of 14 node(s) do not match")
            .expect(&a.cause);
        let cpu = a
            .cause
            .find("4 of 14 node(s) lack free cpu")
            .expect(&a.cause);
        assert!(sel < cpu, "{}", a.cause);
        assert!(a.cause.contains("not the shortage alone"), "{}", a.cause);
        assert!(!a.selection_covers_all);
        assert!(a.remedy.contains("one of the 4 node(s)"), "{}", a.remedy);
        assert!(a.remedy.contains("nodeSelector"), "{}", a.remedy);
        // the histogram is sorted as strings: the order of the text does not matter
        let b = acc(
            "0/8 nodes are available: 1 Insufficient memory, 7 node(s) didn't match Pod's node affinity/selector.",
        );
        assert!(
            b.cause.find("7 of 8").unwrap() < b.cause.find("1 of 8").unwrap(),
            "{}",
            b.cause
        );
    }

    #[test]
    fn a_reason_on_every_node_is_the_cause() {
        // v1.12 (kubernetes#49896): the general predicates count a node under each failure
        let a = acc(
            "0/10 nodes are available: 10 node(s) didn't match node selector, 4 Insufficient cpu.",
        );
        assert!(a.selection_covers_all);
        assert!(
            a.cause
                .contains("all 10 nodes do not match the pod's nodeSelector"),
            "{}",
            a.cause
        );
        assert!(
            a.remedy
                .starts_with("for any node to fit, first change the pod's nodeSelector"),
            "{}",
            a.remedy
        );
        let b = acc(
            "0/8 nodes are available: 6 node(s) didn't match node selector, 8 Insufficient memory.",
        );
        assert!(!b.selection_covers_all);
        assert!(
            b.cause.contains("all 8 nodes lack free memory"),
            "{}",
            b.cause
        );
    }

    #[test]
    fn nothing_to_combine() {
        for msg in [
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
            "0/3 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.",
            "0/5 nodes are available: 2 Insufficient cpu, 3 Insufficient memory.",
        ] {
            assert!(of(&schedmsg::parse(msg).unwrap()).is_none(), "{msg}");
        }
    }
}
