//! Scheduler texts (FailedScheduling events, PodScheduled condition messages, pasted lines) read
//! with the scheduler's grammar ([`cube_quota::schedmsg`]) and explained from their structure
//! plus the snapshot's node data.
//!
//! One cause per message, with its one remedy:
//! 1. a claim problem (PreFilter: claim missing or unbound) comes before anything else;
//! 2. HAMi's `node unregistered`, then a node-local volume pinning the pod;
//! 3. `Insufficient <resource>`: with node data, "never advertised" (no node has allocatable),
//!    "capacity but no allocatable", "larger than any node", "all in use" (by which pods) or
//!    "fragmented"; without node data, what the message's structure proves (nodes where
//!    preemption is not helpful beyond the always-unresolvable reasons have less of the
//!    resource in total than requested; v1.34+ `No preemption victims` means the nodes do have
//!    it) and otherwise the causes that remain and the one command that tells them apart;
//! 4. constraints checked after NodeResourcesFit (pod affinity, spread, volumes) on the nodes
//!    that have the resource: the constraints exclude each other.
//!
//! Events of a pod older than its current binding (the pod is bound, running or scheduled,
//! was created after the event, or a later `Scheduled` event exists) are not current and give
//! no finding.

use std::collections::{BTreeMap, BTreeSet};

use cube_model::objects::{Event, Pod};
use cube_quota::schedmsg::{self, Preemption, ReasonKind, SchedulerMessage};

mod hami;

use super::PodUnschedulable;
use super::blocking;
use crate::classify::{Signal, SignalKind};
use crate::resources::is_gpu_resource;
use crate::rules::{obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

/// Findings for scheduler texts, plus evidence to attach to pods already explained from the
/// snapshot (`computed`).
pub(super) fn scheduler_texts(
    ctx: &Context<'_>,
    computed: &BTreeSet<Subject>,
) -> (Vec<Finding>, Vec<(Subject, Evidence)>) {
    // the newest current message per subject
    let mut latest: BTreeMap<Subject, (&Signal, SchedulerMessage)> = BTreeMap::new();
    let mut extra = Vec::new();
    for s in signals(ctx, &[SignalKind::FailedScheduling]) {
        let Some(m) = schedmsg::parse(&s.text) else {
            continue;
        };
        if stale(ctx, s).is_some() {
            continue;
        }
        let subject = resolve_pod(ctx, s, subject_of(s));
        if computed.contains(&subject) {
            extra.push((subject, s.evidence()));
            continue;
        }
        latest.insert(subject, (s, m));
    }
    let mut out = Vec::new();
    for (subject, (s, m)) in &latest {
        let pod = pod_of(ctx, subject);
        // HAMi's reason codes (its extender's histogram reasons and FilteringFailed events)
        let mut e = hami::wrong_scheduler(ctx, s, m)
            .or_else(|| hami::explain(ctx, subject, Some(m)))
            .unwrap_or_else(|| explain(ctx, m, pod));
        // the legacy histograms print no total: the largest count is a lower bound (a node is
        // counted under every predicate it fails before v1.9), never "n of n nodes"; the
        // v1.2-v1.4 per-node lines do count every node
        if m.dialect == schedmsg::Dialect::LegacyKubeScheduler
            && m.nodes > 0
            && m.per_node.is_empty()
        {
            for unit in ["nodes", "node(s)"] {
                e.cause = e.cause.replace(
                    &format!(" of {} {unit}", m.nodes),
                    &format!(" of at least {} {unit}", m.nodes),
                );
            }
        }
        let mut nodes = match m.nodes {
            _ if m.dialect == schedmsg::Dialect::LegacyKubeScheduler => {
                let (lo, hi) = m.versions();
                let v = if lo == hi {
                    format!("1.{lo}")
                } else {
                    format!("1.{lo}-1.{hi}")
                };
                format!("Kubernetes {v} wording, which prints no node count")
            }
            // a plugin that failed after a node was picked (framework.go `running Reserve
            // plugin %q: %w`): the message counts no nodes
            0 if m
                .prefilter
                .as_deref()
                .is_some_and(|p| p.starts_with("running ")) =>
            {
                let plugin = m
                    .prefilter
                    .as_deref()
                    .and_then(|p| p.strip_prefix("running "))
                    .and_then(|p| p.split_once(':'))
                    .map_or("a scheduler plugin", |(p, _)| p);
                format!("{plugin} failed after a node was picked")
            }
            0 => "no nodes".to_owned(),
            1 => "1 node".to_owned(),
            n => format!("{n} nodes"),
        };
        if m.dialect == schedmsg::Dialect::Volcano {
            nodes.push_str(", Volcano scheduler");
        }

        out.push(
            Finding::new(
                PodUnschedulable::ID,
                Severity::Warning,
                subject.clone(),
                format!("pod is Pending ({nodes}): {}", e.cause),
            )
            .with_evidence(s.evidence())
            .with_evidences(e.evidence)
            .with_remedy(e.remedy),
        );
    }
    // pods whose only scheduler text is HAMi's FilteringFailed events
    let explained: BTreeSet<Subject> = latest
        .keys()
        .cloned()
        .chain(computed.iter().cloned())
        .collect();
    for (subject, evidence, e) in hami::alone(ctx, &explained) {
        out.push(
            Finding::new(
                PodUnschedulable::ID,
                Severity::Warning,
                subject,
                format!("pod is Pending: {}", e.cause),
            )
            .with_evidence(evidence)
            .with_evidences(e.evidence)
            .with_remedy(e.remedy),
        );
    }
    // pending pods whose only trace is their PodScheduled condition (events expire after an
    // hour; `kubectl get pod -o yaml` keeps the scheduler's last message)
    for (i, p) in ctx.snapshot().pods.iter().enumerate() {
        let subject = crate::rules::pod_subject(p);
        if latest.contains_key(&subject) || computed.contains(&subject) || !pending(ctx, p) {
            continue;
        }
        let Some(c) = p
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "PodScheduled" && c.status == "False")
        else {
            continue;
        };
        let Some(m) = schedmsg::parse(&c.message) else {
            // Volcano's job FitError (`pod group is not ready, ...`), which its scheduler
            // writes into the condition
            let source = p
                .metadata
                .annotations
                .get(crate::input::SOURCE_ANNOTATION)
                .unwrap_or("");
            if let Some((cause, remedy)) = super::volcano::explain_text(ctx, &c.message, source) {
                out.push(
                    Finding::new(PodUnschedulable::ID, Severity::Warning, subject, cause)
                        .with_evidence(Evidence::field(
                            obj("Pod", &p.metadata.namespace, &p.metadata.name),
                            "status.conditions[PodScheduled].message",
                            &c.message,
                        ))
                        .with_remedy(remedy),
                );
            }
            continue;
        };
        let e = explain(ctx, &m, Some(i));
        out.push(
            Finding::new(
                PodUnschedulable::ID,
                Severity::Warning,
                subject,
                format!(
                    "pod is Pending ({} node{}): {}",
                    m.nodes,
                    if m.nodes == 1 { "" } else { "s" },
                    e.cause
                ),
            )
            .with_evidence(Evidence::field(
                obj("Pod", &p.metadata.namespace, &p.metadata.name),
                "status.conditions[PodScheduled].message",
                &c.message,
            ))
            .with_evidences(e.evidence)
            .with_remedy(e.remedy),
        );
    }
    (out, extra)
}

/// The subject of a scheduler text: its object, else the pod a scheduler log line names
/// (`pod="ns/name"`), else its source.
fn subject_of(s: &Signal) -> Subject {
    if s.object.is_none()
        && let Some((ns, name)) = s.detail("pod").split_once('/')
    {
        return Subject::namespaced("Pod", ns, name);
    }
    let subject = signal_subject(s);
    // a pod named without its namespace (a headerless `kubectl get events` row, a pre-1.10
    // message) is its own subject, `Pod/<name>`: several pods of one log are not one subject
    match s.detail("pod_name") {
        "" => subject,
        name if subject.kind == "Log" => Subject::cluster_scoped("Pod", name),
        _ => subject,
    }
}

