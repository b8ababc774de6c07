//! `join-token-invalid`: kubeadm join output shows an unknown/expired bootstrap token, or a
//! k3s/rke2 supervisor rejects the agent's token (401).

use std::collections::BTreeMap;

use crate::classify::{Signal, SignalKind};
use crate::rules::signals;
use crate::{Context, Finding, Severity, Subject};

declare_rule!(
    JoinTokenInvalid,
    "join-token-invalid",
    Join,
    Error,
    "kubeadm join (or karmadactl register) discovery finds no JWS signature for the token in the kube-public/cluster-info ConfigMap: the token is unknown to the cluster (expired after its TTL, 24 h by default, or deleted), or the control plane's bootstrap signer has not signed it yet (a fresh control plane; kind's race). When the snapshot holds the cluster's bootstrap tokens the finding says which. Also: a token whose secret part does not sign cluster-info (mistyped), a cluster-info without kubeconfig (control plane not set up for bootstrapping), and a k3s/rke2 supervisor answering the agent 401 Unauthorized (the token is not the server's), and a k3s/rke2 server whose token does not decrypt the bootstrap data an earlier cluster left in its datastore (`bootstrap data already found and encrypted with different token`: start it with the original token, or wipe /var/lib/rancher/k3s/server). Fix: create a fresh token on a control-plane node.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = check_all(ctx);
    crate::rules::superseded_by_kubeadm_success(ctx, &mut out);
    out
}

fn check_all(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = token_findings(ctx);
    // a k3s server whose token does not open the datastore's bootstrap data (catalog
    // `k3s.server.bootstrap-token-mismatch`)
    out.extend(crate::rules::log_catalog::catalog_findings(
        ctx,
        JoinTokenInvalid::ID,
    ));
    out
}

