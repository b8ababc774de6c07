//! Offline RBAC evaluation: "may this user do that?" from Role, ClusterRole, RoleBinding and
//! ClusterRoleBinding objects, with no cluster.
//!
//! Pure: no I/O. Mirrors kubernetes/kubernetes `plugin/pkg/auth/authorizer/rbac/rbac.go`
//! (`RBACAuthorizer.Authorize`, `RuleAllows`), `pkg/apis/rbac/v1/evaluation_helpers.go` (the
//! matchers), `pkg/registry/rbac/validation/rule.go` (`VisitRulesFor`, `appliesTo`, the binding
//! describers that make the reason text) and `pkg/controller/clusterroleaggregation` (aggregation).
//! See K8S-SEMANTICS.md section 7 and 10.10.
//!
//! ```
//! use cube_cluster::rbac::{AccessRequest, RbacPolicy, UserInfo};
//!
//! let yaml = r#"
//! apiVersion: rbac.authorization.k8s.io/v1
//! kind: ClusterRole
//! metadata: {name: node-reader}
//! rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list]}]
//! ---
//! apiVersion: rbac.authorization.k8s.io/v1
//! kind: ClusterRoleBinding
//! metadata: {name: read-nodes}
//! roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-reader}
//! subjects: [{kind: User, name: alice, apiGroup: rbac.authorization.k8s.io}]
//! "#;
//! let policy = RbacPolicy::from_yaml_str(yaml).unwrap();
//! let alice = UserInfo::authenticated("alice", ["dev"]);
//! let d = policy.authorize(&alice, &AccessRequest::resource("get", "", "nodes"));
//! assert!(d.allowed);
//! assert_eq!(
//!     d.reason,
//!     r#"RBAC: allowed by ClusterRoleBinding "read-nodes" of ClusterRole "node-reader" to User "alice""#
//! );
//! ```

use std::collections::BTreeMap;
use std::fmt;

use cube_model::ClusterSnapshot;
use cube_model::objects::{LabelSelector, ObjectMeta, PolicyRule, Role, RoleBinding, Subject};
use serde::{Deserialize, Serialize};

/// `rbacv1.VerbAll`, `ResourceAll`, `APIGroupAll`, `NonResourceAll`.
pub const ALL: &str = "*";
/// The group every authenticated user carries (added by the authenticator, not by RBAC).
pub const GROUP_AUTHENTICATED: &str = "system:authenticated";
/// The group every ServiceAccount carries.
pub const GROUP_SERVICE_ACCOUNTS: &str = "system:serviceaccounts";
/// The privileged group that kube-apiserver allows before RBAC runs (no reason text).
pub const GROUP_MASTERS: &str = "system:masters";

/// Errors of the offline RBAC evaluator (parsing policy text).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RbacError {
    /// The text is neither JSON nor YAML.
    #[error("cannot parse rbac policy text from {source_label}")]
    Parse {
        /// File name or label of the text.
        source_label: String,
        /// Parser message.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// Who asks: a user name plus groups, as the authenticator hands them to RBAC (`user.Info`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInfo {
    /// User name (`alice`, `system:serviceaccount:ns:name`).
    pub name: String,
    /// Groups, exactly as given (no group is added implicitly).
    pub groups: Vec<String>,
}

impl UserInfo {
    /// A user with exactly these groups (nothing implicit, as in upstream's authorizer tests).
    pub fn new<I, S>(name: impl Into<String>, groups: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        UserInfo {
            name: name.into(),
            groups: groups.into_iter().map(Into::into).collect(),
        }
    }

    /// An authenticated user: `groups` plus `system:authenticated`, as every real authenticator adds.
    pub fn authenticated<I, S>(name: impl Into<String>, groups: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut u = UserInfo::new(name, groups);
        if !u.groups.iter().any(|g| g == GROUP_AUTHENTICATED) {
            u.groups.push(GROUP_AUTHENTICATED.to_string());
        }
        u
    }

    /// A ServiceAccount as its token authenticates: user `system:serviceaccount:<ns>:<name>`, groups
    /// `system:serviceaccounts`, `system:serviceaccounts:<ns>`, `system:authenticated`
    /// (k8s.io/apiserver `pkg/authentication/serviceaccount`).
    pub fn service_account(namespace: &str, name: &str) -> Self {
        UserInfo {
            name: service_account_username(namespace, name),
            groups: vec![
                GROUP_SERVICE_ACCOUNTS.to_string(),
                format!("{GROUP_SERVICE_ACCOUNTS}:{namespace}"),
                GROUP_AUTHENTICATED.to_string(),
            ],
        }
    }

    fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }
}

/// `system:serviceaccount:<namespace>:<name>` (upstream `serviceaccount.MakeUsername`).
pub fn service_account_username(namespace: &str, name: &str) -> String {
    format!("system:serviceaccount:{namespace}:{name}")
}

