//! [`MemoryCluster`]: an in-memory Kubernetes API server for tests and downstream users.
//!
//! It implements every seam of [`crate::api`] ([`crate::api::ServerInfo`],
//! [`crate::api::ObjectReader`], [`crate::api::ObjectApplier`],
//! [`crate::api::AccessReviewer`]) by answering the very HTTP requests a
//! `kube::Client` would send ([`MemoryCluster::handle`]), so the same model can also sit behind
//! a real `kube::Client` as a mock service (`kube::Client::new(service, "default")` with a
//! `tower::service_fn` calling `handle`) and tests can assert the requests on the wire
//! ([`MemoryCluster::requests`]).
//!
//! What it models, after the real kube-apiserver:
//! - `GET /version`; `SelfSubjectReview`; `SelfSubjectAccessReview` and
//!   `SelfSubjectRulesReview` answered by [`crate::rbac`] over the RBAC objects given with
//!   [`MemoryCluster::with_rbac`] (without them every request of the user is allowed, like
//!   `system:masters`); 401 to everything with [`MemoryCluster::reject_credentials`];
//!   bearer tokens with [`MemoryCluster::with_token`] (a request with an unknown token, or
//!   none, answers 401 `Unauthorized` as kube-apiserver's token authenticator does with
//!   `--anonymous-auth=false`; a known token makes the request as its user);
//!   403 with the apiserver's exact `... is forbidden: User "u" cannot list resource ...` text.
//! - Objects of the known built-in types ([`ResourceType::known`]): `GET` of one object (404
//!   `resourcequotas "x" not found`), lists with `labelSelector`, `fieldSelector` (`=`, `==`,
//!   `!=` on dotted paths), `limit` and `continue` (items without `kind`/`apiVersion`, as the
//!   server writes typed lists), `DELETE` (`dryRun=All` honoured; deleting a namespace deletes
//!   its objects at once, there is no `Terminating` phase).
//! - Server-side apply (`PATCH` with `Content-Type: application/apply-patch+yaml` only; other
//!   patch types answer 415): `fieldManager` required (422 otherwise); name and namespace must
//!   match the URL (400); create when absent (namespaced objects need their namespace: 404
//!   `namespaces "x" not found`, as the `NamespaceLifecycle` admission plugin answers);
//!   ownership per manager in `metadata.managedFields` (`FieldsV1`, see [`crate::ssa`]);
//!   conflicts with other managers' fields holding another value answer 409 with the
//!   server's `Apply failed with N conflict(s)` message and one `FieldManagerConflict` cause
//!   per field, unless `force=true` (which takes the fields over); fields the manager applied
//!   before and no longer sets are removed unless another manager owns them; an apply that
//!   changes nothing writes nothing (same `resourceVersion`, same managed fields);
//!   `dryRun=All` runs defaulting, validation and admission and stores nothing.
//! - Defaulting and validation of the kinds cube-rs writes: Namespace `spec.finalizers`,
//!   `status.phase` and the `kubernetes.io/metadata.name` label; PriorityClass
//!   `preemptionPolicy` default and its immutable `value` (`value: Forbidden: may not be changed
//!   in an update.`) and `preemptionPolicy`; RoleBinding/ClusterRoleBinding immutable `roleRef`
//!   (`cannot change roleRef`); quantities stored canonically and negative quota values refused
//!   (422 `Invalid`).
//! - The quota controller, at once: a ResourceQuota's `status.hard` is its `spec.hard` and
//!   `status.used` is computed from the namespace's pods and claims with cube-quota's exact
//!   usage rules.
//! - Admission webhooks: [`MemoryCluster::admit_with`] adds a check that sees every create,
//!   update and delete (dry runs included) and may deny it with a `Status`;
//!   [`webhook_denial`] builds the apiserver's `admission webhook "x" denied the request: ...`.
//! - Edits by other managers: [`MemoryCluster::edit_as`] changes an object as an `Update` by
//!   another field manager (as `kubectl edit` or a controller would), taking ownership of the
//!   fields it changes.
//!
//! - Loopback HTTP: [`serve`] answers plain HTTP/1.1 on a listener with the same handler, and
//!   [`kubeconfig_yaml`] writes a kubeconfig for it, so whole programs can be tested against it.
//!
//! Not modelled: watches, other write verbs (`POST`, `PUT`, merge patches), generation and
//! status subresources, associative lists (every list is atomic, which is what the schemas say
//! for the lists cube-rs writes), finalizers and graceful deletion.
//!
//! ```
//! use cube_cluster::api::{ApplyParams, ObjectApplier, ObjectRef};
//! use cube_cluster::memory::MemoryCluster;
//! use serde_json::json;
//!
//! let cluster = MemoryCluster::new();
//! let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}});
//! let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
//! rt.block_on(async {
//!     let first = cluster.apply_object(&ns, &ApplyParams::default()).await.unwrap();
//!     let again = cluster.apply_object(&ns, &ApplyParams::default()).await.unwrap();
//!     // Applying the same intent twice changes nothing on the server.
//!     assert_eq!(first["metadata"]["resourceVersion"], again["metadata"]["resourceVersion"]);
//! });
//! ```

// The internal router returns the answer's `Status` by value (it becomes the response body).
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use async_trait::async_trait;
use kube::core::Status;
use kube::core::response::{StatusCause, StatusDetails, StatusSummary};
use serde_json::{Map, Value, json};

use crate::api::{
    APPLY_PATCH_CONTENT_TYPE, ObjectRef, RawTransport, ResourceType, ServerVersion,
    split_api_version,
};
use crate::profiles::{
    AccessReviewer, ProfileError, SelfSubjectAccessReview, SelfSubjectRulesReview,
    SubjectAccessReviewStatus, SubjectRulesReviewStatus,
};
use crate::rbac::{AccessRequest, RbacPolicy, UserInfo};
use crate::ssa::{
    FieldPath, FieldSet, ManagedEntry, canonicalize_quantities, managed_entries, remove_at,
    semantically_equal, set_at, value_at,
};

/// The operation an admission check sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AdmissionOperation {
    /// The object does not exist yet.
    Create,
    /// The object exists and changes.
    Update,
    /// The object is deleted.
    Delete,
}

/// What an admission check sees (as a webhook's `AdmissionReview.request`).
#[derive(Debug, Clone, Copy)]
pub struct AdmissionRequest<'a> {
    /// Create, update or delete.
    pub operation: AdmissionOperation,
    /// The object's reference.
    pub target: &'a ObjectRef,
    /// The object after the change (the current one for a delete).
    pub object: &'a Value,
    /// The object before the change (`None` on create).
    pub old_object: Option<&'a Value>,
    /// `dryRun=All`.
    pub dry_run: bool,
    /// The user.
    pub user: &'a UserInfo,
}

/// An admission check: `Some(status)` denies the request with that status.
pub type AdmissionCheck = Arc<dyn Fn(&AdmissionRequest<'_>) -> Option<Status> + Send + Sync>;

/// A validating webhook's denial as kube-apiserver returns it
/// (`k8s.io/apiserver/pkg/admission/plugin/webhook/errors` `ToStatusErr`): code 400 unless the
/// webhook gave one, message `admission webhook "<name>" denied the request: <message>`.
pub fn webhook_denial(webhook: &str, message: &str) -> Status {
    Status {
        status: Some(StatusSummary::Failure),
        code: 400,
        message: format!("admission webhook {webhook:?} denied the request: {message}"),
        reason: String::new(),
        ..Default::default()
    }
}

/// One request the cluster answered.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RecordedRequest {
    /// HTTP method (`PATCH`).
    pub method: String,
    /// Path without the query (`/api/v1/namespaces/a/resourcequotas/q`).
    pub path: String,
    /// Decoded query parameters.
    pub query: BTreeMap<String, String>,
    /// `Content-Type`, if sent.
    pub content_type: Option<String>,
    /// The body, when it was JSON or YAML.
    pub body: Option<Value>,
    /// The answer's HTTP status code.
    pub code: u16,
}

