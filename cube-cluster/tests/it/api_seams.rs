//! The async seams are dyn-compatible and `Send + Sync`: each is held as `Box<dyn ...>` /
//! `Arc<dyn ...>` and used from spawned tasks, with the in-memory cluster, with a real
//! `kube::Client` over HTTPS (the loopback double), and with a `kube::Client` whose service is
//! the in-memory cluster (requests asserted on the wire).

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use cube_cluster::api::{
    APPLY_PATCH_CONTENT_TYPE, AccessReviewer, ApplyParams, ClusterApi, ObjectApplier, ObjectReader,
    ObjectRef, ResourceType, ServerInfo,
};
use cube_cluster::connect::{CheckOptions, Outcome, check_api};
use cube_cluster::memory::MemoryCluster;
use cube_cluster::profiles::{Profile, check_profile};
use cube_cluster::rbac::{AccessRequest, RbacPolicy, UserInfo};
use cube_cluster::snapshot::{CollectOptions, collect_snapshot};
use serde_json::json;
use support::{ApiDouble, Pki};

const TIMEOUT: Duration = Duration::from_secs(5);

fn fixture_cluster() -> MemoryCluster {
    let c = MemoryCluster::new();
    c.load(&support::testdata(
        "fixtures/apiserver/snapshot-gpu-cluster.json",
    ))
    .expect("fixture loads");
    c
}

#[tokio::test]
async fn every_seam_is_held_as_box_and_arc_dyn_across_spawn() {
    let cluster = Arc::new(fixture_cluster());
    let info: Arc<dyn ServerInfo> = cluster.clone();
    let reader: Box<dyn ObjectReader> = Box::new(fixture_cluster());
    let applier: Arc<dyn ObjectApplier> = cluster.clone();
    let reviewer: Box<dyn AccessReviewer> = Box::new(fixture_cluster());
    let all: Arc<dyn ClusterApi> = cluster.clone();

    let v = tokio::spawn(async move { info.server_version().await })
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v.git_version, "v1.36.0");
    let nodes = tokio::spawn(async move { reader.get_text("/api/v1/nodes?limit=2").await })
        .await
        .unwrap()
        .unwrap();
    let page: serde_json::Value = serde_json::from_str(&nodes).unwrap();
    assert_eq!(page["items"].as_array().unwrap().len(), 2);
    assert_eq!(page["metadata"]["continue"], "2");
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "seam"}});
    let stored =
        tokio::spawn(async move { applier.apply_object(&ns, &ApplyParams::default()).await })
            .await
            .unwrap()
            .unwrap();
    assert_eq!(stored["status"]["phase"], "Active");
    let answer = tokio::spawn(async move {
        reviewer
            .review(&AccessRequest::resource("list", "", "nodes"))
            .await
    })
    .await
    .unwrap()
    .unwrap();
    assert!(answer.allowed);
    // The generic functions accept the trait objects.
    let snap = collect_snapshot(&*all, &CollectOptions::default().page_size(3), |_| {})
        .await
        .unwrap();
    assert_eq!(snap.nodes.len(), 7);
    assert_eq!(
        snap.namespaces.len(),
        8,
        "7 from the fixture + the applied one"
    );
    let outcome = check_api(&*all, &CheckOptions::default()).await;
    assert!(matches!(outcome, Outcome::Ok { .. }), "{outcome:?}");
    let report = check_profile(&*all, &Profile::builtin("view-nodes").unwrap(), &[], 2)
        .await
        .unwrap();
    assert!(report.is_sufficient());
}

#[tokio::test]
async fn kube_client_is_a_cluster_api_over_https() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("t", "ops", &[])
        .snapshot_fixture()
        .start()
        .await;
    let client = support::kube_client(&api, Some("t"), TIMEOUT);
    let held: Arc<dyn ClusterApi> = Arc::new(client);
    let h = held.clone();
    let (version, me) = tokio::spawn(async move {
        (
            h.server_version().await.unwrap(),
            h.self_subject().await.unwrap(),
        )
    })
    .await
    .unwrap();
    assert_eq!(version.git_version, "v1.36.2");
    assert_eq!(me.unwrap().name, "ops");
    let nodes = held
        .list_objects(&ResourceType::of_kind("Node").unwrap(), None, "")
        .await
        .unwrap();
    assert_eq!(nodes.len(), 7);
    assert!(
        nodes.iter().all(|n| n["kind"] == "Node"),
        "kind restored on list items"
    );
    let snap = collect_snapshot(&*held, &CollectOptions::default().only(&["Node"]), |_| {})
        .await
        .unwrap();
    assert_eq!(snap.nodes.len(), 7);
}

