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
//! Inter-pod affinity, volume and port filters are not evaluated (they need objects a
//! snapshot does not describe well enough).
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

use std::collections::{BTreeMap, BTreeSet, HashMap};

use cube_model::objects::{Node, Pod, Taint};
use cube_model::selector::{pod_matches_node_selector_and_affinity, tolerations_tolerate_taint};
use cube_model::{ClusterSnapshot, ResourceList, ResourceName};
use serde::Serialize;

use crate::requests::{PodResourcesOptions, effective_pod_requests};

/// Reason text of the `NodeUnschedulable` filter.
pub const REASON_UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// Reason text of the `TaintToleration` filter (v1.36 no longer names the taint).
pub const REASON_UNTOLERATED_TAINT: &str = "node(s) had untolerated taint(s)";
/// Reason text of the `NodeAffinity` filter (node selector and required node affinity).
pub const REASON_NODE_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";
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
                    let e = r.scalar.entry(name.clone()).or_insert(0);
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
            let e = self.scalar.entry(k.clone()).or_insert(0);
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
            let e = self.scalar.entry(k.clone()).or_insert(0);
            *e = e.saturating_sub(*v);
        }
    }
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
pub enum FilterPlugin {
    /// `NodeUnschedulable`: `spec.unschedulable` without the matching toleration.
    NodeUnschedulable,
    /// `TaintToleration`: a `NoSchedule`/`NoExecute` taint the pod does not tolerate.
    TaintToleration,
    /// `NodeAffinity`: `spec.nodeSelector` and required node affinity.
    NodeAffinity,
    /// `NodeResourcesFit`: pod count and requests against allocatable.
    NodeResourcesFit,
}

/// A filter status code, as the scheduler framework's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
pub struct FitReport {
    /// `namespace/name` of the pod.
    pub pod: String,
    /// The pod's requests as the scheduler counts them.
    pub requests: SchedResources,
    /// One entry per node, in snapshot order.
    pub nodes: Vec<NodeFit>,
    /// One entry per GPU resource the pod requests.
    pub gpu: Vec<GpuFragmentation>,
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

/// Per-node state of the index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeState {
    /// Index into `ClusterSnapshot::nodes`.
    pub index: usize,
    /// Node name.
    pub name: String,
    /// Allocatable (capacity when the node has no allocatable).
    pub allocatable: SchedResources,
    /// `allocatable.pods` (0 when absent).
    pub allowed_pods: i64,
    /// Sum of the requests of the non-terminal pods bound to the node.
    pub requested: SchedResources,
    /// Indices into `ClusterSnapshot::pods` of the non-terminal pods bound here.
    pub pods: Vec<usize>,
    /// Indices into `ClusterSnapshot::pods` of the unbound, non-terminal pods whose
    /// `status.nominatedNodeName` is this node (preemptors waiting for their victims to go).
    pub nominated: Vec<usize>,
    /// Effective taints: the node's own plus, with [`FitOptions::condition_taints`], the
    /// derived not-ready/unreachable `NoSchedule` taint.
    pub taints: Vec<Taint>,
}

/// Index of a snapshot for repeated fits: per node, the allocatable and the summed requests
/// of its bound pods; per bound pod, its requests.
///
/// Built once in O(nodes + pods); each [`NodeUsage::fit`] is then O(nodes). Indices refer to
/// the snapshot the index was built from: use it with that snapshot only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeUsage {
    /// Options the index was built with.
    pub options: FitOptions,
    /// Per node, in snapshot order.
    pub nodes: Vec<NodeState>,
    by_name: HashMap<String, usize>,
    /// Requests of each pod of the snapshot that is bound (or nominated to a node) and not
    /// terminal (`None` otherwise), indexed like `ClusterSnapshot::pods`.
    pub pod_requests: Vec<Option<SchedResources>>,
    /// Pods bound to a node the snapshot does not hold (index into `ClusterSnapshot::pods`).
    pub orphan_pods: Vec<usize>,
}

