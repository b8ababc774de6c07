//! Exec credential plugins run by cube-cluster with a deadline and a bounded output (fresh-user
//! F19, F20: kube-client ran them with `Command::output()`, so a plugin that never exits hung
//! the program and one writing without end grew its memory without bound). Small shell scripts
//! play the plugins; the credential they return is checked end to end against a loopback API
//! double that knows only that token.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cube_cluster::client::{ClientOptions, build_client, kube_config};
use cube_cluster::connect::{CheckOptions, Outcome, check};
use cube_cluster::exec::ExecError;
use cube_cluster::kubeconfig::{Kubeconfig, SelectOptions, Selection};

use crate::support::{ApiDouble, Pki};

const TOKEN: &str = "exec-s4lted-token-value-77";

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).expect("write script");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    p
}

/// A kubeconfig whose user runs `command` (`apiVersion` `api`, extra `exec` lines), against
/// `server` trusting `ca_pem`.
fn selection(
    server: &str,
    ca_pem: Option<&str>,
    command: &Path,
    api: &str,
    extra: &str,
) -> Selection {
    use base64::Engine as _;
    let ca = ca_pem
        .map(|c| {
            format!(
                "    certificate-authority-data: {}\n",
                base64::engine::general_purpose::STANDARD.encode(c)
            )
        })
        .unwrap_or_default();
    let yaml = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: {server}\n{ca}users:\n- name: u\n  user:\n    exec:\n      apiVersion: {api}\n      command: {}\n      interactiveMode: Never\n{extra}contexts:\n- name: x\n  context: {{cluster: c, user: u}}\ncurrent-context: x\n",
        command.display()
    );
    Kubeconfig::from_yaml(&yaml, None)
        .expect("load")
        .select(&SelectOptions::new().allow_plugins())
        .expect("select")
}

fn exec_error(e: &cube_cluster::Error) -> &ExecError {
    match e {
        cube_cluster::Error::ExecPlugin { source, .. } => source.as_ref(),
        other => panic!("expected an exec plugin error, got {other:?}"),
    }
}

#[test]
fn a_plugin_that_never_exits_is_stopped_at_the_timeout() {
    let dir = tempfile::tempdir().expect("tmp");
    let hang = script(dir.path(), "hang", "exec sleep 600");
    let sel = selection(
        "https://127.0.0.1:1",
        None,
        &hang,
        "client.authentication.k8s.io/v1",
        "",
    );
    let t = Instant::now();
    let e = kube_config(&sel, &ClientOptions::with_timeout(Duration::from_secs(1)))
        .expect_err("timeout");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    let ex = exec_error(&e);
    assert!(matches!(ex, ExecError::Timeout { .. }), "{ex:?}");
    let hit = ex.limit_exceeded().expect("a typed limit");
    assert_eq!(
        (hit.limit, hit.max),
        (cube_model::Limit::RequestTimeoutSecs, 1)
    );
    assert!(
        e.to_string().contains("--request-timeout-secs")
            || e.to_string().contains("request-timeout-secs"),
        "{e}"
    );
}

