//! Live snapshot collection: list every kind a [`ClusterSnapshot`] holds from a cluster, page by
//! page (`limit` + `continue`), and feed the raw list JSON to cube-model's loader.
//!
//! A kind the credentials may not list (403 Forbidden) or the server does not serve (404, for
//! example an API group that is turned off) is recorded in `missing_kinds` with the server's
//! message; the rest still loads. Only failures that make every further request pointless
//! (transport errors, 401 Unauthorized) stop the collection.
//!
//! Bootstrap tokens come from `kube-system` Secrets listed with the field selector
//! `type=bootstrap.kubernetes.io/token`, so no other Secret is even transferred; the loader keeps
//! only the public part of each token (never the token secret).
//!
//! Mirrors `kubectl get <kinds> -A -o json` with client-go's pager (`k8s.io/client-go/tools/pager`:
//! `limit`, then `continue` from `metadata.continue` until it is empty).
//!
//! ```no_run
//! # async fn run(client: kube::Client) -> Result<(), cube_cluster::snapshot::SnapshotError> {
//! use cube_cluster::snapshot::{CollectOptions, collect_snapshot};
//! let snap = collect_snapshot(&client, &CollectOptions::default(), |p| eprintln!("{p}")).await?;
//! for (kind, why) in &snap.missing_kinds {
//!     eprintln!("not collected: {kind}: {why}");
//! }
//! # Ok(()) }
//! ```

use std::fmt;

use cube_model::ClusterSnapshot;

/// Default page size (`limit`), as kubectl's default chunk size.
pub const DEFAULT_PAGE_SIZE: u32 = 500;

/// One kind to collect: a name for reports and the list path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CollectKind {
    /// The key used in `missing_kinds` and progress (`Node`, `ClusterRole`, `BootstrapToken`).
    pub kind: &'static str,
    /// List path (all namespaces).
    pub path: &'static str,
    /// Extra query (already percent-encoded), for example a field selector.
    pub query: &'static str,
}

/// Every kind a `ClusterSnapshot` holds, in collection order.
pub const ALL_KINDS: &[CollectKind] = &[
    CollectKind {
        kind: "Node",
        path: "/api/v1/nodes",
        query: "",
    },
    CollectKind {
        kind: "Namespace",
        path: "/api/v1/namespaces",
        query: "",
    },
    CollectKind {
        kind: "Pod",
        path: "/api/v1/pods",
        query: "",
    },
    CollectKind {
        kind: "ResourceQuota",
        path: "/api/v1/resourcequotas",
        query: "",
    },
    CollectKind {
        kind: "LimitRange",
        path: "/api/v1/limitranges",
        query: "",
    },
    CollectKind {
        kind: "PriorityClass",
        path: "/apis/scheduling.k8s.io/v1/priorityclasses",
        query: "",
    },
    CollectKind {
        kind: "DaemonSet",
        path: "/apis/apps/v1/daemonsets",
        query: "",
    },
    CollectKind {
        kind: "Event",
        path: "/api/v1/events",
        query: "",
    },
    CollectKind {
        kind: "StorageClass",
        path: "/apis/storage.k8s.io/v1/storageclasses",
        query: "",
    },
    CollectKind {
        kind: "PersistentVolume",
        path: "/api/v1/persistentvolumes",
        query: "",
    },
    CollectKind {
        kind: "PersistentVolumeClaim",
        path: "/api/v1/persistentvolumeclaims",
        query: "",
    },
    CollectKind {
        kind: "Role",
        path: "/apis/rbac.authorization.k8s.io/v1/roles",
        query: "",
    },
    CollectKind {
        kind: "ClusterRole",
        path: "/apis/rbac.authorization.k8s.io/v1/clusterroles",
        query: "",
    },
    CollectKind {
        kind: "RoleBinding",
        path: "/apis/rbac.authorization.k8s.io/v1/rolebindings",
        query: "",
    },
    CollectKind {
        kind: "ClusterRoleBinding",
        path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
        query: "",
    },
    CollectKind {
        kind: "PodDisruptionBudget",
        path: "/apis/policy/v1/poddisruptionbudgets",
        query: "",
    },
    CollectKind {
        kind: "BootstrapToken",
        path: "/api/v1/namespaces/kube-system/secrets",
        query: "fieldSelector=type%3Dbootstrap.kubernetes.io%2Ftoken",
    },
];

