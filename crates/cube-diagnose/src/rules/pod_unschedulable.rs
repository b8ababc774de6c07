//! `pod-unschedulable`: a pending pod cannot fit; explained per node with scheduler-style reasons
//! and the GPU fragmentation picture.

use std::collections::{BTreeMap, HashMap};

use cube_model::{Quantity, ResourceList};

use crate::classify::{SignalKind, events::parse_reasons};
use crate::resources::{add_into, is_gpu_resource};
use crate::rules::{node_matches, obj, pod_subject, signal_subject, signals, untolerated};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    PodUnschedulable,
    "pod-unschedulable",
    Scheduling,
    Warning,
    "A pod without a node cannot fit on any node, computed like the scheduler's filters (unschedulable, untolerated taints, node selector/affinity, Too many pods, Insufficient <resource> against allocatable minus the requests of pods already bound), reported as '0/N nodes are available: ...' with counts sorted as strings, plus the per-node free GPUs showing fragmentation. Scheduler texts (FailedScheduling) and Kueue admission texts are explained too: GPUs not advertised, constraints that exclude each other, resources a ClusterQueue does not cover.",
    check
);

fn sub(a: &Quantity, b: &Quantity) -> Quantity {
    a.checked_sub(b).unwrap_or(Quantity::ZERO)
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
        // requested per node, once
        let mut used: HashMap<&str, (ResourceList, usize)> = HashMap::new();
        for n in &snap.nodes {
            let mut sum = ResourceList::new();
            let mut count = 0;
            for &i in ctx.pods_on_node(&n.metadata.name) {
                if !ctx.pod(i).is_terminal() {
                    add_into(&mut sum, ctx.pod_requests(i));
                    count += 1;
                }
            }
            used.insert(n.metadata.name.as_str(), (sum, count));
        }
        let mut memo: HashMap<String, (Vec<(String, Vec<String>)>, usize)> = HashMap::new();
        for i in pending {
            let p = ctx.pod(i);
            let req = ctx.pod_requests(i);
            let sig = format!(
                "{:?}|{:?}|{:?}|{:?}|{:?}",
                req,
                p.spec.node_selector,
                p.spec.tolerations,
                p.spec.affinity.as_ref().map(|a| format!("{a:?}")),
                p.spec.scheduler_name
            );
            let (per_node, fits) = memo
                .entry(sig)
                .or_insert_with(|| {
                    let mut per_node = Vec::new();
                    let mut fits = 0;
                    for n in &snap.nodes {
                        let mut reasons = Vec::new();
                        if n.spec.unschedulable {
                            reasons.push("node(s) were unschedulable".to_owned());
                        }
                        if !untolerated(n, &p.spec.tolerations).is_empty() {
                            reasons.push("node(s) had untolerated taint(s)".to_owned());
                        }
                        if let Err(r) = node_matches(n, &p.spec) {
                            reasons.push(r.to_owned());
                        }
                        let (u, count) = used
                            .get(n.metadata.name.as_str())
                            .cloned()
                            .unwrap_or_default();
                        if let Some(maxp) = n.status.allocatable.get("pods") {
                            if i64::try_from(count + 1).unwrap_or(i64::MAX) > maxp.value() {
                                reasons.push("Too many pods".to_owned());
                            }
                        }
                        for (res, want) in req {
                            if want.is_zero() || res.as_str() == "pods" {
                                continue;
                            }
                            let alloc = n
                                .status
                                .allocatable
                                .get(res.as_str())
                                .cloned()
                                .unwrap_or(Quantity::ZERO);
                            let free = sub(&alloc, u.get(res.as_str()).unwrap_or(&Quantity::ZERO));
                            if want > &free {
                                reasons.push(format!("Insufficient {res}"));
                            }
                        }
                        if reasons.is_empty() {
                            fits += 1;
                        }
                        per_node.push((n.metadata.name.clone(), reasons));
                    }
                    (per_node, fits)
                })
                .clone();
            if fits > 0 {
                continue; // it fits somewhere: waiting for the scheduler, not unschedulable
            }
            let mut hist: BTreeMap<&str, usize> = BTreeMap::new();
            for (_, rs) in &per_node {
                for r in rs {
                    *hist.entry(r.as_str()).or_default() += 1;
                }
            }
            let mut parts: Vec<String> = hist.iter().map(|(r, c)| format!("{c} {r}")).collect();
            parts.sort();
            let summary = format!(
                "0/{} nodes are available: {}.",
                snap.nodes.len(),
                parts.join(", ")
            );
            let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
            let mut f = Finding::new(
                PodUnschedulable::ID,
                Severity::Warning,
                pod_subject(p),
                format!("pod {} cannot be scheduled: {summary}", p.key()),
            );
            for (res, want) in req.iter().filter(|(r, _)| is_gpu_resource(r.as_str())) {
                let mut total_free = Quantity::ZERO;
                let mut picture = Vec::new();
                for n in &snap.nodes {
                    match n.status.allocatable.get(res.as_str()) {
                        None => picture.push(format!("{}: not advertised", n.metadata.name)),
                        Some(a) => {
                            let u = used
                                .get(n.metadata.name.as_str())
                                .and_then(|(u, _)| u.get(res.as_str()).cloned())
                                .unwrap_or(Quantity::ZERO);
                            let free = if u > *a { Quantity::ZERO } else { sub(a, &u) };
                            total_free =
                                total_free.checked_add(&free).unwrap_or(total_free.clone());
                            picture.push(format!(
                                "{}: {free} free of {a}{}",
                                n.metadata.name,
                                if u > *a {
                                    format!(" ({u} requested: over-committed)")
                                } else {
                                    String::new()
                                }
                            ));
                        }
                    }
                }
                let frag = if &total_free >= want {
                    format!(
                        "fragmented: {total_free} {res} free in total but no single node has {want}"
                    )
                } else {
                    format!("only {total_free} {res} free in total, {want} requested")
                };
                f.message
                    .push_str(&format!(" GPU picture: {frag} ({})", picture.join("; ")));
                f = f.with_evidence(Evidence::field(
                    &o,
                    format!("requests.{res}"),
                    want.to_string(),
                ));
            }
            for (node, rs) in per_node.iter().take(ctx.thresholds().max_nodes_in_evidence) {
                f = f.with_evidence(Evidence::field(obj("Node", "", node), "fit", rs.join(", ")));
            }
            out.push(f.with_remedy("lower the pod's requests to what one node can offer, free capacity on a node (or let preemption do it with a higher PriorityClass), add tolerations/labels the pod needs, or add nodes"));
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
        assert!(f[0].message.contains("fragmented"));
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
