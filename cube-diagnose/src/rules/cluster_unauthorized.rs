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
    "The API server does not accept the credentials: HTTP 401 ('You must be logged in to the server'), a multi-cluster member's stored token rejected, or a 403 for system:anonymous, which means the client sent no credentials at all (fix authentication, not RBAC).",
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
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(
        ctx,
        &[SignalKind::Unauthorized, SignalKind::AnonymousForbidden],
    ) {
        if !seen.insert((s.source.clone(), s.kind, s.line)) {
            continue;
        }
        let (msg, remedy) = if s.kind == SignalKind::AnonymousForbidden {
            (
                "the request arrived as system:anonymous: the client sent no credentials (kubeconfig not read, or its user entry is empty); a 403 here is an authentication problem",
                "point the client at a kubeconfig with a user (token, client certificate or exec plugin); check `kubectl config view --minify`",
            )
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
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn unauthorized_and_rbac_denial() {
        assert_eq!(run_log("cluster-unauthorized", "error: You must be logged in to the server (the server has asked for the client to provide credentials)").len(), 1);
        assert!(run_log("cluster-unauthorized", "Error from server (Forbidden): pods is forbidden: User \"limited\" cannot list resource \"pods\" in API group \"\" at the cluster scope").is_empty());
    }
}
