//! Text classifiers. Each line of a text is matched against the message catalog
//! ([`crate::catalog`]: every known message of kubeadm, the kubelet, k3s/rke2 agents, device
//! plugins, GPU operator validators, CSI/NFS mounts, client-go/kubectl and the cluster-join
//! agents, taken from the upstream sources) and read with the scheduler's grammar
//! ([`events`], [`cube_quota::schedmsg`]); each match becomes a [`Signal`], whose details are
//! the template's placeholders plus what the family modules derive from them ([`kubeadm`]:
//! CA pins of the whole text, unroutable advertised addresses; [`kubelet`]: certificate
//! validity windows; [`client`]: 403 origins; [`device_plugin`]: NVML causes). Rules turn
//! signals into findings.
//!
//! Lines of JSON objects with a `text`, `stderr` or `message` field (JSONL error collections,
//! captured kubectl runs) are classified by that field. [`classify_all`] also reports lines
//! that look like errors but match nothing ([`SignalKind::Unrecognised`], with the closest
//! catalog template).

mod accelerator;
pub(crate) mod backends;
pub mod client;
mod csr;
pub mod device_plugin;
pub mod events;
mod gpu_prose;
pub mod hami;
pub(crate) mod join_agent;
pub mod kubeadm;
pub mod kubelet;
pub mod kueue;
mod mig;
pub mod multicluster;
pub mod platform;
pub(crate) mod proxy;
pub(crate) mod service_ip;
pub mod sharing;
pub mod volcano_queue;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::finding::{Evidence, Subject};

/// What a classified line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum SignalKind {
    /// kubeadm discovery: the token has no JWS signature in cluster-info (unknown, expired or
    /// deleted token, or the bootstrap signer has not run yet).
    JoinTokenUnknown,
    /// kubeadm discovery: the cluster CA's key hash is not among the pins.
    JoinCaPinMismatch,
    /// kubeadm discovery: the CA's key hash *is* among the pins but not first (kubeadm#2471).
    JoinCaPinListedLater,
    /// TCP connection refused.
    Refused,
    /// No answer in time.
    Timeout,
    /// No route to host / network unreachable.
    NoRoute,
    /// Certificate not valid for the address used (`x509: certificate is valid for ..., not ...`).
    TlsNameMismatch,
    /// Certificate signed by an unknown authority.
    TlsUntrusted,
    /// Certificate expired or not yet valid.
    TlsExpired,
    /// kubeadm's kubelet-check: the kubelet is not running or healthy.
    KubeletUnhealthy,
    /// kubelet and container runtime use different cgroup drivers.
    CgroupDriverMismatch,
    /// kubeadm refused to join: a Node with that name already exists.
    DuplicateNodeName,
    /// kubelet deletes a static pod's mirror pod as outdated (repeats when two kubelets share a name).
    MirrorPodOutdated,
    /// kubelet: its client certificate expired and rotation cannot reach the server.
    KubeletCertExpired,
    /// NVIDIA device plugin cannot load NVML (runtime not GPU-enabled, driver missing).
    NvmlInitFailed,
    /// AMD: `/dev/kfd` missing (ROCm kernel driver not loaded).
    AmdKfdMissing,
    /// A device plugin registered its devices (healthy).
    DevicePluginRegistered,
    /// HAMi scheduler: the node never registered its vGPUs.
    HamiNodeUnregistered,
    /// Scheduler: `0/N nodes are available: ...`.
    FailedScheduling,
    /// A claim cannot bind: no storage class set and no default.
    PvcNoStorageClass,
    /// Scheduler: volume node affinity conflict (node-local volume).
    VolumeNodeAffinityConflict,
    /// FailedMount / FailedAttachVolume / Multi-Attach.
    MountFailed,
    /// Quota admission: `failed quota: <q>: must specify ...`.
    QuotaMustSpecify,
    /// Quota admission: `exceeded quota: ...`.
    QuotaExceeded,
    /// Quota admission: `status unknown for quota` (quota cannot evaluate a resource name).
    QuotaStatusUnknown,
    /// Kueue: a requested resource is not covered by the ClusterQueue.
    KueueResourceUnavailable,
    /// HTTP 401 / "You must be logged in".
    Unauthorized,
    /// 403 for `system:anonymous`: credentials were not sent.
    AnonymousForbidden,
    /// 403 from RBAC (`User "x" cannot <verb> resource ...`).
    RbacForbidden,
    /// 403 from an admission webhook (not RBAC).
    WebhookDenied,
    /// kubectl fell back to `localhost:8080`: no usable kubeconfig.
    NoUsableKubeconfig,
    /// The kubeconfig is unusable (CA + insecure, bad server URL, missing context).
    ConfigInvalid,
    /// http vs https mismatch.
    ProtocolMismatch,
    /// 404 for an object: the request was authorized and reached the server.
    NotFound,
    /// A multi-cluster controller reports a member cluster not reachable.
    ClusterNotReachable,
    /// HAMi's scheduler extender filed nodes (or cards) under a reason code (`FilteringFailed`
    /// events `2 nodes CardInsufficientMemory(node-01,node-02)`, its `NodeUnfitPod` log line):
    /// details `code`, `count`, `nodes`.
    HamiFilterFailed,
    /// Kueue: a ClusterQueue names a ResourceFlavor that does not exist.
    KueueFlavorMissing,
    /// Kueue: a covered resource has nominalQuota 0 (or none) in a flavor.
    KueueZeroQuota,
    /// A Volcano `Queue` object pasted as text (details `queue`, `capability`, `deserved`,
    /// `guarantee`, `allocated` as `name=quantity,...`, and `state`; see
    /// [`volcano_queue`]): context for the enqueue refusals of its jobs.
    VolcanoQueue,
    /// An NVIDIA device-plugin sharing config (time-slicing/MPS): resource and replicas.
    SharingConfig,
    /// kubeadm discovery: the token id is known but its secret does not sign cluster-info.
    JoinTokenSecretMismatch,
    /// kubeadm discovery: cluster-info has no kubeconfig (control plane not set up for token
    /// bootstrapping).
    JoinClusterInfoMissing,
    /// k3s/rke2: the join token's CA hash is not the server's CA (server re-installed, or a
    /// token of another cluster).
    JoinTokenCaMismatch,
    /// k3s/rke2: the server rejects the agent's node password (duplicate hostname, or a
    /// re-installed machine).
    NodePasswordRejected,
    /// A host name does not resolve (`no such host`, `Could not resolve host`).
    NoSuchHost,
    /// A queueing or batch scheduler (Kueue, YuniKorn, a Volcano gang) holds the workload back
    /// before or beside node fitting: quota of its queue used up or too small, gang not ready
    /// (detail `entry` names the catalog entry with cause and remedy).
    QueueAdmission,
    /// The connection was closed before any HTTP answer (`Get "<url>": EOF`): a proxy, load
    /// balancer or firewall in the path, or a server that is not an API server.
    ConnectionClosed,
    /// A node-join server (k3s/rke2 supervisor) answers the agent with an HTTP error status
    /// other than 401: it is reachable but not ready (5xx), or another error (details `url`,
    /// `code`, `status`).
    JoinServerNotReady,
    /// A node-join server (k3s/rke2 supervisor) answers the agent with `401 Unauthorized`:
    /// it does not accept the agent's join token (details `url`, `code`, `status`).
    JoinTokenRejected,
    /// A GPU fact told only in prose and pasted commands (`classify::gpu_prose`): a cloud GPU
    /// VM size next to "no GPU" (details `fact` = `gpu-vm-no-gpu`, `vm`, `cloud`, `vendor`,
    /// `version`), or the legacy `alpha.kubernetes.io/nvidia-gpu` next to a failure (`fact` =
    /// `legacy-resource`).
    GpuProse,
    /// A catalog message whose conclusion the catalog's own rules draw (detail `entry` names
    /// the [`crate::catalog::Entry`]; the other details are its placeholders, plus what a
    /// family module derives; a `severity` detail set by a context pass overrides the entry's).
    Known,
    /// An error line (by its own marking) of a device plugin's log that no catalog entry
    /// matches, read as that plugin's error (details `plugin`, `resource`, `error`; see
    /// `classify::accelerator`).
    DevicePluginError,
    /// A node's client certificate request that nobody approves (classify::csr, over the whole
    /// text): old kubeadm stopping after `[csr] Created API client ...`, the kubelet's TLS
    /// bootstrap timing out while the kubelet runs, or `kubectl get csr` rows of node client
    /// requests Pending (details `why`, `csrs`, `requestors`).
    JoinCsrPending,
    /// A line that looks like an error and matches no catalog entry (details `closest`,
    /// `closest_template`, `score`, and `marked: error` when the line is an error by its own
    /// marking, [`crate::catalog::marked_error`]); only [`classify_all`] emits it. Past
    /// [`MAX_UNRECOGNISED_SIGNALS`] of them in one text (marked and unmarked counted apart),
    /// the later lines are only counted, in the last one kept (detail `more_lines`).
    Unrecognised,
}

