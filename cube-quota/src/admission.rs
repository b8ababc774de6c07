//! Admission of pods into one namespace at full speed.
//!
//! [`NamespaceAdmission`] compiles what the API server reads when a pod is created in a
//! namespace, once: the namespace's phase (NamespaceLifecycle), its LimitRanges as stored
//! (API-defaulted) with their container defaults, the default PriorityClass, and its quotas
//! with every tracked `hard` key, its limit and its current usage in a dense vector. Each
//! [`NamespaceAdmission::admit_pod`] then runs the whole chain of [`crate::whatif`]
//! (API defaulting with milli rounding, LimitRanger defaulting, priority, validation,
//! LimitRanger validation, quota with charging) on a virtual view of the stored pod, without
//! cloning the pod and without any heap allocation when the pod is admitted.
//!
//! The fast path covers the common shape (app containers only, at most 8 of them with at most
//! 8 resource names each, no pod-level resources, no overhead, no status, quotas without a
//! `limitedResources` configuration, names not hugepages). Anything else, and every refusal,
//! goes through the detailed path ([`crate::whatif`]'s per-pod pipeline), which gives the
//! API server's exact message; both paths charge the same quota state, so replicas can mix
//! them. A property test checks that both give the same answers and the same quota usage.

use std::borrow::Cow;

use cube_model::objects::{
    LimitRange, Pod, PriorityClass, ScopedResourceSelectorRequirement, Time,
};
use cube_model::{ClusterSnapshot, Quantity, ResourceList, ResourceName};

use crate::limitrange::{
    default_container_requirements, default_limit_range, max_violation, min_violation,
    ratio_violation,
};
use crate::quota::{
    MUST_SPECIFY_RESOURCES, QuotaAdmissionConfig, QuotaState, ScopeFacts, has_usage_stats,
    is_extended_resource_name, pod_tracks, scope_matches, scope_selectors,
};
use crate::requests::qos_of;
use crate::validation::{is_integer_resource_name, is_overcommit_allowed};
use crate::whatif::{Rejection, ReplicaOutcome};

/// Containers the fast path handles (more go through the detailed path).
const MAX_CONTAINERS: usize = 8;
/// Resource names per container the fast path handles.
const MAX_NAMES: usize = 8;
/// Distinct resource names per pod the fast path handles.
const MAX_POD_NAMES: usize = 16;
/// Quota keys one pod may charge on the fast path.
const MAX_CHARGES: usize = 48;

/// The phase of the namespace as NamespaceLifecycle sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NamespacePhase {
    /// The namespace exists and is active (or the snapshot holds no Namespace objects, so
    /// existence is not checked).
    Active,
    /// The snapshot lists namespaces and this one is not among them.
    NotFound,
    /// The namespace is being deleted (`status.phase: Terminating`).
    Terminating,
}

/// Namespaces the API server always has (upstream's immortal namespaces, plus the node lease
/// namespace it creates at start-up): never reported missing even when a snapshot's Namespace
/// list leaves them out.
const ALWAYS_PRESENT: [&str; 4] = ["default", "kube-system", "kube-public", "kube-node-lease"];

/// The phase of `namespace` in `snapshot` (upstream NamespaceLifecycle,
/// `staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go`):
/// checked only when the snapshot holds Namespace objects.
pub fn namespace_phase(snapshot: &ClusterSnapshot, namespace: &str) -> NamespacePhase {
    if snapshot.namespaces.is_empty() || namespace.is_empty() {
        return NamespacePhase::Active;
    }
    match snapshot
        .namespaces
        .iter()
        .find(|n| n.metadata.name == namespace)
    {
        Some(n) if n.status.phase == "Terminating" => NamespacePhase::Terminating,
        Some(_) => NamespacePhase::Active,
        None if ALWAYS_PRESENT.contains(&namespace) => NamespacePhase::Active,
        None => NamespacePhase::NotFound,
    }
}

