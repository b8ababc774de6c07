//! `node-clock-skew`: certificate validity texts whose times disagree with the local clock, or a
//! node heartbeat far ahead of the others.

use crate::classify::SignalKind;
use crate::rules::{obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    NodeClockSkew,
    "node-clock-skew",
    Node,
    Warning,
    "A certificate is 'not yet valid' at the client's current time (its clock is behind the issuer's), a kubelet reports its client certificate expired while the server is unreachable (the node clock may have jumped forward), or a node's Ready heartbeat lies further ahead of the other nodes' median than the threshold (clockSkewSecs). Check clocks (chrony/NTP) before rotating certificates.",
    check
);

/// A validity-window error without times (`x509: certificate has expired or is not yet valid`)
/// in a text that shows a tool bringing a cluster up with certificates it has just issued
/// (RKE), or whose prose says the clocks disagree: the clock, not the certificate (kubeadm's
/// join is weighed separately).
pub(crate) fn provisioning_window(s: &crate::classify::Signal) -> bool {
    s.kind == SignalKind::TlsExpired
        && s.detail("relation").is_empty()
        && (!s.detail("provisioner").is_empty() || s.detail("clock_prose") == "true")
}

/// The inputs whose connection failures follow from a clock skew this rule concludes from a
/// provisioning run (see [`provisioning_window`]).
pub(crate) fn skewed_sources<'c>(ctx: &'c Context<'_>) -> std::collections::BTreeSet<&'c str> {
    signals(ctx, &[SignalKind::TlsExpired])
        .filter(|s| provisioning_window(s) && s.detail("kubeadm") != "true")
        .map(|s| s.source.as_str())
        .collect()
}

