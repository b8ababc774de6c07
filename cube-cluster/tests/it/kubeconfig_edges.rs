//! Edge cases of kubeconfigs as classes (issue 9): a `tokenFile` with surrounding whitespace,
//! clusters behind a `proxy-url` (with credentials that never show), CA / client certificate /
//! key material that is not PEM, not a certificate, expired or not yet valid, keys that do not
//! match, referenced files that are devices or FIFOs, and server URLs whose password holds
//! `/`, `#` or `?`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use cube_cluster::client::ClientOptions;
use cube_cluster::connect::{CheckOptions, Outcome, check};
use cube_cluster::kubeconfig::{Kubeconfig, ProblemKind, SelectOptions, Severity};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::support::{ApiDouble, Pki, ServerCert};

const TIMEOUT: Duration = Duration::from_secs(5);

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s.as_bytes())
}

fn opts() -> CheckOptions {
    CheckOptions {
        client: ClientOptions::with_timeout(TIMEOUT),
        ..CheckOptions::default()
    }
}

/// A kubeconfig with one cluster stanza (`cluster_extra` lines, 4 spaces) and one user stanza.
fn kubeconfig(server: &str, cluster_extra: &str, user_extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    server: {server}\n{cluster_extra}users:\n- name: u\n  user:\n{user_extra}contexts:\n- name: c\n  context: {{cluster: k, user: u}}\n"
    )
}

#[tokio::test]
async fn a_token_file_with_a_trailing_newline_authenticates_like_client_go() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("tok-abc", "alice", &["devs"])
        .start()
        .await;
    let dir = tempfile::tempdir().expect("tmp");
    for content in ["tok-abc\n", "tok-abc\r\n", "  tok-abc \n\n", "tok-abc"] {
        let tf = dir.path().join("token");
        std::fs::write(&tf, content).expect("write");
        let yaml = kubeconfig(
            &api.url(),
            &format!("    certificate-authority-data: {}\n", b64(&api.ca_pem)),
            &format!("    tokenFile: {}\n", tf.display()),
        );
        let sel = Kubeconfig::from_yaml(&yaml, None)
            .expect("load")
            .select(&SelectOptions::new())
            .expect("select");
        let r = check(&sel, &opts()).await;
        match r.outcome {
            Outcome::Ok { user, .. } => assert_eq!(user.as_deref(), Some("alice"), "{content:?}"),
            other => panic!("{content:?}: {other:?}"),
        }
    }
}

/// What a loopback proxy saw: each CONNECT line (or `SOCKS5 host:port`) and the credentials
/// sent (`Proxy-Authorization` value, or `user:password` of SOCKS5).
pub(crate) type ProxyLog = Arc<Mutex<Vec<(String, Option<String>)>>>;

/// One HTTP CONNECT exchange on `stream` (plain TCP or TLS): the request line and
/// `Proxy-Authorization` recorded, then the tunnel to the target.
async fn serve_connect<S>(stream: S, log: ProxyLog)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut r = BufReader::new(stream);
    let mut line = String::new();
    if r.read_line(&mut line).await.unwrap_or(0) == 0 {
        return;
    }
    let mut auth = None;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).await.unwrap_or(0) == 0 {
            return;
        }
        if h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("proxy-authorization")
        {
            auth = Some(v.trim().to_string());
        }
    }
    let target = line
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    if let Ok(mut l) = log.lock() {
        l.push((line.trim().to_string(), auth));
    }
    let Ok(mut upstream) = tokio::net::TcpStream::connect(&target).await else {
        return;
    };
    let mut client = r.into_inner();
    let _ = client
        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
        .await;
    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
}

