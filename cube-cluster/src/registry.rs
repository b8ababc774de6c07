//! The cluster registry file: read, change and write it safely.
//!
//! The schema is cube-model's [`ClusterRegistry`] (documented there and in
//! `docs/cluster-registry.md`). This module adds the file handling a console or a CLI needs:
//!
//! * [`RegistryFile::open`] reads the file (bounded, regular files only). A missing file is an
//!   empty registry; a file that does not parse is [`RegistryError::Broken`] and a file that
//!   parses but does not validate is [`RegistryError::Invalid`]: such a file is reported and
//!   never overwritten.
//! * [`RegistryFile::apply`] adds or updates one cluster from a [`ClusterUpdate`] (labels and
//!   taints as `kubectl label` / `kubectl taint` change them), and refuses a result that does
//!   not validate.
//! * [`RegistryFile::save`] writes atomically: a temporary file in the same directory, flushed
//!   to disk, then renamed over the original; if the file changed since it was opened,
//!   [`RegistryError::Changed`] and nothing is written. A registry holding an inline kubeconfig
//!   is written with mode `0600` on Unix. A registry path that is a symbolic link (a registry
//!   kept in a dotfiles or shared directory) is written through: the link's final target is
//!   replaced atomically (the temporary file sits next to the target) and the link stays a
//!   link, as `kubectl config` writes through a linked kubeconfig (client-go's `WriteToFile`
//!   uses `os.WriteFile`, which follows links). Before, the link was replaced by a regular
//!   file and the shared target silently kept the old registry.
//! * [`kubeconfig_for`] turns a cluster's [`KubeconfigRef`] into a [`Kubeconfig`]: a file path
//!   (relative paths against the registry file's directory) or inline text;
//!   [`read_secret_kubeconfig`] reads a Secret reference through the console's own cluster.
//!
//! No secret is ever written into the registry unless the caller put it there inline: a file
//! reference stores the path, a Secret reference stores `namespace/name/key`.

use std::path::{Path, PathBuf};

use cube_model::cluster::{
    Cluster, ClusterRegistry, KubeconfigRef, KubeconfigSource, REGISTRY_API_VERSION, REGISTRY_KIND,
    SecretKeyRef,
};
use cube_model::error::RegistryProblem;
use cube_model::objects::Taint;

use crate::http::{BoundedClient, HttpError};
use crate::kubeconfig::Kubeconfig;
use crate::limits::{FileReadError, read_limited};

/// Errors of registry file handling.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// The file could not be read (other than "not found", which is an empty registry).
    #[error("cannot read registry {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: FileReadError,
    },
    /// The file does not parse: reported, never overwritten.
    #[error("registry {path} is broken ({message}); fix or move it, it is not overwritten")]
    Broken {
        /// The file.
        path: PathBuf,
        /// The parser's message (line and column; never a value).
        message: String,
    },
    /// The registry (as read, or as it would be after a change) does not validate.
    #[error("registry {path} is invalid: {}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Every problem.
        problems: Vec<RegistryProblem>,
    },
    /// The file changed between [`RegistryFile::open`] and [`RegistryFile::save`].
    #[error("registry {path} changed while it was being updated; nothing was written, try again")]
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// Writing the temporary file or renaming it failed (the original is untouched).
    #[error("cannot write registry {path}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The registry could not be serialized.
    #[error("cannot serialize registry {path}: {message}")]
    Serialize {
        /// The file.
        path: PathBuf,
        /// The serializer's message.
        message: String,
    },
}

impl RegistryError {
    /// The limit hit, when the registry file was larger than a bound of the
    /// [`cube_model::Limits`] policy.
    pub fn limit(&self) -> Option<&cube_model::limits::LimitExceeded> {
        match self {
            RegistryError::Read { source, .. } => source.limit_exceeded(),
            _ => None,
        }
    }
}

/// One label change (`kubectl label` syntax: `key=value` sets, `key-` removes).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LabelChange {
    /// Set `key` to `value`.
    Set(String, String),
    /// Remove `key`.
    Remove(String),
}

