//! Pods the kubelet refused at admission, read from Pod objects and pod listings: the pod is
//! `Failed` with the reason the kubelet set (kubernetes/kubernetes pkg/kubelet/lifecycle/
//! predicate.go `Admit` and pkg/kubelet/kubelet.go `rejectPod`): `OutOf<resource>` (a resource
//! short on the node), a predicate's name (`MatchNodeSelector`, `PodToleratesNodeTaints`,
//! `PodFitsHostPorts` up to v1.18; `NodeAffinity`, `TaintToleration`, `NodePorts` since),
//! `UnexpectedAdmissionError` (the device manager could not allocate), and v1.2-v1.4's own
//! reasons (`NodeSelectorMismatching`, `HostPortConflict`, `OutOfDisk`). The message
//! (`Pod Node didn't have enough resource: ...`, `Pod Predicate NodeAffinity failed`) is read
//! with the catalog when it is there. Such pods are never retried: a controller replaces them
//! and the Failed ones stay until deleted.

use std::collections::BTreeMap;

use cube_model::objects::Pod;

use crate::rules::{obj, pod_subject};
use crate::{Context, Evidence, Finding, Severity, Subject};

/// The rule that explains a kubelet admission reason: resources `node-overcommitted`, device
/// allocation `gpu-plugin-log-error`, node selection `pod-unschedulable`; `None` for reasons
/// that are not the kubelet's admission.
pub(crate) fn rule_of(reason: &str) -> Option<&'static str> {
    match reason {
        r if r.starts_with("OutOf") && r.len() > "OutOf".len() => Some("node-overcommitted"),
        "UnexpectedAdmissionError" => Some("gpu-plugin-log-error"),
        "MatchNodeSelector"
        | "NodeAffinity"
        | "NodeSelectorMismatching"
        | "PodToleratesNodeTaints"
        | "TaintToleration"
        | "PodFitsHostPorts"
        | "NodePorts"
        | "HostPortConflict"
        | "HostName"
        | "CheckNodeLabelPresence"
        | "TopologyAffinityError" => Some("pod-unschedulable"),
        _ => None,
    }
}

/// What a predicate reason checks, in words.
fn checks(reason: &str) -> &'static str {
    match reason {
        "PodToleratesNodeTaints" | "TaintToleration" => {
            "the node's taints against the pod's tolerations"
        }
        "PodFitsHostPorts" | "NodePorts" | "HostPortConflict" => {
            "the pod's hostPorts against those in use on the node"
        }
        _ => "the pod's nodeSelector / node affinity against the node's labels",
    }
}

/// One finding per (node, reason) of the Failed pods the kubelet refused whose reason `rule`
/// explains: the catalog entry of the pod's message when it has one, else the reason's
/// meaning; every pod named (at most five), the first three as evidence.
pub(crate) fn refused_pods(ctx: &Context<'_>, rule: &str) -> Vec<Finding> {
    let mut groups: BTreeMap<(&str, &str), Vec<&Pod>> = BTreeMap::new();
    for p in &ctx.snapshot().pods {
        let reason = p.status.reason.as_str();
        if p.status.phase != "Failed" || rule_of(reason) != Some(rule) {
            continue;
        }
        groups
            .entry((p.spec.node_name.as_str(), reason))
            .or_default()
            .push(p);
    }
    let mut out = Vec::new();
    for ((node, reason), pods) in groups {
        let first = pods[0];
        let on = if node.is_empty() {
            "its node".to_owned()
        } else {
            format!("node {node}")
        };
        let names: Vec<String> = pods
            .iter()
            .take(5)
            .map(|p| {
                if p.metadata.namespace.is_empty() {
                    p.metadata.name.clone()
                } else {
                    p.key()
                }
            })
            .collect();
        let who = format!(
            "{}{}",
            names.join(", "),
            if pods.len() > 5 {
                format!(" and {} more", pods.len() - 5)
            } else {
                String::new()
            }
        );
        // the message's own catalog entry, when it is one of this rule's
        let known = crate::catalog::match_line(&first.status.message)
            .into_iter()
            .find(|m| {
                m.entry.rule == rule && matches!(m.entry.group, "kubelet-admit" | "allocate")
            });
        let (cause, remedy) = match &known {
            Some(m) => (
                crate::catalog::Entry::fill(m.entry.cause, &m.captures),
                crate::catalog::Entry::fill(m.entry.remedy, &m.captures),
            ),
            None => generic(reason, &on),
        };
        let subject = if node.is_empty() || pods.len() == 1 {
            pod_subject(first)
        } else {
            Subject::cluster_scoped("Node", node)
        };
        let mut f = Finding::new(
            rule,
            Severity::Error,
            subject,
            format!("{who} failed at admission on {on} ({reason}): {cause}"),
        )
        .with_remedy(remedy);
        for p in pods.iter().take(3) {
            let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
            f = f.with_evidence(Evidence::field(&o, "status.reason", reason));
            if !p.status.message.is_empty() {
                f = f.with_evidence(Evidence::field(&o, "status.message", &p.status.message));
            }
        }
        out.push(f);
    }
    out
}