/// One classified line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Signal {
    /// What the line says.
    pub kind: SignalKind,
    /// Source name of the text.
    pub source: String,
    /// 1-based line number.
    pub line: usize,
    /// The line (the inner text for JSON lines), secrets redacted.
    pub text: String,
    /// True when the line comes from a `kubeadm join` context (discovery, cluster-info,
    /// preflight), false for client (kubectl, controller) texts.
    pub join: bool,
    /// Object the text is about, when known (event's involved object, journal host as Node).
    pub object: Option<Subject>,
    /// Extracted values (`token_id`, `endpoint`, `valid_for`, `kubelet_driver`, ...).
    pub details: BTreeMap<String, String>,
}

impl Signal {
    /// [`Signal::details`] as the captures a catalog template is filled with
    /// ([`crate::catalog::Entry::fill`]).
    pub fn captures(&self) -> Vec<(String, String)> {
        self.details
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
    /// The line as evidence.
    pub fn evidence(&self) -> Evidence {
        Evidence::log(self.source.clone(), self.line, &self.text)
    }
    /// A detail value, or `""`.
    pub fn detail(&self, key: &str) -> &str {
        self.details.get(key).map_or("", String::as_str)
    }
}

/// A line classifier: returns the kinds (with details) a line shows.
pub(crate) type Hit = (SignalKind, BTreeMap<String, String>);

/// Classifies every line of `text`: the signals of recognised messages only.
pub fn classify(source: &str, text: &str) -> Vec<Signal> {
    classify_inner(source, text, false)
}

/// [`classify`], plus one [`SignalKind::Unrecognised`] signal per line that looks like an error
/// (`E`/`F` klog lines, `level=error`, error words) and matches no catalog entry nor the
/// scheduler grammar, with the closest catalog template (details `closest`,
/// `closest_template`, `score`).
pub fn classify_all(source: &str, text: &str) -> Vec<Signal> {
    classify_inner(source, text, true)
}

fn classify_inner(source: &str, text: &str, unrecognised: bool) -> Vec<Signal> {
    let whole = Whole::scan(text);
    let mut out = Vec::new();
    let mut cont = Continuation::None;
    let all: Vec<&str> = text.lines().collect();
    let mut memo: std::collections::HashMap<String, (Vec<Hit>, bool, bool)> =
        std::collections::HashMap::new();
    let mut redact_memo: std::collections::HashMap<String, String> =
        std::collections::HashMap::new();
    let mut closest_memo: std::collections::HashMap<
        String,
        Option<(&'static crate::catalog::Entry, f64)>,
    > = std::collections::HashMap::new();
    let mut skip_to = 0usize;
    // unrecognised signals kept, the index in `out` of the last one kept and the lines past
    // MAX_UNRECOGNISED_SIGNALS, for [not marked, marked]
    let mut unrecognised_kept = [0usize; 2];
    let mut unrecognised_last = [0usize; 2];
    let mut unrecognised_more = [0usize; 2];
    for (i, raw) in all.iter().enumerate() {
        if i < skip_to {
            continue;
        }
        // a YAML document marker says nothing (a file of a million empty documents is read as
        // text when it holds no object): skipped before any other work
        if matches!(raw.trim_end(), "---" | "...") {
            cont.blank();
            continue;
        }
        // a pretty-printed JSON log record (CloudWatch, `jq .` output) spreads one record over
        // lines: its level member marks the record, not a message of its own
        if let Some((key, value)) = json_member(raw)
            && matches!(key, "level" | "severity" | "levelname" | "lvl")
            && !value.is_empty()
        {
            continue;
        }
        // curl -v's trace lines (`* ...` info, `> `/`< ` headers; curl lib/curl_trc.c): what a
        // person's probe did, read for a proxy (classify::proxy) but never judged alone
        if whole.curl_verbose && (raw.starts_with("* ") || raw.starts_with("*  ")) {
            continue;
        }
        let line = inner_text(raw);
        for l in line.lines() {
            let l = l.trim();
            // a scheduler message wrapped over several lines is read as one
            let joined;
            let l = match wrapped_scheduler_message(l, all.get(i + 1..).unwrap_or_default())
                .or_else(|| wrapped_message(l, all.get(i + 1..).unwrap_or_default()))
            {
                Some((j, more)) => {
                    skip_to = i + 1 + more;
                    joined = j;
                    joined.as_str()
                }
                None => l,
            };
            if l.is_empty() {
                cont.blank();
                continue;
            }
            if l.starts_with('#') {
                continue;
            }
            // a line continuing the previous message (multi-line output embedded in an error)
            // is read for what it says but never judged alone as unrecognised
            let continued = cont.takes(l);
            if !continued {
                cont = Continuation::opened_by(l);
            }
            // identical lines (a kubelet repeating one error every few seconds, a day of journal)
            // are judged once: the verdict depends only on the line and the whole text
            let (hits, recognised, join) = match memo.get(l) {
                Some(v) => v.clone(),
                None => {
                    let v = classify_line_full(l, &whole);
                    if memo.len() < MEMO_LINES && l.len() <= MEMO_LINE_BYTES {
                        memo.insert(l.to_owned(), v.clone());
                    }
                    v
                }
            };
            let signal = |kind, details, text| Signal {
                kind,
                source: source.to_owned(),
                line: i + 1,
                text,
                join: join || is_join_context(l, &whole),
                object: journal_host(l).map(|h| Subject::cluster_scoped("Node", &h)),
                details,
            };
            // a line recognised only as a wrapper (`Waiting to retrieve agent configuration;
            // server is not ready: {error}`, `rpc error: ... desc = {error}`) whose inner error
            // is no known message: the wrapper says something failed, what is not known; it is
            // reported like an unrecognised line (whatever the line's own level: k3s logs this
            // one at info), never dropped
            let wrapped = if unrecognised && recognised && hits.is_empty() && !continued {
                wrapped_unknown(l)
            } else {
                None
            };
            for (kind, details) in hits {
                out.push(signal(kind, details, redacted(&mut redact_memo, l)));
            }
            if unrecognised
                && !continued
                && (wrapped.is_some()
                    || (!recognised
                        && (crate::catalog::looks_like_error(l)
                            || crate::catalog::marked_error(l))))
            {
                let group = usize::from(crate::catalog::marked_error(l));
                if unrecognised_kept[group] >= MAX_UNRECOGNISED_SIGNALS {
                    unrecognised_more[group] += 1;
                    continue;
                }
                unrecognised_kept[group] += 1;
                unrecognised_last[group] = out.len();
                let mut d = BTreeMap::new();
                if let Some(w) = &wrapped {
                    d.insert("wrapper".to_owned(), w.clone());
                }
                let near = match closest_memo.get(l) {
                    Some(v) => *v,
                    None => {
                        let v = crate::catalog::closest(l);
                        if closest_memo.len() < MEMO_LINES && l.len() <= MEMO_LINE_BYTES {
                            closest_memo.insert(l.to_owned(), v);
                        }
                        v
                    }
                };
                if let Some((e, score)) = near {
                    d.insert("closest".to_owned(), e.id.to_owned());
                    d.insert("closest_template".to_owned(), e.template.to_owned());
                    d.insert("score".to_owned(), format!("{score:.2}"));
                }
                if crate::catalog::marked_error(l) {
                    // an error by its own marking (klog E/F, level=error, systemd unit failed)
                    d.insert("marked".to_owned(), "error".to_owned());
                }
                out.push(signal(
                    SignalKind::Unrecognised,
                    d,
                    redacted(&mut redact_memo, l),
                ));
            }
        }
    }
    for group in 0..2 {
        if unrecognised_more[group] > 0
            && let Some(s) = out.get_mut(unrecognised_last[group])
        {
            s.details.insert(
                "more_lines".to_owned(),
                unrecognised_more[group].to_string(),
            );
        }
    }
    device_plugin::in_context(&mut out, text);
    accelerator::in_context(&mut out, text);
    mig::in_context(&mut out, text);
    hami::in_context(&mut out, text);
    drop_unit_failures_explained(&mut out);
    drop_runner_summaries_explained(&mut out);
    if text.contains("TLS Bootstrap")
        || text.contains("API client to obtain unique certificate")
        || text.contains("Pending")
    {
        csr::check(source, text, &mut out);
    }
    if text.contains("NAME") && (text.contains("READY") || text.contains("AVAILABLE")) {
        out.extend(multicluster::check(source, text));
    }
    if text.contains("Unauthorized")
        && text.contains(" join ")
        && let Some(s) = backends::karmada_unauthorized_prose(source, text, &out)
    {
        out.push(s);
    }
    join_agent::in_context(&mut out, source, text);
    if text.contains("ClusterQueue") && text.contains("resourceGroups") {
        out.extend(kueue::check(source, text));
    }
    if text.contains("Queue") && text.contains("scheduling.volcano.sh") {
        out.extend(volcano_queue::check(source, text));
    }
    if text.contains("kind: ConfigMap") && (text.contains("timeSlicing") || text.contains("mps:")) {
        out.extend(sharing::check(source, text));
    } else if text.contains("sharing:") && (text.contains("timeSlicing") || text.contains("mps:")) {
        out.extend(sharing::check_bare(source, text));
    }
    if text.contains("--node-vm-size")
        || text.contains("--node-type")
        || text.contains("--instance-type")
        || text.contains("--machine-type")
        || text.contains("--accelerator")
        || text.contains(cube_model::resource::names::LEGACY_NVIDIA_GPU)
    {
        let facts = gpu_prose::check(source, text);
        // the prose line a fact was read from is read, not an unrecognised error line
        let lines: Vec<usize> = facts.iter().map(|s| s.line).collect();
        out.retain(|s| s.kind != SignalKind::Unrecognised || !lines.contains(&s.line));
        out.extend(facts);
    }
    out
}

/// systemd's lines about a unit whose program exited (`kubelet.service: main process exited,
/// code=exited, status=255/n/a`, `Unit kubelet.service entered failed state.`, `kubelet.service
/// failed.`, `kubelet.service: Failed with result 'exit-code'.`; systemd `src/core/service.c`,
/// `src/core/unit.c`) are the consequence of that program's own fatal error: when the same text
/// shows that error recognised (a klog `F` line or `failed to run Kubelet` of the program the
/// unit runs), they are explained and not listed as unrecognised.
fn drop_unit_failures_explained(out: &mut Vec<Signal>) {
    let fatal: Vec<String> = out
        .iter()
        .filter(|s| {
            s.kind != SignalKind::Unrecognised
                // logrus' fatal level (k3s, rke2: `level=fatal`, `FATA[...]`) exits the
                // program as klog's `F` does
                && (s.text.contains("failed to run Kubelet")
                    || s.text.contains("level=fatal")
                    || s.text.contains("FATA[")
                    || {
                    let b = s.text.trim_start().as_bytes();
                    b.len() > 6
                        && b[0] == b'F'
                        && b[1..5].iter().all(u8::is_ascii_digit)
                        && b[5] == b' '
                })
        })
        .map(|s| s.text.to_ascii_lowercase())
        .collect();
    if fatal.is_empty() {
        return;
    }
    out.retain(|s| {
        if s.kind != SignalKind::Unrecognised {
            return true;
        }
        let lower = s.text.to_ascii_lowercase();
        let Some(unit) = lower
            .split(|c: char| c.is_whitespace() || c == ':')
            .find_map(|w| w.strip_suffix(".service"))
        else {
            return true;
        };
        let unit_failed = lower.contains("main process exited")
            || lower.contains("entered failed state")
            || lower.contains(".service failed")
            || lower.contains("failed with result");
        let explained = !unit.is_empty() && fatal.iter().any(|f| f.contains(unit));
        !(unit_failed && explained)
    });
}

/// True for a CI runner's or script's summary that a step failed, naming no cause of its own:
/// actions/runner `Process completed with exit code N.`, gitlab-runner `Job failed: exit code
/// N` / `Job failed: command terminated with exit code N`, Jenkins `script returned exit code N`
/// (workflow-durable-task-step), `Finished: FAILURE` and `Build step '...' marked build as
/// failure`, make's `make: *** [target] Error N`, docker build's `returned a non-zero code` /
/// `did not complete successfully: exit code`, Ansible's `NO MORE HOSTS LEFT` and PLAY RECAP
/// rows, Kubernetes test-infra's `Command failed`, and a script's own `some child process failed` / `at least one <x> failed` / `one or
/// more <x> failed` (intel/pmem-csi `test/start-kubernetes.sh` `waitall` and `die`).
fn runner_summary(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    let l = l.trim_end_matches(" level=error");
    l.contains("process completed with exit code")
        || l.contains("job failed: exit code")
        || l.contains("job failed: command terminated with exit code")
        || l.contains("script returned exit code")
        || l.ends_with("finished: failure")
        || l.contains("marked build as failure")
        || (l.starts_with("make") && l.contains("*** [") && l.contains("] error "))
        || l.contains("returned a non-zero code")
        || l.contains("did not complete successfully: exit code")
        || l.contains("no more hosts left")
        || (l.contains(" : ok=") && l.contains(" failed="))
        || l.starts_with("command failed")
        || l.contains("some child process failed")
        || ((l.contains("at least one ") || l.contains("one or more ")) && l.contains(" failed"))
}

/// A CI runner's or script's failure summary ([`runner_summary`]) is the consequence of the
/// failure the same text shows: when a line of the text is a recognised problem (a catalog
/// message with a conclusion, or any other classified signal), the summaries are explained and
/// not listed as unrecognised. Without one they stay (the cause was not read: incomplete).
fn drop_runner_summaries_explained(out: &mut Vec<Signal>) {
    let explained = out.iter().any(|s| match s.kind {
        SignalKind::Unrecognised => false,
        SignalKind::Known => crate::catalog::entry(s.detail("entry"))
            .is_some_and(|e| !e.rule.is_empty() && e.severity > crate::Severity::Info),
        _ => true,
    });
    if explained {
        out.retain(|s| s.kind != SignalKind::Unrecognised || !runner_summary(&s.text));
    }
}

/// The wrapper entry of a line recognised only by context entries that wrap an inner
/// `{error}`, when that inner error is not empty (it matched nothing of its own).
fn wrapped_unknown(l: &str) -> Option<String> {
    let matches = crate::catalog::match_line(l);
    if matches.is_empty()
        || matches
            .iter()
            .any(|m| m.entry.kind.is_some() || m.entry.complete)
    {
        return None;
    }
    // the inner error matches nothing itself (a wrapper around a known context line, such as
    // `error execution phase preflight: [preflight] Some fatal errors occurred:` whose reasons
    // follow on the next lines, is not unknown)
    matches
        .iter()
        .find(|m| {
            let inner = m.value("error").trim();
            inner.len() > 3 && crate::catalog::match_line(inner).is_empty()
        })
        .map(|m| m.entry.id.to_owned())
}

/// Classifies one line (no whole-text context).
pub fn classify_line_alone(line: &str) -> Vec<SignalKind> {
    classify_line(line, &Whole::default())
        .into_iter()
        .map(|(k, _)| k)
        .collect()
}

/// Whether the next lines continue a multi-line message:
///
/// - Go's `output: %s, error: %v` with multi-line command output inside (kubeadm's CRI
///   preflight check prints crictl's output, `cmd/kubeadm/app/util/runtime`): every line up to
///   the one starting with `, error:` (at most 10, and never a kubeadm `[phase]` line);
/// - k8s.io/mount-utils `Mount failed: %v\nMounting command: %s\nMounting arguments:
///   %s\nOutput: %s` (mount_linux.go): the `Mounting ...:` and `Output:` lines, and the output's
///   own lines up to a blank line or the next log record;
/// - a line starting with `,` continues the previous one (a wrapped `..., error: ...` tail).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Continuation {
    None,
    /// Up to this many more lines, until one starts with `, error:`.
    UntilErrorTail(usize),
    /// Inside a mount-utils message; true once its `Output:` line was seen.
    Mount(bool, usize),
    /// The stderr of an OCI hook (`error running hook #0: ... stderr: ...`, the NVIDIA
    /// container CLI's error and the kernel verifier's lines after it): up to this many more
    /// lines that start no record of their own.
    HookStderr(usize),
}

impl Continuation {
    /// The continuation a line opens.
    fn opened_by(l: &str) -> Self {
        if l.contains("Mount failed: ") || l.contains("mount failed: ") {
            return Continuation::Mount(false, 40);
        }
        if l.contains("error running hook") || l.contains("nvidia-container-cli") {
            return Continuation::HookStderr(10);
        }
        if let Some(p) = l.rfind(": output: ")
            && !l[p..].contains(", error: ")
        {
            return Continuation::UntilErrorTail(10);
        }
        Continuation::None
    }

