//! Build a `kube::Client` (kube 5, rustls) from a validated [`Selection`].
//!
//! The selection is the only input: the kubeconfig is never handed to kube's own loader, so
//! exec plugins run only when [`crate::kubeconfig::PluginPolicy::Allow`] put them into the
//! selection, credentials are absent for plain-http servers (client-go drops them), and
//! `tls-server-name` drives SNI and certificate verification.

use std::time::Duration;

use base64::Engine as _;
use rustls::pki_types::{CertificateDer, pem::PemObject};

use crate::error::{Error, Result};
use crate::kubeconfig::Selection;

/// Timeouts and retry behaviour of the built client. An exec credential plugin (allowed by
/// [`crate::kubeconfig::PluginPolicy::Allow`]) must finish within `read_timeout` and write at
/// most the selection's `max_referenced_file_bytes` ([`crate::exec`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientOptions {
    /// TCP connect timeout (kube `connect_timeout`). Default 5 s.
    pub connect_timeout: Duration,
    /// Response read timeout (kube `read_timeout`, also bounds a server that accepts and never
    /// answers). Default 10 s.
    pub read_timeout: Duration,
    /// Let kube retry 429/503/504. Default `false` so a check reports what the server said.
    pub retry: bool,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(5),
            read_timeout: Duration::from_secs(10),
            retry: false,
        }
    }
}

impl ClientOptions {
    /// Both timeouts set to `t`.
    pub fn with_timeout(t: Duration) -> Self {
        Self {
            connect_timeout: t,
            read_timeout: t,
            retry: false,
        }
    }
}

/// PEM bundle -> DER certificates.
///
/// # Errors
/// [`Error::InvalidMaterial`] when the bundle holds no certificate.
pub fn pem_certificates(pem: &[u8], subject: &str) -> Result<Vec<Vec<u8>>> {
    let ders: Vec<Vec<u8>> = CertificateDer::pem_slice_iter(pem)
        .filter_map(|c| c.ok())
        .map(|c| c.to_vec())
        .collect();
    if ders.is_empty() {
        return Err(Error::InvalidMaterial {
            what: "certificate-authority".to_string(),
            subject: subject.to_string(),
            reason: "no PEM certificate found".to_string(),
        });
    }
    Ok(ders)
}

/// The `kube::Config` for a selection.
///
/// An exec credential plugin of the selection is run here, once, bounded
/// ([`crate::exec::run_exec_plugin`]: blocks for at most `options.read_timeout`), and its
/// token or client certificate is set as a static credential; kube never runs the plugin.
///
/// # Errors
/// [`Error::InvalidServer`] for an unparseable server or proxy URL; [`Error::InvalidMaterial`]
/// for a CA bundle without certificates; [`Error::ExecPlugin`] when the plugin gives no
/// credential.
pub fn kube_config(selection: &Selection, options: &ClientOptions) -> Result<kube::Config> {
    let (mut cfg, identity) = config_and_identity(selection, options)?;
    if let Some(id) = identity {
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s.as_bytes());
        cfg.auth_info.client_certificate_data = Some(b64(&id.cert_pem));
        cfg.auth_info.client_key_data = Some(b64(&id.key_pem).into());
    }
    Ok(cfg)
}

/// A client certificate and its key (PEM), from the kubeconfig or an exec plugin.
struct Identity {
    cert_pem: String,
    key_pem: String,
}

