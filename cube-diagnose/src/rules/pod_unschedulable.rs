//! `pod-unschedulable`: a pending pod cannot fit; explained per node with scheduler-style reasons
//! and the GPU fragmentation picture.

use std::collections::HashMap;

use cube_quota::fit::{FitOptions, FitReport, NodeUsage};

use crate::classify::SignalKind;
use crate::rules::{obj, pod_subject, shell_word, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

mod accounting;
mod autoscaler;
mod blocking;
mod extender;
mod sched_text;
mod volcano;
use sched_text::scheduler_texts;
/// Whether a FailedScheduling signal is older than its pod's current binding (for other rules
/// reading scheduler texts): `Some(reason)` when it is not current.
#[allow(unused_imports)]
pub(crate) use sched_text::stale as failed_scheduling_is_stale;

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
    /// The remedy of the one cause, when the GPU picture names it.
    remedy: Option<String>,
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
    let mut remedy = None;
    for g in &report.gpu {
        if g.nodes.iter().all(|n| n.allocatable == 0) {
            // never advertised: no node has it in allocatable (and no pod holds it)
            let names: Vec<&str> = snap
                .nodes
                .iter()
                .map(|n| n.metadata.name.as_str())
                .take(max_nodes)
                .collect();
            message.push_str(&format!(
                " No node advertises allocatable {res}: it was never advertised (the device plugin is not running or not registering on the GPU nodes), not in use (not advertised on {}{})",
                names.join(", "),
                if snap.nodes.len() > max_nodes { ", ..." } else { "" },
                res = g.resource
            ));
            remedy = Some(format!(
                "make the nodes advertise {res}: check the device plugin pods and their logs on the GPU nodes (`kubectl get pods -A -o wide | grep -i -e device-plugin -e gpu-operator`); `kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.{esc}` must show a number",
                res = g.resource,
                esc = g.resource.as_str().replace('.', "\\.")
            ));
            requests.push((g.resource.to_string(), g.requested));
            continue;
        }
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
        match silent.len() {
            0 => {}
            k if k <= max_nodes => picture.push(format!("not advertised on {}", silent.join(", "))),
            k => picture.push(format!("not advertised on {k} nodes")),
        }
        // GPU nodes with room for the pod that an earlier filter than NodeResourcesFit rules out:
        // the scheduler's filter order (kubernetes/kubernetes
        // pkg/scheduler/apis/config/v1/default_plugins.go: NodeUnschedulable, NodeName,
        // TaintToleration, NodeAffinity, ..., NodeResourcesFit) decides which reason a node
        // gets, so "all in use" is true only when no GPU node has the room (fresh-user report
        // F29: a GPU taint the pod does not tolerate is the cause, not a shortage).
        let roomy: Vec<&cube_quota::fit::NodeFit> =
            if g.total_free >= g.requested && g.largest_free >= g.requested {
                Vec::new()
            } else {
                let mut r: Vec<(&cube_quota::fit::GpuNodeFree, &cube_quota::fit::NodeFit)> = g
                    .nodes
                    .iter()
                    .filter(|n| !n.eligible && n.free >= g.requested)
                    .filter_map(|n| {
                        report
                            .nodes
                            .iter()
                            .find(|f| f.node == n.node)
                            .map(|f| (n, f))
                    })
                    // a node-lifecycle taint (node.kubernetes.io/not-ready, unreachable, ...) is
                    // the node's state, not the pod's fault: the Blocking note says so
                    .filter(|(_, f)| {
                        !f.untolerated_taints
                            .first()
                            .is_some_and(|t| t.key.starts_with("node.kubernetes.io/"))
                    })
                    .collect();
                r.sort_by_key(|(n, _)| std::cmp::Reverse(n.free));
                r.into_iter().map(|(_, f)| f).collect()
            };
        let frag = if !roomy.is_empty() {
            let why: Vec<String> = roomy
                .iter()
                .take(max_nodes)
                .map(|f| {
                    let free = g
                        .nodes
                        .iter()
                        .find(|n| n.node == f.node)
                        .map_or(0, |n| n.free);
                    format!("{} ({free} free): {}", f.node, first_filter_reason(f))
                })
                .collect();
            remedy = Some(filter_remedy(&roomy, &g.resource.to_string()));
            format!(
                "not a shortage: {} GPU node(s) have the {} {} requested free, but a scheduler filter that runs before NodeResourcesFit excludes them ({}); {} free on the nodes the pod may use",
                roomy.len(),
                g.requested,
                g.resource,
                why.join("; "),
                g.total_free
            )
        } else if g.fragmented {
            format!(
                "fragmented: {} {} free in total on eligible nodes but at most {} on one node, {} requested",
                g.total_free, g.resource, g.largest_free, g.requested
            )
        } else if g.total_free == 0 && g.nodes.iter().all(|n| n.free == 0) {
            format!(
                "all in use: 0 {} free on any node, {} requested",
                g.resource, g.requested
            )
        } else if g.total_free == 0 {
            format!(
                "0 {} free on the nodes the pod may use, {} requested (the free ones are excluded by another filter and too small anyway)",
                g.resource, g.requested
            )
        } else {
            format!(
                "{} {} free in total on eligible nodes, largest block {}, {} requested",
                g.total_free, g.resource, g.largest_free, g.requested
            )
        };
        // devices the plugin reports unhealthy: capacity shows more than can be scheduled
        let unhealthy: Vec<String> = snap
            .nodes
            .iter()
            .flat_map(|n| {
                crate::gpu::partial_devices(n)
                    .into_iter()
                    .filter(|(k, _, _)| k.as_str() == g.resource.as_str())
                    .map(move |(_, c, a)| {
                        format!(
                            "{}: capacity {c}, allocatable {a}, {} device(s) reported unhealthy by the device plugin",
                            n.metadata.name,
                            c.value() - a.value()
                        )
                    })
            })
            .take(max_nodes)
            .collect();
        if !unhealthy.is_empty() {
            picture.push(format!(
                "capacity above allocatable on {} (see gpu-not-advertised)",
                unhealthy.join("; ")
            ));
        }
        message.push_str(&format!(" GPU picture: {frag} ({})", picture.join("; ")));
        requests.push((g.resource.to_string(), g.requested));
    }
    let nodes = report
        .nodes
        .iter()
        .take(max_nodes)
        .map(|n| Evidence::field(obj("Node", "", &n.node), "fit", n.all_reasons.join(", ")))
        .collect();
    // reasons that block the pod besides a shortage (pod count, condition taints, spread):
    // their own causes and remedies
    let summary = report.filter_message().unwrap_or_default();
    // v1.34 wording names each node's first untolerated taint (the condition taints)
    let named = cube_quota::schedmsg::SchedulerVersion::new(34)
        .and_then(|v| cube_quota::schedmsg::from_fit(report, None, v));
    if let Some((cause, fix)) = named.as_ref().and_then(sched_text::blocking_note) {
        message.push_str(&format!(" Blocking: {cause}."));
        let short = summary
            .match_indices("Insufficient ")
            .any(|(at, _)| !summary[at..].starts_with("Insufficient pods"));
        remedy = Some(match remedy {
            Some(r) => format!("{r}; {fix}"),
            None if short => format!(
                "{fix}; where resources are short: lower the pod's requests to what one node can offer, free capacity or add nodes"
            ),
            None => fix,
        });
    }
    Some(Shape {
        message,
        requests,
        nodes,
        remedy,
    })
}