/// The attributes of a resource request (`authorization/v1` `ResourceAttributes`; also the wire
/// shape of a SelfSubjectAccessReview's `spec.resourceAttributes`).
///
/// Empty strings mean "not set": `group` `""` is the core group, `namespace` `""` a cluster-scoped
/// request or one across all namespaces, `name` `""` a request without an object name (create,
/// list, watch, deletecollection).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceAttributes {
    /// Namespace, `""` for cluster scope or all namespaces.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Verb (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`,
    /// `impersonate`, `bind`, `escalate`, ...). Case-sensitive.
    pub verb: String,
    /// API group, `""` = core.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// API version; RBAC ignores it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// Resource (plural, lowercase: `pods`).
    pub resource: String,
    /// Subresource (`log`, `status`, `scale`), `""` for none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub subresource: String,
    /// Object name, `""` for none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// The attributes of a non-resource request (`authorization/v1` `NonResourceAttributes`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct NonResourceAttributes {
    /// URL path (`/healthz`, `/apis/v1`).
    pub path: String,
    /// HTTP verb in lowercase as the apiserver maps it (`get`, `post`, ...).
    pub verb: String,
}

/// One question for the authorizer: a resource request or a non-resource request.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum AccessRequest {
    /// A request on an API resource.
    Resource(ResourceAttributes),
    /// A request on a non-resource URL.
    NonResource(NonResourceAttributes),
}

impl AccessRequest {
    /// A cluster-wide (or all-namespaces) resource request.
    pub fn resource(verb: &str, group: &str, resource: &str) -> Self {
        AccessRequest::Resource(ResourceAttributes {
            verb: verb.to_string(),
            group: group.to_string(),
            resource: resource.to_string(),
            ..Default::default()
        })
    }

    /// A non-resource request.
    pub fn non_resource(verb: &str, path: &str) -> Self {
        AccessRequest::NonResource(NonResourceAttributes {
            path: path.to_string(),
            verb: verb.to_string(),
        })
    }

    /// The same request in `namespace` (no effect on non-resource requests).
    #[must_use]
    pub fn in_namespace(mut self, namespace: &str) -> Self {
        if let AccessRequest::Resource(a) = &mut self {
            a.namespace = namespace.to_string();
        }
        self
    }

    /// The same request on `subresource` (no effect on non-resource requests).
    #[must_use]
    pub fn with_subresource(mut self, subresource: &str) -> Self {
        if let AccessRequest::Resource(a) = &mut self {
            a.subresource = subresource.to_string();
        }
        self
    }

    /// The same request on the object `name` (no effect on non-resource requests).
    #[must_use]
    pub fn with_name(mut self, name: &str) -> Self {
        if let AccessRequest::Resource(a) = &mut self {
            a.name = name.to_string();
        }
        self
    }

    /// The namespace the request is in (`""` for cluster scope and non-resource requests).
    pub fn namespace(&self) -> &str {
        match self {
            AccessRequest::Resource(a) => &a.namespace,
            AccessRequest::NonResource(_) => "",
        }
    }
}

impl fmt::Display for AccessRequest {
    /// `kubectl auth can-i`-like text: `list pods -n ns`, `get pods/log name -n ns`,
    /// `update deployments.apps/scale`, `get /healthz`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessRequest::Resource(a) => {
                write!(f, "{} {}", a.verb, a.resource)?;
                if !a.group.is_empty() {
                    write!(f, ".{}", a.group)?;
                }
                if !a.subresource.is_empty() {
                    write!(f, "/{}", a.subresource)?;
                }
                if !a.name.is_empty() {
                    write!(f, " {}", a.name)?;
                }
                if a.namespace.is_empty() {
                    write!(f, " (cluster-wide)")
                } else {
                    write!(f, " -n {}", a.namespace)
                }
            }
            AccessRequest::NonResource(a) => write!(f, "{} {}", a.verb, a.path),
        }
    }
}

// ------------------------------------------------------------------ matching (§7.1)

/// `VerbMatches`: a rule verb equals the request verb or is `*`.
pub fn verb_matches(rule: &PolicyRule, verb: &str) -> bool {
    rule.verbs.iter().any(|v| v == ALL || v == verb)
}

/// `APIGroupMatches`: a rule group equals the request group (`""` = core) or is `*`.
pub fn api_group_matches(rule: &PolicyRule, group: &str) -> bool {
    rule.api_groups.iter().any(|g| g == ALL || g == group)
}

/// `ResourceMatches`: a rule resource is `*`, equals `resource[/subresource]`, or is
/// `*/<subresource>` when the request has that subresource.
pub fn resource_matches(rule: &PolicyRule, combined: &str, subresource: &str) -> bool {
    rule.resources.iter().any(|r| {
        r == ALL
            || r == combined
            || (!subresource.is_empty()
                && r.len() == subresource.len() + 2
                && r.starts_with("*/")
                && r.ends_with(subresource))
    })
}

