//! Client error texts (kubectl, controllers, multi-cluster hubs): connectivity, TLS,
//! authentication and authorization. A 403 is split by origin: RBAC, anonymous (credentials not
//! sent), admission webhook, quota. Only the RBAC kind is a permissions problem.

use super::kubeadm::{is_timeout, url_host};
use super::{Hit, SignalKind, details, dial_endpoint, quoted_after};

pub(crate) fn classify_line(l: &str) -> Vec<Hit> {
    let mut out = Vec::new();
    if l.contains("localhost:8080") && (l.contains("refused") || l.contains("connect:")) {
        out.push((SignalKind::NoUsableKubeconfig, details(&[])));
        return out;
    }
    if l.contains("admission webhook") && l.contains("denied the request") {
        let hook = quoted_after(l, "admission webhook").unwrap_or_default();
        out.push((SignalKind::WebhookDenied, details(&[("webhook", hook)])));
        return out;
    }
    if l.contains("x509: certificate signed by unknown authority") {
        out.push((
            SignalKind::TlsUntrusted,
            details(&[("endpoint", url_host(l))]),
        ));
    }
    if l.contains("You must be logged in to the server")
        || l.contains("provide credentials")
        || l.ends_with(": Unauthorized")
        || l.contains("\"reason\":\"Unauthorized\"")
        || l.contains("(Unauthorized)")
    {
        out.push((SignalKind::Unauthorized, details(&[])));
    }
    if l.contains("is forbidden: User \"system:anonymous\"") {
        out.push((SignalKind::AnonymousForbidden, details(&[])));
    } else if l.contains("is forbidden: User") && l.contains(" cannot ") {
        let user = quoted_after(l, "is forbidden: User").unwrap_or_default();
        let after = &l[l.find(" cannot ").unwrap_or(0) + 8..];
        let verb = after.split_whitespace().next().unwrap_or("").to_owned();
        let resource = quoted_after(after, "resource")
            .or_else(|| after.split_whitespace().nth(1).map(str::to_owned))
            .unwrap_or_default();
        let scope = if after.contains("at the cluster scope") {
            "cluster".to_owned()
        } else {
            quoted_after(after, "in the namespace").unwrap_or_default()
        };
        let kubelet = user.starts_with("system:node:").to_string();
        out.push((
            SignalKind::RbacForbidden,
            details(&[
                ("user", user),
                ("verb", verb),
                ("resource", resource),
                ("scope", scope),
                ("node_identity", kubelet),
            ]),
        ));
    }
    if l.contains("Client sent an HTTP request to an HTTPS server")
        || l.contains("server gave HTTP response to HTTPS client")
        || l.contains("first record does not look like a TLS handshake")
    {
        out.push((SignalKind::ProtocolMismatch, details(&[])));
    }
    if l.contains("specifying a root certificates file with the insecure flag is not allowed")
        || l.contains("invalid port")
        || l.contains("context was not found")
        || l.contains("no configuration has been provided")
        || (l.contains("context \"") && l.contains("does not exist"))
    {
        out.push((SignalKind::ConfigInvalid, details(&[])));
    }
    if l.contains("ClusterNotReachable") || l.contains("cluster is not reachable") {
        out.push((SignalKind::ClusterNotReachable, details(&[])));
    }
    if l.contains("(NotFound)") {
        out.push((SignalKind::NotFound, details(&[])));
    }
    if out.is_empty() {
        if l.contains("connection refused")
            || (l.contains("The connection to the server") && l.contains("was refused"))
        {
            out.push((
                SignalKind::Refused,
                details(&[("endpoint", dial_endpoint(l).unwrap_or_default())]),
            ));
        } else if is_timeout(l) {
            out.push((SignalKind::Timeout, details(&[("endpoint", url_host(l))])));
        }
    }
    out
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
}
