//! `node-not-ready`: a node's Ready condition is not True.

use crate::classify::SignalKind;
use crate::rules::{node_subject, obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    NodeNotReady,
    "node-not-ready",
    Node,
    Error,
    "A node's Ready condition is not True (False: the kubelet reports a problem such as an uninitialized CNI plugin; Unknown: the node controller lost the kubelet's heartbeat, a warning because it may be transient or a stale Node object). Pods bound there do not run. Evidence: reason, message, last heartbeat, taints and the pods still bound. Also fires (warning) when kubeadm's kubelet-check reports that the kubelet is not running, or a kubelet log shows it cannot start as a node (no /var/lib/kubelet/config.yaml before `kubeadm init`/`join` wrote it).",
    check
);

/// Whether a node was read from a `kubectl get nodes` row: kubectl prints `NotReady` for a
/// Ready condition that is False *or* Unknown (`pkg/printers/internalversion/printers.go`,
/// `printNode`), so the row does not say which.
fn from_table(n: &cube_model::objects::Node) -> bool {
    n.metadata
        .annotations
        .contains_key(cube_model::describe::PARTIAL_ANNOTATION)
}

/// A nameless node (a `describe node` excerpt without its `Name:` line, named by the input
/// reader `unnamed node (from <source>)`).
fn unnamed(n: &cube_model::objects::Node) -> bool {
    n.metadata.name.starts_with("unnamed node (from ")
}

