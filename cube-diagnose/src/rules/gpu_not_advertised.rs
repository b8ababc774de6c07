//! `gpu-not-advertised`: a GPU node (any source of the GPU evidence model) whose reporting
//! chain breaks: it advertises no GPU resource of its vendor, or allocatable is 0. The finding
//! names the first failing link (see [`crate::gpu`]) and, when the root cause is another
//! object's (the device-plugin DaemonSet, a NotReady node), points to that finding. Also
//! device-plugin logs and scheduler texts that show the same.

use std::collections::BTreeSet;

use cube_quota::schedmsg::{Reason, ReasonKind};

use crate::classify::{SignalKind, events::parse_reasons};
use crate::gpu::{ChainLink, claims_text, gpu_chains, source_evidence};
use crate::resources::is_gpu_resource;
use crate::rules::{node_subject, obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    GpuNotAdvertised,
    "gpu-not-advertised",
    Gpu,
    Error,
    "A node has GPUs by some source of the GPU evidence model (GPU feature discovery / GPU Operator / NFD / AMD / Intel labels, cloud labels such as accelerator=, cloud.google.com/gke-accelerator, karpenter.k8s.aws/instance-gpu-*, a GPU instance type, HAMi annotations, CubeStudio gpu=true, SkyPilot / CoreWeave / cluster-autoscaler GPU labels, the legacy alpha.kubernetes.io/nvidia-gpu-name, a GPU taint, GPU component pods, running pods requesting GPUs, a GPU resource registered at 0, pool siblings or identical-hardware siblings that advertise GPUs (a warning, the weakest evidence), nvidia-smi / rocm-smi output pasted with the node or given as its own input and linked to it; extendable with Config gpuLabels) but its reporting chain breaks: no GPU resource of its vendor in status.allocatable, or allocatable 0 while capacity is not (detected but unhealthy). A node whose device-plugin resources show capacity above allocatable (devices the plugin reports unhealthy, any vendor: nvidia.com/gpu, MIG slices, amd.com/gpu, gpu.intel.com/*, habana.ai/gaudi, ...) gets a partial-availability warning naming capacity, allocatable and what is in use (pods' effective requests or describe node's Allocated resources). On GKE, AKS, EKS and OKE a GPU node that advertises nothing while the input shows no device plugin names the platform's usual first broken link (GKE: its own plugin waiting for the driver, the nvidia-driver-installer DaemonSet and the cloud.google.com/gke-gpu-driver-version label; AKS / EKS: the device plugin the platform does not install, with the tolerations the node's taints need; OKE: the NvidiaGpuPlugin add-on), and says when a GPU taint is the only GPU evidence. The finding names the first failing link: node not Ready (points to node-not-ready), the device-plugin DaemonSet's selector or tolerations (points to device-plugin-not-scheduled), the failing pod (driver installer, container toolkit, GPU Operator validator, or the plugin pod, with its waiting reason), nothing registered, zero devices, or the HAMi handshake. Device-plugin logs (NVML cannot load; AMD /dev/kfd missing), HAMi 'node unregistered' and scheduler texts where every candidate node lacks the GPU resource and preemption finds no victims lead to the same finding. GPU component pods of a `kubectl get pods [-A] [-o wide]` listing or `describe pod` on nodes whose resources the input does not show (driver, container toolkit, GPU Operator validator or device-plugin pod in CrashLoopBackOff, Error, Init:x/y, Init:CrashLoopBackOff, ImagePullBackOff, ContainerCreating) name the node from the NODE column (or, without one, the deepest failing pod) and the init container it is stuck in (from Init:x/y and the upstream manifests, or a BackOff event); a warning when only validators fail while the plugin pod is Ready, or when the plugin fails on a node nothing else calls a GPU node while it is Ready elsewhere. A listing without GPU component pods says nothing.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut advertised: BTreeSet<String> = BTreeSet::new();
    // nodes whose resources the input shows (a `get nodes` row or a bare name shows none)
    let node_data = ctx
        .snapshot()
        .nodes
        .iter()
        .any(|n| !n.status.allocatable.is_empty() || !n.status.capacity.is_empty());
    for n in &ctx.snapshot().nodes {
        for (k, q) in &n.status.allocatable {
            if is_gpu_resource(k.as_str()) && !q.is_zero() {
                advertised.insert(k.to_string());
            }
        }
    }
    for chain in gpu_chains(ctx) {
        let Some(f) = &chain.failure else {
            continue;
        };
        if f.link == ChainLink::Free {
            continue;
        }
        let n = chain.node;
        let res = chain.resource();
        let what = if f.link == ChainLink::Allocatable {
            String::new()
        } else if chain.evidence.allocatable_of(chain.vendor).is_empty() {
            let legacy = cube_model::resource::names::LEGACY_NVIDIA_GPU;
            if chain
                .evidence
                .allocatable
                .get(legacy)
                .is_some_and(|q| !q.is_zero())
            {
                format!(
                    " but advertises no {res} in status.allocatable, only the legacy {legacy} of the kubelet's Accelerators feature gate (pods asking for {res} cannot use it)"
                )
            } else {
                // a device resource of the plugin registered at 0 names itself
                let (cap, alloc) = cube_model::gpu::gpu_resources(n);
                let zero: Vec<String> = cap
                    .iter()
                    .chain(alloc.iter())
                    .filter(|(_, q)| q.is_zero())
                    .map(|(k, _)| k.to_string())
                    .collect::<BTreeSet<_>>()
                    .into_iter()
                    .collect();
                if zero.is_empty() {
                    format!(" but advertises no {res} in status.allocatable")
                } else if f.detail.contains(" with 0 devices") {
                    // the failure says it (with both readings of the 0)
                    String::new()
                } else {
                    format!(" but registers {} at 0", zero.join(", "))
                }
            }
        } else {
            String::new()
        };
        let sibling = if chain.evidence.from_hardware_siblings_only() {
            " (known only from identical-hardware siblings, the weakest evidence: no label says this node has GPUs; if it has none, this finding does not apply)"
        } else if chain.evidence.from_siblings_only() {
            " (known only from pool siblings)"
        } else {
            ""
        };
        // the registered-at-0 resource as the only claim names itself once, not as a claim and
        // again as the failure (fresh-user report F33)
        let only_registered = chain.evidence.claims().next().is_some()
            && chain
                .evidence
                .claims()
                .all(|s| s.kind == cube_model::gpu::GpuSourceKind::RegisteredResource);
        let mut message = if only_registered {
            format!(
                "node {} had GPUs registered by a device plugin{sibling}; first broken link ({}): {}",
                n.metadata.name,
                f.link.as_str(),
                f.detail
            )
        } else {
            format!(
                "node {} has GPUs{sibling} ({}){what}; first broken link ({}): {}",
                n.metadata.name,
                claims_text(chain.evidence),
                f.link.as_str(),
                f.detail
            )
        };
        if f.link == ChainLink::Allocatable {
            // the registered resource as the only claim is the capacity the detail names
            // already: no dangling "GPUs known from" (fresh-user report G2)
            let claims = claims_text(chain.evidence);
            message = format!(
                "node {} {}{}",
                n.metadata.name,
                f.detail.trim_start_matches("it "),
                if only_registered || claims.is_empty() {
                    String::new()
                } else {
                    format!("; GPUs known from {claims}")
                }
            );
        }
        // GFD's `-MIG-INVALID` product: the MIG layout is the cause (one cause, one remedy:
        // gpu-mig-misconfigured carries it)
        let mig_invalid = n
            .metadata
            .labels
            .get("nvidia.com/gpu.product")
            .filter(|p| p.ends_with("-MIG-INVALID"));
        // NVIDIA/kubevirt-gpu-device-plugin registers `nvidia.com/<model>` for the GPUs bound
        // to vfio-pci only (pkg/device_plugin: devices found under the vfio-pci driver)
        let (cap, alloc) = cube_model::gpu::gpu_resources(n);
        let kubevirt = cap.iter().chain(alloc.iter()).find_map(|(k, _)| {
            k.as_str()
                .strip_prefix("nvidia.com/")
                .filter(|m| m.contains('_') && m.chars().any(|c| c.is_ascii_uppercase()))
                .map(|_| k.to_string())
        });
        let remedy = match mig_invalid {
            Some(p) => {
                message.push_str(&format!(
                    "; the cause is the MIG layout ({p} under the single strategy): see gpu-mig-misconfigured"
                ));
                "fix the MIG layout or strategy as the gpu-mig-misconfigured finding of this node says; the plugin then advertises the GPUs".to_owned()
            }
            None => match &kubevirt {
                Some(k) if f.link != ChainLink::Allocatable => format!(
                    "KubeVirt's GPU device plugin counts only GPUs bound to vfio-pci for {k}: on the node check `lspci -nnk -d 10de:` (\"Kernel driver in use: vfio-pci\"), bind the GPUs to vfio-pci (IOMMU enabled in the kernel command line, the nvidia driver not loaded for them) and restart the nvidia-kubevirt-gpu-dp pod"
                ),
                _ => f.remedy.clone(),
            },
        };
        out.push(
            Finding::new(GpuNotAdvertised::ID, f.severity, node_subject(n), message)
                .with_evidences({
                    // the chain's numbers after the sources, each field once (a registered
                    // resource is a source and the capacity number both)
                    let mut ev = source_evidence(n, chain.evidence, 6);
                    for e in &f.evidence {
                        if !ev.contains(e) {
                            ev.push(e.clone());
                        }
                    }
                    ev
                })
                .with_remedy(remedy),
        );
    }
    // other accelerators' device-plugin resources (Habana `habana.ai/gaudi`, AWS Neuron,
    // FPGAs) with devices reported unhealthy: the same partial availability as a GPU's
    for n in &ctx.snapshot().nodes {
        let partial: Vec<(String, cube_model::Quantity, cube_model::Quantity)> =
            crate::gpu::partial_devices(n)
                .into_iter()
                .filter(|(k, _, _)| cube_model::gpu::gpu_resource_vendor(k).is_none())
                .collect();
        if partial.is_empty() {
            continue;
        }
        let (parts, evidence) = crate::gpu::partial_devices_told(ctx, n, &partial, false);
        out.push(
            Finding::new(
                GpuNotAdvertised::ID,
                Severity::Warning,
                node_subject(n),
                format!(
                    "node {} has fewer allocatable devices than capacity, so pods see only part of its accelerators (Insufficient while capacity shows more): {}",
                    n.metadata.name,
                    parts.join("; ")
                ),
            )
            .with_evidences(evidence)
            .with_remedy(format!(
                "find the unhealthy devices in the device-plugin pod's log on {} (`kubectl get pods -A -o wide --field-selector spec.nodeName={}`, then `kubectl -n <namespace> logs <pod> | grep -i unhealthy`) and the vendor's tool on the node (Habana: `hl-smi`; AWS Neuron: `neuron-ls`); reset the device or drain and reboot the node, then restart the device-plugin pod",
                n.metadata.name, n.metadata.name
            )),
        );
    }
    // nodes known only from the GPU component pods bound to them (a `kubectl get pods -o
    // wide` NODE column): a failing driver, toolkit, validator or plugin pod breaks the chain
    // why an NVIDIA plugin pod fails, when the input shows it (one cause: the DaemonSet's
    // workload-unavailable finding states it too, with the same remedy)
    let runtime = crate::plugin_runtime::default_runtime_cause(ctx);
    for b in crate::gpu::pod_only_breaks(ctx) {
        let f = &b.failure;
        let plugin_pod = ctx
            .snapshot()
            .pods
            .iter()
            .find(|p| p.metadata.namespace == b.pod.0 && p.metadata.name == b.pod.1)
            .and_then(cube_model::gpu::classify_pod)
            .filter(|(role, vendor)| {
                *role == cube_model::gpu::GpuComponentRole::DevicePlugin
                    && matches!(vendor, None | Some(cube_model::GpuVendor::Nvidia))
            });
        let cause = runtime.as_ref().filter(|_| plugin_pod.is_some());
        let (subject, whose, check) = match &b.node {
            Some(name) => (
                crate::Subject::cluster_scoped("Node", name),
                format!(
                    "node {name} (its resources are not in the input; its GPU component pods are)"
                ),
                format!(
                    "`kubectl describe node {}` then shows whether the GPU resource is in Allocatable",
                    crate::rules::shell_word(name)
                ),
            ),
            None => (
                crate::Subject::namespaced("Pod", &b.pod.0, &b.pod.1),
                "the node these GPU component pods run on (the listing has no NODE column)"
                    .to_owned(),
                format!(
                    "`kubectl{} get pods -o wide` names the node",
                    if b.pod.0.is_empty() {
                        String::new()
                    } else {
                        format!(" -n {}", crate::rules::shell_word(&b.pod.0))
                    }
                ),
            ),
        };
        let mut message = format!(
            "the GPU reporting chain of {whose} is broken; first broken link ({}): {}",
            f.link.as_str(),
            f.detail
        );
        let mut remedy = format!("{}; {check}", f.remedy);
        let mut evidence = f.evidence.clone();
        if let Some(c) = cause {
            message.push_str(&format!("; cause: {}", c.detail));
            remedy = format!("{}; to confirm: {remedy}", c.remedy);
            evidence.extend(c.evidence.iter().cloned());
        }
        out.push(
            Finding::new(GpuNotAdvertised::ID, f.severity, subject, message)
                .with_evidences(evidence)
                .with_remedy(remedy),
        );
    }
    // sharing configs (time-slicing/MPS) whose replicas the nodes do not show
    for s in signals(ctx, &[SignalKind::SharingConfig]) {
        let (res, key) = (s.detail("resource"), s.detail("key"));
        let Ok(replicas) = s.detail("replicas").parse::<i64>() else {
            continue;
        };
        if replicas < 2 {
            continue;
        }
        for n in &ctx.snapshot().nodes {
            let Some(cap) = n
                .status
                .capacity
                .get(res)
                .or_else(|| n.status.allocatable.get(res))
            else {
                continue;
            };
            let gpus: i64 = n
                .metadata
                .labels
                .get("nvidia.com/gpu.count")
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let applied = n.metadata.labels.get("nvidia.com/device-plugin.config");
            let expected = if gpus > 0 {
                gpus * replicas
            } else {
                cap.value() * replicas
            };
            // the plugin uses a config when the node's label selects it, or, with no label,
            // when it is the cluster-wide default: the GPU operator's time-slicing guide sets
            // one ConfigMap key (its example key is `any`) as ClusterPolicy
            // `devicePlugin.config.default`, which the input does not show; a pasted ConfigMap
            // with a single key and no node label is read as that default
            let selected = applied == Some(key)
                || (applied.is_none() && (s.detail("keys") == "1" || key == "any"));
            // gpu-feature-discovery labels what the plugin applies (NVIDIA
            // k8s-device-plugin internal/lm/resource.go: `nvidia.com/gpu.replicas`,
            // `nvidia.com/gpu.sharing-strategy`, and the product's `-SHARED` suffix when the
            // resource keeps its name)
            let labelled = n
                .metadata
                .labels
                .get("nvidia.com/gpu.replicas")
                .is_some_and(|r| *r == replicas.to_string())
                || n.metadata
                    .labels
                    .get("nvidia.com/gpu.sharing-strategy")
                    .is_some_and(|v| v == "time-slicing" || v == "mps");
            let in_effect = if gpus > 0 {
                cap.value() >= expected
            } else {
                labelled || (selected && cap.value() > 0 && cap.value() % replicas == 0)
            };
            if in_effect {
                continue;
            }
            let o = obj("Node", "", &n.metadata.name);
            out.push(
                Finding::new(GpuNotAdvertised::ID, Severity::Warning, node_subject(n), format!("sharing config {key} ({} {res}, replicas {replicas}) is not in effect on {}: it advertises {res} {cap}, expected {expected}; the device plugin was not told to use the config", s.detail("mode"), n.metadata.name))
                    .with_evidence(s.evidence())
                    .with_evidence(Evidence::field(&o, format!("status.capacity.{res}"), cap.to_string()))
                    .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/device-plugin.config]", applied.unwrap_or("<absent>")))
                    .with_remedy(format!("select the config for the node (`kubectl label node {} nvidia.com/device-plugin.config={key}`) or make it the default (device plugin `config.default={key}` / `--config-file`), then restart the device-plugin pod", n.metadata.name)),
            );
        }
    }
    // one finding per device-plugin log: the first NVML line's catalog entry gives the cause
    // (library missing, no NVML platform, driver not loaded, ...), up to three lines as evidence
    let mut nvml: Vec<&crate::classify::Signal> =
        signals(ctx, &[SignalKind::NvmlInitFailed]).collect();
    // a version mismatch decides the cause whatever lines come first (the plugin's hints about
    // the runtime follow every NVML failure)
    if let Some(i) = nvml
        .iter()
        .position(|s| s.detail("cause") == "version-mismatch")
    {
        let s = nvml.remove(i);
        nvml.insert(0, s);
    }
    // a node's (or plugin pod's) finding that already cites these lines carries the cause (one
    // root cause per chain)
    let cited = nvml.first().is_some_and(|s| {
        let ev = s.evidence();
        out.iter().any(|f| f.evidence.contains(&ev))
    });
    if let Some(s) = nvml.first().filter(|_| !cited) {
        let (cause, remedy) = nvml_cause(s);
        out.push(
            Finding::new(
                GpuNotAdvertised::ID,
                Severity::Error,
                signal_subject(s),
                format!("NVIDIA device plugin log: {cause}; no nvidia.com/gpu is advertised"),
            )
            .with_evidences(
                nvml.iter()
                    .filter(|x| x.source == s.source)
                    .take(3)
                    .map(|x| x.evidence()),
            )
            // the host's own `nvidia-smi` saying the same (gpu-plugin-log-error leaves it here)
            .with_evidences(
                signals(ctx, &[SignalKind::Known])
                    .filter(|x| {
                        s.detail("cause") == "version-mismatch"
                            && x.detail("entry") == "nvidia-smi.version-mismatch"
                    })
                    .take(1)
                    .map(|x| x.evidence()),
            )
            .with_remedy(remedy),
        );
    }
    for s in signals(ctx, &[SignalKind::AmdKfdMissing]).take(1) {
        out.push(
            Finding::new(GpuNotAdvertised::ID, Severity::Error, signal_subject(s), "the AMD GPU stack cannot find /dev/kfd: the ROCm kernel driver (amdgpu/kfd) is not loaded on the host, so amd.com/gpu is never advertised")
                .with_evidence(s.evidence())
                .with_remedy("load the amdgpu kernel driver with KFD support on the host (a ROCm-supported distro/kernel; the Helm chart deploys only the plugin, not the driver), then restart the AMD device plugin pod"),
        );
    }
    for s in signals(ctx, &[SignalKind::HamiNodeUnregistered]).take(1) {
        out.push(
            Finding::new(GpuNotAdvertised::ID, Severity::Error, signal_subject(s), "the HAMi scheduler reports the node unregistered: the HAMi device plugin is not running or not reporting there (no hami.io/node-nvidia-register annotation)")
                .with_evidence(s.evidence())
                .with_remedy("label the GPU node so HAMi's device-plugin DaemonSet selects it (`kubectl label node <node> gpu=on`), then check the hami-device-plugin pod log on that node"),
        );
    }
    // scheduler texts: every candidate node lacks the GPU resource and no node advertises it
    // one finding per message: a pasted describe row is also read into the snapshot's events,
    // so the same message arrives twice (from the log text and from `events`)
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::FailedScheduling]) {
        // an attempt the pod has since got past (bound, or a later `Scheduled`): not current
        if crate::rules::pod_unschedulable::failed_scheduling_is_stale(ctx, s).is_some() {
            continue;
        }
        if !seen.insert((s.detail("nodes").to_owned(), s.detail("reasons").to_owned())) {
            continue;
        }
        // each reason read with the scheduler's grammar, whatever its version's wording
        // (`node(s) had taints that the pod didn't tolerate` of v1.10-v1.19, `node(s) had taint
        // {k: v}, that the pod didn't tolerate`, `node(s) had untolerated taint(s)`, the
        // pre-v1.10 predicate name `PodToleratesNodeTaints`: cube_quota::schedmsg)
        let reasons: Vec<(u32, Reason)> = parse_reasons(s.detail("reasons"))
            .into_iter()
            .map(|(n, r)| (n, Reason::parse_any_version(&r)))
            .collect();
        let total: u32 = s.detail("nodes").parse().unwrap_or(0);
        let gpu_missing: Vec<(u32, &str)> = reasons
            .iter()
            .filter_map(|(n, r)| {
                r.resource()
                    .filter(|res| is_gpu_resource(res))
                    // HAMi's virtual shares (gpumem, gpucores, ...) are never node capacity:
                    // pod-unschedulable says which scheduler should have placed the pod
                    .filter(|res| {
                        crate::classify::hami::virtual_resource(res).is_none_or(|v| v == "Ascend")
                    })
                    .map(|res| (*n, res))
            })
            .collect();
        let Some(&(count, res)) = gpu_missing.first() else {
            continue;
        };
        let neutral: u32 = reasons
            .iter()
            .filter(|(_, r)| {
                matches!(
                    r.kind,
                    ReasonKind::UntoleratedTaint | ReasonKind::Unschedulable
                )
            })
            .map(|(n, _)| *n)
            .sum();
        if count + neutral < total || advertised.contains(res) {
            continue;
        }
        // only node data can say the GPUs are not busy. Without node data the message alone cannot tell "never advertised" from "all in
        // use": pod-unschedulable's finding for the same message names the causes that
        // remain and the one command that tells them apart (one cause, one finding;
        // fresh-user report 2 G17/G18), so this rule, whose name asserts one of them, stays
        // quiet
        if !node_data {
            continue;
        }
        let legacy = if res == cube_model::resource::names::LEGACY_NVIDIA_GPU {
            format!("; {}", crate::resources::LEGACY_GPU_NOTE)
        } else {
            String::new()
        };
        // the input holds fewer nodes than the scheduler counted: the nodes reporting
        // Insufficient may be ones it does not show
        let shown = ctx
            .snapshot()
            .nodes
            .iter()
            .filter(|n| !n.status.allocatable.is_empty() || !n.status.capacity.is_empty())
            .count();
        let message = if shown < total as usize {
            format!(
                "{count} of {total} nodes report Insufficient {res}; none of the {shown} node(s) in the input advertises it, but the ones reporting it may be nodes the input does not show: either no node advertises {res} (the device plugin registers nothing) or all of it is requested by running pods; the command below tells them apart"
            )
        } else {
            format!(
                "{count} of {total} nodes report Insufficient {res} and no node in the input advertises it: the pod is pending because the device plugin advertises no {res}, not because GPUs are busy"
            )
        } + &legacy;
        // a device-plugin pod the input shows on a node that advertises no GPU resource (a
        // `describe node` Non-terminated Pods row, a pod listing): it runs there and registers
        // nothing, so its log is the next step (fresh-user report G38; with Docker the usual
        // cause is a default runtime that is not nvidia)
        let plugin_pod = ctx.snapshot().pods.iter().find(|p| {
            !p.spec.node_name.is_empty()
                && cube_model::gpu::classify_pod(p).is_some_and(|(role, _)| {
                    role == cube_model::gpu::GpuComponentRole::DevicePlugin
                })
                && ctx.node(&p.spec.node_name).is_some_and(|n| {
                    !n.status
                        .capacity
                        .iter()
                        .chain(n.status.allocatable.iter())
                        .any(|(k, q)| k.as_str() == res && !q.is_zero())
                })
        });
        let mut remedy = format!(
            "`kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.{}` should show the GPUs; if empty, check the device-plugin pods and their logs on the GPU nodes",
            res.replace('.', "\\.")
        );
        let mut message = message;
        let mut evidence = vec![s.evidence()];
        if let Some(p) = plugin_pod {
            let (ns, name, node) = (&p.metadata.namespace, &p.metadata.name, &p.spec.node_name);
            message.push_str(&format!(
                "; the device-plugin pod {ns}/{name} runs on {node}, which advertises no {res}: if {node} has GPUs, that plugin registers none there"
            ));
            remedy = format!(
                "read that plugin's log: `kubectl -n {ns} logs {name}` (NVML or driver errors: with Docker the usual cause is a default runtime that is not nvidia, `\"default-runtime\": \"nvidia\"` in /etc/docker/daemon.json; `nvidia-smi` on {node} checks the driver); then {remedy}"
            );
            evidence.push(Evidence::field(
                obj("Pod", ns, name),
                "spec.nodeName",
                node.clone(),
            ));
        }
        out.push(
            Finding::new(
                GpuNotAdvertised::ID,
                Severity::Warning,
                signal_subject(s),
                message,
            )
            .with_evidences(evidence)
            .with_remedy(remedy),
        );
    }
    // GPU facts told only in prose and pasted commands (classify::gpu_prose), when the input
    // has no node status of its own (the node model then speaks for the nodes)
    if !node_data {
        let mut facts = BTreeSet::new();
        for s in signals(ctx, &[SignalKind::GpuProse]) {
            if !facts.insert(s.detail("fact").to_owned()) {
                continue;
            }
            let (message, remedy) = prose_finding(s);
            out.push(
                Finding::new(
                    GpuNotAdvertised::ID,
                    Severity::Warning,
                    signal_subject(s),
                    message,
                )
                .with_evidence(s.evidence())
                .with_remedy(remedy),
            );
        }
    }
    out.extend(share_resource_at_zero(ctx));
    // a GPU query's answer (`-o custom-columns=...` printing `<none>`)
    let queried = crate::rules::gpu_queried::findings(ctx, &out);
    out.extend(queried);
    crate::rules::distro::annotate(ctx, &mut out);
    out
}

