//! `Context`: everything a rule reads (snapshot, resource groups, log texts, import reports),
//! plus indexes built once so that rules stay O(n log n).

use std::collections::HashMap;
use std::sync::OnceLock;

use cube_model::import::ImportReport;
use cube_model::objects::{Node, Pod};
use cube_model::{ClusterSnapshot, ResourceList};
use serde::{Deserialize, Serialize};

use crate::classify::{self, Signal};
use crate::config::Thresholds;
use cube_model::gpu::{GpuMarker, GpuVocabulary, NodeGpuEvidence};
use cube_quota::requests::PodResourcesOptions;

/// A log text handed to the engine (kubeadm join output, a kubelet journal, a device-plugin log,
/// event text, client error texts), with the name of its source.
///
/// Texts read by [`crate::Inputs`] are clean lines (ANSI, CR, journald/klog/CRI/timestamp
/// prefixes and shell prompts removed, see `cube_model::paste`); `origins` then gives, for each
/// line of `text`, its line number in the user's file and the host its journald prefix named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogText {
    /// File name or label (`kubeadm-join.log`); used in evidence.
    pub source: String,
    /// The text.
    pub text: String,
    /// Where each line of `text` came from (index = line index in `text`); empty when `text` is
    /// the input as given (line `i` of `text` is line `i + 1` of the input).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<LineOrigin>,
    /// True when this text was a whole input that nothing recognised (no object, no known
    /// message, no scheduler text): `snapshot-incomplete` reports it and the run's picture is
    /// incomplete (exit 3), never an all-clear. Set by [`crate::Inputs`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unrecognised: bool,
    /// The classified lines, computed once ([`LogText::signals`]: the reader and the rules both
    /// ask), kept with the fingerprint of what they were computed from.
    #[serde(skip)]
    signals: SignalCache,
}

/// [`LogText::signals`] computed once: classifying is the costly part of reading a long log.
/// Equal whatever it holds (two log texts are equal by their text); recomputed when `source`,
/// `text` or `origins` changed since (the fields are public).
#[derive(Debug, Clone, Default)]
/// The classified lines are shared, not copied, by the clones of a text (a program hands a
/// copy of its inputs' logs to the [`Context`]): on a paste of a million error lines each copy
/// was hundreds of MB (red team 2 #03).
struct SignalCache(OnceLock<(u64, std::sync::Arc<Vec<Signal>>)>);

impl PartialEq for SignalCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for SignalCache {}

/// The origin of one line of a cleaned [`LogText`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LineOrigin {
    /// 1-based line number in the input the user gave.
    pub line: usize,
    /// Host named by the line's journald/syslog prefix (empty when none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host: String,
}

impl LogText {
    /// A log text.
    pub fn new(source: impl Into<String>, text: impl Into<String>) -> Self {
        LogText {
            source: source.into(),
            text: text.into(),
            origins: Vec::new(),
            unrecognised: false,
            signals: SignalCache::default(),
        }
    }
    /// Marks the text as a whole input nothing recognised (see [`LogText::unrecognised`]).
    #[must_use]
    pub fn with_unrecognised(mut self, unrecognised: bool) -> Self {
        self.unrecognised = unrecognised;
        self
    }
    /// Sets the line origins (see [`LogText::origins`]).
    #[must_use]
    pub fn with_origins(mut self, origins: Vec<LineOrigin>) -> Self {
        self.origins = origins;
        self
    }
    /// Classified lines of this text, with line numbers of the user's input and, for lines
    /// whose journald prefix named a host, that host as the subject (`Node/<host>`) when the
    /// line names no other object.
    pub fn signals(&self) -> Vec<Signal> {
        self.signals_shared().as_ref().clone()
    }

    /// [`LogText::signals`] without a copy: the classified lines, computed once and shared by
    /// every clone of this text (a changed text is classified anew on each call).
    pub fn signals_shared(&self) -> std::sync::Arc<Vec<Signal>> {
        let key = self.fingerprint();
        if let Some((k, cached)) = self.signals.0.get()
            && *k == key
        {
            return std::sync::Arc::clone(cached);
        }
        let out = std::sync::Arc::new(self.classified());
        // the first result is kept (a changed text is classified anew each time)
        let _ = self.signals.0.set((key, std::sync::Arc::clone(&out)));
        out
    }

    fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.source.hash(&mut h);
        self.text.hash(&mut h);
        self.origins.hash(&mut h);
        h.finish()
    }

    fn classified(&self) -> Vec<Signal> {
        let mut out = classify::classify_all(&self.source, &self.text);
        if !self.origins.is_empty() {
            for s in &mut out {
                let Some(o) = s.line.checked_sub(1).and_then(|i| self.origins.get(i)) else {
                    continue;
                };
                s.line = o.line;
                if s.object.is_none() && !o.host.is_empty() {
                    s.object = Some(crate::Subject::cluster_scoped("Node", &o.host));
                }
            }
        }
        out
    }
}

/// The parts of a resource group the rules read: its name, namespaces, the PriorityClass its
/// workloads use, and the quota it is meant to have (`hard`, as a ResourceQuota's `spec.hard`).
///
/// Fill it from `cube_model::group::ResourceGroup` or load it from JSON/YAML
/// (`{"name":"vision","namespaces":["team-vision"],"priorityClassName":"training-high-priority"}`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GroupSpec {
    /// Group name.
    pub name: String,
    /// Namespaces that belong to the group.
    pub namespaces: Vec<String>,
    /// PriorityClass given to the group's workloads (empty = none).
    pub priority_class_name: String,
    /// Quota the group is meant to have (empty = none declared; quotas found in the snapshot for
    /// the group's namespaces count too).
    pub quota: ResourceList,
}

impl From<&cube_model::group::ResourceGroup> for GroupSpec {
    /// Namespaces by name, the group's PriorityClass, and the sum of its quota buckets' `hard`.
    fn from(g: &cube_model::group::ResourceGroup) -> Self {
        let mut quota = ResourceList::new();
        for b in &g.quota {
            crate::resources::add_into(&mut quota, &b.hard);
        }
        GroupSpec {
            name: g.name.clone(),
            namespaces: g.namespaces.iter().map(|n| n.name.clone()).collect(),
            priority_class_name: g
                .priority
                .as_ref()
                .map(|p| p.class_name.clone())
                .unwrap_or_default(),
            quota,
        }
    }
}

/// The distinct request lists of [`Context::new`], each kept once. Two lists are the same when
/// every name and quantity is, spelling included (`1` and `1000m` are equal quantities but print
/// differently in findings), so the text of each entry is the key.
#[derive(Default)]
struct RequestLists {
    lists: Vec<ResourceList>,
    index: HashMap<String, usize>,
    key: String,
}

impl RequestLists {
    /// The index of `list` among the distinct lists (added when new).
    fn index_of(&mut self, list: ResourceList) -> usize {
        use std::fmt::Write as _;
        self.key.clear();
        for (name, q) in &list {
            let _ = write!(self.key, "{}={q}\0", name.as_str());
        }
        if let Some(&i) = self.index.get(self.key.as_str()) {
            return i;
        }
        let i = self.lists.len();
        self.lists.push(list);
        self.index.insert(self.key.clone(), i);
        i
    }
}

/// The input of one engine run. Build it with [`Context::new`] and the `with_*` setters; the
/// indexes (nodes by name, pods by node and by namespace, effective pod requests) are built once
/// in `new`, the log classification on first use.
#[derive(Debug)]
pub struct Context<'a> {
    snapshot: &'a ClusterSnapshot,
    groups: Vec<GroupSpec>,
    logs: Vec<LogText>,
    imports: Vec<ImportReport>,
    thresholds: Thresholds,
    nodes_by_name: HashMap<&'a str, usize>,
    pods_by_node: HashMap<&'a str, Vec<usize>>,
    pods_by_namespace: HashMap<&'a str, Vec<usize>>,
    /// Index into `request_lists` per pod (pods of one template share one list: a million pods
    /// of a few templates hold a few lists, not a million).
    pod_requests: Vec<usize>,
    /// The distinct effective request lists, each once.
    request_lists: Vec<ResourceList>,
    /// Pod name -> namespaces of the views of that pod whose phase is Succeeded or Failed
    /// ([`Context::pod_finished`]).
    finished_pods: HashMap<&'a str, Vec<&'a str>>,
    signals: OnceLock<std::sync::Arc<Vec<Signal>>>,
    gpu_vocabulary: Option<std::sync::Arc<GpuVocabulary>>,
    gpu_evidence: OnceLock<Vec<NodeGpuEvidence>>,
}

