//! Issue 9's whole-process memory target: `cluster_diagnose` on a 2 GB dump finishes and peaks
//! below 3 GB, decimal: 3,000,000,000 bytes for the 2 GiB (2,147,483,648-byte) dump this test
//! writes, so below 1.397 times the dump at any size ([`MAX_PEAK_RATIO`]). Ignored by default (it writes a 2 GB file and needs a few
//! GB of memory); run it on a release build:
//!
//! ```text
//! cargo test --release -p cube-examples --test peak_memory -- --ignored --nocapture
//! CUBE_PEAK_DUMP=/path/dump.json cargo test ...       # an existing dump instead
//! CUBE_PEAK_DUMP_MB=200 cargo test ...                # a smaller generated dump
//! ```
//!
//! `a_live_page_of_pending_pods_needs_a_few_kb_a_pod` measures a live collection whose
//! loopback server answers one page of 200,000 Pending pods (`CUBE_PEAK_PODS`):
//!
//! ```text
//! cargo test --release -p cube-examples --test peak_memory a_live_page -- --ignored --nocapture
//! ```
//!
//! `scripts/peak-memory.sh` measures the same with GNU time on the bench generator's dump. The
//! CI-size check of the loader alone is `cube-model/tests/snapshot_alloc.rs`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{example as bin, root, vm_hwm, wait_within};

/// One item as `kubectl get -o json` prints it inside a List (four-space indent,
/// k8s.io/cli-runtime/pkg/printers/json.go).
fn push_item(out: &mut Vec<u8>, item: &serde_json::Value) {
    use serde::Serialize;
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, fmt);
    item.serialize(&mut ser).expect("serialize");
}

fn node(i: usize) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": format!("node-{i}"), "uid": format!("00000000-0000-0000-0000-{i:012}"),
            "creationTimestamp": "2026-11-30T12:00:00Z", "resourceVersion": i.to_string(),
            "labels": {"kubernetes.io/hostname": format!("node-{i}"), "nvidia.com/gpu.present": "true",
                       "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB", "node-role.kubernetes.io/worker": ""}},
        "spec": {"podCIDR": format!("10.244.{}.0/24", i % 250)},
        "status": {"allocatable": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"},
                   "capacity": {"cpu": "64", "memory": "512Gi", "nvidia.com/gpu": "8", "pods": "110"},
                   "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                                   "message": "kubelet is posting ready status",
                                   "lastHeartbeatTime": "2026-11-30T12:00:00Z",
                                   "lastTransitionTime": "2026-11-30T12:00:00Z"}],
                   "nodeInfo": {"kubeletVersion": "v1.36.0", "containerRuntimeVersion": "containerd://1.7.22",
                                "kernelVersion": "5.15.0-1", "osImage": "Ubuntu 22.04.4 LTS"}}
    })
}

fn pod(i: usize, nodes: usize) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": format!("train-{i}"), "namespace": format!("team-{}", i % 20),
            "uid": format!("11111111-0000-0000-0000-{i:012}"), "resourceVersion": i.to_string(),
            "creationTimestamp": "2026-11-30T12:00:00Z", "labels": {"app": "train", "team": "vision"}},
        "spec": {"nodeName": format!("node-{}", i % nodes), "priorityClassName": "training",
            "containers": [{"name": "main", "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                "env": [{"name": "EPOCHS", "value": "10"}],
                "resources": {"limits": {"nvidia.com/gpu": "1"},
                              "requests": {"cpu": "4", "memory": "32Gi", "nvidia.com/gpu": "1"}},
                "volumeMounts": [{"mountPath": "/data", "name": "data"}]}],
            "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]},
        "status": {"phase": "Running", "qosClass": "Burstable", "startTime": "2026-11-30T12:00:00Z",
                   "conditions": [{"type": "Ready", "status": "True"}]}
    })
}