/// Cause and remedy of a GPU fact told only in prose (`classify::gpu_prose`).
fn prose_finding(s: &crate::classify::Signal) -> (String, String) {
    use crate::resources::{LEGACY_GPU_NOTE, LEGACY_GPU_REMEDY};
    if s.detail("fact") == "legacy-resource" {
        return (
            format!(
                "the input names the legacy GPU resource alpha.kubernetes.io/nvidia-gpu where nvidia.com/gpu is expected: a node advertises nvidia.com/gpu only while the NVIDIA device plugin runs there; {LEGACY_GPU_NOTE}"
            ),
            LEGACY_GPU_REMEDY.to_owned(),
        );
    }
    let (vm, cloud, vendor) = (s.detail("vm"), s.detail("cloud"), s.detail("vendor"));
    let res = match s.detail("resource") {
        "" => "nvidia.com/gpu",
        r => r,
    };
    if vendor != "NVIDIA" {
        let plugin = if vendor == "AMD" {
            "the AMD GPU device plugin (ROCm/k8s-device-plugin) or the AMD GPU Operator, with the amdgpu (ROCm) kernel driver on the node"
        } else {
            "the Intel GPU device plugin (intel/intel-device-plugins-for-kubernetes) with the i915/xe driver on the node"
        };
        return (
            format!(
                "the input creates {cloud} GPU nodes ({vm}: {vendor} GPUs) and says they show no GPU: the node has the hardware but advertises no {res} in Capacity until {plugin} runs"
            ),
            format!(
                "deploy {plugin}, then `kubectl describe node <node> | grep {res}` shows the GPUs under Capacity and Allocatable"
            ),
        );
    }
    let version = s.detail("version");
    let minor: Option<u32> = version
        .trim_start_matches('v')
        .strip_prefix("1.")
        .and_then(|m| m.split(['.', '-']).next())
        .and_then(|m| m.parse().ok());
    let era = match minor {
        Some(m) if m <= 7 => format!(
            "; Kubernetes {version} has no device plugins yet: the kubelet advertises only the legacy alpha.kubernetes.io/nvidia-gpu, with --feature-gates=Accelerators=true"
        ),
        Some(m) if m <= 10 => format!(
            "; on Kubernetes {version} a GPU is advertised as nvidia.com/gpu only by the NVIDIA device plugin DaemonSet (device plugins are alpha behind the DevicePlugins gate in 1.8-1.9, on by default from 1.10; the kubelet's own alpha.kubernetes.io/nvidia-gpu is removed in 1.11), and the cluster was created without it"
        ),
        _ if !version.is_empty() => format!(
            "; on Kubernetes {version} a GPU is advertised as nvidia.com/gpu only once the NVIDIA driver, the container toolkit and the NVIDIA device plugin DaemonSet run on the node"
        ),
        _ => "; a GPU is advertised as nvidia.com/gpu only once the NVIDIA driver, the container toolkit and the NVIDIA device plugin DaemonSet run on the node".to_owned(),
    };
    let remedy = match cloud {
        "Azure" => {
            "apply the NVIDIA device plugin DaemonSet of the AKS GPU guide (`kubectl create namespace gpu-resources`, then `kubectl apply -f nvidia-device-plugin-ds.yaml`: the NVIDIA/k8s-device-plugin image, with a toleration for the GPU pool's taint such as sku=gpu:NoSchedule; newer AKS can install the NVIDIA GPU Operator instead), then `kubectl describe node <node> | grep nvidia.com/gpu` shows the GPUs under Capacity and Allocatable"
        }
        "AWS" => {
            "use the EKS-optimized accelerated AMI (NVIDIA driver and container toolkit) for the GPU node group and deploy the NVIDIA device plugin DaemonSet (`kubectl create -f https://raw.githubusercontent.com/NVIDIA/k8s-device-plugin/<version>/deployments/static/nvidia-device-plugin.yml`, or the NVIDIA GPU Operator), then `kubectl describe node <node> | grep nvidia.com/gpu`"
        }
        "GCP" => {
            "install the NVIDIA driver on the GPU nodes (GKE: `--accelerator type=<gpu>,count=<n>,gpu-driver-version=default` on 1.27.2+, or the driver-installer DaemonSet of GoogleCloudPlatform/container-engine-accelerators); GKE runs its device plugin itself once the driver is in; self-managed: deploy the NVIDIA device plugin DaemonSet; then `kubectl describe node <node> | grep nvidia.com/gpu`"
        }
        _ => {
            "install the NVIDIA driver and container toolkit on the GPU nodes and deploy the NVIDIA device plugin DaemonSet (NVIDIA/k8s-device-plugin) or the NVIDIA GPU Operator, then `kubectl describe node <node> | grep nvidia.com/gpu`"
        }
    };
    (
        format!(
            "the input creates {cloud} GPU nodes ({vm}: {vendor} GPUs) and says they show no GPU: the node has the hardware but advertises no nvidia.com/gpu in Capacity{era}"
        ),
        remedy.to_owned(),
    )
}

