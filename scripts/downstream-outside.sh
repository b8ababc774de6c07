#!/usr/bin/env bash
# A downstream crate OUTSIDE this workspace, as another team writes one (issue 11): it depends on
# the four crates by path only (no workspace around it, no .cargo/config.toml of ours, so it picks
# its own k8s-openapi version line as README "Which k8s-openapi feature" says), enables the
# `proptest` feature, writes a property test with `cube_model::proptest` generators, and holds
# every async seam of `cube_cluster::api` as `Box<dyn ...>` / `Arc<dyn ...>`, one of them
# implemented by the downstream crate itself with `#[async_trait]`. Builds it and runs its tests.
#
# Usage: scripts/downstream-outside.sh [DIR]   (DIR default: a new temporary directory; the crate
# and its target/ stay there, nothing is written into the repository). Needs the crates.io index
# (or a cargo cache holding the same versions: the workspace's Cargo.lock is copied in, and
# `CARGO_NET_OFFLINE=true` works when this repository was built on the machine before).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
d=${1:-$(mktemp -d)}
mkdir -p "$d/src" "$d/tests"

cat > "$d/Cargo.toml" <<EOF
[package]
name = "outside"
version = "0.0.0"
edition = "2024"
publish = false

# Not part of any workspace (an empty one of its own, so a parent directory's cannot adopt it).
[workspace]

[dependencies]
cube-model = { path = "$root/cube-model", features = ["proptest"] }
cube-quota = { path = "$root/cube-quota", features = ["proptest"] }
cube-diagnose = { path = "$root/cube-diagnose" }
cube-cluster = { path = "$root/cube-cluster" }
# The final crate picks the Kubernetes version line (our libraries never do).
k8s-openapi = { version = "0.29", default-features = false, features = ["std", "latest"] }
async-trait = "0.1"
kube = { version = "5", default-features = false }
serde_json = "1"

[dev-dependencies]
proptest = "1"
tokio = { version = "1", features = ["rt-multi-thread", "macros"] }
EOF
# Same dependency versions as the workspace (cargo prunes what this crate does not use).
cp "$root/Cargo.lock" "$d/Cargo.lock"

cat > "$d/src/lib.rs" <<'EOF'
//! A service's own code: one handle per cluster behind the seams of `cube_cluster::api`.
use std::sync::Arc;

use async_trait::async_trait;
use cube_cluster::api::{
    AccessReviewer, ClusterApi, ObjectApplier, ObjectReader, SelfSubject, ServerInfo, ServerVersion,
};

/// Every seam held as a trait object, as a console holds them per cluster.
pub struct Handles {
    pub info: Box<dyn ServerInfo>,
    pub reader: Arc<dyn ObjectReader>,
    pub applier: Box<dyn ObjectApplier>,
    pub reviewer: Arc<dyn AccessReviewer>,
    pub all: Arc<dyn ClusterApi>,
}

/// The service's own implementation of a seam (a cached `/version`), written with
/// `#[async_trait]` outside cube-cluster.
pub struct CachedVersion(pub ServerVersion);

#[async_trait]
impl ServerInfo for CachedVersion {
    async fn server_version(&self) -> Result<ServerVersion, kube::Error> {
        Ok(self.0.clone())
    }
    async fn self_subject(&self) -> Result<Option<SelfSubject>, kube::Error> {
        Ok(None)
    }
}
EOF

cat > "$d/tests/outside.rs" <<'EOF'
//! A property test over a cluster served through the seams, with `cube_model::proptest` input.
use std::collections::BTreeSet;
use std::sync::Arc;

use cube_cluster::api::{ClusterApi, ObjectReader, ResourceType, ServerVersion};
use cube_cluster::memory::MemoryCluster;
use cube_cluster::snapshot::{CollectOptions, collect_snapshot};
use cube_diagnose::{Context, Engine, Severity};
use cube_model::ClusterSnapshot;
use cube_model::proptest::{SnapshotParams, cluster_snapshot};
use outside::{CachedVersion, Handles};
use proptest::prelude::*;

