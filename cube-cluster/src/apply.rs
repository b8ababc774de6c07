//! Applying a resource-group plan to a live cluster with server-side apply, after showing the
//! drift and letting the server's own admission chain check it in a dry run.
//!
//! [`apply_plan`] over any [`ObjectApplier`] (a `kube::Client`, a
//! [`crate::memory::MemoryCluster`], a `dyn ClusterApi`):
//! 1. **Drift** ([`diff_plan`]): each planned object is read and compared with the plan, field by
//!    field, on the fields the plan sets only (what server-side apply would own: a server default
//!    or a field another manager added is not drift), quantities by value (`1000m` = `1`). Fields
//!    this field manager applied before and the plan no longer sets are listed as removed (the
//!    apply removes them unless another manager also owns them). A changed field owned by
//!    another manager (a `kubectl edit`, a controller) is named with that manager: applying it
//!    conflicts (409) unless `force_conflicts`. Objects labelled `cube-rs.io/group=<group>` that
//!    this field manager applied and the plan no longer holds are orphans.
//! 2. **Dry run**: every object is applied with `dryRun=All`, so defaulting, validation and
//!    every admission plugin and webhook of the real server judge it; each refusal is kept as a
//!    [`Rejection`] with the server's code, reason, message and causes, and nothing is written.
//!    A namespaced object whose namespace the plan creates cannot be dry-run before the
//!    namespace exists (the `NamespaceLifecycle` admission plugin answers 404 `namespaces "x" not
//!    found`): it is deferred and dry-run again right before its real apply.
//! 3. **Apply**, in a safe order: Namespaces, PriorityClasses, LimitRanges, then ResourceQuotas
//!    that are created or lowered (a quota that lowers some keys and raises others is first
//!    applied with the per-key minimum of old and new), then the raised ones with their final
//!    values, then Roles and RoleBindings. Each is a `PATCH` with `Content-Type:
//!    application/apply-patch+yaml` and `fieldManager` ([`crate::api::FIELD_MANAGER`] by default);
//!    `force=true` only with `force_conflicts`. The first failure stops the run (what was applied
//!    stays; namespaces are never deleted).
//! 4. **Prune**, only when asked: orphans are deleted (dry-run first), except Namespaces, which
//!    are never deleted (their workloads would go with them).
//! 5. **Read back** ([`read_usage`]): the group's ResourceQuotas in each of its namespaces, with
//!    `status.hard` and `status.used` as the quota controller reports them.
//!
//! Applying the same plan twice changes nothing: server-side apply of an unchanged intent is a
//! no-op on the server (same `resourceVersion`), and every object is reported
//! [`Action::Unchanged`].
//!
//! Upstream behaviour followed: server-side apply (`k8s.io/apiserver` field manager,
//! `sigs.k8s.io/structured-merge-diff`: conflicts, `force`, removal of fields the applier no
//! longer sets), `dryRun=All`, list pagination (`limit` + `continue`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use cube_model::{Quantity, ResourceList};
use cube_quota::plan::{GROUP_LABEL, Manifest};
use serde::Serialize;
use serde_json::Value;

use crate::api::{ApplyParams, FIELD_MANAGER, ObjectApplier, ObjectRef, ResourceType};
use crate::ssa::{
    FieldPath, FieldSet, applied_fields, managed_entries, semantically_equal, value_at,
};

/// The objects of one cluster's plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanObjects {
    /// Groups the objects come from (orphans are looked for by their label).
    pub groups: Vec<String>,
    /// The objects as JSON (`apiVersion`, `kind`, metadata, spec).
    pub objects: Vec<Value>,
}

