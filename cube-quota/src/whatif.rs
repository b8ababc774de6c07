//! The what-if admission pipeline: would the API server accept this pod, workload, claim or
//! policy object, what would it store, and (through a pluggable [`SchedulingStep`]) would the
//! scheduler place it?
//!
//! For every pod (a Pod, or each replica of a workload template) the stages run in the API
//! server's order (K8S-SEMANTICS.md §10.1):
//!
//! 1. [`Stage::ApiDefaulting`]: `SetDefaults_Pod` (requests := limits where missing);
//! 2. [`Stage::LimitRangerDefaulting`]: LimitRanger's mutation with each LimitRange of the
//!    namespace (API-defaulted as stored: `max` fills `default`, ...);
//! 3. [`Stage::Priority`]: priority admission (mutating: unknown class, explicit priority);
//! 4. [`Stage::Validation`]: the API's own validation of pod resources (422 `is invalid`);
//! 5. [`Stage::LimitRangerValidation`]: LimitRanger validation (403);
//! 6. [`Stage::ResourceQuota`]: quota admission against every quota of the namespace (403),
//!    charging the quota so the next replica sees the usage of the earlier ones;
//! 7. [`Stage::Scheduling`]: optional, through [`AdmitOptions::scheduler`].
//!
//! Mutating admission (2, 3) runs before validation (4), which runs before validating admission
//! (5, 6): this is why a pod violating both a LimitRange and a quota only gets the LimitRange
//! message, and why a LimitRange default limit below an explicit request gives a 422.
//!
//! Extension point for the scheduler: implement [`SchedulingStep`] (node fit and preemption
//! live in other modules) and pass it in [`AdmitOptions::scheduler`]; it is called once per
//! admitted replica with the stored pod and the replicas admitted before it.

use cube_model::ClusterSnapshot;
use cube_model::objects::{
    LimitRange, ObjectMeta, PersistentVolumeClaim, Pod, PodTemplateSpec, PriorityClass,
    ResourceQuota, Time,
};
use serde::Deserialize;
use serde_json::Value;

use crate::admission::{NamespaceAdmission, NamespacePhase, namespace_phase};
use crate::error::{Error, Result};
use crate::limitrange::{default_limit_range, default_pod, validate_pod, validate_pvc};
use crate::priority::{admit_pod_priority, check_single_default, validate_priority_class};
use crate::quota::{QuotaAdmissionConfig, QuotaCharge, QuotaState, QuotaSubject, check_request};
use crate::requests::{default_requests_from_limits, round_pod_resources, round_resource_list};
use crate::validation::{
    invalid_message, validate_limit_range, validate_pod_resources, validate_resource_quota,
};

// ---------------------------------------------------------------- input

/// The controller kinds whose pod template the pipeline expands into replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WorkloadKind {
    /// A bare Pod (one replica, its own name).
    Pod,
    /// `batch/v1` Job: `min(parallelism, completions)` pods (parallelism defaults to 1).
    Job,
    /// `batch/v1` CronJob: one run of its job template.
    CronJob,
    /// `apps/v1` Deployment: `replicas` (default 1) pods named `<name>-<hash>-<suffix>`.
    Deployment,
    /// `apps/v1` ReplicaSet: `replicas` (default 1).
    ReplicaSet,
    /// `v1` ReplicationController: `replicas` (default 1).
    ReplicationController,
    /// `apps/v1` StatefulSet: `replicas` (default 1) pods `<name>-0`, `<name>-1`, ...
    StatefulSet,
    /// `apps/v1` DaemonSet: one pod per eligible node of the snapshot (see [`daemon_nodes`]),
    /// each with the controller's tolerations and pinned to its node by node affinity on
    /// `metadata.name`, as the DaemonSet controller creates them; the scheduler then checks
    /// that node only.
    DaemonSet,
}

impl WorkloadKind {
    /// The API kind name.
    pub fn as_str(self) -> &'static str {
        match self {
            WorkloadKind::Pod => "Pod",
            WorkloadKind::Job => "Job",
            WorkloadKind::CronJob => "CronJob",
            WorkloadKind::Deployment => "Deployment",
            WorkloadKind::ReplicaSet => "ReplicaSet",
            WorkloadKind::ReplicationController => "ReplicationController",
            WorkloadKind::StatefulSet => "StatefulSet",
            WorkloadKind::DaemonSet => "DaemonSet",
        }
    }
}

/// A workload: a pod prototype and how many replicas its controller would create.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// Kind.
    pub kind: WorkloadKind,
    /// The workload's name (the pod's name for a Pod).
    pub name: String,
    /// Namespace from the document (may be empty).
    pub namespace: String,
    /// Replicas the controller would create at once; `None` = one per node (DaemonSet).
    pub replicas: Option<u32>,
    /// The pod template (for a Pod: the pod's metadata and spec).
    pub template: PodTemplateSpec,
}

impl Workload {
    /// The namespace a pod of this workload lands in: `namespace` when non-empty, else the
    /// workload's own, else `default`.
    fn pod_namespace<'a>(&'a self, namespace: &'a str) -> &'a str {
        if !namespace.is_empty() {
            namespace
        } else if !self.namespace.is_empty() {
            &self.namespace
        } else {
            "default"
        }
    }

    /// The pod the controller would create first (for a Pod: the pod itself), named as the
    /// controller names it (`<name>-<hash>-<suffix>` for a Deployment, `<name>-0` for a
    /// StatefulSet, `<name>-<suffix>` otherwise), in `namespace` (empty: the workload's own,
    /// else `default`). Use it to call a scheduler or `fit` directly without building a Pod.
    pub fn template_pod(&self, namespace: &str) -> Pod {
        replica_pod(self, self.pod_namespace(namespace), 0)
    }

    /// Every replica pod the controller would create at once (`replicas`, or one for a
    /// DaemonSet, whose count depends on the nodes), as [`Workload::template_pod`] names them.
    pub fn replica_pods(&self, namespace: &str) -> Vec<Pod> {
        let ns = self.pod_namespace(namespace);
        let hash = if self.kind == WorkloadKind::Deployment {
            template_hash(&self.template)
        } else {
            String::new()
        };
        (0..self.replicas.unwrap_or(1))
            .map(|i| replica_pod_hashed(self, ns, i, &hash))
            .collect()
    }
}

// ---------------------------------------------------------------- DaemonSet

/// The taint keys every DaemonSet pod tolerates, with the effect of each toleration
/// (upstream `AddOrUpdateDaemonPodTolerations`, kubernetes/kubernetes
/// `pkg/controller/daemon/util/daemonset_util.go`): not-ready and unreachable with
/// `NoExecute`, the node-condition taints and `unschedulable` with `NoSchedule`.
pub const DAEMON_POD_TOLERATIONS: [(&str, &str); 6] = [
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
];

/// The toleration a `hostNetwork` DaemonSet pod gets in addition to
/// [`DAEMON_POD_TOLERATIONS`] (`NoSchedule`).
pub const DAEMON_POD_HOST_NETWORK_TOLERATION: &str = "node.kubernetes.io/network-unavailable";

/// Adds the DaemonSet controller's tolerations to a pod spec, as upstream
/// `AddOrUpdateDaemonPodTolerations` (each through `AddOrUpdateTolerationInPodSpec`: a
/// toleration of the pod with the same key, operator, value and effect is replaced by the
/// controller's, which has no `tolerationSeconds`; otherwise the toleration is appended).
pub fn add_daemon_pod_tolerations(spec: &mut cube_model::objects::PodSpec) {
    let host = spec
        .host_network
        .then_some((DAEMON_POD_HOST_NETWORK_TOLERATION, "NoSchedule"));
    for (key, effect) in DAEMON_POD_TOLERATIONS.into_iter().chain(host) {
        let t = cube_model::objects::Toleration {
            key: key.to_owned(),
            operator: "Exists".to_owned(),
            effect: effect.to_owned(),
            ..Default::default()
        };
        let same = |o: &cube_model::objects::Toleration| {
            o.key == t.key && o.operator == t.operator && o.value == t.value && o.effect == t.effect
        };
        if spec.tolerations.iter().any(same) {
            for o in spec.tolerations.iter_mut().filter(|o| same(o)) {
                *o = t.clone();
            }
        } else {
            spec.tolerations.push(t);
        }
    }
}

