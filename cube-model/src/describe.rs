//! Readers for the text forms of cluster state that real reports come in: `kubectl describe
//! node`, `kubectl describe pod` (and the `describe pvc` blocks that often follow), the
//! `Events:` table of `describe`, `kubectl get events` tables and `kubectl get nodes [-o wide]`
//! tables.
//!
//! The text is what `kubectl` prints (mirrors `k8s.io/kubectl/pkg/describe/describe.go` and the
//! table printers of `k8s.io/kubernetes/pkg/printers/internalversion`): top-level `Key:  value`
//! lines at column 0, indented sub-blocks, and tables whose columns are aligned by `tabwriter`
//! (at least two spaces between columns). Excerpts are accepted: a block without `Name:` (only
//! `Labels:` or only `Capacity:`/`Allocatable:`) still yields a node, named after its
//! `kubernetes.io/hostname` label when it has one. Lines starting with `#` at column 0 (notes
//! added to a report) are ignored. Relative ages (`18m`) cannot be turned into timestamps and are
//! not kept; `(x7 over 2m58s)` gives the event count.

use std::collections::BTreeMap;

use crate::objects::*;
use crate::snapshot::{InputFormat, LoadProblem};
use crate::{Quantity, ResourceList};

/// Objects read from `kubectl` text.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ParsedText {
    /// Nodes from `describe node` blocks and `get nodes` tables.
    pub nodes: Vec<Node>,
    /// Pods from `describe pod` blocks.
    pub pods: Vec<Pod>,
    /// Events from `Events:` tables (involved object = the described object, when there is one)
    /// and `get events` tables.
    pub events: Vec<Event>,
    /// PersistentVolumeClaims from `describe pvc` blocks.
    pub persistent_volume_claims: Vec<PersistentVolumeClaim>,
    /// Values that could not be read (a quantity such as `cpu: abc`); `file` is empty,
    /// `document` is the block index, `field` names the section and key.
    pub problems: Vec<LoadProblem>,
}

/// Keys that only `describe node` prints.
const NODE_KEYS: &[&str] = &[
    "Roles",
    "Taints",
    "Unschedulable",
    "Capacity",
    "Allocatable",
    "System Info",
    "Addresses",
    "PodCIDR",
    "PodCIDRs",
    "ProviderID",
    "Non-terminated Pods",
    "Allocated resources",
    "Lease",
];

/// Keys that only `describe pod` prints.
const POD_KEYS: &[&str] = &[
    "Containers",
    "Init Containers",
    "QoS Class",
    "Node-Selectors",
    "Tolerations",
    "Service Account",
    "Start Time",
    "Controlled By",
    "Priority Class Name",
    "IP",
    "IPs",
    "Node",
];

/// Keys that only `describe pvc` prints.
const PVC_KEYS: &[&str] = &[
    "StorageClass",
    "Access Modes",
    "VolumeMode",
    "Mounted By",
    "Used By",
];

fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.starts_with('#'))
}

/// Detects the format of text (see [`crate::snapshot::detect_format`]).
pub(crate) fn detect_text_format(text: &str) -> InputFormat {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = content_lines(text).filter(|l| !l.trim().is_empty());
    let Some(first) = lines.next() else {
        return InputFormat::Text;
    };
    let trimmed = first.trim_start();
    if trimmed.starts_with('{') || (trimmed.starts_with('[') && looks_like_json_array(trimmed)) {
        return InputFormat::Json;
    }
    if first == "---" || first.starts_with("--- ") || first.starts_with("- ") {
        return InputFormat::Yaml;
    }
    if let Some(key) = yaml_key(first)
        && !first.starts_with(' ')
        && key.starts_with(|c: char| c.is_ascii_lowercase())
        && content_lines(text).any(|l| l.starts_with("apiVersion:") || l.starts_with("kind:"))
    {
        return InputFormat::Yaml;
    }
    if is_nodes_header(first) {
        return InputFormat::NodesWideTable;
    }
    if is_get_events_header(first) || is_describe_events_header(first) || is_event_row(first) {
        return InputFormat::EventsTable;
    }
    if top_key(first).is_some_and(|(k, _)| k == "Events") {
        return InputFormat::EventsTable;
    }
    for line in content_lines(text) {
        if let Some((key, _)) = top_key(line) {
            if PVC_KEYS.contains(&key) {
                return InputFormat::DescribePersistentVolumeClaim;
            }
            if NODE_KEYS.contains(&key) {
                return InputFormat::DescribeNode;
            }
            if POD_KEYS.contains(&key) {
                return InputFormat::DescribePod;
            }
        }
    }
    InputFormat::Text
}

/// True when `line` (starting with `[`) opens a JSON array rather than a log tag such as
/// `[preflight]` or `[Unschedulable]`.
pub(crate) fn looks_like_json_array(line: &str) -> bool {
    let rest = line
        .trim_start()
        .strip_prefix('[')
        .unwrap_or("")
        .trim_start();
    match rest.chars().next() {
        None => true,
        Some(c) => {
            matches!(c, '{' | '[' | '"' | ']' | '-' | '0'..='9')
                || rest.starts_with("true")
                || rest.starts_with("false")
                || rest.starts_with("null")
        }
    }
}

/// The key of a YAML `key:` line (`key:` then end of line or a space), if it is one.
pub(crate) fn yaml_key(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let end = line.find(':')?;
    let key = line.get(..end)?;
    let rest = line.get(end + 1..)?;
    let key_ok = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
    (key_ok && (rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t'))).then_some(key)
}

/// A `describe` top-level line: `Key:` at column 0 (letters, digits, spaces, `-`, `(`, `)`),
/// with the rest of the line trimmed.
fn top_key(line: &str) -> Option<(&str, &str)> {
    if !line.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let end = line.find(':')?;
    let key = line.get(..end)?;
    if !key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')' | '/'))
    {
        return None;
    }
    let rest = line.get(end + 1..)?;
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    Some((key, rest.trim()))
}

