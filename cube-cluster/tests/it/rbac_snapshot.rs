//! The offline evaluator over the RBAC objects of a real v1.36 control plane
//! (`testdata/fixtures/apiserver/snapshot-gpu-cluster.json`, bootstrap roles included): the
//! aggregated `edit` role, the captured review answers of user `limited`, and the planted
//! dangling roleRef.

use cube_cluster::profiles::{OfflineReviewer, Outcome, Profile, check_profile};
use cube_cluster::rbac::{AccessRequest, BindingKind, RbacPolicy, ResourceAttributes, UserInfo};
use cube_model::ClusterSnapshot;
use cube_model::objects::PolicyRule;
use serde_json::Value;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/fixtures/apiserver/"
);

fn load(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).expect("read fixture")
}

fn policy() -> RbacPolicy {
    let snap = ClusterSnapshot::from_slice(
        "snapshot-gpu-cluster.json",
        &load("snapshot-gpu-cluster.json"),
    );
    assert_eq!(snap.roles.len(), 80);
    assert_eq!(snap.role_bindings.len(), 65);
    RbacPolicy::from_snapshot(&snap)
}

fn limited() -> UserInfo {
    UserInfo::authenticated("limited", ["limited-users"])
}

#[test]
fn dangling_role_ref_is_the_planted_one() {
    let p = policy();
    let dangling = p.dangling_role_refs();
    assert_eq!(dangling.len(), 1, "{dangling:?}");
    let d = &dangling[0];
    assert_eq!(d.binding_kind, BindingKind::RoleBinding);
    assert_eq!(
        (d.binding_namespace.as_str(), d.binding_name.as_str()),
        ("team-nlp", "nlp-readers")
    );
    assert_eq!(
        d.message,
        r#"clusterrole.rbac.authorization.k8s.io "nlp-reader" not found"#
    );
    // §10.10: the missing role shows up as the reason of a review that is not allowed.
    let member = UserInfo::authenticated("bob", ["nlp-members"]);
    let denied = p.authorize(
        &member,
        &AccessRequest::resource("list", "", "configmaps").in_namespace("team-nlp"),
    );
    assert!(!denied.allowed);
    assert_eq!(
        denied.reason,
        r#"RBAC: clusterrole.rbac.authorization.k8s.io "nlp-reader" not found"#
    );
    // What the other binding grants is still allowed, with its own reason.
    let allowed = p.authorize(
        &member,
        &AccessRequest::resource("delete", "", "pods").in_namespace("team-nlp"),
    );
    assert_eq!(
        allowed.reason,
        r#"RBAC: allowed by RoleBinding "nlp-job-runners/team-nlp" of Role "nlp-job-runner" to Group "nlp-members""#
    );
}

#[test]
fn captured_reviews_of_limited_are_reproduced_from_the_real_objects() {
    let p = policy();
    let ssar: Value = serde_json::from_slice(&load("selfsubjectaccessreview.json")).unwrap();
    let mut checked = 0;
    for c in ssar["cases"].as_array().unwrap() {
        let user = match c["user"].as_str().unwrap() {
            "admin" => UserInfo::authenticated("admin", ["system:masters"]),
            _ => limited(),
        };
        let spec = &c["request"]["spec"];
        let req = match spec.get("resourceAttributes") {
            Some(ra) => AccessRequest::Resource(
                serde_json::from_value::<ResourceAttributes>(ra.clone()).unwrap(),
            ),
            None => AccessRequest::NonResource(
                serde_json::from_value(spec["nonResourceAttributes"].clone()).unwrap(),
            ),
        };
        let status = &c["response"]["status"];
        let d = p.authorize(&user, &req);
        assert_eq!(
            d.allowed,
            status["allowed"].as_bool().unwrap(),
            "{}: {req}",
            c["name"]
        );
        assert_eq!(
            d.reason,
            status["reason"].as_str().unwrap_or(""),
            "{}",
            c["name"]
        );
        checked += 1;
    }
    assert_eq!(checked, 15);
}

#[test]
fn rules_review_of_limited_is_reproduced_from_the_real_objects() {
    let p = policy();
    let ssrr: Value = serde_json::from_slice(&load("selfsubjectrulesreview.json")).unwrap();
    for c in ssrr["cases"].as_array().unwrap() {
        let ns = c["request"]["spec"]["namespace"].as_str().unwrap();
        let status = &c["response"]["status"];
        let mut expected: Vec<PolicyRule> =
            serde_json::from_value(status["resourceRules"].clone()).unwrap();
        let (rules, errors) = p.rules_for(&limited(), ns);
        assert!(errors.is_empty(), "{errors:?}");
        let mut got: Vec<PolicyRule> = rules
            .into_iter()
            .filter(|r| r.non_resource_urls.is_empty())
            .collect();
        let key = |r: &PolicyRule| serde_json::to_string(r).unwrap();
        got.sort_by_key(key);
        got.dedup();
        expected.sort_by_key(key);
        assert_eq!(got, expected, "{ns}");
    }
}

#[test]
fn profiles_for_the_limited_user() {
    let reviewer = OfflineReviewer::new(policy(), limited());
    let ns = vec!["gpu-test".to_string()];
    let submit = futures::executor::block_on(check_profile(
        &reviewer,
        &Profile::builtin("workload-submit").unwrap(),
        &ns,
        4,
    ))
    .unwrap();
    assert!(submit.is_sufficient(), "{:?}", submit.results);
    // edit is broad (secrets, pods/exec) but has no `*` rule and no cluster-wide secrets.
    assert!(submit.warnings.is_empty(), "{:?}", submit.warnings);
    let console = futures::executor::block_on(check_profile(
        &reviewer,
        &Profile::builtin("console-readonly").unwrap(),
        &ns,
        4,
    ))
    .unwrap();
    assert!(
        console
            .results
            .iter()
            .all(|r| r.outcome == Outcome::NoOpinion)
    );
}

#[test]
fn system_masters_is_cluster_admin_by_binding_too() {
    let p = policy();
    // cluster-admin is bound to system:masters; evaluated without the pre-RBAC shortcut the
    // binding itself is what allows (a user merely in the group sees the masters shortcut).
    let d = p.authorize(
        &UserInfo::authenticated("root", ["system:masters"]),
        &AccessRequest::resource("*", "*", "*"),
    );
    assert!(d.allowed);
    assert_eq!(d.reason, "");
    let rules = p.cluster_role("cluster-admin").unwrap();
    assert!(
        rules
            .rules
            .iter()
            .any(|r| r.verbs == ["*"] && r.resources == ["*"])
    );
}
