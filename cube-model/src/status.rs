//! The API server's error body, `kind: Status` (k8s.io/apimachinery
//! `pkg/apis/meta/v1/types.go` `Status`, `StatusDetails`, `StatusCause`), in every shape people
//! paste it:
//!
//! - as a whole input or a section of a paste, pretty or one-line JSON, or YAML (read by the
//!   snapshot loader into [`crate::ClusterSnapshot::api_statuses`]), also as an item of a List;
//! - embedded in a line: `kubectl -v=8` / `-v=9` print the body after `Response Body: `
//!   (k8s.io/client-go `transport/round_trippers.go`, `debuggingRoundTripper`), a wrapper may
//!   print it after any prefix ([`embedded`]);
//! - after the status line and headers of `curl -i` / `curl -v` (`HTTP/1.1 403 Forbidden`,
//!   `Content-Type: application/json`, a blank line, then the body): [`expand_in_lines`].
//!
//! What a Status says is its `message` (the same text kubectl prints after `Error from server
//! (<reason>): `, k8s.io/kubectl `pkg/cmd/util/helpers.go` `StandardErrorMessage`) and the
//! message of each `details.causes[]` entry (`<field>: <message>`, as apimachinery's
//! `field.Error` prints it); [`ApiStatus::lines`] gives them as the lines the log classifiers
//! read. [`ApiStatus::is_read_failure`] tells a refused or failed read of a kind (a list that
//! could not be read: nothing may be concluded from that kind's absence) from a write that was
//! rejected (admission, validation: the message is the finding, the kind was not unread).

use serde::{Deserialize, Serialize};

/// One `details.causes[]` entry of a Status.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct StatusCause {
    /// Machine-readable reason (`FieldValueInvalid`, `FieldValueRequired`, ...).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Human-readable message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Field path the cause is about (`spec.containers[0].resources.requests`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
}

/// `details` of a Status: the object the failure is about.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct StatusDetails {
    /// Name of the object, when the request was about one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// API group of the resource.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// Resource (`pods`) or kind the request was about.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Causes (validation errors, webhook reasons).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
}

/// An API `Status` read from an input.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ApiStatus {
    /// Input (file name or label) it was read from (set by the loader).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// `Success` or `Failure`.
    pub status: String,
    /// The human-readable message.
    pub message: String,
    /// Machine-readable reason (`Forbidden`, `NotFound`, `Invalid`, ...).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// HTTP status code (0 when not set).
    pub code: i64,
    /// The object the failure is about.
    pub details: StatusDetails,
}

impl ApiStatus {
    /// Reads a Status from one JSON value's text; `None` when it is not a Status (see
    /// [`ApiStatus::from_value`]).
    pub fn from_json(text: &str) -> Option<ApiStatus> {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        ApiStatus::from_value(&value)
    }

    /// Reads a Status from a JSON value: `kind: Status`, or (older servers and proxies that
    /// leave `kind` out) a `status` of `Failure`/`Success` with a `message` and a numeric
    /// `code`. `None` for anything else.
    pub fn from_value(value: &serde_json::Value) -> Option<ApiStatus> {
        let map = value.as_object()?;
        let kind = map.get("kind").and_then(|k| k.as_str());
        let shaped = kind.is_none()
            && matches!(
                map.get("status").and_then(|s| s.as_str()),
                Some("Failure" | "Success")
            )
            && map.get("message").is_some_and(|m| m.is_string())
            && map.get("code").is_some_and(|c| c.is_i64());
        if kind != Some("Status") && !shaped {
            return None;
        }
        ApiStatus::deserialize(value).ok()
    }

    /// True for a failure.
    pub fn is_failure(&self) -> bool {
        self.status == "Failure"
    }

