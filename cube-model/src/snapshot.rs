//! `ClusterSnapshot`: the typed contents of any number of `kubectl get ... -o json|yaml` files
//! (and of `kubectl describe` / `kubectl get` table text, see [`crate::describe`]).
//!
//! Loading is pure: [`ClusterSnapshot::add_bytes`] takes bytes and a source label;
//! [`ClusterSnapshot::load_files`] is a thin `std::fs` wrapper around it. The format is detected
//! from the content ([`detect_format`]), never from a file name.
//!
//! Speed and memory (issue 2): a JSON `List` is read in one pass (`fast.rs`): each item's
//! `apiVersion` and `kind` are read from its first keys (kubectl and the API server sort keys;
//! the few keys that sort before `kind` are kept as borrowed raw JSON) and the rest of the same
//! map goes straight into the slim typed object, skipping every field the analyses do not read
//! without allocating it. No `serde_json::Value` is built for JSON input. When that reader gives
//! up (a broken object, items without `kind`, a Secret, a stream of values), what it added is
//! rolled back and the general path runs: the document is split into borrowed raw items
//! (`&RawValue`), each item's head is peeked, the typed vectors are reserved exactly, and each
//! item is read on its own, so one broken object becomes one [`LoadProblem`] with its field path
//! (re-read with `serde_path_to_error` only on failure). YAML documents are read into a
//! `serde_json::Value` first (YAML 1.2 core scalars) and dispatched the same way.
//!
//! Salvage: an object with an unreadable field is kept without that field (one
//! [`LoadProblem`] per dropped field, with its path; at most 32 per object); a JSON input cut or
//! broken in the middle keeps every complete `items` element before the break (one problem
//! with the byte offset, line/column and item index); the same object loaded again from a later
//! input replaces the earlier one ([`ClusterSnapshot::duplicates`]); an empty input is
//! [`LoadOutcome::Empty`].

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;
use serde_path_to_error::Segment;

use crate::objects::*;
use crate::projection::PodFields;

mod fast;
mod stream;

/// Everything read from a cluster or a dump of it.
///
/// Vectors keep input order. `problems` holds every object that could not be read and every
/// unreadable field dropped from a kept object (with file, document index and field path); `unknown_kinds` counts the kinds that were skipped;
/// `missing_kinds` names the kinds a live collection could not read (for example Forbidden).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ClusterSnapshot {
    /// Nodes.
    pub nodes: Vec<Node>,
    /// Pods.
    pub pods: Vec<Pod>,
    /// Namespaces.
    pub namespaces: Vec<Namespace>,
    /// ResourceQuotas.
    pub resource_quotas: Vec<ResourceQuota>,
    /// LimitRanges.
    pub limit_ranges: Vec<LimitRange>,
    /// PriorityClasses.
    pub priority_classes: Vec<PriorityClass>,
    /// DaemonSets.
    pub daemon_sets: Vec<DaemonSet>,
    /// Deployments, StatefulSets, ReplicaSets, ReplicationControllers and Jobs read from
    /// `kubectl get` tables (partial objects; JSON/YAML objects of these kinds are counted in
    /// `unknown_kinds`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workloads: Vec<Workload>,
    /// Events (core/v1 and events.k8s.io/v1).
    pub events: Vec<Event>,
    /// StorageClasses.
    pub storage_classes: Vec<StorageClass>,
    /// PersistentVolumes.
    pub persistent_volumes: Vec<PersistentVolume>,
    /// PersistentVolumeClaims.
    pub persistent_volume_claims: Vec<PersistentVolumeClaim>,
    /// Roles and ClusterRoles.
    pub roles: Vec<Role>,
    /// RoleBindings and ClusterRoleBindings.
    pub role_bindings: Vec<RoleBinding>,
    /// PodDisruptionBudgets.
    pub pod_disruption_budgets: Vec<PodDisruptionBudget>,
    /// Bootstrap tokens (from `bootstrap.kubernetes.io/token` Secrets; secret part dropped).
    pub bootstrap_tokens: Vec<BootstrapToken>,
    /// RuntimeClasses (`node.k8s.io`): the overhead and scheduling the RuntimeClass admission
    /// plugin gives a pod that names one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub runtime_classes: Vec<RuntimeClass>,
    /// Kinds seen but not kept, with their counts (`Deployment: 3`). A kind whose API group is
    /// not the one this crate reads (a CRD also named `Node`, say) is counted as
    /// `apiVersion/Kind`.
    pub unknown_kinds: BTreeMap<String, usize>,
    /// Kinds that could not be collected (live collection), with the reason.
    pub missing_kinds: BTreeMap<String, String>,
    /// Objects that could not be read; the rest of the input still loaded.
    pub problems: Vec<LoadProblem>,
    /// Secrets that are not bootstrap tokens: counted, never stored (not even their names).
    pub skipped_secrets: usize,
    /// Inputs (or YAML documents of an input) that are not snapshot input: logs, journals,
    /// scheduler messages, other free text. Each entry is the source label (with
    /// ` (document N)` for one document of a multi-document file) and the detected format, so a
    /// caller can route the text to the log classifiers.
    pub not_snapshot: Vec<NotSnapshot>,
    /// Objects that replaced an object loaded from an earlier input with the same key (the same
    /// cluster dumped twice, say as JSON and as YAML): one note per input and kind, with the
    /// count. Objects of one input are never merged with each other (a file may hold two
    /// states of one object on purpose).
    /// Two objects are the same object when they have the same kind, namespace and name and
    /// their identities agree: the same `metadata.uid` when both have one, else the same
    /// `metadata.creationTimestamp` when both have one; objects with neither are the same only
    /// when identical. Objects without a name are never merged. The later input wins, at the
    /// position of the earlier object.
    pub duplicates: Vec<DuplicateNote>,
    /// Objects with the same kind, namespace and name as an object of an earlier input but
    /// another identity (another uid or creation time): kept apart, one note per pair of inputs
    /// and kind. Most likely the inputs come from different clusters (or the objects were
    /// recreated between two dumps).
    pub mixed: Vec<MixNote>,
    /// Two views of one object (same identity, see [`ClusterSnapshot::duplicates`]) from two
    /// inputs that disagree on its health (a Node `Ready=False` as JSON and `Ready=True` in a
    /// `kubectl describe`): which view was kept and why. The view observed later (newest
    /// condition heartbeat or transition) is kept; when the views carry no times that tell
    /// them apart, the view that reports trouble is kept, whatever the argument order, so a
    /// broken state is never hidden by a later paste.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<ConflictNote>,
    /// Kinds whose complete list was read: every page of a live list, or a typed `<Kind>List`
    /// of a dump (even an empty one). See [`ClusterSnapshot::kind_status`].
    pub kinds_listed: std::collections::BTreeSet<String>,
    /// Limits hit while loading or collecting (objects past a limit are counted here, never
    /// stored; nothing is cut silently).
    pub limits_hit: Vec<crate::limits::LimitExceeded>,
    /// API `Status` bodies read (a whole input, a document or a List item): what the API
    /// server said, for the log classifiers ([`crate::status`]). A failure that is a read
    /// failure ([`crate::status::ApiStatus::is_read_failure`]) also names its kind in
    /// `missing_kinds`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub api_statuses: Vec<crate::status::ApiStatus>,
    /// GPU node pools a cloud CLI's output names (`az aks list`, `aws eks describe-nodegroup`,
    /// `eksctl get nodegroup`, `gcloud container node-pools list`; see [`crate::cloudpool`]):
    /// GPUs the cluster should have, whatever its Node objects show.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cloud_pools: Vec<crate::cloudpool::CloudPool>,
    /// The bounds applied by the loader (see [`ClusterSnapshot::with_limits`]).
    #[serde(skip)]
    pub(crate) limits: Aside<crate::limits::Limits>,
    /// Where each input's objects start in the typed vectors (provenance, see
    /// [`ClusterSnapshot::source_of`]).
    #[serde(skip)]
    pub(crate) inputs: Aside<Vec<InputSpan>>,
    /// Objects not stored because of `limits.max_objects_per_snapshot`, in the current input.
    #[serde(skip)]
    pub(crate) over_limit: Aside<u64>,
    /// Where the objects the last input added start (byte offsets into that input, per typed
    /// vector in [`Target`] order), when the one-pass JSON reader read it (see
    /// [`ClusterSnapshot::last_input_object_starts`]).
    #[serde(skip)]
    pub(crate) starts: Aside<Option<Box<ObjectStarts>>>,
    /// The 1-based lines of the same objects, when the input was read from a reader
    /// ([`ClusterSnapshot::add_json_reader`]; see [`ClusterSnapshot::last_input_object_lines`]).
    #[serde(skip)]
    pub(crate) start_lines: Aside<Option<Box<ObjectStarts>>>,
}

/// What [`ClusterSnapshot::add_json_reader`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamOutcome {
    /// The input was read: what [`ClusterSnapshot::add_bytes`] returns for the same bytes.
    Loaded(LoadOutcome),
    /// Nothing was added: the input is not one the streaming reader takes (see
    /// [`ClusterSnapshot::add_json_reader`]); read it whole and give it to
    /// [`ClusterSnapshot::add_bytes`].
    ReadWhole,
}

/// Byte offsets of the objects one input added, per typed vector (in [`Target`] order).
pub(crate) type ObjectStarts = [Vec<usize>; Target::COUNT];

/// Loader state kept next to the data: not part of a snapshot's value (two snapshots with the
/// same objects are equal whatever their limits or input labels).
#[derive(Debug, Clone, Default)]
pub(crate) struct Aside<T>(pub(crate) T);

impl<T> PartialEq for Aside<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> std::ops::Deref for Aside<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Aside<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// Where one input's objects start in each typed vector.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct InputSpan {
    source: String,
    start: [usize; Target::COUNT],
}

/// Objects of one input that have the same kind, namespace and name as objects of an earlier
/// input but another identity (see [`ClusterSnapshot::mixed`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct MixNote {
    /// The later input.
    pub source: String,
    /// The earlier input holding the other objects of the same names.
    pub earlier: String,
    /// The kind (`Node`, `Pod`; `Role` also counts ClusterRoles).
    pub kind: String,
    /// `namespace/name` (or `name`) of every such object, in input order.
    pub objects: Vec<String>,
}

impl fmt::Display for MixNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: Vec<&str> = self.objects.iter().take(5).map(String::as_str).collect();
        write!(
            f,
            "{}: {} {} object(s) have the name of an object from {} but another uid or creation time ({}{}): kept apart; the inputs likely come from different clusters",
            self.source,
            self.objects.len(),
            self.kind,
            self.earlier,
            shown.join(", "),
            if self.objects.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        )
    }
}

/// Whether a kind was read (see [`ClusterSnapshot::kind_status`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum KindStatus<'a> {
    /// The whole list was read (a live list, or a typed `<Kind>List` of a dump): an absence is
    /// a real absence.
    Listed,
    /// Objects of the kind are present, but nothing says the input held all of them.
    Present,
    /// The kind could not be read (403, 500, a limit): nothing may be concluded from its
    /// absence. The reason is the server's or the limit's.
    Missing(&'a str),
    /// Not in the input at all (a dump of other kinds).
    NotGiven,
}

impl KindStatus<'_> {
    /// True when the kind could not be read ([`KindStatus::Missing`]).
    pub fn is_missing(&self) -> bool {
        matches!(self, KindStatus::Missing(_))
    }
}

/// Objects of one input that replaced objects loaded before (see
/// [`ClusterSnapshot::duplicates`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct DuplicateNote {
    /// The input whose objects replaced the earlier ones (its source label).
    pub source: String,
    /// The kind (`Pod`, `Node`; `Role` also counts ClusterRoles, `RoleBinding` also
    /// ClusterRoleBindings).
    pub kind: String,
    /// How many objects of that kind were replaced.
    pub count: usize,
}

impl fmt::Display for DuplicateNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} {} object(s) already loaded from an earlier input were replaced",
            self.source, self.count, self.kind
        )
    }
}

/// Two views of one object that disagree on its health (see [`ClusterSnapshot::conflicts`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct ConflictNote {
    /// The later input.
    pub source: String,
    /// The earlier input.
    pub earlier: String,
    /// The kind (`Node`, `Pod`).
    pub kind: String,
    /// `namespace/name` (or `name`).
    pub object: String,
    /// The earlier view's state (`Ready=False (KubeletNotReady)`, `phase Pending`).
    pub earlier_state: String,
    /// The later view's state.
    pub later_state: String,
    /// True when the later view was kept.
    pub kept_later: bool,
    /// Why that view was kept.
    pub why: String,
}

impl fmt::Display for ConflictNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept = if self.kept_later {
            &self.source
        } else {
            &self.earlier
        };
        write!(
            f,
            "{}: {} {} is {} here but {} in {}: the two views disagree; the view of {} was kept ({})",
            self.source,
            self.kind,
            self.object,
            self.later_state,
            self.earlier_state,
            self.earlier,
            kept,
            self.why
        )
    }
}

/// What a view of an object says about its health, to choose between two views of one object
/// from two inputs (see [`ClusterSnapshot::conflicts`]). Kinds without a health state keep the
/// defaults: the later view simply replaces the earlier one.
pub(crate) trait ObservedState {
    /// When the view was observed: the newest status time it carries (a Node's condition
    /// heartbeats, a Pod's condition transitions and container start/finish times).
    fn observed_at(&self) -> Option<Time> {
        None
    }
    /// The view's health in a few words, and whether that is trouble; `None` when the view
    /// shows no state (a partial object).
    fn health(&self) -> Option<(String, bool)> {
        None
    }
}

macro_rules! no_observed_state {
    ($($t:ty),*) => { $(impl ObservedState for $t {})* };
}
no_observed_state!(
    Namespace,
    ResourceQuota,
    LimitRange,
    PriorityClass,
    DaemonSet,
    Event,
    StorageClass,
    PersistentVolume,
    PersistentVolumeClaim,
    Role,
    RoleBinding,
    PodDisruptionBudget,
    Workload,
    RuntimeClass
);

impl ObservedState for Node {
    fn observed_at(&self) -> Option<Time> {
        let conditions = &self.status.conditions;
        conditions
            .iter()
            .filter_map(|c| c.last_heartbeat_time)
            .max()
            .or_else(|| {
                conditions
                    .iter()
                    .filter_map(|c| c.last_transition_time)
                    .max()
            })
    }
    fn health(&self) -> Option<(String, bool)> {
        let conditions = &self.status.conditions;
        let ready = conditions.iter().find(|c| c.type_ == "Ready")?;
        let mut words = format!("Ready={}", ready.status);
        if !ready.reason.is_empty() && ready.status != "True" {
            words.push_str(&format!(" ({})", ready.reason));
        }
        let mut trouble = ready.status != "True";
        // the pressure conditions (and NetworkUnavailable) are trouble when True
        for c in conditions
            .iter()
            .filter(|c| c.type_ != "Ready" && c.status == "True")
        {
            words.push_str(&format!(", {}=True", c.type_));
            trouble = true;
        }
        Some((words, trouble))
    }
}

impl ObservedState for Pod {
    fn observed_at(&self) -> Option<Time> {
        let more = self.status.more.get();
        let container_times = more
            .container_statuses
            .iter()
            .chain(more.init_container_statuses.iter())
            .filter_map(|c| c.state.as_ref())
            .filter_map(|s| s.running.as_ref().and_then(|r| r.started_at));
        self.status
            .conditions
            .iter()
            .filter_map(|c| c.last_transition_time)
            .chain(container_times)
            .max()
    }
    fn health(&self) -> Option<(String, bool)> {
        let phase = self.status.phase.as_str();
        if phase.is_empty() {
            return None;
        }
        let more = self.status.more.get();
        let mut words = format!("phase {phase}");
        let mut trouble = matches!(phase, "Pending" | "Failed" | "Unknown");
        if !more.reason.is_empty() {
            words.push_str(&format!(" ({})", more.reason));
            // a `kubectl get pods` STATUS other than the phase (CrashLoopBackOff, Error,
            // ImagePullBackOff, Terminating) or a pod-level reason (Evicted): trouble
            trouble |= !matches!(more.reason.as_str(), "Completed" | "Running" | "Succeeded");
        }
        let waiting: Vec<&str> = more
            .container_statuses
            .iter()
            .chain(more.init_container_statuses.iter())
            .filter_map(|c| c.state.as_ref()?.waiting.as_deref())
            .map(|w| w.reason.as_str())
            .filter(|r| !r.is_empty())
            .collect();
        if !waiting.is_empty() {
            words.push_str(&format!(", waiting: {}", waiting.join(", ")));
            trouble = true;
        }
        Some((words, trouble))
    }
}

