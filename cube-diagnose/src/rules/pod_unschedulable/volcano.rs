//! Volcano's job FitError read with its own grammar, and the PodGroup facts pasted with it.
//!
//! volcano-sh/volcano `pkg/scheduler/api/job_info.go` (`JobInfo.FitError`) prints
//! `pod group is not ready, <status histogram>; Pending: <reason histogram>[. Origin reason is
//! <task>: <FitErrors>]`: the status histogram counts the job's tasks per status (`Pending`,
//! `Running`, `Bound`, ...) plus `<n> minAvailable`, the reason histogram counts the pending
//! tasks per scheduling reason (`Unschedulable`, `Schedulable`, `Undetermined`; from
//! `TaskSchedulingReason`), entries sorted as strings and joined by `, `. The 2019 releases
//! said `job is not ready, ...`. The gang plugin prefixes `<n>/<m> tasks in gang
//! unschedulable: ` (PodGroup event and condition, `pkg/scheduler/plugins/gang/gang.go`,
//! `pkg/scheduler/cache/cache.go` RecordJobStatusEvent); the pods' own events and PodScheduled
//! condition carry the bare text.
//!
//! What the structure proves: without an `Origin reason` no task was tried on a node in the
//! last session, so the PodGroup is either not enqueued (phase `Pending`: the queue's
//! capability / deserved share, the overcommit plugin or a namespace ResourceQuota refused it
//! at enqueue) or enqueued (`Inqueue`) with a gang that does not fit the nodes' idle resources
//! together (the gang plugin's condition reason `NotEnoughResources`). A PodGroup `Phase:` and
//! condition `Reason:` in the same input decide between them
//! (`staging/src/volcano.sh/apis/pkg/apis/scheduling/v1beta1/types.go`: `NotEnoughResources`,
//! `NotEnoughTasks`, `NotEnoughPodsOfTask`).

use crate::Context;
use crate::classify::Signal;

/// Catalog entries whose text carries a job FitError.
pub(super) const FIT_ERROR_ENTRIES: &[&str] = &[
    "volcano.gang-unschedulable",
    "volcano.pod-group-not-ready",
    "volcano.job-not-ready-legacy",
];

/// A parsed job FitError.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct FitError {
    /// `(count, status)` of the job's tasks (`minAvailable` excluded).
    pub statuses: Vec<(usize, String)>,
    /// The PodGroup's minAvailable.
    pub min_available: Option<usize>,
    /// `(count, reason)` of the pending tasks.
    pub pending: Vec<(usize, String)>,
    /// The first failing task's node reasons (`Origin reason is ...`).
    pub origin: Option<String>,
}

impl FitError {
    /// Parses the text after `is not ready, ` (anywhere in `line`); `None` without it.
    pub fn parse(line: &str) -> Option<FitError> {
        let at = line.find(" is not ready, ")?;
        let mut rest = &line[at + " is not ready, ".len()..];
        // a describe table or a custom-columns row may follow
        if let Some(cut) = rest.find("   ").into_iter().chain(rest.find('\t')).min() {
            rest = &rest[..cut];
        }
        let mut out = FitError::default();
        if let Some(p) = rest.find(". Origin reason is") {
            out.origin = Some(
                rest[p + ". Origin reason is".len()..]
                    .trim_start_matches(':')
                    .trim()
                    .to_owned(),
            );
            rest = &rest[..p];
        }
        let rest = rest.trim().trim_end_matches(['.', '"', '\'', '`']).trim();
        let (statuses, pending) = match rest.split_once("; ") {
            Some((a, b)) => (a, Some(b)),
            None => (rest, None),
        };
        for (n, what) in histogram(statuses) {
            if what == "minAvailable" {
                out.min_available = Some(n);
            } else {
                out.statuses.push((n, what));
            }
        }
        if let Some(p) = pending {
            let p = p.split_once(": ").map_or(
                p,
                |(head, tail)| if head.trim() == "Pending" { tail } else { p },
            );
            out.pending = histogram(p);
        }
        (out.min_available.is_some() || !out.statuses.is_empty()).then_some(out)
    }