/// The load problem of a field dropped from this node's `status` or `status.conditions`
/// (`field dropped, the rest of the object was kept`), as text; `None` when there is none.
fn unreadable_ready(
    snap: &cube_model::ClusterSnapshot,
    n: &cube_model::objects::Node,
) -> Option<String> {
    let me = format!("Node/{}", n.metadata.name);
    snap.problems
        .iter()
        .filter(|p| !p.is_skip() && p.object == me)
        .find(|p| p.field == "status" || p.field.starts_with("status.conditions"))
        .map(|p| format!("{} at {}: {}", p.file, p.field, p.message))
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let nodes = &ctx.snapshot().nodes;
    let reference = reference_time(ctx);
    let not_ready = |n: &&cube_model::objects::Node| {
        n.status
            .conditions
            .iter()
            .any(|c| c.type_ == "Ready" && c.status != "True")
    };
    // a nameless describe excerpt next to `get nodes` rows that are NotReady is the excerpt of
    // one of them: its conditions explain those rows, it is no node of its own
    let table_not_ready = nodes
        .iter()
        .filter(not_ready)
        .filter(|n| from_table(n))
        .count();
    let excerpt = nodes
        .iter()
        .filter(not_ready)
        .find(|n| unnamed(n))
        .filter(|_| table_not_ready > 0);
    for n in nodes {
        // a Ready condition the loader could not read (a wrongly typed field dropped): the
        // node's state is unknown, never healthy (fresh-user report F16)
        let unreadable = unreadable_ready(ctx.snapshot(), n);
        let ready = n.status.conditions.iter().find(|c| c.type_ == "Ready");
        if let Some(why) = unreadable.filter(|_| ready.is_none_or(|c| c.status != "True")) {
            let name = &n.metadata.name;
            out.push(
                Finding::new(
                    NodeNotReady::ID,
                    Severity::Warning,
                    node_subject(n),
                    format!(
                        "node {name}: its Ready state is unknown, the input's Ready condition could not be read ({why}); the node is not counted as healthy"
                    ),
                )
                .with_evidence(Evidence::field(obj("Node", "", name), "status.conditions", why))
                .with_remedy(format!(
                    "dump the node again as the API server stores it (`kubectl get node {name} -o json`) and run again; `kubectl describe node {name}` shows its conditions"
                )),
            );
            continue;
        }
        let Some(c) = ready else {
            continue;
        };
        if c.status == "True" || (excerpt.is_some() && unnamed(n)) {
            continue;
        }
        // a join refused because this NotReady Node exists: node-duplicate-hostname carries
        // the one cause (the machine's own stale registration)
        // (and a kubelet now registering under another name than its certificate's: the
        // old Node stops being updated, cluster-forbidden carries that cause)
        if crate::rules::signals(
            ctx,
            &[
                crate::classify::SignalKind::DuplicateNodeName,
                crate::classify::SignalKind::RbacForbidden,
            ],
        )
        .any(|s| {
            (s.kind == crate::classify::SignalKind::DuplicateNodeName
                || s.detail("node_name_mismatch") == "true")
                && s.detail("node") == n.metadata.name
        }) {
            continue;
        }
        let name = &n.metadata.name;
        let o = obj("Node", "", name);
        let table_row = from_table(n) && c.reason.is_empty() && c.message.is_empty();
        let shown = excerpt
            .filter(|_| table_row)
            .and_then(|e| e.status.conditions.iter().find(|c| c.type_ == "Ready"));
        let status = shown.map_or(c.status.as_str(), |s| s.status.as_str());
        // Ready=Unknown whose last heartbeat is long past: the node is gone or cut off, not a
        // transient blip (fresh-user H24). Not `NodeStatusNeverUpdated` ("Kubelet never posted
        // node status."): no kubelet ever reported, the heartbeat is the controller's own from
        // the Node's creation (a Node object created by hand stays so, a warning)
        let stale = Some(shown.unwrap_or(c))
            .filter(|c| c.reason != "NodeStatusNeverUpdated")
            .and_then(|c| c.last_heartbeat_time)
            .zip(reference)
            .map(|(beat, now)| now - beat.as_second())
            .filter(|age| *age >= STALE_HEARTBEAT_SECS);
        let bound: Vec<String> = ctx
            .pods_on_node(name)
            .iter()
            .map(|&i| ctx.pod(i))
            .filter(|p| !ctx.pod_finished(p))
            .map(|p| p.key())
            .collect();
        // an unreachable node (Ready=Unknown, or kubectl's `Unknown` row: no Ready condition at
        // all) that holds workloads or GPUs: its pods do not run and its GPUs are lost to the
        // pool whatever the time since; an input without a time after the last heartbeat (a
        // describe alone) tells no age, and "since when unknown" is no all-clear (K1)
        let gpus = held_gpus(ctx, n);
        let holds = !bound.is_empty() || !gpus.is_empty();
        // (not `NodeStatusNeverUpdated`: no kubelet ever reported, a Node object made by hand
        // whose pods never ran, see the staleness above)
        let unreachable_held = status == "Unknown"
            && stale.is_none()
            && holds
            && shown.unwrap_or(c).reason != "NodeStatusNeverUpdated";
        let severity =
            if status == "False" || (status == "Unknown" && stale.is_some()) || unreachable_held {
                Severity::Error
            } else {
                Severity::Warning
            };
        let stale_note = stale
            .map(|age| {
                format!(
                    "; its last heartbeat is {} older than the newest time in the input, past the {STALE_HEARTBEAT_SECS} s after which the pods bound there are evicted (the unreachable taint's default tolerationSeconds): the node is down or cut off, not briefly late",
                    human_age(age)
                )
            })
            .unwrap_or_default();
        let message = if let Some(s) = shown {
            format!(
                "node {name} is NotReady in `kubectl get nodes`; the describe excerpt of {} in the same input shows Ready={} (reason {}): {}",
                if table_not_ready > 1 {
                    "one of the NotReady nodes"
                } else {
                    "this node"
                },
                s.status,
                s.reason,
                if s.message.is_empty() {
                    "no message"
                } else {
                    &s.message
                }
            )
        } else if table_row && status == "Unknown" {
            // kubectl prints `Unknown` for a node with no Ready condition at all
            // (kubernetes `pkg/printers/internalversion/printers.go` `printNode`)
            format!(
                "node {name} is Unknown in `kubectl get nodes` (it has no Ready condition: its kubelet never reported, or its status is gone; `kubectl describe node {name}` shows its conditions)"
            )
        } else if table_row {
            format!(
                "node {name} is NotReady in `kubectl get nodes` (its Ready condition is False or Unknown: the table does not say which, `kubectl describe node {name}` does)"
            )
        } else {
            format!(
                "node {name} is not Ready (Ready={}, reason {}): {}",
                c.status,
                c.reason,
                if c.message.is_empty() {
                    "no message"
                } else {
                    &c.message
                }
            )
        };
        let held_note = if unreachable_held {
            let mut what = Vec::new();
            if !gpus.is_empty() {
                what.push(format!("GPUs ({gpus})"));
            }
            if !bound.is_empty() {
                what.push(format!("{} pod(s) bound there", bound.len()));
            }
            let since = if unreachable_marked(n, c) {
                "the node lifecycle controller marked it unreachable"
            } else {
                "its kubelet reports no Ready state"
            };
            let lost = match (bound.is_empty(), gpus.is_empty()) {
                (false, false) => "its pods do not run and its GPUs are lost to the pool",
                (false, true) => "its pods do not run",
                _ => "its GPUs are lost to the pool",
            };
            format!(
                "; {since} and it holds {}: {lost}; the input holds no time after its last heartbeat, so how long it has been so is not known (not a sign it is brief)",
                what.join(" and ")
            )
        } else {
            String::new()
        };
        let message = format!("{message}{stale_note}{held_note}");
        let c = shown.unwrap_or(c);
        let mut f = Finding::new(NodeNotReady::ID, severity, node_subject(n), message)
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].status",
                &c.status,
            ))
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].reason",
                &c.reason,
            ))
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].message",
                &c.message,
            ))
            .with_evidence(Evidence::field(
                &o,
                "status.conditions[Ready].lastHeartbeatTime",
                c.last_heartbeat_time
                    .map(|t| t.to_string())
                    .unwrap_or_else(|| "<absent>".into()),
            ));
        for t in &n.spec.taints {
            f = f.with_evidence(Evidence::field(
                &o,
                "spec.taints",
                format!("{}:{}", t.key, t.effect),
            ));
        }
        if !bound.is_empty() {
            f = f.with_evidence(Evidence::field(
                &o,
                "pods bound (spec.nodeName)",
                bound.join(", "),
            ));
        }
        // the same node's own journal in the input names why it is not Ready (a CNI that is
        // not initialised, a hung runtime, an expired kubelet certificate): this finding
        // carries that cause and remedy, the journal's finding is the evidence behind it
        if let Some((rule, cause, remedy, s)) = journal_cause(ctx, name) {
            f.message = format!(
                "{}; the node's own journal in the input says why: {cause} (line {} of {}, also reported by {rule})",
                f.message, s.line, s.source
            );
            out.push(f.with_evidence(s.evidence()).with_remedy(remedy));
            continue;
        }
        let lower = c.message.to_ascii_lowercase();
        let remedy = if let Some(r) = runtime_remedy(&lower, name) {
            r
        } else if c.message.contains("cni") || c.message.contains("network plugin") {
            format!(
                "install or repair the CNI plugin on {name} (the CNI DaemonSet pod on that node must be Running; on the node /etc/cni/net.d must hold its config and /opt/cni/bin its binaries, the conf_dir and bin_dir of containerd's CRI plugin); if they are there and the node stays NotReady, restart the runtime and then the kubelet on {name} (`sudo systemctl restart containerd && sudo systemctl restart kubelet`: containerd loads the CNI config at start and may not have seen it), then `kubectl describe node {name}`"
            )
        } else if status == "Unknown" {
            format!(
                "check that the kubelet runs on {name} (`systemctl status kubelet; journalctl -u kubelet`) and can reach the API server; delete the Node object if the machine is gone (`kubectl delete node {name}`)"
            )
        } else {
            format!(
                "`kubectl describe node {name}` and `journalctl -u kubelet` on {name}; fix the condition the kubelet reports"
            )
        };
        out.push(f.with_remedy(remedy));
    }
    out.extend(from_events(ctx));
    // the first kubelet-check failure that says how the health endpoint failed, else the first
    let unhealthy: Vec<_> = signals(ctx, &[SignalKind::KubeletUnhealthy]).collect();
    if let Some(s) = unhealthy
        .iter()
        .find(|s| !s.detail("healthz").is_empty())
        .or_else(|| unhealthy.first())
    {
        let how = match s.detail("healthz") {
            _ if s.text.contains("connection refused") => "refused",
            "" if s.text.contains("not healthy after")
                || s.text.contains("deadline exceeded")
                || s.text.contains("Timeout") =>
            {
                "timed out"
            }
            "" => "failed",
            h => h,
        };
        let texts: Vec<&str> = ctx.logs().iter().map(|l| l.text.as_str()).collect();
        let init = texts.iter().any(|t| kubeadm_init_text(t));
        // the failure of the whole kubeadm run is kubeadm-phase-failed's when the input holds
        // its verdict; without it this finding carries it (the kubelet-check lines come only
        // after the initial 40 s, and kubeadm gives up after 4m0s)
        let verdict = texts.iter().any(|t| {
            t.lines().any(|l| {
                crate::rules::kubeadm_phase::phase_error(l).is_some()
                    || l.contains("ould not initialize a Kubernetes cluster")
                    || l.contains("couldn't initialize a Kubernetes cluster")
            })
        });
        // kubeadm went on and finished: the kubelet came up late (its first healthz polls
        // failed), nothing is broken (cmd/kubeadm/app/cmd/init.go initDoneTempl, join.go
        // joinWorkerNodeDoneMsg / joinControPlaneDoneTemp)
        let succeeded = texts.iter().any(|t| {
            t.contains("control-plane has initialized successfully")
                || t.contains("master has initialized successfully")
                || t.contains("This node has joined the cluster")
        });
        let severity = if succeeded {
            Severity::Info
        } else if verdict {
            Severity::Warning
        } else {
            Severity::Error
        };
        let (who, outcome) = if succeeded {
            (
                "the node's kubelet",
                "kubeadm waited for it and then finished successfully, so it came up late: nothing to fix unless it recurs",
            )
        } else if init {
            (
                "the node's kubelet",
                "kubeadm init waits for it to start the control plane's static pods and fails (wait-control-plane)",
            )
        } else {
            ("the joining node's kubelet", "the join cannot complete")
        };
        let mut f = Finding::new(
            NodeNotReady::ID,
            severity,
            signal_subject(s),
            format!("{who} is not running or healthy (kubelet-check: its healthz on :10248 {how}); {outcome}"),
        )
        .with_evidence(s.evidence());
        let where_ = if init {
            "this node"
        } else {
            "the joining node"
        };
        let minor = texts.iter().find_map(|t| kubeadm_minor(t));
        // another message of the input names why the kubelet does not run (swap, a flag, a
        // certificate): that is the cause, not the runtime's cgroup driver
        let other_cause = ctx.signals().iter().any(|s| {
            s.kind != SignalKind::KubeletUnhealthy
                && crate::rules::kubeadm_phase::concludes(s)
                && !s.text.contains("[kubelet-check]")
        });
        match runtime_cgroup_driver(ctx) {
            Some((driver, evidence))
                if driver == "cgroupfs"
                    && !succeeded
                    && !other_cause
                    && minor.is_none_or(|m| m >= 22) =>
            {
                let kubelet = match minor {
                    Some(m) if m >= 22 => format!(
                        "kubeadm v1.{m} configures the kubelet with cgroupDriver systemd when none is set (the default since v1.22)"
                    ),
                    _ => "a kubelet configured for systemd (kubeadm's default since v1.22)"
                        .to_owned(),
                };
                f.message.push_str(&format!(
                    "; the container runtime uses the cgroupfs cgroup driver ({}) while {kubelet}: the kubelet exits at start on the mismatch (`kubelet cgroup driver: \"systemd\" is different from docker cgroup driver: \"cgroupfs\"`)",
                    evidence.1
                ));
                f = f
                    .with_evidence(evidence.0)
                    .with_remedy(format!(
                        "on {where_} switch the runtime to the systemd cgroup driver (Docker: `\"exec-opts\": [\"native.cgroupdriver=systemd\"]` in /etc/docker/daemon.json and `systemctl restart docker`; containerd: `SystemdCgroup = true` under the runc options in /etc/containerd/config.toml and `systemctl restart containerd`), or set `cgroupDriver: cgroupfs` in the KubeletConfiguration; then `kubeadm reset -f` and run kubeadm {} again; `journalctl -xeu kubelet` confirms",
                        if init { "init" } else { "join" }
                    ));
            }
            _ => {
                f = f.with_remedy(format!("read `journalctl -xeu kubelet` on {where_}; a common cause is a cgroup driver mismatch between the kubelet and the container runtime (`docker info | grep -i cgroup`, `SystemdCgroup` in /etc/containerd/config.toml), swap on, or a kubelet flag it refuses"));
            }
        }
        out.push(f);
    }
    // a kubelet that cannot start as a node at all, told by its own log (the catalog entries
    // concluded by node-not-ready: no config file before kubeadm init/join)
    out.extend(crate::rules::log_catalog::catalog_findings(
        ctx,
        NodeNotReady::ID,
    ));
    out
}

