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

mod fast;

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
    /// The key is the kind and the `metadata.uid` when the object has one, else the kind,
    /// namespace and name (objects without a name are never merged). The later input wins,
    /// at the position of the earlier object.
    pub duplicates: Vec<DuplicateNote>,
}

/// Objects of one input that replaced objects loaded before (see
/// [`ClusterSnapshot::duplicates`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
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

/// One object (or document) of the input that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
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
/// JSON: the first character is `{`, or `[` followed by a JSON value. YAML: a document marker,
/// a top-level sequence, or top-level `apiVersion:` / `kind:` / `items:` keys. Describe text:
/// the top-level `Key:` lines of `kubectl describe` (node-only keys such as `Capacity`,
/// `Allocatable`, `System Info`, `Taints`; pod-only keys such as `Containers`, `QoS Class`,
/// `Node-Selectors`). Tables: a `NAME STATUS ROLES ... VERSION` header, a
/// `LAST SEEN TYPE REASON OBJECT MESSAGE` header, an `Events:` block, or event rows
/// (`Warning  FailedCreate  ...`). Everything else is [`InputFormat::Text`].
pub fn detect_format(bytes: &[u8]) -> InputFormat {
    // The decision needs only the start of the input: never validate or copy 500 MB for it.
    const PREFIX: usize = 64 * 1024;
    let bytes = strip_bom(bytes);
    let prefix = bytes.get(..PREFIX).unwrap_or(bytes);
    let text = String::from_utf8_lossy(prefix);
    crate::describe::detect_text_format(&text)
}

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

