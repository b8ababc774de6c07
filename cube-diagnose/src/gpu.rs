//! The GPU reporting chain, evaluated per GPU node over the one GPU evidence model
//! ([`cube_model::gpu`]).
//!
//! A node's GPUs reach the scheduler through an ordered chain of links ([`ChainLink`]): the
//! node has GPUs (any [`GpuSource`]) → the labels the device plugin's DaemonSet selects are
//! present (written by NFD, the GPU Operator or a person; NFD's worker must tolerate the node's
//! taints to write them) → a device-plugin DaemonSet selects (nodeSelector and required node
//! affinity) and tolerates (taints) the node → its pod is scheduled and Ready there → the GPU
//! resource is in `status.capacity` → allocatable is above zero → some of it is free.
//! [`gpu_chains`] returns, per GPU node, the first link that fails with its specifics; a node
//! whose links all hold has no failure. The rules `gpu-not-advertised` (the node's symptom)
//! and `device-plugin-not-scheduled` (the DaemonSet's cause) report from it, the first pointing
//! to the second.
//!
//! Selector, affinity and toleration checks are cube-model's upstream-exact matchers; a
//! DaemonSet's pods also get the tolerations the DaemonSet controller adds
//! (kubernetes/kubernetes pkg/controller/daemon/util/daemonset_util.go
//! `AddOrUpdateDaemonPodTolerations`).

use std::collections::{BTreeMap, BTreeSet};

use cube_model::gpu::{
    GpuComponentRole, GpuSourceKind, classify_daemon_set, classify_pod, gpu_resource_vendor,
};
use cube_model::objects::{DaemonSet, Node, NodeSelectorRequirement, Pod, Taint, Toleration};
use cube_model::{Quantity, ResourceList};

pub use cube_model::GpuVendor;
pub use cube_model::gpu::{GpuMarker, GpuSource, GpuVocabulary, NodeGpuEvidence};

use crate::rules::obj;
use crate::{Context, Evidence, Severity, Subject};

/// A link of the GPU reporting chain, in chain order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ChainLink {
    /// The node is Ready (the kubelet runs and reports); a prerequisite of every other link.
    NodeReady,
    /// Some source says the node has GPUs.
    HasGpus,
    /// The labels a device-plugin DaemonSet selects are on the node.
    LabelsPresent,
    /// A GPU driver DaemonSet of the input (the GPU Operator's `nvidia-driver-daemonset`, one
    /// per kernel for precompiled drivers; GKE's driver installer) selects and tolerates the
    /// node, when the input has such DaemonSets and the node's driver is not pre-installed.
    DriverSelects,
    /// A device-plugin DaemonSet selects and tolerates the node.
    PluginSelects,
    /// The DaemonSet's pod is scheduled and Ready on the node (and, for HAMi, answers the
    /// scheduler's handshake).
    PluginPodReady,
    /// The GPU resource is in `status.capacity`.
    InCapacity,
    /// `status.allocatable` of the GPU resource is above zero.
    Allocatable,
    /// Some allocatable GPUs are not requested by pods bound to the node.
    Free,
}

impl ChainLink {
    /// A short name of the link (`device-plugin pod Ready`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChainLink::NodeReady => "node Ready",
            ChainLink::HasGpus => "GPUs present",
            ChainLink::LabelsPresent => "labels the device plugin selects",
            ChainLink::DriverSelects => "GPU driver DaemonSet selects the node",
            ChainLink::PluginSelects => "device-plugin DaemonSet selects and tolerates the node",
            ChainLink::PluginPodReady => "device-plugin pod Ready",
            ChainLink::InCapacity => "GPU resource in capacity",
            ChainLink::Allocatable => "allocatable above zero",
            ChainLink::Free => "GPUs free",
        }
    }
}

/// The first failing link of a node's chain, with its specifics.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ChainFailure {
    /// The link.
    pub link: ChainLink,
    /// What fails, with names and values (the DaemonSet, the selector term or taint, the pod's
    /// state, capacity vs allocatable vs in use).
    pub detail: String,
    /// Field values proving it (besides the node's GPU sources).
    pub evidence: Vec<Evidence>,
    /// What to do.
    pub remedy: String,
    /// The subject of the finding that carries the root cause when it is not the node itself
    /// (the DaemonSet for `device-plugin-not-scheduled`, the node for `node-not-ready`), with
    /// that rule's id.
    pub cause: Option<(&'static str, Subject)>,
    /// Severity of the node's finding.
    pub severity: Severity,
}

/// One GPU node's chain.
#[derive(Debug, Clone)]
pub struct GpuChain<'c> {
    /// The node.
    pub node: &'c Node,
    /// Its GPU evidence.
    pub evidence: &'c NodeGpuEvidence,
    /// The vendor whose resource the node should advertise (`None`: any GPU resource).
    pub vendor: Option<GpuVendor>,
    /// GPU requests of the non-terminal pods bound to the node (effective requests).
    pub in_use: ResourceList,
    /// The first failing link; `None` when every link holds.
    pub failure: Option<ChainFailure>,
}

impl GpuChain<'_> {
    /// The resource name to name in messages (`nvidia.com/gpu`, `amd.com/gpu`, ...).
    pub fn resource(&self) -> &'static str {
        self.vendor
            .map_or("nvidia.com/gpu", GpuVendor::resource_name)
    }
}

/// Why a DaemonSet does not place a pod on a node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exclusion {
    /// `nodeSelector` entries the node does not satisfy: (key, wanted value, the node's value).
    pub missing_labels: Vec<(String, String, Option<String>)>,
    /// Required node affinity terms, none of which matches: per term, its first failing
    /// requirement, described.
    pub affinity_terms: Vec<String>,
    /// Labels the affinity terms need that the node lacks (`key=value`, or `key` for Exists).
    pub affinity_labels: Vec<(String, Option<String>)>,
    /// NoSchedule / NoExecute taints no toleration tolerates.
    pub taints: Vec<Taint>,
}

impl Exclusion {
    /// True when something excludes the node.
    pub fn excludes(&self) -> bool {
        !self.missing_labels.is_empty()
            || !self.affinity_terms.is_empty()
            || !self.taints.is_empty()
    }
    /// True when a missing label (not a taint) excludes the node.
    pub fn by_labels(&self) -> bool {
        !self.missing_labels.is_empty() || !self.affinity_terms.is_empty()
    }
    /// Every label the node would need (`key`, wanted value when one value is asked for).
    pub fn needed_labels(&self) -> Vec<(String, Option<String>)> {
        let mut out: Vec<(String, Option<String>)> = self
            .missing_labels
            .iter()
            .map(|(k, v, _)| (k.clone(), Some(v.clone())))
            .collect();
        out.extend(self.affinity_labels.iter().cloned());
        out
    }
    /// `lacks label k=v; required node affinity: term 1 needs gpu In [true] (node lacks gpu);
    /// taint k=v:NoSchedule not tolerated`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for (k, v, have) in &self.missing_labels {
            parts.push(match have {
                None => format!("lacks label {k}={v}"),
                Some(h) => format!("has label {k}={h}, the nodeSelector wants {k}={v}"),
            });
        }
        if !self.affinity_terms.is_empty() {
            parts.push(format!(
                "required node affinity does not match ({})",
                self.affinity_terms.join("; ")
            ));
        }
        if !self.taints.is_empty() {
            parts.push(format!(
                "taint {} not tolerated",
                self.taints
                    .iter()
                    .map(taint_text)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        parts.join("; ")
    }
}

/// `key=value:Effect` (or `key:Effect`).
pub fn taint_text(t: &Taint) -> String {
    if t.value.is_empty() {
        format!("{}:{}", t.key, t.effect)
    } else {
        format!("{}={}:{}", t.key, t.value, t.effect)
    }
}

/// The tolerations a DaemonSet's pods carry: the template's plus those the DaemonSet controller
/// adds (`node.kubernetes.io/not-ready` and `unreachable` NoExecute; `disk-pressure`,
/// `memory-pressure`, `pid-pressure`, `unschedulable` NoSchedule; upstream
/// `AddOrUpdateDaemonPodTolerations`).
pub fn daemon_set_tolerations(ds: &DaemonSet) -> Vec<Toleration> {
    let mut tols = ds.spec.template.spec.tolerations.clone();
    for (key, effect) in [
        ("node.kubernetes.io/not-ready", "NoExecute"),
        ("node.kubernetes.io/unreachable", "NoExecute"),
        ("node.kubernetes.io/disk-pressure", "NoSchedule"),
        ("node.kubernetes.io/memory-pressure", "NoSchedule"),
        ("node.kubernetes.io/pid-pressure", "NoSchedule"),
        ("node.kubernetes.io/unschedulable", "NoSchedule"),
    ] {
        tols.push(Toleration {
            key: key.to_owned(),
            operator: "Exists".to_owned(),
            effect: effect.to_owned(),
            ..Default::default()
        });
    }
    tols
}

fn requirement_text(r: &NodeSelectorRequirement) -> String {
    if r.values.is_empty() {
        format!("{} {}", r.key, r.operator)
    } else {
        format!("{} {} [{}]", r.key, r.operator, r.values.join(", "))
    }
}

/// Why `ds` places no pod on `node` (the DaemonSet controller's `nodeShouldRunDaemonPod`:
/// nodeSelector, required node affinity, NoSchedule/NoExecute taints against the pod's
/// tolerations plus the controller's own). An empty [`Exclusion`] when it does place one.
pub fn exclusion(ds: &DaemonSet, node: &Node) -> Exclusion {
    let spec = &ds.spec.template.spec;
    let labels = &node.metadata.labels;
    let mut ex = Exclusion::default();
    // a node shown without its labels (a `kubectl get nodes` table without --show-labels):
    // what its labels would exclude is not known, so nothing is concluded from them (its
    // taints, unknown too, are empty and exclude nothing)
    // (a `-L` column that showed every key the DaemonSet selects on is enough to judge them)
    let selected_keys_shown = !spec.node_selector.is_empty()
        && spec.affinity.is_none()
        && spec
            .node_selector
            .keys()
            .all(|k| cube_model::describe::label_known(&node.metadata, k));
    if cube_model::describe::is_unknown(&node.metadata, "labels") && !selected_keys_shown {
        ex.taints = untolerated_by(ds, node);
        return ex;
    }
    // the scheduler's NodeAffinity filter (upstream-exact); the details below only explain it
    if crate::rules::node_matches(node, spec).is_ok() {
        ex.taints = untolerated_by(ds, node);
        return ex;
    }
    for (k, v) in &spec.node_selector {
        if labels.get(k) != Some(v) {
            ex.missing_labels
                .push((k.to_owned(), v.to_owned(), labels.get(k).map(str::to_owned)));
        }
    }
    if let Some(required) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| {
            na.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
        && !required.matches(node)
    {
        for (i, term) in required.node_selector_terms.iter().enumerate() {
            let failing = term
                .match_expressions
                .iter()
                .find(|e| e.to_requirement().map_or(true, |r| !r.matches(labels)));
            let text = match failing {
                Some(e) => {
                    let have = match labels.get(&e.key) {
                        Some(v) => format!("node has {}={v}", e.key),
                        None => format!("node lacks {}", e.key),
                    };
                    format!("term {}: {} ({have})", i + 1, requirement_text(e))
                }
                None => match term.match_fields.first() {
                    Some(f) => format!("term {}: {}", i + 1, requirement_text(f)),
                    None => format!("term {}: empty", i + 1),
                },
            };
            ex.affinity_terms.push(text);
        }
        // the labels that would satisfy the first term (terms are ORed: one term is enough)
        if let Some(term) = required.node_selector_terms.first() {
            for e in &term.match_expressions {
                if e.to_requirement().is_ok_and(|r| r.matches(labels)) {
                    continue;
                }
                let want = match e.operator.as_str() {
                    "In" => e.values.first().cloned().map(Some),
                    "Exists" => Some(None),
                    _ => None,
                };
                if let Some(w) = want {
                    ex.affinity_labels.push((e.key.clone(), w));
                }
            }
        }
        if required.node_selector_terms.is_empty() {
            ex.affinity_terms
                .push("no terms (matches no node)".to_owned());
        }
    }
    ex.taints = untolerated_by(ds, node);
    ex
}

/// NoSchedule / NoExecute taints of `node` that `ds`'s pods do not tolerate.
fn untolerated_by(ds: &DaemonSet, node: &Node) -> Vec<Taint> {
    if cube_model::describe::is_unknown(&ds.metadata, "tolerations") {
        return Vec::new(); // a `kubectl get daemonsets` row does not show them
    }
    crate::rules::untolerated(node, &daemon_set_tolerations(ds))
        .into_iter()
        .cloned()
        .collect()
}

/// A device-plugin DaemonSet of the input with its vendor (`None`: not told by name or image).
#[derive(Debug, Clone, Copy)]
pub struct Plugin<'a> {
    /// The DaemonSet.
    pub ds: &'a DaemonSet,
    /// Its vendor.
    pub vendor: Option<GpuVendor>,
}

/// Device-plugin DaemonSets of the input.
pub fn plugins<'a>(ctx: &Context<'a>) -> Vec<Plugin<'a>> {
    ctx.snapshot()
        .daemon_sets
        .iter()
        .filter_map(|ds| match classify_daemon_set(ds) {
            Some((GpuComponentRole::DevicePlugin, vendor)) => Some(Plugin { ds, vendor }),
            _ => None,
        })
        .collect()
}

/// NFD worker DaemonSets of the input.
fn nfd_workers<'a>(ctx: &Context<'a>) -> Vec<&'a DaemonSet> {
    ctx.snapshot()
        .daemon_sets
        .iter()
        .filter(|ds| {
            matches!(
                classify_daemon_set(ds),
                Some((GpuComponentRole::NfdWorker, _))
            )
        })
        .collect()
}

/// The vendor a GPU node's plugin must serve: the evidence's vendor; else the single vendor of
/// the input's device plugins; else `None` (any).
fn node_vendor(ev: &NodeGpuEvidence, plugins: &[Plugin<'_>]) -> Option<GpuVendor> {
    ev.vendor().or_else(|| {
        let vs: BTreeSet<GpuVendor> = plugins.iter().filter_map(|p| p.vendor).collect();
        (vs.len() == 1).then(|| *vs.iter().next().expect("one vendor"))
    })
}

fn serves(p: &Plugin<'_>, vendor: Option<GpuVendor>) -> bool {
    match (p.vendor, vendor) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// The node's Ready condition status (`True`, `False`, `Unknown`), `None` when it reports none.
fn ready_status(node: &Node) -> Option<&str> {
    node.status
        .conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .map(|c| c.status.as_str())
}

/// Whether a pod is Ready: `Some(true/false)` from its Ready condition or phase and container
/// statuses; `None` when the pod has no status (a manifest).
pub fn pod_ready(p: &Pod) -> Option<bool> {
    if let Some(c) = p.status.conditions.iter().find(|c| c.type_ == "Ready") {
        return Some(c.status == "True");
    }
    if p.status.phase.is_empty() {
        return None;
    }
    Some(
        p.status.phase == "Running"
            && !p.status.container_statuses.is_empty()
            && p.status.container_statuses.iter().all(|c| c.ready),
    )
}

/// A pod's state in a few words: phase, containers not ready with their waiting / terminated
/// reasons and restart counts.
pub fn pod_state(p: &Pod) -> String {
    let mut parts = vec![match (p.status.phase.as_str(), p.status.reason.as_str()) {
        ("", "") => "no status".to_owned(),
        ("", r) => format!("status {r}"),
        (ph, "") => format!("phase {ph}"),
        // the STATUS column of `kubectl get pods` (`Init:CrashLoopBackOff`, `Init:0/1`)
        (ph, r) => format!("phase {ph}, status {r}"),
    }];
    let describe = |init: bool, s: &cube_model::objects::ContainerStatus| -> Option<String> {
        if s.ready && !init {
            return None;
        }
        let mut t = format!("{}{}", if init { "init container " } else { "" }, s.name);
        match s.state.as_ref() {
            Some(st) if st.waiting.is_some() => {
                let w = st.waiting.as_ref().expect("waiting");
                t.push_str(&format!(" waiting ({})", w.reason));
                if !w.message.is_empty() {
                    t.push_str(&format!(": {}", truncate(&w.message, 160)));
                }
            }
            Some(st) if st.terminated.is_some() => {
                let d = st.terminated.as_ref().expect("terminated");
                if init && d.exit_code == Some(0) {
                    return None;
                }
                t.push_str(&format!(
                    " terminated ({}{})",
                    d.reason,
                    d.exit_code
                        .map(|c| format!(", exit code {c}"))
                        .unwrap_or_default()
                ));
            }
            Some(st) if st.running.is_some() => {
                t.push_str(if init {
                    " running (not finished)"
                } else {
                    " running, not ready"
                });
            }
            _ => t.push_str(" not ready"),
        }
        if s.restart_count > 0 {
            t.push_str(&format!(", {} restarts", s.restart_count));
        }
        Some(t)
    };
    parts.extend(
        p.status
            .init_container_statuses
            .iter()
            .filter_map(|s| describe(true, s)),
    );
    parts.extend(
        p.status
            .container_statuses
            .iter()
            .filter_map(|s| describe(false, s)),
    );
    if let Some(c) = p
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "PodScheduled" && c.status == "False")
    {
        parts.push(format!("not scheduled: {}", truncate(&c.message, 200)));
    }
    parts.join("; ")
}

fn truncate(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_owned(),
    }
}

/// Pods of `ds` in the input (owner reference, else a `<ds name>-` name prefix in its namespace).
pub fn pods_of<'a>(ctx: &Context<'a>, ds: &DaemonSet) -> Vec<&'a Pod> {
    ctx.pods_in_namespace(&ds.metadata.namespace)
        .iter()
        .map(|&i| ctx.pod(i))
        .filter(|p| {
            if p.metadata.owner_references.is_empty() {
                p.metadata
                    .name
                    .strip_prefix(ds.metadata.name.as_str())
                    .is_some_and(|r| r.starts_with('-'))
            } else {
                p.metadata
                    .owner_references
                    .iter()
                    .any(|o| o.kind == "DaemonSet" && o.name == ds.metadata.name)
            }
        })
        .collect()
}