impl std::str::FromStr for LabelChange {
    type Err = String;
    /// `key=value` or `key-`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Some(key) = s.strip_suffix('-')
            && !s.contains('=')
        {
            let errs = cube_model::selector::validate_qualified_name(key);
            if !errs.is_empty() {
                return Err(format!("invalid label key {key:?}: {}", errs.join("; ")));
            }
            return Ok(LabelChange::Remove(key.to_string()));
        }
        cube_model::cluster::parse_label(s).map(|(k, v)| LabelChange::Set(k, v))
    }
}

/// One taint change (`kubectl taint` syntax: `key=value:Effect` adds or replaces the taint with
/// that key and effect; `key:Effect-` or `key-` removes).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaintChange {
    /// Add, or replace the taint with the same key and effect.
    Set(Taint),
    /// Remove the taints with this key (and this effect, when given).
    Remove {
        /// The key.
        key: String,
        /// The effect; `None` = every effect.
        effect: Option<String>,
    },
}

impl std::str::FromStr for TaintChange {
    type Err = String;
    /// `key=value:Effect`, `key:Effect`, `key:Effect-` or `key-`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Some(rest) = s.strip_suffix('-') {
            let (key, effect) = match rest.split_once(':') {
                Some((k, e)) => (k, Some(e.to_string())),
                None => (rest, None),
            };
            let key = key.split('=').next().unwrap_or_default();
            let errs = cube_model::selector::validate_qualified_name(key);
            if !errs.is_empty() {
                return Err(format!("invalid taint key {key:?}: {}", errs.join("; ")));
            }
            if let Some(e) = &effect
                && !matches!(e.as_str(), "NoSchedule" | "PreferNoSchedule" | "NoExecute")
            {
                return Err(format!(
                    "invalid taint effect {e:?}: supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""
                ));
            }
            return Ok(TaintChange::Remove {
                key: key.to_string(),
                effect,
            });
        }
        cube_model::cluster::parse_taint(s).map(TaintChange::Set)
    }
}

/// What to change in (or set on) one registry entry. `None` fields keep the current value
/// (for a new entry: the default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterUpdate {
    /// Label changes, in order.
    pub labels: Vec<LabelChange>,
    /// Taint changes, in order.
    pub taints: Vec<TaintChange>,
    /// `Some(true)`: make this the default cluster (the flag moves from any other cluster);
    /// `Some(false)`: clear it.
    pub default: Option<bool>,
    /// The kubeconfig reference (replaces the current one).
    pub kubeconfig: Option<KubeconfigRef>,
    /// The API server override (`Some("")` clears it).
    pub api_server: Option<String>,
    /// The RBAC profile (`Some(None)` clears it).
    pub profile: Option<Option<String>>,
}

/// What [`RegistryFile::apply`] did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ApplyOutcome {
    /// `added`, `updated` or `unchanged`.
    pub action: ApplyAction,
    /// The cluster that was the default before and no longer is (the flag moved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_default: Option<String>,
}

/// See [`ApplyOutcome::action`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ApplyAction {
    /// A new entry.
    Added,
    /// An existing entry changed.
    Updated,
    /// The entry already was exactly so.
    Unchanged,
}

/// A registry file opened for reading and updating.
#[derive(Debug, Clone)]
pub struct RegistryFile {
    path: PathBuf,
    registry: ClusterRegistry,
    /// The bytes read at open (`None`: the file did not exist).
    original: Option<Vec<u8>>,
    /// The policy it was read with (the re-read before a save uses it too).
    limits: cube_model::Limits,
}