/// What a tracked quota key charges for one pod.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Charge {
    /// `count/pods` and `pods`: 1.
    One,
    /// The sum of the containers' requests of this resource.
    Requests(ResourceName),
    /// The sum of the containers' limits of this resource.
    Limits(ResourceName),
}

/// The charge of a key the pod evaluator tracks (upstream `podComputeUsageHelper`).
fn charge_of(key: &str) -> Option<Charge> {
    Some(match key {
        "count/pods" | "pods" => Charge::One,
        "cpu" | "memory" | "ephemeral-storage" => Charge::Requests(key.into()),
        k if k.starts_with("hugepages-") => Charge::Requests(key.into()),
        k => match (k.strip_prefix("requests."), k.strip_prefix("limits.")) {
            (Some(r @ ("cpu" | "memory" | "ephemeral-storage")), _) => Charge::Requests(r.into()),
            (Some(r), _) if r.starts_with("hugepages-") || is_extended_resource_name(r) => {
                Charge::Requests(r.into())
            }
            (_, Some(l @ ("cpu" | "memory" | "ephemeral-storage"))) => Charge::Limits(l.into()),
            _ => return None,
        },
    })
}

/// One tracked key of a quota, with its limit and current usage.
#[derive(Debug, Clone)]
struct DenseKey {
    name: ResourceName,
    charge: Charge,
    hard: Quantity,
    used: Quantity,
}

/// One quota, compiled.
#[derive(Debug, Clone)]
struct CompiledQuota {
    selectors: Vec<ScopedResourceSelectorRequirement>,
    /// Any `hard` key the pod evaluator tracks.
    tracked: bool,
    /// Every tracked key has a `used` entry (else `status unknown`: detailed path).
    stats_ok: bool,
    /// "Must specify": cpu request, cpu limit, memory request, memory limit.
    must: [bool; 4],
    keys: Vec<DenseKey>,
}

/// What the fast path knows about a resource name (computed once per name).
#[derive(Debug, Clone)]
struct NameFacts {
    name: ResourceName,
    /// `ValidateContainerResourceName` accepts it.
    container_ok: bool,
    integer: bool,
    overcommit: bool,
    hugepages: bool,
}

/// The admission state of one namespace: its compiled policy and its quota usage, charged as
/// pods are admitted (see the module docs).
#[derive(Debug, Clone)]
pub struct NamespaceAdmission<'s> {
    namespace: String,
    phase: NamespacePhase,
    /// The namespace's LimitRanges as the API server stores them.
    pub(crate) limit_ranges: Vec<LimitRange>,
    /// Per LimitRange: its container default requests and limits.
    lr_defaults: Vec<(ResourceList, ResourceList)>,
    /// The cluster's PriorityClasses.
    pub(crate) classes: &'s [PriorityClass],
    /// The cluster's RuntimeClasses; `None` when the snapshot holds none at all (not given).
    pub(crate) runtime_classes: Option<&'s [cube_model::objects::RuntimeClass]>,
    /// The namespace's quotas; their `used` is current whenever `dirty` is false.
    quotas: Vec<QuotaState>,
    compiled: Vec<CompiledQuota>,
    /// Dense usage newer than `quotas`.
    dirty: bool,
    pub(crate) config: QuotaAdmissionConfig,
    pub(crate) now: Option<Time>,
    /// Names seen by the fast path.
    names: Vec<NameFacts>,
    /// False when the fast path never applies (a `limitedResources` configuration).
    fast: bool,
    /// Pods admitted by the fast path.
    fast_hits: u64,
}

