//! `node-cordoned`: nodes whose `spec.unschedulable` is true (`kubectl cordon`, `kubectl drain`),
//! shown as `Ready,SchedulingDisabled` by `kubectl get nodes`.
//!
//! Upstream: kubectl's node printer appends `SchedulingDisabled` to STATUS when
//! `spec.unschedulable` is set (kubernetes/kubernetes `pkg/printers/internalversion/printers.go`,
//! `printNode`); `kubectl describe node` prints `Unschedulable: true`; the node lifecycle
//! controller adds the `node.kubernetes.io/unschedulable:NoSchedule` taint for it
//! (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`, TaintNodesByCondition) and the
//! scheduler's NodeUnschedulable plugin refuses the node (`node(s) were unschedulable`,
//! `pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go`).
//!
//! Who cordons and means it: the cluster autoscaler before removing a node (taint
//! `ToBeDeletedByClusterAutoscaler`, kubernetes/autoscaler
//! `cluster-autoscaler/utils/taints/taints.go`), Karpenter while disrupting one
//! (`karpenter.sh/disrupted:NoSchedule` in v1, `karpenter.sh/disruption=disrupting` in
//! v0.32-v0.37, kubernetes-sigs/karpenter `pkg/apis/v1/taints.go`), and the GPU operator's
//! driver upgrade (label `nvidia.com/gpu-driver-upgrade-state`, NVIDIA/k8s-operator-libs
//! `pkg/upgrade/consts.go`). Those are reported as info; a cordon nobody is working through
//! holds the node's capacity back (often left over from a drain before an upgrade), a warning;
//! every worker cordoned means no new pod can be placed anywhere, an error.

use cube_model::objects::Node;

use crate::rules::{node_subject, obj, shell_word};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    NodeCordoned,
    "node-cordoned",
    Node,
    Warning,
    "A node is cordoned: `spec.unschedulable` is true (`kubectl cordon` or `kubectl drain`; `kubectl get nodes` shows `Ready,SchedulingDisabled`, `describe node` `Unschedulable: true`, the `node.kubernetes.io/unschedulable` taint), so the scheduler places no new pod there. Every worker cordoned is an error (no new pod can run anywhere); a Ready node cordoned with nobody working through it a warning (its capacity is held back, often after a drain that was never undone); a node the cluster autoscaler, Karpenter or the GPU operator's driver upgrade is working through, or a node that is also NotReady, is info. Remedy: `kubectl uncordon <node>` once maintenance is over.",
    check
);

/// Taint keys of the programs that cordon a node on purpose, and what they are doing.
const MANAGED_TAINTS: &[(&str, &str)] = &[
    (
        "ToBeDeletedByClusterAutoscaler",
        "the cluster autoscaler is removing it (scale-down)",
    ),
    (
        "DeletionCandidateOfClusterAutoscaler",
        "the cluster autoscaler has it as a scale-down candidate",
    ),
    ("karpenter.sh/disrupted", "Karpenter is disrupting it"),
    ("karpenter.sh/disruption", "Karpenter is disrupting it"),
];

/// Label keys of the programs that cordon a node for an upgrade.
const MANAGED_LABELS: &[(&str, &str)] = &[(
    "nvidia.com/gpu-driver-upgrade-state",
    "the GPU operator is upgrading its driver",
)];

/// Whether the node is cordoned: `spec.unschedulable` or the taint the lifecycle controller
/// sets for it.
pub(crate) fn is_cordoned(n: &Node) -> bool {
    n.spec.unschedulable
        || n.spec
            .taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/unschedulable")
}

/// What program cordoned the node on purpose, when one says so.
fn managed_by(n: &Node) -> Option<&'static str> {
    MANAGED_TAINTS
        .iter()
        .find(|(k, _)| n.spec.taints.iter().any(|t| t.key == *k))
        .map(|(_, w)| *w)
        .or_else(|| {
            MANAGED_LABELS
                .iter()
                .find(|(k, _)| n.metadata.labels.contains_key(k))
                .map(|(_, w)| *w)
        })
}

fn is_control_plane(n: &Node) -> bool {
    n.metadata.labels.keys().any(|k| {
        k == "node-role.kubernetes.io/control-plane" || k == "node-role.kubernetes.io/master"
    })
}

fn not_ready(n: &Node) -> bool {
    n.status
        .conditions
        .iter()
        .any(|c| c.type_ == "Ready" && c.status != "True")
}

fn evidence(n: &Node) -> Evidence {
    let o = obj("Node", "", &n.metadata.name);
    if n.spec.unschedulable {
        Evidence::field(o, "spec.unschedulable", "true")
    } else {
        Evidence::field(
            o,
            "spec.taints",
            "node.kubernetes.io/unschedulable:NoSchedule",
        )
    }
}

