//! A node's client certificate that nobody approves: the shapes a join shows it in, read over
//! the whole text (one line alone says nothing: the same progress lines end a healthy join).
//!
//! - kubeadm v1.6-v1.8 requested the node's certificate itself and waited for it
//!   (cmd/kubeadm/app/node/csr.go: `[csr] Created API client to obtain unique certificate for
//!   this node, generating keys and certificate signing request`, then `[csr] Received signed
//!   certificate from the API server, generating KubeConfig...` once approved; v1.4-v1.5
//!   `<node/csr> created API client ...` and `<node/csr> failed to request signed certificate
//!   from the API server [...]`): a text that stops after the first line, or times out, shows
//!   the request pending.
//! - kubeadm v1.11+ hands the request to the kubelet's TLS bootstrap and waits for
//!   /etc/kubernetes/kubelet.conf (cmd/kubeadm/app/cmd/phases/join/kubelet.go
//!   `waitForTLSBootstrappedClient`: `[kubelet-start] Waiting for the kubelet to perform the TLS
//!   Bootstrap`, `[tlsbootstrap]` v1.11-v1.13): a wait that times out (`timed out waiting for the
//!   condition` through v1.28's wait.PollImmediate, `context deadline exceeded` from
//!   PollUntilContextTimeout) while the kubelet itself is healthy (no `[kubelet-check]`
//!   failure) means the kubelet's CSR was not approved (or not issued).
//! - `kubectl get csr` rows (NAME AGE [SIGNERNAME] REQUESTOR [REQUESTEDDURATION] CONDITION)
//!   with a node client request Pending: the kubelet's bootstrap request (`node-csr-<digest>`,
//!   pkg/kubelet/certificate/bootstrap/bootstrap.go digestedName; requestor
//!   `system:bootstrap:<token id>`; signer kubernetes.io/kube-apiserver-client-kubelet).
//!   Pending kubelet *serving* requests (signer kubernetes.io/kubelet-serving) wait for a human
//!   by design (no built-in approver) and are not a join failure.

use std::collections::BTreeMap;

use super::{Signal, SignalKind, details, journal_host};
use crate::finding::Subject;