/// Effective GPU requests of the non-terminal pods bound to `node`; where `describe node`'s
/// `Allocated resources` table shows more of a GPU resource in use (its pod rows show no GPU
/// requests), that total ([`cube_model::describe::allocated_requests`]).
fn in_use(ctx: &Context<'_>, node: &Node) -> ResourceList {
    let mut sum = pods_in_use(ctx, &node.metadata.name);
    if let Some(shown) = cube_model::describe::allocated_requests(&node.metadata) {
        for (k, q) in &shown {
            if gpu_resource_vendor(k.as_str()).is_some()
                && sum.get(k.as_str()).is_none_or(|s| s < q)
            {
                sum.insert(k.as_str(), q.clone());
            }
        }
    }
    sum
}

/// Whether the input shows what is in use on `node`: its `describe` `Allocated resources`
/// table, or a pod bound to it whose requests the input holds.
pub fn usage_known(ctx: &Context<'_>, node: &Node) -> bool {
    cube_model::describe::allocated_requests(&node.metadata).is_some()
        || ctx
            .pods_on_node(&node.metadata.name)
            .iter()
            .any(|&i| !cube_model::describe::is_unknown(&ctx.pod(i).metadata, "requests"))
}

/// The amount of extended resource `res` in use on `node` (whole devices): the effective
/// requests of its non-terminal pods, or `describe node`'s `Allocated resources` total when
/// that is larger. `None` when the input does not show it ([`usage_known`]).
pub fn node_resource_in_use(ctx: &Context<'_>, node: &Node, res: &str) -> Option<i64> {
    if !usage_known(ctx, node) {
        return None;
    }
    let pods = pods_in_use(ctx, &node.metadata.name)
        .get(res)
        .map_or(0, Quantity::value);
    let shown = cube_model::describe::allocated_requests(&node.metadata)
        .and_then(|l| l.get(res).map(Quantity::value))
        .unwrap_or(0);
    Some(pods.max(shown))
}

/// Device-plugin resources of `node` whose capacity is above its allocatable while allocatable
/// is above zero: (resource, capacity, allocatable). The kubelet's device manager counts every
/// device a plugin lists in capacity and only its healthy ones in allocatable
/// (kubernetes/kubernetes pkg/kubelet/cm/devicemanager/manager.go `GetCapacity`), and reserves
/// no extended resource, so the difference is devices the plugin reports unhealthy (NVIDIA
/// k8s-device-plugin: `XidCriticalError ... marked unhealthy`). Every extended resource with a
/// domain counts (GPUs, MIG slices, `habana.ai/gaudi`, `aws.amazon.com/neuron`), except
/// hugepages, `kubernetes.io` names and HAMi's per-GPU attributes (`nvidia.com/gpumem`,
/// `nvidia.com/gpucores`), which count no devices.
pub fn partial_devices(node: &Node) -> Vec<(String, Quantity, Quantity)> {
    if node.status.allocatable.is_empty() {
        return Vec::new();
    }
    node.status
        .capacity
        .iter()
        .filter(|(k, _)| {
            let k = k.as_str();
            k.contains('/')
                && !k.starts_with("hugepages-")
                && !k.starts_with("attachable-volumes-")
                && !k
                    .split('/')
                    .next()
                    .is_some_and(|d| d == "kubernetes.io" || d.ends_with(".kubernetes.io"))
                && !cube_model::ResourceName::from(k).is_gpu_share_attribute()
                && k != cube_model::resource::names::LEGACY_NVIDIA_GPU
        })
        .filter_map(|(k, c)| {
            let a = node.status.allocatable.get(k.as_str())?;
            (a < c && !a.is_zero() && !a.is_negative())
                .then(|| (k.to_string(), c.clone(), a.clone()))
        })
        .take(16)
        .collect()
}

/// Effective GPU requests of the non-terminal pods bound to the node named `node`.
fn pods_in_use(ctx: &Context<'_>, node: &str) -> ResourceList {
    let mut sum = ResourceList::new();
    for &i in ctx.pods_on_node(node) {
        if ctx.pod(i).is_terminal() {
            continue;
        }
        let gpus: ResourceList = ctx
            .pod_requests(i)
            .iter()
            .filter(|(k, _)| gpu_resource_vendor(k.as_str()).is_some())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        crate::resources::add_into(&mut sum, &gpus);
    }
    sum
}

/// A `kubectl patch` (RFC 6902 JSON patch) that adds a toleration for `t` to a DaemonSet's pod
/// template: appended to the list, or the list itself added when the template has none.
pub fn toleration_patch(ds: &DaemonSet, t: &Taint) -> String {
    let toleration = format!(
        "{{\"key\":\"{}\",\"operator\":\"Exists\",\"effect\":\"{}\"}}",
        t.key, t.effect
    );
    // RFC 6902 `add` to `.../tolerations/-` appends to an array that must exist: on a template
    // without tolerations the API server answers `jsonpatch add operation does not apply: doc is
    // missing path`, so the list itself is added then (fresh-user G22). A table row that does
    // not show tolerations keeps the append form (the list is unknown, not empty).
    let known_empty = ds.spec.template.spec.tolerations.is_empty()
        && !cube_model::describe::is_unknown(&ds.metadata, "tolerations");
    let (path, value) = if known_empty {
        ("/spec/template/spec/tolerations", format!("[{toleration}]"))
    } else {
        ("/spec/template/spec/tolerations/-", toleration)
    };
    format!(
        "kubectl -n {} patch daemonset {} --type=json -p '[{{\"op\":\"add\",\"path\":\"{path}\",\"value\":{value}}}]'",
        ds.metadata.namespace, ds.metadata.name
    )
}

/// Evidence lines for a node's GPU sources (at most `max`).
pub fn source_evidence(node: &Node, ev: &NodeGpuEvidence, max: usize) -> Vec<Evidence> {
    let o = obj("Node", "", &node.metadata.name);
    ev.sources
        .iter()
        .filter(|s| !s.weak)
        .take(max)
        .map(|s| match s.kind {
            GpuSourceKind::Label => {
                Evidence::field(&o, format!("metadata.labels[{}]", s.key), &s.value)
            }
            GpuSourceKind::Annotation => Evidence::field(
                &o,
                format!("metadata.annotations[{}]", s.key),
                truncate(&s.value, 120),
            ),
            GpuSourceKind::Taint => {
                Evidence::field(&o, format!("spec.taints[{}]", s.key), &s.value)
            }
            GpuSourceKind::PodOnNode => Evidence::field(
                format!("Pod/{}", s.key),
                "spec.nodeName",
                &node.metadata.name,
            ),
            GpuSourceKind::PoolSibling => Evidence::field(
                obj("Node", "", s.node.as_deref().unwrap_or("?")),
                format!("metadata.labels[{}] (same pool, advertises GPUs)", s.key),
                &s.value,
            ),
            GpuSourceKind::AdvertisedResource => {
                // the model reads capacity first: name the field the value is from
                let field = if node
                    .status
                    .allocatable
                    .get(&s.key)
                    .is_some_and(|q| q.to_string() == s.value)
                {
                    "allocatable"
                } else {
                    "capacity"
                };
                Evidence::field(&o, format!("status.{field}.{}", s.key), &s.value)
            }
            GpuSourceKind::RegisteredResource => {
                Evidence::field(&o, format!("status.capacity.{}", s.key), &s.value)
            }
            GpuSourceKind::HardwareSibling => Evidence::field(
                obj("Node", "", s.node.as_deref().unwrap_or("?")),
                "status.capacity, status.nodeInfo (identical hardware, advertises GPUs)",
                &s.value,
            ),
            GpuSourceKind::ToolOutput => {
                Evidence::field(&o, format!("{} (listing in the input)", s.key), &s.value)
            }
            GpuSourceKind::GpuPodOnNode => Evidence::field(
                format!("Pod/{}", s.key),
                "spec.containers[].resources (bound to the node)",
                &s.value,
            ),
            // A source kind added later: cite its key and value as they are.
            _ => Evidence::field(&o, s.key.clone(), &s.value),
        })
        .collect()
}

/// A short list of the node's GPU claims (`label accelerator=gpu [generic GPU label], ...`).
pub fn claims_text(ev: &NodeGpuEvidence) -> String {
    let claims: Vec<String> = ev.claims().take(3).map(ToString::to_string).collect();
    let more = ev.claims().count().saturating_sub(3);
    if more > 0 {
        format!("{} and {more} more", claims.join(", "))
    } else {
        claims.join(", ")
    }
}

/// The chain of every GPU node of the input (nodes with a non-weak GPU source), in node order.
pub fn gpu_chains<'c>(ctx: &'c Context<'_>) -> Vec<GpuChain<'c>> {
    let snap = ctx.snapshot();
    let plugins = plugins(ctx);
    let reference_time = reference_time(ctx);
    ctx.gpu_evidence()
        .iter()
        .zip(&snap.nodes)
        // a `kubectl get nodes` row does not show capacity or allocatable: no chain to judge
        .filter(|(ev, node)| {
            ev.has_gpus() && !cube_model::describe::is_unknown(&node.metadata, "allocatable")
        })
        .map(|(ev, node)| {
            let vendor = node_vendor(ev, &plugins);
            let in_use = in_use(ctx, node);
            let mut chain = GpuChain {
                node,
                evidence: ev,
                vendor,
                in_use,
                failure: None,
            };
            chain.failure = evaluate(ctx, &chain, &plugins, reference_time);
            chain
        })
        .collect()
}

/// The newest time the input knows (node heartbeats, event times), seconds since the epoch:
/// "now" for ages (GPU handshakes, bootstrap-token expiry).
pub(crate) fn reference_time(ctx: &Context<'_>) -> Option<i64> {
    let snap = ctx.snapshot();
    let beats = snap
        .nodes
        .iter()
        .flat_map(|n| n.status.conditions.iter())
        .filter_map(|c| c.last_heartbeat_time.map(|t| t.as_second()));
    let events = snap.events.iter().filter_map(|e| {
        e.last_timestamp
            .or(e.first_timestamp)
            .map(|t| t.as_second())
    });
    beats.chain(events).max()
}

/// `Requesting_2024.01.02 15:04:05` / `Requesting_2024-01-02 15:04:05` -> seconds since epoch.
fn handshake_time(v: &str) -> Option<i64> {
    let rest = v.split_once('_')?.1.trim();
    let norm: String = rest
        .chars()
        .take(19)
        .map(|c| if c == '.' { '-' } else { c })
        .collect();
    let iso = norm.replacen(' ', "T", 1);
    format!("{iso}Z")
        .parse::<jiff::Timestamp>()
        .ok()
        .map(|t| t.as_second())
}

