//! `NodeInfo`: what one node is (identity, readiness, software versions, GPU facts), read from a
//! Node object's labels and status.
//!
//! GPU facts come from four label families plus the advertised resources:
//! - NVIDIA GPU feature discovery (GFD) and the GPU Operator: `nvidia.com/gpu.product`,
//!   `nvidia.com/gpu.count`, `nvidia.com/gpu.memory`, `nvidia.com/cuda.driver.{major,minor,rev}`
//!   or `nvidia.com/cuda.driver-version.{full,major,minor,revision}`,
//!   `nvidia.com/cuda.runtime.{major,minor}` or `nvidia.com/cuda.runtime-version.{full,major,minor}`,
//!   `nvidia.com/mig.strategy`, `nvidia.com/gpu.replicas`, `nvidia.com/gpu.sharing-strategy`,
//!   `nvidia.com/mig-<profile>.*`, `nvidia.com/gpu.present`, `nvidia.com/gpu.deploy.*`;
//! - node feature discovery (NFD): `feature.node.kubernetes.io/pci-<fields>.present` where the
//!   fields are PCI class and/or vendor ids joined by `_` (`pci-10de.present`,
//!   `pci-0302_10de.present`, `pci-0300_10de.present`); vendor `10de` = NVIDIA, `1002` = AMD,
//!   `8086` = Intel (Intel only counts with a display or accelerator class, since most Intel
//!   PCI devices are not GPUs);
//! - the AMD node labeller: `amd.com/gpu.*` (`amd.com/gpu.product-name`, `amd.com/gpu.family`,
//!   `amd.com/gpu.device-id`, `amd.com/gpu.driver-version`, ...) and the older
//!   `beta.amd.com/gpu.<property>.<value>=<count>` form;
//! - CubeStudio: `gpu=true`, `gpu-type=<model>`, `vgpu=true`;
//! - one annotation: HAMi's `hami.io/node-nvidia-register` (devices its plugin registered).
//!
//! Which labels and annotations claim a GPU ([`GpuFacts::evidence`]) is decided by the one GPU
//! vocabulary, [`crate::gpu::GpuVocabulary`] (cloud, instance-type, HAMi, generic labels too);
//! the facts above (model, driver, counts) are read from the families listed.
//!
//! Schedulable GPU resource names are never derived from labels (GFD may say `mig-3g.21gb` while
//! the device plugin advertises `mig-3g.20gb`): [`GpuFacts::capacity`] and
//! [`GpuFacts::allocatable`] hold what `status` advertises, kept apart.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::objects::{Labels, Node, NodeAddress, Taint, Time};
use crate::{Quantity, ResourceList, ResourceName};

/// Label `kubernetes.io/hostname`.
pub const HOSTNAME_LABEL: &str = "kubernetes.io/hostname";
/// CubeStudio label `gpu` (`true` on GPU nodes; CubeStudio installs its device plugin only there).
pub const CUBE_GPU_LABEL: &str = "gpu";
/// CubeStudio label `gpu-type` (the GPU model, e.g. `V100`, that `N(V100)` requests select).
pub const CUBE_GPU_TYPE_LABEL: &str = "gpu-type";
/// CubeStudio label `vgpu` (`true` on nodes that share GPUs as vGPUs).
pub const CUBE_VGPU_LABEL: &str = "vgpu";

/// A GPU vendor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum GpuVendor {
    /// NVIDIA (PCI vendor `10de`, resources `nvidia.com/*`).
    Nvidia,
    /// AMD (PCI vendor `1002`, resources `amd.com/gpu`).
    Amd,
    /// Intel (PCI vendor `8086` with a display class, resources `gpu.intel.com/*`).
    Intel,
}

