//! `kubeadm join` parsing, pin checks with CA certificates minted by rcgen, token expiry, and the
//! kubeadm log fixtures.

use crate::support;

use base64::Engine as _;
use cube_cluster::join::{
    CaPin, JoinCommand, JoinError, PinVerdict, TokenStatus, bootstrap_token_from_secret,
    ca_pins_from_pem, find_join_commands, token_ids_in_text, token_status,
};
use cube_model::objects::Time;
use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair, PublicKeyData};
use sha2::{Digest, Sha256};
use support::live::live_client;

const LOGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/fixtures/logs/");
const SECRET: &str = "0123456789abcdef";

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{LOGS}{name}")).expect("read fixture")
}

fn mint_ca(cn: &str) -> (String, KeyPair) {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, cn);
    let key = KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    (cert.pem(), key)
}

/// The pin computed independently: SHA-256 of the key's SubjectPublicKeyInfo as rcgen encodes it.
fn expected_pin(key: &KeyPair) -> String {
    let d = Sha256::digest(key.subject_public_key_info());
    format!(
        "sha256:{}",
        d.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

fn ts(s: &str) -> Time {
    s.parse().unwrap()
}

#[test]
fn pin_of_a_minted_ca_is_sha256_of_its_spki() {
    let (pem, key) = mint_ca("kubernetes");
    let pins = ca_pins_from_pem(pem.as_bytes()).unwrap();
    assert_eq!(pins.len(), 1);
    assert_eq!(pins[0].to_string(), expected_pin(&key));
    // A bundle yields one pin per certificate; trailing text is fine.
    let (pem2, key2) = mint_ca("other");
    let bundle = format!("{pem}\n{pem2}\n\n");
    let pins = ca_pins_from_pem(bundle.as_bytes()).unwrap();
    assert_eq!(
        pins.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [expected_pin(&key), expected_pin(&key2)]
    );
    assert!(matches!(
        ca_pins_from_pem(b"not a pem"),
        Err(JoinError::BadCertificate { .. })
    ));
}

#[test]
fn every_pin_is_checked_not_only_the_first() {
    let (pem, key) = mint_ca("kubernetes");
    let ca = ca_pins_from_pem(pem.as_bytes()).unwrap();
    let wrong = format!("sha256:{}", "c".repeat(64));
    let right = expected_pin(&key);
    let cmd: JoinCommand = format!(
        "kubeadm join 192.0.2.10:6443 --token abcdef.{SECRET} \
         --discovery-token-ca-cert-hash {wrong} --discovery-token-ca-cert-hash {right}"
    )
    .parse()
    .unwrap();
    let check = cmd.check_pins(&ca);
    assert_eq!(check.verdict, PinVerdict::Match { index: 1 });
    assert_eq!(check.per_pin.len(), 2);
    assert!(!check.per_pin[0].1 && check.per_pin[1].1);

    // Comma-separated pins in one flag count too.
    let cmd: JoinCommand = format!(
        "kubeadm join 192.0.2.10:6443 --token abcdef.{SECRET} --discovery-token-ca-cert-hash={wrong},{right}"
    )
    .parse()
    .unwrap();
    assert_eq!(cmd.check_pins(&ca).verdict, PinVerdict::Match { index: 1 });

    let only_wrong: JoinCommand = format!(
        "kubeadm join 192.0.2.10:6443 --token abcdef.{SECRET} --discovery-token-ca-cert-hash {wrong}"
    )
    .parse()
    .unwrap();
    assert_eq!(only_wrong.check_pins(&ca).verdict, PinVerdict::Mismatch);

    let unpinned: JoinCommand = format!(
        "kubeadm join 192.0.2.10:6443 --token abcdef.{SECRET} --discovery-token-unsafe-skip-ca-verification"
    )
    .parse()
    .unwrap();
    assert_eq!(
        unpinned.check_pins(&ca).verdict,
        PinVerdict::NotPinned { unsafe_skip: true }
    );
}

#[test]
fn control_plane_command_with_continuations_and_redaction() {
    let text = format!(
        "sudo kubeadm join cp.example.internal:6443 --token abcdef.{SECRET} \\\n    \
         --discovery-token-ca-cert-hash sha256:{} \\\n    \
         --control-plane --certificate-key 0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0 \\\n    \
         --cri-socket unix:///run/containerd/containerd.sock --node-name gpu-07 --v=5",
        "AB".repeat(32)
    );
    let cmds = find_join_commands(&text);
    assert_eq!(cmds.len(), 1);
    let cmd = cmds[0].as_ref().unwrap();
    assert_eq!(cmd.endpoint, "cp.example.internal:6443");
    assert_eq!(cmd.token.as_ref().unwrap().id(), "abcdef");
    assert_eq!(
        cmd.token.as_ref().unwrap().expose_secret(),
        format!("abcdef.{SECRET}")
    );
    assert_eq!(cmd.ca_cert_hashes[0].hex(), "ab".repeat(32));
    assert!(cmd.control_plane);
    assert!(!cmd.unsafe_skip_ca_verification);
    assert!(cmd.certificate_key.is_some());
    assert_eq!(
        cmd.cri_socket.as_deref(),
        Some("unix:///run/containerd/containerd.sock")
    );
    assert_eq!(cmd.node_name.as_deref(), Some("gpu-07"));
    assert_eq!(cmd.other_flags, ["--v=5"]);
    for shown in [format!("{cmd:?}"), cmd.to_string()] {
        assert!(!shown.contains(SECRET), "{shown}");
        assert!(!shown.contains("0f1e2d3c"), "{shown}");
        assert!(shown.contains("abcdef.****************"), "{shown}");
    }
    // Same command parsed directly (not through find) agrees.
    assert_eq!(&JoinCommand::parse(&text).unwrap(), cmd);
}

#[test]
fn malformed_commands_are_errors_without_secrets() {
    let bad_token =
        JoinCommand::parse("kubeadm join 10.0.0.1:6443 --token abcdef.0123456789ABCDEF")
            .unwrap_err();
    assert!(matches!(bad_token, JoinError::InvalidToken { .. }));
    assert!(!bad_token.to_string().contains("0123456789"));
    assert!(bad_token.to_string().contains("abcdef.****************"));
    assert!(matches!(
        JoinCommand::parse("kubeadm join 10.0.0.1:6443 --discovery-token-ca-cert-hash sha256:abc"),
        Err(JoinError::InvalidPin { .. })
    ));
    assert!(matches!(
        JoinCommand::parse("kubeadm join 10.0.0.1:6443 --token"),
        Err(JoinError::MissingValue { .. })
    ));
    assert!(matches!(
        JoinCommand::parse(&format!("kubeadm join --token abcdef.{SECRET}")),
        Err(JoinError::MissingEndpoint)
    ));
    assert!(matches!(
        JoinCommand::parse("kubeadm init"),
        Err(JoinError::NoJoinCommand)
    ));
    for bad in [
        "10.0.0.1",
        "10.0.0.1:0",
        "10.0.0.1:99999",
        "fd00::1:6443",
        ":6443",
        "[fd00::1]",
    ] {
        assert!(
            matches!(
                JoinCommand::parse(&format!("kubeadm join {bad} --token abcdef.{SECRET}")),
                Err(JoinError::InvalidEndpoint { .. })
            ),
            "{bad}"
        );
    }
    let v6 = JoinCommand::parse(&format!(
        "kubeadm join [fd00::1]:6443 --token abcdef.{SECRET}"
    ))
    .unwrap();
    assert_eq!(v6.endpoint, "[fd00::1]:6443");
}

#[test]
fn fixture_apiserver_unreachable_names_endpoint_token_and_pin() {
    let text = fixture("kubeadm-join-apiserver-unreachable.log");
    let cmds = find_join_commands(&text);
    assert_eq!(cmds.len(), 1, "only case B shows its command");
    let cmd = cmds[0].as_ref().unwrap();
    assert_eq!(cmd.endpoint, "10.0.0.26:6443");
    assert_eq!(cmd.token.as_ref().unwrap().id(), "abcdef");
    assert_eq!(
        cmd.ca_cert_hashes,
        [format!("sha256:{}", "c".repeat(64))
            .parse::<CaPin>()
            .unwrap()]
    );
}

#[test]
fn fixture_kubelet_unhealthy_command_in_a_comment() {
    let text = fixture("kubeadm-join-kubelet-unhealthy-cgroup-driver.log");
    let cmds = find_join_commands(&text);
    assert_eq!(cmds.len(), 1);
    let cmd = cmds[0].as_ref().unwrap();
    assert_eq!(cmd.endpoint, "10.0.0.91:6443");
    assert_eq!(cmd.ca_cert_hashes[0].hex(), "e".repeat(64));
}

#[test]
fn fixture_x509_san_mismatch_token_before_endpoint() {
    let text = fixture("kubeadm-join-x509-san-mismatch.log");
    let cmds = find_join_commands(&text);
    assert_eq!(cmds.len(), 1);
    let cmd = cmds[0].as_ref().unwrap();
    assert_eq!(cmd.endpoint, "10.0.0.10:6443");
    assert_eq!(cmd.token.as_ref().unwrap().id(), "abcdef");
    assert_eq!(cmd.ca_cert_hashes[0].hex(), "d".repeat(64));
}

#[test]
fn fixture_jws_missing_old_is_an_expired_token_of_an_old_cluster() {
    let text = fixture("kubeadm-join-token-jws-missing-old.log");
    // The only command in the text has its token replaced by "<redacted>": not a token.
    let cmds = find_join_commands(&text);
    assert_eq!(cmds.len(), 1);
    assert!(matches!(cmds[0], Err(JoinError::InvalidToken { .. })));
    assert_eq!(token_ids_in_text(&text), ["abcdef"]);
    // Cluster ~20 days old, token from its init, no Secret left: expired (default 24 h TTL).
    let now = ts("2018-01-23T12:00:00Z");
    let status = token_status("abcdef", &[], Some(ts("2018-01-03T12:00:00Z")), now);
    // The same judgement from a join command with that token id.
    let cmd = JoinCommand::parse(&format!(
        "kubeadm join 10.0.0.1:6443 --token abcdef.{SECRET}"
    ))
    .unwrap();
    assert_eq!(
        cmd.token_status(&[], Some(ts("2018-01-03T12:00:00Z")), now),
        Some(status.clone())
    );
    assert_eq!(
        status,
        TokenStatus::Expired {
            expired_at: ts("2018-01-04T12:00:00Z"),
            estimated: true
        }
    );
}

#[test]
fn fixture_jws_missing_new_is_not_called_expired_on_a_young_cluster() {
    let text = fixture("kubeadm-join-token-jws-missing-new.log");
    assert!(find_join_commands(&text).is_empty());
    assert_eq!(token_ids_in_text(&text), ["abcdef"]);
    // kind cluster created minutes ago: the token cannot have expired; say unknown, not expired.
    let status = token_status(
        "abcdef",
        &[],
        Some(ts("2022-06-08T15:35:00Z")),
        ts("2022-06-08T15:41:00Z"),
    );
    match status {
        TokenStatus::Unknown { reason } => {
            assert!(
                reason.contains("kube-system/bootstrap-token-abcdef"),
                "{reason}"
            )
        }
        other => panic!("{other:?}"),
    }
}

fn secret_json(id: &str, expiration: Option<&str>, usages: &[&str]) -> serde_json::Value {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let mut data = serde_json::json!({
        "token-id": b64(id),
        "token-secret": b64(SECRET),
        "description": b64("made by kubeadm token create"),
    });
    if let Some(e) = expiration {
        data["expiration"] = b64(e).into();
    }
    for u in usages {
        data[format!("usage-bootstrap-{u}")] = b64("true").into();
    }
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "type": "bootstrap.kubernetes.io/token",
        "metadata": {"name": format!("bootstrap-token-{id}"), "namespace": "kube-system"},
        "data": data,
    })
}

