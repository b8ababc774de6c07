//! Would this pod (or workload) be admitted, defaulted, scheduled, or preempt someone, and if
//! not, exactly why? Runs the what-if pipeline (API defaulting, LimitRanger, priority,
//! validation, ResourceQuota) and then node fit and preemption against a snapshot.
//!
//! ```text
//! cargo run -p cube-examples --example pod_admit -- \
//!     --snapshot examples/data/snapshot-gpu-cluster.json --pod job.yaml
//! cargo run -p cube-examples --example pod_admit -- --snapshot dump.json --pod pod.json \
//!     --namespace team-a --output json --scheduler-version 1.28 --timings
//! ```
//!
//! `--scheduler-version` picks the kube-scheduler release whose FailedScheduling wording is
//! predicted (default 1.36); `--timings` prints on stderr how long the manifest, the snapshot
//! load, the what-if itself and the output took (`scripts/pod-admit-scale.sh` uses it).
//!
//! The pod file holds one Pod, Job, CronJob, Deployment, ReplicaSet, StatefulSet, ... (YAML or
//! JSON). Quotas use `status.used` when the snapshot carries it, otherwise usage computed from
//! the snapshot's pods. Exit codes (as every example program, see `examples/README.md`):
//! 0 admitted and schedulable now (possibly by preemption), 1 rejected (by the API server's
//! decoding or validation, an admission plugin, or the kubelet of a `spec.nodeName` pod) or
//! admitted but Pending, 2 bad input, 3 incomplete answer (more replicas than `--limit
//! replicas-expanded=N` were asked for and the ones tried were admitted, or the snapshot hit a
//! limit, misses a kind or skipped an item of the input, or holds no Node, Pod or Namespace, no
//! policy object of any kind, or not the claims the pod names: `notChecked` lists what each
//! absent kind decides).
//!
//! The scheduling step is kube-scheduler v1.36's filters (node fit, taints, affinity, host
//! ports, claims, topology spread, inter-pod affinity) and preemption; a pod with
//! `spec.nodeName` skips it and meets its node's kubelet admission instead. In the table, more
//! than three identical replicas in a row are folded into one line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use cube_quota::preemption::FitScheduler;
use cube_quota::schedmsg::SchedulerVersion;
use cube_quota::whatif::{
    AdmissionOutcome, AdmitOptions, StepStatus, StoredPod, Submission, Verdict, admit,
};
use serde::Serialize;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Output {
    Table,
    Json,
}

/// Explain step by step what the API server and the scheduler would do with a pod.
#[derive(Debug, Parser)]
#[command(name = "pod_admit")]
struct Args {
    /// `kubectl get ... -o json|yaml` dumps of the cluster (repeatable, at least one).
    #[arg(long = "snapshot", num_args = 1.., required = true)]
    snapshots: Vec<PathBuf>,
    /// The pod or workload manifest.
    #[arg(long)]
    pod: PathBuf,
    /// Namespace (as `kubectl -n`: used when the manifest has none; a different one is an error).
    #[arg(long, default_value = "")]
    namespace: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Output::Table)]
    output: Output,
    /// kube-scheduler version whose FailedScheduling wording is predicted (`1.20`-`1.36`;
    /// default 1.36).
    #[arg(long, value_name = "1.N")]
    scheduler_version: Option<String>,
    /// Print one line on stderr with the time of each phase (manifest, snapshot load, what-if,
    /// output), so the what-if can be told apart from loading a large snapshot.
    #[arg(long)]
    timings: bool,
    /// Limits on input size and work (`replicas-expanded` bounds the replicas tried).
    #[command(flatten)]
    limits: cube_examples::LimitArgs,
}

/// An error caused by the input (exit code 2).
#[derive(Debug)]
struct BadInput(String);

impl std::fmt::Display for BadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BadInput {}

