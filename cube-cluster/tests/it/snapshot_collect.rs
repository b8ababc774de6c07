//! Live snapshot collection against the loopback HTTPS API double (`tests/support`): paginated
//! lists, bootstrap-token Secrets, Forbidden kinds recorded as missing, 401 fatal.

use crate::support;

use std::time::Duration;

use base64::Engine as _;
use cube_cluster::snapshot::{
    ALL_KINDS, CollectOptions, CollectProgress, SnapshotError, collect_snapshot,
};
use cube_model::ClusterSnapshot;
use serde_json::{Value, json};
use support::live::live_client;
use support::{ApiDouble, Pki, Rule, kube_client};

const TOKEN_SECRET: &str = "0123456789abcdef";

/// Connect and read timeout of the test clients.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The fixture snapshot plus a bootstrap token Secret and an Opaque Secret in kube-system.
fn cluster_json() -> String {
    let mut v: Value = serde_json::from_str(&support::testdata(
        "fixtures/apiserver/snapshot-gpu-cluster.json",
    ))
    .unwrap();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let items = v["items"].as_array_mut().unwrap();
    items.push(json!({
        "apiVersion": "v1", "kind": "Secret", "type": "bootstrap.kubernetes.io/token",
        "metadata": {"name": "bootstrap-token-abcdef", "namespace": "kube-system"},
        "data": {
            "token-id": b64("abcdef"), "token-secret": b64(TOKEN_SECRET),
            "expiration": b64("2026-12-01T10:00:00Z"),
            "usage-bootstrap-authentication": b64("true"), "usage-bootstrap-signing": b64("true"),
        }
    }));
    items.push(json!({
        "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
        "metadata": {"name": "db-password", "namespace": "kube-system"},
        "data": {"password": b64("hunter2")}
    }));
    v.to_string()
}

#[tokio::test]
async fn collects_every_kind_with_pagination() {
    let pki = Pki::new();
    let text = cluster_json();
    let api = ApiDouble::builder(&pki)
        .token("t", "admin", &["system:masters"])
        .snapshot_json(&text)
        .start()
        .await;
    let client = kube_client(&api, Some("t"), TIMEOUT);
    let mut events = Vec::new();
    let snap = collect_snapshot(&client, &CollectOptions::default().page_size(20), |p| {
        events.push(p)
    })
    .await
    .expect("collect");

    // Same objects as loading the file directly.
    let offline = ClusterSnapshot::from_slice("fixture", text.as_bytes());
    assert_eq!(snap.nodes.len(), 7);
    assert_eq!(snap.nodes, offline.nodes);
    assert_eq!(snap.pods, offline.pods);
    assert_eq!(snap.namespaces.len(), 7);
    assert_eq!(snap.roles.len(), 72 + 8);
    assert_eq!(snap.role_bindings.len(), 53 + 12);
    assert_eq!(snap.events.len(), 22);
    assert_eq!(snap.priority_classes.len(), 5);
    assert_eq!(snap.resource_quotas.len(), 3);
    assert_eq!(snap.limit_ranges.len(), 3);
    assert_eq!(snap.persistent_volume_claims.len(), 2);
    assert_eq!(snap.object_count(), offline.object_count());
    assert!(snap.missing_kinds.is_empty(), "{:?}", snap.missing_kinds);
    assert!(snap.problems.is_empty(), "{:?}", snap.problems);

    // Bootstrap token kept without its secret; the Opaque Secret never stored.
    assert_eq!(snap.bootstrap_tokens.len(), 1);
    assert_eq!(snap.bootstrap_tokens[0].token_id, "abcdef");
    assert_eq!(
        snap.bootstrap_tokens[0].expiration,
        Some("2026-12-01T10:00:00Z".parse().unwrap())
    );
    let dump = format!("{snap:?}");
    assert!(!dump.contains(TOKEN_SECRET) && !dump.contains("hunter2"));

    // Pagination: ClusterRoles in ceil(72 / 20) = 4 pages, with limit and continue.
    let done = events
        .iter()
        .find_map(|e| match e {
            CollectProgress::Done {
                kind: "ClusterRole",
                objects,
                pages,
            } => Some((*objects, *pages)),
            _ => None,
        })
        .expect("ClusterRole done");
    assert_eq!(done, (72, 4));
    let reqs = api.requests();
    let cr: Vec<&str> = reqs
        .iter()
        .filter(|r| {
            r.path
                .starts_with("/apis/rbac.authorization.k8s.io/v1/clusterroles")
        })
        .map(|r| r.path.as_str())
        .collect();
    assert_eq!(cr.len(), 4);
    assert_eq!(
        cr[0],
        "/apis/rbac.authorization.k8s.io/v1/clusterroles?limit=20"
    );
    assert_eq!(
        cr[1],
        "/apis/rbac.authorization.k8s.io/v1/clusterroles?limit=20&continue=20"
    );
    assert!(reqs.iter().any(|r| r.path
        == "/api/v1/namespaces/kube-system/secrets?limit=20&fieldSelector=type%3Dbootstrap.kubernetes.io%2Ftoken"));
    // Every kind started and finished.
    let started = events
        .iter()
        .filter(|e| matches!(e, CollectProgress::Started { .. }))
        .count();
    let finished = events
        .iter()
        .filter(|e| matches!(e, CollectProgress::Done { .. }))
        .count();
    assert_eq!((started, finished), (ALL_KINDS.len(), ALL_KINDS.len()));
}

