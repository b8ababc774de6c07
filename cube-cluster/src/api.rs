//! The async seams between cube-cluster and a Kubernetes API server: every network operation of
//! the crate goes through one of these dyn-compatible traits (`#[async_trait]`, `Send + Sync`),
//! so a service can hold them as `Box<dyn ...>` / `Arc<dyn ...>` across `.await` in spawned
//! tasks, per cluster, and swap in a double in its tests.
//!
//! | trait | operations | used by |
//! |---|---|---|
//! | [`ServerInfo`] | `GET /version`, `POST SelfSubjectReview` | [`crate::connect`], fleet probing |
//! | [`ObjectReader`] | `GET` of a path (lists page by page for snapshots) | [`crate::snapshot`], [`crate::connect`] (access probe), fleet probing |
//! | [`ObjectApplier`] | get, list by label, server-side apply (`PATCH application/apply-patch+yaml`), delete | [`crate::apply`] |
//! | [`AccessReviewer`] | SelfSubjectAccessReview, SelfSubjectRulesReview | [`crate::profiles`] |
//! | [`ClusterApi`] | all of the above | a console holding one handle per cluster |
//!
//! Two implementations ship:
//! - `kube::Client` itself implements every trait (so `&client` is accepted wherever a seam is
//!   expected, and `Arc::new(client)` is an `Arc<dyn ClusterApi>`). The requests it sends are
//!   built by the `*_request` functions of this module, so what goes on the wire is testable.
//! - [`crate::memory::MemoryCluster`]: an in-memory API server (objects, pagination, RBAC
//!   through [`crate::rbac`], server-side apply with managed fields, dry run, admission
//!   rejections) for tests and downstream users. It answers the same HTTP requests, so it can
//!   also sit behind a `kube::Client` as a mock service.
//!
//! Errors are `kube::Error` (a `Status` from the server is `kube::Error::Api`), so
//! [`crate::classify::classify_error`] classifies answers of any implementation alike.
//!
//! ```
//! use std::sync::Arc;
//! use cube_cluster::api::{ClusterApi, ServerInfo};
//! use cube_cluster::memory::MemoryCluster;
//!
//! let cluster: Arc<dyn ClusterApi> = Arc::new(MemoryCluster::new());
//! let held = Arc::clone(&cluster);
//! let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
//! let version = rt.block_on(async move {
//!     tokio::spawn(async move { held.server_version().await }).await.unwrap()
//! }).unwrap();
//! assert!(version.git_version.starts_with('v'));
//! ```

use std::fmt;

use async_trait::async_trait;
use serde::Serialize;
use serde_json::Value;

pub use crate::connect::ServerVersion;
pub use crate::profiles::AccessReviewer;
use crate::rbac::UserInfo;

/// The field manager cube-rs applies with (`metadata.managedFields[].manager`).
pub const FIELD_MANAGER: &str = "cube-rs";

/// Content type of a server-side apply patch (`k8s.io/apimachinery/pkg/types` `ApplyPatchType`;
/// JSON is valid YAML, so the body is JSON).
pub const APPLY_PATCH_CONTENT_TYPE: &str = "application/apply-patch+yaml";

/// Items per page when listing (`limit`), as kubectl's default chunk size.
pub const LIST_PAGE_SIZE: u32 = 500;

/// An API resource type: where its objects live and whether they are namespaced.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceType {
    /// API group (`""` for core).
    pub group: String,
    /// Version (`v1`).
    pub version: String,
    /// Kind (`ResourceQuota`).
    pub kind: String,
    /// Plural resource name in paths (`resourcequotas`).
    pub plural: String,
    /// Namespaced (`true`) or cluster-scoped.
    pub namespaced: bool,
}

/// `(group, version, kind, plural, namespaced)` of the types cube-rs reads or writes.
const KNOWN_TYPES: &[(&str, &str, &str, &str, bool)] = &[
    ("", "v1", "Namespace", "namespaces", false),
    ("", "v1", "Node", "nodes", false),
    ("", "v1", "Pod", "pods", true),
    ("", "v1", "Event", "events", true),
    ("", "v1", "ResourceQuota", "resourcequotas", true),
    ("", "v1", "LimitRange", "limitranges", true),
    ("", "v1", "PersistentVolume", "persistentvolumes", false),
    (
        "",
        "v1",
        "PersistentVolumeClaim",
        "persistentvolumeclaims",
        true,
    ),
    ("", "v1", "Secret", "secrets", true),
    ("", "v1", "ServiceAccount", "serviceaccounts", true),
    ("", "v1", "ConfigMap", "configmaps", true),
    (
        "scheduling.k8s.io",
        "v1",
        "PriorityClass",
        "priorityclasses",
        false,
    ),
    ("apps", "v1", "DaemonSet", "daemonsets", true),
    (
        "storage.k8s.io",
        "v1",
        "StorageClass",
        "storageclasses",
        false,
    ),
    (
        "policy",
        "v1",
        "PodDisruptionBudget",
        "poddisruptionbudgets",
        true,
    ),
    ("rbac.authorization.k8s.io", "v1", "Role", "roles", true),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "RoleBinding",
        "rolebindings",
        true,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRole",
        "clusterroles",
        false,
    ),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "ClusterRoleBinding",
        "clusterrolebindings",
        false,
    ),
];