/// Options of [`collect_snapshot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectOptions {
    /// Items per page (`limit`); `0` means [`DEFAULT_PAGE_SIZE`].
    pub page_size: u32,
    /// Kinds to collect (default [`ALL_KINDS`]).
    pub kinds: Vec<CollectKind>,
}

impl Default for CollectOptions {
    fn default() -> Self {
        CollectOptions {
            page_size: DEFAULT_PAGE_SIZE,
            kinds: ALL_KINDS.to_vec(),
        }
    }
}

impl CollectOptions {
    /// Use `n` items per page.
    #[must_use]
    pub fn page_size(mut self, n: u32) -> Self {
        self.page_size = n;
        self
    }

    /// Collect only the kinds named (keys of [`ALL_KINDS`]); unknown names are ignored.
    #[must_use]
    pub fn only(mut self, kinds: &[&str]) -> Self {
        self.kinds = ALL_KINDS
            .iter()
            .filter(|k| kinds.contains(&k.kind))
            .copied()
            .collect();
        self
    }
}

/// Progress of [`collect_snapshot`], reported through the caller's callback.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CollectProgress {
    /// About to list a kind.
    Started {
        /// Kind key.
        kind: &'static str,
    },
    /// One page arrived.
    Page {
        /// Kind key.
        kind: &'static str,
        /// Page number, from 1.
        page: usize,
        /// Objects loaded for this kind so far.
        objects: usize,
    },
    /// A kind is complete.
    Done {
        /// Kind key.
        kind: &'static str,
        /// Objects loaded.
        objects: usize,
        /// Pages fetched.
        pages: usize,
    },
    /// A kind could not be collected (recorded in `missing_kinds`).
    Missing {
        /// Kind key.
        kind: &'static str,
        /// The reason.
        reason: String,
    },
}

impl fmt::Display for CollectProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CollectProgress::Started { kind } => write!(f, "listing {kind}"),
            CollectProgress::Page {
                kind,
                page,
                objects,
            } => {
                write!(f, "{kind}: page {page}, {objects} objects")
            }
            CollectProgress::Done {
                kind,
                objects,
                pages,
            } => write!(f, "{kind}: {objects} objects in {pages} page(s)"),
            CollectProgress::Missing { kind, reason } => write!(f, "{kind}: missing ({reason})"),
        }
    }
}

/// A failure that stops the collection.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// A request failed in a way that makes further requests pointless (connection, TLS,
    /// timeout, 401 Unauthorized).
    #[error("listing {kind} failed")]
    Request {
        /// The kind being listed.
        kind: &'static str,
        /// The client error.
        #[source]
        source: kube::Error,
    },
}

use crate::api::{ObjectReader, continue_token, encode_query_value};

/// Why a kind is missing, from an API error: `forbidden: <message>`, `not found: <message>`, or
/// `<reason> (<code>): <message>`. `None` when the error must stop the collection.
fn missing_reason(err: &kube::Error) -> Option<String> {
    let kube::Error::Api(status) = err else {
        return None;
    };
    if status.code == 401 || status.reason == "Unauthorized" {
        return None;
    }
    Some(if status.is_forbidden() {
        format!("forbidden: {}", status.message)
    } else if status.is_not_found() {
        format!("not found: {}", status.message)
    } else {
        format!("{} ({}): {}", status.reason, status.code, status.message)
    })
}

