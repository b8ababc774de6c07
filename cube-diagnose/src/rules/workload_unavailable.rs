//! `workload-unavailable`: a Deployment, StatefulSet, ReplicaSet or ReplicationController with
//! fewer ready pods than it wants, or a failed Job, as `kubectl get` tables (or whole objects of
//! a JSON/YAML dump with a status; a manifest without one says nothing) show them (counts
//! as kubectl's printers compute them: kubernetes `pkg/printers/internalversion/printers.go`,
//! `READY` = `readyReplicas/spec.replicas`, a Job's `STATUS` from its conditions).
//!
//! One root cause per chain: the finding names the workload's pods of the input and their
//! state, and points to the finding that explains a pod (a Pending pod is `pod-unschedulable`'s);
//! a ReplicaSet whose Deployment is in the input gives no finding of its own. Nothing is
//! concluded from what a table does not show (tolerations, requests, conditions).

use cube_model::objects::{Pod, Workload};

use crate::rules::{obj, shell_word};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    WorkloadUnavailable,
    "workload-unavailable",
    Scheduling,
    Warning,
    "A Deployment, StatefulSet, ReplicaSet, ReplicationController or DaemonSet has no ready pod while it wants some (warning; some but not all ready: info), or a Job failed (warning), as read from `kubectl get` tables or JSON/YAML dumps with a status (DaemonSets also from describe or the API; a GPU device plugin or GPU operator DaemonSet is named as such; a GPU device-plugin pod that is not Ready in a pod listing whose DaemonSet is not in the input is reported for the DaemonSet named from the pod; when the plugin's log says NVML's library cannot load in its container, or the same image works when started by hand with the nvidia runtime, the cause is the container runtime's default runtime (Docker default-runtime, containerd default_runtime_name, CRI-O default_runtime) not being nvidia and the DaemonSet naming no runtimeClassName). The finding names the workload's pods found in the input with their state (Pending without a node: see pod-unschedulable; waiting reasons such as CrashLoopBackOff or ImagePullBackOff) and the commands that show why. A ReplicaSet owned by a Deployment of the input is reported through the Deployment.",
    check
);

/// The resource name kubectl takes for a workload kind.
fn resource(kind: &str) -> &'static str {
    match kind {
        "Deployment" => "deployment",
        "StatefulSet" => "statefulset",
        "ReplicaSet" => "replicaset",
        "ReplicationController" => "replicationcontroller",
        _ => "job",
    }
}

/// Whether `pod` belongs to `w`: an owner reference naming it, else the name the controller
/// gives its pods (`<name>-<suffix>`; a Deployment's pods are `<name>-<rs hash>-<suffix>`).
fn owns(w: &Workload, pod: &Pod) -> bool {
    if pod.metadata.namespace != w.metadata.namespace && !w.metadata.namespace.is_empty() {
        return false;
    }
    if !pod.metadata.owner_references.is_empty() {
        return pod.metadata.owner_references.iter().any(|o| {
            (o.kind == w.kind && o.name == w.metadata.name)
                || (w.kind == "Deployment"
                    && o.kind == "ReplicaSet"
                    && rs_of_deployment(&o.name, &w.metadata.name))
        });
    }
    let Some(rest) = pod
        .metadata
        .name
        .strip_prefix(&w.metadata.name)
        .and_then(|r| r.strip_prefix('-'))
    else {
        return false;
    };
    match w.kind.as_str() {
        // `<ordinal>`
        "StatefulSet" => rest.chars().all(|c| c.is_ascii_digit()),
        // `<pod-template-hash>-<suffix>`
        "Deployment" => rest.split('-').count() == 2,
        _ => !rest.contains('-'),
    }
}

/// `name` is `<deployment>-<pod-template-hash>`.
fn rs_of_deployment(name: &str, deployment: &str) -> bool {
    name.strip_prefix(deployment)
        .and_then(|r| r.strip_prefix('-'))
        .is_some_and(|h| !h.is_empty() && !h.contains('-'))
}

