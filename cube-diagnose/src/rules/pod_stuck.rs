//! `pod-stuck`: a pod that has not started for longer than starting takes, read from every
//! shape the readers support: the STATUS column of `kubectl get pods` with its `AGE`, the
//! container waiting reasons of pod JSON/YAML and `kubectl describe pod`, and the phase and
//! conditions of a Pending pod.
//!
//! Upstream texts (kubernetes):
//! - STATUS is printers.go `printPod` (pkg/printers/internalversion): `Init:<reason>` or
//!   `Init:<done>/<total>` while init containers run, else the first waiting/terminated
//!   container reason, `Terminating` when `deletionTimestamp` is set, else the phase.
//! - Waiting reasons the kubelet sets: `ContainerCreating` and `PodInitializing`
//!   (pkg/kubelet/kubelet_pods.go `convertToAPIContainerStatuses`);
//!   `CreateContainerConfigError`, `PreCreateHookError`, `CreateContainerError`,
//!   `PreStartHookError`, `PostStartHookError` (pkg/kubelet/kuberuntime/kuberuntime_container.go);
//!   `RunContainerError`, `RunInitContainerError`, `VerifyNonRootError`,
//!   `CreatePodSandboxError`, `ConfigPodSandboxError`, `KillPodSandboxError`
//!   (pkg/kubelet/container/sync_result.go); `ImageInspectError` (pkg/kubelet/images/types.go;
//!   the pull reasons of that file are image-pull-failed's, `CrashLoopBackOff` is
//!   pod-crashlooping's).
//! - A pod no scheduler has processed has no `PodScheduled` condition and no scheduling event:
//!   kube-scheduler sets `PodScheduled=False` (reason `Unschedulable`) and records
//!   `FailedScheduling` on every failed attempt, and binds with a `Scheduled` event
//!   (pkg/scheduler/schedule_one.go); a scheduler only takes pods whose `spec.schedulerName`
//!   is its own (`default-scheduler` when unset).
//! - A pod with `deletionTimestamp` set (the deletion time plus the grace period) that is
//!   still there long after it waits for its `metadata.finalizers` or for a kubelet that no
//!   longer reports (pkg/controller/podgc removes pods of deleted nodes only).

use std::collections::HashSet;

use cube_model::describe::{AGE_ANNOTATION, human_duration_secs};
use cube_model::objects::Pod;

use crate::rules::{obj, pod_subject, shell_word};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    PodStuck,
    "pod-stuck",
    Scheduling,
    Warning,
    "A pod that has not started for longer than starting takes: a container waiting reason the kubelet sets when it cannot create or start a container (CreateContainerConfigError: a Secret, ConfigMap or key the pod references does not exist; CreateContainerError, RunContainerError, RunInitContainerError, PreCreateHookError, PreStartHookError, PostStartHookError, VerifyNonRootError, ImageInspectError; CreatePodSandboxError, ConfigPodSandboxError, KillPodSandboxError: the sandbox, CNI or runtime handler), or a pod that stays in ContainerCreating, PodInitializing, Init:x/y or Pending, as read from the STATUS and AGE columns of `kubectl get pods`, container waiting reasons of pod JSON/YAML and `kubectl describe pod`. Error when the pod is older than an hour (the creation/config errors: five minutes), warning from ten minutes (errors: one), info below that; a pod younger than two minutes (errors: one) stays quiet; a pod whose age the input does not show is a warning for the errors and an info otherwise. A Pending pod without a node, without a PodScheduled condition and without scheduling events was never processed by a scheduler: the finding names its spec.schedulerName and whether a pod of that scheduler is in the input. A pod whose deletion is more than ten minutes past is stuck Terminating (finalizers, or a node that does not report). ImagePullBackOff and the other pull reasons are image-pull-failed's, CrashLoopBackOff pod-crashlooping's, a Pending pod the scheduler refused pod-unschedulable's; GPU chain components are gpu-not-advertised's. Remedy: the one command that shows why (`kubectl describe pod` events, `kubectl logs -c` with the init container, the scheduler's pods).",
    check
);

/// Below this age a pod is still starting: quiet.
const YOUNG_SECS: i64 = 120;

/// Below this age a pod whose container the kubelet failed to create is still quiet (the
/// kubelet retries at once; a Secret applied a moment after the pod is found).
const FAILING_YOUNG_SECS: i64 = 60;

