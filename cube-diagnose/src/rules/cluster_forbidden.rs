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
    "The authorizer (RBAC) denies a request: a required check of the import report is not allowed, or a text shows 'User X cannot `<verb>` resource `<r>`'. 403s from admission webhooks, quotas or anonymous users are not reported here (they are not missing permissions), except token discovery's anonymous read of kube-public/cluster-info (kubeadm join, karmadactl register), which needs the `kubeadm:bootstrap-signer-clusterinfo` Role and RoleBinding. NodeRestriction's 'node X is not allowed to modify node Y' is a kubelet whose certificate name and node name differ. The remedy names the minimal rule: a ClusterRole for cluster-scoped resources, a Role in the namespace otherwise; a kubelet identity (system:node:...) points at the Node authorizer. A refusal by the managed service's own policy (`GKE Warden authz [denied by <policy>]`: GKE's managed namespaces and system-group bindings) is named as such and never answered with an RBAC grant: no Role can lift it, the remedy moves the objects out of the managed namespace (`argocd cluster add --system-namespace`) or changes the binding.",
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
    // a join agent's own identity refused (classify::join_agent: Karmada's bootstrap users) is
    // agent-registration-failed's
    for s in
        signals(ctx, &[SignalKind::RbacForbidden]).filter(|s| s.detail("agent_side").is_empty())
    {
        if let Some((message, remedy)) = node_name_mismatch(s).or_else(|| anonymous_discovery(s)) {
            out.push(signal_error(
                ClusterForbidden::ID,
                signal_subject(s),
                s,
                message,
                remedy,
            ));
            continue;
        }
        let (user, verb, res, scope) = (
            s.detail("user"),
            s.detail("verb"),
            s.detail("resource"),
            s.detail("scope"),
        );
        // a managed service's own policy (classify::platform): no RBAC rule can lift it
        if let Some(p) = crate::classify::platform::PlatformPolicy::from_details(
            s.detail("platform"),
            s.detail("policy"),
        ) {
            let namespace = if scope == "cluster" { "" } else { scope };
            let what = format!(
                "let {user} {verb} {res} {}",
                if namespace.is_empty() {
                    "at the cluster scope".to_owned()
                } else {
                    format!("in namespace {namespace}")
                }
            );
            let (cause, remedy) =
                crate::classify::platform::explain(&p, &what, namespace, s.detail("agent"));
            out.push(signal_error(
                ClusterForbidden::ID,
                signal_subject(s),
                s,
                cause,
                remedy,
            ));
            continue;
        }
        // kubectl create role --resource takes `resource.group` for a resource outside the
        // core group (`clusters.cluster.karmada.io`)
        let res_flag = match s.detail("group") {
            "" => res.to_owned(),
            g => format!("{res}.{g}"),
        };
        let remedy = if s.detail("node_identity") == "true" {
            format!(
                "the kubelet identity {user} lacks node permissions: enable the Node authorizer (--authorization-mode=Node,RBAC) and NodeRestriction, and make sure the kubelet's certificate has O=system:nodes"
            )
        } else if scope == "cluster" {
            format!(
                "kubectl create clusterrole {res}-{verb} --verb={verb} --resource={res_flag} && kubectl create clusterrolebinding {res}-{verb} --clusterrole={res}-{verb} --{}",
                subject_flag(user)
            )
        } else {
            format!(
                "kubectl -n {scope} create role {res}-{verb} --verb={verb} --resource={res_flag} && kubectl -n {scope} create rolebinding {res}-{verb} --role={res}-{verb} --{}",
                subject_flag(user)
            )
        };
        let mut message = format!(
            "RBAC denies {user} to {verb} {res} {}",
            if scope == "cluster" {
                "at the cluster scope".to_owned()
            } else {
                format!("in namespace {scope}")
            }
        );
        // a namespace a managed platform keeps for itself (no policy reason in the text, so
        // the platform is not known): granting is only possible where the cluster is yours
        let remedy = match platform_namespace(scope) {
            Some(owner) => {
                message.push_str(&format!(
                    "; {scope} is a namespace of {owner}: on a managed service a customer cannot be granted this, whatever the role"
                ));
                format!(
                    "on a managed service (OpenShift Dedicated, ROSA, ARO; GKE Autopilot; AKS/EKS system namespaces) keep your objects out of {scope}: use a namespace of your own; on a cluster you administer yourself: `{remedy}`"
                )
            }
            None => remedy,
        };
        out.push(signal_error(
            ClusterForbidden::ID,
            signal_subject(s),
            s,
            message,
            remedy,
        ));
    }
    // the same refusal printed twice (a klog E line and the F line that exits with it):
    // one finding with both lines as evidence
    crate::rules::merge_repeats(out)
}

