//! kube-scheduler `FailedScheduling` messages: one grammar to read them (every wording from
//! Kubernetes 1.20 to 1.36) and to write them (v1.36 by default, older wordings selectable).
//!
//! A message is `0/<N> nodes are available: ` followed by up to three parts, each built by
//! `FitError.Error()` (`pkg/scheduler/framework/types.go`) from the scheduling cycle's
//! `Diagnosis`:
//!
//! 1. the PreFilter message, when a PreFilter plugin rejected the pod (a sentence of its own
//!    since v1.26);
//! 2. the Filter histogram: each reason of each node counted, `<count> <reason>` strings sorted
//!    **as strings** and joined by `, `, then `.`;
//! 3. the PostFilter message (v1.24+): the reasons of every PostFilter plugin that ran, joined
//!    by `, ` (`framework/runtime` `RunPostFilterPlugins`, `Status.Message()`): DynamicResources'
//!    `no new claims to deallocate` (v1.34–v1.36, DRA on by default) and DefaultPreemption's
//!    `preemption: <msg>`, where `<msg>` is itself a FitError (`0/<N> nodes are available: ...`)
//!    or `not eligible due to ...`.
//!
//! # Version → template
//!
//! [`MESSAGE_WORDINGS`] is the table (what changed, and the upstream source); in short:
//!
//! | versions | template |
//! |---|---|
//! | 1.20–1.23 | `0/N nodes are available: <filter>.` |
//! | 1.24–1.25 | `0/N nodes are available: <filter>. preemption: <post>.` (a FitError `<post>` ends in `..`) |
//! | 1.26–1.31 | `0/N nodes are available: [<prefilter>. ]<filter>. preemption: <post>.` |
//! | 1.32–1.33 | `0/N nodes are available: [<prefilter>. ]<filter>. preemption: <post>` (one final `.`) |
//! | 1.34–1.36 | `0/N nodes are available: [<prefilter>. ]<filter>. no new claims to deallocate, preemption: <post>` |
//!
//! Reason wordings change too ([`REASON_WORDINGS`]): an untolerated taint is
//! `node(s) had taint {k: v}, that the pod didn't tolerate` up to v1.25,
//! `node(s) had untolerated taint {k: v}` from v1.26 and `node(s) had untolerated taint(s)` from
//! v1.35 (kubernetes#134740, also back-ported to v1.34 and v1.33 patch releases); node affinity
//! reads `node(s) didn't match node selector` in v1.20 and
//! `node(s) didn't match Pod's node affinity/selector` since.
//!
//! # Other schedulers
//!
//! Volcano (`schedulerName: volcano`) prints its own FitErrors in the same shape with another
//! header: `0/<N> nodes are unavailable: <count> <reason>, ....` (reasons sorted as strings, one
//! final `.`, no PreFilter or preemption part), `In hyperNode <h>: 0/<N> nodes are unavailable:
//! ...` in newer releases, and the bare `all nodes are unavailable` when nothing was tried
//! (volcano-sh/volcano `pkg/scheduler/api/unschedule_info.go`, `FitErrors.Error()` and
//! `AllNodeUnavailableMsg`); its gang message embeds one of them after `Origin reason is
//! <task>: ` (`pkg/scheduler/api/job_info.go`). [`parse`] reads these too and sets
//! [`SchedulerMessage::dialect`]. HAMi and Kueue do not print their own FitErrors (HAMi's
//! extender reasons appear inside kube-scheduler's histogram; Kueue gates pods before
//! scheduling and reports admission on the Workload).
//!
//! # Before v1.10
//!
//! Older kube-scheduler releases printed other sentences, with `<reason> (<count>)` histograms
//! and no total node count ([`Dialect::LegacyKubeScheduler`]; [`SchedulerMessage::nodes`] is
//! then the largest count, a lower bound, and [`SchedulerMessage::pod`] the pod they name):
//!
//! | versions | template (plugin/pkg/scheduler/generic_scheduler.go, FitError.Error) |
//! |---|---|
//! | 1.0–1.1 | `Failed for reason <predicate> and possibly others` (one reason of one node: `PodFitsResources`, `PodFitsPorts`, `MatchNodeSelector`, `NoDiskConflict`, `HostName`; v1.1 `PodExceedsFreeCPU` / `PodExceedsFreeMemory`); `no nodes available to schedule pods` |
//! | 1.2–1.4 | `pod (<name>) failed to fit in any node` then one `fit failure on node (<node>): <reasons>` line per node (read into [`SchedulerMessage::per_node`]; a line alone is one node; v1.2 joins predicate names with `,`, v1.4 reasons with `, `) |
//! | 1.5 | `pod (<name>) failed to fit in any node` + `fit failure summary on nodes : <reason> (<n>), ...` |
//!
//! The 1.2–1.5 sentence is also read as people quote it, without the pod's name (`pod failed
//! to fit in any node`, an issue title), with or without its summary.
//! | 1.6–1.7 | `No nodes are available that match all of the following predicates:: <reason> (<n>), ....` |
//! | 1.8–1.9 | `No nodes are available that match all of the predicates: <reason> (<n>), ....` (plugin/pkg/scheduler/core/generic_scheduler.go) |
//!
//! Reasons of these versions are `Insufficient <resource>` or predicate names
//! (`MatchNodeSelector`, `PodToleratesNodeTaints`, `NoDiskConflict`, ...), read with the kinds
//! of [`LEGACY_PREDICATE_REASONS`].
//!
//! From v1.10 to v1.19 the header is already `0/<N> nodes are available: <count> <reason>,
//! ....`, with the predicates' descriptions as reasons (`node(s) had taints that the pod
//! didn't tolerate`, `node(s) didn't match node selector`, `node(s) didn't have the requested
//! labels`, `pod has unbound PersistentVolumeClaims`: pkg/scheduler/algorithm/predicates/
//! error.go); [`REASON_WORDINGS`] holds them with their versions, read only
//! ([`SchedulerMessage::versions`] goes below v1.20 only for them).
//!
//! [`parse`] reads any of these; reasons it does not know are kept verbatim
//! ([`ReasonKind::Unknown`]). [`SchedulerMessage::render`] writes a structure in the wording of a
//! version; [`SchedulerMessage::versions`] says which versions print the wording it was read
//! from.

use std::fmt;
use std::sync::OnceLock;

use serde::Serialize;

use crate::msgtemplate::Template;

/// A kube-scheduler version `1.<minor>`, between [`SchedulerVersion::OLDEST`] and
/// [`SchedulerVersion::LATEST`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct SchedulerVersion(u16);

impl SchedulerVersion {
    /// v1.20, the oldest wording kept.
    pub const OLDEST: SchedulerVersion = SchedulerVersion(20);
    /// v1.36, the wording predicted by default.
    pub const LATEST: SchedulerVersion = SchedulerVersion(36);

    /// `1.<minor>`, `None` outside 1.20–1.36.
    pub fn new(minor: u16) -> Option<Self> {
        (Self::OLDEST.0..=Self::LATEST.0)
            .contains(&minor)
            .then_some(SchedulerVersion(minor))
    }

    /// Reads `1.28`, `v1.28.3`, `1.28.0-eks-1234`; `None` for other majors, or minors outside
    /// 1.20–1.36.
    pub fn parse(text: &str) -> Option<Self> {
        let t = text.trim().trim_start_matches(['v', 'V']);
        let mut it = t.split('.');
        if it.next()? != "1" {
            return None;
        }
        let minor: String = it
            .next()?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Self::new(minor.parse().ok()?)
    }

    /// The minor version.
    pub fn minor(self) -> u16 {
        self.0
    }

    /// The message-level wording of this version.
    pub fn wording(self) -> &'static MessageWording {
        MESSAGE_WORDINGS
            .iter()
            .find(|w| (w.since..=w.until).contains(&self.0))
            .unwrap_or(&MESSAGE_WORDINGS[MESSAGE_WORDINGS.len() - 1])
    }
}

impl Default for SchedulerVersion {
    fn default() -> Self {
        Self::LATEST
    }
}

impl fmt::Display for SchedulerVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.0)
    }
}

/// One row of the version → message template table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MessageWording {
    /// First minor version (inclusive).
    pub since: u16,
    /// Last minor version (inclusive).
    pub until: u16,
    /// The message shape (`<filter>`: the histogram; `<post>`: the preemption message).
    pub template: &'static str,
    /// What changed at `since`.
    pub change: &'static str,
    /// Upstream files (kubernetes/kubernetes) this is read from.
    pub source: &'static str,
}

/// The version → message template table (see the module documentation).
pub const MESSAGE_WORDINGS: &[MessageWording] = &[
    MessageWording {
        since: 20,
        until: 23,
        template: "0/<N> nodes are available: <filter>.",
        change: "histogram of per-node reasons, `<count> <reason>` sorted as strings; the preemption outcome is only logged",
        source: "pkg/scheduler/framework/types.go FitError.Error; pkg/scheduler/scheduler.go",
    },
    MessageWording {
        since: 24,
        until: 25,
        template: "0/<N> nodes are available: <filter>. preemption: <post>.",
        change: "PostFilter message added (kubernetes#107775) with SeparatorFormat \" %v.\": a FitError preemption message ends in `..`; preemption reasons `No preemption victims found for incoming pod`, `Preemption is not helpful for scheduling`, `not eligible due to preemptionPolicy=Never.`; a PreFilter rejection is counted on every node",
        source: "pkg/scheduler/framework/types.go; pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go; pkg/scheduler/framework/preemption/preemption.go",
    },
    MessageWording {
        since: 26,
        until: 31,
        template: "0/<N> nodes are available: [<prefilter>. ]<filter>. preemption: <post>.",
        change: "PreFilter message as its own sentence (kubernetes#110894); untolerated taints read `node(s) had untolerated taint {k: v}`",
        source: "pkg/scheduler/framework/types.go Diagnosis.PreFilterMsg; pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go",
    },
    MessageWording {
        since: 32,
        until: 33,
        template: "0/<N> nodes are available: [<prefilter>. ]<filter>. preemption: <post>",
        change: "PostFilter message appended as \" %v\": a FitError preemption message ends in one `.`",
        source: "pkg/scheduler/framework/types.go FitError.Error (NodeToStatus)",
    },
    MessageWording {
        since: 34,
        until: 36,
        template: "0/<N> nodes are available: [<prefilter>. ]<filter>. no new claims to deallocate, preemption: <post>",
        change: "DynamicResources on by default (DRA GA): its PostFilter runs before DefaultPreemption and a pod without ResourceClaims adds `no new claims to deallocate`, joined by `, `; a request above a node's whole allocatable makes the node `Preemption is not helpful for scheduling`; removed after v1.36 (kubernetes#140222)",
        source: "pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go PostFilter; pkg/scheduler/framework/runtime/framework.go RunPostFilterPlugins; pkg/scheduler/framework/plugins/noderesources/fit.go",
    },
];

/// The DynamicResources PostFilter reason for a pod without ResourceClaims (v1.34–v1.36).
pub const DRA_NO_CLAIMS: &str = "no new claims to deallocate";
/// The prefix DefaultPreemption puts before its message.
pub const PREEMPTION_PREFIX: &str = "preemption: ";
/// `ErrNoNodesAvailable`: the cluster has no nodes at all.
pub const NO_NODES: &str = "no nodes available to schedule pods";
/// Volcano's `AllNodeUnavailableMsg` (`pkg/scheduler/api/unschedule_info.go`): no node was
/// tried.
pub const VOLCANO_ALL_NODES_UNAVAILABLE: &str = "all nodes are unavailable";