/// Collect a snapshot through `reader` (a `kube::Client`, a
/// [`crate::memory::MemoryCluster`], any `dyn ObjectReader`): each kind of `options.kinds` listed page by page and loaded
/// with [`ClusterSnapshot::add_bytes`] (source label `live:<path>#<page>`). Forbidden and
/// NotFound kinds (and other API errors) land in `missing_kinds`; a failure in the middle of a
/// kind keeps the pages already loaded and says so in the reason.
///
/// # Errors
/// [`SnapshotError::Request`] on transport failures and 401 Unauthorized (nothing else can
/// succeed then).
pub async fn collect_snapshot<R: ObjectReader + ?Sized>(
    reader: &R,
    options: &CollectOptions,
    mut progress: impl FnMut(CollectProgress),
) -> Result<ClusterSnapshot, SnapshotError> {
    let mut snapshot = ClusterSnapshot::new();
    let limit = if options.page_size == 0 {
        DEFAULT_PAGE_SIZE
    } else {
        options.page_size
    };
    for k in &options.kinds {
        progress(CollectProgress::Started { kind: k.kind });
        let before = snapshot.object_count();
        let mut cont = String::new();
        let mut page = 0usize;
        loop {
            let mut query = format!("limit={limit}");
            if !k.query.is_empty() {
                query.push('&');
                query.push_str(k.query);
            }
            if !cont.is_empty() {
                query.push_str("&continue=");
                query.push_str(&encode_query_value(&cont));
            }
            let uri = format!("{}?{query}", k.path);
            match reader.get_text(&uri).await {
                Ok(text) => {
                    page += 1;
                    snapshot.add_bytes(&format!("live:{}#{page}", k.path), text.as_bytes());
                    progress(CollectProgress::Page {
                        kind: k.kind,
                        page,
                        objects: snapshot.object_count() - before,
                    });
                    cont = continue_token(&text);
                    if cont.is_empty() {
                        break;
                    }
                }
                Err(err) => match missing_reason(&err) {
                    Some(mut reason) => {
                        if page > 0 {
                            reason = format!(
                                "{reason} (after {page} page(s); {} objects kept)",
                                snapshot.object_count() - before
                            );
                        }
                        snapshot
                            .missing_kinds
                            .insert(k.kind.to_string(), reason.clone());
                        progress(CollectProgress::Missing {
                            kind: k.kind,
                            reason,
                        });
                        break;
                    }
                    None => {
                        return Err(SnapshotError::Request {
                            kind: k.kind,
                            source: err,
                        });
                    }
                },
            }
        }
        if !snapshot.missing_kinds.contains_key(k.kind) {
            // every page was read: an absence of this kind is now a real absence
            snapshot.kinds_listed.insert(k.kind.to_string());
            progress(CollectProgress::Done {
                kind: k.kind,
                objects: snapshot.object_count() - before,
                pages: page,
            });
        }
    }
    Ok(snapshot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_tokens_are_encoded() {
        assert_eq!(encode_query_value("eyJ2Ijo+/="), "eyJ2Ijo%2B%2F%3D");
    }

    #[test]
    fn forbidden_and_not_found_are_missing_not_fatal() {
        let forbidden = kube::Error::Api(Box::new(kube::core::Status {
            code: 403,
            reason: "Forbidden".into(),
            message: "secrets is forbidden: User \"x\" cannot list resource \"secrets\"".into(),
            ..Default::default()
        }));
        assert!(
            missing_reason(&forbidden)
                .unwrap()
                .starts_with("forbidden: secrets")
        );
        let unauthorized = kube::Error::Api(Box::new(kube::core::Status {
            code: 401,
            reason: "Unauthorized".into(),
            message: "Unauthorized".into(),
            ..Default::default()
        }));
        assert!(missing_reason(&unauthorized).is_none());
    }

    #[test]
    fn all_kinds_cover_the_snapshot() {
        assert_eq!(ALL_KINDS.len(), 17);
        assert_eq!(
            CollectOptions::default()
                .only(&["Node", "Nope"])
                .kinds
                .len(),
            1
        );
    }
}
