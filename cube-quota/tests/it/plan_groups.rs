//! Resource-group plans: shares, explicit zero quotas, GPU keys, pool limits, manifests as YAML,
//! the re-split check, and the invariant that namespace quotas never exceed the group's.

use cube_model::objects::{Node, Pod, ResourceQuota, ResourceQuotaStatus};
use cube_model::{ClusterSnapshot, Quantity, ResourceGroup, ResourceList};
use cube_quota::plan::{
    Manifest, PlanError, StepKind, manifests_to_json, plan_group, plan_groups, resplit_check,
};
use proptest::prelude::*;

fn example() -> ResourceGroup {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cube-model/examples-data/resource-groups.yaml"
    );
    let text = std::fs::read_to_string(path).expect("example group");
    ResourceGroup::from_yaml(&text).expect("example parses")
}

fn q(s: &str) -> Quantity {
    s.parse().expect("quantity")
}

fn group(yaml: &str) -> ResourceGroup {
    ResourceGroup::from_yaml(yaml).expect("group yaml")
}

const SMALL: &str = r#"
name: nlp
owner: bob
members:
  - {name: bob, role: admin}
  - {name: ci, kind: ServiceAccount, role: developer}
quota:
  - name: compute
    hard:
      requests.cpu: "10"
      requests.memory: 100Gi
      requests.nvidia.com/gpu: "5"
namespaces:
  - {name: nlp-train, sharePercent: 60}
  - {name: nlp-eval, sharePercent: 40}
  - {name: nlp-sandbox}
priority:
  className: nlp-high
  value: 1000
"#;

#[test]
fn example_group_plan() {
    let g = example();
    let plan = plan_group(&g, None).expect("plan");
    let find = |ns: &str, name: &str| {
        plan.quotas
            .iter()
            .find(|p| p.namespace == ns && p.name == name)
            .unwrap_or_else(|| panic!("{ns}/{name}"))
    };
    let train = find("vision-train", "team-vision-compute");
    assert_eq!(train.hard.get("requests.cpu"), Some(&q("150")));
    assert_eq!(train.hard.get("requests.nvidia.com/gpu"), Some(&q("12")));
    assert_eq!(train.hard.get("pods"), Some(&q("375")));
    let serve = find("vision-serve", "team-vision-high-priority");
    assert_eq!(serve.hard.get("requests.cpu"), Some(&q("10")));
    assert_eq!(serve.hard.get("requests.nvidia.com/gpu"), Some(&q("1")));
    assert!(serve.scope_selector.is_some());
    let train_high = find("vision-train", "team-vision-high-priority");
    assert_eq!(train_high.hard.get("requests.cpu"), Some(&q("30")));
    assert_eq!(
        train_high.hard.get("requests.nvidia.com/gpu"),
        Some(&q("3"))
    );

    let kinds: Vec<&str> = plan
        .manifests
        .iter()
        .map(|m| match m {
            Manifest::Namespace(_) => "Namespace",
            Manifest::PriorityClass(_) => "PriorityClass",
            Manifest::ResourceQuota(_) => "ResourceQuota",
            Manifest::LimitRange(_) => "LimitRange",
            Manifest::Role(_) => "Role",
            Manifest::RoleBinding(_) => "RoleBinding",
            _ => "other",
        })
        .collect();
    // 2 namespaces, 1 class, 2 buckets x 2 namespaces, 2 LimitRanges, 3 roles x 2 namespaces.
    assert_eq!(kinds.iter().filter(|k| **k == "Namespace").count(), 2);
    assert_eq!(kinds.iter().filter(|k| **k == "PriorityClass").count(), 1);
    assert_eq!(kinds.iter().filter(|k| **k == "ResourceQuota").count(), 4);
    assert_eq!(kinds.iter().filter(|k| **k == "LimitRange").count(), 2);
    assert_eq!(kinds.iter().filter(|k| **k == "Role").count(), 6);
    assert_eq!(kinds.iter().filter(|k| **k == "RoleBinding").count(), 6);
    // Apply order: namespaces first, bindings last.
    assert_eq!(kinds.first(), Some(&"Namespace"));
    assert_eq!(kinds.last(), Some(&"RoleBinding"));

    let yaml = plan.to_yaml().expect("yaml");
    assert_eq!(yaml.matches("---\n").count(), plan.manifests.len());
    assert!(yaml.contains("apiVersion: scheduling.k8s.io/v1"));
    assert!(yaml.contains("kind: ResourceQuota"));
    assert!(yaml.contains("requests.nvidia.com/gpu"));
    assert!(yaml.contains("scopeSelector"));
    assert!(yaml.contains("team-vision-high"));
    // Every document reads back as a Kubernetes object of the same kind.
    let docs: Vec<&str> = yaml
        .split("---\n")
        .filter(|d| !d.trim().is_empty())
        .collect();
    assert_eq!(docs.len(), plan.manifests.len());
    for (doc, kind) in docs.iter().zip(&kinds) {
        let v: serde_json::Value = serde_saphyr::from_str(doc).expect("doc parses");
        assert_eq!(v["kind"].as_str(), Some(*kind), "{doc}");
    }
    let pc: k8s_openapi::api::scheduling::v1::PriorityClass =
        serde_saphyr::from_str(docs[2]).expect("PriorityClass reads back");
    assert_eq!(pc.metadata.name.as_deref(), Some("team-vision-high"));
    let list = manifests_to_json(&plan.manifests).expect("json");
    assert_eq!(
        list["items"].as_array().map(Vec::len),
        Some(plan.manifests.len())
    );
}

