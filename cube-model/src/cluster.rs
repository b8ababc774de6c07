//! Registered clusters and target-cluster selection for tasks.
//!
//! A [`Cluster`] carries labels (`env=prod`, `location=beijing`), an API server URL, taints in the
//! style of Karmada's cluster taints (`{key, value, effect}`; `NoSchedule` and `NoExecute` keep
//! tasks away unless tolerated, `PreferNoSchedule` only ranks the cluster last), a kubeconfig
//! reference (a file path, an inline kubeconfig, or a Secret reference `namespace/name/key`), the
//! RBAC profile the cluster's credentials must satisfy, and a default flag.
//!
//! [`ClusterRegistry`] is also the schema of the **cluster registry file** (YAML or JSON; see
//! `docs/cluster-registry.md`):
//!
//! ```yaml
//! apiVersion: cube-rs.io/v1alpha1   # optional; REGISTRY_API_VERSION
//! kind: ClusterRegistry             # optional; REGISTRY_KIND
//! clusters:
//!   - name: bj-prod                 # DNS-1123 subdomain, unique
//!     labels: {env: prod, location: beijing}
//!     taints:
//!       - {key: dedicated, value: training, effect: NoSchedule}
//!     default: true                 # at most one cluster
//!     apiServer: https://10.0.0.1:6443   # optional server override (no credentials)
//!     profile: console-readonly     # optional RBAC profile besides the default minimal set
//!     kubeconfig:                   # exactly one of path / inline / secretRef
//!       path: /etc/cube/bj-prod.kubeconfig
//!       context: admin@bj-prod      # optional; default current-context
//!   - name: sh-dev
//!     kubeconfig:
//!       secretRef: cube-system/sh-dev-kubeconfig/config   # or {namespace, name, key}
//! ```
//!
//! Unknown keys are errors ([`ClusterRegistry::from_yaml`]), so a typo (`lables:`) never
//! silently drops a label. [`ClusterRegistry::validate`] checks everything else.
//!
//! [`ClusterRegistry::select`] picks the clusters for a task: a selector string
//! (`env=prod,location in (beijing)`, kubectl syntax) or, when the task names none, the default
//! cluster; then taints are checked against the task's tolerations (upstream
//! `ToleratesTaint` semantics, as Karmada's `TaintToleration` plugin does for clusters).
//!
//! Pure data: reading kubeconfigs, writing the file and connecting to a cluster are
//! `cube-cluster`'s business (`cube_cluster::registry`).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{ClusterSelectError, RegistryProblem};
use crate::objects::{Labels, Taint, Toleration};
use crate::selector::{
    Selector, parse_selector, validate_dns1123_label, validate_dns1123_subdomain,
    validate_label_value, validate_qualified_name,
};

/// `apiVersion` of a cluster registry file (optional in the file; written by
/// `cube_cluster::registry`).
pub const REGISTRY_API_VERSION: &str = "cube-rs.io/v1alpha1";
/// `kind` of a cluster registry file.
pub const REGISTRY_KIND: &str = "ClusterRegistry";

/// A key of a Secret holding a kubeconfig: `namespace/name/key` (for a console that keeps
/// cluster credentials in Kubernetes Secrets of its own cluster). Written as that string or as a
/// mapping `{namespace, name, key}`; serialized as the string.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SecretKeyRef {
    /// Namespace of the Secret (a DNS-1123 label).
    pub namespace: String,
    /// Name of the Secret (a DNS-1123 subdomain).
    pub name: String,
    /// Key in the Secret's `data` holding the kubeconfig (`[-._a-zA-Z0-9]+`, like
    /// `IsConfigMapKey` in apimachinery `validation.go`).
    pub key: String,
}

impl SecretKeyRef {
    /// Problems of the three parts, as `(field, message)`.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        for e in validate_dns1123_label(&self.namespace) {
            out.push(("namespace", e));
        }
        for e in validate_dns1123_subdomain(&self.name) {
            out.push(("name", e));
        }
        if self.key.is_empty() {
            out.push(("key", "must not be empty".to_owned()));
        } else if self.key.len() > 253 {
            out.push(("key", "must be no more than 253 characters".to_owned()));
        } else if !self
            .key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            out.push((
                "key",
                "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
                    .to_owned(),
            ));
        } else if self.key == "." || self.key == ".." {
            out.push(("key", format!("must not be '{}'", self.key)));
        }
        out
    }
}

impl fmt::Display for SecretKeyRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.namespace, self.name, self.key)
    }
}

impl std::str::FromStr for SecretKeyRef {
    type Err = String;
    /// `namespace/name/key`; each part non-empty (checked further by
    /// [`SecretKeyRef::problems`]).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.trim().split('/').collect();
        match parts.as_slice() {
            [ns, name, key] if !ns.is_empty() && !name.is_empty() && !key.is_empty() => {
                Ok(SecretKeyRef {
                    namespace: (*ns).to_owned(),
                    name: (*name).to_owned(),
                    key: (*key).to_owned(),
                })
            }
            _ => Err(format!(
                "secret reference {s:?} must be namespace/name/key (three non-empty parts)"
            )),
        }
    }
}

