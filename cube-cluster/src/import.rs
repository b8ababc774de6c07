//! Import one cluster from a kubeconfig, verified right by default: the library call that
//! `examples/cluster_import.rs` wraps and a console backend calls.
//!
//! The order is the one an operator follows, and each problem keeps its own class:
//! 1. **Offline** ([`import_offline`]): the file is validated the way client-go would load it
//!    (dangling context, cluster or user, server URL, plugins, proxy) and its certificate
//!    material is parsed (CA bundle and client certificate: not PEM, not a certificate, expired,
//!    not yet valid; a key that does not match its certificate). `insecure-skip-tls-verify` is
//!    a warning of its own kind (`insecure-skip-tls-verify`), never an unreachable cluster.
//! 2. **Connection** ([`crate::connect`]): `GET /version` with a classified outcome (DNS,
//!    refused, timeout, TLS untrusted / name mismatch / validity, protocol, reset, not HTTP, not
//!    Kubernetes, limits), then **authentication** (`SelfSubjectReview`: who the server sees;
//!    `system:anonymous` means no credentials reached it). For an `https` server reached with
//!    `insecure-skip-tls-verify`, or refused at the TLS layer, the server certificate is read with
//!    a separate handshake ([`crate::certs::fetch_server_certificate`]) and the server host is
//!    looked up in its SANs (`server-name-not-in-certificate`).
//! 3. **RBAC** by SelfSubjectAccessReview ([`crate::profiles`]): the seed's minimal set
//!    ([`crate::profiles::DEFAULT_PROFILE`], `list nodes` and `list pods` in all namespaces) is
//!    always checked, then every profile asked for. `get` never stands in for `list`.
//! 4. **Least privilege** ([`crate::manifests`]): when a check fails or the credentials are
//!    broader than needed (cluster-admin, wildcard rules, Secrets readable), the manifests of a
//!    ServiceAccount with exactly the checked rules are rendered (Namespace, ServiceAccount,
//!    ClusterRole / Roles, bindings, token Secret). On request
//!    ([`ImportOptions::create_service_account`]) they are created with server-side apply
//!    ([`create_service_account`]), the token the token controller writes into the Secret is
//!    read back, and the cluster is imported again with that token: the report says whether the
//!    minted account passes the same checks.
//!
//! [`ClusterImport::to_import_report`] turns the result into the plain
//! [`cube_model::import::ImportReport`] that `cube-diagnose` reads: the connection class comes
//! from [`crate::classify::Class::connection_class`], offline problems keep their kind ids (for
//! the rules of their own), and a cluster that was never contacted says `not-checked`.
//!
//! Secrets (tokens, keys, passwords, URL user-info) never appear in a [`ClusterImport`], its
//! Debug output or its JSON form: the minted account's kubeconfig is held in a
//! [`crate::manifests::ServiceAccountKubeconfig`], which writes the token only on request.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::api::{ApplyParams, ObjectApplier, ObjectReader, ObjectRef, ServerInfo};
use crate::certs::{CertificateInfo, fetch_server_certificate};
use crate::classify::{Class, error_chain_text};
use crate::client::ClientOptions;
use crate::connect::{CheckOptions, ConnectReport, Outcome, check_api};
use crate::kubeconfig::{
    Credentials, FileReferencePolicy, Kubeconfig, PluginPolicy, Problem, ProblemKind,
    SelectOptions, Selection, Severity, redact_server, validate_server,
};
use crate::manifests::{
    BearerToken, ManifestError, ManifestOptions, Manifests, ServiceAccountKubeconfig,
    manifests_for, token_from_secret,
};
use crate::profiles::{
    AccessReviewer, CapabilityReport, DEFAULT_PROFILE, OverPrivilege, Profile, ProfileError,
    check_profile,
};

/// Errors of [`import`] that are the caller's input, not the cluster's state (a CLI exits 2).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// `context` names a context the file does not have.
    #[error("context {0:?} does not exist")]
    ContextNotFound(String),
    /// The server override is not a usable URL.
    #[error(transparent)]
    InvalidServer(crate::Error),
    /// A profile cannot be checked as asked (per-namespace checks without namespaces).
    #[error(transparent)]
    Profile(#[from] ProfileError),
}

