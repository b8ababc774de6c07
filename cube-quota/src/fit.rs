//! Node fit: why a pod does not fit each node of a snapshot, in kube-scheduler's own filter
//! texts, the `0/N nodes are available: ...` summary, and the GPU fragmentation picture.
//!
//! Mirrors the default kube-scheduler (v1.36) filter plugins that depend only on the pod, the
//! node and the pods bound to it, in the scheduler's order:
//!
//! | plugin | reason text | code |
//! |---|---|---|
//! | `NodeUnschedulable` | `node(s) were unschedulable` | UnschedulableAndUnresolvable |
//! | `TaintToleration` | `node(s) had untolerated taint(s)` | UnschedulableAndUnresolvable |
//! | `NodeAffinity` | `node(s) didn't match Pod's node affinity/selector` | UnschedulableAndUnresolvable |
//! | `NodeResourcesFit` | `Too many pods`, `Insufficient cpu`, `Insufficient memory`, `Insufficient ephemeral-storage`, `Insufficient <scalar>` | Unschedulable, or UnschedulableAndUnresolvable when the request exceeds the node's whole allocatable |
//!
//! As in the scheduler, the first failing plugin decides what a node reports
//! ([`NodeFit::reasons`]); every failing check is still kept in [`NodeFit::all_reasons`].
//! The filters that read other pods and objects (NodePorts, VolumeBinding, PodTopologySpread,
//! InterPodAffinity) are evaluated by the what-if's scheduling session
//! ([`crate::preemption::FitSession`], see [`crate::podfilters`]), not by [`NodeUsage::fit`].
//!
//! Accounting (`pkg/scheduler/framework/types.go` `NodeInfo`): a pod counts against the node
//! named by its `spec.nodeName`; pods in phase `Succeeded` or `Failed` count for nothing (the
//! scheduler's informer drops them); the node offers `status.allocatable` (capacity when a
//! Node has no allocatable, as API defaulting does), never capacity minus usage. CPU is
//! compared in millicores (`MilliValue()`), everything else in whole units (`Value()`), both
//! rounded up as upstream does.
//!
//! [`NodeUsage`] is the index that makes repeated fits cheap: it sums the requests of the
//! pods bound to each node once; [`NodeUsage::fit`] then costs one pass over the nodes.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use cube_model::objects::{Node, Pod, Taint};
use cube_model::selector::{pod_matches_node_selector_and_affinity, tolerations_tolerate_taint};
use cube_model::{ClusterSnapshot, Quantity, ResourceList, ResourceName};
use serde::Serialize;

use crate::requests::{PodResourcesOptions, effective_pod_requests};

/// Reason text of the `NodeUnschedulable` filter.
pub const REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// Reason text of the `TaintToleration` filter (v1.36 no longer names the taint).
pub const REASON_UNTOLERATED_TAINT: &str = "node(s) had untolerated taint(s)";
/// Reason text of the `NodeAffinity` filter (node selector and required node affinity).
pub const REASON_NODE_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";
/// Status of the nodes a PreFilter result leaves out (v1.30+, kubernetes#119779,
/// `pkg/scheduler/schedule_one.go` `findNodesThatFitPod`: `SetAbsentNodesStatus` with
/// `node(s) didn't satisfy plugin(s) %v`), here NodeAffinity's: a pod whose every required
/// node-affinity term names nodes by `matchFields` `metadata.name In` (a DaemonSet's pods) is
/// filtered on those nodes only (`nodeaffinity.PreFilter` returns them as its
/// `PreFilterResult`, kubernetes#108648, v1.24+). UnschedulableAndUnresolvable. v1.24–v1.29
/// left such nodes out of the histogram (the count `0/N` still names every node).
pub const REASON_PREFILTER_NODE_AFFINITY: &str = "node(s) didn't satisfy plugin(s) [NodeAffinity]";
/// Reason text of the `NodeResourcesFit` pod-count check.
pub const REASON_TOO_MANY_PODS: &str = "Too many pods";
/// Taint the node lifecycle controller puts on a node whose Ready condition is `False`.
pub const TAINT_NOT_READY: &str = "node.kubernetes.io/not-ready";
/// Taint the node lifecycle controller puts on a node whose Ready condition is `Unknown`.
pub const TAINT_UNREACHABLE: &str = "node.kubernetes.io/unreachable";
/// Taint matching `spec.unschedulable` (tolerating it lets a pod onto a cordoned node).
pub const TAINT_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";

/// Options of a fit computation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FitOptions {
    /// How pod requests are computed (the scheduler includes overhead and honours pod-level
    /// resources: the default).
    pub resources: PodResourcesOptions,
    /// When a node's Ready condition is `False` (`Unknown`) and it does not carry the
    /// `node.kubernetes.io/not-ready` (`unreachable`) `NoSchedule` taint yet, add it, as the
    /// node lifecycle controller does a few seconds later (TaintNodesByCondition). The
    /// scheduler itself only looks at taints. Default `true`.
    pub condition_taints: bool,
    /// Extended resources the scheduler is configured to ignore
    /// (`NodeResourcesFitArgs.ignoredResources`).
    pub ignored_resources: BTreeSet<String>,
    /// Extended resource groups (the part before `/`) to ignore
    /// (`NodeResourcesFitArgs.ignoredResourceGroups`).
    pub ignored_resource_groups: BTreeSet<String>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            resources: PodResourcesOptions::default(),
            condition_taints: true,
            ignored_resources: BTreeSet::new(),
            ignored_resource_groups: BTreeSet::new(),
        }
    }
}

impl FitOptions {
    /// Sets [`FitOptions::condition_taints`].
    #[must_use]
    pub fn condition_taints(mut self, on: bool) -> Self {
        self.condition_taints = on;
        self
    }
    /// Adds an ignored extended resource name.
    #[must_use]
    pub fn ignore_resource(mut self, name: impl Into<String>) -> Self {
        self.ignored_resources.insert(name.into());
        self
    }
}

/// Resource amounts as the scheduler's `framework.Resource` holds them: cpu in millicores,
/// memory and ephemeral storage in bytes, scalar resources (extended resources, hugepages,
/// attachable volumes, `*kubernetes.io/*` names) in whole units.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchedResources {
    /// CPU in millicores.
    pub milli_cpu: i64,
    /// Memory in bytes.
    pub memory: i64,
    /// Ephemeral storage in bytes.
    pub ephemeral_storage: i64,
    /// Scalar resources by name.
    pub scalar: BTreeMap<ResourceName, i64>,
}

impl SchedResources {
    /// Reads a resource list (`requests`, `allocatable`): `cpu` via `MilliValue()`, `memory`,
    /// `ephemeral-storage` and scalar names via `Value()`; `pods` and names the scheduler does
    /// not track (no `/`, not hugepages) are skipped.
    pub fn from_list(list: &ResourceList) -> Self {
        let mut r = SchedResources::default();
        for (name, q) in list {
            match name.as_str() {
                "cpu" => r.milli_cpu = r.milli_cpu.saturating_add(q.milli_value()),
                "memory" => r.memory = r.memory.saturating_add(q.value()),
                "ephemeral-storage" => {
                    r.ephemeral_storage = r.ephemeral_storage.saturating_add(q.value())
                }
                n if is_scalar_resource_name(n) => {
                    let e = scalar_entry(&mut r.scalar, name);
                    *e = e.saturating_add(q.value());
                }
                _ => {}
            }
        }
        r
    }

    /// The amount of `name` in the unit described on the type (0 when absent).
    pub fn get(&self, name: &str) -> i64 {
        match name {
            "cpu" => self.milli_cpu,
            "memory" => self.memory,
            "ephemeral-storage" => self.ephemeral_storage,
            n => self.scalar.get(n).copied().unwrap_or(0),
        }
    }

    /// True when nothing is requested (the scheduler then only checks the pod count).
    pub fn is_empty(&self) -> bool {
        self.milli_cpu == 0
            && self.memory == 0
            && self.ephemeral_storage == 0
            && self.scalar.is_empty()
    }

    /// Adds `other` (saturating).
    pub fn add(&mut self, other: &SchedResources) {
        self.milli_cpu = self.milli_cpu.saturating_add(other.milli_cpu);
        self.memory = self.memory.saturating_add(other.memory);
        self.ephemeral_storage = self
            .ephemeral_storage
            .saturating_add(other.ephemeral_storage);
        for (k, v) in &other.scalar {
            let e = scalar_entry(&mut self.scalar, k);
            *e = e.saturating_add(*v);
        }
    }

    /// Subtracts `other` (saturating; entries stay present at 0).
    pub fn sub(&mut self, other: &SchedResources) {
        self.milli_cpu = self.milli_cpu.saturating_sub(other.milli_cpu);
        self.memory = self.memory.saturating_sub(other.memory);
        self.ephemeral_storage = self
            .ephemeral_storage
            .saturating_sub(other.ephemeral_storage);
        for (k, v) in &other.scalar {
            let e = scalar_entry(&mut self.scalar, k);
            *e = e.saturating_sub(*v);
        }
    }
}

/// The entry of `name` in a scalar map, inserted at 0 (the name is cloned only then).
fn scalar_entry<'m>(map: &'m mut BTreeMap<ResourceName, i64>, name: &ResourceName) -> &'m mut i64 {
    if !map.contains_key(name.as_str()) {
        map.insert(name.clone(), 0);
    }
    map.get_mut(name.as_str())
        .unwrap_or_else(|| unreachable!("inserted above"))
}

/// Upstream `schedutil.IsScalarResourceName`: extended resources (a `/` outside the
/// `kubernetes.io` domain, not `requests.`-prefixed), hugepages, prefixed native resources
/// (`*kubernetes.io/*`) and attachable volumes.
pub fn is_scalar_resource_name(name: &str) -> bool {
    is_extended_resource_name(name)
        || name.starts_with("hugepages-")
        || name.contains("kubernetes.io/")
        || name.starts_with("attachable-volumes-")
}

/// Upstream `v1helper.IsExtendedResourceName`: not a native (`kubernetes.io`) name, has a
/// domain (`/`), and not a quota key (`requests.` prefix).
pub fn is_extended_resource_name(name: &str) -> bool {
    !name.contains("kubernetes.io/") && name.contains('/') && !name.starts_with("requests.")
}

/// True for a resource name that counts whole GPUs or GPU slices (`nvidia.com/gpu`,
/// `nvidia.com/gpu.shared`, `nvidia.com/mig-1g.5gb`, `amd.com/gpu`, `gpu.intel.com/i915`,
/// HAMi's `nvidia.com/vgpu`). Used for the fragmentation picture only.
pub fn is_gpu_resource_name(name: &str) -> bool {
    if !is_extended_resource_name(name) {
        return false;
    }
    let (domain, local) = name.split_once('/').unwrap_or(("", name));
    // Memory and core shares of a GPU (HAMi `gpumem`, `gpucores`) are not GPUs.
    if local.contains("mem") || local.contains("cores") {
        return false;
    }
    local.contains("gpu") || local.starts_with("mig-") || domain.contains("gpu")
}