impl ResourceType {
    fn from_row(row: &(&str, &str, &str, &str, bool)) -> Self {
        ResourceType {
            group: row.0.to_owned(),
            version: row.1.to_owned(),
            kind: row.2.to_owned(),
            plural: row.3.to_owned(),
            namespaced: row.4,
        }
    }

    /// Every built-in type cube-rs knows (core, scheduling, apps, storage, policy, RBAC).
    pub fn known() -> Vec<ResourceType> {
        KNOWN_TYPES.iter().map(Self::from_row).collect()
    }

    /// The known type of a kind (`ResourceQuota`), any group.
    pub fn of_kind(kind: &str) -> Option<ResourceType> {
        KNOWN_TYPES.iter().find(|r| r.2 == kind).map(Self::from_row)
    }

    /// The known type of an `apiVersion` + `kind` pair.
    pub fn of(api_version: &str, kind: &str) -> Option<ResourceType> {
        let (group, version) = split_api_version(api_version);
        KNOWN_TYPES
            .iter()
            .find(|r| r.0 == group && r.1 == version && r.2 == kind)
            .map(Self::from_row)
    }

    /// The known type served at `group`/`version` under `plural`.
    pub fn of_plural(group: &str, version: &str, plural: &str) -> Option<ResourceType> {
        KNOWN_TYPES
            .iter()
            .find(|r| r.0 == group && r.1 == version && r.3 == plural)
            .map(Self::from_row)
    }

    /// `v1` or `group/version`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    fn prefix(&self) -> String {
        if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        }
    }

    /// The collection path: `/api/v1/namespaces/<ns>/resourcequotas`, or all namespaces
    /// (`/api/v1/resourcequotas`) when `namespace` is `None`; cluster-scoped types ignore it.
    pub fn collection_path(&self, namespace: Option<&str>) -> String {
        match namespace.filter(|_| self.namespaced) {
            Some(ns) => format!("{}/namespaces/{ns}/{}", self.prefix(), self.plural),
            None => format!("{}/{}", self.prefix(), self.plural),
        }
    }
}

/// `group/version` -> (`group`, `version`); `v1` -> (`""`, `v1`).
pub fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.rsplit_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    }
}

/// One object: its type, namespace (`None` for cluster-scoped) and name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectRef {
    /// Type.
    pub resource: ResourceType,
    /// Namespace of a namespaced object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
}

/// Why an object cannot be addressed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ObjectRefError {
    /// `apiVersion`/`kind` is not a type cube-rs knows.
    #[error("unknown type apiVersion {api_version:?} kind {kind:?}")]
    UnknownType {
        /// `apiVersion` as written.
        api_version: String,
        /// `kind` as written.
        kind: String,
    },
    /// `metadata.name` is missing or empty.
    #[error("{kind} without metadata.name")]
    MissingName {
        /// Kind.
        kind: String,
    },
    /// A namespaced object without `metadata.namespace`.
    #[error("{kind} {name:?} is namespaced but has no metadata.namespace")]
    MissingNamespace {
        /// Kind.
        kind: String,
        /// Name.
        name: String,
    },
}

impl ObjectRef {
    /// An object of `resource` (the namespace is dropped for cluster-scoped types).
    pub fn new(resource: ResourceType, namespace: Option<&str>, name: &str) -> Self {
        let namespace = namespace.filter(|_| resource.namespaced).map(str::to_owned);
        ObjectRef {
            resource,
            namespace,
            name: name.to_owned(),
        }
    }

