//! `cluster-forbidden`: RBAC denies a permission the console needs (not an admission or quota 403).

use cube_model::import::ConnectionClass;

use crate::classify::SignalKind;
use crate::rules::{signal_error, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    ClusterForbidden,
    "cluster-forbidden",
    Import,
    Error,
    "The authorizer (RBAC) denies a request: a required check of the import report is not allowed, or a text shows 'User X cannot `<verb>` resource `<r>`'. 403s from admission webhooks, quotas or anonymous users are not reported here (they are not missing permissions). The remedy names the minimal rule: a ClusterRole for cluster-scoped resources, a Role in the namespace otherwise; a kubelet identity (system:node:...) points at the Node authorizer.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let denied: Vec<_> = r
            .rbac_checks
            .iter()
            .filter(|c| c.required && !c.allowed)
            .collect();
        if denied.is_empty() && r.connection.class != ConnectionClass::Forbidden {
            continue;
        }
        out.push(
            Finding::new(ClusterForbidden::ID, Severity::Error, Subject::cluster(&r.cluster_name), format!("cluster {}: {} required permission(s) denied for {}", r.cluster_name, denied.len().max(1), if r.username.is_empty() { "the kubeconfig user" } else { &r.username }))
                .with_evidences(denied.iter().map(|c| Evidence::field(format!("Cluster/{}", r.cluster_name), "selfsubjectaccessreview", format!("{} {}{} in {}: denied", c.verb, if c.group.is_empty() { String::new() } else { format!("{}/", c.group) }, c.resource, if c.namespace.is_empty() { "cluster scope" } else { &c.namespace }))))
                .with_remedy("grant exactly the listed verbs with a ClusterRole + ClusterRoleBinding (cluster scope) or Role + RoleBinding (namespaced) for the importing identity"),
        );
    }
    for s in signals(ctx, &[SignalKind::RbacForbidden]) {
        let (user, verb, res, scope) = (
            s.detail("user"),
            s.detail("verb"),
            s.detail("resource"),
            s.detail("scope"),
        );
        let remedy = if s.detail("node_identity") == "true" {
            format!(
                "the kubelet identity {user} lacks node permissions: enable the Node authorizer (--authorization-mode=Node,RBAC) and NodeRestriction, and make sure the kubelet's certificate has O=system:nodes"
            )
        } else if scope == "cluster" {
            format!(
                "kubectl create clusterrole {res}-{verb} --verb={verb} --resource={res} && kubectl create clusterrolebinding {res}-{verb} --clusterrole={res}-{verb} --{}",
                subject_flag(user)
            )
        } else {
            format!(
                "kubectl -n {scope} create role {res}-{verb} --verb={verb} --resource={res} && kubectl -n {scope} create rolebinding {res}-{verb} --role={res}-{verb} --{}",
                subject_flag(user)
            )
        };
        let message = format!(
            "RBAC denies {user} to {verb} {res} {}",
            if scope == "cluster" {
                "at the cluster scope".to_owned()
            } else {
                format!("in namespace {scope}")
            }
        );
        out.push(signal_error(
            ClusterForbidden::ID,
            signal_subject(s),
            s,
            message,
            remedy,
        ));
    }
    out
}

fn subject_flag(user: &str) -> String {
    match user.strip_prefix("system:serviceaccount:") {
        Some(sa) => format!("serviceaccount={sa}"),
        None => format!("user={user}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn rbac_vs_webhook_and_quota() {
        let f = run_log(
            "cluster-forbidden",
            "Error from server (Forbidden): nodes is forbidden: User \"system:serviceaccount:argo:internal-kubectl\" cannot list resource \"nodes\" in API group \"\" at the cluster scope",
        );
        assert_eq!(f.len(), 1);
        assert!(
            f[0].remedy.contains("clusterrole")
                && f[0].remedy.contains("serviceaccount=argo:internal-kubectl")
        );
        assert!(run_log("cluster-forbidden", "Error from server (Forbidden): error when creating \"x.yml\": admission webhook \"validation.gatekeeper.sh\" denied the request: no cpu limit").is_empty());
        assert!(
            run_log(
                "cluster-forbidden",
                "Error creating: pods \"x\" is forbidden: failed quota: q: must specify limits.cpu"
            )
            .is_empty()
        );
    }
}