    /// True when the Status says a kind could not be read (so nothing may be concluded from
    /// its absence): RBAC refused a read (`cannot list|get|watch resource`), or a request about
    /// no named object failed as a whole (401, 404 of a resource type the server does not
    /// serve, 429, 5xx, or any other failure without a name). A rejected write is not: a
    /// Status about a named object (`details.name`, or a message `<resource> "<name>" is
    /// forbidden|invalid`), validation (`Invalid`, 422) and conflicts (409), such as the
    /// admission plugins' `exceeded quota` / `failed quota` rejections.
    pub fn is_read_failure(&self) -> bool {
        if !self.is_failure() {
            return false;
        }
        let m = self.message.to_ascii_lowercase();
        if ["cannot list", "cannot get", "cannot watch"]
            .iter()
            .any(|v| m.contains(v))
        {
            return true;
        }
        if !self.details.name.is_empty()
            || matches!(self.code, 409 | 422)
            || matches!(
                self.reason.as_str(),
                "Invalid" | "AlreadyExists" | "Conflict"
            )
        {
            return false;
        }
        // `pods "x" is forbidden: exceeded quota ...`: about one object (the quoted name)
        let about_named = [" is forbidden", " is invalid"]
            .iter()
            .any(|w| m.find(w).is_some_and(|p| m[..p].trim_end().ends_with('"')));
        !about_named
    }

    /// The lines a log classifier reads: the message, then each cause's `<field>: <message>`
    /// whose text the message does not already hold (a 422's message joins its causes).
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.message.trim().is_empty() {
            out.extend(self.message.lines().map(str::to_owned));
        }
        for c in &self.details.causes {
            if c.message.trim().is_empty() || self.message.contains(c.message.as_str()) {
                continue;
            }
            out.push(if c.field.is_empty() {
                c.message.clone()
            } else {
                format!("{}: {}", c.field, c.message)
            });
        }
        if out.is_empty() {
            // a Status without a message still says something failed
            out.push(format!(
                "API status {} {} {}",
                self.status, self.code, self.reason
            ));
        }
        out
    }
}

/// A Status JSON embedded in a line after some prefix (`I0101 ... round_trippers.go:553]
/// Response Body: {"kind":"Status",...}`, `Error: {"kind":"Status",...}`): the text before it
/// and the Status. Only the first JSON value is read; text after it is ignored.
pub fn embedded(line: &str) -> Option<(&str, ApiStatus)> {
    if !line.contains("Status") && !line.contains("\"code\"") {
        return None;
    }
    let mut from = 0;
    while let Some(p) = line[from..].find('{') {
        let start = from + p;
        let mut values =
            serde_json::Deserializer::from_str(&line[start..]).into_iter::<serde_json::Value>();
        if let Some(Ok(v)) = values.next()
            && let Some(status) = ApiStatus::from_value(&v)
        {
            return Some((&line[..start], status));
        }
        from = start + 1;
    }
    None
}

/// True for an HTTP status line (`HTTP/1.1 403 Forbidden`, `HTTP/2 401`, curl -v's `< HTTP/2
/// 403`).
pub fn is_http_status_line(line: &str) -> bool {
    let t = line.trim_start().trim_start_matches("< ");
    let Some(rest) = t.strip_prefix("HTTP/") else {
        return false;
    };
    let mut parts = rest.split_whitespace();
    let version_ok = parts
        .next()
        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'));
    let code_ok = parts
        .next()
        .is_some_and(|c| c.len() == 3 && c.chars().all(|c| c.is_ascii_digit()));
    version_ok && code_ok
}

/// An HTTP header line (`Content-Type: application/json`, curl -v's `< audit-id: ...`).
fn is_header_line(line: &str) -> bool {
    let t = line.trim_start().trim_start_matches("< ");
    match t.split_once(':') {
        Some((name, _)) => {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        }
        None => false,
    }
}

/// What [`expand_in_lines`] found at one place of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StatusAt {
    /// Index of the first line the Status (with its HTTP status line and headers) took.
    pub first: usize,
    /// Index after the last line it took.
    pub end: usize,
    /// Index of the line its message is on (the body's first line for a pretty body).
    pub message_line: usize,
    /// The Status.
    pub status: ApiStatus,
}

