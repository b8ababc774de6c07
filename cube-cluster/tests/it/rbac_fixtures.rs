//! The offline evaluator against answers captured from a real v1.36 API server
//! (`testdata/fixtures/apiserver/selfsubject{access,rules}review.json`), plus aggregation and
//! YAML input.

use crate::support;

use cube_cluster::rbac::{
    AccessRequest, NonResourceAttributes, RbacPolicy, ResourceAttributes, UserInfo,
};
use cube_model::objects::PolicyRule;
use serde_json::Value;
use support::{SSAR_FIXTURE, SSRR_FIXTURE, testdata_json};

/// Rebuild the captured cluster's policy from what the server reported for user `limited`:
/// ClusterRole `edit` (the resource rules the rules review lists in gpu-test, minus the bootstrap
/// self-review rules) bound in gpu-test, and the bootstrap discovery/basic-user roles bound to
/// `system:authenticated`.
fn captured_policy() -> RbacPolicy {
    let ssrr = testdata_json(SSRR_FIXTURE);
    let gpu = &ssrr["cases"][0]["response"]["status"];
    let rules: Vec<PolicyRule> =
        serde_json::from_value(gpu["resourceRules"].clone()).expect("resource rules");
    let non_resource: Vec<PolicyRule> =
        serde_json::from_value(gpu["nonResourceRules"].clone()).expect("non-resource rules");
    let (basic, edit): (Vec<_>, Vec<_>) = rules
        .into_iter()
        .partition(|r| r.resources.iter().any(|x| x.starts_with("selfsubject")));
    let yaml = format!(
        r#"
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata: {{name: edit}}
rules: {edit}
---
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata: {{name: "system:basic-user"}}
rules: {basic}
---
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata: {{name: "system:discovery"}}
rules: {non_resource}
---
kind: RoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {{name: limited-edit, namespace: gpu-test}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}}
subjects: [{{kind: User, name: limited, apiGroup: rbac.authorization.k8s.io}}]
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {{name: "system:discovery"}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:discovery"}}
subjects: [{{kind: Group, name: "system:authenticated", apiGroup: rbac.authorization.k8s.io}}]
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {{name: "system:basic-user"}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:basic-user"}}
subjects: [{{kind: Group, name: "system:authenticated", apiGroup: rbac.authorization.k8s.io}}]
"#,
        edit = serde_json::to_string(&edit).unwrap(),
        basic = serde_json::to_string(&basic).unwrap(),
        non_resource = serde_json::to_string(&non_resource).unwrap(),
    );
    let p = RbacPolicy::from_yaml_str(&yaml).expect("policy yaml");
    assert!(p.notes.is_empty(), "{:?}", p.notes);
    p
}

fn spec_request(spec: &Value) -> AccessRequest {
    if let Some(ra) = spec.get("resourceAttributes") {
        AccessRequest::Resource(serde_json::from_value::<ResourceAttributes>(ra.clone()).unwrap())
    } else {
        AccessRequest::NonResource(
            serde_json::from_value::<NonResourceAttributes>(spec["nonResourceAttributes"].clone())
                .unwrap(),
        )
    }
}

#[test]
fn captured_access_reviews_are_reproduced_with_the_same_reason() {
    let policy = captured_policy();
    let ssar = testdata_json(SSAR_FIXTURE);
    let cases = ssar["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 15);
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let user = match c["user"].as_str().unwrap() {
            "admin" => UserInfo::authenticated("admin", ["system:masters"]),
            u => UserInfo::authenticated(u, ["limited-users"]),
        };
        let req = spec_request(&c["request"]["spec"]);
        let status = &c["response"]["status"];
        let d = policy.authorize(&user, &req);
        assert_eq!(
            d.allowed,
            status["allowed"].as_bool().unwrap(),
            "{name}: {req}"
        );
        assert_eq!(d.reason, status["reason"].as_str().unwrap_or(""), "{name}");
    }
}

#[test]
fn rules_for_lists_what_the_rules_review_lists() {
    let policy = captured_policy();
    let user = UserInfo::authenticated("limited", ["limited-users"]);
    let ssrr = testdata_json(SSRR_FIXTURE);
    for c in ssrr["cases"].as_array().unwrap() {
        let ns = c["request"]["spec"]["namespace"].as_str().unwrap();
        let status = &c["response"]["status"];
        let expected: Vec<PolicyRule> =
            serde_json::from_value(status["resourceRules"].clone()).unwrap();
        let (rules, errors) = policy.rules_for(&user, ns);
        assert!(errors.is_empty());
        let resource_rules: Vec<&PolicyRule> = rules
            .iter()
            .filter(|r| r.non_resource_urls.is_empty())
            .collect();
        for e in &expected {
            assert!(resource_rules.contains(&e), "{ns}: missing {e:?}");
        }
        assert_eq!(resource_rules.len(), expected.len(), "{ns}");
    }
    // The meta's conclusions: nothing on rbac or priorityclasses; quota read-only.
    let check = |verb: &str, group: &str, res: &str, allowed: bool| {
        let req = AccessRequest::resource(verb, group, res).in_namespace("gpu-test");
        assert_eq!(policy.authorize(&user, &req).allowed, allowed, "{req}");
    };
    check("create", "", "secrets", true);
    check("update", "batch", "jobs", true);
    check("get", "", "resourcequotas", true);
    check("update", "", "resourcequotas", false);
    check("update", "", "limitranges", false);
    check("get", "rbac.authorization.k8s.io", "roles", false);
    check("list", "scheduling.k8s.io", "priorityclasses", false);
    check("impersonate", "", "serviceaccounts", true);
}

#[test]
fn aggregation_replaces_rules_transitively_in_name_order() {
    let yaml = r#"
apiVersion: v1
kind: List
items:
- kind: ClusterRole
  apiVersion: rbac.authorization.k8s.io/v1
  metadata: {name: edit, labels: {rbac.authorization.k8s.io/aggregate-to-admin: "true"}}
  aggregationRule:
    clusterRoleSelectors: [{matchLabels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}}]
  rules: [{apiGroups: [""], resources: [secrets], verbs: ["*"]}]
- kind: ClusterRole
  apiVersion: rbac.authorization.k8s.io/v1
  metadata: {name: admin}
  aggregationRule:
    clusterRoleSelectors: [{matchLabels: {rbac.authorization.k8s.io/aggregate-to-admin: "true"}}]
- kind: ClusterRole
  apiVersion: rbac.authorization.k8s.io/v1
  metadata: {name: z-edit-extra, labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}}
  rules:
  - {apiGroups: [""], resources: [pods], verbs: [create]}
  - {apiGroups: [""], resources: [configmaps], verbs: [get]}