/// A minimal HTTP CONNECT proxy on 127.0.0.1 that records each CONNECT line and
/// `Proxy-Authorization` header, then tunnels. With `tls`, the proxy itself speaks TLS with
/// that certificate (an `https://` proxy-url).
pub(crate) async fn connect_proxy_with(
    tls: Option<&crate::support::CertPair>,
) -> (String, ProxyLog) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let seen: ProxyLog = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let acceptor =
        tls.map(|c| tokio_rustls::TlsAcceptor::from(crate::support::tls_server_config(c)));
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let log = log.clone();
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                match acceptor {
                    Some(a) => {
                        if let Ok(tls) = a.accept(stream).await {
                            serve_connect(tls, log).await;
                        }
                    }
                    None => serve_connect(stream, log).await,
                }
            });
        }
    });
    (format!("127.0.0.1:{}", addr.port()), seen)
}

/// [`connect_proxy_with`] over plain TCP (an `http://` proxy-url).
pub(crate) async fn connect_proxy() -> (String, ProxyLog) {
    connect_proxy_with(None).await
}

/// A minimal SOCKS5 proxy on 127.0.0.1 (RFC 1928, with RFC 1929 user/password when offered):
/// records `SOCKS5 host:port` and the credentials, then tunnels.
pub(crate) async fn socks5_proxy() -> (String, ProxyLog) {
    use tokio::io::AsyncReadExt as _;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let seen: ProxyLog = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((mut c, _)) = listener.accept().await {
            let log = log.clone();
            tokio::spawn(async move {
                let mut head = [0u8; 2];
                c.read_exact(&mut head).await.ok()?;
                let mut methods = vec![0u8; usize::from(head[1])];
                c.read_exact(&mut methods).await.ok()?;
                let mut creds = None;
                if methods.contains(&2) {
                    c.write_all(&[5, 2]).await.ok()?;
                    let mut v = [0u8; 2];
                    c.read_exact(&mut v).await.ok()?;
                    let mut user = vec![0u8; usize::from(v[1])];
                    c.read_exact(&mut user).await.ok()?;
                    let mut plen = [0u8; 1];
                    c.read_exact(&mut plen).await.ok()?;
                    let mut pass = vec![0u8; usize::from(plen[0])];
                    c.read_exact(&mut pass).await.ok()?;
                    creds = Some(format!(
                        "{}:{}",
                        String::from_utf8_lossy(&user),
                        String::from_utf8_lossy(&pass)
                    ));
                    c.write_all(&[1, 0]).await.ok()?;
                } else {
                    c.write_all(&[5, 0]).await.ok()?;
                }
                let mut req = [0u8; 4];
                c.read_exact(&mut req).await.ok()?;
                let host = match req[3] {
                    1 => {
                        let mut a = [0u8; 4];
                        c.read_exact(&mut a).await.ok()?;
                        std::net::Ipv4Addr::from(a).to_string()
                    }
                    3 => {
                        let mut n = [0u8; 1];
                        c.read_exact(&mut n).await.ok()?;
                        let mut name = vec![0u8; usize::from(n[0])];
                        c.read_exact(&mut name).await.ok()?;
                        String::from_utf8_lossy(&name).into_owned()
                    }
                    _ => {
                        let mut a = [0u8; 16];
                        c.read_exact(&mut a).await.ok()?;
                        format!("[{}]", std::net::Ipv6Addr::from(a))
                    }
                };
                let mut port = [0u8; 2];
                c.read_exact(&mut port).await.ok()?;
                let target = format!("{host}:{}", u16::from_be_bytes(port));
                log.lock().ok()?.push((format!("SOCKS5 {target}"), creds));
                let mut up = tokio::net::TcpStream::connect(&target).await.ok()?;
                c.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0]).await.ok()?;
                let _ = tokio::io::copy_bidirectional(&mut c, &mut up).await;
                Some(())
            });
        }
    });
    (format!("127.0.0.1:{}", addr.port()), seen)
}

