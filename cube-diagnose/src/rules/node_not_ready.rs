//! `node-not-ready`: a node's Ready condition is not True.

use crate::classify::SignalKind;
use crate::rules::{node_subject, obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    NodeNotReady,
    "node-not-ready",
    Node,
    Error,
    "A node's Ready condition is not True (False: the kubelet reports a problem such as an uninitialized CNI plugin; Unknown: the node controller lost the kubelet's heartbeat, a warning because it may be transient or a stale Node object). Pods bound there do not run. Evidence: reason, message, last heartbeat, taints and the pods still bound. Also fires (warning) when kubeadm's kubelet-check reports that the kubelet is not running, or a kubelet log shows it cannot start as a node (no /var/lib/kubelet/config.yaml before `kubeadm init`/`join` wrote it).",
    check
);

/// Whether a node was read from a `kubectl get nodes` row: kubectl prints `NotReady` for a
/// Ready condition that is False *or* Unknown (`pkg/printers/internalversion/printers.go`,
/// `printNode`), so the row does not say which.
fn from_table(n: &cube_model::objects::Node) -> bool {
    n.metadata
        .annotations
        .contains_key(cube_model::describe::PARTIAL_ANNOTATION)
}

/// A nameless node (a `describe node` excerpt without its `Name:` line, named by the input
/// reader `unnamed node (from <source>)`).
fn unnamed(n: &cube_model::objects::Node) -> bool {
    n.metadata.name.starts_with("unnamed node (from ")
}

