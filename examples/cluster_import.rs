//! Import a cluster from a kubeconfig, verified right by default: a thin wrapper over
//! `cube_cluster::import` (offline checks with certificates parsed, connection and
//! authentication, RBAC by SelfSubjectAccessReview with the minimal set `cube-minimal` always
//! checked plus any `--profile`, least-privilege manifests), then optionally the ServiceAccount
//! created and verified with its own token, and the registry entry written.
//!
//! ```text
//! cargo run -p cube-examples --example cluster_import -- --kubeconfig ~/.kube/config --offline
//! cargo run -p cube-examples --example cluster_import -- --kubeconfig admin.conf \
//!     --server https://127.0.0.1:6443 --profile console-readonly --output json
//! cargo run -p cube-examples --example cluster_import -- --kubeconfig admin.conf \
//!     --create-service-account --service-account-kubeconfig cube-console.kubeconfig \
//!     --registry clusters.yaml --name bj-prod --label env=prod --taint dedicated=gpu:NoSchedule
//! ```
//!
//! Exit codes: 0 importable, 1 not importable (validation errors, connection failure, missing
//! permissions, a ServiceAccount that could not be created or does not verify), 2 bad input
//! (unreadable or unparseable file, an empty file, a file that is not a kubeconfig, an invalid
//! `--server`, unknown context or profile, bad arguments, a broken registry file). Problems of
//! the file as a whole are listed once (`PROBLEMS (kubeconfig file)`, JSON `fileProblems`), the
//! others under their context. No token, password or client key/certificate data is ever
//! printed; the minted ServiceAccount's token is written only to
//! `--service-account-kubeconfig` (mode 0600). Exec and auth-provider plugins are never run
//! unless `--allow-exec` is given, and the files a kubeconfig names (`certificate-authority`,
//! `client-certificate`, `client-key`, `tokenFile`) are read only inside the kubeconfig's own
//! directory unless `--allow-file-refs` is given: client-go sends a `tokenFile`'s content to the
//! kubeconfig's server as a bearer token, so an uploaded kubeconfig must not name `/etc/shadow`
//! or the console's own ServiceAccount token. `--inline` stores only the selected context, its
//! cluster and its user, with their files embedded (`kubectl config view --minify --flatten`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, ValueEnum};
use cube_cluster::client::ClientOptions;
use cube_cluster::connect::Outcome;
use cube_cluster::import::{ClusterImport, ImportError, ImportOptions};
use cube_cluster::kubeconfig::{Kubeconfig, Problem, Severity};
use cube_cluster::manifests::ManifestOptions;
use cube_cluster::profiles::Profile;
use cube_cluster::registry::{ApplyAction, ClusterUpdate, LabelChange, RegistryFile, TaintChange};
use cube_model::cluster::KubeconfigRef;
use serde::Serialize;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Output {
    Table,
    Json,
}