    /// A blank line ends a command's output.
    fn blank(&mut self) {
        if matches!(self, Continuation::Mount(..)) {
            *self = Continuation::None;
        }
    }

    /// Whether `l` continues the open message (and the state after it).
    fn takes(&mut self, l: &str) -> bool {
        let taken = match *self {
            Continuation::None => false,
            Continuation::UntilErrorTail(0) | Continuation::Mount(_, 0) => false,
            Continuation::HookStderr(0) => false,
            Continuation::HookStderr(n) => {
                if starts_record(l) {
                    false
                } else {
                    *self = Continuation::HookStderr(n - 1);
                    true
                }
            }
            Continuation::UntilErrorTail(n) => {
                if l.starts_with(", error:") || l.starts_with(",error:") {
                    *self = Continuation::None;
                    return true;
                }
                if l.starts_with('[') || l.starts_with("error execution phase") {
                    false
                } else {
                    *self = Continuation::UntilErrorTail(n - 1);
                    true
                }
            }
            Continuation::Mount(output, n) => {
                if l.starts_with("Mounting command:") || l.starts_with("Mounting arguments:") {
                    *self = Continuation::Mount(output, n - 1);
                    true
                } else if l.starts_with("Output:") || (output && !starts_record(l)) {
                    *self = Continuation::Mount(true, n - 1);
                    true
                } else {
                    false
                }
            }
        };
        if !taken {
            *self = Continuation::None;
        }
        taken || l.starts_with(',')
    }
}

/// A scheduler message (`0/N nodes are available: ...`, Volcano's `... nodes are unavailable:`)
/// that a terminal, an issue editor or `kubectl describe` wrapped over several lines: the
/// message is not finished on this line (the scheduler's `FitError.Error()` always ends with
/// `.`; pkg/scheduler/framework/types.go) and the next lines continue it. Returns the joined
/// message and how many more lines it took (at most 3), or `None` when the line is whole.
fn wrapped_scheduler_message(l: &str, next: &[&str]) -> Option<(String, usize)> {
    // kube-scheduler v1.2-v1.5 FitError: `pod (<name>) failed to fit in any node` and, on the
    // lines below it (the message holds newlines: plugin/pkg/scheduler/generic_scheduler.go),
    // one `fit failure on node (<node>): ...` per node (v1.2-v1.4) or the v1.5 `fit failure
    // summary on nodes : ...`, printed at column 0 by describe and get events
    if l.contains("failed to fit in any node")
        && !l.contains("fit failure summary on nodes")
        && !l.contains("fit failure on node (")
    {
        let more: Vec<&str> = next
            .iter()
            .map(|x| x.trim())
            .take_while(|t| {
                t.starts_with("fit failure on node (")
                    || t.starts_with("fit failure summary on nodes")
            })
            .collect();
        if more.is_empty() {
            return None;
        }
        let mut joined = l.trim_end().to_owned();
        for t in &more {
            joined.push(' ');
            joined.push_str(t);
        }
        return Some((joined, more.len()));
    }
    let header = l
        .find(" nodes are available:")
        .or_else(|| l.find(" nodes are unavailable:"))?;
    let ended = |t: &str| {
        let t = t.trim_end().trim_end_matches(['`', '"', '\'']);
        t.ends_with('.')
    };
    if ended(&l[header..]) {
        return None;
    }
    let mut joined = l.trim_end().to_owned();
    for (k, raw) in next.iter().take(3).enumerate() {
        let t = raw.trim();
        if !continues_message(t) {
            return None;
        }
        // a word cut by the wrap (`No p` + `reemption`) cannot be told from two words: a space
        // is the more common case (wraps at spaces); the reason texts tolerate either for the
        // reason kinds that matter
        joined.push(' ');
        joined.push_str(t);
        if ended(&joined[header..]) {
            return Some((joined, k + 1));
        }
    }
    None
}

/// Whether `t` (trimmed) goes on with the words of a message wrapped on the line before: never
/// a blank line, a new record, a table row, a scheduler message, a prompt or a describe key;
/// it starts with a lower-case word, a digit or an opening bracket.
fn continues_message(t: &str) -> bool {
    !t.is_empty()
        && !starts_record(t)
        && !t.contains(" nodes are available:")
        && !t.contains(" nodes are unavailable:")
        && !t.starts_with(['$', '#', '>', '-', '|', '['])
        && !t.starts_with("Warning ")
        && !t.starts_with("Normal ")
        && !(t.contains(":  ") || t.ends_with(':'))
        && t.chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '{' || c == '(')
}

