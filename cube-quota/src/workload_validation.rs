//! The API server's own checks of a controller object (Deployment, ReplicaSet, StatefulSet,
//! DaemonSet, ReplicationController, Job, CronJob) before any admission plugin sees it: the
//! decoding of its integer fields (HTTP 400) and the validation of its spec (HTTP 422).
//!
//! Mirrors kubernetes `pkg/apis/apps/validation/validation.go` (`ValidateDeploymentSpec`,
//! `ValidateReplicaSetSpec`, `ValidateStatefulSetSpec`, `ValidateDaemonSetSpec`,
//! `ValidatePodTemplateSpecForReplicaSet`), `pkg/apis/batch/validation/validation.go`
//! (`validateJobSpec`, `ValidateCronJobSpec`), `pkg/apis/core/validation/validation.go`
//! (`ValidateReplicationControllerSpec`, `ValidateNonnegativeField`: `must be greater than or
//! equal to 0`) and the JSON decoder's error for a number that does not fit an `int32`
//! (`sigs.k8s.io/json`: `json: cannot unmarshal number 3000000000 into Go struct field
//! DeploymentSpec.spec.replicas of type int32`, wrapped by the API server as `Deployment in
//! version "v1" cannot be handled as a Deployment: ...`). Errors are listed in upstream's
//! order, so a [`crate::validation::invalid_message`] of them is the server's text, e.g.
//! `Deployment.apps "neg" is invalid: spec.replicas: Invalid value: -5: must be greater than or
//! equal to 0`.

use cube_model::objects::LabelSelector;
use cube_model::objects::Labels;
use serde_json::Value;

use crate::validation::{FieldError, FieldErrorKind};
use crate::whatif::WorkloadKind;

/// `ValidateNonnegativeField`'s detail.
pub const NONNEGATIVE: &str = "must be greater than or equal to 0";
/// The detail of a template whose labels the selector does not select.
pub const SELECTOR_MISMATCH: &str = "`selector` does not match template `labels`";

/// A controller object the API server refuses before admission.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WorkloadRefusal {
    /// 400 BadRequest: an integer field does not decode (`cannot be handled as a ...`).
    Decode(String),
    /// 422 Invalid: the field errors, in upstream's order.
    Invalid(Vec<FieldError>),
}

/// The kind as the API server names it in a Status message: `Deployment.apps`, `Job.batch`,
/// `ReplicationController` (core kinds have no group).
pub fn qualified_kind(kind: WorkloadKind) -> &'static str {
    match kind {
        WorkloadKind::Pod => "Pod",
        WorkloadKind::Job => "Job.batch",
        WorkloadKind::CronJob => "CronJob.batch",
        WorkloadKind::Deployment => "Deployment.apps",
        WorkloadKind::ReplicaSet => "ReplicaSet.apps",
        WorkloadKind::ReplicationController => "ReplicationController",
        WorkloadKind::StatefulSet => "StatefulSet.apps",
        WorkloadKind::DaemonSet => "DaemonSet.apps",
    }
}

/// The Go type of the object's spec, as the decoder names it (`DeploymentSpec`).
fn spec_type(kind: WorkloadKind) -> &'static str {
    match kind {
        WorkloadKind::Pod => "PodSpec",
        WorkloadKind::Job | WorkloadKind::CronJob => "JobSpec",
        WorkloadKind::Deployment => "DeploymentSpec",
        WorkloadKind::ReplicaSet => "ReplicaSetSpec",
        WorkloadKind::ReplicationController => "ReplicationControllerSpec",
        WorkloadKind::StatefulSet => "StatefulSetSpec",
        WorkloadKind::DaemonSet => "DaemonSetSpec",
    }
}

/// `<field>: Invalid value: <n>: <detail>` with an integer value.
fn invalid_int(field: String, n: i64, detail: &str) -> FieldError {
    let mut e = FieldError::required(field, detail);
    e.kind = FieldErrorKind::Invalid(n.to_string());
    e
}