/// Whether a text is `kubeadm init`'s output (its command line, its `[init]` or
/// `[wait-control-plane]` phases: cmd/kubeadm/app/cmd/phases/init/*.go).
fn kubeadm_init_text(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("[init]")
            || l.starts_with("[wait-control-plane]")
            || l.contains("kubeadm init")
    })
}

/// The Kubernetes minor version kubeadm names: `[init] Using Kubernetes version: v1.22.0`
/// (cmd/kubeadm/app/cmd/init.go), `kubeadm version: &version.Info{Major:"1", Minor:"22"`.
fn kubeadm_minor(text: &str) -> Option<u32> {
    for l in text.lines() {
        if let Some((_, v)) = l.split_once("Using Kubernetes version: v1.") {
            return v.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok();
        }
        if l.contains("kubeadm version") && l.contains("Major:\"1\"") {
            let (_, v) = l.split_once("Minor:\"")?;
            return v.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok();
        }
    }
    None
}

/// The container runtime's cgroup driver as the input shows it, with its evidence and a
/// short description: `docker info`'s ` Cgroup Driver: cgroupfs` (docker/cli
/// cli/command/system/info.go), containerd's `SystemdCgroup = false|true`
/// (/etc/containerd/config.toml, runc options).
fn runtime_cgroup_driver(ctx: &Context<'_>) -> Option<(String, (Evidence, String))> {
    for log in ctx.logs() {
        for (i, line) in log.text.lines().enumerate() {
            let t = line.trim();
            let number = log.origins.get(i).map_or(i + 1, |o| o.line);
            if let Some(v) = t.strip_prefix("Cgroup Driver:") {
                let v = v.trim();
                if matches!(v, "cgroupfs" | "systemd") {
                    return Some((
                        v.to_owned(),
                        (
                            Evidence::log(log.source.clone(), number, t),
                            format!("`docker info`: Cgroup Driver: {v}"),
                        ),
                    ));
                }
            }
            // config.toml's `SystemdCgroup = false`, `crictl info`'s `"SystemdCgroup": false,`
            // (containerd's CRI runtime options as JSON)
            let compact: String = t
                .chars()
                .filter(|c| !c.is_whitespace() && !matches!(c, '"' | ','))
                .collect::<String>()
                .to_ascii_lowercase();
            for (text, driver) in [
                ("systemdcgroup=false", "cgroupfs"),
                ("systemdcgroup:false", "cgroupfs"),
                ("systemdcgroup=true", "systemd"),
                ("systemdcgroup:true", "systemd"),
            ] {
                if compact == text {
                    return Some((
                        driver.to_owned(),
                        (
                            Evidence::log(log.source.clone(), number, t),
                            format!("containerd: {t}"),
                        ),
                    ));
                }
            }
        }
    }
    None
}

