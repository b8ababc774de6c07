//! H6: a quota on a key the "must specify" rule covers and a LimitRange that does not default
//! it. Texts from kubernetes/kubernetes `pkg/quota/v1/evaluator/core/pods.go`
//! (`podEvaluator.Constraints`: `must specify %s`, resources and containers sorted) wrapped by
//! the ResourceQuota admission plugin (`failed quota: %s: %v`, Forbidden).

use cube_model::ClusterSnapshot;
use cube_quota::whatif::{AdmitOptions, Submission, Verdict, admit};

fn snapshot(hard: &str, limit_range: Option<&str>) -> ClusterSnapshot {
    let mut s = ClusterSnapshot::default();
    s.resource_quotas.push(
        serde_json::from_str(&format!(
            r#"{{"metadata":{{"name":"q","namespace":"ml"}},"spec":{{"hard":{hard}}}}}"#
        ))
        .expect("quota"),
    );
    if let Some(lr) = limit_range {
        s.limit_ranges.push(
            serde_json::from_str(&format!(
                r#"{{"metadata":{{"name":"lr","namespace":"ml"}},"spec":{{"limits":[{lr}]}}}}"#
            ))
            .expect("limitrange"),
        );
    }
    s
}

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n  initContainers: [{name: init, image: x, resources: {limits: {cpu: \"1\"}}}]\n  containers:\n  - {name: main, image: x, resources: {requests: {cpu: 200m}}}\n  - {name: aux, image: x}\n";

fn verdict(s: &ClusterSnapshot) -> Verdict {
    let sub = Submission::parse(POD).expect("pod");
    admit(&sub, "", s, &AdmitOptions::default()).verdict
}

/// A LimitRange that defaults only the cpu request: `limits.cpu` is still missing from the
/// containers without a limit, and the pod is refused by quota, not by the LimitRanger.
#[test]
fn limits_cpu_quota_with_request_only_defaults_is_refused() {
    let s = snapshot(
        r#"{"limits.cpu":"8","requests.memory":"8Gi"}"#,
        Some(r#"{"type":"Container","defaultRequest":{"cpu":"100m"}}"#),
    );
    match verdict(&s) {
        Verdict::Rejected(r) => {
            assert_eq!(r.code, 403);
            assert_eq!(
                r.message,
                "pods \"p\" is forbidden: failed quota: q: must specify limits.cpu for: aux,main; requests.memory for: aux,init,main"
            );
        }
        v => panic!("{v:?}"),
    }
    // a default limit fills limits.cpu (and, as the request default, requests of memory)
    let s = snapshot(
        r#"{"limits.cpu":"8","requests.memory":"8Gi"}"#,
        Some(r#"{"type":"Container","default":{"cpu":"1","memory":"1Gi"}}"#),
    );
    assert!(matches!(verdict(&s), Verdict::Admitted { admitted: 1, .. }));
}

/// Extended resources are never required: a GPU quota admits a pod that asks for no GPU.
#[test]
fn gpu_quota_never_requires_the_gpu() {
    let s = snapshot(r#"{"requests.nvidia.com/gpu":"4"}"#, None);
    assert!(matches!(verdict(&s), Verdict::Admitted { admitted: 1, .. }));
}
