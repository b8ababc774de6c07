//! The API server's own validation (HTTP 422 `is invalid`) of the objects the what-if pipeline
//! handles: pod container resources and pod-level `spec.resources`, ResourceQuota specs
//! (scopes) and LimitRange specs.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go`
//! (`ValidateContainerResourceRequirements`, `validatePodResources`, `ValidateResourceQuotaSpec`,
//! `ValidateLimitRange`) and apimachinery `field.Error` rendering; texts checked against a real
//! v1.36 API server (`testdata/fixtures/apiserver/admission-messages.jsonl`).

use std::collections::BTreeSet;
use std::fmt;

use cube_model::objects::{
    Container, LimitRange, Pod, PodSpec, ResourceQuota, ScopedResourceSelectorRequirement,
};
use cube_model::{Quantity, ResourceList};

use crate::limitrange::format_ratio;
use crate::quota::is_extended_resource_name;
use crate::requests::{
    aggregate_container_limits, aggregate_container_requests, is_supported_pod_level_resource,
};

/// The kind of a field error, as apimachinery `field.ErrorType`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldErrorKind {
    /// `Invalid value: <value>` (the value already rendered: `"1"`, `["BestEffort"]`).
    Invalid(String),
    /// `Required value`.
    Required,
    /// `Forbidden`.
    Forbidden,
    /// `Duplicate value: <value>`.
    Duplicate(String),
    /// `Unsupported value: <value>`.
    NotSupported(String),
}

/// One validation error: `<field>: <kind>: <detail>`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldError {
    /// Field path, e.g. `spec.containers[0].resources.requests`.
    pub field: String,
    /// Kind (and the rendered bad value).
    pub kind: FieldErrorKind,
    /// Detail text.
    pub detail: String,
}

impl FieldError {
    /// `Invalid value` with a string value (rendered quoted, as Go's `%q`).
    pub fn invalid(field: impl Into<String>, value: &str, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            kind: FieldErrorKind::Invalid(go_quote(value)),
            detail: detail.into(),
        }
    }
    /// `Invalid value` with a value rendered as JSON (lists, structs).
    pub fn invalid_json(
        field: impl Into<String>,
        value: &impl serde::Serialize,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            field: field.into(),
            kind: FieldErrorKind::Invalid(serde_json::to_string(value).unwrap_or_default()),
            detail: detail.into(),
        }
    }
    /// `Required value`.
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            kind: FieldErrorKind::Required,
            detail: detail.into(),
        }
    }
    /// `Forbidden`.
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            field: field.into(),
            kind: FieldErrorKind::Forbidden,
            detail: detail.into(),
        }
    }
}

fn go_quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.detail;
        match &self.kind {
            FieldErrorKind::Invalid(v) => write!(f, "{}: Invalid value: {v}", self.field)?,
            FieldErrorKind::Required => write!(f, "{}: Required value", self.field)?,
            FieldErrorKind::Forbidden => write!(f, "{}: Forbidden", self.field)?,
            FieldErrorKind::Duplicate(v) => write!(f, "{}: Duplicate value: {v}", self.field)?,
            FieldErrorKind::NotSupported(v) => write!(f, "{}: Unsupported value: {v}", self.field)?,
        }
        if !d.is_empty() {
            write!(f, ": {d}")?;
        }
        Ok(())
    }
}

/// The API's 422 message: `<Kind> "<name>" is invalid: <errors>` where one error prints alone
/// and several print as `[e1, e2]` (duplicates removed), as `errors.NewInvalid`.
/// `None` when `errs` is empty.
pub fn invalid_message(kind: &str, name: &str, errs: &[FieldError]) -> Option<String> {
    let texts: Vec<String> = errs.iter().map(ToString::to_string).collect();
    crate::limitrange::aggregate(&texts).map(|m| format!("{kind} \"{name}\" is invalid: {m}"))
}

/// True for a resource that may be overcommitted (upstream `IsOvercommitAllowed`): native and
/// not hugepages. Extended resources such as `nvidia.com/gpu` are not.
pub fn is_overcommit_allowed(name: &str) -> bool {
    crate::quota::is_native_resource(name) && !name.starts_with("hugepages-")
}

