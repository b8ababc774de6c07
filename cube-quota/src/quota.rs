//! ResourceQuota: per-pod and per-claim usage, scopes, the "must specify" rule, namespace usage
//! and admission of a new object against the quotas of its namespace.
//!
//! Mirrors kubernetes `pkg/quota/v1/evaluator/core/{pods,persistent_volume_claims}.go`,
//! `pkg/quota/v1/{resources,generic/evaluator}.go` and apiserver
//! `pkg/admission/plugin/resourcequota/controller.go` (`CheckRequest`), with the behaviour
//! observed on a real v1.36 API server (K8S-SEMANTICS.md §3 and §10).

use std::collections::{BTreeMap, BTreeSet};

use cube_model::objects::{
    PersistentVolumeClaim, Pod, PodAffinityTerm, ResourceQuota, ResourceQuotaSpec, ScopeSelector,
    ScopedResourceSelectorRequirement, Time,
};
use cube_model::{Format, Quantity, ResourceList, ResourceName};

use crate::requests::{
    PodResourcesOptions, QosClass, add_list, pod_limits, pod_requests, qos_class,
};

/// `count/pods`: object count of pods, charged for every pod including terminal ones.
pub const POD_OBJECT_COUNT: &str = "count/pods";
/// `count/persistentvolumeclaims`.
pub const PVC_OBJECT_COUNT: &str = "count/persistentvolumeclaims";

/// The fixed quota names the pod evaluator tracks (upstream `podResources`); the same list as
/// [`cube_model::resource::POD_QUOTA_RESOURCES`].
pub const POD_RESOURCES: [&str; 11] = cube_model::resource::POD_QUOTA_RESOURCES;

/// Names that the "must specify" rule covers (upstream `validationSet`).
pub const MUST_SPECIFY_RESOURCES: [&str; 6] = [
    "cpu",
    "memory",
    "requests.cpu",
    "requests.memory",
    "limits.cpu",
    "limits.memory",
];

const STORAGE_CLASS_SUFFIX: &str = ".storageclass.storage.k8s.io/";

fn one() -> Quantity {
    Quantity::from_value(1, Format::DecimalSI)
}

/// True for a native resource name (upstream `IsNativeResource`): no `/`, or a
/// `kubernetes.io/` domain. Delegates to [`ResourceName::is_native`].
pub fn is_native_resource(name: &str) -> bool {
    ResourceName::from(name).is_native()
}

/// True for an extended resource name such as `nvidia.com/gpu` (upstream
/// `IsExtendedResourceName`): not native, not `requests.`-prefixed, and `requests.<name>` is a
/// qualified name. Delegates to [`ResourceName::is_extended`].
pub fn is_extended_resource_name(name: &str) -> bool {
    ResourceName::from(name).is_extended()
}

/// True when the pod evaluator tracks this quota key (upstream `MatchingResources` for one name):
/// the fixed names, `hugepages-*`, `requests.hugepages-*` and `requests.<extended>`.
///
/// Not tracked: a bare extended name (`nvidia.com/gpu`) and `limits.<extended>`; the API accepts
/// them in `hard` but they are never charged (§10.3).
pub fn pod_tracks(name: &str) -> bool {
    ResourceName::from(name).is_tracked_by_pod_quota()
}

/// The subset of `names` the pod evaluator tracks, in input order (upstream
/// `podEvaluator.MatchingResources`).
pub fn pod_matching_resources<'a>(
    names: impl IntoIterator<Item = &'a ResourceName>,
) -> Vec<ResourceName> {
    names
        .into_iter()
        .filter(|n| pod_tracks(n.as_str()))
        .cloned()
        .collect()
}

/// True when the PVC evaluator tracks this quota key: `persistentvolumeclaims`,
/// `count/persistentvolumeclaims`, `requests.storage` and the storage-class scoped
/// `<class>.storageclass.storage.k8s.io/{requests.storage,persistentvolumeclaims}`.
pub fn pvc_tracks(name: &str) -> bool {
    matches!(
        name,
        "persistentvolumeclaims" | "count/persistentvolumeclaims" | "requests.storage"
    ) || name
        .split_once(STORAGE_CLASS_SUFFIX)
        .is_some_and(|(_, rest)| rest == "requests.storage" || rest == "persistentvolumeclaims")
}

/// Upstream `podComputeUsageHelper`: the quota names charged for the given effective requests
/// and limits (always `pods = 1`).
pub fn compute_usage(requests: &ResourceList, limits: &ResourceList) -> ResourceList {
    let mut out = ResourceList::new();
    out.insert("pods", one());
    for (res, req_key) in [
        ("cpu", "requests.cpu"),
        ("memory", "requests.memory"),
        ("ephemeral-storage", "requests.ephemeral-storage"),
    ] {
        if let Some(q) = requests.get(res) {
            out.insert(res, q.clone());
            out.insert(req_key, q.clone());
        }
    }
    for (res, lim_key) in [
        ("cpu", "limits.cpu"),
        ("memory", "limits.memory"),
        ("ephemeral-storage", "limits.ephemeral-storage"),
    ] {
        if let Some(q) = limits.get(res) {
            out.insert(lim_key, q.clone());
        }
    }
    for (name, q) in requests {
        let n = name.as_str();
        if n.starts_with("hugepages-") {
            out.insert(name.clone(), q.clone());
            out.insert(format!("requests.{n}"), q.clone());
        }
        if is_extended_resource_name(n) {
            out.insert(format!("requests.{n}"), q.clone());
        }
    }
    out
}

