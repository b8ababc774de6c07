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

/// The node and vendor of hami-scheduler's `Device is unhealthy, cleaning up node` line, in
/// its two forms: `klog.Warning` with key/value arguments run together (v2.5-v2.9:
/// `nodeNamemasterdeviceVendorMetax-GPU`) and `klog.ErrorS` (`"..." nodeName="m"
/// deviceVendor="NVIDIA"`, pkg/scheduler/scheduler.go).
fn cleanup_target(rest: &str) -> Option<(String, String)> {
    let quoted = |key: &str| -> Option<String> {
        let at = rest.find(&format!("{key}=\""))? + key.len() + 2;
        rest[at..].split('"').next().map(str::to_owned)
    };
    if let (Some(n), Some(v)) = (quoted("nodeName"), quoted("deviceVendor")) {
        return Some((n, v));
    }
    let at = rest.find("nodeName")? + "nodeName".len();
    let (node, vendor) = rest[at..].split_once("deviceVendor")?;
    let vendor = vendor.split_whitespace().next().unwrap_or("");
    (!node.is_empty() && !vendor.is_empty()).then(|| (node.trim().to_owned(), vendor.to_owned()))
}

/// Vendors whose `CheckHealth` in HAMi v2.6-v2.9 only counts the node's devices of that vendor
/// (pkg/device/metax/device.go `count > 0` of `metax-tech.com/gpu` capacity, metax/sdevice.go
/// `len(devices) > 0`, enflame/gcu.go `count > 0`, v2.7+): on a node without such cards the
/// vendor is "unhealthy" on every pass of the scheduler, and the clean-up line is noise. v2.10
/// skips the clean-up (and the line) for a vendor the node never registered.
const PRESENCE_CHECKED: &[&str] = &["Metax-GPU", "Metax-SGPU", "GCU"];

/// Context of hami-scheduler's device clean-up lines ([`cleanup_target`]): a vendor of
/// [`PRESENCE_CHECKED`] is information only; so is any vendor when the same log
/// shows the node keeping healthy devices after the vendor was removed (`"Removing device from
/// node" nodeName="n" deviceVendor="Metax-GPU" remainingDevices=[{... "health":true}]`), the
/// removed vendor had no devices there (HAMi checks every vendor it knows on every node; a
/// node without that vendor's plugin has no handshake for it): nothing the node had was lost,
/// the line is information only.
pub(crate) fn in_context(out: &mut [super::Signal], text: &str) {
    if !text.contains("cleaning up node") {
        return;
    }
    for s in out
        .iter_mut()
        .filter(|s| s.detail("entry") == "hami.scheduler-device-unhealthy")
    {
        let Some((node, vendor)) = cleanup_target(s.detail("rest")) else {
            continue;
        };
        let kept = PRESENCE_CHECKED.contains(&vendor.as_str())
            || text.lines().any(|l| {
                l.contains("Removing device from node")
                    && l.contains(&format!("nodeName=\"{node}\""))
                    && l.contains(&format!("deviceVendor=\"{vendor}\""))
                    && l.split_once("remainingDevices=[{")
                        .is_some_and(|(_, r)| r.contains("\"health\":true"))
            });
        if kept {
            s.details.insert("severity".to_owned(), "info".to_owned());
        }
    }
}

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
    if let Some(hits) = patched_unhealthy(l) {
        return hits;
    }
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