impl RecordedRequest {
    /// `fieldManager`.
    pub fn field_manager(&self) -> Option<&str> {
        self.query.get("fieldManager").map(String::as_str)
    }
    /// True with `dryRun=All`.
    pub fn dry_run(&self) -> bool {
        self.query.get("dryRun").is_some_and(|v| v == "All")
    }
    /// True with `force=true`.
    pub fn force(&self) -> bool {
        self.query.get("force").is_some_and(|v| v == "true")
    }
    /// True for a server-side apply (`PATCH` with the apply content type).
    pub fn is_apply(&self) -> bool {
        self.method == "PATCH" && self.content_type.as_deref() == Some(APPLY_PATCH_CONTENT_TYPE)
    }
}

impl fmt::Display for RecordedRequest {
    /// `PATCH /path?query -> 200`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.method, self.path)?;
        if !self.query.is_empty() {
            let q: Vec<String> = self.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, "?{}", q.join("&"))?;
        }
        write!(f, " -> {}", self.code)
    }
}

type Key = (String, String, String, String);

fn key_of(r: &ObjectRef) -> Key {
    (
        r.resource.group.clone(),
        r.resource.plural.clone(),
        r.namespace.clone().unwrap_or_default(),
        r.name.clone(),
    )
}

struct State {
    version: ServerVersion,
    user: UserInfo,
    reject_credentials: bool,
    tokens: BTreeMap<String, UserInfo>,
    rbac: Option<RbacPolicy>,
    objects: BTreeMap<Key, Value>,
    resource_version: u64,
    uid: u64,
    admission: Vec<AdmissionCheck>,
    log: Vec<RecordedRequest>,
    fixed_time: Option<String>,
    stored_rbac: bool,
}

/// An in-memory API server (see the module docs for what it models).
pub struct MemoryCluster {
    state: Mutex<State>,
}

impl fmt::Debug for MemoryCluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let st = self.lock();
        f.debug_struct("MemoryCluster")
            .field("version", &st.version.git_version)
            .field("user", &st.user.name)
            .field("objects", &st.objects.len())
            .finish_non_exhaustive()
    }
}

impl Default for MemoryCluster {
    fn default() -> Self {
        Self::new()
    }
}

/// Builds a failure `Status` body.
fn status(code: u16, reason: &str, message: impl Into<String>) -> Status {
    Status {
        status: Some(StatusSummary::Failure),
        code,
        message: message.into(),
        reason: reason.to_owned(),
        ..Default::default()
    }
}

fn with_details(mut s: Status, r: &ResourceType, name: &str, causes: Vec<StatusCause>) -> Status {
    s.details = Some(StatusDetails {
        name: name.to_owned(),
        group: r.group.clone(),
        kind: r.plural.clone(),
        uid: String::new(),
        causes,
        retry_after_seconds: 0,
    });
    s
}

/// `ResourceQuota` or `PriorityClass.scheduling.k8s.io` (`schema.GroupKind.String`).
fn qualified_kind(r: &ResourceType) -> String {
    if r.group.is_empty() {
        r.kind.clone()
    } else {
        format!("{}.{}", r.kind, r.group)
    }
}

/// `resourcequotas` or `priorityclasses.scheduling.k8s.io` (`schema.GroupResource.String`).
fn qualified_resource(r: &ResourceType) -> String {
    if r.group.is_empty() {
        r.plural.clone()
    } else {
        format!("{}.{}", r.plural, r.group)
    }
}

fn not_found(r: &ResourceType, name: &str) -> Status {
    with_details(
        status(
            404,
            "NotFound",
            format!("{} {name:?} not found", qualified_resource(r)),
        ),
        r,
        name,
        Vec::new(),
    )
}

/// One field error of an `Invalid` answer.
struct FieldError {
    field: String,
    kind: &'static str,
    reason: &'static str,
    detail: String,
}

fn invalid(r: &ResourceType, name: &str, errors: Vec<FieldError>) -> Status {
    let texts: Vec<String> = errors
        .iter()
        .map(|e| format!("{}: {}: {}", e.field, e.kind, e.detail))
        .collect();
    let joined = if texts.len() == 1 {
        texts[0].clone()
    } else {
        format!("[{}]", texts.join(", "))
    };
    let causes = errors
        .into_iter()
        .map(|e| StatusCause {
            reason: e.reason.to_owned(),
            message: format!("{}: {}", e.kind, e.detail),
            field: e.field,
        })
        .collect();
    with_details(
        status(
            422,
            "Invalid",
            format!("{} {name:?} is invalid: {joined}", qualified_kind(r)),
        ),
        r,
        name,
        causes,
    )
}

