//! `kubeadm join` commands: parse, validate token and CA pins, match pins against a CA
//! certificate, and judge the bootstrap token's expiry.
//!
//! Mirrors kubeadm: the token format of `cmd/kubeadm/app/apis/bootstraptoken/v1`
//! (`BootstrapTokenString`, `[a-z0-9]{6}\.[a-z0-9]{16}`), the pin format and check of
//! `cmd/kubeadm/app/util/pubkeypin` (`sha256:` + hex SHA-256 of the DER SubjectPublicKeyInfo;
//! `Set.CheckAny` accepts a certificate when ANY pin matches), and the bootstrap token Secret of
//! k8s.io/cluster-bootstrap (`kube-system/bootstrap-token-<id>`, keys `token-id`, `token-secret`,
//! `expiration`, `usage-bootstrap-*`, `auth-extra-groups`, `description`). A token made by
//! `kubeadm token create` lives 24 hours unless `--ttl` says otherwise; the token cleaner in
//! kube-controller-manager deletes expired token Secrets.
//!
//! The token secret (the 16 characters after the dot) and the `--certificate-key` never appear in
//! Debug, Display or errors: they print as `abcdef.****************` and `****`.
//!
//! ```
//! use cube_cluster::join::JoinCommand;
//!
//! let cmd: JoinCommand = "kubeadm join 10.0.0.26:6443 --token abcdef.0123456789abcdef \\\n  \
//!     --discovery-token-ca-cert-hash sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
//!     .parse()
//!     .unwrap();
//! assert_eq!(cmd.endpoint, "10.0.0.26:6443");
//! assert_eq!(format!("{:?}", cmd.token.as_ref().unwrap()), "abcdef.****************");
//! ```

use std::fmt;
use std::str::FromStr;

use cube_model::objects::{BootstrapToken, Time};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Default lifetime of a token made by `kubeadm token create` / `kubeadm init` (24 hours).
pub const DEFAULT_TOKEN_TTL_SECS: i64 = 24 * 60 * 60;
/// Namespace of bootstrap token Secrets.
pub const BOOTSTRAP_TOKEN_NAMESPACE: &str = "kube-system";
/// Secret name prefix of bootstrap tokens.
pub const BOOTSTRAP_TOKEN_SECRET_PREFIX: &str = "bootstrap-token-";
/// Secret `type` of bootstrap tokens.
pub const BOOTSTRAP_TOKEN_SECRET_TYPE: &str = "bootstrap.kubernetes.io/token";

const REDACTED_SECRET: &str = "****************";

