//! Loading a large `kubectl get nodes,pods -A -o json` List (issue 2): our loader against two
//! baselines on the same bytes in the same run.
//!
//! - `value`: `serde_json::from_slice::<serde_json::Value>`;
//! - `k8s_openapi`: every item deserialized into `k8s_openapi` `Node` / `Pod`;
//! - `cube_model`: `ClusterSnapshot::from_slice`.
//!
//! The input is generated in memory: 5,000 nodes and 150,000 pods (about 520 MB: pods of about
//! 3.2 kB with labels, managedFields, a container with env, volumeMounts, resources and on a third
//! a liveness probe, a large `last-applied-configuration` on one in eight, a sidecar on one in
//! twenty, containerStatuses and conditions; nodes of about 7.5 kB with GPU labels, images and
//! conditions) at `CUBE_BENCH_SCALE=1` (default); `CUBE_BENCH_SCALE=0.05` gives a quick run. Before the criterion
//! groups, one pass of each is timed and its peak heap (above the input, by a counting global
//! allocator) is printed as ratios. `CUBE_BENCH_ONESHOT_ONLY=1` stops after that pass;
//! `CUBE_BENCH_CUBE_ONLY=1` runs only our loader once (for profiling). `CUBE_BENCH_WRITE=FILE`
//! writes the generated dump to `FILE` item by item and exits (`CUBE_BENCH_SCALE=4`: about 2 GB,
//! for `/usr/bin/time -v cluster_diagnose --snapshot FILE`); `CUBE_BENCH_READ_K8S=FILE`
//! deserializes a dump file into `k8s_openapi` types and exits (the baseline process of
//! `scripts/whole-path.sh`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use peak_alloc::PeakAlloc;
use serde::Deserialize;
use serde_json::json;
use serde_json::value::RawValue;

use cube_model::ClusterSnapshot;

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

fn scale() -> f64 {
    std::env::var("CUBE_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(1.0)
}

/// Writes one item, keys sorted as kubectl and the API server write them. Compact (as the API
/// server sends a List); `kubectl -o json` adds only indentation.
fn push_item(out: &mut Vec<u8>, value: &serde_json::Value) {
    serde_json::to_writer(&mut *out, value).expect("serialize");
}

fn managed_fields(manager: &str, i: usize) -> serde_json::Value {
    json!([
        {
            "apiVersion": "v1", "fieldsType": "FieldsV1", "manager": manager, "operation": "Update",
            "time": "2026-11-30T12:02:27Z",
            "fieldsV1": {
                "f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:pod-template-hash": {}, "f:team": {}},
                                "f:ownerReferences": {".": {}, format!("k:{{\"uid\":\"{i:08}\"}}"): {}}},
                "f:spec": {"f:containers": {"k:{\"name\":\"main\"}": {".": {}, "f:env": {}, "f:image": {},
                    "f:imagePullPolicy": {}, "f:name": {}, "f:resources": {".": {}, "f:limits": {}, "f:requests": {}},
                    "f:terminationMessagePath": {}, "f:volumeMounts": {}}},
                    "f:dnsPolicy": {}, "f:enableServiceLinks": {}, "f:restartPolicy": {}, "f:schedulerName": {},
                    "f:securityContext": {}, "f:terminationGracePeriodSeconds": {}, "f:volumes": {}}
            }
        },
        {
            "apiVersion": "v1", "fieldsType": "FieldsV1", "manager": "kubelet", "operation": "Update",
            "subresource": "status", "time": "2026-11-30T12:03:01Z",
            "fieldsV1": {"f:status": {"f:conditions": {}, "f:containerStatuses": {},
                "f:hostIP": {}, "f:phase": {}, "f:podIP": {}, "f:startTime": {}}}
        }
    ])
}

fn container(name: &str, image: &str, gpu: u32, i: usize) -> serde_json::Value {
    let mut c = container_base(name, image, gpu, i);
    if !i.is_multiple_of(3)
        && let Some(map) = c.as_object_mut()
    {
        map.remove("livenessProbe");
    }
    c
}

