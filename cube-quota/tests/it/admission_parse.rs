//! Workload parsing never panics and reports typed errors; replicas are charged in turn.

use cube_model::ClusterSnapshot;
use cube_quota::Error;
use cube_quota::whatif::{AdmitOptions, Submission, Verdict, admit};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn parse_never_panics(text in "\\PC{0,200}") {
        let _ = Submission::parse(&text);
    }

    #[test]
    fn parse_never_panics_on_yaml_like(kind in prop_oneof![Just("Pod"), Just("Job"), Just("Deployment"), Just("X")],
                                       body in "[a-z:{}\\[\\], 0-9\\n-]{0,80}") {
        let _ = Submission::parse(&format!("kind: {kind}\nspec:\n{body}"));
    }
}

#[test]
fn json_errors_name_the_field() {
    let err = Submission::parse(
        r#"{"kind":"Pod","spec":{"containers":[{"resources":{"limits":{"cpu":"lots"}}}]}}"#,
    )
    .expect_err("bad quantity");
    match err {
        Error::WorkloadParse {
            format: "json",
            message,
        } => {
            assert!(
                message.contains("spec.containers[0].resources.limits"),
                "{message}"
            );
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn statefulset_replicas_charge_pods_quota_in_turn() {
    let mut snap = ClusterSnapshot::default();
    snap.resource_quotas.push(
        serde_json::from_str(
            r#"{"metadata":{"name":"pods","namespace":"db"},"spec":{"hard":{"pods":"2"}}}"#,
        )
        .expect("quota"),
    );
    let sts = Submission::parse(
        "kind: StatefulSet\nmetadata: {name: pg, namespace: db}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: pg}}\n  template:\n    metadata: {labels: {app: pg}}\n    spec:\n      containers: [{name: pg}]\n",
    )
    .expect("sts");
    let out = admit(&sts, "", &snap, &AdmitOptions::default());
    let Verdict::Partial {
        admitted,
        requested,
        rejection,
    } = &out.verdict
    else {
        panic!("{:?}", out.verdict)
    };
    assert_eq!((*admitted, *requested), (2, 3));
    assert_eq!(
        rejection.message,
        "pods \"pg-2\" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2"
    );
    assert_eq!(
        out.quotas_after[0]
            .used
            .get("pods")
            .map(ToString::to_string)
            .as_deref(),
        Some("2")
    );
}
