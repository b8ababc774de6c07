//! GPU vendor evidence on nodes: labels that say a node has GPUs, and the resources it advertises.

use cube_model::objects::Node;

/// A GPU vendor, with the extended-resource domain its device plugin advertises under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Vendor {
    /// NVIDIA (`nvidia.com/gpu`, `nvidia.com/mig-*`, `nvidia.com/gpu.shared`); PCI vendor 10de.
    Nvidia,
    /// AMD (`amd.com/gpu`); PCI vendor 1002.
    Amd,
    /// Intel (`gpu.intel.com/i915`, `gpu.intel.com/xe`); PCI vendor 8086 is too generic to use.
    Intel,
}

impl Vendor {
    /// The resource a device plugin of this vendor usually advertises.
    pub fn resource(self) -> &'static str {
        match self {
            Vendor::Nvidia => "nvidia.com/gpu",
            Vendor::Amd => "amd.com/gpu",
            Vendor::Intel => "gpu.intel.com/i915",
        }
    }
    /// True when `resource` belongs to this vendor.
    pub fn owns(self, resource: &str) -> bool {
        match self {
            Vendor::Nvidia => resource.starts_with("nvidia.com/"),
            Vendor::Amd => resource.starts_with("amd.com/"),
            Vendor::Intel => resource.starts_with("gpu.intel.com/"),
        }
    }
}

/// Labels on `node` that say it has GPUs of some vendor: `(vendor, label key, value)`.
/// NVIDIA: `nvidia.com/gpu.present=true`, `nvidia.com/gpu.count`, `nvidia.com/gpu.product`,
/// NFD `feature.node.kubernetes.io/pci-10de.present` and class-prefixed `pci-<class>_10de.present`,
/// CubeStudio `gpu=true` (vendor assumed NVIDIA); AMD: `beta.amd.com/gpu.*`, `amd.com/gpu.*`, NFD
/// `pci-1002`; Intel: `gpu.intel.com/*` labels.
pub fn gpu_labels(node: &Node) -> Vec<(Vendor, &str, &str)> {
    let mut out = Vec::new();
    for (k, v) in &node.metadata.labels {
        let vendor = if (k == "nvidia.com/gpu.present" && v == "true")
            || k == "nvidia.com/gpu.count"
            || k == "nvidia.com/gpu.product"
            || (k == "gpu" && v == "true")
            || (k.starts_with("feature.node.kubernetes.io/pci-")
                && k.ends_with("10de.present")
                && v == "true")
        {
            Some(Vendor::Nvidia)
        } else if k.starts_with("beta.amd.com/gpu.")
            || k.starts_with("amd.com/gpu.")
            || (k.starts_with("feature.node.kubernetes.io/pci-")
                && k.ends_with("1002.present")
                && v == "true")
        {
            Some(Vendor::Amd)
        } else if k.starts_with("gpu.intel.com/") {
            Some(Vendor::Intel)
        } else {
            None
        };
        if let Some(vendor) = vendor {
            out.push((vendor, k.as_str(), v.as_str()));
        }
    }
    out
}

/// GPU resources in allocatable (name, quantity as text), including zero entries.
pub fn gpu_allocatable(node: &Node) -> Vec<(&str, String)> {
    node.status
        .allocatable
        .iter()
        .filter(|(k, _)| crate::resources::is_gpu_resource(k.as_str()))
        .map(|(k, v)| (k.as_str(), v.to_string()))
        .collect()
}