/// The GPUs a node holds as text (`nvidia.com/gpu=4`), or the source that says it has GPUs
/// when it advertises none (the GPU evidence model: labels, taints, plugin pods...); empty for
/// a node with no GPU evidence.
fn held_gpus(ctx: &Context<'_>, n: &cube_model::objects::Node) -> String {
    let Some(ev) = ctx
        .gpu_evidence()
        .iter()
        .find(|e| e.node == n.metadata.name)
        .filter(|e| e.has_gpus() || !e.capacity.is_empty())
    else {
        return String::new();
    };
    let advertised: Vec<String> = ev
        .capacity
        .iter()
        .filter(|(_, q)| !q.is_zero())
        .map(|(r, q)| format!("{r}={q}"))
        .collect();
    if advertised.is_empty() {
        crate::gpu::claims_text(ev)
    } else {
        advertised.join(", ")
    }
}

/// True when the node lifecycle controller marked the node unreachable: the Ready condition's
/// `NodeStatusUnknown` / `Kubelet stopped posting node status.` (kubernetes
/// `pkg/controller/nodelifecycle/node_lifecycle_controller.go` `tryUpdateNodeHealth`) or its
/// `node.kubernetes.io/unreachable` taint (`TaintNodeUnreachable`, added with the Unknown state).
fn unreachable_marked(
    n: &cube_model::objects::Node,
    c: &cube_model::objects::NodeCondition,
) -> bool {
    c.reason == "NodeStatusUnknown"
        || c.message.contains("stopped posting node status")
        || n.spec
            .taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/unreachable")
}

