//! Derivations for kubelet and certificate texts: the validity window of an x509 error and
//! the cause it points to (a `current time ... is before ...` is a clock behind the issuer's,
//! not an expired certificate), and whether rotation could still reach the API server.

use std::collections::BTreeMap;

use super::SignalKind;
use crate::catalog::Match;

pub(crate) fn refine(
    kind: SignalKind,
    m: &Match,
    _l: &str,
    d: &mut BTreeMap<String, String>,
) -> SignalKind {
    match kind {
        SignalKind::TlsExpired => {
            let trim = |v: &str| v.trim_end_matches(['"', ')', ']', '\\', '.']).to_owned();
            let (now, rel, bound) = (
                trim(m.value("current_time")),
                m.value("relation").to_owned(),
                trim(m.value("bound")),
            );
            if !bound.is_empty() {
                d.insert("bound".to_owned(), bound.clone());
            }
            let gap = match (
                now.parse::<jiff::Timestamp>(),
                bound.parse::<jiff::Timestamp>(),
            ) {
                (Ok(a), Ok(b)) => Some(b.as_second() - a.as_second()),
                _ => None,
            };
            if let Some(g) = gap {
                d.insert("gap_seconds".to_owned(), g.abs().to_string());
            }
            // one cause: `before` NotBefore is a client clock behind the issuer's; `after`
            // NotAfter is an expired certificate; no times: unknown until clocks are compared
            let cause = match rel.as_str() {
                "before" => "clock",
                "after" => "expired",
                _ => "unknown",
            };
            d.insert("cause".to_owned(), cause.to_owned());
            kind
        }
        SignalKind::KubeletCertExpired => {
            d.insert("server_unresponsive".to_owned(), "true".to_owned());
            kind
        }
        k => k,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SignalKind as K, classify};

    #[test]
    fn cgroup_drivers_are_named() {
        let s = classify(
            "j",
            "Oct 14 19:15:43 node-03 kubelet[27956]: F1014 server.go:271] failed to run Kubelet: failed to create kubelet: misconfiguration: kubelet cgroup driver: \"cgroupfs\" is different from docker cgroup driver: \"systemd\"",
        );
        assert_eq!(s[0].kind, K::CgroupDriverMismatch);
        assert_eq!(s[0].detail("kubelet_driver"), "cgroupfs");
        assert_eq!(s[0].detail("runtime_driver"), "systemd");
        assert_eq!(s[0].detail("runtime"), "docker");
        assert_eq!(
            s[0].object.as_ref().map(|o| o.name.as_str()),
            Some("node-03")
        );
    }

    #[test]
    fn not_yet_valid_times_carry_the_clock_cause() {
        let s = classify(
            "c",
            "Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2021-04-01T14:43:32+02:00 is before 2021-04-01T15:31:09Z",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].kind, K::TlsExpired);
        assert_eq!(s[0].detail("relation"), "before");
        assert_eq!(s[0].detail("bound"), "2021-04-01T15:31:09Z");
        assert_eq!(s[0].detail("cause"), "clock");
        assert_eq!(s[0].detail("gap_seconds"), "10057");
        let s = classify("c", "x509: certificate has expired or is not yet valid");
        assert_eq!(s[0].detail("cause"), "unknown");
    }

    #[test]
    fn bootstrap_certificate_expiry_of_every_version() {
        for l in [
            "E1001 11:34:07.899084    1914 bootstrap.go:266] part of the existing bootstrap client certificate in /etc/kubernetes/kubelet.conf is expired: 2024-09-12 09:18:55 +0000 UTC",
            "E0611 16:06:19.164838   30057 bootstrap.go:265] part of the existing bootstrap client certificate is expired: 2020-06-11 20:11:55 +0000 UTC",
            "bootstrap.go:195] Part of the existing bootstrap client certificate is expired: 2019-08-22 11:29:48 +0000 UTC",
        ] {
            let s = classify("j", l);
            assert_eq!(s.len(), 1, "{l}");
            assert_eq!(s[0].kind, K::Known);
            assert!(
                s[0].detail("entry")
                    .starts_with("kubelet.bootstrap-cert-expired")
            );
            assert!(s[0].detail("not_after").ends_with("UTC"));
        }
    }
}

