//! Our own typed kubeconfig model: load, merge, select, validate, rewrite and inline, following
//! client-go's `tools/clientcmd` (loader, merge, client_config, validation) exactly.
//!
//! * [`Kubeconfig::from_yaml`] / [`Kubeconfig::read`] load one file; relative paths in each
//!   stanza are resolved against that file's directory (client-go's `LocationOfOrigin`).
//! * [`Kubeconfig::read_list`] / [`Kubeconfig::from_kubeconfig_env`] load a `KUBECONFIG`-style
//!   list and [`Kubeconfig::merge`] it: the first file that defines a map entry wins **as a
//!   whole**; scalars (`current-context`) take the first non-empty value; duplicate paths and
//!   missing files are skipped.
//! * [`Kubeconfig::select`] picks a context (override, else `current-context`), validates it and
//!   returns a [`Selection`] with the material needed to build a client; errors use client-go's
//!   texts and are aggregated as `invalid configuration: [e1, e2]`.
//! * [`Kubeconfig::check`] / [`Kubeconfig::check_all`] return every [`Problem`] without failing,
//!   for reports (more checks than client-go: dangling references with a near-match suggestion,
//!   bad base64, credentials over plain http, exec `v1alpha1`, plugins not run, CA key as client
//!   identity, Rancher-proxied endpoints).
//! * [`Kubeconfig::rewrite_server`] points a cluster at another address while TLS keeps verifying
//!   the original name (`tls-server-name`); [`Kubeconfig::inline`] makes a self-contained file.
//!
//! Secrets (tokens, passwords, client key and certificate data, exec env values, auth-provider
//! config) are held in [`Secret`], whose `Debug`/`Display` print `<redacted>`.

use std::cell::Cell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// A secret string (token, password, key or certificate data). `Debug` and `Display` print
/// `<redacted>`; the value is only reachable through [`Secret::expose`] and serialization
/// (which writes it back into a kubeconfig on purpose).
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    /// The secret value. Never log it.
    pub fn expose(&self) -> &str {
        &self.0
    }
    /// Whether the value is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Self {
        Self(s.to_string())
    }
}

/// Replaces every run of 20 or more token-like characters (`[A-Za-z0-9+/=_.:-]`) by
/// `<redacted>`, so that parser messages and foreign error texts can be shown without leaking a
/// token or base64 key material. A run that is an identifier of words (a flag such as
/// `--max-kubeconfig-bytes`, a field path such as `Limits::max_kubeconfig_bytes`: words of
/// lowercase letters, each at most 20 long and optionally capitalised, joined by `-`, `_`, `.`
/// or `::`, no digit, `/`, `+` or `=`) is kept: no token, key or password the server or a
/// kubeconfig could hold has that shape of many short dictionary-like words and no digit, and
/// the message would otherwise hide how to raise the limit it reports; so is such an identifier
/// set to a placeholder (`objects-per-snapshot=N`: the words, `=`, then 1 to 8 capitals).
///
/// The command line of a failed exec plugin is removed first: kube-client's `AuthExecRun`
/// (`auth exec command '{cmd}' failed with status ...`, kube-client `src/client/auth/mod.rs`)
/// prints `{cmd}` as the `Debug` of a `std::process::Command`, which holds every environment
/// variable the kubeconfig's `exec.env` sets and every argument, in quotes; a secret there is not
/// always one long run (fresh-user report F18: `AZURE_CLIENT_SECRET="SEKRITenvAzure"`). It is
/// replaced by `<command, arguments and environment hidden>`; the exit status is kept.
pub fn redact_text(text: &str) -> String {
    let hidden;
    let text = if text.contains("auth exec command '") {
        hidden = hide_exec_command_lines(text);
        hidden.as_str()
    } else {
        text
    };
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.chars().count() >= 20
            && !is_identifier_of_words(run)
            && !is_object_path(run)
            && !is_setting_placeholder(run)
        {
            out.push_str("<redacted>");
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || "+/=_.:-".contains(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `text` with the command of each `auth exec command '...' failed with status` replaced (see
/// [`redact_text`]); a command without its closing `' failed with status` hides the rest of
/// the text.
fn hide_exec_command_lines(text: &str) -> String {
    const OPEN: &str = "auth exec command '";
    const CLOSE: &str = "' failed with status";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at + OPEN.len()]);
        out.push_str("<command, arguments and environment hidden>");
        let after = &rest[at + OPEN.len()..];
        match after.find(CLOSE) {
            Some(end) => rest = &after[end..],
            None => {
                out.push('\'');
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A flag or field path made of short words (see [`redact_text`]): at least two words, each of
/// ASCII letters, lowercase after an optional capital, at most 20 long, separated by `-`, `_`,
/// `.` or `:`; leading dashes and one trailing `:` allowed.
fn is_identifier_of_words(run: &str) -> bool {
    let body = run.trim_start_matches('-');
    let body = body.strip_suffix(':').unwrap_or(body);
    if body.is_empty() || body.contains(|c: char| c.is_ascii_digit() || "+/=".contains(c)) {
        return false;
    }
    let words: Vec<&str> = body
        .split(['-', '_', '.', ':'])
        .filter(|w| !w.is_empty())
        .collect();
    words.len() >= 2
        && words.iter().all(|w| {
            let mut chars = w.chars();
            let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
            first_ok && w.len() <= 20 && chars.all(|c| c.is_ascii_lowercase())
        })
}

/// A setting written with a placeholder value, as the hint of a hit limit prints it
/// ([`cube_model::Limit::how_to_raise`]: `objects-per-snapshot=N`): an identifier of words (see
/// [`is_identifier_of_words`]), `=`, then 1 to 8 uppercase ASCII letters. The value is what a
/// secret would be, and a placeholder of at most 8 capitals carries none; any other value
/// (digits, lowercase, longer) leaves the run to the length rule, so `client-secret=...` and
/// `bootstrap-token=...` stay hidden (K11: the hint read `raise it with --limit <redacted>`).
fn is_setting_placeholder(run: &str) -> bool {
    run.split_once('=').is_some_and(|(key, value)| {
        is_identifier_of_words(key)
            && (1..=8).contains(&value.len())
            && value.chars().all(|c| c.is_ascii_uppercase())
    })
}

/// An object reference or API path (see [`redact_text`]): `Namespace/vision-train`,
/// `ResourceQuota/team-a/gpu`, `/api/v1/namespaces/kube-system/pods:`. Two or more `/`
/// segments, each a Kind (ASCII letters, capitalised) or a Kubernetes name (lowercase letters,
/// digits, `-` and `.`) whose words between `-` and `.` are at most 20 long and, from 12
/// characters on, not letters and digits mixed (a hex or base32 blob); a bootstrap token
/// (`[a-z0-9]{6}.[a-z0-9]{16}`) is never a segment. Such runs were hidden as tokens, so an error
/// never said which object or list failed (`reading <redacted> failed`).
fn is_object_path(run: &str) -> bool {
    let body = run.strip_suffix(':').unwrap_or(run);
    if !body.contains('/') {
        return false;
    }
    let segments: Vec<&str> = body.split('/').filter(|s| !s.is_empty()).collect();
    let kind = |s: &str| {
        s.len() <= 40
            && s.starts_with(|c: char| c.is_ascii_uppercase())
            && s.chars().all(|c| c.is_ascii_alphabetic())
    };
    let bootstrap = |s: &str| {
        s.len() == 23
            && s.as_bytes()[6] == b'.'
            && s.chars()
                .enumerate()
                .all(|(i, c)| i == 6 || c.is_ascii_lowercase() || c.is_ascii_digit())
    };
    let name = |s: &str| {
        s.len() <= 253
            && !bootstrap(s)
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
            && s.split(['-', '.']).all(|w| {
                let mixed = w.chars().any(|c| c.is_ascii_digit())
                    && w.chars().any(|c| c.is_ascii_lowercase());
                w.len() <= 20 && !(w.len() >= 12 && mixed)
            })
    };
    segments.len() >= 2 && segments.iter().all(|s| kind(s) || name(s))
}

/// Deserializes `null` (a key with no value, common in hand-edited files) as the default.
fn null_default<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A parser message reduced to its first line (the parser appends a source snippet, which may
/// show a secret), with quoted values and long token-like runs redacted.
fn parse_message(raw: &str) -> String {
    let first = raw.lines().next().unwrap_or_default();
    let mut out = String::new();
    let mut in_quote = false;
    for c in first.chars() {
        if c == '"' {
            if in_quote {
                out.push_str("...");
            }
            in_quote = !in_quote;
            out.push(c);
        } else if !in_quote {
            out.push(c);
        }
    }
    redact_text(&out)
}

/// A kubeconfig file (`kind: Config`, `apiVersion: v1`), with the v1 keys of client-go's
/// `api/v1/types.go`. Unknown keys are ignored, like client-go.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Kubeconfig {
    /// `apiVersion` (normally `v1`).
    #[serde(
        rename = "apiVersion",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub api_version: Option<String>,
    /// `kind` (normally `Config`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `preferences` (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferences: Option<serde_json::Value>,
    /// `clusters[]`.
    #[serde(default, deserialize_with = "null_default")]
    pub clusters: Vec<NamedCluster>,
    /// `users[]`.
    #[serde(default, deserialize_with = "null_default")]
    pub users: Vec<NamedUser>,
    /// `contexts[]`.
    #[serde(default, deserialize_with = "null_default")]
    pub contexts: Vec<NamedContext>,
    /// `current-context`; empty or absent = none.
    #[serde(
        rename = "current-context",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub current_context: Option<String>,
    /// `extensions[]` (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<serde_json::Value>,
}

/// `clusters[]` entry.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct NamedCluster {
    /// Name referenced by contexts.
    pub name: String,
    /// The cluster stanza.
    #[serde(default, deserialize_with = "null_default")]
    pub cluster: Cluster,
    /// File this entry came from (client-go `LocationOfOrigin`); not serialized.
    #[serde(skip)]
    pub origin: Option<PathBuf>,
}

/// `users[]` entry.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct NamedUser {
    /// Name referenced by contexts.
    pub name: String,
    /// The user stanza.
    #[serde(default, deserialize_with = "null_default")]
    pub user: User,
    /// File this entry came from; not serialized.
    #[serde(skip)]
    pub origin: Option<PathBuf>,
}

/// `contexts[]` entry.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct NamedContext {
    /// Context name.
    pub name: String,
    /// The context stanza.
    #[serde(default, deserialize_with = "null_default")]
    pub context: Context,
    /// File this entry came from; not serialized.
    #[serde(skip)]
    pub origin: Option<PathBuf>,
}

/// A cluster stanza.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub struct Cluster {
    /// API server URL (`https://host:port[/prefix]`), or `host[:port]` without scheme.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// Name used for SNI and certificate verification instead of the server's host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_server_name: Option<String>,
    /// Skip server certificate verification.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub insecure_skip_tls_verify: Option<bool>,
    /// Path of the CA bundle (resolved against the defining file's directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate_authority: Option<String>,
    /// Base64 of the PEM CA bundle; wins over `certificate-authority`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate_authority_data: Option<String>,
    /// Per-cluster proxy (`http`, `https` or `socks5`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proxy_url: Option<String>,
    /// Disable response compression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disable_compression: Option<bool>,
    /// Extensions (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<serde_json::Value>,
}

/// A user (AuthInfo) stanza.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct User {
    /// Path of the client certificate.
    #[serde(
        rename = "client-certificate",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_certificate: Option<String>,
    /// Base64 of the PEM client certificate.
    #[serde(
        rename = "client-certificate-data",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_certificate_data: Option<Secret>,
    /// Path of the client key.
    #[serde(
        rename = "client-key",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_key: Option<String>,
    /// Base64 of the PEM client key.
    #[serde(
        rename = "client-key-data",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub client_key_data: Option<Secret>,
    /// Bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<Secret>,
    /// File holding a bearer token (re-read by client-go; wins over `token` at request time).
    #[serde(rename = "tokenFile", default, skip_serializing_if = "Option::is_none")]
    pub token_file: Option<String>,
    /// Impersonated user.
    #[serde(rename = "as", default, skip_serializing_if = "Option::is_none")]
    pub impersonate: Option<String>,
    /// Impersonated UID.
    #[serde(rename = "as-uid", default, skip_serializing_if = "Option::is_none")]
    pub impersonate_uid: Option<String>,
    /// Impersonated groups.
    #[serde(rename = "as-groups", default, skip_serializing_if = "Option::is_none")]
    pub impersonate_groups: Option<Vec<String>>,
    /// Impersonated user extras (kept verbatim).
    #[serde(
        rename = "as-user-extra",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub impersonate_user_extra: Option<serde_json::Value>,
    /// Basic-auth user name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    /// Basic-auth password.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<Secret>,
    /// Legacy auth-provider plugin (gcp, azure, oidc).
    #[serde(
        rename = "auth-provider",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub auth_provider: Option<AuthProvider>,
    /// Exec credential plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<ExecConfig>,
    /// Extensions (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<serde_json::Value>,
}