/// The pod a scheduler text is about, when the input says it better than the text: a pod
/// named without its namespace (a describe excerpt's Events, a pre-1.10 message) is the one pod
/// of that name in the input that has a namespace; a text that names no pod (a pasted line, a
/// bare Events section) is about the one pending pod of the same input.
pub(super) fn resolve_pod(ctx: &Context<'_>, s: &Signal, subject: Subject) -> Subject {
    let snap = ctx.snapshot();
    if subject.kind == "Pod" && subject.namespace.is_empty() {
        let mut found = snap
            .pods
            .iter()
            .filter(|p| p.metadata.name == subject.name && !p.metadata.namespace.is_empty());
        if let (Some(p), None) = (found.next(), found.next()) {
            return crate::rules::pod_subject(p);
        }
        return subject;
    }
    if subject.kind != "Log" {
        return subject;
    }
    let source = subject.name.as_str();
    let from_source = |p: &&Pod| {
        p.metadata
            .annotations
            .get(crate::input::SOURCE_ANNOTATION)
            .is_some_and(|a| {
                a == source
                    || a.strip_prefix(source)
                        .is_some_and(|rest| rest.starts_with(':'))
            })
    };
    let _ = s;
    let found: Vec<&Pod> = snap
        .pods
        .iter()
        .filter(|p| pending(ctx, p))
        .filter(from_source)
        .collect();
    // one pod shown twice (a `get pods` row and its manifest) is one pod: the one with its
    // spec is the subject
    match found.first() {
        Some(first) if found.iter().all(|p| p.metadata.name == first.metadata.name) => {
            let best = found
                .iter()
                .max_by_key(|p| (p.spec.containers.len(), !p.metadata.namespace.is_empty()))
                .unwrap_or(first);
            crate::rules::pod_subject(best)
        }
        _ => subject,
    }
}

fn pending(ctx: &Context<'_>, p: &Pod) -> bool {
    p.spec.node_name.is_empty()
        && !ctx.pod_finished(p)
        && (p.status.phase.is_empty() || p.status.phase == "Pending")
}

/// Index of the pod a subject names.
fn pod_of(ctx: &Context<'_>, subject: &Subject) -> Option<usize> {
    if subject.kind != "Pod" {
        return None;
    }
    ctx.pods_in_namespace(&subject.namespace)
        .iter()
        .copied()
        .find(|&i| ctx.pod(i).metadata.name == subject.name)
        .or_else(|| {
            // describe excerpts may lack the namespace on one side
            ctx.snapshot()
                .pods
                .iter()
                .position(|p| p.metadata.name == subject.name && subject.namespace.is_empty())
        })
}

/// The event a signal of the snapshot's events came from.
fn event_of<'c>(ctx: &'c Context<'_>, s: &Signal) -> Option<(usize, &'c Event)> {
    if s.source != "events" || s.line == 0 {
        return None;
    }
    ctx.snapshot()
        .events
        .get(s.line - 1)
        .map(|e| (s.line - 1, e))
}

/// Why a FailedScheduling signal is not current: `Some(reason)` when the pod it is about has
/// been bound (or re-created) since.
pub(crate) fn stale(ctx: &Context<'_>, s: &Signal) -> Option<String> {
    let subject = subject_of(s);
    let event = event_of(ctx, s);
    if subject.kind != "Pod" {
        // the `Events:` section of a describe excerpt names no object: its own later events
        // (same input, same unnamed object) still tell that the pod was bound since
        if event.is_none() {
            return later_start_in_log(ctx, s);
        }
        return event.and_then(|(idx, e)| later_binding(ctx, idx, e));
    }
    if event.is_none()
        && let Some(why) = later_binding_in_log(ctx, s, &subject)
    {
        return Some(why);
    }
    let seen = event.and_then(|(_, e)| {
        e.last_timestamp
            .or(e.first_timestamp)
            .or(e.metadata.creation_timestamp)
    });
    if let Some(i) = pod_of(ctx, &subject) {
        let p = ctx.pod(i);
        if !p.spec.node_name.is_empty() {
            return Some(format!("the pod is bound to {}", p.spec.node_name));
        }
        if matches!(p.status.phase.as_str(), "Running" | "Succeeded" | "Failed") {
            return Some(format!("the pod is {}", p.status.phase));
        }
        if let Some(c) = p
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "PodScheduled" && c.status == "True")
        {
            if let (Some(at), Some(seen)) = (c.last_transition_time, seen)
                && at < seen
            {
                // scheduled, then failing again: a new incarnation would have a new uid;
                // treat the event as current
            } else {
                return Some("the pod's PodScheduled condition is True".to_owned());
            }
        }
        if let (Some(created), Some(seen)) = (p.metadata.creation_timestamp, seen)
            && seen < created
        {
            return Some(format!(
                "the event ({seen}) predates the pod's creation ({created})"
            ));
        }
    }
    // a later `Scheduled` event for the same object
    event.and_then(|(idx, e)| later_binding(ctx, idx, e))
}

/// Event reasons that exist only once a pod is bound to a node: the scheduler's `Scheduled`
/// ("Successfully assigned <ns>/<pod> to <node>", `pkg/scheduler/schedule_one.go`, any
/// scheduler name: HAMi, Volcano and other schedulers record the same reason) and the kubelet's
/// container events (`pkg/kubelet/events/event.go`: `Pulling`, `Pulled`, `Created`, `Started`),
/// which the kubelet of the pod's node records.
const BOUND_REASONS: &[&str] = &["Scheduled", "Pulling", "Pulled", "Created", "Started"];

/// Why the FailedScheduling event `e` (at `idx` in the snapshot's events) is older than its
/// pod's binding: a later event of the same object (an unnamed object: of the same input) with
/// a reason of [`BOUND_REASONS`]. Later is by time when both events carry one, else by order
/// (kubectl prints an object's events oldest first).
fn later_binding(ctx: &Context<'_>, idx: usize, e: &Event) -> Option<String> {
    let o = &e.involved_object;
    let source = |x: &Event| {
        x.metadata
            .annotations
            .get(crate::input::SOURCE_ANNOTATION)
            .map(str::to_owned)
    };
    let src = source(e);
    let when = |x: &Event| x.last_timestamp.or(x.first_timestamp);
    ctx.snapshot()
        .events
        .iter()
        .enumerate()
        .find(|(j, x)| {
            BOUND_REASONS.contains(&x.reason.as_str())
                && x.involved_object.name == o.name
                && x.involved_object.namespace == o.namespace
                && (!o.name.is_empty() || source(x) == src)
                && match (when(x), when(e)) {
                    (Some(a), Some(b)) if a != b => a > b,
                    _ => *j > idx,
                }
        })
        .map(|(_, x)| {
            format!(
                "a later {} event ({}) shows the pod bound since",
                x.reason, x.message
            )
        })
}

/// For a scheduler text read from a log (a `kubectl get events` or describe text read as
/// lines) about a named pod: a later line of the same log saying the scheduler bound it
/// (`Successfully assigned <ns>/<pod> to <node>`; before v1.11 `Successfully assigned <pod> to
/// <node>`).
fn later_binding_in_log(ctx: &Context<'_>, s: &Signal, pod: &Subject) -> Option<String> {
    let log = ctx.logs().iter().find(|l| l.source == s.source)?;
    let at = log.text.find(s.text.trim())?;
    let after = &log.text[at..];
    let qualified = format!("Successfully assigned {}/{} to ", pod.namespace, pod.name);
    let bare = format!("Successfully assigned {} to ", pod.name);
    after
        .lines()
        .skip(1)
        .find(|l| l.contains(&qualified) || l.contains(&bare))
        .map(|l| format!("a later line binds the pod: {}", l.trim()))
}

/// What a line says once the one pod of a progress log was placed and started: the scheduler's
/// `Successfully assigned <ns>/<pod> to <node>` (`pkg/scheduler/schedule_one.go`) and the
/// kubelet's `Started container <name>` (`pkg/kubelet/kuberuntime/kuberuntime_container.go`),
/// and JupyterHub's `Server ready at <url>` (jupyterhub `static/js/spawn_pending.js`).
const STARTED_LINES: &[&str] = &[
    "Successfully assigned ",
    "Started container",
    "Server ready at ",
];