/// What a pod's state says, in a few words.
fn pod_state(p: &Pod) -> String {
    let waiting = p
        .status
        .init_container_statuses
        .iter()
        .chain(&p.status.container_statuses)
        .filter_map(|c| c.state.as_ref()?.waiting.as_ref())
        .map(|w| w.reason.as_str())
        .find(|r| !r.is_empty() && *r != "PodInitializing" && *r != "ContainerCreating");
    if p.spec.node_name.is_empty() && (p.status.phase.is_empty() || p.status.phase == "Pending") {
        return "Pending without a node (see its pod-unschedulable finding)".to_owned();
    }
    let reason = waiting.unwrap_or(p.status.reason.as_str());
    match (p.status.phase.as_str(), reason) {
        (phase, "") => format!("{phase} on {}", p.spec.node_name),
        (_, r) => format!("{r} on {}", p.spec.node_name),
    }
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    for w in &snap.workloads {
        // a whole object (a JSON/YAML dump, not a `kubectl get` row) with no status at all is a
        // manifest that was never applied, or a status nobody has written: nothing is known of
        // its pods (the API omits zero counts, so a live one shows `replicas` or conditions)
        let from_table = w
            .metadata
            .annotations
            .contains_key(cube_model::describe::PARTIAL_ANNOTATION);
        if !from_table && w.status.replicas == 0 && w.status.conditions.is_empty() {
            continue;
        }
        let name = &w.metadata.name;
        let ns = &w.metadata.namespace;
        let o = obj(&w.kind, ns, name);
        let (severity, message, evidence) = if w.kind == "Job" {
            let failed = w
                .status
                .conditions
                .iter()
                .any(|c| c.type_ == "Failed" && c.status == "True");
            if !failed {
                continue;
            }
            (
                Severity::Warning,
                format!(
                    "Job {} failed ({} of {} completions succeeded)",
                    w.metadata.name,
                    w.status.succeeded,
                    w.spec.completions.unwrap_or(1)
                ),
                vec![Evidence::field(&o, "status.conditions[Failed]", "True")],
            )
        } else {
            let Some(desired) = w.spec.replicas.filter(|d| *d > 0) else {
                continue; // scaled to zero: nothing is wanted
            };
            let ready = w.status.ready_replicas;
            if ready >= desired {
                continue;
            }
            // a ReplicaSet of a Deployment of the input: the Deployment carries it
            if w.kind == "ReplicaSet"
                && snap.workloads.iter().any(|d| {
                    d.kind == "Deployment"
                        && d.metadata.namespace == w.metadata.namespace
                        && rs_of_deployment(name, &d.metadata.name)
                })
            {
                continue;
            }
            let severity = if ready == 0 {
                Severity::Warning
            } else {
                Severity::Info
            };
            let mut evidence = vec![Evidence::field(&o, "ready", format!("{ready}/{desired}"))];
            if w.kind == "Deployment" {
                evidence.push(Evidence::field(
                    &o,
                    "available",
                    w.status.available_replicas.to_string(),
                ));
            }
            (
                severity,
                format!(
                    "{} {} has {ready} of {desired} pods ready{}",
                    w.kind,
                    w.metadata.name,
                    if ready == 0 {
                        ": it serves nothing"
                    } else {
                        ""
                    }
                ),
                evidence,
            )
        };
        let pods: Vec<&Pod> = snap.pods.iter().filter(|p| owns(w, p)).collect();
        let max = ctx.thresholds().max_nodes_in_evidence;
        let mut message = message;
        let mut evidence = evidence;
        let mut severity = severity;
        if w.kind != "Job"
            && let Some((why, ev)) = failed_create(ctx, &w.kind, ns, name)
        {
            message.push_str(&format!("; {why}"));
            evidence.push(ev);
            // none ready and its controller cannot create them (quota, LimitRange, a webhook,
            // a missing ServiceAccount): nothing will run until the cause is fixed
            if w.status.ready_replicas == 0 {
                severity = Severity::Error;
            }
        }
        if !pods.is_empty() {
            let states: Vec<String> = pods
                .iter()
                .take(max)
                .map(|p| format!("{}: {}", p.metadata.name, pod_state(p)))
                .collect();
            message.push_str(&format!("; its pods in the input: {}", states.join("; ")));
        }
        let ns_flag = if ns.is_empty() {
            String::new()
        } else {
            format!(" -n {}", shell_word(ns))
        };
        let describe = format!(
            "kubectl describe {}{ns_flag} {}",
            resource(&w.kind),
            shell_word(name)
        );
        let pods_cmd = match w
            .spec
            .selector
            .as_ref()
            .filter(|s| !s.match_labels.is_empty())
        {
            Some(s) => format!(
                "kubectl get pods{ns_flag} -o wide -l {}",
                shell_word(
                    &s.match_labels
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(",")
                )
            ),
            None => format!(
                "kubectl get pods{ns_flag} -o wide | grep -e {}",
                shell_word(&format!("^{name}-"))
            ),
        };
        let remedy = if w.kind == "Job" {
            format!(
                "find why it failed: `{describe}` (its events and the Failed condition's reason: BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy), `kubectl logs{ns_flag} job/{}` for the last pod's output, then fix and re-create the Job (a failed Job is not retried)",
                shell_word(name)
            )
        } else {
            format!(
                "find why its pods are not ready: `{describe}` (its events and conditions), then `{pods_cmd}` and `kubectl describe pod{ns_flag} <pod>` for a pod that is not Running and ready (Pending: scheduling; CrashLoopBackOff: `kubectl logs{ns_flag} <pod> --previous`; ImagePullBackOff: the image name and pull secret)"
            )
        };
        out.push(
            Finding::new(
                WorkloadUnavailable::ID,
                severity,
                Subject::namespaced(&w.kind, ns, name),
                message,
            )
            .with_evidences(evidence)
            .with_evidences(pods.iter().take(max).map(|p| {
                Evidence::field(
                    obj("Pod", &p.metadata.namespace, &p.metadata.name),
                    "state",
                    pod_state(p),
                )
            }))
            .with_remedy(remedy),
        );
    }
    let cause = crate::plugin_runtime::default_runtime_cause(ctx);
    out.extend(daemon_sets(ctx, cause.as_ref()));
    out.extend(plugin_pods_without_daemon_set(ctx, cause.as_ref()));
    out
}