/// The integer fields of a spec, read once: a value that is not an `int32` (or `int64` for the
/// `*Seconds` fields declared so upstream) is the decoder's refusal.
struct Ints<'a> {
    kind: WorkloadKind,
    spec: &'a Value,
    /// JSON path of `spec` (`spec`, `spec.jobTemplate.spec`).
    path: &'a str,
}

impl Ints<'_> {
    /// The value of `key` (`None` when absent or null).
    fn get(&self, key: &str, bits: u32) -> Result<Option<i64>, WorkloadRefusal> {
        let Some(v) = self.spec.get(key).filter(|v| !v.is_null()) else {
            return Ok(None);
        };
        let (min, max) = if bits == 32 {
            (i64::from(i32::MIN), i64::from(i32::MAX))
        } else {
            (i64::MIN, i64::MAX)
        };
        match v.as_i64() {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => {
                let what = match v {
                    Value::Number(n) => format!("number {n}"),
                    Value::String(_) => "string".to_owned(),
                    Value::Bool(_) => "bool".to_owned(),
                    Value::Array(_) => "array".to_owned(),
                    _ => "object".to_owned(),
                };
                let kind = self.kind.as_str();
                // (every kind read here is served as `v1`: apps/v1, batch/v1, core v1)
                Err(WorkloadRefusal::Decode(format!(
                    "{kind} in version \"v1\" cannot be handled as a {kind}: json: cannot unmarshal {what} into Go struct field {}.{}.{key} of type int{bits}",
                    spec_type(self.kind),
                    self.path
                )))
            }
        }
    }

    /// `ValidateNonnegativeField` on `key` when set.
    fn nonnegative(
        &self,
        key: &str,
        bits: u32,
        errs: &mut Vec<FieldError>,
    ) -> Result<Option<i64>, WorkloadRefusal> {
        let v = self.get(key, bits)?;
        if let Some(n) = v
            && n < 0
        {
            errs.push(invalid_int(format!("{}.{key}", self.path), n, NONNEGATIVE));
        }
        Ok(v)
    }
}

/// The JSON type name the decoder prints for a value it cannot store (`bool`, `number`).
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}

/// The label maps the decoder reads as `map[string]string`: a value written without quotes
/// that YAML reads as another type (`app: n`, `on`, `true`, `8`) is refused with 400
/// `json: cannot unmarshal bool into Go struct field LabelSelector.spec.selector.matchLabels
/// of type string` (YAML 1.1 as kubectl's `sigs.k8s.io/yaml` reads it: `y`, `n`, `yes`, `no`,
/// `on`, `off` are booleans).
fn label_maps_decode(kind: WorkloadKind, spec: &Value) -> Result<(), WorkloadRefusal> {
    let (base, path) = match kind {
        WorkloadKind::CronJob => (
            spec.pointer("/jobTemplate/spec").unwrap_or(&Value::Null),
            "spec.jobTemplate.spec",
        ),
        _ => (spec, "spec"),
    };
    let maps = [
        (
            "/selector/matchLabels",
            "LabelSelector",
            "selector.matchLabels",
        ),
        (
            "/template/metadata/labels",
            "ObjectMeta",
            "template.metadata.labels",
        ),
    ];
    for (pointer, owner, field) in maps {
        let Some(Value::Object(m)) = base.pointer(pointer) else {
            continue;
        };
        if let Some(v) = m.values().find(|v| !v.is_string() && !v.is_null()) {
            let k = kind.as_str();
            return Err(WorkloadRefusal::Decode(format!(
                "{k} in version \"v1\" cannot be handled as a {k}: json: cannot unmarshal {} into Go struct field {owner}.{path}.{field} of type string",
                json_type(v)
            )));
        }
    }
    Ok(())
}

