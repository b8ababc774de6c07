//! Preemption: which strictly lower-priority pods the default scheduler would evict so that a
//! pending pod fits, on which node, and the `preemption: ...` part of FailedScheduling.
//!
//! Mirrors kube-scheduler v1.36 `defaultpreemption` (`SelectVictimsOnNode`,
//! `filterPodsWithPDBViolation`, `pickOneNodeForPreemption`) and `preemption.Evaluator`
//! (`PodEligibleToPreemptOthers`, `nodesWherePreemptionMightHelp`, `findCandidates`):
//!
//! 1. `preemptionPolicy: Never` is not eligible (`not eligible due to preemptionPolicy=Never.`);
//!    neither is a pod whose nominated node holds a lower-priority pod terminating by
//!    preemption.
//! 2. Nodes whose filter status is UnschedulableAndUnresolvable (cordon, taints, affinity,
//!    a request above the node's whole allocatable) are `Preemption is not helpful for
//!    scheduling`.
//! 3. Per remaining node: potential victims are the bound pods of **strictly lower**
//!    priority; none -> `No preemption victims found for incoming pod`. Remove them all; if
//!    the pod still does not fit, the node reports that filter failure. Otherwise reprieve
//!    victims from most to least important (higher priority, then earlier start), those whose
//!    eviction would violate a PodDisruptionBudget first, keeping each one the pod still fits
//!    beside.
//! 4. Among candidates: fewest PDB violations, lowest highest-victim priority, smallest
//!    priority sum (upstream offsets each priority by 2^31), fewest victims, latest earliest
//!    start time of the highest-priority victims, then the first.

use std::cmp::Reverse;

use cube_model::ClusterSnapshot;
use cube_model::objects::{Pod, PodDisruptionBudget, PriorityClass, Time};
use serde::Serialize;

use crate::fit::{FitCode, FitReport, NodeUsage, PodDemand, fit_error_message, histogram};
use crate::schedmsg::SchedulerVersion;

/// `preemptionPolicy` value that forbids preempting.
pub const PREEMPT_NEVER: &str = "Never";
/// Reason of a node without lower-priority pods.
pub const REASON_NO_VICTIMS: &str = "No preemption victims found for incoming pod";
/// Reason of a node where preemption cannot help.
pub const REASON_NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
/// Message of a pod with `preemptionPolicy: Never`.
pub const MSG_POLICY_NEVER: &str = "not eligible due to preemptionPolicy=Never.";
/// Message of a pod whose nominated node still has a pod terminating by preemption.
pub const MSG_TERMINATING_ON_NOMINATED: &str =
    "not eligible due to a terminating pod on the nominated node.";

/// A pod's priority: `spec.priority` when set (admission wrote it), else the value of its
/// `priorityClassName` in `classes`, else the globalDefault class (the lowest value when
/// several claim it), else 0 (upstream `corev1helpers.PodPriority` after priority admission).
pub fn pod_priority(pod: &Pod, classes: &[PriorityClass]) -> i32 {
    if let Some(p) = pod.spec.priority {
        return p;
    }
    let name = pod.spec.priority_class_name.as_str();
    if !name.is_empty() {
        return match name {
            "system-node-critical" => 2_000_001_000,
            "system-cluster-critical" => 2_000_000_000,
            _ => classes
                .iter()
                .find(|c| c.metadata.name == name)
                .map(|c| c.value)
                .unwrap_or(0),
        };
    }
    classes
        .iter()
        .filter(|c| c.global_default)
        .map(|c| c.value)
        .min()
        .unwrap_or(0)
}

/// A pod that preemption would evict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Victim {
    /// Index into `ClusterSnapshot::pods`.
    pub index: usize,
    /// `namespace/name`.
    pub pod: String,
    /// Its priority.
    pub priority: i32,
    /// Its `status.startTime` (`None`: counted as "now", the least important).
    pub start_time: Option<Time>,
    /// True when evicting it violates a PodDisruptionBudget.
    pub violates_pdb: bool,
}

/// What preemption concludes for one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "camelCase")]
#[non_exhaustive]
pub enum NodePreemption {
    /// The node's filter status is UnschedulableAndUnresolvable.
    NotHelpful,
    /// No bound pod has a strictly lower priority.
    NoVictims,
    /// Even without every lower-priority pod the pod does not fit; the filter reasons.
    StillDoesNotFit {
        /// The failing filter's reasons.
        reasons: Vec<String>,
    },
    /// Evicting these victims (most important first) lets the pod fit.
    Candidate {
        /// The victims.
        victims: Vec<Victim>,
        /// How many of them violate a PodDisruptionBudget.
        pdb_violations: usize,
    },
}

impl NodePreemption {
    /// The reasons this node contributes to the preemption histogram (none for a candidate).
    pub fn reasons(&self) -> Vec<String> {
        match self {
            NodePreemption::NotHelpful => vec![REASON_NOT_HELPFUL.to_owned()],
            NodePreemption::NoVictims => vec![REASON_NO_VICTIMS.to_owned()],
            NodePreemption::StillDoesNotFit { reasons } => reasons.clone(),
            NodePreemption::Candidate { .. } => Vec::new(),
        }
    }
}