/// What [`choose_view`] decided between two views of one object.
pub(crate) struct ViewVerdict {
    pub(crate) kept_later: bool,
    pub(crate) why: String,
    pub(crate) earlier_state: String,
    pub(crate) later_state: String,
}

/// Between two views of one object that disagree on its health: whether the later one is
/// kept, and why (see [`ClusterSnapshot::conflicts`]). `None` when they agree (or one shows no
/// state): the later view replaces the earlier one as for every other kind.
pub(crate) fn choose_view<T: ObservedState>(earlier: &T, later: &T) -> Option<ViewVerdict> {
    let (e_words, e_trouble) = earlier.health()?;
    let (l_words, l_trouble) = later.health()?;
    if e_words == l_words {
        return None;
    }
    let (kept_later, why) = match (earlier.observed_at(), later.observed_at()) {
        (Some(e), Some(l)) if e != l => (
            l > e,
            format!("it was observed later: {} against {}", e.max(l), e.min(l)),
        ),
        _ if e_trouble != l_trouble => (
            l_trouble,
            "no status time tells which view is newer; the view that reports trouble is kept"
                .to_owned(),
        ),
        _ => (
            true,
            "no status time tells which view is newer; the later input is kept".to_owned(),
        ),
    };
    Some(ViewVerdict {
        kept_later,
        why,
        earlier_state: e_words,
        later_state: l_words,
    })
}

/// One object (or document) of the input that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct LoadProblem {
    /// File (or source label) it came from.
    pub file: String,
    /// Index of the YAML document or JSON value in a stream (0-based; 0 for one JSON value).
    pub document: usize,
    /// Index of the item inside a `List` (or JSON array), if it was in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<usize>,
    /// `kind/namespace/name` when known (`kind/name` for cluster-scoped objects).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub object: String,
    /// Field path inside the object (`spec.containers[0].resources.requests.cpu`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
    /// What is wrong.
    pub message: String,
    /// How many more problems of the same input just like this one were folded into it and
    /// are not listed on their own (0: none): past [`MAX_SAME_PROBLEMS`] identical problems
    /// of one input, and every document after the first that the YAML alias budget stopped.
    /// The message then says how many and up to which document.
    #[serde(skip_serializing_if = "is_zero")]
    pub repeats: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Identical problems of one input listed one by one (the same message, digits aside, about
/// the same object and field, or about no object): the rest are counted in the last one
/// listed ([`LoadProblem::repeats`]). A file of 20,000 broken documents gives 21 problems, not
/// 20,000 warnings and report lines; problems about different objects are not identical
/// (each names its object, and rules look them up by object).
pub const MAX_SAME_PROBLEMS: usize = 20;

/// The start of a [`LoadProblem`] message for one unreadable field dropped from an object that
/// was kept (every other problem is about something not kept).
pub const FIELD_DROPPED: &str = "field dropped, the rest of the object was kept";

impl LoadProblem {
    /// True when what this problem is about was not kept at all: a `List` item skipped by
    /// salvage, a document or object that could not be read, an unreadable input. False for
    /// one field dropped from an object that was kept ([`FIELD_DROPPED`]).
    pub fn is_skip(&self) -> bool {
        !self.message.starts_with(FIELD_DROPPED)
    }

    /// How many problems this one stands for: itself and the ones folded into it
    /// ([`LoadProblem::repeats`]).
    pub fn count(&self) -> usize {
        1 + self.repeats
    }
}

/// Folds the problems of `problems[from..]` (one input's) past [`MAX_SAME_PROBLEMS`] identical
/// ones into the one after the last listed: its [`LoadProblem::repeats`] counts them and its
/// message says how many and up to which document.
fn fold_repeated_problems(problems: &mut Vec<LoadProblem>, from: usize) {
    if problems.len().saturating_sub(from) <= MAX_SAME_PROBLEMS {
        return;
    }
    // digits aside: `line 3 column 5` and `line 9 column 1` are the same problem
    let shape = |t: &str| -> String {
        let mut out = String::with_capacity(t.len());
        let mut digit = false;
        for c in t.chars() {
            if c.is_ascii_digit() {
                if !digit {
                    out.push('#');
                }
                digit = true;
            } else {
                out.push(c);
                digit = false;
            }
        }
        out
    };
    let mut seen: std::collections::HashMap<(String, String, String, String), (usize, usize)> =
        std::collections::HashMap::new();
    let tail = problems.split_off(from);
    // (index in `problems` of the summary, last document folded)
    let mut summaries: Vec<(usize, usize)> = Vec::new();
    for p in tail {
        let key = (
            p.file.clone(),
            p.object.clone(),
            shape(&p.field),
            shape(&p.message),
        );
        let entry = seen.entry(key).or_insert((0, usize::MAX));
        entry.0 += 1;
        if entry.0 <= MAX_SAME_PROBLEMS + 1 {
            if entry.0 == MAX_SAME_PROBLEMS + 1 {
                entry.1 = summaries.len();
                summaries.push((problems.len(), p.document));
            }
            problems.push(p);
        } else if let Some((at, last)) = summaries.get_mut(entry.1) {
            problems[*at].repeats += p.count();
            *last = p.document;
        }
    }
    for (at, last) in summaries {
        let p = &mut problems[at];
        if p.repeats > 0 {
            p.message = format!(
                "{} ({} more problem(s) like this one in this input, up to document {last}, are not listed one by one)",
                p.message, p.repeats
            );
        }
    }
}

impl fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: document {}", self.file, self.document)?;
        if let Some(item) = self.item {
            write!(f, ", item {item}")?;
        }
        if !self.object.is_empty() {
            write!(f, " ({})", self.object)?;
        }
        if !self.field.is_empty() {
            write!(f, " at {}", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// An input (or one document of it) that is not snapshot input.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct NotSnapshot {
    /// Source label, with ` (document N)` when only one document of the input was text.
    pub source: String,
    /// What the content looked like.
    pub format: InputFormat,
}

/// The shape of an input, decided from its content alone ([`detect_format`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum InputFormat {
    /// JSON: one object, a `List`, an array, or a stream of values (`kubectl get -o json`).
    Json,
    /// YAML, one or more documents (`kubectl get -o yaml`).
    Yaml,
    /// `kubectl describe node` text (one or more nodes, or an excerpt of the blocks).
    DescribeNode,
    /// `kubectl describe pod` text (one or more pods).
    DescribePod,
    /// `kubectl describe pvc` text.
    DescribePersistentVolumeClaim,
    /// An events table: `kubectl get events`, or the `Events:` table of `kubectl describe`.
    EventsTable,
    /// `kubectl get nodes` (optionally `-o wide`) table.
    NodesWideTable,
    /// `kubectl describe` text of another kind the rules read: daemonset, resourcequota,
    /// limitrange, namespace (its quotas and limits), priorityclass, pv, storageclass.
    Describe,
    /// A `kubectl get` table of another kind the rules read: pods, daemonsets, resourcequotas,
    /// priorityclasses, pvc, pv, storageclasses (see [`crate::describe`]).
    GetTable,
    /// A terminal or issue paste of several sections (shell prompts with their commands,
    /// Markdown fences), each detected on its own ([`crate::paste::split`]). Returned by
    /// callers that split pastes (`cube-diagnose`'s `Inputs`); [`detect_format`] itself never
    /// returns it.
    Paste,
    /// Anything else: logs, journals, scheduler messages, free text. Not snapshot input.
    #[default]
    Text,
}

impl InputFormat {
    /// True for the formats the loader turns into objects (all but [`InputFormat::Text`]).
    pub fn is_snapshot(self) -> bool {
        !matches!(self, InputFormat::Text)
    }
}

/// What [`ClusterSnapshot::add_bytes`] did with one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadOutcome {
    /// Objects were read from the input.
    Loaded {
        /// The detected format.
        format: InputFormat,
        /// Objects read and kept: added to one of the typed vectors, or replacing an object with the
        /// same key loaded from an earlier input (see [`ClusterSnapshot::duplicates`]).
        objects: usize,
        /// Objects or documents skipped (unknown kinds, non-bootstrap Secrets).
        skipped: usize,
        /// Problems recorded for this input.
        problems: usize,
    },
    /// The input is empty (no bytes, or only whitespace and a byte-order mark): nothing was
    /// added except a [`LoadProblem`] with the message `input is empty`.
    Empty,
    /// The input is not snapshot input (a log, journal or free text): nothing was added except
    /// an entry in [`ClusterSnapshot::not_snapshot`]. Route the text to a log classifier.
    NotSnapshot {
        /// The detected format ([`InputFormat::Text`], or `Json` for JSON values none of which
        /// is a Kubernetes object, such as JSON Lines logs).
        format: InputFormat,
    },
}

/// Detects the format of `bytes` from their content (leading `#` comment lines, blank lines and
/// a UTF-8 byte-order mark are skipped).
///
/// JSON: the text parses as JSON (or is cut short inside a JSON value), or starts with `{` or
/// `[` and looks like JSON; a log line that starts with a bracketed timestamp
/// (`[2021-05-08 12:20:58] ...`), dmesg's `[   12.3] ...` or a tag (`[preflight] ...`) is not
/// JSON. YAML: a document marker,
/// a top-level sequence, or top-level `apiVersion:` / `kind:` / `items:` keys. Describe text:
/// the top-level `Key:` lines of `kubectl describe` (node-only keys such as `Capacity`,
/// `Allocatable`, `System Info`, `Taints`; pod-only keys such as `Containers`, `QoS Class`,
/// `Node-Selectors`). Tables: a `NAME STATUS ROLES ... VERSION` header, a
/// `LAST SEEN TYPE REASON OBJECT MESSAGE` header, an `Events:` block, or event rows
/// (`Warning  FailedCreate  ...`); the headers of the other `kubectl get` tables read
/// ([`InputFormat::GetTable`]) and the keys of the other describers
/// ([`InputFormat::Describe`]). Everything else is [`InputFormat::Text`]. A paste of several
/// commands' outputs is cut into sections first ([`crate::paste::split`]) and each section
/// detected on its own.
pub fn detect_format(bytes: &[u8]) -> InputFormat {
    // The decision needs only the start of the input: never validate or copy 500 MB for it.
    let bytes = strip_bom(bytes);
    let prefix = bytes.get(..DETECT_PREFIX).unwrap_or(bytes);
    let text = String::from_utf8_lossy(prefix);
    crate::describe::detect_text_format(&text)
}

/// How much of an input's start [`detect_format`] reads (after a BOM).
const DETECT_PREFIX: usize = 64 * 1024;

/// The length of a YAML document marker (`---` or `...`, alone or followed by whitespace)
/// after the leading whitespace of `rest`, whitespace included; `None` when `rest` does not
/// start with one.
fn yaml_document_marker(rest: &[u8]) -> Option<usize> {
    let lead = rest.len() - rest.trim_ascii_start().len();
    let after = &rest[lead..];
    let marker = after.starts_with(b"---") || after.starts_with(b"...");
    (marker && after.get(3).is_none_or(u8::is_ascii_whitespace)).then_some(lead + 3)
}

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

impl ClusterSnapshot {
    /// An empty snapshot.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty snapshot whose loader applies `limits` (objects per snapshot, YAML alias
    /// expansions per input).
    #[must_use]
    pub fn with_limits(mut self, limits: crate::limits::Limits) -> Self {
        self.limits = Aside(limits);
        self
    }

    /// Replaces the loader's limits.
    pub fn set_limits(&mut self, limits: crate::limits::Limits) {
        self.limits = Aside(limits);
    }

    /// The loader's limits.
    pub fn limits(&self) -> &crate::limits::Limits {
        &self.limits
    }

