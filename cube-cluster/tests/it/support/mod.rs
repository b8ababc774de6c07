//! Loopback HTTPS Kubernetes API double for `cube-cluster` tests.
//!
//! Use it from any test module with `use crate::support;` and then:
//!
//! ```ignore
//! let pki = support::Pki::new();
//! let api = support::ApiDouble::builder(&pki)
//!     .token("good-token", "limited", &["limited-users"])
//!     .snapshot_fixture()                 // lists answer from apiserver/snapshot-gpu-cluster.json
//!     .allow("limited", support::Rule::new(&["get", "list"], &[""], &["pods"]).namespace("gpu-test"))
//!     .start()
//!     .await;
//! let yaml = api.kubeconfig_yaml(Some("good-token"));   // CA data + https://127.0.0.1:<port>
//! ```
//!
//! What it does (everything on 127.0.0.1, certificates minted per test with rcgen, see [`pki`]):
//! - TLS with a chosen [`ServerCert`] variant (valid, wrong CA, expired, not yet valid, wrong SAN);
//!   a client that speaks plain HTTP to it gets Go's `400 Client sent an HTTP request to an HTTPS
//!   server.` like a real kube-apiserver.
//! - Authentication: `Authorization: Bearer <token>` looked up in the configured tokens; an unknown
//!   token answers 401 with the real `Status` body (`message: Unauthorized`); no header means user
//!   `system:anonymous` (group `system:unauthenticated`).
//! - Authorization: [`Authz::AllowAll`] (default; anonymous is still denied) or per-user
//!   [`Rule`]s; a denial answers 403 with the apiserver's exact message
//!   (`pods is forbidden: User "limited" cannot list resource "pods" in API group "" at the cluster scope`).
//! - `GET /version` replays `testdata/fixtures/apiserver/version.json` (any authenticated or
//!   anonymous caller, like the real `system:public-info-viewer` binding).
//! - `GET` list endpoints (`/api/v1/nodes`, `/api/v1/namespaces/<ns>/pods`,
//!   `/apis/<group>/<version>/<resource>`, ...) from a snapshot `List` JSON, with `limit` and
//!   `continue` pagination (the continue token is an opaque offset).
//! - `POST .../selfsubjectaccessreviews`: replays the captured answer when the user and spec
//!   match a case of `apiserver/selfsubjectaccessreview.json` (with [`ApiDoubleBuilder::replay_ssar_fixture`]),
//!   otherwise computes `allowed` from the rules. `POST .../selfsubjectrulesreviews` replays
//!   `selfsubjectrulesreview.json` for user `limited` or lists the user's rules. In replay mode
//!   every other request of a replayed user (lists, unmatched reviews) is decided by that
//!   user's captured rules (the SSRR answer for the namespace; `default` for cluster scope), and
//!   group `system:masters` is allowed everything, as on the real server.
//!   `POST .../selfsubjectreviews` returns the user the double saw.
//! - Misbehaviour on demand ([`Mode`]): `NeverAnswer` (accepts TCP, never speaks), `PlainHttp`
//!   (no TLS at all), `Unauthorized` (401 to everything), `Delay` (answers late), `Status(code)`
//!   (every request answers that code with a `Status` body);
//!   [`refused_addr`] gives a port that refuses connections (bound, then dropped).
//! - Every request is logged ([`ApiDouble::requests`]) with method, path, user and whether an
//!   `Authorization` header was present, so tests can assert what the client sent.
#![allow(dead_code, unused_imports)]

pub mod hostile;
pub mod live;
pub mod pki;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

pub use pki::{CertPair, Pki, SERVER_SANS, ServerCert};

/// Root of the repository's test data.
pub const TESTDATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata");

/// Reads a file under `testdata/` as a string (panics with the path on failure: test helper).
pub fn testdata(rel: &str) -> String {
    let path = format!("{TESTDATA}/{rel}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"))
}

/// Parses a JSON file under `testdata/` (panics with the path on failure: test helper).
pub fn testdata_json(rel: &str) -> Value {
    serde_json::from_str(&testdata(rel)).unwrap_or_else(|e| panic!("parse {rel}: {e}"))
}

/// The SelfSubjectAccessReview answers captured from a real v1.36 API server (under `testdata/`).
pub const SSAR_FIXTURE: &str = "fixtures/apiserver/selfsubjectaccessreview.json";
/// The SelfSubjectRulesReview answers captured from a real v1.36 API server (under `testdata/`).
pub const SSRR_FIXTURE: &str = "fixtures/apiserver/selfsubjectrulesreview.json";

