//! Findings: what a rule reports (rule id, severity, subject, message, evidence, remedy).

use std::fmt;

use serde::{Deserialize, Serialize};

/// How bad a finding is. Ordered `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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
    /// A concrete command or manifest change that fixes it.
    pub remedy: String,
    /// Where the evidence is in the input files (set by [`crate::Report::with_locations`]);
    /// `None` for objects read from a live cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::SourceLocation>,
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
    /// Sets the remedy.
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