fn list(kind: &str, items: Vec<serde_json::Value>) -> String {
    serde_json::json!({ "apiVersion": "v1", "kind": format!("{kind}List"), "items": items }).to_string()
}

fn served(s: &ClusterSnapshot) -> MemoryCluster {
    let m = MemoryCluster::new();
    let nodes = s.nodes.iter().map(|n| serde_json::to_value(n).unwrap()).collect();
    let pods = s.pods.iter().map(|p| serde_json::to_value(p).unwrap()).collect();
    m.load(&list("Node", nodes)).unwrap();
    m.load(&list("Pod", pods)).unwrap();
    m
}

fn names(s: &ClusterSnapshot) -> (BTreeSet<String>, BTreeSet<(String, String)>) {
    (
        s.nodes.iter().map(|n| n.metadata.name.clone()).collect(),
        s.pods.iter().map(|p| (p.metadata.namespace.clone(), p.metadata.name.clone())).collect(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// What a cluster serves through `dyn ObjectReader` is what was generated; the generated
    /// snapshot (no planted problem) gets no error finding, read back or not.
    #[test]
    fn snapshot_round_trips_through_the_seams(s in cluster_snapshot(SnapshotParams::small())) {
        let cluster: Arc<dyn ClusterApi> = Arc::new(served(&s));
        let reader: Arc<dyn ObjectReader> = Arc::new(served(&s));
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let opts = CollectOptions::default().only(&["Node", "Pod"]).page_size(7);
        let held = Arc::clone(&reader);
        let back = rt
            .block_on(async move { tokio::spawn(async move { collect_snapshot(&*held, &opts, |_| {}).await }).await })
            .unwrap()
            .unwrap();
        prop_assert_eq!(names(&back), names(&s));
        let pods = rt
            .block_on(cluster.list_objects(&ResourceType::of_kind("Pod").unwrap(), None, ""))
            .unwrap();
        prop_assert_eq!(pods.len(), s.pods.len());
        for snap in [&s, &back] {
            let report = Engine::new().run(&Context::new(snap));
            let errors: Vec<_> = report.findings.iter().filter(|f| f.severity == Severity::Error).collect();
            prop_assert!(errors.is_empty(), "{errors:#?}");
        }
    }
}

#[tokio::test]
async fn every_seam_held_as_a_trait_object() {
    let memory = Arc::new(MemoryCluster::new());
    let h = Handles {
        info: Box::new(CachedVersion(ServerVersion {
            git_version: "v1.36.0".into(),
            major: "1".into(),
            minor: "36".into(),
            platform: "linux/amd64".into(),
        })),
        reader: memory.clone(),
        applier: Box::new(MemoryCluster::new()),
        reviewer: memory.clone(),
        all: memory,
    };
    let nodes = ResourceType::of_kind("Node").unwrap();
    assert!(h.applier.list_objects(&nodes, None, "").await.unwrap().is_empty());
    assert!(h.reader.get_text("/version").await.unwrap().contains("gitVersion"));
    assert!(h.all.get_object(&cube_cluster::api::ObjectRef::new(nodes, None, "n1")).await.unwrap().is_none());
    let _ = h.reviewer.rules("default").await;
    let v = tokio::spawn(async move { h.info.server_version().await }).await.unwrap().unwrap();
    assert_eq!(v.minor, "36");
    let cluster: Arc<dyn ClusterApi> = Arc::new(MemoryCluster::new());
    assert!(cluster.server_version().await.unwrap().git_version.starts_with('v'));
    assert!(cluster.get_text("/api/v1/nodes").await.unwrap().contains("NodeList"));
}
EOF

cd "$d"
echo "downstream crate: $d"
cargo test 2>&1 | grep -vE '^\s+(Compiling|Checking|Downloaded|Downloading|Locking|Adding|Updating|Removing) '
