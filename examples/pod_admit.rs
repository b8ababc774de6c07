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
//! 0 admitted and schedulable now (possibly by preemption), 1 rejected or admitted but Pending,
//! 2 bad input, 3 incomplete answer (more replicas than `--limit replicas-expanded=N` were asked
//! for and the ones tried were admitted, or the snapshot hit a limit, misses a kind or skipped an
//! item of the input).

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
    replicas: Vec<JsonReplica>,
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
    let (verdict, message, pending) = match &out.verdict {
        Verdict::Admitted { pending, .. } if *pending == 0 => {
            ("admitted, schedulable now".to_owned(), None, 0)
        }
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

/// Reads the pod or workload file (bounded; YAML aliases within the per-file budget).
fn read_submission(args: &Args, limits: &cube_model::Limits) -> Result<Submission, BadInput> {
    let name = args.pod.display();
    let text =
        cube_examples::read_input_text(&args.pod, limits).map_err(|e| BadInput(e.to_string()))?;
    let yaml = |text: &str| {
        cube_model::yaml::from_str::<serde_json::Value>(
            text,
            limits,
            serde_saphyr::options! { with_snippet: false },
        )
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
                        "{name}: not valid JSON: {e}"
                    ))));
                }
            },
        }
    } else {
        let v = yaml(&text).map_err(|e| {
            let first = e.to_string();
            let first = first.lines().next().unwrap_or("");
            BadInput(cube_model::redact::redact_string(&format!(
                "{name}: not valid YAML: {first}"
            )))
        })?;
        (v, "yaml")
    };
    let submission = Submission::from_value(value, format)
        .map_err(|e| BadInput(cube_model::redact::redact_string(&format!("{name}: {e}"))))?;
    submission
        .check_namespace(&args.namespace)
        .map_err(|e| BadInput(format!("{name}: {e}")))?;
    Ok(submission)
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
    let (snapshot, load_warnings) =
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
    let scheduler = FitScheduler {
        version,
        ..FitScheduler::default()
    };
    let opts = AdmitOptions {
        scheduler: Some(&scheduler),
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
    let code = match (&out.verdict, &a.incomplete) {
        (Verdict::Admitted { .. }, Some(_)) => cube_examples::exit::INCOMPLETE,
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

/// The table output.
fn table(a: &JsonAnswer) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    // writing to a String cannot fail
    let _ = writeln!(o, "{} {}/{}: {}", a.kind, a.namespace, a.name, a.verdict);
    // the first stored replica in full, the others compared to it
    let mut first: Option<(&str, &StoredPod)> = None;
    for r in &a.replicas {
        let _ = writeln!(o, "\npod {}", r.pod);
        let _ = writeln!(o, "  {:<24} {:<9} DETAIL", "STAGE", "STATUS");
        for s in &r.steps {
            let _ = writeln!(o, "  {:<24} {:<9} {}", s.stage, s.status, s.detail);
        }
        if let Some(st) = &r.stored {
            let _ = match first {
                Some((name, f)) if f.same_shape(st) => writeln!(o, "  stored: as {name}"),
                _ => {
                    first = first.or(Some((r.pod.as_str(), st)));
                    writeln!(o, "  stored: {}", st.compact())
                }
            };
        }
        if let Some(s) = &r.scheduling {
            let _ = match (&s.node, s.victims.is_empty()) {
                (Some(n), true) => writeln!(o, "  scheduling: fits node {n}"),
                (Some(n), false) => writeln!(
                    o,
                    "  scheduling: fits node {n} after preempting {}\n  event: {}",
                    s.victims.join(", "),
                    s.message
                ),
                (None, _) => writeln!(o, "  scheduling: Pending: {}", s.message),
            };
        }
        if let Some(j) = &r.rejection {
            let _ = writeln!(o, "  rejected ({} {}): {}", j.code, j.reason, j.message);
        }
    }
    if let Some(m) = &a.message {
        let _ = writeln!(o, "\n{m}");
    }
    if let Some(m) = &a.incomplete {
        let _ = writeln!(o, "\nINCOMPLETE: {m}");
    }
    o
}