/// What kind of "not started" a status is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The kubelet tried and failed (config, create, hook, sandbox errors): never transient
    /// for minutes.
    Failing,
    /// Still in progress (ContainerCreating, PodInitializing, Init:x/y, Pending): slow is
    /// possible (a 10 GB image pull), hours are not.
    Waiting,
}

/// The kubelet's waiting reasons of a container that it could not create or start (see the
/// module doc for the upstream files).
const FAILING_REASONS: &[&str] = &[
    "CreateContainerConfigError",
    "CreateContainerError",
    "RunContainerError",
    "RunInitContainerError",
    "PreCreateHookError",
    "PreStartHookError",
    "PostStartHookError",
    "VerifyNonRootError",
    "ImageInspectError",
    "CreatePodSandboxError",
    "ConfigPodSandboxError",
    "KillPodSandboxError",
];

/// Reasons other rules report (image-pull-failed, pod-crashlooping, container-oom-killed) or
/// that are not "not started" at all.
const OTHER_RULES: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "ErrImageNeverPull",
    "InvalidImageName",
    "RegistryUnavailable",
    "CrashLoopBackOff",
    "OOMKilled",
    "Error",
    // activeDeadlineSeconds passed: the pod ended, pod-failed's
    "DeadlineExceeded",
    "Completed",
    "ContainerStatusUnknown",
];

/// What the cause of one status is and the command that shows it.
fn cause(status: &str, ns_flag: &str, name: &str) -> String {
    let pod = shell_word(name);
    let describe = format!("`kubectl describe pod{ns_flag} {pod}`");
    let base = status.strip_prefix("Init:").unwrap_or(status);
    match base {
        "CreateContainerConfigError" => format!(
            "the kubelet cannot build the container's configuration: a Secret or ConfigMap it references (env, envFrom, a key) does not exist in the namespace, or runAsNonRoot with a non-numeric image user; {describe} names it in the `Failed` event (`secret \"...\" not found`, `couldn't find key ...`); create it or fix the reference"
        ),
        "CreateContainerError" | "PreCreateHookError" => format!(
            "the container runtime refuses to create the container (a name still in use after a runtime restart, a mount or device that cannot be set up, a bad command); {describe} shows the runtime's error in the `Failed` event"
        ),
        "RunContainerError" | "RunInitContainerError" | "PreStartHookError" => format!(
            "the container runtime cannot start the container (an executable not found in the image, a mount, a device such as /dev/nvidia* or the runtime's OCI hook); {describe} shows the runtime's error"
        ),
        "PostStartHookError" => format!(
            "the container's postStart hook fails, so the kubelet kills it; {describe} shows the `FailedPostStartHook` event"
        ),
        "VerifyNonRootError" => format!(
            "runAsNonRoot is set but the image runs as root (or as a user name the kubelet cannot check); set runAsUser to a numeric non-zero user; {describe}"
        ),
        "ImageInspectError" => format!(
            "the container runtime cannot inspect the pulled image (a corrupt image in the node's store); {describe}, then remove the image on the node (`crictl rmi`)"
        ),
        "CreatePodSandboxError" | "ConfigPodSandboxError" | "KillPodSandboxError" => format!(
            "the pod's sandbox cannot be set up (the CNI plugin, a runtimeClassName handler the runtime does not have, the pause image); {describe} shows `FailedCreatePodSandBox` with the CNI's or runtime's error"
        ),
        "ContainerCreating" => format!(
            "its containers are not created yet: a volume that does not mount (`FailedMount`/`FailedAttachVolume`), a sandbox or CNI failure (`FailedCreatePodSandBox`), a long image pull (`Pulling`) or a device the plugin does not allocate (UnexpectedAdmissionError); {describe} events name which"
        ),
        "PodInitializing" => format!(
            "its init containers finished but the main containers are not started yet (an image pull, a mount); {describe} events show what it waits for"
        ),
        "Pending" => format!(
            "it is Pending: not scheduled (the `FailedScheduling` event says why; none at all means no scheduler processed it, see its spec.schedulerName) or scheduled and waiting for its volumes or images; {describe} shows which"
        ),
        _ if status.starts_with("Init:") => format!(
            "an init container has not finished ({status}): it waits for something (a service, a file, a GPU check) or hangs; `kubectl logs{ns_flag} {pod} -c <init container>` shows where it waits and {describe} which init container it is"
        ),
        _ => format!("its containers wait with reason {status}; {describe} shows why"),
    }
}

