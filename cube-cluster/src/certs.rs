//! Certificates and keys of a kubeconfig, checked offline before any connection, and the server's
//! certificate inspected once connected.
//!
//! Offline ([`check_ca_bundle`], [`check_client_pair`]): the material must be PEM, hold at least
//! one certificate (or one private key), every certificate must parse as X.509 (x509-parser),
//! be inside its validity window at the time of the check, and the client key must belong to the
//! client certificate (rustls `CertifiedKey::keys_match`). client-go refuses a CA file without a
//! certificate when it builds the transport (`k8s.io/client-go/util/cert` `NewPoolFromBytes`:
//! "data does not contain any valid RSA or ECDSA certificates") and a key that does not match
//! its certificate (`crypto/tls.X509KeyPair`: "private key does not match public key"); an
//! expired or not-yet-valid certificate fails later, at the handshake (Go `x509: certificate has
//! expired or is not yet valid`) or with 401: both are reported here, before connecting.
//!
//! Online ([`fetch_server_certificate`]): a separate TLS handshake that records the server's
//! certificate chain without trusting it, to tell a self-signed certificate from one signed by
//! another CA, and to check the server's host against the certificate's names even when
//! `insecure-skip-tls-verify` made the real connection succeed.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime, pem::PemObject};
use serde::Serialize;
use x509_parser::prelude::{FromDer, GeneralName, X509Certificate};

use crate::classify::CLOCK_SKEW_WINDOW_SECS;

/// What a certificate says about itself (no key material).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CertificateInfo {
    /// Subject (`CN=kube-apiserver`).
    pub subject: String,
    /// Issuer.
    pub issuer: String,
    /// `notBefore`, RFC 3339.
    pub not_before: String,
    /// `notAfter`, RFC 3339.
    pub not_after: String,
    /// DNS names and IP addresses of the Subject Alternative Name extension.
    pub sans: Vec<String>,
    /// `basicConstraints CA:TRUE`.
    pub is_ca: bool,
    /// Subject equals issuer (a self-issued, usually self-signed, certificate).
    pub self_signed: bool,
    #[serde(skip)]
    not_before_secs: i64,
    #[serde(skip)]
    not_after_secs: i64,
}

impl CertificateInfo {
    /// Parses one DER certificate.
    ///
    /// # Errors
    /// The parser's message.
    pub fn from_der(der: &[u8]) -> Result<Self, String> {
        let (_, cert) = X509Certificate::from_der(der).map_err(|e| e.to_string())?;
        let mut sans = Vec::new();
        if let Ok(Some(ext)) = cert.subject_alternative_name() {
            for n in &ext.value.general_names {
                match n {
                    GeneralName::DNSName(d) => sans.push((*d).to_string()),
                    GeneralName::IPAddress(b) => {
                        if let Ok(a) = <[u8; 4]>::try_from(*b) {
                            sans.push(IpAddr::from(a).to_string());
                        } else if let Ok(a) = <[u8; 16]>::try_from(*b) {
                            sans.push(IpAddr::from(a).to_string());
                        }
                    }
                    _ => {}
                }
            }
        }
        let v = cert.validity();
        let nb = v.not_before.timestamp();
        let na = v.not_after.timestamp();
        let rfc = |s: i64| {
            jiff::Timestamp::from_second(s)
                .map(|t| t.to_string())
                .unwrap_or_else(|_| s.to_string())
        };
        Ok(CertificateInfo {
            subject: cert.subject().to_string(),
            issuer: cert.issuer().to_string(),
            not_before: rfc(nb),
            not_after: rfc(na),
            sans,
            is_ca: cert.is_ca(),
            self_signed: cert.subject().as_raw() == cert.issuer().as_raw(),
            not_before_secs: nb,
            not_after_secs: na,
        })
    }

