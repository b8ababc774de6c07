//! Human-readable table grouped by severity. Colour (ANSI) only when asked for; callers pass
//! `std::io::IsTerminal::is_terminal(&std::io::stdout())`.

use std::fmt::Write;

use crate::{Report, Severity};

fn paint(s: &str, code: &str, colour: bool) -> String {
    if colour {
        format!("\u{1b}[{code}m{s}\u{1b}[0m")
    } else {
        s.to_owned()
    }
}

/// Renders the report as text: one section per severity (errors first), each finding with its
/// subject, message, evidence lines and remedy, then the summary line.
pub fn to_table(report: &Report, colour: bool) -> String {
    let mut out = String::new();
    for sev in [Severity::Error, Severity::Warning, Severity::Info] {
        let group: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.severity == sev)
            .collect();
        if group.is_empty() {
            continue;
        }
        let (title, code) = match sev {
            Severity::Error => ("ERRORS", "1;31"),
            Severity::Warning => ("WARNINGS", "1;33"),
            Severity::Info => ("INFO", "1;36"),
        };
        let _ = writeln!(out, "{} ({})", paint(title, code, colour), group.len());
        let w_rule = group.iter().map(|f| f.rule_id.len()).max().unwrap_or(0);
        let w_subj = group
            .iter()
            .map(|f| f.subject.display_name().len())
            .max()
            .unwrap_or(0)
            .min(48);
        for f in group {
            let _ = writeln!(
                out,
                "  {:<w_rule$}  {:<w_subj$}  {}",
                f.rule_id,
                f.subject.display_name(),
                f.message,
            );
            for e in &f.evidence {
                let _ = writeln!(
                    out,
                    "  {:<w_rule$}    {} {}",
                    "",
                    paint("evidence:", "2", colour),
                    e
                );
            }
            if !f.remedy.is_empty() {
                let _ = writeln!(
                    out,
                    "  {:<w_rule$}    {} {}",
                    "",
                    paint("remedy:", "32", colour),
                    f.remedy
                );
            }
        }
        out.push('\n');
    }
    let s = &report.summary;
    let _ = writeln!(
        out,
        "{} error(s), {} warning(s), {} info; score {}/100 ({} rules ran)",
        s.errors,
        s.warnings,
        s.infos,
        s.score,
        report.rules.len()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Finding, Subject, Summary};

    #[test]
    fn groups_and_colour() {
        let findings = vec![
            Finding::new(
                "a",
                Severity::Error,
                Subject::cluster_scoped("Node", "n1"),
                "broken",
            )
            .with_remedy("fix it"),
            Finding::new("b", Severity::Info, Subject::cluster(""), "fyi"),
        ];
        let r = Report {
            rules: vec![],
            summary: Summary::of(&findings),
            findings,
        };
        let plain = to_table(&r, false);
        assert!(plain.starts_with("ERRORS (1)"));
        assert!(
            plain.contains("Node/n1")
                && plain.contains("remedy: fix it")
                && plain.contains("INFO (1)")
        );
        assert!(!plain.contains('\u{1b}'));
        assert!(to_table(&r, true).contains("\u{1b}[1;31m"));
    }
}