/// The preemption answer for a pending pod.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PreemptionReport {
    /// `namespace/name` of the preemptor.
    pub preemptor: String,
    /// Its priority.
    pub priority: i32,
    /// Why it may not preempt at all (upstream's message), `None` when eligible.
    pub not_eligible: Option<String>,
    /// Per node (name, conclusion), in snapshot order; empty when not eligible or when a
    /// node already fits.
    pub nodes: Vec<(String, NodePreemption)>,
    /// The chosen node and its victims, when preemption helps.
    pub chosen: Option<(String, Vec<Victim>)>,
}

impl PreemptionReport {
    /// The PostFilter message as upstream builds it, without the `preemption: ` prefix:
    /// the not-eligible text, or `0/N nodes are available: ...` when no node is a candidate;
    /// `None` when a candidate was found or preemption did not run.
    pub fn message(&self) -> Option<String> {
        if let Some(m) = &self.not_eligible {
            return Some(m.clone());
        }
        if self.chosen.is_some() || self.nodes.is_empty() {
            return None;
        }
        let reasons: Vec<Vec<String>> = self.nodes.iter().map(|(_, p)| p.reasons()).collect();
        let h = histogram(reasons.iter().map(Vec::as_slice));
        Some(fit_error_message(self.nodes.len(), &h))
    }
}

/// The whole FailedScheduling message kube-scheduler v1.36 prints (`FitError.Error()`): the
/// filter histogram, then, when preemption ran without finding a candidate, the PostFilter part
/// ` no new claims to deallocate, preemption: <msg>` (see [`crate::schedmsg`] for the grammar
/// and the other versions' wording). `None` when a node fits.
pub fn failed_scheduling_message(
    fit: &FitReport,
    preemption: Option<&PreemptionReport>,
) -> Option<String> {
    failed_scheduling_message_for(fit, preemption, SchedulerVersion::LATEST)
}

/// [`failed_scheduling_message`] in the wording of another kube-scheduler version (1.20–1.36):
/// e.g. v1.24–v1.31 end a FitError preemption part in `..`, v1.20–v1.23 print no preemption
/// part, and untolerated taints are named up to v1.34.
pub fn failed_scheduling_message_for(
    fit: &FitReport,
    preemption: Option<&PreemptionReport>,
    version: SchedulerVersion,
) -> Option<String> {
    crate::schedmsg::from_fit(fit, preemption, version).map(|m| m.render(version))
}

/// Runs preemption for `pod` given its fit report over `snapshot` (built with `usage`).
///
/// Does nothing (empty report) when a node already fits.
pub fn preempt(
    usage: &NodeUsage,
    snapshot: &ClusterSnapshot,
    pod: &Pod,
    fit: &FitReport,
) -> PreemptionReport {
    let demand = usage.demand(snapshot, pod);
    preempt_demand(
        usage,
        snapshot,
        &demand,
        fit.nodes.iter().map(|n| (n.node.as_str(), n.code)),
        fit.schedulable(),
    )
}

/// [`preempt`] for a compiled demand, given each node's name and filter code.
fn preempt_demand<'a>(
    usage: &NodeUsage,
    snapshot: &ClusterSnapshot,
    demand: &PodDemand<'_>,
    nodes: impl Iterator<Item = (&'a str, FitCode)>,
    schedulable: bool,
) -> PreemptionReport {
    let pod = demand.pod();
    let priority = demand.priority();
    let mut report = PreemptionReport {
        preemptor: pod.key(),
        priority,
        not_eligible: None,
        nodes: Vec::new(),
        chosen: None,
    };
    if schedulable {
        return report;
    }
    if let Some(msg) = not_eligible(usage, snapshot, pod, priority) {
        report.not_eligible = Some(msg);
        return report;
    }
    let mut scratch = Vec::new();
    for (name, code) in nodes {
        let outcome = match (code, usage.position(name)) {
            // (a node whose resources are unknown: evicting cannot be judged there)
            (FitCode::UnschedulableAndUnresolvable | FitCode::NotChecked, _) | (_, None) => {
                NodePreemption::NotHelpful
            }
            (_, Some(position)) => {
                select_victims_at(usage, snapshot, demand, position, &mut scratch)
            }
        };
        report.nodes.push((name.to_owned(), outcome));
    }
    report.chosen = pick_one_node(&report.nodes);
    report
}

