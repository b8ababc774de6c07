//! Where a finding's evidence sits in the inputs: the file (as the user named it) and the 1-based
//! line of the object (the line where its JSON/YAML object, `describe` block or table row starts)
//! or of the log line. [`crate::Inputs`] fills a [`Locations`] index while it reads; the report
//! takes it with [`crate::Report::with_locations`], and SARIF writes it as each result's
//! `physicalLocation`.
//!
//! Objects read from a live cluster have no file: their findings carry no location (SARIF then
//! has only a logical location for them).

use std::collections::BTreeMap;

use cube_model::ClusterSnapshot;
use cube_model::objects::ObjectMeta;
use serde::{Deserialize, Serialize};

use crate::{Evidence, Finding};

/// A place in an input: the file name or label (as given, normalised) and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceLocation {
    /// File name or label of the input (`-` for stdin).
    pub source: String,
    /// 1-based line.
    pub line: usize,
}

/// `(kind, namespace, name)` of an object.
type Key = (String, String, String);

/// Object locations of every input read, and the inputs in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locations {
    /// [`object_key`] of `(kind, namespace, name)` to (index in `files`, line): no allocation
    /// per object (32 bytes a slot; a String key cost twice that and one allocation each).
    objects: std::collections::HashMap<u128, (usize, usize)>,
    /// The files named by `objects`.
    files: Vec<String>,
    sources: Vec<String>,
}

