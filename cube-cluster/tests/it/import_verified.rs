//! `cube_cluster::import` against loopback doubles that answer as a real v1.36 API server:
//! the TLS double of `support` (captured SelfSubjectAccessReview answers of
//! `testdata/fixtures/apiserver/` for the users they cover, rules otherwise) and
//! [`MemoryCluster`] served over TLS for the ServiceAccount created on request. Each test
//! asserts the requests sent (method, path, SelfSubjectAccessReview bodies) and the class of
//! every problem.

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use cube_cluster::client::ClientOptions;
use cube_cluster::import::{ImportOptions, import, import_offline};
use cube_cluster::kubeconfig::{Kubeconfig, ProblemKind, Severity};
use cube_cluster::memory::MemoryCluster;
use cube_cluster::profiles::{OverPrivilege, Profile};
use cube_cluster::rbac::UserInfo;
use cube_model::import::ConnectionClass;
use serde_json::{Value, json};
use support::{ApiDouble, Pki, Rule, ServerCert};

const SSAR_PATH: &str = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

fn options() -> ImportOptions {
    ImportOptions {
        client: ClientOptions::with_timeout(Duration::from_secs(3)),
        ..ImportOptions::new()
    }
}

fn config(yaml: &str) -> Kubeconfig {
    Kubeconfig::from_yaml(yaml, None).expect("kubeconfig")
}

/// The `spec.resourceAttributes` of every SelfSubjectAccessReview the double received.
fn ssar_specs(api: &ApiDouble) -> Vec<Value> {
    api.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == SSAR_PATH)
        .map(|r| r.body.expect("SSAR body")["spec"]["resourceAttributes"].clone())
        .collect()
}

/// The seed's minimal set, as the API server receives it: `list nodes` and `list pods` with no
/// namespace (all namespaces), nothing else in the spec.
fn assert_minimal_set_asked(specs: &[Value]) {
    assert_eq!(
        specs[0],
        json!({"verb": "list", "resource": "nodes"}),
        "{specs:#?}"
    );
    assert_eq!(
        specs[1],
        json!({"verb": "list", "resource": "pods"}),
        "{specs:#?}"
    );
}

#[tokio::test]
async fn admin_is_sufficient_and_reported_as_cluster_admin() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("adm", "admin", &["system:masters"])
        .replay_ssar_fixture()
        .start()
        .await;
    let r = import(
        &config(&api.kubeconfig_yaml(Some("adm"))),
        "admin.conf",
        &options(),
    )
    .await
    .expect("import");
    assert!(r.importable, "{r:#?}");
    assert_eq!(r.connection.as_ref().map(|c| c.outcome.id()), Some("ok"));
    assert_eq!(r.rbac.len(), 1);
    assert_eq!(r.rbac[0].profile, "cube-minimal");
    assert!(r.rbac[0].is_sufficient());
    assert!(
        r.rbac[0]
            .warnings
            .iter()
            .any(|w| matches!(w, OverPrivilege::ClusterAdmin { .. })),
        "{:?}",
        r.rbac[0].warnings
    );
    // Over-privileged: the least-privilege manifests are offered, namespace first.
    let m = r.manifests.as_deref().expect("manifests");
    assert!(m.starts_with("apiVersion: v1\nkind: Namespace\n"), "{m}");
    for kind in [
        "ServiceAccount",
        "ClusterRole",
        "ClusterRoleBinding",
        "Secret",
    ] {
        assert!(m.contains(&format!("kind: {kind}\n")), "{kind}: {m}");
    }
    // Requests: /version, SelfSubjectReview, then the minimal set first.
    let reqs = api.requests();
    assert_eq!(
        (reqs[0].method.as_str(), reqs[0].path.as_str()),
        ("GET", "/version")
    );
    assert_eq!(
        (reqs[1].method.as_str(), reqs[1].path.as_str()),
        ("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews")
    );
    for r in reqs.iter().filter(|r| r.path == SSAR_PATH) {
        assert_eq!(r.content_type.as_deref(), Some("application/json"));
        assert_eq!(
            r.body.as_ref().expect("body")["kind"],
            "SelfSubjectAccessReview"
        );
        assert_eq!(
            r.body.as_ref().expect("body")["apiVersion"],
            "authorization.k8s.io/v1"
        );
    }
    assert_minimal_set_asked(&ssar_specs(&api));
    let report = r.to_import_report();
    assert_eq!(report.connection.class, ConnectionClass::Ok);
    assert_eq!(report.username, "admin");
    assert_eq!(report.profiles, ["cube-minimal"]);
    assert!(report.rbac_checks.iter().all(|c| c.allowed && c.required));
    assert!(!report.over_privileges.is_empty());
}

