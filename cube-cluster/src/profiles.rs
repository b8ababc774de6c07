//! Capability profiles: what a console needs from a cluster, as data, checked offline with
//! [`crate::rbac`] or live with batched SelfSubjectAccessReview, with the missing rules and
//! over-privilege warnings.
//!
//! A [`Profile`] is a list of [`CapabilityCheck`]s (verb, API group, resource, subresource,
//! namespace scope). The built-in profiles (`view-nodes`, `console-readonly`,
//! `resource-group-admin`, `workload-submit`) live in `profiles.yaml` next to this file and load
//! through serde like any user-written profile.
//!
//! Checking goes through one seam, [`AccessReviewer`]: [`OfflineReviewer`] answers from RBAC
//! objects, [`KubeReviewer`] posts `authorization.k8s.io/v1` SelfSubjectAccessReview and
//! SelfSubjectRulesReview through a `kube::Client`. [`check_profile`] runs the reviews with
//! bounded concurrency and builds a [`CapabilityReport`].
//!
//! Upstream behaviour mirrored: kubernetes/api `authorization/v1/types.go` (review shapes;
//! `allowed:false, denied:false` is "no opinion"), `kubectl auth can-i` (`*` `*` asks for a
//! full wildcard rule), and the RBAC escalation check of
//! kubernetes/kubernetes `pkg/registry/rbac/escalation_check.go` (documented on
//! `resource-group-admin`).
//!
//! ```
//! use cube_cluster::profiles::{OfflineReviewer, Profile, check_profile};
//! use cube_cluster::rbac::{RbacPolicy, UserInfo};
//!
//! let policy = RbacPolicy::from_yaml_str(r#"
//! kind: ClusterRole
//! metadata: {name: nodes}
//! rules: [{apiGroups: [""], resources: [nodes], verbs: [get]}]
//! ---
//! kind: ClusterRoleBinding
//! metadata: {name: nodes}
//! roleRef: {kind: ClusterRole, name: nodes}
//! subjects: [{kind: User, name: ops}]
//! "#).unwrap();
//! let reviewer = OfflineReviewer::new(policy, UserInfo::authenticated("ops", ["ops"]));
//! let profile = Profile::builtin("view-nodes").unwrap();
//! let report = futures::executor::block_on(check_profile(&reviewer, &profile, &[], 4)).unwrap();
//! // `get` never stands in for `list`: `kubectl get nodes` needs list.
//! assert!(!report.is_sufficient());
//! assert_eq!(report.missing[0].rule.verbs, ["list"]);
//! assert!(report.warnings.is_empty());
//! ```

use std::collections::BTreeMap;
use std::fmt;

use cube_model::objects::PolicyRule;
use futures::StreamExt as _;
use serde::{Deserialize, Serialize};

use crate::rbac::{
    AccessRequest, AllowReason, NonResourceAttributes, RbacPolicy, ResourceAttributes, UserInfo,
};

const BUILTIN_YAML: &str = include_str!("profiles.yaml");