/// Pins a pod spec to `node` as the DaemonSet controller does (upstream
/// `ReplaceDaemonSetPodNodeNameNodeAffinity`): the required node affinity becomes the single
/// term `matchFields: [{key: metadata.name, operator: In, values: [node]}]`; preferred terms,
/// pod (anti-)affinity and `nodeSelector` are kept.
pub fn pin_daemon_pod(spec: &mut cube_model::objects::PodSpec, node: &str) {
    use cube_model::objects::{Affinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};
    let term = NodeSelectorTerm {
        match_expressions: Vec::new(),
        match_fields: vec![NodeSelectorRequirement {
            key: "metadata.name".to_owned(),
            operator: "In".to_owned(),
            values: vec![node.to_owned()],
        }],
    };
    let affinity = spec
        .affinity
        .get_or_insert_with(|| Box::new(Affinity::default()));
    let na = affinity.node_affinity.get_or_insert_with(Default::default);
    na.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: vec![term],
    });
}

/// A node the DaemonSet controller creates no pod for, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DaemonNodeSkip {
    /// Node name.
    pub node: String,
    /// Why, in words: `spec.template.spec.nodeName is <other>`, `nodeSelector/affinity does
    /// not match`, or `untolerated taint <key>[=<value>]:<effect>`.
    pub reason: String,
}

/// The nodes a DaemonSet with pod template `spec` runs a pod on, in snapshot order, and the
/// others with the reason (upstream `NodeShouldRunDaemonPod` / `predicates`,
/// `pkg/controller/daemon/daemon_controller.go`): the template's `nodeName`, when set, must
/// name the node; the node must match `nodeSelector` and the required node affinity; and no
/// `NoSchedule`/`NoExecute` taint may be left untolerated once the controller's tolerations
/// ([`add_daemon_pod_tolerations`]) are added. Cordoned and not-ready nodes are eligible (the
/// pods tolerate those taints); resources are the scheduler's business.
pub fn daemon_nodes(
    spec: &cube_model::objects::PodSpec,
    nodes: &[cube_model::objects::Node],
) -> (Vec<String>, Vec<DaemonNodeSkip>) {
    let mut spec = spec.clone();
    add_daemon_pod_tolerations(&mut spec);
    let mut run = Vec::new();
    let mut skipped = Vec::new();
    for node in nodes {
        let name = node.metadata.name.as_str();
        let reason = if !spec.node_name.is_empty() && spec.node_name != name {
            Some(format!("spec.template.spec.nodeName is {}", spec.node_name))
        } else if !cube_model::selector::pod_matches_node_selector_and_affinity(&spec, node) {
            Some("nodeSelector/affinity does not match".to_owned())
        } else {
            cube_model::selector::find_untolerated_taint(
                &node.spec.taints,
                &spec.tolerations,
                cube_model::selector::is_scheduling_taint,
            )
            .map(|t| {
                let value = if t.value.is_empty() {
                    String::new()
                } else {
                    format!("={}", t.value)
                };
                format!("untolerated taint {}{value}:{}", t.key, t.effect)
            })
        };
        match reason {
            Some(reason) => skipped.push(DaemonNodeSkip {
                node: name.to_owned(),
                reason,
            }),
            None => run.push(name.to_owned()),
        }
    }
    (run, skipped)
}

/// Anything the pipeline can be asked about.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Submission {
    /// A Pod or a controller's pod template (boxed: it is much larger than the others).
    Workload(Box<Workload>),
    /// A PersistentVolumeClaim (LimitRanger and quota on storage).
    PersistentVolumeClaim(PersistentVolumeClaim),
    /// A ResourceQuota (validation of its keys and scopes).
    ResourceQuota(ResourceQuota),
    /// A LimitRange (API defaulting and validation).
    LimitRange(LimitRange),
    /// A PriorityClass (validation and the single-default rule).
    PriorityClass(PriorityClass),
    /// A controller object the API server refuses before admission (a negative
    /// `spec.replicas`, a Job template that restarts `Always`, a selector that does not select
    /// the template, an integer that is no `int32`: see [`crate::workload_validation`]);
    /// [`admit`] answers with the server's 400 or 422.
    RefusedWorkload(Box<RefusedWorkload>),
}

