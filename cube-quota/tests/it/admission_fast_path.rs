//! The admission fast path (`NamespaceAdmission::admit_pod`) gives exactly the answers of the
//! detailed pipeline (`admit_pod_detailed`, what `admit` reports): the same decision, the same
//! refusal text, and the same quota usage after every pod, printed the same way.

use cube_model::objects::{
    Container, LimitRange, LimitRangeItem, Namespace, ObjectMeta, Pod, PriorityClass,
    ResourceQuota, ResourceQuotaSpec, ResourceQuotaStatus, ScopeSelector,
    ScopedResourceSelectorRequirement,
};
use cube_model::{ClusterSnapshot, Quantity, ResourceList};
use cube_quota::admission::NamespaceAdmission;
use cube_quota::quota::QuotaAdmissionConfig;
use proptest::prelude::*;

struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const CPU: &[&str] = &["100m", "250m", "0.5", "1", "2", "0.0005", "1500u", "3"];
const MEMORY: &[&str] = &["64Mi", "128Mi", "1Gi", "1.5Gi", "1000M", "256Mi"];
const GPU: &[&str] = &["1", "2", "0"];

fn q(s: &str) -> Quantity {
    s.parse().expect("quantity")
}

fn list(g: &mut Gen, percent: u64) -> ResourceList {
    let mut l = ResourceList::new();
    if g.chance(percent) {
        l.insert("cpu", q(g.pick(CPU)));
    }
    if g.chance(percent) {
        l.insert("memory", q(g.pick(MEMORY)));
    }
    if g.chance(percent / 4) {
        l.insert("nvidia.com/gpu", q(g.pick(GPU)));
    }
    l
}

fn namespace(seed: u64) -> ClusterSnapshot {
    let mut g = Gen(seed | 1);
    let mut s = ClusterSnapshot::default();
    let ns = "team";
    let mut high = PriorityClass {
        value: 1000,
        ..PriorityClass::default()
    };
    high.metadata.name = "high".into();
    s.priority_classes.push(high);
    if g.chance(30) {
        let mut low = PriorityClass {
            value: 10,
            global_default: true,
            ..PriorityClass::default()
        };
        low.metadata.name = "low".into();
        s.priority_classes.push(low);
    }
    for i in 0..g.below(3) {
        let mut lr = LimitRange {
            metadata: ObjectMeta {
                name: format!("lr{i}"),
                namespace: ns.into(),
                ..ObjectMeta::default()
            },
            ..LimitRange::default()
        };
        lr.spec.limits.push(LimitRangeItem {
            type_: "Container".into(),
            default: list(&mut g, 40),
            default_request: list(&mut g, 40),
            max: if g.chance(40) {
                [("cpu", q("2")), ("memory", q("2Gi"))]
                    .into_iter()
                    .collect()
            } else {
                ResourceList::new()
            },
            min: if g.chance(20) {
                [("cpu", q("100m"))].into_iter().collect()
            } else {
                ResourceList::new()
            },
            max_limit_request_ratio: if g.chance(20) {
                [("cpu", q("4"))].into_iter().collect()
            } else {
                ResourceList::new()
            },
        });
        if g.chance(30) {
            lr.spec.limits.push(LimitRangeItem {
                type_: "Pod".into(),
                max: [("cpu", q(g.pick(&["2", "4"])))].into_iter().collect(),
                ..LimitRangeItem::default()
            });
        }
        s.limit_ranges.push(lr);
    }
    const KEYS: &[&str] = &[
        "requests.cpu",
        "limits.cpu",
        "cpu",
        "memory",
        "requests.memory",
        "limits.memory",
        "pods",
        "count/pods",
        "requests.nvidia.com/gpu",
        "nvidia.com/gpu",
        "limits.ephemeral-storage",
    ];
    for i in 0..g.below(3) {
        let mut hard = ResourceList::new();
        for _ in 0..1 + g.below(4) {
            let k = g.pick(KEYS);
            let v = match k {
                "pods" | "count/pods" | "requests.nvidia.com/gpu" | "nvidia.com/gpu" => {
                    g.pick(&["2", "3", "5", "100"])
                }
                k if k.contains("memory") => g.pick(&["1Gi", "4Gi", "100Gi"]),
                _ => g.pick(&["1", "2", "4", "100"]),
            };
            hard.insert(k, q(v));
        }
        let scope = match g.below(6) {
            0 => Some(("BestEffort", "Exists", vec![])),
            1 => Some(("NotBestEffort", "Exists", vec![])),
            2 => Some(("PriorityClass", "In", vec!["high".to_owned()])),
            3 => Some(("Terminating", "Exists", vec![])),
            _ => None,
        };
        let mut used = ResourceList::new();
        for k in hard.names() {
            used.insert(k.clone(), q(g.pick(&["0", "1", "500m"])));
        }
        s.resource_quotas.push(ResourceQuota {
            metadata: ObjectMeta {
                name: format!("q{i}"),
                namespace: ns.into(),
                ..ObjectMeta::default()
            },
            spec: ResourceQuotaSpec {
                hard: hard.clone(),
                scope_selector: scope.map(|(n, op, v)| ScopeSelector {
                    match_expressions: vec![ScopedResourceSelectorRequirement {
                        scope_name: n.into(),
                        operator: op.into(),
                        values: v,
                    }],
                }),
                ..ResourceQuotaSpec::default()
            },
            status: g.chance(70).then_some(ResourceQuotaStatus { hard, used }),
        });
    }
    if g.chance(20) {
        let mut n = Namespace::default();
        n.metadata.name = if g.chance(50) { ns } else { "elsewhere" }.into();
        if g.chance(30) {
            n.status.phase = "Terminating".into();
        }
        s.namespaces.push(n);
    }
    s
}

