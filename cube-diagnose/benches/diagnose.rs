//! Loading plus the whole catalog over a generated cluster at Kubernetes' published limits
//! (5,000 nodes, 150,000 pods), against merely deserializing the same JSON into `k8s_openapi`
//! types, measured in the same run. Peak heap per phase is measured with a counting allocator.
//!
//! `CUBE_BENCH_NODES` / `CUBE_BENCH_PODS` shrink the cluster for quick runs.
//!
//! Figures of 2026-11-30 (2-core shared dev machine, criterion, 10 samples, same run):
//! `k8s_openapi` deserialize 2.22 s, load + whole catalog 1.82 s (ratio 0.82); a later, noisier
//! run 3.17 s vs 2.45 s (0.77). Peak heap (one-shot): 1543 MiB for `k8s_openapi` vs 594-887 MiB
//! for load + diagnosis. Breakdown: loader 0.8-1.4 s, context/indexes 0.09-0.37 s, all 27 rules
//! 0.22-0.54 s, dropping the snapshot 0.3-0.7 s.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use cube_diagnose::{Context, Engine};
use cube_model::ClusterSnapshot;
use peak_alloc::PeakAlloc;
use serde::Deserialize;

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `kubectl get nodes -o json` and `kubectl get pods -A -o json` for a generated cluster.
fn generate(nodes: usize, pods: usize) -> (String, String) {
    let mut n = String::with_capacity(nodes * 1500);
    n.push_str(r#"{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":["#);
    for i in 0..nodes {
        if i > 0 {
            n.push(',');
        }
        let gpu = i % 4 == 0;
        let pool = if gpu { "gpu-training" } else { "cpu-general" };
        let kernel = if i % 97 == 0 {
            "6.8.0-45-generic"
        } else {
            "5.15.0-105-generic"
        };
        let gpu_labels = if gpu {
            r#","nvidia.com/gpu.present":"true","nvidia.com/gpu.count":"8","nvidia.com/cuda.driver.major":"550""#
        } else {
            ""
        };
        let gpu_alloc = if gpu { r#","nvidia.com/gpu":"8""# } else { "" };
        let ready = if i % 500 == 7 { "False" } else { "True" };
        n.push_str(&format!(
            r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"node-{i:05}","uid":"00000000-0000-0000-0000-{i:012}","creationTimestamp":"2026-01-01T00:00:00Z","labels":{{"kubernetes.io/hostname":"node-{i:05}","kubernetes.io/os":"linux","kubernetes.io/arch":"amd64","cube.example/pool":"{pool}"{gpu_labels}}}}},"spec":{{"podCIDR":"10.{}.{}.0/24"}},"status":{{"capacity":{{"cpu":"96","memory":"1056000000Ki","pods":"110","ephemeral-storage":"1800000000Ki"{gpu_alloc}}},"allocatable":{{"cpu":"95500m","memory":"1054648832Ki","pods":"110","ephemeral-storage":"1698694367418"{gpu_alloc}}},"conditions":[{{"type":"MemoryPressure","status":"False","reason":"KubeletHasSufficientMemory","lastHeartbeatTime":"2026-11-30T12:00:00Z"}},{{"type":"Ready","status":"{ready}","reason":"KubeletReady","message":"kubelet is posting ready status","lastHeartbeatTime":"2026-11-30T12:00:00Z","lastTransitionTime":"2026-11-30T11:00:00Z"}}],"addresses":[{{"type":"InternalIP","address":"10.{}.{}.{}"}},{{"type":"Hostname","address":"node-{i:05}"}}],"nodeInfo":{{"kernelVersion":"{kernel}","osImage":"Ubuntu 22.04.4 LTS","containerRuntimeVersion":"containerd://1.7.12","kubeletVersion":"v1.36.2","kubeProxyVersion":"v1.36.2","operatingSystem":"linux","architecture":"amd64","machineID":"m{i}","systemUUID":"s{i}","bootID":"b{i}"}}}}}}"#,
            i / 250, i % 250, i / 65536, (i / 256) % 256, i % 256
        ));
    }
    n.push_str("]}");
    let mut p = String::with_capacity(pods * 1500);
    p.push_str(r#"{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":["#);
    for j in 0..pods {
        if j > 0 {
            p.push(',');
        }
        let ns = format!("team-{:02}", j % 50);
        let node = j % nodes;
        let pending = j % 200 == 199;
        let gpu_node = node.is_multiple_of(4);
        let node_name = if pending {
            String::new()
        } else {
            format!(r#""nodeName":"node-{node:05}","#)
        };
        let phase = if pending { "Pending" } else { "Running" };
        let gpu = if gpu_node && !pending && (j / nodes).is_multiple_of(6) {
            r#","nvidia.com/gpu":"1""#
        } else if pending && j % 400 == 399 {
            r#","nvidia.com/gpu":"16""#
        } else {
            ""
        };
        let tol = if gpu_node || pending {
            r#""tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}],"#
        } else {
            ""
        };
        p.push_str(&format!(
            r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"worker-{j:06}","namespace":"{ns}","uid":"10000000-0000-0000-0000-{j:012}","creationTimestamp":"2026-11-30T10:00:00Z","labels":{{"app":"worker","pod-template-hash":"abc{}"}},"ownerReferences":[{{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"worker-abc{}","uid":"r{}","controller":true}}]}},"spec":{{{node_name}{tol}"containers":[{{"name":"main","image":"registry.example/worker:1.0","resources":{{"requests":{{"cpu":"250m","memory":"512Mi"{gpu}}},"limits":{{"memory":"1Gi"{gpu}}}}}}}],"restartPolicy":"Always","schedulerName":"default-scheduler","priority":0}},"status":{{"phase":"{phase}","qosClass":"Burstable","podIP":"10.200.{}.{}"}}}}"#,
            j % 50, j % 50, j % 50, (j / 256) % 256, j % 256
        ));
    }
    p.push_str("]}");
    (n, p)
}

