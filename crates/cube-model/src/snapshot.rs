//! `ClusterSnapshot`: the typed contents of any number of `kubectl get ... -o json|yaml` files.
//!
//! CONTRACT: the struct below is what quota, diagnose and cluster build on; the loader is issue 2
//! item 8.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::objects::*;

/// Everything read from a cluster or a dump of it.
///
/// Vectors keep input order. `problems` holds every object that could not be read (with file,
/// document index and field path); `unknown_kinds` counts the kinds that were skipped;
/// `missing_kinds` names the kinds a live collection could not read (for example Forbidden).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClusterSnapshot {
    /// Nodes.
    pub nodes: Vec<Node>,
    /// Pods.
    pub pods: Vec<Pod>,
    /// Namespaces.
    pub namespaces: Vec<Namespace>,
    /// ResourceQuotas.
    pub resource_quotas: Vec<ResourceQuota>,
    /// LimitRanges.
    pub limit_ranges: Vec<LimitRange>,
    /// PriorityClasses.
    pub priority_classes: Vec<PriorityClass>,
    /// DaemonSets.
    pub daemon_sets: Vec<DaemonSet>,
    /// Events (core/v1 and events.k8s.io/v1).
    pub events: Vec<Event>,
    /// StorageClasses.
    pub storage_classes: Vec<StorageClass>,
    /// PersistentVolumes.
    pub persistent_volumes: Vec<PersistentVolume>,
    /// PersistentVolumeClaims.
    pub persistent_volume_claims: Vec<PersistentVolumeClaim>,
    /// Roles and ClusterRoles.
    pub roles: Vec<Role>,
    /// RoleBindings and ClusterRoleBindings.
    pub role_bindings: Vec<RoleBinding>,
    /// PodDisruptionBudgets.
    pub pod_disruption_budgets: Vec<PodDisruptionBudget>,
    /// Bootstrap tokens (from `bootstrap.kubernetes.io/token` Secrets; secret part dropped).
    pub bootstrap_tokens: Vec<BootstrapToken>,
    /// Kinds seen but not kept, with their counts (`Deployment: 3`).
    pub unknown_kinds: BTreeMap<String, usize>,
    /// Kinds that could not be collected (live collection), with the reason.
    pub missing_kinds: BTreeMap<String, String>,
    /// Objects that could not be read; the rest of the input still loaded.
    pub problems: Vec<LoadProblem>,
}

/// One object (or document) of the input that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LoadProblem {
    /// File (or source label) it came from.
    pub file: String,
    /// Index of the YAML document (0-based; 0 for JSON).
    pub document: usize,
    /// Index of the item inside a `List`, if it was in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<usize>,
    /// `kind/namespace/name` when known.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub object: String,
    /// Field path inside the object (`spec.containers[0].resources.requests.cpu`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
    /// What is wrong.
    pub message: String,
}
