//! Conformance: every case of `testdata/vectors/pod_requests.json`.

use cube_model::ResourceList;
use cube_model::objects::{Pod, PodSpec};
use cube_quota::requests::{PodResourcesOptions, pod_limits, pod_requests};
use serde::Deserialize;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/vectors/pod_requests.json"
);

#[derive(Deserialize)]
struct File {
    cases: Vec<Case>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Options {
    exclude_overhead: bool,
    skip_pod_level_resources: bool,
    use_status_resources: bool,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    pod: PodSpec,
    #[serde(default)]
    options: Options,
    expected_requests: Option<ResourceList>,
    expected_limits: Option<ResourceList>,
}

#[track_caller]
fn check(name: &str, what: &str, got: &ResourceList, expected: &ResourceList) {
    // ResourceList equality is by quantity value (Cmp), as upstream compares.
    assert_eq!(got, expected, "case {name:?}: {what}");
}

#[test]
fn every_pod_requests_vector() {
    let text = std::fs::read_to_string(VECTORS).expect("read vectors");
    let file: File = serde_json::from_str(&text).expect("parse vectors");
    assert!(file.cases.len() >= 25, "vector file shrank");
    let mut checked = 0;
    for case in &file.cases {
        let pod = Pod {
            spec: case.pod.clone(),
            ..Default::default()
        };
        let opts = PodResourcesOptions {
            exclude_overhead: case.options.exclude_overhead,
            skip_pod_level_resources: case.options.skip_pod_level_resources,
            use_status_resources: case.options.use_status_resources,
        };
        assert!(case.expected_requests.is_some() || case.expected_limits.is_some());
        if let Some(exp) = &case.expected_requests {
            check(&case.name, "requests", &pod_requests(&pod, &opts), exp);
        }
        if let Some(exp) = &case.expected_limits {
            check(&case.name, "limits", &pod_limits(&pod, &opts), exp);
        }
        checked += 1;
    }
    assert_eq!(checked, file.cases.len());
}