/// G4: every `proxy-url` scheme client-go accepts (`http`, `https`, `socks5`: `parseProxyURL`,
/// kubernetes/client-go `tools/clientcmd/client_config.go`) connects through a loopback proxy
/// of that kind, its credentials sent decoded and never shown; every other scheme (`socks5h`,
/// `socks4`, `ftp`) is refused at validation with client-go's words.
#[tokio::test]
async fn every_proxy_scheme_client_go_accepts_connects_and_the_others_are_refused() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("t", "alice", &[])
        .start()
        .await;
    let (http_proxy, http_seen) = connect_proxy().await;
    let (https_proxy, https_seen) =
        connect_proxy_with(Some(&pki.server_cert(ServerCert::Valid))).await;
    let (socks, socks_seen) = socks5_proxy().await;
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode("proxyuser:pr/xy-s3cret")
    );
    for (url, seen, first, creds) in [
        (
            format!("http://proxyuser:pr%2Fxy-s3cret@{http_proxy}"),
            http_seen,
            format!("CONNECT {}", api.addr),
            basic.clone(),
        ),
        (
            format!("https://proxyuser:pr%2Fxy-s3cret@{https_proxy}"),
            https_seen,
            format!("CONNECT {}", api.addr),
            basic.clone(),
        ),
        (
            format!("socks5://proxyuser:pr%2Fxy-s3cret@{socks}"),
            socks_seen,
            format!("SOCKS5 {}", api.addr),
            "proxyuser:pr/xy-s3cret".to_string(),
        ),
    ] {
        let yaml = kubeconfig(
            &api.url(),
            &format!(
                "    certificate-authority-data: {}\n    proxy-url: {url}\n",
                b64(&api.ca_pem)
            ),
            "    token: t\n",
        );
        let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
        assert!(
            !cfg.check(&SelectOptions::new())
                .iter()
                .any(|p| p.severity == Severity::Error),
            "{url}"
        );
        let sel = cfg.select(&SelectOptions::new()).expect("accepted");
        let r = check(&sel, &opts()).await;
        assert!(
            matches!(r.outcome, Outcome::Ok { .. }),
            "{url}: {:?}",
            r.outcome
        );
        let seen = seen.lock().expect("log").clone();
        assert!(
            !seen.is_empty(),
            "{url}: the request went through the proxy"
        );
        assert_eq!(
            seen[0].0.split(" HTTP/").next(),
            Some(first.as_str()),
            "{url}"
        );
        assert_eq!(seen[0].1.as_deref(), Some(creds.as_str()), "{url}");
        assert!(!format!("{sel:?}").contains("s3cret"), "{url}");
    }
    // client-go's parseProxyURL refuses the rest, in these words
    for scheme in ["socks5h", "socks4", "ftp"] {
        let yaml = kubeconfig(
            &api.url(),
            &format!(
                "    insecure-skip-tls-verify: true\n    proxy-url: {scheme}://u:pr0xy-s3cret@{socks}\n"
            ),
            "    token: t\n",
        );
        let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
        let problems = cfg.check(&SelectOptions::new());
        let p = problems
            .iter()
            .find(|p| p.kind == ProblemKind::BadProxyUrl)
            .unwrap_or_else(|| panic!("{scheme}: {problems:?}"));
        assert!(
            p.message.contains(&format!(
                "unsupported scheme \"{scheme}\", must be http, https, or socks5"
            )),
            "{}",
            p.message
        );
        assert!(!p.message.contains("s3cret"), "{}", p.message);
        assert!(cfg.select(&SelectOptions::new()).is_err(), "{scheme}");
    }
}

