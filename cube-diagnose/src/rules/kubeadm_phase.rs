//! kubeadm's fatal verdicts, which carry no error marker: `error execution phase <phase>:
//! <error>` (cmd/kubeadm/app/cmd/phases/workflow/runner.go, v1.13+, printed by
//! cmd/kubeadm/app/util/error.go's `CheckErr` before kubeadm exits 1) and the wait-control-plane
//! texts of the catalog (`couldn't initialize a Kubernetes cluster`,
//! cmd/kubeadm/app/cmd/phases/init/waitcontrolplane.go). A phase error whose inner error another
//! rule concludes from (a preflight check, a token, the CA pin, the kubelet's health) is
//! explained there; one whose inner error nothing knows is still the end of kubeadm's run: an
//! error naming the phase, never an info line.

use std::collections::BTreeSet;

use crate::classify::{Signal, SignalKind};
use crate::rules::log_catalog::catalog_findings;
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    KubeadmPhaseFailed,
    "kubeadm-phase-failed",
    Join,
    Error,
    "kubeadm init or join stopped: `error execution phase <phase>: <error>` (cmd/kubeadm/app/cmd/phases/workflow/runner.go) or the wait-control-plane verdict `couldn't initialize a Kubernetes cluster` / `could not initialize a Kubernetes cluster` (cmd/kubeadm/app/cmd/phases/init/waitcontrolplane.go), `[control-plane-check] <component> is not healthy after <d>`, (cmd/kubeadm/app/util/apiclient/wait.go). kubeadm prints these without an ERROR marker and exits 1. When another rule names the cause of the phase's error (a preflight check, the token, the CA pin, the kubelet), that rule carries it and this one stays quiet.",
    check
);

/// Phase errors (`error execution phase <phase>: <error>`) of the logs whose cause no other
/// signal of the same log explains, plus the catalog's wait-control-plane verdicts.
fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = check_all(ctx);
    crate::rules::superseded_by_kubeadm_success(ctx, &mut out);
    out
}

fn check_all(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = catalog_findings(ctx, KubeadmPhaseFailed::ID);
    out.extend(ansible_runs(ctx));
    let concluded: BTreeSet<String> = out
        .iter()
        .flat_map(|f| f.evidence.iter())
        .filter_map(|e| match e {
            Evidence::Log { source, .. } => Some(source.clone()),
            _ => None,
        })
        .collect();
    for log in ctx.logs() {
        if concluded.contains(&log.source) || !log.text.contains("error execution phase ") {
            continue;
        }
        let explained = ctx
            .signals()
            .iter()
            .any(|s| s.source == log.source && concludes(s));
        if explained {
            continue;
        }
        // the last phase error of the text: kubeadm exits after printing it
        let Some((i, line)) = log
            .text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("error execution phase "))
            .last()
        else {
            continue;
        };
        let Some((phase, error)) = phase_error(line) else {
            continue;
        };
        // with `--v=5` kubeadm prints the error with `%+v` (github.com/pkg/errors): the cause
        // on the line above, `error execution phase X` alone, then the stack
        let error = if error.is_empty() {
            let above: Vec<&str> = log.text.lines().take(i).collect();
            above
                .into_iter()
                .rev()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .filter(|l| !l.starts_with('/') && !l.starts_with('-') && !l.starts_with('['))
                .unwrap_or("(no error text printed)")
        } else {
            error
        };
        let error = crate::finding::redact(error);
        // the kubelet-check lines said the kubelet was not running or healthy: that is why
        let kubelet_down = ctx.signals().iter().any(|s| {
            s.source == log.source && s.kind == crate::classify::SignalKind::KubeletUnhealthy
        });
        let why = if kubelet_down {
            "the kubelet-check lines above say the node's kubelet was not running or healthy, which is why (node-not-ready names how its health check failed)"
        } else {
            "no known message above it names the cause"
        };
        let remedy = match phase.split('/').next().unwrap_or(phase) {
            "wait-control-plane" | "control-plane-check" => {
                crate::catalog::CONTROL_PLANE_WAIT_REMEDY.to_owned()
            }
            "kubelet-start" | "kubelet-wait-bootstrap" => "on this node `systemctl status kubelet` and `journalctl -xeu kubelet` show why the kubelet does not start or register (cgroup driver, swap, the container runtime's socket, a bootstrap token that expired); fix it, then `kubeadm reset -f` and join again with a fresh `kubeadm token create --print-join-command`".to_owned(),
            "preflight" => "read the preflight lines above the verdict: each failed check names its own fix; rerun after fixing them (`--ignore-preflight-errors=<check>` only for a check you know does not apply)".to_owned(),
            _ => format!("rerun the same command with `--v=5` to see where phase {phase} fails (`kubeadm init phase {phase} --v=5` runs that phase alone), fix what it reports, then `kubeadm reset -f` and run it again"),
        };
        out.push(
            Finding::new(
                KubeadmPhaseFailed::ID,
                Severity::Error,
                Subject::log(&log.source),
                format!(
                    "kubeadm stopped in phase {phase}: {error} (kubeadm exits 1 after this line; {why})"
                ),
            )
            .with_evidence(Evidence::log(log.source.clone(), i + 1, &error_line(line)))
            .with_remedy(remedy),
        );
    }
    out
}