/// A `NodeResourcesFit` failure, as upstream's `InsufficientResource`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct InsufficientResource {
    /// `pods`, `cpu`, `memory`, `ephemeral-storage` or the scalar name.
    pub resource: ResourceName,
    /// The reason text (`Insufficient cpu`, `Too many pods`).
    pub reason: String,
    /// What the pod asks (millicores for cpu, 1 for pods, whole units otherwise).
    pub requested: i64,
    /// What the node's bound pods already request (pod count for `pods`).
    pub used: i64,
    /// The node's allocatable amount.
    pub capacity: i64,
    /// True when the request exceeds the whole allocatable: evicting pods cannot help.
    pub unresolvable: bool,
}

/// The default filter plugins evaluated here, in the scheduler's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[non_exhaustive]
pub enum FilterPlugin {
    /// `NodeUnschedulable`: `spec.unschedulable` without the matching toleration.
    NodeUnschedulable,
    /// `TaintToleration`: a `NoSchedule`/`NoExecute` taint the pod does not tolerate.
    TaintToleration,
    /// `NodeAffinity`: `spec.nodeSelector` and required node affinity.
    NodeAffinity,
    /// `NodeResourcesFit`: pod count and requests against allocatable.
    NodeResourcesFit,
    /// `NodePorts`: a host port already taken on the node (see [`crate::podfilters`]).
    NodePorts,
    /// `VolumeBinding`: the pod's claims (see [`crate::podfilters`]).
    VolumeBinding,
    /// `VolumeZone`: the zone and region labels of the pod's bound volumes (see
    /// [`crate::podfilters`]).
    VolumeZone,
    /// `PodTopologySpread`: `DoNotSchedule` constraints (see [`crate::podfilters`]).
    PodTopologySpread,
    /// `InterPodAffinity`: required pod affinity and anti-affinity (see
    /// [`crate::podfilters`]).
    InterPodAffinity,
}

/// A filter status code, as the scheduler framework's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum FitCode {
    /// The node passes every filter.
    Fits,
    /// Fails, but evicting pods could help.
    Unschedulable,
    /// Fails, and preemption cannot help (`Preemption is not helpful for scheduling`).
    UnschedulableAndUnresolvable,
}

/// Why one node does (not) fit the pod.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeFit {
    /// Node name.
    pub node: String,
    /// The scheduler's status code for this node.
    pub code: FitCode,
    /// The first failing plugin (the one the scheduler reports), `None` when it fits.
    pub plugin: Option<FilterPlugin>,
    /// The reasons the scheduler reports for this node (those of the first failing plugin).
    pub reasons: Vec<String>,
    /// Every failing check of every plugin, in plugin order (a superset of `reasons`).
    pub all_reasons: Vec<String>,
    /// Resource shortfalls (also when an earlier plugin already failed).
    pub insufficient: Vec<InsufficientResource>,
    /// The `NoSchedule`/`NoExecute` taints the pod does not tolerate.
    pub untolerated_taints: Vec<Taint>,
}

impl NodeFit {
    /// True when the pod fits this node.
    pub fn fits(&self) -> bool {
        self.code == FitCode::Fits
    }
}

/// Free amount of one GPU resource on one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GpuNodeFree {
    /// Node name.
    pub node: String,
    /// Allocatable units.
    pub allocatable: i64,
    /// Units requested by the node's bound, non-terminal pods.
    pub used: i64,
    /// `allocatable - used`, never below 0.
    pub free: i64,
    /// True when the node passes the non-resource filters (cordon, taints, affinity).
    pub eligible: bool,
    /// True when the node is eligible and `free >= requested`.
    pub fits: bool,
}

/// The fragmentation picture of one GPU resource the pod requests: a pod needs all its GPUs
/// on one node, so free GPUs scattered over nodes do not add up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GpuFragmentation {
    /// The resource (`nvidia.com/gpu`).
    pub resource: ResourceName,
    /// Units the pod requests.
    pub requested: i64,
    /// Nodes that advertise the resource or have pods holding it, in snapshot order.
    pub nodes: Vec<GpuNodeFree>,
    /// Sum of free units over eligible nodes.
    pub total_free: i64,
    /// Largest free block on one eligible node.
    pub largest_free: i64,
    /// True when `total_free >= requested > largest_free`: enough GPUs exist, but not on
    /// one node.
    pub fragmented: bool,
}

/// The result of fitting one pod over every node of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FitReport {
    /// `namespace/name` of the pod.
    pub pod: String,
    /// The pod's requests as the scheduler counts them.
    pub requests: SchedResources,
    /// One entry per node, in snapshot order.
    pub nodes: Vec<NodeFit>,
    /// One entry per GPU resource the pod requests.
    pub gpu: Vec<GpuFragmentation>,
    /// A PreFilter plugin's refusal (VolumeBinding's `persistentvolumeclaim "x" not found`):
    /// every node is then UnschedulableAndUnresolvable without reasons of its own, and the
    /// message carries this sentence instead of a histogram.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefilter: Option<String>,
}

impl FitReport {
    /// True when at least one node fits.
    pub fn schedulable(&self) -> bool {
        self.nodes.iter().any(NodeFit::fits)
    }

    /// Names of the nodes that fit.
    pub fn feasible_nodes(&self) -> impl Iterator<Item = &str> {
        self.nodes
            .iter()
            .filter(|n| n.fits())
            .map(|n| n.node.as_str())
    }

    /// The reason histogram over all nodes (each reason of each node counted once, so a node
    /// short of two resources counts twice).
    pub fn histogram(&self) -> BTreeMap<String, usize> {
        histogram(self.nodes.iter().map(|n| n.reasons.as_slice()))
    }

    /// The scheduler's FailedScheduling text without the preemption part:
    /// `0/N nodes are available: <count> <reason>, ....`, `None` when a node fits. With no
    /// nodes at all: `no nodes available to schedule pods`. Use
    /// [`crate::preemption::failed_scheduling_message`] for the full text.
    pub fn filter_message(&self) -> Option<String> {
        if self.schedulable() {
            return None;
        }
        if self.nodes.is_empty() {
            return Some("no nodes available to schedule pods".to_owned());
        }
        Some(fit_error_message(self.nodes.len(), &self.histogram()))
    }
}

/// Counts reasons over nodes.
pub(crate) fn histogram<'a>(
    per_node: impl Iterator<Item = &'a [String]>,
) -> BTreeMap<String, usize> {
    let mut h = BTreeMap::new();
    for reasons in per_node {
        for r in reasons {
            *h.entry(r.clone()).or_insert(0) += 1;
        }
    }
    h
}

/// Upstream `FitError.Error()` without PreFilter/PostFilter parts:
/// `0/<n> nodes are available: <count> <reason>, ....` with the `<count> <reason>` strings
/// sorted as strings (so `10 x` sorts before `3 y`).
pub fn fit_error_message(num_nodes: usize, histogram: &BTreeMap<String, usize>) -> String {
    let mut parts: Vec<String> = histogram
        .iter()
        .map(|(reason, count)| format!("{count} {reason}"))
        .collect();
    parts.sort();
    let mut msg = format!("0/{num_nodes} nodes are available:");
    if !parts.is_empty() {
        msg.push(' ');
        msg.push_str(&parts.join(", "));
        msg.push('.');
    }
    msg
}

/// Dense slot of cpu (millicores) in the index's per-node rows.
const SLOT_CPU: usize = 0;
/// Dense slot of memory (bytes).
const SLOT_MEMORY: usize = 1;
/// Dense slot of ephemeral storage (bytes).
const SLOT_EPHEMERAL: usize = 2;
/// Slots before the scalar resources of the index's table.
const FIXED_SLOTS: usize = 3;
/// Scalar resources a pod may request for the allocation-free verdicts (bits 4.. of
/// [`NodeVerdict`]); a pod asking for more is checked through the detailed path.
const MAX_VERDICT_SCALARS: usize = 60;

/// Per-node state of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeState {
    /// Index into `ClusterSnapshot::nodes`.
    pub index: usize,
    /// Node name.
    pub name: String,
    /// `allocatable.pods` (0 when absent).
    pub allowed_pods: i64,
    /// Indices of the non-terminal pods bound here: into `ClusterSnapshot::pods`, then (from
    /// `snapshot.pods.len()` on) the pods added with [`NodeUsage::add_pod`].
    pub pods: Vec<usize>,
    /// Indices into `ClusterSnapshot::pods` of the unbound, non-terminal pods whose
    /// `status.nominatedNodeName` is this node (preemptors waiting for their victims to go).
    pub nominated: Vec<usize>,
    /// Effective taints: the node's own plus, with [`FitOptions::condition_taints`], the
    /// derived not-ready/unreachable `NoSchedule` taint.
    pub taints: Vec<Taint>,
}

/// A pod's requests in the index: cpu, memory, ephemeral storage, then `len` scalar entries
/// `(slot, amount)` from `start` in the index's arena.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct PodReq {
    fixed: [i64; FIXED_SLOTS],
    start: u32,
    len: u32,
}

/// Max-trees over the nodes (in snapshot order) of the free amount of every dense slot and of
/// the free pod count: an upper bound of what each node can still take, so a search for the
/// first node that may fit skips whole ranges of nodes too full for the pod.
///
/// Pods nominated to a node are not subtracted: the bound stays an upper bound, and every node
/// the search yields is then checked exactly.
#[derive(Debug, Clone, Default)]
struct FreeTree {
    /// Leaves (a power of two, at least the node count).
    size: usize,
    /// Dimensions: the dense slots, then the pod count.
    dims: usize,
    /// `dims` trees of `2 * size` entries each (1-based heap layout; leaves from `size`).
    data: Vec<i64>,
}

impl FreeTree {
    fn new(nodes: usize, dims: usize) -> Self {
        let size = nodes.max(1).next_power_of_two();
        FreeTree {
            size,
            dims,
            data: vec![i64::MIN; dims * 2 * size],
        }
    }

    fn set(&mut self, node: usize, dim: usize, value: i64) {
        let base = dim * 2 * self.size;
        let mut i = self.size + node;
        self.data[base + i] = value;
        while i > 1 {
            i /= 2;
            self.data[base + i] = self.data[base + 2 * i].max(self.data[base + 2 * i + 1]);
        }
    }

    fn rebuild(&mut self) {
        for d in 0..self.dims {
            let base = d * 2 * self.size;
            for i in (1..self.size).rev() {
                self.data[base + i] = self.data[base + 2 * i].max(self.data[base + 2 * i + 1]);
            }
        }
    }

    fn covers(&self, heap: usize, need: &[(usize, i64)]) -> bool {
        need.iter()
            .all(|&(d, n)| self.data[d * 2 * self.size + heap] >= n)
    }

    /// The first node at or after `from` whose leaf meets every `(dimension, amount)` of
    /// `need`.
    fn first_at_least(&self, from: usize, need: &[(usize, i64)]) -> Option<usize> {
        self.search(1, 0, self.size, from, need)
    }

    fn search(
        &self,
        heap: usize,
        lo: usize,
        hi: usize,
        from: usize,
        need: &[(usize, i64)],
    ) -> Option<usize> {
        if hi <= from || !self.covers(heap, need) {
            return None;
        }
        if hi - lo == 1 {
            return Some(lo);
        }
        let mid = lo + (hi - lo) / 2;
        self.search(2 * heap, lo, mid, from, need)
            .or_else(|| self.search(2 * heap + 1, mid, hi, from, need))
    }
}