impl<'s> NamespaceAdmission<'s> {
    /// Compiles the admission state of `namespace` (empty: `default`) in `snapshot`: its
    /// LimitRanges (API-defaulted as stored), its quotas (`status.used` when the quota carries
    /// a status, else usage computed from the snapshot's pods and claims, as
    /// [`QuotaState::from_quota`]), the PriorityClasses.
    pub fn new(
        snapshot: &'s ClusterSnapshot,
        namespace: &str,
        config: &QuotaAdmissionConfig,
        now: Option<Time>,
    ) -> Self {
        let ns = if namespace.is_empty() {
            "default"
        } else {
            namespace
        };
        let limit_ranges: Vec<LimitRange> = snapshot
            .limit_ranges
            .iter()
            .filter(|l| l.metadata.namespace == ns || l.metadata.namespace.is_empty())
            .map(|l| {
                let mut l = l.clone();
                default_limit_range(&mut l);
                l
            })
            .collect();
        let quotas: Vec<QuotaState> = snapshot
            .resource_quotas
            .iter()
            .filter(|q| q.metadata.namespace == ns || q.metadata.namespace.is_empty())
            .map(|q| {
                let mut q = q.clone();
                q.metadata.namespace = ns.to_owned();
                QuotaState::from_quota(&q, &snapshot.pods, &snapshot.persistent_volume_claims, now)
            })
            .collect();
        let runtime_classes = match snapshot.kind_status("RuntimeClass") {
            cube_model::snapshot::KindStatus::Listed
            | cube_model::snapshot::KindStatus::Present => Some(&snapshot.runtime_classes[..]),
            _ => None,
        };
        Self::from_parts(
            ns,
            namespace_phase(snapshot, ns),
            limit_ranges,
            &snapshot.priority_classes,
            quotas,
            config,
            now,
        )
        .with_runtime_classes(runtime_classes)
    }

    /// The cluster's RuntimeClasses for the RuntimeClass admission step (`None`: not known,
    /// the step is reported as not checked for a pod naming one). [`NamespaceAdmission::new`]
    /// sets them from the snapshot when it holds RuntimeClasses (or their empty list).
    #[must_use]
    pub fn with_runtime_classes(
        mut self,
        classes: Option<&'s [cube_model::objects::RuntimeClass]>,
    ) -> Self {
        self.runtime_classes = classes;
        self
    }

    /// As [`NamespaceAdmission::new`] from parts already at hand: LimitRanges as stored,
    /// the quotas' admission views.
    pub fn from_parts(
        namespace: &str,
        phase: NamespacePhase,
        limit_ranges: Vec<LimitRange>,
        classes: &'s [PriorityClass],
        quotas: Vec<QuotaState>,
        config: &QuotaAdmissionConfig,
        now: Option<Time>,
    ) -> Self {
        let lr_defaults = limit_ranges
            .iter()
            .map(default_container_requirements)
            .collect();
        let mut s = NamespaceAdmission {
            namespace: namespace.to_owned(),
            phase,
            limit_ranges,
            lr_defaults,
            classes,
            runtime_classes: None,
            quotas,
            compiled: Vec::new(),
            dirty: false,
            config: config.clone(),
            now,
            names: Vec::new(),
            fast: config.limited_resources.is_empty(),
            fast_hits: 0,
        };
        s.compile_quotas();
        s
    }

    /// The namespace.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// How many pods the fast path admitted (the others went through the detailed path).
    pub fn fast_admissions(&self) -> u64 {
        self.fast_hits
    }

    /// Its phase for NamespaceLifecycle.
    pub fn phase(&self) -> NamespacePhase {
        self.phase
    }

    /// The namespace's quotas with every admitted pod charged.
    pub fn quotas(&mut self) -> &[QuotaState] {
        self.sync();
        &self.quotas
    }

    /// The quotas, for the detailed path (usage current).
    pub(crate) fn quotas_mut(&mut self) -> &mut Vec<QuotaState> {
        self.sync();
        &mut self.quotas
    }

    /// Takes the quotas out (usage current).
    pub fn into_quotas(mut self) -> Vec<QuotaState> {
        self.sync();
        self.quotas
    }

