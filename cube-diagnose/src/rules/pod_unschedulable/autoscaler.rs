//! Why a node autoscaler adds no node for a pending pod, read from its own texts: the
//! cluster-autoscaler's `NotTriggerScaleUp` event (as an event, a describe row, or the klog line
//! of its event recorder, `Event(v1.ObjectReference{Kind:"Pod", Namespace:"ns", Name:"p", ...}):
//! type: 'Normal' reason: 'NotTriggerScaleUp' ...`, client-go `tools/record/event.go`) and
//! Karpenter's `FailedScheduling` (`Failed to schedule pod, ...`). Catalog entries
//! `autoscaler.*` and `karpenter.*` cite the upstream files.
//!
//! The cluster-autoscaler's reasons count node groups, not nodes: each group's template node
//! (built from the cloud's instance type when the group is at 0, so without the GPUs, labels and
//! taints only the running nodes' kubelets and device plugins add) is run through the scheduler's
//! filters (`Insufficient nvidia.com/gpu`, `node(s) didn't match Pod's node affinity/selector`)
//! or the group is skipped (`max node group size reached`, `max cluster cpu, memory limit
//! reached`, `in backoff after failed scale-up`, `not ready for scale-up`).

use crate::classify::Signal;
use crate::classify::events::parse_reasons;
use crate::resources::is_gpu_resource;
use crate::rules::signal_subject;
use crate::{Context, Evidence, Subject};

/// One autoscaler's reading for one subject.
pub(super) struct Reading {
    /// The pod (or the input) it is about.
    pub subject: Subject,
    /// Why no node is added.
    pub cause: String,
    /// What makes the autoscaler add one.
    pub remedy: String,
    /// The line.
    pub evidence: Evidence,
}

/// The pod a klog event-recorder line names (`Event(v1.ObjectReference{Kind:"Pod",
/// Namespace:"default", Name:"gpu3-5vrjp", ...})`).
fn object_reference_pod(text: &str) -> Option<Subject> {
    let at = text.find("ObjectReference{")?;
    let body = &text[at..text[at..].find('}').map_or(text.len(), |e| at + e)];
    let field = |k: &str| {
        let key = format!("{k}:\"");
        let s = body.find(&key)? + key.len();
        let e = body[s..].find('"')? + s;
        Some(body[s..e].to_owned())
    };
    if field("Kind").as_deref() != Some("Pod") {
        return None;
    }
    let name = field("Name").filter(|n| !n.is_empty())?;
    Some(Subject::namespaced(
        "Pod",
        &field("Namespace").unwrap_or_default(),
        &name,
    ))
}