fn container_base(name: &str, image: &str, gpu: u32, i: usize) -> serde_json::Value {
    let mut requests = json!({"cpu": format!("{}m", 250 + (i % 8) * 250), "memory": format!("{}Mi", 512 << (i % 4))});
    let mut limits = json!({"memory": format!("{}Mi", 1024 << (i % 4))});
    if gpu > 0 {
        requests["nvidia.com/gpu"] = json!(gpu.to_string());
        limits["nvidia.com/gpu"] = json!(gpu.to_string());
    }
    json!({
        "env": (0..2).map(|k| json!({"name": format!("APP_SETTING_{k}"), "value": format!("value-{k}-{}", i % 97)}))
            .chain(std::iter::once(json!({"name": "POD_NAME", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}})))
            .collect::<Vec<_>>(),
        "image": image,
        "imagePullPolicy": "IfNotPresent",
        "livenessProbe": {"failureThreshold": 3, "httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"},
                          "initialDelaySeconds": 10, "periodSeconds": 10, "successThreshold": 1, "timeoutSeconds": 1},
        "name": name,
        "resources": {"limits": limits, "requests": requests},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "volumeMounts": [
            {"mountPath": "/etc/app", "name": "config", "readOnly": true},
            {"mountPath": "/data", "name": "data"},
            {"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount", "name": format!("kube-api-access-{:05}", i % 100000), "readOnly": true}
        ]
    })
}

fn pod(i: usize, nodes: usize) -> serde_json::Value {
    let ns = format!("team-{}", i % 40);
    let name = format!("train-{i:06}-{:05x}", i * 7919 % 0xfffff);
    let gpu = if i.is_multiple_of(3) {
        (i % 8 + 1) as u32
    } else {
        0
    };
    let last_applied = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"annotations": {"prometheus.io/scrape": "true"}, "labels": {"app": "train", "team": ns}, "name": name, "namespace": ns},
        "spec": {"containers": [container("main", "ml/train:2.4.1", gpu, i)]}
    })
    .to_string();
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "annotations": if i.is_multiple_of(8) {
                json!({"kubectl.kubernetes.io/last-applied-configuration": last_applied,
                       "prometheus.io/port": "9090", "prometheus.io/scrape": "true"})
            } else {
                json!({"prometheus.io/scrape": "true"})
            },
            "creationTimestamp": "2026-11-30T12:02:27Z",
            "generateName": format!("train-{i:06}-"),
            "labels": {"app": "train", "pod-template-hash": "5b6c7f889c", "team": ns},
            "managedFields": [managed_fields("kube-controller-manager", i)[1].clone()],
            "name": name,
            "namespace": ns,
            "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": true, "controller": true,
                                 "kind": "ReplicaSet", "name": format!("train-{:04}", i / 50), "uid": format!("00000000-0000-0000-0000-{:012}", i / 50)}],
            "resourceVersion": (100000 + i).to_string(),
            "uid": format!("00000000-0000-0000-0001-{i:012}")
        },
        "spec": {
            "containers": if i.is_multiple_of(20) {
                json!([container("main", "ml/train:2.4.1", gpu, i),
                       container("metrics", "ops/exporter:1.2.0", 0, i + 1)])
            } else {
                json!([container("main", "ml/train:2.4.1", gpu, i)])
            },
            "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": true,
            "nodeName": format!("node-{:05}", i % nodes),
            "nodeSelector": {"cube.example/pool": if gpu > 0 { "gpu-training" } else { "cpu-general" }},
            "preemptionPolicy": "PreemptLowerPriority",
            "priority": 1000,
            "priorityClassName": "batch-low",
            "restartPolicy": "Always",
            "schedulerName": "default-scheduler",
            "securityContext": {},
            "serviceAccount": "default",
            "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 30,
            "tolerations": [
                {"effect": "NoSchedule", "key": "nvidia.com/gpu", "operator": "Exists"}
            ],
            "volumes": [
                {"configMap": {"defaultMode": 420, "name": "train-config"}, "name": "config"},
                {"name": "data", "persistentVolumeClaim": {"claimName": format!("data-{}", i % 40)}},
                {"name": format!("kube-api-access-{:05}", i % 100000), "projected": {"defaultMode": 420, "sources": [
                    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}
                ]}}
            ]
        },
        "status": {
            "conditions": (["Ready", "PodScheduled"].iter().map(|t| json!({
                "lastProbeTime": null, "lastTransitionTime": "2026-11-30T12:03:01Z", "status": "True", "type": t})).collect::<Vec<_>>()),
            "containerStatuses": (["main"].iter().map(|c| json!({
                "containerID": format!("containerd://{:064x}", i as u128 * 0x9e37_79b9_7f4a_7c15),
                "image": "ml/train:2.4.1",
                "imageID": format!("ml/train@sha256:{:064x}", 0xabcdef_u64),
                "lastState": {}, "name": c, "ready": true, "restartCount": i % 3, "started": true,
                "state": {"running": {"startedAt": "2026-11-30T12:03:00Z"}}
            })).collect::<Vec<_>>()),
            "hostIP": format!("10.{}.{}.{}", i % 200, (i / 200) % 250, i % 250),
            "phase": "Running",
            "podIP": format!("10.244.{}.{}", (i / 250) % 250, i % 250),
            "qosClass": "Burstable",
            "startTime": "2026-11-30T12:02:58Z"
        }
    })
}

