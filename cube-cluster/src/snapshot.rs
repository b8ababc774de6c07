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
    /// Most pages read for one kind ([`crate::limits::DEFAULT_MAX_PAGES`]); a kind with more
    /// is recorded in `missing_kinds` with the pages read kept. A server repeating a `continue`
    /// token is stopped at the repeat.
    pub max_pages: usize,
    /// Overall deadline of the collection (`None` = none); kinds not listed by then are
    /// recorded in `missing_kinds`.
    pub deadline: Option<std::time::Duration>,
    /// The loader's limits, applied to every page as it arrives (the snapshot returned carries
    /// them): at `max_objects_per_snapshot` objects the collection stops listing, the kind
    /// being listed and the kinds after it are recorded in `missing_kinds` and the limit in
    /// `limits_hit` (a server answering a page of 1,000,000 items is not held whole as
    /// objects past the limit).
    pub limits: cube_model::limits::Limits,
}

impl Default for CollectOptions {
    fn default() -> Self {
        CollectOptions {
            page_size: DEFAULT_PAGE_SIZE,
            kinds: ALL_KINDS.to_vec(),
            max_pages: crate::limits::DEFAULT_MAX_PAGES,
            deadline: None,
            limits: cube_model::limits::Limits::default(),
        }
    }
}