impl PlanObjects {
    /// The objects of a plan's manifests.
    ///
    /// # Errors
    /// [`ApplyError::Invalid`] when a manifest cannot be serialized or addressed.
    pub fn from_manifests(groups: &[String], manifests: &[Manifest]) -> Result<Self, ApplyError> {
        let mut objects = Vec::new();
        for m in manifests {
            let v = serde_json::to_value(m).map_err(|e| ApplyError::Invalid {
                object: m.id(),
                message: e.to_string(),
            })?;
            ObjectRef::of(&v).map_err(|e| ApplyError::Invalid {
                object: m.id(),
                message: e.to_string(),
            })?;
            objects.push(v);
        }
        Ok(PlanObjects {
            groups: groups.to_vec(),
            objects,
        })
    }
}

/// Options of [`apply_plan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyOptions {
    /// Field manager (default [`FIELD_MANAGER`]).
    pub field_manager: String,
    /// `force=true`: take over fields other managers own (kubectl `--force-conflicts`).
    pub force_conflicts: bool,
    /// Delete orphans (never Namespaces).
    pub prune: bool,
    /// Stop after the dry run (drift and the server's verdict; nothing written).
    pub dry_run_only: bool,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            field_manager: FIELD_MANAGER.to_owned(),
            force_conflicts: false,
            prune: false,
            dry_run_only: false,
        }
    }
}

/// Why apply could not run at all (the cluster's refusals of objects are [`Rejection`]s).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApplyError {
    /// A planned object cannot be serialized or addressed.
    #[error("{object}: {message}")]
    Invalid {
        /// The object.
        object: String,
        /// What is wrong.
        message: String,
    },
    /// Reading the cluster failed (transport, 401, or an unexpected status).
    #[error("reading {what} failed")]
    Read {
        /// What was read.
        what: String,
        /// The client error.
        #[source]
        source: kube::Error,
    },
}

/// How one field differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum FieldChange {
    /// The plan sets a field the object lacks.
    Added,
    /// The object holds another value.
    Changed,
    /// This manager applied the field before; the plan no longer sets it.
    Removed,
}

/// One field's drift.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct FieldDiff {
    /// `.spec.hard.requests.cpu`.
    pub path: String,
    /// Added, changed or removed.
    pub change: FieldChange,
    /// Value on the cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<Value>,
    /// Value in the plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned: Option<Value>,
    /// Other managers owning the field (`"kubectl-edit" using v1 at ...`): a changed field
    /// conflicts on apply unless forced; a removed field stays.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub owners: Vec<String>,
}

impl fmt::Display for FieldDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<Value>| match v {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => "<none>".to_owned(),
        };
        match self.change {
            FieldChange::Added => write!(f, "+ {}: {}", self.path, show(&self.planned))?,
            FieldChange::Changed => write!(
                f,
                "~ {}: {} -> {}",
                self.path,
                show(&self.live),
                show(&self.planned)
            )?,
            FieldChange::Removed => write!(f, "- {}: {}", self.path, show(&self.live))?,
        }
        if !self.owners.is_empty() {
            match self.change {
                FieldChange::Removed => {
                    write!(f, " (kept: also owned by {})", self.owners.join(", "))?
                }
                _ => write!(
                    f,
                    " (owned by {}: the apply conflicts unless forced)",
                    self.owners.join(", ")
                )?,
            }
        }
        Ok(())
    }
}

/// The state of one object against the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum DriftState {
    /// Not on the cluster: the apply creates it.
    Missing,
    /// Every planned field holds the planned value.
    InSync,
    /// Some field differs.
    Drifted,
    /// On the cluster, applied by this manager for the group, no longer planned.
    Orphaned,
}

/// One object's drift.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ObjectDrift {
    /// `Kind/namespace/name`.
    pub object: String,
    /// State.
    pub state: DriftState,
    /// The fields that differ (all planned fields for a missing object).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldDiff>,
}

impl fmt::Display for ObjectDrift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = match self.state {
            DriftState::Missing => "missing: created by apply",
            DriftState::InSync => "in sync",
            DriftState::Drifted => "drifted",
            DriftState::Orphaned if self.object.starts_with("Namespace/") => {
                "no longer planned: kept (namespaces are never deleted)"
            }
            DriftState::Orphaned => "no longer planned: deleted only with prune",
        };
        write!(f, "{}: {state}", self.object)?;
        if self.state != DriftState::Missing {
            for d in &self.fields {
                write!(f, "\n  {d}")?;
            }
        }
        Ok(())
    }
}

