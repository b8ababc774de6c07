//! Every kubeconfig fixture in `testdata/fixtures/kubeconfigs/` reaches the conclusion of its
//! `.meta.json` (`expected_diagnosis`), plus client-go loading/merging/validation rules.

use std::path::{Path, PathBuf};

use cube_cluster::Error;
use cube_cluster::kubeconfig::{
    Kubeconfig, PluginPolicy, Problem, ProblemKind, SelectOptions, Severity,
};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/fixtures/kubeconfigs"
);

fn fixture(name: &str) -> PathBuf {
    Path::new(DIR).join(name)
}

fn kinds(problems: &[Problem]) -> Vec<(Severity, ProblemKind)> {
    problems.iter().map(|p| (p.severity, p.kind)).collect()
}

#[track_caller]
fn has(problems: &[Problem], severity: Severity, kind: ProblemKind) -> &Problem {
    problems
        .iter()
        .find(|p| p.severity == severity && p.kind == kind)
        .unwrap_or_else(|| panic!("expected {severity:?} {kind:?} in {:?}", kinds(problems)))
}

fn meta(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(fixture(&format!("{name}.meta.json"))).expect("meta");
    serde_json::from_str(&text).expect("meta json")
}

#[test]
fn every_fixture_has_meta_loads_and_is_covered() {
    let known = [
        "context-points-at-misspelled-cluster.yaml",
        "insecure-skip-tls-with-ca-data.yaml",
        "kubelet-insecure-with-ca-as-client-cert.yaml",
        "rancher-proxied-token.yaml",
        "relative-cert-paths.yaml",
    ];
    let mut seen = 0;
    for entry in std::fs::read_dir(DIR).expect("dir") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if name.ends_with(".meta.json") {
            continue;
        }
        seen += 1;
        let m = meta(&name);
        assert!(
            m["expected_diagnosis"]
                .as_str()
                .is_some_and(|s| !s.is_empty()),
            "{name}: meta without expected_diagnosis"
        );
        // Every fixture loads (or fails with a typed error) and every context gets a verdict
        // without panicking; none of them is a clean, warning-free import.
        match Kubeconfig::read(&path) {
            Ok(cfg) => {
                let all = cfg.check_all(&SelectOptions::new());
                assert!(!all.is_empty(), "{name}: no context checked");
                assert!(
                    all.iter().any(|(_, p)| !p.is_empty()),
                    "{name}: every fixture documents a problem, none reported"
                );
            }
            Err(e) => {
                let text = e.to_string();
                assert!(
                    !text.contains("FAKEFAKEFAKE"),
                    "{name}: secret in error {text}"
                );
            }
        }
        if !known.contains(&name.as_str()) {
            eprintln!("note: fixture {name} has only the generic checks");
        }
    }
    assert!(seen >= known.len());
}

#[test]
fn misspelled_cluster_is_a_dangling_reference_with_suggestion_and_never_localhost() {
    let name = "context-points-at-misspelled-cluster.yaml";
    assert!(
        meta(name)["expected_diagnosis"]
            .as_str()
            .unwrap_or("")
            .contains("Dangling cluster reference")
    );
    let cfg = Kubeconfig::read(&fixture(name)).expect("load");
    let problems = cfg.check(&SelectOptions::new());
    let p = has(&problems, Severity::Error, ProblemKind::DanglingCluster);
    assert_eq!(
        p.suggestion.as_deref(),
        Some("did you mean \"kuberenetes\"?")
    );
    assert!(p.message.contains("localhost:8080"));
    // select refuses: no client can ever be built that silently talks to localhost.
    match cfg.select(&SelectOptions::new()) {
        Err(Error::InvalidConfiguration { problems }) => {
            assert!(
                problems
                    .iter()
                    .any(|p| p.kind == ProblemKind::DanglingCluster)
            )
        }
        other => panic!("expected invalid configuration, got {other:?}"),
    }
    // The user reference is fine.
    assert!(!problems.iter().any(|p| p.kind == ProblemKind::DanglingUser));
}