    /// Tasks of the job (every status).
    pub fn tasks(&self) -> usize {
        self.statuses.iter().map(|(n, _)| n).sum()
    }

    fn count(list: &[(usize, String)], what: &str) -> usize {
        list.iter()
            .filter(|(_, w)| w.eq_ignore_ascii_case(what))
            .map(|(n, _)| n)
            .sum()
    }
}

/// `<n> <word>, <n> <word>`.
fn histogram(text: &str) -> Vec<(usize, String)> {
    text.split(", ")
        .filter_map(|item| {
            let (n, w) = item.trim().split_once(' ')?;
            Some((n.parse().ok()?, w.trim().to_owned()))
        })
        .collect()
}

/// PodGroup facts found in the same input (a `kubectl describe podgroup` or `-o yaml`).
#[derive(Debug, Default)]
struct PodGroupFacts {
    /// `Phase:` / `phase:` of the PodGroup status (`Pending`, `Inqueue`, `Running`, ...).
    phase: Option<String>,
    /// The Unschedulable condition's reason (`NotEnoughResources`, ...).
    reason: Option<String>,
    /// `spec.queue` (`Queue:` in `describe`).
    queue: Option<String>,
    /// `spec.minResources` as `(resource, quantity)` (`Min Resources:` in `describe`).
    min_resources: Vec<(String, String)>,
    /// The PodGroup's `Name:` / `Namespace:` in `describe` (or `name:` / `namespace:` under
    /// `metadata:`).
    name: Option<(String, String)>,
}

fn podgroup_facts(ctx: &Context<'_>, source: &str) -> PodGroupFacts {
    let mut f = PodGroupFacts::default();
    for log in ctx.logs().iter().filter(|l| l.source == source) {
        // the PodGroup's own block: from a `Kind: PodGroup` (describe) or `kind: PodGroup`
        let mut in_pg = false;
        let mut in_min: Option<usize> = None;
        let (mut name, mut ns) = (String::new(), String::new());
        for line in log.text.lines() {
            let t = line.trim().trim_start_matches('-').trim();
            let ind = line.len() - line.trim_start().len();
            if let Some(d) = in_min {
                if ind > d
                    && let Some((k, v)) = t.split_once(':')
                    && !v.trim().is_empty()
                {
                    let k = k.trim();
                    let k = if k.contains('/') {
                        k.to_owned()
                    } else {
                        k.to_ascii_lowercase()
                    };
                    f.min_resources
                        .push((k, v.trim().trim_matches(['"', '\'']).to_owned()));
                    continue;
                }
                in_min = None;
            }
            let Some((key, value)) = t.split_once(':') else {
                continue;
            };
            let value = value.trim().trim_matches('"');
            match key.trim() {
                "Name" | "name" if ind <= 2 && !value.is_empty() => {
                    name = value.to_owned();
                    if in_pg {
                        f.name = Some((ns.clone(), name.clone()));
                    }
                }
                "Namespace" | "namespace" if ind <= 2 => {
                    ns = value.to_owned();
                    if in_pg && !name.is_empty() {
                        f.name = Some((ns.clone(), name.clone()));
                    }
                }
                "Kind" | "kind" => {
                    in_pg = value == "PodGroup";
                    if in_pg && !name.is_empty() {
                        f.name = Some((ns.clone(), name.clone()));
                    }
                }
                "Queue" | "queue" if !value.is_empty() && (in_pg || f.queue.is_none()) => {
                    f.queue = Some(value.to_owned());
                }
                "Min Resources" | "minResources" if value.is_empty() => {
                    f.min_resources.clear();
                    in_min = Some(ind);
                }
                _ => {}
            }
            match key.trim() {
                "Phase" | "phase"
                    if matches!(value, "Pending" | "Inqueue" | "Running" | "Unknown") =>
                {
                    f.phase = Some(value.to_owned());
                }
                "Reason" | "reason"
                    if matches!(
                        value,
                        "NotEnoughResources" | "NotEnoughTasks" | "NotEnoughPodsOfTask"
                    ) =>
                {
                    f.reason = Some(value.to_owned());
                }
                _ => {}
            }
        }
    }
    f
}

