//! The main job: diagnose a cluster, or whatever a user pastes into a bug report.
//!
//! ```sh
//! # the bundled sample GPU cluster (no arguments)
//! cargo run -p cube-examples --example cluster_diagnose
//! # kubectl dumps, describe text, event tables, kubeadm/kubelet/device-plugin logs, kubeconfigs
//! cargo run -p cube-examples --example cluster_diagnose -- --snapshot dump.json join.log
//! # a live cluster (read-only GETs), JSON or SARIF output
//! cargo run -p cube-examples --example cluster_diagnose -- --kubeconfig ~/.kube/config --output sarif
//! ```
//!
//! Exit codes (the same in every example program, see `examples/README.md`): 0 everything read
//! and no error findings, 1 error findings, 2 bad input or usage, 3 the picture is incomplete (a
//! kind could not be read, a limit was hit, an item of the input skipped). Limits: `--limit KEY=VALUE` or `--max-file-bytes`
//! etc. `RUST_LOG=trace` logs to stderr (redacted).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::{Parser, ValueEnum};
use cube_cluster::kubeconfig::Kubeconfig;
use cube_cluster::snapshot::{CollectOptions, collect_snapshot};
use cube_diagnose::render::{SarifOptions, to_junit, to_sarif_with, to_table};
use cube_diagnose::{Config, Context, Engine, GroupSpec, Inputs};
use cube_model::ClusterSnapshot;
use cube_model::import::{ConnectionClass, ImportReport};

/// The bundled sample: a GPU cluster as a real kube-apiserver v1.36 stored it, with planted
/// problems listed in `data/snapshot-gpu-cluster.json.meta.json`.
const SAMPLE: &str = include_str!("data/snapshot-gpu-cluster.json");

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Output {
    /// Human table grouped by severity (colour on a terminal).
    Table,
    /// JSON (schema: cube-diagnose/schema/findings.schema.json).
    Json,
    /// SARIF 2.1.0 (GitHub code scanning: file and line of each finding's object or log line).
    Sarif,
    /// JUnit XML (one test case per rule and subject; errors and warnings fail).
    Junit,
}

/// Diagnose a Kubernetes GPU/CPU cluster or a dump of it.
#[derive(Debug, Parser)]
#[command(name = "cluster_diagnose", version)]
struct Args {
    /// Files to read (format detected from content): kubectl JSON/YAML, describe text, events
    /// tables, kubeadm/kubelet/device-plugin logs, error texts, kubeconfigs. `-` reads stdin.
    #[arg(long, num_args = 1..)]
    snapshot: Vec<PathBuf>,
    /// Read a live cluster through this kubeconfig (read-only list requests).
    #[arg(long)]
    kubeconfig: Option<PathBuf>,
    /// kubeconfig context (default: current-context).
    #[arg(long, requires = "kubeconfig")]
    context: Option<String>,
    /// Resource groups (JSON or YAML list of {name, namespaces, priorityClassName, quota}).
    #[arg(long)]
    groups: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    output: Output,
    /// Engine configuration (JSON or YAML: disabled, severities, thresholds, gpuLabels).
    #[arg(long)]
    config: Option<PathBuf>,
    /// `--allow-exec` and `--allow-file-refs` for the kubeconfig(s), as in every program that
    /// reads kubeconfigs: exec credential plugins (EKS, GKE, OIDC) run only with
    /// `--allow-exec`, and files the kubeconfig names outside its own directory are read only
    /// with `--allow-file-refs`.
    #[command(flatten)]
    trust: cube_examples::KubeconfigTrust,
    /// Limits on input size and work.
    #[command(flatten)]
    limits: cube_examples::LimitArgs,
}

fn main() -> ExitCode {
    cube_examples::init_tracing();
    let args = Args::parse(); // usage errors exit with 2
    match run(args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            cube_examples::eprint_line(&format!("error: {e:#}"));
            ExitCode::from(cube_examples::exit::BAD_INPUT)
        }
    }
}

