//! The message catalog: every known message of the programs people paste logs from (kubeadm,
//! kubelet, k3s/rke2 agents, device plugins and GPU operator validators, CSI and NFS mount
//! helpers, client-go/kubectl, and the Karmada, Rancher and Argo CD cluster-join agents), each
//! a template with placeholders taken from the upstream source that prints it.
//!
//! Every [`Entry`] names the repository and file the text is printed from, the versions that
//! print it, and the conclusion drawn from it: the [`SignalKind`] the classifiers emit, the rule
//! id that turns it into a finding, the finding's subject (possibly built from the
//! placeholders), its severity, and, for conclusions drawn by the catalog's own rules
//! (`rules::log_catalog`), the cause and the one remedy.
//!
//! [`match_line`] reads one already-cleaned line (no klog/journald prefix needed; templates
//! are found anywhere in the line) and returns the matching entries with the placeholder values
//! they extract. Entries of one `group` exclude each other on a line (the first in table order
//! wins, so specific texts come before generic ones), and an `exclusive` entry keeps the other
//! signalling entries of the line out (a CSI timeout is a mount failure, not an unreachable
//! API server). [`closest`] finds the entry whose literal text is nearest to a line nothing
//! matched, for the "not recognised" note.

pub mod accelerators;
mod entries;
mod healthy;
#[cfg(test)]
mod join_wordings;
#[cfg(test)]
mod sweep;
mod verdicts;
#[cfg(test)]
mod version_wordings;

use std::sync::OnceLock;

use cube_quota::msgtemplate::{Captures, Template};

use crate::Severity;
use crate::classify::SignalKind;

pub use entries::ENTRIES;
pub(crate) use entries::{
    CSR_APPROVAL_REMEDY, CUDA_APP_NO_GPU_REMEDY, CUDA_APP_OLD_DRIVER_REMEDY, NVML_LIBRARY_REMEDY,
    NVML_VERSION_MISMATCH_REMEDY, TOOLKIT_REMEDY,
};
pub use healthy::HEALTHY;
pub use verdicts::EXTRA;
pub(crate) use verdicts::{CERTS_RENEW_REMEDY, CONTROL_PLANE_WAIT_REMEDY};

/// The program (family of messages) an entry belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Family {
    /// `kubeadm join` / `init` (discovery, token, preflight, kubelet-check).
    Kubeadm,
    /// The kubelet (bootstrap, certificates, registration, PLEG, eviction, CNI, runtime).
    Kubelet,
    /// k3s and rke2 agents.
    K3s,
    /// The NVIDIA device plugin.
    NvidiaDevicePlugin,
    /// The NVIDIA GPU operator's validators and the CUDA validation workload.
    GpuOperator,
    /// The NVIDIA container toolkit (libnvidia-container's CLI run as an OCI hook).
    NvidiaContainerToolkit,
    /// The Intel GPU device plugin.
    IntelDevicePlugin,
    /// The AMD (ROCm) device plugin.
    AmdDevicePlugin,
    /// HAMi (GPU sharing) device plugin and scheduler.
    Hami,
    /// Huawei's Ascend (NPU) device plugin.
    AscendDevicePlugin,
    /// Device plugins of any vendor built on kubevirt's device-plugin-manager library (the AMD
    /// ROCm plugin among them), and the kubelet's device manager answering them.
    DevicePlugin,
    /// CSI drivers, the kubelet's volume manager and the NFS/mount helpers.
    Storage,
    /// client-go, kubectl, the API server's answers and Go's net/TLS errors.
    Client,
    /// Admission (ResourceQuota) and controllers' event texts.
    Admission,
    /// kube-scheduler sentences outside its `0/N nodes are available` grammar.
    KubeScheduler,
    /// Kueue admission texts.
    Kueue,
    /// Volcano (batch scheduler) texts beyond its FitErrors (which the scheduler grammar reads).
    Volcano,
    /// Apache YuniKorn (scheduler) texts.
    YuniKorn,
    /// NVIDIA's KAI scheduler (PodGroup events).
    Kai,
    /// Node autoscalers: the Kubernetes cluster-autoscaler and Karpenter.
    Autoscaler,
    /// Karmada (karmadactl register, cluster status controller).
    Karmada,
    /// Rancher's cluster and node agents.
    Rancher,
    /// Argo CD (cluster add, cluster connection).
    ArgoCd,
    /// Open Cluster Management (clusteradm join).
    Ocm,
    /// Container runtimes (containerd, CRI-O, Docker / cri-dockerd) answering the kubelet.
    ContainerRuntime,
    /// Configuration management and provisioning tools that wrap the programs above (Ansible,
    /// Puppet, Terraform, cloud-init): their own result lines.
    ConfigManagement,
    /// etcd: its gRPC errors as the API server passes them on, and `etcdctl` output.
    Etcd,
    /// Accelerator self-checks of ML frameworks and vendor tools run in a pod or on a host
    /// (PaddlePaddle's `run_check()`, Huawei's `npu-smi`).
    AcceleratorCheck,
    /// systemd: `systemctl status` of a unit and the journal's job messages.
    Systemd,
}

