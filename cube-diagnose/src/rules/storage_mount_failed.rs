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

/// The kubelet's texts that say a pod's volumes are mounted: its `MountVolume.SetUp succeeded
/// for volume %q` (pkg/volume/util/operationexecutor/operation_generator.go) and the container
/// events that only follow the mounts (`Created container %s`, `Started container %s`:
/// pkg/kubelet/events/event.go, kuberuntime_container.go).
const MOUNTED: &[&str] = &[
    "MountVolume.SetUp succeeded",
    "Created container",
    "Started container",
];

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
        // the pod's volumes were mounted later: its containers started (or it runs now), so
        // the failure is history (a later success supersedes it)
        let subject = signal_subject(s);
        if crate::rules::superseded(ctx, s, MOUNTED) || crate::rules::pod_running_now(ctx, &subject)
        {
            continue;
        }
        let rank = match crate::catalog::entry(s.detail("entry")) {
            Some(e)
                if e.id.starts_with("nfs.")
                    || e.id.starts_with("nfs4.")
                    || e.id.starts_with("mount.helper")
                    || e.id.starts_with("mount.wrong-fs")
                    || e.id.starts_with("cifs.")
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
            if let Some((m, r)) = mount_causes(ctx, s) {
                message = m;
                remedy = r;
            }
            // a projected service-account token volume (kube-api-access-*) is no storage
            // mount: the kubelet asks the API server for the token (TokenRequest) and for the
            // kube-root-ca.crt ConfigMap (pkg/volume/projected/projected.go collectData: `failed
            // to fetch token: %v`, the configmap manager's `failed to sync configmap cache:
            // timed out waiting for the condition`), so the API server's answer decides
            if let Some(at) = s.text.find("failed to fetch token: ") {
                let inner = s.text[at + "failed to fetch token: ".len()..]
                    .trim_end_matches([']', '"'])
                    .to_owned();
                let answered = [
                    "did not complete within",
                    "time allotted",
                    "could not be completed at this time",
                    "too many requests",
                    "etcdserver",
                ]
                .iter()
                .any(|m| inner.contains(m));
                message = format!(
                    "the kubelet could not fetch the pod's service-account token for its projected volume (a kube-api-access volume is not a storage mount: the kubelet asks the API server for the token with a TokenRequest): {inner}{}",
                    if answered {
                        "; the API server answered but too slowly or with an error, so the cause is the API server's backend (see etcd-unhealthy / admission-webhook-unreachable in the same text)"
                    } else {
                        ""
                    }
                );
                remedy = "check the API server and what it waits for (`kubectl get --raw '/readyz?verbose'`, etcd's latency with `etcdctl endpoint status --cluster -w table`, admission webhooks matching serviceaccounts/token), and that the kubelet of this node reaches the API server (its log: `journalctl -u kubelet | grep -i token`); the kubelet retries the mount by itself once the TokenRequest succeeds".to_owned();
            }
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
            // the node whose kubelet failed the mount: the event's source (`{kubelet <node>}`
            // of e2e dumps and `kubectl get events -o wide`, `kubelet, <node>` of describe
            // before v1.14) on any MountFailed line of the subject, else the pod's nodeName
            if let Some(node) = mount_node(ctx, &subject)
                && !message.contains(node.as_str())
            {
                message.push_str(&format!(" (node {node}, the kubelet that reported it)"));
                remedy.push_str(&format!("; the failing node is {node}"));
            }
            let severity = if s.text.contains("failed to fetch token: ") {
                Severity::Warning
            } else {
                Severity::Error
            };
            Finding::new(StorageMountFailed::ID, severity, subject, message)
                .with_evidence(s.evidence())
                .with_evidences(extra)
                .with_remedy(remedy)
        })
        .collect()
}

