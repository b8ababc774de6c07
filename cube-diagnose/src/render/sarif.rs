//! SARIF 2.1.0 output: one run, rules in `tool.driver.rules`, one result per finding with
//! `ruleId`, `level` (error/warning/note), `message.text` and a logical location for the subject.

use serde_json::{Value, json};

use crate::{DiagnoseError, Report, Severity};

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// Renders the report as a SARIF 2.1.0 log.
///
/// # Errors
/// [`DiagnoseError::Render`] if serialization fails.
pub fn to_sarif(report: &Report) -> Result<String, DiagnoseError> {
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
                "properties": {"category": r.category.as_str()}
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let kind = match f.subject.kind.as_str() {
                "Cluster" => "module",
                "Namespace" | "NodePool" | "ResourceGroup" => "namespace",
                _ => "object",
            };
            let mut fq = f.subject.kind.clone();
            if !f.subject.namespace.is_empty() {
                fq = format!("{fq}/{}", f.subject.namespace);
            }
            if !f.subject.name.is_empty() {
                fq = format!("{fq}/{}", f.subject.name);
            }
            let mut r = json!({
                "ruleId": f.rule_id,
                "level": level(f.severity),
                "message": {"text": f.message},
                "locations": [{
                    "logicalLocations": [{
                        "name": if f.subject.name.is_empty() { f.subject.kind.clone() } else { f.subject.name.clone() },
                        "fullyQualifiedName": fq,
                        "kind": kind
                    }]
                }],
                "properties": {
                    "subject": f.subject,
                    "evidence": f.evidence,
                    "remedy": f.remedy
                }
            });
            if let Some(idx) = report.rules.iter().position(|r| r.id == f.rule_id) {
                r["ruleIndex"] = json!(idx);
            }
            r
        })
        .collect();
    let notifications: Vec<Value> = report
        .input_problems
        .iter()
        .map(|p| {
            json!({
                "level": if p.fatal { "error" } else { "warning" },
                "message": {"text": p.to_string()},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": p.source}}}],
                "properties": {"fatal": p.fatal}
            })
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
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
            "results": results
        }]
    });
    serde_json::to_string_pretty(&doc).map_err(DiagnoseError::Render)
}
