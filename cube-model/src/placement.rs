//! Placement with reasons: which registered clusters a task may go to, and for every cluster why
//! it was chosen or rejected; plus a policy over task templates (a cluster selector required,
//! falling back to a production default cluster refused or warned about).
//!
//! [`explain`] looks at every cluster of a [`ClusterRegistry`] and records each reason that
//! keeps it out, not just the first:
//! - [`Reason::NotNamed`]: the task names another cluster;
//! - [`Reason::SelectorUnsatisfied`]: the requirements of the task's cluster selector its labels
//!   do not satisfy (kubectl selector syntax);
//! - [`Reason::NotDefault`]: the task names no cluster and no selector, so only the default
//!   cluster is a candidate;
//! - [`Reason::TaintNotTolerated`]: a `NoSchedule`/`NoExecute` taint of the cluster the task's
//!   tolerations do not tolerate (upstream `ToleratesTaint`, as Karmada's `TaintToleration`
//!   plugin checks cluster taints);
//! - [`Reason::Unhealthy`]: the cluster's probe put Karmada's `cluster.karmada.io/unreachable`
//!   or `cluster.karmada.io/not-ready` taint on it (see `cube_cluster::fleet`) and the task does
//!   not tolerate it;
//! - [`Reason::NotEnoughGpus`]: fewer free units of the requested GPU resource
//!   (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`) than the task asks for, when the cluster's
//!   free capacity is known ([`ClusterState::free`]); with a GPU kind
//!   ([`PlacementRequest::gpu_kind`], `gpu-type=V100` or GFD's
//!   `nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB`) only the free GPUs of the nodes carrying
//!   that label count ([`ClusterState::free_by_gpu_kind`]).
//!
//! A chosen cluster with an untolerated `PreferNoSchedule` taint is ranked after the others
//! ([`Decision::ranked_last`]), as before; a cluster whose free GPUs are unknown is chosen with a
//! note saying so.
//!
//! [`PlacementPolicy`] adds two rules a console enforces on task templates:
//! `require_cluster_selector` (every template names a selector or a cluster) and
//! `production_default` ([`PolicyMode::Allow`], [`PolicyMode::Warn`] or [`PolicyMode::Refuse`]
//! a fallback to a default cluster labelled `env=prod`).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cluster::{Cluster, ClusterRegistry, format_taint};
use crate::objects::{Taint, Toleration};
use crate::selector::parse_selector;
use crate::{Quantity, ResourceList, ResourceName};

/// Karmada's taint key for a cluster whose Ready condition is `Unknown`.
pub const TAINT_UNREACHABLE: &str = "cluster.karmada.io/unreachable";
/// Karmada's taint key for a cluster whose Ready condition is `False`.
pub const TAINT_NOT_READY: &str = "cluster.karmada.io/not-ready";

/// What a probe learnt about a cluster (from `cube_cluster::fleet`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClusterState {
    /// Taints the probe added (`cluster.karmada.io/unreachable:NoSchedule`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    /// The probe's Ready reason (`ClusterNotReachable`, `ClusterUnauthorized`), for the
    /// explanation.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Free capacity (allocatable minus requested on Ready, schedulable nodes); `None` when
    /// unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free: Option<ResourceList>,
    /// Free capacity per GPU kind (`gpu-type=V100`, `nvidia.com/gpu.product=...`: the nodes
    /// carrying that label), known when `free` is; a kind absent here has no free GPUs.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub free_by_gpu_kind: BTreeMap<String, ResourceList>,
    /// Per resource, the most free on one Ready, schedulable node; `None` when unknown (then
    /// only `free` is checked). A task's pod gets its GPUs from one node: kube-scheduler's
    /// NodeResourcesFit filter compares a pod's requests with each node alone
    /// (kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/fit.go
    /// `fitsRequest`), and Karmada's replica estimator counts per node too
    /// (karmada-io/karmada pkg/estimator/server, pkg/util/helper `GetMinTolerationTime` aside,
    /// resource models by node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub largest_free: Option<ResourceList>,
    /// [`ClusterState::largest_free`] per GPU kind (the nodes carrying that label).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub largest_free_by_gpu_kind: BTreeMap<String, ResourceList>,
}

