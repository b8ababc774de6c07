//! The scheduler filters that read other pods and objects than the node: NodePorts,
//! VolumeBinding (the pod's claims), PodTopologySpread and InterPodAffinity, evaluated over a
//! [`NodeUsage`] (the pods bound to each node, the replicas placed so far included).
//!
//! Mirrors kube-scheduler v1.36 (`pkg/scheduler/framework/plugins/`):
//!
//! | plugin | reason text | code |
//! |---|---|---|
//! | `NodePorts` (`nodeports/node_ports.go`) | `node(s) didn't have free ports for the requested pod ports` | Unschedulable |
//! | `VolumeBinding` PreFilter (`volumebinding/volume_binding.go`) | `persistentvolumeclaim "<c>" not found`, `persistentvolumeclaim "<c>" is being deleted`, `pod has unbound immediate PersistentVolumeClaims` | UnschedulableAndUnresolvable (every node) |
//! | `VolumeBinding` Filter (`volumebinding/binder.go`) | `node(s) had volume node affinity conflict`, `node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)`, `node(s) didn't find available persistent volumes to bind` | UnschedulableAndUnresolvable |
//! | `VolumeZone` (`volumezone/volume_zone.go`) | `node(s) had no available volume zone` | UnschedulableAndUnresolvable |
//! | `PodTopologySpread` (`podtopologyspread/filtering.go`) | `node(s) didn't match pod topology spread constraints (missing required label)` / `node(s) didn't match pod topology spread constraints` | UnschedulableAndUnresolvable / Unschedulable |
//! | `InterPodAffinity` (`interpodaffinity/filtering.go`) | `node(s) didn't match pod affinity rules` / `node(s) didn't match pod anti-affinity rules` / `node(s) didn't satisfy existing pods anti-affinity rules` | UnschedulableAndUnresolvable / Unschedulable / Unschedulable |
//!
//! The default profile runs them in the order NodePorts, (NodeResourcesFit), VolumeBinding,
//! VolumeZone, PodTopologySpread, InterPodAffinity, after NodeUnschedulable, TaintToleration and
//! NodeAffinity; a node reports the first plugin that fails.
//!
//! Semantics kept from upstream:
//! - affinity terms: a nil `labelSelector` selects nothing, an empty one everything; the
//!   namespaces are `namespaces` plus those whose labels `namespaceSelector` selects (an empty
//!   selector: every namespace), the pod's own namespace when both are unset; every namespace
//!   carries `kubernetes.io/metadata.name`;
//! - required pod affinity: the node must carry every term's topology key and its domain must
//!   hold a pod matching all terms, except for the first pod of a group (no pod anywhere
//!   matches, and the pod matches its own terms);
//! - required anti-affinity (the pod's own and that of the pods already placed, symmetric): a
//!   node without the topology key is not in any domain and passes;
//! - topology spread (`whenUnsatisfiable: DoNotSchedule` only; `ScheduleAnyway` and the
//!   default constraints only score): counted over the nodes that pass the pod's node
//!   affinity/selector (`nodeAffinityPolicy: Honor`, the default) and its taints only with
//!   `nodeTaintsPolicy: Honor`, that carry every constraint's key; pods of the pod's namespace
//!   that are not terminating; `matchLabelKeys` add the pod's own values to the selector;
//!   `minDomains` above the domain count makes the global minimum 0;
//! - host ports: a port conflicts with one of the same protocol and number whose host IP is
//!   the same or either is `0.0.0.0` (or unset).

use std::collections::{BTreeSet, HashMap};

use cube_model::ClusterSnapshot;
use cube_model::objects::{Labels, Pod, PodAffinityTerm, Taint};
use cube_model::selector::{
    Operator, Requirement, Selector, pod_matches_node_selector_and_affinity,
    tolerations_tolerate_taint,
};

use crate::fit::{FilterPlugin, FitCode, NodeUsage};