/// Errors of profile loading, expansion and live reviews.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// A profile text could not be read.
    #[error("cannot parse capability profiles from {source_label}")]
    Parse {
        /// File name or label.
        source_label: String,
        /// Parser message.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// No profile of that name.
    #[error("unknown capability profile {name:?} (known: {known})")]
    UnknownProfile {
        /// The requested name.
        name: String,
        /// Comma-separated known names.
        known: String,
    },
    /// The profile has per-namespace checks and no namespace was given.
    #[error("profile {profile:?} checks each given namespace, but no namespace was given")]
    NamespacesRequired {
        /// The profile.
        profile: String,
    },
    /// A review request could not be made or answered (network, TLS, 401, ...).
    #[error("{review} failed")]
    Review {
        /// `SelfSubjectAccessReview` or `SelfSubjectRulesReview`.
        review: &'static str,
        /// The client error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// Where a check applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Scope {
    /// A cluster-scoped resource (nodes, namespaces, priorityclasses): asked with no namespace;
    /// granted by a ClusterRole + ClusterRoleBinding.
    Cluster,
    /// A namespaced resource in every namespace: asked with no namespace; granted by a
    /// ClusterRole + ClusterRoleBinding.
    AllNamespaces,
    /// A namespaced resource, asked once in each namespace given to the check; granted by a Role
    /// + RoleBinding per namespace.
    Namespaces,
}

/// One capability: may the subject `verb` `resource[/subresource]` of `group` in `scope`?
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CapabilityCheck {
    /// Verb (`get`, `list`, `watch`, `create`, `update`, ...).
    pub verb: String,
    /// API group, `""` = core.
    #[serde(default)]
    pub group: String,
    /// Resource, plural lowercase.
    pub resource: String,
    /// Subresource (`log`), `""` for none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subresource: String,
    /// Scope.
    pub scope: Scope,
}

impl CapabilityCheck {
    /// `resource` or `resource/subresource`, as it appears in a PolicyRule.
    pub fn rule_resource(&self) -> String {
        if self.subresource.is_empty() {
            self.resource.clone()
        } else {
            format!("{}/{}", self.resource, self.subresource)
        }
    }

    /// The access request for this check in `namespace` (`""` for cluster / all namespaces).
    pub fn request(&self, namespace: &str) -> AccessRequest {
        AccessRequest::Resource(ResourceAttributes {
            namespace: namespace.to_string(),
            verb: self.verb.clone(),
            group: self.group.clone(),
            resource: self.resource.clone(),
            subresource: self.subresource.clone(),
            ..Default::default()
        })
    }
}

/// A named list of capability checks.
///
/// Every capability states its verbs exactly: in YAML a capability is written with `verb: get`
/// or `verbs: [get, list]` (one check per verb), never `*`, so that `get` can never stand in
/// for `list` (`kubectl get nodes` needs `list`; `kubectl get node x` needs `get`). Loading
/// refuses a capability without a verb, with `*` as verb or resource, or with both `verb` and
/// `verbs` ([`ProfileError::Parse`] naming the profile and the capability).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "ProfileWire")]
pub struct Profile {
    /// Name (`console-readonly`).
    pub name: String,
    /// What it is for.
    #[serde(default)]
    pub description: String,
    /// Remarks shown with the report (for example RBAC escalation rules).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The checks.
    pub checks: Vec<CapabilityCheck>,
}

/// The YAML form of a [`Profile`]: capabilities may list several verbs.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ProfileWire {
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    notes: Vec<String>,
    checks: Vec<CapabilityWire>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CapabilityWire {
    #[serde(default)]
    verb: Option<String>,
    #[serde(default)]
    verbs: Option<Vec<String>>,
    #[serde(default)]
    group: String,
    resource: String,
    #[serde(default)]
    subresource: String,
    scope: Scope,
}

impl TryFrom<ProfileWire> for Profile {
    type Error = String;
    fn try_from(w: ProfileWire) -> Result<Self, Self::Error> {
        let mut checks = Vec::new();
        for (i, c) in w.checks.into_iter().enumerate() {
            let at = format!("profile {:?} capability {}", w.name, i + 1);
            let verbs = match (c.verb, c.verbs) {
                (Some(v), None) => vec![v],
                (None, Some(vs)) => vs,
                (Some(_), Some(_)) => return Err(format!("{at}: both verb and verbs are set")),
                (None, None) => return Err(format!("{at}: no verb (state every verb exactly)")),
            };
            if verbs.is_empty() {
                return Err(format!("{at}: verbs is empty"));
            }
            if c.resource.trim().is_empty() || c.resource.contains('*') {
                return Err(format!("{at}: resource must be named exactly (no `*`)"));
            }
            if c.group.contains('*') || c.subresource.contains('*') {
                return Err(format!(
                    "{at}: group and subresource must be exact (no `*`)"
                ));
            }
            for v in verbs {
                let v = v.trim().to_string();
                if v.is_empty() || v.contains('*') || v.chars().any(|ch| !ch.is_ascii_lowercase()) {
                    return Err(format!(
                        "{at}: verb {v:?} must be one exact lowercase verb (get, list, watch, create, ...), never `*`"
                    ));
                }
                let check = CapabilityCheck {
                    verb: v,
                    group: c.group.clone(),
                    resource: c.resource.clone(),
                    subresource: c.subresource.clone(),
                    scope: c.scope,
                };
                if !checks.contains(&check) {
                    checks.push(check);
                }
            }
        }
        if checks.is_empty() {
            return Err(format!("profile {:?} has no capability", w.name));
        }
        Ok(Profile {
            name: w.name,
            description: w.description,
            notes: w.notes,
            checks,
        })
    }
}

/// The name of the default profile: the seed's minimal set, checked on every import.
pub const DEFAULT_PROFILE: &str = "cube-minimal";

/// One check asked in one namespace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScopedCheck {
    /// The check.
    pub check: CapabilityCheck,
    /// Namespace asked (`""` for cluster scope or all namespaces).
    pub namespace: String,
}

/// The rules that grant a set of checks, grouped by where they must be bound.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScopedRules {
    /// `None`: a ClusterRole bound by a ClusterRoleBinding. `Some(ns)`: a Role in `ns` bound by
    /// a RoleBinding in `ns`.
    pub namespace: Option<String>,
    /// The rules (one per API group and verb set, resources merged), deterministic order.
    pub rules: Vec<PolicyRule>,
}

impl Profile {
    /// All built-in profiles.
    pub fn builtins() -> Vec<Profile> {
        // The embedded text is checked by a unit test; an error here would be a build defect.
        Profile::list_from_yaml_str(BUILTIN_YAML).unwrap_or_default()
    }

