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
//! `kubectl apply -f -`.
//!
//! With `--registry FILE` each group's `placement.cluster` / `placement.clusterSelector` (and
//! its tolerations, against the clusters' taints) is resolved against the cluster registry, the
//! decision about every cluster is printed with its reasons, and one manifest set is rendered
//! per target cluster, each holding that cluster's share of the group's quota, with the proof
//! that the shares add up to no more than the group (`cube_quota::split`). `--out-dir DIR`
//! writes one `DIR/<cluster>.yaml` per cluster. `--probe` probes the registry's clusters first
//! (`cube_cluster::fleet`) so unreachable or not-ready clusters are left out.
//! `--require-cluster-selector` and `--production-default allow|warn|refuse` are the placement
//! policy (`cube_model::placement`). Without `--registry`, a group naming a cluster or a
//! cluster selector is planned for whichever cluster the manifests are applied to, with a
//! warning saying so.
//!
//! `--diff` and `--apply` talk to the cluster(s) (`cube_cluster::apply`): `--kubeconfig FILE
//! [--context C]` names one cluster for every manifest, or, with `--registry`, each target
//! cluster is reached through its registry entry. `--diff` shows the drift between each cluster
//! and the plan, per object and field (only the fields the plan sets; a field another manager
//! owns is named with its manager), and the server's verdict on a `dryRun=All` apply; nothing is
//! written. `--apply` does the same, then applies with server-side apply (field manager
//! `cube-rs`) in a safe order (namespaces, PriorityClasses and LimitRanges before quotas, lowered
//! quotas before raised ones), and reads the group's quota usage back across its namespaces and
//! clusters. `--prune` deletes objects the plan no longer holds that cube-rs applied for the
//! group (never a namespace); `--force-conflicts` takes over fields other managers changed.
//!
//! ```text
//! cargo run -p cube-examples --example group_plan -- GROUPS.yaml --diff --kubeconfig ~/.kube/config
//! cargo run -p cube-examples --example group_plan -- GROUPS.yaml --registry clusters.yaml --apply --prune
//! ```
//!
//! Exit codes (as every example program, see `examples/README.md`): 0 planned (and, with
//! `--diff`, every cluster in sync; with `--apply`, applied), 1 `--diff` found drift or a dry-run
//! rejection, or `--apply` was refused or failed, 2 bad input (unreadable or invalid groups,
//! shares above a bucket, GPU shares above the pool, a placement no cluster takes or the policy
//! refuses, a kubeconfig that cannot be used, bad arguments), 3 planned but the snapshot behind
//! the capacity report is incomplete (a kind missing, a limit hit, an item of the input skipped).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, bail};
use clap::{Parser, ValueEnum};
use cube_model::ResourceGroup;
use cube_model::placement::{
    ClusterState, PlacementPolicy, PolicyMode, TemplatePlacement, check_templates,
};
use cube_quota::plan::{
    GroupPlan, Manifest, ResplitReport, manifests_to_json, plan_groups, resplit_check,
};
use cube_quota::report::{CapacityReport, UsageRow, capacity_report, usage_report};
use cube_quota::split::{GroupPlacement, ShareCheck, plan_groups_on_registry};
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
    /// The cluster registry: resolve each group's cluster selector and render one manifest set
    /// per target cluster.
    #[arg(long)]
    registry: Option<PathBuf>,
    /// With --registry: write one <cluster>.yaml per target cluster into this directory.
    #[arg(long, requires = "registry")]
    out_dir: Option<PathBuf>,
    /// With --registry: probe the clusters first and leave out unreachable or not-ready ones.
    #[arg(long, requires = "registry")]
    probe: bool,
    /// Per-cluster deadline of --probe, seconds.
    #[arg(long, default_value_t = 10.0, value_parser = cube_examples::seconds)]
    probe_timeout: f64,
    /// Show the drift between the cluster(s) and the plan and the server's dry-run verdict;
    /// write nothing.
    #[arg(long, conflicts_with = "apply")]
    diff: bool,
    /// Apply the plan with server-side apply (after a server-side dry run).
    #[arg(long)]
    apply: bool,
    /// With --apply: delete objects cube-rs applied for the group that the plan no longer holds
    /// (never namespaces).
    #[arg(long, requires = "apply")]
    prune: bool,
    /// With --apply: take over fields other field managers changed (force=true).
    #[arg(long)]
    force_conflicts: bool,
    /// The cluster for --diff/--apply without --registry.
    #[arg(long, conflicts_with = "registry")]
    kubeconfig: Option<PathBuf>,
    /// Context of --kubeconfig (default: its current-context).
    #[arg(long, requires = "kubeconfig")]
    context: Option<String>,
    /// `--allow-exec` and `--allow-file-refs` for the kubeconfig(s), as in every program that
    /// reads kubeconfigs.
    #[command(flatten)]
    trust: cube_examples::KubeconfigTrust,
    /// Per-request timeout of --diff/--apply, seconds (default 15). The same timeout as
    /// `--request-timeout-secs`: give one of them (both together are refused).
    #[arg(long, value_parser = cube_examples::seconds)]
    timeout: Option<f64>,
    /// Placement policy: every group must name a cluster selector (or a cluster).
    #[arg(long)]
    require_cluster_selector: bool,
    /// Placement policy: a group without selector falling back to a default cluster labelled
    /// env=prod.
    #[arg(long, value_enum, default_value_t = Mode::Warn)]
    production_default: Mode,
    /// Limits on input size and work.
    #[command(flatten)]
    limits: cube_examples::LimitArgs,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Mode {
    Allow,
    Warn,
    Refuse,
}