/// `status` as kubectl prints it for a pod of JSON/YAML or `describe pod` (printPod's order:
/// init containers, then containers, then the phase); `None` when the pod is running,
/// finished, or fails in a way other rules report.
fn status_of(p: &Pod) -> Option<(String, String)> {
    // a `kubectl get pods` row: its STATUS (the reason) or phase
    if !p.status.reason.is_empty() || p.metadata.annotations.contains_key(AGE_ANNOTATION) {
        let s = if p.status.reason.is_empty() {
            p.status.phase.clone()
        } else {
            p.status.reason.clone()
        };
        return Some((s.clone(), format!("STATUS {s}")));
    }
    let inits = &p.status.init_container_statuses;
    let n = inits.len();
    for (i, c) in inits.iter().enumerate() {
        let st = c.state.as_ref();
        if st
            .and_then(|s| s.terminated.as_ref())
            .is_some_and(|t| t.exit_code == Some(0))
        {
            continue;
        }
        if let Some(w) = st.and_then(|s| s.waiting.as_ref())
            && !w.reason.is_empty()
            && w.reason != "PodInitializing"
        {
            return Some((
                format!("Init:{}", w.reason),
                format!("initContainerStatuses[{}].state.waiting.reason", c.name),
            ));
        }
        if st.and_then(|s| s.terminated.as_ref()).is_some() {
            return None;
        }
        return Some((
            format!("Init:{i}/{n}"),
            format!("initContainerStatuses[{}] not finished", c.name),
        ));
    }
    for c in &p.status.container_statuses {
        if let Some(w) = c.state.as_ref().and_then(|s| s.waiting.as_ref())
            && !w.reason.is_empty()
        {
            return Some((
                w.reason.clone(),
                format!("containerStatuses[{}].state.waiting.reason", c.name),
            ));
        }
    }
    // a real pod object shows its containers (a line of a soft-wrapped paste read as a pod
    // does not)
    (p.status.phase == "Pending" && !p.spec.containers.is_empty())
        .then(|| ("Pending".to_owned(), "phase Pending".to_owned()))
}

/// The pod's age in seconds: its `AGE` cell, else the input's newest time minus its
/// creationTimestamp.
fn age_of(p: &Pod, now: Option<i64>) -> Option<i64> {
    if let Some(a) = p.metadata.annotations.get(AGE_ANNOTATION) {
        return human_duration_secs(a);
    }
    let created = p.metadata.creation_timestamp?.as_second();
    let age = now? - created;
    (age >= 0).then_some(age)
}

/// `3h`, `2d`: an age for messages.
fn human(secs: i64) -> String {
    match secs {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s if s < 86_400 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}

fn severity(kind: Kind, age: Option<i64>) -> Option<Severity> {
    let (young, error, warning) = match kind {
        Kind::Failing => (FAILING_YOUNG_SECS, 300, FAILING_YOUNG_SECS),
        Kind::Waiting => (YOUNG_SECS, 3600, 600),
    };
    match age {
        Some(a) if a < young => None,
        Some(a) if a >= error => Some(Severity::Error),
        Some(a) if a >= warning => Some(Severity::Warning),
        Some(_) => Some(Severity::Info),
        None if kind == Kind::Failing => Some(Severity::Warning),
        None => Some(Severity::Info),
    }
}

/// The scheduler's pods of the input for `scheduler` (`default-scheduler`: kube-scheduler).
fn scheduler_pods<'a>(ctx: &Context<'a>, scheduler: &str) -> Vec<&'a Pod> {
    let needle = if scheduler == "default-scheduler" {
        "kube-scheduler"
    } else {
        scheduler
    };
    ctx.snapshot()
        .pods
        .iter()
        .filter(|q| q.metadata.name.contains(needle))
        .collect()
}