/// True when the node's kubelet serves the legacy `alpha.kubernetes.io/nvidia-gpu` itself as
/// its GPU resource: it advertises it above zero and is older than v1.10 (the Accelerators
/// feature gate; device plugins were alpha until v1.10, so such clusters count GPUs under that
/// name). From v1.10 (where the kubelet may still list it) the device plugin's
/// `nvidia.com/gpu` is the resource, and the legacy name alone is a broken chain.
pub(crate) fn legacy_gpu_served(node: &Node) -> bool {
    let served = node
        .status
        .allocatable
        .get(cube_model::resource::names::LEGACY_NVIDIA_GPU)
        .is_some_and(|q| !q.is_zero() && !q.is_negative());
    let v = node
        .status
        .node_info
        .kubelet_version
        .trim_start_matches('v');
    let minor = v
        .strip_prefix("1.")
        .map(|r| {
            r.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|m| m.parse::<u32>().ok());
    served && minor.is_some_and(|m| m < 10)
}

#[allow(clippy::too_many_lines)]
fn evaluate(
    ctx: &Context<'_>,
    chain: &GpuChain<'_>,
    plugins: &[Plugin<'_>],
    reference_time: Option<i64>,
) -> Option<ChainFailure> {
    let node = chain.node;
    let ev = chain.evidence;
    let name = node.metadata.name.as_str();
    let o = obj("Node", "", name);
    let res = chain.resource();
    let vendor = chain.vendor;
    let alloc = ev.allocatable_of(vendor);
    let cap = ev.capacity_of(vendor);
    let listed: Vec<(&str, &Quantity)> = ev
        .capacity
        .iter()
        .chain(ev.allocatable.iter())
        .filter(|(k, _)| {
            k.as_str() != cube_model::resource::names::LEGACY_NVIDIA_GPU
                && vendor.is_none_or(|v| gpu_resource_vendor(k.as_str()) == Some(v))
        })
        .map(|(k, q)| (k.as_str(), q))
        .collect();
    let base_severity = if ev.from_siblings_only() {
        Severity::Warning
    } else {
        Severity::Error
    };
    let mut fail = |link, detail: String, evidence: Vec<Evidence>, remedy: String| ChainFailure {
        link,
        detail,
        evidence,
        remedy,
        cause: None,
        severity: base_severity,
    };

    // v1.6-v1.9 (kubelet Accelerators feature gate): the kubelet itself
    // advertises alpha.kubernetes.io/nvidia-gpu (pkg/api/types.go `ResourceNvidiaGPU`) with no
    // device plugin: above zero, the node's GPUs are advertised under that name
    if alloc.is_empty() && vendor.is_none_or(|v| v == GpuVendor::Nvidia) && legacy_gpu_served(node)
    {
        return None;
    }
    if !alloc.is_empty() {
        // HAMi: the scheduler drops a node whose plugin stops answering the handshake
        for key in ["hami.io/node-handshake", "4pd.io/node-handshake"] {
            let Some(h) = node.metadata.annotations.get(key) else {
                continue;
            };
            let stale = if h.starts_with("Deleted") {
                Some("HAMi's scheduler marked the node's devices deleted".to_owned())
            } else if h.starts_with("Requesting") {
                match (handshake_time(h), reference_time) {
                    (Some(t), Some(now)) if now - t > 60 => Some(format!(
                        "HAMi's scheduler has waited {} s for the device plugin to answer its handshake (more than 60 s: it drops the node's devices)",
                        now - t
                    )),
                    _ => None,
                }
            } else {
                None
            };
            if let Some(why) = stale {
                return Some(fail(
                    ChainLink::PluginPodReady,
                    format!("{why}; pods scheduled by hami-scheduler see the node as unregistered"),
                    vec![Evidence::field(
                        &o,
                        format!("metadata.annotations[{key}]"),
                        h,
                    )],
                    format!(
                        "check the HAMi device-plugin pod on {name} (`kubectl -n kube-system get pods -o wide --field-selector spec.nodeName={name}`) and its log; restart it once the driver works (`nvidia-smi` on the node)"
                    ),
                ));
            }
        }
        // HAMi's own registration: devices its device plugin registers unhealthy, which
        // hami-scheduler skips whatever allocatable says
        if let Some(f) = hami_health_failure(&mut fail, node, &alloc) {
            return Some(f);
        }
        // partial availability: devices in capacity the plugin reports unhealthy
        let partial: Vec<(String, Quantity, Quantity)> = partial_devices(node)
            .into_iter()
            .filter(|(k, _, _)| {
                gpu_resource_vendor(k).is_some_and(|v| vendor.is_none_or(|w| w == v))
            })
            .collect();
        if !partial.is_empty() {
            return Some(partial_failure(ctx, &mut fail, node, vendor, &partial));
        }
        // all in use: not a fault of the chain, recorded for callers
        let used: Vec<String> = alloc
            .iter()
            .filter(|(k, q)| chain.in_use.get(k).is_some_and(|u| u >= *q))
            .map(|(k, q)| {
                format!(
                    "{k}: {} of {q} requested",
                    chain
                        .in_use
                        .get(k)
                        .map(ToString::to_string)
                        .unwrap_or_default()
                )
            })
            .collect();
        if !used.is_empty() && used.len() == alloc.len() {
            let mut f = fail(
                ChainLink::Free,
                format!(
                    "every allocatable GPU is requested by pods bound to the node ({})",
                    used.join(", ")
                ),
                Vec::new(),
                "wait for the pods to finish, or add GPU nodes".to_owned(),
            );
            f.severity = Severity::Info;
            return Some(f);
        }
        return None;
    }

    // the node does not advertise: find the first link that breaks
    let mut numbers = vec![Evidence::field(
        &o,
        format!("status.allocatable.{res}"),
        // the allocatable value itself (`listed` holds capacity's first: fresh-user report G2)
        listed
            .iter()
            .find_map(|(k, _)| ev.allocatable.iter().find(|(a, _)| a.as_str() == *k))
            .map_or("<absent>".to_owned(), |(_, q)| q.to_string()),
    )];
    if !cap.is_empty() {
        numbers.push(Evidence::field(
            &o,
            format!("status.capacity.{}", cap[0].0),
            cap[0].1.to_string(),
        ));
    }
    match ready_status(node) {
        Some(s) if s != "True" => {
            let mut f = fail(
                ChainLink::NodeReady,
                format!(
                    "the node is not Ready (Ready={s}): its kubelet cannot run the device plugin or report GPUs until it is; the root cause is reported by node-not-ready"
                ),
                numbers,
                format!(
                    "fix the node first (see the node-not-ready finding for Node/{name}); the GPUs appear once the kubelet is Ready and the device plugin has registered"
                ),
            );
            f.cause = Some(("node-not-ready", Subject::cluster_scoped("Node", name)));
            f.severity = Severity::Warning;
            return Some(f);
        }
        _ => {}
    }
    let cands: Vec<&Plugin<'_>> = plugins.iter().filter(|p| serves(p, vendor)).collect();
    let unhealthy = !cap.is_empty() && alloc.is_empty();
    if cands.is_empty() {
        // no device plugin in the input: the driver DaemonSets and the GPU component pods on
        // the node still tell which link fails (a driver installer, toolkit or validator, or
        // the plugin pod itself)
        if !unhealthy && let Some(f) = driver_selection_failure(ctx, &mut fail, node, res, &numbers)
        {
            return Some(f);
        }
        if !unhealthy && let Some(f) = nfd_missing_failure(ctx, &mut fail, node, res, &numbers) {
            return Some(f);
        }
        if let Some(p) = failing_components(ctx, name).first().map(|(p, _)| *p) {
            return Some(pod_failure(ctx, &mut fail, node, p, res, numbers));
        }
        if unhealthy {
            return Some(unhealthy_failure(&mut fail, node, &cap, numbers));
        }
        if !listed.is_empty() {
            return Some(zero_failure(ctx, &mut fail, node, vendor, &listed, numbers));
        }
        // a device-plugin pod of the vendor runs on the node (its DaemonSet is not in the
        // input): it registered nothing
        if let Some(p) = ctx
            .pods_on_node(name)
            .iter()
            .map(|&i| ctx.pod(i))
            .find(|p| {
                !p.is_terminal()
                    && matches!(classify_pod(p), Some((GpuComponentRole::DevicePlugin, v))
                    if v.is_none() || vendor.is_none() || v == vendor)
            })
        {
            let (pns, pname) = (&p.metadata.namespace, &p.metadata.name);
            let state = if pod_ready(p).is_none() {
                "its state is not in the input".to_owned()
            } else {
                pod_state(p)
            };
            let mut numbers = numbers;
            numbers.push(Evidence::field(
                obj("Pod", pns, pname),
                "spec.nodeName",
                name,
            ));
            let check = match vendor {
                Some(GpuVendor::Amd) => {
                    "`ls /dev/kfd /dev/dri` and `dmesg | grep -i -e amdgpu -e kfd`"
                }
                Some(GpuVendor::Intel) => "`ls /dev/dri` and `dmesg | grep i915`",
                _ => {
                    "`nvidia-smi` and the container runtime (`nvidia-ctk runtime configure --runtime=containerd --set-as-default && systemctl restart containerd`)"
                }
            };
            return Some(fail(
                ChainLink::InCapacity,
                format!(
                    "the device-plugin pod {pns}/{pname} runs on the node ({state}) but no {res} is in the node's capacity: the plugin registered nothing (driver or device nodes missing in its container, or the plugin hides its init error)"
                ),
                numbers,
                format!(
                    "read its log: `kubectl -n {pns} logs {pname} --all-containers`; on the node check {check}"
                ),
            ));
        }
        // the plugin's log in the same input says why it registers nothing (NVML's library not
        // in its container, or a manual run that works only with the nvidia runtime): the
        // link is the plugin's, with the runtime cause, when this is the input's only NVIDIA
        // GPU node that advertises nothing (the log names no node)
        if matches!(vendor, None | Some(GpuVendor::Nvidia))
            && let Some(c) = crate::plugin_runtime::default_runtime_cause(ctx)
        {
            let silent_gpu_nodes = ctx
                .gpu_evidence()
                .iter()
                .zip(&ctx.snapshot().nodes)
                .filter(|(e, n)| {
                    e.has_gpus()
                        && matches!(e.vendor(), None | Some(GpuVendor::Nvidia))
                        && e.allocatable_of(Some(GpuVendor::Nvidia)).is_empty()
                        && !cube_model::describe::is_unknown(&n.metadata, "allocatable")
                })
                .count();
            if silent_gpu_nodes == 1 {
                let mut numbers = numbers;
                numbers.extend(c.evidence.iter().cloned());
                return Some(fail(
                    ChainLink::InCapacity,
                    format!(
                        "the NVIDIA device plugin registers no {res} (its DaemonSet is not in the input, its log is): {}",
                        c.detail
                    ),
                    numbers,
                    c.remedy,
                ));
            }
        }
        // a managed platform tells which link its GPU nodes usually break at (GKE: the
        // driver, AKS / EKS: a device plugin the platform does not install)
        if matches!(vendor, None | Some(GpuVendor::Nvidia))
            && let Some(p) = managed_platform(node)
            && let Some((link, detail, remedy)) = platform_link(ctx, p, node, ev)
        {
            return Some(fail(link, detail, numbers, remedy));
        }
        let n_ds = ctx.snapshot().daemon_sets.len();
        let detail = if n_ds > 0 {
            format!(
                "none of the {n_ds} DaemonSets in the input is a {} device plugin, so nothing registers {res} with the kubelet",
                vendor.map_or("GPU", |v| v.as_str())
            )
        } else {
            "the input holds no DaemonSet, so whether the device plugin is missing, does not select the node or fails there cannot be told from it".to_owned()
        };
        let remedy = format!(
            "`kubectl get daemonsets -A -o wide | grep -i -e device-plugin -e gpu` shows whether a device plugin exists and which nodes it selects; if none, install it ({}); then `kubectl -n <namespace> get pods -o wide --field-selector spec.nodeName={name}`",
            install_hint(vendor, node)
        );
        return Some(fail(ChainLink::PluginSelects, detail, numbers, remedy));
    }
    let covering: Vec<&&Plugin<'_>> = cands
        .iter()
        .filter(|p| !exclusion(p.ds, node).excludes())
        .collect();
    if covering.is_empty() {
        let mut parts = Vec::new();
        let mut remedies = Vec::new();
        let mut evidence = numbers;
        let mut by_labels = false;
        for p in &cands {
            let ex = exclusion(p.ds, node);
            by_labels |= ex.by_labels();
            let dso = obj("DaemonSet", &p.ds.metadata.namespace, &p.ds.metadata.name);
            let mut why = format!(
                "DaemonSet {}/{} places no pod on it: {}",
                p.ds.metadata.namespace,
                p.ds.metadata.name,
                ex.describe()
            );
            for (k, v, _) in &ex.missing_labels {
                evidence.push(Evidence::field(
                    &dso,
                    format!("spec.template.spec.nodeSelector.{k}"),
                    v,
                ));
            }
            if !ex.affinity_terms.is_empty() {
                evidence.push(Evidence::field(&dso, "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", ex.affinity_terms.join("; ")));
            }
            for t in &ex.taints {
                evidence.push(Evidence::field(
                    &o,
                    format!("spec.taints[{}]", t.key),
                    format!("{}:{}", t.value, t.effect),
                ));
            }
            let (note, fix) = exclusion_fixes(ctx, p.ds, node, &ex);
            if !note.is_empty() {
                why.push_str(&format!(" ({note})"));
            }
            parts.push(why);
            remedies.extend(fix);
        }
        let first = cands[0].ds;
        let mut f = fail(
            if by_labels {
                ChainLink::LabelsPresent
            } else {
                ChainLink::PluginSelects
            },
            format!(
                "{}; the root cause is reported by device-plugin-not-scheduled",
                parts.join("; ")
            ),
            evidence,
            format!(
                "{} (see the device-plugin-not-scheduled finding for DaemonSet/{}/{})",
                dedup(remedies).join(" or "),
                first.metadata.namespace,
                first.metadata.name
            ),
        );
        f.cause = Some((
            "device-plugin-not-scheduled",
            Subject::namespaced("DaemonSet", &first.metadata.namespace, &first.metadata.name),
        ));
        return Some(f);
    }
    // covered: the driver it needs, then the pod on the node
    if !unhealthy && let Some(f) = driver_selection_failure(ctx, &mut fail, node, res, &numbers) {
        return Some(f);
    }
    let ds = covering[0].ds;
    let dsname = format!("{}/{}", ds.metadata.namespace, ds.metadata.name);
    let pods = pods_of(ctx, ds);
    if let Some(p) = pods.iter().find(|p| p.spec.node_name == name) {
        if pod_ready(p) == Some(false) {
            return Some(pod_failure(ctx, &mut fail, node, p, res, numbers));
        }
    } else if !pods.is_empty() {
        let on: Vec<&str> = pods
            .iter()
            .map(|p| p.spec.node_name.as_str())
            .filter(|n| !n.is_empty())
            .take(5)
            .collect();
        let mut ev = numbers;
        ev.push(Evidence::field(
            obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name),
            "status.desiredNumberScheduled",
            ds.status.desired_number_scheduled.to_string(),
        ));
        return Some(fail(
            ChainLink::PluginPodReady,
            format!(
                "DaemonSet {dsname} selects and tolerates the node but the input has no pod of it there (its pods run on {})",
                if on.is_empty() {
                    "no node".to_owned()
                } else {
                    on.join(", ")
                }
            ),
            ev,
            format!(
                "`kubectl -n {} get pods -o wide --field-selector spec.nodeName={name}` and `kubectl -n {} describe daemonset {}` (events say why the controller placed no pod)",
                ds.metadata.namespace, ds.metadata.namespace, ds.metadata.name
            ),
        ));
    } else if ds.status.number_ready < ds.status.desired_number_scheduled && !unhealthy {
        let mut ev = numbers;
        let dso = obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
        ev.push(Evidence::field(
            &dso,
            "status.desiredNumberScheduled",
            ds.status.desired_number_scheduled.to_string(),
        ));
        ev.push(Evidence::field(
            &dso,
            "status.numberReady",
            ds.status.number_ready.to_string(),
        ));
        return Some(fail(
            ChainLink::PluginPodReady,
            format!(
                "DaemonSet {dsname} selects the node but only {} of its {} pods are Ready; its pod on this node is likely one of those failing",
                ds.status.number_ready, ds.status.desired_number_scheduled
            ),
            ev,
            format!(
                "`kubectl -n {} get pods -o wide --field-selector spec.nodeName={name}`, then `kubectl -n {} logs <that pod> --all-containers`",
                ds.metadata.namespace, ds.metadata.namespace
            ),
        ));
    }
    if let Some((p, _)) = failing_components(ctx, name)
        .into_iter()
        .find(|(_, role)| *role != Blocker::Plugin)
    {
        return Some(pod_failure(ctx, &mut fail, node, p, res, numbers));
    }
    if unhealthy {
        return Some(unhealthy_failure(&mut fail, node, &cap, numbers));
    }
    if !listed.is_empty() {
        return Some(zero_failure(ctx, &mut fail, node, vendor, &listed, numbers));
    }
    Some(fail(
        ChainLink::InCapacity,
        format!(
            "DaemonSet {dsname} selects the node{} but no {res} is in its capacity: the plugin registered nothing (no driver loaded, the container runtime is not GPU-enabled so NVML cannot load, or the plugin runs with FAIL_ON_INIT_ERROR=false and hides the error)",
            if pods.iter().any(|p| p.spec.node_name == name) {
                " and its pod is Ready"
            } else {
                ""
            }
        ),
        numbers,
        format!(
            "read the plugin's log on the node (`kubectl -n {} logs -l <the DaemonSet's pod labels> --all-containers` or the pod on {name}); on the node check `nvidia-smi` and the runtime (`nvidia-ctk runtime configure --runtime=containerd --set-as-default && systemctl restart containerd`)",
            ds.metadata.namespace
        ),
    ))
}

/// NFD's label of the running kernel, which the GPU Operator's precompiled driver DaemonSets
/// select (NVIDIA/gpu-operator internal/state/nodepool.go `nfdKernelLabelKey`,
/// controllers/state_manager.go).
pub const NFD_KERNEL_LABEL: &str = "feature.node.kubernetes.io/kernel-version.full";

/// The GPU driver DaemonSets of the input (GPU Operator `nvidia-driver-daemonset[-<kernel>-<os>]`,
/// GKE's `nvidia-driver-installer`, ...) that could serve `vendor`.
pub(crate) fn driver_daemon_sets<'a>(
    ctx: &Context<'a>,
    vendor: Option<GpuVendor>,
) -> Vec<&'a DaemonSet> {
    ctx.snapshot()
        .daemon_sets
        .iter()
        .filter(|ds| match classify_daemon_set(ds) {
            Some((GpuComponentRole::Driver, v)) => match (v, vendor) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            },
            _ => false,
        })
        .collect()
}

/// Why a driver DaemonSet excludes a node, told, with what the kernel pin means: `DaemonSet
/// gpu-operator/nvidia-driver-daemonset-5.15.0-86-generic-ubuntu22.04 places no pod on it
/// (desiredNumberScheduled 0): its nodeSelector wants feature.node.kubernetes.io/
/// kernel-version.full=5.15.0-86-generic and the node runs 5.15.0-91-generic ...`.
pub(crate) fn driver_exclusion_text(ds: &DaemonSet, node: &Node, ex: &Exclusion) -> String {
    let kernel_label = node.metadata.labels.get(NFD_KERNEL_LABEL);
    let kernel_info = node.status.node_info.kernel_version.as_str();
    let mut why = format!(
        "DaemonSet {}/{} places no pod on it (desiredNumberScheduled {}): {}",
        ds.metadata.namespace,
        ds.metadata.name,
        ds.status.desired_number_scheduled,
        ex.describe()
    );
    let pinned = ex
        .missing_labels
        .iter()
        .find(|(k, _, _)| k == NFD_KERNEL_LABEL)
        .map(|(_, v, _)| v.as_str());
    if let Some(want) = pinned {
        let runs = kernel_label.or((!kernel_info.is_empty()).then_some(kernel_info));
        match runs {
            Some(k) => why.push_str(&format!(
                "; the DaemonSet is a precompiled driver built for kernel {want}, and the node runs kernel {k}: the GPU Operator builds one precompiled driver DaemonSet per kernel (NVIDIA/gpu-operator internal/state/nodepool.go getNodePools) and the input has none for {k} (a kernel upgrade, or no precompiled driver image for that kernel)"
            )),
            None => why.push_str(&format!(
                "; the DaemonSet is a precompiled driver built for kernel {want}, and the node has no {NFD_KERNEL_LABEL} label (node feature discovery has not labelled it)"
            )),
        }
    } else if kernel_label.is_none()
        && ex
            .needed_labels()
            .iter()
            .any(|(k, _)| k.starts_with("feature.node.kubernetes.io/"))
    {
        why.push_str("; node feature discovery has not labelled the node");
    }
    why
}

/// The driver link: the input has GPU driver DaemonSets, none selects and tolerates `node`,
/// no driver pod runs there, and the node's driver is not pre-installed (the GPU Operator
/// labels a node with a host driver `nvidia.com/gpu.deploy.driver=pre-installed`; `false`
/// switches the driver off on purpose). Then the driver is never installed, so the toolkit,
/// the validators and the device plugin wait for it: the first failing link is the driver
/// DaemonSet's selection (a precompiled driver pinned to an older kernel, a missing
/// `nvidia.com/gpu.deploy.driver` label, an untolerated taint).
fn driver_selection_failure(
    ctx: &Context<'_>,
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    res: &str,
    numbers: &[Evidence],
) -> Option<ChainFailure> {
    let labels = &node.metadata.labels;
    if labels
        .get("nvidia.com/gpu.deploy.driver")
        .is_some_and(|v| v == "pre-installed" || v == "false")
    {
        return None;
    }
    let vendor = ctx
        .gpu_evidence()
        .iter()
        .zip(&ctx.snapshot().nodes)
        .find(|(_, n)| std::ptr::eq(*n, node))
        .and_then(|(ev, _)| ev.vendor());
    let drivers = driver_daemon_sets(ctx, vendor);
    if drivers.is_empty() || drivers.iter().any(|ds| !exclusion(ds, node).excludes()) {
        return None;
    }
    let name = node.metadata.name.as_str();
    if ctx.pods_on_node(name).iter().any(|&i| {
        let p = ctx.pod(i);
        !p.is_terminal() && matches!(classify_pod(p), Some((GpuComponentRole::Driver, _)))
    }) {
        return None;
    }
    let mut evidence = numbers.to_vec();
    let mut parts = Vec::new();
    let mut fixes = Vec::new();
    let o = obj("Node", "", name);
    for ds in drivers.iter().take(4) {
        let ex = exclusion(ds, node);
        let dso = obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
        for (k, v, _) in &ex.missing_labels {
            evidence.push(Evidence::field(
                &dso,
                format!("spec.template.spec.nodeSelector.{k}"),
                v,
            ));
        }
        evidence.push(Evidence::field(
            &dso,
            "status.desiredNumberScheduled",
            ds.status.desired_number_scheduled.to_string(),
        ));
        parts.push(driver_exclusion_text(ds, node, &ex));
        if ex
            .missing_labels
            .iter()
            .any(|(k, _, _)| k == NFD_KERNEL_LABEL)
        {
            let kernel = labels
                .get(NFD_KERNEL_LABEL)
                .unwrap_or(node.status.node_info.kernel_version.as_str());
            fixes.push(format!(
                "the GPU Operator creates the precompiled driver DaemonSet of kernel {} only when a precompiled driver image exists for it: read the operator's log (`kubectl -n {} logs deploy/gpu-operator | grep -i -e precompiled -e kernel`) and check that nvcr.io/nvidia/driver has a `<driver branch>-{}-<os>` tag; otherwise set driver.usePrecompiled=false in the ClusterPolicy (the driver is then built on the node), or boot the node into a kernel that has one",
                if kernel.is_empty() { "<the node's kernel>" } else { kernel },
                ds.metadata.namespace,
                if kernel.is_empty() { "<kernel>" } else { kernel },
            ));
        } else {
            let (note, fix) = exclusion_fixes(ctx, ds, node, &ex);
            if !note.is_empty() {
                parts.push(note);
            }
            fixes.extend(fix);
        }
    }
    if let Some(k) = labels.get(NFD_KERNEL_LABEL) {
        evidence.push(Evidence::field(
            &o,
            format!("metadata.labels[{NFD_KERNEL_LABEL}]"),
            k,
        ));
    } else if !node.status.node_info.kernel_version.is_empty() {
        evidence.push(Evidence::field(
            &o,
            "status.nodeInfo.kernelVersion",
            &node.status.node_info.kernel_version,
        ));
    }
    Some(fail(
        ChainLink::DriverSelects,
        format!(
            "no GPU driver DaemonSet of the input selects the node and no driver pod runs there, so the driver is never installed and the container toolkit, the GPU Operator's validators and the device plugin wait for it ({res} is never registered): {}",
            parts.join("; ")
        ),
        evidence,
        dedup(fixes).join("; or "),
    ))
}