    /// Whether `kind` (`Node`, `ResourceQuota`, `StorageClass`, `ClusterRole`, ...) was read:
    /// [`KindStatus::Missing`] when it could not be read (live collection refused, a limit),
    /// [`KindStatus::Listed`] when its complete list was read, [`KindStatus::Present`] when some
    /// objects of it were loaded, else [`KindStatus::NotGiven`]. Rules that conclude from an
    /// absence ("no ResourceQuota", "no StorageClass at all") must say "could not be read"
    /// instead when the kind is missing.
    pub fn kind_status(&self, kind: &str) -> KindStatus<'_> {
        if let Some(why) = self.missing_kinds.get(kind) {
            return KindStatus::Missing(why);
        }
        if self.kinds_listed.contains(kind) {
            return KindStatus::Listed;
        }
        let present = match kind {
            "Node" => !self.nodes.is_empty(),
            "Pod" => !self.pods.is_empty(),
            "Namespace" => !self.namespaces.is_empty(),
            "ResourceQuota" => !self.resource_quotas.is_empty(),
            "LimitRange" => !self.limit_ranges.is_empty(),
            "PriorityClass" => !self.priority_classes.is_empty(),
            "DaemonSet" => !self.daemon_sets.is_empty(),
            "Deployment" | "StatefulSet" | "ReplicaSet" | "ReplicationController" | "Job" => {
                self.workloads.iter().any(|w| w.kind == kind)
            }
            "Event" => !self.events.is_empty(),
            "StorageClass" => !self.storage_classes.is_empty(),
            "PersistentVolume" => !self.persistent_volumes.is_empty(),
            "PersistentVolumeClaim" => !self.persistent_volume_claims.is_empty(),
            "Role" | "ClusterRole" => self.roles.iter().any(|r| r.kind == kind),
            "RoleBinding" | "ClusterRoleBinding" => {
                self.role_bindings.iter().any(|r| r.kind == kind)
            }
            "PodDisruptionBudget" => !self.pod_disruption_budgets.is_empty(),
            "BootstrapToken" => !self.bootstrap_tokens.is_empty(),
            "RuntimeClass" => !self.runtime_classes.is_empty(),
            _ => false,
        };
        if present {
            KindStatus::Present
        } else {
            KindStatus::NotGiven
        }
    }

    /// True when part of the picture could not be read: a kind is missing, a limit was hit, or
    /// part of the input was skipped ([`ClusterSnapshot::skipped`]: a `List` item, a document,
    /// an object). Programs exit with their "incomplete" code then, never with "all clear".
    pub fn is_incomplete(&self) -> bool {
        !self.missing_kinds.is_empty()
            || !self.limits_hit.is_empty()
            || self.skipped().next().is_some()
    }

    /// The load problems of things not kept at all ([`LoadProblem::is_skip`]): skipped `List`
    /// items, unreadable documents and objects, unreadable inputs.
    pub fn skipped(&self) -> impl Iterator<Item = &LoadProblem> {
        self.problems.iter().filter(|p| p.is_skip())
    }

    /// Why the picture is incomplete, one line each (empty when it is complete): the kinds that
    /// could not be read, the limits hit, then every skipped item, document or object.
    pub fn incomplete_reasons(&self) -> Vec<String> {
        let mut why: Vec<String> = self
            .missing_kinds
            .iter()
            .map(|(k, r)| format!("{k} could not be read ({r})"))
            .collect();
        why.extend(self.limits_hit.iter().map(ToString::to_string));
        // the objects-per-snapshot limit is also a load problem: said once, above
        why.extend(
            self.skipped()
                .filter(|p| !p.message.contains(" object(s) not kept: "))
                .map(|p| format!("skipped: {p}")),
        );
        why
    }

    /// The input (source label) the object at `index` of the typed vector of `kind` came from
    /// (`kind` as in [`ClusterSnapshot::kind_status`]); `None` for an unknown kind or index.
    pub fn source_of(&self, kind: &str, index: usize) -> Option<&str> {
        let slot = match kind {
            "BootstrapToken" => Target::Secret as usize,
            _ => match Target::of(kind, None)? {
                Target::Secret => return None,
                t => t as usize,
            },
        };
        self.inputs
            .iter()
            .rev()
            .find(|span| span.start[slot] <= index)
            .map(|span| span.source.as_str())
    }

    /// True when there is room for one more object under `limits.max_objects_per_snapshot`;
    /// else the object is counted (reported when the input ends) and not stored.
    fn has_room(&mut self) -> bool {
        if self.has_room_for_one() {
            true
        } else {
            *self.over_limit += 1;
            false
        }
    }

    /// [`ClusterSnapshot::has_room`] without counting a refusal.
    fn has_room_for_one(&self) -> bool {
        (self.object_count() as u64) < self.limits.max_objects_per_snapshot
    }

    /// Loads one input (see [`ClusterSnapshot::add_bytes`]) into a new snapshot.
    pub fn from_slice(source: &str, bytes: &[u8]) -> Self {
        let mut snapshot = Self::default();
        snapshot.add_bytes(source, bytes);
        snapshot
    }

    /// Reads every file in `paths` (in order) with `std::fs` and adds it. A file that cannot be
    /// read becomes a [`LoadProblem`] (document 0, message `cannot read file: ...`); the other
    /// files still load.
    pub fn load_files<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> Self {
        let mut snapshot = Self::default();
        for path in paths {
            snapshot.add_file(path.as_ref());
        }
        snapshot
    }

    /// Reads one file through the bounded reader ([`crate::io::read_file`]: at most the
    /// snapshot's `max_file_bytes`, FIFOs, devices and directories refused) and adds it;
    /// `None` when it could not be read (recorded as a problem naming the reason, the limit
    /// for a file too large: never read whole first).
    pub fn add_file(&mut self, path: &Path) -> Option<LoadOutcome> {
        let label = path.display().to_string();
        match crate::io::read_file(path, &self.limits) {
            Ok(bytes) => Some(self.add_bytes(&label, &bytes)),
            Err(err) => {
                if let Some(hit) = err.limit_exceeded() {
                    self.limits_hit.push(hit.clone());
                }
                let reason = err.reason();
                self.problems.push(LoadProblem {
                    file: label,
                    message: format!(
                        "cannot read file: {}",
                        reason.strip_prefix("cannot read: ").unwrap_or(&reason)
                    ),
                    ..LoadProblem::default()
                });
                None
            }
        }
    }

    /// Adds the objects of one input, labelled `source` in problems.
    ///
    /// Accepts `kubectl get -o json` (a `List` or `*List`, a single object, a JSON array, or a
    /// stream of JSON values), `kubectl get -o yaml` (one or more documents; a document may be a
    /// `List`), `kubectl describe node|pod` text, `kubectl get events` tables and
    /// `kubectl get nodes [-o wide]` tables. Objects are dispatched by `kind` (and API group)
    /// into the typed vectors; unknown kinds are counted in `unknown_kinds`; a broken object or
    /// document becomes a [`LoadProblem`] while the rest still loads. Never panics.
    pub fn add_bytes(&mut self, source: &str, bytes: &[u8]) -> LoadOutcome {
        self.add_bytes_as(source, bytes, None)
    }

    /// [`ClusterSnapshot::add_bytes`] with the format given instead of detected (`None`:
    /// detected): for a caller that already knows what the text is, such as a paste whose
    /// sections were each detected on their own (`kubectl get pods | grep` rows without their
    /// header next to a `describe | tail` excerpt: together they look like no one format).
    pub fn add_bytes_as(
        &mut self,
        source: &str,
        bytes: &[u8],
        format: Option<InputFormat>,
    ) -> LoadOutcome {
        let bom = bytes.len() - strip_bom(bytes).len();
        let bytes = strip_bom(bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            self.problems.push(LoadProblem {
                file: source.to_owned(),
                message: "input is empty".to_owned(),
                ..LoadProblem::default()
            });
            return LoadOutcome::Empty;
        }
        let format = format.unwrap_or_else(|| detect_format(bytes));
        let before = Counts::of(self);
        let mark = Mark::lens(self);
        *self.over_limit = 0;
        *self.starts = None;
        *self.start_lines = None;
        if format.is_snapshot() {
            self.inputs.push(InputSpan {
                source: source.to_owned(),
                start: mark,
            });
        }
        match format {
            InputFormat::Json | InputFormat::Yaml => {
                let mut ctx = Ctx::new(source, &self.limits);
                if format == InputFormat::Json {
                    self.load_json(&mut ctx, bytes);
                } else {
                    self.load_yaml(&mut ctx, &String::from_utf8_lossy(bytes));
                }
                if !ctx.saw_object && self.problems.len() == before.problems {
                    self.inputs.pop();
                    self.not_snapshot.push(NotSnapshot {
                        source: source.to_owned(),
                        format,
                    });
                    return LoadOutcome::NotSnapshot { format };
                }
                self.problems.append(&mut ctx.kindless);
            }
            InputFormat::Text => {
                self.not_snapshot.push(NotSnapshot {
                    source: source.to_owned(),
                    format,
                });
                return LoadOutcome::NotSnapshot { format };
            }
            InputFormat::DescribeNode
            | InputFormat::DescribePod
            | InputFormat::DescribePersistentVolumeClaim
            | InputFormat::EventsTable
            | InputFormat::NodesWideTable
            | InputFormat::Describe
            | InputFormat::GetTable
            | InputFormat::Paste => {
                let text = String::from_utf8_lossy(bytes);
                let parsed = crate::describe::parse_text(&text);
                self.nodes.extend(parsed.nodes);
                self.pods.extend(parsed.pods);
                self.events.extend(parsed.events);
                self.persistent_volume_claims
                    .extend(parsed.persistent_volume_claims);
                self.daemon_sets.extend(parsed.daemon_sets);
                // table rows only, outside the typed slots: kept within the object limit here
                let max =
                    usize::try_from(self.limits.max_objects_per_snapshot).unwrap_or(usize::MAX);
                let room = max.saturating_sub(self.object_count());
                let mut workloads = parsed.workloads;
                if workloads.len() > room {
                    *self.over_limit += (workloads.len() - room) as u64;
                    workloads.truncate(room);
                }
                self.workloads.extend(workloads);
                self.resource_quotas.extend(parsed.resource_quotas);
                self.limit_ranges.extend(parsed.limit_ranges);
                self.priority_classes.extend(parsed.priority_classes);
                self.persistent_volumes.extend(parsed.persistent_volumes);
                self.storage_classes.extend(parsed.storage_classes);
                self.namespaces.extend(parsed.namespaces);
                self.problems
                    .extend(parsed.problems.into_iter().map(|mut p| {
                        p.file = source.to_owned();
                        p
                    }));
            }
        }
        self.finish_input(source, format, &before, &mark, bom)
    }

    /// What [`ClusterSnapshot::add_bytes`] does once an input was read: the object limit,
    /// merging with earlier inputs, the object starts kept only when still true, the outcome.
    fn finish_input(
        &mut self,
        source: &str,
        format: InputFormat,
        before: &Counts,
        mark: &[usize; Target::COUNT],
        bom: usize,
    ) -> LoadOutcome {
        fold_repeated_problems(&mut self.problems, before.problems);
        let limits_hit = self.limits_hit.len();
        self.enforce_object_limit(source, mark);
        // Objects that replaced earlier ones were read from this input too: count them.
        let replaced = self.merge_duplicates(source, mark);
        let after = Counts::of(self);
        // starts stay known only when every object read is still where it was pushed
        let lens = Mark::lens(self);
        let kept = replaced == 0
            && limits_hit == self.limits_hit.len()
            && self.starts.as_ref().is_some_and(|starts| {
                starts
                    .iter()
                    .zip(lens.iter().zip(mark.iter()))
                    .all(|(v, (len, from))| v.len() == len - from)
            });
        if kept {
            if let Some(starts) = self.starts.as_mut() {
                for v in starts.iter_mut() {
                    for at in v.iter_mut() {
                        *at += bom;
                    }
                }
            }
        } else {
            *self.starts = None;
            *self.start_lines = None;
        }
        LoadOutcome::Loaded {
            format,
            objects: after.objects + replaced - before.objects,
            skipped: after.skipped - before.skipped,
            problems: after.problems - before.problems,
        }
    }

    /// Adds one JSON `List` (`kubectl get ... -o json`) read from `reader` through a bounded
    /// window, never holding the whole input (a dump of 500 MB is read with about 8 MB of
    /// input text in memory at a time; issue 12). The same objects, problems and outcome as
    /// [`ClusterSnapshot::add_bytes`] on the same bytes; the objects' lines are known
    /// ([`ClusterSnapshot::last_input_object_lines`]) without the text.
    ///
    /// Only the common, large case is read this way: one JSON List (or `<Kind>List`) whose
    /// items all start with `apiVersion` / `kind` (as kubectl and the API server write them)
    /// and read without a problem, at most `limits.max_file_bytes` bytes, that stores at least
    /// one object and stays under `limits.max_objects_per_snapshot`, read into a snapshot that
    /// holds no object yet (so no object is merged with an earlier input's and every object
    /// stays where it was read). For anything else nothing is added and
    /// [`StreamOutcome::ReadWhole`] says
    /// to read the input whole and give it to [`ClusterSnapshot::add_bytes`] (which reports
    /// broken items precisely and salvages the rest); `reader` was then partly consumed.
    ///
    /// # Errors
    /// An error of `reader` (nothing is added).
    pub fn add_json_reader(
        &mut self,
        source: &str,
        reader: &mut dyn std::io::Read,
    ) -> std::io::Result<StreamOutcome> {
        self.add_json_reader_with(source, reader, PodFields::All)
    }

    /// [`ClusterSnapshot::add_json_reader`] keeping of each Pod the fields `pod_fields` says
    /// ([`PodFields::WhatIf`]: what a what-if reads; the others are checked as they are read,
    /// so the same inputs are taken or refused, and left empty). Only this one-pass read
    /// drops fields: an input read whole ([`StreamOutcome::ReadWhole`]) keeps them all.
    ///
    /// # Errors
    /// An error of `reader` (nothing is added).
    pub fn add_json_reader_with(
        &mut self,
        source: &str,
        reader: &mut dyn std::io::Read,
        pod_fields: PodFields,
    ) -> std::io::Result<StreamOutcome> {
        self.add_json_reader_window_with(
            source,
            reader,
            stream::WINDOW,
            stream::Parallel::of_machine(),
            pod_fields,
        )
    }

    /// [`ClusterSnapshot::add_json_reader`] reading `window` bytes at a time, its items shared
    /// out among threads as `parallel` says.
    #[cfg(test)]
    fn add_json_reader_window(
        &mut self,
        source: &str,
        reader: &mut dyn std::io::Read,
        window: usize,
        parallel: stream::Parallel,
    ) -> std::io::Result<StreamOutcome> {
        self.add_json_reader_window_with(source, reader, window, parallel, PodFields::All)
    }

    /// [`ClusterSnapshot::add_json_reader_with`] reading `window` bytes at a time, its items
    /// shared out among threads as `parallel` says.
    fn add_json_reader_window_with(
        &mut self,
        source: &str,
        reader: &mut dyn std::io::Read,
        window: usize,
        parallel: stream::Parallel,
        pod_fields: PodFields,
    ) -> std::io::Result<StreamOutcome> {
        let mut w = stream::Window::new(reader, self.limits.max_file_bytes, window, parallel);
        w.pod_fields = pod_fields;
        // the format is detected from the same prefix `add_bytes` looks at
        loop {
            match w.refill(0) {
                Ok(true) if w.buf.len() < DETECT_PREFIX + 3 => {}
                Ok(_) => break,
                Err(stream::Stop::Io(e)) => return Err(e),
                Err(stream::Stop::ReadWhole) => return Ok(StreamOutcome::ReadWhole),
            }
        }
        let bom = w.buf.len() - strip_bom(&w.buf).len();
        if detect_format(&w.buf) != InputFormat::Json || !self.is_empty() {
            return Ok(StreamOutcome::ReadWhole);
        }
        let before = Counts::of(self);
        let lens = Mark::lens(self);
        let mark = Mark::of(self);
        *self.over_limit = 0;
        *self.starts = Some(Box::default());
        *self.start_lines = Some(Box::default());
        let unknown_before: usize = self.unknown_kinds.values().sum();
        let read = stream::read_list(self, &mut w, bom);
        let kind = match read {
            Ok(kind)
                if !self.foreign_items_since(Some(&kind), &lens, unknown_before)
                    && self.object_count() > before.objects
                    && *self.over_limit == 0
                    && self.has_room_for_one()
                    && self.starts.is_some() =>
            {
                kind
            }
            other => {
                *self.starts = None;
                *self.start_lines = None;
                mark.roll_back(self);
                *self.over_limit = 0;
                return match other {
                    Err(stream::Stop::Io(e)) => Err(e),
                    _ => Ok(StreamOutcome::ReadWhole),
                };
            }
        };
        self.inputs.push(InputSpan {
            source: source.to_owned(),
            start: lens,
        });
        self.mark_listed(Some(&kind));
        // offsets count from the input's first byte (the BOM included), as for add_bytes
        Ok(StreamOutcome::Loaded(self.finish_input(
            source,
            InputFormat::Json,
            &before,
            &lens,
            0,
        )))
    }

    /// Keeps at most `limits.max_objects_per_snapshot` objects: what this input added past it
    /// (or was refused while reading) is counted in a [`LoadProblem`] and in
    /// [`ClusterSnapshot::limits_hit`], never stored.
    fn enforce_object_limit(&mut self, source: &str, mark: &[usize; Target::COUNT]) {
        let max = usize::try_from(self.limits.max_objects_per_snapshot).unwrap_or(usize::MAX);
        let count = self.object_count();
        let mut excess = count.saturating_sub(max);
        if excess > 0 {
            let mut lens = Mark::lens(self);
            for slot in (0..Target::COUNT).rev() {
                let added = lens[slot].saturating_sub(mark[slot]);
                let cut = added.min(excess);
                lens[slot] -= cut;
                excess -= cut;
                *self.over_limit += cut as u64;
            }
            Mark {
                lens,
                unknown_kinds: self.unknown_kinds.clone(),
                skipped_secrets: self.skipped_secrets,
            }
            .roll_back(self);
        }
        if *self.over_limit > 0 {
            let hit = crate::limits::LimitExceeded {
                limit: crate::limits::Limit::ObjectsPerSnapshot,
                max: self.limits.max_objects_per_snapshot,
                observed: Some(self.object_count() as u64 + *self.over_limit),
                subject: source.to_owned(),
            };
            self.problems.push(LoadProblem {
                file: source.to_owned(),
                message: format!("{} object(s) not kept: {hit}", *self.over_limit),
                ..LoadProblem::default()
            });
            self.limits_hit.push(hit);
            *self.over_limit = 0;
        }
    }

    /// True when no object was loaded into the typed vectors (whatever the problems,
    /// unknown kinds or skipped Secrets): nothing usable to analyse.
    pub fn is_empty(&self) -> bool {
        self.object_count() == 0
    }

    /// Replaces earlier objects by later ones that are the same object, in every vector that
    /// grew since `mark` (see [`ClusterSnapshot::duplicates`]); objects with the name of an
    /// earlier object but another identity are kept and noted in [`ClusterSnapshot::mixed`].
    /// O(n) per vector. Returns how many objects of this input were merged away (replacing an
    /// earlier one, or dropped for an earlier view that reports trouble).
    fn merge_duplicates(&mut self, source: &str, mark: &[usize; Target::COUNT]) -> usize {
        let inputs = std::mem::take(&mut self.inputs.0);
        let mut notes = Vec::new();
        let mut mixes: Vec<MixNote> = Vec::new();
        let mut conflicts: Vec<ConflictNote> = Vec::new();
        {
            let earlier_of = |earlier_index: usize, slot: usize| {
                inputs
                    .iter()
                    .rev()
                    .find(|span| span.start[slot] <= earlier_index)
                    .map_or("an earlier input", |span| span.source.as_str())
                    .to_owned()
            };
            if self.nodes.len() > mark[0] && mark[0] > 0 {
                let mut partial_conflicts = Vec::new();
                crate::describe::merge_partial_nodes(
                    &mut self.nodes,
                    mark[0],
                    &mut partial_conflicts,
                );
                for (i, object, verdict) in partial_conflicts {
                    conflicts.push(ConflictNote {
                        source: source.to_owned(),
                        earlier: earlier_of(i, 0),
                        kind: "Node".to_owned(),
                        object,
                        earlier_state: verdict.earlier_state,
                        later_state: verdict.later_state,
                        kept_later: verdict.kept_later,
                        why: verdict.why,
                    });
                }
            }
            let mut note = |kind: &str, plan: MergePlan| {
                for (earlier_index, object, slot, verdict) in plan.conflicts {
                    conflicts.push(ConflictNote {
                        source: source.to_owned(),
                        earlier: earlier_of(earlier_index, slot),
                        kind: kind.to_owned(),
                        object,
                        earlier_state: verdict.earlier_state,
                        later_state: verdict.later_state,
                        kept_later: verdict.kept_later,
                        why: verdict.why,
                    });
                }
                if plan.replaced > 0 {
                    notes.push(DuplicateNote {
                        source: source.to_owned(),
                        kind: kind.to_owned(),
                        count: plan.replaced,
                    });
                }
                for (earlier_index, object, slot) in plan.mixed {
                    let earlier = earlier_of(earlier_index, slot);
                    let earlier = earlier.as_str();
                    match mixes
                        .iter_mut()
                        .find(|m| m.kind == kind && m.earlier == earlier)
                    {
                        Some(m) => m.objects.push(object),
                        None => mixes.push(MixNote {
                            source: source.to_owned(),
                            earlier: earlier.to_owned(),
                            kind: kind.to_owned(),
                            objects: vec![object],
                        }),
                    }
                }
            };
            macro_rules! merge {
                ($i:expr, $field:ident, $kind:expr) => {
                    merge!($i, $field, $kind, |_o| "")
                };
                ($i:expr, $field:ident, $kind:expr, |$o:ident| $sub:expr) => {
                    if self.$field.len() > mark[$i] && mark[$i] > 0 {
                        let plan =
                            plan_merge(&mut self.$field, mark[$i], $i, |$o| (&$o.metadata, $sub));
                        note($kind, plan);
                    }
                };
            }
            // a partial view of a node (a `kubectl get nodes` row, a grep excerpt) and another
            // view of the same name are one node: merged field by field, not kept apart
            merge!(0, nodes, "Node");
            merge!(1, pods, "Pod");
            merge!(2, namespaces, "Namespace");
            merge!(3, resource_quotas, "ResourceQuota");
            merge!(4, limit_ranges, "LimitRange");
            merge!(5, priority_classes, "PriorityClass");
            merge!(6, daemon_sets, "DaemonSet");
            merge!(7, events, "Event");
            merge!(8, storage_classes, "StorageClass");
            merge!(9, persistent_volumes, "PersistentVolume");
            merge!(10, persistent_volume_claims, "PersistentVolumeClaim");
            merge!(11, roles, "Role", |o| o.kind.as_str());
            merge!(12, role_bindings, "RoleBinding", |o| o.kind.as_str());
            merge!(13, pod_disruption_budgets, "PodDisruptionBudget");
            merge!(14, workloads, "Workload", |o| o.kind.as_str());
            merge!(15, runtime_classes, "RuntimeClass");
        }
        // bootstrap tokens: the token id is the identity
        let tokens = Target::Secret as usize;
        if self.bootstrap_tokens.len() > mark[tokens] && mark[tokens] > 0 {
            let slots = duplicate_slots(&self.bootstrap_tokens, mark[tokens], |o| {
                (!o.token_id.is_empty()).then_some(o.token_id.as_str())
            });
            let count = apply_merge(&mut self.bootstrap_tokens, &slots, &[]);
            if count > 0 {
                notes.push(DuplicateNote {
                    source: source.to_owned(),
                    kind: "BootstrapToken".to_owned(),
                    count,
                });
            }
        }
        self.inputs.0 = inputs;
        let replaced = notes.iter().map(|n| n.count).sum::<usize>()
            + conflicts.iter().filter(|c| !c.kept_later).count();
        self.duplicates.append(&mut notes);
        self.mixed.append(&mut mixes);
        self.conflicts.append(&mut conflicts);
        replaced
    }

    /// Where the objects of `kind` that the last [`ClusterSnapshot::add_bytes`] added start:
    /// one byte offset into that input (a byte-order mark included) per object, in the order of
    /// the kind's vector from its length before the input. `kind` names a vector: `Node`, `Pod`,
    /// `Namespace`, `ResourceQuota`, `LimitRange`, `PriorityClass`, `DaemonSet`, `Event`,
    /// `StorageClass`, `PersistentVolume`, `PersistentVolumeClaim`, `Role` (Roles and
    /// ClusterRoles), `RoleBinding` (both kinds of binding), `PodDisruptionBudget`.
    ///
    /// Known when the one-pass JSON List reader read the input and every object it read is still
    /// where it was put (none merged with an earlier input's, none cut by a limit); `None`
    /// otherwise, and for any other kind name. The line index of `cube-diagnose` reads it, so a
    /// loaded input is never parsed a second time to find its objects.
    pub fn last_input_object_starts(&self, kind: &str) -> Option<&[usize]> {
        let slot = Self::starts_slot(kind)?;
        self.starts.as_ref().map(|s| s[slot as usize].as_slice())
    }

    /// The typed vector a kind name of [`ClusterSnapshot::last_input_object_starts`] names.
    fn starts_slot(kind: &str) -> Option<Target> {
        Some(match kind {
            "Node" => Target::Node,
            "Pod" => Target::Pod,
            "Namespace" => Target::Namespace,
            "ResourceQuota" => Target::ResourceQuota,
            "LimitRange" => Target::LimitRange,
            "PriorityClass" => Target::PriorityClass,
            "DaemonSet" => Target::DaemonSet,
            "Event" => Target::Event,
            "StorageClass" => Target::StorageClass,
            "PersistentVolume" => Target::PersistentVolume,
            "PersistentVolumeClaim" => Target::PersistentVolumeClaim,
            "Role" => Target::Role,
            "RoleBinding" => Target::RoleBinding,
            "PodDisruptionBudget" => Target::PodDisruptionBudget,
            _ => return None,
        })
    }

    /// The 1-based line where each object the last input added starts, per kind (as
    /// [`ClusterSnapshot::last_input_object_starts`]), when that input was read from a reader
    /// ([`ClusterSnapshot::add_json_reader`]): its text is not kept, so its lines are counted
    /// while it is read. `None` for inputs given as bytes.
    pub fn last_input_object_lines(&self, kind: &str) -> Option<&[usize]> {
        let slot = Self::starts_slot(kind)?;
        self.start_lines
            .as_ref()
            .map(|s| s[slot as usize].as_slice())
    }

    /// Number of objects held in the typed vectors.
    pub fn object_count(&self) -> usize {
        self.nodes.len()
            + self.pods.len()
            + self.namespaces.len()
            + self.resource_quotas.len()
            + self.limit_ranges.len()
            + self.priority_classes.len()
            + self.daemon_sets.len()
            + self.events.len()
            + self.storage_classes.len()
            + self.persistent_volumes.len()
            + self.persistent_volume_claims.len()
            + self.roles.len()
            + self.role_bindings.len()
            + self.pod_disruption_budgets.len()
            + self.bootstrap_tokens.len()
            + self.workloads.len()
            + self.runtime_classes.len()
    }

    // ------------------------------------------------------------------ JSON

    fn load_json(&mut self, ctx: &mut Ctx<'_>, bytes: &[u8]) {
        let mark = Mark::of(self);
        *self.starts = Some(Box::default());
        let before = Mark::lens(self);
        let unknown_before: usize = self.unknown_kinds.values().sum();
        if let Ok(kind) = fast::read_list(self, bytes)
            && !self.foreign_items_since(kind.as_deref(), &before, unknown_before)
        {
            ctx.saw_object = true;
            self.mark_listed(kind.as_deref());
            return;
        }
        *self.starts = None;
        mark.roll_back(self);
        *self.over_limit = 0;
        let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<TopDoc<'_>>();
        let mut document = 0usize;
        let mut start = 0usize;
        // where the current stream began (it restarts after a broken value)
        let mut base = 0usize;
        loop {
            match stream.next() {
                None => break,
                Some(Ok(doc)) => {
                    let end = base + stream.byte_offset();
                    ctx.document = document;
                    let raw = bytes.get(start..end).unwrap_or_default();
                    self.load_json_doc(ctx, doc, raw);
                    start = end;
                }
                Some(Err(err)) => {
                    let rest = bytes.get(start..).unwrap_or_default();
                    // JSON documents of one YAML stream: a `---` (or `...`) marker between
                    // two values separates them; it is not a broken value
                    if let Some(skip) = yaml_document_marker(rest) {
                        start += skip;
                        base = start;
                        stream = serde_json::Deserializer::from_slice(
                            bytes.get(start..).unwrap_or_default(),
                        )
                        .into_iter::<TopDoc<'_>>();
                        continue;
                    }
                    ctx.document = document;
                    ctx.saw_object = true;
                    // serde_json's line and column count from where the stream began
                    let err_at = (base
                        + offset_of_position(
                            bytes.get(base..).unwrap_or_default(),
                            err.line(),
                            err.column(),
                        ))
                    .saturating_sub(start);
                    match self.salvage_json(ctx, rest, &err, err_at, bytes.len()) {
                        Some(next) if next < rest.len() => {
                            // a stream of values: go on with the next one
                            start += next;
                            base = start;
                            stream = serde_json::Deserializer::from_slice(
                                bytes.get(start..).unwrap_or_default(),
                            )
                            .into_iter::<TopDoc<'_>>();
                            document += 1;
                            continue;
                        }
                        _ => break,
                    }
                }
            }
            document += 1;
        }
    }

    /// After a syntax error in a JSON input (`rest` starts at the value that failed): keeps the
    /// complete items of a List (or array) before the error, then resynchronises at the next
    /// item after each broken one, so one broken item costs only itself. For a stream of
    /// values that are not a List, returns the offset (in `rest`) of the next value to read.
    fn salvage_json(
        &mut self,
        ctx: &mut Ctx<'_>,
        rest: &[u8],
        err: &serde_json::Error,
        err_at: usize,
        total: usize,
    ) -> Option<usize> {
        let (kind, items) = salvage_items(rest);
        let kept = items.len();
        let items_at = kept
            .checked_sub(1)
            .and_then(|last| items.get(last))
            .map(|raw| offset_in(rest, raw.get().as_bytes()) + raw.get().len())
            .or_else(|| json_items_start(rest));
        let mut item_kind = kind.as_deref().and_then(list_item_kind).map(str::to_owned);
        let push = |this: &mut Self, ctx: &Ctx<'_>, item: Option<usize>, message: String| {
            this.problems.push(LoadProblem {
                file: ctx.source.to_owned(),
                document: ctx.document,
                item,
                message,
                ..LoadProblem::default()
            });
        };
        if err.is_eof() {
            self.add_json_items_from(ctx, items, item_kind.as_deref(), 0);
            let what = format!("invalid JSON: input is truncated at byte {total} ({err})");
            let message = if kept > 0 {
                format!("{what}; kept the {kept} complete items before item {kept}")
            } else {
                what
            };
            push(self, ctx, (kept > 0).then_some(kept), message);
            return None;
        }
        let Some(mut pos) = items_at else {
            // not a List: a broken value of a stream; read on from the next line starting
            // with `{` or `[`
            push(self, ctx, None, format!("invalid JSON: {err}"));
            return next_value_line(rest, err_at);
        };
        self.add_json_items_from(ctx, items, item_kind.as_deref(), 0);
        let mut index = kept;
        let mut err_text = err.to_string();
        let mut err_at = err_at;
        loop {
            let broken = skip_separators(rest, pos);
            match next_json_item(rest, broken, err_at) {
                NextItem::At(next) => {
                    push(
                        self,
                        ctx,
                        Some(index),
                        format!(
                            "invalid JSON: {err_text}; item {index} skipped, reading resumed at item {}",
                            index + 1
                        ),
                    );
                    let (more, outcome) = json_items_from(rest, next);
                    if item_kind.is_none()
                        && let ItemsEnd::Closed(end) = outcome
                    {
                        item_kind = trailing_list_kind(rest.get(end..).unwrap_or_default())
                            .and_then(|k| list_item_kind(&k).map(str::to_owned));
                    }
                    let n = more.len();
                    self.add_json_items_from(ctx, more, item_kind.as_deref(), index + 1);
                    index += 1 + n;
                    match outcome {
                        ItemsEnd::Closed(_) => return None,
                        ItemsEnd::Broken {
                            at,
                            line,
                            column,
                            message,
                        } => {
                            pos = at;
                            err_at = offset_of_position(rest, line, column);
                            err_text = message;
                        }
                    }
                }
                NextItem::End => {
                    push(
                        self,
                        ctx,
                        Some(index),
                        format!("invalid JSON: {err_text}; item {index} skipped (the last item)"),
                    );
                    return None;
                }
                NextItem::Lost => {
                    push(
                        self,
                        ctx,
                        Some(index),
                        format!(
                            "invalid JSON: {err_text}; item {index} and what follows could not be read (no next item found)"
                        ),
                    );
                    return None;
                }
            }
        }
    }

    fn load_json_doc(&mut self, ctx: &mut Ctx<'_>, doc: TopDoc<'_>, raw: &[u8]) {
        match doc {
            TopDoc::Array(items) => self.add_json_items(ctx, items, None),
            TopDoc::Object { kind, items } => {
                let is_list = kind.as_deref().is_some_and(is_list_kind);
                match (is_list, items) {
                    (true, Some(items)) => {
                        ctx.saw_object = true;
                        let item_kind = kind.as_deref().and_then(list_item_kind);
                        ctx.foreign_items = 0;
                        self.add_json_items(ctx, items, item_kind);
                        self.mark_listed_unless(kind.as_deref(), ctx.foreign_items);
                    }
                    (true, None) => {
                        ctx.saw_object = true;
                        self.mark_listed(kind.as_deref());
                    }
                    (false, _) => {
                        let text = std::str::from_utf8(raw).unwrap_or_default().trim();
                        match serde_json::from_str::<&RawValue>(text) {
                            Ok(value) => self.add_object(ctx, Obj::Json(value), None),
                            Err(err) => self.problems.push(ctx.problem(
                                String::new(),
                                String::new(),
                                format!("invalid JSON: {err}"),
                            )),
                        }
                    }
                }
            }
            TopDoc::Scalar => {}
        }
    }

    // ------------------------------------------------------------------ YAML

    fn load_yaml(&mut self, ctx: &mut Ctx<'_>, text: &str) {
        let max_documents = self.limits.max_documents_per_file;
        let (docs, total) = split_yaml_documents_bounded(text, max_documents);
        if total > max_documents {
            // the documents past the limit are counted, not read
            let hit = self.limits.exceeded(
                crate::limits::Limit::DocumentsPerFile,
                ctx.source,
                Some(total),
            );
            self.problems.push(ctx.problem(
                String::new(),
                String::new(),
                format!(
                    "{} YAML document(s) past the first {max_documents} not read: {hit}",
                    total - max_documents
                ),
            ));
            self.limits_hit.push(hit);
        }
        for (document, doc) in docs.into_iter().enumerate() {
            ctx.document = document;
            ctx.item = None;
            if !looks_like_yaml_structure(doc) {
                self.not_snapshot.push(NotSnapshot {
                    source: format!("{} (document {document})", ctx.source),
                    format: crate::describe::detect_text_format(doc),
                });
                continue;
            }
            let value = match ctx.alias.parse::<serde_json::Value>(doc, yaml_options()) {
                Ok(value) => value,
                Err(err) => {
                    if crate::yaml::is_alias_limit(&err) {
                        self.alias_limit(ctx);
                        continue;
                    }
                    let message = yaml_error_message(doc, &err.to_string());
                    // One broken item must not lose the whole List: read its items one by one.
                    if !self.salvage_yaml_list(ctx, doc, &message) {
                        self.problems
                            .push(ctx.problem(String::new(), String::new(), message));
                    }
                    continue;
                }
            };
            self.load_value_doc(ctx, &value);
        }
        self.finish_alias_limit(ctx);
    }

    /// Records that the YAML alias budget of the input stopped a document (or a List item):
    /// the first time as a problem and a limit hit, every later time counted in that problem
    /// (once per input: the budget is the file's, so every later document that uses an alias
    /// is stopped by the same cause).
    fn alias_limit(&mut self, ctx: &mut Ctx<'_>) {
        ctx.saw_object = true;
        if let Some((at, last)) = ctx.alias_problem.as_mut()
            && let Some(p) = self.problems.get_mut(*at)
        {
            p.repeats += 1;
            *last = ctx.document;
            return;
        }
        let hit = ctx.alias.exceeded(ctx.source);
        ctx.alias_problem = Some((self.problems.len(), ctx.document));
        self.problems.push(ctx.problem(
            String::new(),
            String::new(),
            format!("document not read: {hit}"),
        ));
        if !ctx.alias_limit_hit {
            ctx.alias_limit_hit = true;
            self.limits_hit.push(hit);
        }
    }

    /// The one alias-limit problem of an input, with how many documents (or items) it stopped.
    fn finish_alias_limit(&mut self, ctx: &Ctx<'_>) {
        if let Some((at, last)) = ctx.alias_problem
            && let Some(p) = self.problems.get_mut(at)
            && p.repeats > 0
        {
            let hit = ctx.alias.exceeded(ctx.source);
            p.message = format!(
                "{} document(s) or item(s) not read, document {} to {last} (each uses an alias after the file's budget ran out): {hit}",
                p.count(),
                p.document
            );
        }
    }

    /// A YAML List document that does not parse as a whole: its `items` are read one by one,
    /// so one broken item costs only itself. Returns false when the document has no block
    /// `items:` sequence (nothing to salvage).
    fn salvage_yaml_list(&mut self, ctx: &mut Ctx<'_>, doc: &str, whole_error: &str) -> bool {
        let Some(list) = split_yaml_list(doc) else {
            return false;
        };
        ctx.saw_object = true;
        let item_kind = list
            .kind
            .as_deref()
            .and_then(list_item_kind)
            .map(str::to_owned);
        let mut broken = Vec::new();
        for (index, chunk) in list.items.iter().enumerate() {
            ctx.item = Some(index);
            match ctx.alias.parse::<serde_json::Value>(chunk, yaml_options()) {
                Ok(value) => self.add_object(ctx, Obj::Value(&value), item_kind.as_deref()),
                Err(err) if crate::yaml::is_alias_limit(&err) => self.alias_limit(ctx),
                Err(err) => {
                    broken.push(index);
                    let message = yaml_error_message(chunk, &err.to_string());
                    self.problems
                        .push(ctx.problem(String::new(), String::new(), message));
                }
            }
        }
        ctx.item = None;
        if broken.is_empty() {
            // the items are fine: the error is in the List's own fields
            self.problems.push(ctx.problem(
                String::new(),
                String::new(),
                format!("{whole_error} (outside the items; every item was read)"),
            ));
        }
        true
    }

    fn load_value_doc(&mut self, ctx: &mut Ctx<'_>, value: &serde_json::Value) {
        match value {
            serde_json::Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    ctx.item = Some(index);
                    self.add_object(ctx, Obj::Value(item), None);
                }
                ctx.item = None;
            }
            serde_json::Value::Object(map) => {
                let kind = map.get("kind").and_then(|k| k.as_str());
                match (kind.is_some_and(is_list_kind), map.get("items")) {
                    (true, Some(serde_json::Value::Array(items))) => {
                        ctx.saw_object = true;
                        let item_kind = kind.and_then(list_item_kind);
                        ctx.foreign_items = 0;
                        for (index, item) in items.iter().enumerate() {
                            ctx.item = Some(index);
                            self.add_object(ctx, Obj::Value(item), item_kind);
                        }
                        ctx.item = None;
                        self.mark_listed_unless(kind, ctx.foreign_items);
                    }
                    (true, Some(serde_json::Value::Null) | None) => {
                        ctx.saw_object = true;
                        self.mark_listed(kind);
                    }
                    _ => self.add_object(ctx, Obj::Value(value), None),
                }
            }
            serde_json::Value::Null => {}
            _ => self.problems.push(ctx.problem(
                String::new(),
                String::new(),
                "document is not an object".to_owned(),
            )),
        }
    }

    // ------------------------------------------------------------------ dispatch

    fn add_object(&mut self, ctx: &mut Ctx<'_>, obj: Obj<'_>, default_kind: Option<&str>) {
        let head = obj.head();
        self.add_object_with_head(ctx, obj, head, default_kind);
    }

    /// Adds the items of a JSON List or array: peeks every head first (cheap: `kind` comes in
    /// the first keys), reserves the typed vectors exactly, then reads each item.
    fn add_json_items(
        &mut self,
        ctx: &mut Ctx<'_>,
        items: Vec<&RawValue>,
        default_kind: Option<&str>,
    ) {
        self.add_json_items_from(ctx, items, default_kind, 0);
    }

    /// [`ClusterSnapshot::add_json_items`], numbering the items from `first`.
    fn add_json_items_from(
        &mut self,
        ctx: &mut Ctx<'_>,
        items: Vec<&RawValue>,
        default_kind: Option<&str>,
        first: usize,
    ) {
        let heads: Vec<Head> = items.iter().map(|item| Obj::Json(item).head()).collect();
        let mut counts = [0usize; Target::COUNT];
        for head in &heads {
            let kind = head.kind.as_deref().or(default_kind).unwrap_or_default();
            if let Some(target) = Target::of(kind, head.api_version.as_deref().map(api_group)) {
                counts[target as usize] += 1;
            }
        }
        self.reserve(&counts);
        for (index, (item, head)) in items.into_iter().zip(heads).enumerate() {
            ctx.item = Some(first + index);
            self.add_object_with_head(ctx, Obj::Json(item), head, default_kind);
        }
        ctx.item = None;
    }

    fn reserve(&mut self, counts: &[usize; Target::COUNT]) {
        let n = |t: Target| counts[t as usize];
        self.nodes.reserve(n(Target::Node));
        self.pods.reserve(n(Target::Pod));
        self.namespaces.reserve(n(Target::Namespace));
        self.resource_quotas.reserve(n(Target::ResourceQuota));
        self.limit_ranges.reserve(n(Target::LimitRange));
        self.priority_classes.reserve(n(Target::PriorityClass));
        self.daemon_sets.reserve(n(Target::DaemonSet));
        self.events.reserve(n(Target::Event));
        self.storage_classes.reserve(n(Target::StorageClass));
        self.persistent_volumes.reserve(n(Target::PersistentVolume));
        self.persistent_volume_claims
            .reserve(n(Target::PersistentVolumeClaim));
        self.roles.reserve(n(Target::Role));
        self.workloads.reserve(n(Target::Workload));
        self.role_bindings.reserve(n(Target::RoleBinding));
        self.pod_disruption_budgets
            .reserve(n(Target::PodDisruptionBudget));
        self.runtime_classes.reserve(n(Target::RuntimeClass));
    }

    fn add_object_with_head(
        &mut self,
        ctx: &mut Ctx<'_>,
        obj: Obj<'_>,
        head: Head,
        default_kind: Option<&str>,
    ) {
        let kind = match (&head.kind, default_kind) {
            (Some(kind), _) => kind.as_str(),
            (None, Some(kind)) => kind,
            (None, None) => {
                // Kept aside: if no value of the input has a kind, the input is not a snapshot
                // (JSON Lines logs, Helm values) and these are dropped.
                let ident = obj.ident(None);
                let problem = ctx.problem(ident, String::new(), "object has no kind".to_owned());
                ctx.kindless.push(problem);
                return;
            }
        };
        ctx.saw_object = true;
        let group = head.api_version.as_deref().map(api_group);
        // H3: an item of another kind than its typed List's (a Pod in a `NodeList`) is read as
        // what it says it is, never as the List's kind, and named: the List is then no
        // complete list of its kind (`mark_listed` skips it)
        if let (Some(own), Some(list_item)) = (head.kind.as_deref(), default_kind)
            && own != list_item
            && !(own == "Status" && group.is_none_or(str::is_empty))
        {
            ctx.foreign_items += 1;
            let ident = obj.ident(Some(own));
            let problem = ctx.problem(
                ident,
                "kind".to_owned(),
                format!(
                    "a {own} in a {list_item}List: read as the {own} it says it is, not as a {list_item}; the list is not taken as the complete list of {list_item}s"
                ),
            );
            self.problems.push(problem);
        }
        if kind == "Status" && group.is_none_or(str::is_empty) {
            self.add_status(ctx.source, &obj);
            return;
        }
        let Some(target) = Target::of(kind, group) else {
            self.count_unknown(kind, head.api_version.as_deref(), group);
            return;
        };
        if !matches!(target, Target::Secret) && !self.has_room() {
            return;
        }
        let events_v1 = group == Some("events.k8s.io");
        let mut dropped = Vec::new();
        let d = &mut dropped;
        let result = match target {
            Target::Node => obj.typed(d).map(|o| self.nodes.push(o)),
            Target::Pod => obj.typed(d).map(|o| self.pods.push(o)),
            Target::Namespace => obj.typed(d).map(|o| self.namespaces.push(o)),
            Target::ResourceQuota => obj.typed(d).map(|o| self.resource_quotas.push(o)),
            Target::LimitRange => obj.typed(d).map(|o| self.limit_ranges.push(o)),
            Target::PriorityClass => obj.typed(d).map(|o| self.priority_classes.push(o)),
            Target::DaemonSet => obj.typed(d).map(|o| self.daemon_sets.push(o)),
            Target::Event if events_v1 => obj
                .typed::<EventsV1Event>(d)
                .map(|o| self.events.push(o.into_event())),
            Target::Event => obj.typed(d).map(|o| self.events.push(o)),
            Target::StorageClass => obj.typed(d).map(|o| self.storage_classes.push(o)),
            Target::PersistentVolume => obj.typed(d).map(|o| self.persistent_volumes.push(o)),
            Target::PersistentVolumeClaim => {
                obj.typed(d).map(|o| self.persistent_volume_claims.push(o))
            }
            Target::Role => obj.typed::<Role>(d).map(|mut o| {
                o.kind = kind.to_owned();
                self.roles.push(o)
            }),
            Target::RoleBinding => obj.typed::<RoleBinding>(d).map(|mut o| {
                o.kind = kind.to_owned();
                self.role_bindings.push(o)
            }),
            Target::RuntimeClass => obj.typed(d).map(|o| self.runtime_classes.push(o)),
            Target::PodDisruptionBudget => {
                obj.typed(d).map(|o| self.pod_disruption_budgets.push(o))
            }
            Target::Workload => obj.typed::<Workload>(d).map(|mut o| {
                o.kind = kind.to_owned();
                self.workloads.push(o)
            }),
            Target::Secret => self.add_secret(&obj),
        };
        if let Err(err) = result {
            let ident = obj.ident(Some(kind));
            self.problems
                .push(ctx.problem(ident, err.field, err.message));
        } else if !dropped.is_empty() {
            let ident = obj.ident(Some(kind));
            for err in dropped {
                self.problems
                    .push(ctx.problem(ident.clone(), err.field, err.message));
            }
        }
    }

    /// True when, since `before` (the typed vectors' lengths) and `unknown_before` (objects of
    /// unknown kinds), objects of another kind than the typed `list_kind`'s were added (a Pod
    /// in a `NodeList`, H3): the one-pass readers then give the input to the general path,
    /// which names each such item.
    fn foreign_items_since(
        &self,
        list_kind: Option<&str>,
        before: &[usize; Target::COUNT],
        unknown_before: usize,
    ) -> bool {
        let Some(item_kind) = list_kind.and_then(list_item_kind) else {
            return false;
        };
        let own = Target::of(item_kind, None);
        let after = Mark::lens(self);
        let other_typed = (0..Target::COUNT)
            .any(|i| own.is_none_or(|t| t as usize != i) && after[i] != before[i]);
        let unknown_now: usize = self.unknown_kinds.values().sum();
        other_typed || (own.is_some() && unknown_now != unknown_before)
    }

    /// A typed `<Kind>List` was read completely: the kind's absence is real
    /// ([`ClusterSnapshot::kinds_listed`]).
    fn mark_listed(&mut self, list_kind: Option<&str>) {
        self.mark_listed_unless(list_kind, 0);
    }

    /// [`ClusterSnapshot::mark_listed`] unless `foreign` items of other kinds were in the List
    /// (H3: a `NodeList` of Pods is no complete, empty list of Nodes).
    fn mark_listed_unless(&mut self, list_kind: Option<&str>, foreign: usize) {
        if foreign > 0 {
            return;
        }
        if let Some(kind) = list_kind.and_then(list_item_kind)
            && Target::of(kind, None).is_some()
            && kind != "Secret"
        {
            self.kinds_listed.insert(kind.to_owned());
        }
    }

    /// A `Status` object in a dump (`kubectl get ... -o json` of a refused list, an API error
    /// body): kept in [`ClusterSnapshot::api_statuses`]; a failure to read a kind
    /// ([`crate::status::ApiStatus::is_read_failure`]) names the kind that could not be read
    /// ([`ClusterSnapshot::missing_kinds`]); a success is counted as an unknown kind.
    fn add_status(&mut self, source: &str, obj: &Obj<'_>) {
        let parsed: Option<serde_json::Value> = match obj {
            Obj::Json(raw) => serde_json::from_str(raw.get()).ok(),
            Obj::Value(v) => serde_json::Value::deserialize(*v).ok(),
        };
        let mut status = parsed
            .and_then(|v| crate::status::ApiStatus::deserialize(v).ok())
            .unwrap_or_default();
        if !status.is_failure() {
            *self.unknown_kinds.entry("Status".to_owned()).or_insert(0) += 1;
            return;
        }
        status.source = source.to_owned();
        if status.is_read_failure() {
            let kind = kind_of_resource(&status.details.kind)
                .map(str::to_owned)
                .or_else(|| {
                    // `nodes is forbidden: User "x" cannot list resource "nodes" ...`
                    let word = status.message.split_whitespace().next().unwrap_or_default();
                    kind_of_resource(word).map(str::to_owned)
                })
                .unwrap_or_else(|| {
                    if status.details.kind.is_empty() {
                        "unknown kind".to_owned()
                    } else {
                        status.details.kind.clone()
                    }
                });
            let reason = crate::redact::redact_string(&format!(
                "{} ({}): {}",
                if status.reason.is_empty() {
                    "Failure"
                } else {
                    &status.reason
                },
                status.code,
                status.message
            ));
            self.missing_kinds.entry(kind).or_insert(reason);
        }
        self.api_statuses.push(status);
    }

    /// Counts a kind not kept: `Kind`, or `apiVersion/Kind` for a core kind name in another
    /// API group.
    fn count_unknown(&mut self, kind: &str, api_version: Option<&str>, group: Option<&str>) {
        let key = match (api_version, group) {
            (Some(api), Some(g)) if Target::of(kind, None).is_some() && !g.is_empty() => {
                format!("{api}/{kind}")
            }
            _ => kind.to_owned(),
        };
        *self.unknown_kinds.entry(key).or_insert(0) += 1;
    }

    fn add_secret(&mut self, obj: &Obj<'_>) -> Result<(), ObjError> {
        // A deserializer's message can quote the value it choked on: keep only the field path.
        let withheld = |err: ObjError| ObjError {
            field: err.field,
            message: "invalid Secret (details withheld: it may hold a secret)".to_owned(),
        };
        let head = obj.typed_strict::<SecretType>().map_err(withheld)?;
        if head.type_ != BOOTSTRAP_TOKEN_TYPE {
            self.skipped_secrets += 1;
            return Ok(());
        }
        let secret = obj.typed_strict::<BootstrapSecret>().map_err(withheld)?;
        self.bootstrap_tokens.push(secret.into_token()?);
        Ok(())
    }
}