/// True for resources whose quantities must be integers (upstream `IsIntegerResourceName`):
/// extended resources and the object-count names.
pub fn is_integer_resource_name(name: &str) -> bool {
    is_extended_resource_name(name)
        || matches!(
            name,
            "pods"
                | "services"
                | "replicationcontrollers"
                | "resourcequotas"
                | "secrets"
                | "configmaps"
                | "persistentvolumeclaims"
                | "services.nodeports"
                | "services.loadbalancers"
        )
}

fn quantity_value_errors(name: &str, q: &Quantity, field: &str, errs: &mut Vec<FieldError>) {
    if q.is_negative() {
        errs.push(FieldError::invalid(
            field,
            &q.to_string(),
            "must be greater than or equal to 0",
        ));
    }
    if is_integer_resource_name(name) && q.milli_value() % 1000 != 0 {
        errs.push(FieldError::invalid(
            field,
            &q.to_string(),
            "must be an integer",
        ));
    }
}

fn is_standard_container_resource(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage") || name.starts_with("hugepages-")
}

fn container_resource_name_errors(name: &str, field: &str, errs: &mut Vec<FieldError>) {
    if !name.contains('/') && !is_standard_container_resource(name) {
        errs.push(FieldError::invalid(
            field,
            name,
            "must be a standard resource for containers",
        ));
    }
}

/// Validation of one container's resources (upstream `ValidateContainerResourceRequirements`);
/// `path` is e.g. `spec.containers[0].resources`. Keys are visited in name order (upstream
/// iterates Go maps), limits before requests.
pub fn validate_container_resources(c: &Container, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let lim_path = format!("{path}.limits");
    let req_path = format!("{path}.requests");
    let (mut lim_cm, mut req_cm, mut lim_hp, mut req_hp) = (false, false, false, false);
    for (name, q) in &c.resources.limits {
        let n = name.as_str();
        let f = format!("{lim_path}[{n}]");
        container_resource_name_errors(n, &f, &mut errs);
        quantity_value_errors(n, q, &f, &mut errs);
        lim_hp |= n.starts_with("hugepages-");
        lim_cm |= n == "cpu" || n == "memory";
    }
    for (name, q) in &c.resources.requests {
        let n = name.as_str();
        let f = format!("{req_path}[{n}]");
        container_resource_name_errors(n, &f, &mut errs);
        quantity_value_errors(n, q, &f, &mut errs);
        match c.resources.limits.get(n) {
            Some(l) => {
                if q != l && !is_overcommit_allowed(n) {
                    errs.push(FieldError::invalid(
                        &req_path,
                        &q.to_string(),
                        format!("must be equal to {n} limit of {l}"),
                    ));
                } else if q > l {
                    errs.push(FieldError::invalid(
                        &req_path,
                        &q.to_string(),
                        format!("must be less than or equal to {n} limit of {l}"),
                    ));
                }
            }
            None if !is_overcommit_allowed(n) => {
                errs.push(FieldError::required(
                    &lim_path,
                    "Limit must be set for non overcommitable resources",
                ));
            }
            None => {}
        }
        req_hp |= n.starts_with("hugepages-");
        req_cm |= n == "cpu" || n == "memory";
    }
    if !lim_cm && !req_cm && (lim_hp || req_hp) {
        errs.push(FieldError::forbidden(
            path,
            "HugePages require cpu or memory",
        ));
    }
    errs
}