impl GpuVendor {
    /// The vendor's usual device-count resource name (`nvidia.com/gpu`, `amd.com/gpu`,
    /// `gpu.intel.com/i915`).
    pub fn resource_name(self) -> &'static str {
        match self {
            GpuVendor::Nvidia => crate::resource::names::NVIDIA_GPU,
            GpuVendor::Amd => crate::resource::names::AMD_GPU,
            GpuVendor::Intel => crate::resource::names::INTEL_GPU_I915,
        }
    }
    /// The vendor as a lowercase word (`nvidia`, `amd`, `intel`).
    pub fn as_str(self) -> &'static str {
        match self {
            GpuVendor::Nvidia => "nvidia",
            GpuVendor::Amd => "amd",
            GpuVendor::Intel => "intel",
        }
    }
    /// The vendor of a PCI vendor id (`10de`, `1002`, `8086`; case-insensitive).
    pub fn from_pci_vendor(id: &str) -> Option<GpuVendor> {
        match id.to_ascii_lowercase().as_str() {
            "10de" => Some(GpuVendor::Nvidia),
            "1002" => Some(GpuVendor::Amd),
            "8086" => Some(GpuVendor::Intel),
            _ => None,
        }
    }
    /// The vendor of a GPU resource name (`nvidia.com/mig-1g.10gb` -> NVIDIA).
    pub fn from_resource_name(name: &str) -> Option<GpuVendor> {
        match ResourceName::from(name).gpu_vendor()? {
            "amd" => Some(GpuVendor::Amd),
            "intel" => Some(GpuVendor::Intel),
            _ => Some(GpuVendor::Nvidia),
        }
    }
}

impl fmt::Display for GpuVendor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who writes a piece of GPU evidence (a label, annotation or taint family, or the other kinds of
/// sources of [`crate::gpu::GpuSource`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum GpuEvidenceSource {
    /// NVIDIA GPU feature discovery (`nvidia.com/gpu.*`, `nvidia.com/mig*`, `nvidia.com/cuda.*`).
    GpuFeatureDiscovery,
    /// Node feature discovery PCI labels (`feature.node.kubernetes.io/pci-*`).
    NodeFeatureDiscovery,
    /// AMD node labeller (`amd.com/gpu.*`, `beta.amd.com/gpu.*`).
    AmdLabeller,
    /// CubeStudio conventions (`gpu=true`, `gpu-type`, `vgpu=true`).
    CubeStudio,
    /// HAMi's device registration annotations (`hami.io/node-nvidia-register`,
    /// `hami.io/node-handshake`, formerly `4pd.io/...`) and its `gpu=on` label.
    HamiAnnotation,
    /// The NVIDIA GPU Operator (`nvidia.com/gpu.present`, `nvidia.com/gpu.deploy.*`).
    GpuOperator,
    /// Intel's NFD rules and GPU labels (`intel.feature.node.kubernetes.io/gpu`,
    /// `gpu.intel.com/*`).
    IntelLabeller,
    /// A cloud provider or its autoscaler (`cloud.google.com/gke-accelerator`,
    /// `kubernetes.azure.com/accelerator`, `karpenter.k8s.aws/instance-gpu-*`, ...).
    CloudProvider,
    /// A GPU instance type (`node.kubernetes.io/instance-type=g5.xlarge`).
    InstanceType,
    /// A generic convention (`accelerator=...`, `gpu=...`, a label named `nvidia.com/gpu`).
    GenericLabel,
    /// A taint naming GPUs.
    Taint,
    /// A GPU component pod bound to the node.
    GpuComponentPod,
    /// A node of the same pool that advertises GPUs.
    PoolSibling,
    /// A GPU resource the node advertises.
    AdvertisedResource,
    /// A user's vocabulary entry.
    Custom,
    /// An ML launcher or scheduler that labels GPU nodes for itself (SkyPilot
    /// `skypilot.co/accelerator`).
    Orchestrator,
    /// A GPU resource key the kubelet lists at 0 in `status.capacity`: a device plugin
    /// registered it on this node, then found no healthy device or stopped.
    RegisteredResource,
    /// A node of identical hardware and software (capacity, kernel, runtime, kubelet, OS image)
    /// that advertises GPUs.
    HardwareSibling,
    /// `nvidia-smi` / `rocm-smi` output pasted with the node.
    ToolOutput,
    /// A running pod bound to the node that requests GPUs.
    GpuWorkload,
    /// An operating system's GPU driver extension installed on the node (Talos
    /// `extensions.talos.dev/nonfree-kmod-nvidia-*`, `extensions.talos.dev/nvidia-*`).
    OsExtension,
}