impl<'a> Context<'a> {
    /// A context over `snapshot` with no groups, logs or import reports, default thresholds.
    /// Cost: O(pods + nodes) plus one effective-request computation per pod.
    pub fn new(snapshot: &'a ClusterSnapshot) -> Self {
        let mut nodes_by_name = HashMap::with_capacity(snapshot.nodes.len());
        for (i, n) in snapshot.nodes.iter().enumerate() {
            nodes_by_name.entry(n.metadata.name.as_str()).or_insert(i);
        }
        let mut pods_by_node: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut pods_by_namespace: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut pod_requests = Vec::with_capacity(snapshot.pods.len());
        let mut request_lists = RequestLists::default();
        let mut finished_pods: HashMap<&str, Vec<&str>> = HashMap::new();
        // Node names held by objects of different clusters (snapshot.mixed): a pod is charged
        // to such a node only when it comes from the same input as the node kept under that
        // name, never to both clusters' nodes at once.
        let mixed: std::collections::HashSet<&str> = snapshot
            .mixed
            .iter()
            .filter(|m| m.kind == "Node")
            .flat_map(|m| m.objects.iter().map(String::as_str))
            .collect();
        for (i, p) in snapshot.pods.iter().enumerate() {
            let name = p.spec.node_name.as_str();
            let attributable = !mixed.contains(name)
                || nodes_by_name.get(name).is_some_and(|&n| {
                    snapshot.source_of("Node", n) == snapshot.source_of("Pod", i)
                });
            if !p.spec.node_name.is_empty() && attributable {
                pods_by_node
                    .entry(p.spec.node_name.as_str())
                    .or_default()
                    .push(i);
            }
            pods_by_namespace
                .entry(p.metadata.namespace.as_str())
                .or_default()
                .push(i);
            if p.is_terminal() {
                finished_pods
                    .entry(p.metadata.name.as_str())
                    .or_default()
                    .push(p.metadata.namespace.as_str());
            }
            // as the API server stores the pod: requests defaulted from limits
            pod_requests.push(request_lists.index_of(
                cube_quota::requests::effective_pod_requests(p, &PodResourcesOptions::default()),
            ));
        }
        Context {
            snapshot,
            groups: Vec::new(),
            logs: Vec::new(),
            imports: Vec::new(),
            thresholds: Thresholds::default(),
            nodes_by_name,
            pods_by_node,
            pods_by_namespace,
            pod_requests,
            request_lists: request_lists.lists,
            finished_pods,
            signals: OnceLock::new(),
            gpu_vocabulary: None,
            gpu_evidence: OnceLock::new(),
        }
    }
    /// Adds resource groups.
    #[must_use]
    pub fn with_groups(mut self, groups: impl IntoIterator<Item = GroupSpec>) -> Self {
        self.groups.extend(groups);
        self
    }
    /// Adds log texts.
    #[must_use]
    pub fn with_logs(mut self, logs: impl IntoIterator<Item = LogText>) -> Self {
        self.logs.extend(logs);
        self.signals = OnceLock::new();
        self
    }
    /// Adds an import report.
    #[must_use]
    pub fn with_import(mut self, report: ImportReport) -> Self {
        self.imports.push(report);
        self
    }
    /// Sets the thresholds (the engine sets them from its [`crate::Config`]).
    #[must_use]
    pub fn with_thresholds(mut self, thresholds: Thresholds) -> Self {
        self.thresholds = thresholds;
        self
    }
    /// A copy of this context with other thresholds (indexes are cloned, not rebuilt).
    pub fn clone_with_thresholds(&self, thresholds: Thresholds) -> Self {
        Context {
            snapshot: self.snapshot,
            groups: self.groups.clone(),
            logs: self.logs.clone(),
            imports: self.imports.clone(),
            thresholds,
            nodes_by_name: self.nodes_by_name.clone(),
            pods_by_node: self.pods_by_node.clone(),
            pods_by_namespace: self.pods_by_namespace.clone(),
            pod_requests: self.pod_requests.clone(),
            request_lists: self.request_lists.clone(),
            finished_pods: self.finished_pods.clone(),
            signals: self.signals.clone(),
            gpu_vocabulary: self.gpu_vocabulary.clone(),
            gpu_evidence: self.gpu_evidence.clone(),
        }
    }
    /// True when the pod has finished: its phase is `Succeeded` or `Failed`
    /// ([`cube_model::objects::Pod::is_terminal`]), or it is a view that shows no phase at all
    /// (the manifest it was created from, `kubectl apply -f pod.yaml` pasted with the rest) of a
    /// pod that another view in the snapshot shows finished (a `kubectl get pods` row
    /// `Completed`, a `describe` with `Status: Succeeded`; same name, and the same namespace
    /// unless one of the views does not say it). A finished pod holds no resources: the
    /// scheduler and the quota admission count only pods that are not Succeeded or Failed
    /// (kubernetes/kubernetes pkg/scheduler/framework/types.go and the quota evaluator's
    /// `QuotaV1Pod`; cube-quota mirrors it), so rules about running workloads skip it.
    pub fn pod_finished(&self, p: &cube_model::objects::Pod) -> bool {
        if p.is_terminal() {
            return true;
        }
        if !p.status.phase.is_empty() {
            return false;
        }
        let ns = p.metadata.namespace.as_str();
        self.finished_pods
            .get(p.metadata.name.as_str())
            .is_some_and(|namespaces| {
                namespaces
                    .iter()
                    .any(|n| *n == ns || n.is_empty() || ns.is_empty())
            })
    }
    /// Puts a user's GPU markers (`Config::gpu_labels`) in front of the built-in GPU vocabulary
    /// ([`GpuVocabulary::with_extra`]); an empty list keeps the built-in one.
    #[must_use]
    pub fn with_gpu_markers(mut self, extra: &[GpuMarker]) -> Self {
        self.gpu_vocabulary =
            (!extra.is_empty()).then(|| std::sync::Arc::new(GpuVocabulary::with_extra(extra)));
        self.gpu_evidence = OnceLock::new();
        self
    }
    /// The GPU vocabulary in use.
    pub fn gpu_vocabulary(&self) -> &GpuVocabulary {
        self.gpu_vocabulary
            .as_deref()
            .unwrap_or_else(|| GpuVocabulary::builtin())
    }
    /// GPU evidence of every node, in `snapshot().nodes` order
    /// ([`cube_model::gpu::cluster_gpu_evidence`]); computed on first use.
    pub fn gpu_evidence(&self) -> &[NodeGpuEvidence] {
        self.gpu_evidence.get_or_init(|| {
            cube_model::gpu::cluster_gpu_evidence(self.gpu_vocabulary(), self.snapshot)
        })
    }
    /// The snapshot.
    pub fn snapshot(&self) -> &'a ClusterSnapshot {
        self.snapshot
    }
    /// Resource groups.
    pub fn groups(&self) -> &[GroupSpec] {
        &self.groups
    }
    /// Log texts.
    pub fn logs(&self) -> &[LogText] {
        &self.logs
    }
    /// Import reports.
    pub fn imports(&self) -> &[ImportReport] {
        &self.imports
    }
    /// Thresholds.
    pub fn thresholds(&self) -> &Thresholds {
        &self.thresholds
    }
    /// The node named `name` (first one when names repeat).
    pub fn node(&self, name: &str) -> Option<&'a Node> {
        self.nodes_by_name
            .get(name)
            .map(|&i| &self.snapshot.nodes[i])
    }
    /// Indexes (into `snapshot().pods`) of pods bound to `node`.
    pub fn pods_on_node(&self, node: &str) -> &[usize] {
        self.pods_by_node.get(node).map_or(&[], Vec::as_slice)
    }
    /// Indexes (into `snapshot().pods`) of pods in `namespace`.
    pub fn pods_in_namespace(&self, namespace: &str) -> &[usize] {
        self.pods_by_namespace
            .get(namespace)
            .map_or(&[], Vec::as_slice)
    }
    /// Namespaces that hold at least one pod.
    pub fn namespaces_with_pods(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.pods_by_namespace.keys().copied()
    }
    /// Node names that have pods bound, with the pod indexes.
    pub fn bound_nodes(&self) -> impl Iterator<Item = (&'a str, &[usize])> + '_ {
        self.pods_by_node.iter().map(|(k, v)| (*k, v.as_slice()))
    }
    /// The pod at `index`.
    pub fn pod(&self, index: usize) -> &'a Pod {
        &self.snapshot.pods[index]
    }
    /// Effective requests of the pod at `index` (`cube_quota::requests::effective_pod_requests`:
    /// requests defaulted from limits as the API server does, then upstream `PodRequests`: max of
    /// app-container sum and init/sidecar peaks, plus overhead). A container asking for GPUs only
    /// under `limits` requests them.
    pub fn pod_requests(&self, index: usize) -> &ResourceList {
        &self.request_lists[self.pod_requests[index]]
    }
    /// Classified lines of all log texts, of the snapshot's event messages (source `events`,
    /// line = event index + 1, object = the involved object) and of its pods' status messages
    /// (source `pods`, line = pod index + 1, object = the pod); computed on first use.
    pub fn signals(&self) -> &[Signal] {
        self.signals.get_or_init(|| {
            let mut out: Vec<Signal> = Vec::new();
            for (i, e) in self.snapshot.events.iter().enumerate() {
                let o = &e.involved_object;
                // events about no named object (the `Events:` block of a describe excerpt): the
                // subject is the input they came from
                let subject = if o.name.is_empty() {
                    crate::Subject::log(
                        e.metadata
                            .annotations
                            .get(crate::input::SOURCE_ANNOTATION)
                            .unwrap_or("events"),
                    )
                } else if o.namespace.is_empty() {
                    crate::Subject::cluster_scoped(&o.kind, &o.name)
                } else {
                    crate::Subject::namespaced(&o.kind, &o.namespace, &o.name)
                };
                // kube-scheduler v1.3-v1.4 FitError: one `fit failure on node (<n>): ...` line
                // per node after the pod's sentence; read as one message
                let message = if e.message.contains("failed to fit in any node\n") {
                    e.message.trim_end().replace('\n', " ")
                } else {
                    e.message.clone()
                };
                let text = format!("{} {} {}", e.type_, e.reason, message);
                for mut s in classify::classify("events", &text) {
                    s.line = i + 1;
                    s.object = Some(subject.clone());
                    out.push(s);
                }
            }
            // a pod's own status message (`kubectl describe pod` Message:, `-o yaml`
            // status.message): where the kubelet writes why it evicted or rejected the pod
            // (pkg/kubelet/eviction/helpers.go, pkg/kubelet/lifecycle/predicate.go); source
            // `pods`, line = pod index + 1, object = the pod
            for (i, p) in self.snapshot.pods.iter().enumerate() {
                if p.status.message.trim().is_empty() {
                    continue;
                }
                // a Failed pod the kubelet refused at admission is explained once, per node
                // and reason, by rules::kubelet_admission::refused_pods
                if p.status.phase == "Failed"
                    && crate::rules::kubelet_admission::rule_of(&p.status.reason).is_some()
                {
                    continue;
                }
                let subject =
                    crate::Subject::namespaced("Pod", &p.metadata.namespace, &p.metadata.name);
                let text = format!(
                    "{} {}",
                    p.status.reason,
                    p.status.message.replace('\n', " ")
                );
                for mut s in classify::classify("pods", &text) {
                    s.line = i + 1;
                    s.object = Some(subject.clone());
                    out.push(s);
                }
            }
            // one log text and nothing else: its classified lines as they are, shared, not
            // copied (a paste of a million error lines held them twice, red team 2 #03)
            if let [log] = self.logs.as_slice()
                && out.is_empty()
            {
                return log.signals_shared();
            }
            let mut all: Vec<Signal> = Vec::new();
            for log in &self.logs {
                all.extend(log.signals_shared().iter().cloned());
            }
            all.append(&mut out);
            std::sync::Arc::new(all)
        })
    }
}