/// `ResourceNameMatches`: an empty list matches every name; otherwise the name must be listed
/// (so an empty request name never matches a list of real names).
pub fn resource_name_matches(rule: &PolicyRule, name: &str) -> bool {
    rule.resource_names.is_empty() || rule.resource_names.iter().any(|n| n == name)
}

/// `NonResourceURLMatches`: an entry is `*`, equals the path, or ends in `*` and the path starts
/// with the entry minus its trailing `*`s.
pub fn non_resource_url_matches(rule: &PolicyRule, path: &str) -> bool {
    rule.non_resource_urls.iter().any(|u| {
        u == ALL || u == path || (u.ends_with('*') && path.starts_with(u.trim_end_matches('*')))
    })
}

/// `RuleAllows`: does this one rule allow the request? Resource rules never match non-resource
/// requests and vice versa (a rule listing both kinds is judged per request kind, as upstream).
pub fn rule_allows(rule: &PolicyRule, request: &AccessRequest) -> bool {
    match request {
        AccessRequest::Resource(a) => {
            let combined;
            let combined = if a.subresource.is_empty() {
                a.resource.as_str()
            } else {
                combined = format!("{}/{}", a.resource, a.subresource);
                combined.as_str()
            };
            verb_matches(rule, &a.verb)
                && api_group_matches(rule, &a.group)
                && resource_matches(rule, combined, &a.subresource)
                && resource_name_matches(rule, &a.name)
        }
        AccessRequest::NonResource(a) => {
            verb_matches(rule, &a.verb) && non_resource_url_matches(rule, &a.path)
        }
    }
}

/// `RulesAllow`: any of the rules allows the request.
pub fn rules_allow<'a>(
    rules: impl IntoIterator<Item = &'a PolicyRule>,
    request: &AccessRequest,
) -> bool {
    rules.into_iter().any(|r| rule_allows(r, request))
}

// ------------------------------------------------------------------ policy

/// Which of the four RBAC kinds a binding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum BindingKind {
    /// A namespaced `RoleBinding`: grants only inside its namespace.
    RoleBinding,
    /// A `ClusterRoleBinding`: grants everywhere, cluster-scoped and non-resource included.
    ClusterRoleBinding,
}

impl BindingKind {
    /// The binding's kind: `kind` when set, otherwise by namespace (empty = cluster binding).
    pub fn of(binding: &RoleBinding) -> Self {
        match binding.kind.as_str() {
            "ClusterRoleBinding" => BindingKind::ClusterRoleBinding,
            "RoleBinding" => BindingKind::RoleBinding,
            _ if binding.metadata.namespace.is_empty() => BindingKind::ClusterRoleBinding,
            _ => BindingKind::RoleBinding,
        }
    }
}

impl fmt::Display for BindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BindingKind::RoleBinding => "RoleBinding",
            BindingKind::ClusterRoleBinding => "ClusterRoleBinding",
        })
    }
}

/// True when `role` is a ClusterRole: `kind` when set, otherwise by namespace.
pub fn is_cluster_role(role: &Role) -> bool {
    match role.kind.as_str() {
        "ClusterRole" => true,
        "Role" => false,
        _ => role.metadata.namespace.is_empty(),
    }
}

/// The rule and binding that allowed a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Grant {
    /// Kind of the binding.
    pub binding_kind: BindingKind,
    /// Binding name.
    pub binding_name: String,
    /// Binding namespace (`""` for a ClusterRoleBinding).
    pub binding_namespace: String,
    /// `Role` or `ClusterRole`.
    pub role_kind: String,
    /// Role name.
    pub role_name: String,
    /// The subject of the binding that matched the user.
    pub subject: Subject,
    /// The rule that matched.
    pub rule: PolicyRule,
}

impl Grant {
    /// Upstream's binding describer, e.g. `ClusterRoleBinding "x" of ClusterRole "y" to User "z"`
    /// or `RoleBinding "name/ns" of ClusterRole "edit" to ServiceAccount "sa/ns"`.
    pub fn describe(&self) -> String {
        let binding = match self.binding_kind {
            BindingKind::ClusterRoleBinding => go_quote(&self.binding_name),
            BindingKind::RoleBinding => {
                go_quote(&format!("{}/{}", self.binding_name, self.binding_namespace))
            }
        };
        format!(
            "{} {} of {} {} to {}",
            self.binding_kind,
            binding,
            self.role_kind,
            go_quote(&self.role_name),
            describe_subject(&self.subject, &self.binding_namespace)
        )
    }
}

/// Go's `%q` for the names RBAC prints (escape `\` and `"`, and control characters).
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn describe_subject(s: &Subject, binding_namespace: &str) -> String {
    if s.kind == "ServiceAccount" {
        let ns = if s.namespace.is_empty() {
            binding_namespace
        } else {
            &s.namespace
        };
        format!("{} {}", s.kind, go_quote(&format!("{}/{}", s.name, ns)))
    } else {
        format!("{} {}", s.kind, go_quote(&s.name))
    }
}