/// Why the controller of `kind`/`name` cannot create its pods: its `FailedCreate` events
/// (`Error creating: ...`, written by the DaemonSet, ReplicaSet, StatefulSet, Job or
/// ReplicationController controller on its own object; a Deployment's go to its ReplicaSets
/// `<name>-<hash>`), as (text for the message, evidence). The rule that explains the admission
/// error (quota, LimitRange, scope quota, ...) is named from the catalog entry its message
/// matches, so the finding points to that finding instead of repeating it.
fn failed_create(
    ctx: &Context<'_>,
    kind: &str,
    ns: &str,
    name: &str,
) -> Option<(String, Evidence)> {
    let snap = ctx.snapshot();
    let (i, e) = snap.events.iter().enumerate().find(|(_, e)| {
        let o = &e.involved_object;
        e.reason == "FailedCreate"
            && (o.namespace == ns || o.namespace.is_empty() || ns.is_empty())
            && ((o.kind == kind && o.name == name)
                || (kind == "Deployment"
                    && o.kind == "ReplicaSet"
                    && rs_of_deployment(&o.name, name)))
    })?;
    // the rule the catalog draws from the same event (classified with source `events`)
    let rule = ctx
        .signals()
        .iter()
        .filter(|s| s.source == "events" && s.line == i + 1)
        .find_map(|s| crate::catalog::entry(s.detail("entry")).map(|en| en.rule))
        .filter(|r| !r.is_empty() && *r != WorkloadUnavailable::ID);
    let o = &e.involved_object;
    let msg: String = e.message.chars().take(300).collect();
    let text = match rule {
        Some(r) => format!(
            "its controller cannot create its pods (FailedCreate: {msg}): the cause is reported by {r}"
        ),
        None => format!("its controller cannot create its pods (FailedCreate: {msg})"),
    };
    Some((
        text,
        Evidence::field(
            obj(&o.kind, &o.namespace, &o.name),
            "events[FailedCreate]",
            msg,
        ),
    ))
}

/// Whether a GPU component of `vendor` needs the NVIDIA runtime in its container (NVIDIA's
/// plugin and the forks of it: HAMi, Volcano's vGPU plugin).
fn nvidia_plugin(vendor: Option<cube_model::GpuVendor>) -> bool {
    matches!(vendor, None | Some(cube_model::GpuVendor::Nvidia))
}

