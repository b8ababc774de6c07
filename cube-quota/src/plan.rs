//! Resource-group plans: the Namespaces, ResourceQuotas, LimitRanges, PriorityClass, Roles and
//! RoleBindings that give a [`ResourceGroup`] its share of a pool, as `k8s_openapi` objects and
//! as multi-document YAML for `kubectl apply`, plus the re-split check against current usage.
//!
//! Rules (why they are what they are):
//! - A native ResourceQuota is per namespace, so a group-wide limit shared by several
//!   namespaces cannot float without an admission webhook (and the tenancy tools that tried
//!   overshoot under parallel admission). Each namespace therefore gets a **fixed share** of
//!   every bucket, and the shares never add up to more than the bucket: percentage shares are
//!   rounded to millicores (cpu keys) or whole units (every other key) by the largest-remainder
//!   method ([`percent_shares`]: each namespace gets its exact share rounded down, then the
//!   units the rounding left over go one each to the largest remainders), so namespaces whose
//!   percentages add up to 100 get the whole bucket (33/33/34 % of 10 GPUs is 3/3/4, not
//!   3/3/3 with one GPU planned nowhere); explicit amounts are taken as written, and a sum
//!   above the bucket is a [`PlanError::ShareExceedsBucket`].
//! - A namespace without a quota is unlimited, so **every namespace gets every key of every
//!   bucket**, `0` where it has no share.
//! - Extended resources are only charged as `requests.<name>` (a bare `nvidia.com/gpu` or
//!   `limits.nvidia.com/gpu` key is accepted by the API server and never tracked), so such
//!   keys are rewritten to `requests.<name>` with a warning.
//! - Scoped buckets (scopes, PriorityClass scope selectors) keep their scope.
//! - With a snapshot, a group pinned to a node pool (node selector or affinity) may not hold
//!   more GPUs than the pool's allocatable ([`PlanError::PoolGpuExceeded`]).
//! - Lowering a quota evicts nothing: [`resplit_check`] reports the namespaces a new plan
//!   leaves over quota and orders the steps so quotas are lowered first and raised after.

use std::collections::BTreeMap;

use cube_model::group::{ContainerDefaults, GroupProblemKind, QuotaBucket, ResourceGroup};
use cube_model::objects::{
    ObjectMeta as ModelMeta, ResourceQuota as ModelQuota, ResourceQuotaSpec,
};
use cube_model::{ClusterSnapshot, GroupProblem, Quantity, ResourceList, ResourceName};
use k8s_openapi::api::core::v1 as core;
use k8s_openapi::api::rbac::v1 as rbac;
use k8s_openapi::api::scheduling::v1 as scheduling;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity as ApiQuantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde::Serialize;

use crate::fit::is_extended_resource_name;

/// Label put on every object of a plan: the group's name.
pub const GROUP_LABEL: &str = "cube-rs.io/group";
/// RBAC API group.
const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// Why a group cannot be planned.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// `ResourceGroup::validate` found problems that would produce broken manifests.
    #[error("resource group {group:?} is invalid: {}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    InvalidGroup {
        /// Group name.
        group: String,
        /// The problems, each with its field path.
        problems: Vec<GroupProblem>,
    },
    /// The namespaces' shares of a bucket add up to more than the bucket.
    #[error(
        "resource group {group:?}: namespace shares of bucket {bucket:?} add up to {planned} {resource}, more than the bucket's {hard}"
    )]
    ShareExceedsBucket {
        /// Group name.
        group: String,
        /// Bucket name.
        bucket: String,
        /// Quota key.
        resource: ResourceName,
        /// The bucket's `hard`.
        hard: Box<Quantity>,
        /// Sum of the namespace shares.
        planned: Box<Quantity>,
    },
    /// A group pinned to a node pool holds more GPUs than the pool allocates.
    #[error(
        "resource group {group:?}: bucket {bucket:?} grants {planned} {resource} but the nodes its placement {placement} selects allocate only {allocatable}"
    )]
    PoolGpuExceeded {
        /// Group name.
        group: String,
        /// Bucket name.
        bucket: String,
        /// The quota key (`requests.nvidia.com/gpu`).
        resource: ResourceName,
        /// The bucket's amount.
        planned: i64,
        /// Allocatable units of the pool.
        allocatable: i64,
        /// The group's placement and how many nodes it selects, as text
        /// (`nodeSelector {org=nlp} (1 of 3 nodes)`).
        placement: String,
    },
    /// An amount cannot be computed exactly (the exact result would need more than 100,000
    /// digits); the plan refuses rather than write a rounded or saturated quota.
    #[error("resource group {group:?}: bucket {bucket:?} key {resource}: {message}")]
    Arithmetic {
        /// Group name.
        group: String,
        /// Bucket name.
        bucket: String,
        /// Quota key.
        resource: ResourceName,
        /// What could not be computed.
        message: String,
    },
    /// Two groups claim the same namespace.
    #[error("namespace {namespace:?} belongs to both {first:?} and {second:?}")]
    NamespaceInTwoGroups {
        /// Namespace.
        namespace: String,
        /// First group.
        first: String,
        /// Second group.
        second: String,
    },
    /// Serializing a manifest failed.
    #[error("cannot serialize {object}: {message}")]
    Serialize {
        /// `Kind/namespace/name`.
        object: String,
        /// The serializer's message.
        message: String,
    },
}

/// One namespace's quota for one bucket.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PlannedQuota {
    /// Namespace.
    pub namespace: String,
    /// ResourceQuota name (`<group>-<bucket>`).
    pub name: String,
    /// Bucket name.
    pub bucket: String,
    /// Every key of the bucket with this namespace's share (0 where it has none).
    pub hard: ResourceList,
    /// The bucket's scopes.
    pub scopes: Vec<String>,
    /// The bucket's scope selector.
    pub scope_selector: Option<cube_model::objects::ScopeSelector>,
}

impl PlannedQuota {
    /// The quota as a `cube-model` object (for usage computations).
    pub fn to_model(&self) -> ModelQuota {
        ModelQuota {
            metadata: ModelMeta {
                name: self.name.clone(),
                namespace: self.namespace.clone(),
                ..ModelMeta::default()
            },
            spec: ResourceQuotaSpec {
                hard: self.hard.clone(),
                scopes: self.scopes.clone(),
                scope_selector: self.scope_selector.clone(),
            },
            status: None,
        }
    }
}

