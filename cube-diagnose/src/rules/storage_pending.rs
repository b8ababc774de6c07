//! PersistentVolumeClaims read as objects (`kubectl get pvc [-A]`, `get pv,pvc,sc` tables,
//! `describe pvc`, YAML) that stay `Pending` for a cause the objects themselves show, for
//! `storage-provisioning-failed`:
//!
//! - the claim names a StorageClass the input's class list does not hold (the PersistentVolume
//!   controller's `storageclass.storage.k8s.io "x" not found`, never provisioned);
//! - its class names an in-tree provisioner (`kubernetes.io/aws-ebs`, `kubernetes.io/gce-pd`,
//!   ...) whose volumes are served by a CSI driver since CSI migration
//!   (kubernetes/kubernetes staging/src/k8s.io/csi-translation-lib/plugins/*.go: the in-tree
//!   name and the CSI driver that takes it over), and the input shows no controller of that
//!   driver running: on a cluster where migration is on (default from v1.23, GA v1.24-v1.26,
//!   the in-tree code removed after) nothing provisions the claim until the driver is installed;
//! - its class's provisioner is external and the input lists the cluster's pods (all
//!   namespaces) without any pod of that provisioner, while the class binds immediately;
//! - its class has no provisioner (`kubernetes.io/no-provisioner`), binds immediately, and no
//!   PersistentVolume of the class is Available.
//!
//! Never for a claim that is Bound, one whose class binds `WaitForFirstConsumer` while the
//! input says it waits for its first consumer (pv_controller.go's Normal event `waiting for
//! first consumer to be created before binding`: normal until a pod uses the claim), one whose
//! class shows another claim Bound (the provisioner works), or one the input's events already
//! explain (the catalog's `provision.*` entries carry that claim).

use cube_model::objects::{PersistentVolumeClaim, StorageClass};

use crate::rules::obj;
use crate::{Context, Evidence, Finding, Severity, Subject};

/// An in-tree volume plugin's provisioner name and the CSI driver that serves it under CSI
/// migration (csi-translation-lib plugins: aws_ebs.go `AWSEBSDriverName`, gce_pd.go
/// `GCEPDDriverName`, azure_disk.go, azure_file.go, openstack_cinder.go, vsphere_volume.go,
/// portworx.go), with the pods that show the driver's controller and the remedy.
struct Migrated {
    in_tree: &'static str,
    driver: &'static str,
    /// Words of the driver's controller pod names (`ebs-csi-controller-...`).
    pods: &'static [&'static str],
    /// Install the driver (and its cloud identity).
    remedy: &'static str,
}

