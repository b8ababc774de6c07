//! Reading what a user pastes into a bug report: `kubectl get -o json|yaml` output (List, single
//! objects, multi-document YAML), `kubectl describe node|pod` text, `kubectl get nodes -o wide`
//! tables, and everything else (events tables, scheduler messages, kubeadm/kubelet/device-plugin
//! logs, error texts) as log text for the classifiers. The format is detected from the content,
//! never from the file name.
//!
//! This is the pure-text seam of the main job; it fills a [`ClusterSnapshot`] directly and will
//! delegate object decoding to `cube_model`'s snapshot loader once that is on main. Broken objects
//! become `snapshot.problems`; the rest of the input still loads.

use std::collections::BTreeMap;

use cube_model::objects::*;
use cube_model::{ClusterSnapshot, LoadProblem, Quantity, ResourceList};
use serde_json::Value;

use crate::LogText;

/// The detected format of one input text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputFormat {
    /// `kubectl get -o json` (a List or one object).
    KubeJson,
    /// `kubectl get -o yaml` or manifests (one or more documents).
    KubeYaml,
    /// `kubectl describe node` text (or an excerpt with Labels/Capacity/Allocatable blocks).
    DescribeNode,
    /// `kubectl describe pod` text.
    DescribePod,
    /// `kubectl get nodes -o wide`.
    NodeTable,
    /// Anything else: events, scheduler messages, logs, error texts (classified line by line).
    Text,
}

/// Detects the format of `text` from its content.
pub fn detect_format(text: &str) -> InputFormat {
    let body: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .collect();
    let Some(first) = body.first() else {
        return InputFormat::Text;
    };
    let first = first.trim_start();
    if first.starts_with('{')
        || (first.starts_with('[') && serde_json::from_str::<Value>(text).is_ok())
    {
        let json_lines = body
            .iter()
            .filter(|l| serde_json::from_str::<Value>(l).is_ok_and(|v| v.is_object()))
            .count();
        if json_lines > 1 && json_lines == body.len() {
            return InputFormat::Text; // JSONL collections of texts
        }
        return InputFormat::KubeJson;
    }
    if body.iter().any(|l| l.starts_with("apiVersion:"))
        && body.iter().any(|l| l.starts_with("kind:"))
    {
        return InputFormat::KubeYaml;
    }
    if first.starts_with("NAME ") && first.contains("STATUS") && first.contains("VERSION") {
        return InputFormat::NodeTable;
    }
    let has = |p: &str| body.iter().any(|l| l.starts_with(p));
    if has("Containers:") && (has("Namespace:") || has("Name:")) {
        return InputFormat::DescribePod;
    }
    if has("Capacity:") || has("Allocatable:") || (has("Labels:") && has("Roles:")) {
        return InputFormat::DescribeNode;
    }
    InputFormat::Text
}

/// Accumulates inputs into a snapshot plus log texts.
#[derive(Debug, Default, Clone)]
pub struct Inputs {
    /// Objects read so far.
    pub snapshot: ClusterSnapshot,
    /// Texts for the classifiers.
    pub logs: Vec<LogText>,
}

impl Inputs {
    /// Empty inputs.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one input text named `source`; returns the detected format. Describe texts are also
    /// kept as log text (their Events sections are classified).
    pub fn add(&mut self, source: &str, text: &str) -> InputFormat {
        let format = detect_format(text);
        match format {
            InputFormat::KubeJson => match serde_json::from_str::<Value>(text) {
                Ok(v) => self.add_value(source, 0, v),
                Err(e) => self.problem(source, 0, None, "", &format!("invalid JSON: {e}")),
            },
            InputFormat::KubeYaml => self.add_yaml(source, text),
            InputFormat::DescribeNode => {
                let node = parse_describe_node(text, source);
                self.snapshot.nodes.push(node);
                self.logs.push(LogText::new(source, text));
            }
            InputFormat::DescribePod => {
                let pod = parse_describe_pod(text);
                self.snapshot.pods.push(pod);
                self.logs.push(LogText::new(source, text));
            }
            InputFormat::NodeTable => {
                self.snapshot.nodes.extend(parse_node_table(text));
            }
            InputFormat::Text => self.logs.push(LogText::new(source, text)),
        }
        format
    }