/// The node a mount failure of `subject` happened on: the kubelet named as an event's source
/// (`{kubelet k8s-node01}`, `kubelet, k8s-node01`) on the subject's MountFailed lines, else the
/// pod's spec.nodeName when the snapshot has the pod.
fn mount_node(ctx: &Context<'_>, subject: &crate::Subject) -> Option<String> {
    let from_source = |t: &str| -> Option<String> {
        let rest = t
            .find("{kubelet ")
            .map(|p| &t[p + "{kubelet ".len()..])
            .and_then(|r| r.split('}').next())
            .or_else(|| {
                t.find("kubelet, ")
                    .map(|p| &t[p + "kubelet, ".len()..])
                    .and_then(|r| r.split_whitespace().next())
            })?;
        let node = rest.trim().trim_end_matches(',');
        (!node.is_empty()
            && node
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_')))
        .then(|| node.to_owned())
    };
    signals(ctx, &[SignalKind::MountFailed])
        .filter(|s| signal_subject(s) == *subject)
        .find_map(|s| from_source(&s.text))
        .or_else(|| {
            ctx.snapshot()
                .pods
                .iter()
                .find(|p| crate::rules::pod_subject(p) == *subject)
                .map(|p| p.spec.node_name.clone())
                .filter(|n| !n.is_empty())
        })
}

/// What the mount command asked for: `-t <type>` and the `-o` options of the kubelet's
/// `Mounting arguments:` line (k8s.io/mount-utils mount_linux.go `doMount`), the nearest one
/// before the helper's output (or on the same line, when a paste joined them).
#[derive(Debug, Default)]
struct MountArgs {
    /// The filesystem type (`nfs`, `nfs4`, `cifs`, `ext4`); empty when not shown.
    fstype: String,
    /// The `-o` options.
    options: Vec<String>,
    /// True when a `Mounting arguments:` line was found.
    shown: bool,
}

impl MountArgs {
    /// The NFS version asked for (`vers=3`, `nfsvers=4.1`, or 4 for the nfs4 type).
    fn nfs_version(&self) -> Option<String> {
        self.options
            .iter()
            .find_map(|o| {
                o.strip_prefix("nfsvers=")
                    .or_else(|| o.strip_prefix("vers="))
                    .map(str::to_owned)
            })
            .or_else(|| (self.fstype == "nfs4").then(|| "4".to_owned()))
    }
}

/// The text a signal was read from: its log, or (source `events`, line = event index + 1) the
/// event's message, which holds the whole mount-utils message.
fn signal_text<'c>(ctx: &'c Context<'_>, s: &crate::classify::Signal) -> Option<(&'c str, usize)> {
    if s.source == "events"
        && let Some(e) = s
            .line
            .checked_sub(1)
            .and_then(|i| ctx.snapshot().events.get(i))
    {
        return Some((e.message.as_str(), e.message.lines().count()));
    }
    ctx.logs()
        .iter()
        .find(|l| l.source == s.source)
        .map(|l| (l.text.as_str(), s.line))
}

fn mount_args(ctx: &Context<'_>, s: &crate::classify::Signal) -> MountArgs {
    let mut out = MountArgs::default();
    let Some((text, line)) = signal_text(ctx, s) else {
        return out;
    };
    let lines: Vec<&str> = text.lines().collect();
    let end = line.min(lines.len());
    let start = end.saturating_sub(8);
    // the kubelet's `Mounting arguments:` line, or the command a person ran (`# mount -t nfs4
    // -o port=2049 server:/path /mnt`)
    let command = |l: &str| {
        let t = l.trim_start_matches(|c: char| c != 'm');
        (t.starts_with("mount -t ") || t.starts_with("mount -o "))
            .then(|| l.len() - t.len() + "mount".len())
    };
    let Some((line, at)) = lines[start..end].iter().rev().find_map(|l| {
        l.find("Mounting arguments:")
            .map(|p| (*l, p + "Mounting arguments:".len()))
            .or_else(|| command(l).map(|p| (*l, p)))
    }) else {
        return out;
    };
    out.shown = true;
    let args = &line[at..];
    let args = args.split(" Output:").next().unwrap_or(args);
    let words: Vec<&str> = args
        .split(|c: char| c.is_whitespace() || c == '[' || c == ']')
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "-t" => {
                if let Some(t) = words.get(i + 1) {
                    out.fstype = (*t).to_owned();
                }
            }
            "-o" => {
                if let Some(o) = words.get(i + 1) {
                    out.options
                        .extend(o.split(',').map(|x| x.trim().to_ascii_lowercase()));
                }
            }
            _ => {}
        }
    }
    out
}

