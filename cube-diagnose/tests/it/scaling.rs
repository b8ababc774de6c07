//! Guard against work that grows faster than the input (issue 12): every pass of the program's
//! path (`Inputs::add`, the locate pass, the context, every rule, the report, SARIF and JSON
//! output) must stay within O(n log n) in objects and lines. A generated input of each shape
//! (JSON List, multi-document YAML, describe text, `-o wide` table, logs with JSON lines) is
//! diagnosed at n and at 4n; the CPU time of 4n must stay under 8 times that of n (linear work
//! gives 4, n log n about 4.5, quadratic work 16). Build-profile-free: ratios, not absolute
//! times, and CPU time of this thread (`/proc/thread-self/schedstat`, wall time elsewhere) so the
//! load of a shared machine does not move it much. A regression of this kind once made a
//! 10 MiB dump take 4.7 s instead of 0.3 s (a scan from the start of the text per object).

use std::fmt::Write as _;
use std::time::Instant;

use cube_diagnose::render::{SarifOptions, to_json, to_sarif_with};
use cube_diagnose::{Context, Engine, Inputs};
use serde_json::{Value, json};

/// CPU time of this thread in ns (Linux), else wall time since the first call.
fn cpu_ns() -> u128 {
    if let Some(ns) = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u128>().ok())
        .filter(|ns| *ns > 0)
    {
        return ns;
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos()
}

/// The objects of a generated cluster with `pods` pods: nodes (GPU and CPU pools, a few not
/// ready), namespaces with quotas and LimitRanges, PriorityClasses, pods (some pending, some
/// without requests, some asking for GPUs), FailedScheduling events, pending PVCs, the device
/// plugin DaemonSet, Roles and RoleBindings.
fn cluster(pods: usize) -> Vec<Value> {
    let nodes = (pods / 30).max(4);
    let namespaces = (pods / 50).max(2);
    let mut out = Vec::new();
    for i in 0..nodes {
        let gpu = i % 4 == 0;
        let mut labels = json!({"kubernetes.io/hostname": format!("node-{i:05}")});
        let mut alloc = json!({"cpu": "95500m", "memory": "1054648832Ki", "pods": "110"});
        if gpu {
            labels["nvidia.com/gpu.present"] = json!("true");
            labels["nvidia.com/gpu.product"] = json!("NVIDIA-A100-SXM4-80GB");
            if i % 8 != 0 {
                alloc["nvidia.com/gpu"] = json!("8");
            }
        }
        let ready = if i % 50 == 7 { "False" } else { "True" };
        out.push(json!({"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": format!("node-{i:05}"), "labels": labels},
            "status": {"capacity": alloc, "allocatable": alloc,
                "conditions": [{"type": "Ready", "status": ready, "reason": "KubeletReady"}],
                "nodeInfo": {"kubeletVersion": if i % 97 == 0 { "v1.35.0" } else { "v1.36.2" },
                    "kernelVersion": "5.15.0-105-generic", "containerRuntimeVersion": "containerd://1.7.12"}}}));
    }
    for n in 0..namespaces {
        let ns = format!("team-{n:03}");
        out.push(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}));
        out.push(json!({"apiVersion": "v1", "kind": "ResourceQuota",
            "metadata": {"name": "compute", "namespace": ns},
            "spec": {"hard": {"requests.cpu": "100", "requests.memory": "400Gi", "requests.nvidia.com/gpu": "8"}},
            "status": {"hard": {"requests.cpu": "100", "requests.memory": "400Gi", "requests.nvidia.com/gpu": "8"},
                       "used": {"requests.cpu": "99", "requests.memory": "10Gi", "requests.nvidia.com/gpu": "8"}}}));
        if n % 2 == 0 {
            out.push(json!({"apiVersion": "v1", "kind": "LimitRange",
                "metadata": {"name": "defaults", "namespace": ns},
                "spec": {"limits": [{"type": "Container", "default": {"cpu": "1", "memory": "1Gi"}}]}}));
        }
        out.push(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
            "metadata": {"name": "edit", "namespace": ns},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": format!("missing-{n}")},
            "subjects": [{"kind": "Group", "name": ns}]}));
        out.push(json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": "data", "namespace": ns},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}},
            "status": {"phase": "Pending"}}));
    }
    for (name, value) in [("high", 1_000_000), ("low", 100)] {
        out.push(
            json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
            "metadata": {"name": name}, "value": value}),
        );
    }
    out.push(json!({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "nvidia-device-plugin-daemonset", "namespace": "kube-system"},
        "spec": {"template": {"spec": {"nodeSelector": {"nvidia.com/gpu.present": "true"},
            "containers": [{"name": "nvidia-device-plugin-ctr", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}]}}},
        "status": {"desiredNumberScheduled": nodes / 4, "numberReady": nodes / 8}}));
    for j in 0..pods {
        let ns = format!("team-{:03}", j % namespaces);
        let name = format!("train-{j:06}");
        let pending = j % 20 == 19;
        let mut requests = json!({"cpu": "500m", "memory": "1Gi"});
        if j % 3 == 0 {
            requests["nvidia.com/gpu"] = json!(if pending { "16" } else { "1" });
        }
        let resources = if j % 11 == 5 {
            json!({})
        } else {
            json!({"requests": requests, "limits": requests})
        };
        let mut pod = json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": ns, "labels": {"app": "train", "team": ns},
                "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": format!("job-{}", j / 10), "uid": format!("u{}", j / 10), "controller": true}]},
            "spec": {"containers": [{"name": "main", "image": "ml/train:2.4.1", "resources": resources}],
                "priorityClassName": if j % 7 == 0 { "high" } else { "" },
                "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}]},
            "status": {"phase": if pending { "Pending" } else { "Running" }}});
        if pending {
            pod["status"]["conditions"] = json!([{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                "message": format!("0/{nodes} nodes are available: {} Insufficient nvidia.com/gpu, {} node(s) had untolerated taint {{node.kubernetes.io/not-ready: }}. preemption: 0/{nodes} nodes are available: {nodes} No preemption victims found for incoming pod.", nodes - 1, 1)}]);
            out.push(json!({"apiVersion": "v1", "kind": "Event",
                "metadata": {"name": format!("{name}.17a"), "namespace": ns},
                "involvedObject": {"kind": "Pod", "name": name, "namespace": ns},
                "reason": "FailedScheduling", "type": "Warning", "count": 3,
                "message": format!("0/{nodes} nodes are available: {} Insufficient nvidia.com/gpu. preemption: 0/{nodes} nodes are available: {nodes} No preemption victims found for incoming pod.", nodes)}));
        } else {
            pod["spec"]["nodeName"] = json!(format!("node-{:05}", j % nodes));
        }
        out.push(pod);
    }
    out
}

