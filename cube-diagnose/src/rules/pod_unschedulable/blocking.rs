//! Which reasons of a `0/N nodes are available: ...` message block the pod, and what each one
//! means.
//!
//! How upstream composes the message (kubernetes/kubernetes `pkg/scheduler/framework/types.go`,
//! `FitError.Error` / `Diagnosis.NodeToStatus`): each node is counted once, under the reasons of
//! the first Filter plugin that rejects it (`RunFilterPlugins` stops at the first failure), the
//! plugins running in the default profile's order: NodeUnschedulable, NodeName, TaintToleration,
//! NodeAffinity, NodePorts, NodeResourcesFit, VolumeRestrictions, NodeVolumeLimits,
//! VolumeBinding, VolumeZone, PodTopologySpread, InterPodAffinity
//! (`pkg/scheduler/apis/config/v1/default_plugins.go`). The histogram is then sorted as strings,
//! so neither the order nor the largest count says what blocks the pod.
//!
//! Reasons that *select* nodes (a nodeSelector or node affinity the node does not match, a
//! taint set on purpose such as the control plane's, `spec.nodeName`, a cordon) exclude nodes
//! the pod was never meant for. The nodes that passed them and failed a later filter are the
//! ones the pod could use: their reasons (`Too many pods` or `Insufficient pods`: the node's
//! pod count is at allocatable `pods`; `exceed max volume count`: the attach limit;
//! topology spread; inter-pod affinity; host ports; a taint the system sets from the node's
//! condition) are what blocks it, whatever their counts.

use cube_quota::schedmsg::{ReasonCount, ReasonKind};

use crate::rules::node_conditions::{ConditionTaint, condition_taint};

/// The part one reason plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// It only keeps the pod off nodes it does not select (affinity, purposeful taints, cordon).
    Excludes,
    /// It keeps the pod off nodes it could otherwise use.
    Blocks,
}

/// One reason explained.
#[derive(Debug, Clone)]
pub(super) struct Part {
    /// Its role.
    pub role: Role,
    /// The node count.
    pub count: usize,
    /// What it means, with its count.
    pub cause: String,
    /// What removes it.
    pub remedy: String,
}

/// Reason texts of the pre-v1.20 scheduler predicates (`pkg/scheduler/algorithm/predicates/
/// error.go`, v1.10-v1.17; the framework kept some until v1.19) that stand for a node condition:
/// the text and the system taint of the same condition.
const PREDICATE_CONDITIONS: &[(&str, &str)] = &[
    (
        "node(s) had disk pressure",
        "node.kubernetes.io/disk-pressure",
    ),
    (
        "node(s) had memory pressure",
        "node.kubernetes.io/memory-pressure",
    ),
    (
        "node(s) had pid pressure",
        "node.kubernetes.io/pid-pressure",
    ),
    (
        "node(s) were out of disk space",
        "node.kubernetes.io/disk-pressure",
    ),
    ("node(s) were not ready", "node.kubernetes.io/not-ready"),
    (
        "node(s) had unavailable network",
        "node.kubernetes.io/network-unavailable",
    ),
];

/// The system taint (or pre-v1.20 predicate) a reason stands for, when it stands for a node
/// condition.
pub(super) fn condition_of(r: &ReasonCount) -> Option<&'static ConditionTaint> {
    match r.reason.kind {
        ReasonKind::UntoleratedTaint => r.reason.value("key").and_then(condition_taint),
        ReasonKind::Unknown => {
            let t = r
                .reason
                .text
                .trim()
                .trim_end_matches('.')
                .to_ascii_lowercase();
            PREDICATE_CONDITIONS
                .iter()
                .find(|(text, _)| t == *text)
                .and_then(|(_, key)| condition_taint(key))
        }
        _ => None,
    }
}

/// Whether a reason is `Insufficient pods` (the node's pod count, not a pod's request: every
/// pod counts one against allocatable `pods`; noderesources/fit.go checks it before the
/// resources and words it `Too many pods`; schedulers and versions that run the generic resource
/// check word it `Insufficient pods`).
pub(super) fn is_pod_count(r: &ReasonCount) -> bool {
    r.reason.kind == ReasonKind::TooManyPods
        || (r.reason.kind == ReasonKind::Insufficient && r.reason.resource() == Some("pods"))
}

