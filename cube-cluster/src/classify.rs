//! Classify connection and API failures, from kube/hyper/rustls error chains and from error
//! texts (kubectl stderr, client-go, kubeadm, karmada, OCM, raw `Status` bodies).
//!
//! One classifier serves both: [`classify_error`] walks a typed error chain first (kube `Api`
//! status, `rustls::Error`, `std::io::Error` kinds) and falls back to [`classify_text`] on the
//! chain's joined messages. Status bodies use `reason` before `code`, like kube-core's
//! `Status::is_forbidden()`.

use std::error::Error as StdError;

use cube_model::import::ConnectionClass;
use serde::Serialize;

/// Dates closer to "now" than this make a certificate validity failure a clock-skew suspect.
pub const CLOCK_SKEW_WINDOW_SECS: i64 = 48 * 3600;

/// Which side of the validity window a certificate failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Validity {
    /// Current time is after `notAfter`.
    Expired,
    /// Current time is before `notBefore` (usually the client clock is behind).
    NotYetValid,
    /// Go's older wording "has expired or is not yet valid" without times: check both clocks.
    Unknown,
}

/// Plain HTTP and TLS talking past each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ProtocolMismatch {
    /// `http://` to a TLS port: the server answers 400 "Client sent an HTTP request to an HTTPS server."
    HttpToHttps,
    /// `https://` to a plain port: "first record does not look like a TLS handshake" /
    /// "server gave HTTP response to HTTPS client".
    HttpsToHttp,
}

/// Why a 403 happened; only [`ForbiddenCause::Rbac`] is a least-privilege finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ForbiddenCause {
    /// RBAC denied the (named) user.
    Rbac,
    /// The user is `system:anonymous`: the client sent no credentials (fix authentication).
    Anonymous,
    /// A node identity (`system:node:<name>`) lacks node permissions (Node authorizer or
    /// `system:nodes` binding missing).
    NodeIdentity,
    /// An admission webhook denied the request (policy, not RBAC).
    AdmissionWebhook,
    /// ResourceQuota admission: `exceeded quota`.
    QuotaExceeded,
    /// ResourceQuota admission: `must specify` (no LimitRange defaults).
    QuotaMustSpecify,
    /// ResourceQuota admission: `status unknown for quota` (quota controller cannot evaluate it).
    QuotaStatusUnknown,
}

/// Details of a 403 parsed from the apiserver message.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ForbiddenDetail {
    /// The user the server saw (`User "<u>"`).
    pub user: Option<String>,
    /// Verb (`list`).
    pub verb: Option<String>,
    /// Resource (`nodes`).
    pub resource: Option<String>,
    /// API group (`""` = core).
    pub group: Option<String>,
    /// Namespace; `None` with `cluster_scope` = cluster-wide request.
    pub namespace: Option<String>,
    /// The message said "at the cluster scope".
    pub cluster_scope: bool,
}

/// The classified outcome of a failed connection or request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "class", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Class {
    /// The client had no usable kubeconfig and fell back to `localhost:8080` (kubectl's
    /// built-in default), or the selected context does not resolve.
    NoUsableKubeconfig,
    /// The configuration itself is refused (insecure + CA, bad server URL, missing context).
    ConfigInvalid {
        /// The text that shows it.
        reason: String,
    },
    /// The server name does not resolve.
    Dns,
    /// TCP reset: host reachable, nothing listening.
    Refused,
    /// No answer in time (firewall, black hole, wrong IP, stuck server).
    Timeout,
    /// The server certificate is not signed by a trusted CA (x509 unknown authority).
    TlsUntrusted,
    /// The server presents a self-signed certificate (its own issuer) that the kubeconfig does
    /// not trust, or a CA certificate as its serving certificate (webpki `CaUsedAsEndEntity`).
    TlsSelfSigned,
    /// The server certificate is not valid for the name dialed (or `tls-server-name`).
    TlsNameMismatch {
        /// Names the certificate is valid for, when known.
        valid_for: Vec<String>,
        /// The name that was checked, when known.
        wanted: Option<String>,
    },
    /// The certificate is expired or not yet valid.
    TlsValidity {
        /// Which side.
        state: Validity,
        /// Client's current time, RFC 3339, when known.
        current: Option<String>,
        /// The bound crossed (`notAfter` or `notBefore`), RFC 3339, when known.
        bound: Option<String>,
        /// The two times are within [`CLOCK_SKEW_WINDOW_SECS`]: fix time sync, not certificates.
        clock_skew_hint: bool,
    },
    /// HTTP and HTTPS mixed up.
    Protocol {
        /// Direction.
        mismatch: ProtocolMismatch,
    },
    /// The connection was reset or closed by the peer before an answer (a proxy or load
    /// balancer dropping it, a server crashing, a firewall sending RST).
    Reset,
    /// The peer answered with something that is not HTTP (another protocol on that port).
    NotHttp,
    /// An HTTP answer that is not the Kubernetes API (no `gitVersion` in `/version`, not JSON):
    /// another web server at that address.
    NotKubernetes,
    /// A bound of this client was hit (body size, pages per list, repeated continue token).
    LimitExceeded {
        /// What was bounded (`response body`, `pages per list`, `repeated continue token`).
        what: String,
        /// The limit (bytes or pages; 0 when the bound is not a number).
        limit: u64,
        /// The bound of the [`cube_model::Limits`] policy that was hit, typed (what, where,
        /// the limit, the flag that raises it); `None` for a repeated `continue` token (no
        /// limit value would end such a list).
        #[serde(skip_serializing_if = "Option::is_none")]
        exceeded: Option<cube_model::limits::LimitExceeded>,
    },
    /// 401: credentials missing, expired or wrong.
    Unauthorized,
    /// 403.
    Forbidden {
        /// Why.
        cause: ForbiddenCause,
        /// Parsed details (user, verb, resource, scope).
        detail: ForbiddenDetail,
    },
    /// 404 for an authorized request: not an access or connectivity failure.
    NotFound,
    /// Another HTTP status.
    HttpStatus {
        /// HTTP code.
        code: u16,
        /// `Status.reason`, when there was one.
        reason: Option<String>,
    },
    /// The kubeconfig's exec credential plugin (allowed to run) gave no credential: it failed,
    /// timed out, wrote too much, or answered something unusable ([`crate::exec::ExecError`]).
    /// The kubeconfig is valid; no request was sent.
    ExecPluginFailed {
        /// The plugin, its exit status and the head of its stderr, redacted and escaped.
        reason: String,
    },
    /// Nothing recognised.
    Unknown,
}