/// A controller object refused by the API server's decoding or validation (see
/// [`Submission::RefusedWorkload`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RefusedWorkload {
    /// Kind.
    pub kind: WorkloadKind,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace` (may be empty).
    pub namespace: String,
    /// Why.
    pub refusal: crate::workload_validation::WorkloadRefusal,
}

impl Submission {
    /// The object's own `metadata.namespace` (empty when unset or cluster-scoped).
    pub fn namespace(&self) -> &str {
        match self {
            Submission::Workload(w) => w.namespace.as_str(),
            Submission::PersistentVolumeClaim(c) => c.metadata.namespace.as_str(),
            Submission::ResourceQuota(q) => q.metadata.namespace.as_str(),
            Submission::LimitRange(l) => l.metadata.namespace.as_str(),
            Submission::PriorityClass(_) => "",
            Submission::RefusedWorkload(w) => w.namespace.as_str(),
        }
    }

    /// kubectl's check before `kubectl -n <requested> create -f`: an object whose own
    /// namespace is set and differs from a non-empty `requested` is refused.
    ///
    /// # Errors
    /// [`Error::NamespaceMismatch`].
    pub fn check_namespace(&self, requested: &str) -> Result<()> {
        let object = self.namespace();
        if !requested.is_empty() && !object.is_empty() && object != requested {
            return Err(Error::NamespaceMismatch {
                object: object.to_owned(),
                requested: requested.to_owned(),
            });
        }
        Ok(())
    }

    /// A bare pod.
    pub fn pod(pod: Pod) -> Self {
        Submission::Workload(Box::new(Workload {
            kind: WorkloadKind::Pod,
            name: pod.metadata.name.clone(),
            namespace: pod.metadata.namespace.clone(),
            replicas: Some(1),
            template: PodTemplateSpec {
                metadata: pod.metadata,
                spec: pod.spec,
            },
        }))
    }

    /// Parses one YAML or JSON document (JSON when the text starts with `{`): a `Pod`, `Job`,
    /// `CronJob`, `Deployment`, `ReplicaSet`, `ReplicationController`, `StatefulSet`,
    /// `DaemonSet`, `PersistentVolumeClaim`, `ResourceQuota`, `LimitRange` or `PriorityClass`.
    ///
    /// # Errors
    /// [`Error::WorkloadParse`] for bad syntax or a field of the wrong type (with the parser's
    /// position or field path), [`Error::NoObject`] for an empty document,
    /// [`Error::UnsupportedKind`] for any other kind,
    /// [`Error::MissingField`] for a controller without `spec.template`.
    pub fn parse(text: &str) -> Result<Self> {
        let (value, format): (Value, &'static str) = if text.trim_start().starts_with('{') {
            (
                serde_json::from_str(text).map_err(|e| Error::WorkloadParse {
                    format: "json",
                    message: e.to_string(),
                })?,
                "json",
            )
        } else {
            (
                cube_model::yaml::from_str(
                    text,
                    &cube_model::Limits::default(),
                    serde_saphyr::Options::default(),
                )
                .map_err(|e| Error::WorkloadParse {
                    format: "yaml",
                    message: e.to_string(),
                })?,
                "yaml",
            )
        };
        Self::from_value(value, format)
    }

    /// As [`Submission::parse`], from an already parsed JSON value.
    ///
    /// # Errors
    /// As [`Submission::parse`].
    pub fn from_value(value: Value, format: &'static str) -> Result<Self> {
        if value.is_null() {
            return Err(Error::NoObject);
        }
        fn typed<T: for<'de> Deserialize<'de>>(v: Value, format: &'static str) -> Result<T> {
            // serde_path_to_error names the failing field (`spec.containers[0].resources...`).
            serde_path_to_error::deserialize(v).map_err(|e| Error::WorkloadParse {
                format,
                message: e.to_string(),
            })
        }
        let kind = value
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let meta: ObjectMeta = typed(
            value.get("metadata").cloned().unwrap_or(Value::Null),
            format,
        )
        .unwrap_or_default();
        let spec = value.get("spec").cloned().unwrap_or(Value::Null);
        // (checked by `check_workload_spec` first: an int32 from 0 up)
        let replicas_at = |v: &Value, key: &str| -> Option<u32> {
            v.get(key)
                .and_then(Value::as_i64)
                .and_then(|n| u32::try_from(n).ok())
        };
        let controller = match kind.as_str() {
            "Job" => Some(WorkloadKind::Job),
            "CronJob" => Some(WorkloadKind::CronJob),
            "Deployment" => Some(WorkloadKind::Deployment),
            "ReplicaSet" => Some(WorkloadKind::ReplicaSet),
            "ReplicationController" => Some(WorkloadKind::ReplicationController),
            "StatefulSet" => Some(WorkloadKind::StatefulSet),
            "DaemonSet" => Some(WorkloadKind::DaemonSet),
            _ => None,
        };
        // (a controller without a template is a parse error, `MissingField`, below)
        let has_template = |k: WorkloadKind| match k {
            WorkloadKind::CronJob => spec.pointer("/jobTemplate/spec/template").is_some(),
            _ => spec.get("template").is_some(),
        };
        if let Some(k) = controller
            && has_template(k)
            && let Err(refusal) = crate::workload_validation::check_workload_spec(k, &spec)
        {
            return Ok(Submission::RefusedWorkload(Box::new(RefusedWorkload {
                kind: k,
                name: meta.name.clone(),
                namespace: meta.namespace.clone(),
                refusal,
            })));
        }
        let template_of = |spec: &Value, kind: &str, name: &str| -> Result<PodTemplateSpec> {
            match spec.get("template") {
                Some(t) => typed(t.clone(), format),
                None => Err(Error::MissingField {
                    kind: kind.to_owned(),
                    name: name.to_owned(),
                    field: "spec.template",
                }),
            }
        };
        let workload = |k: WorkloadKind, replicas: Option<u32>, template: PodTemplateSpec| {
            Submission::Workload(Box::new(Workload {
                kind: k,
                name: meta.name.clone(),
                namespace: meta.namespace.clone(),
                replicas,
                template,
            }))
        };
        Ok(match kind.as_str() {
            "Pod" => {
                let pod: Pod = typed(value, format)?;
                Submission::pod(pod)
            }
            "Job" => {
                let t = template_of(&spec, &kind, &meta.name)?;
                workload(WorkloadKind::Job, Some(job_pods(&spec)), t)
            }
            "CronJob" => {
                let job_spec = spec
                    .pointer("/jobTemplate/spec")
                    .cloned()
                    .unwrap_or(Value::Null);
                let t = template_of(&job_spec, &kind, &meta.name)?;
                workload(WorkloadKind::CronJob, Some(job_pods(&job_spec)), t)
            }
            "Deployment" | "ReplicaSet" | "ReplicationController" | "StatefulSet" => {
                let k = match kind.as_str() {
                    "Deployment" => WorkloadKind::Deployment,
                    "ReplicaSet" => WorkloadKind::ReplicaSet,
                    "ReplicationController" => WorkloadKind::ReplicationController,
                    _ => WorkloadKind::StatefulSet,
                };
                let t = template_of(&spec, &kind, &meta.name)?;
                workload(k, Some(replicas_at(&spec, "replicas").unwrap_or(1)), t)
            }
            "DaemonSet" => {
                let t = template_of(&spec, &kind, &meta.name)?;
                workload(WorkloadKind::DaemonSet, None, t)
            }
            "PersistentVolumeClaim" => Submission::PersistentVolumeClaim(typed(value, format)?),
            "ResourceQuota" => Submission::ResourceQuota(typed(value, format)?),
            "LimitRange" => Submission::LimitRange(typed(value, format)?),
            "PriorityClass" => Submission::PriorityClass(typed(value, format)?),
            _ => return Err(Error::UnsupportedKind { kind }),
        })
    }
}

/// Pods a Job runs at once: `parallelism` (default 1) capped by `completions` when set.
fn job_pods(spec: &Value) -> u32 {
    // (checked by `check_workload_spec` first: an int32 from 0 up)
    let get = |k: &str| {
        spec.get(k)
            .and_then(Value::as_i64)
            .and_then(|n| u32::try_from(n).ok())
    };
    let par = get("parallelism").unwrap_or(1);
    match get("completions") {
        Some(c) => par.min(c),
        None => par,
    }
}

// ---------------------------------------------------------------- output

/// A stage of the pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Stage {
    /// API defaulting of the object (requests from limits, values rounded up to milli scale).
    ApiDefaulting,
    /// NamespaceLifecycle admission: the namespace must exist and not be terminating.
    NamespaceLifecycle,
    /// LimitRanger mutation (defaults from LimitRanges).
    LimitRangerDefaulting,
    /// Priority admission.
    Priority,
    /// RuntimeClass admission: the pod's `spec.overhead` and scheduling constraints from its
    /// RuntimeClass (mutating), and the overhead check (validating, before ResourceQuota).
    RuntimeClass,
    /// The API's object validation (422).
    Validation,
    /// LimitRanger validation (403).
    LimitRangerValidation,
    /// ResourceQuota admission (403).
    ResourceQuota,
    /// Scheduling (fit and preemption), when a [`SchedulingStep`] is given.
    Scheduling,
}

/// What one stage did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepStatus {
    /// Checked, nothing to change.
    Passed,
    /// The object was changed (defaults set); the detail says what.
    Changed,
    /// The stage rejected the object.
    Rejected,
    /// Not applicable (for example no LimitRange in the namespace).
    Skipped,
}

/// One stage's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// Stage.
    pub stage: Stage,
    /// Status.
    pub status: StepStatus,
    /// Human-readable detail (the annotation text, the priority, the charges, the error).
    pub detail: String,
}

/// A refusal with the API's exact answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rejection {
    /// Stage that refused.
    pub stage: Stage,
    /// HTTP status: 403 Forbidden, 404 NotFound (a namespace that does not exist), 422
    /// Invalid, 500 for the unwrapped `insufficient quota to match these scopes`.
    pub code: u16,
    /// Status reason: `Forbidden`, `NotFound`, `Invalid` or `InternalError`.
    pub reason: &'static str,
    /// The Status message, e.g. `pods "x" is forbidden: exceeded quota: ...`.
    pub message: String,
}

/// The scheduler's answer for one admitted pod, filled by a [`SchedulingStep`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchedulingOutcome {
    /// True when a node fits now (possibly after preemption, see `victims`).
    pub schedulable: bool,
    /// The chosen (or nominated) node.
    pub node: Option<String>,
    /// The scheduler's message (`0/N nodes are available: ...`) when not schedulable.
    pub message: String,
    /// Pods (`namespace/name`) preemption would evict to make room.
    pub victims: Vec<String>,
    /// Set for a pod bound by `spec.nodeName`: kube-scheduler never sees it (no
    /// FailedScheduling), the kubelet of that node admits or rejects it instead.
    pub kubelet: Option<KubeletAdmission>,
}

/// The kubelet's admission of a pod bound by `spec.nodeName` (upstream
/// `pkg/kubelet/lifecycle/predicate.go` `predicateAdmitHandler.Admit` and
/// `pkg/kubelet/kubelet.go` `rejectPod`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct KubeletAdmission {
    /// `spec.nodeName`.
    pub node: String,
    /// False when the snapshot holds no such node: no kubelet will ever admit the pod (it stays
    /// Pending until the pod garbage collector deletes it).
    pub node_exists: bool,
    /// True when the kubelet admits the pod.
    pub admitted: bool,
    /// The rejection's `status.reason` and event reason: `OutOfcpu`, `OutOfnvidia.com/gpu`,
    /// `OutOfpods`, `NodeAffinity`, `NodePorts`, `TaintToleration` (empty when admitted).
    pub reason: String,
    /// The event message (`Node didn't have enough resource: nvidia.com/gpu, requested: 8,
    /// used: 4, capacity: 8`, `Predicate NodeAffinity failed: node(s) didn't match Pod's node
    /// affinity/selector`); the pod's `status.message` is `Pod was rejected: ` and this.
    pub message: String,
}

/// The scheduling stage, implemented elsewhere (node fit and preemption).
pub trait SchedulingStep: Send + Sync {
    /// Decides where `pod` (as the API server stored it) would go. `placed` are the replicas
    /// admitted earlier in the same run (not yet in `snapshot`).
    fn schedule(&self, pod: &Pod, snapshot: &ClusterSnapshot, placed: &[Pod]) -> SchedulingOutcome;

    /// Starts a run over `snapshot` in which pods are scheduled one after another, each
    /// seeing the ones placed before it. [`admit`] uses one session per workload. The default
    /// replays [`SchedulingStep::schedule`] with the pods scheduled so far; an implementation
    /// that keeps state between pods (as [`crate::preemption::FitScheduler`] does) overrides
    /// it.
    fn session<'s>(&'s self, snapshot: &'s ClusterSnapshot) -> Box<dyn SchedulingSession + 's> {
        Box::new(ReplaySession {
            step: self,
            snapshot,
            placed: Vec::new(),
        })
    }
}

/// A scheduling run over one snapshot (see [`SchedulingStep::session`]).
pub trait SchedulingSession {
    /// Decides where `pod` would go, given the pods scheduled before it in this session.
    fn schedule(&mut self, pod: &Pod) -> SchedulingOutcome;
}

/// The default session: [`SchedulingStep::schedule`] with every pod scheduled before.
struct ReplaySession<'s, S: ?Sized> {
    step: &'s S,
    snapshot: &'s ClusterSnapshot,
    placed: Vec<Pod>,
}

