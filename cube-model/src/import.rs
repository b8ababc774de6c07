//! `ImportReport`: plain data describing the outcome of importing one cluster (kubeconfig checks,
//! connection probe, RBAC checks), filled by `cube-cluster` and read by `cube-diagnose`.
//!
//! Kept here (not in `cube-cluster`) so that diagnosis never depends on a network stack.
//! Secrets never appear in this data: it holds names, URLs, classes and messages only.

use serde::{Deserialize, Serialize};

/// Classified outcome of connecting to a cluster's API server.
///
/// Mirrors the classes of the captured kubectl/HTTP texts in
/// `testdata/fixtures/apiserver/error-texts.jsonl` (`expected_class`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ConnectionClass {
    /// Connected, authenticated and the server answered.
    #[default]
    Ok,
    /// TCP connection refused (nothing listening, wrong port or advertised address).
    Refused,
    /// No answer in time (firewall, routing, black-hole listener).
    Timeout,
    /// The host name did not resolve.
    Dns,
    /// The serving certificate is not signed by a trusted CA (`x509: certificate signed by unknown authority`).
    TlsUntrusted,
    /// The serving certificate does not name the address used (`x509: certificate is valid for ..., not ...`).
    TlsNameMismatch,
    /// The serving certificate is expired or not yet valid (check clocks first).
    TlsExpired,
    /// Protocol mismatch: http to an https port or https to a plain port.
    Protocol,
    /// HTTP 401: credentials missing, expired or rejected.
    Unauthorized,
    /// HTTP 403 from the authorizer (RBAC), not from admission.
    Forbidden,
    /// The kubeconfig itself is unusable (dangling context, CA + insecure, unparseable server).
    ConfigInvalid,
    /// Anything else; see the message.
    Other,
    /// No connection was attempted (an offline import, or the kubeconfig did not validate): the
    /// report says nothing about reachability.
    NotChecked,
    /// The connection was reset or closed by the peer before an answer.
    ConnectionReset,
    /// The peer does not speak HTTP (another service on that port).
    NotHttp,
    /// An HTTP server answered, but not the Kubernetes API.
    NotKubernetes,
    /// A bound of the client was hit (body size, pages, repeated continue token, deadline).
    LimitExceeded,
    /// The kubeconfig's exec credential plugin (allowed to run) gave no credential: it
    /// failed, timed out, wrote too much or answered something that is not an
    /// `ExecCredential`. The kubeconfig itself is valid; no request was sent.
    ExecPluginFailed,
}

impl ConnectionClass {
    /// Stable kebab-case id, as serialized (`ok`, `refused`, `tls-untrusted`, `not-checked`, ...).
    pub fn id(self) -> &'static str {
        match self {
            ConnectionClass::Ok => "ok",
            ConnectionClass::Refused => "refused",
            ConnectionClass::Timeout => "timeout",
            ConnectionClass::Dns => "dns",
            ConnectionClass::TlsUntrusted => "tls-untrusted",
            ConnectionClass::TlsNameMismatch => "tls-name-mismatch",
            ConnectionClass::TlsExpired => "tls-expired",
            ConnectionClass::Protocol => "protocol",
            ConnectionClass::Unauthorized => "unauthorized",
            ConnectionClass::Forbidden => "forbidden",
            ConnectionClass::ConfigInvalid => "config-invalid",
            ConnectionClass::Other => "other",
            ConnectionClass::NotChecked => "not-checked",
            ConnectionClass::ConnectionReset => "connection-reset",
            ConnectionClass::NotHttp => "not-http",
            ConnectionClass::NotKubernetes => "not-kubernetes",
            ConnectionClass::LimitExceeded => "limit-exceeded",
            ConnectionClass::ExecPluginFailed => "exec-plugin-failed",
        }
    }
}

/// How bad a [`KubeconfigProblem`] is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ProblemSeverity {
    /// Worth knowing (a Rancher-proxied endpoint, an exec plugin that will run).
    #[default]
    Info,
    /// Loadable but risky (insecure TLS, a plugin not run, credentials dropped).
    Warning,
    /// The client refuses the kubeconfig, or the connection cannot work.
    Error,
}

/// One problem of a kubeconfig found offline, before any connection.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KubeconfigProblem {
    /// Severity.
    pub severity: ProblemSeverity,
    /// Stable kind id (`dangling-cluster`, `insecure-skip-tls-verify`, `certificate-expired`,
    /// ... : `cube_cluster::kubeconfig::ProblemKind::id`).
    pub kind: String,
    /// The context it was found in (`""` = the file as a whole).
    pub context: String,
    /// What it is about (`cluster "prod"`, `user "admin"`, `kubeconfig`).
    pub subject: String,
    /// Human text (never a secret).
    pub message: String,
    /// A suggested fix, or `""`.
    pub suggestion: String,
}

/// The connection probe's result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ConnectionOutcome {
    /// The class of the outcome.
    pub class: ConnectionClass,
    /// What happened, for people (empty when `class` is `Ok`): the class's explanation and
    /// fix, then the client's redacted error text.
    pub message: String,
}

/// One SelfSubjectAccessReview-style check of a permission the console needs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RbacCheck {
    /// Verb (`list`, `create`, ...).
    pub verb: String,
    /// API group (`""` = core).
    pub group: String,
    /// Resource (`pods`, `deployments/scale`, ...), or a non-resource path starting with `/`.
    pub resource: String,
    /// Namespace (empty = cluster scope).
    pub namespace: String,
    /// Whether the server allowed it.
    pub allowed: bool,
    /// Whether the capability profile requires it (a missing required permission is an error).
    pub required: bool,
    /// The server's reason text, if any (`RBAC: allowed by ...`); empty means no rule matched.
    pub reason: String,
}

/// A permission held beyond what the capability profile needs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OverPrivilege {
    /// What is held (`*/* at cluster scope`, `system:masters group`, `secrets get in all namespaces`).
    pub permission: String,
    /// Why it matters and what to use instead.
    pub message: String,
}

/// The outcome of importing one cluster.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImportReport {
    /// Cluster name as registered (kubeconfig cluster or context name).
    pub cluster_name: String,
    /// API server URL (no credentials).
    pub server: String,
    /// The user the server saw (SelfSubjectReview), if known.
    pub username: String,
    /// Groups the server reported for that user.
    pub groups: Vec<String>,
    /// Connection outcome.
    pub connection: ConnectionOutcome,
    /// Permission checks, in profile order.
    pub rbac_checks: Vec<RbacCheck>,
    /// Permissions held beyond the profile.
    pub over_privileges: Vec<OverPrivilege>,
    /// Kubeconfig problems found before connecting (one message each).
    pub config_problems: Vec<String>,
    /// The same problems, typed (kind id, severity, context), for rules of their own.
    pub kubeconfig_problems: Vec<KubeconfigProblem>,
    /// The RBAC profiles checked (`cube-minimal`, then any asked for).
    pub profiles: Vec<String>,
}

impl ImportReport {
    /// An empty report for `cluster_name` at `server` (connection `Ok`, no checks).
    pub fn new(cluster_name: impl Into<String>, server: impl Into<String>) -> Self {
        ImportReport {
            cluster_name: cluster_name.into(),
            server: server.into(),
            ..Default::default()
        }
    }
}
