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

mod node_paths;

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
    /// PersistentVolumeClaims from `describe pvc` blocks and `get pvc` tables.
    pub persistent_volume_claims: Vec<PersistentVolumeClaim>,
    /// DaemonSets from `describe daemonset` blocks and `get daemonsets` tables.
    pub daemon_sets: Vec<DaemonSet>,
    /// Deployments, StatefulSets, ReplicaSets, ReplicationControllers and Jobs from `get`
    /// tables (partial objects: [`PARTIAL_ANNOTATION`]).
    pub workloads: Vec<Workload>,
    /// ResourceQuotas from `describe quota` / `describe namespace` blocks and `get quota` tables.
    pub resource_quotas: Vec<ResourceQuota>,
    /// LimitRanges from `describe limitrange` / `describe namespace` blocks.
    pub limit_ranges: Vec<LimitRange>,
    /// PriorityClasses from `describe priorityclass` blocks and `get priorityclasses` tables.
    pub priority_classes: Vec<PriorityClass>,
    /// PersistentVolumes from `describe pv` blocks and `get pv` tables.
    pub persistent_volumes: Vec<PersistentVolume>,
    /// StorageClasses from `describe storageclass` blocks and `get storageclasses` tables.
    pub storage_classes: Vec<StorageClass>,
    /// Namespaces from `get namespaces` tables (name and phase).
    pub namespaces: Vec<Namespace>,
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
    // not a key: the header of the node `Conditions:` table, whose heartbeat column only
    // `describe node` prints (an excerpt may lack the `Conditions:` line above it)
    NODE_CONDITIONS_COLUMN,
];

/// The column of the node conditions table that tells it from the pod one (`describeNode` in
/// `k8s.io/kubectl/pkg/describe/describe.go`: `Type Status LastHeartbeatTime
/// LastTransitionTime Reason Message`; pods print `Type Status`).
const NODE_CONDITIONS_COLUMN: &str = "LastHeartbeatTime";

/// The header row of a `describe` conditions table: `Type  Status` first, then only column
/// names (`LastHeartbeatTime`, `LastProbeTime`, `LastTransitionTime`, `Reason`, `Message`).
fn is_conditions_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() >= 2
        && words[..2] == ["Type", "Status"]
        && words[2..].iter().all(|w| {
            matches!(
                *w,
                "LastHeartbeatTime" | "LastProbeTime" | "LastTransitionTime" | "Reason" | "Message"
            )
        })
}

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

/// Keys that `describe pvc` prints (`describe pv` prints the first three too, see
/// [`PV_KEYS`]).
const PVC_KEYS: &[&str] = &[
    "StorageClass",
    "Access Modes",
    "VolumeMode",
    "Mounted By",
    "Used By",
];

/// Keys that only `describe pv` prints (`describePersistentVolume` in
/// `k8s.io/kubectl/pkg/describe/describe.go`).
const PV_KEYS: &[&str] = &["Reclaim Policy", "Claim", "Node Affinity", "Source"];

/// Keys of the other describers read here (`describeDaemonSet`, `describeQuota`,
/// `describeLimitRange`, `describeNamespace`, `describePriorityClass`, `describeStorageClass`
/// in `k8s.io/kubectl/pkg/describe/describe.go`).
const OTHER_DESCRIBE_KEYS: &[&str] = &[
    "Desired Number of Nodes Scheduled",
    "Current Number of Nodes Scheduled",
    "Number of Nodes Misscheduled",
    "Node-Selector",
    "Pod Template",
    "Pods Status",
    "Resource Quotas",
    "Resource Limits",
    "GlobalDefault",
    "PreemptionPolicy",
    "IsDefaultClass",
    "Provisioner",
    "Parameters",
    "AllowVolumeExpansion",
    "VolumeBindingMode",
    "ReclaimPolicy",
    "MountOptions",
];

fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.starts_with('#'))
}

/// Detects the format of text (see [`crate::snapshot::detect_format`]).
pub(crate) fn detect_text_format(text: &str) -> InputFormat {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // a shown command line (`$ kubectl describe pod p | tail`) is not the output; text with
    // one before its first output line is a paste, never a JSON or YAML dump (the caller cuts
    // it at the prompt first)
    let mut prompted = false;
    let mut first = None;
    for l in content_lines(text).filter(|l| !l.trim().is_empty() && !is_elision(l)) {
        if crate::paste::prompt_command(l).is_some() {
            prompted = true;
        } else {
            first = Some(l);
            break;
        }
    }
    let Some(first) = first else {
        return InputFormat::Text;
    };
    // `# kubectl get nodes -o json` (a root shell's prompt) is a YAML comment to
    // `content_lines`, but JSON has no comments: before JSON it is the command line too
    let hash_prompted = || {
        text.lines()
            .take_while(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
            .any(|l| l.starts_with('#') && crate::paste::prompt_command(l).is_some())
    };
    match detect_from(text, first) {
        InputFormat::Json | InputFormat::Yaml if prompted => InputFormat::Text,
        InputFormat::Json if hash_prompted() => InputFormat::Text,
        f => f,
    }
}

/// True when `text` is a `labels:` key alone and then only label lines (`key: value`, values
/// quoted or not, as `kubectl get node -o yaml | grep -A40 labels:` or a console's YAML view
/// print them), at least one of them.
fn yaml_labels_block(text: &str) -> bool {
    let mut lines = content_lines(text).filter(|l| !l.trim().is_empty());
    if lines.next().map(str::trim) != Some("labels:") {
        return false;
    }
    let mut any = false;
    for l in lines {
        if !matches!(
            excerpt_line(l),
            Some(ExcerptLine::KeyValue(..) | ExcerptLine::Label(..))
        ) {
            return false;
        }
        any = true;
    }
    any
}

/// A line that only marks left-out output (`....`, `…`, `[...]`): the reporter cut the paste
/// there.
fn is_elision(line: &str) -> bool {
    let t = line.trim();
    let t = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .unwrap_or(t);
    let dots = t.chars().filter(|c| *c == '.').count();
    !t.is_empty() && t.chars().all(|c| matches!(c, '.' | '…')) && (dots >= 3 || t.contains('…'))
}

/// [`detect_text_format`] of `text` whose first output line is `first`.
fn detect_from(text: &str, first: &str) -> InputFormat {
    let trimmed = first.trim_start();
    // a node's `labels:` map cut out of `-o yaml` or a console (`labels:` then `key: 'value'`
    // lines, quoted or not): node facts, not a YAML object
    if yaml_labels_block(text) {
        return InputFormat::DescribeNode;
    }
    if trimmed.starts_with(['{', '[']) {
        // from the first content character on: a log line such as `[2021-05-08 12:20:58] ...`
        // or `[preflight] ...` is not JSON, whatever its first character
        let from = text.find(trimmed).unwrap_or(0);
        let rest = text.get(from..).unwrap_or(trimmed);
        // a node's labels alone (`jq .metadata.labels`): node facts, not a dump
        if node_paths::leading_label_map(rest).is_some() {
            return InputFormat::DescribeNode;
        }
        if looks_like_json(rest) {
            return InputFormat::Json;
        }
        // a YAML flow mapping (`{apiVersion: v1, kind: Pod, metadata: {name: p}, ...}`): YAML,
        // which kubectl reads as it reads block YAML, never JSON (its keys are not quoted)
        if flow_yaml_object(rest) {
            return InputFormat::Yaml;
        }
        // a YAML stream whose documents are written as JSON (`kubectl get -o json` outputs
        // joined by `---`) with a document that is not JSON, wherever it stands: YAML reads
        // JSON documents, and the YAML reader keeps every document that parses (issue 9:
        // nothing dropped). Every document must be structure, so prose between Markdown
        // `---` rules next to a JSON log line stays text.
        let docs = crate::snapshot::split_yaml_documents(rest);
        if docs.len() > 1
            && docs.iter().any(|d| looks_like_json(d))
            && docs
                .iter()
                .all(|d| crate::snapshot::looks_like_yaml_structure(d))
        {
            return InputFormat::Yaml;
        }
    }
    // a YAML sequence; a Markdown bullet above a fenced paste (`- Non MIG Configuration`,
    // then a ``` fence) is prose, not YAML
    let fenced = || content_lines(text).any(|l| l.trim_start().starts_with("```"));
    // a top-level YAML sequence has no other line at column 0 than its `- ` items (and
    // document markers): a log record's leftover `- MainThread - WARNING - ...` (Python
    // logging's ` - ` separators after a cleaned timestamp) above a `describe` is not one
    let sequence = || {
        content_lines(text)
            .skip_while(|l| l.trim().is_empty())
            .skip(1)
            .filter(|l| !l.trim().is_empty() && !l.starts_with([' ', '\t']))
            .all(|l| l.starts_with("- ") || l == "-" || l.starts_with("---") || l == "...")
    };
    if first == "---"
        || first.starts_with("--- ")
        || (first.starts_with("- ") && !fenced() && sequence())
    {
        return InputFormat::Yaml;
    }
    if let Some(key) = yaml_key(first)
        && !first.starts_with(' ')
        && key.starts_with(|c: char| c.is_ascii_lowercase())
        && content_lines(text).any(|l| l.starts_with("apiVersion:") || l.starts_with("kind:"))
    {
        return InputFormat::Yaml;
    }
    // node facts printed as field paths (`status.capacity.amd.com/gpu: 0`) or a label map
    if node_paths::looks_like_node_paths(text) {
        return InputFormat::DescribeNode;
    }
    match table_kind(first) {
        Some(TableKind::Nodes) => return InputFormat::NodesWideTable,
        Some(TableKind::Events) => return InputFormat::EventsTable,
        Some(_) => return InputFormat::GetTable,
        None => {}
    }
    if is_describe_events_header(first) || is_event_row(first) {
        return InputFormat::EventsTable;
    }
    if top_key(first).is_some_and(|(k, _)| k == "Events") {
        return InputFormat::EventsTable;
    }
    // a node excerpt without structure (`kubectl get node X -o yaml | grep nvidia`, a grep of
    // `describe node` that lost its indentation): every line a label, annotation or resource
    {
        let body: Vec<&str> = content_lines(text)
            .filter(|l| crate::paste::prompt_command(l).is_none())
            .collect();
        let start = body.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
        if body
            .iter()
            .all(|l| l.trim().is_empty() || excerpt_line(l).is_some())
            && excerpt_run(&body, start).is_some()
        {
            return InputFormat::DescribeNode;
        }
    }
    // the first describe block decides (a file may hold several kinds); tables after a note
    // line count too
    let mut keys: Vec<&str> = Vec::new();
    for line in content_lines(text) {
        if let Some((key, _)) = top_key(line) {
            if key == "Name" && !keys.is_empty() {
                if let Some(f) = describe_format(&keys) {
                    return f;
                }
                keys.clear();
            }
            keys.push(key);
        } else if is_quota_header(line) || is_limits_header(line) {
            keys.push("Resource Quotas");
        } else if line.starts_with([' ', '\t']) && is_node_conditions_line(line) {
            keys.push(NODE_CONDITIONS_COLUMN);
        } else if keys.is_empty()
            && let Some(kind) = table_kind(line)
        {
            return match kind {
                TableKind::Nodes => InputFormat::NodesWideTable,
                TableKind::Events => InputFormat::EventsTable,
                _ => InputFormat::GetTable,
            };
        }
    }
    // `describe node | grep -A3 Labels`: only generic keys, with a node's label lines
    let generic = ["Labels", "Annotations", "Name", "CreationTimestamp"];
    if !keys.is_empty()
        && keys.iter().all(|k| generic.contains(k))
        && content_lines(text).any(|l| {
            let l = l.strip_prefix("Labels:").unwrap_or(l);
            matches!(excerpt_line(l), Some(ExcerptLine::Label(k, _))
                if GPU_KEY_PREFIXES.iter().any(|p| k.starts_with(p))
                    || k.starts_with("node-role.kubernetes.io/")
                    || k.starts_with("node.kubernetes.io/")
                    || k == "kubernetes.io/hostname")
        })
    {
        return InputFormat::DescribeNode;
    }
    describe_format(&keys)
        .or_else(|| {
            // the label lines of a `describe node | grep` excerpt
            (keys.is_empty() && content_lines(text).filter(|l| is_label_line(l)).count() >= 2)
                .then_some(InputFormat::DescribeNode)
        })
        .or_else(|| {
            // a container's state block cut out of `describe pod`
            container_state_fragment(text).map(|_| InputFormat::DescribePod)
        })
        .or_else(|| {
            // `kubectl get nodes --no-headers` rows
            (keys.is_empty()
                && content_lines(text)
                    .any(|l| !l.starts_with([' ', '\t']) && headerless_node_row(l).is_some()))
            .then_some(InputFormat::NodesWideTable)
        })
        .or_else(|| {
            // `kubectl get pods` rows without their header
            (keys.is_empty()
                && content_lines(text)
                    .any(|l| !l.starts_with([' ', '\t']) && headerless_pod_row(l, None).is_some()))
            .then_some(InputFormat::GetTable)
        })
        .unwrap_or(InputFormat::Text)
}

/// The describe format of one block from its top-level keys.
fn describe_format(keys: &[&str]) -> Option<InputFormat> {
    let any = |set: &[&str]| keys.iter().any(|k| set.contains(k));
    if any(PV_KEYS) || any(OTHER_DESCRIBE_KEYS) {
        Some(InputFormat::Describe)
    } else if any(PVC_KEYS) {
        Some(InputFormat::DescribePersistentVolumeClaim)
    } else if any(NODE_KEYS) {
        Some(InputFormat::DescribeNode)
    } else if any(POD_KEYS) {
        Some(InputFormat::DescribePod)
    } else {
        None
    }
}

/// True when `text` (starting at its first content character, `{` or `[`) is JSON: it parses
/// as JSON, or it is cut short inside a JSON value (the detection sees only a prefix), or it is
/// an object or array of objects/strings broken further on (reported as broken JSON). A
/// bracketed timestamp (`[2021-05-08 12:20:58] ...`), dmesg's `[   12.3] ...` and a log tag
/// (`[preflight] ...`) are not JSON: what follows the first value on its line is text.
pub(crate) fn looks_like_json(text: &str) -> bool {
    let t = text.trim_start();
    let opens_container = |rest: &str| {
        let rest = rest.trim_start();
        rest.is_empty() || rest.starts_with(['"', '{', '[', ']', '}'])
    };
    let mut stream = serde_json::Deserializer::from_str(t).into_iter::<serde::de::IgnoredAny>();
    match stream.next() {
        Some(Ok(_)) => {
            let end = stream.byte_offset();
            let (value, rest) = t.split_at(end.min(t.len()));
            // the rest of the line after the first value: nothing, a comma, or another value
            // (`{} [INFO] starting` is a log line: what follows must parse too)
            let line_rest = rest.split('\n').next().unwrap_or("").trim();
            let rest_ok = line_rest.is_empty()
                || line_rest.starts_with(',')
                || (line_rest.starts_with(['{', '['])
                    && !matches!(
                        serde_json::Deserializer::from_str(line_rest)
                            .into_iter::<serde::de::IgnoredAny>()
                            .next(),
                        Some(Err(e)) if !e.is_eof()
                    ));
            // a value on one line (JSON logging) followed by lines that cannot be JSON (klog,
            // plain text): a log that mixes both, not a stream of JSON values
            rest_ok && (value.contains('\n') || rest.lines().all(json_line_start))
        }
        Some(Err(e)) => {
            // a line before the error that no JSON text has (`I1201 10:00:00 ...` after a
            // JSON log record cut short): a log
            if t.lines().take(e.line()).any(|l| !json_line_start(l)) {
                return false;
            }
            if e.is_eof() {
                return true;
            }
            if let Some(rest) = t.strip_prefix('{') {
                opens_container(rest) && !rest.trim_start().starts_with(['{', '['])
            } else if let Some(rest) = t.strip_prefix('[') {
                let rest = rest.trim_start();
                rest.is_empty() || rest.starts_with(['{', '[', '"', ']'])
            } else {
                false
            }
        }
        None => false,
    }
}

/// True when `line` can be a line of JSON text (pretty-printed or not): blank, or starting
/// (after its indentation) with a JSON token: `{ } [ ] " , :`, a number, `true`, `false`,
/// `null`. JSON strings hold no raw line break, so every line of a JSON document starts so;
/// a log line (`I1201 ...`, `time="..."`, `Error: ...`) does not.
fn json_line_start(line: &str) -> bool {
    let t = line.trim_start();
    let literal = |w: &str| {
        t.strip_prefix(w)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric()))
    };
    t.is_empty()
        || t.starts_with(['{', '}', '[', ']', '"', ',', ':', '-'])
        || t.starts_with(|c: char| c.is_ascii_digit())
        || literal("true")
        || literal("false")
        || literal("null")
}

/// True when `line` (starting with `[`) opens a JSON array rather than a log tag such as
/// `[preflight]`, `[Unschedulable]` or a bracketed timestamp `[2021-05-08 12:20:58]`.
/// True when `text` starts a YAML flow mapping of a Kubernetes object or list: `{` then an
/// unquoted `apiVersion:` or `kind:` key (after `{`, `,` or whitespace) in its first line.
fn flow_yaml_object(text: &str) -> bool {
    let t = text.trim_start();
    if !t.starts_with('{') {
        return false;
    }
    let line = t.lines().next().unwrap_or("");
    ["apiVersion:", "kind:"].iter().any(|key| {
        line.match_indices(key).any(|(at, _)| {
            line[..at].trim_end().ends_with(['{', ','])
                && line[at + key.len()..].starts_with([' ', '\t'])
        })
    })
}

pub(crate) fn looks_like_json_array(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('[') && looks_like_json(t)
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
    // `describe namespace` prints these two section titles without a colon
    let bare = line.trim_end();
    if bare == "Resource Quotas" || bare == "Resource Limits" {
        return Some((bare, ""));
    }
    let end = line.find(':')?;
    let key = line.get(..end)?;
    if !key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')' | '/'))
    {
        return None;
    }
    // describe keys have at most seven words (`Number of Nodes Scheduled with Up-to-date
    // Pods`); a longer one is a sentence of the report (`If I describe the node I see that
    // the device count is 0:`)
    if key.split_whitespace().count() > 8 {
        return None;
    }
    // an error a command printed to stderr next to its output (`Error from server
    // (NotFound): ...`, `Error: ...`, `Warning: ...`: k8s.io/kubectl `pkg/cmd/util/helpers.go`
    // `checkErr`, cobra's `Error:` prefix, client-go's warning handler) is no describe key: read
    // as one, it would hide the table after it
    if key == "Error" || key == "Warning" || key.starts_with("Error from server") {
        return None;
    }
    let rest = line.get(end + 1..)?;
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    Some((key, rest.trim()))
}

/// The `kubectl get` tables this module reads, recognised by their header row. Column names
/// as `kubectl` prints them (upper case, words joined by one space): the table printers of
/// `k8s.io/kubernetes/pkg/printers/internalversion/printers.go` (`nodeColumnDefinitions`,
/// `podColumnDefinitions`, `daemonSetColumnDefinitions`, `resourceQuotaColumnDefinitions`,
/// `priorityClassColumnDefinitions`, `persistentVolumeClaimColumnDefinitions`,
/// `persistentVolumeColumnDefinitions`, `storageClassColumnDefinitions`, and the events table,
/// whose current form `LAST SEEN TYPE REASON OBJECT MESSAGE` is also printed by
/// `k8s.io/kubectl/pkg/cmd/events/event_printer.go`; kubectl before 1.14 printed
/// `LAST SEEN FIRST SEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE`). `-A` adds a
/// leading `NAMESPACE` column, `-o wide` more columns at the end, `--show-labels` a `LABELS`
/// column; all are read when present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TableKind {
    /// `NAME STATUS ROLES AGE VERSION [INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME]`.
    Nodes,
    /// `[NAMESPACE] LAST SEEN TYPE REASON OBJECT MESSAGE` (and the older and wide forms).
    Events,
    /// `[NAMESPACE] NAME READY STATUS RESTARTS AGE [IP NODE NOMINATED NODE READINESS GATES]`.
    Pods,
    /// `[NAMESPACE] NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE [...]`.
    DaemonSets,
    /// `[NAMESPACE] NAME AGE REQUEST LIMIT` (`REQUEST` cells `requests.cpu: 500m/2, ...`).
    ResourceQuotas,
    /// `NAME VALUE GLOBAL-DEFAULT AGE [PREEMPTIONPOLICY]`.
    PriorityClasses,
    /// `[NAMESPACE] NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS [VOLUMEATTRIBUTESCLASS] AGE [VOLUMEMODE]`.
    PersistentVolumeClaims,
    /// `NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS [VOLUMEATTRIBUTESCLASS] REASON AGE [VOLUMEMODE]`.
    PersistentVolumes,
    /// `NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE`.
    StorageClasses,
    /// `[NAMESPACE] NAME READY UP-TO-DATE AVAILABLE AGE [CONTAINERS IMAGES SELECTOR]`.
    Deployments,
    /// `[NAMESPACE] NAME READY AGE [CONTAINERS IMAGES]`.
    StatefulSets,
    /// `[NAMESPACE] NAME DESIRED CURRENT READY AGE [CONTAINERS IMAGES SELECTOR]` (ReplicaSets
    /// and ReplicationControllers print the same columns).
    ReplicaSets,
    /// `[NAMESPACE] NAME [STATUS] COMPLETIONS DURATION AGE [CONTAINERS IMAGES SELECTOR]`.
    Jobs,
    /// `NAME STATUS AGE [LABELS]`: namespaces (`printNamespace`: `Active`, `Terminating`) or
    /// the nodes of kubectl up to v1.5 (`printNode` before VERSION and ROLES were added:
    /// `Ready`, `NotReady`, `Ready,SchedulingDisabled`); the rows' STATUS decides.
    NameStatusAge,
}

/// The columns of a header row (cells split at runs of two or more spaces or tabs), or `None`
/// when the line is not a header (every cell upper case).
/// Column names of a header whose runs of spaces were collapsed to one: words joined back into
/// the multi-word names kubectl prints.
fn collapsed_header(line: &str) -> Option<Vec<String>> {
    const MULTI: &[&str] = &[
        "LAST SEEN",
        "FIRST SEEN",
        "NODE SELECTOR",
        "ACCESS MODES",
        "RECLAIM POLICY",
        "NOMINATED NODE",
        "READINESS GATES",
        "CREATED AT",
    ];
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 2
        || !words.iter().all(|w| {
            w.chars().any(|c| c.is_ascii_uppercase()) && !w.chars().any(|c| c.is_ascii_lowercase())
        })
    {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if let Some(next) = words.get(i + 1) {
            let pair = format!("{} {next}", words[i]);
            if MULTI.contains(&pair.as_str()) {
                out.push(pair);
                i += 2;
                continue;
            }
        }
        out.push(words[i].to_owned());
        i += 1;
    }
    Some(out)
}

/// Cells of a row whose spaces were collapsed, for `names` (from [`collapsed_header`]): one
/// word per column, from the left up to the column that may hold spaces (`MESSAGE`,
/// `OS-IMAGE`, else the last) and from the right after it; that column takes the rest.
fn collapsed_cells(names: &[String], row: &str) -> Vec<String> {
    let words: Vec<&str> = row.split_whitespace().collect();
    let free = names
        .iter()
        .position(|n| n == "MESSAGE" || n == "OS-IMAGE")
        .unwrap_or(names.len().saturating_sub(1));
    let mut cells = vec![String::new(); names.len()];
    let right = names.len() - free - 1;
    if words.len() < names.len() {
        for (c, w) in cells.iter_mut().zip(&words) {
            *c = (*w).to_owned();
        }
        return cells;
    }
    for (i, w) in words.iter().take(free).enumerate() {
        cells[i] = (*w).to_owned();
    }
    for k in 0..right {
        cells[names.len() - 1 - k] = words[words.len() - 1 - k].to_owned();
    }
    cells[free] = words[free..words.len() - right].join(" ");
    cells
}

fn header_columns(line: &str) -> Option<Vec<String>> {
    let t = line.trim_end();
    if !t.starts_with(|c: char| c.is_ascii_uppercase()) {
        return None;
    }
    let cells: Vec<String> = split_wide(t, usize::MAX)
        .into_iter()
        .map(|c| canonical_column(&c))
        .collect();
    let upper = cells.iter().all(|c| {
        !c.is_empty()
            && c.chars().any(|ch| ch.is_ascii_uppercase())
            && !c.chars().any(|ch| ch.is_ascii_lowercase())
    });
    (upper && cells.len() >= 2).then_some(cells)
}

/// Column names as current kubectl prints them (kubectl 1.4 printed `LASTSEEN`, `FIRSTSEEN`).
fn canonical_column(name: &str) -> String {
    match name {
        "LASTSEEN" => "LAST SEEN".to_owned(),
        "FIRSTSEEN" => "FIRST SEEN".to_owned(),
        other => other.to_owned(),
    }
}

/// Which `kubectl get` table `line` is the header of (also when its spaces were collapsed on
/// the way, `NAME STATUS ROLES AGE VERSION`).
pub(crate) fn table_kind(line: &str) -> Option<TableKind> {
    let cols = header_columns(line)
        .or_else(|| line.contains(' ').then(|| collapsed_header(line)).flatten())?;
    let has = |c: &str| cols.iter().any(|x| x == c);
    let first = cols
        .iter()
        .map(String::as_str)
        .find(|c| *c != "NAMESPACE")?;
    // a table cut at the terminal's width loses its last column (`MESSAGE`) from the header
    // and every row: the object column still says it is an events table
    if has("LAST SEEN")
        && has("TYPE")
        && has("REASON")
        && (has("MESSAGE") || has("OBJECT") || has("KIND"))
    {
        return Some(TableKind::Events);
    }
    if first != "NAME" {
        return None;
    }
    // kubectl v1.6-v1.7 printed nodes without ROLES (`NAME STATUS AGE VERSION [...]`)
    let node_columns = cols
        .iter()
        .all(|c| NODE_TABLE_COLUMNS.contains(&c.as_str()) || c == "LABELS");
    let kind = if has("STATUS") && has("VERSION") && (has("ROLES") || (has("AGE") && node_columns))
    {
        TableKind::Nodes
    } else if cols
        .iter()
        .filter(|c| !matches!(c.as_str(), "LABELS" | "AGE"))
        .eq(["NAME", "STATUS"].iter())
    {
        // `get namespaces`, and the nodes of kubectl before v1.6 (`NAME STATUS AGE`; before
        // v1.2 `NAME LABELS STATUS [AGE]`)
        TableKind::NameStatusAge
    } else if has("READY") && has("STATUS") && has("RESTARTS") {
        TableKind::Pods
    } else if has("DESIRED") && has("CURRENT") && has("NODE SELECTOR") {
        TableKind::DaemonSets
    } else if has("REQUEST") && has("LIMIT") && cols.len() <= 5 {
        TableKind::ResourceQuotas
    } else if has("VALUE") && has("GLOBAL-DEFAULT") {
        TableKind::PriorityClasses
    } else if has("VOLUME") && has("CAPACITY") && has("ACCESS MODES") {
        TableKind::PersistentVolumeClaims
    } else if has("CLAIM") && has("CAPACITY") && has("RECLAIM POLICY") {
        TableKind::PersistentVolumes
    } else if has("PROVISIONER") && (has("RECLAIMPOLICY") || has("VOLUMEBINDINGMODE")) {
        TableKind::StorageClasses
    } else if has("READY") && has("UP-TO-DATE") && has("AVAILABLE") && !has("DESIRED") {
        TableKind::Deployments
    } else if has("DESIRED") && has("CURRENT") && has("READY") && !has("UP-TO-DATE") {
        TableKind::ReplicaSets
    } else if has("COMPLETIONS") && has("DURATION") {
        TableKind::Jobs
    } else if cols
        .iter()
        .filter(|c| !matches!(c.as_str(), "NAMESPACE" | "CONTAINERS" | "IMAGES"))
        .eq(["NAME", "READY", "AGE"].iter())
    {
        TableKind::StatefulSets
    } else {
        return None;
    };
    Some(kind)
}

/// `Resource  Used  Hard` (describe resourcequota, and indented in describe namespace).
fn is_quota_header(line: &str) -> bool {
    line.split_whitespace().collect::<Vec<_>>() == ["Resource", "Used", "Hard"]
}

/// `Type  Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio`
/// (describe limitrange, and indented in describe namespace).
fn is_limits_header(line: &str) -> bool {
    let w: Vec<&str> = line.split_whitespace().collect();
    w.len() >= 4 && w[..4] == ["Type", "Resource", "Min", "Max"]
}

fn is_describe_events_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words == ["Type", "Reason", "Age", "From", "Message"]
}

/// The `Events:` header of kubectl before 1.10 (pkg/printers/internalversion/describe.go
/// DescribeEvents: `FirstSeen\tLastSeen\tCount\tFrom\tSubObjectPath\tType\tReason\tMessage`,
/// `SubobjectPath` in 1.4-1.5), tab-separated with empty cells.
fn is_old_describe_events_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() == 8
        && words[..3] == ["FirstSeen", "LastSeen", "Count"]
        && words[5..] == ["Type", "Reason", "Message"]
}

/// The non-empty cells of an old `describe` table row: split at tabs (v1.0) and at runs of two
/// spaces (tabwriter padding of v1.1-1.5).
fn old_table_cells(line: &str) -> Vec<&str> {
    line.split('\t')
        .flat_map(|c| c.split("  "))
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// A row of the old `Events:` table: the cells around its `Warning`/`Normal` type cell (the
/// SubObjectPath cell before it is often empty, so positions cannot be trusted).
fn old_event_row(line: &str) -> Option<BTreeMap<String, String>> {
    let cells = old_table_cells(line);
    let at = cells
        .iter()
        .position(|c| *c == "Warning" || *c == "Normal")?;
    let mut row = BTreeMap::new();
    row.insert("Type".to_owned(), cells[at].to_owned());
    row.insert("Reason".to_owned(), cells.get(at + 1)?.to_string());
    row.insert("Message".to_owned(), cells.get(at + 2..)?.join(" "));
    row.insert(
        "From".to_owned(),
        cells.get(3).copied().unwrap_or("").to_owned(),
    );
    row.insert(
        "Age".to_owned(),
        format!(
            "{} (x{} over {})",
            cells[1.min(at)],
            cells.get(2).unwrap_or(&"1"),
            cells[0]
        ),
    );
    Some(row)
}

/// The `Events:` header of `describe` in v1.0-v1.1 (pkg/kubectl/describe.go `DescribeEvents`
/// of release-1.0/1.1: no Type column, events had no type yet): `FirstSeen  LastSeen  Count
/// From  SubobjectPath  Reason  Message`.
fn is_v1_0_describe_events_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() == 7
        && words[..4] == ["FirstSeen", "LastSeen", "Count", "From"]
        && words[4].eq_ignore_ascii_case("SubobjectPath")
        && words[5..] == ["Reason", "Message"]
}

