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
        out.push(
            Finding::new(QuotaNearLimit::ID, Severity::Warning, signal_subject(s), format!("admission rejected a pod: exceeded quota {} (a quota denial, not an RBAC problem)", s.detail("quota")))
                .with_evidence(s.evidence())
                .with_remedy("compare the quota's status.used with hard (`kubectl describe resourcequota`) and raise it or lower the workload's requests"),
        );
    }
    out
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
