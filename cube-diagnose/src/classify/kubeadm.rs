//! Derivations for node-join texts (`kubeadm join`, k3s/rke2 agents, and the connection
//! errors they wrap): the CA pins of the whole text, the endpoint of a refused or timed-out
//! connection and whether it is an address other machines can never reach.

use std::collections::BTreeMap;

use super::{SignalKind, Whole, dial_endpoint};
use crate::catalog::Match;

/// Addresses that are never reachable from other machines when advertised by a control plane
/// (VirtualBox NAT, loopback).
pub const UNROUTABLE_ADVERTISED: &[&str] = &["10.0.2.15", "127.0.0.1", "localhost"];

pub(crate) fn refine(
    kind: SignalKind,
    m: &Match,
    l: &str,
    whole: &Whole,
    d: &mut BTreeMap<String, String>,
) -> SignalKind {
    match kind {
        SignalKind::JoinTokenUnknown => {
            let wording = if m.entry.id == "kubeadm.token.jws-missing-legacy" {
                "old"
            } else {
                "new"
            };
            d.insert("wording".to_owned(), wording.to_owned());
            kind
        }
        SignalKind::JoinCaPinMismatch => {
            let got = m.value("ca_key_hash").to_owned();
            if !whole.pins.is_empty() {
                d.insert("pins".to_owned(), whole.pins.join(","));
            }
            match whole.pins.iter().position(|p| *p == got) {
                // kubeadm#2471: the CA's hash is among the pins but not first
                Some(i) => {
                    d.insert("pin_position".to_owned(), (i + 1).to_string());
                    SignalKind::JoinCaPinListedLater
                }
                None => kind,
            }
        }
        SignalKind::TlsNameMismatch => {
            let wanted = m
                .value("wanted")
                .trim_end_matches([']', '"', ')', '.', ','])
                .to_owned();
            d.insert("wanted".to_owned(), wanted);
            kind
        }
        SignalKind::Refused => {
            if ["localhost:8080", "127.0.0.1:8080", "[::1]:8080"]
                .iter()
                .any(|a| l.contains(a))
            {
                // kubectl's built-in default server (client-go tools/clientcmd
                // ClientConfigLoadingRules: an empty config resolves to http://localhost:8080,
                // which Go dials as [::1]:8080 first where IPv6 is on, e.g. on Windows): no
                // kubeconfig was found
                return SignalKind::NoUsableKubeconfig;
            }
            let ep = [m.value("endpoint"), m.value("server")]
                .into_iter()
                .find(|v| !v.is_empty())
                .map(str::to_owned)
                .or_else(|| dial_endpoint(l))
                .unwrap_or_default();
            if let Some(a) = UNROUTABLE_ADVERTISED.iter().find(|a| ep.starts_with(*a)) {
                d.insert("unroutable_address".to_owned(), (*a).to_owned());
            }
            d.insert("endpoint".to_owned(), ep);
            kind
        }
        SignalKind::Timeout => {
            let ep = match m.value("endpoint") {
                "" => url_host(l),
                e => e.to_owned(),
            };
            if !ep.is_empty() {
                d.insert("endpoint".to_owned(), ep);
            }
            kind
        }
        SignalKind::NoRoute => {
            if let Some(ep) = dial_endpoint(l) {
                d.insert("endpoint".to_owned(), ep);
            }
            kind
        }
        k => k,
    }
}

/// `host:port` of the first `https://` URL in the line.
pub(crate) fn url_host(l: &str) -> String {
    l.find("https://")
        .map(|p| {
            l[p + 8..]
                .chars()
                .take_while(|c| !matches!(c, '/' | '"' | ' ' | '?' | '\\'))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::super::{SignalKind as K, classify};

    #[track_caller]
    fn kinds(text: &str) -> Vec<K> {
        classify("t", text).into_iter().map(|s| s.kind).collect()
    }

    #[test]
    fn right_pin_listed_second_is_not_a_mismatch() {
        let a = "a".repeat(64);
        let b = "b".repeat(64);
        let text = format!(
            "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:{a} --discovery-token-ca-cert-hash sha256:{b}\n\
             error execution phase preflight: couldn't validate the identity of the API Server: cluster CA found in cluster-info ConfigMap is invalid: none of the public keys \"sha256:{b}\" are pinned\n"
        );
        assert_eq!(kinds(&text), vec![K::JoinCaPinListedLater]);
        let c = "c".repeat(64);
        let text2 = text.replace(
            &format!("keys \"sha256:{b}\""),
            &format!("keys \"sha256:{c}\""),
        );
        assert_eq!(kinds(&text2), vec![K::JoinCaPinMismatch]);
    }

    #[test]
    fn refused_and_timeout_differ() {
        let s = classify(
            "t",
            "error execution phase preflight: couldn't validate the identity of the API Server: Get \"https://10.0.2.15:6443/api\": dial tcp 10.0.2.15:6443: connect: connection refused",
        );
        assert_eq!(s[0].kind, K::Refused);
        assert!(s[0].join);
        assert_eq!(s[0].detail("unroutable_address"), "10.0.2.15");
        assert_eq!(
            kinds(
                "net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)"
            ),
            vec![K::Timeout]
        );
    }

    #[test]
    fn newer_token_wording_and_k3s_agents() {
        let s = classify(
            "j",
            "[discovery] Failed to connect to API Server \"10.10.51.64:6443\": token id \"uhcqg1\" is invalid for this cluster or it has expired. Use \"kubeadm token create\" on the control-plane node to create a new valid token",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(
            (s[0].kind, s[0].detail("token_id")),
            (K::JoinTokenUnknown, "uhcqg1")
        );
        assert!(s[0].join);
        assert_eq!(
            kinds(
                "level=info msg=\"Waiting to retrieve agent configuration; server is not ready: Node password rejected, duplicate hostname or contents of '/etc/rancher/node/password' may not match server node-passwd entry, try enabling a unique node name with the --with-node-id flag\""
            ),
            vec![K::NodePasswordRejected]
        );
        let s = classify(
            "k",
            "level=error msg=\"failed to get CA certs: Get \\\"https://10.50.0.1:6443/cacerts\\\": dial tcp 10.50.0.1:6443: connect: no route to host\"",
        );
        assert_eq!((s[0].kind, s[0].join), (K::NoRoute, true));
    }
}
