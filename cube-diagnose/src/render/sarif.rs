//! SARIF 2.1.0 output, shaped for GitHub code scanning: one run; `tool.driver` with `name`,
//! `version`, `informationUri` and `rules` (each with `id`, descriptions, default level); one
//! result per finding with `ruleId`, `ruleIndex`, `level` (error/warning/note), `message.text`,
//! a `physicalLocation` (the input file as a relative `artifactLocation.uri` and
//! `region.startLine`: where the object starts, or the log line that is the evidence), a logical
//! location for the subject, and `partialFingerprints` that stay the same across runs (rule id,
//! subject and the finding's ordinal among equal pairs; never the message, which holds counts).
//! Suppressed findings are results too, with `suppressions` (`inSource` for the object's
//! annotation, `external` for the configuration), so code scanning shows them as dismissed.
//!
//! Findings without a file (objects read from a live cluster) carry only the logical location:
//! there is no file a code-scanning alert could point at, and a made-up URI would be refused.
//! Diagnose a saved snapshot (`kubectl get ... -o json > dump.json`) to get file locations.

use std::path::Path;

use serde_json::{Value, json};

use crate::{DiagnoseError, Finding, Report, Severity, SourceLocation};

/// The documented SARIF 2.1.0 schema URI (`$schema`).
pub const SARIF_SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Options of [`to_sarif_with`].
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SarifOptions<'a> {
    /// The directory the SARIF is about (the repository checkout, usually the current
    /// directory): absolute input paths under it are written relative to it, as code scanning
    /// wants. Other absolute paths become `file://` URIs.
    pub base_dir: Option<&'a Path>,
}

impl<'a> SarifOptions<'a> {
    /// Options with a base directory.
    pub fn with_base_dir(base_dir: &'a Path) -> Self {
        SarifOptions {
            base_dir: Some(base_dir),
        }
    }
}

/// Percent-encodes what a URI reference may not hold (keeps unreserved characters and `/`).
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `path` with `.` and `..` segments resolved lexically (no file system access); a `..` above
/// the root stays at the root.
fn lexical_normal(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The `artifactLocation.uri` of an input: relative to `base` when it lies under it, an
/// absolute `file://` URI otherwise (also for a relative path that leaves `base` through `..`,
/// which code scanning cannot place: fresh-user G33), else, without a base, the relative path
/// as given (`./` dropped).
pub fn artifact_uri(source: &str, base: Option<&Path>) -> String {
    let p = Path::new(source);
    let absolute = match base {
        Some(b) if !p.is_absolute() => {
            if !p.components().any(|c| c == std::path::Component::ParentDir) {
                return encode_path(source.trim_start_matches("./"));
            }
            lexical_normal(&b.join(p))
        }
        _ if p.is_absolute() => lexical_normal(p),
        _ => return encode_path(source.trim_start_matches("./")),
    };
    if let Some(rel) = base.and_then(|b| absolute.strip_prefix(b).ok()) {
        return encode_path(&rel.to_string_lossy());
    }
    format!("file://{}", encode_path(&absolute.to_string_lossy()))
}

/// FNV-1a, 64 bits: a fingerprint that stays the same across builds and platforms.
fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn physical(at: &SourceLocation, base: Option<&Path>) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(&at.source, base)},
            "region": {"startLine": at.line.max(1)}
        }
    })
}

fn result(
    report: &Report,
    f: &Finding,
    ordinal: usize,
    base: Option<&Path>,
    suppression: Option<&crate::Suppression>,
) -> Value {
    let kind = match f.subject.kind.as_str() {
        "Cluster" => "module",
        "Namespace" | "NodePool" | "ResourceGroup" => "namespace",
        _ => "object",
    };
    let fq = f.subject.display_name();
    let logical = json!({
        "name": if f.subject.name.is_empty() { f.subject.kind.clone() } else { f.subject.name.clone() },
        "fullyQualifiedName": fq,
        "kind": kind
    });
    let mut location = match &f.location {
        Some(at) => physical(at, base),
        None => json!({}),
    };
    location["logicalLocations"] = json!([logical]);
    let mut r = json!({
        "ruleId": f.rule_id,
        "level": level(f.severity),
        "message": {"text": f.message},
        "locations": [location],
        "partialFingerprints": {
            "cubeFinding/v1": format!("{:016x}:{ordinal}", fnv1a(&format!("{}\u{0}{fq}", f.rule_id)))
        },
        "properties": {
            "subject": f.subject,
            "evidence": f.evidence,
            "remedy": f.remedy,
            "remedyCommands": f.remedy_commands
        }
    });
    if let Some(idx) = report.rules.iter().position(|r| r.id == f.rule_id) {
        r["ruleIndex"] = json!(idx);
    }
    if let Some(s) = suppression {
        r["suppressions"] = json!([{
            "kind": match s.kind {
                crate::SuppressionKind::Annotation => "inSource",
                _ => "external",
            },
            "justification": s.justification
        }]);
    }
    r
}

