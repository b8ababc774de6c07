//! `quota-without-limitrange`: a compute quota exists and no LimitRange gives defaults, so pods
//! without requests/limits are rejected.

use crate::classify::SignalKind;
use crate::rules::{obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    QuotaWithoutLimitRange,
    "quota-without-limitrange",
    Quota,
    Error,
    "A ResourceQuota on cpu/memory (requests.* or limits.*) makes admission reject every pod that does not state that value ('failed quota: must specify ...'); without a LimitRange giving defaultRequest (for requests.*) and default (for limits.*) for the same resource, workloads without resources fail forever. This is the quota working (failing closed), not a quota that is not enforced. Error when FailedCreate events prove rejections, warning when a pod or workload template of the namespace lacks a required value or the namespace's pods are not shown in full, info (a hint) when every container shown states them.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    let must: Vec<_> = signals(ctx, &[SignalKind::QuotaMustSpecify]).collect();
    let lr_unread = crate::rules::unread(ctx, "LimitRange");
    for q in &snap.resource_quotas {
        let ns = &q.metadata.namespace;
        let mut uncovered = Vec::new();
        for k in q.spec.hard.names() {
            let (kind, res) = match k.as_str() {
                "cpu" | "requests.cpu" => ("request", "cpu"),
                "memory" | "requests.memory" => ("request", "memory"),
                "limits.cpu" => ("limit", "cpu"),
                "limits.memory" => ("limit", "memory"),
                _ => continue,
            };
            let covered = snap
                .limit_ranges
                .iter()
                .filter(|lr| lr.metadata.namespace == *ns)
                .any(|lr| {
                    lr.spec.limits.iter().any(|it| {
                        (it.type_ == "Container" || it.type_.is_empty())
                            && if kind == "request" {
                                it.default_request.contains(res) || it.default.contains(res)
                            } else {
                                it.default.contains(res)
                            }
                    })
                });
            if !covered {
                uncovered.push((k.as_str(), kind, res));
            }
        }
        if uncovered.is_empty() {
            continue;
        }
        let proof: Vec<_> = must
            .iter()
            .filter(|s| {
                s.detail("quota") == q.metadata.name
                    && s.object.as_ref().is_none_or(|o| o.namespace == *ns)
            })
            .collect();
        let o = obj("ResourceQuota", ns, &q.metadata.name);
        let has_lr = snap
            .limit_ranges
            .iter()
            .any(|lr| lr.metadata.namespace == *ns);
        let keys: Vec<&str> = uncovered.iter().map(|(k, _, _)| *k).collect();
        if let (Some(why), false) = (lr_unread, has_lr) {
            // no LimitRange was read because none could be: say so, conclude nothing
            out.push(
                Finding::new(QuotaWithoutLimitRange::ID, Severity::Info, Subject::namespaced("ResourceQuota", ns, &q.metadata.name), format!("quota {ns}/{} requires every pod to state {}; whether a LimitRange defaults it is unknown: LimitRanges could not be read ({why})", q.metadata.name, keys.join(", ")))
                    .with_evidences(keys.iter().map(|k| Evidence::field(&o, format!("spec.hard.{k}"), q.spec.hard.get(k).map(ToString::to_string).unwrap_or_default())))
                    .with_evidence(Evidence::field("LimitRange", "list", format!("could not be read: {why}")))
                    .with_remedy(format!("grant list on limitranges (or run `kubectl -n {ns} get limitranges -o yaml`) and diagnose again")),
            );
            continue;
        }
        // no LimitRange given at all (a quota pasted alone): its absence proves nothing, and
        // only rejections in the input (FailedCreate `must specify`) conclude (K8)
        if !has_lr && proof.is_empty() && crate::rules::absence::not_given(ctx, "LimitRange") {
            continue;
        }
        // Without rejections in the input: a warning when some pod or workload template of the
        // namespace lacks a required value (or the namespace's pods are not shown in full), a
        // hint (info) when every container shown states them: nothing is being rejected
        // (fresh-user G20: a healthy namespace got a warning).
        let states = |spec: &cube_model::objects::PodSpec| {
            spec.containers.iter().all(|c| {
                uncovered.iter().all(|(_, kind, res)| {
                    c.resources.limits.contains(res)
                        || (*kind == "request" && c.resources.requests.contains(res))
                })
            })
        };
        let pods: Vec<_> = ctx
            .pods_in_namespace(ns)
            .iter()
            .map(|&i| &snap.pods[i])
            .collect();
        let pods_full = !pods.is_empty()
            && pods
                .iter()
                .all(|p| !cube_model::describe::is_unknown(&p.metadata, "requests"));
        let lacking = pods.iter().any(|p| pods_full && !states(&p.spec))
            || snap
                .workloads
                .iter()
                .filter(|w| w.metadata.namespace == *ns)
                .any(|w| !states(&w.spec.template.spec));
        let severity = if !proof.is_empty() {
            Severity::Error
        } else if pods_full && !lacking {
            Severity::Info
        } else {
            Severity::Warning
        };
        let mut f = Finding::new(
            QuotaWithoutLimitRange::ID,
            severity,
            Subject::namespaced("ResourceQuota", ns, &q.metadata.name),
            format!("quota {ns}/{} requires every pod to state {} but {}: pods without resources are rejected{}", q.metadata.name, keys.join(", "), if has_lr { "the namespace's LimitRanges give no default for it" } else { "the namespace has no LimitRange to default it" }, if !proof.is_empty() { format!(" ({} FailedCreate events)", proof.len()) } else if severity == Severity::Info { format!(" (every container of the {} pod(s) shown states them: nothing is rejected now)", pods.len()) } else { String::new() }),
        )
        .with_evidences(keys.iter().map(|k| Evidence::field(&o, format!("spec.hard.{k}"), q.spec.hard.get(k).map(ToString::to_string).unwrap_or_default())));
        for s in proof.iter().take(3) {
            f = f.with_evidence(s.evidence());
        }
        let defaults: Vec<String> = uncovered
            .iter()
            .filter(|(_, k, _)| *k == "limit")
            .map(|(_, _, r)| format!("{r}: {}", if *r == "cpu" { "\"1\"" } else { "1Gi" }))
            .collect();
        let dreq: Vec<String> = uncovered
            .iter()
            .filter(|(_, k, _)| *k == "request")
            .map(|(_, _, r)| format!("{r}: {}", if *r == "cpu" { "100m" } else { "128Mi" }))
            .collect();
        let mut lr = format!(
            "kubectl -n {ns} apply -f - <<EOF\napiVersion: v1\nkind: LimitRange\nmetadata: {{name: quota-defaults}}\nspec:\n  limits:\n  - type: Container\n"
        );
        if !defaults.is_empty() {
            lr.push_str(&format!("    default: {{{}}}\n", defaults.join(", ")));
        }
        if !dreq.is_empty() {
            lr.push_str(&format!("    defaultRequest: {{{}}}\n", dreq.join(", ")));
        }
        lr.push_str("EOF");
        out.push(f.with_remedy(format!(
            "add LimitRange defaults for the required values, or set them on the workloads: {lr}"
        )));
    }
    // texts the catalog concludes on its own (a negative request)
    out.extend(crate::rules::log_catalog::catalog_findings(
        ctx,
        QuotaWithoutLimitRange::ID,
    ));
    // texts without the quota object (events pasted alone)
    for s in must {
        let known = snap
            .resource_quotas
            .iter()
            .any(|q| q.metadata.name == s.detail("quota"));
        if known {
            continue;
        }
        let ns = s
            .object
            .as_ref()
            .map(|o| o.namespace.clone())
            .unwrap_or_default();
        // v1.0-v1.1 wordings name no quota and one resource (`cpu is limited by quota, must
        // make explicit request.`)
        let quota = s.detail("quota");
        let must = match s.detail("must_specify") {
            "" => s.detail("resource"),
            m => m,
        };
        let which = if quota.is_empty() {
            "a ResourceQuota of the namespace".to_owned()
        } else {
            format!("quota {quota}")
        };
        out.push(
            Finding::new(QuotaWithoutLimitRange::ID, Severity::Error, if ns.is_empty() || quota.is_empty() { signal_subject(s) } else { Subject::namespaced("ResourceQuota", &ns, quota) }, format!("{which} blocks pods without resources (must specify {must}): the quota is enforced and requires every container to state it; the namespace lacks LimitRange defaults"))
                .with_evidence(s.evidence())
                .with_remedy("add a LimitRange with default (limits) and defaultRequest (requests) for cpu and memory in that namespace, or set resources on the workload"),
        );
        break;
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::{run_log, run_rule};

    const Q: &str = r#"{"kind":"ResourceQuota","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"limits.memory":"1Gi","requests.cpu":"1"}}}"#;

    #[test]
    fn defaults_for_requests_only() {
        let s = format!(
            r#"{{"kind":"List","items":[{Q},{{"kind":"LimitRange","metadata":{{"name":"d","namespace":"a"}},"spec":{{"limits":[{{"type":"Container","defaultRequest":{{"cpu":"100m","memory":"1Gi"}}}}]}}}}]}}"#
        );
        let f = run_rule("quota-without-limitrange", &s);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("limits.memory") && !f[0].message.contains("requests.cpu"));
    }

    #[test]
    fn full_defaults_are_fine_and_text_fires() {
        let s = format!(
            r#"{{"kind":"List","items":[{Q},{{"kind":"LimitRange","metadata":{{"name":"d","namespace":"a"}},"spec":{{"limits":[{{"type":"Container","default":{{"cpu":"1","memory":"1Gi"}}}}]}}}}]}}"#
        );
        assert!(run_rule("quota-without-limitrange", &s).is_empty());
        assert_eq!(run_log("quota-without-limitrange", "Error creating: pods \"r\" is forbidden: failed quota: compute-resources: must specify limits.cpu,limits.memory,requests.cpu,requests.memory").len(), 1);
    }
}