impl<S: SchedulingStep + ?Sized> SchedulingSession for ReplaySession<'_, S> {
    fn schedule(&mut self, pod: &Pod) -> SchedulingOutcome {
        let out = self.step.schedule(pod, self.snapshot, &self.placed);
        self.placed.push(pod.clone());
        out
    }
}

/// The outcome for one replica pod.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReplicaOutcome {
    /// The pod name used in messages.
    pub pod_name: String,
    /// Every stage that ran, in order.
    pub steps: Vec<Step>,
    /// The pod as the API server would store it (when admitted).
    pub stored: Option<Pod>,
    /// What was charged to each matching quota (when admitted).
    pub charges: Vec<QuotaCharge>,
    /// Scheduling answer (when admitted and a scheduler was given).
    pub scheduling: Option<SchedulingOutcome>,
    /// The refusal, if any.
    pub rejection: Option<Rejection>,
}

impl ReplicaOutcome {
    /// The stored pod in the server's spellings (see [`StoredPod`]), when admitted.
    pub fn stored_pod(&self) -> Option<StoredPod> {
        self.stored.as_ref().map(StoredPod::from_pod)
    }
}

/// One container's resources as the API server stores them: each quantity in the server's own
/// spelling (`Quantity`'s `String()`: `0.3` is `300m`, `1024Ki` is `1Mi`, a rounded `0.0005`
/// is `1m`), keyed by resource name.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredResources {
    /// `requests`.
    pub requests: std::collections::BTreeMap<String, String>,
    /// `limits`.
    pub limits: std::collections::BTreeMap<String, String>,
}

impl StoredResources {
    fn of(r: &cube_model::objects::ResourceRequirements) -> Self {
        let texts = |l: &cube_model::ResourceList| {
            l.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        StoredResources {
            requests: texts(&r.requests),
            limits: texts(&r.limits),
        }
    }

    /// `cpu=300m,memory=1Mi` for one side.
    fn side(m: &std::collections::BTreeMap<String, String>) -> String {
        m.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// `requests cpu=300m,memory=1Mi limits cpu=1` (`-` for an empty side).
    pub fn compact(&self) -> String {
        let or_dash = |s: String| if s.is_empty() { "-".to_owned() } else { s };
        format!(
            "requests {} limits {}",
            or_dash(Self::side(&self.requests)),
            or_dash(Self::side(&self.limits))
        )
    }
}

/// One container of a [`StoredPod`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredContainer {
    /// Container name.
    pub name: String,
    /// Its requests and limits after API defaulting and LimitRanger defaulting.
    #[serde(flatten)]
    pub resources: StoredResources,
}

/// The pod as the API server would store it after admission: each container's requests and
/// limits after API defaulting (requests from limits, values rounded up to milli scale) and
/// LimitRanger defaulting, pod-level resources and overhead, the priority with its class and
/// preemption policy (priority admission), and the QoS class the server writes into
/// `status.qosClass` (`GetPodQOS` at creation).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredPod {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `spec.containers`.
    pub containers: Vec<StoredContainer>,
    /// `spec.initContainers`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<StoredContainer>,
    /// Pod-level `spec.resources`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<StoredResources>,
    /// `spec.overhead`.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub overhead: std::collections::BTreeMap<String, String>,
    /// `spec.priority`.
    pub priority: i32,
    /// `spec.priorityClassName` (empty: none).
    pub priority_class_name: String,
    /// `spec.preemptionPolicy`.
    pub preemption_policy: String,
    /// `status.qosClass`.
    pub qos_class: String,
}

impl StoredPod {
    /// The summary of a stored pod (as [`ReplicaOutcome::stored`] holds it).
    pub fn from_pod(pod: &Pod) -> Self {
        let containers = |cs: &[cube_model::objects::Container]| {
            cs.iter()
                .map(|c| StoredContainer {
                    name: c.name.clone(),
                    resources: StoredResources::of(&c.resources),
                })
                .collect()
        };
        StoredPod {
            name: pod.metadata.name.clone(),
            namespace: pod.metadata.namespace.clone(),
            containers: containers(&pod.spec.containers),
            init_containers: containers(&pod.spec.init_containers),
            resources: pod.spec.resources.as_deref().map(StoredResources::of),
            overhead: pod
                .spec
                .overhead
                .iter()
                .flat_map(|o| o.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            priority: pod.spec.priority.unwrap_or(0),
            priority_class_name: pod.spec.priority_class_name.clone(),
            preemption_policy: pod.spec.preemption_policy.clone().unwrap_or_default(),
            qos_class: crate::requests::qos_class(pod).as_str().to_owned(),
        }
    }

    /// One line: `main: requests cpu=300m limits cpu=1; sidecar: ...; priority 1000 (class
    /// high, PreemptLowerPriority), QoS Burstable`. Init containers are marked `init`, pod-level
    /// resources `pod`.
    pub fn compact(&self) -> String {
        let mut parts: Vec<String> = self
            .init_containers
            .iter()
            .map(|c| format!("init {}: {}", c.name, c.resources.compact()))
            .chain(
                self.containers
                    .iter()
                    .map(|c| format!("{}: {}", c.name, c.resources.compact())),
            )
            .collect();
        if let Some(r) = &self.resources {
            parts.push(format!("pod: {}", r.compact()));
        }
        if !self.overhead.is_empty() {
            parts.push(format!(
                "overhead {}",
                StoredResources::side(&self.overhead)
            ));
        }
        let class = if self.priority_class_name.is_empty() {
            "no class".to_owned()
        } else {
            format!("class {}", self.priority_class_name)
        };
        format!(
            "{}; priority {} ({class}, {}), QoS {}",
            parts.join("; "),
            self.priority,
            self.preemption_policy,
            self.qos_class
        )
    }

    /// True when `other` differs from this pod only by name (replicas of one template).
    pub fn same_shape(&self, other: &StoredPod) -> bool {
        self.namespace == other.namespace
            && self.containers == other.containers
            && self.init_containers == other.init_containers
            && self.resources == other.resources
            && self.overhead == other.overhead
            && self.priority == other.priority
            && self.priority_class_name == other.priority_class_name
            && self.preemption_policy == other.preemption_policy
            && self.qos_class == other.qos_class
    }
}

/// The final answer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// Everything admitted. `pending` counts admitted replicas the scheduler could not place now
    /// (0 when no scheduler ran).
    Admitted {
        /// Replicas (or objects) admitted.
        admitted: u32,
        /// Of those, how many stay Pending.
        pending: u32,
    },
    /// Some replicas admitted, then one refused (a controller keeps retrying the rest).
    Partial {
        /// Replicas admitted.
        admitted: u32,
        /// Replicas asked for.
        requested: u32,
        /// The first refusal.
        rejection: Rejection,
    },
    /// Refused outright.
    Rejected(Rejection),
}

/// Everything the pipeline found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AdmissionOutcome {
    /// Kind submitted.
    pub kind: String,
    /// Name submitted.
    pub name: String,
    /// Namespace used.
    pub namespace: String,
    /// Replicas asked for (1 for non-workloads).
    pub requested: u32,
    /// Replicas (or objects) admitted.
    pub admitted: u32,
    /// Per replica (workloads) or a single entry (other objects).
    pub replicas: Vec<ReplicaOutcome>,
    /// The quotas of the namespace after the run (with the admitted replicas charged).
    pub quotas_after: Vec<QuotaState>,
    /// Final verdict.
    pub verdict: Verdict,
    /// True when a scheduler ([`AdmitOptions::scheduler`]) ran for the admitted pods. When
    /// false, [`Verdict::Admitted`]'s `pending: 0` says nothing about whether the pods fit a
    /// node: use [`AdmissionOutcome::schedulable_now`].
    pub scheduling_checked: bool,
    /// For a DaemonSet: the nodes its controller creates no pod for, with the reason (see
    /// [`daemon_nodes`]); empty otherwise.
    pub daemon_skipped: Vec<DaemonNodeSkip>,
}

impl AdmissionOutcome {
    /// Whether every admitted replica can be placed now: `Some(true)` / `Some(false)` after a
    /// scheduler ran, `None` when scheduling was not checked (no scheduler, or nothing was
    /// admitted to schedule).
    pub fn schedulable_now(&self) -> Option<bool> {
        if !self.scheduling_checked {
            return None;
        }
        match &self.verdict {
            Verdict::Admitted { pending, .. } => Some(*pending == 0),
            Verdict::Partial { .. } | Verdict::Rejected(_) => Some(false),
        }
    }

    /// The first refusal, if any.
    pub fn rejection(&self) -> Option<&Rejection> {
        match &self.verdict {
            Verdict::Admitted { .. } => None,
            Verdict::Partial { rejection, .. } | Verdict::Rejected(rejection) => Some(rejection),
        }
    }
}