#[tokio::test]
async fn captured_limited_user_lacks_the_minimal_set() {
    // The fixture's `limited` user (edit in gpu-test only): the real server answered
    // `allowed: false` to list nodes and list pods in all namespaces.
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("lim", "limited", &["limited-users"])
        .replay_ssar_fixture()
        .start()
        .await;
    let r = import(
        &config(&api.kubeconfig_yaml(Some("lim"))),
        "limited.conf",
        &options(),
    )
    .await
    .expect("import");
    assert!(!r.importable);
    assert_eq!(r.connection.as_ref().map(|c| c.outcome.id()), Some("ok"));
    assert!(!r.rbac[0].is_sufficient());
    assert_eq!(r.rbac[0].missing.len(), 1, "{:?}", r.rbac[0].missing);
    let rule = &r.rbac[0].missing[0].rule;
    assert_eq!(rule.verbs, ["list"]);
    assert_eq!(rule.resources, ["nodes", "pods"]);
    assert!(r.manifests.is_some());
    let report = r.to_import_report();
    // Reachable and authenticated: the class is ok, the missing rights are RBAC checks.
    assert_eq!(report.connection.class, ConnectionClass::Ok);
    assert_eq!(report.rbac_checks.iter().filter(|c| !c.allowed).count(), 2);
}

#[tokio::test]
async fn service_account_that_may_only_get_nodes_is_insufficient() {
    let pki = Pki::new();
    let sa = "system:serviceaccount:cube-system:viewer";
    let api = ApiDouble::builder(&pki)
        .token("sa-get", sa, &["system:serviceaccounts"])
        .allow(sa, Rule::new(&["get"], &[""], &["nodes"]))
        .start()
        .await;
    let mut opts = options();
    opts.profiles
        .push(Profile::builtin("view-nodes").expect("view-nodes"));
    let r = import(
        &config(&api.kubeconfig_yaml(Some("sa-get"))),
        "viewer.conf",
        &opts,
    )
    .await
    .expect("import");
    assert!(!r.importable, "get never stands in for list");
    let names: Vec<&str> = r.rbac.iter().map(|p| p.profile.as_str()).collect();
    assert_eq!(names, ["cube-minimal", "view-nodes"]);
    assert!(!r.rbac[0].is_sufficient());
    // view-nodes: get allowed, list not.
    let view = &r.rbac[1];
    assert!(!view.is_sufficient());
    let outcomes: Vec<(&str, bool)> = view
        .results
        .iter()
        .map(|x| {
            (
                x.scoped.check.verb.as_str(),
                x.outcome == cube_cluster::profiles::Outcome::Allowed,
            )
        })
        .collect();
    assert_eq!(outcomes, [("get", true), ("list", false)]);
    assert_eq!(view.missing[0].rule.verbs, ["list"]);
    let specs = ssar_specs(&api);
    assert_minimal_set_asked(&specs);
    assert!(
        specs.contains(&json!({"verb": "get", "resource": "nodes"})),
        "{specs:#?}"
    );
    let m = r.manifests.as_deref().expect("manifests");
    assert!(m.contains("- list"), "{m}");
}

#[tokio::test]
async fn service_account_with_the_minimal_set_is_sufficient() {
    let pki = Pki::new();
    let sa = "system:serviceaccount:cube-system:cube-console";
    let api = ApiDouble::builder(&pki)
        .token("sa-min", sa, &["system:serviceaccounts"])
        .allow(sa, Rule::new(&["list"], &[""], &["nodes", "pods"]))
        .start()
        .await;
    let r = import(
        &config(&api.kubeconfig_yaml(Some("sa-min"))),
        "console.conf",
        &options(),
    )
    .await
    .expect("import");
    assert!(r.importable, "{r:#?}");
    assert!(r.rbac[0].is_sufficient());
    assert!(r.rbac[0].warnings.is_empty(), "{:?}", r.rbac[0].warnings);
    assert!(r.manifests.is_none(), "nothing to fix");
    assert_minimal_set_asked(&ssar_specs(&api));
    let report = r.to_import_report();
    assert_eq!(report.username, sa);
    assert!(report.over_privileges.is_empty());
}