#[tokio::test]
async fn proxy_url_clusters_connect_through_the_proxy() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token("t", "alice", &[])
        .start()
        .await;
    let (proxy, seen) = connect_proxy().await;
    // The password holds a `/`, percent-encoded as a URL requires.
    let yaml = kubeconfig(
        &api.url(),
        &format!(
            "    certificate-authority-data: {}\n    proxy-url: http://proxyuser:pr%2Fxy-s3cret@{proxy}\n",
            b64(&api.ca_pem)
        ),
        "    token: t\n",
    );
    let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
    let sel = cfg
        .select(&SelectOptions::new())
        .expect("a proxy-url is accepted");
    let r = check(&sel, &opts()).await;
    assert!(matches!(r.outcome, Outcome::Ok { .. }), "{:?}", r.outcome);
    let seen = seen.lock().expect("log").clone();
    assert!(!seen.is_empty(), "the request went through the proxy");
    assert!(
        seen[0].0.starts_with(&format!("CONNECT {}", api.addr)),
        "{seen:?}"
    );
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode("proxyuser:pr/xy-s3cret")
    );
    assert_eq!(seen[0].1.as_deref(), Some(expected.as_str()));
    // Nothing about the selection shows the proxy password.
    let dbg = format!("{sel:?}");
    assert!(
        !dbg.contains("s3cret") && !dbg.contains("proxyuser"),
        "{dbg}"
    );
}

#[test]
fn a_bad_proxy_url_is_refused_without_showing_its_password() {
    for proxy in [
        "ftp://u:pr0xy-s3cret@proxy:8080",
        "u:pr0xy-s3cret@proxy:8080",
        "http://u:pr0xy-s3cret@",
    ] {
        let yaml = kubeconfig(
            "https://127.0.0.1:6443",
            &format!("    insecure-skip-tls-verify: true\n    proxy-url: '{proxy}'\n"),
            "    token: t\n",
        );
        let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
        let problems = cfg.check(&SelectOptions::new());
        let p = problems
            .iter()
            .find(|p| p.kind == ProblemKind::BadProxyUrl)
            .unwrap_or_else(|| panic!("{proxy}: {problems:?}"));
        assert_eq!(p.severity, Severity::Error);
        assert!(!p.message.contains("s3cret"), "{}", p.message);
        let err = cfg
            .select(&SelectOptions::new())
            .expect_err(proxy)
            .to_string();
        assert!(!err.contains("s3cret"), "{err}");
    }
}

#[test]
fn server_urls_with_passwords_holding_url_delimiters_never_show_them() {
    for pass in ["s3/cret", "s3#cret", "s3?cret", "s3/c#r?et@x"] {
        let url = format!("https://admin:{pass}@192.0.2.1:6443");
        let yaml = kubeconfig(
            &url,
            "    insecure-skip-tls-verify: true\n",
            "    token: t\n",
        );
        let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
        let problems = cfg.check(&SelectOptions::new());
        let bad = problems
            .iter()
            .find(|p| p.kind == ProblemKind::BadServerUrl)
            .unwrap_or_else(|| panic!("{pass}: {problems:?}"));
        assert!(!bad.message.contains("s3"), "{}", bad.message);
        let err = cfg
            .select(&SelectOptions::new())
            .expect_err(pass)
            .to_string();
        assert!(!err.contains("s3"), "{err}");
        assert!(!cube_cluster::kubeconfig::redact_server(&url).contains("s3"));
    }
}

#[track_caller]
fn kinds_of(yaml: &str) -> Vec<(Severity, ProblemKind, String)> {
    let cfg = Kubeconfig::from_yaml(yaml, None).expect("load");
    let problems = cfg.check(&SelectOptions::new());
    let sel = cfg.select(&SelectOptions::new());
    let errors = problems.iter().any(|p| p.severity == Severity::Error);
    assert_eq!(sel.is_err(), errors, "{problems:?}");
    problems
        .into_iter()
        .map(|p| (p.severity, p.kind, p.message))
        .collect()
}

#[track_caller]
fn has_error(problems: &[(Severity, ProblemKind, String)], kind: ProblemKind, text: &str) {
    assert!(
        problems
            .iter()
            .any(|(s, k, m)| *s == Severity::Error && *k == kind && m.contains(text)),
        "expected {kind:?} containing {text:?} in {problems:#?}"
    );
}