/// The load problem of a field dropped from this node's `status` or `status.conditions`
/// (`field dropped, the rest of the object was kept`), as text; `None` when there is none.
fn unreadable_ready(
    snap: &cube_model::ClusterSnapshot,
    n: &cube_model::objects::Node,
) -> Option<String> {
    let me = format!("Node/{}", n.metadata.name);
    snap.problems
        .iter()
        .filter(|p| !p.is_skip() && p.object == me)
        .find(|p| p.field == "status" || p.field.starts_with("status.conditions"))
        .map(|p| format!("{} at {}: {}", p.file, p.field, p.message))
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let nodes = &ctx.snapshot().nodes;
    let not_ready = |n: &&cube_model::objects::Node| {
        n.status
            .conditions
            .iter()
            .any(|c| c.type_ == "Ready" && c.status != "True")
    };
    // a nameless describe excerpt next to `get nodes` rows that are NotReady is the excerpt of
    // one of them: its conditions explain those rows, it is no node of its own
    let table_not_ready = nodes
        .iter()
        .filter(not_ready)
        .filter(|n| from_table(n))
        .count();
    let excerpt = nodes
        .iter()
        .filter(not_ready)
        .find(|n| unnamed(n))
        .filter(|_| table_not_ready > 0);
    for n in nodes {
        // a Ready condition the loader could not read (a wrongly typed field dropped): the
        // node's state is unknown, never healthy (fresh-user report F16)
        let unreadable = unreadable_ready(ctx.snapshot(), n);
        let ready = n.status.conditions.iter().find(|c| c.type_ == "Ready");
        if let Some(why) = unreadable.filter(|_| ready.is_none_or(|c| c.status != "True")) {
            let name = &n.metadata.name;
            out.push(
                Finding::new(
                    NodeNotReady::ID,
                    Severity::Warning,
                    node_subject(n),
                    format!(
                        "node {name}: its Ready state is unknown, the input's Ready condition could not be read ({why}); the node is not counted as healthy"
                    ),
                )
                .with_evidence(Evidence::field(obj("Node", "", name), "status.conditions", why))
                .with_remedy(format!(
                    "dump the node again as the API server stores it (`kubectl get node {name} -o json`) and run again; `kubectl describe node {name}` shows its conditions"
                )),
            );
            continue;
        }
        let Some(c) = ready else {
            continue;
        };
        if c.status == "True" || (excerpt.is_some() && unnamed(n)) {
            continue;
        }
        // a join refused because this NotReady Node exists: node-duplicate-hostname carries
        // the one cause (the machine's own stale registration)
        // (and a kubelet now registering under another name than its certificate's: the
        // old Node stops being updated, cluster-forbidden carries that cause)
        if crate::rules::signals(
            ctx,
            &[
                crate::classify::SignalKind::DuplicateNodeName,
                crate::classify::SignalKind::RbacForbidden,
            ],
        )
        .any(|s| {
            (s.kind == crate::classify::SignalKind::DuplicateNodeName
                || s.detail("node_name_mismatch") == "true")
                && s.detail("node") == n.metadata.name
        }) {
            continue;
        }
        let name = &n.metadata.name;
        let o = obj("Node", "", name);
        let table_row = from_table(n) && c.reason.is_empty() && c.message.is_empty();
        let shown = excerpt
            .filter(|_| table_row)
            .and_then(|e| e.status.conditions.iter().find(|c| c.type_ == "Ready"));
        let status = shown.map_or(c.status.as_str(), |s| s.status.as_str());
        let severity = if status == "False" {
            Severity::Error
        } else {
            Severity::Warning
        };
        let message = if let Some(s) = shown {
            format!(
                "node {name} is NotReady in `kubectl get nodes`; the describe excerpt of {} in the same input shows Ready={} (reason {}): {}",
                if table_not_ready > 1 {
                    "one of the NotReady nodes"
                } else {
                    "this node"
                },
                s.status,
                s.reason,
                if s.message.is_empty() {
                    "no message"
                } else {
                    &s.message
                }
            )
        } else if table_row {
            format!(
                "node {name} is NotReady in `kubectl get nodes` (its Ready condition is False or Unknown: the table does not say which, `kubectl describe node {name}` does)"
            )
        } else {
            format!(
                "node {name} is not Ready (Ready={}, reason {}): {}",
                c.status,
                c.reason,
                if c.message.is_empty() {
                    "no message"
                } else {
                    &c.message
                }
            )
        };
        let c = shown.unwrap_or(c);
        let mut f = Finding::new(NodeNotReady::ID, severity, node_subject(n), message)
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].status",
                &c.status,
            ))
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].reason",
                &c.reason,
            ))
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].message",
                &c.message,
            ))
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].lastHeartbeatTime",
                c.last_heartbeat_time
                    .map(|t| t.to_string())
                    .unwrap_or_else(|| "<absent>".into()),
            ));
        for t in &n.spec.taints {
            f = f.with_evidence(Evidence::field(
                &o,
                "spec.taints",
                format!("{}:{}", t.key, t.effect),
            ));
        }
        let bound: Vec<String> = ctx
            .pods_on_node(name)
            .iter()
            .map(|&i| ctx.pod(i))
            .filter(|p| !ctx.pod_finished(p))
            .map(|p| p.key())
            .collect();
        if !bound.is_empty() {
            f = f.with_evidence(Evidence::field(
                &o,
                "pods bound (spec.nodeName)",
                bound.join(", "),
            ));
        }
        let remedy = if c.message.contains("cni") || c.message.contains("network plugin") {
            format!(
                "install or repair the CNI plugin on {name} (the CNI DaemonSet pod on that node must be Running; on the node /etc/cni/net.d must hold its config and /opt/cni/bin its binaries, the conf_dir and bin_dir of containerd's CRI plugin); if they are there and the node stays NotReady, restart the runtime and then the kubelet on {name} (`sudo systemctl restart containerd && sudo systemctl restart kubelet`: containerd loads the CNI config at start and may not have seen it), then `kubectl describe node {name}`"
            )
        } else if status == "Unknown" {
            format!(
                "check that the kubelet runs on {name} (`systemctl status kubelet; journalctl -u kubelet`) and can reach the API server; delete the Node object if the machine is gone (`kubectl delete node {name}`)"
            )
        } else {
            format!(
                "`kubectl describe node {name}` and `journalctl -u kubelet` on {name}; fix the condition the kubelet reports"
            )
        };
        out.push(f.with_remedy(remedy));
    }
    // the first kubelet-check failure that says how the health endpoint failed, else the first
    let unhealthy: Vec<_> = signals(ctx, &[SignalKind::KubeletUnhealthy]).collect();
    if let Some(s) = unhealthy
        .iter()
        .find(|s| !s.detail("healthz").is_empty())
        .or_else(|| unhealthy.first())
    {
        let how = match s.detail("healthz") {
            "" if s.text.contains("connection refused") => "refused",
            "" if s.text.contains("not healthy after")
                || s.text.contains("deadline exceeded")
                || s.text.contains("Timeout") =>
            {
                "timed out"
            }
            "" => "failed",
            h => h,
        };
        let f = Finding::new(
            NodeNotReady::ID,
            Severity::Warning,
            signal_subject(s),
            format!("the joining node's kubelet is not running or healthy (kubelet-check: its healthz on :10248 {how}); the join cannot complete"),
        )
        .with_evidence(s.evidence())
        .with_remedy("read `journalctl -xeu kubelet` on the joining node; a common cause is a cgroup driver mismatch between the kubelet and the container runtime");
        out.push(f);
    }
    // a kubelet that cannot start as a node at all, told by its own log (the catalog entries
    // concluded by node-not-ready: no config file before kubeadm init/join)
    out.extend(crate::rules::log_catalog::catalog_findings(
        ctx,
        NodeNotReady::ID,
    ));
    out
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::{run_log, run_rule};

    const NODE: &str = r#"{"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"a"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"container runtime network not ready: cni plugin not initialized"}]}},
      {"kind":"Node","metadata":{"name":"b"},"status":{"conditions":[{"type":"Ready","status":"True"}]}},
      {"kind":"Node","metadata":{"name":"c"},"status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"NodeStatusNeverUpdated"}]}},
      {"kind":"Node","metadata":{"name":"d"}}]}"#;

    #[test]
    fn false_is_error_unknown_is_warning_ready_and_partial_are_silent() {
        let f = run_rule("node-not-ready", NODE);
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].subject.name.as_str(), f[0].severity),
            ("a", Severity::Error)
        );
        assert!(f[0].remedy.contains("CNI"));
        assert_eq!(
            (f[1].subject.name.as_str(), f[1].severity),
            ("c", Severity::Warning)
        );
    }

    /// `kubectl get nodes` prints NotReady for False and Unknown alike; a nameless describe
    /// excerpt next to the rows is one of those nodes, not a node of its own.
    #[test]
    fn get_nodes_rows_with_a_nameless_describe_excerpt() {
        let text = "NAME      STATUS     ROLES                  AGE     VERSION\nnode-02   NotReady   <none>                 2y48d   v1.21.1+k3s1\nnode-01   Ready      control-plane,master   2y48d   v1.21.1+k3s1\n\nConditions:\n  Type                 Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message\n  ----                 ------    -----------------                 ------------------                ------              -------\n  Ready                Unknown   Tue, 07 Jun 2022 06:42:06 +0000   Thu, 14 Jul 2022 06:46:14 +0000   NodeStatusUnknown   Kubelet stopped posting node status.\n";
        let f = run_rule("node-not-ready", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.name, "node-02");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].message.contains("Kubelet stopped posting node status"),
            "{}",
            f[0].message
        );
        // the rows alone: NotReady, False or Unknown not known
        let rows = "NAME      STATUS     ROLES    AGE   VERSION\nnode-02   NotReady   <none>   2d    v1.29.1\n";
        let f = run_rule("node-not-ready", rows);
        assert!(
            f[0].message.contains("False or Unknown"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn kubelet_check_text() {
        assert_eq!(
            run_log(
                "node-not-ready",
                "[kubelet-check] It seems like the kubelet isn't running or healthy."
            )
            .len(),
            1
        );
        assert!(run_log("node-not-ready", "[kubelet-start] Starting the kubelet").is_empty());
    }
}