/// The cause a node's own journal gives (a catalog line of the kubelet, the runtime or the
/// CNI whose journal host is `node`, concluded by node-runtime-unhealthy,
/// node-kubelet-cert-expired or node-not-ready): the rule, cause, remedy and the line. Errors
/// and warnings before infos, then the first line.
fn journal_cause<'c>(
    ctx: &'c Context<'_>,
    node: &str,
) -> Option<(&'static str, String, String, &'c crate::classify::Signal)> {
    signals(ctx, &[SignalKind::Known])
        .filter(|s| {
            s.object
                .as_ref()
                .is_some_and(|o| o.kind == "Node" && o.name == node)
        })
        .filter_map(|s| {
            let e = crate::catalog::entry(s.detail("entry"))?;
            matches!(
                e.rule,
                "node-runtime-unhealthy" | "node-kubelet-cert-expired" | "node-not-ready"
            )
            .then_some((e, s))
        })
        .min_by_key(|(e, s)| (std::cmp::Reverse(e.severity), s.line))
        .map(|(e, s)| {
            let (cause, remedy) = e.cause_and_remedy(s);
            (e.rule, cause, remedy, s)
        })
}

/// A Ready=Unknown heartbeat this many seconds older than the input's newest time is stale: the
/// node lifecycle controller marks a node Unknown after `--node-monitor-grace-period` (40 s, 50 s
/// since v1.32) and the `node.kubernetes.io/unreachable` taint's default `tolerationSeconds`
/// (300 s, kubernetes `plugin/pkg/admission/defaulttolerationseconds`) then evicts its pods: past
/// that the node is down or cut off, not late.
const STALE_HEARTBEAT_SECS: i64 = 300;

/// The newest time the input shows (node heartbeats and condition transitions, event times), in
/// seconds since the epoch: "now" for heartbeat ages.
fn reference_time(ctx: &Context<'_>) -> Option<i64> {
    let transitions = ctx
        .snapshot()
        .nodes
        .iter()
        .flat_map(|n| n.status.conditions.iter())
        .filter_map(|c| c.last_transition_time.map(|t| t.as_second()));
    crate::gpu::reference_time(ctx)
        .into_iter()
        .chain(transitions)
        .max()
}

/// `3d4h`, `2h10m`, `7m`, `45s`.
fn human_age(secs: i64) -> String {
    let (d, h, m) = (secs / 86_400, secs % 86_400 / 3_600, secs % 3_600 / 60);
    match (d, h, m) {
        (0, 0, 0) => format!("{secs}s"),
        (0, 0, m) => format!("{m}m"),
        (0, h, m) => format!("{h}h{m}m"),
        (d, h, _) => format!("{d}d{h}h"),
    }
}

/// The remedy for a Ready=False message naming the container runtime (kubernetes
/// `pkg/kubelet/runtime.go` `runtimeErrors`: `container runtime is down` once the last runtime
/// status is older than the threshold, `<check> is not healthy: ...` for PLEG
/// (`pkg/kubelet/pleg/generic.go` `pleg was last seen active %v ago; threshold is %v`);
/// `pkg/kubelet/kubelet.go` `updateRuntimeUp`: `container runtime not ready: RuntimeReady=false
/// ...`), or the node shutting down (`pkg/kubelet/nodeshutdown`: `node is shutting down`).
fn runtime_remedy(lower: &str, name: &str) -> Option<String> {
    if lower.contains("container runtime is down")
        || lower.contains("container runtime not ready")
        || lower.contains("pleg is not healthy")
    {
        return Some(format!(
            "the kubelet on {name} gets no answer from the container runtime (PLEG relists or runtime status checks time out): on {name} check the runtime (`systemctl status containerd` or crio/docker, `journalctl -u containerd -n 200`, `crictl ps` hanging is the sign), restart it if it hangs (`sudo systemctl restart containerd`), and look for what overloads it (disk I/O, too many containers, a full disk); then `kubectl describe node {name}`"
        ));
    }
    if lower.contains("node is shutting down") {
        return Some(format!(
            "{name} is shutting down (the kubelet's graceful node shutdown): if that is not intended, find what triggered it (`journalctl -b -1 -u systemd-logind` on {name}); otherwise the node returns Ready after its restart, or drain and remove it"
        ));
    }
    None
}

