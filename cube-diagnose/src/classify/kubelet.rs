//! kubelet journals: cgroup driver mismatch, outdated mirror pods (two kubelets, one Node),
//! client certificate expired while the server is unreachable, x509 validity windows.

use super::{Hit, SignalKind, details, quoted_after};

pub(crate) fn classify_line(l: &str) -> Vec<Hit> {
    let mut out = Vec::new();
    if l.contains("cgroup driver") && l.contains("is different from") {
        let kubelet = quoted_after(l, "kubelet cgroup driver:").unwrap_or_default();
        let rest = &l[l.find("is different from").unwrap_or(0)..];
        let runtime_name = rest.split_whitespace().nth(3).unwrap_or("").to_owned();
        let runtime = quoted_after(rest, "cgroup driver:").unwrap_or_default();
        out.push((
            SignalKind::CgroupDriverMismatch,
            details(&[
                ("kubelet_driver", kubelet),
                ("runtime", runtime_name),
                ("runtime_driver", runtime),
            ]),
        ));
    }
    if l.contains("Deleting mirror pod") && l.contains("because it is outdated") {
        let pod = quoted_after(l, "Deleting mirror pod").unwrap_or_default();
        out.push((
            SignalKind::MirrorPodOutdated,
            details(&[("mirror_pod", pod)]),
        ));
    }
    if l.contains("currently active client certificate has expired") {
        let unresponsive = l.contains("server is not responsive").to_string();
        out.push((
            SignalKind::KubeletCertExpired,
            details(&[("server_unresponsive", unresponsive)]),
        ));
    }
    if l.contains("x509: certificate has expired or is not yet valid") {
        // `current time A is before B` (not yet valid) / `is after B` (expired)
        let mut d = vec![];
        if let Some(p) = l.find("current time ") {
            let rest = &l[p + 13..];
            let mut w = rest.split_whitespace();
            let now = w.next().unwrap_or("").to_owned();
            let rel = w.nth(1).unwrap_or("").to_owned();
            let bound = w
                .next()
                .unwrap_or("")
                .trim_end_matches(['"', ')', ']'])
                .to_owned();
            d.push(("current_time", now));
            d.push(("relation", rel));
            d.push(("bound", bound));
        }
        out.push((SignalKind::TlsExpired, details(&d)));
    }
    out
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
    fn not_yet_valid_times() {
        let s = classify(
            "c",
            "Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2021-04-01T14:43:32+02:00 is before 2021-04-01T15:31:09Z",
        );
        assert_eq!(s[0].kind, K::TlsExpired);
        assert_eq!(s[0].detail("relation"), "before");
        assert_eq!(s[0].detail("bound"), "2021-04-01T15:31:09Z");
    }
}