/// The random suffix the API server gives a DaemonSet's pods (`generateName` plus five
/// characters of k8s.io/apiserver `pkg/storage/names` `SimpleNameGenerator`, alphabet
/// `bcdfghjklmnpqrstvwxz2456789`).
fn generated_suffix(name: &str) -> bool {
    name.rsplit_once('-').is_some_and(|(_, s)| {
        s.len() == 5
            && s.bytes()
                .all(|b| b"bcdfghjklmnpqrstvwxz2456789".contains(&b))
    })
}

/// GPU device-plugin pods that are not Ready (CrashLoopBackOff, Error, ...) whose DaemonSet
/// is not in the input (a `kubectl get pods` listing or `describe pod` only): the DaemonSet is
/// named from the pod's owner reference or its generated name, and the finding says what its
/// failing pods mean and, when the input shows it, why they fail (the NVIDIA runtime is not the
/// runtime the kubelet starts them with: [`crate::plugin_runtime`]).
/// The `workload-unavailable` finding of a DaemonSet (no pod ready: warning; some ready:
/// info), with the runtime cause (if any) added to its message, remedy and evidence.
#[allow(clippy::too_many_arguments)]
fn daemon_set_finding(
    ns: &str,
    name: &str,
    none_ready: bool,
    mut message: String,
    mut evidence: Vec<Evidence>,
    mut remedy: String,
    cause: Option<&crate::plugin_runtime::RuntimeCause>,
) -> Finding {
    if let Some(c) = cause {
        message.push_str(&format!("; cause: {}", c.detail));
        remedy = format!("{}; to confirm: {remedy}", c.remedy);
        evidence.extend(c.evidence.iter().cloned());
    }
    Finding::new(
        WorkloadUnavailable::ID,
        if none_ready {
            Severity::Warning
        } else {
            Severity::Info
        },
        Subject::namespaced("DaemonSet", ns, name),
        message,
    )
    .with_evidences(evidence)
    .with_remedy(remedy)
}

fn plugin_pods_without_daemon_set(
    ctx: &Context<'_>,
    cause: Option<&crate::plugin_runtime::RuntimeCause>,
) -> Vec<Finding> {
    use cube_model::gpu::{GpuComponentRole, classify_pod};
    let snap = ctx.snapshot();
    let mut groups: std::collections::BTreeMap<(&str, &str), Vec<&Pod>> =
        std::collections::BTreeMap::new();
    for p in &snap.pods {
        let Some((GpuComponentRole::DevicePlugin, _)) = classify_pod(p) else {
            continue;
        };
        let owned = p
            .metadata
            .owner_references
            .iter()
            .any(|o| o.kind == "DaemonSet");
        if !owned && !generated_suffix(&p.metadata.name) {
            continue;
        }
        let ds = crate::gpu::plugin_ds_name(p);
        let ns = p.metadata.namespace.as_str();
        if snap.daemon_sets.iter().any(|d| {
            d.metadata.name == ds
                && (d.metadata.namespace == ns || d.metadata.namespace.is_empty() || ns.is_empty())
        }) {
            continue; // the DaemonSet's own finding (daemon_sets) speaks for it
        }
        groups.entry((ns, ds)).or_default().push(p);
    }
    let max = ctx.thresholds().max_nodes_in_evidence;
    let mut out = Vec::new();
    for ((ns, name), pods) in groups {
        let failing: Vec<&Pod> = pods
            .iter()
            .copied()
            .filter(|p| crate::gpu::component_failing(p))
            .collect();
        if failing.is_empty() {
            continue;
        }
        let vendor = classify_pod(failing[0]).and_then(|(_, v)| v);
        let states: Vec<String> = failing
            .iter()
            .take(max)
            .map(|p| format!("{}: {}", p.metadata.name, crate::gpu::pod_state(p)))
            .collect();
        let ready = pods.len() - failing.len();
        let mut message = format!(
            "DaemonSet {name} (the GPU device plugin; the DaemonSet itself is not in the input, its pods are) has {} of its {} pod(s) in the input not ready ({}): the nodes they run on do not (re)advertise their GPUs",
            failing.len(),
            pods.len(),
            states.join("; ")
        );
        if ready > 0 {
            message.push_str(&format!("; {ready} of its pods are Ready elsewhere"));
        }
        let ns_flag = if ns.is_empty() {
            String::new()
        } else {
            format!(" -n {}", shell_word(ns))
        };
        let first = shell_word(&failing[0].metadata.name);
        let remedy = format!(
            "`kubectl logs{ns_flag} {first} --previous` (why the container exits) and `kubectl describe pod{ns_flag} {first}` (events)"
        );
        let evidence: Vec<Evidence> = failing
            .iter()
            .take(max)
            .map(|p| {
                Evidence::field(
                    obj("Pod", &p.metadata.namespace, &p.metadata.name),
                    "state",
                    crate::gpu::pod_state(p),
                )
            })
            .collect();
        let cause = cause.filter(|_| nvidia_plugin(vendor));
        let mut f = daemon_set_finding(ns, name, ready == 0, message, evidence, remedy, cause);
        // a plugin pod that started and does not run (crash loop, `Error` between restarts,
        // image or container-creation failure): the GPUs of its node are not (re)advertised,
        // an error naming the pod and its role (fresh-user K2); one merely waiting to be
        // scheduled keeps its severity (device-plugin-not-scheduled tells why)
        if failing.iter().any(|p| plugin_pod_started_and_failing(p)) {
            f.severity = Severity::Error;
        }
        out.push(f);
    }
    out
}