#[allow(clippy::too_many_lines)]
fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let now = crate::gpu::reference_time(ctx);
    // pods a scheduler has looked at (its events), and pods with any event
    let mut scheduled_events: HashSet<(&str, &str)> = HashSet::new();
    for e in &snap.events {
        if !(e.involved_object.kind.is_empty() || e.involved_object.kind == "Pod") {
            continue;
        }
        if matches!(
            e.reason.as_str(),
            "FailedScheduling" | "Scheduled" | "Unschedulable" | "Preempted" | "NotTriggerScaleUp"
        ) {
            scheduled_events.insert((
                e.involved_object.namespace.as_str(),
                e.involved_object.name.as_str(),
            ));
        }
    }
    let mut out = Vec::new();
    for p in &snap.pods {
        if crate::gpu::chain_component(p) {
            continue;
        }
        let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
        let ns_flag = if p.metadata.namespace.is_empty() {
            String::new()
        } else {
            format!(" -n {}", shell_word(&p.metadata.namespace))
        };
        let name = &p.metadata.name;
        // stuck Terminating (JSON/YAML: the deletion time is known)
        if let (Some(del), Some(now)) = (p.metadata.deletion_timestamp, now) {
            let late = now - del.as_second();
            if late >= 600 {
                let node_state = deleted_pod_node_state(snap, p);
                let why = "a finalizer its controller does not remove, or a kubelet that has not confirmed the containers stopped (a node that does not report)";
                let mut f = Finding::new(
                    PodStuck::ID,
                    if late >= 3600 { Severity::Error } else { Severity::Warning },
                    pod_subject(p),
                    format!(
                        "pod {} is stuck Terminating: its deletion is {} past (grace period included); {why}{node_state}",
                        o.trim_start_matches("Pod/"),
                        human(late)
                    ),
                )
                .with_evidence(Evidence::field(
                    &o,
                    "metadata.deletionTimestamp",
                    del.to_string(),
                ));
                f = f.with_remedy(format!(
                    "`kubectl get pod{ns_flag} {pod} -o jsonpath='{{.metadata.finalizers}}'` and the node's state; when the node is gone or the finalizer's controller does not run, `kubectl delete pod{ns_flag} {pod} --grace-period=0 --force` (make sure the containers really stopped first: a StatefulSet pod must not run twice)",
                    pod = shell_word(name)
                ));
                out.push(f);
            }
            continue;
        }
        // stuck Terminating, as a `kubectl get pods` row shows it (printPod prints
        // `Terminating` for a pod with a deletionTimestamp; the table says not since when):
        // a pod deleted in a rollout leaves within its grace period (30 s by default), so one
        // still shown is worth a look, never an all-clear
        // (a deletion time without a reference time to measure it against, too)
        if p.status.reason == "Terminating"
            || (p.metadata.deletion_timestamp.is_some() && now.is_none())
        {
            // `kubectl describe pod` says since when (`Terminating (lasts 2d3h)`)
            let lasts = p
                .metadata
                .annotations
                .get(cube_model::describe::TERMINATING_FOR_ANNOTATION);
            let secs = lasts.and_then(cube_model::describe::human_duration_secs);
            let severity = match secs {
                Some(s) if s >= 3600 => Severity::Error,
                Some(s) if s < 600 => Severity::Info,
                _ => Severity::Warning,
            };
            let since = match (lasts, secs, p.metadata.deletion_timestamp) {
                (Some(l), Some(_), _) => format!("for {l} (kubectl describe: `Terminating (lasts {l})`)"),
                (_, _, Some(del)) => format!("since its deletion time {del} (grace period included; the input gives no time to measure how long ago)"),
                _ => "(the input does not say since when; a pod deleted normally leaves within its grace period, 30 s by default)".to_owned(),
            };
            let node_state = deleted_pod_node_state(snap, p);
            out.push(
                Finding::new(
                    PodStuck::ID,
                    severity,
                    pod_subject(p),
                    format!(
                        "pod {} is shown Terminating {since}: it was deleted and its deletion has not finished; one that stays is held by a finalizer its controller does not remove, a volume that does not unmount, or a kubelet that does not report (its node down){node_state}",
                        o.trim_start_matches("Pod/")
                    ),
                )
                .with_evidence(Evidence::field(
                    &o,
                    if lasts.is_some() { "Status" } else { "STATUS" },
                    lasts.map_or_else(|| "Terminating".to_owned(), |l| format!("Terminating (lasts {l})")),
                ))
                .with_remedy(format!(
                    "`kubectl get pod{ns_flag} {pod} -o jsonpath='{{.metadata.deletionTimestamp}} {{.metadata.finalizers}}'` and `kubectl describe pod{ns_flag} {pod}` (its events, its node's state); when the node is gone or the finalizer's controller does not run, `kubectl delete pod{ns_flag} {pod} --grace-period=0 --force` (make sure the containers really stopped first: a StatefulSet pod must not run twice)",
                    pod = shell_word(name)
                )),
            );
            continue;
        }
        if matches!(p.status.phase.as_str(), "Succeeded" | "Failed") {
            continue;
        }
        let Some((status, field)) = status_of(p) else {
            continue;
        };
        let base = status.strip_prefix("Init:").unwrap_or(&status);
        if OTHER_RULES.contains(&base)
            || matches!(
                status.as_str(),
                "Running" | "Terminating" | "NotReady" | "Unknown" | "Succeeded" | "Failed"
            )
        {
            continue;
        }
        // the kubelet's admission refusals and evictions are Failed pods (other rules)
        if p.status.phase == "Failed" {
            continue;
        }
        let kind = if FAILING_REASONS.contains(&base) {
            Kind::Failing
        } else {
            Kind::Waiting
        };
        let age = age_of(p, now);
        let unscheduled = status == "Pending"
            && p.spec.node_name.is_empty()
            && !p.status.conditions.iter().any(|c| c.type_ == "PodScheduled")
            && !scheduled_events.contains(&(p.metadata.namespace.as_str(), name.as_str()))
            // a table row shows neither conditions nor events
            && !p.metadata.annotations.contains_key(AGE_ANNOTATION);
        if status == "Pending"
            && (p
                .status
                .conditions
                .iter()
                .any(|c| c.type_ == "PodScheduled")
                || scheduled_events.contains(&(p.metadata.namespace.as_str(), name.as_str())))
        {
            // the scheduler looked at it: pod-unschedulable's
            continue;
        }
        let Some(mut sev) = severity(kind, age) else {
            continue;
        };
        let age_text = age.map_or_else(
            || "for a time the input does not show".to_owned(),
            |a| format!("for {}", human(a)),
        );
        let mut evidence = vec![Evidence::field(&o, field, status.clone())];
        if let Some(a) = age {
            evidence.push(Evidence::field(&o, "age", human(a)));
        }
        let (message, remedy) = if unscheduled {
            let sched = if p.spec.scheduler_name.is_empty() {
                "default-scheduler"
            } else {
                p.spec.scheduler_name.as_str()
            };
            let pods = scheduler_pods(ctx, sched);
            let seen = if pods.is_empty() {
                format!("no pod of scheduler {sched} is in the input")
            } else {
                let list: Vec<String> = pods
                    .iter()
                    .take(3)
                    .map(|q| {
                        let state = if q.status.reason.is_empty() {
                            q.status.phase.clone()
                        } else {
                            q.status.reason.clone()
                        };
                        format!("{} ({state})", q.metadata.name)
                    })
                    .collect();
                format!(
                    "pods of scheduler {sched} in the input: {}",
                    list.join(", ")
                )
            };
            if sev == Severity::Info && age.is_none() {
                sev = Severity::Warning;
            }
            evidence.push(Evidence::field(&o, "spec.schedulerName", sched.to_owned()));
            (
                format!(
                    "pod {} is Pending {age_text} and no scheduler has processed it: no node, no PodScheduled condition and no scheduling event; it names spec.schedulerName {sched} and only that scheduler takes it ({seen})",
                    o.trim_start_matches("Pod/")
                ),
                format!(
                    "check that scheduler {sched} runs: `kubectl get pods -A | grep -i {needle}` and its logs (Volcano: the volcano-scheduler Deployment and the pod's PodGroup; HAMi: hami-scheduler); a misspelt schedulerName never gets scheduled: fix it in the workload's template",
                    needle = shell_word(if sched == "default-scheduler" {
                        "kube-scheduler"
                    } else {
                        sched
                    })
                ),
            )
        } else if let Some(validator) = status
            .starts_with("Init:")
            .then(|| waits_for_gpu_validations(snap, p))
            .flatten()
        {
            // a GPU Operator operand's init container waits for the validations, which do not
            // pass: the cause is the validator's (one cause, one finding: gpu-not-advertised)
            sev = Severity::Info;
            (
                format!(
                    "pod {} has not started {age_text} ({}): its init container waits for the GPU Operator's validations (/run/nvidia/validations/*-ready), which do not pass: validator pod {validator}; the cause is there (gpu-not-advertised names it)",
                    o.trim_start_matches("Pod/"),
                    status
                ),
                format!(
                    "fix the failing validation first: `kubectl logs{ns_flag} {} --all-containers`; this pod starts by itself once it passes",
                    shell_word(validator.split(' ').next().unwrap_or(""))
                ),
            )
        } else {
            (
                format!(
                    "pod {} has not started {age_text}: {}",
                    o.trim_start_matches("Pod/"),
                    status_phrase(&status)
                ),
                cause(&status, &ns_flag, name),
            )
        };
        out.push(
            Finding::new(PodStuck::ID, sev, pod_subject(p), message)
                .with_evidences(evidence)
                .with_remedy(remedy),
        );
    }
    out
}