/// For a scheduler text of a log that names no pod (a JupyterHub / KubeSpawner spawn progress
/// page: `<time> [Warning] 0/3 nodes are available: ...` then `[Normal] Successfully assigned
/// ...` and `Started container notebook`; kubespawner `spawner.py` `progress` yields the pod's
/// events in order): a later line of the same log saying the pod was placed or started
/// supersedes it (the pending state was the progress of a spawn that went on).
fn later_start_in_log(ctx: &Context<'_>, s: &Signal) -> Option<String> {
    let log = ctx.logs().iter().find(|l| l.source == s.source)?;
    let at = log.text.find(s.text.trim())?;
    log.text[at..]
        .lines()
        .skip(1)
        .find(|l| STARTED_LINES.iter().any(|m| l.contains(m)))
        .map(|l| format!("a later line shows the pod placed or started: {}", l.trim()))
}

/// A cause, its remedy and the node facts that prove it.
struct Explained {
    cause: String,
    remedy: String,
    evidence: Vec<Evidence>,
}

impl Explained {
    fn new(cause: impl Into<String>, remedy: impl Into<String>) -> Self {
        Explained {
            cause: cause.into(),
            remedy: remedy.into(),
            evidence: Vec::new(),
        }
    }
}

/// Reasons of plugins that run after NodeResourcesFit: a node reporting them passed the
/// resource check.
fn after_fit(kind: ReasonKind) -> bool {
    matches!(
        kind,
        ReasonKind::PodAffinity
            | ReasonKind::PodAntiAffinity
            | ReasonKind::ExistingPodsAntiAffinity
            | ReasonKind::TopologySpread
            | ReasonKind::TopologySpreadMissingLabel
            | ReasonKind::VolumeBindConflict
            | ReasonKind::VolumeZoneConflict
            | ReasonKind::MaxVolumeCount
            | ReasonKind::DiskConflict
            | ReasonKind::NotEnoughStorage
            | ReasonKind::ReadWriteOncePodConflict
            | ReasonKind::ClaimsNotAllocatable
            | ReasonKind::ClaimNotAvailable
    )
}

fn explain(ctx: &Context<'_>, m: &SchedulerMessage, pod: Option<usize>) -> Explained {
    let mut e = explain_main(ctx, m, pod);
    // the message as a whole: node selection and a shortage together, or one reason on every
    // node (super::accounting): a shortage on the nodes the selection admits is never the
    // cause alone
    let whole = super::accounting::of(m);
    if let Some(a) = &whole {
        if a.selection_covers_all {
            e = Explained {
                cause: a.cause.clone(),
                remedy: a.remedy.clone(),
                evidence: e.evidence,
            };
        } else {
            e.cause = format!("{}. On those nodes: {}", a.cause, e.cause);
            e.remedy = format!("{}; {}", a.remedy, e.remedy);
        }
    }
    // the kubelet's legacy GPU resource (v1.6-v1.10): what it is and the way off it
    if m.insufficient()
        .any(|(r, _)| r == cube_model::resource::names::LEGACY_NVIDIA_GPU)
    {
        e.cause
            .push_str(&format!("; {}", crate::resources::LEGACY_GPU_NOTE));
        e.remedy
            .push_str(&format!("; {}", crate::resources::LEGACY_GPU_REMEDY));
    }
    // a resource shortage explained first: the nodes at their pod count or under a node
    // condition block the pod too, and their remedy is not the resource's
    if m.insufficient().any(|(r, _)| r != "pods") {
        for r in &m.reasons {
            if blocking::is_pod_count(r) || blocking::condition_of(r).is_some() {
                let p = blocking::part(r, m.nodes);
                if p.role == blocking::Role::Blocks {
                    e.cause.push_str(&format!("; also {}", p.cause));
                    e.remedy.push_str(&format!("; {}", p.remedy));
                }
            }
        }
        // cordoned nodes (NodeUnschedulable: `node(s) were unschedulable`, v1.12+ also the
        // `node.kubernetes.io/unschedulable` taint) take no new pod whatever they have free:
        // capacity held back by a drain, an upgrade or a scale-down, which the shortage
        // message alone does not show
        let cordoned: usize = m
            .reasons
            .iter()
            .filter(|r| {
                r.reason.kind == ReasonKind::Unschedulable
                    || blocking::condition_of(r)
                        .is_some_and(|c| c.key == "node.kubernetes.io/unschedulable")
            })
            .map(|r| r.count)
            .sum();
        if cordoned > 0 {
            e.cause.push_str(&format!(
                "; also {cordoned} of {} node(s) are cordoned (spec.unschedulable: `kubectl cordon` or a drain, an upgrade or a scale-down in progress) and take no new pod whatever they have free",
                m.nodes
            ));
            e.remedy.push_str("; if the cordoned nodes (SchedulingDisabled in `kubectl get nodes`) are meant to take pods again, `kubectl uncordon <node>`");
        }
    }
    e
}

fn explain_main(ctx: &Context<'_>, m: &SchedulerMessage, pod: Option<usize>) -> Explained {
    let reasons: Vec<_> = m.all_reasons().collect();
    let has = |k: ReasonKind| reasons.iter().any(|r| r.kind == k);
    if let Some(r) = reasons.iter().find(|r| r.kind == ReasonKind::ClaimNotFound) {
        let claim = r.value("claim").unwrap_or("");
        return Explained::new(
            format!(
                "the pod names PersistentVolumeClaim {claim}, which does not exist: no node is considered until it does"
            ),
            format!(
                "create the claim {claim} in the pod's namespace (or fix the claim name in the pod spec)"
            ),
        );
    }
    if has(ReasonKind::UnboundImmediateClaims) {
        return Explained::new(
            "its PersistentVolumeClaim is unbound: fix the claim (storage class) before any scheduling analysis",
            "`kubectl describe pvc` for the pod's claims: set a storageClassName that exists (or mark one StorageClass default) so the claim binds",
        );
    }
    if has(ReasonKind::NodeUnregistered) {
        return Explained::new(
            "the GPU-sharing scheduler (HAMi) has no registration for the node: its device plugin is not reporting there",
            "check the HAMi device-plugin pod on the node (`kubectl -n kube-system logs <hami-device-plugin pod>`) and that the node carries the label HAMi selects (`gpu=on`)",
        );
    }
    if has(ReasonKind::VolumeNodeAffinityConflict) {
        let n = m.count(ReasonKind::VolumeNodeAffinityConflict);
        if let Some(e) = pod.and_then(|i| selector_excludes_volume(ctx, i)) {
            return e;
        }
        let mut e = Explained::new(
            format!(
                "its node-local volume pins it to a node it cannot use ({n} node(s) had volume node affinity conflict)"
            ),
            "the PersistentVolume's nodeAffinity names one node: bring that node back (uncordon, untaint, free it), or delete the claim and its PV so a new volume is provisioned where the pod can run",
        );
        // the nodes the volume does not exclude were refused for their own reasons (a GPU
        // taint, a selector): said too, each is part of why no node fits
        if n < m.nodes {
            let mut rest = m.clone();
            rest.reasons
                .retain(|r| r.reason.kind != ReasonKind::VolumeNodeAffinityConflict);
            if !rest.reasons.is_empty() {
                let other = explain_main(ctx, &rest, pod);
                e.cause.push_str(&format!(
                    "; the other {} node(s): {}",
                    m.nodes - n,
                    other.cause
                ));
                e.remedy
                    .push_str(&format!("; for the other nodes: {}", other.remedy));
                e.evidence.extend(other.evidence);
            }
        }
        return e;
    }
    if m.insufficient().next().is_none()
        && let Some(r) = m
            .reasons
            .iter()
            .find(|r| r.reason.kind == ReasonKind::Insufficient)
    {
        return explain_unnamed_resource(ctx, m, pod, &r.reason.text, r.count);
    }
    let insufficient: Vec<(&str, usize)> = {
        // `Insufficient pods` is the node's pod count, not a request ([`blocking::is_pod_count`])
        let mut v: Vec<(&str, usize)> = m.insufficient().filter(|(r, _)| *r != "pods").collect();
        // GPUs first: the scarce resource decides
        v.sort_by_key(|(r, _)| !is_gpu_resource(r));
        v
    };
    if let Some(&(res, n)) = insufficient.first() {
        let post: Vec<(usize, &str)> = m
            .reasons
            .iter()
            .filter(|r| after_fit(r.reason.kind))
            .map(|r| (r.count, r.reason.text.as_str()))
            .collect();
        if let Some((k, text)) = post.first() {
            return Explained::new(
                format!(
                    "constraints exclude each other: the {k} node(s) that have the {res} fail '{text}', the other {n} lack {res}; adding {res} will not help"
                ),
                format!(
                    "relax the constraint ('{text}') or make room for the pod's {res} on a node that satisfies it"
                ),
            );
        }
        return explain_insufficient(ctx, m, pod, res, n);
    }
    explain_other(ctx, m)
}