/// The selector checks of the apps/v1 controllers (`spec.selector: Required value`, an empty
/// selector, template labels the selector does not select), in upstream's order.
fn selector_errors(spec: &Value, path: &str, kind_word: &str, errs: &mut Vec<FieldError>) {
    let labels: Option<Labels> = spec
        .pointer("/template/metadata/labels")
        .and_then(|l| serde_json::from_value(l.clone()).ok());
    let selector: Option<LabelSelector> = spec
        .get("selector")
        .filter(|s| !s.is_null())
        .and_then(|s| serde_json::from_value(s.clone()).ok());
    let matches = match &selector {
        None => {
            errs.push(FieldError::required(format!("{path}.selector"), ""));
            false
        }
        Some(sel) => {
            if sel.is_empty() {
                errs.push(FieldError::invalid_json(
                    format!("{path}.selector"),
                    sel,
                    format!("empty selector is invalid for {kind_word}"),
                ));
            }
            sel.to_selector()
                .is_ok_and(|s| s.matches(labels.as_ref().unwrap_or(&Labels::default())))
        }
    };
    if !matches {
        errs.push(FieldError::invalid_json(
            format!("{path}.template.metadata.labels"),
            &labels,
            SELECTOR_MISMATCH,
        ));
    }
}

/// A pod template's `restartPolicy` (API-defaulted to `Always` when unset).
fn restart_policy(spec: &Value) -> &str {
    spec.pointer("/template/spec/restartPolicy")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or("Always")
}

/// The Job spec checks of `validateJobSpec` at `path`.
fn job_errors(
    kind: WorkloadKind,
    spec: &Value,
    path: &str,
    errs: &mut Vec<FieldError>,
) -> Result<(), WorkloadRefusal> {
    let ints = Ints { kind, spec, path };
    ints.nonnegative("parallelism", 32, errs)?;
    ints.nonnegative("completions", 32, errs)?;
    ints.nonnegative("activeDeadlineSeconds", 64, errs)?;
    ints.nonnegative("backoffLimit", 32, errs)?;
    ints.nonnegative("ttlSecondsAfterFinished", 32, errs)?;
    ints.nonnegative("backoffLimitPerIndex", 32, errs)?;
    ints.nonnegative("maxFailedIndexes", 32, errs)?;
    let policy = restart_policy(spec);
    if policy != "OnFailure" && policy != "Never" {
        // the stored template is API-defaulted first: an unset policy reads `Always`, and both
        // get the same text (batch validation `validateJobTemplateSpec`)
        errs.push(FieldError::required(
            format!("{path}.template.spec.restartPolicy"),
            "valid values: \"OnFailure\", \"Never\"",
        ));
    }
    Ok(())
}

