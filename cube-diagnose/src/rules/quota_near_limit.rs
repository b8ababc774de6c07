//! `quota-near-limit`: usage over a threshold of hard (default 90%), or over hard.

use crate::classify::SignalKind;
use crate::rules::{obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    QuotaNearLimit,
    "quota-near-limit",
    Quota,
    Warning,
    "A ResourceQuota's status.used reaches the configured percentage of hard (thresholds.quotaNearLimitPercent, default 90): the next pods will be rejected. Used above hard (for example a quota lowered after its pods were admitted) is an error: quota is checked at admission only and never evicts, so running pods stay and every new pod asking for that resource is rejected. Admission texts 'exceeded quota' are reported too.",
    check
);

fn ratio_pct(used: &cube_model::Quantity, hard: &cube_model::Quantity) -> Option<i128> {
    let h = hard.milli_value() as i128;
    let u = used.milli_value() as i128;
    (h > 0).then(|| u * 100 / h)
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let threshold = i128::from(ctx.thresholds().quota_near_limit_percent);
    for q in &ctx.snapshot().resource_quotas {
        let Some(st) = &q.status else { continue };
        let ns = &q.metadata.namespace;
        let o = obj("ResourceQuota", ns, &q.metadata.name);
        let hard = if st.hard.is_empty() {
            &q.spec.hard
        } else {
            &st.hard
        };
        for (k, h) in hard {
            let Some(u) = st.used.get(k.as_str()) else {
                continue;
            };
            if u > h {
                out.push(
                    Finding::new(QuotaNearLimit::ID, Severity::Error, Subject::namespaced("ResourceQuota", ns, &q.metadata.name), format!("namespace {ns} is over quota {}: used {k} {u} > hard {h}; quota was likely lowered after admission (it never evicts running pods), so every new pod asking for {k} is rejected", q.metadata.name))
                        .with_evidence(Evidence::field(&o, format!("status.used.{k}"), u.to_string()))
                        .with_evidence(Evidence::field(&o, format!("spec.hard.{k}"), h.to_string()))
                        .with_remedy(format!("either raise hard {k} back to at least {u}, or scale down/delete pods in {ns} until used <= {h}")),
                );
            } else if let Some(p) = ratio_pct(u, h)
                && p >= threshold
            {
                out.push(
                        Finding::new(QuotaNearLimit::ID, Severity::Warning, Subject::namespaced("ResourceQuota", ns, &q.metadata.name), format!("quota {ns}/{} is at {p}% of {k} ({u} of {h})", q.metadata.name))
                            .with_evidence(Evidence::field(&o, format!("status.used.{k}"), u.to_string()))
                            .with_evidence(Evidence::field(&o, format!("status.hard.{k}"), h.to_string()))
                            .with_remedy(format!("raise the quota (`kubectl -n {ns} edit resourcequota {}`) or free capacity before submitting more work", q.metadata.name)),
                    );
            }
        }
    }
    for s in signals(ctx, &[SignalKind::QuotaExceeded]).take(1) {
        // the v1.0-v1.1 wordings name no quota and state one resource in their own words
        let quota = s.detail("quota");
        let which = if quota.is_empty() {
            "a ResourceQuota of the namespace".to_owned()
        } else {
            format!("ResourceQuota {quota}")
        };
        let describe = if quota.is_empty() {
            "kubectl describe resourcequota".to_owned()
        } else {
            format!("kubectl describe resourcequota {quota}")
        };
        let mut parts = exceeded_parts(&s.text);
        if parts.is_empty() {
            parts.extend(legacy_part(s));
        }
        let counts: Vec<&str> = parts
            .iter()
            .map(|p| p.0.as_str())
            .filter(|r| is_object_count(r))
            .collect();
        let shown = parts
            .iter()
            .map(|(r, req, used, hard)| {
                if req.is_empty() {
                    format!("{r}: {used} needed with this pod, {hard} allowed")
                } else {
                    format!("{r}: {req} requested, {used} used of {hard}")
                }
            })
            .collect::<Vec<_>>()
            .join("; ");
        let message = format!(
            "admission rejected {}: {which} is full{} (a quota denial, not an RBAC problem)",
            rejected_kind(&s.text),
            if shown.is_empty() {
                String::new()
            } else {
                format!(" ({shown})")
            }
        );
        let remedy = if counts.is_empty() {
            format!(
                "compare the quota's status.used with hard (`{describe}`) and raise it or lower the workload's requests"
            )
        } else {
            format!(
                "{which} counts objects ({}): delete the ones no longer needed (old ReplicaSets/ReplicationControllers of past rollouts: lower the Deployment's or DeploymentConfig's revisionHistoryLimit, OpenShift `oc adm prune deployments`), or raise hard {} (`{describe}`)",
                counts.join(", "),
                counts.join(", ")
            )
        };
        out.push(
            Finding::new(
                QuotaNearLimit::ID,
                Severity::Warning,
                signal_subject(s),
                message,
            )
            .with_evidence(s.evidence())
            .with_remedy(remedy),
        );
    }
    out
}