fn token_findings(ctx: &Context<'_>) -> Vec<Finding> {
    let mut by_source: BTreeMap<&str, Vec<&Signal>> = BTreeMap::new();
    let kinds = [
        SignalKind::JoinTokenUnknown,
        SignalKind::JoinTokenSecretMismatch,
        SignalKind::JoinClusterInfoMissing,
        SignalKind::JoinTokenRejected,
    ];
    for s in signals(ctx, &kinds) {
        by_source.entry(&s.source).or_default().push(s);
    }
    let tokens = &ctx.snapshot().bootstrap_tokens;
    by_source
        .into_iter()
        .map(|(source, sigs)| {
            // one cause per text: the most specific signal decides
            let first = sigs
                .iter()
                .find(|s| s.kind != SignalKind::JoinTokenUnknown)
                .unwrap_or(&sigs[0]);
            if first.kind == SignalKind::JoinTokenRejected {
                return k3s_token_rejected(ctx, source, first, &sigs);
            }
            let entry = crate::catalog::entry(first.detail("entry"));
            let id = sigs.iter().map(|s| s.detail("token_id")).find(|i| !i.is_empty()).unwrap_or("");
            // a line whose token id was cut off (catalog `*-no-id` entries)
            let token = if id.is_empty() { "the join's token (its id is not in the text)".to_owned() } else { format!("token {id}") };
            let (tool, remedy) = match entry {
                Some(e) if e.family == crate::catalog::Family::Karmada => ("karmadactl register", e.remedy.to_owned()),
                // kubeadm's discovery texts inside a Karmada registration (classify::join_agent)
                _ if first.detail("join_tool") == "karmadactl register" => ("karmadactl register", "on the Karmada control plane run `karmadactl token create --print-register-command --kubeconfig=<karmada-apiserver.config>` and register again with the printed command; `karmadactl token list --kubeconfig=<karmada-apiserver.config>` shows whether the old token expired".to_owned()),
                _ => ("kubeadm join", "on a control-plane node run `kubeadm token create --print-join-command` and use the printed command; check `kubeadm token list` and that kube-controller-manager (bootstrapsigner) is running".to_owned()),
            };
            let (cause, remedy) = match first.kind {
                SignalKind::JoinTokenSecretMismatch if tool == "karmadactl register" => (
                    "the token id is known but its secret part does not sign cluster-info: the token was mistyped or belongs to another Karmada control plane".to_owned(),
                    "copy the whole `<id>.<secret>` token again, or print a fresh register command on the Karmada control plane with `karmadactl token create --print-register-command --kubeconfig=<karmada-apiserver.config>`".to_owned(),
                ),
                SignalKind::JoinTokenSecretMismatch => (
                    "the token id is known but its secret part does not sign cluster-info: the token was mistyped or belongs to another cluster".to_owned(),
                    "copy the whole `<id>.<secret>` token again, or print a fresh join command on a control-plane node with `kubeadm token create --print-join-command`".to_owned(),
                ),
                SignalKind::JoinClusterInfoMissing => (
                    "kube-public/cluster-info holds no kubeconfig: the control plane was not set up for token bootstrapping".to_owned(),
                    "on a control-plane node run `kubeadm init phase bootstrap-token`, then print a join command with `kubeadm token create --print-join-command`".to_owned(),
                ),
                _ => match tokens.iter().find(|t| t.token_id == id) {
                    Some(t) => token_state(ctx, t, id, remedy),
                    None if !tokens.is_empty() && !id.is_empty() => (format!("{token} is not among the cluster's bootstrap tokens: it expired or was deleted"), "create a new token on a control-plane node: `kubeadm token create --print-join-command`, and join with the printed command".to_owned()),
                    None if tool == "karmadactl register" => (format!("{token} has no signature in karmada-apiserver's cluster-info; two causes print this and the input does not tell them apart: the token expired (default TTL 24h) or was deleted, or the bootstrap signer (the kube-controller-manager of the Karmada control plane) has not signed it; `karmadactl token list --kubeconfig=<karmada-apiserver.config>` separates them (a token missing there or past its EXPIRES time is the first cause)"), remedy),
                    None => (format!("{token} has no signature in cluster-info; two causes print this and the input does not tell them apart: the token expired (default TTL 24h) or was deleted, or the bootstrap signer (kube-controller-manager) has not signed it; `kubeadm token list` on a control-plane node separates them (a token missing there or past its EXPIRES time is the first cause)"), remedy),
                },
            };
            Finding::new(JoinTokenInvalid::ID, Severity::Error, Subject::log(source), format!("{tool} cannot validate the bootstrap token: {cause}"))
                .with_evidences(sigs.iter().take(3).map(|s| s.evidence()))
                .with_remedy(remedy)
        })
        .collect()
}

/// Why cluster-info carries no signature for a token that the snapshot holds. The bootstrap
/// signer (kubernetes/kubernetes pkg/controller/bootstrap/bootstrapsigner.go `getTokens`)
/// signs cluster-info only for tokens with `usage-bootstrap-signing: true` that have not
/// expired (`bootstrapsecretutil.HasExpired`), and removes the signatures of the others; the
/// token cleaner (pkg/controller/bootstrap/tokencleaner.go) deletes expired token Secrets. So:
/// expired (before the newest time the input shows, else before this run's clock) -> a new
/// token; not signing -> a token made for signing; else the signer has not run. kubeadm prints
/// the same text for each (cmd/kubeadm/app/discovery/token/token.go: `token id %q is invalid
/// for this cluster or it has expired`, older releases `there is no JWS signed token in the
/// cluster-info ConfigMap`, newer `could not find a JWS signature in the cluster-info
/// ConfigMap for token ID %q`), so only the token's own fields separate them.
fn token_state(
    ctx: &Context<'_>,
    t: &cube_model::objects::BootstrapToken,
    id: &str,
    default_remedy: String,
) -> (String, String) {
    let fresh = "create a new token on a control-plane node: `kubeadm token create --print-join-command`, and join with the printed command".to_owned();
    if let Some(exp) = t.expiration {
        let (now, clock) = match crate::gpu::reference_time(ctx) {
            Some(n) => (n, "the newest time the input shows"),
            None => (
                jiff::Timestamp::now().as_second(),
                "this run's clock (the input shows no time of its own)",
            ),
        };
        if exp.as_second() <= now {
            return (
                format!(
                    "token {id} expired on {exp} (before {clock}): the bootstrap signer removes the signature of an expired token from cluster-info and the token cleaner deletes its Secret, so the join cannot validate it; this is not a controller-manager fault"
                ),
                fresh,
            );
        }
    }
    if !t.usages.iter().any(|u| u == "signing") {
        return (
            format!(
                "token {id} exists but is not a signing token (usage-bootstrap-signing is not true): the bootstrap signer signs cluster-info only with signing tokens"
            ),
            fresh,
        );
    }
    (
        format!(
            "token {id} exists in the cluster, is a signing token and has not expired (expiration {}): cluster-info is not signed yet, so the bootstrap signer (kube-controller-manager) is not running or has not caught up",
            t.expiration
                .map(|e| e.to_string())
                .unwrap_or_else(|| "none".into())
        ),
        default_remedy,
    )
}