impl Serialize for SecretKeyRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for SecretKeyRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Parts {
            namespace: String,
            name: String,
            key: String,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Text(String),
            Parts(Parts),
        }
        match Form::deserialize(d)? {
            Form::Text(t) => t.parse().map_err(serde::de::Error::custom),
            Form::Parts(p) => Ok(SecretKeyRef {
                namespace: p.namespace,
                name: p.name,
                key: p.key,
            }),
        }
    }
}

/// Where the credentials of a cluster live: exactly one of a kubeconfig file (`path`), an inline
/// kubeconfig (`inline`), or a Secret key (`secretRef`), plus the context to use.
///
/// Only `inline` holds credentials, and only when the user put them there; `Debug` never shows
/// its text.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct KubeconfigRef {
    /// Path of the kubeconfig file; empty when another source is used.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// The kubeconfig itself (YAML or JSON text). Holds credentials: written to the registry
    /// only when the user gave the kubeconfig inline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inline: Option<String>,
    /// A Secret key holding the kubeconfig, read through the console's own cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<SecretKeyRef>,
    /// Context to use; `None` = the kubeconfig's `current-context`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// The one source of a [`KubeconfigRef`] (see [`KubeconfigRef::source`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KubeconfigSource<'a> {
    /// A file path.
    File(&'a str),
    /// Inline kubeconfig text (secret: never print it).
    Inline(&'a str),
    /// A Secret key.
    Secret(&'a SecretKeyRef),
}

impl fmt::Debug for KubeconfigRef {
    /// As derived, with the inline kubeconfig replaced by its size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KubeconfigRef")
            .field("path", &self.path)
            .field(
                "inline",
                &self
                    .inline
                    .as_ref()
                    .map(|t| format!("<redacted, {} bytes>", t.len())),
            )
            .field("secret_ref", &self.secret_ref)
            .field("context", &self.context)
            .finish()
    }
}

impl KubeconfigRef {
    /// A file reference.
    pub fn file(path: impl Into<String>) -> Self {
        KubeconfigRef {
            path: path.into(),
            ..KubeconfigRef::default()
        }
    }
    /// An inline kubeconfig.
    pub fn inline(text: impl Into<String>) -> Self {
        KubeconfigRef {
            inline: Some(text.into()),
            ..KubeconfigRef::default()
        }
    }
    /// A Secret key reference.
    pub fn secret(secret: SecretKeyRef) -> Self {
        KubeconfigRef {
            secret_ref: Some(secret),
            ..KubeconfigRef::default()
        }
    }
    /// Use this context.
    #[must_use]
    pub fn with_context(mut self, context: impl Into<String>) -> Self {
        self.context = Some(context.into());
        self
    }
    /// The source, when exactly one of `path`, `inline` and `secretRef` is set (`None` when
    /// none or several are: [`ClusterRegistry::validate`] reports both).
    pub fn source(&self) -> Option<KubeconfigSource<'_>> {
        let file = (!self.path.trim().is_empty()).then_some(KubeconfigSource::File(&self.path));
        let inline = self.inline.as_deref().map(KubeconfigSource::Inline);
        let secret = self.secret_ref.as_ref().map(KubeconfigSource::Secret);
        match (file, inline, secret) {
            (Some(s), None, None) | (None, Some(s), None) | (None, None, Some(s)) => Some(s),
            _ => None,
        }
    }
    /// Whether credentials are stored in the reference itself (`inline`).
    pub fn holds_credentials(&self) -> bool {
        self.inline.is_some()
    }
}

/// A registered cluster.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Cluster {
    /// Unique name (a DNS-1123 subdomain).
    pub name: String,
    /// Labels tasks select on (`env=prod`, `location=beijing`).
    #[serde(skip_serializing_if = "Labels::is_empty")]
    pub labels: Labels,
    /// API server URL (`https://10.0.0.1:6443`): how the console reaches the cluster, overriding
    /// the kubeconfig's server (TLS keeps verifying the kubeconfig's name). Empty = the
    /// kubeconfig's server. Must not carry credentials (`user:pass@`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_server: String,
    /// Cluster taints (`dedicated=dev:NoSchedule`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    /// Where its kubeconfig is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubeconfig: Option<KubeconfigRef>,
    /// The cluster tasks go to when they name no selector.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
    /// Name of the RBAC capability profile the cluster's credentials must satisfy, besides the
    /// default minimal set (`list nodes`, `list pods` in all namespaces); `None` = the minimal
    /// set only. Built-in names are those of `cube_cluster::profiles::Profile::builtins`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
}

