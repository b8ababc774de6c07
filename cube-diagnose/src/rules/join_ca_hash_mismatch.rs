//! `join-ca-hash-mismatch`: the discovery CA pin does not match (and not the multi-pin bug).

use crate::classify::SignalKind;
use crate::rules::signals;
use crate::{Context, Finding, Severity, Subject};

declare_rule!(
    JoinCaHashMismatch,
    "join-ca-hash-mismatch",
    Join,
    Error,
    "kubeadm join reports that none of the cluster CA's public keys is pinned by --discovery-token-ca-cert-hash: the hash was taken from another cluster's CA or mistyped. Not reported when the CA's hash is among the given pins but not the first one (kubeadm#2471: older kubeadm only checked the first pin); then pass the matching pin alone.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    signals(ctx, &[SignalKind::JoinCaPinMismatch])
        .map(|s| {
            Finding::new(
                JoinCaHashMismatch::ID,
                Severity::Error,
                Subject::log(&s.source),
                format!("the cluster CA's key hash {} is not among the pins given to kubeadm join ({})", s.detail("ca_key_hash"), if s.detail("pins").is_empty() { "none seen" } else { s.detail("pins") }),
            )
            .with_evidence(s.evidence())
            // the pin was taken from another CA: usually the join command is from before the
            // cluster was rebuilt (kubeadm reset / init made a new CA); recomputing the rejected
            // pin from the old command would repeat the failure
            .with_remedy("take a fresh join command from the cluster's current control plane: `kubeadm token create --print-join-command` (after a rebuild the CA, token and pin are new; the old command cannot work); on the joining node clear what the old cluster left: `kubeadm reset -f`, then run the new command as printed")
        })
        .collect()
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
        assert_eq!(run_log("join-ca-hash-mismatch", &mk(&c)).len(), 1);
        assert!(run_log("join-ca-hash-mismatch", &mk(&b)).is_empty());
    }
}