/// A row of the v1.0-v1.1 `Events:` table (tabs in v1.0, tabwriter spaces in v1.1): first
/// seen, last seen, count, From (`{scheduler }`, `{kubelet node-01}`), an optional
/// SubobjectPath (`spec.containers{mysql}`), the reason (lower-case in v1.0:
/// `failedScheduling`), the message. Events had no type then: a reason that says a failure
/// (`failed...`, `...BackOff`) is read as a Warning, others as Normal.
fn v1_0_event_row(line: &str) -> Option<BTreeMap<String, String>> {
    let cells = old_table_cells(line);
    let count = cells.get(2)?;
    if !count.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let from = cells.get(3)?;
    let mut at = 4;
    if cells.len() > 6
        || cells
            .get(4)
            .is_some_and(|c| c.contains(['{', '.']) && cells.len() > 5)
    {
        at = 5;
    }
    let reason = cells.get(at)?;
    if reason.contains(char::is_whitespace) {
        return None;
    }
    let lower = reason.to_ascii_lowercase();
    let warning =
        lower.starts_with("failed") || lower.contains("backoff") || lower.starts_with("error");
    let mut row = BTreeMap::new();
    row.insert(
        "Type".to_owned(),
        if warning { "Warning" } else { "Normal" }.to_owned(),
    );
    row.insert("Reason".to_owned(), (*reason).to_owned());
    row.insert(
        "Message".to_owned(),
        cells.get(at + 1..).unwrap_or_default().join(" "),
    );
    row.insert(
        "From".to_owned(),
        from.trim_matches(['{', '}', ' ']).to_owned(),
    );
    row.insert(
        "Age".to_owned(),
        format!("{} (x{} over {})", cells[1], count, cells[0]),
    );
    Some(row)
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

/// The lines k8s.io/mount-utils adds to a mount error (`mount_linux.go` `doMount`: `Mount
/// failed: %v\nMounting command: %s\nMounting arguments: %s\nOutput: %s`; GKE's
/// containerized mounter nests a second such block in the `Output:`), which `kubectl describe`
/// prints at column 0 after the event row: the event's message goes on there.
fn is_mount_continuation(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("Mounting command:")
        || t.starts_with("Mounting arguments:")
        || t.starts_with("Output:")
}

/// Splits the lines of an events table into the table's own lines and the mount-utils
/// continuations of its messages ([`is_mount_continuation`], and the lines of a command's
/// output after `Output:` up to a blank line or the next row), each group with the row line it
/// continues.
fn split_mount_continuations<'a>(
    lines: &[&'a str],
) -> (Vec<&'a str>, Vec<(&'a str, Vec<&'a str>)>) {
    let mut table = Vec::new();
    let mut groups: Vec<(&'a str, Vec<&'a str>)> = Vec::new();
    let mut last_row: Option<&'a str> = None;
    let mut in_output = false;
    for &l in lines {
        let row = is_event_row(l) || is_describe_events_header(l);
        let cont = !row
            && !l.trim().is_empty()
            && (is_mount_continuation(l) || (in_output && !l.trim_start().starts_with("---")));
        if cont && let Some(r) = last_row {
            in_output |= l.trim_start().starts_with("Output:");
            match groups.last_mut() {
                Some((at, g)) if *at == r => g.push(l),
                _ => groups.push((r, vec![l])),
            }
            continue;
        }
        in_output = false;
        if !l.trim().is_empty() && !l.trim_start().starts_with("---") {
            last_row = Some(l);
        }
        table.push(l);
    }
    (table, groups)
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
        return unaligned_cells(starts, &chars);
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

/// Cells of a row that is not aligned to its header (a cell edited by hand, a column one
/// character off, a wider cell that pushed the rest): the row is cut at runs of two or more
/// spaces; when that gives one piece per column they are the cells in order, else each piece
/// goes to the column whose start is nearest before it (two characters of slack), so an empty
/// cell (`SUBOBJECT`, `NOMINATED NODE`) stays empty instead of shifting the rest left. Pieces
/// beyond the last column, or two pieces in one column, are joined (a message with a wide gap).
fn unaligned_cells(starts: &[usize], chars: &[char]) -> Vec<String> {
    let n = starts.len().max(1);
    // pieces with the char index they start at
    let mut pieces: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == ' ' || chars[i] == '\t' {
            i += 1;
            continue;
        }
        let begin = i;
        let mut piece = String::new();
        while i < chars.len() {
            let c = chars[i];
            let gap = c == '\t'
                || (c == ' ' && chars.get(i + 1).is_some_and(|n| *n == ' ' || *n == '\t'));
            if gap {
                break;
            }
            piece.push(c);
            i += 1;
        }
        pieces.push((begin, piece.trim_end().to_owned()));
    }
    let mut cells = vec![String::new(); n];
    if pieces.len() == n {
        for (cell, (_, p)) in cells.iter_mut().zip(pieces) {
            *cell = p;
        }
        return cells;
    }
    let mut last: Option<usize> = None;
    let count = pieces.len();
    for (k, (pos, piece)) in pieces.into_iter().enumerate() {
        let by_position = starts.iter().rposition(|&s| s <= pos + 2).unwrap_or(0);
        // never before the previous piece's column, and leave a column for each piece after
        // this one while there are enough
        let after = count - k - 1;
        let col = if count <= n {
            by_position
                .max(last.map_or(0, |l| l + 1))
                .min(n - 1 - after)
        } else {
            by_position.max(last.unwrap_or(0))
        }
        .min(n - 1);
        if cells[col].is_empty() {
            cells[col] = piece;
        } else {
            cells[col].push_str("  ");
            cells[col].push_str(&piece);
        }
        last = Some(col);
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

/// A label line of `describe node`'s `Labels:` column without its key (`kubectl describe node
/// X | grep nvidia.com/` keeps only the continuation lines, indented to the value column):
/// `<key>=<value>` alone on the line, indented by 8 or more, the key a label key with a prefix
/// (`nvidia.com/gpu.product=...`, `kubernetes.io/hostname=...`).
fn is_label_line(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() < 8 || t.contains(char::is_whitespace) || t.is_empty() {
        return false;
    }
    let Some((key, _)) = t.split_once('=') else {
        return false;
    };
    key.contains('/')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/'))
}

/// One line of a node excerpt without structure: what `kubectl describe node X | grep -i gpu`
/// or `kubectl get node X -o yaml | grep -i nvidia` prints once the paste lost its indentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ExcerptLine<'a> {
    /// `key=value` (a label of `describe`'s `Labels:` column).
    Label(&'a str, &'a str),
    /// `key: value` with a prefixed key (a label or annotation of `-o yaml`, an annotation of
    /// `describe`).
    KeyValue(&'a str, &'a str),
    /// `name: quantity` of a GPU or standard resource (`describe`'s Capacity / Allocatable, or
    /// `-o yaml`'s `status.allocatable` / `status.capacity` with the value quoted).
    Resource(&'a str, &'a str),
    /// A row of `describe node`'s `Allocated resources:` table (`nvidia.com/gpu  1  1`,
    /// `cpu  250m (6%)  0 (0%)`): matched by the same grep, not read.
    Allocated,
}

/// A label key: an optional DNS prefix and `/`, then the name (upstream
/// `validation.IsQualifiedName`, loosely: the characters only).
fn is_label_key(key: &str, prefixed: bool) -> bool {
    !key.is_empty()
        && (!prefixed || key.contains('/'))
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/'))
        && key.starts_with(|c: char| c.is_ascii_alphanumeric())
}

/// A resource name a node excerpt lists with a quantity: a GPU device resource, HAMi's slice
/// attributes, or a standard node resource.
fn is_excerpt_resource(name: &str) -> bool {
    crate::gpu::gpu_resource_vendor(name).is_some()
        || crate::ResourceName::from(name).is_gpu_share_attribute()
        || matches!(name, "cpu" | "memory" | "pods" | "ephemeral-storage")
        || name.starts_with("hugepages-")
}

fn excerpt_line(line: &str) -> Option<ExcerptLine<'_>> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return None;
    }
    if !t.contains(char::is_whitespace)
        && let Some((k, v)) = t.split_once('=')
        && !k.contains(':')
        && is_label_key(k, true)
    {
        return Some(ExcerptLine::Label(k, v));
    }
    let mut words = t.split_whitespace();
    if let Some(name) = words.next()
        && is_excerpt_resource(name)
    {
        let rest: Vec<&str> = words.collect();
        if rest.len() >= 2
            && rest
                .iter()
                .all(|w| w.parse::<Quantity>().is_ok() || (w.starts_with('(') && w.ends_with("%)")))
        {
            return Some(ExcerptLine::Allocated);
        }
    }
    let (k, v) = t
        .split_once(": ")
        .or_else(|| t.strip_suffix(':').map(|k| (k, "")))?;
    let value = v.trim();
    let unquoted = value
        .strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
        .unwrap_or(value);
    if is_excerpt_resource(k) && !unquoted.is_empty() && unquoted.parse::<Quantity>().is_ok() {
        return Some(ExcerptLine::Resource(k, unquoted));
    }
    (is_label_key(k, true) && !value.is_empty()).then_some(ExcerptLine::KeyValue(k, unquoted))
}

/// Label and annotation key prefixes of GPU stacks: one such excerpt line is enough to read an
/// excerpt (two lines of any prefixed key otherwise).
const GPU_KEY_PREFIXES: &[&str] = &[
    "nvidia.com/",
    "amd.com/",
    "beta.amd.com/",
    "gpu.intel.com/",
    "intel.feature.node.kubernetes.io/",
    "feature.node.kubernetes.io/pci-",
    "cloud.google.com/gke-accelerator",
    "karpenter.k8s.aws/instance-gpu",
    "hami.io/",
    "4pd.io/",
    "volcano.sh/",
];

/// Annotation key prefixes (an `-o yaml | grep` excerpt prints labels and annotations alike as
/// `key: value`): HAMi's and Volcano's node registration and handshake, the GPU Operator's
/// driver-upgrade state, kubeadm's, the node lifecycle's and the CNI's node annotations.
const ANNOTATION_PREFIXES: &[&str] = &[
    "hami.io/node-",
    "4pd.io/node-",
    "volcano.sh/node-",
    "nvidia.com/gpu-driver-upgrade",
    "kubeadm.alpha.kubernetes.io/",
    "node.alpha.kubernetes.io/",
    "volumes.kubernetes.io/",
    "csi.volume.kubernetes.io/",
    "flannel.alpha.coreos.com/",
    "projectcalico.org/",
    "management.cattle.io/",
    "rke2.io/",
    "k3s.io/node-",
    "alpha.kubernetes.io/provided-node-ip",
];

/// The end of a run of node-excerpt lines starting at `start` (blank lines inside the run
/// allowed), when the run reads as an excerpt: at least two lines with a prefixed key, or one
/// with a GPU stack's key; at least one label or key-value line.
fn excerpt_run(lines: &[&str], start: usize) -> Option<usize> {
    let mut end = start;
    let mut keyed = 0usize;
    let mut gpu = false;
    let mut last = start;
    while end < lines.len() {
        let l = lines[end];
        if l.trim().is_empty() {
            end += 1;
            continue;
        }
        match excerpt_line(l) {
            Some(ExcerptLine::Label(k, _) | ExcerptLine::KeyValue(k, _)) => {
                keyed += 1;
                gpu |= GPU_KEY_PREFIXES.iter().any(|p| k.starts_with(p));
            }
            Some(ExcerptLine::Resource(..) | ExcerptLine::Allocated) => {}
            None => break,
        }
        end += 1;
        last = end;
    }
    (keyed >= 2 || (keyed == 1 && gpu)).then_some(last)
}

/// The grep pattern of a shown `... | grep [-i] [-e] PATTERN` command (the first plain
/// pattern, quotes removed) and whether it ignores case.
fn grep_pattern(cmd: &str) -> Option<(String, bool)> {
    let grep = cmd.split('|').skip(1).find(|p| {
        p.split_whitespace()
            .next()
            .is_some_and(|w| matches!(w, "grep" | "egrep" | "fgrep"))
    })?;
    let mut ignore_case = false;
    let mut pattern = None;
    for w in grep.split_whitespace().skip(1) {
        if w.starts_with('-') && w.len() > 1 && !w.starts_with("--") {
            if w.contains('i') {
                ignore_case = true;
            }
            if w.contains('A') || w.contains('B') || w.contains('C') {
                // context lines: the excerpt holds more than the matches
                return None;
            }
            continue;
        }
        if w.starts_with("--") {
            if w == "--ignore-case" {
                ignore_case = true;
            }
            continue;
        }
        pattern = Some(w.trim_matches(['"', '\'']).to_owned());
        break;
    }
    let p = pattern?;
    // a regular expression other than a plain word is not read
    (!p.is_empty()
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '/')))
    .then_some((p, ignore_case))
}

/// The nodes of a run of excerpt lines (`kubectl describe nodes | grep nvidia` prints every
/// node's lines in turn): a new node starts where a label or annotation key repeats, a
/// resource shows a third time, or a label follows resource lines (both `describe` and
/// `-o yaml` print a node's labels and annotations before its resources).
fn excerpt_groups<'a>(lines: &[&'a str]) -> Vec<Vec<&'a str>> {
    let mut groups: Vec<Vec<&str>> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut keys: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let mut resources: BTreeMap<&str, usize> = BTreeMap::new();
    for &l in lines {
        let Some(parsed) = excerpt_line(l) else {
            continue;
        };
        let split = match parsed {
            ExcerptLine::Label(k, _) | ExcerptLine::KeyValue(k, _) => {
                keys.contains(k) || !resources.is_empty()
            }
            ExcerptLine::Resource(k, _) => resources.get(k).is_some_and(|n| *n >= 2),
            ExcerptLine::Allocated => false,
        };
        if split && !current.is_empty() {
            groups.push(std::mem::take(&mut current));
            keys.clear();
            resources.clear();
        }
        match parsed {
            ExcerptLine::Label(k, _) | ExcerptLine::KeyValue(k, _) => {
                keys.insert(k);
            }
            ExcerptLine::Resource(k, _) => *resources.entry(k).or_default() += 1,
            ExcerptLine::Allocated => {}
        }
        current.push(l);
    }
    if !current.is_empty() {
        groups.push(current);
    }
    groups
}

/// Whether a shown command's output is filtered (piped through `grep`, `egrep`, `head`,
/// `tail`, `sed`, `awk`, `cut`): what it printed is an excerpt.
fn is_filtered(cmd: &str) -> bool {
    cmd.split('|').skip(1).any(|p| {
        p.split_whitespace().next().is_some_and(|w| {
            matches!(
                w,
                "grep" | "egrep" | "fgrep" | "head" | "tail" | "sed" | "awk" | "cut" | "rg"
            )
        })
    })
}

/// Nodes read from the filtered output of `cmd` (from index `mark` on) that show neither
/// capacity nor allocatable: their resources are unknown ([`PARTIAL_ANNOTATION`]), not absent,
/// unless the command's grep pattern matches the GPU resource lines (`grep -i nvidia`), whose
/// absence then says the node advertises none.
fn mark_filtered_nodes(out: &mut ParsedText, mark: usize, cmd: &str) {
    let covers_gpu = grep_pattern(cmd).is_some_and(|(p, ci)| {
        ["nvidia.com/gpu", "amd.com/gpu"].iter().any(|r| {
            if ci {
                r.contains(&p.to_ascii_lowercase())
            } else {
                r.contains(p.as_str())
            }
        })
    });
    if covers_gpu {
        return;
    }
    for n in out.nodes.iter_mut().skip(mark) {
        if n.status.capacity.is_empty()
            && n.status.allocatable.is_empty()
            && !n.metadata.annotations.contains_key(PARTIAL_ANNOTATION)
        {
            n.metadata.annotations.insert(
                PARTIAL_ANNOTATION.to_owned(),
                "from a filtered describe excerpt without Capacity or Allocatable; unknown: capacity, allocatable"
                    .to_owned(),
            );
        }
    }
}

/// A node read from a run of excerpt lines (see [`ExcerptLine`]). `describe`'s form (`key=value`
/// labels) prints annotations as `key: value` and Capacity before Allocatable; `-o yaml`'s form
/// prints labels and annotations as `key: value` (known annotation prefixes told apart) and, its
/// keys sorted, `allocatable` before `capacity`. When the shown command's grep pattern matches
/// `nvidia.com/gpu` (or `amd.com/gpu`) and the excerpt lists no such resource, the node's
/// resources are known to hold none of it; otherwise they are unknown
/// ([`PARTIAL_ANNOTATION`]).
fn node_from_excerpt(lines: &[&str], cmd: Option<&str>) -> Node {
    let parsed: Vec<ExcerptLine<'_>> = lines.iter().filter_map(|l| excerpt_line(l)).collect();
    let describe_form = parsed.iter().any(|l| matches!(l, ExcerptLine::Label(..)));
    let mut node = Node::default();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for l in &parsed {
        match *l {
            ExcerptLine::Label(k, v) => {
                node.metadata.labels.insert(k.to_owned(), v.to_owned());
            }
            ExcerptLine::KeyValue(k, v) => {
                if describe_form || ANNOTATION_PREFIXES.iter().any(|p| k.starts_with(p)) {
                    node.metadata.annotations.insert(k.to_owned(), v.to_owned());
                } else {
                    node.metadata.labels.insert(k.to_owned(), v.to_owned());
                }
            }
            ExcerptLine::Resource(k, v) => {
                let Ok(q) = v.parse::<Quantity>() else {
                    continue;
                };
                let n = seen.entry(k).or_default();
                let first_is_capacity = describe_form;
                let list = match (*n == 0, first_is_capacity) {
                    (true, true) | (false, false) => &mut node.status.capacity,
                    _ => &mut node.status.allocatable,
                };
                list.insert(k, q);
                *n += 1;
            }
            ExcerptLine::Allocated => {}
        }
    }
    if let Some(h) = node.metadata.labels.get("kubernetes.io/hostname") {
        node.metadata.name = h.to_owned();
    }
    let resources_shown = !seen.is_empty();
    // the grep would have shown the GPU resource lines: their absence says the node has none
    let grep_covers_gpu = cmd.and_then(grep_pattern).is_some_and(|(p, ci)| {
        ["nvidia.com/gpu", "amd.com/gpu"].iter().any(|r| {
            if ci {
                r.contains(&p.to_ascii_lowercase())
            } else {
                r.contains(p.as_str())
            }
        })
    });
    let mut unknown = vec!["taints", "conditions"];
    if !resources_shown && !grep_covers_gpu {
        unknown.extend(["capacity", "allocatable"]);
    }
    node.metadata.annotations.insert(
        PARTIAL_ANNOTATION.to_owned(),
        format!(
            "from a node excerpt without structure (grep); unknown: {}",
            unknown.join(", ")
        ),
    );
    node
}

/// A block read from a grep excerpt of `describe node` (label lines, then resource lines):
/// only key-less `Labels`, `Capacity` and `Allocatable` sections.
fn is_grep_excerpt(b: &Block<'_>) -> bool {
    b.get("Labels").is_some()
        && b.sections
            .iter()
            .all(|s| s.inline.is_empty() && matches!(s.key, "Labels" | "Capacity" | "Allocatable"))
}

/// A resource line of `describe node`'s `Capacity:` / `Allocatable:` without its key
/// (`  nvidia.com/gpu:     0` of a grep): its name.
fn resource_line_name(line: &str) -> Option<&str> {
    if line.starts_with('\t') {
        return None;
    }
    let t = line.trim_start_matches(' ');
    let indent = line.len() - t.len();
    if indent > 4 {
        return None;
    }
    let (name, value) = t.split_once(':')?;
    let value = value.trim();
    (!name.is_empty()
        && !name.contains(char::is_whitespace)
        && !value.is_empty()
        && value.parse::<Quantity>().is_ok())
    .then_some(name)
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

/// Annotation on objects read from a `kubectl get` table (not `describe`, not JSON/YAML): the
/// table shows only some fields, and the value names what is unknown. Rules must not read an
/// absent field of such an object as "not set" (a pod from `kubectl get pods` has tolerations
/// and requests the table does not show).
pub const PARTIAL_ANNOTATION: &str = "cube-model.invalid/partial";

/// Annotation on a pod that the input shows more than once with different states (`kubectl get
/// pods -w`, stacked `get pods` tables): the STATUS values of the earlier views, oldest first,
/// comma-separated (`ContainerCreating, Running, OOMKilled`). The pod itself carries the latest
/// state; this keeps what happened before it (a `CrashLoopBackOff` after an `OOMKilled` is a
/// container that runs out of memory).
pub const EARLIER_STATUS_ANNOTATION: &str = "cube-model.invalid/earlier-status";

/// Annotation on a node that the input shows twice under one name with different identities
/// (their `InternalIP` or `Hostname` addresses share nothing: two `kubectl get nodes -o wide`
/// listings, or a table row and a `describe node`): the value names both, e.g.
/// `InternalIP 192.0.2.39 and 192.0.2.41`. The views are merged (a cluster has one Node object
/// per name) and this says that two machines take the one name in turn (the same host name on
/// two machines: a k3s agent or a kubeadm re-join that reuses it) or the node's address changed
/// between the listings.
pub const IDENTITY_CONFLICT_ANNOTATION: &str = "cube-model.invalid/identity-conflict";

/// Annotation on a node read from `kubectl describe node`: the `Requests` column of its
/// `Allocated resources:` table, as comma-separated `name=quantity` (`cpu=16,nvidia.com/gpu=6`).
/// kubectl sums there the requests of the node's non-terminated pods
/// (k8s.io/kubectl/pkg/describe/describe.go `describeNodeResource` / `getPodsTotalRequestsAndLimits`,
/// extended resources included since v1.8), while the `Non-terminated Pods:` rows show per pod
/// only CPU and memory: this is what the node has in use. Read it with [`allocated_requests`].
pub const ALLOCATED_ANNOTATION: &str = "cube-model.invalid/allocated-requests";

/// The requests in use on a node read from `describe node` ([`ALLOCATED_ANNOTATION`]); `None`
/// when the node was not read from a describe with that table.
pub fn allocated_requests(meta: &ObjectMeta) -> Option<ResourceList> {
    let v = meta.annotations.get(ALLOCATED_ANNOTATION)?;
    let mut list = ResourceList::new();
    for part in v.split(',') {
        let Some((k, q)) = part.split_once('=') else {
            continue;
        };
        if let Ok(q) = q.parse::<Quantity>() {
            list.insert(k, q);
        }
    }
    Some(list)
}

/// The `Requests` column of `describe node`'s `Allocated resources:` table (`Resource  Requests
/// Limits` header, rows `cpu  16 (12%)  16 (12%)` and `nvidia.com/gpu  6  6`) as
/// `name=quantity` pairs; empty when the table has no such header (kubectl before v1.8 printed
/// one `CPU Requests  CPU Limits ...` row without extended resources).
fn allocated_rows(section: &Section<'_>) -> Vec<(String, Quantity)> {
    let mut out = Vec::new();
    let mut in_table = false;
    for line in &section.lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"Resource") && words.get(1) == Some(&"Requests") {
            in_table = true;
            continue;
        }
        if !in_table || words.len() < 2 || words[0].starts_with('-') {
            continue;
        }
        if let Ok(q) = words[1].parse::<Quantity>() {
            out.push((words[0].to_owned(), q));
        }
        if out.len() >= 64 {
            break;
        }
    }
    out
}

/// Annotation on a node read from `kubectl get nodes -o custom-columns=...` output whose
/// resource columns printed `<none>` (kubectl's missing value): the comma-separated fields
/// known to be absent (`status.capacity.nvidia.com/gpu`), not merely unknown.
pub const ABSENT_ANNOTATION: &str = "cube-model.invalid/absent";

/// Nodes read from `kubectl get nodes -o custom-columns=...` output (and `-o jsonpath=` rows of
/// a node name and resource fields, an absent field printing nothing) anywhere in a paste whose
/// command is shown apart from it (in a fence or backticks above, without a prompt, prose
/// between them, the table quoted with `> ` and `\<none\>` escaped): the table is found by its
/// header of the command's column names. Partial nodes ([`PARTIAL_ANNOTATION`]; `<none>` cells
/// in [`ABSENT_ANNOTATION`]), and the values that do not parse as problems.
pub fn query_nodes(text: &str) -> (Vec<Node>, Vec<LoadProblem>) {
    let mut raw = Vec::new();
    let nodes = node_paths::query_nodes(text, &mut raw);
    let problems = raw
        .into_iter()
        .map(|(field, value, error)| LoadProblem {
            field,
            message: format!("{value:?}: {error}"),
            ..LoadProblem::default()
        })
        .collect();
    (nodes, problems)
}

/// Annotation on a node read from a `kubectl get nodes -L key,...` row: the label keys its
/// label columns showed (comma-separated). Its other labels are unknown, but for these keys an
/// empty cell says the node lacks the label (kubectl prints the value, or nothing).
pub const LABELS_SHOWN_ANNOTATION: &str = "cube-model.invalid/labels-shown";

/// True when the node's label `key` was shown, by its labels being known or by a `-L` column
/// ([`LABELS_SHOWN_ANNOTATION`]).
pub fn label_known(meta: &ObjectMeta, key: &str) -> bool {
    !is_unknown(meta, "labels")
        || meta
            .annotations
            .get(LABELS_SHOWN_ANNOTATION)
            .is_some_and(|v| v.split(',').any(|k| k == key))
}

/// True when `meta` is of an object read from a `kubectl get` table that does not show `field`
/// (one of the names in its [`PARTIAL_ANNOTATION`], such as `allocatable`, `tolerations`,
/// `requests`): the field's absence says nothing.
pub fn is_unknown(meta: &ObjectMeta, field: &str) -> bool {
    meta.annotations
        .get(PARTIAL_ANNOTATION)
        .and_then(|v| v.split_once("unknown: "))
        .is_some_and(|(_, list)| list.split(", ").any(|f| f == field))
}

/// Annotation on a DaemonSet read from a `kubectl describe daemonset` block whose status lines
/// (`Desired Number of Nodes Scheduled: 0`) were shown: `kubectl describe` reads the live
/// object, so its counts are the live status.
pub const STATUS_SHOWN_ANNOTATION: &str = "cube-model.invalid/status-shown";

/// Annotation on a pod read from a `kubectl get pods` row: its `AGE` cell as kubectl printed
/// it (`45s`, `5m30s`, `3h`, `2d`, `3y20d`; kubectl's `duration.HumanDuration` of now minus
/// `metadata.creationTimestamp`). [`human_duration_secs`] reads it back.
pub const AGE_ANNOTATION: &str = "cube-model.invalid/age";

/// Annotation on a pod read from a `kubectl get pods` row: its `RESTARTS` count, the sum of its
/// containers' `restartCount` (kubectl `printPod`; kubectl 1.22+ adds `(5m ago)`, which is not
/// kept), when above zero. A row whose STATUS is a terminated reason (`Error`, `OOMKilled`,
/// `Init:Error`) with restarts is a container the kubelet restarts (restartPolicy Always or
/// OnFailure, between back-offs), not a finished pod: its phase is read as Running
/// (`Init:` rows: Pending).
pub const RESTARTS_ANNOTATION: &str = "cube-model.invalid/restarts";

/// Annotation on a pod read from `kubectl describe pod`: how long it has been Terminating, as
/// kubectl printed it. `describePod` (k8s.io/kubectl/pkg/describe/describe.go) hides the phase
/// of a deleted pod behind `Status: Terminating (lasts <since deletionTimestamp>)` and
/// `Termination Grace Period: <n>s`; the pod's `status.reason` is then `Terminating` and its
/// phase `Running`. [`human_duration_secs`] reads the value back (`<invalid>`: the deletion
/// time is still ahead, within the grace period). Before v1.14 kubectl printed `Terminating
/// (expires <deletionTimestamp>)`: read into `metadata.deletionTimestamp`.
pub const TERMINATING_FOR_ANNOTATION: &str = "cube-model.invalid/terminating-for";

/// Seconds of a kubectl `AGE` cell (apimachinery `duration.HumanDuration` / `ShortHumanDuration`:
/// number-unit pairs with units `s`, `m`, `h`, `d` and `y` = 365 days, such as `5m30s`, `2d3h`,
/// `3y20d`); `None` for `<unknown>`, `<invalid>` and any other text.
pub fn human_duration_secs(cell: &str) -> Option<i64> {
    let cell = cell.trim();
    if cell.is_empty() {
        return None;
    }
    let mut total: i64 = 0;
    let mut num = String::new();
    for c in cell.chars() {
        if c.is_ascii_digit() {
            if num.len() >= 12 {
                return None;
            }
            num.push(c);
            continue;
        }
        let unit: i64 = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'y' => 365 * 86_400,
            _ => return None,
        };
        let n: i64 = num.parse().ok()?;
        num.clear();
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    num.is_empty().then_some(total)
}

/// Whether an object's status counts were shown by kubectl (a `kubectl get` table row, which
/// [`PARTIAL_ANNOTATION`] marks, or a `describe` block with its status lines,
/// [`STATUS_SHOWN_ANNOTATION`]): the counts (a DaemonSet's `DESIRED`, a Deployment's `READY`)
/// are the live status, not a manifest's defaults.
pub fn from_get_table(meta: &ObjectMeta) -> bool {
    meta.annotations.contains_key(STATUS_SHOWN_ANNOTATION)
        || meta
            .annotations
            .get(PARTIAL_ANNOTATION)
            .is_some_and(|v| v.starts_with("from a kubectl get "))
}