/// Cause and remedy from the reason alone (a listing shows no message).
fn generic(reason: &str, on: &str) -> (String, String) {
    const CLEAN: &str = "then delete the Failed pods, which are never retried (`kubectl delete pods -A --field-selector=status.phase=Failed`)";
    if reason == "OutOfDisk" {
        return (
            format!(
                "the kubelet refused the pod because {on} was out of disk (the OutOfDisk condition of Kubernetes up to v1.12)"
            ),
            format!(
                "free disk on {on} (images, logs, emptyDir volumes under /var/lib/kubelet and the runtime's root); {CLEAN}"
            ),
        );
    }
    if reason == "TopologyAffinityError" {
        return (
            "the kubelet's Topology Manager refused the pod: with its single-numa-node or restricted policy the pod's devices and exclusive CPUs cannot all come from one NUMA node".to_owned(),
            format!("request fewer devices or CPUs per pod, or relax the kubelet's --topology-manager-policy; {CLEAN}"),
        );
    }
    if let Some(res) = reason.strip_prefix("OutOf") {
        let gpu = crate::resources::is_gpu_resource(res) || res.contains('/');
        return (
            if gpu {
                format!(
                    "the kubelet found no free {res} for the pod: most often right after the node rebooted or its kubelet restarted, when the kubelet re-admits its pods before the device plugin has registered {res} again (allocatable 0 until it does: kubernetes/kubernetes#128043); otherwise the device plugin is not running there, or the pod was bound by spec.nodeName without the scheduler's check"
                )
            } else {
                format!(
                    "the kubelet found not enough {res} free on {on} for the pod: it was bound without the scheduler's fit check (spec.nodeName set, a static pod) or another pod took the room first"
                )
            },
            if gpu {
                format!(
                    "check the device-plugin pod on {on} and that `kubectl describe node` lists {res} in Allocatable; {CLEAN}"
                )
            } else {
                format!(
                    "let the scheduler place the pod (a nodeSelector instead of spec.nodeName) or free {res} on {on}; {CLEAN}"
                )
            },
        );
    }
    if reason == "UnexpectedAdmissionError" {
        return (
            "the kubelet admitted the pod but could not allocate its devices from the device plugin (most often right after a node reboot, before the plugin registered its devices again: kubernetes/kubernetes#128043, or an Allocate error of the plugin)".to_owned(),
            format!("read the device plugin's log on {on} and `kubectl describe pod` for the allocation error; {CLEAN}"),
        );
    }
    (
        format!(
            "the kubelet re-checked {} and refused the pod: most often right after the node rebooted or its kubelet restarted, when it re-admits its pods before it has read its own Node object's labels and taints from the API server (kubernetes/kubernetes#71907, #80745; the controllers create replacement pods); otherwise the pod was bound without the scheduler (spec.nodeName) or the node's labels or taints changed before it started",
            checks(reason)
        ),
        format!(
            "if the replacement pods run, only clean up: {CLEAN}; if not, compare the pod's nodeSelector, affinity and tolerations with the node (`kubectl get node <node> --show-labels`, `kubectl describe node <node> | grep Taints`)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    const PODS: &str = r#"{"kind":"List","items":[
      {"kind":"Pod","metadata":{"name":"a","namespace":"n"},"spec":{"nodeName":"node-01","containers":[{"name":"c","image":"x"}]},"status":{"phase":"Failed","reason":"OutOfnvidia.com/gpu","message":"Pod Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 0, capacity: 0"}},
      {"kind":"Pod","metadata":{"name":"b","namespace":"n"},"spec":{"nodeName":"node-01","containers":[{"name":"c","image":"x"}]},"status":{"phase":"Failed","reason":"MatchNodeSelector","message":"Pod Predicate MatchNodeSelector failed"}},
      {"kind":"Pod","metadata":{"name":"d","namespace":"n"},"spec":{"nodeName":"node-01","containers":[{"name":"c","image":"x"}]},"status":{"phase":"Failed","reason":"UnexpectedAdmissionError","message":"Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected"}},
      {"kind":"Pod","metadata":{"name":"e","namespace":"n"},"spec":{"nodeName":"node-01","containers":[{"name":"c","image":"x"}]},"status":{"phase":"Failed","reason":"Evicted","message":"The node was low on resource: memory."}}]}"#;

    #[test]
    fn pods_the_kubelet_refused_are_explained_by_their_reason_and_message() {
        let f = run_rule("node-overcommitted", PODS);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("device plugin"), "{}", f[0].message);
        assert!(f[0].message.contains("n/a"), "{}", f[0].message);
        let f = run_rule("pod-unschedulable", PODS);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("MatchNodeSelector") && f[0].message.contains("restarted"),
            "{}",
            f[0].message
        );
        let f = run_rule("gpu-plugin-log-error", PODS);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("UnexpectedAdmissionError"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_listing_without_messages_still_names_the_cause() {
        let s = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"n"},"spec":{"nodeName":"node-01","containers":[{"name":"c","image":"x"}]},"status":{"phase":"Failed","reason":"NodeSelectorMismatching"}}"#;
        let f = run_rule("pod-unschedulable", s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("labels"), "{}", f[0].message);
    }
}
