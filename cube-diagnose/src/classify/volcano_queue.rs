//! Volcano `Queue` objects pasted as text (`kubectl get queue -o yaml|json`, `kubectl describe
//! queue`; not a snapshot kind): the queue's name, state and its `spec.capability`,
//! `spec.deserved`, `spec.guarantee.resource` and `status.allocated`, so the enqueue refusal
//! `queue resource quota insufficient` can be told apart per resource.
//!
//! Shapes: volcano-sh/apis `pkg/apis/scheduling/v1beta1/types.go` (`QueueSpec.Capability`,
//! `Deserved`, `Guarantee.Resource`, `QueueStatus.Allocated`, `State`).

use serde_json::Value;

use super::{Signal, SignalKind, details};
use crate::Subject;

/// One queue as read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct QueueFacts {
    /// `metadata.name`.
    pub name: String,
    /// `spec.capability` as `(resource, quantity)`, resource names lower-cased as the API
    /// spells them (`describe` prints `Cpu`, `Memory`).
    pub capability: Vec<(String, String)>,
    /// `spec.deserved`.
    pub deserved: Vec<(String, String)>,
    /// `spec.guarantee.resource`.
    pub guarantee: Vec<(String, String)>,
    /// `status.allocated`.
    pub allocated: Vec<(String, String)>,
    /// `status.state` (`Open`, `Closed`, ...).
    pub state: String,
    /// 1-based line of the object's `kind` line.
    pub line: usize,
}

/// `a=1,b=2` of a resource list (the signal's detail form).
pub fn join(list: &[(String, String)]) -> String {
    list.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// The list back from [`join`].
pub fn split(text: &str) -> Vec<(String, String)> {
    text.split(',')
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

fn resource_name(key: &str) -> String {
    // `describe` capitalises the native names (`Cpu`, `Memory`, `Pods`); extended names keep
    // their spelling
    if key.contains('/') {
        key.to_owned()
    } else {
        key.to_ascii_lowercase()
    }
}

fn value_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn list_of(v: Option<&Value>) -> Vec<(String, String)> {
    v.and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (resource_name(k), value_string(v)))
                .collect()
        })
        .unwrap_or_default()
}

fn from_value(q: &Value, line: usize) -> QueueFacts {
    QueueFacts {
        name: q
            .pointer("/metadata/name")
            .map(value_string)
            .unwrap_or_default(),
        capability: list_of(q.pointer("/spec/capability")),
        deserved: list_of(q.pointer("/spec/deserved")),
        guarantee: list_of(q.pointer("/spec/guarantee/resource")),
        allocated: list_of(q.pointer("/status/allocated")),
        state: q
            .pointer("/status/state")
            .map(value_string)
            .unwrap_or_default(),
        line,
    }
}

fn is_queue(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some("Queue")
        && v.get("apiVersion")
            .and_then(Value::as_str)
            .is_none_or(|a| a.starts_with("scheduling.volcano.sh/"))
}

/// Queues of a text that parses as JSON or YAML documents (Lists included).
fn structured(text: &str) -> Option<Vec<QueueFacts>> {
    let docs = cube_model::yaml::from_multiple::<Value>(
        text,
        &cube_model::Limits::default(),
        serde_saphyr::Options::default(),
    )
    .ok()?;
    let mut out = Vec::new();
    let line_of = |name: &str| {
        text.lines()
            .position(|l| l.contains(name) && (l.contains("name") || l.contains("Name")))
            .map_or(1, |i| i + 1)
    };
    for d in &docs {
        let items: Vec<&Value> = match d.get("items").and_then(Value::as_array) {
            Some(items) => items.iter().collect(),
            None => vec![d],
        };
        for q in items.into_iter().filter(|v| is_queue(v)) {
            let mut f = from_value(q, 1);
            f.line = line_of(&f.name);
            out.push(f);
        }
    }
    Some(out)
}