/// Storage systems whose NFS exports are often NFSv3-only or version-restricted per export
/// policy (the version, not the address, is then the usual cause of `access denied`).
const VERSION_PICKY_SERVERS: &[&str] = &[
    "netapp",
    "ontap",
    "isilon",
    "powerscale",
    "windows server",
    "server for nfs",
    "synology",
    "qnap",
    "truenas",
    "freenas",
];

/// The causes of a mount helper's message that has several, ranked by what the input shows
/// (the mount options of `Mounting arguments:`, the kind of server named in the text):
///
/// - `mount.nfs: access denied by server` (nfs-utils utils/mount/error.c, EACCES): the export's
///   access list does not allow the node; or, when no `vers=`/`nfsvers=` is given, the server
///   refuses the version the client negotiated (NFSv4 first) for an export served over NFSv3
///   only, or the path is not under the NFSv4 pseudo-root (kubernetes-sigs/
///   nfs-subdir-external-provisioner#188: a NetApp share mounting only with `nfsvers=3`);
/// - `requested NFS version or transport protocol is not supported` (EOPNOTSUPP) and
///   `Protocol not supported` (EPROTONOSUPPORT): the explicit version is not offered, or no NFS
///   service answers for any version / the node's kernel lacks the NFS module;
/// - `No such file or directory` (ENOENT, `reason given by server`): the path does not exist,
///   or NFSv4 resolves it under the pseudo-root (`fsid=0`);
/// - `Operation not permitted` (EPERM): the server requires a privileged source port (export
///   option `secure`, the default) and the node's traffic is NATed, or the mount runs in an
///   unprivileged container;
/// - util-linux `bad option; ... /sbin/mount.<type> helper` and `wrong fs type`: for nfs/cifs
///   the helper package is missing on the node; for a block device, the filesystem type or an
///   option;
/// - cifs-utils `mount error(13): Permission denied`: the credentials, or the SMB dialect /
///   security mode when no `vers=` is given; `mount error(112): Host is down` and `(95)`: the
///   dialect.
fn mount_causes(ctx: &Context<'_>, s: &crate::classify::Signal) -> Option<(String, String)> {
    let entry = s.detail("entry");
    let reason = format!("{} {}", s.detail("reason"), s.text);
    let args = mount_args(ctx, s);
    let vers = args.nfs_version();
    let text = signal_text(ctx, s)
        .map(|(t, _)| t.to_ascii_lowercase())
        .unwrap_or_default();
    let picky = VERSION_PICKY_SERVERS
        .iter()
        .find(|n| text.contains(**n))
        .copied();
    let pin = "pin the version the export is served with: `mountOptions: [nfsvers=3]` (or `nfsvers=4.1`) on the PersistentVolume or its StorageClass (an inline `nfs:` volume takes no mount options: use a PV and PVC), and test from the node with `mount -t nfs -o nfsvers=3 <server>:<path> /mnt`";
    let export = s.detail("export");
    let export = if export.is_empty() {
        "the export"
    } else {
        export
    };
    match entry {
        "nfs.access-denied" => {
            let exports = format!("the node's address is not allowed in the export's access list (/etc/exports, or the storage system's export policy for {export})");
            let fix_exports = "on the NFS server allow the nodes' addresses for that export (/etc/exports then `exportfs -ra`, or the NAS export policy's client match) and check it with `showmount -e <server>`";
            match vers {
                None => {
                    let version = "the server refuses the NFS version the client negotiated: `Mounting arguments` set no vers=/nfsvers=, so the client tries NFSv4 first, and a server that serves this export over NFSv3 only (or other versions per export policy) answers access denied; with NFSv4 the path is also resolved under the server's pseudo-root (fsid=0)";
                    let (first, second, fix) = if picky.is_some() {
                        (version.to_owned(), exports, format!("{pin}; if the node still gets access denied, {fix_exports}"))
                    } else {
                        (exports, version.to_owned(), format!("{fix_exports}; if the export already allows the node, {pin}"))
                    };
                    let server = picky.map_or(String::new(), |p| format!(" (the text names a {p} server, whose exports are often version-restricted)"));
                    Some((
                        format!("the NFS server refuses the export {export} to this node (access denied), for one of two causes{server}: {first}; or {second}"),
                        fix,
                    ))
                }
                Some(v) => Some((
                    format!("the NFS server refuses the export {export} to this node (access denied): {exports}; the mount asks for NFS version {v} explicitly, so the export must also allow that version for the nodes"),
                    format!("{fix_exports}; check that the server serves NFS version {v} for it (`rpcinfo -p <server>`)"),
                )),
            }
        }
        "nfs.version-unsupported" | "nfs.failed" | "nfs4.failed"
            if entry == "nfs.version-unsupported"
                || reason.contains("Protocol not supported")
                || reason.contains("Protocol family not supported") =>
        {
            // EOPNOTSUPP (nfs-utils error.c), EPROTONOSUPPORT, and EAFNOSUPPORT, which an NFSv3-only
            // server's refusal of NFSv4 also shows as (winnfsd/winnfsd#89)
            let what = if entry == "nfs.version-unsupported" {
                "requested NFS version or transport protocol is not supported"
            } else if reason.contains("Protocol family not supported") {
                "Protocol family not supported"
            } else {
                "Protocol not supported"
            };
            Some(match vers {
                Some(v) => (
                    format!("the NFS mount fails (`{what}`): the mount asks for NFS version {v}{}, which the server (or this node's kernel) does not offer", if args.options.iter().any(|o| o == "udp" || o == "proto=udp") { " over UDP" } else { "" }),
                    format!("`rpcinfo -p <server>` lists the versions the server offers (program 100003): change `nfsvers=` in the PersistentVolume's or StorageClass's mountOptions to one of them, or enable version {v} on the server; on the node `modprobe nfs` (and `nfsv4` for 4.x) must succeed"),
                ),
                None => (
                    format!("the NFS mount fails (`{what}`): no vers=/nfsvers= is set, so the client tried every version and none is served: the server's NFS service is not running or not reachable for these versions (rpcbind/mountd blocked for NFSv3), or this node's kernel lacks the NFS module"),
                    "`rpcinfo -p <server>` from the node must list nfs (100003) and, for NFSv3, mountd (100005): start the NFS server (`systemctl enable --now nfs-server`) and open TCP 2049 (111 and mountd's port for NFSv3); then pin an offered version with `mountOptions: [nfsvers=<version>]` on the PersistentVolume or StorageClass; on the node `modprobe nfs` must succeed".to_owned(),
                ),
            })
        }
        "nfs.reason-given" | "nfs.failed" | "nfs4.failed"
            if reason.contains("No such file or directory") =>
        {
            let v4 = vers.as_deref().is_none_or(|v| v.starts_with('4'));
            Some((
                format!("the NFS server has no export at that path{}", if v4 { ": the path does not exist on the server, or (NFSv4, which the mount uses or negotiates) the server exports a pseudo-root (fsid=0) and NFSv4 paths are relative to it, so the full server path is not found" } else { " (the path does not exist or is not exported)" }),
                format!("`showmount -e <server>` lists the exported paths; use the exact path in the PersistentVolume{}", if v4 { ", or, when /etc/exports has an fsid=0 root, the path relative to that root (/exports/data with root /exports becomes /data), or mount with `mountOptions: [nfsvers=3]` to use the full path" } else { "" }),
            ))
        }
        "nfs.failed" | "nfs4.failed" if reason.contains("Operation not permitted") => Some((
            "the NFS mount fails (`Operation not permitted`): the server requires the client to use a privileged source port (the export option `secure`, the default) and the node's traffic reaches it from an unprivileged port (NAT/SNAT, an overlay or a proxy in between), or the mount runs in a container without CAP_SYS_ADMIN (a CSI node plugin that is not privileged)".to_owned(),
            "on the server add `insecure` to the export's options (/etc/exports, `exportfs -ra`) or route the nodes to it without NAT; for a CSI driver, its node plugin container must run privileged".to_owned(),
        )),
        "mount.helper-missing" | "mount.wrong-fs-type" => {
            let t = args.fstype.as_str();
            let pkg = match t {
                "nfs" | "nfs4" => Some("the NFS client (`apt-get install nfs-common` on Debian/Ubuntu, `yum install nfs-utils` on RHEL/CentOS)"),
                "cifs" | "smb3" => Some("the SMB client (`apt-get install cifs-utils` / `yum install cifs-utils`)"),
                "glusterfs" => Some("the GlusterFS client (`glusterfs-client` / `glusterfs-fuse`)"),
                "ceph" => Some("the Ceph client (`ceph-common`)"),
                _ => None,
            };
            match pkg {
                Some(p) => Some((
                    format!("the node has no mount helper for the {t} volume (/sbin/mount.{t} is missing): the kernel got the raw options and refused them"),
                    format!("install {p} on every node that may run the pod (on a node image you cannot change, use a CSI driver whose node plugin carries the client)"),
                )),
                None if entry == "mount.wrong-fs-type" && !t.is_empty() => Some((
                    format!("the kernel refuses to mount the volume as {t}: the device holds another filesystem (or none: a new disk not formatted), the filesystem is damaged, or a mountOptions entry is not valid for {t}"),
                    format!("on the node `blkid <device>` shows the filesystem type: make the PersistentVolume's or StorageClass's fsType match it (csi.storage.k8s.io/fstype), remove options {t} does not know, and read `dmesg | tail` right after the failure"),
                )),
                None => None,
            }
        }
        "cifs.mount-error" => {
            let code = s.detail("code");
            let smb_vers = args.options.iter().find_map(|o| o.strip_prefix("vers=").map(str::to_owned));
            let pin = "set the dialect the server speaks in the PersistentVolume's or StorageClass's mountOptions (`vers=3.0`, or `vers=2.1`; `vers=1.0` only for old NAS that speak SMB1)";
            match (code, smb_vers) {
                ("13", None) => Some((
                    "the SMB server refuses the mount (mount error 13, Permission denied), for one of two causes: the credentials (the username, password or domain in the volume's Secret) are wrong; or, with no vers= given, the dialect or security mode the client negotiates is not accepted by the server (SMB1 disabled, NTLMv2 / sec=ntlmssp required)".to_owned(),
                    format!("check the Secret's username and password (and domain) by mounting by hand from the node (`mount -t cifs -o username=<user>,vers=3.0 //<server>/<share> /mnt`); `dmesg | grep -i cifs` shows STATUS_LOGON_FAILURE for bad credentials; otherwise {pin} and `sec=ntlmssp`"),
                )),
                ("13", Some(v)) => Some((
                    format!("the SMB server refuses the mount (mount error 13, Permission denied): the credentials (username, password or domain in the volume's Secret) are wrong or lack access to the share (the mount asks for SMB {v} explicitly)"),
                    "check the Secret's username, password and domain and the share's permissions by mounting by hand from the node; `dmesg | grep -i cifs` names the status the server returned".to_owned(),
                )),
                ("2", _) => Some((
                    "the SMB server has no such share or path (mount error 2, No such file or directory): the share name or the subdirectory in the volume's source does not exist on the server (share names are matched as the server spells them)".to_owned(),
                    "list the server's shares from the node (`smbclient -L //<server> -U <user>`) and fix the share and path in the PersistentVolume's or StorageClass's source".to_owned(),
                )),
                ("112" | "95", _) => Some((
                    format!("the SMB server does not speak the dialect the client asks for (mount error {code}, {}): older kernels default to SMB1, which current servers disable; newer ones default to SMB2.1+, which old NAS lack", s.detail("reason")),
                    pin.to_owned(),
                )),
                _ => None,
            }
        }
        _ => None,
    }
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

    /// One helper message, several causes: the mount options shown decide which are named and
    /// in which order (texts of nfs-utils utils/mount/error.c, util-linux libmount, cifs-utils
    /// mount.cifs.c).
    #[test]
    fn mount_messages_with_several_causes_read_the_options() {
        let event = |args: &str, output: &str| {
            format!(
                "Warning  FailedMount  30s (x7 over 62s)  kubelet  MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: {args}\nOutput: {output}\n"
            )
        };
        let one = |text: &str| {
            let f = run_log("storage-mount-failed", text);
            assert_eq!(f.len(), 1, "{f:#?}");
            (f[0].message.clone(), f[0].remedy.clone())
        };
        // access denied, no version pinned: both causes, the export list first
        let (m, r) = one(&event(
            "-t nfs 10.0.0.5:/exports/data /var/lib/kubelet/pods/x/volumes/kubernetes.io~nfs/data",
            "mount.nfs: access denied by server while mounting 10.0.0.5:/exports/data",
        ));
        assert!(
            m.contains("/etc/exports") && m.contains("NFS version"),
            "{m}"
        );
        assert!(
            r.contains("nfsvers=3") && r.find("exportfs") < r.find("nfsvers"),
            "{r}"
        );
        // the same from a NetApp share: the version first
        let (m, r) = one(&format!(
            "our NetApp filer\n{}",
            event(
                "-t nfs 10.0.0.5:/vol1 /mnt/x",
                "mount.nfs: access denied by server while mounting 10.0.0.5:/vol1"
            )
        ));
        assert!(m.contains("netapp server"), "{m}");
        assert!(r.find("nfsvers=3") < r.find("exportfs"), "{r}");
        // version pinned: no version-negotiation cause
        let (m, _) = one(&event(
            "-t nfs -o nfsvers=4.1 10.0.0.5:/vol1 /mnt/x",
            "mount.nfs: access denied by server while mounting 10.0.0.5:/vol1",
        ));
        assert!(
            m.contains("version 4.1 explicitly") && !m.contains("negotiated"),
            "{m}"
        );
        // EOPNOTSUPP with and without an explicit version
        let (m, r) = one(&event(
            "-t nfs -o vers=4.2 10.0.0.5:/vol1 /mnt/x",
            "mount.nfs: requested NFS version or transport protocol is not supported",
        ));
        assert!(m.contains("version 4.2"), "{m}");
        assert!(r.contains("rpcinfo -p"), "{r}");
        let (m, r) = one(&event(
            "-t nfs 10.0.0.5:/vol1 /mnt/x",
            "mount.nfs: requested NFS version or transport protocol is not supported",
        ));
        assert!(m.contains("not running"), "{m}");
        assert!(r.contains("nfs-server"), "{r}");
        // EPROTONOSUPPORT through the generic mount.nfs4 line
        let (m, _) = one(&event(
            "-t nfs4 10.0.0.5:/vol1 /mnt/x",
            "mount.nfs4: Protocol not supported",
        ));
        assert!(m.contains("version 4"), "{m}");
        // ENOENT: NFSv4 pseudo-root
        let (m, r) = one(&event(
            "-t nfs 10.0.0.5:/exports/data /mnt/x",
            "mount.nfs: mounting 10.0.0.5:/exports/data failed, reason given by server: No such file or directory",
        ));
        assert!(m.contains("pseudo-root"), "{m}");
        assert!(r.contains("relative to that root"), "{r}");
        // EPERM: privileged port / unprivileged container
        let (m, r) = one(&event(
            "-t nfs 10.0.0.5:/vol1 /mnt/x",
            "mount.nfs: Operation not permitted",
        ));
        assert!(m.contains("privileged source port"), "{m}");
        assert!(r.contains("insecure"), "{r}");
        // util-linux without the helper: the -t type names the package
        let (m, r) = one(&event(
            "-t nfs 10.0.0.5:/vol1 /mnt/x",
            "mount: wrong fs type, bad option, bad superblock on 10.0.0.5:/vol1, missing codepage or helper program, or other error",
        ));
        assert!(m.contains("/sbin/mount.nfs"), "{m}");
        assert!(r.contains("nfs-common"), "{r}");
        let (_, r) = one(&event(
            "-t cifs -o username=u //fs/share /mnt/x",
            "mount: /mnt/x: bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program.",
        ));
        assert!(r.contains("cifs-utils"), "{r}");
        let (m, r) = one(&event(
            "-t ext4 -o defaults /dev/xvdf /mnt/x",
            "mount: /mnt/x: wrong fs type, bad option, bad superblock on /dev/xvdf, missing codepage or helper program, or other error.",
        ));
        assert!(m.contains("as ext4"), "{m}");
        assert!(r.contains("fsType"), "{r}");
        // cifs: credentials vs dialect
        let (m, r) = one(&event(
            "-t cifs -o username=u,password=p //fs/share /mnt/x",
            "mount error(13): Permission denied\nRefer to the mount.cifs(8) manual page (e.g. man mount.cifs)",
        ));
        assert!(m.contains("credentials") && m.contains("dialect"), "{m}");
        assert!(r.contains("vers=3.0"), "{r}");
        let (m, _) = one(&event(
            "-t cifs -o vers=3.0,username=u //fs/share /mnt/x",
            "mount error(13): Permission denied",
        ));
        assert!(!m.contains("dialect"), "{m}");
        let (m, r) = one(&event(
            "-t cifs -o username=u //fs/share /mnt/x",
            "mount error(112): Host is down",
        ));
        assert!(m.contains("dialect"), "{m}");
        assert!(r.contains("vers="), "{r}");
    }

    /// The same options read from an event of a `kubectl describe` paste (the signal's text is
    /// the event's message, not a log line).
    #[test]
    fn options_are_read_from_describe_events_too() {
        let f = crate::rules::testutil::run_rule(
            "storage-mount-failed",
            "Events:\n  Type     Reason       Age   From     Message\n  ----     ------       ----  ----     -------\n  Warning  FailedMount  30s   kubelet  MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs -o nfsvers=4.1 10.0.0.5:/vol1 /var/lib/kubelet/pods/x/volumes/kubernetes.io~nfs/data\nOutput: mount.nfs: access denied by server while mounting 10.0.0.5:/vol1\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("version 4.1 explicitly"),
            "{}",
            f[0].message
        );
        let f = crate::rules::testutil::run_rule(
            "storage-mount-failed",
            "Warning  FailedMount  2s  kubelet  MountVolume.MountDevice failed for volume \"pv-smb\" : rpc error: code = Internal desc = mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t cifs -o dir_mode=0777,file_mode=0777, //fs.example.lan/Share /tmp/pvc-1\nOutput: mount error(2): No such file or directory\nRefer to the mount.cifs(8) manual page (e.g. man mount.cifs) and kernel log messages (dmesg)\n",
        );
        assert!(f[0].message.contains("no such share"), "{}", f[0].message);
    }

    /// A mount that failed and then succeeded (the pod's container started after it, or the
    /// pod runs now) is history; alone it is an error.
    #[test]
    fn a_later_mount_supersedes_the_failure() {
        let failed = "LAST SEEN   TYPE      REASON        OBJECT        MESSAGE\n6m          Warning   FailedMount   pod/train-2   MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32 Mounting command: mount Mounting arguments: -t nfs 10.0.0.5:/exports/data /var/lib/kubelet/pods/0000/volumes/kubernetes.io~nfs/data Output: mount.nfs: Connection timed out\n";
        assert_eq!(
            crate::rules::testutil::run_rule("storage-mount-failed", failed).len(),
            1
        );
        let recovered = format!(
            "{failed}3m          Normal    Created       pod/train-2   Created container app\n3m          Normal    Started       pod/train-2   Started container app\n"
        );
        assert!(crate::rules::testutil::run_rule("storage-mount-failed", &recovered).is_empty());
        // another pod's start says nothing about this one
        let other = recovered
            .replace("Started       pod/train-2", "Started       pod/web-0")
            .replace("Created       pod/train-2", "Created       pod/web-0");
        assert_eq!(
            crate::rules::testutil::run_rule("storage-mount-failed", &other).len(),
            1
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
