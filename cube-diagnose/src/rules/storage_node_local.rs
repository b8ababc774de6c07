//! `storage-node-local`: hostPath/local volumes used by workloads that may land on several nodes.

use std::collections::{BTreeMap, BTreeSet};

use crate::classify::SignalKind;
use crate::rules::{obj, pod_subject, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    StorageNodeLocal,
    "storage-node-local",
    Storage,
    Warning,
    "Node-local storage used where data must be shared or follow the workload: a hostPath (or local) PersistentVolume without nodeAffinity whose claim is mounted by pods on different nodes (each sees a different directory: error), pods of controllers with inline hostPath data volumes (tied to one node's disk), StorageClasses of node-local provisioners (local-path, no-provisioner), and 'volume node affinity conflict' scheduler texts (a pod cannot move off the node holding its volume).",
    check
);

const SYSTEM_PATHS: &[&str] = &[
    "/var/lib/kubelet",
    "/dev",
    "/sys",
    "/proc",
    "/run",
    "/var/run",
    "/etc",
    "/var/log",
    "/lib/modules",
    "/usr",
];
const LOCAL_PROVISIONERS: &[&str] = &[
    "rancher.io/local-path",
    "kubernetes.io/no-provisioner",
    "openebs.io/local",
    "topolvm.io",
];

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    // the claims bound to a node-local volume: only their pods are looked at (a dump of a
    // million pods sharing one network claim builds nothing here)
    let wanted: BTreeSet<(&str, &str)> = snap
        .persistent_volumes
        .iter()
        .filter(|pv| pv.spec.host_path.is_some() || pv.spec.local.is_some())
        .filter_map(|pv| pv.spec.claim_ref.as_ref())
        .map(|c| (c.namespace.as_str(), c.name.as_str()))
        .collect();
    // claim -> nodes of pods using it
    let mut claim_nodes: BTreeMap<(&str, &str), BTreeSet<(&str, String)>> = BTreeMap::new();
    for p in snap.pods.iter().filter(|_| !wanted.is_empty()) {
        if ctx.pod_finished(p) {
            continue;
        }
        for v in &p.spec.volumes {
            if let Some(c) = &v.persistent_volume_claim {
                let claim = (p.metadata.namespace.as_str(), c.claim_name.as_str());
                if wanted.contains(&claim) {
                    claim_nodes
                        .entry(claim)
                        .or_default()
                        .insert((p.spec.node_name.as_str(), p.key()));
                }
            }
        }
    }
    for pv in &snap.persistent_volumes {
        let local_path = pv
            .spec
            .host_path
            .as_ref()
            .map(|h| h.path.clone())
            .or_else(|| pv.spec.local.as_ref().map(|l| l.path.clone()));
        let Some(path) = local_path else { continue };
        let pinned = pv
            .spec
            .node_affinity
            .as_ref()
            .is_some_and(|a| a.required.is_some());
        if pinned {
            continue;
        }
        let o = obj("PersistentVolume", "", &pv.metadata.name);
        let users = pv
            .spec
            .claim_ref
            .as_ref()
            .and_then(|c| claim_nodes.get(&(c.namespace.as_str(), c.name.as_str())));
        let nodes: BTreeSet<&str> = users
            .map(|u| {
                u.iter()
                    .map(|(n, _)| *n)
                    .filter(|n| !n.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let claim = pv
            .spec
            .claim_ref
            .as_ref()
            .map(|c| format!("{}/{}", c.namespace, c.name))
            .unwrap_or_else(|| "no claim".into());
        let (sev, msg) = if nodes.len() > 1 {
            (
                Severity::Error,
                format!(
                    "PersistentVolume {} is a node-local path {path} without nodeAffinity, bound to {claim}, and mounted by pods on {} different nodes ({}): each pod sees a different directory",
                    pv.metadata.name,
                    nodes.len(),
                    users
                        .map(|u| {
                            // bounded: the first pods named, the rest counted
                            let named: Vec<String> = u
                                .iter()
                                .take(20)
                                .map(|(n, p)| format!("{p} on {n}"))
                                .collect();
                            match u.len() - named.len() {
                                0 => named.join(", "),
                                more => format!("{} and {more} more pod(s)", named.join(", ")),
                            }
                        })
                        .unwrap_or_default()
                ),
            )
        } else {
            (
                Severity::Warning,
                format!(
                    "PersistentVolume {} is a node-local path {path} without nodeAffinity (bound to {claim}): pods using it may land on any node and see different data",
                    pv.metadata.name
                ),
            )
        };
        let mut f = Finding::new(
            StorageNodeLocal::ID,
            sev,
            Subject::cluster_scoped("PersistentVolume", &pv.metadata.name),
            msg,
        )
        .with_evidence(Evidence::field(
            &o,
            if pv.spec.host_path.is_some() {
                "spec.hostPath.path"
            } else {
                "spec.local.path"
            },
            &path,
        ))
        .with_evidence(Evidence::field(&o, "spec.nodeAffinity", "<absent>"));
        if let Some(u) = users {
            f = f.with_evidences(
                u.iter()
                    .map(|(n, p)| Evidence::field(format!("Pod/{p}"), "spec.nodeName", *n)),
            );
        }
        out.push(f.with_remedy("use shared storage (an NFS/CephFS CSI StorageClass, ReadWriteMany) for data several pods share; if node-local is intended, add spec.nodeAffinity to the PV pinning it to one node"));
    }
    let multi_node = snap.nodes.len() > 1;
    for p in &snap.pods {
        if ctx.pod_finished(p)
            || p.metadata
                .owner_references
                .iter()
                .any(|o| o.kind == "DaemonSet")
            || p.metadata.namespace == "kube-system"
        {
            continue;
        }
        let controlled = !p.metadata.owner_references.is_empty()
            || p.metadata.labels.contains_key("pod-template-hash");
        if !(controlled || multi_node) {
            continue;
        }
        for v in &p.spec.volumes {
            let Some(hp) = &v.host_path else { continue };
            if SYSTEM_PATHS
                .iter()
                .any(|s| hp.path == *s || hp.path.starts_with(&format!("{s}/")))
            {
                continue;
            }
            out.push(
                Finding::new(StorageNodeLocal::ID, Severity::Warning, pod_subject(p), format!("pod {} mounts hostPath {} (volume {}): the workload is tied to one node's disk and sees different data elsewhere", p.key(), hp.path, v.name))
                    .with_evidence(Evidence::field(obj("Pod", &p.metadata.namespace, &p.metadata.name), format!("spec.volumes[{}].hostPath.path", v.name), &hp.path))
                    .with_remedy("put the model/data on shared storage (a PVC on an NFS/CephFS class, ReadWriteMany) or pin the pod with a nodeSelector to the node that holds the directory"),
            );
        }
    }
    for sc in &snap.storage_classes {
        if LOCAL_PROVISIONERS.contains(&sc.provisioner.as_str()) && multi_node {
            out.push(
                Finding::new(StorageNodeLocal::ID, Severity::Info, Subject::cluster_scoped("StorageClass", &sc.metadata.name), format!("StorageClass {} ({}) provisions node-local volumes: pods using them cannot move to another node (drains strand them)", sc.metadata.name, sc.provisioner))
                    .with_evidence(Evidence::field(obj("StorageClass", "", &sc.metadata.name), "provisioner", &sc.provisioner))
                    .with_remedy("use it only for data that may be lost or rebuilt (caches, replicated stores); use a shared class for workloads expected to move"),
            );
        }
    }
    for s in signals(ctx, &[SignalKind::VolumeNodeAffinityConflict]).take(1) {
        out.push(
            Finding::new(StorageNodeLocal::ID, Severity::Warning, signal_subject(s), "the pod's volume is pinned where the pod cannot run (volume node affinity conflict): its PersistentVolume's nodeAffinity names a node (local, local-path or hostPath volume) or a zone (a zonal cloud disk: topology.kubernetes.io/zone or the CSI driver's topology key) that the pod's usable nodes are not in, so the pod cannot move with its data")
                .with_evidence(s.evidence())
                .with_remedy("`kubectl get pv <pv> -o jsonpath='{.spec.nodeAffinity}'` shows where the volume is: run the pod there (uncordon/repair that node, add nodes in that zone, align the pod's nodeSelector/affinity with it), or migrate the data to storage the pod's nodes reach (or delete the PVC to re-provision where the pod runs if the data is replicated)"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_rule;

    fn s(node_b: &str) -> String {
        format!(
            r#"{{"kind":"List","items":[
          {{"kind":"PersistentVolume","metadata":{{"name":"pv"}},"spec":{{"hostPath":{{"path":"/mnt/x"}},"claimRef":{{"namespace":"a","name":"c"}}}}}},
          {{"kind":"Pod","metadata":{{"name":"p1","namespace":"a"}},"spec":{{"nodeName":"n1","volumes":[{{"name":"d","persistentVolumeClaim":{{"claimName":"c"}}}}],"containers":[{{"name":"c"}}]}}}},
          {{"kind":"Pod","metadata":{{"name":"p2","namespace":"a"}},"spec":{{"nodeName":"{node_b}","volumes":[{{"name":"d","persistentVolumeClaim":{{"claimName":"c"}}}}],"containers":[{{"name":"c"}}]}}}}]}}"#
        )
    }

    #[test]
    fn two_nodes_is_error_one_node_warning() {
        assert_eq!(
            run_rule("storage-node-local", &s("n2"))[0].severity,
            Severity::Error
        );
        assert_eq!(
            run_rule("storage-node-local", &s("n1"))[0].severity,
            Severity::Warning
        );
    }

    #[test]
    fn pinned_pv_is_fine() {
        let pinned = s("n2").replace(
            r#""hostPath":{"path":"/mnt/x"}"#,
            r#""hostPath":{"path":"/mnt/x"},"nodeAffinity":{"required":{"nodeSelectorTerms":[]}}"#,
        );
        assert!(run_rule("storage-node-local", &pinned).is_empty());
    }
}
