//! The fleet: every registered cluster probed at once, with health, version, nodes, and CPU,
//! memory and GPU capacity, allocatable, requested and free, per cluster and per node pool.
//!
//! [`probe_fleet`] reads a [`ClusterRegistry`] (each cluster's kubeconfig reference, see
//! [`crate::probe::targets_from_registry`]) and runs [`probe_fleet_targets`] over one
//! [`ClusterApi`] per cluster, so the same code runs over `kube::Client`s, over
//! [`crate::memory::MemoryCluster`]s, or over any seam a console holds.
//!
//! Per cluster, within **its own** deadline ([`FleetOptions::timeout`], covering connect, TLS,
//! `/version`, `SelfSubjectReview` and the node and pod lists): the connection check of
//! [`crate::connect`], then nodes and pods listed page by page ([`crate::snapshot`]), then the
//! figures: capacity and allocatable summed over nodes, requested summed over the non-terminal
//! pods bound to them with cube-quota's exact pod requests (upstream `PodRequests`), free =
//! allocatable - requested per node, counted only on Ready, schedulable nodes and never below
//! zero. At most [`FleetOptions::concurrency`] clusters are probed at once
//! ([`crate::probe::bounded`]); a dead or slow cluster never delays the others beyond its own
//! timeout.
//!
//! A cluster that fails the check gets a cluster taint, as Karmada's cluster controller puts
//! on its `Cluster` objects (karmada-io/karmada `pkg/controllers/cluster/cluster_controller.go`,
//! `taintClusterByCondition`; keys from `pkg/apis/cluster/v1alpha1/well_known_constants.go`):
//! - Ready `Unknown` (no answer at all: DNS, connection refused, timeout, or a kubeconfig that
//!   cannot even be used) -> [`TAINT_UNREACHABLE`]`:NoSchedule`;
//! - Ready `False` (the server answered but cannot be used: TLS not trusted, wrong protocol,
//!   credentials rejected (401), forbidden (403), another HTTP status) ->
//!   [`TAINT_NOT_READY`]`:NoSchedule`.
//!
//! Divergence, on purpose: Karmada's push-mode status controller records a cluster whose
//! health check fails to connect as Ready `False` (reason `ClusterNotReachable`), and only a
//! status that stops being updated becomes `Unknown`. A one-shot probe has no history, so "no
//! answer" is reported as `Unknown`/unreachable, which keeps the two remedies (network vs.
//! credentials/certificates) apart. Both taints keep tasks away from the cluster the same way
//! ([`cube_model::cluster::Cluster::untolerated_taint`]).
//!
//! ```no_run
//! # async fn run(registry: cube_model::ClusterRegistry) {
//! use cube_cluster::fleet::{FleetOptions, probe_fleet};
//! let report = probe_fleet(&registry, &FleetOptions::default(), &|p| eprintln!("{p}")).await;
//! for c in &report.clusters {
//!     println!("{} {} {:?}", c.name, c.ready.status, c.version);
//! }
//! # }
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cube_model::cluster::{Cluster, ClusterRegistry, format_taint};
use cube_model::objects::{Labels, Pod, Taint};
use cube_model::{NodeInfo, NodePool, Quantity, ResourceList, ResourceName};
use serde::Serialize;

use crate::api::ClusterApi;
use crate::classify::Class;
use crate::client::{ClientOptions, build_client};
use crate::connect::{CheckOptions, Outcome, check_api};
use crate::kubeconfig::{FileReferencePolicy, PluginPolicy};
use crate::snapshot::{CollectOptions, collect_snapshot};

pub use cube_model::placement::{TAINT_NOT_READY, TAINT_UNREACHABLE};

/// Node label whose value names a node's pool when no other is given (CubeStudio's `org`,
/// the resource-group label of its node pools: `org=public`, `org=team-a`).
pub const DEFAULT_POOL_LABEL: &str = "org";

/// Node labels that name a GPU's kind (its model) the way node selectors select it, in this
/// order: CubeStudio's `gpu-type` (what a `2(V100)` request selects,
/// [`cube_model::node::CUBE_GPU_TYPE_LABEL`]), NVIDIA GPU feature discovery's
/// `nvidia.com/gpu.product` and the AMD node labeller's `amd.com/gpu.product-name` (see
/// `cube_model::node` for their upstream sources). A node counts under every one of these
/// labels it carries.
pub const GPU_KIND_LABELS: &[&str] = &[
    cube_model::node::CUBE_GPU_TYPE_LABEL,
    "nvidia.com/gpu.product",
    "amd.com/gpu.product-name",
];