/// True when quota still charges the pod's compute resources (upstream `QuotaV1Pod`): false for
/// phase `Succeeded`/`Failed`, and for a pod whose `deletionTimestamp` plus
/// `deletionGracePeriodSeconds` lies before `now` (stuck terminating). With `now = None` the
/// deletion rule is not applied.
pub fn quota_charges_compute(pod: &Pod, now: Option<Time>) -> bool {
    if pod.is_terminal() {
        return false;
    }
    if let (Some(ts), Some(grace), Some(now)) = (
        pod.metadata.deletion_timestamp,
        pod.metadata.deletion_grace_period_seconds,
        now,
    ) {
        let end = ts.as_second().saturating_add(grace);
        let now_s = now.as_second();
        // `now.After(deletion + grace)`: compare with sub-second precision.
        if now_s > end || (now_s == end && now.subsec_nanosecond() > ts.subsec_nanosecond()) {
            return false;
        }
    }
    true
}

/// Everything one pod charges to quota (upstream `PodUsageFunc` with InPlacePodVerticalScaling
/// and PodLevelResources on, as in v1.36): `count/pods = 1` always, and for a non-terminal pod
/// `pods`, cpu/memory/ephemeral-storage (`<r>`, `requests.<r>`, `limits.<r>`), hugepages and
/// `requests.<extended>`, computed from the effective requests and limits (overhead included).
pub fn pod_usage(pod: &Pod, now: Option<Time>) -> ResourceList {
    let mut out = ResourceList::new();
    out.insert(POD_OBJECT_COUNT, one());
    if !quota_charges_compute(pod, now) {
        return out;
    }
    let opts = PodResourcesOptions {
        use_status_resources: true,
        ..Default::default()
    };
    let usage = compute_usage(&pod_requests(pod, &opts), &pod_limits(pod, &opts));
    add_list(&mut out, &usage);
    out
}

/// The storage class of a claim (upstream `GetPersistentVolumeClaimClass`): the beta annotation
/// `volume.beta.kubernetes.io/storage-class` wins over `spec.storageClassName`; empty = none.
pub fn pvc_class(pvc: &PersistentVolumeClaim) -> String {
    if let Some(c) = pvc
        .metadata
        .annotations
        .get("volume.beta.kubernetes.io/storage-class")
    {
        return c.to_owned();
    }
    pvc.spec.storage_class_name.clone().unwrap_or_default()
}

/// Everything one PersistentVolumeClaim charges (upstream PVC evaluator `Usage`):
/// `count/persistentvolumeclaims`, `persistentvolumeclaims`, `requests.storage` and, with a
/// class, `<class>.storageclass.storage.k8s.io/{persistentvolumeclaims,requests.storage}`.
pub fn pvc_usage(pvc: &PersistentVolumeClaim) -> ResourceList {
    let mut out = ResourceList::new();
    out.insert(PVC_OBJECT_COUNT, one());
    out.insert("persistentvolumeclaims", one());
    let class = pvc_class(pvc);
    if !class.is_empty() {
        out.insert(
            format!("{class}{STORAGE_CLASS_SUFFIX}persistentvolumeclaims"),
            one(),
        );
    }
    // The claim charges the larger of its request and its bound capacity (status.capacity).
    let mut storage = pvc.spec.resources.requests.get("storage").cloned();
    if let Some(cap) = pvc.status.capacity.get("storage")
        && storage.as_ref().is_none_or(|s| cap > s)
    {
        storage = Some(cap.clone());
    }
    if let Some(q) = storage {
        out.insert("requests.storage", q.clone());
        if !class.is_empty() {
            out.insert(format!("{class}{STORAGE_CLASS_SUFFIX}requests.storage"), q);
        }
    }
    out
}

// ---------------------------------------------------------------- scopes

/// A quota's scope selectors as upstream `getScopeSelectorsFromQuota`: each `spec.scopes` entry
/// as `{scopeName, operator: Exists}`, then `spec.scopeSelector.matchExpressions`.
pub fn scope_selectors(spec: &ResourceQuotaSpec) -> Vec<ScopedResourceSelectorRequirement> {
    let mut out: Vec<_> = spec
        .scopes
        .iter()
        .map(|s| ScopedResourceSelectorRequirement {
            scope_name: s.clone(),
            operator: "Exists".into(),
            values: Vec::new(),
        })
        .collect();
    if let Some(sel) = &spec.scope_selector {
        out.extend(sel.match_expressions.iter().cloned());
    }
    out
}

fn is_terminating(pod: &Pod) -> bool {
    pod.spec.active_deadline_seconds.is_some_and(|s| s >= 0)
}