impl Family {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Kubeadm => "kubeadm",
            Family::Kubelet => "kubelet",
            Family::K3s => "k3s",
            Family::NvidiaDevicePlugin => "nvidia-device-plugin",
            Family::GpuOperator => "gpu-operator",
            Family::NvidiaContainerToolkit => "nvidia-container-toolkit",
            Family::IntelDevicePlugin => "intel-device-plugin",
            Family::AmdDevicePlugin => "amd-device-plugin",
            Family::Hami => "hami",
            Family::AscendDevicePlugin => "ascend-device-plugin",
            Family::DevicePlugin => "device-plugin",
            Family::Storage => "storage",
            Family::Client => "client",
            Family::Admission => "admission",
            Family::KubeScheduler => "kube-scheduler",
            Family::Kueue => "kueue",
            Family::Volcano => "volcano",
            Family::YuniKorn => "yunikorn",
            Family::Kai => "kai-scheduler",
            Family::Autoscaler => "autoscaler",
            Family::Karmada => "karmada",
            Family::Rancher => "rancher",
            Family::ArgoCd => "argo-cd",
            Family::Ocm => "ocm",
            Family::ContainerRuntime => "container-runtime",
            Family::ConfigManagement => "config-management",
            Family::Etcd => "etcd",
            Family::AcceleratorCheck => "accelerator-check",
            Family::Systemd => "systemd",
        }
    }
}

/// One known message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Stable id (`kubeadm.token.jws-not-found`).
    pub id: &'static str,
    /// The program that prints it.
    pub family: Family,
    /// The text, a [`Template`] (`{name}` any text, `{name:w}` one word, `{{`/`}}` braces).
    pub template: &'static str,
    /// Upstream repository (`kubernetes/kubernetes`).
    pub repo: &'static str,
    /// File the text is printed from, in that repository.
    pub file: &'static str,
    /// Versions that print this wording.
    pub versions: &'static str,
    /// What the classifiers emit; `None`: recognised context with no conclusion of its own
    /// (a wrapper such as `Unable to connect to the server: <error>`, whose inner error is an
    /// entry of its own).
    pub kind: Option<SignalKind>,
    /// The rule that concludes from it (empty when `kind` is `None`).
    pub rule: &'static str,
    /// The finding's severity.
    pub severity: Severity,
    /// The finding's subject built from placeholders (`Node/{node}`); empty: the object the
    /// line is about (journal host, event object), else the log source.
    pub subject: &'static str,
    /// Entries of one group exclude each other on a line (first in table order wins); the
    /// catalog's own rules draw one finding per subject and group, except for groups named
    /// `line:...`, which only order the entries of a line (one finding per entry).
    pub group: &'static str,
    /// A match keeps the line's other signalling entries out.
    pub exclusive: bool,
    /// The template must end the line (`: Unauthorized`).
    pub at_end: bool,
    /// The template must start the line, after an optional `error: ` / `Error: ` (a CLI's own
    /// message, never one quoted inside a daemon's log line).
    pub at_start: bool,
    /// A line of a node joining a cluster (kubeadm discovery, k3s agent), not a client's.
    pub join: bool,
    /// The cause, with `{name}` placeholders (conclusions of the catalog's own rules; for
    /// entries concluded by other rules, what they conclude).
    pub cause: &'static str,
    /// The one remedy, with `{name}` placeholders.
    pub remedy: &'static str,
    /// Sample placeholder values for the render-and-read-back test (defaults by name).
    pub samples: &'static [(&'static str, &'static str)],
    /// A context entry (no `kind`) whose line is fully understood on its own (a scheduler's
    /// per-node refusal that its event aggregates), unlike a wrapper whose inner error carries
    /// the meaning: an input holding such a line was read, not unrecognised.
    pub complete: bool,
    /// A message of the healthy catalog ([`HEALTHY`]): a program saying that a step worked
    /// (registered, joined, validated, running). Conclusion "known, healthy": no finding; the
    /// line counts as read. Never matched on a line that is an error by its own marking or by
    /// its words ([`marked_error`], [`looks_like_error`]), so a healthy text can never hide an
    /// error line.
    pub healthy: bool,
}

impl Entry {
    /// An entry that is recognised context only (no conclusion).
    pub const fn new(
        id: &'static str,
        family: Family,
        template: &'static str,
        repo: &'static str,
        file: &'static str,
        versions: &'static str,
    ) -> Self {
        Entry {
            id,
            family,
            template,
            repo,
            file,
            versions,
            kind: None,
            rule: "",
            severity: Severity::Info,
            subject: "",
            group: "",
            exclusive: false,
            at_end: false,
            at_start: false,
            join: false,
            cause: "",
            remedy: "",
            samples: &[],
            complete: false,
            healthy: false,
        }
    }
    /// Concludes `kind`, drawn by `rule` at `severity`.
    pub const fn to(mut self, kind: SignalKind, rule: &'static str, severity: Severity) -> Self {
        self.kind = Some(kind);
        self.rule = rule;
        self.severity = severity;
        self
    }
    /// Sets the cause and remedy.
    pub const fn says(mut self, cause: &'static str, remedy: &'static str) -> Self {
        self.cause = cause;
        self.remedy = remedy;
        self
    }
    /// Sets the precedence group.
    pub const fn group(mut self, group: &'static str) -> Self {
        self.group = group;
        self
    }
    /// Marks the entry exclusive.
    pub const fn exclusive(mut self) -> Self {
        self.exclusive = true;
        self
    }
    /// The template must end the line.
    pub const fn at_end(mut self) -> Self {
        self.at_end = true;
        self
    }
    /// The template must start the line (see [`Entry::at_start`]).
    pub const fn at_start(mut self) -> Self {
        self.at_start = true;
        self
    }
    /// A node-join line.
    pub const fn join(mut self) -> Self {
        self.join = true;
        self
    }
    /// The subject template.
    pub const fn subject(mut self, subject: &'static str) -> Self {
        self.subject = subject;
        self
    }
    /// The line is understood on its own (see [`Entry::complete`]).
    pub const fn complete(mut self) -> Self {
        self.complete = true;
        self
    }
    /// A healthy message that reports an outcome (registered, joined, validated, running; see
    /// [`Entry::healthy`]): also [`Entry::complete`], so an input holding it was read.
    pub const fn healthy(mut self) -> Self {
        self.complete = true;
        self.healthy = true;
        self
    }
    /// A healthy message that reports progress only (`Loading NVML`, `Starting OS watcher.`,
    /// `Attempting to register node`): known and never an error, but it proves nothing worked,
    /// so it alone does not make an input read (a failure the catalog does not know may follow
    /// it at info level).
    pub const fn progress(mut self) -> Self {
        self.complete = false;
        self.healthy = true;
        self
    }
    /// Sample values for the test.
    pub const fn samples(mut self, samples: &'static [(&'static str, &'static str)]) -> Self {
        self.samples = samples;
        self
    }

