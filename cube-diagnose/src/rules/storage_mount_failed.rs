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
    // one finding per subject: the most specific line decides (a mount helper's own message
    // over the kubelet's generic wrapper)
    let mut best: std::collections::BTreeMap<crate::Subject, (&crate::classify::Signal, usize)> =
        std::collections::BTreeMap::new();
    for s in signals(ctx, &[SignalKind::MountFailed]) {
        let rank = match crate::catalog::entry(s.detail("entry")) {
            Some(e)
                if e.id.starts_with("nfs.")
                    || e.id.starts_with("mount.helper")
                    || e.id.starts_with("csi.")
                    || e.id.starts_with("attach.multi") =>
            {
                0
            }
            // the kubelet's wrapper of the failing mount, then its overall timeout
            Some(e) if e.id != "mount.unable-to-attach-or-mount" => 1,
            Some(_) => 2,
            None => 3,
        };
        let subject = signal_subject(s);
        match best.get(&subject) {
            Some((_, r)) if *r <= rank => {}
            _ => {
                best.insert(subject, (s, rank));
            }
        }
    }
    best.into_iter()
        .map(|(subject, (s, _))| {
            let (message, remedy) = match crate::catalog::entry(s.detail("entry")) {
                Some(e) => e.cause_and_remedy(s),
                None => ("a volume could not be attached or mounted for the pod".to_owned(), "`kubectl describe pod` for the full mount error; check the NFS export/CSI node plugin on that node (`showmount -e <server>`, `kubectl get csinode`)".to_owned()),
            };
            Finding::new(StorageMountFailed::ID, Severity::Error, subject, message)
                .with_evidence(s.evidence())
                .with_remedy(remedy)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn mount_utils_output_names_the_reason() {
        let f = run_log(
            "storage-mount-failed",
            "E0618 14:42:47.959637       1 mount_linux.go:230] Mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs -o nfsvers=4.1 nfs.example.net:/vol /tmp/pvc-1\nOutput: mount.nfs: Resource temporarily unavailable\n\nE0618 14:42:47.959705       1 utils.go:115] GRPC error: rpc error: code = Internal desc = failed to mount nfs server: rpc error: code = Internal desc = mount failed: exit status 32",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("Resource temporarily unavailable"));
        assert!(f[0].remedy.contains("showmount -e"));
    }

    #[test]
    fn failed_mount_event_text() {
        assert_eq!(run_log("storage-mount-failed", "Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32").len(), 1);
        assert!(run_log("storage-mount-failed", "Normal  SuccessfulAttachVolume  2m  attachdetach-controller  AttachVolume.Attach succeeded").is_empty());
        // the helper's own message decides the cause
        let f = run_log(
            "storage-mount-failed",
            "Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume \"pv-nfs\" : mount failed: exit status 32\nMounting command: mount\nOutput: mount.nfs: access denied by server while mounting 10.0.0.5:/exports/data",
        );
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("refuses the export 10.0.0.5:/exports/data"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("/etc/exports"));
    }
}