/// How the double behaves at the connection level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Normal API server behaviour.
    Normal,
    /// Accept the TCP connection and never send a byte (no TLS handshake, no answer).
    NeverAnswer,
    /// Serve plain HTTP/1.1 without TLS (a client using `https://` fails the handshake).
    PlainHttp,
    /// Answer every request with 401 and the real `Unauthorized` Status body.
    Unauthorized,
    /// Wait this long before answering each request.
    Delay(Duration),
    /// Answer every request (after authentication) with this HTTP code and a `Status` body
    /// (`503` -> reason `ServiceUnavailable`, `500` -> `InternalError`, else `Failure`).
    Status(u16),
}

/// One permission in the double's simplified authorizer. `"*"` matches anything; an empty
/// `namespaces` list means every namespace and the cluster scope.
#[derive(Debug, Clone)]
pub struct Rule {
    /// Verbs (`get`, `list`, `create`, ... or `*`).
    pub verbs: Vec<String>,
    /// API groups (`""` is core).
    pub api_groups: Vec<String>,
    /// Resources, optionally `resource/subresource`.
    pub resources: Vec<String>,
    /// Namespaces the rule applies to; empty = everywhere including cluster scope.
    pub namespaces: Vec<String>,
    /// Non-resource URLs (`/healthz`, `/api/*`).
    pub non_resource_urls: Vec<String>,
}

impl Rule {
    /// A rule for verbs on resources in API groups, everywhere.
    pub fn new(verbs: &[&str], api_groups: &[&str], resources: &[&str]) -> Self {
        Self {
            verbs: verbs.iter().map(|s| s.to_string()).collect(),
            api_groups: api_groups.iter().map(|s| s.to_string()).collect(),
            resources: resources.iter().map(|s| s.to_string()).collect(),
            namespaces: Vec::new(),
            non_resource_urls: Vec::new(),
        }
    }

    /// Restrict the rule to one namespace (may be called several times).
    pub fn namespace(mut self, ns: &str) -> Self {
        self.namespaces.push(ns.to_string());
        self
    }

    /// A non-resource rule (`get` on `/healthz`, ...).
    pub fn non_resource(verbs: &[&str], urls: &[&str]) -> Self {
        Self {
            verbs: verbs.iter().map(|s| s.to_string()).collect(),
            api_groups: Vec::new(),
            resources: Vec::new(),
            namespaces: Vec::new(),
            non_resource_urls: urls.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn matches(&self, a: &Attrs) -> bool {
        let has = |list: &[String], v: &str| list.iter().any(|x| x == "*" || x == v);
        if !has(&self.verbs, &a.verb) {
            return false;
        }
        if let Some(path) = &a.path {
            return self.non_resource_urls.iter().any(|u| {
                u == path
                    || u == "*"
                    || (u.ends_with('*') && path.starts_with(u.trim_end_matches('*')))
            });
        }
        let res = match &a.subresource {
            Some(s) if !s.is_empty() => format!("{}/{}", a.resource, s),
            _ => a.resource.clone(),
        };
        has(&self.api_groups, &a.group)
            && has(&self.resources, &res)
            && (self.namespaces.is_empty()
                || a.namespace
                    .as_deref()
                    .is_some_and(|ns| self.namespaces.iter().any(|x| x == ns)))
    }
}

/// Authorizer of the double.
#[derive(Debug, Clone)]
pub enum Authz {
    /// Every authenticated user may do everything (like `system:masters`); anonymous may only
    /// read `/version`.
    AllowAll,
    /// Per-user rules; users without rules are denied everything but `/version`.
    Rules(HashMap<String, Vec<Rule>>),
}

/// Request attributes as the authorizer sees them.
#[derive(Debug, Clone, Default)]
struct Attrs {
    verb: String,
    group: String,
    resource: String,
    subresource: Option<String>,
    namespace: Option<String>,
    name: Option<String>,
    path: Option<String>,
}

/// An authenticated (or anonymous) user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// User name (`system:anonymous` when no credentials were sent).
    pub name: String,
    /// Groups.
    pub groups: Vec<String>,
}

/// One request as the double received it.
#[derive(Debug, Clone)]
pub struct LoggedRequest {
    /// HTTP method.
    pub method: String,
    /// Path with query string.
    pub path: String,
    /// The user the double resolved (None when the token was rejected).
    pub user: Option<String>,
    /// Whether an `Authorization` header was present.
    pub had_authorization: bool,
    /// Whether the connection used TLS.
    pub tls: bool,
    /// `Content-Type` (without parameters), if sent.
    pub content_type: Option<String>,
    /// The body, when it was JSON.
    pub body: Option<Value>,
}

#[derive(Clone)]
struct State {
    mode: Mode,
    tokens: HashMap<String, User>,
    authz: Authz,
    version: Value,
    items: Vec<Value>,
    ssar_cases: Vec<(String, Value, Value)>,
    ssrr_cases: Vec<(String, String, Value)>,
    log: Arc<Mutex<Vec<LoggedRequest>>>,
}

/// Builder for [`ApiDouble`].
pub struct ApiDoubleBuilder {
    cert: CertPair,
    ca_pem: String,
    state: State,
}

/// A running double; dropped = server task aborted.
pub struct ApiDouble {
    /// Listening address (127.0.0.1:port).
    pub addr: SocketAddr,
    /// The CA (PEM) a client should trust to verify the double (the cluster CA of the [`Pki`]).
    pub ca_pem: String,
    tls: bool,
    log: Arc<Mutex<Vec<LoggedRequest>>>,
    task: JoinHandle<()>,
}

impl Drop for ApiDouble {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A loopback address whose port refuses connections (bound to an ephemeral port, then closed).
pub fn refused_addr() -> SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = l.local_addr().expect("addr");
    drop(l);
    addr
}

impl ApiDouble {
    /// Starts building a double that serves certificates from `pki` (variant [`ServerCert::Valid`]).
    pub fn builder(pki: &Pki) -> ApiDoubleBuilder {
        let version: Value =
            serde_json::from_str(&testdata("fixtures/apiserver/version.json")).expect("version");
        ApiDoubleBuilder {
            cert: pki.server_cert(ServerCert::Valid),
            ca_pem: pki.ca_pem(),
            state: State {
                mode: Mode::Normal,
                tokens: HashMap::new(),
                authz: Authz::AllowAll,
                version,
                items: Vec::new(),
                ssar_cases: Vec::new(),
                ssrr_cases: Vec::new(),
                log: Arc::new(Mutex::new(Vec::new())),
            },
        }
    }

