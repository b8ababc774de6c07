//! The accelerator vendors whose device plugins people paste logs of: for each, the extended
//! resource names its plugin registers with the kubelet, the plugin's name and the upstream
//! repository it comes from. The log classifiers ([`crate::classify`]) use it to say whose
//! plugin a log is and which resource will not become allocatable when it fails; the table is
//! data, one row per vendor, so another vendor is one more row.
//!
//! Resource names are the plugins' own (`ResourceName` / `resourceName` of their registration
//! request), taken from the files cited on each row.

/// One accelerator vendor's device plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accelerator {
    /// The vendor as people name it (`AMD`, `Huawei Ascend`).
    pub vendor: &'static str,
    /// The device plugin (`AMD GPU device plugin`).
    pub plugin: &'static str,
    /// Resource-name patterns the plugin registers: an exact name (`amd.com/gpu`) or a prefix
    /// ending with `/` or `*` (`gpu.intel.com/`, `huawei.com/Ascend*`).
    pub resources: &'static [&'static str],
    /// The device kind in one word (`GPU`, `NPU`, `MLU`).
    pub device: &'static str,
    /// Upstream repository and file the names come from.
    pub cite: &'static str,
}

impl Accelerator {
    /// True when `resource` is one of this plugin's names.
    pub fn serves(&self, resource: &str) -> bool {
        self.resources.iter().any(|p| {
            if let Some(prefix) = p.strip_suffix('*') {
                resource.starts_with(prefix)
            } else if p.ends_with('/') {
                resource.starts_with(p)
            } else {
                resource == *p
            }
        })
    }
}

const HAMI_DEVICES: &str = "Project-HAMi/HAMi charts/hami/values.yaml and charts/hami/templates/scheduler/device-configmap.yaml (resourceCountName of each vendor)";

/// Every known vendor, in match order (specific rows first).
pub static ACCELERATORS: &[Accelerator] = &[
    Accelerator {
        vendor: "NVIDIA",
        plugin: "NVIDIA device plugin",
        resources: &["nvidia.com/"],
        device: "GPU",
        cite: "NVIDIA/k8s-device-plugin api/config/v1/resources.go (nvidia.com/gpu, nvidia.com/mig-*)",
    },
    Accelerator {
        vendor: "AMD",
        plugin: "AMD GPU device plugin (ROCm/k8s-device-plugin)",
        resources: &["amd.com/"],
        device: "GPU",
        cite: "ROCm/k8s-device-plugin internal/pkg/plugin/plugin.go (GetResourceNamespace amd.com), cmd/k8s-device-plugin/main.go (resource gpu; mixed strategy amd.com/<partition>), k8s-ds-amdgpu-dp.yaml (DaemonSet amdgpu-device-plugin-daemonset)",
    },
    Accelerator {
        vendor: "Intel Gaudi (Habana)",
        plugin: "Habana device plugin",
        resources: &["habana.ai/"],
        device: "Gaudi accelerator",
        cite: "HabanaAI/habanalabs-k8s-device-plugin (resource habana.ai/gaudi)",
    },
    Accelerator {
        vendor: "Intel",
        plugin: "Intel GPU device plugin",
        resources: &["gpu.intel.com/"],
        device: "GPU",
        cite: "intel/intel-device-plugins-for-kubernetes cmd/gpu_plugin/gpu_plugin.go (namespace gpu.intel.com, device types i915 and xe)",
    },
    Accelerator {
        vendor: "AWS Neuron",
        plugin: "Neuron device plugin",
        resources: &["aws.amazon.com/neuron*"],
        device: "Neuron device",
        cite: "aws-neuron/neuron-helm-charts (aws.amazon.com/neuron, aws.amazon.com/neuroncore, aws.amazon.com/neurondevice); Project-HAMi/HAMi device-configmap.yaml awsneuron",
    },
    Accelerator {
        vendor: "AWS",
        plugin: "AWS virtual GPU device plugin",
        resources: &["k8s.amazonaws.com/vgpu"],
        device: "vGPU",
        cite: "awslabs/aws-virtual-gpu-device-plugin (resource k8s.amazonaws.com/vgpu)",
    },
    Accelerator {
        vendor: "Google",
        plugin: "GKE TPU device plugin",
        resources: &["google.com/tpu"],
        device: "TPU",
        cite: "GKE TPU node pools (resource google.com/tpu; node labels cloud.google.com/gke-tpu-accelerator, cloud.google.com/gke-tpu-topology)",
    },
    Accelerator {
        vendor: "Huawei Ascend",
        plugin: "Ascend device plugin",
        resources: &["huawei.com/Ascend*", "huawei.com/npu"],
        device: "NPU",
        cite: "Ascend/mind-cluster component/ascend-device-plugin (huawei.com/Ascend910, Ascend310, Ascend310P); Project-HAMi/HAMi device-configmap.yaml (huawei.com/Ascend910B2 ...)",
    },
    Accelerator {
        vendor: "Cambricon",
        plugin: "Cambricon MLU device plugin",
        resources: &["cambricon.com/"],
        device: "MLU",
        cite: "Cambricon/cambricon-k8s-device-plugin (cambricon.com/mlu); Project-HAMi/HAMi values.yaml mluResourceName cambricon.com/vmlu",
    },
    Accelerator {
        vendor: "Hygon",
        plugin: "Hygon DCU device plugin",
        resources: &["hygon.com/"],
        device: "DCU",
        cite: "Hygon DCU device plugin (hygon.com/dcu); Project-HAMi/HAMi values.yaml dcuResourceName hygon.com/dcunum",
    },
    Accelerator {
        vendor: "Iluvatar",
        plugin: "Iluvatar GPU device plugin",
        resources: &["iluvatar.ai/"],
        device: "GPU",
        cite: "Iluvatar CoreX device plugin (iluvatar.ai/gpu); Project-HAMi/HAMi device-configmap.yaml (iluvatar.ai/<chip>-vgpu)",
    },
    Accelerator {
        vendor: "MetaX",
        plugin: "MetaX GPU device plugin",
        resources: &["metax-tech.com/"],
        device: "GPU",
        cite: HAMI_DEVICES,
    },
    Accelerator {
        vendor: "Moore Threads",
        plugin: "Moore Threads GPU device plugin",
        resources: &["mthreads.com/"],
        device: "GPU",
        cite: HAMI_DEVICES,
    },
    Accelerator {
        vendor: "Enflame",
        plugin: "Enflame GCU device plugin",
        resources: &["enflame.com/"],
        device: "GCU",
        cite: HAMI_DEVICES,
    },
    Accelerator {
        vendor: "Kunlunxin",
        plugin: "Kunlunxin XPU device plugin",
        resources: &["kunlunxin.com/"],
        device: "XPU",
        cite: HAMI_DEVICES,
    },
    Accelerator {
        vendor: "Biren",
        plugin: "Biren GPU device plugin",
        resources: &["birentech.com/"],
        device: "GPU",
        cite: HAMI_DEVICES,
    },
    Accelerator {
        vendor: "Vastai",
        plugin: "Vastai device plugin",
        resources: &["vastaitech.com/"],
        device: "accelerator",
        cite: HAMI_DEVICES,
    },
];

