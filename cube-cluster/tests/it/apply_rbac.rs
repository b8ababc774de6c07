//! fresh-user G34: the `resource-group-admin` profile granted `create` and `update` only, while
//! `group_plan --diff/--apply/--prune` reads every object (`get`), lists the group's objects by
//! label (`list`), writes with server-side apply (`patch`, authorized as `create` too when the
//! object does not exist yet: k8s.io/apiserver pkg/endpoints/handlers/patch.go) and prunes
//! (`delete`). A plan is applied, changed and pruned against the in-memory API server; every
//! request it recorded is authorized against the ServiceAccount the profile's least-privilege
//! manifests mint.

use crate::support;

use std::sync::Arc;

use cube_cluster::apply::{ApplyOptions, ApplyOutcome, PlanObjects, apply_plan};
use cube_cluster::manifests::{ManifestOptions, manifests_for};
use cube_cluster::memory::{MemoryCluster, RecordedRequest};
use cube_cluster::profiles::Profile;
use cube_cluster::rbac::{AccessRequest, RbacPolicy, UserInfo};
use cube_model::ResourceGroup;
use cube_quota::plan::plan_group;

const GROUP: &str = r#"
name: nlp
owner: alice
members:
  - {name: alice, role: admin}
  - {name: bob, role: developer}
quota:
  - name: compute
    hard: {requests.cpu: "16", requests.memory: 64Gi, requests.nvidia.com/gpu: "8", pods: "40"}
namespaces:
  - {name: nlp-train, sharePercent: 50}
  - {name: nlp-serve, sharePercent: 50}
priority: {className: nlp-normal, value: 1000}
containerDefaults:
  defaultRequest: {cpu: 500m, memory: 1Gi}
  defaultLimit: {cpu: "2", memory: 4Gi}
"#;

fn plan_of(yaml: &str) -> PlanObjects {
    let g = ResourceGroup::from_yaml(yaml).unwrap();
    let plan = plan_group(&g, None).unwrap();
    PlanObjects::from_manifests(std::slice::from_ref(&g.name), &plan.manifests).unwrap()
}

