//! The local Kubernetes distribution an input shows (the commands pasted with it, the node
//! names and labels it creates) and how a GPU reaches its node there: on minikube, kind,
//! MicroK8s and k3d the node is a container or a VM, and the generic "run the device plugin"
//! remedy misses the step that gives the node a GPU at all.
//!
//! Sources of the steps:
//! - minikube: kubernetes/minikube `site/content/en/docs/tutorials/nvidia.md` (docker driver:
//!   `minikube start --driver docker --container-runtime docker --gpus all`, v1.32+, the NVIDIA
//!   Container Toolkit on the host; none driver: Docker's default runtime nvidia, then
//!   `minikube addons enable nvidia-device-plugin`; kvm driver: `--kvm-gpu` passthrough of spare
//!   GPUs, then the nvidia-device-plugin and nvidia-driver-installer addons; no GPU on
//!   VirtualBox, Hyper-V, hyperkit: no PCI passthrough). The node is named `minikube` and
//!   labelled `minikube.k8s.io/name`.
//! - kind: no GPU support of its own; NVIDIA/nvkind README (host toolkit with
//!   `accept-nvidia-visible-devices-as-volume-mounts = true`, Docker's default runtime nvidia,
//!   an extraMount of `/dev/null` at `/var/run/nvidia-container-devices/all` per GPU node).
//! - MicroK8s: canonical/microk8s-core-addons `addons/nvidia/enable` (`microk8s enable nvidia`,
//!   formerly `gpu`: the GPU operator in namespace `gpu-operator-resources`, driver `auto` =
//!   the host's when `nvidia-smi -L` works, `--gpu-operator-driver host|operator`).
//! - k3d: k3d-io/k3d `docs/usage/advanced/cuda.md` (`k3d cluster create --image=<k3s image built
//!   with the NVIDIA container runtime> --gpus=1`; the stock Alpine k3s image cannot run it; not
//!   on WSL2).

use crate::Context;

/// A local distribution and, for minikube, its driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Distro {
    /// minikube; the driver when the input names it (`docker`, `none`, `kvm2`, `virtualbox`,
    /// ...), whether `--gpus` was given.
    Minikube {
        /// `--driver` / `--vm-driver` (lowercase), or a driver named in the text.
        driver: Option<String>,
        /// `--gpus` on the start command.
        gpus: bool,
    },
    /// kind (`kind create cluster`, `kind-control-plane` nodes).
    Kind,
    /// MicroK8s (`microk8s ...`, `microk8s.io/cluster` label).
    Microk8s,
    /// k3d (`k3d cluster create`, `k3d-<name>-server-0` nodes); whether `--gpus` was given.
    K3d {
        /// `--gpus` on the create command.
        gpus: bool,
    },
}

/// The value of `--flag=v` / `--flag v` in `line`.
fn flag<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        let w = w.trim_matches(|c: char| matches!(c, '`' | '"' | '\''));
        if let Some(v) = w.strip_prefix(name) {
            if let Some(v) = v.strip_prefix('=') {
                return Some(v.trim_matches(|c: char| matches!(c, '`' | '"' | '\'')));
            }
            if v.is_empty() {
                return words
                    .next()
                    .map(|v| v.trim_matches(|c: char| matches!(c, '`' | '"' | '\'')));
            }
        }
    }
    None
}

/// The distribution the input shows, if any.
pub(crate) fn detect(ctx: &Context<'_>) -> Option<Distro> {
    let mut minikube = false;
    let mut driver: Option<String> = None;
    let mut mk_gpus = false;
    let mut kind = false;
    let mut microk8s = false;
    let mut k3d: Option<bool> = None;
    let mut virtualbox = false;
    for log in ctx.logs() {
        for line in log.text.lines() {
            let l = line.to_ascii_lowercase();
            if l.contains("minikube start") {
                minikube = true;
                if let Some(d) = flag(&l, "--driver").or_else(|| flag(&l, "--vm-driver")) {
                    driver = Some(d.to_owned());
                }
                mk_gpus |= l.contains("--gpus");
            } else if l.contains("minikube") {
                minikube = true;
            }
            if l.contains("virtualbox") {
                virtualbox = true;
            }
            if l.contains("kind create cluster") {
                kind = true;
            }
            if l.contains("microk8s enable")
                || l.contains("microk8s.enable")
                || l.contains("microk8s kubectl")
            {
                microk8s = true;
            }
            if l.contains("k3d cluster create") {
                k3d = Some(k3d.unwrap_or(false) || l.contains("--gpus"));
            }
        }
    }
    for n in &ctx.snapshot().nodes {
        let labels = &n.metadata.labels;
        if labels.contains_key("minikube.k8s.io/name") || n.metadata.name == "minikube" {
            minikube = true;
        }
        if labels.contains_key("microk8s.io/cluster") {
            microk8s = true;
        }
        if n.metadata.name.starts_with("k3d-") && k3d.is_none() {
            k3d = Some(false);
        }
        if n.metadata.name.ends_with("-control-plane") && n.metadata.name.starts_with("kind") {
            kind = true;
        }
    }
    if minikube {
        if driver.is_none() && virtualbox {
            driver = Some("virtualbox".to_owned());
        }
        return Some(Distro::Minikube {
            driver,
            gpus: mk_gpus,
        });
    }
    if let Some(gpus) = k3d {
        return Some(Distro::K3d { gpus });
    }
    if microk8s {
        return Some(Distro::Microk8s);
    }
    kind.then_some(Distro::Kind)
}