/// The vendor row of a resource name (`amd.com/gpu` -> AMD), if known.
pub fn by_resource(resource: &str) -> Option<&'static Accelerator> {
    ACCELERATORS.iter().find(|a| a.serves(resource))
}

/// The resource name a device-plugin socket or endpoint stands for: plugins built on the
/// device-plugin-manager library name their socket `<resource namespace>_<resource>`
/// (kubevirt/device-plugin-manager pkg/dpm/plugin.go newDevicePlugin: `Socket:
/// DevicePluginPath + resourceNamespace + "_" + pluginName`; ROCm/k8s-device-plugin registers
/// `amd.com_gpu`), with or without `.sock` and a
/// directory. `None` when the word has no such shape (a domain with a dot, `_`, a name).
pub fn endpoint_resource(endpoint: &str) -> Option<String> {
    let base = endpoint
        .trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | ',' | '.' | ')' | '('))
        .rsplit('/')
        .next()?;
    let base = base.strip_suffix(".sock").unwrap_or(base);
    let (ns, name) = base.split_once('_')?;
    let dns = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
    };
    if !ns.contains('.')
        || ns.starts_with('.')
        || ns.ends_with('.')
        || !dns(ns)
        || name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
    {
        return None;
    }
    Some(format!("{ns}/{name}"))
}

/// `the AMD GPU device plugin (ROCm/k8s-device-plugin)` for a known resource, else `the device
/// plugin of <resource>`.
pub fn plugin_name(resource: &str) -> String {
    match by_resource(resource) {
        Some(a) => format!("the {}", a.plugin),
        None => format!("the device plugin of {resource}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_name_their_resource() {
        assert_eq!(
            endpoint_resource("amd.com_gpu").as_deref(),
            Some("amd.com/gpu")
        );
        assert_eq!(
            endpoint_resource("/var/lib/kubelet/device-plugins/cambricon.com_mlu.sock").as_deref(),
            Some("cambricon.com/mlu")
        );
        assert_eq!(endpoint_resource("nvidia-gpu.sock"), None);
        assert_eq!(endpoint_resource("kubelet.sock"), None);
        assert_eq!(endpoint_resource("snake_case"), None);
    }

    #[test]
    fn every_vendor_resolves() {
        for (r, v) in [
            ("amd.com/gpu", "AMD"),
            ("gpu.intel.com/i915", "Intel"),
            ("gpu.intel.com/xe", "Intel"),
            ("habana.ai/gaudi", "Intel Gaudi (Habana)"),
            ("aws.amazon.com/neuroncore", "AWS Neuron"),
            ("aws.amazon.com/neurondevice", "AWS Neuron"),
            ("k8s.amazonaws.com/vgpu", "AWS"),
            ("google.com/tpu", "Google"),
            ("huawei.com/Ascend910", "Huawei Ascend"),
            ("cambricon.com/mlu", "Cambricon"),
            ("hygon.com/dcu", "Hygon"),
            ("iluvatar.ai/gpu", "Iluvatar"),
            ("metax-tech.com/gpu", "MetaX"),
            ("mthreads.com/gpu", "Moore Threads"),
            ("enflame.com/gcu", "Enflame"),
            ("kunlunxin.com/xpu", "Kunlunxin"),
            ("nvidia.com/gpu", "NVIDIA"),
        ] {
            assert_eq!(by_resource(r).map(|a| a.vendor), Some(v), "{r}");
        }
        assert!(by_resource("example.com/widget").is_none());
        assert_eq!(
            plugin_name("example.com/widget"),
            "the device plugin of example.com/widget"
        );
    }
}
