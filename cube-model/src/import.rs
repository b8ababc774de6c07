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
}

/// The connection probe's result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ConnectionOutcome {
    /// The class of the outcome.
    pub class: ConnectionClass,
    /// The error text as reported by the client (empty when `class` is `Ok`).
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
