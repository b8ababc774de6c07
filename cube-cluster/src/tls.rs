//! Server certificate verification as client-go does it when the server's own certificate is
//! in the configured CA bundle.
//!
//! A kubeconfig whose `certificate-authority(-data)` holds the very certificate the server
//! presents (a self-signed serving certificate, copied into the kubeconfig as its CA: a k3s or
//! single-node cluster, a lab API server, a TLS-terminating proxy) works with kubectl: Go's
//! `crypto/x509` `Certificate.Verify` returns the chain `[leaf]` at once when the leaf itself
//! is in `Roots` (`x509/verify.go`: `if opts.Roots.contains(c)`), after checking the leaf's
//! validity period and, with a DNS name or IP, `VerifyHostname` (subject alternative names;
//! the common name is not used since Go 1.15). webpki (rustls) refuses such a leaf when it
//! carries the CA basic constraint (`CaUsedAsEndEntity`, the default of `openssl req -x509`)
//! or is an X.509 v1 certificate (fresh-user F9).
//!
//! [`BundleVerifier`] asks webpki first; only when webpki refuses and the leaf is
//! byte-for-byte one of the bundle's certificates does it accept the leaf, with the same checks
//! as Go: validity period and name. A leaf not in the bundle is refused exactly as webpki
//! refuses it (so the classifier sees the same typed errors), and the handshake signatures are
//! verified by webpki's algorithms as before.

use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use x509_parser::prelude::{FromDer, GeneralName, X509Certificate};

/// webpki, then client-go's "the leaf is in the roots" rule (see the module docs).
#[derive(Debug)]
pub struct BundleVerifier {
    inner: Arc<WebPkiServerVerifier>,
    bundle: Vec<CertificateDer<'static>>,
}

impl BundleVerifier {
    /// A verifier trusting the DER certificates of a CA bundle.
    ///
    /// # Errors
    /// A certificate webpki cannot take as a trust anchor, or a bundle without any.
    pub fn new(ca_ders: &[Vec<u8>]) -> Result<Self, String> {
        let mut roots = rustls::RootCertStore::empty();
        for der in ca_ders {
            roots
                .add(CertificateDer::from(der.clone()))
                .map_err(|e| e.to_string())?;
        }
        let inner = WebPkiServerVerifier::builder(Arc::new(roots))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(BundleVerifier {
            inner,
            bundle: ca_ders
                .iter()
                .map(|d| CertificateDer::from(d.clone()))
                .collect(),
        })
    }
}

/// Go's checks of a leaf found in the roots: validity period, then the name.
fn leaf_in_bundle_ok(
    der: &CertificateDer<'_>,
    server_name: &ServerName<'_>,
    now: UnixTime,
) -> Result<(), rustls::Error> {
    let Ok((_, cert)) = X509Certificate::from_der(der.as_ref()) else {
        return Err(rustls::Error::InvalidCertificate(
            CertificateError::BadEncoding,
        ));
    };
    let now = i64::try_from(now.as_secs()).unwrap_or(i64::MAX);
    let validity = cert.validity();
    if now < validity.not_before.timestamp() {
        return Err(rustls::Error::InvalidCertificate(
            CertificateError::NotValidYet,
        ));
    }
    if now > validity.not_after.timestamp() {
        return Err(rustls::Error::InvalidCertificate(CertificateError::Expired));
    }
    let names: Vec<GeneralName<'_>> = cert
        .subject_alternative_name()
        .ok()
        .flatten()
        .map(|ext| ext.value.general_names.clone())
        .unwrap_or_default();
    let matches = match server_name {
        ServerName::DnsName(dns) => {
            let host = dns.as_ref().trim_end_matches('.').to_ascii_lowercase();
            names.iter().any(|n| match n {
                GeneralName::DNSName(pattern) => dns_name_matches(pattern, &host),
                _ => false,
            })
        }
        ServerName::IpAddress(ip) => {
            let want: Vec<u8> = match std::net::IpAddr::from(*ip) {
                std::net::IpAddr::V4(v4) => v4.octets().to_vec(),
                std::net::IpAddr::V6(v6) => v6.octets().to_vec(),
            };
            names.iter().any(|n| match n {
                GeneralName::IPAddress(bytes) => *bytes == want.as_slice(),
                _ => false,
            })
        }
        _ => false,
    };
    if matches {
        Ok(())
    } else {
        Err(rustls::Error::InvalidCertificate(
            CertificateError::NotValidForName,
        ))
    }
}

/// Go's `matchHostnames`: case-insensitive, a `*` only as the whole leftmost label, matching
/// exactly one label.
fn dns_name_matches(pattern: &str, host: &str) -> bool {
    let pattern = pattern.trim_end_matches('.').to_ascii_lowercase();
    if pattern.is_empty() || host.is_empty() {
        return false;
    }
    let p: Vec<&str> = pattern.split('.').collect();
    let h: Vec<&str> = host.split('.').collect();
    p.len() == h.len()
        && p.iter()
            .zip(&h)
            .enumerate()
            .all(|(i, (p, h))| (i == 0 && *p == "*") || p == h)
}

impl ServerCertVerifier for BundleVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Ok(v) => Ok(v),
            Err(e) => {
                if self
                    .bundle
                    .iter()
                    .any(|c| c.as_ref() == end_entity.as_ref())
                {
                    leaf_in_bundle_ok(end_entity, server_name, now)?;
                    Ok(ServerCertVerified::assertion())
                } else {
                    Err(e)
                }
            }
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_one_leftmost_label_like_go() {
        assert!(dns_name_matches("*.example.com", "api.example.com"));
        assert!(!dns_name_matches("*.example.com", "a.b.example.com"));
        assert!(!dns_name_matches("*.example.com", "example.com"));
        assert!(dns_name_matches("API.Example.com.", "api.example.com"));
        assert!(!dns_name_matches("a*.example.com", "ab.example.com"));
        assert!(!dns_name_matches("", "x"));
    }
}
