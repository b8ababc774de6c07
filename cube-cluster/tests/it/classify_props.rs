//! Properties of the failure classifier: it never panics on arbitrary input, and a known
//! failure text keeps its class when wrapped in klog prefixes or trailing noise.

use cube_cluster::classify::classify_text;
use proptest::prelude::*;

const SEEDS: &[(&str, &str)] = &[
    (
        "dial tcp 127.0.0.1:40169: connect: connection refused",
        "refused",
    ),
    (
        "net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)",
        "timeout",
    ),
    (
        "tls: failed to verify certificate: x509: certificate signed by unknown authority",
        "tls-untrusted",
    ),
    (
        "x509: certificate is valid for localhost, kubernetes, not apiserver.example",
        "tls-name-mismatch",
    ),
    (
        "error: You must be logged in to the server (Unauthorized)",
        "unauthorized",
    ),
    (
        "Error from server (Forbidden): nodes is forbidden: User \"u\" cannot list resource \"nodes\" in API group \"\" at the cluster scope",
        "forbidden",
    ),
    (
        "Unable to connect to the server: tls: first record does not look like a TLS handshake",
        "protocol",
    ),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn never_panics(s in "\\PC{0,300}") {
        let _ = classify_text(&s);
    }

    #[test]
    fn never_panics_on_json_like(s in "\\{[\"a-z:,0-9 {}]{0,120}") {
        let _ = classify_text(&s);
    }

    #[test]
    fn klog_prefix_and_noise_keep_the_class(i in 0..SEEDS.len(), pid in 1u32..99999, noise in "[a-z ]{0,20}") {
        let (text, id) = SEEDS[i];
        let wrapped = format!("E1130 11:59:41.165420    {pid} memcache.go:265] \"Unhandled Error\" err=\"{text}\"\n{text} {noise}");
        prop_assert_eq!(classify_text(&wrapped).id(), id);
    }
}