/// One kubeadm run that Ansible reported failed (kubespray, kubeadm roles): `fatal: [host]:
/// FAILED! => {result}` (ansible/ansible lib/ansible/plugins/callback/default.py,
/// v2_runner_on_failed; the command module's result has `cmd`, `rc`, `delta`, `stdout`,
/// `stderr`, ansible/ansible lib/ansible/modules/command.py).
struct AnsibleRun {
    command: &'static str,
    rc: i64,
    delta: String,
    timeout: bool,
    last_stdout: String,
    last_stderr: String,
}

/// Whether `line` is an Ansible `fatal:` result of a failed `kubeadm init|join` (see
/// [`ansible_runs`]): read by this rule, so the text holding it was read.
pub(crate) fn is_ansible_kubeadm_failure(line: &str) -> bool {
    line.contains("=> ") && line.contains("kubeadm") && ansible_kubeadm(line).is_some()
}

/// The kubeadm run of an Ansible `fatal:` line, when the failed task ran `kubeadm init|join`.
fn ansible_kubeadm(line: &str) -> Option<(String, AnsibleRun)> {
    let (host, rest) = crate::ansible::failed_head(line)?;
    let v: serde_json::Value = serde_json::from_str(rest.trim()).ok()?;
    let cmd: Vec<String> = match v.get("cmd")? {
        serde_json::Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_owned))
            .collect(),
        serde_json::Value::String(s) => s.split_whitespace().map(str::to_owned).collect(),
        _ => return None,
    };
    let at = cmd.iter().position(|w| w.ends_with("kubeadm"))?;
    let command = match cmd.get(at + 1).map(String::as_str) {
        Some("join") => "kubeadm join",
        Some("init") => "kubeadm init",
        _ => return None,
    };
    let rc = v.get("rc")?.as_i64()?;
    if rc == 0 {
        return None;
    }
    // the result as Ansible prints it, or as the paste reader keeps it on the head line
    // (cube_model::paste::ansible_result: `stdout_tail`, `stderr_tail`)
    let last = |key: &str| {
        v.get(key)
            .or_else(|| v.get(format!("{key}_tail")))
            .and_then(serde_json::Value::as_str)
            .unwrap_or("")
            .lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty())
            .unwrap_or("")
            .to_owned()
    };
    Some((
        host.to_owned(),
        AnsibleRun {
            command,
            rc,
            delta: v
                .get("delta")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("")
                .to_owned(),
            // coreutils timeout(1) exits 124 when it killed the command
            timeout: at > 0 && cmd[..at].iter().any(|w| w.ends_with("timeout")) && rc == 124,
            last_stdout: last("stdout"),
            last_stderr: last("stderr"),
        },
    ))
}

