//! `pod-crashlooping` and `container-oom-killed`: containers the kubelet keeps restarting
//! (`CrashLoopBackOff`) and containers killed for exceeding their memory limit (`OOMKilled`),
//! read from every shape the readers support: pod JSON/YAML (`state.waiting.reason`,
//! `lastState.terminated.reason` / `exitCode`, `restartCount`), `kubectl describe pod`
//! (`State: Waiting / Reason: CrashLoopBackOff`, `Last State: Terminated / Reason: OOMKilled`),
//! the STATUS column of `kubectl get pods` and the kubelet's `BackOff` events.
//!
//! Upstream texts: `CrashLoopBackOff` is kubecontainer.ErrCrashLoopBackOff
//! (kubernetes pkg/kubelet/container/sync_result.go); the kubelet's event is reason `BackOff`
//! (pkg/kubelet/events/event.go `BackOffStartContainer`) with the message `Back-off restarting
//! failed container` (v1.25 and older) or `Back-off restarting failed container %s in pod %s`
//! (pkg/kubelet/kuberuntime/kuberuntime_manager.go `doBackOff`, v1.26+). `OOMKilled` is the
//! terminated reason the container runtime reports when the kernel's cgroup OOM killer ended
//! the container (containerd pkg/cri `oomKilledReason`, CRI-O `oomKilledReason`, dockershim
//! `OOMKilled`); the node-level events are node-problem-detector's `OOMKilling` (kernel
//! monitor, `Memory cgroup out of memory: Killed process ...` / `Killed process ...`) and the
//! kubelet's `SystemOOM` (pkg/kubelet/oom/oom_watcher_linux.go, `System OOM encountered,
//! victim process: %s, pid: %d`).

use std::collections::BTreeMap;

use cube_model::objects::{ContainerStatus, Pod};

use crate::resources::is_gpu_resource;
use crate::rules::{obj, pod_subject, shell_word};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    PodCrashLooping,
    "pod-crashlooping",
    Scheduling,
    Warning,
    "A container of a pod keeps failing and the kubelet restarts it with a growing back-off (waiting reason CrashLoopBackOff, also Init:CrashLoopBackOff; the kubelet's BackOff event `Back-off restarting failed container [<c> in pod <p>]`), as read from pod JSON/YAML, `kubectl describe pod`, the STATUS column of `kubectl get pods` (also `Error` with RESTARTS above zero: the loop between back-offs) or events. Evidence: the container, its restart count and the last termination's reason and exit code. A system pod is judged by its role (`rules::pod_roles`: NFD, GPU feature discovery, the GPU Operator controller, MIG manager, HAMi and Volcano schedulers, CNI agents, cluster DNS, kube-proxy and control-plane pods are errors naming what stops; DCGM exporter and metrics-server warnings naming it; an OOM kill names the role and is judged like any workload's). Otherwise error when the pod holds GPUs (they stay allocated to a pod that does no work) or when every pod of the same workload in the input fails; else warning. A pod that is Running and Ready now stays quiet whatever its restart count. A crash-looping GPU component (device plugin, driver, toolkit, validator) is reported by gpu-not-advertised / workload-unavailable instead. Remedy: `kubectl logs --previous` for the failed run's output.",
    check_crash
);

declare_rule!(
    ContainerOomKilled,
    "container-oom-killed",
    Scheduling,
    Warning,
    "A container was killed by the kernel's OOM killer for exceeding its memory limit (terminated or last-state reason OOMKilled, usually exit code 137; a `kubectl get pods` STATUS OOMKilled), or a node reports OOM kills (node-problem-detector `OOMKilling`, the kubelet's `SystemOOM` events). Evidence: the container, restart count, exit code and its memory limit when the input shows it. Error when the pod holds GPUs or every pod of its workload in the input fails; warning while it fails; info when the container was OOM-killed before but runs and is ready now (warning when it has been restarted 3 times or more: the kills recur). Remedy: raise `resources.limits.memory` above the peak (GPU jobs: host memory for data loaders, pinned buffers, model loading) or lower the use; for node-level OOM, the kubelet's eviction thresholds and reserved memory.",
    check_oom
);

declare_rule!(
    PodFailed,
    "pod-failed",
    Scheduling,
    Warning,
    "A pod that ended in failure and is not restarted: phase Failed, or a container terminated with a non-zero exit code (or reason Error, ContainerCannotRun, StartError: the runtime's message then says why it could not start) under restartPolicy Never, or a pod the kubelet ended for its activeDeadlineSeconds (reason DeadlineExceeded); a pod the kubelet or the node ended (Evicted, a graceful node shutdown's Terminated, admission refusals) is not, as read from pod JSON/YAML (`state.terminated`), `kubectl describe pod` (`State: Terminated`, `Exit Code:`) and the STATUS column of `kubectl get pods` (`Error`, `Init:Error`, `ContainerCannotRun`, `StartError`, `DeadlineExceeded` with no restarts; with restarts it is pod-crashlooping's loop). The exit code is read as the shell and the runtimes report it: 128+N is signal N (137 SIGKILL: with a memory limit most often the kernel's OOM killer when the runtime did not report OOMKilled, else a liveness probe or the end of the grace period; 143 SIGTERM: stopped from outside; 139 SIGSEGV; 134 SIGABRT), 126 not executable, 127 command not found, 1/2 the application's own error. Kubelet admission refusals and evictions (reason OutOf*, Evicted, ...) are kubelet-admission's; OOMKilled is container-oom-killed's; GPU chain components are gpu-not-advertised's. Warning; info when another pod of the same workload in the input succeeded (a retry worked). Remedy: the failed container's logs and the one check its exit code points to.",
    check_failed
);

/// What one pod shows of failing containers.
#[derive(Default)]
struct PodFailure {
    crash: bool,
    oom: bool,
    /// OOM-killed before but running and ready now.
    oom_past_only: bool,
    /// The first failing container's name.
    container: String,
    evidence: Vec<Evidence>,
    restarts: i32,
    exit_code: Option<i32>,
    /// `container` is one OOM-killed before that is healthy now (a failing one replaces it).
    oom_past_container: bool,
    /// The STATUS a table row shows between back-offs (`Error`, `Init:Error`) when that, not
    /// `CrashLoopBackOff`, tells the loop.
    between_backoffs: Option<String>,
}