/// A resource check that names no resource: v1.0-v1.1's `PodFitsResources` (the predicate's
/// name: plugin/pkg/scheduler/algorithm/predicates/predicates.go of release-1.0, printed by
/// `Failed for reason %s and possibly others`) and the same name in v1.2+ reports. The
/// resources in question are the ones the pod requests (requests defaulted from limits, as the
/// API server stores them); with one (or a GPU among them) the resource's own analysis follows,
/// with several the ones that fit no node's allocatable are named, else all of them.
fn explain_unnamed_resource(
    ctx: &Context<'_>,
    m: &SchedulerMessage,
    pod: Option<usize>,
    text: &str,
    n: usize,
) -> Explained {
    let mut asked: Vec<(String, i64)> = Vec::new();
    if let Some(i) = pod {
        let p = ctx.pod(i);
        let mut names: BTreeSet<String> = ctx
            .pod_requests(i)
            .iter()
            .map(|(r, _)| r.as_str().to_owned())
            .collect();
        for c in p.spec.containers.iter().chain(&p.spec.init_containers) {
            for (r, _) in c.resources.limits.iter() {
                names.insert(r.as_str().to_owned());
            }
        }
        for r in names {
            let a = effective_amount(ctx, i, &r);
            if a > 0 && r != "pods" {
                asked.push((r, a));
            }
        }
    }
    let shown = |r: &str, a: i64| {
        if r == "cpu" {
            format!("{r} {a}m")
        } else {
            format!("{r} {a}")
        }
    };
    let what = format!(
        "'{text}' is the resource check of Kubernetes 1.0-1.1, which does not name the resource"
    );
    if asked.is_empty() {
        return Explained::new(
            format!(
                "{n} of {} node(s) report '{text}': {what}; the pod sets no requests or limits the input shows, so not enough cpu, memory or an extended resource such as nvidia.com/gpu remain",
                m.nodes.max(n)
            ),
            "`kubectl describe nodes` (Capacity, and the requests of the pods on each node) against the pod's requests: free cpu or memory on a node, lower the requests, or add a node",
        );
    }
    // the scarce one decides: a GPU, else the one closest to (or above) a node's allocatable
    let snap = ctx.snapshot();
    let fits_no_node = |r: &str, a: i64| {
        !snap.nodes.is_empty()
            && snap.nodes.iter().all(|node| {
                let list = if node.status.allocatable.get(r).is_some() {
                    &node.status.allocatable
                } else {
                    &node.status.capacity
                };
                amount(list, r) < a
            })
    };
    let pick = asked
        .iter()
        .find(|(r, _)| is_gpu_resource(r))
        .or_else(|| asked.iter().find(|(r, a)| fits_no_node(r, *a)))
        .or_else(|| (asked.len() == 1).then(|| &asked[0]));
    let list: Vec<String> = asked.iter().map(|(r, a)| shown(r, *a)).collect();
    match pick {
        Some((r, _)) => {
            let mut e = explain_insufficient(ctx, m, pod, r, n);
            e.cause = format!(
                "{what}; of what the pod requests ({}) it is {r}: {}",
                list.join(", "),
                e.cause
            );
            e
        }
        None => Explained::new(
            format!(
                "{n} of {} node(s) report '{text}': {what}; the pod requests {}, and one of these is more than those nodes have free (allocatable minus the requests of the pods already there)",
                m.nodes.max(n),
                list.join(", ")
            ),
            format!(
                "`kubectl describe nodes` shows each node's Capacity and the requests of its pods: free {} on a node (delete or move pods), lower the pod's requests, or add a node",
                asked
                    .iter()
                    .map(|(r, _)| r.as_str())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ),
    }
}

/// When the pod's nodeSelector and the nodeAffinity of a PersistentVolume its claim binds to
/// (by `volumeName`, the PV's `claimRef`, or the only PV of the claim's storage class) exclude
/// each other in every term (an `In` that does not hold the selector's value, a `NotIn` that
/// does, an `Exists` on a key the selector sets otherwise is fine): no node can satisfy both,
/// whatever the nodes (VolumeBinding's `volume node affinity conflict` on the nodes the
/// selector allows, NodeAffinity's mismatch on the others).
fn selector_excludes_volume(ctx: &Context<'_>, i: usize) -> Option<Explained> {
    let p = ctx.pod(i);
    if p.spec.node_selector.is_empty() {
        return None;
    }
    let snap = ctx.snapshot();
    for v in &p.spec.volumes {
        let Some(claim) = &v.persistent_volume_claim else {
            continue;
        };
        let pvc = snap.persistent_volume_claims.iter().find(|c| {
            c.metadata.name == claim.claim_name && c.metadata.namespace == p.metadata.namespace
        });
        let bound =
            |pv: &&cube_model::objects::PersistentVolume| {
                pvc.is_some_and(|c| {
                    !c.spec.volume_name.is_empty() && c.spec.volume_name == pv.metadata.name
                }) || pv.spec.claim_ref.as_ref().is_some_and(|r| {
                    r.name == claim.claim_name && r.namespace == p.metadata.namespace
                })
            };
        let mut pvs: Vec<&cube_model::objects::PersistentVolume> =
            snap.persistent_volumes.iter().filter(bound).collect();
        if pvs.is_empty()
            && let Some(class) = pvc.and_then(|c| c.spec.storage_class_name.as_deref())
        {
            pvs = snap
                .persistent_volumes
                .iter()
                .filter(|pv| pv.spec.storage_class_name == class)
                .collect();
            if pvs.len() != 1 {
                continue;
            }
        }
        for pv in pvs {
            let Some(terms) = pv
                .spec
                .node_affinity
                .as_ref()
                .and_then(|a| a.required.as_ref())
                .map(|r| &r.node_selector_terms)
            else {
                continue;
            };
            let mut clash: Option<String> = None;
            let excluded = !terms.is_empty()
                && terms.iter().all(|t| {
                    t.match_expressions.iter().any(|e| {
                        let Some(want) = p.spec.node_selector.get(&e.key) else {
                            return false;
                        };
                        let bad = match e.operator.as_str() {
                            "In" => !e.values.iter().any(|v| v == want),
                            "NotIn" => e.values.iter().any(|v| v == want),
                            "DoesNotExist" => true,
                            _ => false,
                        };
                        if bad && clash.is_none() {
                            clash = Some(format!(
                                "the pod's nodeSelector {}={want} against PersistentVolume {}'s nodeAffinity {} {} [{}]",
                                e.key,
                                pv.metadata.name,
                                e.key,
                                e.operator,
                                e.values.join(", ")
                            ));
                        }
                        bad
                    })
                });
            if excluded {
                let clash = clash.unwrap_or_default();
                let mut e = Explained::new(
                    format!(
                        "the pod's nodeSelector and the node affinity of its volume exclude each other ({clash}): no node satisfies both, so the pod can never be scheduled as written"
                    ),
                    format!(
                        "make them agree: change the pod's nodeSelector to a node the volume allows, or drop it (the volume's nodeAffinity already places the pod), or re-create the PersistentVolume {} on the node the pod must run on",
                        pv.metadata.name
                    ),
                );
                e.evidence.push(Evidence::field(
                    obj("Pod", &p.metadata.namespace, &p.metadata.name),
                    "spec.nodeSelector",
                    p.spec
                        .node_selector
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(","),
                ));
                return Some(e);
            }
        }
    }
    None
}

/// Amount in the scheduler's units for `res` (millicores for cpu, whole units otherwise).
fn amount(list: &cube_model::ResourceList, res: &str) -> i64 {
    match list.get(res) {
        Some(q) if res == "cpu" => q.milli_value(),
        Some(q) => q.value(),
        None => 0,
    }
}

/// What the pod at `i` requests of `res` as the API server stores it: requests defaulted from
/// limits (`default_requests_from_limits`, API defaulting) before `pod_requests` (a pod asking
/// for GPUs only under `limits`, as NVIDIA documents, requests them).
fn effective_amount(ctx: &Context<'_>, i: usize, res: &str) -> i64 {
    let direct = amount(ctx.pod_requests(i), res);
    if direct > 0 {
        return direct;
    }
    let p = ctx.pod(i);
    let limited = p
        .spec
        .containers
        .iter()
        .chain(&p.spec.init_containers)
        .any(|c| c.resources.limits.get(res).is_some());
    if !limited {
        return 0;
    }
    let mut q = p.clone();
    cube_quota::requests::default_requests_from_limits(&mut q.spec);
    amount(
        &cube_quota::requests::pod_requests(
            &q,
            &cube_quota::requests::PodResourcesOptions::default(),
        ),
        res,
    )
}

fn show(res: &str, v: i64) -> String {
    if res == "cpu" {
        if v % 1000 == 0 {
            (v / 1000).to_string()
        } else {
            format!("{v}m")
        }
    } else if res == "memory" || res == "ephemeral-storage" {
        let gi = 1i64 << 30;
        if v % gi == 0 {
            format!("{}Gi", v / gi)
        } else {
            format!("{}Mi", v / (1 << 20))
        }
    } else {
        v.to_string()
    }
}

/// `kubectl get nodes` columns showing `res` (dots escaped as custom-columns needs).
fn nodes_command(res: &str) -> String {
    let esc = res.replace('.', "\\.");
    format!(
        "kubectl get nodes -o custom-columns=NAME:.metadata.name,ALLOCATABLE:.status.allocatable.{esc},CAPACITY:.status.capacity.{esc}"
    )
}

fn priority_note(p: Option<&Preemption>) -> &'static str {
    match p {
        Some(Preemption::NotEligible { .. }) => {
            " (the pod may not preempt: preemptionPolicy Never)"
        }
        Some(p) if p.no_victims() > 0 => {
            " of equal or higher priority (preemption found no lower-priority victims)"
        }
        _ => "",
    }
}