impl GpuEvidenceSource {
    /// A short human name (`GPU feature discovery`, `node feature discovery`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            GpuEvidenceSource::GpuFeatureDiscovery => "GPU feature discovery",
            GpuEvidenceSource::NodeFeatureDiscovery => "node feature discovery",
            GpuEvidenceSource::AmdLabeller => "AMD node labeller",
            GpuEvidenceSource::CubeStudio => "CubeStudio",
            GpuEvidenceSource::HamiAnnotation => "HAMi",
            GpuEvidenceSource::GpuOperator => "GPU Operator",
            GpuEvidenceSource::IntelLabeller => "Intel GPU labels",
            GpuEvidenceSource::CloudProvider => "cloud provider",
            GpuEvidenceSource::InstanceType => "GPU instance type",
            GpuEvidenceSource::GenericLabel => "generic GPU label",
            GpuEvidenceSource::Taint => "GPU taint",
            GpuEvidenceSource::GpuComponentPod => "GPU component pod",
            GpuEvidenceSource::PoolSibling => "pool sibling",
            GpuEvidenceSource::AdvertisedResource => "advertised resource",
            GpuEvidenceSource::Custom => "custom gpuLabels",
            GpuEvidenceSource::Orchestrator => "ML orchestrator",
            GpuEvidenceSource::RegisteredResource => "registered resource",
            GpuEvidenceSource::HardwareSibling => "identical-hardware sibling",
            GpuEvidenceSource::ToolOutput => "pasted tool output",
            GpuEvidenceSource::GpuWorkload => "GPU workload on the node",
            GpuEvidenceSource::OsExtension => "OS GPU driver extension",
        }
    }
}

/// One label (or annotation) that claims the node has a GPU.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuEvidence {
    /// The label family.
    pub source: GpuEvidenceSource,
    /// The label or annotation key.
    pub key: String,
    /// The label or annotation value.
    pub value: String,
    /// The vendor the label implies, when it does (CubeStudio labels do not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vendor: Option<GpuVendor>,
}

/// GPU facts of one node. `None` means "not stated by any label".
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GpuFacts {
    /// The main vendor: the vendor of the advertised GPU resources when there are any, else the
    /// vendor most labels name (ties broken NVIDIA, AMD, Intel).
    pub vendor: Option<GpuVendor>,
    /// Every vendor named by a label or an advertised resource.
    pub vendors: BTreeSet<GpuVendor>,
    /// The model: GFD `nvidia.com/gpu.product`, else AMD `amd.com/gpu.product-name`, AMD family,
    /// else CubeStudio `gpu-type`.
    pub model: Option<String>,
    /// CubeStudio `gpu-type` label value, kept separately since task requests select on it.
    pub gpu_type_label: Option<String>,
    /// GPU count from labels (GFD `nvidia.com/gpu.count`; AMD beta family labels' counts).
    pub count: Option<i64>,
    /// GPU memory per device in MiB (GFD `nvidia.com/gpu.memory`).
    pub memory_mib: Option<u64>,
    /// Driver version (`535.54.03`) from GFD `cuda.driver-version.*` / `cuda.driver.*` or AMD
    /// `amd.com/gpu.driver-version`.
    pub driver_version: Option<String>,
    /// CUDA version (`12.2`) from GFD `cuda.runtime-version.*` / `cuda.runtime.*`.
    pub cuda_version: Option<String>,
    /// GFD `nvidia.com/mig.strategy` (`none`, `single`, `mixed`).
    pub mig_strategy: Option<String>,
    /// GFD `nvidia.com/gpu.replicas` (time-slicing / MPS replicas per GPU).
    pub replicas: Option<i64>,
    /// GFD `nvidia.com/gpu.sharing-strategy` (`none`, `time-slicing`, `mps`).
    pub sharing_strategy: Option<String>,
    /// CubeStudio `vgpu=true`.
    pub vgpu: bool,
    /// GPU resources in `status.capacity` (names per [`ResourceName::is_gpu`]).
    pub capacity: ResourceList,
    /// GPU resources in `status.allocatable` (what the scheduler uses).
    pub allocatable: ResourceList,
    /// Every label that claims a GPU, in key order, then GPU-claiming annotations.
    pub evidence: Vec<GpuEvidence>,
}