impl From<Mode> for PolicyMode {
    fn from(m: Mode) -> Self {
        match m {
            Mode::Allow => PolicyMode::Allow,
            Mode::Warn => PolicyMode::Warn,
            Mode::Refuse => PolicyMode::Refuse,
        }
    }
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
    #[serde(skip_serializing_if = "Option::is_none")]
    manifests: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    clusters: Vec<ClusterManifests>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    placements: Vec<PlacementReport>,
    warnings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capacity: Option<CapacityReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<Vec<UsageRow>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    resplit: Vec<(String, ResplitReport)>,
    /// Why the capacity and usage figures are incomplete (a kind missing, a limit hit, an item
    /// of the input skipped).
    #[serde(skip_serializing_if = "Option::is_none")]
    incomplete: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    apply: Vec<ClusterApply>,
}

/// What --diff/--apply did on one cluster.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterApply {
    cluster: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    report: Option<cube_cluster::apply::ApplyReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// One target cluster's manifests.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterManifests {
    cluster: String,
    groups: Vec<String>,
    manifests: serde_json::Value,
}

/// One group's placement with the proof of its shares.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PlacementReport {
    group: String,
    placement: cube_model::placement::Placement,
    proof: Vec<ShareCheck>,
}

/// Cluster-scoped objects first (Namespaces, PriorityClasses), as kubectl applies in order.
fn apply_order(manifests: &[Manifest]) -> Vec<Manifest> {
    let cluster_scoped =
        |m: &Manifest| matches!(m, Manifest::Namespace(_) | Manifest::PriorityClass(_));
    let mut ordered: Vec<Manifest> = manifests
        .iter()
        .filter(|m| cluster_scoped(m))
        .cloned()
        .collect();
    ordered.extend(manifests.iter().filter(|m| !cluster_scoped(m)).cloned());
    ordered
}

/// Per target cluster: its name, the groups and the manifests.
type PerCluster = Vec<(String, (Vec<String>, Vec<Manifest>))>;

/// The manifests of every group for each target cluster (first-seen cluster order), with the
/// groups they come from.
fn manifests_per_cluster(placements: &[GroupPlacement]) -> PerCluster {
    let mut out: PerCluster = Vec::new();
    for p in placements {
        for c in &p.plan.clusters {
            let idx = match out.iter().position(|(n, _)| *n == c.cluster) {
                Some(i) => i,
                None => {
                    out.push((c.cluster.clone(), (Vec::new(), Vec::new())));
                    out.len() - 1
                }
            };
            let entry = &mut out[idx].1;
            entry.0.push(p.group.clone());
            entry.1.extend(c.plan.manifests.iter().cloned());
        }
    }
    for (_, (_, ms)) in &mut out {
        *ms = apply_order(ms);
    }
    out
}