    /// `https://127.0.0.1:<port>` (or `http://` in [`Mode::PlainHttp`]).
    pub fn url(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// Requests received so far.
    pub fn requests(&self) -> Vec<LoggedRequest> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// A kubeconfig (YAML) with one context `double` pointing at this server, trusting
    /// [`ApiDouble::ca_pem`] through `certificate-authority-data`, with a bearer token if given.
    pub fn kubeconfig_yaml(&self, token: Option<&str>) -> String {
        kubeconfig_yaml(&self.url(), Some(&self.ca_pem), token)
    }
}

/// An RBAC `PolicyRule` granting `verbs` on `resources` (optionally `resource/subresource`) in
/// `groups` (`""` is core); no resource names, no non-resource URLs.
pub fn policy_rule(
    verbs: &[&str],
    groups: &[&str],
    resources: &[&str],
) -> cube_model::objects::PolicyRule {
    cube_model::objects::PolicyRule {
        verbs: verbs.iter().map(|s| s.to_string()).collect(),
        api_groups: groups.iter().map(|s| s.to_string()).collect(),
        resources: resources.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    }
}

/// A plain `kube::Client` for `api`: trusts [`ApiDouble::ca_pem`], sends `token` as a bearer
/// token when given, with `timeout` as both the connect and the read timeout.
pub fn kube_client(api: &ApiDouble, token: Option<&str>, timeout: Duration) -> kube::Client {
    use rustls::pki_types::{CertificateDer, pem::PemObject};
    let url: http::Uri = api.url().parse().expect("url");
    let mut cfg = kube::Config::new(url);
    let ders: Vec<Vec<u8>> = CertificateDer::pem_slice_iter(api.ca_pem.as_bytes())
        .map(|c| c.expect("pem").to_vec())
        .collect();
    cfg.root_cert = Some(ders);
    cfg.auth_info.token = token.map(|t| t.to_string().into());
    cfg.connect_timeout = Some(timeout);
    cfg.read_timeout = Some(timeout);
    kube::Client::try_from(cfg).expect("client")
}

/// A kubeconfig YAML for `server`, optional CA PEM (inlined as base64 data) and bearer token.
pub fn kubeconfig_yaml(server: &str, ca_pem: Option<&str>, token: Option<&str>) -> String {
    use base64::Engine as _;
    let mut s =
        String::from("apiVersion: v1\nkind: Config\nclusters:\n- name: double\n  cluster:\n");
    s.push_str(&format!("    server: {server}\n"));
    if let Some(ca) = ca_pem {
        let b64 = base64::engine::general_purpose::STANDARD.encode(ca.as_bytes());
        s.push_str(&format!("    certificate-authority-data: {b64}\n"));
    }
    s.push_str("users:\n- name: double-user\n  user:");
    match token {
        Some(t) => s.push_str(&format!("\n    token: {t}\n")),
        None => s.push_str(" {}\n"),
    }
    s.push_str(
        "contexts:\n- name: double\n  context:\n    cluster: double\n    user: double-user\ncurrent-context: double\n",
    );
    s
}

impl ApiDoubleBuilder {
    /// Present this serving certificate variant (minted from the same [`Pki`]).
    pub fn server_cert(mut self, pki: &Pki, variant: ServerCert) -> Self {
        self.cert = pki.server_cert(variant);
        self
    }

    /// Connection-level behaviour.
    pub fn mode(mut self, mode: Mode) -> Self {
        self.state.mode = mode;
        self
    }