/// The one resource of a v1.0-v1.1 quota rejection (`cpu quota is 200m, current usage is
/// 200m, requesting 100m.`; `... for resource cpu:  limited to 2 but require 2500m to
/// succeed.`; `limited to 10 pods`), from the catalog entry's placeholders, as
/// (resource, requested, used, limited); v1.0's `require` is the usage with the pod (requested
/// left empty).
fn legacy_part(s: &crate::classify::Signal) -> Option<(String, String, String, String)> {
    let clean = |v: &str| v.trim().trim_end_matches([',', '.', ':']).to_owned();
    let resource = clean(s.detail("resource"));
    if resource.is_empty() {
        return None;
    }
    let hard = clean(s.detail("hard"));
    let requested = clean(s.detail("requested"));
    let used = clean(s.detail("used"));
    Some(match s.detail("entry") {
        // `require` is the namespace's usage with the pod
        "quota.v1.0-exceeding" => (resource, String::new(), clean(s.detail("required")), hard),
        "quota.v1.0-count" | "quota.v1.1-count" => (resource, "1".to_owned(), hard.clone(), hard),
        _ => (resource, requested, used, hard),
    })
}

/// What the API server refused to create: the `<resource> "<name>" is forbidden` of the message
/// (`pods "web-1" is forbidden: exceeded quota: ...`), else "a pod".
fn rejected_kind(text: &str) -> String {
    let Some(at) = text
        .find("\" is forbidden")
        .or_else(|| text.find("\" is forbidden"))
    else {
        return "a pod".to_owned();
    };
    let before = &text[..at];
    let Some(q) = before.rfind('"') else {
        return "a pod".to_owned();
    };
    let name = &before[q + 1..];
    let resource = before[..q].split_whitespace().next_back().unwrap_or("pods");
    format!("{resource} \"{name}\"")
}

/// `<resource>=<q>` parts of `requested: a=1,b=2, used: a=20,b=3, limited: a=20,b=3`
/// (prettyPrint in the resourcequota controller): (resource, requested, used, limited).
fn exceeded_parts(text: &str) -> Vec<(String, String, String, String)> {
    let lower = text.to_ascii_lowercase();
    let field = |name: &str| -> Vec<(String, String)> {
        let Some(at) = lower.find(name) else {
            return Vec::new();
        };
        let rest = &text[at + name.len()..];
        let end = [", used: ", ", limited: "]
            .iter()
            .filter_map(|m| rest.find(m))
            .min()
            .unwrap_or(rest.len());
        rest[..end]
            .split(',')
            .filter_map(|kv| kv.trim().split_once('='))
            .map(|(k, v)| {
                (
                    k.trim().to_owned(),
                    v.trim().trim_end_matches(['.', '"', '`']).to_owned(),
                )
            })
            .collect()
    };
    let (req, used, hard) = (field("requested: "), field("used: "), field("limited: "));
    req.into_iter()
        .map(|(r, q)| {
            let u = used
                .iter()
                .find(|(k, _)| *k == r)
                .map_or("?", |(_, v)| v)
                .to_owned();
            let h = hard
                .iter()
                .find(|(k, _)| *k == r)
                .map_or("?", |(_, v)| v)
                .to_owned();
            (r, q, u, h)
        })
        .collect()
}

/// Whether a quota resource counts objects (`pods`, `replicationcontrollers`, `count/<r>`,
/// `services`, ...: the object-count names of the resourcequota evaluators) rather than compute
/// resources.
fn is_object_count(resource: &str) -> bool {
    resource.starts_with("count/")
        || matches!(
            resource,
            "pods"
                | "replicationcontrollers"
                | "services"
                | "secrets"
                | "configmaps"
                | "persistentvolumeclaims"
                | "resourcequotas"
                | "services.loadbalancers"
                | "services.nodeports"
        )
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_rule;

    fn q(used: &str) -> String {
        format!(
            r#"{{"kind":"ResourceQuota","metadata":{{"name":"q","namespace":"a"}},"spec":{{"hard":{{"requests.nvidia.com/gpu":"16"}}}},"status":{{"hard":{{"requests.nvidia.com/gpu":"16"}},"used":{{"requests.nvidia.com/gpu":"{used}"}}}}}}"#
        )
    }

    #[test]
    fn exceeded_quota_in_every_case_names_the_counts() {
        for line in [
            "Error creating: pods \"web-1\" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=20, limited: pods=20",
            "Couldn't deploy version 41: replicationcontrollers \"app-41\" is forbidden: Exceeded quota: object-counts, requested: replicationcontrollers=1, used: replicationcontrollers=20, limited: replicationcontrollers=20",
        ] {
            let f = crate::rules::testutil::run_log("quota-near-limit", line);
            assert_eq!(f.len(), 1, "{line}");
            assert!(f[0].message.contains("object-counts"), "{}", f[0].message);
            assert!(f[0].message.contains("used of 20"), "{}", f[0].message);
            assert!(
                f[0].remedy.contains("revisionHistoryLimit"),
                "{}",
                f[0].remedy
            );
        }
        let f = crate::rules::testutil::run_log(
            "quota-near-limit",
            "pods \"p\" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=7, limited: requests.cpu=8",
        );
        assert!(
            f[0].message
                .contains("requests.cpu: 2 requested, 7 used of 8"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("pods \"p\""), "{}", f[0].message);
    }

    #[test]
    fn near_and_over() {
        assert_eq!(
            run_rule("quota-near-limit", &q("15"))[0].severity,
            Severity::Warning
        );
        assert_eq!(
            run_rule("quota-near-limit", &q("17"))[0].severity,
            Severity::Error
        );
        assert!(run_rule("quota-near-limit", &q("8")).is_empty());
    }
}
