//! Issue 9 at the edges of the programs (fresh-user report 2): what a kubeconfig someone else
//! wrote may make every program do (file references, exec plugins), the same exit code for the
//! same unusable kubeconfig in every program, answers of the wrong kind from a hostile server,
//! and the flags that were taken without a word. Servers are on 127.0.0.1 only.

use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

mod support;
use support::{code, run};

/// A scratch directory for this test binary.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir()
        .join(format!("cube-examples-edges-{}", std::process::id()))
        .join(name);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn all(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

const GROUPS: &str = "cube-model/examples-data/resource-groups.yaml";

/// A loopback TCP listener that counts the connections made to it (and closes each at once):
/// a program that sends a credential must connect first.
fn counting_listener() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            seen.fetch_add(1, Ordering::SeqCst);
            drop(s);
        }
    });
    (port, n)
}

/// A kubeconfig for `server` whose user is `user` (flow-style YAML).
fn kubeconfig(server: &str, user: &str, current: bool) -> String {
    format!(
        "apiVersion: v1\nkind: Config\n{}clusters:\n- name: k\n  cluster: {{server: '{server}', insecure-skip-tls-verify: true}}\nusers:\n- name: u\n  user: {user}\ncontexts:\n- name: a\n  context: {{cluster: k, user: u}}\n- name: b\n  context: {{cluster: k, user: u}}\n",
        if current { "current-context: a\n" } else { "" }
    )
}

/// fresh-user G25, in every program: a kubeconfig whose `tokenFile` names a file outside its
/// own directory (a salted `/etc/shadow` line) made `cluster_diagnose --kubeconfig`,
/// `group_plan --kubeconfig`, `group_plan --registry` and `cluster_fleet` send that file to the
/// kubeconfig's server as a bearer token; only `cluster_import` refused it. Every program now
/// refuses it the same way (one shared policy, `--allow-file-refs` to read it): the
/// single-kubeconfig programs exit 2 (bad input) before any connection, naming the path and the
/// flag; in a registry the cluster is `config-invalid` (that cluster's problem, exit 1). The
/// listener counts connections: none without the flag, some with it.
#[test]
fn every_program_refuses_a_file_reference_outside_the_kubeconfigs_directory() {
    let dir = scratch("file-refs");
    std::fs::create_dir_all(dir.join("upload")).expect("mkdir");
    let shadow = dir.join("shadow");
    std::fs::write(&shadow, "root:SALTshadowEdge93:19000:0:99999:7:::\n").expect("write");
    let (port, seen) = counting_listener();
    let kc = dir.join("upload/config");
    std::fs::write(
        &kc,
        kubeconfig(
            &format!("https://127.0.0.1:{port}"),
            &format!("{{tokenFile: '{}'}}", shadow.display()),
            true,
        ),
    )
    .expect("write");
    let kc = kc.display().to_string();
    let registry = dir.join("registry.yaml");
    std::fs::write(
        &registry,
        "clusters:\n- name: up\n  default: true\n  labels: {env: prod, location: beijing}\n  kubeconfig: {path: upload/config}\n",
    )
    .expect("write");
    let registry = registry.display().to_string();
    let single: [(&str, Vec<&str>); 3] = [
        ("cluster_diagnose", vec!["--kubeconfig", &kc]),
        ("cluster_import", vec!["--kubeconfig", &kc]),
        ("group_plan", vec![GROUPS, "--kubeconfig", &kc, "--diff"]),
    ];
    for (program, args) in &single {
        let o = run(program, args);
        let text = all(&o);
        assert_eq!(code(&o), 2, "{program}: {text}");
        assert!(
            text.contains(&shadow.display().to_string()) && text.contains("--allow-file-refs"),
            "{program}: {text}"
        );
        assert!(!text.contains("SALTshadow"), "{program}: {text}");
    }
    let fleet: [(&str, Vec<&str>); 2] = [
        (
            "cluster_fleet",
            vec!["--registry", &registry, "--timeout", "3"],
        ),
        (
            "group_plan",
            vec!["--registry", &registry, GROUPS, "--diff", "--timeout", "3"],
        ),
    ];
    for (program, args) in &fleet {
        let o = run(program, args);
        let text = all(&o);
        assert_ne!(code(&o), 0, "{program}: {text}");
        assert!(
            text.contains("is not read") && text.contains(&shadow.display().to_string()),
            "{program}: {text}"
        );
        assert!(!text.contains("SALTshadow"), "{program}: {text}");
    }
    assert_eq!(
        seen.load(Ordering::SeqCst),
        0,
        "a program connected to the kubeconfig's server with a refused tokenFile"
    );
    // --allow-file-refs: client-go's behaviour, the server is contacted
    let o = run(
        "cluster_diagnose",
        &[
            "--kubeconfig",
            &kc,
            "--allow-file-refs",
            "--request-timeout-secs",
            "3",
        ],
    );
    assert!(!all(&o).contains("SALTshadow"), "{}", all(&o));
    assert!(seen.load(Ordering::SeqCst) > 0, "{}", all(&o));
    // a file beside the kubeconfig is read without the flag
    std::fs::write(dir.join("upload/token"), "plain-token-beside\n").expect("write");
    let beside = dir.join("upload/beside.yaml");
    std::fs::write(
        &beside,
        kubeconfig("https://127.0.0.1:1", "{tokenFile: token}", true),
    )
    .expect("write");
    let o = run(
        "cluster_import",
        &["--kubeconfig", &beside.display().to_string(), "--offline"],
    );
    assert_eq!(code(&o), 0, "{}", all(&o));
}

