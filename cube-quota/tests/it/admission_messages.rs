//! Every case of `testdata/fixtures/apiserver/admission-messages.jsonl` (decisions and exact
//! messages of a real kube-apiserver v1.36.2) through the what-if pipeline.
//!
//! Each case runs twice: once with the quotas' `status` taken from the capture
//! (`quota_status_before`, as the API server reads it), once with no status so that usage is
//! computed from the pods the pipeline admitted before (`objects_in_namespace`); the computed
//! usage must equal the captured `status.used`.

use cube_model::objects::{ObjectMeta, PersistentVolumeClaim, PriorityClass, ResourceQuotaStatus};
use cube_model::{ClusterSnapshot, ResourceList};
use cube_quota::requests::qos_class;
use cube_quota::whatif::{AdmitOptions, Submission, Verdict, admit};
use serde_json::Value;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/fixtures/apiserver/admission-messages.jsonl"
);
const NS: &str = "case-ns";

fn priority_classes() -> Vec<PriorityClass> {
    // "PriorityClasses present: training-high-priority=1000000, batch-low=100 (preemptionPolicy
    // Never), system-cluster-critical, system-node-critical; no global default." (meta)
    let pc = |name: &str, value: i32, policy: &str| PriorityClass {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        value,
        preemption_policy: Some(policy.into()),
        ..Default::default()
    };
    vec![
        pc("training-high-priority", 1_000_000, "PreemptLowerPriority"),
        pc("batch-low", 100, "Never"),
    ]
}

/// Builds the namespace of a case: quotas and LimitRanges as given, pods and claims admitted
/// through the pipeline in order (their stored form is kept).
fn build(case: &Value, with_status: bool) -> ClusterSnapshot {
    let mut snap = ClusterSnapshot::default();
    snap.priority_classes = priority_classes();
    let before = case.get("quota_status_before").and_then(Value::as_object);
    for o in case["objects_in_namespace"].as_array().expect("objects") {
        let sub = Submission::from_value(o.clone(), "json").expect("object parses");
        match (o["kind"].as_str().expect("kind"), sub) {
            ("ResourceQuota", Submission::ResourceQuota(mut q)) => {
                q.metadata.namespace = NS.into();
                snap.resource_quotas.push(q);
            }
            ("LimitRange", Submission::LimitRange(mut l)) => {
                l.metadata.namespace = NS.into();
                snap.limit_ranges.push(l);
            }
            ("Pod", sub @ Submission::Workload(_)) => {
                let out = admit(&sub, NS, &snap, &AdmitOptions::default());
                assert!(
                    out.rejection().is_none(),
                    "pre-existing pod must be admitted: {:?}",
                    out.rejection()
                );
                let stored = out.replicas[0].stored.clone().expect("stored");
                snap.pods.push(stored);
            }
            ("PersistentVolumeClaim", Submission::PersistentVolumeClaim(mut c)) => {
                c.metadata.namespace = NS.into();
                let out = admit(
                    &Submission::PersistentVolumeClaim(c.clone()),
                    NS,
                    &snap,
                    &AdmitOptions::default(),
                );
                assert!(
                    out.rejection().is_none(),
                    "pre-existing claim must be admitted"
                );
                snap.persistent_volume_claims.push(c);
            }
            (k, _) => panic!("unexpected object kind {k}"),
        }
    }
    // The captured status (written by the quota controller after the objects above existed)
    // replaces the computed view, as the API server reads `status` at admission.
    if with_status {
        for q in &mut snap.resource_quotas {
            if let Some(st) = before.and_then(|b| b.get(&q.metadata.name)) {
                q.status = Some(
                    serde_json::from_value::<ResourceQuotaStatus>(st.clone()).expect("status"),
                );
            }
        }
    }
    snap
}

fn subject(case: &Value) -> Submission {
    let v = if case["pod"].is_null() {
        &case["submitted"]
    } else {
        &case["pod"]
    };
    Submission::from_value(v.clone(), "json").expect("subject parses")
}

fn list(v: &Value) -> ResourceList {
    serde_json::from_value(v.clone()).expect("list")
}

