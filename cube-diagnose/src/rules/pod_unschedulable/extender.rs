//! Reasons in a `0/N nodes are available: ...` histogram that no kube-scheduler plugin prints:
//! a scheduler extender (KubeSchedulerConfiguration `extenders`, whose `failedNodes` map of
//! node -> reason kube-scheduler counts into the same histogram,
//! kubernetes/kubernetes `pkg/scheduler/framework/runtime` / `pkg/scheduler/extender.go`) or an
//! out-of-tree plugin of a second scheduler rejected those nodes, and that component's
//! configuration is what to look at, not a node property.
//!
//! The built-in reasons are the wordings of `pkg/scheduler/framework/plugins/*`
//! ([`cube_quota::schedmsg::REASON_WORDINGS`], any version kept there), the pre-v1.10
//! predicate names ([`cube_quota::schedmsg::LEGACY_PREDICATE_REASONS`]) and the v1.10-v1.19
//! predicate texts (`pkg/scheduler/algorithm/predicates/error.go`: all `node(s) ...`, plus
//! `Insufficient <resource>`, `pod has unbound ...`). A reason that is none of these and reads
//! as a component's code (a CamelCase word: `ExceedsGPUQuota`) or is a known extender's text is
//! foreign.

use cube_quota::schedmsg::{LEGACY_PREDICATE_REASONS, ReasonCount, ReasonKind};

/// One extender's reason: the text it puts in `failedNodes`, the component, what it means and
/// what to do.
struct Known {
    text: &'static str,
    component: &'static str,
    cause: &'static str,
    remedy: &'static str,
}

