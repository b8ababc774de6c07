//! Findings: what a rule reports (rule id, severity, subject, message, evidence, remedy).

use std::fmt;

use serde::{Deserialize, Serialize};

/// How bad a finding is. Ordered `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Severity {
    /// Worth knowing; nothing is broken.
    Info,
    /// Likely to bite later, or broken for some workloads.
    Warning,
    /// Broken now; the exit code is 1 when any finding has this severity.
    Error,
}

impl Severity {
    /// `"error"`, `"warning"` or `"info"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a finding is about: an object (kind, namespace, name), a node pool, a log source, or
/// the whole cluster (`kind = "Cluster"`, empty name).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Subject {
    /// Kubernetes kind (`Node`, `Pod`, `ResourceQuota`, ...) or `Cluster`, `NodePool`, `Log`,
    /// `ResourceGroup`.
    pub kind: String,
    /// Namespace; empty for cluster-scoped objects.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Object name (pool name, log source name); empty for the cluster itself.
    #[serde(default)]
    pub name: String,
}

impl Subject {
    /// A cluster-scoped object.
    pub fn cluster_scoped(kind: &str, name: &str) -> Self {
        Subject {
            kind: kind.to_owned(),
            namespace: String::new(),
            name: name.to_owned(),
        }
    }
    /// A namespaced object.
    pub fn namespaced(kind: &str, namespace: &str, name: &str) -> Self {
        Subject {
            kind: kind.to_owned(),
            namespace: namespace.to_owned(),
            name: name.to_owned(),
        }
    }
    /// The whole cluster (`name` may carry the cluster's name, or be empty).
    pub fn cluster(name: &str) -> Self {
        Self::cluster_scoped("Cluster", name)
    }
    /// A log text, named by its source (file name or label).
    pub fn log(source: &str) -> Self {
        Self::cluster_scoped("Log", source)
    }
    /// `Kind/namespace/name`, `Kind/name` or `Cluster`; a name that is itself an absolute path
    /// (a log file) is joined with `:` (`Log:/tmp/x`, never `Log//tmp/x`).
    pub fn display_name(&self) -> String {
        if self.namespace.is_empty() && self.name.starts_with('/') {
            return format!("{}:{}", self.kind, self.name);
        }
        match (self.namespace.is_empty(), self.name.is_empty()) {
            (_, true) => self.kind.clone(),
            (true, false) => format!("{}/{}", self.kind, self.name),
            (false, false) => format!("{}/{}/{}", self.kind, self.namespace, self.name),
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display_name())
    }
}

/// One piece of proof: a field value of an object, or a line of a log text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Evidence {
    /// A field of an object, with its value as text.
    Field {
        /// `Kind/namespace/name` of the object the field belongs to.
        object: String,
        /// Field path (`status.allocatable.nvidia.com/gpu`).
        path: String,
        /// The value, as text (`"<absent>"` when missing).
        value: String,
    },
    /// A line of a log text.
    Log {
        /// Source name (file name or label).
        source: String,
        /// 1-based line number in that text.
        line: usize,
        /// The line (trimmed, at most 500 characters).
        text: String,
    },
}

impl Evidence {
    /// A field value.
    pub fn field(
        object: impl Into<String>,
        path: impl Into<String>,
        value: impl Into<String>,
    ) -> Self {
        Evidence::Field {
            object: object.into(),
            path: path.into(),
            value: value.into(),
        }
    }
    /// A log line (truncated to 500 characters at a character boundary). Secrets are redacted
    /// by [`cube_model::redact::redact`] (tokens, passwords, keys, URL user-info, bearer
    /// credentials, bootstrap tokens, PEM and base64 key material, in every written form).
    pub fn log(source: impl Into<String>, line: usize, text: &str) -> Self {
        let redacted = redact(text);
        let text = redacted.trim();
        let text = match text.char_indices().nth(500) {
            Some((i, _)) => format!("{}...", &text[..i]),
            None => text.to_owned(),
        };
        Evidence::Log {
            source: source.into(),
            line,
            text,
        }
    }
}