#[test]
fn insecure_with_ca_data_is_rejected_and_insecure_alone_is_a_warning() {
    let name = "insecure-skip-tls-with-ca-data.yaml";
    let cfg = Kubeconfig::read(&fixture(name)).expect("load");
    // harvester (current context): client-go's exact refusal.
    let err = cfg
        .select(&SelectOptions::new())
        .expect_err("harvester must be rejected");
    assert_eq!(
        err.to_string(),
        "invalid configuration: specifying a root certificates file with the insecure flag is not allowed"
    );
    let all = cfg.check_all(&SelectOptions::new());
    let harvester = &all
        .iter()
        .find(|(c, _)| c == "harvester")
        .expect("harvester")
        .1;
    has(harvester, Severity::Error, ProblemKind::InsecureWithCa);
    // The fixture's client certificate and key are anonymised placeholders (PEM blocks of
    // "FAKE", testdata/fixtures/README.md): the material check reports them, and the rest of
    // the conclusion is asserted with material checks off.
    let material = cfg.check(&SelectOptions::new().context("k3s-default"));
    has(&material, Severity::Error, ProblemKind::CertificateInvalid);
    has(&material, Severity::Error, ProblemKind::KeyInvalid);
    // k3s-default: loadable, but TLS verification is off.
    let k3s = cfg
        .select(
            &SelectOptions::new()
                .context("k3s-default")
                .skip_material_checks(),
        )
        .expect("k3s-default loads");
    has(
        &k3s.problems,
        Severity::Warning,
        ProblemKind::InsecureSkipTlsVerify,
    );
    assert!(k3s.insecure_skip_tls_verify);
    assert!(k3s.credentials.client_certificate_pem.is_some());
    assert!(k3s.credentials.client_key_pem.is_some());
    // Secrets are not in Debug of the selection.
    let dbg = format!("{k3s:?}");
    assert!(!dbg.contains("BEGIN EC PRIVATE KEY"), "key leaked in Debug");
    assert!(!dbg.contains("FAKEFAKE"));
    let harvester_sel_dbg = format!("{:?}", cfg.user("harvester"));
    assert!(
        !harvester_sel_dbg.contains("kubeconfig-user-aaaaa"),
        "token leaked in Debug"
    );
}

#[test]
fn kubelet_ca_key_as_client_identity_and_insecure_are_flagged() {
    let name = "kubelet-insecure-with-ca-as-client-cert.yaml";
    let cfg = Kubeconfig::read(&fixture(name)).expect("load");
    let problems = cfg.check(&SelectOptions::new().skip_file_checks());
    has(
        &problems,
        Severity::Warning,
        ProblemKind::InsecureSkipTlsVerify,
    );
    let p = has(
        &problems,
        Severity::Warning,
        ProblemKind::CaKeyAsClientIdentity,
    );
    assert!(p.message.contains("ca.key"));
    // With file checks the missing host paths are reported with client-go's wording.
    let problems = cfg.check(&SelectOptions::new());
    let p = has(&problems, Severity::Error, ProblemKind::UnreadableFile);
    assert!(
        p.message.starts_with(
            "unable to read client-cert /home/kubernetes/ssl/ca.crt for ubuntu due to"
        )
    );
    // Offline, without file checks, it is loadable (only warnings).
    let sel = cfg
        .select(&SelectOptions::new().skip_file_checks())
        .expect("select");
    assert_eq!(sel.server, "https://master:6443");
}

