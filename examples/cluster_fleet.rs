//! Probe every cluster of a registry at once: health (a Karmada-style cluster taint for an
//! unreachable or not-ready cluster), version, nodes, and CPU, memory and GPU allocatable and
//! free, per cluster and per node pool.
//!
//! ```text
//! cargo run -p cube-examples --example cluster_fleet -- --registry clusters.yaml
//! cargo run -p cube-examples --example cluster_fleet -- --registry clusters.yaml \
//!     --timeout 5 --concurrency 8 --pool-label cube.example/pool --output json
//! ```
//!
//! The registry file is the cluster registry schema (`docs/cluster-registry.md`): each
//! cluster's kubeconfig reference is read, validated and connected with read-only requests
//! (`/version`, `SelfSubjectReview`, list nodes, list pods). Everything is a library call
//! (`cube_cluster::fleet::probe_fleet`); this program parses arguments and prints.
//!
//! Progress goes to stderr, only when stderr is a terminal. Exit codes: 0 every cluster
//! Ready, 1 some cluster not Ready, 2 bad input or usage.

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, ValueEnum};
use cube_cluster::fleet::{FleetOptions, FleetProgress, probe_fleet};
use cube_cluster::kubeconfig::PluginPolicy;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Output {
    Table,
    Json,
}

/// Probe every cluster of a registry: health, version, nodes, CPU/memory/GPU free per pool.
#[derive(Debug, Parser)]
#[command(name = "cluster_fleet")]
struct Args {
    /// The cluster registry file (YAML or JSON).
    #[arg(long)]
    registry: PathBuf,
    /// Deadline per cluster in seconds (connect, TLS, every request of that cluster).
    #[arg(long, default_value_t = 10.0)]
    timeout: f64,
    /// At most this many clusters at once (1 to 1024).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=1024))]
    concurrency: u16,
    /// Node label whose value names the node pool.
    #[arg(long, default_value = cube_cluster::fleet::DEFAULT_POOL_LABEL)]
    pool_label: String,
    /// Run exec credential plugins named by the kubeconfigs.
    #[arg(long)]
    allow_exec: bool,
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

fn main() {
    cube_examples::init_tracing();
    let args = Args::parse();
    let code = match run(&args) {
        Ok(all_ready) => i32::from(!all_ready),
        Err(e) => {
            cube_examples::eprint_line(&format!("error: {e:#}"));
            2
        }
    };
    std::process::exit(code);
}

fn run(args: &Args) -> anyhow::Result<bool> {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 3600.0) {
        return Err(BadInput("--timeout must be between 0 and 3600 seconds".into()).into());
    }
    let registry = cube_examples::read_registry(&args.registry).map_err(BadInput)?;
    let options = FleetOptions {
        concurrency: usize::from(args.concurrency.max(1)),
        timeout: Duration::from_secs_f64(args.timeout),
        pool_label: args.pool_label.clone(),
        plugins: if args.allow_exec {
            PluginPolicy::Allow
        } else {
            PluginPolicy::Refuse
        },
        ..FleetOptions::default()
    };
    let tty = std::io::stderr().is_terminal();
    let progress = move |p: &FleetProgress| {
        if tty {
            cube_examples::eprint_line(&p.to_string());
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let report = rt.block_on(probe_fleet(&registry, &options, &progress));
    match args.output {
        Output::Table => cube_examples::print_stdout(&cube_model::terminal::escape(
            report.to_table().trim_end(),
        ))?,
        Output::Json => cube_examples::print_stdout(&serde_json::to_string_pretty(&report)?)?,
    }
    Ok(report.not_ready == 0)
}