    /// A built-in profile by name.
    ///
    /// # Errors
    /// [`ProfileError::UnknownProfile`].
    pub fn builtin(name: &str) -> Result<Profile, ProfileError> {
        let all = Profile::builtins();
        let known = all
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        all.iter()
            .find(|p| p.name == name)
            .cloned()
            .ok_or_else(|| ProfileError::UnknownProfile {
                name: name.to_string(),
                known,
            })
    }

    /// Profiles from YAML or JSON: a list of profiles, or one profile.
    ///
    /// # Errors
    /// [`ProfileError::Parse`].
    pub fn list_from_yaml_str(text: &str) -> Result<Vec<Profile>, ProfileError> {
        Self::list_from_yaml_str_with(text, &cube_model::Limits::default())
    }

    /// [`Profile::list_from_yaml_str`] within `limits`: one parse through
    /// [`cube_model::yaml`]'s bounded entry (the error is the one of the form the text is in:
    /// a list or one profile).
    ///
    /// # Errors
    /// [`ProfileError::Parse`]; the alias limit names the limit and how to raise it.
    pub fn list_from_yaml_str_with(
        text: &str,
        limits: &cube_model::Limits,
    ) -> Result<Vec<Profile>, ProfileError> {
        let err = |e: Box<dyn std::error::Error + Send + Sync>| ProfileError::Parse {
            source_label: "<profiles>".to_string(),
            source: e,
        };
        cube_model::yaml::from_str::<cube_model::yaml::OneOrMany<Profile>>(
            text,
            limits,
            serde_saphyr::Options::default(),
        )
        .map(|l| l.0)
        .map_err(|e| {
            match cube_model::yaml::alias_limit_exceeded(&e, limits, "<profiles>") {
                Some(l) => err(Box::new(l)),
                None => err(Box::new(e)),
            }
        })
    }

    /// Every check in every namespace it is asked in: cluster and all-namespace checks once with
    /// namespace `""`, per-namespace checks once per entry of `namespaces`.
    ///
    /// # Errors
    /// [`ProfileError::NamespacesRequired`] when a per-namespace check meets an empty list.
    pub fn expand(&self, namespaces: &[String]) -> Result<Vec<ScopedCheck>, ProfileError> {
        let mut out = Vec::new();
        for c in &self.checks {
            match c.scope {
                Scope::Cluster | Scope::AllNamespaces => out.push(ScopedCheck {
                    check: c.clone(),
                    namespace: String::new(),
                }),
                Scope::Namespaces => {
                    if namespaces.is_empty() {
                        return Err(ProfileError::NamespacesRequired {
                            profile: self.name.clone(),
                        });
                    }
                    for ns in namespaces {
                        out.push(ScopedCheck {
                            check: c.clone(),
                            namespace: ns.clone(),
                        });
                    }
                }
            }
        }
        Ok(out)
    }

    /// The exact rules that grant this profile in `namespaces` (see [`rules_granting`]).
    ///
    /// # Errors
    /// [`ProfileError::NamespacesRequired`].
    pub fn grant_rules(&self, namespaces: &[String]) -> Result<Vec<ScopedRules>, ProfileError> {
        Ok(rules_granting(&self.expand(namespaces)?))
    }
}

/// Order verbs as people read them: get, list, watch, create, update, patch, delete,
/// deletecollection, then the rest alphabetically.
fn verb_rank(v: &str) -> (usize, String) {
    const ORDER: [&str; 8] = [
        "get",
        "list",
        "watch",
        "create",
        "update",
        "patch",
        "delete",
        "deletecollection",
    ];
    (
        ORDER.iter().position(|o| *o == v).unwrap_or(ORDER.len()),
        v.to_string(),
    )
}

/// The smallest plain rule set that allows exactly `checks`: for each binding place (cluster or a
/// namespace), for each API group, one rule per distinct verb set listing the resources that need
/// it. No `*`, no resourceNames; evaluated with [`crate::rbac::rule_allows`] each rule allows
/// only the (verb, group, resource) combinations of the checks.
pub fn rules_granting(checks: &[ScopedCheck]) -> Vec<ScopedRules> {
    // place -> group -> resource -> verbs
    type VerbsByResource = BTreeMap<String, Vec<String>>;
    let mut by_place: BTreeMap<Option<String>, BTreeMap<String, VerbsByResource>> = BTreeMap::new();
    for sc in checks {
        let place = match sc.check.scope {
            Scope::Namespaces => Some(sc.namespace.clone()),
            Scope::Cluster | Scope::AllNamespaces => None,
        };
        let verbs = by_place
            .entry(place)
            .or_default()
            .entry(sc.check.group.clone())
            .or_default()
            .entry(sc.check.rule_resource())
            .or_default();
        if !verbs.contains(&sc.check.verb) {
            verbs.push(sc.check.verb.clone());
        }
    }
    by_place
        .into_iter()
        .map(|(namespace, groups)| {
            let mut rules = Vec::new();
            for (group, resources) in groups {
                // verb set -> resources (BTreeMap: deterministic).
                let mut by_verbs: BTreeMap<Vec<(usize, String)>, Vec<String>> = BTreeMap::new();
                for (resource, mut verbs) in resources {
                    verbs.sort_by_key(|v| verb_rank(v));
                    by_verbs
                        .entry(verbs.iter().map(|v| verb_rank(v)).collect())
                        .or_default()
                        .push(resource);
                }
                for (verbs, resources) in by_verbs {
                    rules.push(PolicyRule {
                        verbs: verbs.into_iter().map(|(_, v)| v).collect(),
                        api_groups: vec![group.clone()],
                        resources,
                        ..Default::default()
                    });
                }
            }
            ScopedRules { namespace, rules }
        })
        .collect()
}

