//! Node conditions the kubelet and the node lifecycle controller set, and the taints that stand
//! for them.
//!
//! Upstream:
//! - the taint keys: k8s.io/api `core/v1/well_known_taints.go` (`TaintNodeNotReady`,
//!   `TaintNodeUnreachable`, `TaintNodeUnschedulable`, `TaintNodeMemoryPressure`,
//!   `TaintNodeDiskPressure`, `TaintNodeNetworkUnavailable`, `TaintNodePIDPressure`,
//!   `TaintNodeOutOfService`) and k8s.io/cloud-provider `api/well_known_taints.go`
//!   (`node.cloudprovider.kubernetes.io/uninitialized`, `.../shutdown`);
//! - which condition gives which taint: kubernetes/kubernetes
//!   `pkg/controller/nodelifecycle/node_lifecycle_controller.go`
//!   (`nodeConditionToTaintKeyStatusMap`: Ready False → not-ready, Ready Unknown → unreachable,
//!   MemoryPressure / DiskPressure / PIDPressure / NetworkUnavailable True → the matching key;
//!   `spec.unschedulable` → unschedulable), v1.12+ (TaintNodesByCondition; before it the
//!   scheduler's `CheckNodeMemoryPressure` / `CheckNodeDiskPressure` / `CheckNodePIDPressure`
//!   predicates read the conditions and no taint was set, so a condition alone says it);
//! - the pressure conditions: `pkg/kubelet/eviction/eviction_manager.go` and `helpers.go`
//!   (signals `memory.available` → MemoryPressure; `nodefs.available`, `nodefs.inodesFree`,
//!   `imagefs.available`, `imagefs.inodesFree` → DiskPressure; `pid.available` → PIDPressure;
//!   event `EvictionThresholdMet` `Attempting to reclaim <resource>`), condition texts in
//!   `pkg/kubelet/nodestatus/setters.go` (`KubeletHasDiskPressure` "kubelet has disk pressure",
//!   `KubeletHasInsufficientMemory`, `KubeletHasInsufficientPID`); default `evictionHard`
//!   `memory.available<100Mi`, `nodefs.available<10%`, `imagefs.available<15%`,
//!   `nodefs.inodesFree<5%` (`pkg/kubelet/apis/config/v1beta1/defaults_linux.go`).
//!
//! A taint the system sets from a condition is fixed by fixing the condition: a toleration
//! would place the pod on a node that cannot run it (and the kubelet evicts it again).

use crate::rules::{node_subject, obj};
use crate::{Context, Evidence, Finding, Severity};

/// One taint the system sets from a node condition (or spec field), what it means and the
/// remedy that removes it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConditionTaint {
    /// The taint key.
    pub key: &'static str,
    /// The condition (or field) it stands for, as `kubectl describe node` shows it.
    pub condition: &'static str,
    /// What the node is.
    pub meaning: &'static str,
    /// What removes the taint (the controller removes it once the condition clears).
    pub remedy: &'static str,
}