/// The cluster-autoscaler's node-group reasons, explained one by one.
fn cluster_autoscaler(text: &str) -> (String, String) {
    let old = text.contains("(it wouldn't fit if a new node is added)");
    let after = text
        .find("(it wouldn't fit if a new node is added)")
        .map(|at| &text[at + "(it wouldn't fit if a new node is added)".len()..])
        .or_else(|| {
            text.find("pod didn't trigger scale-up:")
                .map(|at| &text[at + "pod didn't trigger scale-up:".len()..])
        })
        .unwrap_or("");
    let reasons_text = after.trim_start_matches(':').trim();
    // a klog or event line may go on after the message (`(x5 over 14m)` is before it)
    let reasons = parse_reasons(reasons_text.trim_end_matches('.'));
    let mut causes: Vec<String> = Vec::new();
    let mut remedies: Vec<String> = Vec::new();
    let mut push = |c: String, r: &str| {
        causes.push(c);
        if !remedies.iter().any(|x| x == r) {
            remedies.push(r.to_owned());
        }
    };
    if reasons_text == "max total nodes in cluster reached" {
        push(
            "the cluster is at the autoscaler's --max-nodes-total".to_owned(),
            "raise the cluster-autoscaler's --max-nodes-total (or remove idle nodes)",
        );
    }
    for (n, r) in &reasons {
        let r = r.trim();
        if let Some(res) = r.strip_prefix("Insufficient ") {
            if is_gpu_resource(res) {
                push(
                    format!(
                        "{n} node group(s) would give a new node too few {res}: the autoscaler simulates the group's template node, and for a group at 0 nodes that template comes from the cloud's instance type without the {res} only a running node's device plugin advertises (or the pod asks for more {res} than one node of the group has)"
                    ),
                    &format!(
                        "tell the autoscaler what a new node of the GPU group has: on AWS tag the Auto Scaling group with k8s.io/cluster-autoscaler/node-template/resources/{res}=<GPUs per node> (and node-template/label/<key>=<value> for the labels the pod selects; cluster-autoscaler cloudprovider/aws/README.md), on other clouds the node pool's GPU/accelerator setting, or keep one GPU node running; otherwise lower the pod's {res} to what one node of the group has"
                    ),
                );
            } else {
                push(
                    format!(
                        "{n} node group(s) would give a new node too little {res}: the pod asks for more {res} than one new node's allocatable"
                    ),
                    &format!(
                        "lower the pod's {res} request below what one node of the intended group can allocate (instance size minus system reservations and DaemonSets), or add a node group with larger instances"
                    ),
                );
            }
        } else if r.contains("max node group size reached") {
            push(
                format!("{n} node group(s) are at their maximum size"),
                "raise the node group's maximum size (Auto Scaling group MaxSize, the node pool's max count, --nodes=<min>:<max>:<group>)",
            );
        } else if r.starts_with("max cluster") && r.ends_with("limit reached") {
            push(
                format!(
                    "{n} node group(s) are skipped because the cluster is at the autoscaler's {r}"
                ),
                "raise the cluster-autoscaler's --cores-total / --memory-total (or --gpu-total) limits",
            );
        } else if r.contains("in backoff after failed scale-up") {
            push(
                format!(
                    "{n} node group(s) are in backoff after a failed scale-up (the cloud did not deliver the node: quota, capacity, IP space)"
                ),
                "read why the last scale-up failed (FailedScaleUp events, `kubectl -n kube-system describe configmap cluster-autoscaler-status`, the cloud's activity log) and fix the quota, capacity or subnet",
            );
        } else if r.contains("not ready for scale-up") {
            push(
                format!(
                    "{n} node group(s) are not ready for scale-up (unhealthy or still registering nodes)"
                ),
                "check the node group's health in `kubectl -n kube-system describe configmap cluster-autoscaler-status`",
            );
        } else if r.contains("taint") {
            push(
                format!(
                    "{n} node group(s) would give a new node a taint the pod does not tolerate ('{r}')"
                ),
                "add the toleration to the pod, or, for a group at 0 nodes, declare the template's taints as they really are (AWS tag k8s.io/cluster-autoscaler/node-template/taint/<key>=<value>:<effect>)",
            );
        } else if r.contains("affinity") || r.contains("selector") {
            push(
                format!(
                    "{n} node group(s) would give a new node labels the pod's nodeSelector / affinity does not match ('{r}')"
                ),
                "label the node group so its template matches the pod (for a group at 0 nodes on AWS: tag k8s.io/cluster-autoscaler/node-template/label/<key>=<value>), or fix the pod's selector",
            );
        } else {
            push(
                format!("{n} node group(s): '{r}'"),
                "address the named reason for the node group the pod is meant for",
            );
        }
    }
    if reasons.is_empty() && reasons_text != "max total nodes in cluster reached" {
        if old {
            push(
                "a new node of no node group would fit the pod (its requests above the instance size, selectors or tolerations no group's template matches, or a GPU group at 0 nodes whose template has no GPUs)".to_owned(),
                "compare the pod's requests, nodeSelector and tolerations with each node group's instance type, labels and taints; for a GPU group at 0 nodes on AWS tag it k8s.io/cluster-autoscaler/node-template/resources/nvidia.com/gpu=<GPUs per node>",
            );
        } else {
            push(
                "the autoscaler considered no node group for the pod (none is discovered: auto-discovery tags or --nodes flags do not name the group meant for it)".to_owned(),
                "check the cluster-autoscaler's --node-group-auto-discovery tags (k8s.io/cluster-autoscaler/enabled, k8s.io/cluster-autoscaler/<cluster-name>) or --nodes against the node groups",
            );
        }
    }
    (
        format!(
            "the cluster-autoscaler adds no node for it: {}",
            causes.join("; ")
        ),
        remedies.join("; "),
    )
}