/// An error message a terminal, an issue editor or a chat client wrapped over several lines,
/// other than the scheduler's ([`wrapped_scheduler_message`]): the ResourceQuota admission
/// error (`exceeded quota: <name>, requested: ..., used: ..., limited: ...`, one line as the
/// API server writes it: staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/
/// controller.go) cut before its `limited:` part, and any message line that ends with a comma
/// while the next line goes on with lower-case words. Returns the joined text and how many more
/// lines it took (at most 3), or `None`.
fn wrapped_message(l: &str, next: &[&str]) -> Option<(String, usize)> {
    let lower = l.to_ascii_lowercase();
    let quota = lower.contains("exceeded quota:") && !lower.contains("limited:");
    let comma = |s: &str| {
        s.trim_end()
            .trim_end_matches(['`', '"', '\''])
            .ends_with(',')
    };
    if !quota
        && !(comma(l) && (crate::catalog::looks_like_error(l) || crate::catalog::marked_error(l)))
    {
        return None;
    }
    let mut joined = l.trim_end().to_owned();
    let mut taken = 0;
    for raw in next.iter().take(3) {
        let t = raw.trim();
        // the quota message's own parts start with their key
        let part = quota
            && ["requested:", "used:", "limited:"]
                .iter()
                .any(|k| t.starts_with(k));
        if !(part || continues_message(t)) {
            break;
        }
        joined.push(' ');
        joined.push_str(t);
        taken += 1;
        let l = joined.to_ascii_lowercase();
        let done_quota = !quota || l.contains("limited:");
        if done_quota && !comma(t) {
            break;
        }
    }
    (taken > 0).then_some((joined, taken))
}

/// A line that starts a new log record: a klog header (`E0618 14:42:47.959637 ...`) or a
/// date.
fn starts_record(l: &str) -> bool {
    let b = l.as_bytes();
    let klog = b.len() > 5
        && matches!(b[0], b'I' | b'W' | b'E' | b'F')
        && b[1..5].iter().all(u8::is_ascii_digit);
    let dated = b.len() > 4 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
    klog || dated || l.starts_with("time=")
}

/// Facts about the whole text that single lines need (the pins of a kubeadm command line).
#[derive(Debug, Default)]
pub(crate) struct Whole {
    /// `sha256:...` pins in order.
    pub pins: Vec<String>,
    /// The text shows a kubeadm join (command line or `[discovery]`/`[preflight]` phases).
    pub kubeadm: bool,
    /// The text comes from a program that reaches the cluster from elsewhere (Argo CD, a
    /// Karmada or Rancher agent, Open Cluster Management, KubeFed): a loopback address in its
    /// errors is the agent itself, not the cluster.
    pub agent: Option<&'static str>,
    /// An API server address on a loopback interface that the text shows as the one kubectl
    /// uses: `kubectl cluster-info`'s `Kubernetes control plane is running at <url>`
    /// (`Kubernetes master is running at` before v1.20; k8s.io/kubectl
    /// `pkg/cmd/clusterinfo/clusterinfo.go`) or a kubeconfig's `server: <url>`.
    pub loopback_api: Option<String>,
    /// The text says a kubeconfig was copied to another machine (`copied ... k3s.yaml`, `scp
    /// admin.conf`, an agent or worker node named with it).
    pub copied_kubeconfig: bool,
    /// A proxy the text shows in the client's path ([`proxy`]).
    pub(crate) proxy: Option<proxy::ProxySeen>,
    /// The text holds a `curl -v` transcript (`*   Trying <addr>...`, `* Connected to`).
    pub curl_verbose: bool,
    /// The text shows a tool that has just issued the cluster's certificates bringing it up
    /// (`rke up` and its `[controlPlane]`/`[etcd]` phases), besides kubeadm ([`Whole::kubeadm`]).
    pub provisioner: Option<&'static str>,
    /// The text's prose mentions clocks or time sync (`date/time not in sync`, NTP, chrony,
    /// `timedatectl`, clock skew).
    pub clock_prose: bool,
    /// The text is the output of an Ansible playbook run (`PLAY [..]`, `TASK [..]`,
    /// `fatal: [host]: FAILED! =>`): a provisioning run, which usually creates the control
    /// plane (and its certificates) in the same run as the join.
    pub playbook: bool,
    /// The text is (or holds) a log of a client running in a pod ([`service_ip::in_cluster_line`]):
    /// client-go's reflector or leader election, the in-cluster config, CoreDNS's kubernetes
    /// plugin, a CSI sidecar, `kubectl logs` of a pod.
    pub in_cluster: bool,
}

