//! Multi-cluster probe: 50 clusters of which 10 never answer finish in about one timeout.

use crate::support;

use std::time::{Duration, Instant};

use cube_cluster::classify::Class;
use cube_cluster::kubeconfig::{Kubeconfig, PluginPolicy, SelectOptions};
use cube_cluster::probe::{ProbeOptions, ProbeTarget, probe, probe_registry};
use cube_model::cluster::{Cluster, ClusterRegistry, KubeconfigRef};
use support::{ApiDouble, Mode, Pki};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clusters_ten_dead_finish_in_about_one_timeout() {
    let pki = Pki::new();
    let alive = ApiDouble::builder(&pki)
        .token("t", "ops", &[])
        .start()
        .await;
    let dead = ApiDouble::builder(&pki)
        .mode(Mode::NeverAnswer)
        .start()
        .await;
    let timeout = Duration::from_millis(1500);
    let mut targets = Vec::new();
    for i in 0..50 {
        let api = if i % 5 == 0 { &dead } else { &alive };
        let sel = Kubeconfig::from_yaml(&api.kubeconfig_yaml(Some("t")), None)
            .expect("load")
            .select(&SelectOptions::new())
            .map_err(|e| e.to_string());
        targets.push(ProbeTarget {
            name: format!("c{i:02}"),
            selection: sel,
            limit: None,
        });
    }
    let opts = ProbeOptions {
        concurrency: 20,
        timeout,
        ..ProbeOptions::default()
    };
    let start = Instant::now();
    let health = probe(targets, &opts).await;
    let elapsed = start.elapsed();
    assert_eq!(health.len(), 50);
    for (i, h) in health.iter().enumerate() {
        assert_eq!(h.name, format!("c{i:02}"), "input order kept");
        if i % 5 == 0 {
            assert!(!h.healthy);
            assert_eq!(h.outcome.class(), Some(&Class::Timeout), "{}", h.name);
        } else {
            assert!(h.healthy, "{}: {:?}", h.name, h.outcome);
        }
    }
    // About one timeout, far from ten (15 s).
    assert!(
        elapsed < timeout * 2 + Duration::from_millis(500),
        "took {elapsed:?}"
    );
    assert!(
        elapsed >= timeout,
        "dead clusters must have been waited for: {elapsed:?}"
    );
}

#[tokio::test]
async fn concurrency_bound_is_respected() {
    let pki = Pki::new();
    let dead = ApiDouble::builder(&pki)
        .mode(Mode::NeverAnswer)
        .start()
        .await;
    let timeout = Duration::from_millis(400);
    let targets = (0..4)
        .map(|i| ProbeTarget {
            name: format!("d{i}"),
            selection: Kubeconfig::from_yaml(&dead.kubeconfig_yaml(None), None)
                .expect("load")
                .select(&SelectOptions::new())
                .map_err(|e| e.to_string()),
            limit: None,
        })
        .collect();
    let start = Instant::now();
    let health = probe(
        targets,
        &ProbeOptions {
            concurrency: 2,
            timeout,
            ..ProbeOptions::default()
        },
    )
    .await;
    // 4 dead with 2 at a time = two rounds of the timeout.
    assert!(start.elapsed() >= timeout * 2, "{:?}", start.elapsed());
    assert!(health.iter().all(|h| !h.healthy));
}

#[tokio::test]
async fn registry_clusters_with_kubeconfig_files_and_api_server_rewrite() {
    let pki = Pki::new();
    let alive = ApiDouble::builder(&pki)
        .token("t", "ops", &[])
        .start()
        .await;
    let tmp = tempfile::tempdir().expect("tmp");
    // The file names the cluster by an in-SAN name the console cannot resolve; the registry's
    // apiServer is the loopback address.
    let file = tmp.path().join("prod.kubeconfig");
    let yaml = support::kubeconfig_yaml(
        &format!("https://kubernetes:{}", alive.addr.port()),
        Some(&alive.ca_pem),
        Some("t"),
    );
    std::fs::write(&file, yaml).expect("write");
    let mut prod = Cluster::new("prod").api_server(alive.url());
    prod.kubeconfig = Some(KubeconfigRef::file(file.display().to_string()));
    let mut missing = Cluster::new("missing");
    missing.kubeconfig = Some(KubeconfigRef::file(
        tmp.path().join("nope").display().to_string(),
    ));
    let bare = Cluster::new("bare");
    let registry = ClusterRegistry::new(vec![prod, missing, bare]);
    let health = probe_registry(
        &registry,
        PluginPolicy::Refuse,
        &ProbeOptions {
            timeout: Duration::from_secs(3),
            ..ProbeOptions::default()
        },
    )
    .await;
    assert!(health[0].healthy, "{:?}", health[0].outcome);
    assert_eq!(health[1].outcome.id(), "config-invalid");
    assert_eq!(health[2].outcome.id(), "config-invalid");
}
