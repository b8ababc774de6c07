//! `device-plugin-not-scheduled`: a device-plugin DaemonSet's nodeSelector / required node
//! affinity / tolerations leave GPU nodes without any device plugin of their vendor (the root
//! cause the nodes' `gpu-not-advertised` findings point to), a plugin that runs on no node, and
//! NFD labels that name the PCI class when no DaemonSet in the input says which label is needed.

use std::collections::BTreeSet;

use cube_model::GpuVendor;
use cube_model::gpu::GpuComponentRole;

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

/// GPU node pools a cloud CLI's output names (`ClusterSnapshot::cloud_pools`) while the
/// DaemonSets the input lists hold no device plugin of their vendor, no pod of one is in the
/// input and no node advertises the vendor's GPUs: the pool's GPUs are never advertised. Said
/// only when the input lists DaemonSets (without them nothing tells whether a plugin runs).
fn cloud_pools_without_plugin(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let mut out = Vec::new();
    let listed_ds = !snap.daemon_sets.is_empty() || snap.kinds_listed.contains("DaemonSet");
    if snap.cloud_pools.is_empty() || !listed_ds {
        return out;
    }
    let mut vendors: Vec<Option<GpuVendor>> = snap.cloud_pools.iter().map(|p| p.vendor).collect();
    vendors.sort();
    vendors.dedup();
    for vendor in vendors {
        let same = |v: Option<GpuVendor>| vendor.is_none() || v.is_none() || v == vendor;
        let plugin_ds = snap.daemon_sets.iter().any(|ds| {
            matches!(cube_model::gpu::classify_daemon_set(ds), Some((GpuComponentRole::DevicePlugin, v)) if same(v))
        });
        let plugin_pod = snap.pods.iter().any(|p| {
            matches!(cube_model::gpu::classify_pod(p), Some((GpuComponentRole::DevicePlugin, v)) if same(v))
        });
        let advertised = snap.nodes.iter().any(|n| {
            let (cap, alloc) = cube_model::gpu::gpu_resources(n);
            alloc.iter().chain(cap.iter()).any(|(k, q)| {
                !q.is_zero() && same(cube_model::gpu::gpu_resource_vendor(k.as_str()))
            })
        });
        if plugin_ds || plugin_pod || advertised {
            continue;
        }
        let pools: Vec<&cube_model::cloudpool::CloudPool> = snap
            .cloud_pools
            .iter()
            .filter(|p| p.vendor == vendor)
            .collect();
        let Some(first) = pools.first() else {
            continue;
        };
        let resource = vendor.map_or("the GPU resource", |v| v.resource_name());
        let remedy = match first.cli.as_str() {
            "gcloud" => "GKE registers nvidia.com/gpu with its own device plugin once the NVIDIA driver is on the node: create the pool with `--accelerator type=...,count=...,gpu-driver-version=default` or apply Google's driver installer DaemonSet (GoogleCloudPlatform/container-engine-accelerators nvidia-driver-installer), then `kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu`".to_owned(),
            _ => format!(
                "install a device plugin for the pool's GPUs: the NVIDIA device plugin (`helm upgrade -i nvdp nvdp/nvidia-device-plugin -n nvidia-device-plugin --create-namespace` from https://nvidia.github.io/k8s-device-plugin, or NVIDIA's GPU Operator when the nodes have no driver){}, then `kubectl describe node <gpu node>` should show {resource} under Allocatable",
                if vendor == Some(GpuVendor::Amd) { "; for AMD GPUs ROCm's k8s-device-plugin" } else { "" }
            ),
        };
        out.push(
            Finding::new(
                DevicePluginNotScheduled::ID,
                Severity::Warning,
                Subject::cluster(""),
                format!(
                    "the input names GPU node pool(s) {} ({}'s output), but none of the {} DaemonSet(s) it lists is a device plugin for them, no device-plugin pod is in the input and no node advertises {resource}: nothing registers the pool's GPUs with the kubelet, so pods requesting {resource} never schedule (the cloud's node pool brings the VM and, at most, the driver; the device plugin is a cluster add-on)",
                    cube_model::cloudpool::list(&pools),
                    first.cli,
                    snap.daemon_sets.len()
                ),
            )
            .with_evidences(pools.iter().take(3).map(|p| {
                Evidence::field(
                    format!("NodePool/{}", if p.name.is_empty() { "?" } else { p.name.as_str() }),
                    if p.accelerator.is_empty() { "instanceType".to_owned() } else { format!("accelerator {}", p.accelerator) },
                    format!("{} ({})", p.instance_type, p.source),
                )
            }))
            .with_remedy(remedy),
        );
    }
    out
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = cloud_pools_without_plugin(ctx);
    let snap = ctx.snapshot();
    // plugins told below as running on no node: the stack finding at the end leaves them
    let mut flagged: Vec<(String, String)> = Vec::new();
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
                && !platform_addon(ctx, ds)
            {
                flagged.push((ds.metadata.namespace.clone(), ds.metadata.name.clone()));
                let vendor = cube_model::gpu::classify_daemon_set(ds).and_then(|(_, v)| v);
                let waiting = pods_waiting_for_gpus(ctx, vendor);
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
                    // pods wait for the GPUs it would advertise: the cause of their Pending
                    if waiting.is_empty() {
                        Severity::Warning
                    } else {
                        Severity::Error
                    },
                    subject.clone(),
                    format!(
                        "device plugin {}/{} runs on no node (desiredNumberScheduled 0){}{}{}{}",
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
                            chart_affinity_text()
                        )),
                        if waiting.is_empty() {
                            String::new()
                        } else {
                            format!(
                                "; pods wait for the GPUs it would advertise: {}",
                                waiting
                                    .iter()
                                    .map(|(p, r)| format!("{p} ({r})"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        }
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
    out.extend(stack_selects_no_node(ctx, &flagged));
    out
}

/// The node label each GPU Operator operand DaemonSet selects (NVIDIA/gpu-operator
/// `assets/state-*/0500_daemonset.yaml` `nodeSelector`, `assets/gpu-feature-discovery/
/// 0500_daemonset.yaml`): the operator sets them on nodes labelled `nvidia.com/gpu.present=true`,
/// which it sets on nodes node feature discovery labelled with an NVIDIA PCI device
/// (controllers/state_manager.go `commonGPULabelKey`, `hasGPULabels`). Used when the input
/// shows such a DaemonSet without its nodeSelector (a `describe` without the line).
const OPERATOR_DEPLOY_LABELS: &[(&str, &str)] = &[
    ("nvidia-driver-daemonset", "nvidia.com/gpu.deploy.driver"),
    (
        "nvidia-container-toolkit-daemonset",
        "nvidia.com/gpu.deploy.container-toolkit",
    ),
    (
        "nvidia-device-plugin-daemonset",
        "nvidia.com/gpu.deploy.device-plugin",
    ),
    (
        "nvidia-operator-validator",
        "nvidia.com/gpu.deploy.operator-validator",
    ),
    (
        "gpu-feature-discovery",
        "nvidia.com/gpu.deploy.gpu-feature-discovery",
    ),
    (
        "nvidia-dcgm-exporter",
        "nvidia.com/gpu.deploy.dcgm-exporter",
    ),
    ("nvidia-dcgm", "nvidia.com/gpu.deploy.dcgm"),
];

/// GPU DaemonSets that select only nodes set up for a special use, for which placing no pod is
/// the normal state on a cluster without such nodes: the GPU Operator's MIG manager
/// (`nvidia.com/gpu.deploy.mig-manager`, set only on MIG-capable GPUs), the MPS control daemon
/// (`nvidia.com/mps.capable`), the vGPU, VFIO, Kata, confidential-computing and sandbox operands
/// (`nvidia.com/gpu.workload.config=vm-passthrough|vm-vgpu`), and the node status exporter
/// (NVIDIA/gpu-operator assets/state-mig-manager, state-mps-control-daemon, state-vgpu-*,
/// state-vfio-manager, state-kata-*, state-cc-manager, state-sandbox-*,
/// state-node-status-exporter).
fn optional_operand(name: &str) -> bool {
    const OPTIONAL: &[&str] = &[
        "mig-manager",
        "mps-control-daemon",
        "vgpu-manager",
        "vgpu-device-manager",
        "vfio-manager",
        "kata-",
        "cc-manager",
        "sandbox",
        "node-status-exporter",
        "kubevirt",
    ];
    OPTIONAL.iter().any(|o| name.contains(o))
}

/// GKE's own device plugin DaemonSets (`kube-system/nvidia-gpu-device-plugin`, since GKE 1.26
/// `nvidia-gpu-device-plugin-{small,medium,large}-{cos,ubuntu}`), which GKE deploys in every
/// cluster whether or not it has GPU nodes (GoogleCloudPlatform/container-engine-accelerators
/// PR 67: "the nvidia-gpu-device-plugin DaemonSet is automatically deployed (regardless of
/// whether GPU nodes are present in the cluster)"): nobody installed them, so their placing no
/// pod says nothing about GPU intent. The bare name is also minikube's old addon, so it counts
/// as GKE's only when the input shows GKE (a GKE node, or GKE's own DaemonSets beside it).
fn platform_addon(ctx: &Context<'_>, ds: &cube_model::objects::DaemonSet) -> bool {
    let name = ds.metadata.name.as_str();
    if ds.metadata.namespace != "kube-system" || !name.starts_with("nvidia-gpu-device-plugin") {
        return false;
    }
    let sized = ["-cos", "-ubuntu"].iter().any(|s| name.ends_with(s));
    let gke = || {
        ctx.snapshot()
            .nodes
            .iter()
            .any(|n| crate::gpu::managed_platform(n) == Some(crate::gpu::Platform::Gke))
            || ctx.snapshot().daemon_sets.iter().any(|d| {
                d.metadata.namespace == "kube-system"
                    && (d.metadata.name.starts_with("gke-")
                        || d.metadata.name.ends_with("-gke")
                        || d.metadata.name.starts_with("fluentbit-gke")
                        || d.metadata.name == "pdcsi-node")
            })
            || ds
                .spec
                .template
                .spec
                .containers
                .iter()
                .any(|c| c.image.contains("gke-release"))
    };
    sized || gke()
}

/// Pods that wait for a GPU resource of `vendor` (any vendor when `None`): Pending on no node
/// with a GPU resource in their effective requests, or named by a FailedScheduling event
/// `Insufficient <GPU resource>` (a `kubectl get pods` row shows no requests). At most 8.
fn pods_waiting_for_gpus(ctx: &Context<'_>, vendor: Option<GpuVendor>) -> Vec<(String, String)> {
    let snap = ctx.snapshot();
    let mut out: Vec<(String, String)> = Vec::new();
    let wanted = |res: &str| {
        cube_model::gpu::gpu_resource_vendor(res).is_some_and(|v| vendor.is_none_or(|w| w == v))
    };
    for (i, p) in snap.pods.iter().enumerate() {
        if p.status.phase != "Pending" || !p.spec.node_name.is_empty() || ctx.pod_finished(p) {
            continue;
        }
        if cube_model::gpu::classify_pod(p).is_some() {
            continue;
        }
        if let Some((res, _)) = ctx
            .pod_requests(i)
            .iter()
            .find(|(k, q)| !q.is_zero() && wanted(k.as_str()))
        {
            let name = if p.metadata.namespace.is_empty() {
                p.metadata.name.clone()
            } else {
                format!("{}/{}", p.metadata.namespace, p.metadata.name)
            };
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, res.to_string()));
            }
        }
    }
    for e in &snap.events {
        if e.reason != "FailedScheduling" || e.involved_object.kind != "Pod" {
            continue;
        }
        let Some(res) = e.message.split("Insufficient ").skip(1).find_map(|rest| {
            let r: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | '.' | ';'))
                .collect();
            wanted(&r).then_some(r)
        }) else {
            continue;
        };
        // a pod the input shows bound or finished no longer waits
        if snap.pods.iter().any(|p| {
            p.metadata.name == e.involved_object.name
                && (p.metadata.namespace == e.involved_object.namespace
                    || p.metadata.namespace.is_empty()
                    || e.involved_object.namespace.is_empty())
                && (!p.spec.node_name.is_empty()
                    || ctx.pod_finished(p)
                    || p.status.phase == "Running")
        }) {
            continue;
        }
        let name = if e.involved_object.namespace.is_empty() {
            e.involved_object.name.clone()
        } else {
            format!("{}/{}", e.involved_object.namespace, e.involved_object.name)
        };
        if !out
            .iter()
            .any(|(n, _)| *n == name || n.ends_with(&format!("/{name}")))
        {
            out.push((name, res));
        }
    }
    out.truncate(8);
    out
}

