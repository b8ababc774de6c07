//! Plan resource groups: print the Namespaces, ResourceQuotas, LimitRanges, PriorityClasses,
//! Roles and RoleBindings for `kubectl apply`, and, with a snapshot, the capacity report per
//! node pool, the usage per group and namespace, and the re-split steps.
//!
//! ```text
//! cargo run -p cube-examples --example group_plan -- \
//!     cube-model/examples-data/resource-groups.yaml
//! cargo run -p cube-examples --example group_plan -- GROUPS.yaml \
//!     --snapshot examples/data/snapshot-gpu-cluster.json --output json
//! ```
//!
//! GROUPS.yaml holds one group per YAML document, or a list of groups, or a `groups:` list
//! (JSON works too). With `--output yaml` the manifests go to stdout as multi-document YAML
//! and the report follows as `#` comment lines, so the output can be piped to
//! `kubectl apply -f -`. Exit codes: 0 planned, 2 bad input (unreadable or invalid groups,
//! shares above a bucket, GPU shares above the pool, bad arguments).

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::{Parser, ValueEnum};
use cube_model::ResourceGroup;
use cube_quota::plan::{
    GroupPlan, Manifest, ResplitReport, manifests_to_json, plan_groups, resplit_check,
};
use cube_quota::report::{CapacityReport, UsageRow, capacity_report, usage_report};
use serde::Serialize;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Output {
    Yaml,
    Json,
}

/// Plan resource groups into Kubernetes manifests and capacity/usage reports.
#[derive(Debug, Parser)]
#[command(name = "group_plan")]
struct Args {
    /// The resource groups file (YAML or JSON).
    groups: PathBuf,
    /// `kubectl get ... -o json|yaml` dumps of the cluster (repeatable).
    #[arg(long = "snapshot", num_args = 1..)]
    snapshots: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Output::Yaml)]
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
#[serde(rename_all = "camelCase")]
struct Report {
    manifests: serde_json::Value,
    warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capacity: Option<CapacityReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<Vec<UsageRow>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    resplit: Vec<(String, ResplitReport)>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    match run(&args) {
        Err(e) if e.downcast_ref::<BadInput>().is_some() => {
            eprintln!("error: {e:#}");
            std::process::exit(2);
        }
        other => other,
    }
}

/// Reads groups from YAML documents or JSON: a group, a list of groups, or `{groups: [...]}`.
fn read_groups(text: &str) -> anyhow::Result<Vec<ResourceGroup>> {
    let docs: Vec<serde_json::Value> = if text.trim_start().starts_with(['{', '[']) {
        vec![serde_json::from_str(text).context("groups file is not valid JSON")?]
    } else {
        serde_saphyr::from_multiple(text).context("groups file is not valid YAML")?
    };
    let mut values = Vec::new();
    for d in docs {
        match d {
            serde_json::Value::Array(items) => values.extend(items),
            serde_json::Value::Object(ref m) if m.contains_key("groups") => {
                if let Some(serde_json::Value::Array(items)) = m.get("groups") {
                    values.extend(items.iter().cloned());
                }
            }
            serde_json::Value::Null => {}
            other => values.push(other),
        }
    }
    let mut groups = Vec::new();
    let mut problems = Vec::new();
    for (i, v) in values.into_iter().enumerate() {
        match cube_examples::group_from_value(i, v) {
            Ok(g) => groups.push(g),
            Err(e) => problems.push(e),
        }
    }
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    Ok(groups)
}

