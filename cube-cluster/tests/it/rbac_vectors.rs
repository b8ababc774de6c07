//! Conformance: every case of `testdata/vectors/rbac.json` through the offline evaluator.
//!
//! The expectation is what the real v1.36 API server answered (`real_v1_36.observed.allowed`),
//! falling back to the upstream test's `allowed` where the server was not asked.

use cube_cluster::rbac::{
    AccessRequest, NonResourceAttributes, RbacPolicy, ResourceAttributes, UserInfo, rules_allow,
};
use cube_model::objects::{ObjectMeta, PolicyRule, Role, RoleBinding, RoleRef, Subject};
use serde::Deserialize;

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/vectors/rbac.json");

/// Cases where we knowingly differ from the server, with the reason. Empty: none.
const KNOWN_DIVERGENCES: &[(&str, &str)] = &[];

#[derive(Deserialize)]
struct File {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    kind: String,
    name: String,
    #[serde(default)]
    rules: Vec<PolicyRule>,
    #[serde(default)]
    cluster_roles: Vec<VRole>,
    #[serde(default)]
    role_bindings: Vec<VBinding>,
    #[serde(default)]
    cluster_role_bindings: Vec<VBinding>,
    #[serde(default)]
    user: String,
    #[serde(default)]
    groups: Vec<String>,
    attributes: Attrs,
    allowed: bool,
    #[serde(rename = "real_v1_36")]
    real_v1_36: Real,
}

#[derive(Deserialize)]
struct VRole {
    name: String,
    #[serde(default)]
    namespace: String,
    rules: Vec<PolicyRule>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct VBinding {
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: String,
    role_ref: RoleRef,
    subjects: Vec<Subject>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Attrs {
    resource_request: bool,
    verb: String,
    #[serde(default)]
    api_group: String,
    #[serde(default)]
    resource: String,
    #[serde(default)]
    subresource: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: String,
    #[serde(default)]
    path: String,
}

#[derive(Deserialize)]
struct Real {
    checked: bool,
    #[serde(default)]
    observed: Option<Observed>,
}

#[derive(Deserialize)]
struct Observed {
    allowed: bool,
}

fn request(a: &Attrs) -> AccessRequest {
    if a.resource_request {
        AccessRequest::Resource(ResourceAttributes {
            namespace: a.namespace.clone(),
            verb: a.verb.clone(),
            group: a.api_group.clone(),
            version: String::new(),
            resource: a.resource.clone(),
            subresource: a.subresource.clone(),
            name: a.name.clone(),
        })
    } else {
        AccessRequest::NonResource(NonResourceAttributes {
            path: a.path.clone(),
            verb: a.verb.clone(),
        })
    }
}

fn binding(kind: &str, b: &VBinding) -> RoleBinding {
    RoleBinding {
        kind: kind.into(),
        metadata: ObjectMeta {
            name: b.name.clone(),
            namespace: b.namespace.clone(),
            ..Default::default()
        },
        subjects: b.subjects.clone(),
        role_ref: b.role_ref.clone(),
    }
}

fn policy(c: &Case) -> RbacPolicy {
    let roles = c.cluster_roles.iter().map(|r| Role {
        kind: if r.namespace.is_empty() {
            "ClusterRole"
        } else {
            "Role"
        }
        .into(),
        metadata: ObjectMeta {
            name: r.name.clone(),
            namespace: r.namespace.clone(),
            ..Default::default()
        },
        rules: r.rules.clone(),
        aggregation_rule: None,
    });
    let bindings = c
        .role_bindings
        .iter()
        .map(|b| binding("RoleBinding", b))
        .chain(
            c.cluster_role_bindings
                .iter()
                .map(|b| binding("ClusterRoleBinding", b)),
        );
    RbacPolicy::new(roles, bindings)
}

#[test]
fn every_rbac_vector_matches_the_real_server() {
    let text = std::fs::read_to_string(VECTORS).expect("read rbac.json");
    let file: File = serde_json::from_str(&text).expect("parse rbac.json");
    assert_eq!(file.cases.len(), 83, "vector file changed size");
    let (mut passed, mut diverged, mut failures) = (0, 0, Vec::new());
    for (i, c) in file.cases.iter().enumerate() {
        let expected = match (&c.real_v1_36.observed, c.real_v1_36.checked) {
            (Some(o), true) => o.allowed,
            _ => c.allowed,
        };
        let req = request(&c.attributes);
        let got = match c.kind.as_str() {
            "rule_allows" => rules_allow(&c.rules, &req),
            "authorize" => {
                let d = policy(c).authorize(&UserInfo::new(c.user.clone(), c.groups.clone()), &req);
                // An allow always names the binding, a plain denial carries no reason.
                if d.allowed {
                    assert!(
                        d.reason.starts_with("RBAC: allowed by "),
                        "case {i}: {}",
                        d.reason
                    );
                } else {
                    assert_eq!(d.reason, "", "case {i}");
                }
                d.allowed
            }
            other => panic!("case {i}: unknown kind {other}"),
        };
        if got == expected {
            passed += 1;
        } else if KNOWN_DIVERGENCES.iter().any(|(n, _)| *n == c.name) {
            diverged += 1;
        } else {
            failures.push(format!(
                "case {i} {:?}: {req} expected {expected}, got {got}",
                c.name
            ));
        }
    }
    eprintln!(
        "rbac vectors: {passed}/{} passed, {diverged} known divergences",
        file.cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(passed + diverged, file.cases.len());
}
