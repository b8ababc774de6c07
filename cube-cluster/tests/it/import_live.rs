//! `cube_cluster::import` against a real cluster: `CUBE_E2E_KUBECONFIG` (context
//! `CUBE_E2E_CONTEXT`, plugins with `CUBE_E2E_ALLOW_EXEC=1`). The tests that create objects also
//! need `CUBE_E2E_ALLOW_WRITE=1`; they create a throw-away namespace `cube-e2e-import-<pid>`, a
//! ClusterRole and a ClusterRoleBinding of the same name, and delete them at the end.
//!
//! ```sh
//! CUBE_E2E_KUBECONFIG=$HOME/.kube/config cargo test -p cube-cluster live_import -- --ignored
//! CUBE_E2E_KUBECONFIG=$HOME/.kube/config CUBE_E2E_ALLOW_WRITE=1 \
//!   cargo test -p cube-cluster live_import -- --ignored --nocapture
//! ```

use crate::support::Pki;

use std::path::PathBuf;
use std::time::Duration;

use base64::Engine as _;
use cube_cluster::api::{ObjectApplier, ObjectRef, ResourceType};
use cube_cluster::client::{ClientOptions, build_client};
use cube_cluster::connect::Outcome;
use cube_cluster::import::{ImportOptions, create_service_account, import};
use cube_cluster::kubeconfig::{Kubeconfig, PluginPolicy, SelectOptions};
use cube_cluster::manifests::{ManifestOptions, ServiceAccountKubeconfig, manifests_for};
use cube_cluster::profiles::{CapabilityCheck, Profile, Scope};
use cube_model::import::ConnectionClass;

/// The live kubeconfig and the options the environment asks for, or `None` (test skipped).
fn live() -> Option<(PathBuf, Kubeconfig, ImportOptions)> {
    let path = PathBuf::from(std::env::var_os("CUBE_E2E_KUBECONFIG")?);
    let cfg = Kubeconfig::read(&path).expect("CUBE_E2E_KUBECONFIG must name a readable kubeconfig");
    let mut opts = ImportOptions::new();
    opts.context = std::env::var("CUBE_E2E_CONTEXT").ok();
    if std::env::var("CUBE_E2E_ALLOW_EXEC").is_ok_and(|v| v == "1") {
        opts.plugins = PluginPolicy::Allow;
    }
    opts.client = ClientOptions::with_timeout(Duration::from_secs(15));
    Some((path, cfg, opts))
}