    fn compile_quotas(&mut self) {
        self.compiled = self
            .quotas
            .iter()
            .map(|q| {
                let tracked: Vec<ResourceName> = q
                    .hard
                    .names()
                    .filter(|n| pod_tracks(n.as_str()))
                    .cloned()
                    .collect();
                let mut must = [false; 4];
                for n in &tracked {
                    if MUST_SPECIFY_RESOURCES.contains(&n.as_str()) {
                        match n.as_str() {
                            "cpu" | "requests.cpu" => must[0] = true,
                            "limits.cpu" => must[1] = true,
                            "memory" | "requests.memory" => must[2] = true,
                            _ => must[3] = true,
                        }
                    }
                }
                let keys = tracked
                    .iter()
                    .filter_map(|n| {
                        Some(DenseKey {
                            name: n.clone(),
                            charge: charge_of(n.as_str())?,
                            hard: q.hard.get(n.as_str())?.clone(),
                            used: q.used.get(n.as_str())?.clone(),
                        })
                    })
                    .collect();
                CompiledQuota {
                    selectors: scope_selectors(&q.spec),
                    tracked: !tracked.is_empty(),
                    stats_ok: has_usage_stats(&q.hard, &q.used, &tracked),
                    must,
                    keys,
                }
            })
            .collect();
        self.dirty = false;
    }

    /// Writes the dense usage back into the quota states.
    fn sync(&mut self) {
        if !self.dirty {
            return;
        }
        for (q, c) in self.quotas.iter_mut().zip(&self.compiled) {
            for k in &c.keys {
                match q.used.get_mut(k.name.as_str()) {
                    Some(u) => *u = k.used.clone(),
                    None => {
                        q.used.insert(k.name.clone(), k.used.clone());
                    }
                }
            }
        }
        self.dirty = false;
    }

    /// Admits `pod` (as submitted: before defaulting) into the namespace, charging its quotas:
    /// `Ok` when the API server would accept it, else its refusal with the exact message.
    ///
    /// No heap allocation when the pod is admitted through the fast path (see the module
    /// docs); otherwise as [`NamespaceAdmission::admit_pod_detailed`].
    ///
    /// # Errors
    /// The [`Rejection`] of the first stage that refuses the pod.
    pub fn admit_pod(&mut self, pod: &Pod) -> Result<(), Rejection> {
        if self.try_fast(pod) {
            return Ok(());
        }
        let out = self.admit_pod_detailed(pod.clone());
        match out.rejection {
            Some(r) => Err(r),
            None => Ok(()),
        }
    }

    /// The whole pipeline for `pod` with every step, the stored pod and the charges (the
    /// detailed path; what [`crate::whatif::admit`] reports per replica).
    pub fn admit_pod_detailed(&mut self, pod: Pod) -> ReplicaOutcome {
        self.sync();
        let out = crate::whatif::admit_one_pod(pod, self);
        if out.rejection.is_none() && !out.charges.is_empty() {
            // the detailed path charged the quota states: reload the dense usage
            for (q, c) in self.quotas.iter().zip(self.compiled.iter_mut()) {
                for k in &mut c.keys {
                    if let Some(u) = q.used.get(k.name.as_str()) {
                        k.used = u.clone();
                    }
                }
            }
        }
        out
    }
}

/// The facts of resource name `name` in `names`, computed the first time it is seen.
fn facts_of(names: &mut Vec<NameFacts>, name: &ResourceName) -> usize {
    if let Some(i) = names.iter().position(|f| f.name == *name) {
        return i;
    }
    let n = name.as_str();
    names.push(NameFacts {
        name: name.clone(),
        container_ok: n.contains('/')
            || matches!(n, "cpu" | "memory" | "ephemeral-storage")
            || n.starts_with("hugepages-"),
        integer: is_integer_resource_name(n),
        overcommit: is_overcommit_allowed(n),
        hugepages: n.starts_with("hugepages-"),
    });
    names.len() - 1
}