/// Settings of a fleet probe.
#[derive(Debug, Clone)]
pub struct FleetOptions {
    /// At most this many clusters are probed at once (at least 1). Default 16.
    pub concurrency: usize,
    /// Deadline per cluster, for the check and the lists together. Default 10 s.
    pub timeout: Duration,
    /// Node label whose value names the node's pool ([`DEFAULT_POOL_LABEL`]).
    pub pool_label: String,
    /// Items per page when listing nodes and pods.
    pub page_size: u32,
    /// Exec credential plugins of the registry's kubeconfigs (default: refused).
    pub plugins: PluginPolicy,
    /// Which files the registry's kubeconfigs may make the client read (`tokenFile`,
    /// `certificate-authority`, `client-certificate`, `client-key`). Default
    /// [`FileReferencePolicy::OwnDirectory`]: a registry's kubeconfigs are often uploads, and
    /// client-go would send a `tokenFile`'s content (any file the process can read) to the
    /// kubeconfig's server as a bearer token. A refused reference makes the cluster
    /// `config-invalid` with a [`crate::kubeconfig::ProblemKind::FileReferenceRefused`] reason.
    pub file_references: FileReferencePolicy,
    /// The directory relative kubeconfig paths of the registry are resolved against (the
    /// registry file's directory, as `docs/cluster-registry.md` says); empty = the current
    /// directory.
    pub base_dir: std::path::PathBuf,
    /// Bounds of every HTTP exchange of each cluster (body sizes, pages per list, per-request
    /// time; [`crate::limits::NetLimits::from_limits`] for a [`cube_model::Limits`] policy).
    /// [`FleetOptions::timeout`] still bounds each cluster as a whole.
    pub net: crate::limits::NetLimits,
    /// The [`cube_model::Limits`] policy of everything else read for each cluster: its
    /// kubeconfig file (`kubeconfig-bytes`), the files that kubeconfig references
    /// (`referenced-file-bytes`), YAML aliases, and the nodes and pods listed
    /// (`objects-per-snapshot`, `pages-per-list`). [`FleetOptions::from_limits`] sets it and
    /// [`FleetOptions::net`] from one policy. A limit hit is in
    /// [`ClusterReport::limits_hit`].
    pub limits: cube_model::Limits,
}

impl Default for FleetOptions {
    fn default() -> Self {
        FleetOptions {
            concurrency: 16,
            timeout: Duration::from_secs(10),
            pool_label: DEFAULT_POOL_LABEL.to_owned(),
            page_size: crate::snapshot::DEFAULT_PAGE_SIZE,
            plugins: PluginPolicy::Refuse,
            file_references: FileReferencePolicy::OwnDirectory,
            base_dir: std::path::PathBuf::new(),
            net: crate::limits::NetLimits::default(),
            limits: cube_model::Limits::default(),
        }
    }
}

impl FleetOptions {
    /// The defaults, with every bound from one [`cube_model::Limits`] policy: the network
    /// bounds ([`crate::limits::NetLimits::from_limits`], without the collection deadline:
    /// [`FleetOptions::timeout`] bounds each cluster) and the file and object bounds
    /// ([`FleetOptions::limits`]).
    pub fn from_limits(limits: &cube_model::Limits) -> Self {
        let mut net = crate::limits::NetLimits::from_limits(limits);
        net.deadline = None;
        FleetOptions {
            net,
            limits: limits.clone(),
            ..FleetOptions::default()
        }
    }
}

/// One cluster to probe: its registry entry and how to reach it.
#[derive(Clone)]
pub struct FleetTarget {
    /// The registry entry (name, labels, taints, default flag).
    pub cluster: Cluster,
    /// The API of the cluster, or why there is none, classified as
    /// [`crate::classify::classify_build_error`] classifies it (`exec-plugin-failed` for an
    /// exec credential plugin that gave no credential, as in `cluster_import`; otherwise
    /// `config-invalid` with the reason; boxed: a `Class` is large). Changed in 0.x from
    /// `String` (G12: every failure was `config-invalid`).
    pub api: Result<Arc<dyn ClusterApi>, Box<Class>>,
    /// The limit that kept the cluster's kubeconfig (or a file it references) from being read,
    /// when one did (reported in [`ClusterReport::limits_hit`]).
    pub limit: Option<cube_model::limits::LimitExceeded>,
}

impl fmt::Debug for FleetTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FleetTarget")
            .field("cluster", &self.cluster.name)
            .field("api", &self.api.as_ref().map(|_| "<dyn ClusterApi>"))
            .finish()
    }
}

/// The Ready condition of a cluster, as Karmada writes `Cluster.status.conditions[type=Ready]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ReadyCondition {
    /// `True`, `False` or `Unknown`.
    pub status: &'static str,
    /// `ClusterReady`, `ClusterNotReachable`, `ClusterUnauthorized`, `ClusterForbidden`,
    /// `ClusterNotTrusted`, `ClusterNotReady`, `ClusterConfigInvalid`.
    pub reason: &'static str,
    /// What happened, for people (the classified error, redacted).
    pub message: String,
}

/// Node counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeCounts {
    /// Every node.
    pub total: usize,
    /// Nodes whose `Ready` condition is `True`.
    pub ready: usize,
    /// Ready nodes that are not cordoned (where free capacity counts).
    pub schedulable: usize,
}

