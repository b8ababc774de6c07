//! Redaction: [`Secret`] holds a secret value so that it never prints, and [`redact`] is the one
//! function every path that turns input text into evidence or problem text goes through.
//!
//! [`redact`] knows these forms (each test in this module names one):
//! - `key=value`, `key="value"`, `key='value'`, `key: value`, `key:\tvalue`, `key value` after a
//!   flag (`--token abc`, `--discovery-token=abc.0123456789abcdef`), `key<TAB>value`;
//! - JSON members (`"token":"..."`, `"password": 123`), one-line JSON objects, flow YAML
//!   (`{token: abc, user: x}`), YAML block scalars under a secret key (`client-key-data: |`);
//! - URL user-info (`https://user:p%2Fa#ss@host`, passwords holding `/`, `#`, `?`, `@`);
//! - `Authorization: Bearer ...` and `Basic ...` credentials;
//! - kubeadm bootstrap tokens `[a-z0-9]{6}.[a-z0-9]{16}` anywhere (the public token id is kept:
//!   `abcdef.<redacted>`), JSON Web Tokens;
//! - PEM blocks (the body between `-----BEGIN X-----` and `-----END X-----`, also on one line
//!   with `\n` escapes), long base64 blobs (`client-key-data`, docker configs);
//! - the values of `data:` and `stringData:` of a Secret (YAML or JSON) when the text shows
//!   `kind: Secret`;
//! - signed-URL parameters (`X-Amz-Signature=`, `X-Amz-Credential=`, `X-Amz-Security-Token=`,
//!   `X-Goog-Signature=`, Azure `sig=`), URL-encoded pairs (`token%3DX`, `password%253DX`);
//! - environment names ending `_KEY`, `_PASS`, `_PWD`, `_AUTH` (`DB_PASS=X`; upper case only, so
//!   a toleration's `key: nvidia.com/gpu` stays);
//! - a generated-looking word after a secret word in prose (`TOKEN X`, `the token X is invalid`,
//!   `bearer token, X`, `secretKey X`), never an object name (`secret default-token-x7k2q`);
//! - the short token flag `-t X` (k3s, rke2) unless `X` reads as an image reference;
//! - tokens with an issuer prefix, keyless: GitHub `ghp_` `gho_` `ghs_` `ghu_` `ghr_`
//!   `github_pat_`, GitLab `glpat-`, AWS `AKIA` / `ASIA` key ids, Slack `xox[abprs]-`,
//!   OpenAI-style `sk-`, Hugging Face `hf_`;
//! - user-info without a scheme, `user:pass@host:port` and `u:pass@registry/image` (not
//!   `image:tag@sha256:...`, not `git@host:repo`, not a mail address).
//!
//! A key is secret when its name, lower-cased without `-`, `_` and `.`, ends with `token`,
//! `password`, `passwd`, `secret`, `keydata`, `certificatedata`, `certificatekey`, `privatekey`, `apikey`,
//! `secretkey`, `accesskey`, `credentials`, `credential`, `signature`, `dockerconfigjson`,
//! `dockercfg`, `passphrase`, `authorization`, `cookie` or `sessionid`, or is `auth`, `pwd`,
//! `pass` or `sig`. Names ending otherwise are not secret, so `discovery-token-ca-cert-hash` (a public
//! pin), `token-id`, `tokenFile` and `secretName` stay readable.

use std::borrow::Cow;
use std::fmt;

/// What replaces a secret.
pub const PLACEHOLDER: &str = "<redacted>";

/// A secret value: `Debug`, `Display` and `Serialize` print [`PLACEHOLDER`]; `Deserialize`
/// reads the value itself. Read it with [`Secret::expose`].
///
/// ```
/// use cube_model::redact::Secret;
/// let token = Secret::new("abcdef.0123456789abcdef".to_owned());
/// assert_eq!(format!("{token} {token:?}"), "<redacted> <redacted>");
/// assert_eq!(serde_json::to_string(&token).unwrap(), "\"<redacted>\"");
/// assert_eq!(token.expose(), "abcdef.0123456789abcdef");
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Secret<T>(T);

/// Another name for [`Secret`].
pub type Redacted<T> = Secret<T>;

impl<T> Secret<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Self {
        Secret(value)
    }
    /// The value (the only way to read it).
    pub fn expose(&self) -> &T {
        &self.0
    }
    /// The value, unwrapped.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> From<T> for Secret<T> {
    fn from(value: T) -> Self {
        Secret(value)
    }
}

impl<T> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PLACEHOLDER)
    }
}

impl<T> fmt::Display for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PLACEHOLDER)
    }
}

impl<T> serde::Serialize for Secret<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(PLACEHOLDER)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Secret<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Secret)
    }
}

/// True when a key (`--discovery-token`, `"client-key-data"`, `password`) names a secret value
/// (see the module docs).
pub fn is_secret_key(key: &str) -> bool {
    let norm: String = key
        .trim_matches(|c: char| c == '-' || c == '"' || c == '\'' || c.is_whitespace())
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    if norm.is_empty() {
        return false;
    }
    const SUFFIXES: [&str; 20] = [
        "token",
        // signed URLs: `X-Amz-Signature`, `X-Goog-Signature`, `Signature` (S3 v2, CloudFront)
        // and `X-Amz-Credential` / `X-Goog-Credential`; `credential: X` in prose
        "signature",
        "credential",
        // a docker config kept in a Secret (`.dockerconfigjson`, `.dockercfg`)
        "dockerconfigjson",
        "dockercfg",
        // kubeadm's `--certificate-key` / `certificateKey`: it decrypts the control-plane keys
        // `kubeadm init --upload-certs` keeps in the kubeadm-certs Secret
        // (kubernetes/kubernetes cmd/kubeadm/app/phases/copycerts)
        "certificatekey",
        "cookie",
        "sessionid",
        "password",
        "passwd",
        "secret",
        "keydata",
        "certificatedata",
        "privatekey",
        "apikey",
        "secretkey",
        "accesskey",
        "credentials",
        "passphrase",
        "authorization",
    ];
    // `sig`: an Azure SAS signature (`?sv=...&sig=...`)
    matches!(norm.as_str(), "auth" | "pwd" | "pass" | "sig")
        || SUFFIXES.iter().any(|s| norm.ends_with(s))
        || is_env_secret_name(key)
}

/// An environment variable name (upper case, digits and `_`, with at least one `_`) whose last
/// part names a secret that the key suffixes do not: `DB_PASS`, `STRIPE_KEY`, `SSH_KEY`,
/// `ADMIN_PWD`, `GIT_AUTH` (`DB_PASSWORD`, `GH_TOKEN`, `APP_SECRET` are secret keys anyway).
/// Lower-case `key` (a toleration's or a label selector's `key: nvidia.com/gpu`) is no such
/// name, nor are `AWS_ACCESS_KEY_ID` or `SSH_KEY_FILE`.
fn is_env_secret_name(key: &str) -> bool {
    let key = key.trim_matches(|c: char| c == '"' || c == '\'' || c == '-' || c.is_whitespace());
    let Some((head, last)) = key.rsplit_once('_') else {
        return false;
    };
    key.starts_with(|c: char| c.is_ascii_uppercase())
        && !head.is_empty()
        && key
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        && matches!(last, "KEY" | "PASS" | "PWD" | "AUTH" | "APIKEY")
}

/// Replaces every secret in `text` by [`PLACEHOLDER`] (see the module docs for the forms).
/// Multi-line texts keep their lines; text without secrets is returned borrowed.
///
/// ```
/// use cube_model::redact::redact;
/// let line = "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef \
///             --discovery-token-ca-cert-hash sha256:aaaa";
/// assert_eq!(
///     redact(line),
///     "kubeadm join 10.0.0.1:6443 --token abcdef.<redacted> --discovery-token-ca-cert-hash sha256:aaaa"
/// );
/// assert_eq!(redact("https://admin:p/a#s?s@10.0.0.1:6443"), "https://<redacted>@10.0.0.1:6443");
/// ```
pub fn redact(text: &str) -> Cow<'_, str> {
    let mut state = State::for_text(text);
    let mut out = String::new();
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let (body, end) = split_line_end(line);
        let redacted = redact_line(body, &mut state);
        state.line += 1;
        match redacted {
            Cow::Borrowed(_) => out.push_str(line),
            Cow::Owned(s) => {
                changed = true;
                out.push_str(&s);
                out.push_str(end);
            }
        }
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// The secret values [`redact`] hides in `text`, each at least [`MIN_KNOWN_SECRET`] bytes,
/// without duplicates (a parse error that quotes a secret under a key [`redact`] cannot see,
/// `owner: [hunter2-x` next to `password: hunter2-x`, is redacted with [`redact_known`]).
///
/// ```
/// use cube_model::redact::secret_values;
/// assert_eq!(secret_values("user: bob\npassword: s3cr3t-pw\n"), vec!["s3cr3t-pw".to_owned()]);
/// ```
pub fn secret_values(text: &str) -> Vec<String> {
    let mut state = State::for_text(text);
    let mut out: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for line in text.split_inclusive('\n') {
        let (body, _) = split_line_end(line);
        let ranges = line_ranges(body, &mut state);
        state.line += 1;
        for (s, e) in ranges {
            let Some(value) = body.get(s..e) else {
                continue;
            };
            let Some(value) = learnable_value(value.trim()) else {
                continue;
            };
            if value.len() >= MIN_KNOWN_SECRET && value != PLACEHOLDER && seen.insert(value) {
                out.push(value.to_owned());
            }
        }
    }
    out
}

/// What of a hidden span is a secret value worth hiding everywhere else. A line of a block
/// scalar under a Secret's `data:` / `stringData:` (a kubeconfig or a config file kept in a
/// Secret) is hidden whole where it is quoted, but only its secret parts are learnt: a line
/// that reads as a YAML mapping entry (`apiVersion: v1`, `- cluster:`, `server: https://...`)
/// gives its value when the key is a secret one (`token: abc`) and nothing otherwise, so
/// ordinary YAML text never becomes a learnt secret that would be hidden out of every remedy
/// and evidence line (`apiVersion: v1` of a printed `kubectl apply` heredoc).
fn learnable_value(value: &str) -> Option<&str> {
    let body = value.trim_start_matches(['-', ' ']);
    let key_end = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/')))
        .unwrap_or(body.len());
    let rest = &body[key_end..];
    let entry = key_end > 0
        && (rest == ":" || rest.starts_with(": ") || rest.starts_with(":\t"))
        && body[..key_end].chars().any(|c| c.is_ascii_alphabetic());
    if !entry {
        return Some(value);
    }
    if !is_secret_key(&body[..key_end]) {
        return None;
    }
    let v = rest[1..].trim().trim_matches(['"', '\'']);
    (!v.is_empty() && !is_block_indicator(v)).then_some(v)
}

/// Shortest value [`secret_values`] returns: shorter ones (`true`, `1`, `abc`) would hide
/// ordinary words wherever they appear.
pub const MIN_KNOWN_SECRET: usize = 6;