const MIGRATED: &[Migrated] = &[
    Migrated {
        in_tree: "kubernetes.io/aws-ebs",
        driver: "ebs.csi.aws.com",
        pods: &["ebs-csi-controller", "ebs-csi"],
        remedy: "install the Amazon EBS CSI driver with a cloud identity that may create volumes: on EKS the aws-ebs-csi-driver add-on with an IAM role for the kube-system/ebs-csi-controller-sa ServiceAccount carrying the AmazonEBSCSIDriverPolicy (`eksctl create iamserviceaccount --name ebs-csi-controller-sa --namespace kube-system --cluster <cluster> --role-name AmazonEKS_EBS_CSI_DriverRole --role-only --attach-policy-arn arn:aws:iam::aws:policy/service-role/AmazonEBSCSIDriverPolicy --approve`, then `eksctl create addon --name aws-ebs-csi-driver --cluster <cluster> --service-account-role-arn arn:aws:iam::<account>:role/AmazonEKS_EBS_CSI_DriverRole --force`; or EKS Pod Identity); a driver installed by hand (kubectl apply -k, Helm) without that IAM role fails every CreateVolume with UnauthorizedOperation; then `kubectl -n kube-system get pods -l app=ebs-csi-controller` must show its pods Running, and new claims of the class (or a gp3 class with provisioner ebs.csi.aws.com) are provisioned",
    },
    Migrated {
        in_tree: "kubernetes.io/gce-pd",
        driver: "pd.csi.storage.gke.io",
        pods: &["pdcsi", "gce-pd-csi", "csi-gce-pd"],
        remedy: "enable the Compute Engine persistent disk CSI driver (GKE: `gcloud container clusters update <cluster> --update-addons=GcePersistentDiskCsiDriver=ENABLED`; self-managed: deploy kubernetes-sigs/gcp-compute-persistent-disk-csi-driver with a service account allowed compute.disks.create)",
    },
    Migrated {
        in_tree: "kubernetes.io/azure-disk",
        driver: "disk.csi.azure.com",
        pods: &["csi-azuredisk", "azuredisk"],
        remedy: "install the Azure Disk CSI driver (AKS ships it from v1.21; self-managed: kubernetes-sigs/azuredisk-csi-driver) with an identity that has Contributor on the node resource group, or use the managed-csi class",
    },
    Migrated {
        in_tree: "kubernetes.io/azure-file",
        driver: "file.csi.azure.com",
        pods: &["csi-azurefile", "azurefile"],
        remedy: "install the Azure File CSI driver (AKS ships it; self-managed: kubernetes-sigs/azurefile-csi-driver) with an identity allowed to create storage accounts and shares, or use the azurefile-csi class",
    },
    Migrated {
        in_tree: "kubernetes.io/cinder",
        driver: "cinder.csi.openstack.org",
        pods: &["csi-cinder", "cinder-csi"],
        remedy: "install the OpenStack Cinder CSI driver (kubernetes/cloud-provider-openstack's cinder-csi-plugin with its cloud.conf secret) and use a class with provisioner cinder.csi.openstack.org",
    },
    Migrated {
        in_tree: "kubernetes.io/vsphere-volume",
        driver: "csi.vsphere.vmware.com",
        pods: &["vsphere-csi-controller", "vsphere-csi"],
        remedy: "install the vSphere CSI driver (kubernetes-sigs/vsphere-csi-driver with its vCenter credentials secret) and use a class with provisioner csi.vsphere.vmware.com",
    },
    Migrated {
        in_tree: "kubernetes.io/portworx-volume",
        driver: "pxd.portworx.com",
        pods: &["portworx", "px-csi"],
        remedy: "install Portworx with its CSI driver (csi: true in the StorageCluster) and use a class with provisioner pxd.portworx.com",
    },
];

/// CSI drivers whose controller runs outside the cluster's own pods (managed by the cloud
/// provider): their absence from a pod listing says nothing.
const HIDDEN_CONTROLLERS: &[&str] = &[
    "pd.csi.storage.gke.io",
    "filestore.csi.storage.gke.io",
    "disk.csi.azure.com",
    "file.csi.azure.com",
    "blob.csi.azure.com",
    "diskplugin.csi.alibabacloud.com",
];

const NO_PROVISIONER: &str = "kubernetes.io/no-provisioner";

/// Whether some text of the input says the claim waits for its first consumer
/// (pkg/controller/volume/persistentvolume/pv_controller.go, Normal event WaitForFirstConsumer).
fn waits_for_consumer(ctx: &Context<'_>, c: &PersistentVolumeClaim) -> bool {
    const WAIT: &str = "waiting for first consumer to be created before binding";
    ctx.snapshot().events.iter().any(|e| {
        (e.reason == "WaitForFirstConsumer" || e.message.contains(WAIT))
            && e.involved_object.name == c.metadata.name
    }) || ctx.logs().iter().any(|l| l.text.contains(WAIT))
}