/// The Status bodies of a text given as lines: a line holding a whole Status after a prefix
/// ([`embedded`]), and a pretty-printed body (`{` on its own line up to the `}` that closes
/// it), together with the HTTP status line and header lines right before it (`curl -i`).
/// Bodies that are not a Status are not returned.
pub fn expand_in_lines(lines: &[&str]) -> Vec<StatusAt> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        if t.starts_with('{') && !t.ends_with('}') || t == "{" {
            // a pretty body: up to the line whose `}` closes it (at most 400 lines)
            let mut body = String::new();
            let mut found = None;
            for (j, l) in lines.iter().enumerate().skip(i).take(400) {
                body.push_str(l);
                body.push('\n');
                if l.trim_start().starts_with('}')
                    && let Ok(v) = serde_json::from_str::<serde_json::Value>(&body)
                {
                    found = Some((j, v));
                    break;
                }
            }
            if let Some((j, v)) = found {
                if let Some(status) = ApiStatus::from_value(&v) {
                    let message_line = (i..=j)
                        .find(|&k| lines[k].trim_start().starts_with("\"message\""))
                        .unwrap_or(i);
                    out.push(StatusAt {
                        first: http_head_start(lines, i),
                        end: j + 1,
                        message_line,
                        status,
                    });
                }
                i = j + 1;
                continue;
            }
        }
        if let Some((_, status)) = embedded(lines[i]) {
            out.push(StatusAt {
                first: http_head_start(lines, i),
                end: i + 1,
                message_line: i,
                status,
            });
        }
        i += 1;
    }
    out
}

/// A line of client-go's HTTP trace (`kubectl -v=6..9`) without its klog header: the text
/// after `round_trippers.go:<n>] `, or the line itself.
fn trace_text(line: &str) -> &str {
    match line.find("round_trippers.go:") {
        Some(p) => line[p..]
            .split_once("] ")
            .map_or(line, |(_, rest)| rest.trim_start()),
        None => line,
    }
}

/// client-go's response trace lines before a `Response Body:` (k8s.io/client-go
/// `transport/round_trippers.go`): `Response Status: 403 Forbidden in 12 milliseconds`,
/// `Response Headers:` and its indented headers (`-v=8`), and the one-line summary `POST
/// https://... 403 Forbidden in 12 milliseconds` (`-v=6`).
fn is_response_trace(line: &str) -> bool {
    if !line.contains("round_trippers.go:") {
        return false;
    }
    let t = trace_text(line);
    t.starts_with("Response Status:")
        || t.starts_with("Response Headers:")
        || (t.ends_with(" milliseconds")
            && ["GET ", "POST ", "PUT ", "PATCH ", "DELETE "]
                .iter()
                .any(|v| t.starts_with(v)))
        || is_header_line(t)
}

