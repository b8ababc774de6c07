//! `limitrange-gpu-default`: a namespace LimitRange that puts GPUs into every container (or
//! requires them of every pod).
//!
//! Upstream: kubernetes/kubernetes `pkg/apis/core/v1/defaults.go` `SetDefaults_LimitRangeItem`
//! (for a `type: Container` item the API server stores `default[r] := max[r]` when unset, then
//! `defaultRequest[r] := default[r]`, then `defaultRequest[r] := min[r]`), and
//! `plugin/pkg/admission/limitranger/admission.go` `defaultContainerResourceRequirements` /
//! `mergeContainerResources` (every container and init container of every new pod that does not
//! state a resource gets the default request and limit). So a LimitRange meant only to cap GPUs
//! (`max: {nvidia.com/gpu: 8}`) makes every container of the namespace, CPU-only ones, sidecars
//! and init containers included, request and limit 8 GPUs; a `min` does the same through
//! `defaultRequest` and also rejects containers that ask for fewer (`minimum ... usage per
//! Container is 2, but request is 1`). A `type: Pod` `min` of a GPU rejects every pod that asks
//! for none. cube-quota mirrors both steps (`limitrange::default_limit_range`,
//! `limitrange::default_container_requirements`); this rule reads the LimitRange through them.

use cube_model::objects::LimitRange;
use cube_model::{Quantity, ResourceList};

use crate::resources::is_gpu_resource;
use crate::rules::{obj, shell_word};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    LimitRangeGpuDefault,
    "limitrange-gpu-default",
    Quota,
    Warning,
    "A namespace LimitRange gives a GPU resource (nvidia.com/gpu, amd.com/gpu, gpu.intel.com/*, MIG and vGPU resources) a default request or limit for every container: set explicitly, or filled in by the API server from max/min (SetDefaults_LimitRangeItem: default := max, defaultRequest := default or min). LimitRanger then adds that many GPUs to every container and init container of every new pod of the namespace that does not state the resource, CPU-only containers and sidecars included, so pods need that many free GPUs per container on one node or never schedule; a min also rejects containers (or, for type Pod, pods) asking for fewer. Error when the default is what defaulting gives (absent from the object, or equal to max, or a defaultRequest equal to min), warning when it is an explicit different value or when the input shows a LimitRanger rejection of the same resource (limitrange-rejected carries that one). The remedy removes the GPU resource from the LimitRange's max, min, default and defaultRequest and caps GPUs with a ResourceQuota instead.",
    check
);

/// `(resource, default request, default limit)` of a defaulted Container item list.
type Defaults = Vec<(String, Option<Quantity>, Option<Quantity>)>;

/// The GPU defaults the LimitRange injects once stored (`default_limit_range` applied to a
/// copy: a manifest read before the API server defaulted it behaves the same once applied).
fn gpu_defaults(lr: &LimitRange) -> Defaults {
    let mut stored = lr.clone();
    cube_quota::limitrange::default_limit_range(&mut stored);
    let (req, lim) = cube_quota::limitrange::default_container_requirements(&stored);
    let mut names: Vec<String> = req
        .names()
        .chain(lim.names())
        .map(|n| n.as_str().to_owned())
        .filter(|n| is_gpu_resource(n))
        .collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|n| {
            let positive = |l: &ResourceList| l.get(&n).filter(|q| !q.is_zero()).cloned();
            (n.clone(), positive(&req), positive(&lim))
        })
        .filter(|(_, r, l)| r.is_some() || l.is_some())
        .collect()
}

/// Whether `lr` states a default (or defaultRequest) of `res` itself in a Container item.
fn states_default(lr: &LimitRange, res: &str) -> bool {
    lr.spec
        .limits
        .iter()
        .filter(|i| i.type_ == "Container")
        .any(|i| i.default.get(res).is_some() || i.default_request.get(res).is_some())
}

