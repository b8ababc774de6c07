//! A resource group across several clusters: each target cluster gets a share of every quota
//! bucket, its own plan ([`crate::plan::plan_group_all`] on the group scaled to that share),
//! and a proof, computed from the rendered ResourceQuotas themselves, that the shares over all
//! clusters and namespaces add up to no more than the group.
//!
//! Splitting rule, per bucket and quota key, with cluster weights `w_i` (equal by default):
//! the exact share `hard * w_i / W` rounded down to millicores (cpu keys) or whole units (every
//! other key), then the units the rounding left over, one at a time, to the clusters with the
//! largest weight first (registration order on ties). So the shares add up to `hard` rounded
//! down to that precision, never more; what cannot be handed out in whole units (`1500m` of a
//! count key) is reported as unassigned. Explicit namespace amounts of a bucket are scaled the
//! same way, rounded down. Everything is exact [`Quantity`] arithmetic: no `i64` saturation.

use std::collections::BTreeMap;

use cube_model::group::ResourceGroup;
use cube_model::{ClusterSnapshot, Quantity, ResourceList, ResourceName};
use serde::Serialize;

use crate::plan::{GroupPlan, PlanError, enforced_quota_key, plan_group_all};

/// One target cluster and its weight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterWeight {
    /// Cluster name.
    pub cluster: String,
    /// Relative weight (for example free GPUs); `1` for an even split.
    pub weight: u32,
}

impl ClusterWeight {
    /// Equal weights for these clusters.
    pub fn even<S: AsRef<str>>(clusters: &[S]) -> Vec<ClusterWeight> {
        clusters
            .iter()
            .map(|c| ClusterWeight {
                cluster: c.as_ref().to_owned(),
                weight: 1,
            })
            .collect()
    }
}

/// One cluster's amount of a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClusterAmount {
    /// Cluster.
    pub cluster: String,
    /// Sum of that cluster's namespace quotas for the key.
    pub amount: Quantity,
}

/// The proof for one bucket and key: what every cluster's rendered ResourceQuotas hold
/// together, against the group's bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ShareCheck {
    /// Bucket name.
    pub bucket: String,
    /// Quota key as rendered (`requests.nvidia.com/gpu`).
    pub resource: ResourceName,
    /// The group's `hard` for the key.
    pub group: Quantity,
    /// Per cluster, the sum of its namespaces' quotas.
    pub clusters: Vec<ClusterAmount>,
    /// Sum over clusters.
    pub total: Quantity,
    /// `group - total` (what no cluster received).
    pub unassigned: Quantity,
    /// `total <= group`.
    pub holds: bool,
}

/// The plan of one cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClusterPlan {
    /// Cluster.
    pub cluster: String,
    /// Its weight.
    pub weight: u32,
    /// The group as planned on that cluster (its buckets scaled to the cluster's share).
    #[serde(skip)]
    pub group: ResourceGroup,
    /// The plan (manifests for that cluster).
    pub plan: GroupPlan,
}

/// A group over its target clusters.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MultiClusterPlan {
    /// Group name.
    pub group: String,
    /// One plan per cluster, in target order.
    pub clusters: Vec<ClusterPlan>,
    /// One check per bucket and key.
    pub proof: Vec<ShareCheck>,
}

impl MultiClusterPlan {
    /// True when every check holds.
    pub fn proved(&self) -> bool {
        self.proof.iter().all(|c| c.holds)
    }
}

fn is_cpu_key(key: &str) -> bool {
    matches!(key, "cpu" | "requests.cpu" | "limits.cpu")
}

fn arithmetic(group: &str, bucket: &str, key: &ResourceName, message: String) -> PlanError {
    PlanError::Arithmetic {
        group: group.to_owned(),
        bucket: bucket.to_owned(),
        resource: key.clone(),
        message,
    }
}

