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
//! `--place` explains where a task would go over the probed fleet (`cube_model::placement`):
//! every cluster chosen or rejected with its reasons (selector requirements, untolerated taints,
//! unhealthy, not enough free GPUs of the requested resource and, with `--gpu-kind`, of the
//! nodes labelled with that GPU kind):
//!
//! ```text
//! cargo run -p cube-examples --example cluster_fleet -- --registry clusters.yaml \
//!     --place --selector env=prod --gpus nvidia.com/gpu=4 --gpu-kind V100 \
//!     --toleration dedicated=vision:NoSchedule
//! ```
//!
//! Every read is bounded by one `cube_model::Limits` policy (the limit flags of every
//! program: `--max-file-bytes` for the registry, `--max-kubeconfig-bytes` for each cluster's
//! kubeconfig, `--max-referenced-file-bytes` for the files it references,
//! `--max-http-body-bytes`, `--max-pages-per-list`, `--max-objects-per-snapshot`,
//! `--request-timeout-secs`; `--timeout` bounds each cluster). A limit hit is listed per
//! cluster (`limitsHit` in JSON, `limit hit:` in the table) with the flag that raises it.
//!
//! Progress goes to stderr, only when stderr is a terminal. Exit codes: 0 every cluster
//! Ready (and, with `--place`, some cluster takes the task), 1 some cluster not Ready or no
//! cluster takes the task, 2 bad input or usage, 3 every cluster Ready but the figures of some
//! are incomplete (`incomplete` in JSON: nodes or pods not listed completely, a limit hit).

use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, ValueEnum};
use cube_cluster::fleet::{FleetOptions, FleetProgress, probe_fleet};

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
    #[arg(long, default_value_t = 10.0, value_parser = cube_examples::seconds)]
    timeout: f64,
    /// At most this many clusters at once (1 to 1024).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=1024))]
    concurrency: u16,
    /// Node label whose value names the node pool.
    #[arg(long, default_value = cube_cluster::fleet::DEFAULT_POOL_LABEL)]
    pool_label: String,
    /// `--allow-exec` and `--allow-file-refs` for the registry's kubeconfigs, as in every
    /// program that reads kubeconfigs (a refused file reference makes that cluster
    /// `config-invalid`).
    #[command(flatten)]
    trust: cube_examples::KubeconfigTrust,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Output::Table)]
    output: Output,
    /// Explain where a task would go over the probed fleet.
    #[arg(long)]
    place: bool,
    /// With --place: the task's cluster selector (`env=prod,location in (beijing)`).
    #[arg(long, requires = "place")]
    selector: Option<String>,
    /// With --place: a cluster named explicitly.
    #[arg(long, requires = "place")]
    cluster: Option<String>,
    /// With --place: GPUs the task needs, RESOURCE=N (repeatable).
    #[arg(long = "gpus", requires = "place", value_name = "RESOURCE=N")]
    gpus: Vec<String>,
    /// With --place: the kind the GPUs must be of, a node label KEY=VALUE
    /// (`nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB`) or a bare CubeStudio `gpu-type` value
    /// (`V100`).
    #[arg(long, requires = "place", value_name = "KIND")]
    gpu_kind: Option<String>,
    /// With --place: a toleration of cluster taints, KEY[=VALUE][:EFFECT] (repeatable).
    #[arg(
        long = "toleration",
        requires = "place",
        value_name = "KEY[=VALUE][:EFFECT]"
    )]
    tolerations: Vec<String>,
    /// With --place: every task must name a cluster selector (or a cluster).
    #[arg(long, requires = "place")]
    require_cluster_selector: bool,
    /// With --place: refuse (instead of warning about) a fallback to a default cluster labelled
    /// env=prod.
    #[arg(long, requires = "place")]
    refuse_production_default: bool,
    /// Limits on input size and work, as in the other programs (`file-bytes` and
    /// `yaml-alias-expansions` bound the registry read; `http-body-bytes`, `pages-per-list` and
    /// `request-timeout-secs` every request; `--timeout` still bounds each cluster).
    #[command(flatten)]
    limits: cube_examples::LimitArgs,
}

