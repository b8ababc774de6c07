//! `pod-extended-resource-invalid`: a container asks for an extended resource (`nvidia.com/gpu`,
//! `amd.com/gpu`, `gpu.intel.com/i915`, any `<domain>/<name>` outside `kubernetes.io`, and
//! hugepages) in a way the API server refuses as invalid, so no pod is ever created.
//!
//! Upstream: kubernetes/kubernetes `pkg/apis/core/validation/validation.go`
//! (`ValidateResourceRequirements` / `ValidateContainerResourceRequirements`; v1.2-v1.8 in
//! `pkg/api/validation`) with `pkg/apis/core/helper` `IsOvercommitAllowed` (native resources
//! only, hugepages excluded) and `IsIntegerResourceName` (extended resources are integers):
//! - a request different from the limit of a resource that may not be overcommitted:
//!   `spec.containers[0].resources.requests: Invalid value: "1": must be equal to
//!   nvidia.com/gpu limit` (v1.8-v1.2x; `... limit of 2` appended in newer releases; v1.6-v1.7
//!   said it of `alpha.kubernetes.io/nvidia-gpu` only);
//! - a request without a limit: `spec.containers[0].resources.limits: Required value: Limit
//!   must be set for non overcommitable resources`;
//! - a fractional quantity: `spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid
//!   value: "500m": must be an integer`.
//!
//! A missing request is not an error: API defaulting (`SetDefaults_Pod`) copies the limit into
//! it, which is why NVIDIA documents GPUs under `limits` only. The same validation runs on a
//! workload's pod template when the workload is applied (`The Deployment "x" is invalid:
//! spec.template.spec.containers[0]...`); a controller's `FailedCreate` event with the text
//! means admission changed the pod after the template was accepted (a LimitRange `default`
//! or `defaultRequest` for the resource, or a mutating webhook).

use std::collections::BTreeSet;

use cube_model::objects::{ObjectMeta, PodSpec};

use crate::classify::{Signal, SignalKind};
use crate::rules::{obj, shell_word, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    PodExtendedResourceInvalid,
    "pod-extended-resource-invalid",
    Quota,
    Error,
    "A container asks for an extended resource (nvidia.com/gpu, amd.com/gpu, gpu.intel.com/*, any `<domain>/<name>` outside kubernetes.io, and hugepages) in a way the API server refuses as invalid (pkg/apis/core/validation ValidateResourceRequirements): a request different from its limit ('must be equal to nvidia.com/gpu limit [of 2]': extended resources cannot be overcommitted), a request without a limit ('Limit must be set for non overcommitable resources'), or a fractional quantity ('must be an integer'). Read from Pod and workload manifests (after API defaulting, which copies a limit into a missing request) and from the API server's and controllers' messages (`is invalid`, FailedCreate events). No pod is created until the container's resources change. The finding names the object, the container and the resource.",
    check
);

/// The kinds of extended-resource errors, by the detail text the API server prints.
fn is_extended_error(detail: &str, field: &str) -> bool {
    detail.starts_with("must be equal to ")
        || detail == "Limit must be set for non overcommitable resources"
        || (detail == "must be an integer" && field.contains('/'))
}

/// One container whose resources the API server refuses.
struct Refusal {
    /// `spec.containers[0]` or `spec.template.spec.containers[0]`.
    path: String,
    /// The container's name.
    container: String,
    /// The API server's field errors, rendered.
    errors: Vec<String>,
    /// `(resource, request, limit)` of each refused resource (`-` when unset).
    resources: Vec<(String, String, String)>,
}