fn read_optional(
    path: &Path,
    limits: &cube_model::Limits,
) -> Result<Option<Vec<u8>>, RegistryError> {
    match read_limited(path, limits, cube_model::Limit::FileBytes) {
        Ok(b) => Ok(Some(b)),
        Err(FileReadError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(source) => Err(RegistryError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

impl RegistryFile {
    /// Opens `path`: a missing file is an empty registry (created by [`RegistryFile::save`]).
    ///
    /// # Errors
    /// [`RegistryError::Read`], [`RegistryError::Broken`] (not UTF-8 or does not parse),
    /// [`RegistryError::Invalid`] (parses, but [`ClusterRegistry::validate`] finds problems).
    pub fn open(path: &Path) -> Result<Self, RegistryError> {
        Self::open_with(path, &cube_model::Limits::default())
    }

    /// [`RegistryFile::open`] within a [`cube_model::Limits`] policy: the file is read up to
    /// [`cube_model::Limits::max_file_bytes`] (as the programs read every input file), YAML
    /// aliases within [`cube_model::Limits::max_yaml_alias_expansions`]. A larger file is
    /// [`RegistryError::Read`] whose [`RegistryError::limit`] names the limit.
    ///
    /// # Errors
    /// As [`RegistryFile::open`].
    pub fn open_with(path: &Path, limits: &cube_model::Limits) -> Result<Self, RegistryError> {
        let original = read_optional(path, limits)?;
        let registry = match &original {
            None => ClusterRegistry::default(),
            Some(bytes) => {
                let text = std::str::from_utf8(bytes).map_err(|e| RegistryError::Broken {
                    path: path.to_path_buf(),
                    message: format!("not UTF-8 text at byte {}", e.valid_up_to()),
                })?;
                ClusterRegistry::from_yaml_with(text, limits).map_err(|message| {
                    RegistryError::Broken {
                        path: path.to_path_buf(),
                        message,
                    }
                })?
            }
        };
        let problems = registry.validate();
        if !problems.is_empty() {
            return Err(RegistryError::Invalid {
                path: path.to_path_buf(),
                problems,
            });
        }
        Ok(RegistryFile {
            path: path.to_path_buf(),
            registry,
            original,
            limits: limits.clone(),
        })
    }

    /// The file path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file existed when opened.
    pub fn existed(&self) -> bool {
        self.original.is_some()
    }

    /// The registry as it is now (after any [`RegistryFile::apply`]).
    pub fn registry(&self) -> &ClusterRegistry {
        &self.registry
    }

    /// The directory relative kubeconfig paths are resolved against.
    pub fn base_dir(&self) -> PathBuf {
        self.path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    /// Adds cluster `name` or updates it with `update`. The registry is validated afterwards; an
    /// invalid result is refused and the registry left as it was.
    ///
    /// # Errors
    /// [`RegistryError::Invalid`] with the problems of the result.
    pub fn apply(
        &mut self,
        name: &str,
        update: &ClusterUpdate,
    ) -> Result<ApplyOutcome, RegistryError> {
        let mut next = self.registry.clone();
        let existed = next.get(name).is_some();
        if !existed {
            next.clusters.push(Cluster::new(name));
        }
        let before = next.get(name).cloned();
        let mut previous_default = None;
        if update.default == Some(true) {
            for c in next
                .clusters
                .iter_mut()
                .filter(|c| c.name != name && c.default)
            {
                c.default = false;
                previous_default = Some(c.name.clone());
            }
        }
        let Some(c) = next.get_mut(name) else {
            return Err(RegistryError::Invalid {
                path: self.path.clone(),
                problems: Vec::new(),
            });
        };
        for l in &update.labels {
            match l {
                LabelChange::Set(k, v) => {
                    c.labels.insert(k.clone(), v.clone());
                }
                LabelChange::Remove(k) => {
                    c.labels.remove(k);
                }
            }
        }
        for t in &update.taints {
            match t {
                TaintChange::Set(taint) => {
                    match c
                        .taints
                        .iter_mut()
                        .find(|x| x.key == taint.key && x.effect == taint.effect)
                    {
                        Some(x) => *x = taint.clone(),
                        None => c.taints.push(taint.clone()),
                    }
                }
                TaintChange::Remove { key, effect } => c
                    .taints
                    .retain(|x| !(x.key == *key && effect.as_ref().is_none_or(|e| *e == x.effect))),
            }
        }
        if let Some(d) = update.default {
            c.default = d;
        }
        if let Some(k) = &update.kubeconfig {
            c.kubeconfig = Some(k.clone());
        }
        if let Some(s) = &update.api_server {
            c.api_server = s.trim().to_string();
        }
        if let Some(p) = &update.profile {
            c.profile = p.clone();
        }
        let changed = before.as_ref() != next.get(name) || previous_default.is_some();
        let problems = next.validate();
        if !problems.is_empty() {
            return Err(RegistryError::Invalid {
                path: self.path.clone(),
                problems,
            });
        }
        self.registry = next;
        Ok(ApplyOutcome {
            action: if !existed {
                ApplyAction::Added
            } else if changed {
                ApplyAction::Updated
            } else {
                ApplyAction::Unchanged
            },
            previous_default,
        })
    }

    /// Writes the registry atomically (see the module docs), with `apiVersion` and `kind`.
    ///
    /// # Errors
    /// [`RegistryError::Changed`] when the file changed since it was opened (nothing is
    /// written); [`RegistryError::Write`]; [`RegistryError::Serialize`].
    pub fn save(&mut self) -> Result<(), RegistryError> {
        let mut reg = self.registry.clone();
        reg.api_version = REGISTRY_API_VERSION.to_string();
        reg.kind = REGISTRY_KIND.to_string();
        let text = reg.to_yaml().map_err(|message| RegistryError::Serialize {
            path: self.path.clone(),
            message,
        })?;
        let holds_secrets = reg.clusters.iter().any(|c| {
            c.kubeconfig
                .as_ref()
                .is_some_and(KubeconfigRef::holds_credentials)
        });
        let target = link_target(&self.path).map_err(|source| RegistryError::Write {
            path: self.path.clone(),
            source,
        })?;
        write_atomic(&target, text.as_bytes(), holds_secrets, || {
            let now = read_optional(&self.path, &self.limits).ok().flatten();
            now == self.original
        })?;
        self.original = Some(text.into_bytes());
        self.registry = reg;
        Ok(())
    }
}

/// The file a registry path finally names: `path` itself, or the target of the chain of
/// symbolic links it starts (relative link targets against the link's directory; a dangling
/// link names the file to create, as `os.WriteFile` creates it). More than 40 links
/// (`ELOOP`'s bound on Linux) is an error.
fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other(format!(
        "{}: more than 40 symbolic links in a row",
        path.display()
    )))
}

/// Writes `bytes` to a temporary file next to `path`, flushes it, checks `unchanged()`, then
/// renames it over `path`. The temporary file is removed on any failure.
fn write_atomic(
    path: &Path,
    bytes: &[u8],
    private: bool,
    unchanged: impl FnOnce() -> bool,
) -> Result<(), RegistryError> {
    use std::io::Write as _;
    let werr = |source| RegistryError::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "registry".to_string());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(".{file_name}.tmp-{}-{nanos}", std::process::id()));
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let existing_mode = std::fs::metadata(path).ok().map(|m| {
            use std::os::unix::fs::PermissionsExt as _;
            m.permissions().mode() & 0o777
        });
        let mode = if private {
            0o600
        } else {
            existing_mode.unwrap_or(0o644)
        };
        opts.mode(mode);
    }
    let result = (|| {
        let mut f = opts.open(&tmp).map_err(werr)?;
        f.write_all(bytes).map_err(werr)?;
        f.sync_all().map_err(werr)?;
        drop(f);
        if !unchanged() {
            return Err(RegistryError::Changed {
                path: path.to_path_buf(),
            });
        }
        std::fs::rename(&tmp, path).map_err(werr)?;
        // Make the rename durable where the platform allows it (best effort).
        if let Ok(d) = std::fs::File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Why a cluster's kubeconfig could not be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// The cluster has no kubeconfig reference, or an ambiguous one.
    #[error(
        "cluster {cluster:?} has no usable kubeconfig reference (set exactly one of path, inline, secretRef)"
    )]
    NoReference {
        /// Cluster name.
        cluster: String,
    },
    /// The reference is a Secret: read it with [`read_secret_kubeconfig`].
    #[error(
        "cluster {cluster:?} keeps its kubeconfig in Secret {secret}: a client for the console's own cluster is needed to read it"
    )]
    SecretNeedsClient {
        /// Cluster name.
        cluster: String,
        /// The reference.
        secret: SecretKeyRef,
    },
    /// The file could not be read.
    #[error("cannot read the kubeconfig of cluster {cluster:?}")]
    Read {
        /// Cluster name.
        cluster: String,
        /// Why.
        #[source]
        source: FileReadError,
    },
    /// The kubeconfig does not load.
    #[error("the kubeconfig of cluster {cluster:?} does not load")]
    Kubeconfig {
        /// Cluster name.
        cluster: String,
        /// Why.
        #[source]
        source: crate::Error,
    },
    /// Reading the Secret failed.
    #[error("cannot read Secret {secret} for cluster {cluster:?}")]
    Secret {
        /// Cluster name.
        cluster: String,
        /// The reference.
        secret: SecretKeyRef,
        /// Why.
        #[source]
        source: Box<HttpError>,
    },
    /// The Secret has no such key, or its value is not base64 UTF-8 text.
    #[error("Secret {secret} for cluster {cluster:?}: {reason}")]
    SecretContent {
        /// Cluster name.
        cluster: String,
        /// The reference.
        secret: SecretKeyRef,
        /// Why (never the value).
        reason: String,
    },
}

