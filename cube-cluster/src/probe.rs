//! Probe many clusters concurrently: a bound on concurrency and a timeout per cluster, so one
//! dead cluster never holds up the rest. Health per cluster, in input order.
//!
//! Input is either a list of [`ProbeTarget`]s (name + validated [`Selection`]) or a
//! `cube_model::cluster::ClusterRegistry`, whose clusters name a kubeconfig file and context
//! ([`targets_from_registry`]); a cluster's `apiServer`, when set, is how the console reaches it
//! and replaces the kubeconfig's server with [`crate::kubeconfig::Kubeconfig::rewrite_server`] (TLS keeps
//! verifying the original name).

use std::time::{Duration, Instant};

use cube_model::cluster::ClusterRegistry;
use futures::StreamExt as _;
use serde::Serialize;

use crate::classify::Class;
use crate::connect::{CheckOptions, Outcome, check};
use crate::kubeconfig::{FileReferencePolicy, PluginPolicy, SelectOptions, Selection};

/// One cluster to probe.
#[derive(Debug, Clone)]
pub struct ProbeTarget {
    /// Cluster name (registry name).
    pub name: String,
    /// Its validated selection, or why there is none (reported as `config-invalid`).
    pub selection: Result<Selection, String>,
    /// The limit of the [`cube_model::Limits`] policy that kept the kubeconfig (or a file it
    /// references) from being read, when one did (the `selection` error says it too).
    pub limit: Option<cube_model::limits::LimitExceeded>,
}

/// Probe settings.
#[derive(Debug, Clone)]
pub struct ProbeOptions {
    /// At most this many clusters are checked at once (at least 1). Default 16.
    pub concurrency: usize,
    /// Deadline per cluster, covering connect, TLS and every request of the check. Default 10 s.
    pub timeout: Duration,
    /// The per-cluster check (client timeouts are capped at `timeout`).
    pub check: CheckOptions,
}

impl Default for ProbeOptions {
    fn default() -> Self {
        Self {
            concurrency: 16,
            timeout: Duration::from_secs(10),
            check: CheckOptions::default(),
        }
    }
}

/// Health of one cluster.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClusterHealth {
    /// Cluster name.
    pub name: String,
    /// `true` when the check returned [`Outcome::Ok`].
    pub healthy: bool,
    /// The classified outcome.
    pub outcome: Outcome,
    /// Time spent on this cluster, milliseconds.
    pub elapsed_ms: u64,
}

async fn probe_one(target: ProbeTarget, options: &ProbeOptions) -> ClusterHealth {
    let start = Instant::now();
    let outcome = match &target.selection {
        Err(reason) => Outcome::Failed {
            class: Class::ConfigInvalid {
                reason: reason.clone(),
            },
            message: reason.clone(),
        },
        Ok(sel) => {
            let mut co = options.check.clone();
            co.client.connect_timeout = co.client.connect_timeout.min(options.timeout);
            co.client.read_timeout = co.client.read_timeout.min(options.timeout);
            co.deadline = Some(options.timeout);
            match tokio::time::timeout(options.timeout, check(sel, &co)).await {
                Ok(report) => report.outcome,
                Err(_) => Outcome::Failed {
                    class: Class::Timeout,
                    message: format!("no answer within {:?}", options.timeout),
                },
            }
        }
    };
    ClusterHealth {
        name: target.name,
        healthy: matches!(outcome, Outcome::Ok { .. }),
        outcome,
        elapsed_ms: start.elapsed().as_millis() as u64,
    }
}

/// Runs `work` on every item, at most `concurrency` at a time (`0` counts as 1), each bounded by
/// `timeout`: the concurrency core of [`probe`] and of the fleet probe. Returns, in input order,
/// each item's result (`None` when it ran out of time; its future is dropped, so a dead
/// cluster holds no slot beyond its timeout) and the time it took.
pub async fn bounded<I, T, F, Fut>(
    items: Vec<I>,
    concurrency: usize,
    timeout: Duration,
    work: F,
) -> Vec<(Option<T>, Duration)>
where
    F: Fn(I) -> Fut,
    Fut: std::future::Future<Output = T>,
{
    let n = concurrency.max(1);
    let work = &work;
    let mut results: Vec<(usize, Option<T>, Duration)> =
        futures::stream::iter(items.into_iter().enumerate())
            .map(|(i, item)| async move {
                let start = Instant::now();
                let r = tokio::time::timeout(timeout, work(item)).await.ok();
                (i, r, start.elapsed())
            })
            .buffer_unordered(n)
            .collect()
            .await;
    results.sort_by_key(|(i, _, _)| *i);
    results.into_iter().map(|(_, r, d)| (r, d)).collect()
}