/// How to import (see the module docs for the order of the checks).
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Context to use (`None`: the file's `current-context`).
    pub context: Option<String>,
    /// Address the console reaches the API server at. The cluster entry's server is rewritten
    /// and TLS keeps verifying the original host name (`tls-server-name`), unlike kubectl's
    /// `--server`.
    pub server: Option<String>,
    /// Exec and auth-provider plugins (refused unless allowed).
    pub plugins: PluginPolicy,
    /// Which files the kubeconfig may make the client read (CA, client certificate and key,
    /// `tokenFile`). Default [`FileReferencePolicy::OwnDirectory`]: an imported kubeconfig is
    /// often someone else's upload, and client-go would send a `tokenFile`'s content (any file
    /// this process can read) to the kubeconfig's server as a bearer token. A refused
    /// reference is a [`ProblemKind::FileReferenceRefused`] error: the cluster is not importable.
    pub file_references: FileReferencePolicy,
    /// Profiles checked after [`DEFAULT_PROFILE`] (which is always checked first; asking for
    /// it again checks it once).
    pub profiles: Vec<Profile>,
    /// Namespaces of the per-namespace checks of the profiles.
    pub namespaces: Vec<String>,
    /// Validate offline only: open no connection.
    pub offline: bool,
    /// Client timeouts (each request).
    pub client: ClientOptions,
    /// Deadline of the connection check (`None`: connect + 2 x read timeout).
    pub deadline: Option<Duration>,
    /// SelfSubjectAccessReviews in flight at once.
    pub concurrency: usize,
    /// Names of the least-privilege objects (default: ServiceAccount `cube-console` in namespace
    /// `cube-system`, with a token Secret).
    pub manifests: ManifestOptions,
    /// Create the least-privilege objects with server-side apply after the import verified
    /// (the imported credentials must be allowed to), then import again with the minted token.
    pub create_service_account: bool,
    /// How long to wait for the token controller to fill the token Secret.
    pub token_wait: Duration,
    /// The time certificates are checked at (Unix seconds); `None` = now.
    pub now: Option<i64>,
    /// Bounds of every HTTP exchange of the live checks (body sizes, per-request time; see
    /// [`crate::limits::NetLimits::from_limits`] for a [`cube_model::Limits`] policy).
    pub net: crate::limits::NetLimits,
    /// Largest file the kubeconfig references that is read (CA, client certificate or key,
    /// `tokenFile`); `None` = [`crate::limits::DEFAULT_MAX_FILE_BYTES`]. From a
    /// [`cube_model::Limits`] policy: `Some(limits.max_referenced_file_bytes)`
    /// ([`SelectOptions::max_referenced_file_bytes`]).
    pub max_referenced_file_bytes: Option<u64>,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            context: None,
            server: None,
            plugins: PluginPolicy::default(),
            file_references: FileReferencePolicy::OwnDirectory,
            profiles: Vec::new(),
            namespaces: Vec::new(),
            offline: false,
            client: ClientOptions::default(),
            deadline: None,
            concurrency: 8,
            manifests: ManifestOptions::new("cube-console", "cube-system").with_token_secret(),
            create_service_account: false,
            token_wait: Duration::from_secs(10),
            net: crate::limits::NetLimits::default(),
            now: None,
            max_referenced_file_bytes: None,
        }
    }
}

impl ImportOptions {
    /// Defaults: current-context, plugins refused, live, the minimal profile only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every profile checked, in order: [`DEFAULT_PROFILE`] first, then the asked ones (each
    /// once).
    ///
    /// # Errors
    /// Never for the built-in default; kept fallible for custom defaults.
    pub fn effective_profiles(&self) -> Result<Vec<Profile>, ProfileError> {
        let mut out = vec![Profile::builtin(DEFAULT_PROFILE)?];
        for p in &self.profiles {
            if !out.iter().any(|q| q.name == p.name) {
                out.push(p.clone());
            }
        }
        Ok(out)
    }
}

/// Problems of one other context of the file.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ContextProblems {
    /// The context.
    pub context: String,
    /// Its problems (file-level ones are in [`ClusterImport::file_problems`]).
    pub problems: Vec<Problem>,
}