#[derive(Deserialize)]
struct Items<T> {
    items: Vec<T>,
}

fn deserialize_openapi(nodes: &str, pods: &str) -> usize {
    let n: Items<k8s_openapi::api::core::v1::Node> = serde_json::from_str(nodes).expect("nodes");
    let p: Items<k8s_openapi::api::core::v1::Pod> = serde_json::from_str(pods).expect("pods");
    n.items.len() + p.items.len()
}

fn diagnose(nodes: &str, pods: &str) -> usize {
    let mut snap = ClusterSnapshot::from_slice("nodes.json", nodes.as_bytes());
    snap.add_bytes("pods.json", pods.as_bytes());
    let ctx = Context::new(&snap);
    let report = Engine::new().run(&ctx);
    report.findings.len()
}

fn once(label: &str, f: impl FnOnce() -> usize) -> Duration {
    PEAK.reset_peak_usage();
    let base = PEAK.current_usage();
    let t = Instant::now();
    let out = black_box(f());
    let d = t.elapsed();
    let peak = PEAK.peak_usage().saturating_sub(base);
    eprintln!(
        "{label:<28} {:>9.3} s   peak heap {:>8.1} MiB   (result {out})",
        d.as_secs_f64(),
        peak as f64 / (1024.0 * 1024.0)
    );
    d
}

fn bench(c: &mut Criterion) {
    let nodes = env_usize("CUBE_BENCH_NODES", 5_000);
    let pods = env_usize("CUBE_BENCH_PODS", 150_000);
    let (nj, pj) = generate(nodes, pods);
    eprintln!(
        "generated {nodes} nodes ({:.1} MiB JSON) and {pods} pods ({:.1} MiB JSON)",
        nj.len() as f64 / 1048576.0,
        pj.len() as f64 / 1048576.0
    );
    // one-shot figures with peak memory, same run
    let base = once("k8s_openapi deserialize", || deserialize_openapi(&nj, &pj));
    let diag = once("load + whole catalog", || diagnose(&nj, &pj));
    eprintln!(
        "ratio diagnose / deserialize = {:.2}",
        diag.as_secs_f64() / base.as_secs_f64()
    );
    // where the time goes
    let t = Instant::now();
    let mut snap = ClusterSnapshot::from_slice("nodes.json", nj.as_bytes());
    snap.add_bytes("pods.json", pj.as_bytes());
    let load = t.elapsed();
    let t = Instant::now();
    let ctx = Context::new(&snap);
    let index = t.elapsed();
    let mut per_rule: Vec<(Duration, String, usize)> = cube_diagnose::rules::catalog()
        .iter()
        .map(|r| {
            let t = Instant::now();
            let found = r.check(&ctx);
            let d = t.elapsed();
            if let Some(f) = found.first() {
                eprintln!(
                    "    e.g. {}: {}",
                    r.id(),
                    f.message.chars().take(160).collect::<String>()
                );
            }
            (d, r.id().to_owned(), found.len())
        })
        .collect();
    per_rule.sort_by_key(|r| std::cmp::Reverse(r.0));
    eprintln!(
        "  load {:.3} s, context/index {:.3} s, rules {:.3} s",
        load.as_secs_f64(),
        index.as_secs_f64(),
        per_rule.iter().map(|r| r.0.as_secs_f64()).sum::<f64>()
    );
    for (d, id, n) in per_rule.iter().take(6) {
        eprintln!("    {id:<28} {:>8.3} s  {n} findings", d.as_secs_f64());
    }
    let t = Instant::now();
    drop(ctx);
    let d_ctx = t.elapsed();
    let t = Instant::now();
    drop(snap);
    eprintln!(
        "  drop context {:.3} s, drop snapshot {:.3} s",
        d_ctx.as_secs_f64(),
        t.elapsed().as_secs_f64()
    );

    let mut g = c.benchmark_group(format!("{nodes}_nodes_{pods}_pods"));
    g.sample_size(10)
        .measurement_time(Duration::from_secs(15))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("k8s_openapi_deserialize", |b| {
        b.iter(|| deserialize_openapi(black_box(&nj), black_box(&pj)))
    });
    g.bench_function("load_and_diagnose", |b| {
        b.iter(|| diagnose(black_box(&nj), black_box(&pj)))
    });
    g.finish();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