/// Reads every object in `text` (any mix of the supported forms). Objects that appear twice
/// (the same table pasted twice, a `describe node` and a `get nodes -o wide` row of the same
/// node) are merged into one: the first keeps its fields and gains those only the later one
/// has.
pub fn parse_text(text: &str) -> ParsedText {
    let mut out = ParsedText::default();
    let joined = join_wrapped_scheduler_messages(text);
    let text = joined.as_ref();
    let rejoined = join_wrapped_describe_messages(text);
    let text = rejoined.as_ref();
    let rows_joined = join_wrapped_event_rows(text);
    let text = rows_joined.as_ref();
    // a line that only marks left-out output (`...`, `…`, `[...]`) ends the section above it,
    // like a blank line: it is no resource, label or row
    let mut lines: Vec<&str> = content_lines(text)
        .map(|l| if is_elision(l) { "" } else { l })
        .collect();
    // node facts printed as field paths, label maps or custom columns: read first, their lines
    // left out of the describe and table readers
    let path_nodes = read_node_paths(&mut lines, &mut out.problems);
    let mut i = 0;
    let mut block: Option<Block<'_>> = None;
    let mut block_index = 0usize;
    // the namespace a shown command (`$ kubectl get pods -n team-a`) asked for, and where the
    // objects read since that command start
    let mut namespace: Option<(String, Marks)> = None;
    // the object a shown `kubectl describe <kind> <name>` names: an excerpt of its output
    // (`| grep -A6 Capacity`, `| tail`) has no `Name:` line
    let mut described: Option<((&'static str, String), Marks)> = None;
    // the workload kind a shown `kubectl get <resource>` asked for (`get rc` and `get rs`
    // print the same columns)
    let mut asked: Option<&'static str> = None;
    // the last shown command line
    let mut command: Option<&str> = None;
    // the label keys a shown `kubectl get nodes -L a,b` asked for as columns
    let mut label_columns: Vec<String> = Vec::new();
    // a shown command whose output is filtered (`| grep`, `| head`), with the number of nodes
    // read before its output
    let mut filtered: Option<(&str, usize)> = None;
    while i < lines.len() {
        let line = lines[i];
        if let Some(cmd) = crate::paste::prompt_command(line) {
            flush(&mut block, &mut out, &mut block_index);
            if let Some((object, mark)) = described.take() {
                mark.apply_object(&mut out, object.0, &object.1);
            }
            if let Some((ns, mark)) = namespace.take() {
                mark.apply_namespace(&mut out, &ns);
            }
            if let Some((c, mark)) = filtered.take() {
                mark_filtered_nodes(&mut out, mark, c);
            }
            command = Some(cmd);
            label_columns = command_label_columns(cmd);
            filtered = is_filtered(cmd).then_some((cmd, out.nodes.len()));
            namespace = command_namespace(cmd).map(|ns| (ns, Marks::of(&out)));
            asked = command_get_kind(cmd);
            described = command_object(cmd).map(|o| (o, Marks::of(&out)));
            i += 1;
            continue;
        }
        // the `labels:` key above a node's label lines (`-o yaml | grep -A40 labels:`)
        if block.is_none()
            && line.trim() == "labels:"
            && lines[i + 1..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| {
                    matches!(
                        excerpt_line(l),
                        Some(ExcerptLine::KeyValue(..) | ExcerptLine::Label(..))
                    )
                })
        {
            i += 1;
            continue;
        }
        if block.is_none()
            && excerpt_line(line).is_some()
            && let Some(end) = excerpt_run(&lines, i)
        {
            // labels / annotations / resources of one node without their structure (a grep
            // of `describe node` that lost its indentation, or of `get node -o yaml`)
            for group in excerpt_groups(&lines[i..end]) {
                out.nodes.push(node_from_excerpt(&group, command));
            }
            i = end;
            continue;
        }
        if block.is_none() && is_label_line(line) {
            // a grep excerpt of `describe node` (label lines without `Labels:`): a node block
            // whose Labels section they are
            block = Some(Block {
                sections: vec![Section {
                    key: "Labels",
                    inline: "",
                    lines: vec![line],
                }],
            });
            i += 1;
            continue;
        }
        // `kubectl get pods` rows without their header (`--no-headers`, `| grep`, or pasted
        // without it)
        if block.is_none()
            && !line.starts_with([' ', '\t'])
            && let Some(cells) = headerless_pod_row(line, command.and_then(command_pods_namespaced))
        {
            out.pods.extend(pod_from_row(&cells));
            i += 1;
            continue;
        }
        // `kubectl get nodes` rows without their header
        if block.is_none()
            && !line.starts_with([' ', '\t'])
            && let Some(cells) = headerless_node_row(line)
        {
            out.nodes.extend(node_from_row(&cells, &label_columns));
            i += 1;
            continue;
        }
        if block.is_none() || line.trim().is_empty() || !line.starts_with(' ') {
            if let Some(kind) = table_kind(line) {
                flush(&mut block, &mut out, &mut block_index);
                i = parse_table(kind, &lines, i, &mut out, asked, &label_columns);
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
            if is_quota_header(line) || is_limits_header(line) {
                // the table of `describe quota` / `describe limitrange`, at column 0
                let key = if is_quota_header(line) {
                    "Resource Table"
                } else {
                    "Limits Table"
                };
                let end = table_end(&lines, i);
                block
                    .get_or_insert_with(Block::default)
                    .sections
                    .push(Section {
                        key,
                        inline: "",
                        lines: lines.get(i..end).unwrap_or_default().to_vec(),
                    });
                i = end;
                continue;
            }
        }
        // a mount error's `Mounting command:` / `Output:` lines (and the output's own lines),
        // printed at column 0 by describe after an event row: part of that event's message,
        // not keys of their own
        if let Some(section) = block.as_mut().and_then(|b| b.sections.last_mut())
            && section.key == "Events"
            && !line.trim().is_empty()
            && !line.starts_with(' ')
            && (is_mount_continuation(line)
                || section
                    .lines
                    .iter()
                    .rev()
                    .take_while(|l| !is_event_row(l))
                    .any(|l| l.trim_start().starts_with("Output:")))
        {
            section.lines.push(line);
            i += 1;
            continue;
        }
        if let Some((key, inline)) = top_key(line) {
            // `Name:` starts the next object; so does a key the block already has (a grep of
            // several objects' describe output, `describe node | egrep 'Roles|pci'`)
            if block
                .as_ref()
                .is_some_and(|b| !b.sections.is_empty() && (key == "Name" || b.get(key).is_some()))
            {
                flush(&mut block, &mut out, &mut block_index);
            }
            let b = block.get_or_insert_with(Block::default);
            b.sections.push(Section {
                key,
                inline,
                lines: Vec::new(),
            });
        } else if let Some(b) = block.as_mut()
            && is_grep_excerpt(b)
            && let Some(name) = resource_line_name(line)
        {
            // `  nvidia.com/gpu:  0` of the same grep: describe prints Capacity, then
            // Allocatable, so a name's first line is its capacity and the second its
            // allocatable
            let in_capacity = b
                .get("Capacity")
                .is_some_and(|c| c.lines.iter().any(|l| resource_line_name(l) == Some(name)));
            let key = if in_capacity {
                "Allocatable"
            } else {
                "Capacity"
            };
            match b.sections.iter_mut().find(|s| s.key == key) {
                Some(s) => s.lines.push(line),
                None => b.sections.push(Section {
                    key,
                    inline: "",
                    lines: vec![line],
                }),
            }
        } else if let Some(b) = block.as_mut()
            && let Some(section) = b.sections.last_mut()
        {
            if line.starts_with(' ') || line.starts_with('\t') {
                if section.key != "Conditions"
                    && (is_conditions_header(line) || is_conditions_row(line, 5))
                {
                    // an excerpt that lost its `Conditions:` line: the table still says what
                    // it is
                    b.sections.push(Section {
                        key: "Conditions",
                        inline: "",
                        lines: vec![line],
                    });
                } else {
                    section.lines.push(line);
                }
            } else if section.key == "Events" && line.starts_with("fit failure on node (") {
                // kube-scheduler v1.3-v1.4 FitError: the event message goes on with one line per
                // node, printed at column 0 by describe
                section.lines.push(line);
            } else if section.key == "Events"
                && section.lines.last().is_some_and(|l| {
                    (is_event_row(l) || (!l.starts_with([' ', '\t']) && !l.trim().is_empty()))
                        && !l.trim_end().ends_with('.')
                })
                && !line.trim().is_empty()
                && !starts_sentence(line)
                && crate::paste::prompt_command(line).is_none()
                && table_kind(line).is_none()
            {
                // an event message wrapped by a terminal or an issue editor: its rest at
                // column 0 below the row (joined to it by describe_events)
                section.lines.push(line);
            } else if line.trim().is_empty() {
                // Blank lines separate objects; keep the block open (a `Name:` starts the next).
            } else if !line.trim().contains(' ') && !line.contains(':') {
                // the end of a long line wrapped by the terminal or the issue editor
                // (`... from default-token-k95tg` / `(ro)`): part of the section, not the end
                // of the block
                section.lines.push(line);
            } else if i > 0
                && !lines[i - 1].trim().is_empty()
                && lines
                    .get(i + 1)
                    .and_then(|n| top_key(n))
                    .is_some_and(|(k, _)| k != "Name")
                && crate::paste::prompt_command(line).is_none()
            {
                // a line a terminal wrapped at column 0 inside the block (no blank line before
                // it, the block's next key right after it): the block goes on; free text
                // between two objects stands apart or is followed by the next `Name:`
                section.lines.push(line);
            } else {
                // Free text between blocks.
                flush(&mut block, &mut out, &mut block_index);
            }
        }
        i += 1;
    }
    flush(&mut block, &mut out, &mut block_index);
    // the container part of a `describe pod` alone (`State: Waiting` / `Last State:
    // Terminated` / `Reason: OOMKilled`, cut out of the output): one pod, named by a shown
    // `kubectl describe pod <name>` when there is one
    if out.pods.is_empty()
        && let Some(pod) = container_state_fragment(text)
    {
        out.pods.push(pod);
    }
    if let Some((c, mark)) = filtered.take() {
        mark_filtered_nodes(&mut out, mark, c);
    }
    if let Some((object, mark)) = described.take() {
        mark.apply_object(&mut out, object.0, &object.1);
    }
    if let Some((ns, mark)) = namespace.take() {
        mark.apply_namespace(&mut out, &ns);
    }
    out.nodes.extend(path_nodes);
    merge_repeats(&mut out);
    // `nvidia-smi` / `rocm-smi` listings pasted with the node
    for note in crate::smi::attach(text, &mut out.nodes) {
        out.problems.push(LoadProblem {
            field: "nvidia-smi".to_owned(),
            message: note,
            ..LoadProblem::default()
        });
    }
    out
}

/// `text` with a describe's `Message:` value that a terminal wrapped at its width joined back
/// into its line: `kubectl describe pod` prints the pod's status message on one line, and a
/// terminal (or the issue editor it was copied into) breaks it at the column, mid-word or not,
/// the rest at column 0 (`Message: ... was using 1275700Ki, which e` / `xceeds its request of
/// 0.`). A continuation is a column-0 line with no describe key, table header, event row or
/// prompt, followed by a describe key, a blank line or the end (at most 3 lines): the message
/// then reads whole and the lines after it stay in the same object. A break inside a word
/// (the line ends with a letter and the next starts with a lower-case letter) is joined without
/// a space; the joined lines are left blank so the others keep their numbers. Unchanged
/// (borrowed) when nothing is wrapped.
/// Rows of a `kubectl get events` table whose MESSAGE a terminal or an issue editor wrapped:
/// the row ends with a comma (the ResourceQuota admission error breaks after `exceeded quota:
/// <name>,` at 80 columns) and the next line is indented text that starts with a lower-case
/// word (`requested: ..., used: ..., limited: ...`), not a row of its own. The continuation is
/// appended to the row (at most 3 lines) and dropped (a blank line would end the table).
fn join_wrapped_event_rows(text: &str) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = text.split('\n').collect();
    let continues = |l: &str| {
        let t = l.trim_end_matches('\r');
        t.starts_with([' ', '\t'])
            && t.trim_start().starts_with(|c: char| c.is_ascii_lowercase())
            && !is_event_row(t.trim_start())
    };
    let mut in_events = false;
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut changed = false;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim_end_matches('\r');
        if l.trim().is_empty() {
            in_events = false;
        } else if table_kind(l) == Some(TableKind::Events) {
            in_events = true;
        }
        if in_events && l.trim_end().ends_with(',') {
            let n = (1..=3)
                .take_while(|k| lines.get(i + k).is_some_and(|x| continues(x)))
                .count();
            if n > 0 {
                let mut joined = l.trim_end().to_owned();
                for x in &lines[i + 1..=i + n] {
                    joined.push(' ');
                    joined.push_str(x.trim());
                }
                out.push(joined);
                // dropped, not blanked: a blank line would end the table
                changed = true;
                i += n + 1;
                continue;
            }
        }
        out.push(lines[i].to_owned());
        i += 1;
    }
    if changed {
        std::borrow::Cow::Owned(out.join("\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

fn join_wrapped_describe_messages(text: &str) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = text.split('\n').collect();
    let continuation = |l: &str| {
        let t = l.trim_end_matches('\r');
        !t.trim().is_empty()
            && !t.starts_with([' ', '\t', '$', '#', '>', '`', '-', '|', '['])
            && top_key(t).is_none()
            && table_kind(t).is_none()
            && !is_event_row(t)
            && !is_describe_events_header(t)
            && crate::paste::prompt_command(t).is_none()
    };
    let bounded = |l: Option<&&str>| {
        l.is_none_or(|l| {
            let t = l.trim_end_matches('\r');
            t.trim().is_empty() || top_key(t).is_some()
        })
    };
    // the wrapped message's line and how many lines continue it
    let wrapped_at = |i: usize| -> Option<usize> {
        let (key, value) = top_key(lines[i].trim_end_matches('\r'))?;
        if key != "Message" || value.is_empty() {
            return None;
        }
        let n = (1..=3)
            .take_while(|k| lines.get(i + k).is_some_and(|l| continuation(l)))
            .count();
        (n > 0 && bounded(lines.get(i + n + 1))).then_some(n)
    };
    if !(0..lines.len()).any(|i| wrapped_at(i).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        match wrapped_at(i) {
            Some(n) => {
                let mut joined = lines[i].trim_end_matches('\r').to_owned();
                for l in &lines[i + 1..=i + n] {
                    let next = l.trim_end_matches('\r');
                    let mid_word = joined.ends_with(|c: char| c.is_alphanumeric())
                        && next.starts_with(|c: char| c.is_lowercase());
                    if !mid_word && !joined.ends_with(' ') {
                        joined.push(' ');
                    }
                    joined.push_str(next.trim());
                }
                out.push(joined);
                // the joined lines stay as blank lines (a blank line keeps a describe block
                // open), so every later line keeps its number
                out.extend(std::iter::repeat_n(String::new(), n));
                i += n + 1;
            }
            None => {
                out.push(lines[i].to_owned());
                i += 1;
            }
        }
    }
    std::borrow::Cow::Owned(out.join("\n"))
}

/// `text` with scheduler messages that a terminal or an issue editor wrapped over several
/// lines joined back into one line (an Events row of `kubectl describe`, a `kubectl get events`
/// row): the scheduler's `FitError.Error()` always ends with `.` (kubernetes/kubernetes
/// `pkg/scheduler/framework/types.go`), so a line holding `0/N nodes are available:` (or
/// Volcano's `nodes are unavailable:`) that does not end with it continues on the next lines
/// (at most 3) that are neither blank, nor a describe key, nor an event row, nor another
/// message. Unchanged (borrowed) when nothing is wrapped or the message never ends.
fn join_wrapped_scheduler_messages(text: &str) -> std::borrow::Cow<'_, str> {
    const HEADERS: [&str; 2] = [" nodes are available:", " nodes are unavailable:"];
    let ended = |s: &str| {
        s.trim_end()
            .trim_end_matches(['`', '"', '\''])
            .ends_with('.')
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let opens = |l: &str| {
        HEADERS
            .iter()
            .filter_map(|h| l.find(h))
            .min()
            .is_some_and(|at| !ended(&l[at..]))
    };
    if !lines.iter().any(|l| opens(l)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if !opens(l) {
            out.push(l.to_owned());
            i += 1;
            continue;
        }
        let mut joined = l.trim_end_matches('\r').trim_end().to_owned();
        let mut k = 1;
        let mut done = false;
        while k <= 3 {
            let Some(next) = lines.get(i + k) else { break };
            let t = next.trim_end_matches('\r').trim();
            if t.is_empty()
                || top_key(next).is_some()
                || is_event_row(next)
                || is_describe_events_header(next)
                || HEADERS.iter().any(|h| t.contains(h))
            {
                break;
            }
            joined.push(' ');
            joined.push_str(t);
            k += 1;
            if ended(&joined) {
                done = true;
                break;
            }
        }
        if done {
            out.push(joined);
            i += k;
        } else {
            out.push(l.to_owned());
            i += 1;
        }
    }
    std::borrow::Cow::Owned(out.join("\n"))
}

/// Node facts printed as field paths, label maps or `custom-columns` tables (see
/// [`node_paths`]): one partial node per named node (or one unnamed), in order of first
/// mention. Lines read are blanked in `lines`.
fn read_node_paths(lines: &mut [&str], problems: &mut Vec<LoadProblem>) -> Vec<Node> {
    use node_paths::{NodeFacts, PathFact};
    let mut facts: Vec<(String, NodeFacts)> = Vec::new();
    fn slot<'f>(facts: &'f mut Vec<(String, NodeFacts)>, name: &str) -> &'f mut NodeFacts {
        let at = match facts.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                facts.push((name.to_owned(), NodeFacts::default()));
                facts.len() - 1
            }
        };
        &mut facts[at].1
    }
    let mut current = String::new();
    let mut columns: Option<Vec<(String, String)>> = None;
    let mut header_seen = false;
    // the field paths of a `-o jsonpath=` command and, when it prints one map, that map's path
    let mut jsonpath: Option<Vec<String>> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(cmd) = crate::paste::prompt_command(line) {
            current = node_paths::command_node(cmd).unwrap_or_default();
            let gets_nodes = cmd
                .split_whitespace()
                .any(|w| matches!(w, "node" | "nodes" | "no") || w.starts_with("node/"));
            columns = node_paths::custom_columns(cmd).filter(|_| gets_nodes);
            jsonpath = node_paths::jsonpath_fields(cmd).filter(|_| gets_nodes);
            header_seen = false;
            i += 1;
            continue;
        }
        let t = line.trim();
        if t.is_empty() {
            i += 1;
            continue;
        }
        if let Some(cols) = &columns {
            if !header_seen {
                header_seen = true;
                lines[i] = "";
                i += 1;
                continue;
            }
            let cells: Vec<&str> = t.split_whitespace().collect();
            if cells.len() == cols.len() {
                let name = cols
                    .iter()
                    .zip(&cells)
                    .find(|((_, p), _)| p.trim_start_matches('.') == "metadata.name")
                    .map_or_else(|| current.clone(), |(_, c)| (*c).to_owned());
                slot(&mut facts, &name);
                for ((_, path), cell) in cols.iter().zip(&cells) {
                    if *cell == "<none>" {
                        // kubectl's missing value: the field is absent, known
                        slot(&mut facts, &name)
                            .absent
                            .extend(node_paths::absent_field(path));
                        continue;
                    }
                    if let Some(f) = node_paths::path_fact(&format!("{path}: {cell}")) {
                        slot(&mut facts, &name).add(f);
                    }
                }
                lines[i] = "";
                i += 1;
                continue;
            }
            columns = None;
        }
        if let Some(fields) = &jsonpath {
            let map_field = (fields.len() == 1)
                .then(|| fields[0].trim_start_matches('.'))
                .filter(|f| {
                    matches!(
                        *f,
                        "status.capacity" | "status.allocatable" | "metadata.labels"
                    )
                });
            if let Some(field) = map_field {
                // one map, on one line or split into lines (Go's `map[k:v ...]` print before
                // kubectl's jsonpath printed JSON)
                let go_map = t
                    .strip_prefix("map[")
                    .and_then(|r| r.strip_suffix(']'))
                    .map(|inner| {
                        inner
                            .split_whitespace()
                            .filter_map(|kv| kv.split_once(':'))
                            .map(|(k, v)| (k.to_owned(), v.to_owned()))
                            .collect::<Vec<_>>()
                    });
                let entries: Vec<(String, String)> = if let Some(e) = go_map {
                    e
                } else if t.starts_with('{') && t.ends_with('}') {
                    t.trim_matches(['{', '}'])
                        .split(',')
                        .filter_map(node_paths::map_entry)
                        .collect()
                } else {
                    node_paths::map_entry(t).into_iter().collect()
                };
                if !entries.is_empty() {
                    for (k, v) in entries {
                        if let Some(f) = node_paths::path_fact(&format!("{field}.\"{k}\": {v}")) {
                            slot(&mut facts, &current).add(f);
                        }
                    }
                    lines[i] = "";
                    i += 1;
                    continue;
                }
            } else {
                let cells: Vec<&str> = t.split_whitespace().collect();
                if cells.len() == fields.len() {
                    let name = fields
                        .iter()
                        .zip(&cells)
                        .find(|(p, _)| p.trim_start_matches('.') == "metadata.name")
                        .map_or_else(|| current.clone(), |(_, c)| (*c).to_owned());
                    for (path, cell) in fields.iter().zip(&cells) {
                        if let Some(f) = node_paths::path_fact(&format!("{path}: {cell}")) {
                            slot(&mut facts, &name).add(f);
                        }
                    }
                    lines[i] = "";
                    i += 1;
                    continue;
                }
            }
            jsonpath = None;
        }
        // a node's labels as one map (`jq .metadata.labels` over several lines, one line of
        // JSON, Go's `map[...]`): named by the command, else by its hostname label
        if t.starts_with('{') || t.starts_with("map[") {
            let end = if t.ends_with('}') || t.ends_with(']') {
                Some(i)
            } else {
                lines[i + 1..]
                    .iter()
                    .take(500)
                    .position(|l| l.trim() == "}")
                    .map(|n| i + 1 + n)
            };
            if let Some(end) = end
                && let Some(labels) = node_paths::node_label_map(&lines[i..=end].join("\n"))
            {
                let name = if current.is_empty() {
                    labels
                        .iter()
                        .find(|(k, _)| k == "kubernetes.io/hostname")
                        .map(|(_, v)| v.clone())
                        .unwrap_or_default()
                } else {
                    current.clone()
                };
                slot(&mut facts, &name).labels.extend(labels);
                for l in &mut lines[i..=end] {
                    *l = "";
                }
                i = end + 1;
                continue;
            }
        }
        // `Node: <name>` / `Name: <name>` naming the path lines that follow it
        if let Some((key, value)) = t.split_once(':')
            && matches!(key, "Node" | "Name" | "node")
            && !value.trim().is_empty()
            && !value.trim().contains(' ')
            && lines[i + 1..]
                .iter()
                .find(|l| !l.trim().is_empty())
                .is_some_and(|l| node_paths::path_fact(l).is_some())
        {
            current = value.trim().to_owned();
            lines[i] = "";
            i += 1;
            continue;
        }
        if let Some(f) = node_paths::path_fact(t) {
            match f {
                PathFact::Name(n) => current = n,
                f => slot(&mut facts, &current).add(f),
            }
            lines[i] = "";
        } else if let Some((k, v)) = node_paths::label_map_entry(t) {
            slot(&mut facts, &current).labels.insert(k, v);
            lines[i] = "";
        }
        i += 1;
    }
    let mut out = Vec::new();
    for (name, f) in facts {
        let (node, bad) = f.into_node(&name);
        for (field, value, err) in bad {
            problems.push(LoadProblem {
                object: format!("Node/{name}"),
                field,
                message: format!("invalid quantity {value:?}: {err}"),
                ..LoadProblem::default()
            });
        }
        out.push(node);
    }
    out
}

/// The namespace of a `kubectl` command line: `-n X`, `-nX`, `-n=X` (pflag shorthand with
/// `=`), `--namespace X`, `--namespace=X`, quotes removed; `None` without one (kubectl then
/// uses the context's namespace) and for `-A` / `--all-namespaces[=true]`.
fn command_namespace(cmd: &str) -> Option<String> {
    // the kubectl part of a pipeline (`kubectl describe pod x | sed -n ...`: sed's -n is not
    // kubectl's)
    let kubectl_part = cmd.split(['|', ';']).next().unwrap_or(cmd);
    let words: Vec<&str> = kubectl_part.split_whitespace().collect();
    let is_kubectl = words.iter().any(|w| {
        let p = w.rsplit('/').next().unwrap_or(w);
        matches!(p, "kubectl" | "k" | "oc" | "kubectl.exe")
    });
    if !is_kubectl
        || words
            .iter()
            .any(|w| matches!(*w, "-A" | "--all-namespaces" | "--all-namespaces=true"))
    {
        return None;
    }
    for (i, w) in words.iter().enumerate() {
        let value = match *w {
            "-n" | "--namespace" => words.get(i + 1).copied(),
            _ => w.strip_prefix("--namespace=").or_else(|| {
                w.strip_prefix("-n")
                    .filter(|v| !v.is_empty() && !v.starts_with('-'))
            }),
        };
        let value = value.map(|v| {
            let v = v.strip_prefix('=').unwrap_or(v);
            v.trim_matches(['"', '\''])
        });
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            return Some(v.to_owned());
        }
    }
    None
}

/// The kind (`Node`, `Pod`, `DaemonSet`, `Deployment`, `StatefulSet`, `ReplicaSet`,
/// `ReplicationController` or `Job`) and name of the one object a `kubectl describe` (or
/// `kubectl get`) command line names (`describe node gpu-01`, `describe pods/train-0`,
/// `describe po train-0 -n x`, `describe ds nvidia-device-plugin -n kube-system | tail`, `get
/// node gpu-01 -o yaml`); `None` for other commands, other kinds, and several names or a
/// selector.
fn command_object(cmd: &str) -> Option<(&'static str, String)> {
    let words: Vec<&str> = cmd.split('|').next()?.split_whitespace().collect();
    // `describe`, or `get` of one object (`kubectl get node X -o yaml | grep nvidia`: an
    // excerpt of its output has no name either)
    let at = words.iter().position(|w| *w == "describe" || *w == "get")?;
    let is_kubectl = words[..at].iter().any(|w| {
        let p = w.rsplit('/').next().unwrap_or(w);
        matches!(p, "kubectl" | "k" | "oc" | "kubectl.exe")
    });
    if !is_kubectl {
        return None;
    }
    // positional words after `describe`, flags (and the value of `-n`/`--namespace`) skipped
    let mut positional = Vec::new();
    let mut skip = false;
    for w in &words[at + 1..] {
        if skip {
            skip = false;
        } else if matches!(
            *w,
            "-n" | "--namespace"
                | "-l"
                | "--selector"
                | "--context"
                | "-o"
                | "--output"
                | "-L"
                | "--label-columns"
        ) {
            skip = true;
        } else if !w.starts_with('-') {
            positional.push(*w);
        } else if matches!(*w, "-l" | "--all-namespaces" | "-A") || w.starts_with("--selector") {
            return None;
        }
    }
    // kubectl's resource names and short names (`kubectl api-resources`)
    let kind_of = |r: &str| match r.to_ascii_lowercase().split('.').next().unwrap_or("") {
        "node" | "nodes" | "no" => Some("Node"),
        "pod" | "pods" | "po" => Some("Pod"),
        "daemonset" | "daemonsets" | "ds" => Some("DaemonSet"),
        "deployment" | "deployments" | "deploy" => Some("Deployment"),
        "statefulset" | "statefulsets" | "sts" => Some("StatefulSet"),
        "replicaset" | "replicasets" | "rs" => Some("ReplicaSet"),
        "replicationcontroller" | "replicationcontrollers" | "rc" => Some("ReplicationController"),
        "job" | "jobs" => Some("Job"),
        _ => None,
    };
    let (kind, name) = match positional.as_slice() {
        [one] => {
            let (r, n) = one.split_once('/')?;
            (kind_of(r)?, n)
        }
        [r, n] => (kind_of(r)?, *n),
        _ => return None,
    };
    let name = name.trim_matches(['"', '\'']);
    (!name.is_empty()).then(|| (kind, name.to_owned()))
}

/// Lengths of the namespaced vectors of a [`ParsedText`], to find what was read after a point.
#[derive(Debug, Clone, Copy)]
struct Marks {
    nodes: usize,
    pods: usize,
    events: usize,
    daemon_sets: usize,
    workloads: usize,
    resource_quotas: usize,
    limit_ranges: usize,
    persistent_volume_claims: usize,
}

impl Marks {
    fn of(p: &ParsedText) -> Self {
        Marks {
            nodes: p.nodes.len(),
            pods: p.pods.len(),
            events: p.events.len(),
            daemon_sets: p.daemon_sets.len(),
            workloads: p.workloads.len(),
            resource_quotas: p.resource_quotas.len(),
            limit_ranges: p.limit_ranges.len(),
            persistent_volume_claims: p.persistent_volume_claims.len(),
        }
    }

