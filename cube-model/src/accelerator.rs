//! The accelerator vendors whose device plugins run in the clusters people diagnose: for each,
//! the extended resource names its plugin registers with the kubelet, the plugin's name, the
//! names of its DaemonSet / pods and images, the node labels its nodes carry, and the upstream
//! repository the names come from. One row per vendor: another vendor is one more row.
//!
//! Only NVIDIA, AMD and Intel GPUs are GPUs of the GPU model ([`crate::gpu`]); a node or pod of
//! the other accelerators (Ascend NPUs, Gaudi, Neuron, TPUs, MLUs, DCUs, ...) is not a GPU node
//! or GPU component, and a generic claim such as `accelerator=...` on such a node is about that
//! accelerator. The log classifiers of cube-diagnose use the table to say whose plugin a log is
//! and which resource will not become allocatable when it fails.

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
    /// True for the vendors of the GPU model ([`crate::GpuVendor`]: NVIDIA, AMD, Intel GPUs),
    /// whose labels, pods and resources the GPU vocabulary reads; false for the other
    /// accelerators, whose nodes are not GPU nodes.
    pub gpu_model: bool,
    /// Fragments of the plugin's DaemonSet / pod names or images (`ascend-device-plugin`,
    /// `ascend-k8sdeviceplugin`): a component of another accelerator, not a GPU component.
    pub components: &'static [&'static str],
    /// Node label (key, value glob) pairs the vendor's nodes carry (`accelerator` =
    /// `huawei-Ascend*`): not GPU claims.
    pub labels: &'static [(&'static str, &'static str)],
    /// The resource its plugin registers by default (`habana.ai/gaudi`).
    pub resource: &'static str,
    /// Words only this plugin's own log carries (its logger's service name, its management
    /// library: `habana-device-plugin`, `hlml`), saying whose log a text is when its
    /// registration line does not name the resource.
    pub log_markers: &'static [&'static str],
    /// Id prefixes of the diagnosis message catalog's entries for this vendor's own plugin
    /// messages (`amd.`): a log holding one is this plugin's, and names this plugin and its
    /// [`Accelerator::resource`] when no line names a resource. Empty for vendors without
    /// entries of their own.
    pub catalog_prefixes: &'static [&'static str],
    /// Id prefixes among those that are the vendor's other components, not its device plugin
    /// (`amd.labeller`: the AMD node labeller).
    pub catalog_other: &'static [&'static str],
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
        gpu_model: true,
        components: &[],
        labels: &[],
        resource: "nvidia.com/gpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "AMD",
        plugin: "AMD GPU device plugin (ROCm/k8s-device-plugin)",
        resources: &["amd.com/"],
        device: "GPU",
        cite: "ROCm/k8s-device-plugin internal/pkg/plugin/plugin.go (GetResourceNamespace amd.com), cmd/k8s-device-plugin/main.go (resource gpu; mixed strategy amd.com/<partition>), k8s-ds-amdgpu-dp.yaml (DaemonSet amdgpu-device-plugin-daemonset)",
        gpu_model: true,
        components: &[],
        labels: &[],
        resource: "amd.com/gpu",
        log_markers: &[],
        catalog_prefixes: &["amd."],
        catalog_other: &["amd.labeller"],
    },
    Accelerator {
        vendor: "Intel Gaudi (Habana)",
        plugin: "Habana device plugin",
        resources: &["habana.ai/"],
        device: "Gaudi accelerator",
        cite: "HabanaAI/habanalabs-k8s-device-plugin main.go (resource habana.ai/<device type>, socket <type>_habanalabs.sock, slog service habana-device-plugin), habana-k8s-device-plugin.yaml (DaemonSet habanalabs-device-plugin-daemonset)",
        gpu_model: false,
        components: &["habana", "gaudi"],
        labels: &[],
        resource: "habana.ai/gaudi",
        log_markers: &[
            "habana-device-plugin",
            "Initializing HLML",
            "failed to initialize HLML",
        ],
        catalog_prefixes: &["habana."],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Intel",
        plugin: "Intel GPU device plugin",
        resources: &["gpu.intel.com/"],
        device: "GPU",
        cite: "intel/intel-device-plugins-for-kubernetes cmd/gpu_plugin/gpu_plugin.go (namespace gpu.intel.com, device types i915 and xe)",
        gpu_model: true,
        components: &[],
        labels: &[],
        resource: "gpu.intel.com/i915",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "AWS Neuron",
        plugin: "Neuron device plugin",
        resources: &["aws.amazon.com/neuron*"],
        device: "Neuron device",
        cite: "aws-neuron/neuron-helm-charts (aws.amazon.com/neuron, aws.amazon.com/neuroncore, aws.amazon.com/neurondevice); Project-HAMi/HAMi device-configmap.yaml awsneuron",
        gpu_model: false,
        components: &["neuron-device-plugin", "neuron-scheduler", "neuron-monitor"],
        labels: &[],
        resource: "aws.amazon.com/neuron",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "AWS",
        plugin: "AWS virtual GPU device plugin",
        resources: &["k8s.amazonaws.com/vgpu"],
        device: "vGPU",
        cite: "awslabs/aws-virtual-gpu-device-plugin (resource k8s.amazonaws.com/vgpu)",
        gpu_model: false,
        components: &["aws-virtual-gpu-device-plugin"],
        labels: &[],
        resource: "k8s.amazonaws.com/vgpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Google",
        plugin: "GKE TPU device plugin",
        resources: &["google.com/tpu"],
        device: "TPU",
        cite: "GKE TPU node pools (resource google.com/tpu; node labels cloud.google.com/gke-tpu-accelerator, cloud.google.com/gke-tpu-topology)",
        gpu_model: false,
        components: &["tpu-device-plugin"],
        labels: &[
            ("cloud.google.com/gke-tpu-accelerator", "*"),
            ("cloud.google.com/gke-tpu-topology", "*"),
        ],
        resource: "google.com/tpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Huawei Ascend",
        plugin: "Ascend device plugin",
        resources: &["huawei.com/Ascend*", "huawei.com/npu"],
        device: "NPU",
        cite: "Ascend/mind-cluster component/ascend-device-plugin (huawei.com/Ascend910, Ascend310, Ascend310P); Project-HAMi/HAMi device-configmap.yaml (huawei.com/Ascend910B2 ...)",
        gpu_model: false,
        components: &[
            "ascend-device-plugin",
            "ascend-k8sdeviceplugin",
            "ascendhub/",
        ],
        labels: &[("accelerator", "huawei-ascend*")],
        resource: "huawei.com/Ascend910",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Cambricon",
        plugin: "Cambricon MLU device plugin",
        resources: &["cambricon.com/"],
        device: "MLU",
        cite: "Cambricon/cambricon-k8s-device-plugin (cambricon.com/mlu); Project-HAMi/HAMi values.yaml mluResourceName cambricon.com/vmlu",
        gpu_model: false,
        components: &["cambricon"],
        labels: &[],
        resource: "cambricon.com/mlu",
        log_markers: &["libcndev", "CNDEV"],
        catalog_prefixes: &["cambricon."],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Hygon",
        plugin: "Hygon DCU device plugin",
        resources: &["hygon.com/"],
        device: "DCU",
        cite: "Hygon DCU device plugin (hygon.com/dcu); Project-HAMi/HAMi values.yaml dcuResourceName hygon.com/dcunum",
        gpu_model: false,
        components: &["hygon", "dcu-device-plugin"],
        labels: &[],
        resource: "hygon.com/dcu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Iluvatar",
        plugin: "Iluvatar GPU device plugin",
        resources: &["iluvatar.ai/"],
        device: "GPU",
        cite: "Iluvatar CoreX device plugin (iluvatar.ai/gpu); Project-HAMi/HAMi device-configmap.yaml (iluvatar.ai/<chip>-vgpu)",
        gpu_model: false,
        components: &["iluvatar"],
        labels: &[],
        resource: "iluvatar.ai/gpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "MetaX",
        plugin: "MetaX GPU device plugin",
        resources: &["metax-tech.com/"],
        device: "GPU",
        cite: HAMI_DEVICES,
        gpu_model: false,
        components: &["metax"],
        labels: &[],
        resource: "metax-tech.com/gpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Moore Threads",
        plugin: "Moore Threads GPU device plugin",
        resources: &["mthreads.com/"],
        device: "GPU",
        cite: HAMI_DEVICES,
        gpu_model: false,
        components: &["mthreads", "moorethreads"],
        labels: &[],
        resource: "mthreads.com/gpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Enflame",
        plugin: "Enflame GCU device plugin",
        resources: &["enflame.com/"],
        device: "GCU",
        cite: HAMI_DEVICES,
        gpu_model: false,
        components: &["enflame", "gcu-device-plugin"],
        labels: &[],
        resource: "enflame.com/gcu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Kunlunxin",
        plugin: "Kunlunxin XPU device plugin",
        resources: &["kunlunxin.com/"],
        device: "XPU",
        cite: HAMI_DEVICES,
        gpu_model: false,
        components: &["kunlun"],
        labels: &[],
        resource: "kunlunxin.com/xpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Biren",
        plugin: "Biren GPU device plugin",
        resources: &["birentech.com/"],
        device: "GPU",
        cite: HAMI_DEVICES,
        gpu_model: false,
        components: &["biren"],
        labels: &[],
        resource: "birentech.com/gpu",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
    },
    Accelerator {
        vendor: "Vastai",
        plugin: "Vastai device plugin",
        resources: &["vastaitech.com/"],
        device: "accelerator",
        cite: HAMI_DEVICES,
        gpu_model: false,
        components: &["vastai"],
        labels: &[],
        resource: "vastaitech.com/va",
        log_markers: &[],
        catalog_prefixes: &[],
        catalog_other: &[],
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
    // the kubelet's plugin watcher registers CSI drivers and DRA plugins through sockets in
    // plugins_registry (`nfs.csi.k8s.io-reg.sock`): no device plugin
    if endpoint.contains("plugins_registry") || endpoint.contains("/plugins/") {
        return None;
    }
    let sock = base.strip_suffix(".sock");
    let base = sock.unwrap_or(base);
    // Intel's pkg/deviceplugin names its socket `<namespace>-<type>.sock` in the kubelet's
    // device-plugins directory (intel/intel-device-plugins-for-kubernetes
    // pkg/deviceplugin/server.go setupAndServe)
    let (ns, name) = match base.split_once('_') {
        Some(p) => p,
        None if sock.is_some() && endpoint.contains("device-plugins/") => base.rsplit_once('-')?,
        None => return None,
    };
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

/// The row whose plugin's own log `text` is by its log markers (see
/// [`Accelerator::log_markers`]).
pub fn by_log_marker(text: &str) -> Option<&'static Accelerator> {
    ACCELERATORS
        .iter()
        .find(|a| a.log_markers.iter().any(|m| text.contains(m)))
}