/// The max-pods explanation for `k` nodes of `total`.
pub(super) fn max_pods(k: usize, total: usize, text: &str) -> (String, String) {
    (
        format!(
            "{k} of {total} node(s) are at their maximum pod count ('{text}': every pod counts one against the node's allocatable `pods`, the kubelet's maxPods: 110 by default; on EKS with the VPC CNI it is the instance type's ENI/IP limit, e.g. 11 on t3.small, 17 on t3.medium): the pod count is a limit of its own, whatever CPU and memory those nodes have free"
        ),
        "raise the kubelet's maxPods where the network allows it (EKS: prefix delegation with max-pods from the max-pods calculator, or a larger instance type), move or delete pods on those nodes, or add nodes the pod may use; `kubectl get nodes -o custom-columns=NAME:.metadata.name,MAXPODS:.status.allocatable.pods` and `kubectl get pods -A -o wide --field-selector spec.nodeName=<node>` show the limit and the count".to_owned(),
    )
}

/// Taints set on purpose by well-known components, with what the tainted nodes are and the
/// remedy (`{key}` is the key): kubeadm's control-plane taint (kubernetes/kubernetes
/// `cmd/kubeadm/app/constants/constants.go` `LabelNodeRoleControlPlane`; `LabelNodeRoleOldControlPlane`
/// `node-role.kubernetes.io/master` until v1.24), the GPU taints cloud GPU node pools and the
/// GPU docs put on GPU nodes (`nvidia.com/gpu`, AKS / GKE `sku=gpu`, `amd.com/gpu`), and the
/// autoscalers' taints on nodes being removed (kubernetes/autoscaler
/// `cluster-autoscaler/utils/taints/taints.go` `ToBeDeletedByClusterAutoscaler`,
/// `DeletionCandidateOfClusterAutoscaler`; kubernetes-sigs/karpenter `pkg/apis/v1/taints.go`
/// `karpenter.sh/disrupted`, v1beta1 `karpenter.sh/disruption`).
fn known_taint(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
        "node-role.kubernetes.io/control-plane" | "node-role.kubernetes.io/master" => (
            "these are control-plane nodes, which kubeadm taints so that workloads stay off them; when they are all the nodes there are, the cluster has no worker for the pod",
            "join a worker node (`kubeadm token create --print-join-command` on the control plane, then run the printed command on the worker), or on a single-node or test cluster let workloads run on the control plane: `kubectl taint nodes --all {key}-`; only system pods meant for the control plane should tolerate {key}",
        ),
        "nvidia.com/gpu" | "amd.com/gpu" | "sku" | "gpu" | "nvidia.com/gpu.present" => (
            "GPU nodes tainted so that only pods meant for GPUs run there",
            "a pod meant for those nodes tolerates the taint (`tolerations: [{key: {key}, operator: Exists, effect: NoSchedule}]`; the ExtendedResourceToleration admission plugin adds it to pods requesting an extended resource of the same name), and a pod that needs no GPU should run on the other nodes",
        ),
        "ToBeDeletedByClusterAutoscaler"
        | "DeletionCandidateOfClusterAutoscaler"
        | "karpenter.sh/disrupted"
        | "karpenter.sh/disruption" => (
            "the node autoscaler is removing these nodes (scale-down or consolidation)",
            "nothing to tolerate: the autoscaler removes these nodes; the pod needs a node that stays (check why no new node is added: the autoscaler's events on the pod, `kubectl get events --field-selector reason=NotTriggerScaleUp`, or the NodePool's limits)",
        ),
        _ => return None,
    })
}

