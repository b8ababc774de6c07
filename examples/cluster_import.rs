//! Import a cluster from a kubeconfig: validate the file (offline), check the connection with a
//! classified outcome, verify RBAC against a capability profile, and print the least-privilege
//! manifests when something is missing or too broad.
//!
//! ```text
//! cargo run -p cube-examples --example cluster_import -- --kubeconfig ~/.kube/config --offline
//! cargo run -p cube-examples --example cluster_import -- --kubeconfig admin.conf \
//!     --server https://127.0.0.1:6443 --profile console-readonly --output json
//! ```
//!
//! Exit codes: 0 importable, 1 not importable (validation errors, connection failure, missing
//! permissions), 2 bad input (unreadable or unparseable file, unknown context or profile, bad
//! arguments). Exec and auth-provider plugins are never run unless `--allow-exec` is given.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Parser, ValueEnum};
use cube_cluster::client::{ClientOptions, build_client};
use cube_cluster::connect::{CheckOptions, ConnectReport, Outcome, check_client};
use cube_cluster::kubeconfig::{Kubeconfig, PluginPolicy, Problem, SelectOptions, Severity};
use cube_cluster::manifests::{ManifestOptions, manifests_for};
use cube_cluster::profiles::{CapabilityReport, KubeReviewer, Profile, check_profile};
use serde::Serialize;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Output {
    Table,
    Json,
}

/// Import a cluster from a kubeconfig.
#[derive(Debug, Parser)]
#[command(name = "cluster_import")]
struct Args {
    /// The kubeconfig file (only this file is read, like kubectl --kubeconfig).
    #[arg(long)]
    kubeconfig: PathBuf,
    /// Context to use (default: current-context).
    #[arg(long)]
    context: Option<String>,
    /// Address the console reaches the API server at; TLS keeps verifying the original name.
    #[arg(long)]
    server: Option<String>,
    /// Capability profile to verify (view-nodes, console-readonly, resource-group-admin,
    /// workload-submit).
    #[arg(long)]
    profile: Option<String>,
    /// Namespaces for namespaced profiles (repeatable).
    #[arg(long = "namespace")]
    namespaces: Vec<String>,
    /// Validate the file only; open no connection.
    #[arg(long)]
    offline: bool,
    /// Allow exec/auth-provider plugins to run.
    #[arg(long)]
    allow_exec: bool,
    /// Per-request timeout in seconds.
    #[arg(long, default_value_t = 10)]
    timeout_secs: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Output::Table)]
    output: Output,
}

#[derive(Debug, Serialize)]
struct ContextProblems {
    context: String,
    problems: Vec<Problem>,
}

#[derive(Debug, Serialize)]
struct Report {
    kubeconfig: String,
    context: Option<String>,
    server: Option<String>,
    tls_server_name: Option<String>,
    importable: bool,
    /// Problems of the selected context.
    problems: Vec<Problem>,
    /// Problems of the other contexts of the file.
    other_contexts: Vec<ContextProblems>,
    connection: Option<ConnectReport>,
    rbac: Option<CapabilityReport>,
    /// Least-privilege manifests (YAML) when permissions are missing or too broad.
    manifests: Option<String>,
}

