//! Certificates whose lifetime is over, read where people paste it: `kubeadm certs
//! check-expiration` (`kubeadm alpha certs check-expiration` v1.15-v1.19) tables, whose failure
//! signal is a cell (`<invalid>` in RESIDUAL TIME: apimachinery
//! `pkg/util/duration/duration.go` ShortHumanDuration prints it for a negative duration) or an
//! EXPIRES date before the other times of the paste; `openssl x509 -enddate` / `-dates` /
//! `-text` (`notAfter=`, `Not After :`) and `-checkend` (`Certificate will expire`); and the
//! kubelet certificate manager's rotation failures (catalog entries `kubelet.cert-*`, client-go
//! `util/certificate/certificate_manager.go`).
//!
//! kubeadm's table (cmd/kubeadm/app/cmd/certs.go, `newCmdCertsExpiration`; tabwriter columns
//! `CERTIFICATE EXPIRES RESIDUAL TIME CERTIFICATE AUTHORITY EXTERNALLY MANAGED`, without the
//! CERTIFICATE AUTHORITY column before v1.17, EXPIRES formatted `Jan 02, 2006 15:04 MST`, a
//! missing file printed as `!MISSING! <name>`), then the CA table `CERTIFICATE AUTHORITY EXPIRES
//! RESIDUAL TIME EXTERNALLY MANAGED`.

use crate::rules::log_catalog::catalog_findings;
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    CertificateExpired,
    "certificate-expired",
    Node,
    Error,
    "A certificate's lifetime is over or nearly over: a `kubeadm certs check-expiration` row whose RESIDUAL TIME is `<invalid>` (expired) or whose EXPIRES date is before the other times of the paste, an `openssl x509` notAfter before them, or the kubelet's certificate manager failing to rotate its certificate (`still unable to rotate certs`, `certificate request was not signed`, `Current certificate is expired`). Expired control-plane certificates stop the API server from accepting its clients (kubectl: `x509: certificate has expired`, kubelets NotReady); remedy `kubeadm certs renew all` and a restart of the static pods. Rows with 30 days or less left are a warning; a healthy table is quiet.",
    check
);

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Lines and rows examined per text (bounded work on hostile input).
const MAX_LINES: usize = 200_000;

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = catalog_findings(ctx, CertificateExpired::ID);
    for f in &mut out {
        let serving = f
            .evidence
            .iter()
            .any(|e| matches!(e, Evidence::Log { text, .. } if text.contains("kubelet-serving")));
        if serving {
            f.message.push_str(" (the kubelet's serving certificate, signer kubernetes.io/kubelet-serving: `kubectl logs`, `exec` and metrics scraping of this node fail once it expires; nothing approves these requests by default)");
        }
    }
    for log in ctx.logs() {
        if log.text.contains("RESIDUAL TIME")
            || log.text.contains("notAfter=")
            || log.text.contains("Not After")
            || log.text.contains("Certificate will expire")
        {
            out.extend(read_text(&log.source, &log.text));
        }
    }
    out
}

/// One certificate row read from a paste.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CertRow {
    /// 1-based line.
    pub line: usize,
    /// Certificate name (`apiserver`, `admin.conf`, a file path, a CN).
    pub name: String,
    /// The expiry as printed.
    pub expires: String,
    /// Minutes since the Unix epoch (UTC) of the expiry, when it parses.
    pub expires_at: Option<i64>,
    /// RESIDUAL TIME as printed (`<invalid>`, `364d`, `8y`), empty when not shown.
    pub residual: String,
    /// A certificate authority (kubeadm's second table).
    pub ca: bool,
    /// The line.
    pub text: String,
}

