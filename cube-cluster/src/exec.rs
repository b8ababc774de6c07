//! Exec credential plugins run by this crate, bounded: client-go's `ExecCredential` protocol
//! (`k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go`, types in
//! `k8s.io/client-go/pkg/apis/clientauthentication/{v1,v1beta1}`) with a deadline and a size
//! bound on what the plugin writes.
//!
//! kube-client runs a plugin with `Command::output()`: no deadline and no bound, so a plugin
//! that never exits hangs the program and one that writes without end grows its memory until
//! the system stops it (fresh-user F19, F20). Here the plugin is run once, when the client is
//! built ([`crate::client::kube_config`]), and its credential handed to kube as a plain token or
//! client certificate:
//!
//! - the command gets the caller's environment plus `exec.env`, and `KUBERNETES_EXEC_INFO`:
//!   `{"kind":"ExecCredential","apiVersion":<exec.apiVersion>,"spec":{"interactive":false}}`,
//!   with `spec.cluster` (server, `tls-server-name`, `insecure-skip-tls-verify`,
//!   `certificate-authority-data`, `proxy-url`) when `provideClusterInfo` is set;
//! - it is never interactive: its stdin is empty (the programs read `--snapshot -` from theirs),
//!   so `interactiveMode: Always` is refused as client-go refuses it without a terminal
//!   (`exec plugin cannot support interactive mode: standard input is not a terminal`);
//! - it must end within the timeout ([`ExecLimits::timeout`], the request timeout of the client
//!   options) or it is killed; its stdout may hold at most [`ExecLimits::max_output_bytes`]
//!   (the `referenced-file-bytes` limit: a credential is a file the kubeconfig names, in
//!   effect) or it is killed; its stderr is kept up to [`MAX_STDERR_BYTES`] and shown only
//!   when the plugin failed, redacted, escaped and cut short;
//! - the answer is checked as client-go checks it: JSON (or YAML) `ExecCredential` of the
//!   configured `apiVersion`, a `status` with a `token` or both `clientCertificateData` and
//!   `clientKeyData`.
//!
//! Nothing the plugin writes is printed unredacted: the credential is held in [`Secret`]s and
//! every message quotes only redacted, escaped text.

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cube_model::redact::Secret;

use crate::kubeconfig::ExecConfig;

/// Most bytes of a plugin's stderr kept for a failure message (the rest is read and dropped).
pub const MAX_STDERR_BYTES: usize = 64 << 10;

/// Bounds on one plugin run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExecLimits {
    /// The plugin must exit within this time (it is killed after).
    pub timeout: Duration,
    /// Most bytes the plugin may write to stdout (it is killed past them).
    pub max_output_bytes: u64,
}

impl Default for ExecLimits {
    fn default() -> Self {
        let limits = cube_model::Limits::default();
        ExecLimits {
            timeout: limits.request_timeout,
            max_output_bytes: limits.max_referenced_file_bytes,
        }
    }
}

/// The cluster a plugin may be told about (`provideClusterInfo`): client-go's
/// `clientauthentication.Cluster`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecClusterInfo {
    /// The server URL.
    pub server: String,
    /// `tls-server-name`.
    pub tls_server_name: Option<String>,
    /// `insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// The CA bundle (PEM), sent base64-encoded as `certificate-authority-data`.
    pub ca_pem: Option<Vec<u8>>,
    /// `proxy-url`.
    pub proxy_url: Option<String>,
}

/// What a plugin returned (client-go's `ExecCredentialStatus`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExecCredential {
    /// `status.token`.
    pub token: Option<Secret<String>>,
    /// `status.clientCertificateData` (PEM).
    pub client_certificate_pem: Option<Secret<String>>,
    /// `status.clientKeyData` (PEM).
    pub client_key_pem: Option<Secret<String>>,
    /// `status.expirationTimestamp` as written (RFC 3339), when given.
    pub expiration: Option<String>,
}