    /// The reference of an object's JSON (`apiVersion`, `kind`, `metadata.name`,
    /// `metadata.namespace`).
    ///
    /// # Errors
    /// [`ObjectRefError`] naming what is missing or unknown.
    pub fn of(object: &Value) -> Result<ObjectRef, ObjectRefError> {
        let api_version = object["apiVersion"].as_str().unwrap_or_default();
        let kind = object["kind"].as_str().unwrap_or_default();
        let resource =
            ResourceType::of(api_version, kind).ok_or_else(|| ObjectRefError::UnknownType {
                api_version: api_version.to_owned(),
                kind: kind.to_owned(),
            })?;
        let name = object["metadata"]["name"].as_str().unwrap_or_default();
        if name.is_empty() {
            return Err(ObjectRefError::MissingName {
                kind: kind.to_owned(),
            });
        }
        let namespace = object["metadata"]["namespace"]
            .as_str()
            .filter(|s| !s.is_empty());
        if resource.namespaced && namespace.is_none() {
            return Err(ObjectRefError::MissingNamespace {
                kind: kind.to_owned(),
                name: name.to_owned(),
            });
        }
        Ok(ObjectRef::new(resource, namespace, name))
    }

    /// `/api/v1/namespaces/<ns>/resourcequotas/<name>` (names are DNS subdomains: no escaping).
    pub fn path(&self) -> String {
        format!(
            "{}/{}",
            self.resource.collection_path(self.namespace.as_deref()),
            self.name
        )
    }
}

impl fmt::Display for ObjectRef {
    /// `Kind/namespace/name` (`Kind/name` when cluster-scoped), as plans name objects.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}/{ns}/{}", self.resource.kind, self.name),
            None => write!(f, "{}/{}", self.resource.kind, self.name),
        }
    }
}

/// Parameters of a server-side apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyParams {
    /// `fieldManager` (default [`FIELD_MANAGER`]).
    pub field_manager: String,
    /// `force=true`: take ownership of fields another manager set to another value instead of
    /// failing with 409 Conflict (kubectl `--force-conflicts`).
    pub force: bool,
    /// `dryRun=All`: the request runs through defaulting, validation and admission (webhooks
    /// included) and nothing is stored.
    pub dry_run: bool,
}

impl Default for ApplyParams {
    fn default() -> Self {
        ApplyParams {
            field_manager: FIELD_MANAGER.to_owned(),
            force: false,
            dry_run: false,
        }
    }
}

impl ApplyParams {
    /// The same parameters with `dryRun=All`.
    #[must_use]
    pub fn dry_run(mut self) -> Self {
        self.dry_run = true;
        self
    }
}

/// Who the server says the client is (`SelfSubjectReview` `status.userInfo`).
pub type SelfSubject = UserInfo;

// ------------------------------------------------------------------ the traits

/// Reading what the server is and who we are.
#[async_trait]
pub trait ServerInfo: Send + Sync {
    /// `GET /version`.
    ///
    /// # Errors
    /// The request's failure; a 200 answer that is not a Kubernetes `/version` document is
    /// `kube::Error::Api` with code 200 and reason `NotKubernetes`.
    async fn server_version(&self) -> Result<ServerVersion, kube::Error>;

    /// `POST /apis/authentication.k8s.io/v1/selfsubjectreviews`: the user and groups the server
    /// authenticated. `Ok(None)` when the server does not serve the API (404, before v1.28).
    ///
    /// # Errors
    /// The request's failure (401 when the credentials are rejected).
    async fn self_subject(&self) -> Result<Option<SelfSubject>, kube::Error>;
}

/// Reading objects: `GET` of a path, the body as text (lists are read page by page with
/// `limit` and `continue` by the callers).
#[async_trait]
pub trait ObjectReader: Send + Sync {
    /// `GET path_and_query`, the body as text.
    ///
    /// # Errors
    /// The request's failure; a non-2xx answer is `kube::Error::Api` with the server's `Status`.
    async fn get_text(&self, path_and_query: &str) -> Result<String, kube::Error>;
}

/// Writing objects with server-side apply, and the reads and deletes apply and prune need.
#[async_trait]
pub trait ObjectApplier: Send + Sync {
    /// `GET` of one object; `Ok(None)` on 404.
    ///
    /// # Errors
    /// The request's failure other than 404.
    async fn get_object(&self, target: &ObjectRef) -> Result<Option<Value>, kube::Error>;

    /// Every object of `resource` (in `namespace`, or everywhere) matching `label_selector`
    /// (`""` = all), read page by page (`limit` [`LIST_PAGE_SIZE`] + `continue`).
    ///
    /// # Errors
    /// The first failing page's error.
    async fn list_objects(
        &self,
        resource: &ResourceType,
        namespace: Option<&str>,
        label_selector: &str,
    ) -> Result<Vec<Value>, kube::Error>;

    /// Server-side apply of `object` (its fully specified intent): `PATCH` of the object's path
    /// with `Content-Type: application/apply-patch+yaml`, `fieldManager`, `force` and `dryRun`
    /// from `params`. Returns the object as the server stored it (or would have, in a dry run).
    ///
    /// # Errors
    /// The server's answer: 409 `Conflict` (fields owned by another manager), 422 `Invalid`,
    /// 404 (namespace missing), 400/403 admission denials, or the transport failure.
    async fn apply_object(
        &self,
        object: &Value,
        params: &ApplyParams,
    ) -> Result<Value, kube::Error>;