/// Replaces secrets in a text with `<redacted>`: cube-model's one redactor
/// ([`cube_model::redact::redact`]), kept here under its old name.
pub fn redact(text: &str) -> String {
    cube_model::redact::redact_string(text)
}

impl fmt::Display for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::Field {
                object,
                path,
                value,
            } => write!(f, "{object} {path} = {value}"),
            Evidence::Log { source, line, text } => write!(f, "{source}:{line}: {text}"),
        }
    }
}

/// One problem found by one rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Finding {
    /// The stable rule id (`node-not-ready`).
    pub rule_id: String,
    /// Severity (after configuration overrides).
    pub severity: Severity,
    /// What the finding is about.
    pub subject: Subject,
    /// One or two sentences: what is wrong.
    pub message: String,
    /// The field values or log lines that prove it.
    pub evidence: Vec<Evidence>,
    /// What fixes it, as prose. Commands a person can paste are written in backticks inline
    /// (`` `kubectl label node node-01 gpu=on` ``); a command that spans lines (a heredoc with
    /// a manifest) is not left in the prose: the engine moves it to
    /// [`Finding::remedy_commands`] and the prose says "(command below)".
    pub remedy: String,
    /// Where the evidence is in the input files (set by [`crate::Report::with_locations`]);
    /// `None` for objects read from a live cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::SourceLocation>,
    /// The remedy's commands, each runnable as printed in a POSIX shell (`bash -n` clean): the
    /// complete commands quoted in the prose, and every multi-line command (heredocs end with
    /// their delimiter alone on the last line). A command with a `<placeholder>` or `...` is a
    /// template to adapt: it stays in the prose only. Filled by [`Finding::normalize_remedy`]
    /// (the engine calls it) and [`Finding::with_remedy_command`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remedy_commands: Vec<String>,
    /// Set when this finding stands for many equal findings of its rule (more than
    /// [`crate::Grouping::group_over`]): how many subjects, and the first of them (see
    /// [`crate::group`]). `None` for a finding about its own subject only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<crate::FindingGroup>,
}

impl Finding {
    /// A finding without evidence or remedy; add them with [`Finding::with_evidence`] and
    /// [`Finding::with_remedy`].
    pub fn new(
        rule_id: &str,
        severity: Severity,
        subject: Subject,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            rule_id: rule_id.to_owned(),
            severity,
            subject,
            message: message.into(),
            evidence: Vec::new(),
            remedy: String::new(),
            location: None,
            remedy_commands: Vec::new(),
            group: None,
        }
    }
    /// Adds one piece of evidence.
    #[must_use]
    pub fn with_evidence(mut self, evidence: Evidence) -> Self {
        self.evidence.push(evidence);
        self
    }
    /// Adds several pieces of evidence.
    #[must_use]
    pub fn with_evidences(mut self, evidence: impl IntoIterator<Item = Evidence>) -> Self {
        self.evidence.extend(evidence);
        self
    }
    /// Sets the remedy (prose; see [`Finding::remedy`] for how to write commands in it).
    #[must_use]
    pub fn with_remedy(mut self, remedy: impl Into<String>) -> Self {
        self.remedy = remedy.into();
        self
    }

    /// Runs every text of the finding (subject name, message, evidence, remedy) through the one
    /// redactor ([`cube_model::redact::redact`]). The engine does this for every finding of
    /// every rule, built-in or not, before anything is rendered.
    pub fn redact_secrets(&mut self) {
        fn fix(s: &mut String) {
            if let std::borrow::Cow::Owned(r) = cube_model::redact::redact(s) {
                *s = r;
            }
        }
        fix(&mut self.subject.name);
        fix(&mut self.message);
        fix(&mut self.remedy);
        for c in &mut self.remedy_commands {
            fix(c);
        }
        for e in &mut self.evidence {
            match e {
                Evidence::Field {
                    object,
                    path,
                    value,
                } => {
                    fix(object);
                    // the value is secret when its field is (`spec.token`, `data.password`)
                    let leaf = path.rsplit(['.', '/']).next().unwrap_or(path);
                    if cube_model::redact::is_secret_key(leaf) && !value.is_empty() {
                        *value = cube_model::redact::PLACEHOLDER.to_owned();
                    } else {
                        fix(value);
                    }
                }
                Evidence::Log { source, text, .. } => {
                    fix(source);
                    fix(text);
                }
            }
        }
    }
    /// Adds a command to the remedy (a complete shell command or heredoc, runnable as given).
    #[must_use]
    pub fn with_remedy_command(mut self, command: impl Into<String>) -> Self {
        let command = tidy_command(&command.into());
        if !command.is_empty() && !self.remedy_commands.contains(&command) {
            self.remedy_commands.push(command);
        }
        self
    }
    /// Moves multi-line commands (heredocs) out of the prose into
    /// [`Finding::remedy_commands`] and copies the complete single-line commands quoted in the
    /// prose there (see [`split_remedy`]). Idempotent.
    pub fn normalize_remedy(&mut self) {
        let (prose, commands) = split_remedy(&self.remedy);
        self.remedy = prose;
        for c in commands {
            if !self.remedy_commands.contains(&c) {
                self.remedy_commands.push(c);
            }
        }
    }
}

