//! Capability profiles: offline through the RBAC evaluator, and through replayed real
//! SelfSubjectAccessReview / SelfSubjectRulesReview answers (`testdata/fixtures/apiserver/`).

use crate::support;

use std::future::Future;

use cube_cluster::profiles::{
    AccessReviewer, CapabilityCheck, KubeReviewer, MissingRule, OfflineReviewer, Outcome,
    OverPrivilege, Profile, ProfileError, Scope, SelfSubjectAccessReview, SelfSubjectRulesReview,
    SubjectAccessReviewStatus, SubjectRulesReviewStatus, check_profile,
};
use cube_cluster::rbac::{AccessRequest, RbacPolicy, UserInfo};
use serde_json::Value;
use support::live::live_client;
use support::{SSAR_FIXTURE, SSRR_FIXTURE, policy_rule, testdata_json};

fn block_on<F: Future>(f: F) -> F::Output {
    futures::executor::block_on(f)
}

const POLICY: &str = r#"
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: cluster-admin}
rules:
- {apiGroups: ["*"], resources: ["*"], verbs: ["*"]}
- {nonResourceURLs: ["*"], verbs: ["*"]}
---
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: node-viewer}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list, watch]}]
---
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: submitter}
rules:
- {apiGroups: [""], resources: [pods], verbs: [create, get, list, watch]}
- {apiGroups: [""], resources: [pods/log], verbs: [get]}
- {apiGroups: [batch], resources: [jobs], verbs: [create]}
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: ops-nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-viewer}
subjects: [{kind: User, name: ops}]
---
kind: RoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: ops-submit, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: submitter}
subjects: [{kind: User, name: ops}]
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: importer-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: importer, namespace: kube-system}]
"#;

#[test]
fn offline_report_lists_outcomes_and_exact_missing_rules() {
    let policy = RbacPolicy::from_yaml_str(POLICY).unwrap();
    let ops = OfflineReviewer::new(policy, UserInfo::authenticated("ops", ["ops"]));

    let view = block_on(check_profile(
        &ops,
        &Profile::builtin("view-nodes").unwrap(),
        &[],
        4,
    ))
    .unwrap();
    assert!(view.is_sufficient());
    assert_eq!(
        view.results[0].reason,
        r#"RBAC: allowed by ClusterRoleBinding "ops-nodes" of ClusterRole "node-viewer" to User "ops""#
    );
    assert!(view.missing.is_empty());
    assert!(view.warnings.is_empty(), "{:?}", view.warnings);

    let console = block_on(check_profile(
        &ops,
        &Profile::builtin("console-readonly").unwrap(),
        &[],
        3,
    ))
    .unwrap();
    assert!(!console.is_sufficient());
    let allowed: Vec<String> = console
        .results
        .iter()
        .filter(|r| r.outcome == Outcome::Allowed)
        .map(|r| format!("{} {}", r.scoped.check.verb, r.scoped.check.resource))
        .collect();
    assert_eq!(allowed, ["get nodes", "list nodes", "watch nodes"]);
    assert!(
        console
            .results
            .iter()
            .filter(|r| r.outcome != Outcome::Allowed)
            .all(|r| r.outcome == Outcome::NoOpinion && r.reason.is_empty())
    );
    assert_eq!(
        console.missing,
        [MissingRule {
            namespace: None,
            rule: policy_rule(
                &["get", "list", "watch"],
                &[""],
                &["events", "namespaces", "pods"]
            ),
        }]
    );

    let ns = vec!["team-a".to_string(), "team-b".to_string()];
    let submit = block_on(check_profile(
        &ops,
        &Profile::builtin("workload-submit").unwrap(),
        &ns,
        2,
    ))
    .unwrap();
    assert_eq!(submit.results.len(), 14);
    // team-a: everything but deployments; team-b: nothing. Per group, rules are ordered by verb set.
    assert_eq!(
        submit.missing,
        [
            MissingRule {
                namespace: Some("team-a".into()),
                rule: policy_rule(&["create"], &["apps"], &["deployments"]),
            },
            MissingRule {
                namespace: Some("team-b".into()),
                rule: policy_rule(&["get"], &[""], &["pods/log"]),
            },
            MissingRule {
                namespace: Some("team-b".into()),
                rule: policy_rule(&["get", "list", "watch", "create"], &[""], &["pods"]),
            },
            MissingRule {
                namespace: Some("team-b".into()),
                rule: policy_rule(&["create"], &["apps"], &["deployments"]),
            },
            MissingRule {
                namespace: Some("team-b".into()),
                rule: policy_rule(&["create"], &["batch"], &["jobs"]),
            },
        ]
    );
    assert_eq!(
        submit.missing[0].to_string(),
        r#"Role in namespace team-a: {apiGroups: ["apps"], resources: ["deployments"], verbs: ["create"]}"#
    );
}