/// The key of an object in [`Locations`]: a 128-bit fingerprint of `(kind, namespace, name)`
/// (two SipHash-1-3 hashes with different seeds; a `str` hashes with a terminator, so the three
/// parts cannot run into each other). Two objects share a key with a chance of about n²/2¹²⁹:
/// for ten million objects, below 10⁻²⁴.
fn object_key(kind: &str, namespace: &str, name: &str) -> u128 {
    use std::hash::{Hash, Hasher};
    let mut a = std::collections::hash_map::DefaultHasher::new();
    let mut b = std::collections::hash_map::DefaultHasher::new();
    0x9e37_79b9_7f4a_7c15_u64.hash(&mut b);
    for h in [&mut a, &mut b] {
        kind.hash(h);
        namespace.hash(h);
        name.hash(h);
    }
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

impl Locations {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records where an object is (the first place it was seen wins).
    pub fn record(&mut self, kind: &str, namespace: &str, name: &str, at: SourceLocation) {
        let file = self.file_index(&at.source);
        self.record_at(kind, namespace, name, file, at.line);
    }

    /// [`Locations::record`] with the file as an index into `files`.
    fn record_at(&mut self, kind: &str, namespace: &str, name: &str, file: usize, line: usize) {
        self.objects
            .entry(object_key(kind, namespace, name))
            .or_insert((file, line));
    }

    /// The index of `source` in `files` (added when new; the last file is checked first).
    fn file_index(&mut self, source: &str) -> usize {
        if let Some(i) = self.files.iter().rposition(|f| f == source) {
            return i;
        }
        self.files.push(source.to_owned());
        self.files.len() - 1
    }

    /// Records an input (in input order).
    pub fn record_source(&mut self, source: &str) {
        if !self.sources.iter().any(|s| s == source) {
            self.sources.push(source.to_owned());
        }
    }

    /// Records an object named in a text that is not a snapshot input (a kubeconfig's cluster):
    /// its line is the first line naming it as a whole word, else 1.
    pub fn record_in_text(
        &mut self,
        kind: &str,
        namespace: &str,
        name: &str,
        source: &str,
        text: &str,
    ) {
        self.record_source(source);
        let line = line_naming(text, name).unwrap_or(1);
        self.record(
            kind,
            namespace,
            name,
            SourceLocation {
                source: source.to_owned(),
                line,
            },
        );
    }

    /// Where an object is, when it came from a file.
    pub fn object(&self, kind: &str, namespace: &str, name: &str) -> Option<SourceLocation> {
        let &(file, line) = self.objects.get(&object_key(kind, namespace, name))?;
        Some(SourceLocation {
            source: self.files.get(file)?.clone(),
            line,
        })
    }

    /// Number of located objects.
    pub fn len(&self) -> usize {
        self.objects.len()
    }

    /// True when nothing was located.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// Where `finding` points, in this order: its subject object; a log line of its evidence
    /// (the line itself); the first object of its field evidence; a log subject (its source,
    /// line 1); for a subject about no object of a file (`Cluster`, `NodePool`, `ResourceGroup`)
    /// line 1 of the first input. `None` when the inputs had no file (a live cluster).
    pub fn locate(&self, finding: &Finding) -> Option<SourceLocation> {
        let s = &finding.subject;
        if let Some(at) = self.object(&s.kind, &s.namespace, &s.name) {
            return Some(at);
        }
        for e in &finding.evidence {
            if let Evidence::Log { source, line, .. } = e
                && self.sources.iter().any(|x| x == source)
            {
                return Some(SourceLocation {
                    source: source.clone(),
                    line: (*line).max(1),
                });
            }
        }
        for e in &finding.evidence {
            if let Evidence::Field { object, .. } = e
                && let Some(at) = parse_object(object).and_then(|(k, ns, n)| self.object(k, ns, n))
            {
                return Some(at);
            }
        }
        if s.kind == "Log" {
            let source = s.name.split('#').next().unwrap_or(&s.name);
            if self.sources.iter().any(|x| x == source) {
                return Some(SourceLocation {
                    source: source.to_owned(),
                    line: 1,
                });
            }
        }
        self.sources.first().map(|source| SourceLocation {
            source: source.clone(),
            line: 1,
        })
    }

    /// Indexes the objects `snapshot` gained from one input: `before` are the list lengths
    /// taken with [`list_lengths`] before the input was read. The line is where the object
    /// starts in `text` (JSON value or List item, YAML document or `items` entry, `describe`
    /// block), else the first line naming it, else 1.
    pub fn record_new_objects(
        &mut self,
        source: &str,
        text: &str,
        snapshot: &ClusterSnapshot,
        before: &[usize],
    ) {
        self.record_new_objects_at(source, text, 1, snapshot, before);
    }

    /// [`Locations::record_new_objects`] for a `text` that starts at line `first_line` of
    /// `source` (one section of a paste).
    pub fn record_new_objects_at(
        &mut self,
        source: &str,
        text: &str,
        first_line: usize,
        snapshot: &ClusterSnapshot,
        before: &[usize],
    ) {
        let offset = first_line.saturating_sub(1);
        self.record_source(source);
        if self.record_from_loader(source, text, offset, snapshot, before) {
            return;
        }
        let starts = object_starts(text);
        // names of objects found nowhere in `starts`: looked up in one pass over `text`
        let mut unplaced: Vec<(&str, &ObjectMeta)> = Vec::new();
        for (i, (kind, metas)) in objects_by_kind(snapshot).into_iter().enumerate() {
            let from = before.get(i).copied().unwrap_or(0);
            for (own_kind, meta) in metas.into_iter().skip(from) {
                let kind = own_kind.unwrap_or(kind);
                let key = (kind.to_owned(), meta.namespace.clone(), meta.name.clone());
                let line = starts
                    .get(&key)
                    .or_else(|| starts.get(&(String::new(), key.1, key.2)))
                    .copied();
                let Some(line) = line else {
                    unplaced.push((kind, meta));
                    continue;
                };
                let file = self.file_index(source);
                self.record_at(kind, &meta.namespace, &meta.name, file, line + offset);
            }
        }
        if unplaced.is_empty() {
            return;
        }
        let lines = lines_naming(text, unplaced.iter().map(|(_, m)| m.name.as_str()));
        let file = self.file_index(source);
        for (kind, meta) in unplaced {
            let line = lines.get(meta.name.as_str()).copied().unwrap_or(1) + offset;
            self.record_at(kind, &meta.namespace, &meta.name, file, line);
        }
    }

    /// Indexes the objects `snapshot` gained from one input read from a reader
    /// ([`ClusterSnapshot::add_json_reader`]) by the lines the loader counted while reading
    /// ([`ClusterSnapshot::last_input_object_lines`]); `before` as for
    /// [`Locations::record_new_objects`]. False (nothing recorded) when the loader has no line
    /// for every object it added.
    pub fn record_new_objects_read(
        &mut self,
        source: &str,
        snapshot: &ClusterSnapshot,
        before: &[usize],
    ) -> bool {
        self.record_source(source);
        let kinds = objects_by_kind(snapshot);
        let mut placed = Vec::with_capacity(kinds.len());
        for (i, (kind, metas)) in kinds.iter().enumerate() {
            let from = before.get(i).copied().unwrap_or(0);
            match snapshot.last_input_object_lines(kind) {
                Some(lines) if lines.len() == metas.len().saturating_sub(from) => {
                    placed.push((from, lines))
                }
                _ => return false,
            }
        }
        let file = self.file_index(source);
        for ((kind, metas), (from, lines)) in kinds.into_iter().zip(placed) {
            self.objects.reserve(lines.len());
            for ((own_kind, meta), &line) in metas.into_iter().skip(from).zip(lines) {
                self.record_at(
                    own_kind.unwrap_or(kind),
                    &meta.namespace,
                    &meta.name,
                    file,
                    line,
                );
            }
        }
        true
    }

    /// Records the objects the last input added from where the loader saw them start
    /// ([`ClusterSnapshot::last_input_object_starts`]), without reading `text` again: one
    /// line-feed index, a binary search per object. False (nothing recorded) when the loader
    /// did not record them for every kind, or an offset is not where an object of `text` starts.
    fn record_from_loader(
        &mut self,
        source: &str,
        text: &str,
        offset: usize,
        snapshot: &ClusterSnapshot,
        before: &[usize],
    ) -> bool {
        let kinds = objects_by_kind(snapshot);
        let mut placed = Vec::with_capacity(kinds.len());
        for (i, (kind, metas)) in kinds.iter().enumerate() {
            let from = before.get(i).copied().unwrap_or(0);
            let Some(starts) = snapshot.last_input_object_starts(kind) else {
                return false;
            };
            let new = metas.len().saturating_sub(from);
            if starts.len() != new
                || starts
                    .iter()
                    .any(|&at| text.as_bytes().get(at) != Some(&b'{'))
            {
                return false;
            }
            placed.push((from, starts));
        }
        let lines = LineIndex::new(text);
        let file = self.file_index(source);
        for ((kind, metas), (from, starts)) in kinds.into_iter().zip(placed) {
            self.objects.reserve(starts.len());
            for ((own_kind, meta), &at) in metas.into_iter().skip(from).zip(starts) {
                let line = lines.line_of(at) + offset;
                self.record_at(
                    own_kind.unwrap_or(kind),
                    &meta.namespace,
                    &meta.name,
                    file,
                    line,
                );
            }
        }
        true
    }
}

/// `Kind/namespace/name` or `Kind/name` (evidence object names) into its parts.
fn parse_object(object: &str) -> Option<(&str, &str, &str)> {
    let mut parts = object.splitn(3, '/');
    let kind = parts.next()?;
    let a = parts.next()?;
    match parts.next() {
        Some(name) => Some((kind, a, name)),
        None => Some((kind, "", a)),
    }
}

/// The objects of one kind: the kind, and each object's own kind (where a list holds two:
/// Role/ClusterRole, RoleBinding/ClusterRoleBinding) with its metadata.
pub type KindObjects<'s> = (&'static str, Vec<(Option<&'s str>, &'s ObjectMeta)>);