/// Which scheduler's wording a message is in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Dialect {
    /// kube-scheduler (and schedulers built on its framework): `0/N nodes are available: ...`.
    #[default]
    KubeScheduler,
    /// Volcano: `0/N nodes are unavailable: ...` (`pkg/scheduler/api/unschedule_info.go`).
    Volcano,
    /// kube-scheduler before v1.10: `pod (<name>) failed to fit in any node`, `No nodes are
    /// available that match all of the [following ]predicates:[:] <reason> (<n>), ...` (see the
    /// module documentation); no total node count.
    LegacyKubeScheduler,
}

impl Dialect {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::KubeScheduler => "kube-scheduler",
            Dialect::Volcano => "volcano",
            Dialect::LegacyKubeScheduler => "kube-scheduler-legacy",
        }
    }
}

/// What a reason says, independent of its wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ReasonKind {
    /// NodeResourcesFit: `Insufficient <resource>`.
    Insufficient,
    /// NodeResourcesFit: the pod count is at `allocatable.pods`.
    TooManyPods,
    /// TaintToleration: a `NoSchedule`/`NoExecute` taint the pod does not tolerate (named up to
    /// v1.34).
    UntoleratedTaint,
    /// NodeAffinity: `nodeSelector` / required node affinity.
    NodeAffinity,
    /// NodeAffinity: the scheduler profile's `addedAffinity`.
    EnforcedNodeAffinity,
    /// NodeName: `spec.nodeName` names another node.
    NodeName,
    /// NodeUnschedulable: the node is cordoned.
    Unschedulable,
    /// Pre-taint node conditions (`node(s) had unknown conditions`).
    UnknownCondition,
    /// NodePorts: a host port is taken.
    NodePorts,
    /// InterPodAffinity: the pod's required affinity.
    PodAffinity,
    /// InterPodAffinity: the pod's required anti-affinity.
    PodAntiAffinity,
    /// InterPodAffinity: anti-affinity of pods already on the node.
    ExistingPodsAntiAffinity,
    /// PodTopologySpread: `whenUnsatisfiable: DoNotSchedule` skew.
    TopologySpread,
    /// PodTopologySpread: the node lacks the topology key label.
    TopologySpreadMissingLabel,
    /// VolumeBinding: a bound PV's node affinity excludes the node (node-local volume).
    VolumeNodeAffinityConflict,
    /// VolumeBinding: no PV available to bind on the node.
    VolumeBindConflict,
    /// VolumeBinding: an Immediate-mode claim is unbound.
    UnboundImmediateClaims,
    /// VolumeBinding PreFilter: a claim the pod names does not exist.
    ClaimNotFound,
    /// VolumeBinding: storage capacity tracking says the node has too little free storage.
    NotEnoughStorage,
    /// VolumeBinding: a claim is bound to a PV that does not exist.
    BoundToMissingVolume,
    /// VolumeZone: the PV's zone labels exclude the node.
    VolumeZoneConflict,
    /// NodeVolumeLimits: attachable volume limit reached.
    MaxVolumeCount,
    /// VolumeRestrictions: the same disk is in use on the node.
    DiskConflict,
    /// VolumeRestrictions: a ReadWriteOncePod claim is in use.
    ReadWriteOncePodConflict,
    /// DynamicResources: the node's devices cannot satisfy the pod's claims.
    ClaimsNotAllocatable,
    /// DynamicResources: a claim is allocated or reserved elsewhere.
    ClaimNotAvailable,
    /// DynamicResources: other claim states (reallocation, waiting for a driver, a missing claim).
    DynamicResources,
    /// Preemption: no pod of lower priority on the node.
    NoPreemptionVictims,
    /// Preemption (logs of older versions): `No victims found on node <n> for preemptor pod <p>`.
    NoVictimsOnNode,
    /// Preemption: the node's failure cannot be resolved by evicting pods.
    PreemptionNotHelpful,
    /// HAMi scheduler extender: the node has not registered its devices.
    NodeUnregistered,
    /// A reason not in [`REASON_WORDINGS`] (kept verbatim).
    Unknown,
}

impl ReasonKind {
    /// True for reasons the scheduler always marks UnschedulableAndUnresolvable (evicting pods
    /// cannot change them, so preemption calls such nodes not helpful).
    pub fn always_unresolvable(self) -> bool {
        matches!(
            self,
            ReasonKind::UntoleratedTaint
                | ReasonKind::NodeAffinity
                | ReasonKind::EnforcedNodeAffinity
                | ReasonKind::NodeName
                | ReasonKind::Unschedulable
                | ReasonKind::UnknownCondition
                | ReasonKind::PodAffinity
                | ReasonKind::TopologySpreadMissingLabel
                | ReasonKind::VolumeNodeAffinityConflict
                | ReasonKind::VolumeBindConflict
                | ReasonKind::UnboundImmediateClaims
                | ReasonKind::ClaimNotFound
                | ReasonKind::BoundToMissingVolume
                | ReasonKind::VolumeZoneConflict
        )
    }

    /// True for the reasons only preemption reports.
    pub fn is_preemption(self) -> bool {
        matches!(
            self,
            ReasonKind::NoPreemptionVictims
                | ReasonKind::NoVictimsOnNode
                | ReasonKind::PreemptionNotHelpful
        )
    }
}

/// One wording of one reason kind, with the versions that print it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReasonWording {
    /// What it says.
    pub kind: ReasonKind,
    /// The text, a [`Template`] (`{resource}`, `{key}`, `{value}`, `{claim}`, `{node}`, `{pod}`).
    pub template: &'static str,
    /// First minor version printing it.
    pub since: u16,
    /// Last minor version printing it.
    pub until: u16,
    /// The plugin that prints it.
    pub plugin: &'static str,
    /// The upstream file (kubernetes/kubernetes unless named).
    pub source: &'static str,
}

macro_rules! rw {
    ($kind:ident, $t:literal, $since:literal, $until:literal, $plugin:literal, $src:literal) => {
        ReasonWording {
            kind: ReasonKind::$kind,
            template: $t,
            since: $since,
            until: $until,
            plugin: $plugin,
            source: $src,
        }
    };
}