/// One manifest of a plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Manifest {
    /// `v1` Namespace.
    Namespace(core::Namespace),
    /// `scheduling.k8s.io/v1` PriorityClass.
    PriorityClass(scheduling::PriorityClass),
    /// `v1` ResourceQuota.
    ResourceQuota(core::ResourceQuota),
    /// `v1` LimitRange.
    LimitRange(core::LimitRange),
    /// `rbac.authorization.k8s.io/v1` Role.
    Role(rbac::Role),
    /// `rbac.authorization.k8s.io/v1` RoleBinding.
    RoleBinding(rbac::RoleBinding),
}

impl Manifest {
    /// `Kind/namespace/name` (namespace omitted for cluster-scoped kinds).
    pub fn id(&self) -> String {
        let (kind, m) = match self {
            Manifest::Namespace(o) => ("Namespace", &o.metadata),
            Manifest::PriorityClass(o) => ("PriorityClass", &o.metadata),
            Manifest::ResourceQuota(o) => ("ResourceQuota", &o.metadata),
            Manifest::LimitRange(o) => ("LimitRange", &o.metadata),
            Manifest::Role(o) => ("Role", &o.metadata),
            Manifest::RoleBinding(o) => ("RoleBinding", &o.metadata),
        };
        match &m.namespace {
            Some(ns) => format!("{kind}/{ns}/{}", m.name.as_deref().unwrap_or("")),
            None => format!("{kind}/{}", m.name.as_deref().unwrap_or("")),
        }
    }
}

/// The plan of one group.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct GroupPlan {
    /// Group name.
    pub group: String,
    /// Per namespace and bucket, the quota.
    pub quotas: Vec<PlannedQuota>,
    /// Manifests in apply order: Namespaces, PriorityClass, ResourceQuotas, LimitRanges,
    /// Roles, RoleBindings.
    pub manifests: Vec<Manifest>,
    /// Things that were fixed up or look wrong but do not stop the plan.
    pub warnings: Vec<String>,
}

impl GroupPlan {
    /// The manifests as multi-document YAML (`---` between documents) for `kubectl apply -f`.
    ///
    /// # Errors
    /// [`PlanError::Serialize`] when a manifest cannot be serialized.
    pub fn to_yaml(&self) -> Result<String, PlanError> {
        manifests_to_yaml(&self.manifests)
    }
}