/// [`kube_config`] without the client certificate, which is returned beside it:
/// [`build_client`] presents it itself ([`ClientIdentity`]).
fn config_and_identity(
    selection: &Selection,
    options: &ClientOptions,
) -> Result<(kube::Config, Option<Identity>)> {
    let uri: http::Uri = selection
        .server
        .parse()
        .map_err(|e: http::uri::InvalidUri| Error::InvalidServer {
            url: selection.server.clone(),
            reason: e.to_string(),
        })?;
    let mut cfg = kube::Config::new(uri);
    cfg.default_namespace = selection.namespace.clone();
    cfg.connect_timeout = Some(options.connect_timeout);
    cfg.read_timeout = Some(options.read_timeout);
    cfg.write_timeout = Some(options.read_timeout);
    cfg.reset_reader_on_write = true;
    cfg.default_retry = options.retry;
    cfg.accept_invalid_certs = selection.insecure_skip_tls_verify;
    cfg.tls_server_name = selection.tls_server_name.clone();
    if let Some(ca) = &selection.ca_pem {
        cfg.root_cert = Some(pem_certificates(
            ca,
            &format!("cluster {:?}", selection.cluster_name),
        )?);
    }
    if let Some(p) = &selection.proxy_url {
        cfg.proxy_url =
            Some(
                p.parse()
                    .map_err(|e: http::uri::InvalidUri| Error::InvalidServer {
                        url: p.clone(),
                        reason: e.to_string(),
                    })?,
            );
    }
    let c = &selection.credentials;
    let mut identity = None;
    // client-go: a readable tokenFile wins over the static token at request time (re-read
    // periodically); the token is only the fallback. kube prefers an inline token, so set just
    // one of them.
    //
    // client-go trims the file's whitespace (k8s.io/client-go/transport/token_source.go,
    // `fileTokenSource.Token`: `strings.TrimSpace(string(tokb))`); kube sends the file as it
    // is, so a token file ending in a newline (`echo $TOKEN > token`) would make every request
    // fail. Such a file is read here and its trimmed token sent; a file without surrounding
    // whitespace is left to kube, which re-reads it every minute like client-go (rotation).
    let file_token = c
        .token_file
        .as_ref()
        .filter(|tf| tf.is_file())
        .and_then(|tf| {
            crate::kubeconfig::read_referenced_file(
                &tf.to_string_lossy(),
                selection.max_referenced_file_bytes,
            )
            .ok()
            .map(|b| (tf, String::from_utf8_lossy(&b).into_owned()))
        });
    match (file_token, &c.token) {
        (Some((tf, raw)), _) if !raw.trim().is_empty() => {
            if raw.trim() == raw {
                cfg.auth_info.token_file = Some(tf.to_string_lossy().into_owned());
            } else {
                cfg.auth_info.token = Some(raw.trim().to_string().into());
            }
        }
        (_, Some(t)) => cfg.auth_info.token = Some(t.expose().to_string().into()),
        _ => {}
    }
    if let (Some(cert), Some(key)) = (&c.client_certificate_pem, &c.client_key_pem) {
        identity = Some(Identity {
            cert_pem: cert.expose().to_owned(),
            key_pem: key.expose().to_owned(),
        });
    }
    if let Some((user, pass)) = &c.basic {
        cfg.auth_info.username = Some(user.clone());
        cfg.auth_info.password = Some(pass.expose().to_string().into());
    }
    if let Some(imp) = &c.impersonate {
        cfg.auth_info.impersonate = Some(imp.clone());
        if !c.impersonate_groups.is_empty() {
            cfg.auth_info.impersonate_groups = Some(c.impersonate_groups.clone());
        }
    }
    if let Some(exec) = &c.exec {
        // Present only when the caller allowed plugins (see PluginPolicy). Run here, once,
        // within the read timeout and the referenced-file bound (kube-client would run it with
        // `Command::output()`: no deadline, no bound; fresh-user F19, F20), and its credential
        // handed to kube as a plain token or client certificate: kube never runs it.
        let cluster = crate::exec::ExecClusterInfo {
            server: selection.server.clone(),
            tls_server_name: selection.tls_server_name.clone(),
            insecure_skip_tls_verify: selection.insecure_skip_tls_verify,
            ca_pem: selection.ca_pem.clone(),
            proxy_url: selection.proxy_url.clone(),
        };
        let limits = crate::exec::ExecLimits {
            timeout: options.read_timeout,
            max_output_bytes: selection.max_referenced_file_bytes,
        };
        let cred =
            crate::exec::run_exec_plugin(exec, Some(&cluster), &limits).map_err(|source| {
                Error::ExecPlugin {
                    user: selection.user_name.clone(),
                    source: Box::new(source),
                }
            })?;
        if let Some(t) = &cred.token {
            cfg.auth_info.token = Some(t.expose().clone().into());
            cfg.auth_info.token_file = None;
        }
        if let (Some(cert), Some(key)) = (&cred.client_certificate_pem, &cred.client_key_pem) {
            identity = Some(Identity {
                cert_pem: cert.expose().to_owned(),
                key_pem: key.expose().to_owned(),
            });
        }
    }
    Ok((cfg, identity))
}