    /// The compiled template.
    pub fn compiled(&self) -> &'static Template {
        &compiled()[self.index()].1
    }

    fn index(&self) -> usize {
        all().position(|e| e.id == self.id).unwrap_or(0)
    }

    /// This entry's cause and remedy with the values `signal` extracted filled in
    /// ([`Entry::fill`] over [`crate::classify::Signal::captures`]).
    pub fn cause_and_remedy(&self, signal: &crate::classify::Signal) -> (String, String) {
        let mut caps = signal.captures();
        // a placeholder of the entry's own template that matched empty text (`{rest}` of
        // `queue resource quota insufficient{rest}` on the bare message) is empty, not unknown
        for name in self.compiled().holes() {
            if !caps.iter().any(|(k, _)| k == name) {
                caps.push((name.to_owned(), String::new()));
            }
        }
        (
            Self::fill(self.cause, &caps),
            Self::fill(self.remedy, &caps),
        )
    }

    /// `text` (a cause, remedy or subject template) with `caps` filled in; placeholders
    /// without a value stay as `{name}`.
    pub fn fill(text: &str, caps: &Captures) -> String {
        match Template::new(text) {
            Ok(t) => t.render(|n| caps.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str())),
            Err(_) => text.to_owned(),
        }
    }
}

/// Every entry: the error catalog ([`ENTRIES`], then [`EXTRA`]), then the healthy one ([`HEALTHY`]).
pub fn all() -> impl Iterator<Item = &'static Entry> {
    ENTRIES.iter().chain(EXTRA.iter()).chain(HEALTHY.iter())
}

/// Every entry with its compiled template (an entry whose template does not parse is skipped
/// here and reported by the catalog's test).
fn compiled() -> &'static [(&'static Entry, Template)] {
    static C: OnceLock<Vec<(&'static Entry, Template)>> = OnceLock::new();
    C.get_or_init(|| {
        all()
            .map(|e| {
                let t = Template::new(e.template).unwrap_or_else(|_| {
                    // never matches: a literal no line contains
                    Template::new("\u{1}invalid catalog template\u{1}").expect("literal")
                });
                (e, t)
            })
            .collect()
    })
}

/// The prefilter of [`match_line`]: one Aho-Corasick automaton over every entry's anchor (the
/// longest literal of its template, which any line it matches must contain), so a line is
/// scanned once for all of them and only the entries whose anchor it holds are tried. Trying
/// every template on every line cost about 700 substring searches a line (3 ms a line in a
/// debug build: 65 s for a 20,000-line kubelet journal).
struct Prefilter {
    automaton: aho_corasick::AhoCorasick,
    /// For each anchor (pattern id), the entries (indexes into [`compiled`]) it anchors.
    entries_of: Vec<Vec<usize>>,
    /// Entries with no literal text at all (tried on every line).
    always: Vec<usize>,
    /// The words of each entry's literal text, for [`closest`].
    words: Vec<Vec<String>>,
}

fn prefilter() -> &'static Prefilter {
    static P: OnceLock<Prefilter> = OnceLock::new();
    P.get_or_init(|| {
        let mut anchors: Vec<&'static str> = Vec::new();
        let mut entries_of: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        let mut words_of = Vec::new();
        for (i, (_, t)) in compiled().iter().enumerate() {
            words_of.push(t.literals().flat_map(words).collect());
            let Some(anchor) = t
                .literals()
                .max_by_key(|l| l.len())
                .filter(|l| !l.is_empty())
            else {
                always.push(i);
                continue;
            };
            match anchors.iter().position(|a| *a == anchor) {
                Some(p) => entries_of[p].push(i),
                None => {
                    anchors.push(anchor);
                    entries_of.push(vec![i]);
                }
            }
        }
        match aho_corasick::AhoCorasick::new(&anchors) {
            Ok(automaton) => Prefilter {
                automaton,
                entries_of,
                always,
                words: words_of,
            },
            // cannot happen for a few hundred short patterns; without the automaton every
            // entry is tried, as before
            Err(_) => Prefilter {
                automaton: aho_corasick::AhoCorasick::new([""; 0])
                    .unwrap_or_else(|_| unreachable!("an empty automaton always builds")),
                entries_of: Vec::new(),
                always: (0..compiled().len()).collect(),
                words: words_of,
            },
        }
    })
}