/// Resolves the groups' placement against `--registry` (probing it first with `--probe`), or
/// warns that a cluster selector is not resolved without one.
fn resolve_placements(
    args: &Args,
    groups: &[ResourceGroup],
    policy: &PlacementPolicy,
    warnings: &mut Vec<String>,
) -> anyhow::Result<Option<Vec<GroupPlacement>>> {
    let Some(path) = &args.registry else {
        for g in groups {
            let p = &g.placement;
            let named = p.cluster.as_deref().filter(|s| !s.trim().is_empty());
            let sel = p
                .cluster_selector
                .as_deref()
                .filter(|s| !s.trim().is_empty());
            if named.is_some() || sel.is_some() {
                warnings.push(format!(
                    "group {:?}: placement {} is not resolved (no --registry given): the manifests are for whichever cluster you apply them to",
                    g.name,
                    match (named, sel) {
                        (Some(n), Some(s)) => format!("cluster {n:?} with clusterSelector {s:?}"),
                        (Some(n), None) => format!("cluster {n:?}"),
                        (None, Some(s)) => format!("clusterSelector {s:?}"),
                        (None, None) => String::new(),
                    }
                ));
            } else if policy.require_cluster_selector {
                return Err(BadInput(format!(
                    "group {:?}: the placement policy requires a cluster selector (or a cluster) and the group names none",
                    g.name
                ))
                .into());
            }
        }
        return Ok(None);
    };
    let registry = cube_examples::read_registry(path).map_err(BadInput)?;
    let templates: Vec<TemplatePlacement> =
        groups.iter().map(TemplatePlacement::of_group).collect();
    for f in check_templates(&registry, &templates, policy) {
        if !f.refused {
            warnings.push(f.to_string());
        }
    }
    let states: BTreeMap<String, ClusterState> = if args.probe {
        if !(args.probe_timeout.is_finite()
            && args.probe_timeout > 0.0
            && args.probe_timeout <= 3600.0)
        {
            return Err(
                BadInput("--probe-timeout must be between 0 and 3600 seconds".into()).into(),
            );
        }
        let options = cube_cluster::fleet::FleetOptions {
            timeout: Duration::from_secs_f64(args.probe_timeout),
            base_dir: cube_examples::registry_dir(path),
            plugins: args.trust.plugins(),
            file_references: args.trust.file_references(),
            ..cube_cluster::fleet::FleetOptions::default()
        };
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let report = rt.block_on(cube_cluster::fleet::probe_fleet(
            &registry,
            &options,
            &|_| {},
        ));
        for c in report.clusters.iter().filter(|c| !c.is_ready()) {
            warnings.push(format!(
                "cluster {}: not ready ({}: {})",
                c.name, c.ready.reason, c.ready.message
            ));
        }
        report.states()
    } else {
        BTreeMap::new()
    };
    match plan_groups_on_registry(groups, &registry, &states, policy) {
        Ok(p) => {
            for gp in &p {
                warnings.extend(gp.placement.warnings.iter().cloned());
            }
            Ok(Some(p))
        }
        Err(errors) => {
            let msgs: Vec<String> = errors.iter().map(ToString::to_string).collect();
            Err(BadInput(msgs.join("\n")).into())
        }
    }
}

fn main() -> ExitCode {
    cube_examples::init_tracing();
    let args = Args::parse();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            cube_examples::eprint_line(&format!("error: {e:#}"));
            // unreadable or invalid input, plans that cannot be made: all bad input
            ExitCode::from(cube_examples::exit::BAD_INPUT)
        }
    }
}