/// [`redact`], then every occurrence of a `known` secret value (from [`secret_values`] of the
/// inputs) replaced by [`PLACEHOLDER`] wherever it appears, whatever surrounds it.
///
/// ```
/// use cube_model::redact::{redact_known, secret_values};
/// let known = secret_values("password: s3cr3t-pw\n");
/// assert_eq!(redact_known("2 | owner: [s3cr3t-pw", &known), "2 | owner: [<redacted>");
/// ```
pub fn redact_known<'a>(text: &'a str, known: &[String]) -> Cow<'a, str> {
    let redacted = redact(text);
    if !known.iter().any(|k| redacted.contains(k.as_str())) {
        return redacted;
    }
    let mut out = redacted.into_owned();
    // longest first, so a secret that holds another is hidden whole
    let mut sorted: Vec<&String> = known.iter().collect();
    sorted.sort_by_key(|k| std::cmp::Reverse(k.len()));
    for k in sorted {
        if out.contains(k.as_str()) {
            out = out.replace(k.as_str(), PLACEHOLDER);
        }
    }
    Cow::Owned(out)
}

/// Known secret values (from [`secret_values`] of the inputs), each hidden wherever it shows up
/// in a text, in one pass over the text whatever their number: a kubeconfig of 10,000 users
/// gives 10,000 known tokens, and hiding them one after the other in every string of a report
/// took minutes (the cost was strings x secrets x length). Values shorter than
/// [`MIN_KNOWN_SECRET`] bytes are not kept.
///
/// ```
/// use cube_model::redact::KnownSecrets;
/// let mut known = KnownSecrets::new();
/// known.extend(["s3cr3t-pw".to_owned(), "s3cr3t-pw-longer".to_owned(), "abc".to_owned()]);
/// assert_eq!(known.len(), 2);
/// assert_eq!(known.hide("a s3cr3t-pw-longer b s3cr3t-pw"), "a <redacted> b <redacted>");
/// ```
#[derive(Clone, Default)]
pub struct KnownSecrets {
    values: Vec<String>,
    /// Indexes into `values` by their first [`MIN_KNOWN_SECRET`] bytes, longest value first.
    by_prefix: std::collections::HashMap<[u8; MIN_KNOWN_SECRET], Vec<usize>>,
    /// Bit `b0 << 8 | b1` set when some value starts with the bytes `b0 b1` (a cheap first test
    /// at each position of a text).
    first_two: Box<[u64]>,
}

impl fmt::Debug for KnownSecrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KnownSecrets({} values)", self.values.len())
    }
}

impl KnownSecrets {
    /// No secrets known.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a value (no effect when shorter than [`MIN_KNOWN_SECRET`] bytes, the placeholder or
    /// already known); true when it was added.
    pub fn insert(&mut self, value: String) -> bool {
        let Some(prefix) = value
            .as_bytes()
            .get(..MIN_KNOWN_SECRET)
            .and_then(|p| <[u8; MIN_KNOWN_SECRET]>::try_from(p).ok())
        else {
            return false;
        };
        if value == PLACEHOLDER {
            return false;
        }
        let bucket = self.by_prefix.entry(prefix).or_default();
        if bucket.iter().any(|&i| self.values[i] == value) {
            return false;
        }
        if self.first_two.is_empty() {
            self.first_two = vec![0u64; 1024].into_boxed_slice();
        }
        let bit = usize::from(prefix[0]) << 8 | usize::from(prefix[1]);
        self.first_two[bit / 64] |= 1 << (bit % 64);
        self.values.push(value);
        bucket.push(self.values.len() - 1);
        let values = &self.values;
        bucket.sort_by_key(|&i| std::cmp::Reverse(values[i].len()));
        true
    }

    /// Adds every value of `values` ([`KnownSecrets::insert`]).
    pub fn extend(&mut self, values: impl IntoIterator<Item = String>) {
        for v in values {
            self.insert(v);
        }
    }

    /// Number of values known.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when no value is known.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// `text` with every known value replaced by [`PLACEHOLDER`] (the longest value that
    /// matches at a position wins); borrowed when nothing was found.
    pub fn hide<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.values.is_empty() || text.len() < MIN_KNOWN_SECRET {
            return Cow::Borrowed(text);
        }
        let mut out = None;
        self.hide_until(text, text.len(), &mut out);
        match out {
            None => Cow::Borrowed(text),
            Some(o) => Cow::Owned(o),
        }
    }

    /// Length in bytes of the longest known value (0 when none).
    pub fn max_len(&self) -> usize {
        self.values.iter().map(String::len).max().unwrap_or(0)
    }

    /// [`KnownSecrets::hide`] of a text that arrives in pieces: looks for values at the
    /// positions of `text` before `upto` (a character boundary) and returns how much of `text`
    /// is done (`upto`, or past it when a value starting before `upto` ends after it, or less
    /// when fewer than [`MIN_KNOWN_SECRET`] bytes follow; all of `text` when `upto` is its
    /// length). Where a value was found, `out` (`None` until then)
    /// holds the done part with each value replaced by [`PLACEHOLDER`]; while it is `None` the
    /// done part is `text[..done]` unchanged. The caller keeps `text[done..]` and calls again
    /// with more text appended; every position is looked at with at least
    /// [`KnownSecrets::max_len`] bytes after it when `upto <= text.len() - max_len()`, so the
    /// result is the same as one [`KnownSecrets::hide`] of the whole text.
    pub fn hide_until(&self, text: &str, upto: usize, out: &mut Option<String>) -> usize {
        let b = text.as_bytes();
        let mut copied = 0;
        let mut i = 0;
        while i < upto && i + MIN_KNOWN_SECRET <= b.len() {
            let bit = usize::from(b[i]) << 8 | usize::from(b[i + 1]);
            if self.first_two[bit / 64] & (1 << (bit % 64)) != 0
                && let Ok(prefix) = <[u8; MIN_KNOWN_SECRET]>::try_from(&b[i..i + MIN_KNOWN_SECRET])
                && let Some(bucket) = self.by_prefix.get(&prefix)
                && let Some(len) = bucket
                    .iter()
                    .map(|&k| self.values[k].as_bytes())
                    .find(|v| b[i..].starts_with(v))
                    .map(<[u8]>::len)
            {
                // a value is valid UTF-8, so a match starts and ends on character boundaries
                let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
                o.push_str(&text[copied..i]);
                o.push_str(PLACEHOLDER);
                i += len;
                copied = i;
                continue;
            }
            i += 1;
        }
        // the whole text when it is the last piece; else where the scan stopped
        let done = if upto >= b.len() { b.len() } else { i };
        if let Some(o) = out {
            o.push_str(&text[copied..done]);
        }
        done
    }
}

/// [`redact`], then every [`KnownSecrets`] value hidden wherever it appears (one pass, however
/// many values are known); [`redact_known`] for a plain list.
pub fn redact_with_known<'a>(text: &'a str, known: &KnownSecrets) -> Cow<'a, str> {
    match redact(text) {
        Cow::Borrowed(t) => known.hide(t),
        Cow::Owned(t) => match known.hide(&t) {
            Cow::Borrowed(_) => Cow::Owned(t),
            Cow::Owned(h) => Cow::Owned(h),
        },
    }
}

/// [`redact`] into an owned `String`.
pub fn redact_string(text: &str) -> String {
    redact(text).into_owned()
}

/// Removes the user-info of a URL (`https://user:pass@host` -> `https://<redacted>@host`),
/// anywhere in `text`. Part of [`redact`]; exposed for callers that hold a bare URL.
pub fn redact_url(text: &str) -> Cow<'_, str> {
    let ranges = url_userinfo_ranges(text);
    if ranges.is_empty() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(apply(text, ranges))
    }
}

fn split_line_end(line: &str) -> (&str, &str) {
    let body = line.trim_end_matches(['\n', '\r']);
    (body, &line[body.len()..])
}

fn mentions_secret_kind(text: &str) -> bool {
    let mut rest = text;
    while let Some(i) = rest.find("Secret") {
        let before = rest[..i].trim_end_matches([' ', '"', '\'', '\t']);
        if before.ends_with(':')
            && before[..before.len() - 1]
                .trim_end_matches(['"', '\'', ' '])
                .ends_with("kind")
        {
            return true;
        }
        rest = &rest[i + "Secret".len()..];
    }
    false
}

/// State carried from line to line.
#[derive(Default)]
struct State {
    /// Inside a PEM block (after its BEGIN line).
    in_pem: bool,
    /// Inside a YAML block scalar of a secret key: the key's indentation.
    block_indent: Option<usize>,
    /// The text is (or holds) a Secret.
    secret_doc: bool,
    /// Inside a Secret's YAML `data:`/`stringData:` map: its key's indentation.
    data_indent: Option<usize>,
    /// Inside a Secret's JSON `"data": {` object: brace depth (1 = the data object).
    json_data_depth: usize,
    /// The current line (0-based).
    line: usize,
    /// Lines that open a `data:` / `stringData:` of an object whose own `kind` is not Secret
    /// (a ConfigMap next to a Secret in one List), sorted: see [`data_of_other_kinds`].
    other_kind_data: Vec<usize>,
}

impl State {
    fn for_text(text: &str) -> State {
        let secret_doc = mentions_secret_kind(text);
        State {
            secret_doc,
            other_kind_data: if secret_doc {
                data_of_other_kinds(text)
            } else {
                Vec::new()
            },
            ..State::default()
        }
    }

    /// True when the current line opens the data of an object known not to be a Secret.
    fn data_of_other_kind(&self) -> bool {
        self.other_kind_data.binary_search(&self.line).is_ok()
    }
}

/// Lines scanned either way from a `data:` line for its object's `kind` (a larger object is
/// taken as a Secret's when the text shows one, as before).
const KIND_SCAN_LINES: usize = 20_000;

/// A line's mapping key: the column it starts at (after indentation and `- ` item marks),
/// whether the line starts a sequence item, the key (quotes removed) and the value after `:`.
fn line_key(line: &str) -> (usize, bool, &str, &str) {
    let mut at = indent_of(line);
    let mut item = false;
    while let Some(rest) = line[at..].strip_prefix('-') {
        if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
            break;
        }
        item = true;
        at = line.len() - rest.trim_start_matches([' ', '\t']).len();
    }
    let body = &line[at..];
    let (key, after) = if let Some(q) = body.strip_prefix('"') {
        match q.find('"') {
            Some(e) => (&q[..e], &q[e + 1..]),
            None => ("", ""),
        }
    } else {
        let e = body.find(':').unwrap_or(body.len());
        (&body[..e], &body[e..])
    };
    let value = after.trim_start().strip_prefix(':').map_or("", str::trim);
    (at, item, key, value)
}