/// For each object of the current input (`items[mark..]`) whose key is held by an object of an
/// earlier input (`items[..mark]`), the index of the first such earlier object (empty when there
/// is none). Objects of one input are never merged with each other: a file may hold two states
/// of the same object on purpose.
fn duplicate_slots<'a, T, K: std::hash::Hash + Eq>(
    items: &'a [T],
    mark: usize,
    key: impl Fn(&'a T) -> Option<K>,
) -> Vec<Option<usize>> {
    let mut first_of: Vec<Option<usize>> = Vec::new();
    if mark == 0 {
        return first_of;
    }
    let (old, new) = items.split_at(mark.min(items.len()));
    let mut seen: std::collections::HashMap<K, usize> =
        std::collections::HashMap::with_capacity(old.len());
    for (index, item) in old.iter().enumerate() {
        if let Some(k) = key(item) {
            seen.entry(k).or_insert(index);
        }
    }
    for (offset, item) in new.iter().enumerate() {
        let Some(first) = key(item).and_then(|k| seen.get(&k).copied()) else {
            continue;
        };
        if first_of.is_empty() {
            first_of.resize(items.len(), None);
        }
        if let Some(slot) = first_of.get_mut(mark + offset) {
            *slot = Some(first);
        }
    }
    first_of
}