fn status_json(s: &Status) -> Value {
    let mut v = serde_json::to_value(s).unwrap_or_else(|_| json!({}));
    if let Some(m) = v.as_object_mut() {
        m.insert("kind".into(), Value::from("Status"));
        m.insert("apiVersion".into(), Value::from("v1"));
        m.entry("metadata").or_insert_with(|| json!({}));
    }
    v
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(h) = bytes.get(i + 1..i + 3)
            && let Some(b) = std::str::from_utf8(h)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn parse_query(q: &str) -> BTreeMap<String, String> {
    q.split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

fn parse_body(bytes: &[u8]) -> Option<Value> {
    if bytes.is_empty() {
        return None;
    }
    serde_json::from_slice(bytes).ok().or_else(|| {
        std::str::from_utf8(bytes).ok().and_then(|t| {
            cube_model::yaml::from_str::<Value>(
                t,
                &cube_model::Limits::default(),
                serde_saphyr::Options::default(),
            )
            .ok()
        })
    })
}

/// What a resource path names.
struct Target {
    resource: ResourceType,
    namespace: Option<String>,
    name: Option<String>,
}

fn parse_path(path: &str) -> Option<Result<Target, Status>> {
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (group, version, rest): (&str, &str, &[&str]) = match segs.as_slice() {
        ["api", v, rest @ ..] => ("", v, rest),
        ["apis", g, v, rest @ ..] => (g, v, rest),
        _ => return None,
    };
    let (namespace, plural, name) = match rest {
        ["namespaces", ns, res] => (Some(*ns), *res, None),
        ["namespaces", ns, res, name] => (Some(*ns), *res, Some(*name)),
        [res] => (None, *res, None),
        [res, name] => (None, *res, Some(*name)),
        _ => return None,
    };
    let Some(resource) = ResourceType::of_plural(group, version, plural) else {
        return Some(Err(status(
            404,
            "NotFound",
            "the server could not find the requested resource",
        )));
    };
    let namespace = namespace.filter(|_| resource.namespaced).map(str::to_owned);
    Some(Ok(Target {
        resource,
        namespace,
        name: name.map(str::to_owned),
    }))
}

/// kube-apiserver's forbidden message (`responsewriters.forbiddenMessage`).
fn forbidden(user: &str, verb: &str, t: &Target) -> Status {
    let res = &t.resource.plural;
    let subject = match &t.name {
        Some(n) => format!("{res} {n:?}"),
        None => res.clone(),
    };
    let subject = if t.resource.group.is_empty() {
        subject
    } else {
        match &t.name {
            Some(n) => format!("{res}.{} {n:?}", t.resource.group),
            None => format!("{res}.{}", t.resource.group),
        }
    };
    let scope = match &t.namespace {
        Some(ns) => format!("in the namespace {ns:?}"),
        None => "at the cluster scope".to_owned(),
    };
    let mut s = status(
        403,
        "Forbidden",
        format!(
            "{subject} is forbidden: User {user:?} cannot {verb} resource {res:?} in API group {:?} {scope}",
            t.resource.group
        ),
    );
    s.details = Some(StatusDetails {
        name: t.name.clone().unwrap_or_default(),
        group: t.resource.group.clone(),
        kind: res.clone(),
        uid: String::new(),
        causes: Vec::new(),
        retry_after_seconds: 0,
    });
    s
}

fn labels_of(v: &Value) -> cube_model::objects::Labels {
    v["metadata"]["labels"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// A `fieldSelector` (`a.b=c,d!=e`): every requirement must hold.
fn field_selector_matches(selector: &str, v: &Value) -> bool {
    selector
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .all(|req| {
            let (key, want, negate) = if let Some((k, w)) = req.split_once("!=") {
                (k, w, true)
            } else if let Some((k, w)) = req.split_once("==") {
                (k, w, false)
            } else if let Some((k, w)) = req.split_once('=') {
                (k, w, false)
            } else {
                return false;
            };
            let mut cur = v;
            for part in key.trim().split('.') {
                cur = &cur[part];
            }
            let have = match cur {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            (have == want.trim()) != negate
        })
}

impl MemoryCluster {
    /// An empty cluster: version v1.36.0, user `memory-admin` in `system:masters`, every request
    /// allowed.
    pub fn new() -> Self {
        MemoryCluster {
            state: Mutex::new(State {
                version: ServerVersion {
                    git_version: "v1.36.0".into(),
                    major: "1".into(),
                    minor: "36".into(),
                    platform: "linux/amd64".into(),
                },
                user: UserInfo::authenticated("memory-admin", ["system:masters"]),
                reject_credentials: false,
                tokens: BTreeMap::new(),
                rbac: None,
                objects: BTreeMap::new(),
                resource_version: 1000,
                uid: 0,
                admission: Vec::new(),
                log: Vec::new(),
                fixed_time: None,
                stored_rbac: false,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves consistent data (every write is one insert).
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Serve this `/version`.
    #[must_use]
    pub fn with_version(self, version: ServerVersion) -> Self {
        self.lock().version = version;
        self
    }

    /// Requests are made as `user` (what `SelfSubjectReview` answers).
    #[must_use]
    pub fn with_user(self, user: UserInfo) -> Self {
        self.lock().user = user;
        self
    }

    /// Authorize every request with RBAC over `policy` (the RBAC objects of the cluster)
    /// instead of allowing everything.
    #[must_use]
    pub fn with_rbac(self, policy: RbacPolicy) -> Self {
        self.lock().rbac = Some(policy);
        self
    }

    /// Authorize with RBAC over the Role, ClusterRole, RoleBinding and ClusterRoleBinding
    /// objects stored in this cluster (applied or loaded), re-read on every request, as
    /// kube-apiserver's RBAC authorizer does from its informers; `system:masters` is allowed
    /// everything before RBAC. Also runs the token controller
    /// (kubernetes `pkg/controller/serviceaccount/tokens_controller.go`): a Secret of type
    /// `kubernetes.io/service-account-token` annotated `kubernetes.io/service-account.name` whose
    /// ServiceAccount exists gets `data.token` and `data.namespace` at once, and the token
    /// authenticates as `system:serviceaccount:<ns>:<name>` (groups `system:serviceaccounts`,
    /// `system:serviceaccounts:<ns>`, `system:authenticated`) like a token of
    /// [`MemoryCluster::with_token`]. No `ca.crt` is written.
    #[must_use]
    pub fn with_stored_rbac(self) -> Self {
        self.lock().stored_rbac = true;
        self
    }

    /// Answer every request with 401 `Unauthorized` (credentials the server does not accept).
    #[must_use]
    pub fn reject_credentials(self) -> Self {
        self.lock().reject_credentials = true;
        self
    }

    /// Authenticate requests by bearer token: once a token is registered, every request must
    /// carry `Authorization: Bearer <token>` of a registered token and is made as that token's
    /// user; any other request is answered 401 `Unauthorized`, the body kube-apiserver sends
    /// for a token no authenticator accepts. Meant for [`serve_stream`] behind TLS (a client
    /// sends no credentials over plain HTTP); in-process callers send no `Authorization`
    /// header, so they are refused too.
    #[must_use]
    pub fn with_token(self, token: &str, user: UserInfo) -> Self {
        self.lock().tokens.insert(token.to_owned(), user);
        self
    }

    /// Record `time` in managed fields and `creationTimestamp` instead of the clock.
    #[must_use]
    pub fn with_fixed_time(self, time: &str) -> Self {
        self.lock().fixed_time = Some(time.to_owned());
        self
    }

    /// Adds an admission check (see [`AdmissionCheck`]).
    #[must_use]
    pub fn admit_with(
        self,
        check: impl Fn(&AdmissionRequest<'_>) -> Option<Status> + Send + Sync + 'static,
    ) -> Self {
        self.lock().admission.push(Arc::new(check));
        self
    }

    /// Stores objects as given (status included) from a JSON or YAML document: one object, a
    /// `List`/`<Kind>List` (items without `kind` take it from the list), or several YAML
    /// documents. Objects of unknown types are skipped and counted in the error.
    ///
    /// # Errors
    /// A message naming the documents or objects that could not be stored.
    pub fn load(&self, text: &str) -> Result<usize, String> {
        let docs: Vec<Value> = if text.trim_start().starts_with(['{', '[']) {
            vec![serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?]
        } else {
            cube_model::yaml::from_multiple(
                text,
                &cube_model::Limits::default(),
                serde_saphyr::Options::default(),
            )
            .map_err(|e| format!("not YAML: {e}"))?
        };
        let mut stored = 0;
        let mut problems = Vec::new();
        for d in docs {
            let kind = d["kind"].as_str().unwrap_or_default().to_owned();
            if let Some(items) = d["items"].as_array() {
                let item_kind = kind.strip_suffix("List").unwrap_or_default().to_owned();
                let api_version = d["apiVersion"].as_str().unwrap_or("v1").to_owned();
                for mut it in items.clone() {
                    if let Some(m) = it.as_object_mut()
                        && !item_kind.is_empty()
                    {
                        m.entry("kind")
                            .or_insert_with(|| Value::from(item_kind.clone()));
                        m.entry("apiVersion")
                            .or_insert_with(|| Value::from(api_version.clone()));
                    }
                    match self.insert(it) {
                        Ok(()) => stored += 1,
                        Err(e) => problems.push(e.to_string()),
                    }
                }
            } else if !d.is_null() {
                match self.insert(d) {
                    Ok(()) => stored += 1,
                    Err(e) => problems.push(e.to_string()),
                }
            }
        }
        if problems.is_empty() {
            Ok(stored)
        } else {
            Err(format!(
                "{stored} stored, {} not: {}",
                problems.len(),
                problems.join("; ")
            ))
        }
    }

    /// Stores one object as given (status and managed fields included), assigning a
    /// `resourceVersion`, `uid` and `creationTimestamp` when it has none.
    ///
    /// # Errors
    /// [`crate::api::ObjectRefError`] when the object has no known type, name or namespace.
    pub fn insert(&self, mut object: Value) -> Result<(), crate::api::ObjectRefError> {
        let r = ObjectRef::of(&object)?;
        let mut st = self.lock();
        st.stamp(&mut object, None);
        st.objects.insert(key_of(&r), object);
        Ok(())
    }

    /// The stored object.
    pub fn object(&self, target: &ObjectRef) -> Option<Value> {
        self.lock().objects.get(&key_of(target)).cloned()
    }

    /// Every stored object of a kind (all namespaces), in (namespace, name) order.
    pub fn objects_of(&self, kind: &str) -> Vec<Value> {
        let Some(r) = ResourceType::of_kind(kind) else {
            return Vec::new();
        };
        self.lock()
            .objects
            .iter()
            .filter(|((g, p, _, _), _)| *g == r.group && *p == r.plural)
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// Changes an object as another field manager's `Update` (what `kubectl edit` or a
    /// controller does): `change` edits the object; the fields whose value changed become that
    /// manager's and leave every other manager's set. Returns `false` when there is no such
    /// object.
    pub fn edit_as(
        &self,
        manager: &str,
        target: &ObjectRef,
        change: impl FnOnce(&mut Value),
    ) -> bool {
        let mut st = self.lock();
        let Some(old) = st.objects.get(&key_of(target)).cloned() else {
            return false;
        };
        let mut new = old.clone();
        change(&mut new);
        let before = FieldSet::of_config(&old);
        let after = FieldSet::of_config(&new);
        let changed: BTreeSet<FieldPath> = after
            .iter()
            .filter(|p| match (value_at(&old, p), value_at(&new, p)) {
                (Some(a), Some(b)) => !semantically_equal(&p.0, a, b),
                _ => true,
            })
            .cloned()
            .chain(before.iter().filter(|p| !after.contains(p)).cloned())
            .collect();
        let time = st.now();
        let mut entries = managed_entries(&old);
        for e in &mut entries {
            e.fields.0.retain(|p| !changed.contains(p));
        }
        let api_version = target.resource.api_version();
        match entries
            .iter_mut()
            .find(|e| e.manager == manager && e.operation == "Update")
        {
            Some(e) => {
                e.fields
                    .0
                    .extend(changed.iter().filter(|p| after.contains(p)).cloned());
                e.time = Some(time);
            }
            None => entries.push(ManagedEntry {
                manager: manager.to_owned(),
                operation: "Update".into(),
                api_version,
                time: Some(time),
                subresource: String::new(),
                fields: FieldSet(
                    changed
                        .iter()
                        .filter(|p| after.contains(p))
                        .cloned()
                        .collect(),
                ),
            }),
        }
        entries.retain(|e| !e.fields.is_empty());
        set_managed(&mut new, &entries);
        st.bump(&mut new);
        st.objects.insert(key_of(target), new);
        true
    }

    /// Requests answered so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().log.clone()
    }

    /// Forgets the recorded requests.
    pub fn clear_requests(&self) {
        self.lock().log.clear();
    }

    /// Answers one HTTP request as the API server would (see the module docs).
    pub fn handle(&self, request: &http::Request<Vec<u8>>) -> http::Response<Vec<u8>> {
        let (path, query) = match request.uri().path_and_query() {
            Some(pq) => (pq.path().to_owned(), parse_query(pq.query().unwrap_or(""))),
            None => ("/".to_owned(), BTreeMap::new()),
        };
        let content_type = request
            .headers()
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|s| s.split(';').next().unwrap_or(s).trim().to_owned());
        let body = parse_body(request.body());
        let method = request.method().as_str().to_owned();
        let bearer = request
            .headers()
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        let mut st = self.lock();
        let authenticated = if st.tokens.is_empty() {
            Some(None)
        } else {
            bearer.and_then(|t| st.tokens.get(t)).cloned().map(Some)
        };
        let (code, answer) = match authenticated {
            None => {
                let s = status(401, "Unauthorized", "Unauthorized");
                (s.code, status_json(&s))
            }
            Some(user) => {
                let saved = user.map(|u| std::mem::replace(&mut st.user, u));
                let answer = match st.route(
                    &method,
                    &path,
                    &query,
                    content_type.as_deref(),
                    body.as_ref(),
                ) {
                    Ok((code, v)) => (code, v),
                    Err(s) => (s.code, status_json(&s)),
                };
                if let Some(u) = saved {
                    st.user = u;
                }
                answer
            }
        };
        if st.stored_rbac && method == "PATCH" && code < 300 {
            st.token_controller();
        }
        st.log.push(RecordedRequest {
            method,
            path,
            query,
            content_type,
            body,
            code,
        });
        drop(st);
        let bytes = serde_json::to_vec(&answer).unwrap_or_default();
        http::Response::builder()
            .status(code)
            .header(http::header::CONTENT_TYPE, "application/json")
            .body(bytes)
            .unwrap_or_else(|_| http::Response::new(Vec::new()))
    }
}

fn set_managed(object: &mut Value, entries: &[ManagedEntry]) {
    let list: Vec<Value> = entries.iter().map(ManagedEntry::to_json).collect();
    let meta = &mut object["metadata"];
    if !meta.is_object() {
        *meta = json!({});
    }
    if let Value::Object(m) = meta {
        if list.is_empty() {
            m.remove("managedFields");
        } else {
            m.insert("managedFields".into(), Value::Array(list));
        }
    }
}

fn strip_server_fields(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(m) = v["metadata"].as_object_mut() {
        m.remove("resourceVersion");
        m.remove("managedFields");
    }
    v
}

impl State {
    fn now(&self) -> String {
        self.fixed_time.clone().unwrap_or_else(|| {
            jiff::Timestamp::now()
                .strftime("%Y-%m-%dT%H:%M:%SZ")
                .to_string()
        })
    }

    fn bump(&mut self, object: &mut Value) {
        self.resource_version += 1;
        object["metadata"]["resourceVersion"] = Value::from(self.resource_version.to_string());
    }

    /// Sets `uid`, `creationTimestamp` and `resourceVersion` when missing.
    fn stamp(&mut self, object: &mut Value, time: Option<String>) {
        if !object["metadata"].is_object() {
            object["metadata"] = json!({});
        }
        if object["metadata"]["uid"].as_str().is_none() {
            self.uid += 1;
            object["metadata"]["uid"] =
                Value::from(format!("00000000-0000-4000-8000-{:012x}", self.uid));
        }
        if object["metadata"]["creationTimestamp"].as_str().is_none() {
            let t = time.unwrap_or_else(|| self.now());
            object["metadata"]["creationTimestamp"] = Value::from(t);
        }
        if object["metadata"]["resourceVersion"].as_str().is_none() {
            self.bump(object);
        }
    }

    /// The RBAC policy requests are authorized with (`None`: everything is allowed).
    fn policy(&self) -> Option<std::borrow::Cow<'_, RbacPolicy>> {
        if !self.stored_rbac {
            return self.rbac.as_ref().map(std::borrow::Cow::Borrowed);
        }
        let items: Vec<&Value> = self
            .objects
            .iter()
            .filter(|((g, p, _, _), _)| {
                g == "rbac.authorization.k8s.io"
                    && matches!(
                        p.as_str(),
                        "roles" | "clusterroles" | "rolebindings" | "clusterrolebindings"
                    )
            })
            .map(|(_, v)| v)
            .collect();
        let list = json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string();
        Some(std::borrow::Cow::Owned(
            RbacPolicy::from_text(&list, "stored RBAC objects").unwrap_or_default(),
        ))
    }

    /// The token controller (see [`MemoryCluster::with_stored_rbac`]).
    fn token_controller(&mut self) {
        use base64::Engine as _;
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        let pending: Vec<Key> = self
            .objects
            .iter()
            .filter(|((g, p, _, _), v)| {
                g.is_empty()
                    && p == "secrets"
                    && v["type"] == "kubernetes.io/service-account-token"
                    && v["data"]["token"].is_null()
            })
            .map(|(k, _)| k.clone())
            .collect();
        for key in pending {
            let ns = key.2.clone();
            let Some(mut secret) = self.objects.get(&key).cloned() else {
                continue;
            };
            let Some(sa) = secret["metadata"]["annotations"]["kubernetes.io/service-account.name"]
                .as_str()
                .map(str::to_owned)
            else {
                continue;
            };
            let sa_key = (
                String::new(),
                "serviceaccounts".to_owned(),
                ns.clone(),
                sa.clone(),
            );
            if !self.objects.contains_key(&sa_key) {
                continue;
            }
            self.uid += 1;
            let token = format!("memory-sa-token.{ns}.{sa}.{:06}", self.uid);
            if !secret["data"].is_object() {
                secret["data"] = json!({});
            }
            secret["data"]["token"] = Value::from(b64(&token));
            secret["data"]["namespace"] = Value::from(b64(&ns));
            self.bump(&mut secret);
            self.objects.insert(key, secret);
            self.tokens.insert(
                token,
                UserInfo::authenticated(
                    format!("system:serviceaccount:{ns}:{sa}"),
                    [
                        "system:serviceaccounts".to_owned(),
                        format!("system:serviceaccounts:{ns}"),
                    ],
                ),
            );
        }
    }

    fn authorize(&self, verb: &str, t: &Target) -> Result<(), Status> {
        let Some(policy) = self.policy() else {
            return Ok(());
        };
        let mut req = AccessRequest::resource(verb, &t.resource.group, &t.resource.plural);
        if let Some(ns) = &t.namespace {
            req = req.in_namespace(ns);
        }
        if let Some(n) = &t.name {
            req = req.with_name(n);
        }
        if policy.authorize(&self.user, &req).allowed {
            Ok(())
        } else {
            Err(forbidden(&self.user.name, verb, t))
        }
    }

    fn route(
        &mut self,
        method: &str,
        path: &str,
        query: &BTreeMap<String, String>,
        content_type: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Value), Status> {
        if self.reject_credentials {
            return Err(status(401, "Unauthorized", "Unauthorized"));
        }
        match (method, path) {
            ("GET", "/version") => {
                let v = &self.version;
                return Ok((
                    200,
                    json!({"major": v.major, "minor": v.minor, "gitVersion": v.git_version,
                           "platform": v.platform, "goVersion": "go1.25.0", "compiler": "gc"}),
                ));
            }
            ("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews") => {
                return Ok((
                    201,
                    json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
                           "metadata": {"creationTimestamp": null},
                           "status": {"userInfo": {"username": self.user.name, "groups": self.user.groups}}}),
                ));
            }
            ("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews") => {
                return self.access_review(body);
            }
            ("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews") => {
                return self.rules_review(body);
            }
            _ => {}
        }
        let target = match parse_path(path) {
            Some(t) => t?,
            None => {
                return Err(status(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                ));
            }
        };
        let dry_run = query.get("dryRun").is_some_and(|v| v == "All");
        if let Some(d) = query.get("dryRun")
            && d != "All"
        {
            return Err(status(
                400,
                "BadRequest",
                format!("Invalid dry run value: {d}. Valid values are [All]."),
            ));
        }
        match (method, &target.name) {
            ("GET", None) => {
                let verb = if query.get("watch").is_some_and(|w| w == "true" || w == "1") {
                    "watch"
                } else {
                    "list"
                };
                self.authorize(verb, &target)?;
                self.list(&target, query)
            }
            ("GET", Some(name)) => {
                self.authorize("get", &target)?;
                let r = ObjectRef::new(target.resource.clone(), target.namespace.as_deref(), name);
                match self.objects.get(&key_of(&r)) {
                    Some(v) => Ok((200, v.clone())),
                    None => Err(not_found(&target.resource, name)),
                }
            }
            ("PATCH", Some(name)) => {
                self.authorize("patch", &target)?;
                if content_type != Some(APPLY_PATCH_CONTENT_TYPE) {
                    return Err(status(
                        415,
                        "UnsupportedMediaType",
                        format!(
                            "the body of the request was in an unknown format - accepted media types include: {APPLY_PATCH_CONTENT_TYPE} (this in-memory server serves server-side apply only)"
                        ),
                    ));
                }
                let manager = query.get("fieldManager").cloned().unwrap_or_default();
                let force = match query.get("force").map(String::as_str) {
                    None | Some("false") => false,
                    Some("true") => true,
                    Some(other) => {
                        return Err(status(
                            400,
                            "BadRequest",
                            format!("invalid boolean value for force: {other}"),
                        ));
                    }
                };
                let r = ObjectRef::new(target.resource.clone(), target.namespace.as_deref(), name);
                self.apply(&r, body, &manager, force, dry_run)
            }
            ("DELETE", Some(name)) => {
                self.authorize("delete", &target)?;
                let r = ObjectRef::new(target.resource.clone(), target.namespace.as_deref(), name);
                self.delete(&r, dry_run)
            }
            _ => Err(status(
                405,
                "MethodNotAllowed",
                "the server does not allow this method on the requested resource",
            )),
        }
    }

    fn access_review(&self, body: Option<&Value>) -> Result<(u16, Value), Status> {
        let review: SelfSubjectAccessReview = body
            .cloned()
            .and_then(|b| serde_json::from_value(b).ok())
            .ok_or_else(|| {
                status(
                    400,
                    "BadRequest",
                    "the request body is not a SelfSubjectAccessReview",
                )
            })?;
        let request = if let Some(ra) = review.spec.resource_attributes.clone() {
            AccessRequest::Resource(ra)
        } else if let Some(nra) = review.spec.non_resource_attributes.clone() {
            AccessRequest::NonResource(nra)
        } else {
            return Err(invalid(
                &ResourceType {
                    group: "authorization.k8s.io".into(),
                    version: "v1".into(),
                    kind: "SelfSubjectAccessReview".into(),
                    plural: "selfsubjectaccessreviews".into(),
                    namespaced: false,
                },
                "",
                vec![FieldError {
                    field: "spec.resourceAttributes".into(),
                    kind: "Invalid value",
                    reason: "FieldValueInvalid",
                    detail: "\"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified".into(),
                }],
            ));
        };
        let status_v = match self.policy() {
            None => SubjectAccessReviewStatus {
                allowed: true,
                denied: false,
                reason: String::new(),
                evaluation_error: String::new(),
            },
            Some(p) => {
                let d = p.authorize(&self.user, &request);
                SubjectAccessReviewStatus {
                    allowed: d.allowed,
                    denied: false,
                    reason: d.reason,
                    evaluation_error: String::new(),
                }
            }
        };
        let mut out = serde_json::to_value(&review).unwrap_or_else(|_| json!({}));
        out["status"] = serde_json::to_value(status_v).unwrap_or_else(|_| json!({}));
        out["metadata"] = json!({"creationTimestamp": null});
        Ok((201, out))
    }

    fn rules_review(&self, body: Option<&Value>) -> Result<(u16, Value), Status> {
        let review: SelfSubjectRulesReview = body
            .cloned()
            .and_then(|b| serde_json::from_value(b).ok())
            .ok_or_else(|| {
                status(
                    400,
                    "BadRequest",
                    "the request body is not a SelfSubjectRulesReview",
                )
            })?;
        let ns = review.spec.namespace.clone();
        let s = match self.policy() {
            None => SubjectRulesReviewStatus {
                resource_rules: vec![cube_model::objects::PolicyRule {
                    verbs: vec!["*".into()],
                    api_groups: vec!["*".into()],
                    resources: vec!["*".into()],
                    ..Default::default()
                }],
                non_resource_rules: vec![cube_model::objects::PolicyRule {
                    verbs: vec!["*".into()],
                    non_resource_urls: vec!["*".into()],
                    ..Default::default()
                }],
                incomplete: false,
                evaluation_error: String::new(),
            },
            Some(p) => {
                let (rules, errors) = p.rules_for(&self.user, &ns);
                let (non_resource_rules, resource_rules) = rules
                    .into_iter()
                    .partition(|r| !r.non_resource_urls.is_empty());
                SubjectRulesReviewStatus {
                    resource_rules,
                    non_resource_rules,
                    incomplete: false,
                    evaluation_error: errors.join(", "),
                }
            }
        };
        let mut out = serde_json::to_value(&review).unwrap_or_else(|_| json!({}));
        out["status"] = serde_json::to_value(s).unwrap_or_else(|_| json!({}));
        Ok((201, out))
    }

    fn list(&self, t: &Target, query: &BTreeMap<String, String>) -> Result<(u16, Value), Status> {
        let selector = match query.get("labelSelector").filter(|s| !s.is_empty()) {
            Some(s) => Some(cube_model::selector::parse_selector(s).map_err(|e| {
                status(
                    400,
                    "BadRequest",
                    format!("unable to parse requirement: {e}"),
                )
            })?),
            None => None,
        };
        let fields = query.get("fieldSelector").cloned().unwrap_or_default();
        let matching: Vec<&Value> = self
            .objects
            .iter()
            .filter(|((g, p, ns, _), _)| {
                *g == t.resource.group
                    && *p == t.resource.plural
                    && t.namespace.as_ref().is_none_or(|want| want == ns)
            })
            .map(|(_, v)| v)
            .filter(|v| selector.as_ref().is_none_or(|s| s.matches(&labels_of(v))))
            .filter(|v| field_selector_matches(&fields, v))
            .collect();
        let start: usize = match query.get("continue").filter(|c| !c.is_empty()) {
            Some(c) => c.parse().map_err(|_| {
                status(
                    400,
                    "BadRequest",
                    format!("continue key is not valid: {c:?}"),
                )
            })?,
            None => 0,
        };
        let limit: usize = query
            .get("limit")
            .and_then(|l| l.parse().ok())
            .filter(|l: &usize| *l > 0)
            .unwrap_or(usize::MAX);
        let end = start.saturating_add(limit).min(matching.len());
        let items: Vec<Value> = matching
            .get(start.min(end)..end)
            .unwrap_or_default()
            .iter()
            .map(|v| {
                let mut v = (*v).clone();
                if let Some(m) = v.as_object_mut() {
                    m.remove("kind");
                    m.remove("apiVersion");
                }
                v
            })
            .collect();
        let mut meta = json!({"resourceVersion": self.resource_version.to_string()});
        if end < matching.len() {
            meta["continue"] = Value::from(end.to_string());
            meta["remainingItemCount"] = Value::from(matching.len() - end);
        }
        Ok((
            200,
            json!({
                "kind": format!("{}List", t.resource.kind),
                "apiVersion": t.resource.api_version(),
                "metadata": meta,
                "items": items,
            }),
        ))
    }

    fn admit(&self, req: &AdmissionRequest<'_>) -> Result<(), Status> {
        for check in &self.admission {
            if let Some(s) = check(req) {
                return Err(s);
            }
        }
        Ok(())
    }

    fn delete(&mut self, r: &ObjectRef, dry_run: bool) -> Result<(u16, Value), Status> {
        let Some(old) = self.objects.get(&key_of(r)).cloned() else {
            return Err(not_found(&r.resource, &r.name));
        };
        self.admit(&AdmissionRequest {
            operation: AdmissionOperation::Delete,
            target: r,
            object: &old,
            old_object: Some(&old),
            dry_run,
            user: &self.user,
        })?;
        if !dry_run {
            self.objects.remove(&key_of(r));
            if r.resource.kind == "Namespace" {
                self.objects.retain(|(_, _, ns, _), _| *ns != r.name);
            }
        }
        Ok((200, old))
    }

    fn apply(
        &mut self,
        r: &ObjectRef,
        body: Option<&Value>,
        manager: &str,
        force: bool,
        dry_run: bool,
    ) -> Result<(u16, Value), Status> {
        if manager.is_empty() {
            return Err(status(
                422,
                "Invalid",
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch",
            ));
        }
        let config = match body {
            Some(v) if v.is_object() => v.clone(),
            _ => {
                return Err(status(
                    400,
                    "BadRequest",
                    "error decoding YAML: the apply patch is not an object",
                ));
            }
        };
        // The configuration must name the object the URL names.
        let (group, version) = split_api_version(config["apiVersion"].as_str().unwrap_or_default());
        let kind = config["kind"].as_str().unwrap_or_default();
        if group != r.resource.group || version != r.resource.version || kind != r.resource.kind {
            return Err(status(
                400,
                "BadRequest",
                format!(
                    "the body of the request (apiVersion {:?}, kind {kind:?}) is not a {} object",
                    config["apiVersion"].as_str().unwrap_or_default(),
                    qualified_kind(&r.resource)
                ),
            ));
        }
        let name = config["metadata"]["name"].as_str().unwrap_or_default();
        if name != r.name {
            return Err(status(
                400,
                "BadRequest",
                format!(
                    "the name of the object ({name}) does not match the name on the URL ({})",
                    r.name
                ),
            ));
        }
        if let Some(ns) = config["metadata"]["namespace"].as_str()
            && r.resource.namespaced
            && Some(ns) != r.namespace.as_deref()
        {
            return Err(status(
                400,
                "BadRequest",
                "the namespace of the provided object does not match the namespace sent on the request",
            ));
        }
        if let Some(e) = bad_quantity(&config) {
            return Err(status(400, "BadRequest", e));
        }
        let mut applied_cfg = config.clone();
        canonicalize_quantities(&mut applied_cfg);
        let applied = FieldSet::of_config(&applied_cfg);
        let time = self.now();
        let api_version = r.resource.api_version();
        let existing = self.objects.get(&key_of(r)).cloned();

        let Some(old) = existing else {
            // Create.
            if let Some(ns) = &r.namespace {
                let ns_ref = ObjectRef::new(
                    ResourceType::of_kind("Namespace").unwrap_or_else(|| r.resource.clone()),
                    None,
                    ns,
                );
                if !self.objects.contains_key(&key_of(&ns_ref)) {
                    return Err(with_details(
                        status(404, "NotFound", format!("namespaces {ns:?} not found")),
                        &ResourceType::of_kind("Namespace").unwrap_or_else(|| r.resource.clone()),
                        ns,
                        Vec::new(),
                    ));
                }
            }
            let mut obj = json!({});
            for p in applied.iter() {
                if let Some(v) = value_at(&applied_cfg, p) {
                    set_at(&mut obj, p, v.clone());
                }
            }
            obj["apiVersion"] = Value::from(api_version.clone());
            obj["kind"] = Value::from(r.resource.kind.clone());
            obj["metadata"]["name"] = Value::from(r.name.clone());
            if let Some(ns) = &r.namespace {
                obj["metadata"]["namespace"] = Value::from(ns.clone());
            }
            self.default_and_status(r, &mut obj);
            validate(r, &obj, None)?;
            self.admit(&AdmissionRequest {
                operation: AdmissionOperation::Create,
                target: r,
                object: &obj,
                old_object: None,
                dry_run,
                user: &self.user,
            })?;
            set_managed(
                &mut obj,
                &[ManagedEntry {
                    manager: manager.to_owned(),
                    operation: "Apply".into(),
                    api_version,
                    time: Some(time.clone()),
                    subresource: String::new(),
                    fields: applied,
                }],
            );
            let mut stored = obj;
            if dry_run {
                // A dry run reports what would be stored, with no resourceVersion or uid.
                stored["metadata"]["creationTimestamp"] = Value::from(time);
                return Ok((201, stored));
            }
            self.stamp(&mut stored, Some(time));
            self.objects.insert(key_of(r), stored.clone());
            return Ok((201, stored));
        };

        // Update: conflicts first.
        let mut entries = managed_entries(&old);
        let mut conflicts: Vec<(String, FieldPath)> = Vec::new();
        for e in &entries {
            if e.manager == manager && e.operation == "Apply" {
                continue;
            }
            for p in applied.iter() {
                let owned = e.fields.contains(p);
                if !owned {
                    continue;
                }
                let same = match (value_at(&old, p), value_at(&applied_cfg, p)) {
                    (Some(a), Some(b)) => semantically_equal(&p.0, a, b),
                    (None, None) => true,
                    _ => false,
                };
                if !same {
                    conflicts.push((e.conflict_name(), p.clone()));
                }
            }
        }
        if !conflicts.is_empty() && !force {
            return Err(conflict_status(r, &conflicts));
        }
        let previous: FieldSet = entries
            .iter()
            .filter(|e| e.manager == manager && e.operation == "Apply" && e.subresource.is_empty())
            .fold(FieldSet::default(), |mut acc, e| {
                acc.0.extend(e.fields.0.iter().cloned());
                acc
            });
        let mut new = old.clone();
        for p in previous.iter().filter(|p| !applied.contains(p)) {
            let owned_by_other = entries
                .iter()
                .any(|e| !(e.manager == manager && e.operation == "Apply") && e.fields.covers(p));
            if !owned_by_other {
                remove_at(&mut new, p);
            }
        }
        for p in applied.iter() {
            if let Some(v) = value_at(&applied_cfg, p) {
                set_at(&mut new, p, v.clone());
            }
        }
        self.default_and_status(r, &mut new);
        // Ownership: ours is exactly the applied set; forced fields leave the others.
        if force {
            let taken: BTreeSet<&FieldPath> = conflicts.iter().map(|(_, p)| p).collect();
            for e in &mut entries {
                if !(e.manager == manager && e.operation == "Apply") {
                    e.fields.0.retain(|p| !taken.contains(p));
                }
            }
        }
        match entries
            .iter_mut()
            .find(|e| e.manager == manager && e.operation == "Apply" && e.subresource.is_empty())
        {
            Some(e) => {
                if e.fields != applied {
                    e.fields = applied.clone();
                    e.time = Some(time.clone());
                    e.api_version = api_version.clone();
                }
            }
            None => entries.push(ManagedEntry {
                manager: manager.to_owned(),
                operation: "Apply".into(),
                api_version: api_version.clone(),
                time: Some(time.clone()),
                subresource: String::new(),
                fields: applied.clone(),
            }),
        }
        // Managers left without fields disappear; the applier keeps its entry even when empty.
        entries
            .retain(|e| !e.fields.is_empty() || (e.manager == manager && e.operation == "Apply"));
        set_managed(&mut new, &entries);
        let unchanged = strip_server_fields(&new) == strip_server_fields(&old)
            && managed_entries(&new) == managed_entries(&old);
        if unchanged {
            // No-op apply: nothing is written (same resourceVersion).
            return Ok((200, old));
        }
        validate(r, &new, Some(&old))?;
        self.admit(&AdmissionRequest {
            operation: AdmissionOperation::Update,
            target: r,
            object: &new,
            old_object: Some(&old),
            dry_run,
            user: &self.user,
        })?;
        if dry_run {
            return Ok((200, new));
        }
        self.bump(&mut new);
        self.objects.insert(key_of(r), new.clone());
        Ok((200, new))
    }

    /// Server defaulting of the kinds cube-rs writes, and the quota controller's status.
    fn default_and_status(&self, r: &ObjectRef, obj: &mut Value) {
        canonicalize_quantities(obj);
        match r.resource.kind.as_str() {
            "Namespace" => {
                obj["metadata"]["labels"]["kubernetes.io/metadata.name"] =
                    Value::from(r.name.clone());
                if obj["spec"]["finalizers"].is_null() {
                    obj["spec"]["finalizers"] = json!(["kubernetes"]);
                }
                obj["status"] = json!({"phase": "Active"});
            }
            "PriorityClass" if obj["preemptionPolicy"].is_null() => {
                obj["preemptionPolicy"] = Value::from("PreemptLowerPriority");
            }
            "ResourceQuota" => {
                obj["status"] = self.quota_status(r, obj);
            }
            _ => {}
        }
    }

    fn quota_status(&self, r: &ObjectRef, quota: &Value) -> Value {
        let ns = r.namespace.clone().unwrap_or_default();
        let in_ns = |kind: &str| -> Vec<Value> {
            let Some(t) = ResourceType::of_kind(kind) else {
                return Vec::new();
            };
            self.objects
                .iter()
                .filter(|((g, p, n, _), _)| *g == t.group && *p == t.plural && *n == ns)
                .map(|(_, v)| v.clone())
                .collect()
        };
        let pods: Vec<cube_model::objects::Pod> = in_ns("Pod")
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect();
        let pvcs: Vec<cube_model::objects::PersistentVolumeClaim> = in_ns("PersistentVolumeClaim")
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect();
        let Ok(model) = serde_json::from_value::<cube_model::objects::ResourceQuota>(quota.clone())
        else {
            return json!({});
        };
        let used = cube_quota::quota::quota_usage(&model, &pods, &pvcs, None);
        let mut hard = Map::new();
        let mut used_out = Map::new();
        for (k, q) in &model.spec.hard {
            hard.insert(k.to_string(), Value::from(q.to_canonical_string()));
            let u = used
                .get(k.as_str())
                .map(|u| u.to_canonical_string())
                .unwrap_or_else(|| "0".to_owned());
            used_out.insert(k.to_string(), Value::from(u));
        }
        json!({"hard": hard, "used": used_out})
    }
}

/// A quantity under a resource-list key that does not parse: the decoder's message
/// (`k8s.io/apimachinery/pkg/api/resource` `ErrFormatWrong`).
fn bad_quantity(config: &Value) -> Option<String> {
    fn go(v: &Value, path: &mut Vec<String>) -> Option<String> {
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    path.push(k.clone());
                    let r = go(c, path);
                    path.pop();
                    if r.is_some() {
                        return r;
                    }
                }
                None
            }
            Value::Array(a) => {
                path.push(crate::ssa::LIST_ITEM.to_owned());
                let r = a.iter().find_map(|c| go(c, path));
                path.pop();
                r
            }
            Value::String(s) if crate::ssa::is_quantity_path(path) => {
                cube_model::Quantity::parse(s).err().map(|_| {
                    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".to_owned()
                })
            }
            _ => None,
        }
    }
    go(config, &mut Vec::new())
}

/// The 409 of a conflicting apply (`k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go`).
fn conflict_status(r: &ObjectRef, conflicts: &[(String, FieldPath)]) -> Status {
    let message = if let [(m, p)] = conflicts {
        format!("Apply failed with 1 conflict: conflict with {m}: {p}")
    } else {
        let mut by: BTreeMap<&str, Vec<&FieldPath>> = BTreeMap::new();
        for (m, p) in conflicts {
            by.entry(m.as_str()).or_default().push(p);
        }
        let mut lines = Vec::new();
        for (m, paths) in by {
            lines.push(format!("conflicts with {m}:"));
            for p in paths {
                lines.push(format!("- {p}"));
            }
        }
        format!(
            "Apply failed with {} conflicts: {}",
            conflicts.len(),
            lines.join("\n")
        )
    };
    let causes = conflicts
        .iter()
        .map(|(m, p)| StatusCause {
            reason: "FieldManagerConflict".into(),
            message: format!("conflict with {m}"),
            field: p.to_string(),
        })
        .collect();
    with_details(
        status(409, "Conflict", message),
        &r.resource,
        &r.name,
        causes,
    )
}

/// Validation of the kinds cube-rs writes (create when `old` is `None`).
fn validate(r: &ObjectRef, obj: &Value, old: Option<&Value>) -> Result<(), Status> {
    let mut errors = Vec::new();
    match r.resource.kind.as_str() {
        "ResourceQuota" => {
            if let Some(hard) = obj["spec"]["hard"].as_object() {
                for (k, v) in hard {
                    let s = v.as_str().unwrap_or_default();
                    if cube_model::Quantity::parse(s).is_ok_and(|q| q.is_negative()) {
                        errors.push(FieldError {
                            field: format!("spec.hard[{k}]"),
                            kind: "Invalid value",
                            reason: "FieldValueInvalid",
                            detail: format!("{s:?}: must be greater than or equal to 0"),
                        });
                    }
                }
            }
        }
        "PriorityClass" => {
            if let Some(old) = old {
                if obj["value"] != old["value"] {
                    errors.push(FieldError {
                        field: "value".into(),
                        kind: "Forbidden",
                        reason: "FieldValueForbidden",
                        detail: "may not be changed in an update.".into(),
                    });
                }
                if obj["preemptionPolicy"] != old["preemptionPolicy"] {
                    errors.push(FieldError {
                        field: "preemptionPolicy".into(),
                        kind: "Invalid value",
                        reason: "FieldValueInvalid",
                        detail: format!("{}: field is immutable", obj["preemptionPolicy"]),
                    });
                }
            }
        }
        "RoleBinding" | "ClusterRoleBinding" => {
            if let Some(old) = old
                && obj["roleRef"] != old["roleRef"]
            {
                let rr = &obj["roleRef"];
                errors.push(FieldError {
                    field: "roleRef".into(),
                    kind: "Invalid value",
                    reason: "FieldValueInvalid",
                    detail: format!(
                        "rbac.RoleRef{{APIGroup:{:?}, Kind:{:?}, Name:{:?}}}: cannot change roleRef",
                        rr["apiGroup"].as_str().unwrap_or_default(),
                        rr["kind"].as_str().unwrap_or_default(),
                        rr["name"].as_str().unwrap_or_default()
                    ),
                });
            }
        }
        _ => {}
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(invalid(&r.resource, &r.name, errors))
    }
}

// ------------------------------------------------------------------ loopback HTTP

/// Largest request body [`serve`] reads (a bigger one is answered 413).
pub const MAX_SERVED_BODY: usize = 3 * 1024 * 1024;

/// Serves `cluster` over plain HTTP/1.1 on `listener` until the returned task is aborted, so a
/// program that takes a kubeconfig can be pointed at it (see [`kubeconfig_yaml`]): each request
/// is answered by [`MemoryCluster::handle`]. Meant for loopback test doubles only: no TLS, no
/// authentication (every request is made as the cluster's user).
pub fn serve(
    cluster: Arc<MemoryCluster>,
    listener: tokio::net::TcpListener,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let cluster = cluster.clone();
            tokio::spawn(async move {
                let _ = serve_stream(cluster, stream).await;
            });
        }
    })
}