#[test]
fn ca_material_that_is_not_a_usable_certificate_is_an_offline_error() {
    let pki = Pki::new();
    let key_pem = pki.client_cert("x", &[]).key_pem;
    let cases = [
        (
            b64("hello, not pem"),
            ProblemKind::CertificateInvalid,
            "is not PEM",
        ),
        (
            b64(&key_pem),
            ProblemKind::CertificateInvalid,
            "holds no certificate (found PEM PRIVATE KEY)",
        ),
        (
            b64(
                "-----BEGIN CERTIFICATE-----\nQ0xJRU5UQ0VSVFNFQ1JFVA==\n-----END CERTIFICATE-----\n",
            ),
            ProblemKind::CertificateInvalid,
            "not a valid X.509 certificate",
        ),
        (
            b64(&pki.server_cert(ServerCert::Expired).cert_pem),
            ProblemKind::CertificateExpired,
            "expired at",
        ),
        (
            b64(&pki.server_cert(ServerCert::NotYetValid).cert_pem),
            ProblemKind::CertificateNotYetValid,
            "is not valid before",
        ),
    ];
    for (data, kind, text) in cases {
        let yaml = kubeconfig(
            "https://127.0.0.1:6443",
            &format!("    certificate-authority-data: {data}\n"),
            "    token: t\n",
        );
        has_error(&kinds_of(&yaml), kind, text);
    }
    // The same through a file, and a CA that is fine.
    let dir = tempfile::tempdir().expect("tmp");
    let f = dir.path().join("ca.crt");
    std::fs::write(&f, "not a certificate\n").expect("write");
    let yaml = kubeconfig(
        "https://127.0.0.1:6443",
        &format!("    certificate-authority: {}\n", f.display()),
        "    token: t\n",
    );
    has_error(
        &kinds_of(&yaml),
        ProblemKind::CertificateInvalid,
        "certificate-authority of cluster",
    );
    std::fs::write(&f, pki.ca_pem()).expect("write");
    assert!(kinds_of(&yaml).is_empty());
}

#[test]
fn client_certificates_and_keys_are_checked_offline() {
    let pki = Pki::new();
    let good = pki.client_cert("alice", &["devs"]);
    let other = pki.client_cert("bob", &[]);
    let expired = pki.server_cert(ServerCert::Expired);
    let user = |cert: &str, key: &str| {
        kubeconfig(
            "https://127.0.0.1:6443",
            &format!("    certificate-authority-data: {}\n", b64(&pki.ca_pem())),
            &format!(
                "    client-certificate-data: {}\n    client-key-data: {}\n",
                b64(cert),
                b64(key)
            ),
        )
    };
    assert!(kinds_of(&user(&good.cert_pem, &good.key_pem)).is_empty());
    has_error(
        &kinds_of(&user(&good.cert_pem, &other.key_pem)),
        ProblemKind::KeyMismatch,
        "does not match",
    );
    has_error(
        &kinds_of(&user(&expired.cert_pem, &expired.key_pem)),
        ProblemKind::CertificateExpired,
        "client certificate of user",
    );
    has_error(
        &kinds_of(&user(&good.cert_pem, "not a key")),
        ProblemKind::KeyInvalid,
        "client key of user",
    );
    has_error(
        &kinds_of(&user(&good.cert_pem, &good.cert_pem)),
        ProblemKind::KeyInvalid,
        "holds no private key",
    );
    has_error(
        &kinds_of(&user(&good.key_pem, &good.key_pem)),
        ProblemKind::CertificateInvalid,
        "holds no certificate",
    );
}

#[test]
fn referenced_devices_fifos_and_directories_are_refused_without_reading() {
    let dir = tempfile::tempdir().expect("tmp");
    let fifo = dir.path().join("ca.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut paths = vec![
        std::path::PathBuf::from("/dev/zero"),
        dir.path().to_path_buf(),
    ];
    if made {
        paths.push(fifo);
    }
    for p in paths {
        for field in ["certificate-authority", "tokenFile"] {
            let (cluster_extra, user_extra) = if field == "tokenFile" {
                (
                    "    insecure-skip-tls-verify: true\n".to_string(),
                    format!("    tokenFile: {}\n", p.display()),
                )
            } else {
                (
                    format!("    certificate-authority: {}\n", p.display()),
                    "    token: t\n".to_string(),
                )
            };
            let yaml = kubeconfig("https://127.0.0.1:6443", &cluster_extra, &user_extra);
            let started = std::time::Instant::now();
            let problems = kinds_of(&yaml);
            assert!(
                started.elapsed() < Duration::from_secs(2),
                "{}",
                p.display()
            );
            has_error(&problems, ProblemKind::UnreadableFile, "not a regular file");
        }
    }
}