/// The role of a GPU-stack DaemonSet in words, and its rank when choosing the one to name
/// first (the component everything else waits for comes first).
fn stack_role(ds: &cube_model::objects::DaemonSet) -> Option<(&'static str, u8)> {
    let name = ds.metadata.name.as_str();
    if optional_operand(name) {
        return None;
    }
    let (role, _) = cube_model::gpu::classify_daemon_set(ds)?;
    Some(match role {
        GpuComponentRole::DevicePlugin => ("device plugin", 0),
        GpuComponentRole::Driver => ("GPU driver", 1),
        GpuComponentRole::FeatureDiscovery => ("GPU feature discovery", 4),
        GpuComponentRole::Operand if name.contains("toolkit") => ("container toolkit", 2),
        GpuComponentRole::Operand if name.contains("validator") => ("GPU Operator validator", 3),
        GpuComponentRole::Operand if name.contains("dcgm") => ("DCGM exporter", 5),
        _ => return None,
    })
}

/// A live status (from the API, a `kubectl get daemonsets` row or a `describe` with its status
/// lines): a manifest's status is all zeros and says nothing.
fn live_status(ds: &cube_model::objects::DaemonSet) -> bool {
    ds.metadata.creation_timestamp.is_some()
        || !ds.metadata.uid.is_empty()
        || cube_model::describe::from_get_table(&ds.metadata)
}