fn run(args: Args) -> Result<u8> {
    let limits = args.limits.limits().map_err(anyhow::Error::msg)?;
    let mut inputs = Inputs::new();
    inputs.snapshot.set_limits(limits.clone());
    let mut imports = Vec::new();
    if let Some(kc) = &args.kubeconfig {
        let (report, live) = collect_live(kc, args.context.as_deref(), &args.trust, &limits)?;
        if let Some(mut live) = live {
            live.set_limits(limits.clone());
            inputs.snapshot = live;
        }
        imports.push(report);
    }
    if args.snapshot.is_empty() && args.kubeconfig.is_none() {
        // never eprintln!: a closed stderr must not panic
        cube_examples::eprint_line(
            "no input given: diagnosing the bundled sample (examples/data/snapshot-gpu-cluster.json)",
        );
        // labelled with its path in the repository, so SARIF locations resolve from the root
        inputs.add("examples/data/snapshot-gpu-cluster.json", SAMPLE);
    }
    read_inputs(
        &args.snapshot,
        &mut std::io::stdin().lock(),
        true,
        &mut inputs,
        &mut imports,
        &args.trust,
        &limits,
    );
    let input_problems = inputs.input_problems();
    for p in &input_problems {
        cube_examples::eprint_line(&format!(
            "{}: {p}",
            if p.fatal { "error" } else { "warning" }
        ));
    }
    let config_text = match &args.config {
        Some(p) => Some((
            p.display().to_string(),
            cube_examples::read_input_text(p, &limits)?,
        )),
        None => None,
    };
    let engine = load_engine(config_text.as_ref().map(|(n, t)| (n.as_str(), t.as_str())))?;
    let config = engine.config().clone();
    let groups: Vec<GroupSpec> = match &args.groups {
        Some(p) => read_groups(p, &limits)?,
        None => Vec::new(),
    };
    let mut ctx = Context::new(&inputs.snapshot)
        .with_logs(inputs.logs.clone())
        .with_groups(groups)
        .with_thresholds(config.thresholds.clone());
    for r in imports {
        ctx = ctx.with_import(r);
    }
    let report = engine
        .run(&ctx)
        .with_input_problems(input_problems)
        .with_locations(&inputs.locations);
    let out = match args.output {
        Output::Table => Some(to_table(&report, std::io::stdout().is_terminal())),
        // streamed, not held whole next to the snapshot (issue 9's peak memory)
        Output::Json => {
            cube_examples::print_stdout_streamed(|w| {
                cube_diagnose::render::write_json(&report, w).map_err(|e| {
                    let kind = match &e {
                        cube_diagnose::DiagnoseError::Render(j) => j.io_error_kind(),
                        _ => None,
                    };
                    std::io::Error::new(kind.unwrap_or(std::io::ErrorKind::Other), e)
                })
            })?;
            None
        }
        Output::Sarif => {
            let cwd = std::env::current_dir().ok();
            let opts = cwd
                .as_deref()
                .map(SarifOptions::with_base_dir)
                .unwrap_or_default();
            Some(to_sarif_with(&report, &opts)?)
        }
        Output::Junit => Some(to_junit(&report)),
    };
    if let Some(out) = out {
        cube_examples::print_stdout(&out)?;
    }
    let code = u8::try_from(report.exit_code()).unwrap_or(1);
    // the process exits next: the system frees these at once (see `leave_at_exit`)
    cube_examples::leave_at_exit(report);
    cube_examples::leave_at_exit(ctx);
    cube_examples::leave_at_exit(inputs);
    Ok(code)
}