fn node(i: usize) -> serde_json::Value {
    let name = format!("node-{i:05}");
    let gpu = i.is_multiple_of(2);
    let mut labels = json!({
        "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
        "cube.example/pool": if gpu { "gpu-training" } else { "cpu-general" },
        "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "p4d.24xlarge", "topology.kubernetes.io/zone": format!("zone-{}", i % 3),
        "feature.node.kubernetes.io/cpu-model.vendor_id": "Intel", "feature.node.kubernetes.io/kernel-version.full": "5.15.0-105-generic"
    });
    let mut capacity = json!({"cpu": "96", "ephemeral-storage": "1887454986240", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                              "memory": "1082107887616", "pods": "110"});
    let mut allocatable = json!({"cpu": "95500m", "ephemeral-storage": "1698694367418", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                                 "memory": "1079960403968", "pods": "110"});
    if gpu {
        for (k, v) in [
            ("nvidia.com/gpu.present", "true"),
            ("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"),
            ("nvidia.com/gpu.count", "8"),
            ("nvidia.com/cuda.driver.major", "550"),
            ("nvidia.com/gpu.memory", "81920"),
            ("feature.node.kubernetes.io/pci-10de.present", "true"),
        ] {
            labels[k] = json!(v);
        }
        capacity["nvidia.com/gpu"] = json!("8");
        allocatable["nvidia.com/gpu"] = json!("8");
    }
    json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true",
                            "csi.volume.kubernetes.io/nodeid": format!("{{\"nfs.csi.k8s.io\":\"{name}\"}}"),
                            "flannel.alpha.coreos.com/backend-data": "{\"VNI\":1,\"VtepMAC\":\"02:00:00:00:00:01\"}"},
            "creationTimestamp": "2026-11-30T12:02:27Z",
            "labels": labels,
            "managedFields": managed_fields("kubelet", i),
            "name": name,
            "resourceVersion": (5000 + i).to_string(),
            "uid": format!("00000000-0000-0000-0002-{i:012}")
        },
        "spec": {"podCIDR": format!("10.244.{}.0/24", i % 250), "podCIDRs": [format!("10.244.{}.0/24", i % 250)],
                 "providerID": format!("aws:///zone-{}/i-{i:017x}", i % 3),
                 "taints": if gpu { json!([{"effect": "NoSchedule", "key": "nvidia.com/gpu", "value": "present"}]) } else { json!([]) }},
        "status": {
            "addresses": [{"address": format!("10.0.{}.{}", i / 250, i % 250), "type": "InternalIP"}, {"address": name, "type": "Hostname"}],
            "allocatable": allocatable,
            "capacity": capacity,
            "conditions": ([("MemoryPressure", "False", "KubeletHasSufficientMemory"), ("DiskPressure", "False", "KubeletHasNoDiskPressure"),
                           ("PIDPressure", "False", "KubeletHasSufficientPID"), ("Ready", "True", "KubeletReady")]
                .iter().map(|(t, s, r)| json!({"lastHeartbeatTime": "2026-11-30T12:02:35Z", "lastTransitionTime": "2026-11-30T12:02:35Z",
                                               "message": format!("kubelet condition {t}"), "reason": r, "status": s, "type": t})).collect::<Vec<_>>()),
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": (0..20).map(|k| json!({"names": [format!("registry.example.com/team/image-{k}@sha256:{:064x}", k as u64 * 31 + 7),
                                                         format!("registry.example.com/team/image-{k}:v1.{k}.0")],
                                               "sizeBytes": 100_000_000 + k * 1_000_003})).collect::<Vec<_>>(),
            "nodeInfo": {"architecture": "amd64", "bootID": format!("00000000-0000-0000-0003-{i:012}"),
                         "containerRuntimeVersion": "containerd://1.7.12", "kernelVersion": "5.15.0-105-generic",
                         "kubeProxyVersion": "", "kubeletVersion": "v1.36.2", "machineID": format!("{i:032}"),
                         "operatingSystem": "linux", "osImage": "Ubuntu 22.04.4 LTS", "systemUUID": format!("00000000-0000-0000-0004-{i:012}")}
        }
    })
}