/// kubeadm runs that an Ansible playbook reports failed (exit code, killed by `timeout`),
/// grouped by command and outcome, with the hosts. A run whose own output another signal of
/// the text explains is left to that conclusion.
fn ansible_runs(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for log in ctx.logs() {
        if !log.text.contains("FAILED! =>") || !log.text.contains("kubeadm") {
            continue;
        }
        let explained = ctx
            .signals()
            .iter()
            .any(|s| s.source == log.source && concludes(s));
        if explained || log.text.contains("error execution phase ") {
            continue;
        }
        // (command, rc, timeout, last stdout, last stderr) -> hosts, first line, delta
        let mut groups: Vec<(AnsibleRun, Vec<String>, usize)> = Vec::new();
        // a host whose PLAY RECAP counts no failure had this one rescued or retried; a result
        // followed by `...ignoring` was allowed to fail (crate::ansible)
        let recap = crate::ansible::recap(&log.text);
        let lines: Vec<&str> = log.text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some((host, run)) = ansible_kubeadm(line) else {
                continue;
            };
            if crate::ansible::ignored_after(&lines, i) || recap.get(host.as_str()) == Some(&0) {
                continue;
            }
            match groups.iter_mut().find(|(r, _, _)| {
                r.command == run.command
                    && r.rc == run.rc
                    && r.timeout == run.timeout
                    && r.last_stdout == run.last_stdout
            }) {
                Some((_, hosts, _)) => hosts.push(host),
                None => groups.push((run, vec![host], i)),
            }
        }
        for (run, hosts, i) in groups {
            let join = run.command == "kubeadm join";
            let after = if run.last_stdout.is_empty() {
                "before it printed anything".to_owned()
            } else {
                format!(
                    "with `{}` as its last output",
                    crate::finding::redact(&run.last_stdout)
                )
            };
            let (what, why, remedy) = if run.timeout {
                let hung_in_discovery = join
                    && (run.last_stdout.starts_with("[preflight]") || run.last_stdout.is_empty());
                (
                    format!(
                        "was killed by `timeout` (exit 124){} {after}",
                        if run.delta.is_empty() {
                            String::new()
                        } else {
                            format!(" after running {}", run.delta)
                        }
                    ),
                    if hung_in_discovery {
                        "after the preflight checks kubeadm join runs discovery without printing (its [discovery] lines appear only with --v=1 or more) and retries until the API server answers with a cluster-info it can validate: the endpoint is unreachable from the node (firewall, wrong address or load balancer), the bootstrap token expired or was deleted, or the CA pin does not match"
                    } else {
                        "kubeadm hung at that step and the playbook's timeout ended it"
                    },
                    if hung_in_discovery {
                        "on a failing node run the join by hand with `--v=5` (the [discovery] lines say whether the API server is reached and whether the token and CA pin are accepted); check the endpoint from the node (`curl -k https://<endpoint>/version`) and the token on a control-plane node (`kubeadm token list`, `kubeadm token create --print-join-command`); then `kubeadm reset -f` on the node and rerun the playbook"
                    } else {
                        "run the same kubeadm command by hand on a failing node with `--v=5` to see where it waits; fix that, `kubeadm reset -f`, and rerun the playbook"
                    },
                )
            } else {
                (
                    format!(
                        "exited {}{}",
                        run.rc,
                        if run.last_stderr.is_empty() {
                            String::new()
                        } else {
                            format!(" (`{}`)", crate::finding::redact(&run.last_stderr))
                        }
                    ),
                    "its own output in the result says why",
                    "read the task's stdout/stderr in the result (rerun with `-vvv`), or run the kubeadm command by hand on the node with `--v=5`; fix it, `kubeadm reset -f`, and rerun the playbook",
                )
            };
            out.push(
                Finding::new(
                    KubeadmPhaseFailed::ID,
                    Severity::Error,
                    Subject::log(&log.source),
                    format!(
                        "{} on {} (an Ansible task) {what}: {why}",
                        run.command,
                        if hosts.len() > 10 {
                            format!(
                                "{} and {} more host(s)",
                                hosts[..10].join(", "),
                                hosts.len() - 10
                            )
                        } else {
                            hosts.join(", ")
                        }
                    ),
                )
                .with_evidence(Evidence::log(
                    log.source.clone(),
                    log.origins.get(i).map_or(i + 1, |o| o.line),
                    &error_line(lines.get(i).copied().unwrap_or("")),
                ))
                .with_remedy(remedy),
            );
        }
    }
    out
}

/// Whether signal `s` is a conclusion of its own (so a phase error in the same text is
/// explained by it): any classified kind but an unrecognised line, and catalog matches whose
/// entry names a rule (context and healthy entries conclude nothing).
pub(crate) fn concludes(s: &Signal) -> bool {
    match s.kind {
        // the kubelet's health is a warning of node-not-ready: the run's end is still ours
        SignalKind::Unrecognised
        | SignalKind::DevicePluginRegistered
        | SignalKind::KubeletUnhealthy => false,
        // kubeadm's own wait (`timed out waiting for the condition`), not a dial
        SignalKind::Timeout => !s.text.contains("waiting for the condition"),
        SignalKind::Known => {
            crate::catalog::entry(s.detail("entry")).is_some_and(|e| !e.rule.is_empty())
        }
        _ => true,
    }
}

