//! `cluster-over-privileged`: the importing identity holds more than the console needs.

use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    ClusterOverPrivileged,
    "cluster-over-privileged",
    Import,
    Warning,
    "The identity used to import a cluster holds more than the capability profile needs: membership in system:masters (cluster-admin regardless of RBAC), wildcard rules, or permissions listed as over-privileges by the import report. Use a dedicated ServiceAccount with a least-privilege ClusterRole instead.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let mut ev: Vec<Evidence> = r
            .over_privileges
            .iter()
            .map(|o| {
                Evidence::field(
                    format!("Cluster/{}", r.cluster_name),
                    &o.permission,
                    &o.message,
                )
            })
            .collect();
        if r.groups.iter().any(|g| g == "system:masters") {
            ev.insert(
                0,
                Evidence::field(
                    format!("Cluster/{}", r.cluster_name),
                    "user.groups",
                    "system:masters (cluster-admin regardless of RBAC)",
                ),
            );
        }
        if ev.is_empty() {
            continue;
        }
        out.push(
            Finding::new(ClusterOverPrivileged::ID, Severity::Warning, Subject::cluster(&r.cluster_name), format!("cluster {} is imported with an identity ({}) that holds more than the console needs ({} item(s))", r.cluster_name, if r.username.is_empty() { "unknown user" } else { &r.username }, ev.len()))
                .with_evidences(ev)
                .with_remedy("create a dedicated ServiceAccount with a least-privilege ClusterRole for the console's capability profile and import with its token instead of an admin kubeconfig"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::{Context, Engine};
    use cube_model::import::ImportReport;

    #[test]
    fn masters_group_is_reported_plain_user_is_not() {
        let snap = cube_model::ClusterSnapshot::default();
        let mut admin = ImportReport::new("prod", "https://192.0.2.1:6443");
        admin.groups = vec!["system:masters".into(), "system:authenticated".into()];
        let r = Engine::new().run(&Context::new(&snap).with_import(admin));
        assert_eq!(r.by_rule("cluster-over-privileged").count(), 1);
        let mut limited = ImportReport::new("prod", "https://192.0.2.1:6443");
        limited.groups = vec!["limited-users".into()];
        let r = Engine::new().run(&Context::new(&snap).with_import(limited));
        assert_eq!(r.by_rule("cluster-over-privileged").count(), 0);
    }
}