#[tokio::test]
async fn wrong_ca_is_classified_tls_untrusted() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .server_cert(&pki, ServerCert::WrongCa)
        .token("adm", "admin", &["system:masters"])
        .start()
        .await;
    let r = import(
        &config(&api.kubeconfig_yaml(Some("adm"))),
        "stale.conf",
        &options(),
    )
    .await
    .expect("import");
    assert!(!r.importable);
    let outcome = &r.connection.as_ref().expect("connection").outcome;
    assert_eq!(outcome.id(), "tls-untrusted", "{outcome:?}");
    assert!(r.rbac.is_empty(), "no review without a trusted connection");
    // The certificate was read with a separate handshake: it names the host, so the only
    // problem is its issuer.
    let cert = r.server_certificate.as_ref().expect("server certificate");
    assert!(cert.names_host, "{cert:?}");
    assert!(!api.requests().iter().any(|x| x.path == SSAR_PATH));
    let report = r.to_import_report();
    assert_eq!(report.connection.class, ConnectionClass::TlsUntrusted);
    assert!(
        report.connection.message.contains("not signed by the CA"),
        "{}",
        report.connection.message
    );
}

#[tokio::test]
async fn insecure_skip_tls_verify_is_a_warning_of_its_own_class() {
    // Verification off, and the certificate does not even name 127.0.0.1: the connection
    // works, the problems are warnings of their own kinds, never "unreachable".
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .server_cert(&pki, ServerCert::WrongSan)
        .token("adm", "admin", &["system:masters"])
        .start()
        .await;
    let yaml = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    server: {}\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: adm\ncontexts:\n- name: c\n  context: {{cluster: k, user: u}}\n",
        api.url()
    );
    let r = import(&config(&yaml), "insecure.conf", &options())
        .await
        .expect("import");
    assert_eq!(r.connection.as_ref().map(|c| c.outcome.id()), Some("ok"));
    let kinds: Vec<(ProblemKind, Severity)> =
        r.problems.iter().map(|p| (p.kind, p.severity)).collect();
    assert!(
        kinds.contains(&(ProblemKind::InsecureSkipTlsVerify, Severity::Warning)),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&(ProblemKind::ServerNameNotInCertificate, Severity::Warning)),
        "{kinds:?}"
    );
    let cert = r.server_certificate.as_ref().expect("certificate read");
    assert!(!cert.names_host);
    assert_eq!(cert.host, "127.0.0.1");
    let report = r.to_import_report();
    assert_eq!(report.connection.class, ConnectionClass::Ok);
    let ids: Vec<&str> = report
        .kubeconfig_problems
        .iter()
        .map(|p| p.kind.as_str())
        .collect();
    assert!(ids.contains(&"insecure-skip-tls-verify"), "{ids:?}");
    assert!(ids.contains(&"server-name-not-in-certificate"), "{ids:?}");
}

#[test]
fn offline_certificate_problems_are_found_before_any_connection() {
    use base64::Engine as _;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let pki = Pki::new();
    let cases = [
        (
            "not PEM",
            b64("just some text\n"),
            ProblemKind::CertificateInvalid,
        ),
        (
            "PEM, not a certificate",
            b64("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n"),
            ProblemKind::CertificateInvalid,
        ),
        (
            "expired",
            b64(&pki.server_cert(ServerCert::Expired).cert_pem),
            ProblemKind::CertificateExpired,
        ),
        (
            "not yet valid",
            b64(&pki.server_cert(ServerCert::NotYetValid).cert_pem),
            ProblemKind::CertificateNotYetValid,
        ),
    ];
    for (what, data, kind) in cases {
        let yaml = format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    server: https://192.0.2.1:6443\n    certificate-authority-data: {data}\nusers:\n- name: u\n  user:\n    token: t0ken\ncontexts:\n- name: c\n  context: {{cluster: k, user: u}}\n"
        );
        let r = import_offline(&config(&yaml), "x.conf", &options()).expect("import");
        assert!(!r.importable, "{what}");
        assert!(
            r.problems.iter().any(|p| p.kind == kind),
            "{what}: {:?}",
            r.problems
        );
        let report = r.to_import_report();
        assert_eq!(
            report.connection.class,
            ConnectionClass::NotChecked,
            "{what}"
        );
        assert!(
            report
                .kubeconfig_problems
                .iter()
                .any(|p| p.kind == kind.id()),
            "{what}"
        );
    }
}

