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

/// A node-problem-detector condition: its type, whether the node's pods are broken by it
/// (error) or only at risk (warning), what it means and the remedy.
///
/// Upstream: kubernetes/node-problem-detector `config/*.json` (`conditions` with their
/// healthy reasons, `rules` of type `permanent` that set them True): kernel-monitor.json
/// (`KernelDeadlock` from `DockerHung` / `AUFSUmountHung` task-hung kernel messages,
/// `XfsShutdown`, `CperHardwareErrorFatal`), readonly-monitor.json (`ReadonlyFilesystem`,
/// `FilesystemIsReadOnly`), docker-monitor.json (`CorruptDockerOverlay2`),
/// health-checker-{kubelet,containerd,docker}.json (`KubeletUnhealthy`,
/// `ContainerRuntimeUnhealthy`), systemd-monitor-counter.json (`FrequentKubeletRestart`,
/// `FrequentDockerRestart`, `FrequentContainerdRestart`), kernel-monitor-counter.json
/// (`FrequentUnregisterNetDevice`), custom-plugin-monitor.json (`NTPProblem`),
/// disk-log-message-filelog.json (`DiskBadBlock`), windows-health-checker-kubeproxy.json
/// (`KubeProxyUnhealthy`). NPD conditions are problems when True (their healthy state is
/// False); they set no taint, so the scheduler keeps placing pods on the node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProblemCondition {
    /// The condition type.
    pub type_: &'static str,
    /// Error when the node's pods cannot run well, warning when they are at risk.
    pub severity: Severity,
    /// What the condition means.
    pub meaning: &'static str,
    /// The remedy.
    pub remedy: &'static str,
}