/// `auth-provider` stanza. The config map holds refresh tokens and client secrets, so every
/// value is a [`Secret`].
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct AuthProvider {
    /// Provider name (`oidc`, `gcp`, `azure`).
    #[serde(default)]
    pub name: String,
    /// Provider configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<std::collections::BTreeMap<String, Secret>>,
}

/// `exec` stanza (client-go `ExecConfig`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExecConfig {
    /// Command to run (resolved against the file's directory only if it has a path separator).
    #[serde(default)]
    pub command: String,
    /// Arguments (may carry secrets in the wild; shown only as a count).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<Secret>>,
    /// Environment for the plugin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<Vec<ExecEnvVar>>,
    /// `client.authentication.k8s.io/v1`, `v1beta1` (or the removed `v1alpha1`).
    #[serde(default)]
    pub api_version: String,
    /// Hint printed when the command is missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub install_hint: Option<String>,
    /// Pass cluster information to the plugin (`KUBERNETES_EXEC_INFO`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provide_cluster_info: Option<bool>,
    /// `Never`, `IfAvailable` or `Always`; required for `v1`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interactive_mode: Option<String>,
}

/// One `exec.env` entry; the value is secret (often a password or key).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ExecEnvVar {
    /// Variable name.
    pub name: String,
    /// Variable value.
    #[serde(default)]
    pub value: Secret,
}

/// A context stanza.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Context {
    /// Cluster name.
    #[serde(default, deserialize_with = "null_default")]
    pub cluster: String,
    /// User name (empty = no credentials).
    #[serde(default, deserialize_with = "null_default")]
    pub user: String,
    /// Default namespace (empty = `default`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Extensions (kept verbatim).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<serde_json::Value>,
}

/// How bad a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// Informational (for example a Rancher-proxied endpoint).
    Info,
    /// Loadable, but risky or surprising (insecure TLS, plugin not run, credentials dropped).
    Warning,
    /// client-go refuses this configuration, or the connection cannot work.
    Error,
}

/// What a [`Problem`] is about. Ids ([`ProblemKind::id`]) are stable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ProblemKind {
    /// Nothing to select: no contexts, clusters or users at all.
    EmptyConfig,
    /// `current-context` is empty and no context was requested.
    NoCurrentContext,
    /// `current-context` names a context that does not exist.
    CurrentContextNotFound,
    /// A context names a cluster that does not exist (kubectl falls back to localhost:8080).
    DanglingCluster,
    /// A context names a user that does not exist.
    DanglingUser,
    /// The cluster has no `server`.
    NoServer,
    /// The `server` cannot be parsed.
    BadServerUrl,
    /// A `*-data` field is not valid base64 or does not decode to PEM.
    BadBase64,
    /// Both `certificate-authority-data` and `certificate-authority`.
    CaDataAndFile,
    /// `insecure-skip-tls-verify` together with a CA (client-go refuses it).
    InsecureWithCa,
    /// `insecure-skip-tls-verify: true` (loadable, TLS not verified).
    InsecureSkipTlsVerify,
    /// A referenced file cannot be read.
    UnreadableFile,
    /// Both `client-certificate-data` and `client-certificate` (or key data and key file).
    ClientDataAndFile,
    /// A client certificate without key, or a key without certificate.
    IncompleteClientCert,
    /// Token and basic auth together.
    MultipleAuthMethods,
    /// `auth-provider` together with `exec`.
    AuthProviderAndExec,
    /// An exec stanza misses `command`, `apiVersion` or (for v1) `interactiveMode`.
    ExecIncomplete,
    /// Exec `apiVersion: client.authentication.k8s.io/v1alpha1`, removed in Kubernetes 1.24.
    ExecApiVersionRefused,
    /// An exec plugin that is not run because the caller did not allow plugins.
    ExecNotRun,
    /// An exec plugin that will run (the caller allowed plugins).
    ExecWillRun,
    /// A legacy auth-provider plugin (not run unless allowed).
    AuthProviderPlugin,
    /// Credentials configured for a plain `http` server: client-go does not send them.
    CredentialsOverHttp,
    /// `proxy-url` is not an `http`, `https` or `socks5` URL.
    BadProxyUrl,
    /// The user presents the cluster CA key pair (`ca.key`/`ca.crt`) as client identity.
    CaKeyAsClientIdentity,
    /// The server is a Rancher proxy (`/k8s/clusters/<id>`): connectivity, RBAC and token expiry
    /// are governed by Rancher.
    RancherProxy,
    /// The user impersonates another identity (`as`).
    Impersonation,
    /// CA or client certificate material that is not PEM, holds no certificate, or holds a
    /// certificate that does not parse.
    CertificateInvalid,
    /// A CA or client certificate past its `notAfter`.
    CertificateExpired,
    /// A CA or client certificate before its `notBefore` (often a clock behind).
    CertificateNotYetValid,
    /// Client key material that is not PEM, holds no private key, or cannot be loaded.
    KeyInvalid,
    /// The client key does not belong to the client certificate.
    KeyMismatch,
    /// `proxy-url` is set but this build has no proxy support (feature `proxy`).
    ProxyUnsupported,
    /// Once connected: the server certificate's SANs do not name the host the client verifies
    /// (`tls-server-name`, else the server URL's host). Found by `crate::import` when TLS
    /// verification is off (`insecure-skip-tls-verify`) or failed.
    ServerNameNotInCertificate,
    /// A referenced file that the [`FileReferencePolicy`] does not allow to be read.
    FileReferenceRefused,
}

impl ProblemKind {
    /// Stable kebab-case id.
    pub fn id(self) -> &'static str {
        match self {
            Self::EmptyConfig => "empty-config",
            Self::NoCurrentContext => "no-current-context",
            Self::CurrentContextNotFound => "current-context-not-found",
            Self::DanglingCluster => "dangling-cluster",
            Self::DanglingUser => "dangling-user",
            Self::NoServer => "no-server",
            Self::BadServerUrl => "bad-server-url",
            Self::BadBase64 => "bad-base64",
            Self::CaDataAndFile => "ca-data-and-file",
            Self::InsecureWithCa => "insecure-with-ca",
            Self::InsecureSkipTlsVerify => "insecure-skip-tls-verify",
            Self::UnreadableFile => "unreadable-file",
            Self::ClientDataAndFile => "client-data-and-file",
            Self::IncompleteClientCert => "incomplete-client-cert",
            Self::MultipleAuthMethods => "multiple-auth-methods",
            Self::AuthProviderAndExec => "auth-provider-and-exec",
            Self::ExecIncomplete => "exec-incomplete",
            Self::ExecApiVersionRefused => "exec-api-version-refused",
            Self::ExecNotRun => "exec-not-run",
            Self::ExecWillRun => "exec-will-run",
            Self::AuthProviderPlugin => "auth-provider-plugin",
            Self::CredentialsOverHttp => "credentials-over-http",
            Self::BadProxyUrl => "bad-proxy-url",
            Self::CaKeyAsClientIdentity => "ca-key-as-client-identity",
            Self::RancherProxy => "rancher-proxy",
            Self::Impersonation => "impersonation",
            Self::CertificateInvalid => "certificate-invalid",
            Self::CertificateExpired => "certificate-expired",
            Self::CertificateNotYetValid => "certificate-not-yet-valid",
            Self::KeyInvalid => "key-invalid",
            Self::KeyMismatch => "key-mismatch",
            Self::ProxyUnsupported => "proxy-unsupported",
            Self::ServerNameNotInCertificate => "server-name-not-in-certificate",
            Self::FileReferenceRefused => "file-reference-refused",
        }
    }
}

/// One finding about a kubeconfig. `message` uses client-go's text where client-go has one and
/// never contains a secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Problem {
    /// Severity.
    pub severity: Severity,
    /// Kind (stable id via [`ProblemKind::id`]).
    pub kind: ProblemKind,
    /// What it is about: `context "x"`, `cluster "y"`, `user "z"`.
    pub subject: String,
    /// Human text.
    pub message: String,
    /// A suggested fix, when there is an obvious one (near-match name, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// The limit hit, when the problem is one (a referenced file larger than
    /// [`cube_model::Limits::max_referenced_file_bytes`]): what, where, the limit, how to raise it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<cube_model::limits::LimitExceeded>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{sev}: {}", self.message)?;
        if let Some(s) = &self.suggestion {
            write!(f, " ({s})")?;
        }
        Ok(())
    }
}

/// The [`Problem::subject`] of problems about the file as a whole rather than one context.
pub const FILE_SUBJECT: &str = "kubeconfig";

impl Problem {
    /// Whether this problem is about the whole file ([`ProblemKind::EmptyConfig`],
    /// [`ProblemKind::NoCurrentContext`]; subject [`FILE_SUBJECT`]) rather than one context,
    /// so a report shows it once, not under every context.
    pub fn is_file_level(&self) -> bool {
        self.subject == FILE_SUBJECT
    }
}

fn problem(severity: Severity, kind: ProblemKind, subject: String, message: String) -> Problem {
    Problem {
        severity,
        kind,
        subject,
        message,
        suggestion: None,
        limit: None,
    }
}

/// The problem of a referenced file that could not be read: client-go's "unable to read ..."
/// text, and the limit when the file was larger than it.
fn unreadable_file(
    severity: Severity,
    subject: String,
    what: String,
    e: &crate::limits::FileReadError,
) -> Problem {
    let mut p = problem(
        severity,
        ProblemKind::UnreadableFile,
        subject,
        format!("{what} due to {}", read_error_text(e)),
    );
    if let crate::limits::FileReadError::TooLarge(hit) = e {
        p.limit = Some(hit.clone());
    }
    p
}

/// client-go's aggregate text: `invalid configuration: e` for one error,
/// `invalid configuration: [e1, e2]` for several (only error-severity problems count).
pub fn invalid_configuration_message(problems: &[Problem]) -> String {
    let errs: Vec<&str> = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| p.message.as_str())
        .collect();
    match errs.as_slice() {
        [] => "invalid configuration".to_string(),
        [one] => format!("invalid configuration: {one}"),
        many => format!("invalid configuration: [{}]", many.join(", ")),
    }
}

/// Whether exec and auth-provider plugins may run. Default: [`PluginPolicy::Refuse`], so an
/// imported kubeconfig never runs a command by surprise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PluginPolicy {
    /// Report plugins, never run them; the client is built without their credentials.
    #[default]
    Refuse,
    /// Run exec plugins (the caller explicitly allowed it).
    Allow,
}

/// Which files a kubeconfig may make the client read: `certificate-authority`,
/// `client-certificate`, `client-key` and `tokenFile`. client-go reads every one of them, and
/// sends a `tokenFile`'s content to the server as a bearer token and a client key's certificate
/// as the client's identity: for a kubeconfig someone else wrote (a console's upload), any
/// file the process can read (`/etc/shadow`, the console's own ServiceAccount token) would go
/// to a server that person controls.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileReferencePolicy {
    /// Read every referenced file (client-go's behaviour, for a kubeconfig the caller wrote).
    #[default]
    Allow,
    /// Read only files inside the directory of the kubeconfig file that names them, after
    /// `..` and symbolic links are resolved; a kubeconfig without a file of its own (read from
    /// text) may name none.
    OwnDirectory,
    /// Read none.
    Refuse,
}

impl FileReferencePolicy {
    /// Why `path`, named by the kubeconfig file `origin`, is not read under this policy
    /// (`None`: it is read).
    pub fn refusal(&self, path: &str, origin: Option<&Path>) -> Option<String> {
        match self {
            Self::Allow => None,
            Self::Refuse => Some(
                "file references are refused for this kubeconfig (its content would be sent to the server as a credential); embed the data (`kubectl config view --minify --flatten`) or allow file references".to_string(),
            ),
            Self::OwnDirectory => {
                let Some(dir) = origin.and_then(Path::parent) else {
                    return Some(
                        "the kubeconfig has no file of its own, so it may name no file (its content would be sent to the server as a credential); embed the data (`kubectl config view --minify --flatten`) or allow file references".to_string(),
                    );
                };
                let dir = if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                };
                // a file that does not exist is left to the read, which reports it
                let target = std::fs::canonicalize(path).ok()?;
                let inside = std::fs::canonicalize(dir).is_ok_and(|d| target.starts_with(d));
                (!inside).then(|| {
                    "it is outside the kubeconfig's own directory, and its content would be sent to the server as a credential; embed the data (`kubectl config view --minify --flatten`) or allow file references".to_string()
                })
            }
        }
    }
}