impl Class {
    /// Stable kebab-case id (the apiserver fixture's class names where they exist):
    /// `no-usable-kubeconfig`, `config-invalid`, `dns`, `refused`, `timeout`, `tls-untrusted`,
    /// `tls-name-mismatch`, `tls-expired` (expired or not yet valid), `tls-self-signed`,
    /// `protocol`, `connection-reset`, `not-http`, `not-kubernetes`, `limit-exceeded`,
    /// `unauthorized`, `forbidden`, `not-found`, `http-status`, `exec-plugin-failed`, `unknown`.
    pub fn id(&self) -> &'static str {
        match self {
            Self::NoUsableKubeconfig => "no-usable-kubeconfig",
            Self::ConfigInvalid { .. } => "config-invalid",
            Self::Dns => "dns",
            Self::Refused => "refused",
            Self::Timeout => "timeout",
            Self::TlsUntrusted => "tls-untrusted",
            Self::TlsNameMismatch { .. } => "tls-name-mismatch",
            Self::TlsValidity { .. } => "tls-expired",
            Self::TlsSelfSigned => "tls-self-signed",
            Self::Protocol { .. } => "protocol",
            Self::Reset => "connection-reset",
            Self::NotHttp => "not-http",
            Self::NotKubernetes => "not-kubernetes",
            Self::LimitExceeded { .. } => "limit-exceeded",
            Self::Unauthorized => "unauthorized",
            Self::Forbidden { .. } => "forbidden",
            Self::NotFound => "not-found",
            Self::HttpStatus { .. } => "http-status",
            Self::ExecPluginFailed { .. } => "exec-plugin-failed",
            Self::Unknown => "unknown",
        }
    }

    /// The import report's connection class for this failure (the one mapping from a
    /// classified failure to `cube_model::import::ConnectionClass`; `NotFound` and other HTTP
    /// statuses are [`ConnectionClass::Other`], a self-signed certificate is
    /// [`ConnectionClass::TlsUntrusted`]).
    pub fn connection_class(&self) -> ConnectionClass {
        match self {
            Self::NoUsableKubeconfig | Self::ConfigInvalid { .. } => ConnectionClass::ConfigInvalid,
            Self::Dns => ConnectionClass::Dns,
            Self::Refused => ConnectionClass::Refused,
            Self::Timeout => ConnectionClass::Timeout,
            Self::TlsUntrusted | Self::TlsSelfSigned => ConnectionClass::TlsUntrusted,
            Self::TlsNameMismatch { .. } => ConnectionClass::TlsNameMismatch,
            Self::TlsValidity { .. } => ConnectionClass::TlsExpired,
            Self::Protocol { .. } => ConnectionClass::Protocol,
            Self::Reset => ConnectionClass::ConnectionReset,
            Self::NotHttp => ConnectionClass::NotHttp,
            Self::NotKubernetes => ConnectionClass::NotKubernetes,
            Self::LimitExceeded { .. } => ConnectionClass::LimitExceeded,
            Self::Unauthorized => ConnectionClass::Unauthorized,
            // No credentials reached the server: an authentication problem, not RBAC.
            Self::Forbidden {
                cause: ForbiddenCause::Anonymous,
                ..
            } => ConnectionClass::Unauthorized,
            Self::Forbidden { .. } => ConnectionClass::Forbidden,
            Self::NotFound | Self::HttpStatus { .. } | Self::Unknown => ConnectionClass::Other,
            Self::ExecPluginFailed { .. } => ConnectionClass::ExecPluginFailed,
        }
    }

    /// A one-line explanation with the likely fix.
    pub fn hint(&self) -> String {
        match self {
            Self::NoUsableKubeconfig => "the client fell back to localhost:8080: no kubeconfig was found or the selected context does not resolve".into(),
            Self::ConfigInvalid { reason } => format!("the kubeconfig is refused by the client: {reason}"),
            Self::Dns => "the server name does not resolve from here; use an address the console can resolve (rewrite the server)".into(),
            Self::Refused => "nothing listens at that address and port (API server down, wrong port, or an address advertised from another network)".into(),
            Self::Timeout => "no answer in time: firewall, routing, wrong IP, or a server that accepts and never answers".into(),
            Self::TlsUntrusted => "the server certificate is not signed by the CA in the kubeconfig (cluster re-initialised or stale kubeconfig)".into(),
            Self::TlsSelfSigned => "the server presents a self-signed certificate the kubeconfig does not trust; put the cluster CA (or that certificate, if it is the intended one) in certificate-authority-data, never insecure-skip-tls-verify".into(),
            Self::Reset => "the connection was reset or closed before an answer: a proxy, load balancer or firewall dropping it, or a server that crashed".into(),
            Self::NotHttp => "the peer does not speak HTTP: another service listens on that port".into(),
            Self::NotKubernetes => "an HTTP server answered, but not the Kubernetes API (no gitVersion in /version): check the address and port".into(),
            Self::LimitExceeded { what, limit, exceeded } => match exceeded {
                Some(hit) => format!("a bound of the client was hit ({what}, limit {limit}): the server sent more than any API server would; only if the server is trusted, {}", hit.limit.how_to_raise()),
                None => format!("a bound of the client was hit ({what}): the server sent more than any API server would"),
            },
            Self::TlsNameMismatch { valid_for, wanted } => format!(
                "the server certificate is valid for [{}], not {}; add the name to the certificate SANs or set tls-server-name",
                valid_for.join(", "),
                wanted.as_deref().unwrap_or("the dialed name")
            ),
            Self::TlsValidity { state, clock_skew_hint, .. } => {
                let base = match state {
                    Validity::Expired => "the server certificate has expired",
                    Validity::NotYetValid => "the server certificate is not valid yet",
                    Validity::Unknown => "the server certificate is expired or not yet valid (check both clocks and the certificate dates)",
                };
                if *clock_skew_hint {
                    format!("{base}; the dates are close to now: suspect clock skew and fix time sync, not certificates")
                } else {
                    base.to_string()
                }
            }
            Self::Protocol { mismatch: ProtocolMismatch::HttpToHttps } => "plain http was sent to an https port: use https:// in the server URL".into(),
            Self::Protocol { mismatch: ProtocolMismatch::HttpsToHttp } => "https was sent to a port that does not speak TLS (a proxy or plain port): check the port".into(),
            Self::Unauthorized => "401: the credentials were not accepted (expired or wrong token, expired client certificate)".into(),
            Self::Forbidden { cause, detail } => {
                let who = detail.user.as_deref().unwrap_or("the user");
                match cause {
                    ForbiddenCause::Rbac => format!("403: RBAC denies {who}; grant the missing rule (cluster-scoped resources need a ClusterRole and ClusterRoleBinding)"),
                    ForbiddenCause::Anonymous => "403 as system:anonymous: no credentials were sent; fix authentication, not RBAC".into(),
                    ForbiddenCause::NodeIdentity => format!("403 for node identity {who}: the Node authorizer or the system:nodes binding is missing"),
                    ForbiddenCause::AdmissionWebhook => "403 from an admission webhook: a policy rejected the object, not missing RBAC".into(),
                    ForbiddenCause::QuotaExceeded => "403 from ResourceQuota admission: the quota is exceeded".into(),
                    ForbiddenCause::QuotaMustSpecify => "403 from ResourceQuota admission: containers must state requests/limits (add LimitRange defaults)".into(),
                    ForbiddenCause::QuotaStatusUnknown => "403 from ResourceQuota admission: quota status unknown (the quota controller cannot evaluate a resource)".into(),
                }
            }
            Self::NotFound => "404: the request was authorized but the object or path does not exist".into(),
            Self::HttpStatus { code, reason } => format!("HTTP {code}{}", reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default()),
            Self::ExecPluginFailed { reason } => format!("the kubeconfig's exec credential plugin gave no credential, so no request was sent: {reason}; run the plugin by hand (its login may have expired) or check its installation"),
            Self::Unknown => "unrecognised failure".into(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Text

fn find_ci(hay: &str, needle: &str) -> bool {
    hay.to_ascii_lowercase()
        .contains(&needle.to_ascii_lowercase())
}

/// Text between `start` and the next `end` after it.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = s.find(start)? + start.len();
    let rest = s.get(i..)?;
    let j = rest.find(end)?;
    rest.get(..j)
}

/// Parses a Kubernetes forbidden message: `<res> is forbidden: User "<u>" cannot <verb>
/// resource "<r>" in API group "<g>" (at the cluster scope | in the namespace "<ns>")`, and the
/// older `cannot <verb> <res> at the cluster scope`.
pub fn parse_forbidden(message: &str) -> ForbiddenDetail {
    // Messages may arrive JSON-escaped (`\"`) inside logs.
    let m = message.replace("\\\"", "\"");
    let mut d = ForbiddenDetail {
        user: between(&m, "User \"", "\"").map(str::to_string),
        ..Default::default()
    };
    if let Some(after) = m.split(" cannot ").nth(1) {
        let mut words = after.split_whitespace();
        d.verb = words.next().map(str::to_string);
        if let Some(r) = between(after, "resource \"", "\"") {
            d.resource = Some(r.to_string());
        } else if let Some(w) = words.next() {
            d.resource = Some(w.trim_matches('"').to_string());
        }
        d.group = between(after, "in API group \"", "\"").map(str::to_string);
        d.namespace = between(after, "in the namespace \"", "\"").map(str::to_string);
        d.cluster_scope = after.contains("at the cluster scope");
    }
    d
}

fn forbidden_from_text(text: &str) -> Class {
    let lower = text.to_ascii_lowercase();
    let detail = parse_forbidden(text);
    let cause = if lower.contains("admission webhook") && lower.contains("denied the request") {
        ForbiddenCause::AdmissionWebhook
    } else if lower.contains("exceeded quota") {
        ForbiddenCause::QuotaExceeded
    } else if lower.contains("failed quota") && lower.contains("must specify") {
        ForbiddenCause::QuotaMustSpecify
    } else if lower.contains("status unknown for quota") {
        ForbiddenCause::QuotaStatusUnknown
    } else if detail.user.as_deref() == Some("system:anonymous") {
        ForbiddenCause::Anonymous
    } else if detail
        .user
        .as_deref()
        .is_some_and(|u| u.starts_with("system:node:"))
    {
        ForbiddenCause::NodeIdentity
    } else {
        ForbiddenCause::Rbac
    };
    Class::Forbidden { cause, detail }
}

fn parse_time(s: &str) -> Option<jiff::Timestamp> {
    s.trim()
        .trim_end_matches(['"', '\'', ')', ']', '.', ','])
        .parse()
        .ok()
}

fn validity_from_text(text: &str) -> Class {
    // Go: "x509: certificate has expired or is not yet valid: current time T is before|after B"
    let (state, current, bound) = match text.find("current time ") {
        Some(i) => {
            let rest = text.get(i + "current time ".len()..).unwrap_or_default();
            let mut words = rest.split_whitespace();
            let cur = words.next().unwrap_or_default();
            let _is = words.next();
            let dir = words.next().unwrap_or_default();
            let b = words.next().unwrap_or_default();
            let state = match dir {
                "before" => Validity::NotYetValid,
                "after" => Validity::Expired,
                _ => Validity::Unknown,
            };
            (state, parse_time(cur), parse_time(b))
        }
        None => {
            let lower = text.to_ascii_lowercase();
            let state = if lower.contains("notvalidyet")
                || lower.contains("not yet valid") && !lower.contains("expired")
            {
                Validity::NotYetValid
            } else if lower.contains("expired") && !lower.contains("not yet valid") {
                Validity::Expired
            } else {
                Validity::Unknown
            };
            (state, None, None)
        }
    };
    validity(state, current, bound)
}

fn validity(
    state: Validity,
    current: Option<jiff::Timestamp>,
    bound: Option<jiff::Timestamp>,
) -> Class {
    let clock_skew_hint = match (current, bound) {
        (Some(c), Some(b)) => (c.as_second() - b.as_second()).abs() <= CLOCK_SKEW_WINDOW_SECS,
        _ => false,
    };
    Class::TlsValidity {
        state,
        current: current.map(|t| t.to_string()),
        bound: bound.map(|t| t.to_string()),
        clock_skew_hint,
    }
}

fn name_mismatch_from_text(text: &str) -> Class {
    // Go: "x509: certificate is valid for a, b, not c"
    let t = text.replace("\\\"", "\"");
    if let Some(i) = t.find("certificate is valid for ") {
        let rest = t
            .get(i + "certificate is valid for ".len()..)
            .unwrap_or_default();
        if let Some(j) = rest.rfind(", not ") {
            let names = rest.get(..j).unwrap_or_default();
            let wanted = rest
                .get(j + ", not ".len()..)
                .unwrap_or_default()
                .split(|c: char| c.is_whitespace() || c == ']' || c == '"')
                .next()
                .unwrap_or_default();
            return Class::TlsNameMismatch {
                valid_for: names.split(", ").map(str::to_string).collect(),
                wanted: Some(wanted.to_string()).filter(|w| !w.is_empty()),
            };
        }
    }
    let wanted = between(&t, "target host name '", "'").map(str::to_string);
    Class::TlsNameMismatch {
        valid_for: Vec::new(),
        wanted,
    }
}

/// Classifies an error text: kubectl stderr (klog prefixes and all), client-go, kubeadm, peer
/// tools, Rust client errors (kube/hyper/rustls), or a raw `Status` JSON body.
pub fn classify_text(text: &str) -> Class {
    let trimmed = text.trim();
    if trimmed.starts_with('{')
        && let Ok(status) = serde_json::from_str::<kube::core::Status>(trimmed)
        && (status.code != 0 || !status.reason.is_empty())
    {
        return classify_status(&status);
    }
    let l = trimmed.to_ascii_lowercase();
    let has = |n: &str| l.contains(n);

    // Configuration.
    if has("localhost:8080") && (has("refused") || has("connect")) {
        return Class::NoUsableKubeconfig;
    }
    for needle in [
        "specifying a root certificates file with the insecure flag is not allowed",
        "invalid configuration",
        "no configuration has been provided",
        "context was not found for specified context",
        "invalid port \"",
        "invalid server url",
        "certificate-authority-data and certificate-authority are both specified",
    ] {
        if has(needle) {
            return Class::ConfigInvalid {
                reason: last_line(trimmed).to_string(),
            };
        }
    }
    if has("context \"") && has("\" does not exist") {
        return Class::ConfigInvalid {
            reason: last_line(trimmed).to_string(),
        };
    }

    // Protocol mix-ups.
    if has("client sent an http request to an https server")
        || (has("(badrequest)") && has("rejected our request for an unknown reason"))
    {
        return Class::Protocol {
            mismatch: ProtocolMismatch::HttpToHttps,
        };
    }
    if has("first record does not look like a tls handshake")
        || has("server gave http response to https client")
        || has("wrong version number")
        || has("invalidcontenttype")
        || has("received corrupt message")
    {
        return Class::Protocol {
            mismatch: ProtocolMismatch::HttpsToHttp,
        };
    }

    // TLS.
    if has("causedasendentity")
        || has("ca used as end entity")
        || has("self signed certificate\n")
        || l.ends_with("self signed certificate")
        || l.ends_with("self-signed certificate")
        || has("self-signed certificate)")
        || has("ssl certificate problem: self signed certificate")
    {
        return Class::TlsSelfSigned;
    }
    if has("certificate signed by unknown authority")
        || has("unknownissuer")
        || has("unable to get local issuer certificate")
        || has("self signed certificate in certificate chain")
        || has("self-signed certificate in certificate chain")
    {
        return Class::TlsUntrusted;
    }
    if has("certificate is valid for")
        || has("notvalidforname")
        || has("no alternative certificate subject name matches")
        || has("certificate not valid for name")
    {
        return name_mismatch_from_text(trimmed);
    }
    if has("certificate has expired or is not yet valid")
        || has("certificate has expired")
        || has("certificate is not yet valid")
        || has("expiredcontext")
        || has("notvalidyet")
    {
        return validity_from_text(trimmed);
    }

    // Authorization and authentication.
    if has("forbidden") {
        return forbidden_from_text(trimmed);
    }
    if has("unauthorized")
        || has("must be logged in to the server")
        || has("has asked for the client to provide credentials")
    {
        return Class::Unauthorized;
    }

    // Transport.
    if has("connection refused") || has("was refused") || has("couldn't connect to server") {
        return Class::Refused;
    }
    // hyper's parse errors: the peer answered, but not with HTTP.
    if has("received unexpected message from connection")
        || has("invalid http version parsed")
        || has("invalid http status-code parsed")
        || has("invalid http header parsed")
        || has("invalid http method parsed")
        || has("message head is too large")
        || has("malformed http response")
    {
        return Class::NotHttp;
    }
    if has("connection reset by peer")
        || has("connection closed before message completed")
        || has("tls handshake eof")
        || has("broken pipe")
        || has("connection aborted")
        || has("peer closed connection without sending tls close_notify")
        || has("unexpected eof")
        || l.ends_with(": eof")
    {
        return Class::Reset;
    }
    if has("client.timeout exceeded")
        || has("deadline exceeded")
        || has("i/o timeout")
        || has("timed out")
        || has("timeout exceeded")
        || has("tls handshake timeout")
        || has("operation timed out")
    {
        return Class::Timeout;
    }
    if has("no such host")
        || has("name or service not known")
        || has("dns error")
        || has("failed to lookup address")
        || has("temporary failure in name resolution")
        || has("nodename nor servname")
    {
        return Class::Dns;
    }
    if has("(notfound)")
        || has("could not find the requested resource")
        || has("404 page not found")
    {
        return Class::NotFound;
    }
    Class::Unknown
}

fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(text)
        .trim()
}

/// Classifies a Kubernetes `Status`: `reason` first, then `code` (kube-core `Status` predicates).
pub fn classify_status(status: &kube::core::Status) -> Class {
    let reason = status.reason.as_str();
    let code = status.code;
    match reason {
        "Unauthorized" => return Class::Unauthorized,
        "Forbidden" => return forbidden_from_text(&status.message),
        "NotFound" => return Class::NotFound,
        // Set by this crate for a 200 answer that is not the Kubernetes API.
        "NotKubernetes" => return Class::NotKubernetes,
        _ => {}
    }
    match code {
        401 => Class::Unauthorized,
        403 => forbidden_from_text(&status.message),
        404 => Class::NotFound,
        400 if find_ci(&status.message, "http request to an https server") => Class::Protocol {
            mismatch: ProtocolMismatch::HttpToHttps,
        },
        _ => Class::HttpStatus {
            code,
            reason: Some(reason.to_string()).filter(|r| !r.is_empty()),
        },
    }
}

/// Classifies an HTTP answer: a `Status` body when there is one, the text otherwise, the code
/// last.
pub fn classify_http(code: u16, body: &str) -> Class {
    if let Ok(status) = serde_json::from_str::<kube::core::Status>(body.trim())
        && (status.code != 0 || !status.reason.is_empty())
    {
        return classify_status(&status);
    }
    match classify_text(body) {
        Class::Unknown | Class::NotFound => match code {
            401 => Class::Unauthorized,
            403 => forbidden_from_text(body),
            404 => Class::NotFound,
            _ => Class::HttpStatus { code, reason: None },
        },
        c => c,
    }
}

// ---------------------------------------------------------------------------------------------
// Typed error chains

/// A name rustls lists in `NotValidForNameContext::presented`, written as its Debug text
/// (`DnsName("wrong.example.com")`, `IpAddress(10.0.0.1)`): the name alone.
fn presented_name(p: &str) -> String {
    let p = p.trim();
    let inner = match (p.find('('), p.ends_with(')')) {
        (Some(open), true) if p[..open].chars().all(|c| c.is_ascii_alphanumeric()) => {
            &p[open + 1..p.len() - 1]
        }
        _ => p,
    };
    inner.trim_matches('"').to_string()
}

fn from_rustls(e: &rustls::Error) -> Option<Class> {
    use rustls::CertificateError as C;
    let unix =
        |t: rustls::pki_types::UnixTime| jiff::Timestamp::from_second(t.as_secs() as i64).ok();
    Some(match e {
        rustls::Error::InvalidCertificate(c) => match c {
            C::UnknownIssuer | C::BadSignature => Class::TlsUntrusted,
            C::NotValidForName => Class::TlsNameMismatch {
                valid_for: Vec::new(),
                wanted: None,
            },
            C::NotValidForNameContext {
                expected,
                presented,
            } => Class::TlsNameMismatch {
                valid_for: presented.iter().map(|p| presented_name(p)).collect(),
                wanted: Some(server_name_text(expected)),
            },
            C::Expired => validity(Validity::Expired, None, None),
            C::ExpiredContext { time, not_after } => {
                validity(Validity::Expired, unix(*time), unix(*not_after))
            }
            C::NotValidYet => validity(Validity::NotYetValid, None, None),
            C::NotValidYetContext { time, not_before } => {
                validity(Validity::NotYetValid, unix(*time), unix(*not_before))
            }
            // webpki: a CA certificate (typically `openssl req -x509`, self-signed) presented
            // as the server certificate.
            C::Other(o) if o.to_string().contains("CaUsedAsEndEntity") => Class::TlsSelfSigned,
            C::BadEncoding
            | C::InvalidPurpose
            | C::InvalidPurposeContext { .. }
            | C::UnsupportedSignatureAlgorithmContext { .. }
            | C::UnsupportedSignatureAlgorithmForPublicKeyContext { .. } => Class::TlsUntrusted,
            _ => return None,
        },
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
            Class::Protocol {
                mismatch: ProtocolMismatch::HttpsToHttp,
            }
        }
        _ => return None,
    })
}

