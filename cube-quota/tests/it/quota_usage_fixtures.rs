//! The quota, event and pod fixtures whose `.meta.json` conclusion is about ResourceQuota or
//! LimitRange math.
//!
//! Not covered here: the three `quotas/kueue-*.yaml` fixtures (Kueue ClusterQueue
//! `nominalQuota`/cohort math, not ResourceQuota admission).
//! The `.txt` fixtures are kubectl text, so the objects they describe are built here.

use cube_model::ClusterSnapshot;
use cube_model::objects::{Pod, ResourceQuota};
use cube_quota::quota::{QuotaState, keys_never_charged, pod_tracks};
use cube_quota::whatif::{AdmitOptions, Submission, Verdict, admit};
use serde_json::Value;

fn fixture(rel: &str) -> String {
    let base = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/fixtures/");
    std::fs::read_to_string(format!("{base}{rel}")).expect("fixture")
}

fn meta(rel: &str) -> Value {
    serde_json::from_str(&fixture(&format!("{rel}.meta.json"))).expect("meta")
}

fn docs(rel: &str) -> Vec<Value> {
    serde_saphyr::from_multiple::<Value>(&fixture(rel)).expect("yaml")
}

fn sub(v: &Value) -> Submission {
    Submission::from_value(v.clone(), "yaml").expect("object")
}

fn quota(v: &Value) -> ResourceQuota {
    match sub(v) {
        Submission::ResourceQuota(q) => q,
        other => panic!("not a quota: {other:?}"),
    }
}

fn rejection(out: &cube_quota::whatif::AdmissionOutcome) -> &str {
    out.rejection().map(|r| r.message.as_str()).unwrap_or("")
}

/// "Quota not enforced because the quota keys name resources nobody requests (gpucore/gpumemory
/// vs the pod's gpumem/gpucores)": the pod is admitted and `used` does not move; both keys are
/// reported as never charged.
#[test]
fn hami_quota_keys_do_not_match_pod_resource_names() {
    let rel = "quotas/hami-quota-keys-vs-pod-resource-names.yaml";
    assert!(
        meta(rel)["expected_diagnosis"]
            .as_str()
            .expect("diag")
            .contains("Quota not enforced")
    );
    let d = docs(rel);
    let q = quota(&d[0]);
    let mut snap = ClusterSnapshot::default();
    snap.resource_quotas.push(q.clone());
    let out = admit(&sub(&d[1]), "", &snap, &AdmitOptions::default());
    assert!(
        matches!(out.verdict, Verdict::Admitted { admitted: 1, .. }),
        "{:?}",
        out.verdict
    );
    let before = QuotaState::from_quota(&q, &[], &[], None);
    assert_eq!(
        out.quotas_after[0].used, before.used,
        "quota used does not move"
    );
    assert!(
        out.replicas[0]
            .charges
            .iter()
            .all(|c| c.requested.is_empty())
    );
    let stored: Pod = out.replicas[0].stored.clone().expect("stored");
    assert_eq!(
        keys_never_charged(&q, &[stored], &[])
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>(),
        vec![
            "requests.nvidia.com/gpucore",
            "requests.nvidia.com/gpumemory"
        ]
    );
}

