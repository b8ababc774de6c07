//! The generated manifests, read back through the offline RBAC evaluator for the ServiceAccount:
//! every check of the profile is allowed, and nothing else is.

use crate::support;

use base64::Engine as _;
use cube_cluster::manifests::{
    BearerToken, ManifestOptions, ServiceAccountKubeconfig, manifests_for, token_from_secret,
};
use cube_cluster::profiles::{OfflineReviewer, Profile, Scope, check_profile};
use cube_cluster::rbac::{AccessRequest, RbacPolicy, UserInfo};
use support::live::live_client;

const SA: &str = "cube-console";
const SA_NS: &str = "cube-system";

/// Requests a console might be tempted to grant, across namespaces.
const VERBS: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "escalate",
    "bind",
    "impersonate",
    "*",
];
const RESOURCES: &[(&str, &str, &str)] = &[
    ("", "nodes", ""),
    ("", "nodes", "status"),
    ("", "namespaces", ""),
    ("", "pods", ""),
    ("", "pods", "log"),
    ("", "pods", "exec"),
    ("", "pods", "status"),
    ("", "events", ""),
    ("", "secrets", ""),
    ("", "configmaps", ""),
    ("", "serviceaccounts", ""),
    ("", "serviceaccounts", "token"),
    ("", "resourcequotas", ""),
    ("", "resourcequotas", "status"),
    ("", "limitranges", ""),
    ("", "persistentvolumes", ""),
    ("apps", "deployments", ""),
    ("apps", "deployments", "scale"),
    ("apps", "daemonsets", ""),
    ("batch", "jobs", ""),
    ("rbac.authorization.k8s.io", "roles", ""),
    ("rbac.authorization.k8s.io", "rolebindings", ""),
    ("rbac.authorization.k8s.io", "clusterroles", ""),
    ("rbac.authorization.k8s.io", "clusterrolebindings", ""),
    ("scheduling.k8s.io", "priorityclasses", ""),
    ("*", "*", ""),
];
const NAMESPACES: &[&str] = &["", "team-a", "team-b", "kube-system", SA_NS];

fn profile_allows(profile: &Profile, namespaces: &[String], req: &AccessRequest) -> bool {
    let AccessRequest::Resource(a) = req else {
        return false;
    };
    profile.checks.iter().any(|c| {
        c.verb == a.verb
            && c.group == a.group
            && c.resource == a.resource
            && c.subresource == a.subresource
            && match c.scope {
                Scope::Cluster | Scope::AllNamespaces => true,
                Scope::Namespaces => namespaces.contains(&a.namespace),
                _ => false,
            }
    })
}

#[track_caller]
fn check_least_privilege(name: &str, namespaces: &[&str]) {
    let profile = Profile::builtin(name).unwrap();
    let namespaces: Vec<String> = namespaces.iter().map(|s| s.to_string()).collect();
    let opts = ManifestOptions::new(SA, SA_NS).with_token_secret();
    let m = manifests_for(&profile, &namespaces, &opts).unwrap();
    let yaml = m.to_yaml().unwrap();
    assert!(!yaml.contains('*'), "{name}: wildcard in\n{yaml}");
    assert!(!yaml.contains("resourceNames"), "{yaml}");

    let policy = RbacPolicy::from_text(&yaml, name).unwrap();
    // Only the Namespace, the ServiceAccount and the token Secret are not RBAC objects.
    assert_eq!(policy.notes.len(), 3, "{:?}", policy.notes);
    // The namespace comes first, so `kubectl apply` works on a fresh server (NamespaceLifecycle
    // refuses objects in a namespace that does not exist).
    assert!(
        yaml.starts_with(&format!(
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  labels:\n    app.kubernetes.io/managed-by: cube-rs\n  name: {SA_NS}\n"
        )),
        "{yaml}"
    );
    assert!(policy.dangling_role_refs().is_empty());
    let sa = UserInfo::service_account(SA_NS, SA);

    // Every check allowed, no over-privilege.
    let reviewer = OfflineReviewer::new(policy.clone(), sa.clone());
    let report =
        futures::executor::block_on(check_profile(&reviewer, &profile, &namespaces, 4)).unwrap();
    assert!(report.is_sufficient(), "{name}: {:?}", report.results);
    assert!(report.missing.is_empty());
    assert!(report.warnings.is_empty(), "{name}: {:?}", report.warnings);

    // Nothing else.
    let mut allowed = 0;
    for verb in VERBS {
        for (group, resource, sub) in RESOURCES {
            for ns in NAMESPACES {
                let req = AccessRequest::resource(verb, group, resource)
                    .with_subresource(sub)
                    .in_namespace(ns);
                let d = policy.authorize(&sa, &req);
                if d.allowed {
                    allowed += 1;
                    assert!(
                        profile_allows(&profile, &namespaces, &req),
                        "{name}: grants {req} beyond the profile ({})",
                        d.reason
                    );
                }
            }
        }
    }
    assert!(allowed > 0);
    // Other subjects get nothing from these manifests.
    let other = UserInfo::service_account("team-a", SA);
    for c in &profile.checks {
        let req = c.request(namespaces.first().map(String::as_str).unwrap_or(""));
        assert!(!policy.authorize(&other, &req).allowed, "{req}");
    }
}