/// Writes a `kubectl get nodes,pods -A -o json` List of about `mib` MiB, item by item.
fn write_dump(path: &Path, mib: u64) -> u64 {
    let file = std::fs::File::create(path).expect("create the dump");
    let mut w = std::io::BufWriter::new(file);
    w.write_all(b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n")
        .expect("write");
    let target = mib << 20;
    let nodes = ((target / 600_000) as usize).max(10);
    let mut written = 0u64;
    let mut buf = Vec::with_capacity(8192);
    let mut i = 0usize;
    while written < target {
        buf.clear();
        if i > 0 {
            buf.extend_from_slice(b",\n");
        }
        if i < nodes {
            push_item(&mut buf, &node(i));
        } else {
            push_item(&mut buf, &pod(i - nodes, nodes));
        }
        w.write_all(&buf).expect("write");
        written += buf.len() as u64;
        i += 1;
    }
    w.write_all(b"\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
        .expect("write");
    w.flush().expect("flush");
    std::fs::metadata(path).expect("dump size").len()
}

/// The bound: 3,000,000,000 bytes of peak for a 2 GiB dump (3 GB decimal for "a 2 GB dump", on
/// the generous reading of "2 GB" as 2 GiB), as a ratio to the dump's size.
const MAX_PEAK_RATIO: f64 = 3_000_000_000.0 / 2_147_483_648.0;

/// Waits for `child` (process `pid`, started at `start`) to exit, sampling its peak resident
/// size at every poll ([`vm_hwm`]); fails the test when it runs longer than `deadline`. Returns
/// the exit status and the peak in bytes (VmHWM is the peak so far: the last reading before the
/// exit is the process's peak).
fn wait_sampling_peak(
    child: &mut std::process::Child,
    pid: u32,
    start: Instant,
    deadline: Duration,
) -> (std::process::ExitStatus, u64) {
    let mut peak = 0u64;
    let left = deadline.saturating_sub(start.elapsed());
    let status = wait_within(child, left, || peak = peak.max(vm_hwm(pid).unwrap_or(0)));
    let status =
        status.unwrap_or_else(|| panic!("cluster_diagnose did not end within {deadline:?}"));
    (status, peak)
}

#[test]
#[ignore = "writes a 2 GB dump and needs several GB of memory: run on a release build"]
fn cluster_diagnose_on_a_2gb_dump_peaks_below_3_gb() {
    let (dump, size) = match std::env::var_os("CUBE_PEAK_DUMP") {
        Some(p) => {
            let p = PathBuf::from(p);
            let size = std::fs::metadata(&p).expect("CUBE_PEAK_DUMP").len();
            (p, size)
        }
        None => {
            let mib = std::env::var("CUBE_PEAK_DUMP_MB")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2048);
            let p = std::env::temp_dir().join(format!("cube-peak-{}.json", std::process::id()));
            let size = write_dump(&p, mib);
            (p, size)
        }
    };
    let bin = bin("cluster_diagnose");
    assert!(
        bin.exists(),
        "build it first: cargo build --release -p cube-examples --example cluster_diagnose"
    );
    let start = Instant::now();
    let mut child = Command::new(&bin)
        .args(["--snapshot"])
        .arg(&dump)
        .args(["--output", "json"])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let (status, peak) = wait_sampling_peak(&mut child, pid, start, Duration::from_secs(3600));
    let elapsed = start.elapsed();
    if std::env::var_os("CUBE_PEAK_DUMP").is_none() {
        let _ = std::fs::remove_file(&dump);
    }
    let ratio = peak as f64 / size as f64;
    eprintln!(
        "dump {size} bytes: exit {:?} after {elapsed:.1?}, peak RSS {peak} bytes ({ratio:.2}x the dump)",
        status.code()
    );
    assert!(
        matches!(status.code(), Some(0..=3)),
        "cluster_diagnose ended with {status:?}"
    );
    assert!(
        ratio < MAX_PEAK_RATIO,
        "peak RSS {peak} bytes is {ratio:.3}x the {size}-byte dump (target: below {MAX_PEAK_RATIO:.3}x, 3,000,000,000 bytes for 2 GiB)"
    );
}

/// Serves one `PodList` page of `pods` Pending pods (no requests: one `pod-missing-requests`
/// finding each) on 127.0.0.1 for `/api/v1/pods`, and an empty list for every other path; one
/// request per connection. Returns the port.
fn serve_one_page(pods: usize) -> u16 {
    use std::io::{BufRead, BufReader};
    let mut body = Vec::with_capacity(pods * 160);
    body.extend_from_slice(
        br#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":["#,
    );
    for i in 0..pods {
        if i > 0 {
            body.push(b',');
        }
        write!(
            body,
            r#"{{"metadata":{{"name":"p{i}","namespace":"default","uid":"u{i}"}},"spec":{{"containers":[{{"name":"c","image":"x"}}]}},"status":{{"phase":"Pending"}}}}"#
        )
        .expect("write");
    }
    body.extend_from_slice(b"]}");
    let body = std::sync::Arc::new(body);
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("port").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let body = std::sync::Arc::clone(&body);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut request = String::new();
                if reader.read_line(&mut request).is_err() {
                    return;
                }
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = request.split_whitespace().nth(1).unwrap_or("/");
                let empty = br#"{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}"#;
                let answer: &[u8] = if path.starts_with("/api/v1/pods") {
                    &body
                } else {
                    empty
                };
                let mut out = &stream;
                let _ = write!(
                    out,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    answer.len()
                );
                let _ = out.write_all(answer);
            });
        }
    });
    port
}