/// CPU, memory and GPU figures of a set of nodes (exact quantities; resources: `cpu`, `memory`
/// and every GPU resource name the nodes advertise).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Capacity {
    /// Sum of `status.capacity`.
    pub capacity: ResourceList,
    /// Sum of `status.allocatable`.
    pub allocatable: ResourceList,
    /// Sum of the requests of the non-terminal pods bound to the nodes.
    pub requested: ResourceList,
    /// Sum over Ready, schedulable nodes of `allocatable - requested`, each node at least 0.
    pub free: ResourceList,
    /// Per resource, the most free on ONE Ready, schedulable node: what a single pod can get,
    /// as the scheduler places each pod on one node (a pod's GPUs never span nodes). Not in
    /// the JSON output (the per-node figures stay internal).
    #[serde(skip)]
    pub largest_free: ResourceList,
}

/// One node pool of a cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PoolReport {
    /// `<label>=<value>`, or `<label> unset` for nodes without the label.
    pub pool: String,
    /// Node counts.
    pub nodes: NodeCounts,
    /// Figures.
    #[serde(flatten)]
    pub capacity: Capacity,
}

/// The nodes of one GPU kind of a cluster (see [`GPU_KIND_LABELS`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GpuKindReport {
    /// `<label>=<value>`: `gpu-type=V100`, `nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB`.
    pub kind: String,
    /// Node counts.
    pub nodes: NodeCounts,
    /// Figures of those nodes.
    #[serde(flatten)]
    pub capacity: Capacity,
}

/// One cluster of the fleet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClusterReport {
    /// Registry name.
    pub name: String,
    /// Registry labels.
    #[serde(skip_serializing_if = "Labels::is_empty")]
    pub labels: Labels,
    /// The registry's default cluster.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
    /// Ready condition.
    pub ready: ReadyCondition,
    /// The failure class id (`refused`, `unauthorized`, ...), when the check failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// What to do about the failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// `gitVersion` from `/version`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The user the server saw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// The taints that keep tasks away: the registry's, plus the one this probe adds.
    pub taints: Vec<Taint>,
    /// The taint this probe added ([`TAINT_UNREACHABLE`] or [`TAINT_NOT_READY`]), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probe_taint: Option<Taint>,
    /// Node counts (absent when nodes could not be listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<NodeCounts>,
    /// Figures of the whole cluster (absent when nodes could not be listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<Capacity>,
    /// Figures per pool, by pool name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pools: Vec<PoolReport>,
    /// Figures per GPU kind, by kind (nodes carrying one of [`GPU_KIND_LABELS`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gpu_kinds: Vec<GpuKindReport>,
    /// What could not be collected (`pods: forbidden: ...`: requested and free are then
    /// unknown and left out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Every bound of the [`cube_model::Limits`] policy hit for this cluster, typed (what,
    /// where, the limit, the flag that raises it): a kubeconfig over `kubeconfig-bytes`, an
    /// answer over `http-body-bytes`, a list over `pages-per-list`, ... The cluster's figures
    /// are then incomplete or missing, never silently truncated.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub limits_hit: Vec<cube_model::limits::LimitExceeded>,
    /// The figures are incomplete: nodes or pods could not be listed completely (a note says
    /// why: forbidden, a repeated `continue` token, a timeout, a limit), or a limit was hit. A
    /// Ready cluster with incomplete figures is never an all-clear (`cluster_fleet` exits 3).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
    /// Time spent on this cluster, milliseconds.
    pub elapsed_ms: u64,
}

impl ClusterReport {
    /// Ready condition `True`.
    pub fn is_ready(&self) -> bool {
        self.ready.status == "True"
    }

    /// Free units of a resource (`nvidia.com/gpu`) on the cluster; `None` when unknown.
    pub fn free(&self, resource: &str) -> Option<Quantity> {
        let c = self.capacity.as_ref()?;
        if self.notes.iter().any(|n| n.starts_with("pods:")) {
            return None;
        }
        Some(c.free.get_or_zero(resource))
    }
}

/// The whole fleet.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FleetReport {
    /// One entry per registry cluster, in registry order.
    pub clusters: Vec<ClusterReport>,
    /// Clusters whose Ready condition is `True`.
    pub ready: usize,
    /// The others.
    pub not_ready: usize,
    /// Figures summed over the Ready clusters whose nodes were listed.
    pub totals: Capacity,
    /// Wall time of the whole probe, milliseconds.
    pub elapsed_ms: u64,
    /// The per-cluster deadline, milliseconds.
    pub timeout_ms: u64,
    /// The concurrency bound.
    pub concurrency: usize,
}

/// Progress of a fleet probe (one event per cluster, as each finishes).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FleetProgress {
    /// A cluster is done.
    Done {
        /// Cluster name.
        name: String,
        /// Clusters done so far.
        done: usize,
        /// Clusters in the fleet.
        total: usize,
        /// Ready condition status.
        ready: &'static str,
        /// Milliseconds it took.
        elapsed_ms: u64,
    },
}