    /// Gives the name of the described object (`kind` `Node`, `Pod`, `DaemonSet` or a workload
    /// kind) to the objects of that
    /// kind read since the mark without a name, and to the events read since the mark whose
    /// involved object has none (the `Events:` table of the excerpt).
    fn apply_object(self, p: &mut ParsedText, kind: &str, name: &str) {
        match kind {
            "Node" => p
                .nodes
                .iter_mut()
                .skip(self.nodes)
                .filter(|n| n.metadata.name.is_empty())
                .for_each(|n| n.metadata.name = name.to_owned()),
            "Pod" => p
                .pods
                .iter_mut()
                .skip(self.pods)
                .filter(|o| o.metadata.name.is_empty())
                .for_each(|o| o.metadata.name = name.to_owned()),
            "DaemonSet" => p
                .daemon_sets
                .iter_mut()
                .skip(self.daemon_sets)
                .filter(|o| o.metadata.name.is_empty())
                .for_each(|o| o.metadata.name = name.to_owned()),
            // a workload's excerpt (`describe deploy x | tail`) is its events
            _ => p
                .workloads
                .iter_mut()
                .skip(self.workloads)
                .filter(|o| o.metadata.name.is_empty() && o.kind == kind)
                .for_each(|o| o.metadata.name = name.to_owned()),
        }
        for e in p.events.iter_mut().skip(self.events) {
            if e.involved_object.name.is_empty() {
                e.involved_object.kind = kind.to_owned();
                e.involved_object.name = name.to_owned();
            } else if e.involved_object.kind.is_empty() && e.involved_object.name == name {
                // an excerpt with its `Name:` but no key that tells the kind (`Name:`, `...`,
                // `Events:`): the command says it
                e.involved_object.kind = kind.to_owned();
            }
        }
    }

    /// Gives `ns` to the namespaced objects read since the mark that have none.
    fn apply_namespace(self, p: &mut ParsedText, ns: &str) {
        fn fill(meta: &mut ObjectMeta, ns: &str) {
            if meta.namespace.is_empty() {
                meta.namespace = ns.to_owned();
            }
        }
        p.pods
            .iter_mut()
            .skip(self.pods)
            .for_each(|o| fill(&mut o.metadata, ns));
        p.daemon_sets
            .iter_mut()
            .skip(self.daemon_sets)
            .for_each(|o| fill(&mut o.metadata, ns));
        p.workloads
            .iter_mut()
            .skip(self.workloads)
            .for_each(|o| fill(&mut o.metadata, ns));
        p.resource_quotas
            .iter_mut()
            .skip(self.resource_quotas)
            .for_each(|o| fill(&mut o.metadata, ns));
        p.limit_ranges
            .iter_mut()
            .skip(self.limit_ranges)
            .for_each(|o| fill(&mut o.metadata, ns));
        p.persistent_volume_claims
            .iter_mut()
            .skip(self.persistent_volume_claims)
            .for_each(|o| fill(&mut o.metadata, ns));
        for e in p.events.iter_mut().skip(self.events) {
            fill(&mut e.metadata, ns);
            let cluster_scoped = matches!(
                e.involved_object.kind.as_str(),
                "Node"
                    | "Namespace"
                    | "PersistentVolume"
                    | "StorageClass"
                    | "PriorityClass"
                    | "ClusterRole"
                    | "ClusterRoleBinding"
            );
            if e.involved_object.namespace.is_empty() && !cluster_scoped {
                e.involved_object.namespace = ns.to_owned();
            }
        }
    }
}

fn table_end(lines: &[&str], start: usize) -> usize {
    let events = lines
        .get(start)
        .is_some_and(|l| is_event_row(l) || is_describe_events_header(l));
    let mut end = start;
    let mut in_output = false;
    while end < lines.len() && !lines[end].trim().is_empty() {
        let l = lines[end];
        // a mount error's `Mounting command:` / `Output:` lines go on with the event's
        // message (`split_mount_continuations`)
        let cont = events && (is_mount_continuation(l) || (in_output && !is_event_row(l)));
        in_output = cont && (in_output || l.trim_start().starts_with("Output:"));
        if end > start && !cont && (top_key(l).is_some() || table_kind(l).is_some()) {
            break;
        }
        end += 1;
    }
    end
}

fn flush(block: &mut Option<Block<'_>>, out: &mut ParsedText, index: &mut usize) {
    let Some(mut b) = block.take() else { return };
    if b.sections.is_empty() {
        return;
    }
    // a pod's describe followed by a node's excerpt without `Name:` (issue pastes: "describe
    // on the pod ... describe on the nodes: Conditions/Addresses/Capacity"): two objects
    if let Some(node) = split_pod_then_node(&mut b) {
        let mut first = Some(b);
        flush(&mut first, out, index);
        let mut second = Some(node);
        flush(&mut second, out, index);
        return;
    }
    let idx = *index;
    *index += 1;
    // an Event's own fields (`Source:` is also a PV key)
    if b.inline("Kind") == "Event" || (b.has_any(&["Involved Object"]) && b.has_any(&["Reason"])) {
        event_from_block(&b, out);
    } else if b.has_any(&["Resource Quotas", "Resource Limits"]) {
        namespace_from_block(&b, idx, out);
    } else if b.has_any(&["Resource Table"]) {
        quota_from_block(&b, idx, out);
    } else if b.has_any(&["Limits Table"]) {
        limit_range_from_block(&b, idx, out);
    } else if b.has_any(&[
        "Desired Number of Nodes Scheduled",
        "Current Number of Nodes Scheduled",
        "Number of Nodes Misscheduled",
        "Node-Selector",
        "Pod Template",
        "Pods Status",
    ]) {
        daemon_set_from_block(&b, idx, out);
    } else if b.has_any(&["GlobalDefault", "PreemptionPolicy"]) && b.get("Value").is_some() {
        priority_class_from_block(&b, out);
    } else if b.has_any(&["IsDefaultClass", "Provisioner"]) {
        storage_class_from_block(&b, out);
    } else if b.has_any(PV_KEYS) {
        pv_from_block(&b, idx, out);
    } else if b.has_any(PVC_KEYS) {
        pvc_from_block(&b, idx, out);
    } else if b.has_any(NODE_KEYS)
        || b.get("Conditions")
            .is_some_and(|c| c.lines.iter().any(|l| is_node_conditions_line(l)))
    {
        node_from_block(&b, idx, out);
    } else if b.has_any(POD_KEYS) {
        pod_from_block(&b, idx, out);
    } else if b.get("Labels").is_some_and(|l| {
        std::iter::once(l.inline)
            .chain(l.lines.iter().copied())
            .any(|x| {
                matches!(excerpt_line(x), Some(ExcerptLine::Label(k, _))
                if GPU_KEY_PREFIXES.iter().any(|p| k.starts_with(p))
                    || k.starts_with("node-role.kubernetes.io/")
                    || k.starts_with("node.kubernetes.io/"))
            })
    }) {
        // `describe node | grep -A3 Labels`: a node's labels without a node key
        node_from_block(&b, idx, out);
    } else if let Some(events) = b.get("Events") {
        let involved = ObjectReference {
            name: b.inline("Name").to_owned(),
            namespace: b.inline("Namespace").to_owned(),
            ..ObjectReference::default()
        };
        out.events.extend(describe_events(events, &involved));
    }
}

/// Keys only `describe pod` prints, in every version: `Containers`, `Node`, `QoS Class`, ...
/// ([`POD_KEYS`]) and the v1.0-v1.1 ones (`Image(s)`, `Replication Controllers`:
/// pkg/kubectl/describe.go `describePod` of release-1.0/1.1).
fn is_pod_only_key(key: &str) -> bool {
    POD_KEYS.contains(&key) || matches!(key, "Image(s)" | "Replication Controllers")
}

/// Keys only `describe node` prints and that say a node's state (every version's
/// `describeNode`: `Capacity`, `Allocatable`, `System Info`, `Addresses`, ...; not `Roles` or
/// `Taints`, which greps of other objects' fields also show).
fn is_node_state_key(key: &str) -> bool {
    matches!(
        key,
        "Capacity"
            | "Allocatable"
            | "System Info"
            | "Addresses"
            | "PodCIDR"
            | "PodCIDRs"
            | "ProviderID"
            | "Non-terminated Pods"
            | "Allocated resources"
            | "ExternalID"
            | "Lease"
    )
}

/// Splits a block that holds a pod's describe (its `Name:` and pod-only keys first) and then a
/// node's keys without a `Name:` of their own: the node part starts at its first node key, or at
/// the `Conditions:` section right before it when that one is a node conditions table
/// (`LastHeartbeatTime` column). `None` when the block is one object.
fn split_pod_then_node<'a>(b: &mut Block<'a>) -> Option<Block<'a>> {
    let first_node = b.sections.iter().position(|s| is_node_state_key(s.key))?;
    let pod_before = b.sections[..first_node]
        .iter()
        .any(|s| is_pod_only_key(s.key));
    let pod_after = b.sections[first_node..]
        .iter()
        .any(|s| is_pod_only_key(s.key));
    if !pod_before || pod_after {
        return None;
    }
    let mut at = first_node;
    while at > 0 {
        let s = &b.sections[at - 1];
        let node_table = s.key == "Conditions"
            && s.lines
                .iter()
                .any(|l| is_conditions_header(l) && l.contains(NODE_CONDITIONS_COLUMN));
        if node_table || matches!(s.key, "Roles" | "Taints" | "Unschedulable") {
            at -= 1;
        } else {
            break;
        }
    }
    let node = Block {
        sections: b.sections.split_off(at),
    };
    Some(node)
}

/// `kubectl describe event`: an Event in describe form (kubectl's generic describer prints the
/// object's fields: `Involved Object:` with its `Kind`, `Name` and `Namespace` indented,
/// `Reason:`, `Message:`, `Type:`, `Count:`, `Source:` with its `Component`).
fn event_from_block(b: &Block<'_>, out: &mut ParsedText) {
    let sub = |key: &str, field: &str| -> String {
        b.get(key)
            .and_then(|s| {
                s.lines
                    .iter()
                    .filter_map(|l| split_kv(l))
                    .find(|(k, _)| k == field)
                    .map(|(_, v)| v)
            })
            .unwrap_or_default()
    };
    out.events.push(Event {
        metadata: ObjectMeta {
            name: b.inline("Name").to_owned(),
            namespace: b.inline("Namespace").to_owned(),
            ..ObjectMeta::default()
        },
        involved_object: ObjectReference {
            kind: sub("Involved Object", "Kind"),
            name: sub("Involved Object", "Name"),
            namespace: sub("Involved Object", "Namespace"),
            ..ObjectReference::default()
        },
        reason: b.inline("Reason").to_owned(),
        message: b.inline("Message").to_owned(),
        type_: b.inline("Type").to_owned(),
        count: b.inline("Count").parse().ok(),
        source: EventSource {
            component: sub("Source", "Component"),
            host: sub("Source", "Host"),
        },
        ..Event::default()
    });
}

fn meta_from_block(b: &Block<'_>) -> ObjectMeta {
    let mut meta = ObjectMeta {
        name: b.inline("Name").to_owned(),
        namespace: b.inline("Namespace").to_owned(),
        ..ObjectMeta::default()
    };
    if let Some(s) = b.get("Labels") {
        meta.labels = s.values().filter_map(split_kv).collect();
    } else {
        // a grep of `describe` that kept the label lines but not `Labels:` itself: they read
        // as continuation lines of the single-value key before them (`egrep 'Roles|pci'`)
        for s in b
            .sections
            .iter()
            .filter(|s| matches!(s.key, "Roles" | "Name" | "Namespace" | "Priority" | "Node"))
        {
            for l in &s.lines {
                if let Some(ExcerptLine::Label(k, v)) = excerpt_line(l) {
                    meta.labels.insert(k.to_owned(), v.to_owned());
                }
            }
        }
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
        meta.name = host.to_owned();
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
        let Some((name, raw)) = split_kv(line) else {
            continue;
        };
        // a note the reporter typed after the value (`nvidia.com/gpu:  7   <=== here`,
        // `# one GPU lost`): the quantity is the first word
        let value: &str = match raw.split_once(char::is_whitespace) {
            Some((q, note))
                if raw.parse::<Quantity>().is_err()
                    && q.parse::<Quantity>().is_ok()
                    && note
                        .trim_start()
                        .starts_with(['<', '#', '(', '-', '=', '/', '\u{2190}']) =>
            {
                q
            }
            _ => raw.as_str(),
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
    if node.metadata.name.is_empty()
        && let Some(lease) = b.get("Lease")
    {
        // an excerpt without `Name:`: the node's Lease (kube-node-lease, v1.14+ describe) is
        // held by the kubelet under the node's name (pkg/kubelet/nodelease)
        node.metadata.name = lease
            .values()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim() == "HolderIdentity")
            .map(|(_, v)| none_to_empty(v.trim()).to_owned())
            .unwrap_or_default();
    }
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
        node.status.conditions = conditions_rows(s, &NODE_CONDITIONS_COLUMNS)
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
    if let Some(s) = b.get("Allocated resources") {
        let rows = allocated_rows(s);
        if !rows.is_empty() {
            let v: Vec<String> = rows.iter().map(|(k, q)| format!("{k}={q}")).collect();
            node.metadata
                .annotations
                .insert(ALLOCATED_ANNOTATION.to_owned(), v.join(","));
        }
    }
    if let Some(s) = b.get("Non-terminated Pods") {
        out.pods.extend(node_pod_rows(s, &node.metadata.name));
    } else if let Some(s) = b.get("Pods").filter(|s| s.inline.contains("in total")) {
        // v1.0 `describeNode`: `Pods:\t(N in total)` then `  Namespace\tName` rows
        // (pkg/kubectl/describe.go of release-1.0)
        out.pods.extend(node_pod_rows(s, &node.metadata.name));
    }
    out.nodes.push(node);
}

/// The rows of `describe node`'s `Non-terminated Pods:` table (`Namespace  Name  CPU Requests
/// ...`, printed by `describeNodeResource` in k8s.io/kubectl/pkg/describe/describe.go): pods
/// bound to `node` whose phase is not Succeeded or Failed. Only the namespace and name are
/// kept: the request columns are rounded and per pod, and the pods carry
/// [`PARTIAL_ANNOTATION`] (containers, requests, state and scheduling fields unknown).
fn node_pod_rows(section: &Section<'_>, node: &str) -> Vec<Pod> {
    table_rows(section)
        .into_iter()
        .filter_map(|row| {
            let name = none_to_empty(row.get("Name")?.trim()).to_owned();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return None;
            }
            let mut pod = Pod::default();
            pod.metadata.name = name;
            pod.metadata.namespace = row
                .get("Namespace")
                .map(|n| n.trim().to_owned())
                .unwrap_or_default();
            pod.metadata.annotations.insert(
                PARTIAL_ANNOTATION.to_owned(),
                "from the Non-terminated Pods table of kubectl describe node; unknown: containers, requests, tolerations, node selector, affinity, status".to_owned(),
            );
            pod.spec.node_name = node.to_owned();
            Some(pod)
        })
        .collect()
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
    // kubectl v1.0-v1.1 wrote describe tables with bare tabs (no tabwriter alignment: `Type\t\t
    // Status\tLastHeartbeatTime...`, pkg/kubectl/describe.go of release-1.0): columns are the
    // tab-separated cells then, not positions
    let tabbed = |l: &str| -> Vec<String> {
        l.split('\t')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let tab_names = tabbed(header);
    let by_tabs = header.contains('\t') && tab_names.len() >= 2;
    let names = if by_tabs {
        tab_names
    } else {
        table_cells(&starts, header)
    };
    lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().starts_with("----"))
        .map(|row| {
            let cells = if by_tabs && row.contains('\t') {
                tabbed(row)
            } else {
                table_cells(&starts, row)
            };
            names.iter().cloned().zip(cells).collect()
        })
        .collect()
}

/// The columns of the node conditions table (`describeNode`).
const NODE_CONDITIONS_COLUMNS: [&str; 6] = [
    "Type",
    "Status",
    NODE_CONDITIONS_COLUMN,
    "LastTransitionTime",
    "Reason",
    "Message",
];

/// A conditions row without its header (an excerpt): `Ready  False  <time>  <time>  Reason
/// Message`, the type a CamelCase word and the status `True`, `False` or `Unknown`, with at
/// least `min_cells` cells.
fn is_conditions_row(line: &str, min_cells: usize) -> bool {
    let cells = split_wide(line, 6);
    cells.len() >= min_cells
        && cells[0].starts_with(|c: char| c.is_ascii_uppercase())
        && cells[0].chars().all(|c| c.is_ascii_alphanumeric())
        && matches!(cells[1].as_str(), "True" | "False" | "Unknown")
}

/// A line only the node conditions table has: its header (with `LastHeartbeatTime`) or a row
/// of its six cells.
fn is_node_conditions_line(line: &str) -> bool {
    (is_conditions_header(line) && line.contains(NODE_CONDITIONS_COLUMN))
        || is_conditions_row(line, 5)
}

/// Rows of a describe `Conditions:` table: from its header when it has one, else (an excerpt
/// whose header was cut) the rows read with the columns `describe` prints, `columns`.
fn conditions_rows(section: &Section<'_>, columns: &[&str]) -> Vec<BTreeMap<String, String>> {
    if let Some(h) = section.lines.iter().position(|l| is_conditions_header(l)) {
        let tail = Section {
            key: section.key,
            inline: "",
            lines: section.lines[h..].to_vec(),
        };
        return table_rows(&tail);
    }
    section
        .lines
        .iter()
        .filter(|l| is_conditions_row(l, 2))
        .map(|l| {
            columns
                .iter()
                .map(|c| (*c).to_owned())
                .zip(split_wide(l, columns.len()))
                .collect()
        })
        .collect()
}

/// The `Events:` table of describe (or a bare one): `Type Reason Age From Message`.
fn describe_events(section: &Section<'_>, involved: &ObjectReference) -> Vec<Event> {
    if none_to_empty(section.inline).is_empty() && section.lines.is_empty() {
        return Vec::new();
    }
    // a mount error's continuation lines belong to its row's message, never rows themselves
    let (table_lines, continuations) = split_mount_continuations(&section.lines);
    let own = Section {
        key: section.key,
        inline: section.inline,
        lines: table_lines,
    };
    let section = &own;
    // a message wrapped onto lines at column 0 (rows are indented): joined to its row; the
    // v1.3-v1.4 per-node FitError lines are read below
    let joined: Vec<String>;
    let section = if section
        .lines
        .iter()
        .skip(1)
        .any(|l| is_wrapped_event_line(l))
    {
        let mut lines: Vec<String> = Vec::new();
        for l in &section.lines {
            match lines.last_mut() {
                Some(prev) if is_wrapped_event_line(l) => {
                    prev.push(' ');
                    prev.push_str(l.trim());
                }
                _ => lines.push((*l).to_owned()),
            }
        }
        joined = lines;
        &Section {
            key: section.key,
            inline: section.inline,
            lines: joined.iter().map(String::as_str).collect(),
        }
    } else {
        section
    };
    let has_header = section.lines.iter().any(|l| is_describe_events_header(l));
    let old_header = section
        .lines
        .iter()
        .any(|l| is_old_describe_events_header(l));
    let v1_0_header = section
        .lines
        .iter()
        .any(|l| is_v1_0_describe_events_header(l));
    let rows: Vec<BTreeMap<String, String>> = if has_header {
        table_rows(section)
    } else if v1_0_header {
        section
            .lines
            .iter()
            .filter(|l| !is_v1_0_describe_events_header(l) && !l.trim_start().starts_with("---"))
            .filter_map(|l| v1_0_event_row(l))
            .collect()
    } else if old_header {
        section
            .lines
            .iter()
            .filter(|l| !is_old_describe_events_header(l) && !l.trim_start().starts_with("---"))
            .filter_map(|l| old_event_row(l))
            .collect()
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
    // v1.3-v1.4 FitError lines after a `failed to fit in any node` row belong to its message
    let node_lines: Vec<&str> = section
        .lines
        .iter()
        .map(|l| l.trim())
        .filter(|l| l.starts_with("fit failure on node ("))
        .collect();
    let mut rows = rows;
    if !node_lines.is_empty()
        && let Some(row) = rows.iter_mut().rev().find(|r| {
            r.get("Message")
                .is_some_and(|m| m.contains("failed to fit in any node"))
        })
        && let Some(m) = row.get_mut("Message")
    {
        for l in node_lines {
            m.push('\n');
            m.push_str(l);
        }
    }
    for (at, group) in &continuations {
        // the row whose message the continued line ends with
        if let Some(row) = rows.iter_mut().rev().find(|r| {
            r.get("Message")
                .is_some_and(|m| !m.is_empty() && at.trim_end().ends_with(m.trim_end()))
        }) && let Some(m) = row.get_mut("Message")
        {
            for l in group {
                m.push('\n');
                m.push_str(l.trim());
            }
        }
    }
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

/// `This is ...`: a capitalised word then a lowercase one, as prose starts (a wrapped message
/// goes on mid-sentence).
fn starts_sentence(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let (Some(a), Some(b)) = (words.next(), words.next()) else {
        return false;
    };
    let mut chars = a.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_lowercase())
        && b.chars().all(|c| c.is_ascii_lowercase())
}

/// A line of an `Events:` section that continues the message of the row above it: at column 0
/// (describe indents its rows), not a per-node FitError line.
fn is_wrapped_event_line(line: &str) -> bool {
    !line.starts_with([' ', '\t'])
        && !line.trim().is_empty()
        && !line.starts_with("fit failure on node (")
        && !is_describe_events_header(line)
        && !is_event_row(line)
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
    // `Terminating (lasts 2d3h)`: a deleted pod whose containers have not all stopped; kubectl
    // before v1.14 printed the deletion time instead, `Terminating (expires Fri, 09 Sep 2016
    // 00:34:02 +0100)` (RFC 1123 with numeric zone)
    if let Some(rest) = pod.status.phase.strip_prefix("Terminating") {
        let inner = rest
            .trim()
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'));
        let lasts = inner
            .and_then(|r| r.strip_prefix("lasts "))
            .unwrap_or("")
            .to_owned();
        if let Some(expires) = inner.and_then(|r| r.strip_prefix("expires ")) {
            pod.metadata.deletion_timestamp = parse_time(expires);
        }
        pod.status.phase = "Running".to_owned();
        pod.status.reason = "Terminating".to_owned();
        if !lasts.is_empty() {
            pod.metadata
                .annotations
                .insert(TERMINATING_FOR_ANNOTATION.to_owned(), lasts);
        }
    }
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
        pod.status.init_container_statuses = container_statuses(s);
    }
    if let Some(s) = b.get("Containers") {
        pod.status.container_statuses = container_statuses(s);
    }
    if let Some(s) = b.get("Node-Selectors") {
        pod.spec.node_selector = s.values().filter_map(split_kv).collect();
    }
    if let Some(s) = b.get("Tolerations") {
        pod.spec.tolerations = s.values().filter_map(parse_toleration).collect();
    }
    if let Some(s) = b.get("Conditions") {
        pod.status.conditions = conditions_rows(s, &["Type", "Status"])
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

/// The pod a container-state excerpt of `kubectl describe pod` stands for: the lines from a
/// container's `State:` / `Last State:` (`Waiting`, `Running`, `Terminated`) with their
/// deeper `Reason:` / `Exit Code:` lines, `Ready:` and `Restart Count:`, at whatever indent
/// they were copied (describeContainerState, k8s.io/kubectl/pkg/describe/describe.go), in a
/// text without a `Name:` line of its own. The container is named by the `<name>:` line just
/// above the state when the excerpt shows it, else `unknown`; the pod has no name (the reader
/// names it after its input, or after a shown `kubectl describe pod <name>`). `None` when the
/// text shows no such state block.
pub(crate) fn container_state_fragment(text: &str) -> Option<Pod> {
    let lines: Vec<&str> = content_lines(text).collect();
    if lines
        .iter()
        .any(|l| top_key(l).is_some_and(|(k, _)| k == "Name"))
    {
        return None;
    }
    let is_state = |t: &str| {
        ["State:", "Last State:"].iter().any(|k| {
            t.strip_prefix(k).map(str::trim).is_some_and(|v| {
                ["Waiting", "Running", "Terminated"]
                    .iter()
                    .any(|s| v.starts_with(s))
            })
        })
    };
    let first = lines.iter().position(|l| is_state(l.trim()))?;
    let base = indent_of(lines[first]);
    // a deeper `Reason:` (or `Started:`) line below a state says it is describe's state block
    let detailed = lines[first + 1..].iter().any(|l| {
        let t = l.trim();
        indent_of(l) > base && (t.starts_with("Reason:") || t.starts_with("Started:"))
    });
    if !detailed {
        return None;
    }
    let container = first
        .checked_sub(1)
        .map(|i| lines[i])
        .filter(|l| indent_of(l) < base)
        .and_then(|l| l.trim().strip_suffix(':'))
        .filter(|n| !n.is_empty() && !n.contains(char::is_whitespace))
        .unwrap_or("unknown");
    let header = format!("  {container}:");
    let shifted: Vec<String> = lines[first..]
        .iter()
        .take_while(|l| l.trim().is_empty() || indent_of(l) >= base)
        .map(|l| {
            if l.trim().is_empty() {
                return String::new();
            }
            let i = indent_of(l).saturating_sub(base);
            format!("{}{}", " ".repeat(i + 4), l.trim())
        })
        .collect();
    let mut section = Section {
        key: "Containers",
        inline: "",
        lines: vec![header.as_str()],
    };
    section.lines.extend(shifted.iter().map(String::as_str));
    let statuses = container_statuses(&section);
    if statuses.is_empty() {
        return None;
    }
    let mut pod = Pod::default();
    // the excerpt's `Limits:` / `Requests:` (a GPU limit makes the OOM kill an error)
    let mut problems = Vec::new();
    pod.spec.containers = containers(&section, 0, "Pod", &mut problems);
    if pod.spec.containers.is_empty() {
        pod.spec.containers = statuses
            .iter()
            .map(|c| crate::objects::Container {
                name: c.name.clone(),
                ..Default::default()
            })
            .collect();
    }
    pod.status.container_statuses = statuses;
    Some(pod)
}

/// The container statuses of a `Containers:` / `Init Containers:` section (`State:` and
/// `Last State:` with their `Reason:` / `Message:` / `Exit Code:` lines, `Ready:`,
/// `Restart Count:`), as `describePod` prints them (k8s.io/kubectl/pkg/describe/describe.go
/// `describeContainerState`). Empty when the section shows no state (a describe of a
/// manifest).
fn container_statuses(section: &Section<'_>) -> Vec<ContainerStatus> {
    let mut out: Vec<ContainerStatus> = Vec::new();
    let mut seen = false;
    // 0: outside a state block, 1: `State:`, 2: `Last State:`
    let mut in_state = 0u8;
    for line in &section.lines {
        let indent = indent_of(line);
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if indent <= 2 {
            in_state = 0;
            if let Some(name) = t.strip_suffix(':') {
                out.push(ContainerStatus {
                    name: name.to_owned(),
                    ..ContainerStatus::default()
                });
            }
            continue;
        }
        let Some(c) = out.last_mut() else { continue };
        let Some((key, value)) = t.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if indent <= 4 {
            in_state = match key {
                "State" => 1,
                "Last State" => 2,
                _ => 0,
            };
            match key {
                "State" | "Last State" => {
                    // an excerpt may show only the last state (`Last State: Terminated`)
                    seen |= key == "State" || (key == "Last State" && value != "<none>");
                    let detail = ContainerStateDetail::default();
                    let mut st = ContainerState::default();
                    match value {
                        "Waiting" => st.waiting = Some(Box::new(detail)),
                        "Running" => st.running = Some(ContainerStateRunning::default()),
                        "Terminated" => st.terminated = Some(Box::new(detail)),
                        _ => {}
                    }
                    if key == "State" {
                        c.state = Some(st);
                    } else if value != "<none>" {
                        c.last_state = Some(st);
                    }
                }
                "Ready" => {
                    seen = true;
                    c.ready = value == "True";
                }
                "Restart Count" => c.restart_count = value.parse().unwrap_or(0),
                _ => {}
            }
            continue;
        }
        let st = match in_state {
            1 => c.state.as_mut(),
            2 => c.last_state.as_mut(),
            _ => None,
        };
        let Some(st) = st else { continue };
        let Some(d) = st.waiting.as_mut().or(st.terminated.as_mut()) else {
            continue;
        };
        match key {
            "Reason" => d.reason = value.to_owned(),
            "Message" => d.message = value.to_owned(),
            "Exit Code" => d.exit_code = value.parse().ok(),
            _ => {}
        }
    }
    if seen { out } else { Vec::new() }
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
/// The label keys of `-L` / `--label-columns` in a shown `kubectl get` command (`-L a,b`,
/// `-La`, `-L=a`, `--label-columns=a,b`, repeatable).
fn command_label_columns(cmd: &str) -> Vec<String> {
    let words: Vec<&str> = cmd
        .split('|')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let mut out = Vec::new();
    let mut take = |v: &str| {
        out.extend(
            v.trim_matches(['"', '\''])
                .split(',')
                .filter(|k| !k.is_empty())
                .map(str::to_owned),
        );
    };
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if w == "-L" || w == "--label-columns" {
            if let Some(v) = words.get(i + 1) {
                take(v);
            }
            i += 1;
        } else if let Some(v) = w.strip_prefix("--label-columns=") {
            take(v);
        } else if let Some(v) = w.strip_prefix("-L") {
            take(v.strip_prefix('=').unwrap_or(v));
        }
        i += 1;
    }
    out
}

/// The column header kubectl prints for a `-L` label key: its last `/` segment upper-cased
/// (k8s.io/cli-runtime pkg/printers/tableprinter.go `formatLabelHeaders`).
fn label_column_header(key: &str) -> String {
    key.rsplit('/').next().unwrap_or(key).to_ascii_uppercase()
}

/// Columns of `kubectl get nodes [-o wide]` that are not label columns.
const NODE_TABLE_COLUMNS: &[&str] = &[
    "NAME",
    "STATUS",
    "ROLES",
    "AGE",
    "VERSION",
    "INTERNAL-IP",
    "EXTERNAL-IP",
    "OS-IMAGE",
    "KERNEL-VERSION",
    "CONTAINER-RUNTIME",
    "LABELS",
];

/// Label keys people ask for as `-L` columns besides the GPU vocabulary's exact keys.
const COMMON_LABEL_COLUMNS: &[&str] = &[
    "node.kubernetes.io/instance-type",
    "beta.kubernetes.io/instance-type",
    "topology.kubernetes.io/zone",
    "kubernetes.io/arch",
    "kubernetes.io/os",
    "kubernetes.io/hostname",
    "nvidia.com/gpu.present",
    "nvidia.com/gpu.product",
    "nvidia.com/gpu.count",
    "nvidia.com/gpu.memory",
    "nvidia.com/gpu.deploy.device-plugin",
    "nvidia.com/gpu.deploy.operands",
    "nvidia.com/mig.config",
    "nvidia.com/mig.config.state",
    "nvidia.com/mig.strategy",
    "nvidia.com/device-plugin.config",
    "feature.node.kubernetes.io/pci-10de.present",
    "feature.node.kubernetes.io/pci-0302_10de.present",
    "feature.node.kubernetes.io/pci-0300_10de.present",
    "cloud.google.com/gke-accelerator",
    "cloud.google.com/gke-nodepool",
    "eks.amazonaws.com/nodegroup",
    "karpenter.k8s.aws/instance-gpu-count",
    "karpenter.k8s.aws/instance-gpu-name",
    "karpenter.sh/nodepool",
    "kubernetes.azure.com/agentpool",
    "kubernetes.azure.com/accelerator",
];

/// The label key of an extra column of a nodes table: the shown command's `-L` key with that
/// header, else a known key (the GPU vocabulary's exact label keys, [`COMMON_LABEL_COLUMNS`])
/// whose header it is; `None` when no key is known (the column is not read).
fn label_column_key(header: &str, asked: &[String]) -> Option<String> {
    if let Some(k) = asked.iter().find(|k| label_column_header(k) == header) {
        return Some(k.clone());
    }
    let vocab = crate::gpu::GpuVocabulary::builtin();
    vocab
        .markers
        .iter()
        .filter(|m| m.kind == crate::gpu::MarkerKind::Label && !m.key.contains('*'))
        .map(|m| m.key.as_str())
        .chain(COMMON_LABEL_COLUMNS.iter().copied())
        .find(|k| label_column_header(k) == header)
        .map(str::to_owned)
}

fn parse_nodes_table(
    lines: &[&str],
    start: usize,
    out: &mut ParsedText,
    label_columns: &[String],
) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        if let Some(node) = node_from_row(&cells, label_columns) {
            out.nodes.push(node);
        }
    }
    end
}