/// Moves duplicates into place (see [`duplicate_slots`]); returns how many were removed. A
/// later object flagged in `keep_earlier` (empty: none) is dropped instead, the earlier view
/// staying in place (see [`choose_view`]).
fn apply_merge<T>(items: &mut Vec<T>, first_of: &[Option<usize>], keep_earlier: &[bool]) -> usize {
    if first_of.is_empty() {
        return 0;
    }
    // Pass 2: move each later object into the first one's slot (in input order, so the last
    // one ends there), leaving the older content at the later index to be removed.
    let mut removed = 0;
    for (index, first) in first_of.iter().enumerate() {
        if let Some(first) = *first {
            if !keep_earlier.get(index).copied().unwrap_or(false) {
                items.swap(first, index);
            }
            removed += 1;
        }
    }
    let mut flags = first_of.iter();
    items.retain(|_| !matches!(flags.next(), Some(Some(_))));
    removed
}

/// What [`plan_merge`] did: how many earlier objects were replaced, and the objects kept apart
/// (index of the earlier object with the same name, `namespace/name`, vector slot).
struct MergePlan {
    replaced: usize,
    mixed: Vec<(usize, String, usize)>,
    /// Views that disagree on health: index of the earlier object, `namespace/name`, vector
    /// slot, and [`choose_view`]'s verdict (kept later, why, earlier state, later state).
    conflicts: Vec<(usize, String, usize, ViewVerdict)>,
}