/// The labels link when the input shows a node-feature-discovery based set-up (an NFD worker
/// DaemonSet, or GPU Operator pods) but no device-plugin DaemonSet, and the GPU node carries no
/// NFD label at all: the GPU Operator deploys its driver, toolkit and device plugin only on
/// nodes NFD labelled with an NVIDIA PCI device (NVIDIA/gpu-operator
/// controllers/state_manager.go: `feature.node.kubernetes.io/pci-10de.present` and the
/// class-prefixed forms turn into `nvidia.com/gpu.present` and the `nvidia.com/gpu.deploy.*`
/// labels its DaemonSets select), so on a node NFD never saw nothing is deployed.
fn nfd_missing_failure(
    ctx: &Context<'_>,
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    res: &str,
    numbers: &[Evidence],
) -> Option<ChainFailure> {
    let labels = &node.metadata.labels;
    if labels
        .keys()
        .any(|k| k.starts_with("feature.node.kubernetes.io/"))
    {
        return None;
    }
    let nfd = nfd_workers(ctx);
    let operator = ctx.snapshot().pods.iter().any(|p| {
        p.metadata.name.starts_with("gpu-operator")
            && !p.metadata.name.contains("node-feature-discovery")
    });
    if nfd.is_empty() && !operator {
        return None;
    }
    let name = node.metadata.name.as_str();
    let mut evidence = numbers.to_vec();
    evidence.push(Evidence::field(
        obj("Node", "", name),
        "metadata.labels[feature.node.kubernetes.io/pci-10de.present]",
        "<absent>",
    ));
    let mut fixes: Vec<String> = Vec::new();
    for ds in &nfd {
        let t = untolerated_by(ds, node);
        if t.len() < 4 {
            for t in &t {
                fixes.push(format!("`{}`", toleration_patch(ds, t)));
            }
        }
        evidence.push(Evidence::field(
            obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name),
            "status.desiredNumberScheduled",
            ds.status.desired_number_scheduled.to_string(),
        ));
    }
    if nfd.is_empty() {
        fixes.push("install node feature discovery (`helm upgrade gpu-operator nvidia/gpu-operator -n gpu-operator --reuse-values --set nfd.enabled=true`, or NFD's own chart)".to_owned());
    }
    fixes.push(format!(
        "then `kubectl get node {name} --show-labels | tr , '\\n' | grep -e feature.node.kubernetes.io/pci -e nvidia.com/gpu` should list pci-10de.present and nvidia.com/gpu.present"
    ));
    Some(fail(
        ChainLink::LabelsPresent,
        format!(
            "node feature discovery has not labelled the node (no feature.node.kubernetes.io/* label): {}; the GPU Operator deploys its driver, container toolkit and device plugin only on nodes NFD labelled with an NVIDIA PCI device (pci-10de), so nothing registers {res}",
            nfd_absence(node, &nfd)
        ),
        evidence,
        fixes.join(", "),
    ))
}

fn dedup(v: Vec<String>) -> Vec<String> {
    let mut seen = BTreeSet::new();
    v.into_iter().filter(|s| seen.insert(s.clone())).collect()
}

/// What a not-Ready GPU component on a node blocks, deepest first: the driver, the container
/// toolkit, the GPU Operator's validators (the operator starts the device plugin only after
/// them: NVIDIA/gpu-operator assets/state-device-plugin, init container
/// `toolkit-validation`), then the device plugin itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Blocker {
    Driver,
    Toolkit,
    Validator,
    Plugin,
}

/// Whether `p` is a link of the GPU reporting chain (driver, container toolkit, GPU Operator
/// validator, device plugin), whose failures gpu-not-advertised and workload-unavailable report.
pub(crate) fn chain_component(p: &Pod) -> bool {
    blocker_of(p).is_some()
}

/// What a failing GPU reporting-chain component (see [`chain_component`]) blocks, in a few
/// words; `None` for another pod.
pub(crate) fn chain_consequence(p: &Pod) -> Option<&'static str> {
    Some(match blocker_of(p)? {
        Blocker::Driver => {
            "the GPU driver container: while it fails no driver is loaded on the node, so the container toolkit, the validators and the device plugin wait and the node advertises no GPU (its log says why the driver does not install or load: kernel headers for the running kernel, an unsupported OS or kernel, a driver already on the host)"
        }
        Blocker::Toolkit => {
            "the NVIDIA container toolkit: while it fails containers get no GPU runtime, so the validators and the device plugin wait and the node advertises no GPU"
        }
        Blocker::Validator => {
            "a GPU Operator validator: the operator starts the device plugin only after the validations pass, so the node advertises no GPU"
        }
        Blocker::Plugin => {
            "the GPU device plugin: while it fails nothing registers the GPU resource with the kubelet, so the node advertises no GPU"
        }
    })
}

fn blocker_of(p: &Pod) -> Option<Blocker> {
    let owner = p
        .metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "DaemonSet")
        .map_or(p.metadata.name.as_str(), |o| o.name.as_str());
    match classify_pod(p)? {
        (GpuComponentRole::Driver, _) => Some(Blocker::Driver),
        (GpuComponentRole::DevicePlugin, _) => Some(Blocker::Plugin),
        (GpuComponentRole::Operand, _) if owner.contains("toolkit") => Some(Blocker::Toolkit),
        (GpuComponentRole::Operand, _)
            if owner.contains("validator") || owner.contains("validation") =>
        {
            Some(Blocker::Validator)
        }
        _ => None,
    }
}

/// GPU component pods bound to `node` that are not Ready (known from their status), deepest
/// first (see [`Blocker`]). Pods whose state the input does not show (a `describe node`
/// `Non-terminated Pods` row) are not listed.
fn failing_components<'a>(ctx: &Context<'a>, node: &str) -> Vec<(&'a Pod, Blocker)> {
    failing_among(ctx.pods_on_node(node).iter().map(|&i| ctx.pod(i)))
}

/// [`failing_components`] among `pods`.
fn failing_among<'a>(pods: impl Iterator<Item = &'a Pod>) -> Vec<(&'a Pod, Blocker)> {
    let mut out: Vec<(&Pod, Blocker)> = pods
        .filter(|p| component_failing(p))
        .filter_map(|p| blocker_of(p).map(|b| (p, b)))
        .collect();
    // the operator's own validator (whose init containers validate driver, toolkit, CUDA and
    // plugin in turn) before the pods it starts (nvidia-cuda-validator,
    // nvidia-device-plugin-validator)
    out.sort_by_key(|(p, b)| (*b, !p.metadata.name.contains("operator-validator")));
    out
}

/// Whether a GPU component pod is failing: not Ready while it should run. A `kubectl get pods`
/// row whose STATUS is `Error` (or another container-level failure) reads as phase Failed, but
/// GPU components are DaemonSet pods (restartPolicy Always: kubectl shows the last container's
/// terminated reason while the kubelet restarts it) or validator pods the operator re-creates,
/// so such a row is failing, not finished.
pub(crate) fn component_failing(p: &Pod) -> bool {
    if pod_ready(p) != Some(false) {
        return false;
    }
    if !p.is_terminal() {
        return true;
    }
    p.status.phase == "Failed"
        && cube_model::describe::from_get_table(&p.metadata)
        && matches!(
            p.status.reason.as_str(),
            "Error" | "ContainerStatusUnknown" | "OOMKilled"
        )
}

/// The init containers of the GPU Operator's operand pods, in order, by the DaemonSet name the
/// pod's name starts with (NVIDIA/gpu-operator assets/*/0500_daemonset.yaml; the
/// operator-validator's list is that of assets/state-operator-validation/0500_daemonset.yaml,
/// with `nvidia-fs-validation` after the driver in v22.9-v25.3 when GDS is enabled and
/// `plugin-validation` dropped when the device plugin is disabled, controllers/
/// object_controls.go `TransformValidatorComponent`), with what each one waits for.
const OPERATOR_INIT_CONTAINERS: &[(&str, &[(&str, &str)])] = &[
    (
        "nvidia-operator-validator",
        &[
            (
                "driver-validation",
                "a working NVIDIA driver on the node (host or driver container)",
            ),
            (
                "toolkit-validation",
                "the NVIDIA container toolkit on the node",
            ),
            (
                "cuda-validation",
                "a CUDA workload (the nvidia-cuda-validator pod) to run",
            ),
            (
                "plugin-validation",
                "the device plugin to advertise the GPUs (the nvidia-device-plugin-validator pod)",
            ),
        ],
    ),
    (
        "nvidia-device-plugin-daemonset",
        &[
            (
                "toolkit-validation",
                "the NVIDIA container toolkit to be validated on the node (which needs the driver first)",
            ),
            ("config-manager-init", "its configuration"),
        ],
    ),
    (
        "gpu-feature-discovery",
        &[
            (
                "toolkit-validation",
                "the NVIDIA container toolkit to be validated on the node (which needs the driver first)",
            ),
            ("config-manager-init", "its configuration"),
        ],
    ),
    (
        "nvidia-container-toolkit-daemonset",
        &[(
            "driver-validation",
            "a working NVIDIA driver on the node (host or driver container)",
        )],
    ),
    (
        "nvidia-dcgm-exporter",
        &[(
            "toolkit-validation",
            "the NVIDIA container toolkit to be validated on the node (which needs the driver first)",
        )],
    ),
    (
        "nvidia-mig-manager",
        &[(
            "toolkit-validation",
            "the NVIDIA container toolkit to be validated on the node (which needs the driver first)",
        )],
    ),
    (
        "nvidia-driver-daemonset",
        &[(
            "k8s-driver-manager",
            "GPU pods to be drained off the node before the driver is (re)installed",
        )],
    ),
];

/// The init container a GPU Operator operand pod is stuck in, with what it waits for: from
/// its init container statuses (`describe pod`, JSON), else from a `kubectl get pods` STATUS
/// `Init:x/y` / `Init:CrashLoopBackOff` / `Init:Error` and the upstream manifest's order
/// (`Init:x/y`: x init containers finished, the next one runs; for the operator validator,
/// whose list varies by version and settings, only `Init:0/y` and the four-container list are
/// read).
pub fn stuck_init_container(p: &Pod) -> Option<(String, &'static str)> {
    let owner = p
        .metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "DaemonSet")
        .map_or(p.metadata.name.as_str(), |o| o.name.as_str());
    let list = OPERATOR_INIT_CONTAINERS
        .iter()
        .find(|(ds, _)| {
            owner
                .strip_prefix(ds)
                .is_some_and(|r| r.is_empty() || r.starts_with('-'))
        })
        .map(|(_, l)| *l);
    let waits = |name: &str| {
        list.and_then(|l| l.iter().find(|(n, _)| *n == name).map(|(_, w)| *w))
            .unwrap_or("")
    };
    if let Some(s) = p.status.init_container_statuses.iter().find(|s| {
        !s.ready
            && s.state
                .as_ref()
                .and_then(|st| st.terminated.as_ref())
                .is_none_or(|t| t.exit_code != Some(0))
    }) {
        return Some((s.name.clone(), waits(&s.name)));
    }
    let list = list?;
    let status = p.status.reason.as_str();
    let rest = status.strip_prefix("Init:")?;
    let index = match rest.split_once('/') {
        Some((done, total)) => {
            let done: usize = done.parse().ok()?;
            let total: usize = total.parse().ok()?;
            if done >= total || (total != list.len() && done > 0) {
                return None;
            }
            done
        }
        // Init:CrashLoopBackOff / Init:Error: which one fails is not shown, unless there is
        // only one
        None if list.len() == 1 => 0,
        None => return None,
    };
    list.get(index).map(|(n, w)| ((*n).to_owned(), *w))
}

/// The container an event of the input names as failing in pod `p` (`Back-off restarting
/// failed container driver-validation in pod ...`, kubelet's kuberuntime_manager.go; `Error:
/// ...` of `Failed` events), as (container, event reason, message).
fn event_failure(ctx: &Context<'_>, p: &Pod) -> Option<(String, String, String)> {
    ctx.snapshot()
        .events
        .iter()
        .filter(|e| {
            e.involved_object.name == p.metadata.name
                && (e.involved_object.namespace.is_empty()
                    || e.involved_object.namespace == p.metadata.namespace)
                && e.type_ != "Normal"
        })
        .find_map(|e| {
            let container = e
                .message
                .split_once("failed container ")
                .map(|(_, r)| {
                    r.split([' ', '\'', '"'])
                        .find(|w| !w.is_empty())
                        .unwrap_or("")
                })
                .or_else(|| {
                    e.involved_object
                        .field_path
                        .strip_prefix("spec.initContainers{")
                        .or_else(|| {
                            e.involved_object
                                .field_path
                                .strip_prefix("spec.containers{")
                        })
                        .and_then(|r| r.strip_suffix('}'))
                })?;
            (!container.is_empty()).then(|| {
                (
                    container.to_owned(),
                    e.reason.clone(),
                    truncate(&e.message, 200),
                )
            })
        })
}

/// A GPU node the input knows only from the GPU component pods bound to it (the NODE column
/// of `kubectl get pods -o wide`, a `describe pod` `Node:` line) or from a `kubectl get nodes`
/// row that shows no resources, and whose GPU components show the reporting chain broken; or
/// failing GPU component pods of a listing without a NODE column (`kubectl get pods` without
/// `-o wide`), which run on nodes the input does not name.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PodChainBreak {
    /// The node's name; `None` when the listing does not show the pods' node.
    pub node: Option<String>,
    /// The deepest failing pod (`namespace`, `name`): the subject when the node is not known.
    pub pod: (String, String),
    /// The failing link (`PluginPodReady`) with the failing pod; its severity is Error when
    /// something besides a device-plugin pod says the node has GPUs (a GPU Operator operand or
    /// driver pod, which run only on GPU nodes, or the node's labels) or no pod of the plugin
    /// is Ready anywhere in the input, else Warning (a plugin that crash-loops on a node without
    /// GPUs while it runs elsewhere is a plugin scheduled too widely; validators failing while
    /// the node's plugin pod is Ready).
    pub failure: ChainFailure,
}

/// The chain breaks that GPU component pods show on nodes whose resources the input does not
/// hold (see [`PodChainBreak`]): a failing driver installer, container toolkit, GPU Operator
/// validator or device-plugin pod (CrashLoopBackOff, Error, `Init:x/y`,
/// `Init:CrashLoopBackOff`, ImagePullBackOff, ContainerCreating, Pending with a node), the
/// deepest one named first. With no GPU component pod in the input, nothing.
pub fn pod_only_breaks(ctx: &Context<'_>) -> Vec<PodChainBreak> {
    let snap = ctx.snapshot();
    // the pods of each node whose resources the input does not show; "" for pods that run on a
    // node the listing does not name (started: a container state or a STATUS other than
    // Pending, so not merely unscheduled)
    let mut groups: BTreeMap<&str, Vec<&Pod>> = BTreeMap::new();
    for p in &snap.pods {
        let name = p.spec.node_name.as_str();
        if name.is_empty() {
            let started = p.status.phase == "Running"
                || !p.status.reason.is_empty()
                || !p.status.container_statuses.is_empty()
                || !p.status.init_container_statuses.is_empty();
            if started && classify_pod(p).is_some() {
                groups.entry("").or_default().push(p);
            }
            continue;
        }
        let unknown_node = ctx.node(name).is_none_or(|node| {
            cube_model::describe::is_unknown(&node.metadata, "allocatable")
                && node.status.allocatable.is_empty()
                && node.status.capacity.is_empty()
        });
        if unknown_node {
            groups.entry(name).or_default().push(p);
        }
    }
    // device-plugin pods Ready anywhere in the input
    let ready_plugins: Vec<&Pod> = snap
        .pods
        .iter()
        .filter(|p| {
            pod_ready(p) == Some(true)
                && matches!(classify_pod(p), Some((GpuComponentRole::DevicePlugin, _)))
        })
        .collect();
    let mut out = Vec::new();
    for (name, on_node) in groups {
        let failing = failing_among(on_node.iter().copied());
        let Some(&(first, _)) = failing.first() else {
            continue;
        };
        let plugin = failing
            .iter()
            .find(|(_, b)| *b == Blocker::Plugin)
            .map_or(first, |(p, _)| *p);
        let node = ctx.node(name).cloned().unwrap_or_else(|| {
            let mut n = Node::default();
            n.metadata.name = name.to_owned();
            n
        });
        let vendor = on_node
            .iter()
            .filter_map(|p| classify_pod(p).and_then(|(_, v)| v))
            .next();
        let res = vendor.map_or("nvidia.com/gpu", GpuVendor::resource_name);
        // something besides the plugin pod says the node has GPUs
        let operand = on_node.iter().any(|p| {
            !p.is_terminal()
                && matches!(
                    classify_pod(p),
                    Some((
                        GpuComponentRole::Driver
                            | GpuComponentRole::Operand
                            | GpuComponentRole::FeatureDiscovery,
                        _
                    ))
                )
        });
        let labelled = !name.is_empty()
            && ctx
                .gpu_evidence()
                .iter()
                .zip(&snap.nodes)
                .any(|(ev, n)| n.metadata.name == name && ev.has_gpus());
        let plugin_elsewhere: Vec<&str> = if blocker_of(plugin) == Some(Blocker::Plugin) {
            let ds = plugin_ds_name(plugin);
            ready_plugins
                .iter()
                .filter(|p| {
                    p.metadata.namespace == plugin.metadata.namespace
                        && plugin_ds_name(p) == ds
                        && (name.is_empty() || p.spec.node_name != name)
                })
                .map(|p| {
                    if p.spec.node_name.is_empty() {
                        p.metadata.name.as_str()
                    } else {
                        p.spec.node_name.as_str()
                    }
                })
                .take(3)
                .collect()
        } else {
            Vec::new()
        };
        let strong = operand || labelled || plugin_elsewhere.is_empty();
        // only validators fail while a device-plugin pod of the node is Ready: the plugin link
        // holds (the CUDA or plugin validation fails on top of it); with no node shown, any
        // Ready plugin pod counts only when the listing has a single one
        let plugin_ready_here = if name.is_empty() {
            (ready_plugins.len() == 1).then(|| ready_plugins[0])
        } else {
            on_node.iter().copied().find(|p| {
                pod_ready(p) == Some(true)
                    && matches!(classify_pod(p), Some((GpuComponentRole::DevicePlugin, _)))
            })
        };
        let validators_only = failing.iter().all(|(_, b)| *b == Blocker::Validator);
        let severity = if validators_only && plugin_ready_here.is_some() {
            Severity::Warning
        } else if strong {
            Severity::Error
        } else {
            Severity::Warning
        };
        let mut fail =
            |link, detail: String, evidence: Vec<Evidence>, remedy: String| ChainFailure {
                link,
                detail,
                evidence,
                remedy,
                cause: None,
                severity,
            };
        let numbers = if name.is_empty() {
            Vec::new()
        } else {
            vec![Evidence::field(
                obj("Pod", &plugin.metadata.namespace, &plugin.metadata.name),
                "spec.nodeName",
                name,
            )]
        };
        let mut f = pod_failure_among(ctx, &mut fail, &node, plugin, res, &failing, numbers);
        if let Some(ready) = plugin_ready_here.filter(|_| validators_only) {
            f.detail.push_str(&format!(
                "; the device-plugin pod {}/{} is Ready, so {res} may be advertised, but GPU pods can fail the way the validation does",
                ready.metadata.namespace, ready.metadata.name
            ));
        } else if !strong {
            let here = if name.is_empty() { "its node" } else { name };
            f.detail.push_str(&format!(
                "; nothing else in the input says {here} has GPUs, and the plugin's pods are Ready on {}: if {here} has no GPU, the plugin crashes there by design (it fails when it finds no GPU) and its DaemonSet should select only GPU nodes (a nodeSelector or node affinity on a GPU label)",
                plugin_elsewhere.join(", ")
            ));
        }
        // the pod the detail names first
        let root = failing
            .iter()
            .find(|(d, b)| {
                *b < blocker_of(plugin).unwrap_or(Blocker::Plugin) && !std::ptr::eq(*d, plugin)
            })
            .map_or(plugin, |(d, _)| *d);
        out.push(PodChainBreak {
            node: (!name.is_empty()).then(|| name.to_owned()),
            pod: (root.metadata.namespace.clone(), root.metadata.name.clone()),
            failure: f,
        });
    }
    out
}