/// The server certificate as read once connected.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServerCertificateCheck {
    /// The host the certificate must name (`tls-server-name`, else the server's host).
    pub host: String,
    /// The leaf certificate (no key material).
    pub certificate: CertificateInfo,
    /// Whether the leaf's SANs name `host`.
    pub names_host: bool,
}

/// What [`create_service_account`] did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ServiceAccountCreation {
    /// The objects applied, `Kind/namespace/name`, in order.
    pub applied: Vec<String>,
    /// The ServiceAccount, `namespace/name`.
    pub service_account: String,
    /// The import run again with the minted token (`None` when no token could be read).
    pub verification: Option<Box<ClusterImport>>,
    /// Why creation or verification stopped, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// A kubeconfig for the minted account (holds the token: never serialized, redacted in
    /// Debug; write it with [`ServiceAccountKubeconfig::to_yaml`]).
    #[serde(skip)]
    pub kubeconfig: Option<ServiceAccountKubeconfig>,
}

/// The result of importing one cluster (no secret in it).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClusterImport {
    /// Where the kubeconfig came from (a path, or a label).
    pub kubeconfig: String,
    /// The selected context.
    pub context: Option<String>,
    /// The kubeconfig's cluster entry name.
    pub cluster_name: Option<String>,
    /// Server URL (credentials redacted).
    pub server: Option<String>,
    /// Name TLS verifies (when not the server's host).
    pub tls_server_name: Option<String>,
    /// True when every check that ran passed (offline: the file validates).
    pub importable: bool,
    /// Problems of the file as a whole.
    pub file_problems: Vec<Problem>,
    /// Problems of the selected context (plus, once connected,
    /// `server-name-not-in-certificate`).
    pub problems: Vec<Problem>,
    /// Problems of the other contexts of the file.
    pub other_contexts: Vec<ContextProblems>,
    /// The connection check (`None`: offline, or the file did not validate).
    pub connection: Option<ConnectReport>,
    /// The server certificate, when it was read.
    pub server_certificate: Option<ServerCertificateCheck>,
    /// One report per profile checked ([`DEFAULT_PROFILE`] first).
    pub rbac: Vec<CapabilityReport>,
    /// Least-privilege manifests (multi-document YAML) when a check failed or the credentials
    /// are broader than needed.
    pub manifests: Option<String>,
    /// The ServiceAccount created on request, and its verification.
    pub service_account: Option<ServiceAccountCreation>,
}

impl ClusterImport {
    /// Every RBAC profile checked was sufficient (vacuously true when none ran).
    pub fn rbac_sufficient(&self) -> bool {
        self.rbac.iter().all(CapabilityReport::is_sufficient)
    }