/// Karpenter's reasons (errors joined by `; ` after `Failed to schedule pod, `).
fn karpenter(text: &str) -> (String, String) {
    let body = text
        .find("Failed to schedule pod, ")
        .map_or(text, |at| &text[at + "Failed to schedule pod, ".len()..]);
    let mut causes: Vec<String> = Vec::new();
    let mut remedies: Vec<String> = Vec::new();
    // the NodePool a reason names: `(NodePool=<name>)`, `nodepool "<name>"`,
    // `provisioner "<name>"`
    let pool_of = |part: &str| -> Option<String> {
        if let Some(at) = part.find("NodePool=") {
            let rest = &part[at + "NodePool=".len()..];
            return Some(
                rest.chars()
                    .take_while(|c| !matches!(c, ')' | ',' | ' ' | ';'))
                    .collect(),
            );
        }
        for key in ["nodepool \"", "provisioner \""] {
            if let Some(at) = part.find(key) {
                let rest = &part[at + key.len()..];
                return rest.split('"').next().map(str::to_owned);
            }
        }
        None
    };
    for part in body.split("; ") {
        let pool = pool_of(part).filter(|p| !p.is_empty());
        let named = pool.clone().unwrap_or_else(|| "<nodepool>".to_owned());
        if part.contains("exceed limits for") {
            let kind = if part.contains("provisioner") {
                "Provisioner"
            } else {
                "NodePool"
            };
            causes.push(format!(
                "{kind} {named} is at its spec.limits: every instance type that fits the pod would take it over its limits (cpu, memory, nvidia.com/gpu or nodes counted over its existing nodes)"
            ));
            remedies.push(format!(
                "raise spec.limits of {kind} {named} (`kubectl get {} {named} -o yaml` shows spec.limits next to status.resources, the amount in use), or remove idle nodes of it",
                kind.to_ascii_lowercase()
            ));
        } else if part.contains("node limits have been exhausted") {
            causes.push(format!("NodePool {named} is at its spec.limits.nodes"));
            remedies.push(format!("raise spec.limits.nodes of NodePool {named}"));
        } else if part.contains("incompatible with nodepool")
            || part.contains("incompatible with provisioner")
        {
            let why = if part.contains("no instance type has enough resources") {
                "no instance type it allows has enough resources for the pod plus its DaemonSets"
            } else if part.contains("did not tolerate") {
                "the pod does not tolerate its taints"
            } else if part.contains("incompatible requirements") {
                "its requirements (labels, instance types, zones) exclude the pod's selectors"
            } else if part.contains("no instance type satisfied resources") {
                "no instance type it allows satisfies the pod's resources and requirements"
            } else {
                "its requirements do not fit the pod"
            };
            causes.push(format!("NodePool {named} cannot serve it: {why}"));
        }
    }
    if remedies.is_empty() {
        remedies.push("make one NodePool fit the pod: instance types large enough (requirements on instance category/size/GPU), taints the pod tolerates, labels it selects".to_owned());
    }
    (
        format!("Karpenter creates no node for it: {}", causes.join("; ")),
        remedies.join("; "),
    )
}