/// The parts of an RBAC allow reason as the server writes it
/// (`RBAC: allowed by RoleBinding "limited-edit/gpu-test" of ClusterRole "edit" to User "limited"`),
/// so a report can name the binding that grants a check. The inverse of [`Grant::describe`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AllowReason {
    /// Kind of the binding.
    pub binding_kind: BindingKind,
    /// Binding name.
    pub binding_name: String,
    /// Binding namespace (`""` for a ClusterRoleBinding).
    pub binding_namespace: String,
    /// `Role` or `ClusterRole`.
    pub role_kind: String,
    /// Role name.
    pub role_name: String,
    /// `User`, `Group` or `ServiceAccount`.
    pub subject_kind: String,
    /// Subject name.
    pub subject_name: String,
    /// ServiceAccount namespace (`""` for users and groups).
    pub subject_namespace: String,
}

impl AllowReason {
    /// Parse a review reason. `None` for an empty reason (a plain RBAC denial, or
    /// `system:masters`), another authorizer's text, or anything malformed.
    pub fn parse(reason: &str) -> Option<Self> {
        let rest = reason.strip_prefix("RBAC: allowed by ")?;
        let (binding_kind, rest) = rest.split_once(' ')?;
        let binding_kind = match binding_kind {
            "ClusterRoleBinding" => BindingKind::ClusterRoleBinding,
            "RoleBinding" => BindingKind::RoleBinding,
            _ => return None,
        };
        let (binding, rest) = go_unquote(rest)?;
        let rest = rest.strip_prefix(" of ")?;
        let (role_kind, rest) = rest.split_once(' ')?;
        let (role_name, rest) = go_unquote(rest)?;
        let rest = rest.strip_prefix(" to ")?;
        let (subject_kind, rest) = rest.split_once(' ')?;
        let (subject, rest) = go_unquote(rest)?;
        if !rest.is_empty() {
            return None;
        }
        let (binding_name, binding_namespace) = match binding_kind {
            BindingKind::RoleBinding => {
                let (n, ns) = binding.split_once('/')?;
                (n.to_string(), ns.to_string())
            }
            BindingKind::ClusterRoleBinding => (binding, String::new()),
        };
        let (subject_name, subject_namespace) = if subject_kind == "ServiceAccount" {
            let (n, ns) = subject.split_once('/')?;
            (n.to_string(), ns.to_string())
        } else {
            (subject, String::new())
        };
        Some(AllowReason {
            binding_kind,
            binding_name,
            binding_namespace,
            role_kind: role_kind.to_string(),
            role_name,
            subject_kind: subject_kind.to_string(),
            subject_name,
            subject_namespace,
        })
    }
}

/// Read one Go-quoted string at the start of `s`; returns it and the rest.
fn go_unquote(s: &str) -> Option<(String, &str)> {
    let body = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, body.get(i + 1..)?)),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// The answer of [`RbacPolicy::authorize`]: `Decision{allowed, reason}` as RBAC returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Decision {
    /// True when some rule of some applicable binding allows the request.
    pub allowed: bool,
    /// The reason text as the server's review would show it: `RBAC: allowed by ...` when allowed;
    /// when not allowed, `""` (RBAC denials carry no reason) or `RBAC: <errors>` when bindings
    /// reference missing roles (`RBAC: clusterrole.rbac.authorization.k8s.io "x" not found`).
    /// Empty for `system:masters`, which kube-apiserver allows before RBAC runs.
    pub reason: String,
    /// What allowed it (`None` when not allowed or allowed as `system:masters`).
    pub grant: Option<Grant>,
    /// Role-resolution errors met on the way (dangling roleRefs), in visiting order.
    pub errors: Vec<String>,
}

/// A binding whose roleRef names a Role or ClusterRole that does not exist (§10.10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct DanglingRoleRef {
    /// Kind of the binding.
    pub binding_kind: BindingKind,
    /// Binding name.
    pub binding_name: String,
    /// Binding namespace (`""` for ClusterRoleBindings).
    pub binding_namespace: String,
    /// Upstream's lookup error: `clusterrole.rbac.authorization.k8s.io "x" not found`.
    pub message: String,
}

/// A set of RBAC objects, ready to answer questions. ClusterRole aggregation is applied when the
/// policy is built.
#[derive(Debug, Clone, Default)]
pub struct RbacPolicy {
    cluster_roles: BTreeMap<String, Role>,
    roles: BTreeMap<(String, String), Role>,
    cluster_role_bindings: Vec<RoleBinding>,
    role_bindings: Vec<RoleBinding>,
    /// Non-fatal notes from loading (skipped kinds, unreadable documents).
    pub notes: Vec<String>,
}

