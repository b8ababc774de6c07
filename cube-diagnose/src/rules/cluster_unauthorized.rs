//! `cluster-unauthorized`: credentials missing, expired or rejected (401, or 403 as anonymous).

use cube_model::import::ConnectionClass;

use crate::classify::SignalKind;
use crate::rules::{signal_error, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    ClusterUnauthorized,
    "cluster-unauthorized",
    Import,
    Error,
    "The API server does not accept the credentials: HTTP 401 ('You must be logged in to the server'), a multi-cluster member's stored token rejected, or a 403 for system:anonymous, which means the client sent no credentials at all (fix authentication, not RBAC; token discovery's anonymous read of kube-public/cluster-info is anonymous on purpose and is cluster-forbidden's). The API server's own log line `Unable to authenticate the request` counts too: an x509 error inside it is a client certificate the server cannot verify, never the server's TLS.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx
        .imports()
        .iter()
        .filter(|r| r.connection.class == ConnectionClass::Unauthorized)
    {
        out.push(
            Finding::new(ClusterUnauthorized::ID, Severity::Error, Subject::cluster(&r.cluster_name), format!("cluster {} rejects the kubeconfig's credentials (401)", r.cluster_name))
                .with_evidence(Evidence::field(format!("Cluster/{}", r.cluster_name), "connection.message", &r.connection.message))
                .with_remedy("issue a fresh token (`kubectl create token <serviceaccount> -n <ns>`) or client certificate and update the kubeconfig user"),
        );
    }
    // the hub's stored credential for a member (classify::join_agent: Argo CD's cluster
    // Secret, Karmada's join token, Rancher's cattle token): one finding per member and agent
    // whatever the number of lines and views (a list row and the applications' errors)
    let mut hub: std::collections::BTreeMap<(Subject, String), Vec<&crate::classify::Signal>> =
        std::collections::BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Unauthorized]).filter(|s| s.detail("agent_side") == "hub") {
        hub.entry((signal_subject(s), s.detail("agent").to_owned()))
            .or_default()
            .push(s);
    }
    for ((subject, agent), lines) in hub {
        let s = lines[0];
        out.push(
            Finding::new(
                ClusterUnauthorized::ID,
                Severity::Error,
                subject,
                format!(
                    "{agent}: {}{}",
                    s.detail("agent_cause"),
                    if lines.len() > 1 {
                        format!(" ({} lines)", lines.len())
                    } else {
                        String::new()
                    }
                ),
            )
            .with_evidences(lines.iter().take(3).map(|s| s.evidence()))
            .with_remedy(s.detail("agent_remedy")),
        );
    }
    // the API server's own log naming why it rejects a client (its authenticator) and a
    // client's 401 in the same text are one rejection seen from both ends: the authenticator's
    // finding carries the cause, the client's line is its evidence
    let authn_sources: std::collections::BTreeSet<&str> = signals(ctx, &[SignalKind::Unauthorized])
        .filter(|s| s.detail("entry").starts_with("apiserver.authn-"))
        .map(|s| s.source.as_str())
        .collect();
    let mut client_side: Vec<&crate::classify::Signal> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(
        ctx,
        &[SignalKind::Unauthorized, SignalKind::AnonymousForbidden],
    )
    // a join agent's own credential is agent-registration-failed's, the hub's stored one was
    // reported above
    .filter(|s| s.detail("agent_side").is_empty())
    {
        // the API server's own authenticator lines repeat per request: one finding per log
        let authn = s.detail("entry").starts_with("apiserver.authn-");
        if !seen.insert((s.source.clone(), s.kind, if authn { 0 } else { s.line })) {
            continue;
        }
        let member_msg;
        let member_remedy;
        let plugin;
        let (msg, remedy) = if s.detail("entry") == "client.exec-plugin-failed"
            && let Some(e) = crate::catalog::entry(s.detail("entry"))
        {
            // the kubeconfig's credential plugin failed: no request carried credentials
            plugin = e.cause_and_remedy(s);
            (plugin.0.as_str(), plugin.1.as_str())
        } else if !s.detail("karmada_member").is_empty() {
            let m = s.detail("karmada_member");
            member_msg = format!(
                "Karmada's controllers call the member cluster {m} with the credentials stored at `karmada join` (the kubeconfig user given to join, kept in the karmada-cluster namespace), and the member's API server rejects them (401 Unauthorized): that user's token or client certificate expired or is not valid on the member (a cloud kubeconfig's short-lived exec or OIDC token, a rebuilt member)"
            );
            member_remedy = format!(
                "join the member again with credentials that last on it: `kubectl karmada unjoin {m} --kubeconfig=<karmada-apiserver.config>`, then `kubectl karmada join {m} --kubeconfig=<karmada-apiserver.config> --cluster-kubeconfig=<file>` with a kubeconfig whose user is a ServiceAccount token or client certificate of the member (not an exec plugin); or register the member in Pull mode (`karmadactl register`), whose agent renews its own credentials"
            );
            (member_msg.as_str(), member_remedy.as_str())
        } else if authn {
            authenticator_cause(s.detail("error"))
        } else if s.kind == SignalKind::AnonymousForbidden {
            (
                "the request arrived as system:anonymous: the client sent no credentials (kubeconfig not read, or its user entry is empty); a 403 here is an authentication problem",
                "point the client at a kubeconfig with a user (token, client certificate or exec plugin); check `kubectl config view --minify`",
            )
        } else if authn_sources.contains(s.source.as_str()) && s.kind == SignalKind::Unauthorized {
            client_side.push(s);
            continue;
        } else {
            (
                "the API server rejected the credentials (401 Unauthorized): token expired/revoked, wrong client certificate, or exec plugin output invalid",
                "refresh the credentials (`kubectl create token ...`, re-run the exec plugin login) and update the kubeconfig",
            )
        };
        out.push(signal_error(
            ClusterUnauthorized::ID,
            signal_subject(s),
            s,
            msg,
            remedy,
        ));
    }
    for c in client_side {
        if let Some(f) = out.iter_mut().find(|f| {
            f.evidence.iter().any(|e| {
                matches!(e, crate::Evidence::Log { source, text, .. }
                    if *source == c.source && text.contains("Unable to authenticate the request"))
            })
        }) {
            f.message
                .push_str(" (the client's 401 in the same text is this rejection)");
            f.evidence.insert(0, c.evidence());
        }
    }
    // the same error repeated by a retry loop is one finding with its count
    crate::rules::merge_repeats(out)
}