/// Reason and message of the Ready condition in the kubelet's `Node became not ready` line
/// (pkg/kubelet/nodestatus/setters.go): Go's `%+v` of a NodeCondition
/// (`{Type:Ready Status:False ... Reason:KubeletNotReady Message:...}`, the message running to
/// the closing brace) up to v1.29, JSON (`{"type":"Ready",...,"reason":"...","message":"..."}`)
/// from v1.30. Sets `reason`, `message`, the node name without its quotes, and severity info
/// for the graceful node shutdown manager's `node is shutting down` (a planned reboot).
pub(crate) fn refine_not_ready(d: &mut BTreeMap<String, String>) {
    // the paste reader quotes the value it reduced from klog's structured form
    let raw = d.get("condition").cloned().unwrap_or_default();
    let t = raw.trim();
    let cond = t
        .strip_prefix('"')
        .and_then(|c| c.strip_suffix('"'))
        .unwrap_or(t)
        .to_owned();
    let (reason, message) = if cond.trim_start().starts_with("{\"") {
        (json_field(&cond, "reason"), json_field(&cond, "message"))
    } else {
        let reason = cond.split_once("Reason:").map(|(_, r)| {
            r.split(char::is_whitespace)
                .next()
                .unwrap_or("")
                .trim_end_matches('}')
                .to_owned()
        });
        let message = cond.split_once(" Message:").map(|(_, m)| {
            let m = m.trim_end();
            m.strip_suffix('}').unwrap_or(m).trim_end().to_owned()
        });
        (reason, message)
    };
    let reason = reason.filter(|r| !r.is_empty());
    let message = message.filter(|m| !m.is_empty());
    if message
        .as_deref()
        .is_some_and(|m| m.contains("node is shutting down"))
    {
        d.insert("severity".to_owned(), "info".to_owned());
    }
    d.insert(
        "reason".to_owned(),
        reason.unwrap_or_else(|| "no reason given".to_owned()),
    );
    d.insert(
        "message".to_owned(),
        message.unwrap_or_else(|| "no message in the line".to_owned()),
    );
    if let Some(n) = d.get_mut("node") {
        *n = n.trim_matches(['"', '\\']).to_owned();
    }
}

/// The string value of `key` in a one-line JSON object (escapes `\"` and `\\` undone), or
/// `None`.
fn json_field(obj: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":\"");
    let start = obj.find(&pat)? + pat.len();
    let mut out = String::new();
    let mut chars = obj[start..].chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push(' '),
                Some(e) => out.push(e),
                None => break,
            },
            '"' => return Some(out),
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod not_ready_tests {
    use super::*;

    fn run(cond: &str) -> BTreeMap<String, String> {
        let mut d = BTreeMap::new();
        d.insert("condition".to_owned(), cond.to_owned());
        d.insert("node".to_owned(), "\"gpu-1\"".to_owned());
        refine_not_ready(&mut d);
        d
    }

    #[test]
    fn go_and_json_conditions() {
        let d = run(
            "{Type:Ready Status:False LastHeartbeatTime:2019-09-07 21:49:17 +0000 UTC m=+1962.5 LastTransitionTime:2019-09-07 21:49:17 +0000 UTC Reason:KubeletNotReady Message:PLEG is not healthy: pleg was last seen active 3m1.1s ago; threshold is 3m0s}",
        );
        assert_eq!(d["reason"], "KubeletNotReady");
        assert_eq!(
            d["message"],
            "PLEG is not healthy: pleg was last seen active 3m1.1s ago; threshold is 3m0s"
        );
        assert_eq!(d["node"], "gpu-1");
        assert!(!d.contains_key("severity"));
        let d = run(
            "{\"type\":\"Ready\",\"status\":\"False\",\"lastHeartbeatTime\":\"2026-01-12T02:56:20Z\",\"reason\":\"KubeletNotReady\",\"message\":\"node is shutting down\"}",
        );
        assert_eq!(d["reason"], "KubeletNotReady");
        assert_eq!(d["message"], "node is shutting down");
        assert_eq!(d["severity"], "info");
        let d = run("{Type:Ready Status:False}");
        assert_eq!(d["reason"], "no reason given");
    }
}