/// The findings of one text: one error per table (or openssl block set) listing the expired
/// certificates, one warning listing those with 30 days or less left.
pub(crate) fn read_text(source: &str, text: &str) -> Vec<Finding> {
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    let (rows, checkend) = rows(&lines);
    let now = reference_time(&lines);
    let mut expired: Vec<&CertRow> = Vec::new();
    let mut soon: Vec<(&CertRow, String)> = Vec::new();
    let mut missing: Vec<&CertRow> = Vec::new();
    for r in &rows {
        if r.residual == "!MISSING!" {
            missing.push(r);
        } else if r.residual == "<invalid>"
            || matches!((r.expires_at, now), (Some(at), Some(now)) if at < now)
        {
            expired.push(r);
        } else if let Some(left) = short_residual(&r.residual) {
            soon.push((r, left));
        }
    }
    let mut out = Vec::new();
    let subject = Subject::log(source);
    if !expired.is_empty() {
        let (cas, certs): (Vec<&CertRow>, Vec<&CertRow>) = expired.iter().partition(|r| r.ca);
        let names = |v: &[&CertRow]| {
            v.iter()
                .map(|r| format!("{} (expired {})", r.name, r.expires))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut msg = String::new();
        if !certs.is_empty() {
            msg.push_str(&format!(
                "{} certificate(s) expired: {}",
                certs.len(),
                names(&certs)
            ));
        }
        if !cas.is_empty() {
            if !msg.is_empty() {
                msg.push_str("; ");
            }
            msg.push_str(&format!(
                "{} certificate authorit(y/ies) expired: {}",
                cas.len(),
                names(&cas)
            ));
        }
        msg.push_str(match now {
            Some(_) if expired.iter().all(|r| r.residual != "<invalid>") => {
                " (expiry before the current time shown elsewhere in the paste)"
            }
            _ => "",
        });
        msg.push_str(": a component presenting an expired certificate is refused by its peers (kubectl and kubelets get `x509: certificate has expired or is not yet valid`, the API server cannot reach etcd or the kubelets)");
        let remedy = if cas.is_empty() {
            crate::catalog::CERTS_RENEW_REMEDY.to_owned()
        } else {
            "an expired certificate authority cannot be renewed in place by `kubeadm certs renew`: issue a new CA and re-sign every certificate signed by it (kubeadm's manual CA rotation procedure, https://kubernetes.io/docs/tasks/tls/manual-rotation-of-ca-certificates/), then restart the control-plane static pods and the kubelets and hand out new kubeconfigs; `kubeadm certs check-expiration` confirms".to_owned()
        };
        out.push(
            Finding::new(
                CertificateExpired::ID,
                Severity::Error,
                subject.clone(),
                msg,
            )
            .with_evidences(
                expired
                    .iter()
                    .take(3)
                    .map(|r| Evidence::log(source.to_owned(), r.line, &r.text)),
            )
            .with_remedy(remedy),
        );
    }
    if !soon.is_empty() {
        let list = soon
            .iter()
            .map(|(r, left)| format!("{} ({left} left, until {})", r.name, r.expires))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(
            Finding::new(
                CertificateExpired::ID,
                Severity::Warning,
                subject.clone(),
                format!(
                    "{} certificate(s) expire within 30 days: {list}",
                    soon.len()
                ),
            )
            .with_evidences(
                soon.iter()
                    .take(3)
                    .map(|(r, _)| Evidence::log(source.to_owned(), r.line, &r.text)),
            )
            .with_remedy(crate::catalog::CERTS_RENEW_REMEDY),
        );
    }
    if !missing.is_empty() {
        out.push(
            Finding::new(
                CertificateExpired::ID,
                Severity::Warning,
                subject.clone(),
                format!(
                    "kubeadm cannot find {} certificate(s) it manages: {} (`!MISSING!`): the component using it cannot start unless the file is provided by an external CA",
                    missing.len(),
                    missing.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
            .with_evidences(missing.iter().take(3).map(|r| Evidence::log(source.to_owned(), r.line, &r.text)))
            .with_remedy("regenerate the missing files with `kubeadm init phase certs <name>` (certificates) or `kubeadm init phase kubeconfig <name>` (kubeconfigs) on the control-plane node, or provide them from the external CA"),
        );
    }
    for (line, text, zero) in checkend {
        out.push(
            Finding::new(
                CertificateExpired::ID,
                if zero { Severity::Error } else { Severity::Warning },
                subject.clone(),
                if zero {
                    "openssl x509 -checkend 0 says `Certificate will expire`: the certificate has expired".to_owned()
                } else {
                    "openssl x509 -checkend says `Certificate will expire` within the window asked for".to_owned()
                },
            )
            .with_evidence(Evidence::log(source.to_owned(), line, &text))
            .with_remedy(crate::catalog::CERTS_RENEW_REMEDY),
        );
    }
    out
}

/// Left time of a RESIDUAL TIME of 30 days or less (`12d`, `23h`, `5m`), as printed.
fn short_residual(r: &str) -> Option<String> {
    let (n, unit) = r.split_at(r.find(|c: char| !c.is_ascii_digit())?);
    let n: u64 = n.parse().ok()?;
    match unit {
        "s" | "m" | "h" => Some(r.to_owned()),
        "d" if n <= 30 => Some(r.to_owned()),
        _ => None,
    }
}

/// Certificate rows of kubeadm tables and openssl output, and the `-checkend` verdicts (line,
/// text, whether the window was 0).
pub(crate) fn rows(lines: &[&str]) -> (Vec<CertRow>, Vec<(usize, String, bool)>) {
    let mut out = Vec::new();
    let mut checkend = Vec::new();
    let mut table: Option<bool> = None; // Some(ca) inside a table
    let mut last_name = String::new();
    let mut last_checkend_zero = false;
    for (i, raw) in lines.iter().enumerate() {
        let l = raw.trim();
        if l.contains("EXPIRES") && l.contains("RESIDUAL TIME") {
            table = Some(l.starts_with("CERTIFICATE AUTHORITY"));
            continue;
        }
        if let Some(ca) = table {
            if l.is_empty() {
                table = None;
                continue;
            }
            if let Some(row) = table_row(l, ca, i + 1) {
                out.push(row);
                continue;
            }
            table = None;
        }
        // openssl: the certificate a block is about (`-in <file>`, `subject=`, `Subject:`)
        if l.contains("openssl") {
            if let Some(p) = l.split_whitespace().skip_while(|w| *w != "-in").nth(1) {
                last_name = p.to_owned();
            }
            last_checkend_zero = l
                .split_whitespace()
                .skip_while(|w| *w != "-checkend")
                .nth(1)
                .is_some_and(|w| w == "0");
        } else if let Some(s) = l
            .strip_prefix("subject=")
            .or_else(|| l.strip_prefix("Subject:"))
        {
            last_name = s.trim().to_owned();
        }
        let end = l
            .split_once("notAfter=")
            .map(|(_, d)| d)
            .or_else(|| l.split_once("Not After :").map(|(_, d)| d))
            .or_else(|| l.split_once("Not After:").map(|(_, d)| d));
        if let Some(d) = end {
            out.push(CertRow {
                line: i + 1,
                name: if last_name.is_empty() {
                    "certificate".to_owned()
                } else {
                    crate::finding::redact(&last_name)
                },
                expires: d.trim().to_owned(),
                expires_at: parse_time(d.trim()),
                residual: String::new(),
                ca: false,
                text: crate::finding::redact(l),
            });
        } else if l == "Certificate will expire" {
            checkend.push((i + 1, l.to_owned(), last_checkend_zero));
        }
    }
    (out, checkend)
}

/// One row of kubeadm's table: `<name> <Mon> <DD>, <YYYY> <HH:MM> <TZ> <residual> ...` or
/// `!MISSING! <name>`.
fn table_row(l: &str, ca: bool, line: usize) -> Option<CertRow> {
    let w: Vec<&str> = l.split_whitespace().take(16).collect();
    if w.first() == Some(&"!MISSING!") {
        return Some(CertRow {
            line,
            name: w.get(1)?.to_string(),
            expires: String::new(),
            expires_at: None,
            residual: "!MISSING!".to_owned(),
            ca,
            text: l.to_owned(),
        });
    }
    let j = (1..w.len()).find(|&j| {
        MONTHS.contains(&w[j])
            && w.get(j + 1).is_some_and(|d| d.ends_with(','))
            && w.get(j + 2).is_some_and(|y| y.len() == 4)
    })?;
    let expires = w.get(j..j + 5)?.join(" ");
    Some(CertRow {
        line,
        name: w[..j].join(" "),
        expires_at: parse_time(&expires),
        expires,
        residual: w.get(j + 5).map_or(String::new(), |s| s.to_string()),
        ca,
        text: l.to_owned(),
    })
}

/// The latest time the paste shows outside certificate dates (`date` output, ISO-8601
/// timestamps with a year, Go's `current time <t>` of an x509 error), in minutes since the
/// epoch: "now" when the paste was made. None when the paste shows no such time.
pub(crate) fn reference_time(lines: &[&str]) -> Option<i64> {
    let mut best: Option<i64> = None;
    for l in lines {
        if l.contains("notAfter")
            || l.contains("notBefore")
            || l.contains("Not After")
            || l.contains("Not Before")
            || l.contains("RESIDUAL TIME")
            || MONTHS
                .iter()
                .any(|m| l.contains(&format!("{m} ")) && l.contains(", 20"))
        {
            continue;
        }
        let t = if l.contains("current time ") {
            l.split_once("current time ")
                .and_then(|(_, r)| r.split_whitespace().next())
                .and_then(parse_time)
        } else {
            parse_time(l.trim()).or_else(|| l.split_whitespace().find_map(parse_iso))
        };
        if let Some(t) = t {
            best = Some(best.map_or(t, |b| b.max(t)));
        }
    }
    best
}

/// Days from 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn hm(s: &str) -> Option<(i64, i64)> {
    let mut p = s.split(':');
    let h = p.next()?.parse().ok()?;
    let m = p.next()?.parse().ok()?;
    (h < 24 && m < 60).then_some((h, m))
}

fn minutes(y: i64, mon: i64, d: i64, h: i64, m: i64) -> Option<i64> {
    ((1..=12).contains(&mon) && (1..=31).contains(&d) && (1970..=9999).contains(&y))
        .then(|| (days_from_civil(y, mon, d) * 24 + h) * 60 + m)
}

fn month(s: &str) -> Option<i64> {
    MONTHS.iter().position(|m| *m == s).map(|i| i as i64 + 1)
}

/// A time in one of the shapes pastes hold, in minutes since the epoch (UTC; other zones are
/// read as UTC, a few hours never decide an expiry of months): kubeadm `Mar 01, 2024 11:02 UTC`,
/// openssl `Mar  1 11:02:00 2024 GMT`, `date` `Thu Dec  3 07:27:25 UTC 2026`, ISO-8601.
pub(crate) fn parse_time(s: &str) -> Option<i64> {
    let w: Vec<&str> = s.split_whitespace().take(8).collect();
    match w.as_slice() {
        [mon, d, y, t, ..] if d.ends_with(',') => {
            let (h, m) = hm(t)?;
            minutes(
                y.parse().ok()?,
                month(mon)?,
                d.trim_end_matches(',').parse().ok()?,
                h,
                m,
            )
        }
        [mon, d, t, y, ..] if month(mon).is_some() && t.contains(':') => {
            let (h, m) = hm(t)?;
            minutes(y.parse().ok()?, month(mon)?, d.parse().ok()?, h, m)
        }
        [_dow, mon, d, t, _tz, y] if month(mon).is_some() && t.contains(':') => {
            let (h, m) = hm(t)?;
            minutes(y.parse().ok()?, month(mon)?, d.parse().ok()?, h, m)
        }
        [one] => parse_iso(one),
        _ => None,
    }
}

/// `2024-03-14T10:00:00Z` (or with a space-free offset, fractional seconds) in minutes.
fn parse_iso(s: &str) -> Option<i64> {
    let s = s.trim_matches(|c: char| c == '"' || c == ',' || c == '[' || c == ']');
    let (date, time) = s.split_once('T')?;
    let mut d = date.split('-');
    let y = d.next()?.parse().ok()?;
    let mon = d.next()?.parse().ok()?;
    let day = d.next()?.parse().ok()?;
    let (h, m) = hm(time.get(..5)?)?;
    minutes(y, mon, day, h, m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_log;

    const EXPIRED: &str = "[check-expiration] Reading configuration from the cluster...\n\nCERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED\nadmin.conf                 Mar 01, 2024 11:02 UTC   <invalid>       ca                      no\napiserver                  Mar 01, 2024 11:02 UTC   <invalid>       ca                      no\n\nCERTIFICATE AUTHORITY   EXPIRES                  RESIDUAL TIME   EXTERNALLY MANAGED\nca                      Feb 26, 2033 11:02 UTC   8y              no\n";

    #[test]
    fn invalid_residual_is_an_error_naming_the_certificates() {
        let f = run_log(CertificateExpired::ID, EXPIRED);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message
                .contains("apiserver (expired Mar 01, 2024 11:02 UTC)"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("kubeadm certs renew all"));
    }

    #[test]
    fn pre_117_and_alpha_wordings() {
        let text = "kubeadm alpha certs check-expiration\nCERTIFICATE                EXPIRES                  RESIDUAL TIME   EXTERNALLY MANAGED\nadmin.conf                 May 15, 2020 13:03 UTC   <invalid>       no\napiserver                  May 15, 2020 13:00 UTC   <invalid>       no\n";
        let f = run_log(CertificateExpired::ID, text);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Error);
    }

    #[test]
    fn healthy_table_is_quiet_and_near_expiry_warns() {
        let healthy = "CERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED\nadmin.conf                 Aug 19, 2026 09:03 UTC   360d            ca                      no\n\nCERTIFICATE AUTHORITY   EXPIRES                  RESIDUAL TIME   EXTERNALLY MANAGED\nca                      Aug 17, 2035 09:03 UTC   9y              no\n";
        assert!(run_log(CertificateExpired::ID, healthy).is_empty());
        let soon = healthy.replace("360d", "12d");
        let f = run_log(CertificateExpired::ID, &soon);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].message.contains("12d left"));
    }

    #[test]
    fn expires_before_the_paste_time_without_residual() {
        // the residual column lost in a copy: the date output decides
        let text = "$ date\nThu Mar 14 10:00:00 UTC 2024\n$ sudo openssl x509 -enddate -noout -in /etc/kubernetes/pki/apiserver.crt\nnotAfter=Mar  1 11:02:00 2024 GMT\n";
        let f = run_log(CertificateExpired::ID, text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message.contains("/etc/kubernetes/pki/apiserver.crt"),
            "{}",
            f[0].message
        );
        // the same date, a paste made before it: quiet
        let before = text.replace(
            "Thu Mar 14 10:00:00 UTC 2024",
            "Thu Feb 01 10:00:00 UTC 2024",
        );
        assert!(run_log(CertificateExpired::ID, &before).is_empty());
        // no time to compare with: not judged
        assert!(
            run_log(
                CertificateExpired::ID,
                "notAfter=Mar  1 11:02:00 2024 GMT\n"
            )
            .is_empty()
        );
    }

    #[test]
    fn openssl_text_and_checkend() {
        let text = "2024-03-14T10:00:00Z start\n        Validity\n            Not Before: Mar  1 11:02:00 2023 GMT\n            Not After : Mar  1 11:02:00 2024 GMT\n        Subject: CN = kube-apiserver\n";
        let f = run_log(CertificateExpired::ID, text);
        assert_eq!(f.len(), 1, "{f:?}");
        let f = run_log(
            CertificateExpired::ID,
            "$ openssl x509 -checkend 0 -noout -in /var/lib/kubelet/pki/kubelet-client-current.pem\nCertificate will expire\n",
        );
        assert_eq!(f[0].severity, Severity::Error);
    }

    #[test]
    fn kubelet_rotation_failures_in_every_version() {
        for (l, sev) in [
            (
                "E0323 12:22:21.802782    6055 certificate_manager.go:354] kubernetes.io/kubelet-serving: Reached backoff limit, still unable to rotate certs: timed out waiting for the condition",
                Severity::Warning,
            ),
            (
                "E0323 12:07:05.531775    6055 certificate_manager.go:488] kubernetes.io/kubelet-serving: certificate request was not signed: timed out waiting for the condition",
                Severity::Warning,
            ),
            (
                "E0610 10:00:00.000000    1234 certificate_manager.go:385] Failed while requesting a signed certificate from the master: cannot create certificate signing request: Post https://10.0.0.1:6443/apis/certificates.k8s.io/v1beta1/certificatesigningrequests: dial tcp 10.0.0.1:6443: connect: connection refused",
                Severity::Warning,
            ),
            (
                "I0610 10:00:00.000000    1234 certificate_manager.go:270] kubernetes.io/kube-apiserver-client-kubelet: Current certificate is expired",
                Severity::Error,
            ),
        ] {
            let f = run_log(CertificateExpired::ID, l);
            assert_eq!(f.len(), 1, "{l}");
            assert_eq!(f[0].severity, sev, "{l}");
        }
    }

    #[test]
    fn time_shapes() {
        let a = parse_time("Mar 01, 2024 11:02 UTC").unwrap();
        let b = parse_time("Mar  1 11:02:00 2024 GMT").unwrap();
        let c = parse_iso("2024-03-01T11:02:00Z").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(parse_time("Fri Mar  1 11:02:00 UTC 2024"), Some(a));
        assert_eq!(parse_time("garbage"), None);
        assert_eq!(parse_time("Mar 99, 2024 11:02 UTC"), None);
    }
}