/// The server's refusal of one object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Rejection {
    /// `Kind/namespace/name`.
    pub object: String,
    /// In the dry run (`true`) or the real request.
    pub dry_run: bool,
    /// HTTP code (409, 422, 400, 403, ...), `0` for a transport failure.
    pub code: u16,
    /// `Conflict`, `Invalid`, `Forbidden`, ...
    pub reason: String,
    /// The server's message.
    pub message: String,
    /// Causes (`field: message`), e.g. one per conflicting field.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<String>,
    /// What the refusal means and how to get past it, when the message is one we know (RBAC
    /// escalation prevention, see [`ESCALATION_HINT`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// The API server's RBAC escalation refusal, as printed by kubernetes/kubernetes
/// `pkg/registry/rbac/validation/rule.go` (`ConfirmNoEscalation`: `user %q (groups=%q) is
/// attempting to grant RBAC permissions not currently held:\n%s`), for a Role or RoleBinding.
pub const ESCALATION_REFUSAL: &str = "is attempting to grant RBAC permissions not currently held";

/// The explanation attached to an [`ESCALATION_REFUSAL`] (RBAC escalation prevention:
/// kubernetes/kubernetes `pkg/registry/rbac/role/policybased/storage.go` and
/// `pkg/registry/rbac/rolebinding/policybased/storage.go`, with `escalation_check.go`
/// `EscalationAllowed`, `RoleEscalationAuthorized`, `BindingAuthorized`).
pub const ESCALATION_HINT: &str = "RBAC escalation prevention: the API server lets you create or update a Role only if you already hold every permission it grants (in that namespace) or may `escalate` roles, and a RoleBinding only if you hold the bound role's permissions or may `bind` that role (system:masters is exempt). The group's member Roles grant what they list above; give the account applying the plan `escalate` and `bind` on roles.rbac.authorization.k8s.io in the group's namespaces (the resource-group-admin profile asks for both), or those permissions themselves";

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} {} ({}): {}",
            self.object,
            if self.dry_run {
                "dry run refused"
            } else {
                "refused"
            },
            self.code,
            self.reason,
            self.message
        )
    }
}

fn rejection(object: &str, dry_run: bool, e: &kube::Error) -> Rejection {
    match e {
        kube::Error::Api(s) => Rejection {
            object: object.to_owned(),
            dry_run,
            code: s.code,
            reason: s.reason.clone(),
            message: cube_model::redact::redact(&s.message).into_owned(),
            causes: s
                .details
                .as_ref()
                .map(|d| {
                    d.causes
                        .iter()
                        .map(|c| {
                            if c.field.is_empty() {
                                c.message.clone()
                            } else {
                                format!("{}: {}", c.field, c.message)
                            }
                        })
                        .collect()
                })
                .unwrap_or_default(),
            hint: s
                .message
                .contains(ESCALATION_REFUSAL)
                .then(|| ESCALATION_HINT.to_owned()),
        },
        other => Rejection {
            object: object.to_owned(),
            dry_run,
            code: 0,
            reason: crate::classify::classify_error(other).id().to_owned(),
            message: crate::classify::error_chain_text(other),
            causes: Vec::new(),
            hint: None,
        },
    }
}

/// What apply did to one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Action {
    /// Created.
    Created,
    /// Changed (a new `resourceVersion`).
    Configured,
    /// Nothing changed on the server (same `resourceVersion`).
    Unchanged,
    /// A quota's first step: keys lowered to the minimum of old and new.
    Lowered,
    /// Deleted (prune).
    Deleted,
}

/// One write, in the order it happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ActionRecord {
    /// `Kind/namespace/name`.
    pub object: String,
    /// What happened.
    pub action: Action,
    /// `resourceVersion` after the write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
}

