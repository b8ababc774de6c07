//! Bounded HTTP exchanges with an API server: every body has a size limit, every request a
//! timeout that covers its whole body, every operation of many requests an optional overall
//! deadline, and every paginated list a page cap and a repeated-`continue` check.
//!
//! All network reads of this crate go through [`BoundedClient`] (a `kube::Client` plus
//! [`NetLimits`] and a [`Deadline`]), so the bounds hold everywhere and switching the transport
//! touches one file. Outcomes are typed ([`HttpError`]) and classified ([`HttpError::class`]).
//!
//! Server text (Status messages, non-JSON bodies) is kept short, redacted
//! ([`crate::kubeconfig::redact_text`]) and stripped of control characters
//! ([`sanitize_server_text`]) before it reaches any message.
//!
//! Pagination mirrors client-go's pager (`k8s.io/client-go/tools/pager`): `limit`, then
//! `continue` from `metadata.continue` until it is empty. A server that sends a token it already
//! sent would be paged forever by a naive loop; here it ends the list with
//! [`PagingError::RepeatedContinue`].

use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http_body_util::BodyExt as _;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::classify::{Class, classify_error, classify_http, error_chain_text};
use crate::limits::NetLimits;

/// Longest server text kept in a message (characters).
pub const MAX_SERVER_TEXT_CHARS: usize = 300;

/// Server text made safe to show: cut at [`MAX_SERVER_TEXT_CHARS`] (with `...`), secrets
/// redacted by cube-model's one redactor ([`cube_model::redact::redact`]), and control and
/// bidirectional characters (ESC, CR, LF, BEL, U+202E, ...) written as visible escapes
/// ([`cube_model::terminal::escape_line`]), so a hostile server cannot paint the terminal.
pub fn sanitize_server_text(text: &str) -> String {
    let mut cut: String = text.trim().chars().take(MAX_SERVER_TEXT_CHARS).collect();
    if text.trim().chars().nth(MAX_SERVER_TEXT_CHARS).is_some() {
        cut.push_str("...");
    }
    let redacted = cube_model::redact::redact(&cut);
    cube_model::terminal::escape_line(&redacted).into_owned()
}

/// A point in time after which an operation of many requests stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    at: Option<Instant>,
    total: Option<Duration>,
}

impl Deadline {
    /// No overall deadline.
    pub fn none() -> Self {
        Deadline {
            at: None,
            total: None,
        }
    }
    /// `total` from now (`None` = no deadline).
    pub fn after(total: Option<Duration>) -> Self {
        Deadline {
            at: total.and_then(|t| Instant::now().checked_add(t)),
            total,
        }
    }
    /// The total duration it was set to.
    pub fn total(&self) -> Option<Duration> {
        self.total
    }
    /// Time left (`None` = unbounded); zero when passed.
    pub fn remaining(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }
    /// Whether it has passed.
    pub fn passed(&self) -> bool {
        self.remaining().is_some_and(|r| r.is_zero())
    }
}

/// How a bounded exchange failed. Every variant names the request path (without query).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpError {
    /// The request did not get an HTTP answer: connection, TLS, protocol (classified).
    #[error("{path}: {message}")]
    Transport {
        /// Request path.
        path: String,
        /// The class.
        class: Box<Class>,
        /// Redacted error chain.
        message: String,
    },
    /// The server answered with a non-2xx status.
    #[error("{path}: HTTP {code}: {message}")]
    Status {
        /// Request path.
        path: String,
        /// HTTP status code.
        code: u16,
        /// The class (from the `Status` body's `reason`, else the code).
        class: Box<Class>,
        /// `Status.reason`, or `""`.
        reason: String,
        /// `Status.message` or the body text, sanitized and short.
        message: String,
    },
    /// The body is larger than the limit (reading stopped at the limit).
    #[error(
        "{path}: the answer is larger than {limit} bytes (reading stopped there); {}",
        cube_model::Limit::HttpBodyBytes.how_to_raise()
    )]
    BodyTooLarge {
        /// Request path.
        path: String,
        /// The limit, bytes.
        limit: u64,
    },
    /// No complete answer within the per-request timeout (a silent server, or a body sent too
    /// slowly).
    #[error(
        "{path}: no complete answer within {}; {}",
        secs(*after),
        cube_model::Limit::RequestTimeoutSecs.how_to_raise()
    )]
    Timeout {
        /// Request path.
        path: String,
        /// The timeout.
        after: Duration,
        /// Body bytes received before the timeout (`None`: headers never arrived).
        received: Option<u64>,
    },
    /// The operation's overall deadline passed.
    #[error(
        "{path}: the overall deadline of {} passed; {}",
        secs(*deadline),
        cube_model::Limit::CollectionDeadlineSecs.how_to_raise()
    )]
    DeadlineExceeded {
        /// Request path.
        path: String,
        /// The deadline.
        deadline: Duration,
    },
    /// A 2xx answer that is not the expected JSON.
    #[error("{path}: the answer is not the expected JSON ({message})")]
    InvalidBody {
        /// Request path.
        path: String,
        /// The parser's message (never the body).
        message: String,
    },
}