/// A k3s/rke2 supervisor answering the agent `401 Unauthorized` (k3s-io/k3s
/// pkg/clientaccess/token.go `get`: `fmt.Errorf("%s: %s", u, resp.Status)`, printed by
/// pkg/agent/config/config.go as `Waiting to retrieve agent configuration; server is not
/// ready: %v` (v1.21+) or `Failed to retrieve agent config: %v` (older)): the server does not
/// accept the agent's token.
fn k3s_token_rejected(ctx: &Context<'_>, source: &str, s: &Signal, sigs: &[&Signal]) -> Finding {
    use crate::rules::join_apiserver_unreachable::{join_program, join_unit, supervisor_servers};
    let url = s.detail("url");
    let program = join_program(ctx, source, url);
    let (servers, lb_note) = supervisor_servers(ctx, source, url);
    let on = servers
        .as_deref()
        .map_or_else(|| "the server".to_owned(), |l| format!("the server ({l})"));
    // a server joining an existing cluster validates its configuration against the cluster's
    // first (k3s-io/k3s pkg/cluster/bootstrap.go: `failed to validate server configuration`,
    // rke2's `starting kubernetes: preparing server: ...`): it needs the server token (an
    // agent token is refused for servers)
    let server = sigs.iter().any(|s| {
        s.text.contains("failed to validate server configuration")
            || s.text.contains("preparing server")
    });
    let unit = join_unit(program, server);
    let port = if program == "rke2" { "9345" } else { "6443" };
    let (who, token_file) = if server {
        ("joining server's", "token")
    } else {
        ("agent's", "node-token")
    };
    Finding::new(
        JoinTokenInvalid::ID,
        Severity::Error,
        Subject::log(source),
        format!(
            "the {program} server rejects the {who} join token (401 Unauthorized for {url}): the supervisor is reachable and answered, but the token is not the cluster's (mistyped, from another or a re-installed cluster, or an agent token where {} the server token){lb_note}",
            if server { "a joining server needs" } else { "the server only accepts" }
        ),
    )
    .with_evidences(sigs.iter().take(3).map(|s| s.evidence()))
    .with_remedy(format!(
        "copy the cluster's current token, the content of /var/lib/rancher/{program}/server/{token_file} on {on} (an existing server), to `token:` in /etc/rancher/{program}/config.yaml on this node (or {}_TOKEN), keep `server: https://<existing-server>:{port}` there, then `systemctl restart {unit}`",
        program.to_uppercase()
    ))
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn k3s_supervisor_401_every_wording() {
        for line in [
            "level=info msg=\"Waiting to retrieve agent configuration; server is not ready: https://10.0.0.10:6443/v1-k3s/client-kubelet.crt: 401 Unauthorized\"",
            "level=info msg=\"Waiting to retrieve agent configuration; server is not ready: failed to retrieve configuration from server: https://127.0.0.1:6444/v1-k3s/config: 401 Unauthorized\"",
            "level=error msg=\"Failed to retrieve agent config: https://10.0.0.10:6443/v1-k3s/serving-kubelet.crt: 401 Unauthorized\"",
            "rke2[1]: level=info msg=\"Waiting to retrieve agent configuration; server is not ready: https://127.0.0.1:6444/v1-rke2/serving-kubelet.crt: 401 Unauthorized\"",
        ] {
            let f = run_log("join-token-invalid", line);
            assert_eq!(f.len(), 1, "{line}");
            assert!(
                f[0].message.contains("401") && f[0].remedy.contains("/server/node-token"),
                "{f:#?}"
            );
            assert!(
                !f[0].message.contains("failed to retrieve"),
                "{}",
                f[0].message
            );
            if line.contains("rke2") {
                assert!(f[0].remedy.contains("RKE2_TOKEN"));
            } else {
                assert!(f[0].remedy.contains("K3S_TOKEN"));
            }
        }
    }

    /// A k3s/rke2 server joining an existing cluster: `failed to validate server configuration`
    /// around the supervisor's 401 (k3s-io/k3s pkg/cluster/bootstrap.go), in rke2's journal and
    /// k3s's logrus form: the server token, the program's own config path, port and unit.
    #[test]
    fn server_join_validate_config_401() {
        let rke2 = "Dec  7 18:44:09 srv-02 rke2[91604]: time=\"2022-12-07T18:44:09+06:00\" level=fatal msg=\"starting kubernetes: preparing server: failed to validate server configuration: https://10.0.0.10:9345/v1-rke2/config: 401 Unauthorized\"";
        let f = run_log("join-token-invalid", rke2);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].remedy.contains("/var/lib/rancher/rke2/server/token")
                && f[0].remedy.contains("/etc/rancher/rke2/config.yaml")
                && f[0].remedy.contains(":9345")
                && f[0].remedy.contains("systemctl restart rke2-server"),
            "{}",
            f[0].remedy
        );
        assert!(run_log("log-line-unrecognised", rke2).is_empty());
        let k3s = "level=fatal msg=\"starting kubernetes: preparing server: failed to validate server configuration: https://10.0.0.10:6443/v1-k3s/config: 401 Unauthorized\"";
        let f = run_log("join-token-invalid", k3s);
        assert!(
            f[0].remedy.contains("/etc/rancher/k3s/config.yaml")
                && f[0].remedy.contains(":6443")
                && f[0].remedy.contains("systemctl restart k3s`"),
            "{}",
            f[0].remedy
        );
        // rke2 told by its process name, not only by the URL
        let f = run_log(
            "join-token-invalid",
            "Aug 07 18:00:14 node-02 rke2[1470]: level=info msg=\"Waiting to retrieve agent configuration; server is not ready: https://127.0.0.1:6444/v1-k3s/serving-kubelet.crt: 401 Unauthorized\"",
        );
        assert!(
            f[0].remedy.contains("rke2-agent") && f[0].remedy.contains("/etc/rancher/rke2/"),
            "{}",
            f[0].remedy
        );
        // the critical-configuration mismatch of the same wrapper is its own conclusion
        let m = run_log(
            "join-preflight-failed",
            "level=fatal msg=\"starting kubernetes: preparing server: failed to validate server configuration: unable to join cluster due to critical configuration value mismatch\"",
        );
        assert_eq!(m.len(), 1, "{m:#?}");
        assert!(run_log("join-token-invalid", "failed to validate server configuration: unable to join cluster due to critical configuration value mismatch").is_empty());
    }

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
    fn newer_wording_karmada_and_secret_mismatch() {
        let f = run_log(
            "join-token-invalid",
            "[discovery] Failed to connect to API Server \"10.10.51.64:6443\": token id \"uhcqg1\" is invalid for this cluster or it has expired. Use \"kubeadm token create\" on the control-plane node to create a new valid token",
        );
        assert!(f[0].message.contains("uhcqg1"));
        let f = run_log(
            "join-token-invalid",
            "error: token id \"abcdef\" is invalid for this cluster or it has expired. Use \"karmadactl token create\" on the karmada-control-plane to create a new valid token",
        );
        assert!(
            f[0].message.starts_with("karmadactl register"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy
                .contains("karmadactl token create --print-register-command")
        );
        let f = run_log(
            "join-token-invalid",
            "failed to verify JWS signature of received cluster info object, can't trust this API Server",
        );
        assert!(f[0].message.contains("mistyped"));
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