#[test]
fn token_expiry_from_the_bootstrap_token_secret() {
    let now = ts("2026-11-30T12:00:00Z");
    let t = bootstrap_token_from_secret(&secret_json(
        "abcdef",
        Some("2026-12-01T10:00:00Z"),
        &["authentication", "signing"],
    ))
    .unwrap();
    assert!(!format!("{t:?}").contains(SECRET));
    assert_eq!(t.secret_name, "bootstrap-token-abcdef");
    assert_eq!(
        token_status("abcdef", std::slice::from_ref(&t), None, now),
        TokenStatus::Valid {
            expires_at: Some(ts("2026-12-01T10:00:00Z")),
            remaining_secs: Some(22 * 3600)
        }
    );
    let old = bootstrap_token_from_secret(&secret_json(
        "abcdef",
        Some("2026-11-29T10:00:00Z"),
        &["authentication", "signing"],
    ))
    .unwrap();
    assert_eq!(
        token_status("abcdef", &[old], None, now),
        TokenStatus::Expired {
            expired_at: ts("2026-11-29T10:00:00Z"),
            estimated: false
        }
    );
    let unsigned =
        bootstrap_token_from_secret(&secret_json("abcdef", None, &["authentication"])).unwrap();
    assert_eq!(
        token_status("abcdef", &[unsigned], None, now),
        TokenStatus::MissingUsage {
            missing: vec!["signing".into()]
        }
    );
    let forever =
        bootstrap_token_from_secret(&secret_json("abcdef", None, &["authentication", "signing"]))
            .unwrap();
    assert_eq!(
        token_status("abcdef", &[forever], None, now),
        TokenStatus::Valid {
            expires_at: None,
            remaining_secs: None
        }
    );
    // Not a bootstrap token Secret.
    assert!(
        bootstrap_token_from_secret(&serde_json::json!({
            "kind": "Secret", "type": "Opaque", "metadata": {"name": "x"}
        }))
        .is_none()
    );
}

#[tokio::test]
#[ignore = "needs cluster"]
async fn live_bootstrap_token_lookup() {
    let Some(client) = live_client() else {
        eprintln!("CUBE_E2E_KUBECONFIG not set: skipping");
        return;
    };
    // A token id that does not exist reads as None (or Forbidden without secret access).
    match cube_cluster::join::fetch_bootstrap_token(&client, "zzzzzz").await {
        Ok(t) => assert!(t.is_none()),
        Err(kube::Error::Api(s)) => assert!(s.is_forbidden(), "{s:?}"),
        Err(e) => panic!("{e}"),
    }
}