/// The DaemonSet a pod belongs to: its owner reference, else its name without the generated
/// suffix (`nvidia-device-plugin-daemonset-x7k2p` -> `nvidia-device-plugin-daemonset`).
pub(crate) fn plugin_ds_name(p: &Pod) -> &str {
    p.metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "DaemonSet")
        .map_or_else(
            || {
                p.metadata
                    .name
                    .rsplit_once('-')
                    .map_or(p.metadata.name.as_str(), |(a, _)| a)
            },
            |o| o.name.as_str(),
        )
}

fn pod_evidence(p: &Pod, numbers: &mut Vec<Evidence>) {
    let po = obj("Pod", &p.metadata.namespace, &p.metadata.name);
    numbers.push(Evidence::field(&po, "status.phase", &p.status.phase));
    if !p.status.reason.is_empty() {
        numbers.push(Evidence::field(&po, "STATUS", &p.status.reason));
    }
    for s in p
        .status
        .init_container_statuses
        .iter()
        .chain(&p.status.container_statuses)
    {
        if let Some(w) = s.state.as_ref().and_then(|st| st.waiting.as_ref())
            && !w.reason.is_empty()
            && w.reason != "PodInitializing"
        {
            numbers.push(Evidence::field(
                &po,
                format!("status.containerStatuses[{}].state.waiting.reason", s.name),
                &w.reason,
            ));
        }
    }
}

/// A GPU component pod's state ([`pod_state`]) with the init container it is stuck in (see
/// [`stuck_init_container`]) or the container its events name as failing, and that container's
/// name for `kubectl logs -c`.
fn component_state(ctx: &Context<'_>, p: &Pod) -> (String, Option<String>) {
    let mut state = pod_state(p);
    let mut container = None;
    if let Some((c, waits)) = stuck_init_container(p) {
        match (state.contains(&c), waits.is_empty()) {
            (false, false) => state.push_str(&format!("; init container {c} waits for {waits}")),
            (false, true) => state.push_str(&format!("; init container {c}")),
            (true, false) => state.push_str(&format!("; {c} waits for {waits}")),
            (true, true) => {}
        }
        container = Some(c);
    }
    if let Some((c, reason, message)) = event_failure(ctx, p) {
        if !state.contains(&message) {
            state.push_str(&format!("; event {reason}: {message}"));
        }
        if container.is_none() {
            let waits = OPERATOR_INIT_CONTAINERS
                .iter()
                .flat_map(|(_, l)| l.iter())
                .find(|(n, _)| *n == c)
                .map(|(_, w)| *w);
            if let Some(w) = waits {
                state.push_str(&format!(" (init container {c} waits for {w})"));
            }
            container = Some(c);
        }
    }
    (state, container)
}

/// What a pod's STATUS asks to check, beyond its log.
fn status_hint(p: &Pod) -> &'static str {
    let waiting = p
        .status
        .init_container_statuses
        .iter()
        .chain(&p.status.container_statuses)
        .filter_map(|s| s.state.as_ref().and_then(|st| st.waiting.as_ref()))
        .map(|w| w.reason.as_str());
    let reasons: Vec<&str> = std::iter::once(p.status.reason.as_str())
        .chain(waiting)
        .collect();
    if reasons.iter().any(|r| {
        r.contains("ImagePullBackOff")
            || r.contains("ErrImagePull")
            || r.contains("InvalidImageName")
    }) {
        "; the image cannot be pulled: the Events of `describe pod` name the image and the registry's answer (tag that does not exist for the node's OS or driver version, registry such as nvcr.io not reachable from the node, or a missing imagePullSecret)"
    } else if reasons.iter().any(|r| {
        r.contains("ContainerCreating")
            || r.contains("CreateContainer")
            || r.contains("RunContainerError")
    }) {
        "; the container cannot be created: the Events of `describe pod` say why (a RuntimeClass `nvidia` whose handler containerd or CRI-O does not have: `nvidia-ctk runtime configure` on the node, or a hostPath the driver should have created)"
    } else if p.status.phase == "Pending"
        && p.status.reason.is_empty()
        && p.status.init_container_statuses.is_empty()
        && p.status.container_statuses.is_empty()
    {
        "; the pod has not started: the Events of `describe pod` say why"
    } else {
        ""
    }
}

/// The failing link when a GPU component pod on the node is not Ready: the deepest failing
/// component (driver, toolkit, validator) is named first, with the device-plugin pod `p`
/// waiting behind it when `p` is a plugin pod.
fn pod_failure(
    ctx: &Context<'_>,
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    p: &Pod,
    res: &str,
    numbers: Vec<Evidence>,
) -> ChainFailure {
    let failing = failing_components(ctx, &node.metadata.name);
    pod_failure_among(ctx, fail, node, p, res, &failing, numbers)
}

/// [`pod_failure`] over the given failing components (deepest first).
fn pod_failure_among(
    ctx: &Context<'_>,
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    p: &Pod,
    res: &str,
    failing: &[(&Pod, Blocker)],
    mut numbers: Vec<Evidence>,
) -> ChainFailure {
    let own = blocker_of(p).unwrap_or(Blocker::Plugin);
    let root = failing
        .iter()
        .find(|(d, b)| *b < own && !std::ptr::eq(*d, p))
        .map_or((p, own), |(d, b)| (*d, *b));
    pod_evidence(root.0, &mut numbers);
    let (rns, rname) = (&root.0.metadata.namespace, &root.0.metadata.name);
    // `-n <namespace>` for the commands; nothing when the listing did not show the namespace
    // (kubectl then uses the context's namespace: the command still runs as printed)
    let rns_flag = if rns.is_empty() {
        String::new()
    } else {
        format!(" -n {}", crate::rules::shell_word(rns))
    };
    let (state, container) = component_state(ctx, root.0);
    // `<namespace>/<name>`, or the name alone when the listing showed no namespace
    let rpod = if rns.is_empty() {
        rname.clone()
    } else {
        format!("{rns}/{rname}")
    };
    let logs_c = container
        .as_deref()
        .map_or(" --all-containers".to_owned(), |c| format!(" -c {c}"));
    if root.1 == Blocker::Plugin {
        let waits_for_driver = p.status.init_container_statuses.iter().any(|s| {
            !s.ready
                && (s.name.contains("driver")
                    || s.name.contains("installer")
                    || s.name.contains("toolkit-validation")
                    || s.name.contains("validation"))
        }) || container
            .as_deref()
            .is_some_and(|c| c.ends_with("-validation"));
        let hint = if waits_for_driver {
            format!(
                "; the pod waits for the GPU driver: install it ({})",
                driver_hint(node)
            )
        } else {
            String::new()
        };
        return fail(
            ChainLink::PluginPodReady,
            format!(
                "the device-plugin pod {rpod} on the node is not Ready ({state}), so {res} is not registered"
            ),
            numbers,
            format!(
                "`kubectl{rns_flag} describe pod {rname}` and `kubectl{rns_flag} logs {rname}{logs_c}`{hint}{}",
                status_hint(root.0)
            ),
        );
    }
    let (what, blocks) = match root.1 {
        Blocker::Driver => (
            "GPU driver installer",
            format!(
                "the GPU driver is not installed on the node, so no device plugin can register {res}"
            ),
        ),
        Blocker::Toolkit => (
            "container toolkit",
            "the container runtime is not set up for GPUs, so the device plugin cannot start"
                .to_owned(),
        ),
        _ => (
            "GPU Operator validator",
            // what the failing validation means (NVIDIA/gpu-operator
            // assets/state-operator-validation/0500_daemonset.yaml: the init containers run in
            // this order; the toolkit and the device plugin wait for the driver and toolkit
            // validations in their own init containers)
            match container.as_deref() {
                Some("driver-validation") => format!(
                    "its driver validation finds no working NVIDIA driver on the node (host or driver container), and the container toolkit and device plugin wait for the same validation, so {res} is never registered"
                ),
                Some("toolkit-validation") => format!(
                    "the NVIDIA container toolkit is not validated on the node, and the device plugin waits for the same validation (its init container toolkit-validation), so {res} is never registered"
                ),
                Some("cuda-validation") => "a CUDA test workload (the nvidia-cuda-validator pod) fails on the node: the driver, CUDA or container runtime cannot run CUDA, and GPU pods will fail the same way".to_owned(),
                Some("plugin-validation") => format!(
                    "the device-plugin validation (a pod asking for {res}) fails: the plugin does not offer usable GPUs on the node"
                ),
                _ => format!(
                    "the GPU Operator's validations (driver, container toolkit, CUDA, device plugin, in that order) do not pass on the node, and the toolkit and device plugin wait for the driver and toolkit validations, so {res} is not registered until they pass"
                ),
            },
        ),
    };
    let mut detail = format!("the {what} pod {rpod} on the node is not Ready ({state}): {blocks}");
    if !std::ptr::eq(root.0, p) {
        pod_evidence(p, &mut numbers);
        detail.push_str(&format!(
            "; the {} pod {}/{} waits behind it ({})",
            if own == Blocker::Plugin {
                "device-plugin"
            } else {
                "GPU component"
            },
            p.metadata.namespace,
            p.metadata.name,
            component_state(ctx, p).0
        ));
    } else if let Some((plugin, _)) = failing
        .iter()
        .find(|(d, b)| *b == Blocker::Plugin && !std::ptr::eq(*d, root.0))
    {
        pod_evidence(plugin, &mut numbers);
        detail.push_str(&format!(
            "; the device-plugin pod {}/{} waits behind it ({})",
            plugin.metadata.namespace,
            plugin.metadata.name,
            component_state(ctx, plugin).0
        ));
    }
    // the other failing components, briefly (the CUDA validation workload pod beside the
    // operator validator, a second driver pod)
    let others: Vec<String> = failing
        .iter()
        .filter(|(d, _)| {
            !std::ptr::eq(*d, root.0) && !std::ptr::eq(*d, p) && !detail.contains(&d.metadata.name)
        })
        .take(3)
        .map(|(d, _)| {
            let status = if d.status.reason.is_empty() {
                d.status.phase.as_str()
            } else {
                d.status.reason.as_str()
            };
            format!("{}/{} ({status})", d.metadata.namespace, d.metadata.name)
        })
        .collect();
    if !others.is_empty() {
        detail.push_str(&format!("; also not Ready: {}", others.join(", ")));
    }
    let mut remedy = format!(
        "`kubectl{rns_flag} logs {rname}{logs_c}` (the failing container's log says why) and `kubectl{rns_flag} describe pod {rname}`{}",
        status_hint(root.0)
    );
    if root.1 == Blocker::Driver {
        remedy.push_str(&format!("; the driver: {}", driver_hint(node)));
    }
    fail(ChainLink::PluginPodReady, detail, numbers, remedy)
}

/// Each `(resource, capacity, allocatable)` of [`partial_devices`] on `node` told as
/// `<res>: capacity 8, allocatable 6 (2 device(s) reported unhealthy by the device plugin), 6 in
/// use by pods on the node, 0 free`, with the capacity and allocatable fields as evidence (and
/// the requests in use when `with_requested` and the input shows them). Shared by the GPU
/// chain and `gpu-not-advertised`'s other accelerators.
pub(crate) fn partial_devices_told(
    ctx: &Context<'_>,
    node: &Node,
    partial: &[(String, Quantity, Quantity)],
    with_requested: bool,
) -> (Vec<String>, Vec<Evidence>) {
    let o = obj("Node", "", &node.metadata.name);
    let mut parts = Vec::new();
    let mut evidence = Vec::new();
    for (res, cap, alloc) in partial {
        let lost = cap.value() - alloc.value();
        let used = node_resource_in_use(ctx, node, res);
        let usage = match used {
            Some(u) => format!(
                "{u} in use by pods on the node, {} free",
                (alloc.value() - u).max(0)
            ),
            None => "what is in use is not in the input".to_owned(),
        };
        parts.push(format!(
            "{res}: capacity {cap}, allocatable {alloc} ({lost} device(s) reported unhealthy by the device plugin), {usage}"
        ));
        evidence.push(Evidence::field(
            &o,
            format!("status.capacity.{res}"),
            cap.to_string(),
        ));
        evidence.push(Evidence::field(
            &o,
            format!("status.allocatable.{res}"),
            alloc.to_string(),
        ));
        if let (true, Some(u)) = (with_requested, used) {
            evidence.push(Evidence::field(
                &o,
                format!("requested.{res}"),
                u.to_string(),
            ));
        }
    }
    (parts, evidence)
}

/// `capacity 8, allocatable 6, 6 in use`: devices the plugin reports unhealthy, with what is in
/// use and free of the rest, and where to find the unhealthy devices.
fn partial_failure(
    ctx: &Context<'_>,
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    vendor: Option<GpuVendor>,
    partial: &[(String, Quantity, Quantity)],
) -> ChainFailure {
    let name = node.metadata.name.as_str();
    let (parts, evidence) = partial_devices_told(ctx, node, partial, true);
    let plugin_pod = ctx
        .pods_on_node(name)
        .iter()
        .map(|&i| ctx.pod(i))
        .find(|p| matches!(classify_pod(p), Some((GpuComponentRole::DevicePlugin, _))));
    let log = match plugin_pod {
        Some(p) => format!(
            "`kubectl -n {} logs {} | grep -i -e unhealthy -e xid`",
            p.metadata.namespace, p.metadata.name
        ),
        None => format!(
            "the device-plugin pod's log on {name} (`kubectl get pods -A -o wide --field-selector spec.nodeName={name} | grep -i device-plugin`, then `kubectl -n <namespace> logs <pod> | grep -i -e unhealthy -e xid`)"
        ),
    };
    let check = match vendor {
        Some(GpuVendor::Amd) => "`amd-smi monitor` (or `rocm-smi`) and `dmesg | grep -i amdgpu`",
        Some(GpuVendor::Intel) => "`dmesg | grep -i i915` and `ls /dev/dri`",
        _ => {
            "`nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER` and `dmesg | grep -i xid` (Xid 48, 63, 64, 74, 79, 92, 94, 95 mark a GPU unhealthy)"
        }
    };
    let mut f = fail(
        ChainLink::Allocatable,
        format!(
            "has fewer allocatable devices than capacity, so pods see only part of its GPUs (Insufficient while capacity shows more): {}",
            parts.join("; ")
        ),
        evidence,
        format!(
            "find the unhealthy devices: {log}; on the node {check}; reset the GPU or drain and reboot the node, then restart the device-plugin pod so it registers the devices as healthy again (NVIDIA: `DP_DISABLE_HEALTHCHECKS` only hides Xids that are known to be harmless)"
        ),
    );
    f.severity = Severity::Warning;
    f
}

fn unhealthy_failure(
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    cap: &[(&str, &Quantity)],
    mut numbers: Vec<Evidence>,
) -> ChainFailure {
    let name = &node.metadata.name;
    // HAMi's registration names the unhealthy GPUs
    let (hami, hami_evidence) = hami_unhealthy_told(node);
    numbers.extend(hami_evidence);
    fail(
        ChainLink::Allocatable,
        format!(
            "it has {} capacity {} but allocatable 0: the device plugin detects the GPUs but reports all of them unhealthy (or its pod stopped){}",
            cap[0].0,
            cap[0].1,
            if hami.is_empty() {
                String::new()
            } else {
                format!("; {}", hami.join("; "))
            }
        ),
        numbers,
        format!(
            "read the device-plugin pod log on {name} (`kubectl -n kube-system logs <device-plugin pod on {name}>`) and the kernel log for Xid errors (`dmesg | grep -i xid`); `nvidia-smi` on the node"
        ),
    )
}

/// The node's HAMi registration annotations that name unhealthy devices (or do not decode),
/// told: `2 of the 2 devices HAMi's device plugin registered in hami.io/node-nvidia-register
/// are unhealthy (health false): GPU-... (NVIDIA-...)`, with the annotations as evidence.
/// Empty when every registered device is healthy.
fn hami_unhealthy_told(node: &Node) -> (Vec<String>, Vec<Evidence>) {
    use crate::classify::hami::{device_text, registrations};
    let o = obj("Node", "", &node.metadata.name);
    let mut parts = Vec::new();
    let mut evidence = Vec::new();
    for r in registrations(node.metadata.annotations.iter()) {
        let bad = r.unhealthy();
        if bad.is_empty() {
            continue;
        }
        let mut names: Vec<String> = bad.iter().take(8).map(|d| device_text(d)).collect();
        if bad.len() > 8 {
            names.push(format!("and {} more", bad.len() - 8));
        }
        parts.push(format!(
            "{} of the {} device(s) HAMi's device plugin registered in {} are unhealthy (health false): {}",
            bad.len(),
            r.devices(),
            r.key,
            names.join(", ")
        ));
        evidence.push(Evidence::field(
            &o,
            format!("metadata.annotations[{}]", r.key),
            truncate(&r.value, 400),
        ));
    }
    (parts, evidence)
}