/// The conditions node-problem-detector's shipped configurations set (see [`ProblemCondition`]).
pub(crate) const PROBLEM_CONDITIONS: &[ProblemCondition] = &[
    ProblemCondition {
        type_: "KernelDeadlock",
        severity: Severity::Error,
        meaning: "the kernel reports a task hung for more than 120 seconds (node-problem-detector's kernel monitor: `task docker:... blocked for more than 120 seconds`, DockerHung, or an AUFS umount hang): the container runtime or a filesystem is stuck, so pods on the node stop starting and stopping",
        remedy: "drain the node (`kubectl drain <node> --ignore-daemonsets --delete-emptydir-data`) and reboot it; read `dmesg` / `journalctl -k` for the hung task's stack (storage or driver fault), then `kubectl uncordon <node>`",
    },
    ProblemCondition {
        type_: "ReadonlyFilesystem",
        severity: Severity::Error,
        meaning: "the kernel remounted a filesystem read-only after I/O errors (`Remounting filesystem read-only`): the kubelet and the runtime cannot write there, so pods fail to start",
        remedy: "drain the node, check the disk (`dmesg | grep -i -e 'I/O error' -e remount`, `fsck` the filesystem while unmounted) or replace it, reboot, then uncordon",
    },
    ProblemCondition {
        type_: "XfsShutdown",
        severity: Severity::Error,
        meaning: "an XFS filesystem shut down after an error (`xfs_do_force_shutdown`): nothing can be written to it",
        remedy: "drain the node, run `xfs_repair` on the unmounted filesystem (or replace the disk), reboot, then uncordon",
    },
    ProblemCondition {
        type_: "CorruptDockerOverlay2",
        severity: Severity::Error,
        meaning: "Docker's overlay2 storage is corrupt (`returned error: readlink /var/lib/docker/overlay2/...: invalid argument`): containers on the node fail to start",
        remedy: "drain the node, stop Docker, remove the corrupt layers (or all of /var/lib/docker after the drain), start Docker again and uncordon",
    },
    ProblemCondition {
        type_: "ContainerRuntimeUnhealthy",
        severity: Severity::Error,
        meaning: "node-problem-detector's health checker finds the container runtime (containerd or Docker) not answering (`crictl pods` / `docker ps` time out)",
        remedy: "on the node `systemctl status containerd` (or docker) and `journalctl -u containerd`; restart the runtime, and drain and reboot the node if it hangs again",
    },
    ProblemCondition {
        type_: "KubeletUnhealthy",
        severity: Severity::Error,
        meaning: "node-problem-detector's health checker finds the kubelet's /healthz not answering",
        remedy: "on the node `systemctl status kubelet` and `journalctl -u kubelet`: fix what it reports and restart it",
    },
    ProblemCondition {
        type_: "CperHardwareErrorFatal",
        severity: Severity::Error,
        meaning: "the firmware (UEFI CPER) reported a fatal hardware error",
        remedy: "drain the node and have the hardware checked (`dmesg | grep -i -e cper -e mce`); replace the failing part before uncordoning",
    },
    ProblemCondition {
        type_: "KubeProxyUnhealthy",
        severity: Severity::Error,
        meaning: "node-problem-detector's health checker finds kube-proxy not answering, so Services do not route from the node",
        remedy: "restart kube-proxy on the node and read its log",
    },
    ProblemCondition {
        type_: "FrequentKubeletRestart",
        severity: Severity::Warning,
        meaning: "the kubelet restarted many times in a short window (systemd monitor)",
        remedy: "`journalctl -u kubelet` on the node: find why it exits (configuration, certificates, runtime socket) and fix it",
    },
    ProblemCondition {
        type_: "FrequentContainerdRestart",
        severity: Severity::Warning,
        meaning: "containerd restarted many times in a short window (systemd monitor)",
        remedy: "`journalctl -u containerd` on the node: find why it exits (configuration after an upgrade, OOM of the runtime) and fix it",
    },
    ProblemCondition {
        type_: "FrequentDockerRestart",
        severity: Severity::Warning,
        meaning: "Docker restarted many times in a short window (systemd monitor)",
        remedy: "`journalctl -u docker` on the node: find why it exits and fix it",
    },
    ProblemCondition {
        type_: "FrequentUnregisterNetDevice",
        severity: Severity::Warning,
        meaning: "the kernel repeats `unregister_netdevice: waiting for eth0 to become free` (a leaked network device reference): pod sandboxes hang while being torn down",
        remedy: "drain and reboot the node; upgrade the kernel if it recurs",
    },
    ProblemCondition {
        type_: "NTPProblem",
        severity: Severity::Warning,
        meaning: "the node's time service is down, so its clock drifts (certificates and tokens are judged by it)",
        remedy: "start the time service on the node (`systemctl enable --now chronyd` or `systemd-timesyncd`) and check `chronyc tracking`",
    },
    ProblemCondition {
        type_: "DiskBadBlock",
        severity: Severity::Warning,
        meaning: "the kernel reports bad blocks on a disk",
        remedy: "move the node's workload away and replace the disk",
    },
];

/// Words by which a condition type that no table here names reads as a problem when True
/// (node-problem-detector's custom plugins and the cloud variants: AKS's `KubeletProblem`,
/// `ContainerRuntimeProblem`, `FilesystemCorruptionProblem`, GKE's `FrequentUnregisterNetDevice`):
/// NPD's convention is that a condition is a problem when True.
const PROBLEM_WORDS: &[&str] = &[
    "Problem",
    "Unhealthy",
    "Deadlock",
    "Corrupt",
    "ReadOnly",
    "Readonly",
    "Hung",
    "Frequent",
    "Failure",
    "Shutdown",
];