    fn add_yaml(&mut self, source: &str, text: &str) {
        match serde_saphyr::from_multiple::<Value>(text) {
            Ok(docs) => {
                for (i, d) in docs.into_iter().enumerate() {
                    self.add_value(source, i, d);
                }
            }
            Err(_) => {
                // Mixed paste: YAML documents and plain text separated by `---`.
                for (i, part) in text.split("\n---").enumerate() {
                    let is_yaml = part.lines().any(|l| l.starts_with("kind:"));
                    match serde_saphyr::from_str::<Value>(part) {
                        Ok(v) if is_yaml => self.add_value(source, i, v),
                        _ => self.logs.push(LogText::new(format!("{source}#{i}"), part)),
                    }
                }
            }
        }
    }

    fn problem(
        &mut self,
        file: &str,
        document: usize,
        item: Option<usize>,
        object: &str,
        message: &str,
    ) {
        self.snapshot.problems.push(LoadProblem {
            file: file.to_owned(),
            document,
            item,
            object: object.to_owned(),
            field: String::new(),
            message: message.to_owned(),
        });
    }

    fn add_value(&mut self, source: &str, document: usize, v: Value) {
        if v.is_null() {
            return;
        }
        if let Some(items) = v.get("items").and_then(Value::as_array) {
            for (i, item) in items.iter().enumerate() {
                self.add_object(source, document, Some(i), item.clone());
            }
            return;
        }
        self.add_object(source, document, None, v);
    }

    fn add_object(&mut self, source: &str, document: usize, item: Option<usize>, v: Value) {
        let kind = v
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let name = v
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let s = &mut self.snapshot;
        let res: Result<(), serde_json::Error> = (|| {
            match kind.as_str() {
                "Node" => s.nodes.push(serde_json::from_value(v)?),
                "Pod" => s.pods.push(serde_json::from_value(v)?),
                "Namespace" => s.namespaces.push(serde_json::from_value(v)?),
                "ResourceQuota" => s.resource_quotas.push(serde_json::from_value(v)?),
                "LimitRange" => s.limit_ranges.push(serde_json::from_value(v)?),
                "PriorityClass" => s.priority_classes.push(serde_json::from_value(v)?),
                "DaemonSet" => s.daemon_sets.push(serde_json::from_value(v)?),
                "Event" => s.events.push(serde_json::from_value(v)?),
                "StorageClass" => s.storage_classes.push(serde_json::from_value(v)?),
                "PersistentVolume" => s.persistent_volumes.push(serde_json::from_value(v)?),
                "PersistentVolumeClaim" => {
                    s.persistent_volume_claims.push(serde_json::from_value(v)?)
                }
                "Role" | "ClusterRole" => s.roles.push(serde_json::from_value(v)?),
                "RoleBinding" | "ClusterRoleBinding" => {
                    s.role_bindings.push(serde_json::from_value(v)?)
                }
                "PodDisruptionBudget" => s.pod_disruption_budgets.push(serde_json::from_value(v)?),
                other => {
                    let k = if other.is_empty() { "<no kind>" } else { other };
                    *s.unknown_kinds.entry(k.to_owned()).or_default() += 1;
                }
            }
            Ok(())
        })();
        if let Err(e) = res {
            self.problem(
                source,
                document,
                item,
                &format!("{kind}/{name}"),
                &e.to_string(),
            );
        }
    }
}

fn q(s: &str) -> Option<Quantity> {
    s.trim().parse().ok()
}

/// Indented `key: value` (or `key=value`) lines after a header line, until the next unindented line.
fn block<'t>(lines: &[&'t str], header: &str) -> Vec<(&'t str, &'t str)> {
    let mut out = Vec::new();
    let Some(start) = lines.iter().position(|l| l.starts_with(header)) else {
        return out;
    };
    let first_rest = lines[start][header.len()..].trim();
    let mut push = |s: &'t str| {
        let s = s.trim();
        if s.is_empty() || s == "<none>" {
            return;
        }
        let split = if header == "Labels:" {
            s.split_once('=')
        } else {
            s.split_once(':').or_else(|| s.split_once('='))
        };
        if let Some((k, v)) = split {
            out.push((k.trim(), v.trim()));
        }
    };
    if !first_rest.is_empty() {
        push(first_rest);
    }
    for l in &lines[start + 1..] {
        if !l.starts_with(' ') && !l.starts_with('\t') {
            break;
        }
        push(l);
    }
    out
}

fn field<'t>(lines: &[&'t str], key: &str) -> Option<&'t str> {
    lines
        .iter()
        .find(|l| l.starts_with(key))
        .map(|l| l[key.len()..].trim())
        .filter(|v| !v.is_empty() && *v != "<none>")
}

