//! JUnit XML for CI dashboards (Jenkins, GitLab, Azure DevOps, GitHub test reporters): one
//! `<testsuite>` per rule that ran, one `<testcase>` per rule and subject (classname = rule id,
//! name = subject), so a dashboard tracks each object's state from run to run:
//! - error and warning findings are `<failure>`s (`type` = severity; the body holds message,
//!   evidence, location and remedy); several findings of one rule about one subject make one
//!   test case with all of them;
//! - info findings pass, with the text in `<system-out>`;
//! - suppressed findings are `<skipped>` with the justification (listed, never dropped);
//! - a rule with no finding has one passing test case named `no findings`;
//! - input problems make a suite `inputs`: unusable inputs are `<error>`s.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::{Finding, Report, Severity};

/// Escapes text for XML content and attributes; drops characters XML 1.0 cannot hold; writes C1
/// and bidirectional controls as character references.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' => out.push(c),
            // a raw CR would be normalised away by XML readers and moves a terminal's cursor
            '\r' => out.push_str("&#xd;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            // C1 and bidirectional controls as character references: the same text for an
            // XML reader, nothing a terminal acts on when the file is printed
            c if cube_model::terminal::is_unsafe(c) => {
                let _ = write!(out, "&#x{:x};", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

fn details(f: &Finding) -> String {
    let mut body = f.message.clone();
    if let Some(at) = &f.location {
        let _ = write!(body, "\nlocation: {}:{}", at.source, at.line);
    }
    for e in &f.evidence {
        let _ = write!(body, "\nevidence: {e}");
    }
    if !f.remedy.is_empty() {
        let _ = write!(body, "\nremedy: {}", f.remedy);
    }
    body
}

/// Renders the report as JUnit XML (see the module docs for the mapping).
pub fn to_junit(report: &Report) -> String {
    // rule -> subject -> (findings, suppressed findings with justification)
    type Case<'r> = (Vec<&'r Finding>, Vec<(&'r Finding, &'r str)>);
    let mut by_rule: BTreeMap<&str, BTreeMap<String, Case<'_>>> = BTreeMap::new();
    for r in &report.rules {
        by_rule.entry(r.id.as_str()).or_default();
    }
    for f in &report.findings {
        by_rule
            .entry(f.rule_id.as_str())
            .or_default()
            .entry(f.subject.display_name())
            .or_default()
            .0
            .push(f);
    }
    for s in &report.suppressed {
        by_rule
            .entry(s.finding.rule_id.as_str())
            .or_default()
            .entry(s.finding.subject.display_name())
            .or_default()
            .1
            .push((&s.finding, s.suppression.justification.as_str()));
    }
    let order: Vec<&str> = report
        .rules
        .iter()
        .map(|r| r.id.as_str())
        .chain(
            by_rule
                .keys()
                .copied()
                .filter(|k| !report.rules.iter().any(|r| r.id == *k)),
        )
        .collect();
    let mut suites = String::new();
    let (mut total, mut total_failures, mut total_errors, mut total_skipped) = (0, 0, 0, 0);
    for rule in order {
        let cases = &by_rule[rule];
        let mut body = String::new();
        let (mut tests, mut failures, mut skipped) = (0, 0, 0);
        if cases.is_empty() {
            tests += 1;
            let _ = writeln!(
                body,
                "    <testcase classname=\"{}\" name=\"no findings\"/>",
                esc(rule)
            );
        }
        for (subject, (findings, suppressed)) in cases {
            tests += 1;
            let _ = writeln!(
                body,
                "    <testcase classname=\"{}\" name=\"{}\">",
                esc(rule),
                esc(subject)
            );
            let failing: Vec<&&Finding> = findings
                .iter()
                .filter(|f| f.severity >= Severity::Warning)
                .collect();
            if let Some(worst) = failing.iter().map(|f| f.severity).max() {
                failures += 1;
                let text: Vec<String> = failing.iter().map(|f| details(f)).collect();
                let _ = writeln!(
                    body,
                    "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                    worst,
                    esc(&failing[0].message),
                    esc(&text.join("\n\n"))
                );
            } else if findings.is_empty() && !suppressed.is_empty() {
                skipped += 1;
                let _ = writeln!(
                    body,
                    "      <skipped message=\"suppressed: {}\"/>",
                    esc(suppressed[0].1)
                );
            }
            let infos: Vec<String> = findings
                .iter()
                .filter(|f| f.severity < Severity::Warning)
                .map(|f| format!("{}: {}", f.severity, details(f)))
                .chain(
                    suppressed
                        .iter()
                        .map(|(f, why)| format!("suppressed ({why}): {}", details(f))),
                )
                .collect();
            if !infos.is_empty() {
                let _ = writeln!(
                    body,
                    "      <system-out>{}</system-out>",
                    esc(&infos.join("\n\n"))
                );
            }
            let _ = writeln!(body, "    </testcase>");
        }
        let _ = writeln!(
            suites,
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">",
            esc(rule)
        );
        suites.push_str(&body);
        let _ = writeln!(suites, "  </testsuite>");
        total += tests;
        total_failures += failures;
        total_skipped += skipped;
    }
    if !report.input_problems.is_empty() {
        let mut body = String::new();
        let mut errors = 0;
        for p in &report.input_problems {
            let _ = write!(
                body,
                "    <testcase classname=\"inputs\" name=\"{}\">",
                esc(&p.source)
            );
            if p.fatal {
                errors += 1;
                let _ = write!(
                    body,
                    "<error type=\"unusable input\" message=\"{}\"/>",
                    esc(&p.to_string())
                );
            } else {
                let _ = write!(body, "<system-out>{}</system-out>", esc(&p.to_string()));
            }
            let _ = writeln!(body, "</testcase>");
        }
        let n = report.input_problems.len();
        let _ = writeln!(
            suites,
            "  <testsuite name=\"inputs\" tests=\"{n}\" failures=\"0\" errors=\"{errors}\" skipped=\"0\">"
        );
        suites.push_str(&body);
        let _ = writeln!(suites, "  </testsuite>");
        total += n;
        total_errors += errors;
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cube-diagnose\" tests=\"{total}\" failures=\"{total_failures}\" errors=\"{total_errors}\" skipped=\"{total_skipped}\">\n{suites}</testsuites>\n"
    )
}