impl ResolveError {
    /// The limit hit, when the kubeconfig (or a file it references) was larger than a bound
    /// of the [`cube_model::Limits`] policy: what, where, the limit and how to raise it.
    pub fn limit(&self) -> Option<&cube_model::limits::LimitExceeded> {
        match self {
            ResolveError::Read { source, .. } => source.limit_exceeded(),
            ResolveError::Kubeconfig { source, .. } => source.limit(),
            _ => None,
        }
    }
}

/// The path a registry entry names, resolved against `base_dir` when relative.
pub fn resolve_path(base_dir: &Path, path: &str) -> PathBuf {
    let p = Path::new(path.trim());
    if p.is_absolute() || base_dir.as_os_str().is_empty() {
        p.to_path_buf()
    } else {
        base_dir.join(p)
    }
}

/// The kubeconfig of a registry cluster from a file (relative to `base_dir`) or inline text.
/// A Secret reference is [`ResolveError::SecretNeedsClient`] (see [`read_secret_kubeconfig`]).
///
/// # Errors
/// [`ResolveError`].
pub fn kubeconfig_for(cluster: &Cluster, base_dir: &Path) -> Result<Kubeconfig, ResolveError> {
    kubeconfig_for_with(cluster, base_dir, &cube_model::Limits::default())
}