impl Whole {
    fn scan(text: &str) -> Self {
        let mut w = Whole {
            proxy: proxy::scan(text),
            ..Whole::default()
        };
        for l in text.lines() {
            if l.contains("kubeadm join") || l.contains("[discovery]") || l.contains("[preflight]")
            {
                w.kubeadm = true;
            }
            if w.agent.is_none() {
                w.agent = remote_agent(l);
            }
            if !w.in_cluster && service_ip::in_cluster_line(l) {
                w.in_cluster = true;
            }
            // ansible's default callback (ansible/ansible lib/ansible/plugins/callback/default.py:
            // `PLAY [%s]`, `TASK [%s]`, `fatal: [%s]: FAILED! => %s`)
            let t = l.trim_start();
            if t.starts_with("PLAY [")
                || t.starts_with("TASK [")
                || (t.starts_with("fatal: [") && t.contains("FAILED! =>"))
            {
                w.playbook = true;
            }
            // RKE (rancher/rke): `rke up` and its phase tags, e.g. `[controlPlane] Failed to
            // bring up Control Plane` (cluster/plan.go, services/controlplane.go)
            if w.provisioner.is_none()
                && (l.contains("rke up")
                    || l.contains("[controlPlane]")
                    || l.contains("Failed to bring up Control Plane")
                    || l.contains("Failed to bring up Etcd Plane"))
            {
                w.provisioner = Some("rke");
            }
            // one lowercase copy per line, for the clock prose and the copied kubeconfig below
            let lower = l.to_ascii_lowercase();
            {
                let word = lower.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
                    matches!(
                        w,
                        "clock"
                            | "clocks"
                            | "ntp"
                            | "ntpd"
                            | "chrony"
                            | "chronyd"
                            | "chronyc"
                            | "timedatectl"
                    )
                });
                if word
                    || [
                        "not in sync",
                        "date/time",
                        "time sync",
                        "time drift",
                        "out of sync",
                    ]
                    .iter()
                    .any(|k| lower.contains(k))
                {
                    w.clock_prose = true;
                }
            }
            if l.starts_with("* ") && (l.contains(" Trying ") || l.starts_with("* Connected to")) {
                w.curl_verbose = true;
            }
            if w.loopback_api.is_none() {
                w.loopback_api = shown_loopback_api(l);
            }
            if (lower.contains("cop") || lower.contains("scp ") || lower.contains(" cp "))
                && [
                    "k3s.yaml",
                    "rke2.yaml",
                    "admin.conf",
                    "kubeconfig",
                    ".kube/config",
                ]
                .iter()
                .any(|f| lower.contains(f))
            {
                w.copied_kubeconfig = true;
            }
            let is_pin_line = l.contains("discovery-token-ca-cert-hash")
                || l.trim_start().starts_with("- sha256:")
                || l.contains("caCertHashes");
            if is_pin_line {
                for (pos, _) in l.match_indices("sha256:") {
                    let hash: String = l[pos..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == ':')
                        .collect();
                    if hash.len() > "sha256:".len() && !w.pins.contains(&hash) {
                        w.pins.push(hash);
                    }
                }
            }
        }
        w
    }
}

/// The cluster-join agent a line shows (see [`Whole::agent`]).
fn remote_agent(l: &str) -> Option<&'static str> {
    if l.contains("argocd") || l.contains("Argo CD") {
        Some("Argo CD")
    } else if l.contains("karmada") || l.contains("Karmada") {
        Some("Karmada")
    } else if l.contains("cattle-")
        || l.contains("Rancher")
        // k3s's and rke2's own paths and images (/etc/rancher/k3s/k3s.yaml, rancher/k3s) are
        // not Rancher's agents
        || (l.contains("rancher")
            && !l.contains("/etc/rancher/")
            && !l.contains("rancher/k3s")
            && !l.contains("rancher/rke2"))
    {
        Some("Rancher")
    } else if l.contains("clusteradm") || l.contains("open-cluster-management") {
        Some("Open Cluster Management")
    } else if l.contains("kubefed") || l.contains("KubeFed") {
        Some("KubeFed")
    } else {
        None
    }
}

/// The host of an address (`127.0.0.1:6443`, `[::1]:6443`, `"https://localhost:8443/version"`).
pub(crate) fn address_host(addr: &str) -> &str {
    let a = addr.trim_matches(|c: char| c == '"' || c == '[' || c == '(' || c == '\'');
    let a = a.split_once("://").map_or(a, |(_, r)| r);
    let a = a.split(['/', '?', ']', ')']).next().unwrap_or(a);
    if a.matches(':').count() > 1 {
        // IPv6 without brackets (the brackets were cut above): the address itself
        return a.trim_start_matches('[');
    }
    a.split(':').next().unwrap_or(a)
}

/// A loopback host: `localhost`, `127.0.0.0/8`, `::1`.
/// The loopback API server URL a line shows as kubectl's (see [`Whole::loopback_api`]).
fn shown_loopback_api(l: &str) -> Option<String> {
    let t = l.trim();
    let url = if let Some((_, after)) = t
        .split_once("control plane is running at ")
        .or_else(|| t.split_once("master is running at "))
    {
        after
    } else {
        t.strip_prefix("server:")
            .or_else(|| t.strip_prefix("- server:"))?
    };
    let url = url.split_whitespace().next()?.trim_matches(['"', '\'']);
    (url.contains("://") && is_loopback(address_host(url))).then(|| url.to_owned())
}

fn is_loopback(host: &str) -> bool {
    host == "localhost" || host.starts_with("127.") || host == "::1" || host == "[::1"
}

/// k3s/rke2 `get()` errors for an HTTP answer that is not 200: `<url>: <code> <status>`
/// (k3s-io/k3s pkg/clientaccess/token.go and pkg/agent/config/config.go,
/// `fmt.Errorf("%s: %s", u, resp.Status)`).
fn http_status_error(err: &str) -> Option<BTreeMap<String, String>> {
    let (url, status) = err.trim().trim_end_matches(['"', '\'']).rsplit_once(": ")?;
    // wrapped errors keep their prefix (`failed to retrieve configuration from server: <url>`,
    // pkg/agent/config/config.go `errors.Wrap`): the URL starts at its scheme
    let url = match url.rfind("https://").or_else(|| url.rfind("http://")) {
        Some(at) => &url[at..],
        None => url,
    };
    let code = status.get(..3)?;
    if !url.contains("://")
        || !code.bytes().all(|b| b.is_ascii_digit())
        || !status[3..].starts_with(' ')
    {
        return None;
    }
    Some(details(&[
        ("url", url.trim().to_owned()),
        ("code", code.to_owned()),
        // the reason phrase only (a reduced logrus record goes on with ` level="info"`)
        (
            "status",
            status[4..]
                .split_whitespace()
                .take_while(|w| !w.contains(['=', '"']))
                .collect::<Vec<_>>()
                .join(" "),
        ),
    ]))
}

/// Karmada's resource names, plural, singular and short (karmada-io/karmada charts/karmada
/// `_crds` and pkg/apis: cluster.karmada.io, policy.karmada.io, work.karmada.io,
/// config.karmada.io, networking.karmada.io, search.karmada.io).
const KARMADA_RESOURCES: &[&str] = &[
    "clusters",
    "cluster",
    "propagationpolicies",
    "propagationpolicy",
    "pp",
    "clusterpropagationpolicies",
    "clusterpropagationpolicy",
    "cpp",
    "overridepolicies",
    "overridepolicy",
    "op",
    "clusteroverridepolicies",
    "clusteroverridepolicy",
    "cop",
    "resourcebindings",
    "resourcebinding",
    "rb",
    "clusterresourcebindings",
    "clusterresourcebinding",
    "crb",
    "works",
    "work",
    "federatedresourcequotas",
    "federatedresourcequota",
    "frq",
    "resourceinterpretercustomizations",
    "ric",
    "multiclusterservices",
    "mcs",
    "resourceregistries",
];

fn classify_line(l: &str, whole: &Whole) -> Vec<Hit> {
    classify_line_full(l, whole).0
}

/// The hits of one line, whether anything recognised it (catalog entries without a conclusion
/// count), and whether a matched entry is a node-join message.
/// The evidence text of a line (redacted), remembered for identical lines like the verdicts.
fn redacted(memo: &mut std::collections::HashMap<String, String>, l: &str) -> String {
    if let Some(t) = memo.get(l) {
        return t.clone();
    }
    let t = crate::finding::redact(l);
    if memo.len() < MEMO_LINES && l.len() <= MEMO_LINE_BYTES {
        memo.insert(l.to_owned(), t.clone());
    }
    t
}

/// Unrecognised lines of one text (errors by their marking and error-looking lines counted
/// apart) kept as signals of their own; the lines past it are counted in the last one kept
/// (detail `more_lines`). A paste of a million unrecognised error lines held a signal of about
/// 1.4 KB for each (a 40 MB paste took 2.85 GB, red team 2 #03); the finding about them names
/// the count and shows the first few lines.
pub const MAX_UNRECOGNISED_SIGNALS: usize = 10_000;

/// How many distinct lines of one text [`classify_inner`] remembers the verdict of (identical
/// lines are judged once); past it, lines are judged one by one as before (same answers, more
/// work), so the memory stays bounded whatever the input.
const MEMO_LINES: usize = 65_536;
/// Lines longer than this are not remembered (their key would cost more than judging them).
const MEMO_LINE_BYTES: usize = 4_096;