/// Renders the report as a SARIF 2.1.0 log, with input paths as given (see [`to_sarif_with`]).
///
/// # Errors
/// [`DiagnoseError::Render`] if serialization fails.
pub fn to_sarif(report: &Report) -> Result<String, DiagnoseError> {
    to_sarif_with(report, &SarifOptions::default())
}

/// Renders the report as a SARIF 2.1.0 log.
///
/// # Errors
/// [`DiagnoseError::Render`] if serialization fails.
pub fn to_sarif_with(report: &Report, opts: &SarifOptions<'_>) -> Result<String, DiagnoseError> {
    let base = opts.base_dir;
    let rules: Vec<Value> = report
        .rules
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "name": r.id,
                "shortDescription": {"text": r.documentation.split(". ").next().unwrap_or("")},
                "fullDescription": {"text": r.documentation},
                "defaultConfiguration": {"level": level(r.default_severity)},
                "properties": {"category": r.category.as_str(), "tags": ["kubernetes", r.category.as_str()]}
            })
        })
        .collect();
    // ordinal of a finding among findings with the same rule and subject, in report order
    let mut seen: std::collections::BTreeMap<(String, String), usize> = Default::default();
    let mut ordinal = |f: &Finding| {
        let n = seen
            .entry((f.rule_id.clone(), f.subject.display_name()))
            .or_default();
        *n += 1;
        *n - 1
    };
    let mut results: Vec<Value> = Vec::new();
    for f in &report.findings {
        let n = ordinal(f);
        results.push(result(report, f, n, base, None));
    }
    for s in &report.suppressed {
        let n = ordinal(&s.finding);
        results.push(result(report, &s.finding, n, base, Some(&s.suppression)));
    }
    let notifications: Vec<Value> = report
        .input_problems
        .iter()
        .map(|p| {
            json!({
                "level": if p.fatal { "error" } else { "warning" },
                "message": {"text": p.to_string()},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(&p.source, base)}}}],
                "properties": {"fatal": p.fatal}
            })
        })
        .collect();
    let doc = json!({
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "cube-diagnose",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/cube-rs/cube-rs",
                "rules": rules
            }},
            "invocations": [{
                "executionSuccessful": !report.input_problems.iter().any(|p| p.fatal),
                "exitCode": report.exit_code(),
                "toolExecutionNotifications": notifications
            }],
            "results": results,
            "properties": {"summary": report.summary}
        }]
    });
    serde_json::to_string_pretty(&doc)
        .map(|j| cube_model::terminal::json_safe(&j).into_owned())
        .map_err(DiagnoseError::Render)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_and_encoded() {
        assert_eq!(artifact_uri("./dump.json", None), "dump.json");
        assert_eq!(artifact_uri("a b/x.json", None), "a%20b/x.json");
        assert_eq!(
            artifact_uri("/repo/ci/dump.json", Some(Path::new("/repo"))),
            "ci/dump.json"
        );
        assert_eq!(
            artifact_uri("/tmp/x.json", Some(Path::new("/repo"))),
            "file:///tmp/x.json"
        );
        // a relative path that leaves the base: absolute (G33), one that stays: relative
        assert_eq!(
            artifact_uri("../../tools/p.yaml", Some(Path::new("/work/wt/fresh"))),
            "file:///work/tools/p.yaml"
        );
        assert_eq!(
            artifact_uri("ci/../dumps/x.json", Some(Path::new("/repo"))),
            "dumps/x.json"
        );
        assert_eq!(
            artifact_uri("/repo/ci/../x.json", Some(Path::new("/repo"))),
            "x.json"
        );
        assert_eq!(artifact_uri("../x.json", None), "../x.json");
    }
}