/// Pod-name words of a provisioner's controller (`rancher.io/local-path` → `local-path`,
/// `nfs.csi.k8s.io` → `nfs`, `driver.longhorn.io` → `longhorn`).
fn provisioner_words(provisioner: &str) -> Vec<String> {
    const GENERIC: [&str; 12] = [
        "csi",
        "io",
        "com",
        "k8s",
        "kubernetes",
        "driver",
        "storage",
        "org",
        "net",
        "x-k8s",
        "sigs",
        "k8s-sigs",
    ];
    provisioner
        .split(['.', '/', '_'])
        .filter(|w| w.len() > 2 && !GENERIC.contains(w))
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Whether the input's pods show a running pod whose name holds one of `words`.
fn controller_running(ctx: &Context<'_>, words: &[&str]) -> bool {
    ctx.snapshot().pods.iter().any(|p| {
        let name = p.metadata.name.to_ascii_lowercase();
        words.iter().any(|w| name.contains(w)) && p.status.phase == "Running"
    })
}

/// Whether the input's nodes all run a kubelet older than v1.23 (CSI migration was off by
/// default before it: the in-tree plugin itself still provisions). No node versions: unknown,
/// false.
fn before_migration(ctx: &Context<'_>) -> bool {
    let minors: Vec<u32> = ctx
        .snapshot()
        .nodes
        .iter()
        .filter_map(|n| {
            let v = n.status.node_info.kubelet_version.trim_start_matches('v');
            let mut parts = v.split('.');
            let major: u32 = parts.next()?.parse().ok()?;
            let minor: u32 = parts
                .next()?
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .ok()?;
            (major == 1).then_some(minor)
        })
        .collect();
    !minors.is_empty() && minors.iter().all(|m| *m < 23)
}

/// Whether the input lists the cluster's pods across namespaces (system pods included): only
/// then is a provisioner's missing pod a fact.
fn pods_listed_cluster_wide(ctx: &Context<'_>) -> bool {
    let pods = &ctx.snapshot().pods;
    pods.iter().any(|p| p.metadata.namespace == "kube-system")
        && pods
            .iter()
            .any(|p| !p.metadata.namespace.is_empty() && p.metadata.namespace != "kube-system")
}

/// The Pending claims the objects explain (module documentation); `explained`: subjects the
/// input's event or log lines already carry.
pub(crate) fn pending_claims(ctx: &Context<'_>, rule: &str, explained: &[Subject]) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let classes_read =
        crate::rules::unread(ctx, "StorageClass").is_none() && !snap.storage_classes.is_empty();
    let mut out = Vec::new();
    for c in &snap.persistent_volume_claims {
        if c.status.phase != "Pending" || !c.spec.volume_name.is_empty() {
            continue;
        }
        let ns = &c.metadata.namespace;
        let name = &c.metadata.name;
        let subject = Subject::namespaced("PersistentVolumeClaim", ns, name);
        if explained
            .iter()
            .any(|s| s.kind == subject.kind && s.name == subject.name)
        {
            continue;
        }
        let class_name = match c.spec.storage_class_name.as_deref() {
            Some(n) if !n.is_empty() => n.to_owned(),
            // no class: the default class's (storage-no-default-class when there is none)
            None => match snap.storage_classes.iter().find(|s| s.is_default()) {
                Some(d) => d.metadata.name.clone(),
                None => continue,
            },
            // `""`: static binding only
            Some(_) => continue,
        };
        let o = obj("PersistentVolumeClaim", ns, name);
        let claim = if ns.is_empty() {
            name.clone()
        } else {
            format!("{ns}/{name}")
        };
        let Some(sc) = snap
            .storage_classes
            .iter()
            .find(|s| s.metadata.name == class_name)
        else {
            if classes_read {
                let listed: Vec<&str> = snap
                    .storage_classes
                    .iter()
                    .map(|s| s.metadata.name.as_str())
                    .collect();
                out.push(
                    Finding::new(rule, Severity::Warning, subject, format!("claim {claim} is Pending and names StorageClass {class_name}, which the input's classes do not hold ({}): a claim whose class does not exist is never provisioned (the PersistentVolume controller reports `storageclass.storage.k8s.io \"{class_name}\" not found`)", listed.join(", ")))
                        .with_evidence(Evidence::field(&o, "spec.storageClassName", &class_name))
                        .with_evidence(Evidence::field(&o, "status.phase", "Pending"))
                        .with_remedy(format!("`kubectl get storageclass` lists the classes: create StorageClass {class_name}, or delete and re-create the claim with an existing class (a claim's class cannot be changed)")),
                );
            }
            continue;
        };
        // another claim of the class is Bound: its provisioner works, this one waits for
        // something else (a consumer, capacity) that the objects do not show
        let class_works = snap.persistent_volume_claims.iter().any(|o| {
            o.status.phase == "Bound"
                && o.spec.storage_class_name.as_deref() == Some(class_name.as_str())
        });
        let wffc = sc.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer");
        if class_works || (wffc && waits_for_consumer(ctx, c)) {
            continue;
        }
        if let Some(f) = in_tree_finding(ctx, rule, c, sc, &claim, &subject) {
            out.push(f);
            continue;
        }
        if wffc {
            // provisioning starts once a pod using the claim is scheduled: nothing to conclude
            continue;
        }
        if sc.provisioner == NO_PROVISIONER {
            let available = snap
                .persistent_volumes
                .iter()
                .any(|v| v.spec.storage_class_name == class_name && v.status.phase == "Available");
            if crate::rules::unread(ctx, "PersistentVolume").is_none()
                && !snap.persistent_volumes.is_empty()
                && !available
            {
                out.push(
                    Finding::new(rule, Severity::Warning, subject, format!("claim {claim} is Pending: its StorageClass {class_name} has no provisioner ({NO_PROVISIONER}), so it binds only to an existing PersistentVolume of the class, and the input shows none Available"))
                        .with_evidence(Evidence::field(&o, "spec.storageClassName", &class_name))
                        .with_evidence(Evidence::field(obj("StorageClass", "", &class_name), "provisioner", NO_PROVISIONER))
                        .with_remedy(format!("create a PersistentVolume of class {class_name} that matches the claim's size and access modes (local volumes: on the node that will run the pod), or use a class with a dynamic provisioner")),
                );
            }
            continue;
        }
        let words = provisioner_words(&sc.provisioner);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        if !words.is_empty()
            && !HIDDEN_CONTROLLERS.contains(&sc.provisioner.as_str())
            && pods_listed_cluster_wide(ctx)
            && !ctx.snapshot().pods.iter().any(|p| {
                // a pod named after the provisioner, or any provisioner or CSI controller (a
                // provisioner deployed under its own name, `nfs-client-provisioner` serving
                // `example.com/nfs`): no conclusion
                let n = p.metadata.name.to_ascii_lowercase();
                words.iter().any(|w| n.contains(w))
                    || n.contains("provisioner")
                    || n.contains("csi")
            })
        {
            out.push(
                Finding::new(rule, Severity::Warning, subject, format!("claim {claim} is Pending on StorageClass {class_name}, whose provisioner {} runs no pod in the input's pod list (all namespaces): no controller creates the claim's volume", sc.provisioner))
                    .with_evidence(Evidence::field(&o, "status.phase", "Pending"))
                    .with_evidence(Evidence::field(obj("StorageClass", "", &class_name), "provisioner", &sc.provisioner))
                    .with_remedy(format!("install the provisioner {} (a CSI driver's controller with its csi-provisioner sidecar, or the provisioner's Deployment) and check its pods and log (`kubectl get pods -A | grep -i -e csi -e provisioner`); a provisioner running under another name needs the StorageClass's provisioner field to match the name it registers", sc.provisioner)),
            );
        }
    }
    out.extend(long_pending(ctx, rule, explained, &out));
    out
}

/// A claim Pending this long is reported even when the input does not show why: dynamic
/// provisioning takes seconds, and a claim of an immediate class waiting a day is stuck.
const LONG_PENDING_SECS: i64 = 86_400;

/// Claims Pending for a day or more (their `kubectl get pvc` AGE, else creationTimestamp
/// against the input's newest time) that no other finding explains (fresh-user H33): the cause is
/// not in the input, the claim's events are. Not for a claim without a class while the input has
/// no default class (`storage-no-default-class` says that), nor one of a `WaitForFirstConsumer`
/// class that no pod of the input uses (it waits for its first consumer, which is normal).
fn long_pending(
    ctx: &Context<'_>,
    rule: &str,
    explained: &[Subject],
    found: &[Finding],
) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let now = crate::gpu::reference_time(ctx);
    let mut out = Vec::new();
    for c in &snap.persistent_volume_claims {
        if c.status.phase != "Pending" || !c.spec.volume_name.is_empty() {
            continue;
        }
        let (ns, name) = (&c.metadata.namespace, &c.metadata.name);
        let told = |s: &Subject| {
            s.kind == "PersistentVolumeClaim"
                && s.name == *name
                && (s.namespace.is_empty() || ns.is_empty() || s.namespace == *ns)
        };
        if explained.iter().any(told) || found.iter().any(|f| told(&f.subject)) {
            continue;
        }
        let age = match c
            .metadata
            .annotations
            .get(cube_model::describe::AGE_ANNOTATION)
        {
            Some(a) => cube_model::describe::human_duration_secs(a),
            None => c
                .metadata
                .creation_timestamp
                .zip(now)
                .map(|(t, now)| now - t.as_second()),
        };
        let Some(age) = age.filter(|a| *a >= LONG_PENDING_SECS) else {
            continue;
        };
        let class = c
            .spec
            .storage_class_name
            .clone()
            .filter(|n| !n.is_empty())
            .or_else(|| {
                snap.storage_classes
                    .iter()
                    .find(|s| s.is_default())
                    .map(|s| s.metadata.name.clone())
            });
        if class.is_none() && !snap.storage_classes.is_empty() {
            continue;
        }
        let sc = class
            .as_deref()
            .and_then(|n| snap.storage_classes.iter().find(|s| s.metadata.name == n));
        let used = snap.pods.iter().any(|p| {
            (ns.is_empty() || p.metadata.namespace == *ns)
                && p.spec.volumes.iter().any(|v| {
                    v.persistent_volume_claim
                        .as_ref()
                        .is_some_and(|pvc| pvc.claim_name == *name)
                })
        });
        if sc.is_some_and(|s| s.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer"))
            && !used
        {
            continue;
        }
        let claim = if ns.is_empty() {
            name.clone()
        } else {
            format!("{ns}/{name}")
        };
        let days = age / 86_400;
        let o = obj("PersistentVolumeClaim", ns, name);
        let ns_flag = if ns.is_empty() {
            String::new()
        } else {
            format!(" -n {}", crate::rules::shell_word(ns))
        };
        out.push(
            Finding::new(rule, Severity::Warning, Subject::namespaced("PersistentVolumeClaim", ns, name), format!("claim {claim} has been Pending for {days} day(s){}: no volume was provisioned or bound for it, and a pod using it cannot start; the input does not show why (the claim's events do)", class.as_deref().map(|c| format!(" (StorageClass {c})")).unwrap_or_default()))
                .with_evidence(Evidence::field(&o, "status.phase", "Pending"))
                .with_evidence(Evidence::field(&o, "age", format!("{days}d")))
                .with_remedy(format!("`kubectl describe pvc{ns_flag} {}` (Events: ProvisioningFailed, ExternalProvisioning, WaitForFirstConsumer) and `kubectl get storageclass` say why: a class without a working provisioner, no matching PersistentVolume for a static class, or a provisioner error such as quota; fix it, or delete the claim if nothing uses it", crate::rules::shell_word(name))),
        );
    }
    out
}

/// A claim of a class with an in-tree provisioner whose CSI driver the input does not show.
fn in_tree_finding(
    ctx: &Context<'_>,
    rule: &str,
    c: &PersistentVolumeClaim,
    sc: &StorageClass,
    claim: &str,
    subject: &Subject,
) -> Option<Finding> {
    let m = MIGRATED.iter().find(|m| m.in_tree == sc.provisioner)?;
    if controller_running(ctx, m.pods) || before_migration(ctx) {
        return None;
    }
    let class = &sc.metadata.name;
    let wffc = sc.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer");
    let severity = if wffc {
        Severity::Warning
    } else {
        Severity::Error
    };
    let binding = if wffc {
        " (the class binds WaitForFirstConsumer: the claim also waits until a pod using it is scheduled, which is normal, but then nothing provisions it)"
    } else {
        ""
    };
    let o = obj(
        "PersistentVolumeClaim",
        &c.metadata.namespace,
        &c.metadata.name,
    );
    Some(
        Finding::new(rule, severity, subject.clone(), format!("claim {claim} is Pending on StorageClass {class}, whose provisioner is the in-tree {} plugin: under CSI migration (on by default from Kubernetes v1.23, EKS v1.23+ included; GA in v1.24-v1.26; the in-tree code removed after) its volumes are created by the CSI driver {}, and the input shows no controller of that driver running, so nothing provisions the claim{binding}", m.in_tree, m.driver))
            .with_evidence(Evidence::field(&o, "status.phase", "Pending"))
            .with_evidence(Evidence::field(&o, "spec.storageClassName", class))
            .with_evidence(Evidence::field(obj("StorageClass", "", class), "provisioner", m.in_tree))
            .with_remedy(format!("{}; `kubectl get csidrivers` must list {} and `kubectl describe pvc -n {} {}` then shows the driver's Provisioning events (or its error)", m.remedy, m.driver, crate::rules::shell_word(if c.metadata.namespace.is_empty() { "default" } else { &c.metadata.namespace }), crate::rules::shell_word(&c.metadata.name))),
    )
}