#[test]
fn every_namespace_gets_every_key_zero_without_share() {
    let plan = plan_group(&group(SMALL), None).expect("plan");
    let sandbox = plan
        .quotas
        .iter()
        .find(|p| p.namespace == "nlp-sandbox")
        .expect("sandbox quota");
    assert_eq!(sandbox.hard.len(), 3);
    assert!(sandbox.hard.iter().all(|(_, v)| v.is_zero()));
    let train = plan
        .quotas
        .iter()
        .find(|p| p.namespace == "nlp-train")
        .expect("train");
    // 60% of 5 GPUs rounds down to 3; 40% to 2.
    assert_eq!(train.hard.get("requests.nvidia.com/gpu"), Some(&q("3")));
    assert_eq!(train.hard.get("requests.cpu"), Some(&q("6")));
    // ServiceAccount subjects live in the namespace.
    let yaml = plan.to_yaml().expect("yaml");
    assert!(yaml.contains("kind: ServiceAccount"));
    assert!(!plan.warnings.iter().any(|w| w.contains("no PriorityClass")));
}

#[test]
fn shares_above_the_bucket_are_refused() {
    let g = group(&SMALL.replace("sharePercent: 40", "sharePercent: 41"));
    match plan_group(&g, None) {
        Err(PlanError::InvalidGroup { .. }) | Err(PlanError::ShareExceedsBucket { .. }) => {}
        other => panic!("{other:?}"),
    }
    // Explicit amounts count too.
    let g = group(&SMALL.replace(
        "{name: nlp-sandbox}",
        "{name: nlp-sandbox, buckets: {compute: {requests.nvidia.com/gpu: \"1\"}}}",
    ));
    let err = plan_group(&g, None).expect_err("6 > 5 GPUs");
    assert!(err.to_string().contains("requests.nvidia.com/gpu"), "{err}");
}

#[test]
fn bare_gpu_key_is_planned_as_requests_key() {
    let g = group(&SMALL.replace("requests.nvidia.com/gpu: \"5\"", "nvidia.com/gpu: \"5\""));
    let plan = plan_group(&g, None).expect("plan");
    assert!(
        plan.quotas
            .iter()
            .all(|p| p.hard.contains("requests.nvidia.com/gpu")
                && !p.hard.contains("nvidia.com/gpu"))
    );
    assert!(
        plan.warnings.iter().any(|w| w.contains("never charged")),
        "{:?}",
        plan.warnings
    );
}

#[test]
fn quota_without_priority_and_namespace_in_two_groups() {
    let g = group(&SMALL.replace("priority:\n  className: nlp-high\n  value: 1000\n", ""));
    let plan = plan_group(&g, None).expect("plan");
    assert!(
        plan.warnings
            .iter()
            .any(|w| w.contains("quota but no PriorityClass"))
    );
    let mut other = group(SMALL);
    other.name = "nlp2".into();
    let errs = plan_groups(&[group(SMALL), other], None).expect_err("shared namespace");
    assert!(
        errs.iter()
            .any(|e| matches!(e, PlanError::NamespaceInTwoGroups { .. }))
    );
}