/// Every reason wording kept, newest first within a kind (the first one of a kind valid for a
/// version is the one rendered). Sources are under `pkg/scheduler/framework/plugins/` of
/// kubernetes/kubernetes unless named.
pub const REASON_WORDINGS: &[ReasonWording] = &[
    rw!(
        TooManyPods,
        "Too many pods",
        20,
        36,
        "NodeResourcesFit",
        "noderesources/fit.go"
    ),
    rw!(
        Insufficient,
        "Insufficient {resource}",
        20,
        36,
        "NodeResourcesFit",
        "noderesources/fit.go"
    ),
    rw!(
        UntoleratedTaint,
        "node(s) had untolerated taint(s)",
        35,
        36,
        "TaintToleration",
        "tainttoleration/taint_toleration.go (kubernetes#134740, also in v1.33/v1.34 patch releases)"
    ),
    rw!(
        UntoleratedTaint,
        "node(s) had untolerated taint {{{key}: {value}}}",
        26,
        34,
        "TaintToleration",
        "tainttoleration/taint_toleration.go"
    ),
    rw!(
        UntoleratedTaint,
        "node(s) had taint {{{key}: {value}}}, that the pod didn't tolerate",
        20,
        25,
        "TaintToleration",
        "tainttoleration/taint_toleration.go"
    ),
    rw!(
        NodeAffinity,
        "node(s) didn't match Pod's node affinity/selector",
        22,
        36,
        "NodeAffinity",
        "nodeaffinity/node_affinity.go ErrReasonPod"
    ),
    rw!(
        NodeAffinity,
        "node(s) didn't match Pod's node affinity",
        21,
        21,
        "NodeAffinity",
        "nodeaffinity/node_affinity.go ErrReasonPod"
    ),
    rw!(
        NodeAffinity,
        "node(s) didn't match node selector",
        20,
        20,
        "NodeAffinity",
        "nodeaffinity/node_affinity.go ErrReasonPod"
    ),
    rw!(
        EnforcedNodeAffinity,
        "node(s) didn't match scheduler-enforced node affinity",
        20,
        36,
        "NodeAffinity",
        "nodeaffinity/node_affinity.go ErrReasonEnforced"
    ),
    rw!(
        NodeName,
        "node(s) didn't match the requested node name",
        21,
        36,
        "NodeName",
        "nodename/node_name.go"
    ),
    rw!(
        NodeName,
        "node(s) didn't match the requested hostname",
        20,
        20,
        "NodeName",
        "nodename/node_name.go"
    ),
    rw!(
        Unschedulable,
        "node(s) were unschedulable",
        20,
        36,
        "NodeUnschedulable",
        "nodeunschedulable/node_unschedulable.go"
    ),
    rw!(
        UnknownCondition,
        "node(s) had unknown conditions",
        20,
        24,
        "NodeUnschedulable",
        "nodeunschedulable/node_unschedulable.go ErrReasonUnknownCondition"
    ),
    rw!(
        NodePorts,
        "node(s) didn't have free ports for the requested pod ports",
        20,
        36,
        "NodePorts",
        "nodeports/node_ports.go"
    ),
    rw!(
        PodAffinity,
        "node(s) didn't match pod affinity rules",
        20,
        36,
        "InterPodAffinity",
        "interpodaffinity/filtering.go"
    ),
    rw!(
        PodAntiAffinity,
        "node(s) didn't match pod anti-affinity rules",
        20,
        36,
        "InterPodAffinity",
        "interpodaffinity/filtering.go"
    ),
    rw!(
        ExistingPodsAntiAffinity,
        "node(s) didn't satisfy existing pods anti-affinity rules",
        20,
        36,
        "InterPodAffinity",
        "interpodaffinity/filtering.go"
    ),
    rw!(
        PodAffinity,
        "node(s) didn't match pod affinity/anti-affinity rules",
        20,
        21,
        "InterPodAffinity",
        "interpodaffinity/filtering.go ErrReasonAffinityNotMatch"
    ),
    rw!(
        TopologySpreadMissingLabel,
        "node(s) didn't match pod topology spread constraints (missing required label)",
        20,
        36,
        "PodTopologySpread",
        "podtopologyspread/filtering.go"
    ),
    rw!(
        TopologySpread,
        "node(s) didn't match pod topology spread constraints",
        20,
        36,
        "PodTopologySpread",
        "podtopologyspread/filtering.go"
    ),
    rw!(
        VolumeNodeAffinityConflict,
        "node(s) had volume node affinity conflict",
        20,
        36,
        "VolumeBinding",
        "volumebinding/binder.go ErrReasonNodeConflict"
    ),
    rw!(
        VolumeBindConflict,
        "node(s) didn't find available persistent volumes to bind",
        20,
        36,
        "VolumeBinding",
        "volumebinding/binder.go ErrReasonBindConflict"
    ),
    rw!(
        UnboundImmediateClaims,
        "pod has unbound immediate PersistentVolumeClaims",
        20,
        36,
        "VolumeBinding",
        "volumebinding/volume_binding.go"
    ),
    rw!(
        ClaimNotFound,
        "persistentvolumeclaim \"{claim}\" not found",
        20,
        36,
        "VolumeBinding",
        "volumebinding/volume_binding.go PreFilter"
    ),
    rw!(
        NotEnoughStorage,
        "node(s) did not have enough free storage",
        21,
        36,
        "VolumeBinding",
        "volumebinding/binder.go ErrReasonNotEnoughSpace"
    ),
    rw!(
        BoundToMissingVolume,
        "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)",
        21,
        36,
        "VolumeBinding",
        "volumebinding/binder.go ErrReasonPVNotExist"
    ),
    rw!(
        VolumeZoneConflict,
        "node(s) had no available volume zone",
        20,
        36,
        "VolumeZone",
        "volumezone/volume_zone.go"
    ),
    rw!(
        MaxVolumeCount,
        "node(s) exceed max volume count",
        20,
        36,
        "NodeVolumeLimits",
        "nodevolumelimits/csi.go"
    ),
    rw!(
        DiskConflict,
        "node(s) had no available disk",
        20,
        36,
        "VolumeRestrictions",
        "volumerestrictions/volume_restrictions.go"
    ),
    rw!(
        ReadWriteOncePodConflict,
        "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode",
        22,
        36,
        "VolumeRestrictions",
        "volumerestrictions/volume_restrictions.go"
    ),
    rw!(
        ClaimsNotAllocatable,
        "cannot allocate all claims",
        26,
        36,
        "DynamicResources",
        "dynamicresources/dynamicresources.go"
    ),
    rw!(
        ClaimNotAvailable,
        "resourceclaim not available on the node",
        26,
        36,
        "DynamicResources",
        "dynamicresources/dynamicresources.go"
    ),
    rw!(
        DynamicResources,
        "resourceclaim must be reallocated",
        26,
        36,
        "DynamicResources",
        "dynamicresources/dynamicresources.go"
    ),
    rw!(
        DynamicResources,
        "waiting for resource driver to allocate resource",
        26,
        31,
        "DynamicResources",
        "dynamicresources/dynamicresources.go"
    ),
    rw!(
        DynamicResources,
        "resourceclaim \"{claim}\" not found",
        26,
        36,
        "DynamicResources",
        "dynamicresources/dynamicresources.go PreFilter"
    ),
    rw!(
        NoPreemptionVictims,
        "No preemption victims found for incoming pod",
        24,
        36,
        "DefaultPreemption",
        "defaultpreemption/default_preemption.go SelectVictimsOnNode"
    ),
    rw!(
        PreemptionNotHelpful,
        "Preemption is not helpful for scheduling",
        24,
        36,
        "DefaultPreemption",
        "pkg/scheduler/framework/preemption/preemption.go nodesWherePreemptionMightHelp"
    ),
    rw!(
        NoVictimsOnNode,
        "No victims found on node {node} for preemptor pod {pod}",
        20,
        23,
        "DefaultPreemption",
        "defaultpreemption/default_preemption.go (logs)"
    ),
    rw!(
        NodeUnregistered,
        "node unregistered",
        20,
        36,
        "HAMi scheduler extender",
        "Project-HAMi/HAMi pkg/scheduler/scheduler.go (getNodesUsage, HAMi v2.4+)"
    ),
    // HAMi v1.0-v2.3 printed the reason misspelt (`failedNodes[nodeID] = "node unregisterd"`,
    // Project-HAMi/HAMi pkg/scheduler/scheduler.go from commit 0f8c4664 until b42b2087 of
    // 2024-07-25, first released in v2.4.0)
    rw!(
        NodeUnregistered,
        "node unregisterd",
        20,
        36,
        "HAMi scheduler extender",
        "Project-HAMi/HAMi pkg/scheduler/scheduler.go (v1.0-v2.3, misspelt upstream)"
    ), // v1.10-v1.19: `0/N nodes are available: <count> <reason>, ....` with the predicates'
    // descriptions as reasons (PredicateFailureError.GetReason: pkg/scheduler/algorithm/
    // predicates/error.go, plugin/pkg/scheduler/... before v1.10; the v1.17-v1.19 framework
    // plugins kept the texts); node conditions (`node(s) were not ready`, `node(s) had disk
    // pressure`, ...) are read by the rules as the condition taints they became
    rw!(
        Insufficient,
        "Insufficient {resource}",
        10,
        19,
        "PodFitsResources",
        "pkg/scheduler/algorithm/predicates/error.go InsufficientResourceError.GetReason"
    ),
    rw!(
        UntoleratedTaint,
        "node(s) had taints that the pod didn't tolerate",
        10,
        19,
        "PodToleratesNodeTaints",
        "pkg/scheduler/algorithm/predicates/error.go ErrTaintsTolerationsNotMatch"
    ),
    rw!(
        NodeAffinity,
        "node(s) didn't match node selector",
        10,
        19,
        "MatchNodeSelector",
        "pkg/scheduler/algorithm/predicates/error.go ErrNodeSelectorNotMatch"
    ),
    rw!(
        NodeAffinity,
        "node(s) didn't have the requested labels",
        10,
        19,
        "CheckNodeLabelPresence",
        "pkg/scheduler/algorithm/predicates/error.go ErrNodeLabelPresenceViolated"
    ),
    rw!(
        NodeName,
        "node(s) didn't match the requested hostname",
        10,
        19,
        "HostName",
        "pkg/scheduler/algorithm/predicates/error.go ErrPodNotMatchHostName"
    ),
    rw!(
        NodePorts,
        "node(s) didn't have free ports for the requested pod ports",
        10,
        19,
        "PodFitsHostPorts",
        "pkg/scheduler/algorithm/predicates/error.go ErrPodNotFitsHostPorts"
    ),
    rw!(
        PodAffinity,
        "node(s) didn't match pod affinity/anti-affinity",
        10,
        19,
        "MatchInterPodAffinity",
        "pkg/scheduler/algorithm/predicates/error.go ErrPodAffinityNotMatch"
    ),
    rw!(
        PodAffinity,
        "node(s) didn't match pod affinity rules",
        10,
        19,
        "MatchInterPodAffinity",
        "pkg/scheduler/algorithm/predicates/error.go ErrPodAffinityRulesNotMatch"
    ),
    rw!(
        PodAntiAffinity,
        "node(s) didn't match pod anti-affinity rules",
        10,
        19,
        "MatchInterPodAffinity",
        "pkg/scheduler/algorithm/predicates/error.go ErrPodAntiAffinityRulesNotMatch"
    ),
    rw!(
        ExistingPodsAntiAffinity,
        "node(s) didn't satisfy existing pods anti-affinity rules",
        10,
        19,
        "MatchInterPodAffinity",
        "pkg/scheduler/algorithm/predicates/error.go ErrExistingPodsAntiAffinityRulesNotMatch"
    ),
    rw!(
        Unschedulable,
        "node(s) were unschedulable",
        10,
        19,
        "CheckNodeUnschedulable",
        "pkg/scheduler/algorithm/predicates/error.go ErrNodeUnschedulable"
    ),
    rw!(
        UnknownCondition,
        "node(s) had unknown conditions",
        10,
        19,
        "CheckNodeCondition",
        "pkg/scheduler/algorithm/predicates/error.go ErrNodeUnknownCondition"
    ),
    rw!(
        VolumeNodeAffinityConflict,
        "node(s) had volume node affinity conflict",
        10,
        19,
        "CheckVolumeBinding",
        "pkg/scheduler/algorithm/predicates/error.go ErrVolumeNodeConflict"
    ),
    rw!(
        VolumeBindConflict,
        "node(s) didn't find available persistent volumes to bind",
        10,
        19,
        "CheckVolumeBinding",
        "pkg/scheduler/algorithm/predicates/error.go ErrVolumeBindConflict"
    ),
    rw!(
        UnboundImmediateClaims,
        "pod has unbound immediate PersistentVolumeClaims",
        12,
        19,
        "CheckVolumeBinding",
        "pkg/scheduler/core/generic_scheduler.go (podPassesBasicChecks); v1.18-v1.19 volumebinding plugin"
    ),
    rw!(
        UnboundImmediateClaims,
        "pod has unbound PersistentVolumeClaims",
        10,
        11,
        "CheckVolumeBinding",
        "pkg/scheduler/core/generic_scheduler.go"
    ),
    rw!(
        VolumeZoneConflict,
        "node(s) had no available volume zone",
        10,
        19,
        "NoVolumeZoneConflict",
        "pkg/scheduler/algorithm/predicates/error.go ErrVolumeZoneConflict"
    ),
    rw!(
        MaxVolumeCount,
        "node(s) exceed max volume count",
        10,
        19,
        "MaxVolumeCount",
        "pkg/scheduler/algorithm/predicates/error.go ErrMaxVolumeCountExceeded"
    ),
    rw!(
        DiskConflict,
        "node(s) had no available disk",
        10,
        19,
        "NoDiskConflict",
        "pkg/scheduler/algorithm/predicates/error.go ErrDiskConflict"
    ),
    rw!(
        TopologySpread,
        "node(s) didn't match pod topology spread constraints",
        16,
        19,
        "EvenPodsSpread",
        "pkg/scheduler/algorithm/predicates/error.go ErrTopologySpreadConstraintsNotMatch"
    ),
];

fn compiled() -> &'static [(ReasonWording, Template)] {
    static T: OnceLock<Vec<(ReasonWording, Template)>> = OnceLock::new();
    T.get_or_init(|| {
        REASON_WORDINGS
            .iter()
            .filter_map(|w| Template::new(w.template).ok().map(|t| (*w, t)))
            .collect()
    })
}

/// One reason of a histogram: what it says, its text as printed, and the values it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Reason {
    /// What it says.
    pub kind: ReasonKind,
    /// The text as printed (verbatim for [`ReasonKind::Unknown`]).
    pub text: String,
    /// Values it names (`resource`, `key`, `value`, `claim`, `node`, `pod`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<(String, String)>,
}

impl Reason {
    /// Reads one reason text (`Insufficient nvidia.com/gpu`).
    pub fn parse(text: &str) -> Reason {
        let text = text.trim();
        for (w, t) in compiled() {
            if let Some(values) = t.match_whole(text) {
                // a resource name is one word: `Insufficient x y` is not a resource
                if w.kind == ReasonKind::Insufficient
                    && values
                        .iter()
                        .any(|(_, v)| v.is_empty() || v.contains(char::is_whitespace))
                {
                    continue;
                }
                if w.kind == ReasonKind::Insufficient
                    && let Some(fixed) = values
                        .iter()
                        .find(|(k, _)| k == "resource")
                        .and_then(|(_, v)| unsplice_from_column(v))
                {
                    return Reason {
                        kind: w.kind,
                        text: format!("Insufficient {fixed}"),
                        values: vec![("resource".to_owned(), fixed)],
                    };
                }
                return Reason {
                    kind: w.kind,
                    text: text.to_owned(),
                    values,
                };
            }
        }
        Reason {
            kind: ReasonKind::Unknown,
            text: text.to_owned(),
            values: Vec::new(),
        }
    }

    /// Reads one reason text of any version: a wording of [`REASON_WORDINGS`] (v1.10-v1.36),
    /// else a pre-v1.10 predicate name of [`LEGACY_PREDICATE_REASONS`] (`PodToleratesNodeTaints`,
    /// which v1.9-era histograms print as `1 PodToleratesNodeTaints`), else
    /// [`ReasonKind::Unknown`] with the text kept.
    pub fn parse_any_version(text: &str) -> Reason {
        legacy_reason(text)
    }

