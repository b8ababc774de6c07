//! `join-ca-hash-mismatch`: the discovery CA pin does not match (and not the multi-pin bug).

use crate::classify::SignalKind;
use crate::rules::signals;
use crate::{Context, Finding, Severity, Subject};

declare_rule!(
    JoinCaHashMismatch,
    "join-ca-hash-mismatch",
    Join,
    Error,
    "kubeadm join reports that none of the cluster CA's public keys is pinned by --discovery-token-ca-cert-hash: the join command was made for another CA (the cluster was re-initialised, or the address reaches another cluster), so the remedy is a join command printed by the current control plane, not a recomputed copy of the rejected pin. Not reported when the CA's hash is among the given pins but not the first one (kubeadm#2471: older kubeadm only checked the first pin). Also k3s/rke2 agents whose token's CA hash is not the server's.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = check_all(ctx);
    crate::rules::superseded_by_kubeadm_success(ctx, &mut out);
    out
}

fn check_all(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out: Vec<Finding> = signals(ctx, &[SignalKind::JoinCaPinMismatch])
        .map(|s| {
            let got = s.detail("ca_key_hash");
            let pins = if s.detail("pins").is_empty() { "none seen" } else { s.detail("pins") };
            // One cause: the pin in the join command was taken from a CA this API server does
            // not have (the cluster was re-initialised, or the address reaches another
            // cluster). Recomputing the rejected pin from old notes cannot help; the current
            // control plane prints the current one.
            Finding::new(
                JoinCaHashMismatch::ID,
                Severity::Error,
                Subject::log(&s.source),
                format!("the API server presents a cluster CA with key hash {got}, which is not among the pins given to kubeadm join ({pins}): the join command was made for another CA (the cluster was re-initialised with kubeadm reset/init, or the address reaches a different cluster)"),
            )
            .with_evidence(s.evidence())
            // the pin was taken from another CA: usually the join command is from before the
            // cluster was rebuilt (kubeadm reset / init made a new CA); recomputing the rejected
            // pin from the old command would repeat the failure
            .with_remedy(format!("take a fresh join command from the cluster's current control plane: `kubeadm token create --print-join-command` (after a rebuild the CA, token and pin are new; the old command cannot work); on the joining node clear what the old cluster left: `kubeadm reset -f`, then run the new command as printed; if the printed pin is not {got}, the join address reaches another cluster"))
        })
        .collect();
    // k3s / rke2: the full join token embeds the CA hash
    for s in signals(ctx, &[SignalKind::JoinTokenCaMismatch]) {
        // the agent hashes whatever its server URL answers on /cacerts (k3s-io/k3s
        // pkg/clientaccess/token.go getCACerts/validateCAHash): an address that is not this
        // cluster's k3s server (a load balancer or proxy in front, terminating TLS or
        // forwarding to other backends) answers with another CA
        let lb = external_load_balancer(ctx, &s.source);
        let message = match &lb {
            Some(hint) => format!(
                "the join token's CA hash {} is not the CA hash {} that the agent's server URL answers on /cacerts, and the text shows a load balancer or proxy in front of the server ({hint}): the address the agent joins through is not this cluster's k3s/rke2 server itself (it terminates TLS, serves its own /cacerts, or forwards to servers of another cluster); otherwise the server was re-installed (new CA) or the token belongs to another cluster",
                s.detail("token_hash"),
                s.detail("server_hash")
            ),
            None => format!(
                "the join token's CA hash {} is not the server's CA hash {}: the server was re-installed (new CA), the token belongs to another cluster, or the agent's server URL is not the k3s/rke2 server itself (a load balancer or proxy in front that terminates TLS or forwards to other servers answers /cacerts)",
                s.detail("token_hash"),
                s.detail("server_hash")
            ),
        };
        out.push(
            Finding::new(
                JoinCaHashMismatch::ID,
                Severity::Error,
                Subject::log(&s.source),
                message,
            )
            .with_evidence(s.evidence())
            .with_remedy("check what the agent's server URL answers: `curl -ks https://<server-url>/cacerts | openssl x509 -noout -subject -issuer` must show the cluster's k3s CA (`k3s-server-ca@...`, rke2: `rke2-server-ca@...`); a load balancer in front of the servers must pass TLS through (TCP / layer 4: HAProxy `mode tcp`, nginx `stream {}`, an NLB with TCP listeners on 6443, and 9345 for rke2) to this cluster's servers only; if it answers the right CA, set the agent's token to the server's current full token (`cat /var/lib/rancher/k3s/server/token`, or .../rke2/server/token), remove the agent's cached CA (/var/lib/rancher/k3s/agent, or .../rke2/agent) and restart the agent"),
        );
    }
    out
}

/// A load balancer or proxy in front of the join server that the text `source` names (HAProxy,
/// nginx, Envoy, a cloud load balancer's host name, the words `load balancer`), not the k3s/rke2
/// agent's own client-side load balancer (`Running load balancer k3s-agent-load-balancer
/// 127.0.0.1:6444 -> [...]`, k3s-io/k3s pkg/agent/loadbalancer).
pub(crate) fn external_load_balancer(ctx: &Context<'_>, source: &str) -> Option<String> {
    for l in ctx.logs().iter().filter(|l| l.source == source) {
        for line in l.text.lines() {
            if line.contains("Running load balancer") || line.contains("-load-balancer") {
                continue;
            }
            let lower = line.to_ascii_lowercase();
            for hint in [
                "haproxy",
                "nginx",
                "envoy",
                "traefik",
                ".elb.amazonaws.com",
                "load balancer",
                "loadbalancer",
                "load-balancer",
                " lb ",
                "://lb",
                "ssl termination",
                "tls termination",
                "terminates tls",
                "terminate tls",
            ] {
                if lower.contains(hint) {
                    return Some(hint.trim().to_owned());
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn wrong_pin_fires_right_pin_second_does_not() {
        let (a, b, c) = ("a".repeat(64), "b".repeat(64), "c".repeat(64));
        let mk = |got: &str| {
            format!(
                "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:{a} --discovery-token-ca-cert-hash sha256:{b}\nerror execution phase preflight: couldn't validate the identity of the API Server: cluster CA found in cluster-info ConfigMap is invalid: none of the public keys \"sha256:{got}\" are pinned\n"
            )
        };
        let f = run_log("join-ca-hash-mismatch", &mk(&c));
        assert_eq!(f.len(), 1);
        assert!(f[0].remedy.contains("--print-join-command") && !f[0].remedy.contains("openssl"));
        assert!(run_log("join-ca-hash-mismatch", &mk(&b)).is_empty());
    }
}