/// What the API server's authentication filter says about a rejected request
/// (`Unable to authenticate the request ...: <error>`,
/// staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go): an x509 error there is
/// a client certificate the server cannot verify (its own serving certificate worked).
fn authenticator_cause(error: &str) -> (&'static str, &'static str) {
    if error.contains("x509:") {
        (
            "the API server cannot verify a client certificate (x509 in its authenticator: the client's certificate expired or was issued by a CA the API server does not trust); the server's own TLS is fine, the client is not authenticated (401)",
            "find the client whose certificate is rejected and renew it: kubeadm's own kubeconfigs with `kubeadm certs check-expiration` then `kubeadm certs renew all` and a restart of the control-plane static pods; a user's kubeconfig with a new client certificate (`kubeadm kubeconfig user --client-name <user>`); a kubelet's /var/lib/kubelet/pki/kubelet-client-current.pem (check with `openssl x509 -enddate -noout -in <cert>`)",
        )
    } else if error.contains("bearer token") || error.contains("token") {
        (
            "the API server rejects a bearer token (its authenticator: expired, revoked, wrong audience or issuer, or an OIDC token it cannot verify)",
            "refresh the client's token (`kubectl create token <serviceaccount> -n <ns>`, re-run the OIDC or exec plugin login); for OIDC check the API server's --oidc-* flags against the issuer",
        )
    } else {
        (
            "the API server's authenticator rejects requests (401): the credentials are expired or not trusted",
            "read the error after `Unable to authenticate the request` and renew that client's credentials",
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn authenticator_x509_is_a_client_certificate() {
        let text = "E0809 16:13:15.327109       1 authentication.go:53] Unable to authenticate the request due to an error: x509: certificate has expired or is not yet valid\nE0809 16:13:15.824658       1 authentication.go:53] Unable to authenticate the request due to an error: x509: certificate has expired or is not yet valid";
        let f = run_log("cluster-unauthorized", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("client certificate"));
        assert!(run_log("cluster-tls-untrusted", text).is_empty());
        assert!(run_log("node-clock-skew", text).is_empty());
        let t = run_log(
            "cluster-unauthorized",
            "E1123 11:53:33.386042       1 authentication.go:63] \"Unable to authenticate the request\" err=\"[invalid bearer token, Token could not be validated.]\"",
        );
        assert!(t[0].message.contains("bearer token"));
    }

    /// kubectl's 401 next to the API server's authenticator naming the expired client
    /// certificate: one finding, the client's line as its evidence.
    #[test]
    fn the_clients_401_and_the_authenticators_reason_are_one_finding() {
        let text = "error: You must be logged in to the server (the server has asked for the client to provide credentials)\nE0809 16:13:15.327109       1 authentication.go:53] Unable to authenticate the request due to an error: x509: certificate has expired or is not yet valid";
        let f = run_log("cluster-unauthorized", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("client certificate"));
        assert_eq!(f[0].evidence.len(), 2);
    }

    #[test]
    fn unauthorized_and_rbac_denial() {
        assert_eq!(run_log("cluster-unauthorized", "error: You must be logged in to the server (the server has asked for the client to provide credentials)").len(), 1);
        assert!(run_log("cluster-unauthorized", "Error from server (Forbidden): pods is forbidden: User \"limited\" cannot list resource \"pods\" in API group \"\" at the cluster scope").is_empty());
    }
}