/// The bound of `res` in the Container items (`max`/`min`), for the message.
fn bound(lr: &LimitRange, res: &str, type_: &str, min: bool) -> Option<Quantity> {
    lr.spec
        .limits
        .iter()
        .filter(|i| i.type_ == type_)
        .filter_map(|i| if min { i.min.get(res) } else { i.max.get(res) })
        .next_back()
        .cloned()
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    for lr in &snap.limit_ranges {
        let ns = lr.metadata.namespace.as_str();
        let name = lr.metadata.name.as_str();
        let here = obj("LimitRange", ns, name);
        let in_ns = if ns.is_empty() {
            "its namespace".to_owned()
        } else {
            format!("namespace {ns}")
        };
        let defaults = gpu_defaults(lr);
        // a type Pod min of a GPU: every pod must ask for at least that many
        let pod_mins: Vec<(String, Quantity)> = lr
            .spec
            .limits
            .iter()
            .filter(|i| i.type_ == "Pod")
            .flat_map(|i| i.min.iter())
            .filter(|(n, q)| is_gpu_resource(n.as_str()) && !q.is_zero())
            .map(|(n, q)| (n.as_str().to_owned(), q.clone()))
            .collect();
        if defaults.is_empty() && pod_mins.is_empty() {
            continue;
        }
        let mut parts: Vec<String> = Vec::new();
        let mut implicit = false;
        let mut evidence: Vec<Evidence> = Vec::new();
        let mut resources: Vec<String> = Vec::new();
        for (res, req, lim) in &defaults {
            resources.push(res.clone());
            let max = bound(lr, res, "Container", false);
            let min = bound(lr, res, "Container", true);
            // explicit: the object states a default of its own. A stored object always holds
            // one (the API server filled it in), and the loader drops the last-applied copy
            // that would tell: a default equal to max (or a defaultRequest equal to min, with
            // no default) is the value defaulting gives, and is read as filled in
            let equals = |a: &Option<Quantity>, b: &Option<Quantity>| {
                a.as_ref().zip(b.as_ref()).is_some_and(|(a, b)| a == b)
            };
            let explicit = states_default(lr, res)
                && !(equals(lim, &max) || (lim.is_none() && equals(req, &min)));
            implicit |= !explicit;
            let mut s = format!(
                "every container that does not set {res} gets {}{}",
                req.as_ref()
                    .map(|q| format!("a request of {q}"))
                    .unwrap_or_default(),
                match (req, lim) {
                    (Some(_), Some(l)) => format!(" and a limit of {l}"),
                    (None, Some(l)) => format!("a limit of {l}"),
                    _ => String::new(),
                }
            );
            if !explicit {
                s.push_str(&format!(
                    " (the value the API server fills default/defaultRequest in with from {} when the LimitRange as applied sets none, SetDefaults_LimitRangeItem)",
                    match (&max, &min) {
                        (Some(m), _) => format!("max {m}"),
                        (None, Some(m)) => format!("min {m}"),
                        _ => "max/min".to_owned(),
                    }
                ));
            }
            if let Some(m) = &min {
                s.push_str(&format!(
                    "; min {m} also rejects every container that asks for fewer"
                ));
            }
            parts.push(s);
            evidence.push(Evidence::field(
                &here,
                "spec.limits[type=Container]",
                format!(
                    "{res}: defaultRequest {}, default {}{}{}",
                    req.as_ref().map_or("-".to_owned(), ToString::to_string),
                    lim.as_ref().map_or("-".to_owned(), ToString::to_string),
                    max.as_ref()
                        .map(|m| format!(", max {m}"))
                        .unwrap_or_default(),
                    min.as_ref()
                        .map(|m| format!(", min {m}"))
                        .unwrap_or_default()
                ),
            ));
        }
        for (res, q) in &pod_mins {
            if !resources.contains(res) {
                resources.push(res.clone());
            }
            implicit = true;
            parts.push(format!(
                "its type Pod min {q} {res} rejects every pod that asks for fewer, CPU-only pods included"
            ));
            evidence.push(Evidence::field(
                &here,
                "spec.limits[type=Pod].min",
                format!("{res}: {q}"),
            ));
        }
        // pods of the input the LimitRanger already filled with a GPU
        let filled = snap
            .pods
            .iter()
            .filter(|p| p.metadata.namespace == ns)
            .filter(|p| {
                p.metadata
                    .annotations
                    .get(cube_quota::limitrange::LIMIT_RANGER_ANNOTATION)
                    .is_some_and(|a| resources.iter().any(|r| a.contains(r.as_str())))
            })
            .count();
        let filled_text = if filled > 0 {
            format!(
                "; {filled} pod(s) of the input already had it filled in (annotation kubernetes.io/limit-ranger)"
            )
        } else {
            String::new()
        };
        let message = format!(
            "LimitRange {name} puts GPUs into every pod of {in_ns}: {}. LimitRanger adds the default to each container and init container of every new pod, CPU-only notebooks, sidecars and helpers included, so each pod needs that many free GPUs per container on one node (or is rejected){filled_text}",
            parts.join("; ")
        );
        let kubectl_ns = if ns.is_empty() {
            "-n <namespace>".to_owned()
        } else {
            format!("-n {}", shell_word(ns))
        };
        let remedy = format!(
            "remove {} from every item of the LimitRange (max, min, default and defaultRequest: the stored object holds the defaulted values, so removing max alone keeps the default): `kubectl {kubectl_ns} edit limitrange {}`; cap GPUs per namespace with a ResourceQuota instead (`kubectl {kubectl_ns} create quota gpu-quota --hard=requests.{}=<n>`) and let GPU workloads set their own limits",
            resources.join(", "),
            shell_word(name),
            resources.first().map_or("nvidia.com/gpu", String::as_str),
        );
        // a LimitRanger rejection of the input about the same resource is the finding of
        // `limitrange-rejected` (the workload's own request); this one is the LimitRange's
        // other effect then, and says so at warning level (one cause, one error)
        let rejected = ctx.signals().iter().any(|s| {
            s.detail("entry").starts_with("limitrange.")
                && resources.iter().any(|r| s.text.contains(r.as_str()))
        });
        let message = if rejected {
            format!(
                "{message}. The rejection of the input is reported by limitrange-rejected; this is the LimitRange's effect on every other pod of the namespace"
            )
        } else {
            message
        };
        let severity = if implicit && !rejected {
            Severity::Error
        } else {
            Severity::Warning
        };
        out.push(
            Finding::new(
                LimitRangeGpuDefault::ID,
                severity,
                Subject::namespaced("LimitRange", ns, name),
                message,
            )
            .with_evidences(evidence)
            .with_remedy(remedy),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_rule;

    #[test]
    fn a_gpu_max_alone_becomes_every_container_s_default() {
        // a manifest as applied: only max (canonical/bundle-kubeflow#599 before defaulting)
        let lr = r#"{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr","namespace":"team"},
          "spec":{"limits":[{"type":"Container","max":{"nvidia.com/gpu":"8"},"min":{"nvidia.com/gpu":"2"},
          "default":{"cpu":"1"}}]}}"#;
        let f = run_rule("limitrange-gpu-default", lr);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message.contains("a request of 8 and a limit of 8"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("from max 8"), "{}", f[0].message);
        assert!(f[0].message.contains("min 2"), "{}", f[0].message);
        assert!(
            f[0].remedy.contains("kubectl -n team edit limitrange lr"),
            "{}",
            f[0].remedy
        );
    }

    #[test]
    fn an_explicit_default_is_a_warning_and_other_resources_are_quiet() {
        let lr = r#"{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr","namespace":"team"},
          "spec":{"limits":[{"type":"Container","default":{"amd.com/gpu":"1"},"defaultRequest":{"amd.com/gpu":"1"}}]}}"#;
        let f = run_rule("limitrange-gpu-default", lr);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        // CPU/memory defaults, a Pod max of GPUs, a PVC max: nothing is put into containers
        let quiet = r#"{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr","namespace":"team"},
          "spec":{"limits":[{"type":"Container","max":{"cpu":"2"},"default":{"memory":"1Gi"}},
          {"type":"Pod","max":{"nvidia.com/gpu":"4"}},{"type":"PersistentVolumeClaim","max":{"storage":"50Gi"}}]}}"#;
        assert!(run_rule("limitrange-gpu-default", quiet).is_empty());
    }

    #[test]
    fn a_stored_default_equal_to_max_is_read_as_filled_in() {
        // the stored object as `kubectl get -o json` shows it (canonical/bundle-kubeflow#599):
        // default and defaultRequest equal to max, as the API server filled them in
        let lr = r#"{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr","namespace":"team"},
          "spec":{"limits":[{"type":"Container","max":{"nvidia.com/gpu":"8"},"default":{"cpu":"1","nvidia.com/gpu":"8"},"defaultRequest":{"cpu":"1","nvidia.com/gpu":"8"}}]}}"#;
        let f = run_rule("limitrange-gpu-default", lr);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(f[0].message.contains("from max 8"), "{}", f[0].message);
    }

    #[test]
    fn a_pod_min_of_gpus_rejects_cpu_only_pods() {
        let lr = r#"{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr","namespace":"team"},
          "spec":{"limits":[{"type":"Pod","min":{"nvidia.com/gpu":"1"}}]}}"#;
        let f = run_rule("limitrange-gpu-default", lr);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("CPU-only pods"), "{}", f[0].message);
    }
}