fn is_nodes_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.first() == Some(&"NAME")
        && words.contains(&"STATUS")
        && words.contains(&"ROLES")
        && words.contains(&"VERSION")
}

fn is_get_events_header(line: &str) -> bool {
    line.contains("LAST SEEN")
        && line.contains("TYPE")
        && line.contains("REASON")
        && line.contains("MESSAGE")
}

fn is_describe_events_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words == ["Type", "Reason", "Age", "From", "Message"]
}

/// A describe `Events:` row without its header: `Warning  FailedCreate  17s  from  message`.
fn is_event_row(line: &str) -> bool {
    let t = line.trim_start();
    let Some(rest) = t
        .strip_prefix("Warning")
        .or_else(|| t.strip_prefix("Normal"))
    else {
        return false;
    };
    rest.starts_with("  ") && split_wide(rest.trim_start(), 4).len() >= 3
}

/// Splits at runs of two or more spaces (tabs count as wide), at most `max` cells; the last cell
/// takes the rest of the line.
fn split_wide(line: &str, max: usize) -> Vec<String> {
    let mut cells = Vec::new();
    let chars: Vec<char> = line.trim().chars().collect();
    let mut current = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let wide =
            c == '\t' || (c == ' ' && chars.get(i + 1).is_some_and(|n| *n == ' ' || *n == '\t'));
        if wide && cells.len() + 1 < max {
            while i < chars.len() && (chars[i] == ' ' || chars[i] == '\t') {
                i += 1;
            }
            cells.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
        i += 1;
    }
    if !current.is_empty() || !cells.is_empty() {
        cells.push(current.trim().to_owned());
    }
    cells
}

/// Column starts (in chars) of a tabwriter header: a column starts at a non-space after two or
/// more spaces (or at the first non-space).
fn column_starts(header: &str) -> Vec<usize> {
    let chars: Vec<char> = header.chars().collect();
    let mut starts = Vec::new();
    let mut spaces = usize::MAX;
    for (i, c) in chars.iter().enumerate() {
        if *c == ' ' || *c == '\t' {
            spaces = spaces.saturating_add(1);
        } else {
            if spaces >= 2 {
                starts.push(i);
            }
            spaces = 0;
        }
        if i == 0 && *c != ' ' {
            // handled above: spaces starts at MAX so the first non-space opens a column
        }
    }
    starts
}

/// Cells of one table row, aligned to the header's column starts; falls back to splitting at
/// wide gaps when the row is not aligned.
fn table_cells(starts: &[usize], row: &str) -> Vec<String> {
    let chars: Vec<char> = row.chars().collect();
    let aligned = starts.iter().skip(1).all(|&s| {
        s >= chars.len()
            || (chars.get(s.wrapping_sub(1)).is_some_and(|c| *c == ' ')
                && chars.get(s).is_some_and(|c| *c != ' '))
            || chars.get(s).is_some_and(|c| *c == ' ')
                && chars.get(s.saturating_sub(1)).is_some_and(|c| *c == ' ')
    });
    if !aligned {
        let mut cells = split_wide(row, starts.len().max(1));
        cells.resize(starts.len(), String::new());
        return cells;
    }
    let mut cells = Vec::with_capacity(starts.len());
    for (i, &s) in starts.iter().enumerate() {
        let end = starts
            .get(i + 1)
            .copied()
            .unwrap_or(chars.len())
            .min(chars.len());
        let begin = s.min(end);
        let cell: String = chars.get(begin..end).unwrap_or_default().iter().collect();
        cells.push(cell.trim().to_owned());
    }
    cells
}

fn none_to_empty(value: &str) -> &str {
    let v = value.trim();
    if v == "<none>" || v == "<unset>" || v == "<nil>" {
        ""
    } else {
        v
    }
}

/// `key=value`, `key: value`, `key` (label/annotation lines; key chars as Kubernetes allows).
fn split_kv(line: &str) -> Option<(String, String)> {
    let line = line.trim();
    if line.is_empty() || line == "<none>" {
        return None;
    }
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/')))
        .unwrap_or(line.len());
    let key = line.get(..end)?;
    if key.is_empty() {
        return None;
    }
    let rest = line.get(end..)?;
    let value = if let Some(v) = rest.strip_prefix('=') {
        v
    } else if let Some(v) = rest.strip_prefix(':') {
        v
    } else if rest.trim().is_empty() {
        ""
    } else {
        return None;
    };
    Some((key.to_owned(), value.trim().to_owned()))
}

/// One `Key:` section of a describe block: its inline value and the indented lines below it.
#[derive(Debug, Default)]
struct Section<'a> {
    key: &'a str,
    inline: &'a str,
    lines: Vec<&'a str>,
}

impl Section<'_> {
    /// Inline value plus continuation lines, trimmed, without `<none>`.
    fn values(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.inline)
            .chain(self.lines.iter().copied())
            .map(str::trim)
            .filter(|l| !l.is_empty() && *l != "<none>")
    }
}

/// A describe block: sections in order.
#[derive(Debug, Default)]
struct Block<'a> {
    sections: Vec<Section<'a>>,
}

impl<'a> Block<'a> {
    fn get(&self, key: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.key == key)
    }
    fn inline(&self, key: &str) -> &'a str {
        self.get(key).map(|s| none_to_empty(s.inline)).unwrap_or("")
    }
    fn has_any(&self, keys: &[&str]) -> bool {
        self.sections.iter().any(|s| keys.contains(&s.key))
    }
}