- kind: ClusterRole
  apiVersion: rbac.authorization.k8s.io/v1
  metadata: {name: a-edit-base, labels: {rbac.authorization.k8s.io/aggregate-to-edit: "true"}}
  rules:
  - {apiGroups: [""], resources: [configmaps], verbs: [get]}
- kind: ConfigMap
  apiVersion: v1
  metadata: {name: ignored}
"#;
    let p = RbacPolicy::from_yaml_str(yaml).unwrap();
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    let edit = p.cluster_role("edit").unwrap();
    // a-edit-base first (sorted by name), duplicate configmaps rule dropped, hand-written rule gone.
    let names: Vec<&str> = edit.rules.iter().map(|r| r.resources[0].as_str()).collect();
    assert_eq!(names, ["configmaps", "pods"]);
    // admin aggregates edit's aggregated rules (transitive).
    let admin = p.cluster_role("admin").unwrap();
    assert_eq!(admin.rules, edit.rules);
}

#[test]
fn service_account_and_group_subjects() {
    let yaml = r#"
kind: Role
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: runner, namespace: team-a}
rules: [{apiGroups: [batch], resources: [jobs], verbs: [create]}]
---
kind: RoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: all-sas, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: runner}
subjects: [{kind: Group, name: "system:serviceaccounts:team-a", apiGroup: rbac.authorization.k8s.io}]
"#;
    let p = RbacPolicy::from_yaml_str(yaml).unwrap();
    let req = AccessRequest::resource("create", "batch", "jobs").in_namespace("team-a");
    let d = p.authorize(&UserInfo::service_account("team-a", "ci"), &req);
    assert!(d.allowed);
    assert_eq!(
        d.reason,
        r#"RBAC: allowed by RoleBinding "all-sas/team-a" of Role "runner" to Group "system:serviceaccounts:team-a""#
    );
    assert!(
        !p.authorize(&UserInfo::service_account("team-b", "ci"), &req)
            .allowed
    );
    // A RoleBinding never grants outside its namespace, nor cluster-wide.
    let other = AccessRequest::resource("create", "batch", "jobs").in_namespace("team-b");
    assert!(
        !p.authorize(&UserInfo::service_account("team-a", "ci"), &other)
            .allowed
    );
    let cluster = AccessRequest::resource("create", "batch", "jobs");
    assert!(
        !p.authorize(&UserInfo::service_account("team-a", "ci"), &cluster)
            .allowed
    );
}

#[test]
fn aggregated_role_alone_keeps_its_stored_rules() {
    // `kubectl get clusterrole view -o yaml` alone: the controller filled its rules from roles
    // that are not in the input; replacing them by an empty union would deny everything.
    let yaml = r#"
kind: ClusterRole
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: view}
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}}]
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list, watch]}]
---
kind: ClusterRoleBinding
apiVersion: rbac.authorization.k8s.io/v1
metadata: {name: viewers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: Group, name: viewers, apiGroup: rbac.authorization.k8s.io}]
"#;
    let p = RbacPolicy::from_yaml_str(yaml).unwrap();
    assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
    assert!(p.notes[0].contains("clusterrole view"));
    let d = p.authorize(
        &UserInfo::authenticated("v", ["viewers"]),
        &AccessRequest::resource("list", "", "pods"),
    );
    assert!(d.allowed);
}