/// The vendor whose own catalog entry `entry` (an id of the diagnosis message catalog) is
/// ([`Accelerator::catalog_prefixes`], not one of its [`Accelerator::catalog_other`]
/// components).
pub fn by_catalog_entry(entry: &str) -> Option<&'static Accelerator> {
    ACCELERATORS.iter().find(|a| {
        a.catalog_prefixes.iter().any(|p| entry.starts_with(p))
            && !a.catalog_other.iter().any(|p| entry.starts_with(p))
    })
}

/// The row of a non-GPU-model accelerator whose plugin component a DaemonSet / pod is, by its
/// name or images.
pub fn other_component(name: &str, images: &[&str]) -> Option<&'static Accelerator> {
    ACCELERATORS.iter().filter(|a| !a.gpu_model).find(|a| {
        a.components
            .iter()
            .any(|f| name.contains(f) || images.iter().any(|i| i.contains(f)))
    })
}

/// The row of a non-GPU-model accelerator a node is of: it advertises one of the vendor's
/// resources above zero in capacity or allocatable, or carries one of its labels.
pub fn other_node(node: &crate::objects::Node) -> Option<&'static Accelerator> {
    let advertised = node
        .status
        .capacity
        .iter()
        .chain(node.status.allocatable.iter())
        .filter(|(_, q)| !q.is_zero() && !q.is_negative())
        .find_map(|(n, _)| by_resource(n.as_str()).filter(|a| !a.gpu_model));
    advertised.or_else(|| {
        ACCELERATORS.iter().filter(|a| !a.gpu_model).find(|a| {
            a.labels.iter().any(|(k, v)| {
                node.metadata
                    .labels
                    .get(k)
                    .is_some_and(|have| crate::gpu::glob(v, have))
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_accelerators_components_and_nodes() {
        assert_eq!(
            other_component(
                "ascend-device-plugin-daemonset",
                &["ascend-k8sdeviceplugin:v6.0.0"]
            )
            .map(|a| a.vendor),
            Some("Huawei Ascend")
        );
        assert_eq!(
            other_component("neuron-device-plugin-daemonset", &[]).map(|a| a.vendor),
            Some("AWS Neuron")
        );
        assert!(
            other_component(
                "nvidia-device-plugin-daemonset",
                &["nvcr.io/nvidia/k8s-device-plugin:v0.17.0"]
            )
            .is_none()
        );
        assert!(
            other_component(
                "amdgpu-device-plugin-daemonset",
                &["rocm/k8s-device-plugin"]
            )
            .is_none()
        );
        let node = |labels: &[(&str, &str)], res: &[(&str, &str)]| {
            let mut n = crate::objects::Node::default();
            for (k, v) in labels {
                n.metadata.labels.insert((*k).to_owned(), (*v).to_owned());
            }
            for (k, v) in res {
                n.status
                    .capacity
                    .insert(crate::ResourceName::from(*k), v.parse().expect("quantity"));
            }
            n
        };
        assert_eq!(
            other_node(&node(&[], &[("huawei.com/Ascend910", "8")])).map(|a| a.vendor),
            Some("Huawei Ascend")
        );
        assert_eq!(
            other_node(&node(&[("accelerator", "huawei-Ascend910")], &[])).map(|a| a.vendor),
            Some("Huawei Ascend")
        );
        assert_eq!(
            other_node(&node(
                &[(
                    "cloud.google.com/gke-tpu-accelerator",
                    "tpu-v5-lite-podslice"
                )],
                &[]
            ))
            .map(|a| a.vendor),
            Some("Google")
        );
        // a GPU node, and a registered-but-empty other resource, are not
        assert!(other_node(&node(&[], &[("nvidia.com/gpu", "8")])).is_none());
        assert!(other_node(&node(&[], &[("cambricon.com/mlu", "0")])).is_none());
    }

    #[test]
    fn catalog_prefixes_name_the_vendor() {
        assert_eq!(
            by_catalog_entry("amd.no-numa-node").map(|a| a.vendor),
            Some("AMD")
        );
        assert_eq!(
            by_catalog_entry("cambricon.serve-retry").map(|a| a.resource),
            Some("cambricon.com/mlu")
        );
        assert_eq!(
            by_catalog_entry("habana.hlml-init-failed").map(|a| a.resource),
            Some("habana.ai/gaudi")
        );
        // the AMD node labeller is AMD's, but not its device plugin
        assert_eq!(by_catalog_entry("amd.labeller-error-json"), None);
        assert_eq!(by_catalog_entry("nvidia.no-devices"), None);
        assert_eq!(by_catalog_entry("dpm.registration-failed"), None);
    }

    #[test]
    fn a_node_of_another_accelerator_is_no_gpu_node() {
        use crate::gpu::GpuVocabulary;
        let mut n = crate::objects::Node::default();
        n.metadata.name = "npu-1".to_owned();
        n.metadata
            .labels
            .insert("accelerator".to_owned(), "huawei-Ascend910".to_owned());
        n.metadata
            .labels
            .insert("gpu".to_owned(), "true".to_owned());
        n.status.capacity.insert(
            crate::ResourceName::from("huawei.com/Ascend910"),
            "8".parse().expect("quantity"),
        );
        assert!(GpuVocabulary::builtin().node_sources(&n).is_empty());
        // an NVIDIA label still counts on such a node
        n.metadata
            .labels
            .insert("nvidia.com/gpu.present".to_owned(), "true".to_owned());
        assert_eq!(GpuVocabulary::builtin().node_sources(&n).len(), 1);
    }
}
