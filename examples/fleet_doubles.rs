//! Loopback doubles for trying `cluster_fleet` (and `group_plan --registry`) without a cluster:
//! one in-memory API server (`cube_cluster::memory::MemoryCluster`, loaded with a snapshot)
//! served over TLS with bearer-token authentication, plus a dead port and a port that accepts
//! connections and never answers; a cluster registry over them is written to `--dir`.
//!
//! ```text
//! cargo run -p cube-examples --example fleet_doubles -- --dir /tmp/fleet &
//! cargo run -p cube-examples --example cluster_fleet -- --registry /tmp/fleet/registry.yaml --timeout 2
//! ```
//!
//! `scripts/fleet-demo.sh` does both and stops the doubles. Registry entries (kubeconfig paths
//! relative to the registry file, as a console would write them):
//! - `bj-prod` (`env=prod`, `location=beijing`, the default cluster), `sh-prod` (`env=prod`,
//!   `location=shanghai`) and `bj-dev` (`env=dev`, taint `dedicated=dev:NoSchedule`): the served
//!   cluster, with a token it knows (user `console`);
//! - `dead`: a loopback port nothing listens on (connection refused);
//! - `wrong-token`: the served cluster with a token it does not know (401 `Unauthorized`);
//! - `silent`: a port that accepts the TCP connection and never answers, not even the TLS
//!   handshake (a hung API server or a black-holing proxy).
//!
//! Prints `registry: <path>` on stdout once everything listens, then serves until killed or
//! until `--lifetime` seconds have passed. Every listener is on 127.0.0.1. Test data only: the
//! CA and serving certificate are minted at start and the tokens are fixed strings.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::Parser;
use cube_cluster::memory::{MemoryCluster, serve_stream};
use cube_cluster::rbac::UserInfo;

/// Serve loopback doubles for cluster_fleet and write a registry over them.
#[derive(Debug, Parser)]
#[command(name = "fleet_doubles")]
struct Args {
    /// Directory for ca.crt, the kubeconfigs and registry.yaml (created if missing).
    #[arg(long)]
    dir: PathBuf,
    /// The snapshot the served cluster holds (kubectl List JSON/YAML).
    #[arg(
        long,
        default_value = "testdata/fixtures/apiserver/snapshot-gpu-cluster.json"
    )]
    snapshot: PathBuf,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 600)]
    lifetime: u64,
}

/// The token the served cluster knows (user `console`).
const GOOD_TOKEN: &str = "cube-doubles-console-token";
/// A token the served cluster does not know.
const WRONG_TOKEN: &str = "cube-doubles-revoked-token";

fn main() {
    let args = Args::parse();
    if let Err(e) = run(&args) {
        cube_examples::eprint_line(&format!("error: {e:#}"));
        std::process::exit(2);
    }
}

/// A CA and a serving certificate for 127.0.0.1 / localhost, PEM: (ca, cert, key).
fn mint() -> anyhow::Result<(String, String, String)> {
    use rcgen::{
        BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose,
        IsCa, KeyPair, KeyUsagePurpose,
    };
    let mut ca = CertificateParams::new(Vec::<String>::new())?;
    ca.distinguished_name
        .push(DnType::CommonName, "fleet-doubles-ca");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate()?)?;
    let mut server = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])?;
    server
        .distinguished_name
        .push(DnType::CommonName, "kube-apiserver");
    server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let key = KeyPair::generate()?;
    let cert = server.signed_by(&key, &ca)?;
    Ok((ca.pem(), cert.pem(), key.serialize_pem()))
}

fn acceptor(cert_pem: &str, key_pem: &str) -> anyhow::Result<tokio_rustls::TlsAcceptor> {
    use rustls::pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject};
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(cert_pem.as_bytes()).collect::<Result<_, _>>()?;
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes())?;
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()?
    .with_no_client_auth()
    .with_single_cert(certs, key)?;
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

fn kubeconfig(server: &str, ca_file: &Path, token: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: {server}\n    certificate-authority: {}\nusers:\n- name: u\n  user:\n    token: {token}\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\ncurrent-context: c\n",
        ca_file.display()
    )
}

fn run(args: &Args) -> anyhow::Result<()> {
    // the one bounded reader: FIFOs and devices (`/dev/zero`) refused, the file-size limit
    let text = cube_model::io::read_file_to_string(&args.snapshot, &cube_model::Limits::default())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let cluster = MemoryCluster::new()
        .with_version(cube_cluster::api::ServerVersion {
            git_version: "v1.36.2".into(),
            major: "1".into(),
            minor: "36".into(),
            platform: "linux/amd64".into(),
        })
        .with_token(
            GOOD_TOKEN,
            UserInfo::authenticated("console", ["system:authenticated"]),
        );
    cluster
        .load(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.snapshot.display()))?;
    let cluster = Arc::new(cluster);
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let dir = args
        .dir
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", args.dir.display()))?;
    let (ca, cert, key) = mint()?;
    let ca_file = dir.join("ca.crt");
    // every file written the one safe way (a link planted in --dir is replaced, never
    // written through)
    cube_examples::write_replacing(&ca_file, &ca, false)?;
    let tls = acceptor(&cert, &key)?;

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let served = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let served_url = format!("https://{}", served.local_addr()?);
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let silent_url = format!("https://{}", silent.local_addr()?);
        let dead_url = {
            let l = std::net::TcpListener::bind("127.0.0.1:0")?;
            format!("https://{}", l.local_addr()?)
        };
        let entries: [(&str, &str, &str, &str); 6] = [
            (
                "bj-prod",
                &served_url,
                GOOD_TOKEN,
                "  labels: {env: prod, location: beijing}\n  default: true\n",
            ),
            (
                "sh-prod",
                &served_url,
                GOOD_TOKEN,
                "  labels: {env: prod, location: shanghai}\n",
            ),
            (
                "bj-dev",
                &served_url,
                GOOD_TOKEN,
                "  labels: {env: dev, location: beijing}\n  taints: [{key: dedicated, value: dev, effect: NoSchedule}]\n",
            ),
            ("dead", &dead_url, GOOD_TOKEN, "  labels: {env: prod}\n"),
            ("wrong-token", &served_url, WRONG_TOKEN, "  labels: {env: prod}\n"),
            ("silent", &silent_url, GOOD_TOKEN, "  labels: {env: prod}\n"),
        ];
        let mut registry = String::from("clusters:\n");
        for (name, url, token, extra) in entries {
            cube_examples::write_replacing(
                &dir.join(format!("{name}.kubeconfig")),
                &kubeconfig(url, &ca_file, token),
                true,
            )?;
            registry.push_str(&format!(
                "- name: {name}\n{extra}  kubeconfig: {{path: {name}.kubeconfig}}\n"
            ));
        }
        let registry_file = dir.join("registry.yaml");
        cube_examples::write_replacing(&registry_file, &registry, false)?;

        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = served.accept().await else {
                    continue;
                };
                let (cluster, tls) = (cluster.clone(), tls.clone());
                tokio::spawn(async move {
                    if let Ok(stream) = tls.accept(stream).await {
                        let _ = serve_stream(cluster, stream).await;
                    }
                });
            }
        });
        tokio::spawn(async move {
            let mut held = Vec::new();
            loop {
                if let Ok((stream, _)) = silent.accept().await {
                    held.push(stream); // open, never answered
                }
            }
        });
        cube_examples::print_stdout(&format!("registry: {}", registry_file.display()))?;
        tokio::time::sleep(Duration::from_secs(args.lifetime)).await;
        anyhow::Ok(())
    })
}