/// `scheme://user:pass@host` -> `scheme://REDACTED@host`.
fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (Some(s), r),
        None => (None, url),
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let authority = rest.get(..authority_end).unwrap_or(rest);
    match authority.rfind('@') {
        Some(at) => {
            let tail = rest.get(at + 1..).unwrap_or_default();
            match scheme {
                Some(s) => format!("{s}://REDACTED@{tail}"),
                None => format!("REDACTED@{tail}"),
            }
        }
        None => url.to_owned(),
    }
}

fn url_has_userinfo(url: &str) -> bool {
    redact_url(url) != url
}

impl fmt::Debug for Cluster {
    /// As derived, with any `user:password@` in the API server URL redacted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cluster")
            .field("name", &self.name)
            .field("labels", &self.labels)
            .field("api_server", &redact_url(&self.api_server))
            .field("taints", &self.taints)
            .field("kubeconfig", &self.kubeconfig)
            .field("default", &self.default)
            .field("profile", &self.profile)
            .finish()
    }
}

impl Cluster {
    /// A cluster with a name and nothing else.
    pub fn new(name: impl Into<String>) -> Self {
        Cluster {
            name: name.into(),
            ..Cluster::default()
        }
    }
    /// Adds a label.
    #[must_use]
    pub fn label(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.labels.insert(key.into(), value.into());
        self
    }
    /// Adds a taint.
    #[must_use]
    pub fn taint(
        mut self,
        key: impl Into<String>,
        value: impl Into<String>,
        effect: impl Into<String>,
    ) -> Self {
        self.taints.push(Taint {
            key: key.into(),
            value: value.into(),
            effect: effect.into(),
            time_added: None,
        });
        self
    }
    /// Sets the API server URL.
    #[must_use]
    pub fn api_server(mut self, url: impl Into<String>) -> Self {
        self.api_server = url.into();
        self
    }
    /// Marks the cluster as the default.
    #[must_use]
    pub fn default_cluster(mut self) -> Self {
        self.default = true;
        self
    }

    /// The first `NoSchedule` or `NoExecute` taint no toleration tolerates.
    pub fn untolerated_taint(&self, tolerations: &[Toleration]) -> Option<&Taint> {
        crate::selector::find_untolerated_taint(
            &self.taints,
            tolerations,
            crate::selector::is_scheduling_taint,
        )
    }

    /// True when a `PreferNoSchedule` taint is not tolerated (the cluster is ranked last).
    pub fn has_untolerated_preference(&self, tolerations: &[Toleration]) -> bool {
        crate::selector::find_untolerated_taint(&self.taints, tolerations, |t| {
            t.effect == "PreferNoSchedule"
        })
        .is_some()
    }
}

/// `key=value:Effect` (or `key:Effect`), as kubectl prints taints.
pub fn format_taint(t: &Taint) -> String {
    if t.value.is_empty() {
        format!("{}:{}", t.key, t.effect)
    } else {
        format!("{}={}:{}", t.key, t.value, t.effect)
    }
}

/// Parses a taint as `kubectl taint` writes it: `key=value:Effect` or `key:Effect` (kubectl
/// `ParseTaint`: the key a qualified name, the value a label value, the effect one of
/// `NoSchedule`, `PreferNoSchedule`, `NoExecute`).
///
/// # Errors
/// What is wrong, naming the part.
pub fn parse_taint(spec: &str) -> Result<Taint, String> {
    let spec = spec.trim();
    let Some((kv, effect)) = spec.rsplit_once(':') else {
        return Err(format!(
            "invalid taint spec {spec:?}: must be key=value:Effect or key:Effect"
        ));
    };
    let (key, value) = match kv.split_once('=') {
        Some((k, v)) => (k, v),
        None => (kv, ""),
    };
    let mut errs: Vec<String> = validate_qualified_name(key)
        .into_iter()
        .map(|e| format!("key {key:?}: {e}"))
        .collect();
    errs.extend(
        validate_label_value(value)
            .into_iter()
            .map(|e| format!("value {value:?}: {e}")),
    );
    if !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
        errs.push(format!(
            "effect {effect:?}: supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
        ));
    }
    if !errs.is_empty() {
        return Err(format!("invalid taint spec {spec:?}: {}", errs.join("; ")));
    }
    Ok(Taint {
        key: key.to_owned(),
        value: value.to_owned(),
        effect: effect.to_owned(),
        time_added: None,
    })
}

/// Parses a label as `key=value` (`kubectl label` syntax; the key a qualified name, the value
/// a label value, possibly empty).
///
/// # Errors
/// What is wrong, naming the part.
pub fn parse_label(spec: &str) -> Result<(String, String), String> {
    let spec = spec.trim();
    let Some((key, value)) = spec.split_once('=') else {
        return Err(format!("invalid label {spec:?}: must be key=value"));
    };
    let mut errs: Vec<String> = validate_qualified_name(key)
        .into_iter()
        .map(|e| format!("key {key:?}: {e}"))
        .collect();
    errs.extend(
        validate_label_value(value)
            .into_iter()
            .map(|e| format!("value {value:?}: {e}")),
    );
    if !errs.is_empty() {
        return Err(format!("invalid label {spec:?}: {}", errs.join("; ")));
    }
    Ok((key.to_owned(), value.to_owned()))
}