/// Reads every `--snapshot` path (`-` is stdin, read once) into `inputs` (kubeconfigs into
/// `imports`), each through the bounded reader (at most `limits.max_file_bytes`; FIFOs, devices
/// and directories refused). A path that cannot be read is an input problem; the other paths
/// are still read.
fn read_inputs(
    paths: &[PathBuf],
    stdin: &mut dyn std::io::Read,
    real_stdin: bool,
    inputs: &mut Inputs,
    imports: &mut Vec<ImportReport>,
    trust: &cube_examples::KubeconfigTrust,
    limits: &cube_model::Limits,
) {
    let mut stdin_read = false;
    for path in paths {
        let is_stdin = path.as_os_str() == "-";
        let name = if is_stdin {
            "-".to_owned()
        } else {
            cube_diagnose::input::normalize_path(&path.display().to_string())
        };
        // A large file (over what the secret scan and the kubeconfig check read) that is a JSON
        // List is read in pieces, never whole (issue 12); anything else is read whole below.
        if !is_stdin
            && let Ok((file, len)) = cube_model::io::open_file(path, limits)
            && len > cube_examples::LEARN_SECRETS_MAX_BYTES as u64
        {
            let mut reader = std::io::Read::take(file, limits.max_file_bytes.saturating_add(1));
            match inputs.add_json_reader(&name, &mut reader, len) {
                Ok(Some(format)) => {
                    cube_examples::eprint_line(&format!("read {name}: {format:?}"));
                    continue;
                }
                Ok(None) => {}
                Err(e) => {
                    inputs.add_unreadable(&name, e.to_string());
                    continue;
                }
            }
        }
        let read = if is_stdin {
            if stdin_read {
                cube_examples::eprint_line("warning: - given twice: stdin is read once");
                continue;
            }
            stdin_read = true;
            // H22: standard input is read like a file of its size, never held whole past
            // STDIN_IN_MEMORY_BYTES (a 4 GB pipe was buffered to the limit before it was refused)
            match open_stdin(stdin, real_stdin, limits, STDIN_IN_MEMORY_BYTES) {
                Err(e) => Err(e),
                Ok(StdinInput::Bytes(bytes)) => Ok(bytes),
                Ok(StdinInput::File(file, len)) => {
                    match read_opened(inputs, &name, file, len, limits) {
                        None => continue,
                        Some(read) => read,
                    }
                }
            }
        } else {
            cube_model::io::read_file(path, limits)
        };
        let bytes = match read {
            Ok(b) => b,
            Err(e) => {
                // reported with the other input problems; the other inputs are still diagnosed
                inputs.add_unreadable(&name, e.reason());
                continue;
            }
        };
        // its secrets are hidden wherever they show up again in an output
        cube_examples::learn_secrets(&bytes);
        let text = String::from_utf8_lossy(&bytes);
        let origin = (!is_stdin).then_some(path.as_path());
        if text.len() as u64 > limits.max_kubeconfig_bytes
            && cube_examples::looks_like_kubeconfig_head(&text)
        {
            // a kubeconfig too large to be one (100 MB of certificate-authority-data): bad
            // input with the limit named, as in cluster_import; never read as a snapshot
            let hit = limits.exceeded(
                cube_model::Limit::KubeconfigBytes,
                name.clone(),
                Some(text.len() as u64),
            );
            inputs.add_unreadable(&name, format!("a kubeconfig: cannot read {hit}"));
            continue;
        }
        if let Some(parsed) = read_kubeconfig(&text, origin, limits) {
            let parsed = parsed.with_context(|| format!("{name} is not a readable kubeconfig"));
            match parsed.and_then(|cfg| kubeconfig_report(&name, &cfg, None, trust, limits)) {
                Ok(r) => {
                    inputs
                        .locations
                        .record_in_text("Cluster", "", &r.cluster_name, &name, &text);
                    imports.push(r)
                }
                Err(e) => inputs.add_unreadable(&name, format!("{e:#}")),
            }
            continue;
        }
        match inputs.add_bytes(&name, &bytes) {
            Some(format) => cube_examples::eprint_line(&format!("read {name}: {format:?}")),
            None => cube_examples::eprint_line(&format!("read {name}: not usable")),
        }
    }
}

/// Bytes of a piped standard input held in memory; a longer one is spooled to an unlinked
/// temporary file as it is read and then read as a file of that size (H22).
const STDIN_IN_MEMORY_BYTES: usize = cube_examples::LEARN_SECRETS_MAX_BYTES;

/// Standard input, as [`open_stdin`] read it.
enum StdinInput {
    /// The whole input (it fit in memory).
    Bytes(Vec<u8>),
    /// A file to read like `--snapshot FILE` (`< file`, or a pipe spooled), with its length.
    File(std::fs::File, u64),
}

/// Standard input as a text input, bounded while it is read: refused at once when it is a
/// device or a directory; a regular file (`< dump.json`, `real_stdin` only) is checked against
/// `limits.max_file_bytes` by its size before any byte is read and returned as that file; a pipe
/// is read window by window (binary data stops it at once) and kept in memory up to
/// `in_memory` bytes, past that spooled to an unlinked temporary file (mode 0600), never more
/// than the limit plus one byte read.
fn open_stdin(
    stdin: &mut dyn std::io::Read,
    real_stdin: bool,
    limits: &cube_model::Limits,
    in_memory: usize,
) -> Result<StdinInput, cube_model::io::ReadError> {
    use cube_model::io::{ReadError, TextRead};
    if real_stdin {
        if let Some(kind) = cube_model::io::stdin_special_kind() {
            return Err(ReadError::NotRegularFile {
                path: "-".to_owned(),
                file_type: kind,
            });
        }
        if let Some((file, len)) = cube_model::io::stdin_file() {
            if let Some(e) = cube_model::io::check_len("-", len, limits.max_file_bytes) {
                return Err(e);
            }
            return Ok(StdinInput::File(file, len));
        }
    }
    let read = cube_model::io::read_text_spooled(
        stdin,
        "-",
        limits.max_file_bytes,
        in_memory,
        &mut tempfile::tempfile,
    )?;
    Ok(match read {
        TextRead::Whole(bytes) => StdinInput::Bytes(bytes),
        TextRead::Spooled { file, len } => StdinInput::File(file, len),
        _ => {
            return Err(ReadError::Io {
                path: "-".to_owned(),
                source: std::io::Error::other("standard input read in an unknown form"),
            });
        }
    })
}