/// The failures `p`'s container statuses and table STATUS show.
fn pod_failure(p: &Pod) -> PodFailure {
    let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
    let mut f = PodFailure::default();
    let mut oom_now = false;
    let mut oom_past = false;
    let lists: [(&str, &[ContainerStatus]); 2] = [
        ("initContainerStatuses", &p.status.init_container_statuses),
        ("containerStatuses", &p.status.container_statuses),
    ];
    for (field, list) in lists {
        for c in list {
            let st = c.state.as_ref();
            let waiting = st
                .and_then(|s| s.waiting.as_ref())
                .map_or("", |w| w.reason.as_str());
            let terminated = st.and_then(|s| s.terminated.as_ref());
            let running = st.is_some_and(|s| s.running.is_some());
            let last = c.last_state.as_ref().and_then(|s| s.terminated.as_ref());
            // between two back-offs the container shows its last run as terminated (Error, a
            // non-zero exit) with restarts counted: the same loop, while the pod is not Failed
            // and its restartPolicy restarts it
            let between = terminated
                .is_some_and(|t| t.reason != "OOMKilled" && t.exit_code.is_some_and(|c| c != 0))
                && c.restart_count > 0
                && p.status.phase != "Failed"
                && p.spec.restart_policy != "Never";
            let crash = waiting == "CrashLoopBackOff" || between;
            if between && waiting != "CrashLoopBackOff" && f.between_backoffs.is_none() {
                f.between_backoffs = Some(format!(
                    "{} (exit code {})",
                    terminated.map_or("Terminated", |t| if t.reason.is_empty() {
                        "Terminated"
                    } else {
                        t.reason.as_str()
                    }),
                    terminated.and_then(|t| t.exit_code).unwrap_or_default()
                ));
            }
            let oom_cur = terminated.is_some_and(|t| t.reason == "OOMKilled");
            let oom_last = last.is_some_and(|t| t.reason == "OOMKilled");
            if !(crash || oom_cur || oom_last) {
                continue;
            }
            // healthy now: running and ready (init containers: finished)
            let healthy_now = (running && c.ready)
                || (field == "initContainerStatuses"
                    && terminated.is_some_and(|t| t.exit_code == Some(0)));
            if healthy_now && !crash && !oom_cur {
                oom_past |= oom_last;
                if f.container.is_empty() {
                    f.oom_past_container = true;
                    f.container = c.name.clone();
                    f.restarts = c.restart_count;
                    f.exit_code = last.and_then(|t| t.exit_code);
                    f.evidence.push(Evidence::field(
                        &o,
                        format!("status.{field}[{}].lastState.terminated.reason", c.name),
                        "OOMKilled",
                    ));
                    f.evidence.push(Evidence::field(
                        &o,
                        format!("status.{field}[{}].restartCount", c.name),
                        c.restart_count.to_string(),
                    ));
                }
                continue;
            }
            f.crash |= crash;
            oom_now |= oom_cur || oom_last;
            if f.container.is_empty() || f.oom_past_container {
                f.oom_past_container = false;
                f.container = c.name.clone();
                f.restarts = c.restart_count;
                f.exit_code = terminated.or(last).and_then(|t| t.exit_code);
            }
            if waiting == "CrashLoopBackOff" {
                f.evidence.push(Evidence::field(
                    &o,
                    format!("status.{field}[{}].state.waiting.reason", c.name),
                    "CrashLoopBackOff",
                ));
            }
            if let Some(t) = terminated {
                f.evidence.push(Evidence::field(
                    &o,
                    format!("status.{field}[{}].state.terminated", c.name),
                    detail_text(&t.reason, t.exit_code),
                ));
            }
            if let Some(t) = last {
                f.evidence.push(Evidence::field(
                    &o,
                    format!("status.{field}[{}].lastState.terminated", c.name),
                    detail_text(&t.reason, t.exit_code),
                ));
            }
            f.evidence.push(Evidence::field(
                &o,
                format!("status.{field}[{}].restartCount", c.name),
                c.restart_count.to_string(),
            ));
        }
    }
    // the STATUS column of `kubectl get pods` (printers.go printPod: the waiting or
    // terminated reason of the last failing container, `Init:` for an init container)
    let table = p
        .status
        .reason
        .strip_prefix("Init:")
        .unwrap_or(&p.status.reason);
    match table {
        "CrashLoopBackOff" if !f.crash => {
            f.crash = true;
            f.evidence
                .push(Evidence::field(&o, "STATUS", p.status.reason.clone()));
            // a watch (`kubectl get pods -w`) that showed `OOMKilled` before the back-off: the
            // container that crash-loops is killed for memory
            let earlier = p
                .metadata
                .annotations
                .get(cube_model::describe::EARLIER_STATUS_ANNOTATION)
                .unwrap_or("");
            if !oom_now && earlier.split(", ").any(|s| s == "OOMKilled") {
                oom_now = true;
                f.evidence
                    .push(Evidence::field(&o, "earlier STATUS", earlier.to_owned()));
            }
        }
        // a terminated reason with restarts (`Error` with RESTARTS 37): the kubelet restarts
        // the container between back-offs, the same loop (cube_model::describe::
        // RESTARTS_ANNOTATION)
        "Error" | "ContainerCannotRun" | "StartError"
            if !f.crash
                && p.metadata
                    .annotations
                    .contains_key(cube_model::describe::RESTARTS_ANNOTATION) =>
        {
            f.crash = true;
            f.between_backoffs = Some(p.status.reason.clone());
            f.evidence
                .push(Evidence::field(&o, "STATUS", p.status.reason.clone()));
        }
        "OOMKilled" if !oom_now => {
            oom_now = true;
            f.evidence
                .push(Evidence::field(&o, "STATUS", p.status.reason.clone()));
        }
        _ => {}
    }
    // the RESTARTS column of a table row
    if f.restarts == 0 && (f.crash || oom_now) {
        f.restarts = p
            .metadata
            .annotations
            .get(cube_model::describe::RESTARTS_ANNOTATION)
            .and_then(|r| r.parse().ok())
            .unwrap_or(0);
    }
    f.oom = oom_now;
    f.oom_past_only = oom_past && !oom_now && !f.crash;
    f
}

fn detail_text(reason: &str, exit: Option<i32>) -> String {
    match exit {
        Some(c) => format!(
            "{} (exit code {c})",
            if reason.is_empty() { "?" } else { reason }
        ),
        None => reason.to_owned(),
    }
}

/// Whether an event (reason, message) says the kubelet restarts a container with back-off,
/// and the container it names: `BackOff` `Back-off restarting failed container [<c> in pod
/// <p>]`, or the sync error the kubelet records in the waiting state's message and `Failed`
/// events, `back-off 5m0s restarting failed container=<c> pod=<p>` (kuberuntime_manager.go
/// `doBackOff`). `Back-off pulling image` (an image pull back-off) is no crash.
fn backoff_container(reason: &str, message: &str) -> Option<String> {
    if !matches!(reason, "BackOff" | "Failed" | "") {
        return None;
    }
    let (_, rest) = message.split_once("restarting failed container")?;
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    Some(
        rest.split_whitespace()
            .next()
            .filter(|w| *w != "in")
            .unwrap_or("")
            .trim_matches(['"', '\''])
            .to_owned(),
    )
}