/// A `ClusterApi` for `--kubeconfig [--context]`.
fn kubeconfig_api(
    args: &Args,
    path: &std::path::Path,
) -> anyhow::Result<Result<std::sync::Arc<dyn cube_cluster::api::ClusterApi>, String>> {
    use cube_cluster::kubeconfig::Kubeconfig;
    let limits = args.limits.limits().map_err(BadInput)?;
    let cfg = Kubeconfig::read_with(path, &limits)
        .map_err(|e| BadInput(cube_cluster::classify::error_chain_text(&e)))?;
    let opts = args.trust.select_options(args.context.as_deref(), &limits);
    let sel = cfg.select(&opts).map_err(|e| {
        // the one line every program gives (no current-context: the contexts named; a
        // refused file reference: --allow-file-refs named), else the client-go text
        let problems = cfg.check(&opts);
        BadInput(
            cube_examples::unusable_kubeconfig(&path.display().to_string(), &problems)
                .unwrap_or_else(|| format!("{}: {e}", path.display())),
        )
    })?;
    let client = match cube_cluster::client::build_client(
        &sel,
        &cube_cluster::client::ClientOptions::with_timeout(request_timeout(args)?),
    ) {
        Ok(client) => client,
        // G12: an exec plugin that gave no credential is `exec-plugin-failed` (the kubeconfig
        // is valid, the cluster could not be used: a failed --diff/--apply, exit 1), as in
        // cluster_import, cluster_diagnose and cluster_fleet; anything else is bad input
        Err(e) => {
            return match cube_cluster::classify::classify_build_error(&e) {
                class @ cube_cluster::classify::Class::ExecPluginFailed { .. } => {
                    Ok(Err(class_text(&class)))
                }
                _ => Err(BadInput(format!(
                    "{}: {}",
                    path.display(),
                    cube_cluster::classify::error_chain_text(&e)
                ))
                .into()),
            };
        }
    };
    Ok(Ok(std::sync::Arc::new(client)))
}

/// A classified failure to reach a cluster as one line: `<class id>: <reason or hint>`
/// (`exec-plugin-failed: the kubeconfig's exec credential plugin gave no credential ...`).
fn class_text(class: &cube_cluster::classify::Class) -> String {
    match class {
        cube_cluster::classify::Class::ConfigInvalid { reason } => {
            format!("{}: {reason}", class.id())
        }
        other => format!("{}: {}", other.id(), other.hint()),
    }
}

/// The per-request timeout of --diff/--apply: `--timeout` (default 15 s) or
/// `--request-timeout-secs`, never both (fresh-user G10: one was ignored without a word).
fn request_timeout(args: &Args) -> anyhow::Result<Duration> {
    match (args.timeout, args.limits.request_timeout_given()) {
        (Some(_), true) => Err(BadInput(
            "--timeout and --request-timeout-secs set the same per-request timeout: give one of them".into(),
        )
        .into()),
        (Some(t), false) if !(t.is_finite() && t > 0.0 && t <= 3600.0) => {
            Err(BadInput("--timeout must be between 0 and 3600 seconds".into()).into())
        }
        (Some(t), false) => Ok(Duration::from_secs_f64(t)),
        (None, true) => Ok(args.limits.limits().map_err(BadInput)?.request_timeout),
        (None, false) => Ok(Duration::from_secs(15)),
    }
}