/// Reads an opened input file of `len` bytes (standard input as a file) as a named file is
/// read: a large JSON List streamed into `inputs` (`None`: done), else the whole file read
/// bounded from where it started.
fn read_opened(
    inputs: &mut Inputs,
    name: &str,
    mut file: std::fs::File,
    len: u64,
    limits: &cube_model::Limits,
) -> Option<Result<Vec<u8>, cube_model::io::ReadError>> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let io = |source| cube_model::io::ReadError::Io {
        path: name.to_owned(),
        source,
    };
    let start = match file.stream_position() {
        Ok(p) => p,
        Err(e) => return Some(Err(io(e))),
    };
    if len > cube_examples::LEARN_SECRETS_MAX_BYTES as u64 {
        let mut reader = (&mut file).take(limits.max_file_bytes.saturating_add(1));
        match inputs.add_json_reader(name, &mut reader, len) {
            Ok(Some(format)) => {
                cube_examples::eprint_line(&format!("read {name}: {format:?}"));
                return None;
            }
            Ok(None) => {}
            Err(e) => {
                inputs.add_unreadable(name, e.to_string());
                return None;
            }
        }
        if let Err(e) = file.seek(SeekFrom::Start(start)) {
            return Some(Err(io(e)));
        }
    }
    Some(cube_model::io::read_to_limit(
        file,
        name,
        limits.max_file_bytes,
    ))
}

/// Reads a configuration and checks it against the engine's rule ids: unknown keys and unknown
/// rule ids are errors naming them.
fn load_engine(config: Option<(&str, &str)>) -> Result<Engine> {
    let Some((name, text)) = config else {
        return Ok(Engine::new());
    };
    let config = Config::from_yaml(text).with_context(|| format!("invalid config {name}"))?;
    Engine::new()
        .try_with_config(config)
        .with_context(|| format!("invalid config {name}"))
}

/// Resource groups: cube-model `ResourceGroup` documents (YAML/JSON, one or several separated by
/// `---`), or a list of plain `GroupSpec`s.
fn read_groups(path: &std::path::Path, limits: &cube_model::Limits) -> Result<Vec<GroupSpec>> {
    let text = cube_examples::read_input_text(path, limits)?;
    let docs: Vec<&str> = text
        .split("\n---")
        .filter(|d| !d.trim().is_empty())
        .collect();
    // an empty groups file is bad input (exit 2), as in group_plan
    let blank = |d: &&str| {
        d.lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#') || l.trim() == "---")
    };
    if docs.iter().all(blank) {
        anyhow::bail!("{}: the groups file holds no group", path.display());
    }
    let model: Result<Vec<_>, _> = docs
        .iter()
        .map(|d| cube_model::group::ResourceGroup::from_yaml(d))
        .collect();
    let model_error = match model {
        Ok(groups) => {
            // the same validation as group_plan (names, shares, buckets): an invalid groups
            // file is bad input (exit 2), never diagnosed as if it were valid (fresh-user G28:
            // a file group_plan refuses hid real findings without a word)
            let problems: Vec<String> = groups
                .iter()
                .filter_map(|g| cube_quota::plan::plan_group_all(g, None).err())
                .flatten()
                .map(|e| cube_model::terminal::escape_line(&e.to_string()).into_owned())
                .collect();
            if !problems.is_empty() {
                anyhow::bail!(
                    "invalid groups file {}: {}",
                    path.display(),
                    problems.join("; ")
                );
            }
            return Ok(groups.iter().map(GroupSpec::from).collect());
        }
        Err(e) => e,
    };
    // neither form: both reasons (a resource group with a misspelt key is refused as one,
    // naming the key, rather than only as the plain form it is not)
    cube_model::yaml::from_str(&text, limits, serde_saphyr::Options::default()).map_err(|e| {
        anyhow::anyhow!(
            "invalid groups file {}: as resource groups: {}; as group specs: {}",
            path.display(),
            cube_model::redact::redact_string(model_error.to_string().lines().next().unwrap_or("")),
            cube_model::redact::redact_string(e.to_string().lines().next().unwrap_or(""))
        )
    })
}

