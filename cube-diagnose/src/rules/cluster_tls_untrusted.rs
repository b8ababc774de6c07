//! `cluster-tls-untrusted`: the API server's certificate is not trusted, not valid for the name,
//! or outside its validity window.

use cube_model::import::ConnectionClass;

use crate::classify::SignalKind;
use crate::rules::{signal_error, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    ClusterTlsUntrusted,
    "cluster-tls-untrusted",
    Import,
    Error,
    "TLS to the API server fails: certificate signed by an unknown authority (wrong or missing CA in the kubeconfig, or a proxy presenting its own certificate), certificate not valid for the server name (tls-server-name or address not in the SANs), or expired / not yet valid (check clocks first). Reported from import reports and client texts.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let what = match r.connection.class {
            ConnectionClass::TlsUntrusted => "certificate signed by an unknown authority",
            ConnectionClass::TlsNameMismatch => "certificate not valid for the server name",
            ConnectionClass::TlsExpired => "certificate expired or not yet valid",
            _ => continue,
        };
        out.push(
            Finding::new(ClusterTlsUntrusted::ID, Severity::Error, Subject::cluster(&r.cluster_name), format!("cluster {} at {}: {what}", r.cluster_name, r.server))
                .with_evidence(Evidence::field(format!("Cluster/{}", r.cluster_name), "connection.message", &r.connection.message))
                .with_remedy("put the cluster's CA in certificate-authority-data (`kubectl config view --raw`), use a server name in the certificate's SANs, and check clocks"),
        );
    }
    let kinds = [
        SignalKind::TlsUntrusted,
        SignalKind::TlsNameMismatch,
        SignalKind::TlsExpired,
    ];
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &kinds).filter(|s| !(s.join && s.kind == SignalKind::TlsNameMismatch)) {
        if !seen.insert((s.source.clone(), s.kind, s.line)) {
            continue;
        }
        let (msg, remedy) = match s.kind {
            SignalKind::TlsUntrusted => ("the API server certificate is signed by an authority the client does not trust".to_owned(), "use the cluster's CA (`certificate-authority-data`); behind a proxy (Rancher /k8s/clusters/) use the proxy's CA".to_owned()),
            SignalKind::TlsNameMismatch => (format!("the API server certificate is valid for {} but the client used {}", s.detail("valid_for"), s.detail("wanted")), "connect with a name in the SANs (or set tls-server-name), or re-issue the serving certificate with the name".to_owned()),
            _ => (if s.detail("relation") == "before" { "the certificate is not yet valid at the client's current time (client clock behind)".to_owned() } else { "the certificate has expired or is not yet valid (check both clocks before renewing)".to_owned() }, "compare clocks (`date -u` on client and control plane); then check NotBefore/NotAfter (`openssl s_client -connect <host:6443> | openssl x509 -noout -dates`) and renew (`kubeadm certs renew all`)".to_owned()),
        };
        out.push(signal_error(
            ClusterTlsUntrusted::ID,
            signal_subject(s),
            s,
            msg,
            remedy,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn unknown_authority() {
        assert_eq!(
            run_log(
                "cluster-tls-untrusted",
                "Unable to connect to the server: x509: certificate signed by unknown authority"
            )
            .len(),
            1
        );
        assert!(
            run_log(
                "cluster-tls-untrusted",
                "error: You must be logged in to the server (Unauthorized)"
            )
            .is_empty()
        );
    }
}