/// The entries (indexes into [`compiled`], in table order) whose anchor `line` holds: a line
/// that holds no anchor costs one scan and no template match.
fn candidates(line: &str) -> Vec<usize> {
    let p = prefilter();
    let mut out = p.always.clone();
    let mut seen_anchor = vec![false; p.entries_of.len()];
    for m in p.automaton.find_overlapping_iter(line) {
        let a = m.pattern().as_usize();
        if let (Some(false), Some(es)) = (seen_anchor.get(a).copied(), p.entries_of.get(a)) {
            seen_anchor[a] = true;
            out.extend_from_slice(es);
        }
    }
    out.sort_unstable();
    out
}

/// One entry found in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Match {
    /// The entry.
    pub entry: &'static Entry,
    /// Placeholder values, in template order.
    pub captures: Captures,
    /// Byte range of the match in the line.
    pub range: std::ops::Range<usize>,
}

impl Match {
    /// A placeholder value, or `""`.
    pub fn value(&self, name: &str) -> &str {
        self.captures
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// The entries matching one line (already cleaned of log prefixes by the caller, though a
/// prefix does no harm), in table order, after group and exclusivity rules.
pub fn match_line(line: &str) -> Vec<Match> {
    let mut out: Vec<Match> = Vec::new();
    let mut groups: Vec<&str> = Vec::new();
    let trimmed_len = line.trim_end().len();
    let all = compiled();
    // a line that is an error by its own marking, or that holds an error word, is never read
    // as healthy (computed once, and only for a line that holds a healthy entry's anchor)
    let mut marked: Option<bool> = None;
    for (e, t) in candidates(line).into_iter().filter_map(|i| all.get(i)) {
        if !e.group.is_empty() && groups.contains(&e.group) {
            continue;
        }
        if e.healthy && *marked.get_or_insert_with(|| marked_error(line) || looks_like_error(line))
        {
            continue;
        }
        let Some((range, captures)) = t.find(line) else {
            continue;
        };
        if e.at_end && range.end != trimmed_len {
            continue;
        }
        if e.at_start {
            let before = line[..range.start].trim();
            let before = before.strip_suffix(':').map_or(before, |b| b.trim_end());
            if !(before.is_empty() || before.eq_ignore_ascii_case("error")) {
                continue;
            }
        }
        if !e.group.is_empty() {
            groups.push(e.group);
        }
        out.push(Match {
            entry: e,
            captures,
            range,
        });
    }
    if out.iter().any(|m| m.entry.exclusive) {
        out.retain(|m| m.entry.exclusive || m.entry.kind.is_none());
    }
    if !out.iter().any(|m| m.entry.kind.is_some())
        && let Some(body) = truncated_body(line)
    {
        out.extend(match_truncated(body));
    }
    out
}

/// The text of a line a pager or `systemctl status` cut: `journalctl` through `less` ends a cut
/// line with `>`, `systemctl status` with `…` (or `...` once copied as ASCII). `None` when the
/// line shows no such mark, or when its `>` closes a `<...>` token (`<none>`).
pub fn truncated_body(line: &str) -> Option<&str> {
    let t = line.trim_end();
    let body = t
        .strip_suffix('>')
        .or_else(|| t.strip_suffix('\u{2026}'))
        .or_else(|| t.strip_suffix("..."))?;
    if t.ends_with('>')
        && body
            .rfind('<')
            .is_some_and(|p| !body[p..].contains(char::is_whitespace))
    {
        return None;
    }
    Some(body.trim_end())
}

/// Literal text a cut line must show of a template before the cut for it to count (so that a
/// few common words never match).
const TRUNCATED_MIN_LITERAL: usize = 30;

/// Entries whose template the cut text `body` renders up to its cut: the line ends inside one
/// of the template's literals, everything before matches, and at least
/// [`TRUNCATED_MIN_LITERAL`] characters of literal text are shown. Entries that must end the
/// line are skipped (the cut hides their end). Placeholders after the cut stay empty; one
/// match per group (table order), as for whole lines.
fn match_truncated(body: &str) -> Vec<Match> {
    use cube_quota::msgtemplate::Piece;
    let escape = |l: &str| l.replace('{', "{{").replace('}', "}}");
    let mut out: Vec<Match> = Vec::new();
    let mut groups: Vec<&str> = Vec::new();
    for (e, t) in compiled() {
        if e.at_end || e.healthy || (!e.group.is_empty() && groups.contains(&e.group)) {
            continue;
        }
        let pieces = t.pieces();
        let mut before = String::new();
        let mut literal_len = 0usize;
        let mut found = None;
        'pieces: for (i, p) in pieces.iter().enumerate() {
            match p {
                Piece::Literal(lit) => {
                    // longest cut first; the whole literal is not a cut (a following
                    // placeholder could take the rest)
                    for k in (1..lit.len()).rev() {
                        if !lit.is_char_boundary(k) || literal_len + k < TRUNCATED_MIN_LITERAL {
                            continue;
                        }
                        let cut = &lit[..k];
                        if !body.ends_with(cut) {
                            continue;
                        }
                        let Ok(prefix) = Template::new(&format!("{before}{}", escape(cut))) else {
                            continue;
                        };
                        if let Some((range, captures)) = prefix.find(body)
                            && range.end == body.len()
                        {
                            found = Some((range, captures));
                            break 'pieces;
                        }
                    }
                    let _ = i;
                    before.push_str(&escape(lit));
                    literal_len += lit.len();
                }
                Piece::Hole { name, word } => {
                    before.push('{');
                    before.push_str(name);
                    if *word {
                        before.push_str(":w");
                    }
                    before.push('}');
                }
                _ => break,
            }
        }
        if let Some((range, captures)) = found {
            if !e.group.is_empty() {
                groups.push(e.group);
            }
            out.push(Match {
                entry: e,
                captures,
                range,
            });
        }
    }
    out
}

/// The entry by id.
pub fn entry(id: &str) -> Option<&'static Entry> {
    all().find(|e| e.id == id)
}