    /// The plain report `cube-diagnose` reads: the connection class from the classifier
    /// (`not-checked` when no connection was made), the typed kubeconfig problems of every
    /// context, the RBAC checks of every profile, and the over-privileges.
    pub fn to_import_report(&self) -> cube_model::import::ImportReport {
        use cube_model::import as m;
        let name = self
            .cluster_name
            .clone()
            .or_else(|| self.context.clone())
            .unwrap_or_else(|| self.kubeconfig.clone());
        let mut r = m::ImportReport::new(name, self.server.clone().unwrap_or_default());
        match &self.connection {
            None => r.connection.class = m::ConnectionClass::NotChecked,
            Some(c) => match &c.outcome {
                Outcome::Ok { user, groups, .. } => {
                    r.connection.class = m::ConnectionClass::Ok;
                    r.username = user.clone().unwrap_or_default();
                    r.groups = groups.clone();
                }
                Outcome::Failed { class, message } => {
                    r.connection.class = class.connection_class();
                    r.connection.message = format!("{}: {message}", class.hint());
                }
            },
        }
        let selected = self.context.clone().unwrap_or_default();
        let all = self
            .file_problems
            .iter()
            .map(|p| (String::new(), p))
            .chain(self.problems.iter().map(|p| (selected.clone(), p)))
            .chain(
                self.other_contexts
                    .iter()
                    .flat_map(|c| c.problems.iter().map(|p| (c.context.clone(), p))),
            );
        for (ctx, p) in all {
            if p.kind == ProblemKind::CaKeyAsClientIdentity {
                r.over_privileges.push(m::OverPrivilege {
                    permission: format!("{} ({ctx})", p.subject),
                    message: p.to_string(),
                });
            }
            r.config_problems.push(format!(
                "{} {}: {p}",
                if ctx.is_empty() { "file" } else { &ctx },
                p.subject
            ));
            r.kubeconfig_problems.push(m::KubeconfigProblem {
                severity: match p.severity {
                    Severity::Error => m::ProblemSeverity::Error,
                    Severity::Warning => m::ProblemSeverity::Warning,
                    Severity::Info => m::ProblemSeverity::Info,
                },
                kind: p.kind.id().to_string(),
                context: ctx,
                subject: p.subject.clone(),
                message: p.message.clone(),
                suggestion: p.suggestion.clone().unwrap_or_default(),
            });
        }
        for rep in &self.rbac {
            r.profiles.push(rep.profile.clone());
            for res in &rep.results {
                r.rbac_checks.push(m::RbacCheck {
                    verb: res.scoped.check.verb.clone(),
                    group: res.scoped.check.group.clone(),
                    resource: res.scoped.check.rule_resource(),
                    namespace: res.scoped.namespace.clone(),
                    allowed: res.outcome == crate::profiles::Outcome::Allowed,
                    required: true,
                    reason: res.reason.clone(),
                });
            }
            for w in &rep.warnings {
                let permission = match w {
                    OverPrivilege::ClusterAdmin { .. } => "*/* at cluster scope".to_string(),
                    OverPrivilege::WildcardRule { namespace, .. } if namespace.is_empty() => {
                        "wildcard rule at cluster scope".to_string()
                    }
                    OverPrivilege::WildcardRule { namespace, .. } => {
                        format!("wildcard rule in {namespace}")
                    }
                    OverPrivilege::SecretsReadable { .. } => {
                        "list secrets in all namespaces".to_string()
                    }
                };
                let o = m::OverPrivilege {
                    permission,
                    message: w.to_string(),
                };
                if !r.over_privileges.contains(&o) {
                    r.over_privileges.push(o);
                }
            }
        }
        r
    }
}

/// The offline part of [`import`]: the file validated (certificates parsed), nothing opened.
/// Also returns the resolved selection when the selected context validates.
///
/// # Errors
/// [`ImportError::ContextNotFound`] for an unknown `options.context`,
/// [`ImportError::InvalidServer`] for a bad `options.server`, [`ImportError::Profile`] when a
/// profile needs namespaces and none are given.
pub fn check_offline(
    kubeconfig: &Kubeconfig,
    source: &str,
    options: &ImportOptions,
) -> Result<(ClusterImport, Option<Selection>), ImportError> {
    for p in options.effective_profiles()? {
        p.expand(&options.namespaces)?;
    }
    let mut cfg = kubeconfig.clone();
    let mut opts = SelectOptions::new();
    opts.context = options.context.clone();
    opts.plugins = options.plugins;
    opts.file_references = options.file_references.clone();
    opts.now = options.now;
    opts.max_referenced_file_bytes = options.max_referenced_file_bytes;
    if let Some(c) = &opts.context
        && cfg.context(c).is_none()
    {
        return Err(ImportError::ContextNotFound(c.clone()));
    }
    if let Some(server) = &options.server {
        let server = validate_server(server).map_err(ImportError::InvalidServer)?;
        let ctx = opts
            .context
            .clone()
            .or_else(|| cfg.current_context.clone())
            .unwrap_or_default();
        let cluster = cfg
            .context(&ctx)
            .map(|c| c.context.cluster.clone())
            .unwrap_or_default();
        if cfg.cluster(&cluster).is_some() {
            cfg.rewrite_server(&cluster, &server)
                .map_err(ImportError::InvalidServer)?;
        } else {
            opts.server = Some(server);
        }
    }
    let (file_problems, problems): (Vec<Problem>, Vec<Problem>) = cfg
        .check(&opts)
        .into_iter()
        .partition(Problem::is_file_level);
    let selected = opts
        .context
        .clone()
        .or_else(|| cfg.current_context.clone())
        .filter(|c| !c.is_empty());
    // A file without contexts gets one entry named "" from check_all: its problems are the
    // file-level ones already listed.
    let other_contexts = cfg
        .check_all(&opts)
        .into_iter()
        .filter(|(c, _)| !c.is_empty() && Some(c) != selected.as_ref())
        .map(|(context, problems)| ContextProblems {
            context,
            problems: problems
                .into_iter()
                .filter(|p| !p.is_file_level())
                .collect(),
        })
        .collect();
    let selection = cfg.select(&opts).ok();
    let named = selected.as_deref().and_then(|c| cfg.context(c));
    let raw_server = named
        .and_then(|c| cfg.cluster(&c.context.cluster))
        .and_then(|c| c.cluster.server.clone());
    let report = ClusterImport {
        kubeconfig: source.to_string(),
        context: selected,
        cluster_name: selection
            .as_ref()
            .map(|s| s.cluster_name.clone())
            .or_else(|| named.map(|c| c.context.cluster.clone())),
        server: selection
            .as_ref()
            .map(|s| redact_server(&s.server))
            .or(raw_server.map(|s| redact_server(&s))),
        tls_server_name: selection.as_ref().and_then(|s| s.tls_server_name.clone()),
        importable: selection.is_some(),
        file_problems,
        problems,
        other_contexts,
        connection: None,
        server_certificate: None,
        rbac: Vec::new(),
        manifests: None,
        service_account: None,
    };
    Ok((report, selection))
}