/// Probes every target, at most `options.concurrency` at a time, each bounded by
/// `options.timeout`. Results are in input order. Total time is about
/// `ceil(slow / concurrency) * timeout` plus the fast ones, never the sum of timeouts.
pub async fn probe(targets: Vec<ProbeTarget>, options: &ProbeOptions) -> Vec<ClusterHealth> {
    let names: Vec<String> = targets.iter().map(|t| t.name.clone()).collect();
    // probe_one bounds itself by the timeout; the outer bound is a safety margin.
    let margin = options.timeout + Duration::from_millis(250);
    bounded(targets, options.concurrency, margin, |t| {
        probe_one(t, options)
    })
    .await
    .into_iter()
    .zip(names)
    .map(|((r, elapsed), name)| {
        r.unwrap_or_else(|| ClusterHealth {
            name,
            healthy: false,
            outcome: Outcome::Failed {
                class: Class::Timeout,
                message: format!("no answer within {:?}", options.timeout),
            },
            elapsed_ms: elapsed.as_millis() as u64,
        })
    })
    .collect()
}

/// Turns a registry into probe targets: reads each cluster's kubeconfig (file or inline text of
/// its `kubeconfig` reference, see [`crate::registry::kubeconfig_for`]; relative paths against
/// the current directory; a Secret reference becomes a target with an error), selects and validates it with `plugins`, and applies the
/// registry's `apiServer` as a server rewrite. Clusters without a kubeconfig reference, or
/// whose kubeconfig does not validate, become targets with an error (reported as
/// `config-invalid`, no connection attempted).
pub fn targets_from_registry(
    registry: &ClusterRegistry,
    plugins: PluginPolicy,
) -> Vec<ProbeTarget> {
    targets_from_registry_with(registry, plugins, &cube_model::Limits::default())
}

/// [`targets_from_registry`] within a [`cube_model::Limits`] policy: each kubeconfig is read
/// up to [`cube_model::Limits::max_kubeconfig_bytes`]
/// ([`crate::registry::kubeconfig_for_with`]) and the files it references up to
/// [`cube_model::Limits::max_referenced_file_bytes`] ([`SelectOptions::limits`]); a limit hit
/// is the target's [`ProbeTarget::limit`].
pub fn targets_from_registry_with(
    registry: &ClusterRegistry,
    plugins: PluginPolicy,
    limits: &cube_model::Limits,
) -> Vec<ProbeTarget> {
    targets_from_registry_with_policy(registry, plugins, &FileReferencePolicy::Allow, limits)
}

/// [`targets_from_registry_with`] with a [`FileReferencePolicy`] for the files each kubeconfig
/// names: a reference the policy refuses is never read, and the cluster becomes a target whose
/// error names the path and [`crate::kubeconfig::ProblemKind::FileReferenceRefused`]'s reason
/// (its content would be sent to the server as a credential). A kubeconfig inline in the
/// registry has no directory of its own, so [`FileReferencePolicy::OwnDirectory`] lets it
/// name no file.
pub fn targets_from_registry_with_policy(
    registry: &ClusterRegistry,
    plugins: PluginPolicy,
    file_references: &FileReferencePolicy,
    limits: &cube_model::Limits,
) -> Vec<ProbeTarget> {
    registry
        .clusters
        .iter()
        .map(|c| {
            let mut limit = None;
            let selection = (|| {
                let kref = c
                    .kubeconfig
                    .as_ref()
                    .ok_or_else(|| format!("cluster {:?} has no kubeconfig reference", c.name))?;
                let mut cfg =
                    crate::registry::kubeconfig_for_with(c, std::path::Path::new(""), limits)
                        .map_err(|e| {
                            limit = e.limit().cloned();
                            crate::classify::error_chain_text(&e)
                        })?;
                let mut opts = SelectOptions {
                    context: kref.context.clone(),
                    plugins,
                    file_references: file_references.clone(),
                    ..SelectOptions::default()
                }
                .limits(limits);
                if !c.api_server.is_empty() {
                    let ctx_name = kref
                        .context
                        .clone()
                        .or_else(|| cfg.current_context.clone())
                        .unwrap_or_default();
                    let cluster_name = cfg
                        .context(&ctx_name)
                        .map(|x| x.context.cluster.clone())
                        .unwrap_or_default();
                    if cfg.cluster(&cluster_name).is_some() {
                        cfg.rewrite_server(&cluster_name, &c.api_server)
                            .map_err(|e| e.to_string())?;
                    } else {
                        opts.server = Some(c.api_server.clone());
                    }
                }
                cfg.select(&opts).map_err(|e| {
                    limit = e.limit().cloned();
                    e.to_string()
                })
            })();
            ProbeTarget {
                name: c.name.clone(),
                selection,
                limit,
            }
        })
        .collect()
}

/// Probes every cluster of a registry (see [`targets_from_registry`] and [`probe`]).
pub async fn probe_registry(
    registry: &ClusterRegistry,
    plugins: PluginPolicy,
    options: &ProbeOptions,
) -> Vec<ClusterHealth> {
    probe(targets_from_registry(registry, plugins), options).await
}
