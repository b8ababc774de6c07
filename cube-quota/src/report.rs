//! Capacity and usage reports for resource groups: the sum of group quotas per node pool
//! against its allocatable (overcommit as an exact ratio), the quota-without-priority and
//! priority-without-quota warnings, and per group and namespace the quota, used, requested
//! and free amounts (for cost allocation and audit).
//!
//! All arithmetic is integer: cpu in millicores, everything else in whole units, ratios as
//! exact fractions (`numerator / denominator`), printed with three decimals rounded down.

use std::collections::BTreeMap;
use std::fmt;

use cube_model::group::ResourceGroup;
use cube_model::{ClusterSnapshot, Format, Quantity, ResourceList, ResourceName};
use serde::Serialize;

use crate::plan::GroupPlan;

/// An exact non-negative ratio. `denominator == 0` means "something against nothing"
/// (infinite) unless the numerator is 0 too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ratio {
    /// Numerator.
    pub numerator: i128,
    /// Denominator.
    pub denominator: i128,
}

impl Ratio {
    /// The ratio in thousandths, rounded down; `None` when the denominator is 0.
    pub fn per_mille(&self) -> Option<i128> {
        (self.denominator != 0).then(|| self.numerator.saturating_mul(1000) / self.denominator)
    }
    /// True when `numerator > denominator` (more promised than exists).
    pub fn is_overcommitted(&self) -> bool {
        self.numerator > self.denominator
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.per_mille() {
            Some(m) => write!(f, "{}.{:03}", m / 1000, m % 1000),
            None if self.numerator == 0 => f.write_str("0.000"),
            None => f.write_str("inf"),
        }
    }
}

/// One resource of a pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PoolResource {
    /// Node resource name (`cpu`, `memory`, `nvidia.com/gpu`, `pods`).
    pub resource: ResourceName,
    /// Sum of the pool nodes' allocatable.
    pub allocatable: Quantity,
    /// Sum of the quotas of the groups placed on the pool.
    pub quota: Quantity,
    /// `quota / allocatable`.
    pub overcommit: Ratio,
}

/// One node pool: the nodes that one or more groups' placement selects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PoolCapacity {
    /// The placement that picks the pool (`org=vision,gpu=true`, `<all nodes>`).
    pub pool: String,
    /// Node names, sorted.
    pub nodes: Vec<String>,
    /// Groups placed on the pool.
    pub groups: Vec<String>,
    /// Per resource, in name order.
    pub resources: Vec<PoolResource>,
}

/// Which of the two independent controls a group lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum GroupWarningKind {
    /// A quota but no PriorityClass: its pods run at the default priority, cannot preempt and
    /// are preempted by any prioritised workload (rule `quota-without-priority`).
    QuotaWithoutPriority,
    /// A PriorityClass but no quota: its pods may preempt everyone, without limit (rule
    /// `priority-without-quota`).
    PriorityWithoutQuota,
}

/// A warning about one group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GroupWarning {
    /// Group name.
    pub group: String,
    /// Kind.
    pub kind: GroupWarningKind,
    /// Human-readable text.
    pub message: String,
}

/// The capacity report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CapacityReport {
    /// One entry per distinct pool, in order of first appearance.
    pub pools: Vec<PoolCapacity>,
    /// Groups with a quota but no priority, or the reverse.
    pub warnings: Vec<GroupWarning>,
}

/// Maps a quota key to the node resource it limits (`requests.cpu` -> `cpu`,
/// `requests.nvidia.com/gpu` -> `nvidia.com/gpu`, `pods` -> `pods`); `limits.*`, `count/*`
/// and storage keys map to nothing.
pub fn node_resource_of_quota_key(key: &str) -> Option<&str> {
    match key {
        "cpu" | "requests.cpu" => Some("cpu"),
        "memory" | "requests.memory" => Some("memory"),
        "ephemeral-storage" | "requests.ephemeral-storage" => Some("ephemeral-storage"),
        "pods" => Some("pods"),
        k => {
            let rest = k.strip_prefix("requests.")?;
            (rest.starts_with("hugepages-") || rest.contains('/')).then_some(rest)
        }
    }
}

/// Amount in the report's integer unit: millicores for cpu, whole units otherwise.
fn units(resource: &str, q: &Quantity) -> i128 {
    if resource == "cpu" {
        i128::from(q.milli_value())
    } else {
        i128::from(q.value())
    }
}

fn quantity(resource: &str, v: i128) -> Quantity {
    let v = i64::try_from(v).unwrap_or(i64::MAX);
    match resource {
        "cpu" => Quantity::from_millis(v),
        "memory" | "ephemeral-storage" => Quantity::from_value(v, Format::BinarySI),
        r if r.starts_with("hugepages-") => Quantity::from_value(v, Format::BinarySI),
        _ => Quantity::from_value(v, Format::DecimalSI),
    }
}

