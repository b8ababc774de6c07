//! `device-plugin-not-scheduled`: a device-plugin DaemonSet's nodeSelector / required node
//! affinity / tolerations leave GPU nodes without any device plugin of their vendor (the root
//! cause the nodes' `gpu-not-advertised` findings point to), a plugin that runs on no node, and
//! NFD labels that name the PCI class when no DaemonSet in the input says which label is needed.

use crate::gpu::{ChainLink, exclusion_fixes, gpu_chains, plugin_gaps, plugins, taint_text};
use crate::rules::{node_subject, obj};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    DevicePluginNotScheduled,
    "device-plugin-not-scheduled",
    Gpu,
    Error,
    "A device-plugin DaemonSet (NVIDIA, GKE, AMD, Intel, HAMi, CubeStudio's) places no pod on GPU nodes that no other plugin of their vendor covers: its nodeSelector or required node affinity names a label those nodes lack (written by NFD, the GPU Operator or a person: the finding says which, and whether NFD's worker cannot run there because of a taint), or its tolerations miss their taints (the DaemonSet controller's own tolerations counted). An error when some excluded node advertises no GPUs (their gpu-not-advertised findings point here), a warning when they advertise GPUs anyway. Also warns when a plugin DaemonSet selects no node at all (desiredNumberScheduled 0), naming the NVIDIA chart's (v0.15+) node-affinity labels when the input shows the chart only by its version label, its image tag, its MPS control-daemon DaemonSet next to it or a pasted `helm install|upgrade ... --version` command (a `kubectl get daemonsets` row shows no affinity), and when NFD labelled a node's NVIDIA device with the PCI class in the key (pci-0302_10de.present) but not pci-10de.present and no DaemonSet in the input says which label the plugin selects. A GPU node on which no pod of a device plugin runs while a `get pods -o wide` listing shows its pods on other nodes, its DaemonSet not in the input, is a warning naming the node, the plugin, and the taints and labels that set the node apart from those with its pods. A device-plugin or GPU driver pod Pending on no node (the scheduler cannot fit it on the one node its DaemonSet made it for) is a warning on the pod.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let snap = ctx.snapshot();
    for gap in plugin_gaps(ctx) {
        let ds = gap.ds;
        let o = obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
        let subject = Subject::namespaced("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
        let spec = &ds.spec.template.spec;
        if gap.excluded.is_empty() {
            // runs on no node at all, and the input has nodes of which none is selected (or none)
            // a live status: from the API, or the DESIRED column of a `kubectl get ds` row (a
            // manifest's status is all zeros and says nothing)
            let from_api = ds.metadata.creation_timestamp.is_some()
                || !ds.metadata.uid.is_empty()
                || cube_model::describe::from_get_table(&ds.metadata);
            let selects_any = snap
                .nodes
                .iter()
                .any(|n| !crate::gpu::exclusion(ds, n).excludes());
            if from_api && ds.status.desired_number_scheduled == 0 && gap.gpu_nodes > 0 {
                // GPU nodes the shown selector and tolerations admit, yet the controller
                // places nothing: a constraint the input does not show
                if let Some(f) = hidden_constraint(ctx, ds) {
                    out.push(f);
                }
                continue;
            }
            if from_api
                && ds.status.desired_number_scheduled == 0
                && gap.gpu_nodes == 0
                && !selects_any
            {
                let sel = selector_text(ds);
                let why: Vec<String> = snap
                    .nodes
                    .iter()
                    .take(3)
                    .map(|n| {
                        format!(
                            "{}: {}",
                            n.metadata.name,
                            crate::gpu::exclusion(ds, n).describe()
                        )
                    })
                    .collect();
                // the NVIDIA chart (v0.15+) requires NFD/GFD labels through node affinity,
                // which `describe daemonset` does not print
                let chart = hidden_chart_affinity(ctx, ds);
                let mut f = Finding::new(
                    DevicePluginNotScheduled::ID,
                    Severity::Warning,
                    subject.clone(),
                    format!(
                        "device plugin {}/{} runs on no node (desiredNumberScheduled 0){}{}{}",
                        ds.metadata.namespace,
                        ds.metadata.name,
                        if sel.is_empty() {
                            String::new()
                        } else {
                            format!("; it selects {sel}")
                        },
                        if why.is_empty() {
                            " and the input has no node".to_owned()
                        } else {
                            format!("; {}", why.join("; "))
                        },
                        chart.as_ref().map_or(String::new(), |c| format!(
                            "; its chart ({c}) requires through node affinity one of {} (NVIDIA/k8s-device-plugin deployments/helm/nvidia-device-plugin/values.yaml `affinity`, written by NFD, GFD or the GPU Operator), which the Node-Selector shown does not include: no node carries them",
                            NVIDIA_CHART_AFFINITY
                                .iter()
                                .map(|(k, v)| format!("{k}={v}"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    ),
                )
                .with_evidence(Evidence::field(
                    &o,
                    "status.desiredNumberScheduled",
                    "0",
                ));
                for (k, v) in &spec.node_selector {
                    f = f.with_evidence(Evidence::field(
                        &o,
                        format!("spec.template.spec.nodeSelector.{k}"),
                        v,
                    ));
                }
                let labels = spec
                    .node_selector
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(" ");
                let mut patches: Vec<String> = Vec::new();
                for n in &snap.nodes {
                    for t in crate::gpu::exclusion(ds, n).taints {
                        let p = format!("`{}`", crate::gpu::toleration_patch(ds, &t));
                        if !t.key.starts_with("node.kubernetes.io/") && !patches.contains(&p) {
                            patches.push(p);
                        }
                    }
                }
                if chart.is_some() && labels.is_empty() && patches.is_empty() {
                    let release = ds
                        .metadata
                        .labels
                        .get("app.kubernetes.io/instance")
                        .unwrap_or("nvidia-device-plugin");
                    out.push(f.with_remedy(format!(
                        "label the GPU nodes: `kubectl label node <gpu-node> nvidia.com/gpu.present=true`, or let NFD and GFD write the labels: `helm upgrade {} nvdp/nvidia-device-plugin -n {} --reuse-values --set nfd.enabled=true --set gfd.enabled=true`; `kubectl -n {} get daemonset {} -o jsonpath='{{.spec.template.spec.affinity}}'` shows the requirement",
                        crate::rules::shell_word(release),
                        crate::rules::shell_word(&ds.metadata.namespace),
                        crate::rules::shell_word(&ds.metadata.namespace),
                        crate::rules::shell_word(&ds.metadata.name)
                    )));
                    continue;
                }
                out.push(f.with_remedy(if labels.is_empty() && patches.is_empty() {
                    format!("compare the GPU nodes' labels and taints with the DaemonSet: `kubectl get nodes --show-labels` and `kubectl -n {} get daemonset {} -o yaml`", ds.metadata.namespace, ds.metadata.name)
                } else if labels.is_empty() {
                    format!("let the plugin tolerate the GPU nodes' taints: {}", patches.join("; "))
                } else {
                    format!(
                        "label the GPU nodes so the plugin selects them: `kubectl label node {} {labels}`",
                        if snap.nodes.len() == 1 { snap.nodes[0].metadata.name.as_str() } else { "<gpu-node>" }
                    )
                }));
            }
            continue;
        }
        let any_dark = gap.excluded.iter().any(|(_, _, adv)| !adv);
        let mut f = Finding::new(
            DevicePluginNotScheduled::ID,
            if any_dark { Severity::Error } else { Severity::Warning },
            subject,
            format!(
                "device plugin {}/{} cannot run on {} of {} GPU nodes and no other plugin covers them ({}); desiredNumberScheduled is {}",
                ds.metadata.namespace,
                ds.metadata.name,
                gap.excluded.len(),
                gap.gpu_nodes,
                gap.excluded
                    .iter()
                    .map(|(n, ex, adv)| format!(
                        "{}: {}{}",
                        n.metadata.name,
                        ex.describe(),
                        if *adv { " (advertises GPUs anyway)" } else { "" }
                    ))
                    .collect::<Vec<_>>()
                    .join("; "),
                ds.status.desired_number_scheduled
            ),
        )
        .with_evidence(Evidence::field(
            &o,
            "status.desiredNumberScheduled",
            ds.status.desired_number_scheduled.to_string(),
        ));
        for (k, v) in &spec.node_selector {
            f = f.with_evidence(Evidence::field(
                &o,
                format!("spec.template.spec.nodeSelector.{k}"),
                v,
            ));
        }
        let mut remedies: Vec<String> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        for (n, ex, _) in &gap.excluded {
            for t in &ex.taints {
                f = f.with_evidence(Evidence::field(
                    obj("Node", "", &n.metadata.name),
                    format!("spec.taints[{}]", t.key),
                    taint_text(t),
                ));
            }
            let (note, fixes) = exclusion_fixes(ctx, ds, n, ex);
            if !note.is_empty() && !notes.contains(&note) {
                notes.push(note);
            }
            for r in fixes {
                if !remedies.contains(&r) {
                    remedies.push(r);
                }
            }
        }
        // one `kubectl label node` naming every node that needs the same labels
        let mut grouped: Vec<(String, Vec<String>)> = Vec::new();
        let mut others = Vec::new();
        for r in remedies {
            match r
                .strip_prefix("`kubectl label node ")
                .and_then(|x| x.strip_suffix('`'))
                .and_then(|x| x.split_once(' '))
            {
                Some((node, rest)) => match grouped.iter_mut().find(|(l, _)| l == rest) {
                    Some((_, nodes)) => nodes.push(node.to_owned()),
                    None => grouped.push((rest.to_owned(), vec![node.to_owned()])),
                },
                None => others.push(r),
            }
        }
        let mut all: Vec<String> = grouped
            .into_iter()
            .map(|(labels, nodes)| format!("`kubectl label node {} {labels}`", nodes.join(" ")))
            .collect();
        all.extend(others);
        let mut remedy = all.join("; or ");
        if !notes.is_empty() {
            remedy.push_str(&format!(
                " (why the labels are missing: {})",
                notes.join("; ")
            ));
        }
        out.push(f.with_remedy(remedy));
    }
    // device-plugin and driver pods that no node runs: Pending without a node (the DaemonSet
    // controller makes one pod per node it selects, pinned to that node by a node affinity
    // term `matchFields metadata.name`, pkg/controller/daemon/util/daemonset_util.go
    // `ReplaceDaemonSetPodNodeNameNodeAffinity`; the scheduler still has to fit it there)
    for p in &snap.pods {
        if p.status.phase != "Pending" || !p.spec.node_name.is_empty() || ctx.pod_finished(p) {
            continue;
        }
        // a STATUS other than `Pending` (`Init:0/1`, `ContainerCreating`, `Init:CrashLoopBackOff`)
        // or container states mean the pod is bound and started: a listing without the NODE
        // column only does not show where
        if !p.status.reason.is_empty()
            || !p.status.container_statuses.is_empty()
            || !p.status.init_container_statuses.is_empty()
        {
            continue;
        }
        let Some((role, _)) = cube_model::gpu::classify_pod(p) else {
            continue;
        };
        let what = match role {
            cube_model::gpu::GpuComponentRole::DevicePlugin => "device-plugin",
            cube_model::gpu::GpuComponentRole::Driver => "GPU driver",
            _ => continue,
        };
        let (ns, name) = (&p.metadata.namespace, &p.metadata.name);
        let po = obj("Pod", ns, name);
        let nominated = if p.status.nominated_node_name.is_empty() {
            String::new()
        } else {
            format!(
                " (nominated node {}: it waits for preemption there)",
                p.status.nominated_node_name
            )
        };
        let ns_flag = if ns.is_empty() {
            String::new()
        } else {
            format!(" -n {}", crate::rules::shell_word(ns))
        };
        let pname = crate::rules::shell_word(name);
        out.push(
            Finding::new(
                DevicePluginNotScheduled::ID,
                Severity::Warning,
                crate::rules::pod_subject(p),
                format!(
                    "the {what} pod {}{name} is Pending on no node{nominated}: the scheduler cannot place it on the one node its DaemonSet made it for (each DaemonSet pod is pinned to one node by node affinity), so that node's GPUs are not advertised until it runs; the usual causes are the node's free CPU or memory below the pod's requests, or a taint it does not tolerate",
                    if ns.is_empty() { String::new() } else { format!("{ns}/") }
                ),
            )
            .with_evidence(Evidence::field(&po, "status.phase", "Pending"))
            .with_evidence(Evidence::field(&po, "spec.nodeName", "<none>"))
            .with_remedy(format!(
                "`kubectl{ns_flag} describe pod {pname}` (the FailedScheduling event says why) and `kubectl{ns_flag} get pod {pname} -o jsonpath='{{.spec.affinity.nodeAffinity}}'` (the node it is meant for); give the pod a priority that preempts (the plugin charts use system-node-critical) or free room on that node"
            )),
        );
    }
    // a GPU node without a pod of the plugin whose pods a listing shows on other nodes, when the
    // DaemonSet itself is not in the input
    for m in crate::gpu::plugin_pods_missing(ctx) {
        let n = m.node;
        let (ns, ds) = &m.daemon_set;
        let o = obj("Node", "", &n.metadata.name);
        let mut why = Vec::new();
        if !m.taints.is_empty() {
            why.push(format!(
                "the node has taints the nodes with its pods do not ({}): the DaemonSet may not tolerate them",
                m.taints
                    .iter()
                    .map(|t| crate::gpu::taint_text(t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !m.missing_labels.is_empty() {
            why.push(format!(
                "every node with its pod has labels this node lacks ({}): the DaemonSet may select on one of them",
                m.missing_labels
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let ns_flag = if ns.is_empty() {
            String::new()
        } else {
            format!(" -n {}", crate::rules::shell_word(ns))
        };
        let mut f = Finding::new(
            DevicePluginNotScheduled::ID,
            Severity::Warning,
            node_subject(n),
            format!(
                "GPU node {} has no pod of the device plugin {ds}{} while its pods run on {} (the DaemonSet itself is not in the input): its DaemonSet places no pod on this node (nodeSelector or node affinity it does not match, or a taint it does not tolerate), so the node's GPUs cannot be advertised{}{}",
                n.metadata.name,
                if ns.is_empty() { String::new() } else { format!(" ({ns})") },
                m.elsewhere.join(", "),
                if why.is_empty() { "" } else { "; " },
                why.join("; ")
            ),
        )
        .with_evidences(crate::gpu::source_evidence(n, m.evidence, 3))
        .with_evidence(Evidence::field(&o, format!("pods of {ds}"), "<none on this node>"));
        for t in &m.taints {
            f = f.with_evidence(Evidence::field(
                &o,
                "spec.taints",
                crate::gpu::taint_text(t),
            ));
        }
        out.push(f.with_remedy(format!(
            "compare the DaemonSet's placement with the node: `kubectl{ns_flag} get daemonset {} -o jsonpath='{{.spec.template.spec.nodeSelector}} {{.spec.template.spec.affinity}} {{.spec.template.spec.tolerations}}'` and `kubectl get node {} --show-labels`; then label the node or add the toleration the DaemonSet lacks (its events: `kubectl{ns_flag} describe daemonset {}`)",
            crate::rules::shell_word(ds),
            crate::rules::shell_word(&n.metadata.name),
            crate::rules::shell_word(ds)
        )));
    }
    // NFD's class-prefixed label on a node that advertises nothing, when no plugin in the input
    // tells which label it selects
    if plugins(ctx).is_empty() {
        for c in gpu_chains(ctx) {
            // a node that advertises GPUs (all in use, or some devices unhealthy) is selected
            if c.failure.is_none()
                || c.failure
                    .as_ref()
                    .is_some_and(|f| f.link == ChainLink::Free)
                || !c.evidence.allocatable_of(c.vendor).is_empty()
            {
                continue;
            }
            let n = c.node;
            let labels = &n.metadata.labels;
            let class_prefixed: Vec<&str> = labels
                .keys()
                .filter(|k| {
                    k.starts_with("feature.node.kubernetes.io/pci-") && k.ends_with("_10de.present")
                })
                .collect();
            if class_prefixed.is_empty()
                || labels.contains_key("feature.node.kubernetes.io/pci-10de.present")
            {
                continue;
            }
            let o = obj("Node", "", &n.metadata.name);
            out.push(
                Finding::new(DevicePluginNotScheduled::ID, Severity::Warning, node_subject(n), format!("NFD found an NVIDIA device (vendor 10de) on {} but labelled it with the PCI class in the key ({}), and the node advertises no nvidia.com/gpu: device plugins and GPU Operator operands selecting feature.node.kubernetes.io/pci-10de.present=true do not schedule here", n.metadata.name, class_prefixed.join(", ")))
                    .with_evidences(class_prefixed.iter().map(|k| Evidence::field(&o, format!("metadata.labels[{k}]"), "true")))
                    .with_evidence(Evidence::field(&o, "metadata.labels[feature.node.kubernetes.io/pci-10de.present]", "<absent>"))
                    .with_remedy(format!("check which label the device-plugin DaemonSet selects (`kubectl get daemonsets -A -o wide | grep -i device-plugin`); if pci-10de.present, configure NFD's pci source with `deviceLabelFields: [vendor]` or label the node: `kubectl label node {} feature.node.kubernetes.io/pci-10de.present=true`", n.metadata.name)),
            );
        }
    }
    out.extend(driver_kernel_pins(ctx));
    out
}

/// The kernel a node runs: NFD's `feature.node.kubernetes.io/kernel-version.full`, else
/// `status.nodeInfo.kernelVersion` (the KERNEL-VERSION column of `kubectl get nodes -o wide`).
fn node_kernel(n: &cube_model::objects::Node) -> Option<&str> {
    n.metadata
        .labels
        .get(crate::gpu::NFD_KERNEL_LABEL)
        .or_else(|| {
            let k = n.status.node_info.kernel_version.as_str();
            (!k.is_empty()).then_some(k)
        })
}

/// GPU driver DaemonSets pinned to a kernel (the GPU Operator's precompiled drivers, one per
/// kernel: nodeSelector `feature.node.kubernetes.io/kernel-version.full=<kernel>`,
/// NVIDIA/gpu-operator internal/state/nodepool.go getNodePools) that place no pod
/// (desiredNumberScheduled 0 in a live status) while GPU nodes of the input run another kernel
/// that no driver DaemonSet of the input serves and no driver pod runs on: an error naming the
/// DaemonSet, its kernel and the nodes' kernels (the nodes' gpu-not-advertised findings name
/// it as their first failing link). With no node in the input a warning (which kernel the GPU
/// nodes run is not shown); a DaemonSet left for a kernel no node runs while the nodes' own
/// kernels are served is not a fault.
fn driver_kernel_pins(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let kernel_of = |ds: &cube_model::objects::DaemonSet| {
        ds.spec
            .template
            .spec
            .node_selector
            .get(crate::gpu::NFD_KERNEL_LABEL)
            .map(str::to_owned)
    };
    let drivers = crate::gpu::driver_daemon_sets(ctx, None);
    let mut out = Vec::new();
    for ds in &drivers {
        let Some(pin) = kernel_of(ds) else {
            continue;
        };
        let from_api = ds.metadata.creation_timestamp.is_some()
            || !ds.metadata.uid.is_empty()
            || cube_model::describe::from_get_table(&ds.metadata);
        if !from_api || ds.status.desired_number_scheduled != 0 {
            continue;
        }
        let o = obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
        let subject = Subject::namespaced("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
        // GPU nodes whose kernel no driver DaemonSet serves
        let stranded: Vec<(&str, &str)> = ctx
            .gpu_evidence()
            .iter()
            .zip(&snap.nodes)
            .filter(|(ev, n)| {
                (ev.has_gpus()
                    || n.metadata
                        .labels
                        .get("nvidia.com/gpu.deploy.driver")
                        .is_some_and(|v| v == "true"))
                    && !n
                        .metadata
                        .labels
                        .get("nvidia.com/gpu.deploy.driver")
                        .is_some_and(|v| v == "pre-installed" || v == "false")
            })
            .filter_map(|(_, n)| node_kernel(n).map(|k| (n, k)))
            .filter(|(n, k)| {
                *k != pin
                    && !drivers.iter().any(|d| match kernel_of(d) {
                        Some(dk) => dk == *k,
                        None => !crate::gpu::exclusion(d, n).excludes(),
                    })
                    && !ctx.pods_on_node(&n.metadata.name).iter().any(|&i| {
                        let p = ctx.pod(i);
                        !p.is_terminal()
                            && matches!(
                                cube_model::gpu::classify_pod(p),
                                Some((cube_model::gpu::GpuComponentRole::Driver, _))
                            )
                    })
            })
            .map(|(n, k)| (n.metadata.name.as_str(), k))
            .take(8)
            .collect();
        let evidence = [
            Evidence::field(
                &o,
                format!(
                    "spec.template.spec.nodeSelector.{}",
                    crate::gpu::NFD_KERNEL_LABEL
                ),
                &pin,
            ),
            Evidence::field(&o, "status.desiredNumberScheduled", "0"),
        ];
        let remedy = format!(
            "the GPU Operator creates a precompiled driver DaemonSet per kernel only when a precompiled driver image exists for that kernel: `kubectl -n {ns} logs deploy/gpu-operator | grep -i -e precompiled -e kernel` says why the new kernel's is missing and `kubectl get nodes -L {k}` lists the kernels; publish or pick a driver image for the new kernel (nvcr.io/nvidia/driver:<branch>-<kernel>-<os>), or set driver.usePrecompiled=false in the ClusterPolicy so the driver is built on the node, or boot the nodes into kernel {pin}",
            ns = ds.metadata.namespace,
            k = crate::gpu::NFD_KERNEL_LABEL,
        );
        if !stranded.is_empty() {
            let nodes: Vec<String> = stranded
                .iter()
                .map(|(n, k)| format!("{n} (kernel {k})"))
                .collect();
            let mut f = Finding::new(
                DevicePluginNotScheduled::ID,
                Severity::Error,
                subject,
                format!(
                    "GPU driver DaemonSet {}/{} is a precompiled driver for kernel {pin} (nodeSelector {}={pin}) and places no pod (desiredNumberScheduled 0), while GPU nodes run another kernel that no driver DaemonSet of the input serves: {}; the driver is never installed there, so the container toolkit, validators and device plugin wait and the nodes advertise no GPU (a kernel upgrade after the operator built the driver)",
                    ds.metadata.namespace,
                    ds.metadata.name,
                    crate::gpu::NFD_KERNEL_LABEL,
                    nodes.join(", ")
                ),
            )
            .with_evidences(evidence);
            for (n, k) in &stranded {
                let field = if ctx.node(n).is_some_and(|node| {
                    node.metadata
                        .labels
                        .contains_key(crate::gpu::NFD_KERNEL_LABEL)
                }) {
                    format!("metadata.labels[{}]", crate::gpu::NFD_KERNEL_LABEL)
                } else {
                    "status.nodeInfo.kernelVersion".to_owned()
                };
                f = f.with_evidence(Evidence::field(obj("Node", "", n), field, *k));
            }
            out.push(f.with_remedy(remedy));
        } else if snap.nodes.is_empty()
            && !drivers
                .iter()
                .any(|d| d.status.desired_number_scheduled > 0)
        {
            out.push(
                Finding::new(
                    DevicePluginNotScheduled::ID,
                    Severity::Warning,
                    subject,
                    format!(
                        "GPU driver DaemonSet {}/{} is a precompiled driver for kernel {pin} and places no pod (desiredNumberScheduled 0), and no other driver DaemonSet of the input places one: no GPU node runs kernel {pin} any more; if the GPU nodes' kernel was upgraded, the operator has no precompiled driver DaemonSet for the new kernel and no driver is installed (the input shows no node to tell)",
                        ds.metadata.namespace, ds.metadata.name
                    ),
                )
                .with_evidences(evidence)
                .with_remedy(remedy),
            );
        }
    }
    out
}

/// The node-affinity terms of the NVIDIA device plugin's Helm chart (v0.15+,
/// NVIDIA/k8s-device-plugin `deployments/helm/nvidia-device-plugin/values.yaml` `affinity`):
/// one of these labels (written by NFD, GFD or the GPU Operator) must be on a node.
const NVIDIA_CHART_AFFINITY: &[(&str, &str)] = &[
    ("feature.node.kubernetes.io/pci-10de.present", "true"),
    ("feature.node.kubernetes.io/cpu-model.vendor_id", "NVIDIA"),
    ("nvidia.com/gpu.present", "true"),
];

/// The NVIDIA device plugin chart of `ds` when it is v0.15 or later (its `helm.sh/chart` label
/// `nvidia-device-plugin-0.15.0`, `app.kubernetes.io/version`, or the image tag `v0.15.0`) and
/// the input shows neither a nodeSelector nor a node affinity for it: the chart's default
/// affinity is then in force but not shown (`kubectl describe daemonset` never prints it).
fn hidden_chart_affinity(ctx: &Context<'_>, ds: &cube_model::objects::DaemonSet) -> Option<String> {
    let found = chart_version_shown(ds);
    if found.is_some() {
        return found
            .filter(|(_, v)| *v >= (0, 15) && v.0 == 0)
            .map(|(s, _)| s);
    }
    // a `kubectl get daemonsets` row shows no label, image or affinity: the chart is told by
    // the objects it installs with the DaemonSet, or by the helm command pasted with it
    let spec = &ds.spec.template.spec;
    if !spec.node_selector.is_empty()
        || spec
            .affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref())
            .is_some()
    {
        return None;
    }
    chart_from_context(ctx, ds)
}

/// The NVIDIA chart v0.15+ of a DaemonSet that shows no version, from the input around it:
/// the chart's MPS control-daemon DaemonSet `<fullname>-mps-control-daemon` next to it (added
/// with the node affinity in v0.15.0: NVIDIA/k8s-device-plugin
/// deployments/helm/nvidia-device-plugin/templates/daemonset-mps-control-daemon.yml), or a
/// pasted `helm install|upgrade ... nvidia-device-plugin` command with `--version 0.15` or
/// later, or none (the latest chart).
fn chart_from_context(ctx: &Context<'_>, ds: &cube_model::objects::DaemonSet) -> Option<String> {
    let name = ds.metadata.name.as_str();
    if !name.contains("nvidia-device-plugin") || name.contains("daemonset") {
        // `nvidia-device-plugin-daemonset` is the static manifest's (no affinity)
        return None;
    }
    let mps = format!("{name}-mps-control-daemon");
    if ctx
        .snapshot()
        .daemon_sets
        .iter()
        .any(|d| d.metadata.namespace == ds.metadata.namespace && d.metadata.name == mps)
    {
        return Some(format!(
            "the Helm chart v0.15 or later: its DaemonSet {mps}, which the chart installs since v0.15.0, is in the input"
        ));
    }
    for log in ctx.logs() {
        // shell line continuations (`\` at the end) joined into one command
        let mut joined: Vec<String> = Vec::new();
        let mut cont = false;
        for line in log.text.lines().take(20_000) {
            let t = line.trim_end();
            let (body, more) = match t.strip_suffix('\\') {
                Some(b) => (b, true),
                None => (t, false),
            };
            match joined.last_mut() {
                Some(last) if cont => {
                    last.push(' ');
                    last.push_str(body.trim());
                }
                _ => joined.push(body.to_owned()),
            }
            cont = more;
        }
        for line in &joined {
            let l = line.trim();
            let Some(at) = l.find("helm ") else {
                continue;
            };
            let cmd = &l[at..];
            if !(cmd.contains(" install ") || cmd.contains(" upgrade "))
                || !cmd.contains("nvidia-device-plugin")
            {
                continue;
            }
            let mut words = cmd.split_whitespace();
            let mut version: Option<String> = None;
            while let Some(w) = words.next() {
                if let Some(v) = w.strip_prefix("--version=") {
                    version = Some(v.to_owned());
                } else if w == "--version" {
                    version = words.next().map(str::to_owned);
                }
            }
            let version = version.map(|v| v.trim_matches(['"', '\'', '`']).to_owned());
            return match version {
                None => Some(
                    "the Helm chart, installed without --version (the latest chart, v0.15 or later)"
                        .to_owned(),
                ),
                Some(v) => {
                    let t = v.trim_start_matches('v');
                    let mut parts = t.split(['.', '-']);
                    let major: u32 = parts.next()?.parse().ok()?;
                    let minor: u32 = parts.next()?.parse().ok()?;
                    (major == 0 && minor >= 15)
                        .then(|| format!("chart nvidia-device-plugin {v} of the helm command in the input"))
                }
            };
        }
    }
    None
}

/// The NVIDIA chart version a DaemonSet shows itself (`helm.sh/chart`,
/// `app.kubernetes.io/version`, the image tag) with its (major, minor), when it shows neither a
/// nodeSelector nor a node affinity.
fn chart_version_shown(ds: &cube_model::objects::DaemonSet) -> Option<(String, (u32, u32))> {
    let spec = &ds.spec.template.spec;
    if !spec.node_selector.is_empty()
        || spec
            .affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref())
            .is_some()
    {
        return None;
    }
    let version = |v: &str| -> Option<(u32, u32)> {
        let v = v.trim_start_matches('v');
        let mut parts = v.split(['.', '-']);
        Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
    };
    let labels = &ds.metadata.labels;
    let chart = labels
        .get("helm.sh/chart")
        .and_then(|c| c.strip_prefix("nvidia-device-plugin-"))
        .map(str::to_owned);
    let app = labels
        .get("app.kubernetes.io/version")
        .filter(|_| ds.metadata.name.contains("nvidia-device-plugin") || chart.is_some())
        .map(str::to_owned);
    let image = spec
        .containers
        .iter()
        .find(|c| c.image.contains("k8s-device-plugin"))
        .and_then(|c| c.image.rsplit_once(':').map(|(_, t)| t.to_owned()));
    let (shown, v) = [
        chart.map(|c| ("chart nvidia-device-plugin-", c)),
        app.map(|a| ("version ", a)),
        image.map(|i| ("image tag ", i)),
    ]
    .into_iter()
    .flatten()
    .find_map(|(what, v)| version(&v).map(|n| (format!("{what}{v}"), n)))?;
    Some((shown, v))
}

/// A plugin DaemonSet whose live status places no pod (desiredNumberScheduled 0) while GPU
/// nodes of the input pass the nodeSelector and tolerations it shows: the controller sees a
/// constraint the input does not show. `kubectl describe daemonset` prints the pod template's
/// Node-Selectors and Tolerations but never its affinity (kubectl `describe.go`
/// `DescribePodTemplate`); the NVIDIA chart puts its NFD/GFD requirement there.
fn hidden_constraint(ctx: &Context<'_>, ds: &cube_model::objects::DaemonSet) -> Option<Finding> {
    let snap = ctx.snapshot();
    let admitted: Vec<(&cube_model::objects::Node, String)> = ctx
        .gpu_evidence()
        .iter()
        .zip(&snap.nodes)
        .filter(|(ev, n)| ev.has_gpus() && !crate::gpu::exclusion(ds, n).excludes())
        .map(|(ev, n)| (n, crate::gpu::claims_text(ev)))
        .collect();
    // every such node advertising GPUs anyway (another plugin or a host service serves it):
    // a warning; a node left dark: an error
    let dark = ctx.gpu_evidence().iter().zip(&snap.nodes).any(|(ev, n)| {
        ev.has_gpus()
            && !crate::gpu::exclusion(ds, n).excludes()
            && ev.allocatable_of(None).is_empty()
    });
    let (first, _) = admitted.first()?;
    let spec = &ds.spec.template.spec;
    let has_affinity = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .is_some();
    let described = ds
        .metadata
        .annotations
        .get(cube_model::describe::STATUS_SHOWN_ANNOTATION)
        .is_some_and(|v| v.contains("describe"));
    let nvidia_chart = ds.metadata.name.contains("nvidia-device-plugin")
        || ds
            .metadata
            .labels
            .get("helm.sh/chart")
            .is_some_and(|c| c.starts_with("nvidia-device-plugin"))
        || spec
            .containers
            .iter()
            .any(|c| c.image.contains("k8s-device-plugin"));
    let nodes: Vec<String> = admitted
        .iter()
        .take(3)
        .map(|(n, claims)| format!("{} ({claims})", n.metadata.name))
        .collect();
    let shown = if described && !has_affinity {
        "`kubectl describe daemonset` does not print the pod template's node affinity"
    } else {
        "the input does not show it"
    };
    let labelled = |n: &cube_model::objects::Node| {
        NVIDIA_CHART_AFFINITY
            .iter()
            .any(|(k, v)| n.metadata.labels.get(k).is_some_and(|x| x == *v))
    };
    let missing_chart_labels = nvidia_chart && !has_affinity && !labelled(first);
    let chart = if missing_chart_labels {
        format!(
            "; the NVIDIA device plugin chart (v0.15+, NVIDIA/k8s-device-plugin deployments/helm/nvidia-device-plugin/values.yaml) requires node affinity on one of {}, which NFD, GFD or the GPU Operator write, and {} carries none of them",
            NVIDIA_CHART_AFFINITY
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(", "),
            first.metadata.name
        )
    } else {
        String::new()
    };
    let o = obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
    let subject = Subject::namespaced("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
    let release = ds
        .metadata
        .labels
        .get("app.kubernetes.io/instance")
        .unwrap_or("nvidia-device-plugin");
    let see = format!(
        "`kubectl -n {} get daemonset {} -o jsonpath='{{.spec.template.spec.affinity}}'` shows the constraint",
        ds.metadata.namespace, ds.metadata.name
    );
    let remedy = if missing_chart_labels {
        format!(
            "{see}; let NFD and GFD label the GPU nodes (`helm upgrade {release} nvdp/nvidia-device-plugin -n {} --reuse-values --set nfd.enabled=true --set gfd.enabled=true`), or label them yourself: `kubectl label node {} nvidia.com/gpu.present=true`",
            ds.metadata.namespace,
            admitted
                .iter()
                .map(|(n, _)| n.metadata.name.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )
    } else {
        format!("{see}; label or untaint the GPU nodes so that constraint admits them")
    };
    Some(
        Finding::new(
            DevicePluginNotScheduled::ID,
            if dark { Severity::Error } else { Severity::Warning },
            subject,
            format!(
                "device plugin {}/{} runs on no node (desiredNumberScheduled 0) although {} GPU node(s) of the input pass the nodeSelector and tolerations it shows ({}): the DaemonSet has a constraint that excludes them ({shown}){chart}",
                ds.metadata.namespace,
                ds.metadata.name,
                admitted.len(),
                nodes.join("; ")
            ),
        )
        .with_evidence(Evidence::field(&o, "status.desiredNumberScheduled", "0"))
        .with_evidences(
            NVIDIA_CHART_AFFINITY
                .iter()
                .filter(|_| missing_chart_labels)
                .map(|(k, _)| {
                    Evidence::field(
                        obj("Node", "", &first.metadata.name),
                        format!("metadata.labels[{k}]"),
                        "<absent>",
                    )
                }),
        )
        .with_remedy(remedy),
    )
}

fn selector_text(ds: &cube_model::objects::DaemonSet) -> String {
    let spec = &ds.spec.template.spec;
    let mut parts: Vec<String> = spec
        .node_selector
        .iter()
        .map(|(k, v)| format!("nodeSelector {k}={v}"))
        .collect();
    if let Some(r) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|na| {
            na.required_during_scheduling_ignored_during_execution
                .as_ref()
        })
    {
        for t in &r.node_selector_terms {
            let e: Vec<String> = t
                .match_expressions
                .iter()
                .map(|e| format!("{} {} [{}]", e.key, e.operator, e.values.join(", ")))
                .collect();
            if !e.is_empty() {
                parts.push(format!("node affinity {}", e.join(", ")));
            }
        }
    }
    parts.join(" and ")
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    const NODE: &str = r#"{"kind":"Node","metadata":{"name":"g1","labels":{"nvidia.com/gpu.present":"true"}},"spec":{"taints":[{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"}]}}"#;

    /// A GPU node with no pod of the plugin a `get pods -A -o wide` listing shows on another
    /// node, the DaemonSet not in the input: a warning naming the node, the plugin, and the
    /// labels and taints that set it apart; nothing when the node has the plugin's pod, or the
    /// listing has no NODE column.
    #[test]
    fn gpu_node_without_the_plugin_pod_that_runs_elsewhere() {
        let nodes = "$ kubectl get nodes --show-labels\nNAME         STATUS   ROLES           AGE   VERSION   LABELS\ncpu-1        Ready    control-plane   30d   v1.28.2   kubernetes.io/hostname=cpu-1,node-role.kubernetes.io/control-plane=\ngpu-node-1   Ready    <none>          30d   v1.28.2   kubernetes.io/hostname=gpu-node-1,nvidia.com/gpu.present=true\ngpu-node-2   Ready    <none>          2d    v1.28.2   kubernetes.io/hostname=gpu-node-2,accelerator=nvidia\n";
        let pods = |node2: &str| {
            format!(
                "$ kubectl get pods -A -o wide\nNAMESPACE     NAME                                   READY   STATUS    RESTARTS   AGE   IP           NODE         NOMINATED NODE   READINESS GATES\nkube-system   nvidia-device-plugin-daemonset-x7k2p   1/1     Running   0          30d   10.244.1.5   gpu-node-1   <none>           <none>\nkube-system   {node2}   1/1     Running   0          2d    10.0.0.12    gpu-node-2   <none>           <none>\n"
            )
        };
        let f = run_rule(
            "device-plugin-not-scheduled",
            &format!("{nodes}{}", pods("kube-proxy-zzq7b                    ")),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.display_name(), "Node/gpu-node-2");
        assert!(
            f[0].message.contains("nvidia-device-plugin-daemonset")
                && f[0].message.contains("gpu-node-1")
                && f[0].message.contains("nvidia.com/gpu.present=true"),
            "{}",
            f[0].message
        );
        assert!(
            run_rule(
                "device-plugin-not-scheduled",
                &format!("{nodes}{}", pods("nvidia-device-plugin-daemonset-b2k4q"))
            )
            .is_empty()
        );
        let no_node_column = "$ kubectl get pods -n kube-system\nNAME                                   READY   STATUS    RESTARTS   AGE\nnvidia-device-plugin-daemonset-x7k2p   1/1     Running   0          30d\n";
        assert!(
            run_rule(
                "device-plugin-not-scheduled",
                &format!("{nodes}{no_node_column}")
            )
            .is_empty()
        );
    }

    fn ds(selector: &str) -> String {
        format!(
            r#"{{"kind":"DaemonSet","metadata":{{"name":"nvidia-device-plugin-daemonset","namespace":"kube-system"}},"spec":{{"template":{{"spec":{{"nodeSelector":{selector},"tolerations":[{{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}}],"containers":[{{"name":"c","image":"nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}}]}}}}}}}}"#
        )
    }

    #[test]
    fn selector_label_missing() {
        let s = format!(
            r#"{{"kind":"List","items":[{NODE},{}]}}"#,
            ds(r#"{"nvidia.com/gpu.deploy.device-plugin":"true"}"#)
        );
        let f = run_rule("device-plugin-not-scheduled", &s);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("lacks label nvidia.com/gpu.deploy.device-plugin=true")
        );
    }

    #[test]
    fn matching_selector_and_toleration() {
        let s = format!(
            r#"{{"kind":"List","items":[{NODE},{}]}}"#,
            ds(r#"{"nvidia.com/gpu.present":"true"}"#)
        );
        assert!(run_rule("device-plugin-not-scheduled", &s).is_empty());
    }

    /// Talos: the node's only GPU evidence is the NVIDIA system extensions' labels; the chart's
    /// DaemonSet, described (no affinity shown), places no pod: the hidden NFD/GFD affinity.
    #[test]
    fn talos_node_and_a_plugin_that_schedules_nowhere() {
        let text = "Name:           nvidia-device-plugin\nNamespace:      kube-system\nSelector:       app.kubernetes.io/name=nvidia-device-plugin\nNode-Selector:  <none>\nLabels:         helm.sh/chart=nvidia-device-plugin-0.18.0\nDesired Number of Nodes Scheduled: 0\nCurrent Number of Nodes Scheduled: 0\nNumber of Nodes Scheduled with Up-to-date Pods: 0\nNumber of Nodes Scheduled with Available Pods: 0\nNumber of Nodes Misscheduled: 0\nPods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed\nPod Template:\n  Labels:  app.kubernetes.io/name=nvidia-device-plugin\n  Containers:\n   nvidia-device-plugin-ctr:\n    Image:      nvcr.io/nvidia/k8s-device-plugin:v0.18.0\n  Tolerations:  nvidia.com/gpu:NoSchedule op=Exists\nEvents:  <none>\n\n$ kubectl get node node-03 --show-labels\nNAME      STATUS   ROLES    AGE   VERSION   LABELS\nnode-03   Ready    <none>   41d   v1.34.1   kubernetes.io/hostname=node-03,extensions.talos.dev/nonfree-kmod-nvidia-production=570.172.08-v1.11.3\n";
        let f = run_rule("device-plugin-not-scheduled", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("node-03")
                && f[0].message.contains("nvidia.com/gpu.present=true")
                && f[0]
                    .message
                    .contains("extensions.talos.dev/nonfree-kmod-nvidia-production"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy
                .contains("kubectl label node node-03 nvidia.com/gpu.present=true")
        );
        // the node labelled for the chart: the affinity admits it, the note about labels goes
        let labelled = text.replace(
            "kubernetes.io/hostname=node-03,",
            "kubernetes.io/hostname=node-03,nvidia.com/gpu.present=true,",
        );
        let f = run_rule("device-plugin-not-scheduled", &labelled);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            !f[0].message.contains("carries none of them"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn nfd_class_prefixed_label() {
        let s = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    feature.node.kubernetes.io/pci-0302_10de.present: \"true\"\n";
        assert_eq!(run_rule("device-plugin-not-scheduled", s).len(), 1);
        let ok = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    feature.node.kubernetes.io/pci-0302_10de.present: \"true\"\n    feature.node.kubernetes.io/pci-10de.present: \"true\"\n";
        assert!(run_rule("device-plugin-not-scheduled", ok).is_empty());
    }
}