impl fmt::Display for FleetProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FleetProgress::Done {
                name,
                done,
                total,
                ready,
                elapsed_ms,
            } => write!(
                f,
                "[{done}/{total}] {name} (ready={ready}, {elapsed_ms} ms)"
            ),
        }
    }
}

/// Turns a registry into fleet targets: each cluster's kubeconfig is read, selected and
/// validated ([`crate::probe::targets_from_registry`]) and a `kube::Client` is built with
/// timeouts capped at `options.timeout`; a cluster whose kubeconfig cannot be used gets the
/// reason instead. Call it inside a Tokio runtime (a `kube::Client` spawns a task when built);
/// outside one every target gets that as its error.
pub fn targets_from_registry(
    registry: &ClusterRegistry,
    options: &FleetOptions,
) -> Vec<FleetTarget> {
    let client_options = ClientOptions::with_timeout(options.timeout);
    let in_runtime = tokio::runtime::Handle::try_current().is_ok();
    // Relative kubeconfig paths resolve against the registry file's directory.
    let mut resolved = registry.clone();
    for c in &mut resolved.clusters {
        if let Some(k) = c.kubeconfig.as_mut()
            && !k.path.trim().is_empty()
        {
            k.path = crate::registry::resolve_path(&options.base_dir, &k.path)
                .display()
                .to_string();
        }
    }
    crate::probe::targets_from_registry_with_policy(
        &resolved,
        options.plugins,
        &options.file_references,
        &options.limits,
    )
    .into_iter()
    .zip(&registry.clusters)
    .map(|(t, cluster)| FleetTarget {
        cluster: cluster.clone(),
        limit: t.limit,
        api: t
            .selection
            .map_err(|reason| Box::new(Class::ConfigInvalid { reason }))
            .and_then(|sel| {
                if !in_runtime {
                    return Err(Box::new(Class::ConfigInvalid {
                        reason: "clients must be built inside a Tokio runtime".to_owned(),
                    }));
                }
                build_client(&sel, &client_options)
                    .map(|c| {
                        Arc::new(crate::http::BoundedClient::new(c, options.net))
                            as Arc<dyn ClusterApi>
                    })
                    // an exec plugin that gave no credential is `exec-plugin-failed`, the same
                    // class as in cluster_import and cluster_diagnose (G12)
                    .map_err(|e| Box::new(crate::classify::classify_build_error(&e)))
            }),
    })
    .collect()
}

/// Probes every cluster of a registry (see the module docs); `progress` hears about each
/// cluster as it finishes.
pub async fn probe_fleet(
    registry: &ClusterRegistry,
    options: &FleetOptions,
    progress: &(dyn Fn(&FleetProgress) + Sync),
) -> FleetReport {
    // exec plugins (only when allowed) run while the clients are built: on the blocking pool,
    // never on a runtime worker
    let targets = if options.plugins == PluginPolicy::Allow {
        let (r, o) = (registry.clone(), options.clone());
        tokio::task::spawn_blocking(move || targets_from_registry(&r, &o))
            .await
            .unwrap_or_else(|_| targets_from_registry(registry, options))
    } else {
        targets_from_registry(registry, options)
    };
    probe_fleet_targets(targets, options, progress).await
}

fn condition_of(outcome: &Outcome) -> ReadyCondition {
    let Outcome::Failed { class, message } = outcome else {
        return ReadyCondition {
            status: "True",
            reason: "ClusterReady",
            message: "cluster is healthy and ready to accept workloads".to_owned(),
        };
    };
    let (status, reason) = match class {
        Class::Dns | Class::Refused | Class::Timeout => ("Unknown", "ClusterNotReachable"),
        Class::NoUsableKubeconfig | Class::ConfigInvalid { .. } => {
            ("Unknown", "ClusterConfigInvalid")
        }
        Class::TlsUntrusted | Class::TlsNameMismatch { .. } | Class::TlsValidity { .. } => {
            ("False", "ClusterNotTrusted")
        }
        // an exec plugin that gave no credential: nothing could authenticate, as a 401
        Class::Unauthorized | Class::ExecPluginFailed { .. } => ("False", "ClusterUnauthorized"),
        Class::Forbidden { .. } => ("False", "ClusterForbidden"),
        _ => ("False", "ClusterNotReady"),
    };
    ReadyCondition {
        status,
        reason,
        message: format!("{}: {message}", class.id()),
    }
}

fn probe_taint(ready: &ReadyCondition) -> Option<Taint> {
    let key = match ready.status {
        "Unknown" => TAINT_UNREACHABLE,
        "False" => TAINT_NOT_READY,
        _ => return None,
    };
    Some(Taint {
        key: key.to_owned(),
        value: String::new(),
        effect: "NoSchedule".to_owned(),
        time_added: None,
    })
}