/// The kinds of a snapshot, in a fixed order, with each object's metadata.
pub fn objects_by_kind(s: &ClusterSnapshot) -> Vec<KindObjects<'_>> {
    fn plain<T>(v: &[T], meta: impl Fn(&T) -> &ObjectMeta) -> Vec<(Option<&str>, &ObjectMeta)> {
        v.iter().map(|x| (None, meta(x))).collect()
    }
    vec![
        ("Node", plain(&s.nodes, |x| &x.metadata)),
        ("Pod", plain(&s.pods, |x| &x.metadata)),
        ("Namespace", plain(&s.namespaces, |x| &x.metadata)),
        ("ResourceQuota", plain(&s.resource_quotas, |x| &x.metadata)),
        ("LimitRange", plain(&s.limit_ranges, |x| &x.metadata)),
        ("PriorityClass", plain(&s.priority_classes, |x| &x.metadata)),
        ("DaemonSet", plain(&s.daemon_sets, |x| &x.metadata)),
        ("Event", plain(&s.events, |x| &x.metadata)),
        ("StorageClass", plain(&s.storage_classes, |x| &x.metadata)),
        (
            "PersistentVolume",
            plain(&s.persistent_volumes, |x| &x.metadata),
        ),
        (
            "PersistentVolumeClaim",
            plain(&s.persistent_volume_claims, |x| &x.metadata),
        ),
        (
            "Role",
            s.roles
                .iter()
                .map(|r| (Some(r.kind.as_str()).filter(|k| !k.is_empty()), &r.metadata))
                .collect(),
        ),
        (
            "RoleBinding",
            s.role_bindings
                .iter()
                .map(|r| (Some(r.kind.as_str()).filter(|k| !k.is_empty()), &r.metadata))
                .collect(),
        ),
        (
            "PodDisruptionBudget",
            plain(&s.pod_disruption_budgets, |x| &x.metadata),
        ),
    ]
}