/// The checks of the API server's decoding and validation of a controller object's spec
/// (`spec` of the document; for a CronJob the checks of its `jobTemplate.spec` too).
///
/// # Errors
/// [`WorkloadRefusal::Decode`] for an integer field that is no `int32`/`int64` (400),
/// [`WorkloadRefusal::Invalid`] with every field error in upstream's order (422).
pub fn check_workload_spec(kind: WorkloadKind, spec: &Value) -> Result<(), WorkloadRefusal> {
    label_maps_decode(kind, spec)?;
    let mut errs = Vec::new();
    let ints = Ints {
        kind,
        spec,
        path: "spec",
    };
    match kind {
        WorkloadKind::Pod => {}
        WorkloadKind::Deployment => {
            ints.nonnegative("replicas", 32, &mut errs)?;
            selector_errors(spec, "spec", "deployment", &mut errs);
            template_restart_always(spec, &mut errs);
            let min_ready = ints.nonnegative("minReadySeconds", 32, &mut errs)?;
            ints.nonnegative("revisionHistoryLimit", 32, &mut errs)?;
            if let Some(p) = ints.nonnegative("progressDeadlineSeconds", 32, &mut errs)?
                && p <= min_ready.unwrap_or(0)
            {
                errs.push(invalid_int(
                    "spec.progressDeadlineSeconds".to_owned(),
                    p,
                    "must be greater than minReadySeconds",
                ));
            }
        }
        WorkloadKind::ReplicaSet => {
            ints.nonnegative("replicas", 32, &mut errs)?;
            ints.nonnegative("minReadySeconds", 32, &mut errs)?;
            selector_errors(spec, "spec", "deployment", &mut errs);
            template_restart_always(spec, &mut errs);
        }
        WorkloadKind::StatefulSet => {
            ints.nonnegative("replicas", 32, &mut errs)?;
            ints.nonnegative("minReadySeconds", 32, &mut errs)?;
            selector_errors(spec, "spec", "statefulset", &mut errs);
            template_restart_always(spec, &mut errs);
        }
        WorkloadKind::DaemonSet => {
            selector_errors(spec, "spec", "daemonset", &mut errs);
            template_restart_always(spec, &mut errs);
            ints.nonnegative("minReadySeconds", 32, &mut errs)?;
            ints.nonnegative("revisionHistoryLimit", 32, &mut errs)?;
        }
        WorkloadKind::ReplicationController => {
            ints.nonnegative("replicas", 32, &mut errs)?;
            ints.nonnegative("minReadySeconds", 32, &mut errs)?;
            template_restart_always(spec, &mut errs);
        }
        WorkloadKind::Job => job_errors(kind, spec, "spec", &mut errs)?,
        WorkloadKind::CronJob => {
            ints.nonnegative("startingDeadlineSeconds", 64, &mut errs)?;
            ints.nonnegative("successfulJobsHistoryLimit", 32, &mut errs)?;
            ints.nonnegative("failedJobsHistoryLimit", 32, &mut errs)?;
            let job = spec.pointer("/jobTemplate/spec").unwrap_or(&Value::Null);
            job_errors(kind, job, "spec.jobTemplate.spec", &mut errs)?;
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(WorkloadRefusal::Invalid(errs))
    }
}

/// `ValidatePodTemplateSpecForReplicaSet`: the template of a long-running controller must
/// restart always (`Unsupported value: "Never": supported values: "Always"`).
fn template_restart_always(spec: &Value, errs: &mut Vec<FieldError>) {
    let policy = restart_policy(spec);
    if policy != "Always" {
        let mut e = FieldError::required(
            "spec.template.spec.restartPolicy",
            "supported values: \"Always\"",
        );
        e.kind = FieldErrorKind::NotSupported(format!("\"{policy}\""));
        errs.push(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::invalid_message;

    fn message(kind: WorkloadKind, yaml: &str) -> Option<String> {
        let spec: Value = serde_json::from_str(yaml).expect("json");
        match check_workload_spec(kind, &spec) {
            Ok(()) => None,
            Err(WorkloadRefusal::Decode(m)) => Some(m),
            Err(WorkloadRefusal::Invalid(errs)) => {
                invalid_message(qualified_kind(kind), "w", &errs)
            }
        }
    }

    /// G14: the server's exact 422 for negative replicas, not a clamp to 0.
    #[test]
    fn negative_replicas_are_invalid() {
        let ok = r#"{"replicas":-5,"selector":{"matchLabels":{"app":"n"}},"template":{"metadata":{"labels":{"app":"n"}}}}"#;
        assert_eq!(
            message(WorkloadKind::Deployment, ok).as_deref(),
            Some(
                "Deployment.apps \"w\" is invalid: spec.replicas: Invalid value: -5: must be greater than or equal to 0"
            )
        );
        for k in [WorkloadKind::ReplicaSet, WorkloadKind::StatefulSet] {
            let m = message(k, ok).expect("invalid");
            assert!(
                m.ends_with("spec.replicas: Invalid value: -5: must be greater than or equal to 0"),
                "{m}"
            );
        }
        let job =
            r#"{"parallelism":-1,"completions":-2,"template":{"spec":{"restartPolicy":"Never"}}}"#;
        assert_eq!(
            message(WorkloadKind::Job, job).as_deref(),
            Some(
                "Job.batch \"w\" is invalid: [spec.parallelism: Invalid value: -1: must be greater than or equal to 0, spec.completions: Invalid value: -2: must be greater than or equal to 0]"
            )
        );
        let cron = r#"{"jobTemplate":{"spec":{"parallelism":-3,"template":{"spec":{"restartPolicy":"OnFailure"}}}}}"#;
        assert_eq!(
            message(WorkloadKind::CronJob, cron).as_deref(),
            Some(
                "CronJob.batch \"w\" is invalid: spec.jobTemplate.spec.parallelism: Invalid value: -3: must be greater than or equal to 0"
            )
        );
    }

    proptest::proptest! {
        /// Every negative int32 in `replicas` (and a Job's `parallelism`/`completions`) is the
        /// server's 422 with its value; every other int32 passes; beyond int32 is the decoder's
        /// 400. Never a clamp.
        #[test]
        fn counters_are_checked_never_clamped(n in proptest::prelude::any::<i64>()) {
            let dep = format!(r#"{{"replicas":{n},"selector":{{"matchLabels":{{"a":"b"}}}},"template":{{"metadata":{{"labels":{{"a":"b"}}}}}}}}"#);
            let job = format!(r#"{{"parallelism":{n},"template":{{"spec":{{"restartPolicy":"Never"}}}}}}"#);
            for (kind, spec, field) in [
                (WorkloadKind::Deployment, dep, "spec.replicas"),
                (WorkloadKind::Job, job, "spec.parallelism"),
            ] {
                let got = message(kind, &spec);
                if n > i64::from(i32::MAX) || n < i64::from(i32::MIN) {
                    let m = got.unwrap_or_default();
                    proptest::prop_assert!(m.contains(&format!("cannot unmarshal number {n} into Go struct field")), "{}", m);
                } else if n < 0 {
                    let want = format!("{field}: Invalid value: {n}: must be greater than or equal to 0");
                    proptest::prop_assert!(got.as_deref().is_some_and(|m| m.ends_with(&want)), "{:?}", got);
                } else {
                    proptest::prop_assert_eq!(got, None);
                }
            }
        }
    }

    /// `app: n` is a boolean to kubectl's YAML reader: the server cannot decode the labels.
    #[test]
    fn boolean_label_values_are_a_decode_error() {
        let spec = r#"{"replicas":-5,"selector":{"matchLabels":{"app":false}},"template":{"metadata":{"labels":{"app":false}}}}"#;
        assert_eq!(
            message(WorkloadKind::Deployment, spec).as_deref(),
            Some(
                "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field LabelSelector.spec.selector.matchLabels of type string"
            )
        );
    }

    #[test]
    fn out_of_int32_is_a_decode_error() {
        let spec = r#"{"replicas":3000000000,"selector":{"matchLabels":{"app":"n"}},"template":{"metadata":{"labels":{"app":"n"}}}}"#;
        assert_eq!(
            message(WorkloadKind::Deployment, spec).as_deref(),
            Some(
                "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32"
            )
        );
    }

    #[test]
    fn selectors_and_restart_policies() {
        let none = r#"{"replicas":1,"template":{"metadata":{"labels":{"app":"broken"}}}}"#;
        assert_eq!(
            message(WorkloadKind::Deployment, none).as_deref(),
            Some(
                "Deployment.apps \"w\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"broken\"}: `selector` does not match template `labels`]"
            )
        );
        let job = r#"{"template":{"spec":{}}}"#;
        assert_eq!(
            message(WorkloadKind::Job, job).as_deref(),
            Some(
                "Job.batch \"w\" is invalid: spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""
            )
        );
        let dep = r#"{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"restartPolicy":"Never"}}}"#;
        assert_eq!(
            message(WorkloadKind::Deployment, dep).as_deref(),
            Some(
                "Deployment.apps \"w\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""
            )
        );
        let fine = r#"{"replicas":0,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b","c":"d"}}}}"#;
        assert_eq!(message(WorkloadKind::Deployment, fine), None);
    }
}
