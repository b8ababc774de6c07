//! LimitRange: API defaulting of the stored object, the LimitRanger admission plugin's pod
//! defaulting (`default`, `defaultRequest`, the `kubernetes.io/limit-ranger` annotation) and
//! validation (`min`, `max`, `maxLimitRequestRatio` for Container, Pod and
//! PersistentVolumeClaim), with upstream's messages.
//!
//! Mirrors kubernetes `plugin/pkg/admission/limitranger/admission.go` and
//! `pkg/apis/core/v1/defaults.go` (`SetDefaults_LimitRangeItem`); K8S-SEMANTICS.md §4 and §10.2.

use std::collections::BTreeSet;

use cube_model::objects::{Container, LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod};
use cube_model::{Quantity, ResourceList};

use crate::requests::{PodResourcesOptions, pod_limits, pod_requests};

/// The annotation LimitRanger writes on pods it defaulted.
pub const LIMIT_RANGER_ANNOTATION: &str = "kubernetes.io/limit-ranger";

/// `resource.MaxMilliValue`: (2^63-1)/1000.
const MAX_MILLI_VALUE: i64 = i64::MAX / 1000;

/// API defaulting of a stored LimitRange (upstream `SetDefaults_LimitRangeItem`, type Container
/// only): missing `default[r]` := `max[r]`; then missing `defaultRequest[r]` := `default[r]`;
/// then missing `defaultRequest[r]` := `min[r]`; then every value of every item's `max`, `min`,
/// `default`, `defaultRequest` and `maxLimitRequestRatio` rounded up to milli scale
/// (`SetDefaults_ResourceList`, as the generated `SetObjectDefaults_LimitRange` calls it).
/// Idempotent.
pub fn default_limit_range(lr: &mut LimitRange) {
    for item in &mut lr.spec.limits {
        for list in [
            &mut item.max,
            &mut item.min,
            &mut item.default,
            &mut item.default_request,
            &mut item.max_limit_request_ratio,
        ] {
            crate::requests::round_resource_list(list);
        }
        if item.type_ != "Container" {
            continue;
        }
        for (k, v) in item.max.clone().iter() {
            if !item.default.contains(k.as_str()) {
                item.default.insert(k.clone(), v.clone());
            }
        }
        for (k, v) in item.default.clone().iter() {
            if !item.default_request.contains(k.as_str()) {
                item.default_request.insert(k.clone(), v.clone());
            }
        }
        for (k, v) in item.min.clone().iter() {
            if !item.default_request.contains(k.as_str()) {
                item.default_request.insert(k.clone(), v.clone());
            }
        }
    }
}

/// The default requests and limits a LimitRange injects into containers (upstream
/// `defaultContainerResourceRequirements`): from every `type: Container` item, later items
/// overwriting earlier ones per key. Returns `(requests, limits)`.
pub fn default_container_requirements(lr: &LimitRange) -> (ResourceList, ResourceList) {
    let mut req = ResourceList::new();
    let mut lim = ResourceList::new();
    for item in lr.spec.limits.iter().filter(|i| i.type_ == "Container") {
        for (k, v) in &item.default_request {
            req.insert(k.clone(), v.clone());
        }
        for (k, v) in &item.default {
            lim.insert(k.clone(), v.clone());
        }
    }
    (req, lim)
}

fn merge_container(
    c: &mut Container,
    req: &ResourceList,
    lim: &ResourceList,
    prefix: &str,
    notes: &mut Vec<String>,
) {
    let mut set_lim = Vec::new();
    for (k, v) in lim {
        if !c.resources.limits.contains(k.as_str()) {
            c.resources.limits.insert(k.clone(), v.clone());
            set_lim.push(k.to_string());
        }
    }
    let mut set_req = Vec::new();
    for (k, v) in req {
        if !c.resources.requests.contains(k.as_str()) {
            c.resources.requests.insert(k.clone(), v.clone());
            set_req.push(k.to_string());
        }
    }
    if !set_req.is_empty() {
        set_req.sort();
        notes.push(format!(
            "{} request for {prefix} {}",
            set_req.join(", "),
            c.name
        ));
    }
    if !set_lim.is_empty() {
        set_lim.sort();
        notes.push(format!(
            "{} limit for {prefix} {}",
            set_lim.join(", "),
            c.name
        ));
    }
}