/// The workload a pod belongs to: its controller owner, else its name without the
/// generated suffix (`train-0` -> `train`, `serve-7c9d8-abcde` -> `serve-7c9d8`).
fn workload_key(p: &Pod) -> String {
    if let Some(o) = p.metadata.owner_references.first() {
        return format!("{}/{}", o.kind, o.name);
    }
    match p.metadata.name.rsplit_once('-') {
        Some((base, _)) if !base.is_empty() => base.to_owned(),
        _ => p.metadata.name.clone(),
    }
}

/// Whether pod `i` requests GPUs.
fn gpu_pod(ctx: &Context<'_>, i: usize) -> Option<String> {
    ctx.pod_requests(i)
        .iter()
        .find(|(k, q)| is_gpu_resource(k.as_str()) && !q.is_zero())
        .map(|(k, q)| format!("{q} {k}"))
}

/// The memory limits of `p`'s containers (`main=4Gi`).
fn memory_limits(p: &Pod, container: &str) -> Option<String> {
    p.spec
        .containers
        .iter()
        .chain(p.spec.init_containers.iter())
        .filter(|c| container.is_empty() || c.name == container)
        .find_map(|c| c.resources.limits.get("memory").map(|q| q.to_string()))
}

struct Failing<'a> {
    pod: Option<(usize, &'a Pod)>,
    ns: String,
    name: String,
    f: PodFailure,
}

fn collect<'a>(ctx: &Context<'a>) -> Vec<Failing<'a>> {
    let snap = ctx.snapshot();
    let mut out: Vec<Failing<'a>> = Vec::new();
    let mut index: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (i, p) in snap.pods.iter().enumerate() {
        // GPU chain components are reported by gpu-not-advertised / workload-unavailable
        if crate::gpu::chain_component(p) {
            continue;
        }
        let f = pod_failure(p);
        if !(f.crash || f.oom || f.oom_past_only) {
            continue;
        }
        index.insert(
            (p.metadata.namespace.clone(), p.metadata.name.clone()),
            out.len(),
        );
        out.push(Failing {
            pod: Some((i, p)),
            ns: p.metadata.namespace.clone(),
            name: p.metadata.name.clone(),
            f,
        });
    }
    let mut by_name: Option<std::collections::HashMap<&str, Vec<usize>>> = None;
    for e in &snap.events {
        if e.involved_object.kind != "Pod" && !e.involved_object.kind.is_empty() {
            continue;
        }
        let Some(container) = backoff_container(&e.reason, &e.message) else {
            continue;
        };
        let ns = e.involved_object.namespace.clone();
        let name = e.involved_object.name.clone();
        if name.is_empty() {
            continue;
        }
        let key = (ns.clone(), name.clone());
        let at = match index.get(&key) {
            Some(&at) => at,
            None => {
                let by_name = by_name.get_or_insert_with(|| {
                    let mut m: std::collections::HashMap<&str, Vec<usize>> =
                        std::collections::HashMap::new();
                    for (j, q) in snap.pods.iter().enumerate() {
                        m.entry(q.metadata.name.as_str()).or_default().push(j);
                    }
                    m
                });
                let pod = by_name
                    .get(name.as_str())
                    .into_iter()
                    .flatten()
                    .map(|&j| (j, &snap.pods[j]))
                    .find(|(_, p)| ns.is_empty() || p.metadata.namespace == ns);
                if let Some((_, p)) = pod {
                    // the pod is in the input: Running and Ready now means the event is old
                    if crate::gpu::pod_ready(p) == Some(true) || crate::gpu::chain_component(p) {
                        continue;
                    }
                }
                index.insert(key, out.len());
                out.push(Failing {
                    pod,
                    ns: ns.clone(),
                    name: name.clone(),
                    f: PodFailure::default(),
                });
                out.len() - 1
            }
        };
        let fl = &mut out[at];
        if fl.f.oom_past_only {
            continue;
        }
        if fl.f.container.is_empty() {
            fl.f.container = container;
        }
        if !fl.f.crash {
            fl.f.crash = true;
        }
        if fl
            .f
            .evidence
            .iter()
            .filter(|e| matches!(e, Evidence::Field { path, .. } if path.starts_with("event")))
            .count()
            < 1
        {
            fl.f.evidence.push(Evidence::field(
                obj("Pod", &ns, &name),
                "event BackOff",
                crate::finding::redact(&e.message),
            ));
        }
    }
    out
}

/// Per (namespace, workload key): how many pods of the input it has and how many of them fail.
/// Built once per check (linear in pods), not once per failing pod (30,000 crash-looping pods
/// of one table made the per-pod sibling scan cubic).
type Tally = std::collections::HashMap<(String, String), (usize, usize)>;

fn tally(ctx: &Context<'_>, all: &[Failing<'_>]) -> Tally {
    let failing: std::collections::HashSet<usize> = all
        .iter()
        .filter(|y| !y.f.oom_past_only)
        .filter_map(|y| y.pod.map(|(i, _)| i))
        .collect();
    let mut t = Tally::new();
    for (i, p) in ctx.snapshot().pods.iter().enumerate() {
        let e = t
            .entry((p.metadata.namespace.clone(), workload_key(p)))
            .or_default();
        e.0 += 1;
        if failing.contains(&i) {
            e.1 += 1;
        }
    }
    t
}

fn severity_and_why(ctx: &Context<'_>, tally: &Tally, x: &Failing<'_>) -> (Severity, String) {
    severity_with_role(ctx, tally, x, true)
}

/// [`severity_and_why`]; `role_severity` false names the role without raising the severity
/// (an OOM kill: the remedy is the container's memory limit, judged like any workload's).
fn severity_with_role(
    ctx: &Context<'_>,
    tally: &Tally,
    x: &Failing<'_>,
    role_severity: bool,
) -> (Severity, String) {
    // a system pod: its role says what stops and how severe that is (K2); a role that is only
    // a warning does not hide the reasons below
    let role = x
        .pod
        .and_then(|(_, p)| crate::rules::pod_roles::system_role(p));
    if let Some(r) = role {
        let why = format!("; it is {}: while it does not run, {}", r.what, r.breaks);
        let (sev, more) = severity_by_workload(ctx, tally, x);
        let sev = if role_severity {
            r.severity.max(sev)
        } else {
            sev
        };
        return (sev, format!("{why}{more}"));
    }
    severity_by_workload(ctx, tally, x)
}