/// Index of a snapshot for repeated fits: per node, the allocatable and the summed requests
/// of its bound pods as dense rows (cpu, memory, ephemeral storage, then every scalar
/// resource of the snapshot, names interned once); per bound pod, its requests and priority;
/// a max-tree of the free amounts that finds the first node a pod may fit without visiting
/// the full ones.
///
/// Built once in O(nodes + pods); each [`NodeUsage::fit`] or [`NodeUsage::verdicts`] is then
/// O(nodes), [`NodeUsage::first_fit`] usually much less. Pods can be added to a node
/// ([`NodeUsage::add_pod`]) and removed ([`NodeUsage::remove_pod`]) in O(log nodes), so a
/// what-if that places many pods keeps one index. Indices refer to the snapshot the index was
/// built from: use it with that snapshot only.
#[derive(Debug, Clone)]
pub struct NodeUsage {
    /// Options the index was built with.
    pub options: FitOptions,
    /// Per node, in snapshot order.
    pub nodes: Vec<NodeState>,
    by_name: HashMap<String, usize>,
    /// Pods bound to a node the snapshot does not hold (index into `ClusterSnapshot::pods`).
    pub orphan_pods: Vec<usize>,
    /// Scalar resource names, slot `FIXED_SLOTS + i` holding `scalar_names[i]`.
    scalar_names: Vec<ResourceName>,
    scalar_slots: HashMap<ResourceName, usize>,
    /// Slots per node row.
    width: usize,
    /// `nodes.len() * width`: allocatable per node.
    alloc: Vec<i64>,
    /// `nodes.len() * width`: summed requests of the bound pods per node.
    used: Vec<i64>,
    /// Per pod (snapshot pods, then added pods): its requests when it is bound to (or
    /// nominated to) a node of the index and not terminal.
    reqs: Vec<Option<PodReq>>,
    arena: Vec<(u32, i64)>,
    /// Per pod: its priority (0 for pods without requests entry).
    priorities: Vec<i32>,
    /// Per pod: the position of the node it is bound to (`u32::MAX`: none).
    node_of: Vec<u32>,
    /// `snapshot.pods.len()` at build time.
    base_pods: usize,
    /// Pods added after the build.
    added: Vec<Pod>,
    /// Free amounts per node and slot, plus the free pod count.
    free: FreeTree,
    /// Bumped by every change of usage.
    generation: u64,
    /// Indices of the pods nominated to a node of the index.
    nominated_pods: Vec<usize>,
}

/// A pod compiled for repeated checks against one [`NodeUsage`]: its requests in the index's
/// dense slots, its priority and the facts the filters read, so that each node's verdict costs
/// a few comparisons and no allocation.
#[derive(Debug, Clone)]
pub struct PodDemand<'p> {
    pod: &'p Pod,
    /// The pod's requests as the scheduler counts them.
    requests: SchedResources,
    /// cpu, memory, ephemeral storage.
    fixed: [i64; FIXED_SLOTS],
    /// The scalar requests NodeResourcesFit checks (non-zero, not ignored), in name order:
    /// name, dense slot (`None`: no node of the index has it), amount.
    scalars: Vec<(ResourceName, Option<usize>, i64)>,
    priority: i32,
    tolerates_unschedulable: bool,
    selects_nodes: bool,
    /// NodeAffinity's PreFilter result: the positions (sorted) of the only nodes the filters
    /// run on; `None` = every node.
    prefilter_nodes: Option<Vec<usize>>,
}

impl PodDemand<'_> {
    /// The pod's requests as the scheduler counts them.
    pub fn requests(&self) -> &SchedResources {
        &self.requests
    }
    /// The pod's priority (as [`crate::preemption::pod_priority`]).
    pub fn priority(&self) -> i32 {
        self.priority
    }
    /// The pod.
    pub fn pod(&self) -> &Pod {
        self.pod
    }

    /// The reason text of resource bit `bit` of a [`NodeVerdict`].
    fn resource_reason(&self, bit: usize) -> Cow<'static, str> {
        match bit {
            0 => Cow::Borrowed(REASON_TOO_MANY_PODS),
            1 => Cow::Borrowed("Insufficient cpu"),
            2 => Cow::Borrowed("Insufficient memory"),
            3 => Cow::Borrowed("Insufficient ephemeral-storage"),
            b => Cow::Owned(format!(
                "Insufficient {}",
                self.scalars.get(b - 4).map(|s| s.0.as_str()).unwrap_or("")
            )),
        }
    }

    /// True when NodeAffinity's PreFilter result leaves the node at `position` out.
    fn prefiltered_out(&self, position: usize) -> bool {
        self.prefilter_nodes
            .as_ref()
            .is_some_and(|p| p.binary_search(&position).is_err())
    }

    /// The reasons the scheduler reports for a node with `verdict` (those of the first failing
    /// plugin), as [`NodeFit::reasons`].
    pub fn reasons(&self, verdict: &NodeVerdict) -> Vec<String> {
        match verdict.plugin {
            None => Vec::new(),
            Some(FilterPlugin::NodeAffinity) if verdict.failed_static & 8 != 0 => {
                vec![REASON_PREFILTER_NODE_AFFINITY.to_owned()]
            }
            Some(FilterPlugin::NodeUnschedulable) => vec![REASON_UNSCHEDULABLE.to_owned()],
            Some(FilterPlugin::TaintToleration) => vec![REASON_UNTOLERATED_TAINT.to_owned()],
            Some(FilterPlugin::NodeAffinity) => vec![REASON_NODE_AFFINITY.to_owned()],
            Some(FilterPlugin::NodeResourcesFit) => verdict
                .insufficient_bits()
                .map(|b| self.resource_reason(b).into_owned())
                .collect(),
            // (the session's filters carry their own texts, see `crate::podfilters`)
            Some(_) => Vec::new(),
        }
    }
}

/// One node's filter outcome without its texts: what [`NodeFit`] says, in 24 bytes and no
/// allocation. [`PodDemand::reasons`] gives the reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct NodeVerdict {
    /// The scheduler's status code for this node.
    pub code: FitCode,
    /// The first failing plugin, `None` when the pod fits.
    pub plugin: Option<FilterPlugin>,
    /// One bit per failing static plugin (NodeUnschedulable, TaintToleration, NodeAffinity),
    /// bit 3 when NodeAffinity's PreFilter result left the node out.
    failed_static: u8,
    /// NodeResourcesFit shortfalls: bit 0 pods, 1 cpu, 2 memory, 3 ephemeral storage, 4 + k
    /// the k-th checked scalar request of the demand.
    insufficient: u64,
}

impl NodeVerdict {
    /// True when the pod fits this node.
    pub fn fits(&self) -> bool {
        self.code == FitCode::Fits
    }
    /// True when `plugin` fails on this node (also when an earlier plugin already failed).
    pub fn failed(&self, plugin: FilterPlugin) -> bool {
        match plugin {
            FilterPlugin::NodeUnschedulable => self.failed_static & 1 != 0,
            FilterPlugin::TaintToleration => self.failed_static & 2 != 0,
            FilterPlugin::NodeAffinity => self.failed_static & 4 != 0,
            FilterPlugin::NodeResourcesFit => self.insufficient != 0,
            // (evaluated by the session, never in a verdict)
            FilterPlugin::NodePorts
            | FilterPlugin::VolumeBinding
            | FilterPlugin::VolumeZone
            | FilterPlugin::PodTopologySpread
            | FilterPlugin::InterPodAffinity => false,
        }
    }
    fn insufficient_bits(&self) -> impl Iterator<Item = usize> + '_ {
        (0..64).filter(|b| self.insufficient & (1u64 << b) != 0)
    }
}

/// The verdicts of one pod over every node of an index, in node order, with the histogram and
/// message of a FailedScheduling event computed from them (no per-node text).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FitVerdicts<'p> {
    /// The pod, compiled against the index.
    pub demand: PodDemand<'p>,
    /// One verdict per node of the index, in snapshot order.
    pub nodes: Vec<NodeVerdict>,
}

impl FitVerdicts<'_> {
    /// True when at least one node fits.
    pub fn schedulable(&self) -> bool {
        self.nodes.iter().any(NodeVerdict::fits)
    }

    /// Positions (in [`NodeUsage::nodes`]) of the nodes that fit.
    pub fn feasible(&self) -> impl Iterator<Item = usize> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, v)| v.fits())
            .map(|(i, _)| i)
    }

    /// The reason histogram, as [`FitReport::histogram`].
    pub fn histogram(&self) -> BTreeMap<String, usize> {
        let mut statics = [0usize; 4];
        let mut resources = vec![0usize; 4 + self.demand.scalars.len()];
        for v in &self.nodes {
            match v.plugin {
                None => {}
                Some(FilterPlugin::NodeUnschedulable) => statics[0] += 1,
                Some(FilterPlugin::TaintToleration) => statics[1] += 1,
                Some(FilterPlugin::NodeAffinity) if v.failed_static & 8 != 0 => statics[3] += 1,
                Some(FilterPlugin::NodeAffinity) => statics[2] += 1,
                Some(FilterPlugin::NodeResourcesFit) => {
                    for b in v.insufficient_bits() {
                        if let Some(c) = resources.get_mut(b) {
                            *c += 1;
                        }
                    }
                }
                Some(_) => {}
            }
        }
        let mut h = BTreeMap::new();
        for (reason, n) in [
            REASON_UNSCHEDULABLE,
            REASON_UNTOLERATED_TAINT,
            REASON_NODE_AFFINITY,
            REASON_PREFILTER_NODE_AFFINITY,
        ]
        .into_iter()
        .zip(statics)
        {
            if n > 0 {
                *h.entry(reason.to_owned()).or_insert(0) += n;
            }
        }
        for (b, &n) in resources.iter().enumerate() {
            if n > 0 {
                *h.entry(self.demand.resource_reason(b).into_owned())
                    .or_insert(0) += n;
            }
        }
        h
    }

    /// As [`FitReport::filter_message`].
    pub fn filter_message(&self) -> Option<String> {
        if self.schedulable() {
            return None;
        }
        if self.nodes.is_empty() {
            return Some("no nodes available to schedule pods".to_owned());
        }
        Some(fit_error_message(self.nodes.len(), &self.histogram()))
    }
}

/// NodeAffinity's PreFilter result (kubernetes/kubernetes
/// `pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go` `PreFilter`): when every
/// required node-affinity term has a `matchFields` requirement `metadata.name In [...]`, the
/// union over the terms of each term's intersection of those names; `None` (every node) when
/// some term names no node that way, or when the union is empty (then the NodeAffinity filter
/// refuses every node on its own).
fn node_affinity_prefilter(pod: &Pod) -> Option<BTreeSet<&str>> {
    let terms = &pod
        .spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()?
        .node_selector_terms;
    let mut union: BTreeSet<&str> = BTreeSet::new();
    for t in terms {
        let mut term: Option<BTreeSet<&str>> = None;
        for r in &t.match_fields {
            if r.key == "metadata.name" && r.operator == "In" {
                let names: BTreeSet<&str> = r.values.iter().map(String::as_str).collect();
                term = Some(match term {
                    None => names,
                    Some(prev) => prev.intersection(&names).copied().collect(),
                });
            }
        }
        union.extend(term?);
    }
    (!union.is_empty()).then_some(union)
}