/// `cpu`, `memory` and GPU resource names only.
fn shown(name: &ResourceName) -> bool {
    matches!(name.as_str(), "cpu" | "memory")
        || cube_quota::fit::is_gpu_resource_name(name.as_str())
}

fn capacity_of(nodes: &[NodeInfo], pods: Option<&[Pod]>) -> (NodeCounts, Capacity, Vec<String>) {
    let mut notes = Vec::new();
    let mut counts = NodeCounts {
        total: nodes.len(),
        ..NodeCounts::default()
    };
    let mut cap = Capacity::default();
    let mut overflow = |what: &str| notes.push(format!("{what}: sum too large to compute"));
    for n in nodes {
        if n.is_ready() {
            counts.ready += 1;
            if !n.unschedulable {
                counts.schedulable += 1;
            }
        }
        if cap
            .capacity
            .add_assign(&n.capacity.filtered(shown))
            .is_err()
        {
            overflow("capacity");
        }
        if cap
            .allocatable
            .add_assign(&n.allocatable.filtered(shown))
            .is_err()
        {
            overflow("allocatable");
        }
    }
    if let Some(pods) = pods {
        let pool = NodePool {
            selector: Default::default(),
            nodes: nodes.to_vec(),
        };
        let opts = cube_quota::requests::PodResourcesOptions::default();
        match pool.usage_with(pods, |p| cube_quota::requests::pod_requests(p, &opts)) {
            Ok(usage) => {
                cap.requested = usage.requested.filtered(shown);
                for (n, u) in nodes.iter().zip(&usage.nodes) {
                    if !n.is_ready() || n.unschedulable {
                        continue;
                    }
                    let free: ResourceList = u
                        .free
                        .filtered(shown)
                        .iter()
                        .map(|(k, q)| {
                            let q = if q.is_negative() {
                                Quantity::ZERO
                            } else {
                                q.clone()
                            };
                            (k.clone(), q)
                        })
                        .collect();
                    for (k, q) in free.iter() {
                        if cap.largest_free.get(k.as_str()).is_none_or(|m| q > m) {
                            cap.largest_free.insert(k.clone(), q.clone());
                        }
                    }
                    if cap.free.add_assign(&free).is_err() {
                        overflow("free");
                    }
                }
            }
            Err(_) => overflow("requested"),
        }
    }
    (counts, cap, notes)
}

async fn probe_target(target: FleetTarget, options: &FleetOptions) -> ClusterReport {
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + options.timeout;
    let cluster = target.cluster;
    let outcome = match &target.api {
        Err(class) => Outcome::Failed {
            class: class.as_ref().clone(),
            message: match class.as_ref() {
                Class::ConfigInvalid { reason } => reason.clone(),
                other => other.hint(),
            },
        },
        Ok(api) => {
            let check = CheckOptions {
                client: ClientOptions::with_timeout(options.timeout),
                deadline: Some(options.timeout),
                access_probe: None,
            };
            match tokio::time::timeout_at(deadline, check_api(&**api, &check)).await {
                Ok(o) => o,
                Err(_) => Outcome::Failed {
                    class: Class::Timeout,
                    message: format!("no answer within {:?}", options.timeout),
                },
            }
        }
    };
    let mut report = ClusterReport {
        name: cluster.name.clone(),
        labels: cluster.labels.clone(),
        default: cluster.default,
        ready: condition_of(&outcome),
        class: None,
        hint: None,
        version: None,
        user: None,
        taints: cluster.taints.clone(),
        probe_taint: None,
        nodes: None,
        capacity: None,
        pools: Vec::new(),
        gpu_kinds: Vec::new(),
        notes: Vec::new(),
        limits_hit: target.limit.into_iter().collect(),
        incomplete: false,
        elapsed_ms: 0,
    };
    match &outcome {
        Outcome::Ok { version, user, .. } => {
            report.version = Some(version.git_version.clone());
            report.user = user.clone();
        }
        Outcome::Failed { class, .. } => {
            report.class = Some(class.id().to_owned());
            report.hint = Some(class.hint());
            if let Class::LimitExceeded {
                exceeded: Some(hit),
                ..
            } = class
            {
                report.limits_hit.push(hit.clone());
            }
        }
    }
    report.probe_taint = probe_taint(&report.ready);
    if let Some(t) = &report.probe_taint {
        report.taints.push(t.clone());
    }
    if let (Outcome::Ok { .. }, Ok(api)) = (&outcome, &target.api) {
        // the policy's page and object bounds; the per-cluster timeout is the deadline
        let mut collect = CollectOptions::from_limits(&options.limits)
            .page_size(options.page_size)
            .only(&["Node", "Pod"]);
        collect.deadline = None;
        match tokio::time::timeout_at(deadline, collect_snapshot(&**api, &collect, |_| {})).await {
            Err(_) => report.notes.push(format!(
                "nodes and pods: not listed within the per-cluster timeout of {:?}",
                options.timeout
            )),
            Ok(Err(e)) => report.notes.push(format!(
                "nodes and pods: {}",
                crate::classify::error_chain_text(&e)
            )),
            Ok(Ok(snap)) => {
                report.limits_hit.extend(snap.limits_hit.iter().cloned());
                fill_capacity(&mut report, &snap, options)
            }
        }
    }
    report.incomplete = !report.notes.is_empty() || !report.limits_hit.is_empty();
    report.elapsed_ms = start.elapsed().as_millis() as u64;
    report
}