/// A JSON List, as `kubectl get ... -o json` writes it (one item per line block).
fn json_list(objects: &[Value]) -> String {
    let items = serde_json::to_string_pretty(
        &json!({"apiVersion": "v1", "kind": "List", "items": objects}),
    );
    items.expect("serialize")
}

/// Block YAML of a JSON value (strings double-quoted), as `kubectl get -o yaml` writes it.
fn yaml_of(value: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                match v {
                    Value::Object(m) if !m.is_empty() => {
                        let _ = writeln!(out, "{pad}{k}:");
                        yaml_of(v, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        let _ = writeln!(out, "{pad}{k}:");
                        yaml_of(v, indent, out);
                    }
                    _ => {
                        let _ = writeln!(out, "{pad}{k}: {v}");
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                let mut inner = String::new();
                yaml_of(item, indent + 2, &mut inner);
                let inner = inner.trim_start();
                let _ = write!(out, "{pad}- {inner}");
                if !inner.ends_with('\n') {
                    out.push('\n');
                }
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{other}");
        }
    }
}

/// Multi-document YAML, one object per document.
fn yaml_docs(objects: &[Value]) -> String {
    let mut out = String::new();
    for o in objects {
        out.push_str("---\n");
        yaml_of(o, 0, &mut out);
    }
    out
}

/// `kubectl describe pod` blocks of `pods` pending GPU pods, from the Triton fixture.
fn describe_pods(pods: usize) -> String {
    let one = include_str!("../../../testdata/fixtures/pods/triton-pending-insufficient-gpu.txt");
    let body: String = one
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = String::new();
    for i in 0..pods {
        out.push_str(&body.replace(
            "triton-inference-server-5b6c7f889c-f54c6",
            &format!("triton-{i:06}"),
        ));
        out.push('\n');
    }
    out
}

/// `kubectl get nodes -o wide` with `nodes` rows, runtimes and kernels drifting.
fn nodes_wide(nodes: usize) -> String {
    let mut out = String::from(
        "NAME         STATUS   ROLES    AGE    VERSION    INTERNAL-IP   EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION      CONTAINER-RUNTIME\n",
    );
    for i in 0..nodes {
        let runtime = if i % 5 == 0 {
            "docker://20.10.20"
        } else {
            "containerd://1.7.12"
        };
        let _ = writeln!(
            out,
            "node-{i:06}  Ready    worker   261d   v1.36.2    10.0.{}.{}     <none>        Ubuntu 22.04.4 LTS   5.15.0-{}-generic   {runtime}",
            i / 250,
            i % 250,
            100 + i % 3
        );
    }
    out
}

/// `lines` lines of the log fixtures (kubeadm, kubelet, device plugin, client error texts as
/// JSON lines), repeated.
fn logs(lines: usize) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/fixtures/logs");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("log fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x != "json"))
        .collect();
    names.sort();
    let all: Vec<String> = names
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .flat_map(|t| t.lines().map(str::to_owned).collect::<Vec<_>>())
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let mut out = String::new();
    for i in 0..lines {
        out.push_str(&all[i % all.len()]);
        out.push('\n');
    }
    out
}

