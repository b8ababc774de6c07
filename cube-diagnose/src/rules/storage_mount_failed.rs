//! `storage-mount-failed`: FailedMount / FailedAttachVolume / Multi-Attach events.

use crate::classify::SignalKind;
use crate::rules::{signal_subject, signals};
use crate::{Context, Finding, Severity};

declare_rule!(
    StorageMountFailed,
    "storage-mount-failed",
    Storage,
    Error,
    "Events or texts show FailedMount, FailedAttachVolume or a Multi-Attach error: the pod's volume could not be attached or mounted (NFS server unreachable or export denied, CSI driver missing on the node, a ReadWriteOnce volume still attached to another node). The pod stays in ContainerCreating.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut seen = std::collections::BTreeSet::new();
    signals(ctx, &[SignalKind::MountFailed])
        .filter(|s| seen.insert(signal_subject(s)))
        .map(|s| {
            let multi = s.text.contains("Multi-Attach");
            Finding::new(StorageMountFailed::ID, Severity::Error, signal_subject(s), if multi { "volume is still attached to another node (Multi-Attach error): a ReadWriteOnce volume cannot be used by pods on two nodes" } else { "a volume could not be attached or mounted for the pod" })
                .with_evidence(s.evidence())
                .with_remedy(if multi { "wait for or force the detach from the old node (delete the old pod / VolumeAttachment), or use a ReadWriteMany class for shared use" } else { "`kubectl describe pod` for the full mount error; check the NFS export/CSI node plugin on that node (`showmount -e <server>`, `kubectl get csinode`)" })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn failed_mount_event_text() {
        assert_eq!(run_log("storage-mount-failed", "Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32").len(), 1);
        assert!(run_log("storage-mount-failed", "Normal  SuccessfulAttachVolume  2m  attachdetach-controller  AttachVolume.Attach succeeded").is_empty());
    }
}