/// fresh-user G29: a kubeconfig without current-context exited 3 in `cluster_diagnose` (after
/// 17 failed "collections"), 1 in `cluster_import` and 2 in `group_plan`. It is bad input (exit
/// 2) in every program, one line naming the contexts to choose from, before any connection.
#[test]
fn a_kubeconfig_without_current_context_exits_2_in_every_program() {
    let dir = scratch("no-current");
    let (port, seen) = counting_listener();
    let kc = dir.join("config");
    std::fs::write(
        &kc,
        kubeconfig(
            &format!("https://127.0.0.1:{port}"),
            "{token: SALTnocurrent44}",
            false,
        ),
    )
    .expect("write");
    let kc = kc.display().to_string();
    let runs: [(&str, Vec<&str>); 4] = [
        ("cluster_diagnose", vec!["--kubeconfig", &kc]),
        ("cluster_import", vec!["--kubeconfig", &kc]),
        ("cluster_import", vec!["--kubeconfig", &kc, "--offline"]),
        ("group_plan", vec![GROUPS, "--kubeconfig", &kc, "--diff"]),
    ];
    for (program, args) in &runs {
        let o = run(program, args);
        let text = all(&o);
        assert_eq!(code(&o), 2, "{program} {args:?}: {text}");
        assert!(
            text.contains("current-context is not set") && text.contains("--context (a, b)"),
            "{program} {args:?}: {text}"
        );
        assert!(!text.contains("SALTnocurrent"), "{program}: {text}");
        // once, not once per kind
        assert!(
            text.matches("current-context is not set").count() <= 2,
            "{program}: {text}"
        );
    }
    // --context of one that does not exist: exit 2 too
    for (program, args) in [
        (
            "cluster_diagnose",
            vec!["--kubeconfig", &kc, "--context", "nope"],
        ),
        (
            "cluster_import",
            vec!["--kubeconfig", &kc, "--context", "nope"],
        ),
        (
            "group_plan",
            vec![GROUPS, "--kubeconfig", &kc, "--context", "nope", "--diff"],
        ),
    ] {
        let o = run(program, &args);
        assert_eq!(code(&o), 2, "{program}: {}", all(&o));
    }
    assert_eq!(seen.load(Ordering::SeqCst), 0);
}