/// What a task asks for.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PlacementRequest {
    /// A cluster named explicitly (CubeStudio `cluster`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// Cluster selector (`env=prod,location in (beijing)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_selector: Option<String>,
    /// Tolerations for cluster taints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
    /// GPUs needed, per resource name (`nvidia.com/gpu: 4`).
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub gpus: ResourceList,
    /// The kind the GPUs must be of, as a node label `key=value` (`gpu-type=V100`,
    /// `nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB`); a bare value (`V100`) is CubeStudio's
    /// `gpu-type=V100`, the label its `2(V100)` requests select. Only nodes with that label
    /// count towards the free GPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_kind: Option<String>,
}

impl PlacementRequest {
    /// [`PlacementRequest::gpu_kind`] as `key=value` (a bare value under `gpu-type`); `None`
    /// when not given or blank.
    pub fn gpu_kind_label(&self) -> Option<String> {
        let k = self
            .gpu_kind
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())?;
        Some(match k.split_once('=') {
            Some((key, value)) => format!("{}={}", key.trim(), value.trim()),
            None => format!("{}={k}", crate::node::CUBE_GPU_TYPE_LABEL),
        })
    }
}

/// What a policy does about a rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum PolicyMode {
    /// Nothing.
    Allow,
    /// A warning in the explanation.
    #[default]
    Warn,
    /// The placement is refused (nothing chosen).
    Refuse,
}

/// Rules over task templates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PlacementPolicy {
    /// Every template must name a cluster selector or a cluster.
    pub require_cluster_selector: bool,
    /// What to do when a template without selector falls back to a default cluster that carries
    /// `production_label` (default: warn).
    pub production_default: PolicyMode,
    /// The label that marks production (default `env=prod`).
    pub production_label: (String, String),
}

impl Default for PlacementPolicy {
    fn default() -> Self {
        PlacementPolicy {
            require_cluster_selector: false,
            production_default: PolicyMode::Warn,
            production_label: ("env".to_owned(), "prod".to_owned()),
        }
    }
}

/// Why a cluster is not chosen.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
#[non_exhaustive]
pub enum Reason {
    /// The task names another cluster.
    NotNamed {
        /// The cluster the task names.
        wanted: String,
    },
    /// The task's selector requirements the cluster's labels do not satisfy.
    SelectorUnsatisfied {
        /// `location=beijing`, `gpu`, ...
        requirements: Vec<String>,
    },
    /// Only the default cluster is a candidate when the task names neither a cluster nor a
    /// selector.
    NotDefault,
    /// An untolerated `NoSchedule`/`NoExecute` taint of the registry.
    TaintNotTolerated {
        /// `key=value:Effect`.
        taint: String,
    },
    /// The probe found the cluster not ready, and its taint is not tolerated.
    Unhealthy {
        /// `cluster.karmada.io/unreachable:NoSchedule`.
        taint: String,
        /// The probe's Ready reason.
        reason: String,
    },
    /// Not enough free units of a GPU resource.
    NotEnoughGpus {
        /// The resource.
        resource: ResourceName,
        /// Requested.
        requested: Quantity,
        /// Free on the cluster (on the nodes of `kind` when given).
        free: Quantity,
        /// The GPU kind asked for (`gpu-type=V100`), if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        gpu_kind: Option<String>,
    },
    /// Enough free GPUs summed over the cluster's nodes, but no single node has as many free:
    /// the task's pod cannot get them (a pod's GPUs come from one node).
    GpusSpreadOverNodes {
        /// The resource.
        resource: ResourceName,
        /// Requested.
        requested: Quantity,
        /// Free on the cluster in total (on the nodes of `kind` when given).
        free: Quantity,
        /// The most free on one node.
        largest_on_one_node: Quantity,
        /// The GPU kind asked for (`gpu-type=V100`), if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        gpu_kind: Option<String>,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotNamed { wanted } => write!(f, "the task names cluster {wanted:?}"),
            Reason::SelectorUnsatisfied { requirements } => {
                write!(f, "labels do not satisfy {}", requirements.join(", "))
            }
            Reason::NotDefault => f.write_str(
                "the task names no cluster selector and this is not the default cluster",
            ),
            Reason::TaintNotTolerated { taint } => write!(f, "taint {taint} not tolerated"),
            Reason::Unhealthy { taint, reason } => {
                write!(f, "unhealthy ({reason}): taint {taint} not tolerated")
            }
            Reason::NotEnoughGpus {
                resource,
                requested,
                free,
                gpu_kind: None,
            } => write!(f, "{free} {resource} free, {requested} requested"),
            Reason::NotEnoughGpus {
                resource,
                requested,
                free,
                gpu_kind: Some(kind),
            } => write!(
                f,
                "{free} {resource} free on nodes labelled {kind}, {requested} requested"
            ),
            Reason::GpusSpreadOverNodes {
                resource,
                requested,
                free,
                largest_on_one_node,
                gpu_kind,
            } => write!(
                f,
                "{free} {resource} free in total{} but at most {largest_on_one_node} on one node, {requested} requested (a pod's GPUs come from one node)",
                gpu_kind
                    .as_ref()
                    .map(|k| format!(" on nodes labelled {k}"))
                    .unwrap_or_default()
            ),
        }
    }
}