/// [`import`] without any connection (`options.offline` is implied).
///
/// # Errors
/// As [`check_offline`].
pub fn import_offline(
    kubeconfig: &Kubeconfig,
    source: &str,
    options: &ImportOptions,
) -> Result<ClusterImport, ImportError> {
    check_offline(kubeconfig, source, options).map(|(r, _)| r)
}

/// Imports one cluster: offline checks, then (unless `options.offline`) connection,
/// authentication, RBAC profiles, least-privilege manifests and, on request, the
/// ServiceAccount created and verified. `source` names the kubeconfig in the report.
///
/// Never fails because of the cluster: every failure of the cluster or the file is in the
/// report ([`ClusterImport::importable`] false with its class).
///
/// # Errors
/// As [`check_offline`]: input the caller must fix.
pub async fn import(
    kubeconfig: &Kubeconfig,
    source: &str,
    options: &ImportOptions,
) -> Result<ClusterImport, ImportError> {
    let (mut report, selection) = check_offline(kubeconfig, source, options)?;
    let Some(selection) = selection else {
        return Ok(report);
    };
    if options.offline {
        return Ok(report);
    }
    let client = match crate::client::build_client_async(&selection, &options.client).await {
        Ok(c) => c,
        Err(e) => {
            report.importable = false;
            report.connection = Some(ConnectReport {
                server: redact_server(&selection.server),
                outcome: Outcome::Failed {
                    class: crate::classify::classify_build_error(&e),
                    message: error_chain_text(&e),
                },
                elapsed_ms: 0,
            });
            return Ok(report);
        }
    };
    // every answer read through the bounded client: `options.net`'s body sizes and times
    let bounded = crate::http::BoundedClient::new(client.clone(), options.net);
    verify_api(&bounded, &selection, options, &mut report).await?;
    if options.create_service_account && report.connection_ok() {
        let creation = mint_and_verify(&client, &selection, options, &report).await;
        report.service_account = Some(creation);
    }
    Ok(report)
}

impl ClusterImport {
    fn connection_ok(&self) -> bool {
        matches!(
            self.connection.as_ref().map(|c| &c.outcome),
            Some(Outcome::Ok { .. })
        )
    }
}