// ------------------------------------------------------------------ review wire types

/// `authorization.k8s.io/v1` `SelfSubjectAccessReview` (request and response).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelfSubjectAccessReview {
    /// `authorization.k8s.io/v1`.
    pub api_version: String,
    /// `SelfSubjectAccessReview`.
    pub kind: String,
    /// What is asked.
    pub spec: SelfSubjectAccessReviewSpec,
    /// The answer (responses only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<SubjectAccessReviewStatus>,
}

/// `SelfSubjectAccessReviewSpec`: exactly one of the two attribute sets.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelfSubjectAccessReviewSpec {
    /// Resource request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_attributes: Option<ResourceAttributes>,
    /// Non-resource request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub non_resource_attributes: Option<NonResourceAttributes>,
}

/// `SubjectAccessReviewStatus`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SubjectAccessReviewStatus {
    /// Allowed.
    pub allowed: bool,
    /// Explicitly denied (only some authorizers; RBAC never denies, it has no opinion).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub denied: bool,
    /// Why (`RBAC: allowed by ...`); empty for plain RBAC denials and for `system:masters`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// An authorizer failed while evaluating (the answer may be incomplete).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub evaluation_error: String,
}

impl SelfSubjectAccessReview {
    /// The review request for `request`.
    pub fn new(request: &AccessRequest) -> Self {
        let spec = match request {
            AccessRequest::Resource(a) => SelfSubjectAccessReviewSpec {
                resource_attributes: Some(a.clone()),
                non_resource_attributes: None,
            },
            AccessRequest::NonResource(a) => SelfSubjectAccessReviewSpec {
                resource_attributes: None,
                non_resource_attributes: Some(a.clone()),
            },
        };
        SelfSubjectAccessReview {
            api_version: "authorization.k8s.io/v1".into(),
            kind: "SelfSubjectAccessReview".into(),
            spec,
            status: None,
        }
    }
}

/// `authorization.k8s.io/v1` `SelfSubjectRulesReview` (request and response).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelfSubjectRulesReview {
    /// `authorization.k8s.io/v1`.
    pub api_version: String,
    /// `SelfSubjectRulesReview`.
    pub kind: String,
    /// `{namespace}`.
    pub spec: SelfSubjectRulesReviewSpec,
    /// The answer (responses only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<SubjectRulesReviewStatus>,
}

/// `SelfSubjectRulesReviewSpec`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelfSubjectRulesReviewSpec {
    /// Namespace to list rules for.
    pub namespace: String,
}

/// `SubjectRulesReviewStatus`. `ResourceRule` and `NonResourceRule` share `PolicyRule`'s fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SubjectRulesReviewStatus {
    /// Resource rules.
    pub resource_rules: Vec<PolicyRule>,
    /// Non-resource rules.
    pub non_resource_rules: Vec<PolicyRule>,
    /// True when an authorizer (typically a webhook) cannot list its rules.
    pub incomplete: bool,
    /// Evaluation error.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub evaluation_error: String,
}

impl SelfSubjectRulesReview {
    /// The review request for `namespace`.
    pub fn new(namespace: &str) -> Self {
        SelfSubjectRulesReview {
            api_version: "authorization.k8s.io/v1".into(),
            kind: "SelfSubjectRulesReview".into(),
            spec: SelfSubjectRulesReviewSpec {
                namespace: namespace.to_string(),
            },
            status: None,
        }
    }
}

// ------------------------------------------------------------------ the seam

/// Answers access questions for one subject: the seam between profile checking and a cluster.
///
/// Dyn-compatible (`#[async_trait]`) and `Send + Sync`, so a service can hold a
/// `Box<dyn AccessReviewer>` / `Arc<dyn AccessReviewer>` per cluster across `.await`.
/// Implemented by [`OfflineReviewer`], [`KubeReviewer`], `kube::Client` itself and
/// [`crate::memory::MemoryCluster`].
#[async_trait::async_trait]
pub trait AccessReviewer: Send + Sync {
    /// SelfSubjectAccessReview: the status the server (or the offline evaluator) gives.
    async fn review(
        &self,
        request: &AccessRequest,
    ) -> Result<SubjectAccessReviewStatus, ProfileError>;

