//! `pod-missing-requests`: containers without cpu/memory requests in a namespace without
//! LimitRange defaults.

use crate::rules::{obj, pod_subject};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    PodMissingRequests,
    "pod-missing-requests",
    Quota,
    Warning,
    "Containers without cpu or memory requests (or set to 0), and without limits that API defaulting would copy into requests, in a namespace whose LimitRanges give no default: the pod is BestEffort/unaccounted, the scheduler packs it anywhere and quota cannot charge it. Pods whose requests the LimitRanger admission plugin filled in (annotation kubernetes.io/limit-ranger) are not reported.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    for (i, p) in snap.pods.iter().enumerate() {
        let _ = i;
        if p.is_terminal() {
            continue;
        }
        let ns = &p.metadata.namespace;
        let lr_note = p
            .metadata
            .annotations
            .get("kubernetes.io/limit-ranger")
            .map(String::as_str)
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
        let o = obj("Pod", ns, &p.metadata.name);
        if let Some(why) = crate::rules::unread(ctx, "LimitRange")
            && lr_note.is_empty()
        {
            out.push(
                Finding::new(PodMissingRequests::ID, Severity::Info, pod_subject(p), format!("pod {}/{} has containers without requests ({}); whether a LimitRange default applies is unknown: LimitRanges could not be read ({why})", ns, p.metadata.name, missing.join(", ")))
                    .with_evidences(missing.iter().map(|m| Evidence::field(&o, "spec.containers[].resources.requests", format!("{m} <absent>"))))
                    .with_remedy(format!("grant list on limitranges (or run `kubectl -n {ns} get limitranges -o yaml`) and diagnose again")),
            );
            continue;
        }
        out.push(
            Finding::new(PodMissingRequests::ID, Severity::Warning, pod_subject(p), format!("pod {}/{} has containers without requests ({}) and no LimitRange default applies{}", ns, p.metadata.name, missing.join(", "), if p.status.qos_class == "BestEffort" { "; QoS BestEffort (extended resources such as GPUs do not count for QoS)" } else { "" }))
                .with_evidence(Evidence::field(&o, "status.qosClass", if p.status.qos_class.is_empty() { "<absent>" } else { &p.status.qos_class }))
                .with_evidences(missing.iter().map(|m| Evidence::field(&o, "spec.containers[].resources.requests", format!("{m} <absent>"))))
                .with_remedy(format!("set resources.requests (cpu, memory) on the workload, or give namespace {ns} a LimitRange with defaultRequest: `kubectl -n {ns} apply -f - <<'EOF'\napiVersion: v1\nkind: LimitRange\nmetadata: {{name: defaults}}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {{cpu: 100m, memory: 128Mi}}\n    default: {{cpu: \"1\", memory: 1Gi}}\nEOF`")),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn best_effort_pod() {
        let s = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"containers":[{"name":"c"}]},"status":{"qosClass":"BestEffort"}}"#;
        let f = run_rule("pod-missing-requests", s);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("c: cpu"));
    }

    #[test]
    fn limitranger_defaulted_pod_is_fine() {
        let s = "Name:         nginx-pod2\nNamespace:    default\nNode:         node-03/10.0.0.13\nAnnotations:  kubernetes.io/limit-ranger=LimitRanger plugin set: cpu request for container nginx\nStatus:       Running\nContainers:\n  nginx:\n    Requests:\n      memory:  64Mi\n";
        assert!(run_rule("pod-missing-requests", s).is_empty());
    }
}
