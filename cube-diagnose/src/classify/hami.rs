//! HAMi's scheduler extender texts (Project-HAMi/HAMi): the reason codes it files a node's cards
//! under (`pkg/device/common/common.go`: `CardInsufficientMemory`, `CardInsufficientCore`,
//! `CardTypeMismatch`, `CardUuidMismatch`, `NumaNotFit`, ...), as they reach the pod:
//!
//! - `FilteringFailed` events, one per reason code: `<n> nodes <Code>(<node>,<node>,...)`
//!   (`pkg/scheduler/scheduler.go` Filter / calcScore aggregates the nodes per code;
//!   `pkg/scheduler/event.go` records it), and the summary `no available node, <n> nodes do
//!   not meet` (older releases: `no available node, all node scores do not meet`);
//! - the extender's reasons inside kube-scheduler's FailedScheduling histogram (`0/1 nodes are
//!   available: 1 1/1 CardInsufficientMemory.`: the fraction is devices rejected for that code
//!   over the node's devices of that type; `NodeUnfitPod` when only the node summary came
//!   back);
//! - the extender's log line `NodeUnfitPod pod="ns/p" node="n" reason="3/8
//!   CardInsufficientMemory, 5/8 CardInsufficientCore"`.
//!
//! Each code is explained with its cause and remedy from HAMi's own documentation
//! (Project-HAMi/website `docs/troubleshooting/scheduling-failures.md`, v2.9).

use super::{Hit, SignalKind, details};

/// One HAMi reason code: the code as printed, what the extender found, and what to do.
pub struct HamiReason {
    /// The code (`CardInsufficientMemory`).
    pub code: &'static str,
    /// What the scheduler found.
    pub cause: &'static str,
    /// What to do.
    pub remedy: &'static str,
}