/// The start of the HTTP status line and headers right before line `body` (a blank line
/// between them and the body allowed; client-go's response trace lines for a `Response
/// Body:` line), or `body` when there are none.
fn http_head_start(lines: &[&str], body: usize) -> usize {
    if lines[body].contains("round_trippers.go:") {
        let mut j = body;
        while j > 0 && is_response_trace(lines[j - 1]) {
            j -= 1;
        }
        return j;
    }
    let mut k = body;
    if k > 0 && lines[k - 1].trim().is_empty() {
        k -= 1;
    }
    let mut j = k;
    while j > 0 && is_header_line(lines[j - 1]) && !is_http_status_line(lines[j - 1]) {
        j -= 1;
    }
    if j > 0 && is_http_status_line(lines[j - 1]) {
        j - 1
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUOTA: &str = r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"p\" is forbidden: exceeded quota: q, requested: nvidia.com/gpu=1, used: nvidia.com/gpu=4, limited: nvidia.com/gpu=4","reason":"Forbidden","details":{"name":"p","kind":"pods"},"code":403}"#;

    #[test]
    fn one_line_status_is_read_with_its_message() {
        let s = ApiStatus::from_json(QUOTA).unwrap();
        assert_eq!(s.code, 403);
        assert_eq!(s.details.name, "p");
        assert!(!s.is_read_failure());
        assert_eq!(s.lines(), vec![s.message.clone()]);
        assert!(
            s.message
                .starts_with("pods \"p\" is forbidden: exceeded quota")
        );
    }

    #[test]
    fn rbac_refusal_and_server_errors_are_read_failures() {
        let rbac = ApiStatus::from_json(r#"{"kind":"Status","status":"Failure","message":"nodes is forbidden: User \"u\" cannot list resource \"nodes\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"kind":"nodes"},"code":403}"#).unwrap();
        assert!(rbac.is_read_failure());
        let five = ApiStatus::from_json(r#"{"kind":"Status","status":"Failure","message":"etcdserver: request timed out","code":500}"#).unwrap();
        assert!(five.is_read_failure());
        // admission about a named object without details.name: not a read failure
        let adm = ApiStatus::from_json(r#"{"kind":"Status","status":"Failure","message":"pods \"x\" is forbidden: failed quota: q: must specify limits.memory","reason":"Forbidden","code":403}"#).unwrap();
        assert!(!adm.is_read_failure());
        let ok = ApiStatus::from_json(r#"{"kind":"Status","status":"Success","code":200}"#);
        assert!(!ok.unwrap().is_read_failure());
    }

    #[test]
    fn kindless_status_shape_and_non_status() {
        assert!(ApiStatus::from_json(r#"{"status":"Failure","message":"m","code":500}"#).is_some());
        assert!(ApiStatus::from_json(r#"{"kind":"Pod","status":{}}"#).is_none());
        assert!(ApiStatus::from_json(r#"{"status":"Failure"}"#).is_none());
    }

    #[test]
    fn causes_not_in_the_message_are_lines() {
        let s = ApiStatus::from_json(r#"{"kind":"Status","status":"Failure","message":"admission webhook \"v.example.com\" denied the request","reason":"Invalid","details":{"name":"p","kind":"Pod","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"2\": must be less than or equal to cpu limit","field":"spec.containers[0].resources.requests"}]},"code":422}"#).unwrap();
        assert_eq!(
            s.lines(),
            vec![
                "admission webhook \"v.example.com\" denied the request".to_owned(),
                "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit".to_owned()
            ]
        );
    }

    #[test]
    fn verbose_kubectl_response_body() {
        let line =
            format!("I0301 10:00:00.000000   12345 round_trippers.go:553] Response Body: {QUOTA}");
        let (before, s) = embedded(&line).unwrap();
        assert!(before.ends_with("Response Body: "));
        assert_eq!(s.reason, "Forbidden");
        assert!(embedded("Response Body: {\"kind\":\"PodList\",\"items\":[]}").is_none());
    }

    #[test]
    fn curl_i_headers_then_pretty_body() {
        let text = "HTTP/1.1 403 Forbidden\nAudit-Id: 1\nContent-Type: application/json\nDate: Mon, 01 Jan 2024 00:00:00 GMT\n\n{\n  \"kind\": \"Status\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {},\n  \"status\": \"Failure\",\n  \"message\": \"nodes is forbidden: User \\\"system:anonymous\\\" cannot list resource \\\"nodes\\\" in API group \\\"\\\" at the cluster scope\",\n  \"reason\": \"Forbidden\",\n  \"details\": {\n    \"kind\": \"nodes\"\n  },\n  \"code\": 403\n}\nafter";
        let lines: Vec<&str> = text.lines().collect();
        let found = expand_in_lines(&lines);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].first, 0);
        assert_eq!(found[0].end, lines.len() - 1);
        assert_eq!(found[0].message_line, 10);
        assert!(found[0].status.is_read_failure());
        // a pretty body that is not a Status
        let other = ["{", "  \"major\": \"1\",", "  \"minor\": \"28\"", "}"];
        assert!(expand_in_lines(&other).is_empty());
    }
}