/// Import a cluster from a kubeconfig.
#[derive(Debug, Parser)]
#[command(name = "cluster_import")]
struct Args {
    /// The kubeconfig file (only this file is read, like kubectl --kubeconfig).
    #[arg(long)]
    kubeconfig: PathBuf,
    /// Context to use (default: current-context).
    #[arg(long)]
    context: Option<String>,
    /// Address the console reaches the API server at; TLS keeps verifying the original name.
    #[arg(long)]
    server: Option<String>,
    /// Capability profile to verify (view-nodes, console-readonly, resource-group-admin,
    /// workload-submit).
    #[arg(long)]
    profile: Option<String>,
    /// Namespaces for namespaced profiles (repeatable).
    #[arg(long = "namespace")]
    namespaces: Vec<String>,
    /// Validate the file only; open no connection.
    #[arg(long)]
    offline: bool,
    /// `--allow-exec` and `--allow-file-refs`, as in every program that reads kubeconfigs.
    #[command(flatten)]
    trust: cube_examples::KubeconfigTrust,
    /// Per-request timeout in seconds (1 to 31536000; default 30, the `request-timeout-secs`
    /// limit): each request, connect to last byte, ends within it, so a server that accepts and
    /// never answers costs this once. The same timeout as `--request-timeout-secs`: give one of
    /// them (both together are refused).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    timeout_secs: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Output::Table)]
    output: Output,
    /// Cluster registry file to add or update the cluster in after it verified
    /// (docs/cluster-registry.md); written atomically, a broken file is never overwritten.
    #[arg(long, requires = "name")]
    registry: Option<PathBuf>,
    /// Name of the cluster in the registry.
    #[arg(long, requires = "registry")]
    name: Option<String>,
    /// Label to set (`key=value`) or remove (`key-`), repeatable.
    #[arg(long = "label", requires = "registry")]
    labels: Vec<String>,
    /// Taint to set (`key=value:Effect`) or remove (`key:Effect-`), repeatable.
    #[arg(long = "taint", requires = "registry")]
    taints: Vec<String>,
    /// Make this the default cluster (the flag moves from any other).
    #[arg(long = "default", requires = "registry")]
    make_default: bool,
    /// Store the kubeconfig itself in the registry instead of its path: only the selected
    /// context, its cluster and its user, with the files they name embedded (`kubectl config view
    /// --minify --flatten`); with `--service-account-kubeconfig`, the minted kubeconfig.
    #[arg(long, requires = "registry")]
    inline: bool,
    /// Create the least-privilege objects (Namespace, ServiceAccount, ClusterRole, binding,
    /// token Secret) with server-side apply, then import again with the minted token.
    #[arg(long, conflicts_with = "offline")]
    create_service_account: bool,
    /// ServiceAccount name of the least-privilege manifests.
    #[arg(long, default_value = "cube-console")]
    service_account: String,
    /// Namespace of that ServiceAccount (created by the manifests).
    #[arg(long, default_value = "cube-system")]
    service_account_namespace: String,
    /// Write the minted ServiceAccount's kubeconfig (it holds the token) to this file, mode
    /// 0600; the registry entry then refers to it instead of `--kubeconfig`.
    #[arg(long, requires = "create_service_account")]
    service_account_kubeconfig: Option<PathBuf>,
    /// Seconds to wait for the token controller to fill the token Secret.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    token_wait_secs: u64,
    /// Limits on input size and work, as in the other programs (`file-bytes` and
    /// `yaml-alias-expansions` bound the kubeconfig read; `http-body-bytes` every answer;
    /// `request-timeout-secs` is `--timeout-secs` under its common name; `collection-deadline-secs`,
    /// when given, bounds the whole import).
    #[command(flatten)]
    limits: cube_examples::LimitArgs,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    /// What `cube_cluster::import` found.
    #[serde(flatten)]
    import: ClusterImport,
    /// Where the minted ServiceAccount's kubeconfig was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    service_account_kubeconfig: Option<String>,
    /// What was done to the registry file.
    registry: Option<RegistryResult>,
}