    /// Accept bearer `token` as `user` in `groups` (plus `system:authenticated`).
    pub fn token(mut self, token: &str, user: &str, groups: &[&str]) -> Self {
        let mut g: Vec<String> = groups.iter().map(|s| s.to_string()).collect();
        g.push("system:authenticated".to_string());
        self.state.tokens.insert(
            token.to_string(),
            User {
                name: user.to_string(),
                groups: g,
            },
        );
        self
    }

    /// Grant `rule` to `user` (switches the authorizer from allow-all to rules).
    pub fn allow(mut self, user: &str, rule: Rule) -> Self {
        if let Authz::AllowAll = self.state.authz {
            self.state.authz = Authz::Rules(HashMap::new());
        }
        if let Authz::Rules(map) = &mut self.state.authz {
            map.entry(user.to_string()).or_default().push(rule);
        }
        self
    }

    /// Deny everything to everybody except rules added with [`Self::allow`].
    pub fn deny_by_default(mut self) -> Self {
        if let Authz::AllowAll = self.state.authz {
            self.state.authz = Authz::Rules(HashMap::new());
        }
        self
    }

    /// Serve lists from a `List` JSON document (kubectl `get -o json` shape).
    pub fn snapshot_json(mut self, json_text: &str) -> Self {
        let v: Value = serde_json::from_str(json_text).expect("snapshot json");
        self.state.items = v
            .get("items")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        self
    }

    /// Serve lists from `testdata/fixtures/apiserver/snapshot-gpu-cluster.json`.
    pub fn snapshot_fixture(self) -> Self {
        let text = testdata("fixtures/apiserver/snapshot-gpu-cluster.json");
        self.snapshot_json(&text)
    }

    /// Replay the captured SelfSubjectAccessReview and SelfSubjectRulesReview answers of
    /// `apiserver/selfsubjectaccessreview.json` / `selfsubjectrulesreview.json` when the user
    /// and spec match a case (users `limited` and `admin`: register tokens for them, `admin` in
    /// group `system:masters`). Other requests of `limited` are then decided by its captured
    /// SelfSubjectRulesReview rules instead of the allow-all default.
    pub fn replay_ssar_fixture(mut self) -> Self {
        let v = testdata_json(SSAR_FIXTURE);
        for c in v["cases"].as_array().cloned().unwrap_or_default() {
            let user = c["user"].as_str().unwrap_or_default().to_string();
            self.state
                .ssar_cases
                .push((user, c["request"]["spec"].clone(), c["response"].clone()));
        }
        let v = testdata_json(SSRR_FIXTURE);
        for c in v["cases"].as_array().cloned().unwrap_or_default() {
            let user = c["user"].as_str().unwrap_or("limited").to_string();
            let ns = c["request"]["spec"]["namespace"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            self.state
                .ssrr_cases
                .push((user, ns, c["response"].clone()));
        }
        self
    }

    /// Replace the `/version` body.
    pub fn version_json(mut self, v: Value) -> Self {
        self.state.version = v;
        self
    }

    /// Binds 127.0.0.1:0 and serves until the returned double is dropped.
    pub async fn start(self) -> ApiDouble {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let state = Arc::new(self.state);
        let tls = state.mode != Mode::PlainHttp;
        let acceptor = tls_acceptor(&self.cert);
        let log = state.log.clone();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                if state.mode == Mode::NeverAnswer {
                    held.push(stream); // keep it open, never answer
                    continue;
                }
                let state = state.clone();
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let _ = serve_conn(stream, acceptor, state).await;
                });
            }
        });
        ApiDouble {
            addr,
            ca_pem: self.ca_pem,
            tls,
            log,
            task,
        }
    }
}

fn tls_acceptor(cert: &CertPair) -> TlsAcceptor {
    TlsAcceptor::from(tls_server_config(cert))
}

/// A rustls server configuration presenting `cert` (no client authentication).
pub fn tls_server_config(cert: &CertPair) -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(cert.cert_pem.as_bytes())
            .collect::<Result<_, _>>()
            .expect("cert pem");
    let key = PrivateKeyDer::from_pem_slice(cert.key_pem.as_bytes()).expect("key pem");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocols")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("server config");
    Arc::new(config)
}

async fn serve_conn(
    stream: TcpStream,
    acceptor: TlsAcceptor,
    state: Arc<State>,
) -> std::io::Result<()> {
    let mut first = [0u8; 1];
    let n = stream.peek(&mut first).await?;
    if n == 0 {
        return Ok(());
    }
    if state.mode == Mode::PlainHttp {
        if first[0] == 0x16 {
            // A TLS ClientHello to a plain HTTP server: Go's net/http answers 400 and closes.
            let mut stream = stream;
            stream
                .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 Bad Request")
                .await?;
            stream.shutdown().await?;
            return Ok(());
        }
        return serve_http(stream, state, false).await;
    }
    if first[0] != 0x16 {
        // Go's net/http answer to plain HTTP on a TLS port.
        let mut stream = stream;
        stream
            .write_all(
                b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n",
            )
            .await?;
        stream.shutdown().await?;
        return Ok(());
    }
    let tls = acceptor.accept(stream).await?;
    serve_http(tls, state, true).await
}

