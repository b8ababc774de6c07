//! `pod_admit --scheduler-version` and `--timings` end to end (the built program on the bundled
//! sample snapshot).

use std::path::PathBuf;
use std::process::{Command, Output};

fn pod_admit(args: &[&str]) -> Output {
    Command::new(crate::support::example("pod_admit"))
        .current_dir(crate::support::root())
        .args(args)
        .output()
        .expect("pod_admit runs")
}

/// A pod no node of the sample fits (200 cores), in a namespace without quota.
fn big_pod() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cube-pod-admit-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("big.yaml");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: default}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: \"200\"}}\n",
    )
    .expect("pod file");
    path
}

fn message(out: &Output) -> String {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json output");
    v["replicas"][0]["scheduling"]["message"]
        .as_str()
        .expect("a scheduling message")
        .to_owned()
}

#[test]
fn scheduler_version_selects_the_wording_and_timings_go_to_stderr() {
    let pod = big_pod();
    let pod = pod.to_str().expect("utf-8 path");
    let base = [
        "--snapshot",
        "examples/data/snapshot-gpu-cluster.json",
        "--pod",
        pod,
        "--output",
        "json",
    ];
    let latest = pod_admit(&base);
    assert_eq!(latest.status.code(), Some(1), "Pending: exit 1");
    let m = message(&latest);
    assert!(
        m.contains(". no new claims to deallocate, preemption: ") && m.ends_with("scheduling."),
        "v1.36 wording by default: {m}"
    );
    let mut args = base.to_vec();
    args.extend(["--scheduler-version", "v1.28.3"]);
    let old = pod_admit(&args);
    let m28 = message(&old);
    assert!(
        !m28.contains("no new claims") && m28.ends_with("scheduling.."),
        "v1.28 wording: {m28}"
    );
    // --timings: the same stdout, one timing line on stderr
    let mut args = base.to_vec();
    args.push("--timings");
    let timed = pod_admit(&args);
    assert_eq!(timed.stdout, latest.stdout);
    let err = String::from_utf8_lossy(&timed.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("timings: "))
        .unwrap_or_else(|| panic!("no timings line in {err}"));
    for part in ["snapshot load ", "what-if ", "(1 replicas)", "total "] {
        assert!(line.contains(part), "{line}");
    }
    // an unknown release is bad input
    let mut args = base.to_vec();
    args.extend(["--scheduler-version", "2.0"]);
    let bad = pod_admit(&args);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--scheduler-version 2.0"));
}

