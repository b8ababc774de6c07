//! The cluster registry file: add, update, atomic write, broken and invalid files are never
//! overwritten, concurrent changes are detected, secrets only when given inline.

use std::path::Path;

use cube_cluster::registry::{
    ApplyAction, ClusterUpdate, LabelChange, RegistryError, RegistryFile, TaintChange,
    kubeconfig_for,
};
use cube_model::cluster::{ClusterRegistry, KubeconfigRef, SecretKeyRef};

fn update(labels: &[&str], taints: &[&str]) -> ClusterUpdate {
    ClusterUpdate {
        labels: labels.iter().map(|l| l.parse().expect("label")).collect(),
        taints: taints.iter().map(|t| t.parse().expect("taint")).collect(),
        ..ClusterUpdate::default()
    }
}

fn tmp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

#[test]
fn add_then_update_then_unchanged() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("clusters.yaml");
    let mut f = RegistryFile::open(&path).expect("missing file is empty");
    assert!(!f.existed());
    let mut u = update(
        &["env=prod", "location=beijing"],
        &["dedicated=gpu:NoSchedule"],
    );
    u.default = Some(true);
    u.kubeconfig = Some(KubeconfigRef::file("kc/bj.yaml").with_context("admin@bj"));
    u.profile = Some(Some("console-readonly".into()));
    assert_eq!(
        f.apply("bj-prod", &u).expect("add").action,
        ApplyAction::Added
    );
    f.save().expect("save");

    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains("apiVersion: cube-rs.io/v1alpha1"), "{text}");
    assert!(text.contains("kind: ClusterRegistry"), "{text}");
    assert!(tmp_files(dir.path()).is_empty());

    // Update: a label changes, one is removed, the taint is replaced (same key and effect).
    let mut f = RegistryFile::open(&path).expect("reopen");
    let u = update(
        &["env=staging", "location-"],
        &["dedicated=training:NoSchedule"],
    );
    assert_eq!(
        f.apply("bj-prod", &u).expect("update").action,
        ApplyAction::Updated
    );
    f.save().expect("save");
    let r = RegistryFile::open(&path).expect("reopen");
    let c = r.registry().get("bj-prod").expect("entry");
    assert_eq!(c.labels.get("env"), Some("staging"));
    assert!(!c.labels.contains_key("location"));
    assert_eq!(c.taints.len(), 1);
    assert_eq!(c.taints[0].value, "training");
    assert!(c.default);
    assert_eq!(c.profile.as_deref(), Some("console-readonly"));
    assert_eq!(
        c.kubeconfig.as_ref().map(|k| k.path.as_str()),
        Some("kc/bj.yaml"),
        "unchanged fields are kept"
    );

    let mut f = r;
    assert_eq!(
        f.apply("bj-prod", &update(&["env=staging"], &[]))
            .expect("same")
            .action,
        ApplyAction::Unchanged
    );
    // Removing a taint by key.
    let u = ClusterUpdate {
        taints: vec![TaintChange::Remove {
            key: "dedicated".into(),
            effect: None,
        }],
        ..ClusterUpdate::default()
    };
    f.apply("bj-prod", &u).expect("untaint");
    assert!(
        f.registry()
            .get("bj-prod")
            .expect("entry")
            .taints
            .is_empty()
    );
}

#[test]
fn default_flag_moves_and_is_reported() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("r.yaml");
    let mut f = RegistryFile::open(&path).expect("open");
    let mut u = ClusterUpdate {
        default: Some(true),
        kubeconfig: Some(KubeconfigRef::file("/a")),
        ..ClusterUpdate::default()
    };
    f.apply("a", &u).expect("a");
    u.kubeconfig = Some(KubeconfigRef::file("/b"));
    let out = f.apply("b", &u).expect("b");
    assert_eq!(out.previous_default.as_deref(), Some("a"));
    let defaults: Vec<&str> = f
        .registry()
        .clusters
        .iter()
        .filter(|c| c.default)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(defaults, ["b"]);
}