impl RbacPolicy {
    /// Build from roles (Roles and ClusterRoles, told apart by `kind`, else by namespace) and
    /// bindings (RoleBindings and ClusterRoleBindings, same rule). Later duplicates of a name win,
    /// as a later `kubectl apply` would. ClusterRole aggregation (§7.3) is applied.
    pub fn new(
        roles: impl IntoIterator<Item = Role>,
        bindings: impl IntoIterator<Item = RoleBinding>,
    ) -> Self {
        let mut p = RbacPolicy::default();
        for r in roles {
            if is_cluster_role(&r) {
                p.cluster_roles.insert(r.metadata.name.clone(), r);
            } else {
                p.roles
                    .insert((r.metadata.namespace.clone(), r.metadata.name.clone()), r);
            }
        }
        for b in bindings {
            match BindingKind::of(&b) {
                BindingKind::ClusterRoleBinding => p.cluster_role_bindings.push(b),
                BindingKind::RoleBinding => p.role_bindings.push(b),
            }
        }
        p.aggregate();
        p
    }

    /// Build from the RBAC objects of a snapshot.
    pub fn from_snapshot(snapshot: &ClusterSnapshot) -> Self {
        RbacPolicy::new(
            snapshot.roles.iter().cloned(),
            snapshot.role_bindings.iter().cloned(),
        )
    }

    /// Parse JSON (an object or a `List`) or multi-document YAML (documents may be `List`s) and
    /// keep Role, ClusterRole, RoleBinding and ClusterRoleBinding objects. Other kinds and
    /// unreadable objects are skipped with a note in [`RbacPolicy::notes`].
    ///
    /// # Errors
    /// [`RbacError::Parse`] when the text is not JSON or YAML at all.
    pub fn from_yaml_str(text: &str) -> Result<Self, RbacError> {
        Self::from_text(text, "<input>")
    }

    /// Same as [`RbacPolicy::from_yaml_str`], naming the source in errors and notes.
    ///
    /// # Errors
    /// [`RbacError::Parse`] when the text is not JSON or YAML at all.
    pub fn from_text(text: &str, source_label: &str) -> Result<Self, RbacError> {
        let docs = parse_documents(text, source_label)?;
        let mut roles = Vec::new();
        let mut bindings = Vec::new();
        let mut notes = Vec::new();
        for (i, doc) in docs.into_iter().enumerate() {
            collect_objects(doc, source_label, i, &mut roles, &mut bindings, &mut notes);
        }
        let mut p = RbacPolicy::new(roles, bindings);
        p.notes.extend(notes);
        Ok(p)
    }

    /// The ClusterRole named `name`, after aggregation.
    pub fn cluster_role(&self, name: &str) -> Option<&Role> {
        self.cluster_roles.get(name)
    }

    /// The Role `namespace/name`.
    pub fn role(&self, namespace: &str, name: &str) -> Option<&Role> {
        self.roles.get(&(namespace.to_string(), name.to_string()))
    }

    /// All bindings, ClusterRoleBindings first.
    pub fn bindings(&self) -> impl Iterator<Item = &RoleBinding> {
        self.cluster_role_bindings
            .iter()
            .chain(self.role_bindings.iter())
    }