#[test]
fn referenced_files_are_bounded_by_the_limits_policy() {
    use cube_model::limits::{Limit, Limits};
    let dir = tempfile::tempdir().expect("tmp");
    // 2 KiB files: under the 16 MiB default, over a policy of 1 KiB
    let small = dir.path().join("two-kib");
    std::fs::write(&small, vec![b'x'; 2048]).expect("write");
    // a sparse 17 MiB file: over the default, read no further than the limit
    let big = dir.path().join("seventeen-mib");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(17 << 20))
        .expect("sparse file");
    let mut tight = Limits::default();
    tight.max_referenced_file_bytes = 1024;
    let cases = [
        (&small, Some(&tight), 1024),
        (&big, None, 16 << 20),
        (&big, Some(&Limits::default()), 16 << 20),
    ];
    for (path, limits, max) in cases {
        for field in [
            "certificate-authority",
            "client-certificate",
            "client-key",
            "tokenFile",
        ] {
            let (cluster_extra, user_extra) = match field {
                "certificate-authority" => (
                    format!("    certificate-authority: {}\n", path.display()),
                    "    token: t\n".to_string(),
                ),
                "tokenFile" => (
                    "    insecure-skip-tls-verify: true\n".to_string(),
                    format!("    tokenFile: {}\n", path.display()),
                ),
                _ => (
                    "    insecure-skip-tls-verify: true\n".to_string(),
                    format!(
                        "    client-certificate: {p}\n    client-key: {p}\n",
                        p = path.display()
                    ),
                ),
            };
            let yaml = kubeconfig("https://127.0.0.1:6443", &cluster_extra, &user_extra);
            let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
            let opts = match limits {
                Some(l) => SelectOptions::new().limits(l),
                None => SelectOptions::new(),
            };
            let problems = cfg.check(&opts);
            let hit = problems
                .iter()
                .find(|p| {
                    // client-go's words: "unable to read client-cert ..."
                    let word = field.replace("client-certificate", "client-cert");
                    p.kind == ProblemKind::UnreadableFile
                        && p.message.contains(&format!("read {word} "))
                })
                .unwrap_or_else(|| panic!("{field} {}: {problems:#?}", path.display()));
            assert_eq!(hit.severity, Severity::Error, "{hit:?}");
            let limit = hit.limit.as_ref().expect("the limit is typed");
            assert_eq!(limit.limit, Limit::ReferencedFileBytes, "{hit:?}");
            assert_eq!(limit.max, max, "{hit:?}");
            // how to raise it is said (flag and library field)
            assert!(
                hit.message.contains("--max-referenced-file-bytes")
                    && hit.message.contains("Limits::max_referenced_file_bytes"),
                "{}",
                hit.message
            );
            assert!(cfg.select(&opts).is_err());
        }
    }
    // raised, the same 2 KiB tokenFile is read (its token is used)
    let mut raised = Limits::default();
    raised.max_referenced_file_bytes = 4096;
    let yaml = kubeconfig(
        "https://127.0.0.1:6443",
        "    insecure-skip-tls-verify: true\n",
        &format!("    tokenFile: {}\n", small.display()),
    );
    let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
    let sel = cfg
        .select(&SelectOptions::new().limits(&raised))
        .expect("select");
    assert_eq!(
        sel.credentials.token.as_ref().map(|t| t.expose().len()),
        Some(2048)
    );
}