const KNOWN: &[Known] = &[
    // tkestack/gpu-admission pkg/predicate/gpu_predicate.go (filterNodes): the node's GPU model
    // label or pool label is not in the pod's namespace entry of gpu-admission's quota
    // ConfigMap (docs/gpu-quota.md)
    Known {
        text: "ExceedsGPUQuota",
        component: "the tkestack gpu-admission scheduler extender (TKE gpu-manager)",
        cause: "the namespace's GPU quota of gpu-admission does not cover these nodes: the node's GPU model label or pool label is not among the gpuModels / pools of the pod's namespace entry in gpu-admission's quota ConfigMap (a namespace without an entry gets none), so the extender rejects them whatever GPUs they have free",
        remedy: "add the pod's namespace (with the nodes' GPU model and pool) to gpu-admission's quota ConfigMap (the format of tkestack/gpu-admission docs/gpu-quota.md), check the nodes carry the model and pool labels it names (`kubectl get nodes --show-labels`), then restart gpu-admission so it reloads the quota",
    },
    // tkestack/gpu-admission pkg/predicate/gpu_predicate.go (deviceFilter): its verdicts on
    // each node's vcuda cards (`failedNodesMap[node] = ...`); `pod <uid> ...` names the pod
    Known {
        text: "no GPU device",
        component: "the tkestack gpu-admission scheduler extender (TKE gpu-manager)",
        cause: "gpu-admission sees no GPU on these nodes (util.IsGPUEnabledNode: no tencent.com/vcuda-core in the node's capacity): gpu-manager does not run or has not registered there",
        remedy: "check the gpu-manager DaemonSet pod on those nodes (`kubectl -n kube-system get pods -o wide | grep gpu-manager`, its log) and that the node's capacity lists tencent.com/vcuda-core and tencent.com/vcuda-memory (`kubectl describe node <node>`)",
    },
    Known {
        text: "does not match with this node",
        component: "the tkestack gpu-admission scheduler extender (TKE gpu-manager)",
        cause: "gpu-admission's allocator found no card (or set of cards) on these nodes with the free vcuda-core and vcuda-memory the pod asks for: the cards are taken by other pods, or a fractional request does not fit one card",
        remedy: "compare the pod's tencent.com/vcuda-core (100 = one card) and tencent.com/vcuda-memory with the cards' free share on the nodes (the pods holding them: `kubectl get pods -A -o wide --field-selector spec.nodeName=<node>`); lower the request or free a card",
    },
    Known {
        text: "has already been matched to another node",
        component: "the tkestack gpu-admission scheduler extender (TKE gpu-manager)",
        cause: "gpu-admission picks exactly one node per pod and rejects every other node with this text: these nodes are not the problem, the other reasons of the message are",
        remedy: "read the message's other reasons (the node gpu-admission chose failed another filter), or the gpu-admission log for the pod",
    },
    Known {
        text: "update pod annotation failed",
        component: "the tkestack gpu-admission scheduler extender (TKE gpu-manager)",
        cause: "gpu-admission chose a card but could not write its predicate annotations to the pod (API server error, RBAC of its service account)",
        remedy: "read the gpu-admission log for `failed to add annotation` and check its RBAC (patch on pods)",
    },
    Known {
        text: "failed to get pods on node",
        component: "the tkestack gpu-admission scheduler extender (TKE gpu-manager)",
        cause: "gpu-admission could not list the pods of these nodes from its informer cache",
        remedy: "read the gpu-admission log and check its RBAC (list/watch pods) and its connection to the API server",
    },
    // kubernetes-sigs/scheduler-plugins pkg/coscheduling/core/core.go (PodGroupManager
    // PreFilter; before v1.26 kube-scheduler counted a PreFilter rejection once per node, from
    // v1.26 it is the message's PreFilter sentence)
    Known {
        text: "cannot find enough sibling pods",
        component: "the coscheduling plugin (kubernetes-sigs/scheduler-plugins gang scheduling)",
        cause: "fewer pods of the PodGroup exist than its minMember, so no member is scheduled until the rest are created",
        remedy: "create the missing members (the job's replicas) with the PodGroup label in metadata.labels (`scheduling.x-k8s.io/pod-group: <podgroup>`; older releases `pod-group.scheduling.sigs.k8s.io`), or lower the PodGroup's minMember (`kubectl get podgroups.scheduling.x-k8s.io -o yaml`)",
    },
    Known {
        text: "resource gap: ",
        component: "the coscheduling plugin (kubernetes-sigs/scheduler-plugins gang scheduling)",
        cause: "the nodes' free resources in total do not cover the PodGroup's minResources (CheckClusterResource), so the gang is rejected before any node is tried",
        remedy: "compare the PodGroup's spec.minResources with the nodes' free resources (`kubectl describe nodes`, Allocated resources); free or add capacity, or lower minResources / minMember",
    },
    Known {
        text: "failed recently",
        component: "the coscheduling plugin (kubernetes-sigs/scheduler-plugins gang scheduling)",
        cause: "the PodGroup was denied in a recent cycle (a member could not be placed) and is backed off",
        remedy: "find the first rejection of the PodGroup's members (their older FailedScheduling events: `resource gap`, too few sibling pods, or node reasons) and fix that; the backoff clears by itself",
    },
    Known {
        text: "is unschedulable even after PostFilter",
        component: "the coscheduling plugin (kubernetes-sigs/scheduler-plugins gang scheduling)",
        cause: "one member of the PodGroup cannot be placed even after preemption, so the whole group is rejected",
        remedy: "read the FailedScheduling reasons of the member named and make room for it (or lower minMember)",
    },
    // volcano-sh/volcano pkg/scheduler/api/unschedule_info.go: Volcano's own node reasons in
    // its `0/N nodes are unavailable:` histogram (NodeResourceFitFailed before the allocate
    // action named the resource as `Insufficient <resource>`, NodePodNumberExceeded)
    Known {
        text: "node(s) resource fit failed",
        component: "Volcano's allocate action",
        cause: "the task's requests do not fit the idle resources of these nodes (cpu, memory or an extended resource such as nvidia.com/gpu; this Volcano release does not name which)",
        remedy: "compare the task's requests with the nodes' free resources (`kubectl describe nodes`, Allocated resources), including extended resources; free or add capacity, or lower the requests",
    },
    Known {
        text: "node(s) pod number exceeded",
        component: "Volcano's predicates plugin",
        cause: "these nodes already run as many pods as their allocatable `pods` allows (kubelet maxPods)",
        remedy: "raise the kubelet's maxPods where the network allows it, move pods off those nodes, or add nodes",
    },
    // AliyunContainerService/gpushare-scheduler-extender pkg/scheduler/gpushare-predicate.go
    Known {
        text: "Insufficient GPU Memory in one device",
        component: "the gpushare-scheduler-extender (Alibaba GPU sharing)",
        cause: "no single GPU of these nodes has the free aliyun.com/gpu-mem the pod asks for (the extender places a pod's GPU memory on one card)",
        remedy: "lower the pod's aliyun.com/gpu-mem to what one card has free (`kubectl inspect gpushare`), or free memory on a card",
    },
    Known {
        text: "is not for GPU share, need skip",
        component: "the gpushare-scheduler-extender (Alibaba GPU sharing)",
        cause: "the nodes are not GPU-sharing nodes (no aliyun.com/gpu-mem advertised: the gpushare device plugin does not run there)",
        remedy: "label the GPU nodes for the gpushare device plugin (`kubectl label node <node> gpushare=true`) and check its pod on them",
    },
];

/// A foreign reason: the component (when known), its cause and remedy for `k` of `total` nodes.
pub(super) fn explain(r: &ReasonCount, total: usize) -> Option<(String, String)> {
    if r.reason.kind != ReasonKind::Unknown {
        return None;
    }
    let text = r.reason.text.trim().trim_end_matches('.');
    let k = r.count;
    if let Some(known) = KNOWN.iter().find(|x| text.contains(x.text)) {
        return Some((
            format!(
                "{k} of {total} node(s) were rejected by {} ('{text}', not a kube-scheduler reason): {}",
                known.component, known.cause
            ),
            known.remedy.to_owned(),
        ));
    }
    if !is_component_code(text) {
        return None;
    }
    Some((
        format!(
            "{k} of {total} node(s) were rejected with '{text}', which no kube-scheduler plugin prints: a scheduler extender (the scheduler configuration's `extenders`) or an out-of-tree plugin of this scheduler rejected them, for a reason of its own (its quota, its device accounting, its own node registration), not a node property the pod spec names"
        ),
        format!(
            "find the component that prints '{text}': the scheduler's configuration (`kubectl -n kube-system get configmap -o yaml | grep -B2 -A8 -i extender`, or the second scheduler named in the pod's spec.schedulerName) names its extenders; read that component's log and configuration for '{text}'"
        ),
    ))
}