    /// A reason of `kind` in the wording of `version`, with `values` filled in; `None` when the
    /// version prints no such reason (or a needed value is missing).
    pub fn render(
        kind: ReasonKind,
        values: &[(&str, &str)],
        version: SchedulerVersion,
    ) -> Option<Reason> {
        let v = version.minor();
        compiled()
            .iter()
            .filter(|(w, _)| w.kind == kind && (w.since..=w.until).contains(&v))
            .find(|(_, t)| t.holes().all(|h| values.iter().any(|(k, _)| *k == h)))
            .map(|(_, t)| Reason {
                kind,
                text: t.render_with(values),
                values: t
                    .holes()
                    .map(|h| {
                        let val = values.iter().find(|(k, _)| *k == h).map_or("", |(_, x)| *x);
                        (h.to_owned(), val.to_owned())
                    })
                    .collect(),
            })
    }

    /// A named value (`resource` of `Insufficient <resource>`).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The resource of an `Insufficient <resource>` reason.
    pub fn resource(&self) -> Option<&str> {
        (self.kind == ReasonKind::Insufficient)
            .then(|| self.value("resource"))
            .flatten()
    }

    /// The versions that print this reason's wording (`None` for unknown reasons).
    pub fn versions(&self) -> Option<(u16, u16)> {
        let mut out: Option<(u16, u16)> = None;
        for (w, t) in compiled() {
            if w.kind == self.kind && t.match_whole(&self.text).is_some() {
                out = Some(match out {
                    Some((a, b)) => (a.min(w.since), b.max(w.until)),
                    None => (w.since, w.until),
                });
            }
        }
        out
    }
}

/// The `From` values of a FailedScheduling event (`kubectl describe` / `get events` column,
/// the UI's event list): kube-scheduler's default profile name (`v1.DefaultSchedulerName`),
/// the names the GPU-sharing and batch schedulers run under (HAMi's chart `schedulerName`,
/// Volcano, KAI, YuniKorn, Koordinator) and the kubelet. A copy from a web UI sometimes
/// splices that column into the message (`Insufficient ndefault-schedulervidia.com/gpu`,
/// ehfd/nvidia-dind#2).
pub const EVENT_FROM_VALUES: &[&str] = &[
    "default-scheduler",
    "hami-scheduler",
    "volcano",
    "kai-scheduler",
    "yunikorn",
    "koord-scheduler",
    "kubelet",
];

/// The resource name of an `Insufficient <resource>` with an event's From value spliced into
/// it removed (`ndefault-schedulervidia.com/gpu` -> `nvidia.com/gpu`), when the value sits
/// inside the name (a letter or digit on both sides) and what remains is a valid qualified
/// resource name (`<domain with a dot>/<name>`). `None` when nothing was spliced.
pub fn unsplice_from_column(resource: &str) -> Option<String> {
    for from in EVENT_FROM_VALUES {
        let Some(at) = resource.find(from) else {
            continue;
        };
        let before = resource[..at].chars().next_back();
        let after = resource[at + from.len()..].chars().next();
        let inside = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        if !(inside(before) && inside(after)) {
            continue;
        }
        let fixed = format!("{}{}", &resource[..at], &resource[at + from.len()..]);
        let valid = fixed.split_once('/').is_some_and(|(domain, name)| {
            domain.contains('.')
                && !name.is_empty()
                && domain
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
                && domain.starts_with(|c: char| c.is_ascii_alphanumeric())
        });
        if valid {
            return Some(fixed);
        }
    }
    None
}

/// `<count> <reason>`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReasonCount {
    /// How many nodes report it.
    pub count: usize,
    /// The reason.
    pub reason: Reason,
}

/// The preemption part (`preemption: ...`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[non_exhaustive]
pub enum Preemption {
    /// `not eligible due to ...` (the text after `preemption: `, e.g.
    /// `not eligible due to preemptionPolicy=Never.`).
    NotEligible {
        /// The text.
        text: String,
    },
    /// Preemption ran and no node is a candidate: its own histogram.
    Nodes {
        /// `N` of its `0/N nodes are available`.
        nodes: usize,
        /// Per-reason node counts.
        reasons: Vec<ReasonCount>,
    },
    /// Anything else, verbatim.
    Other {
        /// The text.
        text: String,
    },
}

/// A parsed (or predicted) FailedScheduling message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SchedulerMessage {
    /// `N` of `0/N nodes are available` (0 for `no nodes available to schedule pods`).
    pub nodes: usize,
    /// The PreFilter sentence (v1.26+), when a PreFilter plugin rejected the pod.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefilter: Option<String>,
    /// The Filter histogram, in printed order.
    pub reasons: Vec<ReasonCount>,
    /// PostFilter reasons other than preemption (`no new claims to deallocate`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub post_filter: Vec<String>,
    /// The preemption part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preemption: Option<Preemption>,
    /// Text after the message that is none of the above, verbatim.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trailing: Option<String>,
    /// True when the PostFilter part was followed by the separator's own `.` (`..`, v1.24–v1.31).
    #[serde(skip)]
    post_filter_dot: Option<bool>,
    /// The scheduler whose wording this is.
    #[serde(skip_serializing_if = "is_kube_scheduler")]
    pub dialect: Dialect,
    /// The pod the message names (only the v1.3–v1.5 wording `pod (<name>) failed to fit in
    /// any node` does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pod: Option<String>,
    /// The per-node reasons of the v1.3–v1.4 wording (`fit failure on node (<node>): <reasons>`,
    /// one line per node), as (node, reasons) in printed order; empty otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_node: Vec<(String, Vec<String>)>,
    /// The minor versions of a pre-v1.10 wording.
    #[serde(skip)]
    legacy: Option<(u16, u16)>,
}

fn is_kube_scheduler(d: &Dialect) -> bool {
    *d == Dialect::KubeScheduler
}

const HEADER: &str = " nodes are available:";
/// Volcano's header (`FitErrors.Error()`).
const VOLCANO_HEADER: &str = " nodes are unavailable:";

/// Finds and parses the first scheduler message in `line` (an event message, a describe row, a
/// `kubectl get events` row, a PodScheduled condition message). `None` when the line has none.
///
/// Table columns after the message (three or more spaces, a tab) are not part of it.
pub fn parse(line: &str) -> Option<SchedulerMessage> {
    if line.contains(NO_NODES) {
        return Some(SchedulerMessage::new(0, Vec::new()));
    }
    let Some((nodes, after)) = header_at(line, 0) else {
        return parse_legacy(line)
            .or_else(|| parse_volcano(line))
            .or_else(|| parse_plugin_status(line));
    };
    let mut body = &line[after..];
    if let Some(cut) = body.find("   ").into_iter().chain(body.find('\t')).min() {
        body = &body[..cut];
    }
    // quoted in a log line (`err="0/4 nodes ... pod."`, JSON): the closing quote is not part
    // of the message, inner quotes are escaped
    let unescaped;
    if body.contains("\\\"") {
        unescaped = body.replace("\\\"", "\"");
        body = &unescaped;
    }
    // ... and a Markdown inline-code span (`` `Warning FailedScheduling ... tolerate.` ``)
    // ends with a backtick
    let body = body.trim().trim_end_matches(['"', '\'', '`']).trim_end();
    Some(parse_body(nodes, body))
}

/// The scheduling framework's error for a plugin that fails after a node was picked (kubernetes
/// pkg/scheduler/framework/runtime/framework.go, v1.19+: `running Reserve plugin %q: %w`,
/// `running PreBind plugin %q: %w`, `running Permit plugin %q: %w`, `running PreFilter plugin
/// %q: %w` before v1.26 put PreFilter rejections in the histogram); the classic DRA wording of
/// v1.26-v1.31 is `running Reserve plugin "DynamicResources": waiting for resource driver to
/// allocate resource` (dynamicresources.go Reserve, a claim with a control-plane controller).
/// Read as a message with no node count (`nodes` 0) whose PreFilter part is the whole text: the
/// pod was rejected by that plugin, not by the Filter histogram.
fn parse_plugin_status(line: &str) -> Option<SchedulerMessage> {
    const PHASES: [&str; 5] = ["Reserve", "PreBind", "Permit", "PreFilter", "Bind"];
    let start = PHASES
        .iter()
        .filter_map(|ph| line.find(&format!("running {ph} plugin \"")))
        .min()?;
    let text = line[start..]
        .split("   ")
        .next()
        .unwrap_or_default()
        .trim()
        .trim_end_matches(['"', '\'', '`'])
        .trim_end();
    // the plugin's own error must follow its quoted name
    let (_, err) = text.split_once("\": ")?;
    if err.trim().is_empty() {
        return None;
    }
    let mut m = SchedulerMessage::new(0, Vec::new());
    m.prefilter = Some(text.to_owned());
    Some(m)
}

