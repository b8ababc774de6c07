//! Why an NVIDIA device-plugin pod gets no driver library in its container: the node's
//! container runtime starts it with a runtime that does not inject the driver. The NVIDIA
//! container toolkit adds a runtime called `nvidia`; the kubelet's pods use the runtime's
//! *default* runtime unless the pod names a RuntimeClass, so the plugin works only when
//! `nvidia` is the default (Docker `"default-runtime"` in /etc/docker/daemon.json, containerd
//! `default_runtime_name` in the CRI plugin's section, CRI-O `default_runtime` in
//! `[crio.runtime]`: the keys `nvidia-ctk runtime configure --set-as-default` writes,
//! NVIDIA/nvidia-container-toolkit `pkg/config/engine/docker/docker.go`,
//! `pkg/config/engine/containerd/config_v2.go`, `pkg/config/engine/crio/crio.go`) or when the
//! DaemonSet sets `runtimeClassName: nvidia`.
//!
//! Two things in an input show it:
//!
//! - the plugin's own log says NVML's library cannot be loaded in its container
//!   (`Failed to initialize NVML: could not load NVML library`, `libnvidia-ml.so.1: cannot open
//!   shared object file`, `Detected non-NVML platform`, `Incompatible strategy detected auto`,
//!   `If this is a GPU node, did you configure the NVIDIA Container Toolkit?`: the catalog's
//!   `nvml` group with the `library_missing` detail, NVIDIA/k8s-device-plugin
//!   `cmd/nvidia-device-plugin/main.go`, `internal/plugin/factory.go` by release);
//! - the same image started by hand with the nvidia runtime (`docker run --runtime=nvidia`,
//!   `--gpus`, a CDI `--device nvidia.com/gpu=all`, `ctr run --gpus`) registers with the kubelet
//!   or prints an `nvidia-smi` table, while the pod the kubelet starts crash-loops.

use crate::classify::SignalKind;
use crate::rules::signals;
use crate::{Context, Evidence};

/// The container runtime of a node, as far as the remedy needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Engine {
    /// Docker (dockershim before Kubernetes 1.24, cri-dockerd after).
    Docker,
    /// containerd (also k3s, rke2, microk8s).
    Containerd,
    /// CRI-O.
    CriO,
}

impl Engine {
    /// The runtime a node's `status.nodeInfo.containerRuntimeVersion` names (`docker://20.10.7`,
    /// `containerd://1.7.2-k3s1`, `cri-o://1.28.1`).
    pub(crate) fn of_version(v: &str) -> Option<Engine> {
        let scheme = v.split("://").next()?.to_ascii_lowercase();
        match scheme.as_str() {
            "docker" => Some(Engine::Docker),
            "containerd" => Some(Engine::Containerd),
            "cri-o" | "crio" => Some(Engine::CriO),
            _ => None,
        }
    }
}

/// The cause, its evidence and the remedy.
#[derive(Debug, Clone)]
pub(crate) struct RuntimeCause {
    /// One sentence: what shows it and what it means.
    pub detail: String,
    /// The lines that show it.
    pub evidence: Vec<Evidence>,
    /// The fix for the runtime the input shows (all three when it shows none).
    pub remedy: String,
}

/// The remedy for a plugin container without the driver library: make `nvidia` the default
/// runtime of `engine` (each runtime's own key), or name the RuntimeClass in the DaemonSet.
pub(crate) fn default_runtime_remedy(engine: Option<Engine>) -> String {
    let how = match engine {
        Some(Engine::Docker) => {
            "make nvidia Docker's default runtime: set \"default-runtime\": \"nvidia\" in /etc/docker/daemon.json (`sudo nvidia-ctk runtime configure --runtime=docker --set-as-default` writes it), then `sudo systemctl restart docker`"
        }
        Some(Engine::Containerd) => {
            "make nvidia containerd's default runtime: set default_runtime_name = \"nvidia\" in the CRI plugin's containerd section of /etc/containerd/config.toml (`sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default` writes it), then `sudo systemctl restart containerd` (k3s/rke2 add the nvidia runtime when they start after the toolkit is installed; start them with --default-runtime=nvidia, k3s `pkg/cli/cmds/agent.go` DefaultRuntimeFlag, or use the RuntimeClass)"
        }
        Some(Engine::CriO) => {
            "make nvidia CRI-O's default runtime: set default_runtime = \"nvidia\" under [crio.runtime] (`sudo nvidia-ctk runtime configure --runtime=crio --set-as-default` writes a drop-in in /etc/crio/crio.conf.d), then `sudo systemctl restart crio`"
        }
        None => {
            "make nvidia the default runtime of the node's container runtime (Docker: \"default-runtime\": \"nvidia\" in /etc/docker/daemon.json; containerd: default_runtime_name = \"nvidia\" in /etc/containerd/config.toml; CRI-O: default_runtime = \"nvidia\" under [crio.runtime]); `sudo nvidia-ctk runtime configure --runtime=containerd --set-as-default` writes it for containerd (`--runtime=docker`, `--runtime=crio` for the others), then restart that runtime"
        }
    };
    format!(
        "{how}; or keep the default and give the plugin's DaemonSet `runtimeClassName: nvidia` (a RuntimeClass whose handler is the toolkit's nvidia runtime; the device plugin's Helm chart has a runtimeClassName value); then delete the plugin pod so it restarts, and check the driver with `nvidia-smi` on the node"
    )
}