fn secs(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.3} s", d.as_secs_f64())
    }
}

impl HttpError {
    /// The class of the failure.
    pub fn class(&self) -> Class {
        match self {
            HttpError::Transport { class, .. } | HttpError::Status { class, .. } => {
                (**class).clone()
            }
            HttpError::BodyTooLarge { limit, .. } => Class::LimitExceeded {
                what: "response body".to_string(),
                limit: *limit,
                exceeded: self.limit_exceeded(),
            },
            HttpError::Timeout { .. } | HttpError::DeadlineExceeded { .. } => Class::Timeout,
            HttpError::InvalidBody { .. } => Class::NotKubernetes,
        }
    }

    /// The bound of the [`cube_model::Limits`] policy this failure hit, typed (what, where,
    /// the limit, how to raise it): `http-body-bytes` for [`HttpError::BodyTooLarge`],
    /// `request-timeout-secs` for [`HttpError::Timeout`], `collection-deadline-secs` for
    /// [`HttpError::DeadlineExceeded`].
    pub fn limit_exceeded(&self) -> Option<cube_model::limits::LimitExceeded> {
        use cube_model::Limit;
        let (limit, path, max, observed) = match self {
            HttpError::BodyTooLarge { path, limit } => {
                (Limit::HttpBodyBytes, path, *limit, limit.checked_add(1))
            }
            HttpError::Timeout { path, after, .. } => {
                (Limit::RequestTimeoutSecs, path, after.as_secs(), None)
            }
            HttpError::DeadlineExceeded { path, deadline } => (
                Limit::CollectionDeadlineSecs,
                path,
                deadline.as_secs(),
                None,
            ),
            _ => return None,
        };
        let mut hit = cube_model::Limits::default().exceeded(limit, path.clone(), observed);
        hit.max = max;
        Some(hit)
    }

    /// The HTTP status code, for [`HttpError::Status`].
    pub fn code(&self) -> Option<u16> {
        match self {
            HttpError::Status { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// Whether further requests to the same server are pointless: transport failures, 401,
    /// and the overall deadline.
    pub fn is_fatal(&self) -> bool {
        match self {
            HttpError::Transport { .. } | HttpError::DeadlineExceeded { .. } => true,
            HttpError::Status { code, class, .. } => {
                *code == 401 || matches!(**class, Class::Unauthorized)
            }
            _ => false,
        }
    }
}

/// The path of a request target without its query (for messages).
fn path_of(uri: &http::Uri) -> String {
    uri.path().to_string()
}

/// A `kube::Client` with bounds: see the module docs.
#[derive(Clone)]
pub struct BoundedClient {
    client: kube::Client,
    limits: NetLimits,
    deadline: Deadline,
}

impl fmt::Debug for BoundedClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoundedClient")
            .field("limits", &self.limits)
            .field("deadline", &self.deadline)
            .finish_non_exhaustive()
    }
}

/// What to do with one page of a list (see [`BoundedClient::list_pages`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PageFlow {
    /// Fetch the next page, if any.
    Continue,
    /// Stop here.
    Stop,
}