/// [`severity_and_why`] from the pod's GPUs and its workload's other pods.
fn severity_by_workload(ctx: &Context<'_>, tally: &Tally, x: &Failing<'_>) -> (Severity, String) {
    if let Some((i, _)) = x.pod
        && let Some(g) = gpu_pod(ctx, i)
    {
        return (
            Severity::Error,
            format!("; it holds {g}, which stay allocated to it while it does no work"),
        );
    }
    if let Some((_, p)) = x.pod {
        let key = workload_key(p);
        let (total, failing) = tally
            .get(&(p.metadata.namespace.clone(), key.clone()))
            .copied()
            .unwrap_or_default();
        if total >= 2 && failing == total {
            return (
                Severity::Error,
                format!(
                    "; every pod of its workload {key} in the input fails ({failing} of {total})"
                ),
            );
        }
    }
    (Severity::Warning, String::new())
}

fn check_crash(ctx: &Context<'_>) -> Vec<Finding> {
    let all = collect(ctx);
    let tally = tally(ctx, &all);
    let mut out = from_objects(ctx, &all, &tally);
    // the kubelet's own log (`Error syncing pod ... CrashLoopBackOff: "back-off 5m0s restarting
    // failed container=<c> pod=<name>_<ns>(<uid>)"`): a pod the objects do not show failing
    for mut f in crate::rules::log_catalog::catalog_findings(ctx, PodCrashLooping::ID) {
        let listed = all
            .iter()
            .any(|x| x.ns == f.subject.namespace && x.name == f.subject.name);
        if listed || out.iter().any(|g| g.subject == f.subject) {
            continue;
        }
        let mut probe = Pod::default();
        probe.metadata.name = f.subject.name.clone();
        probe.metadata.namespace = f.subject.namespace.clone();
        if let Some(what) = crate::gpu::chain_consequence(&probe) {
            f.severity = Severity::Error;
            f.message.push_str(&format!("; it is {what}"));
        } else if let Some(r) = crate::rules::pod_roles::system_role(&probe) {
            f.severity = f.severity.max(r.severity);
            f.message.push_str(&format!(
                "; it is {}: while it does not run, {}",
                r.what, r.breaks
            ));
        }
        out.push(f);
    }
    out
}

fn from_objects(ctx: &Context<'_>, all: &[Failing<'_>], tally: &Tally) -> Vec<Finding> {
    all.iter()
        .filter(|x| x.f.crash && !x.f.oom)
        .map(|x| {
            let (sev, why) = severity_and_why(ctx, tally, x);
            let ns_flag = ns_flag(&x.ns);
            let c_flag = if x.f.container.is_empty() {
                String::new()
            } else {
                format!(" -c {}", shell_word(&x.f.container))
            };
            let restarts = if x.f.restarts > 0 {
                format!(", restarted {} times", x.f.restarts)
            } else {
                String::new()
            };
            let exit = match x.f.exit_code {
                Some(137) => ", last exit code 137 (SIGKILL: a liveness probe, the OOM killer or a preStop kill)".to_owned(),
                Some(c) => format!(", last exit code {c}"),
                None => String::new(),
            };
            let container = if x.f.container.is_empty() {
                "a container".to_owned()
            } else {
                format!("container {}", x.f.container)
            };
            let shown = match &x.f.between_backoffs {
                Some(s) => format!("STATUS {s} between the back-offs of CrashLoopBackOff"),
                None => "CrashLoopBackOff".to_owned(),
            };
            let message = format!(
                "pod {} is crash-looping: {container} keeps failing and the kubelet restarts it with a growing back-off ({shown}){restarts}{exit}{why}",
                slash(&x.ns, &x.name)
            );
            Finding::new(PodCrashLooping::ID, sev, subject(x), message)
                .with_evidences(x.f.evidence.iter().cloned())
                .with_remedy(format!(
                    "read the failed run's output: `kubectl logs{ns_flag} {}{c_flag} --previous`; `kubectl describe pod{ns_flag} {}` shows Last State (reason, exit code) and the events; fix the command, configuration or dependency it fails on (exit code 1/2: the application's own error; 137 without OOMKilled: killed by a liveness probe; 139: segfault)",
                    shell_word(&x.name),
                    shell_word(&x.name)
                ))
        })
        .collect()
}

/// Restarts from which a running container whose last run was OOM-killed is a recurring kill
/// (warning), not a past one (info).
const RECURRING_RESTARTS: i32 = 3;

fn check_oom(ctx: &Context<'_>) -> Vec<Finding> {
    let all = collect(ctx);
    let tally = tally(ctx, &all);
    let mut out: Vec<Finding> = all
        .iter()
        .filter(|x| x.f.oom || x.f.oom_past_only)
        .map(|x| {
            let (mut sev, mut why) = severity_with_role(ctx, &tally, x, false);
            if x.f.oom_past_only {
                // one kill long ago is a hint; a container that keeps being restarted and whose
                // last end was an OOM kill is killed again and again (each restart loses its
                // work), whatever its state at the moment of the paste
                if x.f.restarts >= RECURRING_RESTARTS {
                    sev = Severity::Warning;
                    why = format!("; it runs now, but it has been restarted {} times and its last run ended in an OOM kill: the kills recur, each one losing the container's work", x.f.restarts);
                } else {
                    sev = Severity::Info;
                    why = "; it runs and is ready now, but its memory limit is close to what it uses".to_owned();
                }
            }
            let ns_flag = ns_flag(&x.ns);
            let limit = x
                .pod
                .and_then(|(_, p)| memory_limits(p, &x.f.container));
            let mut evidence = x.f.evidence.clone();
            if let Some(l) = &limit {
                evidence.push(Evidence::field(
                    obj("Pod", &x.ns, &x.name),
                    format!("spec.containers[{}].resources.limits.memory", x.f.container),
                    l.clone(),
                ));
            }
            let container = if x.f.container.is_empty() {
                "a container".to_owned()
            } else {
                format!("container {}", x.f.container)
            };
            let restarts = if x.f.restarts > 0 {
                format!(", restarted {} times", x.f.restarts)
            } else {
                String::new()
            };
            let limit_text = match &limit {
                Some(l) => format!(" (memory limit {l})"),
                None => String::new(),
            };
            let crash = if x.f.crash { "; the kubelet restarts it with a growing back-off (CrashLoopBackOff)" } else { "" };
            let message = format!(
                "pod {}: {container} was OOMKilled: the kernel killed it for using more memory than its limit{limit_text}{}{restarts}{crash}{why}",
                slash(&x.ns, &x.name),
                match x.f.exit_code {
                    Some(c) => format!(", exit code {c}"),
                    None => String::new(),
                }
            );
            Finding::new(ContainerOomKilled::ID, sev, subject(x), message)
                .with_evidences(evidence)
                .with_remedy(format!(
                    "raise the container's `resources.limits.memory`{} above its peak use (GPU jobs: host memory for data loaders and their workers, pinned buffers, loading the model before it moves to the GPU; `kubectl top pod{ns_flag} {}` while it runs) or reduce that use (fewer loader workers, smaller batches); `kubectl logs{ns_flag} {} --previous` shows how far it got. When the node itself runs out of memory (SystemOOM / OOMKilling events on the node), reserve memory for the system (kubelet --system-reserved / --kube-reserved) and set --eviction-hard memory.available so the kubelet evicts before the kernel kills",
                    limit.as_ref().map(|l| format!(" (now {l})")).unwrap_or_default(),
                    shell_word(&x.name),
                    shell_word(&x.name)
                ))
        })
        .collect();
    // node-level OOM kills: node-problem-detector's kernel monitor (`OOMKilling`) and the
    // kubelet's OOM watcher (`SystemOOM`), one finding per node
    let mut nodes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for e in &ctx.snapshot().events {
        if !matches!(e.reason.as_str(), "OOMKilling" | "SystemOOM")
            || e.involved_object.name.is_empty()
        {
            continue;
        }
        let n = nodes
            .entry(e.involved_object.name.clone())
            .or_insert((0, String::new()));
        n.0 += 1;
        if n.1.is_empty() {
            n.1 = crate::finding::redact(&e.message);
        }
    }
    for (node, (count, msg)) in nodes {
        out.push(
            Finding::new(
                ContainerOomKilled::ID,
                Severity::Warning,
                Subject::cluster_scoped("Node", &node),
                format!("node {node} reports OOM kills ({count} event(s)): processes were killed by the kernel's OOM killer"),
            )
            .with_evidence(Evidence::field(obj("Node", "", &node), "event OOMKilling/SystemOOM", msg))
            .with_remedy("find the killed containers (`kubectl get pods -A -o wide --field-selector spec.nodeName=<node>` and their Last State OOMKilled) and raise their memory limits or lower their use; for processes outside a pod's limit, reserve memory for the system (kubelet --system-reserved / --kube-reserved) and set --eviction-hard memory.available so the kubelet evicts pods before the kernel kills"),
        );
    }
    out
}

