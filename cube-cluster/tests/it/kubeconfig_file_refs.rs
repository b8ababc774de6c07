//! Files a kubeconfig names (`certificate-authority`, `client-certificate`, `client-key`,
//! `tokenFile`) under [`FileReferencePolicy`]: client-go reads them all and sends a tokenFile's
//! content to the server as a bearer token, so an uploaded kubeconfig must not make the
//! console read `/etc/shadow` or its own ServiceAccount token (fresh-user G25); and
//! [`Kubeconfig::minify`] keeps only one context's entries (G24).

use std::path::Path;

use cube_cluster::kubeconfig::{FileReferencePolicy, Kubeconfig, ProblemKind, SelectOptions};

const SECRET_LINE: &str = "root:SALTshadowLine91:19000:0:99999:7:::";

/// A kubeconfig in `dir/kc/config` whose user reads `token_file`.
fn kubeconfig_with_token_file(dir: &Path, token_file: &str) -> Kubeconfig {
    let kc_dir = dir.join("kc");
    std::fs::create_dir_all(&kc_dir).unwrap();
    let path = kc_dir.join("config");
    let text = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: r\nclusters: [{{name: r, cluster: {{server: \"https://127.0.0.1:6443\", insecure-skip-tls-verify: true}}}}]\nusers: [{{name: r, user: {{tokenFile: \"{token_file}\"}}}}]\ncontexts: [{{name: r, context: {{cluster: r, user: r}}}}]\n"
    );
    std::fs::write(&path, &text).unwrap();
    Kubeconfig::from_yaml(&text, Some(&path)).unwrap()
}

fn refused(cfg: &Kubeconfig, policy: FileReferencePolicy) -> Vec<String> {
    let mut opts = SelectOptions::new();
    opts.file_references = policy;
    let problems = cfg.check(&opts);
    problems
        .iter()
        .filter(|p| p.kind == ProblemKind::FileReferenceRefused)
        .map(|p| p.message.clone())
        .collect()
}

#[test]
fn a_token_file_outside_the_kubeconfigs_directory_is_never_read_under_own_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("shadow");
    std::fs::write(&outside, SECRET_LINE).unwrap();
    let cfg = kubeconfig_with_token_file(tmp.path(), outside.to_str().unwrap());

    // client-go's behaviour (the library default): read, and used as the bearer token
    assert!(refused(&cfg, FileReferencePolicy::Allow).is_empty());
    let sel = cfg.select(&SelectOptions::new()).unwrap();
    assert_eq!(
        sel.credentials
            .token
            .as_ref()
            .map(|t| t.expose().to_string()),
        Some(SECRET_LINE.to_string())
    );

    for policy in [
        FileReferencePolicy::OwnDirectory,
        FileReferencePolicy::Refuse,
    ] {
        let msgs = refused(&cfg, policy.clone());
        assert_eq!(msgs.len(), 1, "{policy:?}: {msgs:?}");
        assert!(msgs[0].starts_with("tokenFile "), "{}", msgs[0]);
        assert!(
            msgs[0].contains("sent to the server as a credential"),
            "{}",
            msgs[0]
        );
        assert!(!msgs[0].contains("SALTshadow"), "{}", msgs[0]);
        let mut opts = SelectOptions::new();
        opts.file_references = policy.clone();
        // the selection is refused (an error problem), and nothing read is kept
        match cfg.select(&opts) {
            Ok(sel) => {
                assert!(sel.credentials.token.is_none(), "{policy:?}");
                assert!(sel.credentials.token_file.is_none(), "{policy:?}");
            }
            Err(e) => assert!(!e.to_string().contains("SALTshadow"), "{e}"),
        }
    }
}

#[test]
fn own_directory_reads_files_beside_the_kubeconfig_but_not_through_dotdot_or_symlinks() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("kc")).unwrap();
    std::fs::write(tmp.path().join("kc/token"), "tok-inside\n").unwrap();
    let beside = kubeconfig_with_token_file(tmp.path(), "token");
    assert!(refused(&beside, FileReferencePolicy::OwnDirectory).is_empty());
    let mut opts = SelectOptions::new();
    opts.file_references = FileReferencePolicy::OwnDirectory;
    let sel = beside.select(&opts).unwrap();
    // client-go trims the file's whitespace
    assert_eq!(
        sel.credentials
            .token
            .as_ref()
            .map(|t| t.expose().to_string()),
        Some("tok-inside".to_string())
    );

    std::fs::write(tmp.path().join("secret"), SECRET_LINE).unwrap();
    let dotdot = kubeconfig_with_token_file(tmp.path(), "../secret");
    assert_eq!(refused(&dotdot, FileReferencePolicy::OwnDirectory).len(), 1);

    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(tmp.path().join("secret"), tmp.path().join("kc/link")).unwrap();
        let link = kubeconfig_with_token_file(tmp.path(), "link");
        assert_eq!(refused(&link, FileReferencePolicy::OwnDirectory).len(), 1);
    }
}

#[test]
fn every_kind_of_file_reference_is_governed_and_a_kubeconfig_without_a_file_may_name_none() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("ca.crt");
    std::fs::write(&outside, "not pem").unwrap();
    let o = outside.to_str().unwrap();
    let text = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: r\nclusters: [{{name: r, cluster: {{server: \"https://127.0.0.1:6443\", certificate-authority: \"{o}\"}}}}]\nusers: [{{name: r, user: {{client-certificate: \"{o}\", client-key: \"{o}\"}}}}]\ncontexts: [{{name: r, context: {{cluster: r, user: r}}}}]\n"
    );
    std::fs::create_dir_all(tmp.path().join("kc")).unwrap();
    let cfg = Kubeconfig::from_yaml(&text, Some(&tmp.path().join("kc/config"))).unwrap();
    let msgs = refused(&cfg, FileReferencePolicy::OwnDirectory);
    assert_eq!(msgs.len(), 3, "{msgs:?}");
    for what in ["certificate-authority ", "client-cert ", "client-key "] {
        assert!(msgs.iter().any(|m| m.starts_with(what)), "{what}: {msgs:?}");
    }
    // read from text: no directory of its own
    let from_text = Kubeconfig::from_yaml(&text, None).unwrap();
    assert_eq!(
        refused(&from_text, FileReferencePolicy::OwnDirectory).len(),
        3
    );
}

#[test]
fn minify_keeps_one_context_its_cluster_and_its_user() {
    let text = "apiVersion: v1\nkind: Config\ncurrent-context: a\npreferences: {colors: true}\nclusters:\n- {name: ca, cluster: {server: \"https://127.0.0.1:1\"}}\n- {name: cb, cluster: {server: \"https://user:SALTurlpw@127.0.0.1:2\"}}\nusers:\n- {name: ua, user: {token: SALTmine}}\n- {name: ub, user: {password: SALTother, username: u}}\ncontexts:\n- {name: a, context: {cluster: ca, user: ua}}\n- {name: b, context: {cluster: cb, user: ub}}\n";
    let cfg = Kubeconfig::from_yaml(text, None).unwrap();
    let min = cfg.minify("a").unwrap();
    assert_eq!(min.current_context.as_deref(), Some("a"));
    assert_eq!(min.contexts.len(), 1);
    assert_eq!(min.clusters.len(), 1);
    assert_eq!(min.users.len(), 1);
    assert!(min.preferences.is_none());
    let yaml = min.to_yaml().unwrap();
    assert!(yaml.contains("SALTmine"), "{yaml}");
    assert!(
        !yaml.contains("SALTother") && !yaml.contains("SALTurlpw"),
        "{yaml}"
    );
    assert!(cfg.minify("missing").is_none());
}
