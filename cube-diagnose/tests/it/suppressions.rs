//! Per-object suppressions: the `cube-rs.io/ignore` annotation and configured rule + subject
//! patterns. Suppressed findings leave the error counts and the exit code but are counted and
//! listed in every output format.

use cube_diagnose::render::{to_json, to_junit, to_sarif, to_table};
use cube_diagnose::{Config, Context, Engine, Inputs, Report, SuppressionKind, SuppressionRule};
use serde_json::Value;

const NODES: &str = r#"{"kind":"List","apiVersion":"v1","items":[
{"kind":"Node","apiVersion":"v1","metadata":{"name":"broken-1","annotations":{"cube-rs.io/ignore":"node-drift, node-not-ready"}},
 "status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"container runtime network not ready"}]}},
{"kind":"Node","apiVersion":"v1","metadata":{"name":"broken-2"},
 "status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"container runtime network not ready"}]}},
{"kind":"Node","apiVersion":"v1","metadata":{"name":"gpu-3"},
 "status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"PLEG is not healthy"}]}}
]}"#;

fn run(config: Config) -> Report {
    let mut inputs = Inputs::new();
    inputs.add("nodes.json", NODES);
    let ctx = Context::new(&inputs.snapshot);
    Engine::new()
        .try_with_config(config)
        .expect("config")
        .run(&ctx)
        .with_locations(&inputs.locations)
}

fn not_ready(r: &Report) -> Vec<String> {
    r.by_rule("node-not-ready")
        .map(|f| f.subject.name.clone())
        .collect()
}

#[test]
fn annotation_suppresses_only_that_object_and_the_listed_rules() {
    let r = run(Config::default());
    assert_eq!(not_ready(&r), ["broken-2", "gpu-3"]);
    assert_eq!(r.summary.errors, 2);
    assert_eq!(r.summary.suppressed, r.suppressed.len());
    let s = r
        .suppressed
        .iter()
        .find(|s| s.finding.rule_id == "node-not-ready")
        .expect("listed");
    assert_eq!(s.finding.subject.name, "broken-1");
    assert_eq!(s.suppression.kind, SuppressionKind::Annotation);
    assert!(s.suppression.justification.contains("cube-rs.io/ignore"));
    // located like any finding: line 2 is where broken-1's object starts
    assert_eq!(s.finding.location.as_ref().map(|l| l.line), Some(2));
}

#[test]
fn configured_patterns_suppress_by_rule_and_subject() {
    let cfg = Config::from_yaml(
        "suppressions:\n  - ruleId: node-not-ready\n    subject: \"Node/gpu-*\"\n    reason: GPU nodes are being re-imaged\n",
    )
    .expect("config");
    assert_eq!(
        cfg.suppressions,
        [SuppressionRule {
            rule_id: "node-not-ready".into(),
            subject: "Node/gpu-*".into(),
            reason: "GPU nodes are being re-imaged".into(),
        }]
    );
    let r = run(cfg);
    assert_eq!(not_ready(&r), ["broken-2"]);
    assert_eq!(r.summary.errors, 1);
    assert_eq!(r.summary.suppressed, 2);
    assert!(
        r.suppressed
            .iter()
            .any(|s| s.finding.subject.name == "gpu-3"
                && s.suppression.kind == SuppressionKind::Config
                && s.suppression.justification.contains("re-imaged"))
    );
    // an unknown rule id in a suppression is refused like anywhere else in the config
    let bad = Config::from_yaml("suppressions:\n  - ruleId: node-not-redy\n").expect("parses");
    assert!(
        Engine::new()
            .try_with_config(bad)
            .unwrap_err()
            .to_string()
            .contains("suppressions: node-not-redy")
    );
}

#[test]
fn every_output_lists_the_suppressed_findings() {
    let r = run(Config::default().disable("node-drift"));
    assert_eq!(r.suppressed.len(), 1);
    let table = to_table(&r, false);
    assert!(
        table.contains("SUPPRESSED (1)") && table.contains("broken-1"),
        "{table}"
    );
    assert!(table.contains("; 1 suppressed"));
    let json: Value = serde_json::from_str(&to_json(&r).expect("json")).expect("json");
    assert_eq!(json["summary"]["suppressed"], 1);
    assert_eq!(json["suppressed"][0]["subject"]["name"], "broken-1");
    assert_eq!(json["suppressed"][0]["suppression"]["kind"], "annotation");
    let sarif: Value = serde_json::from_str(&to_sarif(&r).expect("sarif")).expect("json");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let sup: Vec<&Value> = results
        .iter()
        .filter(|x| x.get("suppressions").is_some())
        .collect();
    assert_eq!(sup.len(), 1);
    assert_eq!(sup[0]["suppressions"][0]["kind"], "inSource");
    assert_eq!(results.len(), r.findings.len() + 1);
    let xml = to_junit(&r);
    assert!(
        xml.contains(
            "name=\"Node/broken-1\">\n      <skipped message=\"suppressed: cube-rs.io/ignore"
        ),
        "{xml}"
    );
    assert_eq!(r.exit_code(), 1);
}