/// The pod's requests as the scheduler counts them, on the pod as the API server stores it
/// (a missing request defaulted from the limit): cpu/memory/ephemeral storage returned and each
/// scalar resource passed to `scalar` (in name order), without building a `ResourceList` for a
/// pod with app containers only, no pod-level resources and at most 8 resource names (the
/// common case); the same numbers as [`SchedResources::from_list`] of
/// [`effective_pod_requests`].
fn request_parts(
    pod: &Pod,
    options: &FitOptions,
    mut scalar: impl FnMut(&ResourceName, i64),
) -> [i64; FIXED_SLOTS] {
    const N: usize = 8;
    let ro = &options.resources;
    let fast = !ro.use_status_resources
        && pod.spec.init_containers.is_empty()
        && (ro.skip_pod_level_resources || pod.spec.resources.is_none());
    if fast {
        let mut names: [Option<&ResourceName>; N] = [None; N];
        let mut sums: [Quantity; N] = std::array::from_fn(|_| Quantity::ZERO);
        let mut len = 0usize;
        let mut ok = true;
        let overhead = if ro.exclude_overhead {
            None
        } else {
            pod.spec.overhead.as_ref()
        };
        // each container's requests, then its limits without a request (API defaulting copies
        // them), then the overhead
        let entries = pod
            .spec
            .containers
            .iter()
            .flat_map(|c| {
                let r = &c.resources;
                r.requests.iter().chain(
                    r.limits
                        .iter()
                        .filter(|(k, _)| !r.requests.contains(k.as_str())),
                )
            })
            .chain(overhead.into_iter().flat_map(|o| o.iter()));
        'outer: {
            for (name, q) in entries {
                match names[..len].iter().position(|n| *n == Some(name)) {
                    Some(i) => match sums[i].checked_add(q) {
                        Some(s) => sums[i] = s,
                        None => {
                            ok = false;
                            break 'outer;
                        }
                    },
                    None if len < N => {
                        names[len] = Some(name);
                        sums[len] = q.clone();
                        len += 1;
                    }
                    None => {
                        ok = false;
                        break 'outer;
                    }
                }
            }
        }
        if ok {
            let mut order: [usize; N] = std::array::from_fn(|i| i);
            order[..len].sort_unstable_by(|&a, &b| names[a].cmp(&names[b]));
            let mut fixed = [0i64; FIXED_SLOTS];
            for &i in &order[..len] {
                let (Some(name), q) = (names[i], &sums[i]) else {
                    continue;
                };
                convert_entry(name, q, &mut fixed, &mut scalar);
            }
            return fixed;
        }
    }
    let list = effective_pod_requests(pod, ro);
    let mut fixed = [0i64; FIXED_SLOTS];
    for (name, q) in &list {
        convert_entry(name, q, &mut fixed, &mut scalar);
    }
    fixed
}

/// One entry of [`SchedResources::from_list`].
fn convert_entry(
    name: &ResourceName,
    q: &Quantity,
    fixed: &mut [i64; FIXED_SLOTS],
    scalar: &mut impl FnMut(&ResourceName, i64),
) {
    match name.as_str() {
        "cpu" => fixed[SLOT_CPU] = fixed[SLOT_CPU].saturating_add(q.milli_value()),
        "memory" => fixed[SLOT_MEMORY] = fixed[SLOT_MEMORY].saturating_add(q.value()),
        "ephemeral-storage" => {
            fixed[SLOT_EPHEMERAL] = fixed[SLOT_EPHEMERAL].saturating_add(q.value())
        }
        n if is_scalar_resource_name(n) => scalar(name, q.value()),
        _ => {}
    }
}

impl NodeUsage {
    /// Builds the index of `snapshot` (on as many threads as the machine has cores, from
    /// `PARALLEL_PODS` (20,000) pods on; the index is the same on any number of threads).
    pub fn build(snapshot: &ClusterSnapshot, options: &FitOptions) -> Self {
        let threads = if snapshot.pods.len() < PARALLEL_PODS {
            1
        } else {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        };
        Self::build_in(snapshot, options, threads)
    }

