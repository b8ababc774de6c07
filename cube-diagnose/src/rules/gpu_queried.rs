//! `gpu-not-advertised` read from the answer to a GPU query: `kubectl get nodes -o
//! custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\.com/gpu` (the command the
//! product itself recommends) printing `<none>` for a node means the field is absent: no device
//! plugin registered the resource with that node's kubelet. The node has no GPU label to say it
//! has GPUs, so the question itself and what the input shows around it (a device plugin
//! deployed, the NVIDIA container toolkit installed, `nvidia-smi` run) carry the expectation;
//! a node of the same answer that does advertise the resource makes the `<none>` rows CPU
//! nodes, which are left alone. On minikube the driver decides how a GPU reaches the node, so
//! the remedy follows the `minikube start` shown (minikube's "Using NVIDIA GPUs with minikube"
//! tutorial: `--driver=none` on the host with Docker's default runtime nvidia, `--driver=kvm2
//! --kvm-gpu` with PCI passthrough, `--driver=docker --gpus all`; VirtualBox and the other
//! hypervisors pass no GPU).

use std::collections::BTreeSet;

use cube_model::describe::ABSENT_ANNOTATION;

use crate::resources::is_gpu_resource;
use crate::rules::node_subject;
use crate::{Context, Evidence, Finding, Severity};

/// Words of a paste that show GPUs are expected on the cluster, with what they say.
const INTENT: &[(&str, &str)] = &[
    (
        "nvidia-device-plugin",
        "the NVIDIA device plugin was deployed",
    ),
    ("k8s-device-plugin", "the NVIDIA device plugin was deployed"),
    ("gpu-operator", "the GPU operator was installed"),
    ("nvidia-docker", "nvidia-docker is installed"),
    (
        "nvidia-container-toolkit",
        "the NVIDIA container toolkit is installed",
    ),
    (
        "nvidia-container-runtime",
        "the NVIDIA container runtime is installed",
    ),
    ("nvidia-smi", "nvidia-smi was run"),
    ("accelerators=true", "the Accelerators feature gate was set"),
    ("--gpus", "GPUs were asked for (--gpus)"),
    ("cuda", "CUDA is installed"),
];

/// The minikube driver a paste shows: a `minikube start` line's `--driver` / `--vm-driver`
/// value, else a hypervisor the prose names next to minikube; `Some("")` for minikube without
/// a known driver, `None` without minikube.
fn minikube_driver(text: &str, node_minikube: bool) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    for line in lower.lines().filter(|l| l.contains("minikube start")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            for flag in ["--driver", "--vm-driver"] {
                if let Some(v) = w.strip_prefix(flag) {
                    let v = match v.strip_prefix('=') {
                        Some(v) => v,
                        None if v.is_empty() => words.get(i + 1).copied().unwrap_or_default(),
                        None => continue,
                    };
                    let v = v.trim_matches(['`', '"', '\'']);
                    if !v.is_empty() {
                        return Some(v.to_owned());
                    }
                }
            }
        }
    }
    if !(lower.contains("minikube") || node_minikube) {
        return None;
    }
    for hv in [
        "virtualbox",
        "hyperkit",
        "hyper-v",
        "hyperv",
        "vmware",
        "parallels",
        "qemu",
    ] {
        if lower.contains(hv) {
            return Some(hv.to_owned());
        }
    }
    Some(String::new())
}

/// Cause and remedy for a minikube node without GPUs, by driver.
fn minikube_remedy(driver: &str, res: &str) -> (String, String) {
    match driver {
        "none" | "bare-metal" | "baremetal" => (
            format!("with minikube's none driver the node is this host and the device plugin runs in Docker, which gives the plugin no NVIDIA library unless nvidia is Docker's default runtime, so the plugin registers no {res}"),
            format!("make nvidia Docker's default runtime on the host (\"default-runtime\": \"nvidia\" in /etc/docker/daemon.json, with the nvidia runtime of the NVIDIA container toolkit: `sudo nvidia-ctk runtime configure --runtime=docker --set-as-default`), `sudo systemctl restart docker`, then delete the device-plugin pod so it restarts and registers {res}"),
        ),
        "docker" | "podman" => (
            format!("with minikube's {driver} driver the node is a container that gets the host's GPUs only when started with --gpus; the device plugin then finds no GPU and registers no {res}"),
            format!("recreate the cluster with the GPUs passed in: `minikube delete && minikube start --driver {driver} --container-runtime docker --gpus all` (minikube v1.32+, the NVIDIA container toolkit configured for {driver} on the host); `minikube addons enable nvidia-device-plugin` alone adds no GPU"),
        ),
        "kvm2" | "kvm" => (
            format!("with minikube's kvm2 driver the VM sees a GPU only through PCI passthrough (--kvm-gpu); without it the device plugin finds no GPU and registers no {res}"),
            "bind the GPU to vfio-pci on the host (IOMMU on), then `minikube delete && minikube start --driver kvm2 --kvm-gpu`".to_owned(),
        ),
        hv => {
            let vm = if hv.is_empty() {
                "minikube's VM".to_owned()
            } else {
                format!("a {hv} VM")
            };
            (
                format!("{vm} gets no GPU from the host (the hypervisor passes none through), so the device plugin inside it finds no GPU and registers no {res}"),
                "start minikube with a driver that passes the GPU: `minikube start --driver kvm2 --kvm-gpu` (Linux, the GPU bound to vfio-pci for PCI passthrough), `minikube start --driver docker --container-runtime docker --gpus all` (minikube v1.32+, NVIDIA container toolkit on the host), or `--driver none` on the GPU host itself".to_owned(),
            )
        }
    }
}