/// Errors from parsing join commands, tokens, pins and CA certificates.
///
/// Messages never contain a token secret or a certificate key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JoinError {
    /// The text holds no `kubeadm join` (or `join` arguments were empty).
    #[error("no kubeadm join command found")]
    NoJoinCommand,
    /// A quote was opened and never closed.
    #[error("unterminated quote in join command")]
    UnterminatedQuote,
    /// A flag that needs a value came last.
    #[error("flag {flag} needs a value")]
    MissingValue {
        /// The flag (`--token`).
        flag: String,
    },
    /// No API server endpoint argument (and no `--discovery-file`).
    #[error("join command has no api server endpoint")]
    MissingEndpoint,
    /// More than one positional argument.
    #[error("unexpected argument {argument:?} (endpoint already {endpoint:?})")]
    ExtraArgument {
        /// The extra argument.
        argument: String,
        /// The endpoint already seen.
        endpoint: String,
    },
    /// The endpoint is not `host:port` (kubeadm validates it with Go's `net.SplitHostPort`).
    #[error("invalid api server endpoint {endpoint:?}: {reason}")]
    InvalidEndpoint {
        /// The endpoint as written.
        endpoint: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// The token does not have kubeadm's format.
    #[error("invalid bootstrap token {redacted}: {reason}")]
    InvalidToken {
        /// The token with its secret part masked.
        redacted: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A CA pin does not have kubeadm's format.
    #[error("invalid ca cert hash {value:?}: {reason}")]
    InvalidPin {
        /// The pin as written (pins are public).
        value: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// No certificate could be read.
    #[error("cannot read ca certificate: {reason}")]
    BadCertificate {
        /// What is wrong.
        reason: String,
    },
}

// ------------------------------------------------------------------ token

/// A bootstrap token `<id>.<secret>` (`[a-z0-9]{6}\.[a-z0-9]{16}`). The id is public; the secret
/// is shown only through [`BootstrapTokenString::expose_secret`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BootstrapTokenString {
    id: String,
    secret: String,
}

impl BootstrapTokenString {
    /// The public token id (six characters).
    pub fn id(&self) -> &str {
        &self.id
    }
    /// The whole token including the secret, for the one place that must send it.
    pub fn expose_secret(&self) -> String {
        format!("{}.{}", self.id, self.secret)
    }
    /// `abcdef.****************`.
    pub fn redacted(&self) -> String {
        format!("{}.{REDACTED_SECRET}", self.id)
    }
    /// The Secret that stores this token: `bootstrap-token-<id>`.
    pub fn secret_name(&self) -> String {
        format!("{BOOTSTRAP_TOKEN_SECRET_PREFIX}{}", self.id)
    }
}

impl fmt::Debug for BootstrapTokenString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

impl fmt::Display for BootstrapTokenString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// Mask anything that might be a token: keep a well-formed id, mask the rest.
fn redact_token_text(raw: &str) -> String {
    match raw.split_once('.') {
        Some((id, _)) if id.len() == 6 && id.chars().all(is_token_char) => {
            format!("{id}.{REDACTED_SECRET}")
        }
        _ => "****".to_string(),
    }
}

impl FromStr for BootstrapTokenString {
    type Err = JoinError;
    /// Parse `<id>.<secret>` with kubeadm's regular expression `^([a-z0-9]{6})\.([a-z0-9]{16})$`.
    ///
    /// # Errors
    /// [`JoinError::InvalidToken`] with the secret masked.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason| JoinError::InvalidToken {
            redacted: redact_token_text(s),
            reason,
        };
        let (id, secret) = s
            .split_once('.')
            .ok_or_else(|| err("expected <id>.<secret>"))?;
        if id.len() != 6 || !id.chars().all(is_token_char) {
            return Err(err("token id must be 6 characters of [a-z0-9]"));
        }
        if secret.len() != 16 || !secret.chars().all(is_token_char) {
            return Err(err("token secret must be 16 characters of [a-z0-9]"));
        }
        Ok(BootstrapTokenString {
            id: id.to_string(),
            secret: secret.to_string(),
        })
    }
}

// ------------------------------------------------------------------ pins

/// A CA public key pin `sha256:<64 lowercase hex>`: SHA-256 of the CA certificate's DER
/// SubjectPublicKeyInfo (kubeadm `pubkeypin`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CaPin {
    hex: String,
}

impl CaPin {
    /// The pin of a DER SubjectPublicKeyInfo.
    pub fn from_spki_der(spki: &[u8]) -> Self {
        let digest = Sha256::digest(spki);
        let hex = digest.iter().map(|b| format!("{b:02x}")).collect();
        CaPin { hex }
    }
    /// The 64 hex digits.
    pub fn hex(&self) -> &str {
        &self.hex
    }
}

impl fmt::Display for CaPin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sha256:{}", self.hex)
    }
}

impl FromStr for CaPin {
    type Err = JoinError;
    /// Parse `sha256:<64 hex>` (hex case-insensitive, stored lowercase). kubeadm also accepts a
    /// bare 64-hex value as SHA-256; so do we.
    ///
    /// # Errors
    /// [`JoinError::InvalidPin`] for another format or algorithm.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason| JoinError::InvalidPin {
            value: s.to_string(),
            reason,
        };
        let hex = match s.split_once(':') {
            Some((alg, hex)) if alg.eq_ignore_ascii_case("sha256") => hex,
            Some(_) => return Err(err("unsupported hash algorithm (only sha256)")),
            None => s,
        };
        if hex.len() != 64 {
            return Err(err("expected 64 hex digits after sha256:"));
        }
        if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(err("not a hex string"));
        }
        Ok(CaPin {
            hex: hex.to_ascii_lowercase(),
        })
    }
}