fn list_of(pairs: &[(&str, &str)]) -> ResourceList {
    pairs
        .iter()
        .filter_map(|(k, v)| Some(((*k).to_owned(), q(v.split_whitespace().next()?)?)))
        .collect()
}

/// Parses `kubectl describe node` text (or an excerpt). A node without `Name:` is named after
/// `source`.
pub fn parse_describe_node(text: &str, source: &str) -> Node {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut n = Node::default();
    n.metadata.name = field(&lines, "Name:").unwrap_or(source).to_owned();
    n.metadata.labels = block(&lines, "Labels:")
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    n.metadata.annotations = block(&lines, "Annotations:")
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    n.status.capacity = list_of(&block(&lines, "Capacity:"));
    n.status.allocatable = list_of(&block(&lines, "Allocatable:"));
    let sys: BTreeMap<&str, &str> = block(&lines, "System Info:").into_iter().collect();
    let get = |k: &str| sys.get(k).map(|v| (*v).to_owned()).unwrap_or_default();
    n.status.node_info.kernel_version = get("Kernel Version");
    n.status.node_info.os_image = get("OS Image");
    n.status.node_info.container_runtime_version = get("Container Runtime Version");
    n.status.node_info.kubelet_version = get("Kubelet Version");
    n
}

/// Parses `kubectl describe pod` text: name, namespace, node, phase, annotations, labels,
/// container requests/limits, hostPath volumes, QoS class.
pub fn parse_describe_pod(text: &str) -> Pod {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut p = Pod::default();
    p.metadata.name = field(&lines, "Name:").unwrap_or("").to_owned();
    p.metadata.namespace = field(&lines, "Namespace:").unwrap_or("default").to_owned();
    if let Some(node) = field(&lines, "Node:") {
        p.spec.node_name = node.split('/').next().unwrap_or("").to_owned();
    }
    p.status.phase = field(&lines, "Status:").unwrap_or("").to_owned();
    p.status.qos_class = field(&lines, "QoS Class:").unwrap_or("").to_owned();
    p.spec.priority_class_name = field(&lines, "Priority Class Name:")
        .unwrap_or("")
        .to_owned();
    p.metadata.labels = block(&lines, "Labels:")
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    p.metadata.annotations = block(&lines, "Annotations:")
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    // "kubernetes.io/limit-ranger=LimitRanger plugin set: ..." uses '=' on one line
    for l in &lines {
        if let Some(pos) = l.find("kubernetes.io/limit-ranger=") {
            let v = &l[pos + "kubernetes.io/limit-ranger=".len()..];
            p.metadata
                .annotations
                .insert("kubernetes.io/limit-ranger".into(), v.trim().to_owned());
        }
    }
    // Containers: "  name:" at indent 2, "    Limits:"/"    Requests:" then indent-6 entries.
    let mut section = "";
    let mut current: Option<Container> = None;
    let mut sub = "";
    let mut volume: Option<Volume> = None;
    for l in &lines {
        let indent = l.len() - l.trim_start().len();
        let t = l.trim();
        if indent == 0 {
            if let Some(c) = current.take() {
                p.spec.containers.push(c);
            }
            if let Some(v) = volume.take() {
                p.spec.volumes.push(v);
            }
            section = if t.starts_with("Containers:") {
                "containers"
            } else if t.starts_with("Init Containers:") {
                "init"
            } else if t.starts_with("Volumes:") {
                "volumes"
            } else {
                ""
            };
            continue;
        }
        match section {
            "containers" => {
                if indent == 2 && t.ends_with(':') {
                    if let Some(c) = current.take() {
                        p.spec.containers.push(c);
                    }
                    current = Some(Container {
                        name: t.trim_end_matches(':').to_owned(),
                        ..Default::default()
                    });
                    sub = "";
                } else if indent == 4 {
                    sub = match t {
                        "Limits:" => "limits",
                        "Requests:" => "requests",
                        _ => "",
                    };
                } else if indent >= 6 && !sub.is_empty() {
                    if let (Some(c), Some((k, v))) = (current.as_mut(), t.split_once(':')) {
                        if let Some(qv) = q(v) {
                            let list = if sub == "limits" {
                                &mut c.resources.limits
                            } else {
                                &mut c.resources.requests
                            };
                            list.insert(k.trim(), qv);
                        }
                    }
                }
            }
            "volumes" => {
                if indent == 2 && t.ends_with(':') {
                    if let Some(v) = volume.take() {
                        p.spec.volumes.push(v);
                    }
                    volume = Some(Volume {
                        name: t.trim_end_matches(':').to_owned(),
                        ..Default::default()
                    });
                } else if let Some(v) = volume.as_mut() {
                    if t.starts_with("Type:") && t.contains("HostPath") {
                        v.host_path = Some(HostPathVolumeSource::default());
                    } else if let (Some(hp), Some(path)) =
                        (v.host_path.as_mut(), t.strip_prefix("Path:"))
                    {
                        hp.path = path.trim().to_owned();
                    } else if let Some(claim) = t.strip_prefix("ClaimName:") {
                        v.persistent_volume_claim = Some(PvcVolumeSource {
                            claim_name: claim.trim().to_owned(),
                            ..Default::default()
                        });
                    }
                }
            }
            _ => {}
        }
    }
    if let Some(c) = current.take() {
        p.spec.containers.push(c);
    }
    if let Some(v) = volume.take() {
        p.spec.volumes.push(v);
    }
    p
}

