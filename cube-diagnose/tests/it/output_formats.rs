//! The JSON output validates against `schema/findings.schema.json`, SARIF has the 2.1.0 shape,
//! and the table groups by severity.
//!
//! The validator is a small interpreter of the JSON Schema keywords the schema uses (`type`,
//! `required`, `properties`, `additionalProperties`, `items`, `enum`, `const`, `$ref`, `oneOf`,
//! `minimum`, `maximum`, `pattern` as an anchored kebab-case check): the `jsonschema` crate is not
//! available offline here.

use cube_diagnose::render::{json, to_json, to_sarif, to_table};
use cube_diagnose::{Context, Engine, Evidence, Finding, Inputs, Report, Severity, Subject};
use serde_json::Value;

fn gpu_report() -> Report {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/fixtures/apiserver/snapshot-gpu-cluster.json"
    );
    let mut inputs = Inputs::new();
    inputs.add(
        "snapshot-gpu-cluster.json",
        &std::fs::read_to_string(path).expect("fixture"),
    );
    inputs.add(
        "join.log",
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"",
    );
    let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
    Engine::new().run(&ctx)
}

fn resolve<'s>(root: &'s Value, r: &str) -> &'s Value {
    let p = r.strip_prefix("#/").expect("local ref");
    p.split('/').fold(root, |v, k| &v[k])
}

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => false,
    }
}

fn kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// Returns the list of violations (JSON pointer + message).
fn validate(root: &Value, schema: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return validate(root, resolve(root, r), v, at, errs);
    }
    if let Some(t) = schema.get("type").and_then(Value::as_str)
        && !type_ok(t, v)
    {
        errs.push(format!("{at}: expected {t}, got {v}"));
        return;
    }
    if let Some(c) = schema.get("const")
        && c != v
    {
        errs.push(format!("{at}: expected const {c}, got {v}"));
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array)
        && !e.contains(v)
    {
        errs.push(format!("{at}: {v} not in {e:?}"));
    }
    if let (Some(min), Some(n)) = (schema.get("minimum").and_then(Value::as_i64), v.as_i64())
        && n < min
    {
        errs.push(format!("{at}: {n} < {min}"));
    }
    if let (Some(max), Some(n)) = (schema.get("maximum").and_then(Value::as_i64), v.as_i64())
        && n > max
    {
        errs.push(format!("{at}: {n} > {max}"));
    }
    if schema.get("pattern").is_some()
        && let Some(s) = v.as_str()
        && !kebab(s)
    {
        errs.push(format!("{at}: {s} is not kebab-case"));
    }
    if let Some(one) = schema.get("oneOf").and_then(Value::as_array) {
        let ok = one
            .iter()
            .filter(|s| {
                let mut e = Vec::new();
                validate(root, s, v, at, &mut e);
                e.is_empty()
            })
            .count();
        if ok != 1 {
            errs.push(format!("{at}: matches {ok} of oneOf"));
        }
    }
    if let Some(obj) = v.as_object() {
        for r in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let k = r.as_str().unwrap_or("");
            if !obj.contains_key(k) {
                errs.push(format!("{at}: missing required {k}"));
            }
        }
        let props = schema.get("properties").and_then(Value::as_object);
        for (k, val) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(root, ps, val, &format!("{at}/{k}"), errs),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errs.push(format!("{at}: unexpected property {k}"))
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            validate(root, items, x, &format!("{at}/{i}"), errs);
        }
    }
}

#[track_caller]
fn check_valid(doc: &Value) {
    let schema: Value = serde_json::from_str(json::SCHEMA).expect("schema is JSON");
    let mut errs = Vec::new();
    validate(&schema, &schema, doc, "", &mut errs);
    assert!(errs.is_empty(), "{errs:#?}");
}

#[test]
fn streamed_json_is_the_same_text() {
    let r = gpu_report();
    let mut streamed = Vec::new();
    cube_diagnose::render::write_json(&r, &mut streamed).expect("write");
    assert_eq!(
        String::from_utf8(streamed).expect("utf-8"),
        to_json(&r).expect("render")
    );
}