#[test]
fn broken_and_invalid_files_are_reported_never_overwritten() {
    let dir = tempfile::tempdir().expect("tmp");
    for (name, text, broken) in [
        ("syntax.yaml", "clusters: [ {name: a\n", true),
        (
            "typo.yaml",
            "clusters:\n- name: a\n  lables: {env: prod}\n",
            true,
        ),
        ("binary.yaml", "\u{0}\u{1}clusters", true),
        (
            "invalid.yaml",
            "clusters:\n- {name: a, default: true}\n- {name: b, default: true}\n",
            false,
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        match RegistryFile::open(&path) {
            Err(RegistryError::Broken { message, .. }) if broken => {
                assert!(!message.is_empty(), "{name}");
            }
            Err(RegistryError::Invalid { problems, .. }) if !broken => {
                assert!(
                    problems
                        .iter()
                        .any(|p| p.message.contains("more than one default")),
                    "{name}: {problems:?}"
                );
            }
            other => panic!("{name}: {other:?}"),
        }
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            text,
            "{name}"
        );
    }
    // A directory or a device is not read.
    assert!(matches!(
        RegistryFile::open(dir.path()),
        Err(RegistryError::Read { .. })
    ));
    assert!(matches!(
        RegistryFile::open(Path::new("/dev/zero")),
        Err(RegistryError::Read { .. })
    ));
}

#[test]
fn an_invalid_change_is_refused_and_nothing_changes() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("r.yaml");
    let mut f = RegistryFile::open(&path).expect("open");
    let bad_name = f.apply("Not_A_Name", &ClusterUpdate::default());
    assert!(
        matches!(bad_name, Err(RegistryError::Invalid { .. })),
        "{bad_name:?}"
    );
    let creds = ClusterUpdate {
        api_server: Some("https://admin:hunter2@10.0.0.1:6443".into()),
        kubeconfig: Some(KubeconfigRef::file("/x")),
        ..ClusterUpdate::default()
    };
    match f.apply("ok", &creds) {
        Err(e @ RegistryError::Invalid { .. }) => {
            assert!(!e.to_string().contains("hunter2"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    assert!(f.registry().clusters.is_empty());
    let bad_secret = ClusterUpdate {
        kubeconfig: Some(KubeconfigRef::secret(SecretKeyRef {
            namespace: "cube-system".into(),
            name: "x".into(),
            key: "a b".into(),
        })),
        ..ClusterUpdate::default()
    };
    assert!(f.apply("ok", &bad_secret).is_err());
}

#[test]
fn a_concurrent_change_is_detected_and_the_temp_file_removed() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("r.yaml");
    std::fs::write(&path, "clusters: []\n").expect("write");
    let mut f = RegistryFile::open(&path).expect("open");
    f.apply(
        "a",
        &ClusterUpdate {
            kubeconfig: Some(KubeconfigRef::file("/a")),
            ..ClusterUpdate::default()
        },
    )
    .expect("apply");
    std::fs::write(&path, "clusters: [{name: other}]\n").expect("someone else writes");
    assert!(matches!(f.save(), Err(RegistryError::Changed { .. })));
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "clusters: [{name: other}]\n"
    );
    assert!(tmp_files(dir.path()).is_empty());
}

#[test]
fn secrets_only_when_given_inline_and_then_private() {
    let dir = tempfile::tempdir().expect("tmp");
    let kc = dir.path().join("admin.conf");
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters: [{name: k, cluster: {server: 'https://127.0.0.1:6443'}}]\nusers: [{name: u, user: {token: file-token-s3cr3t}}]\ncontexts: [{name: c, context: {cluster: k, user: u}}]\ncurrent-context: c\n",
    )
    .expect("kc");
    let path = dir.path().join("r.yaml");
    let mut f = RegistryFile::open(&path).expect("open");
    f.apply(
        "by-file",
        &ClusterUpdate {
            kubeconfig: Some(KubeconfigRef::file("admin.conf")),
            ..ClusterUpdate::default()
        },
    )
    .expect("file");
    f.save().expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(!text.contains("s3cr3t"), "{text}");
    // The file reference resolves against the registry's directory.
    let reg = RegistryFile::open(&path).expect("reopen");
    let cfg = kubeconfig_for(
        reg.registry().get("by-file").expect("entry"),
        &reg.base_dir(),
    )
    .expect("resolve");
    assert_eq!(cfg.current_context.as_deref(), Some("c"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o644);
    }

    let mut f = reg;
    let inline = std::fs::read_to_string(&kc).expect("kc");
    f.apply(
        "inline",
        &ClusterUpdate {
            kubeconfig: Some(KubeconfigRef::inline(inline)),
            ..ClusterUpdate::default()
        },
    )
    .expect("inline");
    f.save().expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(
        text.contains("file-token-s3cr3t"),
        "inline is stored as given"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "a registry holding credentials is private");
    }
    let reg = ClusterRegistry::from_yaml(&text).expect("parse");
    assert!(!format!("{reg:?}").contains("s3cr3t"));
    let cfg = kubeconfig_for(reg.get("inline").expect("entry"), Path::new("")).expect("inline");
    assert_eq!(cfg.users.len(), 1);
}