fn run(args: &Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.groups)
        .with_context(|| format!("cannot read {}", args.groups.display()))
        .map_err(|e| BadInput(format!("{e:#}")))?;
    let groups =
        read_groups(&text).map_err(|e| BadInput(format!("{}: {e:#}", args.groups.display())))?;
    if groups.is_empty() {
        return Err(BadInput(format!("{}: no resource groups", args.groups.display())).into());
    }
    let snapshot = if args.snapshots.is_empty() {
        None
    } else {
        let (s, load_warnings) =
            cube_examples::load_snapshot_files(&args.snapshots).map_err(BadInput)?;
        for w in &load_warnings {
            eprintln!("warning: {w}");
        }
        if s.nodes.is_empty() {
            eprintln!("warning: the snapshot holds no nodes: capacity figures will be 0");
        }
        Some(s)
    };
    let plans: Vec<GroupPlan> = match plan_groups(&groups, snapshot.as_ref()) {
        Ok(p) => p,
        Err(errors) => {
            let msgs: Vec<String> = errors.iter().map(ToString::to_string).collect();
            return Err(BadInput(msgs.join("\n")).into());
        }
    };
    let manifests: Vec<Manifest> = plans
        .iter()
        .flat_map(|p| p.manifests.iter().cloned())
        .collect();
    // Cluster-scoped objects first, as kubectl applies in order.
    let mut ordered: Vec<Manifest> = manifests
        .iter()
        .filter(|m| matches!(m, Manifest::Namespace(_) | Manifest::PriorityClass(_)))
        .cloned()
        .collect();
    ordered.extend(
        manifests
            .iter()
            .filter(|m| !matches!(m, Manifest::Namespace(_) | Manifest::PriorityClass(_)))
            .cloned(),
    );
    let warnings: Vec<String> = plans
        .iter()
        .flat_map(|p| p.warnings.iter().cloned())
        .collect();
    // The capacity report repeats the group warnings already in the plans: print each once.
    let capacity = snapshot.as_ref().map(|s| {
        let mut c = capacity_report(&groups, s);
        c.warnings.retain(|w| !warnings.contains(&w.message));
        c
    });
    let usage = snapshot.as_ref().map(|s| usage_report(&plans, s));
    let resplit: Vec<(String, ResplitReport)> = snapshot
        .as_ref()
        .map(|s| {
            plans
                .iter()
                .map(|p| (p.group.clone(), resplit_check(p, s)))
                .collect()
        })
        .unwrap_or_default();

    match args.output {
        Output::Json => {
            let report = Report {
                manifests: manifests_to_json(&ordered)?,
                warnings,
                capacity,
                usage,
                resplit,
            };
            cube_examples::print_stdout(&serde_json::to_string_pretty(&report)?)?;
        }
        Output::Yaml => {
            print!("{}", cube_quota::plan::manifests_to_yaml(&ordered)?);
            let mut lines = Vec::new();
            for w in &warnings {
                lines.push(format!("warning: {w}"));
            }
            if let Some(c) = &capacity {
                for pool in &c.pools {
                    lines.push(format!(
                        "pool {} ({} nodes; groups: {})",
                        pool.pool,
                        pool.nodes.len(),
                        pool.groups.join(", ")
                    ));
                    for r in &pool.resources {
                        lines.push(format!(
                            "  {:<24} quota {:>12}  allocatable {:>12}  overcommit {}{}",
                            r.resource.as_str(),
                            r.quota.to_string(),
                            r.allocatable.to_string(),
                            r.overcommit,
                            if r.overcommit.is_overcommitted() {
                                "  OVERCOMMITTED"
                            } else {
                                ""
                            }
                        ));
                    }
                }
                for w in &c.warnings {
                    lines.push(format!("warning: {}", w.message));
                }
            }
            if let Some(rows) = &usage {
                lines.push(format!(
                    "{:<14} {:<16} {:<26} {:<26} {:>10} {:>10} {:>10} {:>10}",
                    "GROUP", "NAMESPACE", "QUOTA", "RESOURCE", "HARD", "USED", "REQUESTED", "FREE"
                ));
                for r in rows {
                    lines.push(format!(
                        "{:<14} {:<16} {:<26} {:<26} {:>10} {:>10} {:>10} {:>10}",
                        r.group,
                        r.namespace.as_deref().unwrap_or("(total)"),
                        r.quota,
                        r.resource.as_str(),
                        r.hard.to_string(),
                        r.used.to_string(),
                        r.requested.to_string(),
                        r.free.to_string()
                    ));
                }
            }
            for (g, r) in &resplit {
                for (i, st) in r.steps.iter().enumerate() {
                    lines.push(format!(
                        "step {} ({g}): {:?} {}/{}",
                        i + 1,
                        st.kind,
                        st.namespace,
                        st.quota
                    ));
                }
                for o in &r.over_quota {
                    lines.push(format!(
                        "over quota after re-split: {}/{} {} used {} > hard {} (nothing is evicted; new pods are refused)",
                        o.namespace,
                        o.quota,
                        o.resource.as_str(),
                        o.used,
                        o.hard
                    ));
                }
            }
            for l in lines {
                println!("# {l}");
            }
        }
    }
    if plans.is_empty() {
        bail!("nothing planned");
    }
    Ok(())
}