/// NodePorts reason.
pub const REASON_NODE_PORTS: &str = "node(s) didn't have free ports for the requested pod ports";
/// InterPodAffinity: the pod's required affinity.
pub const REASON_POD_AFFINITY: &str = "node(s) didn't match pod affinity rules";
/// InterPodAffinity: the pod's required anti-affinity.
pub const REASON_POD_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";
/// InterPodAffinity: the anti-affinity of pods already placed.
pub const REASON_EXISTING_ANTI_AFFINITY: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";
/// PodTopologySpread: skew.
pub const REASON_SPREAD: &str = "node(s) didn't match pod topology spread constraints";
/// PodTopologySpread: the node lacks a constraint's topology key.
pub const REASON_SPREAD_LABEL: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
/// VolumeBinding: a bound volume's node affinity excludes the node.
pub const REASON_VOLUME_NODE_AFFINITY: &str = "node(s) had volume node affinity conflict";
/// VolumeBinding: a claim is bound to a volume that does not exist.
pub const REASON_VOLUME_MISSING_PV: &str =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
/// VolumeBinding: an unbound claim without dynamic provisioning and no volume to bind.
pub const REASON_VOLUME_BIND: &str = "node(s) didn't find available persistent volumes to bind";
/// VolumeZone's reason (`volumezone/volume_zone.go` `ErrReasonConflict`).
pub const REASON_VOLUME_ZONE: &str = "node(s) had no available volume zone";

/// The topology labels VolumeZone reads on volumes and nodes (`volume_zone.go`
/// `topologyLabels`): the beta and GA zone and region keys.
const VOLUME_ZONE_LABELS: [&str; 4] = [
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
];

/// VolumeZone's `translateToGALabel`: a beta zone or region key's GA key.
fn ga_zone_label(key: &str) -> Option<&'static str> {
    match key {
        "failure-domain.beta.kubernetes.io/zone" => Some("topology.kubernetes.io/zone"),
        "failure-domain.beta.kubernetes.io/region" => Some("topology.kubernetes.io/region"),
        _ => None,
    }
}
/// VolumeBinding PreFilter: an unbound claim of an `Immediate` class.
pub const REASON_UNBOUND_IMMEDIATE: &str = "pod has unbound immediate PersistentVolumeClaims";

/// The hostname label (InterPodAffinity's host-scoped fast path).
const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";

/// One compiled `PodAffinityTerm` (upstream `framework.AffinityTerm`).
#[derive(Debug, Clone)]
struct Term {
    /// `None`: a nil label selector, which selects nothing.
    selector: Option<Selector>,
    namespaces: BTreeSet<String>,
    /// `Some(empty)`: every namespace.
    namespace_selector: Option<Selector>,
    topology_key: String,
}

impl Term {
    fn compile(t: &PodAffinityTerm, own_namespace: &str) -> Self {
        let selector = t.label_selector.as_ref().map(|s| {
            // an invalid selector selects nothing, as upstream's conversion error
            s.to_selector().unwrap_or_else(|_| nothing_selector())
        });
        let namespace_selector = t
            .namespace_selector
            .as_ref()
            .map(|s| s.to_selector().unwrap_or_else(|_| nothing_selector()));
        let mut namespaces: BTreeSet<String> = t.namespaces.iter().cloned().collect();
        if namespaces.is_empty() && namespace_selector.is_none() {
            namespaces.insert(own_namespace.to_owned());
        }
        Term {
            selector,
            namespaces,
            namespace_selector,
            topology_key: t.topology_key.clone(),
        }
    }

    /// Upstream `AffinityTerm.Matches`: the pod's namespace is one of the term's and its labels
    /// match the selector.
    fn matches(&self, pod: &Pod, ns_labels: &NamespaceLabels) -> bool {
        let Some(sel) = &self.selector else {
            return false;
        };
        let ns = pod.metadata.namespace.as_str();
        let in_ns = self.namespaces.contains(ns)
            || self
                .namespace_selector
                .as_ref()
                .is_some_and(|s| s.matches(ns_labels.get(ns)));
        in_ns && sel.matches(&pod.metadata.labels)
    }
}

/// A selector that selects nothing (`key` exists and does not exist).
fn nothing_selector() -> Selector {
    let reqs = ["Exists", "DoesNotExist"]
        .iter()
        .filter_map(|op| {
            let op = if *op == "Exists" {
                Operator::Exists
            } else {
                Operator::DoesNotExist
            };
            Requirement::new("cube.invalid/nothing", op, Vec::<String>::new()).ok()
        })
        .collect();
    Selector::from_requirements(reqs)
}