/// The partial node of one `kubectl get nodes` row (cells by column name).
fn node_from_row(cells: &BTreeMap<String, String>, label_columns: &[String]) -> Option<Node> {
    {
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
                "SchedulingDisabled" | "Unschedulable" => node.spec.unschedulable = true,
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
        // `--show-labels`: `k=v,k2=v2` (labels.FormatLabels)
        for (k, v) in comma_labels(&cell("LABELS")) {
            node.metadata.labels.insert(k, v);
        }
        // `-L key,...` columns: the label's value, empty when the node lacks it
        let mut shown: Vec<String> = Vec::new();
        for (column, value) in cells {
            if NODE_TABLE_COLUMNS.contains(&column.as_str()) {
                continue;
            }
            let Some(key) = label_column_key(column, label_columns) else {
                continue;
            };
            shown.push(key.clone());
            let value = none_to_empty(value.trim());
            if !value.is_empty() {
                node.metadata.labels.insert(key, value.to_owned());
            }
        }
        if !shown.is_empty() && !cells.contains_key("LABELS") {
            node.metadata
                .annotations
                .insert(LABELS_SHOWN_ANNOTATION.to_owned(), shown.join(","));
        }
        let mut unknown = vec!["capacity", "allocatable", "taints"];
        if !cells.contains_key("LABELS") {
            unknown.insert(0, "labels");
        }
        node.metadata.annotations.insert(
            PARTIAL_ANNOTATION.to_owned(),
            partial_note("nodes", &unknown),
        );
        (!node.metadata.name.is_empty()).then_some(node)
    }
}

/// A node STATUS as kubectl prints it: `Ready`, `NotReady` or `Unknown`, with
/// `,SchedulingDisabled` (v1.2+) or `,Schedulable` / `,Unschedulable` (before v1.2).
fn node_status(s: &str) -> bool {
    s.split(',').all(|p| {
        matches!(
            p,
            "Ready"
                | "NotReady"
                | "Unknown"
                | "SchedulingDisabled"
                | "Schedulable"
                | "Unschedulable"
        )
    }) && s
        .split(',')
        .any(|p| matches!(p, "Ready" | "NotReady" | "Unknown"))
}

/// A `kubectl get nodes` row without its header (`--no-headers`, `| grep`, or pasted without
/// it): `NAME STATUS ROLES AGE VERSION [INTERNAL-IP EXTERNAL-IP ...]` as printNode writes it
/// (pkg/printers/internalversion/printers.go), told by its STATUS (`Ready`, `NotReady`,
/// `Unknown`, with `,SchedulingDisabled`), an age (`12d`, `3h40m`, `<invalid>`) and a kubelet
/// version (`v1.29.2`, `v1.28.5+k3s1`). Cells by column name, or `None`.
fn headerless_node_row(line: &str) -> Option<BTreeMap<String, String>> {
    let w: Vec<&str> = line.split_whitespace().collect();
    // kubectl before v1.2: `NAME LABELS STATUS` (`10.0.0.2   kubernetes.io/hostname=10.0.0.2
    // NotReady`)
    if w.len() == 3 && node_status(w[2]) && (w[1].contains('=') || w[1] == "<none>") {
        let mut cells = BTreeMap::new();
        for (k, v) in ["NAME", "LABELS", "STATUS"].iter().zip(&w) {
            cells.insert((*k).to_owned(), (*v).to_owned());
        }
        return Some(cells);
    }
    if w.len() < 5 {
        return None;
    }
    let status = node_status(w[1]);
    let age = |a: &str| {
        a == "<invalid>"
            || (a.starts_with(|c: char| c.is_ascii_digit())
                && a.chars().all(|c| c.is_ascii_digit() || "smhdy".contains(c)))
    };
    let version = |v: &str| {
        v.strip_prefix('v')
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()) && r.contains('.'))
    };
    if !(status && age(w[3]) && version(w[4])) {
        return None;
    }
    let mut cells = BTreeMap::new();
    for (k, v) in ["NAME", "STATUS", "ROLES", "AGE", "VERSION"].iter().zip(&w) {
        cells.insert((*k).to_owned(), (*v).to_owned());
    }
    // `-o wide`: the addresses follow; the OS image has spaces, the last two are the kernel
    // and the runtime
    if w.len() >= 9 && w[5].parse::<std::net::IpAddr>().is_ok() {
        cells.insert("INTERNAL-IP".to_owned(), w[5].to_owned());
        cells.insert("EXTERNAL-IP".to_owned(), w[6].to_owned());
        cells.insert("CONTAINER-RUNTIME".to_owned(), w[w.len() - 1].to_owned());
        cells.insert("KERNEL-VERSION".to_owned(), w[w.len() - 2].to_owned());
        cells.insert("OS-IMAGE".to_owned(), w[7..w.len() - 2].join(" "));
    }
    Some(cells)
}

/// The rows of a kubectl table starting with its header at `lines[start]`, each as a map from
/// column name to cell text, and the index after the table (the first blank line or describe key).
fn top_table_rows(lines: &[&str], start: usize) -> (Vec<BTreeMap<String, String>>, usize) {
    let header = lines[start];
    let starts = column_starts(header);
    let mut names: Vec<String> = table_cells(&starts, header)
        .iter()
        .map(|c| canonical_column(c))
        .collect();
    // columns separated by tabs (copied from a terminal that kept them, or a spreadsheet)
    let tabbed = header.contains('\t');
    let collapsed = !tabbed && names.len() == 1 && header.trim().contains(' ');
    if tabbed {
        names = split_wide(header, usize::MAX)
            .iter()
            .map(|c| canonical_column(c))
            .collect();
    } else if collapsed {
        names = collapsed_header(header).unwrap_or(names);
    }
    let mut rows = Vec::new();
    let mut i = start + 1;
    while i < lines.len() && !lines[i].trim().is_empty() && top_key(lines[i]).is_none() {
        let row = lines[i];
        // a second header (the same command's output pasted again, or another table right
        // below) starts a new table: never a row named `NAME`
        if table_kind(row).is_some()
            || row.split_whitespace().eq(header.split_whitespace())
            || crate::paste::prompt_command(row).is_some()
        {
            break;
        }
        // stderr printed between the rows (`Error from server (Forbidden): ...`): no row; the
        // paste reader reads it as a log line
        if row.trim().chars().all(|c| c == '-' || c == ' ')
            || is_kubectl_note(row)
            || crate::paste::starts_error_record(row)
        {
            i += 1;
            continue;
        }
        let cells = if tabbed {
            let mut c = split_wide(row, names.len());
            c.resize(names.len(), String::new());
            c
        } else if collapsed {
            collapsed_cells(&names, row)
        } else {
            table_cells(&starts, row)
        };
        rows.push(names.iter().cloned().zip(cells).collect());
        i += 1;
    }
    (rows, i)
}

/// `kubectl get events [-A]`: `[NAMESPACE] LAST SEEN TYPE REASON OBJECT MESSAGE`.
fn parse_get_events_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    // a table copied from a narrow terminal has lost its MESSAGE column: a Warning row then
    // says that something failed but not why (reported, never an all-clear)
    let cut = !lines[start].contains("MESSAGE");
    let mut cut_warnings: Vec<String> = Vec::new();
    for cells in rows {
        if cut && cells.get("TYPE").is_some_and(|t| t.as_str() == "Warning") {
            let what = format!(
                "{} {}",
                cells.get("REASON").map_or("", String::as_str),
                cells.get("OBJECT").map_or("", String::as_str)
            );
            if !cut_warnings.contains(&what) {
                cut_warnings.push(what);
            }
        }
        let cell = |n: &str| cells.get(n).cloned().unwrap_or_default();
        let namespace = cell("NAMESPACE");
        let (kind, name) = match cell("OBJECT").split_once('/') {
            Some((resource, name)) => (kind_of_resource(resource), name.to_owned()),
            // kubectl before 1.14: separate KIND and NAME columns (NAME is the event's name,
            // `<object>.<hash>`)
            None if cells.contains_key("KIND") => (cell("KIND"), {
                // the event's name is `<object>.<hex id>`; a node name keeps its dots
                let name = cell("NAME");
                match name.rsplit_once('.') {
                    Some((object, id))
                        if id.len() >= 8 && id.chars().all(|c| c.is_ascii_hexdigit()) =>
                    {
                        object.to_owned()
                    }
                    _ => name,
                }
            }),
            None => (String::new(), cell("OBJECT")),
        };
        let (component, host) = match cell("SOURCE").split_once(", ") {
            Some((c, h)) => (c.to_owned(), h.to_owned()),
            None => (cell("SOURCE"), String::new()),
        };
        let count = cell("COUNT")
            .parse()
            .ok()
            .or_else(|| event_count(&cell("LAST SEEN")));
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
            count,
            source: EventSource { component, host },
            ..Event::default()
        });
    }
    if !cut_warnings.is_empty() {
        out.problems.push(LoadProblem {
            object: "Event".to_owned(),
            field: "MESSAGE".to_owned(),
            message: format!(
                "{} Warning event(s) without their message ({}): the events table was cut before its MESSAGE column (terminal width), so why they happened is not read; paste it again uncut (`kubectl get events -o wide`, or `kubectl describe` of the object)",
                cut_warnings.len(),
                cut_warnings.join(", ")
            ),
            ..LoadProblem::default()
        });
    }
    end
}

/// Reads the table whose header is `lines[start]`; returns the index after it.
fn parse_table(
    kind: TableKind,
    lines: &[&str],
    start: usize,
    out: &mut ParsedText,
    asked: Option<&'static str>,
    label_columns: &[String],
) -> usize {
    match kind {
        TableKind::Deployments => parse_workloads_table("Deployment", lines, start, out),
        TableKind::StatefulSets => parse_workloads_table("StatefulSet", lines, start, out),
        TableKind::ReplicaSets => {
            let kind = match asked {
                Some("ReplicationController") => "ReplicationController",
                _ => "ReplicaSet",
            };
            parse_workloads_table(kind, lines, start, out)
        }
        TableKind::Jobs => parse_workloads_table("Job", lines, start, out),
        TableKind::Nodes => parse_nodes_table(lines, start, out, label_columns),
        TableKind::Events => parse_get_events_table(lines, start, out),
        TableKind::Pods => parse_pods_table(lines, start, out),
        TableKind::DaemonSets => parse_daemon_sets_table(lines, start, out),
        TableKind::ResourceQuotas => parse_quotas_table(lines, start, out),
        TableKind::PriorityClasses => parse_priority_classes_table(lines, start, out),
        TableKind::PersistentVolumeClaims => parse_pvcs_table(lines, start, out),
        TableKind::PersistentVolumes => parse_pvs_table(lines, start, out),
        TableKind::StorageClasses => parse_storage_classes_table(lines, start, out),
        TableKind::NameStatusAge => {
            let (rows, end) = top_table_rows(lines, start);
            let statuses: Vec<String> = rows.iter().map(|r| table_cell(r, "STATUS")).collect();
            if !statuses.is_empty() && statuses.iter().all(|s| node_status(s)) {
                parse_nodes_table(lines, start, out, label_columns)
            } else if !statuses.is_empty()
                && statuses
                    .iter()
                    .all(|s| matches!(s.as_str(), "Active" | "Terminating"))
            {
                for cells in rows {
                    let mut ns = Namespace::default();
                    ns.metadata.name = table_cell(&cells, "NAME");
                    ns.status.phase = table_cell(&cells, "STATUS");
                    if !ns.metadata.name.is_empty() {
                        out.namespaces.push(ns);
                    }
                }
                end
            } else {
                end
            }
        }
    }
}

/// Lines kubectl prints around tables: `No resources found in default namespace.`, warnings.
fn is_kubectl_note(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("No resources found") || t.starts_with("Warning: ")
}

/// The value of [`PARTIAL_ANNOTATION`]: which table the object came from and what it lacks.
fn partial_note(table: &str, unknown: &[&str]) -> String {
    format!(
        "from a kubectl get {table} table; unknown: {}",
        unknown.join(", ")
    )
}

/// `k=v,k2=v2` (`labels.FormatLabels`), `<none>` for none.
fn comma_labels(text: &str) -> Vec<(String, String)> {
    let t = none_to_empty(text);
    t.split(',')
        .filter_map(|kv| {
            let kv = kv.trim();
            if kv.is_empty() {
                return None;
            }
            Some(match kv.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (kv.to_owned(), String::new()),
            })
        })
        .collect()
}

fn table_cell(cells: &BTreeMap<String, String>, name: &str) -> String {
    none_to_empty(cells.get(name).map(String::as_str).unwrap_or("")).to_owned()
}

fn table_int(cells: &BTreeMap<String, String>, name: &str) -> i32 {
    table_cell(cells, name).parse().unwrap_or(0)
}

/// The metadata of one `kubectl get` row: `NAME` and `NAMESPACE` cells, and
/// [`PARTIAL_ANNOTATION`] naming the fields the table (`table`, `kubectl get <table>`) does not
/// show (none: no annotation). `None` for a row without a name.
fn table_object_meta(
    cells: &BTreeMap<String, String>,
    table: &str,
    unknown: &[&str],
) -> Option<ObjectMeta> {
    let name = table_cell(cells, "NAME");
    // `kubectl get all` and `get deploy,sts` name each row `<resource>/<name>`
    // (`deployment.apps/trainer`); an object name never holds a `/`
    let name = match name.rsplit_once('/') {
        Some((_, n)) => n.to_owned(),
        None => name,
    };
    if name.is_empty() {
        return None;
    }
    let mut meta = ObjectMeta {
        name,
        namespace: table_cell(cells, "NAMESPACE"),
        ..ObjectMeta::default()
    };
    if !unknown.is_empty() {
        meta.annotations
            .insert(PARTIAL_ANNOTATION.to_owned(), partial_note(table, unknown));
    }
    Some(meta)
}

/// `<a>/<b>` of a `READY` / `COMPLETIONS` cell (`0/3`; a Job's `1/1 of 3` gives `(1, 1)`).
fn table_fraction(cells: &BTreeMap<String, String>, name: &str) -> Option<(i32, i32)> {
    let cell = table_cell(cells, name);
    let (a, b) = cell.split_once('/')?;
    let b = b.split_whitespace().next()?;
    Some((a.trim().parse().ok()?, b.parse().ok()?))
}

/// The `-o wide` columns every workload table shares: `CONTAINERS`, `IMAGES` (comma lists in
/// the same order) and `SELECTOR` (`k=v,...`; a set-based selector is not read back).
fn wide_template(cells: &BTreeMap<String, String>) -> (Vec<Container>, Option<LabelSelector>) {
    let names = table_cell(cells, "CONTAINERS");
    let images = table_cell(cells, "IMAGES");
    let mut images = images.split(',');
    let containers = names
        .split(',')
        .filter(|n| !n.is_empty())
        .map(|n| Container {
            name: n.to_owned(),
            image: images.next().unwrap_or("").to_owned(),
            ..Container::default()
        })
        .collect();
    let selector = table_cell(cells, "SELECTOR");
    let selector = (!selector.is_empty() && !selector.contains(' ') && !selector.contains('('))
        .then(|| LabelSelector {
            match_labels: comma_labels(&selector).into_iter().collect(),
            ..LabelSelector::default()
        });
    (containers, selector)
}

/// What a workload table never shows.
const WORKLOAD_UNKNOWN: &[&str] = &[
    "requests",
    "tolerations",
    "node selector",
    "affinity",
    "conditions",
];

/// `kubectl get deployments|statefulsets|replicasets|replicationcontrollers|jobs [-A] [-o
/// wide]` (kubernetes `pkg/printers/internalversion/printers.go`: `deploymentColumnDefinitions`
/// `NAME READY UP-TO-DATE AVAILABLE AGE`, `statefulSetColumnDefinitions` `NAME READY AGE`,
/// `replicaSetColumnDefinitions` / `replicationControllerColumnDefinitions` `NAME DESIRED
/// CURRENT READY AGE`, `jobColumnDefinitions` `NAME [STATUS] COMPLETIONS DURATION AGE`
/// (STATUS since v1.30), each with `CONTAINERS IMAGES [SELECTOR]` under `-o wide`). `kind` is
/// the one the table's header tells, or the one the command line asked for
/// (`kubectl get rc`). A row whose `READY` / `COMPLETIONS` is not a count (another
/// resource's `READY True`) is skipped.
fn parse_workloads_table(
    kind: &'static str,
    lines: &[&str],
    start: usize,
    out: &mut ParsedText,
) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    let table = match kind {
        "Deployment" => "deployments",
        "StatefulSet" => "statefulsets",
        "ReplicaSet" => "replicasets",
        "ReplicationController" => "replicationcontrollers",
        _ => "jobs",
    };
    for cells in rows {
        let Some(mut metadata) = table_object_meta(&cells, table, WORKLOAD_UNKNOWN) else {
            continue;
        };
        let mut w = Workload {
            kind: kind.to_owned(),
            ..Workload::default()
        };
        let (containers, selector) = wide_template(&cells);
        w.spec.template.spec.containers = containers;
        w.spec.selector = selector;
        match kind {
            "Job" => {
                let Some((succeeded, completions)) = table_fraction(&cells, "COMPLETIONS") else {
                    continue;
                };
                w.status.succeeded = succeeded;
                w.spec.completions = Some(completions);
                // STATUS: Complete, Failed, Suspended, Running, FailureTarget,
                // SuccessCriteriaMet, Terminating (printJob)
                let status = table_cell(&cells, "STATUS");
                if matches!(status.as_str(), "Complete" | "Failed" | "Suspended") {
                    w.status.conditions.push(WorkloadCondition {
                        type_: status,
                        status: "True".to_owned(),
                        ..WorkloadCondition::default()
                    });
                    // the table shows the Job's state: its conditions are known
                    metadata.annotations.insert(
                        PARTIAL_ANNOTATION.to_owned(),
                        partial_note(table, &WORKLOAD_UNKNOWN[..4]),
                    );
                }
            }
            "ReplicaSet" | "ReplicationController" if cells.contains_key("DESIRED") => {
                let Ok(desired) = table_cell(&cells, "DESIRED").parse::<i32>() else {
                    continue;
                };
                w.spec.replicas = Some(desired);
                w.status.replicas = table_int(&cells, "CURRENT");
                w.status.ready_replicas = table_int(&cells, "READY");
            }
            _ => {
                let Some((ready, desired)) = table_fraction(&cells, "READY") else {
                    continue;
                };
                w.spec.replicas = Some(desired);
                w.status.ready_replicas = ready;
                if kind == "Deployment" {
                    w.status.updated_replicas = table_int(&cells, "UP-TO-DATE");
                    w.status.available_replicas = table_int(&cells, "AVAILABLE");
                }
            }
        }
        w.metadata = metadata;
        out.workloads.push(w);
    }
    end
}

/// The workload kind a `kubectl get <resource>` command line asks for (`get rc`,
/// `get deploy,sts` gives the first), `None` for other commands.
fn command_get_kind(cmd: &str) -> Option<&'static str> {
    let words: Vec<&str> = cmd.split('|').next()?.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "get")?;
    let resource = words[at + 1..].iter().find(|w| !w.starts_with('-'))?;
    let first = resource.split([',', '/']).next()?.to_ascii_lowercase();
    let first = first.split('.').next().unwrap_or(&first).to_owned();
    Some(match first.as_str() {
        "deploy" | "deployment" | "deployments" => "Deployment",
        "sts" | "statefulset" | "statefulsets" => "StatefulSet",
        "rs" | "replicaset" | "replicasets" => "ReplicaSet",
        "rc" | "replicationcontroller" | "replicationcontrollers" => "ReplicationController",
        "job" | "jobs" => "Job",
        _ => return None,
    })
}

/// For a shown `kubectl get pods` command (`get po`, `get pod/x`; any output filter: `|
/// grep` drops the header too): whether its rows start with a NAMESPACE column (`-A`,
/// `--all-namespaces`). `None` for other commands.
fn command_pods_namespaced(cmd: &str) -> Option<bool> {
    let words: Vec<&str> = cmd.split('|').next()?.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "get")?;
    let resource = words[at + 1..].iter().find(|w| !w.starts_with('-'))?;
    let first = resource.split(['/', '.']).next()?.to_ascii_lowercase();
    if !matches!(first.as_str(), "po" | "pod" | "pods") || resource.contains(',') {
        return None;
    }
    Some(
        words
            .iter()
            .any(|w| matches!(*w, "-A" | "--all-namespaces" | "--all-namespaces=true")),
    )
}

/// `kubectl get pods [-A] [-o wide]`. The table shows no spec: such pods carry
/// [`PARTIAL_ANNOTATION`] (their requests, tolerations and selectors are unknown).
fn parse_pods_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    out.pods.extend(rows.iter().filter_map(pod_from_row));
    end
}

/// A pod from the cells of one `kubectl get pods` row (header names as keys).
fn pod_from_row(cells: &BTreeMap<String, String>) -> Option<Pod> {
    let metadata = table_object_meta(
        cells,
        "pods",
        &[
            "containers",
            "requests",
            "tolerations",
            "node selector",
            "affinity",
        ],
    )?;
    let mut pod = Pod {
        metadata,
        ..Pod::default()
    };
    // STATUS is the phase, or the reason kubectl shows instead (printPod in printers.go:
    // status.reason, a waiting/terminated container reason, `Init:x/y`, `Terminating`)
    let status = table_cell(cells, "STATUS");
    let node = table_cell(cells, "NODE");
    let phase = match status.as_str() {
        "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown" => status.clone(),
        "Completed" => "Succeeded".to_owned(),
        "Error"
        | "Evicted"
        | "OOMKilled"
        | "NodeAffinity"
        | "NodeLost"
        | "Shutdown"
        | "UnexpectedAdmissionError"
        | "ContainerStatusUnknown"
        // the kubelet's admission refusals (pkg/kubelet/lifecycle/predicate.go: a predicate's
        // name, v1.2-v1.4 kubelet.go's own reasons, the Topology Manager's)
        | "MatchNodeSelector"
        | "NodeSelectorMismatching"
        | "PodToleratesNodeTaints"
        | "TaintToleration"
        | "PodFitsHostPorts"
        | "HostPortConflict"
        | "TopologyAffinityError" => "Failed".to_owned(),
        s if s.starts_with("OutOf") => "Failed".to_owned(),
        "CrashLoopBackOff" | "Terminating" | "NotReady" => "Running".to_owned(),
        _ if node.is_empty() => "Pending".to_owned(),
        _ => "Pending".to_owned(),
    };
    // RESTARTS: `37` or kubectl 1.22+'s `37 (2m ago)`
    let restarts: u32 = table_cell(cells, "RESTARTS")
        .split_whitespace()
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or(0);
    if restarts > 0 {
        pod.metadata
            .annotations
            .insert(RESTARTS_ANNOTATION.to_owned(), restarts.to_string());
    }
    // a terminated reason with restarts: the kubelet restarts the container (restartPolicy
    // Always or OnFailure; a Failed pod is never restarted), the pod is not finished
    let phase = match status.strip_prefix("Init:").unwrap_or(&status) {
        "Error" | "OOMKilled" | "ContainerCannotRun" | "StartError" | "ContainerStatusUnknown"
            if restarts > 0 =>
        {
            if status.starts_with("Init:") {
                "Pending".to_owned()
            } else {
                "Running".to_owned()
            }
        }
        _ => phase,
    };
    if phase != status {
        pod.status.reason = status;
    }
    // READY is `<ready containers>/<containers>` (printPod counts the containers that
    // are ready and running); the kubelet's Ready condition needs all of them and every
    // readiness gate (`READINESS GATES` `<true>/<gates>` with -o wide)
    let fraction = |name: &str| -> Option<(u32, u32)> {
        let cell = table_cell(cells, name);
        let (a, b) = cell.split_once('/')?;
        Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
    };
    if let Some((ready, total)) = fraction("READY") {
        let containers_ready = total > 0 && ready == total && phase == "Running";
        let gates = fraction("READINESS GATES").is_none_or(|(t, n)| t == n);
        let status = |ok: bool| if ok { "True" } else { "False" }.to_owned();
        pod.status.conditions.push(PodCondition {
            type_: "ContainersReady".to_owned(),
            status: status(containers_ready),
            ..PodCondition::default()
        });
        pod.status.conditions.push(PodCondition {
            type_: "Ready".to_owned(),
            status: status(containers_ready && gates),
            ..PodCondition::default()
        });
    }
    let age = table_cell(cells, "AGE");
    if human_duration_secs(&age).is_some() {
        pod.metadata
            .annotations
            .insert(AGE_ANNOTATION.to_owned(), age);
    }
    pod.status.phase = phase;
    pod.spec.node_name = node;
    pod.status.nominated_node_name = table_cell(cells, "NOMINATED NODE");
    Some(pod)
}

/// The pod statuses kubectl prints in STATUS (printers.go `printPod`: the phase, a pod or
/// container reason, `Init:x/y`, `Init:<reason>`, `Terminating`, `Completed`, `NotReady`) are
/// one word starting with a capital letter, optionally with an `Init:` part.
fn is_pod_status(cell: &str) -> bool {
    let word = cell.strip_prefix("Init:").unwrap_or(cell);
    let ok_word = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_uppercase())
            && w.chars().all(|c| c.is_ascii_alphanumeric())
    };
    ok_word(word)
        || (cell.starts_with("Init:")
            && word
                .split_once('/')
                .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok()))
}

/// `12`, `5m`, `3d20h`, `<unknown>`, `<invalid>`: an AGE cell (kubectl `duration.HumanDuration`).
fn is_age(cell: &str) -> bool {
    matches!(cell, "<unknown>" | "<invalid>")
        || (cell.starts_with(|c: char| c.is_ascii_digit())
            && cell
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, 's' | 'm' | 'h' | 'd' | 'y'))
            && cell.ends_with(['s', 'm', 'h', 'd', 'y']))
}

/// The cells of a `kubectl get pods` row printed without its header (`--no-headers`, or rows
/// pasted without the header line): `[NAMESPACE] NAME READY STATUS RESTARTS AGE` and with
/// `-o wide` `IP NODE NOMINATED NODE READINESS GATES`, RESTARTS possibly followed by kubectl
/// 1.22+'s `(5m ago)`. The row must have exactly one of these shapes, READY a `<ready>/<total>`
/// count, STATUS a pod status word and AGE a duration, so a log line or another table's row is
/// not taken for one. `namespaced`: `Some(true)` when the command shows `-A`, `Some(false)`
/// without it, `None` when no command is shown (told from the row's shape).
fn headerless_pod_row(line: &str, namespaced: Option<bool>) -> Option<BTreeMap<String, String>> {
    let t: Vec<&str> = line.split_whitespace().collect();
    let is_ready = |c: &str| {
        c.split_once('/').is_some_and(|(a, b)| {
            a.parse::<u32>()
                .is_ok_and(|a| b.parse::<u32>().is_ok_and(|b| a <= b && b > 0))
        })
    };
    let at = match namespaced {
        Some(true) => 2,
        Some(false) => 1,
        None => [1, 2]
            .into_iter()
            .find(|&i| t.get(i).is_some_and(|c| is_ready(c)))?,
    };
    if !t.get(at).is_some_and(|c| is_ready(c)) || !t.get(at + 1).is_some_and(|c| is_pod_status(c)) {
        return None;
    }
    let restarts = *t.get(at + 2)?;
    if restarts.parse::<u32>().is_err() {
        return None;
    }
    // `12 (5m ago)`
    let mut next = at + 3;
    let mut restarts_cell = restarts.to_owned();
    if t.get(next).is_some_and(|c| c.starts_with('(')) && t.get(next + 1) == Some(&"ago)") {
        restarts_cell = format!("{restarts} {} ago)", t[next]);
        next += 2;
    }
    if !t.get(next).is_some_and(|c| is_age(c)) {
        return None;
    }
    let rest = &t[next + 1..];
    if !(rest.is_empty() || rest.len() == 4) {
        return None;
    }
    let name_ok = |n: &str| {
        let n = n.rsplit('/').next().unwrap_or(n);
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.'))
    };
    if !t[..at].iter().all(|c| name_ok(c)) {
        return None;
    }
    let mut cells = BTreeMap::new();
    if at == 2 {
        cells.insert("NAMESPACE".to_owned(), t[0].to_owned());
    }
    cells.insert("NAME".to_owned(), t[at - 1].to_owned());
    cells.insert("READY".to_owned(), t[at].to_owned());
    cells.insert("STATUS".to_owned(), t[at + 1].to_owned());
    cells.insert("RESTARTS".to_owned(), restarts_cell);
    cells.insert("AGE".to_owned(), t[next].to_owned());
    if rest.len() == 4 {
        for (k, v) in ["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]
            .iter()
            .zip(rest)
        {
            cells.insert((*k).to_owned(), (*v).to_owned());
        }
    }
    Some(cells)
}

/// `kubectl get daemonsets [-A] [-o wide]`: status counts, the node selector, and with
/// `-o wide` the containers, images and selector. Tolerations and affinity are not shown
/// ([`PARTIAL_ANNOTATION`]).
fn parse_daemon_sets_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let Some(metadata) = table_object_meta(&cells, "daemonsets", &["tolerations", "affinity"])
        else {
            continue;
        };
        let mut ds = DaemonSet {
            metadata,
            ..DaemonSet::default()
        };
        ds.status.desired_number_scheduled = table_int(&cells, "DESIRED");
        ds.status.current_number_scheduled = table_int(&cells, "CURRENT");
        ds.status.number_ready = table_int(&cells, "READY");
        ds.status.number_available = table_int(&cells, "AVAILABLE");
        ds.spec.template.spec.node_selector = comma_labels(&table_cell(&cells, "NODE SELECTOR"))
            .into_iter()
            .collect();
        let (containers, selector) = wide_template(&cells);
        ds.spec.template.spec.containers = containers;
        if selector.is_some() {
            ds.spec.selector = selector;
        }
        out.daemon_sets.push(ds);
    }
    end
}