/// The TLS-bootstrap / CSR stall signals of `text` (kind [`SignalKind::JoinCsrPending`],
/// detail `why`: `legacy-csr` | `tls-bootstrap-timeout` | `tls-bootstrap-stalled` |
/// `pending-table`), and the lines of `out` they explain (the timeout lines: read, not
/// unrecognised, and not an unreachable API server).
pub(crate) fn check(source: &str, text: &str, out: &mut Vec<Signal>) {
    let lines: Vec<&str> = text.lines().collect();
    let mut found: Vec<Signal> = Vec::new();
    let mut explained: Vec<usize> = Vec::new();
    let signal = |line: usize, l: &str, d: BTreeMap<String, String>| Signal {
        kind: SignalKind::JoinCsrPending,
        source: source.to_owned(),
        line: line + 1,
        text: crate::finding::redact(l.trim()),
        join: true,
        object: journal_host(l).map(|h| Subject::cluster_scoped("Node", &h)),
        details: d,
    };
    // the kubelet itself failed: its own error is the cause (node-not-ready and the kubelet
    // rules say which), not the approval
    let kubelet_failed = lines.iter().any(|l| {
        l.contains("[kubelet-check] It seems like the kubelet isn't running or healthy")
            || l.contains("[kubelet-check] The kubelet is not healthy after")
            || l.contains("[kubelet-check] The HTTP call equal to")
    }) || out.iter().any(|s| {
        matches!(
            s.kind,
            SignalKind::KubeletUnhealthy
                | SignalKind::CgroupDriverMismatch
                | SignalKind::KubeletCertExpired
                | SignalKind::Unauthorized
                | SignalKind::AnonymousForbidden
                | SignalKind::JoinTokenUnknown
                | SignalKind::JoinTokenSecretMismatch
                | SignalKind::DuplicateNodeName
        ) || (s.kind == SignalKind::Known
            && (s.detail("entry").starts_with("kubelet.")
                || s.detail("entry").starts_with("kubeadm.preflight")))
    });
    let done = |from: usize| {
        lines[from..].iter().any(|l| {
            l.contains("This node has joined the cluster")
                || l.contains("Node join complete")
                || l.contains("eceived signed certificate from the API server")
                || l.contains("Certificate signing request was sent to")
        })
    };
    // the last wait of the text
    let wait = lines.iter().rposition(|l| {
        l.contains("Waiting for the kubelet to perform the TLS Bootstrap")
            || l.contains("API client to obtain unique certificate for this node")
    });
    if let Some(w) = wait
        && !kubelet_failed
        && !done(w)
    {
        let legacy = lines[w].contains("API client to obtain unique certificate");
        // what follows the wait: a timeout (not the later crisocket upload, which runs
        // once kubelet.conf exists: the Node did not register), or nothing at all
        let after: Vec<(usize, &str)> = lines
            .iter()
            .enumerate()
            .skip(w + 1)
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i, *l))
            .collect();
        // the join went on past the bootstrap (a later phase's `[tag]` line: `[patchnode]`,
        // `[etcd]`, `[mark-control-plane]`): a later timeout is that phase's
        let later_phase = after
            .iter()
            .position(|(_, l)| {
                let t = l.trim_start();
                t.starts_with('[')
                    && !t.starts_with("[kubelet-check]")
                    && !t.starts_with("[kubelet-start]")
            })
            .unwrap_or(after.len());
        let went_on = later_phase < after.len();
        let after = &after[..later_phase];
        let timeout = after.iter().find(|(_, l)| {
            (l.contains("timed out waiting for the condition")
                || l.contains("context deadline exceeded")
                || l.contains("failed to request signed certificate"))
                && !l.contains("crisocket")
                && !l.contains("CRISocket")
                && !l.contains("CRI Socket")
        });
        // a hang: nothing after the wait but kubeadm's own context (its `[kubelet-check]`
        // initial-timeout line, the stack-trace hint) or a shell prompt
        let quiet = after.iter().all(|(_, l)| {
            let t = l.trim();
            t.starts_with("[kubelet-check] Initial timeout")
                || t.starts_with("To see the stack trace")
                || t.starts_with('$')
                || t.starts_with('#')
                || t.ends_with('$')
                || t.ends_with('#')
                || t == "^C"
        });
        let why = if went_on {
            None
        } else if legacy && (timeout.is_some() || quiet) {
            Some("legacy-csr")
        } else if timeout.is_some() {
            Some("tls-bootstrap-timeout")
        } else if quiet {
            Some("tls-bootstrap-stalled")
        } else {
            None
        };
        if let Some(why) = why {
            let (line, l) = timeout.copied().unwrap_or((w, lines[w]));
            let mut d = details(&[("why", why.to_owned())]);
            d.insert("wait_line".to_owned(), (w + 1).to_string());
            found.push(signal(line, l, d));
            // the lines after the wait that only time out are explained by it: the kubelet-start
            // phase's error, kubeadm's `Unfortunately, an error has occurred:` block
            for (i, l) in after {
                if l.contains("timed out waiting for the condition")
                    || l.contains("context deadline exceeded")
                    || l.contains("Unfortunately, an error has occurred")
                    || l.contains("failed to request signed certificate")
                {
                    explained.push(i + 1);
                }
            }
        }
    }
    // `kubectl get csr` rows
    let mut pending: Vec<(usize, String, String)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let cols: Vec<&str> = l.split_whitespace().collect();
        let (Some(name), Some(cond)) = (cols.first(), cols.last()) else {
            continue;
        };
        if cols.len() < 4
            || !(name.starts_with("csr-") || name.starts_with("node-csr-"))
            || *cond != "Pending"
        {
            continue;
        }
        let signer = cols.iter().find(|c| c.starts_with("kubernetes.io/"));
        let requestor = cols
            .iter()
            .find(|c| c.starts_with("system:"))
            .copied()
            .unwrap_or("");
        let client = match signer {
            Some(s) => *s == "kubernetes.io/kube-apiserver-client-kubelet",
            None => requestor.starts_with("system:bootstrap:") || name.starts_with("node-csr-"),
        };
        if client {
            pending.push((i, (*name).to_owned(), requestor.to_owned()));
        }
    }
    if let Some((first, _, _)) = pending.first() {
        let names: Vec<&str> = pending.iter().map(|(_, n, _)| n.as_str()).collect();
        let mut requestors: Vec<&str> = pending.iter().map(|(_, _, r)| r.as_str()).collect();
        requestors.sort_unstable();
        requestors.dedup();
        let d = details(&[
            ("why", "pending-table".to_owned()),
            ("csrs", names.join(" ")),
            ("requestors", requestors.join(", ")),
        ]);
        found.push(signal(*first, lines[*first], d));
    }
    if found.is_empty() {
        return;
    }
    // the timeout lines the stall explains: neither unrecognised nor an unreachable server
    out.retain(|s| {
        !explained.contains(&s.line)
            || !matches!(
                s.kind,
                SignalKind::Unrecognised
                    | SignalKind::Timeout
                    | SignalKind::ConnectionClosed
                    | SignalKind::Refused
            )
    });
    out.extend(found);
}