#[test]
fn json_output_of_the_gpu_snapshot_validates() {
    let r = gpu_report();
    let doc: Value = serde_json::from_str(&to_json(&r).expect("render")).expect("json");
    check_valid(&doc);
    assert_eq!(doc["exitCode"], 1);
    assert_eq!(
        doc["rules"].as_array().map(Vec::len),
        Some(cube_diagnose::rules::catalog().len())
    );
    // both evidence shapes occur
    let ev: Vec<&str> = doc["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| f["evidence"].as_array().into_iter().flatten())
        .filter_map(|e| e["type"].as_str())
        .collect();
    assert!(ev.contains(&"field") && ev.contains(&"log"));
}

#[test]
fn the_validator_rejects_broken_documents() {
    let r = gpu_report();
    let mut doc: Value = serde_json::from_str(&to_json(&r).expect("render")).expect("json");
    doc["findings"][0]["severity"] = Value::String("fatal".into());
    doc["findings"][1]
        .as_object_mut()
        .expect("obj")
        .remove("remedy");
    doc["summary"]["score"] = Value::from(101);
    let schema: Value = serde_json::from_str(json::SCHEMA).expect("schema");
    let mut errs = Vec::new();
    validate(&schema, &schema, &doc, "", &mut errs);
    assert_eq!(errs.len(), 3, "{errs:#?}");
}

#[test]
fn empty_report_validates_and_exits_zero() {
    let findings = vec![
        Finding::new("x-rule", Severity::Info, Subject::cluster(""), "fyi")
            .with_evidence(Evidence::log("a", 1, "line")),
    ];
    let r = Report::from_findings(findings);
    let doc: Value = serde_json::from_str(&to_json(&r).expect("render")).expect("json");
    check_valid(&doc);
    assert_eq!(doc["exitCode"], 0);
}

#[test]
fn sarif_has_rules_results_levels_and_logical_locations() {
    let r = gpu_report();
    let s: Value = serde_json::from_str(&to_sarif(&r).expect("render")).expect("json");
    assert_eq!(s["version"], "2.1.0");
    let run = &s["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), cube_diagnose::rules::catalog().len());
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), r.findings.len());
    for (res, f) in results.iter().zip(&r.findings) {
        assert_eq!(res["ruleId"], f.rule_id.as_str());
        let level = res["level"].as_str().expect("level");
        assert!(["error", "warning", "note"].contains(&level));
        let idx = res["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[idx]["id"], f.rule_id.as_str());
        let loc = &res["locations"][0]["logicalLocations"][0];
        assert!(
            loc["fullyQualifiedName"]
                .as_str()
                .expect("fqn")
                .starts_with(&f.subject.kind)
        );
        assert!(
            res["message"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
        );
    }
    let gn = results
        .iter()
        .find(|x| x["ruleId"] == "gpu-not-advertised")
        .expect("gpu finding");
    assert_eq!(
        gn["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        "Node/gpu-node-03"
    );
}

#[test]
fn table_is_grouped_by_severity_without_colour_when_asked() {
    let r = gpu_report();
    let t = to_table(&r, false);
    let e = t.find("ERRORS").expect("errors section");
    let w = t.find("WARNINGS").expect("warnings section");
    assert!(e < w);
    assert!(!t.contains('\u{1b}'));
    assert!(t.contains("score"));
}

#[test]
fn json_with_input_problems_validates_and_exits_two() {
    let mut inputs = Inputs::new();
    inputs.add(
        "part.json",
        r#"{"kind":"List","apiVersion":"v1","items":[{"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}},{"kind":"Node","apiVersion":"v1","metadata":{"name":"b"},"status":{"capacity":{"cpu":"lots"}}}]}"#,
    );
    inputs.add("empty.yaml", "");
    let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
    let r = Engine::new()
        .run(&ctx)
        .with_input_problems(inputs.input_problems());
    let doc: Value = serde_json::from_str(&to_json(&r).expect("render")).expect("json");
    check_valid(&doc);
    assert_eq!(doc["exitCode"], 2);
    let problems = doc["inputProblems"].as_array().expect("inputProblems");
    assert!(
        problems
            .iter()
            .any(|p| p["source"] == "part.json" && p["fatal"] == false && p["document"] == 0)
    );
    assert!(
        problems
            .iter()
            .any(|p| p["source"] == "empty.yaml" && p["fatal"] == true)
    );
    // the validator sees a broken problem entry
    let mut bad = doc.clone();
    bad["inputProblems"][0]["fatal"] = Value::from("yes");
    let schema: Value = serde_json::from_str(json::SCHEMA).expect("schema");
    let mut errs = Vec::new();
    validate(&schema, &schema, &bad, "", &mut errs);
    assert_eq!(errs.len(), 1, "{errs:#?}");
}

/// A server's condition message with `\r\n` started a physical line of its own in the table
/// (a server could add lines to the report): messages are escaped to one line, as evidence is
/// (fresh-user G19).
#[test]
fn a_newline_in_a_message_never_starts_a_line_of_the_table() {
    let findings = vec![Finding::new(
        "node-not-ready",
        Severity::Error,
        Subject::cluster(""),
        "PLEG is not healthy \r\nFAKE LINE: all good",
    )];
    let t = to_table(&Report::from_findings(findings), false);
    assert!(t.contains("PLEG is not healthy \\r\\nFAKE LINE"), "{t}");
    assert!(
        !t.lines().any(|l| l.trim_start().starts_with("FAKE LINE")),
        "{t}"
    );
}