/// Every reason code of `pkg/device/common/common.go` (plus the vendor ones the documentation
/// lists: `ModeNotFit`, `CardMigTopologyInfeasible`).
pub const REASONS: &[HamiReason] = &[
    HamiReason {
        code: "CardInsufficientMemory",
        cause: "no card has enough free device memory for the pod's nvidia.com/gpumem (or gpumem-percentage): HAMi counts memory allocated to other pods, not memory in use, so an idle-looking card can be full",
        remedy: "lower the pod's nvidia.com/gpumem, wait for or stop the pods holding the cards' memory (`kubectl get pods -A -o wide` on the named nodes), or add GPU capacity",
    },
    HamiReason {
        code: "CardInsufficientCore",
        cause: "no card has the free compute share the pod asks for in nvidia.com/gpucores (percent of a card)",
        remedy: "lower the pod's nvidia.com/gpucores, or place it where fewer pods share the cards",
    },
    HamiReason {
        code: "CardTimeSlicingExhausted",
        cause: "every card already runs the maximum number of tasks (deviceSplitCount, 10 by default), whatever memory is left",
        remedy: "raise deviceSplitCount in HAMi's configuration (the hami-scheduler-device ConfigMap / chart value devicePlugin.deviceSplitCount) if the workloads are small enough, or free a task slot",
    },
    HamiReason {
        code: "CardComputeUnitsExhausted",
        cause: "the pod asks for no gpucores and the cards' compute is fully committed to other pods",
        remedy: "give the pod an explicit nvidia.com/gpucores value, or free compute on the cards",
    },
    HamiReason {
        code: "CardTypeMismatch",
        cause: "no card's model satisfies the pod's type constraints (nvidia.com/use-gputype / nouse-gputype annotations, or a vgpu-mode the card does not run)",
        remedy: "compare the pod's nvidia.com/use-gputype / nvidia.com/nouse-gputype annotations with the card models registered on the nodes (`kubectl get node <node> -o jsonpath='{.metadata.annotations}'`, hami.io/node-nvidia-register)",
    },
    HamiReason {
        code: "CardUuidMismatch",
        cause: "the cards' UUIDs are excluded by the pod's UUID constraints (nvidia.com/use-gpuuuid / nouse-gpuuuid): a UUID pinned in a template does not survive a node or card replacement",
        remedy: "fix or remove the pod's nvidia.com/use-gpuuuid / nvidia.com/nouse-gpuuuid annotations (UUIDs from `nvidia-smi -L` on the node)",
    },
    HamiReason {
        code: "CardNotHealth",
        cause: "the device plugin reports the cards unhealthy, so HAMi skips them",
        remedy: "read the HAMi device plugin's log on the node and run `nvidia-smi` there: an unhealthy card is a node problem",
    },
    HamiReason {
        code: "NumaNotFit",
        cause: "the pod asks for all its cards on one NUMA node (nvidia.com/numa-bind: \"true\") and the free cards span NUMA nodes",
        remedy: "drop the nvidia.com/numa-bind annotation if locality is not needed, or request a card count one NUMA node can serve",
    },
    HamiReason {
        code: "ExclusiveDeviceAllocateConflict",
        cause: "exclusive use was asked for a card that is shared (nvidia.com/gpucores: 100 on a card with tasks), or a shared request hit a card held exclusively (mutex policy)",
        remedy: "free the card of its other tasks, or ask for a share below 100 gpucores",
    },
    HamiReason {
        code: "CardNotFoundCustomFilterRule",
        cause: "a vendor-specific filter rule of HAMi rejected the cards",
        remedy: "read the HAMi guide of that device vendor for its filter rules, and the hami-scheduler log (`NodeUnfitPod ... reason=`) for the card",
    },
    HamiReason {
        code: "NodeInsufficientDevice",
        cause: "the nodes have fewer cards of the requested type than the pod asks for (checked before any card)",
        remedy: "lower the pod's card count (nvidia.com/gpu) or add nodes with more cards",
    },
    HamiReason {
        code: "AllocatedCardsInsufficientRequest",
        cause: "some cards of the node fit, but fewer than the pod's card count (HAMi never splits one container's cards across nodes)",
        remedy: "lower the pod's nvidia.com/gpu, or free enough cards on one node",
    },
    HamiReason {
        code: "ResourceQuotaNotFit",
        cause: "the cards are free but the namespace's HAMi ResourceQuota (limits.nvidia.com/gpu, limits.nvidia.com/gpumem) would be exceeded",
        remedy: "`kubectl describe quota -n <namespace>`: raise the quota or free what the namespace holds",
    },
    HamiReason {
        code: "ModeNotFit",
        cause: "the node cannot run the virtualization mode the pod asks for (vendor-specific; Ascend: the pod asks for the hami-core vNPU mode (annotation huawei.com/vnpu-mode: hami-core) and the node does not support it (its annotation hami-vnpu-core is not \"true\" and HAMi's global hamiVnpuCore setting is off), pkg/device/ascend/device.go; Enflame: no GCU profile matches the requested size, pkg/device/enflame/device.go)",
        remedy: "Ascend: request a memory size of one of the vNPU templates HAMi has for the card (the -memory value is rounded up to a template) without the hami-core mode, or enable hami-core on the node (`kubectl annotate node <node> hami-vnpu-core=true` where the NPU driver supports it), or request a whole card (drop the -memory limit); Enflame: request a size one of the node's GCU profiles offers",
    },
    HamiReason {
        code: "CardCordoned",
        cause: "the cards are cordoned for HAMi by the node's hami.io/device-cordon annotation (a list of card UUIDs; pkg/device/nvidia/device.go), so no new task is placed on them",
        remedy: "remove the card UUIDs from the node's hami.io/device-cordon annotation once the cards are fit for use again (`kubectl annotate node <node> hami.io/device-cordon-` clears it), or place the pod on other cards",
    },
    HamiReason {
        code: "CardUnhealthy",
        cause: "the MetaX device plugin reports the cards unhealthy (pkg/device/metax/sdevice.go), so HAMi skips them",
        remedy: "read the MetaX device plugin's log on the node and check the cards there: an unhealthy card is a node problem",
    },
    HamiReason {
        code: "CardAppClassMismatch",
        cause: "the pod's metax-tech.com/sgpu-app-class annotation (online/offline) does not fit what the MetaX cards already run (pkg/device/metax/sdevice.go)",
        remedy: "fix the pod's metax-tech.com/sgpu-app-class annotation or place it on cards running the same class",
    },
    HamiReason {
        code: "CardQosPolicyMismatch",
        cause: "the pod's metax-tech.com/sgpu-qos-policy annotation does not match the QoS policy of the MetaX cards (pkg/device/metax/sdevice.go)",
        remedy: "set the pod's metax-tech.com/sgpu-qos-policy to the policy the cards use, or change the cards' policy",
    },
    HamiReason {
        code: "CardMigTopologyInfeasible",
        cause: "the card is in MIG mode and no allowed MIG profile with a free placement matches the requested memory (free memory in total, but no slot of the right shape)",
        remedy: "align nvidia.com/gpumem with a real MIG profile size, or drain the card",
    },
];

