//! Human-readable table grouped by severity. Colour (ANSI) only when asked for; callers pass
//! `std::io::IsTerminal::is_terminal(&std::io::stdout())`.
//!
//! Every text that comes from input (object names, server messages, log lines, suggested
//! commands) is written through [`cube_model::terminal`]: control, escape and bidirectional
//! characters are shown as visible escapes, never sent to the terminal raw.
//!
//! Remedies a person can paste: the prose is printed under the finding; every multi-line
//! command (a heredoc with a manifest) is printed after it at column 0, between blank lines and
//! without any decoration, so that selecting it and pasting it into a shell runs it (an
//! indented `EOF` would leave the shell waiting). One-line commands stay in the prose in
//! backticks. The same remedy for several subjects of one rule and namespace is printed once,
//! after the last of them, naming them all ([`crate::Report::remedy_groups`]).

use std::fmt::Write;

use cube_model::terminal::{escape, escape_line};

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
            let line = escape(&p.to_string()).into_owned();
            write_indented(
                &mut out,
                &format!("  {} ", paint(tag, "35", colour)),
                12,
                &line,
            );
        }
        out.push('\n');
    }
    let groups = report.remedy_groups();
    // for each finding: the group of its remedy (groups hold each finding's subject)
    let group_of = |f: &crate::Finding| {
        groups.iter().position(|g| {
            g.severity == f.severity
                && g.rule_id == f.rule_id
                && g.namespace == f.subject.namespace
                && g.subjects.contains(&f.subject)
                && g.remedy == crate::finding::split_remedy(&f.remedy).0
        })
    };
    // the last finding of each group: its remedy is printed there, once
    let mut last: Vec<Option<&crate::Finding>> = vec![None; groups.len()];
    for f in &report.findings {
        if let Some(i) = group_of(f) {
            last[i] = Some(f);
        }
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
        let w_rule = group
            .iter()
            .map(|f| escape_line(&f.rule_id).len())
            .max()
            .unwrap_or(0);
        let w_subj = group
            .iter()
            .map(|f| escape_line(&f.subject.display_name()).len())
            .max()
            .unwrap_or(0)
            .min(48);
        for f in group {
            let head = format!(
                "  {:<w_rule$}  {:<w_subj$}  ",
                escape_line(&f.rule_id),
                escape_line(&f.subject.display_name()),
            );
            write_indented(
                &mut out,
                &head,
                w_rule + w_subj + 6,
                &escape_line(&f.message),
            );
            for e in &f.evidence {
                let head = format!("  {:<w_rule$}    {} ", "", paint("evidence:", "2", colour));
                write_indented(&mut out, &head, w_rule + 16, &escape_line(&e.to_string()));
            }
            let Some(i) = group_of(f) else {
                continue;
            };
            if !last[i].is_some_and(|l| std::ptr::eq(l, f)) {
                continue; // printed once, after the group's last finding
            }
            let g = &groups[i];
            let label = if g.subjects.len() > 1 {
                format!(
                    "remedy for {}:",
                    g.subjects
                        .iter()
                        .map(crate::Subject::display_name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                "remedy:".to_owned()
            };
            if !g.remedy.is_empty() {
                let head = format!("  {:<w_rule$}    {} ", "", paint(&label, "32", colour));
                write_indented(&mut out, &head, w_rule + 14, &escape(&g.remedy));
            }
            let blocks: Vec<&String> = g.commands.iter().filter(|c| c.contains('\n')).collect();
            for c in blocks {
                // at column 0, undecorated: pasted as printed
                out.push('\n');
                out.push_str(&escape(c));
                out.push_str("\n\n");
            }
        }
        out.push('\n');
    }
    if !report.suppressed.is_empty() {
        let _ = writeln!(
            out,
            "{} ({})",
            paint("SUPPRESSED", "1;2", colour),
            report.suppressed.len()
        );
        for sup in &report.suppressed {
            let f = &sup.finding;
            let _ = writeln!(
                out,
                "  {}  {}  {}  {}",
                f.severity,
                escape_line(&f.rule_id),
                escape_line(&f.subject.display_name()),
                escape_line(&f.message)
            );
            let head = format!("    {} ", paint("suppressed by:", "2", colour));
            write_indented(&mut out, &head, 19, &escape(&sup.suppression.justification));
        }
        out.push('\n');
    }
    let s = &report.summary;
    // a score is never printed bare over a picture that is not whole: an input that could not
    // be used (exit 2) or a part that could not be read (exit 3) is named next to it
    let score = match report.exit_code() {
        2 => "no score: an input could not be used (see INPUT PROBLEMS)".to_owned(),
        3 if report.nothing_read => {
            "no score: nothing could be read (every kind could not be read: see snapshot-incomplete)"
                .to_owned()
        }
        3 => format!("score {}/100 on an incomplete picture", s.score),
        _ => format!("score {}/100", s.score),
    };
    let _ = write!(
        out,
        "{} error(s), {} warning(s), {} info; {score} ({} rules ran)",
        s.errors,
        s.warnings,
        s.infos,
        report.rules.len()
    );
    if s.suppressed > 0 {
        let _ = write!(out, "; {} suppressed", s.suppressed);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Finding, Subject, Summary};

    /// Issue 9: escape codes, carriage returns and right-to-left overrides from server messages
    /// and object names reached the terminal raw, even inside suggested commands.
    #[test]
    fn control_and_bidi_characters_are_escaped_everywhere() {
        let evil = "x\u{1b}[2J\u{202e}gpj.exe\r";
        let findings = vec![
            Finding::new(
                "a",
                Severity::Error,
                Subject::cluster_scoped("Node", evil),
                evil,
            )
            .with_evidence(crate::Evidence::log("src", 1, evil))
            .with_evidence(crate::Evidence::field(evil, "spec", evil))
            .with_remedy(format!("kubectl cordon {evil}\nkubectl drain {evil}")),
        ];
        let r = Report {
            rules: vec![],
            summary: Summary::of(&findings),
            findings,
            input_problems: vec![crate::input::InputProblem {
                source: evil.into(),
                message: evil.into(),
                ..Default::default()
            }],
            incomplete: false,
            nothing_read: false,
            suppressed: Vec::new(),
        };
        let t = to_table(&r, false);
        for bad in ['\u{1b}', '\u{202e}', '\r'] {
            assert!(!t.contains(bad), "{bad:?} in {t:?}");
        }
        assert!(t.contains("\\x1b[2J\\u{202e}gpj.exe\\r"), "{t}");
        // the colour codes we add ourselves stay
        assert!(to_table(&r, true).contains("\u{1b}[1;31m"));
        // the data formats carry the same text, escaped so that printing them acts on nothing
        let json = crate::render::json::to_json(&r).unwrap();
        let mut streamed = Vec::new();
        crate::render::json::write_json(&r, &mut streamed).unwrap();
        assert_eq!(json.as_bytes(), streamed.as_slice());
        let sarif = crate::render::sarif::to_sarif(&r).unwrap();
        let junit = crate::render::junit::to_junit(&r);
        for out in [&json, &sarif, &junit] {
            for bad in ['\u{1b}', '\u{202e}', '\r'] {
                assert!(!out.contains(bad), "{bad:?} in {out}");
            }
        }
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["findings"][0]["subject"]["name"], evil);
    }

    /// A score is never printed bare over an input that could not be used or a picture with
    /// parts missing: an unreadable file once printed "score 100/100" next to exit 2.
    #[test]
    fn the_score_line_names_an_unusable_input_and_an_incomplete_picture() {
        let mut r = Report {
            rules: vec![],
            summary: Summary::of(&[]),
            findings: Vec::new(),
            input_problems: vec![crate::input::InputProblem {
                source: "dump.json".into(),
                message: "cannot read".into(),
                fatal: true,
                ..Default::default()
            }],
            incomplete: true,
            nothing_read: false,
            suppressed: Vec::new(),
        };
        let t = to_table(&r, false);
        assert!(!t.contains("100/100"), "{t}");
        assert!(t.contains("no score: an input could not be used"), "{t}");
        r.input_problems.clear();
        let t = to_table(&r, false);
        assert!(t.contains("score 100/100 on an incomplete picture"), "{t}");
        r.incomplete = false;
        let t = to_table(&r, false);
        assert!(t.contains("; score 100/100 ("), "{t}");
    }

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
            incomplete: false,
            nothing_read: false,
            suppressed: Vec::new(),
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