/// The refusals of a pod spec's containers (after API defaulting); `prefix` is `spec` for a
/// pod and `spec.template.spec` for a workload.
fn refusals(spec: &PodSpec, prefix: &str) -> Vec<Refusal> {
    let mut spec = spec.clone();
    cube_quota::requests::default_requests_from_limits(&mut spec);
    let mut out = Vec::new();
    let lists = [
        ("containers", &spec.containers),
        ("initContainers", &spec.init_containers),
    ];
    for (list, containers) in lists {
        for (i, c) in containers.iter().enumerate() {
            let path = format!("{prefix}.{list}[{i}]");
            let errs: Vec<_> = cube_quota::validation::validate_container_resources(
                c,
                &format!("{path}.resources"),
            )
            .into_iter()
            .filter(|e| is_extended_error(&e.detail, &e.field))
            .collect();
            if errs.is_empty() {
                continue;
            }
            let mut names: BTreeSet<String> = BTreeSet::new();
            for e in &errs {
                if let Some(n) = e
                    .detail
                    .strip_prefix("must be equal to ")
                    .and_then(|r| r.split(" limit").next())
                {
                    names.insert(n.to_owned());
                } else if let Some((_, n)) = e.field.rsplit_once('[') {
                    names.insert(n.trim_end_matches(']').to_owned());
                }
            }
            if errs
                .iter()
                .any(|e| e.detail.starts_with("Limit must be set"))
            {
                for (n, _) in &c.resources.requests {
                    if !cube_quota::validation::is_overcommit_allowed(n.as_str())
                        && !c.resources.limits.contains(n.as_str())
                    {
                        names.insert(n.as_str().to_owned());
                    }
                }
            }
            let show = |l: &cube_model::ResourceList, n: &str| {
                l.get(n).map_or_else(|| "-".to_owned(), ToString::to_string)
            };
            out.push(Refusal {
                path,
                container: c.name.clone(),
                errors: errs.iter().map(ToString::to_string).collect(),
                resources: names
                    .iter()
                    .map(|n| {
                        (
                            n.clone(),
                            show(&c.resources.requests, n),
                            show(&c.resources.limits, n),
                        )
                    })
                    .collect(),
            });
        }
    }
    out
}

/// The change that makes a container's resource valid.
fn fix_of(resource: &str, request: &str, limit: &str) -> String {
    let whole = |q: &str| {
        q.parse::<cube_model::Quantity>()
            .ok()
            .is_some_and(|v| v.milli_value() % 1000 == 0)
    };
    if (request != "-" && !whole(request)) || (limit != "-" && !whole(limit)) {
        return format!(
            "give {resource} a whole number (a device is not divided by a fractional quantity; sharing is the device plugin's time-slicing / MIG / MPS, or HAMi's resources)"
        );
    }
    match (request, limit) {
        (r, "-") => format!(
            "set limits.{resource}: {r} (or move the request to limits: the API server copies a limit into a missing request)"
        ),
        (_, l) => format!(
            "set requests.{resource} equal to limits.{resource} ({l}), or drop the request and keep only limits.{resource}"
        ),
    }
}

