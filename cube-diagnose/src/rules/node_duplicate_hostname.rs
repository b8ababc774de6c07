//! `node-duplicate-hostname`: two nodes share a hostname label or address, or join/kubelet text
//! shows a name clash.

use std::collections::BTreeMap;

use crate::classify::SignalKind;
use crate::rules::{obj, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    NodeDuplicateHostname,
    "node-duplicate-hostname",
    Node,
    Error,
    "Two nodes share a kubernetes.io/hostname label or a Hostname/InternalIP address, or kubeadm/kubelet text shows two machines using one node name (kubeadm refusing the join, or a kubelet deleting its static pods' mirror pods as outdated in a loop because another kubelet updates the same Node object). Give every machine a unique hostname (or --node-name) before joining.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen: BTreeMap<(String, String), Vec<&str>> = BTreeMap::new();
    for n in &ctx.snapshot().nodes {
        if let Some(h) = n.metadata.labels.get("kubernetes.io/hostname") {
            seen.entry(("label kubernetes.io/hostname".into(), h.to_owned()))
                .or_default()
                .push(&n.metadata.name);
        }
        for a in &n.status.addresses {
            if a.type_ == "Hostname" || a.type_ == "InternalIP" {
                seen.entry((format!("address {}", a.type_), a.address.clone()))
                    .or_default()
                    .push(&n.metadata.name);
            }
        }
    }
    for ((what, value), nodes) in seen {
        let mut nodes = nodes;
        nodes.dedup();
        if nodes.len() < 2 {
            continue;
        }
        let f = Finding::new(
            NodeDuplicateHostname::ID,
            Severity::Error,
            Subject::cluster_scoped("Node", nodes[0]),
            format!("nodes {} share {what} = {value}", nodes.join(", ")),
        )
        .with_evidences(nodes.iter().map(|n| Evidence::field(obj("Node", "", n), &what, &value)))
        .with_remedy("give each machine a unique hostname (`hostnamectl set-hostname <name>`) or join with `kubeadm join --node-name <unique>`; fix duplicated IPs (cloned VMs)");
        out.push(f);
    }
    for s in signals(ctx, &[SignalKind::DuplicateNodeName]) {
        let node = s.detail("node");
        out.push(
            Finding::new(NodeDuplicateHostname::ID, Severity::Error, Subject::cluster_scoped("Node", node), format!("kubeadm refused to join: a Node named {node} already exists"))
                .with_evidence(s.evidence())
                .with_remedy(format!("join with `kubeadm join ... --node-name <unique-name>` or remove the stale Node (`kubectl delete node {node}`) if that machine is gone")),
        );
    }
    // k3s / rke2: the server rejects the agent's node password
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::NodePasswordRejected]) {
        if !seen.insert(s.source.clone()) {
            continue;
        }
        let subject = s.object.clone().unwrap_or_else(|| Subject::log(&s.source));
        out.push(
            Finding::new(NodeDuplicateHostname::ID, Severity::Error, subject, "the k3s/rke2 server rejects this agent's node password: another node already registered this hostname, or this machine was re-installed and its /etc/rancher/node/password no longer matches the server's <node>.node-password secret")
                .with_evidence(s.evidence())
                .with_remedy("if another machine uses this hostname, give this one a unique name (`--node-name <unique>` or `--with-node-id`); if it is the same machine re-installed, delete its old password secret on the server (`kubectl -n kube-system delete secret <node>.node-password.k3s`, `.rke2` for rke2) and restart the agent"),
        );
    }
    let mut mirror: BTreeMap<(&str, String), Vec<&crate::classify::Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::MirrorPodOutdated]) {
        let host = s
            .object
            .as_ref()
            .map(|o| o.name.clone())
            .unwrap_or_default();
        mirror.entry((s.source.as_str(), host)).or_default().push(s);
    }
    for ((_, host), sigs) in mirror {
        if sigs.len() < 2 {
            continue;
        }
        let subject = if host.is_empty() {
            Subject::log(&sigs[0].source)
        } else {
            Subject::cluster_scoped("Node", &host)
        };
        out.push(
            Finding::new(
                NodeDuplicateHostname::ID,
                Severity::Error,
                subject,
                format!("the kubelet on {} deletes static-pod mirror pods as outdated in a loop ({} times): two machines are registering as the same Node", if host.is_empty() { "this node" } else { &host }, sigs.len()),
            )
            .with_evidences(sigs.iter().map(|s| s.evidence()))
            .with_remedy("find the second machine with the same hostname, `kubeadm reset` it, set a unique hostname and join again with `--node-name`"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::{run_log, run_rule};

    #[test]
    fn shared_hostname_label() {
        let s = r#"{"kind":"List","items":[
          {"kind":"Node","metadata":{"name":"a","labels":{"kubernetes.io/hostname":"ubuntu"}}},
          {"kind":"Node","metadata":{"name":"b","labels":{"kubernetes.io/hostname":"ubuntu"}}},
          {"kind":"Node","metadata":{"name":"c","labels":{"kubernetes.io/hostname":"c"}}}]}"#;
        let f = run_rule("node-duplicate-hostname", s);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("a, b"));
    }

    #[test]
    fn unique_names_and_single_mirror_deletion_are_fine() {
        let s = r#"{"kind":"List","items":[{"kind":"Node","metadata":{"name":"a","labels":{"kubernetes.io/hostname":"a"}}},{"kind":"Node","metadata":{"name":"b","labels":{"kubernetes.io/hostname":"b"}}}]}"#;
        assert!(run_rule("node-duplicate-hostname", s).is_empty());
        assert!(run_log("node-duplicate-hostname", "Jul 24 11:45:25 ubuntu kubelet[8442]: W0724 kubelet.go:1596] Deleting mirror pod \"etcd-ubuntu_kube-system(1)\" because it is outdated").is_empty());
    }
}