/// The false all-clear of a GPU stack that runs nowhere: GPU DaemonSets of the input (a device
/// plugin of any vendor, the GPU Operator's driver, container toolkit, validator, GFD or DCGM
/// exporter, a driver installer) whose live status places no pod (desiredNumberScheduled 0),
/// while no node of the input shows any GPU evidence and no GPU DaemonSet of the same vendor
/// places a pod anywhere. Someone installed a GPU component, so GPU nodes are expected: either
/// the GPU nodes lack the label the DaemonSets select (nvkind / kind workers without
/// `nvidia.com/gpu.present`, HAMi's `gpu=on`, NFD labels the GPU Operator waits for) or no GPU
/// node has joined. One finding per vendor, on the component the others wait for (device
/// plugin, then driver, toolkit, validator), naming its selector term, the label the nodes
/// lack, and the other GPU DaemonSets at 0; an error when pods wait for that vendor's GPU
/// resource (Pending, or FailedScheduling `Insufficient`), else a warning.
///
/// Kept quiet, from the healthy variants in public reports: GKE's own
/// `nvidia-gpu-device-plugin*` DaemonSets on a cluster without GPU nodes (GKE deploys them
/// everywhere: [`platform_addon`]); operands for special nodes only (MIG manager, MPS control
/// daemon, vGPU/VFIO/Kata/sandbox: [`optional_operand`]); a precompiled driver DaemonSet left
/// for an old kernel while another driver DaemonSet places pods (the WIP kernel-pin finding
/// covers the stranded case); any stack with a sibling that places pods (its GPU nodes exist,
/// outside the input); a DaemonSet already reported by the plugin finding above (`flagged`).
fn stack_selects_no_node(ctx: &Context<'_>, flagged: &[(String, String)]) -> Vec<Finding> {
    let snap = ctx.snapshot();
    if ctx.gpu_evidence().iter().any(|ev| ev.has_gpus()) {
        return Vec::new();
    }
    let stack: Vec<(&cube_model::objects::DaemonSet, Option<GpuVendor>, &str, u8)> = snap
        .daemon_sets
        .iter()
        .filter(|ds| live_status(ds) && !platform_addon(ctx, ds))
        .filter_map(|ds| {
            let (what, rank) = stack_role(ds)?;
            let vendor = cube_model::gpu::classify_daemon_set(ds).and_then(|(_, v)| v);
            Some((ds, vendor, what, rank))
        })
        .collect();
    // every GPU DaemonSet that places a pod, optional operands included (a GPU Operator set up
    // for VMs runs its vGPU manager or sandbox plugin while the container operands stay at 0:
    // NVIDIA/gpu-operator#2365)
    let running: Vec<Option<GpuVendor>> = snap
        .daemon_sets
        .iter()
        .filter(|ds| ds.status.desired_number_scheduled > 0 || !live_status(ds))
        .filter_map(|ds| match cube_model::gpu::classify_daemon_set(ds) {
            Some((GpuComponentRole::NfdWorker, _)) | None => None,
            Some((_, v)) => Some(v),
        })
        .collect();
    let mut out = Vec::new();
    let vendors: BTreeSet<Option<GpuVendor>> = stack.iter().map(|(_, v, _, _)| *v).collect();
    let several = vendors.len() > 1;
    for vendor in vendors {
        // a DaemonSet of unknown vendor goes with any vendor
        let group: Vec<&(&cube_model::objects::DaemonSet, Option<GpuVendor>, &str, u8)> = stack
            .iter()
            .filter(|(_, v, _, _)| *v == vendor || (vendor.is_some() && v.is_none()))
            .collect();
        if vendor.is_none() && several {
            continue; // told with the vendor's own group
        }
        if running
            .iter()
            .any(|v| *v == vendor || v.is_none() || vendor.is_none())
        {
            continue;
        }
        if group.iter().any(|(ds, ..)| {
            flagged
                .iter()
                .any(|(ns, n)| *ns == ds.metadata.namespace && *n == ds.metadata.name)
        }) {
            continue;
        }
        let Some(&&(ds, _, what, _)) = group.iter().min_by_key(|(ds, _, _, rank)| {
            (
                *rank,
                ds.metadata.namespace.as_str(),
                ds.metadata.name.as_str(),
            )
        }) else {
            continue;
        };
        out.push(stack_finding(ctx, ds, what, vendor, &group));
    }
    out
}