/// Lengths of the lists of [`objects_by_kind`], to find what one input added.
pub fn list_lengths(s: &ClusterSnapshot) -> Vec<usize> {
    objects_by_kind(s).iter().map(|(_, v)| v.len()).collect()
}

/// The metadata of the object `kind`/`namespace`/`name` in `snapshot`, if it is there.
pub fn find_object<'s>(
    snapshot: &'s ClusterSnapshot,
    kind: &str,
    namespace: &str,
    name: &str,
) -> Option<&'s ObjectMeta> {
    objects_by_kind(snapshot)
        .into_iter()
        .flat_map(|(k, metas)| metas.into_iter().map(move |(own, m)| (own.unwrap_or(k), m)))
        .find(|(k, m)| *k == kind && m.namespace == namespace && m.name == name)
        .map(|(_, m)| m)
}

/// 1-based lines of byte offsets in one text: the offsets of its line feeds, found once, then a
/// binary search per lookup (`O(log n)`, never a scan from the start of the text).
struct LineIndex {
    feeds: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let feeds = text
            .bytes()
            .enumerate()
            .filter_map(|(i, b)| (b == b'\n').then_some(i))
            .collect();
        Self { feeds }
    }

    /// 1-based line of byte offset `at`.
    fn line_of(&self, at: usize) -> usize {
        self.feeds.partition_point(|&f| f < at) + 1
    }
}

/// True for the characters of a name as a word ([`line_naming`]).
fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == '_'
}

/// First line where `name` appears as a whole word (not inside a longer name).
fn line_naming(text: &str, name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    for (i, l) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(p) = l[from..].find(name) {
            let start = from + p;
            let end = start + name.len();
            let before_ok = l[..start].chars().next_back().is_none_or(|c| !word_char(c));
            let after_ok = l[end..].chars().next().is_none_or(|c| !word_char(c));
            if before_ok && after_ok {
                return Some(i + 1);
            }
            from = end;
        }
    }
    None
}

/// At most this many names that are not single words are looked up with a scan of the whole
/// text each ([`lines_naming`]); the others are placed at line 1. Kubernetes object names are
/// single words (DNS labels and subdomains), so only hand-made labels such as
/// `unnamed node (from x)` take that path, a few per input.
const MAX_TEXT_SCANS: usize = 16;

/// [`line_naming`] for many names in one pass over `text`: every maximal run of word characters
/// is looked up in the set of wanted names (a name made of word characters appears as a whole
/// word exactly where it is such a run). Names with other characters take [`line_naming`], at
/// most [`MAX_TEXT_SCANS`] of them. `O(text + names · log names)`.
fn lines_naming<'n>(
    text: &str,
    names: impl IntoIterator<Item = &'n str>,
) -> BTreeMap<&'n str, usize> {
    let mut found: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wanted: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut scans = 0;
    for name in names {
        if name.is_empty() || found.contains_key(name) {
            continue;
        }
        if name.chars().all(word_char) {
            wanted.insert(name);
        } else if scans < MAX_TEXT_SCANS {
            scans += 1;
            if let Some(line) = line_naming(text, name) {
                found.insert(name, line);
            }
        }
    }
    if wanted.is_empty() {
        return found;
    }
    for (i, l) in text.lines().enumerate() {
        for word in l.split(|c: char| !word_char(c)).filter(|w| !w.is_empty()) {
            if let Some(name) = wanted.take(word) {
                found.insert(name, i + 1);
                if wanted.is_empty() {
                    return found;
                }
            }
        }
    }
    found
}