/// Explains one reason of a message over `total` nodes.
pub(super) fn part(r: &ReasonCount, total: usize) -> Part {
    let k = r.count;
    let text = r.reason.text.as_str();
    let blocks = |cause: String, remedy: &str| Part {
        role: Role::Blocks,
        count: k,
        cause,
        remedy: remedy.to_owned(),
    };
    if let Some(c) = condition_of(r) {
        let role = if c.key == "node.kubernetes.io/unschedulable" {
            Role::Excludes
        } else {
            Role::Blocks
        };
        return Part {
            role,
            count: k,
            cause: format!(
                "{k} of {total} node(s) carry {} ({}: {}; the node lifecycle controller sets this taint from the node's state, so the pod is not at fault and tolerating this taint is not the fix)",
                c.key, c.condition, c.meaning
            ),
            remedy: c.remedy.to_owned(),
        };
    }
    if is_pod_count(r) {
        let (cause, remedy) = max_pods(k, total, text);
        return blocks(cause, &remedy);
    }
    match r.reason.kind {
        ReasonKind::UntoleratedTaint => {
            let key = r.reason.value("key").unwrap_or("");
            let (what, remedy) = match known_taint(key) {
                Some((what, remedy)) => (format!(": {what}"), remedy.replace("{key}", key)),
                None if key.is_empty() => (
                    String::new(),
                    "the message does not name the taint (v1.35+ prints `untolerated taint(s)`): `kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints` shows them; add a matching toleration to the pod if it is meant to run on those nodes, or remove the taint from the nodes meant for it".to_owned(),
                ),
                None => (
                    String::new(),
                    format!("add a toleration for {key} to the pod if it is meant to run on those nodes (`tolerations: [{{key: {key}, operator: Exists}}]`), or remove the taint from the nodes meant for it (`kubectl taint nodes <node> {key}-`); `kubectl describe nodes | grep -A3 Taints` shows every taint"),
                ),
            };
            Part {
                role: Role::Excludes,
                count: k,
                cause: format!("{k} of {total} node(s) carry a taint the pod does not tolerate ('{text}'){what}"),
                remedy,
            }
        }
        // NodeName (v1.0-v1.9 predicate `HostName` / `PodFitsHost`): the pod names a node in
        // spec.nodeName and these nodes are not it
        ReasonKind::NodeName => Part {
            role: Role::Excludes,
            count: k,
            cause: format!("{k} of {total} node(s) are not the node the pod names in spec.nodeName ('{text}')"),
            remedy: "the pod is tied to one node by spec.nodeName: check that node exists and can take it (`kubectl get nodes`), or remove spec.nodeName and place the pod with a nodeSelector on kubernetes.io/hostname".to_owned(),
        },
        ReasonKind::NodeAffinity | ReasonKind::EnforcedNodeAffinity => Part {
            role: Role::Excludes,
            count: k,
            cause: format!("{k} of {total} node(s) do not match the pod's nodeSelector / node affinity ('{text}')"),
            remedy: "compare the pod's nodeSelector/affinity with `kubectl get nodes --show-labels`: label the intended nodes or fix the selector".to_owned(),
        },
        ReasonKind::Unschedulable => Part {
            role: Role::Excludes,
            count: k,
            cause: format!("{k} of {total} node(s) are cordoned (spec.unschedulable)"),
            remedy: "`kubectl uncordon <node>` for the cordoned nodes meant to take pods".to_owned(),
        },
        ReasonKind::MaxVolumeCount => blocks(
            format!("{k} of {total} node(s) have reached their attachable-volume limit ('{text}', NodeVolumeLimits: the volumes of the pods on the node plus this pod's exceed what the node can attach: CSINode `spec.drivers[].allocatable.count`, or the in-tree `attachable-volumes-<plugin>` allocatable, set by the machine type: Azure disks per VM size, EBS 25-39 on Nitro, GCE PD by machine type)"),
            "use a machine type that can attach more disks, add nodes to the pool (the cluster autoscaler must be allowed to grow it: raise the node group's max size), or run fewer volume-backed pods per node; `kubectl get csinode <node> -o yaml` shows the limit",
        ),
        ReasonKind::TopologySpread => blocks(
            format!("{k} of {total} node(s) fail the pod's topologySpreadConstraints ('{text}': with whenUnsatisfiable: DoNotSchedule, placing it there would exceed maxSkew between the topology domains)"),
            "check the pod's topologySpreadConstraints (maxSkew, topologyKey, labelSelector) against where the matching pods run (`kubectl get pods -o wide -l <selector>`) and the nodes' topology labels; raise maxSkew, use whenUnsatisfiable: ScheduleAnyway, or add schedulable nodes in the domains with the fewest matching pods (nodes excluded by taints still count as domains unless nodeTaintsPolicy: Honor)",
        ),
        ReasonKind::TopologySpreadMissingLabel => blocks(
            format!("{k} of {total} node(s) lack the topologyKey label of the pod's topologySpreadConstraints ('{text}')"),
            "label the nodes with the constraint's topologyKey (e.g. topology.kubernetes.io/zone) or fix the topologyKey",
        ),
        ReasonKind::PodAffinity | ReasonKind::PodAntiAffinity | ReasonKind::ExistingPodsAntiAffinity => blocks(
            format!("{k} of {total} node(s) fail inter-pod (anti-)affinity ('{text}')"),
            "relax the required (anti-)affinity or add nodes in the topology it needs",
        ),
        ReasonKind::NodePorts => blocks(
            format!("{k} of {total} node(s) already use the pod's hostPort"),
            "drop the hostPort or run fewer replicas than nodes",
        ),
        ReasonKind::VolumeZoneConflict => blocks(
            format!("{k} of {total} node(s) are outside the zone of the pod's PersistentVolume ('{text}')"),
            "run the pod in the volume's zone (nodes there must pass the other filters) or re-create the volume in the zone of the usable nodes",
        ),
        ReasonKind::VolumeNodeAffinityConflict => blocks(
            format!("{k} of {total} node(s) are excluded by the nodeAffinity of the pod's PersistentVolume ('{text}')"),
            "the PersistentVolume's nodeAffinity names other nodes: run the pod where the volume is, or re-create the volume where the pod may run",
        ),
        ReasonKind::DiskConflict | ReasonKind::ReadWriteOncePodConflict => blocks(
            format!("{k} of {total} node(s) already use the pod's volume ('{text}')"),
            "the volume is in use by another pod: stop that pod or use a volume that allows several users",
        ),
        // DynamicResources Filter (pkg/scheduler/framework/plugins/dynamicresources)
        ReasonKind::ClaimsNotAllocatable => blocks(
            format!("{k} of {total} node(s) cannot satisfy the pod's ResourceClaims ('{text}', DRA: no set of free devices in the node's ResourceSlices matches every request of the claims: the DeviceClass or CEL selectors, the count, or every matching device already allocated to other claims)"),
            "compare the claims' requests with the devices the nodes publish (`kubectl get resourceslices -o yaml`) and the claims holding them (`kubectl get resourceclaims -A`); free devices, relax the selector or count, or add nodes with such devices",
        ),
        ReasonKind::ClaimNotAvailable => blocks(
            format!("{k} of {total} node(s) are not where the pod's already allocated ResourceClaim is ('{text}': an allocated claim pins its pods to the nodes of its allocation, status.allocation.nodeSelector)"),
            "run the pod where its claim's devices are, or give it its own claim (ResourceClaimTemplate) instead of sharing one allocated elsewhere",
        ),
        // a scheduler extender's or out-of-tree plugin's own reason (extender.rs)
        ReasonKind::Unknown if let Some((cause, remedy)) = super::extender::explain(r, total) => {
            blocks(cause, &remedy)
        }
        _ => blocks(
            format!("{k} of {total} node(s) report '{text}'"),
            "address the named reason, then re-check with `kubectl describe pod`",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_quota::schedmsg;

    fn parts(msg: &str) -> Vec<Part> {
        let m = schedmsg::parse(msg).expect(msg);
        m.reasons.iter().map(|r| part(r, m.nodes)).collect()
    }

    #[test]
    fn selection_reasons_exclude_capacity_reasons_block() {
        let p = parts(
            "0/7 nodes are available: 1 Too many pods, 6 node(s) didn't match Pod's node affinity/selector.",
        );
        let blocking: Vec<_> = p.iter().filter(|p| p.role == Role::Blocks).collect();
        assert_eq!(blocking.len(), 1);
        assert!(blocking[0].cause.contains("maximum pod count"));
        let p = parts(
            "0/3 nodes are available: 1 node(s) didn't match node selector, 2 Insufficient pods.",
        );
        assert!(
            p.iter()
                .any(|p| p.role == Role::Blocks && p.cause.contains("maxPods"))
        );
        let p = parts(
            "0/4 nodes are available: 1 node(s) exceed max volume count, 3 node(s) didn't match Pod's node affinity.",
        );
        assert!(
            p.iter()
                .any(|p| p.role == Role::Blocks && p.cause.contains("attach"))
        );
    }

    #[test]
    fn condition_taints_in_every_wording_are_the_condition() {
        for msg in [
            "0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/disk-pressure: }, that the pod didn't tolerate.",
            "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
            "0/1 nodes are available: 1 node(s) had disk pressure.",
        ] {
            let p = parts(msg);
            assert_eq!(p[0].role, Role::Blocks, "{msg}");
            assert!(p[0].cause.contains("DiskPressure"), "{msg}: {}", p[0].cause);
            assert!(p[0].remedy.contains("free disk"), "{msg}");
            assert!(!p[0].remedy.contains("toleration"), "{msg}");
        }
        let p = parts("0/2 nodes are available: 2 node(s) had memory pressure.");
        assert!(p[0].cause.contains("MemoryPressure"));
        let p = parts(
            "0/3 nodes are available: 3 node(s) had untolerated taint {node.kubernetes.io/pid-pressure: }.",
        );
        assert!(p[0].cause.contains("PIDPressure"));
        // a custom taint named like the condition is not the system's
        let p = parts(
            "0/1 nodes are available: 1 node(s) had untolerated taint {unschedulable: true}.",
        );
        assert_eq!(p[0].role, Role::Excludes);
    }
}