/// Why a plugin gave no credential. Messages name the command (never its arguments or
/// environment, which may hold secrets) and quote the plugin's output only redacted and
/// escaped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExecError {
    /// The command could not be started (not found, not executable).
    #[error("exec plugin {command:?} could not be started: {reason}{}", hint.as_deref().map(|h| format!(" ({h})")).unwrap_or_default())]
    Start {
        /// The command.
        command: String,
        /// The system's reason.
        reason: String,
        /// `installHint` of the kubeconfig, when the command was not found.
        hint: Option<String>,
    },
    /// `interactiveMode: Always` without a terminal to interact with.
    #[error(
        "exec plugin {command:?} cannot support interactive mode: standard input is not a terminal (interactiveMode: Always; this program never hands its input to a plugin)"
    )]
    Interactive {
        /// The command.
        command: String,
    },
    /// The plugin did not exit within the timeout; it was killed.
    #[error(
        "exec plugin {command:?} did not finish within {} s and was stopped; {}",
        after.as_secs(),
        cube_model::Limit::RequestTimeoutSecs.how_to_raise()
    )]
    Timeout {
        /// The command.
        command: String,
        /// The timeout.
        after: Duration,
    },
    /// The plugin wrote more than the output bound; it was killed.
    #[error(
        "exec plugin {command:?} wrote more than {limit} bytes to its standard output and was stopped; {}",
        cube_model::Limit::ReferencedFileBytes.how_to_raise()
    )]
    OutputTooLarge {
        /// The command.
        command: String,
        /// The bound, bytes.
        limit: u64,
    },
    /// The plugin exited with a failure.
    #[error("exec plugin {command:?} failed ({status}){}", if stderr.is_empty() { String::new() } else { format!(": {stderr}") })]
    Failed {
        /// The command.
        command: String,
        /// `exit status 1`, `killed by signal 9`.
        status: String,
        /// The end of its stderr, redacted and escaped.
        stderr: String,
    },
    /// The plugin exited 0 but its answer is not a usable `ExecCredential`.
    #[error("exec plugin {command:?} returned no usable credential: {reason}")]
    InvalidOutput {
        /// The command.
        command: String,
        /// client-go's words where it has them (`exec plugin didn't return a status field`).
        reason: String,
    },
}

