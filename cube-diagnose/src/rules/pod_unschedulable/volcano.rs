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
}

fn podgroup_facts(ctx: &Context<'_>, source: &str) -> PodGroupFacts {
    let mut f = PodGroupFacts::default();
    for log in ctx.logs().iter().filter(|l| l.source == source) {
        for line in log.text.lines() {
            let t = line.trim().trim_start_matches('-').trim();
            let Some((key, value)) = t.split_once(':') else {
                continue;
            };
            let value = value.trim().trim_matches('"');
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
        || facts.reason.as_deref() == Some("NotEnoughResources")
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
