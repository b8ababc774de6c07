//! Resource helpers the rules share: list sums, GPU resource names, quota keys. Effective pod
//! requests come from `cube_quota::requests::pod_requests` (see [`crate::Context::pod_requests`]).

use cube_model::{Quantity, ResourceList};

/// Adds `b` into `a` per resource name (exact; an overflowing sum keeps the old value).
pub fn add_into(a: &mut ResourceList, b: &ResourceList) {
    for (name, q) in b {
        let sum = match a.get(name.as_str()) {
            Some(old) => old.checked_add(q).unwrap_or_else(|| old.clone()),
            None => q.clone(),
        };
        a.insert(name.clone(), sum);
    }
}

/// The quantity of `name` in `list`, zero when absent.
pub fn get_or_zero<'l>(list: &'l ResourceList, name: &str) -> &'l Quantity {
    list.get(name).unwrap_or(&Quantity::ZERO)
}

/// True for extended resource names that denote GPUs or GPU slices: `nvidia.com/gpu`,
/// `nvidia.com/mig-*`, `nvidia.com/gpu.shared`, `amd.com/gpu`, `gpu.intel.com/*`,
/// `*.com/vgpu`, HAMi's `nvidia.com/gpumem`/`gpucores`, legacy `alpha.kubernetes.io/nvidia-gpu`.
pub fn is_gpu_resource(name: &str) -> bool {
    let n = name
        .strip_prefix("requests.")
        .or_else(|| name.strip_prefix("limits."))
        .unwrap_or(name);
    let Some((domain, res)) = n.split_once('/') else {
        return false;
    };
    let gpu_domain = domain.contains("nvidia")
        || domain.contains("amd.com")
        || domain.contains("intel.com")
        || domain.contains("hami")
        || domain.contains("aliyun")
        || domain == "alpha.kubernetes.io";
    (gpu_domain && (res.contains("gpu") || res.starts_with("mig-") || res.contains("vgpu")))
        // every device resource of the GPU evidence model (KubeVirt's `nvidia.com/<model>`,
        // Volcano's vGPU count, ...)
        || cube_model::gpu::gpu_resource_vendor(n).is_some()
}

/// True when `res`, which the node (or every node) does not advertise, qualifies a device the
/// same pod also asks for instead of counting devices: a GPU share attribute
/// ([`cube_model::ResourceName::is_gpu_share_attribute`]: HAMi's `nvidia.com/gpumem`,
/// `gpucores`, ...) or, as the HAMi chart lets every name be renamed (Project-HAMi/HAMi
/// charts/hami/values.yaml `resourceMem`, `resourceCores`, ...) and Volcano's vGPU uses its own
/// (`volcano.sh/vgpu-memory`, `volcano.sh/vgpu-cores`), an extended resource that is not itself a
/// device name while another name of the same domain the pod asks for is advertised
/// (`advertised`). A scheduler extender manages such names (`managedResources` with
/// `ignoredByScheduler: true`) and the kubelet drops requests of extended resources missing from
/// the node at admission (kubernetes/kubernetes pkg/kubelet/lifecycle/predicate.go
/// `removeMissingExtendedResources`: "cluster-level resources"), so they are never node capacity
/// to compare with.
pub fn is_device_attribute<'a>(
    res: &str,
    pod_asks: impl IntoIterator<Item = &'a str>,
    advertised: impl Fn(&str) -> bool,
) -> bool {
    let rn = cube_model::ResourceName::from(res);
    if rn.is_gpu_share_attribute() {
        return true;
    }
    if is_native(res) || rn.is_gpu() || cube_model::gpu::gpu_resource_vendor(res).is_some() {
        return false;
    }
    let Some((domain, _)) = res.split_once('/') else {
        return false;
    };
    pod_asks.into_iter().any(|other| {
        other != res && other.split_once('/').is_some_and(|(d, _)| d == domain) && advertised(other)
    })
}

/// A quota key reduced to the resource it constrains (`requests.nvidia.com/gpu` ->
/// `nvidia.com/gpu`, `limits.memory` -> `memory`, `nvidia.com/gpu` -> `nvidia.com/gpu`).
pub fn quota_key_resource(key: &str) -> &str {
    key.strip_prefix("requests.")
        .or_else(|| key.strip_prefix("limits."))
        .unwrap_or(key)
}

/// True for native resource names (no `/`, or a `kubernetes.io/` domain), as upstream's
/// `IsNativeResource`.
pub fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// What the kubelet's legacy GPU resource `alpha.kubernetes.io/nvidia-gpu` is (kubernetes/
/// kubernetes `pkg/api/v1/types.go` `ResourceNvidiaGPU`, advertised by the kubelet itself with
/// the Accelerators feature gate, v1.6-v1.10; removed in v1.11 by kubernetes#61498, device
/// plugins being the way since v1.8): said wherever a finding names it.
pub(crate) const LEGACY_GPU_NOTE: &str = "alpha.kubernetes.io/nvidia-gpu is the kubelet's own legacy GPU resource (the Accelerators feature gate, Kubernetes 1.6-1.10, removed in 1.11): the kubelet advertises it only with --feature-gates=Accelerators=true and the NVIDIA driver loaded, and it hands the container the /dev/nvidia* devices only, with no driver libraries (libcuda, libnvidia-ml) mounted, so CUDA programs fail to load unless the pod mounts them from the host; nvidia.com/gpu is advertised by the NVIDIA device plugin DaemonSet, whose container runtime hook (nvidia-container-runtime) also mounts the driver libraries";

/// The remedy for a cluster still on the legacy GPU resource.
pub(crate) const LEGACY_GPU_REMEDY: &str = "deploy the NVIDIA device plugin DaemonSet (NVIDIA/k8s-device-plugin; on AKS the nvidia-device-plugin-ds.yaml of the AKS GPU guide; Kubernetes 1.8-1.9 also need --feature-gates=DevicePlugins=true on the kubelets) with the NVIDIA container runtime on the GPU nodes, and request nvidia.com/gpu in the container's limits instead of alpha.kubernetes.io/nvidia-gpu; `kubectl describe node <node> | grep nvidia.com/gpu` then shows it under Capacity and Allocatable";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_names() {
        assert!(is_gpu_resource("nvidia.com/gpu"));
        assert!(is_gpu_resource("requests.nvidia.com/mig-1g.10gb"));
        assert!(is_gpu_resource("amd.com/gpu"));
        assert!(is_gpu_resource("alpha.kubernetes.io/nvidia-gpu"));
        assert!(!is_gpu_resource("cpu"));
        assert!(!is_gpu_resource("cerit.io/gpu-mem") && !is_gpu_resource("example.com/foo"));
    }
}