/// NodeRestriction's `node "X" is not allowed to modify node "Y"` (`cannot modify node` before
/// v1.21; plugin/pkg/admission/noderestriction/admission.go): the kubelet authenticates as
/// system:node:X (its client certificate's CN, which the Node authorizer and NodeRestriction
/// trust) and writes the Node Y, the name it registers under (the host name, or
/// --hostname-override / nodeName). No RBAC rule can allow it: the names must agree.
fn node_name_mismatch(s: &crate::classify::Signal) -> Option<(String, String)> {
    if s.detail("node_name_mismatch") != "true" {
        return None;
    }
    let (node, target) = (s.detail("node"), s.detail("target"));
    Some((
        format!(
            "the kubelet authenticates as system:node:{node} (the name in its client certificate) but registers or updates the Node {target}: the NodeRestriction admission plugin lets a kubelet modify only the Node of its own name, so every write is refused; the host was renamed after the kubelet's credentials were issued, or the node name it is told to use (hostname, --hostname-override, nodeName) differs from the certificate's. Not an RBAC rule to add, and not two machines with one name"
        ),
        format!(
            "make the two names equal: either give the kubelet back the name of its certificate (`hostnamectl set-hostname {node}`, or --hostname-override={node} / nodeName: {node} in the kubelet's or the distribution's config, e.g. MicroShift's /etc/microshift/config.yaml) and restart it, or keep {target} and issue node credentials for it (kubeadm: `kubectl delete node {node}`, then `kubeadm reset -f` and the join again on this machine; MicroShift and k3s/rke2 issue them when the service starts with its certificates removed)"
        ),
    ))
}

/// A 403 for system:anonymous on kube-public/cluster-info: token discovery (kubeadm join,
/// karmadactl register, clusteradm join) reads it anonymously on purpose and checks the CA
/// against the pin; kubeadm init (and karmadactl init) create the Role and RoleBinding
/// `kubeadm:bootstrap-signer-clusterinfo` that allow it (kubernetes/kubernetes
/// cmd/kubeadm/app/phases/bootstraptoken/clusterinfo/clusterinfo.go
/// CreateClusterInfoRBACRules); a control plane installed otherwise (Helm, by hand) lacks them.
fn anonymous_discovery(s: &crate::classify::Signal) -> Option<(String, String)> {
    if s.detail("discovery") != "cluster-info" {
        return None;
    }
    let karmada = s.detail("agent") == "Karmada" || s.text.contains("karmada");
    let on = if karmada {
        " on the Karmada control plane (kubectl --kubeconfig with the karmada-apiserver's admin kubeconfig)"
    } else {
        " on the control plane being joined"
    };
    Some((
        "token discovery reads the kube-public/cluster-info ConfigMap anonymously by design (then checks its CA against --discovery-token-ca-cert-hash), and this API server refuses system:anonymous that read: the Role and RoleBinding `kubeadm:bootstrap-signer-clusterinfo` that kubeadm init and karmadactl init create are missing (a control plane installed by Helm or by hand). Sending credentials is not the fix".to_owned(),
        format!(
            "create the rule{on}: `kubectl -n kube-public create role kubeadm:bootstrap-signer-clusterinfo --verb=get --resource=configmaps --resource-name=cluster-info && kubectl -n kube-public create rolebinding kubeadm:bootstrap-signer-clusterinfo --role=kubeadm:bootstrap-signer-clusterinfo --user=system:anonymous`, then run the join/register command again"
        ),
    ))
}