struct Request {
    method: String,
    target: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

async fn read_request<R: AsyncRead + Unpin>(
    r: &mut BufReader<R>,
) -> std::io::Result<Option<Request>> {
    let mut line = String::new();
    if r.read_line(&mut line).await? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let target = parts.next().unwrap_or_default().to_string();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).await? == 0 {
            return Ok(None);
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
        }
    }
    let mut body = Vec::new();
    if let Some(len) = headers
        .get("content-length")
        .and_then(|v| v.parse::<usize>().ok())
    {
        body.resize(len, 0);
        r.read_exact(&mut body).await?;
    } else if headers
        .get("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).await?;
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            let mut chunk = vec![0u8; n + 2];
            r.read_exact(&mut chunk).await?;
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    }
    Ok(Some(Request {
        method,
        target,
        headers,
        body,
    }))
}

async fn serve_http<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    state: Arc<State>,
    tls: bool,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    while let Some(req) = read_request(&mut reader).await? {
        if let Mode::Delay(d) = state.mode {
            tokio::time::sleep(d).await;
        }
        let (code, body) = handle(&state, &req, tls);
        let reason = match code {
            200 => "OK",
            201 => "Created",
            400 => "Bad Request",
            401 => "Unauthorized",
            403 => "Forbidden",
            404 => "Not Found",
            429 => "Too Many Requests",
            500 => "Internal Server Error",
            503 => "Service Unavailable",
            _ => "Error",
        };
        let text = body.to_string();
        let head = format!(
            "HTTP/1.1 {code} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            text.len()
        );
        let w = reader.get_mut();
        w.write_all(head.as_bytes()).await?;
        w.write_all(text.as_bytes()).await?;
        w.flush().await?;
    }
    Ok(())
}

/// A `Status` failure body as kube-apiserver writes it.
pub fn status_body(code: u16, reason: &str, message: &str, details: Option<Value>) -> Value {
    let mut v = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    });
    if let Some(d) = details {
        v["details"] = d;
    }
    v
}

/// The 401 body of a real apiserver (`apiserver/error-texts.jsonl`, case bad-token-401).
pub fn unauthorized_body() -> Value {
    status_body(401, "Unauthorized", "Unauthorized", None)
}

/// Resource -> (group, version, kind, namespaced) for the list endpoints the double serves.
fn resource_info(resource: &str) -> Option<(&'static str, &'static str, &'static str, bool)> {
    Some(match resource {
        "nodes" => ("", "v1", "Node", false),
        "pods" => ("", "v1", "Pod", true),
        "namespaces" => ("", "v1", "Namespace", false),
        "events" => ("", "v1", "Event", true),
        "resourcequotas" => ("", "v1", "ResourceQuota", true),
        "limitranges" => ("", "v1", "LimitRange", true),
        "persistentvolumes" => ("", "v1", "PersistentVolume", false),
        "persistentvolumeclaims" => ("", "v1", "PersistentVolumeClaim", true),
        "secrets" => ("", "v1", "Secret", true),
        "serviceaccounts" => ("", "v1", "ServiceAccount", true),
        "priorityclasses" => ("scheduling.k8s.io", "v1", "PriorityClass", false),
        "daemonsets" => ("apps", "v1", "DaemonSet", true),
        "storageclasses" => ("storage.k8s.io", "v1", "StorageClass", false),
        "poddisruptionbudgets" => ("policy", "v1", "PodDisruptionBudget", true),
        "roles" => ("rbac.authorization.k8s.io", "v1", "Role", true),
        "rolebindings" => ("rbac.authorization.k8s.io", "v1", "RoleBinding", true),
        "clusterroles" => ("rbac.authorization.k8s.io", "v1", "ClusterRole", false),
        "clusterrolebindings" => (
            "rbac.authorization.k8s.io",
            "v1",
            "ClusterRoleBinding",
            false,
        ),
        _ => return None,
    })
}