fn fill_capacity(
    report: &mut ClusterReport,
    snap: &cube_model::ClusterSnapshot,
    options: &FleetOptions,
) {
    if let Some(why) = snap.missing_kinds.get("Node") {
        report.notes.push(format!("nodes: {why}"));
        return;
    }
    let pods_missing = snap.missing_kinds.get("Pod");
    if let Some(why) = pods_missing {
        report
            .notes
            .push(format!("pods: {why} (requested and free are unknown)"));
    }
    let nodes: Vec<NodeInfo> = snap.nodes.iter().map(NodeInfo::from_node).collect();
    let pods = pods_missing.is_none().then_some(snap.pods.as_slice());
    let (counts, mut cap, notes) = capacity_of(&nodes, pods);
    if pods.is_none() {
        cap.requested = ResourceList::new();
        cap.free = ResourceList::new();
    }
    report.nodes = Some(counts);
    report.capacity = Some(cap);
    report.notes.extend(notes);
    let mut by_kind: BTreeMap<String, Vec<NodeInfo>> = BTreeMap::new();
    for n in &nodes {
        for key in GPU_KIND_LABELS {
            if let Some(v) = n.labels.get(key) {
                by_kind
                    .entry(format!("{key}={v}"))
                    .or_default()
                    .push(n.clone());
            }
        }
    }
    for (kind, nodes) in by_kind {
        let (counts, mut cap, _) = capacity_of(&nodes, pods);
        if pods.is_none() {
            cap.requested = ResourceList::new();
            cap.free = ResourceList::new();
        }
        report.gpu_kinds.push(GpuKindReport {
            kind,
            nodes: counts,
            capacity: cap,
        });
    }
    let mut by_pool: BTreeMap<String, Vec<NodeInfo>> = BTreeMap::new();
    for n in nodes {
        let pool = match n.labels.get(&options.pool_label) {
            Some(v) => format!("{}={v}", options.pool_label),
            None => format!("{} unset", options.pool_label),
        };
        by_pool.entry(pool).or_default().push(n);
    }
    for (pool, nodes) in by_pool {
        let (counts, mut cap, _) = capacity_of(&nodes, pods);
        if pods.is_none() {
            cap.requested = ResourceList::new();
            cap.free = ResourceList::new();
        }
        report.pools.push(PoolReport {
            pool,
            nodes: counts,
            capacity: cap,
        });
    }
}

/// Probes the targets (see the module docs). Results are in target order.
pub async fn probe_fleet_targets(
    targets: Vec<FleetTarget>,
    options: &FleetOptions,
    progress: &(dyn Fn(&FleetProgress) + Sync),
) -> FleetReport {
    let start = Instant::now();
    let total = targets.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let names: Vec<Cluster> = targets.iter().map(|t| t.cluster.clone()).collect();
    // Each target bounds itself by its deadline; the outer bound is a safety margin.
    let margin = options.timeout + Duration::from_millis(250);
    let done = &done;
    let results = crate::probe::bounded(targets, options.concurrency, margin, |t| async move {
        let r = probe_target(t, options).await;
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(&FleetProgress::Done {
            name: r.name.clone(),
            done: n,
            total,
            ready: r.ready.status,
            elapsed_ms: r.elapsed_ms,
        });
        r
    })
    .await;
    let clusters: Vec<ClusterReport> = results
        .into_iter()
        .zip(names)
        .map(|((r, elapsed), cluster)| {
            r.unwrap_or_else(|| {
                let ready = condition_of(&Outcome::Failed {
                    class: Class::Timeout,
                    message: format!("no answer within {:?}", options.timeout),
                });
                let taint = probe_taint(&ready);
                let mut taints = cluster.taints.clone();
                taints.extend(taint.clone());
                ClusterReport {
                    name: cluster.name.clone(),
                    labels: cluster.labels.clone(),
                    default: cluster.default,
                    ready,
                    class: Some(Class::Timeout.id().to_owned()),
                    hint: Some(Class::Timeout.hint()),
                    version: None,
                    user: None,
                    taints,
                    probe_taint: taint,
                    nodes: None,
                    capacity: None,
                    pools: Vec::new(),
                    gpu_kinds: Vec::new(),
                    notes: Vec::new(),
                    limits_hit: Vec::new(),
                    incomplete: false,
                    elapsed_ms: elapsed.as_millis() as u64,
                }
            })
        })
        .collect();
    let mut totals = Capacity::default();
    for c in clusters.iter().filter(|c| c.is_ready()) {
        if let Some(cap) = &c.capacity {
            // Overflow of exact sums is not reachable for real fleets; keep what was summed.
            let _ = totals.capacity.add_assign(&cap.capacity);
            let _ = totals.allocatable.add_assign(&cap.allocatable);
            let _ = totals.requested.add_assign(&cap.requested);
            let _ = totals.free.add_assign(&cap.free);
        }
    }
    let ready = clusters.iter().filter(|c| c.is_ready()).count();
    FleetReport {
        not_ready: clusters.len() - ready,
        ready,
        clusters,
        totals,
        elapsed_ms: start.elapsed().as_millis() as u64,
        timeout_ms: options.timeout.as_millis() as u64,
        concurrency: options.concurrency.max(1),
    }
}

