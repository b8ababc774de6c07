//! `join-csr-not-approved`: a joining node's client certificate request is never approved, so
//! the node gets no credentials (kubeadm join hangs or times out in the TLS bootstrap).

use std::collections::BTreeMap;

use crate::catalog::CSR_APPROVAL_REMEDY;
use crate::classify::{Signal, SignalKind};
use crate::rules::signals;
use crate::{Context, Finding, Severity, Subject};

declare_rule!(
    JoinCsrNotApproved,
    "join-csr-not-approved",
    Join,
    Error,
    "A joining node's client certificate signing request is not approved: kubeadm v1.4-v1.8 stops after `[csr] Created API client to obtain unique certificate for this node, generating keys and certificate signing request`; kubeadm v1.11+ times out after `[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap` (`timed out waiting for the condition`, `context deadline exceeded`) while the kubelet itself is healthy; `kubectl get csr` shows node client requests Pending; kube-controller-manager says `recognized csr ... as [nodeclient] but subject access review was not approved`; or the request was denied. The auto-approval ClusterRoleBindings kubeadm creates (system:certificates.k8s.io:certificatesigningrequests:nodeclient for the bootstrap tokens' group, selfnodeclient for system:nodes) are missing or kube-controller-manager's csrapproving controller is off: approve with `kubectl certificate approve` and restore the bindings. Pending kubelet serving requests (kubernetes.io/kubelet-serving) are not reported: they need manual approval by design.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = check_all(ctx);
    crate::rules::superseded_by_kubeadm_success(ctx, &mut out);
    out
}