/// [`kubeconfig_for`] within a [`cube_model::Limits`] policy: a kubeconfig file is read up to
/// [`cube_model::Limits::max_kubeconfig_bytes`] (a larger one is [`ResolveError::Read`] whose
/// [`ResolveError::limit`] names the limit), and file or inline text is parsed within
/// [`cube_model::Limits::max_yaml_alias_expansions`].
///
/// # Errors
/// [`ResolveError`].
pub fn kubeconfig_for_with(
    cluster: &Cluster,
    base_dir: &Path,
    limits: &cube_model::Limits,
) -> Result<Kubeconfig, ResolveError> {
    let no_ref = || ResolveError::NoReference {
        cluster: cluster.name.clone(),
    };
    let kref = cluster.kubeconfig.as_ref().ok_or_else(no_ref)?;
    match kref.source().ok_or_else(no_ref)? {
        KubeconfigSource::File(p) => {
            let path = resolve_path(base_dir, p);
            let bytes = read_limited(&path, limits, cube_model::Limit::KubeconfigBytes).map_err(
                |source| ResolveError::Read {
                    cluster: cluster.name.clone(),
                    source,
                },
            )?;
            Kubeconfig::from_yaml_strict_with(&String::from_utf8_lossy(&bytes), Some(&path), limits)
                .map_err(|source| ResolveError::Kubeconfig {
                    cluster: cluster.name.clone(),
                    source,
                })
        }
        KubeconfigSource::Inline(text) => {
            // an inline kubeconfig is bounded like a file of its own
            if text.len() as u64 > limits.max_kubeconfig_bytes {
                return Err(ResolveError::Read {
                    cluster: cluster.name.clone(),
                    source: FileReadError::TooLarge(limits.exceeded(
                        cube_model::Limit::KubeconfigBytes,
                        format!("the inline kubeconfig of cluster {:?}", cluster.name),
                        Some(text.len() as u64),
                    )),
                });
            }
            Kubeconfig::from_yaml_strict_with(text, None, limits).map_err(|source| {
                ResolveError::Kubeconfig {
                    cluster: cluster.name.clone(),
                    source,
                }
            })
        }
        KubeconfigSource::Secret(s) => Err(ResolveError::SecretNeedsClient {
            cluster: cluster.name.clone(),
            secret: s.clone(),
        }),
        // A reference form added later that this version cannot read.
        _ => Err(no_ref()),
    }
}

