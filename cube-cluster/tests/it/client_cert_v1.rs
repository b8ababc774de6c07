//! H27: X.509 v1 client certificates (no extensions; `openssl x509 -req` without `-extfile`, as
//! old hand-made cluster users were signed). client-go presents them (Go's `tls.X509KeyPair`
//! only compares the public keys); rustls' `with_client_auth_cert`, which kube uses, refused
//! them (webpki parses v3 only), so such a user could never connect. A loopback TLS 1.3 server
//! that requires a client certificate (and, like the API server, accepts a v1 one) records what
//! it was shown.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use cube_cluster::certs::{MaterialProblem, check_client_pair};
use cube_cluster::client::{ClientOptions, build_client};
use cube_cluster::kubeconfig::{Kubeconfig, SelectOptions, Selection};
use rcgen::{KeyPair, PublicKeyData as _, SigningKey as _};
use rustls::DigitallySignedStruct;
use rustls::client::danger::HandshakeSignatureValid;
use rustls::pki_types::{CertificateDer, SubjectPublicKeyInfoDer, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use crate::support::{CertPair, Pki, ServerCert};

/// One DER element: `tag`, its definite length, `body`.
fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = body.len();
    if n < 0x80 {
        out.push(n as u8);
    } else {
        let bytes: Vec<u8> = n
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(body);
    out
}

fn name(cn: &str, org: &str) -> Vec<u8> {
    let rdn = |oid: &[u8], value: &str| {
        let atv = [tlv(0x06, oid), tlv(0x0c, value.as_bytes())].concat();
        tlv(0x31, &tlv(0x30, &atv))
    };
    tlv(
        0x30,
        &[rdn(&[0x55, 0x04, 0x0a], org), rdn(&[0x55, 0x04, 0x03], cn)].concat(),
    )
}

/// A self-signed X.509 **v1** certificate (no version field, no extensions) for `key`, CN
/// `cn`, O `system:masters`, valid 2000 to 2049, signed ECDSA P-256 SHA-256: the shape
/// `openssl x509 -req -days N -in user.csr -CA ca.crt -CAkey ca.key` makes.
fn v1_certificate(key: &KeyPair, cn: &str) -> Vec<u8> {
    let ecdsa_sha256 = tlv(
        0x30,
        &tlv(0x06, &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]),
    );
    let subject = name(cn, "system:masters");
    let validity = tlv(
        0x30,
        &[tlv(0x17, b"000101000000Z"), tlv(0x17, b"491231235959Z")].concat(),
    );
    let tbs = tlv(
        0x30,
        &[
            tlv(0x02, &[0x27, 0x11]),
            ecdsa_sha256.clone(),
            subject.clone(),
            validity,
            subject,
            key.subject_public_key_info(),
        ]
        .concat(),
    );
    let sig = key.sign(&tbs).expect("sign");
    tlv(
        0x30,
        &[tbs, ecdsa_sha256, tlv(0x03, &[&[0u8][..], &sig].concat())].concat(),
    )
}

fn pem(der: &[u8]) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let lines: Vec<&str> = b64
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).expect("ascii"))
        .collect();
    format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        lines.join("\n")
    )
}