#[test]
fn label_change_syntax_errors_name_the_input() {
    let e = "a b=c".parse::<LabelChange>().unwrap_err();
    assert!(e.contains("a b"), "{e}");
}

/// A registry path that is a symbolic link (a registry kept in a shared or dotfiles directory)
/// was replaced by a regular file on save: the shared target kept the old registry and the
/// link was gone (fresh-user F13). It is written through, as `kubectl config` writes through a
/// linked kubeconfig: the target holds the new registry, the link stays a link, no temporary
/// file is left beside the link or the target. Chains of links and relative link targets
/// resolve the same way; a dangling link creates its target.
#[cfg(unix)]
#[test]
fn a_linked_registry_is_written_through_to_its_target() {
    let dir = tempfile::tempdir().expect("tmp");
    let shared = dir.path().join("shared");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&shared).expect("shared");
    std::fs::create_dir_all(&home).expect("home");
    let target = shared.join("clusters.yaml");
    let mut f = RegistryFile::open(&target).expect("empty");
    f.apply("a", &update(&["env=prod"], &[])).expect("add");
    f.save().expect("save target");
    // home/clusters.yaml -> home/middle.yaml -> ../shared/clusters.yaml (relative)
    let middle = home.join("middle.yaml");
    std::os::unix::fs::symlink("../shared/clusters.yaml", &middle).expect("link 1");
    let link = home.join("clusters.yaml");
    std::os::unix::fs::symlink(&middle, &link).expect("link 2");
    let mut f = RegistryFile::open(&link).expect("open through the link");
    assert!(f.registry().get("a").is_some());
    f.apply("b", &update(&["env=dev"], &[])).expect("add b");
    f.save().expect("save through the link");
    for l in [&link, &middle] {
        assert!(
            std::fs::symlink_metadata(l)
                .expect("meta")
                .file_type()
                .is_symlink(),
            "{} is still a link",
            l.display()
        );
    }
    let r = RegistryFile::open(&target).expect("target");
    assert!(r.registry().get("a").is_some() && r.registry().get("b").is_some());
    assert!(tmp_files(&home).is_empty() && tmp_files(&shared).is_empty());
    // saved again through the link: the change check reads the same file it writes
    let mut f = RegistryFile::open(&link).expect("reopen");
    f.apply("b", &update(&["env=staging"], &[]))
        .expect("update b");
    f.save().expect("save again");
    let r = RegistryFile::open(&target).expect("target");
    assert_eq!(
        r.registry().get("b").and_then(|c| c.labels.get("env")),
        Some("staging")
    );
    // a dangling link creates its target
    let dangling = home.join("new.yaml");
    std::os::unix::fs::symlink(shared.join("new.yaml"), &dangling).expect("dangling");
    let mut f = RegistryFile::open(&dangling).expect("missing target is empty");
    f.apply("c", &update(&[], &[])).expect("add c");
    f.save().expect("save dangling");
    assert!(shared.join("new.yaml").is_file());
    assert!(
        std::fs::symlink_metadata(&dangling)
            .expect("meta")
            .file_type()
            .is_symlink()
    );
}