#[test]
fn rancher_proxy_is_classified_with_token_auth_and_no_tls_conflict() {
    let name = "rancher-proxied-token.yaml";
    let cfg = Kubeconfig::read(&fixture(name)).expect("load");
    // The CA data is an anonymised placeholder (testdata/fixtures/README.md): reported as such,
    // and the conclusion asserted with material checks off.
    has(
        &cfg.check(&SelectOptions::new()),
        Severity::Error,
        ProblemKind::CertificateInvalid,
    );
    let sel = cfg
        .select(&SelectOptions::new().skip_material_checks())
        .expect("loadable: the error came from tool defaults");
    has(&sel.problems, Severity::Info, ProblemKind::RancherProxy);
    assert!(
        !sel.problems
            .iter()
            .any(|p| p.kind == ProblemKind::InsecureWithCa)
    );
    assert!(!sel.insecure_skip_tls_verify);
    assert!(sel.ca_pem.is_some());
    assert_eq!(
        sel.server,
        "https://rancher.example.com/k8s/clusters/c-aaaaa"
    );
    let token = sel.credentials.token.as_ref().expect("bearer token");
    assert!(token.expose().starts_with("kubeconfig-user-bbbbb:"));
    assert!(!format!("{sel:?}").contains("kubeconfig-user-bbbbb"));
}

fn write_relative_tree(dir: &Path) {
    std::fs::copy(fixture("relative-cert-paths.yaml"), dir.join("config")).expect("copy");
    let pki = crate::support::Pki::new();
    let client = pki.client_cert("admin", &["system:masters"]);
    for (rel, body) in [
        ("certs/cluster-01/k8s-ca.crt", pki.ca_pem()),
        ("certs/cluster-01/admin.crt", client.cert_pem),
        ("certs/cluster-01/admin.key", client.key_pem),
    ] {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, body).expect("write");
    }
}

#[test]
fn relative_paths_resolve_against_the_files_directory_not_the_cwd() {
    let tmp = tempfile::tempdir().expect("tmp");
    write_relative_tree(tmp.path());
    let cfg = Kubeconfig::read(&tmp.path().join("config")).expect("load");
    let ca = cfg
        .cluster("cluster-01")
        .and_then(|c| c.cluster.certificate_authority.clone());
    assert_eq!(
        ca.map(PathBuf::from),
        Some(tmp.path().join("certs/cluster-01/k8s-ca.crt"))
    );
    let key = cfg.user("admin-02").and_then(|u| u.user.client_key.clone());
    assert_eq!(
        key.map(PathBuf::from),
        Some(tmp.path().join("./stage/admin-key.pem"))
    );
    let sel = cfg
        .select(&SelectOptions::new())
        .expect("cluster-01 resolves");
    assert!(
        sel.ca_pem
            .as_deref()
            .is_some_and(|c| c.starts_with(b"-----BEGIN CERTIFICATE"))
    );
    assert!(sel.credentials.client_key_pem.is_some());

    // The same file read through another relative route resolves identically.
    let other = tempfile::tempdir().expect("tmp2");
    let rel_route = other
        .path()
        .join("..")
        .join(tmp.path().file_name().expect("name"))
        .join("config");
    let cfg2 = Kubeconfig::read(&rel_route).expect("load again");
    let sel2 = cfg2.select(&SelectOptions::new()).expect("select again");
    assert_eq!(sel.ca_pem, sel2.ca_pem);

    // cluster-02 files are missing: client-go's error text names the resolved path.
    let err = cfg
        .select(&SelectOptions::new().context("cluster-02"))
        .expect_err("missing files");
    let text = err.to_string();
    assert!(
        text.contains(&format!(
            "unable to read certificate-authority {}",
            tmp.path().join("stage/ca.pem").display()
        )),
        "{text}"
    );

    // Inlined, the kubeconfig is self-contained and gives the same selection from anywhere.
    let inlined = cfg.inline().expect_err("cluster-02 files missing");
    assert!(matches!(inlined, Error::Read { .. }));
    let mut only01 = cfg.clone();
    only01.clusters.retain(|c| c.name == "cluster-01");
    only01.users.retain(|u| u.name == "admin-01");
    only01.contexts.retain(|c| c.name == "cluster-01");
    let yaml = only01.inline().expect("inline").to_yaml().expect("yaml");
    assert!(yaml.contains("certificate-authority-data"));
    assert!(!yaml.contains("certs/cluster-01"));
    let reloaded = Kubeconfig::from_yaml(&yaml, None).expect("reload");
    let sel3 = reloaded
        .select(&SelectOptions::new())
        .expect("select inlined");
    assert_eq!(sel3.ca_pem, sel.ca_pem);
    assert_eq!(
        sel3.credentials
            .client_key_pem
            .as_ref()
            .map(|s| s.expose().to_string()),
        sel.credentials
            .client_key_pem
            .as_ref()
            .map(|s| s.expose().to_string())
    );
}

