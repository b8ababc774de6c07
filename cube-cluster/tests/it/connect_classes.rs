//! Every failure class produced through the real `kube` client against the loopback double.

use crate::support;

use std::time::{Duration, Instant};

use cube_cluster::classify::{Class, ForbiddenCause, ProtocolMismatch, Validity};
use cube_cluster::client::ClientOptions;
use cube_cluster::connect::{CheckOptions, Outcome, check};
use cube_cluster::kubeconfig::{Kubeconfig, SelectOptions, Selection};
use support::{ApiDouble, Mode, Pki, Rule, ServerCert, kubeconfig_yaml};

fn select(yaml: &str) -> Selection {
    Kubeconfig::from_yaml(yaml, None)
        .expect("load")
        .select(&SelectOptions::new())
        .expect("select")
}

fn opts() -> CheckOptions {
    CheckOptions {
        client: ClientOptions::with_timeout(Duration::from_secs(2)),
        ..CheckOptions::default()
    }
}

async fn run(yaml: &str, o: &CheckOptions) -> Outcome {
    check(&select(yaml), o).await.outcome
}

async fn double(pki: &Pki, cert: ServerCert, mode: Mode) -> ApiDouble {
    ApiDouble::builder(pki)
        .server_cert(pki, cert)
        .mode(mode)
        .token("good", "limited", &["limited-users"])
        .start()
        .await
}

#[tokio::test]
async fn ok_reports_version_and_user() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::Normal).await;
    match run(&api.kubeconfig_yaml(Some("good")), &opts()).await {
        Outcome::Ok {
            version,
            user,
            groups,
        } => {
            assert_eq!(version.git_version, "v1.36.2");
            assert_eq!(user.as_deref(), Some("limited"));
            assert!(groups.contains(&"system:authenticated".to_string()));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn refused_port() {
    let addr = support::refused_addr();
    let pki = Pki::new();
    let yaml = kubeconfig_yaml(&format!("https://{addr}"), Some(&pki.ca_pem()), Some("t"));
    let o = run(&yaml, &opts()).await;
    assert_eq!(o.class(), Some(&Class::Refused), "{o:?}");
}

#[tokio::test]
async fn server_that_never_answers_is_a_timeout_within_the_deadline() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::NeverAnswer).await;
    let start = Instant::now();
    let o = run(&api.kubeconfig_yaml(Some("good")), &opts()).await;
    assert_eq!(o.class(), Some(&Class::Timeout), "{o:?}");
    assert!(
        start.elapsed() < Duration::from_secs(7),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn wrong_ca_is_untrusted() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::WrongCa, Mode::Normal).await;
    let o = run(&api.kubeconfig_yaml(Some("good")), &opts()).await;
    assert_eq!(o.class(), Some(&Class::TlsUntrusted), "{o:?}");
}

#[tokio::test]
async fn wrong_san_is_a_name_mismatch() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::WrongSan, Mode::Normal).await;
    match run(&api.kubeconfig_yaml(Some("good")), &opts())
        .await
        .class()
    {
        Some(Class::TlsNameMismatch { valid_for, wanted }) => {
            assert_eq!(wanted.as_deref(), Some("127.0.0.1"));
            assert!(
                valid_for
                    .iter()
                    .any(|n| n.contains("apiserver.other.example")),
                "{valid_for:?}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn tls_server_name_not_in_sans_is_a_name_mismatch() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::Normal).await;
    let mut cfg = Kubeconfig::from_yaml(&api.kubeconfig_yaml(Some("good")), None).expect("load");
    cfg.clusters[0].cluster.tls_server_name = Some("apiserver.wrong-name.example".into());
    let sel = cfg.select(&SelectOptions::new()).expect("select");
    let o = check(&sel, &opts()).await.outcome;
    assert!(
        matches!(o.class(), Some(Class::TlsNameMismatch { .. })),
        "{o:?}"
    );
}

#[tokio::test]
async fn rewritten_server_still_verifies_the_original_name() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::Normal).await;
    // The cluster's own address is "kubernetes:<port>" (in the cert SANs, not resolvable here);
    // the console reaches it at 127.0.0.1.
    let yaml = kubeconfig_yaml(
        &format!("https://kubernetes:{}", api.addr.port()),
        Some(&api.ca_pem),
        Some("good"),
    );
    let mut cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
    let name = cfg.rewrite_server("double", &api.url()).expect("rewrite");
    assert_eq!(name.as_deref(), Some("kubernetes"));
    let sel = cfg.select(&SelectOptions::new()).expect("select");
    let o = check(&sel, &opts()).await.outcome;
    assert_eq!(o.id(), "ok", "{o:?}");
}

