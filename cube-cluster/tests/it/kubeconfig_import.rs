//! Importing a file given by a user: refusing files that are empty or not a kubeconfig,
//! validating server addresses, telling file-level problems from per-context ones, and never
//! leaking a secret in problems, errors or their JSON.

use cube_cluster::Error;
use cube_cluster::kubeconfig::{Kubeconfig, ProblemKind, SelectOptions, validate_server};

const TOKEN: &str = "abcdef.0123456789abcdef";
/// base64 of an EC key PEM whose body is `TUlJQ0tFWVNFQ1JFVA==`.
const KEY_DATA: &str = "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tClRVbEpRMHRGV1ZORlExSkZWQT09Ci0tLS0tRU5EIEVDIFBSSVZBVEUgS0VZLS0tLS0K";
const SECRETS: [&str; 3] = [TOKEN, KEY_DATA, "TUlJQ0tFWVNFQ1JFVA"];

#[track_caller]
fn check_strict(text: &str, expected: &str) {
    match Kubeconfig::from_yaml_strict(text, None) {
        Ok(_) => assert_eq!("loads", expected, "{text:?}"),
        Err(e @ Error::EmptyFile { .. }) => {
            assert_eq!(e.to_string(), "<memory> is empty");
            assert_eq!("empty", expected, "{text:?}");
        }
        Err(e @ Error::NotAKubeconfig { .. }) => {
            assert!(
                e.to_string().starts_with("<memory> is not a kubeconfig: "),
                "{e}"
            );
            assert_eq!("not-a-kubeconfig", expected, "{text:?}: {e}");
        }
        Err(e @ Error::Parse { .. }) => assert_eq!("parse", expected, "{text:?}: {e}"),
        Err(e) => panic!("{text:?}: unexpected {e}"),
    }
}

#[test]
fn strict_loading_refuses_empty_files_and_other_documents() {
    check_strict("", "empty");
    check_strict("  \n\n", "empty");
    check_strict("# only a comment\n", "empty");
    check_strict("---\n", "empty");
    check_strict("~\n", "empty");
    check_strict(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n",
        "not-a-kubeconfig",
    );
    check_strict(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n",
        "not-a-kubeconfig",
    );
    check_strict("kind: 7\nclusters: []\n", "not-a-kubeconfig");
    check_strict("metadata:\n  name: x\n", "not-a-kubeconfig");
    check_strict("- a\n- b\n", "not-a-kubeconfig");
    check_strict("just a sentence\n", "not-a-kubeconfig");
    check_strict("clusters: [\n", "parse");
    // Kubeconfigs, even nearly empty ones, still load (and are then reported as empty-config).
    check_strict(
        "apiVersion: v1\nkind: Config\nclusters:\nusers:\ncontexts:\n",
        "loads",
    );
    check_strict("clusters: []\n", "loads");
    check_strict("current-context: x\n", "loads");
    check_strict("users:\n- name: u\n  user:\n", "loads");
    // The lenient loader keeps client-go's behaviour (an empty file is an empty config).
    assert!(Kubeconfig::from_yaml("", None).is_ok());
    assert!(Kubeconfig::from_yaml("kind: List\nitems: []\n", None).is_ok());
}

#[test]
fn read_strict_names_the_file() {
    let dir = tempfile::tempdir().expect("dir");
    let empty = dir.path().join("empty.yaml");
    std::fs::write(&empty, "").expect("write");
    let e = Kubeconfig::read_strict(&empty).expect_err("empty");
    assert_eq!(e.to_string(), format!("{} is empty", empty.display()));
    let nodes = dir.path().join("nodes.yaml");
    std::fs::write(&nodes, "apiVersion: v1\nkind: List\nitems: []\n").expect("write");
    let e = Kubeconfig::read_strict(&nodes).expect_err("list");
    assert_eq!(
        e.to_string(),
        format!(
            "{} is not a kubeconfig: kind is \"List\", expected \"Config\"",
            nodes.display()
        )
    );
}

#[track_caller]
fn check_server(input: &str, expected: Option<&str>) {
    match (validate_server(input), expected) {
        (Ok(got), Some(want)) => assert_eq!(got, want, "{input:?}"),
        (Err(e), None) => {
            assert!(matches!(e, Error::InvalidServer { .. }), "{input:?}: {e:?}");
            assert!(e.to_string().starts_with("invalid server URL "), "{e}");
        }
        (got, want) => panic!("{input:?}: got {got:?}, want {want:?}"),
    }
}

