//! `rbac-dangling-roleref`: a binding names a Role or ClusterRole that does not exist.

use std::collections::HashSet;

use crate::rules::obj;
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    RbacDanglingRoleRef,
    "rbac-dangling-roleref",
    Rbac,
    Error,
    "A RoleBinding or ClusterRoleBinding references a Role (in its namespace) or ClusterRole that is not in the snapshot: the subjects get no permissions from it and SubjectAccessReviews say 'RBAC: clusterrole ... not found'. Only checked when the snapshot holds roles of that kind.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let cluster_roles: HashSet<&str> = snap
        .roles
        .iter()
        .filter(|r| r.kind == "ClusterRole")
        .map(|r| r.metadata.name.as_str())
        .collect();
    let roles: HashSet<(&str, &str)> = snap
        .roles
        .iter()
        .filter(|r| r.kind != "ClusterRole")
        .map(|r| (r.metadata.namespace.as_str(), r.metadata.name.as_str()))
        .collect();
    let mut out = Vec::new();
    for b in &snap.role_bindings {
        let rr = &b.role_ref;
        // a kind that could not be read completely proves no absence
        if crate::rules::unread(ctx, rr.kind.as_str()).is_some() {
            continue;
        }
        let missing = match rr.kind.as_str() {
            "ClusterRole" => !cluster_roles.is_empty() && !cluster_roles.contains(rr.name.as_str()),
            "Role" => {
                !roles.is_empty()
                    && !roles.contains(&(b.metadata.namespace.as_str(), rr.name.as_str()))
            }
            _ => false,
        };
        if !missing {
            continue;
        }
        let kind = if b.kind.is_empty() {
            "RoleBinding"
        } else {
            b.kind.as_str()
        };
        let ns = &b.metadata.namespace;
        let subjects: Vec<String> = b
            .subjects
            .iter()
            .map(|s| format!("{} {}", s.kind, s.name))
            .collect();
        out.push(
            Finding::new(RbacDanglingRoleRef::ID, Severity::Error, if ns.is_empty() { Subject::cluster_scoped(kind, &b.metadata.name) } else { Subject::namespaced(kind, ns, &b.metadata.name) }, format!("{kind} {} references {} {} which does not exist: {} get nothing from it", if ns.is_empty() { b.metadata.name.clone() } else { format!("{ns}/{}", b.metadata.name) }, rr.kind, rr.name, subjects.join(", ")))
                .with_evidence(Evidence::field(obj(kind, ns, &b.metadata.name), "roleRef", format!("{}/{}", rr.kind, rr.name)))
                .with_remedy(format!("create the {} `{}` (`kubectl create {} {} --verb=get,list,watch --resource=...`) or point the binding at an existing one (roleRef is immutable: delete and recreate the binding)", rr.kind, rr.name, rr.kind.to_lowercase(), rr.name)),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn missing_and_present_cluster_role() {
        let s = r#"{"kind":"List","items":[{"kind":"ClusterRole","metadata":{"name":"view"}},
          {"kind":"RoleBinding","metadata":{"name":"b","namespace":"a"},"roleRef":{"kind":"ClusterRole","name":"nlp-reader"},"subjects":[{"kind":"Group","name":"g"}]},
          {"kind":"RoleBinding","metadata":{"name":"c","namespace":"a"},"roleRef":{"kind":"ClusterRole","name":"view"}}]}"#;
        let f = run_rule("rbac-dangling-roleref", s);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].subject.name, "b");
    }
}
