//! `quota-not-enforced`: a quota lists an extended resource without the `requests.` prefix, or
//! tracks nothing that pods consume.

use std::collections::BTreeSet;

use crate::resources::{add_into, is_native, quota_key_resource};
use crate::rules::obj;
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    QuotaNotEnforced,
    "quota-not-enforced",
    Quota,
    Error,
    "A ResourceQuota lists an extended resource as a bare name (nvidia.com/gpu) or as limits.`<name>` without the matching requests.`<name>`: the API accepts it but the quota evaluator only charges requests.`<extended>`, so status.used never shows it and pods are admitted without limit. Also fires when every extended key of a quota names a resource no pod in the namespace uses while pods use other extended resources (HAMi gpumem/gpucores vs gpumemory/gpucore). Not fired for quotas whose used exceeds hard (lowered after admission: quota is admission-only) or for pods whose requests a LimitRange filled in.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for q in &ctx.snapshot().resource_quotas {
        let ns = &q.metadata.namespace;
        let o = obj("ResourceQuota", ns, &q.metadata.name);
        let subj = Subject::namespaced("ResourceQuota", ns, &q.metadata.name);
        let hard = &q.spec.hard;
        let used = q.status.as_ref().map(|s| &s.used);
        // resources pods in the namespace use (requests after defaulting from limits)
        let mut consumed = cube_model::ResourceList::new();
        let mut used_names = BTreeSet::new();
        for &i in ctx.pods_in_namespace(ns) {
            let p = ctx.pod(i);
            if ctx.pod_finished(p) {
                continue;
            }
            add_into(&mut consumed, ctx.pod_requests(i));
            for c in p.spec.containers.iter().chain(&p.spec.init_containers) {
                used_names.extend(
                    c.resources
                        .requests
                        .names()
                        .chain(c.resources.limits.names())
                        .map(|n| n.to_string()),
                );
            }
        }
        for k in hard.names() {
            let key = k.as_str();
            let res = quota_key_resource(key);
            if is_native(res) || key.starts_with("requests.") || key.starts_with("count/") {
                continue;
            }
            if hard.contains(&format!("requests.{res}")) {
                continue; // limits.<x> next to requests.<x>: redundant but the requests key enforces
            }
            let consumed_q = consumed
                .get(res)
                .map(ToString::to_string)
                .unwrap_or_else(|| "0".into());
            let over = consumed
                .get(res)
                .zip(hard.get(key))
                .is_some_and(|(c, h)| c > h);
            out.push(
                Finding::new(QuotaNotEnforced::ID, Severity::Error, subj.clone(), format!("quota {ns}/{} lists {key}, which the quota system never tracks (only requests.{res} is charged for extended resources): pods in {ns} hold {consumed_q} {res}{} and nothing stops more", q.metadata.name, if over { format!(" against hard {}", hard.get(key).map(ToString::to_string).unwrap_or_default()) } else { String::new() }))
                    .with_evidence(Evidence::field(&o, format!("spec.hard.{key}"), hard.get(key).map(ToString::to_string).unwrap_or_default()))
                    .with_evidence(Evidence::field(&o, format!("status.used.{key}"), used.and_then(|u| u.get(key)).map(ToString::to_string).unwrap_or_else(|| "<absent>".into())))
                    .with_evidence(Evidence::field(format!("Namespace/{ns}"), format!("sum of pod requests {res}"), consumed_q))
                    .with_remedy(format!("kubectl -n {ns} patch resourcequota {} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/spec/hard/{}\"}},{{\"op\":\"add\",\"path\":\"/spec/hard/requests.{}\",\"value\":\"{}\"}}]'", q.metadata.name, key.replace('/', "~1"), res.replace('/', "~1"), hard.get(key).map(ToString::to_string).unwrap_or_default())),
            );
        }
        // tracks nothing pods consume: every extended requests.<x> key unused while pods use other extended names
        let ext_keys: Vec<&str> = hard
            .names()
            .map(|k| k.as_str())
            .filter(|k| k.starts_with("requests.") && !is_native(quota_key_resource(k)))
            .collect();
        let pod_ext: Vec<&String> = used_names.iter().filter(|n| !is_native(n)).collect();
        if !ext_keys.is_empty()
            && !pod_ext.is_empty()
            && ext_keys
                .iter()
                .all(|k| !used_names.contains(quota_key_resource(k)))
        {
            let uncovered: Vec<&str> = pod_ext
                .iter()
                .map(|s| s.as_str())
                .filter(|n| !hard.contains(&format!("requests.{n}")))
                .collect();
            if !uncovered.is_empty() {
                out.push(
                    Finding::new(QuotaNotEnforced::ID, Severity::Error, subj.clone(), format!("quota {ns}/{} tracks {} but pods in {ns} use {}: the keys name resources nobody requests, so the quota constrains nothing (HAMi gpumem/gpucores are per-GPU parameters, not node-registered resources, so even correctly named keys would not express a namespace total)", q.metadata.name, ext_keys.join(", "), uncovered.join(", ")))
                        .with_evidences(ext_keys.iter().map(|k| Evidence::field(&o, format!("spec.hard.{k}"), hard.get(k).map(ToString::to_string).unwrap_or_default())))
                        .with_evidences(uncovered.iter().map(|n| Evidence::field(format!("Namespace/{ns}"), "resource used by pods", *n)))
                        .with_remedy(format!("name the quota keys after the resources pods request (requests.{}) and prefer quotas on node-advertised resources (requests.nvidia.com/gpu)", uncovered.first().copied().unwrap_or(""))),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn bare_gpu_key() {
        let s = r#"{"kind":"List","items":[{"kind":"ResourceQuota","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"nvidia.com/gpu":"4"}}},
          {"kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"containers":[{"name":"c","resources":{"requests":{"nvidia.com/gpu":"6"},"limits":{"nvidia.com/gpu":"6"}}}]}}]}"#;
        let f = run_rule("quota-not-enforced", s);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("hold 6"));
    }

    #[test]
    fn requests_key_and_lowered_quota_are_fine() {
        let s = "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\n  namespace: a\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"1\"\n    limits.nvidia.com/gpu: \"1\"\nstatus:\n  used:\n    requests.nvidia.com/gpu: \"2\"\n";
        assert!(run_rule("quota-not-enforced", s).is_empty());
    }
}