/// The first failing filter of a node, worded as the scheduler reports it: `TaintToleration`
/// names the first untolerated taint (kubernetes/kubernetes
/// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go, v1.26+:
/// `node(s) had untolerated taint {key: value}`), the others give their reasons.
fn first_filter_reason(f: &cube_quota::fit::NodeFit) -> String {
    use cube_quota::fit::FilterPlugin;
    match (f.plugin, f.untolerated_taints.first()) {
        (Some(FilterPlugin::TaintToleration), Some(t)) => format!(
            "TaintToleration: node(s) had untolerated taint {{{}: {}}} (effect {})",
            t.key, t.value, t.effect
        ),
        (Some(p), _) => format!("{p:?}: {}", f.reasons.join(", ")),
        (None, _) => "fits".to_owned(),
    }
}

/// The remedy for GPU nodes that have room but fail an earlier filter: a toleration for an
/// untolerated taint (or the ExtendedResourceToleration admission plugin, which adds it for
/// extended resources: kubernetes/kubernetes plugin/pkg/admission/extendedresourcetoleration),
/// a matching nodeSelector / affinity, or uncordoning.
fn filter_remedy(nodes: &[&cube_quota::fit::NodeFit], resource: &str) -> String {
    use cube_quota::fit::FilterPlugin;
    let first = nodes[0];
    let names: Vec<&str> = nodes.iter().map(|f| f.node.as_str()).take(5).collect();
    let mut fix = match (first.plugin, first.untolerated_taints.first()) {
        (Some(FilterPlugin::TaintToleration), Some(t)) => {
            let value = if t.value.is_empty() {
                "operator: Exists".to_owned()
            } else {
                format!("operator: Equal, value: {}", t.value)
            };
            format!(
                "add a toleration to the pod for the taint of {}: `tolerations: [{{key: {}, {value}, effect: {}}}]`{}",
                names.join(", "),
                t.key,
                t.effect,
                if t.key == resource {
                    " (or enable the ExtendedResourceToleration admission plugin, which adds it to pods requesting that resource)"
                } else {
                    ""
                }
            )
        }
        (Some(FilterPlugin::NodeAffinity), _) => format!(
            "the pod's nodeSelector / required node affinity does not match {}: compare `kubectl get pod -o jsonpath='{{.spec.nodeSelector}} {{.spec.affinity}}'` with `kubectl get node {} --show-labels` and fix the pod (or label the node)",
            names.join(", "),
            first.node
        ),
        (Some(FilterPlugin::NodeUnschedulable), _) => format!(
            "{} is cordoned (spec.unschedulable): `kubectl uncordon {}` once its maintenance is over",
            names.join(", "),
            first.node
        ),
        _ => format!(
            "see why {} is excluded: {}",
            first.node,
            first.all_reasons.join(", ")
        ),
    };
    let later: Vec<&str> = first
        .all_reasons
        .iter()
        .filter(|r| r.starts_with("Insufficient ") || r.starts_with("Too many pods"))
        .map(String::as_str)
        .collect();
    if !later.is_empty() {
        fix.push_str(&format!(
            "; {} would then still fail NodeResourcesFit ({})",
            first.node,
            later.join(", ")
        ));
    }
    fix
}

/// Resources every kubelet reports in a Node's capacity and allocatable
/// (`pkg/kubelet/nodestatus/setters.go` `MachineInfo`: cpu, memory, pods, ephemeral-storage).
const CORE_RESOURCES: [&str; 4] = ["cpu", "memory", "pods", "ephemeral-storage"];

/// A value that limits nothing, for a resource the input does not show.
const NOT_LIMITING: i64 = 1_000_000_000_000;