impl GpuFacts {
    /// True when some label or annotation claims a GPU (see [`GpuFacts::evidence`]).
    pub fn claims_gpu(&self) -> bool {
        !self.evidence.is_empty()
    }
    /// True when `status.allocatable` has a GPU resource above zero.
    pub fn advertises_gpu(&self) -> bool {
        self.allocatable
            .iter()
            .any(|(_, q)| !q.is_zero() && !q.is_negative())
    }
    /// GPU resource names advertised in capacity or allocatable (even with quantity 0).
    pub fn resource_names(&self) -> BTreeSet<&ResourceName> {
        self.capacity
            .names()
            .chain(self.allocatable.names())
            .collect()
    }
    /// True when the node advertises both whole GPUs (`nvidia.com/gpu`) and MIG slices
    /// (`nvidia.com/mig-*`): the MIG mixed strategy exposes non-MIG GPUs as `nvidia.com/gpu`, and a
    /// pod asking for `nvidia.com/gpu` may land on a GPU that is partitioned.
    pub fn has_full_gpu_and_mig(&self) -> bool {
        let names = self.resource_names();
        names
            .iter()
            .any(|n| n.as_str() == crate::resource::names::NVIDIA_GPU)
            && names.iter().any(|n| {
                n.as_str()
                    .starts_with(crate::resource::names::NVIDIA_MIG_PREFIX)
            })
    }
    /// GPU resources advertised in allocatable with quantity 0 (an empty MIG profile, or all
    /// devices unhealthy).
    pub fn empty_advertised(&self) -> Vec<&ResourceName> {
        self.allocatable
            .iter()
            .filter(|(_, q)| q.is_zero())
            .map(|(n, _)| n)
            .collect()
    }
    /// GPU resources whose capacity exceeds allocatable (`nvidia.com/gpu` 16 vs 0: devices
    /// detected but unhealthy), as (name, capacity, allocatable).
    pub fn unhealthy(&self) -> Vec<(&ResourceName, &Quantity, Quantity)> {
        self.capacity
            .iter()
            .filter_map(|(n, cap)| {
                let alloc = self.allocatable.get_or_zero(n.as_str());
                (*cap > alloc).then_some((n, cap, alloc))
            })
            .collect()
    }
}

/// The node's `Ready` condition.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ReadyCondition {
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// Reason (`KubeletReady`, `KubeletNotReady`, `NodeStatusUnknown`).
    pub reason: String,
    /// Message.
    pub message: String,
    /// `lastHeartbeatTime`.
    pub last_heartbeat_time: Option<Time>,
    /// `lastTransitionTime`.
    pub last_transition_time: Option<Time>,
}

/// The container runtime split from `containerRuntimeVersion` (`containerd://1.7.12`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ContainerRuntime {
    /// `containerd`, `docker`, `cri-o`, ... (the whole string when it has no `://`).
    pub name: String,
    /// `1.7.12` (empty when absent).
    pub version: String,
}

impl ContainerRuntime {
    /// Splits `name://version`.
    pub fn parse(raw: &str) -> ContainerRuntime {
        match raw.split_once("://") {
            Some((n, v)) => ContainerRuntime {
                name: n.to_owned(),
                version: v.to_owned(),
            },
            None => ContainerRuntime {
                name: raw.to_owned(),
                version: String::new(),
            },
        }
    }
    /// The major version (`1` of `1.7.12`, `20` of `20.10.20`); `None` when not a number.
    pub fn major(&self) -> Option<u64> {
        leading_number(self.version.trim_start_matches('v'))
    }
}

fn leading_number(s: &str) -> Option<u64> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    s.get(..end).and_then(|d| d.parse().ok())
}

/// An attribute compared across the nodes of a pool (see `pool::NodePool::consistency`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum NodeAttribute {
    /// `nodeInfo.osImage`.
    OsImage,
    /// `nodeInfo.kernelVersion`.
    Kernel,
    /// Container runtime name (`containerd`, `docker`).
    ContainerRuntimeName,
    /// Container runtime major version.
    ContainerRuntimeMajor,
    /// Kubelet `major.minor` (`v1.27`).
    KubeletMinor,
    /// GPU driver version.
    GpuDriver,
    /// CUDA version.
    Cuda,
    /// GPU model.
    GpuModel,
}