/// The lines (0-based, sorted) that open a `data:` / `stringData:` map (YAML, or pretty-printed
/// JSON as `kubectl -o json` writes it) of an object whose own `kind` key, a sibling of the
/// data key found above or below it at the same column, names another kind than Secret: the
/// kubeadm `kube-public/cluster-info` ConfigMap's public `kubeconfig` next to a Secret in one
/// List is not Secret data. Where no sibling `kind` is found (an excerpt, one-line JSON), the
/// data is taken as a Secret's when the text shows one, as before.
fn data_of_other_kinds(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let skip = |l: &str| {
        let t = l.trim_start();
        t.is_empty() || t.starts_with('#')
    };
    // a document separator ends the object
    let separator = |l: &str| l.starts_with("---") || l.starts_with("...");
    let kind_of = |v: &str| -> String {
        let v = v.split(" #").next().unwrap_or(v);
        v.trim()
            .trim_end_matches(',')
            .trim()
            .trim_matches(['"', '\''])
            .to_owned()
    };
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if skip(l) {
            continue;
        }
        let (col, item, key, _) = line_key(l);
        if key != "data" && key != "stringData" {
            continue;
        }
        let mut kind = None;
        if !item {
            for j in (i.saturating_sub(KIND_SCAN_LINES)..i).rev() {
                if separator(lines[j]) {
                    break;
                }
                if skip(lines[j]) {
                    continue;
                }
                let (c, it, k, v) = line_key(lines[j]);
                if c < col {
                    break;
                }
                if c == col {
                    if k == "kind" {
                        kind = Some(kind_of(v));
                        break;
                    }
                    if it {
                        break;
                    }
                }
            }
        }
        if kind.is_none() {
            for l2 in lines.iter().skip(i + 1).take(KIND_SCAN_LINES) {
                if separator(l2) {
                    break;
                }
                if skip(l2) {
                    continue;
                }
                let (c, it, k, v) = line_key(l2);
                if c < col || (c == col && it) {
                    break;
                }
                if c == col && k == "kind" {
                    kind = Some(kind_of(v));
                    break;
                }
            }
        }
        if kind.is_some_and(|k| !k.is_empty() && k != "Secret") {
            out.push(i);
        }
    }
    out
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

fn redact_line<'a>(line: &'a str, st: &mut State) -> Cow<'a, str> {
    let ranges = line_ranges(line, st);
    if ranges.is_empty() {
        Cow::Borrowed(line)
    } else {
        Cow::Owned(apply(line, ranges))
    }
}

/// The byte ranges of `line` that hold a secret (unmerged, possibly overlapping).
fn line_ranges(line: &str, st: &mut State) -> Vec<(usize, usize)> {
    // PEM body lines (multi-line block)
    if st.in_pem {
        if let Some(end) = line.find("-----END") {
            st.in_pem = false;
            if line[..end].trim().is_empty() {
                return Vec::new();
            }
            return vec![(0, end)];
        }
        if line.trim().is_empty() {
            return Vec::new();
        }
        return vec![(indent_of(line), line.len())];
    }
    // YAML block scalar of a secret key
    if let Some(key_indent) = st.block_indent {
        if line.trim().is_empty() {
            return Vec::new();
        }
        if indent_of(line) > key_indent {
            return vec![(indent_of(line), line.len())];
        }
        st.block_indent = None;
    }
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    // A Secret's YAML data map
    if let Some(data_indent) = st.data_indent
        && !line.trim().is_empty()
        && !line.trim_start().starts_with('#')
    {
        let ind = indent_of(line);
        if ind <= data_indent {
            st.data_indent = None;
        } else {
            match line.find(':') {
                Some(c) if c + 1 < line.len() => {
                    let v = c + 1 + (line.len() - c - 1 - line[c + 1..].trim_start().len());
                    if v < line.len() {
                        let value = line[v..].trim_end();
                        if is_block_indicator(value) {
                            st.block_indent = Some(ind);
                        } else {
                            ranges.push((v, v + value.len()));
                        }
                    }
                }
                Some(_) => {}
                None => ranges.push((ind, line.trim_end().len())),
            }
        }
    }
    if st.secret_doc && st.data_indent.is_none() && ranges.is_empty() && !st.data_of_other_kind() {
        let t = line.trim_start();
        if let Some(rest) = t
            .strip_prefix("data:")
            .or_else(|| t.strip_prefix("stringData:"))
            && (rest.trim().is_empty() || rest.trim_start().starts_with('#'))
        {
            st.data_indent = Some(indent_of(line));
        }
    }
    json_secret_data(line, st, &mut ranges);
    pem_inline(line, st, &mut ranges);
    key_values(line, st, &mut ranges);
    ranges.extend(url_userinfo_ranges(line));
    auth_schemes(line, &mut ranges);
    login_passwords(line, &mut ranges);
    short_token_flags(line, &mut ranges);
    encoded_pairs(line, &mut ranges);
    provider_tokens(line, &mut ranges);
    bare_userinfo(line, &mut ranges);
    bootstrap_tokens(line, &mut ranges);
    jwts(line, &mut ranges);
    base64_blobs(line, &mut ranges);
    ranges
}

/// Replaces the byte ranges (merged when they overlap) by the placeholder.
fn apply(text: &str, mut ranges: Vec<(usize, usize)>) -> String {
    ranges.retain(|(s, e)| s < e && *e <= text.len());
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e) in merged {
        // ranges are built on char boundaries; stay safe anyway
        let (Some(keep), true) = (text.get(at..s), text.is_char_boundary(e)) else {
            continue;
        };
        out.push_str(keep);
        out.push_str(PLACEHOLDER);
        at = e;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

fn is_block_indicator(value: &str) -> bool {
    let v = value.split('#').next().unwrap_or("").trim();
    !v.is_empty()
        && (v.starts_with('|') || v.starts_with('>'))
        && v[1..]
            .chars()
            .all(|c| matches!(c, '-' | '+') || c.is_ascii_digit())
}

fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

/// `key=value`, `key: value`, `"key": value`, `--key value`, `key<TAB>value`.
fn key_values(line: &str, st: &mut State, ranges: &mut Vec<(usize, usize)>) {
    let b = line.as_bytes();
    let flow = line.contains('{');
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'=' || c == b':' {
            // the key just before (quotes and spaces before '=' allowed)
            let mut k_end = i;
            while k_end > 0 && matches!(b[k_end - 1], b' ' | b'\t') && c == b'=' {
                k_end -= 1;
            }
            let quoted = k_end > 0 && matches!(b[k_end - 1], b'"' | b'\'');
            if quoted {
                k_end -= 1;
                // a key quoted inside a quoted string (`\"token\":`, Go's %q of a JSON body)
                if k_end > 0 && b[k_end - 1] == b'\\' {
                    k_end -= 1;
                }
            }
            let mut k_start = k_end;
            while k_start > 0 && is_key_char(b[k_start - 1]) {
                k_start -= 1;
            }
            let key = &line[k_start..k_end];
            // `https://` is a scheme, `a:b` inside a URL is handled by the URL rule
            let url_like = c == b':' && line[i + 1..].starts_with("//");
            if !key.is_empty() && !url_like && is_secret_key(key) {
                // a mapping key starts its line (YAML, `- key:`, `{key:`, `"key":`); a `key:` in
                // the middle of prose ("the bootstrap token: it expired") only hides a value
                // that looks like a credential
                // (`> ` and `< ` start the request and response headers of `curl -v`)
                let head = line[..k_start - usize::from(quoted && k_start > 0)]
                    .trim_start_matches([' ', '\t', '>', '<'])
                    .trim_start_matches("- ");
                // a kind name (`BootstrapToken: 3 objects in 1 page(s)`, a progress or count
                // line) is no mapping key: only a credential-looking value is hidden
                let mapping = !is_kind_name(key)
                    && (c == b'='
                        || head.is_empty()
                        || head.ends_with(['{', ',', '['])
                        || line[..k_start].trim_end().ends_with(['{', ',']));
                if let Some((s, e, block)) = value_span(line, i + 1, c == b':', flow, mapping) {
                    if block {
                        st.block_indent = Some(indent_of(line));
                    } else if s < e && !plain_value(&line[s..e]) {
                        ranges.push(keep_token_id(line, s, e));
                    }
                    i = e.max(i + 1);
                    continue;
                }
            }
        } else if (c == b' ' || c == b'\t') && i > 0 {
            // flag or bare key followed by whitespace: `--token abc`, `token<TAB>abc`
            let mut k_start = i;
            while k_start > 0 && is_key_char(b[k_start - 1]) {
                k_start -= 1;
            }
            let word_start_ok = k_start == 0 || matches!(b[k_start - 1], b' ' | b'\t' | b'"');
            let key = &line[k_start..i];
            let is_flag = key.starts_with("--") || (key.starts_with('-') && key.len() > 2);
            if word_start_ok && (is_flag || c == b'\t') && is_secret_key(key) {
                let mut v = i;
                while v < b.len() && matches!(b[v], b' ' | b'\t') {
                    v += 1;
                }
                // `token<TAB>=<TAB>value`: the separator is not the value
                if v < b.len() && matches!(b[v], b'=' | b':') {
                    v += 1;
                    while v < b.len() && matches!(b[v], b' ' | b'\t') {
                        v += 1;
                    }
                }
                if v < b.len() && b[v] != b'-' {
                    let e = token_end(line, v, false);
                    if e > v {
                        ranges.push(keep_token_id(line, v, e));
                        i = e;
                        continue;
                    }
                }
            } else if word_start_ok
                && c == b' '
                && let Some((v, e)) = prose_secret(line, key, i)
            {
                ranges.push(keep_token_id(line, v, e));
                i = e;
                continue;
            }
        } else if c == b',' && i > 0 && b.get(i + 1) == Some(&b' ') {
            // `invalid bearer token, X`: a secret key, a comma, then the value
            let mut k_start = i;
            while k_start > 0 && is_key_char(b[k_start - 1]) {
                k_start -= 1;
            }
            let word_start_ok = k_start == 0 || matches!(b[k_start - 1], b' ' | b'\t' | b'"');
            if word_start_ok
                && k_start < i
                && let Some((v, e)) = prose_secret(line, &line[k_start..i], i + 1)
            {
                ranges.push(keep_token_id(line, v, e));
                i = e;
                continue;
            }
        }
        i += 1;
    }
}