/// Options of [`admit`].
#[derive(Default)]
pub struct AdmitOptions<'a> {
    /// "Now" for the stuck-terminating rule of quota usage; `None` = not applied.
    pub now: Option<Time>,
    /// ResourceQuota admission configuration (`limitedResources`); empty on a stock server.
    pub quota_config: QuotaAdmissionConfig,
    /// Cap on replicas tried (a guard for huge `replicas`); `None` = all.
    pub max_replicas: Option<u32>,
    /// Keep trying replicas after a refusal (each refusal is recorded). Default `false`: stop
    /// at the first one, since a controller's retries fail the same way.
    pub continue_after_rejection: bool,
    /// Scheduling stage; `None` = stop after admission. The step is `Send + Sync`, so
    /// `AdmitOptions` can be held across an `.await` in a spawned task.
    pub scheduler: Option<&'a dyn SchedulingStep>,
}

impl std::fmt::Debug for AdmitOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdmitOptions")
            .field("now", &self.now)
            .field("quota_config", &self.quota_config)
            .field("max_replicas", &self.max_replicas)
            .field("continue_after_rejection", &self.continue_after_rejection)
            .field("scheduler", &self.scheduler.is_some())
            .finish()
    }
}

// ---------------------------------------------------------------- pipeline

const NAME_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// A deterministic stand-in for the API server's random 5-character name suffix.
fn suffix(n: u64) -> String {
    let mut x = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5bd1_e995;
    (0..5)
        .map(|_| {
            let c = NAME_ALPHABET[(x % NAME_ALPHABET.len() as u64) as usize] as char;
            x /= NAME_ALPHABET.len() as u64;
            c
        })
        .collect()
}

/// FNV-1a of the template, encoded like upstream's `SafeEncodeString(fmt.Sprint(hash))` (our
/// hash input differs from upstream's, so the value is only stable, not identical).
fn template_hash(t: &PodTemplateSpec) -> String {
    let bytes = serde_json::to_vec(t).unwrap_or_default();
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h.to_string()
        .bytes()
        .map(|d| NAME_ALPHABET[(d - b'0') as usize] as char)
        .collect()
}

fn replica_pod(w: &Workload, namespace: &str, i: u32) -> Pod {
    let hash = if w.kind == WorkloadKind::Deployment {
        template_hash(&w.template)
    } else {
        String::new()
    };
    replica_pod_hashed(w, namespace, i, &hash)
}

/// [`replica_pod`] with the Deployment's template hash computed once by the caller.
fn replica_pod_hashed(w: &Workload, namespace: &str, i: u32, hash: &str) -> Pod {
    let mut meta = w.template.metadata.clone();
    meta.namespace = namespace.to_owned();
    let name = match w.kind {
        WorkloadKind::Pod => {
            if meta.name.is_empty() && !meta.generate_name.is_empty() {
                format!("{}{}", meta.generate_name, suffix(i as u64))
            } else {
                meta.name.clone()
            }
        }
        WorkloadKind::StatefulSet => format!("{}-{i}", w.name),
        WorkloadKind::Deployment => format!("{}-{hash}-{}", w.name, suffix(i as u64)),
        _ => format!("{}-{}", w.name, suffix(i as u64)),
    };
    meta.name = name;
    Pod {
        metadata: meta,
        spec: w.template.spec.clone(),
        status: Default::default(),
    }
}

fn forbidden(stage: Stage, resource: &str, name: &str, msg: &str) -> Rejection {
    Rejection {
        stage,
        code: 403,
        reason: "Forbidden",
        message: format!("{resource} \"{name}\" is forbidden: {msg}"),
    }
}

fn invalid(stage: Stage, message: String) -> Rejection {
    Rejection {
        stage,
        code: 422,
        reason: "Invalid",
        message,
    }
}

fn step(stage: Stage, status: StepStatus, detail: impl Into<String>) -> Step {
    Step {
        stage,
        status,
        detail: detail.into(),
    }
}

/// The LimitRanges of `namespace` as the API server stores them (API-defaulted).
fn stored_limit_ranges(snapshot: &ClusterSnapshot, namespace: &str) -> Vec<LimitRange> {
    snapshot
        .limit_ranges
        .iter()
        .filter(|l| l.metadata.namespace == namespace || l.metadata.namespace.is_empty())
        .map(|l| {
            let mut l = l.clone();
            default_limit_range(&mut l);
            l
        })
        .collect()
}

/// The NamespaceLifecycle refusal of a create in `namespace` (upstream
/// `staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go`):
/// 404 `namespaces "x" not found` for a namespace that does not exist, 403 `unable to create
/// new content in namespace x because it is being terminated` for a terminating one.
pub(crate) fn lifecycle_rejection(
    phase: NamespacePhase,
    namespace: &str,
    resource: &str,
    name: &str,
) -> Option<Rejection> {
    match phase {
        NamespacePhase::Active => None,
        NamespacePhase::NotFound => Some(Rejection {
            stage: Stage::NamespaceLifecycle,
            code: 404,
            reason: "NotFound",
            message: format!("namespaces \"{namespace}\" not found"),
        }),
        NamespacePhase::Terminating => Some(forbidden(
            Stage::NamespaceLifecycle,
            resource,
            name,
            &format!(
                "unable to create new content in namespace {namespace} because it is being terminated"
            ),
        )),
    }
}

/// The whole pipeline for one pod (the detailed path of [`NamespaceAdmission`]).
pub(crate) fn admit_one_pod(mut pod: Pod, ns: &mut NamespaceAdmission<'_>) -> ReplicaOutcome {
    let name = pod.metadata.name.clone();
    let mut steps = Vec::new();
    let reject = |steps: Vec<Step>, r: Rejection| ReplicaOutcome {
        pod_name: name.clone(),
        steps,
        stored: None,
        charges: Vec::new(),
        scheduling: None,
        rejection: Some(r),
    };

    // 1. API defaulting: SetDefaults_Pod, then every resource list rounded up to milli scale
    let before = pod.spec.clone();
    default_requests_from_limits(&mut pod.spec);
    let from_limits = pod.spec != before;
    let rounded = round_pod_resources(&mut pod.spec);
    let mut notes = Vec::new();
    if from_limits {
        notes.push("requests defaulted from limits".to_owned());
    }
    if !rounded.is_empty() {
        notes.push(format!("rounded up to milli scale: {}", rounded.join(", ")));
    }
    steps.push(if notes.is_empty() {
        step(Stage::ApiDefaulting, StepStatus::Passed, "")
    } else {
        step(Stage::ApiDefaulting, StepStatus::Changed, notes.join("; "))
    });

    // NamespaceLifecycle (the first admission plugin)
    if let Some(r) = lifecycle_rejection(ns.phase(), ns.namespace(), "pods", &name) {
        steps.push(step(
            Stage::NamespaceLifecycle,
            StepStatus::Rejected,
            r.message.clone(),
        ));
        return reject(steps, r);
    }

    // 2. LimitRanger mutation
    if ns.limit_ranges.is_empty() {
        steps.push(step(
            Stage::LimitRangerDefaulting,
            StepStatus::Skipped,
            "no LimitRange",
        ));
    } else {
        let mut notes = Vec::new();
        for lr in &ns.limit_ranges {
            if let Some(a) = default_pod(lr, &mut pod) {
                notes.push(format!("{}: {a}", lr.metadata.name));
            }
        }
        steps.push(if notes.is_empty() {
            step(Stage::LimitRangerDefaulting, StepStatus::Passed, "")
        } else {
            step(
                Stage::LimitRangerDefaulting,
                StepStatus::Changed,
                notes.join("; "),
            )
        });
    }

    // 3. priority admission (mutating)
    match admit_pod_priority(&mut pod, ns.classes) {
        Ok(r) => steps.push(step(
            Stage::Priority,
            StepStatus::Passed,
            format!(
                "priority {} (class {:?}, preemptionPolicy {})",
                r.priority, r.class_name, r.preemption_policy
            ),
        )),
        Err(e) => {
            steps.push(step(Stage::Priority, StepStatus::Rejected, e.clone()));
            return reject(steps, forbidden(Stage::Priority, "pods", &name, &e));
        }
    }

    // 3b. RuntimeClass admission (mutating): overhead and scheduling of the pod's class
    let runtime_class = match runtime_class_mutate(&mut pod, ns.runtime_classes) {
        Ok((status, detail, rc)) => {
            // (a pod without runtimeClassName: nothing to say)
            if pod.spec.runtime_class_name.is_some() {
                steps.push(step(Stage::RuntimeClass, status, detail));
            }
            rc
        }
        Err(e) => {
            steps.push(step(Stage::RuntimeClass, StepStatus::Rejected, e.clone()));
            return reject(steps, forbidden(Stage::RuntimeClass, "pods", &name, &e));
        }
    };

    // 4. validation
    let mut errs = Vec::new();
    if name.is_empty() {
        errs.push(crate::validation::FieldError::required(
            "metadata.name",
            "name or generateName is required",
        ));
    }
    errs.extend(validate_pod_resources(&pod));
    if let Some(msg) = invalid_message("Pod", &name, &errs) {
        steps.push(step(Stage::Validation, StepStatus::Rejected, msg.clone()));
        return reject(steps, invalid(Stage::Validation, msg));
    }
    steps.push(step(Stage::Validation, StepStatus::Passed, ""));

    // 5. LimitRanger validation
    if ns.limit_ranges.is_empty() {
        steps.push(step(
            Stage::LimitRangerValidation,
            StepStatus::Skipped,
            "no LimitRange",
        ));
    } else {
        for lr in &ns.limit_ranges {
            if let Err(e) = validate_pod(lr, &pod) {
                steps.push(step(
                    Stage::LimitRangerValidation,
                    StepStatus::Rejected,
                    e.clone(),
                ));
                return reject(
                    steps,
                    forbidden(Stage::LimitRangerValidation, "pods", &name, &e),
                );
            }
        }
        steps.push(step(Stage::LimitRangerValidation, StepStatus::Passed, ""));
    }

    // 5b. RuntimeClass admission (validating): the overhead must be the class's
    if let Err(e) = runtime_class_validate(&pod, runtime_class) {
        steps.push(step(Stage::RuntimeClass, StepStatus::Rejected, e.clone()));
        return reject(steps, forbidden(Stage::RuntimeClass, "pods", &name, &e));
    }

    // 6. quota
    let (config, now) = (ns.config.clone(), ns.now);
    let charges = match check_request(QuotaSubject::Pod(&pod), ns.quotas_mut(), &config, now) {
        Ok(c) => c,
        Err(e) => {
            steps.push(step(
                Stage::ResourceQuota,
                StepStatus::Rejected,
                e.message.clone(),
            ));
            let r = if e.forbidden {
                forbidden(Stage::ResourceQuota, "pods", &name, &e.message)
            } else {
                Rejection {
                    stage: Stage::ResourceQuota,
                    code: 500,
                    reason: "InternalError",
                    message: e.message,
                }
            };
            return reject(steps, r);
        }
    };
    steps.push(if charges.is_empty() {
        step(
            Stage::ResourceQuota,
            StepStatus::Passed,
            "no matching quota",
        )
    } else {
        step(
            Stage::ResourceQuota,
            StepStatus::Passed,
            charges
                .iter()
                .map(|c| format!("{}: {}", c.quota, crate::quota::pretty_print(&c.requested)))
                .collect::<Vec<_>>()
                .join("; "),
        )
    });
    ReplicaOutcome {
        pod_name: name,
        steps,
        stored: Some(pod),
        charges,
        scheduling: None,
        rejection: None,
    }
}

