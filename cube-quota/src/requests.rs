//! Pod effective requests and limits (upstream `k8s.io/component-helpers/resource`
//! `PodRequests` / `PodLimits`), API defaulting of requests from limits, and the QoS class.
//!
//! The aggregation is per resource name:
//! 1. sum over app containers;
//! 2. init containers walked in declaration order: a restartable init container (a "sidecar",
//!    `restartPolicy: Always`) is added to the sum and to a running sidecar sum; a regular init
//!    container needs its own value plus the sidecars declared before it; the largest such
//!    need is `initMax`;
//! 3. effective = max(sum, initMax);
//! 4. pod-level `spec.resources` (PodLevelResources, on in v1.36) replaces the value of `cpu`,
//!    `memory` and `hugepages-*` only;
//! 5. `spec.overhead` is added to every request, and only to limits that are present and
//!    non-zero.

use std::borrow::Cow;

use cube_model::objects::{Container, ContainerStatus, Pod, PodSpec};
use cube_model::{Quantity, ResourceList};

/// Options of [`pod_requests`] / [`pod_limits`], as upstream's `PodResourcesOptions`.
///
/// `Default` gives all `false`: overhead included, pod-level resources honoured (the
/// PodLevelResources feature is enabled in v1.36), spec values only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PodResourcesOptions {
    /// Leave `spec.overhead` out (upstream `ExcludeOverhead`).
    pub exclude_overhead: bool,
    /// Ignore pod-level `spec.resources` (upstream `SkipPodLevelResources`; quota and the
    /// scheduler set it when the PodLevelResources feature gate is off).
    pub skip_pod_level_resources: bool,
    /// Status-aware mode for in-place resize (upstream `UseStatusResources`; quota sets it as
    /// InPlacePodVerticalScaling is on in v1.36): for app containers and sidecars whose status
    /// reports `resources`, the per-resource max of spec, actuated and allocated requests
    /// (limits: spec and actuated); with a `PodResizePending`/`Infeasible` condition the spec
    /// is ignored.
    pub use_status_resources: bool,
}

/// The QoS class of a pod (`v1.PodQOSClass`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum QosClass {
    /// Every container has cpu and memory limits, and the summed requests equal the summed
    /// limits.
    Guaranteed,
    /// Neither BestEffort nor Guaranteed.
    Burstable,
    /// No cpu or memory request or limit anywhere.
    BestEffort,
}

impl QosClass {
    /// The API spelling: `Guaranteed`, `Burstable` or `BestEffort`.
    pub fn as_str(self) -> &'static str {
        match self {
            QosClass::Guaranteed => "Guaranteed",
            QosClass::Burstable => "Burstable",
            QosClass::BestEffort => "BestEffort",
        }
    }
    /// Parses the API spelling (as found in `status.qosClass`); `None` for anything else.
    pub fn from_api(s: &str) -> Option<Self> {
        match s {
            "Guaranteed" => Some(QosClass::Guaranteed),
            "Burstable" => Some(QosClass::Burstable),
            "BestEffort" => Some(QosClass::BestEffort),
            _ => None,
        }
    }
}