/// Terminated reasons of a container that failed (kubelet, containerd and CRI-O `reason`s;
/// `kubectl get pods` prints them as STATUS, `Init:` for an init container).
const FAILED_REASONS: &[&str] = &[
    "Error",
    "ContainerCannotRun",
    "StartError",
    "DeadlineExceeded",
];

/// What an exit code means, as the shell and container runtimes report it (128+N: killed by
/// signal N). `memory_limit` is the container's memory limit, when the input shows it.
pub(crate) fn exit_code_meaning(code: i32, memory_limit: Option<&str>) -> String {
    match code {
        137 => match memory_limit {
            Some(l) => format!(
                "128+9, SIGKILL: with a memory limit of {l}, most often the kernel's OOM killer (kubelets and runtimes that miss the cgroup's OOM event report reason Error, not OOMKilled); else a failed liveness probe or the end of the grace period after a stop"
            ),
            None => "128+9, SIGKILL: a failed liveness probe, the end of the grace period after a stop, or the kernel's OOM killer when the node ran out of memory".to_owned(),
        },
        143 => "128+15, SIGTERM: stopped from outside (deleted, evicted, preempted, replaced by a rollout, or its activeDeadlineSeconds passed)".to_owned(),
        139 => "128+11, SIGSEGV: the program crashed on a memory access (segmentation fault)".to_owned(),
        134 => "128+6, SIGABRT: the program aborted itself (a failed assertion, an unhandled C++ exception, a CUDA or driver error)".to_owned(),
        136 => "128+8, SIGFPE: an arithmetic error".to_owned(),
        130 => "128+2, SIGINT: interrupted".to_owned(),
        126 => "the command was found but could not be executed (permissions, or a binary for another architecture)".to_owned(),
        127 => "command not found: the image has no such program (check command/args and PATH)".to_owned(),
        128 => "the program exited with an invalid exit argument".to_owned(),
        255 => "exit status 255 (exit(-1)): the program's own fatal error".to_owned(),
        c if c > 128 && c < 160 => format!("128+{}: killed by signal {}", c - 128, c - 128),
        c => format!("exit code {c}: the program's own error (read its output)"),
    }
}

/// The failed, not restarted container of `p` (see [`PodFailed`]): container name, field,
/// terminated reason and exit code, and the evidence.
/// A failed, not restarted container (see [`ended_failure`]).
struct Ended {
    container: String,
    exit: Option<i32>,
    reason: String,
    evidence: Vec<Evidence>,
    /// The runtime's message for the termination, or empty.
    detail: String,
}

fn ended_failure(p: &Pod) -> Option<Ended> {
    let o = obj("Pod", &p.metadata.namespace, &p.metadata.name);
    let phase = p.status.phase.as_str();
    let table = cube_model::describe::from_get_table(&p.metadata);
    // the pod's own reason (JSON): the kubelet or the node ended it (Evicted, a graceful node
    // shutdown's `Terminated`, an admission refusal: other rules), not its program; only
    // DeadlineExceeded (activeDeadlineSeconds, kubelet_pods.go) is this rule's
    let own = p.status.reason.as_str();
    if !table && !own.is_empty() && !FAILED_REASONS.contains(&own) {
        if own != "DeadlineExceeded" {
            return None;
        }
        return Some(Ended {
            container: String::new(),
            exit: None,
            reason: "DeadlineExceeded".to_owned(),
            evidence: vec![Evidence::field(&o, "status.reason", "DeadlineExceeded")],
            detail: String::new(),
        });
    }
    let not_restarted = phase == "Failed" || p.spec.restart_policy == "Never";
    let lists: [(&str, &[ContainerStatus]); 2] = [
        ("initContainerStatuses", &p.status.init_container_statuses),
        ("containerStatuses", &p.status.container_statuses),
    ];
    if not_restarted {
        for (field, list) in lists {
            for c in list {
                let Some(t) = c.state.as_ref().and_then(|s| s.terminated.as_ref()) else {
                    continue;
                };
                let failed = match t.exit_code {
                    Some(code) => code != 0,
                    None => FAILED_REASONS.contains(&t.reason.as_str()),
                };
                if !failed || t.reason == "OOMKilled" {
                    continue;
                }
                let mut ev = vec![Evidence::field(
                    &o,
                    format!("status.{field}[{}].state.terminated", c.name),
                    detail_text(&t.reason, t.exit_code),
                )];
                if !phase.is_empty() {
                    ev.push(Evidence::field(&o, "status.phase", phase.to_owned()));
                }
                if !p.spec.restart_policy.is_empty() {
                    ev.push(Evidence::field(
                        &o,
                        "spec.restartPolicy",
                        p.spec.restart_policy.clone(),
                    ));
                }
                return Some(Ended {
                    container: c.name.clone(),
                    exit: t.exit_code,
                    reason: t.reason.clone(),
                    evidence: ev,
                    detail: t.message.clone(),
                });
            }
        }
    }
    // the pod's own reason (JSON) or the STATUS column (a table row): `Error` with no
    // restarts, `DeadlineExceeded` (the kubelet's activeDeadlineSeconds, kubelet_pods.go)
    let reason = p.status.reason.as_str();
    let base = reason.strip_prefix("Init:").unwrap_or(reason);
    let restarts = p
        .metadata
        .annotations
        .contains_key(cube_model::describe::RESTARTS_ANNOTATION);
    // `Init:Error` with no restarts reads as Pending (the pod has not started)
    if FAILED_REASONS.contains(&base)
        && !restarts
        && (matches!(phase, "Failed" | "")
            || (phase == "Pending" && (reason.starts_with("Init:") || base == "DeadlineExceeded")))
    {
        let field = if table { "STATUS" } else { "status.reason" };
        return Some(Ended {
            container: String::new(),
            exit: None,
            reason: base.to_owned(),
            evidence: vec![Evidence::field(&o, field, reason.to_owned())],
            detail: String::new(),
        });
    }
    None
}