/// Builds a `kube::Client` for a selection.
///
/// # Errors
/// As [`kube_config`], plus [`Error::Client`] when kube rejects the TLS material, and
/// [`Error::InvalidMaterial`] when a client key is not its certificate's.
///
/// An https server with a CA bundle is verified as client-go verifies it: webpki, and a server
/// certificate that is itself one of the bundle's certificates is accepted after Go's checks
/// of validity period and name ([`crate::tls`]; webpki alone refuses a self-signed serving
/// certificate with the CA flag, which kubectl accepts when the kubeconfig's CA is that very
/// certificate). A client certificate of any X.509 version is presented as client-go presents
/// it (a `ResolvesClientCert` of its own). Both go through cube-cluster's own stack, directly or through an
/// `http`, `https` or `socks5` proxy; with retries, or with neither a bundle nor a client
/// certificate, kube's own client is used.
pub fn build_client(selection: &Selection, options: &ClientOptions) -> Result<kube::Client> {
    let (mut cfg, identity) = config_and_identity(selection, options)?;
    let bundle = cfg.root_cert.is_some() && !cfg.accept_invalid_certs;
    let own_stack = selection.is_https()
        && bundle_proxy(cfg.proxy_url.as_ref()).is_some()
        && !cfg.default_retry
        && (bundle || identity.is_some());
    if own_stack {
        let identity = identity
            .map(|id| client_identity(&id, &selection.user_name))
            .transpose()?;
        return bundle_client(cfg, identity, &selection.cluster_name);
    }
    if let Some(id) = identity {
        // kube's own stack (retries, an https proxy, plain http): kube presents the
        // certificate, as rustls' `with_client_auth_cert` allows (X.509 v3 only)
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s.as_bytes());
        cfg.auth_info.client_certificate_data = Some(b64(&id.cert_pem));
        cfg.auth_info.client_key_data = Some(b64(&id.key_pem).into());
    }
    kube::Client::try_from(cfg).map_err(Error::Client)
}

/// The client certificate presented in every TLS handshake that asks for one, whatever the
/// server's signature schemes and CA hints (as rustls' `SingleCertAndKey`, and Go's
/// crypto/tls with one `tls.Certificate`).
///
/// H27: rustls' `with_client_auth_cert` (what kube uses) checks that the key belongs to the
/// certificate through webpki, which refuses any certificate that is not X.509 v3
/// (`UnsupportedCertVersion`), so a v1 client certificate (no extensions: `openssl x509 -req`
/// without `-extfile`, common in old clusters' hand-made users) could not be used at all, while
/// client-go sends it (Go's `tls.X509KeyPair` parses v1 certificates with crypto/x509 and
/// checks only that the public keys match, golang/go `src/crypto/tls/tls.go`). The pair is
/// built here with [`rustls::sign::CertifiedKey::new`] and checked the same way as Go:
/// the certificate's SubjectPublicKeyInfo (read with x509-parser, any version) against the
/// key's ([`crate::certs::key_matches_certificate`]).
#[derive(Debug)]
struct ClientIdentity(std::sync::Arc<rustls::sign::CertifiedKey>);

impl rustls::client::ResolvesClientCert for ClientIdentity {
    fn resolve(
        &self,
        _root_hint_subjects: &[&[u8]],
        _sigschemes: &[rustls::SignatureScheme],
    ) -> Option<std::sync::Arc<rustls::sign::CertifiedKey>> {
        Some(self.0.clone())
    }

    fn has_certs(&self) -> bool {
        true
    }
}