/// fresh-user G9: `cluster_diagnose --kubeconfig` had no `--allow-exec`, so an exec-plugin
/// kubeconfig (EKS, GKE, OIDC) could never be read. The flag exists, with the consent model of
/// `cluster_import`: without it the plugin does not run (and the report says so); with it, it
/// runs once. A plugin that fails is reported with its redacted stderr, never Rust Debug text
/// (G12).
#[test]
fn cluster_diagnose_runs_exec_plugins_only_with_allow_exec() {
    let dir = scratch("exec");
    let marker = dir.join("ran");
    let plugin = dir.join("plugin.sh");
    std::fs::write(
        &plugin,
        format!(
            "#!/bin/sh\necho run >> '{}'\nprintf '%s' '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"SALTexecToken77\"}}}}'\n",
            marker.display()
        ),
    )
    .expect("write");
    let failing = dir.join("failing.sh");
    std::fs::write(
        &failing,
        "#!/bin/sh\necho 'error: refresh token SALTexecStderr55 expired; run aws sso login' >&2\nexit 1\n",
    )
    .expect("write");
    for p in [&plugin, &failing] {
        let _ = Command::new("chmod").arg("+x").arg(p).status();
    }
    let (port, _seen) = counting_listener();
    let exec = |cmd: &PathBuf| {
        format!(
            "{{exec: {{apiVersion: client.authentication.k8s.io/v1, command: '{}', interactiveMode: Never}}}}",
            cmd.display()
        )
    };
    let kc = dir.join("config");
    std::fs::write(
        &kc,
        kubeconfig(&format!("https://127.0.0.1:{port}"), &exec(&plugin), true),
    )
    .expect("write");
    let kc = kc.display().to_string();
    let o = run(
        "cluster_diagnose",
        &["--kubeconfig", &kc, "--request-timeout-secs", "3"],
    );
    let text = all(&o);
    code(&o);
    assert!(!marker.exists(), "the plugin ran without --allow-exec");
    assert!(
        text.contains("--allow-exec") && text.contains("not run"),
        "{text}"
    );
    let o = run(
        "cluster_diagnose",
        &[
            "--kubeconfig",
            &kc,
            "--allow-exec",
            "--request-timeout-secs",
            "3",
        ],
    );
    let text = all(&o);
    code(&o);
    assert!(marker.exists(), "the plugin did not run: {text}");
    assert!(!text.contains("SALTexecToken"), "{text}");

    let kc_fail = dir.join("failing.yaml");
    std::fs::write(
        &kc_fail,
        kubeconfig(&format!("https://127.0.0.1:{port}"), &exec(&failing), true),
    )
    .expect("write");
    let kc_fail = kc_fail.display().to_string();
    // G12: the same class and the exit code of the table in every program that reads a
    // kubeconfig (cluster_fleet and group_plan said `config-invalid`, group_plan exited 2 as
    // if the kubeconfig were bad input): the picture could not be read (3) in cluster_diagnose,
    // "no" (1) where the answer is about the cluster
    let registry = dir.join("registry.yaml");
    std::fs::write(
        &registry,
        "clusters:\n- name: plugin\n  default: true\n  labels: {env: prod, location: beijing}\n  kubeconfig: {path: failing.yaml}\n",
    )
    .expect("write");
    let registry = registry.display().to_string();
    for (program, args, want) in [
        (
            "cluster_diagnose",
            vec!["--kubeconfig", &kc_fail, "--allow-exec"],
            3,
        ),
        (
            "cluster_import",
            vec!["--kubeconfig", &kc_fail, "--allow-exec"],
            1,
        ),
        (
            "cluster_fleet",
            vec!["--registry", &registry, "--allow-exec", "--timeout", "5"],
            1,
        ),
        (
            "group_plan",
            vec![GROUPS, "--kubeconfig", &kc_fail, "--diff", "--allow-exec"],
            1,
        ),
        (
            "group_plan",
            vec![
                GROUPS,
                "--registry",
                &registry,
                "--diff",
                "--allow-exec",
                "--timeout",
                "5",
            ],
            1,
        ),
    ] {
        let o = run(program, &args);
        let text = all(&o);
        assert_eq!(code(&o), want, "{program} {args:?}: {text}");
        assert!(text.contains("exec-plugin-failed"), "{program}: {text}");
        assert!(text.contains("aws sso login"), "{program}: {text}");
        assert!(!text.contains("SALTexecStderr"), "{program}: {text}");
        assert!(
            !text.contains("ExitStatus(") && !text.contains("Output {"),
            "{program}: {text}"
        );
    }
    // stdout is never the plugin's: nothing written to it leaks either
    let _ = std::io::stdout().flush();
}