/// `kubectl get nodes,pods -A -o json` for `nodes` nodes and `pods` pods.
fn generate(nodes: usize, pods: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(nodes * 7_600 + pods * 3_300);
    generate_into(&mut out, nodes, pods).expect("writing to memory");
    out
}

/// [`generate`] written to `w` item by item (for dumps larger than what should sit in memory:
/// `CUBE_BENCH_WRITE=/tmp/dump.json CUBE_BENCH_SCALE=4` writes about 2 GB and exits).
fn generate_into(w: &mut impl std::io::Write, nodes: usize, pods: usize) -> std::io::Result<()> {
    w.write_all(b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")?;
    let mut buf = Vec::with_capacity(16 * 1024);
    for i in 0..nodes + pods {
        buf.clear();
        if i > 0 {
            buf.extend_from_slice(b",\n");
        }
        if i < nodes {
            push_item(&mut buf, &node(i));
        } else {
            push_item(&mut buf, &pod(i - nodes, nodes.max(1)));
        }
        w.write_all(&buf)?;
    }
    w.write_all(b"\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
}

// ------------------------------------------------------------------ the three readers

fn read_value(bytes: &[u8]) -> serde_json::Value {
    serde_json::from_slice(bytes).expect("valid JSON")
}

/// Every item into `k8s_openapi` types.
struct K8sObjects {
    nodes: Vec<k8s_openapi::api::core::v1::Node>,
    pods: Vec<k8s_openapi::api::core::v1::Pod>,
}

fn read_k8s_openapi(bytes: &[u8]) -> K8sObjects {
    #[derive(Deserialize)]
    struct List<'a> {
        #[serde(borrow)]
        items: Vec<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Kind<'a> {
        #[serde(borrow)]
        kind: &'a str,
    }
    let list: List<'_> = serde_json::from_slice(bytes).expect("valid JSON");
    let mut out = K8sObjects {
        nodes: Vec::new(),
        pods: Vec::new(),
    };
    for item in list.items {
        let kind: Kind<'_> = serde_json::from_str(item.get()).expect("kind");
        match kind.kind {
            "Node" => out
                .nodes
                .push(serde_json::from_str(item.get()).expect("node")),
            "Pod" => out
                .pods
                .push(serde_json::from_str(item.get()).expect("pod")),
            other => panic!("unexpected kind {other}"),
        }
    }
    out
}

fn read_cube(bytes: &[u8]) -> ClusterSnapshot {
    ClusterSnapshot::from_slice("bench", bytes)
}

/// Time, peak heap and retained heap (the result) above what was allocated before (the input)
/// for one run.
fn measure<T>(f: impl FnOnce() -> T, check: impl FnOnce(&T)) -> (Duration, usize, usize) {
    let base = PEAK.current_usage();
    PEAK.reset_peak_usage();
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    let peak = PEAK.peak_usage().saturating_sub(base);
    let retained = PEAK.current_usage().saturating_sub(base);
    check(&out);
    drop(out);
    (took, peak, retained)
}

fn one_shot(bytes: &[u8], nodes: usize, pods: usize) {
    let mb = |b: usize| b as f64 / (1024.0 * 1024.0);
    if std::env::var_os("CUBE_BENCH_CUBE_ONLY").is_some() {
        // For profiling our loader alone.
        let (tc, mc, rc) = measure(|| read_cube(bytes), |s| assert_eq!(s.pods.len(), pods));
        println!(
            "cube_model {:.2}s peak {:.0} MiB retained {:.0} MiB",
            tc.as_secs_f64(),
            mb(mc),
            mb(rc)
        );
        return;
    }
    let (tv, mv, rv) = measure(
        || read_value(bytes),
        |v| {
            assert_eq!(v["items"].as_array().map(Vec::len), Some(nodes + pods));
        },
    );
    let (tk, mk, rk) = measure(
        || read_k8s_openapi(bytes),
        |o| {
            assert_eq!((o.nodes.len(), o.pods.len()), (nodes, pods));
        },
    );
    let (tc, mc, rc) = measure(
        || read_cube(bytes),
        |s| {
            assert_eq!((s.nodes.len(), s.pods.len()), (nodes, pods));
            assert!(s.problems.is_empty());
        },
    );
    println!(
        "\nsnapshot load, {nodes} nodes + {pods} pods, {:.0} MiB of kubectl JSON (one pass each)",
        mb(bytes.len())
    );
    println!(
        "{:<14} {:>10} {:>16} {:>16}",
        "reader", "time", "peak heap (MiB)", "retained (MiB)"
    );
    for (name, t, m, r) in [
        ("value", tv, mv, rv),
        ("k8s_openapi", tk, mk, rk),
        ("cube_model", tc, mc, rc),
    ] {
        println!(
            "{name:<14} {:>9.2}s {:>16.0} {:>16.0}",
            t.as_secs_f64(),
            mb(m),
            mb(r)
        );
    }
    // Issue 12 item 3: the loaded snapshot's size against its JSON (target: at most 1x).
    println!(
        "cube_model retained / JSON: {:.2}x (target <= 1.00x)",
        rc as f64 / bytes.len() as f64
    );
    println!(
        "cube_model vs value: {:.2}x faster, {:.2}x less peak heap",
        tv.as_secs_f64() / tc.as_secs_f64(),
        mv as f64 / mc.max(1) as f64
    );
    println!(
        "cube_model vs k8s_openapi: {:.2}x faster, {:.2}x less peak heap\n",
        tk.as_secs_f64() / tc.as_secs_f64(),
        mk as f64 / mc.max(1) as f64
    );
}

fn main() {
    let s = scale();
    let nodes = ((5_000.0 * s) as usize).max(1);
    let pods = ((150_000.0 * s) as usize).max(1);
    // Whole-process modes for `scripts/whole-path.sh`: write the generated dump to a file, or
    // deserialize a dump file into k8s-openapi types (the baseline process).
    if let Some(path) = std::env::var_os("CUBE_BENCH_WRITE") {
        let file = std::fs::File::create(&path).expect("create the dump file");
        let mut w = std::io::BufWriter::new(file);
        generate_into(&mut w, nodes, pods).expect("write the dump");
        std::io::Write::flush(&mut w).expect("flush the dump");
        eprintln!(
            "wrote {nodes} nodes and {pods} pods to {}",
            path.to_string_lossy()
        );
        return;
    }
    if let Some(path) = std::env::var_os("CUBE_BENCH_READ_K8S") {
        let bytes = std::fs::read(&path).expect("read the dump");
        let objects = read_k8s_openapi(&bytes);
        println!("{} nodes, {} pods", objects.nodes.len(), objects.pods.len());
        return;
    }
    let bytes = generate(nodes, pods);
    if std::env::var_os("CUBE_BENCH_BREAKDOWN").is_some() {
        breakdown(&bytes);
        return;
    }
    one_shot(&bytes, nodes, pods);
    if std::env::var_os("CUBE_BENCH_ONESHOT_ONLY").is_some() {
        return;
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    let mut group = c.benchmark_group(format!("snapshot_load_{nodes}n_{pods}p"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("value", |b| b.iter(|| read_value(black_box(&bytes))));
    group.bench_function("k8s_openapi", |b| {
        b.iter(|| read_k8s_openapi(black_box(&bytes)))
    });
    group.bench_function("cube_model", |b| b.iter(|| read_cube(black_box(&bytes))));
    group.finish();
    c.final_summary();
}

/// Heap bytes held by each field of the loaded pods and nodes (`CUBE_BENCH_BREAKDOWN=1`):
/// fields are emptied one by one and the heap released is counted (requested bytes, without the
/// allocator's own overhead per block).
fn breakdown(bytes: &[u8]) {
    let mb = |b: usize| b as f64 / (1024.0 * 1024.0);
    let base = PEAK.current_usage();
    let mut s = read_cube(bytes);
    let total = PEAK.current_usage().saturating_sub(base);
    let (np, nn) = (s.pods.len().max(1), s.nodes.len().max(1));
    println!(
        "retained {:.1} MiB for {:.1} MiB of JSON ({:.2}x); {} pods, {} nodes",
        mb(total),
        mb(bytes.len()),
        total as f64 / bytes.len() as f64,
        np,
        nn
    );
    let mut row = |what: &str, per: usize, f: &mut dyn FnMut(&mut ClusterSnapshot)| {
        let before = PEAK.current_usage();
        f(&mut s);
        let freed = before.saturating_sub(PEAK.current_usage());
        println!(
            "{what:<40} {:>9.1} MiB {:>7} B/object",
            mb(freed),
            freed / per
        );
    };
    macro_rules! clear {
        ($what:expr, $per:expr, $coll:ident, |$o:ident| $body:expr) => {
            row($what, $per, &mut |s: &mut ClusterSnapshot| {
                for $o in s.$coll.iter_mut() {
                    $body;
                }
            })
        };
    }
    clear!("pod.metadata.labels", np, pods, |p| p.metadata.labels =
        Default::default());
    clear!("pod.metadata.annotations", np, pods, |p| p
        .metadata
        .annotations =
        Default::default());
    clear!("pod.metadata.ownerReferences", np, pods, |p| p
        .metadata
        .owner_references =
        Default::default());
    clear!("pod.metadata.name", np, pods, |p| p.metadata.name =
        Default::default());
    clear!("pod.metadata.generateName", np, pods, |p| p
        .metadata
        .generate_name =
        Default::default());
    clear!("pod.metadata.namespace", np, pods, |p| p
        .metadata
        .namespace =
        Default::default());
    clear!("pod.metadata.uid", np, pods, |p| p.metadata.uid =
        Default::default());
    clear!("pod.metadata (rest)", np, pods, |p| p.metadata =
        Default::default());
    clear!(
        "pod.spec.containers[].name",
        np,
        pods,
        |p| for c in &mut p.spec.containers {
            c.name = Default::default()
        }
    );
    clear!(
        "pod.spec.containers[].image",
        np,
        pods,
        |p| for c in &mut p.spec.containers {
            c.image = Default::default()
        }
    );
    clear!(
        "pod.spec.containers[].resources",
        np,
        pods,
        |p| for c in &mut p.spec.containers {
            c.resources = Default::default()
        }
    );
    clear!("pod.spec.containers (rest)", np, pods, |p| p
        .spec
        .containers =
        Default::default());
    clear!("pod.spec.nodeName", np, pods, |p| p.spec.node_name =
        Default::default());
    clear!("pod.spec.nodeSelector", np, pods, |p| p
        .spec
        .node_selector =
        Default::default());
    clear!("pod.spec.tolerations", np, pods, |p| p.spec.tolerations =
        Default::default());
    clear!("pod.spec.volumes", np, pods, |p| p.spec.volumes =
        Default::default());
    clear!("pod.spec.priorityClassName", np, pods, |p| p
        .spec
        .priority_class_name =
        Default::default());
    clear!("pod.spec.schedulerName", np, pods, |p| p
        .spec
        .scheduler_name =
        Default::default());
    clear!("pod.spec (rest)", np, pods, |p| p.spec = Default::default());
    clear!("pod.status.conditions", np, pods, |p| p.status.conditions =
        Default::default());
    clear!("pod.status.containerStatuses", np, pods, |p| p
        .status
        .container_statuses =
        Default::default());
    clear!("pod.status (rest)", np, pods, |p| p.status =
        Default::default());
    row("pods vector", np, &mut |s| s.pods = Vec::new());
    clear!("node.metadata.labels", nn, nodes, |n| n.metadata.labels =
        Default::default());
    clear!("node.metadata.annotations", nn, nodes, |n| n
        .metadata
        .annotations =
        Default::default());
    clear!("node.metadata (rest)", nn, nodes, |n| n.metadata =
        Default::default());
    clear!("node.spec", nn, nodes, |n| n.spec = Default::default());
    clear!("node.status.capacity+allocatable", nn, nodes, |n| {
        n.status.capacity = Default::default();
        n.status.allocatable = Default::default()
    });
    clear!("node.status.conditions", nn, nodes, |n| n
        .status
        .conditions =
        Default::default());
    clear!("node.status (rest)", nn, nodes, |n| n.status =
        Default::default());
    row("nodes vector", nn, &mut |s| s.nodes = Vec::new());
    let rest = PEAK.current_usage().saturating_sub(base);
    println!("{:<40} {:>9.1} MiB", "rest of the snapshot", mb(rest));
    println!(
        "sizes: Pod {} B, Node {} B, ObjectMeta {} B, PodSpec {} B, PodStatus {} B, Container {} B",
        std::mem::size_of::<cube_model::objects::Pod>(),
        std::mem::size_of::<cube_model::objects::Node>(),
        std::mem::size_of::<cube_model::objects::ObjectMeta>(),
        std::mem::size_of::<cube_model::objects::PodSpec>(),
        std::mem::size_of::<cube_model::objects::PodStatus>(),
        std::mem::size_of::<cube_model::objects::Container>(),
    );
}
