//! The live path (KubeReviewer: SelfSubjectAccessReview / SelfSubjectRulesReview over HTTPS, and
//! the bootstrap-token and TokenRequest calls) against the loopback API double, which replays the
//! answers captured from a real v1.36 server.

use crate::support;

use std::time::Duration;

use base64::Engine as _;
use cube_cluster::join::fetch_bootstrap_token;
use cube_cluster::manifests::{ManifestError, request_token};
use cube_cluster::profiles::{
    KubeReviewer, MissingRule, Outcome, OverPrivilege, Profile, check_profile,
};
use serde_json::json;
use support::{ApiDouble, Pki, kube_client, policy_rule};

/// Connect and read timeout of the test clients.
const TIMEOUT: Duration = Duration::from_secs(5);

const CAPTURED_PROFILE: &str = r#"
name: captured
checks:
  - {verb: create, group: "", resource: pods, scope: namespaces}
  - {verb: get, group: "", resource: secrets, scope: namespaces}
  - {verb: update, group: "", resource: resourcequotas, scope: namespaces}
  - {verb: create, group: rbac.authorization.k8s.io, resource: rolebindings, scope: namespaces}
  - {verb: list, group: "", resource: nodes, scope: cluster}
  - {verb: list, group: scheduling.k8s.io, resource: priorityclasses, scope: cluster}
"#;

#[tokio::test]
async fn limited_user_report_over_https() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token(
            "limited-token",
            "limited",
            &["limited-users", "system:authenticated"],
        )
        .deny_by_default()
        .replay_ssar_fixture()
        .start()
        .await;
    let reviewer = KubeReviewer::new(kube_client(&api, Some("limited-token"), TIMEOUT));
    let profile = Profile::list_from_yaml_str(CAPTURED_PROFILE)
        .unwrap()
        .remove(0);
    let ns = vec!["gpu-test".to_string()];
    let report = check_profile(&reviewer, &profile, &ns, 3).await.unwrap();
    let outcomes: Vec<Outcome> = report.results.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Allowed,
            Outcome::Allowed,
            Outcome::NoOpinion,
            Outcome::NoOpinion,
            Outcome::NoOpinion,
            Outcome::NoOpinion,
        ]
    );
    assert_eq!(
        report.results[1].reason,
        r#"RBAC: allowed by RoleBinding "limited-edit/gpu-test" of ClusterRole "edit" to User "limited""#
    );
    let by = report.results[1].granted_by.as_ref().unwrap();
    assert_eq!(
        (
            by.binding_name.as_str(),
            by.binding_namespace.as_str(),
            by.role_name.as_str()
        ),
        ("limited-edit", "gpu-test", "edit")
    );
    assert!(report.results[2].granted_by.is_none());
    assert_eq!(
        report.missing,
        [
            MissingRule {
                namespace: None,
                rule: policy_rule(&["list"], &[""], &["nodes"]),
            },
            MissingRule {
                namespace: None,
                rule: policy_rule(&["list"], &["scheduling.k8s.io"], &["priorityclasses"]),
            },
            MissingRule {
                namespace: Some("gpu-test".into()),
                rule: policy_rule(&["update"], &[""], &["resourcequotas"]),
            },
            MissingRule {
                namespace: Some("gpu-test".into()),
                rule: policy_rule(
                    &["create"],
                    &["rbac.authorization.k8s.io"],
                    &["rolebindings"]
                ),
            },
        ]
    );
    // The captured rules review for gpu-test has no `*` rule, and `*`/`*` is denied.
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let posted: Vec<String> = api
        .requests()
        .iter()
        .filter(|r| r.method == "POST")
        .map(|r| r.path.clone())
        .collect();
    // 6 checks + `*` + one rules review (no list-secrets probe: the profile itself asks for
    // secrets).
    assert_eq!(posted.len(), 8, "{posted:?}");
    assert_eq!(
        posted
            .iter()
            .filter(|p| p.ends_with("selfsubjectrulesreviews"))
            .count(),
        1
    );
}

#[tokio::test]
async fn admin_credentials_are_flagged_over_privileged() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("admin-token", "admin", &["system:masters"])
        .start()
        .await;
    let reviewer = KubeReviewer::new(kube_client(&api, Some("admin-token"), TIMEOUT));
    let report = check_profile(&reviewer, &Profile::builtin("view-nodes").unwrap(), &[], 2)
        .await
        .unwrap();
    assert!(report.is_sufficient());
    assert!(matches!(
        report.warnings[0],
        OverPrivilege::ClusterAdmin { .. }
    ));
    assert!(
        report
            .warnings
            .iter()
            .any(|w| matches!(w, OverPrivilege::SecretsReadable { .. }))
    );
}

#[tokio::test]
async fn unreachable_reviews_are_failed_checks_not_a_crash() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki).token("t", "u", &[]).start().await;
    let reviewer = KubeReviewer::new(kube_client(&api, Some("bad-token"), TIMEOUT));
    let report = check_profile(
        &reviewer,
        &Profile::builtin("console-readonly").unwrap(),
        &[],
        4,
    )
    .await
    .unwrap();
    assert_eq!(report.results.len(), 12);
    assert!(report.results.iter().all(|r| r.outcome == Outcome::Failed));
    assert!(
        report.results[0]
            .error
            .contains("SelfSubjectAccessReview failed"),
        "{}",
        report.results[0].error
    );
    assert!(!report.is_sufficient());
}

#[tokio::test]
async fn bootstrap_token_and_token_request_live() {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let snapshot = json!({"kind": "List", "apiVersion": "v1", "items": [{
        "apiVersion": "v1", "kind": "Secret", "type": "bootstrap.kubernetes.io/token",
        "metadata": {"name": "bootstrap-token-abcdef", "namespace": "kube-system"},
        "data": {"token-id": b64("abcdef"), "token-secret": b64("0123456789abcdef"),
                 "expiration": b64("2026-12-01T10:00:00Z"),
                 "usage-bootstrap-authentication": b64("true"), "usage-bootstrap-signing": b64("true")}
    }]});
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("t", "admin", &["system:masters"])
        .snapshot_json(&snapshot.to_string())
        .start()
        .await;
    let client = kube_client(&api, Some("t"), TIMEOUT);
    let t = fetch_bootstrap_token(&client, "abcdef")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(t.secret_name, "bootstrap-token-abcdef");
    assert_eq!(t.usages, ["authentication", "signing"]);
    assert!(
        fetch_bootstrap_token(&client, "zzzzzz")
            .await
            .unwrap()
            .is_none()
    );

    // The double does not serve the TokenRequest subresource: a typed error, no token.
    let err = request_token(&client, "default", "cube", Some(600))
        .await
        .unwrap_err();
    assert!(matches!(err, ManifestError::TokenRequest { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "token request for serviceaccount default/cube failed"
    );
}