fn gpu_node(name: &str, gpus: &str, org: &str) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    n.metadata.labels.insert("org".into(), org.into());
    n.status.allocatable = [("nvidia.com/gpu", q(gpus)), ("cpu", q("64"))]
        .into_iter()
        .collect();
    n
}

#[test]
fn pinned_gpus_must_fit_the_pool() {
    let pinned = format!("{SMALL}placement:\n  nodeSelector:\n    org: nlp\n");
    let g = group(&pinned);
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![gpu_node("a", "4", "nlp"), gpu_node("b", "8", "other")];
    match plan_group(&g, Some(&s)) {
        Err(PlanError::PoolGpuExceeded {
            planned,
            allocatable,
            ..
        }) => {
            assert_eq!((planned, allocatable), (5, 4));
        }
        other => panic!("{other:?}"),
    }
    s.nodes.push(gpu_node("c", "1", "nlp"));
    assert!(plan_group(&g, Some(&s)).is_ok());
}

fn running(ns: &str, name: &str, cpu: &str, gpu: &str) -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = ns.into();
    p.metadata.name = name.into();
    p.spec.node_name = "a".into();
    p.status.phase = "Running".into();
    let req: ResourceList = [("cpu", q(cpu)), ("nvidia.com/gpu", q(gpu))]
        .into_iter()
        .collect();
    p.spec.containers.push(cube_model::objects::Container {
        name: "c".into(),
        resources: cube_model::objects::ResourceRequirements {
            requests: req.clone(),
            limits: req,
        },
        ..Default::default()
    });
    p
}

#[test]
fn resplit_lowers_first_and_reports_namespaces_left_over_quota() {
    let plan = plan_group(&group(SMALL), None).expect("plan");
    let mut s = ClusterSnapshot::default();
    // nlp-eval had 4 GPUs and 2 cpu and uses 3 GPUs; the new split gives it 2 GPUs, 4 cpu.
    let mut eval = ResourceQuota::default();
    eval.metadata.namespace = "nlp-eval".into();
    eval.metadata.name = "nlp-compute".into();
    eval.spec.hard = [
        ("requests.cpu", q("2")),
        ("requests.memory", q("40Gi")),
        ("requests.nvidia.com/gpu", q("4")),
    ]
    .into_iter()
    .collect();
    // nlp-train had less of everything: only raises.
    let mut train = eval.clone();
    train.metadata.namespace = "nlp-train".into();
    train.spec.hard = [
        ("requests.cpu", q("1")),
        ("requests.memory", q("1Gi")),
        ("requests.nvidia.com/gpu", q("1")),
    ]
    .into_iter()
    .collect();
    train.status = Some(ResourceQuotaStatus {
        hard: train.spec.hard.clone(),
        used: [("requests.nvidia.com/gpu", q("1"))].into_iter().collect(),
    });
    s.resource_quotas = vec![train, eval];
    s.pods = vec![
        running("nlp-eval", "e1", "1", "2"),
        running("nlp-eval", "e2", "1", "1"),
    ];
    let r = resplit_check(&plan, &s);
    let steps: Vec<(&str, StepKind)> = r
        .steps
        .iter()
        .map(|st| (st.namespace.as_str(), st.kind))
        .collect();
    assert_eq!(
        steps,
        vec![
            ("nlp-eval", StepKind::Lower),
            ("nlp-sandbox", StepKind::Create),
            ("nlp-train", StepKind::Raise),
            ("nlp-eval", StepKind::Raise),
        ]
    );
    // The lowering step of nlp-eval only lowers: cpu stays at 2 until the raise step.
    assert_eq!(r.steps[0].hard.get("requests.cpu"), Some(&q("2")));
    assert_eq!(
        r.steps[0].hard.get("requests.nvidia.com/gpu"),
        Some(&q("2"))
    );
    assert_eq!(r.steps[3].hard.get("requests.cpu"), Some(&q("4")));
    assert_eq!(r.over_quota.len(), 1);
    let o = &r.over_quota[0];
    assert_eq!(
        (o.namespace.as_str(), o.resource.as_str()),
        ("nlp-eval", "requests.nvidia.com/gpu")
    );
    assert_eq!((o.used.clone(), o.hard.clone()), (q("3"), q("2")));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn namespace_quotas_never_exceed_the_group(
        g in cube_model::proptest::resource_group(cube_model::proptest::GroupParams {
            allow_invalid_shares: true,
            ..Default::default()
        }),
    ) {
        // The public generator (`cube_model::proptest`): one bucket `compute` on requests.cpu,
        // requests.memory and requests.nvidia.com/gpu; namespaces with a share percentage and
        // sometimes explicit amounts, which may add up to more than the bucket.
        let shares = &g.namespaces;
        let yaml = format!("{g:?}");
        if let Ok(plan) = plan_group(&g, None) {
            for key in ["requests.cpu", "requests.memory", "requests.nvidia.com/gpu"] {
                let mut sum = Quantity::ZERO;
                for p in &plan.quotas {
                    let v = p.hard.get(key).expect("every key in every namespace");
                    prop_assert!(!v.is_negative());
                    sum = sum.checked_add(v).expect("sum");
                }
                let hard = g.quota[0].hard.get(key).expect("hard");
                prop_assert!(sum <= *hard, "{key}: {sum} > {hard}");
            }
            prop_assert_eq!(plan.quotas.len(), shares.len());
        } else {
            // Refused only when the raw shares really exceed the bucket (explicit amounts plus
            // percentages, as validate() and plan compute them).
            let over = ["requests.cpu", "requests.memory", "requests.nvidia.com/gpu"].iter().any(|key| {
                let hard_m = g.quota[0].hard.get(key).map(|q| i128::from(q.milli_value())).unwrap_or(0);
                let mut explicit = 0i128;
                let mut pct = 0i128;
                for ns in &g.namespaces {
                    if let Some(l) = ns.buckets.get("compute") {
                        explicit += l.get(key).map(|q| i128::from(q.milli_value())).unwrap_or(0);
                    } else if let Some(p) = ns.share_percent {
                        pct += i128::from(p);
                    }
                }
                explicit * 100 + pct * hard_m > hard_m * 100
            });
            prop_assert!(over, "refused although shares fit: {yaml}");
        }
    }
}