/// The registered clusters; also the schema of the cluster registry file (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterRegistry {
    /// `apiVersion`: empty or [`REGISTRY_API_VERSION`].
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `kind`: empty or [`REGISTRY_KIND`].
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Clusters, in registration order (selection keeps this order).
    pub clusters: Vec<Cluster>,
}

impl ClusterRegistry {
    /// A registry of these clusters (no `apiVersion`/`kind`).
    pub fn new(clusters: Vec<Cluster>) -> Self {
        ClusterRegistry {
            clusters,
            ..ClusterRegistry::default()
        }
    }

    /// Parses a registry file (YAML or JSON). An empty document is an empty registry. Unknown
    /// keys are errors. The result is not validated: call [`ClusterRegistry::validate`].
    ///
    /// # Errors
    /// The parser's message (with line and column), which never quotes a value: a broken file
    /// may hold an inline kubeconfig.
    pub fn from_yaml(text: &str) -> Result<Self, String> {
        Self::from_yaml_with(text, &crate::Limits::default())
    }

    /// [`ClusterRegistry::from_yaml`] within `limits` (one parse through [`crate::yaml`]'s
    /// bounded entry: `limits.max_yaml_alias_expansions` for the whole file).
    ///
    /// # Errors
    /// As [`ClusterRegistry::from_yaml`]; the alias limit names the limit and how to raise it.
    pub fn from_yaml_with(text: &str, limits: &crate::Limits) -> Result<Self, String> {
        if text
            .lines()
            .all(|l| matches!(l.trim(), "" | "---" | "...") || l.trim_start().starts_with('#'))
        {
            return Ok(ClusterRegistry::default());
        }
        crate::yaml::from_str::<Option<ClusterRegistry>>(
            text,
            limits,
            serde_saphyr::Options::default(),
        )
        .map(Option::unwrap_or_default)
        .map_err(|e| {
            if let Some(l) = crate::yaml::alias_limit_exceeded(&e, limits, "the registry") {
                return l.to_string();
            }
            // The parser appends a snippet of the source: keep only the first line.
            e.to_string().lines().next().unwrap_or_default().to_owned()
        })
    }

    /// The registry as YAML, with `apiVersion` and `kind` filled in.
    ///
    /// # Errors
    /// The serializer's message.
    pub fn to_yaml(&self) -> Result<String, String> {
        let mut r = self.clone();
        if r.api_version.is_empty() {
            r.api_version = REGISTRY_API_VERSION.to_owned();
        }
        if r.kind.is_empty() {
            r.kind = REGISTRY_KIND.to_owned();
        }
        serde_saphyr::to_string(&r).map_err(|e| e.to_string())
    }