/// The GPU Operator operands whose init container (`toolkit-validation`, `driver-validation`,
/// `mig-manager-validation`...) waits for a file the operator's validator writes (NVIDIA/
/// gpu-operator assets/gpu-feature-discovery, state-dcgm-exporter, state-mig-manager,
/// state-device-plugin 0500_daemonset.yaml: `until [ -f /run/nvidia/validations/toolkit-ready
/// ]; do echo waiting for nvidia container stack to be setup; sleep 5; done`):
/// when `p` is one and the input shows a validator pod that is not running, that validator
/// (`name (status)`), else `None`.
fn waits_for_gpu_validations(
    snap: &cube_model::snapshot::ClusterSnapshot,
    p: &Pod,
) -> Option<String> {
    let name = p.metadata.name.as_str();
    let operand = [
        "gpu-feature-discovery",
        "nvidia-dcgm",
        "nvidia-mig-manager",
        "nvidia-device-plugin-daemonset",
        "nvidia-device-plugin-mps-control-daemon",
        "nvidia-cuda-validator",
        "nvidia-device-plugin-validator",
        "nvidia-node-status-exporter",
        "nvidia-sandbox-device-plugin",
    ]
    .iter()
    .any(|o| name.starts_with(o));
    if !operand {
        return None;
    }
    snap.pods
        .iter()
        .filter(|v| v.metadata.name.starts_with("nvidia-operator-validator"))
        .filter(|v| v.metadata.namespace == p.metadata.namespace)
        .find(|v| {
            let ready = v
                .status
                .conditions
                .iter()
                .any(|c| c.type_ == "Ready" && c.status == "True");
            !ready && v.status.phase != "Succeeded"
        })
        .map(|v| {
            let state = if v.status.reason.is_empty() {
                v.status.phase.clone()
            } else {
                v.status.reason.clone()
            };
            format!("{} ({state})", v.metadata.name)
        })
}

