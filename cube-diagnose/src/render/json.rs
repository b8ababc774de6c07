//! JSON output. The document shape is fixed by `schema/findings.schema.json` (JSON Schema
//! 2020-12) and versioned by `schemaVersion`; fields are only ever added (`inputProblems`, the
//! report's [`crate::input::InputProblem`]s, `suppressed`, `summary.suppressed`,
//! `findings[].location`, `findings[].remedyCommands` (the commands of a remedy, each runnable as
//! printed) and `remedies` (each distinct remedy once with every subject it is for) were added in
//! v1 and are always written when they apply). Every key is camelCase, as in every program's JSON
//! output.

use serde::Serialize;

use crate::input::InputProblem;
use crate::{DiagnoseError, Finding, RemedyGroup, Report, RuleInfo, Summary};

/// The `schemaVersion` of the JSON document.
pub const SCHEMA_VERSION: &str = "cube-diagnose/findings/v1";

/// The JSON schema, as shipped in the crate.
pub const SCHEMA: &str = include_str!("../../schema/findings.schema.json");

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Doc<'a> {
    schema_version: &'static str,
    summary: &'a Summary,
    exit_code: i32,
    incomplete: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    nothing_read: bool,
    rules: &'a [RuleInfo],
    findings: &'a [Finding],
    remedies: Vec<RemedyGroup>,
    input_problems: &'a [InputProblem],
    suppressed: &'a [crate::Suppressed],
}

/// Renders the report as pretty JSON (see [`SCHEMA`]).
///
/// # Errors
/// [`DiagnoseError::Render`] if serialization fails (it does not for reports built by the engine).
pub fn to_json(report: &Report) -> Result<String, DiagnoseError> {
    serde_json::to_string_pretty(&doc(report))
        .map(|j| cube_model::terminal::json_safe(&j).into_owned())
        .map_err(DiagnoseError::Render)
}

/// Writes the document of [`to_json`] to `writer`, byte for byte the same text, without
/// holding it in memory: on a pod-heavy cluster the document is about a quarter of the dump
/// (every pod of an overcommitted node is evidence), which a program would otherwise keep next
/// to the snapshot and the report (issue 9's peak memory).
///
/// # Errors
/// [`DiagnoseError::Render`] if writing fails; the writer's [`std::io::Error`] kind is in
/// [`serde_json::Error::io_error_kind`] (a closed pipe, say).
pub fn write_json<W: std::io::Write>(report: &Report, writer: W) -> Result<(), DiagnoseError> {
    let mut safe = cube_model::terminal::JsonSafeWriter::new(writer);
    serde_json::to_writer_pretty(&mut safe, &doc(report)).map_err(DiagnoseError::Render)?;
    safe.finish()
        .map(|_| ())
        .map_err(|e| DiagnoseError::Render(<serde_json::Error as serde::ser::Error>::custom(e)))
}

fn doc(report: &Report) -> Doc<'_> {
    Doc {
        schema_version: SCHEMA_VERSION,
        summary: &report.summary,
        exit_code: report.exit_code(),
        incomplete: report.incomplete,
        nothing_read: report.nothing_read,
        rules: &report.rules,
        findings: &report.findings,
        remedies: report.remedy_groups(),
        input_problems: &report.input_problems,
        suppressed: &report.suppressed,
    }
}