/// The program's whole path (as `cluster_diagnose` runs it) over `inputs`; returns the CPU time
/// in ns and the number of findings.
fn diagnose(inputs: &[(String, String)]) -> (u128, usize) {
    let start = cpu_ns();
    let mut read = Inputs::new();
    for (source, text) in inputs {
        read.add_bytes(source, text.as_bytes());
    }
    let problems = read.input_problems();
    let engine = Engine::new();
    let ctx = Context::new(&read.snapshot)
        .with_logs(read.logs.clone())
        .with_thresholds(engine.config().thresholds.clone());
    let report = engine
        .run(&ctx)
        .with_input_problems(problems)
        .with_locations(&read.locations);
    let json = to_json(&report).expect("json");
    let sarif = to_sarif_with(&report, &SarifOptions::default()).expect("sarif");
    std::hint::black_box((json.len(), sarif.len()));
    let findings = report.findings.len();
    drop(report);
    drop(ctx);
    drop(read);
    (cpu_ns() - start, findings)
}

/// Fastest of two runs (the least disturbed by the machine's load).
fn fastest(inputs: &[(String, String)]) -> (u128, usize) {
    (0..2)
        .map(|_| diagnose(inputs))
        .min_by_key(|(t, _)| *t)
        .expect("three runs")
}

/// Asserts that the shape built by `make(n)` scales within n log n from `n` to `4n`.
fn assert_scales(shape: &str, n: usize, make: impl Fn(usize) -> Vec<(String, String)>) {
    let small = make(n);
    let large = make(4 * n);
    let _warm = diagnose(&small);
    let (t1, f1) = fastest(&small);
    let (t4, f4) = fastest(&large);
    assert!(f1 > 0 && f4 > 0, "{shape}: the inputs must give findings");
    let ratio = t4 as f64 / t1.max(1) as f64;
    eprintln!(
        "{shape}: n={n} {:.1} ms, 4n {:.1} ms, ratio {ratio:.2}",
        t1 as f64 / 1e6,
        t4 as f64 / 1e6
    );
    assert!(
        ratio < 8.0,
        "{shape}: 4x the input took {ratio:.1}x the CPU time ({:.1} ms -> {:.1} ms): some pass grows faster than n log n",
        t1 as f64 / 1e6,
        t4 as f64 / 1e6
    );
}

#[test]
fn json_list_scales() {
    assert_scales("JSON List", 800, |n| {
        vec![("dump.json".to_owned(), json_list(&cluster(n)))]
    });
}

#[test]
fn yaml_documents_scale() {
    assert_scales("YAML documents", 300, |n| {
        vec![("dump.yaml".to_owned(), yaml_docs(&cluster(n)))]
    });
}

#[test]
fn texts_scale() {
    assert_scales("describe, -o wide, logs", 60, |n| {
        vec![
            ("pods.txt".to_owned(), describe_pods(n)),
            ("nodes.txt".to_owned(), nodes_wide(4 * n)),
            ("node.log".to_owned(), logs(20 * n)),
        ]
    });
}