/// Removes `./` path segments that come from joining a kubeconfig's relative file paths
/// (`kubeconfigs/./stage/admin.pem` becomes `kubeconfigs/stage/admin.pem`).
fn tidy_paths(text: &str) -> String {
    let mut out = text.to_owned();
    while out.contains("/./") {
        out = out.replace("/./", "/");
    }
    out
}

/// The input as a kubeconfig when it is one ([`is_kubeconfig`]'s rules), parsed once: `None`
/// when it is no kubeconfig (read as a snapshot), `Some(Err)` for a kubeconfig that does not
/// load. Only a text that fails the typed parse is parsed a second time, for its shape (to tell
/// a broken kubeconfig from another document).
fn read_kubeconfig(
    text: &str,
    origin: Option<&std::path::Path>,
    limits: &cube_model::Limits,
) -> Option<Result<Kubeconfig>> {
    if !may_be_kubeconfig(text, limits) {
        return None;
    }
    match Kubeconfig::from_yaml_with(text, origin, limits) {
        Ok(cfg) => has_kubeconfig_shape(&cfg).then_some(Ok(cfg)),
        Err(e) => is_kubeconfig(text, limits).then(|| Err(e.into())),
    }
}

/// [`is_kubeconfig`]'s shape rule on a parsed document: `kind: Config`, or no kind and any of
/// `contexts`, `users`, `current-context`, or `clusters` entries that all have a `cluster`.
fn has_kubeconfig_shape(cfg: &Kubeconfig) -> bool {
    match cfg.kind.as_deref() {
        Some(k) => k == "Config",
        None => {
            !cfg.contexts.is_empty()
                || !cfg.users.is_empty()
                || cfg.current_context.is_some()
                || (!cfg.clusters.is_empty()
                    && cfg
                        .clusters
                        .iter()
                        .all(|c| c.cluster != cube_cluster::kubeconfig::Cluster::default()))
        }
    }
}

/// The cheap checks before any parse: at most `limits.max_kubeconfig_bytes` (16 MiB by
/// default: no kubeconfig is that large; a larger text that looks like one is refused before,
/// a dump is read as a snapshot) and one of the kubeconfig keys named somewhere.
fn may_be_kubeconfig(text: &str, limits: &cube_model::Limits) -> bool {
    text.len() as u64 <= limits.max_kubeconfig_bytes
        && ["clusters", "contexts", "users", "current-context"]
            .iter()
            .any(|k| text.contains(k))
}

/// True when an input is a kubeconfig, by content, in every form client-go loads
/// (`clientcmd.Load` reads YAML or JSON through sigs.k8s.io/yaml): `kind: Config` however it is
/// written (quoted, flow style, a trailing comment, JSON on one line or indented), or no `kind`
/// at all with kubeconfig keys (`contexts`, `users`, `current-context`, or `clusters` entries
/// holding a `cluster`). A `ClusterRegistry` (its `clusters` entries hold no `cluster`) and
/// Kubernetes objects are not kubeconfigs. Texts over 16 MiB are not parsed for this (no
/// kubeconfig is that large; a dump is read as a snapshot).
fn is_kubeconfig(text: &str, limits: &cube_model::Limits) -> bool {
    #[derive(serde::Deserialize)]
    struct Shape {
        kind: Option<serde_json::Value>,
        clusters: Option<serde_json::Value>,
        contexts: Option<serde::de::IgnoredAny>,
        users: Option<serde::de::IgnoredAny>,
        #[serde(rename = "current-context")]
        current_context: Option<serde::de::IgnoredAny>,
    }
    if !may_be_kubeconfig(text, limits) {
        return false;
    }
    let body = text.trim_start_matches('\u{feff}');
    // JSON as written, else YAML (flow-style `{kind: Config}` too); one document, a leading
    // `---` allowed
    let json = body
        .trim_start()
        .starts_with('{')
        .then(|| serde_json::from_str::<Shape>(body).ok())
        .flatten();
    let shape = json.or_else(|| {
        let options = serde_saphyr::options! { with_snippet: false };
        cube_model::yaml::from_str::<Option<Shape>>(body, limits, options)
            .ok()
            .flatten()
    });
    let Some(s) = shape else {
        return false;
    };
    match &s.kind {
        Some(serde_json::Value::String(k)) => k == "Config",
        Some(_) => false,
        None => {
            s.contexts.is_some()
                || s.users.is_some()
                || s.current_context.is_some()
                || s.clusters
                    .as_ref()
                    .and_then(serde_json::Value::as_array)
                    .is_some_and(|c| !c.is_empty() && c.iter().all(|e| e.get("cluster").is_some()))
        }
    }
}