/// Serves `cluster` over HTTPS (HTTP/1.1 inside TLS with `config`, typically a loopback
/// certificate of a test CA) on `listener` until the returned task is aborted: what a program
/// that sends credentials needs (a client sends no token over plain http). Requests are
/// authenticated with the tokens of [`MemoryCluster::with_token`].
pub fn serve_tls(
    cluster: Arc<MemoryCluster>,
    listener: tokio::net::TcpListener,
    config: Arc<rustls::ServerConfig>,
) -> tokio::task::JoinHandle<()> {
    let acceptor = tokio_rustls::TlsAcceptor::from(config);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let cluster = cluster.clone();
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                if let Ok(tls) = acceptor.accept(stream).await {
                    let _ = serve_stream(cluster, tls).await;
                }
            });
        }
    })
}

/// Serves `cluster` over one connection (plain HTTP/1.1, keep-alive, as [`serve`] does for each
/// accepted connection) until the peer closes it; `stream` may be a TLS stream, so a test double
/// can present a certificate and receive bearer tokens ([`MemoryCluster::with_token`]).
///
/// # Errors
/// The connection's I/O errors.
pub async fn serve_stream<S>(cluster: Arc<MemoryCluster>, stream: S) -> std::io::Result<()>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_owned();
        let target = parts.next().unwrap_or("/").to_owned();
        let mut builder = http::Request::builder()
            .method(method.as_str())
            .uri(target.as_str());
        let mut length = 0usize;
        let mut chunked = false;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).await? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                let (k, v) = (k.trim(), v.trim());
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.parse().unwrap_or(0);
                }
                if k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
                {
                    chunked = true;
                }
                builder = builder.header(k, v);
            }
        }
        let mut body = Vec::new();
        let mut too_large = length > MAX_SERVED_BODY;
        if chunked {
            loop {
                let mut size = String::new();
                reader.read_line(&mut size).await?;
                let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
                if body.len() + n > MAX_SERVED_BODY {
                    too_large = true;
                    break;
                }
                let mut chunk = vec![0u8; n + 2];
                reader.read_exact(&mut chunk).await?;
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        } else if !too_large {
            body.resize(length, 0);
            reader.read_exact(&mut body).await?;
        }
        let response = match builder.body(body) {
            Ok(_) if too_large => status_response(&status(
                413,
                "RequestEntityTooLarge",
                "the request body is larger than this in-memory server reads",
            )),
            Ok(req) => cluster.handle(&req),
            Err(e) => status_response(&status(400, "BadRequest", e.to_string())),
        };
        let reason = response.status().canonical_reason().unwrap_or("Status");
        let head = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            response.status().as_u16(),
            response.body().len()
        );
        let w = reader.get_mut();
        w.write_all(head.as_bytes()).await?;
        w.write_all(response.body()).await?;
        w.flush().await?;
        if too_large {
            return Ok(());
        }
    }
}