/// The pre-v1.10 wordings (module documentation, "Before v1.10").
fn parse_legacy(line: &str) -> Option<SchedulerMessage> {
    const FOLLOWING: &str = "No nodes are available that match all of the following predicates:";
    const PREDICATES: &str = "No nodes are available that match all of the predicates:";
    const FIT: &str = ") failed to fit in any node";
    const BARE_FIT: &str = "failed to fit in any node";
    const SUMMARY: &str = "fit failure summary on nodes :";
    const FAILED_FOR: &str = "Failed for reason ";
    const POSSIBLY_OTHERS: &str = " and possibly others";
    let cut = |body: &str| -> String {
        let mut b = body;
        if let Some(c) = b.find("   ").into_iter().chain(b.find('\t')).min() {
            b = &b[..c];
        }
        b.trim()
            .trim_end_matches(['"', '\''])
            .trim_end()
            .trim_end_matches('.')
            .trim_end()
            .to_owned()
    };
    // v1.3–v1.4: one `fit failure on node (<node>): <reasons>` line per node after the pod's
    // sentence (or alone: a describe table, a log, broke the message at its newlines)
    let per_node = per_node_failures(line);
    if !per_node.is_empty() && !line.contains(SUMMARY) {
        let mut reasons: Vec<ReasonCount> = Vec::new();
        for (_, rs) in &per_node {
            for r in rs {
                let reason = legacy_reason(r);
                match reasons.iter_mut().find(|c| c.reason.text == reason.text) {
                    Some(c) => c.count += 1,
                    None => reasons.push(ReasonCount { count: 1, reason }),
                }
            }
        }
        let mut m = SchedulerMessage::new(per_node.len(), reasons);
        m.dialect = Dialect::LegacyKubeScheduler;
        m.pod = line.find(FIT).and_then(|p| {
            let open = line[..p].rfind("pod (")?;
            Some(line[open + "pod (".len()..p].trim().to_owned())
        });
        // several reasons per node: v1.4 (PredicateFailureReason list joined by `, `) or v1.2
        // (the predicate names joined by `,`); one: v1.2-v1.4 (v1.3 kept one per node). v1.2
        // named a resource shortfall `PodExceedsFree<Resource>`; `Insufficient <resource>`
        // (InsufficientResourceError) came with v1.3
        let many = per_node.iter().any(|(_, r)| r.len() > 1);
        let insufficient = per_node
            .iter()
            .any(|(_, r)| r.iter().any(|x| x.starts_with("Insufficient ")));
        m.legacy = Some(match (many, line.contains(", ")) {
            (true, true) => (4, 4),
            (true, false) => (2, 2),
            (false, _) if insufficient => (3, 4),
            (false, _) => (2, 4),
        });
        m.per_node = per_node;
        return Some(m);
    }
    // v1.0-v1.1: `Failed for reason <predicate> and possibly others` (FitError / FitResult
    // `Error()` in plugin/pkg/scheduler/generic_scheduler.go of release-1.0 and release-1.1:
    // one reason of one node, a predicate name such as `PodFitsResources`, or from v1.1 the
    // resource a PodFitsResources failure named, `PodExceedsFreeCPU` / `PodExceedsFreeMemory`)
    if let Some(p) = line.find(FAILED_FOR) {
        let rest = &line[p + FAILED_FOR.len()..];
        let end = rest.find(POSSIBLY_OTHERS)?;
        let reason = rest[..end].trim();
        if reason.is_empty() || reason.contains(char::is_whitespace) {
            return None;
        }
        let mut m = SchedulerMessage::new(
            1,
            vec![ReasonCount {
                count: 1,
                reason: legacy_reason(reason),
            }],
        );
        m.dialect = Dialect::LegacyKubeScheduler;
        m.legacy = Some((0, 1));
        return Some(m);
    }
    let (hist, pod, versions) = if let Some(p) = line.find(FOLLOWING) {
        let body = &line[p + FOLLOWING.len()..];
        (cut(body.strip_prefix(':').unwrap_or(body)), None, (6, 7))
    } else if let Some(p) = line.find(PREDICATES) {
        (cut(&line[p + PREDICATES.len()..]), None, (8, 9))
    } else if let Some(p) = line.find(FIT) {
        let open = line[..p].rfind("pod (")?;
        let name = line[open + "pod (".len()..p].trim().to_owned();
        match line[p..].find(SUMMARY) {
            Some(q) => (cut(&line[p + q + SUMMARY.len()..]), Some(name), (5, 5)),
            None => (String::new(), Some(name), (2, 5)),
        }
    } else {
        // the sentence as people quote it, without the pod's name (`pod failed to fit in any
        // node`, an issue title), or its summary line alone
        let p = line.find(BARE_FIT)?;
        let before = line[..p].trim_end().to_ascii_lowercase();
        if !(before.is_empty()
            || before.ends_with(|c: char| !c.is_alphanumeric())
            || before.ends_with(" pod")
            || before == "pod"
            || before.ends_with("`pod"))
        {
            return None;
        }
        match line[p..].find(SUMMARY) {
            Some(q) => (cut(&line[p + q + SUMMARY.len()..]), None, (5, 5)),
            None => (String::new(), None, (2, 5)),
        }
    };
    let mut reasons = Vec::new();
    for item in split_top(&hist, ", ") {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        // `<reason> (<n>)`; a reason without a count was reported by one node
        let (reason, count) = match item.rsplit_once(" (") {
            Some((r, n)) if n.trim_end_matches(')').chars().all(|c| c.is_ascii_digit()) => (
                r.trim(),
                n.trim_end_matches(')').parse::<usize>().unwrap_or(1),
            ),
            _ => (item, 1),
        };
        reasons.push(ReasonCount {
            count,
            reason: legacy_reason(reason),
        });
    }
    let nodes = reasons.iter().map(|r| r.count).max().unwrap_or(0);
    let mut m = SchedulerMessage::new(nodes, reasons);
    m.dialect = Dialect::LegacyKubeScheduler;
    m.pod = pod;
    m.legacy = Some(versions);
    Some(m)
}

/// The failure reasons of kube-scheduler v1.3–v1.9 that are predicate names (what
/// `PredicateFailureError.GetReason()` returned, kubernetes/kubernetes
/// plugin/pkg/scheduler/algorithm/predicates/error.go at release-1.4 to release-1.9; v1.3's
/// `podFitsOnNode` in plugin/pkg/scheduler/generic_scheduler.go returned the same names, and
/// `Insufficient <resource>` for `InsufficientResourceError`), with the reason kind each stands
/// for and the resource it implies. Names of the predicates themselves (`PodFitsResources`,
/// `CheckNodeMemoryPressure`, as registered in algorithmprovider/defaults/defaults.go) appear in
/// v1.1–v1.2 messages and reports and are read the same way.
pub const LEGACY_PREDICATE_REASONS: &[(&str, ReasonKind, Option<&str>)] = &[
    ("PodFitsResources", ReasonKind::Insufficient, None),
    ("PodExceedsFreeCPU", ReasonKind::Insufficient, Some("cpu")),
    (
        "PodExceedsFreeMemory",
        ReasonKind::Insufficient,
        Some("memory"),
    ),
    ("PodExceedsMaxPodNumber", ReasonKind::TooManyPods, None),
    ("MatchNodeSelector", ReasonKind::NodeAffinity, None),
    ("CheckNodeLabelPresence", ReasonKind::NodeAffinity, None),
    ("PodToleratesNodeTaints", ReasonKind::UntoleratedTaint, None),
    (
        "PodToleratesNodeNoExecuteTaints",
        ReasonKind::UntoleratedTaint,
        None,
    ),
    ("HostName", ReasonKind::NodeName, None),
    ("PodFitsHost", ReasonKind::NodeName, None),
    ("PodFitsHostPorts", ReasonKind::NodePorts, None),
    ("PodFitsPorts", ReasonKind::NodePorts, None),
    ("NoDiskConflict", ReasonKind::DiskConflict, None),
    ("NoVolumeZoneConflict", ReasonKind::VolumeZoneConflict, None),
    (
        "NoVolumeNodeConflict",
        ReasonKind::VolumeNodeAffinityConflict,
        None,
    ),
    ("MaxVolumeCount", ReasonKind::MaxVolumeCount, None),
    ("MaxEBSVolumeCount", ReasonKind::MaxVolumeCount, None),
    ("MaxGCEPDVolumeCount", ReasonKind::MaxVolumeCount, None),
    ("MaxAzureDiskVolumeCount", ReasonKind::MaxVolumeCount, None),
    ("MatchInterPodAffinity", ReasonKind::PodAffinity, None),
    ("NodeUnschedulable", ReasonKind::Unschedulable, None),
    ("CheckNodeUnschedulable", ReasonKind::Unschedulable, None),
    ("NodeNotReady", ReasonKind::UnknownCondition, None),
    ("NodeOutOfDisk", ReasonKind::UnknownCondition, None),
    ("NodeNetworkUnavailable", ReasonKind::UnknownCondition, None),
    ("NodeUnknownCondition", ReasonKind::UnknownCondition, None),
    ("CheckNodeCondition", ReasonKind::UnknownCondition, None),
    (
        "NodeUnderMemoryPressure",
        ReasonKind::UnknownCondition,
        None,
    ),
    (
        "CheckNodeMemoryPressure",
        ReasonKind::UnknownCondition,
        None,
    ),
    ("NodeUnderDiskPressure", ReasonKind::UnknownCondition, None),
    ("CheckNodeDiskPressure", ReasonKind::UnknownCondition, None),
];

/// A reason of a pre-v1.10 message: a current wording ([`Reason::parse`]), else a predicate
/// name of [`LEGACY_PREDICATE_REASONS`] (the text kept as printed), else unknown.
fn legacy_reason(text: &str) -> Reason {
    let mut r = Reason::parse(text);
    if r.kind == ReasonKind::Insufficient {
        // v1.3's resource names in `Insufficient <name>` (`CPU`, `NvidiaGpu`, as in the
        // reports of kubernetes/kubernetes#28216) are the API's from v1.4 on
        for (k, v) in &mut r.values {
            if k == "resource" {
                match v.as_str() {
                    "CPU" => *v = "cpu".to_owned(),
                    "Memory" => *v = "memory".to_owned(),
                    "NvidiaGpu" | "NvidiaGPU" => *v = "alpha.kubernetes.io/nvidia-gpu".to_owned(),
                    _ => {}
                }
            }
        }
        return r;
    }
    if r.kind != ReasonKind::Unknown {
        return r;
    }
    match LEGACY_PREDICATE_REASONS
        .iter()
        .find(|(name, _, _)| *name == r.text)
    {
        Some((_, kind, resource)) => Reason {
            kind: *kind,
            values: resource
                .map(|res| vec![("resource".to_owned(), res.to_owned())])
                .unwrap_or_default(),
            text: r.text,
        },
        None => r,
    }
}

/// The `fit failure on node (<node>): <reasons>` parts of `line` (v1.3–v1.4 FitError, one per
/// node, each ended by a newline: plugin/pkg/scheduler/generic_scheduler.go `FitError.Error`),
/// as (node, reasons); reasons are split at `,` (v1.4 joins them with `, `, v1.2 with `,`).
fn per_node_failures(line: &str) -> Vec<(String, Vec<String>)> {
    const NODE: &str = "fit failure on node (";
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(p) = rest.find(NODE) {
        let after = &rest[p + NODE.len()..];
        let Some(close) = after.find("):") else {
            break;
        };
        let node = after[..close].trim().to_owned();
        let body = &after[close + 2..];
        // up to the newline or the next node's part, before table columns
        let mut end = body.find('\n').unwrap_or(body.len());
        if let Some(q) = body.find(NODE) {
            end = end.min(q);
        }
        let mut text = &body[..end];
        if let Some(c) = text.find("   ").into_iter().chain(text.find('\t')).min() {
            text = &text[..c];
        }
        let reasons: Vec<String> = text
            .trim()
            .trim_end_matches(['"', '\''])
            .split(',')
            .map(|r| r.trim().trim_end_matches('.').trim().to_owned())
            .filter(|r| !r.is_empty())
            .collect();
        if !node.is_empty() && !reasons.is_empty() {
            out.push((node, reasons));
        }
        rest = &body[end..];
    }
    out
}

/// Volcano's FitErrors (`0/N nodes are unavailable: <histogram>.`, possibly after `In
/// hyperNode <h>: ` or a gang message's `Origin reason is <task>: `), or its bare
/// `all nodes are unavailable`.
fn parse_volcano(line: &str) -> Option<SchedulerMessage> {
    let mut msg = match header_with(line, 0, VOLCANO_HEADER) {
        Some((nodes, after)) => {
            let mut body = &line[after..];
            if let Some(cut) = body.find("   ").into_iter().chain(body.find('\t')).min() {
                body = &body[..cut];
            }
            let body = body.trim().trim_end_matches(['"', '\'']).trim_end();
            let (hist, _) = strip_dots(body);
            let mut m = SchedulerMessage::new(nodes, parse_histogram(hist).unwrap_or_default());
            if m.reasons.is_empty() && !hist.is_empty() {
                m.trailing = Some(hist.to_owned());
            }
            m
        }
        None if line.contains(VOLCANO_ALL_NODES_UNAVAILABLE) => {
            SchedulerMessage::new(0, Vec::new())
        }
        None => return None,
    };
    msg.dialect = Dialect::Volcano;
    Some(msg)
}

/// `(N, index after the header)` of the first `0/N nodes are available:` at or after `from`.
fn header_at(line: &str, from: usize) -> Option<(usize, usize)> {
    header_with(line, from, HEADER)
}

/// `(N, index after the header)` of the first `0/N<header>` at or after `from`.
fn header_with(line: &str, from: usize, header: &str) -> Option<(usize, usize)> {
    let mut search = from;
    while let Some(rel) = line.get(search..)?.find(header) {
        let p = search + rel;
        let before = &line[..p];
        let digits: String = before
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let head = &before[..before.len() - digits.len()];
        if !digits.is_empty()
            && head.ends_with("0/")
            && let Ok(n) = digits.parse()
        {
            return Some((n, p + header.len()));
        }
        search = p + header.len();
    }
    None
}