/// Whether two objects with the same kind, namespace and name are the same object: decided by
/// their uids when both have one, else by their creation times when both have one; when
/// neither has a uid nor a creation time, only identical objects are the same (two clusters'
/// hand-written or stripped dumps must not be merged by name). An object with a uid and one
/// without (a node as JSON and as `kubectl describe` text) are the same.
fn same_identity<T: PartialEq>(a: &T, am: &ObjectMeta, b: &T, bm: &ObjectMeta) -> bool {
    if !am.uid.is_empty() && !bm.uid.is_empty() {
        return am.uid == bm.uid;
    }
    if let (Some(x), Some(y)) = (&am.creation_timestamp, &bm.creation_timestamp) {
        return x == y;
    }
    let anonymous = |m: &ObjectMeta| m.uid.is_empty() && m.creation_timestamp.is_none();
    if anonymous(am) && anonymous(bm) {
        return a == b;
    }
    true
}

/// Merges the objects of the current input (`items[mark..]`) into the earlier ones (see
/// [`ClusterSnapshot::merge_duplicates`]). `meta` gives an object's metadata and a sub-kind
/// (`ClusterRole` vs `Role`) that is part of its name.
fn plan_merge<T: PartialEq + ObservedState>(
    items: &mut Vec<T>,
    mark: usize,
    slot: usize,
    meta: impl Fn(&T) -> (&ObjectMeta, &str),
) -> MergePlan {
    let mut plan = MergePlan {
        replaced: 0,
        mixed: Vec::new(),
        conflicts: Vec::new(),
    };
    let mut keep_earlier: Vec<bool> = Vec::new();
    let mark = mark.min(items.len());
    // earlier objects by (sub-kind, namespace, name)
    let mut by_name: std::collections::HashMap<(&str, &str, &str), Vec<usize>> =
        std::collections::HashMap::new();
    for (index, item) in items[..mark].iter().enumerate() {
        let (m, sub) = meta(item);
        if !m.name.is_empty() {
            by_name
                .entry((sub, m.namespace.as_str(), m.name.as_str()))
                .or_default()
                .push(index);
        }
    }
    let mut first_of: Vec<Option<usize>> = Vec::new();
    for (offset, item) in items[mark..].iter().enumerate() {
        let (m, sub) = meta(item);
        if m.name.is_empty() {
            continue;
        }
        let Some(candidates) = by_name.get(&(sub, m.namespace.as_str(), m.name.as_str())) else {
            continue;
        };
        match candidates
            .iter()
            .copied()
            .find(|&c| same_identity(&items[c], meta(&items[c]).0, item, m))
        {
            Some(first) => {
                if first_of.is_empty() {
                    first_of.resize(items.len(), None);
                }
                first_of[mark + offset] = Some(first);
                if let Some(verdict) = choose_view(&items[first], item) {
                    if !verdict.kept_later {
                        if keep_earlier.is_empty() {
                            keep_earlier.resize(items.len(), false);
                        }
                        keep_earlier[mark + offset] = true;
                    }
                    plan.conflicts.push((first, object_label(m), slot, verdict));
                }
            }
            None => {
                plan.mixed.push((candidates[0], object_label(m), slot));
            }
        }
    }
    drop(by_name);
    // a later view dropped for the earlier one replaced nothing (its conflict note says so)
    let dropped = keep_earlier.iter().filter(|k| **k).count();
    plan.replaced = apply_merge(items, &first_of, &keep_earlier) - dropped;
    plan
}

/// `namespace/name`, or `name` for a cluster-scoped object.
fn object_label(m: &ObjectMeta) -> String {
    if m.namespace.is_empty() {
        m.name.clone()
    } else {
        format!("{}/{}", m.namespace, m.name)
    }
}

/// Lengths of everything the JSON fast path may add, to undo a partial attempt.
struct Mark {
    lens: [usize; Target::COUNT],
    unknown_kinds: BTreeMap<String, usize>,
    skipped_secrets: usize,
}

impl Mark {
    fn lens(s: &ClusterSnapshot) -> [usize; Target::COUNT] {
        [
            s.nodes.len(),
            s.pods.len(),
            s.namespaces.len(),
            s.resource_quotas.len(),
            s.limit_ranges.len(),
            s.priority_classes.len(),
            s.daemon_sets.len(),
            s.events.len(),
            s.storage_classes.len(),
            s.persistent_volumes.len(),
            s.persistent_volume_claims.len(),
            s.roles.len(),
            s.role_bindings.len(),
            s.pod_disruption_budgets.len(),
            s.workloads.len(),
            s.runtime_classes.len(),
            s.bootstrap_tokens.len(),
        ]
    }
    fn of(s: &ClusterSnapshot) -> Self {
        Mark {
            lens: Self::lens(s),
            unknown_kinds: s.unknown_kinds.clone(),
            skipped_secrets: s.skipped_secrets,
        }
    }
    fn roll_back(self, s: &mut ClusterSnapshot) {
        let l = self.lens;
        s.nodes.truncate(l[0]);
        s.pods.truncate(l[1]);
        s.namespaces.truncate(l[2]);
        s.resource_quotas.truncate(l[3]);
        s.limit_ranges.truncate(l[4]);
        s.priority_classes.truncate(l[5]);
        s.daemon_sets.truncate(l[6]);
        s.events.truncate(l[7]);
        s.storage_classes.truncate(l[8]);
        s.persistent_volumes.truncate(l[9]);
        s.persistent_volume_claims.truncate(l[10]);
        s.roles.truncate(l[11]);
        s.role_bindings.truncate(l[12]);
        s.pod_disruption_budgets.truncate(l[13]);
        s.workloads.truncate(l[14]);
        s.runtime_classes.truncate(l[15]);
        s.bootstrap_tokens.truncate(l[16]);
        s.unknown_kinds = self.unknown_kinds;
        s.skipped_secrets = self.skipped_secrets;
    }
}

/// Counts used to build a [`LoadOutcome`].
struct Counts {
    objects: usize,
    skipped: usize,
    problems: usize,
}

impl Counts {
    fn of(s: &ClusterSnapshot) -> Self {
        Counts {
            objects: s.object_count(),
            skipped: s.unknown_kinds.values().sum::<usize>() + s.skipped_secrets,
            problems: s.problems.len(),
        }
    }
}

/// Where we are in an input (for problems).
struct Ctx<'s> {
    source: &'s str,
    document: usize,
    item: Option<usize>,
    /// At least one value looked like a Kubernetes object (had a `kind`, or was a List).
    saw_object: bool,
    /// Problems for values without `kind`, recorded only when `saw_object` ends up true.
    kindless: Vec<LoadProblem>,
    /// The input's YAML alias budget, shared by all its documents.
    alias: crate::yaml::AliasBudget,
    /// The alias limit was hit (reported once per input).
    alias_limit_hit: bool,
    /// The input's alias-limit problem (its index in the snapshot's problems) and the last
    /// document it stopped: later stops are counted in it.
    alias_problem: Option<(usize, usize)>,
    /// Items of the typed List being read whose own `kind` is not the List's (a Pod in a
    /// `NodeList`): the List is then not a complete list of its kind (H3).
    foreign_items: usize,
}

impl<'s> Ctx<'s> {
    fn new(source: &'s str, limits: &crate::limits::Limits) -> Self {
        Ctx {
            source,
            document: 0,
            item: None,
            saw_object: false,
            kindless: Vec::new(),
            alias: crate::yaml::AliasBudget::new(limits),
            alias_limit_hit: false,
            alias_problem: None,
            foreign_items: 0,
        }
    }
    fn problem(&self, object: String, field: String, message: String) -> LoadProblem {
        LoadProblem {
            file: self.source.to_owned(),
            document: self.document,
            item: self.item,
            object,
            field,
            message,
            repeats: 0,
        }
    }
}

/// The typed vector an object goes to.
#[derive(Clone, Copy)]
#[repr(usize)]
enum Target {
    Node,
    Pod,
    Namespace,
    ResourceQuota,
    LimitRange,
    PriorityClass,
    DaemonSet,
    Event,
    StorageClass,
    PersistentVolume,
    PersistentVolumeClaim,
    Role,
    RoleBinding,
    PodDisruptionBudget,
    /// Deployment, StatefulSet, ReplicaSet, ReplicationController, Job: [`Workload`].
    Workload,
    RuntimeClass,
    Secret,
}

impl Target {
    /// Number of variants.
    const COUNT: usize = Target::Secret as usize + 1;

    /// The target for `kind` in API group `group` (`None` = no apiVersion given: accept).
    fn of(kind: &str, group: Option<&str>) -> Option<Target> {
        let (target, groups): (Target, &[&str]) = match kind {
            "Node" => (Target::Node, &[""]),
            "Pod" => (Target::Pod, &[""]),
            "Namespace" => (Target::Namespace, &[""]),
            "ResourceQuota" => (Target::ResourceQuota, &[""]),
            "LimitRange" => (Target::LimitRange, &[""]),
            "PriorityClass" => (Target::PriorityClass, &["scheduling.k8s.io"]),
            "DaemonSet" => (Target::DaemonSet, &["apps", "extensions"]),
            "Event" => (Target::Event, &["", "events.k8s.io"]),
            "StorageClass" => (Target::StorageClass, &["storage.k8s.io"]),
            "PersistentVolume" => (Target::PersistentVolume, &[""]),
            "PersistentVolumeClaim" => (Target::PersistentVolumeClaim, &[""]),
            "Role" | "ClusterRole" => (Target::Role, &["rbac.authorization.k8s.io"]),
            "RoleBinding" | "ClusterRoleBinding" => {
                (Target::RoleBinding, &["rbac.authorization.k8s.io"])
            }
            "PodDisruptionBudget" => (Target::PodDisruptionBudget, &["policy"]),
            // the workload controllers [`Workload`] reads (their API groups: kubernetes
            // `pkg/apis/apps`, `pkg/apis/batch`, core for ReplicationController)
            "Deployment" | "StatefulSet" | "ReplicaSet" => {
                (Target::Workload, &["apps", "extensions"])
            }
            "ReplicationController" => (Target::Workload, &[""]),
            "Job" => (Target::Workload, &["batch"]),
            "RuntimeClass" => (Target::RuntimeClass, &["node.k8s.io"]),
            "Secret" => (Target::Secret, &[""]),
            _ => return None,
        };
        match group {
            Some(g) if !groups.contains(&g) => None,
            _ => Some(target),
        }
    }
}

/// The kind of a resource name (`resourcequotas` -> `ResourceQuota`), for the kinds a snapshot
/// holds; `secrets` is `BootstrapToken` (the only Secrets read).
fn kind_of_resource(resource: &str) -> Option<&'static str> {
    let r = resource.trim_matches(['"', '\'']);
    let r = r.split('.').next().unwrap_or(r);
    Some(match r {
        "nodes" | "node" => "Node",
        "pods" | "pod" => "Pod",
        "namespaces" | "namespace" => "Namespace",
        "resourcequotas" | "resourcequota" | "quota" => "ResourceQuota",
        "limitranges" | "limitrange" => "LimitRange",
        "priorityclasses" | "priorityclass" => "PriorityClass",
        "daemonsets" | "daemonset" => "DaemonSet",
        "events" | "event" => "Event",
        "storageclasses" | "storageclass" => "StorageClass",
        "persistentvolumes" | "persistentvolume" => "PersistentVolume",
        "persistentvolumeclaims" | "persistentvolumeclaim" => "PersistentVolumeClaim",
        "roles" | "role" => "Role",
        "clusterroles" | "clusterrole" => "ClusterRole",
        "rolebindings" | "rolebinding" => "RoleBinding",
        "clusterrolebindings" | "clusterrolebinding" => "ClusterRoleBinding",
        "poddisruptionbudgets" | "poddisruptionbudget" => "PodDisruptionBudget",
        "runtimeclasses" | "runtimeclass" => "RuntimeClass",
        "secrets" | "secret" => "BootstrapToken",
        _ => return None,
    })
}

/// `v1` -> `""`, `apps/v1` -> `apps`.
fn api_group(api_version: &str) -> &str {
    match api_version.rsplit_once('/') {
        Some((group, _)) => group,
        None => "",
    }
}

fn is_list_kind(kind: &str) -> bool {
    kind.ends_with("List")
}

/// `NodeList` -> `Node` (items of a typed list from the API server carry no `kind`).
fn list_item_kind(list_kind: &str) -> Option<&str> {
    list_kind.strip_suffix("List").filter(|k| !k.is_empty())
}

// ---------------------------------------------------------------------- objects