/// Regression: shares were computed through `milli_value()`, which saturates at `i64::MAX`, so
/// `20Pi` split 50/50 gave `4611686018427387` per namespace instead of `10Pi`.
#[test]
fn huge_quantities_split_exactly() {
    #[track_caller]
    fn check(hard: &str, expected: &str) {
        let yaml = format!(
            "name: big\nowner: bob\nquota:\n  - name: s\n    hard:\n      requests.storage: \"{hard}\"\n      requests.cpu: \"{hard}\"\nnamespaces:\n  - {{name: a, sharePercent: 50}}\n  - {{name: b, sharePercent: 50}}\n"
        );
        let plan = plan_group(&group(&yaml), None).expect("plan");
        assert_eq!(plan.quotas.len(), 2);
        for p in &plan.quotas {
            assert_eq!(
                p.hard
                    .get("requests.storage")
                    .map(ToString::to_string)
                    .as_deref(),
                Some(expected),
                "{hard} storage in {}",
                p.namespace
            );
            assert_eq!(
                p.hard
                    .get("requests.cpu")
                    .map(ToString::to_string)
                    .as_deref(),
                Some(expected),
                "{hard} cpu in {}",
                p.namespace
            );
        }
    }
    check("20Pi", "10Pi");
    check("9Pi", "4608Ti");
    check("100Pi", "50Pi");
    check("1e16", "5e15");
    check("1e400", "5e399");
    check("7Ei", "3584Pi");
}