/// The HAMi device plugin's `patch node with the following annos map[k:v k:v]` line
/// (pkg/device-plugin/nvidiadevice/nvinternal/plugin/register.go `RegisterInAnnotation`; Go
/// prints the map sorted by key, values unquoted): the devices its registration annotation
/// marks unhealthy, each as the catalog entry `hami.registered-device-unhealthy` (the line
/// itself is the catalog's `hami.patch-node-annos`). `None` when the line is not such a line;
/// an empty list when every device is healthy.
fn patched_unhealthy(l: &str) -> Option<Vec<Hit>> {
    const HEAD: &str = "patch node with the following annos map[";
    let body = &l[l.find(HEAD)? + HEAD.len()..];
    let body = body.trim_end();
    let body = body.strip_suffix(']').unwrap_or(body);
    // split before each ` <domain>/` key (hami.io, 4pd.io): values hold spaces (the handshake's
    // time, the card's model) but no such key
    let mut starts: Vec<usize> = vec![0];
    for domain in [" hami.io/", " 4pd.io/"] {
        starts.extend(body.match_indices(domain).map(|(i, _)| i + 1));
    }
    starts.sort_unstable();
    starts.dedup();
    let mut hits = Vec::new();
    for (n, &a) in starts.iter().enumerate().take(32) {
        let b = starts
            .get(n + 1)
            .map_or(body.len(), |&b| b.saturating_sub(1));
        let Some((key, value)) = body.get(a..b.max(a)).and_then(|c| c.split_once(':')) else {
            continue;
        };
        if !is_register_annotation(key.trim()) {
            continue;
        }
        let Ok((_, devices)) = decode_register(value) else {
            continue;
        };
        for d in devices.iter().filter(|d| !d.health).take(8) {
            let mut det = details(&[
                ("id", truncate_chars(&d.id, 64)),
                ("memory", d.devmem.to_string()),
                ("type", truncate_chars(&d.type_, 64)),
                ("numa", d.numa.to_string()),
            ]);
            det.insert(
                "entry".to_owned(),
                "hami.registered-device-unhealthy".to_owned(),
            );
            hits.push((SignalKind::Known, det));
        }
    }
    Some(hits)
}

/// The encoding of a HAMi device-registration annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegisterEncoding {
    /// `id,count,devmem,devcore,type,numa,health:` per device (HAMi v2.3-v2.4,
    /// pkg/util/util.go `EncodeNodeDevices`).
    Legacy7,
    /// `id,count,devmem,devcore,type,numa,health,index,mode:` per device (HAMi v2.5-v2.7,
    /// pkg/device/devices.go `EncodeNodeDevices`; still how the scheduler logs a node's devices
    /// and how the Hygon / Iluvatar plugins write theirs).
    Legacy9,
    /// A JSON array of `DeviceInfo` (HAMi v2.8+, pkg/device/devices.go `MarshalNodeDevices`,
    /// read back with `UnMarshalNodeDevices`).
    Json,
}

/// One device of a HAMi registration annotation (pkg/device/devices.go `DeviceInfo`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HamiDevice {
    /// The device id (the GPU UUID for NVIDIA: `GPU-...`).
    pub id: String,
    /// The device index on the node (`None` in the 7-field encoding, which has none).
    pub index: Option<u64>,
    /// How many tasks may share the device (`deviceSplitCount`).
    pub count: i64,
    /// Device memory HAMi schedules, MiB (after `deviceMemoryScaling`).
    pub devmem: i64,
    /// Compute share, percent of a card (after `deviceCoreScaling`).
    pub devcore: i64,
    /// The model as registered (`NVIDIA-NVIDIA A800 80GB PCIe`).
    pub type_: String,
    /// The NUMA node.
    pub numa: i64,
    /// Whether the device plugin reports the device healthy. HAMi's scheduler skips a device
    /// whose health is false (pkg/device/nvidia/device.go `Fit`: reason `CardNotHealth`).
    pub health: bool,
    /// The mode (`hami-core`, `mig`, `mps`), when the encoding has one.
    pub mode: Option<String>,
}

/// Annotation values longer than this are not decoded (a node annotation is at most 256 KiB
/// in total: apimachinery `TotalAnnotationSizeLimitB`).
pub const MAX_REGISTER_LEN: usize = 256 * 1024;
/// At most this many devices are decoded from one annotation.
pub const MAX_REGISTER_DEVICES: usize = 1024;