/// Reads every object in `text` (any mix of the supported forms).
pub fn parse_text(text: &str) -> ParsedText {
    let mut out = ParsedText::default();
    let lines: Vec<&str> = content_lines(text).collect();
    let mut i = 0;
    let mut block: Option<Block<'_>> = None;
    let mut block_index = 0usize;
    while i < lines.len() {
        let line = lines[i];
        if block.is_none() || line.trim().is_empty() || !line.starts_with(' ') {
            if is_nodes_header(line) {
                flush(&mut block, &mut out, &mut block_index);
                i = parse_nodes_table(&lines, i, &mut out);
                continue;
            }
            if is_get_events_header(line) {
                flush(&mut block, &mut out, &mut block_index);
                i = parse_get_events_table(&lines, i, &mut out);
                continue;
            }
            if is_describe_events_header(line) || is_event_row(line) {
                // A bare events table (no `Events:` key above it).
                flush(&mut block, &mut out, &mut block_index);
                let end = table_end(&lines, i);
                let section = Section {
                    key: "Events",
                    inline: "",
                    lines: lines.get(i..end).unwrap_or_default().to_vec(),
                };
                out.events
                    .extend(describe_events(&section, &ObjectReference::default()));
                i = end;
                continue;
            }
        }
        if let Some((key, inline)) = top_key(line) {
            if key == "Name" && block.as_ref().is_some_and(|b| !b.sections.is_empty()) {
                flush(&mut block, &mut out, &mut block_index);
            }
            let b = block.get_or_insert_with(Block::default);
            b.sections.push(Section {
                key,
                inline,
                lines: Vec::new(),
            });
        } else if let Some(section) = block.as_mut().and_then(|b| b.sections.last_mut()) {
            if line.starts_with(' ') || line.starts_with('\t') {
                section.lines.push(line);
            } else if line.trim().is_empty() {
                // Blank lines separate objects; keep the block open (a `Name:` starts the next).
            } else {
                // Free text between blocks.
                flush(&mut block, &mut out, &mut block_index);
            }
        }
        i += 1;
    }
    flush(&mut block, &mut out, &mut block_index);
    out
}

fn table_end(lines: &[&str], start: usize) -> usize {
    let mut end = start;
    while end < lines.len() && !lines[end].trim().is_empty() {
        if end > start && top_key(lines[end]).is_some() {
            break;
        }
        end += 1;
    }
    end
}

fn flush(block: &mut Option<Block<'_>>, out: &mut ParsedText, index: &mut usize) {
    let Some(b) = block.take() else { return };
    if b.sections.is_empty() {
        return;
    }
    let idx = *index;
    *index += 1;
    if b.has_any(PVC_KEYS) {
        pvc_from_block(&b, idx, out);
    } else if b.has_any(NODE_KEYS) {
        node_from_block(&b, idx, out);
    } else if b.has_any(POD_KEYS) {
        pod_from_block(&b, idx, out);
    } else if let Some(events) = b.get("Events") {
        let involved = ObjectReference {
            name: b.inline("Name").to_owned(),
            namespace: b.inline("Namespace").to_owned(),
            ..ObjectReference::default()
        };
        out.events.extend(describe_events(events, &involved));
    }
}

fn meta_from_block(b: &Block<'_>) -> ObjectMeta {
    let mut meta = ObjectMeta {
        name: b.inline("Name").to_owned(),
        namespace: b.inline("Namespace").to_owned(),
        ..ObjectMeta::default()
    };
    if let Some(s) = b.get("Labels") {
        meta.labels = s.values().filter_map(split_kv).collect();
    }
    if let Some(s) = b.get("Annotations") {
        meta.annotations = s.values().filter_map(split_kv).collect();
    }
    if let Some(t) = parse_time(b.inline("CreationTimestamp")) {
        meta.creation_timestamp = Some(t);
    }
    if meta.name.is_empty()
        && let Some(host) = meta.labels.get("kubernetes.io/hostname")
    {
        meta.name = host.clone();
    }
    meta
}

/// `Mon, 13 Nov 2017 13:06:30 -0800` (RFC 1123 with numeric zone, as kubectl prints) or RFC 3339.
fn parse_time(text: &str) -> Option<Time> {
    let text = none_to_empty(text);
    if text.is_empty() {
        return None;
    }
    if let Ok(t) = text.parse::<Time>() {
        return Some(t);
    }
    jiff::fmt::rfc2822::parse(text).ok().map(|z| z.timestamp())
}

/// `  cpu:  4` lines into a resource list; bad quantities become problems.
fn resource_list(
    section: &Section<'_>,
    block: usize,
    object: &str,
    out: &mut Vec<LoadProblem>,
) -> ResourceList {
    let mut list = ResourceList::new();
    for line in section.values() {
        let Some((name, value)) = split_kv(line) else {
            continue;
        };
        match value.parse::<Quantity>() {
            Ok(q) => {
                list.insert(name, q);
            }
            Err(err) => out.push(LoadProblem {
                document: block,
                object: object.to_owned(),
                field: format!("{}.{name}", section.key),
                message: format!("invalid quantity {value:?}: {err}"),
                ..LoadProblem::default()
            }),
        }
    }
    list
}