#[derive(Debug, Serialize)]
struct JsonStep {
    stage: String,
    status: String,
    detail: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonScheduling {
    schedulable: bool,
    node: Option<String>,
    message: String,
    victims: Vec<String>,
    /// For a pod bound by `spec.nodeName`: the kubelet's admission (kube-scheduler never sees
    /// the pod).
    #[serde(skip_serializing_if = "Option::is_none")]
    kubelet: Option<JsonKubelet>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonKubelet {
    node: String,
    node_exists: bool,
    admitted: bool,
    /// `OutOfnvidia.com/gpu`, `NodeAffinity`, ... (empty when admitted).
    reason: String,
    message: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonRejection {
    stage: String,
    code: u16,
    reason: String,
    message: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonReplica {
    pod: String,
    steps: Vec<JsonStep>,
    /// The pod as the API server would store it (admitted replicas).
    stored: Option<StoredPod>,
    scheduling: Option<JsonScheduling>,
    rejection: Option<JsonRejection>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonAnswer {
    kind: String,
    name: String,
    namespace: String,
    requested: u32,
    admitted: u32,
    pending: u32,
    verdict: String,
    message: Option<String>,
    /// Set when the answer is incomplete: fewer replicas tried than asked for (the limit), or
    /// a snapshot that hit a limit or misses a kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    incomplete: Option<String>,
    /// The kinds the answer reads that the snapshot does not hold at all, each with what could
    /// therefore not be checked (for example `LimitRange: LimitRange defaults and limits`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    not_checked: Vec<String>,
    /// A DaemonSet: the nodes its controller creates no pod for (selector, affinity or a taint
    /// its pods do not tolerate), each with the reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    daemon_set_skipped: Vec<JsonDaemonSkip>,
    replicas: Vec<JsonReplica>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDaemonSkip {
    node: String,
    reason: String,
}

fn main() -> ExitCode {
    cube_examples::init_tracing();
    let args = Args::parse();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            cube_examples::eprint_line(&format!("error: {e:#}"));
            // every failure here is about the input (unreadable, unparseable, inconsistent)
            ExitCode::from(cube_examples::exit::BAD_INPUT)
        }
    }
}

/// A DaemonSet for which no node of a snapshot that has nodes is eligible: its controller
/// creates no pod at all (never "admitted, schedulable now").
fn no_daemon_pod(out: &AdmissionOutcome) -> bool {
    out.kind == "DaemonSet" && out.requested == 0 && !out.daemon_skipped.is_empty()
}

fn status_str(s: &StepStatus) -> &'static str {
    match s {
        StepStatus::Passed => "passed",
        StepStatus::Changed => "changed",
        StepStatus::Rejected => "rejected",
        StepStatus::Skipped => "skipped",
        _ => "other",
    }
}

fn answer(out: &AdmissionOutcome) -> JsonAnswer {
    let kubelet_rejected = u32::try_from(
        out.replicas
            .iter()
            .filter_map(|r| r.scheduling.as_ref())
            .filter(|s| {
                s.kubelet
                    .as_ref()
                    .is_some_and(|k| k.node_exists && !k.admitted)
            })
            .count(),
    )
    .unwrap_or(u32::MAX);
    let (verdict, message, pending) = match &out.verdict {
        Verdict::Admitted { .. } if no_daemon_pod(out) => (
            "no pod: no node is eligible for the DaemonSet".to_owned(),
            Some(format!(
                "the DaemonSet controller creates no pod: none of the {} node(s) passes its nodeSelector, node affinity and tolerations",
                out.daemon_skipped.len()
            )),
            0,
        ),
        Verdict::Admitted { pending, .. } if *pending == 0 => {
            ("admitted, schedulable now".to_owned(), None, 0)
        }
        Verdict::Admitted { pending, .. } if kubelet_rejected > 0 => (
            // a pod bound by spec.nodeName that its kubelet refuses is Failed, not Pending
            if kubelet_rejected == *pending {
                format!("admitted, {pending} rejected by the kubelet (Failed)")
            } else {
                format!(
                    "admitted, {} Pending, {kubelet_rejected} rejected by the kubelet (Failed)",
                    pending - kubelet_rejected
                )
            },
            out.replicas
                .iter()
                .filter_map(|r| r.scheduling.as_ref())
                .find(|s| !s.schedulable)
                .map(|s| s.message.clone()),
            *pending,
        ),
        Verdict::Admitted { pending, .. } => (
            format!("admitted, {pending} Pending"),
            out.replicas
                .iter()
                .filter_map(|r| r.scheduling.as_ref())
                .find(|s| !s.schedulable)
                .map(|s| s.message.clone()),
            *pending,
        ),
        Verdict::Partial { rejection, .. } => (
            "partially admitted".to_owned(),
            Some(rejection.message.clone()),
            0,
        ),
        Verdict::Rejected(r) => ("rejected".to_owned(), Some(r.message.clone()), 0),
        _ => ("unknown verdict".to_owned(), None, 0),
    };
    JsonAnswer {
        kind: out.kind.clone(),
        name: out.name.clone(),
        namespace: out.namespace.clone(),
        requested: out.requested,
        admitted: out.admitted,
        pending,
        verdict,
        message,
        incomplete: None,
        not_checked: Vec::new(),
        daemon_set_skipped: out
            .daemon_skipped
            .iter()
            .map(|d| JsonDaemonSkip {
                node: d.node.clone(),
                reason: d.reason.clone(),
            })
            .collect(),
        replicas: out
            .replicas
            .iter()
            .map(|r| JsonReplica {
                pod: r.pod_name.clone(),
                steps: r
                    .steps
                    .iter()
                    .map(|s| JsonStep {
                        stage: format!("{:?}", s.stage),
                        status: status_str(&s.status).to_owned(),
                        detail: s.detail.clone(),
                    })
                    .collect(),
                stored: r.stored_pod(),
                scheduling: r.scheduling.as_ref().map(|s| JsonScheduling {
                    schedulable: s.schedulable,
                    node: s.node.clone(),
                    message: s.message.clone(),
                    victims: s.victims.clone(),
                    kubelet: s.kubelet.as_ref().map(|k| JsonKubelet {
                        node: k.node.clone(),
                        node_exists: k.node_exists,
                        admitted: k.admitted,
                        reason: k.reason.clone(),
                        message: k.message.clone(),
                    }),
                }),
                rejection: r.rejection.as_ref().map(|j| JsonRejection {
                    stage: format!("{:?}", j.stage),
                    code: j.code,
                    reason: j.reason.to_owned(),
                    message: j.message.clone(),
                }),
            })
            .collect(),
    }
}

/// Reads the pod or workload file (bounded; YAML aliases within the per-file budget). YAML
/// problems are reported as `<file>:<line>:<column>: ...`, a file of several documents names
/// them (pod_admit answers for one workload), and a limit hit says how to raise it (fresh-user
/// report G15: the parser's own API hints and Rust Debug text were shown).
fn read_submission(args: &Args, limits: &cube_model::Limits) -> Result<Submission, BadInput> {
    let name = args.pod.display();
    let text =
        cube_examples::read_input_text(&args.pod, limits).map_err(|e| BadInput(e.to_string()))?;
    let yaml_error = |e: &serde_saphyr::Error| -> BadInput {
        BadInput(cube_model::redact::redact_string(&yaml_problem(
            &name.to_string(),
            e,
            limits,
        )))
    };
    let yaml = |text: &str| -> Result<serde_json::Value, BadInput> {
        let docs: Vec<serde_json::Value> = cube_model::yaml::from_multiple(
            text,
            limits,
            serde_saphyr::options! { with_snippet: false },
        )
        .map_err(|e| yaml_error(&e))?;
        let docs: Vec<serde_json::Value> = docs.into_iter().filter(|d| !d.is_null()).collect();
        if docs.len() > 1 {
            let separators: Vec<String> = text
                .lines()
                .enumerate()
                .filter(|(_, l)| *l == "---" || l.starts_with("--- "))
                .map(|(i, _)| (i + 1).to_string())
                .collect();
            let kinds: Vec<String> = docs
                .iter()
                .map(|d| {
                    format!(
                        "{} {}",
                        d.get("kind")
                            .and_then(serde_json::Value::as_str)
                            .unwrap_or("?"),
                        d.pointer("/metadata/name")
                            .and_then(serde_json::Value::as_str)
                            .unwrap_or("?")
                    )
                })
                .collect();
            return Err(BadInput(cube_model::redact::redact_string(&format!(
                "{name}: the file holds {} YAML documents ({}; separated by `---` at line {}): pod_admit answers for one workload; put each in a file of its own and run pod_admit once per file",
                docs.len(),
                kinds.join(", "),
                separators.join(", ")
            ))));
        }
        Ok(docs.into_iter().next().unwrap_or(serde_json::Value::Null))
    };
    let (value, format): (serde_json::Value, &'static str) = if text.trim_start().starts_with('{') {
        match serde_json::from_str(&text) {
            Ok(v) => (v, "json"),
            // YAML in flow style (`{apiVersion: v1, kind: Pod, ...}`), which kubectl reads too:
            // a text that is no JSON is read as YAML before it is refused
            Err(e) => match yaml(&text) {
                Ok(v) => (v, "yaml"),
                Err(_) => {
                    return Err(BadInput(cube_model::redact::redact_string(&format!(
                        "{name}:{}:{}: not valid JSON: {}",
                        e.line(),
                        e.column(),
                        strip_position(&e.to_string())
                    ))));
                }
            },
        }
    } else {
        (yaml(&text)?, "yaml")
    };
    let submission = Submission::from_value(value, format)
        .map_err(|e| BadInput(cube_model::redact::redact_string(&format!("{name}: {e}"))))?;
    submission
        .check_namespace(&args.namespace)
        .map_err(|e| BadInput(format!("{name}: {e}")))?;
    Ok(submission)
}

/// `msg at line L, column C` without its position (which the caller prints first).
fn strip_position(msg: &str) -> &str {
    let first = msg.lines().next().unwrap_or("");
    first.find(" at line ").map_or(first, |i| &first[..i])
}

/// The position `at line L, column C` of a parser message, if any.
fn position(msg: &str) -> Option<(u64, u64)> {
    let rest = &msg[msg.find(" at line ")? + " at line ".len()..];
    let (line, rest) = rest.split_once(", column ")?;
    let col: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.trim().parse().ok()?, col.parse().ok()?))
}

/// One line for a YAML problem of `file`: the alias-expansion limit with how to raise it, the
/// parser's other bounds in words, or `<file>:<line>:<column>: not valid YAML: <problem>`.
fn yaml_problem(file: &str, e: &serde_saphyr::Error, limits: &cube_model::Limits) -> String {
    if cube_model::yaml::is_alias_limit(e) {
        return limits
            .exceeded(cube_model::Limit::YamlAliasExpansions, file, None)
            .to_string();
    }
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("");
    let at = position(first)
        .map(|(l, c)| format!("{file}:{l}:{c}"))
        .unwrap_or_else(|| file.to_owned());
    if first.starts_with("budget breached") {
        // serde-saphyr's fixed bounds (recorded anchor events, depth, nodes, ...): named in
        // words, never as Rust Debug text
        let what: String = first
            .trim_start_matches("budget breached: ")
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let mut words = String::new();
        for (i, c) in what.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                words.push(' ');
            }
            words.push(c.to_ascii_lowercase());
        }
        return format!(
            "{at}: the YAML exceeds the reader's bound on {words} (a bound of the YAML reader, not a setting): a manifest this large through anchors and aliases is not a workload kubectl would send; expand it with a YAML tool and check the result"
        );
    }
    format!("{at}: not valid YAML: {}", strip_position(first))
}