/// A secret written in prose after its key and a space (`password hunter2-x`, `the password is
/// hunter2-x`, `passwd: ` is a `key: value` form and handled there): the span of the word after
/// `key` (and after one `is`, `was` or `to`) when the key names a password or, for other secret
/// keys (`token`, `apikey`, ...), when the word is long. Only a word that looks like a
/// credential ([`looks_like_credential`]) is hidden, so `password authentication failed` and
/// `secret "db" not found` stay readable.
fn prose_secret(line: &str, key: &str, after_key: usize) -> Option<(usize, usize)> {
    let norm: String = key
        .trim_matches(|c: char| c == '"' || c == '\'')
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect();
    let password = matches!(
        norm.as_str(),
        "password" | "passwd" | "pwd" | "pass" | "passphrase" | "passcode"
    ) || norm.ends_with("password");
    if !password && !is_secret_key(key) {
        return None;
    }
    let b = line.as_bytes();
    let skip_spaces = |mut v: usize| {
        while v < b.len() && b[v] == b' ' {
            v += 1;
        }
        v
    };
    let mut v = skip_spaces(after_key);
    for filler in ["is ", "was ", "to "] {
        if line[v..].starts_with(filler) {
            v = skip_spaces(v + filler.len());
            break;
        }
    }
    if v >= b.len() || matches!(b[v], b'-' | b'"' | b'\'') || line[v..].starts_with(PLACEHOLDER) {
        return None;
    }
    let e = token_end(line, v, true);
    let word = line[v..e].trim_end_matches(['.', ':', ')']);
    let e = v + word.len();
    // after `token` / `secret` in prose, a name is where a secret lives (`secret
    // default-token-x7k2q not found`), not the secret
    let long_enough = password
        || (word.chars().count() >= 16 && !object_name_like(word))
        || opaque_secret_word(word);
    (e > v && long_enough && looks_like_credential(word)).then_some((v, e))
}

/// A word that reads as a generated secret, not as a name (`TOKEN SALT0123XYZ`, `the token
/// 0a1b2c3d is invalid`, `secretKey Q2xvdWQxMjM`): 8 or more characters of `[A-Za-z0-9_+/=~.-]`
/// with a letter and a digit, and not shaped like a Kubernetes object name, a host, a version or
/// a path (lower case, digits and `-` `.` `/` with one of those separators:
/// `default-token-x7k2q`, `node-01.example`, `v1.28.3`, `kube-system/bootstrap-token-abcdef`),
/// which prose writes after `token` and `secret` as references to where a secret lives.
fn opaque_secret_word(word: &str) -> bool {
    let allowed =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '+' | '/' | '=' | '~' | '.' | '-');
    word.chars().count() >= 8
        && word.chars().all(allowed)
        && word.chars().any(|c| c.is_ascii_digit())
        && word.chars().any(|c| c.is_ascii_alphabetic())
        && !object_name_like(word)
        && !word.starts_with('/')
}

/// Lower case, digits and `-` `.` `/`, with one of those separators: a Kubernetes object name
/// (`default-token-x7k2q`, `kube-system/bootstrap-token-abcdef`), a host or a version.
fn object_name_like(word: &str) -> bool {
    word.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '/'))
        && word.contains(['-', '.', '/'])
}

/// The span of a value starting at `from` (after `=` or `:`): a quoted string's inside, a bare
/// token, or the rest of the line for `key: value` outside flow collections. The bool is true
/// for a YAML block scalar indicator (the value follows on the next lines).
fn value_span(
    line: &str,
    from: usize,
    colon: bool,
    flow: bool,
    mapping: bool,
) -> Option<(usize, usize, bool)> {
    let b = line.as_bytes();
    let mut v = from;
    while v < b.len() && matches!(b[v], b' ' | b'\t') {
        v += 1;
    }
    if v >= b.len() {
        return None;
    }
    // a value quoted inside a quoted string (`\"token\":\"abc\"`, `token=\"abc\"`)
    if line[v..].starts_with("\\\"") {
        let inner = v + 2;
        let end = line[inner..].find("\\\"").map_or(b.len(), |e| inner + e);
        return Some((inner, end, false));
    }
    if matches!(b[v], b'"' | b'\'') {
        let q = b[v];
        let mut j = v + 1;
        while j < b.len() {
            if b[j] == b'\\' && q == b'"' {
                j += 2;
                continue;
            }
            if b[j] == q {
                return Some((v + 1, j, false));
            }
            j += 1;
        }
        return Some((v + 1, b.len(), false));
    }
    if colon && is_block_indicator(&line[v..]) {
        return Some((v, v, true));
    }
    if line[v..].starts_with(PLACEHOLDER) {
        return Some((v, v, false));
    }
    if !mapping {
        let e = token_end(line, v, true);
        return looks_like_credential(&line[v..e]).then_some((v, e, false));
    }
    let e = if colon && !flow {
        // `key: value with spaces` up to the end of the line (or a YAML comment)
        let rest = &line[v..];
        let cut = rest.find(" #").unwrap_or(rest.len());
        v + rest[..cut].trim_end().len()
    } else {
        token_end(line, v, true)
    };
    Some((v, e, false))
}

/// A value after a secret-sounding key that holds no secret (G5): a YAML/JSON boolean or null
/// (`automountServiceAccountToken: false`, `password: null`, `secret: ~`) or a nested flow
/// mapping (`authorization: {mode: Webhook}`, whose own keys are checked where they stand).
/// Hiding these made the evidence unreadable and hid nothing.
fn plain_value(value: &str) -> bool {
    let v = value.trim().trim_end_matches(',').trim_end();
    matches!(
        v,
        "true" | "false" | "True" | "False" | "TRUE" | "FALSE" | "null" | "Null" | "NULL" | "~"
    ) || v.starts_with('{')
}

/// A word that may be a credential (not an English word of prose): 6+ characters with a digit
/// or a symbol, or 16+ characters.
fn looks_like_credential(word: &str) -> bool {
    let n = word.chars().count();
    (n >= 6 && word.chars().any(|c| !c.is_alphabetic())) || n >= 16
}

/// End of a bare token: whitespace, quotes and separators end it.
fn token_end(line: &str, from: usize, stop_at_comma: bool) -> usize {
    let b = line.as_bytes();
    let mut e = from;
    while e < b.len() {
        let c = b[e];
        if c.is_ascii_whitespace()
            || matches!(c, b'"' | b'\'' | b'&' | b';' | b'}' | b']' | b')' | b'`')
            || (stop_at_comma && c == b',')
        {
            break;
        }
        e += 1;
    }
    e
}

/// `scheme://userinfo@host`: the user-info, up to the last `@` of the URL (a password may hold
/// `/`, `#`, `?` and `@`).
fn url_userinfo_ranges(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut search = 0;
    while let Some(p) = line[search..].find("://") {
        let start = search + p + 3;
        let mut end = start;
        while end < b.len()
            && !b[end].is_ascii_whitespace()
            && !matches!(b[end], b'"' | b'\'' | b'<' | b'>' | b'`')
        {
            end += 1;
        }
        let url = &line[start..end];
        // the next URL on the line starts a new search
        let url = match url.find("://") {
            Some(n) => &url[..n],
            None => url,
        };
        if let Some(at) = url.rfind('@') {
            let info = &url[..at];
            let path_like = !info.contains(':') && info.contains(['/', '?', '#']);
            if !info.is_empty() && !path_like && info != PLACEHOLDER {
                out.push((start, start + at));
            }
        } else if let Some(at) = spaced_password_end(line, start, url) {
            // `user:pass phrase@host`: a password with blanks, written unencoded (a kubeconfig's
            // quoted server value): the run stopped at the first blank
            out.push((start, at));
        }
        search = start;
    }
    out
}

/// The end (the `@`) of a URL user-info whose password holds blanks: `url` (the run after
/// `://` up to the first blank) is `user:<start of password>` with no `@` and a password start
/// that is no port number, and the same line goes on, without another `://` or a quote, to an
/// `@` followed by a host (letters, digits, `.`, `-`, `[`, `:`), within 256 bytes.
fn spaced_password_end(line: &str, start: usize, url: &str) -> Option<usize> {
    let (user, pass) = url.split_once(':')?;
    if user.is_empty() || user.contains(['/', '?', '#']) || pass.is_empty() {
        return None;
    }
    if pass.bytes().all(|c| c.is_ascii_digit()) || pass.contains('/') {
        return None;
    }
    let from = start + url.len();
    let mut end = line.len().min(from + 256);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let window = line.get(from..end)?;
    let stop = window
        .find(['"', '\'', '<', '>', '`', '\n'])
        .unwrap_or(window.len());
    let stop = window[..stop].find("://").unwrap_or(stop);
    let at = window[..stop].find('@')?;
    let host_starts = window[at + 1..]
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '[');
    host_starts.then_some(from + at)
}

/// `Bearer <token>` and `Basic <credentials>` (case-insensitive).
/// The short password flags of login commands, where `-p` means a password (elsewhere it means
/// a port or `mkdir -p`): `docker login -u x -p <pw>` (also podman, helm registry, nerdctl,
/// buildah) and `mysql -p<pw>` / `mysqladmin -p<pw>` (the value glued to the flag).
fn login_passwords(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let words: Vec<(usize, &str)> = line
        .split([' ', '\t'])
        .scan(0usize, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let login = words.iter().any(|(_, w)| *w == "login");
    let mysql = words.iter().any(|(_, w)| {
        let base = w.rsplit('/').next().unwrap_or(w);
        matches!(base, "mysql" | "mysqladmin" | "mysqldump" | "mariadb")
    });
    for (i, &(at, w)) in words.iter().enumerate() {
        if login && w == "-p" {
            if let Some(&(v, value)) = words.get(i + 1)
                && !value.starts_with('-')
            {
                ranges.push((v, v + value.len()));
            }
        } else if mysql && w.len() > 2 && w.starts_with("-p") && !w.starts_with("-p=") {
            ranges.push((at + 2, at + w.len()));
        }
    }
}

fn auth_schemes(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let lower = line.to_ascii_lowercase();
    for scheme in ["bearer", "basic"] {
        let mut from = 0;
        while let Some(p) = lower[from..].find(scheme) {
            let s = from + p;
            let e = s + scheme.len();
            from = e;
            let boundary_before = s == 0 || !lower.as_bytes()[s - 1].is_ascii_alphanumeric();
            let b = line.as_bytes();
            if !boundary_before || e >= b.len() || !matches!(b[e], b' ' | b'\t') {
                continue;
            }
            let mut v = e;
            while v < b.len() && matches!(b[v], b' ' | b'\t') {
                v += 1;
            }
            let end = token_end(line, v, false);
            // `basic` in prose ("basic auth failed"): only a credential-looking word
            let word = &line[v..end];
            let looks = word.len() >= 8
                && word
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+/=-_.~:".contains(&c));
            if end > v && looks && word != PLACEHOLDER {
                ranges.push((v, end));
            }
        }
    }
}

/// The short token flag `-t X` of k3s and rke2 (`k3s agent -t X`, urfave/cli's alias of
/// `--token`) and of CLIs that follow them. Elsewhere `-t` names an image (`docker build -t
/// repo/name:tag`), a terminal or a count (`-t 30`), so outside a k3s / rke2 line only a value
/// that looks like a credential and not like an image reference (lower case, digits, `._/:@-`;
/// a long hex run still counts as a credential) is hidden.
fn short_token_flags(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let lower = line.to_ascii_lowercase();
    let k3s = lower.contains("k3s") || lower.contains("rke2");
    let b = line.as_bytes();
    for (at, _) in line.match_indices("-t") {
        let boundary = at == 0 || matches!(b[at - 1], b' ' | b'\t' | b'"' | b'\'');
        let after = at + 2;
        let (v, glued) = match b.get(after) {
            Some(b' ' | b'\t') => {
                let mut v = after;
                while v < b.len() && matches!(b[v], b' ' | b'\t') {
                    v += 1;
                }
                (v, false)
            }
            Some(b'=') => (after + 1, true),
            _ => continue,
        };
        if !boundary || v >= b.len() || (!glued && b[v] == b'-') {
            continue;
        }
        let e = token_end(line, v, false);
        let value = &line[v..e];
        // `-t ${NODE_TOKEN}` (k3s's own hint) names a variable, not its value
        if value.is_empty() || value.starts_with(PLACEHOLDER) || value.starts_with('$') {
            continue;
        }
        let hex_run = value.len() >= 32 && value.bytes().all(|c| c.is_ascii_hexdigit());
        let image_like = !hex_run
            && value
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"._/:@-".contains(&c));
        if looks_like_credential(value) && (k3s || !image_like) {
            ranges.push(keep_token_id(line, v, e));
        }
    }
}