fn not_eligible(
    usage: &NodeUsage,
    snapshot: &ClusterSnapshot,
    pod: &Pod,
    priority: i32,
) -> Option<String> {
    let policy = pod.spec.preemption_policy.clone().or_else(|| {
        let class = pod.spec.priority_class_name.as_str();
        snapshot
            .priority_classes
            .iter()
            .find(|c| !class.is_empty() && c.metadata.name == class)
            .and_then(|c| c.preemption_policy.clone())
    });
    if policy.as_deref() == Some(PREEMPT_NEVER) {
        return Some(MSG_POLICY_NEVER.to_owned());
    }
    let nominated = pod.status.nominated_node_name.as_str();
    if let Some(state) = usage.node(nominated) {
        let terminating = state.pods.iter().any(|&i| {
            usage.pod(snapshot, i).is_some_and(|p| {
                usage.pod_priority(i).unwrap_or(0) < priority
                    && p.metadata.deletion_timestamp.is_some()
                    && p.status.conditions.iter().any(|c| {
                        c.type_ == "DisruptionTarget" && c.reason == "PreemptionByScheduler"
                    })
            })
        });
        if terminating {
            return Some(MSG_TERMINATING_ON_NOMINATED.to_owned());
        }
    }
    None
}

/// Upstream `MoreImportantPod` ordering key: higher priority first, then earlier start time;
/// a pod without a start time counts as started now (after every known time).
fn importance_key(v: &Victim) -> (Reverse<i32>, bool, Option<Time>) {
    (Reverse(v.priority), v.start_time.is_none(), v.start_time)
}

/// Upstream `SelectVictimsOnNode` for node `node_name`: the minimal set of strictly
/// lower-priority pods whose eviction lets `pod` fit, honouring the snapshot's
/// PodDisruptionBudgets. Unknown node -> [`NodePreemption::NotHelpful`].
pub fn select_victims_on_node(
    usage: &NodeUsage,
    snapshot: &ClusterSnapshot,
    pod: &Pod,
    node_name: &str,
) -> NodePreemption {
    match usage.position(node_name) {
        Some(position) => {
            let demand = usage.demand(snapshot, pod);
            select_victims_at(usage, snapshot, &demand, position, &mut Vec::new())
        }
        None => NodePreemption::NotHelpful,
    }
}

/// [`select_victims_on_node`] on the index's dense rows: each what-if evaluation is a
/// verdict (no text, no allocation) on an edited copy of the node's usage row.
fn select_victims_at(
    usage: &NodeUsage,
    snapshot: &ClusterSnapshot,
    demand: &PodDemand<'_>,
    position: usize,
    scratch: &mut Vec<i64>,
) -> NodePreemption {
    let state = &usage.nodes[position];
    let priority = demand.priority();
    let mut potential: Vec<Victim> = Vec::new();
    for &i in &state.pods {
        let (Some(p), Some(prio)) = (usage.pod(snapshot, i), usage.pod_priority(i)) else {
            continue;
        };
        if prio < priority {
            potential.push(Victim {
                index: i,
                pod: p.key(),
                priority: prio,
                start_time: p.status.start_time,
                violates_pdb: false,
            });
        }
    }
    if potential.is_empty() {
        return NodePreemption::NoVictims;
    }
    let mut requested = usage.used_row(position);
    for v in &potential {
        usage.apply_pod(&mut requested, v.index, -1);
    }
    let mut count = state.pods.len() - potential.len();
    // Pods nominated to this node with priority >= the preemptor's hold their resources
    // during the what-if evaluation (`RunFilterPluginsWithNominatedPods`).
    if !usage
        .verdict_for(snapshot, demand, position, &requested, count, scratch)
        .fits()
    {
        return NodePreemption::StillDoesNotFit {
            reasons: usage.reasons_for(snapshot, demand, position, &requested, count),
        };
    }
    potential.sort_by_key(importance_key);
    let flags = pdb_violations(
        potential
            .iter()
            .filter_map(|v| usage.pod(snapshot, v.index)),
        &snapshot.pod_disruption_budgets,
    );
    let (violating, non_violating): (Vec<_>, Vec<_>) = potential
        .into_iter()
        .zip(flags)
        .map(|(mut v, f)| {
            v.violates_pdb = f;
            v
        })
        .partition(|v| v.violates_pdb);
    let mixed = !violating.is_empty() && !non_violating.is_empty();
    let mut victims = Vec::new();
    let mut pdb_violations = 0;
    for v in violating.into_iter().chain(non_violating) {
        usage.apply_pod(&mut requested, v.index, 1);
        count += 1;
        let fits = usage
            .verdict_for(snapshot, demand, position, &requested, count, scratch)
            .fits();
        if !fits {
            usage.apply_pod(&mut requested, v.index, -1);
            count -= 1;
            if v.violates_pdb {
                pdb_violations += 1;
            }
            victims.push(v);
        }
    }
    if mixed {
        victims.sort_by_key(importance_key);
    }
    NodePreemption::Candidate {
        victims,
        pdb_violations,
    }
}