fn cross_namespace_term(t: &PodAffinityTerm) -> bool {
    !t.namespaces.is_empty() || t.namespace_selector.is_some()
}

/// True when any required or preferred pod (anti-)affinity term names namespaces or has a
/// namespace selector (upstream `usesCrossNamespacePodAffinity`).
pub fn uses_cross_namespace_pod_affinity(pod: &Pod) -> bool {
    let Some(aff) = &pod.spec.affinity else {
        return false;
    };
    [&aff.pod_affinity, &aff.pod_anti_affinity]
        .into_iter()
        .flatten()
        .any(|a| {
            a.required_during_scheduling_ignored_during_execution
                .iter()
                .any(cross_namespace_term)
                || a.preferred_during_scheduling_ignored_during_execution
                    .iter()
                    .any(|w| cross_namespace_term(&w.pod_affinity_term))
        })
}

/// Whether a pod matches one scope selector requirement (upstream `podMatchesScopeFunc`).
///
/// # Errors
/// A `PriorityClass` requirement that is not a valid label selector (unknown operator, `In`
/// without values, `Exists` with values) gives upstream's selector error text.
pub fn pod_matches_scope(
    pod: &Pod,
    sel: &ScopedResourceSelectorRequirement,
) -> Result<bool, String> {
    let qos = || qos_class(pod);
    scope_matches(
        sel,
        &ScopeFacts {
            terminating: is_terminating(pod),
            class: &pod.spec.priority_class_name,
            qos: &qos,
            pod,
        },
    )
}

/// What scope matching reads of a pod: given separately so a caller holding a virtual view of
/// the stored pod (the admission fast path) evaluates scopes without building the pod.
pub(crate) struct ScopeFacts<'a> {
    /// `activeDeadlineSeconds >= 0`.
    pub terminating: bool,
    /// `spec.priorityClassName` (after priority admission).
    pub class: &'a str,
    /// The QoS class, computed on demand.
    pub qos: &'a dyn Fn() -> QosClass,
    /// The pod, for its affinity terms.
    pub pod: &'a Pod,
}

/// [`pod_matches_scope`] on [`ScopeFacts`].
pub(crate) fn scope_matches(
    sel: &ScopedResourceSelectorRequirement,
    facts: &ScopeFacts<'_>,
) -> Result<bool, String> {
    Ok(match sel.scope_name.as_str() {
        "Terminating" => facts.terminating,
        "NotTerminating" => !facts.terminating,
        "BestEffort" => (facts.qos)() == QosClass::BestEffort,
        "NotBestEffort" => (facts.qos)() != QosClass::BestEffort,
        "PriorityClass" => {
            let class = facts.class;
            match sel.operator.as_str() {
                "Exists" if sel.values.is_empty() => !class.is_empty(),
                "In" | "NotIn" if sel.values.is_empty() => {
                    return Err(format!(
                        "failed to parse and convert selector: values: Invalid value: {}: for 'in', 'notin' operators, values set can't be empty",
                        go_slice(&sel.values)
                    ));
                }
                "In" => !class.is_empty() && sel.values.iter().any(|v| v == class),
                "NotIn" => class.is_empty() || !sel.values.iter().any(|v| v == class),
                "DoesNotExist" if sel.values.is_empty() => class.is_empty(),
                "Exists" | "DoesNotExist" => {
                    return Err(format!(
                        "failed to parse and convert selector: values: Invalid value: {}: values set must be empty for exists and does not exist",
                        go_slice(&sel.values)
                    ));
                }
                other => {
                    return Err(format!("{other:?} is not a valid scope selector operator"));
                }
            }
        }
        "CrossNamespacePodAffinity" => uses_cross_namespace_pod_affinity(facts.pod),
        _ => false,
    })
}

/// The selectors among `selectors` that the pod matches (upstream `MatchingScopes`), in order.
///
/// # Errors
/// The first selector error (see [`pod_matches_scope`]), wrapped as upstream:
/// `error on matching scope <sel>: <err>`.
pub fn matching_scopes(
    pod: &Pod,
    selectors: &[ScopedResourceSelectorRequirement],
) -> Result<Vec<ScopedResourceSelectorRequirement>, String> {
    let mut out = Vec::new();
    for s in selectors {
        match pod_matches_scope(pod, s) {
            Ok(true) => out.push(s.clone()),
            Ok(false) => {}
            Err(e) => return Err(format!("error on matching scope {}: {e}", go_selector(s))),
        }
    }
    Ok(out)
}

fn go_slice(v: &[String]) -> String {
    format!("[{}]", v.join(" "))
}

/// Go's `%v` of a `ScopedResourceSelectorRequirement`: `{PriorityClass In [a b]}`.
pub fn go_selector(s: &ScopedResourceSelectorRequirement) -> String {
    format!(
        "{{{} {} {}}}",
        s.scope_name,
        s.operator,
        go_slice(&s.values)
    )
}