/// Pod-level `spec.resources` validation as v1.36 does (PodLevelResources on, upstream
/// `validatePodResources`): only `cpu`, `memory` and `hugepages-*` are supported; a request may
/// not exceed its limit; pod-level requests must cover the aggregated container requests;
/// hugepages limits must cover the aggregated container limits; no container limit may exceed
/// the pod-level limit. (The request-coverage text matches messages of real servers; the
/// other consistency texts are from the source as we recall it.)
pub fn validate_pod_level_resources(spec: &PodSpec) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let Some(res) = &spec.resources else {
        return errs;
    };
    let supported = "\"cpu\", \"hugepages-\", \"memory\"";
    for (kind, list) in [("limits", &res.limits), ("requests", &res.requests)] {
        for (name, q) in list {
            let n = name.as_str();
            let f = format!("spec.resources.{kind}[{n}]");
            if !n.contains('/')
                && !is_standard_quota_resource_name(n)
                && !is_standard_container_resource(n)
                && n != "storage"
            {
                errs.push(FieldError::invalid(
                    &f,
                    n,
                    "must be a standard resource type or fully qualified",
                ));
            } else if !is_supported_pod_level_resource(n) {
                errs.push(FieldError {
                    field: f.clone(),
                    kind: FieldErrorKind::NotSupported(go_quote(n)),
                    detail: format!("supported values: {supported}"),
                });
            }
            quantity_value_errors(n, q, &f, &mut errs);
            if kind == "requests"
                && let Some(l) = res.limits.get(n)
                && q > l
            {
                errs.push(FieldError::invalid(
                    "spec.resources.requests",
                    &q.to_string(),
                    format!("must be less than or equal to {n} limit of {l}"),
                ));
            }
        }
    }
    let agg_req = aggregate_container_requests(spec);
    for (name, cq) in &agg_req {
        if let Some(pq) = res.requests.get(name.as_str())
            && cq > pq
        {
            errs.push(FieldError::invalid(
                format!("spec.resources.requests[{name}]"),
                &pq.to_string(),
                format!("must be greater than or equal to aggregate container requests of {cq}"),
            ));
        }
    }
    let agg_lim = aggregate_container_limits(spec);
    for (name, cl) in &agg_lim {
        if name.as_str().starts_with("hugepages-")
            && let Some(pl) = res.limits.get(name.as_str())
            && cl > pl
        {
            errs.push(FieldError::invalid(
                format!("spec.resources.limits[{name}]"),
                &pl.to_string(),
                format!("must be greater than or equal to aggregate container limits of {cl}"),
            ));
        }
    }
    for (i, c) in spec.containers.iter().enumerate() {
        for (name, cl) in &c.resources.limits {
            if let Some(pl) = res.limits.get(name.as_str())
                && cl > pl
            {
                // upstream builds this path from the pod-level resources path
                errs.push(FieldError::invalid(
                    format!("spec.resources.containers[{i}][{name}].limits"),
                    &cl.to_string(),
                    format!("must be less than or equal to pod limits of {pl}"),
                ));
            }
        }
    }
    errs
}

/// The resource part of pod validation at CREATE (after API defaulting and mutating admission):
/// every container, every init container (`spec.initContainers[i]`), then pod-level resources,
/// and duplicate container names (`spec.initContainers[0].name: Duplicate value: "x"`).
pub fn validate_pod_resources(pod: &Pod) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut seen = BTreeSet::new();
    for (i, c) in pod.spec.containers.iter().enumerate() {
        if !c.name.is_empty() && !seen.insert(c.name.as_str()) {
            errs.push(FieldError {
                field: format!("spec.containers[{i}].name"),
                kind: FieldErrorKind::Duplicate(go_quote(&c.name)),
                detail: String::new(),
            });
        }
        errs.extend(validate_container_resources(
            c,
            &format!("spec.containers[{i}].resources"),
        ));
    }
    for (i, c) in pod.spec.init_containers.iter().enumerate() {
        if !c.name.is_empty() && !seen.insert(c.name.as_str()) {
            errs.push(FieldError {
                field: format!("spec.initContainers[{i}].name"),
                kind: FieldErrorKind::Duplicate(go_quote(&c.name)),
                detail: String::new(),
            });
        }
        errs.extend(validate_container_resources(
            c,
            &format!("spec.initContainers[{i}].resources"),
        ));
    }
    errs.extend(validate_pod_level_resources(&pod.spec));
    errs
}