impl TryFrom<String> for CaPin {
    type Error = JoinError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<CaPin> for String {
    fn from(p: CaPin) -> String {
        p.to_string()
    }
}

/// The pins of every certificate in a PEM text (a CA bundle may hold several).
///
/// # Errors
/// [`JoinError::BadCertificate`] when a PEM block is not an X.509 certificate or no certificate
/// is found.
pub fn ca_pins_from_pem(pem: &[u8]) -> Result<Vec<CaPin>, JoinError> {
    let mut pins = Vec::new();
    for block in x509_parser::pem::Pem::iter_from_buffer(pem) {
        let block = match block {
            Ok(b) => b,
            // Trailing text after the last block.
            Err(x509_parser::error::PEMError::MissingHeader) => break,
            Err(e) => {
                return Err(JoinError::BadCertificate {
                    reason: e.to_string(),
                });
            }
        };
        if block.label != "CERTIFICATE" {
            continue;
        }
        pins.push(ca_pin_from_der(&block.contents)?);
    }
    if pins.is_empty() {
        return Err(JoinError::BadCertificate {
            reason: "no CERTIFICATE block in PEM text".to_string(),
        });
    }
    Ok(pins)
}

/// The pin of one DER certificate.
///
/// # Errors
/// [`JoinError::BadCertificate`] when the bytes are not an X.509 certificate.
pub fn ca_pin_from_der(der: &[u8]) -> Result<CaPin, JoinError> {
    let (_, cert) =
        x509_parser::parse_x509_certificate(der).map_err(|e| JoinError::BadCertificate {
            reason: e.to_string(),
        })?;
    Ok(CaPin::from_spki_der(cert.public_key().raw))
}

// ------------------------------------------------------------------ command

/// A secret flag value (the `--certificate-key`), shown as `****`.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretValue(String);

impl SecretValue {
    /// The value, for the one place that must use it.
    pub fn expose_secret(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SecretValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("****")
    }
}

/// A parsed `kubeadm join` command line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct JoinCommand {
    /// API server endpoint as written (`10.0.0.26:6443`, `[fd00::1]:6443`, `cp.example:6443`);
    /// empty with `--discovery-file`.
    pub endpoint: String,
    /// `--token` (used for both discovery and TLS bootstrap).
    pub token: Option<BootstrapTokenString>,
    /// `--discovery-token`, when given apart from `--token`.
    pub discovery_token: Option<BootstrapTokenString>,
    /// `--tls-bootstrap-token`, when given apart from `--token`.
    pub tls_bootstrap_token: Option<BootstrapTokenString>,
    /// Every `--discovery-token-ca-cert-hash`, in order (the flag is repeatable and may hold a
    /// comma-separated list).
    pub ca_cert_hashes: Vec<CaPin>,
    /// `--discovery-token-unsafe-skip-ca-verification`.
    pub unsafe_skip_ca_verification: bool,
    /// `--control-plane`.
    pub control_plane: bool,
    /// `--certificate-key` (control-plane joins; a secret).
    pub certificate_key: Option<SecretValue>,
    /// `--cri-socket`.
    pub cri_socket: Option<String>,
    /// `--node-name`.
    pub node_name: Option<String>,
    /// `--discovery-file`.
    pub discovery_file: Option<String>,
    /// `--apiserver-advertise-address` (control-plane joins).
    pub apiserver_advertise_address: Option<String>,
    /// Other flags as written (`--v=5`, `--ignore-preflight-errors=all`).
    pub other_flags: Vec<String>,
}

/// Flags that take a value (when not written `--flag=value`).
const VALUE_FLAGS: &[&str] = &[
    "token",
    "discovery-token",
    "tls-bootstrap-token",
    "discovery-token-ca-cert-hash",
    "certificate-key",
    "cri-socket",
    "node-name",
    "discovery-file",
    "apiserver-advertise-address",
    "apiserver-bind-port",
    "config",
    "ignore-preflight-errors",
    "skip-phases",
    "patches",
    "v",
];