/// The labels of each namespace, with `kubernetes.io/metadata.name` (set by the API server on
/// every namespace).
#[derive(Debug, Clone, Default)]
pub(crate) struct NamespaceLabels {
    by_name: HashMap<String, Labels>,
    empty: Labels,
}

impl NamespaceLabels {
    fn build(snapshot: &ClusterSnapshot) -> Self {
        let mut by_name = HashMap::new();
        for ns in &snapshot.namespaces {
            let mut l = ns.metadata.labels.clone();
            l.insert(
                "kubernetes.io/metadata.name".to_owned(),
                ns.metadata.name.clone(),
            );
            by_name.insert(ns.metadata.name.clone(), l);
        }
        NamespaceLabels {
            by_name,
            empty: Labels::default(),
        }
    }
    fn get(&self, ns: &str) -> &Labels {
        self.by_name.get(ns).unwrap_or(&self.empty)
    }
}

/// A pod already placed that has required anti-affinity terms.
#[derive(Debug, Clone)]
struct ExistingAnti {
    /// Position of its node in the index.
    position: usize,
    terms: Vec<Term>,
}

/// What a session computes once: namespace labels and the placed pods with required
/// anti-affinity (existing pods, then the ones placed in the session).
#[derive(Debug, Clone, Default)]
pub(crate) struct SessionPods {
    ns_labels: NamespaceLabels,
    existing_anti: Vec<ExistingAnti>,
}

fn required_terms(p: &Pod, anti: bool) -> &[PodAffinityTerm] {
    p.spec
        .affinity
        .as_ref()
        .and_then(|a| {
            if anti {
                a.pod_anti_affinity.as_ref()
            } else {
                a.pod_affinity.as_ref()
            }
        })
        .map(|a| {
            a.required_during_scheduling_ignored_during_execution
                .as_slice()
        })
        .unwrap_or(&[])
}

impl SessionPods {
    /// Scans the pods bound to the index's nodes once.
    pub(crate) fn build(usage: &NodeUsage, snapshot: &ClusterSnapshot) -> Self {
        let mut existing_anti = Vec::new();
        for (position, state) in usage.nodes.iter().enumerate() {
            for &i in &state.pods {
                if let Some(p) = usage.pod(snapshot, i) {
                    let terms = required_terms(p, true);
                    if !terms.is_empty() {
                        existing_anti.push(ExistingAnti {
                            position,
                            terms: terms
                                .iter()
                                .map(|t| Term::compile(t, &p.metadata.namespace))
                                .collect(),
                        });
                    }
                }
            }
        }
        SessionPods {
            ns_labels: NamespaceLabels::build(snapshot),
            existing_anti,
        }
    }

    /// `pod` was placed on the node at `position`.
    pub(crate) fn placed(&mut self, pod: &Pod, position: usize) {
        let terms = required_terms(pod, true);
        if !terms.is_empty() {
            self.existing_anti.push(ExistingAnti {
                position,
                terms: terms
                    .iter()
                    .map(|t| Term::compile(t, &pod.metadata.namespace))
                    .collect(),
            });
        }
    }
}

/// A host port: protocol, host IP (`0.0.0.0` for any), port.
type HostPort = (String, String, i32);

fn host_ports(pod: &Pod) -> Vec<HostPort> {
    pod.spec
        .containers
        .iter()
        .chain(pod.spec.init_containers.iter())
        .flat_map(|c| c.ports.iter())
        .filter(|p| p.host_port > 0)
        .map(|p| {
            let proto = if p.protocol.is_empty() {
                "TCP".to_owned()
            } else {
                p.protocol.clone()
            };
            let ip = if p.host_ip.is_empty() {
                "0.0.0.0".to_owned()
            } else {
                p.host_ip.clone()
            };
            (proto, ip, p.host_port)
        })
        .collect()
}

/// True when a host port of `pod` is taken on the node at `position` (the NodePorts check the
/// kubelet's admission runs too).
pub(crate) fn host_ports_taken(
    usage: &NodeUsage,
    snapshot: &ClusterSnapshot,
    pod: &Pod,
    position: usize,
    _session: &SessionPods,
) -> bool {
    let mine = host_ports(pod);
    !mine.is_empty()
        && usage.nodes.get(position).is_some_and(|state| {
            state.pods.iter().any(|&i| {
                usage.pod(snapshot, i).is_some_and(|p| {
                    let theirs = host_ports(p);
                    mine.iter()
                        .any(|a| theirs.iter().any(|b| ports_conflict(a, b)))
                })
            })
        })
}