    /// [`NodeUsage::build`] reading the pods in `threads` runs, each on a thread of its own.
    fn build_in(snapshot: &ClusterSnapshot, options: &FitOptions, threads: usize) -> Self {
        let mut usage = NodeUsage {
            options: options.clone(),
            nodes: Vec::with_capacity(snapshot.nodes.len()),
            by_name: HashMap::with_capacity(snapshot.nodes.len()),
            orphan_pods: Vec::new(),
            scalar_names: Vec::new(),
            scalar_slots: HashMap::new(),
            width: FIXED_SLOTS,
            alloc: Vec::new(),
            used: Vec::new(),
            reqs: vec![None; snapshot.pods.len()],
            arena: Vec::new(),
            priorities: vec![0; snapshot.pods.len()],
            node_of: vec![u32::MAX; snapshot.pods.len()],
            base_pods: snapshot.pods.len(),
            added: Vec::new(),
            free: FreeTree::default(),
            generation: 0,
            nominated_pods: Vec::new(),
        };
        // Nodes: names, taints, and the scalar names of their allocatable.
        let mut alloc_lists = Vec::with_capacity(snapshot.nodes.len());
        for (index, node) in snapshot.nodes.iter().enumerate() {
            let alloc_list = if node.status.allocatable.is_empty() {
                &node.status.capacity
            } else {
                &node.status.allocatable
            };
            let allowed_pods = alloc_list.get("pods").map(|q| q.value()).unwrap_or(0);
            // First node of a name wins; duplicates are a snapshot problem reported elsewhere.
            usage
                .by_name
                .entry(node.metadata.name.clone())
                .or_insert(usage.nodes.len());
            for name in alloc_list.names() {
                if is_scalar_resource_name(name.as_str()) {
                    usage.slot_of(name);
                }
            }
            alloc_lists.push(alloc_list);
            usage.nodes.push(NodeState {
                index,
                name: node.metadata.name.clone(),
                allowed_pods,
                pods: Vec::new(),
                nominated: Vec::new(),
                taints: effective_taints(node, options.condition_taints),
            });
        }
        // Pods: requests of the bound and nominated ones (interning their scalar names), in
        // consecutive runs of pods on as many threads as the machine has cores (the pass is
        // bound by memory latency); the runs are then joined in pod order, so slots, arena and
        // lists are those of one pass over all pods.
        let runs = pod_runs(snapshot.pods.len(), threads);
        let mut passes: Vec<PodPass> = {
            let (by_name, options) = (&usage.by_name, &usage.options);
            let mut rest = (
                &mut usage.reqs[..],
                &mut usage.priorities[..],
                &mut usage.node_of[..],
            );
            let mut slices = Vec::with_capacity(runs.len());
            for run in &runs {
                let (reqs, more_reqs) = std::mem::take(&mut rest.0).split_at_mut(run.len());
                let (prios, more_prios) = std::mem::take(&mut rest.1).split_at_mut(run.len());
                let (node_of, more_node_of) = std::mem::take(&mut rest.2).split_at_mut(run.len());
                rest = (more_reqs, more_prios, more_node_of);
                slices.push((run.clone(), reqs, prios, node_of));
            }
            let pass = move |(run, reqs, prios, node_of): RunSlices<'_>| {
                PodPass::run(snapshot, by_name, options, run, reqs, prios, node_of)
            };
            if slices.len() < 2 {
                slices.into_iter().map(pass).collect()
            } else {
                std::thread::scope(|scope| {
                    let mut slices = slices.into_iter();
                    let first = slices.next();
                    let spawned: Vec<_> = slices
                        .map(|slice| {
                            std::thread::Builder::new()
                                .name("cube-index".to_owned())
                                .spawn_scoped(scope, move || pass(slice))
                        })
                        .collect();
                    let mut done: Vec<PodPass> = first.map(pass).into_iter().collect();
                    for handle in spawned {
                        // a thread that could not start or did not finish: its run on this one
                        match handle.map(|h| h.join()) {
                            Ok(Ok(p)) => done.push(p),
                            _ => done.push(PodPass::failed()),
                        }
                    }
                    done
                })
            }
        };
        if passes.iter().any(|p| p.failed) {
            // (a thread could not run: the whole pass again on this thread)
            let all = 0..snapshot.pods.len();
            passes = vec![PodPass::run(
                snapshot,
                &usage.by_name,
                &usage.options,
                all,
                &mut usage.reqs,
                &mut usage.priorities,
                &mut usage.node_of,
            )];
        }
        for pass in passes {
            // each run's scalar names interned in its order, its arena entries renumbered
            let slots: Vec<u32> = pass
                .names
                .iter()
                .map(|name| usage.slot_of(name) as u32)
                .collect();
            let shift = u32::try_from(usage.arena.len()).unwrap_or(u32::MAX);
            usage.arena.extend(
                pass.arena
                    .iter()
                    .map(|&(slot, v)| (slots[slot as usize - FIXED_SLOTS], v)),
            );
            if shift > 0 {
                for req in usage.reqs[pass.run].iter_mut().flatten() {
                    req.start += shift;
                }
            }
            for (i, n) in pass.nominated {
                usage.nodes[n].nominated.push(i);
                usage.nominated_pods.push(i);
            }
            usage.orphan_pods.extend(pass.orphans);
        }
        // Each node's pods in snapshot order, every list allocated once at its size.
        let mut counts = vec![0u32; usage.nodes.len()];
        for &n in &usage.node_of {
            if let Some(c) = counts.get_mut(n as usize) {
                *c += 1;
            }
        }
        for (state, &c) in usage.nodes.iter_mut().zip(&counts) {
            state.pods.reserve_exact(c as usize);
        }
        for (i, &n) in usage.node_of.iter().enumerate() {
            if let Some(state) = usage.nodes.get_mut(n as usize) {
                state.pods.push(i);
            }
        }
        // Dense rows.
        usage.width = FIXED_SLOTS + usage.scalar_names.len();
        let width = usage.width;
        usage.alloc = vec![0; usage.nodes.len() * width];
        usage.used = vec![0; usage.nodes.len() * width];
        for (n, list) in alloc_lists.iter().enumerate() {
            let row = &mut usage.alloc[n * width..(n + 1) * width];
            for (name, q) in list.iter() {
                match name.as_str() {
                    "cpu" => row[SLOT_CPU] = row[SLOT_CPU].saturating_add(q.milli_value()),
                    "memory" => row[SLOT_MEMORY] = row[SLOT_MEMORY].saturating_add(q.value()),
                    "ephemeral-storage" => {
                        row[SLOT_EPHEMERAL] = row[SLOT_EPHEMERAL].saturating_add(q.value())
                    }
                    s if is_scalar_resource_name(s) => {
                        if let Some(&slot) = usage.scalar_slots.get(s) {
                            row[slot] = row[slot].saturating_add(q.value());
                        }
                    }
                    _ => {}
                }
            }
        }
        for (i, &n) in usage.node_of.iter().enumerate() {
            if n == u32::MAX {
                continue;
            }
            let n = n as usize;
            if let Some(req) = usage.reqs[i] {
                let row = &mut usage.used[n * width..(n + 1) * width];
                add_req(row, &req, &usage.arena, 1);
            }
        }
        usage.free = FreeTree::new(usage.nodes.len(), width + 1);
        for n in 0..usage.nodes.len() {
            usage.write_free_leaf(n);
        }
        usage.free.rebuild();
        usage
    }

    /// The dense slot of scalar resource `name`, interning it.
    fn slot_of(&mut self, name: &ResourceName) -> usize {
        intern(&mut self.scalar_names, &mut self.scalar_slots, name)
    }

    /// A pod's requests in dense form, interning new scalar names (call [`Self::widen`]
    /// afterwards when rows exist already).
    fn compile_requests(&mut self, pod: &Pod) -> PodReq {
        let start = self.arena.len();
        let (names, slots, arena) = (
            &mut self.scalar_names,
            &mut self.scalar_slots,
            &mut self.arena,
        );
        // Names are unique in a request list: a slot appears once per pod.
        let fixed = request_parts(pod, &self.options, |name, v| {
            arena.push((intern(names, slots, name) as u32, v));
        });
        PodReq {
            fixed,
            start: start as u32,
            len: (self.arena.len() - start) as u32,
        }
    }

    /// Re-lays the dense rows out after new scalar names were interned.
    fn widen(&mut self) {
        let new_width = FIXED_SLOTS + self.scalar_names.len();
        if new_width == self.width {
            return;
        }
        let old = self.width;
        let relay = |rows: &[i64]| -> Vec<i64> {
            let mut out = vec![0; (rows.len() / old.max(1)) * new_width];
            for (n, row) in rows.chunks(old).enumerate() {
                out[n * new_width..n * new_width + old].copy_from_slice(row);
            }
            out
        };
        self.alloc = relay(&self.alloc);
        self.used = relay(&self.used);
        self.width = new_width;
        self.free = FreeTree::new(self.nodes.len(), new_width + 1);
        for n in 0..self.nodes.len() {
            self.write_free_leaf(n);
        }
        self.free.rebuild();
    }

    fn write_free_leaf(&mut self, n: usize) {
        let w = self.width;
        for s in 0..w {
            let free = self.alloc[n * w + s].saturating_sub(self.used[n * w + s]);
            let base = s * 2 * self.free.size;
            self.free.data[base + self.free.size + n] = free;
        }
        let pods = i64::try_from(self.nodes[n].pods.len()).unwrap_or(i64::MAX);
        let base = w * 2 * self.free.size;
        self.free.data[base + self.free.size + n] = self.nodes[n].allowed_pods.saturating_sub(pods);
    }

    fn update_free(&mut self, n: usize) {
        let w = self.width;
        for s in 0..w {
            let free = self.alloc[n * w + s].saturating_sub(self.used[n * w + s]);
            self.free.set(n, s, free);
        }
        let pods = i64::try_from(self.nodes[n].pods.len()).unwrap_or(i64::MAX);
        self.free
            .set(n, w, self.nodes[n].allowed_pods.saturating_sub(pods));
    }

    /// The state of node `name`.
    pub fn node(&self, name: &str) -> Option<&NodeState> {
        self.by_name.get(name).map(|&i| &self.nodes[i])
    }

    /// The position of node `name` in [`NodeUsage::nodes`].
    pub fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// A pod of the index: `snapshot.pods[index]`, or a pod added with
    /// [`NodeUsage::add_pod`].
    pub fn pod<'a>(&'a self, snapshot: &'a ClusterSnapshot, index: usize) -> Option<&'a Pod> {
        if index < self.base_pods {
            snapshot.pods.get(index)
        } else {
            self.added.get(index - self.base_pods)
        }
    }

    /// The priority of pod `index` as the index computed it (bound and nominated pods).
    pub fn pod_priority(&self, index: usize) -> Option<i32> {
        self.reqs
            .get(index)
            .and_then(|r| r.as_ref())
            .map(|_| self.priorities[index])
    }

    /// The requests of pod `index` as the scheduler counts them, when it is bound (or
    /// nominated) to a node of the index and not terminal.
    pub fn pod_requests(&self, index: usize) -> Option<SchedResources> {
        let req = self.reqs.get(index).copied().flatten()?;
        Some(self.req_to_resources(&req))
    }

    fn req_to_resources(&self, req: &PodReq) -> SchedResources {
        let mut r = SchedResources {
            milli_cpu: req.fixed[SLOT_CPU],
            memory: req.fixed[SLOT_MEMORY],
            ephemeral_storage: req.fixed[SLOT_EPHEMERAL],
            scalar: BTreeMap::new(),
        };
        for &(slot, v) in self.scalars_of(req) {
            let name = self.scalar_names[slot as usize - FIXED_SLOTS].clone();
            r.scalar.insert(name, v);
        }
        r
    }

    fn scalars_of(&self, req: &PodReq) -> &[(u32, i64)] {
        &self.arena[req.start as usize..(req.start + req.len) as usize]
    }

    fn row_resources(&self, row: &[i64], keep_zero: bool) -> SchedResources {
        let mut r = SchedResources {
            milli_cpu: row[SLOT_CPU],
            memory: row[SLOT_MEMORY],
            ephemeral_storage: row[SLOT_EPHEMERAL],
            scalar: BTreeMap::new(),
        };
        for (i, name) in self.scalar_names.iter().enumerate() {
            let v = row[FIXED_SLOTS + i];
            if keep_zero || v != 0 {
                r.scalar.insert(name.clone(), v);
            }
        }
        r
    }

    /// Allocatable of the node at `position` (capacity when the node has no allocatable), as
    /// the scheduler counts it.
    pub fn allocatable(&self, position: usize) -> SchedResources {
        let w = self.width;
        self.row_resources(&self.alloc[position * w..(position + 1) * w], false)
    }

    /// Summed requests of the non-terminal pods bound to the node at `position`.
    pub fn requested(&self, position: usize) -> SchedResources {
        let w = self.width;
        self.row_resources(&self.used[position * w..(position + 1) * w], false)
    }

    /// Allocatable and requested amount of `name` on the node at `position`, in the units of
    /// [`SchedResources`] (0 when absent).
    pub fn amounts(&self, position: usize, name: &str) -> (i64, i64) {
        let slot = match name {
            "cpu" => Some(SLOT_CPU),
            "memory" => Some(SLOT_MEMORY),
            "ephemeral-storage" => Some(SLOT_EPHEMERAL),
            n => self.scalar_slots.get(n).copied(),
        };
        match slot {
            Some(s) => (
                self.alloc[position * self.width + s],
                self.used[position * self.width + s],
            ),
            None => (0, 0),
        }
    }

    /// Incremented by every [`NodeUsage::add_pod`] and [`NodeUsage::remove_pod`]: answers
    /// computed at one generation stay valid while it does not change.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// True when a pod nominated to a node of the index is `namespace/name` (such a pod is
    /// left out of its own nominated accounting).
    pub fn is_nominated(&self, snapshot: &ClusterSnapshot, namespace: &str, name: &str) -> bool {
        self.nominated_pods.iter().any(|&i| {
            snapshot
                .pods
                .get(i)
                .is_some_and(|p| p.metadata.namespace == namespace && p.metadata.name == name)
        })
    }

    /// Binds `pod` to the node at `position` as the scheduler's cache does once it assumes a
    /// pod: its requests count against that node from now on. Returns the pod's index
    /// (`snapshot.pods.len()` and up), `None` for an unknown position or a terminal pod.
    pub fn add_pod(
        &mut self,
        snapshot: &ClusterSnapshot,
        pod: &Pod,
        position: usize,
    ) -> Option<usize> {
        if position >= self.nodes.len() || pod.is_terminal() {
            return None;
        }
        let req = self.compile_requests(pod);
        self.widen();
        let index = self.base_pods + self.added.len();
        let mut bound = pod.clone();
        bound.spec.node_name = self.nodes[position].name.clone();
        self.added.push(bound);
        self.reqs.push(Some(req));
        self.priorities.push(crate::preemption::pod_priority(
            pod,
            &snapshot.priority_classes,
        ));
        self.nodes[position].pods.push(index);
        self.node_of.push(position as u32);
        let w = self.width;
        add_req(
            &mut self.used[position * w..(position + 1) * w],
            &req,
            &self.arena,
            1,
        );
        self.update_free(position);
        self.generation += 1;
        Some(index)
    }

    /// Removes pod `index` from the node it is bound to (a pod deleted, or evicted by
    /// preemption): its requests stop counting. Returns false when it is not bound to a node
    /// of the index.
    pub fn remove_pod(&mut self, index: usize) -> bool {
        let Some(req) = self.reqs.get(index).copied().flatten() else {
            return false;
        };
        let position = match self.node_of.get(index) {
            Some(&p) if p != u32::MAX => p as usize,
            _ => return false,
        };
        self.node_of[index] = u32::MAX;
        self.nodes[position].pods.retain(|&i| i != index);
        let w = self.width;
        add_req(
            &mut self.used[position * w..(position + 1) * w],
            &req,
            &self.arena,
            -1,
        );
        self.reqs[index] = None;
        self.update_free(position);
        self.generation += 1;
        true
    }

    /// Compiles `pod` for checks against this index (its requests, priority and the facts
    /// the filters read).
    pub fn demand<'p>(&self, snapshot: &ClusterSnapshot, pod: &'p Pod) -> PodDemand<'p> {
        let mut requests = SchedResources::default();
        let fixed = request_parts(pod, &self.options, |name, v| {
            let e = match requests.scalar.get_mut(name.as_str()) {
                Some(e) => e,
                None => requests.scalar.entry(name.clone()).or_insert(0),
            };
            *e = e.saturating_add(v);
        });
        requests.milli_cpu = fixed[SLOT_CPU];
        requests.memory = fixed[SLOT_MEMORY];
        requests.ephemeral_storage = fixed[SLOT_EPHEMERAL];
        let mut scalars = Vec::new();
        for (name, &req) in &requests.scalar {
            if req == 0 || self.ignored(name.as_str()) {
                continue;
            }
            scalars.push((
                name.clone(),
                self.scalar_slots.get(name.as_str()).copied(),
                req,
            ));
        }
        let tolerates_unschedulable = tolerations_tolerate_taint(
            &pod.spec.tolerations,
            &Taint {
                key: TAINT_UNSCHEDULABLE.to_owned(),
                effect: "NoSchedule".to_owned(),
                ..Taint::default()
            },
        );
        let selects_nodes = !pod.spec.node_selector.is_empty()
            || pod
                .spec
                .affinity
                .as_ref()
                .and_then(|a| a.node_affinity.as_ref())
                .is_some_and(|na| {
                    na.required_during_scheduling_ignored_during_execution
                        .is_some()
                });
        let prefilter_nodes = node_affinity_prefilter(pod).map(|names| {
            let mut p: Vec<usize> = names.iter().filter_map(|n| self.position(n)).collect();
            p.sort_unstable();
            p
        });
        PodDemand {
            pod,
            requests,
            fixed,
            scalars,
            priority: crate::preemption::pod_priority(pod, &snapshot.priority_classes),
            tolerates_unschedulable,
            selects_nodes,
            prefilter_nodes,
        }
    }

    /// True when NodeResourcesFit ignores extended resource `name`
    /// (`ignoredResources`, `ignoredResourceGroups`).
    fn ignored(&self, name: &str) -> bool {
        is_extended_resource_name(name) && {
            let group = name.split('/').next().unwrap_or("");
            self.options.ignored_resources.contains(name)
                || self.options.ignored_resource_groups.contains(group)
        }
    }

    /// The node's used row plus the pods nominated to it with a priority at least the pod's
    /// (not the pod itself), written into `scratch`; the count of those pods. `None` (and
    /// `scratch` untouched) when none counts.
    fn nominated_into(
        &self,
        snapshot: &ClusterSnapshot,
        position: usize,
        demand: &PodDemand<'_>,
        base: &[i64],
        scratch: &mut Vec<i64>,
    ) -> Option<usize> {
        let state = &self.nodes[position];
        if state.nominated.is_empty() {
            return None;
        }
        let mut extra = 0;
        for &i in &state.nominated {
            let (Some(p), Some(Some(req))) = (snapshot.pods.get(i), self.reqs.get(i)) else {
                continue;
            };
            let same = p.metadata.namespace == demand.pod.metadata.namespace
                && p.metadata.name == demand.pod.metadata.name;
            if same || self.priorities[i] < demand.priority {
                continue;
            }
            if extra == 0 {
                scratch.clear();
                scratch.extend_from_slice(base);
            }
            add_req(scratch, req, &self.arena, 1);
            extra += 1;
        }
        (extra > 0).then_some(extra)
    }

    /// The verdict of the node at `position` given its usage row `used` and bound pod count
    /// (nominated pods not included): the allocation-free core of every filter.
    fn verdict_with(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
        position: usize,
        used: &[i64],
        pod_count: usize,
    ) -> NodeVerdict {
        if demand.prefiltered_out(position) {
            return NodeVerdict {
                code: FitCode::UnschedulableAndUnresolvable,
                plugin: Some(FilterPlugin::NodeAffinity),
                failed_static: 4 | 8,
                insufficient: 0,
            };
        }
        let state = &self.nodes[position];
        let pod = demand.pod;
        let mut failed_static = 0u8;
        let mut plugin = None;
        if let Some(node) = snapshot.nodes.get(state.index) {
            if node.spec.unschedulable && !demand.tolerates_unschedulable {
                failed_static |= 1;
                plugin.get_or_insert(FilterPlugin::NodeUnschedulable);
            }
            if state.taints.iter().any(|t| {
                (t.effect == "NoSchedule" || t.effect == "NoExecute")
                    && !tolerations_tolerate_taint(&pod.spec.tolerations, t)
            }) {
                failed_static |= 2;
                plugin.get_or_insert(FilterPlugin::TaintToleration);
            }
            if demand.selects_nodes && !pod_matches_node_selector_and_affinity(&pod.spec, node) {
                failed_static |= 4;
                plugin.get_or_insert(FilterPlugin::NodeAffinity);
            }
        }
        let w = self.width;
        let alloc = &self.alloc[position * w..(position + 1) * w];
        let mut bits = 0u64;
        let mut unresolvable = false;
        let count = i64::try_from(pod_count).unwrap_or(i64::MAX);
        if count.saturating_add(1) > state.allowed_pods {
            bits |= 1;
        }
        let mut check = |bit: u32, req: i64, used: i64, cap: i64| {
            if req > 0 && req > cap.saturating_sub(used) {
                bits |= 1u64 << bit;
                unresolvable |= req > cap;
            }
        };
        check(1, demand.fixed[SLOT_CPU], used[SLOT_CPU], alloc[SLOT_CPU]);
        check(
            2,
            demand.fixed[SLOT_MEMORY],
            used[SLOT_MEMORY],
            alloc[SLOT_MEMORY],
        );
        check(
            3,
            demand.fixed[SLOT_EPHEMERAL],
            used[SLOT_EPHEMERAL],
            alloc[SLOT_EPHEMERAL],
        );
        for (k, (_, slot, req)) in demand.scalars.iter().enumerate() {
            let (u, cap) = match slot {
                Some(s) if *s < w => (used[*s], alloc[*s]),
                _ => (0, 0),
            };
            check(4 + k as u32, *req, u, cap);
        }
        let code = match plugin {
            Some(_) => FitCode::UnschedulableAndUnresolvable,
            None if bits == 0 => FitCode::Fits,
            None => {
                plugin = Some(FilterPlugin::NodeResourcesFit);
                if unresolvable {
                    FitCode::UnschedulableAndUnresolvable
                } else {
                    FitCode::Unschedulable
                }
            }
        };
        NodeVerdict {
            code,
            plugin,
            failed_static,
            insufficient: bits,
        }
    }

    /// The verdict of the node at `position` with its current usage and the nominated pods
    /// that hold resources against `demand`.
    fn verdict_at(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
        position: usize,
        scratch: &mut Vec<i64>,
    ) -> NodeVerdict {
        let w = self.width;
        let used = &self.used[position * w..(position + 1) * w];
        let count = self.nodes[position].pods.len();
        match self.nominated_into(snapshot, position, demand, used, scratch) {
            Some(extra) => self.verdict_with(snapshot, demand, position, scratch, count + extra),
            None => self.verdict_with(snapshot, demand, position, used, count),
        }
    }

    /// The verdict of every node for `pod`: what [`NodeUsage::fit`] concludes, without any
    /// text or per-node allocation.
    ///
    /// As the scheduler's `RunFilterPluginsWithNominatedPods`, pods nominated to a node with a
    /// priority at least the pod's count against that node (the pod itself excepted).
    pub fn verdicts<'p>(&self, snapshot: &ClusterSnapshot, pod: &'p Pod) -> FitVerdicts<'p> {
        let demand = self.demand(snapshot, pod);
        let nodes = self.verdicts_of(snapshot, &demand);
        FitVerdicts { demand, nodes }
    }

    /// As [`NodeUsage::verdicts`] for an already compiled demand.
    pub fn verdicts_of(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
    ) -> Vec<NodeVerdict> {
        let mut scratch = Vec::new();
        if demand.scalars.len() > MAX_VERDICT_SCALARS {
            return (0..self.nodes.len())
                .map(|p| self.detailed_verdict(snapshot, demand, p))
                .collect();
        }
        (0..self.nodes.len())
            .map(|p| self.verdict_at(snapshot, demand, p, &mut scratch))
            .collect()
    }

    /// A verdict from the detailed path, for a pod with more scalar requests than the
    /// verdict's bits (never seen in practice).
    fn detailed_verdict(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
        position: usize,
    ) -> NodeVerdict {
        let w = self.width;
        let used = self.used[position * w..(position + 1) * w].to_vec();
        let mut scratch = Vec::new();
        let count = self.nodes[position].pods.len();
        let fit = match self.nominated_into(snapshot, position, demand, &used, &mut scratch) {
            Some(extra) => self.node_fit_with(snapshot, demand, position, &scratch, count + extra),
            None => self.node_fit_with(snapshot, demand, position, &used, count),
        };
        let mut failed_static = 0;
        for r in &fit.all_reasons {
            match r.as_str() {
                REASON_UNSCHEDULABLE => failed_static |= 1,
                REASON_UNTOLERATED_TAINT => failed_static |= 2,
                REASON_NODE_AFFINITY => failed_static |= 4,
                REASON_PREFILTER_NODE_AFFINITY => failed_static |= 4 | 8,
                _ => {}
            }
        }
        NodeVerdict {
            code: fit.code,
            plugin: fit.plugin,
            failed_static,
            insufficient: u64::from(!fit.insufficient.is_empty()),
        }
    }

    /// The position of the first node (in snapshot order, at or after position `from`) that
    /// `demand` fits, as the scheduler's filters decide; `None` when no node from there fits.
    ///
    /// Uses the max-tree of free amounts to skip nodes too full for the requests, so it costs
    /// much less than a full pass when few nodes have room (GPU nodes for a GPU pod).
    pub fn first_fit(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
        from: usize,
    ) -> Option<usize> {
        if let Some(only) = &demand.prefilter_nodes {
            // (the filters run on NodeAffinity's PreFilter result only)
            let mut scratch = Vec::new();
            return only.iter().copied().filter(|&p| p >= from).find(|&p| {
                if demand.scalars.len() > MAX_VERDICT_SCALARS {
                    self.detailed_verdict(snapshot, demand, p).fits()
                } else {
                    self.verdict_at(snapshot, demand, p, &mut scratch).fits()
                }
            });
        }
        if demand.scalars.len() > MAX_VERDICT_SCALARS {
            return (from..self.nodes.len())
                .find(|&p| self.detailed_verdict(snapshot, demand, p).fits());
        }
        // What each node must have free at least (GPUs and other scalars first: the most
        // selective dimensions prune most).
        let mut need: Vec<(usize, i64)> = Vec::with_capacity(demand.scalars.len() + 4);
        for (_, slot, req) in &demand.scalars {
            if *req > 0 {
                match slot {
                    Some(s) => need.push((*s, *req)),
                    // No node has it: nothing fits.
                    None => return None,
                }
            }
        }
        for s in [SLOT_CPU, SLOT_MEMORY, SLOT_EPHEMERAL] {
            if demand.fixed[s] > 0 {
                need.push((s, demand.fixed[s]));
            }
        }
        need.push((self.width, 1));
        let mut scratch = Vec::new();
        let mut at = from;
        while let Some(p) = self.free.first_at_least(at, &need) {
            if p >= self.nodes.len() {
                return None;
            }
            if self.verdict_at(snapshot, demand, p, &mut scratch).fits() {
                return Some(p);
            }
            at = p + 1;
        }
        None
    }

    /// Fits `pod` over every node of `snapshot` (the snapshot the index was built from), with
    /// every node's reasons and shortfalls (see [`NodeUsage::verdicts`] for the same answer
    /// without texts).
    ///
    /// As the scheduler's `RunFilterPluginsWithNominatedPods`, pods nominated to a node with a
    /// priority at least the pod's count against that node (the pod itself excepted).
    pub fn fit(&self, snapshot: &ClusterSnapshot, pod: &Pod) -> FitReport {
        let demand = self.demand(snapshot, pod);
        self.report(snapshot, &demand)
    }

    /// The full report for an already compiled demand.
    pub fn report(&self, snapshot: &ClusterSnapshot, demand: &PodDemand<'_>) -> FitReport {
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut scratch = Vec::new();
        let w = self.width;
        for (p, state) in self.nodes.iter().enumerate() {
            if snapshot.nodes.get(state.index).is_none() {
                continue;
            }
            let used = &self.used[p * w..(p + 1) * w];
            let count = state.pods.len();
            let fit = match self.nominated_into(snapshot, p, demand, used, &mut scratch) {
                Some(extra) => self.node_fit_with(snapshot, demand, p, &scratch, count + extra),
                None => self.node_fit_with(snapshot, demand, p, used, count),
            };
            nodes.push(fit);
        }
        let gpu = self.gpu_fragmentation(&nodes, &demand.requests);
        FitReport {
            pod: demand.pod.key(),
            requests: demand.requests.clone(),
            nodes,
            gpu,
            prefilter: None,
        }
    }

    /// Runs every filter for one node with the given usage row and pod count, with texts:
    /// the detailed counterpart of the verdicts.
    fn node_fit_with(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
        position: usize,
        used: &[i64],
        pod_count: usize,
    ) -> NodeFit {
        let state = &self.nodes[position];
        if demand.prefiltered_out(position) {
            return NodeFit {
                node: state.name.clone(),
                code: FitCode::UnschedulableAndUnresolvable,
                plugin: Some(FilterPlugin::NodeAffinity),
                reasons: vec![REASON_PREFILTER_NODE_AFFINITY.to_owned()],
                all_reasons: vec![REASON_PREFILTER_NODE_AFFINITY.to_owned()],
                insufficient: Vec::new(),
                untolerated_taints: Vec::new(),
            };
        }
        let pod = demand.pod;
        let mut all_reasons = Vec::new();
        let mut first: Option<(FilterPlugin, Vec<String>, FitCode)> = None;
        let mut record = |plugin: FilterPlugin, reasons: Vec<String>, code: FitCode| {
            all_reasons.extend(reasons.iter().cloned());
            if first.is_none() {
                first = Some((plugin, reasons, code));
            }
        };
        let node = snapshot.nodes.get(state.index);

        // NodeUnschedulable.
        if node.is_some_and(|n| n.spec.unschedulable) && !demand.tolerates_unschedulable {
            record(
                FilterPlugin::NodeUnschedulable,
                vec![REASON_UNSCHEDULABLE.to_owned()],
                FitCode::UnschedulableAndUnresolvable,
            );
        }

        // TaintToleration: NoSchedule and NoExecute only.
        let untolerated_taints: Vec<Taint> = state
            .taints
            .iter()
            .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
            .filter(|t| !tolerations_tolerate_taint(&pod.spec.tolerations, t))
            .cloned()
            .collect();
        if !untolerated_taints.is_empty() {
            record(
                FilterPlugin::TaintToleration,
                vec![REASON_UNTOLERATED_TAINT.to_owned()],
                FitCode::UnschedulableAndUnresolvable,
            );
        }

        // NodeAffinity.
        if node.is_some_and(|n| !pod_matches_node_selector_and_affinity(&pod.spec, n)) {
            record(
                FilterPlugin::NodeAffinity,
                vec![REASON_NODE_AFFINITY.to_owned()],
                FitCode::UnschedulableAndUnresolvable,
            );
        }

        // NodeResourcesFit.
        let insufficient = self.fits_request(demand, position, used, pod_count);
        if !insufficient.is_empty() {
            let code = if insufficient.iter().any(|i| i.unresolvable) {
                FitCode::UnschedulableAndUnresolvable
            } else {
                FitCode::Unschedulable
            };
            record(
                FilterPlugin::NodeResourcesFit,
                insufficient.iter().map(|i| i.reason.clone()).collect(),
                code,
            );
        }

        let (plugin, reasons, code) = match first {
            Some((p, r, c)) => (Some(p), r, c),
            None => (None, Vec::new(), FitCode::Fits),
        };
        NodeFit {
            node: state.name.clone(),
            code,
            plugin,
            reasons,
            all_reasons,
            insufficient,
            untolerated_taints,
        }
    }

    /// Upstream `fitsRequest`: pod count first, then cpu, memory, ephemeral storage, then
    /// each non-zero scalar request in name order (upstream iterates a Go map: order
    /// unspecified).
    fn fits_request(
        &self,
        demand: &PodDemand<'_>,
        position: usize,
        used: &[i64],
        pod_count: usize,
    ) -> Vec<InsufficientResource> {
        let state = &self.nodes[position];
        let w = self.width;
        let alloc = &self.alloc[position * w..(position + 1) * w];
        let mut out = Vec::new();
        let count = i64::try_from(pod_count).unwrap_or(i64::MAX);
        if count.saturating_add(1) > state.allowed_pods {
            out.push(InsufficientResource {
                resource: ResourceName::new("pods"),
                reason: REASON_TOO_MANY_PODS.to_owned(),
                requested: 1,
                used: count,
                capacity: state.allowed_pods,
                unresolvable: false,
            });
        }
        let mut check = |name: &str, req: i64, used: i64, cap: i64| {
            if req > 0 && req > cap.saturating_sub(used) {
                out.push(InsufficientResource {
                    resource: ResourceName::new(name),
                    reason: format!("Insufficient {name}"),
                    requested: req,
                    used,
                    capacity: cap,
                    unresolvable: req > cap,
                });
            }
        };
        for (name, s) in [
            ("cpu", SLOT_CPU),
            ("memory", SLOT_MEMORY),
            ("ephemeral-storage", SLOT_EPHEMERAL),
        ] {
            check(name, demand.fixed[s], used[s], alloc[s]);
        }
        for (name, slot, req) in &demand.scalars {
            let (u, cap) = match slot {
                Some(s) if *s < w => (used[*s], alloc[*s]),
                _ => (0, 0),
            };
            check(name.as_str(), *req, u, cap);
        }
        out
    }

    fn gpu_fragmentation(
        &self,
        fits: &[NodeFit],
        pod_req: &SchedResources,
    ) -> Vec<GpuFragmentation> {
        let mut out = Vec::new();
        for (name, &requested) in &pod_req.scalar {
            if requested <= 0 || !is_gpu_resource_name(name.as_str()) {
                continue;
            }
            let mut nodes = Vec::new();
            for (p, (state, fit)) in self.nodes.iter().zip(fits).enumerate() {
                let (allocatable, used) = self.amounts(p, name.as_str());
                if allocatable == 0 && used == 0 {
                    continue;
                }
                let free = allocatable.saturating_sub(used).max(0);
                let eligible = matches!(fit.plugin, None | Some(FilterPlugin::NodeResourcesFit));
                nodes.push(GpuNodeFree {
                    node: state.name.clone(),
                    allocatable,
                    used,
                    free,
                    eligible,
                    fits: eligible && free >= requested,
                });
            }
            let total_free = nodes
                .iter()
                .filter(|n| n.eligible)
                .fold(0i64, |a, n| a.saturating_add(n.free));
            let largest_free = nodes
                .iter()
                .filter(|n| n.eligible)
                .map(|n| n.free)
                .max()
                .unwrap_or(0);
            out.push(GpuFragmentation {
                resource: name.clone(),
                requested,
                nodes,
                total_free,
                largest_free,
                fragmented: total_free >= requested && largest_free < requested,
            });
        }
        out
    }

    // ------------------------------------------------------------ for preemption

    /// The usage row of the node at `position` (a copy to edit in what-if evaluations).
    pub(crate) fn used_row(&self, position: usize) -> Vec<i64> {
        let w = self.width;
        self.used[position * w..(position + 1) * w].to_vec()
    }

    /// Adds (`sign` 1) or subtracts (`sign` -1) the requests of pod `index` to `row`; false
    /// when the pod has no requests entry.
    pub(crate) fn apply_pod(&self, row: &mut [i64], index: usize, sign: i64) -> bool {
        match self.reqs.get(index).copied().flatten() {
            Some(req) => {
                add_req(row, &req, &self.arena, sign);
                true
            }
            None => false,
        }
    }

    /// The verdict of the node at `position` for a what-if usage (`used`, `pod_count` bound
    /// pods), with the nominated pods that hold resources against `demand`.
    pub(crate) fn verdict_for(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
        position: usize,
        used: &[i64],
        pod_count: usize,
        scratch: &mut Vec<i64>,
    ) -> NodeVerdict {
        if demand.scalars.len() > MAX_VERDICT_SCALARS {
            let fit = match self.nominated_into(snapshot, position, demand, used, scratch) {
                Some(extra) => {
                    let s = scratch.clone();
                    self.node_fit_with(snapshot, demand, position, &s, pod_count + extra)
                }
                None => self.node_fit_with(snapshot, demand, position, used, pod_count),
            };
            return NodeVerdict {
                code: fit.code,
                plugin: fit.plugin,
                failed_static: 0,
                insufficient: u64::from(!fit.insufficient.is_empty()),
            };
        }
        match self.nominated_into(snapshot, position, demand, used, scratch) {
            Some(extra) => {
                let s = std::mem::take(scratch);
                let v = self.verdict_with(snapshot, demand, position, &s, pod_count + extra);
                *scratch = s;
                v
            }
            None => self.verdict_with(snapshot, demand, position, used, pod_count),
        }
    }

    /// The reasons of the first failing plugin of the node at `position` for a what-if usage
    /// (as [`NodeFit::reasons`]).
    pub(crate) fn reasons_for(
        &self,
        snapshot: &ClusterSnapshot,
        demand: &PodDemand<'_>,
        position: usize,
        used: &[i64],
        pod_count: usize,
    ) -> Vec<String> {
        let mut scratch = Vec::new();
        match self.nominated_into(snapshot, position, demand, used, &mut scratch) {
            Some(extra) => {
                self.node_fit_with(snapshot, demand, position, &scratch, pod_count + extra)
                    .reasons
            }
            None => {
                self.node_fit_with(snapshot, demand, position, used, pod_count)
                    .reasons
            }
        }
    }
}