    /// Whether `host` (a DNS name or an IP address) is one of the certificate's names, with
    /// RFC 6125 wildcards (`*.example.com` matches one leftmost label). Like Go and webpki, the
    /// Common Name is not consulted.
    pub fn matches_host(&self, host: &str) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = host.parse::<IpAddr>() {
            return self
                .sans
                .iter()
                .any(|s| s.parse::<IpAddr>().is_ok_and(|x| x == ip));
        }
        let host = host.trim_end_matches('.').to_ascii_lowercase();
        self.sans.iter().any(|s| {
            let s = s.trim_end_matches('.').to_ascii_lowercase();
            if let Some(suffix) = s.strip_prefix("*.") {
                host.split_once('.')
                    .is_some_and(|(first, rest)| !first.is_empty() && rest == suffix)
            } else {
                s == host
            }
        })
    }

    /// Where `now` (Unix seconds) lies relative to the validity window.
    pub fn validity_at(&self, now: i64) -> ValidityState {
        if now < self.not_before_secs {
            ValidityState::NotYetValid
        } else if now > self.not_after_secs {
            ValidityState::Expired
        } else {
            ValidityState::Valid
        }
    }

    fn skew_hint(&self, now: i64) -> bool {
        let bound = match self.validity_at(now) {
            ValidityState::NotYetValid => self.not_before_secs,
            ValidityState::Expired => self.not_after_secs,
            ValidityState::Valid => return false,
        };
        (now - bound).abs() <= CLOCK_SKEW_WINDOW_SECS
    }
}

/// A certificate's validity at a point in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ValidityState {
    /// Inside the window.
    Valid,
    /// After `notAfter`.
    Expired,
    /// Before `notBefore`.
    NotYetValid,
}

/// One problem of certificate or key material.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum MaterialProblem {
    /// No PEM block at all.
    NotPem,
    /// PEM, but no `CERTIFICATE` block (the labels found are listed: a key given as a CA, ...).
    NoCertificate {
        /// The PEM labels found.
        found: Vec<String>,
    },
    /// A `CERTIFICATE` block that is not a valid X.509 certificate.
    Unparseable {
        /// Position in the bundle, from 1.
        index: usize,
        /// The parser's message.
        reason: String,
    },
    /// A certificate past its `notAfter`.
    Expired {
        /// Its subject.
        subject: String,
        /// `notAfter`.
        not_after: String,
        /// Within [`CLOCK_SKEW_WINDOW_SECS`] of now: check clocks first.
        clock_skew_hint: bool,
    },
    /// A certificate before its `notBefore`.
    NotYetValid {
        /// Its subject.
        subject: String,
        /// `notBefore`.
        not_before: String,
        /// Within [`CLOCK_SKEW_WINDOW_SECS`] of now: the local clock is probably behind.
        clock_skew_hint: bool,
    },
    /// No private key in the key material.
    NoPrivateKey,
    /// The private key cannot be used (unsupported or corrupt).
    KeyUnusable {
        /// Why.
        reason: String,
    },
    /// The private key does not belong to the client certificate.
    KeyMismatch,
}

impl MaterialProblem {
    /// Text for people, naming the material (`certificate-authority-data of cluster "x"`).
    pub fn describe(&self, what: &str) -> String {
        match self {
            MaterialProblem::NotPem => format!("{what} is not PEM (no -----BEGIN block)"),
            MaterialProblem::NoCertificate { found } if found.is_empty() => {
                format!("{what} holds no certificate")
            }
            MaterialProblem::NoCertificate { found } => format!(
                "{what} holds no certificate (found PEM {})",
                found.join(", ")
            ),
            MaterialProblem::Unparseable { index, reason } => {
                format!(
                    "{what}: certificate {index} is not a valid X.509 certificate ({})",
                    der_reason(reason)
                )
            }
            MaterialProblem::Expired {
                subject,
                not_after,
                clock_skew_hint,
            } => format!(
                "{what}: certificate {subject} expired at {not_after}{}",
                if *clock_skew_hint {
                    " (close to now: check the clock before renewing)"
                } else {
                    ""
                }
            ),
            MaterialProblem::NotYetValid {
                subject,
                not_before,
                clock_skew_hint,
            } => format!(
                "{what}: certificate {subject} is not valid before {not_before}{}",
                if *clock_skew_hint {
                    " (close to now: the local clock is probably behind)"
                } else {
                    ""
                }
            ),
            MaterialProblem::NoPrivateKey => format!("{what} holds no private key"),
            MaterialProblem::KeyUnusable { reason } => {
                format!("{what}: the private key cannot be used ({reason})")
            }
            MaterialProblem::KeyMismatch => {
                format!("{what}: the private key does not match the client certificate")
            }
        }
    }
}

