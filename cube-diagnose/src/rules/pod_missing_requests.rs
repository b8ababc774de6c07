//! `pod-missing-requests`: containers without cpu/memory requests in a namespace without
//! LimitRange defaults.
//!
//! Policy for node agents: critical pods (priority class `system-node-critical` /
//! `system-cluster-critical` or priority at least 2000000000, static and mirror pods: the
//! kubelet's `IsCriticalPod` in kubernetes/kubernetes pkg/kubelet/types/pod_update.go, which
//! exempts them from eviction) are not reported: vendors ship them without requests (NVIDIA's
//! static device-plugin manifest, deployments/static/nvidia-device-plugin.yml). Other
//! DaemonSet pods get one `info` finding per DaemonSet: one pod runs on every selected node
//! whatever its requests, so the scheduler and quota points do not apply; only eviction order
//! does.

use std::collections::BTreeMap;

use crate::rules::{obj, pod_subject};
use crate::{Context, Evidence, Finding, Severity, Subject};

/// `SystemCriticalPriority` (kubernetes/kubernetes pkg/apis/scheduling/types.go).
const SYSTEM_CRITICAL_PRIORITY: i32 = 2_000_000_000;

/// True for the pods the kubelet treats as critical (`IsCriticalPod`): static pods
/// (`kubernetes.io/config.source` other than `api`), mirror pods (`kubernetes.io/config.mirror`,
/// or owned by their Node), and pods of the system-critical priority classes.
fn is_critical(p: &cube_model::objects::Pod) -> bool {
    let a = &p.metadata.annotations;
    a.contains_key("kubernetes.io/config.mirror")
        || a.get("kubernetes.io/config.source")
            .is_some_and(|s| s != "api")
        || p.metadata.owner_references.iter().any(|o| o.kind == "Node")
        || matches!(
            p.spec.priority_class_name.as_str(),
            "system-node-critical" | "system-cluster-critical"
        )
        || p.spec
            .priority
            .is_some_and(|v| v >= SYSTEM_CRITICAL_PRIORITY)
}

declare_rule!(
    PodMissingRequests,
    "pod-missing-requests",
    Quota,
    Warning,
    "Containers without cpu or memory requests (or set to 0), and without limits that API defaulting would copy into requests, in a namespace whose LimitRanges give no default: the pod is BestEffort/unaccounted, the scheduler packs it anywhere and quota cannot charge it. Pods whose requests the LimitRanger admission plugin filled in (annotation kubernetes.io/limit-ranger) are not reported.",
    each = check_each
);

/// Drops the `pod-missing-requests` findings of pods that another rule already reports at
/// warning or error (a Pending pod explained by `pod-unschedulable`, a pod rejected at
/// admission, evicted or refused by the kubelet): that finding carries the pod's cause and
/// remedy, and "set requests" beside it points elsewhere (one cause, one remedy per pod).
/// Pods with no other finding keep theirs. Run by the engine over all findings, after equal
/// findings are folded: a folded finding (more than `group_over` pods) is kept whole.
pub(crate) fn drop_explained(findings: &mut Vec<Finding>) {
    let explained: std::collections::BTreeSet<Subject> = findings
        .iter()
        .filter(|f| {
            f.rule_id != PodMissingRequests::ID
                && f.subject.kind == "Pod"
                && f.severity >= Severity::Warning
        })
        .map(|f| f.subject.clone())
        .collect();
    if explained.is_empty() {
        return;
    }
    findings.retain(|f| {
        f.rule_id != PodMissingRequests::ID || f.group.is_some() || !explained.contains(&f.subject)
    });
}