/// A PreFilter sentence (v1.26+) of a known out-of-tree plugin: its cause and remedy.
pub(super) fn prefilter(text: &str) -> Option<(String, String)> {
    let known = KNOWN.iter().find(|x| text.contains(x.text))?;
    Some((
        format!(
            "rejected by {} before any node was considered ('{}'): {}",
            known.component,
            text.trim().trim_end_matches('.'),
            known.cause
        ),
        known.remedy.to_owned(),
    ))
}

/// A CamelCase code (`ExceedsGPUQuota`, `NodeUnfitPod`), not a pre-v1.10 predicate name.
fn is_component_code(text: &str) -> bool {
    let t = text.trim();
    t.len() > 3
        && t.starts_with(|c: char| c.is_ascii_uppercase())
        && t.chars().all(|c| c.is_ascii_alphanumeric())
        && t.chars().skip(1).any(|c| c.is_ascii_uppercase())
        && t.chars().any(|c| c.is_ascii_lowercase())
        && !LEGACY_PREDICATE_REASONS
            .iter()
            .any(|(name, _, _)| *name == t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_rule;
    use cube_quota::schedmsg;

    #[test]
    fn extender_reasons_are_told_from_plugin_reasons() {
        // tkestack/gpu-manager#24
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  3s (x3 over 3s)  default-scheduler  0/2 nodes are available: 2 ExceedsGPUQuota.",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("gpu-admission") && f[0].message.contains("quota"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("ConfigMap"), "{}", f[0].remedy);
        // an unknown extender's code
        let f = run_rule(
            "pod-unschedulable",
            "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 NodeGPUPoolMismatch.",
        );
        assert!(f[0].message.contains("extender"), "{f:#?}");
        assert!(!f[0].remedy.contains("address the named reason"), "{f:#?}");
        // built-in and legacy reasons are not foreign
        for msg in [
            "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
            "0/2 nodes are available: 2 node(s) had disk pressure.",
            "0/2 nodes are available: 2 PodFitsResources.",
            "0/2 nodes are available: 2 node(s) didn't have enough resource.",
        ] {
            let m = schedmsg::parse(msg).unwrap();
            assert!(explain(&m.reasons[0], m.nodes).is_none(), "{msg}");
        }
        // coscheduling: a histogram reason before v1.26, the PreFilter sentence after
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  59m   sample-scheduler  0/3 nodes are available: 3 pre-filter pod nginx-8sgkm cannot find enough sibling pods, current pods number: 2, minMember of group: 3.",
        );
        assert!(
            f[0].message.contains("minMember") && f[0].remedy.contains("pod-group"),
            "{f:#?}"
        );
        let f = run_rule(
            "pod-unschedulable",
            "Warning FailedScheduling 10s scheduler-plugins-scheduler 0/4 nodes are available: pre-filter pod gang-worker-1 cannot find enough sibling pods, current pods number: 3, minMember of group: 5. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
        );
        assert!(f[0].message.contains("coscheduling"), "{f:#?}");
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  5s  volcano  0/3 nodes are unavailable: 3 node(s) resource fit failed.",
        );
        assert!(f[0].message.contains("idle resources"), "{f:#?}");
        let m =
            schedmsg::parse("0/1 nodes are available: 1 Insufficient GPU Memory in one device.")
                .unwrap();
        assert!(explain(&m.reasons[0], 1).unwrap().0.contains("gpushare"));
    }

    #[test]
    fn gpu_admission_device_filter_verdicts() {
        // tkestack/gpu-admission pkg/predicate/gpu_predicate.go deviceFilter: the node
        // without vcuda resources, the allocator's no-fit, the other nodes of a matched pod
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  12s  default-scheduler  0/3 nodes are available: 1 pod 00000000-0000-0000-0000-000000000000 does not match with this node, 2 no GPU device.",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        let all = format!("{} {}", f[0].message, f[0].remedy);
        assert!(all.contains("gpu-admission"), "{all}");
        assert!(all.contains("vcuda"), "{all}");
        for text in [
            "pod 00000000-0000-0000-0000-000000000000 has already been matched to another node",
            "update pod annotation failed",
            "failed to get pods on node",
        ] {
            let m = schedmsg::parse(&format!("0/1 nodes are available: 1 {text}.")).unwrap();
            let (cause, _) = explain(&m.reasons[0], 1).expect(text);
            assert!(cause.contains("gpu-admission"), "{text}: {cause}");
        }
        // and never read as a GPU the node does not advertise
        assert!(crate::rules::testutil::run_log(
            "gpu-not-advertised",
            "0/3 nodes are available: 1 pod 00000000-0000-0000-0000-000000000000 does not match with this node, 2 no GPU device."
        )
        .is_empty());
    }
}
