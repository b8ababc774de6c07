//! The fleet over loopback doubles: three registry entries pointing at the HTTPS double, one
//! dead port, one rejected token and one server that never answers; figures checked against
//! numbers worked out by hand from `apiserver/snapshot-gpu-cluster.json`; a slow cluster never
//! delays the others beyond its own timeout.

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cube_cluster::api::ClusterApi;
use cube_cluster::fleet::{
    FleetOptions, FleetProgress, FleetTarget, TAINT_NOT_READY, TAINT_UNREACHABLE, probe_fleet,
    probe_fleet_targets,
};
use cube_cluster::memory::MemoryCluster;
use cube_cluster::rbac::{RbacPolicy, UserInfo};
use cube_model::Quantity;
use cube_model::cluster::{Cluster, ClusterRegistry, KubeconfigRef};
use support::{ApiDouble, Mode, Pki};

fn q(s: &str) -> Quantity {
    Quantity::parse(s).unwrap()
}

fn entry(
    dir: &std::path::Path,
    name: &str,
    server: &str,
    ca: Option<&str>,
    token: &str,
) -> Cluster {
    let file = dir.join(format!("{name}.kubeconfig"));
    std::fs::write(&file, support::kubeconfig_yaml(server, ca, Some(token))).unwrap();
    let mut c = Cluster::new(name);
    c.kubeconfig = Some(KubeconfigRef::file(file.display().to_string()));
    c
}