/// The snapshot with the core resources a node's resource list lacks set to a value that
/// limits nothing, when some node shows some resources but not all of them: a
/// `custom-columns` table with one GPU column, a describe excerpt without `pods:`. A real
/// Node always reports them, so their absence means "not shown": read as 0 it would invent
/// `Too many pods` or `Insufficient cpu` (with a maxPods remedy) that the input says nothing
/// about. A node read from a table or excerpt ([`cube_model::describe::PARTIAL_ANNOTATION`])
/// counts even when it shows no resource at all (a `custom-columns` cell `<none>`). `None`
/// when every node is complete (a Node object that shows no resource at all is left as the
/// input shows it).
fn with_unknown_core_resources(
    snap: &cube_model::ClusterSnapshot,
) -> Option<cube_model::ClusterSnapshot> {
    let lacks = |n: &cube_model::objects::Node| {
        let list = if n.status.allocatable.is_empty() {
            &n.status.capacity
        } else {
            &n.status.allocatable
        };
        let partial = n
            .metadata
            .annotations
            .contains_key(cube_model::describe::PARTIAL_ANNOTATION);
        (partial || !list.is_empty()) && CORE_RESOURCES.iter().any(|r| list.get(r).is_none())
    };
    if !snap.nodes.iter().any(lacks) {
        return None;
    }
    let mut out = snap.clone();
    for n in out.nodes.iter_mut().filter(|n| lacks(n)) {
        let list = if n.status.allocatable.is_empty() {
            &mut n.status.capacity
        } else {
            &mut n.status.allocatable
        };
        for r in CORE_RESOURCES {
            if list.get(r).is_none() {
                list.insert(
                    cube_model::ResourceName::from(r),
                    cube_model::Quantity::from_value(NOT_LIMITING, cube_model::Format::DecimalSI),
                );
            }
        }
    }
    Some(out)
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    // pods explained from the snapshot's own nodes (a scheduler text about them only adds
    // evidence)
    let mut computed: std::collections::BTreeSet<Subject> = std::collections::BTreeSet::new();
    let pending: Vec<usize> = snap
        .pods
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.spec.node_name.is_empty()
                && !ctx.pod_finished(p)
                && (p.status.phase.is_empty() || p.status.phase == "Pending")
                // a `kubectl get pods` row: requests and tolerations are not shown
                && !cube_model::describe::is_unknown(&p.metadata, "requests")
        })
        .map(|(i, _)| i)
        .collect();
    if !pending.is_empty() && !snap.nodes.is_empty() {
        // nodes whose resource list the input shows only in part: what it does not show is
        // unknown, not zero
        let completed = with_unknown_core_resources(snap);
        let snap = completed.as_ref().unwrap_or(snap);
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
            computed.insert(pod_subject(p));
            let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
            let f = Finding::new(PodUnschedulable::ID, Severity::Warning, pod_subject(p), format!("pod {} cannot be scheduled: {}", p.key(), shape.message))
                .with_evidences(shape.requests.iter().map(|(r, q)| Evidence::field(&o, format!("requests.{r}"), q.to_string())))
                .with_evidences(shape.nodes.iter().cloned())
                .with_remedy(shape.remedy.clone().unwrap_or_else(|| "lower the pod's requests to what one node can offer, free capacity on a node (or let preemption do it with a higher PriorityClass), add tolerations/labels the pod needs, or add nodes".to_owned()));
            out.push(f);
        }
    }
    let (texts, extra) = scheduler_texts(ctx, &computed);
    for (subject, evidence) in extra {
        if let Some(f) = out.iter_mut().find(|f| f.subject == subject)
            && !f.evidence.contains(&evidence)
        {
            f.evidence.push(evidence);
        }
    }
    out.extend(texts);
    // why no node is added for the pod (cluster-autoscaler, Karpenter): with the finding about
    // the same pod, else a finding of its own
    for r in autoscaler::readings(ctx) {
        match out.iter_mut().find(|f| f.subject == r.subject) {
            Some(f) => {
                f.message.push_str(&format!("; {}", r.cause));
                f.remedy = format!("{}; {}", r.remedy, f.remedy);
                if !f.evidence.contains(&r.evidence) {
                    f.evidence.push(r.evidence);
                }
            }
            None => out.push(
                Finding::new(
                    PodUnschedulable::ID,
                    Severity::Warning,
                    r.subject,
                    format!("pod is Pending: {}", r.cause),
                )
                .with_evidence(r.evidence)
                .with_remedy(r.remedy),
            ),
        }
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
        if s.detail("quota") == "missing" {
            out.push(
                Finding::new(PodUnschedulable::ID, Severity::Error, signal_subject(s), format!("ClusterQueue {} covers {} but its flavor {} gives it no nominalQuota entry: Kueue's API refuses the ClusterQueue (`flavors must have the same number of resources as the coveredResources`), so it is not created or not updated, and no workload asking for {} is admitted through it", s.detail("queue"), s.detail("resource"), s.detail("flavor"), s.detail("resource")))
                    .with_evidence(s.evidence())
                    .with_remedy(format!("add `- name: {}` with a nominalQuota (the total the flavor's nodes provide) to flavor {} of ClusterQueue {}, or drop it from coveredResources; then `kubectl apply` it again", s.detail("resource"), s.detail("flavor"), s.detail("queue"))),
            );
            continue;
        }
        out.push(
            Finding::new(PodUnschedulable::ID, Severity::Warning, signal_subject(s), format!("ClusterQueue {} covers {} with nominalQuota {} in flavor {}: a workload requesting it can never be admitted there (nominalQuota is a total over the flavor's nodes, not per node)", s.detail("queue"), s.detail("resource"), s.detail("quota"), s.detail("flavor")))
                .with_evidence(s.evidence())
                .with_remedy(format!("set nominalQuota for {} to the total the flavor's nodes provide, or drop it from coveredResources", s.detail("resource"))),
        );
    }
    // queueing/batch schedulers holding the workload (Kueue quota, YuniKorn queue headroom,
    // Volcano gang): the catalog entry says why; a line the scheduler grammar already
    // explained (a gang message carrying its FitErrors) is not reported twice
    // (the newest line per subject and message: events and logs are in time order)
    let mut latest = std::collections::BTreeMap::new();
    for s in signals(ctx, &[SignalKind::QueueAdmission]) {
        let explained = ctx.signals().iter().any(|x| {
            x.kind == SignalKind::FailedScheduling && x.source == s.source && x.line == s.line
        });
        let Some(e) = crate::catalog::entry(s.detail("entry")) else {
            continue;
        };
        // HAMi's summary event when its per-code events are in the input (they explain it)
        let summarised = e.id.starts_with("hami.no-available-node")
            && signals(ctx, &[SignalKind::HamiFilterFailed]).any(|x| x.source == s.source);
        if !explained && !summarised {
            latest.insert((signal_subject(s), e.id), (s, e));
        }
    }
    for (s, e) in latest.into_values() {
        // Volcano's queue refusal, read with the queue and PodGroup of the input
        if e.id == "volcano.queue-quota-insufficient"
            && let Some((cause, remedy, severity, subject)) = volcano::explain_queue(ctx, s)
        {
            out.push(
                Finding::new(
                    PodUnschedulable::ID,
                    severity,
                    subject.unwrap_or_else(|| signal_subject(s)),
                    cause,
                )
                .with_evidence(s.evidence())
                .with_evidences(
                    ctx.signals()
                        .iter()
                        .filter(|q| q.kind == SignalKind::VolcanoQueue)
                        .take(3)
                        .map(crate::classify::Signal::evidence),
                )
                .with_remedy(remedy),
            );
            continue;
        }
        // a Volcano FitError is read with its own grammar (volcano.rs)
        let (cause, remedy) = volcano::FIT_ERROR_ENTRIES
            .contains(&e.id)
            .then(|| volcano::explain(ctx, s))
            .flatten()
            .unwrap_or_else(|| e.cause_and_remedy(s));
        out.push(
            Finding::new(PodUnschedulable::ID, e.severity, signal_subject(s), cause)
                .with_evidence(s.evidence())
                .with_remedy(remedy),
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
    // the kubelet's own re-check of a bound pod (`Predicate MatchNodeSelector failed`)
    out.extend(crate::rules::log_catalog::catalog_findings_of(
        ctx,
        PodUnschedulable::ID,
        |e| matches!(e.group, "kubelet-admit" | "scheduler-volume"),
    ));
    out.extend(crate::rules::kubelet_admission::refused_pods(
        ctx,
        PodUnschedulable::ID,
    ));
    // a local distribution (minikube, kind, MicroK8s, k3d) decides how a GPU reaches the node
    crate::rules::distro::annotate(ctx, &mut out);
    for f in &mut out {
        f.remedy = name_pod(&f.remedy, &f.subject);
    }
    out
}

/// The remedy of a finding about one pod, with that pod named in its commands (remedies are
/// pasted as printed): `kubectl describe pod` becomes `kubectl describe pod -n <ns> <name>`,
/// `kubectl describe pvc` is limited to the pod's namespace, and a remedy that names no
/// command for the pod ends with the one that re-checks it.
fn name_pod(remedy: &str, subject: &Subject) -> String {
    if subject.kind != "Pod" || subject.name.is_empty() {
        return remedy.to_owned();
    }
    let ns = if subject.namespace.is_empty() {
        String::new()
    } else {
        format!("-n {} ", shell_word(&subject.namespace))
    };
    let describe = format!("kubectl describe pod {ns}{}", shell_word(&subject.name));
    let mut out = remedy.replace("`kubectl describe pod`", &format!("`{describe}`"));
    let pvc = format!("kubectl describe pvc {ns}");
    out = out.replace("`kubectl describe pvc`", &format!("`{}`", pvc.trim_end()));
    if !out.contains(&describe) {
        out.push_str(&format!("; re-check the pod with `{describe}`"));
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::{run_log, run_rule};

    #[test]
    fn v1_0_pod_describe_then_node_excerpt() {
        // kubernetes/kubernetes#11453 (v1.0): tab-separated describe of a pod, its
        // `failedScheduling` event, then the node's Conditions and Capacity without `Name:`
        let text = "Name:\t\t\t\tmysql\nNamespace:\t\t\tdefault\nImage(s):\t\t\tmysql\nNode:\t\t\t\t/\nStatus:\t\t\t\tPending\nReplication Controllers:\t<none>\nContainers:\n  mysql:\n    Image:\tmysql\n    Limits:\n      cpu:\t\t500m\nEvents:\n  FirstSeen\t\t\t\tLastSeen\t\t\tCount\tFrom\t\tSubobjectPath\tReason\t\t\tMessage\n  Fri, 17 Jul 2015 10:30:55 -0700\tFri, 17 Jul 2015 10:31:10 -0700\t5\t{scheduler }\t\t\tfailedScheduling\t\t\tFailed for reason PodFitsResources and possibly others\n\nConditions:\n  Type\t\tStatus\tLastHeartbeatTime\t\t\tLastTransitionTime\t\t\tReason\t\t\t\t\tMessage\n  Ready \tTrue \tFri, 17 Jul 2015 10:33:23 -0700 \tWed, 15 Jul 2015 14:50:36 -0700 \tkubelet is posting ready status \t\nAddresses:\t10.0.0.7\nCapacity:\n pods:\t\t40\n cpu:\t\t1\n memory:\t3800808Ki\n";
        let mut i = crate::Inputs::new();
        i.add("test", text);
        assert_eq!(i.snapshot.pods.len(), 1, "{:#?}", i.snapshot.pods);
        assert_eq!(i.snapshot.pods[0].metadata.name, "mysql");
        assert_eq!(i.snapshot.nodes.len(), 1);
        assert_ne!(i.snapshot.nodes[0].metadata.name, "mysql");
        let f = run_rule("pod-unschedulable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.name, "mysql");
        assert!(
            f[0].message.contains("PodFitsResources"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("cpu 500m"), "{}", f[0].message);
        // the node is Ready: nothing about it
        assert!(run_rule("node-not-ready", text).is_empty());
    }

    /// Fresh-user report F29: a GPU node with room that the pod's tolerations exclude is named
    /// with the scheduler's first failing filter and a toleration remedy; "all in use" only
    /// when no GPU node has room.
    #[test]
    fn gpu_taint_before_resources_and_all_in_use_only_when_full() {
        let node = |name: &str, taint: &str| {
            format!(
                r#"{{"kind":"Node","metadata":{{"name":"{name}"}},"spec":{{"taints":[{taint}]}},"status":{{"allocatable":{{"cpu":"8","memory":"32Gi","nvidia.com/gpu":"8","pods":"110"}},"conditions":[{{"type":"Ready","status":"True"}}]}}}}"#
            )
        };
        let holder = |n: &str, gpus: u32| {
            format!(
                r#"{{"kind":"Pod","metadata":{{"name":"h-{n}","namespace":"x"}},"spec":{{"nodeName":"{n}","containers":[{{"name":"c","resources":{{"limits":{{"nvidia.com/gpu":"{gpus}"}}}}}}]}},"status":{{"phase":"Running"}}}}"#
            )
        };
        let pending = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"x"},"spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"1"}}}]},"status":{"phase":"Pending"}}"#;
        let taint = r#"{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"}"#;
        let doc =
            |items: Vec<String>| format!(r#"{{"kind":"List","items":[{}]}}"#, items.join(","));
        // g1 untainted and full, g2 tainted with 4 free
        let f = run_rule(
            "pod-unschedulable",
            &doc(vec![
                node("g1", ""),
                node("g2", taint),
                holder("g1", 8),
                holder("g2", 4),
                pending.to_owned(),
            ]),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("not a shortage")
                && f[0]
                    .message
                    .contains("untolerated taint {nvidia.com/gpu: present}")
                && !f[0].message.contains("all in use"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("key: nvidia.com/gpu")
                && f[0].remedy.contains("ExtendedResourceToleration"),
            "{}",
            f[0].remedy
        );
        // both full: all in use, no toleration remedy
        let f = run_rule(
            "pod-unschedulable",
            &doc(vec![
                node("g1", ""),
                node("g2", taint),
                holder("g1", 8),
                holder("g2", 8),
                pending.to_owned(),
            ]),
        );
        assert!(f[0].message.contains("all in use"), "{}", f[0].message);
        assert!(
            !f[0].remedy.contains("key: nvidia.com/gpu"),
            "{}",
            f[0].remedy
        );
    }

    /// Kueue's queue blockers (kubernetes-sigs/kueue workload_controller.go getQueueBlocker,
    /// scheduler.go) each name what to create or fix.
    #[test]
    fn kueue_queue_blockers() {
        for (line, want) in [
            (
                "Warning  Pending  5s  kueue-admission  LocalQueue user-queue doesn't exist",
                "kueue.x-k8s.io/queue-name",
            ),
            (
                "Warning  Pending  5s  kueue-admission  LocalQueue user-queue is stopped",
                "stopPolicy",
            ),
            (
                "Warning  Pending  5s  kueue-admission  ClusterQueue cq doesn't exist",
                "clusterqueues",
            ),
            (
                "Warning  Pending  5s  kueue-admission  ClusterQueue cq is inactive",
                "FlavorNotFound",
            ),
            (
                "Warning  Pending  5s  kueue-admission  ClusterQueue cq not found",
                "clusterqueues",
            ),
            (
                "Warning  Pending  5s  kueue-admission  workload namespace doesn't match ClusterQueue selector",
                "namespaceSelector",
            ),
        ] {
            let f = run_log("pod-unschedulable", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert!(f[0].remedy.contains(want), "{line}: {}", f[0].remedy);
        }
    }

    /// DRA PreFilter texts name the ResourceClaim and its state (kubernetes#137617, v1.36
    /// wording with `no new claims to deallocate`).
    #[test]
    fn dra_claim_messages_are_explained() {
        let f = run_log(
            "pod-unschedulable",
            "Warning  FailedScheduling  2m21s (x2292168 over 7m21s)  default-scheduler  0/2 nodes are available: resource claim default/single-gpu is in the process of being allocated. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("ResourceClaim default/single-gpu"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("resourceClaimTemplateName"),
            "{}",
            f[0].remedy
        );
        for (msg, want) in [
            (
                "0/3 nodes are available: resourceclaim must be reallocated.",
                "deallocate",
            ),
            (
                "0/3 nodes are available: resource class gpu.example.com does not exist.",
                "deviceclasses",
            ),
            (
                "0/3 nodes are available: unallocated immediate resourceclaim.",
                "driver",
            ),
            (
                "0/1 nodes are available: 1 cannot allocate all claims. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
                "resourceslices",
            ),
        ] {
            let f = run_log("pod-unschedulable", msg);
            assert_eq!(f.len(), 1, "{msg}: {f:#?}");
            assert!(
                f[0].message.contains(want) || f[0].remedy.contains(want),
                "{msg}: {} / {}",
                f[0].message,
                f[0].remedy
            );
        }
    }

    /// Node autoscalers say why no node is added: Karpenter's NodePool limits next to the
    /// scheduler's text, the cluster-autoscaler's klog event line alone.
    #[test]
    fn autoscaler_texts_name_the_limit() {
        let f = run_log(
            "pod-unschedulable",
            "Events:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  23m   default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n  Warning  FailedScheduling  3m    karpenter          Failed to schedule pod, all available instance types exceed limits for nodepool (NodePool=gpu)\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("NodePool gpu is at its spec.limits"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.starts_with("raise spec.limits of NodePool gpu"),
            "{}",
            f[0].remedy
        );
        // an autoscaler at its limit counted the GPU nodes: not a device-plugin hedge
        // (aws/karpenter-provider-aws#8068); without node data the scheduler text alone is
        // pod-unschedulable's finding only (one cause, one finding: G17/G18)
        assert!(run_log(
            "gpu-not-advertised",
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\nFailed to schedule pod, all available instance types exceed limits for nodepool (NodePool=gpu)"
        )
        .is_empty());
        assert!(
            run_log(
                "gpu-not-advertised",
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
            )
            .is_empty()
        );
        assert_eq!(
            run_log(
                "pod-unschedulable",
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
            )
            .len(),
            1
        );
        let f = run_log(
            "pod-unschedulable",
            "I1101 17:52:13.116470       1 event.go:209] Event(v1.ObjectReference{Kind:\"Pod\", Namespace:\"default\", Name:\"gpu3-5vrjp\", UID:\"\", APIVersion:\"v1\", ResourceVersion:\"1\", FieldPath:\"\"}): type: 'Normal' reason: 'NotTriggerScaleUp' pod didn't trigger scale-up (it wouldn't fit if a new node is added): 6 Insufficient nvidia.com/gpu",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].subject,
            crate::Subject::namespaced("Pod", "default", "gpu3-5vrjp")
        );
        assert!(
            f[0].remedy
                .contains("node-template/resources/nvidia.com/gpu"),
            "{}",
            f[0].remedy
        );
    }

    /// Cordoned nodes next to a shortage are named, and the preemption part is read.
    #[test]
    fn cordoned_nodes_and_preemption_are_read_with_a_shortage() {
        let f = run_log(
            "pod-unschedulable",
            "0/36 nodes are available: 3 node(s) were unschedulable, 33 Insufficient nvidia.com/gpu. preemption: 0/36 nodes are available: 1 Insufficient nvidia.com/gpu, 3 Preemption is not helpful for scheduling, 32 No preemption victims found for incoming pod..",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("3 of 36 node(s) are cordoned"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message
                .contains("on 32 node(s) no pod of lower priority runs"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("kubectl uncordon"), "{}", f[0].remedy);
    }

    /// A `custom-columns` table shows one GPU column: the pods, cpu and memory it does not show
    /// are unknown, never an invented `Too many pods` (NVIDIA/k8s-device-plugin#165).
    #[test]
    fn resources_a_table_does_not_show_are_not_limits() {
        let f = run_rule(
            "pod-unschedulable",
            "root@m:/yaml# cat pod.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu-pod\nspec:\n  containers:\n    - name: c\n      image: cuda\n      resources:\n        requests:\n          cpu: 1\n        limits:\n          nvidia.com/gpu: 2\nroot@m:/yaml# kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu\nNAME         GPU\nk8s-master   <none>\nnode-01      1\nnode-02      1\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(!f[0].message.contains("Too many pods"), "{}", f[0].message);
        assert!(
            !f[0].message.contains("Insufficient cpu"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message.contains("3 Insufficient nvidia.com/gpu"),
            "{}",
            f[0].message
        );
        assert!(!f[0].remedy.contains("maxPods"), "{}", f[0].remedy);
    }

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
    fn remedies_name_the_pod() {
        let f = run_rule("pod-unschedulable", &snap("6"));
        assert!(
            f[0].remedy.contains("`kubectl describe pod -n x p`"),
            "{}",
            f[0].remedy
        );
        assert!(
            f[0].remedy_commands
                .iter()
                .any(|c| c == "kubectl describe pod -n x p")
                || f[0].remedy_commands.is_empty(),
            "{:?}",
            f[0].remedy_commands
        );
        let s = crate::Subject::namespaced("Pod", "team a", "it's");
        let r = super::name_pod(
            "read the reasons in `kubectl describe pod`; `kubectl describe pvc` too",
            &s,
        );
        assert_eq!(
            r,
            "read the reasons in `kubectl describe pod -n 'team a' 'it'\\''s'`; `kubectl describe pvc -n 'team a'` too"
        );
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

    const V136_NOT_HELPFUL: &str = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
    const V136_NO_VICTIMS: &str = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";
    const V128_NO_VICTIMS: &str = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..";

    #[test]
    fn a_volume_conflict_on_some_nodes_keeps_the_other_nodes_reasons() {
        let f = run_log(
            "pod-unschedulable",
            "0/4 nodes are available: 1 node(s) had volume node affinity conflict, 3 node(s) had untolerated taint {nvidia.com/gpu: present}. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
        );
        assert!(
            f[0].message.contains("volume node affinity conflict"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message.contains("the other 3 node(s)"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("key: nvidia.com/gpu"),
            "{}",
            f[0].remedy
        );
    }

    #[test]
    fn structure_alone_tells_what_it_can() {
        let f = run_log("pod-unschedulable", V136_NOT_HELPFUL);
        assert!(
            f[0].message.contains("not advertised there"),
            "{}",
            f[0].message
        );
        let f = run_log("pod-unschedulable", V136_NO_VICTIMS);
        assert!(
            f[0].message.contains("do advertise enough"),
            "{}",
            f[0].message
        );
        assert!(!f[0].message.contains("deallocate"), "{}", f[0].message);
        // older wording: `No preemption victims` says nothing about whether GPUs exist
        let f = run_log("pod-unschedulable", V128_NO_VICTIMS);
        assert!(f[0].message.contains("cannot tell"), "{}", f[0].message);
        assert!(f[0].remedy.contains("kubectl get nodes -o custom-columns=NAME:.metadata.name,ALLOCATABLE:.status.allocatable.nvidia\\.com/gpu"), "{}", f[0].remedy);
    }

    fn with_event(nodes: &str, pods: &str, msg: &str) -> String {
        format!(
            r#"{{"kind":"List","items":[{nodes}{pods}
              {{"kind":"Event","metadata":{{"name":"e1","namespace":"x"}},"involvedObject":{{"kind":"Pod","namespace":"x","name":"p"}},"reason":"FailedScheduling","type":"Warning","message":"{msg}","lastTimestamp":"2026-01-01T10:00:00Z"}}]}}"#
        )
    }

    #[test]
    fn node_data_tells_in_use_from_never_advertised() {
        let gpu_nodes = r#"{"kind":"Node","metadata":{"name":"g1"},"status":{"allocatable":{"cpu":"8","nvidia.com/gpu":"2","pods":"110"}}},"#;
        let holder = r#"{"kind":"Pod","metadata":{"name":"h","namespace":"x"},"spec":{"nodeName":"g1","containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"2"}}}]},"status":{"phase":"Running"}},"#;
        let f = run_rule(
            "pod-unschedulable",
            &with_event(gpu_nodes, holder, V128_NO_VICTIMS),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        // the holder asks for GPUs under limits only: its effective request counts
        assert!(
            f[0].message.contains("all in use") && f[0].message.contains("x/h (2)"),
            "{}",
            f[0].message
        );
        let cpu_only = r#"{"kind":"Node","metadata":{"name":"c1"},"status":{"allocatable":{"cpu":"8","pods":"110"}}},"#;
        let f = run_rule(
            "pod-unschedulable",
            &with_event(cpu_only, "", V128_NO_VICTIMS),
        );
        assert!(
            f[0].message.contains("never advertised"),
            "{}",
            f[0].message
        );
    }

    /// Issue 12 item 5: the scheduler records `FailedScheduling` on each failed attempt and
    /// `Scheduled` ("Successfully assigned <ns>/<pod> to <node>") once the pod is bound
    /// (kubernetes `pkg/scheduler/schedule_one.go`: `handleSchedulingFailure`, the binding
    /// cycle); a FailedScheduling event older than the binding describes an attempt the pod has
    /// since got past, so it is not a current cause.
    #[test]
    fn events_older_than_the_binding_are_not_current() {
        let nodes = r#"{"kind":"Node","metadata":{"name":"g1"},"status":{"allocatable":{"cpu":"8","nvidia.com/gpu":"2","pods":"110"}}},"#;
        let bound = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"x"},"spec":{"nodeName":"g1","containers":[{"name":"c"}]},"status":{"phase":"Running","conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-01-01T10:05:00Z"}]}},"#;
        assert!(
            run_rule(
                "pod-unschedulable",
                &with_event(nodes, bound, V136_NO_VICTIMS)
            )
            .is_empty()
        );
        // a later Scheduled event without the pod object
        let text = with_event(nodes, "", V136_NO_VICTIMS).replace(
            "]}",
            r#",{"kind":"Event","metadata":{"name":"e2","namespace":"x"},"involvedObject":{"kind":"Pod","namespace":"x","name":"p"},"reason":"Scheduled","type":"Normal","message":"Successfully assigned x/p to g1","lastTimestamp":"2026-01-01T10:05:00Z"}]}"#,
        );
        assert!(run_rule("pod-unschedulable", &text).is_empty());
    }

    /// The same for the node autoscalers' events about a pod (cluster-autoscaler's
    /// `NotTriggerScaleUp`): once the pod is bound they describe an attempt it got past.
    #[test]
    fn autoscaler_events_of_a_bound_pod_are_not_current() {
        let event = r#"{"kind":"Event","metadata":{"name":"e1","namespace":"x"},"involvedObject":{"kind":"Pod","namespace":"x","name":"p"},"reason":"NotTriggerScaleUp","type":"Normal","source":{"component":"cluster-autoscaler"},"message":"pod didn't trigger scale-up: 1 max node group size reached","lastTimestamp":"2026-01-01T10:00:00Z"}"#;
        let list = |pod: &str| format!(r#"{{"kind":"List","items":[{pod}{event}]}}"#);
        let pending = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"x"},"spec":{"containers":[{"name":"c"}]},"status":{"phase":"Pending"}},"#;
        assert_eq!(run_rule("pod-unschedulable", &list(pending)).len(), 1);
        let bound = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"x"},"spec":{"nodeName":"g1","containers":[{"name":"c"}]},"status":{"phase":"Running"}},"#;
        let f = run_rule("pod-unschedulable", &list(bound));
        assert!(f.is_empty(), "{f:?}");
    }

    /// A JupyterHub / KubeSpawner spawn progress log: the scheduler's message followed later by
    /// `Successfully assigned` or `Started container` is the progress of a spawn that went on,
    /// quiet; the same message last in the log is a pending pod.
    #[test]
    fn kubespawner_progress_superseded_by_a_later_start() {
        let pending = "Event log\nServer requested\n2021-08-16T14:02:03.000000Z [Warning] 0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.\n";
        assert_eq!(run_rule("pod-unschedulable", pending).len(), 1);
        for later in [
            "2021-08-16T14:03:41Z [Normal] Successfully assigned prod/jupyter-user-01 to node-04\n",
            "2021-08-16T14:04:20Z [Normal] Started container notebook\n",
        ] {
            let text = format!("{pending}{later}");
            let f = run_rule("pod-unschedulable", &text);
            assert!(f.is_empty(), "{later}: {f:#?}");
        }
    }

    /// A describe `Events:` section names no object: a later `Scheduled` (any scheduler) or
    /// kubelet container event of the same section makes the FailedScheduling stale.
    #[test]
    fn unnamed_events_sections_superseded_by_scheduled() {
        for scheduler in ["default-scheduler", "hami-scheduler"] {
            let text = format!(
                "Events:\n  Type     Reason            Age   From   Message\n  ----     ------            ----  ----   -------\n  Warning  FailedScheduling  86s   {scheduler}  0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports.\n  Normal   Scheduled         80s   {scheduler}  Successfully assigned default/amb-1 to node-01\n  Normal   Started           29s   kubelet  Started container amb\n"
            );
            assert!(
                run_rule("pod-unschedulable", &text).is_empty(),
                "{scheduler}"
            );
        }
        // without the later event the pod is pending
        let text = "Events:\n  Type     Reason            Age   From   Message\n  ----     ------            ----  ----   -------\n  Warning  FailedScheduling  86s   default-scheduler  0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports.\n";
        assert_eq!(run_rule("pod-unschedulable", text).len(), 1);
    }

    /// The reasons that block the pod decide the cause, not the largest count.
    #[test]
    fn blocking_reasons_over_selection_reasons() {
        let f = run_log(
            "pod-unschedulable",
            "0/7 nodes are available: 1 Too many pods, 6 node(s) didn't match Pod's node affinity/selector. preemption: 0/7 nodes are available: 1 No preemption victims found for incoming pod, 6 Preemption is not helpful for scheduling.",
        );
        assert!(
            f[0].message
                .contains("1 of 7 node(s) are at their maximum pod count"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("maxPods"), "{}", f[0].remedy);
        let f = run_log(
            "pod-unschedulable",
            "0/6 nodes are available: 1 node(s) had untolerated taint {unschedulable: true}, 2 node(s) didn't match pod topology spread constraints, 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }.",
        );
        assert!(
            f[0].message.starts_with(
                "pod is Pending (6 nodes): 2 of 6 node(s) fail the pod's topologySpreadConstraints"
            ),
            "{}",
            f[0].message
        );
        assert!(!f[0].remedy.contains("toleration"), "{}", f[0].remedy);
        let f = run_log(
            "pod-unschedulable",
            "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/disk-pressure: }. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
        );
        assert!(
            f[0].message.contains("DiskPressure=True"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("free disk") && !f[0].remedy.contains("toleration"));
        // only selection reasons: the most frequent one, as before
        let f = run_log(
            "pod-unschedulable",
            "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
        );
        assert!(f[0].message.contains("nodeSelector"), "{}", f[0].message);
    }

    /// A pod manifest without a namespace is created in `default`; a scheduler text pasted with
    /// the input's only pending pod is about that pod.
    #[test]
    fn scheduler_text_of_a_paste_is_about_its_only_pending_pod() {
        let mut i = crate::Inputs::new();
        i.add(
            "case.txt",
            "0/5 nodes are available: 1 node(s) had volume node affinity conflict, 4 node(s) didn't match node selector.\n\n```\nkind: Pod\napiVersion: v1\nmetadata:\n  name: web\nspec:\n  nodeSelector:\n    kubernetes.io/hostname: node-05\n  volumes:\n  - name: d\n    persistentVolumeClaim:\n      claimName: data\n  containers:\n  - name: c\n    image: x\n```\n\n```\nkind: PersistentVolumeClaim\napiVersion: v1\nmetadata:\n  name: data\nspec:\n  storageClassName: manual\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n```\n\n```\nkind: PersistentVolume\napiVersion: v1\nmetadata:\n  name: pv-1\nspec:\n  storageClassName: manual\n  capacity:\n    storage: 1Gi\n  accessModes: [ReadWriteOnce]\n  hostPath:\n    path: /data\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - key: kubernetes.io/hostname\n          operator: In\n          values: [node-04]\n```\n",
        );
        let f = crate::rules::testutil::run_inputs("pod-unschedulable", &i);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.display_name(), "Pod/default/web");
        assert!(
            f[0].message.contains("exclude each other"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("node-05") && f[0].message.contains("node-04"));
    }

    /// A node tainted by the kubelet's pressure: the computed fit gives the condition's remedy,
    /// not a toleration.
    #[test]
    fn computed_fit_with_a_condition_taint() {
        let text = r#"{"kind":"List","items":[
          {"kind":"Node","metadata":{"name":"n1"},"spec":{"taints":[{"key":"node.kubernetes.io/disk-pressure","effect":"NoSchedule"}]},"status":{"allocatable":{"cpu":"8","memory":"16Gi","pods":"110"},"conditions":[{"type":"DiskPressure","status":"True"},{"type":"Ready","status":"True"}]}},
          {"kind":"Pod","metadata":{"name":"p","namespace":"x"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]},"status":{"phase":"Pending"}}]}"#;
        let f = run_rule("pod-unschedulable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("DiskPressure=True"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("free disk"), "{}", f[0].remedy);
    }

    #[test]
    fn affinity_versus_gpu_text() {
        let f = run_log(
            "pod-unschedulable",
            "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
        );
        assert!(f[0].message.contains("constraints exclude each other"));
    }

    #[test]
    fn queueing_schedulers_say_why_they_hold_the_workload() {
        let kueue = run_log(
            "pod-unschedulable",
            "Warning  Pending  3s  kueue-admission  couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor default-flavor, 1 more needed",
        );
        assert_eq!(kueue.len(), 1, "{kueue:#?}");
        assert!(
            kueue[0]
                .message
                .contains("nvidia.com/gpu in flavor default-flavor")
        );
        let never = run_log(
            "pod-unschedulable",
            "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100, request > maximum capacity (16 > 8)",
        );
        assert!(never[0].message.contains("never admit"), "{never:#?}");
        let yk = run_log(
            "pod-unschedulable",
            "Request 'task-0' does not fit in queue 'root.ml' (requested map[nvidia.com/gpu:2], available map[nvidia.com/gpu:1])",
        );
        assert!(yk[0].message.contains("root.ml"));
        // a gang message that carries its FitErrors is explained once, by the grammar
        let gang = run_log(
            "pod-unschedulable",
            "Warning Unschedulable podgroup/pg-1 1/2 tasks in gang unschedulable: pod group is not ready, 1 Pending, 2 minAvailable; Pending: 1 Unschedulable. Origin reason is worker-0: 0/2 nodes are unavailable: 2 Insufficient cpu.",
        );
        assert_eq!(gang.len(), 1, "{gang:#?}");
        assert!(gang[0].message.contains("Volcano scheduler"));
    }
}
