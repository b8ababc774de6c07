//! Event and scheduler texts: `0/N nodes are available: ...` read with the scheduler's grammar
//! ([`cube_quota::schedmsg`]: the histogram alone in `reasons`, the PreFilter, PostFilter and
//! preemption parts in their own details), node-local volumes and unbound claims named by the
//! scheduler, and mount failures named only by an event's reason. Quota, storage-class and
//! Kueue admission texts are catalog entries ([`crate::catalog`]).

use cube_quota::schedmsg::ReasonKind;

use super::{Hit, SignalKind, details};

pub(crate) fn classify_line(l: &str) -> Vec<Hit> {
    let mut out = Vec::new();
    if let Some(m) = cube_quota::schedmsg::parse(l) {
        // the scheduler's grammar: the histogram alone in `reasons` (never the PostFilter or
        // preemption parts), the rest in their own details
        let reasons: Vec<String> = m
            .reasons
            .iter()
            .map(|r| format!("{} {}", r.count, r.reason.text))
            .collect();
        let (lo, hi) = m.versions();
        let mut d = vec![
            ("nodes", m.nodes.to_string()),
            ("reasons", reasons.join(", ")),
            ("versions", format!("1.{lo}-1.{hi}")),
        ];
        if let Some(p) = &m.prefilter {
            d.push(("prefilter", p.clone()));
        }
        if m.dialect != cube_quota::schedmsg::Dialect::KubeScheduler {
            d.push(("scheduler", m.dialect.as_str().to_owned()));
        }
        if let Some(from) = from_column(l) {
            d.push(("from", from));
        }
        // kube-scheduler's own log names the pod: `pod="ns/name"`; pre-1.10 messages name it
        // as `pod (<name>)`, a headerless `kubectl get events` row in its OBJECT column
        // (`pod/<name>`): the namespace is unknown then
        if let Some(pod) = super::quoted_after(l, " pod=") {
            d.push(("pod", pod));
        } else if let Some(name) = m.pod.clone().or_else(|| object_column_pod(l)) {
            d.push(("pod_name", name));
        }
        if !m.post_filter.is_empty() {
            d.push(("post_filter", m.post_filter.join(", ")));
        }
        if let Some(p) = &m.preemption {
            d.push(("preemption", format!("preemption: {}", p.text())));
        }
        out.push((SignalKind::FailedScheduling, details(&d)));
        let kinds: Vec<ReasonKind> = m.all_reasons().map(|r| r.kind).collect();
        if kinds.contains(&ReasonKind::VolumeNodeAffinityConflict) {
            out.push((SignalKind::VolumeNodeAffinityConflict, details(&[])));
        }
        if kinds.contains(&ReasonKind::UnboundImmediateClaims) {
            out.push((
                SignalKind::PvcNoStorageClass,
                details(&[("unbound", "true".into())]),
            ));
        }
    }
    // an event whose message is not in the catalog still says what its reason says
    // (unless the catalog knows the message as harmless: the projected kube-root-ca.crt "not
    // registered" noise, `catalog::entries` mount.kube-root-ca-not-registered)
    if (l.contains("FailedMount") || l.contains("FailedAttachVolume"))
        && !crate::catalog::match_line(l).iter().any(|m| {
            m.entry.family == crate::catalog::Family::Storage
                && m.entry.kind.is_none()
                && m.entry.complete
        })
    {
        out.push((SignalKind::MountFailed, details(&[])));
    }
    out
}

/// The pod of a `kubectl get events` row's OBJECT column (`pod/<name>`), before the message.
fn object_column_pod(l: &str) -> Option<String> {
    let end = l
        .find(" nodes are available:")
        .or_else(|| l.find("No nodes are available"))
        .unwrap_or(l.len());
    l[..end]
        .split_whitespace()
        .find_map(|w| w.strip_prefix("pod/"))
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
}

/// Parses a scheduler reason histogram (`1 node(s) didn't match pod affinity rules, 3 Insufficient
/// nvidia.com/gpu`) into (count, reason) pairs. Commas inside braces (taints) are kept.
pub fn parse_reasons(reasons: &str) -> Vec<(u32, String)> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in reasons.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth <= 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    parts.push(cur);
    let mut out: Vec<(u32, String)> = Vec::new();
    for p in parts {
        let p = p.trim().trim_end_matches('.');
        let mut it = p.splitn(2, ' ');
        match (it.next().and_then(|n| n.parse::<u32>().ok()), it.next()) {
            (Some(n), Some(r)) => out.push((n, r.trim().to_owned())),
            _ => {
                // continuation of the previous reason (a comma inside a message)
                if let Some(last) = out.last_mut() {
                    last.1.push_str(", ");
                    last.1.push_str(p);
                }
            }
        }
    }
    out
}

/// The event's From column before a scheduler message (`... FailedScheduling  3s
/// default-scheduler  0/2 nodes are available: ...`): the scheduler that wrote it, when the
/// word there names a scheduler (ends in `scheduler`, or a known From value).
pub(crate) fn from_column(l: &str) -> Option<String> {
    let h = l
        .find(" nodes are available:")
        .or_else(|| l.find(" nodes are unavailable:"))?;
    let start = l[..h].rfind("0/")?;
    let token = l[..start].split_whitespace().last()?;
    let token = token.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ','));
    (token.ends_with("scheduler") || cube_quota::schedmsg::EVENT_FROM_VALUES.contains(&token))
        .then(|| token.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::classify;

    #[test]
    fn histogram_parses_with_taint_braces() {
        let r = parse_reasons(
            "3 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 6 Insufficient amd.com/gpu",
        );
        assert_eq!(r.len(), 2);
        assert_eq!(r[1], (6, "Insufficient amd.com/gpu".to_owned()));
    }

    #[test]
    fn failed_scheduling_details() {
        let s = classify(
            "e",
            "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 Insufficient nvidia.com/gpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
        );
        assert_eq!(s[0].kind, SignalKind::FailedScheduling);
        assert_eq!(s[0].detail("nodes"), "4");
        assert!(s[0].detail("preemption").starts_with("preemption:"));
    }
}