#[tokio::test]
async fn forbidden_kinds_are_missing_not_fatal() {
    let pki = Pki::new();
    let text = cluster_json();
    let api = ApiDouble::builder(&pki)
        .token("t", "viewer", &["viewers"])
        .deny_by_default()
        .allow(
            "viewer",
            Rule::new(
                &["list"],
                &["", "apps", "policy", "storage.k8s.io", "scheduling.k8s.io"],
                &["*"],
            ),
        )
        .allow(
            "viewer",
            Rule::new(
                &["list"],
                &["rbac.authorization.k8s.io"],
                &["roles", "rolebindings"],
            ),
        )
        .snapshot_json(&text)
        .start()
        .await;
    let client = kube_client(&api, Some("t"), TIMEOUT);
    let mut missing_events = Vec::new();
    let snap = collect_snapshot(&client, &CollectOptions::default(), |p| {
        if let CollectProgress::Missing { kind, reason } = p {
            missing_events.push((kind, reason));
        }
    })
    .await
    .expect("collect");
    let keys: Vec<&str> = snap.missing_kinds.keys().map(String::as_str).collect();
    assert_eq!(keys, ["ClusterRole", "ClusterRoleBinding"]);
    assert_eq!(
        snap.missing_kinds["ClusterRole"],
        "forbidden: clusterroles is forbidden: User \"viewer\" cannot list resource \"clusterroles\" in API group \"rbac.authorization.k8s.io\" at the cluster scope"
    );
    assert_eq!(missing_events.len(), 2);
    // Everything else loaded.
    assert_eq!(snap.nodes.len(), 7);
    assert_eq!(snap.roles.len(), 8);
    assert_eq!(snap.role_bindings.len(), 12);
    assert_eq!(snap.bootstrap_tokens.len(), 1);
}

#[tokio::test]
async fn forbidden_bootstrap_tokens_only() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("t", "nodes-only", &[])
        .deny_by_default()
        .allow("nodes-only", Rule::new(&["list"], &[""], &["nodes"]))
        .snapshot_json(&cluster_json())
        .start()
        .await;
    let client = kube_client(&api, Some("t"), TIMEOUT);
    let opts = CollectOptions::default().only(&["Node", "BootstrapToken"]);
    let snap = collect_snapshot(&client, &opts, |_| {})
        .await
        .expect("collect");
    assert_eq!(snap.nodes.len(), 7);
    assert!(snap.bootstrap_tokens.is_empty());
    assert!(
        snap.missing_kinds["BootstrapToken"].starts_with(
            "forbidden: secrets is forbidden: User \"nodes-only\" cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\""
        ),
        "{:?}",
        snap.missing_kinds
    );
}

#[tokio::test]
async fn unauthorized_stops_the_collection() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("t", "admin", &["system:masters"])
        .snapshot_fixture()
        .start()
        .await;
    let client = kube_client(&api, Some("wrong-token"), TIMEOUT);
    let err = collect_snapshot(&client, &CollectOptions::default(), |_| {})
        .await
        .unwrap_err();
    match &err {
        SnapshotError::Request { kind, source } => {
            assert_eq!(*kind, "Node");
            assert!(
                matches!(source, kube::Error::Api(s) if s.code == 401),
                "{source:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Stopped at the first kind.
    assert_eq!(api.requests().len(), 1);
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_snapshot() {
    let Some(client) = live_client() else {
        eprintln!("CUBE_E2E_KUBECONFIG not set: skipping");
        return;
    };
    let snap = collect_snapshot(&client, &CollectOptions::default(), |_| {})
        .await
        .unwrap();
    assert!(!snap.nodes.is_empty() || snap.missing_kinds.contains_key("Node"));
    assert!(snap.problems.is_empty(), "{:?}", snap.problems);
}