    /// SelfSubjectRulesReview in `namespace`.
    async fn rules(&self, namespace: &str) -> Result<SubjectRulesReviewStatus, ProfileError>;
}

/// Offline answers from RBAC objects for one user (see [`crate::rbac`]).
#[derive(Debug, Clone)]
pub struct OfflineReviewer {
    /// The RBAC objects.
    pub policy: RbacPolicy,
    /// Who asks.
    pub user: UserInfo,
}

impl OfflineReviewer {
    /// Answer for `user` from `policy`.
    pub fn new(policy: RbacPolicy, user: UserInfo) -> Self {
        OfflineReviewer { policy, user }
    }
}

#[async_trait::async_trait]
impl AccessReviewer for OfflineReviewer {
    async fn review(
        &self,
        request: &AccessRequest,
    ) -> Result<SubjectAccessReviewStatus, ProfileError> {
        let d = self.policy.authorize(&self.user, request);
        Ok(SubjectAccessReviewStatus {
            allowed: d.allowed,
            denied: false,
            reason: d.reason,
            evaluation_error: String::new(),
        })
    }

    async fn rules(&self, namespace: &str) -> Result<SubjectRulesReviewStatus, ProfileError> {
        let (rules, errors) = self.policy.rules_for(&self.user, namespace);
        let (non_resource_rules, resource_rules) = rules
            .into_iter()
            .partition(|r| !r.non_resource_urls.is_empty());
        Ok(SubjectRulesReviewStatus {
            resource_rules,
            non_resource_rules,
            incomplete: false,
            evaluation_error: errors.join(", "),
        })
    }
}

/// Live answers: POSTs reviews to `/apis/authorization.k8s.io/v1/selfsubject{access,rules}reviews`
/// as the client's own credentials.
#[derive(Clone)]
pub struct KubeReviewer {
    /// The client (its credentials are the subject).
    pub client: kube::Client,
}

impl fmt::Debug for KubeReviewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KubeReviewer")
    }
}

impl KubeReviewer {
    /// Review as `client`'s user.
    pub fn new(client: kube::Client) -> Self {
        KubeReviewer { client }
    }
}

/// The SelfSubjectAccessReview request for `request` (`POST
/// /apis/authorization.k8s.io/v1/selfsubjectaccessreviews`, JSON).
///
/// # Errors
/// [`ProfileError::Review`] when the request cannot be built.
pub fn access_review_request(
    request: &AccessRequest,
) -> Result<http::Request<Vec<u8>>, ProfileError> {
    review_request(
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        &SelfSubjectAccessReview::new(request),
        "SelfSubjectAccessReview",
    )
}

/// The SelfSubjectRulesReview request for `namespace` (`POST
/// /apis/authorization.k8s.io/v1/selfsubjectrulesreviews`, JSON).
///
/// # Errors
/// [`ProfileError::Review`] when the request cannot be built.
pub fn rules_review_request(namespace: &str) -> Result<http::Request<Vec<u8>>, ProfileError> {
    review_request(
        "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
        &SelfSubjectRulesReview::new(namespace),
        "SelfSubjectRulesReview",
    )
}

fn review_error(
    review: &'static str,
) -> impl Fn(Box<dyn std::error::Error + Send + Sync>) -> ProfileError {
    move |e| ProfileError::Review { review, source: e }
}

fn review_request<T: Serialize>(
    path: &str,
    body: &T,
    review: &'static str,
) -> Result<http::Request<Vec<u8>>, ProfileError> {
    let err = review_error(review);
    let bytes = serde_json::to_vec(body).map_err(|e| err(Box::new(e)))?;
    http::Request::post(path)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json")
        .body(bytes)
        .map_err(|e| err(Box::new(e)))
}

/// Sends a review through a raw transport and parses its `status`.
pub(crate) async fn raw_review<T: crate::api::RawTransport + ?Sized>(
    t: &T,
    request: &AccessRequest,
) -> Result<SubjectAccessReviewStatus, ProfileError> {
    let err = review_error("SelfSubjectAccessReview");
    let text = t
        .send_small(access_review_request(request)?)
        .await
        .map_err(|e| err(Box::new(e)))?;
    let r: SelfSubjectAccessReview = serde_json::from_str(&text).map_err(|e| err(Box::new(e)))?;
    check_review_answer(&r.kind, r.status.is_some(), "SelfSubjectAccessReview")
        .map_err(|e| err(Box::new(e)))?;
    Ok(r.status.unwrap_or_default())
}