/// Whether `key` is a HAMi device-registration annotation: `hami.io/node-nvidia-register`
/// (pkg/device/nvidia/device.go), the vendor variants `hami.io/node-amd-register`,
/// `-dcu-register` (Hygon), `-biren-register`, `-va-register` (Vastai),
/// `hami.io/node-<commonWord>-register` (Iluvatar's configured names),
/// `hami.io/node-register-xpu` (Kunlunxin), `hami.io/node-register-<Ascend model>`
/// (pkg/device/*/device.go `RegisterAnnos` / `nodeRegisterAnno`), and the `4pd.io/` domain of
/// releases before the rename (`4pd.io/node-nvidia-register`, `-mlu-register`,
/// `-dcu-register`). Volcano's `volcano.sh/node-vgpu-register` is not one: it has its own
/// 5-field encoding.
pub fn is_register_annotation(key: &str) -> bool {
    let Some((domain, name)) = key.split_once('/') else {
        return false;
    };
    matches!(domain, "hami.io" | "4pd.io")
        && name.starts_with("node-")
        && (name.ends_with("-register") || name.starts_with("node-register-"))
}

/// Go's `strconv.ParseBool`.
fn go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Go's `strconv.ParseInt(s, 10, 32)` / `Atoi` for the fields the decoder reads.
fn go_int(s: &str, field: &str) -> Result<i64, String> {
    s.parse::<i64>()
        .ok()
        .filter(|v| i32::try_from(*v).is_ok())
        .ok_or_else(|| format!("invalid {field} field: {:?}", truncate_chars(s, 40)))
}