/// A live collection whose server answers one page of many Pending pods (a server that ignores
/// `limit`; issue 9's page of 1,000,000 pods): each pod is one finding, and the report is
/// written as it is rendered even though a secret (the kubeconfig's token) is hidden in it.
/// The equal findings of the pods are folded into one as the rule reports them
/// (`cube_diagnose::group`), so the report stays small whatever the page. Bound: 4 KB of peak
/// per pod (about 3 KB on 2026-12-02 with one finding per pod; 4.7 KB when the report was held
/// whole to hide the token; folded, a debug build measured 1.1 KB a pod at 100,000 pods, where it
/// was 3.2 KB). `CUBE_PEAK_PODS` (default 200,000) sets the page.
#[test]
#[ignore = "needs about 1 GB of memory: run on a release build"]
fn a_live_page_of_pending_pods_needs_a_few_kb_a_pod() {
    let pods: usize = std::env::var("CUBE_PEAK_PODS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let port = serve_one_page(pods);
    let kubeconfig = std::env::temp_dir().join(format!("cube-peak-kc-{}.yaml", std::process::id()));
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster: {{server: 'http://127.0.0.1:{port}'}}\nusers:\n- name: u\n  user: {{token: peak-page-token-value}}\ncontexts:\n- name: a\n  context: {{cluster: k, user: u}}\n"
        ),
    )
    .expect("write the kubeconfig");
    let bin = bin("cluster_diagnose");
    let start = Instant::now();
    let mut child = Command::new(&bin)
        .arg("--kubeconfig")
        .arg(&kubeconfig)
        .args(["--output", "json"])
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    // read the report while it is written (counting findings) and sample the peak meanwhile
    let stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::BufReader::new(stdout), &mut text)
            .expect("read the report");
        text
    });
    let (status, peak) = wait_sampling_peak(&mut child, pid, start, Duration::from_secs(1800));
    let report = reader.join().expect("reader");
    let _ = std::fs::remove_file(&kubeconfig);
    let per_pod = peak as f64 / pods as f64;
    eprintln!(
        "one page of {pods} Pending pods: exit {:?} after {:.1?}, peak RSS {peak} bytes ({per_pod:.0} bytes a pod), report {} bytes",
        status.code(),
        start.elapsed(),
        report.len()
    );
    assert!(matches!(status.code(), Some(0..=3)), "{status:?}");
    // every pod is counted: equal findings are folded into one that names the count (a group
    // of the first subjects), so the report no longer grows with the pods
    let json: serde_json::Value = serde_json::from_str(&report).expect("the report is JSON");
    let counted: u64 = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["ruleId"] == "pod-missing-requests")
        .map(|f| f["group"]["count"].as_u64().unwrap_or(1))
        .sum();
    assert!(counted >= pods as u64, "{counted} pods counted of {pods}");
    assert!(
        report.len() < 1 << 20,
        "the report grows with the pods: {} bytes",
        report.len()
    );
    assert!(
        !report.contains("peak-page-token-value"),
        "the token is printed"
    );
    assert!(per_pod < 4000.0, "{per_pod:.0} bytes a pod");
}