/// A URL-encoded secret pair (`token%3DX`, `password%3DX`, twice encoded `token%253DX`): a
/// query string or form body quoted inside another URL or a log field. The value ends where
/// the pair does (`%26`, the encoded `&`) or at the end of the token.
fn encoded_pairs(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let lower = line.to_ascii_lowercase();
    let b = line.as_bytes();
    for sep in ["%253d", "%3d"] {
        let mut from = 0;
        while let Some(p) = lower[from..].find(sep) {
            let at = from + p;
            from = at + sep.len();
            // `%253d` also holds `%3d` two bytes in: that match is the same pair
            if sep == "%3d" && at >= 2 && lower[..at].ends_with("%25") {
                continue;
            }
            let mut k = at;
            while k > 0 && (b[k - 1].is_ascii_alphanumeric() || matches!(b[k - 1], b'-' | b'_')) {
                k -= 1;
            }
            if k == at || !is_secret_key(&line[k..at]) {
                continue;
            }
            let v = at + sep.len();
            let e = token_end(line, v, false);
            let e = lower[v..e].find("%26").map_or(e, |n| v + n);
            if e > v {
                ranges.push((v, e));
            }
        }
    }
}

/// Tokens whose prefix names their issuer, anywhere in a line (no key needed): GitHub
/// (`ghp_`, `gho_`, `ghs_`, `ghu_`, `ghr_`, `github_pat_`), GitLab (`glpat-`), AWS access key
/// ids (`AKIA` / `ASIA` and 16 upper-case letters or digits), Slack (`xoxa-`, `xoxb-`, `xoxp-`,
/// `xoxr-`, `xoxs-`), OpenAI-style `sk-` keys (`sk-proj-...`; a run of 16 or more characters
/// without `-` after the prefix, so a node named `sk-gpu-node-pool-0001` stays) and Hugging
/// Face (`hf_`). The token runs over letters, digits, `_` and `-`.
fn provider_tokens(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let b = line.as_bytes();
    let tok = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let mut i = 0;
    while i < b.len() {
        if !tok(b[i]) || (i > 0 && tok(b[i - 1])) {
            i += 1;
            continue;
        }
        let mut e = i;
        while e < b.len() && tok(b[e]) {
            e += 1;
        }
        if provider_token(&line[i..e]) {
            ranges.push((i, e));
        }
        i = e;
    }
}

/// True for a whole word that [`provider_tokens`] hides.
fn provider_token(word: &str) -> bool {
    let body_ok = |rest: &str, min: usize| {
        rest.len() >= min
            && rest
                .bytes()
                .any(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
    };
    for prefix in [
        "github_pat_",
        "ghp_",
        "gho_",
        "ghs_",
        "ghu_",
        "ghr_",
        "glpat-",
        "hf_",
    ] {
        if let Some(rest) = word.strip_prefix(prefix) {
            return body_ok(rest, 16);
        }
    }
    for prefix in ["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-"] {
        if let Some(rest) = word.strip_prefix(prefix) {
            return body_ok(rest, 10);
        }
    }
    for prefix in ["AKIA", "ASIA"] {
        if let Some(rest) = word.strip_prefix(prefix) {
            return rest.len() >= 16
                && rest
                    .bytes()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        }
    }
    if let Some(rest) = word.strip_prefix("sk-") {
        let longest = rest.split('-').map(str::len).max().unwrap_or(0);
        return rest.len() >= 20 && longest >= 16 && body_ok(rest, 20);
    }
    false
}

/// User-info without a scheme, `user:password@host` (a proxy address in a Go dial error,
/// `admin:pw@proxy.local:3128`; an image reference with credentials, `u:pw@registry.example.com/x`):
/// the `user:password` part, when the user is a plain name and the host after `@` has a dot, a
/// port or is `localhost`. An image pinned by digest (`ubuntu:22.04@sha256:...`,
/// `nvidia/cuda:12.0@sha256:...`), a mail address (`admin@example.com`) and `git@host:repo`
/// have no such user-info.
fn bare_userinfo(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let b = line.as_bytes();
    for (at, _) in line.match_indices('@') {
        // the run before `@` back to a blank, a quote, `(`, `=` or `,`
        let mut s = at;
        while s > 0
            && !b[s - 1].is_ascii_whitespace()
            && !matches!(
                b[s - 1],
                b'"' | b'\'' | b'(' | b'=' | b',' | b'<' | b'>' | b'`' | b'@'
            )
        {
            s -= 1;
        }
        let run = &line[s..at];
        if run.contains("://") {
            continue;
        }
        let Some((user, pass)) = run.split_once(':') else {
            continue;
        };
        let user_ok = !user.is_empty()
            && user.starts_with(|c: char| c.is_ascii_alphanumeric())
            && user.chars().any(|c| c.is_ascii_alphabetic())
            && user
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'));
        // `host:port/path@...` is no password
        let port_path = pass.split('/').next().is_some_and(|p| {
            !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()) && pass.contains('/')
        });
        if !user_ok || user == "mailto" || pass.is_empty() || port_path || pass == PLACEHOLDER {
            continue;
        }
        let host_end = line[at + 1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']')))
            .map_or(line.len(), |n| at + 1 + n);
        let host = &line[at + 1..host_end];
        let digest =
            ["sha256", "sha384", "sha512"].contains(&host) && line[host_end..].starts_with(':');
        let port = line[host_end..]
            .strip_prefix(':')
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        let hostish = host.contains('.') || host.starts_with('[') || host == "localhost" || port;
        if host.is_empty() || digest || !hostish {
            continue;
        }
        ranges.push((s, at));
    }
}

/// Kubernetes kind names whose lower-cased form ends like a secret key (`BootstrapToken`, the
/// kind cube-cluster's live collection reports bootstrap token Secrets under): as a key they
/// label counts and progress, not a credential. Matched exactly (`bootstrapToken:` in a
/// config file is still a secret key).
fn is_kind_name(key: &str) -> bool {
    key.trim_matches(['"', '\'']) == "BootstrapToken"
}

/// True for a whole kubeadm bootstrap token `[a-z0-9]{6}\.[a-z0-9]{16}` (k8s.io/cluster-bootstrap
/// `BootstrapTokenPattern`).
pub fn is_bootstrap_token(text: &str) -> bool {
    let b = text.as_bytes();
    let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    b.len() == 23 && b[6] == b'.' && b[..6].iter().all(ok) && b[7..].iter().all(ok)
}

/// The part of a secret value `line[s..e]` to hide: a bootstrap token keeps its public id
/// (`--token abcdef.<redacted>`, as `kubeadm token list` shows ids), anything else is hidden
/// whole.
fn keep_token_id(line: &str, s: usize, e: usize) -> (usize, usize) {
    if line.get(s..e).is_some_and(is_bootstrap_token) {
        (s + 7, e)
    } else {
        (s, e)
    }
}

/// `abcdef.0123456789abcdef`: the secret half, keeping the public token id.
fn bootstrap_tokens(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let b = line.as_bytes();
    let ok = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    for (dot, _) in line.match_indices('.') {
        if dot < 6 || dot + 17 > b.len() {
            continue;
        }
        let id = &b[dot - 6..dot];
        let secret = &b[dot + 1..dot + 17];
        let before_ok = dot == 6 || !b[dot - 7].is_ascii_alphanumeric();
        let after_ok = dot + 17 == b.len() || !b[dot + 17].is_ascii_alphanumeric();
        if before_ok && after_ok && id.iter().all(|c| ok(*c)) && secret.iter().all(|c| ok(*c)) {
            ranges.push((dot + 1, dot + 17));
        }
    }
}

/// JSON Web Tokens: `eyJ<base64url>.<base64url>.<base64url>`.
fn jwts(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let b = line.as_bytes();
    let url_char = |c: u8| c.is_ascii_alphanumeric() || c == b'-' || c == b'_' || c == b'=';
    for (s, _) in line.match_indices("eyJ") {
        if s > 0 && url_char(b[s - 1]) {
            continue;
        }
        let mut e = s;
        let mut dots = 0;
        while e < b.len() && (url_char(b[e]) || b[e] == b'.') {
            if b[e] == b'.' {
                dots += 1;
            }
            e += 1;
        }
        if dots >= 1 && e - s >= 20 {
            ranges.push((s, e));
        }
    }
}