/// The X.509 parser's message (x509-parser / nom `Debug` shapes such as
/// `Parsing Error: Der(UnexpectedTag { .. })` or `NomError(Eof)`) in words for people.
fn der_reason(reason: &str) -> &'static str {
    if reason.contains("Eof") || reason.contains("Incomplete") {
        "its DER data ends too early: truncated, or a placeholder instead of a certificate"
    } else if reason.contains("UnexpectedTag") || reason.contains("InvalidTag") {
        "its DER data is not a certificate structure: another object, or a placeholder"
    } else if reason.contains("Time") || reason.contains("Validity") {
        "its validity dates do not parse"
    } else {
        "its DER data does not parse as a certificate"
    }
}

fn pem_labels(pem: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(pem);
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.trim().strip_prefix("-----BEGIN ")
            && let Some(label) = rest.strip_suffix("-----")
            && !out.iter().any(|l| l == label)
        {
            out.push(label.to_string());
        }
    }
    out
}

/// The certificates of a PEM bundle, or why there are none.
///
/// # Errors
/// [`MaterialProblem::NotPem`], [`MaterialProblem::NoCertificate`],
/// [`MaterialProblem::Unparseable`].
pub fn parse_certificates(pem: &[u8]) -> Result<Vec<CertificateInfo>, MaterialProblem> {
    let labels = pem_labels(pem);
    if labels.is_empty() {
        return Err(MaterialProblem::NotPem);
    }
    let ders: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(pem)
        .filter_map(Result::ok)
        .collect();
    if ders.is_empty() {
        return Err(MaterialProblem::NoCertificate {
            found: labels.into_iter().filter(|l| l != "CERTIFICATE").collect(),
        });
    }
    ders.iter()
        .enumerate()
        .map(|(i, d)| {
            CertificateInfo::from_der(d).map_err(|reason| MaterialProblem::Unparseable {
                index: i + 1,
                reason,
            })
        })
        .collect()
}

fn validity_problems(certs: &[CertificateInfo], now: i64) -> Vec<MaterialProblem> {
    certs
        .iter()
        .filter_map(|c| match c.validity_at(now) {
            ValidityState::Valid => None,
            ValidityState::Expired => Some(MaterialProblem::Expired {
                subject: c.subject.clone(),
                not_after: c.not_after.clone(),
                clock_skew_hint: c.skew_hint(now),
            }),
            ValidityState::NotYetValid => Some(MaterialProblem::NotYetValid {
                subject: c.subject.clone(),
                not_before: c.not_before.clone(),
                clock_skew_hint: c.skew_hint(now),
            }),
        })
        .collect()
}

/// Problems of a CA bundle at `now` (Unix seconds): not PEM, no certificate, unparseable,
/// expired, not yet valid. Empty when the bundle is usable.
pub fn check_ca_bundle(pem: &[u8], now: i64) -> Vec<MaterialProblem> {
    match parse_certificates(pem) {
        Ok(certs) => validity_problems(&certs, now),
        Err(p) => vec![p],
    }
}