impl NodeAttribute {
    /// Every attribute, in report order.
    pub const ALL: [NodeAttribute; 8] = [
        NodeAttribute::OsImage,
        NodeAttribute::Kernel,
        NodeAttribute::ContainerRuntimeName,
        NodeAttribute::ContainerRuntimeMajor,
        NodeAttribute::KubeletMinor,
        NodeAttribute::GpuDriver,
        NodeAttribute::Cuda,
        NodeAttribute::GpuModel,
    ];
    /// A short name (`os-image`, `kernel`, `container-runtime`, `container-runtime-major`,
    /// `kubelet-minor`, `gpu-driver`, `cuda`, `gpu-model`).
    pub fn as_str(self) -> &'static str {
        match self {
            NodeAttribute::OsImage => "os-image",
            NodeAttribute::Kernel => "kernel",
            NodeAttribute::ContainerRuntimeName => "container-runtime",
            NodeAttribute::ContainerRuntimeMajor => "container-runtime-major",
            NodeAttribute::KubeletMinor => "kubelet-minor",
            NodeAttribute::GpuDriver => "gpu-driver",
            NodeAttribute::Cuda => "cuda",
            NodeAttribute::GpuModel => "gpu-model",
        }
    }
}

impl fmt::Display for NodeAttribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one node is, read from its Node object.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[non_exhaustive]
pub struct NodeInfo {
    /// `metadata.name`.
    pub name: String,
    /// Label `kubernetes.io/hostname`, if set.
    pub hostname: Option<String>,
    /// `status.addresses`.
    pub addresses: Vec<NodeAddress>,
    /// `metadata.labels`.
    pub labels: Labels,
    /// `spec.taints`.
    pub taints: Vec<Taint>,
    /// `spec.unschedulable` (cordoned).
    pub unschedulable: bool,
    /// The `Ready` condition; `None` when the node reports none.
    pub ready: Option<ReadyCondition>,
    /// `nodeInfo.osImage`.
    pub os_image: String,
    /// `nodeInfo.kernelVersion`.
    pub kernel_version: String,
    /// `nodeInfo.containerRuntimeVersion`, split.
    pub container_runtime: ContainerRuntime,
    /// `nodeInfo.kubeletVersion` (`v1.30.2`).
    pub kubelet_version: String,
    /// `status.capacity`, all resources.
    pub capacity: ResourceList,
    /// `status.allocatable`, all resources. As API defaulting does, equals capacity when the
    /// object has capacity but no allocatable.
    pub allocatable: ResourceList,
    /// GPU facts.
    pub gpu: GpuFacts,
}

impl NodeInfo {
    /// Reads a node (see the module docs for the labels read).
    pub fn from_node(node: &Node) -> NodeInfo {
        let labels = node.metadata.labels.clone();
        let ready = node
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Ready")
            .map(|c| ReadyCondition {
                status: c.status.clone(),
                reason: c.reason.clone(),
                message: c.message.clone(),
                last_heartbeat_time: c.last_heartbeat_time,
                last_transition_time: c.last_transition_time,
            });
        let capacity = node.status.capacity.clone();
        let allocatable = if node.status.allocatable.is_empty() {
            // API defaulting (SetDefaults_NodeStatus) copies capacity into an empty allocatable
            capacity.clone()
        } else {
            node.status.allocatable.clone()
        };
        let info = &node.status.node_info;
        let gpu = gpu_facts(&labels, &node.metadata.annotations, &capacity, &allocatable);
        NodeInfo {
            name: node.metadata.name.clone(),
            hostname: labels.get(HOSTNAME_LABEL).map(str::to_owned),
            addresses: node.status.addresses.clone(),
            taints: node.spec.taints.clone(),
            unschedulable: node.spec.unschedulable,
            ready,
            os_image: info.os_image.clone(),
            kernel_version: info.kernel_version.clone(),
            container_runtime: ContainerRuntime::parse(&info.container_runtime_version),
            kubelet_version: info.kubelet_version.clone(),
            capacity,
            allocatable,
            gpu,
            labels,
        }
    }

    /// True when the Ready condition has status `True`.
    pub fn is_ready(&self) -> bool {
        self.ready.as_ref().is_some_and(|r| r.status == "True")
    }