// ---- client-go rules beyond the fixtures -------------------------------------------------------

const A: &str = r#"
apiVersion: v1
kind: Config
current-context: a-ctx
clusters:
- name: shared
  cluster: {server: "https://a.example:6443", insecure-skip-tls-verify: true}
users:
- name: red-user
  user: {token: red-token-from-a}
contexts:
- name: a-ctx
  context: {cluster: shared, user: red-user, namespace: team-a}
"#;

const B: &str = r#"
apiVersion: v1
kind: Config
current-context: b-ctx
clusters:
- name: shared
  cluster: {server: "https://b.example:6443"}
- name: only-b
  cluster: {server: "https://only-b.example:6443", insecure-skip-tls-verify: true}
users:
- name: red-user
  user: {username: admin, password: from-b}
contexts:
- name: b-ctx
  context: {cluster: only-b, user: red-user}
"#;

#[test]
fn merge_first_file_wins_whole_entries_and_first_non_empty_scalar() {
    let tmp = tempfile::tempdir().expect("tmp");
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    std::fs::write(&a, A).expect("a");
    std::fs::write(&b, B).expect("b");
    let missing = tmp.path().join("missing");
    let list = format!(
        "{}::{}:{}:{}",
        a.display(),
        missing.display(),
        b.display(),
        a.display()
    );
    let (cfg, skipped) = Kubeconfig::from_kubeconfig_env(&list).expect("merge");
    assert_eq!(skipped, vec![missing]);
    assert_eq!(cfg.current_context.as_deref(), Some("a-ctx"));
    let shared = cfg.cluster("shared").expect("shared");
    assert_eq!(
        shared.cluster.server.as_deref(),
        Some("https://a.example:6443")
    );
    assert_eq!(shared.origin.as_deref(), Some(a.as_path()));
    // red-user from file 2 ignored entirely (no field merge: no username/password).
    let red = cfg.user("red-user").expect("red");
    assert!(red.user.username.is_none() && red.user.password.is_none());
    assert!(cfg.cluster("only-b").is_some());
    assert_eq!(cfg.contexts.len(), 2);
    let sel = cfg.select(&SelectOptions::new()).expect("select");
    assert_eq!(sel.namespace, "team-a");
    let sel_b = cfg
        .select(&SelectOptions::new().context("b-ctx"))
        .expect("select b");
    assert_eq!(sel_b.namespace, "default");
}

#[test]
fn missing_context_texts_match_client_go() {
    let cfg = Kubeconfig::from_yaml(A, None).expect("load");
    let err = cfg
        .select(&SelectOptions::new().context("nope"))
        .expect_err("missing");
    assert_eq!(err.to_string(), "context \"nope\" does not exist");
    let mut cur = cfg.clone();
    cur.current_context = Some("gone".into());
    let err = cur
        .select(&SelectOptions::new())
        .expect_err("missing current");
    assert_eq!(
        err.to_string(),
        "invalid configuration: context was not found for specified context: gone"
    );
    let empty = Kubeconfig::from_yaml("", None).expect("empty loads");
    let err = empty.select(&SelectOptions::new()).expect_err("empty");
    assert_eq!(
        err.to_string(),
        "invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable"
    );
}

#[test]
fn duplicate_names_in_one_file_are_a_load_error() {
    let text = "clusters:\n- name: x\n  cluster: {server: https://a}\n- name: x\n  cluster: {server: https://b}\n";
    match Kubeconfig::from_yaml(text, None) {
        Err(Error::DuplicateName { list, name, .. }) => {
            assert_eq!((list, name.as_str()), ("clusters", "x"));
        }
        other => panic!("expected duplicate error, got {other:?}"),
    }
}