/// A review answer is the review with its `status` filled (kube-apiserver always fills it,
/// k8s.io/kubernetes pkg/registry/authorization): another kind, or no status, is not an answer
/// (fresh-user G11: a plain `List` read as "nothing allowed, nothing incomplete").
fn check_review_answer(
    kind: &str,
    has_status: bool,
    review: &'static str,
) -> Result<(), crate::api::WrongAnswer> {
    if (kind.is_empty() || kind == review) && has_status {
        return Ok(());
    }
    Err(crate::api::WrongAnswer {
        request: format!("POST {review}"),
        expected: format!("a {review} with its status"),
        answer: if kind.is_empty() {
            "an object without kind or status".to_owned()
        } else {
            cube_model::terminal::escape_line(&kind.chars().take(80).collect::<String>())
                .into_owned()
        },
    })
}

/// Sends a rules review through a raw transport and parses its `status`.
pub(crate) async fn raw_rules<T: crate::api::RawTransport + ?Sized>(
    t: &T,
    namespace: &str,
) -> Result<SubjectRulesReviewStatus, ProfileError> {
    let err = review_error("SelfSubjectRulesReview");
    let text = t
        .send_small(rules_review_request(namespace)?)
        .await
        .map_err(|e| err(Box::new(e)))?;
    let r: SelfSubjectRulesReview = serde_json::from_str(&text).map_err(|e| err(Box::new(e)))?;
    check_review_answer(&r.kind, r.status.is_some(), "SelfSubjectRulesReview")
        .map_err(|e| err(Box::new(e)))?;
    Ok(r.status.unwrap_or_default())
}

#[async_trait::async_trait]
impl AccessReviewer for KubeReviewer {
    async fn review(
        &self,
        request: &AccessRequest,
    ) -> Result<SubjectAccessReviewStatus, ProfileError> {
        raw_review(&self.client, request).await
    }

    async fn rules(&self, namespace: &str) -> Result<SubjectRulesReviewStatus, ProfileError> {
        raw_rules(&self.client, namespace).await
    }
}

/// `kube::Client` reviews as its own credentials (the same requests as [`KubeReviewer`]).
#[async_trait::async_trait]
impl AccessReviewer for kube::Client {
    async fn review(
        &self,
        request: &AccessRequest,
    ) -> Result<SubjectAccessReviewStatus, ProfileError> {
        raw_review(self, request).await
    }

    async fn rules(&self, namespace: &str) -> Result<SubjectRulesReviewStatus, ProfileError> {
        raw_rules(self, namespace).await
    }
}

// ------------------------------------------------------------------ report

/// The answer to one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Outcome {
    /// Allowed.
    Allowed,
    /// Explicitly denied by an authorizer.
    Denied,
    /// No authorizer allowed it (what RBAC answers when no rule matches): effectively denied.
    NoOpinion,
    /// The review itself failed (see the result's `error`).
    Failed,
}

/// One check's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CheckResult {
    /// The check and namespace asked.
    pub scoped: ScopedCheck,
    /// Outcome.
    pub outcome: Outcome,
    /// The server's reason (`RBAC: allowed by ...`), or `""`.
    pub reason: String,
    /// The binding and role named by an RBAC allow reason (`None` for denials, `system:masters`
    /// and other authorizers).
    pub granted_by: Option<AllowReason>,
    /// The server's evaluationError, or the review failure.
    pub error: String,
}

/// A rule the subject lacks, ready to put in a Role/ClusterRole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissingRule {
    /// `None`: needs a ClusterRole + ClusterRoleBinding; `Some(ns)`: a Role + RoleBinding in ns.
    pub namespace: Option<String>,
    /// The exact rule.
    pub rule: PolicyRule,
}

impl fmt::Display for MissingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = match &self.namespace {
            None => "ClusterRole".to_string(),
            Some(ns) => format!("Role in namespace {ns}"),
        };
        write!(
            f,
            "{place}: {{apiGroups: {:?}, resources: {:?}, verbs: {:?}}}",
            self.rule.api_groups, self.rule.resources, self.rule.verbs
        )
    }
}

/// More access than any profile needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
#[non_exhaustive]
pub enum OverPrivilege {
    /// The subject may do everything everywhere (`*` verbs on `*` resources of `*` groups,
    /// cluster-wide): cluster-admin or `system:masters`.
    ClusterAdmin {
        /// The server's reason (names the binding), `""` for `system:masters`.
        reason: String,
    },
    /// A rule with `*` in verbs, resources or API groups applies to the subject.
    WildcardRule {
        /// Namespace whose rules were listed.
        namespace: String,
        /// The rule.
        rule: PolicyRule,
    },
    /// The subject can read Secrets in every namespace although the profile does not need it.
    SecretsReadable {
        /// The server's reason.
        reason: String,
    },
}

