//! Derivations for client error texts (kubectl, controllers, multi-cluster hubs): a 403 is
//! split by origin (RBAC with the user, verb, resource and scope; `system:anonymous`:
//! credentials not sent; admission webhook; quota), and only the RBAC kind is a permissions
//! problem.

use std::collections::BTreeMap;

use super::{SignalKind, quoted_after};
use crate::catalog::Match;

pub(crate) fn refine(
    kind: SignalKind,
    m: &Match,
    l: &str,
    d: &mut BTreeMap<String, String>,
) -> SignalKind {
    match kind {
        // NodeRestriction: the kubelet's identity and the Node it writes differ
        SignalKind::RbacForbidden if m.entry.id.starts_with("noderestriction.") => {
            let clean = |v: &str| v.trim_matches(['"', '\\', '\'', ',']).to_owned();
            d.insert("node".to_owned(), clean(m.value("node")));
            d.insert("target".to_owned(), clean(m.value("target")));
            d.insert("node_name_mismatch".to_owned(), "true".to_owned());
            kind
        }
        // token discovery (kubeadm join, karmadactl register, clusteradm join) reads
        // kube-public/cluster-info anonymously by design: a 403 for system:anonymous there is
        // the missing RBAC rule that lets it (kubernetes/kubernetes
        // cmd/kubeadm/app/phases/bootstraptoken/clusterinfo/clusterinfo.go
        // CreateClusterInfoRBACRules), not a client without credentials
        SignalKind::AnonymousForbidden
            if l.contains("cluster-info")
                && m.value("action").contains("configmaps")
                && m.value("action").contains("kube-public") =>
        {
            for (k, v) in [
                ("user", "system:anonymous"),
                ("verb", "get"),
                ("resource", "configmaps"),
                ("scope", "kube-public"),
                ("discovery", "cluster-info"),
            ] {
                d.insert(k.to_owned(), v.to_owned());
            }
            SignalKind::RbacForbidden
        }
        SignalKind::RbacForbidden => {
            let user = m.value("user").to_owned();
            let after = m.value("action");
            let verb = after.split_whitespace().next().unwrap_or("").to_owned();
            let resource = quoted_after(after, "resource")
                .or_else(|| after.split_whitespace().nth(1).map(str::to_owned))
                .unwrap_or_default();
            let scope = if after.contains("at the cluster scope") {
                "cluster".to_owned()
            } else {
                quoted_after(after, "in the namespace").unwrap_or_default()
            };
            // `in API group "cluster.karmada.io"` (empty for the core group)
            let group = quoted_after(after, "in API group").unwrap_or_default();
            for (k, v) in [
                ("verb", verb),
                ("resource", resource),
                ("group", group),
                ("scope", scope),
                (
                    "node_identity",
                    user.starts_with("system:node:").to_string(),
                ),
            ] {
                if !v.is_empty() {
                    d.insert(k.to_owned(), v);
                }
            }
            kind
        }
        SignalKind::QuotaExceeded => {
            let q = m.value("quota").trim_end_matches(',').to_owned();
            d.insert("quota".to_owned(), q);
            kind
        }
        SignalKind::WebhookDenied => {
            let _ = l;
            kind
        }
        k => k,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SignalKind as K, classify_line_alone};

    #[test]
    fn forbidden_is_split_by_origin() {
        assert_eq!(
            classify_line_alone(
                "Error from server (Forbidden): nodes is forbidden: User \"system:serviceaccount:argo:x\" cannot list resource \"nodes\" in API group \"\" at the cluster scope"
            ),
            vec![K::RbacForbidden]
        );
        assert_eq!(
            classify_line_alone(
                "Error from server (Forbidden): nodes is forbidden: User \"system:anonymous\" cannot list nodes at the cluster scope"
            ),
            vec![K::AnonymousForbidden]
        );
        assert_eq!(
            classify_line_alone(
                "Error from server (Forbidden): error when creating \"x.yml\": admission webhook \"validation.gatekeeper.sh\" denied the request: no cpu limit"
            ),
            vec![K::WebhookDenied]
        );
        assert_eq!(
            classify_line_alone(
                "Error creating: pods \"p\" is forbidden: exceeded quota: q, requested: limits.cpu=1"
            ),
            vec![K::QuotaExceeded]
        );
    }

    #[test]
    fn localhost_8080_is_no_kubeconfig_and_dns_is_its_own_cause() {
        assert_eq!(
            classify_line_alone(
                "The connection to the server localhost:8080 was refused - did you specify the right host or port?"
            ),
            vec![K::NoUsableKubeconfig]
        );
        assert_eq!(
            classify_line_alone(
                "Unable to connect to the server: dial tcp: lookup api.example.com on 127.0.0.53:53: no such host"
            ),
            vec![K::NoSuchHost]
        );
    }
}
