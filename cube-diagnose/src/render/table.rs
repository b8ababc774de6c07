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

/// Writes `head` then the first line of `text`; every further line of `text` (a heredoc
/// manifest in a remedy) is indented by `indent` columns, under the first line.
fn write_indented(out: &mut String, head: &str, indent: usize, text: &str) {
    let mut lines = text.lines();
    let _ = writeln!(out, "{head}{}", lines.next().unwrap_or(""));
    for l in lines {
        if l.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "{:indent$}{l}", "");
        }
    }
}

/// Renders the report as text: one section per severity (errors first), each finding with its
/// subject, message, evidence lines and remedy, then the summary line.
pub fn to_table(report: &Report, colour: bool) -> String {
    let mut out = String::new();
    if !report.input_problems.is_empty() {
        let _ = writeln!(
            out,
            "{} ({})",
            paint("INPUT PROBLEMS", "1;35", colour),
            report.input_problems.len()
        );
        for p in &report.input_problems {
            let tag = if p.fatal { "unusable:" } else { "problem: " };
            let line = p.to_string();
            write_indented(
                &mut out,
                &format!("  {} ", paint(tag, "35", colour)),
                12,
                &line,
            );
        }
        out.push('\n');
    }
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
                let head = format!("  {:<w_rule$}    {} ", "", paint("evidence:", "2", colour));
                write_indented(&mut out, &head, w_rule + 16, &e.to_string());
            }
            if !f.remedy.is_empty() {
                let head = format!("  {:<w_rule$}    {} ", "", paint("remedy:", "32", colour));
                write_indented(&mut out, &head, w_rule + 14, &f.remedy);
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
            input_problems: Vec::new(),
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