/// The decision about one cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Decision {
    /// Cluster name.
    pub cluster: String,
    /// Chosen.
    pub chosen: bool,
    /// Every reason it is not chosen (empty when chosen).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<Reason>,
    /// Chosen but ranked after the others (an untolerated `PreferNoSchedule` taint).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ranked_last: bool,
    /// Things to know about a chosen cluster (free GPUs unknown, a tolerated unhealthy taint).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.chosen {
            write!(f, "{}: chosen", self.cluster)?;
            if self.ranked_last {
                f.write_str(" (ranked last: PreferNoSchedule taint not tolerated)")?;
            }
            for n in &self.notes {
                write!(f, "; {n}")?;
            }
            Ok(())
        } else {
            let r: Vec<String> = self.reasons.iter().map(ToString::to_string).collect();
            write!(f, "{}: rejected: {}", self.cluster, r.join("; "))
        }
    }
}

/// A policy rule the task breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
#[non_exhaustive]
pub enum PolicyViolation {
    /// The policy requires a cluster selector and the task names none.
    SelectorRequired,
    /// The task falls back to a default cluster labelled as production.
    ProductionDefault {
        /// The default cluster.
        cluster: String,
        /// `env=prod`.
        label: String,
    },
}

impl fmt::Display for PolicyViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyViolation::SelectorRequired => f.write_str(
                "the placement policy requires every task template to name a cluster selector (or a cluster)",
            ),
            PolicyViolation::ProductionDefault { cluster, label } => write!(
                f,
                "the task names no cluster selector and would fall back to the default cluster {cluster:?}, labelled {label}"
            ),
        }
    }
}

/// The whole answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Placement {
    /// What was asked, as text (`env=prod`, `cluster bj-prod`, `<default>`).
    pub asked: String,
    /// Chosen clusters, best first (registration order, `PreferNoSchedule`-tainted last).
    pub chosen: Vec<String>,
    /// One decision per registered cluster, in registration order.
    pub decisions: Vec<Decision>,
    /// Policy violations that refused the placement (then `chosen` is empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<PolicyViolation>,
    /// Policy violations the policy only warns about, and other warnings (an invalid selector,
    /// several default clusters).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Placement {
    /// The decision about one cluster.
    pub fn decision(&self, cluster: &str) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.cluster == cluster)
    }
}

fn is_probe_taint(t: &Taint) -> bool {
    t.key == TAINT_UNREACHABLE || t.key == TAINT_NOT_READY
}