/// `node-runtime-unhealthy` findings for node-problem-detector conditions that are True on a
/// node (Node objects, `-o yaml` status, `describe node` Conditions tables): the ones of
/// [`PROBLEM_CONDITIONS`] with their meaning, and any other condition type named as a problem
/// ([`PROBLEM_WORDS`]) as a warning with its own reason and message.
pub(crate) fn problem_findings(ctx: &Context<'_>, rule: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    for n in &ctx.snapshot().nodes {
        for c in &n.status.conditions {
            if c.status != "True" {
                continue;
            }
            let known = PROBLEM_CONDITIONS.iter().find(|p| p.type_ == c.type_);
            if known.is_none()
                && (PRESSURE.iter().any(|(t, _, _)| *t == c.type_)
                    || !PROBLEM_WORDS.iter().any(|w| c.type_.contains(w)))
            {
                continue;
            }
            let name = if n.metadata.name.is_empty() {
                "the described node"
            } else {
                n.metadata.name.as_str()
            };
            let o = obj("Node", "", &n.metadata.name);
            let why = match (c.reason.is_empty(), c.message.is_empty()) {
                (true, true) => String::new(),
                (false, true) => format!(" ({})", c.reason),
                (true, false) => format!(" ({})", c.message),
                (false, false) => format!(" ({}: {})", c.reason, c.message),
            };
            let (severity, meaning, remedy) = match known {
                Some(p) => (p.severity, p.meaning, p.remedy),
                None => (
                    Severity::Warning,
                    "a node problem detector reports this problem condition (such conditions are problems when True)",
                    "read the condition's message (`kubectl describe node <node>`, Conditions) and the detector's log on the node; fix what it names, draining the node if its pods are affected",
                ),
            };
            let mut f = Finding::new(
                rule,
                severity,
                node_subject(n),
                format!(
                    "node {name} has {}=True{why}: {meaning}; the condition sets no taint, so the scheduler keeps placing pods there",
                    c.type_
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
            out.push(f.with_remedy(remedy.replace("<node>", &crate::rules::shell_word(name))));
        }
    }
    out
}

/// `node-runtime-unhealthy` for pods whose STATUS is `Evicted` with no message in the input (a
/// `kubectl get pods` row): the kubelet's eviction manager ended them under node pressure
/// (pkg/kubelet/eviction/eviction_manager.go sets `status.reason` Evicted and a message naming
/// the resource, `The node was low on resource: memory. ...`, which the catalog reads when it
/// is shown). One finding for all of them, naming up to 20.
pub(crate) fn evicted_pods(ctx: &Context<'_>, rule: &str) -> Vec<Finding> {
    let evicted: Vec<&cube_model::objects::Pod> = ctx
        .snapshot()
        .pods
        .iter()
        .filter(|p| p.status.reason == "Evicted" && p.status.message.is_empty())
        .collect();
    let Some(first) = evicted.first() else {
        return Vec::new();
    };
    let names: Vec<String> = evicted
        .iter()
        .take(20)
        .map(|p| {
            if p.metadata.namespace.is_empty() {
                p.metadata.name.clone()
            } else {
                format!("{}/{}", p.metadata.namespace, p.metadata.name)
            }
        })
        .collect();
    let more = evicted.len().saturating_sub(20);
    let mut f = Finding::new(
        rule,
        Severity::Warning,
        crate::rules::pod_subject(first),
        format!(
            "{} pod(s) were evicted by the kubelet under node pressure ({}{}): their node ran low on memory, disk or process ids (the listing does not say which); the pods' controllers re-create them elsewhere, and the evicted records stay until deleted",
            evicted.len(),
            names.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ),
    );
    for p in evicted.iter().take(5) {
        f = f.with_evidence(Evidence::field(
            obj("Pod", &p.metadata.namespace, &p.metadata.name),
            "status.reason",
            "Evicted",
        ));
    }
    vec![f.with_remedy(format!(
        "`kubectl describe pod{} {}` names the resource and the node (Message: The node was low on resource: ...); check that node's pressure conditions (`kubectl describe node <node>`) and free the resource or set memory requests/limits; delete the evicted records with `kubectl delete pod --field-selector=status.phase=Failed -A` once read",
        if first.metadata.namespace.is_empty() {
            String::new()
        } else {
            format!(" -n {}", crate::rules::shell_word(&first.metadata.namespace))
        },
        crate::rules::shell_word(&first.metadata.name)
    ))]
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
    fn evicted_rows_without_message_are_one_finding() {
        let t = "$ kubectl get pods -n ml\nNAME      READY   STATUS    RESTARTS   AGE\nweb-a     0/1     Evicted   0          5h\nweb-b     0/1     Evicted   0          5h\nweb-c     1/1     Running   0          5h\n";
        let f = run_rule("node-runtime-unhealthy", t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("2 pod(s) were evicted"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("ml/web-a, ml/web-b"));
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