#[track_caller]
fn check_case(case: &Value, with_status: bool) {
    let name = case["case"].as_str().expect("case");
    let snap = build(case, with_status);
    // computed usage must equal what the real quota controller wrote
    if !with_status && let Some(before) = case.get("quota_status_before").and_then(Value::as_object)
    {
        for q in &snap.resource_quotas {
            let st = cube_quota::quota::QuotaState::from_quota(
                q,
                &snap.pods,
                &snap.persistent_volume_claims,
                None,
            );
            let expected = before[&q.metadata.name]
                .get("used")
                .map(list)
                .unwrap_or_default();
            assert_eq!(
                st.used, expected,
                "case {name}: computed used of {}",
                q.metadata.name
            );
        }
    }
    let out = admit(&subject(case), NS, &snap, &AdmitOptions::default());
    let admitted = case["admitted"].as_bool().expect("admitted");
    match (&out.verdict, admitted) {
        (Verdict::Admitted { admitted: n, .. }, true) => {
            assert_eq!(*n, 1, "case {name}");
            if let Some(after) = case.get("quota_status_after").and_then(Value::as_object) {
                for (q, st) in after {
                    let got = out
                        .quotas_after
                        .iter()
                        .find(|s| &s.name == q)
                        .expect("quota after");
                    let exp = st.get("used").map(list).unwrap_or_default();
                    assert_eq!(got.used, exp, "case {name}: used after of {q}");
                    for (k, v) in st
                        .get("used")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                    {
                        assert_eq!(
                            got.used.get(k).map(ToString::to_string).as_deref(),
                            v.as_str(),
                            "case {name}: {q}.{k} text"
                        );
                    }
                }
            }
            if let Some(stored) = case.get("stored") {
                let pod = out.replicas[0].stored.as_ref().expect("stored pod");
                for (i, c) in stored["containers"]
                    .as_array()
                    .expect("containers")
                    .iter()
                    .enumerate()
                {
                    let got = &pod.spec.containers[i].resources;
                    let res = &c["resources"];
                    assert_eq!(
                        got.requests,
                        res.get("requests").map(list).unwrap_or_default(),
                        "case {name}: requests"
                    );
                    assert_eq!(
                        got.limits,
                        res.get("limits").map(list).unwrap_or_default(),
                        "case {name}: limits"
                    );
                }
                assert_eq!(
                    pod.spec.priority.map(i64::from),
                    stored["priority"].as_i64(),
                    "case {name}: priority"
                );
                assert_eq!(
                    pod.spec.priority_class_name.as_str(),
                    stored["priorityClassName"].as_str().unwrap_or(""),
                    "case {name}"
                );
                assert_eq!(
                    Some(qos_class(pod).as_str()),
                    stored["qosClass"].as_str(),
                    "case {name}: qos"
                );
            }
        }
        (Verdict::Rejected(r), false) => {
            assert_eq!(
                Some(i64::from(r.code)),
                case["http_status"].as_i64(),
                "case {name}: {r:?}"
            );
            assert_eq!(Some(r.reason), case["reason"].as_str(), "case {name}");
            assert_eq!(
                Some(r.message.as_str()),
                case["message"].as_str(),
                "case {name}"
            );
        }
        (v, _) => {
            panic!("case {name} (status {with_status}): expected admitted={admitted}, got {v:?}")
        }
    }
}

#[test]
fn every_admission_message_case() {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("json line");
        check_case(&case, true);
        check_case(&case, false);
        n += 1;
    }
    assert_eq!(n, 44, "every line of the capture is checked");
}

#[test]
fn pvc_without_class_gets_the_default_class() {
    let mut snap = ClusterSnapshot::default();
    let mut sc = cube_model::objects::StorageClass::default();
    sc.metadata.name = "fast-nfs".into();
    sc.metadata.annotations.insert(
        "storageclass.kubernetes.io/is-default-class".into(),
        "true".into(),
    );
    snap.storage_classes.push(sc);
    let q: cube_model::objects::ResourceQuota = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "storage", "namespace": NS},
        "spec": {"hard": {"fast-nfs.storageclass.storage.k8s.io/requests.storage": "10Gi"}}
    }))
    .expect("quota");
    snap.resource_quotas.push(q);
    let pvc: PersistentVolumeClaim = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "data"}, "spec": {"resources": {"requests": {"storage": "20Gi"}}}
    }))
    .expect("pvc");
    let out = admit(
        &Submission::PersistentVolumeClaim(pvc),
        NS,
        &snap,
        &AdmitOptions::default(),
    );
    assert_eq!(
        out.rejection().map(|r| r.message.as_str()),
        Some(
            "persistentvolumeclaims \"data\" is forbidden: exceeded quota: storage, requested: fast-nfs.storageclass.storage.k8s.io/requests.storage=20Gi, used: fast-nfs.storageclass.storage.k8s.io/requests.storage=0, limited: fast-nfs.storageclass.storage.k8s.io/requests.storage=10Gi"
        )
    );
}