/// The dense slot of scalar resource `name` in a table of names, interning it.
fn intern(
    names: &mut Vec<ResourceName>,
    slots: &mut HashMap<ResourceName, usize>,
    name: &ResourceName,
) -> usize {
    if let Some(&s) = slots.get(name.as_str()) {
        return s;
    }
    let s = FIXED_SLOTS + names.len();
    names.push(name.clone());
    slots.insert(name.clone(), s);
    s
}

/// [`NodeUsage::build`] reads the pods on several threads from this many pods on.
const PARALLEL_PODS: usize = 20_000;

/// Consecutive runs of the pods' indices, one per thread (at most 8) the index build uses.
fn pod_runs(pods: usize, threads: usize) -> Vec<std::ops::Range<usize>> {
    let per = pods.div_ceil(threads.clamp(1, 8)).max(1);
    (0..pods)
        .step_by(per)
        .map(|start| start..(start + per).min(pods))
        .collect()
}

/// One run of pods and its entries of the index's per-pod vectors (requests, priorities,
/// nodes).
type RunSlices<'a> = (
    std::ops::Range<usize>,
    &'a mut [Option<PodReq>],
    &'a mut [i32],
    &'a mut [u32],
);

/// What the index build read of one run of pods ([`NodeUsage::build`]): each pod's requests,
/// priority and node were written to the run's slices; the scalar names are the run's own
/// (`FIXED_SLOTS + k` is `names[k]`).
struct PodPass {
    run: std::ops::Range<usize>,
    names: Vec<ResourceName>,
    arena: Vec<(u32, i64)>,
    /// `(pod, node)` of unbound pods nominated to a node, in pod order.
    nominated: Vec<(usize, usize)>,
    /// Pods bound to a node the snapshot does not have, in pod order.
    orphans: Vec<usize>,
    /// The run could not be read on its thread.
    failed: bool,
}

