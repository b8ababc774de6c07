//! `storage-no-default-class`: PVCs without a class while no StorageClass is default.

use crate::classify::SignalKind;
use crate::rules::{obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    StorageNoDefaultClass,
    "storage-no-default-class",
    Storage,
    Error,
    "A PersistentVolumeClaim has no storageClassName while no StorageClass carries storageclass.kubernetes.io/is-default-class=true (and no static PV matches): the claim never binds and its pods stay Pending ('unbound immediate PersistentVolumeClaims'). An explicit empty storageClassName (static binding) is not reported. Mark one class default or set the class on the claim.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    let has_default = snap.storage_classes.iter().any(|c| c.is_default());
    if let Some(why) = crate::rules::unread(ctx, "StorageClass")
        && !has_default
    {
        // the classes could not be read: "no StorageClass at all" would be a guess
        for c in &snap.persistent_volume_claims {
            if c.spec.storage_class_name.is_some()
                || c.status.phase == "Bound"
                || !c.spec.volume_name.is_empty()
            {
                continue;
            }
            let ns = &c.metadata.namespace;
            out.push(
                Finding::new(StorageNoDefaultClass::ID, Severity::Info, Subject::namespaced("PersistentVolumeClaim", ns, &c.metadata.name), format!("claim {ns}/{} sets no storageClassName; whether a default StorageClass exists is unknown: StorageClasses could not be read ({why})", c.metadata.name))
                    .with_evidence(Evidence::field(obj("PersistentVolumeClaim", ns, &c.metadata.name), "spec.storageClassName", "<absent>"))
                    .with_evidence(Evidence::field("StorageClass", "list", format!("could not be read: {why}")))
                    .with_remedy("grant list on storageclasses.storage.k8s.io (or run `kubectl get storageclass -o yaml`) and diagnose again"),
            );
        }
        return out;
    }
    // no StorageClass given at all: only a claim the API server stored without a class says
    // there is no default (the DefaultStorageClass admission plugin sets it at creation, and
    // from v1.28 the PersistentVolume controller assigns it retroactively); a manifest pasted
    // alone says nothing about the cluster's classes (K8)
    let classes_given = !crate::rules::absence::not_given(ctx, "StorageClass");
    if !has_default {
        for c in &snap.persistent_volume_claims {
            if c.spec.storage_class_name.is_some()
                || c.status.phase == "Bound"
                || !c.spec.volume_name.is_empty()
            {
                continue;
            }
            let stored = c.metadata.creation_timestamp.is_some()
                || !c.metadata.uid.is_empty()
                || !c.status.phase.is_empty();
            if !classes_given && !stored {
                continue;
            }
            let ns = &c.metadata.namespace;
            let o = obj("PersistentVolumeClaim", ns, &c.metadata.name);
            let classes: Vec<&str> = snap
                .storage_classes
                .iter()
                .map(|s| s.metadata.name.as_str())
                .collect();
            out.push(
                Finding::new(StorageNoDefaultClass::ID, Severity::Error, Subject::namespaced("PersistentVolumeClaim", ns, &c.metadata.name), format!("claim {ns}/{} sets no storageClassName and no StorageClass is default ({}): it stays {}", c.metadata.name, if classes.is_empty() { "no StorageClass at all".to_owned() } else { format!("classes: {}", classes.join(", ")) }, if c.status.phase.is_empty() { "unbound" } else { &c.status.phase }))
                    .with_evidence(Evidence::field(&o, "spec.storageClassName", "<absent>"))
                    .with_evidence(Evidence::field(&o, "status.phase", &c.status.phase))
                    .with_evidences(snap.storage_classes.iter().map(|s| Evidence::field(obj("StorageClass", "", &s.metadata.name), "metadata.annotations[storageclass.kubernetes.io/is-default-class]", s.metadata.annotations.get("storageclass.kubernetes.io/is-default-class").map(str::to_owned).unwrap_or_else(|| "<absent>".into()))))
                    .with_remedy(match classes.first() {
                        Some(c0) => format!("kubectl patch storageclass {c0} -p '{{\"metadata\":{{\"annotations\":{{\"storageclass.kubernetes.io/is-default-class\":\"true\"}}}}}}' (or set spec.storageClassName on the claim and recreate it)"),
                        None => "install a provisioner and a default StorageClass (for shared data: an NFS/CephFS CSI class), or create a matching PersistentVolume".to_owned(),
                    }),
            );
        }
    }
    if !has_default {
        for s in signals(ctx, &[SignalKind::PvcNoStorageClass])
            .filter(|s| s.source != "events")
            .take(1)
        {
            out.push(
                Finding::new(StorageNoDefaultClass::ID, Severity::Error, signal_subject(s), "a claim cannot bind: no storage class is set on it and no default StorageClass exists (pods using it stay Pending with 'unbound immediate PersistentVolumeClaims')")
                    .with_evidence(s.evidence())
                    .with_remedy("mark a StorageClass default (`kubectl patch storageclass <name> -p '{\"metadata\":{\"annotations\":{\"storageclass.kubernetes.io/is-default-class\":\"true\"}}}'`) or set storageClassName on the claim"),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn pending_claim_without_default() {
        let s = r#"{"kind":"List","items":[{"kind":"StorageClass","metadata":{"name":"nfs","annotations":{"storageclass.kubernetes.io/is-default-class":"false"}},"provisioner":"nfs"},
          {"kind":"PersistentVolumeClaim","metadata":{"name":"c","namespace":"a"},"spec":{},"status":{"phase":"Pending"}}]}"#;
        assert_eq!(run_rule("storage-no-default-class", s).len(), 1);
        let def = s.replace("\"false\"", "\"true\"");
        assert!(run_rule("storage-no-default-class", &def).is_empty());
    }
}