/// Offline kubeconfig checks as an import report: `cube_cluster::import::import_offline`
/// (every context checked, certificates parsed) turned into the plain report by
/// `ClusterImport::to_import_report` (typed problems for the kubeconfig rules, connection
/// `not-checked`).
fn kubeconfig_report(
    name: &str,
    cfg: &Kubeconfig,
    context: Option<&str>,
    trust: &cube_examples::KubeconfigTrust,
    limits: &cube_model::Limits,
) -> Result<ImportReport> {
    let mut opts = cube_cluster::import::ImportOptions::new();
    opts.context = context.map(str::to_owned);
    opts.plugins = trust.plugins();
    opts.file_references = trust.file_references();
    opts.offline = true;
    opts.max_referenced_file_bytes = Some(limits.max_referenced_file_bytes);
    let import = cube_cluster::import::import_offline(cfg, name, &opts)
        .with_context(|| format!("{name}: cannot check the kubeconfig"))?;
    let mut report = import.to_import_report();
    for p in &mut report.config_problems {
        *p = tidy_paths(p);
    }
    for p in &mut report.kubeconfig_problems {
        p.message = tidy_paths(&p.message);
        p.subject = tidy_paths(&p.subject);
    }
    for o in &mut report.over_privileges {
        o.permission = tidy_paths(&o.permission);
        o.message = tidy_paths(&o.message);
    }
    Ok(report)
}

/// Reads a live cluster through cube-cluster's live snapshot (read-only, paged lists); progress
/// goes to stderr. Kinds the credentials may not list land in `missing_kinds`.
fn collect_live(
    path: &std::path::Path,
    context: Option<&str>,
    trust: &cube_examples::KubeconfigTrust,
    limits: &cube_model::Limits,
) -> Result<(ImportReport, Option<ClusterSnapshot>)> {
    let text = cube_examples::read_kubeconfig_text(path, limits)?;
    // the same checks as cluster_import (an empty file, a document that is not a kubeconfig:
    // bad input, exit 2)
    let cfg = Kubeconfig::from_yaml_strict_with(&text, Some(path), limits)?;
    let opts = trust.select_options(context, limits);
    if let Some(c) = context
        && cfg.context(c).is_none()
    {
        anyhow::bail!("{}: context {c:?} does not exist", path.display());
    }
    // no current-context, a refused file reference: bad input (exit 2) as in every program,
    // before any request (never "nothing could be read", exit 3)
    if let Some(why) =
        cube_examples::unusable_kubeconfig(&path.display().to_string(), &cfg.check(&opts))
    {
        anyhow::bail!("{why}");
    }
    let mut report = kubeconfig_report(&path.display().to_string(), &cfg, context, trust, limits)?;
    let selection = match cfg.select(&opts) {
        Ok(s) => s,
        Err(e) => {
            report.connection.class = ConnectionClass::ConfigInvalid;
            report.connection.message = e.to_string();
            let snap = nothing_read(&report.connection.message);
            return Ok((report, Some(snap)));
        }
    };
    report.cluster_name = selection.cluster_name.clone();
    report.server = cube_cluster::kubeconfig::redact_server(&selection.server);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    // kube's client needs a runtime context to be built
    let _guard = rt.enter();
    // an exec plugin runs here (only with --allow-exec), within the request timeout; one that
    // gives no credential is `exec-plugin-failed` with its redacted stderr, nothing is read
    let client = match cube_cluster::client::build_client(
        &selection,
        &cube_cluster::client::ClientOptions::with_timeout(limits.request_timeout),
    ) {
        Ok(c) => c,
        Err(e) => {
            let class = cube_cluster::classify::classify_build_error(&e);
            report.connection.class = class.connection_class();
            report.connection.message = class.hint();
            cube_examples::eprint_line(&format!(
                "  no client for {}: {}",
                selection.cluster_name, report.connection.message
            ));
            let snap = nothing_read(&report.connection.message);
            return Ok((report, Some(snap)));
        }
    };
    cube_examples::eprint_line(&format!(
        "collecting a live snapshot from {} ({})",
        selection.cluster_name, selection.server
    ));
    // Every read bounded (body size, per-request timeout over the whole body, pages, repeated
    // continue tokens) and the collection itself ends at its deadline keeping what it read; the
    // outer timeout is only a backstop one request later.
    let client = cube_cluster::http::BoundedClient::new(
        client,
        cube_cluster::limits::NetLimits::from_limits(limits),
    );
    let options = CollectOptions::from_limits(limits);
    let result = rt.block_on(async {
        tokio::time::timeout(
            limits.collection_deadline + limits.request_timeout,
            collect_snapshot(&client, &options, |p| {
                cube_examples::eprint_line(&format!("  {p}"))
            }),
        )
        .await
    });
    let result = match result {
        Ok(r) => r,
        Err(_) => {
            // the whole collection ran past its deadline: nothing it read is kept, every kind
            // is missing and the limit is reported
            let mut snap = ClusterSnapshot::new();
            let hit = limits.exceeded(
                cube_model::Limit::CollectionDeadlineSecs,
                selection.server.clone(),
                None,
            );
            cube_examples::eprint_line(&format!("  collection stopped: {hit}"));
            for k in &options.kinds {
                snap.missing_kinds
                    .insert(k.kind.to_owned(), format!("not collected: {hit}"));
            }
            snap.limits_hit.push(hit);
            return Ok((report, Some(snap)));
        }
    };
    match result {
        Ok(snap) => {
            for (kind, why) in &snap.missing_kinds {
                cube_examples::eprint_line(&format!("  not collected: {kind}: {why}"));
            }
            Ok((report, Some(snap)))
        }
        Err(e) => {
            let class = cube_cluster::classify::classify_error(&e);
            report.connection.class = class.connection_class();
            report.connection.message = format!(
                "{}: {}",
                cube_cluster::classify::error_chain_text(&e),
                class.hint()
            );
            cube_examples::eprint_line(&format!(
                "  collection failed: {}",
                report.connection.message
            ));
            let snap = nothing_read(&report.connection.message);
            Ok((report, Some(snap)))
        }
    }
}