fn one(cluster: &str, user: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\nclusters:\n- name: k\n  cluster: {cluster}\nusers:\n- name: u\n  user: {user}\ncontexts:\n- name: c\n  context: {{cluster: k, user: u}}\n"
    )
}

#[track_caller]
fn problems_of(cluster: &str, user: &str, opts: &SelectOptions) -> Vec<Problem> {
    Kubeconfig::from_yaml(&one(cluster, user), None)
        .expect("load")
        .check(opts)
}

#[test]
fn bad_base64_and_ca_data_with_file_and_aggregation() {
    let ps = problems_of(
        "{server: https://h:6443, certificate-authority-data: '!!notbase64', certificate-authority: /nonexistent/ca.crt}",
        "{token: abc}",
        &SelectOptions::new().skip_file_checks(),
    );
    has(&ps, Severity::Error, ProblemKind::BadBase64);
    let p = has(&ps, Severity::Error, ProblemKind::CaDataAndFile);
    assert_eq!(
        p.message,
        "certificate-authority-data and certificate-authority are both specified for k. certificate-authority-data will override."
    );
    let cfg = Kubeconfig::from_yaml(
        &one("{server: https://h:6443, certificate-authority-data: '!!notbase64', certificate-authority: /nonexistent/ca.crt}", "{token: abc}"),
        None,
    )
    .expect("load");
    let text = cfg
        .select(&SelectOptions::new().skip_file_checks())
        .expect_err("invalid")
        .to_string();
    assert!(text.starts_with("invalid configuration: ["), "{text}");
    let ps = problems_of(
        "{server: https://h:6443}",
        "{client-key-data: '%%%'}",
        &SelectOptions::new(),
    );
    let p = has(&ps, Severity::Error, ProblemKind::BadBase64);
    assert!(!p.message.contains("%%%"));
    has(&ps, Severity::Error, ProblemKind::IncompleteClientCert);
}

#[test]
fn credentials_over_plain_http_are_dropped_like_client_go() {
    let cfg = Kubeconfig::from_yaml(
        &one(
            "{server: 'http://10.0.0.9:8080'}",
            "{token: secret-token-xyz}",
        ),
        None,
    )
    .expect("load");
    let sel = cfg.select(&SelectOptions::new()).expect("loadable");
    has(
        &sel.problems,
        Severity::Warning,
        ProblemKind::CredentialsOverHttp,
    );
    assert!(sel.credentials.token.is_none());
    assert!(sel.credentials.dropped_for_http);
    // No scheme and no TLS material: http is assumed, so the token is dropped too.
    let cfg =
        Kubeconfig::from_yaml(&one("{server: '10.0.0.9:8080'}", "{token: t}"), None).expect("load");
    let sel = cfg.select(&SelectOptions::new()).expect("loadable");
    assert_eq!(sel.server, "http://10.0.0.9:8080");
    assert!(sel.credentials.token.is_none());
}