fn ports_conflict(a: &HostPort, b: &HostPort) -> bool {
    a.0 == b.0 && a.2 == b.2 && (a.1 == b.1 || a.1 == "0.0.0.0" || b.1 == "0.0.0.0")
}

/// One compiled `DoNotSchedule` spread constraint.
#[derive(Debug, Clone)]
struct Spread {
    max_skew: i64,
    key: String,
    selector: Selector,
    min_domains: Option<i64>,
    honor_affinity: bool,
    honor_taints: bool,
}

/// A claim of the pod bound to a volume: the volume's node affinity, `None` when the volume
/// does not exist.
#[derive(Debug, Clone)]
enum BoundClaim {
    Volume(Option<cube_model::objects::NodeSelector>),
    Missing,
}

/// The filters of this module compiled for one pod over one session.
#[derive(Debug, Clone)]
pub(crate) struct PodConstraints {
    /// VolumeBinding PreFilter's refusal (every node UnschedulableAndUnresolvable).
    pub(crate) prefilter: Option<String>,
    ports: Vec<HostPort>,
    bound: Vec<BoundClaim>,
    /// VolumeZone: the bound volumes' zone/region labels, each with its allowed values
    /// (`a__b` lists several, `LabelZonesToSet`).
    zones: Vec<(String, BTreeSet<String>)>,
    /// Unbound claims of a WaitForFirstConsumer class that cannot be provisioned.
    unprovisionable: bool,
    spread: Vec<Spread>,
    affinity: Vec<Term>,
    anti: Vec<Term>,
    /// Per spread constraint: domain value -> matching pods.
    spread_counts: Vec<HashMap<String, i64>>,
    /// Per spread constraint: the global minimum (`minDomains` applied), kept up to date.
    spread_min: Vec<i64>,
    /// Affinity counts per (key, value) for the non-hostname terms (all affinity terms).
    affinity_counts: HashMap<(String, String), i64>,
    /// Any pod anywhere matches all affinity terms.
    affinity_any: bool,
    anti_counts: HashMap<(String, String), i64>,
    self_affinity: bool,
    /// The domains (topology key, value) where a placed pod's required anti-affinity term
    /// selects this pod: nodes in them are refused.
    existing_domains: std::collections::HashSet<(String, String)>,
    /// The topology keys of [`PodConstraints::existing_domains`].
    existing_keys: BTreeSet<String>,
}

