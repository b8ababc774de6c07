//! The accelerator vendors' device plugins ([`cube_model::accelerator`]: resource names,
//! plugin names, upstream sources), and the plugin name a finding uses.

pub use cube_model::accelerator::{ACCELERATORS, Accelerator, by_resource, endpoint_resource};

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
        // the kubelet's plugin watcher (CSI, DRA), not a device plugin
        assert_eq!(
            endpoint_resource("/var/lib/kubelet/plugins_registry/nfs.csi.k8s.io-reg.sock"),
            None
        );
        assert_eq!(endpoint_resource("nfs.csi.k8s.io-reg.sock"), None);
        assert_eq!(
            endpoint_resource("/var/lib/kubelet/device-plugins/gpu.intel.com-i915.sock").as_deref(),
            Some("gpu.intel.com/i915")
        );
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