impl NodeUsage {
    /// Builds the index of `snapshot`.
    pub fn build(snapshot: &ClusterSnapshot, options: &FitOptions) -> Self {
        let mut nodes = Vec::with_capacity(snapshot.nodes.len());
        let mut by_name = HashMap::with_capacity(snapshot.nodes.len());
        for (index, node) in snapshot.nodes.iter().enumerate() {
            let alloc_list = if node.status.allocatable.is_empty() {
                &node.status.capacity
            } else {
                &node.status.allocatable
            };
            let allowed_pods = alloc_list.get("pods").map(|q| q.value()).unwrap_or(0);
            // First node of a name wins; duplicates are a snapshot problem reported elsewhere.
            by_name
                .entry(node.metadata.name.clone())
                .or_insert(nodes.len());
            nodes.push(NodeState {
                index,
                name: node.metadata.name.clone(),
                allocatable: SchedResources::from_list(alloc_list),
                allowed_pods,
                requested: SchedResources::default(),
                pods: Vec::new(),
                nominated: Vec::new(),
                taints: effective_taints(node, options.condition_taints),
            });
        }
        let mut pod_requests = vec![None; snapshot.pods.len()];
        let mut orphan_pods = Vec::new();
        for (i, pod) in snapshot.pods.iter().enumerate() {
            if pod.is_terminal() {
                continue;
            }
            if pod.spec.node_name.is_empty() {
                let nominated = pod.status.nominated_node_name.as_str();
                if let Some(&n) = by_name.get(nominated) {
                    nodes[n].nominated.push(i);
                    pod_requests[i] = Some(sched_requests(pod, options));
                }
                continue;
            }
            let req = sched_requests(pod, options);
            match by_name.get(pod.spec.node_name.as_str()) {
                Some(&n) => {
                    let state = &mut nodes[n];
                    state.requested.add(&req);
                    state.pods.push(i);
                }
                None => orphan_pods.push(i),
            }
            pod_requests[i] = Some(req);
        }
        NodeUsage {
            options: options.clone(),
            nodes,
            by_name,
            pod_requests,
            orphan_pods,
        }
    }

    /// The state of node `name`.
    pub fn node(&self, name: &str) -> Option<&NodeState> {
        self.by_name.get(name).map(|&i| &self.nodes[i])
    }

    /// Fits `pod` over every node of `snapshot` (the snapshot the index was built from).
    ///
    /// As the scheduler's `RunFilterPluginsWithNominatedPods`, pods nominated to a node with a
    /// priority at least the pod's count against that node (the pod itself excepted).
    pub fn fit(&self, snapshot: &ClusterSnapshot, pod: &Pod) -> FitReport {
        let requests = sched_requests(pod, &self.options);
        let priority = crate::preemption::pod_priority(pod, &snapshot.priority_classes);
        let mut nodes = Vec::with_capacity(self.nodes.len());
        for state in &self.nodes {
            let Some(node) = snapshot.nodes.get(state.index) else {
                continue;
            };
            let fit = match self.with_nominated(snapshot, state, pod, priority, &state.requested) {
                Some((requested, extra)) => self.fit_node_with(
                    node,
                    state,
                    pod,
                    &requests,
                    &requested,
                    state.pods.len() + extra,
                ),
                None => self.fit_node_with(
                    node,
                    state,
                    pod,
                    &requests,
                    &state.requested,
                    state.pods.len(),
                ),
            };
            nodes.push(fit);
        }
        let gpu = gpu_fragmentation(&self.nodes, &nodes, &requests);
        FitReport {
            pod: pod.key(),
            requests,
            nodes,
            gpu,
        }
    }

    /// `requested` plus the requests of the pods nominated to `state`'s node whose priority is
    /// at least `priority` (not `pod` itself), and how many they are; `None` when there are
    /// none.
    pub(crate) fn with_nominated(
        &self,
        snapshot: &ClusterSnapshot,
        state: &NodeState,
        pod: &Pod,
        priority: i32,
        requested: &SchedResources,
    ) -> Option<(SchedResources, usize)> {
        if state.nominated.is_empty() {
            return None;
        }
        let mut total = requested.clone();
        let mut extra = 0;
        for &i in &state.nominated {
            let (Some(p), Some(Some(req))) = (snapshot.pods.get(i), self.pod_requests.get(i))
            else {
                continue;
            };
            let same = p.metadata.namespace == pod.metadata.namespace
                && p.metadata.name == pod.metadata.name;
            if same || crate::preemption::pod_priority(p, &snapshot.priority_classes) < priority {
                continue;
            }
            total.add(req);
            extra += 1;
        }
        (extra > 0).then_some((total, extra))
    }