fn node_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let mut node = Node {
        metadata: meta_from_block(b),
        ..Node::default()
    };
    let object = format!("Node/{}", node.metadata.name);
    if let Some(s) = b.get("Taints") {
        node.spec.taints = s.values().filter_map(parse_taint).collect();
    }
    node.spec.unschedulable = b.inline("Unschedulable") == "true";
    node.spec.pod_cidr = b.inline("PodCIDR").to_owned();
    node.spec.provider_id = b.inline("ProviderID").to_owned();
    if let Some(s) = b.get("Capacity") {
        node.status.capacity = resource_list(s, idx, &object, &mut out.problems);
    }
    if let Some(s) = b.get("Allocatable") {
        node.status.allocatable = resource_list(s, idx, &object, &mut out.problems);
    }
    if let Some(s) = b.get("Addresses") {
        node.status.addresses = s
            .values()
            .filter_map(|l| {
                let (t, a) = l.split_once(':')?;
                Some(NodeAddress {
                    type_: t.trim().to_owned(),
                    address: a.trim().to_owned(),
                })
            })
            .collect();
    }
    if let Some(s) = b.get("Conditions") {
        node.status.conditions = table_rows(s)
            .into_iter()
            .map(|row| {
                let cell = |name: &str| row.get(name).cloned().unwrap_or_default();
                NodeCondition {
                    type_: cell("Type"),
                    status: cell("Status"),
                    reason: cell("Reason"),
                    message: cell("Message"),
                    last_heartbeat_time: parse_time(&cell("LastHeartbeatTime")),
                    last_transition_time: parse_time(&cell("LastTransitionTime")),
                }
            })
            .collect();
    }
    if let Some(s) = b.get("System Info") {
        let info = &mut node.status.node_info;
        for line in s.values() {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim().to_owned();
            match key.trim() {
                "Machine ID" => info.machine_id = value,
                "System UUID" => info.system_uuid = value,
                "Boot ID" => info.boot_id = value,
                "Kernel Version" => info.kernel_version = value,
                "OS Image" => info.os_image = value,
                "Operating System" => info.operating_system = value,
                "Architecture" => info.architecture = value,
                "Container Runtime Version" => info.container_runtime_version = value,
                "Kubelet Version" => info.kubelet_version = value,
                "Kube-Proxy Version" => info.kube_proxy_version = value,
                _ => {}
            }
        }
    }
    if let Some(s) = b.get("Events") {
        let involved = ObjectReference {
            kind: "Node".to_owned(),
            name: node.metadata.name.clone(),
            ..ObjectReference::default()
        };
        out.events.extend(describe_events(s, &involved));
    }
    out.nodes.push(node);
}

/// `key=value:Effect`, `key:Effect`.
fn parse_taint(text: &str) -> Option<Taint> {
    let (kv, effect) = text.trim().rsplit_once(':')?;
    let (key, value) = match kv.split_once('=') {
        Some((k, v)) => (k, v),
        None => (kv, ""),
    };
    Some(Taint {
        key: key.to_owned(),
        value: value.to_owned(),
        effect: effect.trim().to_owned(),
        time_added: None,
    })
}

/// `key=value:Effect op=Exists for 300s`, `CriticalAddonsOnly op=Exists`, `op=Exists`.
fn parse_toleration(text: &str) -> Option<Toleration> {
    let mut tol = Toleration::default();
    let mut words = text.split_whitespace().peekable();
    if let Some(first) = words.peek().copied()
        && !first.starts_with("op=")
        && first != "for"
    {
        words.next();
        let (kv, effect) = match first.rsplit_once(':') {
            Some((kv, e)) => (kv, e),
            None => (first, ""),
        };
        let (key, value) = match kv.split_once('=') {
            Some((k, v)) => (k, Some(v)),
            None => (kv, None),
        };
        tol.key = key.to_owned();
        tol.effect = effect.to_owned();
        if let Some(v) = value {
            tol.value = v.to_owned();
            tol.operator = "Equal".to_owned();
        }
    }
    while let Some(word) = words.next() {
        if let Some(op) = word.strip_prefix("op=") {
            tol.operator = op.to_owned();
        } else if word == "for" {
            tol.toleration_seconds = words
                .next()
                .and_then(|s| s.strip_suffix('s'))
                .and_then(|s| s.parse().ok());
        }
    }
    if tol.key.is_empty() && tol.operator.is_empty() {
        return None;
    }
    Some(tol)
}

/// A section that is a table (header, `----` separator, rows): rows as header name -> cell.
fn table_rows(section: &Section<'_>) -> Vec<BTreeMap<String, String>> {
    let lines: Vec<&str> = section
        .lines
        .iter()
        .copied()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let Some(header) = lines.first() else {
        return Vec::new();
    };
    let starts = column_starts(header);
    let names = table_cells(&starts, header);
    lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().starts_with("----"))
        .map(|row| {
            names
                .iter()
                .cloned()
                .zip(table_cells(&starts, row))
                .collect()
        })
        .collect()
}

/// The `Events:` table of describe (or a bare one): `Type Reason Age From Message`.
fn describe_events(section: &Section<'_>, involved: &ObjectReference) -> Vec<Event> {
    if none_to_empty(section.inline).is_empty() && section.lines.is_empty() {
        return Vec::new();
    }
    let has_header = section.lines.iter().any(|l| is_describe_events_header(l));
    let rows: Vec<BTreeMap<String, String>> = if has_header {
        table_rows(section)
    } else {
        section
            .lines
            .iter()
            .filter(|l| is_event_row(l))
            .map(|l| {
                ["Type", "Reason", "Age", "From", "Message"]
                    .iter()
                    .map(|s| (*s).to_owned())
                    .zip(split_wide(l, 5))
                    .collect()
            })
            .collect()
    };
    rows.into_iter()
        .filter(|row| row.get("Type").is_some_and(|t| !t.is_empty()))
        .map(|row| {
            let cell = |name: &str| row.get(name).cloned().unwrap_or_default();
            let from = cell("From");
            let (component, host) = match from.split_once(", ") {
                Some((c, h)) => (c.to_owned(), h.to_owned()),
                None => (from, String::new()),
            };
            Event {
                metadata: ObjectMeta {
                    namespace: involved.namespace.clone(),
                    ..ObjectMeta::default()
                },
                involved_object: involved.clone(),
                reason: cell("Reason"),
                message: cell("Message"),
                type_: cell("Type"),
                count: event_count(&cell("Age")),
                source: EventSource { component, host },
                ..Event::default()
            }
        })
        .collect()
}