/// True when the pod matches every scope selector of the quota (the scope half of upstream
/// `Matches`).
///
/// # Errors
/// A selector error (see [`pod_matches_scope`]).
pub fn pod_matches_quota_scopes(pod: &Pod, spec: &ResourceQuotaSpec) -> Result<bool, String> {
    for s in scope_selectors(spec) {
        if !pod_matches_scope(pod, &s)? {
            return Ok(false);
        }
    }
    Ok(true)
}

// ---------------------------------------------------------------- must specify

/// The "must specify" rule (upstream `podEvaluator.Constraints`): when the quota tracks any of
/// [`MUST_SPECIFY_RESOURCES`], every container and init container must yield it from its own
/// requests (`cpu`, `requests.cpu`) or limits (`limits.cpu`).
///
/// Not applied when pod-level resources are set (PodLevelResources is on in v1.36).
///
/// # Errors
/// `must specify <res> for: <c1>,<c2>; <res2> for: ...`, resources and container names sorted.
pub fn pod_constraints<'a>(
    pod: &Pod,
    required: impl IntoIterator<Item = &'a ResourceName>,
) -> Result<(), String> {
    let required: BTreeSet<&str> = required
        .into_iter()
        .map(ResourceName::as_str)
        .filter(|n| MUST_SPECIFY_RESOURCES.contains(n))
        .collect();
    if required.is_empty() || crate::requests::is_pod_level_resources_set(pod) {
        return Ok(());
    }
    let mut missing: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for c in pod.spec.containers.iter().chain(&pod.spec.init_containers) {
        let usage = compute_usage(&c.resources.requests, &c.resources.limits);
        for r in &required {
            if !usage.contains(r) {
                missing.entry(r).or_default().insert(c.name.as_str());
            }
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    let parts: Vec<String> = missing
        .iter()
        .map(|(r, names)| {
            format!(
                "{r} for: {}",
                names.iter().copied().collect::<Vec<_>>().join(",")
            )
        })
        .collect();
    Err(format!("must specify {}", parts.join("; ")))
}

// ---------------------------------------------------------------- usage

/// Upstream `CalculateUsageStats` for pods: the summed usage of the pods that match every
/// `scopes` entry (as `Exists`) and every `selector` requirement; each name in `resources`
/// starts at zero so it appears even when nothing is charged.
///
/// Pods whose selectors fail to evaluate are skipped.
pub fn usage_stats<'a>(
    pods: impl IntoIterator<Item = &'a Pod>,
    scopes: &[String],
    selector: Option<&ScopeSelector>,
    resources: &[ResourceName],
    now: Option<Time>,
) -> ResourceList {
    let spec = ResourceQuotaSpec {
        hard: ResourceList::new(),
        scopes: scopes.to_vec(),
        scope_selector: selector.cloned(),
    };
    let mut used: ResourceList = resources
        .iter()
        .map(|r| (r.clone(), Quantity::ZERO))
        .collect();
    for pod in pods {
        if pod_matches_quota_scopes(pod, &spec).unwrap_or(false) {
            add_list(&mut used, &pod_usage(pod, now));
        }
    }
    used
}

/// Keeps the entries of `list` whose names are in `names` (upstream `quota.Mask`).
pub fn mask<'a>(
    list: &ResourceList,
    names: impl IntoIterator<Item = &'a ResourceName>,
) -> ResourceList {
    let mut out = ResourceList::new();
    for n in names {
        if let Some(q) = list.get(n.as_str()) {
            out.insert(n.clone(), q.clone());
        }
    }
    out
}

/// What the quota controller writes into `status.used` for this quota (upstream
/// `CalculateUsage` + `Mask`): usage of the pods and claims of the quota's namespace that match
/// its scopes, restricted to the tracked `spec.hard` names; every tracked name is present
/// (zero when nothing is charged); untracked names (`nvidia.com/gpu`) are absent.
///
/// Pods and claims of other namespaces are ignored (an empty quota namespace matches all).
pub fn quota_usage(
    quota: &ResourceQuota,
    pods: &[Pod],
    pvcs: &[PersistentVolumeClaim],
    now: Option<Time>,
) -> ResourceList {
    let ns = quota.metadata.namespace.as_str();
    let in_ns = |o: &str| ns.is_empty() || o == ns;
    let pod_names = pod_matching_resources(quota.spec.hard.names());
    let mut used = ResourceList::new();
    if !pod_names.is_empty() {
        let stats = usage_stats(
            pods.iter().filter(|p| in_ns(&p.metadata.namespace)),
            &quota.spec.scopes,
            quota.spec.scope_selector.as_ref(),
            &pod_names,
            now,
        );
        add_list(&mut used, &mask(&stats, &pod_names));
    }
    let pvc_names: Vec<ResourceName> = quota
        .spec
        .hard
        .names()
        .filter(|n| pvc_tracks(n.as_str()))
        .cloned()
        .collect();
    // PVCs match no pod scope (VolumeAttributesClass scope is not modelled).
    if !pvc_names.is_empty() && scope_selectors(&quota.spec).is_empty() {
        let mut stats: ResourceList = pvc_names
            .iter()
            .map(|r| (r.clone(), Quantity::ZERO))
            .collect();
        for c in pvcs.iter().filter(|c| in_ns(&c.metadata.namespace)) {
            add_list(&mut stats, &pvc_usage(c));
        }
        add_list(&mut used, &mask(&stats, &pvc_names));
    } else if !pvc_names.is_empty() {
        for n in &pvc_names {
            used.insert(n.clone(), Quantity::ZERO);
        }
    }
    used
}