/// What the prose says where a multi-line command was taken out.
const COMMAND_BELOW: &str = "(command below)";

/// Splits remedy prose into the prose a person reads and the commands they can paste.
///
/// Each backtick span of `text` is looked at: one that spans lines (a heredoc manifest) is
/// replaced in the prose by `(command below)` and returned as a command; a one-line span that
/// is a complete command (it starts with a program such as `kubectl`, `kubeadm`,
/// `systemctl`, `openssl`, and holds no `<placeholder>` and no `...`) stays in the prose and is
/// returned too. Returned commands are trimmed, and a heredoc's delimiter line is put alone at
/// column 0.
pub fn split_remedy(text: &str) -> (String, Vec<String>) {
    let (text, mut commands) = bare_heredocs(text);
    let mut prose = String::with_capacity(text.len());
    let mut rest = text.as_str();
    loop {
        let Some(open) = rest.find('`') else {
            prose.push_str(rest);
            break;
        };
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else {
            prose.push_str(rest);
            break;
        };
        let span = &after[..close];
        if span.contains('\n') {
            let before = rest[..open].trim_end();
            prose.push_str(before);
            if !before.is_empty() {
                prose.push(' ');
            }
            prose.push_str(COMMAND_BELOW);
            commands.push(tidy_command(span));
        } else {
            prose.push_str(&rest[..open + 1 + close + 1]);
            if is_runnable(span) && !is_named_not_advised(&rest[..open], &after[close + 1..]) {
                commands.push(span.trim().to_owned());
            }
        }
        rest = &after[close + 1..];
    }
    commands.dedup();
    (prose, commands)
}

/// Heredocs written without backticks (`...: kubectl apply -f - <<EOF` then the manifest and
/// `EOF` on lines of their own): taken out of the prose (replaced by `(command below)`) from the
/// program that starts the command to the delimiter line.
fn bare_heredocs(text: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut prose: Vec<String> = Vec::with_capacity(lines.len());
    let mut commands = Vec::new();
    let mut ticks = 0usize;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let at = line
            .find("<<")
            .filter(|p| (ticks + line[..*p].matches('`').count()).is_multiple_of(2));
        let delimiter = at.map(|p| {
            line[p + 2..]
                .trim_start_matches('-')
                .trim_start()
                .trim_start_matches(['\'', '"'])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        });
        let end = delimiter
            .as_deref()
            .filter(|d| !d.is_empty())
            .and_then(|d| (i + 1..lines.len()).find(|&j| lines[j].trim() == d));
        if let (Some(p), Some(end)) = (at, end) {
            // the command starts at the first program name before the operator
            let start = line[..p]
                .char_indices()
                .filter(|(k, c)| {
                    !c.is_whitespace() && (*k == 0 || line[..*k].ends_with(char::is_whitespace))
                })
                .map(|(k, _)| k)
                .find(|&k| cube_model::paste::starts_with_known_command(&line[k..]))
                .unwrap_or(0);
            let mut command = line[start..].to_owned();
            for l in &lines[i + 1..=end] {
                command.push('\n');
                command.push_str(l);
            }
            commands.push(tidy_command(&command));
            let before = line[..start].trim_end();
            match prose.last_mut() {
                Some(last) if before.is_empty() => {
                    last.push(' ');
                    last.push_str(COMMAND_BELOW);
                }
                _ if before.is_empty() => prose.push(COMMAND_BELOW.to_owned()),
                _ => prose.push(format!("{before} {COMMAND_BELOW}")),
            }
            i = end + 1;
            continue;
        }
        ticks += line.matches('`').count();
        prose.push(line.to_owned());
        i += 1;
    }
    (prose.join("\n"), commands)
}