/// One object of the input: borrowed raw JSON, or a value read from YAML.
enum Obj<'a> {
    Json(&'a RawValue),
    Value(&'a serde_json::Value),
}

/// The identifying head of an object.
#[derive(Default)]
struct Head {
    kind: Option<String>,
    api_version: Option<String>,
}

/// A typed read that failed: the field path and the message.
struct ObjError {
    field: String,
    message: String,
}

impl<'a> Obj<'a> {
    /// `kind` and `apiVersion`, read from the first keys only when both come early.
    fn head(&self) -> Head {
        match self {
            Obj::Json(raw) => {
                let mut head = Head::default();
                let mut de = serde_json::Deserializer::from_str(raw.get());
                // The seed stops reading once both keys are seen; the error serde_json then
                // reports for the unread rest of the object is expected and ignored.
                let _ = HeadSeed(&mut head).deserialize(&mut de);
                head
            }
            Obj::Value(v) => Head {
                kind: v.get("kind").and_then(|k| k.as_str()).map(str::to_owned),
                api_version: v
                    .get("apiVersion")
                    .and_then(|k| k.as_str())
                    .map(str::to_owned),
            },
        }
    }

    /// `kind/namespace/name` (or `kind/name`), as far as it can be read.
    fn ident(&self, kind: Option<&str>) -> String {
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Ident {
            kind: String,
            metadata: IdentMeta,
        }
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct IdentMeta {
            name: String,
            namespace: String,
        }
        let ident: Ident = match self {
            Obj::Json(raw) => serde_json::from_str(raw.get()).unwrap_or_default(),
            Obj::Value(v) => Ident::deserialize(*v).unwrap_or_default(),
        };
        let kind = kind.unwrap_or(&ident.kind);
        let m = &ident.metadata;
        match (m.namespace.is_empty(), m.name.is_empty()) {
            (_, true) => kind.to_owned(),
            (true, false) => format!("{kind}/{}", m.name),
            (false, false) => format!("{kind}/{}/{}", m.namespace, m.name),
        }
    }

    /// Deserializes the whole object into `T`; on failure re-reads it with a path tracker to
    /// name the field.
    ///
    /// When that fails, the object is read again as a `serde_json::Value` (only broken objects
    /// pay for this): the field serde_path_to_error names is removed (for a map entry such as a
    /// ResourceList key, only that entry) and the read retried, up to [`MAX_DROPPED_FIELDS`]
    /// times. Each removed field is pushed to `dropped`; the object is given up (with the
    /// first error) only when that does not make it readable.
    fn typed<T: DeserializeOwned>(&self, dropped: &mut Vec<ObjError>) -> Result<T, ObjError> {
        let first = match self.typed_strict::<T>() {
            Ok(v) => return Ok(v),
            Err(err) => err,
        };
        let mut value: serde_json::Value = match self {
            Obj::Json(raw) => match serde_json::from_str(raw.get()) {
                Ok(v) => v,
                Err(_) => return Err(first),
            },
            Obj::Value(v) => (*v).clone(),
        };
        let mut removed = Vec::new();
        for _ in 0..MAX_DROPPED_FIELDS {
            match serde_path_to_error::deserialize::<_, T>(&value) {
                Ok(v) => {
                    dropped.append(&mut removed);
                    return Ok(v);
                }
                Err(err) => {
                    let segments: Vec<_> = err.path().iter().cloned().collect();
                    let field = path_string(err.path());
                    let Some(bad) = remove_at(&mut value, &segments) else {
                        return Err(first);
                    };
                    let reason = if may_hold_secret(&segments) {
                        String::new()
                    } else {
                        format!(": {}", err.inner())
                    };
                    removed.push(ObjError {
                        field,
                        message: format!("{FIELD_DROPPED} ({}){reason}", describe_value(&bad)),
                    });
                }
            }
        }
        Err(first)
    }

    /// Deserializes the whole object into `T`; on failure re-reads it with a path tracker to
    /// name the field.
    fn typed_strict<T: DeserializeOwned>(&self) -> Result<T, ObjError> {
        match self {
            Obj::Json(raw) => match serde_json::from_str::<T>(raw.get()) {
                Ok(v) => Ok(v),
                Err(first) => {
                    let mut de = serde_json::Deserializer::from_str(raw.get());
                    match serde_path_to_error::deserialize::<_, T>(&mut de) {
                        Ok(_) => Err(ObjError {
                            field: String::new(),
                            message: first.to_string(),
                        }),
                        Err(err) => Err(ObjError {
                            field: path_string(err.path()),
                            message: strip_position(&err.inner().to_string()),
                        }),
                    }
                }
            },
            Obj::Value(v) => match T::deserialize(*v) {
                Ok(v) => Ok(v),
                Err(first) => match serde_path_to_error::deserialize::<_, T>(*v) {
                    Ok(_) => Err(ObjError {
                        field: String::new(),
                        message: first.to_string(),
                    }),
                    Err(err) => Err(ObjError {
                        field: path_string(err.path()),
                        message: err.inner().to_string(),
                    }),
                },
            },
        }
    }
}

/// At most this many unreadable fields are dropped from one object before it is given up.
const MAX_DROPPED_FIELDS: usize = 32;

/// Removes the value at `path` (a map entry or an array element); returns it, or `None` when
/// the path is empty or does not lead to a value.
fn remove_at(value: &mut serde_json::Value, path: &[Segment]) -> Option<serde_json::Value> {
    use serde_json::Value;
    let (last, parents) = path.split_last()?;
    let mut cur = value;
    for segment in parents {
        cur = match (segment, cur) {
            (Segment::Map { key }, Value::Object(map)) => map.get_mut(key)?,
            (Segment::Seq { index }, Value::Array(items)) => items.get_mut(*index)?,
            _ => return None,
        };
    }
    match (last, cur) {
        (Segment::Map { key }, Value::Object(map)) => map.remove(key),
        (Segment::Seq { index }, Value::Array(items)) if *index < items.len() => {
            Some(items.remove(*index))
        }
        _ => None,
    }
}

/// Fields whose values may be secret-bearing (annotations can hold applied configuration,
/// `env` values and `data` can hold credentials): their deserializer messages, which may quote
/// the value, are left out of problems.
fn may_hold_secret(path: &[Segment]) -> bool {
    path.iter().any(|s| {
        matches!(s, Segment::Map { key } if matches!(
            key.as_str(),
            "annotations" | "env" | "data" | "stringData" | "token" | "password"
        ))
    })
}

/// The shape of a value, never the value itself: `a string of 3 characters`, `a number`.
fn describe_value(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Null => "the value was null".to_owned(),
        Value::Bool(_) => "the value was a boolean".to_owned(),
        Value::Number(_) => "the value was a number".to_owned(),
        Value::String(s) => format!("the value was a string of {} characters", s.chars().count()),
        Value::Array(a) => format!("the value was an array of {} elements", a.len()),
        Value::Object(m) => format!("the value was an object with {} keys", m.len()),
    }
}

/// `spec.containers[0].resources.requests.cpu` (serde_path_to_error writes `.` / `[i]`).
fn path_string(path: &serde_path_to_error::Path) -> String {
    let s = path.to_string();
    if s == "." { String::new() } else { s }
}

/// serde_json appends ` at line L column C` (relative to the object here): drop it.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message.get(..i).unwrap_or(message).to_owned(),
        None => message.to_owned(),
    }
}

/// Reads `kind` and `apiVersion` from the first keys of an object and stops.
struct HeadSeed<'h>(&'h mut Head);

impl<'de> DeserializeSeed<'de> for HeadSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for HeadSeed<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<HeadKey>()? {
            match key {
                HeadKey::Kind => self.0.kind = map.next_value::<Option<String>>()?,
                HeadKey::ApiVersion => self.0.api_version = map.next_value::<Option<String>>()?,
                HeadKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            if self.0.kind.is_some() && self.0.api_version.is_some() {
                return Ok(());
            }
        }
        Ok(())
    }
}

enum HeadKey {
    Kind,
    ApiVersion,
    Other,
}

impl<'de> Deserialize<'de> for HeadKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = HeadKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<HeadKey, E> {
                Ok(match v {
                    "kind" => HeadKey::Kind,
                    "apiVersion" => HeadKey::ApiVersion,
                    _ => HeadKey::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// One top-level JSON value: an object (with its `kind` and, if any, raw `items`), an array of
/// raw items, or a scalar.
enum TopDoc<'a> {
    Object {
        kind: Option<String>,
        items: Option<Vec<&'a RawValue>>,
    },
    Array(Vec<&'a RawValue>),
    Scalar,
}

impl<'de: 'a, 'a> Deserialize<'de> for TopDoc<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = TopDoc<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TopDoc<'a>, A::Error> {
                let mut kind = None;
                let mut items = None;
                while let Some(key) = map.next_key::<TopKey>()? {
                    match key {
                        TopKey::Kind => {
                            kind = match map.next_value::<serde_json::Value>()? {
                                serde_json::Value::String(k) => Some(k),
                                _ => None,
                            }
                        }
                        TopKey::Items => items = map.next_value::<MaybeItems<'a>>()?.0,
                        TopKey::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(TopDoc::Object { kind, items })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TopDoc<'a>, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<&'a RawValue>()? {
                    items.push(item);
                }
                Ok(TopDoc::Array(items))
            }
            fn visit_bool<E>(self, _: bool) -> Result<TopDoc<'a>, E> {
                Ok(TopDoc::Scalar)
            }
            fn visit_i64<E>(self, _: i64) -> Result<TopDoc<'a>, E> {
                Ok(TopDoc::Scalar)
            }
            fn visit_u64<E>(self, _: u64) -> Result<TopDoc<'a>, E> {
                Ok(TopDoc::Scalar)
            }
            fn visit_f64<E>(self, _: f64) -> Result<TopDoc<'a>, E> {
                Ok(TopDoc::Scalar)
            }
            fn visit_str<E>(self, _: &str) -> Result<TopDoc<'a>, E> {
                Ok(TopDoc::Scalar)
            }
            fn visit_unit<E>(self) -> Result<TopDoc<'a>, E> {
                Ok(TopDoc::Scalar)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

enum TopKey {
    Kind,
    Items,
    Other,
}

impl<'de> Deserialize<'de> for TopKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = TopKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<TopKey, E> {
                Ok(match v {
                    "kind" => TopKey::Kind,
                    "items" => TopKey::Items,
                    _ => TopKey::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

// ---------------------------------------------------------------------- JSON resynchronisation

/// Offset of `part` (a sub-slice) in `whole`.
fn offset_in(whole: &[u8], part: &[u8]) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

/// Byte offset of serde_json's 1-based line and column.
fn offset_of_position(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut offset = 0usize;
    for _ in 1..line.max(1) {
        match bytes
            .get(offset..)
            .and_then(|b| b.iter().position(|&c| c == b'\n'))
        {
            Some(nl) => offset += nl + 1,
            None => return bytes.len(),
        }
    }
    (offset + column.saturating_sub(1)).min(bytes.len())
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    pos
}

/// Skips whitespace and one `,` (between two items).
fn skip_separators(bytes: &[u8], pos: usize) -> usize {
    let pos = skip_ws(bytes, pos);
    if bytes.get(pos) == Some(&b',') {
        skip_ws(bytes, pos + 1)
    } else {
        pos
    }
}

/// Just after the `[` of a List's `items` (at the List's top level) or of a top-level array.
fn json_items_start(bytes: &[u8]) -> Option<usize> {
    let start = skip_ws(bytes, 0);
    match bytes.get(start)? {
        b'[' => return Some(start + 1),
        b'{' => {}
        _ => return None,
    }
    let mut depth = 0usize;
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                if depth == 1 && &bytes[i..end] == b"\"items\"" {
                    let colon = skip_ws(bytes, end);
                    if bytes.get(colon) == Some(&b':') {
                        let open = skip_ws(bytes, colon + 1);
                        if bytes.get(open) == Some(&b'[') {
                            return Some(open + 1);
                        }
                    }
                }
                i = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// End (exclusive) of the JSON string starting at `start` (a `"`).
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            b'\n' => return None,
            _ => i += 1,
        }
    }
    None
}

/// Where reading resumes after a broken item.
enum NextItem {
    /// The next item starts here.
    At(usize),
    /// The broken item was the last one.
    End,
    /// No next item could be found.
    Lost,
}

/// True when a complete JSON object that looks like a Kubernetes object (it has `kind`,
/// `apiVersion` or `metadata`) starts at `pos`.
fn object_item_at(bytes: &[u8], pos: usize) -> bool {
    if bytes.get(pos) != Some(&b'{') {
        return false;
    }
    let mut stream = serde_json::Deserializer::from_slice(bytes.get(pos..).unwrap_or_default())
        .into_iter::<&RawValue>();
    match stream.next() {
        Some(Ok(raw)) => {
            let head = Obj::Json(raw).head();
            head.kind.is_some() || head.api_version.is_some() || raw.get().contains("\"metadata\"")
        }
        _ => false,
    }
}

/// Finds the item after the broken one that starts at `broken` (the error was seen at
/// `err_at`): first by bracket depth (the broken item's braces usually balance), then by the
/// indentation of pretty-printed output, then by the start of the next `{"apiVersion"` /
/// `{"kind"` object.
fn next_json_item(bytes: &[u8], broken: usize, err_at: usize) -> NextItem {
    // a missing comma before a good item: the error is at the item itself
    if err_at <= broken && object_item_at(bytes, broken) {
        return NextItem::At(broken);
    }
    // 1. depth
    let mut depth = 0usize;
    let mut i = broken;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => match string_end(bytes, i) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => break,
            },
            b'{' | b'[' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b']' if depth == 0 => {
                if i > err_at {
                    return NextItem::End;
                }
                break;
            }
            b']' => depth -= 1,
            b',' if depth == 0 && i > err_at => {
                let next = skip_ws(bytes, i + 1);
                if object_item_at(bytes, next) {
                    return NextItem::At(next);
                }
            }
            _ => {}
        }
        i += 1;
    }
    // 2. indentation: a line with the broken item's indentation that starts an object
    let line_start = bytes[..broken.min(bytes.len())]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let prefix = &bytes[line_start..broken.min(bytes.len())];
    if prefix.iter().all(|c| *c == b' ' || *c == b'\t') {
        // from the line holding the error on (the next item may start right there)
        let mut line = bytes[..err_at.min(bytes.len())]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1)
            .max(broken + 1);
        loop {
            if line > broken
                && bytes.get(line..line + prefix.len()) == Some(prefix)
                && object_item_at(bytes, line + prefix.len())
            {
                return NextItem::At(line + prefix.len());
            }
            match bytes
                .get(line..)
                .and_then(|b| b.iter().position(|&c| c == b'\n'))
            {
                Some(nl) => line += nl + 1,
                None => break,
            }
        }
    }
    // 3. the next object that starts like a Kubernetes object
    let hay = bytes.get(err_at..).unwrap_or_default();
    for pat in [
        &b"{\"apiVersion\""[..],
        b"{\"kind\"",
        b"{ \"apiVersion\"",
        b"{ \"kind\"",
    ] {
        let mut from = 0;
        while let Some(p) = hay
            .get(from..)
            .and_then(|h| h.windows(pat.len()).position(|w| w == pat))
        {
            let at = err_at + from + p;
            if object_item_at(bytes, at) {
                return NextItem::At(at);
            }
            from += p + 1;
        }
    }
    NextItem::Lost
}

/// How a run of items ended.
enum ItemsEnd {
    /// At the closing `]`; the offset is just after it.
    Closed(usize),
    /// Another broken item starts at `at`.
    Broken {
        at: usize,
        line: usize,
        column: usize,
        message: String,
    },
}

/// Reads items from `pos` (the start of an item) to the end of the array or the next broken
/// item. Line and column of a further error are relative to `bytes`.
fn json_items_from(bytes: &[u8], mut pos: usize) -> (Vec<&RawValue>, ItemsEnd) {
    let mut items = Vec::new();
    loop {
        let tail = bytes.get(pos..).unwrap_or_default();
        let mut stream = serde_json::Deserializer::from_slice(tail).into_iter::<&RawValue>();
        match stream.next() {
            Some(Ok(raw)) => {
                items.push(raw);
                let after = skip_ws(bytes, pos + stream.byte_offset());
                match bytes.get(after) {
                    Some(b',') => pos = skip_ws(bytes, after + 1),
                    Some(b']') => return (items, ItemsEnd::Closed(after + 1)),
                    _ => {
                        let (line, column) = line_column(bytes, after);
                        return (
                            items,
                            ItemsEnd::Broken {
                                at: after,
                                line,
                                column,
                                message: format!(
                                    "expected `,` or `]` after an item at line {line} column {column}"
                                ),
                            },
                        );
                    }
                }
            }
            Some(Err(e)) => {
                let (line0, _) = line_column(bytes, pos);
                let line = line0 + e.line().saturating_sub(1);
                let column = if e.line() <= 1 {
                    line_column(bytes, pos).1 + e.column().saturating_sub(1)
                } else {
                    e.column()
                };
                let message = strip_position(&e.to_string());
                return (
                    items,
                    ItemsEnd::Broken {
                        at: pos,
                        line,
                        column,
                        message: format!("{message} at line {line} column {column}"),
                    },
                );
            }
            None => {
                let (line, column) = line_column(bytes, pos);
                return (
                    items,
                    ItemsEnd::Broken {
                        at: pos,
                        line,
                        column,
                        message: format!("EOF while parsing a list at line {line} column {column}"),
                    },
                );
            }
        }
    }
}

/// 1-based line and column of a byte offset.
fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = bytes.get(..offset).unwrap_or(bytes);
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1)
        + 1;
    (line, col)
}

/// `"kind":"NodeList"` in what follows a List's items.
fn trailing_list_kind(tail: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(tail.get(..tail.len().min(4096))?).ok()?;
    let at = text.find("\"kind\"")?;
    let rest = text[at + 6..].trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some(rest[..end].to_owned())
}

/// After a broken value of a stream: the next line that starts with `{` or `[`.
fn next_value_line(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(nl) = bytes
        .get(at..)
        .and_then(|b| b.iter().position(|&c| c == b'\n'))
    {
        let line = at + nl + 1;
        if matches!(bytes.get(line), Some(b'{' | b'[')) {
            return Some(line);
        }
        at = line;
    }
    None
}