/// `; its node N is Ready=<status>` (or not in the input) for a pod whose deletion has not
/// finished: a node that does not report never confirms the containers stopped.
fn deleted_pod_node_state(snap: &cube_model::snapshot::ClusterSnapshot, p: &Pod) -> String {
    let node = &p.spec.node_name;
    if node.is_empty() {
        return String::new();
    }
    match snap.nodes.iter().find(|n| &n.metadata.name == node) {
        None => format!("; its node {node} is not in the input (deleted?)"),
        Some(n) => {
            let ready = n
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == "Ready")
                .map_or("not shown", |c| c.status.as_str());
            format!("; its node {node} is Ready={ready}")
        }
    }
}

fn status_phrase(status: &str) -> String {
    match status {
        "Pending" => "it is Pending".to_owned(),
        s => format!("its status is {s}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_rule;

    #[test]
    fn table_statuses_by_age() {
        let table = "\
NAME                  READY   STATUS                       RESTARTS   AGE
train-0               0/1     CreateContainerConfigError   0          3h
infer-0               0/1     ContainerCreating            0          2d
prep-0                0/1     Init:0/1                     0          5h
worker-0              0/1     Pending                      0          1d
young-0               0/1     ContainerCreating            0          40s
young-1               0/1     CreateContainerConfigError   0          30s
slow-0                0/1     ContainerCreating            0          5m
serve-0               1/1     Running                      0          3d
pull-0                0/1     ImagePullBackOff             0          3h
crash-0               0/1     CrashLoopBackOff             9 (1m ago) 3h
done-0                0/1     Completed                    0          3h
";
        let f = run_rule("pod-stuck", table);
        let by = |n: &str| f.iter().find(|x| x.subject.display_name().contains(n));
        for n in ["train-0", "infer-0", "prep-0", "worker-0"] {
            let x = by(n).unwrap_or_else(|| panic!("{n}: {f:?}"));
            assert_eq!(x.severity, Severity::Error, "{}", x.message);
        }
        assert!(
            by("train-0")
                .unwrap()
                .remedy
                .contains("Secret or ConfigMap")
        );
        assert!(by("prep-0").unwrap().remedy.contains("-c <init container>"));
        assert_eq!(by("slow-0").map(|x| x.severity), Some(Severity::Info));
        for n in [
            "young-0", "young-1", "serve-0", "pull-0", "crash-0", "done-0",
        ] {
            assert!(by(n).is_none(), "{n} should stay quiet: {f:?}");
        }
    }

    #[test]
    fn operands_waiting_for_a_failing_validator_point_to_it() {
        let table = "\
NAMESPACE      NAME                              READY   STATUS                   RESTARTS       AGE
gpu-operator   gpu-feature-discovery-5drhb       0/1     Init:0/1                 0              16h
gpu-operator   nvidia-operator-validator-4vt9w   0/1     Init:RunContainerError   193 (2m ago)   16h
gpu-operator   train-0                           0/1     Init:0/1                 0              16h
";
        let f = run_rule("pod-stuck", table);
        let gfd = f
            .iter()
            .find(|x| x.message.contains("gpu-feature-discovery"))
            .expect("gfd");
        assert_eq!(gfd.severity, Severity::Info);
        assert!(
            gfd.message.contains("nvidia-operator-validator-4vt9w"),
            "{}",
            gfd.message
        );
        // any other pod stuck in Init stays an error of its own
        let other = f
            .iter()
            .find(|x| x.message.contains("train-0"))
            .expect("train");
        assert_eq!(other.severity, Severity::Error);
    }

    #[test]
    fn terminating_rows_and_describe_are_stuck_deletions() {
        let table = "\
NAME       READY   STATUS        RESTARTS   AGE
train-0    0/1     Terminating   0          3d
serve-0    1/1     Running       0          3d
";
        let f = run_rule("pod-stuck", table);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].message.contains("train-0 is shown Terminating"));
        assert!(f[0].remedy.contains("--grace-period=0 --force"));
        // kubectl describe pod says since when: an hour or more is an error, minutes info
        for (lasts, sev) in [
            ("2d3h", Severity::Error),
            ("20m", Severity::Warning),
            ("45s", Severity::Info),
        ] {
            let text = format!(
                "Name:         train-0\nNamespace:    ml\nNode:         gpu-node-1/10.0.0.5\nStatus:       Terminating (lasts {lasts})\nTermination Grace Period:  30s\nContainers:\n  train:\n    Image:  pytorch\n    State:  Running\n"
            );
            let f = run_rule("pod-stuck", &text);
            assert_eq!(f.len(), 1, "{lasts}: {f:?}");
            assert_eq!(f[0].severity, sev, "{lasts}");
            assert!(
                f[0].message.contains(&format!("for {lasts}")),
                "{}",
                f[0].message
            );
        }
        // kubectl before v1.14: `Terminating (expires <deletion time>)`; the `get pod` row of
        // the same pod above it (no namespace shown) is the same pod, one finding
        let text = "kubectl get pod env-0\nNAME    READY   STATUS        RESTARTS   AGE\nenv-0   0/1     Terminating   0          5d\n\nName:         env-0\nNamespace:    default\nNode:         node-1/10.0.0.10\nStatus:       Terminating (expires Fri, 09 Sep 2016 00:34:02 +0100)\nTermination Grace Period:  30s\nContainers:\n  slave:\n    Image:  jenkins\n    State:  Waiting\n      Reason:  ContainerCreating\n";
        let f = run_rule("pod-stuck", text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message.contains("2016-09-08T23:34:02Z"),
            "{}",
            f[0].message
        );
    }
}