/// The entry with its kubeconfig path made relative (to the registry's directory).
fn relative(mut c: Cluster) -> Cluster {
    if let Some(k) = c.kubeconfig.as_mut() {
        k.path = format!("{}.kubeconfig", c.name);
    }
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_over_doubles_with_dead_unauthorized_and_silent_clusters() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("good", "console", &[])
        .snapshot_fixture()
        .start()
        .await;
    let silent = ApiDouble::builder(&pki)
        .mode(Mode::NeverAnswer)
        .start()
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let dead = support::refused_addr();
    let registry = ClusterRegistry::new(vec![
        entry(dir, "bj-prod", &api.url(), Some(&api.ca_pem), "good")
            .label("env", "prod")
            .label("location", "beijing")
            .default_cluster(),
        entry(dir, "sh-prod", &api.url(), Some(&api.ca_pem), "good")
            .label("env", "prod")
            .label("location", "shanghai"),
        relative(entry(dir, "bj-dev", &api.url(), Some(&api.ca_pem), "good"))
            .label("env", "dev")
            .taint("dedicated", "dev", "NoSchedule"),
        entry(
            dir,
            "dead",
            &format!("https://{dead}"),
            Some(&api.ca_pem),
            "good",
        ),
        entry(dir, "wrong-token", &api.url(), Some(&api.ca_pem), "revoked"),
        entry(dir, "silent", &silent.url(), Some(&silent.ca_pem), "good"),
    ]);
    let timeout = Duration::from_millis(1500);
    let options = FleetOptions {
        concurrency: 8,
        timeout,
        pool_label: "cube.example/pool".into(),
        page_size: 4,
        base_dir: dir.to_path_buf(),
        ..FleetOptions::default()
    };
    let events = Mutex::new(Vec::new());
    let start = Instant::now();
    let report = probe_fleet(&registry, &options, &|p: &FleetProgress| {
        events.lock().unwrap().push(p.to_string());
    })
    .await;
    let took = start.elapsed();
    println!("{}", report.to_table());
    println!("fleet probe took {took:?} with a per-cluster timeout of {timeout:?}");

    // The silent cluster costs its own timeout, never more; the others are not delayed by it.
    assert!(took >= timeout, "{took:?}");
    assert!(took < timeout + Duration::from_millis(900), "{took:?}");
    let by = |n: &str| report.clusters.iter().find(|c| c.name == n).unwrap();
    for n in ["bj-prod", "sh-prod", "bj-dev", "dead", "wrong-token"] {
        assert!(
            by(n).elapsed_ms < 1000,
            "{n} took {} ms: delayed by the silent one",
            by(n).elapsed_ms
        );
    }
    assert!(by("silent").elapsed_ms >= 1400);
    assert_eq!(events.lock().unwrap().len(), 6);
    assert_eq!(report.ready, 3);
    assert_eq!(report.not_ready, 3);

    let prod = by("bj-prod");
    assert_eq!(prod.ready.status, "True");
    assert_eq!(prod.version.as_deref(), Some("v1.36.2"));
    assert_eq!(prod.user.as_deref(), Some("console"));
    assert!(prod.taints.is_empty() && prod.probe_taint.is_none());
    let nodes = prod.nodes.unwrap();
    assert_eq!((nodes.total, nodes.ready, nodes.schedulable), (7, 5, 5));
    let cap = prod.capacity.as_ref().unwrap();
    // Allocatable: 3 x 31.5 + 8 + 2 x 95.5 + 63.5 cores; GPUs 4 + 8 + 8 (gpu-node-03 advertises none).
    assert_eq!(cap.allocatable.get_or_zero("cpu"), q("357"));
    assert_eq!(cap.allocatable.get_or_zero("nvidia.com/gpu"), q("20"));
    // Requested by the pods bound to nodes: 4 + 16 + 2 + 8 + 8 + 0.5 + 4 cores; 4+2+4+4+1 GPUs.
    assert_eq!(cap.requested.get_or_zero("cpu"), q("42500m"));
    assert_eq!(cap.requested.get_or_zero("nvidia.com/gpu"), q("15"));
    // Free on Ready, schedulable nodes, each at least 0: cpu 27.5 + 31.5 + 71.5 + 85.5 + 59.5;
    // GPUs: gpu-node-01 is over-committed (10 of 8) and counts 0, gpu-node-02 has 4 left.
    assert_eq!(cap.free.get_or_zero("cpu"), q("275500m"));
    assert_eq!(cap.free.get_or_zero("nvidia.com/gpu"), q("4"));
    assert_eq!(prod.free("nvidia.com/gpu"), Some(q("4")));
    let pools: Vec<(&str, usize, usize)> = prod
        .pools
        .iter()
        .map(|p| (p.pool.as_str(), p.nodes.total, p.nodes.ready))
        .collect();
    assert_eq!(
        pools,
        [
            ("cube.example/pool unset", 1, 0),
            ("cube.example/pool=cpu-general", 3, 2),
            ("cube.example/pool=gpu-training", 3, 3)
        ]
    );
    let gpu_pool = &prod.pools[2].capacity;
    assert_eq!(gpu_pool.allocatable.get_or_zero("nvidia.com/gpu"), q("16"));
    assert_eq!(gpu_pool.free.get_or_zero("nvidia.com/gpu"), q("4"));
    assert_eq!(
        by("bj-dev").taints.len(),
        1,
        "the registry's own taint is kept"
    );
    // GPU kinds from GFD's product label: the A100 nodes have 4 of 16 free, the H100 node
    // advertises none.
    let kinds: Vec<(&str, usize, String, String)> = prod
        .gpu_kinds
        .iter()
        .map(|k| {
            (
                k.kind.as_str(),
                k.nodes.total,
                k.capacity
                    .allocatable
                    .get_or_zero("nvidia.com/gpu")
                    .to_string(),
                k.capacity.free.get_or_zero("nvidia.com/gpu").to_string(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB",
                2,
                "16".to_owned(),
                "4".to_owned()
            ),
            (
                "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3",
                1,
                "0".to_owned(),
                "0".to_owned()
            )
        ]
    );
    // Placement over the probe: 4 A100s fit bj-prod, 1 H100 does not.
    let states = report.states();
    let ask = |kind: &str, n: &str| cube_model::placement::PlacementRequest {
        cluster: Some("bj-prod".into()),
        gpus: [(cube_model::ResourceName::new("nvidia.com/gpu"), q(n))]
            .into_iter()
            .collect(),
        gpu_kind: Some(kind.into()),
        ..Default::default()
    };
    let policy = cube_model::placement::PlacementPolicy::default();
    let p = cube_model::placement::explain(
        &registry,
        &ask("nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB", "4"),
        &states,
        &policy,
    );
    assert_eq!(p.chosen, ["bj-prod"]);
    let p = cube_model::placement::explain(
        &registry,
        &ask("nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3", "1"),
        &states,
        &policy,
    );
    assert_eq!(
        p.decision("bj-prod").unwrap().to_string(),
        "bj-prod: rejected: 0 nvidia.com/gpu free on nodes labelled nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3, 1 requested"
    );

    let dead = by("dead");
    assert_eq!(dead.ready.status, "Unknown");
    assert_eq!(dead.ready.reason, "ClusterNotReachable");
    assert_eq!(dead.class.as_deref(), Some("refused"));
    assert_eq!(dead.probe_taint.as_ref().unwrap().key, TAINT_UNREACHABLE);
    assert_eq!(dead.probe_taint.as_ref().unwrap().effect, "NoSchedule");
    assert!(dead.capacity.is_none());

    let unauth = by("wrong-token");
    assert_eq!(unauth.ready.status, "False");
    assert_eq!(unauth.ready.reason, "ClusterUnauthorized");
    assert_eq!(unauth.probe_taint.as_ref().unwrap().key, TAINT_NOT_READY);

    let silent = by("silent");
    assert_eq!(silent.class.as_deref(), Some("timeout"));
    assert_eq!(silent.probe_taint.as_ref().unwrap().key, TAINT_UNREACHABLE);

    // camelCase JSON like cluster_diagnose's.
    let json = serde_json::to_value(&report).unwrap();
    assert!(json["clusters"][0]["elapsedMs"].is_u64());
    assert_eq!(json["clusters"][3]["probeTaint"]["key"], TAINT_UNREACHABLE);
    assert_eq!(json["timeoutMs"], 1500);
    assert_eq!(
        json["clusters"][0]["capacity"]["free"]["nvidia.com/gpu"],
        "4"
    );
    // The table carries the taints and the timing line.
    let table = report.to_table();
    assert!(
        table.contains("taint cluster.karmada.io/unreachable:NoSchedule"),
        "{table}"
    );
    assert!(table.contains("per-cluster timeout 1500 ms"), "{table}");
    assert!(
        table.contains("gpu kind nvidia.com/gpu.product=NVIDIA-A100-SXM4-80GB"),
        "{table}"
    );
}

#[tokio::test]
async fn pods_not_listable_leave_free_unknown_not_zero() {
    let policy = RbacPolicy::from_yaml_str(
        r#"
kind: ClusterRole
metadata: {name: nodes}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list]}]
---
kind: ClusterRoleBinding
metadata: {name: nodes}
roleRef: {kind: ClusterRole, name: nodes}
subjects: [{kind: User, name: viewer}]
"#,
    )
    .unwrap();
    let cluster = MemoryCluster::new()
        .with_user(UserInfo::authenticated("viewer", Vec::<String>::new()))
        .with_rbac(policy);
    cluster
        .load(&support::testdata(
            "fixtures/apiserver/snapshot-gpu-cluster.json",
        ))
        .unwrap();
    let api: Arc<dyn ClusterApi> = Arc::new(cluster);
    let report = probe_fleet_targets(
        vec![FleetTarget {
            cluster: Cluster::new("limited"),
            api: Ok(api),
            limit: None,
        }],
        &FleetOptions::default(),
        &|_| {},
    )
    .await;
    let c = &report.clusters[0];
    assert!(c.is_ready());
    assert_eq!(
        c.capacity
            .as_ref()
            .unwrap()
            .allocatable
            .get_or_zero("nvidia.com/gpu"),
        q("20")
    );
    assert_eq!(c.free("nvidia.com/gpu"), None, "unknown, not 0");
    assert!(
        c.notes[0].starts_with("pods: forbidden: pods is forbidden: User \"viewer\" cannot list"),
        "{:?}",
        c.notes
    );
    assert!(report.to_table().contains("?/357"), "{}", report.to_table());
}

