//! The import flow of `examples/cluster_import.rs` through the library against the replaying
//! double: connection check, then a capability profile checked with live
//! SelfSubjectAccessReviews (the `profiles` module) using the same client.

use crate::support;

use std::time::Duration;

use cube_cluster::client::{ClientOptions, build_client};
use cube_cluster::connect::{CheckOptions, Outcome, check_client};
use cube_cluster::kubeconfig::{Kubeconfig, SelectOptions};
use cube_cluster::profiles::{KubeReviewer, OverPrivilege, Profile, check_profile};
use support::{ApiDouble, Pki};

async fn import(
    api: &ApiDouble,
    token: &str,
    profile: &str,
) -> (Outcome, cube_cluster::profiles::CapabilityReport) {
    let sel = Kubeconfig::from_yaml(&api.kubeconfig_yaml(Some(token)), None)
        .expect("load")
        .select(&SelectOptions::new())
        .expect("select");
    let copts = ClientOptions::with_timeout(Duration::from_secs(3));
    let client = build_client(&sel, &copts).expect("client");
    let outcome = check_client(
        &client,
        &CheckOptions {
            client: copts,
            ..CheckOptions::default()
        },
    )
    .await;
    let profile = Profile::builtin(profile).expect("builtin profile");
    let report = check_profile(&KubeReviewer::new(client), &profile, &[], 4)
        .await
        .expect("profile");
    (outcome, report)
}

#[tokio::test]
async fn limited_user_connects_but_lacks_console_readonly() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("lim", "limited", &["limited-users"])
        .replay_ssar_fixture()
        .start()
        .await;
    let (outcome, report) = import(&api, "lim", "console-readonly").await;
    match outcome {
        Outcome::Ok { user, .. } => assert_eq!(user.as_deref(), Some("limited")),
        other => panic!("{other:?}"),
    }
    assert!(!report.is_sufficient());
    assert!(!report.missing.is_empty());
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[tokio::test]
async fn system_masters_is_sufficient_but_reported_as_cluster_admin() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("adm", "admin", &["system:masters"])
        .replay_ssar_fixture()
        .start()
        .await;
    let (outcome, report) = import(&api, "adm", "view-nodes").await;
    assert_eq!(outcome.id(), "ok");
    assert!(report.is_sufficient());
    assert!(
        report
            .warnings
            .iter()
            .any(|w| matches!(w, OverPrivilege::ClusterAdmin { .. })),
        "{:?}",
        report.warnings
    );
}
