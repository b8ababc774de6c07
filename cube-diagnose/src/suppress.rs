//! Per-object suppressions. A finding is suppressed when
//! - the object it is about carries the annotation [`IGNORE_ANNOTATION`]
//!   (`cube-rs.io/ignore: "node-drift, quota-near-limit"`; `*` ignores every rule), or
//! - a [`SuppressionRule`] of the configuration (`suppressions:` with `ruleId` and a `subject`
//!   pattern such as `Node/gpu-*` or `Pod/ml/*`) matches it.
//!
//! Suppressed findings are never dropped silently: the engine moves them to
//! [`crate::Report::suppressed`], the summary counts them, and every output lists them (the
//! table in a SUPPRESSED section, JSON under `suppressed`, SARIF as results with
//! `suppressions`, JUnit as skipped test cases). They do not count towards the exit code or
//! the score.

use serde::{Deserialize, Serialize};

use crate::Finding;

/// The annotation listing rule ids to ignore on one object (comma-separated; `*` = all).
pub const IGNORE_ANNOTATION: &str = "cube-rs.io/ignore";

/// A configured suppression: a rule id (or `*`) and a subject pattern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuppressionRule {
    /// Rule id, or `*` for every rule.
    pub rule_id: String,
    /// Pattern over the subject's display name (`Kind/namespace/name`, `Kind/name`, `Cluster`):
    /// `*` matches any run of characters, `?` one character. Default `*` (every subject).
    #[serde(default = "any_subject")]
    pub subject: String,
    /// Why (written into the outputs as the justification).
    #[serde(default)]
    pub reason: String,
}

fn any_subject() -> String {
    "*".to_owned()
}

/// Where a suppression came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum SuppressionKind {
    /// The object's [`IGNORE_ANNOTATION`] (SARIF `inSource`).
    Annotation,
    /// A [`SuppressionRule`] of the configuration (SARIF `external`).
    Config,
}

/// Why one finding is suppressed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Suppression {
    /// Annotation or configuration.
    pub kind: SuppressionKind,
    /// The annotation (`cube-rs.io/ignore=node-drift on Node/gpu-1`) or the rule's pattern and
    /// reason.
    pub justification: String,
}

/// A finding that was suppressed, with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Suppressed {
    /// The finding, as the rule reported it.
    #[serde(flatten)]
    pub finding: Finding,
    /// Why it is suppressed.
    pub suppression: Suppression,
}

/// `*`/`?` glob match over the whole text.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

/// The objects of a snapshot that carry [`IGNORE_ANNOTATION`], by (kind, namespace, name), with
/// the annotation's value. Built once per run (usually empty).
#[derive(Debug, Clone, Default)]
pub struct Annotated(std::collections::BTreeMap<(String, String, String), String>);

impl Annotated {
    /// Collects the annotated objects of `snapshot`.
    pub fn of(snapshot: &cube_model::ClusterSnapshot) -> Self {
        let mut out = std::collections::BTreeMap::new();
        for (kind, metas) in crate::locate::objects_by_kind(snapshot) {
            for (own, meta) in metas {
                if let Some(v) = meta.annotations.get(IGNORE_ANNOTATION) {
                    out.entry((
                        own.unwrap_or(kind).to_owned(),
                        meta.namespace.clone(),
                        meta.name.clone(),
                    ))
                    .or_insert_with(|| v.to_owned());
                }
            }
        }
        Annotated(out)
    }
}

/// Why `finding` is suppressed, if it is: the annotation on its subject object first, then the
/// first matching configured rule.
pub fn suppression_of(
    finding: &Finding,
    annotated: &Annotated,
    rules: &[SuppressionRule],
) -> Option<Suppression> {
    let s = &finding.subject;
    if let Some(list) = annotated
        .0
        .get(&(s.kind.clone(), s.namespace.clone(), s.name.clone()))
        && list
            .split(',')
            .map(str::trim)
            .any(|id| id == "*" || id == finding.rule_id)
    {
        return Some(Suppression {
            kind: SuppressionKind::Annotation,
            justification: format!("{IGNORE_ANNOTATION}={list} on {s}"),
        });
    }
    if rules.is_empty() {
        return None;
    }
    let name = s.display_name();
    rules
        .iter()
        .find(|r| {
            (r.rule_id == "*" || r.rule_id == finding.rule_id) && glob_match(&r.subject, &name)
        })
        .map(|r| Suppression {
            kind: SuppressionKind::Config,
            justification: if r.reason.is_empty() {
                format!("configured suppression {} {}", r.rule_id, r.subject)
            } else {
                format!(
                    "configured suppression {} {}: {}",
                    r.rule_id, r.subject, r.reason
                )
            },
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("*", "Node/a"));
        assert!(glob_match("Node/gpu-*", "Node/gpu-1"));
        assert!(!glob_match("Node/gpu-*", "Node/cpu-1"));
        assert!(glob_match("Pod/ml/?", "Pod/ml/a"));
        assert!(!glob_match("Pod/ml/?", "Pod/ml/ab"));
        assert!(glob_match("Pod/*/train-*", "Pod/ml/train-0"));
    }
}