fn writes_allowed() -> bool {
    std::env::var("CUBE_E2E_ALLOW_WRITE").is_ok_and(|v| v == "1")
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_import_checks_the_minimal_set_and_asked_profiles() {
    let Some((path, cfg, mut opts)) = live() else {
        return;
    };
    opts.profiles
        .push(Profile::builtin("view-nodes").expect("profile"));
    let r = import(&cfg, &path.display().to_string(), &opts)
        .await
        .expect("import");
    let c = r.connection.as_ref().expect("connected");
    assert!(matches!(c.outcome, Outcome::Ok { .. }), "{c:?}");
    let names: Vec<&str> = r.rbac.iter().map(|p| p.profile.as_str()).collect();
    assert_eq!(names, ["cube-minimal", "view-nodes"]);
    // Every review was answered by the server (allowed or not).
    for p in &r.rbac {
        for x in &p.results {
            assert_ne!(x.outcome, cube_cluster::profiles::Outcome::Failed, "{x:?}");
        }
    }
    assert_eq!(r.importable, r.rbac_sufficient());
    let m = r.to_import_report();
    assert_eq!(m.connection.class, ConnectionClass::Ok);
    assert!(!m.username.is_empty());
    eprintln!("{}", serde_json::to_string_pretty(&r).expect("json"));
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_import_with_a_wrong_ca_is_tls_untrusted() {
    let Some((path, mut cfg, opts)) = live() else {
        return;
    };
    let selection = cfg
        .select(&SelectOptions {
            context: opts.context.clone(),
            plugins: opts.plugins,
            ..SelectOptions::new()
        })
        .expect("the live kubeconfig must validate");
    if !selection.server.starts_with("https://") || selection.insecure_skip_tls_verify {
        eprintln!("skipped: the live server is not verified over https");
        return;
    }
    let other = base64::engine::general_purpose::STANDARD.encode(Pki::new().other_ca_pem());
    for c in &mut cfg.clusters {
        if c.name == selection.cluster_name {
            c.cluster.certificate_authority = None;
            c.cluster.certificate_authority_data = Some(other.clone());
        }
    }
    let r = import(&cfg, &path.display().to_string(), &opts)
        .await
        .expect("import");
    assert!(!r.importable);
    let class = r.to_import_report().connection.class;
    assert_eq!(class, ConnectionClass::TlsUntrusted, "{r:#?}");
    assert!(r.rbac.is_empty());
}

/// Deletes what the write tests created (namespace, ClusterRole, ClusterRoleBinding).
async fn clean_up(client: &kube::Client, name: &str) {
    for (kind, ns) in [
        ("ClusterRoleBinding", None),
        ("ClusterRole", None),
        ("Namespace", None::<&str>),
    ] {
        let r = ObjectRef::new(ResourceType::of_kind(kind).expect("known"), ns, name);
        let _ = client.delete_object(&r, false).await;
    }
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_import_get_only_service_account_is_insufficient_and_created_one_verifies() {
    let Some((path, cfg, mut opts)) = live() else {
        return;
    };
    if !writes_allowed() {
        eprintln!("skipped: set CUBE_E2E_ALLOW_WRITE=1 to create a ServiceAccount");
        return;
    }
    let name = format!("cube-e2e-import-{}", std::process::id());
    let selection = cfg
        .select(&SelectOptions {
            context: opts.context.clone(),
            plugins: opts.plugins,
            ..SelectOptions::new()
        })
        .expect("the live kubeconfig must validate");
    let admin = build_client(&selection, &opts.client).expect("client");

    // 1. A ServiceAccount that may only `get` nodes: view-nodes is insufficient (list missing).
    let get_only = Profile {
        name: "get-nodes".into(),
        description: String::new(),
        notes: Vec::new(),
        checks: vec![CapabilityCheck {
            verb: "get".into(),
            group: String::new(),
            resource: "nodes".into(),
            subresource: String::new(),
            scope: Scope::Cluster,
        }],
    };
    let m = manifests_for(
        &get_only,
        &[],
        &ManifestOptions::new("viewer", &name)
            .role_name(&name)
            .with_token_secret(),
    )
    .expect("manifests");
    let minted = create_service_account(&admin, &m, Duration::from_secs(30)).await;
    let (_, token, ca) = match minted {
        Ok(x) => x,
        Err((_, e)) => {
            clean_up(&admin, &name).await;
            panic!("{e}");
        }
    };
    let ca_pem = selection
        .ca_pem
        .as_ref()
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .or(ca);
    let kc =
        ServiceAccountKubeconfig::new("live", &selection.server, ca_pem, &name, "viewer", token)
            .to_yaml()
            .expect("yaml");
    let viewer_cfg = Kubeconfig::from_yaml(&kc, None).expect("kubeconfig");
    let mut viewer_opts = ImportOptions::new();
    viewer_opts.client = opts.client;
    viewer_opts
        .profiles
        .push(Profile::builtin("view-nodes").expect("profile"));
    let viewer = import(&viewer_cfg, "viewer", &viewer_opts)
        .await
        .expect("import");
    // 2. The least-privilege account created on request passes the minimal set and view-nodes.
    opts.create_service_account = true;
    opts.token_wait = Duration::from_secs(30);
    opts.manifests = ManifestOptions::new("cube-console", &name)
        .role_name(&name)
        .with_token_secret();
    opts.profiles
        .push(Profile::builtin("view-nodes").expect("profile"));
    let created = import(&cfg, &path.display().to_string(), &opts).await;
    clean_up(&admin, &name).await;

    assert!(
        !viewer.importable,
        "get must not stand in for list: {viewer:#?}"
    );
    let view = viewer
        .rbac
        .iter()
        .find(|p| p.profile == "view-nodes")
        .expect("view-nodes");
    assert!(!view.is_sufficient());
    assert!(
        view.missing.iter().any(|m| m.rule.verbs == ["list"]),
        "{view:#?}"
    );

    let created = created.expect("import");
    let sa = created.service_account.as_ref().expect("created");
    assert_eq!(sa.error, None, "{sa:#?}");
    let v = sa.verification.as_ref().expect("verified");
    assert!(v.importable, "{v:#?}");
    assert!(
        v.rbac.iter().all(|p| p.warnings.is_empty()),
        "least privilege: {:#?}",
        v.rbac
    );
}