/// Splits at `sep` outside braces, brackets, parentheses and double quotes.
fn split_top(text: &str, sep: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut cur = String::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().unwrap_or(' ');
        match c {
            '"' => quoted = !quoted,
            '{' | '[' | '(' if !quoted => depth += 1,
            '}' | ']' | ')' if !quoted => depth -= 1,
            _ => {}
        }
        if depth <= 0 && !quoted && bytes[i..].starts_with(sep.as_bytes()) {
            out.push(std::mem::take(&mut cur));
            i += sep.len();
            continue;
        }
        cur.push(c);
        i += c.len_utf8();
    }
    out.push(cur);
    out
}

/// Reads `<count> <reason>, <count> <reason>` (continuations without a count belong to the
/// previous reason: `had taint {k: v}, that the pod didn't tolerate`). `None` when the text does
/// not start with a count.
fn parse_histogram(text: &str) -> Option<Vec<ReasonCount>> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for item in split_top(text, ", ") {
        let item = item.trim();
        let (n, rest) = match item.split_once(' ') {
            Some((n, r)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
                (n.parse::<usize>().ok(), r)
            }
            _ => (None, item),
        };
        match (n, out.last_mut()) {
            (Some(n), _) => out.push((n, rest.trim().to_owned())),
            (None, Some(last)) => {
                last.1.push_str(", ");
                last.1.push_str(item);
            }
            (None, None) => return None,
        }
    }
    if out.is_empty() {
        return None;
    }
    Some(
        out.into_iter()
            .map(|(count, r)| ReasonCount {
                count,
                // v1.9-v1.10 pre-releases printed predicate names in this histogram
                // (kubernetes/kubernetes#57574: `3 MatchNodeSelector, 1 NodeUnschedulable`)
                reason: legacy_reason(&r),
            })
            .collect(),
    )
}

fn strip_dots(s: &str) -> (&str, usize) {
    let t = s.trim_end();
    let stripped = t.trim_end_matches('.');
    (stripped.trim_end(), t.len() - stripped.len())
}

fn parse_body(nodes: usize, body: &str) -> SchedulerMessage {
    let mut msg = SchedulerMessage::new(nodes, Vec::new());
    // the preemption part starts at `preemption: ` after a sentence end or a `, ` joint
    let pre_at = [". preemption: ", ", preemption: "]
        .iter()
        .filter_map(|m| body.find(m).map(|p| p + m.len() - PREEMPTION_PREFIX.len()))
        .min()
        .or_else(|| body.starts_with(PREEMPTION_PREFIX).then_some(0));
    let (filter_part, post) = match pre_at {
        Some(p) => (&body[..p], Some(&body[p + PREEMPTION_PREFIX.len()..])),
        None => (body, None),
    };
    // sentences of the part before preemption
    let mut sentences: Vec<String> = split_top(filter_part.trim(), ". ")
        .into_iter()
        .map(|s| s.trim().trim_end_matches(['.', ',']).trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    // `... <hist>. no new claims to deallocate,` : the last sentence may be PostFilter reasons
    let mut hist_seen = false;
    for s in sentences.drain(..) {
        if !hist_seen && let Some(h) = parse_histogram(&s) {
            msg.reasons = h;
            hist_seen = true;
            continue;
        }
        if !hist_seen && msg.prefilter.is_none() && !is_post_filter_text(&s) {
            msg.prefilter = Some(s);
            continue;
        }
        for part in split_top(&s, ", ") {
            let part = part.trim();
            if !part.is_empty() {
                msg.post_filter.push(part.to_owned());
            }
        }
    }
    if let Some(post) = post {
        // `preemption: <msg>., no new claims to deallocate` when another PostFilter follows
        let mut parts = split_top(post, "., ").into_iter();
        let first = parts.next().unwrap_or_default();
        let rest: Vec<String> = parts.collect();
        let (text, dots) = strip_dots(&first);
        let dotted = if rest.is_empty() { dots } else { dots + 1 };
        msg.preemption = Some(parse_preemption(text));
        // a FitError or not-eligible text ends in its own `.`; one more is the separator's
        msg.post_filter_dot = match dotted {
            0 => None,
            1 => Some(false),
            _ => Some(true),
        };
        for r in rest {
            let (t, _) = strip_dots(&r);
            if !t.is_empty() {
                msg.post_filter.push(t.to_owned());
            }
        }
    }
    msg
}

/// PostFilter reasons of plugins other than DefaultPreemption.
fn is_post_filter_text(s: &str) -> bool {
    s == DRA_NO_CLAIMS
        || s.starts_with(&format!("{DRA_NO_CLAIMS},"))
        || s == "plugin disabled"
        || s == "still not schedulable"
        || s.starts_with("deallocation of ResourceClaim")
}

fn parse_preemption(text: &str) -> Preemption {
    if let Some((n, after)) = header_at(text, 0).filter(|_| text.starts_with("0/")) {
        let (hist, _) = strip_dots(&text[after..]);
        return Preemption::Nodes {
            nodes: n,
            reasons: parse_histogram(hist.trim()).unwrap_or_default(),
        };
    }
    if text.starts_with("not eligible due to") {
        return Preemption::NotEligible {
            text: format!("{text}."),
        };
    }
    Preemption::Other {
        text: text.to_owned(),
    }
}

/// `0/<n> nodes are available: <count> <reason>, ....` with the `<count> <reason>` strings sorted
/// as strings (upstream `sort.Strings`), or `0/<n> nodes are available:` alone.
fn histogram_text(nodes: usize, reasons: &[ReasonCount]) -> String {
    let mut parts: Vec<String> = reasons
        .iter()
        .map(|r| format!("{} {}", r.count, r.reason.text))
        .collect();
    parts.sort();
    let mut msg = format!("0/{nodes}{HEADER}");
    if !parts.is_empty() {
        msg.push(' ');
        msg.push_str(&parts.join(", "));
        msg.push('.');
    }
    msg
}

impl Preemption {
    /// The text after `preemption: ` as the scheduler prints it (ending in `.`).
    pub fn text(&self) -> String {
        match self {
            Preemption::NotEligible { text } | Preemption::Other { text } => text.clone(),
            Preemption::Nodes { nodes, reasons } => histogram_text(*nodes, reasons),
        }
    }

    /// The per-reason counts of a preemption histogram (empty otherwise).
    pub fn reasons(&self) -> &[ReasonCount] {
        match self {
            Preemption::Nodes { reasons, .. } => reasons,
            _ => &[],
        }
    }

    /// Nodes where preemption found no lower-priority pod.
    pub fn no_victims(&self) -> usize {
        self.count(ReasonKind::NoPreemptionVictims) + self.count(ReasonKind::NoVictimsOnNode)
    }

    /// Nodes where preemption cannot help.
    pub fn not_helpful(&self) -> usize {
        self.count(ReasonKind::PreemptionNotHelpful)
    }

    fn count(&self, kind: ReasonKind) -> usize {
        self.reasons()
            .iter()
            .filter(|r| r.reason.kind == kind)
            .map(|r| r.count)
            .sum()
    }
}

impl SchedulerMessage {
    /// A message with a Filter histogram only.
    pub fn new(nodes: usize, reasons: Vec<ReasonCount>) -> Self {
        SchedulerMessage {
            nodes,
            prefilter: None,
            reasons,
            post_filter: Vec::new(),
            preemption: None,
            trailing: None,
            post_filter_dot: None,
            dialect: Dialect::KubeScheduler,
            pod: None,
            per_node: Vec::new(),
            legacy: None,
        }
    }

    /// The message in Volcano's wording (`0/N nodes are unavailable: <histogram>.`, or
    /// `all nodes are unavailable` without nodes).
    pub fn render_volcano(&self) -> String {
        if self.nodes == 0 && self.reasons.is_empty() {
            return VOLCANO_ALL_NODES_UNAVAILABLE.to_owned();
        }
        let full = histogram_text(self.nodes, &self.reasons);
        format!(
            "0/{}{VOLCANO_HEADER}{}",
            self.nodes,
            &full[format!("0/{}{HEADER}", self.nodes).len()..]
        )
    }

    /// The message as `version` prints it: the PreFilter sentence (v1.26+; earlier versions
    /// counted it on every node), the histogram, and (v1.24+) the PostFilter part with the
    /// version's separators. Reason and PostFilter texts are printed as they are: build them for
    /// a version with [`Reason::render`] or [`from_fit`].
    pub fn render(&self, version: SchedulerVersion) -> String {
        if self.nodes == 0 && self.reasons.is_empty() && self.prefilter.is_none() {
            return NO_NODES.to_owned();
        }
        let v = version.minor();
        let mut msg = format!("0/{}{HEADER}", self.nodes);
        let mut reasons = self.reasons.clone();
        if let Some(p) = &self.prefilter {
            if v >= 26 {
                msg.push(' ');
                msg.push_str(p);
                msg.push('.');
            } else if reasons.is_empty() {
                reasons.push(ReasonCount {
                    count: self.nodes,
                    reason: Reason::parse(p),
                });
            }
        }
        if !reasons.is_empty() {
            let full = histogram_text(self.nodes, &reasons);
            msg.push_str(&full[format!("0/{}{HEADER}", self.nodes).len()..]);
        }
        if v < 24 {
            return msg;
        }
        let mut post: Vec<String> = self.post_filter.clone();
        if let Some(p) = &self.preemption {
            post.push(format!("{PREEMPTION_PREFIX}{}", p.text()));
        }
        if !post.is_empty() {
            msg.push(' ');
            msg.push_str(&post.join(", "));
            if v < 32 {
                msg.push('.');
            }
        }
        msg
    }

    /// Every `Insufficient <resource>` of the Filter histogram: (resource, node count).
    pub fn insufficient(&self) -> impl Iterator<Item = (&str, usize)> {
        self.reasons
            .iter()
            .filter_map(|r| r.reason.resource().map(|res| (res, r.count)))
    }

    /// The node count of reasons of `kind` in the Filter histogram.
    pub fn count(&self, kind: ReasonKind) -> usize {
        self.reasons
            .iter()
            .filter(|r| r.reason.kind == kind)
            .map(|r| r.count)
            .sum()
    }

    /// The Filter reasons plus the PreFilter one, as reasons.
    pub fn all_reasons(&self) -> impl Iterator<Item = Reason> + '_ {
        self.prefilter
            .iter()
            .map(|p| Reason::parse(p))
            .chain(self.reasons.iter().map(|r| r.reason.clone()))
    }

    /// The range of minor versions whose wording matches this message (best effort, from the
    /// markers it carries: the preemption part and its final dots, the DRA PostFilter text, the
    /// PreFilter sentence, reason wordings). `(20, 36)` when nothing narrows it.
    pub fn versions(&self) -> (u16, u16) {
        if let Some(v) = self.legacy {
            return v;
        }
        let (mut lo, mut hi) = (10u16, 36u16);
        let mut narrow = |a: u16, b: u16| {
            if a.max(lo) <= b.min(hi) {
                lo = lo.max(a);
                hi = hi.min(b);
            }
        };
        if self.preemption.is_some() {
            narrow(24, 36);
        }
        match self.post_filter_dot {
            Some(true) => narrow(24, 31),
            Some(false) => narrow(32, 36),
            None => {}
        }
        if self.post_filter.iter().any(|p| p == DRA_NO_CLAIMS) {
            narrow(26, 36);
            narrow(34, 36);
        }
        if self.prefilter.is_some() {
            narrow(26, 36);
        }
        let reasons = self.reasons.iter().map(|r| &r.reason).chain(
            self.preemption
                .iter()
                .flat_map(|p| p.reasons().iter().map(|r| &r.reason)),
        );
        for r in reasons {
            if let Some((a, b)) = r.versions() {
                narrow(a, b);
            }
        }
        // the grammar's range starts at v1.20: a wording v1.20+ prints too is reported from
        // there; only reasons worded as v1.10-v1.19 alone printed them take it below
        if hi >= SchedulerVersion::OLDEST.minor() {
            lo = lo.max(SchedulerVersion::OLDEST.minor());
        }
        (lo, hi)
    }
}

