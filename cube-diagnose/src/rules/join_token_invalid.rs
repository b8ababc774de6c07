//! `join-token-invalid`: kubeadm join output shows an unknown/expired bootstrap token.

use std::collections::BTreeMap;

use crate::classify::{Signal, SignalKind};
use crate::rules::signals;
use crate::{Context, Finding, Severity, Subject};

declare_rule!(
    JoinTokenInvalid,
    "join-token-invalid",
    Join,
    Error,
    "kubeadm join discovery finds no JWS signature for the token in the kube-public/cluster-info ConfigMap: the token is unknown to the cluster (expired after its TTL, 24 h by default, or deleted), or the control plane's bootstrap signer has not signed it yet (a fresh control plane; kind's race). When the snapshot holds the cluster's bootstrap tokens the finding says which. Fix: create a fresh token on a control-plane node.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut by_source: BTreeMap<&str, Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::JoinTokenUnknown]) {
        by_source.entry(&s.source).or_default().push(s);
    }
    let tokens = &ctx.snapshot().bootstrap_tokens;
    by_source
        .into_iter()
        .map(|(source, sigs)| {
            let id = sigs.iter().map(|s| s.detail("token_id")).find(|i| !i.is_empty()).unwrap_or("");
            let cause = match tokens.iter().find(|t| t.token_id == id) {
                Some(t) => format!("token {id} exists in the cluster (expiration {}): cluster-info is not signed yet, so the bootstrap signer (kube-controller-manager) is not running or has not caught up", t.expiration.map(|e| e.to_string()).unwrap_or_else(|| "none".into())),
                None if !tokens.is_empty() => format!("token {id} is not among the cluster's bootstrap tokens: it expired or was deleted"),
                None => format!("token {id} is unknown to cluster-info: expired (default TTL 24h), deleted, or the bootstrap signer has not run yet"),
            };
            Finding::new(JoinTokenInvalid::ID, Severity::Error, Subject::log(source), format!("kubeadm join cannot validate the bootstrap token: {cause}"))
                .with_evidences(sigs.iter().take(3).map(|s| s.evidence()))
                .with_remedy("on a control-plane node run `kubeadm token create --print-join-command` and use the printed command; check `kubeadm token list` and that kube-controller-manager (bootstrapsigner) is running")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn jws_missing_old_and_new() {
        let f = run_log(
            "join-token-invalid",
            "[discovery] Failed to connect to API Server \"10.0.0.1:6443\": there is no JWS signed token in the cluster-info ConfigMap. This token id \"abcdef\" is invalid for this cluster, can't connect",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("abcdef"));
        assert_eq!(run_log("join-token-invalid", "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"").len(), 1);
    }

    #[test]
    fn successful_discovery_is_silent() {
        assert!(
            run_log(
                "join-token-invalid",
                "[discovery] Successfully established connection with API Server \"10.0.0.1:6443\""
            )
            .is_empty()
        );
    }
}