/// `KEY[=VALUE][:EFFECT]` -> a toleration (`Equal` with a value, `Exists` without).
fn parse_toleration(spec: &str) -> Result<cube_model::objects::Toleration, String> {
    let (kv, effect) = match spec.rsplit_once(':') {
        Some((kv, e)) if matches!(e, "NoSchedule" | "PreferNoSchedule" | "NoExecute") => (kv, e),
        Some(_) => {
            return Err(format!(
                "--toleration {spec:?}: the effect must be NoSchedule, PreferNoSchedule or NoExecute"
            ));
        }
        None => (spec, ""),
    };
    let (key, value, operator) = match kv.split_once('=') {
        Some((k, v)) => (k, v, "Equal"),
        None => (kv, "", "Exists"),
    };
    Ok(cube_model::objects::Toleration {
        key: key.trim().to_owned(),
        operator: operator.to_owned(),
        value: value.trim().to_owned(),
        effect: effect.to_owned(),
        toleration_seconds: None,
    })
}

/// The placement explanation over the probed fleet.
fn place(
    args: &Args,
    registry: &cube_model::ClusterRegistry,
    report: &cube_cluster::fleet::FleetReport,
) -> anyhow::Result<cube_model::placement::Placement> {
    use cube_model::placement::{PlacementPolicy, PlacementRequest, PolicyMode, explain};
    let gpus = place_gpus(args).map_err(BadInput)?;
    let tolerations = args
        .tolerations
        .iter()
        .map(|t| parse_toleration(t))
        .collect::<Result<Vec<_>, _>>()
        .map_err(BadInput)?;
    let request = PlacementRequest {
        cluster: args.cluster.clone(),
        cluster_selector: args.selector.clone(),
        tolerations,
        gpus,
        gpu_kind: args.gpu_kind.clone(),
    };
    let policy = PlacementPolicy {
        require_cluster_selector: args.require_cluster_selector,
        production_default: if args.refuse_production_default {
            PolicyMode::Refuse
        } else {
            PolicyMode::Warn
        },
        ..PlacementPolicy::default()
    };
    Ok(explain(registry, &request, &report.states(), &policy))
}

/// `--gpus RESOURCE=N` as a resource list: the name a qualified name (an extended resource),
/// `N` a whole number of at least 1 (the API server refuses a fractional extended resource:
/// `must be an integer`, k8s.io/kubernetes pkg/apis/core/validation `validateResourceQuantityValue`
/// / `ValidateNonnegativeQuantity`; a GPU request of 0 or less asks for nothing).
fn place_gpus(args: &Args) -> Result<cube_model::ResourceList, String> {
    let mut gpus = cube_model::ResourceList::new();
    for g in &args.gpus {
        let shown = cube_model::terminal::escape_line(g);
        let (name, n) = g
            .split_once('=')
            .ok_or_else(|| format!("--gpus {shown}: expected RESOURCE=N"))?;
        let name = name.trim();
        let bad_name = cube_model::selector::validate_qualified_name(name);
        if !bad_name.is_empty() {
            return Err(format!(
                "--gpus {shown}: {} is not a resource name: {}",
                cube_model::terminal::escape_line(name),
                bad_name.join("; ")
            ));
        }
        let q =
            cube_model::Quantity::parse(n.trim()).map_err(|e| format!("--gpus {shown}: {e}"))?;
        if !q.is_positive() || !q.is_at_scale(0) {
            return Err(format!(
                "--gpus {shown}: the count must be a whole number of at least 1 (GPUs are requested in whole units; the API server answers `must be an integer`)"
            ));
        }
        gpus.insert(cube_model::ResourceName::new(name), q);
    }
    Ok(gpus)
}

/// The usage errors of the flags, before any cluster is probed (exit 2): `--gpus` counts and
/// names, a `--selector` that does not parse, a `--pool-label` that is not a label key.
fn check_flags(args: &Args) -> Result<(), String> {
    let key = args.pool_label.trim();
    let bad = cube_model::selector::validate_qualified_name(key);
    if key != args.pool_label || !bad.is_empty() {
        return Err(format!(
            "--pool-label {}: not a label key: {}",
            cube_model::terminal::escape_line(&args.pool_label),
            if bad.is_empty() {
                "surrounding white space".to_owned()
            } else {
                bad.join("; ")
            }
        ));
    }
    if args.place {
        place_gpus(args)?;
        if let Some(s) = args.selector.as_deref().filter(|s| !s.trim().is_empty()) {
            cube_model::selector::parse_selector(s.trim())
                .map_err(|e| format!("--selector {}: {e}", cube_model::terminal::escape_line(s)))?;
        }
    }
    Ok(())
}