    /// Mutable access to the cluster of this name.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Cluster> {
        self.clusters.iter_mut().find(|c| c.name == name)
    }

    /// The cluster of this name.
    pub fn get(&self, name: &str) -> Option<&Cluster> {
        self.clusters.iter().find(|c| c.name == name)
    }

    /// The default cluster.
    ///
    /// # Errors
    /// [`ClusterSelectError::NoDefaultCluster`] or
    /// [`ClusterSelectError::MultipleDefaultClusters`].
    pub fn default_cluster(&self) -> Result<&Cluster, ClusterSelectError> {
        let defaults: Vec<&Cluster> = self.clusters.iter().filter(|c| c.default).collect();
        match defaults.as_slice() {
            [one] => Ok(one),
            [] => Err(ClusterSelectError::NoDefaultCluster),
            many => Err(ClusterSelectError::MultipleDefaultClusters {
                names: many.iter().map(|c| c.name.clone()).collect(),
            }),
        }
    }

    /// Target clusters for a task.
    ///
    /// - `selector` `None` or blank: the default cluster;
    /// - otherwise the clusters whose labels match the selector string (kubectl syntax);
    /// - then clusters with a `NoSchedule`/`NoExecute` taint that `tolerations` do not tolerate
    ///   are left out; clusters with an untolerated `PreferNoSchedule` taint come last.
    ///
    /// Order: registration order, preferred clusters first.
    ///
    /// # Errors
    /// - [`ClusterSelectError::InvalidSelector`] for a bad selector string;
    /// - [`ClusterSelectError::NoDefaultCluster`] / `MultipleDefaultClusters` when falling back;
    /// - [`ClusterSelectError::NoMatchingCluster`] naming the requirements no cluster satisfies
    ///   (each requirement no single cluster has; or all of them when only the combination
    ///   fails);
    /// - [`ClusterSelectError::AllTainted`] naming each matching cluster and its untolerated taint.
    pub fn select(
        &self,
        selector: Option<&str>,
        tolerations: &[Toleration],
    ) -> Result<Vec<&Cluster>, ClusterSelectError> {
        let (shown, matched): (String, Vec<&Cluster>) =
            match selector.map(str::trim).filter(|s| !s.is_empty()) {
                None => ("<default>".to_owned(), vec![self.default_cluster()?]),
                Some(s) => {
                    let sel = parse_selector(s).map_err(ClusterSelectError::InvalidSelector)?;
                    (s.to_owned(), self.matching(&sel)?)
                }
            };
        let mut ok: Vec<&Cluster> = Vec::new();
        let mut later: Vec<&Cluster> = Vec::new();
        let mut tainted = Vec::new();
        for c in matched {
            if let Some(t) = c.untolerated_taint(tolerations) {
                tainted.push((c.name.clone(), format_taint(t)));
            } else if c.has_untolerated_preference(tolerations) {
                later.push(c);
            } else {
                ok.push(c);
            }
        }
        ok.extend(later);
        if ok.is_empty() {
            return Err(ClusterSelectError::AllTainted {
                selector: shown,
                clusters: tainted,
            });
        }
        Ok(ok)
    }

    /// Target clusters for a placement that may name a cluster explicitly (CubeStudio's
    /// `cluster` key) and/or give a selector: a named cluster must exist, match the selector when
    /// one is given, and not carry an untolerated `NoSchedule`/`NoExecute` taint; without a name
    /// this is [`ClusterRegistry::select`].
    ///
    /// # Errors
    /// [`ClusterSelectError::UnknownCluster`], [`ClusterSelectError::NoMatchingCluster`],
    /// [`ClusterSelectError::AllTainted`], or what [`ClusterRegistry::select`] returns.
    pub fn select_placement(
        &self,
        cluster: Option<&str>,
        selector: Option<&str>,
        tolerations: &[Toleration],
    ) -> Result<Vec<&Cluster>, ClusterSelectError> {
        let Some(name) = cluster.map(str::trim).filter(|s| !s.is_empty()) else {
            return self.select(selector, tolerations);
        };
        let c = self
            .get(name)
            .ok_or_else(|| ClusterSelectError::UnknownCluster {
                name: name.to_owned(),
            })?;
        let mut shown = name.to_owned();
        if let Some(s) = selector.map(str::trim).filter(|s| !s.is_empty()) {
            let sel = parse_selector(s).map_err(ClusterSelectError::InvalidSelector)?;
            let unsatisfied: Vec<String> = sel
                .requirements()
                .iter()
                .filter(|r| !r.matches(&c.labels))
                .map(ToString::to_string)
                .collect();
            if !unsatisfied.is_empty() {
                return Err(ClusterSelectError::NoMatchingCluster {
                    selector: format!("{name}: {sel}"),
                    unsatisfied,
                });
            }
            shown = format!("{name}: {sel}");
        }
        if let Some(t) = c.untolerated_taint(tolerations) {
            return Err(ClusterSelectError::AllTainted {
                selector: shown,
                clusters: vec![(c.name.clone(), format_taint(t))],
            });
        }
        Ok(vec![c])
    }

    fn matching(&self, sel: &Selector) -> Result<Vec<&Cluster>, ClusterSelectError> {
        let matched: Vec<&Cluster> = self
            .clusters
            .iter()
            .filter(|c| sel.matches(&c.labels))
            .collect();
        if !matched.is_empty() {
            return Ok(matched);
        }
        let lone: Vec<String> = sel
            .requirements()
            .iter()
            .filter(|r| !self.clusters.iter().any(|c| r.matches(&c.labels)))
            .map(ToString::to_string)
            .collect();
        let unsatisfied = if lone.is_empty() {
            sel.requirements().iter().map(ToString::to_string).collect()
        } else {
            lone
        };
        Err(ClusterSelectError::NoMatchingCluster {
            selector: sel.to_string(),
            unsatisfied,
        })
    }

    /// Every problem of the registry: names not DNS-1123 subdomains or repeated, bad label keys
    /// or values, taints with an unknown effect or bad key, more than one default, API server
    /// URLs carrying credentials, empty kubeconfig paths.
    pub fn validate(&self) -> Vec<RegistryProblem> {
        let mut out = Vec::new();
        let mut push = |path: String, message: String| out.push(RegistryProblem { path, message });
        let mut seen = std::collections::BTreeSet::new();
        for (i, c) in self.clusters.iter().enumerate() {
            let at = format!("clusters[{i}]");
            for e in validate_dns1123_subdomain(&c.name) {
                push(format!("{at}.name"), e);
            }
            if !seen.insert(c.name.as_str()) {
                push(
                    format!("{at}.name"),
                    format!("duplicate cluster name {:?}", c.name),
                );
            }
            for (k, v) in &c.labels {
                for e in validate_qualified_name(k) {
                    push(format!("{at}.labels[{k}]"), e);
                }
                for e in validate_label_value(v) {
                    push(format!("{at}.labels[{k}]"), e);
                }
            }
            for (j, t) in c.taints.iter().enumerate() {
                for e in validate_qualified_name(&t.key) {
                    push(format!("{at}.taints[{j}].key"), e);
                }
                if !matches!(
                    t.effect.as_str(),
                    "NoSchedule" | "PreferNoSchedule" | "NoExecute"
                ) {
                    push(
                        format!("{at}.taints[{j}].effect"),
                        format!(
                            "unsupported value {:?}: supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
                            t.effect
                        ),
                    );
                }
            }
            if url_has_userinfo(&c.api_server) {
                push(
                    format!("{at}.apiServer"),
                    "must not carry credentials (user:password@); use the kubeconfig reference"
                        .to_owned(),
                );
            }
            if let Some(k) = &c.kubeconfig {
                let set = [
                    !k.path.trim().is_empty(),
                    k.inline.is_some(),
                    k.secret_ref.is_some(),
                ]
                .iter()
                .filter(|b| **b)
                .count();
                if set == 0 {
                    push(
                        format!("{at}.kubeconfig"),
                        "must set one of path, inline or secretRef".to_owned(),
                    );
                } else if set > 1 {
                    push(
                        format!("{at}.kubeconfig"),
                        "must set only one of path, inline and secretRef".to_owned(),
                    );
                }
                if k.inline.as_deref().is_some_and(|t| t.trim().is_empty()) {
                    push(
                        format!("{at}.kubeconfig.inline"),
                        "must not be empty".to_owned(),
                    );
                }
                if let Some(r) = &k.secret_ref {
                    for (field, e) in r.problems() {
                        push(format!("{at}.kubeconfig.secretRef.{field}"), e);
                    }
                }
                if k.context.as_deref().is_some_and(|c| c.trim().is_empty()) {
                    push(
                        format!("{at}.kubeconfig.context"),
                        "must not be empty when set".to_owned(),
                    );
                }
            }
            if c.profile.as_deref().is_some_and(|p| p.trim().is_empty()) {
                push(
                    format!("{at}.profile"),
                    "must not be empty when set".to_owned(),
                );
            }
        }
        let defaults: Vec<&str> = self
            .clusters
            .iter()
            .filter(|c| c.default)
            .map(|c| c.name.as_str())
            .collect();
        if defaults.len() > 1 {
            push(
                "clusters".to_owned(),
                format!("more than one default cluster: {}", defaults.join(", ")),
            );
        }
        if !self.api_version.is_empty() && self.api_version != REGISTRY_API_VERSION {
            push(
                "apiVersion".to_owned(),
                format!(
                    "unsupported value {:?}: supported values: {REGISTRY_API_VERSION:?}",
                    self.api_version
                ),
            );
        }
        if !self.kind.is_empty() && self.kind != REGISTRY_KIND {
            push(
                "kind".to_owned(),
                format!(
                    "unsupported value {:?}: supported values: {REGISTRY_KIND:?}",
                    self.kind
                ),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> ClusterRegistry {
        ClusterRegistry::new(vec![
            Cluster::new("bj-prod")
                .label("env", "prod")
                .label("location", "beijing")
                .api_server("https://10.0.0.1:6443")
                .default_cluster(),
            Cluster::new("sh-prod")
                .label("env", "prod")
                .label("location", "shanghai")
                .taint("maintenance", "", "PreferNoSchedule"),
            Cluster::new("bj-dev")
                .label("env", "dev")
                .label("location", "beijing")
                .taint("dedicated", "dev", "NoSchedule"),
        ])
    }

    fn names(v: &[&Cluster]) -> Vec<String> {
        v.iter().map(|c| c.name.clone()).collect()
    }

    fn tol(key: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: key.into(),
            operator: "Equal".into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        }
    }

    #[test]
    fn selects_by_labels_and_falls_back_to_default() {
        let r = registry();
        assert_eq!(names(&r.select(None, &[]).unwrap()), ["bj-prod"]);
        assert_eq!(names(&r.select(Some("  "), &[]).unwrap()), ["bj-prod"]);
        assert_eq!(
            names(
                &r.select(Some("env=prod,location in (beijing)"), &[])
                    .unwrap()
            ),
            ["bj-prod"]
        );
        // PreferNoSchedule ranks last, never excludes
        assert_eq!(
            names(&r.select(Some("env=prod"), &[]).unwrap()),
            ["bj-prod", "sh-prod"]
        );
        let t = [Toleration {
            key: "maintenance".into(),
            operator: "Exists".into(),
            ..Default::default()
        }];
        assert_eq!(
            names(&r.select(Some("env"), &t).unwrap()),
            ["bj-prod", "sh-prod"]
        );
    }

    #[test]
    fn taints_exclude_unless_tolerated() {
        let r = registry();
        match r.select(Some("env=dev"), &[]) {
            Err(ClusterSelectError::AllTainted { clusters, .. }) => {
                assert_eq!(
                    clusters,
                    [("bj-dev".to_owned(), "dedicated=dev:NoSchedule".to_owned())]
                );
            }
            other => panic!("{other:?}"),
        }
        let ok = r
            .select(Some("env=dev"), &[tol("dedicated", "dev", "NoSchedule")])
            .unwrap();
        assert_eq!(names(&ok), ["bj-dev"]);
        assert!(
            r.select(Some("env=dev"), &[tol("dedicated", "prod", "")])
                .is_err()
        );
        assert_eq!(
            names(&r.select(Some("location=beijing"), &[]).unwrap()),
            ["bj-prod"]
        );
    }

    #[test]
    fn refuses_with_the_labels_no_cluster_has() {
        let r = registry();
        let err = r
            .select(Some("env=prod,location=guangzhou,gpu"), &[])
            .unwrap_err();
        match &err {
            ClusterSelectError::NoMatchingCluster { unsatisfied, .. } => {
                assert_eq!(unsatisfied, &["gpu", "location=guangzhou"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("location=guangzhou"), "{err}");
        // each requirement alone is satisfiable; only the combination fails
        match r
            .select(Some("env=dev,location=shanghai"), &[])
            .unwrap_err()
        {
            ClusterSelectError::NoMatchingCluster { unsatisfied, .. } => {
                assert_eq!(unsatisfied, ["env=dev", "location=shanghai"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            r.select(Some("env in (prod"), &[]),
            Err(ClusterSelectError::InvalidSelector(_))
        ));
        let none = ClusterRegistry::new(vec![Cluster::new("a")]);
        assert!(matches!(
            none.select(None, &[]),
            Err(ClusterSelectError::NoDefaultCluster)
        ));
    }

    #[test]
    fn named_cluster_placement() {
        let r = registry();
        assert_eq!(
            names(&r.select_placement(Some("sh-prod"), None, &[]).unwrap()),
            ["sh-prod"]
        );
        assert_eq!(
            names(
                &r.select_placement(None, Some("env=dev"), &[tol("dedicated", "dev", "")])
                    .unwrap()
            ),
            ["bj-dev"]
        );
        assert!(matches!(
            r.select_placement(Some("nope"), None, &[]),
            Err(ClusterSelectError::UnknownCluster { .. })
        ));
        match r.select_placement(Some("sh-prod"), Some("location=beijing"), &[]) {
            Err(ClusterSelectError::NoMatchingCluster { unsatisfied, .. }) => {
                assert_eq!(unsatisfied, ["location=beijing"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            r.select_placement(Some("bj-dev"), None, &[]),
            Err(ClusterSelectError::AllTainted { .. })
        ));
    }

    #[test]
    fn yaml_and_json_round_trip_and_validate() {
        let yaml = r#"
clusters:
  - name: bj-prod
    labels: {env: prod, location: beijing}
    apiServer: https://10.0.0.1:6443
    kubeconfig: {path: /etc/cube/bj-prod.kubeconfig, context: admin@bj-prod}
    default: true
  - name: bj-dev
    labels: {env: dev}
    taints:
      - {key: dedicated, value: dev, effect: NoSchedule}
"#;
        let r: ClusterRegistry = serde_saphyr::from_str(yaml).unwrap();
        assert_eq!(r.clusters.len(), 2);
        assert_eq!(
            r.clusters[0]
                .kubeconfig
                .as_ref()
                .unwrap()
                .context
                .as_deref(),
            Some("admin@bj-prod")
        );
        assert!(r.validate().is_empty(), "{:?}", r.validate());
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<ClusterRegistry>(&json).unwrap(), r);
        let y = serde_saphyr::to_string(&r).unwrap();
        assert_eq!(serde_saphyr::from_str::<ClusterRegistry>(&y).unwrap(), r);

        let bad = ClusterRegistry::new(vec![
            Cluster::new("A_B")
                .api_server("https://admin:s3cret@10.0.0.1:6443")
                .default_cluster(),
            Cluster::new("x").taint("k", "", "NoWay").default_cluster(),
            Cluster::new("x"),
        ]);
        let problems = bad.validate();
        let paths: Vec<&str> = problems.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "clusters[0].name",
                "clusters[0].apiServer",
                "clusters[1].taints[0].effect",
                "clusters[2].name",
                "clusters"
            ]
        );
        let dbg = format!("{:?}", bad.clusters[0]);
        assert!(!dbg.contains("s3cret"), "{dbg}");
        assert!(dbg.contains("REDACTED@10.0.0.1:6443"), "{dbg}");
    }

    #[test]
    fn registry_file_schema_sources_and_unknown_keys() {
        let yaml = r#"
apiVersion: cube-rs.io/v1alpha1
kind: ClusterRegistry
clusters:
  - name: bj-prod
    labels: {env: prod}
    profile: console-readonly
    default: true
    kubeconfig: {path: /etc/cube/bj.kubeconfig, context: admin@bj}
  - name: sh
    kubeconfig:
      secretRef: cube-system/sh-kubeconfig/config
  - name: gz
    kubeconfig:
      secretRef: {namespace: cube-system, name: gz, key: kubeconfig.yaml}
  - name: inline
    kubeconfig:
      inline: |
        apiVersion: v1
        kind: Config
        users: [{name: u, user: {token: s3cr3t-inline-token}}]
"#;
        let r = ClusterRegistry::from_yaml(yaml).unwrap();
        assert!(r.validate().is_empty(), "{:?}", r.validate());
        let src: Vec<_> = r
            .clusters
            .iter()
            .map(|c| c.kubeconfig.as_ref().and_then(KubeconfigRef::source))
            .collect();
        assert!(matches!(
            src[0],
            Some(KubeconfigSource::File("/etc/cube/bj.kubeconfig"))
        ));
        assert!(
            matches!(src[1], Some(KubeconfigSource::Secret(s)) if s.to_string() == "cube-system/sh-kubeconfig/config")
        );
        assert!(matches!(src[2], Some(KubeconfigSource::Secret(s)) if s.key == "kubeconfig.yaml"));
        assert!(matches!(src[3], Some(KubeconfigSource::Inline(t)) if t.contains("kind: Config")));
        assert_eq!(r.clusters[0].profile.as_deref(), Some("console-readonly"));
        // Debug never shows an inline kubeconfig
        let dbg = format!("{r:?}");
        assert!(!dbg.contains("s3cr3t-inline-token"), "{dbg}");
        // round trip through the writer
        let text = r.to_yaml().unwrap();
        assert_eq!(ClusterRegistry::from_yaml(&text).unwrap(), r);
        // unknown keys are errors, naming the key but never a value
        let err = ClusterRegistry::from_yaml("clusters:\n  - name: a\n    lables: {env: prod}\n")
            .unwrap_err();
        assert!(err.contains("lables"), "{err}");
        assert!(
            ClusterRegistry::from_yaml("clusters: [{name: a, kubeconfig: {file: x}}]").is_err()
        );
        assert_eq!(
            ClusterRegistry::from_yaml("# nothing\n---\n").unwrap(),
            ClusterRegistry::default()
        );
    }

    #[test]
    fn registry_kubeconfig_source_and_header_problems() {
        let mut both = KubeconfigRef::file("/x");
        both.inline = Some("kind: Config".into());
        let r = ClusterRegistry {
            api_version: "v9".into(),
            kind: "Config".into(),
            clusters: vec![
                Cluster {
                    kubeconfig: Some(KubeconfigRef::default()),
                    ..Cluster::new("none")
                },
                Cluster {
                    kubeconfig: Some(both),
                    ..Cluster::new("both")
                },
                Cluster {
                    kubeconfig: Some(KubeconfigRef::secret(SecretKeyRef {
                        namespace: "Bad_NS".into(),
                        name: "ok".into(),
                        key: "a/b".into(),
                    })),
                    profile: Some(" ".into()),
                    ..Cluster::new("secret")
                },
            ],
        };
        let paths: Vec<String> = r.validate().into_iter().map(|p| p.path).collect();
        assert_eq!(
            paths,
            [
                "clusters[0].kubeconfig",
                "clusters[1].kubeconfig",
                "clusters[2].kubeconfig.secretRef.namespace",
                "clusters[2].kubeconfig.secretRef.key",
                "clusters[2].profile",
                "apiVersion",
                "kind"
            ]
        );
        assert!("a/b".parse::<SecretKeyRef>().is_err());
        assert!("a//c".parse::<SecretKeyRef>().is_err());
    }

    #[test]
    fn taint_and_label_specs_as_kubectl_writes_them() {
        let t = parse_taint("dedicated=gpu:NoSchedule").unwrap();
        assert_eq!(
            (t.key.as_str(), t.value.as_str(), t.effect.as_str()),
            ("dedicated", "gpu", "NoSchedule")
        );
        let t = parse_taint("example.com/maintenance:NoExecute").unwrap();
        assert_eq!(
            (t.key.as_str(), t.value.as_str()),
            ("example.com/maintenance", "")
        );
        for bad in [
            "k=v",
            "k=v:NoWay",
            "bad key=v:NoSchedule",
            ":NoSchedule",
            "k=a b:NoSchedule",
        ] {
            assert!(parse_taint(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_label("env=prod").unwrap(),
            ("env".to_owned(), "prod".to_owned())
        );
        assert_eq!(parse_label("gpu=").unwrap().1, "");
        for bad in ["env", "=x", "env=a b", "a b=c"] {
            assert!(parse_label(bad).is_err(), "{bad}");
        }
    }
}