/// Splits `hard` by the weights (see the module docs). `None` when a number is too large to
/// compute exactly.
pub fn split_quantity(key: &str, hard: &Quantity, weights: &[u32]) -> Option<Vec<Quantity>> {
    let total: u32 = weights.iter().try_fold(0u32, |a, w| a.checked_add(*w))?;
    if total == 0 {
        return None;
    }
    let scale = if is_cpu_key(key) { -3 } else { 0 };
    let mut shares: Vec<Quantity> = weights
        .iter()
        .map(|w| hard.checked_mul_ratio(i64::from(*w), total, scale))
        .collect::<Option<_>>()?;
    let floor = hard.checked_mul_ratio(1, 1, scale)?;
    let mut sum = Quantity::ZERO;
    for s in &shares {
        sum = sum.checked_add(s)?;
    }
    let mut left = floor.checked_sub(&sum)?;
    let unit = Quantity::from_scaled(1, scale, hard.format());
    // Largest weight first, registration order on ties.
    let mut order: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0).collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    let mut i = 0;
    while left.is_positive() && !order.is_empty() {
        let k = order[i % order.len()];
        shares[k] = shares[k].checked_add(&unit)?;
        left = left.checked_sub(&unit)?;
        i += 1;
        if i > weights.len() * 2 {
            // The rounding leaves fewer units than clusters; this never loops further.
            break;
        }
    }
    Some(
        shares
            .into_iter()
            .map(|q| q.with_format(hard.format()))
            .collect(),
    )
}

fn scaled_list(
    group: &str,
    bucket: &str,
    list: &ResourceList,
    weight: u32,
    total: u32,
) -> Result<ResourceList, PlanError> {
    let mut out = ResourceList::new();
    for (k, q) in list {
        let scale = if is_cpu_key(k.as_str()) { -3 } else { 0 };
        let v = q
            .checked_mul_ratio(i64::from(weight), total, scale)
            .ok_or_else(|| {
                arithmetic(
                    group,
                    bucket,
                    k,
                    format!("{q} is too large to split exactly"),
                )
            })?
            .with_format(q.format());
        out.insert(k.clone(), v);
    }
    Ok(out)
}