fn check_cluster(
    c: &Cluster,
    request: &PlacementRequest,
    state: Option<&ClusterState>,
    reasons: &mut Vec<Reason>,
    notes: &mut Vec<String>,
) -> bool {
    // Registry taints and probe taints, checked the same way (untolerated NoSchedule/NoExecute
    // keeps the task away; a tolerated unhealthy taint is a note).
    let mut taints: Vec<Taint> = c.taints.clone();
    if let Some(s) = state {
        for t in &s.taints {
            if !taints.contains(t) {
                taints.push(t.clone());
            }
        }
    }
    let tolerated =
        |t: &Taint| crate::selector::tolerations_tolerate_taint(&request.tolerations, t);
    for t in taints
        .iter()
        .filter(|t| crate::selector::is_scheduling_taint(t))
    {
        if tolerated(t) {
            if is_probe_taint(t) {
                notes.push(format!(
                    "unhealthy ({}), taint {} tolerated",
                    state.map(|s| s.reason.as_str()).unwrap_or_default(),
                    format_taint(t)
                ));
            }
            continue;
        }
        if is_probe_taint(t) {
            reasons.push(Reason::Unhealthy {
                taint: format_taint(t),
                reason: state.map(|s| s.reason.clone()).unwrap_or_default(),
            });
        } else {
            reasons.push(Reason::TaintNotTolerated {
                taint: format_taint(t),
            });
        }
    }
    let kind = request.gpu_kind_label();
    for (res, want) in &request.gpus {
        if want.is_zero() {
            continue;
        }
        match state.and_then(|s| s.free.as_ref().map(|f| (s, f))) {
            Some((s, free)) => {
                let have = match &kind {
                    None => free.get_or_zero(res.as_str()),
                    Some(k) => s
                        .free_by_gpu_kind
                        .get(k)
                        .map(|l| l.get_or_zero(res.as_str()))
                        .unwrap_or(Quantity::ZERO),
                };
                // the most free on one node, when the probe knows it
                let largest = match &kind {
                    None => s.largest_free.as_ref().map(|l| l.get_or_zero(res.as_str())),
                    Some(k) => s.largest_free.as_ref().map(|_| {
                        s.largest_free_by_gpu_kind
                            .get(k)
                            .map(|l| l.get_or_zero(res.as_str()))
                            .unwrap_or(Quantity::ZERO)
                    }),
                };
                if have < *want {
                    reasons.push(Reason::NotEnoughGpus {
                        resource: res.clone(),
                        requested: want.clone(),
                        free: have,
                        gpu_kind: kind.clone(),
                    });
                } else if let Some(one) = largest.filter(|one| one < want) {
                    reasons.push(Reason::GpusSpreadOverNodes {
                        resource: res.clone(),
                        requested: want.clone(),
                        free: have,
                        largest_on_one_node: one,
                        gpu_kind: kind.clone(),
                    });
                }
            }
            // An unhealthy cluster's figures are unknown by nature; its reason says enough.
            None if reasons
                .iter()
                .any(|r| matches!(r, Reason::Unhealthy { .. })) => {}
            None => notes.push(match state {
                None => format!("free {res} not known (not probed)"),
                Some(_) => format!("free {res} not known (nodes and pods not listed)"),
            }),
        }
    }
    taints
        .iter()
        .any(|t| t.effect == "PreferNoSchedule" && !tolerated(t))
}