/// How an NVIDIA GPU reaches the node on this distribution: (what the input shows, the steps).
pub(crate) fn nvidia_gpu_hint(d: &Distro) -> (String, String) {
    match d {
        Distro::Minikube { driver, gpus } => match driver.as_deref() {
            Some("docker") | Some("podman") | None if !gpus => (
                format!(
                    "minikube ({}) started without --gpus: the minikube node is a container that gets no GPU, and the nvidia-device-plugin (formerly nvidia-gpu-device-plugin) addon alone advertises none",
                    driver.as_deref().map_or("driver not named, docker by default on Linux".to_owned(), |d| format!("{d} driver"))
                ),
                "with the docker driver recreate the cluster with the GPU passed in: `minikube delete` then `minikube start --driver docker --container-runtime docker --gpus all` (minikube v1.32+; the host needs the NVIDIA driver and the NVIDIA Container Toolkit configured for Docker: `sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker`, and net.core.bpf_jit_harden=0); it deploys the device plugin itself".to_owned(),
            ),
            Some("docker") | Some("podman") | None => (
                "minikube started with --gpus: the GPU reaches the node only when the host's Docker has the NVIDIA runtime".to_owned(),
                "on the host check `sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker` and `sudo sysctl net.core.bpf_jit_harden` (must be 0); a cluster created before the toolkit was installed must be recreated (`minikube delete`, then `minikube start --driver docker --container-runtime docker --gpus all`)".to_owned(),
            ),
            Some("none") => (
                "minikube with the none driver runs the kubelet on the host with the host's Docker: the device plugin sees the GPU only when Docker's default runtime is nvidia".to_owned(),
                "set \"default-runtime\": \"nvidia\" in /etc/docker/daemon.json (`sudo nvidia-ctk runtime configure --runtime=docker --set-as-default`), restart Docker, then `minikube addons enable nvidia-device-plugin` (or restart the plugin pod)".to_owned(),
            ),
            Some(d) if d.starts_with("kvm") => (
                format!("minikube with the {d} driver runs a VM: the GPU reaches it only by PCI passthrough"),
                "start with `minikube start --driver kvm2 --kvm-gpu` (IOMMU on: intel_iommu=on or amd_iommu=on and iommu=pt; spare GPUs bound to vfio-pci or pci-stub, not used by the host), then `minikube addons enable nvidia-device-plugin` and `minikube addons enable nvidia-driver-installer`".to_owned(),
            ),
            Some(d) => (
                format!("minikube with the {d} driver runs a VM without GPU passthrough: the VM has no GPU at all, whatever the host has (nvidia-docker on the host is not used inside the VM)"),
                "use a driver that gives the node the GPU: the docker driver on a Linux GPU host (`minikube start --driver docker --container-runtime docker --gpus all`), the kvm2 driver with passthrough (`minikube start --driver kvm2 --kvm-gpu`), or the none driver on the host".to_owned(),
            ),
        },
        Distro::Kind => (
            "kind nodes are containers and kind has no GPU support of its own".to_owned(),
            "give the node containers the GPU through the host's NVIDIA Container Toolkit (NVIDIA/nvkind): `sudo nvidia-ctk runtime configure --runtime=docker --set-as-default`, `accept-nvidia-visible-devices-as-volume-mounts = true` in /etc/nvidia-container-runtime/config.toml, and in the kind config an extraMount of hostPath /dev/null at containerPath /var/run/nvidia-container-devices/all on each GPU node; then install the toolkit inside the node and the device plugin (or use `nvkind cluster create`)".to_owned(),
        ),
        Distro::Microk8s => (
            "MicroK8s gives the node its GPU through the nvidia addon (formerly gpu), which deploys the GPU operator in namespace gpu-operator-resources".to_owned(),
            "`microk8s enable nvidia` (with the driver already on the host: `microk8s enable nvidia --gpu-operator-driver host`), then `microk8s kubectl get pods -n gpu-operator-resources`: the validator and device-plugin pods must run".to_owned(),
        ),
        Distro::K3d { gpus } => (
            format!(
                "k3d nodes are containers{}: a GPU reaches them only with `--gpus` and a k3s image built with the NVIDIA container runtime (the stock Alpine-based k3s image cannot run it)",
                if *gpus { "" } else { " and the cluster was created without --gpus" }
            ),
            "build the CUDA k3s image of k3d's guide (docs/usage/advanced/cuda.md: NVIDIA base image, containerd config.toml.tmpl with the nvidia runtime, the device-plugin manifest) and recreate the cluster with `k3d cluster create <name> --image=<that image> --gpus=all` (not supported on WSL2)".to_owned(),
        ),
    }
}