/// Serializes manifests as multi-document YAML.
///
/// # Errors
/// [`PlanError::Serialize`] naming the object that failed.
pub fn manifests_to_yaml(manifests: &[Manifest]) -> Result<String, PlanError> {
    let mut out = String::new();
    for m in manifests {
        let doc = serde_saphyr::to_string(m).map_err(|e| PlanError::Serialize {
            object: m.id(),
            message: e.to_string(),
        })?;
        out.push_str("---\n");
        out.push_str(&doc);
        if !doc.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}

/// Serializes manifests as a `v1` `List` (for `kubectl apply -f` of JSON).
///
/// # Errors
/// [`PlanError::Serialize`] naming the object that failed.
pub fn manifests_to_json(manifests: &[Manifest]) -> Result<serde_json::Value, PlanError> {
    let items = manifests
        .iter()
        .map(|m| {
            serde_json::to_value(m).map_err(|e| PlanError::Serialize {
                object: m.id(),
                message: e.to_string(),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items}))
}

/// Plans several groups, refusing a namespace claimed by two groups.
///
/// # Errors
/// Every [`PlanError`] of every group (all groups are tried).
pub fn plan_groups(
    groups: &[ResourceGroup],
    snapshot: Option<&ClusterSnapshot>,
) -> Result<Vec<GroupPlan>, Vec<PlanError>> {
    let mut errors = Vec::new();
    let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
    for g in groups {
        for ns in &g.namespaces {
            if let Some(first) = owner.insert(ns.name.as_str(), g.name.as_str())
                && first != g.name
            {
                errors.push(PlanError::NamespaceInTwoGroups {
                    namespace: ns.name.clone(),
                    first: first.to_owned(),
                    second: g.name.clone(),
                });
            }
        }
    }
    let mut plans = Vec::new();
    for g in groups {
        match plan_group_all(g, snapshot) {
            Ok(p) => plans.push(p),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(plans)
    } else {
        Err(errors)
    }
}

/// Rewrites a quota key an extended resource is never charged under (`nvidia.com/gpu`,
/// `limits.nvidia.com/gpu`) to `requests.<name>`.
pub fn enforced_quota_key(key: &str) -> Option<String> {
    if let Some(rest) = key.strip_prefix("limits.")
        && is_extended_resource_name(rest)
    {
        return Some(format!("requests.{rest}"));
    }
    if is_extended_resource_name(key) && !key.starts_with("count/") {
        return Some(format!("requests.{key}"));
    }
    None
}

/// The bucket's hard with unenforced extended-resource keys rewritten (explicit
/// `requests.<name>` wins over a rewritten key).
fn normalized_hard(group: &str, b: &QuotaBucket, warnings: &mut Vec<String>) -> ResourceList {
    let mut out = ResourceList::new();
    let mut rewritten = Vec::new();
    for (k, q) in &b.hard {
        match enforced_quota_key(k.as_str()) {
            Some(new) => rewritten.push((k.clone(), new, q.clone())),
            None => {
                out.insert(k.clone(), q.clone());
            }
        }
    }
    for (old, new, q) in rewritten {
        warnings.push(format!(
            "group {group:?} bucket {:?}: quota key {old} is never charged by the API server; planned as {new}",
            b.name
        ));
        if !out.contains(&new) {
            out.insert(new, q);
        }
    }
    out
}

/// The keys of a quota bucket that ResourceQuota's "must specify" rule requires from every
/// container (kubernetes/kubernetes `pkg/quota/v1/evaluator/core/pods.go`, `podEvaluator.Constraints`
/// over `validationSet`: `cpu`, `memory`, `requests.cpu`, `requests.memory`, `limits.cpu`,
/// `limits.memory`; extended resources and ephemeral storage are never required) that the
/// group's LimitRange does not default, one warning each: a container stating neither is then
/// refused with `failed quota: <quota>: must specify <key> for: <containers>`
/// (`plugin/pkg/admission/resourcequota` via `apiserver/pkg/admission/plugin/resourcequota/controller.go`).
///
/// A request key is defaulted by `defaultRequest`, or by `default` (the stored LimitRange gets
/// `defaultRequest := default`, and a container's limit becomes its request); a `limits.` key
/// only by `default`.
fn undefaulted_required(
    group: &str,
    bucket: &str,
    hard: &ResourceList,
    defaults: Option<&ContainerDefaults>,
) -> Vec<String> {
    let empty = ContainerDefaults::default();
    let d = defaults.unwrap_or(&empty);
    let mut out = Vec::new();
    for key in hard.names() {
        let k = key.as_str();
        if !crate::quota::MUST_SPECIFY_RESOURCES.contains(&k) {
            continue;
        }
        let (limit, resource) = match k.strip_prefix("limits.") {
            Some(r) => (true, r),
            None => (false, k.strip_prefix("requests.").unwrap_or(k)),
        };
        let defaulted =
            d.default_limit.contains(resource) || (!limit && d.default_request.contains(resource));
        if defaulted {
            continue;
        }
        let (what, fix) = if limit {
            ("limit", "containerDefaults.defaultLimit")
        } else {
            (
                "request",
                "containerDefaults.defaultRequest (or defaultLimit)",
            )
        };
        out.push(format!(
            "group {group:?} bucket {bucket:?}: the quota tracks {k}, so every container must state a {resource} {what} (ResourceQuota's \"must specify\" rule), but the group's LimitRange gives no default {resource} {what}: a pod whose containers leave it out is refused with \"failed quota: {group}-{bucket}: must specify {k} for: <containers>\"; set {fix}.{resource}"
        ));
    }
    out
}

/// True for quota keys counted in millicores.
fn is_cpu_key(key: &str) -> bool {
    matches!(key, "cpu" | "requests.cpu" | "limits.cpu")
}

/// `hard * percent / 100`, rounded down to millicores (cpu keys) or whole units, exactly for
/// every quantity (no `i64` saturation: `20Pi` at 50 % is `10Pi`) and in `hard`'s format.
/// `None` only when the exact result is too large to compute (more than 100,000 digits).
fn percent_share(key: &str, hard: &Quantity, percent: u32) -> Option<Quantity> {
    let scale = if is_cpu_key(key) { -3 } else { 0 };
    hard.checked_mul_ratio(i64::from(percent), 100, scale)
}

/// The percentage shares of `hard` (one per entry of `percents`, each at most 100; `0` for a
/// namespace without a percentage) by the largest-remainder method: each share is
/// `hard * p / 100` rounded down to millicores (cpu keys) or whole units, then the units
/// between the sum of those and `hard * sum(p) / 100` rounded down go one each to the shares
/// with the largest remainders (the earlier namespace on ties). The shares add up to
/// `hard * sum(p) / 100` rounded down: all of `hard` (in whole units) when the percentages add
/// up to 100, never more than the exact amounts allow. `None` only when a number is too large
/// to compute exactly.
pub fn percent_shares(key: &str, hard: &Quantity, percents: &[u32]) -> Option<Vec<Quantity>> {
    let scale = if is_cpu_key(key) { -3 } else { 0 };
    let mut shares: Vec<Quantity> = percents
        .iter()
        .map(|p| percent_share(key, hard, *p))
        .collect::<Option<_>>()?;
    let total: u32 = percents.iter().try_fold(0u32, |a, p| a.checked_add(*p))?;
    if total == 0 {
        return Some(shares);
    }
    let whole = hard.checked_mul_ratio(i64::from(total), 100, scale)?;
    let mut sum = Quantity::ZERO;
    for s in &shares {
        sum = sum.checked_add(s)?;
    }
    let mut left = whole.checked_sub(&sum)?;
    if !left.is_positive() {
        return Some(shares);
    }
    // remainder_i * 100 = hard * p_i - share_i * 100 (exact)
    let mut remainders: Vec<(Quantity, usize)> = Vec::with_capacity(percents.len());
    for (i, (p, s)) in percents.iter().zip(&shares).enumerate() {
        let r = hard
            .checked_mul(i64::from(*p))?
            .checked_sub(&s.checked_mul(100)?)?;
        if r.is_positive() {
            remainders.push((r, i));
        }
    }
    remainders.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let unit = Quantity::from_scaled(1, scale, hard.format());
    for (_, i) in remainders {
        if !left.is_positive() {
            break;
        }
        shares[i] = shares[i].checked_add(&unit)?.with_format(hard.format());
        left = left.checked_sub(&unit)?;
    }
    Some(shares)
}

/// Plans one group.
///
/// The group's cluster placement (`placement.cluster`, `placement.clusterSelector`) is not
/// resolved here: the manifests hold the whole group for whichever cluster they are applied
/// to. [`crate::split::plan_groups_on_registry`] resolves it against a cluster registry and
/// splits the quota between the target clusters.
///
/// # Errors
/// [`PlanError::InvalidGroup`] when `validate` reports problems other than not-enforced keys
/// and GPU names the pool does not advertise (those become warnings),
/// [`PlanError::ShareExceedsBucket`], [`PlanError::PoolGpuExceeded`].
pub fn plan_group(
    group: &ResourceGroup,
    snapshot: Option<&ClusterSnapshot>,
) -> Result<GroupPlan, PlanError> {
    plan_group_all(group, snapshot).map_err(|mut errors| errors.swap_remove(0))
}

/// As [`plan_group`], returning every error of the group at once (all invalid fields, every
/// bucket whose shares exceed it, every GPU key above its pool), never an empty `Vec`.
///
/// # Errors
/// As [`plan_group`], all of them.
pub fn plan_group_all(
    group: &ResourceGroup,
    snapshot: Option<&ClusterSnapshot>,
) -> Result<GroupPlan, Vec<PlanError>> {
    let mut errors: Vec<PlanError> = Vec::new();
    let mut warnings = Vec::new();
    if let Err(problems) = group.validate(snapshot) {
        let (soft, hard): (Vec<_>, Vec<_>) = problems.into_iter().partition(|p| {
            matches!(
                p.kind,
                GroupProblemKind::QuotaNotEnforced | GroupProblemKind::GpuNotAdvertised
            )
        });
        // Shares above a bucket are re-checked below on the normalized keys; but when the
        // group is invalid anyway, every problem is reported at once (not stage by stage).
        if hard
            .iter()
            .any(|p| p.kind != GroupProblemKind::ShareExceedsBucket)
        {
            return Err(vec![PlanError::InvalidGroup {
                group: group.name.clone(),
                problems: hard,
            }]);
        }
        if let Some(p) = hard.first() {
            warnings.push(p.to_string());
        }
        // A not-enforced key is reported once, by `normalized_hard`, with the key it is
        // planned under.
        warnings.extend(
            soft.iter()
                .filter(|p| p.kind != GroupProblemKind::QuotaNotEnforced)
                .map(ToString::to_string),
        );
    }
    let gname = group.name.as_str();

    // Shares per bucket and namespace; checked against the bucket (the invariant lives here,
    // not only in validate()).
    let mut quotas = Vec::new();
    for b in &group.quota {
        let hard = normalized_hard(gname, b, &mut warnings);
        warnings.extend(undefaulted_required(
            gname,
            &b.name,
            &hard,
            group.container_defaults.as_ref(),
        ));
        // The percentage shares of every key, split among the namespaces that take a
        // percentage of this bucket (no explicit amounts for it) by the largest remainder.
        let percents: Vec<u32> = group
            .namespaces
            .iter()
            .map(
                |ns| match (ns.buckets.contains_key(&b.name), ns.share_percent) {
                    (false, Some(p)) => p.min(100),
                    _ => 0,
                },
            )
            .collect();
        let split: Vec<Option<Vec<Quantity>>> = hard
            .iter()
            .map(|(k, total)| {
                let shares = percent_shares(k.as_str(), total, &percents);
                if shares.is_none() {
                    errors.push(PlanError::Arithmetic {
                        group: gname.to_owned(),
                        bucket: b.name.clone(),
                        resource: k.clone(),
                        message: format!(
                            "the percentage shares of {total} are too large to compute exactly"
                        ),
                    });
                }
                shares
            })
            .collect();
        let mut per_ns: Vec<ResourceList> = Vec::new();
        for (n, ns) in group.namespaces.iter().enumerate() {
            let explicit = ns.buckets.get(&b.name);
            let mut list = ResourceList::new();
            for (ki, (k, _)) in hard.iter().enumerate() {
                let share = match explicit {
                    Some(e) => e
                        .get(k.as_str())
                        .or_else(|| {
                            // An explicit amount written under the unenforced key.
                            let bare = k.as_str().strip_prefix("requests.")?;
                            e.get(bare).or_else(|| e.get(&format!("limits.{bare}")))
                        })
                        .cloned()
                        .unwrap_or(Quantity::ZERO),
                    None => split
                        .get(ki)
                        .and_then(Option::as_ref)
                        .and_then(|shares| shares.get(n))
                        .cloned()
                        .unwrap_or(Quantity::ZERO),
                };
                let share = if share.is_negative() {
                    Quantity::ZERO
                } else {
                    share
                };
                list.insert(k.clone(), share);
            }
            per_ns.push(list);
        }
        // A percentage share that rounds a non-zero bucket amount down to 0 writes a quota of
        // 0 for that key: the namespace can then create no pod (`pods: "0"`) or no pod asking
        // for that resource at all (fresh-user G13). Allowed (the shares add up to the bucket),
        // but never silent.
        for (n, ns) in group.namespaces.iter().enumerate() {
            if ns.buckets.contains_key(&b.name) || percents.get(n).copied().unwrap_or(0) == 0 {
                continue;
            }
            let zero: Vec<String> = hard
                .iter()
                .filter(|(k, total)| {
                    !total.is_zero() && per_ns[n].get(k.as_str()).is_some_and(Quantity::is_zero)
                })
                .map(|(k, total)| format!("{k} (of {total})"))
                .collect();
            if !zero.is_empty() {
                warnings.push(format!(
                    "group {gname}: namespace {} gets 0 of bucket {}'s {} from its {}% share (the largest remainders went to other namespaces): its ResourceQuota will forbid every pod{} there; give it an explicit amount, a larger share, or fewer namespaces",
                    ns.name,
                    b.name,
                    zero.join(", "),
                    percents[n],
                    if zero.iter().any(|z| z.starts_with("pods ")) { "" } else { " asking for those resources" },
                ));
            }
        }
        for (k, total) in &hard {
            let mut sum = Quantity::ZERO;
            for l in &per_ns {
                if let Some(q) = l.get(k.as_str()) {
                    match sum.checked_add(q) {
                        Some(v) => sum = v,
                        None => {
                            errors.push(PlanError::Arithmetic {
                                group: gname.to_owned(),
                                bucket: b.name.clone(),
                                resource: k.clone(),
                                message: format!("the sum of the namespace shares ({sum} + {q}) is too large to compute exactly"),
                            });
                            break;
                        }
                    }
                }
            }
            if sum > *total {
                errors.push(PlanError::ShareExceedsBucket {
                    group: gname.to_owned(),
                    bucket: b.name.clone(),
                    resource: k.clone(),
                    hard: Box::new(total.clone()),
                    planned: Box::new(sum),
                });
            }
        }
        if let Some(s) = snapshot
            && let Err(e) = check_pool_gpus(group, b, &hard, s, &mut warnings)
        {
            errors.push(e);
        }
        for (ns, list) in group.namespaces.iter().zip(per_ns) {
            quotas.push(PlannedQuota {
                namespace: ns.name.clone(),
                name: format!("{gname}-{}", b.name),
                bucket: b.name.clone(),
                hard: list,
                scopes: b.scopes.clone(),
                scope_selector: b.scope_selector.clone(),
            });
        }
    }
    warnings.extend(
        crate::report::group_warnings(std::slice::from_ref(group))
            .into_iter()
            .map(|w| w.message),
    );

    let placement = &group.placement;
    if !placement.node_selector.is_empty() || !placement.tolerations.is_empty() {
        warnings.push(format!(
            "group {gname:?}: the placement is enforced through the namespace annotations {NODE_SELECTOR_ANNOTATION} and {DEFAULT_TOLERATIONS_ANNOTATION} only when the API server enables the PodNodeSelector and PodTolerationRestriction admission plugins (--enable-admission-plugins)"
        ));
    }
    if placement.node_affinity.is_some() {
        warnings.push(format!(
            "group {gname:?}: placement.nodeAffinity cannot be enforced by a namespace annotation; the group's pods must set it themselves (or use a mutating webhook)"
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let manifests = build_manifests(group, &quotas).map_err(|e| vec![e])?;
    Ok(GroupPlan {
        group: gname.to_owned(),
        quotas,
        manifests,
        warnings,
    })
}

/// A group is pinned to a pool when its placement selects nodes; then each GPU key of each
/// bucket must fit in the pool's allocatable (compared exactly, no `i64` saturation). When the
/// placement selects none of the snapshot's nodes, the check is skipped with a warning (the
/// pool may not exist yet, or the snapshot is of another cluster).
fn check_pool_gpus(
    group: &ResourceGroup,
    b: &QuotaBucket,
    hard: &ResourceList,
    snapshot: &ClusterSnapshot,
    warnings: &mut Vec<String>,
) -> Result<(), PlanError> {
    let pinned =
        !group.placement.node_selector.is_empty() || group.placement.node_affinity.is_some();
    if !pinned {
        return Ok(());
    }
    let pool: Vec<_> = snapshot
        .nodes
        .iter()
        .filter(|n| {
            group
                .placement
                .selects_node(&n.metadata.labels, &n.metadata.name)
        })
        .collect();
    let gpu_keys: Vec<_> = hard
        .iter()
        .filter(|(k, _)| {
            k.as_str()
                .strip_prefix("requests.")
                .is_some_and(crate::fit::is_gpu_resource_name)
        })
        .collect();
    if gpu_keys.is_empty() {
        return Ok(());
    }
    if pool.is_empty() {
        warnings.push(format!(
            "group {:?} bucket {:?}: placement {} matched 0 of {} nodes in the snapshot; GPU pool check skipped",
            group.name,
            b.name,
            describe_placement(group),
            snapshot.nodes.len()
        ));
        return Ok(());
    }
    for (k, q) in gpu_keys {
        let Some(res) = k.as_str().strip_prefix("requests.") else {
            continue;
        };
        let mut allocatable = Quantity::ZERO;
        for n in &pool {
            let l = if n.status.allocatable.is_empty() {
                &n.status.capacity
            } else {
                &n.status.allocatable
            };
            if let Some(a) = l.get(res) {
                allocatable = allocatable
                    .checked_add(a)
                    .ok_or_else(|| PlanError::Arithmetic {
                        group: group.name.clone(),
                        bucket: b.name.clone(),
                        resource: k.clone(),
                        message: "the pool's allocatable is too large to compute exactly"
                            .to_owned(),
                    })?;
            }
        }
        if *q > allocatable {
            return Err(PlanError::PoolGpuExceeded {
                group: group.name.clone(),
                bucket: b.name.clone(),
                resource: k.clone(),
                planned: q.value(),
                allocatable: allocatable.value(),
                placement: format!(
                    "{} ({} of {} nodes)",
                    describe_placement(group),
                    pool.len(),
                    snapshot.nodes.len()
                ),
            });
        }
    }
    Ok(())
}

/// The placement as text: `nodeSelector {a=b,c=d}` and/or `nodeAffinity`.
fn describe_placement(group: &ResourceGroup) -> String {
    let mut parts = Vec::new();
    if !group.placement.node_selector.is_empty() {
        let sel: Vec<String> = group
            .placement
            .node_selector
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        parts.push(format!("nodeSelector {{{}}}", sel.join(",")));
    }
    if group.placement.node_affinity.is_some() {
        parts.push("nodeAffinity".to_owned());
    }
    parts.join(" and ")
}

fn api_list(list: &ResourceList) -> BTreeMap<String, ApiQuantity> {
    list.iter()
        .map(|(k, v)| (k.to_string(), ApiQuantity(v.to_string())))
        .collect()
}

/// Namespace annotation read by the `PodNodeSelector` admission plugin: merged into the
/// `nodeSelector` of every pod of the namespace (a conflicting pod is refused).
pub const NODE_SELECTOR_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/node-selector";
/// Namespace annotation read by the `PodTolerationRestriction` admission plugin: tolerations
/// (JSON array) added to every pod of the namespace.
pub const DEFAULT_TOLERATIONS_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/defaultTolerations";

/// The group's placement as Namespace annotations Kubernetes enforces, provided the API
/// server enables the `PodNodeSelector` and `PodTolerationRestriction` admission plugins:
/// `nodeSelector` as `k1=v1,k2=v2` under [`NODE_SELECTOR_ANNOTATION`], tolerations as a JSON
/// array under [`DEFAULT_TOLERATIONS_ANNOTATION`]. Node affinity has no such annotation.
///
/// # Errors
/// [`PlanError::Serialize`] when the tolerations cannot be serialized.
pub fn placement_annotations(group: &ResourceGroup) -> Result<BTreeMap<String, String>, PlanError> {
    let mut out = BTreeMap::new();
    let p = &group.placement;
    if !p.node_selector.is_empty() {
        let sel: Vec<String> = p
            .node_selector
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        out.insert(NODE_SELECTOR_ANNOTATION.to_owned(), sel.join(","));
    }
    if !p.tolerations.is_empty() {
        let json = serde_json::to_string(&p.tolerations).map_err(|e| PlanError::Serialize {
            object: format!("Namespace annotations of group {}", group.name),
            message: e.to_string(),
        })?;
        out.insert(DEFAULT_TOLERATIONS_ANNOTATION.to_owned(), json);
    }
    Ok(out)
}

fn meta(name: &str, namespace: Option<&str>, group: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(name.to_owned()),
        namespace: namespace.map(str::to_owned),
        labels: Some(BTreeMap::from([(GROUP_LABEL.to_owned(), group.to_owned())])),
        ..ObjectMeta::default()
    }
}

/// The rules of a member role inside the group's namespaces.
///
/// - `viewer`: read workloads, pods and their logs, quota and limits.
/// - `developer`: viewer plus create/update/delete of workloads, pods, services, config maps,
///   secrets, claims, and `pods/exec`, `pods/portforward`.
/// - `admin`: developer plus Roles and RoleBindings of the namespace (not the quota,
///   LimitRange or namespace themselves: those belong to the pool's operator).
pub fn role_rules(role: &str) -> Vec<rbac::PolicyRule> {
    let rule = |groups: &[&str], resources: &[&str], verbs: &[&str]| rbac::PolicyRule {
        api_groups: Some(groups.iter().map(|s| s.to_string()).collect()),
        resources: Some(resources.iter().map(|s| s.to_string()).collect()),
        verbs: verbs.iter().map(|s| s.to_string()).collect(),
        ..rbac::PolicyRule::default()
    };
    let read = ["get", "list", "watch"];
    let write = [
        "get", "list", "watch", "create", "update", "patch", "delete",
    ];
    let mut rules = vec![
        rule(
            &[""],
            &[
                "pods",
                "pods/log",
                "services",
                "configmaps",
                "persistentvolumeclaims",
                "events",
                "resourcequotas",
                "limitranges",
            ],
            &read,
        ),
        rule(
            &["apps", "batch"],
            &[
                "deployments",
                "replicasets",
                "statefulsets",
                "jobs",
                "cronjobs",
            ],
            &read,
        ),
    ];
    if role == "developer" || role == "admin" {
        rules.push(rule(
            &[""],
            &[
                "pods",
                "services",
                "configmaps",
                "secrets",
                "persistentvolumeclaims",
            ],
            &write,
        ));
        rules.push(rule(
            &[""],
            &["pods/exec", "pods/portforward"],
            &["create", "get"],
        ));
        rules.push(rule(
            &["apps", "batch"],
            &["deployments", "statefulsets", "jobs", "cronjobs"],
            &write,
        ));
    }
    if role == "admin" {
        rules.push(rule(&[RBAC_GROUP], &["roles", "rolebindings"], &write));
    }
    rules
}

fn from_json<T: serde::de::DeserializeOwned>(
    json: serde_json::Value,
    kind: &str,
) -> Result<T, PlanError> {
    serde_json::from_value(json).map_err(|e| PlanError::Serialize {
        object: kind.to_owned(),
        message: e.to_string(),
    })
}

fn build_manifests(
    group: &ResourceGroup,
    quotas: &[PlannedQuota],
) -> Result<Vec<Manifest>, PlanError> {
    let g = group.name.as_str();
    let mut out = Vec::new();
    let annotations = placement_annotations(group)?;
    for ns in &group.namespaces {
        let mut metadata = meta(&ns.name, None, g);
        if !annotations.is_empty() {
            metadata.annotations = Some(annotations.clone());
        }
        out.push(Manifest::Namespace(core::Namespace {
            metadata,
            ..core::Namespace::default()
        }));
    }
    if let Some(p) = &group.priority {
        // Built through JSON: field types differ between Kubernetes versions of k8s-openapi
        // (`value` is optional in newer ones) and a library never picks the version.
        let value = i32::try_from(p.value).unwrap_or(if p.value < 0 { i32::MIN } else { i32::MAX });
        let mut json = serde_json::json!({
            "apiVersion": "scheduling.k8s.io/v1",
            "kind": "PriorityClass",
            "metadata": meta(&p.class_name, None, g),
            "value": value,
            "globalDefault": false,
            "description": format!("priority of resource group {g}"),
        });
        if let Some(pp) = &p.preemption_policy {
            json["preemptionPolicy"] = serde_json::Value::String(pp.clone());
        }
        out.push(Manifest::PriorityClass(from_json(json, "PriorityClass")?));
    }
    for q in quotas {
        out.push(Manifest::ResourceQuota(core::ResourceQuota {
            metadata: meta(&q.name, Some(&q.namespace), g),
            spec: Some(core::ResourceQuotaSpec {
                hard: Some(api_list(&q.hard)),
                scopes: (!q.scopes.is_empty()).then(|| q.scopes.clone()),
                scope_selector: q.scope_selector.as_ref().map(|s| core::ScopeSelector {
                    match_expressions: Some(
                        s.match_expressions
                            .iter()
                            .map(|e| core::ScopedResourceSelectorRequirement {
                                scope_name: e.scope_name.clone(),
                                operator: e.operator.clone(),
                                values: (!e.values.is_empty()).then(|| e.values.clone()),
                            })
                            .collect(),
                    ),
                }),
            }),
            ..core::ResourceQuota::default()
        }));
    }
    if let Some(d) = &group.container_defaults
        && (!d.default_request.is_empty() || !d.default_limit.is_empty())
    {
        for ns in &group.namespaces {
            out.push(Manifest::LimitRange(core::LimitRange {
                metadata: meta(&format!("{g}-defaults"), Some(&ns.name), g),
                spec: Some(core::LimitRangeSpec {
                    limits: vec![core::LimitRangeItem {
                        type_: "Container".to_owned(),
                        default: (!d.default_limit.is_empty()).then(|| api_list(&d.default_limit)),
                        default_request: (!d.default_request.is_empty())
                            .then(|| api_list(&d.default_request)),
                        ..core::LimitRangeItem::default()
                    }],
                }),
            }));
        }
    }
    let mut roles: BTreeMap<&str, Vec<&cube_model::group::Member>> = BTreeMap::new();
    for m in &group.members {
        roles.entry(m.role.as_str()).or_default().push(m);
    }
    for ns in &group.namespaces {
        for role in roles.keys() {
            out.push(Manifest::Role(rbac::Role {
                metadata: meta(&format!("{g}-{role}"), Some(&ns.name), g),
                rules: Some(role_rules(role)),
            }));
        }
    }
    for ns in &group.namespaces {
        for (role, members) in &roles {
            let subjects: Vec<rbac::Subject> = members
                .iter()
                .map(|m| {
                    let kind = if m.kind.is_empty() {
                        "User"
                    } else {
                        m.kind.as_str()
                    };
                    if kind == "ServiceAccount" {
                        let (sa_ns, name) = m.name.split_once('/').unwrap_or((&ns.name, &m.name));
                        rbac::Subject {
                            kind: kind.to_owned(),
                            name: name.to_owned(),
                            namespace: Some(sa_ns.to_owned()),
                            api_group: None,
                        }
                    } else {
                        rbac::Subject {
                            kind: kind.to_owned(),
                            name: m.name.clone(),
                            namespace: None,
                            api_group: Some(RBAC_GROUP.to_owned()),
                        }
                    }
                })
                .collect();
            // Through JSON: `roleRef.apiGroup` is optional in newer k8s-openapi versions.
            let json = serde_json::json!({
                "apiVersion": "rbac.authorization.k8s.io/v1",
                "kind": "RoleBinding",
                "metadata": meta(&format!("{g}-{role}"), Some(&ns.name), g),
                "roleRef": {"apiGroup": RBAC_GROUP, "kind": "Role", "name": format!("{g}-{role}")},
                "subjects": subjects,
            });
            out.push(Manifest::RoleBinding(from_json(json, "RoleBinding")?));
        }
    }
    Ok(out)
}

// ------------------------------------------------------------------ re-split

/// Direction of a quota change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum StepKind {
    /// No quota of that name exists yet (the namespace is unlimited until it does): applied
    /// with the lowering steps.
    Create,
    /// Some keys go down (or appear): apply first, with `hard` = per-key minimum of old and new.
    Lower,
    /// Keys only go up or vanish: apply after every lowering step.
    Raise,
}

/// One `kubectl apply` of one quota.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct QuotaStep {
    /// Namespace.
    pub namespace: String,
    /// Quota name.
    pub quota: String,
    /// Kind of step.
    pub kind: StepKind,
    /// The `hard` to apply in this step.
    pub hard: ResourceList,
}

/// A namespace that a new quota leaves above its limit (nothing is evicted: new pods are
/// refused until usage drops).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OverQuota {
    /// Namespace.
    pub namespace: String,
    /// Quota name.
    pub quota: String,
    /// Quota key.
    pub resource: ResourceName,
    /// Current usage.
    pub used: Quantity,
    /// New hard.
    pub hard: Quantity,
}

/// The re-split check of a plan against a snapshot.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResplitReport {
    /// Steps in order: every Create/Lower step first, then the Raise steps (a quota that
    /// lowers some keys and raises others appears twice: lowered first, final values after).
    pub steps: Vec<QuotaStep>,
    /// Namespaces left over quota by the new values.
    pub over_quota: Vec<OverQuota>,
}

/// Checks a plan against the quotas and usage in `snapshot`.
///
/// Usage per key: the snapshot quota's `status.used` of the same namespace and name when it
/// has the key (what admission uses), else computed from the namespace's pods and claims
/// (upstream quota evaluator, see [`crate::quota::quota_usage`]).
pub fn resplit_check(plan: &GroupPlan, snapshot: &ClusterSnapshot) -> ResplitReport {
    let mut lower = Vec::new();
    let mut raise = Vec::new();
    let mut over_quota = Vec::new();
    for q in &plan.quotas {
        let current = snapshot
            .resource_quotas
            .iter()
            .find(|c| c.metadata.namespace == q.namespace && c.metadata.name == q.name);
        let computed = crate::quota::quota_usage(
            &q.to_model(),
            &snapshot.pods,
            &snapshot.persistent_volume_claims,
            None,
        );
        for (k, new) in &q.hard {
            let used = current
                .and_then(|c| c.status.as_ref())
                .and_then(|s| s.used.get(k.as_str()))
                .or_else(|| computed.get(k.as_str()));
            if let Some(used) = used
                && used > new
            {
                over_quota.push(OverQuota {
                    namespace: q.namespace.clone(),
                    quota: q.name.clone(),
                    resource: k.clone(),
                    used: used.clone(),
                    hard: new.clone(),
                });
            }
        }
        let Some(cur) = current else {
            lower.push(QuotaStep {
                namespace: q.namespace.clone(),
                quota: q.name.clone(),
                kind: StepKind::Create,
                hard: q.hard.clone(),
            });
            continue;
        };
        let old = &cur.spec.hard;
        let mut lowered = ResourceList::new();
        let mut any_lower = false;
        let mut any_raise = false;
        for (k, new) in &q.hard {
            match old.get(k.as_str()) {
                Some(o) if o <= new => {
                    any_raise |= o < new;
                    lowered.insert(k.clone(), o.clone());
                }
                _ => {
                    any_lower = true;
                    lowered.insert(k.clone(), new.clone());
                }
            }
        }
        // Keys dropped from the quota are a raise (to unlimited).
        any_raise |= old.names().any(|k| !q.hard.contains(k.as_str()));
        if any_lower {
            lower.push(QuotaStep {
                namespace: q.namespace.clone(),
                quota: q.name.clone(),
                kind: StepKind::Lower,
                hard: lowered,
            });
        }
        if any_raise {
            raise.push(QuotaStep {
                namespace: q.namespace.clone(),
                quota: q.name.clone(),
                kind: StepKind::Raise,
                hard: q.hard.clone(),
            });
        }
    }
    lower.extend(raise);
    ResplitReport {
        steps: lower,
        over_quota,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// H6: a quota on limits.cpu with a LimitRange that defaults only requests (and no
    /// LimitRange at all for memory) warns; GPU keys are never required; a LimitRange that
    /// defaults every required key stays quiet.
    #[test]
    fn required_keys_the_limitrange_does_not_default_are_warned() {
        let yaml = |defaults: &str| {
            format!(
                "name: t\nowner: bob\nmembers: [{{name: bob, role: admin}}]\nquota:\n  - name: c\n    hard: {{limits.cpu: \"8\", requests.memory: 8Gi, requests.nvidia.com/gpu: \"2\"}}\nnamespaces:\n  - {{name: a, sharePercent: 100}}\n{defaults}"
            )
        };
        let warned = |defaults: &str| -> Vec<String> {
            let g = ResourceGroup::from_yaml(&yaml(defaults)).expect("group");
            plan_group(&g, None)
                .expect("plan")
                .warnings
                .into_iter()
                .filter(|w| w.contains("must specify"))
                .collect()
        };
        let w = warned("containerDefaults:\n  defaultRequest: {cpu: 500m}\n");
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].contains("the quota tracks limits.cpu")
                && w[0]
                    .contains("\"failed quota: t-c: must specify limits.cpu for: <containers>\"")
                && w[0].ends_with("set containerDefaults.defaultLimit.cpu"),
            "{}",
            w[0]
        );
        assert!(
            w[1].contains("the quota tracks requests.memory"),
            "{}",
            w[1]
        );
        assert!(!w.iter().any(|x| x.contains("nvidia.com/gpu")));
        // a default limit defaults the request too
        assert!(
            warned("containerDefaults:\n  defaultLimit: {cpu: \"1\", memory: 1Gi}\n").is_empty()
        );
    }

    #[test]
    fn a_share_rounded_to_zero_is_warned_never_silent() {
        // fresh-user G13: 1 GPU and 1 pod over 33/33/34 namespaces
        let g = ResourceGroup::from_yaml(
            "name: team-y\nowner: bob\nmembers: [{name: bob, role: admin}]\nquota:\n  - name: compute\n    hard: {requests.cpu: \"1\", requests.nvidia.com/gpu: \"1\", requests.memory: 1Gi, pods: \"1\"}\nnamespaces:\n  - {name: y-a, sharePercent: 33}\n  - {name: y-b, sharePercent: 33}\n  - {name: y-c, sharePercent: 34}\n",
        )
        .expect("group");
        let plan = plan_group(&g, None).expect("plan");
        let zeroed: Vec<&String> = plan
            .warnings
            .iter()
            .filter(|w| w.contains(" gets 0 of bucket compute"))
            .collect();
        assert_eq!(zeroed.len(), 2, "{:?}", plan.warnings);
        assert!(zeroed[0].contains("namespace y-a") && zeroed[0].contains("pods (of 1)"));
        assert!(zeroed[0].contains("requests.nvidia.com/gpu (of 1)"));
        assert!(zeroed[0].contains("forbid every pod there"));
        assert!(zeroed[1].contains("namespace y-b"));
        // an even split warns nothing
        let even = ResourceGroup::from_yaml(
            "name: t\nowner: bob\nmembers: [{name: bob, role: admin}]\nquota:\n  - name: c\n    hard: {pods: \"10\"}\nnamespaces:\n  - {name: a, sharePercent: 50}\n  - {name: b, sharePercent: 50}\n",
        )
        .expect("group");
        let plan = plan_group(&even, None).expect("plan");
        assert!(
            !plan.warnings.iter().any(|w| w.contains(" gets 0 of")),
            "{:?}",
            plan.warnings
        );
    }

    #[test]
    fn percent_shares_round_down() {
        let q = |s: &str| s.parse::<Quantity>().expect("q");
        assert_eq!(
            percent_share("requests.cpu", &q("10"), 33)
                .expect("share")
                .to_string(),
            "3300m"
        );
        assert_eq!(
            percent_share("requests.cpu", &q("1"), 33)
                .expect("share")
                .milli_value(),
            330
        );
        assert_eq!(
            percent_share("requests.nvidia.com/gpu", &q("5"), 50)
                .expect("share")
                .value(),
            2
        );
        assert_eq!(
            percent_share("requests.memory", &q("3"), 50)
                .expect("share")
                .value(),
            1
        );
        assert_eq!(
            percent_share("pods", &q("1500m"), 100)
                .expect("share")
                .value(),
            1
        );
    }

    /// Percentages that add up to 100 give the whole bucket: a GPU the rounding left over was
    /// planned nowhere (fresh-user F14: 33/33/34 % of 10 GPUs was 3/3/3).
    #[test]
    fn percent_shares_give_the_whole_bucket_by_largest_remainder() {
        let q = |s: &str| s.parse::<Quantity>().expect("q");
        let show = |v: Vec<Quantity>| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        let gpu = "requests.nvidia.com/gpu";
        assert_eq!(
            show(percent_shares(gpu, &q("10"), &[33, 33, 34]).expect("split")),
            ["3", "3", "4"]
        );
        // the largest remainders get the units, not the largest shares
        assert_eq!(
            show(percent_shares(gpu, &q("3"), &[50, 25, 25]).expect("split")),
            ["1", "1", "1"]
        );
        // ties go to the earlier namespace; namespaces without a percentage get nothing
        assert_eq!(
            show(percent_shares(gpu, &q("5"), &[50, 0, 50]).expect("split")),
            ["3", "0", "2"]
        );
        // less than 100 % in all: never more than the exact amounts allow
        assert_eq!(
            show(percent_shares(gpu, &q("5"), &[50]).expect("split")),
            ["2"]
        );
        assert_eq!(
            show(percent_shares(gpu, &q("7"), &[30, 30]).expect("split")),
            ["2", "2"]
        );
        // cpu keys in millicores
        let cpu = percent_shares("requests.cpu", &q("1"), &[33, 33, 34]).expect("cpu");
        assert_eq!(
            cpu.iter().map(Quantity::milli_value).collect::<Vec<_>>(),
            [330, 330, 340]
        );
        let cpu = percent_shares("requests.cpu", &q("10m"), &[33, 33, 34]).expect("cpu");
        assert_eq!(
            cpu.iter().map(Quantity::milli_value).sum::<i64>(),
            10,
            "{cpu:?}"
        );
        // every split of every size adds up to the whole
        for n in 1..=7u32 {
            for hard in [1i64, 2, 3, 7, 10, 99, 1000] {
                let mut percents = vec![100 / n; n as usize];
                percents[0] += 100 - percents.iter().sum::<u32>();
                let shares = percent_shares(
                    gpu,
                    &Quantity::from_scaled(hard, 0, q("1").format()),
                    &percents,
                )
                .expect("split");
                let sum: i64 = shares.iter().map(Quantity::value).sum();
                assert_eq!(sum, hard, "{hard} over {percents:?}: {shares:?}");
            }
        }
    }

    #[test]
    fn unenforced_keys_are_rewritten() {
        assert_eq!(
            enforced_quota_key("nvidia.com/gpu").as_deref(),
            Some("requests.nvidia.com/gpu")
        );
        assert_eq!(
            enforced_quota_key("limits.nvidia.com/gpu").as_deref(),
            Some("requests.nvidia.com/gpu")
        );
        assert_eq!(enforced_quota_key("requests.nvidia.com/gpu"), None);
        assert_eq!(enforced_quota_key("limits.cpu"), None);
        assert_eq!(enforced_quota_key("count/deployments.apps"), None);
        assert_eq!(enforced_quota_key("pods"), None);
    }
}
