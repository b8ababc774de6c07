//! Issue 9 in the engine: what could not be read never reads as absent, clusters mixed in one
//! run are not added up, and secrets never reach a finding.

use cube_diagnose::{Context, Engine, Inputs};
use cube_model::ClusterSnapshot;

fn list(items: &[String]) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{}]}}"#,
        items.join(",")
    )
}

fn node(uid: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"gpu-1","uid":"{uid}"}},"status":{{"allocatable":{{"cpu":"8","memory":"32Gi","pods":"110"}},"capacity":{{"cpu":"8","memory":"32Gi","pods":"110"}}}}}}"#
    )
}

fn pod(name: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{name}","namespace":"a","uid":"{name}"}},"spec":{{"nodeName":"gpu-1","containers":[{{"name":"c","resources":{{"requests":{{"cpu":"6","memory":"1Gi"}}}}}}]}},"status":{{"phase":"Running"}}}}"#
    )
}

/// The same node name in two clusters' dumps with different uids charged both clusters' pods
/// to one node: a false `node-overcommitted`.
#[test]
fn two_clusters_with_the_same_node_name_are_not_added_up() {
    let mut inputs = Inputs::new();
    inputs.add("cluster-a.json", &list(&[node("uid-a"), pod("pa")]));
    inputs.add("cluster-b.json", &list(&[node("uid-b"), pod("pb")]));
    let ctx = Context::new(&inputs.snapshot);
    let r = Engine::new()
        .run(&ctx)
        .with_input_problems(inputs.input_problems());
    assert_eq!(
        r.by_rule("node-overcommitted").count(),
        0,
        "{:#?}",
        r.findings
    );
    let mixed: Vec<_> = r.by_rule("snapshot-mixed-clusters").collect();
    assert_eq!(mixed.len(), 1);
    assert!(mixed[0].message.contains("gpu-1"), "{}", mixed[0].message);
    assert!(
        r.input_problems
            .iter()
            .any(|p| p.source == "cluster-b.json" && p.message.contains("kept apart")),
        "{:?}",
        r.input_problems
    );
    // one cluster on its own is still checked (12 cpu on an 8-cpu node)
    let mut one = Inputs::new();
    one.add("a.json", &list(&[node("uid-a"), pod("p1"), pod("p2")]));
    let r = Engine::new().run(&Context::new(&one.snapshot));
    assert_eq!(r.by_rule("node-overcommitted").count(), 1);
}

fn missing(kinds: &[&str]) -> ClusterSnapshot {
    let mut s = ClusterSnapshot::new();
    for k in kinds {
        s.missing_kinds.insert(
            (*k).to_owned(),
            format!(
                "forbidden: {}s is forbidden: User \"view-only\" cannot list",
                k.to_lowercase()
            ),
        );
    }
    s
}

#[test]
fn a_kind_that_could_not_be_read_is_never_absent() {
    // a pending claim and no StorageClass read
    let mut s = missing(&["StorageClass"]);
    s.add_bytes(
        "pvc.json",
        br#"{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"a"},"spec":{},"status":{"phase":"Pending"}}"#,
    );
    let r = Engine::new().run(&Context::new(&s));
    let f: Vec<_> = r.by_rule("storage-no-default-class").collect();
    assert_eq!(f.len(), 1);
    assert!(
        !f[0].message.contains("no StorageClass at all"),
        "{}",
        f[0].message
    );
    assert!(
        f[0].message.contains("could not be read"),
        "{}",
        f[0].message
    );
    assert_eq!(r.exit_code(), 3);

    // pods with a PriorityClass and no ResourceQuota read
    let mut s = missing(&["ResourceQuota"]);
    s.add_bytes(
        "pods.json",
        br#"{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"priorityClassName":"high","containers":[{"name":"c","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]}}]}"#,
    );
    let r = Engine::new().run(&Context::new(&s));
    let f: Vec<_> = r.by_rule("priority-without-quota").collect();
    assert_eq!(f.len(), 1);
    assert!(
        !f[0].message.contains("has no ResourceQuota"),
        "{}",
        f[0].message
    );
    assert!(
        f[0].message.contains("could not be read"),
        "{}",
        f[0].message
    );

    // a compute quota and no LimitRange read
    let mut s = missing(&["LimitRange"]);
    s.add_bytes(
        "quota.json",
        br#"{"kind":"ResourceQuota","apiVersion":"v1","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"requests.cpu":"4"}}}"#,
    );
    let r = Engine::new().run(&Context::new(&s));
    let f: Vec<_> = r.by_rule("quota-without-limitrange").collect();
    assert_eq!(f.len(), 1);
    assert!(
        !f[0].message.contains("has no LimitRange"),
        "{}",
        f[0].message
    );
    assert!(
        f[0].message.contains("could not be read"),
        "{}",
        f[0].message
    );
}

/// Against a real v1.36 server, `view` in one namespace gave 0 findings, score 100, exit 0 and
/// `inputProblems: []`: every cluster-wide list answers 403.
#[test]
fn view_in_one_namespace_is_an_incomplete_picture_in_every_output() {
    let kinds = [
        "Node",
        "Namespace",
        "Pod",
        "ResourceQuota",
        "LimitRange",
        "PriorityClass",
        "DaemonSet",
        "Event",
        "StorageClass",
        "PersistentVolume",
        "PersistentVolumeClaim",
        "Role",
        "ClusterRole",
        "RoleBinding",
        "ClusterRoleBinding",
        "PodDisruptionBudget",
        "BootstrapToken",
    ];
    let mut inputs = Inputs::new();
    inputs.snapshot = missing(&kinds);
    let r = Engine::new()
        .run(&Context::new(&inputs.snapshot))
        .with_input_problems(inputs.input_problems());
    assert!(!r.findings.is_empty());
    assert!(r.summary.score < 100);
    assert_eq!(r.exit_code(), 3);
    assert_eq!(
        r.input_problems.len(),
        kinds.len(),
        "{:?}",
        r.input_problems
    );
    let json = cube_diagnose::render::to_json(&r).expect("json");
    assert!(
        json.contains("\"exitCode\": 3") && json.contains("\"incomplete\": true"),
        "{json}"
    );
    assert!(json.contains("snapshot-incomplete"));
    let sarif = cube_diagnose::render::to_sarif(&r).expect("sarif");
    assert!(sarif.contains("snapshot-incomplete"));
    let table = cube_diagnose::render::to_table(&r, false);
    assert!(
        table.contains("snapshot-incomplete") && table.contains("could not be read"),
        "{table}"
    );
}