/// `16m (x7 over 17m)` -> 7.
fn event_count(age: &str) -> Option<i32> {
    let rest = age.split_once("(x")?.1;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn pod_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let mut pod = Pod {
        metadata: meta_from_block(b),
        ..Pod::default()
    };
    let object = format!("Pod/{}/{}", pod.metadata.namespace, pod.metadata.name);
    let node = b.inline("Node");
    pod.spec.node_name = node.split('/').next().unwrap_or("").to_owned();
    pod.spec.priority = b.inline("Priority").parse().ok();
    pod.spec.priority_class_name = b.inline("Priority Class Name").to_owned();
    pod.spec.service_account_name = b.inline("Service Account").to_owned();
    pod.status.phase = b.inline("Status").to_owned();
    pod.status.reason = b.inline("Reason").to_owned();
    pod.status.message = b.inline("Message").to_owned();
    pod.status.qos_class = b.inline("QoS Class").to_owned();
    pod.status.nominated_node_name = b.inline("NominatedNodeName").to_owned();
    pod.status.start_time = parse_time(b.inline("Start Time"));
    if let Some((kind, name)) = b.inline("Controlled By").split_once('/') {
        pod.metadata.owner_references.push(OwnerReference {
            kind: kind.to_owned(),
            name: name.to_owned(),
            controller: Some(true),
            ..OwnerReference::default()
        });
    }
    if let Some(s) = b.get("Containers") {
        pod.spec.containers = containers(s, idx, &object, &mut out.problems);
    }
    if let Some(s) = b.get("Init Containers") {
        pod.spec.init_containers = containers(s, idx, &object, &mut out.problems);
    }
    if let Some(s) = b.get("Node-Selectors") {
        pod.spec.node_selector = s.values().filter_map(split_kv).collect();
    }
    if let Some(s) = b.get("Tolerations") {
        pod.spec.tolerations = s.values().filter_map(parse_toleration).collect();
    }
    if let Some(s) = b.get("Conditions") {
        pod.status.conditions = table_rows(s)
            .into_iter()
            .map(|row| PodCondition {
                type_: row.get("Type").cloned().unwrap_or_default(),
                status: row.get("Status").cloned().unwrap_or_default(),
                ..PodCondition::default()
            })
            .collect();
    }
    if let Some(s) = b.get("Events") {
        let involved = ObjectReference {
            kind: "Pod".to_owned(),
            namespace: pod.metadata.namespace.clone(),
            name: pod.metadata.name.clone(),
            ..ObjectReference::default()
        };
        out.events.extend(describe_events(s, &involved));
    }
    out.pods.push(pod);
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The `Containers:` section: `  name:` at indent 2, fields at indent 4, resource entries
/// below `Limits:` / `Requests:`.
fn containers(
    section: &Section<'_>,
    idx: usize,
    object: &str,
    problems: &mut Vec<LoadProblem>,
) -> Vec<Container> {
    let mut out: Vec<Container> = Vec::new();
    let mut sub: Option<(&str, Vec<&str>)> = None;
    let finish = |sub: &mut Option<(&str, Vec<&str>)>,
                  out: &mut Vec<Container>,
                  problems: &mut Vec<LoadProblem>| {
        let Some((key, lines)) = sub.take() else {
            return;
        };
        let Some(container) = out.last_mut() else {
            return;
        };
        let section = Section {
            key,
            inline: "",
            lines,
        };
        let list = resource_list(
            &section,
            idx,
            &format!("{object} container {}", container.name),
            problems,
        );
        match key {
            "Limits" => container.resources.limits = list,
            _ => container.resources.requests = list,
        }
    };
    for line in &section.lines {
        let indent = indent_of(line);
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if indent <= 2 {
            finish(&mut sub, &mut out, problems);
            if let Some(name) = t.strip_suffix(':') {
                out.push(Container {
                    name: name.to_owned(),
                    ..Container::default()
                });
            }
            continue;
        }
        if indent <= 4 {
            finish(&mut sub, &mut out, problems);
            let Some((key, value)) = t.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match key {
                "Limits" | "Requests" => {
                    sub = Some((
                        if key == "Limits" {
                            "Limits"
                        } else {
                            "Requests"
                        },
                        Vec::new(),
                    ))
                }
                "Image" => {
                    if let Some(c) = out.last_mut() {
                        c.image = value.to_owned();
                    }
                }
                "Restart Policy" => {
                    if let Some(c) = out.last_mut() {
                        c.restart_policy = Some(value.to_owned());
                    }
                }
                _ => {}
            }
            continue;
        }
        if let Some((_, lines)) = sub.as_mut() {
            lines.push(line);
        }
    }
    finish(&mut sub, &mut out, problems);
    out
}

fn pvc_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let mut pvc = PersistentVolumeClaim {
        metadata: meta_from_block(b),
        ..PersistentVolumeClaim::default()
    };
    let object = format!(
        "PersistentVolumeClaim/{}/{}",
        pvc.metadata.namespace, pvc.metadata.name
    );
    // describe prints an empty StorageClass for both "unset" and "": keep it as unset.
    let class = b.inline("StorageClass");
    pvc.spec.storage_class_name = (!class.is_empty()).then(|| class.to_owned());
    pvc.spec.volume_name = b.inline("Volume").to_owned();
    pvc.status.phase = b.inline("Status").to_owned();
    pvc.spec.access_modes = b
        .inline("Access Modes")
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| match m {
            "RWO" => "ReadWriteOnce".to_owned(),
            "ROX" => "ReadOnlyMany".to_owned(),
            "RWX" => "ReadWriteMany".to_owned(),
            "RWOP" => "ReadWriteOncePod".to_owned(),
            other => other.to_owned(),
        })
        .collect();
    let capacity = b.inline("Capacity");
    if !capacity.is_empty() {
        match capacity.parse::<Quantity>() {
            Ok(q) => {
                pvc.status.capacity.insert("storage", q);
            }
            Err(err) => out.problems.push(LoadProblem {
                document: idx,
                object: object.clone(),
                field: "Capacity".to_owned(),
                message: format!("invalid quantity {capacity:?}: {err}"),
                ..LoadProblem::default()
            }),
        }
    }
    if let Some(s) = b.get("Events") {
        let involved = ObjectReference {
            kind: "PersistentVolumeClaim".to_owned(),
            namespace: pvc.metadata.namespace.clone(),
            name: pvc.metadata.name.clone(),
            ..ObjectReference::default()
        };
        out.events.extend(describe_events(s, &involved));
    }
    out.persistent_volume_claims.push(pvc);
}