/// The crypto provider of this build (the process default when one is installed); `None`
/// when the crate is built without `ring` and `aws-lc-rs` (key checks are then skipped).
pub(crate) fn provider() -> Option<Arc<rustls::crypto::CryptoProvider>> {
    if let Some(p) = rustls::crypto::CryptoProvider::get_default() {
        return Some(p.clone());
    }
    #[cfg(feature = "aws-lc-rs")]
    {
        Some(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
    }
    #[cfg(all(feature = "ring", not(feature = "aws-lc-rs")))]
    {
        Some(Arc::new(rustls::crypto::ring::default_provider()))
    }
    #[cfg(not(any(feature = "ring", feature = "aws-lc-rs")))]
    {
        None
    }
}

/// Problems of a client certificate and key pair at `now` (Unix seconds): the certificate as in
/// [`check_ca_bundle`], the key PEM without a private key, a key the crypto provider cannot
/// load, and a key that does not belong to the certificate.
pub fn check_client_pair(cert_pem: &[u8], key_pem: &[u8], now: i64) -> Vec<MaterialProblem> {
    let mut out = Vec::new();
    let certs = match parse_certificates(cert_pem) {
        Ok(c) => {
            out.extend(validity_problems(&c, now));
            Some(c)
        }
        Err(p) => {
            out.push(p);
            None
        }
    };
    let key_problem = if pem_labels(key_pem).is_empty() {
        Some(MaterialProblem::NotPem)
    } else {
        match PrivateKeyDer::from_pem_slice(key_pem) {
            Err(_) => Some(MaterialProblem::NoPrivateKey),
            Ok(key) => match provider().map(|p| p.key_provider.load_private_key(key)) {
                None => None,
                Some(Err(e)) => Some(MaterialProblem::KeyUnusable {
                    reason: crate::kubeconfig::redact_text(&e.to_string()),
                }),
                Some(Ok(signing)) => {
                    let chain: Vec<CertificateDer<'static>> =
                        CertificateDer::pem_slice_iter(cert_pem)
                            .filter_map(Result::ok)
                            .collect();
                    // x509-parser, not rustls' `keys_match` (webpki): a v1 certificate is
                    // checked too (H27; it was never found mismatched)
                    match chain.first().filter(|_| certs.is_some()) {
                        Some(leaf) => (key_matches_certificate(signing.as_ref(), leaf)
                            == Some(false))
                        .then_some(MaterialProblem::KeyMismatch),
                        None => None,
                    }
                }
            },
        }
    };
    // A key problem is about the key file: report it with its own wording.
    if let Some(p) = key_problem {
        out.push(match p {
            MaterialProblem::NotPem => MaterialProblem::NoPrivateKey,
            other => other,
        });
    }
    out
}

/// Whether `signing` is the private key of the certificate `cert_der`, as Go's
/// `tls.X509KeyPair` decides it (golang/go `src/crypto/tls/tls.go`: the certificate's public
/// key compared with the key's): the certificate's SubjectPublicKeyInfo, read with x509-parser
/// whatever its X.509 version (v1 certificates have no extensions and webpki refuses them),
/// against the key's. `None` when it cannot be told: the certificate does not parse, or the
/// key does not give its public key.
pub(crate) fn key_matches_certificate(
    signing: &dyn rustls::sign::SigningKey,
    cert_der: &[u8],
) -> Option<bool> {
    use x509_parser::prelude::FromDer as _;
    let key_spki = signing.public_key()?;
    let (_, cert) = x509_parser::certificate::X509Certificate::from_der(cert_der).ok()?;
    Some(cert.tbs_certificate.subject_pki.raw == key_spki.as_ref())
}

/// The current time in Unix seconds.
pub fn now_secs() -> i64 {
    jiff::Timestamp::now().as_second()
}

// ------------------------------------------------------------------ the server's certificate

/// Accepts any certificate and records the chain (used only to look at it, never to send data).
#[derive(Debug)]
struct Recorder {
    chain: Mutex<Vec<Vec<u8>>>,
    algorithms: rustls::crypto::WebPkiSupportedAlgorithms,
}

impl rustls::client::danger::ServerCertVerifier for Recorder {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        if let Ok(mut c) = self.chain.lock() {
            c.push(end_entity.to_vec());
            c.extend(intermediates.iter().map(|d| d.to_vec()));
        }
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// The certificate chain an `https` server presents (leaf first), read with a separate TLS
/// handshake that trusts nothing and sends nothing after it. `tls_server_name` is the SNI (the
/// server's host when `None`). Bounded by `timeout`.
///
/// # Errors
/// A short reason when the server cannot be reached or does not complete a TLS handshake.
pub async fn fetch_server_certificate(
    server: &str,
    tls_server_name: Option<&str>,
    timeout: Duration,
) -> Result<Vec<CertificateInfo>, String> {
    let uri: http::Uri = server
        .parse()
        .map_err(|e: http::uri::InvalidUri| e.to_string())?;
    if uri.scheme_str() != Some("https") {
        return Err("not an https server".to_string());
    }
    let host = uri
        .host()
        .ok_or_else(|| "no host".to_string())?
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let port = uri.port_u16().unwrap_or(443);
    let sni = tls_server_name.unwrap_or(&host).to_string();
    let provider = provider().ok_or_else(|| "no TLS crypto provider in this build".to_string())?;
    let recorder = Arc::new(Recorder {
        chain: Mutex::new(Vec::new()),
        algorithms: provider.signature_verification_algorithms,
    });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .dangerous()
        .with_custom_certificate_verifier(recorder.clone())
        .with_no_client_auth();
    let name = ServerName::try_from(sni.clone()).map_err(|e| e.to_string())?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let handshake = async {
        let tcp = tokio::net::TcpStream::connect((host.as_str(), port))
            .await
            .map_err(|e| e.to_string())?;
        let _tls = connector
            .connect(name, tcp)
            .await
            .map_err(|e| crate::kubeconfig::redact_text(&e.to_string()))?;
        Ok::<(), String>(())
    };
    match tokio::time::timeout(timeout, handshake).await {
        Ok(r) => r?,
        Err(_) => return Err(format!("no TLS handshake within {timeout:?}")),
    }
    let chain = recorder.chain.lock().map(|c| c.clone()).unwrap_or_default();
    if chain.is_empty() {
        return Err("the server presented no certificate".to_string());
    }
    chain.iter().map(|d| CertificateInfo::from_der(d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_debug_shapes_never_reach_people() {
        for reason in [
            "Parsing Error: Der(UnexpectedTag { expected: Some(Tag(16)), actual: Tag(20) })",
            "Parsing Error: NomError(Eof)",
            "something else entirely",
        ] {
            let text = MaterialProblem::Unparseable {
                index: 1,
                reason: reason.to_string(),
            }
            .describe("certificate-authority-data of cluster \"k\"");
            assert!(text.starts_with("certificate-authority-data of cluster \"k\": certificate 1 is not a valid X.509 certificate ("), "{text}");
            for debug in ["Der(", "Tag(", "NomError", "Eof", "Some("] {
                assert!(!text.contains(debug), "{text}");
            }
        }
    }

    fn info(sans: &[&str]) -> CertificateInfo {
        CertificateInfo {
            subject: String::new(),
            issuer: String::new(),
            not_before: String::new(),
            not_after: String::new(),
            sans: sans.iter().map(|s| s.to_string()).collect(),
            is_ca: false,
            self_signed: false,
            not_before_secs: 0,
            not_after_secs: 100,
        }
    }

    #[test]
    fn host_matching_like_webpki() {
        let c = info(&["kubernetes", "*.example.com", "10.0.0.1", "::1"]);
        assert!(c.matches_host("kubernetes"));
        assert!(c.matches_host("KUBERNETES."));
        assert!(c.matches_host("api.example.com"));
        assert!(!c.matches_host("a.b.example.com"));
        assert!(!c.matches_host("example.com"));
        assert!(c.matches_host("10.0.0.1"));
        assert!(c.matches_host("[::1]"));
        assert!(!c.matches_host("10.0.0.2"));
        assert_eq!(c.validity_at(50), ValidityState::Valid);
        assert_eq!(c.validity_at(101), ValidityState::Expired);
        assert_eq!(c.validity_at(-1), ValidityState::NotYetValid);
    }

    #[test]
    fn not_pem_no_certificate_and_garbage() {
        assert_eq!(check_ca_bundle(b"hello", 0), [MaterialProblem::NotPem]);
        let key_only = b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
        assert_eq!(
            check_ca_bundle(key_only, 0),
            [MaterialProblem::NoCertificate {
                found: vec!["PRIVATE KEY".into()]
            }]
        );
        let garbage =
            b"-----BEGIN CERTIFICATE-----\nQ0xJRU5UQ0VSVFNFQ1JFVA==\n-----END CERTIFICATE-----\n";
        assert!(matches!(
            check_ca_bundle(garbage, 0).as_slice(),
            [MaterialProblem::Unparseable { index: 1, .. }]
        ));
    }
}