/// `--diff` / `--apply` on each target cluster, one after the other.
fn run_apply(
    args: &Args,
    plans: &[GroupPlan],
    per_cluster: Option<&PerCluster>,
) -> anyhow::Result<Vec<ClusterApply>> {
    use cube_cluster::apply::{ApplyOptions, PlanObjects, apply_plan};
    let timeout = request_timeout(args)?;
    // Clients are built inside the runtime (kube's client spawns its buffer task).
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let _inside = rt.enter();
    type Target = (
        String,
        Result<std::sync::Arc<dyn cube_cluster::api::ClusterApi>, String>,
        PlanObjects,
    );
    let to_objects = |groups: &[String], ms: &[Manifest]| {
        PlanObjects::from_manifests(groups, ms).map_err(|e| BadInput(e.to_string()))
    };
    let targets: Vec<Target> = match per_cluster {
        None => {
            let Some(kc) = &args.kubeconfig else {
                return Err(BadInput(
                    "--diff and --apply need the cluster: --kubeconfig FILE [--context C], or --registry FILE".into(),
                )
                .into());
            };
            let api = kubeconfig_api(args, kc)?;
            let groups: Vec<String> = plans.iter().map(|p| p.group.clone()).collect();
            let all: Vec<Manifest> = plans
                .iter()
                .flat_map(|p| p.manifests.iter().cloned())
                .collect();
            let name = args
                .context
                .clone()
                .unwrap_or_else(|| kc.display().to_string());
            vec![(name, api, to_objects(&groups, &apply_order(&all))?)]
        }
        Some(pc) => {
            let path = args
                .registry
                .as_ref()
                .ok_or_else(|| BadInput("--registry".into()))?;
            let limits = args.limits.limits().map_err(BadInput)?;
            let registry = cube_examples::read_registry_with(path, &limits).map_err(BadInput)?;
            let fleet = cube_cluster::fleet::FleetOptions {
                timeout,
                base_dir: cube_examples::registry_dir(path),
                plugins: args.trust.plugins(),
                file_references: args.trust.file_references(),
                ..cube_cluster::fleet::FleetOptions::from_limits(&limits)
            };
            let mut apis: BTreeMap<String, _> =
                cube_cluster::fleet::targets_from_registry(&registry, &fleet)
                    .into_iter()
                    .map(|t| (t.cluster.name.clone(), t.api.map_err(|c| class_text(&c))))
                    .collect();
            let mut out = Vec::new();
            for (cluster, (gs, ms)) in pc {
                let api = apis
                    .remove(cluster)
                    .unwrap_or_else(|| Err(format!("cluster {cluster:?} is not in the registry")));
                out.push((cluster.clone(), api, to_objects(gs, ms)?));
            }
            out
        }
    };
    let options = ApplyOptions {
        force_conflicts: args.force_conflicts,
        prune: args.prune,
        dry_run_only: args.diff,
        ..ApplyOptions::default()
    };
    let mut results = Vec::new();
    for (cluster, api, objects) in targets {
        let r = match api {
            Err(e) => ClusterApply {
                cluster,
                report: None,
                error: Some(e),
            },
            Ok(api) => match rt.block_on(apply_plan(&*api, &objects, &options)) {
                Ok(report) => ClusterApply {
                    cluster,
                    report: Some(report),
                    error: None,
                },
                Err(e) => ClusterApply {
                    cluster,
                    report: None,
                    error: Some(cube_cluster::classify::error_chain_text(&e)),
                },
            },
        };
        results.push(r);
    }
    Ok(results)
}