/// The [`ClientIdentity`] of a PEM certificate (chain) and key.
///
/// # Errors
/// [`Error::InvalidMaterial`] when the certificate PEM holds no certificate, the key PEM no
/// private key, the crypto provider cannot load the key, or the key is not the certificate's.
fn client_identity(id: &Identity, user: &str) -> Result<ClientIdentity> {
    use rustls::pki_types::PrivateKeyDer;
    let invalid = |what: &str, reason: &str| Error::InvalidMaterial {
        what: what.to_string(),
        subject: format!("user {user:?}"),
        reason: reason.to_string(),
    };
    let chain: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(id.cert_pem.as_bytes())
            .filter_map(std::result::Result::ok)
            .collect();
    let Some(leaf) = chain.first() else {
        return Err(invalid("client-certificate", "no PEM certificate found"));
    };
    let key = PrivateKeyDer::from_pem_slice(id.key_pem.as_bytes())
        .map_err(|_| invalid("client-key", "no PEM private key found"))?;
    let provider = crate::certs::provider()
        .ok_or_else(|| invalid("client-key", "this build has no crypto provider"))?;
    let signing = provider.key_provider.load_private_key(key).map_err(|e| {
        invalid(
            "client-key",
            &crate::kubeconfig::redact_text(&e.to_string()),
        )
    })?;
    if crate::certs::key_matches_certificate(signing.as_ref(), leaf) == Some(false) {
        return Err(invalid(
            "client-key",
            "the private key does not match the client certificate's public key",
        ));
    }
    Ok(ClientIdentity(std::sync::Arc::new(
        rustls::sign::CertifiedKey::new(chain, signing),
    )))
}

/// [`build_client`] from async code: a selection whose exec plugin runs (allowed by
/// [`crate::kubeconfig::PluginPolicy::Allow`]) is built on Tokio's blocking pool
/// (`spawn_blocking`), so the plugin, bounded by `options.read_timeout`, never holds a runtime
/// worker (other clusters' probes and timers keep running); without a plugin it is built in
/// place. Call it inside a Tokio runtime.
///
/// # Errors
/// As [`build_client`]; a build task that ended abnormally is an [`Error::InvalidMaterial`]
/// naming it.
pub async fn build_client_async(
    selection: &Selection,
    options: &ClientOptions,
) -> Result<kube::Client> {
    if selection.credentials.exec.is_none() {
        return build_client(selection, options);
    }
    let (sel, opts) = (selection.clone(), *options);
    match tokio::task::spawn_blocking(move || build_client(&sel, &opts)).await {
        Ok(r) => r,
        Err(e) => Err(Error::InvalidMaterial {
            what: "exec plugin".to_string(),
            subject: format!("user {:?}", selection.user_name),
            reason: format!("the client build task ended abnormally: {e}"),
        }),
    }
}

/// How [`bundle_client`] reaches the server: directly, or through an `http` (CONNECT),
/// `https` (CONNECT over TLS) or `socks5` `proxy-url` as kube's own client does (kube-client
/// `ClientBuilder::try_from`) and client-go (the schemes `parseProxyURL` accepts,
/// kubernetes/client-go `tools/clientcmd/client_config.go`); `None` for any other scheme
/// (refused at validation, see [`crate::kubeconfig::ProblemKind::BadProxyUrl`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BundleProxy {
    Direct,
    Connect,
    ConnectTls,
    Socks5,
}

fn bundle_proxy(proxy: Option<&http::Uri>) -> Option<BundleProxy> {
    match proxy.map(|u| u.scheme_str()) {
        None => Some(BundleProxy::Direct),
        Some(Some("http")) => Some(BundleProxy::Connect),
        Some(Some("https")) => Some(BundleProxy::ConnectTls),
        Some(Some("socks5")) => Some(BundleProxy::Socks5),
        Some(_) => None,
    }
}