/// What the preemption histogram says per node (DefaultPreemption, kubernetes
/// `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go`
/// `SelectVictimsOnNode`: `No preemption victims found for incoming pod` when no pod of lower
/// priority runs on the node; the Filter's own reason, such as `Insufficient nvidia.com/gpu`,
/// when the pod still does not fit with every lower-priority pod removed;
/// `pkg/scheduler/framework/preemption/preemption.go` `nodesWherePreemptionMightHelp`:
/// `Preemption is not helpful for scheduling` for nodes whose reason eviction cannot change,
/// such as a cordon or a taint).
fn preemption_reading(p: &Preemption) -> Option<String> {
    let parts: Vec<String> = p
        .reasons()
        .iter()
        .map(|r| match r.reason.kind {
            ReasonKind::NoPreemptionVictims | ReasonKind::NoVictimsOnNode => format!(
                "on {} node(s) no pod of lower priority runs, so there is nothing to evict",
                r.count
            ),
            ReasonKind::PreemptionNotHelpful => format!(
                "on {} node(s) evicting pods cannot help (they are excluded for a reason eviction does not change, such as a cordon, a taint or a selector)",
                r.count
            ),
            ReasonKind::Insufficient => format!(
                "on {} node(s) even evicting every lower-priority pod leaves too little {}",
                r.count,
                r.reason.resource().unwrap_or("of the resource")
            ),
            _ => format!("{} node(s): '{}'", r.count, r.reason.text),
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn explain_insufficient(
    ctx: &Context<'_>,
    m: &SchedulerMessage,
    pod: Option<usize>,
    res: &str,
    n: usize,
) -> Explained {
    let snap = ctx.snapshot();
    let want = pod
        .map(|i| effective_amount(ctx, i, res))
        .filter(|w| *w > 0);
    let pre = m.preemption.as_ref();
    let native = !res.contains('/');
    if !snap.nodes.is_empty() {
        return explain_with_nodes(ctx, m, res, n, want, pod);
    }
    // structure alone
    let unresolvable: usize = m
        .reasons
        .iter()
        .filter(|r| r.reason.kind.always_unresolvable())
        .map(|r| r.count)
        .sum();
    let not_helpful = pre.map_or(0, Preemption::not_helpful);
    let surplus = not_helpful.saturating_sub(unresolvable).min(n);
    let (lo, _) = m.versions();
    if surplus > 0 {
        let what = if native {
            format!("the pod asks for more {res} than the node's whole allocatable")
        } else {
            format!(
                "{res} is not advertised there (allocatable 0 or absent: device plugin not running or not registered) or the node has fewer {res} in total than the pod asks"
            )
        };
        return Explained::new(
            format!(
                "{n} of {} nodes lack {res}; on {surplus} of them preemption is not helpful, so the request is above the node's whole allocatable {res}: {what}; evicting pods cannot help",
                m.nodes
            ),
            if native {
                format!("lower the pod's {res} request to what a node offers, or add a larger node")
            } else {
                format!(
                    "check what the nodes advertise: `{}`; a node showing <none> has no {res}: check its device plugin pod and log",
                    nodes_command(res)
                )
            },
        );
    }
    if lo >= 34 && pre.is_some_and(|p| p.no_victims() >= n) {
        return Explained::new(
            format!(
                "{n} of {} nodes lack free {res}: they do advertise enough {res} in total (v1.34+ marks a request above a node's whole allocatable as not helpful), but it is allocated to running pods{}",
                m.nodes,
                priority_note(pre)
            ),
            format!(
                "free {res} on a node (finish or scale down a pod holding it), give this pod a higher PriorityClass so it may preempt lower-priority pods, or add nodes with {res}"
            ),
        );
    }
    if native {
        return Explained::new(
            format!(
                "{n} of {} nodes lack free {res}: what they have is allocated to running pods{}, or the pod asks for more than a node has",
                m.nodes,
                priority_note(pre)
            ),
            format!(
                "compare the pod's {res} request with the nodes' free {res} (`kubectl describe nodes`, \"Allocated resources\"); lower the request, free capacity, or add nodes"
            ),
        );
    }
    Explained::new(
        format!(
            "{n} of {} nodes report Insufficient {res}; the message alone cannot tell why: (1) every {res} is allocated to running pods{}, (2) no node advertises allocatable {res} (device plugin not running or not registered), or (3) the pod asks for more {res} than any one node has{}",
            m.nodes,
            priority_note(pre),
            pre.and_then(preemption_reading)
                .map(|r| format!(". Preemption's own reading: {r}"))
                .unwrap_or_default()
        ),
        format!(
            "tell them apart with `{}`: <none> or 0 = never advertised (check the device plugin on the node); a number = compare with the {res} requested on that node (`kubectl describe node <node>`, \"Allocated resources\")",
            nodes_command(res)
        ),
    )
}

fn explain_with_nodes(
    ctx: &Context<'_>,
    m: &SchedulerMessage,
    res: &str,
    n: usize,
    want: Option<i64>,
    pod: Option<usize>,
) -> Explained {
    let snap = ctx.snapshot();
    let max_nodes = ctx.thresholds().max_nodes_in_evidence;
    // when the message excludes nodes by the pod's nodeSelector / node affinity and the input
    // has the pod, only the nodes it selects can hold it: a node the selector excludes that has
    // the resource free is no answer (super::accounting)
    let selects = |node: &cube_model::objects::Node| {
        pod.is_none_or(|i| {
            m.count(ReasonKind::NodeAffinity) == 0
                || cube_model::selector::pod_matches_node_selector_and_affinity(
                    &ctx.pod(i).spec,
                    node,
                )
        })
    };
    let selected: Vec<&cube_model::objects::Node> =
        match snap.nodes.iter().filter(|n| selects(n)).collect::<Vec<_>>() {
            v if v.is_empty() => snap.nodes.iter().collect(),
            v => v,
        };
    struct Row<'a> {
        node: &'a str,
        alloc: i64,
        cap: i64,
        used: i64,
        holders: Vec<(String, i64)>,
    }
    let restricted = selected.len() < snap.nodes.len();
    let mut rows: Vec<Row<'_>> = Vec::new();
    for node in selected {
        let name = node.metadata.name.as_str();
        let cap = amount(&node.status.capacity, res);
        let alloc = if node.status.allocatable.is_empty() {
            cap
        } else {
            amount(&node.status.allocatable, res)
        };
        let mut used = 0;
        let mut holders = Vec::new();
        for &i in ctx.pods_on_node(name) {
            let p = ctx.pod(i);
            if ctx.pod_finished(p) {
                continue;
            }
            let r = effective_amount(ctx, i, res);
            if r > 0 {
                used += r;
                holders.push((p.key(), r));
            }
        }
        // `describe node`'s Allocated resources total (its pod rows show no GPU requests)
        if let Some(shown) = cube_model::describe::allocated_requests(&node.metadata)
            .and_then(|l| l.get(res).map(cube_model::Quantity::value))
            && shown > used
        {
            used = shown;
        }
        rows.push(Row {
            node: name,
            alloc,
            cap,
            used,
            holders,
        });
    }
    let field = |r: &Row<'_>, path: &str, v: i64| {
        Evidence::field(
            obj("Node", "", r.node),
            format!("status.{path}.{res}"),
            show(res, v),
        )
    };
    // the nodes' allocatable of `res` shown absent (at most `max_nodes` of them)
    let absent = |rows: &[Row<'_>]| -> Vec<Evidence> {
        rows.iter()
            .take(max_nodes)
            .map(|r| {
                Evidence::field(
                    obj("Node", "", r.node),
                    format!("status.allocatable.{res}"),
                    "<absent>",
                )
            })
            .collect()
    };
    let advertising: Vec<&Row<'_>> = rows.iter().filter(|r| r.alloc > 0).collect();
    if advertising.is_empty() {
        let cap_only: Vec<&Row<'_>> = rows.iter().filter(|r| r.cap > 0).collect();
        if !cap_only.is_empty() {
            let names: Vec<&str> = cap_only.iter().map(|r| r.node).take(max_nodes).collect();
            let mut e = Explained::new(
                format!(
                    "{res} is in the capacity of {} but allocatable is 0: the device plugin reports the devices unhealthy (or they are reserved), so none can be scheduled",
                    names.join(", ")
                ),
                format!(
                    "check the device plugin log on {} for unhealthy devices (XID errors, `nvidia-smi` on the node) and restart the plugin once they are healthy",
                    names.join(", ")
                ),
            );
            e.evidence = cap_only
                .iter()
                .take(max_nodes)
                .flat_map(|r| {
                    [
                        field(r, "capacity", r.cap),
                        field(r, "allocatable", r.alloc),
                    ]
                })
                .collect();
            return e;
        }
        // the scheduler counted nodes the input does not show: the ones reporting Insufficient
        // may be among them (a describe of the tainted control-plane node alone)
        if m.nodes > snap.nodes.len() {
            let mut e = Explained::new(
                format!(
                    "none of the {} node(s) in the input advertises {res}, but the scheduler counted {} nodes: the {n} reporting Insufficient {res} may be nodes the input does not show, so whether {res} is never advertised or all in use there cannot be told from it",
                    snap.nodes.len(),
                    m.nodes
                ),
                format!(
                    "tell them apart with `{}` on the whole cluster: <none> or 0 = never advertised (check the device plugin on those nodes); a number = compare with the {res} requested there (`kubectl describe node <node>`, \"Allocated resources\")",
                    nodes_command(res)
                ),
            );
            e.evidence = absent(&rows);
            return e;
        }
        let mut e = Explained::new(
            format!(
                "no node advertises allocatable {res} ({} node(s) in the snapshot{}, none with {res} above 0 in capacity or allocatable): {res} was never advertised (or registered at 0), so the pod cannot fit until the device plugin registers it",
                rows.len(),
                if restricted {
                    " that the pod's nodeSelector / node affinity admits"
                } else {
                    ""
                }
            ),
            if res.contains('/') {
                format!(
                    "run the {res} device plugin on the GPU nodes and check its pod and log (`kubectl get pods -A -o wide | grep -i -e device-plugin -e gpu-operator`); a node's allocatable must show {res}"
                )
            } else {
                format!("the nodes report no {res} at all: check the kubelet's node status")
            },
        );
        e.evidence = absent(&rows);
        return e;
    }
    // devices in capacity that the plugin reports unhealthy (capacity above allocatable)
    let unhealthy: Vec<String> = advertising
        .iter()
        .filter(|r| r.cap > r.alloc)
        .take(max_nodes)
        .map(|r| {
            format!(
                "{}: capacity {}, allocatable {} ({} device(s) reported unhealthy)",
                r.node,
                show(res, r.cap),
                show(res, r.alloc),
                r.cap - r.alloc
            )
        })
        .collect();
    let unhealthy_note = if unhealthy.is_empty() {
        String::new()
    } else {
        format!(
            "; capacity shows more than can be scheduled because the device plugin reports devices unhealthy ({}; see gpu-not-advertised)",
            unhealthy.join(", ")
        )
    };
    let largest = advertising.iter().map(|r| r.alloc).max().unwrap_or(0);
    if let Some(w) = want
        && w > largest
    {
        let mut e = Explained::new(
            format!(
                "the pod asks for {} {res} but the largest node offers {} allocatable: no node can ever hold it{unhealthy_note}",
                show(res, w),
                show(res, largest)
            ),
            format!(
                "request at most {} {res} per pod (split the work), or add a node with at least {} {res}",
                show(res, largest),
                show(res, w)
            ),
        );
        e.evidence = advertising
            .iter()
            .take(max_nodes)
            .map(|r| field(r, "allocatable", r.alloc))
            .collect();
        return e;
    }
    let need = want.unwrap_or(1);
    let free = |r: &Row<'_>| (r.alloc - r.used).max(0);
    let total_free: i64 = advertising.iter().map(|r| free(r)).sum();
    let best = advertising.iter().map(|r| free(r)).max().unwrap_or(0);
    let pre = m.preemption.as_ref();
    // the input shows no pod bound to any node (a pod's describe and a node excerpt, no node's
    // `Non-terminated Pods`): what the nodes have in use is unknown, not zero
    let usage_unknown = !snap.pods.iter().any(|p| !p.spec.node_name.is_empty())
        && !snap
            .nodes
            .iter()
            .any(|n| cube_model::describe::allocated_requests(&n.metadata).is_some());
    if best >= need && usage_unknown {
        let offers: Vec<String> = advertising
            .iter()
            .take(max_nodes)
            .map(|r| format!("{}: {}", r.node, show(res, r.alloc)))
            .collect();
        let mut e = Explained::new(
            format!(
                "the pod asks for {} {res} (allocatable {res} of the node(s): {}), but the input does not show the pods already running there, and the scheduler found less than that free (allocatable minus the requests of the pods on the node) on {n} node(s){unhealthy_note}",
                show(res, need),
                offers.join(", ")
            ),
            format!(
                "`kubectl describe nodes` (Allocated resources, Non-terminated Pods) shows what is in use: free {res} on a node (delete or move pods), lower the pod's {res} request, or add a node (on a one-node development VM, start it with more {res})"
            ),
        );
        e.evidence = advertising
            .iter()
            .take(max_nodes)
            .map(|r| field(r, "allocatable", r.alloc))
            .collect();
        return e;
    }
    if best >= need {
        let node = advertising
            .iter()
            .find(|r| free(r) >= need)
            .map_or("", |r| r.node);
        return Explained::new(
            format!(
                "{res} is free now on {node} ({} free): the scheduler's message predates the snapshot's state or another filter excludes that node",
                show(res, best)
            ),
            "re-check with `kubectl describe pod` for a newer FailedScheduling event; if one still says Insufficient, compare its node counts with `kubectl describe node`",
        );
    }
    let alloc_total: i64 = advertising.iter().map(|r| r.alloc).sum();
    let used_total: i64 = advertising.iter().map(|r| r.used).sum();
    let mut holders: Vec<(String, i64)> = advertising
        .iter()
        .flat_map(|r| r.holders.iter().cloned())
        .collect();
    holders.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let names: Vec<String> = holders
        .iter()
        .take(max_nodes)
        .map(|(p, v)| format!("{p} ({})", show(res, *v)))
        .collect();
    let mut e = if total_free >= need && need > 1 {
        Explained::new(
            format!(
                "fragmented: {} {res} free in total on {} advertising node(s) but at most {} on one node, {} requested",
                show(res, total_free),
                advertising.len(),
                show(res, best),
                show(res, need)
            ),
            format!(
                "free a whole block of {} {res} on one node (move or stop the pods holding it: {}), or lower the request",
                show(res, need),
                names.join(", ")
            ),
        )
    } else {
        Explained::new(
            format!(
                "{res} is advertised but all in use: {} of {} allocatable on {} node(s) are requested by bound pods{} ({}){unhealthy_note}",
                show(res, used_total),
                show(res, alloc_total),
                advertising.len(),
                priority_note(pre),
                if names.is_empty() {
                    "the pods are not in the input; describe node's Allocated resources shows the total".to_owned()
                } else {
                    names.join(", ")
                }
            ),
            format!(
                "{}free {res} on a node (finish or scale down a holder{}), give this pod a higher PriorityClass so it may preempt lower-priority pods, or add nodes with {res}",
                if unhealthy.is_empty() {
                    ""
                } else {
                    "bring the unhealthy devices back (the device-plugin log and `dmesg | grep -i xid` on the node; reset the GPU or reboot, then restart the plugin pod), "
                },
                if names.is_empty() {
                    String::new()
                } else {
                    format!(": {}", names.join(", "))
                }
            ),
        )
    };
    let _ = n;
    e.evidence = advertising
        .iter()
        .take(max_nodes)
        .flat_map(|r| {
            [
                field(r, "allocatable", r.alloc),
                Evidence::field(
                    obj("Node", "", r.node),
                    format!("requested.{res}"),
                    show(res, r.used),
                ),
            ]
        })
        .collect();
    e
}

/// The ResourceClaim a DynamicResources text names (`resource claim default/single-gpu is ...`,
/// `resourceclaim "gpu" not found`, `resourceclaim must be reallocated`).
fn claim_named(p: &str) -> Option<String> {
    for key in ["resource claim ", "resourceclaim ", "ResourceClaim "] {
        if let Some(at) = p.find(key) {
            let name: String = p[at + key.len()..]
                .trim_start_matches(['"', '\''])
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | ',' | ':'))
                .collect();
            if !name.is_empty() && !matches!(name.as_str(), "in" | "must" | "not" | "is") {
                return Some(name);
            }
        }
    }
    None
}