/// A node that advertises GPUs while HAMi's registration annotation
/// (`hami.io/node-nvidia-register` and the vendor variants, see
/// [`crate::classify::hami::decode_register`]) says some devices are unhealthy: hami-scheduler
/// skips a device whose health is false (Project-HAMi/HAMi pkg/device/nvidia/device.go `Fit`,
/// reason `CardNotHealth`), whatever allocatable says (the kubelet's allocatable and the
/// annotation are updated separately: Project-HAMi/HAMi#2020). Every device unhealthy is an
/// error (HAMi schedules nothing there), some a warning. An annotation HAMi cannot decode
/// (`failed to decode node devices`, pkg/device/nvidia/device.go `GetNodeDevices`) leaves
/// the node without HAMi devices: a warning.
fn hami_health_failure(
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    alloc: &[(&str, &Quantity)],
) -> Option<ChainFailure> {
    use crate::classify::hami::registrations;
    let name = node.metadata.name.as_str();
    let o = obj("Node", "", name);
    let regs = registrations(node.metadata.annotations.iter());
    if regs.is_empty() {
        return None;
    }
    let undecodable: Vec<&crate::classify::hami::NodeRegistration> = regs
        .iter()
        .filter(|r| r.decoded.is_err() && !r.value.trim().is_empty())
        .collect();
    let (parts, mut evidence) = hami_unhealthy_told(node);
    let registered: usize = regs.iter().map(|r| r.devices()).sum();
    let bad: usize = regs.iter().map(|r| r.unhealthy().len()).sum();
    let plugin_log = format!(
        "`kubectl get pods -A -o wide --field-selector spec.nodeName={name} | grep -i device-plugin`, then `kubectl -n <namespace> logs <that pod> | grep -i -e unhealthy -e xid -e 'health='`"
    );
    if bad > 0 {
        let advertised = alloc
            .iter()
            .map(|(k, q)| format!("{k} {q}"))
            .collect::<Vec<_>>()
            .join(", ");
        evidence.extend(
            alloc.iter().map(|(k, q)| {
                Evidence::field(&o, format!("status.allocatable.{k}"), q.to_string())
            }),
        );
        let all = bad >= registered;
        let mut f = fail(
            ChainLink::Allocatable,
            format!(
                "registers its devices with HAMi but {}: hami-scheduler skips an unhealthy device (reason CardNotHealth), so pods asking HAMi for GPUs {} on {name} although allocatable shows {advertised}",
                parts.join("; "),
                if all {
                    "cannot be placed"
                } else {
                    "get only the healthy ones"
                }
            ),
            evidence,
            format!(
                "find why the plugin marks them unhealthy: the HAMi device plugin's log on {name} ({plugin_log}: `XidCriticalError: Xid=... marking device as unhealthy` names the Xid); on the node `nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER` and `dmesg | grep -i xid`; reset the GPU or drain and reboot the node, then restart the HAMi device-plugin pod so it registers the devices healthy again"
            ),
        );
        if !all {
            f.severity = Severity::Warning;
        }
        return Some(f);
    }
    let r = undecodable.first()?;
    let err = r.decoded.as_ref().err().cloned().unwrap_or_default();
    let mut f = fail(
        ChainLink::PluginPodReady,
        format!(
            "its HAMi registration annotation {} does not decode ({err}): hami-scheduler cannot read it either (`failed to decode node devices`) and sees no HAMi device on the node",
            r.key
        ),
        vec![Evidence::field(
            &o,
            format!("metadata.annotations[{}]", r.key),
            truncate(&r.value, 400),
        )],
        format!(
            "the annotation is written by the HAMi device plugin on {name}: a plugin older or newer than hami-scheduler writes another encoding (v2.8 and later write JSON); run the same HAMi version for both (`helm -n <namespace> list`), then restart the device-plugin pod ({plugin_log})"
        ),
    );
    f.severity = Severity::Warning;
    Some(f)
}