/// Options of [`Kubeconfig::select`] (the kubectl flags that affect selection).
#[derive(Debug, Clone, Default)]
pub struct SelectOptions {
    /// `--context`: a missing context is `context "<n>" does not exist`.
    pub context: Option<String>,
    /// `--cluster`: replaces the context's cluster reference.
    pub cluster: Option<String>,
    /// `--user`: replaces the context's user reference.
    pub user: Option<String>,
    /// `--server`: replaces the cluster's server and, like kubectl, drops the file's
    /// `tls-server-name` unless [`SelectOptions::tls_server_name`] is also given. To keep
    /// verifying the original name, use [`Kubeconfig::rewrite_server`] instead.
    pub server: Option<String>,
    /// `--tls-server-name`.
    pub tls_server_name: Option<String>,
    /// `--namespace`.
    pub namespace: Option<String>,
    /// Plugins policy.
    pub plugins: PluginPolicy,
    /// Which referenced files are read ([`FileReferencePolicy`]; default: all, like client-go).
    /// A refused reference is a [`ProblemKind::FileReferenceRefused`] error and nothing is read.
    pub file_references: FileReferencePolicy,
    /// Read referenced files (CA, client cert/key, tokenFile) and report unreadable ones
    /// (client-go does). Default `true` via [`SelectOptions::new`].
    pub skip_file_checks: bool,
    /// The time certificates are checked at (Unix seconds); `None` = now.
    pub now: Option<i64>,
    /// Do not parse certificate and key material (PEM, X.509, validity, key match): only its
    /// base64 shape is checked. For anonymised samples whose certificates are placeholders.
    pub skip_material_checks: bool,
    /// Largest file the kubeconfig references that is read (CA, client certificate or key,
    /// `tokenFile`), in bytes; `None` = [`crate::limits::DEFAULT_MAX_FILE_BYTES`]. Set it from a
    /// [`cube_model::Limits`] policy with [`SelectOptions::limits`]. A larger file is an
    /// [`ProblemKind::UnreadableFile`] problem whose [`Problem::limit`] names the
    /// `referenced-file-bytes` limit.
    pub max_referenced_file_bytes: Option<u64>,
}

impl SelectOptions {
    /// Defaults: current-context, plugins refused, files checked.
    pub fn new() -> Self {
        Self::default()
    }
    /// Select this context.
    #[must_use]
    pub fn context(mut self, name: impl Into<String>) -> Self {
        self.context = Some(name.into());
        self
    }
    /// Override the server (kubectl `--server` semantics).
    #[must_use]
    pub fn server(mut self, url: impl Into<String>) -> Self {
        self.server = Some(url.into());
        self
    }
    /// Override the TLS server name.
    #[must_use]
    pub fn tls_server_name(mut self, name: impl Into<String>) -> Self {
        self.tls_server_name = Some(name.into());
        self
    }
    /// Allow exec plugins to run.
    #[must_use]
    pub fn allow_plugins(mut self) -> Self {
        self.plugins = PluginPolicy::Allow;
        self
    }
    /// Do not read referenced files (pure offline shape check).
    #[must_use]
    pub fn skip_file_checks(mut self) -> Self {
        self.skip_file_checks = true;
        self
    }
    /// Do not parse certificate and key material (see [`SelectOptions::skip_material_checks`]).
    #[must_use]
    pub fn skip_material_checks(mut self) -> Self {
        self.skip_material_checks = true;
        self
    }
    /// Check certificates at this time (Unix seconds) instead of now.
    #[must_use]
    pub fn at(mut self, unix_secs: i64) -> Self {
        self.now = Some(unix_secs);
        self
    }
    /// Take the bounds of a [`cube_model::Limits`] policy: referenced files are read up to
    /// [`cube_model::Limits::max_referenced_file_bytes`].
    #[must_use]
    pub fn limits(mut self, limits: &cube_model::Limits) -> Self {
        self.max_referenced_file_bytes = Some(limits.max_referenced_file_bytes);
        self
    }
    /// The bound on a referenced file (see [`SelectOptions::max_referenced_file_bytes`]).
    fn referenced_file_limit(&self) -> u64 {
        self.max_referenced_file_bytes
            .unwrap_or(crate::limits::DEFAULT_MAX_FILE_BYTES)
    }
}

/// Credentials of the selected user, resolved (data decoded, files read).
#[derive(Debug, Clone, Default)]
pub struct Credentials {
    /// Bearer token (from `token`, or read from `tokenFile` when only that is set).
    pub token: Option<Secret>,
    /// `tokenFile` (client-go re-reads it at request time and prefers it over `token`).
    pub token_file: Option<PathBuf>,
    /// Client certificate PEM.
    pub client_certificate_pem: Option<Secret>,
    /// Client key PEM.
    pub client_key_pem: Option<Secret>,
    /// Basic auth (user name, password).
    pub basic: Option<(String, Secret)>,
    /// Exec plugin, present only when plugins are allowed.
    pub exec: Option<ExecConfig>,
    /// Impersonated user (`as`).
    pub impersonate: Option<String>,
    /// Impersonated groups (`as-groups`).
    pub impersonate_groups: Vec<String>,
    /// Credentials were configured but dropped because the server is plain http (client-go
    /// attaches credentials only to https transports).
    pub dropped_for_http: bool,
}

impl Credentials {
    /// Whether any credential will be sent.
    pub fn any(&self) -> bool {
        self.token.is_some()
            || self.token_file.is_some()
            || self.client_certificate_pem.is_some()
            || self.basic.is_some()
            || self.exec.is_some()
    }
}

/// The validated selection: everything needed to build a client, and the problems found.
/// `Debug` shows no secret: credentials are [`Secret`]s and the proxy URL is redacted.
#[derive(Clone)]
#[non_exhaustive]
pub struct Selection {
    /// Context name.
    pub context: String,
    /// Cluster name.
    pub cluster_name: String,
    /// User name (empty = none).
    pub user_name: String,
    /// Namespace (`default` when the context has none).
    pub namespace: String,
    /// Server URL with scheme (no-scheme servers get https if CA, client cert or insecure is
    /// set, else http, like client-go).
    pub server: String,
    /// Name to verify the server certificate against (and send as SNI), if not the host.
    pub tls_server_name: Option<String>,
    /// TLS verification disabled.
    pub insecure_skip_tls_verify: bool,
    /// CA bundle PEM (from data, else file).
    pub ca_pem: Option<Vec<u8>>,
    /// Proxy URL for this cluster.
    pub proxy_url: Option<String>,
    /// Bound on the `tokenFile` read again when a client is built
    /// ([`SelectOptions::max_referenced_file_bytes`] of the selection).
    pub max_referenced_file_bytes: u64,
    /// Credentials to send.
    pub credentials: Credentials,
    /// Warnings and infos (a selection with errors is not returned).
    pub problems: Vec<Problem>,
}

impl fmt::Debug for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selection")
            .field("context", &self.context)
            .field("cluster_name", &self.cluster_name)
            .field("user_name", &self.user_name)
            .field("namespace", &self.namespace)
            .field("server", &redact_server(&self.server))
            .field("tls_server_name", &self.tls_server_name)
            .field("insecure_skip_tls_verify", &self.insecure_skip_tls_verify)
            .field(
                "ca_pem",
                &self.ca_pem.as_ref().map(|c| format!("<{} bytes>", c.len())),
            )
            .field("proxy_url", &self.proxy_url.as_deref().map(redact_server))
            .field("credentials", &self.credentials)
            .field("problems", &self.problems)
            .finish()
    }
}

impl Selection {
    /// Whether the server URL is https.
    pub fn is_https(&self) -> bool {
        self.server.starts_with("https://")
    }
}

// ---------------------------------------------------------------------------------------------
// Loading and merging

fn is_abs_or_empty(p: &str) -> bool {
    p.is_empty() || Path::new(p).is_absolute()
}

fn resolve_path(p: &mut Option<String>, dir: &Path) {
    if let Some(v) = p
        && !is_abs_or_empty(v)
    {
        *v = dir.join(&*v).to_string_lossy().into_owned();
    }
}

impl Kubeconfig {
    /// Parses kubeconfig YAML. `origin` is the file it came from: relative paths in every
    /// stanza are resolved against its directory (`certificate-authority`,
    /// `client-certificate`, `client-key`, `tokenFile`, and `exec.command` only when it contains
    /// a path separator). An empty document is an empty config. Within the default
    /// [`cube_model::Limits`] (see [`Kubeconfig::from_yaml_with`]).
    ///
    /// # Errors
    /// [`Error::Parse`] (message redacted), [`Error::DuplicateName`] when a list repeats a name.
    pub fn from_yaml(text: &str, origin: Option<&Path>) -> Result<Self> {
        Self::from_yaml_with(text, origin, &cube_model::Limits::default())
    }

    /// [`Kubeconfig::from_yaml`] within `limits`: the text is parsed once, through
    /// [`cube_model::yaml`]'s bounded entry (at most `limits.max_yaml_alias_expansions` alias
    /// events for the whole file).
    ///
    /// # Errors
    /// As [`Kubeconfig::from_yaml`]; the alias limit is an [`Error::Parse`] naming the limit and
    /// how to raise it.
    pub fn from_yaml_with(
        text: &str,
        origin: Option<&Path>,
        limits: &cube_model::Limits,
    ) -> Result<Self> {
        let origin_s = origin_label(origin);
        let cfg = match parse_document(text, &origin_s, limits)? {
            Document::Empty => Kubeconfig::default(),
            Document::NotMapping => {
                return Err(Error::Parse {
                    origin: origin_s,
                    message: "the document is not a mapping".to_string(),
                });
            }
            Document::Mapping(doc) => doc.into_config(),
        };
        Self::finish(cfg, origin, &origin_s)
    }

    fn finish(mut cfg: Kubeconfig, origin: Option<&Path>, origin_s: &str) -> Result<Self> {
        check_duplicates("clusters", cfg.clusters.iter().map(|c| &c.name), origin_s)?;
        check_duplicates("users", cfg.users.iter().map(|c| &c.name), origin_s)?;
        check_duplicates("contexts", cfg.contexts.iter().map(|c| &c.name), origin_s)?;
        if let Some(o) = origin {
            cfg.set_origin(o);
        }
        Ok(cfg)
    }

    fn set_origin(&mut self, file: &Path) {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        for c in &mut self.clusters {
            c.origin = Some(file.to_path_buf());
            resolve_path(&mut c.cluster.certificate_authority, &dir);
        }
        for u in &mut self.users {
            u.origin = Some(file.to_path_buf());
            resolve_path(&mut u.user.client_certificate, &dir);
            resolve_path(&mut u.user.client_key, &dir);
            resolve_path(&mut u.user.token_file, &dir);
            if let Some(exec) = &mut u.user.exec
                && (exec.command.contains('/') || exec.command.contains('\\'))
                && !is_abs_or_empty(&exec.command)
            {
                exec.command = dir.join(&exec.command).to_string_lossy().into_owned();
            }
        }
        for c in &mut self.contexts {
            c.origin = Some(file.to_path_buf());
        }
    }

    /// Reads one kubeconfig file (kubectl `--kubeconfig`: it must exist, no merging).
    ///
    /// # Errors
    /// [`Error::Read`], plus those of [`Kubeconfig::from_yaml`].
    pub fn read(path: &Path) -> Result<Self> {
        Self::read_with(path, &cube_model::Limits::default())
    }

    /// [`Kubeconfig::read`] within a [`cube_model::Limits`] policy: the file is read up to
    /// [`cube_model::Limits::max_kubeconfig_bytes`] (and `max_file_bytes`), YAML aliases within
    /// [`cube_model::Limits::max_yaml_alias_expansions`]. A larger file is [`Error::Read`]
    /// whose [`Error::limit`] names the limit.
    ///
    /// # Errors
    /// As [`Kubeconfig::read`].
    pub fn read_with(path: &Path, limits: &cube_model::Limits) -> Result<Self> {
        let text = read_kubeconfig_file(path, limits)?;
        Self::from_yaml_with(&text, Some(path), limits)
    }

    /// Like [`Kubeconfig::from_yaml`], but for a file given to be imported: an empty document
    /// (only whitespace, comments or `---`) is [`Error::EmptyFile`], and a YAML document that
    /// is not a kubeconfig is [`Error::NotAKubeconfig`]: its `kind` is present and not
    /// `Config` (a `List` of Nodes, a Pod), or it has none of the keys `clusters`, `users`,
    /// `contexts` and `current-context`. client-go loads both as an empty config (then fails
    /// with "no configuration has been provided"), which hides that the wrong file was given.
    ///
    /// # Errors
    /// [`Error::EmptyFile`], [`Error::NotAKubeconfig`], plus those of [`Kubeconfig::from_yaml`].
    pub fn from_yaml_strict(text: &str, origin: Option<&Path>) -> Result<Self> {
        Self::from_yaml_strict_with(text, origin, &cube_model::Limits::default())
    }

