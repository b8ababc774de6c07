//! `group_plan --diff/--apply` and `cluster_fleet --place` end to end: the built programs
//! against in-memory API servers served on loopback (`cube_cluster::memory::serve`), through a
//! kubeconfig and through a cluster registry (relative kubeconfig paths).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use cube_cluster::memory::{MemoryCluster, kubeconfig_yaml, serve};

use crate::support::{example as program, root};

fn group_plan() -> PathBuf {
    program("group_plan")
}

const GROUP: &str = r#"
name: nlp
owner: alice
members:
  - {name: alice, role: admin}
  - {name: bob, role: developer}
quota:
  - name: compute
    hard: {requests.cpu: "16", requests.nvidia.com/gpu: "8", pods: "40"}
namespaces:
  - {name: nlp-train, sharePercent: 50}
  - {name: nlp-serve, sharePercent: 50}
placement:
  clusterSelector: env=prod
"#;

fn run(args: &[&str]) -> (i32, String, String) {
    run_program(&group_plan(), args)
}

fn run_program(bin: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin)
        .args(args)
        .current_dir(root())
        .output()
        .expect("run the program");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

async fn served() -> (Arc<MemoryCluster>, String, tokio::task::JoinHandle<()>) {
    let cluster = Arc::new(MemoryCluster::new());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = serve(cluster.clone(), listener);
    (cluster, kubeconfig_yaml(addr), task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_reapply_and_diff_through_a_kubeconfig() {
    let dir = std::env::temp_dir().join(format!("cube-gp-apply-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cluster, kc, task) = served().await;
    let kc_path = dir.join("kubeconfig");
    std::fs::write(&kc_path, kc).unwrap();
    let groups = dir.join("groups.yaml");
    std::fs::write(&groups, GROUP).unwrap();
    let (g, k) = (groups.to_str().unwrap(), kc_path.to_str().unwrap());

    let (code, out, err) = tokio::task::block_in_place(|| run(&[g, "--apply", "--kubeconfig", k]));
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains(": applied"), "{out}");
    assert!(out.contains("created Namespace/nlp-train"), "{out}");
    assert!(
        out.contains("usage nlp-train/nlp-compute requests.nvidia.com/gpu: used 0 of 4"),
        "{out}"
    );
    assert_eq!(cluster.objects_of("ResourceQuota").len(), 2);

    let (code, out, _) = tokio::task::block_in_place(|| run(&[g, "--apply", "--kubeconfig", k]));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("created "), "{out}");
    assert!(
        out.contains("unchanged ResourceQuota/nlp-serve/nlp-compute"),
        "{out}"
    );

    let (code, out, _) = tokio::task::block_in_place(|| run(&[g, "--diff", "--kubeconfig", k]));
    assert_eq!(code, 0, "in sync: {out}");
    assert!(out.contains("in sync (server dry run passed)"), "{out}");

    std::fs::write(
        &groups,
        GROUP.replace(
            "requests.nvidia.com/gpu: \"8\"",
            "requests.nvidia.com/gpu: \"4\"",
        ),
    )
    .unwrap();
    let before = cluster.objects_of("ResourceQuota");
    let (code, out, _) = tokio::task::block_in_place(|| run(&[g, "--diff", "--kubeconfig", k]));
    assert_eq!(code, 1, "drift: {out}");
    assert!(
        out.contains("~ .spec.hard.requests.nvidia.com/gpu: 4 -> 2"),
        "{out}"
    );
    assert_eq!(
        cluster.objects_of("ResourceQuota"),
        before,
        "--diff writes nothing"
    );
    task.abort();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_to_every_target_cluster_of_a_registry() {
    let dir = std::env::temp_dir().join(format!("cube-gp-registry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, kca, ta) = served().await;
    let (b, kcb, tb) = served().await;
    std::fs::write(dir.join("a.kubeconfig"), kca).unwrap();
    std::fs::write(dir.join("b.kubeconfig"), kcb).unwrap();
    let registry = format!(
        "clusters:\n- name: prod-a\n  labels: {{env: prod}}\n  kubeconfig: {{path: {}}}\n- name: prod-b\n  labels: {{env: prod}}\n  kubeconfig: {{path: {}}}\n- name: dev\n  labels: {{env: dev}}\n  default: true\n  kubeconfig: {{path: /nonexistent}}\n",
        dir.join("a.kubeconfig").display(),
        dir.join("b.kubeconfig").display()
    );
    std::fs::write(dir.join("registry.yaml"), registry).unwrap();
    std::fs::write(dir.join("groups.yaml"), GROUP).unwrap();
    let reg = dir.join("registry.yaml");
    let groups = dir.join("groups.yaml");
    let (code, out, err) = tokio::task::block_in_place(|| {
        run(&[
            groups.to_str().unwrap(),
            "--registry",
            reg.to_str().unwrap(),
            "--apply",
        ])
    });
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("cluster prod-a: applied"), "{out}");
    assert!(out.contains("cluster prod-b: applied"), "{out}");
    // Each cluster holds half of the group's 8 GPUs, 2 per namespace; together the group's 8.
    for c in [&a, &b] {
        let quotas = c.objects_of("ResourceQuota");
        assert_eq!(quotas.len(), 2);
        for q in quotas {
            assert_eq!(q["spec"]["hard"]["requests.nvidia.com/gpu"], "2");
        }
    }
    assert!(
        out.contains("group nlp over its namespaces and clusters: nlp-compute requests.nvidia.com/gpu: used 0 of 8"),
        "{out}"
    );
    ta.abort();
    tb.abort();
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cluster_fleet_places_a_task_with_reasons() {
    let dir = std::env::temp_dir().join(format!("cube-fleet-place-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (gpu, kc_gpu, t1) = served().await;
    gpu.load(
        &std::fs::read_to_string(
            root().join("testdata/fixtures/apiserver/snapshot-gpu-cluster.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let (_empty, kc_empty, t2) = served().await;
    std::fs::write(dir.join("gpu.kubeconfig"), kc_gpu).unwrap();
    std::fs::write(dir.join("empty.kubeconfig"), kc_empty).unwrap();
    std::fs::write(
        dir.join("dead.kubeconfig"),
        kubeconfig_yaml("127.0.0.1:1".parse().unwrap()),
    )
    .unwrap();
    // Relative paths: against the registry file's directory, whatever the current directory.
    std::fs::write(
        dir.join("registry.yaml"),
        "clusters:\n- name: gpu\n  labels: {env: prod}\n  kubeconfig: {path: gpu.kubeconfig}\n- name: empty\n  labels: {env: prod}\n  kubeconfig: {path: empty.kubeconfig}\n- name: dead\n  labels: {env: prod}\n  kubeconfig: {path: dead.kubeconfig}\n- name: dev\n  labels: {env: dev}\n  kubeconfig: {path: gpu.kubeconfig}\n",
    )
    .unwrap();
    let reg = dir.join("registry.yaml");
    let (code, out, err) = tokio::task::block_in_place(|| {
        run_program(
            &program("cluster_fleet"),
            &[
                "--registry",
                reg.to_str().unwrap(),
                "--timeout",
                "5",
                "--place",
                "--selector",
                "env=prod",
                "--gpus",
                "nvidia.com/gpu=4",
            ],
        )
    });
    assert_eq!(code, 1, "the dead cluster is not ready: {out}\n{err}");
    assert!(
        out.contains("placement of a task asking for env=prod:"),
        "{out}"
    );
    assert!(out.contains("  gpu: chosen"), "{out}");
    assert!(
        out.contains("  empty: rejected: 0 nvidia.com/gpu free, 4 requested"),
        "{out}"
    );
    assert!(
        out.contains("  dead: rejected: unhealthy (ClusterNotReachable): taint cluster.karmada.io/unreachable:NoSchedule not tolerated"),
        "{out}"
    );
    assert!(
        out.contains("  dev: rejected: labels do not satisfy env=prod"),
        "{out}"
    );
    assert!(out.contains("  chosen: gpu"), "{out}");
    t1.abort();
    t2.abort();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fresh-user report 2, G39: the bundled sample group goes with the sample snapshot (a pool of
/// three nodes, no infinite overcommit, exit 0); a group whose placement selects no node of the
/// snapshot is an error (exit 1), not "planned".
#[test]
fn the_bundled_samples_go_together_and_an_empty_pool_is_an_error() {
    let run = |groups: &str| {
        std::process::Command::new(crate::support::example("group_plan"))
            .current_dir(crate::support::root())
            .args([
                groups,
                "--snapshot",
                "examples/data/snapshot-gpu-cluster.json",
            ])
            .output()
            .expect("group_plan runs")
    };
    let o = run("examples/data/resource-groups.yaml");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("# pool cube.example/pool=gpu-training (3 nodes;"),
        "{out}"
    );
    assert!(
        !out.contains("inf") && !out.contains("OVERCOMMITTED"),
        "{out}"
    );
    let o = run("cube-model/examples-data/resource-groups.yaml");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: pool gpu=true,org=vision")
            && err.contains("holds no node of the snapshot"),
        "{err}"
    );
}