/// Every system taint set from a node's state (see the module docs for the sources).
pub(crate) const CONDITION_TAINTS: &[ConditionTaint] = &[
    ConditionTaint {
        key: "node.kubernetes.io/disk-pressure",
        condition: "DiskPressure=True",
        meaning: "the kubelet's eviction threshold on the node's root or image filesystem (nodefs/imagefs: free space or inodes below evictionHard, by default nodefs.available<10%, imagefs.available<15%) is met",
        remedy: "free disk on the node (unused images: `crictl rmi --prune`, k3s: `k3s crictl rmi --prune`; container logs; emptyDir data under /var/lib/kubelet) or grow the disk; if the thresholds are wrong for the disk size, adjust the kubelet's evictionHard/evictionSoft. The taint and DiskPressure clear once the kubelet sees free space again (`kubectl describe node <node>`, Conditions)",
    },
    ConditionTaint {
        key: "node.kubernetes.io/memory-pressure",
        condition: "MemoryPressure=True",
        meaning: "the node's available memory is below the kubelet's eviction threshold (memory.available<100Mi by default)",
        remedy: "free memory on the node (lower the pods' usage, set memory limits, move pods away) or add memory; check `kubectl top node` and the kubelet's evictionHard/systemReserved. The taint and MemoryPressure clear once memory is available again",
    },
    ConditionTaint {
        key: "node.kubernetes.io/pid-pressure",
        condition: "PIDPressure=True",
        meaning: "the node is running out of process ids (the kubelet's pid.available threshold is met)",
        remedy: "find the pods that fork many processes (`ps -eLf | wc -l` on the node), set a podPidsLimit in the kubelet config, or raise kernel.pid_max; the taint clears once PIDs are available again",
    },
    ConditionTaint {
        key: "node.kubernetes.io/network-unavailable",
        condition: "NetworkUnavailable=True",
        meaning: "the node's network (CNI or cloud routes) is not configured",
        remedy: "install or repair the CNI plugin (or the cloud route controller) for the node; the CNI sets NetworkUnavailable=False once the node's network is up",
    },
    ConditionTaint {
        key: "node.kubernetes.io/not-ready",
        condition: "Ready=False",
        meaning: "the kubelet reports the node not ready",
        remedy: "`kubectl describe node <node>` (Conditions) and `journalctl -u kubelet` on the node: fix what the Ready condition's message names; the taint goes away once the node is Ready",
    },
    ConditionTaint {
        key: "node.kubernetes.io/unreachable",
        condition: "Ready=Unknown",
        meaning: "the node controller lost the kubelet's heartbeat (node down, kubelet stopped or cut off from the API server)",
        remedy: "on the node `systemctl status kubelet` and `journalctl -u kubelet` (can it reach the API server?); delete the Node object if the machine is gone; the taint goes away once the kubelet reports again",
    },
    ConditionTaint {
        key: "node.kubernetes.io/unschedulable",
        condition: "spec.unschedulable=true (cordoned)",
        meaning: "the node is cordoned",
        remedy: "`kubectl uncordon <node>` for the nodes meant to take pods (once maintenance is over)",
    },
    ConditionTaint {
        key: "node.kubernetes.io/out-of-service",
        condition: "out-of-service (set by an administrator after a non-graceful shutdown)",
        meaning: "the node was marked out of service so its pods are force-deleted",
        remedy: "bring the node back and remove the out-of-service taint (`kubectl taint nodes <node> node.kubernetes.io/out-of-service-`) once it runs again",
    },
    ConditionTaint {
        key: "node.cloudprovider.kubernetes.io/uninitialized",
        condition: "not initialised by the cloud controller manager",
        meaning: "the kubelet runs with --cloud-provider=external and the cloud controller manager has not initialised the node yet",
        remedy: "run (or repair) the cloud controller manager for the cluster (`kubectl -n kube-system get pods | grep cloud-controller`); it removes the taint when it initialises the node",
    },
    ConditionTaint {
        key: "node.cloudprovider.kubernetes.io/shutdown",
        condition: "shut down (cloud provider)",
        meaning: "the cloud provider reports the node's machine shut down",
        remedy: "start the machine again (or delete the Node if it is gone); the taint goes when the cloud reports it running",
    },
];

/// The system taint `key` is, when it is one.
pub(crate) fn condition_taint(key: &str) -> Option<&'static ConditionTaint> {
    CONDITION_TAINTS.iter().find(|t| t.key == key)
}

/// Pressure conditions the kubelet sets (pre-1.12 `OutOfDisk` too): condition type, the taint
/// key it gives, and what is short.
const PRESSURE: &[(&str, &str, &str)] = &[
    ("DiskPressure", "node.kubernetes.io/disk-pressure", "disk"),
    (
        "MemoryPressure",
        "node.kubernetes.io/memory-pressure",
        "memory",
    ),
    (
        "PIDPressure",
        "node.kubernetes.io/pid-pressure",
        "process ids",
    ),
    // Kubernetes up to 1.12: the kubelet's out-of-disk condition (removed in 1.13)
    ("OutOfDisk", "node.kubernetes.io/disk-pressure", "disk"),
];