/// LimitRanger's mutation of a pod for one LimitRange (upstream `PodMutateLimitFunc` /
/// `mergePodResourceRequirements`): fills missing container and init container requests and
/// limits from the Container defaults and sets the `kubernetes.io/limit-ranger` annotation
/// (`LimitRanger plugin set: cpu, memory request for container c; cpu limit for container c;
/// ...`). Returns the annotation text when something was set, `None` otherwise.
///
/// The LimitRange is used as given: apply [`default_limit_range`] first for a stored object.
pub fn default_pod(lr: &LimitRange, pod: &mut Pod) -> Option<String> {
    let (req, lim) = default_container_requirements(lr);
    let mut notes = Vec::new();
    for c in &mut pod.spec.containers {
        merge_container(c, &req, &lim, "container", &mut notes);
    }
    for c in &mut pod.spec.init_containers {
        merge_container(c, &req, &lim, "init container", &mut notes);
    }
    if notes.is_empty() {
        return None;
    }
    let text = format!("LimitRanger plugin set: {}", notes.join("; "));
    pod.metadata
        .annotations
        .insert(LIMIT_RANGER_ANNOTATION.to_owned(), text.clone());
    Some(text)
}

/// Upstream `requestLimitEnforcedValues`: milli precision when every operand fits, else units.
fn enforced_values(
    req: Option<&Quantity>,
    lim: Option<&Quantity>,
    enforced: &Quantity,
) -> (i64, i64, i64) {
    let zero = Quantity::ZERO;
    let (r, l) = (req.unwrap_or(&zero), lim.unwrap_or(&zero));
    let (rv, lv, ev) = (r.value(), l.value(), enforced.value());
    if rv <= MAX_MILLI_VALUE && lv <= MAX_MILLI_VALUE && ev <= MAX_MILLI_VALUE {
        (r.milli_value(), l.milli_value(), enforced.milli_value())
    } else {
        (rv, lv, ev)
    }
}

fn min_constraint(
    t: &str,
    r: &str,
    enforced: &Quantity,
    req: &ResourceList,
    lim: &ResourceList,
) -> Option<String> {
    min_violation(t, r, enforced, req.get(r), lim.get(r))
}

/// Upstream `minConstraint` for one resource given its request and limit (`None`: absent):
/// the violation text, `None` when satisfied (no allocation then).
pub(crate) fn min_violation(
    t: &str,
    r: &str,
    enforced: &Quantity,
    rq: Option<&Quantity>,
    lq: Option<&Quantity>,
) -> Option<String> {
    let (rv, lv, ev) = enforced_values(rq, lq, enforced);
    let Some(rq) = rq else {
        return Some(format!(
            "minimum {r} usage per {t} is {enforced}.  No request is specified"
        ));
    };
    if rv < ev {
        return Some(format!(
            "minimum {r} usage per {t} is {enforced}, but request is {rq}"
        ));
    }
    if let Some(lq) = lq
        && lv < ev
    {
        return Some(format!(
            "minimum {r} usage per {t} is {enforced}, but limit is {lq}"
        ));
    }
    None
}

fn max_constraint(
    t: &str,
    r: &str,
    enforced: &Quantity,
    req: &ResourceList,
    lim: &ResourceList,
) -> Option<String> {
    max_violation(t, r, enforced, req.get(r), lim.get(r))
}

/// Upstream `maxConstraint` for one resource given its request and limit (see
/// [`min_violation`]).
pub(crate) fn max_violation(
    t: &str,
    r: &str,
    enforced: &Quantity,
    rq: Option<&Quantity>,
    lq: Option<&Quantity>,
) -> Option<String> {
    let (rv, lv, ev) = enforced_values(rq, lq, enforced);
    let Some(lq) = lq else {
        return Some(format!(
            "maximum {r} usage per {t} is {enforced}.  No limit is specified"
        ));
    };
    if lv > ev {
        return Some(format!(
            "maximum {r} usage per {t} is {enforced}, but limit is {lq}"
        ));
    }
    if let Some(rq) = rq
        && rv > ev
    {
        return Some(format!(
            "maximum {r} usage per {t} is {enforced}, but request is {rq}"
        ));
    }
    None
}