/// "Quota fails closed because it names a resource the quota system cannot evaluate (legacy
/// alpha GPU name)": today the alpha names are not tracked at all; a quota whose status has no
/// `used` yet for its tracked names blocks every pod with `status unknown for quota: quota`.
#[test]
fn alpha_gpu_quota_status_unknown() {
    let rel = "quotas/quota-alpha-nvidia-gpu-status-unknown.yaml";
    assert!(
        meta(rel)["expected_diagnosis"]
            .as_str()
            .expect("diag")
            .contains("fails closed")
    );
    let mut q = quota(&docs(rel)[0]);
    assert!(!pod_tracks("requests.alpha.kubernetes.io/nvidia-gpu"));
    assert!(!pod_tracks("limits.alpha.kubernetes.io/nvidia-gpu"));
    let keys = keys_never_charged(&q, &[], &[]);
    assert!(
        keys.iter()
            .any(|k| k.as_str() == "requests.alpha.kubernetes.io/nvidia-gpu")
    );
    let deployment = Submission::parse(
        "kind: Deployment\nmetadata: {name: tensorflow, namespace: test}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: tf}}\n  template:\n    metadata: {labels: {app: tf}}\n    spec:\n      containers:\n      - name: tf\n        resources: {limits: {cpu: '1', memory: 1Gi}}\n",
    )
    .expect("deployment");
    // status synced by the controller: admitted, both replicas charged
    let mut snap = ClusterSnapshot::default();
    snap.resource_quotas.push(q.clone());
    let out = admit(&deployment, "", &snap, &AdmitOptions::default());
    assert!(
        matches!(out.verdict, Verdict::Admitted { admitted: 2, .. }),
        "{:?}",
        out.verdict
    );
    assert_eq!(
        out.quotas_after[0]
            .used
            .get("requests.cpu")
            .map(ToString::to_string)
            .as_deref(),
        Some("2")
    );
    // status with hard but without used: every pod fails closed
    q.status = Some(cube_model::objects::ResourceQuotaStatus {
        hard: q.spec.hard.clone(),
        used: Default::default(),
    });
    snap.resource_quotas = vec![q];
    let out = admit(&deployment, "", &snap, &AdmitOptions::default());
    let msg = rejection(&out);
    assert!(msg.starts_with("pods \"tensorflow-"), "{msg}");
    assert!(
        msg.ends_with("is forbidden: status unknown for quota: quota, resources: limits.cpu,limits.memory,requests.cpu,requests.memory"),
        "{msg}"
    );
}

/// "ResourceQuota is checked at admission only, it never evicts. Tool should report 'namespace
/// over quota (used 2 > hard 1)' and that new GPU pods will be rejected".
#[test]
fn vcluster_quota_lowered_after_admission() {
    let rel = "quotas/vcluster-gpu-quota-lowered-after-admission.yaml";
    assert!(
        meta(rel)["expected_diagnosis"]
            .as_str()
            .expect("diag")
            .contains("never evicts")
    );
    let d = docs(rel);
    let lowered = quota(&d[1]);
    let st = QuotaState::from_quota(&lowered, &[], &[], None);
    let over: Vec<String> = st
        .over_quota()
        .iter()
        .map(|(k, u, h)| format!("{k} {u}>{h}"))
        .collect();
    assert_eq!(
        over,
        vec!["limits.nvidia.com/gpu 2>1", "requests.nvidia.com/gpu 2>1"]
    );
    let mut snap = ClusterSnapshot::default();
    snap.resource_quotas.push(lowered);
    let gpu_pod = Submission::parse(
        "kind: Pod\nmetadata: {name: gpu-3}\nspec:\n  containers:\n  - name: c\n    resources: {limits: {nvidia.com/gpu: 1}}\n",
    )
    .expect("pod");
    let out = admit(&gpu_pod, "vcluster-team-a", &snap, &AdmitOptions::default());
    assert_eq!(
        rejection(&out),
        "pods \"gpu-3\" is forbidden: exceeded quota: vc-quota, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=1"
    );
    let cpu_pod =
        Submission::parse("kind: Pod\nmetadata: {name: cpu-1}\nspec:\n  containers: [{name: c}]\n")
            .expect("pod");
    let out = admit(&cpu_pod, "vcluster-team-a", &snap, &AdmitOptions::default());
    assert!(
        out.rejection().is_none(),
        "a pod without GPUs is still admitted"
    );
}