/// The RuntimeClass admission plugin's mutation (kubernetes/kubernetes
/// `plugin/pkg/admission/runtimeclass/admission.go`, `Admit`: `prepareObjects`, `setOverhead`,
/// `setScheduling`): a pod naming a RuntimeClass gets its `overhead.podFixed` as
/// `spec.overhead` (refused when the pod already carries a different one), its
/// `scheduling.nodeSelector` merged into the pod's (refused on a conflicting value) and its
/// tolerations added. `classes` is `None` when the snapshot holds no RuntimeClass at all: the
/// step is then not checked (skipped, saying so), never assumed.
///
/// Returns the step's status and detail and the pod's RuntimeClass, or the refusal's text.
fn runtime_class_mutate<'c>(
    pod: &mut Pod,
    classes: Option<&'c [cube_model::objects::RuntimeClass]>,
) -> std::result::Result<
    (
        StepStatus,
        String,
        Option<&'c cube_model::objects::RuntimeClass>,
    ),
    String,
> {
    let Some(name) = pod.spec.runtime_class_name.clone() else {
        return Ok((StepStatus::Skipped, "no runtimeClassName".to_owned(), None));
    };
    let Some(classes) = classes else {
        return Ok((
            StepStatus::Skipped,
            format!(
                "not checked: the snapshot holds no RuntimeClass, so RuntimeClass {name:?}'s existence, overhead (added to the pod's requests for quota and scheduling) and scheduling constraints are unknown"
            ),
            None,
        ));
    };
    let Some(rc) = classes.iter().find(|c| c.metadata.name == name) else {
        return Err(format!("pod rejected: RuntimeClass {name:?} not found"));
    };
    let mut notes = Vec::new();
    if let Some(o) = &rc.overhead {
        if pod.spec.overhead.is_some()
            && !same_list(o.pod_fixed.as_ref(), pod.spec.overhead.as_deref())
        {
            return Err(
                "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
                    .to_owned(),
            );
        }
        pod.spec.overhead = o.pod_fixed.clone().map(Box::new);
        if let Some(pf) = &o.pod_fixed {
            notes.push(format!("overhead {}", crate::quota::pretty_print(pf)));
        }
    }
    if let Some(sch) = &rc.scheduling {
        for (k, v) in sch.node_selector.iter() {
            match pod.spec.node_selector.get(k) {
                Some(pv) if pv != v => {
                    return Err(format!(
                        "conflict: runtimeClass.scheduling.nodeSelector[{k}] = {v}; pod.spec.nodeSelector[{k}] = {pv}"
                    ));
                }
                Some(_) => {}
                None => {
                    pod.spec.node_selector.insert(k.to_owned(), v.to_owned());
                    notes.push(format!("nodeSelector {k}={v}"));
                }
            }
        }
        for t in &sch.tolerations {
            // (upstream `tolerations.MergeTolerations` also drops a toleration another one
            // covers; only exact duplicates are dropped here: the same pods are tolerated)
            if !pod.spec.tolerations.contains(t) {
                pod.spec.tolerations.push(t.clone());
                notes.push(format!("toleration {}", t.key));
            }
        }
    }
    Ok(if notes.is_empty() {
        (StepStatus::Passed, format!("RuntimeClass {name}"), Some(rc))
    } else {
        (
            StepStatus::Changed,
            format!("RuntimeClass {name}: {}", notes.join(", ")),
            Some(rc),
        )
    })
}

/// The RuntimeClass admission plugin's validation (`validateOverhead`): a pod whose class
/// defines an overhead must carry exactly it; a pod without such a class must carry none.
fn runtime_class_validate(
    pod: &Pod,
    rc: Option<&cube_model::objects::RuntimeClass>,
) -> std::result::Result<(), String> {
    match rc.and_then(|c| c.overhead.as_ref()) {
        Some(o) if !same_list(o.pod_fixed.as_ref(), pod.spec.overhead.as_deref()) => Err(
            "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead".to_owned(),
        ),
        Some(_) => Ok(()),
        // (a class named but not in the snapshot was not checked: nothing to compare with)
        None if pod.spec.overhead.is_some()
            && (rc.is_some() || pod.spec.runtime_class_name.is_none()) =>
        {
            Err(
                "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"
                    .to_owned(),
            )
        }
        None => Ok(()),
    }
}

/// `apiequality.Semantic.DeepEqual` of two optional resource lists: the same names with equal
/// quantities (compared by value).
fn same_list(a: Option<&cube_model::ResourceList>, b: Option<&cube_model::ResourceList>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, q)| b.get(k.as_str()).is_some_and(|r| r == q))
        }
        _ => false,
    }
}

fn single(
    kind: &str,
    name: &str,
    namespace: &str,
    steps: Vec<Step>,
    rejection: Option<Rejection>,
) -> AdmissionOutcome {
    let admitted = u32::from(rejection.is_none());
    AdmissionOutcome {
        kind: kind.to_owned(),
        name: name.to_owned(),
        namespace: namespace.to_owned(),
        requested: 1,
        admitted,
        replicas: vec![ReplicaOutcome {
            pod_name: name.to_owned(),
            steps,
            stored: None,
            charges: Vec::new(),
            scheduling: None,
            rejection: rejection.clone(),
        }],
        quotas_after: Vec::new(),
        scheduling_checked: false,
        daemon_skipped: Vec::new(),
        verdict: match rejection {
            Some(r) => Verdict::Rejected(r),
            None => Verdict::Admitted {
                admitted: 1,
                pending: 0,
            },
        },
    }
}