/// Reads the complete items of a JSON List (its `items` array) or of a top-level JSON array from
/// input that is cut or broken further on: every item read before the first error is returned,
/// with the List's `kind` if it came before the error.
fn salvage_items(bytes: &[u8]) -> (Option<String>, Vec<&RawValue>) {
    let mut kind = None;
    let mut items = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // The error is the one already reported by the caller.
    let _ = SalvageSeed {
        kind: &mut kind,
        items: &mut items,
    }
    .deserialize(&mut de);
    (kind, items)
}

/// Collects complete items into vectors owned by the caller, so they survive a later error.
struct SalvageSeed<'v, 'a> {
    kind: &'v mut Option<String>,
    items: &'v mut Vec<&'a RawValue>,
}

impl<'a> DeserializeSeed<'a> for SalvageSeed<'_, 'a> {
    type Value = ();
    fn deserialize<D: Deserializer<'a>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'a> Visitor<'a> for SalvageSeed<'_, 'a> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON List or array")
    }
    fn visit_map<A: MapAccess<'a>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<TopKey>()? {
            match key {
                TopKey::Kind => {
                    if let serde_json::Value::String(k) = map.next_value()? {
                        *self.kind = Some(k);
                    }
                }
                TopKey::Items => map.next_value_seed(SalvageItems(&mut *self.items))?,
                TopKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'a>>(self, seq: A) -> Result<(), A::Error> {
        SalvageItems(self.items).visit_seq(seq)
    }
}

/// The `items` array of [`SalvageSeed`].
struct SalvageItems<'v, 'a>(&'v mut Vec<&'a RawValue>);

impl<'a> DeserializeSeed<'a> for SalvageItems<'_, 'a> {
    type Value = ();
    fn deserialize<D: Deserializer<'a>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'a> Visitor<'a> for SalvageItems<'_, 'a> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of objects")
    }
    fn visit_seq<A: SeqAccess<'a>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element::<&'a RawValue>()? {
            self.0.push(item);
        }
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// `items`: raw elements when it is an array; anything else is skipped.
struct MaybeItems<'a>(Option<Vec<&'a RawValue>>);

impl<'de: 'a, 'a> Deserialize<'de> for MaybeItems<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = MaybeItems<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("items")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MaybeItems<'a>, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(item) = seq.next_element::<&'a RawValue>()? {
                    items.push(item);
                }
                Ok(MaybeItems(Some(items)))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MaybeItems<'a>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(MaybeItems(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<MaybeItems<'a>, E> {
                Ok(MaybeItems(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<MaybeItems<'a>, E> {
                Ok(MaybeItems(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<MaybeItems<'a>, E> {
                Ok(MaybeItems(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<MaybeItems<'a>, E> {
                Ok(MaybeItems(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<MaybeItems<'a>, E> {
                Ok(MaybeItems(None))
            }
            fn visit_unit<E>(self) -> Result<MaybeItems<'a>, E> {
                Ok(MaybeItems(None))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

// ---------------------------------------------------------------------- YAML helpers

/// Splits YAML text at document markers (`---` at column 0, optionally followed by content;
/// `...` ends a document). Documents holding only comments and blank lines are left out.
///
/// Limitation: a `---` line at column 0 inside a top-level block scalar would also split; block
/// scalars in `kubectl` output are always indented.
pub(crate) fn split_yaml_documents(text: &str) -> Vec<&str> {
    split_yaml_documents_bounded(text, u64::MAX).0
}

/// [`split_yaml_documents`] keeping at most `max` documents, counting empty ones (a bare `---`
/// costs the same as a document to the reader): returns the documents with content among the
/// first `max`, and the number of documents of the whole text (empty ones included; the text
/// before the first marker counts when it has content). One pass over the text: a file of a
/// million `---` lines is split in milliseconds.
pub(crate) fn split_yaml_documents_bounded(text: &str, max: u64) -> (Vec<&str>, u64) {
    let mut docs = Vec::new();
    let mut count = 0u64;
    let mut push = |from: usize, to: usize, first: bool| {
        let doc = text.get(from..to).unwrap_or("");
        let content = doc
            .lines()
            .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        // an empty text before the first marker is no document
        if first && !content {
            return;
        }
        count += 1;
        if content && count <= max {
            docs.push(doc);
        }
    };
    let mut start = 0usize;
    let mut offset = 0usize;
    let mut first = true;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let next = offset + line.len();
        if bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t") {
            push(start, offset, first);
            first = false;
            // Content after the marker on the same line belongs to the new document.
            start = offset + 3;
        } else if bare == "..." {
            push(start, offset, first);
            first = false;
            start = next;
        }
        offset = next;
    }
    push(start, text.len(), first);
    (docs, count)
}

/// The parts of a YAML List document: its `kind` (when readable) and the text of each item of
/// its block `items:` sequence, dedented so each parses on its own.
struct YamlList {
    kind: Option<String>,
    items: Vec<String>,
}

/// Splits a YAML document with a block `items:` sequence (`kubectl get -o yaml`) into its
/// items; `None` when there is none.
fn split_yaml_list(doc: &str) -> Option<YamlList> {
    let lines: Vec<&str> = doc.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let blank = |l: &str| l.trim().is_empty() || l.trim_start().starts_with('#');
    // a line indented with a tab is invalid YAML: it belongs to the (broken) item above it,
    // never ends the list
    let tab_indented = |l: &str| l[indent(l)..].starts_with('\t');
    let at = lines
        .iter()
        .position(|l| l.trim_end().trim_start() == "items:")?;
    let base = indent(lines[at]);
    let first = (at + 1..lines.len()).find(|&i| !blank(lines[i]))?;
    let dash = indent(lines[first]);
    let is_item_start =
        |l: &str| indent(l) == dash && (l.trim_start().starts_with("- ") || l.trim() == "-");
    if dash < base || !is_item_start(lines[first]) {
        return None;
    }
    let mut items: Vec<String> = Vec::new();
    let mut end = lines.len();
    let mut i = first;
    while i < lines.len() {
        let l = lines[i];
        if !blank(l) && indent(l) <= dash && !is_item_start(l) && !tab_indented(l) {
            end = i;
            break;
        }
        if is_item_start(l) {
            // `- key: v` becomes `  key: v`, then the item is dedented by dash + 2
            let mut first_line = String::with_capacity(l.len());
            first_line.push_str(&l[..dash]);
            first_line.push(' ');
            first_line.push_str(&l[dash + 1..]);
            items.push(dedent(&first_line, dash + 2));
        } else if let Some(cur) = items.last_mut() {
            cur.push('\n');
            cur.push_str(&dedent(l, dash + 2));
        }
        i += 1;
    }
    let kind = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| (*i < at || *i >= end) && indent(l) == base)
        .find_map(|(_, l)| l.trim().strip_prefix("kind:"))
        .map(|k| k.trim().trim_matches(['"', '\'']).to_owned());
    Some(YamlList { kind, items })
}

fn dedent(line: &str, n: usize) -> String {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    line[spaces.min(n)..].to_owned()
}

/// YAML reading options, close to what `kubectl` (sigs.k8s.io/yaml) accepts: YAML 1.2 core
/// booleans only (`n`, `y`, `on`, `off` stay strings, so a node named `n` or a label value `on`
/// reads as text), `0755`-style and `1_000`-style plain scalars stay strings, and no source
/// snippets in error messages (they could quote a Secret).
fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        underscored_numbers_as_strings: true,
        with_snippet: false,
    }
}

/// True when the first content line of a YAML document is structure (`key:`, `- `, a flow
/// collection or a tag/anchor), not free text such as a scheduler message.
pub(crate) fn looks_like_yaml_structure(doc: &str) -> bool {
    let Some(line) = doc
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
    else {
        return false;
    };
    if line.starts_with("- ") || line == "-" || line.starts_with('{') || line.starts_with('!') {
        return true;
    }
    if line.starts_with('[') {
        return crate::describe::looks_like_json_array(line);
    }
    if line.starts_with('&') || line.starts_with('"') || line.starts_with('\'') {
        return true;
    }
    crate::describe::yaml_key(line).is_some()
}

/// A YAML error message safe to store: only its first line (at most 300 characters), through
/// the redactor, and none at all for a document that may hold a Secret (parser messages can
/// quote the source text).
fn yaml_error_message(doc: &str, message: &str) -> String {
    if doc.contains("Secret") || doc.contains("token-secret") {
        return "invalid YAML (details withheld: the document may hold a Secret)".to_owned();
    }
    let first = message.lines().next().unwrap_or("");
    let mut out = String::from("invalid YAML: ");
    for (count, c) in first.chars().enumerate() {
        if count >= 300 {
            out.push_str("...");
            break;
        }
        out.push(c);
    }
    crate::redact::redact_string(&out)
}

// ---------------------------------------------------------------------- Secrets and events

/// Secret type of kubeadm bootstrap tokens.
pub const BOOTSTRAP_TOKEN_TYPE: &str = "bootstrap.kubernetes.io/token";

#[derive(Deserialize, Default)]
#[serde(default)]
struct SecretType {
    #[serde(rename = "type")]
    type_: String,
}

/// A bootstrap-token Secret: `data` (base64) or `stringData`, never keeping `token-secret`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct BootstrapSecret {
    metadata: ObjectMeta,
    #[serde(deserialize_with = "de_public_token_data")]
    data: BTreeMap<String, String>,
    #[serde(deserialize_with = "de_public_token_data")]
    string_data: BTreeMap<String, String>,
}

/// Reads a string map, skipping `token-secret` without reading its value.
fn de_public_token_data<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = BTreeMap<String, String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map of strings")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(BTreeMap::new())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some(key) = map.next_key::<String>()? {
                if key == "token-secret" {
                    map.next_value::<IgnoredAny>()?;
                } else if let Ok(value) = map.next_value::<String>() {
                    out.insert(key, value);
                } else {
                    return Err(serde::de::Error::custom(format!(
                        "value of {key} is not a string"
                    )));
                }
            }
            Ok(out)
        }
    }
    d.deserialize_any(V)
}

impl BootstrapSecret {
    fn into_token(self) -> Result<BootstrapToken, ObjError> {
        use base64::Engine as _;
        let mut values = BTreeMap::new();
        for (key, value) in self.data {
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(value.trim())
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .ok_or_else(|| ObjError {
                    field: format!("data.{key}"),
                    message: "not base64 of UTF-8 text".to_owned(),
                })?;
            values.insert(key, decoded);
        }
        // stringData wins, as the API server merges it over data.
        values.extend(self.string_data);
        let expiration = match values.get("expiration") {
            Some(text) => Some(text.trim().parse::<Time>().map_err(|e| ObjError {
                field: "data.expiration".to_owned(),
                message: format!("invalid RFC 3339 time: {e}"),
            })?),
            None => None,
        };
        let usages = values
            .iter()
            .filter_map(|(k, v)| {
                k.strip_prefix("usage-bootstrap-")
                    .filter(|_| v.trim() == "true")
                    .map(str::to_owned)
            })
            .collect();
        let token_id = values.get("token-id").cloned().unwrap_or_else(|| {
            self.metadata
                .name
                .strip_prefix("bootstrap-token-")
                .unwrap_or_default()
                .to_owned()
        });
        Ok(BootstrapToken {
            secret_name: self.metadata.name,
            token_id,
            expiration,
            usages,
            auth_extra_groups: values.remove("auth-extra-groups").unwrap_or_default(),
            description: values.remove("description").unwrap_or_default(),
        })
    }
}

/// `events.k8s.io/v1` `Event`, reduced, mapped onto the core shape.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct EventsV1Event {
    metadata: ObjectMeta,
    regarding: ObjectReference,
    reason: String,
    note: String,
    #[serde(rename = "type")]
    type_: String,
    event_time: Option<Time>,
    series: Option<EventSeries>,
    deprecated_count: Option<i32>,
    deprecated_first_timestamp: Option<Time>,
    deprecated_last_timestamp: Option<Time>,
    deprecated_source: Option<EventSource>,
    reporting_controller: String,
    reporting_instance: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct EventSeries {
    count: Option<i32>,
    last_observed_time: Option<Time>,
}

impl EventsV1Event {
    fn into_event(self) -> Event {
        let series = self.series.unwrap_or_default();
        let deprecated_source = self.deprecated_source.unwrap_or_default();
        Event {
            metadata: self.metadata,
            involved_object: self.regarding,
            reason: self.reason,
            message: self.note,
            type_: self.type_,
            count: series.count.or(self.deprecated_count),
            first_timestamp: self.deprecated_first_timestamp.or(self.event_time),
            last_timestamp: series
                .last_observed_time
                .or(self.deprecated_last_timestamp)
                .or(self.event_time),
            source: EventSource {
                component: if self.reporting_controller.is_empty() {
                    deprecated_source.component
                } else {
                    self.reporting_controller
                },
                host: if deprecated_source.host.is_empty() {
                    self.reporting_instance
                } else {
                    deprecated_source.host
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check_split(text: &str, expected: &[&str]) {
        let docs: Vec<&str> = split_yaml_documents(text)
            .into_iter()
            .map(str::trim)
            .collect();
        assert_eq!(docs, expected);
    }

    #[test]
    fn splits_yaml_documents() {
        check_split("a: 1\n---\nb: 2\n", &["a: 1", "b: 2"]);
        check_split(
            "---\na: 1\n...\n---\n# only a comment\n---\nb: 2",
            &["a: 1", "b: 2"],
        );
        check_split("--- {a: 1}\n--- \nb: 2\n", &["{a: 1}", "b: 2"]);
        check_split("a: |\n  ---\n  x\n", &["a: |\n  ---\n  x"]);
    }

    #[test]
    fn api_groups() {
        assert_eq!(api_group("v1"), "");
        assert_eq!(api_group("apps/v1"), "apps");
        assert_eq!(
            api_group("rbac.authorization.k8s.io/v1"),
            "rbac.authorization.k8s.io"
        );
        assert!(Target::of("Node", Some("")).is_some());
        assert!(Target::of("Node", Some("example.com")).is_none());
        assert!(Target::of("Node", None).is_some());
        assert!(Target::of("ClusterQueue", None).is_none());
    }

    #[test]
    fn head_reads_early_keys_and_stops() {
        let raw: &RawValue =
            serde_json::from_str(r#"{"apiVersion":"v1","kind":"Pod","spec":{"x":[1,2,3]}}"#)
                .unwrap();
        let head = Obj::Json(raw).head();
        assert_eq!(head.kind.as_deref(), Some("Pod"));
        assert_eq!(head.api_version.as_deref(), Some("v1"));
        let raw: &RawValue = serde_json::from_str(r#"{"spec":{},"kind":"Node"}"#).unwrap();
        let head = Obj::Json(raw).head();
        assert_eq!(head.kind.as_deref(), Some("Node"));
        assert_eq!(head.api_version, None);
    }

    #[test]
    fn documents_past_the_limit_are_counted_not_read_and_empty_ones_cost_nothing() {
        // a million empty documents are split in one pass
        let empty = "---\n".repeat(1_000_000);
        let (docs, total) = split_yaml_documents_bounded(&empty, u64::MAX);
        assert!(docs.is_empty());
        assert_eq!(total, 1_000_000);
        let ns = |i: usize| format!("apiVersion: v1\nkind: Namespace\nmetadata: {{name: ns{i}}}\n");
        let text: String = (0..10).map(|i| format!("---\n{}", ns(i))).collect();
        let mut s = ClusterSnapshot::default();
        s.set_limits(crate::limits::Limits {
            max_documents_per_file: 4,
            ..Default::default()
        });
        s.add_bytes("many.yaml", text.as_bytes());
        assert_eq!(s.namespaces.len(), 4, "{:?}", s.problems);
        let hit = s.limits_hit.first().expect("hit");
        assert_eq!(hit.limit, crate::limits::Limit::DocumentsPerFile);
        assert_eq!(hit.observed, Some(10));
        assert!(
            s.problems.iter().any(|p| p
                .message
                .starts_with("6 YAML document(s) past the first 4 not read")),
            "{:?}",
            s.problems
        );
    }

    #[test]
    fn problem_display_names_everything() {
        let p = LoadProblem {
            file: "a.json".into(),
            document: 0,
            item: Some(3),
            object: "Pod/ns/p".into(),
            field: "spec.containers[0].resources.requests.cpu".into(),
            message: "bad".into(),
            repeats: 0,
        };
        assert_eq!(
            p.to_string(),
            "a.json: document 0, item 3 (Pod/ns/p) at spec.containers[0].resources.requests.cpu: bad"
        );
    }
}