/// Words of a text, lowercased, for closeness.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_lowercase)
        .collect()
}

/// The entry nearest to `line` by shared words of its literal text (a Dice coefficient over
/// words of three letters or more), with the score in 0..=1; `None` when no entry shares two
/// words with the line.
///
/// Cost: proportional to the postings of the line's own words in an inverted index built once
/// (`closest_index`), not to the size of the catalog; an unknown line in a day of
/// `journalctl -u kubelet` costs microseconds. The answer is the one a scan of every entry in
/// catalog order gives (first best score, ties broken by more shared words).
pub fn closest(line: &str) -> Option<(&'static Entry, f64)> {
    let lw = words(line);
    if lw.is_empty() {
        return None;
    }
    let line_words: std::collections::HashSet<&str> = lw.iter().map(String::as_str).collect();
    let index = closest_index();
    // shared words per entry: a template word counts as often as the template holds it
    let mut shared: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for w in &line_words {
        for &(entry, times) in index.postings.get(*w).into_iter().flatten() {
            *shared.entry(entry).or_default() += times;
        }
    }
    let mut touched: Vec<(usize, usize)> = shared.into_iter().filter(|(_, n)| *n >= 2).collect();
    touched.sort_unstable();
    let entries = compiled();
    let mut best: Option<(&'static Entry, f64, usize)> = None;
    for (i, n) in touched {
        let score = 2.0 * n as f64 / (index.lengths[i] + lw.len()) as f64;
        if best.is_none_or(|(_, s, m)| score > s || (score == s && n > m)) {
            best = Some((entries[i].0, score, n));
        }
    }
    best.map(|(e, s, _)| (e, s))
}

/// The inverted index behind [`closest`]: for each word of an error template's literal text, the
/// entries (indexes into [`compiled`]) that hold it and how many times; healthy templates are
/// left out (the closest known message of an unknown error line is an error template: a healthy
/// text would tell nothing about what went wrong).
struct ClosestIndex {
    postings: std::collections::HashMap<String, Vec<(usize, usize)>>,
    /// The number of words of each entry's literal text (the Dice denominator's template part).
    lengths: Vec<usize>,
}

fn closest_index() -> &'static ClosestIndex {
    static I: OnceLock<ClosestIndex> = OnceLock::new();
    I.get_or_init(|| {
        let mut postings: std::collections::HashMap<String, Vec<(usize, usize)>> =
            std::collections::HashMap::new();
        let mut lengths = Vec::new();
        for (i, ((e, _), tw)) in compiled().iter().zip(&prefilter().words).enumerate() {
            lengths.push(tw.len());
            if tw.is_empty() || e.healthy {
                continue;
            }
            let mut counts: std::collections::BTreeMap<&str, usize> =
                std::collections::BTreeMap::new();
            for w in tw {
                *counts.entry(w.as_str()).or_default() += 1;
            }
            for (w, n) in counts {
                postings.entry(w.to_owned()).or_default().push((i, n));
            }
        }
        ClosestIndex { postings, lengths }
    })
}

