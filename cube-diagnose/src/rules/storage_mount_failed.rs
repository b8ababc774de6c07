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
    // the volume the kubelet's wrapper names (`MountVolume.SetUp failed for volume "pv01"`),
    // per subject: the helper's own line (`mount.nfs: ...`) does not name it
    let mut volumes: std::collections::BTreeMap<crate::Subject, String> =
        std::collections::BTreeMap::new();
    for s in signals(ctx, &[SignalKind::MountFailed]) {
        if !s.detail("volume").is_empty() {
            volumes
                .entry(signal_subject(s))
                .or_insert_with(|| s.detail("volume").to_owned());
        }
    }
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
            let (mut message, mut remedy) = match crate::catalog::entry(s.detail("entry")) {
                Some(e) => e.cause_and_remedy(s),
                None => ("a volume could not be attached or mounted for the pod".to_owned(), "`kubectl describe pod` for the full mount error; check the NFS export/CSI node plugin on that node (`showmount -e <server>`, `kubectl get csinode`)".to_owned()),
            };
            let mut extra = Vec::new();
            if s.detail("entry") == "csi.driver-not-registered" {
                let driver = s.detail("driver");
                match kubelet_dir(ctx) {
                    Some(dir) => {
                        message = format!(
                            "the CSI driver {driver} is not registered with this node's kubelet: {}, so a node plugin installed for the default /var/lib/kubelet registers its socket in /var/lib/kubelet/plugins_registry, where this kubelet does not look (it watches {}/plugins_registry)",
                            dir.why, dir.path
                        );
                        remedy = format!(
                            "install the CSI driver with the kubelet directory {} (the chart's kubelet-dir setting: csi-driver-nfs and ceph-csi `kubeletDir`, democratic-csi `node.kubeletHostPath`, Rook `csi.kubeletDirPath` / ROOK_CSI_KUBELET_DIR_PATH, Longhorn `csi.kubeletRootDir`, aws-ebs-csi `node.kubeletPath`), then restart its node plugin pods; `kubectl get csinode <node> -o yaml` lists the drivers the kubelet registered",
                            dir.path
                        );
                        extra.extend(dir.evidence);
                    }
                    None => {
                        message = format!(
                            "the CSI driver {driver} is not registered with this node's kubelet: its node plugin does not run on the node, or it runs but its node-driver-registrar writes the registration socket under a kubelet directory this kubelet does not use (MicroK8s /var/snap/microk8s/common/var/lib/kubelet, k0s /var/lib/k0s/kubelet, a kubelet started with --root-dir)"
                        );
                        remedy = format!(
                            "check that the driver's node DaemonSet has a ready pod on this node and read its node-driver-registrar log; if it runs, compare the kubelet's root directory (`ps -ef | grep kubelet` for --root-dir) with the kubelet path the driver was installed with (its chart's kubeletDir / kubeletHostPath value); `kubectl get csinode <node> -o yaml` lists the drivers registered ({driver} missing)"
                        );
                    }
                }
            }
            if let Some(v) = volumes.get(&subject)
                && !message.contains(v.as_str())
            {
                message = format!("volume {v}: {message}");
            }
            Finding::new(StorageMountFailed::ID, Severity::Error, subject, message)
                .with_evidence(s.evidence())
                .with_evidences(extra)
                .with_remedy(remedy)
        })
        .collect()
}

/// Where this cluster's kubelet keeps its state when it is not `/var/lib/kubelet`, and how the
/// input shows it.
struct KubeletDir {
    /// The directory.
    path: String,
    /// Why (`the kubelet runs with --root-dir=/opt/k8s/kubelet`).
    why: String,
    /// The line or field that shows it.
    evidence: Vec<crate::Evidence>,
}