impl fmt::Display for OverPrivilege {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // an empty reason is all the server says for system:masters (allowed before RBAC)
            // and for some webhook authorizers: the group is not named as if it were known
            OverPrivilege::ClusterAdmin { reason } if reason.is_empty() => f.write_str(
                "credentials are cluster-admin (the server named no rule; members of system:masters are allowed everything this way, before RBAC)",
            ),
            OverPrivilege::ClusterAdmin { reason } => {
                write!(f, "credentials are cluster-admin ({reason})")
            }
            OverPrivilege::WildcardRule { namespace, rule } => write!(
                f,
                "wildcard rule applies in {}: apiGroups {:?} resources {:?} verbs {:?}",
                if namespace.is_empty() {
                    "cluster scope"
                } else {
                    namespace
                },
                rule.api_groups,
                rule.resources,
                rule.verbs
            ),
            OverPrivilege::SecretsReadable { reason } if reason.is_empty() => {
                f.write_str("can list secrets in all namespaces")
            }
            OverPrivilege::SecretsReadable { reason } => {
                write!(f, "can list secrets in all namespaces ({reason})")
            }
        }
    }
}

/// The result of checking a profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CapabilityReport {
    /// Profile name.
    pub profile: String,
    /// Profile notes (for example RBAC escalation rules).
    pub notes: Vec<String>,
    /// One result per check and namespace, in profile order.
    pub results: Vec<CheckResult>,
    /// The rules that would grant every check that is not allowed.
    pub missing: Vec<MissingRule>,
    /// Over-privilege warnings.
    pub warnings: Vec<OverPrivilege>,
    /// True when a rules review answered `incomplete` (a webhook authorizer is involved: the
    /// wildcard scan may miss rules), or failed (see [`CapabilityReport::review_errors`]).
    pub rules_incomplete: bool,
    /// The over-privilege reviews that failed (timeout, an answer that is not a review, a
    /// status code), each `review: reason`: the warnings may then miss something, never said
    /// silently (fresh-user G11).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub review_errors: Vec<String>,
}

impl CapabilityReport {
    /// Every check allowed.
    pub fn is_sufficient(&self) -> bool {
        self.results.iter().all(|r| r.outcome == Outcome::Allowed)
    }
}

/// Check `profile` (in `namespaces`) with `reviewer`, at most `concurrency` reviews in flight
/// (`0` counts as 1), then look for over-privilege: a `*` `*` `*` access review, a list-secrets
/// review across namespaces (unless the profile asks for secrets), and a rules review (in each
/// namespace, or `default`) scanned for `*` rules.
///
/// A failing review is recorded as [`Outcome::Failed`], never fatal.
///
/// # Errors
/// [`ProfileError::NamespacesRequired`] only.
pub async fn check_profile<R: AccessReviewer + ?Sized>(
    reviewer: &R,
    profile: &Profile,
    namespaces: &[String],
    concurrency: usize,
) -> Result<CapabilityReport, ProfileError> {
    let scoped = profile.expand(namespaces)?;
    let limit = concurrency.max(1);
    let mut answers: Vec<(usize, CheckResult)> = futures::stream::iter(scoped.iter().enumerate())
        .map(|(i, sc)| async move {
            let request = sc.check.request(&sc.namespace);
            let result = match reviewer.review(&request).await {
                Ok(s) => CheckResult {
                    scoped: sc.clone(),
                    outcome: if s.allowed {
                        Outcome::Allowed
                    } else if s.denied {
                        Outcome::Denied
                    } else {
                        Outcome::NoOpinion
                    },
                    granted_by: AllowReason::parse(&s.reason),
                    reason: s.reason,
                    error: s.evaluation_error,
                },
                Err(e) => CheckResult {
                    scoped: sc.clone(),
                    outcome: Outcome::Failed,
                    reason: String::new(),
                    granted_by: None,
                    error: error_chain(&e),
                },
            };
            (i, result)
        })
        .buffer_unordered(limit)
        .collect()
        .await;
    answers.sort_by_key(|(i, _)| *i);
    let results: Vec<CheckResult> = answers.into_iter().map(|(_, r)| r).collect();

    let lacking: Vec<ScopedCheck> = results
        .iter()
        .filter(|r| r.outcome != Outcome::Allowed)
        .map(|r| r.scoped.clone())
        .collect();
    let missing = rules_granting(&lacking)
        .into_iter()
        .flat_map(|s| {
            let ns = s.namespace;
            s.rules.into_iter().map(move |rule| MissingRule {
                namespace: ns.clone(),
                rule,
            })
        })
        .collect();

    let mut warnings = Vec::new();
    let mut review_errors = Vec::new();
    match reviewer
        .review(&AccessRequest::resource("*", "*", "*"))
        .await
    {
        Ok(s) if s.allowed => warnings.push(OverPrivilege::ClusterAdmin { reason: s.reason }),
        Ok(_) => {}
        Err(e) => review_errors.push(format!(
            "the cluster-admin check (* * *) failed: {}",
            error_chain(&e)
        )),
    }
    let wants_secrets = profile
        .checks
        .iter()
        .any(|c| c.group.is_empty() && c.resource == "secrets");
    if !wants_secrets {
        match reviewer
            .review(&AccessRequest::resource("list", "", "secrets"))
            .await
        {
            Ok(s) if s.allowed => {
                warnings.push(OverPrivilege::SecretsReadable { reason: s.reason })
            }
            Ok(_) => {}
            Err(e) => review_errors.push(format!(
                "the list-secrets check failed: {}",
                error_chain(&e)
            )),
        }
    }
    let mut rules_incomplete = false;
    let mut scan: Vec<String> = namespaces.to_vec();
    if scan.is_empty() {
        scan.push("default".to_string());
    }
    for ns in &scan {
        let status = match reviewer.rules(ns).await {
            Ok(s) => s,
            Err(e) => {
                rules_incomplete = true;
                review_errors.push(format!(
                    "the rules review in namespace {ns} failed (wildcard rules not scanned): {}",
                    error_chain(&e)
                ));
                continue;
            }
        };
        rules_incomplete |= status.incomplete;
        for rule in status.resource_rules {
            let wild = rule.verbs.iter().any(|v| v == "*")
                || rule.resources.iter().any(|r| r == "*")
                || rule.api_groups.iter().any(|g| g == "*");
            let w = OverPrivilege::WildcardRule {
                namespace: ns.clone(),
                rule,
            };
            if wild && !warnings.iter().any(|x| same_rule(x, &w)) {
                warnings.push(w);
            }
        }
    }
    Ok(CapabilityReport {
        profile: profile.name.clone(),
        notes: profile.notes.clone(),
        results,
        missing,
        warnings,
        rules_incomplete,
        review_errors,
    })
}