fn max_request_constraint(
    t: &str,
    r: &str,
    enforced: &Quantity,
    req: &ResourceList,
) -> Option<String> {
    let rq = req.get(r);
    let (rv, _, ev) = enforced_values(rq, None, enforced);
    let Some(rq) = rq else {
        return Some(format!(
            "maximum {r} usage per {t} is {enforced}.  No request is specified"
        ));
    };
    if rv > ev {
        return Some(format!(
            "maximum {r} usage per {t} is {enforced}, but request is {rq}"
        ));
    }
    None
}

/// `num / den` printed like Go's `%f` (six decimals, rounded half up), with exact integer
/// arithmetic. `den` must be positive.
pub fn format_ratio(num: i128, den: i128) -> String {
    if den <= 0 {
        return "NaN".into();
    }
    let neg = num < 0;
    let n = num.unsigned_abs();
    let d = den.unsigned_abs();
    // round(n/d * 1e6)
    let scaled = n.saturating_mul(2_000_000) / d;
    let micros = scaled / 2 + scaled % 2;
    let s = format!("{}.{:06}", micros / 1_000_000, micros % 1_000_000);
    if neg { format!("-{s}") } else { s }
}

fn ratio_constraint(
    t: &str,
    r: &str,
    enforced: &Quantity,
    req: &ResourceList,
    lim: &ResourceList,
) -> Option<String> {
    ratio_violation(t, r, enforced, req.get(r), lim.get(r))
}

/// Upstream `limitRequestRatioConstraint` for one resource given its request and limit (see
/// [`min_violation`]).
pub(crate) fn ratio_violation(
    t: &str,
    r: &str,
    enforced: &Quantity,
    rq: Option<&Quantity>,
    lq: Option<&Quantity>,
) -> Option<String> {
    let (rv, lv, _) = enforced_values(rq, lq, enforced);
    if rq.is_none() || rv == 0 {
        return Some(format!(
            "{r} max limit to request ratio per {t} is {enforced}, but no request is specified or request is 0"
        ));
    }
    if lq.is_none() || lv == 0 {
        return Some(format!(
            "{r} max limit to request ratio per {t} is {enforced}, but no limit is specified or limit is 0"
        ));
    }
    // observed = lv / rv; upstream compares observed*1000 > enforced.MilliValue() (or units).
    let (lv, rv) = (lv as i128, rv as i128);
    let exceeded = if enforced.value() <= MAX_MILLI_VALUE {
        lv * 1000 > enforced.milli_value() as i128 * rv
    } else {
        lv > enforced.value() as i128 * rv
    };
    if exceeded {
        return Some(format!(
            "{r} max limit to request ratio per {t} is {enforced}, but provided ratio is {}",
            format_ratio(lv, rv)
        ));
    }
    None
}

fn check_item(
    t: &str,
    item: &LimitRangeItem,
    req: &ResourceList,
    lim: &ResourceList,
    errs: &mut Vec<String>,
) {
    for (k, v) in &item.min {
        errs.extend(min_constraint(t, k.as_str(), v, req, lim));
    }
    for (k, v) in &item.max {
        errs.extend(max_constraint(t, k.as_str(), v, req, lim));
    }
    for (k, v) in &item.max_limit_request_ratio {
        errs.extend(ratio_constraint(t, k.as_str(), v, req, lim));
    }
}

/// Upstream `utilerrors.NewAggregate(errs).Error()`: nothing -> `None`; one distinct message ->
/// itself; several -> `[e1, e2, ...]` with duplicates removed (first occurrence kept).
pub fn aggregate(errs: &[String]) -> Option<String> {
    let mut seen = BTreeSet::new();
    let uniq: Vec<&str> = errs
        .iter()
        .filter(|e| seen.insert(e.as_str()))
        .map(String::as_str)
        .collect();
    match uniq.len() {
        0 => None,
        1 => Some(uniq[0].to_owned()),
        _ => Some(format!("[{}]", uniq.join(", "))),
    }
}