impl fmt::Display for SchedulerMessage {
    /// The message in the wording it was read in when known, else v1.36's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((lo, _)) = self.legacy {
            let hist: Vec<String> = self
                .reasons
                .iter()
                .map(|r| format!("{} ({})", r.reason.text, r.count))
                .collect();
            if !self.per_node.is_empty() {
                let mut text = format!(
                    "pod ({}) failed to fit in any node",
                    self.pod.as_deref().unwrap_or("")
                );
                for (node, reasons) in &self.per_node {
                    text.push_str(&format!(
                        "\nfit failure on node ({node}): {}",
                        reasons.join(", ")
                    ));
                }
                return f.write_str(&text);
            }
            return match (lo, &self.pod) {
                (0..=1, _) => write!(
                    f,
                    "Failed for reason {} and possibly others",
                    self.reasons.first().map_or("", |r| r.reason.text.as_str())
                ),
                (6..=7, _) => write!(
                    f,
                    "No nodes are available that match all of the following predicates:: {}.",
                    hist.join(", ")
                ),
                (8.., _) => write!(
                    f,
                    "No nodes are available that match all of the predicates: {}.",
                    hist.join(", ")
                ),
                (_, Some(pod)) if !hist.is_empty() => write!(
                    f,
                    "pod ({pod}) failed to fit in any node\nfit failure summary on nodes : {}",
                    hist.join(", ")
                ),
                (_, Some(pod)) => write!(f, "pod ({pod}) failed to fit in any node"),
                (_, None) if !hist.is_empty() => write!(
                    f,
                    "pod failed to fit in any node\nfit failure summary on nodes : {}",
                    hist.join(", ")
                ),
                (_, None) => f.write_str("pod failed to fit in any node"),
            };
        }
        let (lo, hi) = self.versions();
        if hi < SchedulerVersion::OLDEST.minor() {
            // v1.10-v1.19: rendering starts at v1.20; the histogram as printed
            let hist: Vec<String> = self
                .reasons
                .iter()
                .map(|r| format!("{} {}", r.count, r.reason.text))
                .collect();
            return write!(
                f,
                "0/{} nodes are available: {}.",
                self.nodes,
                hist.join(", ")
            );
        }
        let v = SchedulerVersion::new(hi).unwrap_or_default();
        let v = if self.post_filter_dot == Some(true) {
            SchedulerVersion::new(lo.max(24)).unwrap_or(v)
        } else {
            v
        };
        f.write_str(&self.render(v))
    }
}

/// The message kube-scheduler `version` prints for a pod whose fit over the snapshot is `fit`
/// and whose preemption outcome is `preemption` (`None`: preemption did not run); `None` when
/// a node fits. Reasons are worded for `version` (an untolerated taint names the node's first
/// untolerated taint up to v1.34); a pod is taken to have no ResourceClaims (v1.34–v1.36 print
/// [`DRA_NO_CLAIMS`] before the preemption part).
pub fn from_fit(
    fit: &crate::fit::FitReport,
    preemption: Option<&crate::preemption::PreemptionReport>,
    version: SchedulerVersion,
) -> Option<SchedulerMessage> {
    if fit.schedulable() {
        return None;
    }
    if fit.nodes.is_empty() {
        return Some(SchedulerMessage::new(0, Vec::new()));
    }
    let mut counts: Vec<(String, Reason, usize)> = Vec::new();
    let mut add = |r: Reason| match counts.iter_mut().find(|(t, _, _)| *t == r.text) {
        Some(e) => e.2 += 1,
        None => counts.push((r.text.clone(), r, 1)),
    };
    for n in &fit.nodes {
        for r in &n.reasons {
            // The nodes NodeAffinity's PreFilter result leaves out: no status at all in
            // v1.24–v1.29; before v1.24 (no PreFilter result) the filter refused them.
            let r = match (
                r == crate::fit::REASON_PREFILTER_NODE_AFFINITY,
                version.minor(),
            ) {
                (true, 24..=29) => continue,
                (true, m) if m < 24 => crate::fit::REASON_NODE_AFFINITY,
                _ => r.as_str(),
            };
            add(versioned_reason(r, n.untolerated_taints.first(), version));
        }
    }
    let reasons = counts
        .into_iter()
        .map(|(_, reason, count)| ReasonCount { count, reason })
        .collect();
    let mut msg = SchedulerMessage::new(fit.nodes.len(), reasons);
    msg.prefilter = fit.prefilter.clone();
    msg.post_filter_dot = Some(version.minor() < 32);
    msg.preemption = preemption.and_then(|p| {
        if let Some(text) = &p.not_eligible {
            return Some(Preemption::NotEligible { text: text.clone() });
        }
        if p.chosen.is_some() || p.nodes.is_empty() {
            return None;
        }
        let mut counts: Vec<(String, usize)> = Vec::new();
        for (_, np) in &p.nodes {
            for r in np.reasons() {
                match counts.iter_mut().find(|(t, _)| *t == r) {
                    Some(e) => e.1 += 1,
                    None => counts.push((r, 1)),
                }
            }
        }
        Some(Preemption::Nodes {
            nodes: p.nodes.len(),
            reasons: counts
                .into_iter()
                .map(|(t, count)| ReasonCount {
                    count,
                    reason: Reason::parse(&t),
                })
                .collect(),
        })
    });
    if msg.preemption.is_some() && (34..=36).contains(&version.minor()) {
        msg.post_filter.push(DRA_NO_CLAIMS.to_owned());
    }
    Some(msg)
}

/// A fit reason string (v1.36 wording, as [`crate::fit`] reports it) in `version`'s wording.
fn versioned_reason(
    text: &str,
    taint: Option<&cube_model::objects::Taint>,
    version: SchedulerVersion,
) -> Reason {
    let parsed = Reason::parse(text);
    let rendered = match (parsed.kind, taint) {
        (ReasonKind::UntoleratedTaint, Some(t)) => Reason::render(
            ReasonKind::UntoleratedTaint,
            &[("key", t.key.as_str()), ("value", t.value.as_str())],
            version,
        ),
        (kind @ (ReasonKind::NodeAffinity | ReasonKind::NodeName | ReasonKind::TooManyPods), _) => {
            Reason::render(kind, &[], version)
        }
        _ => None,
    };
    rendered.unwrap_or(parsed)
}

#[cfg(test)]
mod tests {
    #[test]
    fn markdown_inline_code_backtick_is_not_part_of_the_message() {
        let m = parse("Pod was not started due to `Warning  FailedScheduling  4s  default-scheduler  0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/disk-pressure: }, that the pod didn't tolerate.`").unwrap();
        assert_eq!(m.reasons[0].reason.kind, ReasonKind::UntoleratedTaint);
        assert_eq!(
            m.reasons[0].reason.value("key"),
            Some("node.kubernetes.io/disk-pressure")
        );
    }

    use super::*;

    /// Classic DRA's Reserve failure (framework.go `running Reserve plugin %q: %w`, v1.26-v1.31)
    /// is a message of its own: no node count, the plugin's text as its PreFilter part.
    #[test]
    fn plugin_status_wording_is_read() {
        let m = parse("  Warning  FailedScheduling  41s (x2 over 86s)  default-scheduler  running Reserve plugin \"DynamicResources\": waiting for resource driver to allocate resource").unwrap();
        assert_eq!(m.nodes, 0);
        assert_eq!(
            m.prefilter.as_deref(),
            Some(
                "running Reserve plugin \"DynamicResources\": waiting for resource driver to allocate resource"
            )
        );
        assert!(m.reasons.is_empty());
        // a plugin named without its error is not a message
        assert!(parse("running Reserve plugin \"DynamicResources\"").is_none());
        assert!(parse("the scheduler is running Reserve plugins").is_none());
    }

    #[test]
    fn event_from_column_spliced_into_a_resource_is_removed() {
        // ehfd/nvidia-dind#2: a UI copy put `default-scheduler` inside the resource name
        let m = parse("0/1 nodes are available: 1 Insufficient ndefault-schedulervidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.").unwrap();
        assert_eq!(m.reasons[0].reason.resource(), Some("nvidia.com/gpu"));
        assert_eq!(m.reasons[0].reason.text, "Insufficient nvidia.com/gpu");
        assert_eq!(
            unsplice_from_column("xhami-schedulery"),
            None,
            "what remains must be a resource name"
        );
        assert_eq!(
            unsplice_from_column("nvidia.com/gkubeletpu").as_deref(),
            Some("nvidia.com/gpu")
        );
        // names that merely contain a From value are untouched
        for r in [
            "volcano.sh/vgpu-number",
            "nvidia.com/gpu",
            "example.com/kubelet-slots",
            "hami.io/volcano",
        ] {
            assert_eq!(unsplice_from_column(r), None, "{r}");
        }
    }

    #[test]
    fn reason_table_templates_parse_and_read_back() {
        assert_eq!(compiled().len(), REASON_WORDINGS.len());
        for w in REASON_WORDINGS {
            let t = Template::new(w.template).unwrap();
            let values: Vec<(&str, &str)> = t
                .holes()
                .map(|h| match h {
                    "resource" => (h, "example.com/gpu"),
                    "key" => (h, "node-role.kubernetes.io/control-plane"),
                    "value" => (h, ""),
                    _ => (h, "sample-1"),
                })
                .collect();
            let text = t.render_with(&values);
            let r = Reason::parse(&text);
            assert_eq!(r.kind, w.kind, "{text}");
            for (k, v) in &values {
                assert_eq!(r.value(k), Some(*v), "{text}");
            }
            // rows of v1.10-v1.19 are read, never rendered (rendering starts at v1.20)
            if w.until >= SchedulerVersion::OLDEST.minor() {
                let v = SchedulerVersion::new(w.until).unwrap();
                assert!(Reason::render(w.kind, &values, v).is_some(), "{text}");
            }
        }
    }

    #[test]
    fn v1_10_to_v1_19_histograms_are_read_with_their_kinds() {
        // kubernetes/kubernetes pkg/scheduler/algorithm/predicates/error.go descriptions
        let m = parse(
            "0/3 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 2 Insufficient cpu.",
        )
        .expect("parsed");
        assert_eq!(m.nodes, 3);
        assert_eq!(m.reasons[0].reason.kind, ReasonKind::UntoleratedTaint);
        assert_eq!(m.reasons[1].reason.resource(), Some("cpu"));
        assert_eq!(m.versions(), (10, 19));
        assert_eq!(
            m.to_string(),
            "0/3 nodes are available: 1 node(s) had taints that the pod didn't tolerate, 2 Insufficient cpu."
        );
        for (text, kind) in [
            (
                "node(s) didn't have the requested labels",
                ReasonKind::NodeAffinity,
            ),
            (
                "node(s) didn't match pod affinity/anti-affinity",
                ReasonKind::PodAffinity,
            ),
            (
                "pod has unbound PersistentVolumeClaims",
                ReasonKind::UnboundImmediateClaims,
            ),
            (
                "pod has unbound immediate PersistentVolumeClaims",
                ReasonKind::UnboundImmediateClaims,
            ),
            (
                "node(s) didn't match node selector",
                ReasonKind::NodeAffinity,
            ),
            (
                "node(s) had volume node affinity conflict",
                ReasonKind::VolumeNodeAffinityConflict,
            ),
        ] {
            assert_eq!(Reason::parse(text).kind, kind, "{text}");
        }
        // a v1.20+ feature keeps the newer range
        let m = parse(
            "0/3 nodes are available: 3 node(s) had taint {a: b}, that the pod didn't tolerate.",
        )
        .expect("parsed");
        assert_eq!(m.versions(), (20, 25));
    }