#[cfg(test)]
mod tests {
    use super::super::{SignalKind as K, classify_all};

    fn whys(text: &str) -> Vec<String> {
        classify_all("t", text)
            .into_iter()
            .filter(|s| s.kind == K::JoinCsrPending)
            .map(|s| s.detail("why").to_owned())
            .collect()
    }

    #[test]
    fn stalls_and_tables() {
        let legacy = "[bootstrap] The server supports the Certificates API (certificates.k8s.io/v1beta1)\n[csr] Created API client to obtain unique certificate for this node, generating keys and certificate signing request\n";
        assert_eq!(whys(legacy), ["legacy-csr"]);
        let ok = format!(
            "{legacy}[csr] Received signed certificate from the API server, generating KubeConfig...\n\nNode join complete:\n"
        );
        assert!(whys(&ok).is_empty());
        let timeout = "[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap...\n[kubelet-check] Initial timeout of 40s passed.\nerror execution phase kubelet-start: timed out waiting for the condition\n";
        assert_eq!(whys(timeout), ["tls-bootstrap-timeout"]);
        let s = classify_all("t", timeout);
        assert!(
            !s.iter()
                .any(|s| s.kind == K::Unrecognised || s.kind == K::Timeout),
            "{s:#?}"
        );
        // the kubelet did not run: its failure is the cause
        let unhealthy = "[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap...\n[kubelet-check] It seems like the kubelet isn't running or healthy.\nerror execution phase kubelet-start: timed out waiting for the condition\n";
        assert!(whys(unhealthy).is_empty());
        // the crisocket upload runs after kubelet.conf exists: not an approval problem
        let crisocket = "[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap...\nerror execution phase kubelet-start: error uploading crisocket: timed out waiting for the condition\n";
        assert!(whys(crisocket).is_empty());
        let table = "NAME        AGE   SIGNERNAME                                    REQUESTOR                 REQUESTEDDURATION   CONDITION\ncsr-8x2kq   5m    kubernetes.io/kube-apiserver-client-kubelet   system:bootstrap:abcdef   <none>              Pending\ncsr-9zz1a   5m    kubernetes.io/kubelet-serving                 system:node:node-02       <none>              Pending\n";
        let s = classify_all("t", table);
        let t = s
            .iter()
            .find(|s| s.kind == K::JoinCsrPending)
            .expect("table");
        assert_eq!(t.detail("csrs"), "csr-8x2kq");
        // serving requests only: nothing
        assert!(
            whys(&table.replace("kube-apiserver-client-kubelet", "kubelet-serving")).is_empty()
        );
    }
}