#[test]
fn a_plugin_writing_without_end_is_stopped_at_the_output_bound() {
    let dir = tempfile::tempdir().expect("tmp");
    let endless = script(
        dir.path(),
        "endless",
        "exec yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    );
    let mut sel = selection(
        "https://127.0.0.1:1",
        None,
        &endless,
        "client.authentication.k8s.io/v1",
        "",
    );
    sel.max_referenced_file_bytes = 1 << 20;
    let t = Instant::now();
    let e = kube_config(&sel, &ClientOptions::with_timeout(Duration::from_secs(20)))
        .expect_err("too large");
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let ex = exec_error(&e);
    assert!(
        matches!(ex, ExecError::OutputTooLarge { limit, .. } if *limit == 1 << 20),
        "{ex:?}"
    );
    assert_eq!(
        ex.limit_exceeded().map(|h| h.limit),
        Some(cube_model::Limit::ReferencedFileBytes)
    );
    // endless stderr is drained, kept bounded, and does not stop a good answer
    let noisy = script(
        dir.path(),
        "noisy",
        &format!(
            "head -c 3000000 /dev/zero | tr '\\0' x >&2\nprintf '%s' '{{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1\",\"status\":{{\"token\":\"{TOKEN}\"}}}}'"
        ),
    );
    let sel = selection(
        "https://127.0.0.1:1",
        None,
        &noisy,
        "client.authentication.k8s.io/v1",
        "",
    );
    let cfg = kube_config(&sel, &ClientOptions::with_timeout(Duration::from_secs(20)))
        .expect("noisy but good");
    assert!(cfg.auth_info.token.is_some());
}

#[test]
fn failures_name_the_plugin_and_never_print_what_it_wrote_unredacted() {
    let dir = tempfile::tempdir().expect("tmp");
    let v1 = "client.authentication.k8s.io/v1";
    let failing = script(
        dir.path(),
        "failing",
        &format!(
            "echo \"error: login failed: token={TOKEN} \u{1b}[31mred $CLIENT_SECRET\" >&2\nexit 3"
        ),
    );
    let e = kube_config(
        &selection(
            "https://127.0.0.1:1",
            None,
            &failing,
            v1,
            "      env: [{name: CLIENT_SECRET, value: env-s4lt-value-99}]\n",
        ),
        &ClientOptions::default(),
    )
    .expect_err("failed");
    let text = e.to_string();
    // an env value the plugin echoes is hidden too
    assert!(!text.contains("env-s4lt-value-99"), "{text}");
    assert!(matches!(exec_error(&e), ExecError::Failed { .. }), "{e:?}");
    assert!(
        text.contains("exit status 3") && text.contains("login failed"),
        "{text}"
    );
    assert!(!text.contains(TOKEN), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
    // an answer without a credential, of another version, or a partial cert/key pair: client-go's words
    for (body, says) in [
        (
            format!("{{\"kind\":\"ExecCredential\",\"apiVersion\":\"{v1}\"}}"),
            "didn't return a status field",
        ),
        (
            format!(
                "{{\"kind\":\"ExecCredential\",\"apiVersion\":\"client.authentication.k8s.io/v1beta1\",\"status\":{{\"token\":\"{TOKEN}\"}}}}"
            ),
            "plugin returned version",
        ),
        (
            format!("{{\"apiVersion\":\"{v1}\",\"status\":{{\"clientKeyData\":\"{TOKEN}\"}}}}"),
            "only certResp or keyResp",
        ),
        (format!("not json {TOKEN}"), "not an ExecCredential"),
    ] {
        let p = script(dir.path(), "answer", &format!("cat <<'EOF'\n{body}\nEOF"));
        let e = kube_config(
            &selection("https://127.0.0.1:1", None, &p, v1, ""),
            &ClientOptions::default(),
        )
        .expect_err(says);
        assert!(e.to_string().contains(says), "{e}");
        assert!(!format!("{e} {e:?}").contains(TOKEN), "{e}");
    }
    // a missing command names the install hint; interactiveMode Always has no terminal here
    let e = kube_config(
        &selection(
            "https://127.0.0.1:1",
            None,
            &dir.path().join("no-such-plugin"),
            v1,
            "      installHint: install the no-such-plugin CLI\n",
        ),
        &ClientOptions::default(),
    )
    .expect_err("missing");
    assert!(
        e.to_string().contains("install the no-such-plugin CLI"),
        "{e}"
    );
    let always = selection("https://127.0.0.1:1", None, &failing, v1, "").clone();
    let mut exec = always.credentials.exec.clone().expect("exec");
    exec.interactive_mode = Some("Always".into());
    let e =
        cube_cluster::exec::run_exec_plugin(&exec, None, &Default::default()).expect_err("always");
    assert!(
        e.to_string().contains("standard input is not a terminal"),
        "{e}"
    );
}

/// The protocol as client-go speaks it: `KUBERNETES_EXEC_INFO` with the apiVersion, not
/// interactive, the cluster when `provideClusterInfo` is set; `exec.env` and arguments passed;
/// stdin empty. The returned token reaches the server (an API double that knows only it) for
/// both `v1` and `v1beta1`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_credential_a_plugin_returns_authenticates_against_the_server() {
    let pki = Pki::new();
    let api = ApiDouble::builder(&pki)
        .token(TOKEN, "exec-user", &["team"])
        .start()
        .await;
    let dir = tempfile::tempdir().expect("tmp");
    let seen = dir.path().join("seen");
    for version in [
        "client.authentication.k8s.io/v1",
        "client.authentication.k8s.io/v1beta1",
    ] {
        let plugin = script(
            dir.path(),
            "plugin",
            &format!(
                "printf '%s' \"$KUBERNETES_EXEC_INFO\" > {seen}.info\nprintf '%s %s' \"$1\" \"$EXTRA\" > {seen}.args\nif read -r line; then echo stdin-not-empty > {seen}.stdin; fi\nprintf '%s' '{{\"kind\":\"ExecCredential\",\"apiVersion\":\"{version}\",\"status\":{{\"token\":\"{TOKEN}\",\"expirationTimestamp\":\"2099-01-01T00:00:00Z\"}}}}'",
                seen = seen.display()
            ),
        );
        let sel = selection(
            &api.url(),
            Some(&pki.ca_pem()),
            &plugin,
            version,
            "      args: [get-token]\n      env: [{name: EXTRA, value: from-env}]\n      provideClusterInfo: true\n",
        );
        let report = check(&sel, &CheckOptions::default()).await;
        match &report.outcome {
            Outcome::Ok { user, .. } => assert_eq!(user.as_deref(), Some("exec-user"), "{version}"),
            other => panic!("{version}: {other:?}"),
        }
        let info: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{}.info", seen.display())).expect("info"),
        )
        .expect("KUBERNETES_EXEC_INFO is JSON");
        assert_eq!(info["kind"], "ExecCredential");
        assert_eq!(info["apiVersion"], version);
        assert_eq!(info["spec"]["interactive"], false);
        assert_eq!(info["spec"]["cluster"]["server"], api.url());
        assert!(info["spec"]["cluster"]["certificate-authority-data"].is_string());
        assert_eq!(
            std::fs::read_to_string(format!("{}.args", seen.display())).expect("args"),
            "get-token from-env"
        );
        assert!(!Path::new(&format!("{}.stdin", seen.display())).exists());
        // the client the programs build carries it too
        build_client(&sel, &ClientOptions::default()).expect("client");
    }
}