/// The kubelet's root directory when the input shows a non-default one: a kubelet command line
/// with `--root-dir` (kubernetes `cmd/kubelet/app/options/options.go`, default
/// `/var/lib/kubelet`; `systemctl status kubelet` and `ps` print it), a MicroK8s cluster (its
/// kubelet runs with `--root-dir=${SNAP_COMMON}/var/lib/kubelet`, canonical/microk8s
/// `microk8s-resources/default-args/kubelet`) or a k0s one (k0s `pkg/constant`
/// `KubeletRootDir` = `/var/lib/k0s/kubelet`), named in the text or by its nodes (the
/// `microk8s.io/cluster` label, a `+k0s` kubelet version).
fn kubelet_dir(ctx: &Context<'_>) -> Option<KubeletDir> {
    for log in ctx.logs() {
        for (i, line) in log.text.lines().enumerate() {
            let Some(at) = line.find("--root-dir") else {
                continue;
            };
            let rest = line[at + "--root-dir".len()..].trim_start_matches(['=', ' ']);
            let path: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | ','))
                .collect();
            if path.starts_with('/') && path.trim_end_matches('/') != "/var/lib/kubelet" {
                return Some(KubeletDir {
                    why: format!("the kubelet runs with --root-dir={path}, not /var/lib/kubelet"),
                    path,
                    evidence: vec![crate::Evidence::log(log.source.clone(), i + 1, line.trim())],
                });
            }
        }
    }
    let snap = ctx.snapshot();
    let microk8s = ctx.logs().iter().any(|l| {
        let t = l.text.to_ascii_lowercase();
        t.contains("microk8s")
    }) || snap
        .nodes
        .iter()
        .any(|n| n.metadata.labels.contains_key("microk8s.io/cluster"));
    if microk8s {
        return Some(KubeletDir {
            path: "/var/snap/microk8s/common/var/lib/kubelet".to_owned(),
            why: "on MicroK8s the kubelet's directory is /var/snap/microk8s/common/var/lib/kubelet"
                .to_owned(),
            evidence: Vec::new(),
        });
    }
    let k0s = ctx.logs().iter().any(|l| {
        l.text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case("k0s"))
    }) || snap
        .nodes
        .iter()
        .any(|n| n.status.node_info.kubelet_version.contains("+k0s"));
    if k0s {
        return Some(KubeletDir {
            path: "/var/lib/k0s/kubelet".to_owned(),
            why: "on k0s the kubelet's directory is /var/lib/k0s/kubelet".to_owned(),
            evidence: Vec::new(),
        });
    }
    None
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

    /// GKE's containerized mounter nests a second mount-utils block in the `Output:`
    /// (2i2c-org/infrastructure#1655): the innermost output decides.
    #[test]
    fn nested_mounter_output_names_the_server_refusal() {
        let f = crate::rules::testutil::run_rule(
            "storage-mount-failed",
            "Warning  FailedMount  6s (x5 over 14s)  kubelet  MountVolume.SetUp failed for volume \"home\" : mount failed: exit status 1\nMounting command: /home/kubernetes/containerized_mounter/mounter\nMounting arguments: mount -t nfs nfs-1:/export/home /var/lib/kubelet/pods/x/volumes/kubernetes.io~nfs/home\nOutput: Mount failed: mount failed: exit status 32\nMounting command: chroot\nMounting arguments: [/home/kubernetes/containerized_mounter/rootfs mount -t nfs nfs-1:/export/home /var/lib/kubelet/pods/x/volumes/kubernetes.io~nfs/home]\nOutput: mount.nfs: access denied by server while mounting nfs-1:/export/home\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("/etc/exports"), "{}", f[0].message);
    }

    #[test]
    fn an_unregistered_driver_names_the_kubelet_directory() {
        let line = "E0922 10:43:14.603211 1777 nestedpendingoperations.go:301] Operation failed. Error: MountVolume.MountDevice failed for volume \"pvc-1\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name rook-ceph.rbd.csi.ceph.com not found in the list of registered CSI drivers";
        // a kubelet command line with --root-dir (systemctl status)
        let f = run_log(
            "storage-mount-failed",
            &format!(
                "   CGroup: /system.slice/kubelet.service\n           └─1777 /usr/local/bin/kubelet --config=/etc/kubernetes/kubelet.config.json --root-dir=/opt/k8s/kubelet --v=2\n{line}"
            ),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("--root-dir=/opt/k8s/kubelet"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("/opt/k8s/kubelet"), "{}", f[0].remedy);
        // MicroK8s named in the text
        let f = run_log(
            "storage-mount-failed",
            &format!("on microk8s 1.20:\n{line}"),
        );
        assert!(
            f[0].message
                .contains("/var/snap/microk8s/common/var/lib/kubelet"),
            "{}",
            f[0].message
        );
        // nothing known: both causes, and the command that tells them apart
        let f = run_log("storage-mount-failed", line);
        assert!(
            f[0].message.contains("does not run on the node"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("--root-dir"), "{}", f[0].remedy);
        // the default directory named explicitly is not a finding of its own
        let f = run_log(
            "storage-mount-failed",
            &format!("kubelet --root-dir=/var/lib/kubelet\n{line}"),
        );
        assert!(
            f[0].message.contains("does not run on the node"),
            "{}",
            f[0].message
        );
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