/// Requires a client certificate of any version and checks the handshake signature with the
/// certificate's public key (read with x509-parser), as Go's crypto/tls server does for v1.
#[derive(Debug)]
struct AnyClientCert {
    seen: Arc<Mutex<Vec<Vec<u8>>>>,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl ClientCertVerifier for AnyClientCert {
    fn root_hint_subjects(&self) -> &[rustls::DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        self.seen.lock().expect("seen").push(end_entity.to_vec());
        Ok(ClientCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("TLS 1.3 only".into()))
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        use x509_parser::prelude::FromDer as _;
        let (_, c) = x509_parser::certificate::X509Certificate::from_der(cert)
            .map_err(|e| rustls::Error::General(e.to_string()))?;
        let spki = SubjectPublicKeyInfoDer::from(c.tbs_certificate.subject_pki.raw);
        rustls::crypto::verify_tls13_signature_with_raw_key(
            message,
            &spki,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// A TLS 1.3 server on 127.0.0.1 presenting `server` and requiring a client certificate; it
/// answers `/version` of every request. Returns its URL and the client certificates it saw.
async fn mtls_server(server: &CertPair) -> (String, Arc<Mutex<Vec<Vec<u8>>>>) {
    use rustls::pki_types::{PrivateKeyDer, pem::PemObject};
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let verifier = AnyClientCert {
        seen: seen.clone(),
        provider: provider.clone(),
    };
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(server.cert_pem.as_bytes())
            .collect::<Result<_, _>>()
            .expect("cert pem");
    let key = PrivateKeyDer::from_pem_slice(server.key_pem.as_bytes()).expect("key pem");
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .expect("protocols")
        .with_client_cert_verifier(Arc::new(verifier))
        .with_single_cert(certs, key)
        .expect("server config");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut req = Vec::new();
                let mut buf = [0u8; 4096];
                while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                    match tls.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => req.extend_from_slice(&buf[..n]),
                    }
                }
                let body = r#"{"major":"1","minor":"36","gitVersion":"v1.36.0","gitCommit":"x","gitTreeState":"clean","buildDate":"2026-01-01T00:00:00Z","goVersion":"go1.25","compiler":"gc","platform":"linux/amd64"}"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.write_all(answer.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    (format!("https://{addr}"), seen)
}

fn selection(url: &str, ca: Option<&str>, cert_pem: &str, key_pem: &str) -> Selection {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let tls = match ca {
        Some(ca) => format!("certificate-authority-data: {}", b64(ca)),
        None => "insecure-skip-tls-verify: true".to_string(),
    };
    let yaml = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    server: {url}\n    {tls}\nusers:\n- name: u\n  user:\n    client-certificate-data: {}\n    client-key-data: {}\ncontexts:\n- name: c\n  context: {{cluster: k, user: u}}\n",
        b64(cert_pem),
        b64(key_pem)
    );
    Kubeconfig::from_yaml(&yaml, None)
        .expect("load")
        .select(&SelectOptions::new())
        .expect("select")
}

#[tokio::test]
async fn a_v1_client_certificate_is_presented_like_client_go() {
    let pki = Pki::new();
    let (url, seen) = mtls_server(&pki.server_cert(ServerCert::Valid)).await;
    let key = KeyPair::generate().expect("key");
    let der = v1_certificate(&key, "old-admin");
    let cert_pem = pem(&der);
    let key_pem = key.serialize_pem();
    // x509-parser reads it as v1 (the shape under test)
    {
        use x509_parser::prelude::FromDer as _;
        let (_, c) = x509_parser::certificate::X509Certificate::from_der(&der).expect("parse");
        assert_eq!(c.version(), x509_parser::x509::X509Version::V1);
        assert!(c.extensions().is_empty());
    }
    // what kube's TLS setup does with it: rustls refuses the pair (webpki reads v3 only)
    {
        use rustls::pki_types::{PrivateKeyDer, pem::PemObject};
        let refused = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("protocols")
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_client_auth_cert(
            vec![CertificateDer::from(der.clone())],
            PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).expect("key"),
        );
        assert!(
            refused.is_err(),
            "rustls accepts v1 client certificates now"
        );
    }
    // through the CA bundle, and with verification off (the system-roots path is the same stack)
    for ca in [Some(pki.ca_pem()), None] {
        seen.lock().expect("seen").clear();
        let sel = selection(&url, ca.as_deref(), &cert_pem, &key_pem);
        let client = build_client(&sel, &ClientOptions::with_timeout(Duration::from_secs(5)))
            .expect("a v1 client certificate builds a client");
        let v = client
            .apiserver_version()
            .await
            .expect("the handshake and /version");
        assert_eq!(v.git_version, "v1.36.0");
        let shown = seen.lock().expect("seen").clone();
        assert_eq!(
            shown,
            vec![der.clone()],
            "the server was shown the v1 certificate"
        );
    }
    // the offline check finds nothing wrong with the pair
    let now = cube_cluster::certs::now_secs();
    assert!(
        check_client_pair(cert_pem.as_bytes(), key_pem.as_bytes(), now).is_empty(),
        "{:?}",
        check_client_pair(cert_pem.as_bytes(), key_pem.as_bytes(), now)
    );
    // a v3 certificate still works the same way
    let v3 = pki.client_cert("new-admin", &["system:masters"]);
    seen.lock().expect("seen").clear();
    let sel = selection(&url, Some(&pki.ca_pem()), &v3.cert_pem, &v3.key_pem);
    let client = build_client(&sel, &ClientOptions::with_timeout(Duration::from_secs(5)))
        .expect("v3 client");
    client.apiserver_version().await.expect("v3 handshake");
    assert_eq!(seen.lock().expect("seen").len(), 1);
}

/// The key of a v1 certificate is still checked: a key that is not the certificate's is
/// refused before any connection (build) and reported offline as a mismatch (it was never
/// found: rustls' check gave up on the v1 certificate and the pair passed).
#[tokio::test]
async fn a_v1_certificate_with_another_key_is_a_key_mismatch() {
    let key = KeyPair::generate().expect("key");
    let other = KeyPair::generate().expect("other key");
    let cert_pem = pem(&v1_certificate(&key, "old-admin"));
    let now = cube_cluster::certs::now_secs();
    let problems = check_client_pair(cert_pem.as_bytes(), other.serialize_pem().as_bytes(), now);
    assert!(
        problems
            .iter()
            .any(|p| matches!(p, MaterialProblem::KeyMismatch)),
        "{problems:?}"
    );
    // validation refuses the pair before any connection
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let yaml = format!(
        "current-context: c\nclusters:\n- name: k\n  cluster: {{server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}}\nusers:\n- name: u\n  user: {{client-certificate-data: {}, client-key-data: {}}}\ncontexts:\n- name: c\n  context: {{cluster: k, user: u}}\n",
        b64(&cert_pem),
        b64(&other.serialize_pem())
    );
    let refused = Kubeconfig::from_yaml(&yaml, None)
        .expect("load")
        .select(&SelectOptions::new())
        .expect_err("a mismatched key is refused")
        .to_string();
    assert!(refused.contains("does not match"), "{refused}");
    // and so does the client build, for a selection that skipped validation
    let mut sel = selection("https://127.0.0.1:1", None, &cert_pem, &key.serialize_pem());
    sel.credentials.client_key_pem = Some(other.serialize_pem().into());
    let Err(err) = build_client(&sel, &ClientOptions::with_timeout(Duration::from_secs(1))) else {
        panic!("a mismatched key is refused by the build");
    };
    assert!(err.to_string().contains("does not match"), "{err}");
}