/// Why a paginated list ended early.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PagingError {
    /// A request failed.
    #[error(transparent)]
    Http(#[from] HttpError),
    /// The server sent a `continue` token it had already sent: following it would page forever.
    #[error(
        "{path}: the server repeated a continue token at page {page}; stopped instead of paging forever"
    )]
    RepeatedContinue {
        /// List path.
        path: String,
        /// The page (from 1) whose token was a repeat.
        page: usize,
    },
    /// More pages than the limit.
    #[error(
        "{path}: more than {limit} pages; stopped; {}",
        cube_model::Limit::PagesPerList.how_to_raise()
    )]
    TooManyPages {
        /// List path.
        path: String,
        /// The page limit.
        limit: usize,
    },
}

impl PagingError {
    /// The class of the failure (paging bounds are [`Class::LimitExceeded`]).
    pub fn class(&self) -> Class {
        match self {
            PagingError::Http(e) => e.class(),
            PagingError::RepeatedContinue { .. } => Class::LimitExceeded {
                what: "repeated continue token".to_string(),
                limit: 0,
                exceeded: None,
            },
            PagingError::TooManyPages { limit, .. } => Class::LimitExceeded {
                what: "pages per list".to_string(),
                limit: *limit as u64,
                exceeded: self.limit_exceeded(),
            },
        }
    }

    /// The bound of the [`cube_model::Limits`] policy this failure hit, typed:
    /// `pages-per-list` for [`PagingError::TooManyPages`], those of
    /// [`HttpError::limit_exceeded`] for a failed request. A repeated `continue` token is no
    /// limit (no value of one would make the list end): `None`.
    pub fn limit_exceeded(&self) -> Option<cube_model::limits::LimitExceeded> {
        match self {
            PagingError::Http(e) => e.limit_exceeded(),
            PagingError::TooManyPages { path, limit } => {
                let mut hit = cube_model::Limits::default().exceeded(
                    cube_model::Limit::PagesPerList,
                    path.clone(),
                    None,
                );
                hit.max = *limit as u64;
                Some(hit)
            }
            PagingError::RepeatedContinue { .. } => None,
        }
    }
}

