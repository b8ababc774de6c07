//! `pod-unschedulable`: a pending pod cannot fit; explained per node with scheduler-style reasons
//! and the GPU fragmentation picture.

use std::collections::HashMap;

use cube_quota::fit::{FitOptions, FitReport, NodeUsage};

use crate::classify::{SignalKind, events::parse_reasons};
use crate::resources::is_gpu_resource;
use crate::rules::{obj, pod_subject, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    PodUnschedulable,
    "pod-unschedulable",
    Scheduling,
    Warning,
    "A pod without a node cannot fit on any node, computed like the scheduler's filters (unschedulable, untolerated taints, node selector/affinity, Too many pods, Insufficient `<resource>` against allocatable minus the requests of pods already bound), reported as '0/N nodes are available: ...' with counts sorted as strings, plus the per-node free GPUs showing fragmentation. Scheduler texts (FailedScheduling) and Kueue admission texts are explained too: GPUs not advertised, constraints that exclude each other, resources a ClusterQueue does not cover.",
    check
);

/// What all pending pods of one shape share.
struct Shape {
    message: String,
    requests: Vec<(String, i64)>,
    nodes: Vec<Evidence>,
}

/// Summary, GPU fragmentation picture (at most `max_nodes` nodes listed, largest free first)
/// and per-node evidence of one fit; `None` when a node fits.
fn shape_of(
    report: &FitReport,
    snap: &cube_model::ClusterSnapshot,
    max_nodes: usize,
) -> Option<Shape> {
    let summary = report.filter_message()?;
    let mut message = summary;
    let mut requests = Vec::new();
    for g in &report.gpu {
        let mut listed: Vec<_> = g.nodes.iter().collect();
        listed.sort_by_key(|n| std::cmp::Reverse(n.free));
        let mut picture: Vec<String> = listed
            .iter()
            .take(max_nodes)
            .map(|n| {
                format!(
                    "{}: {} free of {}{}{}",
                    n.node,
                    n.free,
                    n.allocatable,
                    if n.used > n.allocatable {
                        format!(" ({} requested: over-committed)", n.used)
                    } else {
                        String::new()
                    },
                    if n.eligible { "" } else { ", not eligible" }
                )
            })
            .collect();
        if listed.len() > max_nodes {
            picture.push(format!("{} more nodes", listed.len() - max_nodes));
        }
        let advertising: std::collections::HashSet<&str> =
            g.nodes.iter().map(|n| n.node.as_str()).collect();
        let silent: Vec<&str> = snap
            .nodes
            .iter()
            .map(|n| n.metadata.name.as_str())
            .filter(|n| !advertising.contains(n))
            .collect();
        let silent_text = match silent.len() {
            0 => String::new(),
            k if k <= max_nodes => format!("; not advertised on {}", silent.join(", ")),
            k => format!("; not advertised on {k} nodes"),
        };
        let frag = if g.fragmented {
            format!(
                "fragmented: {} {} free in total on eligible nodes but at most {} on one node, {} requested",
                g.total_free, g.resource, g.largest_free, g.requested
            )
        } else {
            format!(
                "{} {} free in total on eligible nodes, largest block {}, {} requested",
                g.total_free, g.resource, g.largest_free, g.requested
            )
        };
        message.push_str(&format!(
            " GPU picture: {frag} ({}{silent_text})",
            picture.join("; ")
        ));
        requests.push((g.resource.to_string(), g.requested));
    }
    let nodes = report
        .nodes
        .iter()
        .take(max_nodes)
        .map(|n| Evidence::field(obj("Node", "", &n.node), "fit", n.all_reasons.join(", ")))
        .collect();
    Some(Shape {
        message,
        requests,
        nodes,
    })
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    let pending: Vec<usize> = snap
        .pods
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.spec.node_name.is_empty()
                && !p.is_terminal()
                && (p.status.phase.is_empty() || p.status.phase == "Pending")
        })
        .map(|(i, _)| i)
        .collect();
    if !pending.is_empty() && !snap.nodes.is_empty() {
        // One index of node usage (O(nodes + pods)), then one fit per distinct pod shape.
        let usage = NodeUsage::build(snap, &FitOptions::default());
        // memo per pod shape: the scheduler-style summary, the GPU picture and per-node evidence,
        // computed once (pending pods of one template share them), so the rule stays
        // O(nodes x distinct shapes + pods) rather than O(nodes x pending pods).
        let mut memo: HashMap<String, Option<Shape>> = HashMap::new();
        let max_nodes = ctx.thresholds().max_nodes_in_evidence;
        for i in pending {
            let p = ctx.pod(i);
            let sig = format!(
                "{:?}|{:?}|{:?}|{:?}|{:?}",
                ctx.pod_requests(i),
                p.spec.node_selector,
                p.spec.tolerations,
                p.spec.affinity,
                p.spec.scheduler_name
            );
            let shape = memo
                .entry(sig)
                .or_insert_with(|| shape_of(&usage.fit(snap, p), snap, max_nodes));
            let Some(shape) = shape else {
                continue; // it fits somewhere: waiting for the scheduler, not unschedulable
            };
            let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
            let f = Finding::new(PodUnschedulable::ID, Severity::Warning, pod_subject(p), format!("pod {} cannot be scheduled: {}", p.key(), shape.message))
                .with_evidences(shape.requests.iter().map(|(r, q)| Evidence::field(&o, format!("requests.{r}"), q.to_string())))
                .with_evidences(shape.nodes.iter().cloned())
                .with_remedy("lower the pod's requests to what one node can offer, free capacity on a node (or let preemption do it with a higher PriorityClass), add tolerations/labels the pod needs, or add nodes");
            out.push(f);
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::FailedScheduling]) {
        if !seen.insert(signal_subject(s)) {
            continue;
        }
        let reasons = parse_reasons(s.detail("reasons"));
        let total: u32 = s.detail("nodes").parse().unwrap_or(0);
        let gpu: Vec<&(u32, String)> = reasons
            .iter()
            .filter(|(_, r)| r.strip_prefix("Insufficient ").is_some_and(is_gpu_resource))
            .collect();
        let constraint: Vec<&(u32, String)> = reasons
            .iter()
            .filter(|(_, r)| r.contains("affinity") || r.contains("selector"))
            .collect();
        let preempt = s.detail("preemption");
        let cause = if !gpu.is_empty() && !constraint.is_empty() {
            format!(
                "constraints exclude each other: the nodes that have the GPU fail '{}', the others lack {}; adding GPUs will not help",
                constraint[0].1,
                gpu[0].1.trim_start_matches("Insufficient ")
            )
        } else if let Some((n, r)) = gpu.first() {
            let res = r.trim_start_matches("Insufficient ");
            if preempt.contains("No preemption victims") || *n == total {
                format!(
                    "{n} of {total} nodes lack free {res} and preemption found no victims: no node advertises allocatable {res} (device plugin not advertising), GPUs are not busy"
                )
            } else {
                format!("{n} of {total} nodes lack free {res}")
            }
        } else if reasons
            .iter()
            .any(|(_, r)| r.contains("unbound immediate PersistentVolumeClaims"))
        {
            "its PersistentVolumeClaim is unbound: fix the claim (storage class) before any scheduling analysis".to_owned()
        } else if reasons.iter().any(|(_, r)| r.contains("node unregistered")) {
            "the GPU-sharing scheduler (HAMi) has no registration for the node: its device plugin is not reporting there".to_owned()
        } else if reasons
            .iter()
            .any(|(_, r)| r.contains("volume node affinity conflict"))
        {
            "its node-local volume pins it to a node it cannot use".to_owned()
        } else {
            "no node passes the scheduler's filters".to_owned()
        };
        out.push(
            Finding::new(PodUnschedulable::ID, Severity::Warning, signal_subject(s), format!("pod is Pending ({} nodes): {cause}", if total == 0 { "?".to_owned() } else { total.to_string() }))
                .with_evidence(s.evidence())
                .with_remedy("address the named reason first (device plugin, claim, constraint), then re-check with `kubectl describe pod`"),
        );
    }
    for s in signals(ctx, &[SignalKind::KueueFlavorMissing]) {
        let near = s.detail("near");
        out.push(
            Finding::new(PodUnschedulable::ID, Severity::Warning, signal_subject(s), format!("ClusterQueue {} references ResourceFlavor {} which does not exist{}: the queue is inactive and admits nothing", s.detail("queue"), s.detail("flavor"), if near.is_empty() { String::new() } else { format!(" (did you mean {near}?)") }))
                .with_evidence(s.evidence())
                .with_remedy(format!("fix the flavor name in the ClusterQueue (`kubectl edit clusterqueue {}`){}", s.detail("queue"), if near.is_empty() { String::new() } else { format!(": {} -> {near}", s.detail("flavor")) })),
        );
    }
    for s in signals(ctx, &[SignalKind::KueueZeroQuota]) {
        out.push(
            Finding::new(PodUnschedulable::ID, Severity::Warning, signal_subject(s), format!("ClusterQueue {} covers {} with nominalQuota {} in flavor {}: a workload requesting it can never be admitted there (nominalQuota is a total over the flavor's nodes, not per node)", s.detail("queue"), s.detail("resource"), s.detail("quota"), s.detail("flavor")))
                .with_evidence(s.evidence())
                .with_remedy(format!("set nominalQuota for {} to the total the flavor's nodes provide, or drop it from coveredResources", s.detail("resource"))),
        );
    }
    for s in signals(ctx, &[SignalKind::KueueResourceUnavailable]) {
        let res = s.detail("resource");
        out.push(
            Finding::new(PodUnschedulable::ID, Severity::Warning, signal_subject(s), format!("Kueue cannot admit the workload: the ClusterQueue does not cover {res}, so any workload requesting {res} waits forever"))
                .with_evidence(s.evidence())
                .with_remedy(format!("add {res} to the ClusterQueue's resourceGroups[].coveredResources with a nominalQuota in each flavor")),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::{run_log, run_rule};

    fn snap(want: &str) -> String {
        format!(
            r#"{{"kind":"List","items":[
          {{"kind":"Node","metadata":{{"name":"g1"}},"status":{{"allocatable":{{"cpu":"8","nvidia.com/gpu":"8","pods":"110"}}}}}},
          {{"kind":"Node","metadata":{{"name":"g2"}},"status":{{"allocatable":{{"cpu":"8","nvidia.com/gpu":"8","pods":"110"}}}}}},
          {{"kind":"Pod","metadata":{{"name":"a","namespace":"x"}},"spec":{{"nodeName":"g1","containers":[{{"name":"c","resources":{{"requests":{{"nvidia.com/gpu":"4"}}}}}}]}},"status":{{"phase":"Running"}}}},
          {{"kind":"Pod","metadata":{{"name":"b","namespace":"x"}},"spec":{{"nodeName":"g2","containers":[{{"name":"c","resources":{{"requests":{{"nvidia.com/gpu":"4"}}}}}}]}},"status":{{"phase":"Running"}}}},
          {{"kind":"Pod","metadata":{{"name":"p","namespace":"x"}},"spec":{{"containers":[{{"name":"c","resources":{{"requests":{{"nvidia.com/gpu":"{want}"}}}}}}]}},"status":{{"phase":"Pending"}}}}]}}"#
        )
    }

    #[test]
    fn fragmented_gpus() {
        let f = run_rule("pod-unschedulable", &snap("6"));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("0/2 nodes are available: 2 Insufficient nvidia.com/gpu.")
        );
        assert!(f[0].message.contains("fragmented"), "{}", f[0].message);
        assert!(run_rule("pod-unschedulable", &snap("4")).is_empty());
    }

    #[test]
    fn affinity_versus_gpu_text() {
        let f = run_log(
            "pod-unschedulable",
            "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
        );
        assert!(f[0].message.contains("constraints exclude each other"));
    }
}
