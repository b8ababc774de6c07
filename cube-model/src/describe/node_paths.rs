//! Node facts printed as field paths rather than as a `describe` or a table, as people paste
//! them when they look at one resource:
//!
//! - path lines: `status.capacity.amd.com/gpu: 0`, `.status.allocatable."nvidia.com/gpu": 4`,
//!   `status.allocatable["gpu.intel.com/i915"]: 1`, gron's `json.status.capacity["amd.com/gpu"]
//!   = "0";`, `metadata.labels.nvidia.com/gpu.present: true`, `metadata.name: node-01` (the
//!   output of `jq -r 'paths(scalars) as $p | ...'`, `yq`'s path listings, gron, or a hand-written
//!   note);
//! - a `kubectl get node <name> -o jsonpath='{.metadata.labels}'` map split into lines
//!   (`| tr ',' '\n'`): `"amd.com/gpu.family":"RDNA3"`, recognised by qualified label keys;
//! - `kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.amd\.com/gpu`
//!   tables, read through the column specification of the command.
//!
//! The node is named by a `Node: <name>` / `Name: <name>` line, a `metadata.name` path, the
//! row's NAME, or the command (`kubectl get node <name> ...`). The node read is partial
//! ([`super::PARTIAL_ANNOTATION`]): only the fields printed are known.

use std::collections::BTreeMap;

use crate::objects::Node;
use crate::quantity::Quantity;

/// The field a path line names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathFact {
    /// `status.capacity.<resource>`.
    Capacity(String, String),
    /// `status.allocatable.<resource>`.
    Allocatable(String, String),
    /// `metadata.labels.<key>`.
    Label(String, String),
    /// `metadata.name`.
    Name(String),
}