/// Explains the placement of `request` over `registry` (see the module docs). `states` holds
/// what a probe learnt, by cluster name (clusters without a state are judged on the registry
/// alone).
pub fn explain(
    registry: &ClusterRegistry,
    request: &PlacementRequest,
    states: &BTreeMap<String, ClusterState>,
    policy: &PlacementPolicy,
) -> Placement {
    let named = request
        .cluster
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let selector_text = request
        .cluster_selector
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let mut warnings = Vec::new();
    let mut refused = Vec::new();
    let selector = match selector_text.map(parse_selector) {
        Some(Ok(s)) => Some(s),
        Some(Err(e)) => {
            warnings.push(format!(
                "invalid cluster selector {:?}: {e}",
                selector_text.unwrap_or_default()
            ));
            None
        }
        None => None,
    };
    let asked = match (named, selector_text) {
        (Some(n), Some(s)) => format!("cluster {n}, {s}"),
        (Some(n), None) => format!("cluster {n}"),
        (None, Some(s)) => s.to_owned(),
        (None, None) => "<default>".to_owned(),
    };
    let fallback = named.is_none() && selector_text.is_none();
    if fallback && policy.require_cluster_selector {
        refused.push(PolicyViolation::SelectorRequired);
    }
    let defaults: Vec<&Cluster> = registry.clusters.iter().filter(|c| c.default).collect();
    if fallback {
        match defaults.as_slice() {
            [] => warnings.push(
                "the task names no cluster selector and no cluster is marked default".to_owned(),
            ),
            [d] => {
                let (k, v) = &policy.production_label;
                if d.labels.get(k) == Some(v) {
                    let violation = PolicyViolation::ProductionDefault {
                        cluster: d.name.clone(),
                        label: format!("{k}={v}"),
                    };
                    match policy.production_default {
                        PolicyMode::Allow => {}
                        PolicyMode::Warn => warnings.push(violation.to_string()),
                        PolicyMode::Refuse => refused.push(violation),
                    }
                }
            }
            many => warnings.push(format!(
                "more than one cluster is marked default: {}",
                many.iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    if named.is_some_and(|n| registry.get(n).is_none()) {
        warnings.push(format!(
            "no cluster named {:?} is registered",
            named.unwrap_or_default()
        ));
    }
    let mut decisions = Vec::new();
    for c in &registry.clusters {
        let mut reasons = Vec::new();
        let mut notes = Vec::new();
        if let Some(n) = named
            && n != c.name
        {
            reasons.push(Reason::NotNamed {
                wanted: n.to_owned(),
            });
        }
        if let Some(sel) = &selector {
            let unsatisfied: Vec<String> = sel
                .requirements()
                .iter()
                .filter(|r| !r.matches(&c.labels))
                .map(ToString::to_string)
                .collect();
            if !unsatisfied.is_empty() {
                reasons.push(Reason::SelectorUnsatisfied {
                    requirements: unsatisfied,
                });
            }
        } else if selector_text.is_some() {
            reasons.push(Reason::SelectorUnsatisfied {
                requirements: vec![format!("{} (invalid)", selector_text.unwrap_or_default())],
            });
        }
        if fallback && !(c.default && defaults.len() == 1) {
            reasons.push(Reason::NotDefault);
        }
        let ranked_last = check_cluster(c, request, states.get(&c.name), &mut reasons, &mut notes);
        decisions.push(Decision {
            cluster: c.name.clone(),
            chosen: reasons.is_empty() && refused.is_empty(),
            reasons,
            ranked_last,
            notes,
        });
    }
    let mut chosen: Vec<String> = decisions
        .iter()
        .filter(|d| d.chosen && !d.ranked_last)
        .map(|d| d.cluster.clone())
        .collect();
    chosen.extend(
        decisions
            .iter()
            .filter(|d| d.chosen && d.ranked_last)
            .map(|d| d.cluster.clone()),
    );
    Placement {
        asked,
        chosen,
        decisions,
        refused,
        warnings,
    }
}

/// A task template's placement, for [`check_templates`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TemplatePlacement {
    /// Template name (group name, job template name).
    pub template: String,
    /// A cluster named explicitly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// The cluster selector.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_selector: Option<String>,
}

impl TemplatePlacement {
    /// The placement of a resource group.
    pub fn of_group(group: &crate::ResourceGroup) -> Self {
        TemplatePlacement {
            template: group.name.clone(),
            cluster: group.placement.cluster.clone(),
            cluster_selector: group.placement.cluster_selector.clone(),
        }
    }

    /// The placement of a CubeStudio project (its expand JSON names a cluster or none).
    pub fn of_project(name: &str, expand: &crate::cubestudio::ProjectExpand) -> Self {
        TemplatePlacement {
            template: name.to_owned(),
            cluster: expand.cluster.clone(),
            cluster_selector: None,
        }
    }
}

/// One template's policy problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct TemplateFinding {
    /// Template name.
    pub template: String,
    /// The rule broken.
    pub violation: PolicyViolation,
    /// `true` when the policy refuses it, `false` when it only warns.
    pub refused: bool,
}

impl fmt::Display for TemplateFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: template {:?}: {}",
            if self.refused { "refused" } else { "warning" },
            self.template,
            self.violation
        )
    }
}