/// `kubectl get nodes [-o wide]`; returns the index after the table.
fn parse_nodes_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let cell =
            |n: &str| none_to_empty(cells.get(n).map(String::as_str).unwrap_or("")).to_owned();
        let mut node = Node::default();
        node.metadata.name = cell("NAME");
        let status = cell("STATUS");
        let mut ready = None;
        for part in status.split(',') {
            match part {
                "Ready" => ready = Some("True"),
                "NotReady" => ready = Some("False"),
                "Unknown" => ready = Some("Unknown"),
                "SchedulingDisabled" => node.spec.unschedulable = true,
                _ => {}
            }
        }
        if let Some(status) = ready {
            node.status.conditions.push(NodeCondition {
                type_: "Ready".to_owned(),
                status: status.to_owned(),
                ..NodeCondition::default()
            });
        }
        // kubectl derives ROLES from `node-role.kubernetes.io/<role>` labels; read them back.
        for role in cell("ROLES").split(',').filter(|r| !r.is_empty()) {
            node.metadata
                .labels
                .insert(format!("node-role.kubernetes.io/{role}"), String::new());
        }
        node.status.node_info.kubelet_version = cell("VERSION");
        for (column, type_) in [("INTERNAL-IP", "InternalIP"), ("EXTERNAL-IP", "ExternalIP")] {
            let address = cell(column);
            if !address.is_empty() {
                node.status.addresses.push(NodeAddress {
                    type_: type_.to_owned(),
                    address,
                });
            }
        }
        node.status.node_info.os_image = cell("OS-IMAGE");
        node.status.node_info.kernel_version = cell("KERNEL-VERSION");
        node.status.node_info.container_runtime_version = cell("CONTAINER-RUNTIME");
        if !node.metadata.name.is_empty() {
            out.nodes.push(node);
        }
    }
    end
}

/// The rows of a kubectl table starting with its header at `lines[start]`, each as a map from
/// column name to cell text, and the index after the table (the first blank line or describe key).
fn top_table_rows(lines: &[&str], start: usize) -> (Vec<BTreeMap<String, String>>, usize) {
    let header = lines[start];
    let starts = column_starts(header);
    let names = table_cells(&starts, header);
    let mut rows = Vec::new();
    let mut i = start + 1;
    while i < lines.len() && !lines[i].trim().is_empty() && top_key(lines[i]).is_none() {
        rows.push(
            names
                .iter()
                .cloned()
                .zip(table_cells(&starts, lines[i]))
                .collect(),
        );
        i += 1;
    }
    (rows, i)
}

/// `kubectl get events [-A]`: `[NAMESPACE] LAST SEEN TYPE REASON OBJECT MESSAGE`.
fn parse_get_events_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let cell = |n: &str| cells.get(n).cloned().unwrap_or_default();
        let namespace = cell("NAMESPACE");
        let (kind, name) = match cell("OBJECT").split_once('/') {
            Some((resource, name)) => (kind_of_resource(resource), name.to_owned()),
            None => (String::new(), cell("OBJECT")),
        };
        out.events.push(Event {
            metadata: ObjectMeta {
                namespace: namespace.clone(),
                ..ObjectMeta::default()
            },
            involved_object: ObjectReference {
                kind,
                namespace,
                name,
                ..ObjectReference::default()
            },
            reason: cell("REASON"),
            message: cell("MESSAGE"),
            type_: cell("TYPE"),
            count: event_count(&cell("LAST SEEN")),
            ..Event::default()
        });
    }
    end
}

