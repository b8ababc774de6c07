//! Live tests against a real cluster. They are ignored by default and run with
//!
//! ```text
//! CUBE_E2E_KUBECONFIG=/path/to/kubeconfig cargo test -p cube-cluster --test connect_live -- --ignored
//! ```
//!
//! Optional: `CUBE_E2E_CONTEXT` (context name), `CUBE_E2E_ALLOW_EXEC=1` (let exec plugins run,
//! needed for EKS/GKE/OIDC kubeconfigs). Without `CUBE_E2E_KUBECONFIG` the tests return early.

use crate::support;

use std::time::Duration;

use cube_cluster::client::ClientOptions;
use cube_cluster::connect::{CheckOptions, Outcome, check};
use cube_cluster::probe::{ProbeOptions, ProbeTarget, probe};
use support::live::live_selection;

fn opts() -> CheckOptions {
    CheckOptions {
        client: ClientOptions::with_timeout(Duration::from_secs(15)),
        ..CheckOptions::default()
    }
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_connection_check_reports_version_and_user() {
    let Some(sel) = live_selection() else {
        eprintln!("CUBE_E2E_KUBECONFIG not set: skipping");
        return;
    };
    let report = check(&sel, &opts()).await;
    match report.outcome {
        Outcome::Ok { version, user, .. } => {
            assert!(version.git_version.starts_with('v'), "{version:?}");
            if let Some(u) = user {
                assert_ne!(u, "system:anonymous");
            }
        }
        other => panic!("live cluster check failed: {other:?}"),
    }
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_bad_token_is_unauthorized() {
    let Some(mut sel) = live_selection() else {
        eprintln!("CUBE_E2E_KUBECONFIG not set: skipping");
        return;
    };
    sel.credentials = Default::default();
    sel.credentials.token = Some("cube-e2e-invalid-token-feedface".into());
    let report = check(&sel, &opts()).await;
    assert_eq!(report.outcome.id(), "unauthorized", "{:?}", report.outcome);
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_probe_alongside_a_refused_port() {
    let Some(sel) = live_selection() else {
        eprintln!("CUBE_E2E_KUBECONFIG not set: skipping");
        return;
    };
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr")
    };
    let mut refused = sel.clone();
    refused.server = format!("https://{dead}");
    refused.tls_server_name = None;
    let health = probe(
        vec![
            ProbeTarget {
                name: "live".into(),
                selection: Ok(sel),
                limit: None,
            },
            ProbeTarget {
                name: "refused".into(),
                selection: Ok(refused),
                limit: None,
            },
        ],
        &ProbeOptions {
            timeout: Duration::from_secs(15),
            ..ProbeOptions::default()
        },
    )
    .await;
    assert!(health[0].healthy, "{:?}", health[0].outcome);
    assert_eq!(health[1].outcome.id(), "refused");
}
