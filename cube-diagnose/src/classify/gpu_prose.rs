//! GPU facts that a report tells only in prose and in the commands it pastes, with no node
//! object to read: the cloud GPU VM size a cluster was created with (`az aks create ...
//! --node-vm-size Standard_NC6 --kubernetes-version 1.10.3`, `eksctl create cluster
//! --node-type p3.2xlarge`, `gcloud container clusters create --accelerator
//! type=nvidia-tesla-k80,count=1`) next to a sentence saying the node shows no GPU, and the
//! kubelet's legacy GPU resource `alpha.kubernetes.io/nvidia-gpu` named next to a failure.
//!
//! Each is one [`SignalKind::GpuProse`] signal (details `fact`: `gpu-vm-no-gpu` with `vm`,
//! `cloud`, `vendor`, `resource`, `version` when the command names one; `legacy-resource`),
//! read by
//! `gpu-not-advertised` when the input has no node status of its own.
//!
//! Sources: VM sizes are the GPU instance families of the GPU vocabulary
//! ([`cube_model::gpu::GpuVocabulary`], Azure N-series, AWS p/g families, GCP a2/a3/g2); the
//! flags are those of `az aks create` / `az aks nodepool add` (`--node-vm-size`,
//! `--kubernetes-version`), `eksctl create cluster|nodegroup` (`--node-type`,
//! `--instance-types`, `--version`), `aws ec2 run-instances` (`--instance-type`) and `gcloud
//! container clusters|node-pools create` / `gcloud compute instances create`
//! (`--machine-type`, `--accelerator type=<gpu>,count=<n>`, `--cluster-version`). The legacy
//! resource: kubernetes/kubernetes `pkg/api/v1/types.go` `ResourceNvidiaGPU`
//! (`alpha.kubernetes.io/nvidia-gpu`, advertised by the kubelet itself under the Accelerators
//! feature gate, v1.6-v1.10; removed in v1.11, kubernetes#61498), which exposed the
//! `/dev/nvidia*` devices only and mounted no driver library into the container.

use std::collections::BTreeMap;

use cube_model::gpu::{GpuVocabulary, MarkerKind};
use cube_model::node::GpuVendor;

use super::{Signal, SignalKind};
use crate::Subject;

/// The legacy resource name.
const LEGACY: &str = cube_model::resource::names::LEGACY_NVIDIA_GPU;

/// Flags that name a VM size or machine type, per cloud.
const VM_FLAGS: &[(&str, &str)] = &[
    ("--node-vm-size", "Azure"),
    ("--node-type", "AWS"),
    ("--instance-types", "AWS"),
    ("--instance-type", "AWS"),
    ("--machine-type", "GCP"),
];

/// Flags that name the Kubernetes version of the cluster being created.
const VERSION_FLAGS: &[&str] = &["--kubernetes-version", "--cluster-version", "--version"];

/// Phrases saying a node shows no GPU (lower case).
const NO_GPU: &[&str] = &[
    "no gpu",
    "no nvidia.com/gpu",
    "not see any gpu",
    "not see the gpu",
    "not seeing any gpu",
    "not seeing the gpu",
    "gpu is not listed",
    "gpus are not listed",
    "gpu not listed",
    "gpu not showing",
    "gpu is not showing",
    "not showing any gpu",
    "doesn't show any gpu",
    "does not show any gpu",
    "without any gpu",
    "0 gpu",
    "gpu: 0",
    "nvidia.com/gpu: 0",
    "insufficient nvidia.com/gpu",
];

/// Words that say something failed (lower case).
const FAILURE: &[&str] = &[
    "error",
    "fail",
    "traceback",
    "insufficient",
    "instead of",
    "not work",
    "doesn't work",
    "cannot",
    "can't",
    "unable",
    "missing",
    "not found",
    "no gpu",
];

/// The value of `--flag=v` / `--flag v` among `words`.
fn flag_value<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    let clean = |w: &'a str| w.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | ','));
    for (i, w) in words.iter().enumerate() {
        let w = clean(w);
        if let Some(rest) = w.strip_prefix(name) {
            if let Some(v) = rest.strip_prefix('=') {
                return Some(clean(v));
            }
            if rest.is_empty() {
                return words.get(i + 1).map(|v| clean(v));
            }
        }
    }
    None
}

/// The GPU vendor of a VM size or machine type (the vocabulary's instance families): the
/// vendor's name and its device-count resource.
fn gpu_vm(size: &str) -> Option<(&'static str, &'static str)> {
    let m = GpuVocabulary::builtin().find(
        MarkerKind::Label,
        "node.kubernetes.io/instance-type",
        size,
    )?;
    Some(match m.vendor {
        Some(GpuVendor::Amd) => ("AMD", GpuVendor::Amd.resource_name()),
        Some(GpuVendor::Intel) => ("Intel", GpuVendor::Intel.resource_name()),
        _ => ("NVIDIA", GpuVendor::Nvidia.resource_name()),
    })
}

