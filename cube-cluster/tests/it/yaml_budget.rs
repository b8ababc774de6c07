//! Every YAML entry point of cube-cluster parses its text once through cube-model's bounded
//! entry (`cube_model::yaml`): a file of alias bombs is refused quickly with the
//! `yaml-alias-expansions` limit named, and the limit given by the caller is the one applied.

use std::time::{Duration, Instant};

use cube_cluster::kubeconfig::Kubeconfig;
use cube_cluster::memory::MemoryCluster;
use cube_cluster::profiles::Profile;
use cube_cluster::rbac::RbacPolicy;
use cube_model::Limits;

/// Nine levels of nine-fold aliases (9^9 nodes if expanded) under `key`.
fn bomb(key: &str) -> String {
    let mut s = format!("{key}:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let p = i - 1;
        s.push_str(&format!(
            "  a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    s
}

/// A small legitimate use of aliases: `n` references to one anchored mapping of 10 scalars.
fn aliases(n: usize) -> String {
    let mut s = String::from(
        "preferences:\n  base: &b {k0: 0, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9}\n",
    );
    for i in 0..n {
        s.push_str(&format!("  r{i}: *b\n"));
    }
    s.push_str("clusters: []\ncurrent-context: \"\"\n");
    s
}

fn quick<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let r = f();
    let took = start.elapsed();
    // one parse of 100,000 alias events at most; debug builds on a busy machine included
    assert!(took < Duration::from_secs(10), "{what} took {took:?}");
    r
}

#[test]
fn an_alias_bomb_is_refused_quickly_by_every_yaml_entry_point() {
    let kc = format!("apiVersion: v1\nkind: Config\n{}", bomb("preferences"));
    for strict in [false, true] {
        let err = quick("kubeconfig", || {
            if strict {
                Kubeconfig::from_yaml_strict(&kc, None)
            } else {
                Kubeconfig::from_yaml(&kc, None)
            }
        })
        .expect_err("bomb refused");
        let msg = err.to_string();
        assert!(msg.contains("--limit yaml-alias-expansions=N"), "{msg}");
    }
    // a typed field refuses the bomb before any expansion
    quick("profiles", || Profile::list_from_yaml_str(&bomb("name"))).expect_err("bomb refused");
    quick("rbac", || RbacPolicy::from_yaml_str(&bomb("kind"))).expect_err("bomb refused");
    quick("memory", || MemoryCluster::new().load(&bomb("kind"))).expect_err("bomb refused");
    quick("registry", || {
        cube_model::ClusterRegistry::from_yaml(&bomb("clusters"))
    })
    .expect_err("bomb refused");
}

#[test]
fn the_callers_alias_limit_is_the_one_applied() {
    // 20 references to an 11-event mapping: a few hundred alias events
    let text = aliases(20);
    let cfg = Kubeconfig::from_yaml_strict_with(&text, None, &Limits::default())
        .expect("within the default limit");
    assert_eq!(cfg.preferences.as_ref().unwrap()["r19"]["k9"], 9);
    let mut tight = Limits::default();
    tight.max_yaml_alias_expansions = 100;
    for strict in [false, true] {
        let err = if strict {
            Kubeconfig::from_yaml_strict_with(&text, None, &tight)
        } else {
            Kubeconfig::from_yaml_with(&text, None, &tight)
        }
        .expect_err("over a limit of 100");
        let msg = err.to_string();
        assert!(
            msg.contains("exceeds the limit of 100") && msg.contains("yaml-alias-expansions"),
            "{msg}"
        );
    }
    let profiles = "- name: a\n  checks:\n    - &c {verb: list, group: \"\", resource: nodes, scope: cluster}\n    - *c\n";
    assert!(Profile::list_from_yaml_str_with(profiles, &Limits::default()).is_ok());
    let mut none = Limits::default();
    none.max_yaml_alias_expansions = 1;
    assert!(Profile::list_from_yaml_str_with(profiles, &none).is_err());
}

/// The strict reader's shape checks come from the same single parse as the config.
#[test]
fn one_parse_gives_the_shape_and_the_config() {
    use cube_cluster::Error;
    let cases: [(&str, Option<&str>); 7] = [
        ("- a\n- b\n", Some("not a mapping")),
        ("42\n", Some("not a mapping")),
        ("kind: List\nitems: []\n", Some("kind is \"List\"")),
        ("kind: 7\nclusters: []\n", Some("kind is 7")),
        ("foo: bar\n", Some("none of clusters")),
        ("clusters:\n", None),
        ("kind: \"Config\"\ncurrent-context: x # comment\n", None),
    ];
    for (text, want) in cases {
        let r = Kubeconfig::from_yaml_strict(text, None);
        match (want, r) {
            (Some(w), Err(Error::NotAKubeconfig { reason, .. })) => {
                assert!(reason.contains(w), "{text:?}: {reason}")
            }
            (None, Ok(_)) => {}
            (w, r) => panic!("{text:?}: wanted {w:?}, got {r:?}"),
        }
    }
    assert!(matches!(
        Kubeconfig::from_yaml_strict("---\n# c\n", None),
        Err(Error::EmptyFile { .. })
    ));
    let cfg = Kubeconfig::from_yaml_strict("current-context: x\n", None).unwrap();
    assert_eq!(cfg.current_context.as_deref(), Some("x"));
}