impl NamespaceAdmission<'_> {
    /// The fast path: true when the pod is admitted (and charged), false when the detailed
    /// path must decide (nothing charged then).
    fn try_fast(&mut self, pod: &Pod) -> bool {
        if !self.fast || self.phase != NamespacePhase::Active {
            return false;
        }
        let spec = &pod.spec;
        let st = &pod.status;
        if pod.metadata.name.is_empty()
            || pod.metadata.deletion_timestamp.is_some()
            || !spec.init_containers.is_empty()
            || spec.resources.is_some()
            || spec.overhead.is_some()
            || spec.runtime_class_name.is_some()
            || spec.containers.is_empty()
            || spec.containers.len() > MAX_CONTAINERS
            || !st.phase.is_empty()
            || !st.conditions.is_empty()
            || !st.qos_class.is_empty()
            || !st.container_statuses.is_empty()
            || !st.init_container_statuses.is_empty()
        {
            return false;
        }
        for (i, c) in spec.containers.iter().enumerate() {
            if !c.name.is_empty() && spec.containers[..i].iter().any(|d| d.name == c.name) {
                return false;
            }
        }
        // 3. priority admission
        let Some((class_name, _priority)) = crate::priority::resolve_borrowed(pod, self.classes)
        else {
            return false;
        };

        // 1-2. the stored containers: API defaulting (requests from limits, milli rounding),
        // then each LimitRange's defaults where still missing.
        let mut eff: [Eff<'_>; MAX_CONTAINERS] = Default::default();
        for (ci, c) in spec.containers.iter().enumerate() {
            let e = &mut eff[ci];
            let lists = std::iter::once((&c.resources.requests, &c.resources.limits))
                .chain(self.lr_defaults.iter().map(|(req, lim)| (req, lim)));
            for (req, lim) in lists {
                for name in req.names().chain(lim.names()) {
                    if e.position(name).is_none() {
                        if e.len == MAX_NAMES {
                            return false;
                        }
                        e.names[e.len] = Some(name);
                        e.len += 1;
                    }
                }
            }
            for k in 0..e.len {
                let Some(name) = e.names[k] else {
                    return false;
                };
                let n = name.as_str();
                let own_lim = c.resources.limits.get(n);
                let own_req = c.resources.requests.get(n).or(own_lim);
                let mut req = own_req.map(round_milli);
                let mut lim = own_lim.map(round_milli);
                for (dreq, dlim) in &self.lr_defaults {
                    if lim.is_none() {
                        lim = dlim.get(n).map(Cow::Borrowed);
                    }
                    if req.is_none() {
                        req = dreq.get(n).map(Cow::Borrowed);
                    }
                }
                e.req[k] = req;
                e.lim[k] = lim;
            }
        }
        let eff = &eff[..spec.containers.len()];

        // 4. validation (422) of the stored containers
        for e in eff {
            for k in 0..e.len {
                let Some(name) = e.names[k] else {
                    return false;
                };
                let f = facts_of(&mut self.names, name);
                let facts = &self.names[f];
                if facts.hugepages || !facts.container_ok {
                    return false;
                }
                // upstream: not negative, and an integer for integer resources
                let value_ok = |q: &Quantity| {
                    !(q.is_negative() || (facts.integer && q.milli_value() % 1000 != 0))
                };
                if let Some(l) = &e.lim[k]
                    && !value_ok(l)
                {
                    return false;
                }
                if let Some(r) = &e.req[k] {
                    if !value_ok(r) {
                        return false;
                    }
                    // upstream: request == limit for resources that cannot be
                    // overcommitted, else request <= limit; a limit is required for them
                    match &e.lim[k] {
                        Some(l) if (**r != **l && !facts.overcommit) || **r > **l => return false,
                        None if !facts.overcommit => return false,
                        _ => {}
                    }
                }
            }
        }

        // 5. LimitRanger validation
        for lr in &self.limit_ranges {
            for item in &lr.spec.limits {
                match item.type_.as_str() {
                    "Container" => {
                        for e in eff {
                            let get = |n: &str| {
                                let (r, l) = e.get(n);
                                Some((r.map(Cow::Borrowed), l.map(Cow::Borrowed)))
                            };
                            if !item_ok("Container", item, get) {
                                return false;
                            }
                        }
                    }
                    "Pod" => {
                        // the sums over containers of each key the item names
                        let ok = item_ok("Pod", item, |n| {
                            let mut req: Option<Quantity> = None;
                            let mut lim: Option<Quantity> = None;
                            for e in eff {
                                let (r, l) = e.get(n);
                                if let Some(r) = r {
                                    req = Some(match req {
                                        Some(s) => s.checked_add(r)?,
                                        None => r.clone(),
                                    });
                                }
                                if let Some(l) = l {
                                    lim = Some(match lim {
                                        Some(s) => s.checked_add(l)?,
                                        None => l.clone(),
                                    });
                                }
                            }
                            Some((req.map(Cow::Owned), lim.map(Cow::Owned)))
                        });
                        if !ok {
                            return false;
                        }
                    }
                    _ => {}
                }
            }
        }

        // 6. quota
        let terminating = spec.active_deadline_seconds.is_some_and(|s| s >= 0);
        let qos = std::cell::OnceCell::new();
        let qos_fn = || *qos.get_or_init(|| qos_of(eff.iter().map(|e| (e.requests(), e.limits()))));
        let facts = ScopeFacts {
            terminating,
            class: class_name,
            qos: &qos_fn,
            pod,
        };
        let mut pending: [(u16, u16, Option<Quantity>); MAX_CHARGES] =
            std::array::from_fn(|_| (0, 0, None));
        let mut npending = 0usize;
        // pod totals per name
        let mut totals: [(Option<&ResourceName>, Option<Quantity>, Option<Quantity>);
            MAX_POD_NAMES] = std::array::from_fn(|_| (None, None, None));
        let mut ntotals = 0usize;
        for e in eff {
            for k in 0..e.len {
                let Some(name) = e.names[k] else {
                    return false;
                };
                let slot = match totals[..ntotals].iter().position(|t| t.0 == Some(name)) {
                    Some(s) => s,
                    None if ntotals < MAX_POD_NAMES => {
                        totals[ntotals].0 = Some(name);
                        ntotals += 1;
                        ntotals - 1
                    }
                    None => return false,
                };
                for (acc, v) in [
                    (&mut totals[slot].1, &e.req[k]),
                    (&mut totals[slot].2, &e.lim[k]),
                ] {
                    if let Some(v) = v {
                        *acc = Some(match acc.take() {
                            Some(s) => match s.checked_add(v) {
                                Some(x) => x,
                                None => return false,
                            },
                            None => (**v).clone(),
                        });
                    }
                }
            }
        }
        let totals = &totals[..ntotals];
        let one = Quantity::from_value(1, cube_model::Format::DecimalSI);
        for (qi, cq) in self.compiled.iter().enumerate() {
            let mut matches = true;
            for sel in &cq.selectors {
                match scope_matches(sel, &facts) {
                    Ok(m) => matches &= m,
                    Err(_) => return false,
                }
            }
            if !cq.tracked || !matches {
                continue;
            }
            if cq.must.iter().any(|&m| m) {
                for e in eff {
                    let (rc, lc) = e.get("cpu");
                    let (rm, lm) = e.get("memory");
                    let have = [rc.is_some(), lc.is_some(), rm.is_some(), lm.is_some()];
                    if cq.must.iter().zip(have).any(|(&m, h)| m && !h) {
                        return false;
                    }
                }
            }
            if !cq.stats_ok {
                return false;
            }
            for (ki, key) in cq.keys.iter().enumerate() {
                let amount = match &key.charge {
                    Charge::One => Some(&one),
                    Charge::Requests(n) => totals
                        .iter()
                        .find(|t| t.0.is_some_and(|x| x == n))
                        .and_then(|t| t.1.as_ref()),
                    Charge::Limits(n) => totals
                        .iter()
                        .find(|t| t.0.is_some_and(|x| x == n))
                        .and_then(|t| t.2.as_ref()),
                };
                let Some(amount) = amount else {
                    continue;
                };
                if amount.is_zero() {
                    continue;
                }
                if amount.is_negative() || npending == MAX_CHARGES {
                    return false;
                }
                let Some(new) = key.used.checked_add(amount) else {
                    return false;
                };
                if new > key.hard {
                    return false;
                }
                pending[npending] = (qi as u16, ki as u16, Some(new));
                npending += 1;
            }
        }
        for (qi, ki, new) in pending[..npending].iter_mut() {
            if let Some(v) = new.take() {
                self.compiled[*qi as usize].keys[*ki as usize].used = v;
                self.dirty = true;
            }
        }
        self.fast_hits += 1;
        true
    }
}