fn split_target(target: &str) -> (String, HashMap<String, String>) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut q = HashMap::new();
    for kv in query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        q.insert(k.to_string(), percent_decode(v));
    }
    (path.to_string(), q)
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = if bytes[i] == b'%' && i + 2 < bytes.len() {
            std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        } else {
            None
        };
        if let Some(b) = hex {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The captured policy of a replayed user: the SelfSubjectRulesReview answer for the request's
/// namespace (cluster-scope requests use the `default` answer, which holds only the rules of
/// ClusterRoleBindings for the fixture's `limited` user). `None` when the user has no captured
/// rules.
fn captured_allows(state: &State, user: &User, a: &Attrs) -> Option<bool> {
    let ns = a.namespace.clone().unwrap_or_else(|| "default".to_string());
    let cases: Vec<&Value> = state
        .ssrr_cases
        .iter()
        .filter(|(u, _, _)| u == &user.name)
        .map(|(_, _, v)| v)
        .collect();
    if cases.is_empty() {
        return None;
    }
    let resp = state
        .ssrr_cases
        .iter()
        .find(|(u, n, _)| u == &user.name && *n == ns)
        .or_else(|| {
            state
                .ssrr_cases
                .iter()
                .find(|(u, n, _)| u == &user.name && n == "default")
        })
        .map(|(_, _, v)| v)?;
    let strs = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let status = &resp["status"];
    let allowed = if a.path.is_some() {
        status["nonResourceRules"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .any(|r| {
                let mut rule = Rule::non_resource(&[], &[]);
                rule.verbs = strs(&r["verbs"]);
                rule.non_resource_urls = strs(&r["nonResourceURLs"]);
                rule.matches(a)
            })
    } else {
        status["resourceRules"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter(|r| r["resourceNames"].as_array().is_none_or(|n| n.is_empty()))
            .any(|r| {
                let mut rule = Rule::new(&[], &[], &[]);
                rule.verbs = strs(&r["verbs"]);
                rule.api_groups = strs(&r["apiGroups"]);
                rule.resources = strs(&r["resources"]);
                rule.matches(a)
            })
    };
    Some(allowed)
}

fn authorize(state: &State, user: &User, a: &Attrs) -> bool {
    if a.path.as_deref() == Some("/version") {
        return true;
    }
    // Like kube-apiserver: system:masters is allowed before any authorizer runs.
    if user.groups.iter().any(|g| g == "system:masters") {
        return true;
    }
    let explicit = match &state.authz {
        Authz::Rules(map) => map
            .get(&user.name)
            .is_some_and(|rules| rules.iter().any(|r| r.matches(a))),
        Authz::AllowAll => false,
    };
    if explicit {
        return true;
    }
    if let Some(captured) = captured_allows(state, user, a) {
        return captured;
    }
    if user.name == "system:anonymous" {
        if let Authz::Rules(map) = &state.authz {
            return map
                .get(&user.name)
                .is_some_and(|rules| rules.iter().any(|r| r.matches(a)));
        }
        return false;
    }
    match &state.authz {
        Authz::AllowAll => true,
        Authz::Rules(map) => map
            .get(&user.name)
            .is_some_and(|rules| rules.iter().any(|r| r.matches(a))),
    }
}

/// kube-apiserver's forbidden message (`k8s.io/apiserver/pkg/endpoints/handlers/responsewriters`).
fn forbidden_message(user: &str, a: &Attrs) -> String {
    if let Some(path) = &a.path {
        return format!(
            "forbidden: User \"{user}\" cannot {} path \"{path}\"",
            a.verb
        );
    }
    let res = match &a.subresource {
        Some(s) => format!("{}/{}", a.resource, s),
        None => a.resource.clone(),
    };
    let subject = match &a.name {
        Some(n) => format!("{res} \"{n}\""),
        None => res.clone(),
    };
    let scope = match &a.namespace {
        Some(ns) => format!("in the namespace \"{ns}\""),
        None => "at the cluster scope".to_string(),
    };
    format!(
        "{subject} is forbidden: User \"{user}\" cannot {} resource \"{res}\" in API group \"{}\" {scope}",
        a.verb, a.group
    )
}

fn forbidden(user: &str, a: &Attrs) -> (u16, Value) {
    let mut details = json!({ "kind": a.resource });
    if let Some(n) = &a.name {
        details["name"] = json!(n);
    }
    (
        403,
        status_body(403, "Forbidden", &forbidden_message(user, a), Some(details)),
    )
}

fn handle(state: &State, req: &Request, tls: bool) -> (u16, Value) {
    let (path, query) = split_target(&req.target);
    let auth = req.headers.get("authorization");
    let user = match auth {
        None => Some(User {
            name: "system:anonymous".to_string(),
            groups: vec!["system:unauthenticated".to_string()],
        }),
        Some(h) => h
            .strip_prefix("Bearer ")
            .and_then(|t| state.tokens.get(t.trim()).cloned()),
    };
    let user = if state.mode == Mode::Unauthorized {
        None
    } else {
        user
    };
    if let Ok(mut log) = state.log.lock() {
        log.push(LoggedRequest {
            method: req.method.clone(),
            path: req.target.clone(),
            user: user.as_ref().map(|u| u.name.clone()),
            had_authorization: auth.is_some(),
            tls,
            content_type: req
                .headers
                .get("content-type")
                .map(|v| v.split(';').next().unwrap_or(v).trim().to_string()),
            body: serde_json::from_slice(&req.body).ok(),
        });
    }
    let Some(user) = user else {
        return (401, unauthorized_body());
    };

    if let Mode::Status(code) = state.mode {
        let reason = match code {
            503 => "ServiceUnavailable",
            500 => "InternalError",
            429 => "TooManyRequests",
            _ => "Failure",
        };
        return (
            code,
            status_body(
                code,
                reason,
                "the server is currently unable to handle the request",
                None,
            ),
        );
    }
    if path == "/version" {
        return (200, state.version.clone());
    }

    // Review APIs.
    if req.method == "POST" {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        match path.as_str() {
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews" => {
                return (201, ssar(state, &user, body));
            }
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews" => {
                return (201, ssrr(state, &user, body));
            }
            "/apis/authentication.k8s.io/v1/selfsubjectreviews" => {
                return (
                    201,
                    json!({
                        "kind": "SelfSubjectReview",
                        "apiVersion": "authentication.k8s.io/v1",
                        "metadata": {},
                        "status": {"userInfo": {"username": user.name, "groups": user.groups}},
                    }),
                );
            }
            _ => {}
        }
    }

    // Resource paths.
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (group, rest): (&str, &[&str]) = match segs.as_slice() {
        ["api", "v1", rest @ ..] => ("", rest),
        ["apis", g, _v, rest @ ..] => (g, rest),
        _ => {
            let a = Attrs {
                verb: req.method.to_ascii_lowercase(),
                path: Some(path.clone()),
                ..Default::default()
            };
            if !authorize(state, &user, &a) {
                return forbidden(&user.name, &a);
            }
            return not_found_path(&path);
        }
    };
    let (namespace, resource, name) = match rest {
        ["namespaces", ns, res] => (Some(ns.to_string()), res.to_string(), None),
        ["namespaces", ns, res, name] => (
            Some(ns.to_string()),
            res.to_string(),
            Some(name.to_string()),
        ),
        [res] => (None, res.to_string(), None),
        [res, name] => (None, res.to_string(), Some(name.to_string())),
        _ => return not_found_path(&path),
    };
    let verb = match (req.method.as_str(), &name) {
        ("GET", None) if query.get("watch").is_some_and(|w| w == "true" || w == "1") => "watch",
        ("GET", None) => "list",
        ("GET", Some(_)) => "get",
        ("POST", _) => "create",
        ("PUT", _) => "update",
        ("PATCH", _) => "patch",
        ("DELETE", _) => "delete",
        _ => "get",
    };
    let a = Attrs {
        verb: verb.to_string(),
        group: group.to_string(),
        resource: resource.clone(),
        subresource: None,
        namespace: namespace.clone(),
        name: name.clone(),
        path: None,
    };
    if !authorize(state, &user, &a) {
        return forbidden(&user.name, &a);
    }
    let Some((g, v, kind, namespaced)) = resource_info(&resource) else {
        return not_found_path(&path);
    };
    if g != group {
        return not_found_path(&path);
    }
    let matching: Vec<&Value> = state
        .items
        .iter()
        .filter(|it| it["kind"].as_str() == Some(kind))
        .filter(|it| match (&namespace, namespaced) {
            (Some(ns), true) => it["metadata"]["namespace"].as_str() == Some(ns.as_str()),
            _ => true,
        })
        .collect();
    if let Some(n) = name {
        return match matching
            .into_iter()
            .find(|it| it["metadata"]["name"].as_str() == Some(n.as_str()))
        {
            Some(it) => (200, it.clone()),
            None => (
                404,
                status_body(
                    404,
                    "NotFound",
                    &format!("{resource} \"{n}\" not found"),
                    Some(json!({"name": n, "kind": resource})),
                ),
            ),
        };
    }
    if verb != "list" {
        return (
            405,
            status_body(
                405,
                "MethodNotAllowed",
                "the server does not allow this method on the requested resource",
                None,
            ),
        );
    }
    let start: usize = query
        .get("continue")
        .filter(|c| !c.is_empty())
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let limit: usize = query
        .get("limit")
        .and_then(|l| l.parse().ok())
        .filter(|l| *l > 0)
        .unwrap_or(usize::MAX);
    let end = start.saturating_add(limit).min(matching.len());
    let page: Vec<Value> = matching
        .get(start.min(end)..end)
        .unwrap_or_default()
        .iter()
        .map(|v| (*v).clone())
        .collect();
    let mut meta = json!({ "resourceVersion": "1000" });
    if end < matching.len() {
        meta["continue"] = json!(end.to_string());
        meta["remainingItemCount"] = json!(matching.len() - end);
    }
    let api_version = if g.is_empty() {
        v.to_string()
    } else {
        format!("{g}/{v}")
    };
    (
        200,
        json!({
            "kind": format!("{kind}List"),
            "apiVersion": api_version,
            "metadata": meta,
            "items": page,
        }),
    )
}

fn not_found_path(path: &str) -> (u16, Value) {
    (
        404,
        status_body(
            404,
            "NotFound",
            "the server could not find the requested resource",
            Some(
                json!({"causes": [{"reason": "UnexpectedServerResponse", "message": format!("404 page not found: {path}")}]}),
            ),
        ),
    )
}

fn ssar(state: &State, user: &User, body: Value) -> Value {
    let spec = body.get("spec").cloned().unwrap_or(Value::Null);
    for (u, s, resp) in &state.ssar_cases {
        if u == &user.name && spec_eq(s, &spec) {
            return resp.clone();
        }
    }
    let a = if let Some(ra) = spec.get("resourceAttributes") {
        let s = |k: &str| ra.get(k).and_then(Value::as_str).map(str::to_string);
        Attrs {
            verb: s("verb").unwrap_or_default(),
            group: s("group").unwrap_or_default(),
            resource: s("resource").unwrap_or_default(),
            subresource: s("subresource").filter(|x| !x.is_empty()),
            namespace: s("namespace").filter(|x| !x.is_empty()),
            name: s("name").filter(|x| !x.is_empty()),
            path: None,
        }
    } else {
        let nra = spec
            .get("nonResourceAttributes")
            .cloned()
            .unwrap_or(Value::Null);
        Attrs {
            verb: nra["verb"].as_str().unwrap_or_default().to_string(),
            path: Some(nra["path"].as_str().unwrap_or_default().to_string()),
            ..Default::default()
        }
    };
    let allowed = authorize(state, user, &a);
    let mut status = json!({ "allowed": allowed });
    if allowed {
        status["reason"] = json!(format!("double: allowed for User \"{}\"", user.name));
    }
    json!({
        "kind": "SelfSubjectAccessReview",
        "apiVersion": "authorization.k8s.io/v1",
        "metadata": {},
        "spec": spec,
        "status": status,
    })
}

/// Compare two SSAR specs ignoring empty-string fields (the API drops them).
fn spec_eq(a: &Value, b: &Value) -> bool {
    fn clean(v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(_, v)| !(v.as_str() == Some("") || v.is_null()))
                    .map(|(k, v)| (k.clone(), clean(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    clean(a) == clean(b)
}

fn ssrr(state: &State, user: &User, body: Value) -> Value {
    let ns = body["spec"]["namespace"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    for (u, n, resp) in &state.ssrr_cases {
        if u == &user.name && n == &ns {
            return resp.clone();
        }
    }
    let rules: Vec<Rule> = match &state.authz {
        Authz::AllowAll if user.name != "system:anonymous" => {
            vec![
                Rule::new(&["*"], &["*"], &["*"]),
                Rule::non_resource(&["*"], &["*"]),
            ]
        }
        Authz::AllowAll => Vec::new(),
        Authz::Rules(map) => map.get(&user.name).cloned().unwrap_or_default(),
    };
    let resource_rules: Vec<Value> = rules
        .iter()
        .filter(|r| r.non_resource_urls.is_empty())
        .filter(|r| r.namespaces.is_empty() || r.namespaces.iter().any(|n| n == &ns))
        .map(|r| json!({"verbs": r.verbs, "apiGroups": r.api_groups, "resources": r.resources}))
        .collect();
    let non_resource_rules: Vec<Value> = rules
        .iter()
        .filter(|r| !r.non_resource_urls.is_empty())
        .map(|r| json!({"verbs": r.verbs, "nonResourceURLs": r.non_resource_urls}))
        .collect();
    json!({
        "kind": "SelfSubjectRulesReview",
        "apiVersion": "authorization.k8s.io/v1",
        "metadata": {},
        "spec": {"namespace": ns},
        "status": {"resourceRules": resource_rules, "nonResourceRules": non_resource_rules, "incomplete": false},
    })
}

/// A `kube::Client` whose requests are answered by `cluster` (kube's mock-service pattern:
/// `kube::Client::new(service, ns)` with a `tower::service_fn`), so a test sees exactly what the
/// real client sends (method, path, query, content type, body) in
/// [`cube_cluster::memory::MemoryCluster::requests`].
pub fn memory_client(cluster: Arc<cube_cluster::memory::MemoryCluster>) -> kube::Client {
    let svc = tower::service_fn(move |req: http::Request<kube::client::Body>| {
        let cluster = cluster.clone();
        async move {
            let (parts, body) = req.into_parts();
            let bytes = body.collect_bytes().await?;
            let req = http::Request::from_parts(parts, bytes.to_vec());
            let resp = cluster.handle(&req);
            Ok::<_, kube::Error>(resp.map(kube::client::Body::from))
        }
    });
    kube::Client::new(svc, "default")
}