impl JoinCommand {
    /// Parse the arguments of one join command: the text may start with a prompt, `sudo`, a `#`
    /// comment marker or the `kubeadm` path, and may span lines joined by trailing backslashes.
    /// Everything up to and including `kubeadm join` (or `join`) is skipped.
    ///
    /// # Errors
    /// [`JoinError`] for a missing endpoint, a flag without value, a bad token or pin, an
    /// unterminated quote, or no `join` at all.
    pub fn parse(text: &str) -> Result<Self, JoinError> {
        let words = shell_words(&text.replace("\\\r\n", " ").replace("\\\n", " "))?;
        let start = words
            .iter()
            .position(|w| w == "join")
            .ok_or(JoinError::NoJoinCommand)?;
        let mut cmd = JoinCommand::default();
        let mut it = words[start + 1..].iter();
        while let Some(w) = it.next() {
            let Some(flag) = w
                .strip_prefix("--")
                .or_else(|| w.strip_prefix('-').filter(|_| w.len() > 1))
            else {
                if cmd.endpoint.is_empty() {
                    cmd.endpoint = w.clone();
                    continue;
                }
                return Err(JoinError::ExtraArgument {
                    argument: if w.contains('.') && w.len() == 23 {
                        redact_token_text(w)
                    } else {
                        w.clone()
                    },
                    endpoint: cmd.endpoint.clone(),
                });
            };
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (flag, None),
            };
            let mut value = || -> Result<String, JoinError> {
                match &inline {
                    Some(v) => Ok(v.clone()),
                    None => it.next().cloned().ok_or_else(|| JoinError::MissingValue {
                        flag: format!("--{name}"),
                    }),
                }
            };
            let truthy = |v: &Option<String>| v.as_deref().is_none_or(|v| v != "false");
            match name {
                "token" => cmd.token = Some(value()?.parse()?),
                "discovery-token" => cmd.discovery_token = Some(value()?.parse()?),
                "tls-bootstrap-token" => cmd.tls_bootstrap_token = Some(value()?.parse()?),
                "discovery-token-ca-cert-hash" => {
                    for pin in value()?.split(',').filter(|p| !p.is_empty()) {
                        cmd.ca_cert_hashes.push(pin.trim().parse()?);
                    }
                }
                "certificate-key" => cmd.certificate_key = Some(SecretValue(value()?)),
                "cri-socket" => cmd.cri_socket = Some(value()?),
                "node-name" => cmd.node_name = Some(value()?),
                "discovery-file" => cmd.discovery_file = Some(value()?),
                "apiserver-advertise-address" => cmd.apiserver_advertise_address = Some(value()?),
                "discovery-token-unsafe-skip-ca-verification" => {
                    cmd.unsafe_skip_ca_verification = truthy(&inline)
                }
                "control-plane" | "experimental-control-plane" => {
                    cmd.control_plane = truthy(&inline)
                }
                n if VALUE_FLAGS.contains(&n) => {
                    let v = value()?;
                    cmd.other_flags.push(format!("--{n}={v}"));
                }
                _ => cmd.other_flags.push(w.clone()),
            }
        }
        if cmd.endpoint.is_empty() && cmd.discovery_file.is_none() {
            return Err(JoinError::MissingEndpoint);
        }
        if !cmd.endpoint.is_empty() {
            validate_endpoint(&cmd.endpoint)?;
        }
        Ok(cmd)
    }

    /// Judge the discovery token against the known bootstrap tokens at `now` (see
    /// [`token_status`]); `None` when the command has no token (`--discovery-file` joins).
    pub fn token_status(
        &self,
        tokens: &[BootstrapToken],
        issued_at: Option<Time>,
        now: Time,
    ) -> Option<TokenStatus> {
        self.effective_discovery_token()
            .map(|t| token_status(t.id(), tokens, issued_at, now))
    }

    /// The token used for discovery: `--discovery-token`, else `--token`.
    pub fn effective_discovery_token(&self) -> Option<&BootstrapTokenString> {
        self.discovery_token.as_ref().or(self.token.as_ref())
    }

    /// Check the command's pins against the pins of the real CA (see [`ca_pins_from_pem`]).
    /// Every pin is checked, as kubeadm's `Set.CheckAny` does: a command whose right pin is listed
    /// second still matches.
    pub fn check_pins(&self, ca_pins: &[CaPin]) -> PinCheck {
        let per_pin: Vec<(CaPin, bool)> = self
            .ca_cert_hashes
            .iter()
            .map(|p| (p.clone(), ca_pins.contains(p)))
            .collect();
        let verdict = if per_pin.is_empty() {
            PinVerdict::NotPinned {
                unsafe_skip: self.unsafe_skip_ca_verification,
            }
        } else if let Some(i) = per_pin.iter().position(|(_, m)| *m) {
            PinVerdict::Match { index: i }
        } else {
            PinVerdict::Mismatch
        };
        PinCheck { verdict, per_pin }
    }
}

impl FromStr for JoinCommand {
    type Err = JoinError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        JoinCommand::parse(s)
    }
}

