//! Loading a dump needs no more than a small multiple of its size (issue 9: a 2 GB dump was
//! parsed twice and needed about 10 GB). Its own test binary with one test, so no other thread
//! allocates while it measures.

use cube_model::ClusterSnapshot;
use peak_alloc::PeakAlloc;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// A `kubectl get nodes,pods,secrets -A -o json` List of realistic objects (about 2 kB each).
fn dump(nodes: usize, pods: usize, broken_item: bool) -> Vec<u8> {
    let mut items: Vec<String> = Vec::with_capacity(nodes + pods + 2);
    for i in 0..nodes {
        items.push(format!(
            r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"creationTimestamp":"2026-11-30T12:00:00Z","labels":{{"kubernetes.io/hostname":"node-{i}","nvidia.com/gpu.present":"true","nvidia.com/gpu.product":"NVIDIA-A100-SXM4-80GB","node-role.kubernetes.io/worker":""}},"name":"node-{i}","resourceVersion":"{i}","uid":"00000000-0000-0000-0000-{i:012}"}},"spec":{{"podCIDR":"10.244.{}.0/24"}},"status":{{"allocatable":{{"cpu":"64","memory":"512Gi","nvidia.com/gpu":"8","pods":"110"}},"capacity":{{"cpu":"64","memory":"512Gi","nvidia.com/gpu":"8","pods":"110"}},"conditions":[{{"lastHeartbeatTime":"2026-11-30T12:00:00Z","lastTransitionTime":"2026-11-30T12:00:00Z","message":"kubelet is posting ready status","reason":"KubeletReady","status":"True","type":"Ready"}}],"nodeInfo":{{"containerRuntimeVersion":"containerd://1.7.22","kernelVersion":"5.15.0-1","kubeletVersion":"v1.36.0","osImage":"Ubuntu 22.04.4 LTS"}}}}}}"#,
            i % 250
        ));
    }
    for i in 0..pods {
        items.push(format!(
            r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"annotations":{{"kubectl.kubernetes.io/last-applied-configuration":"{{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{{\"name\":\"train-{i}\"}}}}"}},"creationTimestamp":"2026-11-30T12:00:00Z","labels":{{"app":"train","team":"vision"}},"name":"train-{i}","namespace":"team-{}","resourceVersion":"{i}","uid":"11111111-0000-0000-0000-{i:012}"}},"spec":{{"containers":[{{"env":[{{"name":"EPOCHS","value":"10"}}],"image":"nvcr.io/nvidia/pytorch:24.05-py3","name":"main","resources":{{"limits":{{"nvidia.com/gpu":"1"}},"requests":{{"cpu":"4","memory":"32Gi","nvidia.com/gpu":"1"}}}},"volumeMounts":[{{"mountPath":"/data","name":"data"}}]}}],"nodeName":"node-{}","priorityClassName":"training","volumes":[{{"name":"data","persistentVolumeClaim":{{"claimName":"data"}}}}]}},"status":{{"conditions":[{{"status":"True","type":"Ready"}}],"phase":"Running","qosClass":"Burstable","startTime":"2026-11-30T12:00:00Z"}}}}"#,
            i % 20,
            i % nodes.max(1)
        ));
    }
    items.push(r#"{"apiVersion":"v1","data":{"password":"aHVudGVyMg=="},"kind":"Secret","metadata":{"name":"db","namespace":"team-0"},"type":"Opaque"}"#.to_owned());
    if broken_item {
        // a syntax error in the middle: the general path and the resynchronisation run
        let mid = items.len() / 2;
        items[mid] = items[mid].replacen("\"spec\":", "\"spec\": oops ", 1);
    }
    format!(
        "{{\"apiVersion\":\"v1\",\"items\":[{}],\"kind\":\"List\",\"metadata\":{{\"resourceVersion\":\"\"}}}}",
        items.join(",\n")
    )
    .into_bytes()
}

/// `kubectl get -o json` indents by four spaces (`json.MarshalIndent(obj, "", "    ")` in
/// k8s.io/cli-runtime/pkg/printers/json.go).
fn kubectl_indent(compact: &[u8]) -> Vec<u8> {
    use serde::Serialize;
    let v: serde_json::Value = serde_json::from_slice(compact).expect("generated JSON");
    let mut out = Vec::with_capacity(compact.len() * 2);
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    v.serialize(&mut ser).expect("serialize");
    out
}

#[test]
fn loading_a_dump_needs_a_small_multiple_of_its_size() {
    for (broken, pretty) in [(false, false), (true, false), (false, true)] {
        let bytes = dump(200, 12_000, broken);
        let bytes = if pretty {
            kubectl_indent(&bytes)
        } else {
            bytes
        };
        let size = bytes.len();
        let before = ALLOC.current_usage();
        ALLOC.reset_peak_usage();
        let snapshot = ClusterSnapshot::from_slice("dump.json", &bytes);
        let peak = ALLOC.peak_usage().saturating_sub(before);
        let kept_bytes = ALLOC.current_usage().saturating_sub(before);
        let kept = snapshot.object_count();
        let expected = if broken { 12_199 } else { 12_200 };
        assert_eq!(kept, expected, "broken={broken}: {:?}", snapshot.problems);
        // The loader streams: its peak is what the snapshot keeps (no second copy of the input,
        // no serde_json::Value of it). Measured on 2026-12-01: 3.7x for compact items of about
        // 900 bytes (the worst case: little syntax per value), 1.4x for the same dump as
        // `kubectl get -o json` prints it. These bounds guard that; issue 9's whole-process
        // target (a 2 GB dump under 3 GB peak RSS) is the ignored test
        // `examples/tests/peak_memory.rs` (`scripts/peak-memory.sh`).
        let ceiling = if pretty { 2.0 } else { 4.5 };
        let ratio = peak as f64 / size as f64;
        let kept_ratio = kept_bytes as f64 / size as f64;
        eprintln!(
            "broken={broken} pretty={pretty}: input {size} bytes, peak {peak} bytes above it \
             ({ratio:.2}x), {kept_bytes} bytes kept ({kept_ratio:.2}x)"
        );
        // Issue 12 item 3: the loaded snapshot's heap is at most the size of its JSON as
        // `kubectl get -o json` prints it (measured on 2026-12-02: 0.72x with the compact
        // `Labels` and the boxed rare fields; about half of it is the spare capacity of
        // the grown pod vector, which is never touched and so not resident). The compact form
        // (little syntax per value, the worst case: 1.9x) is bounded more loosely.
        // 1.90x / 0.72x before the Sparse groups of ObjectMeta, PodSpec and PodStatus, 1.34x /
        // 0.51x after (issue 9)
        let kept_ceiling = if pretty { 0.65 } else { 1.7 };
        assert!(
            kept_ratio <= kept_ceiling,
            "broken={broken} pretty={pretty}: the snapshot keeps {kept_bytes} bytes for a \
             {size}-byte input ({kept_ratio:.2}x, ceiling {kept_ceiling}x)"
        );
        assert!(
            ratio < ceiling,
            "broken={broken} pretty={pretty}: loading {size} bytes peaked at {peak} bytes above \
             the input ({ratio:.2}x, ceiling {ceiling}x)"
        );
        drop(snapshot);
    }
}