fn classify_line_full(l: &str, whole: &Whole) -> (Vec<Hit>, bool, bool) {
    let matches = crate::catalog::match_line(l);
    let mut hits: Vec<Hit> = Vec::new();
    for m in &matches {
        let Some(kind) = m.entry.kind else { continue };
        let hit = refine(kind, m, l, whole);
        if !hits.contains(&hit) {
            hits.push(hit);
        }
    }
    // a k3s/rke2 agent wrapper whose error is the supervisor's HTTP answer
    for m in &matches {
        if m.entry.family == crate::catalog::Family::K3s
            && m.entry.kind.is_none()
            && let Some(mut d) = http_status_error(m.value("error")).or_else(|| {
                // v1.17-v1.18 `failed to get CA certs at <url>: <status>`: the URL is the
                // wrapper's
                http_status_error(&format!("{}: {}", m.value("url"), m.value("error")))
            })
        {
            d.insert("entry".to_owned(), m.entry.id.to_owned());
            // 401: the supervisor does not accept the token (pkg/clientaccess/token.go `get`
            // sends it as Bearer or basic auth; pkg/agent/config/config.go getNodeNamedCrt
            // retries without the client certificate first, so a 401 left is the token's)
            // A 401 for `/cacerts` is not the token's: the supervisor serves the CA bundle
            // without authentication (pkg/clientaccess/token.go getCACerts sends no
            // credentials), so the address answering is a plain Kubernetes API server, not a
            // k3s/rke2 supervisor (k3s-io/k3s#3119: an RKE cluster's API server; rke2 joins on
            // 9345) - join-apiserver-unreachable says so.
            let cacerts = d.get("url").is_some_and(|u| u.ends_with("/cacerts"));
            // 403 for the node's certificates: the supervisor refuses the node password
            // (pkg/agent/config/config.go getNodeNamedCrt; catalog `k3s.agent.*-crt-forbidden`)
            let node_crt = d.get("code").is_some_and(|c| c == "403")
                && d.get("url").is_some_and(|u| u.ends_with(".crt"));
            let kind = if d.get("code").is_some_and(|c| c == "401") && !cacerts {
                SignalKind::JoinTokenRejected
            } else if node_crt {
                SignalKind::NodePasswordRejected
            } else {
                SignalKind::JoinServerNotReady
            };
            let hit = (kind, d);
            if !hits.contains(&hit) {
                hits.push(hit);
            }
        }
    }
    // kubectl's `the server doesn't have a resource type "clusters"` in a text about Karmada:
    // one of Karmada's resources asked of an API server that does not serve them (the host
    // cluster's context instead of karmada-apiserver's), concluded like its 404 (catalog
    // `karmada.api-not-served`); elsewhere the line is kubectl's context only
    for m in &matches {
        if m.entry.id == "kubectl.no-resource-type"
            && whole.agent == Some("Karmada")
            && KARMADA_RESOURCES.contains(&m.value("error").trim_matches(['"', '\\']))
        {
            let mut d = details(&[("type", m.value("error").trim_matches('"').to_owned())]);
            d.insert("entry".to_owned(), "karmada.api-not-served".to_owned());
            let hit = (SignalKind::Known, d);
            if !hits.contains(&hit) {
                hits.push(hit);
            }
        }
    }
    server_proxy_dial(l, &mut hits);
    generic_not_served(&mut hits);
    let mut recognised = !matches.is_empty();
    // `kubectl get apiservices` rows pad their columns with runs of spaces: an unavailable
    // APIService (`False (MissingEndpoints)`) is read from the row with single spaces
    if matches.is_empty() && l.contains(" False (") && l.contains("  ") {
        let row = l.split_whitespace().collect::<Vec<_>>().join(" ");
        for m in crate::catalog::match_line(&row)
            .iter()
            .filter(|m| m.entry.id == "apiservice.table-unavailable")
        {
            recognised = true;
            let hit = refine(SignalKind::Known, m, &row, whole);
            if !hits.contains(&hit) {
                hits.push(hit);
            }
        }
    }
    for h in events::classify_line(l) {
        recognised = true;
        if !hits.iter().any(|x| x.0 == h.0) {
            hits.push(h);
        }
    }
    // a scheduler sentence inside a `0/N nodes are available` histogram is the grammar's
    // reason, not a standalone event of its own
    if hits.iter().any(|h| h.0 == SignalKind::FailedScheduling) {
        hits.retain(|h| {
            h.0 != SignalKind::Known
                || !h
                    .1
                    .get("entry")
                    .is_some_and(|e| e.starts_with("scheduler."))
        });
    }
    for h in hami::classify_line(l) {
        recognised = true;
        if !hits.contains(&h) {
            hits.push(h);
        }
    }
    let join = matches.iter().any(|m| m.entry.join);
    (hits, recognised, join)
}

/// kubectl prints the API server's answer as `Error from server (<reason>): <message>` (or
/// `Error from server: <message>`, k8s.io/kubectl pkg/cmd/util/helpers.go): a connection error
/// inside it is the API server's own call, not the client's. For `kubectl logs` the API server
/// fetches `https://<node>:10250/containerLogs/...` from the kubelet and passes its dial error
/// on (`Error from server: Get "https://10.0.0.5:10250/containerLogs/...": dial tcp
/// 10.0.0.5:10250: i/o timeout`): the connection hits of such a line become the catalog's
/// `apiserver.backend-dial-failed` (apiserver-kubelet-unreachable).
fn server_proxy_dial(l: &str, hits: &mut Vec<Hit>) {
    const CONNECTION: [SignalKind; 5] = [
        SignalKind::Refused,
        SignalKind::Timeout,
        SignalKind::NoRoute,
        SignalKind::NoSuchHost,
        SignalKind::ConnectionClosed,
    ];
    let Some(at) = l.find("Error from server") else {
        return;
    };
    let answer = &l[at..];
    if !answer.contains(":10250") || !hits.iter().any(|h| CONNECTION.contains(&h.0)) {
        return;
    }
    hits.retain(|h| !CONNECTION.contains(&h.0));
    let error = answer
        .find("dial tcp")
        .map_or_else(|| answer.to_owned(), |p| answer[p..].trim().to_owned());
    let hit = (
        SignalKind::Known,
        details(&[
            ("entry", "apiserver.backend-dial-failed".to_owned()),
            ("error", error),
        ]),
    );
    if !hits.contains(&hit) {
        hits.push(hit);
    }
}

/// The generic "resource type not served" entries (`kubectl.resource-not-served`, ...,
/// concluding `api-resource-missing`) give way on a line to an entry that concludes another
/// rule for the same fact about one group (PriorityClass's `priority.api-not-served*`,
/// Karmada's API asked of the wrong cluster): one finding a line, the specific one.
fn generic_not_served(hits: &mut Vec<Hit>) {
    let rule_of = |h: &Hit| {
        h.1.get("entry")
            .and_then(|e| crate::catalog::entry(e))
            .map_or("", |e| e.rule)
    };
    let generic = |h: &Hit| rule_of(h) == "api-resource-missing";
    if hits.iter().any(generic)
        && hits
            .iter()
            .any(|h| !generic(h) && !rule_of(h).is_empty() && h.0 != SignalKind::NotFound)
    {
        hits.retain(|h| !generic(h));
    }
}