/// A complete command: a known program first, no `<placeholder>`, no `...`, not ending in a
/// flag that takes a value (`kubeadm join --discovery-file` names the flag, it is no command:
/// run, it fails with `flag needs an argument`), and not reading a manifest from stdin with
/// nothing piped in (`kubectl apply -f -` alone waits on the terminal).
fn is_runnable(span: &str) -> bool {
    let t = span.trim();
    cube_model::paste::starts_with_known_command(t)
        && !has_placeholder(t)
        && !t.contains("...")
        && !t.contains('\u{2026}')
        && !ends_in_valued_flag(t)
        && !reads_stdin_alone(t)
}

/// Flags of kubectl, kubeadm, kubelet, k3s and systemctl that take a value, as the remedies name
/// them (kubectl `--filename/-f`, `--namespace/-n`, `--selector/-l`, `--context`,
/// `--kubeconfig`, `--output/-o`; kubeadm join/init `--discovery-file`, `--discovery-token`,
/// `--discovery-token-ca-cert-hash`, `--token`, `--config`, `--cri-socket`, `--node-name`,
/// `--apiserver-advertise-address`, `--control-plane-endpoint`, `--certificate-key`,
/// `--pod-network-cidr`, `--image-repository`; k3s `--server`, `--token-file`).
const VALUED_FLAGS: &[&str] = &[
    "-f",
    "--filename",
    "-n",
    "--namespace",
    "-l",
    "--selector",
    "--context",
    "--kubeconfig",
    "-o",
    "--output",
    "--discovery-file",
    "--discovery-token",
    "--discovery-token-ca-cert-hash",
    "--token",
    "--config",
    "--cri-socket",
    "--node-name",
    "--apiserver-advertise-address",
    "--control-plane-endpoint",
    "--certificate-key",
    "--pod-network-cidr",
    "--image-repository",
    "--server",
    "--token-file",
];

fn ends_in_valued_flag(cmd: &str) -> bool {
    let mut words = cmd.split_whitespace();
    let first = words.next().unwrap_or("");
    words.next_back().is_some_and(|last| {
        // the short forms take a value in kubectl (`-f FILE`, `-n NS`); elsewhere `-f` is often
        // `--force` (`kubeadm reset -f`)
        VALUED_FLAGS.contains(&last)
            && (last.starts_with("--") || matches!(first, "kubectl" | "oc" | "karmadactl"))
    })
}

/// `kubectl apply|create|replace -f -` with no heredoc and no pipe feeding it.
fn reads_stdin_alone(cmd: &str) -> bool {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    words
        .windows(2)
        .any(|w| matches!(w[0], "-f" | "--filename") && w[1] == "-")
        && !cmd.contains("<<")
        && !cmd.contains('|')
}