impl PodConstraints {
    /// Compiles `pod`'s constraints; `None` when no filter of this module can fail for it
    /// (no host port, claim, DoNotSchedule constraint or required pod (anti-)affinity, and no
    /// placed pod has required anti-affinity): the fast path.
    pub(crate) fn compile(
        session: &SessionPods,
        usage: &NodeUsage,
        snapshot: &ClusterSnapshot,
        pod: &Pod,
    ) -> Option<Self> {
        let ports = host_ports(pod);
        let claims: Vec<&str> = pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
            .map(|c| c.claim_name.as_str())
            .collect();
        let spread_src: Vec<_> = pod
            .spec
            .topology_spread_constraints
            .iter()
            .filter(|c| c.when_unsatisfiable == "DoNotSchedule")
            .collect();
        let affinity_src = required_terms(pod, false);
        let anti_src = required_terms(pod, true);
        // the placed pods' anti-affinity terms that select this pod, as the domains they close
        let mut existing_domains = std::collections::HashSet::new();
        let mut existing_keys = BTreeSet::new();
        for e in &session.existing_anti {
            let Some(node) = usage
                .nodes
                .get(e.position)
                .and_then(|s| snapshot.nodes.get(s.index))
            else {
                continue;
            };
            for t in &e.terms {
                if let Some(v) = node.metadata.labels.get(&t.topology_key)
                    && t.matches(pod, &session.ns_labels)
                {
                    existing_domains.insert((t.topology_key.clone(), v.to_owned()));
                    existing_keys.insert(t.topology_key.clone());
                }
            }
        }
        if ports.is_empty()
            && claims.is_empty()
            && spread_src.is_empty()
            && affinity_src.is_empty()
            && anti_src.is_empty()
            && existing_domains.is_empty()
        {
            return None;
        }
        let ns = pod.metadata.namespace.as_str();
        let mut c = PodConstraints {
            prefilter: None,
            ports,
            bound: Vec::new(),
            zones: Vec::new(),
            unprovisionable: false,
            spread: Vec::new(),
            affinity: affinity_src.iter().map(|t| Term::compile(t, ns)).collect(),
            anti: anti_src.iter().map(|t| Term::compile(t, ns)).collect(),
            spread_counts: Vec::new(),
            spread_min: Vec::new(),
            affinity_counts: HashMap::new(),
            affinity_any: false,
            anti_counts: HashMap::new(),
            self_affinity: false,
            existing_domains,
            existing_keys,
        };
        c.compile_claims(snapshot, pod, &claims);
        for sc in spread_src {
            let mut sel = sc
                .label_selector
                .as_ref()
                .map(|s| s.to_selector().unwrap_or_else(|_| nothing_selector()))
                .unwrap_or_else(nothing_selector);
            if !sc.match_label_keys.is_empty() {
                // matchLabelKeys: the pod's own values ANDed into the selector (merged by the
                // API server since v1.34, by the plugin before)
                let mut reqs = sel.requirements().to_vec();
                for k in &sc.match_label_keys {
                    if let Some(v) = pod.metadata.labels.get(k)
                        && let Ok(r) = Requirement::new(k, Operator::In, [v.to_owned()])
                    {
                        reqs.push(r);
                    }
                }
                sel = Selector::from_requirements(reqs);
            }
            c.spread.push(Spread {
                max_skew: i64::from(sc.max_skew.max(1)),
                key: sc.topology_key.clone(),
                selector: sel,
                min_domains: sc.min_domains.map(i64::from),
                honor_affinity: sc.node_affinity_policy.as_deref() != Some("Ignore"),
                honor_taints: sc.node_taints_policy.as_deref() == Some("Honor"),
            });
        }
        c.count(session, usage, snapshot, pod);
        c.spread_min = (0..c.spread.len()).map(|k| c.min_of(k)).collect();
        Some(c)
    }