/// A device-plugin pod that was placed on a node and does not run: a waiting or terminated
/// container reason in the STATUS column (`CrashLoopBackOff`, `Error`, `Init:CrashLoopBackOff`,
/// `ImagePullBackOff`, `RunContainerError`...) or a container status that is waiting with a
/// reason other than `ContainerCreating` / `PodInitializing`, or terminated.
fn plugin_pod_started_and_failing(p: &Pod) -> bool {
    let reason = p
        .status
        .reason
        .strip_prefix("Init:")
        .unwrap_or(&p.status.reason);
    let table = !reason.is_empty()
        && !matches!(
            reason,
            "Pending"
                | "ContainerCreating"
                | "PodInitializing"
                | "Terminating"
                | "NodeLost"
                | "Unknown"
        )
        && !reason.contains('/');
    let containers = p
        .status
        .container_statuses
        .iter()
        .chain(&p.status.init_container_statuses)
        .filter_map(|c| c.state.as_ref())
        .any(|s| {
            s.waiting.as_ref().is_some_and(|w| {
                !w.reason.is_empty()
                    && !matches!(w.reason.as_str(), "ContainerCreating" | "PodInitializing")
            }) || s
                .terminated
                .as_ref()
                .is_some_and(|t| t.exit_code.is_some_and(|c| c != 0))
        });
    table || containers
}