/// A group's quota per node resource: the minimum over its unscoped buckets (several quotas
/// on one key all apply), or, when only scoped buckets name the key, their sum (an upper
/// bound).
pub fn group_quota_per_resource(group: &ResourceGroup) -> BTreeMap<String, i128> {
    let mut unscoped: BTreeMap<String, i128> = BTreeMap::new();
    let mut scoped: BTreeMap<String, i128> = BTreeMap::new();
    for b in &group.quota {
        let is_scoped = !b.scopes.is_empty() || b.scope_selector.is_some();
        for (k, q) in &b.hard {
            let key = crate::plan::enforced_quota_key(k.as_str()).unwrap_or_else(|| k.to_string());
            let Some(res) = node_resource_of_quota_key(&key) else {
                continue;
            };
            let v = units(res, q);
            if is_scoped {
                *scoped.entry(res.to_owned()).or_insert(0) += v;
            } else {
                unscoped
                    .entry(res.to_owned())
                    .and_modify(|e| *e = (*e).min(v))
                    .or_insert(v);
            }
        }
    }
    for (k, v) in scoped {
        unscoped.entry(k).or_insert(v);
    }
    unscoped
}

fn pool_label(group: &ResourceGroup) -> String {
    let p = &group.placement;
    let mut parts: Vec<String> = p
        .node_selector
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if p.node_affinity.is_some() {
        parts.push("<node affinity>".to_owned());
    }
    if parts.is_empty() {
        "<all nodes>".to_owned()
    } else {
        parts.join(",")
    }
}

/// Warnings for groups with one of the two independent controls but not the other.
pub fn group_warnings(groups: &[ResourceGroup]) -> Vec<GroupWarning> {
    let mut out = Vec::new();
    for g in groups {
        let has_quota = g.quota.iter().any(|b| !b.hard.is_empty());
        match (has_quota, g.priority.is_some()) {
            (true, false) => out.push(GroupWarning {
                group: g.name.clone(),
                kind: GroupWarningKind::QuotaWithoutPriority,
                message: format!(
                    "group {:?} has a quota but no PriorityClass: its pods run at the default priority and any prioritised workload preempts them",
                    g.name
                ),
            }),
            (false, true) => out.push(GroupWarning {
                group: g.name.clone(),
                kind: GroupWarningKind::PriorityWithoutQuota,
                message: format!(
                    "group {:?} has a PriorityClass but no quota: nothing limits how much it can take or preempt",
                    g.name
                ),
            }),
            _ => {}
        }
    }
    out
}

/// The capacity report of `groups` over the nodes of `snapshot`.
pub fn capacity_report(groups: &[ResourceGroup], snapshot: &ClusterSnapshot) -> CapacityReport {
    // Pools keyed by their node set; label from the first group.
    let mut pools: Vec<(Vec<usize>, PoolCapacity, BTreeMap<String, i128>)> = Vec::new();
    for g in groups {
        let nodes: Vec<usize> = snapshot
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                g.placement
                    .selects_node(&n.metadata.labels, &n.metadata.name)
            })
            .map(|(i, _)| i)
            .collect();
        let idx = match pools.iter().position(|(set, _, _)| *set == nodes) {
            Some(i) => i,
            None => {
                let mut names: Vec<String> = nodes
                    .iter()
                    .map(|&i| snapshot.nodes[i].metadata.name.clone())
                    .collect();
                names.sort();
                pools.push((
                    nodes,
                    PoolCapacity {
                        pool: pool_label(g),
                        nodes: names,
                        groups: Vec::new(),
                        resources: Vec::new(),
                    },
                    BTreeMap::new(),
                ));
                pools.len() - 1
            }
        };
        let (_, pool, sums) = &mut pools[idx];
        pool.groups.push(g.name.clone());
        for (res, v) in group_quota_per_resource(g) {
            *sums.entry(res).or_insert(0) += v;
        }
    }
    let pools = pools
        .into_iter()
        .map(|(nodes, mut pool, sums)| {
            let mut alloc: BTreeMap<String, i128> = BTreeMap::new();
            for &i in &nodes {
                let n = &snapshot.nodes[i];
                let list: &ResourceList = if n.status.allocatable.is_empty() {
                    &n.status.capacity
                } else {
                    &n.status.allocatable
                };
                for (k, q) in list {
                    *alloc.entry(k.to_string()).or_insert(0) += units(k.as_str(), q);
                }
            }
            pool.resources = sums
                .iter()
                .map(|(res, &quota)| {
                    let a = alloc.get(res).copied().unwrap_or(0);
                    PoolResource {
                        resource: ResourceName::new(res.as_str()),
                        allocatable: quantity(res, a),
                        quota: quantity(res, quota),
                        overcommit: Ratio {
                            numerator: quota,
                            denominator: a,
                        },
                    }
                })
                .collect();
            pool
        })
        .collect();
    CapacityReport {
        pools,
        warnings: group_warnings(groups),
    }
}