fn check_failed(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    // workloads with a pod that runs (ready) or succeeded: a failed sibling was retried
    let mut fine: std::collections::HashSet<(String, String)> = std::collections::HashSet::new();
    for p in &snap.pods {
        // a retry that worked ended Succeeded (`Completed`); one that still runs has not yet
        if p.status.phase == "Succeeded" || p.status.reason == "Completed" {
            fine.insert((p.metadata.namespace.clone(), workload_key(p)));
        }
    }
    let mut out = Vec::new();
    for p in &snap.pods {
        if crate::gpu::chain_component(p) || p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let f = pod_failure(p);
        if f.crash || f.oom {
            continue;
        }
        let Some(Ended {
            container,
            exit,
            reason,
            mut evidence,
            detail,
        }) = ended_failure(p)
        else {
            continue;
        };
        let (ns, name) = (&p.metadata.namespace, &p.metadata.name);
        let limit = memory_limits(p, &container);
        if exit == Some(137)
            && let Some(l) = &limit
        {
            evidence.push(Evidence::field(
                obj("Pod", ns, name),
                format!("spec.containers[{container}].resources.limits.memory"),
                l.clone(),
            ));
        }
        let retried = fine.contains(&(ns.clone(), workload_key(p)));
        let sev = if retried {
            Severity::Info
        } else {
            Severity::Warning
        };
        let who = if container.is_empty() {
            "a container".to_owned()
        } else {
            format!("container {container}")
        };
        let detail = if detail.is_empty() {
            String::new()
        } else {
            format!(": {}", crate::finding::redact(&detail))
        };
        let how = match (exit, reason.as_str()) {
            // the runtime could not start the program: the exit code (128) is the runtime's
            (_, "ContainerCannotRun" | "StartError") => format!(
                "{who} could not be started ({reason}{detail}): the runtime refused the command, a mount or a device before the program ran"
            ),
            (_, "DeadlineExceeded") => {
                "the kubelet stopped it when its activeDeadlineSeconds passed (DeadlineExceeded): the pod ran longer than its deadline allows".to_owned()
            }
            (Some(c), _) => format!(
                "{who} ended with exit code {c}{} ({})",
                if reason.is_empty() {
                    String::new()
                } else {
                    format!(", reason {reason}")
                },
                exit_code_meaning(c, limit.as_deref())
            ),
            (None, r) => format!("{who} ended with {r}"),
        };
        let later = if retried {
            format!(
                "; another pod of its workload {} succeeded (a retry worked)",
                workload_key(p)
            )
        } else {
            String::new()
        };
        let ns_flag = ns_flag(ns);
        let c_flag = if container.is_empty() {
            String::new()
        } else {
            format!(" -c {}", shell_word(&container))
        };
        let check = match (exit, reason.as_str()) {
            (_, "DeadlineExceeded") => {
                " DeadlineExceeded: raise the pod's (or the Job template's) `activeDeadlineSeconds` or make the work finish sooner."
            }
            (_, "ContainerCannotRun" | "StartError") => {
                " The runtime's message says what it could not do (a missing binary, a mount, a device or the GPU runtime hook)."
            }
            (exit, _) => match exit {
                Some(137) if limit.is_some() => {
                    " An exit code 137 under a memory limit: compare the limit with the peak use and look for OOM kills on its node (`kubectl get events -A --field-selector reason=OOMKilling`, `dmesg` there); raise `resources.limits.memory` when that is it."
                }
                Some(137) => {
                    " An exit code 137: look for a failing liveness probe (`Unhealthy` events) and for OOM kills on its node."
                }
                Some(127 | 126) => {
                    " Exit code 126/127: fix the container's command/args or the image."
                }
                Some(143) => " Exit code 143: the events say who stopped it.",
                _ => "",
            },
        };
        out.push(
            Finding::new(
                PodFailed::ID,
                sev,
                pod_subject(p),
                format!(
                    "pod {} failed and is not restarted: {how}{later}",
                    slash(ns, name)
                ),
            )
            .with_evidences(evidence)
            .with_remedy(format!(
                "`kubectl logs{ns_flag} {}{c_flag}` shows the failed run's output and `kubectl describe pod{ns_flag} {}` its events.{check}",
                shell_word(name),
                shell_word(name)
            )),
        );
    }
    out
}

fn subject(x: &Failing<'_>) -> Subject {
    match x.pod {
        Some((_, p)) => pod_subject(p),
        None => Subject::namespaced("Pod", &x.ns, &x.name),
    }
}

fn slash(ns: &str, name: &str) -> String {
    if ns.is_empty() {
        name.to_owned()
    } else {
        format!("{ns}/{name}")
    }
}