/// `name: used/hard` entries of a `kubectl get quota` REQUEST or LIMIT cell
/// (`printResourceQuota` in printers.go), into `quota`.
fn quota_cell(text: &str, quota: &mut ResourceQuota, problems: &mut Vec<LoadProblem>) {
    let status = quota
        .status
        .get_or_insert_with(ResourceQuotaStatus::default);
    for entry in none_to_empty(text).split(", ") {
        let Some((name, values)) = entry.split_once(": ") else {
            continue;
        };
        let Some((used, hard)) = values.split_once('/') else {
            continue;
        };
        let name = name.trim();
        for (value, into_hard) in [(hard.trim(), true), (used.trim(), false)] {
            match value.parse::<Quantity>() {
                Ok(q) => {
                    if into_hard {
                        quota.spec.hard.insert(name, q.clone());
                        status.hard.insert(name, q);
                    } else {
                        status.used.insert(name, q);
                    }
                }
                Err(err) => problems.push(LoadProblem {
                    object: format!(
                        "ResourceQuota/{}/{}",
                        quota.metadata.namespace, quota.metadata.name
                    ),
                    field: name.to_owned(),
                    message: format!("invalid quantity {value:?}: {err}"),
                    ..LoadProblem::default()
                }),
            }
        }
    }
}

/// `kubectl get quota [-A]`: `NAME AGE REQUEST LIMIT` with `name: used/hard` cells.
fn parse_quotas_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let Some(metadata) =
            table_object_meta(&cells, "resourcequotas", &["scopes", "scopeSelector"])
        else {
            continue;
        };
        let mut q = ResourceQuota {
            metadata,
            ..ResourceQuota::default()
        };
        quota_cell(&table_cell(&cells, "REQUEST"), &mut q, &mut out.problems);
        quota_cell(&table_cell(&cells, "LIMIT"), &mut q, &mut out.problems);
        out.resource_quotas.push(q);
    }
    end
}

/// `kubectl get priorityclasses`: `NAME VALUE GLOBAL-DEFAULT AGE [PREEMPTIONPOLICY]`.
fn parse_priority_classes_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let name = table_cell(&cells, "NAME");
        let Ok(value) = table_cell(&cells, "VALUE").parse::<i32>() else {
            continue;
        };
        let policy = table_cell(&cells, "PREEMPTIONPOLICY");
        out.priority_classes.push(PriorityClass {
            metadata: ObjectMeta {
                name,
                ..ObjectMeta::default()
            },
            value,
            global_default: table_cell(&cells, "GLOBAL-DEFAULT") == "true",
            preemption_policy: (!policy.is_empty()).then_some(policy),
            ..PriorityClass::default()
        });
    }
    end
}

/// `RWO,RWX` -> access mode names.
fn access_modes(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| match m {
            "RWO" => "ReadWriteOnce".to_owned(),
            "ROX" => "ReadOnlyMany".to_owned(),
            "RWX" => "ReadWriteMany".to_owned(),
            "RWOP" => "ReadWriteOncePod".to_owned(),
            other => other.to_owned(),
        })
        .collect()
}

/// `kubectl get pvc [-A]`: `NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS ... AGE`.
fn parse_pvcs_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let Some(metadata) = table_object_meta(&cells, "persistentvolumeclaims", &[]) else {
            continue;
        };
        let mut pvc = PersistentVolumeClaim {
            metadata,
            ..PersistentVolumeClaim::default()
        };
        pvc.status.phase = table_cell(&cells, "STATUS");
        pvc.spec.volume_name = table_cell(&cells, "VOLUME");
        pvc.spec.access_modes = access_modes(&table_cell(&cells, "ACCESS MODES"));
        // an empty cell is both "unset" and "": kept as unset, as describe does
        let class = table_cell(&cells, "STORAGECLASS");
        pvc.spec.storage_class_name = (!class.is_empty()).then_some(class);
        if let Ok(q) = table_cell(&cells, "CAPACITY").parse::<Quantity>() {
            pvc.status.capacity.insert("storage", q);
        }
        // the AGE cell (kubectl's `translateTimestampSince`): how long a Pending claim waits
        let age = table_cell(&cells, "AGE");
        if human_duration_secs(&age).is_some() {
            pvc.metadata
                .annotations
                .insert(AGE_ANNOTATION.to_owned(), age);
        }
        out.persistent_volume_claims.push(pvc);
    }
    end
}

/// `kubectl get pv`: `NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS ...`.
/// The volume source and node affinity are not shown ([`PARTIAL_ANNOTATION`]).
fn parse_pvs_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let Some(metadata) =
            table_object_meta(&cells, "persistentvolumes", &["source", "node affinity"])
        else {
            continue;
        };
        let mut pv = PersistentVolume {
            metadata,
            ..PersistentVolume::default()
        };
        if let Ok(q) = table_cell(&cells, "CAPACITY").parse::<Quantity>() {
            pv.spec.capacity.insert("storage", q);
        }
        pv.spec.access_modes = access_modes(&table_cell(&cells, "ACCESS MODES"));
        pv.spec.persistent_volume_reclaim_policy = table_cell(&cells, "RECLAIM POLICY");
        pv.status.phase = table_cell(&cells, "STATUS");
        pv.spec.storage_class_name = table_cell(&cells, "STORAGECLASS");
        if let Some((ns, claim)) = table_cell(&cells, "CLAIM").split_once('/') {
            pv.spec.claim_ref = Some(ObjectReference {
                kind: "PersistentVolumeClaim".to_owned(),
                namespace: ns.to_owned(),
                name: claim.to_owned(),
                ..ObjectReference::default()
            });
        }
        out.persistent_volumes.push(pv);
    }
    end
}

const DEFAULT_CLASS_ANNOTATION: &str = "storageclass.kubernetes.io/is-default-class";

/// `kubectl get storageclass`: `NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE
/// ALLOWVOLUMEEXPANSION AGE`; the default class is shown as `name (default)`.
fn parse_storage_classes_table(lines: &[&str], start: usize, out: &mut ParsedText) -> usize {
    let (rows, end) = top_table_rows(lines, start);
    for cells in rows {
        let raw = table_cell(&cells, "NAME");
        let (name, default) = match raw.strip_suffix(" (default)") {
            Some(n) => (n.trim().to_owned(), true),
            None => (raw, false),
        };
        // `kubectl get pv,pvc,sc` names each row `<resource>/<name>`
        // (`storageclass.storage.k8s.io/gp2 (default)`); an object name never holds a `/`
        let name = match name.rsplit_once('/') {
            Some((_, n)) => n.to_owned(),
            None => name,
        };
        if name.is_empty() {
            continue;
        }
        let mut sc = StorageClass {
            provisioner: table_cell(&cells, "PROVISIONER"),
            ..StorageClass::default()
        };
        sc.metadata.name = name;
        // the table shows the default mark, so its absence means "not default"
        sc.metadata
            .annotations
            .insert(DEFAULT_CLASS_ANNOTATION.to_owned(), default.to_string());
        let policy = table_cell(&cells, "RECLAIMPOLICY");
        sc.reclaim_policy = (!policy.is_empty()).then_some(policy);
        let mode = table_cell(&cells, "VOLUMEBINDINGMODE");
        sc.volume_binding_mode = (!mode.is_empty()).then_some(mode);
        out.storage_classes.push(sc);
    }
    end
}

/// Sub-sections of a describe section written at one indent (`Pod Template:` holds
/// `  Labels:`, `  Containers:`, `  Node-Selectors:`, `  Tolerations:` at indent 2): key,
/// inline value and the deeper lines below.
fn sub_sections<'a>(section: &Section<'a>, indent: usize) -> Vec<Section<'a>> {
    let mut out: Vec<Section<'a>> = Vec::new();
    for line in &section.lines {
        let t = line.trim_start();
        if indent_of(line) == indent
            && let Some((key, inline)) = top_key(t)
        {
            out.push(Section {
                key,
                inline,
                lines: Vec::new(),
            });
        } else if let Some(last) = out.last_mut() {
            last.lines.push(line);
        }
    }
    out
}

fn daemon_set_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let mut ds = DaemonSet {
        metadata: meta_from_block(b),
        ..DaemonSet::default()
    };
    let number = |key: &str| b.inline(key).parse::<i32>().unwrap_or(0);
    if b.get("Desired Number of Nodes Scheduled").is_some() {
        ds.metadata.annotations.insert(
            STATUS_SHOWN_ANNOTATION.to_owned(),
            "kubectl describe daemonset".to_owned(),
        );
    }
    ds.status.desired_number_scheduled = number("Desired Number of Nodes Scheduled");
    ds.status.current_number_scheduled = number("Current Number of Nodes Scheduled");
    ds.status.number_available = number("Number of Nodes Scheduled with Available Pods");
    ds.status.number_misscheduled = number("Number of Nodes Misscheduled");
    // `Pods Status: 1 Running / 0 Waiting / 0 Succeeded / 0 Failed`: running pods stand for
    // ready ones (describe does not print numberReady)
    ds.status.number_ready = b
        .inline("Pods Status")
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let selector = b.inline("Selector");
    if !selector.is_empty() && !selector.contains(' ') {
        ds.spec.selector = Some(LabelSelector {
            match_labels: comma_labels(selector).into_iter().collect(),
            ..LabelSelector::default()
        });
    }
    ds.spec.template.spec.node_selector = comma_labels(b.inline("Node-Selector"))
        .into_iter()
        .collect();
    if let Some(template) = b.get("Pod Template") {
        let object = format!("DaemonSet/{}/{}", ds.metadata.namespace, ds.metadata.name);
        for sub in sub_sections(template, 2) {
            match sub.key {
                "Labels" => {
                    ds.spec.template.metadata.labels = sub.values().filter_map(split_kv).collect();
                }
                "Node-Selectors" => {
                    for (k, v) in sub.values().filter_map(split_kv) {
                        ds.spec.template.spec.node_selector.insert(k, v);
                    }
                }
                "Tolerations" => {
                    ds.spec.template.spec.tolerations =
                        sub.values().filter_map(parse_toleration).collect();
                }
                "Priority Class Name" => {
                    ds.spec.template.spec.priority_class_name =
                        none_to_empty(sub.inline).to_owned();
                }
                "Containers" | "Init Containers" => {
                    // the container blocks sit one column deeper than in describe pod
                    let shifted: Vec<String> = sub
                        .lines
                        .iter()
                        .map(|l| l.get(1..).unwrap_or("").to_owned())
                        .collect();
                    let section = Section {
                        key: sub.key,
                        inline: "",
                        lines: shifted.iter().map(String::as_str).collect(),
                    };
                    let list = containers(&section, idx, &object, &mut out.problems);
                    if sub.key == "Containers" {
                        ds.spec.template.spec.containers = list;
                    } else {
                        ds.spec.template.spec.init_containers = list;
                    }
                }
                _ => {}
            }
        }
    }
    if let Some(s) = b.get("Events") {
        let involved = ObjectReference {
            kind: "DaemonSet".to_owned(),
            namespace: ds.metadata.namespace.clone(),
            name: ds.metadata.name.clone(),
            ..ObjectReference::default()
        };
        out.events.extend(describe_events(s, &involved));
    }
    out.daemon_sets.push(ds);
}

/// Rows `name  used  hard` of a quota table (header and `----` lines skipped) into `q`.
fn quota_rows<'l>(
    lines: impl IntoIterator<Item = &'l str>,
    q: &mut ResourceQuota,
    idx: usize,
    problems: &mut Vec<LoadProblem>,
) {
    let status = q.status.get_or_insert_with(ResourceQuotaStatus::default);
    for line in lines {
        if is_quota_header(line) || line.trim().starts_with("---") || line.trim().is_empty() {
            continue;
        }
        let cells = split_wide(line.trim(), 3);
        let [name, used, hard] = cells.as_slice() else {
            continue;
        };
        for (value, is_hard) in [(hard, true), (used, false)] {
            match value.parse::<Quantity>() {
                Ok(v) => {
                    if is_hard {
                        q.spec.hard.insert(name.as_str(), v.clone());
                        status.hard.insert(name.as_str(), v);
                    } else {
                        status.used.insert(name.as_str(), v);
                    }
                }
                Err(err) => problems.push(LoadProblem {
                    document: idx,
                    object: format!("ResourceQuota/{}/{}", q.metadata.namespace, q.metadata.name),
                    field: name.clone(),
                    message: format!("invalid quantity {value:?}: {err}"),
                    ..LoadProblem::default()
                }),
            }
        }
    }
}

/// `describe quota` (`describeQuota`): Name, Namespace, Scopes, then `Resource Used Hard`.
fn quota_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let mut q = ResourceQuota {
        metadata: meta_from_block(b),
        ..ResourceQuota::default()
    };
    q.spec.scopes = b
        .inline("Scopes")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(t) = b.get("Resource Table") {
        quota_rows(t.lines.iter().copied(), &mut q, idx, &mut out.problems);
    }
    out.resource_quotas.push(q);
}

/// Rows of a LimitRange table (`describeLimitRangeSpec`: Type, Resource, Min, Max, Default
/// Request, Default Limit, Max Limit/Request Ratio; `-` is unset) into LimitRange items.
fn limit_items(
    rows: Vec<BTreeMap<String, String>>,
    object: &str,
    idx: usize,
    problems: &mut Vec<LoadProblem>,
) -> Vec<LimitRangeItem> {
    let mut items: Vec<LimitRangeItem> = Vec::new();
    for row in rows {
        let cell = |n: &str| row.get(n).map(|s| s.trim().to_owned()).unwrap_or_default();
        let type_ = cell("Type");
        let resource = cell("Resource");
        if type_.is_empty() || resource.is_empty() {
            continue;
        }
        if items.last().is_none_or(|it| it.type_ != type_) {
            items.push(LimitRangeItem {
                type_: type_.clone(),
                ..LimitRangeItem::default()
            });
        }
        let Some(item) = items.last_mut() else {
            continue;
        };
        for (column, list) in [
            ("Min", &mut item.min),
            ("Max", &mut item.max),
            ("Default Request", &mut item.default_request),
            ("Default Limit", &mut item.default),
            ("Max Limit/Request Ratio", &mut item.max_limit_request_ratio),
        ] {
            let v = cell(column);
            if v.is_empty() || v == "-" {
                continue;
            }
            match v.parse::<Quantity>() {
                Ok(q) => {
                    list.insert(resource.as_str(), q);
                }
                Err(err) => problems.push(LoadProblem {
                    document: idx,
                    object: object.to_owned(),
                    field: format!("{type_}.{resource}.{column}"),
                    message: format!("invalid quantity {v:?}: {err}"),
                    ..LoadProblem::default()
                }),
            }
        }
    }
    items
}

/// `describe limitrange` (`describeLimitRange`).
fn limit_range_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let mut lr = LimitRange {
        metadata: meta_from_block(b),
        ..LimitRange::default()
    };
    if let Some(t) = b.get("Limits Table") {
        let object = format!("LimitRange/{}/{}", lr.metadata.namespace, lr.metadata.name);
        lr.spec.limits = limit_items(table_rows(t), &object, idx, &mut out.problems);
    }
    out.limit_ranges.push(lr);
}

/// `describe namespace` (`describeNamespace`): its `Resource Quotas` (one `Name:` block per
/// quota) and `Resource Limits` (all LimitRanges merged into one table: read as one LimitRange
/// named `limits`, as the names are not printed).
fn namespace_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let namespace = b.inline("Name").to_owned();
    if let Some(s) = b.get("Resource Quotas") {
        let mut current: Option<(ResourceQuota, Vec<&str>)> = None;
        let finish = |c: Option<(ResourceQuota, Vec<&str>)>, out: &mut ParsedText| {
            if let Some((mut q, rows)) = c {
                quota_rows(rows, &mut q, idx, &mut out.problems);
                out.resource_quotas.push(q);
            }
        };
        for line in &s.lines {
            let t = line.trim();
            if let Some(name) = t.strip_prefix("Name:") {
                finish(current.take(), out);
                let mut q = ResourceQuota::default();
                q.metadata.name = name.trim().to_owned();
                q.metadata.namespace = namespace.clone();
                current = Some((q, Vec::new()));
            } else if let Some(scopes) = t.strip_prefix("Scopes:") {
                if let Some((q, _)) = current.as_mut() {
                    q.spec.scopes = scopes
                        .split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned)
                        .collect();
                }
            } else if !t.starts_with('*')
                && let Some((_, rows)) = current.as_mut()
            {
                rows.push(line);
            }
        }
        finish(current.take(), out);
    }
    if let Some(s) = b.get("Resource Limits") {
        let mut lr = LimitRange::default();
        lr.metadata.name = "limits".to_owned();
        lr.metadata.namespace = namespace.clone();
        lr.metadata.annotations.insert(
            PARTIAL_ANNOTATION.to_owned(),
            "from kubectl describe namespace: the LimitRanges of the namespace merged; unknown: names".to_owned(),
        );
        let object = format!("LimitRange/{namespace}/limits");
        lr.spec.limits = limit_items(table_rows(s), &object, idx, &mut out.problems);
        if !lr.spec.limits.is_empty() {
            out.limit_ranges.push(lr);
        }
    }
}

/// `describe priorityclass` (`describePriorityClass`).
fn priority_class_from_block(b: &Block<'_>, out: &mut ParsedText) {
    let policy = b.inline("PreemptionPolicy");
    let Ok(value) = b.inline("Value").parse::<i32>() else {
        return;
    };
    out.priority_classes.push(PriorityClass {
        metadata: meta_from_block(b),
        value,
        global_default: b.inline("GlobalDefault") == "true",
        preemption_policy: (!policy.is_empty()).then(|| policy.to_owned()),
        description: b.inline("Description").to_owned(),
    });
}

/// `describe storageclass` (`describeStorageClass`): `IsDefaultClass: Yes|No`.
fn storage_class_from_block(b: &Block<'_>, out: &mut ParsedText) {
    let mut sc = StorageClass {
        metadata: ObjectMeta {
            name: b.inline("Name").to_owned(),
            ..ObjectMeta::default()
        },
        provisioner: b.inline("Provisioner").to_owned(),
        ..StorageClass::default()
    };
    // Annotations are printed inline as `k=v,k2=v2` here
    for (k, v) in comma_labels(b.inline("Annotations")) {
        if k == DEFAULT_CLASS_ANNOTATION {
            sc.metadata.annotations.insert(k, v);
        }
    }
    match b.inline("IsDefaultClass") {
        "Yes" => {
            sc.metadata
                .annotations
                .insert(DEFAULT_CLASS_ANNOTATION.to_owned(), "true".to_owned());
        }
        "No" if !sc
            .metadata
            .annotations
            .contains_key(DEFAULT_CLASS_ANNOTATION) =>
        {
            sc.metadata
                .annotations
                .insert(DEFAULT_CLASS_ANNOTATION.to_owned(), "false".to_owned());
        }
        _ => {}
    }
    sc.parameters = comma_labels(b.inline("Parameters")).into_iter().collect();
    let policy = b.inline("ReclaimPolicy");
    sc.reclaim_policy = (!policy.is_empty()).then(|| policy.to_owned());
    let mode = b.inline("VolumeBindingMode");
    sc.volume_binding_mode = (!mode.is_empty()).then(|| mode.to_owned());
    out.storage_classes.push(sc);
}

/// `describe pv` (`describePersistentVolume`): claim, class, capacity, node affinity terms
/// (`Term 0:  kubernetes.io/hostname in [node-01]`) and the source (`Type: HostPath`, `Path:`;
/// `LocalVolume`; `NFS` with `Server:`; `CSI` with `Driver:`).
fn pv_from_block(b: &Block<'_>, idx: usize, out: &mut ParsedText) {
    let mut pv = PersistentVolume {
        metadata: meta_from_block(b),
        ..PersistentVolume::default()
    };
    pv.spec.storage_class_name = b.inline("StorageClass").to_owned();
    pv.status.phase = b.inline("Status").to_owned();
    pv.spec.persistent_volume_reclaim_policy = b.inline("Reclaim Policy").to_owned();
    pv.spec.access_modes = access_modes(b.inline("Access Modes"));
    if let Some((ns, claim)) = b.inline("Claim").split_once('/') {
        pv.spec.claim_ref = Some(ObjectReference {
            kind: "PersistentVolumeClaim".to_owned(),
            namespace: ns.to_owned(),
            name: claim.to_owned(),
            ..ObjectReference::default()
        });
    }
    let capacity = b.inline("Capacity");
    if !capacity.is_empty() {
        match capacity.parse::<Quantity>() {
            Ok(q) => {
                pv.spec.capacity.insert("storage", q);
            }
            Err(err) => out.problems.push(LoadProblem {
                document: idx,
                object: format!("PersistentVolume/{}", pv.metadata.name),
                field: "Capacity".to_owned(),
                message: format!("invalid quantity {capacity:?}: {err}"),
                ..LoadProblem::default()
            }),
        }
    }
    if let Some(s) = b.get("Node Affinity") {
        let mut terms = Vec::new();
        for line in &s.lines {
            let t = line.trim();
            let expr = match t.split_once(':') {
                Some((head, rest)) if head.starts_with("Term ") => rest.trim(),
                _ if t.starts_with("Required Terms") => continue,
                _ => t,
            };
            if expr.is_empty() {
                continue;
            }
            // `key in [a, b]`, `key notin [a]`, `key exists`
            let mut words = expr.splitn(3, ' ');
            let (Some(key), Some(op)) = (words.next(), words.next()) else {
                continue;
            };
            let values: Vec<String> = words
                .next()
                .unwrap_or("")
                .trim_matches(['[', ']'])
                .split(',')
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
                .collect();
            let operator = match op {
                "in" => "In",
                "notin" => "NotIn",
                "exists" => "Exists",
                "does" => "DoesNotExist",
                "gt" => "Gt",
                "lt" => "Lt",
                other => other,
            };
            let requirement = NodeSelectorRequirement {
                key: key.to_owned(),
                operator: operator.to_owned(),
                values,
            };
            if t.starts_with("Term ") || terms.is_empty() {
                terms.push(NodeSelectorTerm {
                    match_expressions: vec![requirement],
                    ..NodeSelectorTerm::default()
                });
            } else if let Some(last) = terms.last_mut() {
                last.match_expressions.push(requirement);
            }
        }
        if !terms.is_empty() {
            pv.spec.node_affinity = Some(VolumeNodeAffinity {
                required: Some(NodeSelector {
                    node_selector_terms: terms,
                }),
            });
        }
    }
    if let Some(s) = b.get("Source") {
        let field = |key: &str| {
            s.lines.iter().find_map(|l| {
                l.trim()
                    .strip_prefix(key)
                    .and_then(|r| r.strip_prefix(':'))
                    .map(|v| v.trim().to_owned())
            })
        };
        let ty = field("Type").unwrap_or_default();
        let path = field("Path").unwrap_or_default();
        if ty.starts_with("HostPath") {
            pv.spec.host_path = Some(HostPathVolumeSource {
                path,
                ..HostPathVolumeSource::default()
            });
        } else if ty.starts_with("LocalVolume") {
            pv.spec.local = Some(LocalVolumeSource { path });
        } else if ty.starts_with("NFS") {
            pv.spec.nfs = Some(NfsVolumeSource {
                server: field("Server").unwrap_or_default(),
                path,
                ..NfsVolumeSource::default()
            });
        } else if ty.starts_with("CSI") {
            pv.spec.csi = Some(CsiVolumeSource {
                driver: field("Driver").unwrap_or_default(),
                ..CsiVolumeSource::default()
            });
        }
    }
    if let Some(s) = b.get("Events") {
        let involved = ObjectReference {
            kind: "PersistentVolume".to_owned(),
            name: pv.metadata.name.clone(),
            ..ObjectReference::default()
        };
        out.events.extend(describe_events(s, &involved));
    }
    out.persistent_volumes.push(pv);
}

/// Merges objects that appear twice in one text (see [`parse_text`]).
fn merge_repeats(out: &mut ParsedText) {
    fn dedup<T>(
        items: &mut Vec<T>,
        key: impl Fn(&T) -> Option<(String, String)>,
        merge: impl Fn(&mut T, T),
    ) {
        let mut kept: Vec<T> = Vec::with_capacity(items.len());
        let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
        // the first object of each name, whatever its namespace (no scan per row: a table of
        // 100,000 namespace-less rows stays linear)
        let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
        // the namespace-less rows of each name, for a namespaced view that comes after them
        // (`kubectl get pods` then `kubectl describe pod X`: one pod, not two)
        let mut unplaced: BTreeMap<String, usize> = BTreeMap::new();
        for item in items.drain(..) {
            match key(&item) {
                Some(k) => {
                    // a namespace-less table row matches a namespaced object of that name
                    let found = seen.get(&k).copied().or_else(|| {
                        if k.0.is_empty() {
                            by_name.get(&k.1).copied()
                        } else {
                            unplaced.remove(&k.1)
                        }
                    });
                    match found {
                        Some(i) => {
                            merge(&mut kept[i], item);
                            seen.insert(k, i);
                        }
                        None => {
                            by_name.entry(k.1.clone()).or_insert(kept.len());
                            if k.0.is_empty() {
                                unplaced.entry(k.1.clone()).or_insert(kept.len());
                            }
                            seen.insert(k, kept.len());
                            kept.push(item);
                        }
                    }
                }
                None => kept.push(item),
            }
        }
        *items = kept;
    }
    fn key(m: &ObjectMeta) -> Option<(String, String)> {
        (!m.name.is_empty()).then(|| (m.namespace.clone(), m.name.clone()))
    }
    dedup(&mut out.nodes, |n| key(&n.metadata), merge_node);
    dedup(&mut out.pods, |p| key(&p.metadata), merge_pod);
    dedup(
        &mut out.daemon_sets,
        |d| key(&d.metadata),
        |a, mut b| {
            if a.spec.template.spec.tolerations.is_empty() {
                a.spec.template.spec.tolerations =
                    std::mem::take(&mut b.spec.template.spec.tolerations);
            }
            merge_meta(&mut a.metadata, b.metadata);
        },
    );
    // the same table pasted twice: the later row is the newer state
    dedup(
        &mut out.workloads,
        |w| key(&w.metadata).map(|(ns, name)| (ns, format!("{}/{name}", w.kind))),
        |a, b| {
            let namespace = std::mem::take(&mut a.metadata.namespace);
            *a = b;
            if a.metadata.namespace.is_empty() {
                a.metadata.namespace = namespace;
            }
        },
    );
    dedup(
        &mut out.resource_quotas,
        |q| key(&q.metadata),
        |a, b| merge_meta(&mut a.metadata, b.metadata),
    );
    dedup(&mut out.priority_classes, |p| key(&p.metadata), |_, _| {});
    dedup(
        &mut out.storage_classes,
        |s| key(&s.metadata),
        |a, b| merge_meta(&mut a.metadata, b.metadata),
    );
    dedup(
        &mut out.persistent_volumes,
        |p| key(&p.metadata),
        |a, b| {
            if a.spec.host_path.is_none()
                && a.spec.local.is_none()
                && a.spec.nfs.is_none()
                && a.spec.csi.is_none()
            {
                a.spec.host_path = b.spec.host_path;
                a.spec.local = b.spec.local;
                a.spec.nfs = b.spec.nfs;
                a.spec.csi = b.spec.csi;
            }
            if a.spec.node_affinity.is_none() {
                a.spec.node_affinity = b.spec.node_affinity;
            }
            merge_meta(&mut a.metadata, b.metadata);
        },
    );
    dedup(
        &mut out.persistent_volume_claims,
        |p| key(&p.metadata),
        |a, b| merge_meta(&mut a.metadata, b.metadata),
    );
}