fn name_of(n: &Node) -> &str {
    if n.metadata.name.is_empty() {
        "the described node"
    } else {
        &n.metadata.name
    }
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let nodes = &ctx.snapshot().nodes;
    let cordoned: Vec<&Node> = nodes.iter().filter(|n| is_cordoned(n)).collect();
    if cordoned.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    // the nodes meant to take workloads: the workers, or every node of a cluster that has none
    let workers: Vec<&Node> = if nodes.iter().all(is_control_plane) {
        nodes.iter().collect()
    } else {
        nodes.iter().filter(|n| !is_control_plane(n)).collect()
    };
    let all_workers = workers.iter().all(|n| is_cordoned(n));
    let mut held: Vec<&Node> = Vec::new();
    for n in &cordoned {
        let name = name_of(n);
        if let Some(who) = managed_by(n) {
            out.push(
                Finding::new(
                    NodeCordoned::ID,
                    Severity::Info,
                    node_subject(n),
                    format!("node {name} is cordoned (SchedulingDisabled): {who}, so it takes no new pods meanwhile"),
                )
                .with_evidence(evidence(n))
                .with_remedy("nothing while the program works through the node; if it stays cordoned long after, read that program's log (cluster-autoscaler, Karpenter, the GPU operator's upgrade state) and `kubectl uncordon` the node when it is meant to stay"),
            );
        } else if not_ready(n) && !all_workers {
            out.push(
                Finding::new(
                    NodeCordoned::ID,
                    Severity::Info,
                    node_subject(n),
                    format!("node {name} is cordoned (SchedulingDisabled) and not Ready: it was drained or cordoned while it is down (node-not-ready tells why it is down)"),
                )
                .with_evidence(evidence(n))
                .with_remedy(format!("once the node is Ready again and its maintenance is over: `kubectl uncordon {}`", shell_word(name))),
            );
        } else {
            held.push(n);
        }
    }
    if held.is_empty() {
        return out;
    }
    let names: Vec<&str> = held.iter().map(|n| name_of(n)).collect();
    let shown = names
        .iter()
        .take(20)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    let more = if names.len() > 20 {
        format!(" and {} more", names.len() - 20)
    } else {
        String::new()
    };
    let uncordon = format!(
        "kubectl uncordon {}",
        held.iter()
            .map(|n| shell_word(name_of(n)))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let (severity, message) = if all_workers {
        (
            Severity::Error,
            format!(
                "every node meant to take pods is cordoned (SchedulingDisabled: {shown}{more}): the scheduler places no new pod anywhere (`node(s) were unschedulable`), so every new or restarted pod stays Pending; the cordon of a drain (before an upgrade or a reboot) was not undone"
            ),
        )
    } else {
        (
            Severity::Warning,
            format!(
                "{} cordoned (SchedulingDisabled: {shown}{more}) and no autoscaler or upgrade is working through {}: the scheduler places no new pods there, so {} capacity is held back; a drain that was never undone leaves a node like this",
                if held.len() == 1 {
                    "a Ready node is"
                } else {
                    "Ready nodes are"
                },
                if held.len() == 1 { "it" } else { "them" },
                if held.len() == 1 { "its" } else { "their" },
            ),
        )
    };
    let mut f = Finding::new(NodeCordoned::ID, severity, node_subject(held[0]), message);
    for n in held.iter().take(10) {
        f = f.with_evidence(evidence(n));
    }
    out.push(f.with_remedy(format!(
        "if the maintenance is over, `{uncordon}` (check first with `kubectl get nodes` and the node's annotations who cordoned it and why)"
    )));
    out
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_rule;

    fn node(name: &str, unsched: bool, ready: &str, extra: &str) -> String {
        format!(
            r#"{{"kind":"Node","metadata":{{"name":"{name}"{extra}}},"spec":{{"unschedulable":{unsched}}},"status":{{"conditions":[{{"type":"Ready","status":"{ready}"}}]}}}}"#
        )
    }

    #[test]
    fn every_worker_cordoned_is_an_error() {
        let cp = r#","labels":{"node-role.kubernetes.io/control-plane":""}"#;
        let text = format!(
            r#"{{"kind":"List","items":[{},{},{}]}}"#,
            node("cp-1", false, "True", cp),
            node("w-1", true, "True", ""),
            node("w-2", true, "True", "")
        );
        let f = run_rule("node-cordoned", &text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(f[0].message.contains("w-1, w-2"), "{}", f[0].message);
        assert!(f[0].remedy.contains("kubectl uncordon w-1 w-2"));
    }

    #[test]
    fn one_cordoned_ready_node_is_a_warning_and_none_is_quiet() {
        let text = format!(
            r#"{{"kind":"List","items":[{},{}]}}"#,
            node("w-1", true, "True", ""),
            node("w-2", false, "True", "")
        );
        let f = run_rule("node-cordoned", &text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        let text = format!(
            r#"{{"kind":"List","items":[{},{}]}}"#,
            node("w-1", false, "True", ""),
            node("w-2", false, "True", "")
        );
        assert!(run_rule("node-cordoned", &text).is_empty());
    }

    #[test]
    fn autoscaler_and_not_ready_cordons_are_info() {
        let text = r#"{"kind":"List","items":[
          {"kind":"Node","metadata":{"name":"w-1"},"spec":{"unschedulable":true,"taints":[{"key":"ToBeDeletedByClusterAutoscaler","value":"1700000000","effect":"NoSchedule"}]},"status":{"conditions":[{"type":"Ready","status":"True"}]}},
          {"kind":"Node","metadata":{"name":"w-2"},"spec":{"unschedulable":true},"status":{"conditions":[{"type":"Ready","status":"Unknown"}]}},
          {"kind":"Node","metadata":{"name":"w-3"},"status":{"conditions":[{"type":"Ready","status":"True"}]}}]}"#;
        let f = run_rule("node-cordoned", text);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().all(|f| f.severity == Severity::Info));
        assert!(f[0].message.contains("autoscaler"));
    }

    #[test]
    fn get_nodes_table_scheduling_disabled() {
        let text = "NAME     STATUS                     ROLES           AGE   VERSION\nmaster   Ready                      control-plane   90d   v1.28.2\ngpu-1    Ready,SchedulingDisabled   <none>          90d   v1.28.2\n";
        let f = run_rule("node-cordoned", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error, "{f:#?}");
        assert!(f[0].remedy.contains("kubectl uncordon gpu-1"));
    }
}