/// Whether `text` names the resource `nvidia.com/gpu` itself (not `nvidia.com/gpumem`, ...).
pub(crate) fn names_nvidia_gpu(text: &str) -> bool {
    text.match_indices("nvidia.com/gpu").any(|(i, m)| {
        !text[i + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// Appends the distribution's GPU path to every finding about `nvidia.com/gpu` (cause and
/// remedy), once per finding.
pub(crate) fn annotate(ctx: &Context<'_>, findings: &mut [crate::Finding]) {
    let Some(d) = detect(ctx) else {
        return;
    };
    let (cause, remedy) = nvidia_gpu_hint(&d);
    for f in findings {
        if !names_nvidia_gpu(&f.message) || f.message.contains(&cause) {
            continue;
        }
        f.message.push_str(&format!("; {cause}"));
        f.remedy = format!("{remedy}; {}", f.remedy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::run_rule;

    #[test]
    fn flags_in_every_spelling() {
        assert_eq!(
            flag("minikube start --driver=docker --addons=x", "--driver"),
            Some("docker")
        );
        assert_eq!(
            flag("sudo minikube start --vm-driver none", "--vm-driver"),
            Some("none")
        );
        assert_eq!(
            flag("`minikube start --driver=kvm2`", "--driver"),
            Some("kvm2")
        );
        assert!(names_nvidia_gpu("Insufficient nvidia.com/gpu."));
        assert!(!names_nvidia_gpu("Insufficient nvidia.com/gpumem"));
    }

    #[test]
    fn minikube_driver_steers_the_remedy() {
        // kubernetes/minikube#19114
        let text = "`minikube start --driver=docker --addons=ingress --addons=nvidia-gpu-device-plugin`\n\n  Warning  FailedScheduling  45s   default-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.\n";
        let f = run_rule("pod-unschedulable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].remedy.contains("--gpus all"), "{}", f[0].remedy);
        let f = run_rule("gpu-not-advertised", text);
        assert!(f.iter().all(|f| f.remedy.contains("--gpus all")), "{f:#?}");
        for (start, want) in [
            ("sudo minikube start --vm-driver=none", "default-runtime"),
            ("minikube start --driver=kvm2", "--kvm-gpu"),
            (
                "i run Minikube on Virtualbox\nminikube start --cpus 4",
                "kvm2",
            ),
            ("kind create cluster --name gpu", "nvidia-container-devices"),
            ("microk8s enable gpu", "gpu-operator-resources"),
            ("k3d cluster create gpu", "--gpus=all"),
        ] {
            let f = run_rule(
                "pod-unschedulable",
                &format!(
                    "{start}\nWarning FailedScheduling 5s default-scheduler 0/1 nodes are available: 1 Insufficient nvidia.com/gpu."
                ),
            );
            assert!(f.iter().any(|f| f.remedy.contains(want)), "{start}: {f:#?}");
        }
        // no distribution named: no hint
        let f = run_rule(
            "pod-unschedulable",
            "Warning FailedScheduling 5s default-scheduler 0/1 nodes are available: 1 Insufficient nvidia.com/gpu.",
        );
        assert!(!f[0].remedy.contains("minikube"), "{f:#?}");
    }
}