impl std::fmt::Display for QosClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Upstream `addResourceList`: adds every entry of `new` into `list` (a missing entry is a copy
/// of the new quantity, so it keeps its format and printed form). Uses
/// [`ResourceList::add_assign`]; an overflowing sum (only possible far beyond any real
/// resource) keeps the entries added before it rather than panicking.
pub(crate) fn add_list(list: &mut ResourceList, new: &ResourceList) {
    let _ = list.add_assign(new);
}

/// Upstream `maxResourceList`: per name, keeps the larger of `list` and `new`
/// ([`ResourceList::max`]).
pub(crate) fn max_list(list: &mut ResourceList, new: &ResourceList) {
    *list = list.max(new);
}

/// True for a resource name that pod-level `spec.resources` may set (upstream
/// `IsSupportedPodLevelResource`): `cpu`, `memory` and `hugepages-<size>`.
pub fn is_supported_pod_level_resource(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with("hugepages-")
}

/// True when the pod sets pod-level requests or limits for a supported resource (upstream
/// `IsPodLevelResourcesSet`).
pub fn is_pod_level_resources_set(pod: &Pod) -> bool {
    is_pod_level_requests_set(pod)
        || pod.spec.resources.as_ref().is_some_and(|r| {
            r.limits
                .names()
                .any(|n| is_supported_pod_level_resource(n.as_str()))
        })
}

/// True when the pod sets pod-level requests for a supported resource (upstream
/// `IsPodLevelRequestsSet`).
pub fn is_pod_level_requests_set(pod: &Pod) -> bool {
    pod.spec.resources.as_ref().is_some_and(|r| {
        r.requests
            .names()
            .any(|n| is_supported_pod_level_resource(n.as_str()))
    })
}

/// Sidecar-aware aggregation of one side (requests or limits) of all containers.
fn aggregate<'a>(
    spec: &'a PodSpec,
    side: impl Fn(&'a Container, bool) -> Cow<'a, ResourceList>,
) -> ResourceList {
    let mut sum = ResourceList::new();
    for c in &spec.containers {
        add_list(&mut sum, &side(c, false));
    }
    let mut sidecars = ResourceList::new();
    let mut init_max = ResourceList::new();
    for c in &spec.init_containers {
        let own = side(c, true);
        if c.is_sidecar() {
            add_list(&mut sum, &own);
            add_list(&mut sidecars, &own);
            max_list(&mut init_max, &sidecars);
        } else {
            let mut need = ResourceList::new();
            add_list(&mut need, &own);
            add_list(&mut need, &sidecars);
            max_list(&mut init_max, &need);
        }
    }
    max_list(&mut sum, &init_max);
    sum
}

/// Sidecar-aware aggregation of container requests, without pod-level resources or overhead
/// (upstream `AggregateContainerRequests` with spec values only).
pub fn aggregate_container_requests(spec: &PodSpec) -> ResourceList {
    aggregate(spec, |c, _| Cow::Borrowed(&c.resources.requests))
}

/// Sidecar-aware aggregation of container limits, without pod-level resources or overhead
/// (upstream `AggregateContainerLimits` with spec values only). A container without a limit
/// contributes nothing.
pub fn aggregate_container_limits(spec: &PodSpec) -> ResourceList {
    aggregate(spec, |c, _| Cow::Borrowed(&c.resources.limits))
}

/// True when the pod has condition `PodResizePending` with reason `Infeasible` (upstream
/// `IsPodResizeInfeasible`).
pub fn is_pod_resize_infeasible(pod: &Pod) -> bool {
    pod.status
        .conditions
        .iter()
        .any(|c| c.type_ == "PodResizePending" && c.reason == "Infeasible")
}

/// The status entry of a container whose resources status-aware mode uses: app containers and
/// sidecars only, and only when the runtime reported `resources`.
fn status_of<'a>(pod: &'a Pod, c: &Container, init: bool) -> Option<&'a ContainerStatus> {
    if init && !c.is_sidecar() {
        return None;
    }
    let list = if init {
        &pod.status.init_container_statuses
    } else {
        &pod.status.container_statuses
    };
    list.iter()
        .find(|s| s.name == c.name)
        .filter(|s| s.resources.is_some())
}

/// Status-aware aggregation (upstream `UseStatusResources`): per container the per-resource
/// max of spec, actuated (`status.resources`) and allocated (`allocatedResources`) requests; if
/// the resize is infeasible, spec is ignored. Limits: max of spec and actuated, or actuated
/// alone when infeasible.
fn aggregate_with_status(pod: &Pod, requests: bool) -> ResourceList {
    let infeasible = is_pod_resize_infeasible(pod);
    aggregate(&pod.spec, |c, init| {
        let spec_side = if requests {
            &c.resources.requests
        } else {
            &c.resources.limits
        };
        let Some(st) = status_of(pod, c, init) else {
            return Cow::Borrowed(spec_side);
        };
        let actual = st
            .resources
            .as_ref()
            .map(|r| if requests { &r.requests } else { &r.limits });
        let mut out = if infeasible {
            ResourceList::new()
        } else {
            spec_side.clone()
        };
        if let Some(a) = actual {
            max_list(&mut out, a);
        }
        if requests {
            max_list(&mut out, &st.allocated_resources);
        }
        Cow::Owned(out)
    })
}

