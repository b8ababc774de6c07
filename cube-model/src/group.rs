//! `ResourceGroup`: what a team gets on a shared pool (members, quota buckets, namespaces with
//! their shares, placement on a node pool and target clusters, priority, container defaults and
//! the GPU resource names it may use), with a `validate()` that reports every problem at once.
//!
//! The group is the input of `cube-quota`'s planning (which writes the Namespaces,
//! ResourceQuotas, LimitRange, PriorityClass, Roles and RoleBindings); this module only holds and
//! checks it. See `cube-model/examples-data/resource-groups.yaml` for a documented example.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::node::NodeInfo;
use crate::objects::{Labels, NodeSelector, ScopeSelector, Toleration};
use crate::selector::{
    node_selector_map_matches, parse_selector, validate_dns1123_label, validate_dns1123_subdomain,
    validate_label_value, validate_qualified_name,
};
use crate::snapshot::ClusterSnapshot;
use crate::{Quantity, ResourceList, ResourceName};

/// Roles a member may have, from most to least privileged.
pub const MEMBER_ROLES: &[&str] = &["admin", "developer", "viewer"];

/// Highest priority value a user-defined PriorityClass may have (upstream
/// `scheduling.HighestUserDefinablePriority`).
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;

/// A member of a group.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Member {
    /// User, group or service-account name as the API server authenticates it.
    pub name: String,
    /// `User` (default when empty), `Group` or `ServiceAccount` (as RBAC subjects).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// `admin`, `developer` or `viewer` (see [`MEMBER_ROLES`]).
    pub role: String,
}

/// One group-wide quota bucket: a `hard` list, optionally limited to pods matching a scope
/// (for example a PriorityClass), as one ResourceQuota per namespace.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct QuotaBucket {
    /// Bucket name (DNS-1123 label; used in the ResourceQuota names).
    pub name: String,
    /// Scopes (`Terminating`, `NotTerminating`, `BestEffort`, `NotBestEffort`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Scope selector (`PriorityClass In [high]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope_selector: Option<ScopeSelector>,
    /// Group-wide hard limits (`requests.cpu`, `requests.nvidia.com/gpu`, `pods`, ...).
    pub hard: ResourceList,
}

/// A namespace of the group and its fixed share of every bucket.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupNamespace {
    /// Namespace name (DNS-1123 label).
    pub name: String,
    /// Share of every bucket in percent (0..=100); applies to buckets not listed in `buckets`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub share_percent: Option<u32>,
    /// Explicit amounts per bucket name (override `sharePercent` for that bucket).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub buckets: BTreeMap<String, ResourceList>,
}

/// Where the group's pods run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Placement {
    /// `nodeSelector` given to the group's pods (`org: team-a`, `gpu: "true"`).
    #[serde(skip_serializing_if = "Labels::is_empty")]
    pub node_selector: Labels,
    /// Required node affinity (ANDed with `nodeSelector`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<NodeSelector>,
    /// Tolerations for node taints and cluster taints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
    /// A cluster named explicitly (CubeStudio `cluster`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
    /// Target-cluster selector string (`env=prod,location in (beijing)`); `None` = the
    /// default cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_selector: Option<String>,
    /// CubeStudio `volume_mount` string (`kubeflow-user-workspace(pvc):/mnt`), kept as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume_mount: Option<String>,
}

impl Placement {
    /// True when a node with these labels and this name is in the group's pool (`nodeSelector`
    /// AND required affinity, as the scheduler's NodeAffinity filter).
    pub fn selects_node(&self, labels: &Labels, node_name: &str) -> bool {
        node_selector_map_matches(&self.node_selector, labels)
            && self
                .node_affinity
                .as_ref()
                .is_none_or(|a| a.matches_labels_and_name(labels, node_name))
    }
}

/// The group's PriorityClass.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupPriority {
    /// PriorityClass name (DNS-1123 subdomain, not `system-` prefixed).
    pub class_name: String,
    /// Its value (at most 1,000,000,000 for user classes).
    pub value: i64,
    /// `PreemptLowerPriority` (default) or `Never`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preemption_policy: Option<String>,
}