/// What a clock-skewed TLS failure blocks, when the text it is read from shows a node
/// registering or joining: the kubelet's registration (kubernetes
/// `pkg/kubelet/kubelet_node_status.go` `Attempting to register node`, `Unable to register node
/// with API server`), its TLS bootstrap (`pkg/kubelet/certificate/bootstrap`), `kubeadm join`
/// (its `[preflight]`, `[discovery]`, `[kubelet-start]` phases), a k3s / rke2 agent joining.
fn blocks_registration(ctx: &Context<'_>, s: &crate::classify::Signal) -> Option<&'static str> {
    if s.detail("kubeadm") == "true" {
        return Some("the node's kubeadm join");
    }
    let text = ctx
        .logs()
        .iter()
        .find(|l| l.source == s.source)
        .map_or(s.text.as_str(), |l| l.text.as_str());
    const REGISTRATION: &[(&str, &str)] = &[
        ("Unable to register node", "the kubelet's node registration"),
        (
            "Attempting to register node",
            "the kubelet's node registration",
        ),
        ("Error getting node", "the kubelet's node registration"),
        (
            "bootstrap",
            "the kubelet's TLS bootstrap (its node registration)",
        ),
        ("kubeadm join", "the node's kubeadm join"),
        ("[kubelet-start]", "the node's kubeadm join"),
        ("[discovery]", "the node's kubeadm join"),
        ("k3s agent", "the agent's join"),
        ("rke2 agent", "the agent's join"),
        (
            "Waiting to retrieve agent configuration",
            "the agent's join",
        ),
        ("failed to get CA certs", "the agent's join"),
        // k3s-io/k3s pkg/clientaccess/token.go (getCACerts): a k3s/rke2 server or agent reads
        // the cluster CA from the supervisor's /cacerts and checks it before it starts
        (
            "CA cert validation failed",
            "the k3s/rke2 node's start (it validates the cluster CA at the supervisor's /cacerts before it joins)",
        ),
    ];
    let head: String = text.chars().take(1 << 20).collect();
    REGISTRATION
        .iter()
        .find(|(needle, _)| head.contains(needle))
        .map(|(_, what)| *what)
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    // one finding per node and certificate start: a client that retries every few seconds
    // prints the same refusal with a new time (`(N lines)`, the first line's skew)
    let mut seen: Vec<(crate::Subject, String, usize, usize)> = Vec::new();
    for s in signals(ctx, &[SignalKind::TlsExpired]) {
        if s.detail("relation") != "before" {
            continue;
        }
        let subject = signal_subject(s);
        if let Some(entry) = seen
            .iter_mut()
            .find(|(sub, bound, _, _)| *sub == subject && bound == s.detail("bound"))
        {
            entry.3 += 1;
            let f = &mut out[entry.2];
            if f.evidence.len() < 3 {
                f.evidence.push(s.evidence());
            }
            continue;
        }
        seen.push((subject, s.detail("bound").to_owned(), out.len(), 1));
        let (now, bound) = (s.detail("current_time"), s.detail("bound"));
        let skew = match (
            now.parse::<jiff::Timestamp>(),
            bound.parse::<jiff::Timestamp>(),
        ) {
            (Ok(a), Ok(b)) => format!(" (about {} s behind)", b.as_second() - a.as_second()),
            _ => String::new(),
        };
        // a node that cannot register or join because of it is a node the cluster does not
        // get: an error, not a warning (fresh-user H19)
        let blocked = blocks_registration(ctx, s);
        let (severity, consequence) = match blocked {
            Some(what) => (
                Severity::Error,
                format!(
                    "; it blocks {what} (every TLS connection to the API server fails the same way until the clock is right)"
                ),
            ),
            None => (Severity::Warning, String::new()),
        };
        out.push(
            Finding::new(NodeClockSkew::ID, severity, signal_subject(s), format!("certificate not yet valid: the client clock reads {now}, before the certificate's start {bound}{skew}{consequence}"))
                .with_evidence(s.evidence())
                .with_remedy("synchronise the clock of the client/node with NTP (`timedatectl set-ntp true; chronyc makestep`) and retry; do not re-issue certificates for this"),
        );
    }
    for (_, _, at, count) in &seen {
        if *count > 1 {
            out[*at].message.push_str(&format!(" ({count} lines)"));
        }
    }
    // `expired or not yet valid` without the times (Go before 1.11, or cut) while a node joins
    // with kubeadm: the control plane's certificates were issued by kubeadm init (valid a year
    // from then; the join token itself lives 24 h), so a joining node that finds them outside
    // their window most likely has its own clock off (kairen/kubeadm-ansible#4). One finding per
    // input.
    let mut sources = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::TlsExpired]) {
        if !s.detail("relation").is_empty()
            || s.detail("kubeadm") == "true"
            || !provisioning_window(s)
            || !sources.insert(s.source.as_str())
        {
            continue;
        }
        // the consequences in the same text: the control plane that cannot reach etcd, the
        // health check that gets EOF (rules::cluster_unreachable leaves them to this finding)
        let consequences: Vec<Evidence> = signals(
            ctx,
            &[
                SignalKind::Timeout,
                SignalKind::ConnectionClosed,
                SignalKind::Refused,
            ],
        )
        .filter(|c| c.source == s.source)
        .take(3)
        .map(|c| c.evidence())
        .collect();
        let (tool, rerun) = match s.detail("provisioner") {
            "rke" => (
                "RKE (`rke up`) has just issued the cluster's certificates",
                "then run `rke up` again; do not rotate certificates for this (`rke cert rotate` would issue them under the same skew)",
            ),
            _ => (
                "the certificates are fresh and the input says the clocks disagree",
                "then restart the failing component; do not renew or re-issue certificates for this",
            ),
        };
        let who = if s.detail("verifier") == "server" {
            "the verifying server (here etcd checking its peer's client certificate)"
        } else {
            "the verifying side"
        };
        out.push(
            Finding::new(NodeClockSkew::ID, Severity::Warning, signal_subject(s), format!("{tool}, and they are rejected as `expired or not yet valid`: freshly issued certificates fail like this only when {who} has a clock behind the issuing machine's (NotBefore in its future) or far ahead: the nodes' clocks disagree{}", if consequences.is_empty() { "" } else { "; the connection failures in the same text (API server health check EOF, etcd deadline exceeded) follow from it" }))
                .with_evidence(s.evidence())
                .with_evidences(consequences)
                .with_remedy(format!("compare `date -u` on every node; enable time sync on all of them (`timedatectl set-ntp true` and `chronyc makestep`, or ntpd), {rerun}")),
        );
    }
    // a kubeadm join that finds the control plane's certificate outside its window, with no
    // times: only when the text shows the certificates are fresh (a provisioning run that
    // creates the control plane, kairen/kubeadm-ansible#4) or speaks of the clocks is the clock
    // the likely cause; a plain join log shows neither, and an expired certificate (kubeadm's
    // last a year) is as likely: cluster-tls-untrusted names both then (fresh-user report F32)
    let mut sources = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::TlsExpired]) {
        if !s.detail("relation").is_empty()
            || s.detail("kubeadm") != "true"
            || !(provisioning_window(s) || s.detail("playbook") == "true")
            || !sources.insert(s.source.as_str())
        {
            continue;
        }
        out.push(
            Finding::new(NodeClockSkew::ID, Severity::Warning, signal_subject(s), "a node joining with kubeadm from a provisioning run finds the control plane's certificate `expired or not yet valid`: the run usually created the control plane and its certificates (valid for a year from kubeadm init) minutes earlier, so the joining node's clock is the likely cause (behind the control plane's, or far ahead); if the control plane is older than a year, its certificates may have expired instead (`kubeadm certs check-expiration`)")
                .with_evidence(s.evidence())
                .with_remedy("compare `date -u` on this node and on a control-plane node; enable time sync on the node (`timedatectl set-ntp true; chronyc makestep`), then run `kubeadm reset -f` and the join again; renew certificates only if `kubeadm certs check-expiration` shows them expired while the clocks agree"),
        );
    }
    for s in signals(ctx, &[SignalKind::KubeletCertExpired]).take(1) {
        out.push(
            Finding::new(NodeClockSkew::ID, Severity::Warning, signal_subject(s), "the kubelet's client certificate is expired from the node's point of view and rotation cannot reach the API server: check the node clock against the control plane first, then the certificate's NotAfter")
                .with_evidence(s.evidence())
                .with_remedy("compare `date -u` on the node and a control-plane node; fix NTP; then `openssl x509 -enddate -noout -in /var/lib/kubelet/pki/kubelet-client-current.pem`; if truly expired, re-bootstrap the kubelet (new bootstrap token) and restart it"),
        );
    }
    // heartbeat skew: nodes whose Ready heartbeat is far ahead of the median
    let mut beats: Vec<(i64, &str)> = ctx
        .snapshot()
        .nodes
        .iter()
        .filter_map(|n| {
            let c = n.status.conditions.iter().find(|c| c.type_ == "Ready")?;
            Some((c.last_heartbeat_time?.as_second(), n.metadata.name.as_str()))
        })
        .collect();
    if beats.len() >= 3 {
        beats.sort_unstable();
        let median = beats[beats.len() / 2].0;
        for (t, name) in &beats {
            let ahead = t - median;
            if ahead > ctx.thresholds().clock_skew_secs {
                out.push(
                    Finding::new(NodeClockSkew::ID, Severity::Warning, Subject::cluster_scoped("Node", name), format!("node {name}'s Ready heartbeat is {ahead} s ahead of the other nodes' median: its clock is likely fast"))
                        .with_evidence(Evidence::field(obj("Node", "", name), "status.conditions[Ready].lastHeartbeatTime", jiff::Timestamp::from_second(*t).map(|t| t.to_string()).unwrap_or_default()))
                        .with_remedy(format!("enable NTP on {name} (`timedatectl set-ntp true`)")),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::{run_log, run_rule};

    /// RKE bringing a cluster up with certificates it just issued, etcd rejecting them as
    /// `expired or not yet valid`: one clock-skew finding (RKE's remedy, not kubeadm's); the
    /// TLS finding points to it and the API server's EOF and etcd deadline are its evidence.
    #[test]
    fn rke_up_fresh_certificates_rejected_is_the_clock() {
        let text = "FATA[0305] [controlPlane] Failed to bring up Control Plane: Failed to verify healthcheck: Failed to check https://localhost:6443/healthz for service [kube-apiserver] on host [10.0.0.2]: Get https://localhost:6443/healthz: EOF\nF0207 11:17:33.848659       1 storage_decorator.go:57] Unable to create storage backend: config (&{etcd3 /registry [https://10.0.0.3:2379]}), err (context deadline exceeded)\n2019-02-07 13:05:55.848860 I | etcdmain: rejected connection from \"10.0.0.3:47912\" (error \"tls: failed to verify client's certificate: x509: certificate has expired or is not yet valid\", ServerName \"\")\n";
        let f = run_log("node-clock-skew", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("RKE")
                && f[0].remedy.contains("rke up")
                && !f[0].remedy.contains("kubeadm"),
            "{f:#?}"
        );
        let tls = run_log("cluster-tls-untrusted", text);
        assert!(
            tls.iter().all(|t| t.message.contains("node-clock-skew")
                && !t.remedy.contains("kubeadm certs renew")),
            "{tls:#?}"
        );
        assert!(
            run_log("cluster-unreachable", text).is_empty(),
            "{:#?}",
            run_log("cluster-unreachable", text)
        );
        // prose that says the clocks disagree, without a provisioning tool
        let p = run_log(
            "node-clock-skew",
            "the nodes' date/time is not in sync\netcdmain: rejected connection from \"10.0.0.3:47912\" (error \"tls: failed to verify client's certificate: x509: certificate has expired or is not yet valid\", ServerName \"\")",
        );
        assert_eq!(p.len(), 1, "{p:#?}");
        // a year-old etcd certificate without either is not called a clock problem
        assert!(run_log("node-clock-skew", "etcdmain: rejected connection from \"10.0.0.3:47912\" (error \"tls: failed to verify client's certificate: x509: certificate has expired or is not yet valid\", ServerName \"\")\nmountpoint /var/lib/etcd").is_empty());
    }

    #[test]
    fn not_yet_valid_with_times() {
        let f = run_log(
            "node-clock-skew",
            "Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2021-04-01T14:43:32+02:00 is before 2021-04-01T15:31:09Z",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("behind"));
    }

    #[test]
    fn plain_expiry_and_synced_heartbeats_are_not_skew() {
        assert!(run_log("node-clock-skew", "failed to check server version: Get https://10.0.0.70:6443/version: x509: certificate has expired or is not yet valid").is_empty());
        // the same line while a node joins with kubeadm, nothing about the clocks or a fresh
        // control plane in the text: both causes remain (fresh-user report F32 changed this
        // from "the joining node's clock"): no clock claim, cluster-tls-untrusted names both
        let join = "$ kubeadm join --token abcdef.0123456789abcdef 10.0.0.70:6443\nfailed to check server version: Get https://10.0.0.70:6443/version: x509: certificate has expired or is not yet valid\n";
        assert!(run_log("node-clock-skew", join).is_empty());
        let tls = run_log("cluster-tls-untrusted", join);
        assert_eq!(tls.len(), 1, "{tls:#?}");
        assert_eq!(tls[0].severity, crate::Severity::Error);
        assert!(
            tls[0].message.contains("two causes remain")
                && tls[0].remedy.contains("date -u")
                && tls[0].remedy.contains("kubeadm certs check-expiration"),
            "{tls:#?}"
        );
        // from a provisioning playbook (kairen/kubeadm-ansible#4): fresh certificates, the
        // clock is the likely cause
        let playbook = format!("TASK [kubernetes/node : Join to kubernetes cluster] ***\n{join}");
        let f = run_log("node-clock-skew", &playbook);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].remedy.contains("set-ntp"));
        let s = r#"{"kind":"List","items":[
         {"kind":"Node","metadata":{"name":"a"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-01T00:00:00Z"}]}},
         {"kind":"Node","metadata":{"name":"b"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-01T00:00:10Z"}]}},
         {"kind":"Node","metadata":{"name":"c"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-01T00:00:05Z"}]}}]}"#;
        assert!(run_rule("node-clock-skew", s).is_empty());
        let skewed = s.replace("2026-01-01T00:00:10Z", "2026-01-01T01:00:10Z");
        assert_eq!(run_rule("node-clock-skew", &skewed).len(), 1);
    }
}
