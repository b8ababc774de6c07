//! `kubeadm join` output: bootstrap token (JWS), CA pin, API server reachability and TLS,
//! kubelet-check, duplicate node names.

use super::{Hit, SignalKind, Whole, details, dial_endpoint, quoted_after};

/// Addresses that are never reachable from other machines when advertised by a control plane
/// (VirtualBox NAT, loopback).
pub const UNROUTABLE_ADVERTISED: &[&str] = &["10.0.2.15", "127.0.0.1", "localhost"];

pub(crate) fn classify_line(l: &str, whole: &Whole) -> Vec<Hit> {
    let mut out = Vec::new();
    if l.contains("JWS signature") || l.contains("no JWS signed token") {
        let id = quoted_after(l, "token ID")
            .or_else(|| quoted_after(l, "token id"))
            .unwrap_or_default();
        let wording = if l.contains("no JWS signed token") {
            "old"
        } else {
            "new"
        };
        out.push((
            SignalKind::JoinTokenUnknown,
            details(&[("token_id", id), ("wording", wording.to_owned())]),
        ));
    }
    if l.contains("none of the public keys") && l.contains("are pinned") {
        let got = quoted_after(l, "none of the public keys").unwrap_or_default();
        let pos = whole.pins.iter().position(|p| *p == got);
        match pos {
            Some(i) => out.push((
                SignalKind::JoinCaPinListedLater,
                details(&[
                    ("ca_key_hash", got),
                    ("pin_position", (i + 1).to_string()),
                    ("pins", whole.pins.join(",")),
                ]),
            )),
            None => out.push((
                SignalKind::JoinCaPinMismatch,
                details(&[("ca_key_hash", got), ("pins", whole.pins.join(","))]),
            )),
        }
    }
    if l.contains("x509: certificate is valid for") {
        let rest = &l[l.find("x509: certificate is valid for").unwrap_or(0) + 30..];
        let (valid_for, wanted) = match rest.rfind(", not ") {
            Some(p) => (
                rest[..p].trim().to_owned(),
                rest[p + 6..].trim_end_matches(']').trim().to_owned(),
            ),
            None => (rest.trim().to_owned(), String::new()),
        };
        out.push((
            SignalKind::TlsNameMismatch,
            details(&[("valid_for", valid_for), ("wanted", wanted)]),
        ));
    }
    if l.contains("kubelet isn't running or healthy")
        || l.contains("127.0.0.1:10248")
        || l.contains("localhost:10248/healthz\" failed")
    {
        if !out.iter().any(|(k, _)| *k == SignalKind::KubeletUnhealthy) {
            out.push((SignalKind::KubeletUnhealthy, details(&[])));
        }
        return out;
    }
    if l.contains("a Node with name") && l.contains("already exists") {
        let name = quoted_after(l, "a Node with name").unwrap_or_default();
        out.push((SignalKind::DuplicateNodeName, details(&[("node", name)])));
    }
    if l.contains("connection refused") && !l.contains("localhost:8080") {
        let ep = dial_endpoint(l).unwrap_or_default();
        let nat = UNROUTABLE_ADVERTISED
            .iter()
            .find(|a| ep.starts_with(*a))
            .map(|a| (*a).to_owned())
            .unwrap_or_default();
        out.push((
            SignalKind::Refused,
            details(&[("endpoint", ep), ("unroutable_address", nat)]),
        ));
    }
    if is_timeout(l) {
        out.push((SignalKind::Timeout, details(&[("endpoint", url_host(l))])));
    }
    if l.contains("no route to host") || l.contains("network is unreachable") {
        out.push((
            SignalKind::NoRoute,
            details(&[("endpoint", dial_endpoint(l).unwrap_or_default())]),
        ));
    }
    out
}

pub(crate) fn is_timeout(l: &str) -> bool {
    l.contains("Client.Timeout exceeded")
        || l.contains("i/o timeout")
        || l.contains("request canceled while waiting for connection")
        || l.contains("context deadline exceeded")
        || l.contains("connection timed out")
        || l.contains("TLS handshake timeout")
}

/// `host:port` of the first `https://` URL in the line.
pub(crate) fn url_host(l: &str) -> String {
    l.find("https://")
        .map(|p| {
            l[p + 8..]
                .chars()
                .take_while(|c| !matches!(c, '/' | '"' | ' ' | '?'))
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
}