/// Runs the admission pipeline for `submission` in `namespace` against `snapshot`.
///
/// `namespace` overrides the object's own namespace when non-empty (call
/// [`Submission::check_namespace`] first to refuse a mismatch as kubectl does); with
/// both empty, `default` is used. Quotas use `status.used` when the snapshot's quota carries a
/// status, otherwise usage computed from the snapshot's pods and claims ([`QuotaState`]).
/// Workload replicas are admitted one after another, each charging quota for the next.
pub fn admit(
    submission: &Submission,
    namespace: &str,
    snapshot: &ClusterSnapshot,
    opts: &AdmitOptions<'_>,
) -> AdmissionOutcome {
    let object_ns = submission.namespace();
    let ns = if !namespace.is_empty() {
        namespace
    } else if !object_ns.is_empty() {
        object_ns
    } else {
        "default"
    }
    .to_owned();
    let quotas = || -> Vec<QuotaState> {
        snapshot
            .resource_quotas
            .iter()
            .filter(|q| q.metadata.namespace == ns || q.metadata.namespace.is_empty())
            .map(|q| {
                let mut q = q.clone();
                q.metadata.namespace = ns.clone();
                QuotaState::from_quota(
                    &q,
                    &snapshot.pods,
                    &snapshot.persistent_volume_claims,
                    opts.now,
                )
            })
            .collect()
    };

    // NamespaceLifecycle refuses any namespaced object before validation.
    let phase = namespace_phase(snapshot, &ns);
    let lifecycle = |kind: &str, resource: &str, name: &str| {
        lifecycle_rejection(phase, &ns, resource, name).map(|r| {
            single(
                kind,
                name,
                &ns,
                vec![step(
                    Stage::NamespaceLifecycle,
                    StepStatus::Rejected,
                    r.message.clone(),
                )],
                Some(r),
            )
        })
    };

    match submission {
        Submission::RefusedWorkload(w) => {
            let kind = w.kind.as_str();
            let resource = match w.kind {
                WorkloadKind::Pod => "pods",
                WorkloadKind::Job => "jobs",
                WorkloadKind::CronJob => "cronjobs",
                WorkloadKind::Deployment => "deployments",
                WorkloadKind::ReplicaSet => "replicasets",
                WorkloadKind::ReplicationController => "replicationcontrollers",
                WorkloadKind::StatefulSet => "statefulsets",
                WorkloadKind::DaemonSet => "daemonsets",
            };
            if let Some(out) = lifecycle(kind, resource, &w.name) {
                return out;
            }
            let (rejection, stage) = match &w.refusal {
                crate::workload_validation::WorkloadRefusal::Decode(m) => (
                    Rejection {
                        stage: Stage::ApiDefaulting,
                        code: 400,
                        reason: "BadRequest",
                        message: m.clone(),
                    },
                    Stage::ApiDefaulting,
                ),
                crate::workload_validation::WorkloadRefusal::Invalid(errs) => {
                    let m = invalid_message(
                        crate::workload_validation::qualified_kind(w.kind),
                        &w.name,
                        errs,
                    )
                    .unwrap_or_default();
                    (invalid(Stage::Validation, m), Stage::Validation)
                }
            };
            let mut out = single(
                kind,
                &w.name,
                &ns,
                vec![step(stage, StepStatus::Rejected, rejection.message.clone())],
                Some(rejection),
            );
            out.requested = 0;
            out
        }
        Submission::ResourceQuota(q) => {
            if let Some(out) = lifecycle("ResourceQuota", "resourcequotas", &q.metadata.name) {
                return out;
            }
            let errs = validate_resource_quota(q);
            let name = &q.metadata.name;
            match invalid_message("ResourceQuota", name, &errs) {
                Some(m) => single(
                    "ResourceQuota",
                    name,
                    &ns,
                    vec![step(Stage::Validation, StepStatus::Rejected, m.clone())],
                    Some(invalid(Stage::Validation, m)),
                ),
                None => single(
                    "ResourceQuota",
                    name,
                    &ns,
                    vec![step(Stage::Validation, StepStatus::Passed, "")],
                    None,
                ),
            }
        }
        Submission::LimitRange(l) => {
            if let Some(out) = lifecycle("LimitRange", "limitranges", &l.metadata.name) {
                return out;
            }
            let mut l = l.clone();
            default_limit_range(&mut l);
            let name = l.metadata.name.clone();
            let mut steps = vec![step(
                Stage::ApiDefaulting,
                StepStatus::Passed,
                "max fills default, default and min fill defaultRequest",
            )];
            let errs = validate_limit_range(&l);
            match invalid_message("LimitRange", &name, &errs) {
                Some(m) => {
                    steps.push(step(Stage::Validation, StepStatus::Rejected, m.clone()));
                    single(
                        "LimitRange",
                        &name,
                        &ns,
                        steps,
                        Some(invalid(Stage::Validation, m)),
                    )
                }
                None => {
                    steps.push(step(Stage::Validation, StepStatus::Passed, ""));
                    single("LimitRange", &name, &ns, steps, None)
                }
            }
        }
        Submission::PriorityClass(pc) => {
            let name = &pc.metadata.name;
            let errs = validate_priority_class(pc);
            if let Some(m) = crate::limitrange::aggregate(&errs) {
                let m = format!("PriorityClass.scheduling.k8s.io \"{name}\" is invalid: {m}");
                return single(
                    "PriorityClass",
                    name,
                    "",
                    vec![step(Stage::Validation, StepStatus::Rejected, m.clone())],
                    Some(invalid(Stage::Validation, m)),
                );
            }
            let mut steps = vec![step(Stage::Validation, StepStatus::Passed, "")];
            match check_single_default(pc, &snapshot.priority_classes) {
                Err(e) => {
                    steps.push(step(Stage::Priority, StepStatus::Rejected, e.clone()));
                    single(
                        "PriorityClass",
                        name,
                        "",
                        steps,
                        Some(forbidden(
                            Stage::Priority,
                            "priorityclasses.scheduling.k8s.io",
                            name,
                            &e,
                        )),
                    )
                }
                Ok(()) => {
                    steps.push(step(Stage::Priority, StepStatus::Passed, ""));
                    single("PriorityClass", name, "", steps, None)
                }
            }
        }
        Submission::PersistentVolumeClaim(c) => {
            if let Some(out) = lifecycle(
                "PersistentVolumeClaim",
                "persistentvolumeclaims",
                &c.metadata.name,
            ) {
                return out;
            }
            let mut c = c.clone();
            c.metadata.namespace = ns.clone();
            let name = c.metadata.name.clone();
            let mut steps = Vec::new();
            // SetDefaults_ResourceList on the claim's requests and limits
            round_resource_list(&mut c.spec.resources.requests);
            // DefaultStorageClass admission (mutating) sets the default class on a claim
            // without `storageClassName`.
            if c.spec.storage_class_name.is_none()
                && let Some(sc) = snapshot.storage_classes.iter().find(|s| s.is_default())
            {
                c.spec.storage_class_name = Some(sc.metadata.name.clone());
                steps.push(step(
                    Stage::ApiDefaulting,
                    StepStatus::Changed,
                    format!("storageClassName {}", sc.metadata.name),
                ));
            }
            let lrs = stored_limit_ranges(snapshot, &ns);
            for lr in &lrs {
                if let Err(e) = validate_pvc(lr, &c) {
                    steps.push(step(
                        Stage::LimitRangerValidation,
                        StepStatus::Rejected,
                        e.clone(),
                    ));
                    let r = forbidden(
                        Stage::LimitRangerValidation,
                        "persistentvolumeclaims",
                        &name,
                        &e,
                    );
                    return single("PersistentVolumeClaim", &name, &ns, steps, Some(r));
                }
            }
            steps.push(step(
                Stage::LimitRangerValidation,
                if lrs.is_empty() {
                    StepStatus::Skipped
                } else {
                    StepStatus::Passed
                },
                "",
            ));
            let mut qs = quotas();
            match check_request(
                QuotaSubject::PersistentVolumeClaim(&c),
                &mut qs,
                &opts.quota_config,
                opts.now,
            ) {
                Ok(ch) => {
                    steps.push(step(
                        Stage::ResourceQuota,
                        StepStatus::Passed,
                        format!("{} quota(s) charged", ch.len()),
                    ));
                    let mut out = single("PersistentVolumeClaim", &name, &ns, steps, None);
                    out.replicas[0].charges = ch;
                    out.quotas_after = qs;
                    out
                }
                Err(e) => {
                    steps.push(step(
                        Stage::ResourceQuota,
                        StepStatus::Rejected,
                        e.message.clone(),
                    ));
                    let r = forbidden(
                        Stage::ResourceQuota,
                        "persistentvolumeclaims",
                        &name,
                        &e.message,
                    );
                    single("PersistentVolumeClaim", &name, &ns, steps, Some(r))
                }
            }
        }
        Submission::Workload(w) => {
            let mut state = NamespaceAdmission::new(snapshot, &ns, &opts.quota_config, opts.now);
            let hash = if w.kind == WorkloadKind::Deployment {
                template_hash(&w.template)
            } else {
                String::new()
            };
            // A DaemonSet: one pod per eligible node, pinned to it by node affinity.
            let (daemon_run, daemon_skipped) = if w.kind == WorkloadKind::DaemonSet {
                daemon_nodes(&w.template.spec, &snapshot.nodes)
            } else {
                (Vec::new(), Vec::new())
            };
            let requested = match w.kind {
                WorkloadKind::DaemonSet => u32::try_from(daemon_run.len()).unwrap_or(u32::MAX),
                _ => w.replicas.unwrap_or(1),
            };
            let tried = opts.max_replicas.map_or(requested, |m| requested.min(m));
            let mut replicas = Vec::new();
            let mut session = opts.scheduler.map(|s| s.session(snapshot));
            let mut admitted = 0u32;
            let mut pending = 0u32;
            let mut first_rejection = None;
            for i in 0..tried {
                let mut pod = replica_pod_hashed(w, &ns, i, &hash);
                if let Some(node) = daemon_run.get(i as usize) {
                    add_daemon_pod_tolerations(&mut pod.spec);
                    pin_daemon_pod(&mut pod.spec, node);
                }
                let mut out = state.admit_pod_detailed(pod);
                if let Some(r) = &out.rejection {
                    if first_rejection.is_none() {
                        first_rejection = Some(r.clone());
                    }
                    replicas.push(out);
                    if opts.continue_after_rejection {
                        continue;
                    }
                    break;
                }
                admitted += 1;
                if let (Some(s), Some(stored)) = (session.as_mut(), &out.stored) {
                    let so = s.schedule(stored);
                    out.steps.push(step(
                        Stage::Scheduling,
                        if so.schedulable {
                            StepStatus::Passed
                        } else {
                            StepStatus::Rejected
                        },
                        if so.schedulable {
                            so.node
                                .clone()
                                .map(|n| format!("node {n}"))
                                .unwrap_or_default()
                        } else {
                            so.message.clone()
                        },
                    ));
                    if !so.schedulable {
                        pending += 1;
                    }
                    out.scheduling = Some(so);
                }
                replicas.push(out);
            }
            let verdict = match first_rejection {
                None => Verdict::Admitted { admitted, pending },
                Some(r) if admitted > 0 => Verdict::Partial {
                    admitted,
                    requested,
                    rejection: r,
                },
                Some(r) => Verdict::Rejected(r),
            };
            let scheduling_checked =
                opts.scheduler.is_some() && replicas.iter().any(|r| r.scheduling.is_some());
            AdmissionOutcome {
                kind: w.kind.as_str().to_owned(),
                name: w.name.clone(),
                namespace: ns,
                requested,
                admitted,
                replicas,
                quotas_after: state.into_quotas(),
                verdict,
                scheduling_checked,
                daemon_skipped,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: without a scheduler the outcome read as "schedulable" (`pending: 0`).
    #[test]
    fn admit_without_scheduler_says_scheduling_was_not_checked() {
        let pod = "kind: Pod\nmetadata: {name: p, namespace: a}\nspec:\n  containers: [{name: c, image: x}]\n";
        let s = Submission::parse(pod).expect("pod");
        let out = admit(
            &s,
            "",
            &ClusterSnapshot::default(),
            &AdmitOptions::default(),
        );
        assert!(matches!(
            out.verdict,
            Verdict::Admitted {
                admitted: 1,
                pending: 0
            }
        ));
        assert!(!out.scheduling_checked);
        assert_eq!(out.schedulable_now(), None);
        let sched = crate::preemption::FitScheduler::default();
        let opts = AdmitOptions {
            scheduler: Some(&sched),
            ..AdmitOptions::default()
        };
        let out = admit(&s, "", &ClusterSnapshot::default(), &opts);
        assert!(out.scheduling_checked);
        assert_eq!(
            out.schedulable_now(),
            Some(false),
            "no node in an empty cluster"
        );
    }

    /// Users can get the replica pods of a parsed workload without building them by hand.
    #[test]
    fn workload_gives_its_replica_pods() {
        let job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train, namespace: ml}\nspec:\n  parallelism: 3\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: main, image: x, resources: {requests: {cpu: 500m}}}]\n";
        let Submission::Workload(w) = Submission::parse(job).expect("job") else {
            panic!("not a workload")
        };
        let pods = w.replica_pods("");
        assert_eq!(pods.len(), 3);
        for p in &pods {
            assert_eq!(p.metadata.namespace, "ml");
            assert!(p.metadata.name.starts_with("train-"), "{}", p.metadata.name);
            assert_eq!(p.spec.containers[0].name, "main");
        }
        assert_eq!(w.template_pod("other").metadata.namespace, "other");
        assert_eq!(w.template_pod("").metadata.name, pods[0].metadata.name);
    }

    /// Regression: an empty file gave `unsupported workload kind ""`.
    #[test]
    fn empty_document_holds_no_object() {
        for text in ["", "# only a comment\n", "null"] {
            let e = Submission::parse(text).expect_err("empty");
            assert!(matches!(e, Error::NoObject), "{text:?}: {e:?}");
            assert_eq!(e.to_string(), "the file holds no object");
        }
        let e = Submission::parse("kind: Service\nmetadata: {name: s}\n").expect_err("kind");
        let text = e.to_string();
        for k in [
            "Pod",
            "Job",
            "CronJob",
            "Deployment",
            "ReplicaSet",
            "ReplicationController",
            "StatefulSet",
            "DaemonSet",
            "PersistentVolumeClaim",
            "ResourceQuota",
            "LimitRange",
            "PriorityClass",
        ] {
            assert!(text.contains(k), "{k} missing from {text}");
        }
    }

    /// Regression: `--namespace b` silently overrode an object in namespace `a`.
    #[test]
    fn namespace_mismatch_is_refused_like_kubectl() {
        let pod = "kind: Pod\nmetadata: {name: p, namespace: a}\nspec:\n  containers: [{name: c, image: x}]\n";
        let s = Submission::parse(pod).expect("pod");
        assert_eq!(s.namespace(), "a");
        let e = s.check_namespace("b").expect_err("mismatch");
        assert!(
            e.to_string().starts_with(
                "the namespace from the provided object \"a\" does not match the namespace \"b\""
            ),
            "{e}"
        );
        assert!(s.check_namespace("a").is_ok());
        assert!(s.check_namespace("").is_ok());
    }

    #[test]
    fn parses_job_and_deployment() {
        let job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: train, namespace: ml}\nspec:\n  parallelism: 4\n  completions: 3\n  template:\n    spec:\n      restartPolicy: OnFailure\n      containers: [{name: main, image: x}]\n";
        let Submission::Workload(w) = Submission::parse(job).expect("job") else {
            panic!("not a workload")
        };
        assert_eq!(
            (w.kind, w.replicas, w.namespace.as_str()),
            (WorkloadKind::Job, Some(3), "ml")
        );
        let dep = r#"{"kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c"}]}}}}"#;
        let Submission::Workload(w) = Submission::parse(dep).expect("deployment") else {
            panic!("not a workload")
        };
        assert_eq!((w.kind, w.replicas), (WorkloadKind::Deployment, Some(1)));
    }

    #[test]
    fn parse_errors_are_typed() {
        assert!(matches!(
            Submission::parse("kind: Service\n"),
            Err(Error::UnsupportedKind { .. })
        ));
        assert!(matches!(
            Submission::parse("{not json"),
            Err(Error::WorkloadParse { format: "json", .. })
        ));
        assert!(matches!(
            Submission::parse("kind: Job\nmetadata: {name: j}\nspec: {}\n"),
            Err(Error::MissingField { .. })
        ));
        assert!(matches!(
            Submission::parse("kind: Pod\nspec:\n  containers: 3\n"),
            Err(Error::WorkloadParse { format: "yaml", .. })
        ));
    }

    #[test]
    fn a_pod_without_name_is_invalid() {
        let sub = Submission::parse("kind: Pod\nspec:\n  containers: [{name: c}]\n").expect("pod");
        let out = admit(
            &sub,
            "ns",
            &ClusterSnapshot::default(),
            &AdmitOptions::default(),
        );
        assert_eq!(
            out.rejection().map(|r| (r.code, r.message.as_str())),
            Some((
                422,
                "Pod \"\" is invalid: metadata.name: Required value: name or generateName is required"
            ))
        );
    }

    #[test]
    fn replica_names_are_distinct() {
        let w = Workload {
            kind: WorkloadKind::Deployment,
            name: "web".into(),
            namespace: String::new(),
            replicas: Some(3),
            template: PodTemplateSpec::default(),
        };
        let names: std::collections::BTreeSet<String> = (0..50)
            .map(|i| replica_pod(&w, "ns", i).metadata.name)
            .collect();
        assert_eq!(names.len(), 50);
        assert!(names.iter().all(|n| n.starts_with("web-")));
    }
}