/// Quota names the scope check applies to (upstream `IsStandardQuotaResourceName`, plus the
/// `count/*` names: a v1.36 server rejects `count/pods` under scopes, §10.4).
fn is_standard_quota_resource_name(name: &str) -> bool {
    matches!(
        name,
        "cpu"
            | "memory"
            | "ephemeral-storage"
            | "requests.cpu"
            | "requests.memory"
            | "requests.storage"
            | "requests.ephemeral-storage"
            | "limits.cpu"
            | "limits.memory"
            | "limits.ephemeral-storage"
            | "pods"
            | "services"
            | "replicationcontrollers"
            | "resourcequotas"
            | "secrets"
            | "persistentvolumeclaims"
            | "configmaps"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || name.starts_with("hugepages-")
        || name.starts_with("requests.hugepages-")
        || name.starts_with("count/")
}

/// Upstream `IsResourceQuotaScopeValidForResource`.
pub fn is_scope_valid_for_resource(scope: &str, name: &str) -> bool {
    let count = name == "pods";
    let compute = matches!(
        name,
        "cpu" | "memory" | "limits.cpu" | "limits.memory" | "requests.cpu" | "requests.memory"
    );
    match scope {
        "Terminating"
        | "NotTerminating"
        | "NotBestEffort"
        | "PriorityClass"
        | "CrossNamespacePodAffinity" => count || compute,
        "BestEffort" => count,
        _ => true,
    }
}

const STANDARD_SCOPES: [&str; 7] = [
    "Terminating",
    "NotTerminating",
    "BestEffort",
    "NotBestEffort",
    "PriorityClass",
    "CrossNamespacePodAffinity",
    "VolumeAttributesClass",
];

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SelectorJson<'a> {
    match_expressions: Vec<ReqJson<'a>>,
}
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ReqJson<'a> {
    scope_name: &'a str,
    operator: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    values: &'a [String],
}

fn selector_json(reqs: &[ScopedResourceSelectorRequirement]) -> SelectorJson<'_> {
    SelectorJson {
        match_expressions: reqs
            .iter()
            .map(|r| ReqJson {
                scope_name: &r.scope_name,
                operator: &r.operator,
                values: &r.values,
            })
            .collect(),
    }
}

/// Validation of a ResourceQuota spec (upstream `ValidateResourceQuotaSpec`: hard names and
/// values, `validateResourceQuotaScopes`, `validateScopeSelector`).
pub fn validate_resource_quota(q: &ResourceQuota) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let hard = &q.spec.hard;
    for (name, v) in hard {
        let n = name.as_str();
        let f = format!("spec.hard[{n}]");
        if !n.contains('/') && !is_standard_quota_resource_name(n) {
            errs.push(FieldError::invalid(
                &f,
                n,
                "must be a standard resource type or fully qualified",
            ));
        }
        quantity_value_errors(n, v, &f, &mut errs);
    }
    let scopes = &q.spec.scopes;
    if !scopes.is_empty() {
        let mut set = BTreeSet::new();
        for s in scopes {
            if !STANDARD_SCOPES.contains(&s.as_str()) {
                errs.push(FieldError::invalid_json(
                    "spec.scopes",
                    scopes,
                    "unsupported scope",
                ));
            }
            for k in hard.names() {
                if is_standard_quota_resource_name(k.as_str())
                    && !is_scope_valid_for_resource(s, k.as_str())
                {
                    errs.push(FieldError::invalid_json(
                        "spec.scopes",
                        scopes,
                        "unsupported scope applied to resource",
                    ));
                }
            }
            set.insert(s.as_str());
        }
        for (a, b) in [
            ("BestEffort", "NotBestEffort"),
            ("Terminating", "NotTerminating"),
        ] {
            if set.contains(a) && set.contains(b) {
                errs.push(FieldError::invalid_json(
                    "spec.scopes",
                    scopes,
                    "conflicting scopes",
                ));
            }
        }
    }
    if let Some(sel) = &q.spec.scope_selector {
        let path = "spec.scopeSelector.matchExpressions";
        let mut set = BTreeSet::new();
        let sj = selector_json(&sel.match_expressions);
        for r in &sel.match_expressions {
            let s = r.scope_name.as_str();
            if !STANDARD_SCOPES.contains(&s) {
                errs.push(FieldError::invalid(
                    format!("{path}.scopeName"),
                    s,
                    "unsupported scope",
                ));
            }
            for k in hard.names() {
                if is_standard_quota_resource_name(k.as_str())
                    && !is_scope_valid_for_resource(s, k.as_str())
                {
                    errs.push(FieldError::invalid_json(
                        path,
                        &sj,
                        "unsupported scope applied to resource",
                    ));
                }
            }
            if matches!(
                s,
                "BestEffort"
                    | "NotBestEffort"
                    | "Terminating"
                    | "NotTerminating"
                    | "CrossNamespacePodAffinity"
            ) && r.operator != "Exists"
            {
                errs.push(FieldError::invalid(
                    format!("{path}.operator"),
                    &r.operator,
                    "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
                ));
            }
            match r.operator.as_str() {
                "In" | "NotIn" if r.values.is_empty() => errs.push(FieldError::required(
                    format!("{path}.values"),
                    "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
                )),
                "In" | "NotIn" => {}
                "Exists" | "DoesNotExist" if !r.values.is_empty() => errs.push(FieldError::invalid_json(
                    format!("{path}.values"),
                    &r.values,
                    "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
                )),
                "Exists" | "DoesNotExist" => {}
                other => errs.push(FieldError::invalid(
                    format!("{path}.operator"),
                    other,
                    "not a valid selector operator",
                )),
            }
            set.insert(s);
        }
        for (a, b) in [
            ("BestEffort", "NotBestEffort"),
            ("Terminating", "NotTerminating"),
        ] {
            if set.contains(a) && set.contains(b) {
                errs.push(FieldError::invalid_json(path, &sj, "conflicting scopes"));
            }
        }
    }
    errs
}