/// `(phase, error)` of a line holding `error execution phase <phase>: <error>`.
pub(crate) fn phase_error(line: &str) -> Option<(&str, &str)> {
    let at = line.find("error execution phase ")?;
    let rest = &line[at + "error execution phase ".len()..];
    let (phase, error) = rest
        .split_once(": ")
        .unwrap_or((rest.trim_end_matches(':'), ""));
    let phase = phase.trim();
    if phase.is_empty() || phase.contains(' ') {
        return None;
    }
    Some((phase, error.trim()))
}

fn error_line(line: &str) -> String {
    crate::finding::redact(line.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_log;

    const INIT_FAIL: &str = "[wait-control-plane] Waiting for the kubelet to boot up the control plane as static Pods from directory \"/etc/kubernetes/manifests\". This can take up to 4m0s\n[kubelet-check] Initial timeout of 40s passed.\n\nUnfortunately, an error has occurred:\n\ttimed out waiting for the condition\n\nThis error is likely caused by:\n\t- The kubelet is not running\n\nerror execution phase wait-control-plane: couldn't initialize a Kubernetes cluster\nTo see the stack trace of this error execute with --v=5 or higher\n";

    #[test]
    fn wait_control_plane_verdict_in_every_wording_is_an_error() {
        for text in [
            INIT_FAIL.to_owned(),
            INIT_FAIL.replace("couldn't", "could not"),
            // v1.9-v1.12: no phase runner, the bare verdict
            "[init] This might take a minute or longer if the control plane images have to be pulled.\n\nUnfortunately, an error has occurred:\n\ttimed out waiting for the condition\ncouldn't initialize a Kubernetes cluster\n".to_owned(),
            // v1.31+: the per-component check
            "[control-plane-check] Waiting for healthy control plane components. This can take up to 4m0s\n[control-plane-check] kube-apiserver is not healthy after 4m0.000388s\n\nA control plane component may have crashed or exited when started by the container runtime.\nerror execution phase wait-control-plane: failed while waiting for the control plane to start: kube-apiserver check failed at https://10.0.0.1:6443/livez: Get \"https://10.0.0.1:6443/livez?timeout=10s\": dial tcp 10.0.0.1:6443: connect: connection refused\n".to_owned(),
        ] {
            let f = run_log(KubeadmPhaseFailed::ID, &text);
            assert!(!f.is_empty(), "{text}");
            assert_eq!(f[0].severity, Severity::Error, "{text}");
        }
    }

    #[test]
    fn an_unknown_phase_error_names_the_phase() {
        let text = "[upload-certs] Storing the certificates in Secret \"kubeadm-certs\" in the \"kube-system\" Namespace\nerror execution phase upload-certs: error uploading certs: error creating token: timed out waiting for the condition\nTo see the stack trace of this error execute with --v=5 or higher\n";
        let f = run_log(KubeadmPhaseFailed::ID, text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message.contains("phase upload-certs"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_phase_error_another_rule_explains_stays_quiet() {
        let text = "[preflight] Running pre-flight checks\nerror execution phase preflight: [preflight] Some fatal errors occurred:\n\t[ERROR Swap]: running with swap on is not supported. Please disable swap\n[preflight] If you know what you are doing, you can make a check non-fatal with `--ignore-preflight-errors=...`\n";
        assert!(run_log(KubeadmPhaseFailed::ID, text).is_empty());
        assert!(run_log(KubeadmPhaseFailed::ID, "[init] Using Kubernetes version: v1.30.0\nYour Kubernetes control-plane has initialized successfully!\n").is_empty());
    }

    #[test]
    fn verbose_phase_error_takes_its_cause_from_the_line_above() {
        let text = "[kubelet-check] It seems like the kubelet isn't running or healthy.\n[kubelet-check] The HTTP call equal to 'curl -sSL http://localhost:10248/healthz' failed with error: Get http://localhost:10248/healthz: dial tcp [::1]:10248: connect: connection refused.\n\nUnfortunately, an error has occurred:\n        timed out waiting for the condition\n\nThis error is likely caused by:\n        - The kubelet is not running\ntimed out waiting for the condition\nerror execution phase kubelet-start\nk8s.io/kubernetes/cmd/kubeadm/app/cmd/phases/workflow.(*Runner).Run.func1\n        /workspace/src/k8s.io/kubernetes/cmd/kubeadm/app/cmd/phases/workflow/runner.go:237\n";
        let f = run_log("kubeadm-phase-failed", text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message
                .contains("phase kubelet-start: timed out waiting for the condition"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message.contains("not running or healthy"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn phase_error_parts() {
        assert_eq!(
            phase_error("error execution phase control-plane-join/etcd: error creating local etcd"),
            Some(("control-plane-join/etcd", "error creating local etcd"))
        );
        assert_eq!(phase_error("no phase here"), None);
    }
}
#[cfg(test)]
mod ansible_tests {
    use crate::rules::testutil::{run_log, run_rule};

    const KUBESPRAY: &str = r#"TASK [kubernetes/kubeadm : Join to cluster] ****************************
fatal: [node-3]: FAILED! => {"attempts": 3, "changed": true, "cmd": ["timeout", "-k", "120s", "120s", "/usr/local/bin/kubeadm", "join", "--config", "/etc/kubernetes/kubeadm-client.conf"], "delta": "0:02:00.007021", "msg": "non-zero return code", "rc": 124, "stderr": "\t[WARNING DirAvailable--etc-kubernetes-manifests]: /etc/kubernetes/manifests is not empty", "stdout": "[preflight] Running pre-flight checks", "stdout_lines": ["[preflight] Running pre-flight checks"]}
fatal: [node-4]: FAILED! => {"attempts": 3, "changed": true, "cmd": ["timeout", "-k", "120s", "120s", "/usr/local/bin/kubeadm", "join", "--config", "/etc/kubernetes/kubeadm-client.conf"], "delta": "0:02:00.006311", "msg": "non-zero return code", "rc": 124, "stderr": "\t[WARNING DirAvailable--etc-kubernetes-manifests]: /etc/kubernetes/manifests is not empty", "stdout": "[preflight] Running pre-flight checks", "stdout_lines": ["[preflight] Running pre-flight checks"]}
"#;

    #[test]
    fn a_kubeadm_join_killed_by_timeout_in_an_ansible_run_is_an_error_naming_the_hosts() {
        for f in [
            run_log("kubeadm-phase-failed", KUBESPRAY),
            run_rule("kubeadm-phase-failed", KUBESPRAY),
        ] {
            assert_eq!(f.len(), 1, "{f:#?}");
            assert_eq!(f[0].severity, crate::Severity::Error);
            assert!(f[0].message.contains("node-3, node-4"), "{}", f[0].message);
            assert!(f[0].message.contains("exit 124"), "{}", f[0].message);
            assert!(f[0].message.contains("discovery"), "{}", f[0].message);
        }
    }

    /// Red-team round 3 (13): a join rescued or ignored by the playbook is not this rule's.
    #[test]
    fn a_rescued_or_ignored_kubeadm_failure_is_not_an_error() {
        let ignored = KUBESPRAY.replacen("\nfatal: [node-4]", "\n...ignoring\nfatal: [node-4]", 1);
        let f = run_log("kubeadm-phase-failed", &ignored);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("node-4") && !f[0].message.contains("node-3"));
        let recap = format!(
            "{KUBESPRAY}\nPLAY RECAP ****\nnode-3 : ok=10 changed=1 unreachable=0 failed=0 rescued=1\nnode-4 : ok=10 changed=1 unreachable=0 failed=0 rescued=1\n"
        );
        assert!(run_log("kubeadm-phase-failed", &recap).is_empty());
    }

    /// Red-team round 3 (13): the token failure inside a rescued task's result is past.
    #[test]
    fn a_token_failure_in_a_rescued_task_is_info() {
        let text = r#"TASK [join : Join worker to the cluster] ****
fatal: [node3]: FAILED! => {"changed": true, "cmd": ["kubeadm", "join", "10.0.0.10:6443"], "rc": 1, "stderr": "error execution phase preflight: couldn't validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\""}

TASK [join : Join worker to the cluster with the fresh token] ****
changed: [node3]

PLAY RECAP ****
node3                      : ok=41   changed=5    unreachable=0    failed=0    skipped=8    rescued=1    ignored=0
"#;
        for rule in ["join-token-invalid", "kubeadm-phase-failed"] {
            let f = run_rule(rule, text);
            assert!(
                f.iter().all(|f| f.severity <= crate::Severity::Info),
                "{rule}: {f:#?}"
            );
        }
        let failed = text.replace("failed=0    skipped", "failed=1    skipped");
        assert!(
            run_rule("join-token-invalid", &failed)
                .iter()
                .any(|f| f.severity == crate::Severity::Error)
        );
    }
}