/// Live: the cluster of `CUBE_E2E_KUBECONFIG` (context `CUBE_E2E_CONTEXT`), a dead port and the
/// same server with a token it does not know.
#[tokio::test]
#[ignore = "needs cluster"]
async fn live_fleet_with_dead_and_unauthorized_entries() {
    let Some(path) = std::env::var_os("CUBE_E2E_KUBECONFIG") else {
        return;
    };
    let Some(sel) = support::live::live_selection() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let mut live = Cluster::new("live").label("env", "e2e");
    live.kubeconfig = Some(KubeconfigRef {
        context: std::env::var("CUBE_E2E_CONTEXT").ok(),
        ..KubeconfigRef::file(std::path::PathBuf::from(path).display().to_string())
    });
    let ca = sel
        .ca_pem
        .as_ref()
        .map(|c| String::from_utf8_lossy(c).into_owned());
    let dead = support::refused_addr();
    let registry = ClusterRegistry::new(vec![
        live,
        entry(
            tmp.path(),
            "dead",
            &format!("https://{dead}"),
            ca.as_deref(),
            "x",
        ),
        entry(
            tmp.path(),
            "wrong-token",
            &sel.server,
            ca.as_deref(),
            "cube-e2e-invalid-token",
        ),
    ]);
    let timeout = Duration::from_secs(10);
    let options = FleetOptions {
        timeout,
        ..FleetOptions::default()
    };
    let start = Instant::now();
    let report = probe_fleet(&registry, &options, &|_| {}).await;
    println!("{}", report.to_table());
    println!(
        "live fleet probe took {:?} with a per-cluster timeout of {timeout:?}",
        start.elapsed()
    );
    assert!(report.clusters[0].is_ready(), "{:?}", report.clusters[0]);
    assert!(report.clusters[0].nodes.unwrap().total > 0);
    assert_eq!(report.clusters[1].ready.status, "Unknown");
    assert_eq!(
        report.clusters[1].probe_taint.as_ref().unwrap().key,
        TAINT_UNREACHABLE
    );
    assert_eq!(report.clusters[2].ready.status, "False");
    if ca.is_some() {
        assert_eq!(report.clusters[2].ready.reason, "ClusterUnauthorized");
    }
}