impl fmt::Display for JoinCommand {
    /// The command re-assembled, with the token secret and certificate key masked.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("kubeadm join")?;
        if !self.endpoint.is_empty() {
            write!(f, " {}", self.endpoint)?;
        }
        let opt = |f: &mut fmt::Formatter<'_>, flag: &str, v: &Option<String>| match v {
            Some(v) => write!(f, " --{flag} {v}"),
            None => Ok(()),
        };
        if let Some(t) = &self.token {
            write!(f, " --token {t}")?;
        }
        if let Some(t) = &self.discovery_token {
            write!(f, " --discovery-token {t}")?;
        }
        if let Some(t) = &self.tls_bootstrap_token {
            write!(f, " --tls-bootstrap-token {t}")?;
        }
        for p in &self.ca_cert_hashes {
            write!(f, " --discovery-token-ca-cert-hash {p}")?;
        }
        if self.unsafe_skip_ca_verification {
            f.write_str(" --discovery-token-unsafe-skip-ca-verification")?;
        }
        opt(f, "discovery-file", &self.discovery_file)?;
        if self.control_plane {
            f.write_str(" --control-plane")?;
        }
        if self.certificate_key.is_some() {
            f.write_str(" --certificate-key ****")?;
        }
        opt(
            f,
            "apiserver-advertise-address",
            &self.apiserver_advertise_address,
        )?;
        opt(f, "cri-socket", &self.cri_socket)?;
        opt(f, "node-name", &self.node_name)?;
        for o in &self.other_flags {
            write!(f, " {o}")?;
        }
        Ok(())
    }
}

/// `host:port` as Go's `net.SplitHostPort` accepts it (IPv6 in brackets), with a port 1-65535.
fn validate_endpoint(endpoint: &str) -> Result<(), JoinError> {
    let err = |reason| JoinError::InvalidEndpoint {
        endpoint: endpoint.to_string(),
        reason,
    };
    let (host, port) = if let Some(rest) = endpoint.strip_prefix('[') {
        let (host, after) = rest
            .split_once(']')
            .ok_or_else(|| err("missing ']' in address"))?;
        let port = after
            .strip_prefix(':')
            .ok_or_else(|| err("missing port in address"))?;
        (host, port)
    } else {
        let (host, port) = endpoint
            .rsplit_once(':')
            .ok_or_else(|| err("missing port in address"))?;
        if host.contains(':') {
            return Err(err("too many colons in address"));
        }
        (host, port)
    };
    if host.is_empty() {
        return Err(err("empty host"));
    }
    match port.parse::<u16>() {
        Ok(p) if p > 0 => Ok(()),
        _ => Err(err("port must be a number from 1 to 65535")),
    }
}

/// Find every `kubeadm join` command in a text (a log, a shell history, a README): each line
/// containing `kubeadm join`, with backslash continuations followed (or, when quoted in
/// backticks, up to the closing backtick). A mention in prose that names neither an endpoint
/// (`host:port`) nor a token/discovery flag is skipped. Results keep text order; commands that
/// do not parse are returned as errors (with secrets masked).
pub fn find_join_commands(text: &str) -> Vec<Result<JoinCommand, JoinError>> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if let Some(pos) = lines[i].find("kubeadm join") {
            let line = lines[i];
            let mut joined = line[pos..].to_string();
            // Quoted in prose (`kubeadm join ...`): the command ends at the closing backtick.
            let quoted = line[..pos].trim_end_matches("sudo ").ends_with('`');
            if quoted {
                if let Some(end) = joined.find('`') {
                    joined.truncate(end);
                }
            } else {
                while joined.trim_end().ends_with('\\') && i + 1 < lines.len() {
                    let t = joined.trim_end();
                    joined = format!("{} {}", &t[..t.len() - 1], lines[i + 1]);
                    i += 1;
                }
            }
            if looks_like_command(&joined) {
                out.push(JoinCommand::parse(&joined));
            }
        }
        i += 1;
    }
    out
}

/// A mention of `kubeadm join` in prose (`kubeadm join and error ...`, `kubeadm join --v=6-style
/// lines`) is not a command: a command names an endpoint (`host:port`) or a discovery flag.
fn looks_like_command(text: &str) -> bool {
    let Ok(words) = shell_words(text) else {
        return true; // let the parser report it
    };
    let Some(start) = words.iter().position(|w| w == "join") else {
        return false;
    };
    let mut positional_seen = false;
    for w in &words[start + 1..] {
        if w.starts_with("--token")
            || w.starts_with("--discovery-")
            || w.starts_with("--tls-bootstrap-token")
        {
            return true;
        }
        if !w.starts_with('-') && !positional_seen {
            positional_seen = true;
            if w.contains(':') {
                return true;
            }
        }
    }
    false
}