/// The stored pod in both output formats of `pod_admit` (issue 12 item 4): JSON gives every
/// replica's stored pod (requests and limits after API and LimitRanger defaulting in the
/// server's spellings, priority, class, preemption policy, QoS class); the table prints the
/// first replica's compactly and each equal replica as `stored: as <first>`.
#[test]
fn the_stored_pod_in_every_output_format() {
    let dir = std::env::temp_dir().join(format!("cube-pod-admit-stored-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join("deploy.yaml");
    // gpu-test's LimitRange defaults memory (request 64Mi, limit 256Mi); the cpu limit `0.3` is
    // stored as `300m` and copied to the missing request by API defaulting
    std::fs::write(
        &path,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: gpu-test}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      priorityClassName: inference-medium\n      containers:\n      - name: main\n        resources: {limits: {cpu: \"0.3\"}}\n",
    )
    .expect("deployment file");
    let path = path.to_str().expect("utf-8 path");
    let args = |output: &'static str| {
        [
            "--snapshot",
            "examples/data/snapshot-gpu-cluster.json",
            "--pod",
            path,
            "--output",
            output,
        ]
    };
    let json = pod_admit(&args("json"));
    assert_eq!(
        json.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json output");
    let replicas = v["replicas"].as_array().expect("replicas");
    assert_eq!(replicas.len(), 3);
    for r in replicas {
        let s = &r["stored"];
        let c = &s["containers"][0];
        assert_eq!(c["requests"]["cpu"], "300m", "{s}");
        assert_eq!(c["requests"]["memory"], "64Mi", "{s}");
        assert_eq!(c["limits"]["cpu"], "300m", "{s}");
        assert_eq!(c["limits"]["memory"], "256Mi", "{s}");
        assert_eq!(s["priority"], 10000);
        assert_eq!(s["priorityClassName"], "inference-medium");
        assert_eq!(s["preemptionPolicy"], "PreemptLowerPriority");
        assert_eq!(s["qosClass"], "Burstable");
        assert_eq!(s["name"], r["pod"]);
    }
    let table = pod_admit(&args("table"));
    assert_eq!(table.status.code(), Some(0));
    let text = String::from_utf8_lossy(&table.stdout);
    let stored: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("stored: "))
        .collect();
    let first = replicas[0]["pod"].as_str().expect("pod name");
    assert_eq!(
        stored,
        [
            "main: requests cpu=300m,memory=64Mi limits cpu=300m,memory=256Mi; priority 10000 (class inference-medium, PreemptLowerPriority), QoS Burstable".to_owned(),
            format!("as {first}"),
            format!("as {first}"),
        ],
        "{text}"
    );
}

/// Fresh-user report 2: G14 (negative replicas are the server's 422, exit 1), G15 (several
/// documents named, exit 2), G16 (identical replicas folded), G47 (a dump of Nodes only is an
/// incomplete picture, exit 3, naming what was not checked).
#[test]
fn refusals_folds_and_incomplete_pictures() {
    let dir = std::env::temp_dir().join(format!("cube-pod-admit-g-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("write");
        p.to_str().expect("utf-8 path").to_owned()
    };
    let sample = "examples/data/snapshot-gpu-cluster.json";
    let neg = file(
        "neg.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: neg, namespace: default}\nspec:\n  replicas: -5\n  selector: {matchLabels: {app: neg}}\n  template:\n    metadata: {labels: {app: neg}}\n    spec:\n      containers: [{name: c, image: x}]\n",
    );
    let out = pod_admit(&["--snapshot", sample, "--pod", &neg, "--output", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        v["message"],
        "Deployment.apps \"neg\" is invalid: spec.replicas: Invalid value: -5: must be greater than or equal to 0"
    );
    let two = file(
        "two.yaml",
        "kind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c}]}\n---\nkind: Pod\nmetadata: {name: b}\nspec: {containers: [{name: c}]}\n",
    );
    let out = pod_admit(&["--snapshot", sample, "--pod", &two]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("holds 2 YAML documents (Pod a, Pod b; separated by `---` at line 4)"),
        "{err}"
    );
    assert!(!err.contains("from_str_multiple"), "{err}");
    // 20 replicas no node fits: one block, then one folded line
    let big = file(
        "big.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big, namespace: default}\nspec:\n  replicas: 20\n  selector: {matchLabels: {app: big}}\n  template:\n    metadata: {labels: {app: big}}\n    spec:\n      containers: [{name: c, image: x, resources: {requests: {cpu: \"200\"}}}]\n",
    );
    let out = pod_admit(&["--snapshot", sample, "--pod", &big]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("\npod big-").count(), 1, "{text}");
    assert!(text.contains("\nreplicas 2..20 (19 pods, big-"), "{text}");
    // the sample's Nodes only
    let all: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::root().join(sample)).expect("sample"),
    )
    .expect("sample json");
    let nodes: Vec<serde_json::Value> = all["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|i| i["kind"] == "Node")
        .cloned()
        .collect();
    let nodes_only = file(
        "nodes.json",
        &serde_json::json!({"apiVersion": "v1", "kind": "List", "items": nodes}).to_string(),
    );
    let small = file(
        "small.yaml",
        "kind: Pod\nmetadata: {name: s, namespace: default}\nspec: {containers: [{name: c, image: x}]}\n",
    );
    let out = pod_admit(&[
        "--snapshot",
        &nodes_only,
        "--pod",
        &small,
        "--output",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let not_checked = v["notChecked"].to_string();
    for kind in ["Pod:", "Namespace:", "ResourceQuota:"] {
        assert!(not_checked.contains(kind), "{kind} in {not_checked}");
    }
    assert!(
        v["incomplete"]
            .as_str()
            .is_some_and(|m| m.contains("kubectl get pods,namespaces"))
    );
    // the whole sample: complete, exit 0
    let out = pod_admit(&["--snapshot", sample, "--pod", &small]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// H21: nodes read from a `kubectl get nodes` table show no allocatable; the scheduler step read
/// their empty lists as zero and answered `Insufficient cpu` for every one of them (exit 1,
/// Pending). Their resources are unknown: node fit is not checked there, `notChecked` names
/// them, and an answer that depends on them is incomplete (exit 3), never `Insufficient`.
#[test]
fn nodes_without_allocatable_are_unknown_never_insufficient() {
    let dir = std::env::temp_dir().join(format!("cube-pod-admit-h21-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let table = dir.join("nodes.txt");
    // `kubectl get nodes` as kubectl prints it (k8s.io/kubectl/pkg/cmd/get, the node table
    // columns NAME STATUS ROLES AGE VERSION)
    std::fs::write(
        &table,
        "NAME      STATUS   ROLES           AGE   VERSION\nnode-71   Ready    control-plane   10d   v1.30.2\nnode-72   Ready    <none>          10d   v1.30.2\n",
    )
    .expect("table");
    let pod = dir.join("small.yaml");
    std::fs::write(
        &pod,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: small, namespace: default}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 100m}}\n",
    )
    .expect("pod");
    let (table, pod) = (table.to_str().unwrap(), pod.to_str().unwrap());
    let only = pod_admit(&["--snapshot", table, "--pod", pod, "--output", "json"]);
    let text = String::from_utf8_lossy(&only.stdout);
    assert_eq!(only.status.code(), Some(3), "{text}");
    assert!(!text.contains("Insufficient"), "{text}");
    assert!(
        text.contains("allocatable unknown") && text.contains("node-71, node-72"),
        "{text}"
    );
    // with known nodes beside them: a pod no known node fits is not Pending (exit 1) while
    // the unknown nodes might take it; the scheduler's message counts the known nodes only
    let big = big_pod();
    let mixed = pod_admit(&[
        "--snapshot",
        "examples/data/snapshot-gpu-cluster.json",
        "--snapshot",
        table,
        "--pod",
        big.to_str().unwrap(),
        "--output",
        "json",
    ]);
    let text = String::from_utf8_lossy(&mixed.stdout);
    assert_eq!(mixed.status.code(), Some(3), "{text}");
    assert!(text.contains("allocatable unknown"), "{text}");
    // the sample's 7 nodes, not the 9 of both inputs
    let m = message(&mixed);
    assert!(m.starts_with("0/7 nodes are available"), "{m}");
}