/// The fan-out bound holds: four silent clusters two at a time take two timeouts, not one and
/// not four; each still costs only its own timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fan_out_is_bounded() {
    let pki = Pki::new();
    let silent = ApiDouble::builder(&pki)
        .mode(Mode::NeverAnswer)
        .start()
        .await;
    let tmp = tempfile::tempdir().unwrap();
    let registry = ClusterRegistry::new(
        (0..4)
            .map(|i| {
                entry(
                    tmp.path(),
                    &format!("silent-{i}"),
                    &silent.url(),
                    Some(&silent.ca_pem),
                    "t",
                )
            })
            .collect(),
    );
    let timeout = Duration::from_millis(400);
    let options = FleetOptions {
        concurrency: 2,
        timeout,
        ..FleetOptions::default()
    };
    let start = Instant::now();
    let report = probe_fleet(&registry, &options, &|_| {}).await;
    let took = start.elapsed();
    assert!(took >= 2 * timeout, "{took:?}: more than 2 at once");
    assert!(took < 3 * timeout, "{took:?}: fewer than 2 at once");
    assert_eq!(report.concurrency, 2);
    for c in &report.clusters {
        assert_eq!(c.class.as_deref(), Some("timeout"));
        assert!(c.elapsed_ms < 700, "{} took {} ms", c.name, c.elapsed_ms);
    }
}