    /// [`Kubeconfig::from_yaml_strict`] within `limits`; the text is parsed once (the shape
    /// checks and the config come from the same parse).
    ///
    /// # Errors
    /// As [`Kubeconfig::from_yaml_strict`] and [`Kubeconfig::from_yaml_with`].
    pub fn from_yaml_strict_with(
        text: &str,
        origin: Option<&Path>,
        limits: &cube_model::Limits,
    ) -> Result<Self> {
        let origin_s = origin_label(origin);
        let blank = text.lines().all(|l| {
            let t = l.trim();
            t.is_empty() || t.starts_with('#') || t == "---" || t == "..."
        });
        if blank {
            return Err(Error::EmptyFile { origin: origin_s });
        }
        let doc = match parse_document(text, &origin_s, limits)? {
            Document::Empty => return Err(Error::EmptyFile { origin: origin_s }),
            Document::NotMapping => {
                return Err(Error::NotAKubeconfig {
                    origin: origin_s,
                    reason: "the document is not a mapping".to_string(),
                });
            }
            Document::Mapping(doc) => doc,
        };
        if let Some(kind) = &doc.kind
            && kind.as_str() != Some("Config")
        {
            let k = match kind {
                serde_json::Value::String(k) => format!("{:?}", redact_text(k)),
                other => redact_text(&other.to_string()),
            };
            return Err(Error::NotAKubeconfig {
                origin: origin_s,
                reason: format!("kind is {k}, expected \"Config\""),
            });
        }
        if doc.clusters.is_none()
            && doc.users.is_none()
            && doc.contexts.is_none()
            && doc.current_context.is_none()
        {
            return Err(Error::NotAKubeconfig {
                origin: origin_s,
                reason: "none of clusters, users, contexts or current-context is set".to_string(),
            });
        }
        Self::finish(doc.into_config(), origin, &origin_s)
    }

    /// Reads one file to import, with the checks of [`Kubeconfig::from_yaml_strict`]
    /// (otherwise as [`Kubeconfig::read`]).
    ///
    /// # Errors
    /// [`Error::Read`], plus those of [`Kubeconfig::from_yaml_strict`].
    pub fn read_strict(path: &Path) -> Result<Self> {
        Self::read_strict_with(path, &cube_model::Limits::default())
    }

    /// [`Kubeconfig::read_strict`] within a [`cube_model::Limits`] policy (as
    /// [`Kubeconfig::read_with`]).
    ///
    /// # Errors
    /// As [`Kubeconfig::read_strict`].
    pub fn read_strict_with(path: &Path, limits: &cube_model::Limits) -> Result<Self> {
        let text = read_kubeconfig_file(path, limits)?;
        Self::from_yaml_strict_with(&text, Some(path), limits)
    }

    /// Reads a `KUBECONFIG`-style list and merges it with client-go's rules: duplicate paths
    /// are removed keeping the first, empty entries and missing files are skipped (the skipped
    /// paths are returned), and [`Kubeconfig::merge`] combines the rest.
    ///
    /// # Errors
    /// Parse errors of any existing file; reading errors other than "not found".
    pub fn read_list(paths: &[PathBuf]) -> Result<(Self, Vec<PathBuf>)> {
        let mut seen = BTreeSet::new();
        let mut configs = Vec::new();
        let mut missing = Vec::new();
        for p in paths {
            if p.as_os_str().is_empty() || !seen.insert(p.clone()) {
                continue;
            }
            match read_kubeconfig_file(p, &cube_model::Limits::default()) {
                Ok(text) => configs.push(Self::from_yaml(&text, Some(p))?),
                Err(Error::Read { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    missing.push(p.clone())
                }
                Err(e) => return Err(e),
            }
        }
        Ok((Self::merge(configs), missing))
    }

    /// Splits a `KUBECONFIG` value with the OS list separator (`:` on Unix, `;` on Windows)
    /// and reads it with [`Kubeconfig::read_list`].
    ///
    /// # Errors
    /// As [`Kubeconfig::read_list`].
    pub fn from_kubeconfig_env(value: &str) -> Result<(Self, Vec<PathBuf>)> {
        let sep = if cfg!(windows) { ';' } else { ':' };
        let paths: Vec<PathBuf> = value.split(sep).map(PathBuf::from).collect();
        Self::read_list(&paths)
    }

    /// Merges configs in precedence order (client-go `Example_mergingSomeWithConflict`): the
    /// first config that defines a cluster, user or context name wins with its whole entry
    /// (fields are not merged); names only in later files are added; `current-context`,
    /// `preferences`, `apiVersion` and `kind` take the first non-empty value.
    pub fn merge(configs: Vec<Kubeconfig>) -> Kubeconfig {
        let mut out = Kubeconfig::default();
        // names already taken, per list (one hash look-up per entry, not a scan of the list)
        let (mut clusters, mut users, mut contexts) =
            (HashSet::new(), HashSet::new(), HashSet::new());
        for cfg in configs {
            if out.current_context.as_deref().unwrap_or("").is_empty()
                && cfg
                    .current_context
                    .as_deref()
                    .is_some_and(|c| !c.is_empty())
            {
                out.current_context = cfg.current_context.clone();
            }
            if out.api_version.is_none() {
                out.api_version = cfg.api_version.clone();
            }
            if out.kind.is_none() {
                out.kind = cfg.kind.clone();
            }
            if out.preferences.as_ref().is_none_or(is_empty_value)
                && cfg.preferences.as_ref().is_some_and(|p| !is_empty_value(p))
            {
                out.preferences = cfg.preferences.clone();
            }
            if out.extensions.is_none() {
                out.extensions = cfg.extensions.clone();
            }
            for c in cfg.clusters {
                if clusters.insert(c.name.clone()) {
                    out.clusters.push(c);
                }
            }
            for u in cfg.users {
                if users.insert(u.name.clone()) {
                    out.users.push(u);
                }
            }
            for c in cfg.contexts {
                if contexts.insert(c.name.clone()) {
                    out.contexts.push(c);
                }
            }
        }
        out
    }

    /// The part of this kubeconfig one context needs, as `kubectl config view --minify
    /// --context NAME` keeps it (kubectl `staging/src/k8s.io/client-go/tools/clientcmd/api/helpers.go`
    /// `MinifyConfig`): that context (made current), its cluster and its user. Every other
    /// context, cluster and user, `preferences` and `extensions` are dropped, so the result can
    /// be stored or handed on without the other clusters' credentials. `None` when no context
    /// of that name exists; a dangling cluster or user reference is kept as a reference (the
    /// entry it names does not exist in `self` either).
    pub fn minify(&self, context: &str) -> Option<Kubeconfig> {
        let ctx = self.context(context)?.clone();
        let cluster = self.cluster(&ctx.context.cluster).cloned();
        let user = self.user(&ctx.context.user).cloned();
        Some(Kubeconfig {
            api_version: self.api_version.clone(),
            kind: self.kind.clone(),
            preferences: None,
            clusters: cluster.into_iter().collect(),
            users: user.into_iter().collect(),
            contexts: vec![ctx],
            current_context: Some(context.to_string()),
            extensions: None,
        })
    }

    /// Serializes to YAML (secrets included: this is the file you asked for).
    ///
    /// # Errors
    /// [`Error::Serialize`].
    pub fn to_yaml(&self) -> Result<String> {
        serde_saphyr::to_string(self).map_err(|e| Error::Serialize(redact_text(&e.to_string())))
    }

    /// The cluster entry named `name` (the first one: a file read by this crate has no
    /// duplicate names). One scan of `clusters`: for a look-up per context use
    /// [`Kubeconfig::index`].
    pub fn cluster(&self, name: &str) -> Option<&NamedCluster> {
        self.clusters.iter().find(|c| c.name == name)
    }
    /// The user entry named `name` (the first one). One scan of `users`: for a look-up per
    /// context use [`Kubeconfig::index`].
    pub fn user(&self, name: &str) -> Option<&NamedUser> {
        self.users.iter().find(|c| c.name == name)
    }
    /// The context entry named `name` (the first one). One scan of `contexts`: for a look-up
    /// per context use [`Kubeconfig::index`].
    pub fn context(&self, name: &str) -> Option<&NamedContext> {
        self.contexts.iter().find(|c| c.name == name)
    }

    /// Name look-ups of this kubeconfig built once (hash maps over the three lists), for work
    /// that resolves names for every context ([`Kubeconfig::check_all`]): a kubeconfig of
    /// 10,000 contexts is checked in linear time, not 10,000 scans of each list.
    pub fn index(&self) -> KubeconfigIndex<'_> {
        KubeconfigIndex::new(self)
    }
}

/// Name → entry look-ups of one [`Kubeconfig`], built once ([`Kubeconfig::index`]).
///
/// Duplicate names: client-go refuses a file whose `clusters`, `users` or `contexts` repeat a
/// name (`error converting *[]NamedCluster into *map[string]*api.Cluster: duplicate name ...`,
/// kubernetes/kubernetes `staging/src/k8s.io/client-go/tools/clientcmd/api/v1/conversion.go`),
/// and so does [`Kubeconfig::from_yaml`] ([`Error::DuplicateName`]); across files the first
/// file that defines a name wins (client-go's loader, [`Kubeconfig::merge`]). A `Kubeconfig`
/// built by hand with repeated names resolves each name to its first entry, like the linear
/// [`Kubeconfig::cluster`] and friends.
///
/// "Did you mean" suggestions for dangling names share one budget of
/// [`KubeconfigIndex::SUGGESTION_BUDGET`] name comparisons per index: a hostile file of 10,000
/// dangling references to 10,000 look-alike names stays linear, later references get no
/// suggestion.
#[derive(Debug)]
pub struct KubeconfigIndex<'a> {
    config: &'a Kubeconfig,
    clusters: HashMap<&'a str, usize>,
    users: HashMap<&'a str, usize>,
    contexts: HashMap<&'a str, usize>,
    /// Name comparisons left for suggestions.
    suggestions_left: Cell<usize>,
}

impl<'a> KubeconfigIndex<'a> {
    /// Name comparisons (edit distances) spent on "did you mean" suggestions, per index.
    pub const SUGGESTION_BUDGET: usize = 100_000;

    fn new(config: &'a Kubeconfig) -> Self {
        fn names<'a>(it: impl Iterator<Item = &'a str>) -> HashMap<&'a str, usize> {
            let mut map = HashMap::new();
            for (i, n) in it.enumerate() {
                map.entry(n).or_insert(i);
            }
            map
        }
        KubeconfigIndex {
            config,
            clusters: names(config.clusters.iter().map(|c| c.name.as_str())),
            users: names(config.users.iter().map(|c| c.name.as_str())),
            contexts: names(config.contexts.iter().map(|c| c.name.as_str())),
            suggestions_left: Cell::new(Self::SUGGESTION_BUDGET),
        }
    }

    /// The kubeconfig indexed.
    pub fn config(&self) -> &'a Kubeconfig {
        self.config
    }

    /// The cluster entry named `name` (the first one).
    pub fn cluster(&self, name: &str) -> Option<&'a NamedCluster> {
        self.clusters.get(name).map(|&i| &self.config.clusters[i])
    }

    /// The user entry named `name` (the first one).
    pub fn user(&self, name: &str) -> Option<&'a NamedUser> {
        self.users.get(name).map(|&i| &self.config.users[i])
    }

    /// The context entry named `name` (the first one).
    pub fn context(&self, name: &str) -> Option<&'a NamedContext> {
        self.contexts.get(name).map(|&i| &self.config.contexts[i])
    }

    /// [`near_match`] within the index's suggestion budget (`None` once it is spent).
    fn suggest<'n>(
        &self,
        wanted: &str,
        names: impl ExactSizeIterator<Item = &'n str>,
    ) -> Option<&'n str> {
        let left = self.suggestions_left.get();
        if names.len() > left {
            self.suggestions_left.set(0);
            return None;
        }
        self.suggestions_left.set(left - names.len());
        near_match(wanted, names)
    }
}

/// Reads a kubeconfig file through the bounded reader (regular files of at most
/// [`cube_model::Limits::max_kubeconfig_bytes`] of `limits`); invalid UTF-8 is replaced.
fn read_kubeconfig_file(path: &Path, limits: &cube_model::Limits) -> Result<String> {
    crate::limits::read_limited(path, limits, cube_model::Limit::KubeconfigBytes)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| Error::Read {
            what: "kubeconfig".to_string(),
            path: path.to_path_buf(),
            source: read_failure(e),
        })
}

/// The `source` of an [`Error::Read`]: the OS error itself, or a [`ReadFailure`] that says why
/// without repeating the path and keeps a hit limit typed (see [`Error::limit`]).
fn read_failure(e: crate::limits::FileReadError) -> std::io::Error {
    match e {
        crate::limits::FileReadError::Io { source, .. } => source,
        other => std::io::Error::other(ReadFailure {
            text: read_error_text(&other),
            limit: other.limit_exceeded().cloned(),
        }),
    }
}

