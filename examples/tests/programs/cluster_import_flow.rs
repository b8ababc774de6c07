//! `cluster_import` end to end: the built program against an in-memory API server served over
//! TLS on loopback (`cube_cluster::memory::serve_tls`, bearer tokens, RBAC from its stored
//! objects, the token controller): verified import, the ServiceAccount created with server-side
//! apply and re-imported with its minted token, the registry entry written, and the minted
//! kubeconfig imported again as the console would.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use crate::support::root;
use cube_cluster::memory::{MemoryCluster, serve_tls};
use cube_cluster::rbac::UserInfo;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};

fn cluster_import() -> PathBuf {
    crate::support::example("cluster_import")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(cluster_import())
        .args(args)
        .current_dir(root())
        .output()
        .expect("run cluster_import");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A CA and a serving certificate for 127.0.0.1 signed by it: (CA PEM, server config).
fn tls() -> (String, Arc<rustls::ServerConfig>) {
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("ca params");
    ca.distinguished_name.push(DnType::CommonName, "kubernetes");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().expect("key")).expect("ca");
    let mut leaf = CertificateParams::new(vec!["127.0.0.1".to_string()]).expect("params");
    leaf.distinguished_name
        .push(DnType::CommonName, "kube-apiserver");
    let key = KeyPair::generate().expect("key");
    let cert = leaf.signed_by(&key, &ca).expect("sign");
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert.pem().as_bytes())
        .collect::<Result<_, _>>()
        .expect("pem");
    let key = PrivateKeyDer::from_pem_slice(key.serialize_pem().as_bytes()).expect("key pem");
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("versions")
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .expect("config");
    (ca.pem(), Arc::new(config))
}

fn kubeconfig(server: &str, ca_pem: &str, token: &str) -> String {
    use base64::Engine as _;
    let ca = base64::engine::general_purpose::STANDARD.encode(ca_pem);
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: admin@memory\nclusters:\n- name: memory\n  cluster:\n    server: {server}\n    certificate-authority-data: {ca}\nusers:\n- name: admin\n  user:\n    token: {token}\ncontexts:\n- name: admin@memory\n  context: {{cluster: memory, user: admin}}\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_creates_the_service_account_verifies_it_and_registers_it() {
    let dir = std::env::temp_dir().join(format!("cube-import-flow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let admin_token = "admin-token-0123456789abcdef0123";
    let cluster = Arc::new(
        MemoryCluster::new()
            .with_token(
                admin_token,
                UserInfo::authenticated("kubernetes-admin", ["system:masters"]),
            )
            .with_stored_rbac(),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (ca_pem, config) = tls();
    let task = serve_tls(cluster.clone(), listener, config);
    let admin = dir.join("admin.conf");
    std::fs::write(
        &admin,
        kubeconfig(&format!("https://{addr}"), &ca_pem, admin_token),
    )
    .expect("write");
    let minted = dir.join("cube-console.conf");
    let registry = dir.join("clusters.yaml");
    let _ = std::fs::remove_file(&registry);
    let (a, m, r) = (
        admin.display().to_string(),
        minted.display().to_string(),
        registry.display().to_string(),
    );

    // Admin: verified (cluster-admin is warned about), the ServiceAccount created and verified
    // with its own token, the registry entry written pointing at the minted kubeconfig.
    let (code, out, err) = tokio::task::block_in_place(|| {
        run(&[
            "--kubeconfig",
            &a,
            "--profile",
            "view-nodes",
            "--create-service-account",
            "--service-account-kubeconfig",
            &m,
            "--registry",
            &r,
            "--name",
            "bj-prod",
            "--label",
            "env=prod",
            "--taint",
            "dedicated=gpu:NoSchedule",
            "--default",
        ])
    });
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("importable  yes"), "{out}");
    assert!(
        out.contains("RBAC profile cube-minimal: sufficient"),
        "{out}"
    );
    assert!(out.contains("credentials are cluster-admin"), "{out}");
    assert!(out.contains("applied   Namespace/cube-system"), "{out}");
    assert!(
        out.contains("verified with its own token: importable"),
        "{out}"
    );
    assert!(out.contains("REGISTRY"), "{out}");
    assert!(!out.contains(admin_token) && !err.contains(admin_token));
    let applies = cluster
        .requests()
        .into_iter()
        .filter(|q| q.is_apply())
        .count();
    assert_eq!(
        applies, 5,
        "Namespace, ServiceAccount, ClusterRole, binding, Secret"
    );

    // The minted kubeconfig holds the token (owner-only), the registry only its path.
    let minted_text = std::fs::read_to_string(&minted).expect("minted kubeconfig");
    let token = minted_text
        .lines()
        .find_map(|l| l.trim().strip_prefix("token: "))
        .expect("token")
        .to_string();
    assert!(
        !out.contains(&token) && !err.contains(&token),
        "token printed"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&minted)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let reg = std::fs::read_to_string(&registry).expect("registry");
    assert!(
        reg.contains("bj-prod") && reg.contains("env: prod"),
        "{reg}"
    );
    assert!(reg.contains("cube-console.conf"), "{reg}");
    assert!(!reg.contains(&token) && !reg.contains(admin_token), "{reg}");

    // The console imports with the minted kubeconfig: sufficient, nothing broader.
    let (code, out, err) = tokio::task::block_in_place(|| {
        run(&[
            "--kubeconfig",
            &m,
            "--profile",
            "view-nodes",
            "--output",
            "json",
        ])
    });
    assert_eq!(code, 0, "{out}\n{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["importable"], true, "{out}");
    assert_eq!(
        v["connection"]["outcome"]["user"],
        "system:serviceaccount:cube-system:cube-console"
    );
    assert_eq!(v["rbac"][0]["profile"], "cube-minimal");
    assert_eq!(v["rbac"][1]["profile"], "view-nodes");
    assert!(v["manifests"].is_null(), "least privilege: {out}");

    // A broken registry is reported (exit 2) and kept as it was.
    std::fs::write(&registry, "clusters: [ {name: \n").expect("break");
    let (code, _, err) =
        tokio::task::block_in_place(|| run(&["--kubeconfig", &m, "--registry", &r, "--name", "x"]));
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(&registry).expect("read"),
        "clusters: [ {name: \n"
    );
    task.abort();
}