fn same_rule(a: &OverPrivilege, b: &OverPrivilege) -> bool {
    matches!((a, b), (OverPrivilege::WildcardRule { rule: x, .. }, OverPrivilege::WildcardRule { rule: y, .. }) if x == y)
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_profiles_load() {
        let all = Profile::list_from_yaml_str(BUILTIN_YAML).expect("built-in yaml");
        let names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "cube-minimal",
                "view-nodes",
                "console-readonly",
                "resource-group-admin",
                "workload-submit"
            ]
        );
        assert_eq!(Profile::builtins(), all);
        assert!(matches!(
            Profile::builtin("nope"),
            Err(ProfileError::UnknownProfile { .. })
        ));
    }

    #[test]
    fn rules_merge_resources_with_equal_verbs() {
        let p = Profile::builtin("console-readonly").unwrap();
        let rules = p.grant_rules(&[]).unwrap();
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].namespace, None);
        assert_eq!(
            rules[0].rules,
            [PolicyRule {
                verbs: vec!["get".into(), "list".into(), "watch".into()],
                api_groups: vec!["".into()],
                resources: vec![
                    "events".into(),
                    "namespaces".into(),
                    "nodes".into(),
                    "pods".into()
                ],
                ..Default::default()
            }]
        );
    }

    #[test]
    fn workload_submit_needs_namespaces() {
        let p = Profile::builtin("workload-submit").unwrap();
        assert!(matches!(
            p.expand(&[]),
            Err(ProfileError::NamespacesRequired { .. })
        ));
        let ns = vec!["a".to_string(), "b".to_string()];
        assert_eq!(p.expand(&ns).unwrap().len(), 14);
    }

    #[test]
    fn every_capability_states_its_verbs_exactly() {
        // view-nodes is what `kubectl get nodes` needs: list as well as get.
        let v = Profile::builtin("view-nodes").unwrap();
        let verbs: Vec<&str> = v.checks.iter().map(|c| c.verb.as_str()).collect();
        assert_eq!(verbs, ["get", "list"]);
        let m = Profile::builtin(DEFAULT_PROFILE).unwrap();
        let asked: Vec<(String, Scope)> = m
            .checks
            .iter()
            .map(|c| (format!("{} {}", c.verb, c.resource), c.scope))
            .collect();
        assert_eq!(
            asked,
            [
                ("list nodes".to_string(), Scope::Cluster),
                ("list pods".to_string(), Scope::AllNamespaces)
            ]
        );
        for bad in [
            "name: x\nchecks: [{group: '', resource: nodes, scope: cluster}]",
            "name: x\nchecks: [{verb: '*', resource: nodes, scope: cluster}]",
            "name: x\nchecks: [{verbs: [get, '*'], resource: nodes, scope: cluster}]",
            "name: x\nchecks: [{verb: get, verbs: [list], resource: nodes, scope: cluster}]",
            "name: x\nchecks: [{verb: get, resource: '*', scope: cluster}]",
            "name: x\nchecks: []",
        ] {
            assert!(Profile::list_from_yaml_str(bad).is_err(), "{bad}");
        }
        let ok = Profile::list_from_yaml_str(
            "name: x\nchecks: [{verbs: [get, list, get], resource: nodes, scope: cluster}]",
        )
        .unwrap();
        assert_eq!(ok[0].checks.len(), 2);
    }
}