/// Why a file was not read (not an OS error): its text, and the limit when one was hit.
#[derive(Debug)]
pub(crate) struct ReadFailure {
    text: String,
    pub(crate) limit: Option<cube_model::limits::LimitExceeded>,
}

impl fmt::Display for ReadFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for ReadFailure {}

fn origin_label(origin: Option<&Path>) -> String {
    origin
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "<memory>".to_string())
}

/// What the one parse of a kubeconfig text found.
enum Document {
    /// No document, or `null`.
    Empty,
    /// A sequence or a scalar.
    NotMapping,
    /// A mapping: the config, with which keys were present.
    Mapping(Box<ConfigDoc>),
}

/// Parses `text` once through [`cube_model::yaml`]'s bounded entry.
fn parse_document(text: &str, origin: &str, limits: &cube_model::Limits) -> Result<Document> {
    if text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        return Ok(Document::Empty);
    }
    cube_model::yaml::from_str::<Document>(text, limits, serde_saphyr::Options::default()).map_err(
        |e| Error::Parse {
            origin: origin.to_string(),
            message: match cube_model::yaml::alias_limit_exceeded(&e, limits, "the file") {
                Some(limit) => limit.to_string(),
                None => parse_message(&e.to_string()),
            },
        },
    )
}

impl<'de> Deserialize<'de> for Document {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Document;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a kubeconfig mapping")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<Document, A::Error> {
                // The mapping's values go straight to the typed fields (the parser's own
                // scalar rules, `name: 123` is the string "123" as with sigs.k8s.io/yaml).
                ConfigDoc::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|d| Document::Mapping(Box::new(d)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Document, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Document::NotMapping)
            }
            fn visit_unit<E>(self) -> std::result::Result<Document, E> {
                Ok(Document::Empty)
            }
            fn visit_none<E>(self) -> std::result::Result<Document, E> {
                Ok(Document::Empty)
            }
            fn visit_some<D2: serde::Deserializer<'de>>(
                self,
                d: D2,
            ) -> std::result::Result<Document, D2::Error> {
                Document::deserialize(d)
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<Document, E> {
                Ok(Document::NotMapping)
            }
            fn visit_i64<E>(self, _: i64) -> std::result::Result<Document, E> {
                Ok(Document::NotMapping)
            }
            fn visit_u64<E>(self, _: u64) -> std::result::Result<Document, E> {
                Ok(Document::NotMapping)
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<Document, E> {
                Ok(Document::NotMapping)
            }
            fn visit_str<E>(self, _: &str) -> std::result::Result<Document, E> {
                Ok(Document::NotMapping)
            }
            fn visit_bytes<E>(self, _: &[u8]) -> std::result::Result<Document, E> {
                Ok(Document::NotMapping)
            }
        }
        d.deserialize_any(V)
    }
}

/// Present (`Some`, a `null` value as the default) or absent (`None`).
fn present<'de, D, T>(d: D) -> std::result::Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    null_default(d).map(Some)
}

/// [`Kubeconfig`]'s keys as read, with which of them were present (for
/// [`Kubeconfig::from_yaml_strict`]) and `kind` of any type.
#[derive(Deserialize)]
struct ConfigDoc {
    #[serde(rename = "apiVersion", default)]
    api_version: Option<String>,
    #[serde(default)]
    kind: Option<serde_json::Value>,
    #[serde(default)]
    preferences: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    clusters: Option<Vec<NamedCluster>>,
    #[serde(default, deserialize_with = "present")]
    users: Option<Vec<NamedUser>>,
    #[serde(default, deserialize_with = "present")]
    contexts: Option<Vec<NamedContext>>,
    #[serde(rename = "current-context", default, deserialize_with = "present")]
    current_context: Option<Option<String>>,
    #[serde(default)]
    extensions: Option<serde_json::Value>,
}

impl ConfigDoc {
    fn into_config(self) -> Kubeconfig {
        Kubeconfig {
            api_version: self.api_version,
            kind: self.kind.and_then(|k| match k {
                serde_json::Value::Null => None,
                serde_json::Value::String(s) => Some(s),
                other => Some(other.to_string()),
            }),
            preferences: self.preferences,
            clusters: self.clusters.unwrap_or_default(),
            users: self.users.unwrap_or_default(),
            contexts: self.contexts.unwrap_or_default(),
            current_context: self.current_context.flatten(),
            extensions: self.extensions,
        }
    }
}