/// Upstream `filterPodsWithPDBViolation`: walks `pods` in order, decrementing each matching
/// budget's `status.disruptionsAllowed`; a pod violates when a matching budget goes below 0.
/// Budgets match pods of their namespace through a non-empty selector; pods without labels
/// match nothing.
pub fn pdb_violations<'a>(
    pods: impl Iterator<Item = &'a Pod>,
    pdbs: &[PodDisruptionBudget],
) -> Vec<bool> {
    let mut allowed: Vec<i64> = pdbs
        .iter()
        .map(|p| i64::from(p.status.disruptions_allowed))
        .collect();
    pods.map(|pod| {
        let mut violated = false;
        if pod.metadata.labels.is_empty() {
            return false;
        }
        for (i, pdb) in pdbs.iter().enumerate() {
            if pdb.metadata.namespace != pod.metadata.namespace {
                continue;
            }
            // A nil or empty selector matches nothing; an invalid one matches nothing.
            let matched = pdb
                .spec
                .selector
                .as_ref()
                .is_some_and(|s| !s.is_empty() && s.matches(&pod.metadata.labels));
            if !matched {
                continue;
            }
            allowed[i] -= 1;
            if allowed[i] < 0 {
                violated = true;
            }
        }
        violated
    })
    .collect()
}

/// Upstream `pickOneNodeForPreemption` over the candidates, in node order.
fn pick_one_node(nodes: &[(String, NodePreemption)]) -> Option<(String, Vec<Victim>)> {
    let candidates: Vec<(&String, &Vec<Victim>, usize)> = nodes
        .iter()
        .filter_map(|(n, p)| match p {
            NodePreemption::Candidate {
                victims,
                pdb_violations,
            } => Some((n, victims, *pdb_violations)),
            _ => None,
        })
        .collect();
    if let Some((n, v, _)) = candidates.iter().find(|(_, v, _)| v.is_empty()) {
        return Some(((*n).clone(), (*v).clone()));
    }
    // Each criterion keeps the best-scoring subset; ties go on to the next one.
    type Key<'a> = Box<dyn Fn(&(&String, &Vec<Victim>, usize)) -> i128 + 'a>;
    let criteria: Vec<Key<'_>> = vec![
        // Fewest PDB violations.
        Box::new(|c| -(c.2 as i128)),
        // Lowest highest-victim priority.
        Box::new(|c| -i128::from(c.1.first().map(|v| v.priority).unwrap_or(0))),
        // Smallest sum of (priority + 2^31).
        Box::new(|c| {
            -c.1.iter()
                .map(|v| i128::from(v.priority) + (1i128 << 31))
                .sum::<i128>()
        }),
        // Fewest victims.
        Box::new(|c| -(c.1.len() as i128)),
        // Latest earliest-start-time among the highest-priority victims.
        Box::new(|c| {
            let top = c.1.first().map(|v| v.priority).unwrap_or(0);
            c.1.iter()
                .filter(|v| v.priority == top)
                .map(|v| v.start_time.map(|t| t.as_nanosecond()).unwrap_or(i128::MAX))
                .min()
                .unwrap_or(i128::MAX)
        }),
    ];
    let mut pool = candidates;
    for key in &criteria {
        if pool.len() <= 1 {
            break;
        }
        let best = pool.iter().map(key).max()?;
        pool.retain(|c| key(c) == best);
    }
    pool.first().map(|(n, v, _)| ((*n).clone(), (*v).clone()))
}

/// The scheduling stage of the what-if pipeline ([`crate::whatif::SchedulingStep`]): node fit,
/// then preemption when no node fits.
///
/// Scoring is not modelled: when several nodes fit, the first in snapshot order is reported.
/// A pod that fits is bound to that node, so it holds the node's resources for the pods
/// scheduled after it in the same session ([`FitSession`]); a pod that only fits by preemption
/// is not bound (its victims are not evicted either).
///
/// A session builds one [`NodeUsage`] (O(nodes + pods)) and updates it as pods are placed:
/// scheduling N replicas over M nodes costs O(N · M) at worst, and much less in practice (the
/// index's free-resource tree skips full nodes, replicas of one template resume the search
/// where the previous one stopped, and a replica that cannot be placed repeats the previous
/// answer while nothing changed).
#[derive(Debug, Clone, Default)]
pub struct FitScheduler {
    /// Fit options.
    pub options: crate::fit::FitOptions,
    /// The kube-scheduler release whose FailedScheduling wording the messages use (default
    /// [`SchedulerVersion::LATEST`], v1.36; see [`failed_scheduling_message_for`]).
    pub version: SchedulerVersion,
}

impl FitScheduler {
    /// Starts an incremental session over `snapshot` (builds the index once).
    pub fn start<'s>(&self, snapshot: &'s ClusterSnapshot) -> FitSession<'s> {
        FitSession {
            snapshot,
            usage: NodeUsage::build(snapshot, &self.options),
            version: self.version,
            last: None,
            cursor: 0,
            memo: None,
            pods: None,
            constraints: None,
        }
    }
}

impl crate::whatif::SchedulingStep for FitScheduler {
    fn schedule(
        &self,
        pod: &Pod,
        snapshot: &ClusterSnapshot,
        placed: &[Pod],
    ) -> crate::whatif::SchedulingOutcome {
        let mut session = self.start(snapshot);
        for p in placed {
            session.schedule_pod(p);
        }
        session.schedule_pod(pod)
    }