/// One line of the usage report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct UsageRow {
    /// Group.
    pub group: String,
    /// Namespace; `None` for the group's total over its namespaces.
    pub namespace: Option<String>,
    /// Quota name (`<group>-<bucket>`).
    pub quota: String,
    /// Quota key.
    pub resource: ResourceName,
    /// The planned hard.
    pub hard: Quantity,
    /// Charged to the quota: `status.used` of the same quota in the snapshot when it has the
    /// key, else computed from the namespace's non-terminal pods (Pending ones included).
    pub used: Quantity,
    /// What the namespace's pods bound to a node request (running on the pool).
    pub requested: Quantity,
    /// `hard - used`; negative when the namespace is over quota.
    pub free: Quantity,
}

/// The usage report: per group, per namespace and quota key, then the group's totals.
pub fn usage_report(plans: &[GroupPlan], snapshot: &ClusterSnapshot) -> Vec<UsageRow> {
    let mut rows = Vec::new();
    for plan in plans {
        let mut totals: BTreeMap<(String, ResourceName), [Quantity; 3]> = BTreeMap::new();
        for q in &plan.quotas {
            let model = q.to_model();
            let computed = crate::quota::quota_usage(
                &model,
                &snapshot.pods,
                &snapshot.persistent_volume_claims,
                None,
            );
            let bound: Vec<cube_model::objects::Pod> = snapshot
                .pods
                .iter()
                .filter(|p| {
                    p.metadata.namespace == q.namespace
                        && !p.spec.node_name.is_empty()
                        && !p.is_terminal()
                })
                .cloned()
                .collect();
            let requested = crate::quota::quota_usage(&model, &bound, &[], None);
            let status = snapshot
                .resource_quotas
                .iter()
                .find(|c| c.metadata.namespace == q.namespace && c.metadata.name == q.name)
                .and_then(|c| c.status.as_ref());
            for (k, hard) in &q.hard {
                let used = status
                    .and_then(|s| s.used.get(k.as_str()))
                    .or_else(|| computed.get(k.as_str()))
                    .cloned()
                    .unwrap_or(Quantity::ZERO);
                let req = requested.get(k.as_str()).cloned().unwrap_or(Quantity::ZERO);
                let free = hard.checked_sub(&used).unwrap_or(Quantity::ZERO);
                let t = totals
                    .entry((q.name.clone(), k.clone()))
                    .or_insert_with(|| [Quantity::ZERO, Quantity::ZERO, Quantity::ZERO]);
                for (slot, v) in t.iter_mut().zip([hard, &used, &req]) {
                    *slot = slot.checked_add(v).unwrap_or_else(|| slot.clone());
                }
                rows.push(UsageRow {
                    group: plan.group.clone(),
                    namespace: Some(q.namespace.clone()),
                    quota: q.name.clone(),
                    resource: k.clone(),
                    hard: hard.clone(),
                    used,
                    requested: req,
                    free,
                });
            }
        }
        for ((quota, resource), [hard, used, requested]) in totals {
            let free = hard.checked_sub(&used).unwrap_or(Quantity::ZERO);
            rows.push(UsageRow {
                group: plan.group.clone(),
                namespace: None,
                quota,
                resource,
                hard,
                used,
                requested,
                free,
            });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_display_is_exact_and_rounds_down() {
        let r = |n, d| Ratio {
            numerator: n,
            denominator: d,
        };
        assert_eq!(r(5, 4).to_string(), "1.250");
        assert_eq!(r(2, 3).to_string(), "0.666");
        assert_eq!(r(0, 0).to_string(), "0.000");
        assert_eq!(r(3, 0).to_string(), "inf");
        assert!(r(5, 4).is_overcommitted());
        assert!(!r(4, 4).is_overcommitted());
    }

    #[test]
    fn quota_keys_to_node_resources() {
        assert_eq!(node_resource_of_quota_key("requests.cpu"), Some("cpu"));
        assert_eq!(node_resource_of_quota_key("memory"), Some("memory"));
        assert_eq!(
            node_resource_of_quota_key("requests.nvidia.com/gpu"),
            Some("nvidia.com/gpu")
        );
        assert_eq!(
            node_resource_of_quota_key("requests.hugepages-2Mi"),
            Some("hugepages-2Mi")
        );
        assert_eq!(node_resource_of_quota_key("limits.cpu"), None);
        assert_eq!(node_resource_of_quota_key("count/pods"), None);
        assert_eq!(node_resource_of_quota_key("requests.storage"), None);
    }
}