/// A loopback HTTP server answering every request with status 200 and `body` (JSON content
/// type), then closing the connection. Returns its port.
fn answering_server(body: &'static str) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            std::thread::spawn(move || {
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                // the request head, then its body (Content-Length)
                let mut buf = Vec::new();
                let mut byte = [0u8; 1];
                while !buf.ends_with(b"\r\n\r\n") && buf.len() < 65536 {
                    match s.read(&mut byte) {
                        Ok(1) => buf.push(byte[0]),
                        _ => return,
                    }
                }
                let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                let mut rest = vec![0u8; len.min(1 << 20)];
                let _ = s.read_exact(&mut rest);
                let _ = write!(
                    s,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    port
}

/// fresh-user G26: a server answering every GET and every server-side apply PATCH with status
/// 200 and something else than the object (an empty `List`, a `Status`, text that is not JSON)
/// made `group_plan --diff` say "server dry run passed" and `--apply` say "applied" with exit 0.
/// Every answer is checked now (kind, apiVersion, name, namespace of the object asked for): a
/// wrong one is "not a Kubernetes API server's answer", never applied, and the exit code says
/// it failed.
#[test]
fn group_plan_refuses_answers_of_the_wrong_kind() {
    let dir = scratch("wrong-kind");
    for body in [
        r#"{"kind":"List","apiVersion":"v1","items":[]}"#,
        r#"{"kind":"Status","apiVersion":"v1","status":"Success","code":200}"#,
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"default"}}"#,
        "<html>welcome to nginx</html>",
    ] {
        let port = answering_server(body);
        let kc = dir.join(format!("{port}.yaml"));
        std::fs::write(
            &kc,
            kubeconfig(&format!("http://127.0.0.1:{port}"), "{}", true),
        )
        .expect("write");
        let kc = kc.display().to_string();
        for mode in ["--diff", "--apply"] {
            let o = run("group_plan", &[GROUPS, "--kubeconfig", &kc, mode]);
            let text = all(&o);
            assert_eq!(code(&o), 1, "{body} {mode}: {text}");
            assert!(
                !text.contains("dry run passed") && !text.contains(": applied"),
                "{body} {mode}: {text}"
            );
            assert!(
                text.contains("not a Kubernetes API server's answer"),
                "{body} {mode}: {text}"
            );
        }
    }
}

/// fresh-user G35: `group_plan --out-dir` opened and truncated `<cluster>.yaml`, so a symlink
/// planted there had its target overwritten (the class F31 fixed for `cluster_import`). Every
/// file is written new and renamed over the path: the link is replaced, its target untouched.
#[cfg(unix)]
#[test]
fn group_plan_out_dir_never_writes_through_a_symlink() {
    let dir = scratch("out-dir");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").expect("write");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).expect("mkdir");
    let link = out.join("prod.yaml");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&victim, &link).expect("symlink");
    let registry = dir.join("registry.yaml");
    std::fs::write(
        &registry,
        "clusters:\n- name: prod\n  default: true\n  labels: {env: prod, location: beijing}\n  kubeconfig: {path: none.yaml}\n",
    )
    .expect("write");
    let o = run(
        "group_plan",
        &[
            GROUPS,
            "--registry",
            &registry.display().to_string(),
            "--out-dir",
            &out.display().to_string(),
        ],
    );
    let text = all(&o);
    code(&o);
    assert!(text.contains("wrote"), "{text}");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious\n"
    );
    let meta = std::fs::symlink_metadata(&link).expect("written");
    assert!(meta.file_type().is_file(), "still a link");
    assert!(
        std::fs::read_to_string(&link)
            .expect("read")
            .contains("# cluster prod")
    );
}