/// GPU-sharing plugins that register a device count next to per-device memory / core
/// resources (names as the plugins register them: Volcano's vGPU plugin
/// volcano-sh/devices `pkg/plugin/vgpu` `volcano.sh/vgpu-number|memory|cores`, Alibaba's
/// gpushare-device-plugin `aliyun.com/gpu-count|gpu-mem`, Tencent's gpu-manager
/// `tencent.com/vcuda-core|vcuda-memory`).
const SHARE_FAMILIES: &[(&str, &[&str])] = &[
    (
        "volcano.sh/vgpu-number",
        &["volcano.sh/vgpu-memory", "volcano.sh/vgpu-cores"],
    ),
    ("aliyun.com/gpu-count", &["aliyun.com/gpu-mem"]),
    ("tencent.com/vcuda-core", &["tencent.com/vcuda-memory"]),
];

/// A sharing plugin that registered its devices but one of their memory / core resources at 0:
/// it could not read (or scale) that attribute of the GPUs, so every pod asking for it stays
/// Pending although the node "has" vGPUs.
fn share_resource_at_zero(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for n in &ctx.snapshot().nodes {
        let status = &n.status;
        let value = |k: &str| status.allocatable.get(k).or_else(|| status.capacity.get(k));
        for (count, attributes) in SHARE_FAMILIES {
            let Some(devices) = value(count).filter(|q| !q.is_zero()) else {
                continue;
            };
            let zero: Vec<&str> = attributes
                .iter()
                .copied()
                .filter(|a| value(a).is_some_and(|q| q.is_zero()))
                .collect();
            if zero.is_empty() {
                continue;
            }
            let name = &n.metadata.name;
            let o = obj("Node", "", name);
            out.push(
                Finding::new(
                    GpuNotAdvertised::ID,
                    Severity::Error,
                    node_subject(n),
                    format!(
                        "node {name} registers {count} {devices} but {} at 0: the sharing device plugin found the GPUs but not their {}, so no pod asking for {} can ever be placed there",
                        zero.join(" and "),
                        if zero.iter().any(|z| z.contains("mem")) { "memory" } else { "cores" },
                        zero.join(" or ")
                    ),
                )
                .with_evidence(Evidence::field(&o, format!("status.allocatable.{count}"), devices.to_string()))
                .with_evidences(zero.iter().map(|z| Evidence::field(&o, format!("status.allocatable.{z}"), "0")))
                .with_remedy(format!(
                    "read the sharing device plugin's log on {name} (it says why the memory could not be read: driver or NVML version, a memory factor that rounds the memory down to 0); upgrade the plugin to a release that supports the GPU and driver, check its gpu-memory-factor setting, then restart the plugin pod so it registers again"
                )),
            );
        }
    }
    out
}