impl PodPass {
    fn failed() -> Self {
        PodPass {
            run: 0..0,
            names: Vec::new(),
            arena: Vec::new(),
            nominated: Vec::new(),
            orphans: Vec::new(),
            failed: true,
        }
    }

    /// Reads the pods of `run` (`reqs`, `prios` and `node_of` are their entries).
    fn run(
        snapshot: &ClusterSnapshot,
        by_name: &HashMap<String, usize>,
        options: &FitOptions,
        run: std::ops::Range<usize>,
        reqs: &mut [Option<PodReq>],
        prios: &mut [i32],
        node_of: &mut [u32],
    ) -> PodPass {
        let mut pass = PodPass {
            run: run.clone(),
            names: Vec::new(),
            arena: Vec::new(),
            nominated: Vec::new(),
            orphans: Vec::new(),
            failed: false,
        };
        let mut slots: HashMap<ResourceName, usize> = HashMap::new();
        let classes = &snapshot.priority_classes;
        let pods = &snapshot.pods[run.clone()];
        for (k, pod) in pods.iter().enumerate() {
            if let Some(ahead) = pods.get(k + TOUCH_AHEAD) {
                touch_pod(ahead);
            }
            if pod.is_terminal() {
                continue;
            }
            let i = run.start + k;
            let target = if pod.spec.node_name.is_empty() {
                match by_name.get(pod.status.nominated_node_name.as_str()) {
                    Some(&n) => {
                        pass.nominated.push((i, n));
                        None
                    }
                    None => continue,
                }
            } else {
                match by_name.get(pod.spec.node_name.as_str()) {
                    Some(&n) => Some(n),
                    None => {
                        pass.orphans.push(i);
                        None
                    }
                }
            };
            let start = pass.arena.len();
            let (names, arena) = (&mut pass.names, &mut pass.arena);
            // Names are unique in a request list: a slot appears once per pod.
            let fixed = request_parts(pod, options, |name, v| {
                arena.push((intern(names, &mut slots, name) as u32, v));
            });
            reqs[k] = Some(PodReq {
                fixed,
                start: start as u32,
                len: (pass.arena.len() - start) as u32,
            });
            prios[k] = crate::preemption::pod_priority(pod, classes);
            if let Some(n) = target {
                node_of[k] = n as u32;
            }
        }
        pass
    }
}