/// A snapshot that says every kind could not be read (never an empty, clean cluster).
fn nothing_read(why: &str) -> ClusterSnapshot {
    let mut snap = ClusterSnapshot::new();
    for k in &CollectOptions::default().kinds {
        snap.missing_kinds
            .insert(k.kind.to_owned(), format!("not collected: {why}"));
    }
    snap
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form client-go loads is a kubeconfig (issue 9: `kind: "Config"`, a trailing
    /// comment or JSON were skipped silently and a JSON kubeconfig's token was quoted as log
    /// evidence); registries, objects and logs are not.
    #[test]
    fn kubeconfigs_are_detected_by_content_in_every_form() {
        let limits = cube_model::Limits::default();
        let body = "clusters:\n- name: k\n  cluster: {server: 'https://127.0.0.1:1'}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: a\n  context: {cluster: k, user: u}\ncurrent-context: a\n";
        let yes = [
            format!("apiVersion: v1\nkind: Config\n{body}"),
            format!("apiVersion: v1\nkind: \"Config\"\n{body}"),
            format!("apiVersion: v1\nkind: 'Config'\n{body}"),
            format!("apiVersion: v1\nkind: Config # written by kubeadm\n{body}"),
            format!("apiVersion: v1\nkind:   Config\t\n{body}"),
            format!("---\n# admin.conf\n{body}kind: Config\n"),
            format!("\u{feff}kind: Config\n{body}"),
            // no kind at all: client-go loads it
            body.to_owned(),
            "{kind: Config, clusters: [], users: [], contexts: []}\n".to_owned(),
            r#"{"apiVersion":"v1","kind":"Config","clusters":[{"name":"k","cluster":{"server":"https://127.0.0.1:1"}}],"users":[{"name":"u","user":{"token":"t"}}],"contexts":[]}"#.to_owned(),
            "{\n    \"kind\": \"Config\",\n    \"apiVersion\": \"v1\",\n    \"clusters\": []\n}\n".to_owned(),
        ];
        for text in &yes {
            assert!(is_kubeconfig(text, &limits), "not detected:\n{text}");
            // the one-parse reader agrees
            assert!(
                matches!(read_kubeconfig(text, None, &limits), Some(Ok(_))),
                "not read:\n{text}"
            );
        }
        let no = [
            "apiVersion: cube-rs.io/v1alpha1\nkind: ClusterRegistry\nclusters:\n- name: a\n  kubeconfig: {path: x}\n".to_owned(),
            "clusters:\n- name: a\n  kubeconfig: {path: x}\n".to_owned(),
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubeadm-config}\ndata:\n  ClusterConfiguration: |\n    clusters: x\n".to_owned(),
            r#"{"apiVersion":"v1","kind":"List","items":[{"kind":"Config","clusters":[]}]}"#.to_owned(),
            "I1201 kubelet: users: 3, contexts: none, kind: Config\n".to_owned(),
            "kind: Config\nclusters: [\n".to_owned(),
        ];
        for text in &no {
            assert!(!is_kubeconfig(text, &limits), "detected:\n{text}");
            assert!(
                read_kubeconfig(text, None, &limits).is_none(),
                "read:\n{text}"
            );
        }
        // a kubeconfig that does not load is still a kubeconfig (reported, not a snapshot)
        let broken = "apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster: {server: x}\n- name: a\n  cluster: {server: y}\n";
        assert!(matches!(
            read_kubeconfig(broken, None, &limits),
            Some(Err(_))
        ));
    }

    const LOG: &str =
        "could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"\n";

    #[test]
    fn dash_reads_stdin_once_and_missing_files_are_input_problems() {
        let mut inputs = Inputs::new();
        let mut imports = Vec::new();
        let mut stdin = std::io::Cursor::new(LOG.as_bytes().to_vec());
        let paths = [
            PathBuf::from("-"),
            PathBuf::from("/nonexistent/./dir/x.json"),
            PathBuf::from("-"),
        ];
        read_inputs(
            &paths,
            &mut stdin,
            false,
            &mut inputs,
            &mut imports,
            &cube_examples::KubeconfigTrust::default(),
            &cube_model::Limits::default(),
        );
        assert_eq!(inputs.logs.len(), 1);
        assert_eq!(inputs.logs[0].source, "-");
        let problems = inputs.input_problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].source, "/nonexistent/dir/x.json");
        assert!(problems[0].fatal);
        let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
        let report = Engine::new().run(&ctx).with_input_problems(problems);
        assert_eq!(report.by_rule("join-token-invalid").count(), 1);
        assert_eq!(report.exit_code(), 2);
    }

    /// H22: a piped standard input longer than what is kept in memory is spooled as it is read
    /// and read as a file of its size (the same objects as the same text in memory); one over
    /// the file limit stops one byte past it, refused with the limit named, whatever is spooled.
    #[test]
    fn a_long_stdin_is_spooled_and_bounded_while_read() {
        let sample = SAMPLE.as_bytes();
        let limits = cube_model::Limits::default();
        let whole = {
            let mut inputs = Inputs::new();
            inputs.add_bytes("-", sample);
            inputs.snapshot.object_count()
        };
        assert!(whole > 0);
        let opened = open_stdin(&mut &sample[..], false, &limits, 1 << 16).expect("read");
        let StdinInput::File(file, len) = opened else {
            panic!("not spooled")
        };
        assert_eq!(len, sample.len() as u64);
        let mut inputs = Inputs::new();
        let bytes = read_opened(&mut inputs, "-", file, len, &limits)
            .expect("read whole")
            .expect("readable");
        assert_eq!(bytes, sample);
        inputs.add_bytes("-", &bytes);
        assert_eq!(inputs.snapshot.object_count(), whole);
        // small enough: kept in memory
        let opened = open_stdin(&mut &sample[..], false, &limits, sample.len()).expect("read");
        assert!(matches!(opened, StdinInput::Bytes(b) if b == sample));
        // endless: stops at the limit (the reader is taken one byte past it)
        let mut small = cube_model::Limits::default();
        small.max_file_bytes = 1 << 20;
        let mut endless = std::io::Read::take(std::io::repeat(b'y'), 1 << 30);
        let Err(e) = open_stdin(&mut endless, false, &small, 1 << 16) else {
            panic!("an endless stdin was read")
        };
        assert_eq!(e.limit_exceeded().map(|l| l.max), Some(1 << 20), "{e}");
        assert_eq!(endless.limit(), (1 << 30) - (1 << 20) - 1);
    }

    #[test]
    fn config_with_unknown_key_or_rule_id_is_rejected_by_name() {
        let e = load_engine(Some(("c.yaml", "disabled: [node-drift-typo]\n"))).unwrap_err();
        assert!(format!("{e:#}").contains("node-drift-typo"), "{e:#}");
        let e = load_engine(Some(("c.yaml", "thresholdz: {}\n"))).unwrap_err();
        assert!(format!("{e:#}").contains("thresholdz"), "{e:#}");
        let ok = load_engine(Some(("c.yaml", "disabled: [node-drift]\n"))).expect("valid");
        assert!(ok.config().disabled.contains("node-drift"));
    }

    #[test]
    fn kubeconfig_paths_lose_dot_segments() {
        assert_eq!(
            tidy_paths("file client-certificate: kubeconfigs/./stage/admin.pem"),
            "file client-certificate: kubeconfigs/stage/admin.pem"
        );
    }
}