/// Summed usage of every pod of `namespace` (all quota names, no scopes): what a quota with
/// every key would show.
pub fn namespace_usage(namespace: &str, pods: &[Pod], now: Option<Time>) -> ResourceList {
    let mut used = ResourceList::new();
    for p in pods.iter().filter(|p| p.metadata.namespace == namespace) {
        add_list(&mut used, &pod_usage(p, now));
    }
    used
}

/// `k=v,k=v` with keys sorted and values printed with `Quantity`'s `Display` (upstream
/// `prettyPrint`).
pub fn pretty_print(list: &ResourceList) -> String {
    list.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Sorted names joined by `,` (upstream `prettyPrintResourceNames`).
pub fn pretty_print_names<'a>(names: impl IntoIterator<Item = &'a ResourceName>) -> String {
    let set: BTreeSet<&str> = names.into_iter().map(ResourceName::as_str).collect();
    set.into_iter().collect::<Vec<_>>().join(",")
}

/// Upstream `hasUsageStats`: every tracked name of `status.hard` has a `status.used` entry.
pub fn has_usage_stats(
    hard: &ResourceList,
    used: &ResourceList,
    relevant: &[ResourceName],
) -> bool {
    hard.names()
        .filter(|n| relevant.contains(n))
        .all(|n| used.contains(n.as_str()))
}

// ---------------------------------------------------------------- admission

/// The admission-time view of one quota: what the API server reads from the quota object.
#[derive(Debug, Clone, PartialEq)]
pub struct QuotaState {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `status.hard` (what admission enforces).
    pub hard: ResourceList,
    /// `status.used`.
    pub used: ResourceList,
    /// The quota's spec (scopes and selector).
    pub spec: ResourceQuotaSpec,
    /// True when `hard`/`used` came from the quota's own `status`; false when they were
    /// computed here from `spec.hard` and the given pods (a quota without status).
    pub from_status: bool,
}

impl QuotaState {
    /// The admission view of `quota`: `status.hard` and `status.used` when the quota carries a
    /// status with `hard` (as the API server does); `spec.hard` and `status.used` when the
    /// status has only `used`; otherwise `spec.hard` and the usage computed from `pods`/`pvcs`
    /// of its namespace ([`quota_usage`]).
    ///
    /// Note: the real API server admits everything against a quota whose controller has not
    /// synced yet (empty `status.hard` matches nothing); this offline view instead assumes the
    /// controller has caught up.
    pub fn from_quota(
        quota: &ResourceQuota,
        pods: &[Pod],
        pvcs: &[PersistentVolumeClaim],
        now: Option<Time>,
    ) -> Self {
        let base = |hard: ResourceList, used: ResourceList, from_status: bool| QuotaState {
            name: quota.metadata.name.clone(),
            namespace: quota.metadata.namespace.clone(),
            hard,
            used,
            spec: quota.spec.clone(),
            from_status,
        };
        match &quota.status {
            // what the API server reads
            Some(st)
                if !st.hard.is_empty() || (quota.spec.hard.is_empty() && st.used.is_empty()) =>
            {
                base(st.hard.clone(), st.used.clone(), true)
            }
            // a hand-written or partial status: usage given, hard only in the spec
            Some(st) if !st.used.is_empty() => base(quota.spec.hard.clone(), st.used.clone(), true),
            _ => base(
                quota.spec.hard.clone(),
                quota_usage(quota, pods, pvcs, now),
                false,
            ),
        }
    }
}

impl QuotaState {
    /// The names whose `used` exceeds `hard` (possible after a quota is lowered: quota is only
    /// checked at admission and never evicts), as `(name, used, hard)` in name order.
    pub fn over_quota(&self) -> Vec<(ResourceName, Quantity, Quantity)> {
        self.hard
            .iter()
            .filter_map(|(k, h)| {
                let u = self.used.get(k.as_str())?;
                (u > h).then(|| (k.clone(), u.clone(), h.clone()))
            })
            .collect()
    }
}

/// The `hard` keys of a quota that can never be charged by the given pods and claims: names no
/// evaluator tracks (`nvidia.com/gpu`, `limits.nvidia.com/gpu`, `configmaps`, ...) and tracked
/// names that no pod or claim of the quota's namespace charges (`requests.nvidia.com/gpucore`
/// when pods ask for `nvidia.com/gpucores`). In name order.
pub fn keys_never_charged(
    quota: &ResourceQuota,
    pods: &[Pod],
    pvcs: &[PersistentVolumeClaim],
) -> Vec<ResourceName> {
    let ns = quota.metadata.namespace.as_str();
    let mut charged = BTreeSet::new();
    for p in pods
        .iter()
        .filter(|p| ns.is_empty() || p.metadata.namespace == ns)
    {
        charged.extend(compute_usage_names(p));
    }
    for c in pvcs
        .iter()
        .filter(|c| ns.is_empty() || c.metadata.namespace == ns)
    {
        charged.extend(pvc_usage(c).names().map(|n| n.to_string()));
    }
    quota
        .spec
        .hard
        .names()
        .filter(|n| {
            let n = n.as_str();
            !(pod_tracks(n) || pvc_tracks(n)) || !charged.contains(n)
        })
        .cloned()
        .collect()
}