/// `pod` -> `Pod`, `replicaset` -> `ReplicaSet` (the OBJECT column uses lowercase kinds).
fn kind_of_resource(resource: &str) -> String {
    let resource = resource.split('.').next().unwrap_or(resource);
    let known = [
        "Pod",
        "Node",
        "Namespace",
        "ReplicaSet",
        "Deployment",
        "DaemonSet",
        "StatefulSet",
        "Job",
        "CronJob",
        "Service",
        "Endpoints",
        "PersistentVolume",
        "PersistentVolumeClaim",
        "ResourceQuota",
        "LimitRange",
        "ConfigMap",
        "Secret",
        "ServiceAccount",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "Lease",
        "StorageClass",
    ];
    known
        .iter()
        .find(|k| k.eq_ignore_ascii_case(resource))
        .map(|k| (*k).to_owned())
        .unwrap_or_else(|| {
            let mut c = resource.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check_format(text: &str, expected: InputFormat) {
        assert_eq!(detect_text_format(text), expected, "{text}");
    }

    #[test]
    fn detects_formats() {
        check_format("{\"kind\":\"List\"}", InputFormat::Json);
        check_format("[{\"kind\":\"Pod\"}]", InputFormat::Json);
        check_format("[preflight] Running pre-flight checks", InputFormat::Text);
        check_format("apiVersion: v1\nkind: Node\n", InputFormat::Yaml);
        check_format("# note\n---\napiVersion: v1\n", InputFormat::Yaml);
        check_format("Name: n\nRoles: <none>\n", InputFormat::DescribeNode);
        check_format(
            "Name: p\nNamespace: d\nNode: <none>\n",
            InputFormat::DescribePod,
        );
        check_format(
            "NAME STATUS ROLES AGE VERSION\nn Ready <none> 1d v1.30.0\n",
            InputFormat::NodesWideTable,
        );
        check_format(
            "LAST SEEN   TYPE      REASON   OBJECT    MESSAGE\n",
            InputFormat::EventsTable,
        );
        check_format(
            "Events:\n  Type  Reason  Age  From  Message\n",
            InputFormat::EventsTable,
        );
        check_format(
            "Nov 11 00:15:46 node-01 kubelet[66610]: I1111 starting",
            InputFormat::Text,
        );
        check_format("", InputFormat::Text);
    }

    #[test]
    fn splits_and_columns() {
        assert_eq!(split_wide("a  b c   d", 5), ["a", "b c", "d"]);
        assert_eq!(split_wide("a  b  c  d", 2), ["a", "b  c  d"]);
        let h = "NAME      STATUS   ROLES";
        assert_eq!(column_starts(h), [0, 10, 19]);
        assert_eq!(
            table_cells(&[0, 10, 19], "node-00   Ready    <none>"),
            ["node-00", "Ready", "<none>"]
        );
        assert_eq!(event_count("16m (x1 over 17m)"), Some(1));
        assert_eq!(event_count("17s (x7 over 2m58s)"), Some(7));
        assert_eq!(event_count("18m"), None);
    }

    #[test]
    fn taints_tolerations_kv() {
        let t = parse_taint("node.kubernetes.io/not-ready:NoSchedule").unwrap();
        assert_eq!(
            (t.key.as_str(), t.value.as_str(), t.effect.as_str()),
            ("node.kubernetes.io/not-ready", "", "NoSchedule")
        );
        let t = parse_taint("gpu=true:NoSchedule").unwrap();
        assert_eq!((t.key.as_str(), t.value.as_str()), ("gpu", "true"));
        let tol = parse_toleration("node.kubernetes.io/unreachable:NoExecute op=Exists for 300s")
            .unwrap();
        assert_eq!(tol.operator, "Exists");
        assert_eq!(tol.toleration_seconds, Some(300));
        assert_eq!(tol.effect, "NoExecute");
        let tol = parse_toleration("gpu=on:NoSchedule").unwrap();
        assert_eq!(
            (tol.key.as_str(), tol.value.as_str(), tol.operator.as_str()),
            ("gpu", "on", "Equal")
        );
        let tol = parse_toleration("op=Exists").unwrap();
        assert!(tol.key.is_empty());
        assert_eq!(
            split_kv("kubernetes.io/limit-ranger=LimitRanger plugin set: cpu request"),
            Some((
                "kubernetes.io/limit-ranger".into(),
                "LimitRanger plugin set: cpu request".into()
            ))
        );
        assert_eq!(
            split_kv("k3s.io/node-args: [\"agent\"]"),
            Some(("k3s.io/node-args".into(), "[\"agent\"]".into()))
        );
    }

    #[test]
    fn full_describe_node() {
        let text = "\
Name:               gpu-01
Roles:              worker
Labels:             kubernetes.io/hostname=gpu-01
                    nvidia.com/gpu.present=true
Annotations:        node.alpha.kubernetes.io/ttl: 0
CreationTimestamp:  Mon, 13 Nov 2017 13:06:30 -0800
Taints:             nvidia.com/gpu=present:NoSchedule
                    node.kubernetes.io/not-ready:NoExecute
Unschedulable:      true
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  MemoryPressure   False   Mon, 13 Nov 2017 13:06:30 -0800   Mon, 13 Nov 2017 13:06:30 -0800   KubeletHasSufficientMemory   kubelet has sufficient memory available
  Ready            False   Mon, 13 Nov 2017 13:06:30 -0800   Mon, 13 Nov 2017 13:06:30 -0800   KubeletNotReady              container runtime network not ready: cni plugin not initialized
Addresses:
  InternalIP:  10.0.0.21
  Hostname:    gpu-01
Capacity:
  cpu:             32
  nvidia.com/gpu:  8
Allocatable:
  cpu:             31500m
  nvidia.com/gpu:  abc
System Info:
  Machine ID:                 0000
  Kernel Version:             5.15.0-105-generic
  OS Image:                   Ubuntu 22.04.4 LTS
  Operating System:           linux
  Architecture:               amd64
  Container Runtime Version:  containerd://1.7.12
  Kubelet Version:            v1.30.2
PodCIDR:                      10.244.1.0/24
Events:                       <none>

Name:               gpu-02
Roles:              <none>
Taints:             <none>
";
        let parsed = parse_text(text);
        assert_eq!(parsed.nodes.len(), 2);
        let n = &parsed.nodes[0];
        assert_eq!(n.metadata.name, "gpu-01");
        assert_eq!(
            n.metadata
                .labels
                .get("nvidia.com/gpu.present")
                .map(String::as_str),
            Some("true")
        );
        assert_eq!(
            n.metadata
                .annotations
                .get("node.alpha.kubernetes.io/ttl")
                .map(String::as_str),
            Some("0")
        );
        assert!(n.metadata.creation_timestamp.is_some());
        assert_eq!(n.spec.taints.len(), 2);
        assert!(n.spec.unschedulable);
        assert_eq!(n.status.conditions.len(), 2);
        assert_eq!(n.status.conditions[1].reason, "KubeletNotReady");
        assert_eq!(
            n.status.conditions[1].message,
            "container runtime network not ready: cni plugin not initialized"
        );
        assert!(n.status.conditions[1].last_heartbeat_time.is_some());
        assert_eq!(n.status.addresses[0].address, "10.0.0.21");
        assert_eq!(
            n.status.capacity.get("nvidia.com/gpu").map(|q| q.value()),
            Some(8)
        );
        assert_eq!(
            n.status.allocatable.get("cpu").map(|q| q.milli_value()),
            Some(31500)
        );
        assert!(n.status.allocatable.get("nvidia.com/gpu").is_none());
        assert_eq!(parsed.problems.len(), 1);
        assert_eq!(parsed.problems[0].field, "Allocatable.nvidia.com/gpu");
        assert_eq!(parsed.problems[0].object, "Node/gpu-01");
        assert_eq!(n.status.node_info.kernel_version, "5.15.0-105-generic");
        assert_eq!(
            n.status.node_info.container_runtime_version,
            "containerd://1.7.12"
        );
        assert_eq!(n.status.node_info.os_image, "Ubuntu 22.04.4 LTS");
        assert_eq!(n.spec.pod_cidr, "10.244.1.0/24");
        assert!(parsed.events.is_empty());
        assert_eq!(parsed.nodes[1].metadata.name, "gpu-02");
        assert!(parsed.nodes[1].spec.taints.is_empty());
    }

    #[test]
    fn full_describe_pod() {
        let text = "\
Name:                 train-0
Namespace:            team-a
Priority:             1000
Priority Class Name:  batch-low
Service Account:      default
Node:                 gpu-01/10.0.0.21
Start Time:           Mon, 13 Nov 2017 13:06:30 -0800
Labels:               app=train
Annotations:          kubernetes.io/limit-ranger: LimitRanger plugin set: memory limit for container main
Status:               Running
Init Containers:
  setup:
    Image:      busybox
    Requests:
      cpu:  100m
Containers:
  main:
    Image:      train:1
    Limits:
      memory:          64Gi
      nvidia.com/gpu:  4
    Requests:
      cpu:             8
      memory:          64Gi
      nvidia.com/gpu:  4
    Environment:
      A:  b
  metrics:
    Image:  exporter:1
Conditions:
  Type              Status
  Initialized       True
  Ready             True
QoS Class:       Burstable
Node-Selectors:  cube.example/pool=gpu-training
                 nvidia.com/gpu.present=true
Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                 nvidia.com/gpu:NoSchedule op=Exists
Events:          <none>
";
        let parsed = parse_text(text);
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        let p = &parsed.pods[0];
        assert_eq!(p.key(), "team-a/train-0");
        assert_eq!(p.spec.node_name, "gpu-01");
        assert_eq!(p.spec.priority, Some(1000));
        assert_eq!(p.spec.priority_class_name, "batch-low");
        assert_eq!(p.status.qos_class, "Burstable");
        assert_eq!(p.spec.init_containers.len(), 1);
        assert_eq!(
            p.spec.init_containers[0]
                .resources
                .requests
                .get("cpu")
                .map(|q| q.milli_value()),
            Some(100)
        );
        assert_eq!(p.spec.containers.len(), 2);
        let main = &p.spec.containers[0];
        assert_eq!(
            main.resources
                .limits
                .get("nvidia.com/gpu")
                .map(|q| q.value()),
            Some(4)
        );
        assert_eq!(
            main.resources.requests.get("cpu").map(|q| q.value()),
            Some(8)
        );
        assert_eq!(main.resources.requests.len(), 3);
        assert!(p.spec.containers[1].resources.requests.is_empty());
        assert_eq!(p.spec.node_selector.len(), 2);
        assert_eq!(p.spec.tolerations.len(), 2);
        assert_eq!(p.spec.tolerations[1].key, "nvidia.com/gpu");
        assert_eq!(p.status.conditions.len(), 2);
        assert!(parsed.events.is_empty());
    }

    #[test]
    fn get_events_table() {
        let text = "\
NAMESPACE   LAST SEEN   TYPE      REASON             OBJECT                  MESSAGE
team-a      2m          Warning   FailedScheduling   pod/train-0             0/3 nodes are available: 3 Insufficient nvidia.com/gpu.
team-a      5m          Normal    Scheduled          pod/train-1             Successfully assigned team-a/train-1 to gpu-01
";
        let parsed = parse_text(text);
        assert_eq!(parsed.events.len(), 2);
        let e = &parsed.events[0];
        assert_eq!(e.type_, "Warning");
        assert_eq!(e.reason, "FailedScheduling");
        assert_eq!(e.involved_object.kind, "Pod");
        assert_eq!(e.involved_object.name, "train-0");
        assert_eq!(e.involved_object.namespace, "team-a");
        assert_eq!(
            e.message,
            "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
        );
    }
}