/// A manual run of a container with the NVIDIA runtime (`docker run --runtime=nvidia ...`,
/// `docker run --gpus all ...`, `nerdctl run --gpus`, `podman run --device nvidia.com/gpu=all`,
/// `ctr run --gpus 0 ...`): the engine whose CLI it is (`None` for podman, which is no
/// kubelet runtime).
fn gpu_run(line: &str) -> Option<Option<Engine>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let cli = words.iter().position(|w| {
        let base = w.trim_matches('`').rsplit('/').next().unwrap_or(w);
        matches!(base, "docker" | "nerdctl" | "podman" | "ctr")
    })?;
    let run = words[cli + 1..]
        .iter()
        .position(|w| *w == "run")
        .map(|p| p + cli + 1)?;
    // only flags may stand between the CLI and `run` (`ctr -n k8s.io run`, `docker --debug run`)
    if words[cli + 1..run]
        .iter()
        .any(|w| !w.starts_with('-') && !matches!(*w, "k8s.io" | "moby" | "default"))
    {
        return None;
    }
    let args = &words[run + 1..];
    let gpu = args.iter().enumerate().any(|(i, w)| {
        let next = args.get(i + 1).copied().unwrap_or("");
        w.starts_with("--runtime=") && w.contains("nvidia")
            || (*w == "--runtime" && next.contains("nvidia"))
            || *w == "--gpus"
            || w.starts_with("--gpus=")
            || w.starts_with("--runc-binary") && (w.contains("nvidia") || next.contains("nvidia"))
            || (w.starts_with("--device")
                && (w.contains("nvidia.com/gpu") || next.starts_with("nvidia.com/gpu")))
    });
    if !gpu {
        return None;
    }
    let base = words[cli]
        .trim_matches('`')
        .rsplit('/')
        .next()
        .unwrap_or("");
    Some(match base {
        "docker" => Some(Engine::Docker),
        "nerdctl" | "ctr" => Some(Engine::Containerd),
        _ => None,
    })
}

/// What a manual run printed that shows it worked: the plugin registered with the kubelet, or
/// an `nvidia-smi` table (its header line).
fn worked(line: &str) -> bool {
    line.contains("Registered device plugin")
        || line.contains("NVIDIA-SMI ")
        || (line.contains("Driver Version:") && line.contains("CUDA Version"))
}

/// The runtime the input shows for the node(s) the plugin runs on: the nodes' runtime versions
/// when they agree, else the CLI of a manual run.
fn input_engine(ctx: &Context<'_>, manual: Option<Engine>) -> Option<Engine> {
    let mut engines = ctx
        .snapshot()
        .nodes
        .iter()
        .filter_map(|n| Engine::of_version(&n.status.node_info.container_runtime_version));
    match engines.next() {
        Some(first) if engines.all(|e| e == first) => Some(first),
        Some(_) => None,
        None => manual,
    }
}