/// Checks every template against the policy: a missing selector when one is required, and a
/// fallback to a production default cluster (per [`PlacementPolicy::production_default`]).
pub fn check_templates(
    registry: &ClusterRegistry,
    templates: &[TemplatePlacement],
    policy: &PlacementPolicy,
) -> Vec<TemplateFinding> {
    let mut out = Vec::new();
    for t in templates {
        let request = PlacementRequest {
            cluster: t.cluster.clone(),
            cluster_selector: t.cluster_selector.clone(),
            ..PlacementRequest::default()
        };
        let p = explain(registry, &request, &BTreeMap::new(), policy);
        for v in &p.refused {
            out.push(TemplateFinding {
                template: t.template.clone(),
                violation: v.clone(),
                refused: true,
            });
        }
        if policy.production_default == PolicyMode::Warn
            && let Some(d) = registry.clusters.iter().find(|c| c.default)
            && t.cluster.as_deref().is_none_or(str::is_empty)
            && t.cluster_selector
                .as_deref()
                .is_none_or(|s| s.trim().is_empty())
            && d.labels.get(&policy.production_label.0) == Some(&policy.production_label.1)
        {
            out.push(TemplateFinding {
                template: t.template.clone(),
                violation: PolicyViolation::ProductionDefault {
                    cluster: d.name.clone(),
                    label: format!(
                        "{}={}",
                        policy.production_label.0, policy.production_label.1
                    ),
                },
                refused: false,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> ClusterRegistry {
        ClusterRegistry::new(vec![
            Cluster::new("bj-prod")
                .label("env", "prod")
                .label("location", "beijing")
                .default_cluster(),
            Cluster::new("sh-prod")
                .label("env", "prod")
                .label("location", "shanghai")
                .taint("maintenance", "", "PreferNoSchedule"),
            Cluster::new("bj-dev")
                .label("env", "dev")
                .label("location", "beijing")
                .taint("dedicated", "dev", "NoSchedule"),
        ])
    }

    fn gpus(n: &str) -> ResourceList {
        let mut l = ResourceList::new();
        l.insert(
            ResourceName::new("nvidia.com/gpu"),
            Quantity::parse(n).unwrap(),
        );
        l
    }

    #[test]
    fn every_cluster_gets_every_reason() {
        let mut states = BTreeMap::new();
        states.insert(
            "bj-prod".to_owned(),
            ClusterState {
                free: Some(gpus("2")),
                ..ClusterState::default()
            },
        );
        states.insert(
            "sh-prod".to_owned(),
            ClusterState {
                taints: vec![Taint {
                    key: TAINT_UNREACHABLE.into(),
                    value: String::new(),
                    effect: "NoSchedule".into(),
                    time_added: None,
                }],
                reason: "ClusterNotReachable".into(),
                ..ClusterState::default()
            },
        );
        let req = PlacementRequest {
            cluster_selector: Some("location in (beijing, shanghai)".into()),
            gpus: gpus("4"),
            ..PlacementRequest::default()
        };
        let p = explain(&registry(), &req, &states, &PlacementPolicy::default());
        assert!(p.chosen.is_empty());
        let text: Vec<String> = p.decisions.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "bj-prod: rejected: 2 nvidia.com/gpu free, 4 requested",
                "sh-prod: rejected: unhealthy (ClusterNotReachable): taint cluster.karmada.io/unreachable:NoSchedule not tolerated",
                "bj-dev: rejected: taint dedicated=dev:NoSchedule not tolerated"
            ]
        );
        assert!(
            p.decision("sh-prod").unwrap().notes.is_empty(),
            "an unhealthy cluster's unknown GPUs are no news"
        );
        let req = PlacementRequest {
            cluster_selector: Some("env=prod".into()),
            gpus: gpus("1"),
            ..PlacementRequest::default()
        };
        let p = explain(
            &registry(),
            &req,
            &BTreeMap::new(),
            &PlacementPolicy::default(),
        );
        assert_eq!(p.chosen, ["bj-prod", "sh-prod"]);
        assert!(p.decision("sh-prod").unwrap().ranked_last);
        assert_eq!(
            p.decision("bj-dev").unwrap().to_string(),
            "bj-dev: rejected: labels do not satisfy env=prod; taint dedicated=dev:NoSchedule not tolerated"
        );
        assert_eq!(
            p.decision("bj-prod").unwrap().notes,
            ["free nvidia.com/gpu not known (not probed)"]
        );
    }

    /// A pod's GPUs come from one node: 8 free in total over two nodes of 4 do not take a task
    /// of 6 (fresh-user 3 H10); per kind too; a cluster whose per-node figures are unknown is
    /// judged on the total alone.
    #[test]
    fn gpus_must_fit_one_node() {
        let mut by_kind = BTreeMap::new();
        by_kind.insert("gpu-type=V100".to_owned(), gpus("8"));
        let mut largest_by_kind = BTreeMap::new();
        largest_by_kind.insert("gpu-type=V100".to_owned(), gpus("4"));
        let state = ClusterState {
            free: Some(gpus("8")),
            largest_free: Some(gpus("4")),
            free_by_gpu_kind: by_kind,
            largest_free_by_gpu_kind: largest_by_kind,
            ..ClusterState::default()
        };
        let mut states = BTreeMap::new();
        states.insert("bj-prod".to_owned(), state.clone());
        let ask = |n: &str, kind: Option<&str>| PlacementRequest {
            cluster: Some("bj-prod".into()),
            gpus: gpus(n),
            gpu_kind: kind.map(Into::into),
            ..PlacementRequest::default()
        };
        let policy = PlacementPolicy::default();
        let p = explain(&registry(), &ask("6", None), &states, &policy);
        assert!(p.chosen.is_empty());
        assert_eq!(
            p.decision("bj-prod").unwrap().to_string(),
            "bj-prod: rejected: 8 nvidia.com/gpu free in total but at most 4 on one node, 6 requested (a pod's GPUs come from one node)"
        );
        let p = explain(&registry(), &ask("6", Some("V100")), &states, &policy);
        assert_eq!(
            p.decision("bj-prod").unwrap().reasons,
            [Reason::GpusSpreadOverNodes {
                resource: ResourceName::new("nvidia.com/gpu"),
                requested: Quantity::parse("6").unwrap(),
                free: Quantity::parse("8").unwrap(),
                largest_on_one_node: Quantity::parse("4").unwrap(),
                gpu_kind: Some("gpu-type=V100".into()),
            }]
        );
        assert_eq!(
            explain(&registry(), &ask("4", None), &states, &policy).chosen,
            ["bj-prod"]
        );
        states.insert(
            "bj-prod".to_owned(),
            ClusterState {
                largest_free: None,
                ..state
            },
        );
        assert_eq!(
            explain(&registry(), &ask("6", None), &states, &policy).chosen,
            ["bj-prod"]
        );
    }

    #[test]
    fn gpus_of_the_requested_kind() {
        let mut states = BTreeMap::new();
        let mut by_kind = BTreeMap::new();
        by_kind.insert("gpu-type=V100".to_owned(), gpus("2"));
        by_kind.insert(
            "nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB".to_owned(),
            gpus("8"),
        );
        states.insert(
            "bj-prod".to_owned(),
            ClusterState {
                free: Some(gpus("10")),
                free_by_gpu_kind: by_kind,
                ..ClusterState::default()
            },
        );
        let ask = |kind: &str| PlacementRequest {
            cluster: Some("bj-prod".into()),
            gpus: gpus("4"),
            gpu_kind: Some(kind.into()),
            ..PlacementRequest::default()
        };
        let policy = PlacementPolicy::default();
        let p = explain(&registry(), &ask(" V100 "), &states, &policy);
        assert!(p.chosen.is_empty());
        assert_eq!(
            p.decision("bj-prod").unwrap().to_string(),
            "bj-prod: rejected: 2 nvidia.com/gpu free on nodes labelled gpu-type=V100, 4 requested"
        );
        let p = explain(
            &registry(),
            &ask("nvidia.com/gpu.product = NVIDIA-A100-SXM4-80GB"),
            &states,
            &policy,
        );
        assert_eq!(p.chosen, ["bj-prod"]);
        let p = explain(&registry(), &ask("T4"), &states, &policy);
        assert_eq!(
            p.decision("bj-prod").unwrap().reasons,
            [Reason::NotEnoughGpus {
                resource: ResourceName::new("nvidia.com/gpu"),
                requested: Quantity::parse("4").unwrap(),
                free: Quantity::ZERO,
                gpu_kind: Some("gpu-type=T4".into()),
            }]
        );
        // Without a kind, every free GPU of the cluster counts.
        let mut any = ask("");
        any.gpu_kind = None;
        assert_eq!(
            explain(&registry(), &any, &states, &policy).chosen,
            ["bj-prod"]
        );
    }

    #[test]
    fn policy_requires_a_selector_and_guards_the_production_default() {
        let r = registry();
        let none = PlacementRequest::default();
        let p = explain(&r, &none, &BTreeMap::new(), &PlacementPolicy::default());
        assert_eq!(p.chosen, ["bj-prod"]);
        assert!(p.warnings[0].contains("default cluster \"bj-prod\", labelled env=prod"));
        assert_eq!(p.decision("bj-dev").unwrap().reasons[0], Reason::NotDefault);

        let strict = PlacementPolicy {
            require_cluster_selector: true,
            production_default: PolicyMode::Refuse,
            ..PlacementPolicy::default()
        };
        let p = explain(&r, &none, &BTreeMap::new(), &strict);
        assert!(p.chosen.is_empty());
        assert_eq!(p.refused.len(), 2);
        assert_eq!(p.refused[0], PolicyViolation::SelectorRequired);

        let templates = [
            TemplatePlacement {
                template: "a".into(),
                cluster_selector: Some("env=dev".into()),
                ..TemplatePlacement::default()
            },
            TemplatePlacement {
                template: "b".into(),
                ..TemplatePlacement::default()
            },
        ];
        let f = check_templates(&r, &templates, &strict);
        assert_eq!(f.len(), 2);
        assert!(f.iter().all(|x| x.template == "b" && x.refused));
        let f = check_templates(&r, &templates, &PlacementPolicy::default());
        assert_eq!(f.len(), 1);
        assert!(!f[0].refused);
        assert!(f[0].to_string().starts_with("warning: template \"b\""));
    }

    #[test]
    fn named_cluster_and_tolerated_unhealthy_taint() {
        let mut states = BTreeMap::new();
        states.insert(
            "bj-dev".to_owned(),
            ClusterState {
                taints: vec![Taint {
                    key: TAINT_NOT_READY.into(),
                    value: String::new(),
                    effect: "NoSchedule".into(),
                    time_added: None,
                }],
                reason: "ClusterUnauthorized".into(),
                free: Some(gpus("8")),
                ..ClusterState::default()
            },
        );
        let req = PlacementRequest {
            cluster: Some("bj-dev".into()),
            tolerations: vec![Toleration {
                operator: "Exists".into(),
                ..Toleration::default()
            }],
            gpus: gpus("8"),
            ..PlacementRequest::default()
        };
        let p = explain(&registry(), &req, &states, &PlacementPolicy::default());
        assert_eq!(p.chosen, ["bj-dev"]);
        assert_eq!(
            p.decision("bj-dev").unwrap().notes,
            [
                "unhealthy (ClusterUnauthorized), taint cluster.karmada.io/not-ready:NoSchedule tolerated"
            ]
        );
        assert_eq!(
            p.decision("bj-prod").unwrap().reasons,
            [Reason::NotNamed {
                wanted: "bj-dev".into()
            }]
        );
    }
}