#[test]
fn cluster_admin_is_sufficient_but_warned() {
    let policy = RbacPolicy::from_yaml_str(POLICY).unwrap();
    let sa = OfflineReviewer::new(policy, UserInfo::service_account("kube-system", "importer"));
    let profile = Profile::builtin("resource-group-admin").unwrap();
    assert!(profile.notes[0].contains("escalate"));
    let report = block_on(check_profile(&sa, &profile, &[], 8)).unwrap();
    assert!(report.is_sufficient());
    assert_eq!(report.notes, profile.notes);
    let reason = r#"RBAC: allowed by ClusterRoleBinding "importer-admin" of ClusterRole "cluster-admin" to ServiceAccount "importer/kube-system""#;
    assert_eq!(
        report.warnings,
        [
            OverPrivilege::ClusterAdmin {
                reason: reason.into()
            },
            OverPrivilege::SecretsReadable {
                reason: reason.into()
            },
            OverPrivilege::WildcardRule {
                namespace: "default".into(),
                rule: policy_rule(&["*"], &["*"], &["*"]),
            },
        ]
    );
    assert!(report.warnings[0].to_string().contains("cluster-admin"));
}

#[test]
fn user_written_profile_loads_from_yaml() {
    let yaml = r#"
name: gpu-quota-reader
description: read quotas everywhere
checks:
  - {verb: list, group: "", resource: resourcequotas, scope: all-namespaces}
"#;
    let p = Profile::list_from_yaml_str(yaml).unwrap();
    assert_eq!(
        p[0].checks,
        [CapabilityCheck {
            verb: "list".into(),
            group: String::new(),
            resource: "resourcequotas".into(),
            subresource: String::new(),
            scope: Scope::AllNamespaces,
        }]
    );
    assert!(matches!(
        Profile::list_from_yaml_str("checks: 3"),
        Err(ProfileError::Parse { .. })
    ));
}

// ------------------------------------------------------------------ captured answers

/// Replays the captured answers of user `limited`: an SSAR request must serialize exactly as the
/// captured request for the captured response to be returned.
struct Replay {
    ssar: Vec<(Value, Value)>,
    ssrr: Vec<(String, Value)>,
}

impl Replay {
    fn limited() -> Self {
        let ssar = testdata_json(SSAR_FIXTURE)["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["user"] == "limited")
            .map(|c| (c["request"].clone(), c["response"].clone()))
            .collect();
        let ssrr = testdata_json(SSRR_FIXTURE)["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["request"]["spec"]["namespace"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                    c["response"].clone(),
                )
            })
            .collect();
        Replay { ssar, ssrr }
    }
}

fn not_captured(what: &str) -> ProfileError {
    ProfileError::Review {
        review: "SelfSubjectAccessReview",
        source: what.to_string().into(),
    }
}

#[async_trait::async_trait]
impl AccessReviewer for Replay {
    async fn review(
        &self,
        request: &AccessRequest,
    ) -> Result<SubjectAccessReviewStatus, ProfileError> {
        let body = serde_json::to_value(SelfSubjectAccessReview::new(request)).unwrap();
        self.ssar
            .iter()
            .find(|(req, _)| *req == body)
            .map(|(_, resp)| {
                let r: SelfSubjectAccessReview = serde_json::from_value(resp.clone()).unwrap();
                r.status.unwrap()
            })
            .ok_or_else(|| not_captured(&format!("not captured: {request}")))
    }