/// Default container requests and limits (a LimitRange `Container` item).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ContainerDefaults {
    /// `defaultRequest`.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub default_request: ResourceList,
    /// `default` (the default limit).
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub default_limit: ResourceList,
}

/// A team's share of the pool.
///
/// Unknown keys are refused when read (here and in every nested part): a misspelt key
/// (`sharePercnt`, `nodeSelecter`) read as absent planned a group without the share or the
/// placement it asked for, silently (fresh-user F15). The error names the key.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceGroup {
    /// Group name (DNS-1123 label).
    pub name: String,
    /// Owner (a user name).
    pub owner: String,
    /// Members with roles.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
    /// Quota buckets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quota: Vec<QuotaBucket>,
    /// Namespaces with their shares.
    pub namespaces: Vec<GroupNamespace>,
    /// Placement on nodes and clusters.
    pub placement: Placement,
    /// PriorityClass, if the group has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<GroupPriority>,
    /// Container defaults for the LimitRange, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container_defaults: Option<ContainerDefaults>,
    /// GPU resource names the group may use (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gpu_resources: Vec<ResourceName>,
}

/// What kind of problem [`ResourceGroup::validate`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum GroupProblemKind {
    /// A required field is empty.
    Missing,
    /// A name is not a DNS-1123 label/subdomain.
    InvalidName,
    /// A label key or value is not valid.
    InvalidLabel,
    /// A resource name is not valid where it is used.
    InvalidResourceName,
    /// A value is out of range or not one of the allowed ones.
    InvalidValue,
    /// A selector (cluster selector, node affinity, scope selector) is not valid.
    InvalidSelector,
    /// A name appears twice.
    Duplicate,
    /// A reference to a bucket or resource that does not exist.
    UnknownReference,
    /// Namespace shares add up to more than the bucket.
    ShareExceedsBucket,
    /// A quota key the API accepts but never tracks (`nvidia.com/gpu`, `limits.nvidia.com/gpu`).
    QuotaNotEnforced,
    /// A GPU resource name that no node of the selected pool advertises (needs a snapshot).
    GpuNotAdvertised,
    /// The PriorityClass in the snapshot has another value or policy (needs a snapshot).
    PriorityMismatch,
}

/// One problem of a resource group, with the field path it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GroupProblem {
    /// Field path (`quota[0].hard[nvidia.com/gpu]`, `namespaces[1].name`).
    pub path: String,
    /// Kind.
    pub kind: GroupProblemKind,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for GroupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

const QUOTA_SCOPES: &[&str] = &[
    "Terminating",
    "NotTerminating",
    "BestEffort",
    "NotBestEffort",
    "PriorityClass",
    "CrossNamespacePodAffinity",
];
const POD_COMPUTE_NAMES: &[&str] = &[
    "pods",
    "cpu",
    "memory",
    "requests.cpu",
    "requests.memory",
    "limits.cpu",
    "limits.memory",
];

#[derive(Default)]
struct Problems(Vec<GroupProblem>);

impl Problems {
    fn push(
        &mut self,
        path: impl Into<String>,
        kind: GroupProblemKind,
        message: impl Into<String>,
    ) {
        self.0.push(GroupProblem {
            path: path.into(),
            kind,
            message: message.into(),
        });
    }
    fn all(&mut self, path: &str, kind: GroupProblemKind, errs: Vec<String>) {
        for e in errs {
            self.push(path, kind, e);
        }
    }
}

/// `value * percent / 100` in millis (i128, exact enough for comparisons at milli precision).
fn millis(q: &Quantity) -> i128 {
    i128::from(q.milli_value())
}

impl ResourceGroup {
    /// Reads a group from YAML.
    ///
    /// # Errors
    /// [`crate::Error::Convert`] with the field path of the first problem.
    pub fn from_yaml(text: &str) -> Result<ResourceGroup, crate::Error> {
        crate::yaml::from_str(
            text,
            &crate::Limits::default(),
            serde_saphyr::Options::default(),
        )
        .map_err(|e| crate::Error::Convert {
            kind: "ResourceGroup",
            field: String::new(),
            message: e.to_string(),
        })
    }