impl FleetReport {
    /// What placement needs from the probe, per cluster: the probe's taint, its Ready reason
    /// and the free capacity when known (see [`cube_model::placement::explain`]).
    pub fn states(&self) -> BTreeMap<String, cube_model::placement::ClusterState> {
        self.clusters
            .iter()
            .map(|c| {
                let known = c.free("cpu").is_some();
                let free = c
                    .capacity
                    .as_ref()
                    .filter(|_| known)
                    .map(|cap| cap.free.clone());
                let free_by_gpu_kind = if known {
                    c.gpu_kinds
                        .iter()
                        .map(|k| (k.kind.clone(), k.capacity.free.clone()))
                        .collect()
                } else {
                    BTreeMap::new()
                };
                let largest_free = c
                    .capacity
                    .as_ref()
                    .filter(|_| known)
                    .map(|cap| cap.largest_free.clone());
                let largest_free_by_gpu_kind = if known {
                    c.gpu_kinds
                        .iter()
                        .map(|k| (k.kind.clone(), k.capacity.largest_free.clone()))
                        .collect()
                } else {
                    BTreeMap::new()
                };
                (
                    c.name.clone(),
                    cube_model::placement::ClusterState {
                        taints: c.probe_taint.iter().cloned().collect(),
                        reason: if c.is_ready() {
                            String::new()
                        } else {
                            c.ready.reason.to_owned()
                        },
                        free,
                        free_by_gpu_kind,
                        largest_free,
                        largest_free_by_gpu_kind,
                    },
                )
            })
            .collect()
    }
}

// ------------------------------------------------------------------ table

/// Cores with up to three decimals (`95.5`).
pub fn format_cpu(q: &Quantity) -> String {
    match q.checked_milli_value() {
        Some(m) if m % 1000 == 0 => (m / 1000).to_string(),
        Some(m) => {
            let s = format!("{}.{:03}", m / 1000, (m % 1000).abs());
            s.trim_end_matches('0').to_owned()
        }
        None => q.to_string(),
    }
}

/// Bytes as GiB with one decimal, rounded down (`1005.7Gi`).
pub fn format_memory(q: &Quantity) -> String {
    match q.checked_value() {
        Some(b) => {
            let tenths = (i128::from(b) * 10) / (1i128 << 30);
            format!("{}.{}Gi", tenths / 10, (tenths % 10).abs())
        }
        None => q.to_string(),
    }
}

fn figure(c: &Capacity, name: &str, fmt: fn(&Quantity) -> String, with_free: bool) -> String {
    let alloc = c.allocatable.get_or_zero(name);
    if with_free {
        format!("{}/{}", fmt(&c.free.get_or_zero(name)), fmt(&alloc))
    } else {
        format!("?/{}", fmt(&alloc))
    }
}

