//! Conformance: every case of `testdata/vectors/limitrange.json`, in two modes.
//!
//! 1. Upstream unit-test semantics: the LimitRange exactly as written, LimitRanger alone
//!    (the vector's `admitted` / `expected_*`).
//! 2. Real v1.36 semantics, for every case the vector checked on a live server
//!    (`real_v1_36.observed`): the full what-if pipeline, which stores the LimitRange
//!    API-defaulted and runs pod validation. Known divergences of mode 1 from the live server
//!    (`changes_if_limitrange_api_defaulted`, merge-only cases) are exactly where the two
//!    expectations differ, and both are asserted.
//!
//! Aggregated messages (`[a, b]`) are compared as sets: upstream's order follows Go map
//! iteration and is not stable.

use std::collections::BTreeSet;

use cube_model::objects::{Container, LimitRange, PersistentVolumeClaim, Pod};
use cube_model::{ClusterSnapshot, ResourceList};
use cube_quota::limitrange::{
    LIMIT_RANGER_ANNOTATION, default_limit_range, default_pod, validate_pod, validate_pvc,
};
use cube_quota::whatif::{AdmitOptions, Submission, Verdict, admit};
use proptest::prelude::*;
use serde_json::Value;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/vectors/limitrange.json"
);

fn parse<T: serde::de::DeserializeOwned>(v: &Value) -> T {
    serde_json::from_value(v.clone()).expect("vector object")
}

/// The parts of an aggregated message: `[a, b]` -> {a, b}; a single message -> {it}.
fn parts(msg: &str) -> BTreeSet<String> {
    let (prefix, body) = match msg.find(": [") {
        Some(i) if msg.ends_with(']') => (&msg[..i + 2], &msg[i + 3..msg.len() - 1]),
        _ => return [msg.to_owned()].into_iter().collect(),
    };
    let mut out: Vec<String> = Vec::new();
    for piece in body.split(", ") {
        match out.last_mut() {
            Some(last) if piece.starts_with("but ") => {
                last.push_str(", ");
                last.push_str(piece);
            }
            _ => out.push(piece.to_owned()),
        }
    }
    out.into_iter().map(|p| format!("{prefix}{p}")).collect()
}

#[track_caller]
fn same_message(case: &str, got: &str, expected: &str) {
    assert_eq!(parts(got), parts(expected), "case {case:?}: got {got:?}");
}

fn containers_match(case: &str, got: &[Container], expected: &Value) {
    let exp = expected.as_array().expect("containers");
    assert_eq!(got.len(), exp.len(), "case {case:?}");
    for (g, e) in got.iter().zip(exp) {
        let res = &e["resources"];
        let req: ResourceList = res.get("requests").map(parse).unwrap_or_default();
        let lim: ResourceList = res.get("limits").map(parse).unwrap_or_default();
        assert_eq!(
            g.resources.requests, req,
            "case {case:?}: requests of {}",
            g.name
        );
        assert_eq!(
            g.resources.limits, lim,
            "case {case:?}: limits of {}",
            g.name
        );
        // exact printed form too
        for (k, v) in res
            .get("requests")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            assert_eq!(
                g.resources
                    .requests
                    .get(k)
                    .map(ToString::to_string)
                    .as_deref(),
                v.as_str(),
                "case {case:?}"
            );
        }
    }
}

/// Mode 1: LimitRanger alone with the LimitRange as written.
fn upstream_mode(c: &Value) {
    let name = c["name"].as_str().expect("name");
    let lr: LimitRange = parse(&c["limitRange"]);
    match c["kind"].as_str().expect("kind") {
        "pod_validate" => {
            let pod: Pod = parse(&c["pod"]);
            let res = validate_pod(&lr, &pod);
            assert_eq!(
                res.is_ok(),
                c["admitted"].as_bool().expect("admitted"),
                "case {name:?}: {res:?}"
            );
            if let Err(e) = res {
                same_message(
                    name,
                    &e,
                    c["expected_error_derived"].as_str().expect("error"),
                );
                let full = format!("pods \"{}\" is forbidden: {e}", pod.metadata.name);
                same_message(
                    name,
                    &full,
                    c["expected_admission_message_derived"]
                        .as_str()
                        .expect("msg"),
                );
            }
        }
        "pod_default" => {
            let mut pod: Pod = parse(&c["pod"]);
            let ann = default_pod(&lr, &mut pod);
            containers_match(name, &pod.spec.containers, &c["expected_containers"]);
            if let Some(exp) = c.get("expected_init_containers") {
                containers_match(name, &pod.spec.init_containers, exp);
            }
            let exp_ann = c["expected_annotation"]
                .get(LIMIT_RANGER_ANNOTATION)
                .and_then(Value::as_str);
            assert_eq!(ann.as_deref(), exp_ann, "case {name:?}");
            assert_eq!(
                pod.metadata.annotations.get(LIMIT_RANGER_ANNOTATION),
                exp_ann
            );
        }
        "pod_default_and_validate" => {
            let mut pod: Pod = parse(&c["pod"]);
            default_pod(&lr, &mut pod);
            assert_eq!(
                validate_pod(&lr, &pod).is_ok(),
                c["admitted"].as_bool().expect("admitted"),
                "case {name:?}"
            );
            for ctr in pod.spec.containers.iter().chain(&pod.spec.init_containers) {
                for (k, v) in c["expected_container_strings"]
                    .as_object()
                    .expect("strings")
                {
                    let (side, res) = k.split_once('.').expect("key");
                    let list = if side == "limits" {
                        &ctr.resources.limits
                    } else {
                        &ctr.resources.requests
                    };
                    assert_eq!(
                        list.get(res).map(ToString::to_string).as_deref(),
                        v.as_str(),
                        "case {name:?}: {k}"
                    );
                }
            }
        }
        "pvc_validate" => {
            let pvc: PersistentVolumeClaim = parse(&c["pvc"]);
            let res = validate_pvc(&lr, &pvc);
            assert_eq!(
                res.is_ok(),
                c["admitted"].as_bool().expect("admitted"),
                "case {name:?}"
            );
            if let Err(e) = res {
                same_message(
                    name,
                    &e,
                    c["expected_error_derived"].as_str().expect("error"),
                );
            }
        }
        other => panic!("unknown kind {other}"),
    }
}