    #[test]
    fn versions_parse() {
        assert_eq!(
            SchedulerVersion::parse("v1.28.3").map(|v| v.minor()),
            Some(28)
        );
        assert_eq!(SchedulerVersion::parse("1.36").map(|v| v.minor()), Some(36));
        assert_eq!(SchedulerVersion::parse("1.19"), None);
        assert_eq!(SchedulerVersion::parse("2.1"), None);
        assert_eq!(SchedulerVersion::LATEST.wording().since, 34);
    }

    #[test]
    fn pre_1_10_wordings_are_read() {
        let m = parse("Message:             No nodes are available that match all of the predicates: Insufficient cpu (19), Insufficient memory (19), PodToleratesNodeTaints (10).").expect("1.9");
        assert_eq!(m.dialect, Dialect::LegacyKubeScheduler);
        assert_eq!(m.versions(), (8, 9));
        assert_eq!(m.reasons.len(), 3);
        assert_eq!(m.nodes, 19);
        assert_eq!(m.reasons[0].reason.resource(), Some("cpu"));
        assert_eq!(m.reasons[2].count, 10);
        let m = parse("  10h\t\t1m\t\t38\tdefault-scheduler\t\t\tWarning\t\tFailedScheduling\tNo nodes are available that match all of the following predicates:: Insufficient cpu (18), Insufficient memory (18), MatchNodeSelector (18).").expect("1.7");
        assert_eq!(m.versions(), (6, 7));
        assert_eq!(m.reasons.len(), 3);
        assert_eq!(m.reasons[2].reason.text, "MatchNodeSelector");
        let m = parse("  51m\t\t37m\t\t50\t{default-scheduler }\t\t\tWarning\t\tFailedScheduling    pod (loudmail-deployment-1671311517-s1nb9) failed to fit in any node").expect("1.4");
        assert_eq!(
            m.pod.as_deref(),
            Some("loudmail-deployment-1671311517-s1nb9")
        );
        assert!(m.reasons.is_empty());
        let m = parse("pod (extended-resource-demo-2) failed to fit in any node fit failure summary on nodes : Insufficient example.com/dongle (1)").expect("1.5");
        assert_eq!(m.reasons[0].reason.resource(), Some("example.com/dongle"));
        assert_eq!(
            m.to_string(),
            "pod (extended-resource-demo-2) failed to fit in any node\nfit failure summary on nodes : Insufficient example.com/dongle (1)"
        );
    }

    #[test]
    fn v1_0_and_v1_1_failed_for_reason_and_bare_v1_5_sentences() {
        // v1.0 `describe pod` Events row (reason `failedScheduling`, From `{scheduler }`)
        let m = parse("  Fri, 17 Jul 2015 10:30:55 -0700\tFri, 17 Jul 2015 10:31:10 -0700\t5\t{scheduler }\t\t\tfailedScheduling\t\t\tFailed for reason PodFitsResources and possibly others").expect("1.0");
        assert_eq!(m.dialect, Dialect::LegacyKubeScheduler);
        assert_eq!(m.versions(), (0, 1));
        assert_eq!(m.reasons.len(), 1);
        assert_eq!(m.reasons[0].reason.kind, ReasonKind::Insufficient);
        assert_eq!(
            m.to_string(),
            "Failed for reason PodFitsResources and possibly others"
        );
        // v1.1 names the resource (predicates.FailedResourceType)
        for (text, resource) in [
            ("PodExceedsFreeCPU", Some("cpu")),
            ("PodExceedsFreeMemory", Some("memory")),
        ] {
            let m = parse(&format!("Failed for reason {text} and possibly others")).expect(text);
            assert_eq!(m.reasons[0].reason.resource(), resource, "{text}");
        }
        for (text, kind) in [
            ("PodFitsPorts", ReasonKind::NodePorts),
            ("PodFitsHostPorts", ReasonKind::NodePorts),
            ("MatchNodeSelector", ReasonKind::NodeAffinity),
            ("NoDiskConflict", ReasonKind::DiskConflict),
            ("HostName", ReasonKind::NodeName),
        ] {
            let m = parse(&format!("Failed for reason {text} and possibly others")).expect(text);
            assert_eq!(m.reasons[0].reason.kind, kind, "{text}");
        }
        // prose that is not the sentence
        assert!(parse("Failed for reason of the node and possibly others").is_none());
        // the v1.2-v1.5 sentence as people quote it, without the pod's name
        let m = parse("get `pod failed to fit in any node` on 1.0.0 when deploying an app")
            .expect("bare");
        assert_eq!(m.dialect, Dialect::LegacyKubeScheduler);
        assert_eq!(m.pod, None);
        assert!(m.reasons.is_empty());
        assert_eq!(m.versions(), (2, 5));
        assert_eq!(m.to_string(), "pod failed to fit in any node");
        let m = parse("pod failed to fit in any node fit failure summary on nodes : Insufficient pods (2), PodToleratesNodeTaints (1)").expect("bare 1.5");
        assert_eq!(m.versions(), (5, 5));
        assert_eq!(m.nodes, 2);
        assert_eq!(m.reasons[0].reason.resource(), Some("pods"));
        assert!(parse("the volume failed to fit in any node").is_none());
        // v1.2 joins a node's predicate names with `,`
        let m = parse("pod (web-1) failed to fit in any node\nfit failure on node (n1): PodExceedsFreeCPU,PodFitsHostPorts\n").expect("1.2");
        assert_eq!(m.versions(), (2, 2));
        assert_eq!(m.reasons.len(), 2);
    }

    #[test]
    fn v1_3_and_v1_4_per_node_lines_and_predicate_names() {
        // v1.4: the event message holds one line per node after the pod's sentence
        let m = parse("pod (gpu-job-1) failed to fit in any node\nfit failure on node (node-01): Insufficient alpha.kubernetes.io/nvidia-gpu\nfit failure on node (node-02): MatchNodeSelector, PodToleratesNodeTaints\nfit failure on node (node-03): Insufficient cpu, Insufficient alpha.kubernetes.io/nvidia-gpu\n").expect("1.4");
        assert_eq!(m.dialect, Dialect::LegacyKubeScheduler);
        assert_eq!(m.pod.as_deref(), Some("gpu-job-1"));
        assert_eq!(m.nodes, 3);
        assert_eq!(m.versions(), (4, 4));
        let count = |t: &str| {
            m.reasons
                .iter()
                .find(|r| r.reason.text == t)
                .map(|r| r.count)
        };
        assert_eq!(
            count("Insufficient alpha.kubernetes.io/nvidia-gpu"),
            Some(2)
        );
        assert_eq!(count("MatchNodeSelector"), Some(1));
        let kind = |t: &str| {
            m.reasons
                .iter()
                .find(|r| r.reason.text == t)
                .map(|r| r.reason.kind)
        };
        assert_eq!(kind("MatchNodeSelector"), Some(ReasonKind::NodeAffinity));
        assert_eq!(
            kind("PodToleratesNodeTaints"),
            Some(ReasonKind::UntoleratedTaint)
        );
        assert_eq!(m.per_node[1].0, "node-02");
        assert!(m.to_string().contains(
            "\nfit failure on node (node-02): MatchNodeSelector, PodToleratesNodeTaints"
        ));
        // a line of its own (a describe table or a log broke the message): one node
        let m = parse("fit failure on node (minikube): Insufficient cpu").expect("1.3 line");
        assert_eq!((m.nodes, m.reasons[0].reason.resource()), (1, Some("cpu")));
        let m = parse("fit failure on node (n2): Insufficient NvidiaGpu").expect("1.3 gpu");
        assert_eq!(
            m.reasons[0].reason.resource(),
            Some("alpha.kubernetes.io/nvidia-gpu")
        );
        assert_eq!(m.versions(), (3, 4));
        // predicate names in the 1.6-1.9 histograms get their kinds
        let m = parse("No nodes are available that match all of the predicates: CheckNodeMemoryPressure (2), NoDiskConflict (1), PodFitsHostPorts (1).").expect("1.8");
        let kinds: Vec<ReasonKind> = m.reasons.iter().map(|r| r.reason.kind).collect();
        assert_eq!(
            kinds,
            vec![
                ReasonKind::UnknownCondition,
                ReasonKind::DiskConflict,
                ReasonKind::NodePorts
            ]
        );
        let m = parse(
            "pod (web-1) failed to fit in any node\nfit failure on node (n1): PodFitsResources\n",
        )
        .expect("1.2");
        assert_eq!(m.reasons[0].reason.kind, ReasonKind::Insufficient);
        assert_eq!(m.reasons[0].reason.resource(), None);
    }

    #[test]
    fn volcano_wordings_read_and_render() {
        // FitErrors.Error(): reasons sorted as strings, one final `.`
        let m = parse("Warning  FailedScheduling  36m  volcano  0/3 nodes are unavailable: 1 no enough gpu cards on node node-01, 2 Insufficient volcano.sh/vgpu-number.").expect("volcano message");
        assert_eq!(m.dialect, Dialect::Volcano);
        assert_eq!(m.nodes, 3);
        assert_eq!(m.reasons.len(), 2);
        assert_eq!(m.reasons[1].count, 2);
        assert_eq!(
            m.reasons[1].reason.resource(),
            Some("volcano.sh/vgpu-number")
        );
        assert!(m.preemption.is_none());
        assert_eq!(
            m.render_volcano(),
            "0/3 nodes are unavailable: 1 no enough gpu cards on node node-01, 2 Insufficient volcano.sh/vgpu-number."
        );
        assert_eq!(parse(&m.render_volcano()), Some(m));
        // newer releases prefix the hyperNode; the gang message embeds the FitErrors
        let h = parse("In hyperNode s0: 0/4 nodes are unavailable: 4 Insufficient nvidia.com/gpu.")
            .expect("hyperNode");
        assert_eq!((h.nodes, h.dialect), (4, Dialect::Volcano));
        let g = parse("1/2 tasks in gang unschedulable: pod group is not ready, 1 Pending, 2 minAvailable; Pending: 1 Unschedulable. Origin reason is worker-0: 0/2 nodes are unavailable: 2 Insufficient cpu.").expect("gang");
        assert_eq!(g.insufficient().collect::<Vec<_>>(), vec![("cpu", 2)]);
        // nothing tried
        let a = parse("all nodes are unavailable").expect("bare");
        assert_eq!(
            (a.nodes, a.reasons.len(), a.dialect),
            (0, 0, Dialect::Volcano)
        );
        // the kube-scheduler wording keeps its dialect
        assert_eq!(
            parse("0/1 nodes are available: 1 Insufficient cpu.").map(|m| m.dialect),
            Some(Dialect::KubeScheduler)
        );
    }
}