/// HAMi's virtual device resources: shares of a card (memory, compute) that HAMi's scheduler
/// extender accounts from the node's HAMi annotations; no device plugin advertises them as node
/// capacity, and HAMi's kube-scheduler configuration lists them as `managedResources` with
/// `ignoredByScheduler: true` (charts/hami/templates/scheduler/configmap.yaml, names from
/// charts/hami/values.yaml `resourceMem`, `resourceMemPercentage`, `resourceCores`,
/// `resourcePriority`, `mluResourceMem/Cores`, `dcuResourceMem/Cores`, `metaxResourceCore/Mem`,
/// `enflameResourceNameGCUMemory/Core`, `kunlunResourceVMemoryName`, and the vendors' device
/// code under pkg/device: mthreads `sgpu-memory`/`sgpu-core`, iluvatar `vcuda-core`/`vcuda-memory`,
/// Ascend `huawei.com/Ascend<model>-memory`/`-core`). The vendor of `name`, when it is one.
pub fn virtual_resource(name: &str) -> Option<&'static str> {
    const EXACT: &[(&str, &str)] = &[
        ("nvidia.com/gpumem", "NVIDIA"),
        ("nvidia.com/gpumem-percentage", "NVIDIA"),
        ("nvidia.com/gpucores", "NVIDIA"),
        ("nvidia.com/priority", "NVIDIA"),
        ("cambricon.com/mlu.smlu.vmemory", "Cambricon"),
        ("cambricon.com/mlu.smlu.vcore", "Cambricon"),
        ("hygon.com/dcumem", "Hygon"),
        ("hygon.com/dcucores", "Hygon"),
        ("metax-tech.com/vcore", "MetaX"),
        ("metax-tech.com/vmemory", "MetaX"),
        ("enflame.com/gcu-memory", "Enflame"),
        ("enflame.com/gcu-core", "Enflame"),
        ("enflame.com/vgcu-percentage", "Enflame"),
        ("kunlunxin.com/vxpu-memory", "Kunlunxin"),
        ("mthreads.com/sgpu-memory", "Moore Threads"),
        ("mthreads.com/sgpu-core", "Moore Threads"),
        ("iluvatar.ai/vcuda-core", "Iluvatar"),
        ("iluvatar.ai/vcuda-memory", "Iluvatar"),
    ];
    if let Some((_, v)) = EXACT.iter().find(|(n, _)| *n == name) {
        return Some(v);
    }
    let ascend = name.strip_prefix("huawei.com/Ascend")?;
    (ascend.ends_with("-memory") || ascend.ends_with("-core")).then_some("Ascend")
}

/// The reason of `code` (case-insensitive; `CardUUIDMismatch` is `CardUuidMismatch`).
pub fn reason(code: &str) -> Option<&'static HamiReason> {
    REASONS.iter().find(|r| r.code.eq_ignore_ascii_case(code))
}

/// The code of a histogram reason text: `CardInsufficientMemory`, or `1/1
/// CardInsufficientMemory` (devices rejected / devices of the node).
pub fn code_of(reason_text: &str) -> Option<&'static HamiReason> {
    let t = reason_text.trim().trim_end_matches('.');
    let t = match t.split_once(' ') {
        Some((frac, rest))
            if frac.split_once('/').is_some_and(|(a, b)| {
                !a.is_empty()
                    && !b.is_empty()
                    && a.chars().all(|c| c.is_ascii_digit())
                    && b.chars().all(|c| c.is_ascii_digit())
            }) =>
        {
            rest.trim()
        }
        _ => t,
    };
    reason(t)
}