fn gpu_figures(c: &Capacity, with_free: bool) -> String {
    let names: Vec<&ResourceName> = c
        .allocatable
        .names()
        .chain(c.capacity.names())
        .filter(|n| cube_quota::fit::is_gpu_resource_name(n.as_str()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if names.is_empty() {
        return "-".to_owned();
    }
    names
        .iter()
        .map(|n| {
            let alloc = c.allocatable.get_or_zero(n.as_str());
            let free = if with_free {
                c.free.get_or_zero(n.as_str()).to_string()
            } else {
                "?".to_owned()
            };
            format!("{n} {free}/{alloc}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl FleetReport {
    /// The report as a text table (free/allocatable per resource), one line per cluster and
    /// one per pool, then the totals and the timing.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "{:<16} {:<8} {:<21} {:<10} {:<9} {:<16} {:<20} {:<26} {:>7}\n",
            "CLUSTER",
            "READY",
            "REASON",
            "VERSION",
            "NODES",
            "CPU free/alloc",
            "MEMORY free/alloc",
            "GPU free/alloc",
            "TIME"
        ));
        for c in &self.clusters {
            let (cpu, mem, gpu) = match &c.capacity {
                Some(cap) => {
                    let with_free = c.free("cpu").is_some();
                    (
                        figure(cap, "cpu", format_cpu, with_free),
                        figure(cap, "memory", format_memory, with_free),
                        gpu_figures(cap, with_free),
                    )
                }
                None => ("-".into(), "-".into(), "-".into()),
            };
            let nodes = c
                .nodes
                .map(|n| format!("{}/{}", n.ready, n.total))
                .unwrap_or_else(|| "-".into());
            out.push_str(&format!(
                "{:<16} {:<8} {:<21} {:<10} {:<9} {:<16} {:<20} {:<26} {:>5}ms\n",
                c.name,
                c.ready.status,
                c.ready.reason,
                c.version.as_deref().unwrap_or("-"),
                nodes,
                cpu,
                mem,
                gpu,
                c.elapsed_ms
            ));
            for p in &c.pools {
                let with_free = c.free("cpu").is_some();
                out.push_str(&format!(
                    "  pool {:<51} {:<9} {:<16} {:<20} {:<26}\n",
                    p.pool,
                    format!("{}/{}", p.nodes.ready, p.nodes.total),
                    figure(&p.capacity, "cpu", format_cpu, with_free),
                    figure(&p.capacity, "memory", format_memory, with_free),
                    gpu_figures(&p.capacity, with_free),
                ));
            }
            for k in &c.gpu_kinds {
                let with_free = c.free("cpu").is_some();
                out.push_str(&format!(
                    "  gpu kind {:<47} {:<9} {:<16} {:<20} {:<26}\n",
                    k.kind,
                    format!("{}/{}", k.nodes.ready, k.nodes.total),
                    "",
                    "",
                    gpu_figures(&k.capacity, with_free),
                ));
            }
            if let Some(t) = &c.probe_taint {
                out.push_str(&format!("  taint {}\n", format_taint(t)));
            }
            if let Some(h) = &c.hint {
                out.push_str(&format!("  {}: {h}\n", c.class.as_deref().unwrap_or("")));
            }
            for n in &c.notes {
                out.push_str(&format!("  note: {n}\n"));
            }
            for hit in &c.limits_hit {
                out.push_str(&format!("  limit hit: {hit}\n"));
            }
        }
        out.push_str(&format!(
            "{} ready, {} not ready; ready clusters together: cpu {}, memory {}, gpu {}\n",
            self.ready,
            self.not_ready,
            figure(&self.totals, "cpu", format_cpu, true),
            figure(&self.totals, "memory", format_memory, true),
            gpu_figures(&self.totals, true)
        ));
        out.push_str(&format!(
            "probed {} clusters in {} ms (per-cluster timeout {} ms, at most {} at once)\n",
            self.clusters.len(),
            self.elapsed_ms,
            self.timeout_ms,
            self.concurrency
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_readable() {
        assert_eq!(format_cpu(&Quantity::parse("95500m").unwrap()), "95.5");
        assert_eq!(format_cpu(&Quantity::parse("32").unwrap()), "32");
        assert_eq!(
            format_memory(&Quantity::parse("1054648832Ki").unwrap()),
            "1005.7Gi"
        );
    }

    /// Free GPUs are summed over nodes, and the most on one node is kept beside the sum: a
    /// pod's GPUs come from one node (fresh-user 3 H10); cordoned nodes count for neither.
    #[test]
    fn largest_free_on_one_node() {
        let node = |name: &str, gpus: &str, cordoned: bool| -> NodeInfo {
            serde_json::from_value(serde_json::json!({
                "name": name,
                "unschedulable": cordoned,
                "ready": {"status": "True"},
                "capacity": {"cpu": "8", "nvidia.com/gpu": gpus},
                "allocatable": {"cpu": "8", "nvidia.com/gpu": gpus},
            }))
            .unwrap()
        };
        let nodes = [
            node("a", "4", false),
            node("b", "4", false),
            node("c", "8", true),
        ];
        let (_, cap, _) = capacity_of(&nodes, Some(&[]));
        assert_eq!(
            cap.free.get_or_zero("nvidia.com/gpu"),
            Quantity::parse("8").unwrap()
        );
        assert_eq!(
            cap.largest_free.get_or_zero("nvidia.com/gpu"),
            Quantity::parse("4").unwrap()
        );
        // without the pods nothing is free: no per-node figure either
        let (_, cap, _) = capacity_of(&nodes, None);
        assert!(cap.largest_free.is_empty());
    }

    #[test]
    fn karmada_taints_by_class() {
        let fail = |class| Outcome::Failed {
            class,
            message: "m".into(),
        };
        let r = condition_of(&fail(Class::Refused));
        assert_eq!((r.status, r.reason), ("Unknown", "ClusterNotReachable"));
        assert_eq!(probe_taint(&r).unwrap().key, TAINT_UNREACHABLE);
        let r = condition_of(&fail(Class::Unauthorized));
        assert_eq!((r.status, r.reason), ("False", "ClusterUnauthorized"));
        let t = probe_taint(&r).unwrap();
        assert_eq!(format_taint(&t), "cluster.karmada.io/not-ready:NoSchedule");
    }
}