/// The platform a namespace belongs to when a managed Kubernetes service keeps it for itself
/// (OpenShift's `openshift-*` operators' namespaces; GKE's `gke-*` managed namespaces).
fn platform_namespace(ns: &str) -> Option<&'static str> {
    if ns.starts_with("openshift-") {
        Some("the OpenShift platform (its operators)")
    } else if ns.starts_with("gke-") {
        Some("GKE (managed)")
    } else {
        None
    }
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

    /// NodeRestriction's refusal in both wordings and in klog's structured (escaped) form: the
    /// kubelet's certificate name and its node name differ; no RBAC rule is proposed.
    #[test]
    fn kubelet_not_allowed_to_modify_another_node() {
        for line in [
            "E0706 08:58:04.495142  125323 kubelet_node_status.go:95] \"Unable to register node with API server\" err=\"nodes \\\"node-01.local\\\" is forbidden: node \\\"node-01\\\" is not allowed to modify node \\\"node-01.local\\\"\" node=\"node-01.local\"",
            "E0302 10:00:00.000000 1234 kubelet_node_status.go:92] Unable to register node \"node-01.local\" with API server: nodes \"node-01.local\" is forbidden: node \"node-01\" cannot modify node \"node-01.local\"",
        ] {
            let f = run_log("cluster-forbidden", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert!(
                f[0].message.contains("system:node:node-01")
                    && f[0].message.contains("Node node-01.local")
                    && f[0].message.contains("NodeRestriction"),
                "{}",
                f[0].message
            );
            assert!(
                f[0].remedy.contains("hostnamectl set-hostname node-01")
                    && !f[0].remedy.contains("create clusterrole"),
                "{}",
                f[0].remedy
            );
            assert!(run_log("log-line-unrecognised", line).is_empty(), "{line}");
            assert!(run_log("node-duplicate-hostname", line).is_empty());
        }
    }

    /// Token discovery's anonymous read of kube-public/cluster-info refused: the missing
    /// `kubeadm:bootstrap-signer-clusterinfo` Role/RoleBinding, never "send credentials".
    #[test]
    fn anonymous_cluster_info_read_is_the_discovery_rbac_rule() {
        for text in [
            "./karmadactl register karmada-apiserver.karmada-system.svc:5443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:aa\nerror: couldn't validate the identity of the API Server: configmaps \"cluster-info\" is forbidden: User \"system:anonymous\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"kube-public\"",
            "[discovery] Failed to request cluster info, will try again: [configmaps \"cluster-info\" is forbidden: User \"system:anonymous\" cannot get configmaps in the namespace \"kube-public\"]",
        ] {
            let f = run_log("cluster-forbidden", text);
            assert_eq!(f.len(), 1, "{text}: {f:#?}");
            assert!(
                f[0].message.contains("anonymously by design"),
                "{}",
                f[0].message
            );
            assert!(
                f[0].remedy
                    .contains("create rolebinding kubeadm:bootstrap-signer-clusterinfo")
                    && f[0].remedy.contains("--user=system:anonymous")
                    && f[0].remedy.contains("--resource-name=cluster-info"),
                "{}",
                f[0].remedy
            );
            assert!(run_log("cluster-unauthorized", text).is_empty(), "{text}");
        }
        assert!(run_log("cluster-forbidden", "./karmadactl register x\nerror: couldn't validate the identity of the API Server: configmaps \"cluster-info\" is forbidden: User \"system:anonymous\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"kube-public\"")[0].remedy.contains("Karmada control plane"));
        // any other anonymous 403 stays an authentication problem
        let other = "Error from server (Forbidden): nodes is forbidden: User \"system:anonymous\" cannot list resource \"nodes\" in API group \"\" at the cluster scope";
        assert!(run_log("cluster-forbidden", other).is_empty());
        assert_eq!(run_log("cluster-unauthorized", other).len(), 1);
    }

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
