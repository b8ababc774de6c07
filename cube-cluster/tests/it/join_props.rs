//! Property tests: no input makes the join parser, the RBAC text loader or the reason parser
//! panic, and a token secret never shows in an error.

use cube_cluster::join::{JoinCommand, find_join_commands};
use cube_cluster::rbac::{AllowReason, RbacPolicy};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn join_parser_never_panics(text in "\\PC{0,200}") {
        let _ = JoinCommand::parse(&text);
        let _ = find_join_commands(&text);
    }

    #[test]
    fn join_like_inputs_never_panic(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("kubeadm".to_string()), Just("join".to_string()), Just("--token".to_string()),
                Just("--discovery-token-ca-cert-hash".to_string()), Just("\\\n".to_string()),
                Just("'".to_string()), Just("\"".to_string()), Just("#".to_string()),
                Just("--control-plane=false".to_string()), "[a-z0-9.:=/-]{0,30}",
            ],
            0..12,
        )
    ) {
        let text = parts.join(" ");
        let _ = JoinCommand::parse(&text);
        let _ = find_join_commands(&text);
    }

    #[test]
    fn token_secret_never_in_errors(id in "[a-z0-9]{6}", secret in "[a-z0-9]{16}", junk in "[A-Z]{1,3}") {
        // A malformed token (bad secret) is reported with the secret masked.
        let text = format!("kubeadm join 10.0.0.1:6443 --token {id}.{secret}{junk}");
        let err = JoinCommand::parse(&text).unwrap_err();
        prop_assert!(!err.to_string().contains(&secret));
        let shown = format!("{:?}", err);
        prop_assert!(!shown.contains(&secret));
        // A good one is masked in Debug and Display.
        let cmd = JoinCommand::parse(&format!("kubeadm join 10.0.0.1:6443 --token {id}.{secret}")).unwrap();
        let shown = format!("{:?}", cmd);
        prop_assert!(!shown.contains(&secret));
        prop_assert!(!cmd.to_string().contains(&secret));
    }

    #[test]
    fn rbac_text_and_reasons_never_panic(text in "\\PC{0,200}") {
        let _ = RbacPolicy::from_yaml_str(&text);
        let _ = AllowReason::parse(&text);
        let _ = AllowReason::parse(&format!("RBAC: allowed by RoleBinding {text}"));
    }
}