fn check_quantities(base: &str, list: &ResourceList, what: &str, errs: &mut Vec<FieldError>) {
    for (name, q) in list {
        quantity_value_errors(name.as_str(), q, &format!("{base}.{what}[{name}]"), errs);
    }
}

/// Validation of a LimitRange (upstream `ValidateLimitRange`) as the API server runs it, i.e.
/// after [`crate::limitrange::default_limit_range`] (so `default` copied from `max` is
/// compared too, §10 note 10). Keys are visited in name order.
pub fn validate_limit_range(lr: &LimitRange) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut types = BTreeSet::new();
    for (i, item) in lr.spec.limits.iter().enumerate() {
        let base = format!("spec.limits[{i}]");
        let t = item.type_.as_str();
        if !matches!(t, "Container" | "Pod" | "PersistentVolumeClaim") && !t.contains('/') {
            errs.push(FieldError::invalid(
                format!("{base}.type"),
                t,
                "must be a standard limit type or fully qualified",
            ));
        }
        if !types.insert(t) {
            errs.push(FieldError {
                field: format!("{base}.type"),
                kind: FieldErrorKind::Duplicate(go_quote(t)),
                detail: String::new(),
            });
        }
        check_quantities(&base, &item.max, "max", &mut errs);
        check_quantities(&base, &item.min, "min", &mut errs);
        if t == "Pod" {
            if !item.default.is_empty() {
                errs.push(FieldError::forbidden(
                    format!("{base}.default"),
                    "may not be specified when `type` is 'Pod'",
                ));
            }
            if !item.default_request.is_empty() {
                errs.push(FieldError::forbidden(
                    format!("{base}.defaultRequest"),
                    "may not be specified when `type` is 'Pod'",
                ));
            }
        } else {
            check_quantities(&base, &item.default, "default", &mut errs);
            check_quantities(&base, &item.default_request, "defaultRequest", &mut errs);
        }
        if t == "PersistentVolumeClaim"
            && !item.min.contains("storage")
            && !item.max.contains("storage")
        {
            errs.push(FieldError::required(
                format!("{base}.limits"),
                "either minimum or maximum storage value is required, but neither was provided",
            ));
        }
        check_quantities(
            &base,
            &item.max_limit_request_ratio,
            "maxLimitRequestRatio",
            &mut errs,
        );
        let keys: BTreeSet<&str> = item
            .max
            .names()
            .chain(item.min.names())
            .chain(item.default.names())
            .chain(item.default_request.names())
            .chain(item.max_limit_request_ratio.names())
            .map(|n| n.as_str())
            .collect();
        for k in keys {
            let (min, max) = (item.min.get(k), item.max.get(k));
            let (def, defreq) = if t == "Pod" {
                (None, None)
            } else {
                (item.default.get(k), item.default_request.get(k))
            };
            let ratio = item.max_limit_request_ratio.get(k);
            if let (Some(mi), Some(ma)) = (min, max)
                && mi > ma
            {
                errs.push(FieldError::invalid(
                    format!("{base}.min[{k}]"),
                    &mi.to_string(),
                    format!("min value {mi} is greater than max value {ma}"),
                ));
            }
            if let (Some(dr), Some(mi)) = (defreq, min)
                && mi > dr
            {
                errs.push(FieldError::invalid(
                    format!("{base}.defaultRequest[{k}]"),
                    &dr.to_string(),
                    format!("min value {mi} is greater than default request value {dr}"),
                ));
            }
            if let (Some(dr), Some(ma)) = (defreq, max)
                && dr > ma
            {
                errs.push(FieldError::invalid(
                    format!("{base}.defaultRequest[{k}]"),
                    &dr.to_string(),
                    format!("default request value {dr} is greater than max value {ma}"),
                ));
            }
            if let (Some(dr), Some(d)) = (defreq, def)
                && dr > d
            {
                errs.push(FieldError::invalid(
                    format!("{base}.defaultRequest[{k}]"),
                    &dr.to_string(),
                    format!("default request value {dr} is greater than default limit value {d}"),
                ));
            }
            if let (Some(d), Some(mi)) = (def, min)
                && mi > d
            {
                errs.push(FieldError::invalid(
                    format!("{base}.default[{k}]"),
                    &mi.to_string(),
                    format!("min value {mi} is greater than default value {d}"),
                ));
            }
            if let (Some(d), Some(ma)) = (def, max)
                && d > ma
            {
                // upstream reports the max as the invalid value (observed on v1.36)
                errs.push(FieldError::invalid(
                    format!("{base}.default[{k}]"),
                    &ma.to_string(),
                    format!("default value {d} is greater than max value {ma}"),
                ));
            }
            if let Some(r) = ratio
                && *r < Quantity::from_value(1, cube_model::Format::DecimalSI)
            {
                errs.push(FieldError::invalid(
                    format!("{base}.maxLimitRequestRatio[{k}]"),
                    &r.to_string(),
                    format!("ratio {r} is less than 1"),
                ));
            }
            if let (Some(r), Some(mi), Some(ma)) = (ratio, min, max) {
                const MAX_MILLI: i64 = i64::MAX / 1000;
                let (rm, min_v, max_v) =
                    if r.value() < MAX_MILLI && mi.value() < MAX_MILLI && ma.value() < MAX_MILLI {
                        // ratio in millis compared with max/min: r/1000 > max/min
                        (
                            r.milli_value() as i128,
                            mi.milli_value() as i128,
                            ma.milli_value() as i128,
                        )
                    } else {
                        (
                            r.value() as i128 * 1000,
                            mi.value() as i128,
                            ma.value() as i128,
                        )
                    };
                if min_v > 0 && rm * min_v > max_v * 1000 {
                    errs.push(FieldError::invalid(
                        format!("{base}.maxLimitRequestRatio[{k}]"),
                        &r.to_string(),
                        format!(
                            "ratio {r} is greater than max/min = {}",
                            format_ratio(max_v, min_v)
                        ),
                    ));
                }
            }
            if !is_overcommit_allowed(k)
                && let (Some(d), Some(dr)) = (def, defreq)
                && d != dr
            {
                errs.push(FieldError::invalid(
                    format!("{base}.defaultRequest[{k}]"),
                    &dr.to_string(),
                    format!("default value {d} must equal to defaultRequest value {dr} in {k}"),
                ));
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_model::objects::ResourceRequirements;

    fn rl(pairs: &[(&str, &str)]) -> ResourceList {
        pairs
            .iter()
            .map(|(k, v)| (*k, v.parse::<Quantity>().expect("q")))
            .collect()
    }

    #[test]
    fn request_above_limit_is_422() {
        let mut pod = Pod::default();
        pod.metadata.name = "x".into();
        pod.spec.containers.push(Container {
            name: "c".into(),
            resources: ResourceRequirements {
                requests: rl(&[("cpu", "1")]),
                limits: rl(&[("cpu", "250m")]),
            },
            ..Default::default()
        });
        let errs = validate_pod_resources(&pod);
        assert_eq!(
            invalid_message("Pod", "x", &errs).as_deref(),
            Some(
                "Pod \"x\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be less than or equal to cpu limit of 250m"
            )
        );
    }

    #[test]
    fn hugepages_need_cpu_or_memory() {
        let c = Container {
            resources: ResourceRequirements {
                requests: rl(&[("hugepages-2Mi", "100Mi")]),
                limits: rl(&[("hugepages-2Mi", "100Mi")]),
            },
            ..Default::default()
        };
        let errs = validate_container_resources(&c, "spec.containers[0].resources");
        assert_eq!(errs.len(), 1);
        assert_eq!(
            errs[0].to_string(),
            "spec.containers[0].resources: Forbidden: HugePages require cpu or memory"
        );
    }

    /// Text of a real 422 (a public report against a server with pod-level resources).
    #[test]
    fn pod_level_requests_must_cover_containers() {
        let mut pod = Pod::default();
        pod.spec.resources = Some(Box::new(ResourceRequirements {
            requests: rl(&[("cpu", "1"), ("memory", "576Mi")]),
            limits: ResourceList::new(),
        }));
        for (cpu, mem) in [("1", "4Gi"), ("500m", "2Gi")] {
            pod.spec.containers.push(Container {
                name: format!("c{cpu}"),
                resources: ResourceRequirements {
                    requests: rl(&[("cpu", cpu), ("memory", mem)]),
                    limits: ResourceList::new(),
                },
                ..Default::default()
            });
        }
        assert_eq!(
            invalid_message("Pod", "fry-38b04", &validate_pod_resources(&pod)).as_deref(),
            Some(
                "Pod \"fry-38b04\" is invalid: [spec.resources.requests[cpu]: Invalid value: \"1\": must be greater than or equal to aggregate container requests of 1500m, spec.resources.requests[memory]: Invalid value: \"576Mi\": must be greater than or equal to aggregate container requests of 6Gi]"
            )
        );
    }

    #[test]
    fn pod_level_request_above_limit() {
        let spec = PodSpec {
            more: cube_model::objects::PodSpecMore {
                resources: Some(Box::new(ResourceRequirements {
                    requests: rl(&[("cpu", "2"), ("storage", "1Gi")]),
                    limits: rl(&[("cpu", "1")]),
                })),
                ..Default::default()
            }
            .into(),
            ..Default::default()
        };
        let texts: Vec<String> = validate_pod_level_resources(&spec)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(texts.contains(&"spec.resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1".to_string()));
        assert!(texts.iter().any(|t| {
            t.starts_with("spec.resources.requests[storage]: Unsupported value: \"storage\"")
        }));
    }
}

#[cfg(test)]
mod quota_scope_tests {
    use super::*;

    fn check(json: serde_json::Value, expected: &[&str]) {
        let q: ResourceQuota = serde_json::from_value(json).expect("quota");
        let got: Vec<String> = validate_resource_quota(&q)
            .iter()
            .map(ToString::to_string)
            .collect();
        let got: BTreeSet<String> = got.into_iter().collect();
        let exp: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, exp);
    }

    /// §10.4: extended resources may sit under a PriorityClass selector, `count/pods` and
    /// `requests.ephemeral-storage` under scopes may not.
    #[test]
    fn scopes_and_resources() {
        check(
            serde_json::json!({"spec": {"hard": {"requests.nvidia.com/gpu": "4"},
                "scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "In", "values": ["a"]}]}}}),
            &[],
        );
        check(
            serde_json::json!({"spec": {"hard": {"count/pods": "4"}, "scopes": ["NotTerminating"]}}),
            &[
                "spec.scopes: Invalid value: [\"NotTerminating\"]: unsupported scope applied to resource",
            ],
        );
        check(
            serde_json::json!({"spec": {"hard": {"requests.ephemeral-storage": "4Gi"}, "scopes": ["Terminating"]}}),
            &[
                "spec.scopes: Invalid value: [\"Terminating\"]: unsupported scope applied to resource",
            ],
        );
        check(
            serde_json::json!({"spec": {"hard": {"pods": "1"},
                "scopeSelector": {"matchExpressions": [{"scopeName": "PriorityClass", "operator": "Exists", "values": ["a"]}]}}}),
            &[
                "spec.scopeSelector.matchExpressions.values: Invalid value: [\"a\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            ],
        );
    }
}