/// The signal of one catalog match: its placeholders (and `entry`), refined by the family's
/// derivations.
fn refine(kind: SignalKind, m: &crate::catalog::Match, l: &str, whole: &Whole) -> Hit {
    let mut d: BTreeMap<String, String> = m
        .captures
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    d.insert("entry".to_owned(), m.entry.id.to_owned());
    // a validity-window error in a text that shows a kubeadm join (the Ansible or shell
    // wrapper's command line, [discovery]/[preflight] phases): node-clock-skew weighs it
    if kind == SignalKind::TlsExpired && whole.kubeadm {
        d.insert("kubeadm".to_owned(), "true".to_owned());
    }
    // the same while another tool brings a cluster up with certificates it just issued, or
    // when the text says the clocks disagree; and whether the verifying side is a server
    // checking a client's certificate (etcd's `rejected connection from ... tls: failed to
    // verify client's certificate`: etcd-io/etcd embed/config_logging.go / pkg/transport)
    if kind == SignalKind::TlsExpired {
        if let Some(p) = whole.provisioner {
            d.insert("provisioner".to_owned(), p.to_owned());
        }
        if whole.clock_prose {
            d.insert("clock_prose".to_owned(), "true".to_owned());
        }
        if whole.playbook {
            d.insert("playbook".to_owned(), "true".to_owned());
        }
        if l.contains("failed to verify client's certificate")
            || l.contains("rejected connection from")
        {
            d.insert("verifier".to_owned(), "server".to_owned());
        }
    }
    // a runtime handler quoted by %q, possibly escaped inside a logfmt value
    if let Some(h) = d.get_mut("handler") {
        *h = h.trim_matches(['"', '\\']).to_owned();
    }
    let kind = match kind {
        SignalKind::JoinTokenUnknown
        | SignalKind::JoinCaPinMismatch
        | SignalKind::Refused
        | SignalKind::Timeout
        | SignalKind::NoRoute
        | SignalKind::TlsNameMismatch => kubeadm::refine(kind, m, l, whole, &mut d),
        SignalKind::TlsExpired | SignalKind::KubeletCertExpired => {
            kubelet::refine(kind, m, l, &mut d)
        }
        SignalKind::RbacForbidden
        | SignalKind::AnonymousForbidden
        | SignalKind::WebhookDenied
        | SignalKind::QuotaExceeded => client::refine(kind, m, l, &mut d),
        SignalKind::NvmlInitFailed => device_plugin::refine(kind, m, l, &mut d),
        SignalKind::Known
            if m.entry.id.starts_with("webhook.") || m.entry.id.starts_with("provision.") =>
        {
            backends::refine(m, &mut d);
            kind
        }
        SignalKind::Known if m.entry.id.starts_with("kubelet.node-became-not-ready") => {
            kubelet::refine_not_ready(&mut d);
            kind
        }
        SignalKind::Known if m.entry.id.starts_with("toolkit.") => {
            device_plugin::refine_toolkit(m, &mut d);
            kind
        }
        k => k,
    };
    // kubectl with a kubeconfig whose server is a loopback address (the API server's own
    // machine's file, copied elsewhere): the failure is at that address, or names none
    if matches!(
        kind,
        SignalKind::Refused
            | SignalKind::Timeout
            | SignalKind::ConnectionClosed
            | SignalKind::ProtocolMismatch
    ) && let Some(api) = &whole.loopback_api
    {
        let own = ["endpoint", "address", "server"]
            .iter()
            .find_map(|k| d.get(*k).filter(|v| !v.is_empty()).cloned());
        if own.is_none_or(|a| is_loopback(address_host(&a))) {
            d.insert("kubeconfig_loopback".to_owned(), api.clone());
            if whole.copied_kubeconfig {
                d.insert("copied".to_owned(), "true".to_owned());
            }
        }
    }
    // a proxy in the client's path (classify::proxy): the failing hop is the proxy's (an
    // unknown authority behind a proxy: the proxy's own certificate, TLS interception)
    if matches!(
        kind,
        SignalKind::Refused
            | SignalKind::Timeout
            | SignalKind::NoRoute
            | SignalKind::NoSuchHost
            | SignalKind::ConnectionClosed
            | SignalKind::ProtocolMismatch
            | SignalKind::TlsUntrusted
    ) {
        proxy::details(l, whole.proxy.as_ref(), &mut d);
    }
    // who is dialling: a pod reaching the `kubernetes` Service (or the cluster DNS Service)
    // by its cluster IP fails on its node's Service routing or pod network, not on anybody's
    // kubeconfig (classify::service_ip; rules::log_catalog node-runtime-unhealthy)
    let dns_timeout = kind == SignalKind::NoSuchHost && m.entry.id == "go.lookup-dns-timeout";
    if matches!(
        kind,
        SignalKind::Refused
            | SignalKind::Timeout
            | SignalKind::NoRoute
            | SignalKind::ConnectionClosed
    ) || dns_timeout
    {
        let addr = if dns_timeout {
            d.get("dns").cloned()
        } else {
            ["endpoint", "address", "server"]
                .iter()
                .find_map(|k| d.get(*k).filter(|v| !v.is_empty()).cloned())
        };
        if let Some(vip) = service_ip::service_vip(addr.as_deref(), l, whole.in_cluster) {
            d.insert("service_ip".to_owned(), vip);
        }
    }
    // a refusal by a managed service's own policy (classify::platform: GKE Warden, managed
    // OpenShift's webhooks, Azure Policy), and the join tool the text shows, for the remedy
    if matches!(kind, SignalKind::RbacForbidden | SignalKind::WebhookDenied) {
        if let Some(p) = platform::platform_policy(l) {
            d.insert("platform".to_owned(), p.platform.to_owned());
            d.insert("policy".to_owned(), p.policy);
        }
        if let Some(agent) = whole.agent {
            d.entry("agent".to_owned())
                .or_insert_with(|| agent.to_owned());
        }
    }
    // token discovery refused (client::refine): which join tool, for the remedy's target
    if d.get("discovery").is_some_and(|v| v == "cluster-info")
        && let Some(agent) = whole.agent
    {
        d.insert("agent".to_owned(), agent.to_owned());
    }
    // `argocd cluster add`: an error in argocd-server's gRPC reply is argocd-server's own dial
    // (rules::cluster_unreachable argocd_server_dial)
    if matches!(
        kind,
        SignalKind::Refused
            | SignalKind::Timeout
            | SignalKind::NoRoute
            | SignalKind::NoSuchHost
            | SignalKind::ConnectionClosed
    ) && whole.agent == Some("Argo CD")
        && l.contains("rpc error: code = ")
    {
        d.insert("dialer".to_owned(), "argocd-server".to_owned());
    }
    // an agent that connects from elsewhere, told to reach a loopback address
    if matches!(
        kind,
        SignalKind::Refused
            | SignalKind::Timeout
            | SignalKind::NoRoute
            | SignalKind::ConnectionClosed
    ) && let Some(agent) = whole.agent
    {
        let addr = ["endpoint", "address", "server"]
            .iter()
            .find_map(|k| d.get(*k).filter(|v| !v.is_empty()).cloned());
        if let Some(addr) = addr {
            let host = address_host(&addr).to_owned();
            if is_loopback(&host) {
                d.insert("loopback".to_owned(), host);
                d.insert("agent".to_owned(), agent.to_owned());
            }
        }
    }
    (kind, d)
}

/// A join context beyond the catalog's join entries: kubeadm texts and an `error execution
/// phase` line of a text that shows a kubeadm join.
fn is_join_context(l: &str, whole: &Whole) -> bool {
    l.contains("cluster-info")
        || l.contains("[discovery]")
        || l.contains("couldn't validate the identity of the API Server")
        || l.contains("kubeadm")
        || (whole.kubeadm && l.starts_with("error execution phase"))
}

/// One member of a pretty-printed JSON object on its own line (`"level": "ERROR",`): its key
/// and its value (a string unescaped, anything else as written).
fn json_member(raw: &str) -> Option<(&str, String)> {
    let t = raw.trim().trim_end_matches(',');
    let rest = t.strip_prefix('"')?;
    let (key, after) = rest.split_once('"')?;
    let value = after.trim_start().strip_prefix(':')?.trim();
    if key.is_empty() || key.contains(char::is_whitespace) || value.is_empty() {
        return None;
    }
    let value = if value.starts_with('"') {
        serde_json::from_str::<String>(value).ok()?
    } else {
        value.to_owned()
    };
    Some((key, value))
}

/// The text of a JSON line (`text`, `stderr`, `message` field), or the line itself; a field
/// that is itself a JSON object (a Status body captured as text) is opened in turn. A line
/// that is one message member of a pretty-printed record (`"message": "...\n",`) gives its
/// unescaped value.
fn inner_text(raw: &str) -> String {
    if let Some((key, value)) = json_member(raw)
        && matches!(
            key,
            "message" | "msg" | "text" | "stderr" | "error" | "err" | "log"
        )
        && !value.starts_with('{')
    {
        return value;
    }
    let mut t = raw.trim().to_owned();
    for _ in 0..3 {
        let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(&t) else {
            break;
        };
        match ["text", "stderr", "message"]
            .iter()
            .find_map(|k| m.get(*k).and_then(serde_json::Value::as_str))
        {
            Some(s) => t = s.trim().to_owned(),
            None => break,
        }
    }
    if t.starts_with('{') || raw.trim().starts_with('{') {
        t
    } else {
        raw.to_owned()
    }
}

/// The host field of a syslog/journal line (`Jul 24 11:45:25 ubuntu kubelet[8442]: ...`).
pub(crate) fn journal_host(l: &str) -> Option<String> {
    let mut it = l.split_whitespace();
    let month = it.next()?;
    if month.len() != 3 || !month.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let day = it.next()?;
    if !day.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let time = it.next()?;
    if time.matches(':').count() != 2 {
        return None;
    }
    let host = it.next()?;
    let proc_ = it.next()?;
    if proc_.contains('[') || proc_.ends_with(':') {
        Some(host.to_owned())
    } else {
        None
    }
}

/// `key "value"` -> `value` (first occurrence after `key`).
pub(crate) fn quoted_after(l: &str, key: &str) -> Option<String> {
    let rest = &l[l.find(key)? + key.len()..];
    let start = rest.find('"')? + 1;
    let end = rest[start..].find('"')? + start;
    Some(rest[start..end].to_owned())
}

/// The `host:port` after `dial tcp `.
pub(crate) fn dial_endpoint(l: &str) -> Option<String> {
    let rest = &l[l.find("dial tcp ")? + "dial tcp ".len()..];
    Some(
        rest.split_whitespace()
            .next()?
            .trim_end_matches(':')
            .to_owned(),
    )
}