/// A quantity for comparisons (`None` when it does not parse).
fn qty(v: &str) -> Option<cube_model::Quantity> {
    v.parse().ok()
}

/// The cause, remedy and severity of Volcano's enqueue refusal `queue resource quota
/// insufficient[: insufficient <res>, ...]` (proportion and capacity plugins'
/// `JobEnqueueableFn`; the resource list since v1.13, `util.FormatResourceNames`) read with the
/// queue and PodGroup of the same input, and the nodes of the snapshot.
///
/// How an omitted resource of `spec.capability` is treated (volcano-sh/volcano
/// `pkg/scheduler/plugins/proportion/proportion.go`, `capacity/capacity.go`,
/// `pkg/scheduler/api/helpers/helpers.go`, `pkg/scheduler/api/resource_info.go`):
/// - before v1.9 the proportion plugin's realCapability is `helpers.Min(total - guarantees +
///   guarantee, capability)`: when the capability names no extended resource at all the
///   result has none and the enqueue check (`LessEqual(.., Infinity)`) does not limit them;
///   when it names some, every extended resource it omits gets `min(total, 0) = 0`, so any
///   job asking for it is refused for ever;
/// - from v1.9 (proportion and the new capacity plugin) `MinDimensionResource(capability,
///   Infinity)`: an omitted resource is not capped by the capability, and the queue may take
///   the cluster's total of it minus the other queues' guarantees; a refusal naming it then
///   means the nodes' allocatable total (less guarantees and what is allocated or Inqueue) is
///   below the job's minResources, for instance nodes that do not advertise it;
/// - the capacity plugin's child queues (hierarchical queues, v1.10+) inherit each omitted
///   resource from the parent's capability.
pub(super) fn explain_queue(
    ctx: &Context<'_>,
    s: &Signal,
) -> Option<(String, String, crate::Severity, Option<crate::Subject>)> {
    use crate::classify::SignalKind;
    use crate::classify::volcano_queue::split;
    let facts = podgroup_facts(ctx, &s.source);
    let queues: Vec<&Signal> = ctx
        .signals()
        .iter()
        .filter(|q| q.kind == SignalKind::VolcanoQueue)
        .collect();
    // the resources the event names (v1.13+), else the PodGroup's minResources
    let named: Vec<String> = s
        .text
        .split_once("insufficient:")
        .or_else(|| s.text.split_once(": insufficient "))
        .map(|(_, r)| {
            // `insufficient <res>, insufficient <res>` (util.FormatResourceNames)
            r.split(',')
                .map(|x| {
                    let x = x.trim();
                    x.strip_prefix("insufficient ")
                        .unwrap_or(x)
                        .trim()
                        .trim_end_matches(['.', '"'])
                        .to_owned()
                })
                .filter(|x| !x.is_empty() && !x.contains(' '))
                .collect()
        })
        .unwrap_or_default();
    let queue = match &facts.queue {
        Some(name) => queues
            .iter()
            .find(|q| q.detail("queue") == name.as_str())
            .copied(),
        None if queues.len() == 1 => Some(queues[0]),
        None => None,
    };
    let queue_name = facts
        .queue
        .clone()
        .or_else(|| queue.map(|q| q.detail("queue").to_owned()));
    if queue.is_none() && named.is_empty() && queue_name.is_none() {
        return None;
    }
    let qn = queue_name.clone().unwrap_or_else(|| "<queue>".to_owned());
    let subject = facts
        .name
        .as_ref()
        .map(|(ns, n)| crate::Subject::namespaced("PodGroup", ns, n));
    let capability = queue
        .map(|q| split(q.detail("capability")))
        .unwrap_or_default();
    let allocated = queue
        .map(|q| split(q.detail("allocated")))
        .unwrap_or_default();
    let guarantee = queue
        .map(|q| split(q.detail("guarantee")))
        .unwrap_or_default();
    let mut resources: Vec<String> = named.clone();
    if resources.is_empty() {
        for (r, v) in &facts.min_resources {
            // quota-style names (`count/pods`, `requests.cpu`) are not queue resources
            // (NewResource skips IsCountQuota names)
            let l = r.to_ascii_lowercase();
            if l.starts_with("count/") || l.starts_with("requests.") || l.starts_with("limits.") {
                continue;
            }
            if qty(v).is_some_and(|q| !q.is_zero()) && !resources.contains(r) {
                resources.push(r.clone());
            }
        }
    }
    let has_extended = capability.iter().any(|(r, _)| r.contains('/'));
    let snap = ctx.snapshot();
    let mut said: Vec<String> = Vec::new();
    let mut never = false;
    let get = format!(
        "kubectl get queue {} -o yaml",
        crate::rules::shell_word(&qn)
    );
    let mut remedies: Vec<String> = Vec::new();
    for r in &resources {
        let want = facts
            .min_resources
            .iter()
            .find(|(k, _)| k == r)
            .map(|(_, v)| v.clone());
        let cap = capability
            .iter()
            .find(|(k, _)| k == r)
            .map(|(_, v)| v.clone());
        let alloc = allocated
            .iter()
            .find(|(k, _)| k == r)
            .map(|(_, v)| v.clone());
        let want_s = want
            .as_deref()
            .map(|w| format!(" (the job's minResources ask for {w})"))
            .unwrap_or_default();
        match (&cap, queue) {
            (Some(c), _) => {
                let over = want
                    .as_deref()
                    .and_then(qty)
                    .zip(qty(c))
                    .is_some_and(|(w, c)| w > c);
                let full = want
                    .as_deref()
                    .and_then(qty)
                    .zip(alloc.as_deref().and_then(qty))
                    .and_then(|(w, a)| w.checked_add(&a))
                    .zip(qty(c))
                    .is_some_and(|(t, c)| t > c);
                if !over && !full && !named.contains(r) {
                    // room for it: not what the queue refuses
                    continue;
                }
                never |= over;
                said.push(format!(
                    "queue {qn} caps {r} at {c} (spec.capability){}{want_s}{}",
                    alloc
                        .as_deref()
                        .map(|a| format!(", of which {a} is allocated"))
                        .unwrap_or_default(),
                    if over {
                        ": more than the queue can ever hold, so the job is never enqueued"
                    } else {
                        ""
                    }
                ));
                remedies.push(format!("raise spec.capability.{r} of queue {qn} (`kubectl edit queue {}`), or lower the job's {r} requests / minAvailable", crate::rules::shell_word(&qn)));
            }
            (None, Some(_)) => {
                let total: Option<cube_model::Quantity> = (!snap.nodes.is_empty()).then(|| {
                    snap.nodes
                        .iter()
                        .filter_map(|n| n.status.allocatable.get(r))
                        .fold(cube_model::Quantity::default(), |a, q| {
                            a.checked_add(q).unwrap_or(a)
                        })
                });
                let nodes = match &total {
                    Some(t) if t.is_zero() => format!(
                        "; the snapshot's nodes advertise no {r} at all (allocatable), so from v1.9 the queue's share of it is 0 too: the nodes' device plugin is the first thing to check"
                    ),
                    Some(t) => {
                        format!("; the snapshot's nodes advertise {t} {r} in total (allocatable)")
                    }
                    None => String::new(),
                };
                let before = if has_extended {
                    format!(
                        "Volcano before v1.9 caps it at 0 for this queue (its capability names other extended resources, and the proportion plugin's helpers.Min takes an omitted one as 0), so every job asking for {r} is refused for ever; "
                    )
                } else {
                    "before v1.9 an omitted resource was not checked at enqueue when the capability names only cpu/memory; ".to_owned()
                };
                said.push(format!(
                    "queue {qn}'s spec.capability does not list {r} (it lists {}){want_s}: {before}from v1.9 (proportion and capacity plugins, MinDimensionResource with Infinity) an omitted resource is not capped by the capability, and the queue may use the cluster's total {r} minus the other queues' guarantees, so the refusal means the nodes' allocatable {r} (less guarantees, allocated and Inqueue jobs) is below what the job needs{nodes}{}",
                    if capability.is_empty() { "nothing".to_owned() } else { capability.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ") },
                    if guarantee.is_empty() { String::new() } else { format!("; its guarantee reserves {}", guarantee.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")) }
                ));
                if total.as_ref().is_some_and(cube_model::Quantity::is_zero) {
                    never = true;
                }
                if has_extended {
                    never = true;
                }
                remedies.push(format!(
                    "add {r} to spec.capability of queue {qn} explicitly (`kubectl edit queue {}`; required before Volcano v1.9 when the capability lists other extended resources), and check the nodes' allocatable {r} (`kubectl describe nodes | grep -i {}`) and the other queues' spec.guarantee (`kubectl get queue -o yaml`)",
                    crate::rules::shell_word(&qn),
                    crate::rules::shell_word(r)
                ));
            }
            (None, None) => {
                said.push(format!("the job's queue {qn} has no room for its {r}{want_s}: its spec.capability omits {r} or caps it below what is allocated plus this job (in Volcano before v1.9 an extended resource omitted from a capability that names other extended resources is capped at 0; from v1.9 an omitted resource is capped by the cluster's total minus the other queues' guarantees)"));
                remedies.push(format!("`{get}`: compare spec.capability.{r} (absent = see above) with status.allocated, and the nodes' allocatable {r}"));
            }
        }
    }
    if said.is_empty() && has_extended && !capability.iter().any(|(r, _)| r == "pods") {
        // v1.8.1+ counts `pods` (and ephemeral-storage) as scalar resources of every job
        // (pkg/scheduler/api/resource_info.go NewResource, volcano#3188); before v1.9 the
        // proportion plugin's helpers.Min gives a scalar the capability omits 0
        never = true;
        said.push(format!(
            "queue {qn}'s spec.capability names extended resources ({}) but not `pods`: Volcano v1.8.x counts pods (and ephemeral-storage) as a resource of every job, and before v1.9 the proportion plugin caps a resource the capability omits at 0 when it names other extended ones, so every job of this queue is refused (volcano#3426); from v1.9 an omitted resource is not capped by the capability",
            capability.iter().filter(|(r, _)| r.contains('/')).map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
        ));
        remedies.push(format!(
            "add `pods` (for example `pods: \"1000\"`) and every other resource the jobs request to spec.capability of queue {qn} (`kubectl edit queue {}`), or upgrade Volcano to v1.9 or later",
            crate::rules::shell_word(&qn)
        ));
    }
    if said.is_empty() {
        said.push(format!(
            "queue {qn} has no room for the job's minResources (spec.capability or deserved minus allocated and Inqueue){}",
            if capability.is_empty() { String::new() } else { format!("; its capability is {}", capability.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")) }
        ));
        remedies.push(format!("`{get}`: compare spec.capability and spec.deserved with status.allocated; raise them, submit to another queue, or lower the job's minAvailable/requests"));
    }
    if queue.is_some_and(|q| q.detail("state") == "Closed") {
        said.push(format!("queue {qn} is Closed: it takes no new jobs"));
        remedies.push(format!(
            "open the queue (`vcctl queue operate --name {} --action open`)",
            crate::rules::shell_word(&qn)
        ));
    }
    let cause = format!(
        "Volcano does not let the PodGroup into queue {qn} (`queue resource quota insufficient`, the proportion/capacity plugin's enqueue check: the PodGroup stays Pending, no node is tried): {}",
        said.join("; ")
    );
    let severity = if never {
        crate::Severity::Error
    } else {
        crate::Severity::Warning
    };
    Some((cause, remedies.join("; "), severity, subject))
}

/// The cause and remedy of a Volcano FitError signal, from its structure and the PodGroup
/// facts of the same input; `None` when the text has no FitError.
pub(super) fn explain(ctx: &Context<'_>, s: &Signal) -> Option<(String, String)> {
    explain_text(ctx, &s.text, &s.source)
}

/// [`explain`] for a text of input `source` (a pod's PodScheduled condition message).
pub(super) fn explain_text(
    ctx: &Context<'_>,
    text: &str,
    source: &str,
) -> Option<(String, String)> {
    let fe = FitError::parse(text)?;
    let facts = podgroup_facts(ctx, source);
    let tasks = fe.tasks();
    let min = fe.min_available;
    let mut said = Vec::new();
    let head = match min {
        Some(m) => format!(
            "Volcano's PodGroup is not ready: {} task(s) exist, minAvailable is {m}",
            tasks
        ),
        None => format!("Volcano's PodGroup is not ready: {tasks} task(s)"),
    };
    said.push(head);
    let schedulable = FitError::count(&fe.pending, "Schedulable");
    let remedy;
    if let Some(reason) = facts
        .reason
        .as_deref()
        .filter(|r| *r != "NotEnoughResources")
    {
        // NotEnoughTasks / NotEnoughPodsOfTask: too few pods exist for minMember / minTaskMember
        said.push(format!(
            "its Unschedulable condition says {reason}: fewer pods exist than the PodGroup's minMember (or a task's minTaskMember) asks for, so the gang can never be complete"
        ));
        remedy = "compare the PodGroup's spec.minMember / minTaskMember with the pods the job really creates (`kubectl get pods -l volcano.sh/job-name=<job>`): lower minAvailable or fix the replicas, and check the job controller's events for pods it could not create".to_owned();
    } else if let Some(m) = min.filter(|m| tasks > 0 && *m > tasks) {
        said.push(format!(
            "minAvailable {m} is more than the {tasks} task(s) the job has, so the gang can never be complete (NotEnoughTasks)"
        ));
        remedy = "lower the job's minAvailable to at most its replica count, or check why its other pods were not created (the job controller's events, an admission webhook or quota refusing pods)".to_owned();
    } else if facts.phase.as_deref() == Some("Inqueue")
        || (facts.reason.as_deref() == Some("NotEnoughResources")
            && facts.phase.as_deref() != Some("Pending"))
    {
        let mut what = String::from("the PodGroup");
        if let Some(p) = &facts.phase {
            what.push_str(&format!(" is {p}"));
            if p == "Inqueue" {
                what.push_str(" (its queue admitted it)");
            }
        }
        if let Some(r) = &facts.reason {
            what.push_str(&format!(" and its Unschedulable condition says {r}"));
        }
        said.push(format!(
            "{what}: the nodes' idle resources cannot hold minAvailable tasks at the same time (gang scheduling places all of them or none){}",
            if schedulable > 0 {
                format!("; {schedulable} task(s) would fit on their own")
            } else {
                String::new()
            }
        ));
        remedy = "compare the tasks' requests (× minAvailable) with the nodes' free resources (`kubectl describe nodes`, Allocated resources), including extended resources such as nvidia.com/gpu; free or add capacity, or lower the tasks' requests or the job's minAvailable".to_owned();
    } else if facts.phase.as_deref() == Some("Pending") {
        said.push("the PodGroup is still Pending, not Inqueue: Volcano's enqueue refused it, so no node was tried (the queue's capability or deserved share in the proportion/capacity plugin, the overcommit plugin's cluster-wide check, or a namespace ResourceQuota in the resourcequota plugin)".to_owned());
        remedy = "`kubectl describe podgroup` names the refusing plugin in its events (`queue resource quota insufficient`, `resource in cluster is overused`, `resource quota insufficient`); for the queue compare `kubectl get queue <queue> -o yaml` spec.capability/deserved with status.allocated and raise it or submit to another queue".to_owned();
    } else if fe.origin.is_some() {
        said.push(format!(
            "a task was tried on the nodes and did not fit: {}",
            fe.origin.as_deref().unwrap_or_default()
        ));
        remedy = "address the node reasons of the task named (requests vs the nodes' free resources, taints, selectors), or lower the job's minAvailable".to_owned();
    } else {
        said.push(format!(
            "no task was tried on a node (no node reasons in the message){}; either its queue did not admit the PodGroup (queue capability / deserved share, the overcommit plugin, a namespace ResourceQuota: phase Pending) or it is Inqueue and the gang does not fit the nodes' idle resources together",
            if schedulable > 0 {
                format!(", although {schedulable} task(s) would fit on their own")
            } else {
                String::new()
            }
        ));
        remedy = "`kubectl get podgroup -n <namespace> -o custom-columns=NAME:.metadata.name,PHASE:.status.phase,QUEUE:.spec.queue,MINMEMBER:.spec.minMember` tells them apart: Pending = not admitted by the queue (`kubectl describe podgroup` events say which plugin; `kubectl get queue <queue> -o yaml` spec.capability vs status.allocated), Inqueue = the gang does not fit the nodes (compare the tasks' requests with the nodes' free resources)".to_owned();
    }
    Some((said.join("; "), remedy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_log;

    #[test]
    fn fit_error_structure_in_every_wording() {
        // job_info_test.go
        let f = FitError::parse("pod group is not ready, 6 Pending, 6 minAvailable; Pending: 1 Unschedulable, 2 Undetermined, 3 Schedulable. Origin reason is task-1: 0/2 nodes are unavailable: 2 Insufficient cpu.").unwrap();
        assert_eq!(f.min_available, Some(6));
        assert_eq!(f.tasks(), 6);
        assert_eq!(FitError::count(&f.pending, "Schedulable"), 3);
        assert!(f.origin.as_deref().unwrap().starts_with("task-1: 0/2"));
        // 2019 wording, minAvailable first
        let f = FitError::parse(
            "10/6 tasks in gang unschedulable: job is not ready, 10 minAvailable, 6 Pending.",
        )
        .unwrap();
        assert_eq!((f.min_available, f.tasks()), (Some(10), 6));
        // v1.0 condition message
        let f = FitError::parse(
            "1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable.",
        )
        .unwrap();
        assert_eq!(
            (f.min_available, f.tasks(), f.pending.len()),
            (Some(1), 1, 0)
        );
        assert!(FitError::parse("job <default/x> is not ready").is_none());
    }

    #[test]
    fn pod_group_not_ready_without_gang_prefix_is_a_finding() {
        // volcano-sh/volcano#4311: the pod's only event
        let f = run_log(
            "pod-unschedulable",
            "Events:\n  Type     Reason            Age    From     Message\n  ----     ------            ----   ----     -------\n  Warning  FailedScheduling  4m31s  volcano  pod group is not ready, 1 Pending, 1 minAvailable; Pending: 1 Unschedulable\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("queue"), "{}", f[0].message);
        assert!(
            f[0].remedy.contains("kubectl get podgroup"),
            "{}",
            f[0].remedy
        );
        // more tasks needed than exist
        let f = run_log(
            "pod-unschedulable",
            "Warning FailedScheduling 10s volcano pod group is not ready, 2 Pending, 4 minAvailable; Pending: 2 Unschedulable",
        );
        assert!(f[0].message.contains("NotEnoughTasks"), "{f:#?}");
    }

    #[test]
    fn queue_refusal_names_the_queue_and_the_omitted_resource() {
        // v1.13+ wording with the resource list, the queue pasted with it
        let text = "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: ml-team\nspec:\n  capability:\n    cpu: \"64\"\n    memory: 256Gi\n---\nEvents:\n  Type    Reason         Age   From     Message\n  ----    ------         ----  ----     -------\n  Normal  Unschedulable  3s    volcano  queue resource quota insufficient: insufficient cpu, insufficient nvidia.com/gpu\n";
        let f = run_log("pod-unschedulable", text);
        let q = f
            .iter()
            .find(|f| f.message.contains("queue ml-team"))
            .unwrap_or_else(|| panic!("{f:#?}"));
        assert!(
            q.message.contains("does not list nvidia.com/gpu"),
            "{}",
            q.message
        );
        assert!(q.message.contains("v1.9"), "{}", q.message);
        assert!(!q.message.contains("{rest}"), "{}", q.message);
        assert!(
            q.remedy.contains("kubectl edit queue ml-team"),
            "{}",
            q.remedy
        );
        // a capability naming an extended resource but not pods (volcano#3426)
        let text = "kind: Queue\napiVersion: scheduling.volcano.sh/v1beta1\nmetadata:\n  name: a800\nspec:\n  capability:\n    nvidia.com/gpu: \"4\"\n    cpu: \"5\"\n---\nNormal  Unschedulable  3s  volcano  queue resource quota insufficient\n";
        let f = run_log("pod-unschedulable", text);
        let q = f
            .iter()
            .find(|f| f.message.contains("queue a800"))
            .unwrap_or_else(|| panic!("{f:#?}"));
        assert_eq!(q.severity, crate::Severity::Error, "{q:#?}");
        assert!(q.message.contains("`pods`"), "{}", q.message);
    }

    #[test]
    fn podgroup_phase_and_condition_decide() {
        let text = "Status:\n  Conditions:\n    Message:  1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable.\n    Reason:   NotEnoughResources\n    Type:     Unschedulable\n  Phase:      Inqueue\n";
        let f = run_log("pod-unschedulable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("NotEnoughResources") && f[0].message.contains("Inqueue"),
            "{}",
            f[0].message
        );
        let f = run_log(
            "pod-unschedulable",
            "status:\n  phase: Pending\n  conditions:\n  - message: '2/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable; Pending: 2 Unschedulable'\n    type: Unschedulable\n",
        );
        assert!(f[0].message.contains("not Inqueue"), "{f:#?}");
    }

    #[test]
    fn pod_condition_alone_is_read() {
        // Volcano writes the FitError into the pod's PodScheduled condition
        let f = crate::rules::testutil::run_rule(
            "pod-unschedulable",
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: w-0\n  namespace: ml\nspec:\n  schedulerName: volcano\n  containers:\n  - name: c\n    image: x\nstatus:\n  phase: Pending\n  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: Unschedulable\n    message: 'pod group is not ready, 1 Pending, 1 minAvailable; Pending: 1 Unschedulable'\n",
        );
        assert!(
            f.iter()
                .any(|f| f.message.contains("Volcano") && f.subject.name == "w-0"),
            "{f:#?}"
        );
    }

    #[test]
    fn enqueue_refusals_name_the_plugin() {
        for (line, want) in [
            (
                "I0811 07:17:34.064205 1 overcommit.go:114] Resource in cluster is overused, reject job <default/podgroup-1> to be inqueue",
                "overcommit",
            ),
            (
                "Normal  Unschedulable  3s  volcano  queue resource quota insufficient: insufficient nvidia.com/gpu",
                "capability",
            ),
            (
                "Normal  Unschedulable  3s  volcano  resource in cluster is overused: overused cpu",
                "overcommit",
            ),
            (
                "Normal  Unschedulable  3s  volcano  resource quota insufficient, requested: map[cpu:2], used: map[cpu:7], limited: map[cpu:8]",
                "ResourceQuota",
            ),
            (
                "Warning  FailedScheduling  3s  volcano  Pod default/w-1 can possibly be assigned to node-01, once minAvailable is satisfied",
                "minAvailable",
            ),
        ] {
            let f = run_log("pod-unschedulable", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert!(f[0].message.contains(want), "{line}: {}", f[0].message);
        }
    }
}