/// The cause and remedy of an NVML failure line, from its catalog entry.
fn nvml_cause(s: &crate::classify::Signal) -> (String, String) {
    match crate::catalog::entry(s.detail("entry")) {
        Some(e) if !e.cause.is_empty() => {
            let (cause, remedy) = e.cause_and_remedy(s);
            // a generic `cannot initialise NVML ({error})` line whose error says the library is
            // not there (classify::device_plugin `cause`): the runtime does not inject the driver
            // NVML_ERROR_LIB_RM_VERSION_MISMATCH: the kernel module and the libraries differ
            // (a driver upgrade without reboot), whatever hint lines follow it about the runtime
            if s.detail("cause") == "version-mismatch" {
                return (
                    format!("{cause}: the NVIDIA kernel module loaded is another version than the user-space driver libraries (the driver was upgraded, often by unattended upgrades, and the old module is still loaded), so nothing on the node can use the GPU"),
                    crate::catalog::NVML_VERSION_MISMATCH_REMEDY.to_owned(),
                );
            }
            if s.detail("cause") == "library-missing" && e.remedy != crate::catalog::NVML_LIBRARY_REMEDY {
                return (
                    format!("{cause}; the NVIDIA driver library is not in the plugin's container, so the container runtime on this node does not inject it (NVIDIA container toolkit not configured as the runtime)"),
                    crate::catalog::NVML_LIBRARY_REMEDY.to_owned(),
                );
            }
            (cause, remedy)
        }
        _ => (
            "the container runtime on this node is not GPU-enabled (libnvidia-ml cannot be loaded)".to_owned(),
            "install the NVIDIA Container Toolkit and make the nvidia runtime the default (`nvidia-ctk runtime configure --runtime=containerd --set-as-default && systemctl restart containerd`) or run the plugin with runtimeClassName: nvidia; confirm the driver with `nvidia-smi`".to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::{run_log, run_rule};

    /// Issue 12 item 5: a FailedScheduling older than the pod's binding (a later `Scheduled`
    /// and kubelet events in the same describe `Events:` section) is not a current cause.
    #[test]
    fn failed_scheduling_superseded_by_the_binding_is_not_current() {
        let failed = "Events:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  86s   default-scheduler  0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n";
        // a GPU node of the input that advertises none: the pending pod is its finding
        let node = "Name:               gpu-1\nCapacity:\n  cpu:  8\nAllocatable:\n  cpu:  8\n\n";
        assert_eq!(
            run_rule("gpu-not-advertised", &format!("{node}{failed}")).len(),
            1
        );
        let bound = format!(
            "{node}{failed}  Normal   Scheduled         80s   default-scheduler  Successfully assigned default/train-0 to gpu-1\n  Normal   Started           29s   kubelet            Started container train\n"
        );
        let f = run_rule("gpu-not-advertised", &bound);
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn gpu_facts_told_only_in_prose() {
        // MicrosoftDocs/azure-docs#11492: AKS 1.10.3 on Standard_NC6, "no gpu under capacity"
        let f = crate::rules::testutil::run_rule(
            "gpu-not-advertised",
            "I have created a cluster using the instructions and NC6 machine. There is no gpu listed under capacity at all.\n\naz aks create --name c --resource-group rg --node-vm-size Standard_NC6 --kubernetes-version 1.10.3 --node-count 1\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("Standard_NC6"), "{}", f[0].message);
        assert!(f[0].message.contains("1.10.3"), "{}", f[0].message);
        assert!(f[0].remedy.contains("device plugin"), "{}", f[0].remedy);
        // an AMD size names the AMD plugin and resource
        let f = crate::rules::testutil::run_rule(
            "gpu-not-advertised",
            "eksctl create nodegroup --cluster c --node-type g4ad.xlarge\nthe node shows no gpu\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("amd.com/gpu"), "{}", f[0].message);
        // MicrosoftDocs/azure-docs#17570: the legacy resource, a traceback copied as HTML
        let f = crate::rules::testutil::run_rule(
            "gpu-not-advertised",
            "Hi, it only have alpha.kubernetes.io/nvidia-gpu resource instead of nvidia.com/gpu, job failed with log\n\nTraceback (most recent call last):\n  File \"/app/main.py\", line 31, in &lt;module&gt;\n    import tensorflow as tf\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("Accelerators"), "{}", f[0].message);
        assert!(f[0].remedy.contains("device plugin"), "{}", f[0].remedy);
        // with node status in the input the node model speaks: no prose finding
        let f = crate::rules::testutil::run_rule(
            "gpu-not-advertised",
            "az aks create --node-vm-size Standard_NC6\nno gpu here\n\nName: aks-nodepool1-0\nCapacity:\n  cpu: 6\n  nvidia.com/gpu: 1\nAllocatable:\n  cpu: 6\n  nvidia.com/gpu: 1\n",
        );
        assert!(
            f.iter().all(|f| !f.message.contains("Standard_NC6")),
            "{f:#?}"
        );
    }

    /// fresh-user report G2: capacity 16, allocatable 0 (NVIDIA/k8s-device-plugin#58): a whole
    /// sentence, allocatable cited as 0 and each field once.
    #[test]
    fn capacity_without_allocatable_cites_each_number_once() {
        let s = "apiVersion: v1\nkind: Node\nmetadata:\n  name: gpu-01\nstatus:\n  allocatable:\n    cpu: \"48\"\n    nvidia.com/gpu: \"0\"\n  capacity:\n    cpu: \"48\"\n    nvidia.com/gpu: \"16\"\n";
        let f = run_rule("gpu-not-advertised", s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            !f[0].message.trim_end().ends_with("from"),
            "{}",
            f[0].message
        );
        assert!(
            !f[0].message.contains("GPUs known from"),
            "{}",
            f[0].message
        );
        let ev: Vec<String> = f[0].evidence.iter().map(|e| format!("{e:?}")).collect();
        assert_eq!(
            ev.iter()
                .filter(|e| e.contains("status.allocatable.nvidia.com/gpu"))
                .count(),
            1,
            "{ev:#?}"
        );
        assert!(
            ev.iter()
                .any(|e| e.contains("status.allocatable.nvidia.com/gpu") && e.contains("\"0\"")),
            "{ev:#?}"
        );
        assert_eq!(
            ev.iter()
                .filter(|e| e.contains("status.capacity.nvidia.com/gpu"))
                .count(),
            1,
            "{ev:#?}"
        );
    }

    #[test]
    fn labelled_without_allocatable() {
        let s = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    nvidia.com/gpu.present: \"true\"\nstatus:\n  allocatable:\n    cpu: \"8\"\n";
        let f = run_rule("gpu-not-advertised", s);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("nvidia.com/gpu"));
    }

    #[test]
    fn advertising_node_and_healthy_plugin_log_are_silent() {
        let s = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    nvidia.com/gpu.present: \"true\"\nstatus:\n  allocatable:\n    nvidia.com/gpu: \"8\"\n  capacity:\n    nvidia.com/gpu: \"8\"\n";
        assert!(run_rule("gpu-not-advertised", s).is_empty());
        assert!(run_log("gpu-not-advertised", "I1110 11:05:18.708838 6855 register.go:197] Successfully registered annotation. Next check in 30s seconds...").is_empty());
    }

    #[test]
    fn sharing_config_applied_or_not() {
        let mk = |cap: &str, label: &str| {
            format!(
                "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: dp\n  data:\n    ts: |-\n      version: v1\n      sharing:\n        timeSlicing:\n          resources:\n          - name: nvidia.com/gpu\n            replicas: 4\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-a\n    labels: {{{label}}}\n  status:\n    capacity:\n      nvidia.com/gpu: \"{cap}\"\n"
            )
        };
        assert_eq!(run_rule("gpu-not-advertised", &mk("1", "")).len(), 1);
        assert!(
            run_rule(
                "gpu-not-advertised",
                &mk("4", "nvidia.com/device-plugin.config: ts")
            )
            .is_empty()
        );
    }

    #[test]
    fn a_users_gpu_label_from_config() {
        let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    org: gpu-pool\nstatus:\n  allocatable:\n    cpu: \"8\"\n";
        // unknown label: not a GPU node
        assert!(run_rule("gpu-not-advertised", node).is_empty());
        let mut i = crate::Inputs::new();
        i.add("n.yaml", node);
        let ctx = crate::Context::new(&i.snapshot);
        let cfg =
            crate::Config::from_yaml("gpuLabels: [{key: org, value: gpu-pool, vendor: nvidia}]\n")
                .unwrap();
        let r = crate::Engine::new().with_config(cfg).run(&ctx);
        let f: Vec<_> = r.by_rule("gpu-not-advertised").collect();
        assert_eq!(f.len(), 1, "{:#?}", r.findings);
        assert!(
            f[0].message
                .contains("label org=gpu-pool [custom gpuLabels]"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn hami_handshake_stuck_in_requesting() {
        let mk = |handshake: &str| {
            format!(
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    gpu: \"on\"\n  annotations:\n    hami.io/node-handshake: \"{handshake}\"\nstatus:\n  allocatable:\n    nvidia.com/gpu: \"10\"\n  conditions:\n  - type: Ready\n    status: \"True\"\n    lastHeartbeatTime: \"2024-04-16T09:20:00Z\"\n"
            )
        };
        let f = run_rule("gpu-not-advertised", &mk("Requesting_2024.04.16 09:12:40"));
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("440 s"), "{}", f[0].message);
        assert!(run_rule("gpu-not-advertised", &mk("Requesting_2024.04.16 09:19:40")).is_empty());
        assert!(
            run_rule(
                "gpu-not-advertised",
                &mk("Reported 2024-04-16 09:19:40.1 +0000 UTC")
            )
            .is_empty()
        );
        assert_eq!(
            run_rule("gpu-not-advertised", &mk("Deleted_2024.04.16 09:12:40")).len(),
            1
        );
    }

    #[test]
    fn every_taint_wording_is_read_as_a_taint() {
        // kubernetes/kubernetes: v1.8-v1.9 predicate name, v1.10-v1.19 predicates/error.go,
        // v1.20-v1.25, v1.26-v1.34 and v1.35+ tainttoleration/taint_toleration.go
        for taint in [
            "1 PodToleratesNodeTaints",
            "1 node(s) had taints that the pod didn't tolerate",
            "1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate",
            "1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }",
            "1 node(s) had untolerated taint(s)",
        ] {
            let msg = format!("0/2 nodes are available: 1 Insufficient nvidia.com/gpu, {taint}.");
            // the message alone: one finding (pod-unschedulable) names the causes that remain
            // and the command that tells them apart; this rule does not guess (G17/G18)
            assert!(run_log("gpu-not-advertised", &msg).is_empty(), "{taint}");
            let f = run_log("pod-unschedulable", &msg);
            assert_eq!(f.len(), 1, "{taint}: {f:#?}");
            assert!(
                f[0].message.contains("cannot tell why"),
                "{taint}: {}",
                f[0].message
            );
            // a GPU node of the input that advertises: never 'not advertised'
            let mut i = crate::Inputs::new();
            i.add("node.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: gpu-1\nstatus:\n  capacity:\n    nvidia.com/gpu: \"1\"\n  allocatable:\n    nvidia.com/gpu: \"1\"\n  conditions:\n  - type: Ready\n    status: \"True\"\n");
            i.add("events.txt", &msg);
            let f = crate::rules::testutil::run_inputs("gpu-not-advertised", &i);
            assert!(f.is_empty(), "{taint}: {f:#?}");
        }
        // the tainted control-plane node alone in the input: the GPU node may be elsewhere
        let mut i = crate::Inputs::new();
        i.add("node.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: master-1\nspec:\n  taints:\n  - {key: node-role.kubernetes.io/master, effect: NoSchedule}\nstatus:\n  capacity:\n    cpu: \"4\"\n  allocatable:\n    cpu: \"4\"\n  conditions:\n  - type: Ready\n    status: \"True\"\n");
        i.add(
            "events.txt",
            "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had taints that the pod didn't tolerate.",
        );
        let f = crate::rules::testutil::run_inputs("gpu-not-advertised", &i);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .contains("may be nodes the input does not show"),
            "{}",
            f[0].message
        );
        let f = crate::rules::testutil::run_inputs("pod-unschedulable", &i);
        assert!(
            f.iter()
                .any(|x| x.message.contains("may be nodes the input does not show")),
            "{f:#?}"
        );
    }

    #[test]
    fn affinity_conflict_is_not_a_missing_gpu() {
        assert!(run_log("gpu-not-advertised", "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 Insufficient nvidia.com/gpu.").is_empty());
        let msg = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.";
        // no node data: never a claim that the GPUs are (or are not) advertised; the one
        // finding is pod-unschedulable's, with the causes that remain
        assert!(run_log("gpu-not-advertised", msg).is_empty());
        let f = run_log("pod-unschedulable", msg);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("cannot tell why") && f[0].remedy.contains("tell them apart"),
            "{f:#?}"
        );
    }

    #[test]
    fn vgpu_memory_registered_at_zero() {
        let f = crate::rules::testutil::run_rule(
            "gpu-not-advertised",
            "Name: node-01\nCapacity:\n  cpu:  8\n  volcano.sh/vgpu-cores:   800\n  volcano.sh/vgpu-memory:  0\n  volcano.sh/vgpu-number:  80\nAllocatable:\n  cpu:  8\n  volcano.sh/vgpu-cores:   800\n  volcano.sh/vgpu-memory:  0\n  volcano.sh/vgpu-number:  80\n",
        );
        assert!(
            f.iter()
                .any(|f| f.message.contains("volcano.sh/vgpu-memory at 0")),
            "{f:#?}"
        );
    }
}