fn truncate_chars(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Decodes a HAMi device-registration annotation the way HAMi does: a JSON array
/// (`UnMarshalNodeDevices`, v2.8+) when the value starts with `[`, else the colon / comma
/// encoding (`DecodeNodeDevices`: devices separated by `:`, empty segments skipped, each of 7
/// or 9 comma-separated fields, health through Go's `ParseBool`; any other field count, a
/// value without `:` or a field that does not parse is an error, as upstream). In JSON a
/// device without `health` is unhealthy: `DeviceInfo.Health` is `json:"health,omitempty"`, so
/// `false` is never written. Bounded: values over [`MAX_REGISTER_LEN`] bytes or with more than
/// [`MAX_REGISTER_DEVICES`] devices are refused with an error; never panics.
pub fn decode_register(value: &str) -> Result<(RegisterEncoding, Vec<HamiDevice>), String> {
    if value.len() > MAX_REGISTER_LEN {
        return Err(format!(
            "the value is {} bytes, more than the {MAX_REGISTER_LEN} decoded",
            value.len()
        ));
    }
    let t = value.trim();
    if t.starts_with('[') {
        return decode_json(t).map(|d| (RegisterEncoding::Json, d));
    }
    if !t.contains(':') {
        return Err("node annotation missing device separator".to_owned());
    }
    let mut out = Vec::new();
    let mut nine = false;
    for seg in t.split(':') {
        if seg.is_empty() {
            continue;
        }
        if out.len() >= MAX_REGISTER_DEVICES {
            return Err(format!("more than {MAX_REGISTER_DEVICES} devices"));
        }
        let items: Vec<&str> = seg.split(',').collect();
        if items.len() != 7 && items.len() != 9 {
            return Err(format!(
                "unexpected field count {} in node annotation",
                items.len()
            ));
        }
        let health = go_bool(items[6])
            .ok_or_else(|| format!("invalid health field: {:?}", truncate_chars(items[6], 40)))?;
        let (index, mode) = if items.len() == 9 {
            nine = true;
            let idx = go_int(items[7], "index")?;
            let idx =
                u64::try_from(idx).map_err(|_| "index field must not be negative".to_owned())?;
            (Some(idx), Some(items[8].to_owned()))
        } else {
            (None, None)
        };
        out.push(HamiDevice {
            id: items[0].to_owned(),
            index,
            count: go_int(items[1], "count")?,
            devmem: go_int(items[2], "memory")?,
            devcore: go_int(items[3], "core")?,
            type_: items[4].to_owned(),
            numa: go_int(items[5], "numa")?,
            health,
            mode,
        });
    }
    let enc = if nine {
        RegisterEncoding::Legacy9
    } else {
        RegisterEncoding::Legacy7
    };
    Ok((enc, out))
}

fn decode_json(t: &str) -> Result<Vec<HamiDevice>, String> {
    let v: serde_json::Value =
        serde_json::from_str(t).map_err(|e| format!("not a JSON device list: {e}"))?;
    let serde_json::Value::Array(items) = v else {
        return Err("not a JSON array".to_owned());
    };
    if items.len() > MAX_REGISTER_DEVICES {
        return Err(format!("more than {MAX_REGISTER_DEVICES} devices"));
    }
    let int = |o: &serde_json::Map<String, serde_json::Value>, k: &str| -> Result<i64, String> {
        match o.get(k) {
            None | Some(serde_json::Value::Null) => Ok(0),
            Some(x) => x
                .as_i64()
                .ok_or_else(|| format!("field {k} is not an integer")),
        }
    };
    let string =
        |o: &serde_json::Map<String, serde_json::Value>, k: &str| -> Result<String, String> {
            match o.get(k) {
                None | Some(serde_json::Value::Null) => Ok(String::new()),
                Some(serde_json::Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(format!("field {k} is not a string")),
            }
        };
    items
        .iter()
        .map(|d| {
            // a JSON `null` element decodes to a nil *DeviceInfo upstream; an empty device here
            let Some(o) = d.as_object() else {
                return match d {
                    serde_json::Value::Null => Err("a null device".to_owned()),
                    _ => Err("a device that is not an object".to_owned()),
                };
            };
            let health = match o.get("health") {
                None | Some(serde_json::Value::Null) => false,
                Some(serde_json::Value::Bool(b)) => *b,
                Some(_) => return Err("field health is not a boolean".to_owned()),
            };
            let index = int(o, "index")?;
            Ok(HamiDevice {
                id: string(o, "id")?,
                index: u64::try_from(index).ok(),
                count: int(o, "count")?,
                devmem: int(o, "devmem")?,
                devcore: int(o, "devcore")?,
                type_: string(o, "type")?,
                numa: int(o, "numa")?,
                health,
                mode: Some(string(o, "mode")?).filter(|m| !m.is_empty()),
            })
        })
        .collect()
}

/// One HAMi registration annotation of a node, decoded.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct NodeRegistration {
    /// The annotation key (`hami.io/node-nvidia-register`).
    pub key: String,
    /// Its value, as on the node.
    pub value: String,
    /// The devices and their encoding, or why the value does not decode.
    pub decoded: Result<(RegisterEncoding, Vec<HamiDevice>), String>,
}

impl NodeRegistration {
    /// The devices registered unhealthy (empty when the value does not decode).
    pub fn unhealthy(&self) -> Vec<&HamiDevice> {
        match &self.decoded {
            Ok((_, d)) => d.iter().filter(|d| !d.health).collect(),
            Err(_) => Vec::new(),
        }
    }
    /// The number of devices registered (0 when the value does not decode).
    pub fn devices(&self) -> usize {
        self.decoded.as_ref().map_or(0, |(_, d)| d.len())
    }
}

/// The HAMi registration annotations of a node's annotations, decoded (in key order, at most
/// 16).
pub fn registrations<'a>(
    annotations: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Vec<NodeRegistration> {
    annotations
        .into_iter()
        .filter(|(k, _)| is_register_annotation(k))
        .take(16)
        .map(|(k, v)| NodeRegistration {
            key: k.to_owned(),
            value: v.to_owned(),
            decoded: decode_register(v),
        })
        .collect()
}

/// `GPU-0000... (index 1, NVIDIA-NVIDIA A800 80GB PCIe)`: a device as a person finds it again
/// in `nvidia-smi -L`.
pub fn device_text(d: &HamiDevice) -> String {
    let id = truncate_chars(&d.id, 64);
    let ty = truncate_chars(&d.type_, 64);
    match (d.index, ty.is_empty()) {
        (Some(i), false) => format!("{id} (index {i}, {ty})"),
        (Some(i), true) => format!("{id} (index {i})"),
        (None, false) => format!("{id} ({ty})"),
        (None, true) => id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_cleanup_of_an_absent_vendor_is_information() {
        let sev = |text: &str| -> Vec<String> {
            crate::classify::classify_all("hami.log", text)
                .into_iter()
                .filter(|s| s.detail("entry") == "hami.scheduler-device-unhealthy")
                .map(|s| s.detail("severity").to_owned())
                .collect()
        };
        // v2.6 (klog.Warning, arguments run together): Metax on a node of NVIDIA cards
        let v26 = "W0712 01:12:20.877074       1 scheduler.go:183] Device is unhealthy, cleaning up nodenodeNamemasterdeviceVendorMetax-GPU\n";
        assert_eq!(sev(v26), ["info"]);
        assert_eq!(
            cleanup_target("nodeNamemasterdeviceVendorMetax-GPU"),
            Some(("master".into(), "Metax-GPU".into()))
        );
        // any vendor whose removal leaves healthy devices on the node
        let kept = "E0712 01:12:20.877074       1 scheduler.go:498] \"Device is unhealthy, cleaning up node\" nodeName=\"n1\" deviceVendor=\"Hygon\"\nI0712 01:12:20.877249       1 nodes.go:100] \"Removing device from node\" nodeName=\"n1\" deviceVendor=\"Hygon\" remainingDevices=[{\"id\":\"GPU-1\",\"health\":true}]\n";
        assert_eq!(sev(kept), ["info"]);
        // NVIDIA itself: the plugin stopped answering, the error stands
        let nv = "E0712 01:12:20.877074       1 scheduler.go:498] \"Device is unhealthy, cleaning up node\" nodeName=\"gpu-node-1\" deviceVendor=\"NVIDIA\"\n";
        assert_eq!(sev(nv), [""]);
    }

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

    /// The three encodings as HAMi's encoders write them (shapes from pkg/device/devices.go
    /// `EncodeNodeDevices` / `MarshalNodeDevices` and public reports: Project-HAMi/HAMi#441
    /// (7 fields, health false), #1520 (9 fields)).
    #[test]
    fn register_annotation_encodings() {
        let (e, d) = decode_register("GPU-00000000-0000-0000-0000-000000000001,10,11264,100,NVIDIA-NVIDIA GeForce RTX 2080 Ti,0,false:GPU-00000000-0000-0000-0000-000000000002,10,22528,100,NVIDIA-NVIDIA GeForce RTX 2080 Ti,0,false:").unwrap();
        assert_eq!(e, RegisterEncoding::Legacy7);
        assert_eq!(d.len(), 2);
        assert!(d.iter().all(|d| !d.health && d.index.is_none()));
        assert_eq!(d[1].devmem, 22528);
        let (e, d) = decode_register("GPU-00000000-0000-0000-0000-000000000003,10,143771,100,NVIDIA-NVIDIA H20-3e,1,true,3,hami-core:GPU-00000000-0000-0000-0000-000000000004,10,143771,100,NVIDIA-NVIDIA H20-3e,0,True,0,mig:").unwrap();
        assert_eq!(e, RegisterEncoding::Legacy9);
        assert!(d.iter().all(|d| d.health));
        assert_eq!((d[0].index, d[1].mode.as_deref()), (Some(3), Some("mig")));
        // JSON: health omitted (omitempty) means false
        let (e, d) = decode_register(r#"[{"id":"GPU-a","index":1,"count":10,"devmem":81920,"devcore":100,"type":"NVIDIA-NVIDIA A800 80GB PCIe","health":true,"mode":"hami-core"},{"id":"GPU-b","count":10,"devmem":81920,"devcore":100,"type":"NVIDIA-NVIDIA A800 80GB PCIe","mode":"hami-core"}]"#).unwrap();
        assert_eq!(e, RegisterEncoding::Json);
        assert!(d[0].health && !d[1].health);
        assert_eq!((d[0].index, d[1].index), (Some(1), Some(0)));
        assert!(decode_register("[]").unwrap().1.is_empty());
        // errors as upstream, never a panic
        for bad in [
            "",
            "GPU-a,10,100",
            "GPU-a,10,100,100,T4,0,maybe:",
            "GPU-a,10,99999999999,100,T4,0,true:",
            "GPU-a,10,100,100,T4,0,true,-1,hami-core:",
            "[{\"health\":\"yes\"}]",
            "[1,2]",
            "[null]",
            "{\"id\":1}",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        ] {
            assert!(decode_register(bad).is_err(), "{bad}");
        }
        assert!(decode_register(&"x".repeat(MAX_REGISTER_LEN + 1)).is_err());
        assert!(decode_register(&"a,1,1,1,t,0,true:".repeat(MAX_REGISTER_DEVICES + 1)).is_err());
        assert!(is_register_annotation("hami.io/node-nvidia-register"));
        assert!(is_register_annotation("hami.io/node-register-xpu"));
        assert!(is_register_annotation("hami.io/node-register-Ascend910B4"));
        assert!(is_register_annotation("4pd.io/node-mlu-register"));
        assert!(!is_register_annotation("hami.io/node-handshake"));
        assert!(!is_register_annotation("hami.io/node-nvidia-score"));
        assert!(!is_register_annotation("example.com/node-nvidia-register"));
        assert!(!is_register_annotation("volcano.sh/node-vgpu-register"));
        // the plugin's log line with the annotations it patches (Project-HAMi/HAMi#441)
        let hits = classify_line(
            "I0814 11:19:02.953092    6623 register.go:176] patch node with the following annos map[hami.io/node-handshake:Reported 2024-08-14 11:19:02.953065957 +0000 UTC m=+1419719.766207749 hami.io/node-nvidia-register:GPU-00000000-0000-0000-0000-000000000001,10,11264,100,NVIDIA-NVIDIA GeForce RTX 2080 Ti,0,false:GPU-00000000-0000-0000-0000-000000000002,10,22528,100,NVIDIA-NVIDIA GeForce RTX 2080 Ti,0,true:]",
        );
        assert_eq!(hits.len(), 1);
        assert_eq!(
            hits[0].1.get("id").map(String::as_str),
            Some("GPU-00000000-0000-0000-0000-000000000001")
        );
        assert_eq!(
            hits[0].1.get("type").map(String::as_str),
            Some("NVIDIA-NVIDIA GeForce RTX 2080 Ti")
        );
        let healthy = classify_line(
            r#"I1208 register.go:215] patch node with the following annos map[hami.io/node-handshake:Reported 2025-12-08 02:49:32 +0000 UTC hami.io/node-nvidia-register:[{"id":"GPU-a","count":10,"devmem":1,"devcore":100,"type":"NVIDIA-NVIDIA H20","health":true}]]"#,
        );
        assert!(healthy.is_empty());
        let json_bad = classify_line(
            r#"patch node with the following annos map[hami.io/node-handshake:Reported now hami.io/node-nvidia-register:[{"id":"GPU-a","index":3,"count":10,"devmem":1,"devcore":100,"type":"NVIDIA-NVIDIA H20"}]]"#,
        );
        assert_eq!(json_bad.len(), 1);
    }
}