/// The text of --diff/--apply results.
fn apply_lines(results: &[ClusterApply], diff: bool) -> Vec<String> {
    use cube_cluster::apply::{ApplyOutcome, DriftState};
    let mut lines = Vec::new();
    let mut totals: BTreeMap<
        (String, String, String),
        (cube_model::Quantity, Option<cube_model::Quantity>),
    > = BTreeMap::new();
    for r in results {
        let Some(rep) = &r.report else {
            lines.push(format!(
                "cluster {}: not reached: {}",
                r.cluster,
                r.error.as_deref().unwrap_or_default()
            ));
            continue;
        };
        let verdict = match rep.outcome {
            ApplyOutcome::DryRunPassed if rep.in_sync() => "in sync (server dry run passed)",
            ApplyOutcome::DryRunPassed => "drifted (server dry run passed)",
            ApplyOutcome::DryRunRejected => "refused by the server's dry run: nothing written",
            ApplyOutcome::Applied => "applied",
            ApplyOutcome::Failed => "failed part way (what came before was applied)",
            _ => "done",
        };
        lines.push(format!("cluster {}: {verdict}", r.cluster));
        let in_sync = rep
            .drift
            .iter()
            .filter(|d| d.state == DriftState::InSync)
            .count();
        for d in rep.drift.iter().filter(|d| d.state != DriftState::InSync) {
            for l in d.to_string().lines() {
                lines.push(format!("  {l}"));
            }
        }
        lines.push(format!(
            "  {in_sync} of {} objects in sync",
            rep.drift.len()
        ));
        for d in &rep.deferred {
            lines.push(format!("  dry run after its namespace exists: {d}"));
        }
        for x in &rep.rejections {
            lines.push(format!("  {x}"));
            for c in &x.causes {
                lines.push(format!("    {c}"));
            }
            if let Some(h) = &x.hint {
                lines.push(format!("    why: {h}"));
            }
        }
        if !diff {
            for a in &rep.actions {
                let word = match a.action {
                    cube_cluster::apply::Action::Created => "created",
                    cube_cluster::apply::Action::Configured => "configured",
                    cube_cluster::apply::Action::Unchanged => "unchanged",
                    cube_cluster::apply::Action::Lowered => "lowered first",
                    cube_cluster::apply::Action::Deleted => "deleted",
                    _ => "changed",
                };
                lines.push(format!("  {word} {}", a.object));
            }
        }
        for w in &rep.warnings {
            lines.push(format!("  warning: {w}"));
        }
        for u in rep.usage.iter().filter(|u| u.namespace.is_some()) {
            for (k, h) in &u.hard {
                let used = u
                    .used
                    .as_ref()
                    .map(|x| x.get_or_zero(k.as_str()).to_string())
                    .unwrap_or_else(|| "(not yet computed)".into());
                lines.push(format!(
                    "  usage {}/{} {}: used {used} of {h}",
                    u.namespace.as_deref().unwrap_or_default(),
                    u.quota,
                    k.as_str()
                ));
            }
        }
        for u in rep.usage.iter().filter(|u| u.namespace.is_none()) {
            for (k, h) in &u.hard {
                let e = totals
                    .entry((u.group.clone(), u.quota.clone(), k.to_string()))
                    .or_insert((cube_model::Quantity::ZERO, Some(cube_model::Quantity::ZERO)));
                e.0 = e.0.checked_add(h).unwrap_or_else(|| e.0.clone());
                e.1 = match (e.1.take(), u.used.as_ref()) {
                    (Some(acc), Some(used)) => acc.checked_add(&used.get_or_zero(k.as_str())),
                    _ => None,
                };
            }
        }
    }
    for ((g, q, k), (hard, used)) in totals {
        lines.push(format!(
            "group {g} over its namespaces and clusters: {q} {k}: used {} of {hard}",
            used.map(|u| u.to_string())
                .unwrap_or_else(|| "(not known everywhere)".into())
        ));
    }
    lines
}

/// `error` with the line of the file where the unknown key it names (serde's ``unknown field
/// `x` ``) is first written, when it names one: `line 7: groups[0].placement: unknown field
/// ...` (the groups are read through a JSON value, which has no lines).
fn with_unknown_key_line(text: &str, error: String) -> String {
    let Some(key) = error
        .split("unknown field `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
    else {
        return error;
    };
    let at = text.lines().position(|l| {
        let t = l.trim_start().trim_start_matches("- ").trim_start();
        t.starts_with(&format!("{key}:"))
            || t.starts_with(&format!("\"{key}\""))
            || l.contains(&format!("\"{key}\":"))
            || l.contains(&format!("{{{key}:"))
            || l.contains(&format!(", {key}:"))
    });
    match at {
        Some(n) => format!("line {}: {error}", n + 1),
        None => error,
    }
}

/// Reads groups from YAML documents or JSON: a group, a list of groups, or `{groups: [...]}`.
/// Unknown keys are refused, named with their line.
/// YAML aliases share one budget for the whole file (`--limit yaml-alias-expansions=N`).
fn read_groups(text: &str, limits: &cube_model::Limits) -> anyhow::Result<Vec<ResourceGroup>> {
    let json = text
        .trim_start()
        .starts_with(['{', '['])
        .then(|| serde_json::from_str::<serde_json::Value>(text));
    let docs: Vec<serde_json::Value> = if let Some(Ok(v)) = json {
        vec![v]
    } else if let Some(Err(e)) = json.filter(|_| {
        // YAML in flow style (`{name: team, owner: alice, ...}`) is read as YAML
        cube_model::yaml::from_str::<serde_json::Value>(
            text,
            limits,
            serde_saphyr::options! { with_snippet: false },
        )
        .is_err()
    }) {
        return Err(e).context("groups file is not valid JSON");
    } else {
        let options = serde_saphyr::options! { with_snippet: false };
        cube_model::yaml::AliasBudget::new(limits)
            .parse_multiple(text, options)
            .map_err(|e| {
                let e = e.to_string();
                anyhow::anyhow!(cube_model::redact::redact_string(
                    e.lines().next().unwrap_or("")
                ))
            })
            .context("groups file is not valid YAML")?
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
            Err(e) => problems.push(with_unknown_key_line(text, e)),
        }
    }
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    Ok(groups)
}