fn is_empty_value(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Null => true,
        serde_json::Value::Object(m) => m.is_empty(),
        serde_json::Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

fn check_duplicates<'a>(
    list: &'static str,
    names: impl Iterator<Item = &'a String>,
    origin: &str,
) -> Result<()> {
    let mut seen = BTreeSet::new();
    for n in names {
        if !seen.insert(n.as_str()) {
            return Err(Error::DuplicateName {
                list,
                name: n.clone(),
                origin: origin.to_string(),
            });
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Selection and validation

/// Levenshtein distance (for "did you mean" suggestions).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest name within edit distance 2 (ties: first in file order). Names whose length
/// alone puts them further away, and names (or a `wanted`) over 256 bytes, are not compared:
/// the cost stays linear in the number of names.
pub fn near_match<'a>(wanted: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    const LONGEST: usize = 256;
    if wanted.len() > LONGEST {
        return None;
    }
    names
        // two edits change the length by at most 8 bytes (two 4-byte characters)
        .filter(|n| n.len() <= LONGEST && n.len().abs_diff(wanted.len()) <= 8)
        .map(|n| (edit_distance(wanted, n), n))
        .filter(|(d, _)| *d > 0 && *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// Decodes base64 (standard alphabet, whitespace ignored).
fn decode_b64(s: &str) -> Option<Vec<u8>> {
    let clean: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(clean.as_bytes())
        .ok()
}

/// Reads a file a kubeconfig references (CA, client certificate or key, tokenFile) through
/// the bounded reader: regular files only, at most `max` bytes; a larger one is
/// [`crate::limits::FileReadError::TooLarge`] naming the `referenced-file-bytes` limit.
pub(crate) fn read_referenced_file(
    path: &str,
    max: u64,
) -> std::result::Result<Vec<u8>, crate::limits::FileReadError> {
    crate::limits::read_file_bounded(Path::new(path), max).map_err(|e| match e {
        crate::limits::FileReadError::TooLarge(mut hit) => {
            hit.limit = cube_model::limits::Limit::ReferencedFileBytes;
            crate::limits::FileReadError::TooLarge(hit)
        }
        other => other,
    })
}

/// The reason of a read error without repeating the path (client-go's "due to <reason>").
fn read_error_text(e: &crate::limits::FileReadError) -> String {
    match e {
        crate::limits::FileReadError::Io { source, .. } => source.to_string(),
        crate::limits::FileReadError::NotRegularFile { file_type, .. } => {
            format!("it is {file_type}, not a regular file")
        }
        crate::limits::FileReadError::TooLarge(l) => format!(
            "it is larger than {} bytes ({})",
            l.max,
            l.limit.how_to_raise()
        ),
        other => other.to_string(),
    }
}

/// A kubeconfig problem for certificate or key material.
fn material_problem(m: &crate::certs::MaterialProblem, what: &str, subject: String) -> Problem {
    use crate::certs::MaterialProblem as M;
    let kind = match m {
        M::NotPem | M::NoCertificate { .. } | M::Unparseable { .. } => {
            ProblemKind::CertificateInvalid
        }
        M::Expired { .. } => ProblemKind::CertificateExpired,
        M::NotYetValid { .. } => ProblemKind::CertificateNotYetValid,
        M::NoPrivateKey | M::KeyUnusable { .. } => ProblemKind::KeyInvalid,
        M::KeyMismatch => ProblemKind::KeyMismatch,
    };
    let what = match m {
        M::NoPrivateKey | M::KeyUnusable { .. } => what.replace("client certificate", "client key"),
        _ => what.to_string(),
    };
    problem(Severity::Error, kind, subject, m.describe(&what))
}

/// Normalizes a server value to a URL with scheme, following client-go `DefaultServerURL`:
/// no scheme means https when `tls_configured`, else http.
/// `server` with any `user[:password]@` part of its authority replaced by `<redacted>@`, then
/// long token-like runs hidden ([`redact_text`]): safe to print in problems and errors.
pub fn redact_server(server: &str) -> String {
    // cube-model's one redactor knows user-info whose password holds `/`, `#`, `?` or `@`.
    let s = cube_model::redact::redact_url(server.trim()).into_owned();
    // A user-info the URL parser would not see as such (no scheme, odd characters): anything
    // before the last `@` of the authority-like prefix goes.
    let (scheme, rest) = match s.find("://") {
        Some(i) => (&s[..i + 3], &s[i + 3..]),
        None => ("", s.as_str()),
    };
    let rest = match rest.rfind('@') {
        Some(at)
            if !rest[..at].contains(char::is_whitespace) && !rest[..at].ends_with("<redacted>") =>
        {
            format!("<redacted>@{}", &rest[at + 1..])
        }
        _ => rest.to_string(),
    };
    // Token-like runs are hidden in the path and the query only: the host and port of a normal
    // address (`https://192.0.2.1:6443`, a long DNS name) are never a secret and stay readable.
    let (authority, tail) = match rest.find(['/', '?', '#']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest.as_str(), ""),
    };
    let tail: Vec<String> = tail.split('/').map(redact_text).collect();
    format!("{scheme}{}{}", redact_text_host(authority), tail.join("/"))
}

/// The authority of a URL as shown: user-info is already gone; anything that is not a plain
/// host and port (whitespace, quotes, odd characters) goes through [`redact_text`].
fn redact_text_host(authority: &str) -> String {
    let plain = authority
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-.:[]_<>@".contains(c));
    if plain {
        authority.to_string()
    } else {
        redact_text(authority)
    }
}

fn normalize_server(server: &str, tls_configured: bool) -> std::result::Result<String, String> {
    let s = server.trim();
    let with_scheme = if s.contains("://") {
        s.to_string()
    } else if tls_configured {
        format!("https://{s}")
    } else {
        format!("http://{s}")
    };
    // Credentials in the address (`user:pass@`, the password possibly holding `/`, `#`, `?`)
    // are refused before any parsing, so no error message can quote a piece of them.
    if with_scheme
        .split_once("://")
        .is_some_and(|(_, rest)| rest.contains('@'))
    {
        return Err(
            "the server URL carries credentials (user[:password]@): move them to the user entry"
                .to_string(),
        );
    }
    let uri: http::Uri = with_scheme
        .parse()
        .map_err(|e: http::uri::InvalidUri| e.to_string())?;
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        // client-go would send these as basic auth; a kubeconfig keeps credentials in the user
        // entry, and a URL with credentials leaks them wherever the address is printed.
        return Err(
            "the server URL carries credentials (user[:password]@): move them to the user entry"
                .to_string(),
        );
    }
    match uri.scheme_str() {
        Some("http") | Some("https") => {}
        Some(other) => return Err(format!("unsupported scheme {other:?}")),
        None => return Err("missing scheme".to_string()),
    }
    let host = uri.host().unwrap_or_default();
    if host.is_empty() {
        return Err("missing host".to_string());
    }
    let is_ip = if let Some(v6) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        if v6.parse::<std::net::Ipv6Addr>().is_err() {
            return Err(format!("invalid IPv6 address {v6:?}"));
        }
        true
    } else {
        host.parse::<std::net::Ipv4Addr>().is_ok()
    };
    if !is_ip {
        let label_ok = |l: &str| {
            !l.is_empty()
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        if !host.trim_end_matches('.').split('.').all(label_ok) {
            return Err(format!("invalid host name {host:?}"));
        }
        // Without a scheme the value must be host[:port]. A single word with neither port nor
        // dot ("not-a-url") is almost surely not an address (client-go would dial
        // https://not-a-url:443), so it is refused unless it is `localhost`.
        if !s.contains("://")
            && uri.port().is_none()
            && !host.contains('.')
            && !host.eq_ignore_ascii_case("localhost")
        {
            return Err(
                "must be a URL with scheme http or https and a host, or host:port (a bare word needs a port or a dotted host name)"
                    .to_string(),
            );
        }
    }
    if let Some(auth) = uri.authority() {
        let a = auth.as_str();
        let after_host = a.rsplit_once(']').map(|(_, r)| r).unwrap_or(a);
        if let Some((_, port)) = after_host.rsplit_once(':')
            && (port.is_empty() || port.parse::<u16>().is_err())
        {
            // Go's net/url wording, as kubectl prints it.
            return Err(format!("invalid port \":{port}\" after host"));
        }
    }
    Ok(with_scheme.trim_end_matches('/').to_string())
}

/// Validates a server address given by the user (kubectl `--server`, an import form) like
/// client-go's `DefaultServerURL`: a URL with scheme `http` or `https` and a host (a path is
/// kept as a prefix), or `host[:port]`, which gets `https://`. Stricter than client-go in one
/// case: a scheme-less single word without port (`not-a-url`) is refused, except `localhost`.
/// Returns the normalized URL (no trailing `/`).
///
/// # Errors
/// [`Error::InvalidServer`] with the reason.
pub fn validate_server(server: &str) -> Result<String> {
    normalize_server(server, true).map_err(|reason| Error::InvalidServer {
        url: redact_server(server),
        reason,
    })
}

fn host_of(url: &str) -> Option<String> {
    let uri: http::Uri = url.parse().ok()?;
    uri.host()
        .map(|h| h.trim_start_matches('[').trim_end_matches(']').to_string())
}

struct Checked {
    problems: Vec<Problem>,
    selection: Option<Selection>,
}

impl Kubeconfig {
    /// Selects and validates a context (client-go `DirectClientConfig.ClientConfig` +
    /// `ConfirmUsable`), returning the resolved [`Selection`] with its warnings.
    ///
    /// # Errors
    /// [`Error::ContextNotFound`] when `opts.context` names a missing context;
    /// [`Error::InvalidConfiguration`] (client-go's aggregate text) when any error-severity
    /// problem is found.
    pub fn select(&self, opts: &SelectOptions) -> Result<Selection> {
        let index = self.index();
        if let Some(c) = &opts.context
            && index.context(c).is_none()
        {
            return Err(Error::ContextNotFound(c.clone()));
        }
        let checked = self.check_inner(opts, &index);
        if checked
            .problems
            .iter()
            .any(|p| p.severity == Severity::Error)
        {
            return Err(Error::InvalidConfiguration {
                problems: checked.problems,
            });
        }
        checked
            .selection
            .ok_or_else(|| Error::InvalidConfiguration {
                problems: checked.problems,
            })
    }

    /// Every problem of the selected context (as [`Kubeconfig::select`] would choose it),
    /// without failing. A missing requested context is reported as an error problem.
    pub fn check(&self, opts: &SelectOptions) -> Vec<Problem> {
        let index = self.index();
        if let Some(c) = &opts.context
            && index.context(c).is_none()
        {
            return vec![problem(
                Severity::Error,
                ProblemKind::CurrentContextNotFound,
                format!("context {c:?}"),
                format!("context {c:?} does not exist"),
            )];
        }
        self.check_inner(opts, &index).problems
    }

    /// Problems of every context in the file, by context name (file order). A file without
    /// contexts gets one entry named `""` with the problems of the default selection.
    ///
    /// Linear in the size of the file: names are resolved through one [`Kubeconfig::index`]
    /// (a file of 10,000 contexts, users and clusters is checked in well under a second).
    pub fn check_all(&self, opts: &SelectOptions) -> Vec<(String, Vec<Problem>)> {
        let index = self.index();
        let mut out = Vec::new();
        for c in &self.contexts {
            let mut o = opts.clone();
            o.context = Some(c.name.clone());
            out.push((c.name.clone(), self.check_inner(&o, &index).problems));
        }
        if self.contexts.is_empty() {
            out.push((String::new(), self.check_inner(opts, &index).problems));
        }
        out
    }

    fn check_inner(&self, opts: &SelectOptions, index: &KubeconfigIndex<'_>) -> Checked {
        let mut problems = Vec::new();
        let now = opts.now.unwrap_or_else(crate::certs::now_secs);
        let none = |problems: Vec<Problem>| Checked {
            problems,
            selection: None,
        };
        if self.contexts.is_empty() && self.clusters.is_empty() && self.users.is_empty() {
            problems.push(problem(
                Severity::Error,
                ProblemKind::EmptyConfig,
                FILE_SUBJECT.to_string(),
                "no configuration has been provided, try setting KUBERNETES_MASTER environment variable".to_string(),
            ));
            return none(problems);
        }
        let ctx_name = match opts
            .context
            .clone()
            .or_else(|| self.current_context.clone().filter(|c| !c.is_empty()))
        {
            Some(c) => c,
            None => {
                // at most 20 names: a file of 10,000 contexts is not listed whole
                let mut names: Vec<String> = self
                    .contexts
                    .iter()
                    .take(20)
                    .map(|c| c.name.clone())
                    .collect();
                if self.contexts.len() > 20 {
                    names.push(format!("... ({} more)", self.contexts.len() - 20));
                }
                let mut p = problem(
                    Severity::Error,
                    ProblemKind::NoCurrentContext,
                    FILE_SUBJECT.to_string(),
                    "current-context is not set and no context was requested".to_string(),
                );
                if !names.is_empty() {
                    p.suggestion = Some(format!("choose one of: {}", names.join(", ")));
                }
                problems.push(p);
                return none(problems);
            }
        };
        let subject_ctx = format!("context {ctx_name:?}");
        let Some(ctx) = index.context(&ctx_name) else {
            let mut p = problem(
                Severity::Error,
                ProblemKind::CurrentContextNotFound,
                subject_ctx,
                format!("context was not found for specified context: {ctx_name}"),
            );
            if let Some(n) = index.suggest(&ctx_name, self.contexts.iter().map(|c| c.name.as_str()))
            {
                p.suggestion = Some(format!("did you mean {n:?}?"));
            }
            problems.push(p);
            return none(problems);
        };
        let cluster_name = opts
            .cluster
            .clone()
            .unwrap_or_else(|| ctx.context.cluster.clone());
        let user_name = opts
            .user
            .clone()
            .unwrap_or_else(|| ctx.context.user.clone());
        let namespace = opts
            .namespace
            .clone()
            .or_else(|| ctx.context.namespace.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "default".to_string());

        // Cluster reference.
        let cluster = if cluster_name.is_empty() {
            problems.push(problem(
                Severity::Error,
                ProblemKind::NoServer,
                subject_ctx.clone(),
                format!("context {ctx_name:?} names no cluster; kubectl would fall back to http://localhost:8080"),
            ));
            None
        } else {
            match index.cluster(&cluster_name) {
                Some(c) => Some(c),
                None => {
                    let mut p = problem(
                        Severity::Error,
                        ProblemKind::DanglingCluster,
                        subject_ctx.clone(),
                        format!(
                            "context {ctx_name:?} refers to cluster {cluster_name:?}, which does not exist; kubectl would silently fall back to http://localhost:8080"
                        ),
                    );
                    if let Some(n) =
                        index.suggest(&cluster_name, self.clusters.iter().map(|c| c.name.as_str()))
                    {
                        p.suggestion = Some(format!("did you mean {n:?}?"));
                    }
                    problems.push(p);
                    None
                }
            }
        };
        let user = if user_name.is_empty() {
            None
        } else {
            match index.user(&user_name) {
                Some(u) => Some(u),
                None => {
                    let mut p = problem(
                        Severity::Error,
                        ProblemKind::DanglingUser,
                        subject_ctx.clone(),
                        format!(
                            "context {ctx_name:?} refers to user {user_name:?}, which does not exist; no credentials would be sent"
                        ),
                    );
                    if let Some(n) =
                        index.suggest(&user_name, self.users.iter().map(|c| c.name.as_str()))
                    {
                        p.suggestion = Some(format!("did you mean {n:?}?"));
                    }
                    problems.push(p);
                    None
                }
            }
        };

        let cluster_entry = cluster.map(|c| c.cluster.clone()).unwrap_or_default();
        let user_entry = user.map(|u| u.user.clone()).unwrap_or_default();
        let csub = format!("cluster {cluster_name:?}");
        let usub = format!("user {user_name:?}");

        // Cluster checks.
        let mut ca_pem: Option<Vec<u8>> = None;
        let mut ca_source = "certificate-authority";
        let has_ca_data = cluster_entry
            .certificate_authority_data
            .as_deref()
            .is_some_and(|s| !s.is_empty());
        let has_ca_file = cluster_entry
            .certificate_authority
            .as_deref()
            .is_some_and(|s| !s.is_empty());
        let insecure = cluster_entry.insecure_skip_tls_verify.unwrap_or(false);
        if cluster.is_some() {
            if let Some(data) = cluster_entry
                .certificate_authority_data
                .as_deref()
                .filter(|s| !s.is_empty())
            {
                match decode_b64(data) {
                    Some(bytes) => {
                        ca_source = "certificate-authority-data";
                        ca_pem = Some(bytes);
                    }
                    None => problems.push(problem(
                        Severity::Error,
                        ProblemKind::BadBase64,
                        csub.clone(),
                        format!(
                            "certificate-authority-data for {cluster_name} is not valid base64"
                        ),
                    )),
                }
            }
            if has_ca_data && has_ca_file {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::CaDataAndFile,
                    csub.clone(),
                    format!("certificate-authority-data and certificate-authority are both specified for {cluster_name}. certificate-authority-data will override."),
                ));
            }
            if let Some(path) = cluster_entry
                .certificate_authority
                .as_deref()
                .filter(|s| !s.is_empty())
                && !opts.skip_file_checks
            {
                let refused = opts
                    .file_references
                    .refusal(path, cluster.and_then(|c| c.origin.as_deref()));
                match refused.map_or_else(
                    || read_referenced_file(path, opts.referenced_file_limit()).map_err(Err),
                    |why| Err(Ok(why)),
                ) {
                    Err(Ok(why)) => problems.push(problem(
                        Severity::Error,
                        ProblemKind::FileReferenceRefused,
                        csub.clone(),
                        format!(
                            "certificate-authority {path} for {cluster_name} is not read: {why}"
                        ),
                    )),
                    Ok(bytes) => {
                        if ca_pem.is_none() {
                            ca_pem = Some(bytes);
                        }
                    }
                    Err(Err(e)) => problems.push(unreadable_file(
                        Severity::Error,
                        csub.clone(),
                        format!("unable to read certificate-authority {path} for {cluster_name}"),
                        &e,
                    )),
                }
            }
            if let Some(pem) = &ca_pem
                && !insecure
                && !opts.skip_material_checks
            {
                let what = format!("{ca_source} of cluster {cluster_name:?}");
                for m in crate::certs::check_ca_bundle(pem, now) {
                    problems.push(material_problem(&m, &what, csub.clone()));
                }
            }
            if insecure && (has_ca_data || has_ca_file) {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::InsecureWithCa,
                    csub.clone(),
                    "specifying a root certificates file with the insecure flag is not allowed"
                        .to_string(),
                ));
            } else if insecure {
                problems.push(problem(
                    Severity::Warning,
                    ProblemKind::InsecureSkipTlsVerify,
                    csub.clone(),
                    format!("insecure-skip-tls-verify is set for {cluster_name}: the server certificate is not verified"),
                ));
            }
            if let Some(proxy) = cluster_entry.proxy_url.as_deref().filter(|s| !s.is_empty()) {
                // Never show a proxy password: the URL is redacted in every message.
                let shown = redact_server(proxy);
                let scheme = proxy.split_once("://").map(|(s, _)| s);
                match scheme {
                    Some("http") | Some("https") | Some("socks5") => {
                        let parsed = proxy.parse::<http::Uri>();
                        if parsed.as_ref().map_or(true, |u| u.host().is_none_or(str::is_empty)) {
                            problems.push(problem(
                                Severity::Error,
                                ProblemKind::BadProxyUrl,
                                csub.clone(),
                                format!("invalid 'proxy-url' {shown:?} for cluster {cluster_name:?}: not a URL with a host"),
                            ));
                        } else if !cfg!(feature = "proxy") {
                            problems.push(problem(
                                Severity::Error,
                                ProblemKind::ProxyUnsupported,
                                csub.clone(),
                                format!("cluster {cluster_name:?} is reached through proxy-url {shown:?}, but this build of cube-cluster has no proxy support (enable its `proxy` feature); refused instead of failing at connect time"),
                            ));
                        }
                    }
                    Some(s) => problems.push(problem(
                        Severity::Error,
                        ProblemKind::BadProxyUrl,
                        csub.clone(),
                        format!("invalid 'proxy-url' {shown:?} for cluster {cluster_name:?}: unsupported scheme {:?}, must be http, https, or socks5", redact_text(s)),
                    )),
                    None => problems.push(problem(
                        Severity::Error,
                        ProblemKind::BadProxyUrl,
                        csub.clone(),
                        format!("invalid 'proxy-url' {shown:?} for cluster {cluster_name:?}: missing scheme"),
                    )),
                }
            }
        }

        // User checks.
        let mut creds = Credentials::default();
        let cert_data = user_entry
            .client_certificate_data
            .as_ref()
            .filter(|s| !s.is_empty());
        let key_data = user_entry
            .client_key_data
            .as_ref()
            .filter(|s| !s.is_empty());
        let cert_file = user_entry
            .client_certificate
            .as_deref()
            .filter(|s| !s.is_empty());
        let key_file = user_entry.client_key.as_deref().filter(|s| !s.is_empty());
        if user.is_some() {
            if cert_data.is_some() && cert_file.is_some() {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::ClientDataAndFile,
                    usub.clone(),
                    format!("client-cert-data and client-cert are both specified for {user_name}. client-cert-data will override."),
                ));
            }
            if key_data.is_some() && key_file.is_some() {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::ClientDataAndFile,
                    usub.clone(),
                    format!("client-key-data and client-key are both specified for {user_name}; client-key-data will override"),
                ));
            }
            let has_cert = cert_data.is_some() || cert_file.is_some();
            let has_key = key_data.is_some() || key_file.is_some();
            if has_cert && !has_key {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::IncompleteClientCert,
                    usub.clone(),
                    format!("client-key-data or client-key must be specified for {user_name} to use the clientCert authentication method."),
                ));
            }
            if has_key && !has_cert {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::IncompleteClientCert,
                    usub.clone(),
                    format!("client-cert-data or client-cert must be specified for {user_name} to use the clientCert authentication method."),
                ));
            }
            for (field, data, slot) in [
                (
                    "client-certificate-data",
                    cert_data,
                    &mut creds.client_certificate_pem,
                ),
                ("client-key-data", key_data, &mut creds.client_key_pem),
            ] {
                if let Some(d) = data {
                    match decode_b64(d.expose()) {
                        Some(bytes) => {
                            let _ = field;
                            *slot = Some(Secret(String::from_utf8_lossy(&bytes).into_owned()))
                        }
                        None => problems.push(problem(
                            Severity::Error,
                            ProblemKind::BadBase64,
                            usub.clone(),
                            format!("{field} for {user_name} is not valid base64"),
                        )),
                    }
                }
            }
            for (label, path, slot, is_data) in [
                (
                    "client-cert",
                    cert_file,
                    &mut creds.client_certificate_pem,
                    cert_data.is_some(),
                ),
                (
                    "client-key",
                    key_file,
                    &mut creds.client_key_pem,
                    key_data.is_some(),
                ),
            ] {
                if let Some(p) = path
                    && !opts.skip_file_checks
                {
                    let refused = opts
                        .file_references
                        .refusal(p, user.and_then(|u| u.origin.as_deref()));
                    match refused.map_or_else(
                        || read_referenced_file(p, opts.referenced_file_limit()).map_err(Err),
                        |why| Err(Ok(why)),
                    ) {
                        Err(Ok(why)) => problems.push(problem(
                            Severity::Error,
                            ProblemKind::FileReferenceRefused,
                            usub.clone(),
                            format!("{label} {p} for {user_name} is not read: {why}"),
                        )),
                        Ok(bytes) => {
                            if !is_data {
                                *slot = Some(Secret(String::from_utf8_lossy(&bytes).into_owned()));
                            }
                        }
                        Err(Err(e)) => problems.push(unreadable_file(
                            Severity::Error,
                            usub.clone(),
                            format!("unable to read {label} {p} for {user_name}"),
                            &e,
                        )),
                    }
                }
            }
            let ca_like = |p: Option<&str>, names: &[&str]| {
                p.and_then(|p| {
                    Path::new(p)
                        .file_name()
                        .map(|f| f.to_string_lossy().into_owned())
                })
                .is_some_and(|f| names.contains(&f.as_str()))
            };
            if ca_like(key_file, &["ca.key", "ca-key.pem"])
                || ca_like(cert_file, &["ca.crt", "ca.pem"])
            {
                problems.push(problem(
                    Severity::Warning,
                    ProblemKind::CaKeyAsClientIdentity,
                    usub.clone(),
                    format!("user {user_name:?} presents the cluster CA key pair as its client identity ({}): the CA private key must not leave the control plane, and its identity is usually all-powerful", [cert_file, key_file].into_iter().flatten().collect::<Vec<_>>().join(", ")),
                ));
            }

            if let (Some(cert), Some(key)) = (&creds.client_certificate_pem, &creds.client_key_pem)
                && !opts.skip_material_checks
            {
                let what = format!("client certificate of user {user_name:?}");
                for m in crate::certs::check_client_pair(
                    cert.expose().as_bytes(),
                    key.expose().as_bytes(),
                    now,
                ) {
                    problems.push(material_problem(&m, &what, usub.clone()));
                }
            }

            let has_token = user_entry.token.as_ref().is_some_and(|t| !t.is_empty());
            let has_basic = user_entry
                .username
                .as_deref()
                .is_some_and(|u| !u.is_empty())
                || user_entry.password.as_ref().is_some_and(|p| !p.is_empty());
            if has_token && has_basic {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::MultipleAuthMethods,
                    usub.clone(),
                    format!("more than one authentication method found for {user_name}; found [token basicAuth], only one is allowed"),
                ));
            }
            if has_token {
                creds.token = user_entry.token.clone();
            }
            if has_basic {
                creds.basic = Some((
                    user_entry.username.clone().unwrap_or_default(),
                    user_entry.password.clone().unwrap_or_default(),
                ));
            }
            if let Some(tf) = user_entry.token_file.as_deref().filter(|s| !s.is_empty()) {
                let refused = opts
                    .file_references
                    .refusal(tf, user.and_then(|u| u.origin.as_deref()));
                if let Some(why) = refused {
                    // never read, and never re-read by the client at request time
                    problems.push(problem(
                        Severity::Error,
                        ProblemKind::FileReferenceRefused,
                        usub.clone(),
                        format!("tokenFile {tf} for {user_name} is not read: {why}"),
                    ));
                } else if opts.skip_file_checks {
                    creds.token_file = Some(PathBuf::from(tf));
                } else {
                    creds.token_file = Some(PathBuf::from(tf));
                    match read_referenced_file(tf, opts.referenced_file_limit())
                        .map(|b| String::from_utf8_lossy(&b).into_owned())
                    {
                        Ok(t) => {
                            if !has_token {
                                // client-go trims the file's whitespace (a trailing newline).
                                creds.token = Some(Secret(t.trim().to_string()));
                            }
                        }
                        Err(e) => problems.push(unreadable_file(
                            if has_token {
                                Severity::Warning
                            } else {
                                Severity::Error
                            },
                            usub.clone(),
                            format!("unable to read tokenFile {tf} for {user_name}"),
                            &e,
                        )),
                    }
                }
            }
            if let Some(imp) = user_entry.impersonate.as_deref().filter(|s| !s.is_empty()) {
                creds.impersonate = Some(imp.to_string());
                creds.impersonate_groups =
                    user_entry.impersonate_groups.clone().unwrap_or_default();
                problems.push(problem(
                    Severity::Info,
                    ProblemKind::Impersonation,
                    usub.clone(),
                    format!("user {user_name:?} impersonates {imp:?}: the API server authorizes the impersonated identity"),
                ));
            }
            if user_entry.auth_provider.is_some() && user_entry.exec.is_some() {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::AuthProviderAndExec,
                    usub.clone(),
                    format!("authProvider cannot be provided in combination with an exec plugin for {user_name}"),
                ));
            }
            if let Some(ap) = &user_entry.auth_provider {
                problems.push(problem(
                    Severity::Warning,
                    ProblemKind::AuthProviderPlugin,
                    usub.clone(),
                    format!("user {user_name:?} uses the auth-provider plugin {:?} (removed from current clients for gcp and azure; oidc needs a refresh flow); it is not run, so no credentials come from it", ap.name),
                ));
            }
            if let Some(exec) = &user_entry.exec {
                let mut exec_ok = true;
                if exec.command.is_empty() {
                    exec_ok = false;
                    problems.push(problem(
                        Severity::Error,
                        ProblemKind::ExecIncomplete,
                        usub.clone(),
                        format!("command must be specified for {user_name} to use exec authentication plugin"),
                    ));
                }
                if exec.api_version.is_empty() {
                    exec_ok = false;
                    problems.push(problem(
                        Severity::Error,
                        ProblemKind::ExecIncomplete,
                        usub.clone(),
                        format!("apiVersion must be specified for {user_name} to use exec authentication plugin"),
                    ));
                } else if exec.api_version == "client.authentication.k8s.io/v1alpha1" {
                    exec_ok = false;
                    let mut p = problem(
                        Severity::Error,
                        ProblemKind::ExecApiVersionRefused,
                        usub.clone(),
                        format!(
                            "exec plugin of {user_name}: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\" (removed in Kubernetes 1.24; current clients refuse it)"
                        ),
                    );
                    p.suggestion = Some(
                        "regenerate the kubeconfig with a current CLI (for EKS: aws eks update-kubeconfig) or set apiVersion client.authentication.k8s.io/v1beta1".to_string(),
                    );
                    problems.push(p);
                } else if exec.api_version == "client.authentication.k8s.io/v1" {
                    match exec.interactive_mode.as_deref() {
                        None | Some("") => {
                            exec_ok = false;
                            problems.push(problem(
                                Severity::Error,
                                ProblemKind::ExecIncomplete,
                                usub.clone(),
                                format!("interactiveMode must be specified for {user_name} to use exec authentication plugin"),
                            ));
                        }
                        _ => {}
                    }
                }
                if let Some(m) = exec.interactive_mode.as_deref()
                    && !m.is_empty()
                    && !["Never", "IfAvailable", "Always"].contains(&m)
                {
                    exec_ok = false;
                    problems.push(problem(
                        Severity::Error,
                        ProblemKind::ExecIncomplete,
                        usub.clone(),
                        format!("invalid interactiveMode for {user_name}: {m:?}"),
                    ));
                }
                match opts.plugins {
                    PluginPolicy::Refuse => problems.push(problem(
                        Severity::Warning,
                        ProblemKind::ExecNotRun,
                        usub.clone(),
                        format!("user {user_name:?} gets credentials from the exec plugin {:?} ({}); it is not run because plugins were not allowed (`--allow-exec` in the cube-rs programs), so requests go without these credentials", exec.command, exec.api_version),
                    )),
                    PluginPolicy::Allow => {
                        if exec_ok {
                            creds.exec = Some(exec.clone());
                        }
                        problems.push(problem(
                            Severity::Info,
                            ProblemKind::ExecWillRun,
                            usub.clone(),
                            format!("user {user_name:?} runs the exec plugin {:?} ({}) to get credentials", exec.command, exec.api_version),
                        ));
                    }
                }
            }
        }

        // Server.
        let mut server_raw = opts
            .server
            .clone()
            .or_else(|| cluster_entry.server.clone())
            .unwrap_or_default();
        server_raw = server_raw.trim().to_string();
        let mut tls_server_name = if opts.server.is_some() {
            opts.tls_server_name.clone()
        } else {
            opts.tls_server_name
                .clone()
                .or_else(|| cluster_entry.tls_server_name.clone())
        }
        .filter(|s| !s.is_empty());
        let mut server = String::new();
        if cluster.is_some() || opts.server.is_some() {
            if server_raw.is_empty() {
                problems.push(problem(
                    Severity::Error,
                    ProblemKind::NoServer,
                    csub.clone(),
                    format!("no server found for cluster {cluster_name:?}"),
                ));
            } else {
                let tls_configured = has_ca_data
                    || has_ca_file
                    || insecure
                    || creds.client_certificate_pem.is_some()
                    || cert_file.is_some();
                match normalize_server(&server_raw, tls_configured) {
                    Ok(s) => server = s,
                    Err(reason) => problems.push(problem(
                        Severity::Error,
                        ProblemKind::BadServerUrl,
                        csub.clone(),
                        format!(
                            "invalid server URL {:?} for cluster {cluster_name:?}: {reason}",
                            redact_server(&server_raw)
                        ),
                    )),
                }
            }
        }
        if server.contains("/k8s/clusters/") {
            problems.push(problem(
                Severity::Info,
                ProblemKind::RancherProxy,
                csub.clone(),
                format!("server {} is a Rancher-proxied endpoint (/k8s/clusters/<id>): connectivity and RBAC are evaluated through Rancher, and token expiry is governed by Rancher", redact_server(&server)),
            ));
        }
        if server.starts_with("http://") {
            let configured = creds.any()
                || user_entry.exec.is_some()
                || user_entry.auth_provider.is_some()
                || cert_file.is_some();
            if configured {
                problems.push(problem(
                    Severity::Warning,
                    ProblemKind::CredentialsOverHttp,
                    usub.clone(),
                    format!("server {} is plain http: client-go sends no credentials of user {user_name:?} over it (token, client certificate, basic auth and plugins are dropped)", redact_server(&server)),
                ));
                creds = Credentials {
                    dropped_for_http: true,
                    ..Credentials::default()
                };
            }
            tls_server_name = None;
        }

        let selection = Selection {
            context: ctx_name,
            cluster_name,
            user_name,
            namespace,
            server,
            tls_server_name,
            insecure_skip_tls_verify: insecure,
            ca_pem: if insecure { None } else { ca_pem },
            max_referenced_file_bytes: opts.referenced_file_limit(),
            proxy_url: cluster_entry.proxy_url.clone().filter(|s| !s.is_empty()),
            credentials: creds,
            problems: problems.clone(),
        };
        Checked {
            problems,
            selection: Some(selection),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Rewriting

    /// Points cluster `cluster` at `new_server` (for example the address the console reaches
    /// the API server at) while TLS keeps verifying the original name: unless the cluster
    /// already has a `tls-server-name`, the original server's host becomes the
    /// `tls-server-name` (an IP address works too). Returns the name TLS will verify.
    ///
    /// # Errors
    /// [`Error::InvalidServer`] when `new_server` is not an http(s) URL;
    /// [`Error::InvalidConfiguration`] when the cluster does not exist.
    pub fn rewrite_server(&mut self, cluster: &str, new_server: &str) -> Result<Option<String>> {
        let new = normalize_server(new_server, true).map_err(|reason| Error::InvalidServer {
            url: redact_server(new_server),
            reason,
        })?;
        let Some(entry) = self.clusters.iter_mut().find(|c| c.name == cluster) else {
            return Err(Error::InvalidConfiguration {
                problems: vec![problem(
                    Severity::Error,
                    ProblemKind::DanglingCluster,
                    format!("cluster {cluster:?}"),
                    format!("cluster {cluster:?} does not exist"),
                )],
            });
        };
        let old_host = entry
            .cluster
            .server
            .as_deref()
            .and_then(|s| normalize_server(s, true).ok().and_then(|u| host_of(&u)));
        if entry
            .cluster
            .tls_server_name
            .as_deref()
            .is_none_or(str::is_empty)
            && let Some(h) = old_host
            && host_of(&new).as_deref() != Some(h.as_str())
        {
            entry.cluster.tls_server_name = Some(h);
        }
        entry.cluster.server = Some(new);
        Ok(entry.cluster.tls_server_name.clone())
    }

    /// A self-contained copy: every file reference (CA, client certificate and key, tokenFile)
    /// is read and replaced by the matching `*-data` field (or `token`), so the result can be
    /// stored or sent elsewhere. `*-data` already present wins (the file is dropped). Exec
    /// commands are left as they are (they are programs, not data).
    ///
    /// # Errors
    /// [`Error::Read`] when a referenced file cannot be read.
    pub fn inline(&self) -> Result<Kubeconfig> {
        self.inline_with(&cube_model::Limits::default())
    }

    /// [`Kubeconfig::inline`] within a [`cube_model::Limits`] policy: each referenced file is
    /// read up to [`cube_model::Limits::max_referenced_file_bytes`]; a larger one is
    /// [`Error::Read`] whose [`Error::limit`] names the limit.
    ///
    /// # Errors
    /// As [`Kubeconfig::inline`].
    pub fn inline_with(&self, limits: &cube_model::Limits) -> Result<Kubeconfig> {
        let enc = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        let read = |what: &str, p: &str| {
            crate::limits::read_limited(
                Path::new(p),
                limits,
                cube_model::Limit::ReferencedFileBytes,
            )
            .map_err(|e| Error::Read {
                what: what.to_string(),
                path: PathBuf::from(p),
                source: read_failure(e),
            })
        };
        let mut out = self.clone();
        for c in &mut out.clusters {
            if let Some(p) = c
                .cluster
                .certificate_authority
                .take()
                .filter(|s| !s.is_empty())
                && c.cluster.certificate_authority_data.is_none()
            {
                c.cluster.certificate_authority_data =
                    Some(enc(&read("certificate-authority", &p)?));
            }
        }
        for u in &mut out.users {
            if let Some(p) = u.user.client_certificate.take().filter(|s| !s.is_empty())
                && u.user.client_certificate_data.is_none()
            {
                u.user.client_certificate_data =
                    Some(Secret(enc(&read("client-certificate", &p)?)));
            }
            if let Some(p) = u.user.client_key.take().filter(|s| !s.is_empty())
                && u.user.client_key_data.is_none()
            {
                u.user.client_key_data = Some(Secret(enc(&read("client-key", &p)?)));
            }
            if let Some(p) = u.user.token_file.take().filter(|s| !s.is_empty()) {
                // tokenFile wins over token at request time in client-go.
                let t = read("tokenFile", &p)?;
                u.user.token = Some(Secret(String::from_utf8_lossy(&t).trim().to_string()));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_is_redacted_in_debug_and_display() {
        let s = Secret::new("very-secret-token");
        assert_eq!(format!("{s:?}"), "<redacted>");
        assert_eq!(format!("{s}"), "<redacted>");
        let u = User {
            token: Some(s),
            ..User::default()
        };
        assert!(!format!("{u:?}").contains("very-secret"));
    }

    #[test]
    fn redact_text_hides_a_failed_exec_plugins_command_env_and_args() {
        // kube-client's AuthExecRun text, with the Debug of the Command (fresh-user F18)
        let text = "build kube client: auth error: auth exec command 'AZURE_CLIENT_SECRET=\"SEKRITenvAzure\" KUBERNETES_EXEC_INFO=\"{}\" \"/bin/false\" \"--client-secret\" \"pw\"' failed with status exit status: 1: Output { status: ExitStatus(unix_wait_status(256)), stdout: \"\", stderr: \"\" }";
        let t = redact_text(text);
        for secret in [
            "SEKRITenvAzure",
            "AZURE_CLIENT_SECRET",
            "--client-secret",
            "\"pw\"",
        ] {
            assert!(!t.contains(secret), "{secret}: {t}");
        }
        assert!(
            t.contains("auth exec command '<command, arguments and environment hidden>' failed with status exit status: 1"),
            "{t}"
        );
        // two of them, and one cut before its status: nothing of the command is left
        let t = redact_text(&format!("{text}; {}", &text[..80]));
        assert!(!t.contains("SEKRITenvAzure"), "{t}");
        assert_eq!(t.matches("environment hidden").count(), 2, "{t}");
    }

    #[test]
    fn redact_text_hides_long_tokens() {
        let t = redact_text("token kubeconfig-user-aaaaa:FAKEFAKEFAKEFAKEFAKE at line 3");
        assert_eq!(t, "token <redacted> at line 3");
        // tokens of every shape stay hidden: digits, mixed case, base64, long single words
        for secret in [
            "kubeconfig-user-x7k2q:abcdefghijklmnopqrstu0123456789",
            "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ",
            "correcthorsebatterystaplexyz",
            "abcdef.0123456789abcdef",
            "c2VjcmV0LXRva2VuLXZhbHVlLWhlcmU=",
            "Correct-HorseBattery-Staple-Words",
        ] {
            let t = redact_text(&format!("bad credentials {secret} here"));
            assert_eq!(t, "bad credentials <redacted> here", "{secret}");
        }
        // object references and API paths are kept: the message says what failed
        let t = redact_text(
            "reading Namespace/vision-train failed: /api/v1/namespaces/vision-train: deadline has elapsed",
        );
        assert_eq!(
            t,
            "reading Namespace/vision-train failed: /api/v1/namespaces/vision-train: deadline has elapsed"
        );
        let t = redact_text(
            "ResourceQuota/team-vision-a/team-vision-gpu and /apis/rbac.authorization.k8s.io/v1/clusterroles",
        );
        assert!(!t.contains("<redacted>"), "{t}");
        // ... but never a token that happens to sit in a path
        for secret in [
            "/tokens/abcdef.0123456789abcdef",
            "/x/abcdefghijklmnopqrstuvwxyz0123",
            "/x/0123456789abcdef0123456789abcdef",
            "eyJhbGci/OiJSUzI1NiIsImtpZCI6IjEifQ",
            "c2VjcmV0/LXRva2VuLXZhbHVlLWhlcmU=",
        ] {
            let t = redact_text(&format!("bad credentials {secret} here"));
            assert_eq!(t, "bad credentials <redacted> here", "{secret}");
        }
        // flags and field paths of words are kept: the message says how to raise a limit
        let t = redact_text(
            "raise it with --limit kubeconfig-bytes=N (or --max-kubeconfig-bytes N; library: Limits::max_kubeconfig_bytes)",
        );
        assert!(t.contains("--max-kubeconfig-bytes N"), "{t}");
        assert!(t.contains("Limits::max_kubeconfig_bytes"), "{t}");
    }

    /// K11: the hint of every limit (`--limit objects-per-snapshot=N`, 22 characters in one
    /// run) reaches the user whole through both redactors, while a secret written in the same
    /// `words=value` shape stays hidden.
    #[test]
    fn every_limit_hint_survives_redaction_and_key_value_secrets_do_not() {
        for limit in cube_model::Limit::ALL {
            let hint = limit.how_to_raise();
            let msg = format!("reading /api/v1/pods failed: the limit was hit; {hint}");
            assert_eq!(redact_text(&msg), msg, "{limit:?}");
            assert_eq!(cube_model::redact::redact(&msg), msg, "{limit:?}");
            assert!(
                hint.contains(&format!("--limit {}=N", limit.key())),
                "{hint}"
            );
        }
        for secret in [
            "admin-password=S3cretPassw0rd",
            "bootstrap-token=abcdef.0123456789abcdef",
            "objects-per-snapshot=FAKEFAKEFAKEFAKEFAKE",
            "objects-per-snapshot=Nabcdefghijklmnopqrstu",
            "client-secret=correcthorsebattery",
        ] {
            let t = redact_text(&format!("bad credentials {secret} here"));
            assert_eq!(t, "bad credentials <redacted> here", "{secret}");
        }
    }

    #[test]
    fn near_match_finds_typo() {
        let names = ["kuberenetes", "other"];
        assert_eq!(
            near_match("kubernetes", names.iter().copied()),
            Some("kuberenetes")
        );
        assert_eq!(near_match("zzz", names.iter().copied()), None);
    }

    #[test]
    fn server_without_scheme_follows_client_go() {
        assert_eq!(
            normalize_server("10.0.0.1:6443", true).as_deref(),
            Ok("https://10.0.0.1:6443")
        );
        assert_eq!(
            normalize_server("10.0.0.1:6443", false).as_deref(),
            Ok("http://10.0.0.1:6443")
        );
        assert!(normalize_server("https://127.0.0.1:x", true).is_err());
        // credentials in the address are refused and never echoed
        assert!(normalize_server("https://admin:s3cr3t-pass@10.0.0.1:6443", true).is_err());
        assert_eq!(
            redact_server("https://admin:s3cr3t-pass@10.0.0.1:6443/k8s"),
            "https://<redacted>@10.0.0.1:6443/k8s"
        );
        for pass in ["p/ass", "p#ass", "p?ass", "p@ss", "p/a#s?s"] {
            let url = format!("https://admin:{pass}@10.0.0.1:6443");
            let shown = redact_server(&url);
            assert!(!shown.contains(pass) && !shown.contains("admin"), "{shown}");
            let err = validate_server(&url).unwrap_err().to_string();
            assert!(!err.contains(pass) && !err.contains("admin"), "{err}");
        }
        let err = validate_server("https://admin:s3cr3t-pass@10.0.0.1:6443").unwrap_err();
        assert!(!err.to_string().contains("s3cr3t"), "{err}");
    }

    #[track_caller]
    fn check_message(problems: &[Problem], expected: &str) {
        assert_eq!(invalid_configuration_message(problems), expected);
    }

    #[test]
    fn aggregate_message_matches_client_go() {
        let p = |m: &str| {
            problem(
                Severity::Error,
                ProblemKind::NoServer,
                String::new(),
                m.to_string(),
            )
        };
        check_message(&[p("a")], "invalid configuration: a");
        check_message(&[p("a"), p("b")], "invalid configuration: [a, b]");
    }
}
#[cfg(test)]
mod odd_yaml_tests {
    use super::*;
    #[test]
    fn null_lists_and_empty_strings_load() {
        for y in [
            "apiVersion: v1\nkind: Config\nclusters:\nusers:\ncontexts:\ncurrent-context: \"\"\npreferences: {}\n",
            "---\n",
            "# only a comment\n",
            "clusters: []\n",
            "users:\n- name: u\n  user:\n",
        ] {
            let r = Kubeconfig::from_yaml(y, None);
            assert!(r.is_ok(), "{y:?}: {r:?}");
        }
    }
}
#[cfg(test)]
mod scalar_tests {
    use super::*;
    #[test]
    fn numeric_and_bool_scalars_in_string_fields_load() {
        let y = "users:\n- name: u\n  user:\n    token: 12345\n    auth-provider:\n      name: azure\n      config:\n        expires-on: 1700000000\n        environment: AzurePublicCloud\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: x\n      args: [--port, 8080]\n      env:\n      - name: A\n        value: true\n";
        let cfg = Kubeconfig::from_yaml(y, None).expect("load");
        let u = &cfg.users[0].user;
        assert_eq!(u.token.as_ref().map(Secret::expose), Some("12345"));
    }
}