/// True when an unmatched line looks like an error worth reporting as not recognised: a klog
/// `E`/`F` line, `level=error|fatal`, or an error word.
pub fn looks_like_error(line: &str) -> bool {
    let t = line.trim_start();
    let klog = t.len() > 5
        && matches!(t.as_bytes()[0], b'E' | b'F')
        && t.as_bytes()[1..5].iter().all(u8::is_ascii_digit);
    if klog || t.contains("level=error") || t.contains("level=fatal") {
        return true;
    }
    // Ansible's PLAY RECAP row (`node-3 : ok=349 changed=38 unreachable=0 failed=2 ...`,
    // ansible/ansible lib/ansible/plugins/callback/default.py v2_playbook_on_stats): counts of
    // the task results printed above it, which are read on their own
    if crate::ansible::recap_row(t).is_some() {
        return false;
    }
    // a command-line flag names what it tunes (`--ignore-preflight-errors=...`), it reports
    // nothing
    // nor does a configuration key (`"failOnInitError": true,` of a device plugin's config
    // dump, `ignorePreflightErrors:`): a lower camel-case identifier, quoted or not
    let lower: String = t
        .split(' ')
        .filter(|w| !w.starts_with("--") && !is_config_key(w))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    [
        "error",
        "failed",
        "fatal",
        "refused",
        "denied",
        "forbidden",
        "unauthorized",
        "x509:",
        "panic:",
        "timed out",
        "cannot ",
        "unable to",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// A lower camel-case identifier such as a JSON or YAML key (`"failOnInitError":`,
/// `errorPolicy:`): starts with a lower-case letter, has an upper-case one, and is letters and
/// digits only (quotes, a `:` and a `,` around it aside).
fn is_config_key(word: &str) -> bool {
    let w = word.trim_matches(|c: char| matches!(c, '"' | '\'' | ':' | ',' | '{' | '}'));
    w.starts_with(|c: char| c.is_ascii_lowercase())
        && w.chars().any(|c| c.is_ascii_uppercase())
        && w.chars().all(|c| c.is_ascii_alphanumeric())
}

/// True when an unmatched line is an error by its own marking, not merely by its words: a klog
/// header of level `E` or `F` anywhere in the line (after a journald or timestamp prefix:
/// k8s.io/klog `klog.go` writes `Lmmdd hh:mm:ss.uuuuuu threadid file:line]`), a logrus/logfmt or
/// JSON level `error`/`fatal`/`panic` (`level=error`, `"level":"error"`, `severity=...`), an
/// upper-case `ERROR`/`FATAL`/`CRITICAL` token (`[ERROR Swap]`, `ERROR: ...`, zap's console
/// level), a Go `panic:`, a line that starts with `error:`/`Error:`/`fatal:`/`Error from server`
/// (kubectl's and cobra's error prefix, Ansible's `fatal: [host]: FAILED!`), or systemd saying a
/// unit failed (`kubelet.service failed.`, `Failed with result`, `entered failed state`, `Failed
/// to start`, a main process that exited with a non-zero status or was killed; systemd
/// `src/core/unit.c` and `service.c`). Such a line not recognised means the picture is
/// incomplete; the other lines that merely look like errors ([`looks_like_error`]) are only
/// suspicious.
pub fn marked_error(line: &str) -> bool {
    let t = line.trim_start();
    let b = t.as_bytes();
    // a klog header at a word start: [EF]mmdd hh:mm:ss
    let klog = (0..b.len()).any(|i| {
        (i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t' || b[i - 1] == b':')
            && b.len() >= i + 14
            && matches!(b[i], b'E' | b'F')
            && b[i + 1..i + 5].iter().all(u8::is_ascii_digit)
            && b[i + 5] == b' '
            && b[i + 6..i + 8].iter().all(u8::is_ascii_digit)
            && b[i + 8] == b':'
    });
    if klog {
        return true;
    }
    let lower = t.to_lowercase();
    for key in [
        "level=",
        "\"level\":\"",
        "\"level\": \"",
        "severity=",
        "\"severity\":\"",
        "lvl=",
    ] {
        for (p, _) in lower.match_indices(key) {
            let v = lower[p + key.len()..].trim_start_matches('"');
            if ["error", "fatal", "panic", "crit", "eror"]
                .iter()
                .any(|l| v.starts_with(l))
            {
                return true;
            }
        }
    }
    let upper_token = t
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| matches!(w, "ERROR" | "FATAL" | "CRITICAL" | "PANIC"));
    if upper_token || t.starts_with("panic:") || t.contains(" panic: ") {
        return true;
    }
    // logrus' text formatter on a terminal writes the level as its first four letters in
    // capitals before `[`: `ERRO[0000]`, `FATA[2024-01-01T00:00:00Z]`, `PANI[...]`
    // (sirupsen/logrus text_formatter.go, `strings.ToUpper(levelText)[0:4]`): k3s, RKE2,
    // containerd's and Docker's CLIs print their errors this way
    if ["ERRO[", "FATA[", "PANI["]
        .iter()
        .any(|p| t.starts_with(p) || t.contains(&format!(" {p}")))
    {
        return true;
    }
    // the API server refused a request: apimachinery's `NewInvalid` (`%s %q is invalid: %v`,
    // with field errors `Invalid value`, `Required value`, `Unsupported value`, `Forbidden`...
    // of pkg/util/validation/field/errors.go), `NewForbidden` (`%s %q is forbidden: %v`, also
    // every admission plugin's rejection) and the quota admission's `exceeded quota:`
    // (k8s.io/apimachinery/pkg/api/errors/errors.go, plugin/pkg/admission/resourcequota)
    if t.contains(" is invalid: ")
        || t.contains(" is forbidden: ")
        || t.contains("exceeded quota: ")
    {
        return true;
    }
    // a failed TLS verification: Go's crypto/x509 verify.go error texts (`x509: certificate
    // signed by unknown authority`, `... has expired or is not yet valid`, `... is valid for X,
    // not Y`, `x509: cannot validate certificate for IP because it doesn't contain any IP SANs`,
    // `... is not valid for any names`, `... relies on legacy Common Name field`)
    if [
        "x509: certificate signed by unknown authority",
        "x509: certificate has expired or is not yet valid",
        "x509: certificate is valid for ",
        "x509: cannot validate certificate for ",
        "x509: certificate is not valid for any names",
        "x509: certificate relies on legacy common name field",
        "x509: certificate is not authorized to sign other certificates",
    ]
    .iter()
    .any(|p| lower.contains(p))
    {
        return true;
    }
    if ["error:", "fatal:", "error from server"]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        return true;
    }
    // systemd: the unit failed
    let unit = lower.contains("systemd")
        || lower.contains(".service")
        || lower.contains(".scope")
        || lower.contains("unit ");
    lower.starts_with("failed to start ")
        || unit
            && (lower.contains(".service failed")
                || lower.contains("failed with result")
                || lower.contains("entered failed state")
                || lower.contains("failed to start")
                || (lower.contains("main process exited")
                    && !lower.contains("status=0/success")
                    && (lower.contains("code=killed")
                        || lower.contains("code=dumped")
                        || lower.contains("code=exited, status="))))
}

/// Default sample value of a placeholder (the catalog test renders every template with these).
pub fn sample(name: &str) -> &'static str {
    match name {
        "token_id" => "abcdef",
        "node" => "node-01",
        "endpoint" => "10.0.0.1:6443",
        "server" => "10.0.0.1:6443",
        "url" => "https://rancher.example.com",
        "host" => "rancher.example.com",
        "ca_key_hash" => "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "resource" => "nvidia.com/gpu",
        "quota" => "compute-resources",
        "user" => "system:serviceaccount:argo:runner",
        "verb" => "list",
        "volume" => "data",
        "export" => "10.0.0.5:/exports/data",
        "file" => "/etc/kubernetes/kubelet.conf",
        "path" => "/etc/kubernetes/kubelet.conf",
        "port" => "10250",
        "status" => "Ready",
        "error" => "dial tcp 10.0.0.1:6443: connect: connection refused",
        _ => "sample-1",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sample value of each of the template's placeholders: the entry's own `samples`, else
    /// [`sample`].
    fn sample_values<'a>(e: &'a Entry, t: &'a Template) -> Vec<(&'a str, &'a str)> {
        t.holes()
            .map(|h| {
                let v = e
                    .samples
                    .iter()
                    .find(|(k, _)| *k == h)
                    .map_or_else(|| sample(h), |(_, v)| *v);
                (h, v)
            })
            .collect()
    }

    /// The prefilter only skips work: on every template's rendered sample (and on the samples
    /// glued into one line) [`match_line`] finds what trying every template finds; a line that
    /// holds no anchor tries no template at all (the work a plain kubelet info line costs).
    #[test]
    fn the_prefilter_skips_work_never_a_match() {
        let every = |line: &str| -> Vec<&'static str> {
            compiled()
                .iter()
                .filter(|(_, t)| t.find(line).is_some())
                .map(|(e, _)| e.id)
                .collect()
        };
        let mut glued = String::new();
        for (e, t) in compiled() {
            let values = sample_values(e, t);
            let line = t.render_with(&values);
            let tried = candidates(&line);
            for id in every(&line) {
                let i = all().position(|x| x.id == id).unwrap();
                assert!(tried.contains(&i), "{}: {id} not tried on {line:?}", e.id);
            }
            if glued.len() < 20_000 {
                glued.push_str(&line);
                glued.push(' ');
            }
        }
        let tried = candidates(&glued);
        for id in every(&glued) {
            let i = all().position(|x| x.id == id).unwrap();
            assert!(tried.contains(&i), "{id} not tried on the glued line");
        }
        let info = "I1202 07:00:00.000001    1234 kubelet_pods.go:1] \"Clean up orphaned pod directories\" pod=\"ns/pod-0\"";
        assert!(
            candidates(info).len() <= prefilter().always.len() + 3,
            "{:?}",
            candidates(info)
        );
        assert!(candidates("---").len() <= prefilter().always.len());
    }

    #[test]
    fn every_template_renders_and_reads_back_to_its_entry() {
        let mut ids = std::collections::BTreeSet::new();
        for e in all() {
            assert!(ids.insert(e.id), "duplicate id {}", e.id);
            let t = Template::new(e.template).unwrap_or_else(|err| panic!("{}: {err}", e.id));
            assert!(
                !e.repo.is_empty() && !e.file.is_empty() && !e.versions.is_empty(),
                "{}",
                e.id
            );
            if e.kind.is_none() {
                assert!(e.rule.is_empty(), "{}: a rule needs a kind", e.id);
            }
            let values = sample_values(e, &t);
            let line = t.render_with(&values);
            let matches = match_line(&line);
            let m = matches
                .iter()
                .find(|m| m.entry.id == e.id)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: {line:?} read back as {:?}",
                        e.id,
                        matches.iter().map(|m| m.entry.id).collect::<Vec<_>>()
                    )
                });
            for (k, v) in &values {
                assert_eq!(m.value(k), *v, "{}: {k}", e.id);
            }
        }
    }

    /// The inverted index gives the answer of a scan of every entry in catalog order (the
    /// definition of [`closest`]), for every template's own text and for lines mixing words of
    /// several templates.
    #[test]
    fn closest_index_agrees_with_a_scan_of_every_entry() {
        fn scan(line: &str) -> Option<(&'static Entry, f64)> {
            let lw = words(line);
            let set: std::collections::HashSet<&str> = lw.iter().map(String::as_str).collect();
            let mut best: Option<(&'static Entry, f64, usize)> = None;
            for ((e, _), tw) in compiled().iter().zip(&prefilter().words) {
                if tw.is_empty() || e.healthy {
                    continue;
                }
                let shared = tw.iter().filter(|w| set.contains(w.as_str())).count();
                if shared < 2 {
                    continue;
                }
                let score = 2.0 * shared as f64 / (tw.len() + lw.len()) as f64;
                if best.is_none_or(|(_, s, n)| score > s || (score == s && shared > n)) {
                    best = Some((e, score, shared));
                }
            }
            best.map(|(e, s, _)| (e, s))
        }
        let templates: Vec<&str> = all().map(|e| e.template).collect();
        let mut lines: Vec<String> = templates.iter().map(|t| (*t).to_owned()).collect();
        for pair in templates.windows(2) {
            lines.push(format!(
                "E0101 12:00:00.000000 1 x.go:1] {} {}",
                pair[0], pair[1]
            ));
        }
        lines.push("error: failed to failed to error error unable".to_owned());
        for line in &lines {
            let got = closest(line).map(|(e, s)| (e.id, s));
            let want = scan(line).map(|(e, s)| (e.id, s));
            assert_eq!(got, want, "{line}");
        }
    }

    #[test]
    fn closest_template_of_an_unknown_line() {
        let (e, score) =
            closest("error: token id \"abcdef\" is not valid for this cluster").expect("close");
        assert!(e.id.starts_with("kubeadm.token"), "{}", e.id);
        assert!(score > 0.3, "{score}");
        assert!(closest("hello world").is_none());
        assert!(looks_like_error("E0101 12:00:00.000000 1 x.go:1] boom"));
        assert!(!looks_like_error("I0101 12:00:00.000000 1 x.go:1] fine"));
        // a config key naming an error setting reports nothing (a device plugin's config dump)
        assert!(!looks_like_error("    \"failOnInitError\": true,"));
        assert!(!looks_like_error(
            "2024-10-17T12:05:33.313Z     \"failOnInitError\": true,"
        ));
        assert!(!looks_like_error("  ignorePreflightErrors:"));
        assert!(looks_like_error(
            "error: failOnInitError is set and NVML failed"
        ));
    }

    #[test]
    fn lines_cut_by_a_pager_match_on_what_they_show() {
        let ids = |l: &str| match_line(l).iter().map(|m| m.entry.id).collect::<Vec<_>>();
        let rke2 = "time=\"2023-07-17T21:56:09-04:00\" level=info msg=\"Waiting to retrieve agent configuration; server is not ready: Node password rejected, duplicate hostname or content>";
        assert!(
            ids(rke2).contains(&"k3s.agent.node-password-rejected"),
            "{:?}",
            ids(rke2)
        );
        let swap = "E0205 10:58:14.917245   12704 run.go:72] \"command failed\" err=\"failed to run Kubelet: running with swap on is not supported, please disable swap >";
        assert!(
            ids(swap).iter().any(|i| i.starts_with("kubelet.swap-on")),
            "{:?}",
            ids(swap)
        );
        let ellipsis = "kubelet[1]: failed to run Kubelet: running with swap on is not supported, please disable…";
        assert!(
            ids(ellipsis)
                .iter()
                .any(|i| i.starts_with("kubelet.swap-on"))
        );
        // too little shown, a `<none>` token, no mark: nothing
        assert!(ids("Node password rejected>").is_empty());
        assert!(truncated_body("Taints: <none>").is_none());
        assert!(truncated_body("running with swap on is not supported, please disable").is_none());
    }

    #[test]
    fn errors_by_their_own_marking() {
        for yes in [
            "6月 24 13:16:48 node-01 kubelet[13626]: F0624 13:16:48.816177   13626 server.go:233] failed to run Kubelet: boom",
            "E0101 12:00:00.000000 1 x.go:1] boom",
            "time=\"2024-01-01T00:00:00Z\" level=error msg=\"something\"",
            "something happened level=fatal",
            r#"{"level":"error","msg":"x"}"#,
            "\t[ERROR Swap]: running with swap on is not supported",
            "2024-01-01T00:00:00.000Z\tERROR\tsetup\tproblem running manager",
            "panic: runtime error: invalid memory address",
            "error: You must be logged in to the server (Unauthorized)",
            "Error from server (NotFound): pods \"x\" not found",
            "fatal: [node-01]: FAILED! => {\"changed\": true}",
            "Jun 24 13:16:48 node-01 systemd[1]: kubelet.service failed.",
            "systemd[1]: kubelet.service: Failed with result 'exit-code'.",
            "systemd[1]: Unit kubelet.service entered failed state.",
            "systemd[1]: kubelet.service: main process exited, code=exited, status=255/n/a",
            "FATA[0000] starting kubernetes: preparing server: failed to validate server configuration",
            "ERRO[2024-01-01T00:00:00Z] something went wrong",
            "The Pod \"web\" is invalid: spec.containers[0].resources.limits: Invalid value: \"512Mi\": must be greater than or equal to memory request",
            "Error creating: pods \"web-1\" is forbidden: exceeded quota: compute, requested: cpu=1",
            "CA cert validation failed: Get \"https://127.0.0.1:6444/cacerts\": x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs",
            "Get \"https://10.0.0.1:6443/api\": x509: certificate signed by unknown authority",
        ] {
            assert!(marked_error(yes), "{yes}");
        }
        for no in [
            "I0101 12:00:00.000000 1 x.go:1] failed to do something, retrying",
            "W0101 12:00:00.000000 1 x.go:1] error getting thing",
            "level=info msg=\"Error while dialing\"",
            "kubelet.service: Main process exited, code=exited, status=0/SUCCESS",
            "Errors: 0",
            "the error was fixed",
            "INFO[0000] Starting k3s v1.30.0+k3s1",
            "WARN[0000] unable to get node name",
            "x509: certificate details follow",
        ] {
            assert!(!marked_error(no), "{no}");
        }
    }
}