/// Reads the kubeconfig text of a Secret reference through `hub` (a client for the console's
/// own cluster): `GET /api/v1/namespaces/<ns>/secrets/<name>`, `data[<key>]` base64-decoded
/// (bounded like every read; the value never appears in an error).
///
/// # Errors
/// [`ResolveError::Secret`] (request failed, classified), [`ResolveError::SecretContent`].
pub async fn read_secret_kubeconfig(
    hub: &BoundedClient,
    cluster: &str,
    secret: &SecretKeyRef,
) -> Result<String, ResolveError> {
    use base64::Engine as _;
    let path = format!(
        "/api/v1/namespaces/{}/secrets/{}",
        secret.namespace, secret.name
    );
    let v: serde_json::Value =
        hub.get_small(&path)
            .await
            .map_err(|source| ResolveError::Secret {
                cluster: cluster.to_string(),
                secret: secret.clone(),
                source: Box::new(source),
            })?;
    let content = |reason: &str| ResolveError::SecretContent {
        cluster: cluster.to_string(),
        secret: secret.clone(),
        reason: reason.to_string(),
    };
    let b64 = v["data"][&secret.key]
        .as_str()
        .ok_or_else(|| content("the Secret has no such key in data"))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64.trim())
        .map_err(|_| content("the value is not valid base64"))?;
    String::from_utf8(bytes).map_err(|_| content("the value is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_and_taint_changes_parse_like_kubectl() {
        assert_eq!(
            "env=prod".parse::<LabelChange>(),
            Ok(LabelChange::Set("env".into(), "prod".into()))
        );
        assert_eq!(
            "env-".parse::<LabelChange>(),
            Ok(LabelChange::Remove("env".into()))
        );
        assert!("bad key=1".parse::<LabelChange>().is_err());
        assert!(matches!(
            "gpu=a100:NoSchedule".parse::<TaintChange>(),
            Ok(TaintChange::Set(t)) if t.key == "gpu" && t.value == "a100"
        ));
        assert_eq!(
            "gpu:NoSchedule-".parse::<TaintChange>(),
            Ok(TaintChange::Remove {
                key: "gpu".into(),
                effect: Some("NoSchedule".into())
            })
        );
        assert_eq!(
            "gpu-".parse::<TaintChange>(),
            Ok(TaintChange::Remove {
                key: "gpu".into(),
                effect: None
            })
        );
        assert!("gpu:Nope-".parse::<TaintChange>().is_err());
        assert!("gpu=x".parse::<TaintChange>().is_err());
    }

    #[test]
    fn relative_paths_resolve_against_the_registry() {
        assert_eq!(
            resolve_path(Path::new("/etc/cube"), "kc/a.yaml"),
            PathBuf::from("/etc/cube/kc/a.yaml")
        );
        assert_eq!(
            resolve_path(Path::new("/etc/cube"), "/abs.yaml"),
            PathBuf::from("/abs.yaml")
        );
    }
}