impl Report {
    /// Importable, and the ServiceAccount (when asked for) was created and verifies.
    fn importable(&self) -> bool {
        self.import.importable
            && self.import.service_account.as_ref().is_none_or(|s| {
                s.error.is_none() && s.verification.as_ref().is_some_and(|v| v.importable)
            })
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct RegistryResult {
    file: String,
    name: String,
    /// `added`, `updated`, `unchanged`, or `not-written` (the cluster did not verify).
    action: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_default: Option<String>,
}

enum Failure {
    BadInput(anyhow::Error),
    Other(anyhow::Error),
}

fn main() -> ExitCode {
    cube_examples::init_tracing();
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            cube_examples::eprint_line(&format!("error: {e}"));
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(&args)) {
        Ok(report) => {
            let written = match render(&report, args.output) {
                // a closed pipe ends quietly; names and messages from the file or the server
                // are shown with control and bidirectional characters escaped
                Ok(s) => cube_examples::write_stdout(&match args.output {
                    // secrets redacted (the one redactor), control characters escaped
                    Output::Table => cube_examples::safe_text(&s),
                    Output::Json => s,
                }),
                Err(e) => Err(std::io::Error::other(e)),
            };
            if let Err(e) = written {
                // not "not importable" (1): no answer was written, as in every other program
                cube_examples::eprint_line(&format!("error: cannot write the output: {e}"));
                return ExitCode::from(cube_examples::exit::OUTPUT_FAILED);
            }
            if let Some(why) = unusable(&report) {
                // the same answer as every other program for a kubeconfig that cannot be
                // used as given (no current-context, a refused file reference): bad input
                cube_examples::eprint_line(&format!("error: {why}"));
                ExitCode::from(cube_examples::exit::BAD_INPUT)
            } else if report.importable() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(Failure::BadInput(e)) => {
            cube_examples::eprint_line(&format!("error: {e:#}"));
            ExitCode::from(2)
        }
        Err(Failure::Other(e)) => {
            cube_examples::eprint_line(&format!("error: {e:#}"));
            ExitCode::from(1)
        }
    }
}

/// Why the imported kubeconfig is bad input (exit 2, [`cube_examples::unusable_kubeconfig`]).
fn unusable(report: &Report) -> Option<String> {
    let problems: Vec<_> = report
        .import
        .file_problems
        .iter()
        .chain(&report.import.problems)
        .cloned()
        .collect();
    cube_examples::unusable_kubeconfig(&report.import.kubeconfig, &problems)
}

/// The registry update the flags ask for (checked before any connection). `kubeconfig` is the
/// file the entry refers to.
fn registry_update(
    args: &Args,
    kubeconfig: &std::path::Path,
) -> Result<Option<ClusterUpdate>, Failure> {
    if args.registry.is_none() {
        return Ok(None);
    }
    let bad = |e: String| Failure::BadInput(anyhow::anyhow!(e));
    let labels = args
        .labels
        .iter()
        .map(|l| l.parse::<LabelChange>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(bad)?;
    let taints = args
        .taints
        .iter()
        .map(|t| t.parse::<TaintChange>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(bad)?;
    let reference = if args.inline {
        // replaced by the minified kubeconfig once it is read and imported (`inline_reference`)
        KubeconfigRef::inline(String::new())
    } else {
        let p = std::path::absolute(kubeconfig).unwrap_or_else(|_| kubeconfig.to_path_buf());
        KubeconfigRef::file(p.display().to_string())
    };
    // The minted kubeconfig has one context, its current one.
    let reference = match (&args.context, &args.service_account_kubeconfig) {
        (Some(c), None) => reference.with_context(c),
        _ => reference,
    };
    Ok(Some(ClusterUpdate {
        labels,
        taints,
        default: args.make_default.then_some(true),
        kubeconfig: Some(reference),
        api_server: args.server.clone(),
        profile: args.profile.clone().map(Some),
    }))
}

/// The registry's inline copy of `cfg`: the selected context (`context`, else the current
/// one), its cluster and its user only, every file they name embedded, as `kubectl config view
/// --minify --flatten` writes it; the other contexts' credentials never reach the registry.
fn inline_reference(
    cfg: &Kubeconfig,
    context: Option<&str>,
    limits: &cube_model::Limits,
) -> Result<KubeconfigRef, Failure> {
    let name = context
        .map(str::to_owned)
        .or_else(|| cfg.current_context.clone().filter(|c| !c.is_empty()))
        .ok_or_else(|| Failure::BadInput(anyhow::anyhow!("--inline: no context selected")))?;
    let minified = cfg.minify(&name).ok_or_else(|| {
        Failure::BadInput(anyhow::anyhow!("--inline: context {name:?} does not exist"))
    })?;
    let yaml = minified
        .inline_with(limits)
        .and_then(|k| k.to_yaml())
        .map_err(|e| Failure::Other(e.into()))?;
    Ok(KubeconfigRef::inline(yaml))
}

/// The import options the flags ask for.
fn import_options(args: &Args) -> Result<ImportOptions, Failure> {
    let mut opts = ImportOptions::new();
    opts.context = args.context.clone();
    opts.server = args.server.clone();
    opts.plugins = args.trust.plugins();
    opts.file_references = args.trust.file_references();
    if let Some(p) = &args.profile {
        opts.profiles
            .push(Profile::builtin(p).map_err(|e| Failure::BadInput(e.into()))?);
    }
    opts.namespaces = args.namespaces.clone();
    opts.offline = args.offline;
    if args.timeout_secs.is_some() && args.limits.request_timeout_given() {
        return Err(Failure::BadInput(anyhow::anyhow!(
            "--timeout-secs and --request-timeout-secs set the same per-request timeout: give one of them"
        )));
    }
    opts.manifests = ManifestOptions::new(&args.service_account, &args.service_account_namespace)
        .with_token_secret();
    opts.create_service_account = args.create_service_account;
    opts.token_wait = Duration::from_secs(args.token_wait_secs);
    let limits = args
        .limits
        .limits()
        .map_err(|e| Failure::BadInput(anyhow::Error::msg(e)))?;
    let defaults = cube_model::Limits::default();
    // K9: one per-request timeout, the documented `request-timeout-secs` (30 s by default, as
    // `--limit request-timeout-secs` and the README say; it was 10 s here), bounds each whole
    // request: connect, TLS, headers and body together. The bounded client's timeout was
    // connect + read (twice the timeout), so a server that accepts and never answers cost twice
    // what was asked.
    let request_timeout = args
        .timeout_secs
        .map_or(limits.request_timeout, Duration::from_secs)
        .max(Duration::from_secs(1));
    opts.client = ClientOptions::with_timeout(request_timeout);
    if limits.collection_deadline != defaults.collection_deadline {
        opts.deadline = Some(limits.collection_deadline);
    }
    opts.net = cube_cluster::limits::NetLimits::from_limits(&limits);
    opts.max_referenced_file_bytes = Some(limits.max_referenced_file_bytes);
    opts.net.request_timeout = request_timeout;
    opts.net.deadline = opts.deadline;
    Ok(opts)
}

async fn run(args: &Args) -> Result<Report, Failure> {
    let registry_target = args
        .service_account_kubeconfig
        .clone()
        .unwrap_or_else(|| args.kubeconfig.clone());
    let update = registry_update(args, &args.kubeconfig)?;
    // A broken or invalid registry is reported before anything else, and never overwritten.
    let limits = args
        .limits
        .limits()
        .map_err(|e| Failure::BadInput(anyhow::Error::msg(e)))?;
    let registry_file = match &args.registry {
        Some(p) => {
            Some(RegistryFile::open_with(p, &limits).map_err(|e| Failure::BadInput(e.into()))?)
        }
        None => None,
    };
    let options = import_options(args)?;
    // Errors name the file themselves ("FILE is empty", "FILE is not a kubeconfig: ...").
    // the one bounded reader: FIFOs, devices and oversized files are refused
    let text = cube_examples::read_kubeconfig_text(&args.kubeconfig, &limits)
        .map_err(|e| Failure::BadInput(e.into()))?;
    let cfg = Kubeconfig::from_yaml_strict_with(&text, Some(&args.kubeconfig), &limits)
        .map_err(|e| Failure::BadInput(e.into()))?;
    let import = cube_cluster::import(&cfg, &args.kubeconfig.display().to_string(), &options)
        .await
        .map_err(|e| match e {
            ImportError::Profile(_)
            | ImportError::ContextNotFound(_)
            | ImportError::InvalidServer(_) => Failure::BadInput(e.into()),
            other => Failure::Other(other.into()),
        })?;
    let mut report = Report {
        import,
        service_account_kubeconfig: None,
        registry: None,
    };
    if let (Some(path), Some(kc)) = (
        &args.service_account_kubeconfig,
        report
            .import
            .service_account
            .as_ref()
            .and_then(|s| s.kubeconfig.as_ref()),
    ) {
        let yaml = kc.to_yaml().map_err(|e| Failure::Other(e.into()))?;
        write_private(path, &yaml)
            .map_err(|e| Failure::Other(anyhow::anyhow!("cannot write {}: {e}", path.display())))?;
        report.service_account_kubeconfig = Some(path.display().to_string());
    }
    if let (Some(mut file), Some(mut update), Some(name)) = (registry_file, update, &args.name) {
        let mut result = RegistryResult {
            file: file.path().display().to_string(),
            name: name.clone(),
            action: "not-written".to_string(),
            previous_default: None,
        };
        let minted = report.service_account_kubeconfig.is_some();
        if args.create_service_account && !minted {
            // asked for a ServiceAccount and got none: the entry is not written
        } else if report.importable() {
            if args.inline {
                let minted_kc = report
                    .import
                    .service_account
                    .as_ref()
                    .and_then(|s| s.kubeconfig.as_ref())
                    .filter(|_| minted);
                update.kubeconfig = Some(match minted_kc {
                    // the minted kubeconfig: one context, its token embedded
                    Some(kc) => {
                        KubeconfigRef::inline(kc.to_yaml().map_err(|e| Failure::Other(e.into()))?)
                    }
                    None => inline_reference(&cfg, args.context.as_deref(), &limits)?,
                });
            } else if minted {
                let p = std::path::absolute(&registry_target).unwrap_or(registry_target.clone());
                update.kubeconfig = Some(KubeconfigRef::file(p.display().to_string()));
            }
            let out = file
                .apply(name, &update)
                .map_err(|e| Failure::BadInput(e.into()))?;
            if out.action != ApplyAction::Unchanged {
                file.save().map_err(|e| Failure::Other(e.into()))?;
            }
            result.action = match out.action {
                ApplyAction::Added => "added",
                ApplyAction::Updated => "updated",
                ApplyAction::Unchanged => "unchanged",
                _ => "changed",
            }
            .to_string();
            result.previous_default = out.previous_default;
        }
        report.registry = Some(result);
    }
    Ok(report)
}

/// Writes a credential file readable by its owner only: the text goes to a new file created
/// with mode 0600 (Unix) next to `path` (`create_new`, so nothing existing is opened), which is
/// then renamed over `path`. An existing file's mode is never kept, and a symlink at `path` is
/// replaced itself, never written through (fresh-user report F31: an existing 0644 file kept
/// its mode, and a link's target was overwritten with the token). Errors: the I/O error of the
/// create, write or rename; the temporary file is removed on failure.
fn write_private(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    cube_examples::write_replacing(path, text, true)
}

#[cfg(all(test, unix))]
mod write_private_tests {
    use super::write_private;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn existing_files_and_symlinks_end_as_a_private_file() {
        let dir = std::env::temp_dir().join(format!("cube-wp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        // an existing world-readable file: replaced, mode 0600
        let existing = dir.join("existing.kc");
        std::fs::write(&existing, "old").expect("write");
        std::fs::set_permissions(&existing, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        write_private(&existing, "token: FAKE").expect("write_private");
        let meta = std::fs::symlink_metadata(&existing).expect("meta");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(
            std::fs::read_to_string(&existing).expect("read"),
            "token: FAKE"
        );
        // a symlink: the link is replaced by a private file, its target is untouched
        let victim = dir.join("victim");
        std::fs::write(&victim, "victim").expect("write");
        let link = dir.join("link.kc");
        std::os::unix::fs::symlink(&victim, &link).expect("symlink");
        write_private(&link, "token: FAKE").expect("write_private");
        assert_eq!(std::fs::read_to_string(&victim).expect("read"), "victim");
        let meta = std::fs::symlink_metadata(&link).expect("meta");
        assert!(meta.file_type().is_file());
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        // no temporary file left behind
        let left: Vec<_> = std::fs::read_dir(&dir)
            .expect("read_dir")
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(left.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The output in the chosen format.
fn render(r: &Report, output: Output) -> Result<String, serde_json::Error> {
    match output {
        Output::Json => cube_examples::to_redacted_json(r).map(|s| s + "\n"),
        Output::Table => Ok(render_table(r)),
    }
}

/// The table output (what `--output table` prints).
fn render_table(r: &Report) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    // Writing to a String cannot fail.
    macro_rules! println {
        () => {{
            let _ = writeln!(out);
        }};
        ($($t:tt)*) => {{
            let _ = writeln!(out, $($t)*);
        }};
    }
    let i = &r.import;
    println!("kubeconfig  {}", i.kubeconfig);
    println!("context     {}", i.context.as_deref().unwrap_or("-"));
    println!("server      {}", i.server.as_deref().unwrap_or("-"));
    if let Some(n) = &i.tls_server_name {
        println!("tls name    {n}");
    }
    println!("importable  {}", if r.importable() { "yes" } else { "no" });
    render_import(&mut out, i);
    if let Some(s) = &i.service_account {
        println!("\nSERVICE ACCOUNT {}", s.service_account);
        for a in &s.applied {
            println!("  applied   {a}");
        }
        if let Some(e) = &s.error {
            println!("  error     {e}");
        }
        if let Some(v) = &s.verification {
            println!(
                "  verified with its own token: {}",
                if v.importable {
                    "importable"
                } else {
                    "NOT importable"
                }
            );
            let mut sub = String::new();
            render_import(&mut sub, v);
            for line in sub.lines() {
                println!("  {line}");
            }
        }
        if let Some(p) = &r.service_account_kubeconfig {
            println!("  kubeconfig written to {p} (holds the token)");
        }
    }
    if let Some(g) = &r.registry {
        println!("\nREGISTRY    {} {} ({})", g.file, g.name, g.action);
        if let Some(p) = &g.previous_default {
            println!("  default   moved from {p}");
        }
    }
    out
}

/// Problems, connection, server certificate, RBAC and manifests of one import.
fn render_import(out: &mut String, r: &ClusterImport) {
    use std::fmt::Write as _;
    macro_rules! println {
        ($($t:tt)*) => {{
            let _ = writeln!(out, $($t)*);
        }};
    }
    if !r.file_problems.is_empty() {
        println!("\nPROBLEMS (kubeconfig file)");
        for p in &r.file_problems {
            println!("{}", problem_line(p));
        }
    }
    if !r.problems.is_empty() {
        match &r.context {
            Some(c) => println!("\nPROBLEMS (selected context {c:?})"),
            None => println!("\nPROBLEMS (selected context)"),
        }
        for p in &r.problems {
            println!("{}", problem_line(p));
        }
    }
    for c in &r.other_contexts {
        if c.problems.is_empty() {
            continue;
        }
        println!("\nPROBLEMS (context {:?})", c.context);
        for p in &c.problems {
            println!("{}", problem_line(p));
        }
    }
    if let Some(c) = &r.connection {
        println!("\nCONNECTION  {} ({} ms)", c.outcome.id(), c.elapsed_ms);
        match &c.outcome {
            Outcome::Ok { version, user, .. } => {
                println!("  version   {}", version.git_version);
                println!("  user      {}", user.as_deref().unwrap_or("(unknown)"));
            }
            Outcome::Failed { class, message } => {
                println!("  hint      {}", class.hint());
                println!("  detail    {message}");
            }
            _ => {}
        }
    }
    if let Some(s) = &r.server_certificate {
        println!(
            "  server certificate {} issued by {}, valid for [{}]{}",
            s.certificate.subject,
            s.certificate.issuer,
            s.certificate.sans.join(", "),
            if s.names_host {
                String::new()
            } else {
                format!(": does NOT name {}", s.host)
            }
        );
    }
    for rbac in &r.rbac {
        println!(
            "\nRBAC profile {}: {}",
            rbac.profile,
            if rbac.is_sufficient() {
                "sufficient"
            } else {
                "missing permissions"
            }
        );
        for res in &rbac.results {
            println!(
                "  {:<10} {:<8} {}/{} ns={}",
                match res.outcome {
                    cube_cluster::profiles::Outcome::Allowed => "allowed",
                    cube_cluster::profiles::Outcome::Denied => "denied",
                    cube_cluster::profiles::Outcome::NoOpinion => "not-allowed",
                    cube_cluster::profiles::Outcome::Failed => "failed",
                    _ => "other",
                },
                res.scoped.check.verb,
                res.scoped.check.group,
                res.scoped.check.rule_resource(),
                if res.scoped.namespace.is_empty() {
                    "*"
                } else {
                    &res.scoped.namespace
                }
            );
        }
        for m in &rbac.missing {
            println!("  missing   {m}");
        }
    }
    // The over-privilege checks look at the credentials, not at one profile: shown once.
    let mut warnings: Vec<String> = Vec::new();
    for w in r.rbac.iter().flat_map(|p| &p.warnings) {
        let w = w.to_string();
        if !warnings.contains(&w) {
            warnings.push(w);
        }
    }
    if !warnings.is_empty() {
        println!("\nOVER-PRIVILEGED (more than the checked profiles need)");
        for w in &warnings {
            println!("  warning   {w}");
        }
    }
    // reviews that failed: the over-privilege picture is incomplete, said once
    let mut failed: Vec<&String> = Vec::new();
    for e in r.rbac.iter().flat_map(|p| &p.review_errors) {
        if !failed.contains(&e) {
            failed.push(e);
        }
    }
    if !failed.is_empty() {
        println!("\nNOT CHECKED (the over-privilege warnings above may be incomplete)");
        for e in failed {
            println!("  note      {e}");
        }
    }
    if let Some(m) = &r.manifests {
        println!(
            "\n# Least-privilege manifests (kubectl apply -f, or --create-service-account):\n{m}"
        );
    }
}

fn problem_line(p: &Problem) -> String {
    let sev = match p.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
        _ => "other",
    };
    let mut line = format!("  {sev:<8} {:<26} {}", p.kind.id(), p.message);
    if let Some(s) = &p.suggestion {
        line.push_str(&format!(" ({s})"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "abcdef.0123456789abcdef";
    const KEY_DATA: &str = "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tClRVbEpRMHRGV1ZORlExSkZWQT09Ci0tLS0tRU5EIEVDIFBSSVZBVEUgS0VZLS0tLS0K";
    const CERT_DATA: &str = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tClEweEpSVTVVUTBWU1ZGTkZRMUpGVkE9PQotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg==";
    /// Secrets and the PEM bodies inside the base64 data.
    const SECRETS: [&str; 6] = [
        TOKEN,
        KEY_DATA,
        CERT_DATA,
        "TUlJQ0tFWVNFQ1JFVA",
        "Q0xJRU5UQ0VSVFNFQ1JFVA",
        "hunter2hunter2",
    ];

    /// Writes `yaml` to a fresh file and returns its path.
    fn file(name: &str, yaml: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cluster_import_test_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::write(&path, yaml).expect("write");
        path
    }

    fn args(path: &std::path::Path, extra: &[&str]) -> Args {
        let mut v = vec![
            "cluster_import".to_string(),
            "--kubeconfig".to_string(),
            path.display().to_string(),
            "--offline".to_string(),
        ];
        v.extend(extra.iter().map(|s| s.to_string()));
        Args::try_parse_from(v).expect("args")
    }

    fn run_offline(path: &std::path::Path, extra: &[&str]) -> Result<Report, Failure> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(run(&args(path, extra)))
    }

    /// Every output of one run: table and JSON, or the error text as `main` prints it.
    fn outputs(path: &std::path::Path, extra: &[&str]) -> Vec<String> {
        match run_offline(path, extra) {
            Ok(r) => vec![
                render(&r, Output::Table).expect("table"),
                render(&r, Output::Json).expect("json"),
            ],
            Err(Failure::BadInput(e) | Failure::Other(e)) => {
                vec![format!("{e:#}"), format!("{e:?}")]
            }
        }
    }

    #[track_caller]
    fn assert_no_secret(texts: &[String]) {
        for t in texts {
            for s in SECRETS {
                assert!(!t.contains(s), "secret {s:?} in output:\n{t}");
            }
        }
    }

    fn bad_input(path: &std::path::Path, extra: &[&str]) -> String {
        match run_offline(path, extra) {
            Err(Failure::BadInput(e)) => format!("{e:#}"),
            Err(Failure::Other(e)) => panic!("expected bad input (exit 2), got other: {e:#}"),
            Ok(r) => panic!(
                "expected bad input (exit 2), got a report:\n{}",
                render_table(&r)
            ),
        }
    }

    fn with_secrets(user_extra: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster:\n    server: https://192.0.2.1:6443\n    insecure-skip-tls-verify: true\n- name: bad\n  cluster:\n    server: not-a-url\nusers:\n- name: u\n  user:\n    token: {TOKEN}\n    client-key-data: {KEY_DATA}\n    client-certificate-data: {CERT_DATA}\n{user_extra}- name: v\n  user:\n    username: admin\n    password: hunter2hunter2\n    token: {TOKEN}\ncontexts:\n- name: a\n  context: {{cluster: k, user: u}}\n- name: b\n  context: {{cluster: bad, user: v}}\n- name: c\n  context: {{cluster: missing, user: u}}\n"
        )
    }

    /// A kubeconfig that validates offline: a token, TLS verification off.
    fn clean() -> String {
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: k\n  cluster:\n    server: https://192.0.2.1:6443\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: {TOKEN}\ncontexts:\n- name: a\n  context: {{cluster: k, user: u}}\n"
        )
    }

    #[test]
    fn no_secret_in_table_json_or_errors() {
        // A file with problems in every context, as table and JSON: the placeholder
        // certificate and key are refused offline (not X.509, not a key), named without their
        // data.
        let ok = file("secrets.yaml", &with_secrets(""));
        let texts = outputs(&ok, &[]);
        assert!(texts[0].contains("importable  no"), "{}", texts[0]);
        assert!(texts[0].contains("certificate-invalid"), "{}", texts[0]);
        assert!(texts[0].contains("multiple-auth-methods"), "{}", texts[0]);
        assert_no_secret(&texts);
        for ctx in ["b", "c"] {
            assert_no_secret(&outputs(&ok, &["--context", ctx]));
        }
        // Parse errors next to the secrets: a wrong type, an unclosed flow, a bad indent.
        for (i, extra) in [
            format!("    password: {{x: {TOKEN}}}\n"),
            format!("    insecure: [{TOKEN}\n"),
            format!("      as: {KEY_DATA}\n   bad: {TOKEN}\n"),
            format!("    exec: {TOKEN}\n"),
            format!("    as-groups: {{a: {CERT_DATA}}}\n"),
        ]
        .iter()
        .enumerate()
        {
            let bad = file(&format!("bad{i}.yaml"), &with_secrets(extra));
            let texts = outputs(&bad, &[]);
            assert_no_secret(&texts);
        }
    }

    #[test]
    fn empty_file_is_bad_input() {
        for (i, text) in ["", "\n\n", "# nothing\n", "---\n"].iter().enumerate() {
            let p = file(&format!("empty{i}.yaml"), text);
            let e = bad_input(&p, &[]);
            assert!(e.contains(&format!("{} is empty", p.display())), "{e}");
        }
    }

    #[test]
    fn list_of_nodes_is_not_a_kubeconfig() {
        let p = file(
            "nodes.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n",
        );
        let e = bad_input(&p, &[]);
        assert!(
            e.contains(&format!("{} is not a kubeconfig", p.display())),
            "{e}"
        );
        let p = file("pod.yaml", "metadata:\n  name: x\nspec: {}\n");
        let e = bad_input(&p, &[]);
        assert!(e.contains("is not a kubeconfig"), "{e}");
    }

    #[test]
    fn invalid_server_override_is_bad_input() {
        let p = file("override.yaml", &clean());
        for bad in [
            "not-a-url",
            "ftp://192.0.2.1",
            "https://",
            "https://a b",
            "https://h:99999",
        ] {
            let e = bad_input(&p, &["--server", bad]);
            assert!(e.contains("invalid server URL"), "{bad}: {e}");
        }
        for good in [
            "https://127.0.0.1:6443",
            "127.0.0.1:6443",
            "api.example.com",
            "localhost:6443",
        ] {
            let r =
                run_offline(&p, &["--server", good]).unwrap_or_else(|_| panic!("{good} refused"));
            assert!(r.importable(), "{good}");
        }
    }

    #[test]
    fn invalid_server_in_file_is_a_problem() {
        let p = file("fileserver.yaml", &with_secrets(""));
        let r = run_offline(&p, &["--context", "b"]).unwrap_or_else(|_| panic!("run"));
        assert!(!r.importable());
        assert!(
            r.import
                .problems
                .iter()
                .any(|p| p.kind.id() == "bad-server-url"),
            "{:?}",
            r.import.problems
        );
    }

    #[test]
    fn file_level_problems_are_printed_once() {
        // No contexts at all: only the file-level block, no "(context )" block.
        let p = file(
            "nocontexts.yaml",
            "apiVersion: v1\nkind: Config\nclusters:\n- name: k\n  cluster: {server: 'https://192.0.2.1:6443'}\n",
        );
        let r = run_offline(&p, &[]).unwrap_or_else(|_| panic!("run"));
        let t = render_table(&r);
        assert_eq!(t.matches("PROBLEMS").count(), 1, "{t}");
        assert_eq!(t.matches("no-current-context").count(), 1, "{t}");
        assert!(t.contains("PROBLEMS (kubeconfig file)"), "{t}");
        assert!(
            !t.contains("(context )") && !t.contains("(context \"\")"),
            "{t}"
        );
        // Contexts but no current-context: file-level block once, each context under its name.
        let p = file(
            "nocurrent.yaml",
            &with_secrets("").replace("current-context: a\n", ""),
        );
        let r = run_offline(&p, &[]).unwrap_or_else(|_| panic!("run"));
        let t = render_table(&r);
        assert_eq!(t.matches("PROBLEMS (kubeconfig file)").count(), 1, "{t}");
        assert_eq!(t.matches("no-current-context").count(), 1, "{t}");
        assert!(t.contains("PROBLEMS (context \"b\")"), "{t}");
        assert!(t.contains("PROBLEMS (context \"c\")"), "{t}");
        assert!(!t.contains("(context \"\")"), "{t}");
        let json = render(&r, Output::Json).expect("json");
        assert!(json.contains("\"fileProblems\""), "{json}");
    }

    #[test]
    fn registry_entry_added_after_verification_and_broken_registry_kept() {
        let kc = file("reg-kc.yaml", &clean());
        let dir = kc.parent().expect("dir").to_path_buf();
        let reg = dir.join("reg.yaml");
        let _ = std::fs::remove_file(&reg);
        let r = run_offline(
            &kc,
            &[
                "--registry",
                &reg.display().to_string(),
                "--name",
                "bj-prod",
                "--label",
                "env=prod",
                "--taint",
                "dedicated=gpu:NoSchedule",
                "--default",
            ],
        )
        .unwrap_or_else(|_| panic!("run"));
        assert_eq!(
            r.registry.as_ref().map(|g| g.action.as_str()),
            Some("added")
        );
        let text = std::fs::read_to_string(&reg).expect("registry written");
        assert!(
            text.contains("env: prod") && text.contains("dedicated"),
            "{text}"
        );
        assert_no_secret(std::slice::from_ref(&text));
        // A broken registry is bad input and stays as it was.
        std::fs::write(&reg, "clusters: [ {name: \n").expect("break");
        let e = bad_input(
            &kc,
            &["--registry", &reg.display().to_string(), "--name", "x"],
        );
        assert!(e.contains("broken"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&reg).expect("read"),
            "clusters: [ {name: \n"
        );
        // A bad label is bad input before anything is read.
        let e = bad_input(
            &kc,
            &[
                "--registry",
                &reg.display().to_string(),
                "--name",
                "x",
                "--label",
                "a b=c",
            ],
        );
        assert!(e.contains("invalid label"), "{e}");
    }
}