/// A loopback HTTP server whose answer depends on the request path: `route(path)` gives the
/// status code and the JSON body. Returns its port.
fn routing_server(route: fn(&str) -> (u16, String)) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            std::thread::spawn(move || {
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let mut buf = Vec::new();
                let mut byte = [0u8; 1];
                while !buf.ends_with(b"\r\n\r\n") && buf.len() < 65536 {
                    match s.read(&mut byte) {
                        Ok(1) => buf.push(byte[0]),
                        _ => return,
                    }
                }
                let head = String::from_utf8_lossy(&buf).into_owned();
                let path = head
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or("/")
                    .split('?')
                    .next()
                    .unwrap_or("/")
                    .to_owned();
                let len = head
                    .to_ascii_lowercase()
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:").map(str::to_owned))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                let mut rest = vec![0u8; len.min(1 << 20)];
                let _ = s.read_exact(&mut rest);
                let (code, body) = route(&path);
                let _ = write!(
                    s,
                    "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    port
}

const VERSION: &str =
    r#"{"major":"1","minor":"36","gitVersion":"v1.36.0","platform":"linux/amd64"}"#;

/// fresh-user G11: a SelfSubjectRulesReview (and the access reviews behind the over-privilege
/// warnings) answered with something that is not a review was read as "nothing allowed,
/// complete"; empty reasons printed `()`. The failed reviews are named now, in the table and
/// in JSON, and the picture is marked incomplete.
#[test]
fn cluster_import_names_reviews_that_did_not_answer() {
    let dir = scratch("reviews");
    let port = routing_server(|path| {
        if path == "/version" {
            (200, VERSION.to_owned())
        } else if path.contains("selfsubjectreviews") {
            (404, r#"{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}"#.to_owned())
        } else {
            (
                200,
                r#"{"kind":"List","apiVersion":"v1","items":[]}"#.to_owned(),
            )
        }
    });
    let kc = dir.join("config");
    std::fs::write(
        &kc,
        kubeconfig(&format!("http://127.0.0.1:{port}"), "{}", true),
    )
    .expect("write");
    let kc = kc.display().to_string();
    let o = run("cluster_import", &["--kubeconfig", &kc]);
    let text = all(&o);
    code(&o);
    assert!(text.contains("NOT CHECKED"), "{text}");
    assert!(
        text.contains("rules review in namespace default failed"),
        "{text}"
    );
    assert!(!text.contains("()"), "{text}");
    let o = run("cluster_import", &["--kubeconfig", &kc, "--output", "json"]);
    let text = all(&o);
    code(&o);
    assert!(text.contains("\"reviewErrors\""), "{text}");
    assert!(text.contains("\"rulesIncomplete\": true"), "{text}");
}

/// fresh-user G43 and G8: a read-only account without Secret access was told to bind `view`
/// or console-readonly (neither grants Secrets) or to dump `secrets -A` (every Secret of the
/// cluster). The remedy names a kube-system Role for Secrets and the bootstrap-token dump only.
#[test]
fn unreadable_bootstrap_tokens_get_their_own_remedy() {
    let port = routing_server(|path| {
        if path == "/version" {
            (200, VERSION.to_owned())
        } else if path.contains("/secrets") {
            (403, r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"secrets is forbidden: User \"ro\" cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\"","reason":"Forbidden","code":403}"#.to_owned())
        } else {
            (
                200,
                r#"{"kind":"List","apiVersion":"v1","metadata":{},"items":[]}"#.to_owned(),
            )
        }
    });
    let dir = scratch("nosecrets");
    let kc = dir.join("config");
    std::fs::write(
        &kc,
        kubeconfig(&format!("http://127.0.0.1:{port}"), "{}", true),
    )
    .expect("write");
    let o = run(
        "cluster_diagnose",
        &["--kubeconfig", &kc.display().to_string()],
    );
    let text = all(&o);
    assert_eq!(code(&o), 3, "{text}");
    assert!(text.contains("BootstrapToken"), "{text}");
    assert!(
        text.contains("--field-selector type=bootstrap.kubernetes.io/token"),
        "{text}"
    );
    assert!(
        !text.contains("get secrets -A")
            && !text.contains("secrets,")
            && !text.contains(",secrets"),
        "{text}"
    );
}

/// fresh-user G28: `cluster_diagnose --groups` took a groups file that `group_plan` refuses
/// (names with escape codes, shares above the bucket) without a word, and the file hid real
/// findings. It is bad input (exit 2) with the same validation, escape codes shown escaped.
#[test]
fn cluster_diagnose_refuses_an_invalid_groups_file() {
    let dir = scratch("groups");
    let escape = dir.join("escape.yaml");
    std::fs::write(
        &escape,
        "name: \"team\\e[31m\"\nowner: \"mallory\"\nmembers: [{name: eve, role: admin}]\nquota: []\nnamespaces: [{name: \"ns\\e[2J\", sharePercent: 100}]\n",
    )
    .expect("write");
    let over = dir.join("over.yaml");
    std::fs::write(
        &over,
        "name: team-x\nowner: alice\nmembers: [{name: alice, role: admin}]\nquota:\n  - name: compute\n    hard: {requests.cpu: \"10\", requests.nvidia.com/gpu: \"3\"}\nnamespaces:\n  - {name: x-a, sharePercent: 70}\n  - {name: x-b, sharePercent: 70}\n",
    )
    .expect("write");
    for f in [&escape, &over] {
        let f = f.display().to_string();
        let o = run(
            "cluster_diagnose",
            &[
                "--snapshot",
                "examples/data/snapshot-gpu-cluster.json",
                "--groups",
                &f,
            ],
        );
        let text = all(&o);
        assert_eq!(code(&o), 2, "{f}: {text}");
        assert!(text.contains("invalid groups file"), "{f}: {text}");
        assert!(!text.contains('\u{1b}'), "{f}: raw escape code: {text}");
        let p = run("group_plan", &[&f]);
        assert_eq!(code(&p), 2, "group_plan {f}: {}", all(&p));
    }
    // the bundled valid groups still work
    let o = run(
        "cluster_diagnose",
        &[
            "--snapshot",
            "examples/data/snapshot-gpu-cluster.json",
            "--groups",
            GROUPS,
        ],
    );
    assert_ne!(code(&o), 2, "{}", all(&o));
}

/// fresh-user G36: `cluster_fleet --place` placed a task asking for `-1` or `1.5` GPUs, took
/// a selector that does not parse as a warning printed with Rust Debug (`Some("...")`), and
/// took an empty or spaced `--pool-label`. All are usage errors (exit 2) before any probe.
#[test]
fn cluster_fleet_refuses_bad_placement_flags() {
    let dir = scratch("place");
    let registry = dir.join("registry.yaml");
    std::fs::write(
        &registry,
        "clusters:\n- name: a\n  labels: {env: prod}\n  kubeconfig: {path: none.yaml}\n",
    )
    .expect("write");
    let reg = registry.display().to_string();
    let bad: [Vec<&str>; 7] = [
        vec!["--place", "--gpus", "nvidia.com/gpu=-1"],
        vec!["--place", "--gpus", "nvidia.com/gpu=1.5"],
        vec!["--place", "--gpus", "nvidia.com/gpu=0"],
        vec!["--place", "--gpus", "nvidia com/gpu=1"],
        vec!["--place", "--selector", "env in (prod"],
        vec!["--pool-label", ""],
        vec!["--pool-label", "a b"],
    ];
    for args in bad {
        let mut all_args = vec!["--registry", reg.as_str(), "--timeout", "2"];
        all_args.extend(args.iter().copied());
        let o = run("cluster_fleet", &all_args);
        let text = all(&o);
        assert_eq!(code(&o), 2, "{args:?}: {text}");
        assert!(!text.contains("Some("), "{args:?}: {text}");
        assert!(
            !text.contains("probed"),
            "{args:?}: probed before refusing: {text}"
        );
    }
    let o = run(
        "cluster_fleet",
        &[
            "--registry",
            &reg,
            "--timeout",
            "2",
            "--place",
            "--gpus",
            "nvidia.com/gpu=2",
        ],
    );
    assert_ne!(code(&o), 2, "{}", all(&o));
}

/// fresh-user G10: two flags set one per-request timeout and, given together, one was ignored
/// without a word (`cluster_import --timeout-secs` with `--request-timeout-secs`, `group_plan
/// --timeout` with `--request-timeout-secs`). Together they are refused (exit 2).
#[test]
fn one_request_timeout_flag_at_a_time() {
    let dir = scratch("timeouts");
    let kc = dir.join("config");
    std::fs::write(&kc, kubeconfig("https://127.0.0.1:1", "{token: t}", true)).expect("write");
    let kc = kc.display().to_string();
    for (program, args) in [
        (
            "cluster_import",
            vec![
                "--kubeconfig",
                &kc,
                "--timeout-secs",
                "3",
                "--request-timeout-secs",
                "20",
            ],
        ),
        (
            "cluster_import",
            vec![
                "--kubeconfig",
                &kc,
                "--timeout-secs",
                "3",
                "--limit",
                "request-timeout-secs=20",
            ],
        ),
        (
            "group_plan",
            vec![
                GROUPS,
                "--kubeconfig",
                &kc,
                "--diff",
                "--timeout",
                "3",
                "--request-timeout-secs",
                "20",
            ],
        ),
    ] {
        let o = run(program, &args);
        let text = all(&o);
        assert_eq!(code(&o), 2, "{program}: {text}");
        assert!(text.contains("give one of them"), "{program}: {text}");
    }
}

/// G7: a live collection whose every list is forbidden (or fails with 500) read nothing, yet
/// printed a score over the empty picture (`score 100/100 on an incomplete picture`). It is
/// exit 3 with "nothing could be read" and no score, in the table and in JSON
/// (`nothingRead: true`, `score: 0`); a cluster whose lists answer (even empty) is not.
#[test]
fn a_live_collection_that_read_nothing_has_no_score() {
    fn forbidden(path: &str) -> (u16, String) {
        if path == "/version" {
            (200, VERSION.to_owned())
        } else {
            (403, r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"forbidden: User \"nobody\" cannot list resource","reason":"Forbidden","code":403}"#.to_owned())
        }
    }
    fn failing(path: &str) -> (u16, String) {
        if path == "/version" {
            (200, VERSION.to_owned())
        } else {
            (500, r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"etcdserver: request timed out","reason":"InternalError","code":500}"#.to_owned())
        }
    }
    for (name, route) in [
        ("forbidden", forbidden as fn(&str) -> (u16, String)),
        ("failing", failing),
    ] {
        let port = routing_server(route);
        let dir = scratch(&format!("nothing-read-{name}"));
        let kc = dir.join("config");
        std::fs::write(
            &kc,
            kubeconfig(&format!("http://127.0.0.1:{port}"), "{}", true),
        )
        .expect("write");
        let kc = kc.display().to_string();
        let o = run("cluster_diagnose", &["--kubeconfig", &kc]);
        let text = all(&o);
        assert_eq!(code(&o), 3, "{name}: {text}");
        assert!(
            text.contains("no score: nothing could be read"),
            "{name}: {text}"
        );
        assert!(!text.contains("/100"), "{name}: a score: {text}");
        let o = run(
            "cluster_diagnose",
            &["--kubeconfig", &kc, "--output", "json"],
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(code(&o), 3, "{name}: {out}");
        assert!(out.contains("\"nothingRead\": true"), "{name}: {out}");
        assert!(out.contains("\"score\": 0"), "{name}: {out}");
    }
}