/// How many pods ahead [`touch_pod`] reads while the index is built.
const TOUCH_AHEAD: usize = 6;

/// Reads the first bytes of what the index build reads of `pod` (its node name, its first
/// container's request and limit names), so that their cache misses overlap with the work on
/// the pods before it: the build is bound by memory latency (every pod's resource lists and
/// names sit in separate heap allocations), not by arithmetic.
#[inline]
fn touch_pod(pod: &Pod) {
    let first = |l: &ResourceList| {
        l.names()
            .next()
            .map(|n| n.as_str().as_bytes().first().copied())
    };
    let c = pod.spec.containers.first();
    std::hint::black_box((
        pod.spec.node_name.as_bytes().first().copied(),
        c.map(|c| first(&c.resources.requests)),
        c.map(|c| first(&c.resources.limits)),
    ));
}

/// Adds `sign` times `req` to a dense row.
fn add_req(row: &mut [i64], req: &PodReq, arena: &[(u32, i64)], sign: i64) {
    for (x, v) in row.iter_mut().zip(req.fixed) {
        *x = x.saturating_add(sign.saturating_mul(v));
    }
    for &(slot, v) in &arena[req.start as usize..(req.start + req.len) as usize] {
        if let Some(x) = row.get_mut(slot as usize) {
            *x = x.saturating_add(sign.saturating_mul(v));
        }
    }
}

/// Fits `pod` over every node of `snapshot`, building a [`NodeUsage`] first. Use
/// [`NodeUsage::fit`] directly when fitting several pods against one snapshot.
pub fn fit_pod(snapshot: &ClusterSnapshot, pod: &Pod, options: &FitOptions) -> FitReport {
    NodeUsage::build(snapshot, options).fit(snapshot, pod)
}

/// The pod's requests as the scheduler counts them (`computePodResourceRequest`).
pub fn sched_requests(pod: &Pod, options: &FitOptions) -> SchedResources {
    let mut r = SchedResources::default();
    let fixed = request_parts(pod, options, |name, v| {
        r.scalar.insert(name.clone(), v);
    });
    r.milli_cpu = fixed[SLOT_CPU];
    r.memory = fixed[SLOT_MEMORY];
    r.ephemeral_storage = fixed[SLOT_EPHEMERAL];
    r
}

/// The node's taints plus, optionally, the condition taint the node lifecycle controller
/// would add for a Ready condition that is `False` (not-ready) or `Unknown` / missing
/// heartbeat (unreachable).
fn effective_taints(node: &Node, condition_taints: bool) -> Vec<Taint> {
    let mut taints = node.spec.taints.clone();
    if !condition_taints {
        return taints;
    }
    let ready = node
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .map(|c| c.status.as_str());
    let key = match ready {
        Some("False") => TAINT_NOT_READY,
        Some("Unknown") => TAINT_UNREACHABLE,
        _ => return taints,
    };
    if !taints
        .iter()
        .any(|t| t.key == key && t.effect == "NoSchedule")
    {
        taints.push(Taint {
            key: key.to_owned(),
            effect: "NoSchedule".to_owned(),
            ..Taint::default()
        });
    }
    taints
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index read in runs of pods on several threads equals the one read on one thread:
    /// scalar slots in the order of first use, the arena, every pod's requests, priority and
    /// node, each node's pods and nominated pods, the orphans, the rows and the free tree.
    #[test]
    fn index_read_in_runs_equals_one_pass() {
        use cube_model::objects::{Container, Node, ResourceRequirements};
        let rl = |pairs: &[(&str, String)]| -> ResourceList {
            pairs
                .iter()
                .map(|(k, v)| (*k, v.parse::<Quantity>().expect("quantity")))
                .collect()
        };
        let mut s = ClusterSnapshot::new();
        for n in 0..7 {
            let mut node = Node::default();
            node.metadata.name = format!("n{n}");
            node.status.allocatable = rl(&[
                ("cpu", "64".into()),
                ("memory", "256Gi".into()),
                ("pods", "110".into()),
                ("nvidia.com/gpu", "8".into()),
                (["example.com/a", "example.com/b"][n % 2], "4".into()),
            ]);
            s.nodes.push(node);
        }
        let scalars = [
            "nvidia.com/gpu",
            "example.com/c",
            "example.com/a",
            "example.com/d",
        ];
        for i in 0..97usize {
            let mut pod = Pod::default();
            pod.metadata.name = format!("p{i}");
            match i % 11 {
                // bound to a node the snapshot does not have
                3 => pod.spec.node_name = "gone".into(),
                // unbound, nominated
                5 => pod.status.nominated_node_name = format!("n{}", i % 7),
                // unbound, not nominated
                7 => {}
                _ => pod.spec.node_name = format!("n{}", i % 7),
            }
            if i % 13 == 4 {
                pod.status.phase = "Succeeded".into();
            }
            // scalar names first used at different points of the list
            let mut req = vec![("cpu", format!("{}m", 100 + i)), ("memory", "1Gi".into())];
            if i > 20 && i % 3 == 0 {
                req.push((scalars[(i / 3) % 4], "1".into()));
            }
            if i > 60 {
                req.push(("example.com/late", "2".into()));
            }
            pod.spec.containers = vec![Container {
                name: "c".into(),
                resources: ResourceRequirements {
                    requests: rl(&req),
                    limits: ResourceList::new(),
                },
                ..Container::default()
            }];
            pod.spec.priority = Some((i % 5) as i32 * 100);
            s.pods.push(pod);
        }
        let opts = FitOptions::default();
        let one = NodeUsage::build_in(&s, &opts, 1);
        for threads in [2, 3, 5, 8] {
            let runs = NodeUsage::build_in(&s, &opts, threads);
            assert_eq!(runs.scalar_names, one.scalar_names, "{threads} threads");
            assert_eq!(runs.arena, one.arena, "{threads} threads");
            assert_eq!(runs.reqs, one.reqs, "{threads} threads");
            assert_eq!(runs.priorities, one.priorities, "{threads} threads");
            assert_eq!(runs.node_of, one.node_of, "{threads} threads");
            assert_eq!(runs.orphan_pods, one.orphan_pods, "{threads} threads");
            assert_eq!(runs.nominated_pods, one.nominated_pods, "{threads} threads");
            assert_eq!(runs.width, one.width, "{threads} threads");
            assert_eq!(runs.alloc, one.alloc, "{threads} threads");
            assert_eq!(runs.used, one.used, "{threads} threads");
            assert_eq!(runs.free.data, one.free.data, "{threads} threads");
            for (a, b) in runs.nodes.iter().zip(&one.nodes) {
                assert_eq!((&a.pods, &a.nominated), (&b.pods, &b.nominated));
            }
        }
        assert!(one.scalar_names.len() >= 5 && !one.orphan_pods.is_empty());
        assert!(!one.nominated_pods.is_empty());
    }

    #[test]
    fn scalar_and_gpu_names() {
        assert!(is_scalar_resource_name("nvidia.com/gpu"));
        assert!(is_scalar_resource_name("hugepages-2Mi"));
        assert!(is_scalar_resource_name("kubernetes.io/batch-cpu"));
        assert!(!is_scalar_resource_name("requests.nvidia.com/gpu"));
        assert!(!is_scalar_resource_name("storage"));
        assert!(is_gpu_resource_name("nvidia.com/gpu"));
        assert!(is_gpu_resource_name("amd.com/gpu"));
        assert!(is_gpu_resource_name("nvidia.com/mig-1g.5gb"));
        assert!(is_gpu_resource_name("gpu.intel.com/i915"));
        assert!(!is_gpu_resource_name("nvidia.com/gpumem"));
        assert!(!is_gpu_resource_name("example.com/fpga"));
    }

    /// The allocation-free request sum agrees with `effective_pod_requests` on every shape
    /// (limits without requests, several containers, overhead, init containers, pod-level).
    #[test]
    fn fast_requests_agree_with_effective_pod_requests() {
        use cube_model::objects::{Container, ResourceRequirements};
        let rl = |pairs: &[(&str, &str)]| -> ResourceList {
            pairs
                .iter()
                .map(|(k, v)| (*k, v.parse::<Quantity>().expect("quantity")))
                .collect()
        };
        let c = |req: &[(&str, &str)], lim: &[(&str, &str)]| Container {
            name: "c".into(),
            resources: ResourceRequirements {
                requests: rl(req),
                limits: rl(lim),
            },
            ..Container::default()
        };
        let mut pods = Vec::new();
        let mut p = Pod::default();
        p.spec.containers = vec![c(&[], &[("nvidia.com/gpu", "1"), ("cpu", "0.5")])];
        pods.push(p.clone());
        p.spec.containers.push(c(
            &[("cpu", "250m"), ("memory", "1Gi")],
            &[("memory", "2Gi")],
        ));
        pods.push(p.clone());
        p.spec.overhead = Some(Box::new(rl(&[("cpu", "100m"), ("example.com/x", "1")])));
        pods.push(p.clone());
        p.spec.init_containers = vec![c(&[("cpu", "4")], &[])];
        pods.push(p.clone());
        p.spec.init_containers.clear();
        p.spec.resources = Some(Box::new(ResourceRequirements {
            requests: ResourceList::new(),
            limits: rl(&[("cpu", "8")]),
        }));
        pods.push(p.clone());
        let opts = FitOptions::default();
        for (i, pod) in pods.iter().enumerate() {
            let slow = SchedResources::from_list(&effective_pod_requests(pod, &opts.resources));
            assert_eq!(sched_requests(pod, &opts), slow, "pod {i}");
        }
    }

    #[test]
    fn message_sorted_as_strings() {
        let mut h = BTreeMap::new();
        h.insert("Insufficient cpu".to_owned(), 10);
        h.insert("Insufficient memory".to_owned(), 3);
        assert_eq!(
            fit_error_message(13, &h),
            "0/13 nodes are available: 10 Insufficient cpu, 3 Insufficient memory."
        );
    }
}