/// Mode 2: the real server's observation, through the full pipeline.
fn real_mode(c: &Value) -> bool {
    let Some(obs) = c.pointer("/real_v1_36/observed").filter(|o| !o.is_null()) else {
        return false;
    };
    let name = c["name"].as_str().expect("name");
    let mut lr: LimitRange = parse(&c["limitRange"]);
    lr.metadata.namespace = "test".into();
    let mut snap = ClusterSnapshot::default();
    snap.limit_ranges.push(lr);
    let sub = if let Some(p) = c.get("pod") {
        let mut pod: Pod = parse(p);
        // The live run renamed init containers `init-<name>` (duplicate names are invalid).
        let renamed = obs
            .get("initContainers")
            .and_then(Value::as_array)
            .is_some_and(|a| {
                a.iter()
                    .any(|i| i["name"].as_str().is_some_and(|n| n.starts_with("init-")))
            });
        if renamed
            || c.pointer("/real_v1_36/note")
                .and_then(Value::as_str)
                .is_some_and(|n| n.contains("renamed init-"))
        {
            for ic in &mut pod.spec.init_containers {
                ic.name = format!("init-{}", ic.name);
            }
        }
        Submission::pod(pod)
    } else {
        let mut pvc: PersistentVolumeClaim = parse(&c["pvc"]);
        pvc.spec.access_modes = vec!["ReadWriteOnce".into()];
        Submission::PersistentVolumeClaim(pvc)
    };
    let out = admit(&sub, "test", &snap, &AdmitOptions::default());
    match (obs["result"].as_str().expect("result"), &out.verdict) {
        ("admitted", Verdict::Admitted { .. }) => {
            if let Some(stored) = out.replicas[0].stored.as_ref() {
                if let Some(exp) = obs.get("containers") {
                    containers_match(name, &stored.spec.containers, exp);
                }
                if let Some(exp) = obs.get("initContainers") {
                    containers_match(name, &stored.spec.init_containers, exp);
                }
                assert_eq!(
                    stored.metadata.annotations.get(LIMIT_RANGER_ANNOTATION),
                    obs.get("annotation").and_then(Value::as_str),
                    "case {name:?}: annotation"
                );
            }
        }
        ("rejected", Verdict::Rejected(r)) => {
            assert_eq!(
                Some(i64::from(r.code)),
                obs["code"].as_i64(),
                "case {name:?}: {r:?}"
            );
            same_message(name, &r.message, obs["message"].as_str().expect("message"));
        }
        (want, got) => panic!("case {name:?}: real server {want}, pipeline {got:?}"),
    }
    true
}

#[test]
fn every_limitrange_vector() {
    let text = std::fs::read_to_string(VECTORS).expect("read vectors");
    let file: Value = serde_json::from_str(&text).expect("parse");
    let cases = file["cases"].as_array().expect("cases");
    assert!(cases.len() >= 25);
    let mut real = 0;
    for c in cases {
        upstream_mode(c);
        if real_mode(c) {
            real += 1;
        }
    }
    // every case was checked on the live server (real_v1_36_summary.checked = 25)
    assert_eq!(
        real,
        file["real_v1_36_summary"]["checked"]
            .as_u64()
            .expect("checked") as usize
    );
}

/// Lists of cpu, memory and GPUs: the public generator (`cube_model::proptest`).
fn arb_list() -> impl Strategy<Value = ResourceList> {
    cube_model::proptest::small_resource_list()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// LimitRanger defaulting is idempotent, also after the stored-object defaulting.
    #[test]
    fn defaulting_is_idempotent(
        max in arb_list(), min in arb_list(), def in arb_list(), defreq in arb_list(),
        reqs in prop::collection::vec((arb_list(), arb_list()), 1..4),
        stored in any::<bool>(),
    ) {
        let mut lr = LimitRange::default();
        lr.spec.limits.push(cube_model::objects::LimitRangeItem {
            type_: "Container".into(), max, min, default: def, default_request: defreq, ..Default::default()
        });
        if stored {
            default_limit_range(&mut lr);
            let once = lr.clone();
            default_limit_range(&mut lr);
            prop_assert_eq!(&lr, &once);
        }
        let mut pod = Pod::default();
        for (i, (r, l)) in reqs.into_iter().enumerate() {
            let mut c = Container { name: format!("c{i}"), ..Default::default() };
            c.resources.requests = r;
            c.resources.limits = l;
            pod.spec.containers.push(c);
        }
        default_pod(&lr, &mut pod);
        let once = pod.clone();
        prop_assert_eq!(default_pod(&lr, &mut pod), None);
        prop_assert_eq!(pod, once);
    }
}