/// Regression: a placement that selects no node of the snapshot failed with "node pool
/// allocates only 0"; it is now a warning naming the selector and the node counts.
#[test]
fn placement_matching_no_node_is_a_warning() {
    let pinned = format!("{SMALL}placement:\n  nodeSelector:\n    org: nlp\n");
    let g = group(&pinned);
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![gpu_node("a", "4", "vision"), gpu_node("b", "8", "other")];
    let plan = plan_group(&g, Some(&s)).expect("plan despite an empty pool");
    let w: Vec<_> = plan
        .warnings
        .iter()
        .filter(|w| w.contains("matched 0 of 2 nodes"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", plan.warnings);
    assert!(w[0].contains("nodeSelector {org=nlp}"), "{}", w[0]);
    // A pool that exists but is too small names the selector and the node counts.
    s.nodes.push(gpu_node("c", "1", "nlp"));
    let e = plan_group(&g, Some(&s)).expect_err("5 GPUs in a 1-GPU pool");
    let text = e.to_string();
    assert!(text.contains("1 of 3 nodes"), "{text}");
    assert!(text.contains("nodeSelector {org=nlp}"), "{text}");
}

/// Regression: an unenforced key (`nvidia.com/gpu`) was warned about twice (by validate and
/// by the key rewrite).
#[test]
fn each_warning_is_given_once() {
    let g = group(
        "name: g\nowner: o\nquota:\n  - name: b\n    hard:\n      nvidia.com/gpu: \"4\"\n      requests.cpu: \"4\"\nnamespaces:\n  - {name: ns1, sharePercent: 60}\n",
    );
    let plan = plan_group(&g, None).expect("plan");
    let about_gpu: Vec<_> = plan
        .warnings
        .iter()
        .filter(|w| w.contains("nvidia.com/gpu"))
        .collect();
    assert_eq!(about_gpu.len(), 1, "{:?}", plan.warnings);
    assert!(about_gpu[0].contains("planned as requests.nvidia.com/gpu"));
    let mut sorted = plan.warnings.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), plan.warnings.len(), "{:?}", plan.warnings);
}

/// Regression: the group's placement appeared in no manifest, so nothing enforced it.
#[test]
fn placement_is_rendered_as_namespace_annotations() {
    let g = group(&format!(
        "{SMALL}placement:\n  nodeSelector:\n    org: nlp\n    gpu: \"true\"\n  tolerations:\n    - {{key: gpu, operator: Exists, effect: NoSchedule}}\n"
    ));
    let plan = plan_group(&g, None).expect("plan");
    let mut seen = 0;
    for m in &plan.manifests {
        if let Manifest::Namespace(ns) = m {
            seen += 1;
            let a = ns.metadata.annotations.as_ref().expect("annotations");
            assert_eq!(
                a.get("scheduler.alpha.kubernetes.io/node-selector")
                    .map(String::as_str),
                Some("gpu=true,org=nlp")
            );
            let tol: serde_json::Value = serde_json::from_str(
                a.get("scheduler.alpha.kubernetes.io/defaultTolerations")
                    .expect("tolerations"),
            )
            .expect("json");
            assert_eq!(tol[0]["key"], "gpu");
            assert_eq!(tol[0]["operator"], "Exists");
            assert_eq!(tol[0]["effect"], "NoSchedule");
        }
    }
    assert_eq!(seen, 3);
    assert!(
        plan.warnings
            .iter()
            .any(|w| w.contains("PodNodeSelector") && w.contains("PodTolerationRestriction")),
        "{:?}",
        plan.warnings
    );
}

/// Regression: problems were reported stage by stage (an invalid field hid the shares above
/// a bucket; the first bucket over its hard hid the next one).
#[test]
fn every_problem_is_reported_at_once() {
    let two_buckets = "name: g\nowner: o\nquota:\n  - name: a\n    hard: {requests.cpu: \"4\"}\n  - name: b\n    hard: {requests.memory: 4Gi}\nnamespaces:\n  - name: ns1\n    buckets:\n      a: {requests.cpu: \"5\"}\n      b: {requests.memory: 5Gi}\n";
    let errors = cube_quota::plan::plan_group_all(&group(two_buckets), None).expect_err("both");
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|t| t.contains("bucket \"a\"")), "{text:?}");
    assert!(text.iter().any(|t| t.contains("bucket \"b\"")), "{text:?}");
    // An invalid field plus a share above its bucket: both in the one error.
    let invalid = two_buckets.replace("owner: o\n", "owner: \"\"\n");
    let errors = plan_groups(&[group(&invalid)], None).expect_err("invalid");
    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(text.iter().any(|t| t.contains("owner")), "{text:?}");
    assert!(
        text.iter().any(|t| t.contains("owner")
            && t.contains("quota[0].hard[requests.cpu]")
            && t.contains("quota[1].hard[requests.memory]")),
        "{text:?}"
    );
}
