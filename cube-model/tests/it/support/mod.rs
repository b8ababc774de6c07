//! Helpers shared by cube-model's node fixture tests (`node_fixtures.rs`, `node_text_fixtures.rs`).

use std::path::Path;

/// `testdata/fixtures/nodes` of the repository.
pub const NODES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/fixtures/nodes");

/// The `expected_diagnosis` of the `<file>.meta.json` next to node fixture `file` (empty when the
/// field is absent; panics when the meta file is missing or not JSON: test helper).
pub fn expected_diagnosis(file: &str) -> String {
    let meta = Path::new(NODES).join(format!("{file}.meta.json"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(meta).unwrap()).unwrap();
    v["expected_diagnosis"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}