impl CollectOptions {
    /// The default kinds and page size with the page cap and collection deadline of a
    /// [`cube_model::limits::Limits`] policy (the per-request bounds belong to the reader:
    /// [`crate::http::BoundedClient`] with [`crate::limits::NetLimits::from_limits`]).
    pub fn from_limits(limits: &cube_model::limits::Limits) -> Self {
        CollectOptions {
            max_pages: usize::try_from(limits.max_pages_per_list).unwrap_or(usize::MAX),
            deadline: Some(limits.collection_deadline),
            limits: limits.clone(),
            ..CollectOptions::default()
        }
    }

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

/// Why a list answer is not a list: not JSON (with the parser's message, no content quoted), or
/// a JSON value without an `items` array (with its `kind`). `None` for a list.
fn not_a_list(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Shape {
        kind: Option<serde::de::IgnoredAny>,
        items: Option<Vec<serde::de::IgnoredAny>>,
    }
    match serde_json::from_str::<Shape>(text) {
        Ok(Shape { items: Some(_), .. }) => None,
        Ok(Shape { kind, .. }) => Some(format!(
            "a JSON object without items{}",
            if kind.is_some() {
                " (its kind is not a list)"
            } else {
                ""
            }
        )),
        Err(e) => {
            let what = if text.trim_start().starts_with('<') {
                "HTML or XML (a proxy or another server in the way?)"
            } else if text.contains('\u{fffd}') || text.bytes().any(|b| b < 0x09) {
                "binary data (a compressed body the client did not ask for?)"
            } else {
                "not JSON"
            };
            // the parser's category and place only: its message may quote the content
            let category = match e.classify() {
                serde_json::error::Category::Eof => "cut short",
                serde_json::error::Category::Data => "JSON of another shape",
                _ => "a syntax error",
            };
            Some(format!(
                "{what}: {} bytes, {category} at line {} column {}",
                text.len(),
                e.line(),
                e.column()
            ))
        }
    }
}

/// True when the snapshot holds as many objects as its limit allows, or refused some.
fn objects_full(snapshot: &ClusterSnapshot) -> bool {
    snapshot.object_count() as u64 >= snapshot.limits().max_objects_per_snapshot
        || snapshot
            .limits_hit
            .iter()
            .any(|h| h.limit == cube_model::limits::Limit::ObjectsPerSnapshot)
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
    if let kube::Error::Service(inner) = err {
        if let Some(h) = inner.downcast_ref::<crate::http::HttpError>() {
            return (!h.is_fatal()).then(|| h.to_string());
        }
        if let Some(p) = inner.downcast_ref::<crate::http::PagingError>() {
            return Some(p.to_string());
        }
        return None;
    }
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

/// True when a request got no answer at all within its timeout: no status line, no header
/// (a black-holed address, a firewall dropping packets, a port that accepts and never
/// answers). A server that answered slowly (headers, then a body cut by the timeout) is not
/// this: it is reachable.
/// `Some(timeout)` for such a failure.
fn no_answer(err: &kube::Error) -> Option<std::time::Duration> {
    let kube::Error::Service(inner) = err else {
        return None;
    };
    match inner.downcast_ref::<crate::http::HttpError>() {
        Some(crate::http::HttpError::Timeout {
            received: None,
            after,
            ..
        }) => Some(*after),
        _ => None,
    }
}

/// Lists in a row that got no answer at all ([`no_answer`]) after which the server is taken
/// as gone and the kinds left are not asked for (each would wait its own request timeout).
const SILENT_LISTS_TO_GIVE_UP: usize = 2;

/// Fewer body bytes than this received in a whole request timeout is a drip-feed (the kinds
/// after it are then not asked for): 64 KiB in the default 30 s is about 2 KiB/s, slower than
/// any link a list is read over; a large list on a slow link that the timeout cut after
/// megabytes is not this.
pub const DRIP_FEED_BYTES: u64 = 64 * 1024;

/// True when a request timed out after the server answered (status line and headers) but sent
/// less than [`DRIP_FEED_BYTES`] of its body in the whole timeout: a server that drip-feeds
/// (one byte a second), which would cost the same timeout again for every kind left. The
/// request path, the timeout and the bytes received for such a failure.
fn drip_fed(err: &kube::Error) -> Option<(String, std::time::Duration, u64)> {
    let kube::Error::Service(inner) = err else {
        return None;
    };
    match inner.downcast_ref::<crate::http::HttpError>() {
        Some(crate::http::HttpError::Timeout {
            path,
            received: Some(n),
            after,
        }) if *n < DRIP_FEED_BYTES => Some((path.clone(), *after, *n)),
        _ => None,
    }
}

/// The bound of the [`cube_model::Limits`] policy a failed request hit, if any.
fn limit_of(err: &kube::Error) -> Option<cube_model::limits::LimitExceeded> {
    let kube::Error::Service(inner) = err else {
        return None;
    };
    if let Some(h) = inner.downcast_ref::<crate::http::HttpError>() {
        return h.limit_exceeded();
    }
    inner
        .downcast_ref::<crate::http::PagingError>()
        .and_then(crate::http::PagingError::limit_exceeded)
}

/// Records `kind` as not read (never as empty) in `snapshot.missing_kinds` with `reason`, and
/// reports it through `progress`.
fn record_missing(
    snapshot: &mut ClusterSnapshot,
    kind: &'static str,
    reason: String,
    progress: &mut impl FnMut(CollectProgress),
) {
    snapshot
        .missing_kinds
        .insert(kind.to_string(), reason.clone());
    progress(CollectProgress::Missing { kind, reason });
}

/// Collect a snapshot through `reader` (a `kube::Client`, a
/// [`crate::memory::MemoryCluster`], any `dyn ObjectReader`): each kind of `options.kinds` listed page by page and loaded
/// with [`ClusterSnapshot::add_bytes`] (source label `live:<path>#<page>`). Forbidden and
/// NotFound kinds (and other API errors) land in `missing_kinds`; a failure in the middle of a
/// kind keeps the pages already loaded and says so in the reason.
///
/// A cluster that never answers costs one request timeout, not one per kind: when the first
/// request gets no answer at all within the per-request timeout (no status line: a
/// black-holed address, a dead VPN, a port that accepts and stays silent), the cluster is
/// unreachable and the collection stops with [`SnapshotError::Request`] (classified
/// [`crate::classify::Class::Timeout`]). When the server did answer before and then
/// two lists in a row get no answer, the kinds left are recorded in
/// `missing_kinds` as not listed (the server stopped answering) without being asked for.
/// A server that answers and then drip-feeds the body (less than [`DRIP_FEED_BYTES`] in a
/// whole request timeout) costs one request timeout too: the kind is recorded with its
/// timeout, and every kind after it as not listed because of that drip-feed, naming the path.
/// The list pages read by one collection, every kind together, are bounded by
/// `options.limits.max_collection_bytes` (a server that pages without end with fresh objects
/// on every page): the page that would pass it is not loaded, the kind is recorded as
/// incomplete with the typed hit (`collection-bytes`, where, the limit, how to raise it) and
/// the kinds after it as not listed.
///
/// # Errors
/// [`SnapshotError::Request`] on transport failures, 401 Unauthorized (nothing else can
/// succeed then) and a first request that got no answer at all (unreachable).
pub async fn collect_snapshot<R: ObjectReader + ?Sized>(
    reader: &R,
    options: &CollectOptions,
    mut progress: impl FnMut(CollectProgress),
) -> Result<ClusterSnapshot, SnapshotError> {
    let mut snapshot = ClusterSnapshot::new().with_limits(options.limits.clone());
    let limit = if options.page_size == 0 {
        DEFAULT_PAGE_SIZE
    } else {
        options.page_size
    };
    let deadline = crate::http::Deadline::after(options.deadline);
    let mut seen_tokens = std::collections::HashSet::new();
    // Whether the server ever answered (any status, any body), and how many lists in a row
    // got no answer at all.
    let mut answered = false;
    let mut silent_in_a_row = 0usize;
    let mut silent_after = std::time::Duration::ZERO;
    let mut gone: Option<String> = None;
    // a drip-fed answer (see [`drip_fed`]) of the kind being read
    let mut drip: Option<String> = None;
    // bytes of list pages read so far, every kind together (`Limits::max_collection_bytes`)
    let mut bytes_read: u64 = 0;
    let max_bytes = options.limits.max_collection_bytes;
    for k in &options.kinds {
        if let Some(why) = &gone {
            record_missing(&mut snapshot, k.kind, why.clone(), &mut progress);
            continue;
        }
        if objects_full(&snapshot) {
            let reason = format!(
                "not listed: {}",
                options.limits.exceeded(
                    cube_model::limits::Limit::ObjectsPerSnapshot,
                    "the live snapshot",
                    None
                )
            );
            record_missing(&mut snapshot, k.kind, reason, &mut progress);
            continue;
        }
        if deadline.passed() {
            let secs = options.deadline.unwrap_or_default().as_secs();
            let deadline_limit = cube_model::limits::Limit::CollectionDeadlineSecs;
            if !snapshot
                .limits_hit
                .iter()
                .any(|h| h.limit == deadline_limit)
            {
                let mut hit = options
                    .limits
                    .exceeded(deadline_limit, "the live collection", None);
                hit.max = secs;
                snapshot.limits_hit.push(hit);
            }
            let reason = format!(
                "not listed: the collection deadline of {secs} s passed; {}",
                deadline_limit.how_to_raise()
            );
            record_missing(&mut snapshot, k.kind, reason, &mut progress);
            continue;
        }
        progress(CollectProgress::Started { kind: k.kind });
        let before = snapshot.object_count();
        let mut cont = String::new();
        let mut page = 0usize;
        seen_tokens.clear();
        loop {
            let stop = if deadline.passed() {
                let secs = options.deadline.unwrap_or_default().as_secs();
                let mut hit = options.limits.exceeded(
                    cube_model::limits::Limit::CollectionDeadlineSecs,
                    k.path,
                    None,
                );
                hit.max = secs;
                snapshot.limits_hit.push(hit);
                Some(format!(
                    "the collection deadline of {secs} s passed; {}",
                    cube_model::limits::Limit::CollectionDeadlineSecs.how_to_raise()
                ))
            } else if page >= options.max_pages.max(1) {
                let max = options.max_pages.max(1);
                let mut hit =
                    options
                        .limits
                        .exceeded(cube_model::limits::Limit::PagesPerList, k.path, None);
                hit.max = max as u64;
                snapshot.limits_hit.push(hit);
                Some(format!(
                    "more than {max} pages; stopped; {}",
                    cube_model::limits::Limit::PagesPerList.how_to_raise()
                ))
            } else if !cont.is_empty() && !seen_tokens.insert(cont.clone()) {
                Some(format!(
                    "the server repeated a continue token at page {page}; stopped instead of paging forever"
                ))
            } else {
                None
            };
            if let Some(reason) = stop {
                let reason = format!(
                    "incomplete: {reason} (after {page} page(s); {} objects kept)",
                    snapshot.object_count() - before
                );
                record_missing(&mut snapshot, k.kind, reason, &mut progress);
                break;
            }
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
            let request = reader.get_text(&uri);
            let answer = match deadline.remaining() {
                Some(left) => match tokio::time::timeout(left, request).await {
                    Ok(a) => a,
                    Err(_) => {
                        // Recorded at the top of the loop on the next pass.
                        continue;
                    }
                },
                None => request.await,
            };
            if let Some((path, after, n)) = answer.as_ref().err().and_then(drip_fed) {
                // the kind itself is recorded below (its timeout); the kinds left are not asked
                // for: each would wait the same timeout (17 kinds x 30 s against a server
                // that sends a byte a second)
                drip = Some(format!(
                    "not listed: the server drip-fed its answer to {path} ({n} byte(s) of the body in {} s) and the kinds after it were not asked for (each would wait the request timeout again); {}",
                    after.as_secs(),
                    cube_model::limits::Limit::RequestTimeoutSecs.how_to_raise()
                ));
            }
            let silent = answer.as_ref().err().and_then(no_answer);
            let first_silent = silent.is_some() && !answered;
            match silent {
                Some(after) => {
                    silent_in_a_row += 1;
                    silent_after = after;
                }
                None => {
                    answered = true;
                    silent_in_a_row = 0;
                }
            }
            match answer {
                Err(err) if first_silent => {
                    // the very first request got nothing back: the cluster is unreachable,
                    // and every other list would wait the same timeout
                    return Err(SnapshotError::Request {
                        kind: k.kind,
                        source: err,
                    });
                }
                Ok(text) => {
                    if let Some(why) = not_a_list(&text) {
                        // A 200 answer that is no list (a proxy's HTML page, a compressed or
                        // binary body, a Status, another object) is a kind not read, never an
                        // empty kind.
                        let reason = format!(
                            "the answer to {} is not a {} list: {why} (after {page} page(s); {} objects kept)",
                            k.path,
                            k.kind,
                            snapshot.object_count() - before
                        );
                        record_missing(&mut snapshot, k.kind, reason, &mut progress);
                        break;
                    }
                    let len = text.len() as u64;
                    if bytes_read.saturating_add(len) > max_bytes {
                        // the page that would pass the budget is not loaded; the kinds after
                        // this one are not asked for
                        let limit = cube_model::limits::Limit::CollectionBytes;
                        let hit = options.limits.exceeded(
                            limit,
                            k.path,
                            Some(bytes_read.saturating_add(len)),
                        );
                        let reason = format!(
                            "incomplete: {hit} (after {page} page(s); {} objects kept)",
                            snapshot.object_count() - before
                        );
                        gone = Some(format!(
                            "not listed: the live collection's budget of {max_bytes} bytes of list pages was used up at {} ({bytes_read} bytes read); {}",
                            k.path,
                            limit.how_to_raise()
                        ));
                        snapshot.limits_hit.push(hit);
                        record_missing(&mut snapshot, k.kind, reason, &mut progress);
                        break;
                    }
                    bytes_read += len;
                    page += 1;
                    snapshot.add_bytes(&format!("live:{}#{page}", k.path), text.as_bytes());
                    progress(CollectProgress::Page {
                        kind: k.kind,
                        page,
                        objects: snapshot.object_count() - before,
                    });
                    if objects_full(&snapshot) {
                        // the loader counted what it could not keep (a limit hit); the rest of
                        // this kind is not read
                        let reason = format!(
                            "incomplete: the objects-per-snapshot limit of {} was reached (after {page} page(s); {} objects kept; raise it with --limit objects-per-snapshot=N)",
                            options.limits.max_objects_per_snapshot,
                            snapshot.object_count() - before
                        );
                        record_missing(&mut snapshot, k.kind, reason, &mut progress);
                        break;
                    }
                    cont = continue_token(&text);
                    if cont.is_empty() {
                        break;
                    }
                }
                Err(err) => match missing_reason(&err) {
                    Some(mut reason) => {
                        // a bound of the policy (body size, request time, pages): typed too
                        if let Some(hit) = limit_of(&err) {
                            snapshot.limits_hit.push(hit);
                        }
                        if page > 0 {
                            reason = format!(
                                "{reason} (after {page} page(s); {} objects kept)",
                                snapshot.object_count() - before
                            );
                        }
                        record_missing(&mut snapshot, k.kind, reason, &mut progress);
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
        if gone.is_some() {
            // set while reading this kind (the collection-bytes budget)
        } else if let Some(why) = drip.take() {
            gone = Some(why);
        } else if silent_in_a_row >= SILENT_LISTS_TO_GIVE_UP {
            gone = Some(format!(
                "not listed: the server stopped answering ({silent_in_a_row} lists in a row got no answer within {} s); {}",
                silent_after.as_secs(),
                cube_model::limits::Limit::RequestTimeoutSecs.how_to_raise()
            ));
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
    /// A 200 answer that is no list is a kind not read (issue 9: a gzip body, a proxy's login
    /// page or a Status read as an empty kind, a clean report).
    #[test]
    fn answers_that_are_not_lists_are_named() {
        assert_eq!(super::not_a_list(r#"{"kind":"NodeList","items":[]}"#), None);
        assert_eq!(super::not_a_list(r#"{"items":[{"a":1}]}"#), None);
        let html = super::not_a_list("<html><body>Sign in</body></html>").unwrap();
        assert!(html.starts_with("HTML or XML"), "{html}");
        let gz = super::not_a_list("\u{1f}\u{fffd}\u{8}\0\0").unwrap();
        assert!(gz.starts_with("binary data"), "{gz}");
        let status = super::not_a_list(r#"{"kind":"Status","code":200}"#).unwrap();
        assert!(status.contains("without items"), "{status}");
        let other = super::not_a_list(r#"{"items":"s3cr3t-value"}"#).unwrap();
        assert!(!other.contains("s3cr3t"), "{other}");
    }

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
