//! `cluster_fleet` end to end over the loopback doubles of the `fleet_doubles` program: three
//! registry entries pointing at an in-memory API server served over TLS with bearer tokens,
//! a dead port, a token the server does not know (401) and a port that accepts and never
//! answers. The silent cluster costs its own per-cluster timeout and delays no other.

use std::io::BufRead as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{example as program, root};

/// The `fleet_doubles` child, killed (by its own handle) when dropped.
struct Doubles(std::process::Child);

impl Drop for Doubles {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_doubles(dir: &std::path::Path) -> (Doubles, String) {
    let mut child = Command::new(program("fleet_doubles"))
        .args(["--dir", dir.to_str().unwrap(), "--lifetime", "300"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start fleet_doubles");
    let stdout = child.stdout.take().expect("stdout");
    let doubles = Doubles(child);
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("fleet_doubles prints the registry path");
    let registry = line
        .trim()
        .strip_prefix("registry: ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    (doubles, registry)
}

#[test]
fn fleet_over_served_doubles_with_dead_unauthorized_and_silent_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let (_doubles, registry) = start_doubles(tmp.path());
    let timeout = Duration::from_secs(3);
    let start = Instant::now();
    let out = Command::new(program("cluster_fleet"))
        .args([
            "--registry",
            &registry,
            "--timeout",
            "3",
            "--pool-label",
            "cube.example/pool",
            "--output",
            "json",
            "--place",
            "--selector",
            "env=prod",
            "--gpus",
            "nvidia.com/gpu=2",
            "--gpu-kind",
            "nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB",
        ])
        .output()
        .expect("run cluster_fleet");
    let wall = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "some cluster not ready: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_str(&stdout).expect("JSON output");

    // The silent cluster costs its own timeout and nothing more: the whole program (process
    // start, six probes at once, output) ends within the timeout plus a margin.
    assert!(wall >= timeout, "{wall:?}");
    assert!(wall < timeout + Duration::from_millis(2500), "{wall:?}");
    assert_eq!(json["timeoutMs"], 3000);
    let total = json["elapsedMs"].as_u64().unwrap();
    assert!((3000..4000).contains(&total), "probe took {total} ms");

    let by = |name: &str| -> &Value {
        json["clusters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {json}"))
    };
    for name in ["bj-prod", "sh-prod", "bj-dev", "dead", "wrong-token"] {
        let ms = by(name)["elapsedMs"].as_u64().unwrap();
        assert!(ms < 3000, "{name} took {ms} ms: held up by the silent one");
    }
    assert_eq!(json["ready"], 3);
    assert_eq!(json["notReady"], 3);

    let prod = by("bj-prod");
    assert_eq!(prod["ready"]["status"], "True");
    assert_eq!(prod["version"], "v1.36.2");
    assert_eq!(prod["user"], "console", "the token's user");
    assert_eq!(prod["nodes"]["total"], 7);
    assert_eq!(prod["nodes"]["ready"], 5);
    // Figures worked out by hand from the snapshot (see cube-cluster's fleet_probe test).
    assert_eq!(prod["capacity"]["allocatable"]["cpu"], "357");
    assert_eq!(prod["capacity"]["free"]["cpu"], "275500m");
    assert_eq!(prod["capacity"]["allocatable"]["nvidia.com/gpu"], "20");
    assert_eq!(prod["capacity"]["free"]["nvidia.com/gpu"], "4");
    let pools: Vec<&str> = prod["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["pool"].as_str().unwrap())
        .collect();
    assert_eq!(
        pools,
        [
            "cube.example/pool unset",
            "cube.example/pool=cpu-general",
            "cube.example/pool=gpu-training"
        ]
    );
    assert!(prod.get("probeTaint").is_none());
    assert_eq!(
        prod["gpuKinds"][0]["kind"],
        "nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB"
    );
    assert_eq!(prod["gpuKinds"][0]["free"]["nvidia.com/gpu"], "4");

    let dead = by("dead");
    assert_eq!(dead["ready"]["status"], "Unknown");
    assert_eq!(dead["class"], "refused");
    assert_eq!(dead["probeTaint"]["key"], "cluster.karmada.io/unreachable");
    assert_eq!(dead["probeTaint"]["effect"], "NoSchedule");

    let unauth = by("wrong-token");
    assert_eq!(unauth["ready"]["status"], "False");
    assert_eq!(unauth["ready"]["reason"], "ClusterUnauthorized");
    assert_eq!(unauth["probeTaint"]["key"], "cluster.karmada.io/not-ready");

    let silent = by("silent");
    assert_eq!(silent["class"], "timeout");
    assert_eq!(
        silent["probeTaint"]["key"],
        "cluster.karmada.io/unreachable"
    );
    assert!(silent["elapsedMs"].as_u64().unwrap() >= 3000);

    // Placement over the probe: the prod clusters with 2 free A100s are chosen, the others are
    // rejected with their reasons.
    let place = &json["placement"];
    assert_eq!(place["chosen"], serde_json::json!(["bj-prod", "sh-prod"]));
    let reasons = |name: &str| -> Vec<String> {
        place["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["cluster"] == name)
            .unwrap()["reasons"]
            .as_array()
            .map(|r| {
                r.iter()
                    .map(|x| x["kind"].as_str().unwrap().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        reasons("bj-dev"),
        ["selectorUnsatisfied", "taintNotTolerated"]
    );
    assert_eq!(reasons("dead"), ["unhealthy"]);
    assert_eq!(reasons("wrong-token"), ["unhealthy"]);
    assert_eq!(reasons("silent"), ["unhealthy"]);

    // The table: the taints, the hints and the timing line.
    let out = Command::new(program("cluster_fleet"))
        .args(["--registry", &registry, "--timeout", "1"])
        .output()
        .expect("run cluster_fleet");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        table.contains("  taint cluster.karmada.io/not-ready:NoSchedule"),
        "{table}"
    );
    assert!(
        table.contains("  taint cluster.karmada.io/unreachable:NoSchedule"),
        "{table}"
    );
    assert!(table.contains("(per-cluster timeout 1000 ms"), "{table}");
    assert!(
        out.stderr.is_empty(),
        "no progress when stderr is not a terminal"
    );
}