/// The GPU facts of `text` (see the module documentation).
pub(crate) fn check(source: &str, text: &str) -> Vec<Signal> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let signal = |line: usize, l: &str, d: BTreeMap<String, String>| Signal {
        kind: SignalKind::GpuProse,
        source: source.to_owned(),
        line,
        text: crate::finding::redact(l.trim()),
        join: false,
        object: None::<Subject>,
        details: d,
    };
    // a GPU VM created by a pasted command, and a sentence saying no GPU shows
    if NO_GPU.iter().any(|p| lower.contains(p)) {
        for (i, l) in text.lines().enumerate() {
            let words: Vec<&str> = l.split_whitespace().collect();
            let mut d = BTreeMap::new();
            for (flag, cloud) in VM_FLAGS {
                if let Some(v) = flag_value(&words, flag)
                    && let Some((vendor, resource)) = v.split(',').find_map(gpu_vm)
                {
                    d.insert("vm".to_owned(), v.to_owned());
                    d.insert("cloud".to_owned(), (*cloud).to_owned());
                    d.insert("vendor".to_owned(), vendor.to_owned());
                    d.insert("resource".to_owned(), resource.to_owned());
                    break;
                }
            }
            // GCP: `--accelerator type=nvidia-tesla-k80,count=1` (the GPU attached to any
            // machine type)
            if d.is_empty()
                && let Some(a) = flag_value(&words, "--accelerator")
                && let Some(gpu) = a
                    .split(',')
                    .find_map(|kv| kv.strip_prefix("type="))
                    .filter(|t| t.starts_with("nvidia-"))
            {
                d.insert("vm".to_owned(), format!("accelerator {gpu}"));
                d.insert("cloud".to_owned(), "GCP".to_owned());
                d.insert("vendor".to_owned(), "NVIDIA".to_owned());
                d.insert(
                    "resource".to_owned(),
                    GpuVendor::Nvidia.resource_name().to_owned(),
                );
            }
            if d.is_empty() {
                continue;
            }
            if let Some(v) = VERSION_FLAGS.iter().find_map(|f| flag_value(&words, f)) {
                d.insert("version".to_owned(), v.to_owned());
            }
            d.insert("fact".to_owned(), "gpu-vm-no-gpu".to_owned());
            out.push(signal(i + 1, l, d));
            break;
        }
    }
    // the legacy resource named next to a failure
    if lower.contains(LEGACY) && FAILURE.iter().any(|w| lower.contains(w)) {
        let (i, l) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(LEGACY))
            .unwrap_or((0, ""));
        let mut d = BTreeMap::new();
        d.insert("fact".to_owned(), "legacy-resource".to_owned());
        out.push(signal(i + 1, l, d));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_vm_sizes_of_every_cloud_next_to_no_gpu() {
        for (line, vm, cloud) in [
            (
                "az aks create --name c --node-vm-size Standard_NC6 --kubernetes-version 1.10.3 --node-count 1",
                "Standard_NC6",
                "Azure",
            ),
            (
                "az aks nodepool add -g rg --cluster-name c -n gpu --node-vm-size=Standard_ND96asr_v4",
                "Standard_ND96asr_v4",
                "Azure",
            ),
            (
                "eksctl create cluster --name c --node-type p3.2xlarge --version 1.29",
                "p3.2xlarge",
                "AWS",
            ),
            (
                "eksctl create nodegroup --cluster c --instance-types g4dn.xlarge,g5.xlarge",
                "g4dn.xlarge,g5.xlarge",
                "AWS",
            ),
            (
                "aws ec2 run-instances --instance-type p4d.24xlarge --count 1",
                "p4d.24xlarge",
                "AWS",
            ),
            (
                "gcloud container node-pools create gpu --machine-type a2-highgpu-1g",
                "a2-highgpu-1g",
                "GCP",
            ),
            (
                "gcloud container clusters create c --accelerator type=nvidia-tesla-k80,count=1",
                "accelerator nvidia-tesla-k80",
                "GCP",
            ),
        ] {
            let s = check(
                "t",
                &format!("{line}\n\nThere is no gpu listed under capacity.\n"),
            );
            assert_eq!(s.len(), 1, "{line}: {s:#?}");
            assert_eq!(s[0].detail("fact"), "gpu-vm-no-gpu");
            assert_eq!(s[0].detail("vm"), vm, "{line}");
            assert_eq!(s[0].detail("cloud"), cloud, "{line}");
        }
        let s = check(
            "t",
            "az aks create --node-vm-size Standard_NC6 --kubernetes-version 1.10.3\nno gpu under capacity\n",
        );
        assert_eq!(s[0].detail("version"), "1.10.3");
        // a CPU size, or a GPU size with no symptom: nothing
        assert!(
            check(
                "t",
                "az aks create --node-vm-size Standard_D4s_v3\nno gpu\n"
            )
            .is_empty()
        );
        assert!(
            check(
                "t",
                "eksctl create cluster --node-type p3.2xlarge\nall good\n"
            )
            .is_empty()
        );
    }

    #[test]
    fn the_legacy_resource_next_to_a_failure() {
        let s = check(
            "t",
            "it only have alpha.kubernetes.io/nvidia-gpu resource instead of nvidia.com/gpu\nTraceback (most recent call last):\n",
        );
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].detail("fact"), "legacy-resource");
        assert_eq!(s[0].line, 1);
        // a manifest using it, nothing failing: nothing
        assert!(check("t", "limits:\n  alpha.kubernetes.io/nvidia-gpu: 1\n").is_empty());
    }
}