/// A GPU resource listed at 0 (`nvidia.com/gpu: 0`). Two readings, separated by the plugin
/// pod on the node (fresh-user report F33): the kubelet writes capacity 0 for a device-plugin
/// resource whose plugin registered before and whose endpoint has been gone past the grace
/// period (kubernetes/kubernetes pkg/kubelet/nodestatus/setters.go `MachineInfo`: `Set
/// capacity for removed resource to 0 on device removal`; pkg/kubelet/cm/devicemanager
/// manager.go `GetCapacity`: the removed resources of stopped endpoints), so a plugin that is
/// gone (crashed, evicted, its DaemonSet changed) reads 0; a plugin that still runs and
/// reports no healthy device reads 0 too (the NVIDIA plugin finding no GPU at all does not
/// register: NVIDIA/k8s-device-plugin `No devices found. Waiting indefinitely.`).
fn zero_failure(
    ctx: &Context<'_>,
    fail: &mut impl FnMut(ChainLink, String, Vec<Evidence>, String) -> ChainFailure,
    node: &Node,
    vendor: Option<GpuVendor>,
    listed: &[(&str, &Quantity)],
    numbers: Vec<Evidence>,
) -> ChainFailure {
    let names: BTreeSet<&str> = listed.iter().map(|(k, _)| *k).collect();
    let res = names.iter().copied().collect::<Vec<_>>().join(", ");
    let name = node.metadata.name.as_str();
    let check = match vendor {
        Some(GpuVendor::Intel) => "`dmesg | grep i915` and `ls /dev/dri`",
        Some(GpuVendor::Amd) => "`dmesg | grep amdgpu` and `ls /dev/kfd /dev/dri`",
        _ => "`nvidia-smi` and `dmesg | grep -i -e nvrm -e xid`",
    };
    let snap = ctx.snapshot();
    let plugin_pods: Vec<&Pod> = snap
        .pods
        .iter()
        .filter(|p| matches!(classify_pod(p), Some((GpuComponentRole::DevicePlugin, _))))
        .collect();
    let here: Vec<&Pod> = plugin_pods
        .iter()
        .copied()
        .filter(|p| p.spec.node_name == name && !p.is_terminal())
        .collect();
    let running = here
        .iter()
        .find(|p| p.status.phase == "Running" && pod_ready(p) != Some(false));
    let gone = "the kubelet writes 0 for a device-plugin resource whose plugin registered on this node before and has been gone past the grace period (pkg/kubelet/nodestatus/setters.go: `Set capacity for removed resource to 0 on device removal`)";
    let (detail, remedy) = if let Some(p) = running {
        (
            format!(
                "the kubelet lists {res} with 0 devices while the device-plugin pod {} runs on the node: the plugin registered and reports no healthy device (driver not loaded or not bound, device nodes missing in its container), unless it restarted and has not registered again",
                p.key()
            ),
            format!(
                "read the plugin's log (`kubectl -n {} logs {} --all-containers`) and check the driver on {name}: {check}",
                p.metadata.namespace, p.metadata.name
            ),
        )
    } else if !plugin_pods.is_empty() {
        (
            format!(
                "the kubelet lists {res} with 0 devices and no running device-plugin pod of the input is on this node ({}): {gone}; the plugin is gone from the node, not the GPUs",
                if here.is_empty() {
                    "its pods run on other nodes only".to_owned()
                } else {
                    here.iter()
                        .map(|p| format!("{} {}", p.key(), p.status.phase))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
            format!(
                "find out why the device plugin does not run on {name}: `kubectl get pods -A -o wide --field-selector spec.nodeName={name}` and the plugin DaemonSet's selector, tolerations and events; once it runs and registers, the capacity comes back; then the driver if it still reads 0: {check}"
            ),
        )
    } else {
        (
            format!(
                "the kubelet lists {res} with 0 devices: either {gone} (a crashed, evicted or removed plugin), or a plugin that still runs reports no healthy device; the input shows no device-plugin pod to tell them apart"
            ),
            format!(
                "tell them apart: `kubectl get pods -A -o wide --field-selector spec.nodeName={name} | grep -i device-plugin` (no running plugin pod: the plugin is gone, fix its DaemonSet or pod; a running one: read its log), and the kubelet log on {name} (`journalctl -u kubelet | grep -i 'device plugin'`); then the driver: {check}"
            ),
        )
    };
    fail(ChainLink::InCapacity, detail, numbers, remedy)
}

/// Who writes the labels an exclusion needs and how to get them written, and the toleration
/// patches it needs: (note, remedies). Node-lifecycle taints (`node.kubernetes.io/*`) get no
/// patch: they go away with the node's condition.
pub fn exclusion_fixes(
    ctx: &Context<'_>,
    ds: &DaemonSet,
    node: &Node,
    ex: &Exclusion,
) -> (String, Vec<String>) {
    let nfd = nfd_workers(ctx);
    let (note, mut fixes) = label_origin(node, ex, &nfd);
    for t in &ex.taints {
        if !t.key.starts_with("node.kubernetes.io/") {
            fixes.push(format!("`{}`", toleration_patch(ds, t)));
        }
    }
    (note, fixes)
}

/// Who writes the labels an exclusion needs, and how to get them written: (note, remedies).
fn label_origin(node: &Node, ex: &Exclusion, nfd: &[&DaemonSet]) -> (String, Vec<String>) {
    let name = &node.metadata.name;
    let labels = &node.metadata.labels;
    let overwrite = |k: &str| {
        if labels.contains_key(k) {
            " --overwrite"
        } else {
            ""
        }
    };
    let mut notes = Vec::new();
    let mut fixes = Vec::new();
    for (k, v) in ex.needed_labels() {
        let want = v.clone().unwrap_or_else(|| "true".to_owned());
        if k.starts_with("feature.node.kubernetes.io/") {
            // written by node feature discovery's worker on the node
            let blocked: Vec<(&DaemonSet, Vec<Taint>)> = nfd
                .iter()
                .map(|ds| (*ds, untolerated_by(ds, node)))
                .collect();
            if !blocked.is_empty() && blocked.iter().all(|(_, t)| !t.is_empty()) {
                let (ds, t) = &blocked[0];
                notes.push(format!(
                    "{k} is written by node feature discovery, whose worker DaemonSet {}/{} does not tolerate taint {}, so it never labels the node",
                    ds.metadata.namespace,
                    ds.metadata.name,
                    t.iter().map(taint_text).collect::<Vec<_>>().join(", ")
                ));
                for t in t {
                    fixes.push(format!("`{}`", toleration_patch(ds, t)));
                }
            } else if k.contains("10de") {
                let class_prefixed: Vec<&str> = labels
                    .keys()
                    .filter(|l| {
                        l.starts_with("feature.node.kubernetes.io/pci-")
                            && l.ends_with("_10de.present")
                    })
                    .collect();
                if !class_prefixed.is_empty() {
                    notes.push(format!(
                        "NFD labelled the NVIDIA device with the PCI class in the key ({}), not {k}",
                        class_prefixed.join(", ")
                    ));
                } else {
                    notes.push(format!(
                        "{k} is written by node feature discovery, which has not labelled the node"
                    ));
                }
                fixes.push(format!(
                    "`kubectl label node {name} {k}={want}{}`",
                    overwrite(&k)
                ));
            } else {
                notes.push(format!(
                    "{k} is written by node feature discovery, which has not labelled the node"
                ));
                fixes.push(format!(
                    "`kubectl label node {name} {k}={want}{}`",
                    overwrite(&k)
                ));
            }
        } else if k.starts_with("nvidia.com/gpu.deploy.") {
            if labels.get(&k).is_some_and(|v| v == "false")
                || labels
                    .get("nvidia.com/gpu.deploy.operands")
                    .is_some_and(|v| v == "false")
            {
                notes.push(format!("the operand is switched off on the node by label ({k}=false or nvidia.com/gpu.deploy.operands=false)"));
                fixes.push(format!("`kubectl label node {name} {k}=true nvidia.com/gpu.deploy.operands=true --overwrite`"));
            } else {
                let nfd_gpu = [
                    "feature.node.kubernetes.io/pci-10de.present",
                    "feature.node.kubernetes.io/pci-0302_10de.present",
                    "feature.node.kubernetes.io/pci-0300_10de.present",
                ];
                if nfd_gpu
                    .iter()
                    .any(|l| labels.get(l).is_some_and(|v| v == "true"))
                {
                    notes.push(format!("the GPU Operator sets {k} on nodes NFD labelled pci-10de, and {name} has that label: the operator has not reconciled it, or no GPU Operator runs and the label must be set by hand"));
                } else if !labels
                    .keys()
                    .any(|l| l.starts_with("feature.node.kubernetes.io/"))
                {
                    // the operator labels only nodes NFD labelled (NVIDIA/gpu-operator
                    // controllers/state_manager.go gpuNodeLabels: pci-10de / pci-0302_10de /
                    // pci-0300_10de); a node without any NFD label was never seen by NFD
                    notes.push(format!(
                        "the GPU Operator sets {k} only on nodes that node feature discovery labelled with an NVIDIA PCI device (feature.node.kubernetes.io/pci-10de.present), and NFD has not labelled {name} at all (no feature.node.kubernetes.io/* label): {}",
                        nfd_absence(node, nfd)
                    ));
                    for ds in nfd {
                        for t in untolerated_by(ds, node) {
                            fixes.push(format!("`{}`", toleration_patch(ds, &t)));
                        }
                    }
                } else {
                    notes.push(format!("the GPU Operator sets {k} only on nodes that NFD labelled feature.node.kubernetes.io/pci-10de.present (or pci-0302_10de / pci-0300_10de), and {name} has none of them"));
                }
                fixes.push(format!(
                    "`kubectl label node {name} {k}={want}{}`",
                    overwrite(&k)
                ));
            }
        } else {
            fixes.push(format!(
                "`kubectl label node {name} {k}={want}{}`",
                overwrite(&k)
            ));
        }
    }
    if !ex.needed_labels().is_empty() && ex.taints.is_empty() {
        fixes.push(
            "change the DaemonSet's nodeSelector / node affinity to a label the GPU nodes carry"
                .to_owned(),
        );
    }
    (notes.join("; "), fixes)
}

/// Why node feature discovery has not labelled `node`: its worker DaemonSets of the input do
/// not tolerate the node's taints (named, with the taint), or none is in the input (NFD not
/// installed: the GPU Operator chart's `nfd.enabled=false` without an NFD of its own), or its
/// worker should run there and does not.
fn nfd_absence(node: &Node, nfd: &[&DaemonSet]) -> String {
    if nfd.is_empty() {
        return "no node-feature-discovery worker DaemonSet is in the input: NFD is not installed (the GPU Operator chart's nfd.enabled=false, or a cluster without NFD), or the input does not list it (`kubectl get daemonsets -A | grep -i feature-discovery`)".to_owned();
    }
    let blocked: Vec<(&DaemonSet, Vec<Taint>)> = nfd
        .iter()
        .map(|ds| (*ds, untolerated_by(ds, node)))
        .filter(|(_, t)| !t.is_empty())
        .collect();
    if blocked.len() == nfd.len() {
        let (ds, t) = &blocked[0];
        return format!(
            "its worker DaemonSet {}/{} does not tolerate taint {}, so no NFD worker runs on the node",
            ds.metadata.namespace,
            ds.metadata.name,
            t.iter().map(taint_text).collect::<Vec<_>>().join(", ")
        );
    }
    let ds = nfd[0];
    let ex = exclusion(ds, node);
    if ex.excludes() {
        return format!(
            "its worker DaemonSet {}/{} does not select the node ({})",
            ds.metadata.namespace,
            ds.metadata.name,
            ex.describe()
        );
    }
    format!(
        "its worker DaemonSet {}/{} selects the node, so its worker pod there is not running or cannot reach the API server (`kubectl -n {} get pods -o wide | grep {}` and that pod's log)",
        ds.metadata.namespace, ds.metadata.name, ds.metadata.namespace, node.metadata.name
    )
}

/// A managed Kubernetes platform (or distribution) whose GPU nodes get their driver and device
/// plugin in its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    /// Google Kubernetes Engine.
    Gke,
    /// Azure Kubernetes Service.
    Aks,
    /// Amazon EKS.
    Eks,
    /// Oracle Container Engine for Kubernetes.
    Oke,
}

/// The managed platform a node belongs to, from the labels and fields the platform sets: GKE
/// `cloud.google.com/gke-*` labels or a `-gke.` kubelet version; AKS
/// `kubernetes.azure.com/*` labels; EKS `eks.amazonaws.com/*` labels or an `-eks-` kubelet
/// version; OKE an `ocid1.instance` provider ID or `oci.oraclecloud.com/*` labels.
pub(crate) fn managed_platform(node: &Node) -> Option<Platform> {
    let labels = &node.metadata.labels;
    let has = |prefix: &str| labels.keys().any(|k| k.starts_with(prefix));
    let kubelet = node.status.node_info.kubelet_version.as_str();
    let provider = node.spec.provider_id.as_str();
    if has("cloud.google.com/gke-") || kubelet.contains("-gke.") || provider.starts_with("gce://") {
        Some(Platform::Gke)
    } else if has("kubernetes.azure.com/") {
        Some(Platform::Aks)
    } else if has("eks.amazonaws.com/") || kubelet.contains("-eks-") {
        Some(Platform::Eks)
    } else if has("oci.oraclecloud.com/") || provider.starts_with("ocid1.instance") {
        Some(Platform::Oke)
    } else {
        None
    }
}

/// The taints among the node's GPU sources (`nvidia.com/gpu=present:NoSchedule`), when taints
/// are all that says the node has GPUs.
fn taint_only(ev: &NodeGpuEvidence) -> Option<String> {
    let claims: Vec<&GpuSource> = ev.claims().collect();
    (!claims.is_empty() && claims.iter().all(|s| s.kind == GpuSourceKind::Taint)).then(|| {
        claims
            .iter()
            .map(|s| {
                format!(
                    "{}{}",
                    s.key,
                    if s.value.starts_with(':') {
                        s.value.clone()
                    } else {
                        format!("={}", s.value)
                    }
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// The first link that breaks on a managed platform's GPU node that advertises nothing while
/// the input holds no device plugin: (link, detail, remedy). `None` where the platform has no
/// more to say than the generic chain.
///
/// - GKE runs its own device plugin (DaemonSet `kube-system/nvidia-gpu-device-plugin-*`,
///   required node affinity `cloud.google.com/gke-accelerator` Exists:
///   GoogleCloudPlatform/container-engine-accelerators cmd/nvidia_gpu/device-plugin.yaml) whose
///   init containers install the driver when the node pool was created with
///   `gpu-driver-version=default|latest` (node label `cloud.google.com/gke-gpu-driver-version`);
///   without it the driver comes from the `nvidia-driver-installer` DaemonSet a user applies
///   (nvidia-driver-installer/cos/daemonset-preloaded.yaml: affinity gke-accelerator Exists,
///   gke-gpu-driver-version DoesNotExist); the plugin waits for the driver meanwhile (`GPU driver
///   auto installation is disabled. Waiting for GPU driver libraries to be available.`). GKE taints
///   GPU nodes `nvidia.com/gpu=present:NoSchedule`; the label `gke-no-default-nvidia-gpu-device-plugin=true`
///   switches its plugin off on the node.
/// - AKS installs the driver with the node image but no device plugin: the NVIDIA DaemonSet of
///   the AKS GPU guide (or the GPU Operator) must tolerate the pool's taint, `sku=gpu:NoSchedule`
///   in that guide; NVIDIA's own manifests and chart tolerate only `nvidia.com/gpu`
///   (NVIDIA/k8s-device-plugin deployments/static/nvidia-device-plugin.yml, chart values.yaml).
/// - EKS: the accelerated AMIs carry the driver and the container toolkit; managed node groups
///   run no device plugin (the NVIDIA chart or the GPU Operator is installed by the user).
/// - OKE: Oracle's GPU images carry the driver; the device plugin is the `NvidiaGpuPlugin`
///   cluster add-on.
fn platform_link(
    ctx: &Context<'_>,
    p: Platform,
    node: &Node,
    ev: &NodeGpuEvidence,
) -> Option<(ChainLink, String, String)> {
    let name = node.metadata.name.as_str();
    let labels = &node.metadata.labels;
    let by_taint = taint_only(ev).map_or(String::new(), |t| {
        format!(
            "the node is a GPU node by its taint {t} alone (no GPU label, no advertised resource); "
        )
    });
    let n_ds = ctx.snapshot().daemon_sets.len();
    let ds_note = if n_ds == 0 {
        " (the input holds no DaemonSet to confirm it)"
    } else {
        " (none of the input's DaemonSets is a device plugin)"
    };
    match p {
        Platform::Gke => {
            if labels
                .get("gke-no-default-nvidia-gpu-device-plugin")
                .is_some_and(|v| v == "true")
            {
                return Some((
                    ChainLink::PluginSelects,
                    format!(
                        "{by_taint}on GKE; the node carries gke-no-default-nvidia-gpu-device-plugin=true, which switches GKE's own device plugin off there (and with it the driver installation of its init containers), and no other device plugin covers it{ds_note}"
                    ),
                    format!(
                        "install a device plugin for the node (the NVIDIA GPU Operator or the NVIDIA chart, tolerating nvidia.com/gpu=present:NoSchedule) and the driver (`kubectl apply -f https://raw.githubusercontent.com/GoogleCloudPlatform/container-engine-accelerators/master/nvidia-driver-installer/cos/daemonset-preloaded.yaml`), or remove the label from the node pool; then `kubectl -n kube-system get pods -o wide --field-selector spec.nodeName={name}`"
                    ),
                ));
            }
            // an excerpt without the node's labels (`describe node` cut at `Taints:`) says
            // nothing about them
            let labels_shown = !labels.is_empty();
            if labels_shown && !labels.contains_key("cloud.google.com/gke-accelerator") {
                return Some((
                    ChainLink::LabelsPresent,
                    format!(
                        "{by_taint}on GKE, but the node lacks cloud.google.com/gke-accelerator, the label GKE's device plugin (kube-system/nvidia-gpu-device-plugin) and its nvidia-driver-installer select through required node affinity: GKE sets it on node pools created with --accelerator, so this node's pool has no GPU attached in GKE's view (the taint was added by hand or by a provisioner){ds_note}"
                    ),
                    format!(
                        "create the GPU node pool with `gcloud container node-pools create ... --accelerator type=<gpu type>,count=<n>,gpu-driver-version=default` (GKE then labels, taints and runs the plugin), or for a pool GKE does not manage install the NVIDIA GPU Operator; check with `kubectl get node {name} -L cloud.google.com/gke-accelerator,cloud.google.com/gke-gpu-driver-version`"
                    ),
                ));
            }
            let driver = labels.get("cloud.google.com/gke-gpu-driver-version");
            let (state, fix) = match driver {
                None if !labels_shown => (
                    "its labels are not in the input, so whether GKE installs its driver (label cloud.google.com/gke-gpu-driver-version, set on node pools created with gpu-driver-version=default|latest) cannot be told; without that label GKE installs no driver and its device plugin waits in its init container for driver libraries until the nvidia-driver-installer DaemonSet installs them, the usual first broken link of such a node".to_owned(),
                    format!("`kubectl get node {name} -L cloud.google.com/gke-accelerator,cloud.google.com/gke-gpu-driver-version` tells: without gpu-driver-version install the driver (`kubectl apply -f https://raw.githubusercontent.com/GoogleCloudPlatform/container-engine-accelerators/master/nvidia-driver-installer/cos/daemonset-preloaded.yaml`, Ubuntu node images: nvidia-driver-installer/ubuntu/daemonset-preloaded.yaml) or recreate the node pool with `--accelerator type=<gpu type>,count=<n>,gpu-driver-version=default`"),
                ),
                None | Some("disabled") => (
                    format!("the node has no driver GKE installs (label cloud.google.com/gke-gpu-driver-version {}: the node pool was created without gpu-driver-version, or with gpu-driver-version=disabled), so GKE's device plugin waits in its init container for driver libraries until the nvidia-driver-installer DaemonSet installs them", driver.map_or("absent".to_owned(), |v| format!("={v}"))),
                    "install the driver: `kubectl apply -f https://raw.githubusercontent.com/GoogleCloudPlatform/container-engine-accelerators/master/nvidia-driver-installer/cos/daemonset-preloaded.yaml` (Ubuntu node images: nvidia-driver-installer/ubuntu/daemonset-preloaded.yaml), or recreate the node pool with `--accelerator type=<gpu type>,count=<n>,gpu-driver-version=default`".to_owned(),
                ),
                Some(v) => (
                    format!("GKE installs the driver on it (cloud.google.com/gke-gpu-driver-version={v}) in the init containers of its device-plugin pod, so the driver installation or the plugin pod on the node is failing"),
                    format!("read the GKE plugin pod's init containers on the node: `kubectl -n kube-system logs -l k8s-app=nvidia-gpu-device-plugin --all-containers --prefix` (the pod on {name}); a driver version the GPU does not support (gpu-driver-version=latest vs default) or a node image without the preloaded installer fails there"),
                ),
            };
            Some((
                ChainLink::PluginPodReady,
                format!("{by_taint}on GKE the device plugin is GKE's own, but {state}{ds_note}"),
                format!(
                    "{fix}; then `kubectl -n kube-system get pods -o wide --field-selector spec.nodeName={name} | grep nvidia` shows the nvidia-gpu-device-plugin pod Ready and the node's Allocatable nvidia.com/gpu"
                ),
            ))
        }
        Platform::Aks => {
            let taint = node
                .spec
                .taints
                .iter()
                .find(|t| t.key == "sku" && t.value == "gpu")
                .or_else(|| {
                    node.spec.taints.iter().find(|t| {
                        t.effect == "NoSchedule" && !t.key.starts_with("node.kubernetes.io/")
                    })
                });
            let tol = taint.map_or(String::new(), |t| {
                format!(", with a toleration for the node's taint {} (NVIDIA's own manifests and chart tolerate only nvidia.com/gpu, so a plugin applied without it never lands on this node)", taint_text(t))
            });
            Some((
                ChainLink::PluginSelects,
                format!(
                    "{by_taint}on AKS the node image brings the NVIDIA driver, but AKS runs no device plugin: nothing registers nvidia.com/gpu until one is installed{tol}{ds_note}"
                ),
                format!(
                    "apply the NVIDIA device-plugin DaemonSet of the AKS GPU guide (`kubectl create namespace gpu-resources`, then `kubectl apply -f nvidia-device-plugin-ds.yaml`, the NVIDIA/k8s-device-plugin image with `tolerations: [{{key: sku, operator: Equal, value: gpu, effect: NoSchedule}}]`) or install the NVIDIA GPU Operator with the node pool created with `--gpu-driver none`; then `kubectl get pods -A -o wide --field-selector spec.nodeName={name} | grep -i nvidia`"
                ),
            ))
        }
        // Bottlerocket's NVIDIA variants run the device plugin as part of the OS
        Platform::Eks
            if node
                .status
                .node_info
                .os_image
                .to_ascii_lowercase()
                .contains("bottlerocket") =>
        {
            None
        }
        Platform::Eks => Some((
            ChainLink::PluginSelects,
            format!(
                "{by_taint}on EKS the accelerated AMI brings the NVIDIA driver and container toolkit, but managed node groups run no device plugin (Bottlerocket's NVIDIA variant and EKS Auto Mode run their own): nothing registers nvidia.com/gpu until the NVIDIA device plugin (or the GPU Operator) is installed with tolerations for the node's taints{ds_note}"
            ),
            format!(
                "`helm upgrade -i nvdp nvdp/nvidia-device-plugin --repo https://nvidia.github.io/k8s-device-plugin -n nvidia-device-plugin --create-namespace` (its tolerations cover nvidia.com/gpu; add the node's other taints), or the NVIDIA GPU Operator with driver.enabled=false on the accelerated AMI; then `kubectl get pods -A -o wide --field-selector spec.nodeName={name} | grep -i nvidia`"
            ),
        )),
        Platform::Oke => Some((
            ChainLink::PluginSelects,
            format!(
                "{by_taint}on OKE the device plugin is the NVIDIA GPU Plugin cluster add-on and the driver comes with Oracle's GPU node images: the add-on is disabled, or the node's image is not a GPU image{ds_note}"
            ),
            format!(
                "enable the NvidiaGpuPlugin add-on of the cluster (`oci ce cluster install-addon --addon-name NvidiaGpuPlugin --cluster-id <cluster OCID>`) and use an Oracle GPU image for the node pool; then `kubectl -n kube-system get pods -o wide --field-selector spec.nodeName={name} | grep -i nvidia`"
            ),
        )),
    }
}

fn install_hint(vendor: Option<GpuVendor>, node: &Node) -> String {
    let l = &node.metadata.labels;
    match vendor {
        Some(GpuVendor::Amd) => "`kubectl create -f https://raw.githubusercontent.com/ROCm/k8s-device-plugin/master/k8s-ds-amdgpu-dp.yaml` or the AMD GPU Operator".to_owned(),
        Some(GpuVendor::Intel) => "the Intel device plugins operator with a GpuDevicePlugin, or `kubectl apply -k 'https://github.com/intel/intel-device-plugins-for-kubernetes/deployments/gpu_plugin?ref=main'`".to_owned(),
        _ if l.contains_key("cloud.google.com/gke-accelerator") => "GKE runs its own plugin once the driver is installed: `kubectl apply -f https://raw.githubusercontent.com/GoogleCloudPlatform/container-engine-accelerators/master/nvidia-driver-installer/cos/daemonset-preloaded-latest.yaml`".to_owned(),
        _ => "`helm upgrade -i nvdp nvdp/nvidia-device-plugin --repo https://nvidia.github.io/k8s-device-plugin -n nvidia-device-plugin --create-namespace` or the NVIDIA GPU Operator".to_owned(),
    }
}

fn driver_hint(node: &Node) -> String {
    if node
        .metadata
        .labels
        .contains_key("cloud.google.com/gke-accelerator")
    {
        "on GKE: `kubectl apply -f https://raw.githubusercontent.com/GoogleCloudPlatform/container-engine-accelerators/master/nvidia-driver-installer/cos/daemonset-preloaded-latest.yaml`, or create the node pool with gpu-driver-version=default".to_owned()
    } else {
        "the GPU Operator's driver DaemonSet (`kubectl -n gpu-operator logs -l app=nvidia-driver-daemonset --all-containers`) or a host driver (`nvidia-smi` must work on the node)".to_owned()
    }
}

/// A device-plugin DaemonSet and the GPU nodes it leaves without any plugin of their vendor.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PluginGap<'a> {
    /// The DaemonSet.
    pub ds: &'a DaemonSet,
    /// GPU nodes it excludes that no other plugin of their vendor covers, with the exclusion and
    /// whether the node advertises its GPUs anyway.
    pub excluded: Vec<(&'a Node, Exclusion, bool)>,
    /// GPU nodes of its vendor in the input.
    pub gpu_nodes: usize,
}

/// For every device-plugin DaemonSet, the GPU nodes of its vendor it excludes and that no other
/// plugin covers.
pub fn plugin_gaps<'a>(ctx: &'a Context<'_>) -> Vec<PluginGap<'a>> {
    let plugins = plugins(ctx);
    let snap = ctx.snapshot();
    let gpu_nodes: Vec<(&Node, &NodeGpuEvidence, Option<GpuVendor>)> = ctx
        .gpu_evidence()
        .iter()
        .zip(&snap.nodes)
        // identical-hardware siblings are too weak to ask for the plugin there (its remedy
        // would label a possibly CPU-only node as a GPU node); gpu-not-advertised warns instead
        .filter(|(ev, _)| ev.has_gpus() && !ev.from_hardware_siblings_only())
        .map(|(ev, n)| (n, ev, node_vendor(ev, &plugins)))
        .collect();
    plugins
        .iter()
        .map(|p| {
            let mine: Vec<&(&Node, &NodeGpuEvidence, Option<GpuVendor>)> =
                gpu_nodes.iter().filter(|(_, _, v)| serves(p, *v)).collect();
            let excluded = mine
                .iter()
                .filter_map(|(n, ev, v)| {
                    let ex = exclusion(p.ds, n);
                    if !ex.excludes() {
                        return None;
                    }
                    let covered = plugins.iter().any(|o| {
                        !std::ptr::eq(o.ds, p.ds) && serves(o, *v) && !exclusion(o.ds, n).excludes()
                    });
                    (!covered).then(|| (*n, ex, !ev.allocatable_of(*v).is_empty()))
                })
                .collect();
            PluginGap {
                ds: p.ds,
                excluded,
                gpu_nodes: mine.len(),
            }
        })
        .collect()
}

/// A GPU node on which no pod of a device plugin runs while a pod listing of the input (a
/// `kubectl get pods -o wide` table with its NODE column) shows that plugin's pods on other
/// nodes, and no device-plugin DaemonSet of its vendor is in the input (with one, the chain's
/// selector and toleration links tell): the plugin's DaemonSet places no pod on the node.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PluginPodMissing<'a> {
    /// The GPU node.
    pub node: &'a Node,
    /// Its GPU evidence.
    pub evidence: &'a NodeGpuEvidence,
    /// The plugin's namespace and DaemonSet name (from its pods).
    pub daemon_set: (String, String),
    /// Nodes its pods run on (at most five).
    pub elsewhere: Vec<String>,
    /// Taints of the node that no plugin pod's node shares (the DaemonSet may not tolerate them).
    pub taints: Vec<&'a Taint>,
    /// Labels every node with a plugin pod has and this node lacks (the DaemonSet may select on
    /// them), when the input shows those nodes' labels.
    pub missing_labels: Vec<(String, String)>,
}

/// See [`PluginPodMissing`]. Nodes known only from siblings, NotReady nodes, nodes that advertise
/// their GPUs and nodes with any device-plugin pod are left out.
pub fn plugin_pods_missing<'a>(ctx: &'a Context<'_>) -> Vec<PluginPodMissing<'a>> {
    let snap = ctx.snapshot();
    // device-plugin pods of a listing that shows their node
    let listed: Vec<&Pod> = snap
        .pods
        .iter()
        .filter(|p| {
            !p.spec.node_name.is_empty()
                && !p.is_terminal()
                && cube_model::describe::from_get_table(&p.metadata)
                && matches!(classify_pod(p), Some((GpuComponentRole::DevicePlugin, _)))
        })
        .collect();
    if listed.is_empty() {
        return Vec::new();
    }
    let plugins = plugins(ctx);
    let mut out = Vec::new();
    for (ev, n) in ctx.gpu_evidence().iter().zip(&snap.nodes) {
        // a GPU pod running there shows the node advertises GPUs (through a plugin the input
        // does not name)
        if !ev.has_gpus()
            || ev.from_siblings_only()
            || ev
                .sources
                .iter()
                .any(|s| s.kind == GpuSourceKind::GpuPodOnNode)
        {
            continue;
        }
        let vendor = node_vendor(ev, &plugins);
        if !ev.allocatable_of(vendor).is_empty()
            || ready_status(n).is_some_and(|r| r != "True")
            || plugins.iter().any(|p| serves(p, vendor))
        {
            continue;
        }
        let name = n.metadata.name.as_str();
        if name.is_empty()
            || ctx.pods_on_node(name).iter().any(|&i| {
                matches!(
                    classify_pod(ctx.pod(i)),
                    Some((GpuComponentRole::DevicePlugin, _))
                )
            })
        {
            continue;
        }
        // the plugin of the node's vendor whose pods run elsewhere
        let theirs: Vec<&Pod> = listed
            .iter()
            .copied()
            .filter(|p| {
                p.spec.node_name != name
                    && classify_pod(p).is_some_and(|(_, v)| match (v, vendor) {
                        (Some(a), Some(b)) => a == b,
                        _ => true,
                    })
            })
            .collect();
        let Some(first) = theirs.first() else {
            continue;
        };
        let ds = plugin_ds_name(first).to_owned();
        let ns = first.metadata.namespace.clone();
        let mine: Vec<&Pod> = theirs
            .iter()
            .copied()
            .filter(|p| p.metadata.namespace == ns && plugin_ds_name(p) == ds)
            .collect();
        let hosts: BTreeSet<&str> = mine.iter().map(|p| p.spec.node_name.as_str()).collect();
        let host_nodes: Vec<&Node> = hosts.iter().filter_map(|h| ctx.node(h)).collect();
        let taints: Vec<&Taint> = n
            .spec
            .taints
            .iter()
            .filter(|t| {
                !host_nodes.iter().any(|h| {
                    h.spec
                        .taints
                        .iter()
                        .any(|o| o.key == t.key && o.effect == t.effect)
                })
            })
            .collect();
        // labels shared by every host node (all of them shown with labels) that this node lacks;
        // names and per-node values (hostname) are not selector material
        let with_labels: Vec<&&Node> = host_nodes
            .iter()
            .filter(|h| !h.metadata.labels.is_empty())
            .collect();
        let missing_labels: Vec<(String, String)> =
            if with_labels.len() == hosts.len() && !n.metadata.labels.is_empty() {
                with_labels[0]
                    .metadata
                    .labels
                    .iter()
                    .filter(|(k, v)| {
                        !matches!(
                            *k,
                            "kubernetes.io/hostname" | "beta.kubernetes.io/instance-type"
                        ) && with_labels[1..]
                            .iter()
                            .all(|h| h.metadata.labels.get(k) == Some(*v))
                            && n.metadata.labels.get(k) != Some(*v)
                            && !k.starts_with("node-role.kubernetes.io/")
                    })
                    .take(6)
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect()
            } else {
                Vec::new()
            };
        out.push(PluginPodMissing {
            node: n,
            evidence: ev,
            daemon_set: (ns, ds),
            elsewhere: hosts.iter().take(5).map(|h| (*h).to_owned()).collect(),
            taints,
            missing_labels,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_inputs, run_rule};

    /// The patch adds the whole list to a template without tolerations (RFC 6902 `add` to
    /// `/-` needs the array: the API server answers `doc is missing path`) and appends to an
    /// existing one (fresh-user G22).
    #[test]
    fn toleration_patch_adds_the_list_when_the_template_has_none() {
        let ds = |tolerations: &str| -> DaemonSet {
            let y = format!(
                "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: nvdp, namespace: kube-system}}\nspec:\n  selector: {{matchLabels: {{a: b}}}}\n  template:\n    metadata: {{labels: {{a: b}}}}\n    spec:\n      {tolerations}containers: [{{name: c, image: i}}]\n"
            );
            let s = cube_model::snapshot::ClusterSnapshot::from_slice("ds.yaml", y.as_bytes());
            s.daemon_sets.into_iter().next().expect("one ds")
        };
        let t = Taint {
            key: "nvidia.com/gpu".into(),
            value: "present".into(),
            effect: "NoSchedule".into(),
            time_added: None,
        };
        let none = toleration_patch(&ds(""), &t);
        assert!(
            none.contains(r#"[{"op":"add","path":"/spec/template/spec/tolerations","value":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]}]"#),
            "{none}"
        );
        let some = toleration_patch(
            &ds("tolerations: [{key: CriticalAddonsOnly, operator: Exists}]\n      "),
            &t,
        );
        assert!(
            some.contains(r#"[{"op":"add","path":"/spec/template/spec/tolerations/-","value":{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}}]"#),
            "{some}"
        );
        for cmd in [none, some] {
            assert!(
                cmd.starts_with("kubectl -n kube-system patch daemonset nvdp --type=json -p '"),
                "{cmd}"
            );
        }
    }

    const GPU_NODE: &str = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-02\n  labels:\n    nvidia.com/gpu.present: \"true\"\nstatus:\n  capacity:\n    cpu: \"8\"\n  conditions:\n  - type: Ready\n    status: \"True\"\n";

    #[test]
    fn a_failing_validator_is_the_link_and_the_plugin_waits_behind_it() {
        let pods = "$ kubectl get pods -n gpu-operator -o wide
NAME                                   READY   STATUS                  RESTARTS   AGE   IP          NODE      NOMINATED NODE   READINESS GATES
nvidia-container-toolkit-daemonset-x   1/1     Running                 0          25m   10.0.1.11   node-02   <none>           <none>
nvidia-dcgm-exporter-d4k8x             0/1     Init:0/1                0          25m   10.0.1.13   node-02   <none>           <none>
nvidia-device-plugin-daemonset-q       0/1     Init:0/1                0          25m   10.0.1.14   node-02   <none>           <none>
nvidia-cuda-validator-abcde            0/1     Init:Error              1          5m    10.0.1.16   node-02   <none>           <none>
nvidia-operator-validator-d5c26        0/1     Init:CrashLoopBackOff   4          25m   10.0.1.15   node-02   <none>           <none>
";
        let mut i = crate::Inputs::new();
        i.add("node.yaml", GPU_NODE);
        i.add("pods.txt", pods);
        let f = run_inputs("gpu-not-advertised", &i);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains("GPU Operator validator pod gpu-operator/nvidia-operator-validator-d5c26")
                && m.contains("Init:CrashLoopBackOff")
                && m.contains("nvidia-device-plugin-daemonset-q waits behind it"),
            "{m}"
        );
        // the toolkit pod is Ready (READY 1/1): not blamed
        assert!(!m.contains("container toolkit pod"), "{m}");
        assert!(f[0].remedy.contains("logs nvidia-operator-validator-d5c26"));
    }

    #[test]
    fn a_plugin_pod_from_describe_node_runs_but_registered_nothing() {
        let node = "Name:               node-07
Roles:              <none>
Labels:             kubernetes.io/hostname=node-07
                    feature.node.kubernetes.io/pci-0300_1002.present=true
Capacity:
  cpu:                32
Allocatable:
  cpu:                32
Non-terminated Pods:          (2 in total)
  Namespace                   Name                                  CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----                                  ------------  ----------  ---------------  -------------  ---
  kube-system                 amdgpu-device-plugin-daemonset-kcnfr  0 (0%)        0 (0%)      0 (0%)           0 (0%)         22h
  kube-system                 kube-proxy-8dz2x                      0 (0%)        0 (0%)      0 (0%)           0 (0%)         25h
";
        let f = run_rule("gpu-not-advertised", node);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains(
                "device-plugin pod kube-system/amdgpu-device-plugin-daemonset-kcnfr runs on the node (its state is not in the input)"
            ) && f[0].message.contains("amd.com/gpu"),
            "{}",
            f[0].message
        );
        // the table rows name no requests: no pod-missing-requests on them
        assert!(run_rule("pod-missing-requests", node).is_empty());
    }

    #[test]
    fn pod_listings_alone_name_the_node_and_the_deepest_failing_component() {
        let pods = "$ kubectl get pods -A -o wide
NAMESPACE      NAME                                   READY   STATUS             RESTARTS      AGE   IP          NODE     NOMINATED NODE   READINESS GATES
gpu-operator   nvidia-driver-daemonset-5mjvq          0/1     CrashLoopBackOff   7 (2m ago)    12m   10.0.1.22   gpu-1    <none>           <none>
gpu-operator   nvidia-container-toolkit-daemonset-r   0/1     Init:0/1           0             12m   10.0.1.24   gpu-1    <none>           <none>
gpu-operator   nvidia-device-plugin-daemonset-vb7xg   0/1     Init:0/1           0             12m   10.0.1.26   gpu-1    <none>           <none>
kube-system    coredns-5d78c9869d-abcde               1/1     Running            0             1d    10.0.0.2    cp-1     <none>           <none>
";
        let f = run_rule("gpu-not-advertised", pods);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.to_string(), "Node/gpu-1");
        assert_eq!(f[0].severity, Severity::Error);
        let m = &f[0].message;
        assert!(
            m.contains("GPU driver installer pod gpu-operator/nvidia-driver-daemonset-5mjvq")
                && m.contains("nvidia-device-plugin-daemonset-vb7xg waits behind it")
                && m.contains("toolkit-validation"),
            "{m}"
        );
        // the same listing without GPU components: nothing
        let plain = "$ kubectl get pods -A -o wide
NAMESPACE     NAME                       READY   STATUS             RESTARTS   AGE   IP         NODE   NOMINATED NODE   READINESS GATES
kube-system   coredns-5d78c9869d-abcde   0/1     CrashLoopBackOff   9          1d    10.0.0.2   cp-1   <none>           <none>
";
        assert!(run_rule("gpu-not-advertised", plain).is_empty());
    }

    #[test]
    fn a_plugin_failing_on_one_node_while_ready_elsewhere_is_a_warning() {
        let pods = "NAME                                   READY   STATUS             RESTARTS   AGE   IP          NODE     NOMINATED NODE   READINESS GATES
nvidia-device-plugin-daemonset-aaaaa   0/1     CrashLoopBackOff   12         1h    10.0.1.2    cpu-1    <none>           <none>
nvidia-device-plugin-daemonset-bbbbb   1/1     Running            0          1h    10.0.1.3    gpu-1    <none>           <none>
";
        let f = run_rule("gpu-not-advertised", pods);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].message.contains("Ready on gpu-1"), "{}", f[0].message);
        // an `Error` row of a DaemonSet pod is a failing pod, not a finished one
        let err = pods.replace("CrashLoopBackOff", "Error           ");
        let f = run_rule("gpu-not-advertised", &err);
        assert_eq!(f.len(), 1, "{f:#?}");
        // every plugin pod failing: an error
        let all = pods.replace("1/1     Running         ", "0/1     CrashLoopBackOff");
        let f = run_rule("gpu-not-advertised", &all);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().all(|x| x.severity == Severity::Error));
    }

    #[test]
    fn a_pending_plugin_pod_on_no_node_is_not_scheduled() {
        let pods = "NAME                                   READY   STATUS    RESTARTS   AGE   IP       NODE     NOMINATED NODE   READINESS GATES
nvidia-device-plugin-daemonset-2xv9k   0/1     Pending   0          3h    <none>   <none>   <none>           <none>
";
        let f = run_rule("device-plugin-not-scheduled", pods);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].subject.to_string(),
            "Pod/nvidia-device-plugin-daemonset-2xv9k"
        );
        assert!(run_rule("gpu-not-advertised", pods).is_empty());
    }

    #[test]
    fn init_status_names_the_upstream_init_container() {
        let pod = |name: &str, status: &str| {
            let mut p = Pod::default();
            p.metadata.name = name.to_owned();
            p.status.phase = "Pending".to_owned();
            p.status.reason = status.to_owned();
            p
        };
        let c = |name, status| stuck_init_container(&pod(name, status)).map(|(c, _)| c);
        assert_eq!(
            c("nvidia-operator-validator-x", "Init:2/4").as_deref(),
            Some("cuda-validation")
        );
        assert_eq!(
            c("nvidia-operator-validator-x", "Init:0/5").as_deref(),
            Some("driver-validation")
        );
        // five init containers (nvidia-fs-validation in some versions): only 0/y is certain
        assert_eq!(c("nvidia-operator-validator-x", "Init:2/5"), None);
        assert_eq!(
            c("nvidia-operator-validator-x", "Init:CrashLoopBackOff"),
            None
        );
        assert_eq!(
            c(
                "nvidia-container-toolkit-daemonset-x",
                "Init:CrashLoopBackOff"
            )
            .as_deref(),
            Some("driver-validation")
        );
        assert_eq!(
            c("nvidia-device-plugin-daemonset-x", "Init:0/1").as_deref(),
            Some("toolkit-validation")
        );
        assert_eq!(c("coredns-x", "Init:0/1"), None);
    }

    /// A node of `res` with `cap` devices in capacity and `alloc` in allocatable.
    fn device_node(res: &str, cap: &str, alloc: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-01\nstatus:\n  capacity:\n    cpu: \"8\"\n    hugepages-2Mi: 1Gi\n    {res}: \"{cap}\"\n  allocatable:\n    cpu: \"8\"\n    hugepages-2Mi: \"0\"\n    {res}: \"{alloc}\"\n  conditions:\n  - type: Ready\n    status: \"True\"\n"
        )
    }

    #[test]
    fn capacity_above_allocatable_is_a_partial_availability_warning_for_every_device_vendor() {
        // NVIDIA, a MIG slice, AMD, Intel: the GPU chain; Habana and Neuron: other devices
        for res in [
            "nvidia.com/gpu",
            "nvidia.com/mig-1g.10gb",
            "amd.com/gpu",
            "gpu.intel.com/i915",
            "habana.ai/gaudi",
            "aws.amazon.com/neuron",
        ] {
            let f = run_rule("gpu-not-advertised", &device_node(res, "8", "6"));
            assert_eq!(f.len(), 1, "{res}: {f:#?}");
            assert_eq!(f[0].severity, Severity::Warning, "{res}");
            let m = &f[0].message;
            assert!(
                m.contains(&format!(
                    "{res}: capacity 8, allocatable 6 (2 device(s) reported unhealthy"
                )),
                "{res}: {m}"
            );
            // the manifest shows no pods: what is in use is unknown, not 0
            assert!(m.contains("not in the input"), "{res}: {m}");
        }
    }

    #[test]
    fn equal_capacity_and_allocatable_and_non_device_resources_stay_quiet() {
        for (res, cap, alloc) in [
            ("nvidia.com/gpu", "8", "8"),
            // HAMi's per-card attributes count no devices
            ("nvidia.com/gpumem", "81920", "40960"),
            // every device unhealthy is the chain's own link (allocatable 0), not partial
            ("habana.ai/gaudi", "8", "0"),
        ] {
            let node = device_node(res, cap, alloc);
            let f: Vec<_> = run_rule("gpu-not-advertised", &node)
                .into_iter()
                .filter(|f| f.message.contains("fewer allocatable devices"))
                .collect();
            assert!(f.is_empty(), "{res}: {f:#?}");
        }
        // (every node above has hugepages-2Mi 1Gi in capacity and 0 allocatable: not devices)
    }

    #[test]
    fn describe_allocated_resources_are_what_is_in_use() {
        let text = "Name:               node-01
Labels:             nvidia.com/gpu.present=true
Taints:             <none>
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  Ready            True    Mon, 16 Jun 2025 10:30:00 +0000   Mon, 16 Jun 2025 10:01:00 +0000   KubeletReady                 kubelet is posting ready status
Capacity:
  cpu:                128
  nvidia.com/gpu:     8
  pods:               110
Allocatable:
  cpu:                128
  nvidia.com/gpu:     6    <== two gone
  pods:               110
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests      Limits
  --------           --------      ------
  cpu                16 (12%)      16 (12%)
  nvidia.com/gpu     6             6
Events:              <none>
";
        let f = run_rule("gpu-not-advertised", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("capacity 8, allocatable 6 (2 device(s) reported unhealthy by the device plugin), 6 in use by pods on the node, 0 free"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("xid"), "{}", f[0].remedy);
    }

    #[test]
    fn a_taint_only_gpu_node_on_a_managed_platform_names_the_platform_link() {
        let node = |labels: &str, taint: &str, kubelet: &str| {
            format!(
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-01\n  labels:\n    kubernetes.io/hostname: node-01\n{labels}spec:\n  taints:\n  - {taint}\nstatus:\n  capacity:\n    cpu: \"8\"\n  allocatable:\n    cpu: \"8\"\n  nodeInfo:\n    kubeletVersion: {kubelet}\n  conditions:\n  - type: Ready\n    status: \"True\"\n"
            )
        };
        // GKE without the driver label: the driver installer (a pool named without "gpu": a
        // pool named gpu-... says GPU by itself, and the last case is the taint alone)
        let gke = node(
            "    cloud.google.com/gke-nodepool: pool-1\n    cloud.google.com/gke-accelerator: nvidia-tesla-t4\n",
            "{key: nvidia.com/gpu, value: present, effect: NoSchedule}",
            "v1.29.4-gke.1043002",
        );
        let f = run_rule("gpu-not-advertised", &gke);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("nvidia-driver-installer"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("daemonset-preloaded.yaml"),
            "{}",
            f[0].remedy
        );
        // GKE installing the driver: its plugin pod's init containers
        let auto = gke.replace(
            "    cloud.google.com/gke-accelerator: nvidia-tesla-t4\n",
            "    cloud.google.com/gke-accelerator: nvidia-tesla-t4\n    cloud.google.com/gke-gpu-driver-version: default\n",
        );
        let f = run_rule("gpu-not-advertised", &auto);
        assert!(
            f[0].message.contains("gke-gpu-driver-version=default"),
            "{}",
            f[0].message
        );
        // GKE with the taint alone (no gke-accelerator): the label GKE's plugin selects
        let bare = gke.replace(
            "    cloud.google.com/gke-accelerator: nvidia-tesla-t4\n",
            "",
        );
        let f = run_rule("gpu-not-advertised", &bare);
        assert!(
            f[0].message
                .contains("by its taint nvidia.com/gpu=present:NoSchedule alone"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message
                .contains("lacks cloud.google.com/gke-accelerator"),
            "{}",
            f[0].message
        );
        // AKS: the device plugin AKS does not install, with the toleration for sku=gpu
        let aks = node(
            "    kubernetes.azure.com/agentpool: gpunp\n",
            "{key: sku, value: gpu, effect: NoSchedule}",
            "v1.28.9",
        );
        let f = run_rule("gpu-not-advertised", &aks);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("AKS runs no device plugin"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message
                .contains("toleration for the node's taint sku=gpu:NoSchedule"),
            "{}",
            f[0].message
        );
        // EKS: the device plugin managed node groups do not run
        let eks = node(
            "    eks.amazonaws.com/nodegroup: gpu\n",
            "{key: nvidia.com/gpu, value: \"true\", effect: NoSchedule}",
            "v1.30.2-eks-1552ad0",
        );
        let f = run_rule("gpu-not-advertised", &eks);
        assert!(f[0].message.contains("on EKS"), "{}", f[0].message);
        // no platform: the generic chain
        let plain = node(
            "",
            "{key: nvidia.com/gpu, value: present, effect: NoSchedule}",
            "v1.30.2",
        );
        let f = run_rule("gpu-not-advertised", &plain);
        assert!(
            f[0].message.contains("holds no DaemonSet"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn handshake_times() {
        assert_eq!(
            handshake_time("Requesting_2024.01.02 15:04:05"),
            handshake_time("Requesting_2024-01-02 15:04:05")
        );
        assert!(handshake_time("Requesting_2024-01-02 15:04:05").is_some());
        assert!(handshake_time("Reported").is_none());
    }
}