/// The live part of [`import`] through the seams, for a caller that holds its own client (or a
/// [`crate::memory::MemoryCluster`]): connection and authentication, the server certificate
/// when it matters, every profile, and the manifests. Fills `report`.
///
/// # Errors
/// [`ImportError::Profile`] when a profile needs namespaces and none are given.
pub async fn verify_api<A>(
    api: &A,
    selection: &Selection,
    options: &ImportOptions,
    report: &mut ClusterImport,
) -> Result<(), ImportError>
where
    A: ServerInfo + ObjectReader + AccessReviewer + ?Sized,
{
    let profiles = options.effective_profiles()?;
    let start = Instant::now();
    let check = CheckOptions {
        client: options.client,
        deadline: options.deadline,
        access_probe: None,
    };
    let outcome = check_api(api, &check).await;
    let tls_failed = matches!(
        outcome.class(),
        Some(
            Class::TlsUntrusted
                | Class::TlsSelfSigned
                | Class::TlsNameMismatch { .. }
                | Class::TlsValidity { .. }
        )
    );
    let ok = matches!(outcome, Outcome::Ok { .. });
    report.connection = Some(ConnectReport {
        server: redact_server(&selection.server),
        outcome,
        elapsed_ms: u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    });
    // The server certificate is read when verification did not look at it (insecure) or
    // refused it: its SANs must name the host the client verifies. Not when the server gave
    // no TLS answer at all (timeout, refused, unknown name, reset): a second connection
    // would only wait again (K9: an insecure cluster that never answers cost the request
    // timeout, then twice it again for the certificate).
    let unreachable = matches!(
        report.connection.as_ref().and_then(|c| c.outcome.class()),
        Some(Class::Timeout | Class::Refused | Class::Dns | Class::Reset)
    );
    if selection.server.starts_with("https://")
        && (selection.insecure_skip_tls_verify || tls_failed)
        && !unreachable
    {
        server_certificate(selection, options, report).await;
    }
    if !ok {
        report.importable = false;
        return Ok(());
    }
    for profile in &profiles {
        let rbac = check_profile(api, profile, &options.namespaces, options.concurrency).await?;
        report.rbac.push(rbac);
    }
    let needs_manifests = report
        .rbac
        .iter()
        .any(|r| !r.is_sufficient() || !r.warnings.is_empty());
    if needs_manifests && let Ok(m) = least_privilege(&profiles, options) {
        report.manifests = m.to_yaml().ok();
    }
    report.importable = report.rbac_sufficient()
        && !report
            .problems
            .iter()
            .any(|p| p.severity == Severity::Error);
    Ok(())
}

async fn server_certificate(
    selection: &Selection,
    options: &ImportOptions,
    report: &mut ClusterImport,
) {
    let host = selection.tls_server_name.clone().or_else(|| {
        selection
            .server
            .parse::<http::Uri>()
            .ok()
            .and_then(|u| u.host().map(|h| h.trim_matches(['[', ']']).to_string()))
    });
    let Some(host) = host else { return };
    // one exchange (connect and handshake), bounded like one request
    let timeout = options
        .client
        .read_timeout
        .max(options.client.connect_timeout)
        .min(options.net.request_timeout);
    let Ok(chain) = fetch_server_certificate(
        &selection.server,
        selection.tls_server_name.as_deref(),
        timeout,
    )
    .await
    else {
        return;
    };
    let Some(leaf) = chain.into_iter().next() else {
        return;
    };
    let names_host = leaf.matches_host(&host);
    if !names_host {
        report.problems.push(Problem {
            // A connection that only works because verification is off breaks as soon as it
            // is turned on: an error when verification is on, a warning otherwise.
            severity: if selection.insecure_skip_tls_verify {
                Severity::Warning
            } else {
                Severity::Error
            },
            kind: ProblemKind::ServerNameNotInCertificate,
            subject: format!("cluster {:?}", selection.cluster_name),
            message: format!(
                "the server certificate ({}) is valid for [{}], not {host}",
                leaf.subject,
                leaf.sans.join(", ")
            ),
            suggestion: Some(
                "connect with a name in the certificate's SANs (or set tls-server-name), or re-issue the serving certificate with this name".to_string(),
            ),
            limit: None,
        });
    }
    report.server_certificate = Some(ServerCertificateCheck {
        host,
        certificate: leaf,
        names_host,
    });
}

/// The least-privilege objects for every profile checked at once.
///
/// # Errors
/// [`ManifestError::Profile`] when a profile needs namespaces and none are given.
pub fn least_privilege(
    profiles: &[Profile],
    options: &ImportOptions,
) -> Result<Manifests, ManifestError> {
    let mut combined = Profile {
        name: profiles
            .iter()
            .map(|p| p.name.as_str())
            .filter(|n| *n != DEFAULT_PROFILE || profiles.len() == 1)
            .collect::<Vec<_>>()
            .join("-"),
        description: String::new(),
        notes: Vec::new(),
        checks: Vec::new(),
    };
    for p in profiles {
        for c in &p.checks {
            if !combined.checks.contains(c) {
                combined.checks.push(c.clone());
            }
        }
    }
    manifests_for(&combined, &options.namespaces, &options.manifests)
}