/// A [`MemoryCluster`] served over TLS on loopback with bearer tokens, RBAC from its own
/// stored objects and the token controller: what `--create-service-account` talks to.
async fn memory_tls(
    pki: &Pki,
    cluster: Arc<MemoryCluster>,
) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let cert = pki.server_cert(ServerCert::Valid);
    let config = support::tls_server_config(&cert);
    let task = cube_cluster::memory::serve_tls(cluster, listener, config);
    (format!("https://{addr}"), task)
}

#[tokio::test]
async fn created_service_account_is_verified_with_its_own_token() {
    let pki = Pki::new();
    let cluster = Arc::new(
        MemoryCluster::new()
            .with_token(
                "admin-token",
                UserInfo::authenticated("kubernetes-admin", ["system:masters"]),
            )
            .with_stored_rbac(),
    );
    let (url, task) = memory_tls(&pki, cluster.clone()).await;
    let yaml = support::kubeconfig_yaml(&url, Some(&pki.ca_pem()), Some("admin-token"));
    let mut opts = options();
    opts.create_service_account = true;
    opts.profiles
        .push(Profile::builtin("view-nodes").expect("profile"));
    opts.token_wait = Duration::from_secs(2);
    let r = import(&config(&yaml), "admin.conf", &opts)
        .await
        .expect("import");
    task.abort();
    assert!(r.importable, "admin passes: {r:#?}");
    let sa = r.service_account.as_ref().expect("created");
    assert_eq!(sa.error, None, "{sa:#?}");
    assert_eq!(
        sa.applied,
        [
            "Namespace/cube-system",
            "ServiceAccount/cube-system/cube-console",
            "ClusterRole/cube-console-view-nodes",
            "ClusterRoleBinding/cube-console-view-nodes",
            "Secret/cube-system/cube-console-token",
        ]
    );
    let v = sa.verification.as_ref().expect("verified");
    assert!(
        v.importable,
        "the minted account passes the same checks: {v:#?}"
    );
    let who = match &v.connection.as_ref().expect("connection").outcome {
        cube_cluster::connect::Outcome::Ok { user, .. } => user.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        who.as_deref(),
        Some("system:serviceaccount:cube-system:cube-console")
    );
    assert!(
        v.rbac
            .iter()
            .all(|p| p.is_sufficient() && p.warnings.is_empty()),
        "{:#?}",
        v.rbac
    );
    // Every object was written with server-side apply by cube-rs; the verification ran as the
    // ServiceAccount.
    let reqs = cluster.requests();
    let applies: Vec<&cube_cluster::memory::RecordedRequest> =
        reqs.iter().filter(|q| q.method == "PATCH").collect();
    assert_eq!(applies.len(), 5);
    assert!(
        applies
            .iter()
            .all(|q| q.is_apply() && q.field_manager() == Some("cube-rs") && !q.dry_run())
    );
    // The kubeconfig of the minted account: token inside, never in Debug.
    let kc = sa.kubeconfig.as_ref().expect("kubeconfig");
    let text = kc.to_yaml().expect("yaml");
    let token = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("token: "))
        .expect("token line")
        .to_string();
    assert!(!format!("{r:?}").contains(&token));
    assert!(!serde_json::to_string(&r).expect("json").contains(&token));
    // Importing that kubeconfig again is sufficient as well.
    let (url2, task2) = memory_tls(&pki, cluster.clone()).await;
    let again_yaml = support::kubeconfig_yaml(&url2, Some(&pki.ca_pem()), Some(&token));
    let again = import(&config(&again_yaml), "minted.conf", &options())
        .await
        .expect("import");
    task2.abort();
    assert!(again.importable, "{again:#?}");
    assert!(again.manifests.is_none());
}