    fn session<'s>(
        &'s self,
        snapshot: &'s ClusterSnapshot,
    ) -> Box<dyn crate::whatif::SchedulingSession + 's> {
        Box::new(self.start(snapshot))
    }
}

/// An incremental scheduling run of [`FitScheduler`] over one snapshot: one [`NodeUsage`],
/// updated as each pod is placed.
#[derive(Debug, Clone)]
pub struct FitSession<'s> {
    snapshot: &'s ClusterSnapshot,
    usage: NodeUsage,
    /// The wording of the messages.
    version: SchedulerVersion,
    /// The previous pod (its name aside, pods equal to it get the same answers).
    last: Option<Pod>,
    /// No node before this position fits a pod equal to `last`.
    cursor: usize,
    /// The answer for `last` when it could not be placed, and the index generation then.
    memo: Option<(u64, crate::whatif::SchedulingOutcome)>,
    /// Namespace labels and the placed pods with required anti-affinity (built at the first
    /// pod).
    pods: Option<crate::podfilters::SessionPods>,
    /// `last`'s constraints for the filters of [`crate::podfilters`] (`Some(None)`: none
    /// applies), updated as its replicas are placed.
    constraints: Option<Option<crate::podfilters::PodConstraints>>,
}

impl FitSession<'_> {
    /// The index as updated by the pods placed so far.
    pub fn usage(&self) -> &NodeUsage {
        &self.usage
    }

    /// Schedules `pod`: the first node in snapshot order that fits (the pod is then bound to
    /// it), else preemption's answer with the FailedScheduling message.
    pub fn schedule_pod(&mut self, pod: &Pod) -> crate::whatif::SchedulingOutcome {
        let snapshot = self.snapshot;
        if !pod.spec.node_name.is_empty() {
            return self.kubelet_admit(pod);
        }
        let equivalent =
            self.last.as_ref().is_some_and(|l| {
                l.metadata.namespace == pod.metadata.namespace
                    && l.metadata.labels == pod.metadata.labels
                    && l.spec == pod.spec
                    && l.status == pod.status
            }) && !self
                .usage
                .is_nominated(snapshot, &pod.metadata.namespace, &pod.metadata.name);
        if !equivalent {
            self.last = Some(Pod {
                metadata: cube_model::objects::ObjectMeta {
                    namespace: pod.metadata.namespace.clone(),
                    labels: pod.metadata.labels.clone(),
                    ..Default::default()
                },
                spec: pod.spec.clone(),
                status: pod.status.clone(),
            });
            self.cursor = 0;
            self.memo = None;
            self.constraints = None;
        } else if let Some((generation, outcome)) = &self.memo
            && *generation == self.usage.generation()
        {
            return outcome.clone();
        }
        let demand = self.usage.demand(snapshot, pod);
        let pods = self
            .pods
            .get_or_insert_with(|| crate::podfilters::SessionPods::build(&self.usage, snapshot));
        let constraints = self.constraints.get_or_insert_with(|| {
            crate::podfilters::PodConstraints::compile(pods, &self.usage, snapshot, pod)
        });
        if let Some(c) = constraints.take() {
            let outcome = self.schedule_constrained(pod, &demand, &c);
            self.constraints = Some(Some(c));
            if let Some(position) = outcome.1 {
                if let (Some(Some(c)), Some(pods)) = (self.constraints.as_mut(), self.pods.as_mut())
                {
                    c.placed(snapshot, &self.usage, pod, position, pods);
                    pods.placed(pod, position);
                }
            } else if !outcome.0.schedulable || !outcome.0.victims.is_empty() {
                self.memo = Some((self.usage.generation(), outcome.0.clone()));
            }
            return outcome.0;
        }
        if let Some(position) = self.usage.first_fit(snapshot, &demand, self.cursor) {
            self.cursor = position;
            let node = self.usage.nodes[position].name.clone();
            self.usage.add_pod(snapshot, pod, position);
            return crate::whatif::SchedulingOutcome {
                schedulable: true,
                node: Some(node),
                message: String::new(),
                victims: Vec::new(),
                kubelet: None,
            };
        }
        self.cursor = self.usage.nodes.len();
        let fit = self.usage.report(snapshot, &demand);
        let pre = preempt_demand(
            &self.usage,
            snapshot,
            &demand,
            fit.nodes.iter().map(|n| (n.node.as_str(), n.code)),
            fit.schedulable(),
        );
        let message =
            failed_scheduling_message_for(&fit, Some(&pre), self.version).unwrap_or_default();
        let outcome = scheduling_outcome(pre.chosen, message);
        self.memo = Some((self.usage.generation(), outcome.clone()));
        outcome
    }
}

