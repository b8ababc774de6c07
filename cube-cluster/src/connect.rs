//! Connection check with a classified outcome: `GET /version`, then who the server says we are
//! (`SelfSubjectReview`), then optionally one access probe (a list the caller needs).
//!
//! Every failure is a [`Class`] (never a bare error): DNS, refused, timeout, TLS untrusted,
//! name mismatch, expired/not yet valid (clock-skew hint), protocol mix-up, 401, 403 with the
//! user the server saw (`system:anonymous` = no credentials sent), other statuses.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::api::{ObjectReader, ServerInfo};
use crate::classify::{Class, ForbiddenCause, ForbiddenDetail, classify_error, error_chain_text};
use crate::client::ClientOptions;
use crate::kubeconfig::Selection;

/// What `/version` reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
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
#[non_exhaustive]
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
#[serde(rename_all = "camelCase")]
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

/// Runs the check with an existing client.
pub async fn check_client(client: &kube::Client, options: &CheckOptions) -> Outcome {
    check_api(client, options).await
}

/// Runs the check through the seams ([`ServerInfo`] for `/version` and SelfSubjectReview,
/// [`ObjectReader`] for the access probe), bounded by the options' deadline: works with a
/// `kube::Client`, a [`crate::memory::MemoryCluster`] or any `dyn ClusterApi`.
pub async fn check_api<A>(api: &A, options: &CheckOptions) -> Outcome
where
    A: ServerInfo + ObjectReader + ?Sized,
{
    let deadline = options
        .deadline
        .unwrap_or(options.client.connect_timeout + options.client.read_timeout * 2);
    match tokio::time::timeout(deadline, check_inner(api, options)).await {
        Ok(o) => o,
        Err(e) => failed(
            Class::Timeout,
            format!("no answer within {deadline:?}: {e}"),
        ),
    }
}

async fn check_inner<A>(api: &A, options: &CheckOptions) -> Outcome
where
    A: ServerInfo + ObjectReader + ?Sized,
{
    let version = match api.server_version().await {
        Ok(v) => v,
        Err(kube::Error::Api(s)) if s.code == 200 => {
            return failed(Class::NotKubernetes, s.message.clone());
        }
        Err(e) => return from_kube(&e),
    };
    let (user, groups) = match api.self_subject().await {
        Ok(Some(u)) => (Some(u.name), u.groups),
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
        && let Err(e) = api.get_text(path).await
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
    let outcome = match crate::client::build_client_async(selection, &options.client).await {
        Ok(client) => check_client(&client, options).await,
        Err(e) => failed(
            crate::classify::classify_build_error(&e),
            error_chain_text(&e),
        ),
    };
    ConnectReport {
        server: selection.server.clone(),
        outcome,
        elapsed_ms: start.elapsed().as_millis() as u64,
    }
}