fn run(args: &Args) -> anyhow::Result<u8> {
    let start = Instant::now();
    let limits = args.limits.limits().map_err(BadInput)?;
    let version = match &args.scheduler_version {
        None => SchedulerVersion::LATEST,
        Some(v) => SchedulerVersion::parse(v).ok_or_else(|| {
            BadInput(format!(
                "--scheduler-version {v}: expected 1.N with N from {} to {}",
                SchedulerVersion::OLDEST.minor(),
                SchedulerVersion::LATEST.minor()
            ))
        })?,
    };
    let submission = read_submission(args, &limits)?;
    let manifest_done = Instant::now();
    let (mut snapshot, load_warnings) =
        // (the fields of the snapshot's pods that no step of the what-if reads are not kept)
        cube_examples::load_snapshot_files_keeping(
            &args.snapshots,
            &limits,
            cube_model::PodFields::WhatIf,
        )
        .map_err(BadInput)?;
    let load_done = Instant::now();
    for w in &load_warnings {
        cube_examples::eprint_line(&format!("warning: {w}"));
    }
    // H21: a node read from a `kubectl get nodes` table (or an excerpt) shows no allocatable:
    // its resources are unknown, not zero. Node fit is not checked on it (never `Insufficient`
    // against an invented 0); every node unknown, or the pod bound to one: scheduling is not
    // checked at all
    let unknown_nodes = take_unknown_allocatable(&mut snapshot);
    let bound_to_unknown = match &submission {
        cube_quota::whatif::Submission::Workload(w) => {
            let n = &w.template.spec.node_name;
            !n.is_empty() && unknown_nodes.iter().any(|u| u == n)
        }
        _ => false,
    };
    let scheduler = FitScheduler {
        version,
        ..FitScheduler::default()
    };
    let schedule = !(bound_to_unknown || (!unknown_nodes.is_empty() && snapshot.nodes.is_empty()));
    let opts = AdmitOptions {
        scheduler: schedule.then_some(&scheduler as &dyn cube_quota::whatif::SchedulingStep),
        max_replicas: Some(limits.max_replicas_expanded),
        ..AdmitOptions::default()
    };
    let out = admit(&submission, &args.namespace, &snapshot, &opts);
    let whatif_done = Instant::now();
    let mut a = answer(&out);
    let rejected = !matches!(out.verdict, Verdict::Admitted { .. });
    let tried = u32::try_from(out.replicas.len()).unwrap_or(u32::MAX);
    // Fewer replicas tried than asked for, and no refusal among them: the answer for the rest
    // is unknown. (A refusal is a complete answer: a controller's retries fail the same way.)
    if !rejected && out.requested > tried {
        let hit = limits.exceeded(
            cube_model::Limit::ReplicasExpanded,
            format!("{} {}/{}", out.kind, out.namespace, out.name),
            Some(u64::from(out.requested)),
        );
        a.incomplete = Some(format!(
            "only the first {tried} of {} replicas were tried: {hit}",
            out.requested
        ));
    } else if !rejected && snapshot.is_incomplete() {
        let why = snapshot.incomplete_reasons();
        a.incomplete = Some(format!("the snapshot is incomplete: {}", why.join("; ")));
    }
    let (mut not_checked, mut essential) = unseen_kinds(&submission, &snapshot);
    if !unknown_nodes.is_empty() {
        // the nodes were given, only their resources are unknown (said below)
        essential.retain(|k| *k != "Node");
        not_checked.retain(|l| !l.starts_with("Node: "));
    }
    if !rejected && a.incomplete.is_none() && !essential.is_empty() {
        a.incomplete = Some(format!(
            "the snapshot holds no {}: what they decide was not checked (dump them too: `kubectl get {} -A -o json`)",
            essential.join(", "),
            essential
                .iter()
                .map(|k| resource_of(k))
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    a.not_checked = not_checked;
    if !unknown_nodes.is_empty() {
        let shown = unknown_nodes.iter().take(10).cloned().collect::<Vec<_>>();
        let more = unknown_nodes.len().saturating_sub(shown.len());
        a.not_checked.push(format!(
            "Node {}{}: allocatable unknown (a `kubectl get nodes` table or an excerpt shows none): node fit not checked there; dump them with `kubectl get nodes -o json`",
            shown.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        ));
        // placed on a node whose resources are known: a complete answer; otherwise (Pending,
        // or not scheduled at all) the unknown nodes might take it
        let placed = matches!(out.verdict, Verdict::Admitted { pending: 0, .. }) && schedule;
        if !rejected && !placed && a.incomplete.is_none() {
            a.incomplete = Some(format!(
                "{} node(s) have no allocatable in the snapshot (read from a table or excerpt): whether the pod fits there is unknown, not checked",
                unknown_nodes.len()
            ));
        }
    }
    let code = match (&out.verdict, &a.incomplete) {
        (Verdict::Admitted { .. }, Some(_)) => cube_examples::exit::INCOMPLETE,
        (Verdict::Admitted { .. }, None) if no_daemon_pod(&out) => cube_examples::exit::FINDINGS,
        (Verdict::Admitted { pending: 0, .. }, None) => cube_examples::exit::OK,
        _ => cube_examples::exit::FINDINGS,
    };
    // secrets from the manifest or the snapshot never reach the output
    let text = match args.output {
        Output::Json => cube_examples::to_redacted_json(&a)? + "\n",
        Output::Table => cube_examples::safe_text(&table(&a)),
    };
    cube_examples::write_stdout(&text)?;
    if args.timings {
        let ms = |a: Instant, b: Instant| b.duration_since(a).as_secs_f64() * 1e3;
        let end = Instant::now();
        cube_examples::eprint_line(&format!(
            "timings: manifest {:.1} ms, snapshot load {:.1} ms ({} nodes, {} pods), what-if {:.1} ms ({} replicas), output {:.1} ms, total {:.1} ms",
            ms(start, manifest_done),
            ms(manifest_done, load_done),
            snapshot.nodes.len(),
            snapshot.pods.len(),
            ms(load_done, whatif_done),
            out.replicas.len(),
            ms(whatif_done, end),
            ms(start, end),
        ));
    }
    // the process exits next: the system frees these at once (see `leave_at_exit`)
    cube_examples::leave_at_exit((out, snapshot));
    Ok(code)
}

/// Removes from `snapshot` the nodes whose allocatable is unknown (read from a `kubectl get
/// nodes` table or an excerpt: [`cube_model::describe::is_unknown`] `allocatable`, and neither
/// allocatable nor capacity given) and returns their names: the scheduler would read their
/// empty lists as zero and answer `Insufficient` (H21).
fn take_unknown_allocatable(snapshot: &mut cube_model::ClusterSnapshot) -> Vec<String> {
    let unknown = |n: &cube_model::objects::Node| {
        n.status.allocatable.is_empty()
            && n.status.capacity.is_empty()
            && cube_model::describe::is_unknown(&n.metadata, "allocatable")
    };
    let names: Vec<String> = snapshot
        .nodes
        .iter()
        .filter(|n| unknown(n))
        .map(|n| n.metadata.name.clone())
        .collect();
    if !names.is_empty() {
        snapshot.nodes.retain(|n| !unknown(n));
    }
    names
}

/// The kinds the admission and scheduling steps read, with what each decides.
const READ_KINDS: [(&str, &str, bool); 6] = [
    ("Node", "node fit", true),
    (
        "Pod",
        "the pods already running: quota usage, node usage, host ports, (anti-)affinity",
        true,
    ),
    (
        "Namespace",
        "the namespace's existence (NamespaceLifecycle)",
        true,
    ),
    ("ResourceQuota", "quota admission", false),
    ("LimitRange", "LimitRange defaults and limits", false),
    ("PriorityClass", "priority classes and preemption", false),
];

/// `kubectl get` resource names of the kinds of [`READ_KINDS`].
fn resource_of(kind: &str) -> &'static str {
    match kind {
        "Node" => "nodes",
        "Pod" => "pods",
        "Namespace" => "namespaces",
        "ResourceQuota" => "resourcequotas",
        "LimitRange" => "limitranges",
        "PriorityClass" => "priorityclasses",
        "PersistentVolumeClaim" => "persistentvolumeclaims",
        "StorageClass" => "storageclasses",
        "RuntimeClass" => "runtimeclasses",
        "ResourceClaim" => "resourceclaims,resourceclaimtemplates,resourceslices,deviceclasses",
        _ => "all",
    }
}

/// The kinds the answer reads that the snapshot does not hold at all (`Kind: what`), and the
/// ones whose absence makes the answer incomplete: Node, Pod or Namespace (the cluster's
/// picture), every policy kind at once (a dump of a few kinds only), and the claims of a pod
/// that names PersistentVolumeClaims (fresh-user report G47: a dump of Nodes only answered
/// "admitted, schedulable now").
fn unseen_kinds(
    submission: &Submission,
    snapshot: &cube_model::ClusterSnapshot,
) -> (Vec<String>, Vec<&'static str>) {
    use cube_model::snapshot::KindStatus;
    let Submission::Workload(w) = submission else {
        return (Vec::new(), Vec::new());
    };
    let unseen = |k: &str| matches!(snapshot.kind_status(k), KindStatus::NotGiven);
    let mut lines = Vec::new();
    let mut essential = Vec::new();
    for (kind, what, core) in READ_KINDS {
        if unseen(kind) {
            lines.push(format!("{kind}: {what}"));
            if core {
                essential.push(kind);
            }
        }
    }
    if READ_KINDS
        .iter()
        .filter(|(_, _, core)| !core)
        .all(|(k, _, _)| unseen(k))
    {
        essential.extend(
            READ_KINDS
                .iter()
                .filter(|(_, _, core)| !core)
                .map(|(k, _, _)| *k),
        );
    }
    let claims: Vec<&str> = w
        .template
        .spec
        .volumes
        .iter()
        .filter_map(|v| v.persistent_volume_claim.as_ref())
        .map(|c| c.claim_name.as_str())
        .collect();
    // RuntimeClass admission: the class's overhead is added to the pod's requests (quota and
    // scheduling) and its nodeSelector and tolerations to the pod's; unknown, a "fits" could be
    // false (fresh-user H17)
    if let Some(rc) = &w.template.spec.runtime_class_name
        && matches!(
            snapshot.kind_status("RuntimeClass"),
            KindStatus::NotGiven | KindStatus::Missing(_)
        )
    {
        lines.push(format!(
            "RuntimeClass: the pod's RuntimeClass {rc:?} (its existence, overhead added to the requests, nodeSelector and tolerations)"
        ));
        essential.push("RuntimeClass");
    }
    // scheduler filters without data in a snapshot: said, never a silent yes
    let spec = &w.template.spec;
    if !spec.resource_claims.is_empty() {
        let names: Vec<&str> = spec
            .resource_claims
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        lines.push(format!(
            "ResourceClaim: the pod's DRA claims {} (DynamicResources: the devices of ResourceSlices and DeviceClasses are not read, so their allocation was not evaluated)",
            names.join(", ")
        ));
        essential.push("ResourceClaim");
    }
    if !claims.is_empty() {
        lines.push(
            "CSINode: NodeVolumeLimits (each node's CSI attach limit) and VolumeRestrictions (ReadWriteOncePod and disk conflicts) for the pod's claims were not evaluated"
                .to_owned(),
        );
    }
    if !claims.is_empty() && unseen("PersistentVolumeClaim") {
        lines.push(format!(
            "PersistentVolumeClaim: the claims {} (VolumeBinding: missing, unbound or bound elsewhere)",
            claims.join(", ")
        ));
        essential.push("PersistentVolumeClaim");
    }
    (lines, essential)
}

/// Runs of identical replicas longer than this are folded into one line.
const FOLD_AFTER: usize = 3;

/// The table output. More than [`FOLD_AFTER`] replicas in a row that differ from the one before
/// them only by name (the same steps, stored pod and scheduling answer) are folded into one line
/// (fresh-user report G16: 10,000 identical Pending replicas printed 10 MB).
fn table(a: &JsonAnswer) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    // writing to a String cannot fail
    let _ = writeln!(o, "{} {}/{}: {}", a.kind, a.namespace, a.name, a.verdict);
    // the first stored replica in full, the others compared to it
    let mut first: Option<(&str, &StoredPod)> = None;
    let signatures: Vec<String> = a.replicas.iter().map(replica_signature).collect();
    let mut i = 0;
    while let Some(r) = a.replicas.get(i) {
        replica_block(&mut o, r, &mut first);
        let same = signatures[i + 1..]
            .iter()
            .take_while(|s| **s == signatures[i])
            .count();
        if same > FOLD_AFTER {
            let (f, l) = (&a.replicas[i + 1], &a.replicas[i + same]);
            let _ = writeln!(
                o,
                "\nreplicas {}..{} ({same} pods, {} .. {}): same as pod {}",
                i + 2,
                i + same + 1,
                f.pod,
                l.pod,
                r.pod
            );
            i += same + 1;
        } else {
            i += 1;
        }
    }
    if let Some(m) = &a.message {
        let _ = writeln!(o, "\n{m}");
    }
    if !a.daemon_set_skipped.is_empty() {
        // grouped by reason, at most 10 node names each
        let mut by: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
        for d in &a.daemon_set_skipped {
            by.entry(d.reason.as_str())
                .or_default()
                .push(d.node.as_str());
        }
        let _ = writeln!(
            o,
            "\nno DaemonSet pod on {} node(s):",
            a.daemon_set_skipped.len()
        );
        for (reason, nodes) in by {
            let more = if nodes.len() > 10 {
                format!(" and {} more", nodes.len() - 10)
            } else {
                String::new()
            };
            let shown: Vec<&str> = nodes.iter().take(10).copied().collect();
            let _ = writeln!(o, "  {reason}: {}{more}", shown.join(", "));
        }
    }
    if !a.not_checked.is_empty() {
        let _ = writeln!(
            o,
            "\nnot in the snapshot, so not checked:\n  {}",
            a.not_checked.join("\n  ")
        );
    }
    if let Some(m) = &a.incomplete {
        let _ = writeln!(o, "\nINCOMPLETE: {m}");
    }
    o
}

/// One replica's block of the table.
fn replica_block<'a>(
    o: &mut String,
    r: &'a JsonReplica,
    first: &mut Option<(&'a str, &'a StoredPod)>,
) {
    use std::fmt::Write as _;
    let _ = writeln!(o, "\npod {}", r.pod);
    let _ = writeln!(o, "  {:<24} {:<9} DETAIL", "STAGE", "STATUS");
    for s in &r.steps {
        let _ = writeln!(o, "  {:<24} {:<9} {}", s.stage, s.status, s.detail);
    }
    if let Some(st) = &r.stored {
        let _ = match *first {
            Some((name, f)) if f.same_shape(st) => writeln!(o, "  stored: as {name}"),
            _ => {
                *first = first.or(Some((r.pod.as_str(), st)));
                writeln!(o, "  stored: {}", st.compact())
            }
        };
    }
    if let Some(s) = &r.scheduling {
        let _ = match (&s.kubelet, &s.node, s.victims.is_empty()) {
            (Some(k), _, _) if k.admitted => writeln!(
                o,
                "  scheduling: bound by spec.nodeName to node {} (kube-scheduler bypassed); the kubelet admits it",
                k.node
            ),
            (Some(k), _, _) if k.node_exists => writeln!(
                o,
                "  kubelet: rejected on node {} (spec.nodeName bypasses kube-scheduler): phase Failed, reason {}, message \"Pod was rejected: {}\"",
                k.node, k.reason, k.message
            ),
            (Some(_), _, _) => writeln!(o, "  scheduling: Pending: {}", s.message),
            (None, Some(n), true) => writeln!(o, "  scheduling: fits node {n}"),
            (None, Some(n), false) => writeln!(
                o,
                "  scheduling: fits node {n} after preempting {}\n  event: {}",
                s.victims.join(", "),
                s.message
            ),
            (None, None, _) => writeln!(o, "  scheduling: Pending: {}", s.message),
        };
    }
    if let Some(j) = &r.rejection {
        let _ = writeln!(o, "  rejected ({} {}): {}", j.code, j.reason, j.message);
    }
}

/// What a replica's table block says apart from its name (replicas with equal signatures print
/// the same block). A replica placed on a node differs from one placed on another.
fn replica_signature(r: &JsonReplica) -> String {
    let mut sig = String::new();
    for s in &r.steps {
        sig.push_str(&s.stage);
        sig.push('\u{1f}');
        sig.push_str(&s.status);
        sig.push('\u{1f}');
        sig.push_str(&s.detail);
        sig.push('\u{1e}');
    }
    if let Some(st) = &r.stored {
        sig.push_str(&st.compact());
    }
    if let Some(s) = &r.scheduling {
        sig.push_str(&format!(
            "{}|{:?}|{}|{:?}|{}",
            s.schedulable,
            s.node,
            s.message,
            s.victims,
            s.kubelet.is_some()
        ));
    }
    if let Some(j) = &r.rejection {
        sig.push_str(&j.message);
    }
    sig
}