#[tokio::test]
async fn expired_and_not_yet_valid_with_clock_skew_hint() {
    let pki = Pki::new();
    for (cert, state, skew) in [
        (ServerCert::Expired, Validity::Expired, false),
        (ServerCert::ExpiredRecently, Validity::Expired, true),
        (ServerCert::NotYetValid, Validity::NotYetValid, false),
        (ServerCert::NotYetValidSoon, Validity::NotYetValid, true),
    ] {
        let api = double(&pki, cert, Mode::Normal).await;
        match run(&api.kubeconfig_yaml(Some("good")), &opts())
            .await
            .class()
        {
            Some(Class::TlsValidity {
                state: s,
                clock_skew_hint,
                ..
            }) => {
                assert_eq!((*s, *clock_skew_hint), (state, skew), "{cert:?}");
            }
            other => panic!("{cert:?}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn plain_http_to_https_port_and_https_to_plain_port() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::Normal).await;
    let yaml = kubeconfig_yaml(&format!("http://{}", api.addr), None, None);
    match run(&yaml, &opts()).await.class() {
        Some(Class::Protocol { mismatch }) => assert_eq!(*mismatch, ProtocolMismatch::HttpToHttps),
        other => panic!("{other:?}"),
    }
    let plain = double(&pki, ServerCert::Valid, Mode::PlainHttp).await;
    let yaml = kubeconfig_yaml(
        &format!("https://{}", plain.addr),
        Some(&pki.ca_pem()),
        Some("good"),
    );
    match run(&yaml, &opts()).await.class() {
        Some(Class::Protocol { mismatch }) => assert_eq!(*mismatch, ProtocolMismatch::HttpsToHttp),
        other => panic!("{other:?} {:?}", run(&yaml, &opts()).await),
    }
}

#[tokio::test]
async fn credentials_are_not_sent_over_plain_http() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::PlainHttp).await;
    let yaml = kubeconfig_yaml(&api.url(), None, Some("good"));
    let o = run(&yaml, &opts()).await;
    // The double sees no Authorization header, so the server sees system:anonymous.
    assert!(api.requests().iter().all(|r| !r.had_authorization));
    match o.class() {
        Some(Class::Forbidden { cause, detail }) => {
            assert_eq!(*cause, ForbiddenCause::Anonymous);
            assert_eq!(detail.user.as_deref(), Some("system:anonymous"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unauthorized_bad_token_and_misbehaving_server() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::Normal).await;
    let o = run(&api.kubeconfig_yaml(Some("expired-token")), &opts()).await;
    assert_eq!(o.class(), Some(&Class::Unauthorized), "{o:?}");
    let api = double(&pki, ServerCert::Valid, Mode::Unauthorized).await;
    let o = run(&api.kubeconfig_yaml(Some("good")), &opts()).await;
    assert_eq!(o.class(), Some(&Class::Unauthorized), "{o:?}");
}

#[tokio::test]
async fn forbidden_anonymous_and_rbac_with_the_user_the_server_saw() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("good", "limited", &["limited-users"])
        .allow(
            "limited",
            Rule::new(
                &["create"],
                &["authentication.k8s.io"],
                &["selfsubjectreviews"],
            ),
        )
        .start()
        .await;
    let o = run(&api.kubeconfig_yaml(None), &opts()).await;
    assert!(
        matches!(
            o.class(),
            Some(Class::Forbidden {
                cause: ForbiddenCause::Anonymous,
                ..
            })
        ),
        "{o:?}"
    );

    let mut with_probe = opts();
    with_probe.access_probe = Some("/api/v1/nodes?limit=1".into());
    match run(&api.kubeconfig_yaml(Some("good")), &with_probe).await {
        Outcome::Failed {
            class: Class::Forbidden { cause, detail },
            message,
        } => {
            assert_eq!(cause, ForbiddenCause::Rbac);
            assert_eq!(detail.user.as_deref(), Some("limited"));
            assert_eq!(detail.resource.as_deref(), Some("nodes"));
            assert!(detail.cluster_scope);
            assert!(message.contains("cannot list resource"));
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn other_status_and_secrets_absent_from_reports() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::Normal).await;
    let mut o = opts();
    o.access_probe = Some("/apis/example.com/v1/widgets".into());
    let out = run(&api.kubeconfig_yaml(Some("good")), &o).await;
    assert_eq!(out.class(), Some(&Class::NotFound), "{out:?}");
    let report = check(
        &select(&api.kubeconfig_yaml(Some("supersecret-token-value-123"))),
        &opts(),
    )
    .await;
    let text = format!(
        "{report:?} {}",
        serde_json::to_string(&report).unwrap_or_default()
    );
    assert!(!text.contains("supersecret-token-value-123"));
}

#[tokio::test]
async fn other_http_status_keeps_code_and_reason() {
    let pki = Pki::new();
    let api = double(&pki, ServerCert::Valid, Mode::Status(503)).await;
    match run(&api.kubeconfig_yaml(Some("good")), &opts())
        .await
        .class()
    {
        Some(Class::HttpStatus { code, reason }) => {
            assert_eq!(*code, 503);
            assert_eq!(reason.as_deref(), Some("ServiceUnavailable"));
        }
        other => panic!("{other:?}"),
    }
}