/// Start lines of the objects in a JSON or YAML text, by (kind, namespace, name); items of a
/// List whose items carry no kind are keyed by the List's item kind (`PodList` → `Pod`) and also
/// under an empty kind.
fn object_starts(text: &str) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    let body = text.trim_start_matches('\u{feff}');
    let offset = text.len() - body.len();
    if body.trim_start().starts_with(['{', '[']) {
        json_starts(text, offset, &mut out);
    } else {
        yaml_starts(text, &mut out);
    }
    out
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Meta {
    name: String,
    namespace: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Ident<'a> {
    kind: String,
    metadata: Meta,
    #[serde(borrow)]
    items: Option<Vec<&'a serde_json::value::RawValue>>,
}

fn json_starts(text: &str, offset: usize, out: &mut BTreeMap<Key, usize>) {
    let base = text.as_ptr() as usize;
    let lines = LineIndex::new(text);
    let mut values: Vec<&serde_json::value::RawValue> = Vec::new();
    let stream = serde_json::Deserializer::from_str(&text[offset..])
        .into_iter::<&serde_json::value::RawValue>();
    for v in stream {
        let Ok(v) = v else { break };
        if v.get().trim_start().starts_with('[') {
            if let Ok(items) = serde_json::from_str::<Vec<&serde_json::value::RawValue>>(v.get()) {
                values.extend(items);
            }
        } else {
            values.push(v);
        }
    }
    let mut todo: Vec<(&serde_json::value::RawValue, String)> =
        values.into_iter().map(|v| (v, String::new())).collect();
    while let Some((raw, item_kind)) = todo.pop() {
        let Ok(id) = serde_json::from_str::<Ident<'_>>(raw.get()) else {
            continue;
        };
        let at = raw.get().as_ptr() as usize - base;
        let line = lines.line_of(at);
        if let Some(items) = id.items {
            let inner = id.kind.strip_suffix("List").unwrap_or("").to_owned();
            todo.extend(items.into_iter().map(|i| (i, inner.clone())));
            continue;
        }
        let kind = if id.kind.is_empty() {
            item_kind
        } else {
            id.kind
        };
        let (ns, name) = (id.metadata.namespace, id.metadata.name);
        out.entry((String::new(), ns.clone(), name.clone()))
            .or_insert(line);
        out.entry((kind, ns, name)).or_insert(line);
    }
}

/// A YAML scanner for the shapes kubectl writes: documents split by `---`, a top-level object
/// or a `List` with `items:` entries (`- apiVersion: ...`), `kind:`, and `metadata:` with
/// `name:`/`namespace:` one level deeper (block or flow style).
fn yaml_starts(text: &str, out: &mut BTreeMap<Key, usize>) {
    let lines: Vec<&str> = text.lines().collect();
    // (first line index, last line index exclusive) of each document
    let mut docs = Vec::new();
    let mut start = 0;
    for (i, l) in lines.iter().enumerate() {
        if *l == "---" || l.starts_with("--- ") {
            docs.push((start, i));
            start = i + 1;
        }
    }
    docs.push((start, lines.len()));
    for (a, b) in docs {
        let block = &lines[a..b];
        // items of a List: entries at the indentation of the first `- ` after `items:`
        if let Some(items_at) = block.iter().position(|l| l.trim_end() == "items:") {
            let list_kind = block
                .iter()
                .find_map(|l| l.strip_prefix("kind:"))
                .map(|k| k.trim().trim_matches('"').to_owned())
                .unwrap_or_default();
            let item_kind = list_kind.strip_suffix("List").unwrap_or("").to_owned();
            let mut entries: Vec<usize> = Vec::new();
            let mut dash_indent = None;
            for (j, l) in block.iter().enumerate().skip(items_at + 1) {
                let indent = l.len() - l.trim_start().len();
                let t = l.trim_start();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                if indent == 0 && !t.starts_with('-') {
                    break;
                }
                if t.starts_with("- ") || t == "-" {
                    match dash_indent {
                        None => {
                            dash_indent = Some(indent);
                            entries.push(j);
                        }
                        Some(d) if d == indent => entries.push(j),
                        _ => {}
                    }
                }
            }
            for (k, &j) in entries.iter().enumerate() {
                let end = entries.get(k + 1).copied().unwrap_or(block.len());
                let indent = dash_indent.unwrap_or(0) + 2;
                let (kind, ns, name) = yaml_ident(&block[j..end], indent, true);
                let kind = if kind.is_empty() {
                    item_kind.clone()
                } else {
                    kind
                };
                let line = a + j + 1;
                out.entry((String::new(), ns.clone(), name.clone()))
                    .or_insert(line);
                out.entry((kind, ns, name)).or_insert(line);
            }
            continue;
        }
        let Some(first) = block
            .iter()
            .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        else {
            continue;
        };
        let (kind, ns, name) = yaml_ident(&block[first..], 0, false);
        if name.is_empty() {
            continue;
        }
        let line = a + first + 1;
        out.entry((String::new(), ns.clone(), name.clone()))
            .or_insert(line);
        out.entry((kind, ns, name)).or_insert(line);
    }
}