/// The finding of [`stack_selects_no_node`] for one vendor's stack, on `ds`.
fn stack_finding(
    ctx: &Context<'_>,
    ds: &cube_model::objects::DaemonSet,
    what: &str,
    vendor: Option<GpuVendor>,
    group: &[&(&cube_model::objects::DaemonSet, Option<GpuVendor>, &str, u8)],
) -> Finding {
    let snap = ctx.snapshot();
    let (ns, name) = (&ds.metadata.namespace, &ds.metadata.name);
    let o = obj("DaemonSet", ns, name);
    let spec = &ds.spec.template.spec;
    let shown = selector_text(ds);
    let operator_label = OPERATOR_DEPLOY_LABELS
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, l)| *l)
        .filter(|_| spec.node_selector.is_empty());
    let chart = hidden_chart_affinity(ctx, ds);
    // the selector term, as shown or as upstream writes it
    let term = if !shown.is_empty() {
        format!("it selects {shown}")
    } else if let Some(l) = operator_label {
        format!(
            "it selects nodeSelector {l}=true (the GPU Operator's DaemonSet, NVIDIA/gpu-operator assets; the input does not show it)"
        )
    } else if let Some(c) = &chart {
        format!(
            "its chart ({c}) requires through node affinity one of {}, which `kubectl get daemonset` and `kubectl describe daemonset` do not print",
            chart_affinity_text()
        )
    } else {
        "it shows no nodeSelector, so a node affinity the input does not show (`kubectl get daemonset` and `kubectl describe daemonset` never print it) excludes every node".to_owned()
    };
    // the labels the nodes lack
    let mut lacking: Vec<String> = Vec::new();
    let mut per_node: Vec<String> = Vec::new();
    for n in snap.nodes.iter().take(64) {
        let ex = crate::gpu::exclusion(ds, n);
        for (k, v) in ex.needed_labels() {
            let l = v.map_or(k.clone(), |v| format!("{k}={v}"));
            if !lacking.contains(&l) {
                lacking.push(l);
            }
        }
        if per_node.len() < 3 && ex.excludes() {
            per_node.push(format!("{}: {}", n.metadata.name, ex.describe()));
        }
    }
    if lacking.is_empty() {
        if let Some(l) = operator_label {
            lacking.push(format!("{l}=true"));
        } else if chart.is_some() {
            lacking.push("nvidia.com/gpu.present=true".to_owned());
        } else {
            lacking.extend(spec.node_selector.iter().map(|(k, v)| format!("{k}={v}")));
        }
    }
    let nodes_text = match snap.nodes.len() {
        0 => "the input has no node list".to_owned(),
        1 => format!("its only node {} shows no GPU", snap.nodes[0].metadata.name),
        n => format!("none of its {n} nodes shows a GPU"),
    };
    let others: Vec<String> = group
        .iter()
        .filter(|(d, ..)| !std::ptr::eq(*d, ds))
        .take(8)
        .map(|(d, _, w, _)| format!("{}/{} ({w})", d.metadata.namespace, d.metadata.name))
        .collect();
    let waiting = pods_waiting_for_gpus(ctx, vendor);
    let res = vendor.map_or("nvidia.com/gpu", GpuVendor::resource_name);
    let mut msg = format!(
        "GPU DaemonSet {ns}/{name} ({what}) places no pod (desiredNumberScheduled 0) and {nodes_text}: {term}{}{}; someone installed a GPU component, so GPU nodes are expected here, and none is set up for it: either the GPU nodes lack the label it selects, or no GPU node has joined (a node pool scaled to zero counts until one does)",
        if lacking.is_empty() {
            String::new()
        } else {
            format!(
                ", and {} {}",
                if snap.nodes.is_empty() {
                    "a GPU node needs"
                } else {
                    "the nodes lack"
                },
                lacking.join(", ")
            )
        },
        if per_node.is_empty() {
            String::new()
        } else {
            format!(" ({})", per_node.join("; "))
        }
    );
    if !others.is_empty() {
        msg.push_str(&format!(
            "; the other GPU DaemonSets place no pod either: {}",
            others.join(", ")
        ));
    }
    if !waiting.is_empty() {
        msg.push_str(&format!(
            "; pods wait for {res} meanwhile: {}",
            waiting
                .iter()
                .map(|(p, r)| format!("{p} ({r})"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut f = Finding::new(
        DevicePluginNotScheduled::ID,
        if waiting.is_empty() {
            Severity::Warning
        } else {
            Severity::Error
        },
        Subject::namespaced("DaemonSet", ns, name),
        msg,
    )
    .with_evidence(Evidence::field(&o, "status.desiredNumberScheduled", "0"));
    for (k, v) in &spec.node_selector {
        f = f.with_evidence(Evidence::field(
            &o,
            format!("spec.template.spec.nodeSelector.{k}"),
            v,
        ));
    }
    for (d, ..) in group.iter().filter(|(d, ..)| !std::ptr::eq(*d, ds)).take(8) {
        f = f.with_evidence(Evidence::field(
            obj("DaemonSet", &d.metadata.namespace, &d.metadata.name),
            "status.desiredNumberScheduled",
            "0",
        ));
    }
    for (p, r) in &waiting {
        let (pns, pn) = p.split_once('/').unwrap_or(("", p.as_str()));
        f = f.with_evidence(Evidence::field(obj("Pod", pns, pn), "waits for", r));
    }
    let node = if snap.nodes.len() == 1 {
        crate::rules::shell_word(&snap.nodes[0].metadata.name)
    } else {
        "<gpu-node>".to_owned()
    };
    let operator_managed = lacking
        .iter()
        .any(|l| l.starts_with("nvidia.com/gpu.deploy."));
    let mut fixes: Vec<String> = Vec::new();
    if operator_managed {
        // NVIDIA/gpu-operator controllers/state_manager.go `gpuNodeLabels` / `hasGPULabels`:
        // the operator labels a node as a GPU node only from NFD's PCI labels
        fixes.push("the GPU Operator sets the nvidia.com/gpu.deploy.* labels (and nvidia.com/gpu.present) only on nodes node feature discovery labelled feature.node.kubernetes.io/pci-10de.present=true (or pci-0302_10de / pci-0300_10de): `kubectl get nodes -L feature.node.kubernetes.io/pci-10de.present,nvidia.com/gpu.present` shows which have them; NFD's worker must run on the GPU nodes (`kubectl get pods -A -o wide | grep -i node-feature-discovery`, with tolerations for their taints), and the operator's log says what it found (`kubectl -n gpu-operator logs deploy/gpu-operator | grep -i -e nfd -e label`)".to_owned());
    } else if chart.is_some()
        || lacking
            .iter()
            .any(|l| l.starts_with("nvidia.com/gpu.present"))
    {
        fixes.push(format!(
            "label the GPU nodes (on kind / nvkind the workers): `kubectl label node {node} nvidia.com/gpu.present=true`"
        ));
        let release = ds
            .metadata
            .labels
            .get("app.kubernetes.io/instance")
            .unwrap_or("nvidia-device-plugin");
        if chart.is_some() {
            fixes.push(format!(
                "or let the chart's NFD and GFD label them: `helm upgrade {} nvdp/nvidia-device-plugin -n {} --reuse-values --set nfd.enabled=true --set gfd.enabled=true`",
                crate::rules::shell_word(release),
                crate::rules::shell_word(ns)
            ));
        }
    } else if lacking.iter().any(|l| l.contains('=')) {
        fixes.push(format!(
            "label the GPU nodes so it selects them: `kubectl label node {node} {}`",
            lacking
                .iter()
                .filter(|l| l.contains('='))
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    fixes.push(format!(
        "`kubectl -n {} get daemonset {} -o jsonpath='{{.spec.template.spec.nodeSelector}} {{.spec.template.spec.affinity}}'` shows what it selects and `kubectl get nodes --show-labels` what the nodes carry; if the GPU nodes have not joined yet, check the node pool (or the autoscaler's scale-up events of the waiting pods)",
        crate::rules::shell_word(ns),
        crate::rules::shell_word(name)
    ));
    f.with_remedy(fixes.join("; "))
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
            chart_affinity_text(),
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
        // terms are ORed, the expressions of one term ANDed (upstream NodeSelector semantics)
        let terms: Vec<String> = r
            .node_selector_terms
            .iter()
            .map(|t| {
                t.match_expressions
                    .iter()
                    .map(|e| format!("{} {} [{}]", e.key, e.operator, e.values.join(", ")))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .filter(|e| !e.is_empty())
            .collect();
        if !terms.is_empty() {
            parts.push(format!("node affinity {}", terms.join(" or ")));
        }
    }
    parts.join(" and ")
}

/// The labels the NVIDIA device-plugin chart's node affinity admits, as `key=value` joined by
/// ", " (alternatives: any one of them admits a node).
fn chart_affinity_text() -> String {
    NVIDIA_CHART_AFFINITY
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
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

    /// GPU DaemonSets that select no node while no node shows a GPU (the false all-clear of
    /// issue 8): the GPU Operator's operands alone, a `describe` of the chart's plugin with the
    /// nodes listed, and a pending GPU pod (an error); the healthy variants stay quiet (GKE's
    /// own plugins, optional operands at 0 beside running ones, a VM-only operator set-up).
    #[test]
    fn gpu_stack_that_selects_no_node() {
        let rule = "device-plugin-not-scheduled";
        let nodes = "$ kubectl get nodes\nNAME      STATUS   ROLES           AGE   VERSION\nnode-01   Ready    control-plane   41d   v1.28.2\nnode-02   Ready    <none>          41d   v1.28.2\n";
        let operator = "$ kubectl get ds -n gpu-operator\nNAME                                         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                                   AGE\ngpu-operator-node-feature-discovery-worker   2         2         2       2            2           <none>                                          10m\nnvidia-container-toolkit-daemonset           0         0         0       0            0           nvidia.com/gpu.deploy.container-toolkit=true    10m\nnvidia-driver-daemonset                      0         0         0       0            0           nvidia.com/gpu.deploy.driver=true               10m\nnvidia-mig-manager                           0         0         0       0            0           nvidia.com/gpu.deploy.mig-manager=true          10m\n";
        let f = run_rule(rule, &format!("{operator}{nodes}"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Warning);
        assert_eq!(
            f[0].subject.display_name(),
            "DaemonSet/gpu-operator/nvidia-driver-daemonset"
        );
        assert!(
            f[0].message.contains("nvidia.com/gpu.deploy.driver=true")
                && f[0].message.contains("nvidia-container-toolkit-daemonset")
                && !f[0].message.contains("mig-manager"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("pci-10de.present"), "{}", f[0].remedy);
        // a GPU pod waits: an error naming it
        let pending = "$ kubectl describe pod gpu-test\nName:         gpu-test\nNamespace:    default\nStatus:       Pending\nContainers:\n  cuda:\n    Image:      nvcr.io/nvidia/k8s/cuda-sample:vectoradd-cuda12.5.0\n    Limits:\n      nvidia.com/gpu:  1\n";
        let f = run_rule(rule, &format!("{operator}{nodes}{pending}"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Error);
        assert!(
            f[0].message.contains("default/gpu-test"),
            "{}",
            f[0].message
        );
        // a sibling that places pods: its GPU nodes exist outside the input
        let running = operator.replace(
            "nvidia-mig-manager                           0         0         0       0            0 ",
            "nvidia-mig-manager                           1         1         1       1            1 ",
        );
        assert!(run_rule(rule, &format!("{running}{nodes}")).is_empty());
        // GKE's own plugins, deployed in every GKE cluster
        let gke = "$ kubectl get ds -n kube-system\nNAME                                 DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR            AGE\nfluentbit-gke                        1         1         1       1            1           kubernetes.io/os=linux   5h\nnvidia-gpu-device-plugin-small-cos   0         0         0       0            0           <none>                   5h\n";
        assert!(run_rule(rule, &format!("{gke}{nodes}")).is_empty());
        assert!(run_rule(rule, gke).is_empty());
        // the chart's plugin, described, with nodes that carry none of its affinity labels
        let described = "Name:           nvidia-device-plugin\nNamespace:      nvidia\nSelector:       app.kubernetes.io/name=nvidia-device-plugin\nNode-Selector:  <none>\nLabels:         helm.sh/chart=nvidia-device-plugin-0.15.0\nDesired Number of Nodes Scheduled: 0\nCurrent Number of Nodes Scheduled: 0\nNumber of Nodes Scheduled with Up-to-date Pods: 0\nNumber of Nodes Scheduled with Available Pods: 0\nNumber of Nodes Misscheduled: 0\nPods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed\nPod Template:\n  Labels:  app.kubernetes.io/name=nvidia-device-plugin\n  Containers:\n   nvidia-device-plugin-ctr:\n    Image:      nvcr.io/nvidia/k8s-device-plugin:v0.15.0\nEvents:  <none>\n\n";
        let f = run_rule(rule, &format!("{described}{nodes}"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("nvidia.com/gpu.present=true"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy
                .contains("kubectl label node <gpu-node> nvidia.com/gpu.present=true"),
            "{}",
            f[0].remedy
        );
    }

    #[test]
    fn nfd_class_prefixed_label() {
        let s = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    feature.node.kubernetes.io/pci-0302_10de.present: \"true\"\n";
        assert_eq!(run_rule("device-plugin-not-scheduled", s).len(), 1);
        let ok = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    feature.node.kubernetes.io/pci-0302_10de.present: \"true\"\n    feature.node.kubernetes.io/pci-10de.present: \"true\"\n";
        assert!(run_rule("device-plugin-not-scheduled", ok).is_empty());
    }

    /// Hold-out case (polyaxon#296): an AKS GPU pool (`az aks list`, Standard_NC6) next to a
    /// DaemonSet listing without any device plugin was 100/100.
    #[test]
    fn a_cloud_gpu_pool_without_a_plugin_among_the_listed_daemonsets() {
        let aks = "$ az aks list\n[\n  {\n    \"agentPoolProfiles\": [ {\"count\": 1, \"name\": \"nodepool1\", \"vmSize\": \"Standard_NC6\"} ]\n  }\n]\n\n$ kubectl get ds --all-namespaces\nNAMESPACE     NAME         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                 AGE\nkube-system   kube-proxy   1         1         1       1            1           beta.kubernetes.io/os=linux   2h\n";
        let f = crate::rules::testutil::run_rule("device-plugin-not-scheduled", aks);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Warning);
        assert!(f[0].message.contains("Standard_NC6") && f[0].message.contains("nvidia.com/gpu"));
        let with_plugin = format!(
            "{aks}kube-system   nvidia-device-plugin-daemonset   1         1         1       1            1           <none>   2h\n"
        );
        assert!(
            crate::rules::testutil::run_rule("device-plugin-not-scheduled", &with_plugin)
                .iter()
                .all(|f| !f.message.contains("Standard_NC6")),
        );
        // no DaemonSet listed: nothing tells whether a plugin runs
        let pools_only = aks.split("\n\n$ kubectl").next().unwrap();
        assert!(
            crate::rules::testutil::run_rule("device-plugin-not-scheduled", pools_only).is_empty()
        );
    }
}