#[test]
fn server_addresses_are_validated() {
    check_server("https://127.0.0.1:6443", Some("https://127.0.0.1:6443"));
    check_server("http://10.0.0.1:8080/", Some("http://10.0.0.1:8080"));
    check_server(
        "https://rancher.example.com/k8s/clusters/c-1",
        Some("https://rancher.example.com/k8s/clusters/c-1"),
    );
    check_server("10.0.0.1:6443", Some("https://10.0.0.1:6443"));
    check_server("api.example.com", Some("https://api.example.com"));
    check_server("kubernetes:443", Some("https://kubernetes:443"));
    check_server("https://master:6443", Some("https://master:6443"));
    check_server("https://kubernetes", Some("https://kubernetes"));
    check_server("localhost", Some("https://localhost"));
    check_server("[::1]:6443", Some("https://[::1]:6443"));
    check_server("not-a-url", None);
    check_server("", None);
    check_server("https://", None);
    check_server("ftp://192.0.2.1", None);
    check_server("https://a b", None);
    check_server("https://-bad-.example.com", None);
    check_server("https://a..b", None);
    check_server("https://h:99999", None);
    check_server("https://127.0.0.1:x", None);
}

fn yaml(server: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster:\n    server: '{server}'\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: {TOKEN}\n    client-key-data: {KEY_DATA}\ncontexts:\n- name: a\n  context: {{cluster: k, user: u}}\n"
    )
}

#[test]
fn invalid_server_in_file_is_a_problem_and_override_is_refused() {
    let cfg = Kubeconfig::from_yaml(&yaml("not-a-url"), None).expect("load");
    let problems = cfg.check(&SelectOptions::new());
    assert!(
        problems.iter().any(|p| p.kind == ProblemKind::BadServerUrl),
        "{problems:?}"
    );
    assert!(cfg.select(&SelectOptions::new()).is_err());
    let mut cfg = Kubeconfig::from_yaml(&yaml("https://192.0.2.1:6443"), None).expect("load");
    assert!(matches!(
        cfg.rewrite_server("k", "not-a-url"),
        Err(Error::InvalidServer { .. })
    ));
    let problems = cfg.check(&SelectOptions::new().server("not-a-url"));
    assert!(
        problems.iter().any(|p| p.kind == ProblemKind::BadServerUrl),
        "{problems:?}"
    );
}

#[test]
fn file_level_problems_are_marked() {
    let cfg = Kubeconfig::from_yaml(
        "clusters:\n- name: k\n  cluster: {server: 'https://192.0.2.1'}\n",
        None,
    )
    .expect("load");
    let problems = cfg.check(&SelectOptions::new());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].kind, ProblemKind::NoCurrentContext);
    assert!(problems[0].is_file_level());
    let cfg = Kubeconfig::from_yaml(&yaml("not-a-url"), None).expect("load");
    assert!(
        cfg.check(&SelectOptions::new())
            .iter()
            .all(|p| !p.is_file_level())
    );
}

#[track_caller]
fn assert_no_secret(text: &str) {
    for s in SECRETS {
        assert!(!text.contains(s), "secret {s:?} in {text}");
    }
}

#[test]
fn no_secret_in_problems_errors_or_json() {
    for server in ["https://192.0.2.1:6443", "not-a-url", "http://192.0.2.1"] {
        let cfg = Kubeconfig::from_yaml_strict(&yaml(server), None).expect("load");
        for (ctx, problems) in cfg.check_all(&SelectOptions::new()) {
            assert_no_secret(&ctx);
            assert_no_secret(&serde_json::to_string(&problems).expect("json"));
            assert_no_secret(&format!("{problems:?}"));
        }
        match cfg.select(&SelectOptions::new()) {
            Ok(s) => assert_no_secret(&format!("{s:?}")),
            Err(e) => {
                assert_no_secret(&e.to_string());
                assert_no_secret(&format!("{e:?}"));
            }
        }
        assert_no_secret(&format!("{cfg:?}"));
    }
    // Parse errors next to the secrets.
    for extra in [
        format!("    password: {{x: {TOKEN}}}\n"),
        format!("    as-groups: [{TOKEN}\n"),
        format!("    exec: {KEY_DATA}\n"),
        format!("      as: {TOKEN}\n   x: {KEY_DATA}\n"),
        format!("    insecure: {TOKEN}: {KEY_DATA}\n"),
    ] {
        let text = yaml("https://192.0.2.1").replace("contexts:\n", &format!("{extra}contexts:\n"));
        match Kubeconfig::from_yaml_strict(&text, None) {
            Ok(cfg) => assert_no_secret(&format!("{cfg:?}")),
            Err(e) => {
                assert_no_secret(&e.to_string());
                assert_no_secret(&format!("{e:?}"));
            }
        }
    }
}
