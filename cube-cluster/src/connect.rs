//! Connection check with a classified outcome: `GET /version`, then who the server says we are
//! (`SelfSubjectReview`), then optionally one access probe (a list the caller needs).
//!
//! Every failure is a [`Class`] (never a bare error): DNS, refused, timeout, TLS untrusted,
//! name mismatch, expired/not yet valid (clock-skew hint), protocol mix-up, 401, 403 with the
//! user the server saw (`system:anonymous` = no credentials sent), other statuses.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::classify::{Class, ForbiddenCause, ForbiddenDetail, classify_error, error_chain_text};
use crate::client::{ClientOptions, build_client};
use crate::kubeconfig::Selection;

/// What `/version` reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerVersion {
    /// `gitVersion` (`v1.36.2`).
    pub git_version: String,
    /// `major`.
    pub major: String,
    /// `minor`.
    pub minor: String,
    /// `platform` (`linux/amd64`).
    pub platform: String,
}

/// Result of a connection check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Outcome {
    /// Reachable, trusted and authenticated.
    Ok {
        /// Server version.
        version: ServerVersion,
        /// The user the server saw (from `SelfSubjectReview`; `None` when the API is missing).
        user: Option<String>,
        /// Its groups.
        groups: Vec<String>,
    },
    /// Failed, classified.
    Failed {
        /// The class.
        class: Class,
        /// Redacted error text (the chain's messages, or the Status message).
        message: String,
    },
}

impl Outcome {
    /// The class id (`ok` when it worked).
    pub fn id(&self) -> &'static str {
        match self {
            Outcome::Ok { .. } => "ok",
            Outcome::Failed { class, .. } => class.id(),
        }
    }
    /// The failure class, if any.
    pub fn class(&self) -> Option<&Class> {
        match self {
            Outcome::Ok { .. } => None,
            Outcome::Failed { class, .. } => Some(class),
        }
    }
}

/// A connection check's report.
#[derive(Debug, Clone, Serialize)]
pub struct ConnectReport {
    /// Server URL checked.
    pub server: String,
    /// Outcome.
    pub outcome: Outcome,
    /// Time taken, milliseconds.
    pub elapsed_ms: u64,
}

/// What the check does after `/version`.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Client timeouts.
    pub client: ClientOptions,
    /// Overall deadline of the whole check (default: connect + 2 x read timeout).
    pub deadline: Option<Duration>,
    /// A GET path whose 403 should fail the check (for example `/api/v1/nodes?limit=1`).
    pub access_probe: Option<String>,
}

fn failed(class: Class, message: String) -> Outcome {
    Outcome::Failed { class, message }
}

fn from_kube(err: &kube::Error) -> Outcome {
    let message = match err {
        kube::Error::Api(s) => crate::kubeconfig::redact_text(&s.message),
        other => error_chain_text(other),
    };
    failed(classify_error(err), message)
}

async fn get_json(client: &kube::Client, path: &str) -> Result<Value, kube::Error> {
    let req = http::Request::get(path)
        .body(Vec::new())
        .map_err(kube::Error::HttpError)?;
    client.request::<Value>(req).await
}

async fn whoami(client: &kube::Client) -> Result<Option<(String, Vec<String>)>, kube::Error> {
    let body = serde_json::json!({
        "apiVersion": "authentication.k8s.io/v1",
        "kind": "SelfSubjectReview",
    });
    let req = http::Request::post("/apis/authentication.k8s.io/v1/selfsubjectreviews")
        .header("content-type", "application/json")
        .body(serde_json::to_vec(&body).unwrap_or_default())
        .map_err(kube::Error::HttpError)?;
    match client.request::<Value>(req).await {
        Ok(v) => {
            let ui = &v["status"]["userInfo"];
            let user = ui["username"].as_str().unwrap_or_default().to_string();
            let groups = ui["groups"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|g| g.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            Ok(Some((user, groups)))
        }
        // Servers before 1.28 lack the API: not a failure.
        Err(kube::Error::Api(s)) if s.code == 404 => Ok(None),
        Err(e) => Err(e),
    }
}

/// Runs the check with an existing client.
pub async fn check_client(client: &kube::Client, options: &CheckOptions) -> Outcome {
    let deadline = options
        .deadline
        .unwrap_or(options.client.connect_timeout + options.client.read_timeout * 2);
    match tokio::time::timeout(deadline, check_inner(client, options)).await {
        Ok(o) => o,
        Err(e) => failed(
            Class::Timeout,
            format!("no answer within {deadline:?}: {e}"),
        ),
    }
}

async fn check_inner(client: &kube::Client, options: &CheckOptions) -> Outcome {
    let v = match get_json(client, "/version").await {
        Ok(v) => v,
        Err(e) => return from_kube(&e),
    };
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    let version = ServerVersion {
        git_version: s("gitVersion"),
        major: s("major"),
        minor: s("minor"),
        platform: s("platform"),
    };
    if version.git_version.is_empty() {
        return failed(
            Class::HttpStatus {
                code: 200,
                reason: Some("not a Kubernetes /version answer".to_string()),
            },
            crate::kubeconfig::redact_text(&v.to_string()),
        );
    }
    let (user, groups) = match whoami(client).await {
        Ok(Some((u, g))) => (Some(u), g),
        Ok(None) => (None, Vec::new()),
        Err(e) => return from_kube(&e),
    };
    if user.as_deref() == Some("system:anonymous") {
        return failed(
            Class::Forbidden {
                cause: ForbiddenCause::Anonymous,
                detail: ForbiddenDetail {
                    user: user.clone(),
                    ..Default::default()
                },
            },
            "the server sees system:anonymous: no credentials were sent".to_string(),
        );
    }
    if let Some(path) = &options.access_probe
        && let Err(e) = get_json(client, path).await
    {
        return from_kube(&e);
    }
    Outcome::Ok {
        version,
        user,
        groups,
    }
}

/// Builds a client for `selection` and checks it. Never fails: a client that cannot be built
/// is reported as [`Class::ConfigInvalid`].
pub async fn check(selection: &Selection, options: &CheckOptions) -> ConnectReport {
    let start = Instant::now();
    let outcome = match build_client(selection, &options.client) {
        Ok(client) => check_client(&client, options).await,
        Err(e) => failed(
            Class::ConfigInvalid {
                reason: error_chain_text(&e),
            },
            error_chain_text(&e),
        ),
    };
    ConnectReport {
        server: selection.server.clone(),
        outcome,
        elapsed_ms: start.elapsed().as_millis() as u64,
    }
}
