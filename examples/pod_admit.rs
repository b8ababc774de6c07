//! Would this pod (or workload) be admitted, defaulted, scheduled, or preempt someone, and if
//! not, exactly why? Runs the what-if pipeline (API defaulting, LimitRanger, priority,
//! validation, ResourceQuota) and then node fit and preemption against a snapshot.
//!
//! ```text
//! cargo run -p cube-examples --example pod_admit -- \
//!     --snapshot examples/data/snapshot-gpu-cluster.json --pod job.yaml
//! cargo run -p cube-examples --example pod_admit -- --snapshot dump.json --pod pod.json \
//!     --namespace team-a --output json
//! ```
//!
//! The pod file holds one Pod, Job, CronJob, Deployment, ReplicaSet, StatefulSet, ... (YAML or
//! JSON). Quotas use `status.used` when the snapshot carries it, otherwise usage computed from
//! the snapshot's pods. Exit codes: 0 admitted and schedulable now (possibly by preemption),
//! 1 rejected or admitted but Pending, 2 bad input.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Parser, ValueEnum};
use cube_quota::preemption::FitScheduler;
use cube_quota::whatif::{AdmissionOutcome, AdmitOptions, StepStatus, Submission, Verdict, admit};
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
    replicas: Vec<JsonReplica>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    match run(&args) {
        Ok(code) => {
            if code != 0 {
                std::process::exit(code);
            }
            Ok(())
        }
        Err(e) if e.downcast_ref::<BadInput>().is_some() => {
            eprintln!("error: {e:#}");
            std::process::exit(2);
        }
        Err(e) => Err(e),
    }
}

fn status_str(s: &StepStatus) -> &'static str {
    match s {
        StepStatus::Passed => "passed",
        StepStatus::Changed => "changed",
        StepStatus::Rejected => "rejected",
        StepStatus::Skipped => "skipped",
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

fn run(args: &Args) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(&args.pod)
        .with_context(|| format!("cannot read {}", args.pod.display()))
        .map_err(|e| BadInput(format!("{e:#}")))?;
    let submission =
        Submission::parse(&text).map_err(|e| BadInput(format!("{}: {e}", args.pod.display())))?;
    submission
        .check_namespace(&args.namespace)
        .map_err(|e| BadInput(format!("{}: {e}", args.pod.display())))?;
    let (snapshot, load_warnings) =
        cube_examples::load_snapshot_files(&args.snapshots).map_err(BadInput)?;
    for w in &load_warnings {
        eprintln!("warning: {w}");
    }
    let scheduler = FitScheduler::default();
    let opts = AdmitOptions {
        scheduler: Some(&scheduler),
        ..AdmitOptions::default()
    };
    let out = admit(&submission, &args.namespace, &snapshot, &opts);
    let a = answer(&out);
    let code = match &out.verdict {
        Verdict::Admitted { pending: 0, .. } => 0,
        _ => 1,
    };
    match args.output {
        Output::Json => println!("{}", serde_json::to_string_pretty(&a)?),
        Output::Table => {
            println!("{} {}/{}: {}", a.kind, a.namespace, a.name, a.verdict);
            for r in &a.replicas {
                println!("\npod {}", r.pod);
                println!("  {:<24} {:<9} DETAIL", "STAGE", "STATUS");
                for s in &r.steps {
                    println!("  {:<24} {:<9} {}", s.stage, s.status, s.detail);
                }
                if let Some(s) = &r.scheduling {
                    match (&s.node, s.victims.is_empty()) {
                        (Some(n), true) => println!("  scheduling: fits node {n}"),
                        (Some(n), false) => println!(
                            "  scheduling: fits node {n} after preempting {}\n  event: {}",
                            s.victims.join(", "),
                            s.message
                        ),
                        (None, _) => println!("  scheduling: Pending: {}", s.message),
                    }
                }
                if let Some(j) = &r.rejection {
                    println!("  rejected ({} {}): {}", j.code, j.reason, j.message);
                }
            }
            if let Some(m) = &a.message {
                println!("\n{m}");
            }
        }
    }
    Ok(code)
}