fn check_all(ctx: &Context<'_>) -> Vec<Finding> {
    let mut by_source: BTreeMap<&str, Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::JoinCsrPending]) {
        by_source.entry(&s.source).or_default().push(s);
    }
    let mut out: Vec<Finding> = by_source
        .into_iter()
        .map(|(source, sigs)| {
            // the strongest evidence of the text decides the wording: the pending requests
            // themselves, then a timed-out wait, then a text that stops at the wait
            let rank = |s: &Signal| match s.detail("why") {
                "pending-table" => 0,
                "legacy-csr" => 1,
                "tls-bootstrap-timeout" => 2,
                _ => 3,
            };
            let first = sigs.iter().copied().min_by_key(|s| rank(s)).unwrap_or(sigs[0]);
            let subject = first
                .object
                .clone()
                .unwrap_or_else(|| Subject::log(source));
            let (severity, message, remedy) = match first.detail("why") {
                "pending-table" => {
                    let names = first.detail("csrs");
                    (
                        Severity::Error,
                        format!(
                            "node client certificate signing request(s) {names} (requested by {}) are Pending: nothing approved them, so the kubelet that asked has no client certificate and its node cannot join or register; kube-controller-manager approves a kubelet's request by itself only when the requester may create certificatesigningrequests/nodeclient (kubeadm's auto-approval ClusterRoleBinding) and its csrapproving controller runs",
                            first.detail("requestors")
                        ),
                        format!(
                            "approve them now: `kubectl certificate approve {names}`; then restore auto-approval for the next nodes: {}",
                            CSR_APPROVAL_REMEDY
                                .split_once("then restore auto-approval for the next nodes: ")
                                .map_or(CSR_APPROVAL_REMEDY, |(_, rest)| rest)
                        ),
                    )
                }
                "legacy-csr" => (
                    Severity::Error,
                    "kubeadm created the node's certificate signing request (`[csr] Created API client to obtain unique certificate for this node ...`) and never received the signed certificate: this kubeadm (v1.4-v1.8) waits until the request is approved, so it is Pending: nothing approves node requests (no auto-approval binding for the bootstrap token's group, or the csrapproving controller is off)".to_owned(),
                    CSR_APPROVAL_REMEDY.to_owned(),
                ),
                why => {
                    let stalled = why == "tls-bootstrap-stalled";
                    (
                        // a text that ends at the wait is also a healthy join cut short:
                        // information, with the condition it holds under
                        if stalled { Severity::Info } else { Severity::Error },
                        format!(
                            "kubeadm join {} `[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap` while the kubelet itself is not reported unhealthy: the kubelet did not get its client certificate (kubeadm waits for /etc/kubernetes/kubelet.conf, which the kubelet writes once its certificate signing request is approved and signed); most often the request is Pending because nothing approves it (kubeadm's auto-approval ClusterRoleBinding for the bootstrap token's group is missing, or kube-controller-manager's csrapproving controller is off); `kubectl get csr` tells: a Pending request from system:bootstrap:<token id> is this case, no request at all means the kubelet could not create one (its journal says why: the bootstrap token or the API server address); an approved request with the join still waiting means the kubelet wrote its kubeconfig elsewhere (the `--kubeconfig` of its systemd drop-in 10-kubeadm.conf must be /etc/kubernetes/kubelet.conf)",
                            if stalled { "output ends at (if kubeadm hangs there, that is this case; a join still running or cut short is not)" } else { "times out after" }
                        ),
                        format!(
                            "on a control-plane node run `kubectl get csr`; {CSR_APPROVAL_REMEDY}; then on the joining node `kubeadm reset -f` and join again (or, if kubeadm is still waiting, the approval lets it finish)"
                        ),
                    )
                }
            };
            Finding::new(JoinCsrNotApproved::ID, severity, subject, message)
                .with_evidences(sigs.iter().take(3).map(|s| s.evidence()))
                .with_remedy(remedy)
        })
        .collect();
    // kube-controller-manager's and client-go's own words (catalog `kcm.csr-sar-not-approved`,
    // `client.csr-denied`)
    out.extend(crate::rules::log_catalog::catalog_findings(
        ctx,
        JoinCsrNotApproved::ID,
    ));
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn every_shape_of_a_pending_node_request() {
        // frakti#171: kubeadm v1.8-alpha stops after the request
        let legacy = "[bootstrap] Detected server version: v1.8.0-alpha.0\n[bootstrap] The server supports the Certificates API (certificates.k8s.io/v1beta1)\n[csr] Created API client to obtain unique certificate for this node, generating keys and certificate signing request\n";
        let f = run_log("join-csr-not-approved", legacy);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].remedy.contains("kubectl certificate approve"));
        assert!(
            f[0].remedy
                .contains("certificatesigningrequests:nodeclient")
        );
        let sar = "E1113 12:42:41.061323       1 certificate_controller.go:139] Sync csr-6zgzk failed with : recognized csr \"csr-6zgzk\" as [nodeclient] but subject access review was not approved";
        let f = run_log("join-csr-not-approved", sar);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("csr-6zgzk"));
        assert!(run_log("log-line-unrecognised", sar).is_empty());
        let table = "NAME                                                   AGE       REQUESTOR                 CONDITION\nnode-csr--xxbcTVSGLA-_8dYnXtFV_N70CDIxi3nBy0lQxQXiUk   2d        system:bootstrap:285766   Pending\nnode-csr---Jlqs1LguxpS-E1bqGDrxS7fS5CmAAh8B6YjNALkNw   39d       system:bootstrap:cbb1c8   Approved,Issued\n";
        let f = run_log("join-csr-not-approved", table);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].remedy.contains(
            "kubectl certificate approve node-csr--xxbcTVSGLA-_8dYnXtFV_N70CDIxi3nBy0lQxQXiUk"
        ));
        // a healthy join says nothing
        let healthy = "[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap...\n\nThis node has joined the cluster:\n* Certificate signing request was sent to apiserver and a response was received.\n";
        assert!(run_log("join-csr-not-approved", healthy).is_empty());
        // the timeout is not an unreachable API server
        let timeout = "[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap\n\nUnfortunately, an error has occurred:\n\tcontext deadline exceeded\n\nerror execution phase kubelet-start: context deadline exceeded\n";
        assert_eq!(run_log("join-csr-not-approved", timeout).len(), 1);
        assert!(run_log("join-apiserver-unreachable", timeout).is_empty());
        assert!(run_log("cluster-unreachable", timeout).is_empty());
    }
}