fn server_name_text(n: &rustls::pki_types::ServerName<'_>) -> String {
    match n {
        rustls::pki_types::ServerName::DnsName(d) => d.as_ref().to_string(),
        rustls::pki_types::ServerName::IpAddress(ip) => std::net::IpAddr::from(*ip).to_string(),
        other => format!("{other:?}"),
    }
}

fn from_one(e: &(dyn StdError + 'static)) -> Option<Class> {
    if let Some(crate::Error::ExecPlugin { source, .. }) = e.downcast_ref::<crate::Error>() {
        return Some(Class::ExecPluginFailed {
            reason: crate::kubeconfig::redact_text(&humanize(&source.to_string())),
        });
    }
    if let Some(k) = e.downcast_ref::<kube::Error>()
        && let kube::Error::Api(status) = k
    {
        return Some(classify_status(status));
    }
    if let Some(h) = e.downcast_ref::<crate::http::HttpError>() {
        return Some(h.class());
    }
    if e.downcast_ref::<crate::api::WrongAnswer>().is_some() {
        return Some(Class::NotKubernetes);
    }
    if let Some(p) = e.downcast_ref::<crate::http::PagingError>() {
        return Some(p.class());
    }
    if let Some(r) = e.downcast_ref::<rustls::Error>() {
        return from_rustls(r);
    }
    if e.downcast_ref::<tokio::time::error::Elapsed>().is_some() {
        return Some(Class::Timeout);
    }
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        if let Some(inner) = io.get_ref()
            && let Some(c) = from_one(inner)
        {
            return Some(c);
        }
        return match io.kind() {
            std::io::ErrorKind::ConnectionRefused => Some(Class::Refused),
            std::io::ErrorKind::TimedOut => Some(Class::Timeout),
            std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::UnexpectedEof => Some(Class::Reset),
            _ => None,
        };
    }
    None
}