fn status_response(s: &Status) -> http::Response<Vec<u8>> {
    http::Response::builder()
        .status(s.code)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(serde_json::to_vec(&status_json(s)).unwrap_or_default())
        .unwrap_or_else(|_| http::Response::new(Vec::new()))
}

/// A kubeconfig (YAML) with one context `memory` pointing at `http://<addr>` (plain HTTP, no
/// credentials: a client drops credentials over plain HTTP anyway).
pub fn kubeconfig_yaml(addr: std::net::SocketAddr) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: memory\n  cluster:\n    server: http://{addr}\nusers:\n- name: memory\n  user: {{}}\ncontexts:\n- name: memory\n  context:\n    cluster: memory\n    user: memory\ncurrent-context: memory\n"
    )
}

#[async_trait]
impl RawTransport for MemoryCluster {
    async fn send_text(&self, request: http::Request<Vec<u8>>) -> Result<String, kube::Error> {
        let response = self.handle(&request);
        let code = response.status();
        let text = String::from_utf8_lossy(response.body()).into_owned();
        if code.is_client_error() || code.is_server_error() {
            let s = serde_json::from_str::<Status>(&text).unwrap_or_else(|_| {
                Status::failure(&text, "Failed to parse error data").with_code(code.as_u16())
            });
            return Err(kube::Error::Api(Box::new(s)));
        }
        Ok(text)
    }
}

crate::api::seams_via_raw!(MemoryCluster);

#[async_trait]
impl AccessReviewer for MemoryCluster {
    async fn review(
        &self,
        request: &AccessRequest,
    ) -> Result<SubjectAccessReviewStatus, ProfileError> {
        crate::profiles::raw_review(self, request).await
    }

    async fn rules(&self, namespace: &str) -> Result<SubjectRulesReviewStatus, ProfileError> {
        crate::profiles::raw_rules(self, namespace).await
    }
}