/// The pod's effective requests (upstream `PodRequests`): cpu in cores, memory in bytes, as
/// exact quantities keyed by resource name.
///
/// Requests are **not** defaulted from limits here (see [`default_requests_from_limits`]);
/// ephemeral containers are not counted. Overhead is added to every overhead resource unless
/// `opts.exclude_overhead`.
pub fn pod_requests(pod: &Pod, opts: &PodResourcesOptions) -> ResourceList {
    let mut reqs = if opts.use_status_resources {
        aggregate_with_status(pod, true)
    } else {
        aggregate_container_requests(&pod.spec)
    };
    if !opts.skip_pod_level_resources
        && is_pod_level_requests_set(pod)
        && let Some(r) = &pod.spec.resources
    {
        for (name, q) in &r.requests {
            if is_supported_pod_level_resource(name.as_str()) {
                reqs.insert(name.clone(), q.clone());
            }
        }
    }
    if !opts.exclude_overhead
        && let Some(overhead) = &pod.spec.overhead
    {
        add_list(&mut reqs, overhead);
    }
    reqs
}

/// The pod's requests as the API server stores it: [`default_requests_from_limits`] (API
/// defaulting copies a limit into a missing request, so a container asking for
/// `limits: {nvidia.com/gpu: 1}` only requests one GPU) and then [`pod_requests`]. Pods read
/// back from the API are already defaulted; manifests and templates are not. Clones the pod
/// only when some limit has no request.
pub fn effective_pod_requests(pod: &Pod, opts: &PodResourcesOptions) -> ResourceList {
    let undefaulted = |r: &cube_model::objects::ResourceRequirements| {
        r.limits.names().any(|k| !r.requests.contains(k.as_str()))
    };
    let needs = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .any(|c| undefaulted(&c.resources))
        || pod.spec.resources.as_deref().is_some_and(undefaulted);
    if !needs {
        return pod_requests(pod, opts);
    }
    let mut p = pod.clone();
    default_requests_from_limits(&mut p.spec);
    pod_requests(&p, opts)
}

/// The pod's effective limits (upstream `PodLimits`).
///
/// A container without a limit does not make the pod unlimited; overhead is added only to
/// limits that are present and non-zero, unless `opts.exclude_overhead`.
pub fn pod_limits(pod: &Pod, opts: &PodResourcesOptions) -> ResourceList {
    let mut limits = if opts.use_status_resources {
        aggregate_with_status(pod, false)
    } else {
        aggregate_container_limits(&pod.spec)
    };
    if !opts.skip_pod_level_resources
        && is_pod_level_resources_set(pod)
        && let Some(r) = &pod.spec.resources
    {
        for (name, q) in &r.limits {
            if is_supported_pod_level_resource(name.as_str()) {
                limits.insert(name.clone(), q.clone());
            }
        }
    }
    if !opts.exclude_overhead
        && let Some(overhead) = &pod.spec.overhead
    {
        for (name, q) in overhead.iter() {
            let sum = match limits.get(name.as_str()) {
                Some(v) if !v.is_zero() => v.checked_add(q),
                _ => None,
            };
            if let Some(sum) = sum {
                limits.insert(name.clone(), sum);
            }
        }
    }
    limits
}