fn compute_usage_names(p: &Pod) -> Vec<String> {
    let opts = PodResourcesOptions::default();
    // pods written by hand may lack the API's request-from-limit defaulting
    let mut p = p.clone();
    crate::requests::default_requests_from_limits(&mut p.spec);
    let mut names: Vec<String> = compute_usage(&pod_requests(&p, &opts), &pod_limits(&p, &opts))
        .names()
        .map(|n| n.to_string())
        .collect();
    names.push(POD_OBJECT_COUNT.into());
    names
}

/// One entry of the ResourceQuota admission configuration (`limitedResources`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitedResource {
    /// API group (`""` for core).
    pub api_group: String,
    /// Resource (`pods`).
    pub resource: String,
    /// Substrings of quota names whose consumption needs a covering quota.
    pub match_contains: Vec<String>,
    /// Scopes whose use needs a covering quota.
    pub match_scopes: Vec<ScopedResourceSelectorRequirement>,
}

/// ResourceQuota admission configuration (`--admission-control-config-file`); empty by default,
/// as on a stock API server.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct QuotaAdmissionConfig {
    /// `limitedResources`.
    pub limited_resources: Vec<LimitedResource>,
}

/// Why quota admission refused an object.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct QuotaRejection {
    /// The error text without the `pods "x" is forbidden: ` wrapper, e.g.
    /// `exceeded quota: q, requested: cpu=3, used: cpu=1, limited: cpu=3`.
    pub message: String,
    /// True when the API wraps it as 403 Forbidden; false for
    /// `insufficient quota to match these scopes` which upstream returns unwrapped (500).
    pub forbidden: bool,
    /// The quota at fault, when one is.
    pub quota: Option<String>,
}

/// What admitting one object charged to one quota.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct QuotaCharge {
    /// Quota name.
    pub quota: String,
    /// The object's usage restricted to the quota's hard names (zeros removed).
    pub requested: ResourceList,
    /// `status.used` before.
    pub used_before: ResourceList,
    /// `status.used` after (upstream `newUsage`).
    pub used_after: ResourceList,
}

/// The object being admitted, for [`check_request`].
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum QuotaSubject<'a> {
    /// A pod (after defaulting, LimitRanger and priority admission).
    Pod(&'a Pod),
    /// A PersistentVolumeClaim.
    PersistentVolumeClaim(&'a PersistentVolumeClaim),
}

impl QuotaSubject<'_> {
    fn namespace(&self) -> &str {
        match self {
            QuotaSubject::Pod(p) => &p.metadata.namespace,
            QuotaSubject::PersistentVolumeClaim(c) => &c.metadata.namespace,
        }
    }
    fn usage(&self, now: Option<Time>) -> ResourceList {
        match self {
            QuotaSubject::Pod(p) => pod_usage(p, now),
            QuotaSubject::PersistentVolumeClaim(c) => pvc_usage(c),
        }
    }
    fn tracks(&self, name: &str) -> bool {
        match self {
            QuotaSubject::Pod(_) => pod_tracks(name),
            QuotaSubject::PersistentVolumeClaim(_) => pvc_tracks(name),
        }
    }
    fn matching_scopes(
        &self,
        sels: &[ScopedResourceSelectorRequirement],
    ) -> Result<Vec<ScopedResourceSelectorRequirement>, String> {
        match self {
            QuotaSubject::Pod(p) => matching_scopes(p, sels),
            QuotaSubject::PersistentVolumeClaim(_) => Ok(Vec::new()),
        }
    }
    fn constraints(&self, required: &[ResourceName]) -> Result<(), String> {
        match self {
            QuotaSubject::Pod(p) => pod_constraints(p, required),
            QuotaSubject::PersistentVolumeClaim(_) => Ok(()),
        }
    }
    fn resource(&self) -> &'static str {
        match self {
            QuotaSubject::Pod(_) => "pods",
            QuotaSubject::PersistentVolumeClaim(_) => "persistentvolumeclaims",
        }
    }
}