enum Failure {
    BadInput(anyhow::Error),
    Other(anyhow::Error),
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(&args)) {
        Ok(report) => {
            match args.output {
                Output::Json => match serde_json::to_string_pretty(&report) {
                    Ok(s) => println!("{s}"),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(1);
                    }
                },
                Output::Table => print_table(&report),
            }
            if report.importable {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(Failure::BadInput(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
        Err(Failure::Other(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

async fn run(args: &Args) -> Result<Report, Failure> {
    let mut cfg = Kubeconfig::read(&args.kubeconfig)
        .with_context(|| format!("load {}", args.kubeconfig.display()))
        .map_err(Failure::BadInput)?;
    let profile = match &args.profile {
        Some(p) => Some(Profile::builtin(p).map_err(|e| Failure::BadInput(e.into()))?),
        None => None,
    };
    let mut opts = SelectOptions::new();
    opts.context = args.context.clone();
    if args.allow_exec {
        opts.plugins = PluginPolicy::Allow;
    }
    if let Some(c) = &opts.context
        && cfg.context(c).is_none()
    {
        return Err(Failure::BadInput(anyhow::anyhow!(
            "context {c:?} does not exist"
        )));
    }
    if let Some(server) = &args.server {
        let ctx = opts
            .context
            .clone()
            .or_else(|| cfg.current_context.clone())
            .unwrap_or_default();
        let cluster = cfg
            .context(&ctx)
            .map(|c| c.context.cluster.clone())
            .unwrap_or_default();
        if cfg.cluster(&cluster).is_some() {
            cfg.rewrite_server(&cluster, server)
                .map_err(|e| Failure::BadInput(e.into()))?;
        } else {
            opts.server = Some(server.clone());
        }
    }
    let problems = cfg.check(&opts);
    let selected = opts.context.clone().or_else(|| cfg.current_context.clone());
    let other_contexts = cfg
        .check_all(&opts)
        .into_iter()
        .filter(|(c, _)| Some(c) != selected.as_ref())
        .map(|(context, problems)| ContextProblems { context, problems })
        .collect();
    let selection = cfg.select(&opts).ok();
    let mut report = Report {
        kubeconfig: args.kubeconfig.display().to_string(),
        context: selected,
        server: selection.as_ref().map(|s| s.server.clone()),
        tls_server_name: selection.as_ref().and_then(|s| s.tls_server_name.clone()),
        importable: selection.is_some(),
        problems,
        other_contexts,
        connection: None,
        rbac: None,
        manifests: None,
    };
    let Some(selection) = selection else {
        return Ok(report);
    };
    if args.offline {
        return Ok(report);
    }

    let timeout = Duration::from_secs(args.timeout_secs.max(1));
    let client_opts = ClientOptions::with_timeout(timeout);
    let client = match build_client(&selection, &client_opts) {
        Ok(c) => c,
        Err(e) => {
            report.importable = false;
            report.connection = Some(ConnectReport {
                server: selection.server.clone(),
                outcome: Outcome::Failed {
                    class: cube_cluster::classify::Class::ConfigInvalid {
                        reason: e.to_string(),
                    },
                    message: cube_cluster::classify::error_chain_text(&e),
                },
                elapsed_ms: 0,
            });
            return Ok(report);
        }
    };
    let start = std::time::Instant::now();
    let check_opts = CheckOptions {
        client: client_opts,
        ..CheckOptions::default()
    };
    let outcome = check_client(&client, &check_opts).await;
    let ok = matches!(outcome, Outcome::Ok { .. });
    report.connection = Some(ConnectReport {
        server: selection.server.clone(),
        outcome,
        elapsed_ms: start.elapsed().as_millis() as u64,
    });
    if !ok {
        report.importable = false;
        return Ok(report);
    }
    if let Some(profile) = profile {
        let reviewer = KubeReviewer::new(client);
        let rbac = check_profile(&reviewer, &profile, &args.namespaces, 8)
            .await
            .map_err(|e| Failure::BadInput(e.into()))?;
        if !rbac.is_sufficient() || !rbac.warnings.is_empty() {
            let m = manifests_for(
                &profile,
                &args.namespaces,
                &ManifestOptions::new("cube-console", "cube-system"),
            )
            .map_err(|e| Failure::Other(e.into()))?;
            report.manifests = Some(m.to_yaml().map_err(|e| Failure::Other(e.into()))?);
        }
        report.importable = rbac.is_sufficient();
        report.rbac = Some(rbac);
    }
    Ok(report)
}

fn print_table(r: &Report) {
    println!("kubeconfig  {}", r.kubeconfig);
    println!("context     {}", r.context.as_deref().unwrap_or("-"));
    println!("server      {}", r.server.as_deref().unwrap_or("-"));
    if let Some(n) = &r.tls_server_name {
        println!("tls name    {n}");
    }
    println!("importable  {}", if r.importable { "yes" } else { "no" });
    if !r.problems.is_empty() {
        println!("\nPROBLEMS (selected context)");
        for p in &r.problems {
            print_problem(p);
        }
    }
    for c in &r.other_contexts {
        if c.problems.is_empty() {
            continue;
        }
        println!("\nPROBLEMS (context {})", c.context);
        for p in &c.problems {
            print_problem(p);
        }
    }
    if let Some(c) = &r.connection {
        println!("\nCONNECTION  {} ({} ms)", c.outcome.id(), c.elapsed_ms);
        match &c.outcome {
            Outcome::Ok { version, user, .. } => {
                println!("  version   {}", version.git_version);
                println!("  user      {}", user.as_deref().unwrap_or("(unknown)"));
            }
            Outcome::Failed { class, message } => {
                println!("  hint      {}", class.hint());
                println!("  detail    {message}");
            }
        }
    }
    if let Some(rbac) = &r.rbac {
        println!(
            "\nRBAC profile {}: {}",
            rbac.profile,
            if rbac.is_sufficient() {
                "sufficient"
            } else {
                "missing permissions"
            }
        );
        for res in &rbac.results {
            println!(
                "  {:<10} {:<8} {}/{} ns={}",
                format!("{:?}", res.outcome).to_lowercase(),
                res.scoped.check.verb,
                res.scoped.check.group,
                res.scoped.check.rule_resource(),
                if res.scoped.namespace.is_empty() {
                    "*"
                } else {
                    &res.scoped.namespace
                }
            );
        }
        for m in &rbac.missing {
            println!("  missing   {m}");
        }
        for w in &rbac.warnings {
            println!("  warning   {w}");
        }
    }
    if let Some(m) = &r.manifests {
        println!("\n# Least-privilege manifests to apply:\n{m}");
    }
}

fn print_problem(p: &Problem) {
    let sev = match p.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    };
    let mut line = format!("  {sev:<8} {:<26} {}", p.kind.id(), p.message);
    if let Some(s) = &p.suggestion {
        line.push_str(&format!(" ({s})"));
    }
    println!("{line}");
}