    /// §7.3: replace the rules of every ClusterRole with an aggregationRule by the union of the
    /// rules of the ClusterRoles its selectors match (selectors in order, matches sorted by name,
    /// itself skipped, exact duplicates dropped). Repeated until nothing changes, which is what the
    /// controller reaches by re-running on every ClusterRole change. When no ClusterRole of the
    /// input matches at all (a partial dump), the stored rules are kept and a note says so: the
    /// live controller would have filled them from roles we were not given.
    fn aggregate(&mut self) {
        let aggregating: Vec<String> = self
            .cluster_roles
            .values()
            .filter(|r| r.aggregation_rule.is_some())
            .map(|r| r.metadata.name.clone())
            .collect();
        if aggregating.is_empty() {
            return;
        }
        let mut unmatched: Vec<String> = Vec::new();
        for _round in 0..=aggregating.len() {
            let mut changed = false;
            for name in &aggregating {
                let Some(rule) = self
                    .cluster_roles
                    .get(name)
                    .and_then(|r| r.aggregation_rule.clone())
                else {
                    continue;
                };
                let mut new_rules: Vec<PolicyRule> = Vec::new();
                let mut matched_any = false;
                for sel in &rule.cluster_role_selectors {
                    // BTreeMap iterates by name: the controller's sort by name.
                    for other in self.cluster_roles.values() {
                        if &other.metadata.name == name || !selector_matches(sel, &other.metadata) {
                            continue;
                        }
                        matched_any = true;
                        for r in &other.rules {
                            if !new_rules.contains(r) {
                                new_rules.push(r.clone());
                            }
                        }
                    }
                }
                if !matched_any {
                    // A partial input (say `kubectl get clusterrole admin -o yaml` alone): none of
                    // the source roles is here, so keep the rules the controller stored.
                    if !unmatched.contains(name) {
                        unmatched.push(name.clone());
                    }
                    continue;
                }
                if let Some(role) = self.cluster_roles.get_mut(name)
                    && role.rules != new_rules
                {
                    role.rules = new_rules;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for name in unmatched {
            self.notes.push(format!(
                "clusterrole {name}: no clusterrole of the input matches its aggregationRule; \
                 its stored rules are used as they are"
            ));
        }
    }

    /// `GetRoleReferenceRules`: the rules a binding's roleRef points at, or upstream's not-found text.
    fn role_ref_rules(
        &self,
        b: &RoleBinding,
        binding_namespace: &str,
    ) -> Result<&[PolicyRule], String> {
        match b.role_ref.kind.as_str() {
            "ClusterRole" => self
                .cluster_roles
                .get(&b.role_ref.name)
                .map(|r| r.rules.as_slice())
                .ok_or_else(|| {
                    format!(
                        "clusterrole.rbac.authorization.k8s.io {} not found",
                        go_quote(&b.role_ref.name)
                    )
                }),
            "Role" => self
                .roles
                .get(&(binding_namespace.to_string(), b.role_ref.name.clone()))
                .map(|r| r.rules.as_slice())
                .ok_or_else(|| {
                    format!(
                        "role.rbac.authorization.k8s.io {} not found",
                        go_quote(&b.role_ref.name)
                    )
                }),
            other => Err(format!(
                "unsupported role reference kind: {}",
                go_quote(other)
            )),
        }
    }

    /// Every binding whose roleRef cannot be resolved, with upstream's lookup error text.
    pub fn dangling_role_refs(&self) -> Vec<DanglingRoleRef> {
        let mut out = Vec::new();
        for b in &self.cluster_role_bindings {
            if let Err(message) = self.role_ref_rules(b, "") {
                out.push(DanglingRoleRef {
                    binding_kind: BindingKind::ClusterRoleBinding,
                    binding_name: b.metadata.name.clone(),
                    binding_namespace: String::new(),
                    message,
                });
            }
        }
        for b in &self.role_bindings {
            if let Err(message) = self.role_ref_rules(b, &b.metadata.namespace) {
                out.push(DanglingRoleRef {
                    binding_kind: BindingKind::RoleBinding,
                    binding_name: b.metadata.name.clone(),
                    binding_namespace: b.metadata.namespace.clone(),
                    message,
                });
            }
        }
        out
    }

    /// `VisitRulesFor`: call `visit(grant_source, rule)` for every rule that applies to `user` in
    /// `namespace` (ClusterRoleBindings first, then the RoleBindings of `namespace` when it is not
    /// empty). Stops when `visit` returns false. Returns the role-resolution errors met.
    fn visit_rules(
        &self,
        user: &UserInfo,
        namespace: &str,
        mut visit: impl FnMut(&RoleBinding, BindingKind, &Subject, &PolicyRule) -> bool,
    ) -> Vec<String> {
        let mut errors = Vec::new();
        for b in &self.cluster_role_bindings {
            let Some(subject) = applies_to(user, &b.subjects, "") else {
                continue;
            };
            match self.role_ref_rules(b, "") {
                Ok(rules) => {
                    for r in rules {
                        if !visit(b, BindingKind::ClusterRoleBinding, subject, r) {
                            return errors;
                        }
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        if !namespace.is_empty() {
            for b in self
                .role_bindings
                .iter()
                .filter(|b| b.metadata.namespace == namespace)
            {
                let Some(subject) = applies_to(user, &b.subjects, namespace) else {
                    continue;
                };
                match self.role_ref_rules(b, namespace) {
                    Ok(rules) => {
                        for r in rules {
                            if !visit(b, BindingKind::RoleBinding, subject, r) {
                                return errors;
                            }
                        }
                    }
                    Err(e) => errors.push(e),
                }
            }
        }
        errors
    }

    /// `RBACAuthorizer.Authorize`, preceded by kube-apiserver's `system:masters` shortcut: may
    /// `user` do `request`?
    pub fn authorize(&self, user: &UserInfo, request: &AccessRequest) -> Decision {
        if user.in_group(GROUP_MASTERS) {
            return Decision {
                allowed: true,
                reason: String::new(),
                grant: None,
                errors: Vec::new(),
            };
        }
        let mut grant = None;
        let errors = self.visit_rules(user, request.namespace(), |b, kind, subject, rule| {
            if rule_allows(rule, request) {
                grant = Some(Grant {
                    binding_kind: kind,
                    binding_name: b.metadata.name.clone(),
                    binding_namespace: b.metadata.namespace.clone(),
                    role_kind: b.role_ref.kind.clone(),
                    role_name: b.role_ref.name.clone(),
                    subject: subject.clone(),
                    rule: rule.clone(),
                });
                false
            } else {
                true
            }
        });
        match grant {
            Some(g) => Decision {
                allowed: true,
                reason: format!("RBAC: allowed by {}", g.describe()),
                grant: Some(g),
                errors,
            },
            None => Decision {
                allowed: false,
                reason: match errors.len() {
                    0 => String::new(),
                    1 => format!("RBAC: {}", errors[0]),
                    _ => format!("RBAC: [{}]", errors.join(", ")),
                },
                grant: None,
                errors,
            },
        }
    }

    /// `RulesFor`: every rule that applies to `user` in `namespace` (what a
    /// SelfSubjectRulesReview lists, before the server's compaction), with the resolution errors.
    pub fn rules_for(&self, user: &UserInfo, namespace: &str) -> (Vec<PolicyRule>, Vec<String>) {
        let mut rules = Vec::new();
        let errors = self.visit_rules(user, namespace, |_, _, _, r| {
            rules.push(r.clone());
            true
        });
        (rules, errors)
    }
}

/// `appliesTo`: the first subject that names this user.
fn applies_to<'a>(
    user: &UserInfo,
    subjects: &'a [Subject],
    namespace: &str,
) -> Option<&'a Subject> {
    subjects
        .iter()
        .find(|s| applies_to_user(user, s, namespace))
}

/// `appliesToUser`: User by name, Group by membership, ServiceAccount by its user name (a
/// ServiceAccount subject without namespace takes the binding's namespace).
fn applies_to_user(user: &UserInfo, s: &Subject, namespace: &str) -> bool {
    match s.kind.as_str() {
        "User" => user.name == s.name,
        "Group" => user.in_group(&s.name),
        "ServiceAccount" => {
            let ns = if s.namespace.is_empty() {
                namespace
            } else {
                &s.namespace
            };
            !ns.is_empty() && user.name == service_account_username(ns, &s.name)
        }
        _ => false,
    }
}

/// A `metav1.LabelSelector` against an object's labels (`matchLabels` and `matchExpressions` with
/// `In`, `NotIn`, `Exists`, `DoesNotExist`). An empty selector matches everything; an unknown
/// operator matches nothing (upstream rejects it as invalid).
pub fn selector_matches(sel: &LabelSelector, meta: &ObjectMeta) -> bool {
    let labels = &meta.labels;
    sel.match_labels
        .iter()
        .all(|(k, v)| labels.get(k) == Some(v))
        && sel.match_expressions.iter().all(|e| {
            let val = labels.get(&e.key);
            match e.operator.as_str() {
                "In" => val.is_some_and(|v| e.values.iter().any(|x| x == v)),
                "NotIn" => val.is_none_or(|v| !e.values.iter().any(|x| x == v)),
                "Exists" => val.is_some(),
                "DoesNotExist" => val.is_none(),
                _ => false,
            }
        })
}

// ------------------------------------------------------------------ text input

fn parse_documents(text: &str, source_label: &str) -> Result<Vec<serde_json::Value>, RbacError> {
    let trimmed = text.trim_start();
    if (trimmed.starts_with('{') || trimmed.starts_with('['))
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(text)
    {
        return Ok(match v {
            serde_json::Value::Array(items) => items,
            v => vec![v],
        });
    }
    let limits = cube_model::Limits::default();
    cube_model::yaml::from_multiple::<serde_json::Value>(
        text,
        &limits,
        serde_saphyr::Options::default(),
    )
    .map(|docs| docs.into_iter().filter(|d| !d.is_null()).collect())
    .map_err(|e| RbacError::Parse {
        source_label: source_label.to_string(),
        source: match cube_model::yaml::alias_limit_exceeded(&e, &limits, source_label) {
            Some(l) => Box::new(l),
            None => Box::new(e),
        },
    })
}

fn collect_objects(
    doc: serde_json::Value,
    source_label: &str,
    index: usize,
    roles: &mut Vec<Role>,
    bindings: &mut Vec<RoleBinding>,
    notes: &mut Vec<String>,
) {
    let kind = doc
        .get("kind")
        .and_then(|k| k.as_str())
        .unwrap_or_default()
        .to_string();
    match kind.as_str() {
        "Role" | "ClusterRole" => match serde_json::from_value::<Role>(doc) {
            Ok(r) => roles.push(r),
            Err(e) => notes.push(format!("{source_label}: document {index}: {kind}: {e}")),
        },
        "RoleBinding" | "ClusterRoleBinding" => match serde_json::from_value::<RoleBinding>(doc) {
            Ok(b) => bindings.push(b),
            Err(e) => notes.push(format!("{source_label}: document {index}: {kind}: {e}")),
        },
        k if k.ends_with("List") => {
            if let Some(serde_json::Value::Array(items)) = doc.get("items").cloned() {
                for item in items {
                    collect_objects(item, source_label, index, roles, bindings, notes);
                }
            }
        }
        "" => notes.push(format!(
            "{source_label}: document {index}: no kind, skipped"
        )),
        k => notes.push(format!(
            "{source_label}: document {index}: kind {k} skipped"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cube_model::objects::RoleRef;

    fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
        PolicyRule {
            verbs: verbs.iter().map(|s| s.to_string()).collect(),
            api_groups: groups.iter().map(|s| s.to_string()).collect(),
            resources: resources.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    #[track_caller]
    fn check(rule: &PolicyRule, req: &AccessRequest, expected: bool) {
        assert_eq!(rule_allows(rule, req), expected, "{rule:?} vs {req}");
    }

    #[test]
    fn allow_reason_round_trips() {
        let g = Grant {
            binding_kind: BindingKind::RoleBinding,
            binding_name: "sa-edit".into(),
            binding_namespace: "team".into(),
            role_kind: "ClusterRole".into(),
            role_name: "we\"ird".into(),
            subject: Subject {
                kind: "ServiceAccount".into(),
                name: "bot".into(),
                ..Default::default()
            },
            rule: PolicyRule::default(),
        };
        let parsed = AllowReason::parse(&format!("RBAC: allowed by {}", g.describe())).unwrap();
        assert_eq!(parsed.binding_name, "sa-edit");
        assert_eq!(parsed.binding_namespace, "team");
        assert_eq!(parsed.role_name, "we\"ird");
        assert_eq!(
            (
                parsed.subject_kind.as_str(),
                parsed.subject_name.as_str(),
                parsed.subject_namespace.as_str()
            ),
            ("ServiceAccount", "bot", "team")
        );
        assert!(AllowReason::parse("").is_none());
        assert!(AllowReason::parse("RBAC: allowed by RoleBinding \"x\" of").is_none());
    }

    #[test]
    fn subresources_are_distinct() {
        let pods = rule(&["get"], &[""], &["pods"]);
        check(&pods, &AccessRequest::resource("get", "", "pods"), true);
        check(
            &pods,
            &AccessRequest::resource("get", "", "pods").with_subresource("log"),
            false,
        );
        let scale = rule(&["get"], &["apps"], &["*/scale"]);
        check(
            &scale,
            &AccessRequest::resource("get", "apps", "deployments").with_subresource("scale"),
            true,
        );
        check(
            &scale,
            &AccessRequest::resource("get", "apps", "deployments"),
            false,
        );
    }

    #[test]
    fn service_account_subject_defaults_to_binding_namespace() {
        let sa = UserInfo::service_account("team", "bot");
        let s = Subject {
            kind: "ServiceAccount".into(),
            name: "bot".into(),
            ..Default::default()
        };
        assert!(applies_to_user(&sa, &s, "team"));
        assert!(!applies_to_user(&sa, &s, "other"));
        assert!(!applies_to_user(&sa, &s, ""));
        assert!(applies_to_user(
            &sa,
            &Subject {
                kind: "Group".into(),
                name: "system:serviceaccounts:team".into(),
                ..Default::default()
            },
            ""
        ));
    }

    #[test]
    fn role_binding_reason_and_dangling_ref() {
        let edit = Role {
            kind: "ClusterRole".into(),
            metadata: ObjectMeta {
                name: "edit".into(),
                ..Default::default()
            },
            rules: vec![rule(&["create"], &[""], &["pods"])],
            aggregation_rule: None,
        };
        let rb = RoleBinding {
            kind: "RoleBinding".into(),
            metadata: ObjectMeta {
                name: "sa-edit".into(),
                namespace: "team".into(),
                ..Default::default()
            },
            subjects: vec![Subject {
                kind: "ServiceAccount".into(),
                name: "bot".into(),
                ..Default::default()
            }],
            role_ref: RoleRef {
                api_group: "rbac.authorization.k8s.io".into(),
                kind: "ClusterRole".into(),
                name: "edit".into(),
            },
        };
        let mut missing = rb.clone();
        missing.metadata.name = "broken".into();
        missing.role_ref.name = "gone".into();
        let p = RbacPolicy::new([edit], [missing, rb]);
        let sa = UserInfo::service_account("team", "bot");
        let d = p.authorize(
            &sa,
            &AccessRequest::resource("create", "", "pods").in_namespace("team"),
        );
        assert!(d.allowed);
        assert_eq!(
            d.reason,
            r#"RBAC: allowed by RoleBinding "sa-edit/team" of ClusterRole "edit" to ServiceAccount "bot/team""#
        );
        let d = p.authorize(
            &sa,
            &AccessRequest::resource("delete", "", "pods").in_namespace("team"),
        );
        assert!(!d.allowed);
        assert_eq!(
            d.reason,
            r#"RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found"#
        );
        let dangling = p.dangling_role_refs();
        assert_eq!(dangling.len(), 1);
        assert_eq!(dangling[0].binding_name, "broken");
    }
}