fn placement_lines(p: &cube_model::placement::Placement, args: &Args) -> String {
    let mut out = format!("placement of a task asking for {}:\n", p.asked);
    if !args.gpus.is_empty() {
        out.push_str(&format!("  gpus: {}", args.gpus.join(", ")));
        match args
            .gpu_kind
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
        {
            Some(k) if k.contains('=') => out.push_str(&format!(" on nodes labelled {k}")),
            Some(k) => out.push_str(&format!(
                " on nodes labelled {}={k}",
                cube_model::node::CUBE_GPU_TYPE_LABEL
            )),
            None => {}
        }
        out.push('\n');
    }
    for d in &p.decisions {
        out.push_str(&format!("  {d}\n"));
    }
    for v in &p.refused {
        out.push_str(&format!("  refused by policy: {v}\n"));
    }
    for w in &p.warnings {
        out.push_str(&format!("  warning: {w}\n"));
    }
    if p.chosen.is_empty() {
        out.push_str("  no cluster takes the task\n");
    } else {
        out.push_str(&format!("  chosen: {}\n", p.chosen.join(", ")));
    }
    out
}

/// The JSON output: the fleet, and the placement when asked.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonOut<'a> {
    #[serde(flatten)]
    fleet: &'a cube_cluster::fleet::FleetReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    placement: Option<&'a cube_model::placement::Placement>,
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
        Ok(Exit::Yes) => i32::from(cube_examples::exit::OK),
        Ok(Exit::No) => i32::from(cube_examples::exit::FINDINGS),
        Ok(Exit::Incomplete) => i32::from(cube_examples::exit::INCOMPLETE),
        Err(e) => {
            cube_examples::eprint_line(&format!("error: {e:#}"));
            2
        }
    };
    std::process::exit(code);
}

fn run(args: &Args) -> anyhow::Result<Exit> {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 3600.0) {
        return Err(BadInput("--timeout must be between 0 and 3600 seconds".into()).into());
    }
    check_flags(args).map_err(BadInput)?;
    let limits = args.limits.limits().map_err(BadInput)?;
    let registry = cube_examples::read_registry_with(&args.registry, &limits).map_err(BadInput)?;
    // one policy for every read: the registry above, each cluster's kubeconfig and the files it
    // references, every request; each cluster's deadline is --timeout
    let options = FleetOptions {
        concurrency: usize::from(args.concurrency.max(1)),
        timeout: Duration::from_secs_f64(args.timeout),
        pool_label: args.pool_label.clone(),
        plugins: args.trust.plugins(),
        file_references: args.trust.file_references(),
        base_dir: cube_examples::registry_dir(&args.registry),
        ..FleetOptions::from_limits(&limits)
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
    let placement = if args.place {
        Some(place(args, &registry, &report)?)
    } else {
        None
    };
    match args.output {
        // secrets redacted, control characters escaped (the one redactor and escaper)
        Output::Table => {
            let mut text = report.to_table();
            if let Some(p) = &placement {
                text.push_str(&placement_lines(p, args));
            }
            cube_examples::print_stdout(&cube_examples::safe_text(text.trim_end()))?
        }
        Output::Json => cube_examples::print_stdout(&cube_examples::to_redacted_json(&JsonOut {
            fleet: &report,
            placement: placement.as_ref(),
        })?)?,
    }
    let answer_yes =
        report.not_ready == 0 && placement.as_ref().is_none_or(|p| !p.chosen.is_empty());
    Ok(if !answer_yes {
        Exit::No
    } else if report.clusters.iter().any(|c| c.incomplete) {
        // nodes or pods not listed completely (a limit hit, a repeated continue token, a
        // forbidden list): the figures are incomplete, never "all clear"
        Exit::Incomplete
    } else {
        Exit::Yes
    })
}

/// The answer of a run (exit codes 0, 1, 3).
enum Exit {
    Yes,
    No,
    Incomplete,
}
