//! Certificates minted at test time with rcgen: a cluster CA, server certificates for the
//! double (valid, expired, not yet valid, wrong SAN, signed by another CA) and client certificates.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// Which serving certificate the double presents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerCert {
    /// Signed by [`Pki::ca_pem`], SANs `127.0.0.1`, `::1`, `localhost`, `kubernetes`,
    /// `kubernetes.default`, valid from a day ago for a year.
    Valid,
    /// Same names and dates, but signed by a different CA (client sees "unknown authority").
    WrongCa,
    /// Signed by the right CA, `notAfter` 35 days in the past (the captured apiserver case).
    Expired,
    /// Signed by the right CA, `notAfter` about 2 hours in the past (clock-skew range).
    ExpiredRecently,
    /// Signed by the right CA, `notBefore` 30 days in the future.
    NotYetValid,
    /// Signed by the right CA, `notBefore` about 3 hours in the future (clock-skew range).
    NotYetValidSoon,
    /// Signed by the right CA, valid dates, but only for `apiserver.other.example`
    /// (no IP SAN), so a client dialing 127.0.0.1 sees a name mismatch.
    WrongSan,
    /// Self-signed leaf (its own issuer, not a CA), the right names and dates: what a
    /// hand-made server certificate looks like.
    SelfSigned,
    /// Self-signed with `CA:TRUE`, the right names and dates (`openssl req -x509` default):
    /// webpki refuses it as a server certificate (`CaUsedAsEndEntity`).
    SelfSignedCa,
}

/// The names a [`ServerCert::Valid`] certificate is issued for.
pub const SERVER_SANS: &[&str] = &[
    "127.0.0.1",
    "::1",
    "localhost",
    "kubernetes",
    "kubernetes.default",
];

/// A certificate and its private key, both PEM.
#[derive(Clone)]
pub struct CertPair {
    /// PEM `CERTIFICATE` block.
    pub cert_pem: String,
    /// PEM `PRIVATE KEY` block (PKCS#8).
    pub key_pem: String,
}

/// A test PKI: the cluster CA plus an unrelated CA for the wrong-CA case.
pub struct Pki {
    ca: CertifiedIssuer<'static, KeyPair>,
    other_ca: CertifiedIssuer<'static, KeyPair>,
}

const DAY: i64 = 86_400;

/// Sets `not_before`/`not_after` to now + the given offsets in seconds.
fn set_validity(params: &mut CertificateParams, from_secs: i64, to_secs: i64) {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let epoch = rcgen::date_time_ymd(1970, 1, 1);
    params.not_before = epoch + Duration::from_secs((now + from_secs).max(0) as u64);
    params.not_after = epoch + Duration::from_secs((now + to_secs).max(0) as u64);
}

fn make_ca(cn: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("ca params");
    params.distinguished_name.push(DnType::CommonName, cn);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    set_validity(&mut params, -DAY, 3650 * DAY);
    let key = KeyPair::generate().expect("ca key");
    CertifiedIssuer::self_signed(params, key).expect("self-signed ca")
}

impl Pki {
    /// Mints a fresh CA (`CN=kubernetes`, like kubeadm's) and an unrelated CA (`CN=other-ca`).
    pub fn new() -> Self {
        Self {
            ca: make_ca("kubernetes"),
            other_ca: make_ca("other-ca"),
        }
    }

    /// The cluster CA certificate, PEM (what a kubeconfig's `certificate-authority-data` decodes to).
    pub fn ca_pem(&self) -> String {
        self.ca.pem()
    }

    /// The unrelated CA, PEM (use it as a kubeconfig CA to get "unknown authority").
    pub fn other_ca_pem(&self) -> String {
        self.other_ca.pem()
    }

    /// A serving certificate of the given variant.
    pub fn server_cert(&self, variant: ServerCert) -> CertPair {
        let sans: Vec<String> = match variant {
            ServerCert::WrongSan => vec!["apiserver.other.example".to_string()],
            _ => SERVER_SANS.iter().map(|s| s.to_string()).collect(),
        };
        let mut params = CertificateParams::new(sans).expect("server params");
        params
            .distinguished_name
            .push(DnType::CommonName, "kube-apiserver");
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        params.key_usages = vec![
            KeyUsagePurpose::DigitalSignature,
            KeyUsagePurpose::KeyEncipherment,
        ];
        match variant {
            ServerCert::Valid
            | ServerCert::WrongCa
            | ServerCert::WrongSan
            | ServerCert::SelfSigned
            | ServerCert::SelfSignedCa => set_validity(&mut params, -DAY, 365 * DAY),
            ServerCert::Expired => set_validity(&mut params, -400 * DAY, -35 * DAY),
            ServerCert::ExpiredRecently => set_validity(&mut params, -365 * DAY, -2 * 3600),
            ServerCert::NotYetValid => set_validity(&mut params, 30 * DAY, 400 * DAY),
            ServerCert::NotYetValidSoon => set_validity(&mut params, 3 * 3600, 365 * DAY),
        }
        let key = KeyPair::generate().expect("server key");
        if matches!(variant, ServerCert::SelfSigned | ServerCert::SelfSignedCa) {
            if variant == ServerCert::SelfSignedCa {
                params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
                params.key_usages.push(KeyUsagePurpose::KeyCertSign);
            }
            let cert = params.self_signed(&key).expect("self-signed server cert");
            return CertPair {
                cert_pem: cert.pem(),
                key_pem: key.serialize_pem(),
            };
        }
        let issuer = if variant == ServerCert::WrongCa {
            &self.other_ca
        } else {
            &self.ca
        };
        let cert = params.signed_by(&key, issuer).expect("sign server cert");
        CertPair {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }

    /// A client certificate signed by the cluster CA for user `cn` in groups `orgs`
    /// (Kubernetes reads the user from CN and groups from O).
    pub fn client_cert(&self, cn: &str, orgs: &[&str]) -> CertPair {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("client params");
        params.distinguished_name.push(DnType::CommonName, cn);
        for o in orgs {
            params.distinguished_name.push(DnType::OrganizationName, *o);
        }
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        set_validity(&mut params, -DAY, 365 * DAY);
        let key = KeyPair::generate().expect("client key");
        let cert = params.signed_by(&key, &self.ca).expect("sign client cert");
        CertPair {
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

impl Default for Pki {
    fn default() -> Self {
        Self::new()
    }
}