    /// Runs every filter for one node with the given node usage (`requested`, `pod_count`):
    /// the building block of preemption's what-if evaluation.
    pub(crate) fn fit_node_with(
        &self,
        node: &Node,
        state: &NodeState,
        pod: &Pod,
        pod_req: &SchedResources,
        requested: &SchedResources,
        pod_count: usize,
    ) -> NodeFit {
        let mut all_reasons = Vec::new();
        let mut first: Option<(FilterPlugin, Vec<String>, FitCode)> = None;
        let mut record = |plugin: FilterPlugin, reasons: Vec<String>, code: FitCode| {
            all_reasons.extend(reasons.iter().cloned());
            if first.is_none() {
                first = Some((plugin, reasons, code));
            }
        };

        // NodeUnschedulable.
        if node.spec.unschedulable
            && !tolerations_tolerate_taint(
                &pod.spec.tolerations,
                &Taint {
                    key: TAINT_UNSCHEDULABLE.to_owned(),
                    effect: "NoSchedule".to_owned(),
                    ..Taint::default()
                },
            )
        {
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
        if !pod_matches_node_selector_and_affinity(&pod.spec, node) {
            record(
                FilterPlugin::NodeAffinity,
                vec![REASON_NODE_AFFINITY.to_owned()],
                FitCode::UnschedulableAndUnresolvable,
            );
        }

        // NodeResourcesFit.
        let insufficient = fits_request(pod_req, state, requested, pod_count, &self.options);
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
}

/// Fits `pod` over every node of `snapshot`, building a [`NodeUsage`] first. Use
/// [`NodeUsage::fit`] directly when fitting several pods against one snapshot.
pub fn fit_pod(snapshot: &ClusterSnapshot, pod: &Pod, options: &FitOptions) -> FitReport {
    NodeUsage::build(snapshot, options).fit(snapshot, pod)
}

/// The pod's requests as the scheduler counts them (`computePodResourceRequest`), on the pod as
/// the API server stores it (requests defaulted from limits, see
/// [`crate::requests::effective_pod_requests`]).
pub fn sched_requests(pod: &Pod, options: &FitOptions) -> SchedResources {
    SchedResources::from_list(&effective_pod_requests(pod, &options.resources))
}

/// Upstream `fitsRequest`: pod count first, then cpu, memory, ephemeral storage, then each
/// non-zero scalar request in name order (upstream iterates a Go map: order unspecified).
fn fits_request(
    pod_req: &SchedResources,
    state: &NodeState,
    requested: &SchedResources,
    pod_count: usize,
    options: &FitOptions,
) -> Vec<InsufficientResource> {
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
    if pod_req.is_empty() {
        return out;
    }
    let alloc = &state.allocatable;
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
    check(
        "cpu",
        pod_req.milli_cpu,
        requested.milli_cpu,
        alloc.milli_cpu,
    );
    check("memory", pod_req.memory, requested.memory, alloc.memory);
    check(
        "ephemeral-storage",
        pod_req.ephemeral_storage,
        requested.ephemeral_storage,
        alloc.ephemeral_storage,
    );
    for (name, &req) in &pod_req.scalar {
        if req == 0 {
            continue;
        }
        let n = name.as_str();
        if is_extended_resource_name(n) {
            let group = n.split('/').next().unwrap_or("");
            if options.ignored_resources.contains(n)
                || options.ignored_resource_groups.contains(group)
            {
                continue;
            }
        }
        check(n, req, requested.get(n), alloc.get(n));
    }
    out
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

fn gpu_fragmentation(
    states: &[NodeState],
    fits: &[NodeFit],
    pod_req: &SchedResources,
) -> Vec<GpuFragmentation> {
    let mut out = Vec::new();
    for (name, &requested) in &pod_req.scalar {
        if requested <= 0 || !is_gpu_resource_name(name.as_str()) {
            continue;
        }
        let mut nodes = Vec::new();
        for (state, fit) in states.iter().zip(fits) {
            let allocatable = state.allocatable.get(name.as_str());
            let used = state.requested.get(name.as_str());
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

#[cfg(test)]
mod tests {
    use super::*;

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