/// `key: value` of a line, the key trimmed (`- ` list marks dropped).
fn key_value(line: &str) -> Option<(&str, &str)> {
    let t = line.trim();
    let (k, v) = t.split_once(':')?;
    let k = k.trim().trim_matches('"');
    ((!k.is_empty() && !k.contains(' ')) || k == "API Version")
        .then_some((k, v.trim().trim_matches(['"', '\'', ','])))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Queues of a paste (YAML or `describe` blocks among other output), read line by line: an
/// object starts at a `kind: Queue` / `Kind: Queue` line (its name on a `name:` / `Name:` line
/// of the same object) and ends at the next `kind`/`Kind` line at its indentation, a `---`, a
/// shell prompt or a new `Name:` block.
fn by_lines(text: &str) -> Vec<QueueFacts> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some((k, v)) = key_value(l) else { continue };
        if !(k.eq_ignore_ascii_case("kind") && v == "Queue") {
            continue;
        }
        let base = indent(l);
        // the object's extent: back to its start, forward to the next object
        let starts_object = |x: &str| {
            let t = x.trim_start();
            t.starts_with("$ ")
                || t.starts_with("# ")
                || t == "---"
                || (indent(x) < base && !t.is_empty() && !t.starts_with('-'))
        };
        let mut start = i;
        while start > 0 {
            let p = lines[start - 1];
            if starts_object(p) || p.trim().is_empty() {
                break;
            }
            if indent(p) == base
                && key_value(p).is_some_and(|(k, _)| k.eq_ignore_ascii_case("kind"))
            {
                break;
            }
            start -= 1;
        }
        let mut end = i + 1;
        while end < lines.len() {
            let x = lines[end];
            if starts_object(x)
                || (indent(x) == base
                    && key_value(x).is_some_and(|(k, _)| {
                        k.eq_ignore_ascii_case("kind") || (k == "Name" && base == 0)
                    }))
            {
                break;
            }
            end += 1;
        }
        let block = &lines[start..end];
        let mut f = QueueFacts {
            line: i + 1,
            ..QueueFacts::default()
        };
        // the section a resource line belongs to, by the nearest less indented key
        let mut path: Vec<(usize, String)> = Vec::new();
        for x in block {
            if x.trim().is_empty() {
                continue;
            }
            let Some((k, v)) = key_value(x) else { continue };
            let ind = indent(x);
            while path.last().is_some_and(|(d, _)| *d >= ind) {
                path.pop();
            }
            let parent = path.last().map(|(_, p)| p.to_ascii_lowercase());
            let grand = path
                .len()
                .checked_sub(2)
                .and_then(|n| path.get(n))
                .map(|(_, p)| p.to_ascii_lowercase());
            if v.is_empty() {
                path.push((ind, k.to_owned()));
                continue;
            }
            let r = (resource_name(k), v.to_owned());
            match (parent.as_deref(), grand.as_deref()) {
                (Some("metadata"), _) if k == "name" => f.name = v.to_owned(),
                (None, _) if k == "Name" => f.name = v.to_owned(),
                (Some("capability"), _) => f.capability.push(r),
                (Some("deserved"), _) => f.deserved.push(r),
                (Some("resource"), Some("guarantee")) => f.guarantee.push(r),
                (Some("allocated"), _) => f.allocated.push(r),
                (Some("status"), _) if k.eq_ignore_ascii_case("state") => {
                    f.state = v.to_owned();
                }
                _ => {}
            }
        }
        if !f.name.is_empty() {
            out.push(f);
        }
    }
    out
}

/// The Volcano queues in `text`, by the structured reading when the whole text is JSON/YAML,
/// else line by line.
pub fn queues(text: &str) -> Vec<QueueFacts> {
    match structured(text) {
        Some(q) if !q.is_empty() => q,
        _ => by_lines(text),
    }
}

/// One [`SignalKind::VolcanoQueue`] signal per queue in `text`.
pub fn check(source: &str, text: &str) -> Vec<Signal> {
    queues(text)
        .into_iter()
        .map(|q| Signal {
            kind: SignalKind::VolcanoQueue,
            source: source.to_owned(),
            line: q.line,
            text: format!("Queue {} capability {}", q.name, join(&q.capability)),
            join: false,
            object: Some(Subject::cluster_scoped("Queue", &q.name)),
            details: details(&[
                ("queue", q.name.clone()),
                ("capability", join(&q.capability)),
                ("deserved", join(&q.deserved)),
                ("guarantee", join(&q.guarantee)),
                ("allocated", join(&q.allocated)),
                ("state", q.state.clone()),
            ]),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_json_and_describe_are_read() {
        let yaml = "$ kubectl get queue ml -o yaml\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata:\n  name: ml\nspec:\n  capability:\n    cpu: \"64\"\n    memory: 256Gi\n  guarantee:\n    resource:\n      cpu: \"8\"\n  weight: 1\nstatus:\n  allocated:\n    cpu: \"0\"\n  state: Open\n$ kubectl describe podgroup x\nName: x\n";
        let q = queues(yaml);
        assert_eq!(q.len(), 1, "{q:?}");
        assert_eq!(q[0].name, "ml");
        assert_eq!(join(&q[0].capability), "cpu=64,memory=256Gi");
        assert_eq!(join(&q[0].guarantee), "cpu=8");
        assert_eq!(q[0].state, "Open");
        let json = r#"{"apiVersion":"scheduling.volcano.sh/v1beta1","kind":"Queue","metadata":{"name":"gpu"},"spec":{"capability":{"cpu":"8","nvidia.com/gpu":"4"}}}"#;
        let q = queues(json);
        assert_eq!(join(&q[0].capability), "cpu=8,nvidia.com/gpu=4");
        let describe = "Name:         default\nNamespace:    \nAPI Version:  scheduling.volcano.sh/v1beta1\nKind:         Queue\nSpec:\n  Capability:\n    Cpu:     4\n    Memory:  4Gi\n  Reclaimable:  true\n  Weight:       1\nStatus:\n  Allocated:\n    Cpu:     0\n  State:     Open\nEvents:  <none>\n";
        let q = queues(describe);
        assert_eq!(q.len(), 1, "{q:?}");
        assert_eq!(q[0].name, "default");
        assert_eq!(join(&q[0].capability), "cpu=4,memory=4Gi");
        assert_eq!(q[0].state, "Open");
        assert!(queues("kind: Pod\nmetadata:\n  name: x\n").is_empty());
    }
}