    async fn rules(&self, namespace: &str) -> Result<SubjectRulesReviewStatus, ProfileError> {
        self.ssrr
            .iter()
            .find(|(ns, _)| ns == namespace)
            .map(|(_, resp)| {
                let r: SelfSubjectRulesReview = serde_json::from_value(resp.clone()).unwrap();
                r.status.unwrap()
            })
            .ok_or_else(|| not_captured(namespace))
    }
}

#[test]
fn review_requests_serialize_as_the_captured_ones() {
    for c in testdata_json(SSAR_FIXTURE)["cases"].as_array().unwrap() {
        let spec = &c["request"]["spec"];
        let req = if let Some(ra) = spec.get("resourceAttributes") {
            AccessRequest::Resource(serde_json::from_value(ra.clone()).unwrap())
        } else {
            AccessRequest::NonResource(
                serde_json::from_value(spec["nonResourceAttributes"].clone()).unwrap(),
            )
        };
        assert_eq!(
            serde_json::to_value(SelfSubjectAccessReview::new(&req)).unwrap(),
            c["request"],
            "{}",
            c["name"]
        );
        let resp: SelfSubjectAccessReview = serde_json::from_value(c["response"].clone()).unwrap();
        let status = resp.status.unwrap();
        assert_eq!(
            status.allowed,
            c["response"]["status"]["allowed"].as_bool().unwrap()
        );
        assert_eq!(
            status.reason,
            c["response"]["status"]["reason"].as_str().unwrap_or("")
        );
        assert!(!status.denied);
    }
    for c in testdata_json(SSRR_FIXTURE)["cases"].as_array().unwrap() {
        let ns = c["request"]["spec"]["namespace"].as_str().unwrap();
        assert_eq!(
            serde_json::to_value(SelfSubjectRulesReview::new(ns)).unwrap(),
            c["request"]
        );
        let resp: SelfSubjectRulesReview = serde_json::from_value(c["response"].clone()).unwrap();
        let status = resp.status.unwrap();
        assert!(!status.incomplete);
        assert_eq!(
            status.resource_rules.len(),
            c["response"]["status"]["resourceRules"]
                .as_array()
                .unwrap()
                .len()
        );
    }
}

#[test]
fn captured_answers_make_a_report_with_server_reasons() {
    let yaml = r#"
name: captured
checks:
  - {verb: create, group: "", resource: pods, scope: namespaces}
  - {verb: list, group: "", resource: resourcequotas, scope: namespaces}
  - {verb: update, group: "", resource: resourcequotas, scope: namespaces}
  - {verb: create, group: rbac.authorization.k8s.io, resource: rolebindings, scope: namespaces}
  - {verb: list, group: "", resource: nodes, scope: cluster}
  - {verb: list, group: "", resource: pods, scope: all-namespaces}
"#;
    let profile = Profile::list_from_yaml_str(yaml).unwrap().remove(0);
    let ns = vec!["gpu-test".to_string()];
    let report = block_on(check_profile(&Replay::limited(), &profile, &ns, 4)).unwrap();
    let outcomes: Vec<Outcome> = report.results.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Allowed,
            Outcome::Allowed,
            Outcome::NoOpinion,
            Outcome::NoOpinion,
            Outcome::NoOpinion,
            Outcome::NoOpinion
        ]
    );
    assert_eq!(
        report.results[0].reason,
        r#"RBAC: allowed by RoleBinding "limited-edit/gpu-test" of ClusterRole "edit" to User "limited""#
    );
    assert_eq!(
        report.missing,
        [
            MissingRule {
                namespace: None,
                rule: policy_rule(&["list"], &[""], &["nodes", "pods"]),
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
    // The edit role has no `*` rule and no cluster-wide secrets: no warnings; rules complete.
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert!(!report.rules_incomplete);
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_profile_check() {
    let Some(client) = live_client() else {
        eprintln!("CUBE_E2E_KUBECONFIG not set: skipping");
        return;
    };
    let reviewer = KubeReviewer::new(client);
    let report = check_profile(&reviewer, &Profile::builtin("view-nodes").unwrap(), &[], 4)
        .await
        .unwrap();
    assert_eq!(report.results.len(), 2);
    assert_ne!(
        report.results[0].outcome,
        Outcome::Failed,
        "{:?}",
        report.results[0]
    );
}