/// Creates `manifests` with server-side apply (field manager [`crate::api::FIELD_MANAGER`], in
/// order: Namespace, ServiceAccount, ClusterRole, ClusterRoleBinding, Roles, RoleBindings, token
/// Secret) and waits up to `wait` for the token controller to write the token into the Secret.
/// Returns the objects applied (`Kind/namespace/name`) and the token with the `ca.crt` the
/// controller wrote.
///
/// # Errors
/// The first failing apply or read (as text, redacted), or no token within `wait`.
pub async fn create_service_account<A>(
    api: &A,
    manifests: &Manifests,
    wait: Duration,
) -> Result<(Vec<String>, BearerToken, Option<String>), (Vec<String>, String)>
where
    A: ObjectApplier + ?Sized,
{
    let mut applied = Vec::new();
    let objects = match manifests.to_objects() {
        Ok(o) => o,
        Err(e) => return Err((applied, error_chain_text(&e))),
    };
    let params = ApplyParams::default();
    let mut secret_ref = None;
    for (_, object) in &objects {
        let target = match ObjectRef::of(object) {
            Ok(t) => t,
            Err(e) => return Err((applied, e.to_string())),
        };
        if let Err(e) = api.apply_object(object, &params).await {
            return Err((
                applied,
                format!(
                    "server-side apply of {target} failed: {}",
                    crate::kubeconfig::redact_text(&error_chain_text(&e))
                ),
            ));
        }
        if target.resource.kind == "Secret" {
            secret_ref = Some(target.clone());
        }
        applied.push(target.to_string());
    }
    let Some(secret_ref) = secret_ref else {
        return Err((
            applied,
            "no token Secret in the manifests (ManifestOptions::with_token_secret)".to_string(),
        ));
    };
    let deadline = Instant::now() + wait;
    loop {
        match api.get_object(&secret_ref).await {
            Ok(Some(secret)) => {
                if let Ok((token, ca)) = token_from_secret(&secret) {
                    return Ok((applied, token, ca));
                }
            }
            Ok(None) => {}
            Err(e) => {
                return Err((
                    applied,
                    format!(
                        "reading {secret_ref} failed: {}",
                        crate::kubeconfig::redact_text(&error_chain_text(&e))
                    ),
                ));
            }
        }
        if Instant::now() >= deadline {
            return Err((
                applied,
                format!(
                    "the token controller wrote no token into {secret_ref} within {wait:?} (is kube-controller-manager running with the tokens controller?)"
                ),
            ));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The selection with the minted token instead of the imported credentials (same server, CA
/// and TLS name): what a kubeconfig of the ServiceAccount selects.
fn with_token(selection: &Selection, token: &BearerToken, user_name: String) -> Selection {
    let mut s = selection.clone();
    s.credentials = Credentials {
        token: Some(crate::kubeconfig::Secret::new(token.expose_secret())),
        ..Credentials::default()
    };
    s.user_name = user_name;
    s
}

async fn mint_and_verify(
    client: &kube::Client,
    selection: &Selection,
    options: &ImportOptions,
    report: &ClusterImport,
) -> ServiceAccountCreation {
    let m = &options.manifests;
    let mut creation = ServiceAccountCreation {
        applied: Vec::new(),
        service_account: format!("{}/{}", m.namespace, m.service_account),
        verification: None,
        error: None,
        kubeconfig: None,
    };
    let profiles = match options.effective_profiles() {
        Ok(p) => p,
        Err(e) => {
            creation.error = Some(e.to_string());
            return creation;
        }
    };
    let manifests = match least_privilege(&profiles, options) {
        Ok(m) => m,
        Err(e) => {
            creation.error = Some(error_chain_text(&e));
            return creation;
        }
    };
    let (applied, token, ca) =
        match create_service_account(client, &manifests, options.token_wait).await {
            Ok(x) => x,
            Err((applied, e)) => {
                creation.applied = applied;
                creation.error = Some(e);
                return creation;
            }
        };
    creation.applied = applied;
    let sa_selection = with_token(
        selection,
        &token,
        format!("{}:{}", m.namespace, m.service_account),
    );
    let ca_pem = selection
        .ca_pem
        .as_ref()
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .or(ca);
    creation.kubeconfig = Some(ServiceAccountKubeconfig::new(
        report
            .cluster_name
            .as_deref()
            .unwrap_or(&selection.cluster_name),
        &selection.server,
        ca_pem,
        &m.namespace,
        &m.service_account,
        token,
    ));
    let mut verification = report.clone();
    verification.connection = None;
    verification.server_certificate = None;
    verification.rbac.clear();
    verification.manifests = None;
    verification.service_account = None;
    verification.kubeconfig = format!(
        "minted token of serviceaccount {}",
        creation.service_account
    );
    let sa_options = ImportOptions {
        create_service_account: false,
        ..options.clone()
    };
    match crate::client::build_client_async(&sa_selection, &options.client).await {
        Ok(sa_client) => {
            let sa_client = crate::http::BoundedClient::new(sa_client, options.net);
            if let Err(e) =
                verify_api(&sa_client, &sa_selection, &sa_options, &mut verification).await
            {
                creation.error = Some(e.to_string());
            }
        }
        Err(e) => creation.error = Some(error_chain_text(&e)),
    }
    creation.verification = Some(Box::new(verification));
    creation
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster:\n    server: https://192.0.2.40:6443\n    insecure-skip-tls-verify: true\n- name: r\n  cluster:\n    server: https://rancher.example.com/k8s/clusters/c-aaaaa?token=abcdefghijklmnopqrstuvwxyz012345\nusers:\n- name: u\n  user:\n    token: abcdef.0123456789abcdef\ncontexts:\n- name: a\n  context: {cluster: k, user: u}\n- name: b\n  context: {cluster: missng, user: u}\n- name: c\n  context: {cluster: r, user: u}\n";

    #[test]
    fn offline_report_keeps_each_problem_in_its_class() {
        let cfg = Kubeconfig::from_yaml(YAML, None).expect("kubeconfig");
        let r = import_offline(&cfg, "k.yaml", &ImportOptions::new()).expect("import");
        // Insecure is a warning: the selected context still validates.
        assert!(r.importable);
        assert_eq!(r.server.as_deref(), Some("https://192.0.2.40:6443"));
        let m = r.to_import_report();
        assert_eq!(
            m.connection.class,
            cube_model::import::ConnectionClass::NotChecked
        );
        let kinds: Vec<(&str, &str)> = m
            .kubeconfig_problems
            .iter()
            .map(|p| (p.context.as_str(), p.kind.as_str()))
            .collect();
        assert!(
            kinds.contains(&("a", "insecure-skip-tls-verify")),
            "{kinds:?}"
        );
        assert!(kinds.contains(&("b", "dangling-cluster")), "{kinds:?}");
        assert!(kinds.contains(&("c", "rancher-proxy")), "{kinds:?}");
        let json = serde_json::to_string(&r).expect("json");
        assert!(!json.contains("0123456789abcdef"), "{json}");
        assert!(!json.contains("abcdefghijklmnopqrstuvwxyz012345"), "{json}");
        assert!(
            json.contains("rancher.example.com/k8s/clusters/c-aaaaa"),
            "{json}"
        );
    }

    #[test]
    fn asked_profiles_come_after_the_minimal_set_once() {
        let mut o = ImportOptions::new();
        o.profiles = vec![
            Profile::builtin("view-nodes").expect("p"),
            Profile::builtin(DEFAULT_PROFILE).expect("p"),
        ];
        let names: Vec<String> = o
            .effective_profiles()
            .expect("profiles")
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, ["cube-minimal", "view-nodes"]);
        let m = least_privilege(&o.effective_profiles().expect("p"), &o).expect("manifests");
        let role = m.cluster_role.expect("cluster role");
        assert_eq!(
            role.metadata.name.as_deref(),
            Some("cube-console-view-nodes")
        );
        assert!(m.token_secret.is_some());
        assert_eq!(m.namespace.metadata.name.as_deref(), Some("cube-system"));
    }
}