/// The end of a paginated list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListEnd {
    /// Pages read (handed to the callback).
    pub pages: usize,
    /// Why it ended early; `None` when the server said it was complete (or the callback
    /// stopped).
    pub error: Option<PagingError>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ListHead {
    metadata: ListMeta,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ListMeta {
    #[serde(rename = "continue")]
    continue_: String,
}

/// Percent-encode a query value (continue tokens are base64 and may hold `+ / =`).
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

impl BoundedClient {
    /// Bounds `client` with `limits`; the overall deadline (`limits.deadline`) starts now.
    pub fn new(client: kube::Client, limits: NetLimits) -> Self {
        BoundedClient {
            client,
            limits,
            deadline: Deadline::after(limits.deadline),
        }
    }

    /// The same client with another deadline.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Deadline) -> Self {
        self.deadline = deadline;
        self
    }

    /// The underlying client.
    pub fn client(&self) -> &kube::Client {
        &self.client
    }

    /// The limits.
    pub fn limits(&self) -> &NetLimits {
        &self.limits
    }

    /// The deadline.
    pub fn deadline(&self) -> Deadline {
        self.deadline
    }

    /// Sends `req` and reads at most `max_body` bytes of the answer, all within the per-request
    /// timeout (cut to what is left of the deadline). Any status is returned with its body.
    ///
    /// # Errors
    /// [`HttpError::Transport`], [`HttpError::BodyTooLarge`], [`HttpError::Timeout`],
    /// [`HttpError::DeadlineExceeded`].
    pub async fn send(
        &self,
        req: http::Request<Vec<u8>>,
        max_body: u64,
    ) -> Result<(http::StatusCode, Vec<u8>), HttpError> {
        let path = path_of(req.uri());
        let mut timeout = self.limits.request_timeout;
        let mut by_deadline = false;
        if let Some(left) = self.deadline.remaining() {
            if left.is_zero() {
                return Err(HttpError::DeadlineExceeded {
                    path,
                    deadline: self.deadline.total().unwrap_or_default(),
                });
            }
            if left < timeout {
                timeout = left;
                by_deadline = true;
            }
        }
        let received = AtomicU64::new(u64::MAX);
        let exchange = async {
            let resp = self
                .client
                .send(req.map(kube::client::Body::from))
                .await
                .map_err(|e| HttpError::Transport {
                    path: path.clone(),
                    class: Box::new(classify_error(&e)),
                    message: error_chain_text(&e),
                })?;
            let status = resp.status();
            received.store(0, Ordering::Relaxed);
            let declared = resp
                .headers()
                .get(http::header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > max_body) {
                return Err(HttpError::BodyTooLarge {
                    path: path.clone(),
                    limit: max_body,
                });
            }
            let mut body = resp.into_body();
            let mut buf: Vec<u8> = Vec::new();
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|e| HttpError::Transport {
                    path: path.clone(),
                    class: Box::new(classify_error(&e)),
                    message: error_chain_text(&e),
                })?;
                if let Ok(data) = frame.into_data() {
                    if (buf.len() as u64).saturating_add(data.len() as u64) > max_body {
                        return Err(HttpError::BodyTooLarge {
                            path: path.clone(),
                            limit: max_body,
                        });
                    }
                    buf.extend_from_slice(&data);
                    received.store(buf.len() as u64, Ordering::Relaxed);
                }
            }
            Ok((status, buf))
        };
        match tokio::time::timeout(timeout, exchange).await {
            Ok(r) => r,
            Err(_) if by_deadline => Err(HttpError::DeadlineExceeded {
                path,
                deadline: self.deadline.total().unwrap_or_default(),
            }),
            Err(_) => {
                let n = received.load(Ordering::Relaxed);
                Err(HttpError::Timeout {
                    path,
                    after: timeout,
                    received: (n != u64::MAX).then_some(n),
                })
            }
        }
    }

    /// Sends `req` and parses a 2xx answer as JSON `T`; other statuses become
    /// [`HttpError::Status`] (classified from the `Status` body).
    ///
    /// # Errors
    /// As [`BoundedClient::send`], plus [`HttpError::Status`] and [`HttpError::InvalidBody`].
    pub async fn json<T: DeserializeOwned>(
        &self,
        req: http::Request<Vec<u8>>,
        max_body: u64,
    ) -> Result<T, HttpError> {
        let path = path_of(req.uri());
        let (status, body) = self.send(req, max_body).await?;
        ok_body(&path, status, &body)?;
        serde_json::from_slice(&body).map_err(|e| HttpError::InvalidBody {
            path,
            message: json_error_text(&e),
        })
    }

    /// `GET path` (with query) answered by a small JSON document (`/version`, one object).
    ///
    /// # Errors
    /// As [`BoundedClient::json`].
    pub async fn get_small<T: DeserializeOwned>(&self, path: &str) -> Result<T, HttpError> {
        self.json(get_request(path)?, self.limits.max_small_body_bytes)
            .await
    }

    /// `POST path` with a JSON body, answered by a small JSON document (reviews,
    /// TokenRequest).
    ///
    /// # Errors
    /// As [`BoundedClient::json`].
    pub async fn post_small<B: serde::Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, HttpError> {
        let bytes = serde_json::to_vec(body).map_err(|e| HttpError::InvalidBody {
            path: path.to_string(),
            message: json_error_text(&e),
        })?;
        let req = http::Request::post(path)
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json")
            .body(bytes)
            .map_err(|e| HttpError::Transport {
                path: path.to_string(),
                class: Box::new(Class::ConfigInvalid {
                    reason: e.to_string(),
                }),
                message: e.to_string(),
            })?;
        self.json(req, self.limits.max_small_body_bytes).await
    }

    /// Lists `path` page by page (`limit=page_size`, then `continue`), handing each page's body
    /// to `on_page(page_number, body)`. Ends when the server sends no `continue`, when
    /// `on_page` returns [`PageFlow::Stop`], or with the reason in [`ListEnd::error`]: a failed
    /// request (the pages before it were handed over), a repeated `continue` token, more than
    /// `max_pages` pages. `query` (already percent-encoded, without `?`) is added to every
    /// request.
    pub async fn list_pages(
        &self,
        path: &str,
        query: &str,
        page_size: u32,
        mut on_page: impl FnMut(usize, &[u8]) -> PageFlow,
    ) -> ListEnd {
        let mut seen: HashSet<String> = HashSet::new();
        let mut cont = String::new();
        let mut pages = 0usize;
        loop {
            if pages >= self.limits.max_pages {
                return ListEnd {
                    pages,
                    error: Some(PagingError::TooManyPages {
                        path: path.to_string(),
                        limit: self.limits.max_pages,
                    }),
                };
            }
            let mut q = format!("limit={page_size}");
            if !query.is_empty() {
                q.push('&');
                q.push_str(query);
            }
            if !cont.is_empty() {
                q.push_str("&continue=");
                q.push_str(&encode_query_value(&cont));
            }
            let target = format!("{path}?{q}");
            let result = match get_request(&target) {
                Ok(req) => self.send(req, self.limits.max_body_bytes).await,
                Err(e) => Err(e),
            };
            let body = match result.and_then(|(status, body)| {
                ok_body(path, status, &body)?;
                Ok(body)
            }) {
                Ok(b) => b,
                Err(e) => {
                    return ListEnd {
                        pages,
                        error: Some(PagingError::Http(e)),
                    };
                }
            };
            pages += 1;
            let head: ListHead = serde_json::from_slice(&body).unwrap_or_default();
            if on_page(pages, &body) == PageFlow::Stop || head.metadata.continue_.is_empty() {
                return ListEnd { pages, error: None };
            }
            if !seen.insert(head.metadata.continue_.clone()) {
                return ListEnd {
                    pages,
                    error: Some(PagingError::RepeatedContinue {
                        path: path.to_string(),
                        page: pages,
                    }),
                };
            }
            cont = head.metadata.continue_;
        }
    }
}