/// Split a command line like a POSIX shell (whitespace, single and double quotes, backslash
/// escapes); stops at an unquoted `#` starting a word (a comment).
fn shell_words(s: &str) -> Result<Vec<String>, JoinError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(JoinError::UnterminatedQuote),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => cur.push(c),
                            None => return Err(JoinError::UnterminatedQuote),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(JoinError::UnterminatedQuote),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            '#' if !in_word && !words.iter().any(|w| w == "join") => {
                // A leading `#` (a commented-out command in a log): keep reading.
            }
            '#' if !in_word => break,
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

// ------------------------------------------------------------------ pin check result

/// The outcome of [`JoinCommand::check_pins`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PinCheck {
    /// Overall verdict.
    pub verdict: PinVerdict,
    /// Every pin of the command with whether it matches the CA.
    pub per_pin: Vec<(CaPin, bool)>,
}

/// Whether a join command will trust the cluster's CA.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum PinVerdict {
    /// Pin number `index` (0-based, in command order) matches; discovery will trust the CA.
    Match {
        /// Index of the first matching pin.
        index: usize,
    },
    /// No pin matches: kubeadm fails with "none of the public keys ... are pinned".
    Mismatch,
    /// The command has no pins: kubeadm refuses it unless `unsafe_skip` is set, and then trusts
    /// any CA.
    NotPinned {
        /// `--discovery-token-unsafe-skip-ca-verification` was given.
        unsafe_skip: bool,
    },
}

// ------------------------------------------------------------------ token expiry

/// Read a bootstrap token from its Secret (JSON of a `v1` Secret as the API or `kubectl get -o
/// json` returns it), through cube-model's snapshot loader so live reads and snapshot files agree.
/// Returns `None` when the object is not a `bootstrap.kubernetes.io/token` Secret or cannot be
/// read. The `token-secret` key is dropped by the loader and never stored.
pub fn bootstrap_token_from_secret(secret: &serde_json::Value) -> Option<BootstrapToken> {
    let bytes = serde_json::to_vec(secret).ok()?;
    bootstrap_token_from_bytes(&bytes)
}

fn bootstrap_token_from_bytes(bytes: &[u8]) -> Option<BootstrapToken> {
    cube_model::ClusterSnapshot::from_slice("bootstrap-token secret", bytes)
        .bootstrap_tokens
        .pop()
}

/// Whether a join command's token will still be accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum TokenStatus {
    /// The token Secret exists and has not expired (`expires_at` `None` = never expires).
    Valid {
        /// `expiration` of the Secret.
        expires_at: Option<Time>,
        /// Seconds left (`None` when it never expires).
        remaining_secs: Option<i64>,
    },
    /// The token expired (its Secret says so, or it was issued longer ago than the lifetime).
    Expired {
        /// When it expired (or, estimated from the issue time, would have).
        expired_at: Time,
        /// True when estimated from the issue time and the default 24 h lifetime, not read from
        /// the Secret.
        estimated: bool,
    },
    /// The Secret exists and is unexpired, but lacks a usage join needs: without
    /// `signing` the cluster-info ConfigMap never gets the JWS signature ("could not find a JWS
    /// signature"), without `authentication` TLS bootstrap fails.
    MissingUsage {
        /// The missing usages (`signing`, `authentication`).
        missing: Vec<String>,
    },
    /// Cannot tell; the reason says why.
    Unknown {
        /// Why (for example no Secret: expired and deleted by the token cleaner, never created,
        /// or not readable).
        reason: String,
    },
}