/// DaemonSets whose shown status (a `kubectl get ds` row, `describe daemonset`, or the API's
/// object) has pods that are not ready: `numberReady` below `desiredNumberScheduled`
/// (kubernetes `pkg/controller/daemon`; a manifest's all-zero status says nothing). A GPU
/// component (device plugin, GPU operator pod) is named as such: on the nodes without its
/// ready pod the GPUs are not advertised or not validated.
fn daemon_sets(
    ctx: &Context<'_>,
    cause: Option<&crate::plugin_runtime::RuntimeCause>,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for ds in &ctx.snapshot().daemon_sets {
        let live = ds.metadata.creation_timestamp.is_some()
            || !ds.metadata.uid.is_empty()
            || cube_model::describe::from_get_table(&ds.metadata);
        let (desired, ready) = (ds.status.desired_number_scheduled, ds.status.number_ready);
        if !live || desired <= 0 || ready >= desired {
            continue;
        }
        let (name, ns) = (&ds.metadata.name, &ds.metadata.namespace);
        let o = obj("DaemonSet", ns, name);
        let classified = cube_model::gpu::classify_daemon_set(ds);
        let gpu = classified.map(|(role, _)| role);
        // the plugin's pods fail because the runtime does not inject the driver
        let cause = cause.filter(|_| {
            classified.is_some_and(|(role, vendor)| {
                role == cube_model::gpu::GpuComponentRole::DevicePlugin && nvidia_plugin(vendor)
            })
        });
        let what = match gpu {
            Some(cube_model::gpu::GpuComponentRole::DevicePlugin) => {
                ": it is the GPU device plugin, so the nodes without its ready pod do not (re)advertise their GPUs"
            }
            Some(_) => {
                ": it is a GPU component, so the GPU stack is not ready on the nodes without its ready pod"
            }
            None => "",
        };
        let what = match cni_daemon_set(name) {
            Some(net) if what.is_empty() => format!(": it is {net}"),
            _ => what.to_owned(),
        };
        let ns_flag = if ns.is_empty() {
            String::new()
        } else {
            format!(" -n {}", shell_word(ns))
        };
        let mut message = format!("DaemonSet {name} has {ready} of {desired} pods ready{what}");
        let remedy = format!(
            "`kubectl describe daemonset{ns_flag} {}` (events), then `kubectl get pods{ns_flag} -o wide | grep -e {}` and `kubectl describe pod{ns_flag} <pod>` / `kubectl logs{ns_flag} <pod> --all-containers` for the pods that are not ready",
            shell_word(name),
            shell_word(&format!("^{name}-"))
        );
        let mut evidence = vec![
            Evidence::field(&o, "status.desiredNumberScheduled", desired.to_string()),
            Evidence::field(&o, "status.numberReady", ready.to_string()),
        ];
        let cannot_create = match failed_create(ctx, "DaemonSet", ns, name) {
            Some((why, ev)) => {
                message.push_str(&format!("; {why}"));
                evidence.push(ev);
                true
            }
            None => false,
        };
        // some pods ready: information for most DaemonSets, but a node without its CNI or
        // device-plugin pod has no pod network (NotReady) or no GPUs (fresh-user H33)
        let node_critical = cni_daemon_set(name).is_some()
            || gpu == Some(cube_model::gpu::GpuComponentRole::DevicePlugin);
        let mut f = daemon_set_finding(ns, name, ready == 0, message, evidence, remedy, cause);
        if node_critical && f.severity == Severity::Info {
            f.severity = Severity::Warning;
        }
        // none ready of a DaemonSet every node needs (the device plugin: no node advertises
        // its GPUs; the CNI: no pod network), or whose controller cannot create its pods: an
        // outage, not a roll-out in progress
        if ready == 0 && (node_critical || cannot_create) {
            f.severity = Severity::Error;
        }
        out.push(f);
    }
    out
}