impl BoundedClient {
    /// The text of a 2xx answer read with `max_body`; a non-2xx answer becomes
    /// `kube::Error::Api` with the server's `Status` (sanitized), any other failure
    /// `kube::Error::Service` carrying the [`HttpError`].
    async fn text_or_kube(
        &self,
        request: http::Request<Vec<u8>>,
        max_body: u64,
    ) -> Result<String, kube::Error> {
        let path = path_of(request.uri());
        let (status, body) = self
            .send(request, max_body)
            .await
            .map_err(|e| kube::Error::Service(Box::new(e)))?;
        match ok_body(&path, status, &body) {
            Ok(()) => Ok(String::from_utf8_lossy(&body).into_owned()),
            Err(HttpError::Status {
                code,
                reason,
                message,
                ..
            }) => Err(kube::Error::Api(Box::new(kube::core::Status {
                status: Some(kube::core::response::StatusSummary::Failure),
                code,
                reason,
                message,
                ..Default::default()
            }))),
            Err(e) => Err(kube::Error::Service(Box::new(e))),
        }
    }
}

#[async_trait::async_trait]
impl crate::api::RawTransport for BoundedClient {
    async fn send_text(&self, request: http::Request<Vec<u8>>) -> Result<String, kube::Error> {
        self.text_or_kube(request, self.limits.max_body_bytes).await
    }

    async fn send_small(&self, request: http::Request<Vec<u8>>) -> Result<String, kube::Error> {
        self.text_or_kube(request, self.limits.max_small_body_bytes)
            .await
    }

    fn max_pages(&self) -> usize {
        self.limits.max_pages
    }
}

crate::api::seams_via_raw!(BoundedClient);

#[async_trait::async_trait]
impl crate::profiles::AccessReviewer for BoundedClient {
    async fn review(
        &self,
        request: &crate::rbac::AccessRequest,
    ) -> Result<crate::profiles::SubjectAccessReviewStatus, crate::profiles::ProfileError> {
        crate::profiles::raw_review(self, request).await
    }