impl FitSession<'_> {
    /// A pod bound by `spec.nodeName` bypasses kube-scheduler: no filter, no preemption, no
    /// FailedScheduling. The kubelet of that node runs its own admission
    /// (`pkg/kubelet/lifecycle/predicate.go`: `generalFilter`, the scheduler's
    /// `AdmissionCheck` with every failure, then `NoExecute` taints only) and reports the first
    /// failure: `OutOf<resource>` with `Node didn't have enough resource: <r>, requested: <n>,
    /// used: <n>, capacity: <n>` (extended resources the node does not advertise at all are
    /// not checked, `removeMissingExtendedResources`), else `Predicate <Plugin> failed:
    /// <reason>` for NodeAffinity, NodePorts and TaintToleration. Cordons and `NoSchedule`
    /// taints do not apply. An admitted pod is bound to the node for the pods after it.
    fn kubelet_admit(&mut self, pod: &Pod) -> crate::whatif::SchedulingOutcome {
        use crate::whatif::{KubeletAdmission, SchedulingOutcome};
        let snapshot = self.snapshot;
        let name = pod.spec.node_name.clone();
        let Some(position) = self.usage.position(&name) else {
            return SchedulingOutcome {
                schedulable: false,
                node: Some(name.clone()),
                message: format!(
                    "spec.nodeName binds the pod to node \"{name}\", which the snapshot does not hold: kube-scheduler never sees the pod and no kubelet admits it; it stays Pending until the pod garbage collector deletes it"
                ),
                victims: Vec::new(),
                kubelet: Some(KubeletAdmission {
                    node: name,
                    node_exists: false,
                    ..KubeletAdmission::default()
                }),
            };
        };
        let Some(node) = snapshot.nodes.get(self.usage.nodes[position].index) else {
            return SchedulingOutcome::default();
        };
        if self.usage.nodes[position].allocatable_unknown {
            // H21: the kubelet knows its allocatable, we do not: not checked, never `OutOf...`
            // against an invented 0
            return SchedulingOutcome {
                schedulable: false,
                node: Some(name.clone()),
                message: format!(
                    "not checked: spec.nodeName binds the pod to node \"{name}\", one of the {}: the kubelet's admission was not checked",
                    crate::fit::REASON_ALLOCATABLE_UNKNOWN
                ),
                victims: Vec::new(),
                kubelet: Some(KubeletAdmission {
                    node: name,
                    node_exists: true,
                    ..KubeletAdmission::default()
                }),
            };
        }
        let demand = self.usage.demand(snapshot, pod);
        let req = demand.requests();
        let alloc = self.usage.allocatable(position);
        let used = self.usage.requested(position);
        let advertised = |r: &str| {
            node.status.allocatable.get(r).is_some()
                || (node.status.allocatable.is_empty() && node.status.capacity.get(r).is_some())
        };
        let pods_here = self.usage.nodes[position].pods.len() as i64;
        let allowed = self.usage.nodes[position].allowed_pods;
        let mut failure: Option<(String, String)> = None;
        let mut short = |res: &str, requested: i64, used: i64, capacity: i64| {
            if failure.is_none() {
                failure = Some((
                    format!("OutOf{res}"),
                    format!(
                        "Node didn't have enough resource: {res}, requested: {requested}, used: {used}, capacity: {capacity}"
                    ),
                ));
            }
        };
        if pods_here + 1 > allowed {
            short("pods", 1, pods_here, allowed);
        }
        if req.milli_cpu > 0 && req.milli_cpu > alloc.milli_cpu - used.milli_cpu {
            short("cpu", req.milli_cpu, used.milli_cpu, alloc.milli_cpu);
        }
        if req.memory > 0 && req.memory > alloc.memory - used.memory {
            short("memory", req.memory, used.memory, alloc.memory);
        }
        if req.ephemeral_storage > 0
            && req.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage
        {
            short(
                "ephemeral-storage",
                req.ephemeral_storage,
                used.ephemeral_storage,
                alloc.ephemeral_storage,
            );
        }
        for (r, &n) in &req.scalar {
            let (a, u) = (alloc.get(r.as_str()), used.get(r.as_str()));
            let extended = crate::fit::is_extended_resource_name(r.as_str());
            if n > 0 && (!extended || advertised(r.as_str())) && n > a - u {
                short(r.as_str(), n, u, a);
            }
        }
        let predicate = |plugin: &str, reason: &str| {
            (
                plugin.to_owned(),
                format!("Predicate {plugin} failed: {reason}"),
            )
        };
        if failure.is_none()
            && !cube_model::selector::pod_matches_node_selector_and_affinity(&pod.spec, node)
        {
            failure = Some(predicate("NodeAffinity", crate::fit::REASON_NODE_AFFINITY));
        }
        if failure.is_none() {
            let pods = self.pods.get_or_insert_with(|| {
                crate::podfilters::SessionPods::build(&self.usage, snapshot)
            });
            if crate::podfilters::host_ports_taken(&self.usage, snapshot, pod, position, pods) {
                failure = Some(predicate("NodePorts", crate::podfilters::REASON_NODE_PORTS));
            }
        }
        if failure.is_none()
            && node.spec.taints.iter().any(|t| {
                t.effect == "NoExecute"
                    && !cube_model::selector::tolerations_tolerate_taint(&pod.spec.tolerations, t)
            })
        {
            failure = Some(predicate(
                "TaintToleration",
                "node(s) had taints that the pod didn't tolerate",
            ));
        }
        match failure {
            Some((reason, message)) => SchedulingOutcome {
                schedulable: false,
                node: Some(name.clone()),
                message: format!(
                    "the kubelet of node {name} rejects the pod (spec.nodeName bypasses kube-scheduler): phase Failed, reason {reason}: {message}"
                ),
                victims: Vec::new(),
                kubelet: Some(KubeletAdmission {
                    node: name,
                    node_exists: true,
                    admitted: false,
                    reason,
                    message,
                }),
            },
            None => {
                self.usage.add_pod(snapshot, pod, position);
                if let Some(pods) = self.pods.as_mut() {
                    pods.placed(pod, position);
                }
                SchedulingOutcome {
                    schedulable: true,
                    node: Some(name.clone()),
                    message: String::new(),
                    victims: Vec::new(),
                    kubelet: Some(KubeletAdmission {
                        node: name,
                        node_exists: true,
                        admitted: true,
                        ..KubeletAdmission::default()
                    }),
                }
            }
        }
    }

    /// [`FitSession::schedule_pod`] for a pod with constraints of [`crate::podfilters`]: the
    /// first node in snapshot order that passes every filter (the pod is then bound to it and
    /// its position returned), else the FailedScheduling answer with each node's first failing
    /// plugin.
    fn schedule_constrained(
        &mut self,
        pod: &Pod,
        demand: &PodDemand<'_>,
        c: &crate::podfilters::PodConstraints,
    ) -> (crate::whatif::SchedulingOutcome, Option<usize>) {
        let snapshot = self.snapshot;
        let Some(pods) = self.pods.as_ref() else {
            return (crate::whatif::SchedulingOutcome::default(), None);
        };
        if c.prefilter.is_none() {
            // (pod affinity and spread can open nodes as replicas are placed: search from the
            // start then)
            let mut at = if c.monotone() { self.cursor } else { 0 };
            while let Some(p) = self.usage.first_fit(snapshot, demand, at) {
                let passes = c.check(pods, &self.usage, snapshot, pod, p, true).is_none()
                    && c.check(pods, &self.usage, snapshot, pod, p, false)
                        .is_none();
                if passes {
                    let node = self.usage.nodes[p].name.clone();
                    self.usage.add_pod(snapshot, pod, p);
                    self.cursor = p;
                    return (
                        crate::whatif::SchedulingOutcome {
                            schedulable: true,
                            node: Some(node),
                            message: String::new(),
                            victims: Vec::new(),
                            kubelet: None,
                        },
                        Some(p),
                    );
                }
                at = p + 1;
            }
        }
        let mut fit = self.usage.report(snapshot, demand);
        // positions whose failure is one of this module's (preemption judged here)
        let mut own: Vec<(usize, String, FitCode)> = Vec::new();
        for n in &mut fit.nodes {
            if c.prefilter.is_some() {
                n.code = FitCode::UnschedulableAndUnresolvable;
                n.plugin = Some(crate::fit::FilterPlugin::VolumeBinding);
                n.reasons.clear();
                continue;
            }
            let static_failed = matches!(
                n.plugin,
                Some(
                    crate::fit::FilterPlugin::NodeUnschedulable
                        | crate::fit::FilterPlugin::TaintToleration
                        | crate::fit::FilterPlugin::NodeAffinity
                )
            );
            let Some(p) = self.usage.position(&n.node) else {
                continue;
            };
            if static_failed {
                continue;
            }
            // NodePorts runs before NodeResourcesFit, the others after it
            let failed = c
                .check(pods, &self.usage, snapshot, pod, p, true)
                .or_else(|| {
                    n.fits()
                        .then(|| c.check(pods, &self.usage, snapshot, pod, p, false))
                        .flatten()
                });
            if let Some((plugin, reason, code)) = failed {
                n.plugin = Some(plugin);
                n.reasons = vec![reason.to_owned()];
                n.all_reasons.insert(0, reason.to_owned());
                n.code = code;
                own.push((p, reason.to_owned(), code));
            }
        }
        fit.prefilter = c.prefilter.clone();
        let mut pre = preempt_demand(
            &self.usage,
            snapshot,
            demand,
            fit.nodes.iter().map(|n| (n.node.as_str(), n.code)),
            fit.schedulable(),
        );
        if pre.not_eligible.is_none() && !own.is_empty() {
            // Evicting lower-priority pods is not modelled for these filters: a node with
            // none has no victims (upstream's answer); one with some is reported as still not
            // fitting rather than as a candidate (never a false "fits after preemption").
            let priority = demand.priority();
            for (p, reason, code) in &own {
                if *code == FitCode::UnschedulableAndUnresolvable {
                    continue;
                }
                let name = &self.usage.nodes[*p].name;
                let lower = self.usage.nodes[*p]
                    .pods
                    .iter()
                    .any(|&i| self.usage.pod_priority(i).is_some_and(|q| q < priority));
                if let Some(entry) = pre.nodes.iter_mut().find(|(n, _)| n == name) {
                    entry.1 = if lower {
                        NodePreemption::StillDoesNotFit {
                            reasons: vec![reason.clone()],
                        }
                    } else {
                        NodePreemption::NoVictims
                    };
                }
            }
            pre.chosen = pick_one_node(&pre.nodes);
        }
        let message =
            failed_scheduling_message_for(&fit, Some(&pre), self.version).unwrap_or_default();
        let outcome = scheduling_outcome(pre.chosen, message);
        (outcome, None)
    }
}