/// `kind`, `metadata.namespace` and `metadata.name` of a YAML mapping whose keys sit at
/// `indent` (the first line may start with `- `).
fn yaml_ident(block: &[&str], indent: usize, first_has_dash: bool) -> (String, String, String) {
    let unquote = |v: &str| v.trim().trim_matches('"').trim_matches('\'').to_owned();
    let mut kind = String::new();
    let (mut ns, mut name) = (String::new(), String::new());
    let mut in_meta = false;
    for (i, l) in block.iter().enumerate() {
        let line: String = if i == 0 && first_has_dash {
            // `- apiVersion: v1` → the key at `indent`
            let d = l.find('-').unwrap_or(0);
            format!(
                "{}{}",
                " ".repeat(d + 2),
                l.get(d + 2..).unwrap_or("").trim_start()
            )
        } else {
            (*l).to_owned()
        };
        let ind = line.len() - line.trim_start().len();
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if ind == indent {
            in_meta = false;
            if let Some(v) = t.strip_prefix("kind:") {
                kind = unquote(v);
            } else if let Some(v) = t.strip_prefix("metadata:") {
                let v = v.trim();
                if let Some(flow) = v.strip_prefix('{').and_then(|f| f.strip_suffix('}')) {
                    for part in flow.split(',') {
                        if let Some((k, val)) = part.split_once(':') {
                            match k.trim() {
                                "name" => name = unquote(val),
                                "namespace" => ns = unquote(val),
                                _ => {}
                            }
                        }
                    }
                } else {
                    in_meta = true;
                }
            }
        } else if in_meta && ind > indent {
            if let Some(v) = t.strip_prefix("name:") {
                if name.is_empty() {
                    name = unquote(v);
                }
            } else if let Some(v) = t.strip_prefix("namespace:")
                && ns.is_empty()
            {
                ns = unquote(v);
            }
        } else if ind < indent {
            break;
        }
    }
    (kind, ns, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_list_items_and_stream() {
        let text = "{\"kind\":\"List\",\"items\":[\n{\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}},\n  {\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ml\"}}]}\n{\"kind\":\"Node\",\"metadata\":{\"name\":\"b\"}}\n";
        let s = object_starts(text);
        assert_eq!(s[&("Node".into(), "".into(), "a".into())], 2);
        assert_eq!(s[&("Pod".into(), "ml".into(), "p".into())], 3);
        assert_eq!(s[&("Node".into(), "".into(), "b".into())], 4);
        let typed = "{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"q\",\"namespace\":\"x\"}}]}";
        assert_eq!(
            object_starts(typed)[&("Pod".into(), "x".into(), "q".into())],
            2
        );
    }

    #[test]
    fn yaml_documents_and_list_items() {
        let text = "# dump\napiVersion: v1\nkind: Node\nmetadata:\n  labels: {a: b}\n  name: n1\n---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p1\n    namespace: ml\n  spec: {}\n- kind: Pod\n  metadata: {name: p2, namespace: ml}\n";
        let s = object_starts(text);
        assert_eq!(s[&("Node".into(), "".into(), "n1".into())], 2);
        assert_eq!(s[&("Pod".into(), "ml".into(), "p1".into())], 11);
        assert_eq!(s[&("Pod".into(), "ml".into(), "p2".into())], 17);
    }

    #[test]
    fn whole_word_search() {
        assert_eq!(line_naming("node-10 x\nName: node-1\n", "node-1"), Some(2));
        assert_eq!(line_naming("nothing", "node-1"), None);
    }

    /// The loader's object starts give the lines the text scan gives, for pretty and compact
    /// Lists, with a byte-order mark, Roles and ClusterRoles in one vector.
    #[test]
    fn loader_starts_agree_with_the_text_scan() {
        let items = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": [
            {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ml"}},
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"}},
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "r", "namespace": "ml"}},
            {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "skipped"}},
            {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "ml"}, "reason": "x"},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "q", "namespace": "ml"}}
        ]});
        let pretty = serde_json::to_string_pretty(&items).unwrap();
        let compact = format!("\u{feff}{}", serde_json::to_string(&items).unwrap());
        for text in [pretty, compact] {
            let mut snapshot = ClusterSnapshot::new();
            let before = list_lengths(&snapshot);
            snapshot.add_bytes("x.json", text.as_bytes());
            assert!(snapshot.last_input_object_starts("Pod").is_some());
            let mut from_loader = Locations::new();
            from_loader.record_source("x.json");
            assert!(from_loader.record_from_loader("x.json", &text, 0, &snapshot, &before));
            let mut scanned = Locations::new();
            let plain = text.trim_start_matches('\u{feff}');
            let starts = object_starts(plain);
            for (kind, metas) in objects_by_kind(&snapshot) {
                for (own, m) in metas {
                    let kind = own.unwrap_or(kind);
                    let line = starts[&(kind.to_owned(), m.namespace.clone(), m.name.clone())];
                    scanned.record(
                        kind,
                        &m.namespace,
                        &m.name,
                        SourceLocation {
                            source: "x.json".into(),
                            line,
                        },
                    );
                }
            }
            scanned.record_source("x.json");
            assert_eq!(from_loader, scanned);
            assert_eq!(from_loader.len(), 6);
        }
        // a second input with the same objects replaces them: the loader no longer knows where
        // they are, the text scan is used
        let mut snapshot = ClusterSnapshot::new();
        let text = serde_json::to_string(&items).unwrap();
        snapshot.add_bytes("x.json", text.as_bytes());
        snapshot.add_bytes("y.json", text.as_bytes());
        assert!(snapshot.last_input_object_starts("Pod").is_none());
    }

    #[test]
    fn many_names_in_one_pass_agree_with_one_at_a_time() {
        let text = "node-10 x\nName: node-1\n  pod a.b, (node-1.x) ns/p_1\nunnamed node (from in.txt) here\nnode-1\n";
        let names = [
            "node-1",
            "node-10",
            "a.b",
            "p_1",
            "x",
            "ns",
            "missing",
            "unnamed node (from in.txt)",
            "node-1.x",
            "",
        ];
        let many = lines_naming(text, names);
        for name in names {
            assert_eq!(many.get(name).copied(), line_naming(text, name), "{name}");
        }
    }

    #[test]
    fn json_lines_come_from_one_index() {
        let mut text = String::from("{\"kind\":\"List\",\"items\":[\n");
        for i in 0..2000 {
            let sep = if i == 0 { "" } else { ",\n" };
            text.push_str(&format!(
                "{sep}{{\"kind\":\"Pod\",\"metadata\":{{\"name\":\"p{i}\",\"namespace\":\"ml\"}}}}"
            ));
        }
        text.push_str("]}\n");
        let s = object_starts(&text);
        for i in [0usize, 1, 999, 1999] {
            assert_eq!(s[&("Pod".into(), "ml".into(), format!("p{i}"))], i + 2);
        }
    }
}