/// A DynamicResources (DRA) PreFilter rejection explained: the plugin checks the pod's
/// ResourceClaims before any node (kubernetes `pkg/scheduler/framework/plugins/dynamicresources/
/// dynamicresources.go` PreFilter, v1.26-v1.36: `resource claim %s is in the process of being
/// allocated` (its allocation by another pod's scheduling cycle is in flight,
/// `inFlightAllocations`), `resourceclaim in use`, `resourceclaim must be reallocated`,
/// `unallocated immediate resourceclaim`, `resourceclaim %q is being deleted`, `resource class
/// %s does not exist` (v1.26-v1.30; `device class` since the structured API), `claim parameters
/// %s not found`, `class parameters %s not found`, a claim `not found`).
fn dra_prefilter(p: &str) -> Option<Explained> {
    let l = p.to_ascii_lowercase();
    if !(l.contains("resourceclaim")
        || l.contains("resource claim")
        || l.contains("resource class")
        || l.contains("device class")
        || l.contains("claim parameters")
        || l.contains("class parameters")
        || l.contains("waiting for resource driver"))
    {
        return None;
    }
    let named = claim_named(p);
    let claim = named.clone().unwrap_or_else(|| "<claim>".to_owned());
    let (ns, name) = claim.split_once('/').unwrap_or(("", claim.as_str()));
    let get = if ns.is_empty() {
        format!("kubectl get resourceclaim {name} -o yaml")
    } else {
        format!("kubectl get resourceclaim -n {ns} {name} -o yaml")
    };
    let (cause, remedy) = if l.contains("waiting for dynamic resource controller") {
        // PreFilter found no claim for a pod's resourceClaimTemplateName entry (v1.26+:
        // `waiting for dynamic resource controller to create the resourceclaim %q`): normal
        // for a moment after the pod is created; repeated, the resourceclaim controller of
        // kube-controller-manager does not create it
        (
            format!(
                "the ResourceClaim {claim} (DRA) that the pod's ResourceClaimTemplate should produce does not exist yet: the resourceclaim controller in kube-controller-manager has not created it. Right after the pod is created this passes by itself; when it repeats, kube-controller-manager runs without DRA (the DynamicResourceAllocation feature gate off there before v1.34 while the scheduler has it on), the ResourceClaimTemplate the pod names does not exist in its namespace, or the controller cannot create the claim (its log says why)"
            ),
            format!(
                "`kubectl get resourceclaimtemplates -n {}` must list the template the pod names (spec.resourceClaims[].resourceClaimTemplateName); check kube-controller-manager's --feature-gates (DynamicResourceAllocation=true before v1.34) and its log for resource-claim-controller errors; the pod's status.resourceClaimStatuses shows the claim once created",
                if ns.is_empty() { "<namespace>" } else { ns }
            ),
        )
    } else if l.contains("in the process of being allocated") {
        (
            format!(
                "its ResourceClaim {claim} (DRA) is shared with another pod whose scheduling cycle is allocating it right now, so this pod waits until that allocation is written (DynamicResources PreFilter). It resolves by itself unless the pods must be placed together: with gang scheduling (a PodGroup, Kueue / coscheduling, the Workload API) every pod waits on the others' claim and none is ever bound (kubernetes#137617)"
            ),
            format!(
                "give each pod its own claim: reference a ResourceClaimTemplate (`spec.resourceClaims[].resourceClaimTemplateName`) instead of the shared `resourceClaimName` {claim}, or do not gang-schedule pods that share one claim; `{get}` shows status.allocation and status.reservedFor"
            ),
        )
    } else if l.contains("is being deleted") {
        (
            format!("its ResourceClaim {claim} (DRA) is being deleted, so the pod cannot use it"),
            format!(
                "wait for the deletion to finish and re-create the claim (or let its ResourceClaimTemplate create a new one): `{get}`"
            ),
        )
    } else if l.contains("in use") {
        (
            format!(
                "its ResourceClaim {claim} (DRA) is allocated and reserved for other pods and cannot take more (a claim is reserved for at most 256 pods; one not shareable serves one)"
            ),
            format!(
                "wait for the pods holding it to finish, or give this pod its own claim through a ResourceClaimTemplate; `{get}` shows status.reservedFor"
            ),
        )
    } else if l.contains("must be reallocated") {
        (
            format!(
                "its ResourceClaim {claim} (DRA, classic control-plane allocation) waits for its driver to deallocate it before it can be allocated again"
            ),
            format!("check the DRA driver's controller log; `{get}` shows deallocationRequested"),
        )
    } else if l.contains("unallocated immediate") || l.contains("waiting for resource driver") {
        (
            format!("its ResourceClaim{} (DRA, classic allocation with a control-plane controller, resource.k8s.io/v1alpha2, Kubernetes 1.26-1.31) has not been allocated by its resource driver: the scheduler picked candidate nodes (PodSchedulingContext) and waits for the driver's controller, which does not allocate it (not deployed, not running, or not serving the claim's ResourceClass driverName); this is not a node resource shortage or a device plugin", named.as_ref().map(|c| format!(" {c}")).unwrap_or_default()),
            "check that the DRA driver's controller runs and read its log (`kubectl get pods -A | grep -i dra`; the ResourceClass's driverName must be the driver it serves: `kubectl get resourceclass -o yaml`), then `kubectl get resourceclaims -A` shows the claims' allocation state and `kubectl get podschedulingcontexts -A -o yaml` the nodes the scheduler offered; from Kubernetes 1.32 classic DRA is removed: use a structured-parameters driver (ResourceSlices, DeviceClasses)".to_owned(),
        )
    } else if l.contains("class") && l.contains("does not exist") {
        (
            format!("the class its ResourceClaim asks for does not exist ('{p}'): the DRA driver that provides it is not installed, or the claim names the class wrongly"),
            "`kubectl get deviceclasses` (resourceclasses before v1.31) lists the classes: install the DRA driver that creates the class, or fix deviceClassName in the claim or its template".to_owned(),
        )
    } else if l.contains("parameters") && l.contains("not found") {
        (
            format!(
                "the parameters object of the pod's ResourceClaim or its class does not exist ('{p}')"
            ),
            "create the referenced parameters object or fix parametersRef in the claim / class"
                .to_owned(),
        )
    } else if l.contains("not found") {
        (
            format!(
                "its ResourceClaim {claim} (DRA) does not exist: no node is considered until it does"
            ),
            format!(
                "create the claim {claim}, or reference a ResourceClaimTemplate so one is created per pod (the resourceclaim controller in kube-controller-manager must run)"
            ),
        )
    } else {
        (
            format!("the DRA plugin rejects the pod before any node is considered: {p}"),
            format!("`{get}` and the DRA driver's log show the claim's state"),
        )
    };
    Some(Explained::new(cause, remedy))
}