impl ExecError {
    /// The bound of the [`cube_model::Limits`] policy this failure hit (`request-timeout-secs`
    /// for [`ExecError::Timeout`], `referenced-file-bytes` for [`ExecError::OutputTooLarge`]).
    pub fn limit_exceeded(&self) -> Option<cube_model::limits::LimitExceeded> {
        let (limit, command, max) = match self {
            ExecError::Timeout { command, after } => (
                cube_model::Limit::RequestTimeoutSecs,
                command,
                after.as_secs(),
            ),
            ExecError::OutputTooLarge { command, limit } => {
                (cube_model::Limit::ReferencedFileBytes, command, *limit)
            }
            _ => return None,
        };
        let mut hit =
            cube_model::Limits::default().exceeded(limit, format!("exec plugin {command}"), None);
        hit.max = max;
        Some(hit)
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireCredential {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    status: Option<WireStatus>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireStatus {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    client_certificate_data: Option<String>,
    #[serde(default)]
    client_key_data: Option<String>,
    #[serde(default)]
    expiration_timestamp: Option<String>,
}

/// `KUBERNETES_EXEC_INFO` for a run (see the module docs).
fn exec_info(exec: &ExecConfig, cluster: Option<&ExecClusterInfo>) -> String {
    use base64::Engine as _;
    let mut spec = serde_json::json!({ "interactive": false });
    if exec.provide_cluster_info == Some(true)
        && let Some(c) = cluster
    {
        let mut m = serde_json::Map::new();
        m.insert("server".into(), c.server.clone().into());
        if let Some(n) = &c.tls_server_name {
            m.insert("tls-server-name".into(), n.clone().into());
        }
        if c.insecure_skip_tls_verify {
            m.insert("insecure-skip-tls-verify".into(), true.into());
        }
        if let Some(ca) = &c.ca_pem {
            m.insert(
                "certificate-authority-data".into(),
                base64::engine::general_purpose::STANDARD.encode(ca).into(),
            );
        }
        if let Some(p) = &c.proxy_url {
            m.insert("proxy-url".into(), p.clone().into());
        }
        spec["cluster"] = serde_json::Value::Object(m);
    }
    serde_json::json!({
        "kind": "ExecCredential",
        "apiVersion": exec.api_version,
        "spec": spec,
    })
    .to_string()
}

/// Reads `r` to its end keeping at most `max` bytes; `Err(())` as soon as more arrive (the
/// pipe is then dropped: a plugin writing without end gets `SIGPIPE`).
fn read_bounded(mut r: impl Read, max: u64) -> Result<Vec<u8>, ()> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => {
                if (out.len() + n) as u64 > max {
                    return Err(());
                }
                out.extend_from_slice(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Ok(out),
        }
    }
}

/// Reads `r` to its end keeping the first [`MAX_STDERR_BYTES`].
fn read_head(mut r: impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return out,
            Ok(n) => {
                let room = MAX_STDERR_BYTES.saturating_sub(out.len());
                out.extend_from_slice(&buf[..n.min(room)]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return out,
        }
    }
}

enum Piece {
    Stdout(Result<Vec<u8>, ()>),
    Stderr(Vec<u8>),
}

/// Runs `exec` once within `limits` and returns its credential (see the module docs). Blocks
/// the calling thread for at most `limits.timeout` (plus the time to stop the plugin).
///
/// # Errors
/// [`ExecError`]: not started, refused interactive mode, timeout, output over the bound,
/// failed, or an answer that is not a usable credential.
pub fn run_exec_plugin(
    exec: &ExecConfig,
    cluster: Option<&ExecClusterInfo>,
    limits: &ExecLimits,
) -> Result<ExecCredential, ExecError> {
    let command = exec.command.clone();
    if exec.interactive_mode.as_deref() == Some("Always") {
        return Err(ExecError::Interactive { command });
    }
    let mut cmd = Command::new(&exec.command);
    if let Some(args) = &exec.args {
        cmd.args(args.iter().map(|a| a.expose().to_string()));
    }
    for v in exec.env.iter().flatten() {
        cmd.env(&v.name, v.value.expose());
    }
    cmd.env("KUBERNETES_EXEC_INFO", exec_info(exec, cluster))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| ExecError::Start {
        command: command.clone(),
        reason: e.to_string(),
        hint: (e.kind() == std::io::ErrorKind::NotFound)
            .then(|| exec.install_hint.clone())
            .flatten()
            .map(|h| crate::http::sanitize_server_text(&h)),
    })?;
    let (tx, rx) = mpsc::channel::<Piece>();
    if let Some(out) = child.stdout.take() {
        let tx = tx.clone();
        let max = limits.max_output_bytes;
        std::thread::spawn(move || {
            let _ = tx.send(Piece::Stdout(read_bounded(out, max)));
        });
    }
    if let Some(err) = child.stderr.take() {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let _ = tx.send(Piece::Stderr(read_head(err)));
        });
    }
    drop(tx);
    let start = Instant::now();
    let stop = |child: &mut std::process::Child| {
        let _ = child.kill();
        let _ = child.wait();
    };
    let mut stdout: Option<Vec<u8>> = None;
    let mut stderr: Option<Vec<u8>> = None;
    let mut status = None;
    // Until the plugin exited and both pipes are read (a plugin's child may hold a pipe open
    // after the plugin exited: the deadline covers that too).
    while status.is_none() || stdout.is_none() || stderr.is_none() {
        let left = limits.timeout.saturating_sub(start.elapsed());
        if left.is_zero() {
            stop(&mut child);
            return Err(ExecError::Timeout {
                command,
                after: limits.timeout,
            });
        }
        if status.is_none() {
            status = child.try_wait().ok().flatten();
        }
        match rx.recv_timeout(left.min(Duration::from_millis(20))) {
            Ok(Piece::Stdout(Ok(b))) => stdout = Some(b),
            Ok(Piece::Stdout(Err(()))) => {
                stop(&mut child);
                return Err(ExecError::OutputTooLarge {
                    command,
                    limit: limits.max_output_bytes,
                });
            }
            Ok(Piece::Stderr(b)) => stderr = Some(b),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // both readers are done
                stdout.get_or_insert_with(Vec::new);
                stderr.get_or_insert_with(Vec::new);
                if status.is_none() {
                    std::thread::sleep(left.min(Duration::from_millis(20)));
                }
            }
        }
    }
    let (Some(status), Some(stdout), Some(stderr)) = (status, stdout, stderr) else {
        return Err(ExecError::Timeout {
            command,
            after: limits.timeout,
        });
    };
    // what the plugin may echo: its answer's secrets, its arguments and its environment values
    let mut known = cube_model::redact::secret_values(&String::from_utf8_lossy(&stdout));
    known.extend(
        exec.args
            .iter()
            .flatten()
            .map(|a| a.expose().to_string())
            .chain(
                exec.env
                    .iter()
                    .flatten()
                    .map(|v| v.value.expose().to_string()),
            )
            .filter(|v| v.len() >= cube_model::redact::MIN_KNOWN_SECRET),
    );
    if !status.success() {
        let text = String::from_utf8_lossy(&stderr);
        let text = cube_model::redact::redact_known(&text, &known);
        // the end of stderr says why; escaped and cut short like any server text
        let tail: String = {
            let t = text.trim();
            let n = t.chars().count();
            t.chars()
                .skip(n.saturating_sub(crate::http::MAX_SERVER_TEXT_CHARS))
                .collect()
        };
        return Err(ExecError::Failed {
            command,
            status: status_text(&status),
            stderr: crate::http::sanitize_server_text(&tail),
        });
    }
    parse_credential(&command, &exec.api_version, &stdout)
}