    /// `DELETE` of one object (propagation `Background`; `dryRun=All` when `dry_run`).
    /// `Ok(false)` when it was already gone (404).
    ///
    /// # Errors
    /// The request's failure other than 404.
    async fn delete_object(&self, target: &ObjectRef, dry_run: bool) -> Result<bool, kube::Error>;
}

/// Every seam at once: what a console holds per cluster (`Arc<dyn ClusterApi>`).
pub trait ClusterApi: ServerInfo + ObjectReader + ObjectApplier + AccessReviewer {}

impl<T: ServerInfo + ObjectReader + ObjectApplier + AccessReviewer + ?Sized> ClusterApi for T {}

// ------------------------------------------------------------------ requests on the wire

fn build(
    method: http::Method,
    uri: &str,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> Result<http::Request<Vec<u8>>, kube::Error> {
    let mut b = http::Request::builder()
        .method(method)
        .uri(uri)
        .header(http::header::ACCEPT, "application/json");
    if let Some(ct) = content_type {
        b = b.header(http::header::CONTENT_TYPE, ct);
    }
    b.body(body).map_err(kube::Error::HttpError)
}

/// Percent-encodes a query value (RFC 3986 unreserved characters pass).
pub fn encode_query_value(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `GET /version`.
///
/// # Errors
/// Only when the request cannot be built.
pub fn version_request() -> Result<http::Request<Vec<u8>>, kube::Error> {
    build(http::Method::GET, "/version", None, Vec::new())
}

/// `POST .../selfsubjectreviews` with an empty `SelfSubjectReview`.
///
/// # Errors
/// Only when the request cannot be built.
pub fn self_subject_review_request() -> Result<http::Request<Vec<u8>>, kube::Error> {
    let body = serde_json::json!({
        "apiVersion": "authentication.k8s.io/v1",
        "kind": "SelfSubjectReview",
    });
    build(
        http::Method::POST,
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        Some("application/json"),
        serde_json::to_vec(&body).map_err(kube::Error::SerdeError)?,
    )
}

/// `GET path_and_query`.
///
/// # Errors
/// Only when the request cannot be built.
pub fn get_request(path_and_query: &str) -> Result<http::Request<Vec<u8>>, kube::Error> {
    build(http::Method::GET, path_and_query, None, Vec::new())
}

/// One page of a list: `limit`, the label selector and the continue token, encoded.
///
/// # Errors
/// Only when the request cannot be built.
pub fn list_request(
    resource: &ResourceType,
    namespace: Option<&str>,
    label_selector: &str,
    limit: u32,
    continue_token: &str,
) -> Result<http::Request<Vec<u8>>, kube::Error> {
    let mut uri = format!("{}?limit={limit}", resource.collection_path(namespace));
    if !label_selector.is_empty() {
        uri.push_str("&labelSelector=");
        uri.push_str(&encode_query_value(label_selector));
    }
    if !continue_token.is_empty() {
        uri.push_str("&continue=");
        uri.push_str(&encode_query_value(continue_token));
    }
    get_request(&uri)
}

/// The server-side apply request of `object`: `PATCH <object path>?fieldManager=<m>[&force=true]
/// [&dryRun=All]` with `Content-Type: application/apply-patch+yaml` and the object as JSON.
///
/// # Errors
/// `kube::Error::Api` (400 `BadRequest`) when the object has no known type, name or namespace;
/// a serialization failure.
pub fn apply_request(
    object: &Value,
    params: &ApplyParams,
) -> Result<http::Request<Vec<u8>>, kube::Error> {
    let target = ObjectRef::of(object).map_err(|e| local_status(400, "BadRequest", &e))?;
    let mut uri = format!(
        "{}?fieldManager={}",
        target.path(),
        encode_query_value(&params.field_manager)
    );
    if params.force {
        uri.push_str("&force=true");
    }
    if params.dry_run {
        uri.push_str("&dryRun=All");
    }
    build(
        http::Method::PATCH,
        &uri,
        Some(APPLY_PATCH_CONTENT_TYPE),
        serde_json::to_vec(object).map_err(kube::Error::SerdeError)?,
    )
}

/// `DELETE <object path>[?dryRun=All]` with `DeleteOptions{propagationPolicy: Background}`.
///
/// # Errors
/// Only when the request cannot be built.
pub fn delete_request(
    target: &ObjectRef,
    dry_run: bool,
) -> Result<http::Request<Vec<u8>>, kube::Error> {
    let mut uri = target.path();
    if dry_run {
        uri.push_str("?dryRun=All");
    }
    let body = serde_json::json!({
        "apiVersion": "v1",
        "kind": "DeleteOptions",
        "propagationPolicy": "Background",
    });
    build(
        http::Method::DELETE,
        &uri,
        Some("application/json"),
        serde_json::to_vec(&body).map_err(kube::Error::SerdeError)?,
    )
}

/// A `Status` error built on this side (for requests that cannot be sent as asked).
pub(crate) fn local_status(code: u16, reason: &str, message: &dyn fmt::Display) -> kube::Error {
    kube::Error::Api(Box::new(kube::core::Status {
        status: Some(kube::core::response::StatusSummary::Failure),
        code,
        message: message.to_string(),
        reason: reason.to_owned(),
        ..Default::default()
    }))
}

/// Parses a `/version` body.
///
/// # Errors
/// `kube::Error::Api` (code 200, reason `NotKubernetes`) when the body is not JSON or
/// `gitVersion` is absent; the message describes the body's size and shape, never its text.
pub fn parse_version(text: &str) -> Result<ServerVersion, kube::Error> {
    let v: Value = serde_json::from_str(text).map_err(|e| {
        local_status(
            200,
            "NotKubernetes",
            &format!(
                "not a Kubernetes /version answer ({} bytes, not JSON: {})",
                text.len(),
                crate::http::json_error_text(&e)
            ),
        )
    })?;
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    let version = ServerVersion {
        git_version: s("gitVersion"),
        major: s("major"),
        minor: s("minor"),
        platform: s("platform"),
    };
    if version.git_version.is_empty() {
        // Never copy the body into the message: describe its shape only.
        let shape = match &v {
            Value::Object(m) => {
                let keys: Vec<String> = m
                    .keys()
                    .take(8)
                    .map(|k| crate::http::sanitize_server_text(k))
                    .collect();
                format!("a JSON object with keys [{}]", keys.join(", "))
            }
            Value::Array(a) => format!("a JSON array of {} items", a.len()),
            _ => "a JSON scalar".to_string(),
        };
        return Err(local_status(
            200,
            "NotKubernetes",
            &format!(
                "not a Kubernetes /version answer ({} bytes, {shape}, no gitVersion)",
                text.len()
            ),
        ));
    }
    Ok(version)
}

/// Parses a `SelfSubjectReview` answer into the user it names.
pub fn parse_self_subject(text: &str) -> Option<SelfSubject> {
    let v: Value = serde_json::from_str(text).ok()?;
    let ui = &v["status"]["userInfo"];
    let name = ui["username"].as_str().unwrap_or_default().to_string();
    let groups = ui["groups"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|g| g.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Some(UserInfo { name, groups })
}

/// `metadata.continue` of a list body (`""` on the last page).
pub fn continue_token(list_text: &str) -> String {
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct Head {
        metadata: Meta,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct Meta {
        #[serde(rename = "continue")]
        continue_: String,
    }
    serde_json::from_str::<Head>(list_text)
        .map(|h| h.metadata.continue_)
        .unwrap_or_default()
}

// ------------------------------------------------------------------ shared implementation

/// Sends a request and returns the 2xx body as text (non-2xx as `kube::Error::Api`): what the
/// concrete seams are built on. Implementations bound what they read (see
/// [`crate::http::BoundedClient`]); a bound that is hit is `kube::Error::Service` carrying a
/// [`crate::http::HttpError`] or [`crate::http::PagingError`], which
/// [`crate::classify::classify_error`] classifies.
#[async_trait]
pub(crate) trait RawTransport: Send + Sync {
    async fn send_text(&self, request: http::Request<Vec<u8>>) -> Result<String, kube::Error>;

    /// Like `send_text`, for answers that are small by nature (`/version`, reviews, one
    /// Secret): implementations apply their small-body bound.
    async fn send_small(&self, request: http::Request<Vec<u8>>) -> Result<String, kube::Error> {
        self.send_text(request).await
    }

    /// Most pages read for one list.
    fn max_pages(&self) -> usize {
        crate::limits::DEFAULT_MAX_PAGES
    }
}

/// A plain `kube::Client` reads with the default bounds ([`crate::limits::NetLimits`]); use a
/// [`crate::http::BoundedClient`] for others.
#[async_trait]
impl RawTransport for kube::Client {
    async fn send_text(&self, request: http::Request<Vec<u8>>) -> Result<String, kube::Error> {
        crate::http::BoundedClient::new(self.clone(), crate::limits::NetLimits::default())
            .send_text(request)
            .await
    }

    async fn send_small(&self, request: http::Request<Vec<u8>>) -> Result<String, kube::Error> {
        crate::http::BoundedClient::new(self.clone(), crate::limits::NetLimits::default())
            .send_small(request)
            .await
    }
}

pub(crate) async fn raw_version<T: RawTransport + ?Sized>(
    t: &T,
) -> Result<ServerVersion, kube::Error> {
    parse_version(&t.send_small(version_request()?).await?)
}

pub(crate) async fn raw_self_subject<T: RawTransport + ?Sized>(
    t: &T,
) -> Result<Option<SelfSubject>, kube::Error> {
    match t.send_small(self_subject_review_request()?).await {
        Ok(text) => Ok(parse_self_subject(&text)),
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(None),
        Err(e) => Err(e),
    }
}

/// An answer of status 200 that is not what was asked for: another kind, another object, a
/// `Status`, or not JSON at all. A Kubernetes API server answers a `GET` or a server-side
/// apply `PATCH` of an object with that object (`apiVersion`, `kind`, `metadata.name` and
/// namespace as requested), a list with `<Kind>List` whose items are of that kind, and a
/// `DELETE` with the object or a `Status` of `Success` (k8s.io/apiserver
/// `pkg/endpoints/handlers`). Anything else comes from another service or a proxy at that
/// address, and is never read as "applied" or "not there"
/// ([`crate::classify::Class::NotKubernetes`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{request}: the server answered {answer} (status 200), not {expected}: not a Kubernetes API server's answer"
)]
pub struct WrongAnswer {
    /// The request (`GET /api/v1/namespaces/a`).
    pub request: String,
    /// What a Kubernetes API server answers (`v1 Namespace a`).
    pub expected: String,
    /// What came (`v1 List`, `text that is not JSON`), escaped and cut short.
    pub answer: String,
}

/// `apiVersion kind namespace/name` of an answer, for [`WrongAnswer::answer`].
fn describe_answer(v: &Value) -> String {
    let field = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or("");
    let kind = field("/kind");
    if kind.is_empty() {
        return if v.is_object() {
            "a JSON object without kind".to_owned()
        } else {
            "JSON that is not an object".to_owned()
        };
    }
    let ns = field("/metadata/namespace");
    let name = field("/metadata/name");
    let text = format!(
        "{} {kind}{}{}",
        field("/apiVersion"),
        if name.is_empty() { "" } else { " " },
        if ns.is_empty() {
            name.to_owned()
        } else {
            format!("{ns}/{name}")
        }
    );
    let cut: String = text.trim().chars().take(160).collect();
    cube_model::terminal::escape_line(&cut).into_owned()
}

fn wrong_answer(request: String, expected: String, answer: String) -> kube::Error {
    kube::Error::Service(Box::new(WrongAnswer {
        request,
        expected,
        answer,
    }))
}

/// The answer text as JSON, or a [`WrongAnswer`] saying it is not JSON.
fn answer_json(text: &str, request: &str, expected: &str) -> Result<Value, kube::Error> {
    serde_json::from_str(text).map_err(|_| {
        wrong_answer(
            request.to_owned(),
            expected.to_owned(),
            "text that is not JSON".to_owned(),
        )
    })
}

/// Checks that `answer` is the object `api_version`/`kind` `namespace`/`name`.
fn check_object_answer(
    answer: &Value,
    request: &str,
    api_version: &str,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> Result<(), kube::Error> {
    let field = |p: &str| answer.pointer(p).and_then(Value::as_str).unwrap_or("");
    let ns_ok = match namespace {
        // the server fills metadata.namespace of a namespaced object
        Some(ns) => field("/metadata/namespace") == ns,
        None => field("/metadata/namespace").is_empty(),
    };
    if field("/apiVersion") == api_version
        && field("/kind") == kind
        && field("/metadata/name") == name
        && ns_ok
    {
        return Ok(());
    }
    let expected = match namespace {
        Some(ns) => format!("{api_version} {kind} {ns}/{name}"),
        None => format!("{api_version} {kind} {name}"),
    };
    Err(wrong_answer(
        request.to_owned(),
        expected,
        describe_answer(answer),
    ))
}

pub(crate) async fn raw_get_object<T: RawTransport + ?Sized>(
    t: &T,
    target: &ObjectRef,
) -> Result<Option<Value>, kube::Error> {
    let path = target.path();
    match t.send_text(get_request(&path)?).await {
        Ok(text) => {
            let request = format!("GET {path}");
            let expected = format!("{} {}", target.resource.api_version(), target.resource.kind);
            let v = answer_json(&text, &request, &expected)?;
            check_object_answer(
                &v,
                &request,
                &target.resource.api_version(),
                &target.resource.kind,
                target
                    .resource
                    .namespaced
                    .then_some(())
                    .and(target.namespace.as_deref()),
                &target.name,
            )?;
            Ok(Some(v))
        }
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(None),
        Err(e) => Err(e),
    }
}

pub(crate) async fn raw_list_objects<T: RawTransport + ?Sized>(
    t: &T,
    resource: &ResourceType,
    namespace: Option<&str>,
    label_selector: &str,
) -> Result<Vec<Value>, kube::Error> {
    let mut out = Vec::new();
    let mut token = String::new();
    let mut seen = std::collections::HashSet::new();
    let path = resource.collection_path(namespace);
    for _page in 0..t.max_pages() {
        let text = t
            .send_text(list_request(
                resource,
                namespace,
                label_selector,
                LIST_PAGE_SIZE,
                &token,
            )?)
            .await?;
        let request = format!("GET {path}");
        let list_kind = format!("{}List", resource.kind);
        let api_version = resource.api_version();
        let expected = format!("{api_version} {list_kind}");
        let mut v = answer_json(&text, &request, &expected)?;
        // a list of this kind (`<Kind>List`, or the generic `List` of aggregated servers),
        // with an `items` array (null when empty) whose items are of this kind
        let kind_ok = v
            .get("kind")
            .and_then(Value::as_str)
            .is_some_and(|k| k == list_kind || k == "List");
        let items_ok = match v.get("items") {
            Some(Value::Array(items)) => items.iter().all(|i| {
                i.is_object()
                    && i.get("kind")
                        .and_then(Value::as_str)
                        .is_none_or(|k| k == resource.kind)
            }),
            Some(Value::Null) => true,
            _ => false,
        };
        if !(kind_ok && items_ok) {
            return Err(wrong_answer(request, expected, describe_answer(&v)));
        }
        if let Some(items) = v.get_mut("items").and_then(Value::as_array_mut) {
            for mut item in items.drain(..) {
                // Items of a list carry no apiVersion/kind on the wire: restore them.
                if let Some(m) = item.as_object_mut() {
                    m.entry("apiVersion")
                        .or_insert_with(|| Value::from(api_version.clone()));
                    m.entry("kind")
                        .or_insert_with(|| Value::from(resource.kind.clone()));
                }
                out.push(item);
            }
        }
        token = continue_token(&text);
        if token.is_empty() {
            return Ok(out);
        }
        if !seen.insert(token.clone()) {
            return Err(kube::Error::Service(Box::new(
                crate::http::PagingError::RepeatedContinue {
                    path,
                    page: seen.len() + 1,
                },
            )));
        }
    }
    Err(kube::Error::Service(Box::new(
        crate::http::PagingError::TooManyPages {
            path,
            limit: t.max_pages(),
        },
    )))
}

pub(crate) async fn raw_apply<T: RawTransport + ?Sized>(
    t: &T,
    object: &Value,
    params: &ApplyParams,
) -> Result<Value, kube::Error> {
    let request = apply_request(object, params)?;
    let described = format!("PATCH {}", request.uri().path());
    let text = t.send_text(request).await?;
    let field = |p: &str| object.pointer(p).and_then(Value::as_str).unwrap_or("");
    let (api_version, kind, name) = (
        field("/apiVersion"),
        field("/kind"),
        field("/metadata/name"),
    );
    let namespace = ResourceType::of(api_version, kind)
        .is_some_and(|rt| rt.namespaced)
        .then(|| field("/metadata/namespace"));
    let expected = format!("{api_version} {kind} {name}");
    let v = answer_json(&text, &described, &expected)?;
    // the server answers a server-side apply (dry run too) with the object as stored
    check_object_answer(&v, &described, api_version, kind, namespace, name)?;
    Ok(v)
}

pub(crate) async fn raw_delete<T: RawTransport + ?Sized>(
    t: &T,
    target: &ObjectRef,
    dry_run: bool,
) -> Result<bool, kube::Error> {
    match t.send_text(delete_request(target, dry_run)?).await {
        Ok(text) => {
            // the deleted object (or, being deleted, with deletionTimestamp), or a Status of
            // Success (k8s.io/apiserver pkg/endpoints/handlers/delete.go)
            let request = format!("DELETE {}", target.path());
            let expected = format!(
                "{} {} or a Status of Success",
                target.resource.api_version(),
                target.resource.kind
            );
            let v = answer_json(&text, &request, &expected)?;
            let kind = v.get("kind").and_then(Value::as_str).unwrap_or("");
            let status_ok =
                kind == "Status" && v.get("status").and_then(Value::as_str) == Some("Success");
            let object_ok = kind == target.resource.kind
                && v.pointer("/metadata/name").and_then(Value::as_str) == Some(&target.name);
            if status_ok || object_ok {
                Ok(true)
            } else {
                Err(wrong_answer(request, expected, describe_answer(&v)))
            }
        }
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(false),
        Err(e) => Err(e),
    }
}

/// Implements [`ServerInfo`], [`ObjectReader`] and [`ObjectApplier`] for a [`RawTransport`].
macro_rules! seams_via_raw {
    ($t:ty) => {
        #[async_trait::async_trait]
        impl $crate::api::ServerInfo for $t {
            async fn server_version(&self) -> Result<$crate::api::ServerVersion, kube::Error> {
                $crate::api::raw_version(self).await
            }
            async fn self_subject(&self) -> Result<Option<$crate::api::SelfSubject>, kube::Error> {
                $crate::api::raw_self_subject(self).await
            }
        }

        #[async_trait::async_trait]
        impl $crate::api::ObjectReader for $t {
            async fn get_text(&self, path_and_query: &str) -> Result<String, kube::Error> {
                $crate::api::RawTransport::send_text(
                    self,
                    $crate::api::get_request(path_and_query)?,
                )
                .await
            }
        }

        #[async_trait::async_trait]
        impl $crate::api::ObjectApplier for $t {
            async fn get_object(
                &self,
                target: &$crate::api::ObjectRef,
            ) -> Result<Option<serde_json::Value>, kube::Error> {
                $crate::api::raw_get_object(self, target).await
            }
            async fn list_objects(
                &self,
                resource: &$crate::api::ResourceType,
                namespace: Option<&str>,
                label_selector: &str,
            ) -> Result<Vec<serde_json::Value>, kube::Error> {
                $crate::api::raw_list_objects(self, resource, namespace, label_selector).await
            }
            async fn apply_object(
                &self,
                object: &serde_json::Value,
                params: &$crate::api::ApplyParams,
            ) -> Result<serde_json::Value, kube::Error> {
                $crate::api::raw_apply(self, object, params).await
            }
            async fn delete_object(
                &self,
                target: &$crate::api::ObjectRef,
                dry_run: bool,
            ) -> Result<bool, kube::Error> {
                $crate::api::raw_delete(self, target, dry_run).await
            }
        }
    };
}
pub(crate) use seams_via_raw;

seams_via_raw!(kube::Client);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_known_types() {
        let rq = ResourceType::of_kind("ResourceQuota").unwrap();
        assert_eq!(
            rq.collection_path(Some("team-a")),
            "/api/v1/namespaces/team-a/resourcequotas"
        );
        assert_eq!(rq.collection_path(None), "/api/v1/resourcequotas");
        let pc = ResourceType::of("scheduling.k8s.io/v1", "PriorityClass").unwrap();
        assert_eq!(
            ObjectRef::new(pc, Some("ignored"), "high").path(),
            "/apis/scheduling.k8s.io/v1/priorityclasses/high"
        );
        assert!(ResourceType::of("v2", "ResourceQuota").is_none());
    }

    #[test]
    fn apply_request_is_server_side_apply() {
        let obj = serde_json::json!({
            "apiVersion": "v1", "kind": "ResourceQuota",
            "metadata": {"name": "g-main", "namespace": "team-a"},
            "spec": {"hard": {"pods": "10"}}
        });
        let req = apply_request(
            &obj,
            &ApplyParams {
                force: true,
                ..ApplyParams::default()
            }
            .dry_run(),
        )
        .unwrap();
        assert_eq!(req.method(), http::Method::PATCH);
        assert_eq!(
            req.uri().to_string(),
            "/api/v1/namespaces/team-a/resourcequotas/g-main?fieldManager=cube-rs&force=true&dryRun=All"
        );
        assert_eq!(
            req.headers()[http::header::CONTENT_TYPE],
            APPLY_PATCH_CONTENT_TYPE
        );
        let missing_ns = serde_json::json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "x"}});
        assert!(matches!(
            apply_request(&missing_ns, &ApplyParams::default()),
            Err(kube::Error::Api(s)) if s.code == 400
        ));
    }

    #[test]
    fn list_request_encodes_selector_and_token() {
        let ns = ResourceType::of_kind("Namespace").unwrap();
        let req = list_request(&ns, None, "cube-rs.io/group=a", 500, "eyJ+/=").unwrap();
        assert_eq!(
            req.uri().to_string(),
            "/api/v1/namespaces?limit=500&labelSelector=cube-rs.io%2Fgroup%3Da&continue=eyJ%2B%2F%3D"
        );
    }
}