/// No resource shortage: the reasons that block the pod (see [`blocking`]), each with its
/// remedy; when every reason only selects nodes, the most frequent one.
fn explain_other(ctx: &Context<'_>, m: &SchedulerMessage) -> Explained {
    let top = m
        .reasons
        .iter()
        .max_by_key(|r| r.count)
        .map(|r| (r.count, r.reason.kind, r.reason.text.as_str()));
    let Some((_, _, _)) = top else {
        if let Some(p) = &m.prefilter {
            if let Some(e) = dra_prefilter(p) {
                return e;
            }
            // an out-of-tree plugin's PreFilter (coscheduling)
            if let Some((cause, remedy)) = super::extender::prefilter(p) {
                return Explained::new(cause, remedy);
            }
            return Explained::new(
                format!("rejected before any node was considered: {p}"),
                "fix what the PreFilter message names, then check `kubectl describe pod` again",
            );
        }
        if m.dialect == schedmsg::Dialect::Volcano {
            return Explained::new(
                "Volcano tried no node for the pod ('all nodes are unavailable'): its PodGroup is not ready to be scheduled (gang minAvailable not met, or its queue has no capacity left)",
                "`kubectl describe podgroup -n <namespace> <podgroup>` (its events say which) and `kubectl get queue <queue> -o yaml` (capability and allocated)",
            );
        }
        if m.dialect == schedmsg::Dialect::LegacyKubeScheduler {
            return Explained::new(
                "this scheduler version names no reason in the sentence itself (Kubernetes 1.2-1.4 print one `fit failure on node (<node>): <reasons>` line per node after it, 1.5 a `fit failure summary on nodes : <reason> (<count>), ...` line): not enough cpu, memory or an extended resource such as nvidia.com/gpu, a nodeSelector no node matches, a taint, or a host port in use remain",
                "`kubectl describe pod <pod>` shows the `fit failure` lines below the event; `kubectl describe nodes | grep -A6 'Allocated resources'` and `kubectl get nodes --show-labels` tell resources from selectors; on a one-node development VM (minikube, minishift) the VM's CPUs and memory are the whole cluster's: start it with more (`minikube start --cpus 4 --memory 8g`, `minishift start --cpus 4 --memory 8GB`) or lower the pods' requests",
            );
        }
        if m.nodes == 0 {
            return Explained::new(
                "the cluster has no nodes the scheduler can use",
                "add or register nodes (`kubectl get nodes`)",
            );
        }
        return Explained::new(
            "no node passes the scheduler's filters",
            "read the reasons in `kubectl describe pod` and address the most frequent one",
        );
    };
    let parts: Vec<blocking::Part> = m
        .reasons
        .iter()
        .map(|r| blocking::part(r, m.nodes))
        .collect();
    let mut blocks: Vec<&blocking::Part> = parts
        .iter()
        .filter(|p| p.role == blocking::Role::Blocks)
        .collect();
    blocks.sort_by_key(|p| std::cmp::Reverse(p.count));
    let excludes: Vec<&blocking::Part> = parts
        .iter()
        .filter(|p| p.role == blocking::Role::Excludes)
        .collect();
    if blocks.is_empty() {
        // every reason only selects nodes: the most frequent one, and the others named
        let mut all: Vec<&blocking::Part> = parts.iter().collect();
        all.sort_by_key(|p| std::cmp::Reverse(p.count));
        let cause = all
            .iter()
            .map(|p| p.cause.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        let mut remedies: Vec<&str> = Vec::new();
        for p in &all {
            if !remedies.contains(&p.remedy.as_str()) {
                remedies.push(&p.remedy);
            }
        }
        return Explained::new(cause, remedies.join("; "));
    }
    let mut cause = blocks
        .iter()
        .map(|p| p.cause.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    if !excludes.is_empty() {
        let n: usize = excludes.iter().map(|p| p.count).sum();
        cause.push_str(&format!(
            " (the other {n} node(s) are excluded by node selection, purposeful taints or cordons: {}; these keep the pod off nodes it is not meant for and are not what blocks it)",
            excludes
                .iter()
                .map(|p| p.cause.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let mut remedies: Vec<&str> = Vec::new();
    for p in &blocks {
        if !remedies.contains(&p.remedy.as_str()) {
            remedies.push(&p.remedy);
        }
    }
    if let Some(c) = excludes
        .iter()
        .find(|p| p.cause.contains("are cordoned (spec.unschedulable)"))
    {
        remedies.push(&c.remedy);
    }
    let mut e = Explained::new(cause, remedies.join("; "));
    if blocks.iter().any(|p| p.cause.contains("maximum pod count")) {
        e.evidence = max_pods_evidence(ctx);
    }
    e
}

/// For a fit computed from the snapshot (as a message in v1.34 wording, which names each node's
/// first untolerated taint): the causes
/// and remedies of the reasons that block the pod other than a resource shortage (a node at
/// its pod count, a condition taint, spread, ports, ...), when there are any, so that the
/// computed explanation gives their remedy too (never a toleration for a condition taint).
pub(super) fn blocking_note(m: &SchedulerMessage) -> Option<(String, String)> {
    let parts: Vec<blocking::Part> = m
        .reasons
        .iter()
        .filter(|r| {
            r.reason.kind != ReasonKind::Insufficient || r.reason.resource() == Some("pods")
        })
        .map(|r| blocking::part(r, m.nodes))
        .filter(|p| p.role == blocking::Role::Blocks)
        .collect();
    if parts.is_empty() {
        return None;
    }
    let mut remedies: Vec<&str> = Vec::new();
    for p in &parts {
        if !remedies.contains(&p.remedy.as_str()) {
            remedies.push(&p.remedy);
        }
    }
    Some((
        parts
            .iter()
            .map(|p| p.cause.as_str())
            .collect::<Vec<_>>()
            .join("; "),
        remedies.join("; "),
    ))
}

/// Each node's allocatable `pods` and the pods bound to it, when the snapshot has nodes.
fn max_pods_evidence(ctx: &Context<'_>) -> Vec<Evidence> {
    let max_nodes = ctx.thresholds().max_nodes_in_evidence;
    ctx.snapshot()
        .nodes
        .iter()
        .filter_map(|n| {
            let alloc = n
                .status
                .allocatable
                .get("pods")
                .or_else(|| n.status.capacity.get("pods"))?;
            let bound = ctx
                .pods_on_node(&n.metadata.name)
                .iter()
                .filter(|&&i| !ctx.pod_finished(ctx.pod(i)))
                .count();
            Some(Evidence::field(
                obj("Node", "", &n.metadata.name),
                "status.allocatable.pods (pods bound in the input)",
                format!("{} ({bound})", alloc.value()),
            ))
        })
        .take(max_nodes)
        .collect()
}