fn status_text(status: &std::process::ExitStatus) -> String {
    match status.code() {
        Some(c) => format!("exit status {c}"),
        None => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt as _;
                if let Some(s) = status.signal() {
                    return format!("killed by signal {s}");
                }
            }
            "killed".to_string()
        }
    }
}

/// Checks a plugin's answer as client-go does (see the module docs).
fn parse_credential(
    command: &str,
    api_version: &str,
    stdout: &[u8],
) -> Result<ExecCredential, ExecError> {
    let invalid = |reason: String| ExecError::InvalidOutput {
        command: command.to_owned(),
        reason,
    };
    let text = String::from_utf8_lossy(stdout);
    if text.trim().is_empty() {
        return Err(invalid(
            "the plugin wrote nothing to its standard output".into(),
        ));
    }
    // client-go decodes with a YAML-tolerant codec; JSON first (the usual answer), then YAML
    let wire: WireCredential = match serde_json::from_str(&text) {
        Ok(w) => w,
        Err(json) => cube_model::yaml::from_str(
            &text,
            &cube_model::Limits::default(),
            serde_saphyr::options! { with_snippet: false },
        )
        .map_err(|_| {
            // the parser's place only: its message may quote the credential
            invalid(format!(
                "its standard output is not an ExecCredential ({})",
                crate::http::json_error_text(&json)
            ))
        })?,
    };
    if !wire.kind.is_empty() && wire.kind != "ExecCredential" {
        return Err(invalid(format!(
            "it returned kind {:?}, not ExecCredential",
            crate::http::sanitize_server_text(&wire.kind)
        )));
    }
    if wire.api_version != api_version {
        return Err(invalid(format!(
            "exec plugin is configured to use API version {api_version}, plugin returned version {}",
            crate::http::sanitize_server_text(&wire.api_version)
        )));
    }
    let Some(status) = wire.status else {
        return Err(invalid("exec plugin didn't return a status field".into()));
    };
    let nonempty = |s: Option<String>| s.filter(|v| !v.is_empty());
    let token = nonempty(status.token);
    let cert = nonempty(status.client_certificate_data);
    let key = nonempty(status.client_key_data);
    if cert.is_some() != key.is_some() {
        return Err(invalid(
            "exec plugin returned only certResp or keyResp".into(),
        ));
    }
    if token.is_none() && cert.is_none() {
        return Err(invalid(
            "exec plugin didn't return a token or cert/key pair".into(),
        ));
    }
    Ok(ExecCredential {
        token: token.map(Secret::new),
        client_certificate_pem: cert.map(Secret::new),
        client_key_pem: key.map(Secret::new),
        expiration: status
            .expiration_timestamp
            .map(|t| crate::http::sanitize_server_text(&t)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked_like_client_go() {
        let v1 = "client.authentication.k8s.io/v1";
        let ok = parse_credential(
            "p",
            v1,
            br#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"token":"tok-s3cr3t","expirationTimestamp":"2030-01-01T00:00:00Z"}}"#,
        )
        .expect("token");
        assert_eq!(
            ok.token.as_ref().map(|t| t.expose().as_str()),
            Some("tok-s3cr3t")
        );
        assert!(!format!("{ok:?}").contains("tok-s3cr3t"));
        let yaml = parse_credential(
            "p",
            v1,
            b"kind: ExecCredential\napiVersion: client.authentication.k8s.io/v1\nstatus:\n  clientCertificateData: C\n  clientKeyData: K\n",
        )
        .expect("yaml");
        assert!(yaml.client_key_pem.is_some());
        for (body, says) in [
            (&br#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","status":{"token":"t"}}"#[..], "plugin returned version client.authentication.k8s.io/v1beta1"),
            (br#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1"}"#, "didn't return a status field"),
            (br#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{}}"#, "didn't return a token or cert/key pair"),
            (br#"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","status":{"clientKeyData":"k"}}"#, "only certResp or keyResp"),
            (b"token: [unclosed tok-s3cr3t", "not an ExecCredential"),
            (b"", "wrote nothing"),
        ] {
            let e = parse_credential("p", v1, body).expect_err("invalid").to_string();
            assert!(e.contains(says), "{e}");
            assert!(!e.contains("tok-s3cr3t"), "{e}");
        }
    }
}