/// The node-networking DaemonSets of the common CNI plugins and kube-proxy, by the names their
/// upstream manifests give them (projectcalico/calico `manifests/calico.yaml` `calico-node`,
/// `canal`; flannel-io/flannel `Documentation/kube-flannel.yml` `kube-flannel-ds`;
/// cilium/cilium `install/kubernetes` `cilium`; weaveworks/weave `weave-net`;
/// antrea-io/antrea `antrea-agent`; aws/amazon-vpc-cni-k8s `aws-node`; kubeovn/kube-ovn
/// `kube-ovn-cni`; cloudnativelabs/kube-router `kube-router`; k8snetworkplumbingwg/multus-cni
/// `kube-multus-ds`; ovn-org/ovn-kubernetes `ovnkube-node`; AlibabaCloud/terway `terway*`;
/// kubeadm's `kube-proxy`), with what a node without its ready pod lacks.
pub(crate) fn cni_daemon_set(name: &str) -> Option<&'static str> {
    const CNI: &[&str] = &[
        "calico-node",
        "canal",
        "rke2-canal",
        "kube-flannel-ds",
        "kube-flannel",
        "cilium",
        "weave-net",
        "antrea-agent",
        "aws-node",
        "kube-ovn-cni",
        "kube-router",
        "kube-multus-ds",
        "ovnkube-node",
        "terway",
        "terway-eniip",
        "anetd",
    ];
    if CNI
        .iter()
        .any(|c| name == *c || name.strip_prefix(c).is_some_and(|r| r.starts_with('-')))
    {
        return Some(
            "the node's CNI plugin: a node without its ready pod gets no pod network (NotReady with `container runtime network not ready`, or pods without an IP)",
        );
    }
    (name == "kube-proxy").then_some(
        "kube-proxy: a node without its ready pod has no Service routing (pods there cannot reach ClusterIP Services such as the API server's 10.96.0.1)",
    )
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    /// A device-plugin pod that started and does not run (crash loop, `Error` with restarts,
    /// `Init:CrashLoopBackOff`), its DaemonSet not in the input, is an error naming the pod and
    /// its role, also when the node already advertises GPUs (K2); one waiting to be
    /// scheduled keeps a warning.
    #[test]
    fn failing_plugin_pod_is_an_error() {
        for status in [
            "CrashLoopBackOff   37",
            "Error   5",
            "Init:CrashLoopBackOff   4 (2m ago)",
        ] {
            let table = format!(
                "NAMESPACE     NAME                                   READY   STATUS   RESTARTS   AGE\nkube-system   nvidia-device-plugin-daemonset-4xw9t   0/1   {status}   3h\n"
            );
            let f = run_rule("workload-unavailable", &table);
            assert_eq!(f.len(), 1, "{status}: {f:#?}");
            assert_eq!(f[0].severity, crate::Severity::Error, "{status}");
            assert!(f[0].message.contains("GPU device plugin"));
            assert!(
                f[0].message
                    .contains("nvidia-device-plugin-daemonset-4xw9t")
            );
        }
        let pending = "NAMESPACE     NAME                                   READY   STATUS    RESTARTS   AGE\nkube-system   nvidia-device-plugin-daemonset-4xw9t   0/1     Pending   0          3h\n";
        let f = run_rule("workload-unavailable", pending);
        assert!(
            f.iter().all(|f| f.severity != crate::Severity::Error),
            "{f:#?}"
        );
    }

    /// Whole objects of a dump are read too: a live Deployment with no ready replica (the API
    /// omits `readyReplicas: 0`) is reported, a failed Job as well, while a manifest with no
    /// status (never applied) and a StatefulSet scaled to 0 say nothing.
    #[test]
    fn whole_objects_of_a_dump_with_a_status() {
        let dump = r#"{"kind":"List","items":[
          {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"trainer","namespace":"ml"},
           "spec":{"replicas":3},"status":{"replicas":3,"unavailableReplicas":3,
           "conditions":[{"type":"Available","status":"False","reason":"MinimumReplicasUnavailable"}]}},
          {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"draft","namespace":"ml"},"spec":{"replicas":2}},
          {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db","namespace":"ml"},"spec":{"replicas":0},"status":{"replicas":0}},
          {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"etl","namespace":"ml"},"spec":{"completions":1},
           "status":{"failed":6,"conditions":[{"type":"Failed","status":"True","reason":"BackoffLimitExceeded"}]}},
          {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"ml"},
           "spec":{"replicas":2},"status":{"replicas":2,"readyReplicas":2,"availableReplicas":2}}]}"#;
        let f = run_rule("workload-unavailable", dump);
        let subjects: Vec<String> = f.iter().map(|f| f.subject.display_name()).collect();
        assert_eq!(f.len(), 2, "{subjects:?}");
        assert!(
            subjects
                .iter()
                .any(|s| s.contains("Deployment") && s.contains("trainer")),
            "{subjects:?}"
        );
        assert!(
            subjects
                .iter()
                .any(|s| s.contains("Job") && s.contains("etl")),
            "{subjects:?}"
        );
        assert!(f.iter().all(|f| f.severity == crate::Severity::Warning));
    }

    const TABLES: &str = "$ kubectl get deploy -A