/// `%XX` escapes of a URL's user information decoded (client-go and kube send the decoded
/// user and password to the proxy).
fn percent_decoded(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `user:password` of a proxy URL, decoded.
fn proxy_user_info(proxy: &http::Uri) -> Option<(String, String)> {
    let (info, _) = proxy.authority()?.as_str().rsplit_once('@')?;
    let (user, pass) = info.split_once(':').unwrap_or((info, ""));
    Some((percent_decoded(user), percent_decoded(pass)))
}

/// kube's client stack (connector with its timeouts, base URI, authentication, extra headers)
/// with [`crate::tls::BundleVerifier`] as the server certificate verifier, directly or through
/// the kubeconfig's `http` or `socks5` proxy (fresh-user G4: through a proxy, kube's own
/// verifier refused the self-signed serving certificate the kubeconfig trusts).
///
/// With a client certificate ([`ClientIdentity`]) the same stack is used whatever verifies the
/// server (the CA bundle, the system roots, or none with `insecure-skip-tls-verify`), so that
/// the certificate is presented as client-go presents it.
fn bundle_client(
    cfg: kube::Config,
    identity: Option<ClientIdentity>,
    cluster: &str,
) -> Result<kube::Client> {
    use kube::client::ConfigExt as _;
    let invalid = |reason: String| Error::InvalidMaterial {
        what: "certificate-authority".to_string(),
        subject: format!("cluster {cluster:?}"),
        reason,
    };
    // kube's TLS configuration without a client certificate: its roots, or its verifier that
    // accepts anything when verification is off
    let mut tls = cfg.rustls_client_config().map_err(Error::Client)?;
    if let Some(roots) = cfg.root_cert.as_ref().filter(|_| !cfg.accept_invalid_certs) {
        let verifier = crate::tls::BundleVerifier::new(roots).map_err(invalid)?;
        tls.dangerous()
            .set_certificate_verifier(std::sync::Arc::new(verifier));
    }
    if let Some(identity) = identity {
        tls.client_auth_cert_resolver = std::sync::Arc::new(identity);
    }
    let mut http = hyper_util::client::legacy::connect::HttpConnector::new();
    http.enforce_http(false);
    // An `https` proxy is reached over TLS with the cluster's TLS configuration (its roots or
    // verifier, its client certificate), named by the proxy's host, as Go's net/http does
    // (`Transport.dialConn` -> `persistConn.addTLS(proxyURL.Hostname())` with a clone of
    // `TLSClientConfig`, golang/go `src/net/http/transport.go`) and kube-client does.
    #[cfg(feature = "proxy")]
    let to_proxy_tls = tls.clone();
    let mut https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http();
    if let Some(name) = &cfg.tls_server_name {
        let server_name = rustls::pki_types::ServerName::try_from(name.clone()).map_err(|e| {
            Error::InvalidServer {
                url: name.clone(),
                reason: format!("tls-server-name: {e}"),
            }
        })?;
        https = https
            .with_server_name_resolver(hyper_rustls::FixedServerNameResolver::new(server_name));
    }
    // the rest of the stack is the same for every way to the server
    macro_rules! finish {
        ($inner:expr) => {{
            let mut connector =
                hyper_timeout::TimeoutConnector::new(https.enable_http1().wrap_connector($inner));
            connector.set_connect_timeout(cfg.connect_timeout);
            connector.set_read_timeout(cfg.read_timeout);
            connector.set_write_timeout(cfg.write_timeout);
            connector.set_reset_reader_on_write(cfg.reset_reader_on_write);
            let client: hyper_util::client::legacy::Client<_, kube::client::Body> =
                hyper_util::client::legacy::Builder::new(hyper_util::rt::TokioExecutor::new())
                    .build(connector);
            let service = tower::ServiceBuilder::new()
                .layer(cfg.base_uri_layer())
                .option_layer(cfg.auth_layer().map_err(Error::Client)?)
                .layer(cfg.extra_headers_layer().map_err(Error::Client)?)
                .map_err(|e: hyper_util::client::legacy::Error| {
                    Box::new(e) as Box<dyn std::error::Error + Send + Sync>
                })
                .service(client);
            Ok(kube::Client::new(service, cfg.default_namespace.clone()))
        }};
    }
    // `Proxy-Authorization: Basic` of the proxy URL's user information
    #[cfg(feature = "proxy")]
    let basic_auth = |uri: &http::Uri| {
        proxy_user_info(uri).and_then(|(user, pass)| {
            let basic = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{pass}"));
            http::HeaderValue::from_str(&format!("Basic {basic}")).ok()
        })
    };
    let proxy = cfg.proxy_url.clone();
    match (bundle_proxy(proxy.as_ref()), proxy) {
        #[cfg(feature = "proxy")]
        (Some(BundleProxy::Connect), Some(uri)) => {
            let mut tunnel =
                hyper_util::client::legacy::connect::proxy::Tunnel::new(uri.clone(), http);
            if let Some(h) = basic_auth(&uri) {
                tunnel = tunnel.with_auth(h);
            }
            finish!(tunnel)
        }
        #[cfg(feature = "proxy")]
        (Some(BundleProxy::ConnectTls), Some(uri)) => {
            let to_proxy = hyper_rustls::HttpsConnectorBuilder::new()
                .with_tls_config(to_proxy_tls)
                .https_only()
                .enable_http1()
                .wrap_connector(http);
            let mut tunnel =
                hyper_util::client::legacy::connect::proxy::Tunnel::new(uri.clone(), to_proxy);
            if let Some(h) = basic_auth(&uri) {
                tunnel = tunnel.with_auth(h);
            }
            finish!(tunnel)
        }
        #[cfg(feature = "proxy")]
        (Some(BundleProxy::Socks5), Some(uri)) => {
            let mut socks =
                hyper_util::client::legacy::connect::proxy::SocksV5::new(uri.clone(), http);
            if let Some((user, pass)) = proxy_user_info(&uri) {
                socks = socks.with_auth(user, pass);
            }
            finish!(socks)
        }
        _ => finish!(http),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubeconfig::{Kubeconfig, SelectOptions};

    #[test]
    fn http_server_gets_no_credentials_and_timeouts_are_set() {
        let yaml = "current-context: c\nclusters:\n- name: k\n  cluster: {server: 'http://127.0.0.1:1'}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: c\n  context: {cluster: k, user: u}\n";
        let sel = Kubeconfig::from_yaml(yaml, None)
            .expect("load")
            .select(&SelectOptions::new())
            .expect("select");
        let cfg = kube_config(&sel, &ClientOptions::with_timeout(Duration::from_secs(3)))
            .expect("config");
        assert!(cfg.auth_info.token.is_none());
        assert_eq!(cfg.connect_timeout, Some(Duration::from_secs(3)));
        assert_eq!(cfg.read_timeout, Some(Duration::from_secs(3)));
    }

    #[test]
    fn readable_token_file_wins_over_token_like_client_go() {
        let dir = tempfile::tempdir().expect("tmp");
        let tf = dir.path().join("token");
        std::fs::write(&tf, "from-file").expect("write");
        let yaml = format!(
            "current-context: c\nclusters:\n- name: k\n  cluster: {{server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}}\nusers:\n- name: u\n  user: {{token: static, tokenFile: {}}}\ncontexts:\n- name: c\n  context: {{cluster: k, user: u}}\n",
            tf.display()
        );
        let cfg = Kubeconfig::from_yaml(&yaml, None).expect("load");
        let sel = cfg.select(&SelectOptions::new()).expect("select");
        let kc = kube_config(&sel, &ClientOptions::default()).expect("config");
        assert!(kc.auth_info.token.is_none());
        assert_eq!(
            kc.auth_info.token_file.as_deref(),
            Some(tf.to_str().unwrap_or_default())
        );
        std::fs::remove_file(&tf).expect("rm");
        let kc = kube_config(&sel, &ClientOptions::default()).expect("config");
        assert!(kc.auth_info.token.is_some(), "static token is the fallback");
    }

    #[test]
    fn ca_without_certificates_is_invalid_material() {
        let err = pem_certificates(b"not a pem", "cluster \"k\"").expect_err("no certs");
        assert!(matches!(err, Error::InvalidMaterial { .. }));
    }
}