    /// VolumeBinding's view of the pod's claims (only when the snapshot's claims were read:
    /// an absent kind is not an absent claim).
    fn compile_claims(&mut self, snapshot: &ClusterSnapshot, pod: &Pod, claims: &[&str]) {
        use cube_model::snapshot::KindStatus;
        if claims.is_empty()
            || !matches!(
                snapshot.kind_status("PersistentVolumeClaim"),
                KindStatus::Listed | KindStatus::Present
            )
        {
            return;
        }
        let ns = pod.metadata.namespace.as_str();
        let mut unbound_immediate = false;
        for name in claims {
            let Some(claim) = snapshot
                .persistent_volume_claims
                .iter()
                .find(|c| c.metadata.namespace == ns && c.metadata.name == *name)
            else {
                self.prefilter = Some(format!("persistentvolumeclaim \"{name}\" not found"));
                return;
            };
            if claim.metadata.deletion_timestamp.is_some() {
                self.prefilter = Some(format!("persistentvolumeclaim \"{name}\" is being deleted"));
                return;
            }
            if !claim.spec.volume_name.is_empty() {
                let pv = snapshot
                    .persistent_volumes
                    .iter()
                    .find(|v| v.metadata.name == claim.spec.volume_name);
                let pvs_read = matches!(
                    snapshot.kind_status("PersistentVolume"),
                    KindStatus::Listed | KindStatus::Present
                );
                if let Some(v) = pv {
                    for key in VOLUME_ZONE_LABELS {
                        if let Some(value) = v.metadata.labels.get(key) {
                            let values = value.split("__").map(str::to_owned).collect();
                            self.zones.push((key.to_owned(), values));
                        }
                    }
                }
                match pv {
                    Some(v) => self.bound.push(BoundClaim::Volume(
                        v.spec
                            .node_affinity
                            .as_ref()
                            .and_then(|a| a.required.clone()),
                    )),
                    None if pvs_read => self.bound.push(BoundClaim::Missing),
                    None => {}
                }
                continue;
            }
            // unbound: the class's binding mode (no class, or a class the snapshot does not
            // hold, binds immediately)
            let class = claim.spec.storage_class_name.as_deref().unwrap_or("");
            let sc = snapshot
                .storage_classes
                .iter()
                .find(|s| s.metadata.name == class);
            match sc {
                Some(s) if s.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer") => {
                    let provisions = s.provisioner != "kubernetes.io/no-provisioner";
                    let available_pv = snapshot.persistent_volumes.iter().any(|v| {
                        v.spec.storage_class_name == class
                            && v.spec.claim_ref.is_none()
                            && v.status.phase == "Available"
                    });
                    if !provisions && !available_pv {
                        self.unprovisionable = true;
                    }
                }
                None if !class.is_empty() => {
                    // a class the snapshot does not hold: its binding mode is unknown
                }
                _ => unbound_immediate = true,
            }
        }
        if unbound_immediate {
            self.prefilter = Some(REASON_UNBOUND_IMMEDIATE.to_owned());
        }
    }

    /// The PreFilter counts of the spread constraints and of the pod's (anti-)affinity terms.
    fn count(
        &mut self,
        session: &SessionPods,
        usage: &NodeUsage,
        snapshot: &ClusterSnapshot,
        pod: &Pod,
    ) {
        let ns_labels = &session.ns_labels;
        self.self_affinity =
            !self.affinity.is_empty() && self.affinity.iter().all(|t| t.matches(pod, ns_labels));
        self.spread_counts = vec![HashMap::new(); self.spread.len()];
        let need_affinity = !self.affinity.is_empty();
        let need_anti = self.anti.iter().any(|t| t.topology_key != LABEL_HOSTNAME);
        if self.spread.is_empty() && !need_affinity && !need_anti {
            return;
        }
        for state in &usage.nodes {
            let Some(node) = snapshot.nodes.get(state.index) else {
                continue;
            };
            let labels = &node.metadata.labels;
            // spread: eligible nodes register their domains (count 0)
            let spread_eligible = !self.spread.is_empty()
                && self.spread.iter().all(|s| labels.contains_key(&s.key))
                && self.spread.iter().all(|s| {
                    (!s.honor_affinity || pod_matches_node_selector_and_affinity(&pod.spec, node))
                        && (!s.honor_taints || tolerates_node(pod, &state.taints))
                });
            if spread_eligible {
                for (k, s) in self.spread.iter().enumerate() {
                    if let Some(v) = labels.get(&s.key) {
                        self.spread_counts[k].entry(v.to_owned()).or_insert(0);
                    }
                }
            }
            for &i in &state.pods {
                let Some(p) = usage.pod(snapshot, i) else {
                    continue;
                };
                if spread_eligible && p.metadata.deletion_timestamp.is_none() {
                    for (k, s) in self.spread.iter().enumerate() {
                        if p.metadata.namespace == pod.metadata.namespace
                            && s.selector.matches(&p.metadata.labels)
                            && let Some(v) = labels.get(&s.key)
                        {
                            *self.spread_counts[k].entry(v.to_owned()).or_insert(0) += 1;
                        }
                    }
                }
                if need_affinity && self.affinity.iter().all(|t| t.matches(p, ns_labels)) {
                    self.affinity_any = true;
                    for t in &self.affinity {
                        if let Some(v) = labels.get(&t.topology_key) {
                            *self
                                .affinity_counts
                                .entry((t.topology_key.clone(), v.to_owned()))
                                .or_insert(0) += 1;
                        }
                    }
                }
                if need_anti {
                    for t in &self.anti {
                        if t.topology_key != LABEL_HOSTNAME
                            && t.matches(p, ns_labels)
                            && let Some(v) = labels.get(&t.topology_key)
                        {
                            *self
                                .anti_counts
                                .entry((t.topology_key.clone(), v.to_owned()))
                                .or_insert(0) += 1;
                        }
                    }
                }
            }
        }
    }

    /// The first of this module's filters that fails on the node at `position`, in the
    /// scheduler's order, split around NodeResourcesFit: `before_resources` evaluates NodePorts
    /// only, otherwise the plugins after it.
    pub(crate) fn check(
        &self,
        session: &SessionPods,
        usage: &NodeUsage,
        snapshot: &ClusterSnapshot,
        pod: &Pod,
        position: usize,
        before_resources: bool,
    ) -> Option<(FilterPlugin, &'static str, FitCode)> {
        let state = &usage.nodes[position];
        let node = snapshot.nodes.get(state.index)?;
        let labels = &node.metadata.labels;
        if before_resources {
            if !self.ports.is_empty() {
                for &i in &state.pods {
                    let Some(p) = usage.pod(snapshot, i) else {
                        continue;
                    };
                    let theirs = host_ports(p);
                    if self
                        .ports
                        .iter()
                        .any(|a| theirs.iter().any(|b| ports_conflict(a, b)))
                    {
                        return Some((
                            FilterPlugin::NodePorts,
                            REASON_NODE_PORTS,
                            FitCode::Unschedulable,
                        ));
                    }
                }
            }
            return None;
        }
        // VolumeBinding
        for b in &self.bound {
            let fails = match b {
                BoundClaim::Missing => Some(REASON_VOLUME_MISSING_PV),
                BoundClaim::Volume(Some(sel)) if !sel.matches(node) => {
                    Some(REASON_VOLUME_NODE_AFFINITY)
                }
                BoundClaim::Volume(_) => None,
            };
            if let Some(r) = fails {
                return Some((
                    FilterPlugin::VolumeBinding,
                    r,
                    FitCode::UnschedulableAndUnresolvable,
                ));
            }
        }
        if self.unprovisionable {
            return Some((
                FilterPlugin::VolumeBinding,
                REASON_VOLUME_BIND,
                FitCode::UnschedulableAndUnresolvable,
            ));
        }
        // VolumeZone: a node without any zone or region label passes
        if !self.zones.is_empty() && VOLUME_ZONE_LABELS.iter().any(|k| labels.get(k).is_some()) {
            for (key, values) in &self.zones {
                let v = labels
                    .get(key)
                    .or_else(|| ga_zone_label(key).and_then(|g| labels.get(g)));
                if !v.is_some_and(|v| values.contains(v)) {
                    return Some((
                        FilterPlugin::VolumeZone,
                        REASON_VOLUME_ZONE,
                        FitCode::UnschedulableAndUnresolvable,
                    ));
                }
            }
        }
        // PodTopologySpread
        for (k, s) in self.spread.iter().enumerate() {
            let Some(v) = labels.get(&s.key) else {
                return Some((
                    FilterPlugin::PodTopologySpread,
                    REASON_SPREAD_LABEL,
                    FitCode::UnschedulableAndUnresolvable,
                ));
            };
            let min = self.spread_min[k];
            let own = self.spread_counts[k].get(v).copied().unwrap_or(0);
            let self_match = i64::from(s.selector.matches(&pod.metadata.labels));
            if own + self_match - min > s.max_skew {
                return Some((
                    FilterPlugin::PodTopologySpread,
                    REASON_SPREAD,
                    FitCode::Unschedulable,
                ));
            }
        }
        // InterPodAffinity: the pod's affinity, its anti-affinity, then the placed pods'
        let ns_labels = &session.ns_labels;
        if !self.affinity.is_empty() {
            let has_keys = self
                .affinity
                .iter()
                .all(|t| labels.contains_key(&t.topology_key));
            let pods_exist = has_keys
                && self.affinity.iter().all(|t| {
                    labels.get(&t.topology_key).is_some_and(|v| {
                        self.affinity_counts
                            .get(&(t.topology_key.clone(), v.to_owned()))
                            .is_some_and(|&n| n > 0)
                    })
                });
            let ok = pods_exist || (has_keys && !self.affinity_any && self.self_affinity);
            if !ok {
                return Some((
                    FilterPlugin::InterPodAffinity,
                    REASON_POD_AFFINITY,
                    FitCode::UnschedulableAndUnresolvable,
                ));
            }
        }
        if !self.anti.is_empty() {
            let topology_conflict = self.anti.iter().any(|t| {
                t.topology_key != LABEL_HOSTNAME
                    && labels.get(&t.topology_key).is_some_and(|v| {
                        self.anti_counts
                            .get(&(t.topology_key.clone(), v.to_owned()))
                            .is_some_and(|&n| n > 0)
                    })
            });
            let host_conflict = labels.contains_key(LABEL_HOSTNAME)
                && self.anti.iter().any(|t| t.topology_key == LABEL_HOSTNAME)
                && state.pods.iter().any(|&i| {
                    usage.pod(snapshot, i).is_some_and(|p| {
                        self.anti
                            .iter()
                            .any(|t| t.topology_key == LABEL_HOSTNAME && t.matches(p, ns_labels))
                    })
                });
            if topology_conflict || host_conflict {
                return Some((
                    FilterPlugin::InterPodAffinity,
                    REASON_POD_ANTI_AFFINITY,
                    FitCode::Unschedulable,
                ));
            }
        }
        let closed = self.existing_keys.iter().any(|k| {
            labels
                .get(k)
                .is_some_and(|v| self.existing_domains.contains(&(k.clone(), v.to_owned())))
        });
        if closed {
            return Some((
                FilterPlugin::InterPodAffinity,
                REASON_EXISTING_ANTI_AFFINITY,
                FitCode::Unschedulable,
            ));
        }
        None
    }

    /// The global minimum of spread constraint `k` (upstream `minMatchNum`): 0 when fewer
    /// domains than `minDomains` exist, else the smallest count (no domain at all: no bound).
    fn min_of(&self, k: usize) -> i64 {
        let counts = &self.spread_counts[k];
        match self.spread[k].min_domains {
            Some(m) if (counts.len() as i64) < m => 0,
            _ => counts
                .values()
                .copied()
                .min()
                .unwrap_or(i64::from(i32::MAX)),
        }
    }

    /// True when placing more pods can only close nodes, never open one (no pod affinity and no
    /// spread constraint: host ports and anti-affinity exclude more nodes as pods are placed),
    /// so a search for the next replica may resume where the last one was placed.
    pub(crate) fn monotone(&self) -> bool {
        self.affinity.is_empty() && self.spread.is_empty()
    }

    /// The same pod (another replica of it) was placed at `position`: the counts as a new
    /// PreFilter would compute them.
    pub(crate) fn placed(
        &mut self,
        snapshot: &ClusterSnapshot,
        usage: &NodeUsage,
        pod: &Pod,
        position: usize,
        session: &SessionPods,
    ) {
        let Some(node) = usage
            .nodes
            .get(position)
            .and_then(|s| snapshot.nodes.get(s.index))
        else {
            return;
        };
        let labels = &node.metadata.labels;
        let ns_labels = &session.ns_labels;
        for k in 0..self.spread.len() {
            let s = &self.spread[k];
            if let Some(v) = labels.get(&s.key)
                && s.selector.matches(&pod.metadata.labels)
                && let Some(n) = self.spread_counts[k].get_mut(v)
            {
                *n += 1;
                self.spread_min[k] = self.min_of(k);
            }
        }
        if self.self_affinity {
            self.affinity_any = true;
            for t in &self.affinity {
                if let Some(v) = labels.get(&t.topology_key) {
                    *self
                        .affinity_counts
                        .entry((t.topology_key.clone(), v.to_owned()))
                        .or_insert(0) += 1;
                }
            }
        }
        for t in &self.anti {
            if t.matches(pod, ns_labels)
                && let Some(v) = labels.get(&t.topology_key)
            {
                if t.topology_key != LABEL_HOSTNAME {
                    *self
                        .anti_counts
                        .entry((t.topology_key.clone(), v.to_owned()))
                        .or_insert(0) += 1;
                }
                // the placed replica's own term closes its domain to the next ones
                self.existing_domains
                    .insert((t.topology_key.clone(), v.to_owned()));
                self.existing_keys.insert(t.topology_key.clone());
            }
        }
    }
}

/// True when the pod tolerates every `NoSchedule`/`NoExecute` taint of the node
/// (`nodeTaintsPolicy: Honor`).
fn tolerates_node(pod: &Pod, taints: &[Taint]) -> bool {
    taints.iter().all(|t| {
        !(t.effect == "NoSchedule" || t.effect == "NoExecute")
            || tolerations_tolerate_taint(&pod.spec.tolerations, t)
    })
}
