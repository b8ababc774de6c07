//! Self-tests of the loopback API double (`tests/support`), driven through a plain `kube::Client`
//! so that other test files can rely on its behaviour.

use crate::support;

use std::time::Duration;

use http::Request;
use kube::Client;
use serde_json::{Value, json};
use support::{ApiDouble, Pki, Rule, kube_client};

/// Connect and read timeout of the test clients.
const TIMEOUT: Duration = Duration::from_secs(2);

async fn get_json(client: &Client, path: &str) -> Result<Value, kube::Error> {
    let req = Request::get(path).body(Vec::new()).expect("request");
    client.request::<Value>(req).await
}

#[tokio::test]
async fn version_and_paginated_lists() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("t", "admin", &["system:masters"])
        .snapshot_fixture()
        .start()
        .await;
    let client = kube_client(&api, Some("t"), TIMEOUT);
    let v = client.apiserver_version().await.expect("version");
    assert_eq!(v.git_version, "v1.36.2");

    let all = get_json(&client, "/api/v1/nodes").await.expect("nodes");
    let total = all["items"].as_array().map(Vec::len).unwrap_or(0);
    assert_eq!(total, 7, "fixture has 7 nodes");

    let mut seen = Vec::new();
    let mut cont = String::new();
    loop {
        let path = format!("/api/v1/nodes?limit=3&continue={cont}");
        let page = get_json(&client, &path).await.expect("page");
        let items = page["items"].as_array().cloned().unwrap_or_default();
        assert!(items.len() <= 3);
        seen.extend(
            items
                .iter()
                .map(|i| i["metadata"]["name"].as_str().unwrap_or("").to_string()),
        );
        match page["metadata"]["continue"].as_str() {
            Some(c) if !c.is_empty() => cont = c.to_string(),
            _ => break,
        }
    }
    assert_eq!(seen.len(), 7);

    let pods = get_json(&client, "/api/v1/namespaces/kube-system/pods")
        .await
        .expect("pods");
    for p in pods["items"].as_array().cloned().unwrap_or_default() {
        assert_eq!(p["metadata"]["namespace"], "kube-system");
    }
    let pcs = get_json(&client, "/apis/scheduling.k8s.io/v1/priorityclasses")
        .await
        .expect("pcs");
    assert_eq!(pcs["kind"], "PriorityClassList");
    assert_eq!(pcs["items"].as_array().map(Vec::len), Some(5));
}

#[tokio::test]
async fn forbidden_and_unauthorized_bodies_match_the_captured_texts() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("good", "limited", &["limited-users"])
        .allow(
            "limited",
            Rule::new(&["get", "list"], &[""], &["pods"]).namespace("gpu-test"),
        )
        .start()
        .await;
    let client = kube_client(&api, Some("good"), TIMEOUT);
    let err = get_json(&client, "/api/v1/nodes").await.expect_err("403");
    match err {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 403);
            assert_eq!(
                s.message,
                "nodes is forbidden: User \"limited\" cannot list resource \"nodes\" in API group \"\" at the cluster scope"
            );
        }
        other => panic!("expected Api error, got {other:?}"),
    }
    get_json(&client, "/api/v1/namespaces/gpu-test/pods")
        .await
        .expect("allowed");
    let err = get_json(&client, "/api/v1/namespaces/default/pods")
        .await
        .expect_err("403");
    assert!(
        format!("{err}").contains("in the namespace \\\"default\\\"")
            || matches!(&err, kube::Error::Api(s) if s.message.ends_with("in the namespace \"default\""))
    );

    let bad = kube_client(&api, Some("wrong"), TIMEOUT);
    match get_json(&bad, "/api/v1/pods").await.expect_err("401") {
        kube::Error::Api(s) => {
            assert_eq!(s.code, 401);
            assert_eq!(s.message, "Unauthorized");
        }
        other => panic!("expected Api error, got {other:?}"),
    }
    let anon = kube_client(&api, None, TIMEOUT);
    match get_json(&anon, "/api/v1/nodes")
        .await
        .expect_err("403 anonymous")
    {
        kube::Error::Api(s) => assert!(s.message.contains("User \"system:anonymous\"")),
        other => panic!("expected Api error, got {other:?}"),
    }
    let log = api.requests();
    assert!(
        log.iter()
            .any(|r| r.user.as_deref() == Some("system:anonymous") && !r.had_authorization)
    );
}

#[tokio::test]
async fn ssar_replays_captured_answers_and_computes_others() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("lim", "limited", &["limited-users"])
        .allow(
            "limited",
            Rule::new(&["list"], &[""], &["configmaps"]).namespace("x"),
        )
        .replay_ssar_fixture()
        .start()
        .await;
    let client = kube_client(&api, Some("lim"), TIMEOUT);
    let post = |body: Value| {
        Request::post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
            .header("content-type", "application/json")
            .body(serde_json::to_vec(&body).expect("json"))
            .expect("request")
    };
    let replayed: Value = client
        .request(post(json!({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview",
            "spec":{"resourceAttributes":{"namespace":"gpu-test","verb":"create","resource":"pods"}}})))
        .await
        .expect("ssar");
    assert_eq!(replayed["status"]["allowed"], true);
    assert!(
        replayed["status"]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("limited-edit/gpu-test")
    );
    let computed: Value = client
        .request(post(
            json!({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview",
            "spec":{"resourceAttributes":{"namespace":"x","verb":"list","resource":"configmaps"}}}),
        ))
        .await
        .expect("ssar");
    assert_eq!(computed["status"]["allowed"], true);
    let denied: Value = client
        .request(post(
            json!({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview",
            "spec":{"resourceAttributes":{"verb":"list","resource":"nodes"}}}),
        ))
        .await
        .expect("ssar");
    assert_eq!(denied["status"]["allowed"], false);

    let rules: Value = client
        .request(
            Request::post("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .body(serde_json::to_vec(&json!({"spec":{"namespace":"gpu-test"}})).expect("json"))
                .expect("request"),
        )
        .await
        .expect("ssrr");
    assert!(
        rules["status"]["resourceRules"]
            .as_array()
            .map(Vec::len)
            .unwrap_or(0)
            > 3
    );
}

#[tokio::test]
async fn replay_mode_decides_other_requests_by_the_captured_rules() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("lim", "limited", &["limited-users"])
        .token("adm", "admin", &["system:masters"])
        .snapshot_fixture()
        .replay_ssar_fixture()
        .start()
        .await;
    let limited = kube_client(&api, Some("lim"), TIMEOUT);
    // Captured: limited has `edit` in gpu-test only.
    get_json(&limited, "/api/v1/namespaces/gpu-test/pods")
        .await
        .expect("edit allows list pods in gpu-test");
    match get_json(&limited, "/api/v1/nodes")
        .await
        .expect_err("cluster scope denied")
    {
        kube::Error::Api(s) => assert_eq!(
            s.message,
            "nodes is forbidden: User \"limited\" cannot list resource \"nodes\" in API group \"\" at the cluster scope"
        ),
        other => panic!("{other:?}"),
    }
    assert!(
        get_json(&limited, "/api/v1/namespaces/default/pods")
            .await
            .is_err()
    );
    // system:masters is allowed before RBAC.
    let admin = kube_client(&api, Some("adm"), TIMEOUT);
    let nodes = get_json(&admin, "/api/v1/nodes")
        .await
        .expect("admin lists nodes");
    assert_eq!(nodes["items"].as_array().map(Vec::len), Some(7));
}