/// Parses `kubectl get nodes -o wide` (columns located by the header).
pub fn parse_node_table(text: &str) -> Vec<Node> {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let Some(header) = lines.first() else {
        return Vec::new();
    };
    let cols: Vec<(usize, &str)> = header
        .match_indices(|c: char| !c.is_whitespace())
        .filter(|(i, _)| *i == 0 || header.as_bytes().get(i - 1) == Some(&b' '))
        .map(|(i, _)| (i, header[i..].split_whitespace().next().unwrap_or("")))
        .collect();
    let mut out = Vec::new();
    for row in &lines[1..] {
        let mut n = Node::default();
        for (ci, (start, name)) in cols.iter().enumerate() {
            let end = cols.get(ci + 1).map_or(row.len(), |c| c.0);
            let cell = row.get(*start..end.min(row.len())).unwrap_or("").trim();
            match *name {
                "NAME" => n.metadata.name = cell.to_owned(),
                "STATUS" => n.status.conditions.push(NodeCondition {
                    type_: "Ready".into(),
                    status: if cell.starts_with("Ready") {
                        "True"
                    } else {
                        "False"
                    }
                    .into(),
                    reason: cell.to_owned(),
                    ..Default::default()
                }),
                "ROLES" => {
                    for r in cell.split(',').filter(|r| *r != "<none>") {
                        n.metadata
                            .labels
                            .insert(format!("node-role.kubernetes.io/{r}"), String::new());
                    }
                }
                "VERSION" => n.status.node_info.kubelet_version = cell.to_owned(),
                "INTERNAL-IP" => n.status.addresses.push(NodeAddress {
                    type_: "InternalIP".into(),
                    address: cell.to_owned(),
                }),
                "OS-IMAGE" => n.status.node_info.os_image = cell.to_owned(),
                "KERNEL-VERSION" => n.status.node_info.kernel_version = cell.to_owned(),
                "CONTAINER-RUNTIME" => {
                    n.status.node_info.container_runtime_version = cell.to_owned()
                }
                _ => {}
            }
        }
        out.push(n);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_formats() {
        assert_eq!(
            detect_format("{\"kind\":\"List\",\"items\":[]}"),
            InputFormat::KubeJson
        );
        assert_eq!(
            detect_format("# c\napiVersion: v1\nkind: Node\n"),
            InputFormat::KubeYaml
        );
        assert_eq!(
            detect_format("NAME STATUS ROLES AGE VERSION\n"),
            InputFormat::NodeTable
        );
        assert_eq!(
            detect_format("[preflight] Running pre-flight checks\n"),
            InputFormat::Text
        );
        let jsonl = "{\"a\":1}\n{\"a\":2}\n";
        assert_eq!(detect_format(jsonl), InputFormat::Text, "{jsonl}");
    }

    #[test]
    fn broken_object_is_a_problem_not_a_failure() {
        let mut i = Inputs::new();
        i.add("x.json", r#"{"kind":"List","items":[{"kind":"Node","metadata":{"name":"a"}},{"kind":"Node","metadata":{"name":"b"},"status":{"capacity":{"cpu":"lots"}}}]}"#);
        assert_eq!(i.snapshot.nodes.len(), 1);
        assert_eq!(i.snapshot.problems.len(), 1);
        assert_eq!(i.snapshot.problems[0].object, "Node/b");
    }
}