fn ns_flag(ns: &str) -> String {
    if ns.is_empty() {
        String::new()
    } else {
        format!(" -n {}", shell_word(ns))
    }
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_rule;

    const DESCRIBE: &str = "\
Name:         train-0
Namespace:    ml
Node:         gpu-01/10.0.0.5
Status:       Running
Containers:
  main:
    Image:          trainer:1
    Limits:
      memory:          8Gi
      nvidia.com/gpu:  1
    Requests:
      memory:          8Gi
      nvidia.com/gpu:  1
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
    Ready:          False
    Restart Count:  6
";

    #[test]
    fn describe_oom_of_a_gpu_pod_is_an_error_with_limit_and_exit_code() {
        let f = run_rule("container-oom-killed", DESCRIBE);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Error);
        let all = format!("{f:?}");
        assert!(
            all.contains("137") && all.contains("restarted 6 times"),
            "{all}"
        );
        // the OOM finding stands for the crash loop it causes: no second finding
        assert!(run_rule("pod-crashlooping", DESCRIBE).is_empty());
    }

    #[test]
    fn describe_crashloop_with_error_exit_is_a_crash_finding() {
        let text = DESCRIBE.replace("OOMKilled", "Error").replace("137", "1");
        let f = run_rule("pod-crashlooping", &text);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message.contains("last exit code 1"),
            "{}",
            f[0].message
        );
        assert!(run_rule("container-oom-killed", &text).is_empty());
    }

    #[test]
    fn running_ready_pod_with_old_restarts_stays_quiet_or_info() {
        let text = "\
Name:         serve-1
Namespace:    ml
Node:         n-1/10.0.0.3
Status:       Running
Containers:
  main:
    Image:          serve:1
    State:          Running
      Started:      Fri, 15 Feb 2019 13:06:04 +0530
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
    Ready:          True
    Restart Count:  40
";
        assert!(run_rule("pod-crashlooping", text).is_empty());
        assert!(run_rule("container-oom-killed", text).is_empty());
        // killed by the OOM killer on its last run after 40 restarts: the kills recur (warning);
        // once, with one restart: a past kill (info)
        let oom = text.replace("Error", "OOMKilled");
        let f = run_rule("container-oom-killed", &oom);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(
            f[0].message.contains("restarted 40 times"),
            "{}",
            f[0].message
        );
        let once = oom.replace("Restart Count:  40", "Restart Count:  1");
        let f = run_rule("container-oom-killed", &once);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Info);
    }

    #[test]
    fn events_backoff_in_both_wordings_and_not_image_backoff() {
        let events = "\
NAMESPACE   LAST SEEN   TYPE      REASON    OBJECT          MESSAGE
ml          2m          Warning   BackOff   pod/batch-0     Back-off restarting failed container main in pod batch-0_ml(00000000-0000-0000-0000-000000000000)
ml          2m          Warning   BackOff   pod/old-style   Back-off restarting failed container
ml          2m          Warning   Failed    pod/opa-1       Error: back-off 5m0s restarting failed container=kube-mgmt pod=opa-1_ml(00000000-0000-0000-0000-000000000000)
ml          2m          Normal    BackOff   pod/pull-1      Back-off pulling image \"registry.example/x:1\"
";
        let f = run_rule("pod-crashlooping", events);
        let subjects: Vec<String> = f.iter().map(|x| x.subject.display_name()).collect();
        assert_eq!(f.len(), 3, "{subjects:?}");
        assert!(
            f.iter()
                .any(|x| x.remedy.contains("-c kube-mgmt --previous"))
        );
        assert!(subjects.iter().any(|s| s.contains("batch-0")));
        assert!(subjects.iter().any(|s| s.contains("old-style")));
        assert!(f.iter().any(|x| x.remedy.contains("-c main --previous")));
    }

    #[test]
    fn table_statuses_and_every_replica() {
        let table = "\
NAME                     READY   STATUS             RESTARTS         AGE
train-0                  0/1     CrashLoopBackOff   14 (2m ago)      50m
train-1                  0/1     OOMKilled          3 (30s ago)      50m
serve-7c9d8-abcde        1/1     Running            0                3h
";
        let c = run_rule("pod-crashlooping", table);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].severity, Severity::Error, "{}", c[0].message);
        let o = run_rule("container-oom-killed", table);
        assert_eq!(o.len(), 1);
        let healthy = "\
NAME                     READY   STATUS    RESTARTS        AGE
serve-7c9d8-abcde        1/1     Running   12 (3d ago)     30d
";
        assert!(run_rule("pod-crashlooping", healthy).is_empty());
        assert!(run_rule("container-oom-killed", healthy).is_empty());
    }

    /// System pods are judged by their role (K2): GPU feature discovery, the NFD worker, the
    /// GPU Operator controller, the HAMi scheduler, CoreDNS and a CNI agent crash-looping are
    /// errors naming the role; `Error` with restarts is the loop between back-offs (a Job's
    /// `Error` with no restart is a finished pod); the DCGM exporter stays a warning.
    #[test]
    fn system_pods_by_role_and_error_with_restarts() {
        let table = "\
NAMESPACE      NAME                                               READY   STATUS                  RESTARTS      AGE
gpu-operator   gpu-feature-discovery-8kq2x                        0/1     Init:CrashLoopBackOff   37 (2m ago)   3h
gpu-operator   gpu-operator-node-feature-discovery-worker-7bq5r   0/1     Error                   6             3h
gpu-operator   gpu-operator-7bbf8bb6b7-xl5mg                      0/1     CrashLoopBackOff        9             3h
gpu-operator   nvidia-dcgm-exporter-5x2kq                         0/1     CrashLoopBackOff        9             3h
kube-system    hami-scheduler-7b8c9d6f5-x2k8q                     1/2     CrashLoopBackOff        12            1h
kube-system    coredns-5d78c9869d-7xkzq                           0/1     Init:Error              3             3d
kube-flannel   kube-flannel-ds-x7k2p                              0/1     CrashLoopBackOff        40            3d
batch          report-28391040-x2k8q                              0/1     Error                   0             3d
";
        let f = run_rule("pod-crashlooping", table);
        let by = |name: &str| {
            f.iter()
                .find(|f| f.subject.name.starts_with(name))
                .unwrap_or_else(|| panic!("{name}: {f:#?}"))
        };
        for (name, role) in [
            ("gpu-feature-discovery", "GPU feature discovery"),
            (
                "gpu-operator-node-feature-discovery-worker",
                "feature discovery worker",
            ),
            ("hami-scheduler", "HAMi scheduler"),
            ("coredns", "cluster DNS"),
            ("kube-flannel-ds", "CNI"),
        ] {
            assert_eq!(by(name).severity, Severity::Error, "{}", by(name).message);
            assert!(by(name).message.contains(role), "{}", by(name).message);
        }
        assert!(
            by("gpu-operator-node-feature-discovery-worker")
                .message
                .contains("STATUS Error")
        );
        assert!(
            by("gpu-operator-node-feature-discovery-worker")
                .message
                .contains("restarted 6 times")
        );
        assert_eq!(by("nvidia-dcgm-exporter").severity, Severity::Warning);
        // the operator's controller (fresh-user K2: a gpu-operator pod crash-looping is an error)
        assert_eq!(by("gpu-operator-7bbf8bb6b7").severity, Severity::Error);
        assert!(
            by("gpu-operator-7bbf8bb6b7")
                .message
                .contains("GPU Operator controller")
        );
        assert!(
            f.iter().all(|f| !f.subject.name.starts_with("report-")),
            "{f:#?}"
        );
    }

    #[test]
    fn node_oom_events() {
        let events = "\
NAMESPACE   LAST SEEN   TYPE      REASON       OBJECT        MESSAGE
default     5m          Warning   OOMKilling   node/node-01  Memory cgroup out of memory: Killed process 4242 (python) total-vm:1000kB
default     4m          Warning   SystemOOM    node/node-01  System OOM encountered, victim process: python, pid: 4242
";
        let f = run_rule("container-oom-killed", events);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(f[0].message.contains("2 event(s)"));
    }

    /// Hold-out case (kubernetes#19825): exit 137 with reason Error under restartPolicy Never
    /// and a memory limit (a kubelet that missed the OOM event) gave no finding at all.
    #[test]
    fn a_failed_pod_that_is_not_restarted_names_its_exit_code() {
        let pod = |phase: &str, exit: i32, reason: &str| {
            format!(
                r#"{{"kind":"Pod","apiVersion":"v1","metadata":{{"name":"memtest","namespace":"default"}},
                "spec":{{"restartPolicy":"Never","containers":[{{"name":"memtest","image":"x",
                "resources":{{"limits":{{"memory":"128Mi"}}}}}}]}},
                "status":{{"phase":"{phase}","containerStatuses":[{{"name":"memtest","ready":false,"restartCount":0,
                "state":{{"terminated":{{"exitCode":{exit},"reason":"{reason}"}}}}}}]}}}}"#
            )
        };
        let f = run_rule("pod-failed", &pod("Failed", 137, "Error"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].message.contains("exit code 137") && f[0].message.contains("OOM killer"));
        assert!(f[0].message.contains("128Mi"), "{}", f[0].message);
        let f = run_rule("pod-failed", &pod("Failed", 127, "Error"));
        assert!(
            f[0].message.contains("command not found"),
            "{}",
            f[0].message
        );
        // OOMKilled is container-oom-killed's, a clean exit is no failure
        assert!(run_rule("pod-failed", &pod("Failed", 137, "OOMKilled")).is_empty());
        assert!(run_rule("pod-failed", &pod("Succeeded", 0, "Completed")).is_empty());
        // evictions and admission refusals are other rules'
        let evicted = r#"{"kind":"Pod","metadata":{"name":"e","namespace":"n"},"spec":{"nodeName":"node-01","containers":[{"name":"c","image":"x"}]},"status":{"phase":"Failed","reason":"Evicted","message":"The node was low on resource: memory."}}"#;
        assert!(run_rule("pod-failed", evicted).is_empty());
    }

    #[test]
    fn an_error_row_without_restarts_is_a_failed_pod_and_a_retry_that_worked_is_info() {
        let table = "\
NAMESPACE   NAME              READY   STATUS      RESTARTS   AGE
ml          train-abcde       0/1     Error       0          2h
";
        let f = run_rule("pod-failed", table);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        // with restarts it is the crash loop's
        let looping = table.replace("Error       0 ", "Error       7 ");
        assert!(run_rule("pod-failed", &looping).is_empty());
        // a later pod of the same job succeeded
        let retried =
            format!("{table}ml          train-fghij       0/1     Completed   0          1h\n");
        let f = run_rule("pod-failed", &retried);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
    }

    /// Hold-out case (gpu-operator#8): the kubelet's own sync errors for a crash-looping
    /// container (v1.19 klog and v1.20+ structured wordings) name the pod; a GPU driver
    /// container is an error naming what it blocks.
    #[test]
    fn kubelet_sync_errors_name_the_crash_looping_pod() {
        let old = r#"Nov 03 13:31:36 node-1 kubelet[1601]: E1103 13:31:36.822843    1601 pod_workers.go:191] Error syncing pod ac11cbf1 ("nvidia-driver-daemonset-6d97v_gpu-operator-resources(ac11cbf1)"), skipping: failed to "StartContainer" for "nvidia-driver-ctr" with CrashLoopBackOff: "back-off 5m0s restarting failed container=nvidia-driver-ctr pod=nvidia-driver-daemonset-6d97v_gpu-operator-resources(ac11cbf1)""#;
        let new = r#"E0101 10:00:00.000000    1234 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"app\" with CrashLoopBackOff: \"back-off 2m40s restarting failed container=app pod=web-7c9d8-abcde_shop(5e1d2c3b-4a59)\"" pod="shop/web-7c9d8-abcde" podUID="5e1d2c3b-4a59""#;
        let f = crate::rules::testutil::run_log("pod-crashlooping", old);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(
            f[0].subject.display_name(),
            "Pod/gpu-operator-resources/nvidia-driver-daemonset-6d97v"
        );
        assert!(
            f[0].message.contains("GPU driver container"),
            "{}",
            f[0].message
        );
        let f = crate::rules::testutil::run_log("pod-crashlooping", new);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].subject.display_name(), "Pod/shop/web-7c9d8-abcde");
        assert!(f[0].remedy.contains("-c app --previous"), "{}", f[0].remedy);
    }

    /// Red-team round 3 (04-08): pods the kubelet or node ended are not pod-failed's; a
    /// DeadlineExceeded or `Init:Error` row is; a start failure names the runtime's message,
    /// and a retry that still runs is no success.
    #[test]
    fn pod_failed_edges_from_the_red_team() {
        let evicted = r#"{"kind":"Pod","metadata":{"name":"r","namespace":"n"},"spec":{"restartPolicy":"Always","containers":[{"name":"c","image":"x"}]},"status":{"phase":"Failed","reason":"Evicted","containerStatuses":[{"name":"c","state":{"terminated":{"exitCode":137,"reason":"ContainerStatusUnknown"}}}]}}"#;
        assert!(run_rule("pod-failed", evicted).is_empty());
        let shutdown = evicted.replace("Evicted", "Terminated");
        assert!(run_rule("pod-failed", &shutdown).is_empty());
        let rows = "\
NAMESPACE   NAME            READY   STATUS             RESTARTS   AGE
default     long-run-f8d7s  0/1     DeadlineExceeded   0          60m
default     db-init-x7k2p   0/1     Init:Error         0          5m
";
        let f = run_rule("pod-failed", rows);
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(
            f.iter()
                .any(|f| f.message.contains("activeDeadlineSeconds"))
        );
        assert!(
            run_rule("pod-stuck", rows)
                .iter()
                .all(|f| !f.subject.name.starts_with("long-run"))
        );
        let start = r#"{"kind":"Pod","metadata":{"name":"m","namespace":"n"},"spec":{"restartPolicy":"Never","containers":[{"name":"main","image":"x"}]},"status":{"phase":"Failed","containerStatuses":[{"name":"main","state":{"terminated":{"exitCode":128,"reason":"StartError","message":"exec: \"migrate\": executable file not found in $PATH"}}}]}}"#;
        let f = run_rule("pod-failed", start);
        assert!(
            f[0].message.contains("could not be started")
                && f[0].message.contains("executable file not found"),
            "{}",
            f[0].message
        );
        let retry_runs = "\
NAMESPACE   NAME               READY   STATUS    RESTARTS   AGE
ml          train-job-x7k2p    0/1     Error     0          2h
ml          train-job-q9z4m    1/1     Running   0          1h
";
        assert_eq!(
            run_rule("pod-failed", retry_runs)[0].severity,
            Severity::Warning
        );
    }
}