    /// Kubelet `vMAJOR.MINOR` (`v1.27` of `v1.27.8`); `None` when it does not parse.
    pub fn kubelet_minor(&self) -> Option<String> {
        let v = self.kubelet_version.trim_start_matches('v');
        let mut parts = v.split('.');
        let major = leading_number(parts.next()?)?;
        let minor = leading_number(parts.next()?)?;
        Some(format!("v{major}.{minor}"))
    }

    /// The value of an attribute compared across a pool; `None` when the node does not state it.
    pub fn attribute(&self, attr: NodeAttribute) -> Option<String> {
        let non_empty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        match attr {
            NodeAttribute::OsImage => non_empty(&self.os_image),
            NodeAttribute::Kernel => non_empty(&self.kernel_version),
            NodeAttribute::ContainerRuntimeName => non_empty(&self.container_runtime.name),
            NodeAttribute::ContainerRuntimeMajor => self
                .container_runtime
                .major()
                .map(|m| format!("{}://{m}", self.container_runtime.name)),
            NodeAttribute::KubeletMinor => self.kubelet_minor(),
            NodeAttribute::GpuDriver => self.gpu.driver_version.clone(),
            NodeAttribute::Cuda => self.gpu.cuda_version.clone(),
            NodeAttribute::GpuModel => self.gpu.model.clone(),
        }
    }

    /// Addresses of one type (`InternalIP`, `Hostname`, ...).
    pub fn addresses_of(&self, type_: &str) -> impl Iterator<Item = &str> {
        self.addresses
            .iter()
            .filter(move |a| a.type_ == type_)
            .map(|a| a.address.as_str())
    }
}

impl From<&Node> for NodeInfo {
    fn from(node: &Node) -> Self {
        NodeInfo::from_node(node)
    }
}