/// Admission of a new object (CREATE) against `quotas` (upstream `CheckRequest`).
///
/// Only quotas of the object's namespace are considered (an empty namespace on either side
/// matches). Quotas are evaluated in slice order. On success every matching quota's `used` is
/// replaced by the new usage (so admitting replicas one after another charges as the API
/// server would) and the charges are returned.
///
/// # Errors
/// The first failure, with upstream's text: `failed quota: <q>: must specify ...`,
/// `status unknown for quota: <q>, resources: <names>`, `quota usage is negative for
/// resource(s): <names>`, `insufficient quota to consume: <names>`,
/// `insufficient quota to match these scopes: [...]`, `exceeded quota: <q>, requested: ...,
/// used: ..., limited: ...` (only the exceeded names, sorted).
pub fn check_request(
    subject: QuotaSubject<'_>,
    quotas: &mut [QuotaState],
    config: &QuotaAdmissionConfig,
    now: Option<Time>,
) -> Result<Vec<QuotaCharge>, QuotaRejection> {
    let ns = subject.namespace().to_owned();
    let idx: Vec<usize> = (0..quotas.len())
        .filter(|&i| ns.is_empty() || quotas[i].namespace.is_empty() || quotas[i].namespace == ns)
        .collect();
    let forbid = |message: String, quota: Option<&str>| QuotaRejection {
        message,
        forbidden: true,
        quota: quota.map(str::to_owned),
    };

    // limited scopes and resources from the admission configuration
    let mut limited_scopes = Vec::new();
    for lr in &config.limited_resources {
        if let Ok(m) = subject.matching_scopes(&lr.match_scopes) {
            limited_scopes.extend(m);
        }
    }
    let limited: Vec<&LimitedResource> = config
        .limited_resources
        .iter()
        .filter(|l| l.api_group.is_empty() && l.resource == subject.resource())
        .collect();
    let mut limited_names: BTreeSet<String> = BTreeSet::new();
    if !limited.is_empty() {
        let delta = subject.usage(now);
        for l in &limited {
            for (k, v) in &delta {
                if v > &Quantity::ZERO
                    && l.match_contains
                        .iter()
                        .any(|m| k.as_str().contains(m.as_str()))
                {
                    limited_names.insert(k.to_string());
                }
            }
        }
    }

    let mut interesting = Vec::new();
    let mut restricted_names: BTreeSet<String> = BTreeSet::new();
    let mut restricted_scopes = Vec::new();
    for &i in &idx {
        let q = &quotas[i];
        let sels = scope_selectors(&q.spec);
        match subject.matching_scopes(&sels) {
            Ok(m) => restricted_scopes.extend(m),
            Err(e) => {
                return Err(forbid(
                    format!("error matching scopes of quota {}, err: {e}", q.name),
                    Some(&q.name),
                ));
            }
        }
        let tracked: Vec<ResourceName> = q
            .hard
            .names()
            .filter(|n| subject.tracks(n.as_str()))
            .cloned()
            .collect();
        let scopes_match = match subject {
            QuotaSubject::Pod(p) => pod_matches_quota_scopes(p, &q.spec).unwrap_or(false),
            QuotaSubject::PersistentVolumeClaim(_) => sels.is_empty(),
        };
        if tracked.is_empty() || !scopes_match {
            continue;
        }
        if let Err(e) = subject.constraints(&tracked) {
            return Err(forbid(
                format!("failed quota: {}: {e}", q.name),
                Some(&q.name),
            ));
        }
        if !has_usage_stats(&q.hard, &q.used, &tracked) {
            return Err(forbid(
                format!(
                    "status unknown for quota: {}, resources: {}",
                    q.name,
                    pretty_print_names(&tracked)
                ),
                Some(&q.name),
            ));
        }
        interesting.push(i);
        restricted_names.extend(tracked.iter().map(|n| n.to_string()));
    }

    let delta = subject.usage(now);
    let negative: Vec<&ResourceName> = delta
        .iter()
        .filter(|(_, v)| v.is_negative())
        .map(|(k, _)| k)
        .collect();
    if !negative.is_empty() {
        return Err(forbid(
            format!(
                "quota usage is negative for resource(s): {}",
                pretty_print_names(negative)
            ),
            None,
        ));
    }
    let delta: ResourceList = delta
        .iter()
        .filter(|(_, v)| !v.is_zero())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if delta.is_empty() {
        return Ok(Vec::new());
    }
    let uncovered: Vec<&String> = limited_names.difference(&restricted_names).collect();
    if !uncovered.is_empty() {
        return Err(forbid(
            format!(
                "insufficient quota to consume: {}",
                uncovered
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            None,
        ));
    }
    let uncovered_scopes: Vec<String> = limited_scopes
        .iter()
        .filter(|l| {
            !restricted_scopes
                .iter()
                .any(|r| r.scope_name == l.scope_name)
        })
        .map(go_selector)
        .collect();
    if !uncovered_scopes.is_empty() {
        return Err(QuotaRejection {
            message: format!(
                "insufficient quota to match these scopes: [{}]",
                uncovered_scopes.join(" ")
            ),
            forbidden: false,
            quota: None,
        });
    }

    // compute all new usages first: a later failure must not leave earlier quotas charged
    let mut charges = Vec::new();
    for &i in &interesting {
        let q = &quotas[i];
        let requested = mask(&delta, q.hard.names());
        let mut new_used = q.used.clone();
        add_list(&mut new_used, &requested);
        let mut exceeded = Vec::new();
        for (k, v) in &requested {
            let nu = new_used.get(k.as_str()).unwrap_or(v);
            if let Some(h) = q.hard.get(k.as_str())
                && nu > h
            {
                exceeded.push(k.clone());
            }
        }
        if !exceeded.is_empty() {
            return Err(forbid(
                format!(
                    "exceeded quota: {}, requested: {}, used: {}, limited: {}",
                    q.name,
                    pretty_print(&mask(&requested, &exceeded)),
                    pretty_print(&mask(&q.used, &exceeded)),
                    pretty_print(&mask(&q.hard, &exceeded)),
                ),
                Some(&q.name),
            ));
        }
        charges.push((i, requested, new_used));
    }
    let mut out = Vec::new();
    for (i, requested, new_used) in charges {
        let before = std::mem::replace(&mut quotas[i].used, new_used.clone());
        out.push(QuotaCharge {
            quota: quotas[i].name.clone(),
            requested,
            used_before: before,
            used_after: new_used,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_model::objects::{Container, ObjectMeta};

    fn q(s: &str) -> Quantity {
        s.parse().expect("quantity")
    }

    fn pod(ns: &str, cpu: &str, phase: &str) -> Pod {
        let mut p = Pod {
            metadata: ObjectMeta {
                namespace: ns.into(),
                ..Default::default()
            },
            ..Default::default()
        };
        let mut c = Container::default();
        c.resources.requests.insert("cpu", q(cpu));
        c.resources.limits.insert("nvidia.com/gpu", q("1"));
        c.resources.requests.insert("nvidia.com/gpu", q("1"));
        p.spec.containers.push(c);
        p.status.phase = phase.into();
        p
    }

    #[test]
    fn tracked_names() {
        for n in [
            "cpu",
            "requests.memory",
            "count/pods",
            "pods",
            "hugepages-2Mi",
            "requests.hugepages-1Gi",
            "requests.nvidia.com/gpu",
        ] {
            assert!(pod_tracks(n), "{n}");
        }
        for n in [
            "nvidia.com/gpu",
            "limits.nvidia.com/gpu",
            "configmaps",
            "requests.storage",
            "requests.alpha.kubernetes.io/nvidia-gpu",
        ] {
            assert!(!pod_tracks(n), "{n}");
        }
        assert!(pvc_tracks(
            "gold.storageclass.storage.k8s.io/requests.storage"
        ));
        assert!(!pvc_tracks(
            "gold.storageclass.storage.k8s.io/limits.storage"
        ));
    }

    #[test]
    fn namespace_usage_sums_only_that_namespace() {
        let pods = [
            pod("a", "1", "Running"),
            pod("a", "500m", ""),
            pod("a", "4", "Failed"),
            pod("b", "8", "Running"),
        ];
        let u = namespace_usage("a", &pods, None);
        assert_eq!(u.get("requests.cpu"), Some(&q("1500m")));
        assert_eq!(u.get("requests.nvidia.com/gpu"), Some(&q("2")));
        assert_eq!(u.get("pods"), Some(&q("2")));
        assert_eq!(u.get("count/pods"), Some(&q("3")));
    }

    #[test]
    fn quota_usage_masks_to_tracked_hard_names() {
        let quota: ResourceQuota = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "q", "namespace": "a"},
            "spec": {"hard": {"requests.cpu": "10", "nvidia.com/gpu": "1", "requests.memory": "1Gi"}}
        }))
        .expect("quota");
        let pods = [pod("a", "1", "Running"), pod("b", "8", "Running")];
        let used = quota_usage(&quota, &pods, &[], None);
        let expected: ResourceList = [("requests.cpu", q("1")), ("requests.memory", q("0"))]
            .into_iter()
            .collect();
        assert_eq!(used, expected);
        let never: Vec<String> = keys_never_charged(&quota, &pods, &[])
            .iter()
            .map(|n| n.to_string())
            .collect();
        assert_eq!(never, ["nvidia.com/gpu", "requests.memory"]);
    }

    #[test]
    fn priority_class_selector_operators() {
        let mut p = pod("a", "1", "");
        let sel = |op: &str, vals: &[&str]| ScopedResourceSelectorRequirement {
            scope_name: "PriorityClass".into(),
            operator: op.into(),
            values: vals.iter().map(|v| v.to_string()).collect(),
        };
        assert_eq!(pod_matches_scope(&p, &sel("NotIn", &["x"])), Ok(true));
        assert_eq!(pod_matches_scope(&p, &sel("DoesNotExist", &[])), Ok(true));
        assert_eq!(pod_matches_scope(&p, &sel("Exists", &[])), Ok(false));
        p.spec.priority_class_name = "x".into();
        assert_eq!(pod_matches_scope(&p, &sel("In", &["x", "y"])), Ok(true));
        assert_eq!(pod_matches_scope(&p, &sel("NotIn", &["x"])), Ok(false));
        assert!(pod_matches_scope(&p, &sel("In", &[])).is_err());
        assert!(pod_matches_scope(&p, &sel("Gt", &["1"])).is_err());
    }
}