/// Judge the token `token_id` at `now` from the bootstrap tokens known (a snapshot's
/// `bootstrap_tokens`, or a live read). `issued_at`, when known (the time the join command was
/// printed), lets a token whose Secret is gone be called expired after the default 24 h
/// lifetime ([`DEFAULT_TOKEN_TTL_SECS`]).
pub fn token_status(
    token_id: &str,
    tokens: &[BootstrapToken],
    issued_at: Option<Time>,
    now: Time,
) -> TokenStatus {
    let Some(t) = tokens.iter().find(|t| t.token_id == token_id) else {
        if let Some(issued) = issued_at {
            let expiry = issued
                .checked_add(jiff::SignedDuration::from_secs(DEFAULT_TOKEN_TTL_SECS))
                .unwrap_or(issued);
            if now >= expiry {
                return TokenStatus::Expired {
                    expired_at: expiry,
                    estimated: true,
                };
            }
        }
        return TokenStatus::Unknown {
            reason: format!(
                "no {BOOTSTRAP_TOKEN_NAMESPACE}/{BOOTSTRAP_TOKEN_SECRET_PREFIX}{token_id} secret: \
                 expired and deleted by the token cleaner, deleted, never created, or not readable"
            ),
        };
    };
    if let Some(exp) = t.expiration
        && now >= exp
    {
        return TokenStatus::Expired {
            expired_at: exp,
            estimated: false,
        };
    }
    let missing: Vec<String> = ["signing", "authentication"]
        .into_iter()
        .filter(|u| !t.usages.iter().any(|x| x == u))
        .map(str::to_string)
        .collect();
    if !missing.is_empty() {
        return TokenStatus::MissingUsage { missing };
    }
    TokenStatus::Valid {
        expires_at: t.expiration,
        remaining_secs: t.expiration.map(|e| now.duration_until(e).as_secs()),
    }
}

/// The token ids a kubeadm output names in its JWS messages (`token ID "abcdef"`,
/// `token id "abcdef"`), in text order, without repeats.
pub fn token_ids_in_text(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let lower = text.to_ascii_lowercase();
    let needle = "token id \"";
    let mut rest = lower.as_str();
    while let Some(p) = rest.find(needle) {
        rest = &rest[p + needle.len()..];
        let id: String = rest.chars().take_while(|c| *c != '"').collect();
        if id.len() == 6 && id.chars().all(is_token_char) && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// Live: read `kube-system/bootstrap-token-<id>` through `client`. `Ok(None)` when the Secret
/// does not exist (deleted or never created).
///
/// # Errors
/// The `kube` error for anything but NotFound (Forbidden included: the caller may not read
/// Secrets in kube-system).
pub async fn fetch_bootstrap_token(
    client: &kube::Client,
    token_id: &str,
) -> Result<Option<BootstrapToken>, kube::Error> {
    let path = format!(
        "/api/v1/namespaces/{BOOTSTRAP_TOKEN_NAMESPACE}/secrets/{BOOTSTRAP_TOKEN_SECRET_PREFIX}{token_id}"
    );
    let req = http::Request::get(path)
        .body(Vec::new())
        .map_err(kube::Error::HttpError)?;
    match client.request_text(req).await {
        // The body holds the token secret: parsed here, only the public part is kept.
        Ok(text) => Ok(bootstrap_token_from_bytes(text.as_bytes())),
        Err(kube::Error::Api(s)) if s.is_not_found() => Ok(None),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_format() {
        assert!(
            "abcdef.0123456789abcdef"
                .parse::<BootstrapTokenString>()
                .is_ok()
        );
        for bad in [
            "ABCDEF.0123456789abcdef",
            "abcde.0123456789abcdef",
            "abcdef.0123456789abcde",
            "abcdef0123456789abcdef",
            "abcdef.0123456789abcdeF",
        ] {
            let e = bad.parse::<BootstrapTokenString>().unwrap_err();
            let text = e.to_string();
            assert!(!text.contains("0123456789abcde"), "{text}");
        }
    }

    #[test]
    fn pin_format() {
        let ok = format!("sha256:{}", "A".repeat(64));
        assert_eq!(ok.parse::<CaPin>().unwrap().hex(), "a".repeat(64));
        assert!(
            format!("sha256:{}", "a".repeat(63))
                .parse::<CaPin>()
                .is_err()
        );
        assert!(
            format!("sha256:{}", "g".repeat(64))
                .parse::<CaPin>()
                .is_err()
        );
        assert!(format!("md5:{}", "a".repeat(64)).parse::<CaPin>().is_err());
    }

    #[test]
    fn shell_words_quotes() {
        assert_eq!(
            shell_words(r#"a 'b c' "d \" e" f\ g"#).unwrap(),
            ["a", "b c", "d \" e", "f g"]
        );
        assert_eq!(
            shell_words("'open").unwrap_err(),
            JoinError::UnterminatedQuote
        );
    }
}