/// The individual violations of a pod against one LimitRange (upstream
/// `PodValidateLimitFunc`), in item order; within an item per container (containers, then init
/// containers) `min`, `max`, `maxLimitRequestRatio`, names sorted (upstream iterates Go maps,
/// so its order varies between runs).
///
/// Type Pod uses the sidecar-aware pod requests/limits without overhead; when the pod has
/// pod-level `resources`, its `cpu` and `memory` requests and limits replace the aggregated
/// container values (upstream `podRequests` / `podLimits` with PodLevelResources on, in
/// `plugin/pkg/admission/limitranger/admission.go`: only cpu and memory, and whenever
/// `spec.resources` is set).
pub fn pod_violations(lr: &LimitRange, pod: &Pod) -> Vec<String> {
    let mut errs = Vec::new();
    for item in &lr.spec.limits {
        match item.type_.as_str() {
            "Container" => {
                for c in pod.spec.containers.iter().chain(&pod.spec.init_containers) {
                    check_item(
                        "Container",
                        item,
                        &c.resources.requests,
                        &c.resources.limits,
                        &mut errs,
                    );
                }
            }
            "Pod" => {
                let opts = PodResourcesOptions {
                    exclude_overhead: true,
                    skip_pod_level_resources: true,
                    use_status_resources: false,
                };
                let mut req = pod_requests(pod, &opts);
                let mut lim = pod_limits(pod, &opts);
                if let Some(r) = &pod.spec.resources {
                    for (list, pod_level) in [(&mut req, &r.requests), (&mut lim, &r.limits)] {
                        for (name, q) in pod_level {
                            if matches!(name.as_str(), "cpu" | "memory") {
                                list.insert(name.clone(), q.clone());
                            }
                        }
                    }
                }
                check_item("Pod", item, &req, &lim, &mut errs);
            }
            _ => {}
        }
    }
    errs
}

/// LimitRanger validation of a pod against one LimitRange: the aggregated message (see
/// [`aggregate`]) or `Ok`.
///
/// # Errors
/// The aggregated violation text, without the `pods "x" is forbidden: ` wrapper.
pub fn validate_pod(lr: &LimitRange, pod: &Pod) -> Result<(), String> {
    match aggregate(&pod_violations(lr, pod)) {
        Some(m) => Err(m),
        None => Ok(()),
    }
}

/// LimitRanger validation of a PersistentVolumeClaim (upstream
/// `PersistentVolumeClaimValidateLimitFunc`): `min` against the request (limits ignored), `max`
/// against the request.
///
/// # Errors
/// The aggregated violation text, without the `persistentvolumeclaims "x" is forbidden: `
/// wrapper.
pub fn validate_pvc(lr: &LimitRange, pvc: &PersistentVolumeClaim) -> Result<(), String> {
    let mut errs = Vec::new();
    let t = "PersistentVolumeClaim";
    let req = &pvc.spec.resources.requests;
    for item in lr.spec.limits.iter().filter(|i| i.type_ == t) {
        for (k, v) in &item.min {
            errs.extend(min_constraint(t, k.as_str(), v, req, &ResourceList::new()));
        }
        for (k, v) in &item.max {
            errs.extend(max_request_constraint(t, k.as_str(), v, req));
        }
    }
    match aggregate(&errs) {
        Some(m) => Err(m),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_formatting_is_exact() {
        assert_eq!(format_ratio(10, 1), "10.000000");
        assert_eq!(format_ratio(4000, 1000), "4.000000");
        assert_eq!(format_ratio(2, 3), "0.666667");
        assert_eq!(format_ratio(1, 3), "0.333333");
        assert_eq!(format_ratio(1500, 1000), "1.500000");
    }

    #[test]
    fn aggregate_dedups_and_brackets() {
        assert_eq!(aggregate(&[]), None);
        assert_eq!(aggregate(&["a".into(), "a".into()]).as_deref(), Some("a"));
        assert_eq!(
            aggregate(&["a".into(), "b".into(), "a".into()]).as_deref(),
            Some("[a, b]")
        );
    }

    #[test]
    fn stored_defaulting_chain() {
        let mut lr = LimitRange::default();
        lr.spec.limits.push(LimitRangeItem {
            type_: "Container".into(),
            max: [("cpu", "2".parse().expect("q"))].into_iter().collect(),
            min: [("memory", "64Mi".parse().expect("q"))]
                .into_iter()
                .collect(),
            ..Default::default()
        });
        default_limit_range(&mut lr);
        let item = &lr.spec.limits[0];
        assert_eq!(item.default.get("cpu"), Some(&"2".parse().expect("q")));
        assert_eq!(
            item.default_request.get("cpu"),
            Some(&"2".parse().expect("q"))
        );
        assert_eq!(
            item.default_request.get("memory"),
            Some(&"64Mi".parse().expect("q"))
        );
        assert!(!item.default.contains("memory"));
    }
}
