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
    "Two nodes share a kubernetes.io/hostname label or a Hostname/InternalIP address, or kubeadm/kubelet text shows two machines using one node name (kubeadm refusing the join, or a kubelet deleting its static pods' mirror pods as outdated in a loop because another kubelet updates the same Node object), a k3s/rke2 server refusing an agent's node password (agent: `Node password rejected`, v0.5 `node.crt: 403 Forbidden`; server: `Node password validation failed`, `unable to verify hash for node`), or an embedded etcd member of the same name (`duplicate node name found`). Give every machine a unique hostname (or --node-name) before joining.",
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
    // one node name shown twice with different addresses (two `get nodes -o wide` listings,
    // a table row and a `describe node`): the views were merged into one Node, noted
    for n in &ctx.snapshot().nodes {
        let Some(conflict) = n
            .metadata
            .annotations
            .get(cube_model::describe::IDENTITY_CONFLICT_ANNOTATION)
        else {
            continue;
        };
        let name = &n.metadata.name;
        out.push(
            Finding::new(
                NodeDuplicateHostname::ID,
                Severity::Warning,
                Subject::cluster_scoped("Node", name),
                format!(
                    "node {name} is shown twice with another identity ({conflict}): two machines register under the one name {name} and take its Node object in turn (the same host name on both: a cloned image, a default host name such as raspberrypi, a k3s agent or kubeadm join that reuses it), so the cluster only ever sees one of them; or the node's address changed between the two listings"
                ),
            )
            .with_evidence(Evidence::field(
                obj("Node", "", name),
                "status.addresses",
                conflict,
            ))
            .with_remedy(format!(
                "check which machines answer to {name} (`kubectl get node {name} -o wide -w` while each runs); give every machine a unique host name (`hostnamectl set-hostname <name>`) or node name (k3s/rke2: `--node-name` or `--with-node-id`; kubeadm: `kubeadm join --node-name <name>`) and join it again"
            )),
        );
    }
    for s in signals(ctx, &[SignalKind::DuplicateNodeName]) {
        let node = s.detail("node");
        // the existing Node as the input shows it: NotReady (or Unknown) means nobody runs a
        // kubelet under that name any more, so it is this machine's own earlier registration
        // (a re-join after `kubeadm reset` or a re-install), not another machine; kubeadm
        // v1.18.0 says `status "Ready"` whatever the status (kubernetes/kubernetes#89512,
        // fixed in v1.18.1 by #89602: cmd/kubeadm/app/cmd/phases/join/kubelet.go)
        let stale = ctx
            .snapshot()
            .nodes
            .iter()
            .find(|n| n.metadata.name == node)
            .and_then(|n| {
                n.status
                    .conditions
                    .iter()
                    .find(|c| c.type_ == "Ready" && c.status != "True")
                    .map(|c| (n, c.status.clone()))
            });
        let f = match stale {
            Some((n, status)) => Finding::new(NodeDuplicateHostname::ID, Severity::Error, Subject::cluster_scoped("Node", node), format!("kubeadm refused to join: a Node named {node} already exists, and it is NotReady (Ready {status}): no kubelet runs under that name any more, so it is this machine's own earlier registration (re-joined after a reset or re-install), not another machine with the same hostname{}", if s.detail("status") == "Ready" { "; kubeadm v1.18.0 reports such a Node as `status \"Ready\"` whatever its status (fixed in v1.18.1)" } else { "" }))
                .with_evidence(s.evidence())
                .with_evidence(Evidence::field(obj("Node", "", &n.metadata.name), "status.conditions[Ready].status", status))
                .with_remedy(format!("delete the stale Node from a control-plane node (`kubectl delete node {node}`), then run the same join command again on this machine (after `kubeadm reset -f` if the join got past preflight); a kubeadm of v1.18.1 or later joins over a NotReady Node by itself")),
            None => Finding::new(NodeDuplicateHostname::ID, Severity::Error, Subject::cluster_scoped("Node", node), format!("kubeadm refused to join: a Node named {node} already exists"))
                .with_evidence(s.evidence())
                .with_remedy(format!("join with `kubeadm join ... --node-name <unique-name>` or remove the stale Node (`kubectl delete node {node}`) if that machine is gone")),
        };
        out.push(f);
    }
    // k3s / rke2: the server rejects the agent's node password
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::NodePasswordRejected]) {
        if !seen.insert(s.source.clone()) {
            continue;
        }
        let subject = s.object.clone().unwrap_or_else(|| Subject::log(&s.source));
        // the wording tells the release: the v0.5-v1.18 agents name a passwd file on the
        // server, later ones the <node>.node-password.<program> secret (catalog `k3s.agent.*`)
        let entry = crate::catalog::entry(s.detail("entry"));
        let (message, remedy) = match entry {
            Some(e) if !e.remedy.is_empty() && e.id != "k3s.agent.node-password-rejected" => {
                let (cause, remedy) = e.cause_and_remedy(s);
                (format!("the k3s/rke2 server rejects this agent's node: {cause}"), remedy)
            }
            _ => (
                "the k3s/rke2 server rejects this agent's node password: another node already registered this hostname, or this machine was re-installed and its /etc/rancher/node/password no longer matches the server's <node>.node-password secret".to_owned(),
                "if another machine uses this hostname, give this one a unique name (`--node-name <unique>` or `--with-node-id`); if it is the same machine re-installed, delete its old password secret on the server (`kubectl -n kube-system delete secret <node>.node-password.k3s`, `.rke2` for rke2) and restart the agent".to_owned(),
            ),
        };
        out.push(
            Finding::new(NodeDuplicateHostname::ID, Severity::Error, subject, message)
                .with_evidence(s.evidence())
                .with_remedy(remedy),
        );
    }
    // the servers' own refusals (k3s node-password checks, an embedded etcd member of the
    // same name): catalog entries with their cause and remedy
    out.extend(crate::rules::log_catalog::catalog_findings(
        ctx,
        NodeDuplicateHostname::ID,
    ));
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

    /// k3s-io/k3s#532 shape: two machines with the default host name take the one Node in
    /// turn; two `get nodes -o wide` listings (stacked, or a listing and a `describe node`)
    /// show one name with other addresses. The same listing repeated stays quiet.
    #[test]
    fn one_name_with_two_addresses_across_listings() {
        let header = "NAME          STATUS   ROLES    AGE   VERSION         INTERNAL-IP    EXTERNAL-IP   OS-IMAGE                         KERNEL-VERSION   CONTAINER-RUNTIME\n";
        let row = |ip: &str| {
            format!(
                "raspberrypi   Ready    <none>   24h   v1.14.1-k3s.4   {ip}     <none>        Raspbian GNU/Linux 9 (stretch)   4.14.79-v7+      containerd://1.2.5+unknown\n"
            )
        };
        let stacked = format!(
            "$ kubectl get nodes -o wide\n{header}{}$ kubectl get nodes -o wide\n{header}{}",
            row("192.0.2.39"),
            row("192.0.2.41")
        );
        let f = run_rule("node-duplicate-hostname", &stacked);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.name, "raspberrypi");
        assert!(
            f[0].message.contains("192.0.2.39") && f[0].message.contains("192.0.2.41"),
            "{}",
            f[0].message
        );
        // without prompts, a blank line between the listings
        let bare = format!(
            "{header}{}\n{header}{}",
            row("192.0.2.39"),
            row("192.0.2.41")
        );
        assert_eq!(run_rule("node-duplicate-hostname", &bare).len(), 1);
        // a listing and a describe of the name with another InternalIP
        let describe = format!(
            "{header}{}\nName:               raspberrypi\nAddresses:\n  InternalIP:  192.0.2.41\n  Hostname:    raspberrypi\n",
            row("192.0.2.39")
        );
        assert_eq!(run_rule("node-duplicate-hostname", &describe).len(), 1);
        // the same listing twice: one node, nothing to say
        let same = format!(
            "$ kubectl get nodes -o wide\n{header}{}$ kubectl get nodes -o wide\n{header}{}",
            row("192.0.2.39"),
            row("192.0.2.39")
        );
        let f = run_rule("node-duplicate-hostname", &same);
        assert!(f.is_empty(), "{f:#?}");
    }

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

    /// kubeadm refusing a join over a Node of the same name that the input shows NotReady:
    /// the machine's own stale registration, one finding (node-not-ready stays silent).
    #[test]
    fn stale_notready_node_blocks_the_rejoin() {
        let mut i = crate::Inputs::new();
        i.add("join.log", "error execution phase kubelet-start: a Node with name \"node-02\" and status \"Ready\" already exists in the cluster. You must delete the existing Node or change the name of this new joining Node\n");
        i.add("nodes.txt", "NAME      STATUS     ROLES    AGE   VERSION\nnode-01   Ready      master   41d   v1.18.0\nnode-02   NotReady   <none>   41d   v1.18.0\n");
        let f = crate::rules::testutil::run_inputs("node-duplicate-hostname", &i);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("NotReady")
                && f[0].message.contains("own earlier registration")
                && f[0].message.contains("v1.18.0"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("kubectl delete node node-02"),
            "{}",
            f[0].remedy
        );
        assert!(crate::rules::testutil::run_inputs("node-not-ready", &i).is_empty());
        // a Ready Node of that name is another machine: the unique-name remedy
        let mut r = crate::Inputs::new();
        r.add("join.log", "a Node with name \"node-02\" and status \"Ready\" already exists in the cluster. You must delete the existing Node or change the name of this new joining Node\n");
        r.add("nodes.txt", "NAME      STATUS   ROLES    AGE   VERSION\nnode-02   Ready    <none>   41d   v1.18.0\n");
        let f = crate::rules::testutil::run_inputs("node-duplicate-hostname", &r);
        assert!(f[0].remedy.contains("--node-name"), "{f:#?}");
    }

    #[test]
    fn unique_names_and_single_mirror_deletion_are_fine() {
        let s = r#"{"kind":"List","items":[{"kind":"Node","metadata":{"name":"a","labels":{"kubernetes.io/hostname":"a"}}},{"kind":"Node","metadata":{"name":"b","labels":{"kubernetes.io/hostname":"b"}}}]}"#;
        assert!(run_rule("node-duplicate-hostname", s).is_empty());
        assert!(run_log("node-duplicate-hostname", "Jul 24 11:45:25 ubuntu kubelet[8442]: W0724 kubelet.go:1596] Deleting mirror pod \"etcd-ubuntu_kube-system(1)\" because it is outdated").is_empty());
    }
}
