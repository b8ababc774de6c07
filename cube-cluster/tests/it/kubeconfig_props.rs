//! Properties of the kubeconfig model: loading never panics; a loaded config serializes and
//! reloads to the same selection; merging a config with itself is the config; secrets never
//! reach Debug output or error texts.

use cube_cluster::kubeconfig::{Kubeconfig, SelectOptions, redact_text};
use proptest::prelude::*;

fn config(server: &str, token: &str, ns: &str, insecure: bool) -> String {
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster:\n    server: \"{server}\"\n    insecure-skip-tls-verify: {insecure}\nusers:\n- name: u\n  user:\n    token: \"{token}\"\ncontexts:\n- name: c\n  context:\n    cluster: k\n    user: u\n    namespace: \"{ns}\"\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn loading_arbitrary_text_never_panics(s in "\\PC{0,200}") {
        let _ = Kubeconfig::from_yaml(&s, None).map(|c| c.check(&SelectOptions::new().skip_file_checks()));
    }

    #[test]
    fn round_trip_keeps_the_selection(
        host in "[a-z]{1,10}(\\.[a-z]{2,5})?",
        port in 1u16..65535,
        token in "[A-Za-z0-9]{8,40}",
        ns in "[a-z]{0,8}",
        insecure in any::<bool>(),
    ) {
        let token = format!("tok-{token}");
        let yaml = config(&format!("https://{host}:{port}"), &token, &ns, insecure);
        let a = Kubeconfig::from_yaml(&yaml, None).expect("load");
        let b = Kubeconfig::from_yaml(&a.to_yaml().expect("yaml"), None).expect("reload");
        prop_assert_eq!(&a, &b);
        let sa = a.select(&SelectOptions::new()).expect("select");
        let sb = b.select(&SelectOptions::new()).expect("select");
        prop_assert_eq!(&sa.server, &sb.server);
        prop_assert_eq!(&sa.namespace, &sb.namespace);
        prop_assert_eq!(sa.namespace.is_empty(), false);
        prop_assert_eq!(Kubeconfig::merge(vec![a.clone(), a.clone()]), a.clone());
        let dbg = format!("{a:?} {sa:?}");
        prop_assert!(!dbg.contains(&token), "token leaked into Debug");
    }

    #[test]
    fn bad_yaml_errors_do_not_echo_secrets(secret in "[A-Za-z0-9]{6,30}") {
        let yaml = format!("users:\n- name: u\n  user:\n    token: [\"{secret}\"\n");
        if let Err(e) = Kubeconfig::from_yaml(&yaml, None) {
            prop_assert!(!e.to_string().contains(&secret), "{}", e);
        }
    }

    #[test]
    fn redaction_is_idempotent(s in "\\PC{0,200}") {
        let once = redact_text(&s);
        prop_assert_eq!(redact_text(&once), once);
    }
}