fn gpu_facts(
    labels: &Labels,
    annotations: &Labels,
    capacity: &ResourceList,
    allocatable: &ResourceList,
) -> GpuFacts {
    let mut f = GpuFacts {
        capacity: capacity.filtered(ResourceName::is_gpu),
        allocatable: allocatable.filtered(ResourceName::is_gpu),
        ..GpuFacts::default()
    };
    let get = |k: &str| labels.get(k).map(|v| v.trim()).filter(|v| !v.is_empty());
    // the label and annotation claims come from the one GPU vocabulary (crate::gpu)
    let vocab = crate::gpu::GpuVocabulary::builtin();
    let mut evidence = Vec::new();
    for (kind, map) in [
        (crate::gpu::MarkerKind::Label, labels),
        (crate::gpu::MarkerKind::Annotation, annotations),
    ] {
        for (key, value) in map {
            if let Some(m) = vocab.find(kind, key, value) {
                evidence.push(GpuEvidence {
                    source: m.family,
                    key: key.to_owned(),
                    value: value.to_owned(),
                    vendor: m.vendor,
                });
            }
        }
    }
    let mut amd_beta_family_count: Option<i64> = None;
    let mut amd_beta_family: Option<String> = None;
    for (key, value) in labels {
        if let Some(fam) = key.strip_prefix("beta.amd.com/gpu.family.") {
            amd_beta_family.get_or_insert_with(|| fam.to_owned());
            if let Ok(n) = value.trim().parse::<i64>() {
                *amd_beta_family_count.get_or_insert(0) += n;
            }
        }
    }
    f.evidence = evidence;

    // NVIDIA GFD facts
    let dotted = |parts: &[Option<&str>]| -> Option<String> {
        let present: Vec<&str> = parts.iter().map_while(|p| *p).collect();
        (!present.is_empty()).then(|| present.join("."))
    };
    f.driver_version = get("nvidia.com/cuda.driver-version.full")
        .map(str::to_owned)
        .or_else(|| {
            dotted(&[
                get("nvidia.com/cuda.driver-version.major"),
                get("nvidia.com/cuda.driver-version.minor"),
                get("nvidia.com/cuda.driver-version.revision"),
            ])
        })
        .or_else(|| {
            dotted(&[
                get("nvidia.com/cuda.driver.major"),
                get("nvidia.com/cuda.driver.minor"),
                get("nvidia.com/cuda.driver.rev"),
            ])
        })
        .or_else(|| get("amd.com/gpu.driver-version").map(str::to_owned));
    f.cuda_version = get("nvidia.com/cuda.runtime-version.full")
        .map(str::to_owned)
        .or_else(|| {
            dotted(&[
                get("nvidia.com/cuda.runtime-version.major"),
                get("nvidia.com/cuda.runtime-version.minor"),
            ])
        })
        .or_else(|| {
            dotted(&[
                get("nvidia.com/cuda.runtime.major"),
                get("nvidia.com/cuda.runtime.minor"),
            ])
        });
    f.gpu_type_label = get(CUBE_GPU_TYPE_LABEL).map(str::to_owned);
    f.model = get("nvidia.com/gpu.product")
        .or_else(|| get("amd.com/gpu.product-name"))
        .or_else(|| get("amd.com/gpu.family"))
        .map(str::to_owned)
        .or(amd_beta_family)
        .or_else(|| f.gpu_type_label.clone());
    f.count = get("nvidia.com/gpu.count")
        .and_then(|v| v.parse().ok())
        .or(amd_beta_family_count);
    f.memory_mib = get("nvidia.com/gpu.memory").and_then(|v| v.parse().ok());
    f.mig_strategy = get("nvidia.com/mig.strategy").map(str::to_owned);
    f.replicas = get("nvidia.com/gpu.replicas").and_then(|v| v.parse().ok());
    f.sharing_strategy = get("nvidia.com/gpu.sharing-strategy").map(str::to_owned);
    f.vgpu = get(CUBE_VGPU_LABEL) == Some("true");

    // vendors: advertised resources first, then labels
    let mut tally = [0usize; 3];
    let slot = |v: GpuVendor| match v {
        GpuVendor::Nvidia => 0,
        GpuVendor::Amd => 1,
        GpuVendor::Intel => 2,
    };
    let advertised: BTreeSet<GpuVendor> = f
        .resource_names()
        .into_iter()
        .filter_map(|n| GpuVendor::from_resource_name(n.as_str()))
        .collect();
    for e in &f.evidence {
        if let Some(v) = e.vendor {
            tally[slot(v)] += 1;
            f.vendors.insert(v);
        }
    }
    f.vendors.extend(advertised.iter().copied());
    let by_label = [GpuVendor::Nvidia, GpuVendor::Amd, GpuVendor::Intel]
        .into_iter()
        .filter(|v| tally[slot(*v)] > 0)
        .max_by_key(|v| (tally[slot(*v)], std::cmp::Reverse(slot(*v))));
    // advertised resources with a non-zero quantity win; then any advertised name; then labels
    let nonzero = f
        .capacity
        .iter()
        .chain(f.allocatable.iter())
        .filter(|(_, q)| !q.is_zero())
        .find_map(|(n, _)| GpuVendor::from_resource_name(n.as_str()));
    f.vendor = nonzero
        .or_else(|| advertised.iter().next().copied())
        .or(by_label);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_with(labels: &[(&str, &str)]) -> Node {
        let mut n = Node::default();
        n.metadata.name = "n".into();
        n.metadata.labels = labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        n
    }

    #[test]
    fn gfd_labels_old_and_new_forms() {
        let n = node_with(&[
            ("nvidia.com/gpu.product", "Tesla-V100-SXM2-16GB"),
            ("nvidia.com/gpu.count", "8"),
            ("nvidia.com/gpu.memory", "16160"),
            ("nvidia.com/cuda.driver.major", "535"),
            ("nvidia.com/cuda.driver.minor", "54"),
            ("nvidia.com/cuda.driver.rev", "03"),
            ("nvidia.com/cuda.runtime.major", "12"),
            ("nvidia.com/cuda.runtime.minor", "2"),
            ("nvidia.com/gpu.replicas", "4"),
            ("nvidia.com/gpu.sharing-strategy", "time-slicing"),
            ("nvidia.com/mig.strategy", "none"),
        ]);
        let g = NodeInfo::from_node(&n).gpu;
        assert_eq!(g.vendor, Some(GpuVendor::Nvidia));
        assert_eq!(g.model.as_deref(), Some("Tesla-V100-SXM2-16GB"));
        assert_eq!(g.count, Some(8));
        assert_eq!(g.memory_mib, Some(16160));
        assert_eq!(g.driver_version.as_deref(), Some("535.54.03"));
        assert_eq!(g.cuda_version.as_deref(), Some("12.2"));
        assert_eq!(g.replicas, Some(4));
        assert_eq!(g.mig_strategy.as_deref(), Some("none"));
        assert!(g.claims_gpu());
        assert!(
            !g.evidence
                .iter()
                .any(|e| e.key == "nvidia.com/mig.strategy"),
            "mig.strategy=none claims nothing"
        );

        let n = node_with(&[
            ("nvidia.com/cuda.driver-version.full", "550.54.15"),
            ("nvidia.com/cuda.driver-version.major", "550"),
            ("nvidia.com/cuda.runtime-version.major", "12"),
            ("nvidia.com/cuda.runtime-version.minor", "4"),
        ]);
        let g = NodeInfo::from_node(&n).gpu;
        assert_eq!(g.driver_version.as_deref(), Some("550.54.15"));
        assert_eq!(g.cuda_version.as_deref(), Some("12.4"));
    }

    #[test]
    fn nfd_amd_and_cubestudio_labels() {
        let n = node_with(&[
            ("feature.node.kubernetes.io/pci-0300_1d0f.present", "true"),
            ("feature.node.kubernetes.io/pci-0302_10de.present", "true"),
            ("feature.node.kubernetes.io/pci-0600_8086.present", "true"),
            ("feature.node.kubernetes.io/pci-8086.present", "true"),
        ]);
        let g = NodeInfo::from_node(&n).gpu;
        let keys: Vec<&str> = g.evidence.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["feature.node.kubernetes.io/pci-0302_10de.present"]);
        assert_eq!(g.vendor, Some(GpuVendor::Nvidia));

        let n = node_with(&[
            ("feature.node.kubernetes.io/pci-1002.present", "true"),
            ("amd.com/gpu.product-name", "AMD_Instinct_MI300X_OAM"),
            ("amd.com/gpu.driver-version", "6.8.5"),
        ]);
        let g = NodeInfo::from_node(&n).gpu;
        assert_eq!(g.vendor, Some(GpuVendor::Amd));
        assert_eq!(g.model.as_deref(), Some("AMD_Instinct_MI300X_OAM"));
        assert_eq!(g.driver_version.as_deref(), Some("6.8.5"));

        let n = node_with(&[
            ("gpu", "true"),
            ("gpu-type", "V100"),
            ("vgpu", "true"),
            ("org", "public"),
        ]);
        let g = NodeInfo::from_node(&n).gpu;
        assert_eq!(g.vendor, None);
        assert!(g.vgpu);
        assert_eq!(g.model.as_deref(), Some("V100"));
        assert_eq!(g.gpu_type_label.as_deref(), Some("V100"));
        assert_eq!(g.evidence.len(), 3);
        assert!(
            !NodeInfo::from_node(&node_with(&[("gpu", "false")]))
                .gpu
                .claims_gpu()
        );
    }

    #[test]
    fn runtime_kubelet_ready_and_allocatable_default() {
        let mut n = node_with(&[("kubernetes.io/hostname", "h1")]);
        n.status.node_info.container_runtime_version = "containerd://1.7.12".into();
        n.status.node_info.kubelet_version = "v1.30.2".into();
        n.status.capacity = [("cpu", "8".parse().unwrap())].into_iter().collect();
        n.status.conditions.push(crate::objects::NodeCondition {
            type_: "Ready".into(),
            status: "False".into(),
            reason: "KubeletNotReady".into(),
            message: "container runtime network not ready".into(),
            ..Default::default()
        });
        let i = NodeInfo::from_node(&n);
        assert_eq!(i.hostname.as_deref(), Some("h1"));
        assert_eq!(i.container_runtime.name, "containerd");
        assert_eq!(i.container_runtime.version, "1.7.12");
        assert_eq!(i.container_runtime.major(), Some(1));
        assert_eq!(i.kubelet_minor().as_deref(), Some("v1.30"));
        assert_eq!(
            i.attribute(NodeAttribute::ContainerRuntimeMajor).as_deref(),
            Some("containerd://1")
        );
        assert!(!i.is_ready());
        assert_eq!(i.ready.as_ref().unwrap().reason, "KubeletNotReady");
        assert_eq!(i.allocatable, n.status.capacity);
        assert_eq!(ContainerRuntime::parse("docker").name, "docker");
    }
}