/// A quantity rounded up to milli scale (API defaulting), borrowed when already there.
fn round_milli(q: &Quantity) -> Cow<'_, Quantity> {
    if q.is_at_scale(-3) {
        Cow::Borrowed(q)
    } else {
        Cow::Owned(q.round_up(-3).0)
    }
}

/// One container as the API server would store it: its resource names with the request and
/// limit after API defaulting and LimitRanger defaulting.
#[derive(Default)]
struct Eff<'a> {
    len: usize,
    names: [Option<&'a ResourceName>; MAX_NAMES],
    req: [Option<Cow<'a, Quantity>>; MAX_NAMES],
    lim: [Option<Cow<'a, Quantity>>; MAX_NAMES],
}

impl<'a> Eff<'a> {
    fn position(&self, name: &ResourceName) -> Option<usize> {
        self.names[..self.len]
            .iter()
            .position(|n| n.is_some_and(|x| x == name))
    }
    fn get(&self, name: &str) -> (Option<&Quantity>, Option<&Quantity>) {
        match self.names[..self.len]
            .iter()
            .position(|n| n.is_some_and(|x| x.as_str() == name))
        {
            Some(k) => (self.req[k].as_deref(), self.lim[k].as_deref()),
            None => (None, None),
        }
    }
    fn requests(&self) -> impl Iterator<Item = (&str, &Quantity)> + '_ {
        (0..self.len).filter_map(|k| Some((self.names[k]?.as_str(), self.req[k].as_deref()?)))
    }
    fn limits(&self) -> impl Iterator<Item = (&str, &Quantity)> + '_ {
        (0..self.len).filter_map(|k| Some((self.names[k]?.as_str(), self.lim[k].as_deref()?)))
    }
}

/// True when `item` has no min, max or ratio violation for the values `get` gives per name
/// (request, limit); `get` returning `None` (an overflowing sum) counts as a violation.
fn item_ok<'q>(
    t: &str,
    item: &cube_model::objects::LimitRangeItem,
    get: impl Fn(&str) -> Option<(Option<Cow<'q, Quantity>>, Option<Cow<'q, Quantity>>)>,
) -> bool {
    let check =
        |k: &ResourceName, f: &dyn Fn(Option<&Quantity>, Option<&Quantity>) -> bool| match get(
            k.as_str()
        ) {
            Some((r, l)) => f(r.as_deref(), l.as_deref()),
            None => false,
        };
    item.min
        .iter()
        .all(|(k, v)| check(k, &|r, l| min_violation(t, k.as_str(), v, r, l).is_none()))
        && item
            .max
            .iter()
            .all(|(k, v)| check(k, &|r, l| max_violation(t, k.as_str(), v, r, l).is_none()))
        && item
            .max_limit_request_ratio
            .iter()
            .all(|(k, v)| check(k, &|r, l| ratio_violation(t, k.as_str(), v, r, l).is_none()))
}