/// One quota as read back after the apply.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct QuotaUsage {
    /// Group.
    pub group: String,
    /// Namespace; `None` for the group's total over its namespaces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Quota name.
    pub quota: String,
    /// `spec.hard`.
    pub hard: ResourceList,
    /// `status.used`; `None` until the quota controller has computed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used: Option<ResourceList>,
}

/// How the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum ApplyOutcome {
    /// Dry run only; the server accepted everything.
    DryRunPassed,
    /// The dry run found rejections; nothing was written.
    DryRunRejected,
    /// Everything applied.
    Applied,
    /// A real request failed; what came before it was applied.
    Failed,
}

/// The result of [`apply_plan`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ApplyReport {
    /// How it ended.
    pub outcome: ApplyOutcome,
    /// Drift before the apply, one entry per planned object, then the orphans.
    pub drift: Vec<ObjectDrift>,
    /// The server's refusals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rejections: Vec<Rejection>,
    /// Objects whose dry run waited for their namespace to exist.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deferred: Vec<String>,
    /// Writes in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<ActionRecord>,
    /// Things to know (orphans not pruned, quotas left below usage, prune not possible).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The group's quotas read back after the apply.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub usage: Vec<QuotaUsage>,
}

impl ApplyReport {
    /// True when nothing had to change (every planned object in sync, no orphan).
    pub fn in_sync(&self) -> bool {
        self.drift.iter().all(|d| d.state == DriftState::InSync)
    }
}

// ------------------------------------------------------------------ drift

fn owners_of(live: &Value, path: &FieldPath, manager: &str) -> Vec<String> {
    managed_entries(live)
        .into_iter()
        .filter(|e| !(e.manager == manager && e.operation == "Apply"))
        .filter(|e| e.subresource.is_empty() && e.fields.contains(path))
        .map(|e| e.conflict_name())
        .collect()
}

/// The drift of one planned object against what the cluster holds (`None`: absent).
pub fn object_drift(desired: &Value, live: Option<&Value>, manager: &str) -> ObjectDrift {
    let object = ObjectRef::of(desired)
        .map(|r| r.to_string())
        .unwrap_or_else(|e| e.to_string());
    let planned = FieldSet::of_config(desired);
    let Some(live) = live else {
        return ObjectDrift {
            object,
            state: DriftState::Missing,
            fields: planned
                .iter()
                .map(|p| FieldDiff {
                    path: p.to_string(),
                    change: FieldChange::Added,
                    live: None,
                    planned: value_at(desired, p).cloned(),
                    owners: Vec::new(),
                })
                .collect(),
        };
    };
    let mut fields = Vec::new();
    for p in planned.iter() {
        let want = value_at(desired, p);
        match value_at(live, p) {
            None => fields.push(FieldDiff {
                path: p.to_string(),
                change: FieldChange::Added,
                live: None,
                planned: want.cloned(),
                owners: Vec::new(),
            }),
            Some(have) if want.is_some_and(|w| !semantically_equal(&p.0, have, w)) => {
                fields.push(FieldDiff {
                    path: p.to_string(),
                    change: FieldChange::Changed,
                    live: Some(have.clone()),
                    planned: want.cloned(),
                    owners: owners_of(live, p, manager),
                })
            }
            Some(_) => {}
        }
    }
    for p in applied_fields(live, manager).iter() {
        if planned.contains(p) {
            continue;
        }
        if let Some(have) = value_at(live, p) {
            fields.push(FieldDiff {
                path: p.to_string(),
                change: FieldChange::Removed,
                live: Some(have.clone()),
                planned: None,
                owners: owners_of(live, p, manager),
            });
        }
    }
    ObjectDrift {
        object,
        state: if fields.is_empty() {
            DriftState::InSync
        } else {
            DriftState::Drifted
        },
        fields,
    }
}

/// Kinds a group plan writes, in the order orphans are reported.
const PLAN_KINDS: &[&str] = &[
    "Namespace",
    "PriorityClass",
    "LimitRange",
    "ResourceQuota",
    "Role",
    "RoleBinding",
];