/// "Quota IS enforced (fails closed). Fix: LimitRange defaults or explicit resources."
#[test]
fn failedcreate_quota_must_specify() {
    let rel = "events/failedcreate-quota-must-specify.txt";
    let m = meta(rel);
    assert!(
        m["expected_diagnosis"]
            .as_str()
            .expect("diag")
            .contains("Quota IS enforced")
    );
    let event = fixture(rel);
    // the event (older release) lists the names without per-container detail
    let listed = event
        .split("must specify ")
        .nth(1)
        .expect("must specify")
        .trim()
        .split(',')
        .map(str::to_owned)
        .collect::<Vec<_>>();
    assert_eq!(
        listed,
        [
            "limits.cpu",
            "limits.memory",
            "requests.cpu",
            "requests.memory"
        ]
    );
    let mut snap = ClusterSnapshot::default();
    let q: ResourceQuota = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "compute-resources", "namespace": "team-a"},
        "spec": {"hard": {"limits.cpu": "2", "limits.memory": "2Gi", "requests.cpu": "1", "requests.memory": "1Gi"}}
    }))
    .expect("quota");
    snap.resource_quotas.push(q);
    let redis = Submission::parse(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: team-a-redis, namespace: team-a}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: redis}}\n  template:\n    metadata: {labels: {app: redis}}\n    spec:\n      containers: [{name: redis, image: redis:6}]\n",
    )
    .expect("deployment");
    let out = admit(&redis, "", &snap, &AdmitOptions::default());
    let msg = rejection(&out);
    assert_eq!(out.rejection().map(|r| r.code), Some(403));
    assert!(msg.starts_with("pods \"team-a-redis-"), "{msg}");
    let tail = msg
        .split("failed quota: compute-resources: must specify ")
        .nth(1)
        .expect("must specify");
    assert_eq!(
        tail,
        "limits.cpu for: redis; limits.memory for: redis; requests.cpu for: redis; requests.memory for: redis"
    );
    let named: Vec<&str> = tail
        .split("; ")
        .map(|p| p.split(" for:").next().unwrap_or(""))
        .collect();
    assert_eq!(named, listed);
    // the suggested fix: a LimitRange with defaults admits the pod
    let lr = Submission::parse(
        "kind: LimitRange\nmetadata: {name: defaults, namespace: team-a}\nspec:\n  limits:\n  - type: Container\n    default: {cpu: 500m, memory: 512Mi}\n    defaultRequest: {cpu: 250m, memory: 256Mi}\n",
    )
    .expect("lr");
    let Submission::LimitRange(lr) = lr else {
        panic!("lr")
    };
    snap.limit_ranges.push(lr);
    let out = admit(&redis, "", &snap, &AdmitOptions::default());
    assert!(out.rejection().is_none(), "{:?}", out.rejection());
}

/// "Working as designed: a LimitRange default injected the CPU request, so the quota could
/// charge it ... the kubernetes.io/limit-ranger annotation is the evidence."
#[test]
fn nginx_admitted_because_limitranger_defaulted_cpu() {
    let rel = "pods/nginx-no-requests-limitranger-defaulted.txt";
    assert!(
        meta(rel)["expected_diagnosis"]
            .as_str()
            .expect("diag")
            .contains("Working as designed")
    );
    let text = fixture(rel);
    let annotation = text
        .lines()
        .find_map(|l| l.strip_prefix("Annotations:"))
        .and_then(|a| a.trim().strip_prefix("kubernetes.io/limit-ranger="))
        .expect("annotation");
    // the namespace of the report: a cpu quota and the default LimitRange of that era
    // (defaultRequest cpu 100m for containers)
    let mut snap = ClusterSnapshot::default();
    let q: ResourceQuota = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "compute", "namespace": "default"}, "spec": {"hard": {"requests.cpu": "4"}}
    }))
    .expect("quota");
    snap.resource_quotas.push(q);
    let nginx = Submission::parse(
        "kind: Pod\nmetadata: {name: nginx-pod2, namespace: default, labels: {name: nginx-pod}}\nspec:\n  containers: [{name: nginx, image: nginx}]\n",
    )
    .expect("pod");
    // without the LimitRange the quota fails closed: it IS enforced
    let out = admit(&nginx, "", &snap, &AdmitOptions::default());
    assert_eq!(
        rejection(&out),
        "pods \"nginx-pod2\" is forbidden: failed quota: compute: must specify requests.cpu for: nginx"
    );
    let Submission::LimitRange(lr) = Submission::parse(
        "kind: LimitRange\nmetadata: {name: limits, namespace: default}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {cpu: 100m}\n",
    )
    .expect("lr") else {
        panic!("lr")
    };
    snap.limit_ranges.push(lr);
    let out = admit(&nginx, "", &snap, &AdmitOptions::default());
    assert!(out.rejection().is_none());
    let stored = out.replicas[0].stored.as_ref().expect("stored");
    assert_eq!(
        stored
            .metadata
            .annotations
            .get("kubernetes.io/limit-ranger"),
        Some(annotation)
    );
    assert_eq!(
        out.quotas_after[0]
            .used
            .get("requests.cpu")
            .map(ToString::to_string)
            .as_deref(),
        Some("100m")
    );
}