/// API defaulting of a `v1.Pod` (upstream `SetDefaults_Pod`; not applied to pod templates):
/// for every container and init container, each resource with a limit but no request gets
/// request := limit. Then, as v1.36 does with PodLevelResources on (`defaultPodRequests`):
/// when pod-level limits are set, missing pod-level requests of supported resources default
/// to the aggregated container requests (not for hugepages), and else to the pod-level limit.
///
/// Idempotent.
pub fn default_requests_from_limits(spec: &mut PodSpec) {
    // the init containers through the out-of-line fields, without allocating them
    let init = spec.more.as_mut().map(|m| &mut m.init_containers);
    for c in spec.containers.iter_mut().chain(init.into_iter().flatten()) {
        let missing: Vec<_> = c
            .resources
            .limits
            .iter()
            .filter(|(k, _)| !c.resources.requests.contains(k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (k, v) in missing {
            c.resources.requests.insert(k, v);
        }
    }
    let has_pod_limits = spec
        .resources
        .as_ref()
        .is_some_and(|r| !r.limits.is_empty());
    if !has_pod_limits {
        return;
    }
    let aggregated = aggregate_container_requests(spec);
    if let Some(r) = spec.resources.as_mut() {
        for (k, v) in &aggregated {
            if !r.requests.contains(k.as_str())
                && is_supported_pod_level_resource(k.as_str())
                && !k.as_str().starts_with("hugepages-")
            {
                r.requests.insert(k.clone(), v.clone());
            }
        }
        let from_limits: Vec<_> = r
            .limits
            .iter()
            .filter(|(k, _)| {
                !r.requests.contains(k.as_str()) && is_supported_pod_level_resource(k.as_str())
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (k, v) in from_limits {
            r.requests.insert(k, v);
        }
    }
}

/// API defaulting of one resource list (upstream `SetDefaults_ResourceList` in
/// `pkg/apis/core/v1/defaults.go`): every value is rounded up to milli scale
/// ([`Quantity::round_up`] at scale -3), so a cpu request of `0.0005` is stored as `1m`.
/// Returns the names whose value changed, with the value before.
pub fn round_resource_list(list: &mut ResourceList) -> Vec<(String, Quantity)> {
    let mut changed = Vec::new();
    for (name, q) in list.iter_mut() {
        if !q.is_at_scale(-3) {
            let before = std::mem::replace(q, q.round_up(-3).0);
            changed.push((name.to_string(), before));
        }
    }
    changed
}

/// [`round_resource_list`] on every resource list of a pod spec that API defaulting visits
/// (the generated `SetObjectDefaults_Pod` in `pkg/apis/core/v1/zz_generated.defaults.go`):
/// each container's and init container's `limits` and `requests`, `overhead`, and pod-level
/// `resources`. It runs after `SetDefaults_Pod`, so requests copied from limits are rounded
/// too. Returns one note per rounded value (`cpu request of container c: 500u -> 1m`).
pub fn round_pod_resources(spec: &mut PodSpec) -> Vec<String> {
    let mut notes = Vec::new();
    let mut note =
        |what: &str, side: &str, changed: Vec<(String, Quantity)>, list: &ResourceList| {
            for (name, before) in changed {
                let after = list.get(&name).map(ToString::to_string).unwrap_or_default();
                notes.push(format!("{name} {side}{what}: {before} -> {after}"));
            }
        };
    let mut no_init = Vec::new();
    let init = spec
        .more
        .as_mut()
        .map_or(&mut no_init, |m| &mut m.init_containers);
    for (kind, containers) in [
        ("init container", init),
        ("container", &mut spec.containers),
    ] {
        for c in containers.iter_mut() {
            let what = format!(" of {kind} {}", c.name);
            let ch = round_resource_list(&mut c.resources.limits);
            note(&what, "limit", ch, &c.resources.limits);
            let ch = round_resource_list(&mut c.resources.requests);
            note(&what, "request", ch, &c.resources.requests);
        }
    }
    if let Some(o) = spec.overhead.as_mut() {
        let ch = round_resource_list(o);
        note("", "overhead", ch, o);
    }
    if let Some(r) = spec.resources.as_mut() {
        let ch = round_resource_list(&mut r.limits);
        note(" of the pod", "limit", ch, &r.limits);
        let ch = round_resource_list(&mut r.requests);
        note(" of the pod", "request", ch, &r.requests);
    }
    notes
}

/// The QoS class of a pod (upstream `GetPodQOS`: `status.qosClass` when the API server has set
/// it, otherwise [`compute_qos_class`]).
pub fn qos_class(pod: &Pod) -> QosClass {
    QosClass::from_api(&pod.status.qos_class).unwrap_or_else(|| compute_qos_class(pod))
}

/// Upstream `ComputePodQOS` (v1.36, PodLevelResources on): only cpu and memory and only values
/// greater than 0 count. With pod-level resources set, they alone decide; otherwise every container and
/// init container: BestEffort when nothing is set, Guaranteed when every container has cpu and
/// memory limits and the summed requests equal the summed limits, else Burstable.
pub fn compute_qos_class(pod: &Pod) -> QosClass {
    if is_pod_level_resources_set(pod)
        && let Some(r) = &pod.spec.resources
    {
        // Pod-level limits, when set, must name both cpu and memory for Guaranteed; without
        // limits the requests alone decide (BestEffort or Burstable).
        let limits = (!r.limits.is_empty()).then(|| list_entries(&r.limits));
        return qos_from(std::iter::once((list_entries(&r.requests), limits)));
    }
    qos_of(
        pod.spec
            .containers
            .iter()
            .chain(&pod.spec.init_containers)
            .map(|c| {
                (
                    list_entries(&c.resources.requests),
                    list_entries(&c.resources.limits),
                )
            }),
    )
}

fn list_entries(list: &ResourceList) -> impl Iterator<Item = (&str, &Quantity)> {
    list.iter().map(|(k, v)| (k.as_str(), v))
}

/// The QoS class of containers given as (requests, limits) entries (upstream `ComputePodQOS`
/// without pod-level resources), without allocating: what [`compute_qos_class`] computes for
/// a pod whose containers hold these lists.
pub fn qos_of<'a, R, L>(containers: impl Iterator<Item = (R, L)>) -> QosClass
where
    R: Iterator<Item = (&'a str, &'a Quantity)>,
    L: Iterator<Item = (&'a str, &'a Quantity)>,
{
    qos_from(containers.map(|(r, l)| (r, Some(l))))
}

/// The core of [`compute_qos_class`]: per container its requests and its limits (`None`:
/// limits not considered for the Guaranteed check, the pod-level case without limits).
fn qos_from<'a, R, L>(containers: impl Iterator<Item = (R, Option<L>)>) -> QosClass
where
    R: Iterator<Item = (&'a str, &'a Quantity)>,
    L: Iterator<Item = (&'a str, &'a Quantity)>,
{
    // summed cpu and memory of requests and limits (values > 0 only)
    let mut req: [Option<Quantity>; 2] = [None, None];
    let mut lim: [Option<Quantity>; 2] = [None, None];
    let mut guaranteed = true;
    let add = |acc: &mut [Option<Quantity>; 2], name: &str, q: &Quantity| -> Option<usize> {
        let i = match name {
            "cpu" => 0,
            "memory" => 1,
            _ => return None,
        };
        if q <= &Quantity::ZERO {
            return None;
        }
        acc[i] = Some(match acc[i].take() {
            // an overflowing sum keeps the value before (as add_list does)
            Some(s) => s.checked_add(q).unwrap_or(s),
            None => q.clone(),
        });
        Some(i)
    };
    for (requests, limits) in containers {
        for (name, q) in requests {
            add(&mut req, name, q);
        }
        if let Some(limits) = limits {
            let mut seen = [false; 2];
            for (name, q) in limits {
                if let Some(i) = add(&mut lim, name, q) {
                    seen[i] = true;
                }
            }
            if !(seen[0] && seen[1]) {
                guaranteed = false;
            }
        }
    }
    let count = |a: &[Option<Quantity>; 2]| a.iter().filter(|x| x.is_some()).count();
    if count(&req) == 0 && count(&lim) == 0 {
        return QosClass::BestEffort;
    }
    if guaranteed {
        for i in 0..2 {
            if let Some(r) = &req[i]
                && lim[i].as_ref() != Some(r)
            {
                guaranteed = false;
            }
        }
    }
    if guaranteed && count(&req) == count(&lim) {
        QosClass::Guaranteed
    } else {
        QosClass::Burstable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effective_requests_default_from_limits() {
        let mut pod = Pod::default();
        pod.spec.containers.push(Container {
            name: "cuda".into(),
            resources: cube_model::objects::ResourceRequirements {
                requests: [("cpu", "1".parse().unwrap())].into_iter().collect(),
                limits: [("nvidia.com/gpu", "2".parse().unwrap())]
                    .into_iter()
                    .collect(),
            },
            ..Default::default()
        });
        let o = PodResourcesOptions::default();
        assert!(pod_requests(&pod, &o).get("nvidia.com/gpu").is_none());
        let e = effective_pod_requests(&pod, &o);
        assert_eq!(
            e.get("nvidia.com/gpu").map(ToString::to_string).as_deref(),
            Some("2")
        );
        assert_eq!(e.get("cpu").map(ToString::to_string).as_deref(), Some("1"));
        // already defaulted: the same as pod_requests
        default_requests_from_limits(&mut pod.spec);
        assert_eq!(effective_pod_requests(&pod, &o), pod_requests(&pod, &o));
    }
    use cube_model::objects::ResourceRequirements;

    fn rl(pairs: &[(&str, &str)]) -> ResourceList {
        pairs
            .iter()
            .map(|(k, v)| (*k, v.parse::<Quantity>().expect("quantity")))
            .collect()
    }

    fn container(name: &str, req: &[(&str, &str)], lim: &[(&str, &str)]) -> Container {
        Container {
            name: name.into(),
            resources: ResourceRequirements {
                requests: rl(req),
                limits: rl(lim),
            },
            ..Default::default()
        }
    }

    #[test]
    fn defaulting_copies_limits_and_is_idempotent() {
        let mut spec = PodSpec {
            containers: vec![container(
                "a",
                &[("memory", "1Gi")],
                &[("cpu", "2"), ("memory", "2Gi")],
            )],
            more: cube_model::objects::PodSpecMore {
                init_containers: vec![container("i", &[], &[("cpu", "1")])],
                ..Default::default()
            }
            .into(),
            ..Default::default()
        };
        default_requests_from_limits(&mut spec);
        assert_eq!(
            spec.containers[0].resources.requests,
            rl(&[("cpu", "2"), ("memory", "1Gi")])
        );
        assert_eq!(
            spec.init_containers[0].resources.requests,
            rl(&[("cpu", "1")])
        );
        let once = spec.clone();
        default_requests_from_limits(&mut spec);
        assert_eq!(spec, once);
    }

    #[test]
    fn pod_level_requests_default_from_containers_then_limits() {
        let mut spec = PodSpec {
            containers: vec![container("a", &[("cpu", "100m")], &[])],
            more: cube_model::objects::PodSpecMore {
                resources: Some(Box::new(ResourceRequirements {
                    requests: ResourceList::new(),
                    limits: rl(&[("cpu", "1"), ("memory", "1Gi")]),
                })),
                ..Default::default()
            }
            .into(),
            ..Default::default()
        };
        default_requests_from_limits(&mut spec);
        let r = spec.resources.as_ref().map(|r| r.requests.clone());
        assert_eq!(r, Some(rl(&[("cpu", "100m"), ("memory", "1Gi")])));
    }

    #[test]
    fn status_aware_requests_take_the_max_and_respect_infeasible() {
        use cube_model::objects::{ContainerStatus, PodCondition};
        let mut pod = Pod::default();
        pod.spec.containers = vec![container(
            "a",
            &[("cpu", "1"), ("memory", "1Gi")],
            &[("cpu", "2")],
        )];
        pod.status.container_statuses = vec![ContainerStatus {
            name: "a".into(),
            allocated_resources: rl(&[("cpu", "1500m"), ("memory", "512Mi")]),
            resources: Some(Box::new(ResourceRequirements {
                requests: rl(&[("cpu", "1200m"), ("memory", "768Mi")]),
                limits: rl(&[("cpu", "3")]),
            })),
            ..Default::default()
        }];
        let on = PodResourcesOptions {
            use_status_resources: true,
            ..Default::default()
        };
        let off = PodResourcesOptions::default();
        assert_eq!(
            pod_requests(&pod, &off),
            rl(&[("cpu", "1"), ("memory", "1Gi")])
        );
        assert_eq!(
            pod_requests(&pod, &on),
            rl(&[("cpu", "1500m"), ("memory", "1Gi")])
        );
        assert_eq!(pod_limits(&pod, &on), rl(&[("cpu", "3")]));
        // an infeasible resize ignores the spec
        pod.status.conditions.push(PodCondition {
            type_: "PodResizePending".into(),
            status: "True".into(),
            reason: "Infeasible".into(),
            ..Default::default()
        });
        assert_eq!(
            pod_requests(&pod, &on),
            rl(&[("cpu", "1500m"), ("memory", "768Mi")])
        );
        // a status without `resources` is not used
        pod.status.container_statuses[0].resources = None;
        assert_eq!(
            pod_requests(&pod, &on),
            rl(&[("cpu", "1"), ("memory", "1Gi")])
        );
    }

    #[test]
    fn qos_classes() {
        let mut pod = Pod::default();
        pod.spec.containers = vec![container("a", &[], &[])];
        assert_eq!(qos_class(&pod), QosClass::BestEffort);
        pod.spec.containers = vec![container("a", &[("cpu", "1")], &[])];
        assert_eq!(qos_class(&pod), QosClass::Burstable);
        pod.spec.containers = vec![container(
            "a",
            &[("cpu", "1"), ("memory", "1Gi")],
            &[("cpu", "1"), ("memory", "1Gi")],
        )];
        assert_eq!(qos_class(&pod), QosClass::Guaranteed);
        // a zero request does not count
        pod.spec.containers = vec![container("a", &[("cpu", "0")], &[])];
        assert_eq!(qos_class(&pod), QosClass::BestEffort);
        // extended resources do not count
        pod.spec.containers = vec![container(
            "a",
            &[("nvidia.com/gpu", "1")],
            &[("nvidia.com/gpu", "1")],
        )];
        assert_eq!(qos_class(&pod), QosClass::BestEffort);
        // status wins
        pod.status.qos_class = "Guaranteed".into();
        assert_eq!(qos_class(&pod), QosClass::Guaranteed);
    }
}