/// Plans `group` on each of `targets` (see the module docs). `snapshots` may hold a cluster's
/// snapshot (by name) for the GPU pool checks of [`plan_group_all`].
///
/// # Errors
/// Every [`PlanError`] of every cluster's plan; [`PlanError::Arithmetic`] when the weights add
/// up to 0 or more than `u32::MAX` or an amount is too large to split; and
/// [`PlanError::ShareExceedsBucket`] if the rendered quotas ever added up to more than the group
/// (the proof failing; not reachable by the splitting rule).
pub fn plan_group_across(
    group: &ResourceGroup,
    targets: &[ClusterWeight],
    snapshots: &BTreeMap<String, ClusterSnapshot>,
) -> Result<MultiClusterPlan, Vec<PlanError>> {
    let gname = group.name.as_str();
    let weights: Vec<u32> = targets.iter().map(|t| t.weight).collect();
    let total = weights
        .iter()
        .try_fold(0u32, |a, w| a.checked_add(*w))
        .filter(|t| *t > 0);
    let Some(total) = total else {
        return Err(vec![PlanError::Arithmetic {
            group: gname.to_owned(),
            bucket: String::new(),
            resource: ResourceName::new("*"),
            message: "the cluster weights add up to 0 or more than 4294967295".to_owned(),
        }]);
    };
    let mut errors = Vec::new();
    // Per bucket and key, each cluster's share of the bucket.
    let mut groups: Vec<ResourceGroup> = targets.iter().map(|_| group.clone()).collect();
    for (bi, b) in group.quota.iter().enumerate() {
        for (k, hard) in &b.hard {
            match split_quantity(k.as_str(), hard, &weights) {
                Some(shares) => {
                    for (g, s) in groups.iter_mut().zip(shares) {
                        g.quota[bi].hard.insert(k.clone(), s);
                    }
                }
                None => errors.push(arithmetic(
                    gname,
                    &b.name,
                    k,
                    format!("{hard} is too large to split exactly"),
                )),
            }
        }
    }
    for (g, t) in groups.iter_mut().zip(targets) {
        for ns in &mut g.namespaces {
            for (bucket, list) in ns.buckets.iter_mut() {
                match scaled_list(gname, bucket, list, t.weight, total) {
                    Ok(l) => *list = l,
                    Err(e) => errors.push(e),
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut clusters = Vec::new();
    for (g, t) in groups.into_iter().zip(targets) {
        match plan_group_all(&g, snapshots.get(&t.cluster)) {
            Ok(plan) => clusters.push(ClusterPlan {
                cluster: t.cluster.clone(),
                weight: t.weight,
                group: g,
                plan,
            }),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let proof = prove(group, &clusters);
    for c in proof.iter().filter(|c| !c.holds) {
        errors.push(PlanError::ShareExceedsBucket {
            group: gname.to_owned(),
            bucket: c.bucket.clone(),
            resource: c.resource.clone(),
            hard: Box::new(c.group.clone()),
            planned: Box::new(c.total.clone()),
        });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(MultiClusterPlan {
        group: gname.to_owned(),
        clusters,
        proof,
    })
}

/// The proof, from the rendered quotas: per bucket and key of the group, the sum over clusters
/// and namespaces of the planned `hard`, against the group's bucket.
pub fn prove(group: &ResourceGroup, clusters: &[ClusterPlan]) -> Vec<ShareCheck> {
    let mut out = Vec::new();
    for b in &group.quota {
        // Rendered key -> the group's amount (an explicit `requests.<name>` wins over a
        // rewritten bare key, as the planner does).
        let mut keys: BTreeMap<String, Quantity> = BTreeMap::new();
        for (k, q) in &b.hard {
            if enforced_quota_key(k.as_str()).is_none() {
                keys.insert(k.to_string(), q.clone());
            }
        }
        for (k, q) in &b.hard {
            if let Some(new) = enforced_quota_key(k.as_str()) {
                keys.entry(new).or_insert_with(|| q.clone());
            }
        }
        for (key, group_hard) in keys {
            let mut amounts = Vec::new();
            let mut total = Some(Quantity::ZERO);
            for c in clusters {
                let mut sum = Some(Quantity::ZERO);
                for q in c.plan.quotas.iter().filter(|q| q.bucket == b.name) {
                    if let Some(v) = q.hard.get(&key) {
                        sum = sum.and_then(|s| s.checked_add(v));
                    }
                }
                let sum = sum.unwrap_or_else(|| group_hard.clone());
                total = total.and_then(|t| t.checked_add(&sum));
                amounts.push(ClusterAmount {
                    cluster: c.cluster.clone(),
                    amount: sum,
                });
            }
            // An exact sum that cannot be computed is not a proof.
            let (total, holds) = match total {
                Some(t) => {
                    let ok = t <= group_hard;
                    (t, ok)
                }
                None => (group_hard.clone(), false),
            };
            let unassigned = group_hard.checked_sub(&total).unwrap_or(Quantity::ZERO);
            out.push(ShareCheck {
                bucket: b.name.clone(),
                resource: ResourceName::new(key.as_str()),
                group: group_hard,
                clusters: amounts,
                total,
                unassigned,
                holds,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap()
    }

    #[test]
    fn remainders_go_to_the_heaviest_first_and_sum_exactly() {
        let s = split_quantity("requests.nvidia.com/gpu", &q("5"), &[1, 1]).unwrap();
        assert_eq!(s, [q("3"), q("2")]);
        let s = split_quantity("requests.cpu", &q("10"), &[1, 1, 1]).unwrap();
        assert_eq!(s, [q("3334m"), q("3333m"), q("3333m")]);
        let s = split_quantity("requests.memory", &q("20Pi"), &[3, 1]).unwrap();
        assert_eq!(s, [q("15Pi"), q("5Pi")]);
        assert_eq!(s[0].to_string(), "15Pi");
        let s = split_quantity("pods", &q("7"), &[1, 4]).unwrap();
        assert_eq!(s, [q("1"), q("6")]);
        assert!(split_quantity("pods", &q("7"), &[0, 0]).is_none());
        // A count key with a fraction: the fraction is not handed out.
        let s = split_quantity("pods", &q("1500m"), &[1, 1]).unwrap();
        assert_eq!(s, [q("1"), q("0")]);
    }
}

// ------------------------------------------------------------------ groups over a registry

/// One group resolved against a cluster registry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupPlacement {
    /// Group name.
    pub group: String,
    /// Where it goes and why, per registered cluster.
    pub placement: cube_model::placement::Placement,
    /// The group's plan on each chosen cluster, with the proof.
    pub plan: MultiClusterPlan,
}

/// Why a group cannot be placed and planned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlacementPlanError {
    /// The placement policy refuses the group's placement.
    #[error("resource group {group:?}: {}", violations.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Refused {
        /// Group name.
        group: String,
        /// The rules broken.
        violations: Vec<cube_model::placement::PolicyViolation>,
    },
    /// No registered cluster takes the group.
    #[error("resource group {group:?}: no cluster takes placement {asked:?}: {}", reasons.join("; "))]
    NoCluster {
        /// Group name.
        group: String,
        /// The placement asked for.
        asked: String,
        /// Each cluster's reasons.
        reasons: Vec<String>,
    },
    /// The plan failed.
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// Resolves each group's `placement.cluster` / `placement.clusterSelector` (with its
/// tolerations) against `registry` ([`cube_model::placement::explain`], with what a probe learnt
/// in `states` and the `policy`), then plans it evenly across the chosen clusters
/// ([`plan_group_across`]). A namespace claimed by two groups is refused as by
/// [`crate::plan::plan_groups`].
///
/// # Errors
/// Every error of every group.
pub fn plan_groups_on_registry(
    groups: &[ResourceGroup],
    registry: &cube_model::ClusterRegistry,
    states: &BTreeMap<String, cube_model::placement::ClusterState>,
    policy: &cube_model::placement::PlacementPolicy,
) -> Result<Vec<GroupPlacement>, Vec<PlacementPlanError>> {
    let mut errors = Vec::new();
    let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
    for g in groups {
        for ns in &g.namespaces {
            if let Some(first) = owner.insert(ns.name.as_str(), g.name.as_str())
                && first != g.name
            {
                errors.push(PlacementPlanError::Plan(PlanError::NamespaceInTwoGroups {
                    namespace: ns.name.clone(),
                    first: first.to_owned(),
                    second: g.name.clone(),
                }));
            }
        }
    }
    let mut out = Vec::new();
    for g in groups {
        let request = cube_model::placement::PlacementRequest {
            cluster: g.placement.cluster.clone(),
            cluster_selector: g.placement.cluster_selector.clone(),
            tolerations: g.placement.tolerations.clone(),
            ..cube_model::placement::PlacementRequest::default()
        };
        let placement = cube_model::placement::explain(registry, &request, states, policy);
        if !placement.refused.is_empty() {
            errors.push(PlacementPlanError::Refused {
                group: g.name.clone(),
                violations: placement.refused.clone(),
            });
            continue;
        }
        if placement.chosen.is_empty() {
            errors.push(PlacementPlanError::NoCluster {
                group: g.name.clone(),
                asked: placement.asked.clone(),
                reasons: placement
                    .decisions
                    .iter()
                    .map(ToString::to_string)
                    .chain(placement.warnings.iter().cloned())
                    .collect(),
            });
            continue;
        }
        match plan_group_across(g, &ClusterWeight::even(&placement.chosen), &BTreeMap::new()) {
            Ok(plan) => out.push(GroupPlacement {
                group: g.name.clone(),
                placement,
                plan,
            }),
            Err(e) => errors.extend(e.into_iter().map(PlacementPlanError::Plan)),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
