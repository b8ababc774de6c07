//! SARIF output against the SARIF 2.1.0 JSON schema (`testdata/schemas/sarif-schema-2.1.0.json`,
//! OASIS) with a real validator, plus the properties GitHub code scanning requires of an upload:
//! `tool.driver.name`, `rules[].id`, every result with `ruleId`, `message.text`, a
//! `physicalLocation` whose `artifactLocation.uri` is relative and whose `region.startLine` is
//! at least 1, and stable `partialFingerprints`. Also the JUnit report's shape.

use cube_diagnose::render::{to_junit, to_sarif};
use cube_diagnose::{Context, Engine, Inputs, Report};
use serde_json::Value;

const SAMPLE: &str = "testdata/fixtures/apiserver/snapshot-gpu-cluster.json";

fn root(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// The bundled sample (the same bytes as `examples/data/snapshot-gpu-cluster.json`), a kubeadm
/// log and a YAML dump, read as `cluster_diagnose --snapshot` reads them.
fn report() -> (Inputs, Report) {
    let mut inputs = Inputs::new();
    inputs.add(
        SAMPLE,
        &std::fs::read_to_string(root(SAMPLE)).expect("fixture"),
    );
    inputs.add(
        "logs/join.log",
        "[preflight] Running pre-flight checks\nerror execution phase preflight: couldn't validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"\n",
    );
    inputs.add(
        "dump/quota.yaml",
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ResourceQuota\n  metadata:\n    name: bare-gpu\n    namespace: ml\n  spec:\n    hard:\n      nvidia.com/gpu: \"4\"\n",
    );
    let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
    let report = Engine::new()
        .run(&ctx)
        .with_input_problems(inputs.input_problems())
        .with_locations(&inputs.locations);
    (inputs, report)
}

fn sarif_validator() -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root("testdata/schemas/sarif-schema-2.1.0.json")).expect("schema"),
    )
    .expect("schema JSON");
    jsonschema::draft4::new(&schema).expect("SARIF schema compiles")
}

#[test]
fn sample_sarif_validates_against_the_sarif_2_1_0_schema() {
    let (_, report) = report();
    let doc: Value = serde_json::from_str(&to_sarif(&report).expect("sarif")).expect("json");
    let v = sarif_validator();
    let errors: Vec<String> = v
        .iter_errors(&doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // the validator does reject a broken log
    let mut broken = doc.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!v.is_valid(&broken));
    let mut broken = doc;
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        Value::from(0);
    assert!(!v.is_valid(&broken));
}

#[test]
fn every_result_has_what_code_scanning_requires() {
    let (_, report) = report();
    let doc: Value = serde_json::from_str(&to_sarif(&report).expect("sarif")).expect("json");
    let run = &doc["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "cube-diagnose");
    let rule_ids: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["id"].as_str().expect("rule id"))
        .collect();
    let results = run["results"].as_array().expect("results");
    assert!(results.len() >= 20, "{}", results.len());
    let mut fingerprints = std::collections::BTreeSet::new();
    for r in results {
        let id = r["ruleId"].as_str().expect("ruleId");
        assert!(rule_ids.contains(&id), "{id} not in rules");
        assert!(!r["message"]["text"].as_str().expect("text").is_empty());
        let pl = &r["locations"][0]["physicalLocation"];
        let uri = pl["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(
            !uri.starts_with('/') && !uri.contains("://"),
            "{id}: uri {uri} must be relative"
        );
        assert!(pl["region"]["startLine"].as_u64().expect("startLine") >= 1);
        let fp = r["partialFingerprints"]["cubeFinding/v1"]
            .as_str()
            .expect("fingerprint");
        assert!(
            fingerprints.insert(fp.to_owned()),
            "duplicate fingerprint {fp}"
        );
    }
    // Locations name the object's own line: the ResourceQuota of the YAML list item (line 4),
    // the log line of the join error (line 2), and a Node's JSON object in the sample.
    let find = |rule: &str, name: &str| {
        results
            .iter()
            .find(|r| r["ruleId"] == rule && r["properties"]["subject"]["name"] == name)
            .unwrap_or_else(|| panic!("{rule} {name}"))
    };
    let at = |r: &Value| {
        let pl = &r["locations"][0]["physicalLocation"];
        (
            pl["artifactLocation"]["uri"]
                .as_str()
                .unwrap_or("")
                .to_owned(),
            pl["region"]["startLine"].as_u64().unwrap_or(0) as usize,
        )
    };
    assert_eq!(
        at(find("quota-not-enforced", "bare-gpu")),
        ("dump/quota.yaml".into(), 4)
    );
    let join = results
        .iter()
        .find(|r| r["ruleId"] == "join-token-invalid")
        .expect("join finding");
    assert_eq!(at(join), ("logs/join.log".into(), 2));
    let (uri, line) = at(find("node-not-ready", "cpu-node-03"));
    assert_eq!(uri, SAMPLE);
    let sample = std::fs::read_to_string(root(SAMPLE)).expect("fixture");
    let object: String = sample.lines().skip(line - 1).take(40).collect();
    assert!(
        object.contains("\"kind\": \"Node\"") && object.contains("cpu-node-03"),
        "{object}"
    );
    // fingerprints are stable across runs
    let again: Value = serde_json::from_str(&to_sarif(&report).expect("sarif")).expect("json");
    assert_eq!(doc["runs"][0]["results"], again["runs"][0]["results"]);
}

#[test]
fn junit_has_one_case_per_rule_and_subject_and_fails_errors_and_warnings() {
    let (_, report) = report();
    let xml = to_junit(&report);
    assert!(xml.starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cube-diagnose\""
    ));
    let cases = xml.matches("<testcase ").count();
    let failures = xml.matches("<failure ").count();
    let mut pairs = std::collections::BTreeSet::new();
    for f in &report.findings {
        pairs.insert((f.rule_id.clone(), f.subject.display_name()));
    }
    let failing: std::collections::BTreeSet<_> = report
        .findings
        .iter()
        .filter(|f| f.severity >= cube_diagnose::Severity::Warning)
        .map(|f| (f.rule_id.clone(), f.subject.display_name()))
        .collect();
    let silent_rules = report
        .rules
        .iter()
        .filter(|r| !report.findings.iter().any(|f| f.rule_id == r.id))
        .count();
    assert_eq!(
        cases,
        pairs.len() + silent_rules + report.input_problems.len()
    );
    assert_eq!(failures, failing.len());
    assert!(xml.contains("classname=\"node-not-ready\" name=\"Node/cpu-node-03\""));
    assert!(xml.contains(&format!("tests=\"{cases}\" failures=\"{failures}\"")));
    // well-formed enough: every opened suite and case is closed, no raw '<' in text
    assert_eq!(
        xml.matches("<testsuite ").count(),
        xml.matches("</testsuite>").count()
    );
}

#[test]
fn json_output_validates_with_a_real_validator_too() {
    let (_, report) = report();
    let schema: Value =
        serde_json::from_str(cube_diagnose::render::json::SCHEMA).expect("schema JSON");
    let v = jsonschema::draft202012::new(&schema).expect("findings schema compiles");
    let doc: Value = serde_json::from_str(&cube_diagnose::render::to_json(&report).expect("json"))
        .expect("json");
    let errors: Vec<String> = v
        .iter_errors(&doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(
        doc["findings"][0]["location"]["line"]
            .as_u64()
            .is_some_and(|l| l >= 1)
    );
}