fn pod(g: &mut Gen, i: usize) -> Pod {
    let mut p = Pod::default();
    p.metadata.namespace = "team".into();
    p.metadata.name = if g.chance(3) {
        String::new()
    } else {
        format!("p{i}")
    };
    for c in 0..1 + g.below(3) {
        let mut r = cube_model::objects::ResourceRequirements::default();
        for (name, values, big) in [("cpu", CPU, "4"), ("memory", MEMORY, "4Gi")] {
            if g.chance(70) {
                let v = q(g.pick(values));
                match g.below(4) {
                    0 | 1 => {
                        r.requests.insert(name, v.clone());
                        r.limits.insert(name, v);
                    }
                    2 => {
                        r.requests.insert(name, v);
                    }
                    _ if g.chance(50) => {
                        r.requests.insert(name, v);
                        r.limits.insert(name, q(big));
                    }
                    _ => {
                        r.limits.insert(name, v);
                    }
                }
            }
        }
        if g.chance(20) {
            let v = q(g.pick(GPU));
            if g.chance(80) {
                r.requests.insert("nvidia.com/gpu", v.clone());
            }
            r.limits.insert("nvidia.com/gpu", v);
        }
        p.spec.containers.push(Container {
            name: format!("c{c}"),
            resources: r,
            ..Container::default()
        });
    }
    if g.chance(5) {
        p.spec.init_containers.push(Container {
            name: "init".into(),
            resources: cube_model::objects::ResourceRequirements {
                requests: list(g, 50),
                limits: ResourceList::new(),
            },
            ..Container::default()
        });
    }
    match g.below(10) {
        0 | 1 => p.spec.priority_class_name = "high".into(),
        2 => p.spec.priority_class_name = "nope".into(),
        3 => p.spec.priority = Some(5),
        _ => {}
    }
    if g.chance(20) {
        p.spec.active_deadline_seconds = Some(60);
    }
    p
}

fn used_texts(quotas: &[cube_quota::quota::QuotaState]) -> Vec<(String, Vec<(String, String)>)> {
    quotas
        .iter()
        .map(|q| {
            (
                q.name.clone(),
                q.used
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fast_path_agrees_with_the_detailed_pipeline(seed in any::<u64>(), pods in 1usize..8) {
        let snap = namespace(seed);
        let config = QuotaAdmissionConfig::default();
        let mut fast = NamespaceAdmission::new(&snap, "team", &config, None);
        let mut slow = fast.clone();
        let mut g = Gen(seed.rotate_left(17) | 1);
        for i in 0..pods {
            let p = pod(&mut g, i);
            let a = fast.admit_pod(&p);
            let b = slow.admit_pod_detailed(p.clone()).rejection;
            prop_assert_eq!(a.err(), b, "pod {}: {:?}", i, p.spec);
            prop_assert_eq!(used_texts(fast.quotas()), used_texts(slow.quotas()));
        }
    }
}

/// The generated cases do reach the fast path, admit and refuse.
#[test]
fn generated_cases_cover_the_fast_path() {
    let (mut fast_hits, mut admitted, mut refused) = (0u64, 0, 0);
    for seed in 0..300u64 {
        let snap = namespace(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut ns = NamespaceAdmission::new(&snap, "team", &QuotaAdmissionConfig::default(), None);
        let mut g = Gen(seed | 1);
        for i in 0..5 {
            match ns.admit_pod(&pod(&mut g, i)) {
                Ok(()) => admitted += 1,
                Err(_) => refused += 1,
            }
        }
        fast_hits += ns.fast_admissions();
    }
    eprintln!("fast {fast_hits} admitted {admitted} refused {refused}");
    assert!(fast_hits > 200, "fast path taken {fast_hits} times");
    assert!(
        admitted > 300 && refused > 300,
        "{admitted} admitted, {refused} refused"
    );
}