/// A command the prose names in order to advise against it: the words right after it say it
/// does not help (`` `kubeadm certs renew` does not renew kubelet client certificates ``), or
/// the words right before it say not to run it (`do not run`, `never`, `instead of`, `rather
/// than`, `not`). Such a command stays in the prose and is never offered as one to run.
fn is_named_not_advised(before: &str, after: &str) -> bool {
    let after = after.trim_start().to_ascii_lowercase();
    const AFTER: &[&str] = &[
        "does not",
        "doesn't",
        "do not",
        "don't",
        "is not",
        "isn't",
        "will not",
        "won't",
        "cannot",
        "can't",
        "would not",
        "is the wrong",
        "is wrong",
        "fails",
        "only prints",
        "is no fix",
        "is not a fix",
        "does nothing",
    ];
    if AFTER.iter().any(|w| after.starts_with(w)) {
        return true;
    }
    let before = before.trim_end().to_ascii_lowercase();
    const BEFORE: &[&str] = &[
        "do not run",
        "don't run",
        "do not use",
        "don't use",
        "never run",
        "never",
        "instead of",
        "rather than",
        "not",
        "without",
        "avoid",
    ];
    BEFORE.iter().any(|w| {
        before.ends_with(w)
            && before[..before.len() - w.len()]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// `<name>`-style placeholders (a `<` followed by a letter, not a `<<` heredoc operator).
fn has_placeholder(cmd: &str) -> bool {
    let b = cmd.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<' {
            if b.get(i + 1) == Some(&b'<') {
                i += 2;
                continue;
            }
            if b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Trims a command; for a heredoc (`<<EOF`, `<<'EOF'`, `<<-EOF`), the delimiter line is made
/// the delimiter alone, at column 0, and nothing follows it on that line.
fn tidy_command(command: &str) -> String {
    let lines: Vec<&str> = command.trim_matches('\n').lines().collect();
    let first = lines.first().copied().unwrap_or("");
    let delimiter = first.find("<<").map(|p| {
        first[p + 2..]
            .trim_start_matches('-')
            .trim_start()
            .trim_start_matches(['\'', '"'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<String>()
    });
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim();
        match &delimiter {
            Some(d) if i > 0 && !d.is_empty() && t == d => out.push(d.clone()),
            _ if i == 0 => out.push(l.trim().to_owned()),
            _ => out.push(l.trim_end().to_owned()),
        }
    }
    out.join("\n").trim().to_owned()
}

#[cfg(test)]
mod redact_tests {
    use super::*;

    #[test]
    fn tokens_are_redacted() {
        let e = Evidence::log(
            "j",
            1,
            "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:aaaa",
        );
        let t = e.to_string();
        assert!(!t.contains("0123456789abcdef"), "{t}");
        assert!(t.contains("sha256:aaaa"));
        assert!(!redact("curl -H Authorization: Bearer feedfacefeed").contains("feedfacefeed"));
        assert!(!redact("x --token=abc123 y").contains("abc123"));
        assert_eq!(redact("no secrets here"), "no secrets here");
    }
}

#[cfg(test)]
mod remedy_command_tests {
    use super::split_remedy;

    /// `remedyCommands` is what a console shows as buttons: a command the prose names to advise
    /// against it, a flag named without its value and a stdin reader with nothing piped in are
    /// never in it (fresh-user G23); the prose keeps them.
    #[test]
    fn commands_named_to_advise_against_them_or_incomplete_are_not_offered() {
        let (prose, cmds) = split_remedy(
            "Restart the kubelet: `systemctl restart kubelet`; `kubeadm certs renew` does not renew kubelet client certificates.",
        );
        assert_eq!(cmds, vec!["systemctl restart kubelet".to_string()]);
        assert!(
            prose.contains("`kubeadm certs renew` does not renew"),
            "{prose}"
        );

        let (_, cmds) = split_remedy(
            "Check `kubectl -n kube-public get cm cluster-info -o yaml`, or join with `kubeadm join --discovery-file` and a file copied from the control plane.",
        );
        assert_eq!(
            cmds,
            vec!["kubectl -n kube-public get cm cluster-info -o yaml".to_string()]
        );

        let (_, cmds) =
            split_remedy("Apply a quota with `kubectl -n default apply -f -` (manifest above).");
        assert!(cmds.is_empty(), "{cmds:?}");

        let (_, cmds) = split_remedy(
            "Do not run `kubeadm reset -f` on a control plane; instead of `kubectl delete node n1`, cordon it: `kubectl cordon n1`.",
        );
        assert_eq!(cmds, vec!["kubectl cordon n1".to_string()]);

        // `-f` is `--force` outside kubectl; a heredoc feeds `-f -`
        let (_, cmds) =
            split_remedy("Run `kubeadm reset -f`, then: `kubectl apply -f - <<EOF\nkind: X\nEOF`");
        assert_eq!(cmds.len(), 2, "{cmds:?}");
        assert!(cmds.iter().any(|c| c == "kubeadm reset -f"), "{cmds:?}");
    }
}