#[test]
fn view_nodes_manifests_are_least_privilege() {
    check_least_privilege("view-nodes", &[]);
}

#[test]
fn console_readonly_manifests_are_least_privilege() {
    check_least_privilege("console-readonly", &[]);
}

#[test]
fn resource_group_admin_manifests_are_least_privilege() {
    check_least_privilege("resource-group-admin", &[]);
}

#[test]
fn workload_submit_manifests_are_least_privilege() {
    check_least_privilege("workload-submit", &["team-a", "team-b"]);
}

#[test]
fn workload_submit_objects_are_roles_per_namespace() {
    let profile = Profile::builtin("workload-submit").unwrap();
    let ns = vec!["team-a".to_string(), "team-b".to_string()];
    let m = manifests_for(
        &profile,
        &ns,
        &ManifestOptions::new(SA, SA_NS).role_name("submit"),
    )
    .unwrap();
    assert!(m.cluster_role.is_none() && m.cluster_role_binding.is_none());
    assert_eq!(m.roles.len(), 2);
    assert_eq!(m.roles[1].metadata.namespace.as_deref(), Some("team-b"));
    assert_eq!(m.role_bindings[0].role_ref.kind, "Role");
    assert_eq!(m.role_bindings[0].role_ref.name, "submit");
    let subj = &m.role_bindings[0].subjects.as_ref().unwrap()[0];
    assert_eq!(
        (subj.kind.as_str(), subj.namespace.as_deref()),
        ("ServiceAccount", Some(SA_NS))
    );
    assert!(m.token_secret.is_none());
    let yaml = m.to_yaml().unwrap();
    // Namespace, ServiceAccount, two Roles, two RoleBindings.
    assert_eq!(yaml.matches("\n---\n").count() + 1, 6, "{yaml}");
    assert!(
        yaml.starts_with("apiVersion: v1\nkind: Namespace\n"),
        "{yaml}"
    );
    assert!(
        yaml.contains("\n---\napiVersion: v1\nkind: ServiceAccount\n"),
        "{yaml}"
    );
}

#[test]
fn kubeconfig_for_the_service_account_loads_in_kube() {
    let ca_pem = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";
    let kc = ServiceAccountKubeconfig::new(
        "gpu-prod",
        "https://127.0.0.1:6443",
        Some(ca_pem.to_string()),
        SA_NS,
        SA,
        BearerToken::new("token-value-123"),
    );
    for shown in [format!("{kc:?}"), kc.to_string()] {
        assert!(!shown.contains("token-value-123"), "{shown}");
    }
    let text = kc.to_yaml().unwrap();
    let parsed = kube::config::Kubeconfig::from_yaml(&text).unwrap();
    assert_eq!(
        parsed.current_context.as_deref(),
        Some("cube-system:cube-console@gpu-prod")
    );
    let cluster = parsed.clusters[0].cluster.as_ref().unwrap();
    assert_eq!(cluster.server.as_deref(), Some("https://127.0.0.1:6443"));
    let ca = base64::engine::general_purpose::STANDARD
        .decode(cluster.certificate_authority_data.as_ref().unwrap())
        .unwrap();
    assert_eq!(ca, ca_pem.as_bytes());
    let user = parsed.auth_infos[0].auth_info.as_ref().unwrap();
    assert!(user.token.is_some());
    let raw: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    assert_eq!(raw["users"][0]["user"]["token"], "token-value-123");
    let ctx = parsed.contexts[0].context.as_ref().unwrap();
    assert_eq!(ctx.namespace.as_deref(), Some(SA_NS));
}

#[test]
fn token_and_ca_from_a_filled_token_secret() {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let secret = serde_json::json!({
        "kind": "Secret",
        "type": "kubernetes.io/service-account-token",
        "metadata": {"name": "cube-console-token", "namespace": SA_NS},
        "data": {"token": b64("tok"), "ca.crt": b64("PEM")}
    });
    let (token, ca) = token_from_secret(&secret).unwrap();
    assert_eq!(token.expose_secret(), "tok");
    assert_eq!(ca.as_deref(), Some("PEM"));
    let empty = serde_json::json!({"metadata": {"name": "x"}, "data": {}});
    let e = token_from_secret(&empty).unwrap_err();
    assert_eq!(e.to_string(), "no token in secret x");
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_token_request() {
    let Some(client) = live_client() else {
        eprintln!("CUBE_E2E_KUBECONFIG not set: skipping");
        return;
    };
    // The `default` ServiceAccount exists in every namespace.
    match cube_cluster::manifests::request_token(&client, "default", "default", Some(600)).await {
        Ok(t) => assert!(!t.token.expose_secret().is_empty()),
        Err(e) => assert!(e.to_string().contains("token request"), "{e}"),
    }
}