/// Nodes whose latest readiness event in the input is `NodeNotReady` (no later `NodeReady`),
/// when the input has no Ready condition for them: a `kubectl get events` table or an events
/// dump alone. The kubelet records `NodeReady` / `NodeNotReady` on its Node when its Ready
/// condition changes (kubernetes `pkg/kubelet/nodestatus/setters.go` `ReadyCondition`, recorded
/// by `pkg/kubelet/kubelet_node_status.go` `recordNodeStatusEvent`: `Node %s status is now:
/// %s`), and the node lifecycle controller records `NodeNotReady` when it marks the node Unknown
/// (`pkg/controller/util/node/controller_utils.go` `RecordNodeStatusChange`, same message).
fn from_events(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    // (index, event) of the latest readiness event per node
    let mut latest: std::collections::BTreeMap<&str, (usize, &cube_model::objects::Event)> =
        std::collections::BTreeMap::new();
    let when = |e: &cube_model::objects::Event| e.last_timestamp.or(e.first_timestamp);
    for (i, e) in snap.events.iter().enumerate() {
        if !matches!(e.reason.as_str(), "NodeNotReady" | "NodeReady") {
            continue;
        }
        let o = &e.involved_object;
        if !(o.kind.eq_ignore_ascii_case("Node")) || o.name.is_empty() {
            continue;
        }
        let later = match latest.get(o.name.as_str()) {
            None => true,
            Some((j, prev)) => match (when(e), when(prev)) {
                (Some(a), Some(b)) if a != b => a > b,
                _ => i > *j,
            },
        };
        if later {
            latest.insert(o.name.as_str(), (i, e));
        }
    }
    let mut out = Vec::new();
    for (name, (_, e)) in latest {
        if e.reason != "NodeNotReady" {
            continue;
        }
        // the Node's own Ready condition, when the input has it, is the current state
        if snap.nodes.iter().any(|n| {
            n.metadata.name == name && n.status.conditions.iter().any(|c| c.type_ == "Ready")
        }) {
            continue;
        }
        let o = obj("Node", "", name);
        let by = if e.source.component.is_empty() {
            String::new()
        } else {
            format!(" (recorded by {})", e.source.component)
        };
        out.push(
            Finding::new(
                NodeNotReady::ID,
                Severity::Error,
                crate::Subject::cluster_scoped("Node", name),
                format!(
                    "node {name} is not Ready: its latest readiness event in the input is NodeNotReady{by} ('{}') and no NodeReady follows it; pods bound there do not run and new ones are not scheduled there",
                    e.message
                ),
            )
            .with_evidence(Evidence::field(
                &o,
                "events[reason=NodeNotReady].message",
                &e.message,
            ))
            .with_remedy(format!(
                "`kubectl describe node {name}` shows why (the Ready condition's reason and message: CNI not initialised, container runtime down, PLEG, or `Kubelet stopped posting node status` when the kubelet is gone); on {name} `systemctl status kubelet` and `journalctl -u kubelet -n 200`"
            )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::{run_log, run_rule};

    const NODE: &str = r#"{"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"a"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady","message":"container runtime network not ready: cni plugin not initialized"}]}},
      {"kind":"Node","metadata":{"name":"b"},"status":{"conditions":[{"type":"Ready","status":"True"}]}},
      {"kind":"Node","metadata":{"name":"c"},"status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"NodeStatusNeverUpdated"}]}},
      {"kind":"Node","metadata":{"name":"d"}}]}"#;

    #[test]
    fn false_is_error_unknown_is_warning_ready_and_partial_are_silent() {
        let f = run_rule("node-not-ready", NODE);
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].subject.name.as_str(), f[0].severity),
            ("a", Severity::Error)
        );
        assert!(f[0].remedy.contains("CNI"));
        assert_eq!(
            (f[1].subject.name.as_str(), f[1].severity),
            ("c", Severity::Warning)
        );
    }

    /// `kubectl get nodes` prints NotReady for False and Unknown alike; a nameless describe
    /// excerpt next to the rows is one of those nodes, not a node of its own.
    #[test]
    fn get_nodes_rows_with_a_nameless_describe_excerpt() {
        let text = "NAME      STATUS     ROLES                  AGE     VERSION\nnode-02   NotReady   <none>                 2y48d   v1.21.1+k3s1\nnode-01   Ready      control-plane,master   2y48d   v1.21.1+k3s1\n\nConditions:\n  Type                 Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message\n  ----                 ------    -----------------                 ------------------                ------              -------\n  Ready                Unknown   Tue, 07 Jun 2022 06:42:06 +0000   Thu, 14 Jul 2022 06:46:14 +0000   NodeStatusUnknown   Kubelet stopped posting node status.\n";
        let f = run_rule("node-not-ready", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.name, "node-02");
        // Ready=Unknown with its last heartbeat 37 days before the condition's transition: a
        // stale heartbeat, the node is down, an error (fresh-user H24; this was a warning)
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message.contains("Kubelet stopped posting node status"),
            "{}",
            f[0].message
        );
        // the rows alone: NotReady, False or Unknown not known
        let rows = "NAME      STATUS     ROLES    AGE   VERSION\nnode-02   NotReady   <none>   2d    v1.29.1\n";
        let f = run_rule("node-not-ready", rows);
        assert!(
            f[0].message.contains("False or Unknown"),
            "{}",
            f[0].message
        );
    }

    /// A NotReady node whose own journal is in the input carries the journal's cause (one
    /// cause, one finding); a node without its journal keeps the generic remedy.
    #[test]
    fn a_not_ready_node_names_its_own_journals_cause() {
        let mut i = crate::Inputs::new();
        i.add(
            "nodes.txt",
            "NAME      STATUS     ROLES           AGE   VERSION\nnode-01   NotReady   control-plane   12m   v1.26.3\nnode-02   NotReady   <none>          9m    v1.26.3\n",
        );
        i.add(
            "kubelet.journal",
            "Apr 16 22:26:30 node-01 kubelet[10125]: E0416 22:26:30.150357   10125 kubelet.go:2373] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"\n",
        );
        let f = crate::rules::testutil::run_inputs("node-not-ready", &i);
        let one = f
            .iter()
            .find(|f| f.subject.name == "node-01")
            .expect("node-01");
        assert!(one.message.contains("journal"), "{}", one.message);
        assert!(one.remedy.contains("/etc/cni/net.d"), "{}", one.remedy);
        assert!(one.evidence.iter().any(
            |e| matches!(e, crate::Evidence::Log { source, .. } if source == "kubelet.journal")
        ));
        let two = f
            .iter()
            .find(|f| f.subject.name == "node-02")
            .expect("node-02");
        assert!(!two.message.contains("journal"), "{}", two.message);
    }

    /// Ready=Unknown is an error once its last heartbeat is well past the input's newest
    /// time, a warning while it is recent (fresh-user H24).
    #[test]
    fn unknown_with_a_stale_heartbeat_is_an_error() {
        let nodes = |beat: &str| {
            format!(
                r#"{{"kind":"List","items":[
          {{"kind":"Node","metadata":{{"name":"a"}},"status":{{"conditions":[{{"type":"Ready","status":"Unknown","reason":"NodeStatusUnknown","message":"Kubelet stopped posting node status.","lastHeartbeatTime":"{beat}","lastTransitionTime":"{beat}"}}]}}}},
          {{"kind":"Node","metadata":{{"name":"b"}},"status":{{"conditions":[{{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-01T10:00:00Z"}}]}}}}]}}"#
            )
        };
        let f = run_rule("node-not-ready", &nodes("2026-01-01T08:00:00Z"));
        assert_eq!(f[0].severity, Severity::Error, "{f:#?}");
        assert!(f[0].message.contains("2h0m older"), "{}", f[0].message);
        let f = run_rule("node-not-ready", &nodes("2026-01-01T09:59:20Z"));
        assert_eq!(f[0].severity, Severity::Warning, "{f:#?}");
    }

    /// An events table alone: a node whose latest readiness event is NodeNotReady is not
    /// Ready; one whose NodeNotReady is followed by NodeReady is (fresh-user H14).
    #[test]
    fn latest_node_not_ready_event_without_node_ready() {
        let text = "LAST SEEN   TYPE     REASON         OBJECT         MESSAGE
20m         Normal   NodeNotReady   node/node-02   Node node-02 status is now: NodeNotReady
18m         Normal   NodeReady      node/node-02   Node node-02 status is now: NodeReady
5m          Normal   NodeNotReady   node/node-03   Node node-03 status is now: NodeNotReady
";
        let f = run_rule("node-not-ready", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.name, "node-03");
        assert_eq!(f[0].severity, Severity::Error);
    }

    /// An unreachable node (Ready=Unknown, the unreachable taints) whose input holds no time
    /// after its last heartbeat is an error when it holds GPUs or pods, in every shape: Node
    /// JSON, Node YAML, a describe, `kubectl get nodes` rows with `kubectl get pods -o wide`
    /// (K1); one that holds nothing stays a warning.
    #[test]
    fn unreachable_node_holding_gpus_or_pods_is_an_error_without_a_time_reference() {
        let node = |gpus: &str| {
            format!(
                r#"{{"kind":"Node","metadata":{{"name":"gpu-03"}},"spec":{{"taints":[{{"key":"node.kubernetes.io/unreachable","effect":"NoExecute"}}]}},"status":{{"capacity":{{"cpu":"8"{gpus}}},"conditions":[{{"type":"Ready","status":"Unknown","reason":"NodeStatusUnknown","message":"Kubelet stopped posting node status.","lastHeartbeatTime":"2023-07-18T03:39:52Z","lastTransitionTime":"2023-07-18T03:42:33Z"}}]}}}}"#
            )
        };
        let f = run_rule("node-not-ready", &node(r#","nvidia.com/gpu":"4""#));
        assert_eq!(f[0].severity, Severity::Error, "{f:#?}");
        assert!(
            f[0].message.contains("nvidia.com/gpu=4"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("not known"), "{}", f[0].message);
        let f = run_rule("node-not-ready", &node(""));
        assert_eq!(f[0].severity, Severity::Warning, "{f:#?}");
        let yaml = "apiVersion: v1\nkind: Node\nmetadata:\n  name: gpu-03\n  labels:\n    nvidia.com/gpu.present: \"true\"\nstatus:\n  conditions:\n  - type: Ready\n    status: Unknown\n    reason: NodeStatusUnknown\n    message: Kubelet stopped posting node status.\n    lastHeartbeatTime: \"2023-07-18T03:39:52Z\"\n    lastTransitionTime: \"2023-07-18T03:42:33Z\"\n";
        let f = run_rule("node-not-ready", yaml);
        assert_eq!(f[0].severity, Severity::Error, "{f:#?}");
        let describe = "Name:               gpu-03\nTaints:             node.kubernetes.io/unreachable:NoExecute\nConditions:\n  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message\n  ----             ------    -----------------                 ------------------                ------              -------\n  Ready            Unknown   Tue, 18 Jul 2023 03:39:52 +0000   Tue, 18 Jul 2023 03:42:33 +0000   NodeStatusUnknown   Kubelet stopped posting node status.\nNon-terminated Pods:          (1 in total)\n  Namespace                   Name           CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n  ---------                   ----           ------------  ----------  ---------------  -------------  ---\n  team-a                      train-job-0    8 (25%)       8 (25%)     32Gi (25%)       32Gi (25%)     2d\n";
        let f = run_rule("node-not-ready", describe);
        assert_eq!(f[0].severity, Severity::Error, "{f:#?}");
        assert!(f[0].message.contains("1 pod(s)"), "{}", f[0].message);
        // kubectl's `Unknown` row (no Ready condition) with a pod bound there
        let rows = "$ kubectl get nodes\nNAME     STATUS    ROLES    AGE   VERSION\ngpu-03   Unknown   <none>   41d   v1.28.2\n$ kubectl get pods -A -o wide\nNAMESPACE   NAME          READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES\nteam-a      train-job-0   1/1     Running   0          2d    10.244.3.7   gpu-03   <none>           <none>\n";
        let f = run_rule("node-not-ready", rows);
        assert_eq!(f[0].severity, Severity::Error, "{f:#?}");
        assert!(f[0].message.contains("is Unknown in"), "{}", f[0].message);
        let alone = "NAME     STATUS    ROLES    AGE   VERSION\ngpu-03   Unknown   <none>   41d   v1.28.2\n";
        assert_eq!(
            run_rule("node-not-ready", alone)[0].severity,
            Severity::Warning
        );
    }

    #[test]
    fn kubelet_check_text() {
        assert_eq!(
            run_log(
                "node-not-ready",
                "[kubelet-check] It seems like the kubelet isn't running or healthy."
            )
            .len(),
            1
        );
        assert!(run_log("node-not-ready", "[kubelet-start] Starting the kubelet").is_empty());
    }

    /// Red-team round 3 (11): kubeadm went on and finished after a failed healthz poll.
    #[test]
    fn a_kubelet_check_failure_before_a_successful_init_is_info() {
        let text = "[init] Using Kubernetes version: v1.28.2\n[kubelet-check] It seems like the kubelet isn't running or healthy.\n[kubelet-check] The HTTP call equal to 'curl -sSL http://localhost:10248/healthz' failed with error: Get \"http://localhost:10248/healthz\": dial tcp 127.0.0.1:10248: connect: connection refused.\nYour Kubernetes control-plane has initialized successfully!\n";
        let f = crate::rules::testutil::run_log("node-not-ready", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Info);
    }

    /// The runtime's cgroup driver in each shape the input may show it.
    #[test]
    fn runtime_cgroup_driver_in_docker_info_config_toml_and_crictl_info() {
        let check = "root@master-1:~# kubeadm init\n[init] Using Kubernetes version: v1.24.0\n[kubelet-check] The HTTP call equal to 'curl -sSL http://localhost:10248/healthz' failed with error: Get \"http://localhost:10248/healthz\": dial tcp 127.0.0.1:10248: connect: connection refused.\n";
        for driver in [
            " Cgroup Driver: cgroupfs",
            "            SystemdCgroup = false",
            "            \"SystemdCgroup\": false,",
        ] {
            let f =
                crate::rules::testutil::run_log("node-not-ready", &format!("{check}{driver}\n"));
            assert!(
                f.iter()
                    .any(|f| f.message.contains("cgroupfs cgroup driver")),
                "{driver}: {f:#?}"
            );
        }
    }
}