#[tokio::test]
async fn a_kube_client_over_the_memory_cluster_sends_server_side_apply() {
    let cluster = Arc::new(MemoryCluster::new());
    let client = support::memory_client(cluster.clone());
    let ns = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}});
    let quota = json!({
        "apiVersion": "v1", "kind": "ResourceQuota",
        "metadata": {"name": "g-main", "namespace": "team-a", "labels": {"cube-rs.io/group": "g"}},
        "spec": {"hard": {"requests.cpu": "4000m", "pods": "10"}}
    });
    client
        .apply_object(&ns, &ApplyParams::default())
        .await
        .unwrap();
    let dry = client
        .apply_object(&quota, &ApplyParams::default().dry_run())
        .await
        .unwrap();
    assert_eq!(
        dry["spec"]["hard"]["requests.cpu"], "4",
        "stored canonically"
    );
    let target = ObjectRef::of(&quota).unwrap();
    assert!(
        client.get_object(&target).await.unwrap().is_none(),
        "dry run stores nothing"
    );
    let stored = client
        .apply_object(&quota, &ApplyParams::default())
        .await
        .unwrap();
    let rv = stored["metadata"]["resourceVersion"].clone();
    let again = client
        .apply_object(&quota, &ApplyParams::default())
        .await
        .unwrap();
    assert_eq!(
        again["metadata"]["resourceVersion"], rv,
        "no-op apply writes nothing"
    );

    let reqs = cluster.requests();
    let applies: Vec<_> = reqs.iter().filter(|r| r.method == "PATCH").collect();
    assert_eq!(applies.len(), 4);
    for r in &applies {
        assert_eq!(r.content_type.as_deref(), Some(APPLY_PATCH_CONTENT_TYPE));
        assert_eq!(r.field_manager(), Some("cube-rs"));
        assert!(!r.force());
    }
    assert_eq!(applies[0].path, "/api/v1/namespaces/team-a");
    assert_eq!(
        applies[1].path,
        "/api/v1/namespaces/team-a/resourcequotas/g-main"
    );
    assert!(applies[1].dry_run() && !applies[2].dry_run());
    assert_eq!(applies[1].code, 201);
    assert_eq!(reqs.iter().find(|r| r.method == "GET").unwrap().code, 404);
}

#[tokio::test]
async fn memory_cluster_rbac_and_rejected_credentials_classify_like_a_server() {
    let policy = RbacPolicy::from_yaml_str(
        r#"
kind: ClusterRole
metadata: {name: nodes-get}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get]}]
---
kind: ClusterRoleBinding
metadata: {name: nodes-get}
roleRef: {kind: ClusterRole, name: nodes-get}
subjects: [{kind: User, name: viewer}]
"#,
    )
    .unwrap();
    let limited = fixture_cluster()
        .with_user(UserInfo::authenticated("viewer", Vec::<String>::new()))
        .with_rbac(policy);
    let err = limited.get_text("/api/v1/nodes").await.unwrap_err();
    match err {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 403);
            assert_eq!(
                s.message,
                "nodes is forbidden: User \"viewer\" cannot list resource \"nodes\" in API group \"\" at the cluster scope"
            );
        }
        other => panic!("{other:?}"),
    }
    // get is allowed, list is not: the review says so too.
    let held: Box<dyn AccessReviewer> = Box::new(limited);
    assert!(
        held.review(&AccessRequest::resource("get", "", "nodes"))
            .await
            .unwrap()
            .allowed
    );
    assert!(
        !held
            .review(&AccessRequest::resource("list", "", "nodes"))
            .await
            .unwrap()
            .allowed
    );

    let rejected: Arc<dyn ClusterApi> = Arc::new(MemoryCluster::new().reject_credentials());
    let outcome = check_api(&*rejected, &CheckOptions::default()).await;
    assert_eq!(outcome.id(), "unauthorized", "{outcome:?}");
}

/// Bearer tokens: a known token is that user, an unknown one or none is 401 with the
/// apiserver's `Unauthorized` Status.
#[test]
fn memory_cluster_authenticates_bearer_tokens() {
    let cluster = MemoryCluster::new().with_token(
        "good",
        UserInfo::authenticated("console", ["system:authenticated"]),
    );
    let send = |token: Option<&str>| {
        let mut b = http::Request::builder()
            .method("POST")
            .uri("/apis/authentication.k8s.io/v1/selfsubjectreviews")
            .header("content-type", "application/json");
        if let Some(t) = token {
            b = b.header("authorization", format!("Bearer {t}"));
        }
        let r = cluster.handle(
            &b.body(
                br#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#.to_vec(),
            )
            .unwrap(),
        );
        let v: serde_json::Value = serde_json::from_slice(r.body()).unwrap();
        (r.status().as_u16(), v)
    };
    let (code, v) = send(Some("good"));
    assert_eq!(code, 201, "{v}");
    assert_eq!(v["status"]["userInfo"]["username"], "console");
    for token in [Some("revoked"), None] {
        let (code, v) = send(token);
        assert_eq!(code, 401);
        assert_eq!(
            v,
            json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                   "message": "Unauthorized", "reason": "Unauthorized", "code": 401})
        );
    }
}