fn run(args: &Args) -> anyhow::Result<u8> {
    let limits = args.limits.limits().map_err(BadInput)?;
    let text = cube_examples::read_input_text(&args.groups, &limits)
        .map_err(|e| BadInput(e.to_string()))?;
    let groups = read_groups(&text, &limits)
        .map_err(|e| BadInput(format!("{}: {e:#}", args.groups.display())))?;
    if groups.is_empty() {
        return Err(BadInput(format!("{}: no resource groups", args.groups.display())).into());
    }
    let snapshot = if args.snapshots.is_empty() {
        None
    } else {
        let (s, load_warnings) =
            cube_examples::load_snapshot_files_with(&args.snapshots, &limits).map_err(BadInput)?;
        for w in &load_warnings {
            cube_examples::eprint_line(&format!("warning: {w}"));
        }
        if s.nodes.is_empty() {
            cube_examples::eprint_line(
                "warning: the snapshot holds no nodes: capacity figures will be 0",
            );
        }
        Some(s)
    };
    let incomplete = snapshot.as_ref().filter(|s| s.is_incomplete()).map(|s| {
        let why = s.incomplete_reasons();
        format!(
            "the snapshot is incomplete, capacity and usage miss part of the cluster: {}",
            why.join("; ")
        )
    });
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
    let ordered = apply_order(&manifests);
    let mut warnings: Vec<String> = plans
        .iter()
        .flat_map(|p| p.warnings.iter().cloned())
        .collect();
    let policy = PlacementPolicy {
        require_cluster_selector: args.require_cluster_selector,
        production_default: args.production_default.into(),
        ..PlacementPolicy::default()
    };
    let placements = resolve_placements(args, &groups, &policy, &mut warnings)?;
    let per_cluster = placements.as_deref().map(manifests_per_cluster);
    let applied = if args.diff || args.apply {
        run_apply(args, &plans, per_cluster.as_ref())?
    } else {
        Vec::new()
    };
    let success = applied.iter().all(|a| {
        a.report.as_ref().is_some_and(|r| {
            if args.diff {
                r.in_sync() && r.rejections.is_empty()
            } else {
                r.outcome == cube_cluster::apply::ApplyOutcome::Applied
            }
        })
    });
    // The capacity report repeats the group warnings already in the plans: print each once.
    let capacity = snapshot.as_ref().map(|s| {
        let mut c = capacity_report(&groups, s);
        c.warnings.retain(|w| !warnings.contains(&w.message));
        c
    });
    // A pool no node of the snapshot belongs to: every quota of its groups is infinitely
    // overcommitted (fresh-user report 2, G39): an error, not a plan to apply as is.
    let empty_pools: Vec<String> = capacity
        .iter()
        .flat_map(|c| c.pools.iter())
        .filter(|p| p.nodes.is_empty())
        .map(|p| {
            format!(
                "pool {} of group(s) {} holds no node of the snapshot (no node matches the placement's node selector, affinity and tolerations): every quota of the group is overcommitted without bound; label the nodes of the pool or fix the placement",
                p.pool,
                p.groups.join(", ")
            )
        })
        .collect();
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
            let clusters = match &per_cluster {
                Some(pc) => pc
                    .iter()
                    .map(|(cluster, (gs, ms))| {
                        Ok(ClusterManifests {
                            cluster: cluster.clone(),
                            groups: gs.clone(),
                            manifests: manifests_to_json(ms)?,
                        })
                    })
                    .collect::<Result<Vec<_>, cube_quota::plan::PlanError>>()?,
                None => Vec::new(),
            };
            let report = Report {
                manifests: if per_cluster.is_none() {
                    Some(manifests_to_json(&ordered)?)
                } else {
                    None
                },
                clusters,
                placements: placements
                    .iter()
                    .flatten()
                    .map(|p| PlacementReport {
                        group: p.group.clone(),
                        placement: p.placement.clone(),
                        proof: p.plan.proof.clone(),
                    })
                    .collect(),
                warnings,
                capacity,
                usage,
                resplit,
                incomplete: incomplete.clone(),
                apply: applied,
            };
            cube_examples::print_stdout(&cube_examples::to_redacted_json(&report)?)?;
        }
        Output::Yaml => {
            let mut out = String::new();
            let mut lines = Vec::new();
            if let Some(why) = &incomplete {
                lines.push(format!("INCOMPLETE: {why}"));
            }
            if args.diff || args.apply {
                for l in apply_lines(&applied, args.diff) {
                    out.push_str(&l);
                    out.push('\n');
                }
            }
            match &per_cluster {
                _ if args.diff || args.apply => {}
                None => out.push_str(&cube_quota::plan::manifests_to_yaml(&ordered)?),
                Some(pc) => {
                    for (cluster, (gs, ms)) in pc {
                        let yaml = cube_quota::plan::manifests_to_yaml(ms)?;
                        let head = format!(
                            "# cluster {cluster}: {} manifests of group(s) {}\n",
                            ms.len(),
                            gs.join(", ")
                        );
                        match &args.out_dir {
                            Some(dir) => {
                                std::fs::create_dir_all(dir)
                                    .with_context(|| format!("cannot create {}", dir.display()))?;
                                let file = dir.join(format!("{cluster}.yaml"));
                                // a new file renamed over the path: a symlink planted
                                // there is replaced, never written through (G35)
                                cube_examples::write_replacing(
                                    &file,
                                    &format!("{head}{yaml}"),
                                    false,
                                )
                                .with_context(|| format!("cannot write {}", file.display()))?;
                                lines.push(format!(
                                    "wrote {} ({} manifests for cluster {cluster})",
                                    file.display(),
                                    ms.len()
                                ));
                            }
                            None => {
                                out.push_str(&head);
                                out.push_str(&yaml);
                            }
                        }
                    }
                }
            }
            for p in placements.iter().flatten() {
                lines.push(format!(
                    "placement of group {} ({}):",
                    p.group, p.placement.asked
                ));
                for d in &p.placement.decisions {
                    lines.push(format!("  {d}"));
                }
                for c in &p.plan.proof {
                    let parts: Vec<String> = c
                        .clusters
                        .iter()
                        .map(|a| format!("{} {}", a.cluster, a.amount))
                        .collect();
                    lines.push(format!(
                        "  share {}/{}: {} = {} {} {} (group){}",
                        c.bucket,
                        c.resource.as_str(),
                        parts.join(" + "),
                        c.total,
                        if c.holds { "<=" } else { "> !!" },
                        c.group,
                        if c.unassigned.is_zero() {
                            String::new()
                        } else {
                            format!(", {} unassigned", c.unassigned)
                        }
                    ));
                }
            }
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
                // one comment line each: a newline or escape code in a name stays visible text
                out.push_str("# ");
                out.push_str(&cube_model::terminal::escape_line(
                    &cube_model::redact::redact(&l),
                ));
                out.push('\n');
            }
            cube_examples::write_stdout(&out)?;
        }
    }
    if plans.is_empty() {
        bail!("nothing planned");
    }
    if let Some(why) = &incomplete {
        cube_examples::eprint_line(&format!("warning: {why}"));
        return Ok(cube_examples::exit::INCOMPLETE);
    }
    for e in &empty_pools {
        cube_examples::eprint_line(&format!("error: {e}"));
    }
    if !success || !empty_pools.is_empty() {
        return Ok(cube_examples::exit::FINDINGS);
    }
    Ok(cube_examples::exit::OK)
}