/// Classifies an error chain (kube, hyper, hyper-util, rustls, io). Typed causes win; the
/// joined messages of the chain go through [`classify_text`] otherwise.
pub fn classify_error(err: &(dyn StdError + 'static)) -> Class {
    let mut texts = Vec::new();
    let mut cur: Option<&(dyn StdError + 'static)> = Some(err);
    let mut first_typed = None;
    while let Some(e) = cur {
        if first_typed.is_none() {
            first_typed = from_one(e);
        }
        texts.push(e.to_string());
        cur = e.source();
    }
    if let Some(c) = first_typed {
        return c;
    }
    classify_text(&texts.join(": "))
}

/// The class of a client that could not be built ([`crate::client::build_client`]): an exec
/// plugin that gave no credential is [`Class::ExecPluginFailed`] (the kubeconfig is valid),
/// anything else [`Class::ConfigInvalid`] with the error chain's text.
pub fn classify_build_error(err: &crate::Error) -> Class {
    match from_one(err) {
        Some(c @ Class::ExecPluginFailed { .. }) => c,
        _ => Class::ConfigInvalid {
            reason: error_chain_text(err),
        },
    }
}

/// The chain's messages joined with `": "`, passed through
/// [`crate::kubeconfig::redact_text`] (safe to log).
pub fn error_chain_text(err: &(dyn StdError + 'static)) -> String {
    let mut texts: Vec<String> = Vec::new();
    let mut cur: Option<&(dyn StdError + 'static)> = Some(err);
    while let Some(e) = cur {
        let t = humanize(&e.to_string());
        // Layers often repeat their source in their own message: keep each text once.
        if !t.is_empty() && !texts.iter().any(|x| x.contains(&t)) {
            texts.push(t);
        }
        if e.downcast_ref::<crate::http::HttpError>().is_some() {
            // Already the sanitized, classified message of a bounded exchange.
            break;
        }
        cur = e.source();
    }
    crate::kubeconfig::redact_text(&texts.join(": "))
}

/// Error text written for people: Rust `Debug` shapes that client libraries put in their
/// messages (`DnsName("kubernetes")`, `Other(OtherError(CaUsedAsEndEntity))`) become plain
/// words, and kube's wrapper prefixes (`ServiceError: `, `client error (Connect): `) are
/// dropped.
pub fn humanize(text: &str) -> String {
    let mut t = text.to_string();
    for prefix in [
        "ServiceError: ",
        "HyperError: ",
        "client error (Connect): ",
        "client error (Canceled): ",
    ] {
        while t.contains(prefix) {
            t = t.replacen(prefix, "", 1);
        }
    }
    for (from, to) in [
        (
            "Other(OtherError(CaUsedAsEndEntity))",
            "a CA certificate is used as the server certificate (self-signed)",
        ),
        ("UnknownIssuer", "unknown issuer"),
        ("NotValidForName", "not valid for the name"),
        ("BadSignature", "bad signature"),
    ] {
        t = t.replace(from, to);
    }
    // DnsName("x") / IpAddress(V4(..)) -> x
    for wrapper in ["DnsName(\"", "ServerName(\""] {
        while let Some(i) = t.find(wrapper) {
            let rest = &t[i + wrapper.len()..];
            match rest.find("\")") {
                Some(j) => {
                    let name = rest[..j].to_string();
                    t.replace_range(i..i + wrapper.len() + j + 2, &name);
                }
                None => break,
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {

    /// rustls lists the names a certificate is valid for as Debug text; the report shows the
    /// names (`wrong.example.com`, not `DnsName("wrong.example.com")`).
    #[test]
    fn presented_names_lose_rustls_debug_wrappers() {
        assert_eq!(
            presented_name("DnsName(\"wrong.example.com\")"),
            "wrong.example.com"
        );
        assert_eq!(presented_name("IpAddress(10.0.0.1)"), "10.0.0.1");
        assert_eq!(presented_name("\"kubernetes\""), "kubernetes");
        assert_eq!(presented_name("a (b)"), "a (b)");
    }
    use super::*;

    #[track_caller]
    fn check(text: &str, id: &str) {
        assert_eq!(classify_text(text).id(), id, "{text}");
    }

    #[test]
    fn query_timeout_parameter_is_not_a_timeout() {
        check(
            "Get \"https://10.0.2.15:6443/api?timeout=10s\": dial tcp 10.0.2.15:6443: connect: connection refused",
            "refused",
        );
    }

    #[test]
    fn rust_client_texts() {
        check(
            "client error (Connect): tcp connect error: Connection refused (os error 111)",
            "refused",
        );
        check(
            "client error (Connect): dns error: failed to lookup address information: Name or service not known",
            "dns",
        );
        check("invalid peer certificate: UnknownIssuer", "tls-untrusted");
    }

    #[test]
    fn clock_skew_window() {
        match classify_text(
            "x509: certificate has expired or is not yet valid: current time 2021-04-01T14:43:32+02:00 is before 2021-04-01T15:31:09Z",
        ) {
            Class::TlsValidity {
                state,
                clock_skew_hint,
                ..
            } => {
                assert_eq!(state, Validity::NotYetValid);
                assert!(clock_skew_hint);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn status_reason_before_code() {
        let s: kube::core::Status = serde_json::from_str(
            r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"m","reason":"Unauthorized","code":403}"#,
        )
        .expect("status");
        assert_eq!(classify_status(&s), Class::Unauthorized);
    }

    #[test]
    fn every_class_has_one_connection_class() {
        use cube_model::import::ConnectionClass as C;
        let cases = [
            (Class::NoUsableKubeconfig, C::ConfigInvalid),
            (
                Class::ConfigInvalid {
                    reason: String::new(),
                },
                C::ConfigInvalid,
            ),
            (Class::Dns, C::Dns),
            (Class::Refused, C::Refused),
            (Class::Timeout, C::Timeout),
            (Class::TlsUntrusted, C::TlsUntrusted),
            (Class::TlsSelfSigned, C::TlsUntrusted),
            (
                Class::TlsNameMismatch {
                    valid_for: vec![],
                    wanted: None,
                },
                C::TlsNameMismatch,
            ),
            (validity(Validity::Expired, None, None), C::TlsExpired),
            (
                Class::Protocol {
                    mismatch: ProtocolMismatch::HttpToHttps,
                },
                C::Protocol,
            ),
            (Class::Reset, C::ConnectionReset),
            (Class::NotHttp, C::NotHttp),
            (Class::NotKubernetes, C::NotKubernetes),
            (
                Class::LimitExceeded {
                    what: String::new(),
                    limit: 1,
                    exceeded: None,
                },
                C::LimitExceeded,
            ),
            (Class::Unauthorized, C::Unauthorized),
            (
                Class::Forbidden {
                    cause: ForbiddenCause::Rbac,
                    detail: ForbiddenDetail::default(),
                },
                C::Forbidden,
            ),
            (
                Class::Forbidden {
                    cause: ForbiddenCause::Anonymous,
                    detail: ForbiddenDetail::default(),
                },
                C::Unauthorized,
            ),
            (Class::NotFound, C::Other),
            (
                Class::HttpStatus {
                    code: 500,
                    reason: None,
                },
                C::Other,
            ),
            (Class::Unknown, C::Other),
        ];
        for (class, want) in cases {
            assert_eq!(class.connection_class(), want, "{}", class.id());
            assert!(!class.hint().is_empty());
        }
    }

    #[test]
    fn transport_texts_of_hostile_peers() {
        check(
            "client error (Canceled): operation was canceled: received unexpected message from connection",
            "not-http",
        );
        check("invalid HTTP version parsed", "not-http");
        check(
            "connection closed before message completed",
            "connection-reset",
        );
        check(
            "Connection reset by peer (os error 104)",
            "connection-reset",
        );
        check(
            "invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))",
            "tls-self-signed",
        );
        check(
            "SSL certificate problem: self signed certificate",
            "tls-self-signed",
        );
        check(
            "x509: certificate signed by unknown authority",
            "tls-untrusted",
        );
    }

    #[test]
    fn humanized_chain_text() {
        assert_eq!(
            humanize(
                "ServiceError: client error (Connect): invalid peer certificate: certificate not valid for name DnsName(\"kubernetes\")"
            ),
            "invalid peer certificate: certificate not valid for name kubernetes"
        );
    }
}