pub(crate) fn details(pairs: &[(&str, String)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_failures_after_the_programs_fatal_error_are_explained() {
        let text = "F0207 12:25:38.672092   21652 server.go:273] failed to run Kubelet: failed to create kubelet: misconfiguration: kubelet cgroup driver: \"cgroupfs\" is different from docker cgroup driver: \"systemd\"\nkubelet.service: main process exited, code=exited, status=255/n/a\nUnit kubelet.service entered failed state.\nkubelet.service failed.\n";
        let s = classify_all("j", text);
        assert!(
            s.iter().all(|s| s.kind != SignalKind::Unrecognised),
            "{s:#?}"
        );
        // without the kubelet's own error they stay unrecognised errors
        let s = classify_all(
            "j",
            "kubelet.service: main process exited, code=exited, status=255/n/a\nkubelet.service failed.\n",
        );
        assert_eq!(
            s.iter()
                .filter(|s| s.kind == SignalKind::Unrecognised)
                .count(),
            2,
            "{s:#?}"
        );
        // another unit's failure is not explained by the kubelet's
        let s = classify_all(
            "j",
            "F0207 12:25:38.672092 1 server.go:273] failed to run Kubelet: x\ncontainerd.service failed.\n",
        );
        assert!(
            s.iter().any(|s| s.kind == SignalKind::Unrecognised),
            "{s:#?}"
        );
    }

    #[test]
    fn a_wrapper_around_an_unknown_error_is_never_dropped() {
        let info = "level=info msg=\"Waiting to retrieve agent configuration; server is not ready: something nobody has seen\"";
        let s = classify_all("agent.log", info);
        let u: Vec<_> = s
            .iter()
            .filter(|s| s.kind == SignalKind::Unrecognised)
            .collect();
        assert_eq!(u.len(), 1, "{s:#?}");
        assert_eq!(u[0].detail("wrapper"), "k3s.agent.waiting-config");
        // a wrapper around a known message, or around a context line, is read
        let known = "level=info msg=\"Waiting to retrieve agent configuration; server is not ready: Node password rejected, duplicate hostname or contents of '/etc/rancher/node/password' may not match server node-passwd entry, try enabling a unique node name with the --with-node-id flag\"";
        assert!(
            !classify_all("agent.log", known)
                .iter()
                .any(|s| s.kind == SignalKind::Unrecognised)
        );
        let preflight = "error execution phase preflight: [preflight] Some fatal errors occurred:";
        assert!(
            !classify_all("join.log", preflight)
                .iter()
                .any(|s| s.kind == SignalKind::Unrecognised)
        );
        let noise =
            "http: TLS handshake error from 10.0.0.188:44072: remote error: tls: bad certificate";
        assert!(
            !classify_all("server.log", noise)
                .iter()
                .any(|s| s.kind == SignalKind::Unrecognised)
        );
    }

    #[test]
    fn journal_host_parses() {
        assert_eq!(
            journal_host("Jul 24 11:45:25 ubuntu kubelet[8442]: W0724 x").as_deref(),
            Some("ubuntu")
        );
        assert_eq!(journal_host("I0608 15:40:44.436761 240 x"), None);
    }

    #[test]
    fn json_lines_use_inner_text() {
        let s = classify(
            "x.jsonl",
            r#"{"id":"a","text":"error: You must be logged in to the server (Unauthorized)"}"#,
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].kind, SignalKind::Unauthorized);
    }

    #[test]
    fn wrapped_scheduler_messages_are_read_as_one() {
        // a terminal or issue-editor wrap after `}, ` (radondb#395 shape) and mid-message
        let s = classify_all(
            "t",
            "0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, \nthat the pod didn't tolerate, 2 node(s) had volume node affinity conflict.\n",
        );
        let f: Vec<_> = s
            .iter()
            .filter(|s| s.kind == SignalKind::FailedScheduling)
            .collect();
        assert_eq!(f.len(), 1, "{s:#?}");
        assert!(
            f[0].detail("reasons")
                .contains("2 node(s) had volume node affinity conflict"),
            "{:?}",
            f[0].details
        );
        assert!(
            s.iter()
                .any(|s| s.kind == SignalKind::VolumeNodeAffinityConflict)
        );
        // a whole message and the next record are not joined
        let s = classify_all(
            "t",
            "0/2 nodes are available: 2 Insufficient cpu.\n0/2 nodes are available: 2 Too many pods.\n",
        );
        assert_eq!(
            s.iter()
                .filter(|s| s.kind == SignalKind::FailedScheduling)
                .count(),
            2
        );
        // a message cut for good (no end) stays as it is
        let s = classify_all(
            "t",
            "0/2 nodes are available: 2 Insufficient cpu,\n\nName: x\n",
        );
        assert_eq!(
            s.iter()
                .filter(|s| s.kind == SignalKind::FailedScheduling)
                .count(),
            1
        );
    }

    #[test]
    fn continuation_lines_are_never_judged_alone() {
        let text = "\t[ERROR CRI]: container runtime is not running: output: E0502 08:12:08.411082    4213 remote_runtime.go:925] \"Status from runtime service failed\" err=\"rpc error: code = Unimplemented desc = unknown service runtime.v1alpha2.RuntimeService\"\ntime=\"2023-05-02T08:12:08Z\" level=fatal msg=\"getting status of runtime: rpc error: code = Unimplemented desc = unknown service runtime.v1alpha2.RuntimeService\"\n, error: exit status 1\nE0101 12:00:00.000000 1 x.go:1] something nobody has seen failed\n";
        let s = classify_all("k", text);
        let unrecognised: Vec<usize> = s
            .iter()
            .filter(|s| s.kind == SignalKind::Unrecognised)
            .map(|s| s.line)
            .collect();
        assert_eq!(unrecognised, vec![4], "{s:#?}");
        // mount-utils: the Output line continues and still names the reason
        let m = classify_all(
            "m",
            "E0618 14:42:47.959637 1 mount_linux.go:230] Mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs x:/y /tmp/z\nOutput: mount.nfs: Resource temporarily unavailable\n",
        );
        assert!(m.iter().all(|s| s.kind != SignalKind::Unrecognised));
        assert!(
            m.iter()
                .any(|s| s.detail("entry") == "nfs.failed" && s.line == 4)
        );
    }

    #[test]
    fn k3s_supervisor_status_and_loopback_agents() {
        let s = classify(
            "j",
            "rke2[1841]: time=\"2022-07-07T10:14:07Z\" level=info msg=\"Waiting to retrieve agent configuration; server is not ready: https://127.0.0.1:6444/v1-rke2/serving-kubelet.crt: 503 Service Unavailable\"",
        );
        let j = s
            .iter()
            .find(|s| s.kind == SignalKind::JoinServerNotReady)
            .expect("status");
        assert_eq!(
            (j.detail("code"), j.detail("status")),
            ("503", "Service Unavailable")
        );
        assert!(j.join);
        let reduced = classify(
            "r",
            "Waiting to retrieve agent configuration; server is not ready: https://127.0.0.1:6444/v1-rke2/serving-kubelet.crt: 503 Service Unavailable level=\"info\"",
        );
        assert_eq!(reduced[0].detail("status"), "Service Unavailable");
        // the agent-side load balancer on 127.0.0.1 is not an Argo CD loopback
        assert!(j.detail("loopback").is_empty());
        let a = classify(
            "a",
            "$ argocd cluster add kind-kind\nFATA[0001] rpc error: code = Unknown desc = Get \"https://127.0.0.1:32768/version?timeout=32s\": dial tcp 127.0.0.1:32768: connect: connection refused",
        );
        let r = a
            .iter()
            .find(|s| s.kind == SignalKind::Refused)
            .expect("refused");
        assert_eq!(
            (r.detail("loopback"), r.detail("agent")),
            ("127.0.0.1", "Argo CD")
        );
        assert_eq!(address_host("[::1]:6443"), "::1");
        assert_eq!(
            address_host("\"https://localhost:8443/version\""),
            "localhost"
        );
        // a kubectl on the control plane itself: loopback is right there
        let k = classify("k", "dial tcp 127.0.0.1:6443: connect: connection refused");
        assert!(k[0].detail("loopback").is_empty());
    }

    #[test]
    fn dial_endpoint_parses() {
        assert_eq!(
            dial_endpoint("dial tcp 10.0.2.15:6443: connect: connection refused").as_deref(),
            Some("10.0.2.15:6443")
        );
    }
}

#[cfg(test)]
mod wrapped_tests {
    use super::*;

    #[test]
    fn a_wrapped_quota_error_is_read_as_one() {
        for text in [
            "Error from server (Forbidden): error when creating \"train.yaml\": pods \"train-0\" is forbidden: exceeded quota: team-quota,\nrequested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=4,\nlimited: requests.nvidia.com/gpu=4\n",
            "Error creating: pods \"train-7d9\" is forbidden: exceeded quota: team-quota, requested: requests.nvidia.com/gpu=2, used:\nrequests.nvidia.com/gpu=4, limited: requests.nvidia.com/gpu=4\n",
        ] {
            let s = classify_all("q", text);
            let q = s
                .iter()
                .find(|s| s.kind == SignalKind::QuotaExceeded)
                .unwrap_or_else(|| panic!("{s:#?}"));
            assert!(q.text.contains("limited:"), "{q:#?}");
            assert!(
                !s.iter().any(|s| s.kind == SignalKind::Unrecognised),
                "{s:#?}"
            );
        }
        // a line ending with a comma that is no error is left alone
        let s = classify_all("q", "nodes: a, b,\nc and d\n");
        assert!(!s.iter().any(|s| s.text.contains("b, c")), "{s:#?}");
    }
}