impl crate::whatif::SchedulingSession for FitSession<'_> {
    fn schedule(&mut self, pod: &Pod) -> crate::whatif::SchedulingOutcome {
        self.schedule_pod(pod)
    }
}

/// The scheduler's answer for one pod: placed on the chosen node (evicting its victims, when
/// preemption chose them) or left Pending with `message` (the FailedScheduling text).
fn scheduling_outcome(
    chosen: Option<(String, Vec<Victim>)>,
    message: String,
) -> crate::whatif::SchedulingOutcome {
    match chosen {
        Some((node, victims)) => crate::whatif::SchedulingOutcome {
            schedulable: true,
            node: Some(node),
            message,
            victims: victims.into_iter().map(|v| v.pod).collect(),
            kubelet: None,
        },
        None => crate::whatif::SchedulingOutcome {
            schedulable: false,
            node: None,
            message,
            victims: Vec::new(),
            kubelet: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(name: &str, value: i32, default: bool) -> PriorityClass {
        let mut c = PriorityClass {
            value,
            global_default: default,
            ..PriorityClass::default()
        };
        c.metadata.name = name.into();
        c
    }

    #[test]
    fn priority_resolution() {
        let classes = vec![
            class("high", 1000, false),
            class("d1", 5, true),
            class("d2", 3, true),
        ];
        let mut pod = Pod::default();
        assert_eq!(pod_priority(&pod, &classes), 3, "lowest global default");
        pod.spec.priority_class_name = "high".into();
        assert_eq!(pod_priority(&pod, &classes), 1000);
        pod.spec.priority = Some(7);
        assert_eq!(pod_priority(&pod, &classes), 7, "admitted value wins");
        assert_eq!(pod_priority(&Pod::default(), &[]), 0);
    }

    fn victim(priority: i32, secs: Option<i64>, n: usize) -> Victim {
        Victim {
            index: n,
            pod: format!("ns/p{n}"),
            priority,
            start_time: secs.map(|s| Time::from_second(s).unwrap_or_default()),
            violates_pdb: false,
        }
    }

    #[test]
    fn pick_node_criteria() {
        let cand = |v: Vec<Victim>, pdb: usize| NodePreemption::Candidate {
            victims: v,
            pdb_violations: pdb,
        };
        // Fewer PDB violations wins over lower priority.
        let nodes = vec![
            ("a".to_owned(), cand(vec![victim(1, Some(1), 0)], 1)),
            ("b".to_owned(), cand(vec![victim(5, Some(1), 1)], 0)),
        ];
        assert_eq!(pick_one_node(&nodes).map(|c| c.0).as_deref(), Some("b"));
        // Lowest highest priority.
        let nodes = vec![
            ("a".to_owned(), cand(vec![victim(5, Some(1), 0)], 0)),
            (
                "b".to_owned(),
                cand(vec![victim(1, Some(1), 1), victim(1, Some(1), 2)], 0),
            ),
        ];
        assert_eq!(pick_one_node(&nodes).map(|c| c.0).as_deref(), Some("b"));
        // Sum with upstream's 2^31 offset: one victim at 0 beats two at -100.
        let nodes = vec![
            (
                "a".to_owned(),
                cand(vec![victim(-100, Some(1), 0), victim(-100, Some(1), 1)], 0),
            ),
            ("b".to_owned(), cand(vec![victim(-100, Some(1), 2)], 0)),
        ];
        assert_eq!(pick_one_node(&nodes).map(|c| c.0).as_deref(), Some("b"));
        // Latest start time of the highest-priority victims.
        let nodes = vec![
            ("a".to_owned(), cand(vec![victim(1, Some(100), 0)], 0)),
            ("b".to_owned(), cand(vec![victim(1, Some(200), 1)], 0)),
            ("c".to_owned(), cand(vec![victim(1, Some(200), 2)], 0)),
        ];
        assert_eq!(pick_one_node(&nodes).map(|c| c.0).as_deref(), Some("b"));
        assert_eq!(pick_one_node(&[]), None);
    }

    #[test]
    fn importance_order() {
        let mut v = [
            victim(1, None, 0),
            victim(1, Some(5), 1),
            victim(9, Some(50), 2),
        ];
        v.sort_by_key(importance_key);
        let order: Vec<usize> = v.iter().map(|x| x.index).collect();
        assert_eq!(order, vec![2, 1, 0]);
    }
}