fn object_finding(kind: &str, meta: &ObjectMeta, prefix: &str, spec: &PodSpec) -> Option<Finding> {
    let found = refusals(spec, prefix);
    if found.is_empty() {
        return None;
    }
    let o = obj(kind, &meta.namespace, &meta.name);
    let what: Vec<String> = found
        .iter()
        .map(|r| {
            format!(
                "container {} ({}) {}",
                if r.container.is_empty() {
                    "<unnamed>"
                } else {
                    r.container.as_str()
                },
                r.path,
                r.resources
                    .iter()
                    .map(|(n, q, l)| format!("{n} request {q}, limit {l}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })
        .collect();
    let consequence = if kind == "Pod" {
        "the API server refuses to create the pod".to_owned()
    } else {
        format!(
            "the API server refuses the {kind} itself (its pod template is validated as a pod), so it creates no pod"
        )
    };
    let errors: Vec<String> = found
        .iter()
        .flat_map(|r| r.errors.iter().cloned())
        .collect();
    let text = cube_quota::limitrange::aggregate(&errors)
        .map(|m| format!("{kind} \"{}\" is invalid: {m}", meta.name))
        .unwrap_or_default();
    let mut fixes: Vec<String> = Vec::new();
    for r in &found {
        for (n, q, l) in &r.resources {
            let f = format!(
                "in container {}: {}",
                if r.container.is_empty() {
                    r.path.as_str()
                } else {
                    r.container.as_str()
                },
                fix_of(n, q, l)
            );
            if !fixes.contains(&f) {
                fixes.push(f);
            }
        }
    }
    let subject = Subject::namespaced(kind, &meta.namespace, &meta.name);
    let mut f = Finding::new(
        PodExtendedResourceInvalid::ID,
        Severity::Error,
        subject,
        format!(
            "{} asks for an extended resource the API server refuses as invalid: {}: an extended resource cannot be overcommitted (its request must equal its limit) and is counted in whole devices, so {consequence} (`{text}`)",
            o,
            what.join("; ")
        ),
    )
    .with_remedy(format!("{}; then apply it again", fixes.join("; ")));
    for r in &found {
        for (n, q, l) in &r.resources {
            f = f.with_evidence(Evidence::field(
                &o,
                format!("{}.resources", r.path),
                format!("requests.{n}: {q}, limits.{n}: {l}"),
            ));
        }
    }
    Some(f)
}

/// `<Kind> "<name>" is invalid` of a message: the kind and name (a generateName prefix ends
/// with `-`).
fn invalid_object(text: &str) -> Option<(String, String)> {
    let at = text.find("\" is invalid")?;
    // a message quoted inside JSON escapes its quotes (`\"name\" is invalid`)
    let before = text[..at].trim_end_matches('\\');
    let open = before.rfind('"')?;
    let name = before[open + 1..].to_owned();
    let kind = before[..open]
        .trim_end_matches('\\')
        .split_whitespace()
        .next_back()
        .unwrap_or("");
    let kind = kind.rsplit(['"', ':']).next().unwrap_or(kind).to_owned();
    (!name.is_empty()).then_some((kind, name))
}

/// `containers[<i>]` / `initContainers[<i>]` of a field path in a message.
fn container_path(text: &str) -> Option<String> {
    for key in ["initContainers[", "containers["] {
        if let Some(p) = text.find(key) {
            let rest = &text[p..];
            let end = rest.find(']')?;
            return Some(rest[..=end].to_owned());
        }
    }
    None
}

/// The subject of a message signal: the workload that owns the refused pod when the input has
/// it (the pod is named `<workload>-<suffix>` or the generateName `<workload>-`), the object
/// the message names, else the line's own subject.
fn message_subject(ctx: &Context<'_>, s: &Signal) -> Subject {
    let own = signal_subject(s);
    let Some((kind, name)) = invalid_object(&s.text) else {
        return own;
    };
    if kind == "Pod" || kind.is_empty() {
        let snap = ctx.snapshot();
        let owner = snap
            .workloads
            .iter()
            .map(|w| (w.kind.as_str(), &w.metadata))
            .chain(snap.daemon_sets.iter().map(|d| ("DaemonSet", &d.metadata)))
            .filter(|(_, m)| {
                !m.name.is_empty()
                    && name.len() > m.name.len()
                    && name.starts_with(m.name.as_str())
                    && name[m.name.len()..].starts_with('-')
            })
            .max_by_key(|(_, m)| m.name.len());
        if let Some((k, m)) = owner {
            return Subject::namespaced(k, &m.namespace, &m.name);
        }
        if own.kind != "Log" {
            return own;
        }
        if let Some(prefix) = name.strip_suffix('-') {
            // a controller's generateName prefix: the ReplicaSet (or Job, DaemonSet) named so
            return Subject::namespaced("ReplicaSet", &own.namespace, prefix);
        }
        return Subject::namespaced("Pod", &own.namespace, &name);
    }
    let kind = kind.split('.').next().unwrap_or(&kind).to_owned();
    Subject::namespaced(&kind, &own.namespace, &name)
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    for p in &snap.pods {
        out.extend(object_finding("Pod", &p.metadata, "spec", &p.spec));
    }
    for w in &snap.workloads {
        out.extend(object_finding(
            &w.kind,
            &w.metadata,
            "spec.template.spec",
            &w.spec.template.spec,
        ));
    }
    for d in &snap.daemon_sets {
        out.extend(object_finding(
            "DaemonSet",
            &d.metadata,
            "spec.template.spec",
            &d.spec.template.spec,
        ));
    }
    let mut said: BTreeSet<Subject> = out.iter().map(|f| f.subject.clone()).collect();
    for s in signals(ctx, &[SignalKind::Known]) {
        let entry = s.detail("entry");
        if !entry.starts_with("validation.extended-") {
            continue;
        }
        let subject = message_subject(ctx, s);
        if !said.insert(subject.clone()) {
            if let Some(f) = out.iter_mut().find(|f| f.subject == subject)
                && f.evidence.len() < 4
            {
                f.evidence.push(s.evidence());
            }
            continue;
        }
        let Some(e) = crate::catalog::entry(entry) else {
            continue;
        };
        let (cause, remedy) = e.cause_and_remedy(s);
        let container = container_path(&s.text)
            .map(|c| format!(" in {c}"))
            .unwrap_or_default();
        let created = s.text.contains("Error creating") || s.text.contains("FailedCreate");
        let ns = if subject.namespace.is_empty() {
            "-A".to_owned()
        } else {
            format!("-n {}", shell_word(&subject.namespace))
        };
        let admission = if created {
            let resource = s.detail("resource");
            let named: Vec<String> = ctx
                .snapshot()
                .limit_ranges
                .iter()
                .filter(|lr| {
                    subject.namespace.is_empty() || lr.metadata.namespace == subject.namespace
                })
                .filter(|lr| {
                    let mut stored = (*lr).clone();
                    cube_quota::limitrange::default_limit_range(&mut stored);
                    !resource.is_empty()
                        && stored.spec.limits.iter().any(|it| {
                            it.type_ == "Container"
                                && (it.default.get(resource).is_some()
                                    || it.default_request.get(resource).is_some())
                        })
                })
                .map(|lr| obj("LimitRange", &lr.metadata.namespace, &lr.metadata.name))
                .collect();
            if named.is_empty() {
                format!(
                    "; the workload's template was accepted, so admission changed the pod after it (a LimitRange default or defaultRequest for the resource, whose name the message does not give, or a mutating webhook): `kubectl get limitrange {ns} -o yaml` shows the defaults"
                )
            } else {
                format!(
                    "; admission changed the pod after its template was accepted: {} gives {resource} a default request or limit that differs from the container's own",
                    named.join(", ")
                )
            }
        } else {
            String::new()
        };
        out.push(
            Finding::new(
                PodExtendedResourceInvalid::ID,
                Severity::Error,
                subject,
                format!("the API server refuses the pod as invalid{container}: {cause}; no pod is created until the container's resources change{admission}"),
            )
            .with_evidence(s.evidence())
            .with_remedy(remedy),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_log, run_rule};

    const DEPLOY: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: serving\n  namespace: ml\nspec:\n  template:\n    spec:\n      containers:\n      - name: server\n        image: x\n        resources:\n          requests:\n            cpu: '1'\n            nvidia.com/gpu: 1\n          limits:\n            cpu: '2'\n            nvidia.com/gpu: 2\n";

    #[test]
    fn a_manifest_with_request_below_limit_is_refused() {
        let f = run_rule("pod-extended-resource-invalid", DEPLOY);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.kind, "Deployment");
        assert!(
            f[0].message.contains("container server"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message
                .contains("must be equal to nvidia.com/gpu limit of 2"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy
                .contains("requests.nvidia.com/gpu equal to limits")
        );
        // cpu request below its limit is fine, GPUs only under limits are fine
        let ok = DEPLOY.replace("            nvidia.com/gpu: 1\n", "");
        assert!(run_rule("pod-extended-resource-invalid", &ok).is_empty());
        // request without a limit, fractional GPU
        let f = run_rule(
            "pod-extended-resource-invalid",
            &DEPLOY.replace("            nvidia.com/gpu: 2\n", ""),
        );
        assert!(f[0].message.contains("Limit must be set"), "{f:#?}");
        let f = run_rule(
            "pod-extended-resource-invalid",
            &DEPLOY
                .replace("nvidia.com/gpu: 1", "nvidia.com/gpu: 0.5")
                .replace("nvidia.com/gpu: 2", "nvidia.com/gpu: 0.5"),
        );
        assert!(f[0].message.contains("must be an integer"), "{f:#?}");
        assert!(f[0].remedy.contains("whole number"), "{f:#?}");
    }

    #[test]
    fn every_wording_of_the_message_is_read() {
        for line in [
            "Warning  FailedCreate  2m (x16 over 5m)  replicaset-controller  Error creating: Pod \"serving-6b8f7c9d5-\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2",
            "The Deployment \"serving\" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit",
            "The Pod \"cuda\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to alpha.kubernetes.io/nvidia-gpu limit",
            "The Pod \"cuda\" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources",
            "The Pod \"cuda\" is invalid: spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer",
        ] {
            let f = run_log("pod-extended-resource-invalid", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert_eq!(f[0].severity, Severity::Error);
            assert!(f[0].message.contains("containers[0]"), "{}", f[0].message);
        }
        let f = run_log(
            "pod-extended-resource-invalid",
            "Warning  FailedCreate  2m  replicaset-controller  Error creating: Pod \"serving-6b8f7c9d5-\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2",
        );
        assert_eq!(f[0].subject.name, "serving-6b8f7c9d5", "{f:#?}");
        assert!(f[0].message.contains("LimitRange"), "{}", f[0].message);
        // a cpu request above its limit is another rule's (limitrange-rejected)
        assert!(
            run_log(
                "pod-extended-resource-invalid",
                "The Pod \"p\" is invalid: spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
            )
            .is_empty()
        );
    }
}