/// Long base64 runs (40+ characters with upper case, lower case and digits): key material,
/// client certificates, docker configs. Hex digests (`sha256:...`) and paths do not qualify.
fn base64_blobs(line: &str, ranges: &mut Vec<(usize, usize)>) {
    let b = line.as_bytes();
    let in_set = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let mut i = 0;
    while i < b.len() {
        if !in_set(b[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && in_set(b[i]) {
            i += 1;
        }
        let mut e = i;
        while e < b.len() && b[e] == b'=' && e - i < 2 {
            e += 1;
        }
        let run = &b[s..i];
        let slashes = run.iter().filter(|c| **c == b'/').count();
        if run.len() >= 40
            && run.iter().any(u8::is_ascii_uppercase)
            && run.iter().any(u8::is_ascii_lowercase)
            && run.iter().any(u8::is_ascii_digit)
            && slashes * 12 <= run.len()
            && !run.starts_with(b"/")
        {
            ranges.push((s, e));
        }
        i = e.max(i);
    }
}

/// PEM on one line: `-----BEGIN X-----<body>-----END X-----` (JSON `\n` escapes), or a BEGIN
/// line whose body follows on the next lines.
fn pem_inline(line: &str, st: &mut State, ranges: &mut Vec<(usize, usize)>) {
    let mut from = 0;
    while let Some(p) = line[from..].find("-----BEGIN ") {
        let begin = from + p;
        let Some(close) = line[begin + 11..].find("-----") else {
            return;
        };
        let body_start = begin + 11 + close + 5;
        match line[body_start..].find("-----END") {
            Some(end) => {
                if end > 0 {
                    ranges.push((body_start, body_start + end));
                }
                from = body_start + end + 8;
            }
            None => {
                let rest = line[body_start..].trim_end();
                // the body may follow on this line (escaped newlines) up to a quote
                let stop = rest.find(['"', '\'']).unwrap_or(rest.len());
                if stop > 0 {
                    ranges.push((body_start, body_start + stop));
                }
                if stop == rest.len() {
                    st.in_pem = true;
                }
                return;
            }
        }
    }
}

/// A Secret's JSON `"data": {...}` / `"stringData": {...}`: every member value.
fn json_secret_data(line: &str, st: &mut State, ranges: &mut Vec<(usize, usize)>) {
    if !st.secret_doc || (st.json_data_depth == 0 && st.data_of_other_kind()) {
        return;
    }
    let b = line.as_bytes();
    let mut i = 0;
    if st.json_data_depth == 0 {
        let Some(p) = line
            .find("\"data\"")
            .or_else(|| line.find("\"stringData\""))
        else {
            return;
        };
        let mut j = p + 1 + line[p + 1..].find('"').unwrap_or(0) + 1;
        while j < b.len() && matches!(b[j], b' ' | b'\t' | b':') {
            j += 1;
        }
        if j >= b.len() || b[j] != b'{' {
            return;
        }
        st.json_data_depth = 1;
        i = j + 1;
    }
    let mut after_colon = false;
    while i < b.len() && st.json_data_depth > 0 {
        match b[i] {
            b'{' | b'[' => st.json_data_depth += 1,
            b'}' | b']' => st.json_data_depth -= 1,
            b':' => after_colon = true,
            b',' => after_colon = false,
            b'"' => {
                let s = i + 1;
                let mut j = s;
                while j < b.len() && b[j] != b'"' {
                    if b[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                let e = j.min(b.len());
                if after_colon && st.json_data_depth == 1 {
                    ranges.push((s, e));
                    after_colon = false;
                }
                i = e;
            }
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {

    /// G5: the redactor masks secrets in every form and nothing else. Ordinary words and values
    /// that sit next to a secret-sounding key stay readable (a `tokenFile` path, `password-less`,
    /// a key named without a value, a `token` field that holds a flag, a count, a kind or a
    /// reference to where a secret lives); every secret form next to them is still hidden.
    #[test]
    fn escaped_quotes_and_tabbed_pairs_hide_their_value() {
        for (text, gone) in [
            (
                r#"E1130 12:00:00.000000 1 request.go:1] failed to decode response body "{\"kind\":\"TokenReview\",\"spec\":{\"token\":\"SALTSECRET303\"}}""#,
                "SALTSECRET303",
            ),
            ("retrying with\ttoken\t=\tSALTSECRET307", "SALTSECRET307"),
            (r#"msg="retry" token=\"SALTSECRET309\""#, "SALTSECRET309"),
            ("token\t:\tSALTSECRET311 next", "SALTSECRET311"),
        ] {
            let r = redact(text);
            assert!(!r.contains(gone), "{r}");
        }
    }

    #[test]
    fn a_url_password_with_blanks_is_hidden() {
        for (text, gone) in [
            (
                "server: \"https://admin:correct horse SALT1@127.0.0.1:1\"",
                "correct horse SALT1",
            ),
            (
                "invalid server URL \"https://admin:SALT\tSECRET2@127.0.0.1:1\" for cluster",
                "SECRET2",
            ),
            (
                "at https://admin:a b c SALT3@host.example:6443 is refused",
                "SALT3",
            ),
        ] {
            let r = redact(text);
            assert!(!r.contains(gone), "{r}");
            assert!(r.contains("<redacted>@"), "{r}");
        }
        // a host with its port, then an address later on the line, is not user-info
        let t = "dial https://host.example:6443 failed for user@example.com";
        assert_eq!(redact(t), t);
        let t = "GET https://10.0.0.1:6443/api ok; mail admin@example.com";
        assert_eq!(redact(t), t);
    }

    /// Issue 9, red team 2 #02: secrets that carry no `key=` of their own or a key the
    /// redactor did not know, in the forms logs write them. Each salted value is hidden; the
    /// look-alikes after them keep their text.
    #[test]
    fn signed_urls_env_names_provider_prefixes_and_bare_userinfo() {
        for (text, gone) in [
            // signed URLs: S3 (SigV4), GCS (V4), Azure SAS
            (
                "GET https://bucket.s3.amazonaws.com/x?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDSALT01%2F20240101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=SALT02abcdef&X-Amz-Security-Token=SALT03tok",
                "SALT0",
            ),
            (
                "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=svc%40p.iam.gserviceaccount.com%2FSALT04&X-Goog-Signature=SALT05deadbeef",
                "SALT0",
            ),
            (
                "failed: https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=SALT06%2Bxyz%3D",
                "SALT06",
            ),
            (
                "https://d111.cloudfront.net/x?Expires=1&Signature=SALT07abc~def&Key-Pair-Id=K2",
                "SALT07",
            ),
            // environment assignments
            ("failed: DB_PASS=SALT08pw", "SALT08"),
            ("env STRIPE_KEY=SALT09key ADMIN_PWD=SALT10pw", "SALT09"),
            ("env STRIPE_KEY=SALT09key ADMIN_PWD=SALT10pw", "SALT10"),
            ("export APP_SECRET=SALT11 GH_TOKEN=SALT12x", "SALT11"),
            ("export APP_SECRET=SALT11 GH_TOKEN=SALT12x", "SALT12"),
            ("      DB_PASS:  SALT13plain", "SALT13"),
            // short token flag, upper-case prose, comma
            ("failed: -t SALTSECRET401", "SALTSECRET401"),
            (
                "k3s agent -s https://10.0.0.1:6443 -t K10abc::server:SALT14",
                "SALT14",
            ),
            ("failed: TOKEN SALTSECRET400", "SALTSECRET400"),
            (
                "failed: the token SALTSECRET414 is invalid",
                "SALTSECRET414",
            ),
            (
                "failed: invalid bearer token, SALTSECRET415",
                "SALTSECRET415",
            ),
            ("failed: secretKey SALTSECRET416", "SALTSECRET416"),
            ("failed: credential: SALTSECRET405", "SALTSECRET405"),
            ("failed: .dockerconfigjson: SALTSECRET413", "SALTSECRET413"),
            // provider prefixes
            (
                "failed: ghp_SALTSECRET407aaaaaaaaaaaaaaaaaaaaaaaaaa",
                "SALTSECRET407",
            ),
            (
                "push with github_pat_11ABCDEFG0SALT15xxxxxxxxxxxxxxxxxx ok",
                "SALT15",
            ),
            ("failed: glpat-SALTSECRET408aaaaaaaaa", "SALTSECRET408"),
            ("failed: AKIASALTSECRET409AAAAAA", "SALTSECRET409"),
            ("aws_access_key_id ASIAQ2SALT16ZZZZZZZZ", "SALT16"),
            ("failed: xoxb-SALTSECRET410-aaaa", "SALTSECRET410"),
            (
                "failed: sk-SALTSECRET411aaaaaaaaaaaaaaaaaaaaa",
                "SALTSECRET411",
            ),
            (
                "OPENAI key sk-proj-SALT17abcdefghijklmnopqrstuvwxyz",
                "SALT17",
            ),
            ("HF hub: hf_SALT18abcdefghijklmnopqrstuvwxyzAB", "SALT18"),
            // URL-encoded pairs
            ("failed: token%3DSALTSECRET412", "SALTSECRET412"),
            ("redirect=%2Fcb%3Fpassword%3DSALT19%26next%3D1", "SALT19"),
            ("q=access_token%253DSALT20", "SALT20"),
            // user-info without a scheme
            (
                "proxyconnect tcp: dial via proxy admin:SALTSECRET417@proxy.local:3128: connection refused",
                "SALTSECRET417",
            ),
            (
                "Failed to pull image \"u:SALTSECRET510@registry.example.com/x\": unauthorized",
                "SALTSECRET510",
            ),
            ("image u:SALT21@localhost:5000/team/x:1", "SALT21"),
        ] {
            hides(text, gone);
        }
        // what each form must leave alone
        for keep in [
            "kubeadm join 10.0.0.1:6443 --discovery-token-ca-cert-hash sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "Successfully pulled image \"nvidia/cuda:12.2.0-base-ubuntu22.04@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"",
            "image ubuntu:22.04@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "Pulling image \"registry.example.com:5000/team/trainer:v2\"",
            "pulling registry:5000/team/x@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
            "git clone git@github.com:org/repo.git failed; mail admin@example.com",
            "docker build -t registry.example.com/team/trainer:1.2.3 .",
            "docker build -t trainer-v2 .",
            "docker run -t nvidia/cuda:12.0-base nvidia-smi",
            "journalctl -u k3s -t k3s",
            "To join node to cluster: k3s agent -s https://10.0.0.10:6443 -t ${NODE_TOKEN}",
            "ping -t 64 10.0.0.1",
            "- key: nvidia.com/gpu",
            "  key: node-role.kubernetes.io/control-plane",
            "tolerations: [{key: nvidia.com/gpu, operator: Exists}]",
            "AWS_ACCESS_KEY_ID is not set; SSH_KEY_FILE=/root/.ssh/id_rsa",
            "Node gpu-node-01 uid 3f2a1c9e-1b2c-4d5e-8f90-0123456789ab Ready",
            "secret default-token-x7k2q not found",
            "the token kube-system/bootstrap-token-abcdef expired",
            "token for node-01.example.com rejected",
            "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"",
            "x509: certificate signature verification failed",
            "exec plugin \"aws\" returned no usable credential: exec plugin didn't return a status field",
            "node sk-gpu-node-pool-0001 is Ready",
            "AKIA is the prefix of an access key id",
            "requests: cpu 500m memory 2Gi nvidia.com/gpu 1",
            "ghp_ tokens are GitHub's",
            "hf_hub_download failed",
            "ts=2024-01-01T10:00:00Z level=info msg=ok",
        ] {
            keeps(keep);
        }
    }

    #[test]
    fn redaction_corpus_masks_secrets_and_nothing_else() {
        let keep = [
            "    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token",
            "  tokenFile: ./tokens/ci-runner",
            "    token-file: /etc/kubernetes/bootstrap-token",
            "--token-auth-file=/etc/kubernetes/known_tokens.csv",
            "set up password-less sudo on node-01",
            "use password-less SSH between the nodes",
            "passwordless login is enabled",
            "automountServiceAccountToken: false",
            "  automountServiceAccountToken: true",
            "\"automountServiceAccountToken\": false,",
            "token:",
            "  password:",
            "the token expired",
            "secret \"db\" not found",
            "password authentication failed for user postgres",
            "  authorization: {mode: Webhook}",
            "authorization:",
            "    tokenTTL: 24h0m0s",
            "  token-ttl: 24h",
            "    secretName: tls-ingress",
            "        secretKeyRef: {name: db, key: password}",
            "          key: password",
            "  usages: [signing, authentication]",
            "  serviceAccountToken:",
            "      expirationSeconds: 3607",
            "    tokenRequests: []",
            "  token: true",
            "  password: null",
            "  secret: ~",
            "  token: \"\"",
            "BootstrapToken: 3 objects in 1 page(s)",
            "  - name: kube-api-access-abcde",
            "    projected: {sources: [{serviceAccountToken: {expirationSeconds: 3607, path: token}}]}",
            "type: kubernetes.io/service-account-token",
        ];
        for line in keep {
            assert_eq!(super::redact(line), line, "over-redacted");
        }
        let mask = [
            ("  token: s4lt-token-value-0123", "s4lt-token-value-0123"),
            ("token=s4lt-token-value-0123", "s4lt-token-value-0123"),
            ("password: hunter2-s4lt", "hunter2-s4lt"),
            ("  password: 123456", "123456"),
            ("  password: \"false-s4lt\"", "false-s4lt"),
            (
                "  client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t",
                "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t",
            ),
            (
                "\"token\": \"s4lt-token-value-0123\"",
                "s4lt-token-value-0123",
            ),
            ("--token abcdef.0123456789abcdef", "0123456789abcdef"),
            ("https://admin:s4lt-pw@10.0.0.1:6443", "s4lt-pw"),
            (
                "  authorization: Bearer s4lt-bearer-token-0123",
                "s4lt-bearer-token-0123",
            ),
            (
                "Authorization: Basic YWRtaW46czRsdC1wdw==",
                "YWRtaW46czRsdC1wdw==",
            ),
            ("  secret: s4lt-secret-value", "s4lt-secret-value"),
        ];
        for (line, secret) in mask {
            let r = super::redact(line);
            assert!(!r.contains(secret), "{line:?} -> {r:?}");
        }
    }

    /// Secrets written in pasted prose (a chat message, a ticket, a runbook line): the value
    /// after `password`, `password:`, `passwd=`, `--password`, `Authorization: Bearer` and
    /// `client-key-data:` is hidden wherever the key stands in the line; words that are no
    /// credential after those keys stay readable.
    #[test]
    fn secrets_in_prose_are_hidden() {
        for (line, secret) in [
            ("the db password hunter2-s4lt", "hunter2-s4lt"),
            ("password hunter2-s4lt", "hunter2-s4lt"),
            ("my password is Hunter2s4lt.", "Hunter2s4lt"),
            (
                "ssh in and use the password: hunter2-s4lt then retry",
                "hunter2-s4lt",
            ),
            ("set passwd=hunter2-s4lt on the node", "hunter2-s4lt"),
            ("run it with --password hunter2-s4lt please", "hunter2-s4lt"),
            ("run it with --password=hunter2-s4lt please", "hunter2-s4lt"),
            ("DB_PASSWORD hunter2-s4lt", "hunter2-s4lt"),
            (
                "I sent Authorization: Bearer abc.def-s4lt-bearer-token and got 401",
                "abc.def-s4lt-bearer-token",
            ),
            (
                "the kubeconfig has client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t in it",
                "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t",
            ),
            (
                "api token 0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d failed",
                "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d",
            ),
        ] {
            let shown = redact(line);
            assert!(!shown.contains(secret), "{line:?} -> {shown:?}");
            assert!(shown.contains(PLACEHOLDER), "{line:?} -> {shown:?}");
        }
        for line in [
            "password authentication failed for user postgres",
            "MountVolume.SetUp failed for volume \"tls\" : secret \"web-tls\" not found",
            "the password is required",
            "token expired",
            "secret default-token-x not found",
        ] {
            assert_eq!(redact(line), line, "{line:?}");
        }
    }

    /// A ConfigMap's data next to a Secret in one List (the kubeadm `kube-public/cluster-info`
    /// ConfigMap's public kubeconfig) is not Secret data: its lines are neither learnt nor
    /// hidden; the Secret's own data still is, in YAML and in `kubectl -o json`'s JSON, whatever
    /// the order of `data` and `kind`.
    #[test]
    fn data_of_other_kinds_next_to_a_secret_is_not_secret_data() {
        let yaml = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cluster-info, namespace: kube-public}\n  data:\n    kubeconfig: |\n      apiVersion: v1\n      clusters:\n      - cluster:\n          server: https://10.0.0.1:6443\n        name: \"\"\n      kind: Config\n- apiVersion: v1\n  data: {password: aHVudGVyMg==}\n  kind: Secret\n  metadata: {name: s}\n- apiVersion: v1\n  data:\n    token: c2VjcmV0LXRva2Vu\n  kind: Secret\n";
        let learnt = secret_values(yaml);
        assert_eq!(
            learnt,
            vec!["aHVudGVyMg==".to_owned(), "c2VjcmV0LXRva2Vu".to_owned()],
            "{learnt:?}"
        );
        let shown = redact(yaml);
        assert!(shown.contains("      apiVersion: v1\n"), "{shown}");
        assert!(shown.contains("server: https://10.0.0.1:6443"), "{shown}");
        assert!(!shown.contains("c2VjcmV0LXRva2Vu"), "{shown}");
        // pretty JSON as kubectl writes it: data before kind
        let json = "{\n  \"items\": [\n    {\n      \"apiVersion\": \"v1\",\n      \"data\": {\n        \"kubeconfig\": \"apiVersion: v1\\nclusters: []\\n\"\n      },\n      \"kind\": \"ConfigMap\"\n    },\n    {\n      \"apiVersion\": \"v1\",\n      \"data\": {\n        \"password\": \"aHVudGVyMi1wdw==\"\n      },\n      \"kind\": \"Secret\"\n    }\n  ],\n  \"kind\": \"List\"\n}\n";
        assert_eq!(secret_values(json), vec!["aHVudGVyMi1wdw==".to_owned()]);
        // without a sibling kind (an excerpt), the data of a text that shows a Secret is
        // still taken as the Secret's
        let excerpt = "kind: Secret\n---\ndata:\n  password: aHVudGVyMi1wdw==\n";
        assert_eq!(secret_values(excerpt), vec!["aHVudGVyMi1wdw==".to_owned()]);
    }

    /// A kubeconfig (or any config file) kept in a Secret's `stringData` is hidden whole where
    /// it is quoted, but only its secret values are learnt: `apiVersion: v1`, `kind: Config`
    /// and `server:` lines never become known secrets.
    #[test]
    fn only_secret_values_of_yaml_kept_in_a_secret_are_learnt() {
        let text = "apiVersion: v1\nkind: Secret\nstringData:\n  config: |\n    apiVersion: v1\n    kind: Config\n    clusters:\n    - cluster:\n        server: https://10.0.0.1:6443\n    users:\n    - user:\n        token: s3cr3t-bearer-token\n        password: \"hunter2-pw\"\n    opaque-line-of-secret\n";
        let learnt = secret_values(text);
        assert_eq!(
            learnt,
            vec![
                "s3cr3t-bearer-token".to_owned(),
                "hunter2-pw".to_owned(),
                "opaque-line-of-secret".to_owned()
            ]
        );
        // quoted as evidence, the Secret's data stays hidden whole
        let shown = redact(text);
        assert!(!shown.contains("server: https"), "{shown}");
        // the odd shape of the report: a Secret whose data holds a YAML block
        let odd = "apiVersion: v1\nitems:\n  kind: Secret\n  data:\n    kubeconfig: |\n      apiVersion: v1\n";
        assert!(secret_values(odd).is_empty(), "{:?}", secret_values(odd));
    }

    /// kubeadm's certificate key and the short password flags of login commands are hidden;
    /// `-p` elsewhere (`mkdir -p`, a port) is not.
    #[test]
    fn certificate_keys_and_login_passwords() {
        let key = "5ec7e7aa".repeat(8);
        let line = format!(
            "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef --control-plane --certificate-key {key}"
        );
        let shown = redact(&line);
        assert!(!shown.contains(&key), "{shown}");
        assert!(!redact(&format!("certificateKey: {key}")).contains(&key));
        assert!(secret_values(&line).contains(&key));
        let shown = redact("docker login -u x -p SEKRITdocker17 registry.example.com");
        assert_eq!(
            shown,
            "docker login -u x -p <redacted> registry.example.com"
        );
        assert_eq!(
            redact("mysql -uroot -pSEKRITmysql14 db"),
            "mysql -uroot -p<redacted> db"
        );
        assert_eq!(
            redact("mkdir -p /var/lib/kubelet"),
            "mkdir -p /var/lib/kubelet"
        );
        assert_eq!(redact("ssh -p 2222 node-1"), "ssh -p 2222 node-1");
    }

    /// Pieces of any size give the same text as one `hide` of the whole (values across the
    /// cut between two pieces included).
    #[test]
    fn hide_in_pieces_is_hide_of_the_whole() {
        let mut known = KnownSecrets::new();
        for v in [
            "s3cr3t-value",
            "s3cr3t-value-longer",
            "pässwörd-ü",
            "tok123",
        ] {
            known.insert(v.to_owned());
        }
        let text = "a s3cr3t-value-longer b s3cr3t-value c pässwörd-ü d tok123tok123 é s3cr3t-valu"
            .repeat(7);
        let whole = known.hide(&text).into_owned();
        for piece in [1, 2, 5, 7, 13, 64, 1000] {
            let mut out = String::new();
            let mut buf = String::new();
            let mut fed = 0;
            while fed < text.len() {
                let mut end = (fed + piece).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                buf.push_str(&text[fed..end]);
                fed = end;
                let mut upto = buf.len().saturating_sub(known.max_len());
                while !buf.is_char_boundary(upto) {
                    upto -= 1;
                }
                let mut o = None;
                let done = known.hide_until(&buf, upto, &mut o);
                out.push_str(o.as_deref().unwrap_or(&buf[..done]));
                buf.drain(..done);
            }
            let mut o = None;
            let done = known.hide_until(&buf, buf.len(), &mut o);
            assert_eq!(done, buf.len());
            out.push_str(o.as_deref().unwrap_or(&buf));
            assert_eq!(out, whole, "pieces of {piece}");
        }
        assert!(!whole.contains("s3cr3t-value") && !whole.contains("tok123"));
    }
    use super::*;

    const TOKEN: &str = "abcdef.0123456789abcdef";
    const SECRET_HALF: &str = "0123456789abcdef";

    #[track_caller]
    fn hides(text: &str, secret: &str) {
        let r = redact(text);
        assert!(!r.contains(secret), "{secret:?} left in {r:?}");
        assert!(r.contains(PLACEHOLDER), "{r:?}");
    }

    #[track_caller]
    fn keeps(text: &str) {
        assert_eq!(redact(text), text);
    }

    #[test]
    fn key_value_forms() {
        hides("token=s3cr3tvalue", "s3cr3tvalue");
        hides("token=\"s3cr3t value\" next=1", "s3cr3t value");
        hides("password='hunter2'", "hunter2");
        hides("password: hunter2", "hunter2");
        hides("  password: \"hunter 2\"", "hunter 2");
        hides("token:\thunter2", "hunter2");
        hides("password = hunter2", "hunter2");
        hides("msg=\"join\" bootstrap_token=xyzxyzxyz user=a", "xyzxyzxyz");
        hides(
            "client-key-data: QUJDREVGR0hJSktMTU5PUA==",
            "QUJDREVGR0hJSktMTU5PUA",
        );
        hides("token\thunter2\tttl", "hunter2");
        assert_eq!(
            redact("password: hunter2 # old"),
            "password: <redacted> # old"
        );
    }

    #[test]
    fn flags_with_equals_or_whitespace() {
        hides("kubeadm join x --token abc123xyz", "abc123xyz");
        hides("kubeadm join x --token\tabc123xyz", "abc123xyz");
        hides(&format!("--discovery-token={TOKEN}"), SECRET_HALF);
        hides("--tls-bootstrap-token=qwertyqwerty", "qwertyqwerty");
        hides("--password hunter2", "hunter2");
        // the CA pin is public
        let t = format!("--token {TOKEN} --discovery-token-ca-cert-hash sha256:0123abcd");
        let r = redact(&t);
        assert!(r.contains("sha256:0123abcd"), "{r}");
        assert!(!r.contains(SECRET_HALF), "{r}");
        keeps("--discovery-token-ca-cert-hash sha256:0123abcd --token-ttl 24h");
    }

    #[test]
    fn json_values_and_one_line_objects() {
        hides(r#"{"token":"s3cr3tvalue","user":"a"}"#, "s3cr3tvalue");
        hides(r#"{"password": "hunter2", "x": 1}"#, "hunter2");
        hides(r#"{"password": 12345678}"#, "12345678");
        hides(r#"{"token":"a\"b s3cr3t"}"#, "s3cr3t");
        hides("{token: s3cr3tvalue, user: a}", "s3cr3tvalue");
        let r = redact(r#"{"user":"admin","token":"s3cr3tvalue"}"#);
        assert_eq!(r, r#"{"user":"admin","token":"<redacted>"}"#);
    }

    #[test]
    fn url_userinfo_with_awkward_passwords() {
        for url in [
            "https://admin:PASS@10.0.0.1:6443",
            "https://admin:p%2Fa#ss@10.0.0.1",
            "https://admin:p/a#s?s@host",
            "http://u:p@ss@proxy:3128",
            "socks5://user:PASS@proxy",
        ] {
            let r = redact(url);
            assert!(r.contains("<redacted>@"), "{url} -> {r}");
            assert!(!r.contains("admin") && !r.contains("PASS"), "{url} -> {r}");
        }
        assert_eq!(
            redact("proxy-url: http://u:p@ss@proxy:3128"),
            "proxy-url: http://<redacted>@proxy:3128"
        );
        keeps("https://10.0.0.1:6443/api/v1/nodes?limit=500");
        keeps("see https://example.com/a/b@c for details");
    }

    #[test]
    fn bearer_and_basic() {
        hides("Authorization: Bearer feedfacefeed", "feedfacefeed");
        hides(
            "curl -H 'Authorization: Bearer feedfacefeed'",
            "feedfacefeed",
        );
        hides(
            "authorization: basic dXNlcjpwYXNzd29yZA==",
            "dXNlcjpwYXNzd29yZA",
        );
        keeps("basic checks passed");
    }

    #[test]
    fn bootstrap_tokens_anywhere_keep_their_id() {
        let text = format!("token {TOKEN} expired;{TOKEN}");
        let r = redact(&text);
        assert!(!r.contains(SECRET_HALF), "{r}");
        assert!(r.contains("abcdef.<redacted>"), "{r}");
        keeps("image nvcr.io/nvidia/k8s-device-plugin:v0.17.0");
        // under a secret key or flag, in every form, the id stays and the secret goes
        for form in [
            format!(
                "kubeadm join 10.0.0.1:6443 --token {TOKEN} --discovery-token-ca-cert-hash sha256:aa"
            ),
            format!("--discovery-token={TOKEN}"),
            format!("token: {TOKEN}"),
            format!("token=\"{TOKEN}\""),
            format!("{{\"token\":\"{TOKEN}\"}}"),
            format!("token\t{TOKEN}\tinvalid"),
        ] {
            let r = redact(&form);
            assert!(!r.contains(SECRET_HALF), "{r}");
            assert!(r.contains("abcdef.<redacted>"), "{form} -> {r}");
        }
        // a secret key whose value is not a token is hidden whole
        assert_eq!(redact("--token s3cr3t-abc"), "--token <redacted>");
        assert!(is_bootstrap_token(TOKEN));
        assert!(!is_bootstrap_token("abcdef.0123456789ABCDEF"));
    }

    /// The kind name `BootstrapToken` labels counts in progress lines (`BootstrapToken: page 1, 3
    /// objects`): they stay readable, while a token after it still loses its secret half.
    /// `curl -v` prints request headers after `> ` and response headers after `< `: every
    /// credential header is hidden whole, cookies included.
    #[test]
    fn curl_verbose_headers() {
        for (line, secret) in [
            (
                "> Cookie: a=1; session=S4ltSessionCookie2718; Path=/",
                "S4ltSessionCookie2718",
            ),
            (
                "< Set-Cookie: sid=S4ltSetCookie99; HttpOnly",
                "S4ltSetCookie99",
            ),
            ("> X-Api-Key: S4ltXApiKeyHeader314", "S4ltXApiKeyHeader314"),
            ("> X-Auth-Token: plainword", "plainword"),
            (
                "> Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==",
                "dXNlcjpwYXNzd29yZA",
            ),
            ("sessionid=S4ltSess1", "S4ltSess1"),
        ] {
            hides(line, secret);
        }
        keeps("> Host: 10.0.0.1:6443");
        keeps("< HTTP/2 403");
    }

    /// 10,000 known secrets (a kubeconfig of 10,000 users) hidden in 10,000 texts: one pass per
    /// text, not one per secret (this took minutes through `redact_known`).
    #[test]
    fn many_known_secrets_are_hidden_in_one_pass() {
        let mut known = KnownSecrets::new();
        known.extend((0..10_000).map(|i| format!("tok-{i}-s4lt")));
        known.extend(["tok-1-s4lt-longer".to_owned(), "tok-1-s4lt".to_owned()]);
        assert_eq!(known.len(), 10_001);
        let start = std::time::Instant::now();
        for i in 0..10_000 {
            let text = format!("user u{i} token tok-{i}-s4lt, ü tok-1-s4lt-longer!");
            let r = redact_with_known(&text, &known);
            assert_eq!(
                r,
                format!("user u{i} token <redacted>, ü <redacted>!"),
                "{text}"
            );
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
        assert_eq!(known.hide("nothing here"), "nothing here");
        assert_eq!(KnownSecrets::new().hide("tok-1-s4lt"), "tok-1-s4lt");
    }

    #[test]
    fn kind_name_progress_lines_are_not_redacted() {
        for line in [
            "  BootstrapToken: page 1, 3 objects",
            "  BootstrapToken: 3 objects in 1 page(s)",
            "  BootstrapToken: missing (403 Forbidden)",
            "  not collected: BootstrapToken: secrets is forbidden",
        ] {
            assert_eq!(redact(line), line);
        }
        assert_eq!(
            redact(&format!("BootstrapToken: {TOKEN}")).into_owned(),
            "BootstrapToken: abcdef.<redacted>"
        );
        // the field name of kubeadm's config is still a secret key
        assert_eq!(
            redact("bootstrapToken: hunter2-x"),
            "bootstrapToken: <redacted>"
        );
    }

    #[test]
    fn pem_blocks_and_base64() {
        let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\nafter\n";
        let r = redact(pem);
        assert!(
            !r.contains("MIIEowIBAAKCAQEA") && !r.contains("\nabc\n"),
            "{r}"
        );
        assert!(r.ends_with("-----END RSA PRIVATE KEY-----\nafter\n"), "{r}");
        hides(
            r#"{"key":"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI\n-----END EC PRIVATE KEY-----\n"}"#,
            "MHcCAQEEI",
        );
        hides(
            "x LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM1ekNDQWMrZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwK y",
            "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t",
        );
        keeps("sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0");
        keeps("/var/lib/kubelet/pods/3f2a9c1e-1111-2222-3333-444455556666/volumes");
        hides(
            "eyJhbGciOiJSUzI1NiIsImtpZCI6IiJ9.eyJpc3MiOiJrdWJlcm5ldGVzIn0.c2lnbmF0dXJl",
            "eyJpc3MiOiJrdWJlcm5ldGVzIn0",
        );
    }

    #[test]
    fn yaml_block_scalars_and_secret_data() {
        let yaml = "users:\n- name: u\n  user:\n    client-key-data: |\n      QUJD\n      REVG\n    username: admin\n";
        let r = redact(yaml);
        assert!(!r.contains("QUJD") && !r.contains("REVG"), "{r}");
        assert!(r.contains("username: admin"), "{r}");
        let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  pw: aHVudGVyMg==\n  user: YWRtaW4=\nstringData:\n  note: plain hunter3\ntype: Opaque\n";
        let r = redact(secret);
        for s in ["aHVudGVyMg", "YWRtaW4", "hunter3"] {
            assert!(!r.contains(s), "{s} in {r}");
        }
        assert!(r.contains("name: db") && r.contains("type: Opaque"), "{r}");
        let json = r#"{"apiVersion":"v1","kind":"Secret","data":{"pw":"aHVudGVyMg==","u":"YWRtaW4="},"metadata":{"name":"db"}}"#;
        let r = redact(json);
        assert!(!r.contains("aHVudGVyMg") && !r.contains("YWRtaW4"), "{r}");
        assert!(r.contains("\"name\":\"db\""), "{r}");
        // a ConfigMap's data is not a secret
        keeps("kind: ConfigMap\ndata:\n  config.yaml: |\n    version: v1\n");
    }

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        for t in [
            "no secrets here",
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
            "token-id: abcdef",
            "secretName: my-secret",
            "tokenFile: /var/run/secrets/token",
            "",
        ] {
            assert!(matches!(redact(t), Cow::Borrowed(_)), "{t}");
        }
    }

    #[test]
    fn secret_wrapper_never_prints() {
        let s: Secret<String> = serde_json::from_str("\"hunter2\"").unwrap();
        assert_eq!(s.expose(), "hunter2");
        assert_eq!(format!("{s:?}/{s}"), "<redacted>/<redacted>");
        #[derive(Debug, serde::Serialize)]
        struct User {
            name: String,
            password: Secret<String>,
        }
        let u = User {
            name: "a".into(),
            password: s,
        };
        assert!(!format!("{u:?}").contains("hunter2"));
        assert!(!serde_json::to_string(&u).unwrap().contains("hunter2"));
    }
}