    async fn rules(
        &self,
        namespace: &str,
    ) -> Result<crate::profiles::SubjectRulesReviewStatus, crate::profiles::ProfileError> {
        crate::profiles::raw_rules(self, namespace).await
    }
}

fn get_request(target: &str) -> Result<http::Request<Vec<u8>>, HttpError> {
    http::Request::get(target)
        .header(http::header::ACCEPT, "application/json")
        .body(Vec::new())
        .map_err(|e| HttpError::Transport {
            path: target.split('?').next().unwrap_or_default().to_string(),
            class: Box::new(Class::ConfigInvalid {
                reason: e.to_string(),
            }),
            message: e.to_string(),
        })
}

/// `Ok` for a 2xx status; otherwise the classified [`HttpError::Status`].
fn ok_body(path: &str, status: http::StatusCode, body: &[u8]) -> Result<(), HttpError> {
    if status.is_success() {
        return Ok(());
    }
    let code = status.as_u16();
    let text = String::from_utf8_lossy(body);
    let (reason, message) = match serde_json::from_str::<kube::core::Status>(text.trim()) {
        Ok(s) if s.code != 0 || !s.reason.is_empty() || !s.message.is_empty() => {
            (s.reason.clone(), s.message.clone())
        }
        _ => (String::new(), text.to_string()),
    };
    // Classify from a short, sanitized copy: a huge or hostile body is never scanned whole.
    let message = sanitize_server_text(&message);
    let class = if reason.is_empty() {
        classify_http(code, &message)
    } else {
        classify_http(
            code,
            &serde_json::json!({"kind": "Status", "code": code, "reason": reason, "message": message})
                .to_string(),
        )
    };
    Err(HttpError::Status {
        path: path.to_string(),
        code,
        class: Box::new(class),
        reason: sanitize_server_text(&reason),
        message,
    })
}

/// A serde_json error without any quoted input (`syntax error at line 1 column 1`).
pub fn json_error_text(e: &serde_json::Error) -> String {
    let kind = match e.classify() {
        serde_json::error::Category::Io => "read error",
        serde_json::error::Category::Syntax => "syntax error",
        serde_json::error::Category::Data => "unexpected shape",
        serde_json::error::Category::Eof => "truncated",
    };
    format!("{kind} at line {} column {}", e.line(), e.column())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_text_loses_control_characters_and_length() {
        let t = sanitize_server_text("bad \u{1b}[31mred\u{1b}[0m\r\nline \u{202E}evil");
        assert!(
            !t.contains('\u{1b}') && !t.contains('\r') && !t.contains('\u{202E}'),
            "{t}"
        );
        assert!(t.contains("\\x1b[31mred"), "{t}");
        let long = "x ".repeat(1000);
        assert!(sanitize_server_text(&long).chars().count() <= MAX_SERVER_TEXT_CHARS + 3);
    }

    #[test]
    fn status_bodies_are_classified_and_short() {
        let body = br#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nodes is forbidden: User \"x\" cannot list resource \"nodes\" in API group \"\" at the cluster scope","reason":"Forbidden","code":403}"#;
        let e = ok_body("/api/v1/nodes", http::StatusCode::FORBIDDEN, body).unwrap_err();
        assert_eq!(e.class().id(), "forbidden");
        assert!(!e.is_fatal());
        let e = ok_body("/x", http::StatusCode::UNAUTHORIZED, b"Unauthorized").unwrap_err();
        assert_eq!(e.class().id(), "unauthorized");
        assert!(e.is_fatal());
        let e = ok_body("/x", http::StatusCode::INTERNAL_SERVER_ERROR, b"oops").unwrap_err();
        assert_eq!(e.class().id(), "http-status");
    }

    #[test]
    fn deadline_arithmetic() {
        assert_eq!(Deadline::none().remaining(), None);
        let d = Deadline::after(Some(Duration::ZERO));
        assert!(d.passed());
        assert!(!Deadline::after(Some(Duration::from_secs(60))).passed());
    }
}