#[test]
fn exec_plugins_are_reported_not_run_and_v1alpha1_is_refused() {
    let eks_old = "{exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: aws-iam-authenticator, args: [token, -i, c]}}";
    let ps = problems_of("{server: https://h:6443}", eks_old, &SelectOptions::new());
    let p = has(&ps, Severity::Error, ProblemKind::ExecApiVersionRefused);
    assert!(p.message.contains("client.authentication.k8s.io/v1alpha1"));
    has(&ps, Severity::Warning, ProblemKind::ExecNotRun);

    let oidc = "{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: kubectl, args: [oidc-login, get-token]}}";
    let cfg = Kubeconfig::from_yaml(&one("{server: https://h:6443}", oidc), None).expect("load");
    let sel = cfg.select(&SelectOptions::new()).expect("loadable");
    has(&sel.problems, Severity::Warning, ProblemKind::ExecNotRun);
    assert!(
        sel.credentials.exec.is_none(),
        "plugin must not be handed to the client"
    );
    let mut allow = SelectOptions::new();
    allow.plugins = PluginPolicy::Allow;
    let sel = cfg.select(&allow).expect("loadable");
    has(&sel.problems, Severity::Info, ProblemKind::ExecWillRun);
    assert!(sel.credentials.exec.is_some());

    let v1 = "{exec: {apiVersion: client.authentication.k8s.io/v1, command: x}}";
    let ps = problems_of("{server: https://h:6443}", v1, &SelectOptions::new());
    assert!(ps.iter().any(|p| p.message
        == "interactiveMode must be specified for u to use exec authentication plugin"));

    let both = "{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: x}, auth-provider: {name: oidc, config: {refresh-token: r-secret}}}";
    let ps = problems_of("{server: https://h:6443}", both, &SelectOptions::new());
    has(&ps, Severity::Error, ProblemKind::AuthProviderAndExec);
    has(&ps, Severity::Warning, ProblemKind::AuthProviderPlugin);
    assert!(!format!("{ps:?}").contains("r-secret"));
}

#[test]
fn token_and_basic_auth_together_is_client_go_error() {
    let ps = problems_of(
        "{server: https://h:6443}",
        "{token: t, username: a, password: p}",
        &SelectOptions::new(),
    );
    let p = has(&ps, Severity::Error, ProblemKind::MultipleAuthMethods);
    assert_eq!(
        p.message,
        "more than one authentication method found for u; found [token basicAuth], only one is allowed"
    );
}

#[test]
fn rewrite_server_keeps_verifying_the_original_name() {
    let mut cfg = Kubeconfig::from_yaml(
        &one(
            "{server: 'https://api.internal.example:6443'}",
            "{token: t}",
        ),
        None,
    )
    .expect("load");
    let name = cfg
        .rewrite_server("k", "https://127.0.0.1:16443")
        .expect("rewrite");
    assert_eq!(name.as_deref(), Some("api.internal.example"));
    let sel = cfg.select(&SelectOptions::new()).expect("select");
    assert_eq!(sel.server, "https://127.0.0.1:16443");
    assert_eq!(sel.tls_server_name.as_deref(), Some("api.internal.example"));
    // kubectl --server semantics: the file's tls-server-name is dropped.
    let sel = cfg
        .select(&SelectOptions::new().server("https://127.0.0.2:6443"))
        .expect("select");
    assert_eq!(sel.tls_server_name, None);
    assert!(cfg.rewrite_server("k", "ftp://x").is_err());
    assert!(cfg.rewrite_server("nope", "https://x").is_err());
}

#[test]
fn parse_errors_do_not_leak_secrets() {
    let text =
        "users:\n- name: u\n  user:\n    token: [kubeconfig-user-zzzzz:SECRETSECRETSECRETSECRET\n";
    let err = Kubeconfig::from_yaml(text, None).expect_err("bad yaml");
    assert!(!err.to_string().contains("SECRETSECRET"), "{err}");
    assert!(!format!("{err:?}").contains("SECRETSECRET"));
}

#[test]
fn exec_command_resolves_only_with_a_path_separator() {
    let tmp = tempfile::tempdir().expect("tmp");
    let file = tmp.path().join("cfg");
    let yaml = "users:\n- name: rel\n  user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ./bin/get-token}}\n- name: bare\n  user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: aws}}\n- name: abs\n  user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: /usr/bin/x}}\n";
    std::fs::write(&file, yaml).expect("write");
    let cfg = Kubeconfig::read(&file).expect("load");
    let cmd = |n: &str| {
        cfg.user(n)
            .and_then(|u| u.user.exec.as_ref())
            .map(|e| PathBuf::from(&e.command))
    };
    assert_eq!(cmd("rel"), Some(tmp.path().join("./bin/get-token")));
    assert_eq!(cmd("bare"), Some(PathBuf::from("aws")));
    assert_eq!(cmd("abs"), Some(PathBuf::from("/usr/bin/x")));
}