/// `node-runtime-unhealthy` findings for nodes whose pressure conditions are True (read from
/// Node objects, `-o yaml` status and `describe node` Conditions tables): the node takes no
/// new pods (taint or, before v1.12, the scheduler's pressure predicates) and the kubelet
/// evicts pods. `rule` is the rule id to report under.
pub(crate) fn pressure_findings(ctx: &Context<'_>, rule: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    for n in &ctx.snapshot().nodes {
        for c in &n.status.conditions {
            let Some(&(_, key, short)) = PRESSURE.iter().find(|(t, _, _)| *t == c.type_.as_str())
            else {
                continue;
            };
            if c.status != "True" {
                continue;
            }
            let name = if n.metadata.name.is_empty() {
                "the described node"
            } else {
                n.metadata.name.as_str()
            };
            let taint = condition_taint(key);
            let o = obj("Node", "", &n.metadata.name);
            let tainted = n.spec.taints.iter().any(|t| t.key == key);
            let reclaim: Vec<String> = ctx
                .snapshot()
                .events
                .iter()
                .filter(|e| {
                    e.involved_object.name == n.metadata.name
                        && (e.reason == "EvictionThresholdMet"
                            || e.reason.starts_with("NodeHas") && e.reason.contains("Pressure"))
                })
                .map(|e| format!("{}: {}", e.reason, e.message))
                .collect();
            let what = match c.type_.as_str() {
                "OutOfDisk" => "the kubelet reports the node out of disk (OutOfDisk=True, Kubernetes up to 1.12)".to_owned(),
                t => format!(
                    "{t}=True{}: {}",
                    if c.reason.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", c.reason)
                    },
                    taint.map_or("", |t| t.meaning)
                ),
            };
            let mut f = Finding::new(
                rule,
                Severity::Warning,
                node_subject(n),
                format!(
                    "node {name} is under {short} pressure: {what}; {} and the kubelet evicts pods to reclaim {short}",
                    if tainted {
                        format!("it carries the {key} taint, so no new pod without a toleration is placed there,")
                    } else {
                        "the scheduler places no new pods there (the lifecycle controller taints it with the pressure taint; before v1.12 the scheduler read the condition itself),".to_owned()
                    }
                ),
            )
            .with_evidence(Evidence::field(
                &o,
                format!("status.conditions[{}].status", c.type_),
                &c.status,
            ));
            if !c.message.is_empty() {
                f = f.with_evidence(Evidence::field(
                    &o,
                    format!("status.conditions[{}].message", c.type_),
                    &c.message,
                ));
            }
            if tainted {
                f = f.with_evidence(Evidence::field(
                    &o,
                    "spec.taints",
                    format!("{key}:NoSchedule"),
                ));
            }
            for r in reclaim.iter().take(2) {
                f = f.with_evidence(Evidence::field(&o, "events", r));
            }
            let remedy = taint.map_or("free the resource on the node", |t| t.remedy);
            out.push(f.with_remedy(remedy.replace("<node>", &crate::rules::shell_word(name))));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_rule;

    #[test]
    fn every_lifecycle_taint_has_a_remedy_that_is_not_a_toleration() {
        for key in [
            "node.kubernetes.io/disk-pressure",
            "node.kubernetes.io/memory-pressure",
            "node.kubernetes.io/pid-pressure",
            "node.kubernetes.io/not-ready",
            "node.kubernetes.io/unreachable",
            "node.kubernetes.io/unschedulable",
            "node.kubernetes.io/network-unavailable",
            "node.cloudprovider.kubernetes.io/uninitialized",
        ] {
            let t = condition_taint(key).expect(key);
            assert!(!t.remedy.contains("toleration"), "{key}");
        }
        assert!(condition_taint("node-role.kubernetes.io/master").is_none());
    }

    #[test]
    fn pressure_conditions_from_node_objects() {
        let f = run_rule(
            "node-runtime-unhealthy",
            r#"{"kind":"List","items":[
              {"kind":"Node","metadata":{"name":"n1"},"spec":{"taints":[{"key":"node.kubernetes.io/disk-pressure","effect":"NoSchedule"}]},"status":{"conditions":[{"type":"DiskPressure","status":"True","reason":"KubeletHasDiskPressure","message":"kubelet has disk pressure"},{"type":"Ready","status":"True"}]}},
              {"kind":"Node","metadata":{"name":"n2"},"status":{"conditions":[{"type":"MemoryPressure","status":"True","reason":"KubeletHasInsufficientMemory"},{"type":"DiskPressure","status":"False"},{"type":"Ready","status":"True"}]}},
              {"kind":"Node","metadata":{"name":"n3"},"status":{"conditions":[{"type":"PIDPressure","status":"False"},{"type":"Ready","status":"True"}]}}]}"#,
        );
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[0].subject.name, "n1");
        assert!(
            f[0].message.contains("DiskPressure=True"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("disk-pressure taint"));
        assert!(f[0].remedy.contains("free disk"));
        assert_eq!(f[1].subject.name, "n2");
        assert!(f[1].message.contains("MemoryPressure=True"));
        assert!(f[1].remedy.contains("free memory"));
    }
}