impl ClusterSnapshot {
    /// An empty snapshot.
    pub fn new() -> Self {
        Self::default()
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

    /// Reads one file and adds it; `None` when it could not be read (recorded as a problem).
    pub fn add_file(&mut self, path: &Path) -> Option<LoadOutcome> {
        let label = path.display().to_string();
        match std::fs::read(path) {
            Ok(bytes) => Some(self.add_bytes(&label, &bytes)),
            Err(err) => {
                self.problems.push(LoadProblem {
                    file: label,
                    message: format!("cannot read file: {err}"),
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
        let bytes = strip_bom(bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            self.problems.push(LoadProblem {
                file: source.to_owned(),
                message: "input is empty".to_owned(),
                ..LoadProblem::default()
            });
            return LoadOutcome::Empty;
        }
        let format = detect_format(bytes);
        let before = Counts::of(self);
        let mark = Mark::lens(self);
        match format {
            InputFormat::Json | InputFormat::Yaml => {
                let mut ctx = Ctx::new(source);
                if format == InputFormat::Json {
                    self.load_json(&mut ctx, bytes);
                } else {
                    self.load_yaml(&mut ctx, &String::from_utf8_lossy(bytes));
                }
                if !ctx.saw_object && self.problems.len() == before.problems {
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
            | InputFormat::NodesWideTable => {
                let text = String::from_utf8_lossy(bytes);
                let parsed = crate::describe::parse_text(&text);
                self.nodes.extend(parsed.nodes);
                self.pods.extend(parsed.pods);
                self.events.extend(parsed.events);
                self.persistent_volume_claims
                    .extend(parsed.persistent_volume_claims);
                self.problems
                    .extend(parsed.problems.into_iter().map(|mut p| {
                        p.file = source.to_owned();
                        p
                    }));
            }
        }
        // Objects that replaced earlier ones were read from this input too: count them.
        let replaced = self.merge_duplicates(source, &mark);
        let after = Counts::of(self);
        LoadOutcome::Loaded {
            format,
            objects: after.objects + replaced - before.objects,
            skipped: after.skipped - before.skipped,
            problems: after.problems - before.problems,
        }
    }

    /// True when no object was loaded into the typed vectors (whatever the problems,
    /// unknown kinds or skipped Secrets): nothing usable to analyse.
    pub fn is_empty(&self) -> bool {
        self.object_count() == 0
    }

    /// Replaces earlier objects by later ones with the same key, in every vector that grew
    /// since `mark` (see [`ClusterSnapshot::duplicates`]). O(n) per vector. Returns how many
    /// earlier objects were replaced.
    fn merge_duplicates(&mut self, source: &str, mark: &[usize; 15]) -> usize {
        fn meta_key(m: &ObjectMeta) -> Option<(&str, &str, &str)> {
            match (m.uid.is_empty(), m.name.is_empty()) {
                (false, _) => Some(("", "", m.uid.as_str())),
                (true, false) => Some((m.namespace.as_str(), m.name.as_str(), "")),
                (true, true) => None,
            }
        }
        let mut notes = Vec::new();
        let mut note = |kind: &str, count: usize| {
            if count > 0 {
                notes.push(DuplicateNote {
                    source: source.to_owned(),
                    kind: kind.to_owned(),
                    count,
                });
            }
        };
        macro_rules! merge {
            ($i:expr, $field:ident, $kind:expr, |$o:ident| $key:expr) => {
                if self.$field.len() > mark[$i] {
                    let slots = duplicate_slots(&self.$field, mark[$i], |$o| $key);
                    note($kind, apply_merge(&mut self.$field, &slots));
                }
            };
        }
        merge!(0, nodes, "Node", |o| meta_key(&o.metadata));
        merge!(1, pods, "Pod", |o| meta_key(&o.metadata));
        merge!(2, namespaces, "Namespace", |o| meta_key(&o.metadata));
        merge!(3, resource_quotas, "ResourceQuota", |o| meta_key(
            &o.metadata
        ));
        merge!(4, limit_ranges, "LimitRange", |o| meta_key(&o.metadata));
        merge!(5, priority_classes, "PriorityClass", |o| meta_key(
            &o.metadata
        ));
        merge!(6, daemon_sets, "DaemonSet", |o| meta_key(&o.metadata));
        merge!(7, events, "Event", |o| meta_key(&o.metadata));
        merge!(8, storage_classes, "StorageClass", |o| meta_key(
            &o.metadata
        ));
        merge!(9, persistent_volumes, "PersistentVolume", |o| meta_key(
            &o.metadata
        ));
        merge!(10, persistent_volume_claims, "PersistentVolumeClaim", |o| {
            meta_key(&o.metadata)
        });
        merge!(11, roles, "Role", |o| meta_key(&o.metadata)
            .map(|(ns, name, uid)| (ns, name, uid, o.kind.as_str())));
        merge!(12, role_bindings, "RoleBinding", |o| meta_key(&o.metadata)
            .map(|(ns, name, uid)| (ns, name, uid, o.kind.as_str())));
        merge!(13, pod_disruption_budgets, "PodDisruptionBudget", |o| {
            meta_key(&o.metadata)
        });
        merge!(14, bootstrap_tokens, "BootstrapToken", |o| (!o
            .token_id
            .is_empty())
        .then_some(o.token_id.as_str()));
        let replaced = notes.iter().map(|n| n.count).sum();
        self.duplicates.append(&mut notes);
        replaced
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
    }

    // ------------------------------------------------------------------ JSON

    fn load_json(&mut self, ctx: &mut Ctx<'_>, bytes: &[u8]) {
        let mark = Mark::of(self);
        if fast::read_list(self, bytes).is_ok() {
            ctx.saw_object = true;
            return;
        }
        mark.roll_back(self);
        let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<TopDoc<'_>>();
        let mut document = 0usize;
        let mut start = 0usize;
        loop {
            match stream.next() {
                None => break,
                Some(Ok(doc)) => {
                    let end = stream.byte_offset();
                    ctx.document = document;
                    let raw = bytes.get(start..end).unwrap_or_default();
                    self.load_json_doc(ctx, doc, raw);
                    start = end;
                }
                Some(Err(err)) => {
                    ctx.document = document;
                    ctx.saw_object = true;
                    // A JSON stream cannot resynchronise after a syntax error, but the complete
                    // items of a List (or array) before the error are still good: keep them.
                    let rest = bytes.get(start..).unwrap_or_default();
                    let (kind, items) = salvage_items(rest);
                    let kept = items.len();
                    let item_kind = kind.as_deref().and_then(list_item_kind);
                    self.add_json_items(ctx, items, item_kind);
                    let what = if err.is_eof() {
                        format!(
                            "invalid JSON: input is truncated at byte {} ({err})",
                            bytes.len()
                        )
                    } else {
                        format!("invalid JSON: {err}")
                    };
                    let message = if kept > 0 {
                        format!("{what}; kept the {kept} complete items before item {kept}")
                    } else {
                        what
                    };
                    self.problems.push(LoadProblem {
                        file: ctx.source.to_owned(),
                        document,
                        item: (kept > 0).then_some(kept),
                        message,
                        ..LoadProblem::default()
                    });
                    break;
                }
            }
            document += 1;
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
                        self.add_json_items(ctx, items, item_kind);
                    }
                    (true, None) => ctx.saw_object = true,
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
        for (document, doc) in split_yaml_documents(text).into_iter().enumerate() {
            ctx.document = document;
            ctx.item = None;
            if !looks_like_yaml_structure(doc) {
                self.not_snapshot.push(NotSnapshot {
                    source: format!("{} (document {document})", ctx.source),
                    format: crate::describe::detect_text_format(doc),
                });
                continue;
            }
            let value =
                match serde_saphyr::from_str_with_options::<serde_json::Value>(doc, yaml_options())
                {
                    Ok(value) => value,
                    Err(err) => {
                        let message = yaml_error_message(doc, &err.to_string());
                        self.problems
                            .push(ctx.problem(String::new(), String::new(), message));
                        continue;
                    }
                };
            self.load_value_doc(ctx, &value);
        }
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
                        for (index, item) in items.iter().enumerate() {
                            ctx.item = Some(index);
                            self.add_object(ctx, Obj::Value(item), item_kind);
                        }
                        ctx.item = None;
                    }
                    (true, Some(serde_json::Value::Null) | None) => ctx.saw_object = true,
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
            ctx.item = Some(index);
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
        self.role_bindings.reserve(n(Target::RoleBinding));
        self.pod_disruption_budgets
            .reserve(n(Target::PodDisruptionBudget));
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
        let Some(target) = Target::of(kind, group) else {
            self.count_unknown(kind, head.api_version.as_deref(), group);
            return;
        };
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
            Target::PodDisruptionBudget => {
                obj.typed(d).map(|o| self.pod_disruption_budgets.push(o))
            }
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

/// Moves duplicates into place (see [`duplicate_slots`]); returns how many were removed.
fn apply_merge<T>(items: &mut Vec<T>, first_of: &[Option<usize>]) -> usize {
    if first_of.is_empty() {
        return 0;
    }
    // Pass 2: move each later object into the first one's slot (in input order, so the last
    // one ends there), leaving the older content at the later index to be removed.
    let mut removed = 0;
    for (index, first) in first_of.iter().enumerate() {
        if let Some(first) = *first {
            items.swap(first, index);
            removed += 1;
        }
    }
    let mut flags = first_of.iter();
    items.retain(|_| !matches!(flags.next(), Some(Some(_))));
    removed
}

/// Lengths of everything the JSON fast path may add, to undo a partial attempt.
struct Mark {
    lens: [usize; 15],
    unknown_kinds: BTreeMap<String, usize>,
    skipped_secrets: usize,
}

impl Mark {
    fn lens(s: &ClusterSnapshot) -> [usize; 15] {
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
        s.bootstrap_tokens.truncate(l[14]);
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
}

impl<'s> Ctx<'s> {
    fn new(source: &'s str) -> Self {
        Ctx {
            source,
            document: 0,
            item: None,
            saw_object: false,
            kindless: Vec::new(),
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
            "Secret" => (Target::Secret, &[""]),
            _ => return None,
        };
        match group {
            Some(g) if !groups.contains(&g) => None,
            _ => Some(target),
        }
    }
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
                        message: format!(
                            "field dropped, the rest of the object was kept ({}){reason}",
                            describe_value(&bad)
                        ),
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
fn split_yaml_documents(text: &str) -> Vec<&str> {
    fn push<'t>(text: &'t str, from: usize, to: usize, docs: &mut Vec<&'t str>) {
        if let Some(doc) = text.get(from..to)
            && doc
                .lines()
                .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        {
            docs.push(doc);
        }
    }
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut offset = 0usize;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let next = offset + line.len();
        if bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t") {
            push(text, start, offset, &mut docs);
            // Content after the marker on the same line belongs to the new document.
            start = offset + 3;
        } else if bare == "..." {
            push(text, start, offset, &mut docs);
            start = next;
        }
        offset = next;
    }
    push(text, start, text.len(), &mut docs);
    docs
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
fn looks_like_yaml_structure(doc: &str) -> bool {
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

/// A YAML error message safe to store: only its first line, and none at all for a document that
/// may hold a Secret (parser messages can quote the source text).
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
    out
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
    fn problem_display_names_everything() {
        let p = LoadProblem {
            file: "a.json".into(),
            document: 0,
            item: Some(3),
            object: "Pod/ns/p".into(),
            field: "spec.containers[0].resources.requests.cpu".into(),
            message: "bad".into(),
        };
        assert_eq!(
            p.to_string(),
            "a.json: document 0, item 3 (Pod/ns/p) at spec.containers[0].resources.requests.cpu: bad"
        );
    }
}