struct Live {
    /// Per planned object, what the cluster holds.
    objects: Vec<(ObjectRef, Value, Option<Value>)>,
    /// Orphans: (reference, object).
    orphans: Vec<(ObjectRef, Value)>,
    warnings: Vec<String>,
}

async fn read_live<A: ObjectApplier + ?Sized>(
    api: &A,
    plan: &PlanObjects,
    manager: &str,
) -> Result<Live, ApplyError> {
    let mut objects = Vec::new();
    for o in &plan.objects {
        let r = ObjectRef::of(o).map_err(|e| ApplyError::Invalid {
            object: o["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            message: e.to_string(),
        })?;
        let live = api
            .get_object(&r)
            .await
            .map_err(|source| ApplyError::Read {
                what: r.to_string(),
                source,
            })?;
        objects.push((r, o.clone(), live));
    }
    let planned: BTreeSet<ObjectRef> = objects.iter().map(|(r, _, _)| r.clone()).collect();
    let mut orphans = Vec::new();
    let mut warnings = Vec::new();
    for g in &plan.groups {
        let selector = format!("{GROUP_LABEL}={g}");
        for kind in PLAN_KINDS {
            let Some(rt) = ResourceType::of_kind(kind) else {
                continue;
            };
            match api.list_objects(&rt, None, &selector).await {
                Ok(items) => {
                    for it in items {
                        let Ok(r) = ObjectRef::of(&it) else {
                            continue;
                        };
                        if planned.contains(&r) {
                            continue;
                        }
                        if applied_fields(&it, manager).is_empty()
                            && !managed_entries(&it)
                                .iter()
                                .any(|e| e.manager == manager && e.operation == "Apply")
                        {
                            warnings.push(format!(
                                "{r} carries {selector} but was not applied by field manager {manager:?}: never pruned"
                            ));
                            continue;
                        }
                        orphans.push((r, it));
                    }
                }
                Err(kube::Error::Api(s)) => warnings.push(format!(
                    "cannot look for {kind} objects left over by group {g}: {} ({}): {}",
                    s.reason, s.code, s.message
                )),
                Err(source) => {
                    return Err(ApplyError::Read {
                        what: format!("{kind} objects labelled {selector}"),
                        source,
                    });
                }
            }
        }
    }
    Ok(Live {
        objects,
        orphans,
        warnings,
    })
}

fn orphan_drift(r: &ObjectRef, live: &Value, manager: &str) -> ObjectDrift {
    ObjectDrift {
        object: r.to_string(),
        state: DriftState::Orphaned,
        fields: applied_fields(live, manager)
            .iter()
            .filter_map(|p| {
                value_at(live, p).map(|v| FieldDiff {
                    path: p.to_string(),
                    change: FieldChange::Removed,
                    live: Some(v.clone()),
                    planned: None,
                    owners: Vec::new(),
                })
            })
            .collect(),
    }
}

/// The drift of a plan against the cluster: one entry per planned object (in plan order), then
/// the orphans (see the module docs).
///
/// # Errors
/// [`ApplyError::Read`] when an object cannot be read (403 on a list only becomes a warning of
/// [`apply_plan`]; here it is left out).
pub async fn diff_plan<A: ObjectApplier + ?Sized>(
    api: &A,
    plan: &PlanObjects,
    manager: &str,
) -> Result<Vec<ObjectDrift>, ApplyError> {
    let live = read_live(api, plan, manager).await?;
    Ok(drifts(&live, manager))
}

fn drifts(live: &Live, manager: &str) -> Vec<ObjectDrift> {
    let mut out: Vec<ObjectDrift> = live
        .objects
        .iter()
        .map(|(_, want, have)| object_drift(want, have.as_ref(), manager))
        .collect();
    out.extend(
        live.orphans
            .iter()
            .map(|(r, v)| orphan_drift(r, v, manager)),
    );
    out
}

// ------------------------------------------------------------------ order

/// Apply phase of a kind (quotas are split further by direction).
fn phase(kind: &str) -> u8 {
    match kind {
        "Namespace" => 0,
        "PriorityClass" => 1,
        "LimitRange" => 2,
        "ResourceQuota" => 3,
        "Role" => 5,
        "RoleBinding" => 6,
        _ => 7,
    }
}

fn resource_list(v: &Value) -> ResourceList {
    let mut out = ResourceList::new();
    if let Some(m) = v.as_object() {
        for (k, q) in m {
            if let Some(q) = q.as_str().and_then(|s| Quantity::parse(s).ok()) {
                out.insert(cube_model::ResourceName::new(k.as_str()), q);
            }
        }
    }
    out
}

/// A quota's steps: `(intermediate hard if some key goes down, needs a final raise step)`.
/// The intermediate keeps keys the plan drops (dropping a key is a raise, to unlimited) and
/// takes the per-key minimum of old and new.
fn quota_steps(desired: &Value, live: Option<&Value>) -> (Option<Value>, bool) {
    let Some(live) = live else {
        return (None, false);
    };
    let new = resource_list(&desired["spec"]["hard"]);
    let old = resource_list(&live["spec"]["hard"]);
    let mut inter = serde_json::Map::new();
    let mut lower = false;
    let mut raise = false;
    for (k, n) in &new {
        match old.get(k.as_str()) {
            Some(o) if o <= n => {
                raise |= o < n;
                inter.insert(k.to_string(), Value::from(o.to_string()));
            }
            _ => {
                lower = true;
                inter.insert(k.to_string(), Value::from(n.to_string()));
            }
        }
    }
    for (k, o) in &old {
        if !new.contains(k.as_str()) {
            raise = true;
            inter.insert(k.to_string(), Value::from(o.to_string()));
        }
    }
    if !lower {
        return (None, raise);
    }
    let mut step = desired.clone();
    step["spec"]["hard"] = Value::Object(inter);
    (Some(step), raise)
}

// ------------------------------------------------------------------ apply

fn namespace_missing(e: &kube::Error, ns: &str) -> bool {
    matches!(e, kube::Error::Api(s) if s.code == 404
        && s.details.as_ref().is_some_and(|d| d.kind == "namespaces" && d.name == ns))
        || matches!(e, kube::Error::Api(s) if s.code == 404 && s.message == format!("namespaces {ns:?} not found"))
}

/// Applies `plan` to the cluster behind `api` (see the module docs).
///
/// # Errors
/// [`ApplyError`] when the plan cannot be sent or the cluster cannot be read at all; the
/// server's refusals of objects are in the report ([`ApplyReport::rejections`]).
pub async fn apply_plan<A: ObjectApplier + ?Sized>(
    api: &A,
    plan: &PlanObjects,
    options: &ApplyOptions,
) -> Result<ApplyReport, ApplyError> {
    let manager = options.field_manager.as_str();
    let live = read_live(api, plan, manager).await?;
    let drift = drifts(&live, manager);
    let mut report = ApplyReport {
        outcome: ApplyOutcome::DryRunPassed,
        drift,
        rejections: Vec::new(),
        deferred: Vec::new(),
        actions: Vec::new(),
        warnings: live.warnings.clone(),
        usage: Vec::new(),
    };
    let params = ApplyParams {
        field_manager: manager.to_owned(),
        force: options.force_conflicts,
        dry_run: false,
    };
    let dry = params.clone().dry_run();

    // Objects in apply order (stable within a phase: plan order).
    let mut order: Vec<usize> = (0..live.objects.len()).collect();
    order.sort_by_key(|&i| phase(&live.objects[i].0.resource.kind));
    let created_namespaces: BTreeSet<String> = live
        .objects
        .iter()
        .filter(|(r, _, have)| r.resource.kind == "Namespace" && have.is_none())
        .map(|(r, _, _)| r.name.clone())
        .collect();

    // 1. Dry run of everything.
    let mut deferred: BTreeSet<usize> = BTreeSet::new();
    for &i in &order {
        let (r, want, _) = &live.objects[i];
        if let Err(e) = api.apply_object(want, &dry).await {
            if let Some(ns) = &r.namespace
                && created_namespaces.contains(ns)
                && namespace_missing(&e, ns)
            {
                deferred.insert(i);
                report.deferred.push(r.to_string());
                continue;
            }
            report.rejections.push(rejection(&r.to_string(), true, &e));
        }
    }
    let prunable: Vec<&(ObjectRef, Value)> = live
        .orphans
        .iter()
        .filter(|(r, _)| r.resource.kind != "Namespace")
        .collect();
    for (r, _) in live
        .orphans
        .iter()
        .filter(|(r, _)| r.resource.kind == "Namespace")
    {
        report.warnings.push(format!(
            "{r} is no longer planned: kept (namespaces are never deleted)"
        ));
    }
    if options.prune {
        for (r, _) in &prunable {
            if let Err(e) = api.delete_object(r, true).await {
                report.rejections.push(rejection(&r.to_string(), true, &e));
            }
        }
    } else {
        for (r, _) in &prunable {
            report
                .warnings
                .push(format!("{r} is no longer planned: kept (prune deletes it)"));
        }
    }
    if !report.rejections.is_empty() {
        report.outcome = ApplyOutcome::DryRunRejected;
        return Ok(report);
    }
    if options.dry_run_only {
        return Ok(report);
    }

    // 2. Apply in order: quotas lowered or created before the raised ones.
    let mut steps: Vec<(usize, Option<Value>)> = Vec::new(); // (object, intermediate)
    let mut raises: Vec<usize> = Vec::new();
    for &i in &order {
        let (r, want, have) = &live.objects[i];
        if r.resource.kind != "ResourceQuota" {
            continue;
        }
        let (inter, raise) = quota_steps(want, have.as_ref());
        match (inter, raise) {
            (Some(v), true) => {
                steps.push((i, Some(v)));
                raises.push(i);
            }
            (Some(_), false) | (None, false) => steps.push((i, None)),
            (None, true) => raises.push(i),
        }
    }
    let mut sequence: Vec<(usize, Option<Value>)> = Vec::new();
    for &i in &order {
        if phase(&live.objects[i].0.resource.kind) < 3 {
            sequence.push((i, None));
        }
    }
    sequence.extend(steps);
    sequence.extend(raises.into_iter().map(|i| (i, None)));
    for &i in &order {
        if phase(&live.objects[i].0.resource.kind) > 3 {
            sequence.push((i, None));
        }
    }
    let mut done_dry: BTreeSet<usize> = BTreeSet::new();
    for (i, inter) in sequence {
        let (r, want, have) = &live.objects[i];
        if deferred.contains(&i) && done_dry.insert(i) {
            // Its namespace exists now: let the server judge it before writing.
            if let Err(e) = api.apply_object(want, &dry).await {
                report.rejections.push(rejection(&r.to_string(), true, &e));
                report.outcome = ApplyOutcome::Failed;
                return Ok(report);
            }
        }
        let body = inter.as_ref().unwrap_or(want);
        match api.apply_object(body, &params).await {
            Ok(stored) => {
                let rv = stored["metadata"]["resourceVersion"]
                    .as_str()
                    .map(str::to_owned);
                let before = report
                    .actions
                    .iter()
                    .rev()
                    .find(|a| a.object == r.to_string())
                    .and_then(|a| a.resource_version.clone())
                    .or_else(|| {
                        have.as_ref().and_then(|h| {
                            h["metadata"]["resourceVersion"].as_str().map(str::to_owned)
                        })
                    });
                let action = if inter.is_some() {
                    Action::Lowered
                } else if have.is_none()
                    && !report.actions.iter().any(|a| a.object == r.to_string())
                {
                    Action::Created
                } else if before.is_some() && before == rv {
                    Action::Unchanged
                } else {
                    Action::Configured
                };
                report.actions.push(ActionRecord {
                    object: r.to_string(),
                    action,
                    resource_version: rv,
                });
            }
            Err(e) => {
                report.rejections.push(rejection(&r.to_string(), false, &e));
                report.outcome = ApplyOutcome::Failed;
                return Ok(report);
            }
        }
    }

    // 3. Prune (never namespaces), bindings before roles before quotas.
    if options.prune {
        let mut victims = prunable;
        victims.sort_by_key(|(r, _)| std::cmp::Reverse(phase(&r.resource.kind)));
        for (r, _) in victims {
            match api.delete_object(r, false).await {
                Ok(_) => report.actions.push(ActionRecord {
                    object: r.to_string(),
                    action: Action::Deleted,
                    resource_version: None,
                }),
                Err(e) => {
                    report.rejections.push(rejection(&r.to_string(), false, &e));
                    report.outcome = ApplyOutcome::Failed;
                    return Ok(report);
                }
            }
        }
    }
    report.outcome = ApplyOutcome::Applied;

    // 4. Read back.
    match read_usage(api, plan).await {
        Ok(u) => report.usage = u,
        Err(e) => report.warnings.push(format!(
            "quota usage not read back: {}",
            crate::classify::error_chain_text(&e)
        )),
    }
    for u in report.usage.iter().filter(|u| u.namespace.is_some()) {
        let Some(used) = &u.used else { continue };
        for (k, h) in &u.hard {
            if let Some(x) = used.get(k.as_str())
                && x > h
            {
                report.warnings.push(format!(
                    "{}/{}: {k} used {x} is above the new hard {h}: nothing is evicted, new pods are refused until usage drops",
                    u.namespace.as_deref().unwrap_or_default(),
                    u.quota
                ));
            }
        }
    }
    Ok(report)
}

/// The group's quotas as the cluster reports them: for each group and each namespace of the
/// plan, the ResourceQuotas labelled with the group (`spec.hard`, `status.used`), then per
/// group and quota name the total over its namespaces (`used` only when every namespace
/// reports it).
///
/// # Errors
/// [`ApplyError::Read`] when a list fails.
pub async fn read_usage<A: ObjectApplier + ?Sized>(
    api: &A,
    plan: &PlanObjects,
) -> Result<Vec<QuotaUsage>, ApplyError> {
    let namespaces: Vec<String> = plan
        .objects
        .iter()
        .filter(|o| o["kind"] == "Namespace")
        .filter_map(|o| o["metadata"]["name"].as_str().map(str::to_owned))
        .collect();
    let Some(rq) = ResourceType::of_kind("ResourceQuota") else {
        return Ok(Vec::new());
    };
    let mut rows = Vec::new();
    for g in &plan.groups {
        let selector = format!("{GROUP_LABEL}={g}");
        let mut totals: BTreeMap<String, (ResourceList, Option<ResourceList>)> = BTreeMap::new();
        for ns in &namespaces {
            let items = api
                .list_objects(&rq, Some(ns), &selector)
                .await
                .map_err(|source| ApplyError::Read {
                    what: format!("ResourceQuotas in {ns}"),
                    source,
                })?;
            for it in items {
                let name = it["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                let hard = resource_list(&it["spec"]["hard"]);
                let used = it["status"]
                    .get("used")
                    .filter(|u| u.is_object())
                    .map(resource_list);
                let t = totals
                    .entry(name.clone())
                    .or_insert_with(|| (ResourceList::new(), Some(ResourceList::new())));
                // Exact sums; an overflow is not reachable for real quotas.
                let _ = t.0.add_assign(&hard);
                t.1 = match (t.1.take(), &used) {
                    (Some(mut acc), Some(u)) => acc.add_assign(u).ok().map(|()| acc),
                    _ => None,
                };
                rows.push(QuotaUsage {
                    group: g.clone(),
                    namespace: Some(ns.clone()),
                    quota: name,
                    hard,
                    used,
                });
            }
        }
        for (quota, (hard, used)) in totals {
            rows.push(QuotaUsage {
                group: g.clone(),
                namespace: None,
                quota,
                hard,
                used,
            });
        }
    }
    Ok(rows)
}