/// The RBAC requests of one recorded HTTP request: `(verb, group, resource, namespace)`. A
/// server-side apply PATCH is `patch`, and `create` too when it created the object (201).
fn rbac_requests(r: &RecordedRequest) -> Vec<(String, String, String, String)> {
    let segs: Vec<&str> = r.path.trim_matches('/').split('/').collect();
    let (group, rest) = match segs.as_slice() {
        ["api", "v1", rest @ ..] => (String::new(), rest.to_vec()),
        ["apis", g, _v, rest @ ..] => ((*g).to_owned(), rest.to_vec()),
        _ => return Vec::new(),
    };
    let (namespace, rest) = match rest.as_slice() {
        // a namespace object itself: `namespaces/<name>`
        ["namespaces", ns, res, tail @ ..] => ((*ns).to_owned(), {
            let mut v = vec![*res];
            v.extend_from_slice(tail);
            v
        }),
        other => (String::new(), other.to_vec()),
    };
    let (resource, named) = match rest.as_slice() {
        [res] => ((*res).to_owned(), false),
        [res, _name] => ((*res).to_owned(), true),
        _ => return Vec::new(),
    };
    let verbs: Vec<&str> = match (r.method.as_str(), named) {
        ("GET", true) => vec!["get"],
        ("GET", false) => vec!["list"],
        ("PATCH", _) if r.code == 201 => vec!["patch", "create"],
        ("PATCH", _) => vec!["patch"],
        ("DELETE", _) => vec!["delete"],
        ("POST", _) => vec!["create"],
        ("PUT", _) => vec!["update"],
        _ => vec![],
    };
    verbs
        .into_iter()
        .map(|v| {
            (
                v.to_owned(),
                group.clone(),
                resource.clone(),
                namespace.clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_resource_group_admin_profile_grants_every_request_group_plan_makes() {
    let mem = Arc::new(MemoryCluster::new().with_fixed_time("2026-12-01T10:00:00Z"));
    let client = support::memory_client(mem.clone());
    let plan = plan_of(GROUP);
    let r = apply_plan(&client, &plan, &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied, "{r:#?}");
    // changed: a member removed (its Role and RoleBinding pruned), applied again with prune
    let v2 = GROUP.replace("  - {name: bob, role: developer}\n", "");
    let r = apply_plan(
        &client,
        &plan_of(&v2),
        &ApplyOptions {
            prune: true,
            ..ApplyOptions::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied, "{r:#?}");
    let dry = apply_plan(
        &client,
        &plan_of(&v2),
        &ApplyOptions {
            dry_run_only: true,
            ..ApplyOptions::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(dry.outcome, ApplyOutcome::DryRunPassed);

    let profile = Profile::builtin("resource-group-admin").unwrap();
    let m = manifests_for(
        &profile,
        &[],
        &ManifestOptions::new("cube-console", "cube-system"),
    )
    .unwrap();
    let policy = RbacPolicy::from_text(&m.to_yaml().unwrap(), "resource-group-admin").unwrap();
    let sa = UserInfo::service_account("cube-system", "cube-console");
    let mut verbs = std::collections::BTreeSet::new();
    let reqs = mem.requests();
    assert!(reqs.len() > 20, "{}", reqs.len());
    for q in &reqs {
        let asked = rbac_requests(q);
        assert!(!asked.is_empty(), "unmapped request {q}");
        for (verb, group, resource, ns) in asked {
            let req = AccessRequest::resource(&verb, &group, &resource).in_namespace(&ns);
            let d = policy.authorize(&sa, &req);
            assert!(d.allowed, "{q}: {req} denied: {}", d.reason);
            verbs.insert(verb);
        }
    }
    // every verb of the class was exercised
    for v in ["get", "list", "patch", "create", "delete"] {
        assert!(verbs.contains(v), "{v} never used: {verbs:?}");
    }
}

/// H25: the member Roles grant permissions the applier may not hold; the API server's RBAC
/// escalation prevention refuses them (kubernetes `pkg/registry/rbac/validation/rule.go`
/// `ConfirmNoEscalation`, Forbidden) and the rejection says why and what to grant. The
/// resource-group-admin profile asks for `escalate` and `bind` on roles.
#[tokio::test]
async fn an_escalation_refusal_is_explained_and_the_profile_asks_for_escalate_and_bind() {
    use cube_cluster::memory::AdmissionOperation;
    let mem = Arc::new(
        MemoryCluster::new()
            .with_fixed_time("2026-12-01T10:00:00Z")
            .admit_with(|req| {
                (req.target.resource.kind == "Role" && req.operation == AdmissionOperation::Create)
                    .then(|| kube::core::Status {
                        status: Some(kube::core::response::StatusSummary::Failure),
                        code: 403,
                        reason: "Forbidden".to_owned(),
                        message: format!(
                            "roles.rbac.authorization.k8s.io {:?} is forbidden: user \"console\" (groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n{{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"create\"]}}",
                            req.target.name
                        ),
                        ..Default::default()
                    })
            }),
    );
    for ns in ["nlp-train", "nlp-serve"] {
        mem.insert(
            serde_json::json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}),
        )
        .unwrap();
    }
    let client = support::memory_client(mem.clone());
    let r = apply_plan(&client, &plan_of(GROUP), &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::DryRunRejected);
    let roles: Vec<_> = r
        .rejections
        .iter()
        .filter(|x| x.object.starts_with("Role/"))
        .collect();
    assert!(!roles.is_empty(), "{r:#?}");
    for x in roles {
        assert_eq!(x.code, 403);
        let hint = x.hint.as_deref().expect("explained");
        assert!(hint.starts_with("RBAC escalation prevention: "), "{hint}");
        assert!(
            hint.contains("`escalate`") && hint.contains("`bind`"),
            "{hint}"
        );
    }
    // other refusals carry no hint
    assert!(
        r.rejections
            .iter()
            .all(|x| x.object.starts_with("Role/") == x.hint.is_some())
    );
    let profile = Profile::builtin("resource-group-admin").unwrap();
    for verb in ["escalate", "bind"] {
        assert!(
            profile.checks.iter().any(|c| c.verb == verb
                && c.resource == "roles"
                && c.group == "rbac.authorization.k8s.io"),
            "{verb}"
        );
    }
}