/// One finding per pod (or per DaemonSet), handed over as it is made: the engine folds the
/// equal ones of a namespace as they come (a million Pending pods of one Deployment are one
/// finding, never a million at once).
fn check_each(ctx: &Context<'_>, emit: &mut dyn FnMut(Finding)) {
    let snap = ctx.snapshot();
    // DaemonSet (namespace, name) -> (pods, missing entries of the first pod)
    let mut daemon_pods: BTreeMap<(String, String), (Vec<String>, Vec<String>)> = BTreeMap::new();
    for p in &snap.pods {
        if ctx.pod_finished(p) || is_critical(p) {
            continue;
        }
        let ns = &p.metadata.namespace;
        let lr_note = p
            .metadata
            .annotations
            .get("kubernetes.io/limit-ranger")
            .unwrap_or("");
        let defaulted = |res: &str| {
            lr_note.contains(&format!("{res} request"))
                || lr_note.contains(&format!("{res}, ")) && lr_note.contains("request")
                || snap.limit_ranges.iter().any(|lr| {
                    lr.metadata.namespace == *ns
                        && lr.spec.limits.iter().any(|it| {
                            (it.type_ == "Container" || it.type_.is_empty())
                                && (it.default_request.contains(res) || it.default.contains(res))
                        })
                })
        };
        let mut missing = Vec::new();
        for c in &p.spec.containers {
            for res in ["cpu", "memory"] {
                let has = c
                    .resources
                    .requests
                    .get(res)
                    .or_else(|| c.resources.limits.get(res))
                    .is_some_and(|q| !q.is_zero());
                if !has && !defaulted(res) {
                    missing.push(format!("{}: {res}", c.name));
                }
            }
        }
        if missing.is_empty() {
            continue;
        }
        // a manifest (never admitted: no uid, creation time or phase) with no LimitRange given
        // at all: a LimitRange of its namespace may default it at admission, which the input
        // cannot tell (K8); a pod the API server stored shows what admission left
        let stored = p.metadata.creation_timestamp.is_some()
            || !p.metadata.uid.is_empty()
            || !p.status.phase.is_empty()
            || !p.status.qos_class.is_empty()
            // another view of the same pod (a `kubectl get pods` row beside the manifest)
            || snap.pods.iter().any(|q| {
                !std::ptr::eq(q, p)
                    && q.metadata.name == p.metadata.name
                    && (q.metadata.namespace == *ns || q.metadata.namespace.is_empty())
                    && !q.status.phase.is_empty()
            });
        if !stored && lr_note.is_empty() && crate::rules::absence::not_given(ctx, "LimitRange") {
            continue;
        }
        if let Some(ds) = p
            .metadata
            .owner_references
            .iter()
            .find(|o| o.kind == "DaemonSet")
        {
            let e = daemon_pods
                .entry((ns.clone(), ds.name.clone()))
                .or_insert_with(|| (Vec::new(), missing.clone()));
            e.0.push(p.metadata.name.clone());
            continue;
        }
        let o = obj("Pod", ns, &p.metadata.name);
        if let Some(why) = crate::rules::unread(ctx, "LimitRange")
            && lr_note.is_empty()
        {
            emit(
                Finding::new(PodMissingRequests::ID, Severity::Info, pod_subject(p), format!("pod {}/{} has containers without requests ({}); whether a LimitRange default applies is unknown: LimitRanges could not be read ({why})", ns, p.metadata.name, missing.join(", ")))
                    .with_evidences(missing.iter().map(|m| Evidence::field(&o, "spec.containers[].resources.requests", format!("{m} <absent>"))))
                    .with_remedy(format!("grant list on limitranges (or run `kubectl -n {ns} get limitranges -o yaml`) and diagnose again")),
            );
            continue;
        }
        emit(
            Finding::new(PodMissingRequests::ID, Severity::Warning, pod_subject(p), format!("pod {}/{} has containers without requests ({}) and no LimitRange default applies{}", ns, p.metadata.name, missing.join(", "), if p.status.qos_class == "BestEffort" { "; QoS BestEffort (extended resources such as GPUs do not count for QoS)" } else { "" }))
                .with_evidence(Evidence::field(&o, "status.qosClass", if p.status.qos_class.is_empty() { "<absent>" } else { &p.status.qos_class }))
                .with_evidences(missing.iter().map(|m| Evidence::field(&o, "spec.containers[].resources.requests", format!("{m} <absent>"))))
                .with_remedy(format!("set resources.requests (cpu, memory) on the workload, or give namespace {ns} a LimitRange with defaultRequest: `kubectl -n {ns} apply -f - <<'EOF'\napiVersion: v1\nkind: LimitRange\nmetadata: {{name: defaults}}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {{cpu: 100m, memory: 128Mi}}\n    default: {{cpu: \"1\", memory: 1Gi}}\nEOF`")),
        );
    }
    for ((ns, ds), (pods, missing)) in daemon_pods {
        let containers: Vec<&str> = missing
            .iter()
            .filter_map(|m| m.split_once(": ").map(|(c, _)| c))
            .collect();
        let o = obj("DaemonSet", &ns, &ds);
        emit(
            Finding::new(
                PodMissingRequests::ID,
                Severity::Info,
                Subject::namespaced("DaemonSet", &ns, &ds),
                format!(
                    "DaemonSet {ns}/{ds}: its pod(s) ({}) have containers without requests ({}); a DaemonSet runs one pod on every node it selects whatever its requests, so this only makes the pods BestEffort (evicted and OOM-killed first under node pressure)",
                    pods.join(", "),
                    missing.join(", ")
                ),
            )
            .with_evidence(Evidence::field(
                &o,
                "spec.template.spec.containers[].resources.requests",
                format!("{} <absent>", missing.join(", ")),
            ))
            .with_remedy(format!(
                "if the agent matters under node pressure, give it requests or priorityClassName system-node-critical: `kubectl -n {ns} set resources daemonset {ds} -c {} --requests=cpu=50m,memory=64Mi`",
                containers.first().copied().unwrap_or("<container>")
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn a_pod_another_finding_explains_gets_no_missing_requests_finding() {
        // NVIDIA/k8s-device-plugin#22 shape: a BestEffort GPU pod Pending for `Insufficient
        // nvidia.com/gpu` (pod-unschedulable carries its cause), beside a pod no other
        // finding names (its missing requests stay reported)
        let text = "0/3 nodes are available: 1 PodToleratesNodeTaints, 3 Insufficient nvidia.com/gpu.\n\nName:           tf-notebook\nNamespace:      default\nNode:           <none>\nStatus:         Pending\nContainers:\n  tf-notebook:\n    Image:  tensorflow/tensorflow:1.4.1-gpu-py3\n    Limits:\n      nvidia.com/gpu:  1\n    Requests:\n      nvidia.com/gpu:  1\nConditions:\n  Type           Status\n  PodScheduled   False \nQoS Class:       BestEffort\n";
        let mut i = crate::Inputs::new();
        i.add("test", text);
        let ctx = crate::Context::new(&i.snapshot).with_logs(i.logs.clone());
        let report = crate::Engine::new().run(&ctx);
        let rules: Vec<(&str, String)> = report
            .findings
            .iter()
            .map(|f| (f.rule_id.as_str(), f.subject.to_string()))
            .collect();
        assert!(
            rules.iter().any(|(r, _)| *r == "pod-unschedulable"),
            "{rules:?}"
        );
        assert!(
            !rules.iter().any(|(r, _)| *r == "pod-missing-requests"),
            "{rules:?}"
        );
        // the same pod alone (no scheduler text): the rule fires
        let alone = text.split_once("\n\n").map(|(_, p)| p).unwrap_or(text);
        let f = run_rule("pod-missing-requests", alone);
        assert_eq!(f.len(), 1, "{f:#?}");
    }

    /// A finished pod holds nothing: a pod whose manifest (no status) is pasted with a `kubectl
    /// get pods` row `Completed` (NVIDIA's CUDA vectorAdd sample) gets no finding; the same
    /// manifest with a `Running` row does.
    #[test]
    fn a_finished_pod_is_not_judged() {
        let manifest = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: cuda-vectoradd\nspec:\n  restartPolicy: OnFailure\n  containers:\n  - name: cuda-vectoradd\n    image: nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda11.7.1-ubuntu20.04\n    resources:\n      limits:\n        nvidia.com/gpu: 1\n";
        let row = |status: &str| {
            format!(
                "NAME             READY   STATUS      RESTARTS   AGE\ncuda-vectoradd   0/1     {status}   0          41s\n"
            )
        };
        let run = |status: &str| {
            let mut i = crate::Inputs::new();
            i.add("pod.yaml", manifest);
            i.add("get.txt", &row(status));
            let ctx = crate::Context::new(&i.snapshot).with_logs(i.logs.clone());
            crate::Engine::new()
                .run(&ctx)
                .findings
                .into_iter()
                .filter(|f| f.rule_id == "pod-missing-requests")
                .count()
        };
        assert_eq!(run("Completed"), 0);
        assert_eq!(run("Error    "), 0);
        assert_eq!(run("Running  "), 1);
    }

    #[test]
    fn best_effort_pod() {
        let s = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"containers":[{"name":"c"}]},"status":{"qosClass":"BestEffort"}}"#;
        let f = run_rule("pod-missing-requests", s);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("c: cpu"));
    }

    #[test]
    fn node_agents() {
        let pod = |meta: &str, spec: &str| {
            format!(
                r#"{{"kind":"Pod","metadata":{{"name":"dp-x","namespace":"kube-system"{meta}}},"spec":{{"containers":[{{"name":"c"}}]{spec}}},"status":{{"qosClass":"BestEffort"}}}}"#
            )
        };
        let ds = r#","ownerReferences":[{"kind":"DaemonSet","name":"dp","apiVersion":"apps/v1","uid":"u"}]"#;
        // a DaemonSet pod: one info finding for the DaemonSet
        let f = run_rule("pod-missing-requests", &pod(ds, ""));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, crate::Severity::Info);
        assert_eq!(f[0].subject.kind, "DaemonSet");
        assert!(f[0].remedy.contains("set resources daemonset dp -c c"));
        // system-node-critical, mirror and static pods: nothing
        let critical = r#","priorityClassName":"system-node-critical""#;
        assert!(run_rule("pod-missing-requests", &pod(ds, critical)).is_empty());
        assert!(run_rule("pod-missing-requests", &pod("", critical)).is_empty());
        let mirror = r#","annotations":{"kubernetes.io/config.mirror":"abc"}"#;
        assert!(run_rule("pod-missing-requests", &pod(mirror, "")).is_empty());
        let node =
            r#","ownerReferences":[{"kind":"Node","name":"n1","apiVersion":"v1","uid":"u"}]"#;
        assert!(run_rule("pod-missing-requests", &pod(node, "")).is_empty());
        // a bare pod still warns
        let f = run_rule("pod-missing-requests", &pod("", ""));
        assert_eq!(f[0].severity, crate::Severity::Warning);
    }

    #[test]
    fn limitranger_defaulted_pod_is_fine() {
        let s = "Name:         nginx-pod2\nNamespace:    default\nNode:         node-03/10.0.0.13\nAnnotations:  kubernetes.io/limit-ranger=LimitRanger plugin set: cpu request for container nginx\nStatus:       Running\nContainers:\n  nginx:\n    Requests:\n      memory:  64Mi\n";
        assert!(run_rule("pod-missing-requests", s).is_empty());
    }
}