/// Every autoscaler reading of the input, the newest per subject and autoscaler.
pub(super) fn readings(ctx: &Context<'_>) -> Vec<Reading> {
    let mut latest: std::collections::BTreeMap<(Subject, bool), &Signal> =
        std::collections::BTreeMap::new();
    for s in ctx.signals() {
        let entry = s.detail("entry");
        let ca = entry.starts_with("autoscaler.not-trigger-scale-up");
        if !ca && !entry.starts_with("karpenter.") {
            continue;
        }
        // about an attempt the pod has since got past (bound, or a later `Scheduled`)
        if super::sched_text::stale(ctx, s).is_some() {
            continue;
        }
        let subject = match object_reference_pod(&s.text) {
            Some(p) => p,
            None => super::sched_text::resolve_pod(ctx, s, signal_subject(s)),
        };
        latest.insert((subject, ca), s);
    }
    latest
        .into_iter()
        .map(|((subject, ca), s)| {
            let (cause, remedy) = if ca {
                cluster_autoscaler(&s.text)
            } else {
                karpenter(&s.text)
            };
            Reading {
                subject,
                cause,
                remedy,
                evidence: s.evidence(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_autoscaler_reasons_in_every_wording() {
        // the klog line of the event recorder (kubernetes/autoscaler#2506)
        let (c, r) = cluster_autoscaler(
            "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 6 Insufficient nvidia.com/gpu",
        );
        assert!(c.contains("6 node group(s)"), "{c}");
        assert!(r.contains("node-template/resources/nvidia.com/gpu"), "{r}");
        let (c, r) = cluster_autoscaler(
            "pod didn't trigger scale-up: 1 node(s) had untolerated taint {sku: gpu}, 3 max node group size reached",
        );
        assert!(
            c.contains("3 node group(s) are at their maximum size"),
            "{c}"
        );
        assert!(r.contains("MaxSize") && r.contains("toleration"), "{r}");
        let (c, _) =
            cluster_autoscaler("pod didn't trigger scale-up: 1 in backoff after failed scale-up");
        assert!(c.contains("backoff"), "{c}");
        let (c, r) =
            cluster_autoscaler("pod didn't trigger scale-up: max total nodes in cluster reached");
        assert!(
            c.contains("--max-nodes-total") && r.contains("--max-nodes-total"),
            "{c}"
        );
        let (c, _) = cluster_autoscaler(
            "pod didn't trigger scale-up: 2 max cluster cpu, memory limit reached",
        );
        assert!(c.contains("max cluster cpu, memory limit reached"), "{c}");
        let (c, _) = cluster_autoscaler("pod didn't trigger scale-up:");
        assert!(c.contains("considered no node group"), "{c}");
        let (c, r) = cluster_autoscaler(
            "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 1 Insufficient cpu, 1 Insufficient nvidia.com/gpu",
        );
        assert!(
            c.contains("too little cpu") && c.contains("too few nvidia.com/gpu"),
            "{c}"
        );
        assert!(r.contains("lower the pod's cpu request"), "{r}");
        let (c, _) = cluster_autoscaler(
            "pod didn't trigger scale-up (it wouldn't fit if a new node is added)",
        );
        assert!(c.contains("no node group would fit"), "{c}");
    }

    #[test]
    fn karpenter_names_the_nodepool_in_every_wording() {
        for (line, pool) in [
            (
                "Failed to schedule pod, incompatible with nodepool \"spot-pool\", daemonset overhead={\"cpu\":\"1566m\"}, no instance type has enough resources; all available instance types exceed limits for nodepool (NodePool=gpu-nodepool)",
                "gpu-nodepool",
            ),
            (
                "Failed to schedule pod, all available instance types exceed limits for nodepool \"graviton\"",
                "graviton",
            ),
            (
                "Failed to schedule pod, all available instance types exceed limits for provisioner \"default\"",
                "default",
            ),
        ] {
            let (c, r) = karpenter(line);
            assert!(
                c.contains(&format!(" {pool} is at its spec.limits")),
                "{line}: {c}"
            );
            assert!(
                r.contains("raise spec.limits of") && r.contains(pool),
                "{r}"
            );
        }
        let (c, _) = karpenter(
            "Failed to schedule pod, incompatible with nodepool \"spot-pool\", daemonset overhead={}, no instance type has enough resources; all available instance types exceed limits for nodepool (NodePool=gpu-nodepool)",
        );
        assert!(c.contains("NodePool spot-pool cannot serve it"), "{c}");
        let (c, _) = karpenter(
            "Failed to schedule pod, node limits have been exhausted for nodepool (NodePool=gpu)",
        );
        assert!(c.contains("limits.nodes"), "{c}");
        // every Karpenter and cluster-autoscaler line is a catalog entry of its own
        for (line, id) in [
            (
                "Failed to schedule pod, incompatible with nodepool \"spot\", daemonset overhead={\"cpu\":\"1\"}, no instance type has enough resources",
                "karpenter.incompatible-nodepool",
            ),
            (
                "Failed to schedule pod, all available instance types exceed limits for nodepool \"graviton\"",
                "karpenter.exceed-limits",
            ),
            (
                "Failed to schedule pod, node limits have been exhausted for nodepool (NodePool=gpu)",
                "karpenter.node-limits-exhausted",
            ),
            (
                "pod didn't trigger scale-up: 2 max node group size reached",
                "autoscaler.not-trigger-scale-up",
            ),
            (
                "pod didn't trigger scale-up:",
                "autoscaler.not-trigger-scale-up",
            ),
            (
                "pod didn't trigger scale-up (it wouldn't fit if a new node is added): 1 Insufficient cpu",
                "autoscaler.not-trigger-scale-up-wouldnt-fit",
            ),
        ] {
            let m = crate::catalog::match_line(line);
            assert!(m.iter().any(|m| m.entry.id == id), "{line}: {m:#?}");
        }
    }

    #[test]
    fn the_event_recorder_line_names_the_pod() {
        let s = object_reference_pod(
            "I1101 17:52:13.116470 1 event.go:209] Event(v1.ObjectReference{Kind:\"Pod\", Namespace:\"default\", Name:\"gpu3-5vrjp\", UID:\"\", APIVersion:\"v1\", ResourceVersion:\"1\", FieldPath:\"\"}): type: 'Normal' reason: 'NotTriggerScaleUp' pod didn't trigger scale-up",
        );
        assert_eq!(s, Some(Subject::namespaced("Pod", "default", "gpu3-5vrjp")));
    }
}