/// Labels and annotations the first object lacks; the partial mark stays only when both were
/// partial.
fn merge_meta(a: &mut ObjectMeta, b: ObjectMeta) {
    let a_partial = a.annotations.contains_key(PARTIAL_ANNOTATION);
    let b_partial = b.annotations.contains_key(PARTIAL_ANNOTATION);
    // the fields a partial view does not show (`unknown: a, b`)
    let unknown = |m: &ObjectMeta| -> Vec<String> {
        m.annotations
            .get(PARTIAL_ANNOTATION)
            .and_then(|v| v.split_once("unknown: "))
            .map(|(_, l)| l.split(", ").map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let theirs = unknown(&b);
    let labels: Vec<(&str, &str)> = b
        .labels
        .iter()
        .filter(|(k, _)| !a.labels.contains_key(k))
        .collect();
    a.labels.extend(labels);
    let annotations: Vec<(&str, &str)> = b
        .annotations
        .iter()
        .filter(|(k, _)| *k != PARTIAL_ANNOTATION && !a.annotations.contains_key(k))
        .collect();
    a.annotations.extend(annotations);
    if !(a_partial && b_partial) {
        a.annotations.remove(PARTIAL_ANNOTATION);
    } else {
        // both partial views: a field stays unknown only when neither showed it
        let both: Vec<String> = unknown(a)
            .into_iter()
            .filter(|f| theirs.contains(f))
            .collect();
        if let Some(v) = a.annotations.get(PARTIAL_ANNOTATION) {
            let head = v.split_once("unknown: ").map_or(v, |(h, _)| h);
            let note = format!("{head}unknown: {}", both.join(", "));
            a.annotations.insert(PARTIAL_ANNOTATION.to_owned(), note);
        }
    }
    if a.namespace.is_empty() {
        a.namespace = b.namespace;
    }
    if a.creation_timestamp.is_none() {
        a.creation_timestamp = b.creation_timestamp;
    }
}

/// Merges each node of `nodes[mark..]` into the earlier node of the same name when either is a
/// partial view ([`PARTIAL_ANNOTATION`]: a `kubectl get nodes` row, a grep excerpt) and their
/// uids and creation times do not disagree; the later node is removed. Returns how many were
/// merged. O(nodes), nothing done when no node is partial.
pub(crate) fn merge_partial_nodes(
    nodes: &mut Vec<Node>,
    mark: usize,
    conflicts: &mut Vec<(usize, String, crate::snapshot::ViewVerdict)>,
) -> usize {
    let partial = |n: &Node| n.metadata.annotations.contains_key(PARTIAL_ANNOTATION);
    if mark == 0 || mark >= nodes.len() || !nodes.iter().any(partial) {
        return 0;
    }
    let earlier: std::collections::HashMap<String, usize> = nodes[..mark]
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.metadata.name.is_empty())
        .map(|(i, n)| (n.metadata.name.clone(), i))
        .collect();
    let mut removed = vec![false; nodes.len()];
    for j in mark..nodes.len() {
        let Some(&i) = earlier.get(&nodes[j].metadata.name) else {
            continue;
        };
        if !(partial(&nodes[i]) || partial(&nodes[j])) {
            continue;
        }
        let (a, b) = (&nodes[i].metadata, &nodes[j].metadata);
        let uid_differs = !a.uid.is_empty() && !b.uid.is_empty() && a.uid != b.uid;
        let time_differs = a.creation_timestamp.is_some()
            && b.creation_timestamp.is_some()
            && a.creation_timestamp != b.creation_timestamp;
        if uid_differs || time_differs {
            continue;
        }
        let later = std::mem::take(&mut nodes[j]);
        // two views that disagree on the node's health: the newer by status time, else the
        // one that reports trouble (ClusterSnapshot::conflicts), whatever the argument order
        let verdict = crate::snapshot::choose_view(&nodes[i], &later);
        let chosen = verdict.as_ref().map(|v| {
            if v.kept_later {
                later.status.conditions.clone()
            } else {
                nodes[i].status.conditions.clone()
            }
        });
        merge_node(&mut nodes[i], later);
        if let (Some(conditions), Some(v)) = (chosen, verdict) {
            nodes[i].status.conditions = conditions;
            conflicts.push((i, nodes[i].metadata.name.clone(), v));
        }
        removed[j] = true;
    }
    let count = removed.iter().filter(|r| **r).count();
    let mut flags = removed.iter();
    nodes.retain(|_| !flags.next().copied().unwrap_or(false));
    count
}

/// What tells two views of one node name apart as two machines: their `InternalIP` (or
/// `Hostname`) addresses, when both views show some and they share none (`kubectl get nodes -o
/// wide` twice with the IP changed, a table row and a `describe node` of the name with other
/// addresses). `None` when the views agree or one does not show them (a repeated identical
/// table stays one node, quietly).
fn identity_conflict(a: &Node, b: &Node) -> Option<String> {
    for kind in ["InternalIP", "Hostname"] {
        let of = |n: &Node| -> Vec<String> {
            n.status
                .addresses
                .iter()
                .filter(|x| x.type_ == kind && !x.address.is_empty())
                .map(|x| x.address.clone())
                .collect()
        };
        let (x, y) = (of(a), of(b));
        if !x.is_empty() && !y.is_empty() && !x.iter().any(|v| y.contains(v)) {
            return Some(format!("{kind} {} and {}", x.join(","), y.join(",")));
        }
    }
    None
}

/// Merges `b`, the node's view that comes LATER in the input (a later row of `kubectl get nodes
/// -w`, the second of two stacked tables, a later input), into `a`. A fuller view (a `describe
/// node` block) is the base and a partial one (a table row) fills what it lacks; the node's
/// STATE (its conditions, whether it is cordoned) is taken from the later view whenever that view
/// shows it: a watch and stacked outputs are in time order, so `Ready` then `NotReady` is a node
/// that went NotReady (fresh-user H14: the first row used to win, a false all-clear).
fn merge_node(a: &mut Node, b: Node) {
    let a_partial = a.metadata.annotations.contains_key(PARTIAL_ANNOTATION);
    if a_partial && !b.metadata.annotations.contains_key(PARTIAL_ANNOTATION) {
        // the describe block came second: it is the fuller picture, and the newer state
        let table = std::mem::replace(a, b);
        merge_node_views(a, table, false);
        return;
    }
    merge_node_views(a, b, true);
}

/// [`merge_node`]'s work: `b_is_later` says whether `b`'s state supersedes `a`'s.
fn merge_node_views(a: &mut Node, b: Node, b_is_later: bool) {
    // a view shows the node's state when it shows its Ready condition (a table row's STATUS, a
    // describe block's Conditions); a grep excerpt without it only adds what it shows
    let b_shows_state = b_is_later && b.status.conditions.iter().any(|c| c.type_ == "Ready");
    let conflict = identity_conflict(a, &b);
    merge_meta(&mut a.metadata, b.metadata);
    if let Some(conflict) = conflict {
        let note = match a.metadata.annotations.get(IDENTITY_CONFLICT_ANNOTATION) {
            Some(v) if v.contains(&conflict) => v.to_owned(),
            Some(v) => format!("{v}; {conflict}"),
            None => conflict,
        };
        a.metadata
            .annotations
            .insert(IDENTITY_CONFLICT_ANNOTATION.to_owned(), note);
    }
    if a.spec.taints.is_empty() {
        a.spec.taints = b.spec.taints;
    }
    if b_shows_state {
        // `Ready,SchedulingDisabled` then `Ready`: uncordoned in between
        a.spec.unschedulable = b.spec.unschedulable;
    } else {
        a.spec.unschedulable |= b.spec.unschedulable;
    }
    if a.status.capacity.is_empty() {
        a.status.capacity = b.status.capacity;
    }
    if a.status.allocatable.is_empty() {
        a.status.allocatable = b.status.allocatable;
    }
    if a.status.addresses.is_empty() {
        a.status.addresses = b.status.addresses;
    }
    for c in b.status.conditions {
        match a.status.conditions.iter_mut().find(|x| x.type_ == c.type_) {
            // the later view's state; the earlier condition is kept when it says the same (a
            // describe block's condition carries the reason and message a table row lacks)
            Some(x) if b_is_later && x.status != c.status => *x = c,
            Some(_) => {}
            None => a.status.conditions.push(c),
        }
    }
    let (ai, bi) = (&mut a.status.node_info, b.status.node_info);
    for (x, y) in [
        (&mut ai.kubelet_version, bi.kubelet_version),
        (&mut ai.os_image, bi.os_image),
        (&mut ai.kernel_version, bi.kernel_version),
        (
            &mut ai.container_runtime_version,
            bi.container_runtime_version,
        ),
        (&mut ai.operating_system, bi.operating_system),
        (&mut ai.architecture, bi.architecture),
    ] {
        if x.is_empty() {
            *x = y;
        }
    }
}

/// Merges `b`, the pod's view that comes LATER in the input, into `a`, as [`merge_node`] does:
/// the fuller view is the base, and the pod's state (phase, the reason `kubectl get pods` shows in
/// STATUS, its Ready conditions) is the later view's when it shows one (`kubectl get pods -w`:
/// `Running` then `OOMKilled` then `CrashLoopBackOff` is a pod that crashes now; fresh-user H14).
fn merge_pod(a: &mut Pod, b: Pod) {
    let a_partial = a.metadata.annotations.contains_key(PARTIAL_ANNOTATION);
    if a_partial && !b.metadata.annotations.contains_key(PARTIAL_ANNOTATION) {
        let table = std::mem::replace(a, b);
        merge_pod_views(a, table, false);
        return;
    }
    merge_pod_views(a, b, true);
}

/// [`merge_pod`]'s work: `b_is_later` says whether `b`'s state supersedes `a`'s.
fn merge_pod_views(a: &mut Pod, mut b: Pod, b_is_later: bool) {
    let b_shows_state = b_is_later && !b.status.phase.is_empty();
    merge_meta(&mut a.metadata, b.metadata);
    if a.spec.node_name.is_empty() {
        a.spec.node_name = std::mem::take(&mut b.spec.node_name);
    }
    if b_shows_state && (a.status.phase != b.status.phase || a.status.reason != b.status.reason) {
        let shown = if a.status.reason.is_empty() {
            a.status.phase.clone()
        } else {
            a.status.reason.clone()
        };
        if !shown.is_empty() {
            let history = match a.metadata.annotations.get(EARLIER_STATUS_ANNOTATION) {
                Some(h) => format!("{h}, {shown}"),
                None => shown,
            };
            a.metadata
                .annotations
                .insert(EARLIER_STATUS_ANNOTATION.to_owned(), history);
        }
        a.status.phase = std::mem::take(&mut b.status.phase);
        a.status.reason = std::mem::take(&mut b.status.reason);
        for c in std::mem::take(&mut b.status.conditions) {
            match a.status.conditions.iter_mut().find(|x| x.type_ == c.type_) {
                Some(x) => *x = c,
                None => a.status.conditions.push(c),
            }
        }
    }
    if a.status.phase.is_empty() {
        a.status.phase = std::mem::take(&mut b.status.phase);
    }
    if a.status.reason.is_empty() {
        a.status.reason = std::mem::take(&mut b.status.reason);
    }
    if a.spec.containers.is_empty() {
        a.spec.containers = b.spec.containers;
    }
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
    #[test]
    fn a_root_prompt_before_json_makes_a_paste_but_a_yaml_comment_does_not() {
        use crate::snapshot::InputFormat;
        let json = "{\"kind\": \"List\", \"items\": []}\n";
        assert_eq!(detect_text_format(json), InputFormat::Json);
        for prompt in [
            "# kubectl get nodes -o json\n",
            "#kubectl get nodes -o json\n",
        ] {
            let pasted = format!("{prompt}{json}");
            let want = if crate::paste::prompt_command(prompt.trim_end()).is_some() {
                InputFormat::Text
            } else {
                InputFormat::Json
            };
            assert_eq!(detect_text_format(&pasted), want, "{pasted}");
        }
        assert_eq!(
            detect_text_format(&format!("# kubectl get nodes -o json\n{json}")),
            InputFormat::Text
        );
        // a comment that is no command before YAML stays a YAML comment
        assert_eq!(
            detect_text_format("# nodes of pool a\nkind: List\nitems: []\n"),
            InputFormat::Yaml
        );
    }

    #[test]
    fn v1_0_node_describe_lists_its_pods() {
        // pkg/kubectl/describe.go of release-1.0: `Pods:\t(N in total)` then `Namespace\tName`
        let text = "Name:\t\t\tnode-01\nAddresses:\t10.0.0.7\nCapacity:\n pods:\t\t40\n cpu:\t\t1\nPods:\t\t\t(2 in total)\n  Namespace\t\t\tName\n  default\t\t\tweb-1\n  kube-system\t\t\tkube-dns-v8-abc\n";
        let p = parse_text(text);
        assert_eq!(p.nodes.len(), 1);
        assert_eq!(p.nodes[0].metadata.name, "node-01");
        let names: Vec<(&str, &str)> = p
            .pods
            .iter()
            .map(|x| (x.metadata.name.as_str(), x.spec.node_name.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![("web-1", "node-01"), ("kube-dns-v8-abc", "node-01")]
        );
    }

    #[test]
    fn wrapped_scheduler_messages_are_one_event() {
        let text = "Name:         web-0\nNamespace:    shop\nNode:         <none>\nStatus:       Pending\nContainers:\n  web:\n    Image:      nginx\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  2m    default-scheduler  0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: },\nthat the pod didn't tolerate, 2 Too many pods.\n";
        let p = parse_text(text);
        assert_eq!(p.events.len(), 1);
        assert!(
            p.events[0]
                .message
                .ends_with("that the pod didn't tolerate, 2 Too many pods."),
            "{}",
            p.events[0].message
        );
        // a message that never ends is left as it is
        let cut = "0/3 nodes are available: 1 node(s) had taint {a: b},\nName: x\n";
        assert_eq!(join_wrapped_scheduler_messages(cut), cut);
    }

    use super::*;

    #[test]
    fn describe_node_pod_rows_and_describe_pod_container_states() {
        let node = "Name:               node-07
Capacity:
  cpu:                32
Non-terminated Pods:          (2 in total)
  Namespace                   Name                                  CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----                                  ------------  ----------  ---------------  -------------  ---
  kube-system                 amdgpu-device-plugin-daemonset-kcnfr  0 (0%)        0 (0%)      0 (0%)           0 (0%)         22h
  kube-system                 kube-proxy-8dz2x                      100m (0%)     0 (0%)      0 (0%)           0 (0%)         25h
";
        let p = parse_text(node);
        assert_eq!(p.pods.len(), 2);
        assert_eq!(
            p.pods[0].metadata.name,
            "amdgpu-device-plugin-daemonset-kcnfr"
        );
        assert_eq!(p.pods[0].metadata.namespace, "kube-system");
        assert_eq!(p.pods[0].spec.node_name, "node-07");
        assert!(is_unknown(&p.pods[0].metadata, "requests"));
        let pod = "Name:           nvidia-driver-installer-p8qqj
Namespace:      kube-system
Node:           gke-node-03/10.0.0.30
Status:         Pending
Init Containers:
  nvidia-driver-installer:
    Image:          gke-nvidia-installer:fixed
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    32
    Ready:          False
    Restart Count:  22
Containers:
  pause:
    Image:          gcr.io/google-containers/pause:2.0
    State:          Running
      Started:      Fri, 15 Feb 2019 13:06:04 +0530
    Ready:          True
    Restart Count:  0
";
        let p = parse_text(pod);
        let s = &p.pods[0].status;
        let init = &s.init_container_statuses[0];
        assert_eq!(init.name, "nvidia-driver-installer");
        assert_eq!(init.restart_count, 22);
        assert!(!init.ready);
        let w = init.state.as_ref().unwrap().waiting.as_ref().unwrap();
        // the Last State's reason is not the current state's
        assert_eq!(w.reason, "CrashLoopBackOff");
        assert!(s.container_statuses[0].ready);
        assert!(
            s.container_statuses[0]
                .state
                .as_ref()
                .unwrap()
                .running
                .is_some()
        );
        // a manifest described without state: no statuses
        let bare = "Name: p\nNamespace: a\nContainers:\n  c:\n    Image: x\n";
        assert!(
            parse_text(bare).pods[0]
                .status
                .container_statuses
                .is_empty()
        );
    }

    #[track_caller]
    fn check_format(text: &str, expected: InputFormat) {
        assert_eq!(detect_text_format(text), expected, "{text}");
    }

    /// Issue 9 (nothing dropped): JSON documents joined by `---` with one broken document are
    /// a YAML stream, every good document kept, the broken one listed.
    #[test]
    fn json_documents_joined_by_separators_with_a_broken_one_are_a_yaml_stream() {
        let node = |n: &str| {
            format!(r#"{{"apiVersion": "v1", "kind": "Node", "metadata": {{"name": "{n}"}}}}"#)
        };
        let text = [
            node("n0"),
            "kind: Node\nmetadata: {name: [".to_owned(),
            node("n2"),
            node("n3"),
        ]
        .join("\n---\n");
        assert_eq!(detect_text_format(&text), InputFormat::Yaml);
        let s = crate::ClusterSnapshot::from_slice("s.yaml", text.as_bytes());
        assert_eq!(s.nodes.len(), 3, "{:?}", s.problems);
        assert!(!s.problems.is_empty());
        // the broken document first: every good document kept too
        let first_broken = [
            "{\"apiVersion\": \"v1\", \"kind\": \"Node\",".to_owned(),
            node("n1"),
            node("n2"),
        ]
        .join("\n---\n");
        // (read as JSON cut short: the JSON reader resynchronises at the next value)
        let s = crate::ClusterSnapshot::from_slice("f.yaml", first_broken.as_bytes());
        assert_eq!(s.nodes.len(), 2, "{:?}", s.problems);
        assert!(!s.problems.is_empty());
        // a JSON log line, a Markdown rule and prose: not a YAML stream
        let prose =
            "{\"level\":\"error\",\"msg\":\"x\"}\n---\nThe plugin fails after the upgrade.\n";
        assert_ne!(detect_text_format(prose), InputFormat::Yaml);
        // clean ones stay what they were
        let clean = [node("a"), node("b")].join("\n---\n");
        assert_ne!(detect_text_format(&clean), InputFormat::Text);
        assert_eq!(
            crate::ClusterSnapshot::from_slice("c.yaml", clean.as_bytes())
                .nodes
                .len(),
            2
        );
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

    /// Content detection never takes a log for JSON: JSON lines after text, text after a JSON
    /// record cut short, a `{}` or `[...]` at the start of a log line; dumps stay JSON,
    /// also cut short.
    #[test]
    fn logs_that_start_like_json_are_text() {
        let record = r#"{"level":"error","ts":1700000001.2,"msg":"failed to initialize NVML"}"#;
        // JSON logging alone: a stream of values (the loader finds no kind: a log)
        check_format(&format!("{record}\n{record}\n"), InputFormat::Json);
        // JSON lines after text
        check_format(&format!("Starting plugin\n{record}\n"), InputFormat::Text);
        // klog after a JSON record, the record complete or cut short
        let klog = "I1201 10:00:00.000000       1 main.go:12] next";
        check_format(&format!("{record}\n{klog}\n"), InputFormat::Text);
        check_format(&format!("{}\n{klog}\n", &record[..40]), InputFormat::Text);
        check_format("{} [INFO] starting\n{} [ERROR] boom\n", InputFormat::Text);
        check_format(
            "{main.go:12} error: could not load NVML\n",
            InputFormat::Text,
        );
        check_format("[{\"a\":1}] plugin started\n", InputFormat::Text);
        check_format(
            "[2021-05-08 12:20:58] error execution phase",
            InputFormat::Text,
        );
        check_format("[   12.345678] nvidia: module loaded", InputFormat::Text);
        // dumps: pretty, cut short, several values on a line, an array of objects
        check_format(
            "{\n  \"kind\": \"List\",\n  \"items\": [\n    {\"kind\": \"Node\"}\n  ]\n}\n",
            InputFormat::Json,
        );
        check_format(
            "{\n  \"kind\": \"Pod\",\n  \"metadata\": {",
            InputFormat::Json,
        );
        check_format(
            "{\"kind\":\"Pod\"} {\"kind\":\"Node\"}\n",
            InputFormat::Json,
        );
        check_format(
            "[\n  {\"kind\": \"Pod\"},\n  null,\n  true\n]\n",
            InputFormat::Json,
        );
    }

    #[test]
    fn namespace_of_a_shown_command() {
        for (cmd, ns) in [
            ("kubectl get pods -n team-a", Some("team-a")),
            ("kubectl get pods -nteam-a", Some("team-a")),
            (
                "kubectl describe pods p -n=kube-system",
                Some("kube-system"),
            ),
            (
                "kubectl get pods --namespace=gpu-operator -o wide",
                Some("gpu-operator"),
            ),
            (
                "kubectl get pods --namespace \"gpu-operator\"",
                Some("gpu-operator"),
            ),
            ("kubectl get pods -A", None),
            ("kubectl get pods --all-namespaces=true", None),
            ("kubectl get pods", None),
            ("helm list -n x", None),
        ] {
            assert_eq!(command_namespace(cmd).as_deref(), ns, "{cmd}");
        }
    }

    /// An excerpt of a shown `kubectl describe <kind> <name>` (piped through grep or tail)
    /// has no `Name:` line: the command names the object.
    /// `kubectl get pods` rows without their header: `--no-headers` (with `-A`, `-o wide`,
    /// restarts with `(5m ago)`), `| grep` of a listing, rows pasted alone after prose; other
    /// tables' headerless rows and log lines are not pods.
    #[test]
    fn headerless_node_rows() {
        let t = "$ kubectl get nodes --no-headers -o wide\nmaster-1   Ready                      control-plane   12d   v1.29.2        10.0.0.1   <none>   Ubuntu 22.04.4 LTS   5.15.0-105-generic   containerd://1.7.12\ngpu-1      NotReady,SchedulingDisabled   <none>   12d   v1.28.5+k3s1\n";
        let p = parse_text(t);
        assert_eq!(p.nodes.len(), 2, "{:?}", p.nodes);
        assert_eq!(p.nodes[0].status.node_info.os_image, "Ubuntu 22.04.4 LTS");
        assert!(p.nodes[1].spec.unschedulable);
        assert_eq!(p.nodes[1].status.conditions[0].status, "False");
        // a pod row, a log line and prose are no node rows
        for other in [
            "web-0   1/1   Running   0   12d",
            "gpu-1 Ready to serve 12d v2 of the API",
            "I1201 10:00:00.000000 1 main.go:1] Ready",
        ] {
            assert!(headerless_node_row(other).is_none(), "{other}");
        }
    }

    #[test]
    fn headerless_pod_rows() {
        let wide = "$ kubectl get pods -A -o wide --no-headers\ngpu-operator   nvidia-device-plugin-daemonset-42pzg   0/1   CrashLoopBackOff   12 (2m ago)   39m   10.244.1.5   gpu-node-1   <none>   <none>\nkube-system    coredns-5d78c9869d-abcde               1/1   Running            0             30d   10.244.0.2   cpu-1        <none>   <none>\n";
        let p = parse_text(wide);
        assert_eq!(p.pods.len(), 2, "{:#?}", p.pods);
        let dp = &p.pods[0];
        assert_eq!(
            (
                dp.metadata.namespace.as_str(),
                dp.metadata.name.as_str(),
                dp.spec.node_name.as_str(),
                dp.status.reason.as_str()
            ),
            (
                "gpu-operator",
                "nvidia-device-plugin-daemonset-42pzg",
                "gpu-node-1",
                "CrashLoopBackOff"
            )
        );
        let grep = "$ kubectl get pods -n gpu-operator | grep nvidia\nnvidia-driver-daemonset-zs8mm   0/1     Init:0/1   0          3d20h\n";
        let p = parse_text(grep);
        assert_eq!(p.pods.len(), 1);
        assert_eq!(p.pods[0].metadata.namespace, "gpu-operator");
        assert_eq!(p.pods[0].status.reason, "Init:0/1");
        let bare = "All nvidia pods remain in a crash loop backoff.\n\nnvidia-dcgm-exporter-4f8fz   0/1     CrashLoopBackOff   1106       3d20h\n";
        assert_eq!(detect_text_format(bare), InputFormat::GetTable);
        assert_eq!(parse_text(bare).pods.len(), 1);
        for other in [
            "trainer   0/1   1   0   5m",
            "db   0/1   5m",
            "train-1   0/1   10m   10m",
            "I1201 10:00:00.000000 1 main.go:12] ready 1/1 Running 0 5m",
            "node-1   Ready   control-plane   5d   v1.28.2",
        ] {
            assert!(headerless_pod_row(other, None).is_none(), "{other}");
        }
    }

    /// Elision lines (`...`) end a describe section instead of being read as a resource; a
    /// `labels:` key above a node's label lines (values quoted) is node facts.
    #[test]
    fn elisions_and_yaml_label_blocks() {
        let cap = "kubectl describe node\n...\nCapacity:\n  cpu:                4\n  nvidia.com/gpu:     1\n  pods:               110\n...\n";
        let p = parse_text(cap);
        assert!(p.problems.is_empty(), "{:#?}", p.problems);
        assert_eq!(
            p.nodes[0]
                .status
                .capacity
                .get("nvidia.com/gpu")
                .map(ToString::to_string)
                .as_deref(),
            Some("1")
        );
        let labels = "labels:\n\n    kubernetes.io/os: linux\n    nvidia.com/gpu.present: 'true'\n    nvidia.com/gpu.count: '14'\n";
        assert_eq!(detect_text_format(labels), InputFormat::DescribeNode);
        let p = parse_text(labels);
        assert_eq!(p.nodes.len(), 1, "{:#?}", p.nodes);
        assert_eq!(
            p.nodes[0].metadata.labels.get("nvidia.com/gpu.present"),
            Some("true")
        );
        assert!(!yaml_labels_block("labels:\n  app: web\nspec:\n  x: 1\n"));
    }

    #[test]
    fn excerpts_named_by_their_command() {
        assert_eq!(
            command_object("kubectl describe node gpu-01 | grep -A6 Capacity"),
            Some(("Node", "gpu-01".to_owned()))
        );
        assert_eq!(
            command_object("kubectl -n team-a describe pods/train-0"),
            Some(("Pod", "train-0".to_owned()))
        );
        assert_eq!(
            command_object("kubectl describe po train-0 -n team-a"),
            Some(("Pod", "train-0".to_owned()))
        );
        assert_eq!(command_object("kubectl describe nodes"), None);
        assert_eq!(command_object("kubectl describe nodes -l gpu=true"), None);
        assert_eq!(command_object("kubectl describe svc x"), None);
        assert_eq!(
            command_object("kubectl describe ds openebs-cstor-csi-node -n openebs | tail -4"),
            Some(("DaemonSet", "openebs-cstor-csi-node".to_owned()))
        );
        assert_eq!(
            command_object("kubectl -n ml describe deployments.apps/trainer"),
            Some(("Deployment", "trainer".to_owned()))
        );
        let ds = "$ kubectl describe ds openebs-cstor-csi-node -n openebs | tail -4\nEvents:\n  Type     Reason        Age                From                  Message\n  ----     ------        ----               ----                  -------\n  Warning  FailedCreate  2m (x19 over 14m)  daemonset-controller  Error creating: insufficient quota to match these scopes: [{PriorityClass In [system-node-critical system-cluster-critical]}]\n";
        let p = parse_text(ds);
        let o = &p.events[0].involved_object;
        assert_eq!(
            (o.kind.as_str(), o.namespace.as_str(), o.name.as_str()),
            ("DaemonSet", "openebs", "openebs-cstor-csi-node")
        );
        // `get` of one object names an excerpt of its output (`-o yaml | grep nvidia`)
        assert_eq!(
            command_object("kubectl get node gpu-01 -o yaml | grep -i nvidia"),
            Some(("Node", "gpu-01".to_owned()))
        );
        assert_eq!(command_object("kubectl get nodes -o wide"), None);
        assert_eq!(
            command_object("kubectl get nodes -L nvidia.com/gpu.present"),
            None
        );
        let cap = "$ kubectl describe node gpu-01 | grep -A6 Capacity\nCapacity:\n  cpu:             8\n  nvidia.com/gpu:  0\nAllocatable:\n  cpu:             8\n  nvidia.com/gpu:  0\n";
        assert_eq!(detect_text_format(cap), InputFormat::DescribeNode);
        let p = parse_text(cap);
        assert_eq!(p.nodes[0].metadata.name, "gpu-01");
        let ev = "$ kubectl describe pod train-0 -n team-a | tail -4\nEvents:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  2m    default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu.\n";
        assert_eq!(detect_text_format(ev), InputFormat::EventsTable);
        let p = parse_text(ev);
        let e = &p.events[0];
        assert_eq!(
            (
                e.involved_object.kind.as_str(),
                e.involved_object.namespace.as_str(),
                e.involved_object.name.as_str()
            ),
            ("Pod", "team-a", "train-0")
        );
        // a full describe keeps its own name
        let full = parse_text("$ kubectl describe node gpu-01\nName: gpu-02\nRoles: x\n");
        assert_eq!(full.nodes[0].metadata.name, "gpu-02");
    }

    #[test]
    fn label_excerpts_without_structure() {
        // `-o yaml | grep`: labels as `key: value`, allocatable before capacity (sorted keys)
        let yaml = "$ kubectl get node gpu-01 -o yaml | grep -i nvidia\n    hami.io/node-handshake: Requesting_2024.01.02 15:04:05\n    nvidia.com/gpu.present: \"true\"\n    nvidia.com/gpu.product: Tesla-T4\n    nvidia.com/gpu: \"0\"\n    nvidia.com/gpu: \"4\"\n";
        assert_eq!(detect_text_format(yaml), InputFormat::DescribeNode);
        let p = parse_text(yaml);
        assert_eq!(p.nodes.len(), 1);
        let n = &p.nodes[0];
        assert_eq!(n.metadata.name, "gpu-01");
        assert_eq!(&n.metadata.labels["nvidia.com/gpu.product"], "Tesla-T4");
        assert_eq!(&n.metadata.labels["nvidia.com/gpu.present"], "true");
        assert!(
            n.metadata
                .annotations
                .contains_key("hami.io/node-handshake")
        );
        assert_eq!(
            n.status
                .allocatable
                .get("nvidia.com/gpu")
                .unwrap()
                .to_string(),
            "0"
        );
        assert_eq!(
            n.status.capacity.get("nvidia.com/gpu").unwrap().to_string(),
            "4"
        );
        assert!(!is_unknown(&n.metadata, "allocatable"));
        // a dedented `describe node | grep`: labels `k=v`, Capacity first; the grep matches
        // `nvidia.com/gpu:` lines, so their absence says the node advertises none
        let d = "$ kubectl describe node gpu-02 | grep -i nvidia\nnvidia.com/gpu.count=4\nnvidia.com/gpu.present=true\n";
        let p = parse_text(d);
        assert_eq!(p.nodes.len(), 1);
        assert_eq!(p.nodes[0].metadata.name, "gpu-02");
        assert!(p.nodes[0].status.allocatable.is_empty());
        assert!(!is_unknown(&p.nodes[0].metadata, "allocatable"));
        // without the command (or with a pattern that cannot match the resource line), the
        // resources are unknown
        let p = parse_text("nvidia.com/gpu.count=4\nnvidia.com/gpu.present=true\n");
        assert!(is_unknown(&p.nodes[0].metadata, "allocatable"));
        let p =
            parse_text("$ kubectl describe node x | grep gpu.product\nnvidia.com/gpu.product=T4\n");
        assert!(is_unknown(&p.nodes[0].metadata, "allocatable"));
        // several nodes of `describe nodes | grep`: a repeated key starts the next node
        let many = "nvidia.com/gpu.present=true\n  nvidia.com/gpu:  1\n  nvidia.com/gpu:  1\nnvidia.com/gpu.present=true\n  nvidia.com/gpu:  2\n  nvidia.com/gpu:  2\n";
        assert_eq!(excerpt_groups(&many.lines().collect::<Vec<_>>()).len(), 2);
        // prose with `key=value` words or one stray prefixed line is no excerpt
        assert_eq!(
            detect_text_format("see example.com/x=1 for details\n"),
            InputFormat::Text
        );
        assert_eq!(detect_text_format("example.com/a=1\n"), InputFormat::Text);
        // the Allocated resources rows a grep also matches
        assert_eq!(
            excerpt_line("  nvidia.com/gpu     1           1"),
            Some(ExcerptLine::Allocated)
        );
    }

    #[test]
    fn label_columns_of_get_nodes() {
        let t = "$ kubectl get nodes -L nvidia.com/gpu.present,example.com/pool\nNAME     STATUS   ROLES    AGE   VERSION   GPU.PRESENT   POOL\nnode-1   Ready    <none>   3d    v1.29.0   true          a\nnode-2   Ready    <none>   3d    v1.29.0                 \n";
        let p = parse_text(t);
        assert_eq!(p.nodes.len(), 2);
        assert_eq!(
            &p.nodes[0].metadata.labels["nvidia.com/gpu.present"],
            "true"
        );
        assert_eq!(&p.nodes[0].metadata.labels["example.com/pool"], "a");
        assert!(
            !p.nodes[1]
                .metadata
                .labels
                .contains_key("nvidia.com/gpu.present")
        );
        // without the command: a known key with that header
        let t = "NAME     STATUS   ROLES    AGE   VERSION   GKE-ACCELERATOR\nnode-1   Ready    <none>   3d    v1.29.0   nvidia-tesla-t4\n";
        let p = parse_text(t);
        assert_eq!(
            &p.nodes[0].metadata.labels["cloud.google.com/gke-accelerator"],
            "nvidia-tesla-t4"
        );
        assert_eq!(
            command_label_columns("kubectl get no -L a/b,c -Ld --label-columns=e/f"),
            vec!["a/b", "c", "d", "e/f"]
        );
    }

    #[test]
    fn describe_pod_container_states() {
        let text = "\
Name:         nvidia-driver-installer-p8qqj
Namespace:    kube-system
Node:         gke-node-03/10.0.0.30
Status:       Pending
Init Containers:
  nvidia-driver-installer:
    Image:          cos-gpu-installer:fixed
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    32
    Ready:          False
    Restart Count:  22
Containers:
  pause:
    Image:          pause:2.0
    State:          Running
      Started:      Fri, 15 Feb 2019 13:06:04 +0530
    Ready:          True
    Restart Count:  0
  job:
    Image:          job:1
    State:          Terminated
      Reason:       OOMKilled
      Message:      killed
      Exit Code:    137
    Ready:          False
    Restart Count:  3
";
        let parsed = parse_text(text);
        let p = &parsed.pods[0];
        let init = &p.status.init_container_statuses;
        assert_eq!(init.len(), 1);
        assert_eq!(init[0].name, "nvidia-driver-installer");
        assert_eq!(init[0].restart_count, 22);
        assert!(!init[0].ready);
        let waiting = init[0].state.as_ref().and_then(|s| s.waiting.as_ref());
        // the last state's reason and exit code never overwrite the current state
        assert_eq!(
            waiting.map(|w| (w.reason.as_str(), w.exit_code)),
            Some(("CrashLoopBackOff", None))
        );
        let last = init[0]
            .last_state
            .as_ref()
            .and_then(|s| s.terminated.as_ref());
        assert_eq!(
            last.map(|d| (d.reason.as_str(), d.exit_code)),
            Some(("Error", Some(32)))
        );
        let c = &p.status.container_statuses;
        assert_eq!(c.len(), 2);
        assert!(c[0].ready);
        assert!(
            c[0].state
                .as_ref()
                .and_then(|s| s.running.as_ref())
                .is_some()
        );
        let done = c[1].state.as_ref().and_then(|s| s.terminated.as_ref());
        assert_eq!(
            done.map(|d| (d.reason.as_str(), d.message.as_str(), d.exit_code)),
            Some(("OOMKilled", "killed", Some(137)))
        );
        assert_eq!(c[1].restart_count, 3);
        // a pod the kubelet has not reported on: containers without status
        let pending =
            parse_text("Name: p\nNamespace: d\nNode: <none>\nContainers:\n  main:\n    Image: x\n");
        assert_eq!(pending.pods[0].spec.containers.len(), 1);
        assert!(pending.pods[0].status.container_statuses.is_empty());
    }

    #[test]
    fn conditions_without_their_header_line() {
        let header = "  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----             ------  -----------------                 ------------------                ------                       -------\n";
        let ready = "  Ready            False   Mon, 03 Jun 2019 13:54:18 +0000   Sun, 02 Jun 2019 21:39:37 +0000   KubeletNotReady              PLEG is not healthy: pleg was last seen active 16h17m50s ago; threshold is 3m0s\n";
        let memory = "  MemoryPressure   False   Mon, 03 Jun 2019 13:54:18 +0000   Wed, 20 Mar 2019 22:00:39 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available\n";
        for (what, text) in [
            // `[...]` and `Roles:`, then the table without `Conditions:`
            (
                "no Conditions line",
                format!("[...]\nName:  node-01\nRoles: master\n{header}{memory}{ready}"),
            ),
            // only the name and the table
            (
                "only the name",
                format!("Name:  node-01\n{header}{memory}{ready}"),
            ),
            // rows without the table's header, with and without `Conditions:`
            ("rows only", format!("Name:  node-01\n{memory}{ready}")),
            (
                "Conditions without header",
                format!("Name:  node-01\nConditions:\n{memory}{ready}"),
            ),
        ] {
            assert_eq!(
                detect_text_format(&text),
                InputFormat::DescribeNode,
                "{what}"
            );
            let parsed = parse_text(&text);
            assert_eq!(parsed.nodes.len(), 1, "{what}");
            let n = &parsed.nodes[0];
            assert_eq!(n.metadata.name, "node-01", "{what}");
            let got: Vec<(&str, &str, &str)> = n
                .status
                .conditions
                .iter()
                .map(|c| (c.type_.as_str(), c.status.as_str(), c.reason.as_str()))
                .collect();
            assert_eq!(
                got,
                [
                    ("MemoryPressure", "False", "KubeletHasSufficientMemory"),
                    ("Ready", "False", "KubeletNotReady")
                ],
                "{what}"
            );
            assert!(
                n.status.conditions[1]
                    .message
                    .starts_with("PLEG is not healthy"),
                "{what}"
            );
        }
        // a pod excerpt: the two-column table without `Conditions:`
        let pod = parse_text(
            "Name: p\nNamespace: d\nNode: n1/10.0.0.1\n  Type              Status\n  Initialized       True\n  Ready             False\n",
        );
        let c: Vec<(&str, &str)> = pod.pods[0]
            .status
            .conditions
            .iter()
            .map(|c| (c.type_.as_str(), c.status.as_str()))
            .collect();
        assert_eq!(c, [("Initialized", "True"), ("Ready", "False")]);
    }

    #[test]
    fn rows_not_aligned_to_their_header() {
        // kubectl get events -o wide, the MESSAGE cell one character wider than its column and
        // SUBOBJECT empty: nothing shifts left
        let text = "\
LAST SEEN   TYPE      REASON             OBJECT                      SUBOBJECT   SOURCE              MESSAGE                                                        FIRST SEEN   COUNT   NAME
43s         Warning   FailedScheduling   pod/plex-5d8f7b9c4d-9xk2q               default-scheduler   0/1 nodes are available: 1 Insufficient gpu.intel.com/i915.   4m12s        5       plex-5d8f7b9c4d-9xk2q.16bf3a1e2c4d5e6f
";
        let parsed = parse_text(text);
        let e = &parsed.events[0];
        assert_eq!(
            e.message,
            "0/1 nodes are available: 1 Insufficient gpu.intel.com/i915."
        );
        assert_eq!(e.involved_object.name, "plex-5d8f7b9c4d-9xk2q");
        assert_eq!(e.source.component, "default-scheduler");
        assert_eq!(e.count, Some(5));
        // a pods row edited by hand: shorter cells, empty NOMINATED NODE and READINESS GATES
        let pods = parse_text(
            "NAME      READY   STATUS             RESTARTS   AGE   IP          NODE     NOMINATED NODE   READINESS GATES\nplugin-x  0/1  CrashLoopBackOff  7  3m  10.0.0.5  gpu-01\n",
        );
        let p = &pods.pods[0];
        assert_eq!(
            (p.metadata.name.as_str(), p.spec.node_name.as_str()),
            ("plugin-x", "gpu-01")
        );
        assert_eq!(p.status.reason, "CrashLoopBackOff");
    }

    #[test]
    fn pod_table_age_kept_and_read_back() {
        let parsed = parse_text(
            "NAME      READY   STATUS                       RESTARTS   AGE\ntrain-0   0/1     CreateContainerConfigError   0          3h\nnew-0     0/1     ContainerCreating            0          5m30s\n",
        );
        let age = |n: &str| {
            parsed
                .pods
                .iter()
                .find(|p| p.metadata.name == n)
                .and_then(|p| p.metadata.annotations.get(AGE_ANNOTATION))
                .and_then(human_duration_secs)
        };
        assert_eq!(age("train-0"), Some(3 * 3600));
        assert_eq!(age("new-0"), Some(330));
        assert_eq!(human_duration_secs("3y20d"), Some((3 * 365 + 20) * 86_400));
        assert_eq!(human_duration_secs("<invalid>"), None);
        assert_eq!(human_duration_secs("5"), None);
        assert_eq!(human_duration_secs("99999999999999999d"), None);
    }

    #[test]
    fn pods_table_states_and_readiness() {
        // printPod (k8s.io/kubernetes/pkg/printers/internalversion/printers.go) columns, with
        // the `5 (2m18s ago)` RESTARTS form of kubectl 1.22+
        let text = "\
NAME                                   READY   STATUS                  RESTARTS        AGE     IP            NODE      NOMINATED NODE   READINESS GATES
nvidia-device-plugin-daemonset-qwl7d   0/1     Init:0/1                0               25m     10.244.1.14   node-02   <none>           <none>
nvidia-operator-validator-d5c26        0/1     Init:CrashLoopBackOff   4 (24s ago)     25m     10.244.1.15   node-02   <none>           <none>
gpu-operator-7bd648f56b-kq5x7          1/1     Running                 0               26m     10.244.0.9    node-01   <none>           <none>
gated-0                                1/1     Running                 0               26m     10.244.0.10   node-01   <none>           0/1
train-0                                0/1     Pending                 0               2m      <none>        <none>    <none>           <none>
";
        let parsed = parse_text(text);
        let get = |n: &str| parsed.pods.iter().find(|p| p.metadata.name == n).expect(n);
        let ready = |n: &str| {
            get(n)
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == "Ready")
                .map(|c| c.status.clone())
        };
        let plugin = get("nvidia-device-plugin-daemonset-qwl7d");
        assert_eq!(
            (
                plugin.status.phase.as_str(),
                plugin.status.reason.as_str(),
                plugin.spec.node_name.as_str()
            ),
            ("Pending", "Init:0/1", "node-02")
        );
        assert_eq!(
            get("nvidia-operator-validator-d5c26").status.reason,
            "Init:CrashLoopBackOff"
        );
        assert_eq!(
            ready("nvidia-device-plugin-daemonset-qwl7d").as_deref(),
            Some("False")
        );
        assert_eq!(
            ready("gpu-operator-7bd648f56b-kq5x7").as_deref(),
            Some("True")
        );
        // a readiness gate not met: containers ready, the pod not
        assert_eq!(ready("gated-0").as_deref(), Some("False"));
        assert_eq!(get("train-0").spec.node_name, "");
        assert!(is_unknown(&plugin.metadata, "tolerations"));
    }

    /// Hostile tables: huge, ragged, tabs, CRs, wide characters, cells longer than their
    /// columns, a header alone. Nothing panics; every named row is read.
    #[test]
    fn hostile_tables_never_panic() {
        let mut huge = String::from(
            "NAME   READY   STATUS   RESTARTS   AGE   IP   NODE   NOMINATED NODE   READINESS GATES\n",
        );
        for i in 0..20_000 {
            huge.push_str(&format!(
                "pod-{i}   1/1   Running   0   5d   10.0.{}.{}   node-{}   <none>   <none>\n",
                i % 256,
                i % 200,
                i % 500
            ));
        }
        let start = std::time::Instant::now();
        let parsed = parse_text(&huge);
        assert_eq!(parsed.pods.len(), 20_000);
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "{:?}",
            start.elapsed()
        );
        let ragged = "\
NAME   READY   STATUS   RESTARTS   AGE
pod-a
pod-b   1/1   Running   0   5d   x   y   z   w   v   u
\tpod-c 0/1
ünï-çødé   1/1   Running
pod-d\r
   \u{3000}   日本語   1/1
";
        let parsed = parse_text(ragged);
        assert!(parsed.pods.iter().any(|p| p.metadata.name == "pod-b"));
        for text in [
            "NAME   READY   STATUS   RESTARTS   AGE\n",
            "NAME   DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE\nds   x   y\n",
            "LAST SEEN   TYPE   REASON   OBJECT   MESSAGE\n\t\t\t\t\n  \n",
            "Name: n\nRoles: x\n  Type  Status\n  Ready\n  Ready  Maybe  a  b  c  d  e  f  g\n",
            "Name: p\nNamespace: d\nNode: x\nContainers:\n  c:\n    State: Waiting\n      Reason:\n      Exit Code: 99999999999999\n    Restart Count: -5\n",
            "Name: p\nNamespace: d\nNode: x\nInit Containers:\n      Reason: orphan\n  State: Terminated\n",
        ] {
            let _ = parse_text(text);
            let _ = detect_text_format(text);
        }
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
            n.metadata.labels.get("nvidia.com/gpu.present"),
            Some("true")
        );
        assert_eq!(
            n.metadata.annotations.get("node.alpha.kubernetes.io/ttl"),
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
    fn describe_event_and_the_old_events_layout() {
        let ev = "Name:             p-1.157e0a42f7ead471\nNamespace:        default\nInvolved Object:\n  API Version:       v1\n  Kind:              Pod\n  Name:              p-1\n  Namespace:         default\nKind:                Event\nMessage:             No nodes are available that match all of the predicates: Insufficient cpu (19).\nReason:                FailedScheduling\nSource:\n  Component:  default-scheduler\nType:         Warning\nEvents:       <none>\n";
        let p = parse_text(ev);
        assert!(p.persistent_volumes.is_empty());
        assert_eq!(p.events.len(), 1);
        let e = &p.events[0];
        assert_eq!(
            (
                e.involved_object.kind.as_str(),
                e.involved_object.name.as_str(),
                e.involved_object.namespace.as_str()
            ),
            ("Pod", "p-1", "default")
        );
        assert_eq!(e.reason, "FailedScheduling");
        assert_eq!(e.source.component, "default-scheduler");
        let old = "Events:\n  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubObjectPath\tType\t\tReason\t\t\tMessage\n  ---------\t--------\t-----\t----\t\t\t-------------\t--------\t------\t\t\t-------\n  10h\t\t1m\t\t38\tdefault-scheduler\t\t\tWarning\t\tFailedScheduling\tNo nodes are available that match all of the following predicates:: Insufficient cpu (18).\n";
        let p = parse_text(old);
        assert_eq!(p.events.len(), 1, "{:?}", p.events);
        assert_eq!(p.events[0].type_, "Warning");
        assert!(p.events[0].message.starts_with("No nodes are available"));
    }

    /// k8s.io/mount-utils' `Mounting command:` / `Mounting arguments:` / `Output:` lines,
    /// printed at column 0 after the event row, continue its message (one event, never rows or
    /// describe keys of their own), in a describe pod's `Events:` and in a bare events table.
    #[test]
    fn mount_error_lines_continue_the_event_message() {
        let mount = "Mounting command: mount\nMounting arguments: -t nfs srv:/x /mnt\nOutput: mount.nfs: access denied by server while mounting srv:/x\n";
        let describe = format!(
            "Name:         web-0\nNamespace:    default\nStatus:       Pending\nEvents:\n  Type     Reason       Age   From     Message\n  ----     ------       ----  ----     -------\n  Warning  FailedMount  6s    kubelet  MountVolume.SetUp failed for volume \"v\" : mount failed: exit status 32\n{mount}  Normal   Pulling      1s    kubelet  Pulling image \"x\"\n"
        );
        let bare = format!(
            "Warning  FailedMount  6s (x5 over 14s)  kubelet  MountVolume.SetUp failed for volume \"v\" : mount failed: exit status 32\n{mount}"
        );
        for text in [describe, bare] {
            let p = parse_text(&text);
            let mounts: Vec<_> = p
                .events
                .iter()
                .filter(|e| e.reason == "FailedMount")
                .collect();
            assert_eq!(mounts.len(), 1, "{:#?}", p.events);
            assert!(
                mounts[0]
                    .message
                    .ends_with("Output: mount.nfs: access denied by server while mounting srv:/x"),
                "{}",
                mounts[0].message
            );
            assert!(p.events.iter().all(|e| !e.type_.starts_with("Mounting")));
        }
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

    #[test]
    fn events_after_a_shown_piped_command() {
        // the prompt line does not hide the table, and sed's -n is not a namespace
        let text = "$ kubectl describe pod gpu-pod-1 | sed -n '/^Events:/,$p'\nEvents:\n  Type     Reason            Age   From     Message\n  ----     ------            ----  ----     -------\n  Warning  FailedScheduling  2m    volcano  0/1 nodes are unavailable: 1 hami-vgpuDeviceSharing error.\n";
        assert_eq!(detect_text_format(text), InputFormat::EventsTable);
        let parsed = parse_text(text);
        assert_eq!(parsed.events.len(), 1);
        assert!(parsed.events[0].involved_object.namespace.is_empty());
        assert_eq!(
            command_namespace("kubectl -n team-a get pods | grep -n x").as_deref(),
            Some("team-a")
        );
    }

    #[test]
    fn workload_tables_every_kind() {
        let text = "$ kubectl get deploy -A
NAMESPACE      NAME           READY   UP-TO-DATE   AVAILABLE   AGE
gpu-operator   gpu-operator   0/1     1            0           5m
kube-system    coredns        2/2     2            2           30d
$ kubectl get sts -n ml
NAME    READY   AGE
db      0/2     3d
$ kubectl get jobs -A -o wide
NAMESPACE   NAME      STATUS     COMPLETIONS   DURATION   AGE   CONTAINERS   IMAGES        SELECTOR
ml          train-1   Failed     0/1           10m        10m   main         pytorch:2.1   batch.kubernetes.io/controller-uid=0000
ml          train-2   Complete   1/1           5m         12m   main         pytorch:2.1   batch.kubernetes.io/controller-uid=0001
$ kubectl get rc
NAME   DESIRED   CURRENT   READY   AGE
web    3         3         1       1d
$ kubectl get all -n ml
NAME                                 DESIRED   CURRENT   READY   AGE
replicaset.apps/trainer-5d4f8c7b9d   3         3         0       10m

NAME                      READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/trainer   0/3     3            0           10m
";
        let p = parse_text(text);
        let find = |kind: &str, name: &str| {
            p.workloads
                .iter()
                .find(|w| w.kind == kind && w.metadata.name == name)
                .unwrap_or_else(|| panic!("{kind}/{name}: {:#?}", p.workloads))
        };
        let op = find("Deployment", "gpu-operator");
        assert_eq!(op.metadata.namespace, "gpu-operator");
        assert_eq!(
            (
                op.spec.replicas,
                op.status.ready_replicas,
                op.status.available_replicas,
                op.status.updated_replicas
            ),
            (Some(1), 0, 0, 1)
        );
        assert!(is_unknown(&op.metadata, "tolerations") && is_unknown(&op.metadata, "conditions"));
        let db = find("StatefulSet", "db");
        assert_eq!(
            (
                db.metadata.namespace.as_str(),
                db.spec.replicas,
                db.status.ready_replicas
            ),
            ("ml", Some(2), 0)
        );
        let j = find("Job", "train-1");
        assert_eq!(j.status.conditions[0].type_, "Failed");
        assert!(!is_unknown(&j.metadata, "conditions"));
        assert_eq!(j.spec.template.spec.containers[0].image, "pytorch:2.1");
        assert_eq!(find("Job", "train-2").status.succeeded, 1);
        let rc = find("ReplicationController", "web");
        assert_eq!((rc.spec.replicas, rc.status.ready_replicas), (Some(3), 1));
        let rs = find("ReplicaSet", "trainer-5d4f8c7b9d");
        assert_eq!(rs.metadata.namespace, "ml");
        assert_eq!(find("Deployment", "trainer").spec.replicas, Some(3));
        assert_eq!(p.workloads.len(), 8, "{:#?}", p.workloads);
        // a READY that is not a count (a CRD's `NAME READY AGE`) is no StatefulSet
        assert!(
            parse_text("NAME      READY   AGE\nissuer    True    3d\n")
                .workloads
                .is_empty()
        );
        // detected as a table input
        assert_eq!(
            detect_text_format("NAME    READY   AGE\ndb      0/2     3d\n"),
            InputFormat::GetTable
        );
    }

    #[test]
    fn elided_describe_excerpt_is_still_describe() {
        let t = "....\nEvents:\n  Type     Reason   Age   From     Message\n  ----     ------   ----  ----     -------\n  Warning  FailedCreatePodSandBox  12s  kubelet  Failed to create pod sandbox\n";
        assert_eq!(detect_text_format(t), InputFormat::EventsTable);
        assert!(!is_elision("..") && is_elision("[...]") && is_elision("……") && is_elision("...."));
    }

    #[test]
    fn describe_message_wrapped_by_a_terminal_stays_one_pod() {
        // Greenstand/treetracker-infrastructure#49: the message broken mid-word at column 0
        let t = "Name:           treetracker-pgpool-598947fd8f-vzvkq\nNamespace:      pgpool\nNode:           node-03/\nStatus:         Failed\nReason:         Evicted\nMessage:        The node was low on resource: memory. Container treetracker-pgpool was using 1275700Ki, which e\nxceeds its request of 0.\nIP:\nControlled By:  ReplicaSet/treetracker-pgpool-598947fd8f\nContainers:\n  treetracker-pgpool:\n    Image:      pgpool/pgpool:4.2.2\n";
        let p = parse_text(t);
        assert_eq!(p.pods.len(), 1, "{:#?}", p.pods);
        let pod = &p.pods[0];
        assert_eq!(pod.metadata.name, "treetracker-pgpool-598947fd8f-vzvkq");
        assert_eq!(pod.metadata.namespace, "pgpool");
        assert!(
            pod.status
                .message
                .contains("which exceeds its request of 0."),
            "{}",
            pod.status.message
        );
        assert_eq!(pod.spec.containers.len(), 1);
    }

    #[test]
    fn any_value_wrapped_at_column_zero_keeps_the_block() {
        let t = "Name:           web-1\nNamespace:      shop\nNode:           node-01/10.0.0.1\nStatus:         Pending\nController:     ReplicaSet/web-5d4f8c7b9d rolled out by the deploy pipeline of the shop tea\nm on Monday\nContainers:\n  web:\n    Image:      nginx:1.25\n";
        let p = parse_text(t);
        assert_eq!(p.pods.len(), 1, "{:#?}", p.pods);
        assert_eq!(p.pods[0].metadata.namespace, "shop");
        assert_eq!(p.pods[0].spec.containers.len(), 1);
        // free text between two objects still ends the first
        let two = "Name:  a\nNamespace:  x\nNode:  node-01/\nStatus:  Running\nContainers:\n  c:\n    Image:  busybox\nand the second one:\nName:  b\nNamespace:  x\nNode:  node-01/\nStatus:  Running\nContainers:\n  c:\n    Image:  busybox\n";
        assert_eq!(parse_text(two).pods.len(), 2);
    }

    #[test]
    fn log_header_above_a_describe_is_no_yaml_sequence() {
        // red-hat-storage/ocs-ci#12362: Python logging's ` - ` fields after a cleaned timestamp
        let t = "- MainThread - WARNING - ocs_ci.ocs.ocp.wait_for_resource.917 - Description of the resource(s) we were waiting for:\nName:             pod-a\nNamespace:        ns-a\nNode:             node-07/10.0.0.250\nStatus:           Failed\nReason:           OutOfcpu\n";
        assert_ne!(detect_text_format(t), InputFormat::Yaml);
        assert_eq!(detect_text_format("- a: 1\n- b: 2\n"), InputFormat::Yaml);
    }

    #[test]
    fn events_table_cut_before_its_message_column_is_an_events_table() {
        // copied from an 80-column terminal: the header ends at OBJECT
        let t = "$ kubectl get events -n gpu-operator\nLAST SEEN   TYPE     REASON             OBJECT\n12m         Normal   Scheduled          pod/gpu-operator-node-feature-discovery-\n10m         Normal   SuccessfulCreate   daemonset/nvidia-device-plugin-daemonset\n";
        assert_eq!(detect_text_format(t), InputFormat::EventsTable);
        let p = parse_text(t);
        assert_eq!(p.events.len(), 2);
        assert_eq!(p.events[1].reason, "SuccessfulCreate");
        assert_eq!(p.events[1].type_, "Normal");
        assert_eq!(p.events[1].involved_object.kind, "DaemonSet");
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        // a Warning row without its message is reported, not read as nothing
        let w = "LAST SEEN   TYPE      REASON             OBJECT\n2m          Warning   FailedScheduling   pod/train-0\n";
        let p = parse_text(w);
        assert_eq!(p.events.len(), 1);
        assert_eq!(p.problems.len(), 1, "{:?}", p.problems);
        assert!(
            p.problems[0]
                .message
                .contains("FailedScheduling pod/train-0")
        );
    }

    /// Fresh-user H14: rows of one object later in a paste (a watch, stacked tables) carry its
    /// newer state; the first row used to win, so a node that went NotReady read as Ready.
    #[test]
    fn a_later_row_of_the_same_object_carries_its_newer_state() {
        let ready = |t: &str, name: &str| -> Option<String> {
            let out = parse_text(t);
            let n = out.nodes.iter().find(|n| n.metadata.name == name)?;
            let c = n.status.conditions.iter().find(|c| c.type_ == "Ready")?;
            Some(format!(
                "{}{}",
                c.status,
                if n.spec.unschedulable {
                    ",cordoned"
                } else {
                    ""
                }
            ))
        };
        let watch = "$ kubectl get nodes -w\nNAME   STATUS   ROLES   AGE   VERSION\ncp-1   Ready   control-plane   200d   v1.30.4\ngpu-2   Ready   <none>   180d   v1.30.4\ngpu-2   NotReady   <none>   180d   v1.30.4\ngpu-2   NotReady,SchedulingDisabled   <none>   180d   v1.30.4\n";
        assert_eq!(ready(watch, "gpu-2").as_deref(), Some("False,cordoned"));
        assert_eq!(ready(watch, "cp-1").as_deref(), Some("True"));
        // recovered and uncordoned later: the later table wins both ways
        let healed = "$ kubectl get nodes\nNAME   STATUS   ROLES   AGE   VERSION\ngpu-2   NotReady,SchedulingDisabled   <none>   180d   v1.30.4\n$ kubectl get nodes\nNAME   STATUS   ROLES   AGE   VERSION\ngpu-2   Ready   <none>   180d   v1.30.4\n";
        assert_eq!(ready(healed, "gpu-2").as_deref(), Some("True"));
        // the same table twice: one node, unchanged
        let twice = "NAME   STATUS   ROLES   AGE   VERSION\ngpu-2   Ready   <none>   180d   v1.30.4\nNAME   STATUS   ROLES   AGE   VERSION\ngpu-2   Ready   <none>   180d   v1.30.4\n";
        assert_eq!(parse_text(twice).nodes.len(), 1);
        assert_eq!(ready(twice, "gpu-2").as_deref(), Some("True"));

        let pods = "$ kubectl get pods -n ml -w\nNAME      READY   STATUS              RESTARTS   AGE\ntrain-0   0/1     ContainerCreating   0          5s\ntrain-0   1/1     Running             0          12s\ntrain-0   0/1     OOMKilled           0          3m\ntrain-0   0/1     CrashLoopBackOff    1 (1s ago)    4m\n";
        let out = parse_text(pods);
        assert_eq!(out.pods.len(), 1);
        let p = &out.pods[0];
        assert_eq!(
            (p.status.phase.as_str(), p.status.reason.as_str()),
            ("Running", "CrashLoopBackOff")
        );
        assert_eq!(
            p.metadata.annotations.get(EARLIER_STATUS_ANNOTATION),
            Some("ContainerCreating, Running, OOMKilled")
        );
        let ready_cond = p
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Ready")
            .map(|c| c.status.as_str());
        assert_eq!(ready_cond, Some("False"));
    }
}