    /// Reads a group from JSON.
    ///
    /// # Errors
    /// [`crate::Error::Convert`] with the field path of the first problem.
    pub fn from_json(text: &str) -> Result<ResourceGroup, crate::Error> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| crate::Error::Convert {
            kind: "ResourceGroup",
            field: e.path().to_string(),
            message: e.inner().to_string(),
        })
    }

    /// The nodes of a snapshot that the group's placement selects.
    pub fn pool_nodes(&self, snapshot: &ClusterSnapshot) -> Vec<NodeInfo> {
        snapshot
            .nodes
            .iter()
            .filter(|n| {
                self.placement
                    .selects_node(&n.metadata.labels, &n.metadata.name)
            })
            .map(NodeInfo::from_node)
            .collect()
    }

    /// Checks the group and reports every problem at once, each with its field path:
    /// - names: group, buckets and namespaces are DNS-1123 labels; PriorityClass name a DNS-1123
    ///   subdomain not starting with `system-`; duplicates;
    /// - members: name present, role one of [`MEMBER_ROLES`], kind `User`/`Group`/`ServiceAccount`;
    /// - quota: resource names valid for a ResourceQuota, quantities not negative, keys the API
    ///   accepts but never tracks (`nvidia.com/gpu`, `limits.nvidia.com/gpu`), scopes and scope
    ///   selector operators, scopes that do not apply to a standard resource ("unsupported scope
    ///   applied to resource", incl. `count/pods` and `requests.ephemeral-storage` as seen on
    ///   v1.36), conflicting scope pairs;
    /// - namespaces: share at most 100%, shares (explicit amounts plus percentages) adding up to
    ///   more than a bucket's `hard` for any resource, references to unknown buckets/resources;
    /// - placement: label syntax of the node selector, node affinity terms, cluster selector;
    /// - priority: value at most 1,000,000,000, preemption policy;
    /// - container defaults: container resource names, default request above default limit;
    /// - GPU names: valid extended names; with a snapshot, every allowed GPU name and every GPU
    ///   named in the quota must be advertised (in allocatable) by some node of the selected
    ///   pool, and an existing PriorityClass of that name must have the same value.
    ///
    /// # Errors
    /// Every problem found, in field order.
    pub fn validate(&self, snapshot: Option<&ClusterSnapshot>) -> Result<(), Vec<GroupProblem>> {
        use GroupProblemKind as K;
        let mut p = Problems::default();

        if self.name.is_empty() {
            p.push("name", K::Missing, "must not be empty");
        } else {
            p.all("name", K::InvalidName, validate_dns1123_label(&self.name));
        }
        if self.owner.trim().is_empty() {
            p.push("owner", K::Missing, "must not be empty");
        }

        let mut seen_members = BTreeSet::new();
        for (i, m) in self.members.iter().enumerate() {
            let at = format!("members[{i}]");
            if m.name.trim().is_empty() {
                p.push(format!("{at}.name"), K::Missing, "must not be empty");
            }
            if !MEMBER_ROLES.contains(&m.role.as_str()) {
                p.push(
                    format!("{at}.role"),
                    K::InvalidValue,
                    format!(
                        "unsupported role {:?}: supported roles: {}",
                        m.role,
                        MEMBER_ROLES.join(", ")
                    ),
                );
            }
            if !matches!(m.kind.as_str(), "" | "User" | "Group" | "ServiceAccount") {
                p.push(
                    format!("{at}.kind"),
                    K::InvalidValue,
                    format!(
                        "unsupported kind {:?}: supported kinds: User, Group, ServiceAccount",
                        m.kind
                    ),
                );
            }
            let kind = if m.kind.is_empty() {
                "User"
            } else {
                m.kind.as_str()
            };
            if !seen_members.insert((kind, m.name.as_str())) {
                p.push(
                    format!("{at}.name"),
                    K::Duplicate,
                    format!("member {:?} listed twice", m.name),
                );
            }
        }

        let mut bucket_names = BTreeSet::new();
        for (i, b) in self.quota.iter().enumerate() {
            self.validate_bucket(&mut p, i, b);
            if !bucket_names.insert(b.name.as_str()) {
                p.push(
                    format!("quota[{i}].name"),
                    K::Duplicate,
                    format!("bucket {:?} listed twice", b.name),
                );
            }
        }

        if self.namespaces.is_empty() {
            p.push(
                "namespaces",
                K::Missing,
                "a group needs at least one namespace",
            );
        }
        let mut ns_names = BTreeSet::new();
        for (i, ns) in self.namespaces.iter().enumerate() {
            let at = format!("namespaces[{i}]");
            p.all(
                &format!("{at}.name"),
                K::InvalidName,
                validate_dns1123_label(&ns.name),
            );
            if !ns_names.insert(ns.name.as_str()) {
                p.push(
                    format!("{at}.name"),
                    K::Duplicate,
                    format!("namespace {:?} listed twice", ns.name),
                );
            }
            if ns.share_percent.is_some_and(|s| s > 100) {
                p.push(
                    format!("{at}.sharePercent"),
                    K::InvalidValue,
                    "must be between 0 and 100",
                );
            }
            for (bucket, list) in &ns.buckets {
                let Some(b) = self.quota.iter().find(|b| &b.name == bucket) else {
                    p.push(
                        format!("{at}.buckets[{bucket}]"),
                        K::UnknownReference,
                        format!("no quota bucket named {bucket:?}"),
                    );
                    continue;
                };
                for (name, _) in list.iter() {
                    if !b.hard.contains(name.as_str()) {
                        p.push(
                            format!("{at}.buckets[{bucket}][{name}]"),
                            K::UnknownReference,
                            format!("bucket {bucket:?} has no {name}"),
                        );
                    }
                }
            }
        }
        self.validate_shares(&mut p);
        self.validate_placement(&mut p);

        if let Some(pr) = &self.priority {
            if pr.class_name.is_empty() {
                p.push("priority.className", K::Missing, "must not be empty");
            } else {
                p.all(
                    "priority.className",
                    K::InvalidName,
                    validate_dns1123_subdomain(&pr.class_name),
                );
                if pr.class_name.starts_with("system-") {
                    p.push(
                        "priority.className",
                        K::InvalidName,
                        "priority class names with 'system-' prefix are reserved",
                    );
                }
            }
            if pr.value > HIGHEST_USER_DEFINABLE_PRIORITY {
                p.push(
                    "priority.value",
                    K::InvalidValue,
                    format!("must not be greater than {HIGHEST_USER_DEFINABLE_PRIORITY}"),
                );
            }
            if let Some(pol) = &pr.preemption_policy
                && !matches!(pol.as_str(), "PreemptLowerPriority" | "Never")
            {
                p.push(
                        "priority.preemptionPolicy",
                        K::InvalidValue,
                        format!("unsupported value {pol:?}: supported values: \"Never\", \"PreemptLowerPriority\""),
                    );
            }
        }

        if let Some(d) = &self.container_defaults {
            for (field, list) in [
                ("defaultRequest", &d.default_request),
                ("defaultLimit", &d.default_limit),
            ] {
                for (name, q) in list.iter() {
                    let path = format!("containerDefaults.{field}[{name}]");
                    if let Err(e) = name.validate_for_container() {
                        p.all(&path, K::InvalidResourceName, e.reasons);
                    }
                    if q.is_negative() {
                        p.push(path, K::InvalidValue, "must be greater than or equal to 0");
                    }
                }
            }
            for (name, req) in d.default_request.iter() {
                if let Some(lim) = d.default_limit.get(name.as_str())
                    && req > lim
                {
                    p.push(
                            format!("containerDefaults.defaultRequest[{name}]"),
                            K::InvalidValue,
                            format!("default request {req} must be less than or equal to default limit {lim}"),
                        );
                }
            }
        }

        for (i, g) in self.gpu_resources.iter().enumerate() {
            if !g.is_extended() {
                p.push(
                    format!("gpuResources[{i}]"),
                    K::InvalidResourceName,
                    format!("{g:?} is not an extended resource name"),
                );
            } else if !g.is_gpu() && !g.is_gpu_share_attribute() {
                p.push(
                    format!("gpuResources[{i}]"),
                    K::InvalidResourceName,
                    format!("{g} is not a known GPU resource name"),
                );
            }
        }

        if let Some(snap) = snapshot {
            self.validate_against(&mut p, snap);
        }

        if p.0.is_empty() { Ok(()) } else { Err(p.0) }
    }

    fn validate_bucket(&self, p: &mut Problems, i: usize, b: &QuotaBucket) {
        use GroupProblemKind as K;
        let at = format!("quota[{i}]");
        p.all(
            &format!("{at}.name"),
            K::InvalidName,
            validate_dns1123_label(&b.name),
        );
        if b.hard.is_empty() {
            p.push(
                format!("{at}.hard"),
                K::Missing,
                "a bucket needs at least one resource",
            );
        }
        let mut scopes: Vec<&str> = b.scopes.iter().map(String::as_str).collect();
        for (j, s) in b.scopes.iter().enumerate() {
            if !QUOTA_SCOPES.contains(&s.as_str()) {
                p.push(
                    format!("{at}.scopes[{j}]"),
                    K::InvalidValue,
                    format!("unsupported scope {s:?}"),
                );
            }
        }
        if let Some(sel) = &b.scope_selector {
            for (j, e) in sel.match_expressions.iter().enumerate() {
                let path = format!("{at}.scopeSelector.matchExpressions[{j}]");
                if !QUOTA_SCOPES.contains(&e.scope_name.as_str()) {
                    p.push(
                        format!("{path}.scopeName"),
                        K::InvalidSelector,
                        format!("unsupported scope {:?}", e.scope_name),
                    );
                }
                match e.operator.as_str() {
                    "In" | "NotIn" => {
                        if e.values.is_empty() {
                            p.push(format!("{path}.values"), K::InvalidSelector, "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector");
                        }
                    }
                    "Exists" | "DoesNotExist" => {
                        if !e.values.is_empty() {
                            p.push(format!("{path}.values"), K::InvalidSelector, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector");
                        }
                    }
                    other => p.push(
                        format!("{path}.operator"),
                        K::InvalidSelector,
                        format!("not a valid selector operator {other:?}"),
                    ),
                }
                scopes.push(e.scope_name.as_str());
            }
        }
        for pair in [
            ("BestEffort", "NotBestEffort"),
            ("Terminating", "NotTerminating"),
        ] {
            if scopes.contains(&pair.0) && scopes.contains(&pair.1) {
                p.push(
                    format!("{at}.scopes"),
                    K::InvalidValue,
                    format!("conflicting scopes: {} and {}", pair.0, pair.1),
                );
            }
        }
        for (name, q) in b.hard.iter() {
            let path = format!("{at}.hard[{name}]");
            if let Err(e) = name.validate_for_quota() {
                p.all(&path, K::InvalidResourceName, e.reasons);
            } else if !name.is_tracked_by_pod_quota()
                && name.as_str().contains('/')
                && !name.as_str().starts_with("count/")
            {
                p.push(
                    &path,
                    K::QuotaNotEnforced,
                    format!(
                        "the API accepts {name} but quota never charges pods for it; use {}",
                        ResourceName::requests_of(name.quota_form().resource())
                    ),
                );
            }
            if q.is_negative() {
                p.push(&path, K::InvalidValue, "must be greater than or equal to 0");
            }
            // upstream validateResourceQuotaScopes (+ count/pods as observed on v1.36)
            let scope_checked = name.is_standard_quota_name() || name.as_str() == "count/pods";
            if scope_checked && !scopes.is_empty() {
                let best_effort_only = scopes.contains(&"BestEffort");
                let ok = if best_effort_only {
                    name.as_str() == "pods"
                } else {
                    POD_COMPUTE_NAMES.contains(&name.as_str())
                };
                if !ok {
                    p.push(
                        &path,
                        K::InvalidValue,
                        "unsupported scope applied to resource",
                    );
                }
            }
        }
    }

    fn validate_shares(&self, p: &mut Problems) {
        use GroupProblemKind as K;
        for (bi, b) in self.quota.iter().enumerate() {
            for (name, hard) in b.hard.iter() {
                let hard_m = millis(hard);
                let mut explicit_m: i128 = 0;
                let mut percent: i128 = 0;
                let mut parts = Vec::new();
                for ns in &self.namespaces {
                    if let Some(list) = ns.buckets.get(&b.name) {
                        if let Some(q) = list.get(name.as_str()) {
                            explicit_m += millis(q);
                            parts.push(format!("{} {q}", ns.name));
                        }
                    } else if let Some(s) = ns.share_percent {
                        percent += i128::from(s);
                        parts.push(format!("{} {s}%", ns.name));
                    }
                }
                // explicit + percent% of hard <= hard, compared at milli precision
                if explicit_m * 100 + percent * hard_m > hard_m * 100 {
                    p.push(
                        format!("quota[{bi}].hard[{name}]"),
                        K::ShareExceedsBucket,
                        format!(
                            "namespace shares add up to more than the bucket's {hard}: {}",
                            parts.join(" + ")
                        ),
                    );
                }
            }
        }
    }

    fn validate_placement(&self, p: &mut Problems) {
        use GroupProblemKind as K;
        for (k, v) in &self.placement.node_selector {
            let path = format!("placement.nodeSelector[{k}]");
            p.all(&path, K::InvalidLabel, validate_qualified_name(k));
            p.all(&path, K::InvalidLabel, validate_label_value(v));
        }
        if let Some(a) = &self.placement.node_affinity {
            if a.node_selector_terms.is_empty() {
                p.push(
                    "placement.nodeAffinity.nodeSelectorTerms",
                    K::InvalidSelector,
                    "must have at least one term",
                );
            }
            for (i, t) in a.node_selector_terms.iter().enumerate() {
                for e in t.problems() {
                    p.push(
                        format!("placement.nodeAffinity.nodeSelectorTerms[{i}]"),
                        K::InvalidSelector,
                        e.to_string(),
                    );
                }
            }
        }
        if let Some(s) = &self.placement.cluster_selector
            && let Err(e) = parse_selector(s)
        {
            p.push(
                "placement.clusterSelector",
                K::InvalidSelector,
                e.to_string(),
            );
        }
        if let Some(c) = &self.placement.cluster {
            p.all(
                "placement.cluster",
                K::InvalidName,
                validate_dns1123_subdomain(c),
            );
        }
    }

    fn validate_against(&self, p: &mut Problems, snap: &ClusterSnapshot) {
        use GroupProblemKind as K;
        let pool = self.pool_nodes(snap);
        let advertised: BTreeSet<&str> = pool
            .iter()
            .flat_map(|n| n.gpu.allocatable.names().chain(n.allocatable.names()))
            .map(ResourceName::as_str)
            .collect();
        let pool_desc =
            if self.placement.node_selector.is_empty() && self.placement.node_affinity.is_none() {
                "the cluster".to_owned()
            } else {
                format!("the {} node(s) the placement selects", pool.len())
            };
        for (i, g) in self.gpu_resources.iter().enumerate() {
            if !advertised.contains(g.as_str()) {
                p.push(
                    format!("gpuResources[{i}]"),
                    K::GpuNotAdvertised,
                    format!("no node of {pool_desc} advertises {g} in allocatable"),
                );
            }
        }
        for (bi, b) in self.quota.iter().enumerate() {
            for (name, _) in b.hard.iter() {
                let inner = ResourceName::from(name.quota_form().resource());
                if inner.is_gpu() && !advertised.contains(inner.as_str()) {
                    p.push(
                        format!("quota[{bi}].hard[{name}]"),
                        K::GpuNotAdvertised,
                        format!("no node of {pool_desc} advertises {inner} in allocatable"),
                    );
                }
            }
        }
        if let Some(pr) = &self.priority
            && let Some(pc) = snap
                .priority_classes
                .iter()
                .find(|c| c.metadata.name == pr.class_name)
            && i64::from(pc.value) != pr.value
        {
            p.push(
                "priority.value",
                K::PriorityMismatch,
                format!(
                    "PriorityClass {:?} exists with value {}, not {}",
                    pr.class_name, pc.value, pr.value
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{Node, PriorityClass, ScopedResourceSelectorRequirement};

    fn rl(pairs: &[(&str, &str)]) -> ResourceList {
        pairs
            .iter()
            .map(|(k, v)| (*k, v.parse().unwrap()))
            .collect()
    }

    fn group() -> ResourceGroup {
        ResourceGroup {
            name: "team-a".into(),
            owner: "alice".into(),
            members: vec![
                Member {
                    name: "alice".into(),
                    kind: String::new(),
                    role: "admin".into(),
                },
                Member {
                    name: "ml-devs".into(),
                    kind: "Group".into(),
                    role: "developer".into(),
                },
            ],
            quota: vec![
                QuotaBucket {
                    name: "compute".into(),
                    hard: rl(&[
                        ("requests.cpu", "100"),
                        ("requests.memory", "400Gi"),
                        ("requests.nvidia.com/gpu", "8"),
                    ]),
                    ..Default::default()
                },
                QuotaBucket {
                    name: "high".into(),
                    scope_selector: Some(ScopeSelector {
                        match_expressions: vec![ScopedResourceSelectorRequirement {
                            scope_name: "PriorityClass".into(),
                            operator: "In".into(),
                            values: vec!["team-a-high".into()],
                        }],
                    }),
                    hard: rl(&[("requests.cpu", "20"), ("requests.nvidia.com/gpu", "2")]),
                    ..Default::default()
                },
            ],
            namespaces: vec![
                GroupNamespace {
                    name: "team-a-train".into(),
                    share_percent: Some(75),
                    ..Default::default()
                },
                GroupNamespace {
                    name: "team-a-serve".into(),
                    share_percent: Some(25),
                    buckets: [("high".to_owned(), rl(&[("requests.cpu", "5")]))]
                        .into_iter()
                        .collect(),
                },
            ],
            placement: Placement {
                node_selector: [
                    ("org".to_owned(), "team-a".to_owned()),
                    ("gpu".to_owned(), "true".to_owned()),
                ]
                .into_iter()
                .collect(),
                cluster_selector: Some("env=prod".into()),
                ..Default::default()
            },
            priority: Some(GroupPriority {
                class_name: "team-a-high".into(),
                value: 1000,
                preemption_policy: None,
            }),
            container_defaults: Some(ContainerDefaults {
                default_request: rl(&[("cpu", "500m"), ("memory", "1Gi")]),
                default_limit: rl(&[("cpu", "2"), ("memory", "4Gi")]),
            }),
            gpu_resources: vec!["nvidia.com/gpu".into()],
        }
    }

    fn kinds(r: Result<(), Vec<GroupProblem>>) -> Vec<(String, GroupProblemKind)> {
        r.err()
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p.path, p.kind))
            .collect()
    }

    #[test]
    fn a_good_group_validates() {
        assert_eq!(group().validate(None), Ok(()));
    }

    #[test]
    fn reports_every_problem_with_paths() {
        use GroupProblemKind as K;
        let mut g = group();
        g.name = "Team_A".into();
        g.members.push(Member {
            name: "alice".into(),
            kind: "User".into(),
            role: "owner".into(),
        });
        g.quota[0]
            .hard
            .insert("nvidia.com/gpu", "8".parse().unwrap());
        g.quota[0].hard.insert("gpu", "8".parse().unwrap());
        g.quota[1].hard.insert("count/pods", "10".parse().unwrap());
        g.namespaces[0].share_percent = Some(80);
        g.namespaces.push(GroupNamespace {
            name: "team-a-train".into(),
            buckets: [("nope".to_owned(), rl(&[("cpu", "1")]))]
                .into_iter()
                .collect(),
            ..Default::default()
        });
        g.placement
            .node_selector
            .insert("bad key!".into(), "v".into());
        g.placement.cluster_selector = Some("env in (prod".into());
        g.priority.as_mut().unwrap().value = 2_000_000_000;
        g.container_defaults
            .as_mut()
            .unwrap()
            .default_request
            .insert("cpu", "4".parse().unwrap());
        g.gpu_resources.push("cpu".into());
        let got = kinds(g.validate(None));
        let expect = [
            ("name", K::InvalidName),
            ("members[2].role", K::InvalidValue),
            ("members[2].name", K::Duplicate),
            ("quota[0].hard[gpu]", K::InvalidResourceName),
            ("quota[0].hard[nvidia.com/gpu]", K::QuotaNotEnforced),
            ("quota[1].hard[count/pods]", K::InvalidValue),
            ("namespaces[2].name", K::Duplicate),
            ("namespaces[2].buckets[nope]", K::UnknownReference),
            ("quota[0].hard[requests.cpu]", K::ShareExceedsBucket),
            ("placement.nodeSelector[bad key!]", K::InvalidLabel),
            ("placement.clusterSelector", K::InvalidSelector),
            ("priority.value", K::InvalidValue),
            ("containerDefaults.defaultRequest[cpu]", K::InvalidValue),
            ("gpuResources[1]", K::InvalidResourceName),
        ];
        for (path, kind) in expect {
            assert!(
                got.contains(&(path.to_owned(), kind)),
                "missing {path} {kind:?} in {got:#?}"
            );
        }
    }

    #[test]
    fn explicit_shares_count_against_the_bucket() {
        let mut g = group();
        // high bucket: serve takes 5 cpu explicitly, train 75% of 20 = 15 -> exactly 20: fine
        assert_eq!(g.validate(None), Ok(()));
        g.namespaces[1]
            .buckets
            .insert("high".into(), rl(&[("requests.cpu", "5001m")]));
        let got = kinds(g.validate(None));
        assert_eq!(
            got,
            [(
                "quota[1].hard[requests.cpu]".to_owned(),
                GroupProblemKind::ShareExceedsBucket
            )]
        );
    }

    fn gpu_node(name: &str, labels: &[(&str, &str)], alloc: &[(&str, &str)]) -> Node {
        let mut n = Node::default();
        n.metadata.name = name.into();
        n.metadata.labels = labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        n.status.allocatable = rl(alloc);
        n
    }

    #[test]
    fn gpu_names_must_be_advertised_by_the_selected_pool() {
        let mut g = group();
        g.gpu_resources.push("nvidia.com/mig-1g.10gb".into());
        let mut snap = ClusterSnapshot::default();
        snap.nodes.push(gpu_node(
            "a1",
            &[("org", "team-a"), ("gpu", "true")],
            &[("nvidia.com/gpu", "8")],
        ));
        snap.nodes.push(gpu_node(
            "b1",
            &[("org", "team-b"), ("gpu", "true")],
            &[("nvidia.com/mig-1g.10gb", "7")],
        ));
        snap.priority_classes.push(PriorityClass {
            value: 999,
            ..Default::default()
        });
        snap.priority_classes[0].metadata.name = "team-a-high".into();
        let got = kinds(g.validate(Some(&snap)));
        assert_eq!(
            got,
            [
                (
                    "gpuResources[1]".to_owned(),
                    GroupProblemKind::GpuNotAdvertised
                ),
                (
                    "priority.value".to_owned(),
                    GroupProblemKind::PriorityMismatch
                ),
            ]
        );
        // nobody in the pool has GPUs: both the allowed name and the quota keys are flagged
        snap.nodes[0].status.allocatable = rl(&[("cpu", "8")]);
        let got = kinds(g.validate(Some(&snap)));
        assert!(got.contains(&(
            "quota[0].hard[requests.nvidia.com/gpu]".to_owned(),
            GroupProblemKind::GpuNotAdvertised
        )));
        assert!(got.contains(&(
            "gpuResources[0]".to_owned(),
            GroupProblemKind::GpuNotAdvertised
        )));
    }

    #[test]
    fn json_and_yaml_round_trip() {
        let g = group();
        let json = serde_json::to_string_pretty(&g).unwrap();
        assert_eq!(ResourceGroup::from_json(&json).unwrap(), g);
        let yaml = serde_saphyr::to_string(&g).unwrap();
        assert_eq!(ResourceGroup::from_yaml(&yaml).unwrap(), g);
        let err = ResourceGroup::from_json(
            r#"{"name":"x","quota":[{"name":"a","hard":{"cpu":"lots"}}]}"#,
        )
        .unwrap_err();
        assert!(err.to_string().contains("quota[0].hard.cpu"), "{err}");
    }
}