/// The segments of a field path (`status.capacity.amd.com/gpu`, `.status.capacity."amd.com/gpu"`,
/// `status.capacity["amd.com/gpu"]`, `json.status...`): the first two fixed segments and the
/// rest as one key (a resource name or label key, dots and slashes included, quotes and
/// brackets removed, `\.` unescaped).
fn split_path(path: &str) -> Option<(&str, &str, String)> {
    let p = path.trim();
    let p = p.strip_prefix("json").unwrap_or(p);
    let p = p.strip_prefix('.').unwrap_or(p);
    let (first, rest) = p.split_once(['.', '['])?;
    let rest = rest.trim_start_matches(['.', '[']);
    let (second, key) = match rest.find(['.', '[']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let key = key
        .trim_start_matches(['.', '['])
        .trim_end_matches(']')
        .trim_matches(['"', '\''])
        .replace("\\.", ".");
    Some((first, second, key))
}

/// A node fact of one line (see the module documentation), `None` for other lines.
pub(crate) fn path_fact(line: &str) -> Option<PathFact> {
    let t = line.trim();
    // `path: value` or gron's `path = "value";`
    let (path, value) = match t.split_once(" = ") {
        Some((p, v)) if p.starts_with("json") => (p, v.trim_end_matches(';')),
        _ => {
            // the value follows the last `: ` (keys hold `:` only in ports, not here)
            let at = t.rfind(": ")?;
            (&t[..at], &t[at + 2..])
        }
    };
    if path.contains(' ') {
        return None;
    }
    let value = value.trim().trim_matches(['"', '\'']).to_owned();
    let (first, second, key) = split_path(path)?;
    match (first, second) {
        ("status", "capacity") if !key.is_empty() => Some(PathFact::Capacity(key, value)),
        ("status", "allocatable") if !key.is_empty() => Some(PathFact::Allocatable(key, value)),
        ("metadata", "labels") if !key.is_empty() => Some(PathFact::Label(key, value)),
        ("metadata", "name") if key.is_empty() && !value.is_empty() => Some(PathFact::Name(value)),
        _ => None,
    }
}

/// A line of a label map split into lines: `"amd.com/gpu.family":"RDNA3"` (braces and a
/// trailing comma allowed) whose key is a qualified label key (`<dns prefix>/<name>`).
pub(crate) fn label_map_entry(line: &str) -> Option<(String, String)> {
    let t = line
        .trim()
        .trim_start_matches('{')
        .trim_end_matches(',')
        .trim_end_matches('}');
    let rest = t.strip_prefix('"')?;
    let (key, rest) = rest.split_once('"')?;
    let value = rest.trim_start().strip_prefix(':')?.trim();
    let value = value.strip_prefix('"')?.strip_suffix('"')?;
    let (prefix, name) = key.split_once('/')?;
    let label_like = prefix.contains('.')
        && !name.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/'));
    label_like.then(|| (key.to_owned(), value.to_owned()))
}

/// A `"key":"value"` entry of a JSON map line (braces and a trailing comma allowed), any key.
pub(crate) fn map_entry(line: &str) -> Option<(String, String)> {
    let t = line
        .trim()
        .trim_start_matches('{')
        .trim_end_matches(',')
        .trim_end_matches('}');
    let rest = t.strip_prefix('"')?;
    let (key, rest) = rest.split_once('"')?;
    let value = rest.trim_start().strip_prefix(':')?.trim();
    let value = value.strip_prefix('"')?.strip_suffix('"')?;
    (!key.is_empty()).then(|| (key.to_owned(), value.to_owned()))
}

/// Labels the kubelet sets on every node it registers (k8s.io/api `core/v1/well_known_labels.go`,
/// `kubernetes.io/hostname`, `kubernetes.io/os`, `kubernetes.io/arch` and their `beta.` forms
/// before 1.18, the cloud provider's instance type and topology): a label map holding one is a
/// node's.
const KUBELET_LABELS: &[&str] = &[
    "kubernetes.io/hostname",
    "kubernetes.io/os",
    "kubernetes.io/arch",
    "beta.kubernetes.io/os",
    "beta.kubernetes.io/arch",
    "beta.kubernetes.io/instance-type",
    "node.kubernetes.io/instance-type",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone",
];

/// Whether `key` is a label key (`[dns-prefix/]name`, apimachinery `validation.IsQualifiedName`
/// in shape: name parts of alphanumerics, `-`, `_`, `.`).
fn is_label_key(key: &str) -> bool {
    let (prefix, name) = key.rsplit_once('/').unwrap_or(("", key));
    !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && prefix
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.'))
}

/// A node's labels printed as one map: a JSON object (`kubectl get node X -o json | jq
/// .metadata.labels`, over several lines, or `-o jsonpath='{.metadata.labels}'` on one) or Go's
/// map print (`map[kubernetes.io/arch:amd64 ...]`, kubectl's jsonpath before it printed JSON).
/// Every key a label key and every value a string, and one of the labels every kubelet sets
/// ([`KUBELET_LABELS`]) among them, so a pod's labels or another map are not taken for a node's.
pub(crate) fn node_label_map(text: &str) -> Option<Vec<(String, String)>> {
    let t = text.trim();
    let entries: Vec<(String, String)> =
        if let Some(inner) = t.strip_prefix("map[").and_then(|r| r.strip_suffix(']')) {
            inner
                .split_whitespace()
                .map(|kv| {
                    let (k, v) = kv.split_once(':')?;
                    Some((k.to_owned(), v.to_owned()))
                })
                .collect::<Option<Vec<_>>>()?
        } else if t.starts_with('{') && t.ends_with('}') {
            let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(t).ok()?;
            map.into_iter()
                .map(|(k, v)| match v {
                    serde_json::Value::String(v) => Some((k, v)),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?
        } else {
            return None;
        };
    let node_like = entries
        .iter()
        .all(|(k, v)| is_label_key(k) && v.len() <= 63 && !v.contains(char::is_whitespace))
        && entries
            .iter()
            .any(|(k, _)| KUBELET_LABELS.contains(&k.as_str()));
    node_like.then_some(entries)
}

/// [`node_label_map`] of the map `text` starts with: its first line when that line closes the
/// map, else up to the first line that is `}` alone (more output may follow it: a paste's
/// next command).
pub(crate) fn leading_label_map(text: &str) -> Option<Vec<(String, String)>> {
    let first = text.lines().find(|l| !l.trim().is_empty())?.trim();
    if first.ends_with('}') || first.ends_with(']') {
        return node_label_map(first);
    }
    let start = text.find(first)?;
    let rest = &text[start..];
    let end = rest
        .lines()
        .take(2000)
        .scan(0usize, |at, l| {
            let from = *at;
            *at += l.len() + 1;
            Some((from, l))
        })
        .find(|(_, l)| l.trim() == "}")
        .map(|(from, l)| from + l.len())?;
    node_label_map(&rest[..end])
}

/// True when `text` holds node facts this module reads and nothing else the describe reader
/// would take for its own: at least one capacity/allocatable path line, or a label map of at
/// least one qualified key with no other content line.
pub(crate) fn looks_like_node_paths(text: &str) -> bool {
    // a shown `kubectl get nodes -o custom-columns=...` / `-o jsonpath=...` command
    if text.lines().any(|l| {
        crate::paste::prompt_command(l).is_some_and(|c| {
            (custom_columns(c).is_some() || jsonpath_fields(c).is_some())
                && c.split_whitespace()
                    .any(|w| matches!(w, "node" | "nodes" | "no") || w.starts_with("node/"))
        })
    }) {
        return true;
    }
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && crate::paste::prompt_command(l).is_none())
        .collect();
    if lines.is_empty() {
        return false;
    }
    let resource_paths = lines
        .iter()
        .filter(|l| {
            matches!(
                path_fact(l),
                Some(PathFact::Capacity(..) | PathFact::Allocatable(..))
            )
        })
        .count();
    if resource_paths > 0 {
        return true;
    }
    // one label map (JSON over several lines, or one line of JSON or Go's map print)
    if node_label_map(&lines.join("\n")).is_some() {
        return true;
    }
    lines.iter().all(|l| label_map_entry(l).is_some())
}

/// The node a `kubectl get node <name> ...` command names.
pub(crate) fn command_node(cmd: &str) -> Option<String> {
    let words: Vec<&str> = cmd.split('|').next()?.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "get")?;
    let mut positional = words[at + 1..].iter().filter(|w| !w.starts_with('-'));
    match positional.next()? {
        r if r.eq_ignore_ascii_case("node")
            || r.eq_ignore_ascii_case("nodes")
            || r.eq_ignore_ascii_case("no") =>
        {
            positional
                .next()
                .map(|n| n.trim_matches(['"', '\'']).to_owned())
                .filter(|n| !n.is_empty())
        }
        r => r
            .strip_prefix("node/")
            .or_else(|| r.strip_prefix("nodes/"))
            .map(str::to_owned),
    }
}

/// The columns of `-o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.amd\.com/gpu`
/// (header name, field path), `None` without that option.
pub(crate) fn custom_columns(cmd: &str) -> Option<Vec<(String, String)>> {
    let spec = cmd
        .split_whitespace()
        .find_map(|w| {
            w.strip_prefix("custom-columns=")
                .or_else(|| w.strip_prefix("-ocustom-columns="))
        })
        .or_else(|| {
            let words: Vec<&str> = cmd.split_whitespace().collect();
            words
                .windows(2)
                .find(|w| w[0] == "-o" || w[0] == "--output")
                .and_then(|w| w[1].strip_prefix("custom-columns="))
        });
    // `-o=custom-columns=`, quoted (`"-o=custom-columns=..."`), quoted path parts
    let Some(spec) = spec else {
        return line_query_columns(cmd);
    };
    let spec = spec.trim_matches(['"', '\'']);
    let cols: Vec<(String, String)> = spec
        .split(',')
        .filter_map(|c| {
            let (name, path) = c.split_once(':')?;
            Some((name.trim().to_owned(), path.trim().to_owned()))
        })
        .collect();
    (!cols.is_empty()).then_some(cols)
}

/// The field paths of `-o jsonpath='<template>'` (`{.status.allocatable}`,
/// `{range .items[*]}{.metadata.name}{"\t"}{.status.allocatable.nvidia\.com/gpu}{"\n"}{end}`),
/// in output order: `range`/`end` and literals left out (k8s.io/client-go
/// `util/jsonpath`). `None` without that option.
pub(crate) fn jsonpath_fields(cmd: &str) -> Option<Vec<String>> {
    let at = cmd.find("jsonpath=")? + "jsonpath=".len();
    let rest = &cmd[at..];
    let template = match rest.chars().next()? {
        q @ ('\'' | '"') => rest[1..].split(q).next()?,
        _ => rest.split_whitespace().next()?,
    };
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in template.chars() {
        match c {
            '{' => {
                depth += 1;
                cur.clear();
            }
            '}' if depth > 0 => {
                depth -= 1;
                let e = cur.trim();
                if e.starts_with('.') && !e.starts_with("..") {
                    out.push(e.to_owned());
                }
                cur.clear();
            }
            c if depth > 0 => cur.push(c),
            _ => {}
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The columns of a `kubectl get nodes -o custom-columns=...` command anywhere in `line`: with
/// or without a prompt, inside backticks or quotes (`` `kubectl get nodes
/// "-o=custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\.com/gpu"` ``), with
/// `-o=`/`--output=` and quoted path parts (`GPUs:.status.capacity.'nvidia\.com/gpu'`).
/// `None` when the line shows no such command of nodes (`oc` too).
pub(crate) fn line_query_columns(line: &str) -> Option<Vec<(String, String)>> {
    let at = line.find("custom-columns=")?;
    let before = &line[..at];
    let words: Vec<&str> = before
        .split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let get = words.iter().position(|w| *w == "get").filter(|g| {
        words[..*g]
            .iter()
            .any(|w| w.ends_with("kubectl") || *w == "oc")
    })?;
    if !words[get + 1..]
        .iter()
        .any(|w| matches!(*w, "node" | "nodes" | "no") || w.starts_with("node/"))
    {
        return None;
    }
    let spec: String = line[at + "custom-columns=".len()..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '`')
        .filter(|c| *c != '\'' && *c != '"')
        .collect();
    let cols: Vec<(String, String)> = spec
        .split(',')
        .filter_map(|c| {
            let (name, path) = c.split_once(':')?;
            let (name, path) = (name.trim(), path.trim());
            (!name.is_empty() && path.starts_with('.')).then(|| (name.to_owned(), path.to_owned()))
        })
        .collect();
    (!cols.is_empty()).then_some(cols)
}

/// The resource field a column path names when its cell is `<none>`
/// (`status.capacity.nvidia.com/gpu`), `None` for other paths.
pub(crate) fn absent_field(path: &str) -> Option<String> {
    let (first, second, key) = split_path(path)?;
    (first == "status" && matches!(second, "capacity" | "allocatable") && !key.is_empty())
        .then(|| format!("{first}.{second}.{key}"))
}

/// The cells of a table row as pasted: a Markdown quote (`> `) and backticks removed, kubectl's
/// missing-value marker unescaped (`\<none\>` as a Markdown editor escapes it).
fn query_cells(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('>').map_or(t, str::trim_start);
    t.split_whitespace()
        .map(|c| c.trim_matches('`').replace("\\<", "<").replace("\\>", ">"))
        .filter(|c| !c.is_empty())
        .collect()
}

/// Nodes read from `kubectl get nodes -o custom-columns=...` output whose command is shown
/// anywhere above it ([`line_query_columns`]) but not on a prompt line right before it: the
/// table is found by its header row (the column names in order, any case), in a Markdown quote
/// or not, after prose lines between command and output; its rows run to the first line with
/// another number of cells. A `<none>` cell (the field is absent) is recorded as a known
/// absence ([`NodeFacts::absent`]). At most one table per command.
pub(crate) fn query_nodes(text: &str, problems: &mut Vec<(String, String, String)>) -> Vec<Node> {
    let lines: Vec<&str> = text.lines().collect();
    let mut facts: Vec<(String, NodeFacts)> = Vec::new();
    let mut spec: Option<Vec<(String, String)>> = None;
    let mut i = 0;
    while i < lines.len() {
        if let Some(cols) = line_query_columns(lines[i]) {
            spec = Some(cols);
            i += 1;
            continue;
        }
        if let Some(fields) = line_jsonpath_rows(lines[i]) {
            i = read_jsonpath_rows(&lines, i + 1, &fields, &mut facts);
            continue;
        }
        let Some(cols) = &spec else {
            i += 1;
            continue;
        };
        let header = query_cells(lines[i]);
        let is_header = header.len() == cols.len()
            && header
                .iter()
                .zip(cols)
                .all(|(h, (n, _))| h.eq_ignore_ascii_case(n));
        if !is_header {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while let Some(l) = lines.get(j) {
            let cells = query_cells(l);
            if cells.len() != cols.len() {
                break;
            }
            let name = cols
                .iter()
                .zip(&cells)
                .find(|((_, p), _)| p.trim_start_matches('.') == "metadata.name")
                .map(|(_, c)| c.clone())
                .unwrap_or_default();
            let at = match facts.iter().position(|(n, _)| *n == name) {
                Some(at) => at,
                None => {
                    facts.push((name, NodeFacts::default()));
                    facts.len() - 1
                }
            };
            let f = &mut facts[at].1;
            for ((_, path), cell) in cols.iter().zip(&cells) {
                if cell == "<none>" {
                    f.absent.extend(absent_field(path));
                    continue;
                }
                if let Some(fact) = path_fact(&format!("{path}: {cell}")) {
                    f.add(fact);
                }
            }
            j += 1;
        }
        spec = None;
        i = j;
    }
    facts
        .into_iter()
        .filter(|(n, _)| !n.is_empty())
        .map(|(n, f)| {
            let (node, p) = f.into_node(&n);
            problems.extend(p);
            node
        })
        .collect()
}

/// Whether `line` shows a `kubectl get nodes` command (with or without a prompt, in backticks).
fn shows_get_nodes(line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\''))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .iter()
        .position(|w| *w == "get")
        .filter(|g| {
            words[..*g]
                .iter()
                .any(|w| w.ends_with("kubectl") || *w == "oc")
        })
        .is_some_and(|g| {
            words[g + 1..]
                .iter()
                .any(|w| matches!(*w, "node" | "nodes" | "no") || w.starts_with("node/"))
        })
}

/// The fields of a `kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}
/// {.status.allocatable.nvidia\.com/gpu}{"\n"}{end}'` command anywhere in `line` (one row per
/// node: the name, then resource fields), `None` for other lines.
fn line_jsonpath_rows(line: &str) -> Option<Vec<String>> {
    if !line.contains("jsonpath=") || !shows_get_nodes(line) {
        return None;
    }
    let fields = jsonpath_fields(line)?;
    let name_first = fields
        .first()
        .is_some_and(|f| f.trim_start_matches('.') == "metadata.name");
    let resources = fields[1..].iter().all(|f| absent_field(f).is_some());
    (name_first && fields.len() > 1 && resources).then_some(fields)
}

/// The rows of a jsonpath answer after its command: up to four lines of fences, blank lines
/// and an introduction ending with `:` (`Getting:`, `result is:`) are skipped; each row is a
/// node name and one value per resource field, a missing last value (jsonpath prints nothing
/// for an absent field) a known absence. Returns the line after the last row.
fn read_jsonpath_rows(
    lines: &[&str],
    from: usize,
    fields: &[String],
    facts: &mut Vec<(String, NodeFacts)>,
) -> usize {
    let mut i = from;
    let mut skipped = 0;
    while let Some(l) = lines.get(i) {
        let t = l.trim().trim_start_matches('>').trim();
        if skipped < 4 && (t.is_empty() || t.starts_with("```") || t.ends_with(':')) {
            i += 1;
            skipped += 1;
            continue;
        }
        break;
    }
    let name_like = |c: &str| {
        !c.is_empty()
            && c.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '-' | '.' | '_'))
    };
    let start = i;
    while let Some(l) = lines.get(i) {
        let cells = query_cells(l);
        let fits = (cells.len() == fields.len() || cells.len() + 1 == fields.len())
            && cells.first().is_some_and(|c| name_like(c));
        if !fits {
            break;
        }
        let name = cells[0].clone();
        let at = match facts.iter().position(|(n, _)| *n == name) {
            Some(at) => at,
            None => {
                facts.push((name, NodeFacts::default()));
                facts.len() - 1
            }
        };
        for (k, path) in fields.iter().enumerate().skip(1) {
            match cells.get(k).map(String::as_str) {
                None | Some("<none>") => facts[at].1.absent.extend(absent_field(path)),
                Some(v) => {
                    if let Some(fact) = path_fact(&format!("{path}: {v}")) {
                        facts[at].1.add(fact);
                    }
                }
            }
        }
        i += 1;
    }
    if i == start { from } else { i }
}

/// Facts of one node, gathered from any of the forms above.
#[derive(Debug, Default)]
pub(crate) struct NodeFacts {
    pub capacity: BTreeMap<String, String>,
    pub allocatable: BTreeMap<String, String>,
    pub labels: BTreeMap<String, String>,
    /// Resource fields printed as `<none>` (kubectl's missing value): known absent
    /// (`status.capacity.nvidia.com/gpu`).
    pub absent: Vec<String>,
}

impl NodeFacts {
    pub(crate) fn add(&mut self, fact: PathFact) {
        match fact {
            PathFact::Capacity(k, v) => {
                self.capacity.insert(k, v);
            }
            PathFact::Allocatable(k, v) => {
                self.allocatable.insert(k, v);
            }
            PathFact::Label(k, v) => {
                self.labels.insert(k, v);
            }
            PathFact::Name(_) => {}
        }
    }

    /// A partial Node named `name` holding these facts; quantities that do not parse are
    /// returned as `(field, value, error)` for the caller's problems.
    pub(crate) fn into_node(self, name: &str) -> (Node, Vec<(String, String, String)>) {
        let mut node = Node::default();
        node.metadata.name = name.to_owned();
        node.metadata.labels = self.labels.into();
        let mut unknown = vec!["taints", "conditions"];
        // a view that printed no label (custom columns of name and resources, a jsonpath of
        // allocatable) says nothing about the node's labels
        if node.metadata.labels.is_empty() {
            unknown.insert(0, "labels");
        }
        let shown = |field: &str| {
            self.absent
                .iter()
                .any(|a| a.starts_with(&format!("status.{field}.")))
        };
        if self.capacity.is_empty() && !shown("capacity") {
            unknown.push("capacity");
        }
        if self.allocatable.is_empty() && !shown("allocatable") {
            unknown.push("allocatable");
        }
        if !self.absent.is_empty() {
            let mut absent = self.absent.clone();
            absent.sort();
            absent.dedup();
            node.metadata
                .annotations
                .insert(super::ABSENT_ANNOTATION.to_owned(), absent.join(","));
        }
        node.metadata.annotations.insert(
            super::PARTIAL_ANNOTATION.to_owned(),
            format!(
                "from field paths printed for the node; unknown: {}",
                unknown.join(", ")
            ),
        );
        let mut problems = Vec::new();
        for (field, map, list) in [
            ("status.capacity", self.capacity, &mut node.status.capacity),
            (
                "status.allocatable",
                self.allocatable,
                &mut node.status.allocatable,
            ),
        ] {
            for (k, v) in map {
                match v.parse::<Quantity>() {
                    Ok(q) => {
                        list.insert(k.as_str(), q);
                    }
                    Err(e) => problems.push((format!("{field}.{k}"), v, e.to_string())),
                }
            }
        }
        (node, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_read_from_paths_label_maps_and_custom_columns() {
        let text = "Node: node-01\nstatus.capacity.amd.com/gpu: 0\nstatus.allocatable.amd.com/gpu: 0\n$ kubectl get node node-01 -o jsonpath='{.metadata.labels}' | tr ',' '\\n' | grep -i amd\n\"amd.com/gpu.family\":\"RDNA3\"\n\"feature.node.kubernetes.io/pci-1002.present\":\"true\"\n";
        let p = super::super::parse_text(text);
        assert_eq!(p.nodes.len(), 1, "{:#?}", p.nodes);
        let n = &p.nodes[0];
        assert_eq!(n.metadata.name, "node-01");
        assert_eq!(
            n.status
                .capacity
                .get("amd.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("0")
        );
        assert_eq!(n.metadata.labels.get("amd.com/gpu.family"), Some("RDNA3"));
        assert!(p.pods.is_empty());
        let cc = "$ kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu,CAP:.status.capacity.nvidia\\.com/gpu\nNAME      GPU      CAP\ngpu-a     0        4\ncpu-b     <none>   <none>\n";
        let p = super::super::parse_text(cc);
        let a = p
            .nodes
            .iter()
            .find(|n| n.metadata.name == "gpu-a")
            .expect("gpu-a");
        assert_eq!(
            a.status
                .allocatable
                .get("nvidia.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("0")
        );
        assert_eq!(
            a.status
                .capacity
                .get("nvidia.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("4")
        );
        assert!(p.nodes.iter().any(|n| n.metadata.name == "cpu-b"));
    }

    #[test]
    fn custom_columns_commands_shown_apart_from_their_table() {
        // `-o=`, quotes around the option and inside the path, no prompt (minikube#5005,
        // NVIDIA/k8s-device-plugin#57)
        let cols = line_query_columns(
            "`kubectl get nodes \"-o=custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu\"`",
        )
        .expect("columns");
        assert_eq!(cols[1].0, "GPU");
        assert_eq!(
            split_path(&cols[1].1).map(|(_, _, k)| k).as_deref(),
            Some("nvidia.com/gpu")
        );
        assert!(
            custom_columns("kubectl get nodes -o=custom-columns=NAME:.metadata.name").is_some()
        );
        assert!(
            line_query_columns("kubectl get pods -o custom-columns=NAME:.metadata.name").is_none()
        );
        let text = "kubectl get nodes -o=custom-columns=NAME:.metadata.name,GPUs:.status.capacity.'nvidia\\.com/gpu'\n```\nGetting:\n\n> NAME       GPUs\n> minikube   \\<none\\>\n> gpu-1      2\n";
        let mut problems = Vec::new();
        let nodes = query_nodes(text, &mut problems);
        assert_eq!(nodes.len(), 2, "{nodes:#?}");
        assert_eq!(nodes[0].metadata.name, "minikube");
        assert_eq!(
            nodes[0]
                .metadata
                .annotations
                .get(super::super::ABSENT_ANNOTATION),
            Some("status.capacity.nvidia.com/gpu")
        );
        assert!(
            !nodes[0]
                .metadata
                .annotations
                .get(super::super::PARTIAL_ANNOTATION)
                .unwrap_or_default()
                .contains("capacity")
        );
        assert_eq!(
            nodes[1]
                .status
                .capacity
                .get("nvidia.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("2")
        );
        assert!(problems.is_empty());
        // a jsonpath answer: one row per node, nothing printed for an absent field
        let jp = "```\nkubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.status.allocatable.nvidia\\.com/gpu}{\"\\n\"}{end}'\n```\nresult is:\n```\nnode-01\nnode-02\t4\n```\n";
        let nodes = query_nodes(jp, &mut problems);
        assert_eq!(nodes.len(), 2, "{nodes:#?}");
        assert_eq!(
            nodes[0]
                .metadata
                .annotations
                .get(super::super::ABSENT_ANNOTATION),
            Some("status.allocatable.nvidia.com/gpu")
        );
        assert!(nodes[1].status.allocatable.get("nvidia.com/gpu").is_some());
    }

    #[test]
    fn jsonpath_templates_and_their_output() {
        assert_eq!(
            jsonpath_fields("kubectl get node n1 -o jsonpath='{.status.allocatable}'"),
            Some(vec![".status.allocatable".to_owned()])
        );
        assert_eq!(
            jsonpath_fields(
                r#"kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{.status.allocatable.nvidia\.com/gpu}{"\n"}{end}'"#
            ),
            Some(vec![
                ".metadata.name".to_owned(),
                ".status.allocatable.nvidia\\.com/gpu".to_owned()
            ])
        );
        assert_eq!(jsonpath_fields("kubectl get nodes -o wide"), None);
        let map = "$ kubectl get node node-01 -o jsonpath='{.status.allocatable}'\n{\"amd.com/gpu\":\"0\",\"cpu\":\"16\"}\n";
        let p = super::super::parse_text(map);
        assert_eq!(p.nodes.len(), 1, "{:#?}", p.nodes);
        assert_eq!(
            p.nodes[0]
                .status
                .allocatable
                .get("amd.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("0")
        );
        let rows = "$ kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.status.capacity.habana\\.ai/gaudi}{\"\\n\"}{end}'\nnode-01\t8\nnode-02\t0\n";
        let p = super::super::parse_text(rows);
        assert_eq!(p.nodes.len(), 2, "{:#?}", p.nodes);
        assert_eq!(
            p.nodes[1]
                .status
                .capacity
                .get("habana.ai/gaudi")
                .map(ToString::to_string)
                .as_deref(),
            Some("0")
        );
        let one = "$ kubectl get node node-07 -o jsonpath='{.status.capacity.amd\\.com/gpu}'\n0\n";
        let p = super::super::parse_text(one);
        assert_eq!(p.nodes[0].metadata.name, "node-07");
        assert_eq!(
            p.nodes[0]
                .status
                .capacity
                .get("amd.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("0")
        );
        // a capacity map split into lines (`| tr ',' '\n'`) is capacity, not labels
        let split = "$ kubectl get node node-01 -o jsonpath='{.status.capacity}' | tr ',' '\\n'\n{\"amd.com/gpu\":\"0\"\n\"cpu\":\"16\"}\n";
        let p = super::super::parse_text(split);
        assert_eq!(
            p.nodes[0]
                .status
                .capacity
                .get("amd.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("0"),
            "{:#?}",
            p.nodes
        );
        assert!(p.nodes[0].metadata.labels.is_empty());
    }

    /// A node's labels as one map: `jq .metadata.labels` over several lines (named by the
    /// command, or by its hostname label without one), one line of JSON, Go's `map[...]`; a
    /// pod's labels (no kubelet label) and a map with non-string values are not a node's.
    #[test]
    fn node_label_maps() {
        let jq = "$ kubectl get node gpu-7 -o json | jq .metadata.labels\n{\n  \"beta.kubernetes.io/arch\": \"amd64\",\n  \"kubernetes.io/hostname\": \"gpu-7\",\n  \"accelerator\": \"nvidia\"\n}\n";
        assert_eq!(
            super::super::detect_text_format(jq.split_once('\n').unwrap().1),
            crate::snapshot::InputFormat::DescribeNode
        );
        let p = super::super::parse_text(jq);
        assert_eq!(p.nodes.len(), 1, "{:#?}", p.nodes);
        assert_eq!(p.nodes[0].metadata.name, "gpu-7");
        assert_eq!(
            p.nodes[0].metadata.labels.get("accelerator"),
            Some("nvidia")
        );
        // alone (a file holding the map): named by its hostname label
        let p = super::super::parse_text(jq.split_once('\n').unwrap().1);
        assert_eq!(p.nodes[0].metadata.name, "gpu-7");
        let go = "$ kubectl get node gpu-8 -o jsonpath='{.metadata.labels}'\nmap[beta.kubernetes.io/arch:amd64 cloud.google.com/gke-accelerator:nvidia-tesla-t4 kubernetes.io/hostname:gpu-8]\n";
        let p = super::super::parse_text(go);
        assert_eq!(
            p.nodes[0]
                .metadata
                .labels
                .get("cloud.google.com/gke-accelerator"),
            Some("nvidia-tesla-t4")
        );
        let alloc = "$ kubectl get node gpu-8 -o jsonpath='{.status.allocatable}'\nmap[cpu:8 nvidia.com/gpu:0]\n";
        let p = super::super::parse_text(alloc);
        assert_eq!(
            p.nodes[0]
                .status
                .allocatable
                .get("nvidia.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("0")
        );
        assert!(node_label_map("{\"app\": \"web\", \"pod-template-hash\": \"5d4f\"}").is_none());
        assert!(node_label_map("{\"kubernetes.io/hostname\": \"n\", \"x\": 1}").is_none());
        assert!(node_label_map("map[kubernetes.io/os:linux]").is_some());
    }

    #[test]
    fn every_path_form() {
        for (line, want) in [
            (
                "status.capacity.amd.com/gpu: 0",
                PathFact::Capacity("amd.com/gpu".into(), "0".into()),
            ),
            (
                ".status.allocatable.\"nvidia.com/gpu\": 4",
                PathFact::Allocatable("nvidia.com/gpu".into(), "4".into()),
            ),
            (
                "status.allocatable[\"gpu.intel.com/i915\"]: 1",
                PathFact::Allocatable("gpu.intel.com/i915".into(), "1".into()),
            ),
            (
                "json.status.capacity[\"habana.ai/gaudi\"] = \"8\";",
                PathFact::Capacity("habana.ai/gaudi".into(), "8".into()),
            ),
            (
                "metadata.labels.nvidia.com/gpu.present: true",
                PathFact::Label("nvidia.com/gpu.present".into(), "true".into()),
            ),
            ("metadata.name: node-01", PathFact::Name("node-01".into())),
        ] {
            assert_eq!(path_fact(line), Some(want), "{line}");
        }
        for other in [
            "Capacity:",
            "  cpu: 8",
            "status: Ready",
            "Node: node-01",
            "error: status.capacity is empty",
        ] {
            assert_eq!(path_fact(other), None, "{other}");
        }
        assert_eq!(
            label_map_entry("\"amd.com/gpu.family\":\"RDNA3\","),
            Some(("amd.com/gpu.family".into(), "RDNA3".into()))
        );
        assert_eq!(label_map_entry("\"msg\":\"hello\""), None);
        assert!(looks_like_node_paths(
            "Node: node-01\nstatus.capacity.amd.com/gpu: 0\n"
        ));
        assert!(looks_like_node_paths(
            "\"amd.com/gpu.family\":\"RDNA3\"\n\"feature.node.kubernetes.io/pci-1002.present\":\"true\"\n"
        ));
        assert!(!looks_like_node_paths("\"level\":\"info\"\nhello\n"));
        assert!(looks_like_node_paths(
            "$ kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.amd\\.com/gpu\nNAME      GPU\nnode-01   0\n"
        ));
        assert_eq!(
            command_node(
                "kubectl get node node-01 -o jsonpath='{.metadata.labels}' | tr ',' '\\n'"
            ),
            Some("node-01".into())
        );
        assert_eq!(command_node("kubectl get pods"), None);
        assert_eq!(
            custom_columns(
                "kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.amd\\.com/gpu"
            ),
            Some(vec![
                ("NAME".into(), ".metadata.name".into()),
                ("GPU".into(), ".status.allocatable.amd\\.com/gpu".into())
            ])
        );
    }
}