NAMESPACE      NAME           READY   UP-TO-DATE   AVAILABLE   AGE
gpu-operator   gpu-operator   0/1     1            0           5m
kube-system    coredns        2/2     2            2           30d
ml             trainer        1/3     3            1           10m
ml             idle           0/0     0            0           10m
$ kubectl get rs -n ml
NAME                 DESIRED   CURRENT   READY   AGE
trainer-5d4f8c7b9d   3         3         1       10m
$ kubectl get jobs -A
NAMESPACE   NAME      STATUS     COMPLETIONS   DURATION   AGE
ml          train-1   Failed     0/1           10m        10m
ml          train-2   Running    0/1           5m         12m
$ kubectl get pods -n gpu-operator
NAME                            READY   STATUS             RESTARTS   AGE
gpu-operator-6f8d9c7b5d-x2x7q   0/1     CrashLoopBackOff   7          5m
";

    #[test]
    fn unavailable_workloads_and_failed_jobs() {
        let f = run_rule("workload-unavailable", TABLES);
        let mut subjects: Vec<String> = f
            .iter()
            .map(|f| {
                format!(
                    "{}/{}/{}",
                    f.subject.kind, f.subject.namespace, f.subject.name
                )
            })
            .collect();
        subjects.sort();
        assert_eq!(
            subjects,
            [
                "Deployment/gpu-operator/gpu-operator",
                "Deployment/ml/trainer",
                "Job/ml/train-1"
            ],
            "{f:#?}"
        );
        let by = |name: &str| f.iter().find(|f| f.subject.name == name).expect(name);
        let op = by("gpu-operator");
        assert_eq!(op.severity, crate::Severity::Warning);
        assert!(
            op.message.contains("0 of 1") && op.message.contains("CrashLoopBackOff"),
            "{}",
            op.message
        );
        assert!(
            op.remedy
                .contains("`kubectl describe deployment -n gpu-operator gpu-operator`")
        );
        assert_eq!(by("trainer").severity, crate::Severity::Info);
        assert!(by("train-1").message.contains("failed"));
    }

    /// A device-plugin pod crash-looping in a `get pods` listing without its DaemonSet: the
    /// DaemonSet is named from the pod, and the plugin's log (NVML's library not in the
    /// container, v0.17's `Incompatible strategy detected auto`) or a manual run that works
    /// only with the nvidia runtime gives the cause with the runtime's key; a pod that is
    /// Ready says nothing.
    #[test]
    fn plugin_pods_without_their_daemon_set() {
        let pods = "$ kubectl get pods -n kube-system\nNAME                                   READY   STATUS             RESTARTS   AGE\nnvidia-device-plugin-daemonset-csjxw   0/1     CrashLoopBackOff   12         39m\n";
        let f = run_rule("workload-unavailable", pods);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].subject.display_name(),
            "DaemonSet/kube-system/nvidia-device-plugin-daemonset"
        );
        assert!(
            f[0].message.contains("CrashLoopBackOff"),
            "{}",
            f[0].message
        );
        assert!(!f[0].message.contains("cause:"), "{}", f[0].message);
        let log = format!(
            "{pods}$ kubectl logs -n kube-system nvidia-device-plugin-daemonset-csjxw\nI0312 10:00:00.000000       1 main.go:317] Retrieving plugins.\nE0312 10:00:00.000000       1 factory.go:112] Incompatible strategy detected auto\nE0312 10:00:00.000000       1 factory.go:113] If this is a GPU node, did you configure the NVIDIA Container Toolkit?\n"
        );
        let f = run_rule("workload-unavailable", &log);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("cause:"), "{}", f[0].message);
        for key in [
            "default-runtime",
            "default_runtime_name",
            "runtimeClassName",
        ] {
            assert!(f[0].remedy.contains(key), "{key}: {}", f[0].remedy);
        }
        let manual = format!(
            "{pods}\nbut by hand it works:\n$ docker run --runtime=nvidia -it nvidia/k8s-device-plugin:1.8\n2017/12/08 06:41:44 Loading NVML\n2017/12/08 06:41:45 Registered device plugin with Kubelet\n"
        );
        let f = run_rule("workload-unavailable", &manual);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("started by hand"), "{}", f[0].message);
        assert!(
            f[0].remedy.contains("/etc/docker/daemon.json"),
            "{}",
            f[0].remedy
        );
        let ok = "$ kubectl get pods -n kube-system\nNAME                                   READY   STATUS    RESTARTS   AGE\nnvidia-device-plugin-daemonset-csjxw   1/1     Running   0          39m\n";
        assert!(run_rule("workload-unavailable", ok).is_empty());
    }

    #[test]
    fn daemon_set_pods_not_ready_from_a_table_only() {
        let t = "$ kubectl get ds -n kube-system\nNAME                             DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                 AGE\nnvidia-device-plugin-daemonset   1         1         0       1            0           nvidia.com/gpu.present=true   2d\nkube-proxy                       2         2         2       2            2           kubernetes.io/os=linux        2d\n";
        let f = run_rule("workload-unavailable", t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("0 of 1") && f[0].message.contains("device plugin"));
        assert_eq!(f[0].subject.namespace, "kube-system");
        // a manifest (no status) says nothing
        let m = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\n  namespace: y\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n";
        assert!(run_rule("workload-unavailable", m).is_empty());
    }
}