/// The default-runtime cause when the input shows it (see the module documentation); `None`
/// otherwise.
pub(crate) fn default_runtime_cause(ctx: &Context<'_>) -> Option<RuntimeCause> {
    // the plugin's log: NVML's library is not in its container
    let missing: Vec<&crate::classify::Signal> = signals(ctx, &[SignalKind::NvmlInitFailed])
        .filter(|s| s.detail("library_missing") == "true")
        .collect();
    // a manual run with the nvidia runtime that worked
    let mut manual: Option<(Option<Engine>, Evidence, Evidence)> = None;
    'logs: for log in ctx.logs() {
        let lines: Vec<&str> = log.text.lines().collect();
        let number = |i: usize| log.origins.get(i).map_or(i + 1, |o| o.line);
        for (i, l) in lines.iter().enumerate() {
            let Some(engine) = gpu_run(l) else {
                continue;
            };
            // its output: the lines up to the next command
            if let Some((j, ok)) = lines[i + 1..]
                .iter()
                .enumerate()
                .take(60)
                .take_while(|(_, x)| gpu_run(x).is_none())
                .find(|(_, x)| worked(x))
            {
                manual = Some((
                    engine,
                    Evidence::log(&log.source, number(i), l),
                    Evidence::log(&log.source, number(i + 1 + j), ok),
                ));
                break 'logs;
            }
        }
    }
    if missing.is_empty() && manual.is_none() {
        return None;
    }
    let engine = input_engine(ctx, manual.as_ref().and_then(|m| m.0));
    let mut evidence: Vec<Evidence> = missing.iter().take(2).map(|s| s.evidence()).collect();
    let mut shown = Vec::new();
    if !missing.is_empty() {
        shown.push("the plugin's log says the NVIDIA driver library (libnvidia-ml) cannot be loaded in its container".to_owned());
    }
    if let Some((_, cmd, ok)) = manual {
        shown.push(
            "the same container started by hand with the nvidia runtime works (it registers with the kubelet or runs nvidia-smi), so the driver and toolkit are fine on the node".to_owned(),
        );
        evidence.push(cmd);
        evidence.push(ok);
    }
    let which = match engine {
        Some(Engine::Docker) => "Docker's default-runtime",
        Some(Engine::Containerd) => "containerd's default_runtime_name",
        Some(Engine::CriO) => "CRI-O's default_runtime",
        None => {
            "the runtime's default (Docker default-runtime, containerd default_runtime_name, CRI-O default_runtime)"
        }
    };
    Some(RuntimeCause {
        detail: format!(
            "{}: the kubelet starts the plugin's pod with the container runtime's default runtime, and {which} is not nvidia (nor does the DaemonSet set runtimeClassName: nvidia), so the NVIDIA driver is not injected into the pod",
            shown.join("; ")
        ),
        evidence,
        remedy: default_runtime_remedy(engine),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_runs_with_the_nvidia_runtime() {
        for (line, engine) in [
            (
                "docker run --runtime=nvidia -it -v /var/lib/kubelet/device-plugins:/var/lib/kubelet/device-plugins nvidia/k8s-device-plugin:1.8",
                Some(Engine::Docker),
            ),
            (
                "sudo docker run --rm --gpus all nvidia/cuda:12.2.0-base-ubuntu22.04 nvidia-smi",
                Some(Engine::Docker),
            ),
            (
                "docker run --runtime nvidia nvidia/cuda nvidia-smi",
                Some(Engine::Docker),
            ),
            (
                "sudo ctr -n k8s.io run --rm --gpus 0 docker.io/nvidia/cuda:12.2.0-base-ubuntu22.04 t nvidia-smi",
                Some(Engine::Containerd),
            ),
            (
                "nerdctl run --gpus=all nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
                Some(Engine::Containerd),
            ),
            (
                "podman run --device nvidia.com/gpu=all ubuntu nvidia-smi -L",
                None,
            ),
        ] {
            assert_eq!(gpu_run(line), Some(engine), "{line}");
        }
        for other in [
            "docker run -it nvidia/k8s-device-plugin:1.8",
            "kubectl run gpu --image=nvidia/cuda",
            "docker ps --runtime=nvidia",
            "I ran docker with run --gpus",
        ] {
            assert_eq!(gpu_run(other), None, "{other}");
        }
    }

    #[test]
    fn remedies_name_the_runtime_key() {
        assert!(default_runtime_remedy(Some(Engine::Docker)).contains("\"default-runtime\""));
        assert!(default_runtime_remedy(Some(Engine::Containerd)).contains("default_runtime_name"));
        assert!(default_runtime_remedy(Some(Engine::CriO)).contains("default_runtime = "));
        let all = default_runtime_remedy(None);
        for key in [
            "default-runtime",
            "default_runtime_name",
            "default_runtime =",
        ] {
            assert!(all.contains(key), "{key}");
        }
        assert_eq!(all, crate::catalog::NVML_LIBRARY_REMEDY);
        assert_eq!(
            Engine::of_version("containerd://1.7.2-k3s1"),
            Some(Engine::Containerd)
        );
        assert_eq!(Engine::of_version("cri-o://1.28.1"), Some(Engine::CriO));
        assert_eq!(Engine::of_version("docker://20.10.7"), Some(Engine::Docker));
    }
}