/// `<n> nodes <Code>(<node>,...)` of a `FilteringFailed` event (anywhere in the line): the
/// count, the reason and the nodes.
pub fn filtering_failed(l: &str) -> Option<(usize, &'static HamiReason, Vec<String>)> {
    // the first `(` that follows a reason code: a describe row's age column (`96s (x13 over
    // 98s)`) comes before the message
    l.match_indices('(')
        .find_map(|(open, _)| filtering_failed_at(l, open))
}

fn filtering_failed_at(l: &str, open: usize) -> Option<(usize, &'static HamiReason, Vec<String>)> {
    let close = open + l[open..].find(')')?;
    let head = &l[..open];
    let code = head.rsplit(' ').next()?;
    let r = reason(code)?;
    let before = head[..head.len() - code.len()].trim_end();
    let before = before
        .strip_suffix("nodes")
        .or_else(|| before.strip_suffix("node"))?;
    let count: usize = before.trim_end().rsplit(' ').next()?.parse().ok()?;
    let nodes = l[open + 1..close]
        .split(',')
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    Some((count, r, nodes))
}

/// Signals of one line: a `FilteringFailed` reason, or the extender's `NodeUnfitPod` log line
/// (`reason="3/8 CardInsufficientMemory, 5/8 CardInsufficientCore"`).
pub(crate) fn classify_line(l: &str) -> Vec<Hit> {
    if let Some((count, r, nodes)) = filtering_failed(l) {
        return vec![(
            SignalKind::HamiFilterFailed,
            details(&[
                ("code", r.code.to_owned()),
                ("count", count.to_string()),
                ("nodes", nodes.join(",")),
            ]),
        )];
    }
    if l.contains("NodeUnfitPod")
        && let Some(reasons) = super::quoted_after(l, " reason=")
    {
        let node = super::quoted_after(l, " node=").unwrap_or_default();
        let pod = super::quoted_after(l, " pod=").unwrap_or_default();
        return reasons
            .split(',')
            .filter_map(|part| code_of(part))
            .map(|r| {
                (
                    SignalKind::HamiFilterFailed,
                    details(&[
                        ("code", r.code.to_owned()),
                        ("count", "1".to_owned()),
                        ("nodes", node.clone()),
                        ("pod", pod.clone()),
                    ]),
                )
            })
            .collect();
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_codes_in_every_form() {
        let (n, r, nodes) = filtering_failed(
            "Warning FilteringFailed 2 nodes CardInsufficientMemory(node-01,node-02)",
        )
        .unwrap();
        assert_eq!((n, r.code, nodes.len()), (2, "CardInsufficientMemory", 2));
        assert_eq!(
            filtering_failed("1 nodes CardUUIDMismatch(gpu-node-b)")
                .unwrap()
                .1
                .code,
            "CardUuidMismatch"
        );
        assert!(filtering_failed("2 nodes NotACode(a,b)").is_none());
        assert!(filtering_failed("mount failed (exit status 32)").is_none());
        // a describe row: the age column's parenthesis comes first (Project-HAMi/HAMi#1941)
        let (n, r, nodes) = filtering_failed(
            "Warning  FilteringFailed   96s (x13 over 98s)  hami-scheduler  1 nodes ModeNotFit(node-01)",
        )
        .unwrap();
        assert_eq!(
            (n, r.code, nodes),
            (1, "ModeNotFit", vec!["node-01".to_owned()])
        );
        assert_eq!(
            filtering_failed("1 nodes CardCordoned(gpu-a)")
                .unwrap()
                .1
                .code,
            "CardCordoned"
        );
        assert_eq!(
            code_of("1/1 CardInsufficientMemory").unwrap().code,
            "CardInsufficientMemory"
        );
        assert_eq!(code_of("NumaNotFit").unwrap().code, "NumaNotFit");
        assert!(code_of("Insufficient nvidia.com/gpu").is_none());
        let log = classify_line(
            r#"I0101 00:00:00.000000 1 score.go:1] NodeUnfitPod pod="default/gpu-pod" node="node-a" reason="3/8 CardInsufficientMemory, 5/8 CardInsufficientCore""#,
        );
        assert_eq!(log.len(), 2);
        assert_eq!(
            log[1].1.get("code").map(String::as_str),
            Some("CardInsufficientCore")
        );
        // every code has its cause and remedy
        for r in REASONS {
            assert!(!r.cause.is_empty() && !r.remedy.is_empty(), "{}", r.code);
        }
    }
}