/// Findings for queried nodes whose GPU column is `<none>` (see the module documentation);
/// nodes `already` has a finding for are skipped.
pub(crate) fn findings(ctx: &Context<'_>, already: &[Finding]) -> Vec<Finding> {
    let nodes = &ctx.snapshot().nodes;
    let advertised: BTreeSet<String> = nodes
        .iter()
        .flat_map(|n| n.status.allocatable.iter().chain(n.status.capacity.iter()))
        .filter(|(k, q)| is_gpu_resource(k.as_str()) && !q.is_zero())
        .map(|(k, _)| k.to_string())
        .collect();
    let text: String = ctx
        .logs()
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let lower = text.to_ascii_lowercase();
    let mut intent: Vec<&str> = INTENT
        .iter()
        .filter(|(w, _)| lower.contains(w))
        .map(|(_, s)| *s)
        .collect();
    intent.dedup();
    let mut out = Vec::new();
    for n in nodes {
        let Some(absent) = n.metadata.annotations.get(ABSENT_ANNOTATION) else {
            continue;
        };
        let subject = node_subject(n);
        if already.iter().any(|f| f.subject == subject) {
            continue;
        }
        let Some((field, res)) = absent.split(',').find_map(|f| {
            let res = f
                .strip_prefix("status.allocatable.")
                .or_else(|| f.strip_prefix("status.capacity."))?;
            is_gpu_resource(res).then_some((f, res))
        }) else {
            continue;
        };
        // another node of the input advertises it: the `<none>` rows are CPU nodes
        if advertised.contains(res) {
            continue;
        }
        let expectation = if intent.is_empty() {
            "the query asks for it".to_owned()
        } else {
            intent.join(", ")
        };
        let (cause, remedy) = match minikube_driver(&text, n.metadata.name == "minikube") {
            Some(driver) => minikube_remedy(&driver, res),
            None => (
                format!(
                    "no device plugin registered {res} with the node's kubelet: the plugin does not run on the node, or runs and finds no GPU (no driver, or a container runtime that gives it no NVIDIA library)"
                ),
                format!(
                    "check the device-plugin pod on the node (`kubectl get pods -A -o wide | grep -i device-plugin`) and its log: `NVML` or `could not load` errors mean the node's container runtime does not give it the driver (make nvidia the runtime's default runtime), no pod means its DaemonSet does not select the node; `kubectl describe node {}` then shows {res} under Capacity",
                    n.metadata.name
                ),
            ),
        };
        let severity = if intent.is_empty() {
            Severity::Warning
        } else {
            Severity::Error
        };
        out.push(
            Finding::new(
                crate::rules::gpu_not_advertised::GpuNotAdvertised::ID,
                severity,
                subject,
                format!(
                    "node {} advertises no {res}: the `kubectl get nodes` query of {field} shows no value (`<none>` in custom-columns, nothing in jsonpath: the field is absent) while GPUs are expected ({expectation}); {cause}",
                    n.metadata.name
                ),
            )
            .with_evidence(Evidence::field(
                format!("Node/{}", n.metadata.name),
                field,
                "<none>",
            ))
            .with_remedy(remedy),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn custom_columns_none_with_the_command_shown_apart() {
        // NVIDIA/k8s-device-plugin#57: none driver, the table quoted and `<none>` escaped
        let t = "```bash\nsudo minikube start --vm-driver=none --feature-gates=Accelerators=true\nkubectl create -f https://raw.githubusercontent.com/NVIDIA/k8s-device-plugin/v1.10/nvidia-device-plugin.yml\nkubectl get nodes -o=custom-columns=NAME:.metadata.name,GPUs:.status.capacity.'nvidia\\.com/gpu'\n```\nGetting:\n\n> NAME       GPUs\n> minikube   \\<none\\>\n";
        let f = run_rule("gpu-not-advertised", t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.name, "minikube");
        assert!(f[0].remedy.contains("default-runtime"), "{}", f[0].remedy);
        // kubernetes/minikube#5005: VirtualBox, the command in backticks with a quoted option
        let v = "i run Minikube on Virtualbox\n`minikube start --disk-size 50g --memory 8192 --cpus 4`\n\n`kubectl create -f https://raw.githubusercontent.com/NVIDIA/k8s-device-plugin/1.0.0-beta/nvidia-device-plugin.yml`\n\n`kubectl get nodes \"-o=custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu\"`\n\nresult is\n```\nNAME       GPU\nminikube   <none>\n```\n";
        let f = run_rule("gpu-not-advertised", v);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].remedy.contains("kvm2"), "{}", f[0].remedy);
        // a GPU node in the same answer: the `<none>` row is a CPU node
        let mixed = "$ kubectl get nodes -o custom-columns=NAME:.metadata.name,GPU:.status.allocatable.nvidia\\.com/gpu\nNAME      GPU\ngpu-a     4\ncpu-b     <none>\n";
        assert!(run_rule("gpu-not-advertised", mixed).is_empty());
    }
}
