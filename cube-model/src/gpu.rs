//! GPU evidence: which facts say that a node has GPUs, read from data a user can extend.
//!
//! A node says it has GPUs in many ways, written by many components. [`GpuVocabulary`] holds them
//! as data ([`GpuMarker`]: a label, annotation or taint key and value pattern, the vendor it
//! implies and who writes it); [`cluster_gpu_evidence`] reads every node of a snapshot against it
//! and returns, per node, every [`GpuSource`]:
//!
//! - labels: NVIDIA GPU feature discovery and the GPU Operator (`nvidia.com/gpu.*`,
//!   `nvidia.com/mig*`, `nvidia.com/cuda.*`, `nvidia.com/gpu.deploy.*`), node feature discovery
//!   PCI labels (`feature.node.kubernetes.io/pci-<class>_<vendor>.present`), the AMD and Intel
//!   labellers, cloud providers (GKE `cloud.google.com/gke-accelerator`, AKS
//!   `kubernetes.azure.com/accelerator`, EKS / Karpenter `karpenter.k8s.aws/instance-gpu-*`,
//!   Alibaba `aliyun.accelerator/*`), GPU instance types (`node.kubernetes.io/instance-type`),
//!   generic `accelerator=...`, HAMi `gpu=on`, CubeStudio `gpu=true`, `gpu-type`, `vgpu=true`;
//! - annotations: HAMi's `hami.io/node-nvidia-register` and `hami.io/node-handshake`, Volcano's
//!   vGPU registration;
//! - taints: `nvidia.com/gpu`, `amd.com/gpu`, and any taint whose key or value names a GPU;
//! - pods bound to the node that only run on GPU nodes (driver installers, GPU Operator operands,
//!   device plugins whose pod template selects nodes);
//! - pool siblings: nodes of the same instance type or node pool that advertise GPUs;
//! - the GPU resources the node advertises in `status.capacity` / `status.allocatable`.
//!
//! Label names and values are taken from the upstream sources cited on each marker.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::node::{GpuEvidenceSource, GpuVendor};
use crate::objects::{DaemonSet, Node, Pod, Taint};
use crate::{ClusterSnapshot, ResourceList};

/// What kind of object field a [`GpuMarker`] matches.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum MarkerKind {
    /// A node label (`metadata.labels`).
    #[default]
    Label,
    /// A node annotation (`metadata.annotations`).
    Annotation,
    /// A node taint (`spec.taints[]`, key and value; any effect).
    Taint,
}

/// Where a [`GpuSource`] was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum GpuSourceKind {
    /// A node label.
    Label,
    /// A node annotation.
    Annotation,
    /// A node taint.
    Taint,
    /// A GPU component pod (driver installer, GPU Operator operand, device plugin) bound to the
    /// node.
    PodOnNode,
    /// A node of the same instance type or node pool that advertises GPUs.
    PoolSibling,
    /// A GPU resource in `status.capacity` or `status.allocatable` above zero.
    AdvertisedResource,
    /// A GPU resource key listed at 0 (`nvidia.com/gpu: 0`): a device plugin registered it on
    /// this node and then found no healthy device, or stopped (the kubelet keeps a removed
    /// plugin's resource at 0). Not the legacy `alpha.kubernetes.io/nvidia-gpu`, which kubelets
    /// before 1.10 listed at 0 on every node.
    RegisteredResource,
    /// A node of identical hardware and software that advertises GPUs (no pool label ties
    /// them; weaker than a [`GpuSourceKind::PoolSibling`]).
    HardwareSibling,
    /// `nvidia-smi` / `rocm-smi` output pasted with the node (see [`crate::smi`]).
    ToolOutput,
    /// A running (non-terminal) pod bound to the node that requests GPUs: the kubelet admitted
    /// it while the node advertised them.
    GpuPodOnNode,
}

impl GpuSourceKind {
    /// `label`, `annotation`, `taint`, `pod`, `pool sibling`, `advertised resource`,
    /// `registered resource`, `identical-hardware sibling`, `tool output`.
    pub fn as_str(self) -> &'static str {
        match self {
            GpuSourceKind::Label => "label",
            GpuSourceKind::Annotation => "annotation",
            GpuSourceKind::Taint => "taint",
            GpuSourceKind::PodOnNode => "pod",
            GpuSourceKind::PoolSibling => "pool sibling",
            GpuSourceKind::AdvertisedResource => "advertised resource",
            GpuSourceKind::RegisteredResource => "registered resource",
            GpuSourceKind::HardwareSibling => "identical-hardware sibling",
            GpuSourceKind::ToolOutput => "tool output",
            GpuSourceKind::GpuPodOnNode => "GPU pod on the node",
        }
    }
}

/// One entry of the GPU vocabulary: a key (and optionally value) pattern that says a node has
/// GPUs.
///
/// Patterns are globs matched without regard to ASCII case: `*` matches any run of characters,
/// `?` one character. Without `value`, any value counts except the false-like ones (empty,
/// `false`, `0`, `no`, `none`).
///
/// In a [`crate`] user's configuration (YAML or JSON, camelCase):
///
/// ```
/// let m: cube_model::gpu::GpuMarker =
///     serde_json::from_str(r#"{"key":"org","value":"gpu-pool","vendor":"nvidia"}"#).unwrap();
/// assert!(m.matches("org", "gpu-pool") && !m.matches("org", "cpu-pool"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GpuMarker {
    /// Label (default), annotation or taint.
    #[serde(default)]
    pub kind: MarkerKind,
    /// Key pattern (`nvidia.com/gpu.*`).
    pub key: String,
    /// Value pattern; absent = any value that is not false-like.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The vendor the marker implies; absent when it does not say (`accelerator=gpu`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<GpuVendor>,
    /// Who writes it (defaults to `custom` for user entries).
    #[serde(default = "custom_family")]
    pub family: GpuEvidenceSource,
    /// The upstream source of the name (repository and file), or empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cite: String,
    /// True when a match means the key does *not* claim a GPU (`accelerator=inferentia`): as
    /// the first match wins, it shadows the markers after it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exclude: bool,
}

fn custom_family() -> GpuEvidenceSource {
    GpuEvidenceSource::Custom
}

impl GpuMarker {
    /// A label marker written by `family`.
    pub fn label(
        key: &str,
        value: Option<&str>,
        vendor: Option<GpuVendor>,
        family: GpuEvidenceSource,
        cite: &str,
    ) -> Self {
        GpuMarker {
            kind: MarkerKind::Label,
            key: key.to_owned(),
            value: value.map(str::to_owned),
            vendor,
            family,
            cite: cite.to_owned(),
            exclude: false,
        }
    }
    /// The same marker as an exclusion (see [`GpuMarker::exclude`]).
    #[must_use]
    pub fn excluding(mut self) -> Self {
        self.exclude = true;
        self
    }
    /// The same marker for another kind of field.
    #[must_use]
    pub fn of_kind(mut self, kind: MarkerKind) -> Self {
        self.kind = kind;
        self
    }
    /// True when `key` and `value` match this marker (see the type docs).
    pub fn matches(&self, key: &str, value: &str) -> bool {
        glob(&self.key, key)
            && match &self.value {
                Some(p) => glob(p, value.trim()),
                None => !is_false_like(value),
            }
    }
}

/// True for values that claim nothing: empty, `false`, `0`, `no`, `none` (any case).
pub fn is_false_like(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "" | "false" | "0" | "no" | "none"
    )
}

/// Glob match without regard to ASCII case: `*` any run, `?` one character.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    // bytes, ASCII case folded, no allocation (labels are ASCII; other bytes compare exactly);
    // iterative matcher with one backtrack point (classic wildcard algorithm): O(p * t) worst case
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0usize, 0usize);
    let (mut star, mut mark) = (None::<usize>, 0usize);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi].eq_ignore_ascii_case(&t[ti])) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == b'*' {
        pi += 1;
    }
    pi == p.len()
}

/// The GPU vocabulary: markers tried in order, the first match of a key deciding its vendor and
/// family. [`GpuVocabulary::builtin`] is the built-in list; [`GpuVocabulary::with_extra`] puts a
/// user's markers in front of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuVocabulary {
    /// Markers, in match order.
    pub markers: Vec<GpuMarker>,
}

impl Default for GpuVocabulary {
    fn default() -> Self {
        GpuVocabulary::builtin().clone()
    }
}

// Upstream sources of the built-in names.
const CITE_GFD: &str =
    "NVIDIA/k8s-device-plugin internal/lm/resource.go, internal/lm/nvml.go (GFD labels)";
const CITE_OPERATOR: &str =
    "NVIDIA/gpu-operator controllers/state_manager.go (commonGPULabelKey, gpuStateLabels)";
const CITE_NFD: &str = "kubernetes-sigs/node-feature-discovery source/pci/pci.go (deviceLabelFields class,vendor; classes 03, 0b40, 12); NVIDIA/gpu-operator controllers/state_manager.go gpuNodeLabels";
const CITE_KARPENTER: &str = "aws/karpenter-provider-aws pkg/apis/v1/labels.go (LabelInstanceGPUName, -Manufacturer, -Count, -Memory)";
const CITE_HAMI: &str = "Project-HAMi/HAMi pkg/device/nvidia/device.go (RegisterAnnos hami.io/node-nvidia-register, HandshakeAnnos hami.io/node-handshake); charts/hami values.yaml devicePlugin nodeSelector gpu: \"on\"";
const CITE_CUBE: &str = "data-infra/cube-studio install/kubernetes/gpu/nvidia-device-plugin.yml (node affinity gpu In [true]), install/kubernetes/gpu/dcgm-exporter.yaml (vgpu In [true]), myapp/utils/py/py_k8s.py (nodeSelector gpu-type)";
const CITE_AMD: &str =
    "ROCm/k8s-device-plugin cmd/k8s-node-labeller (amd.com/gpu.*, beta.amd.com/gpu.*)";
const CITE_INTEL: &str = "intel/intel-device-plugins-for-kubernetes deployments/nfd/overlays/node-feature-rules (intel.feature.node.kubernetes.io/gpu, gpu.intel.com/device-id.*)";
const CITE_GKE: &str = "GoogleCloudPlatform/container-engine-accelerators cmd/nvidia_gpu/device-plugin.yaml (node affinity cloud.google.com/gke-accelerator Exists)";
const CITE_SKYPILOT: &str = "skypilot-org/skypilot sky/utils/kubernetes/gpu_labeler.py (writes skypilot.co/accelerator), sky/provision/kubernetes/utils.py (SkyPilotLabelFormatter, CoreWeaveLabelFormatter gpu.nvidia.com/class, GFDLabelFormatter, KarpenterLabelFormatter, GKELabelFormatter)";
const CITE_COREWEAVE: &str = "CoreWeave node labels gpu.nvidia.com/class, gpu.nvidia.com/model, gpu.nvidia.com/vram (skypilot-org/skypilot sky/provision/kubernetes/utils.py CoreWeaveLabelFormatter)";
const CITE_LEGACY: &str = "kubernetes/kubernetes#55005 (GKE 1.8 GPU start-up scripts label alpha.kubernetes.io/nvidia-gpu-name; the alpha.kubernetes.io/nvidia-gpu resource of the Accelerators feature gate, removed in 1.10)";
const CITE_CA: &str = "kubernetes/autoscaler cluster-autoscaler/cloudprovider/*/*_cloud_provider.go (GPULabel of each cloud provider)";
const CITE_ROLE: &str = "kubernetes/kubernetes pkg/printers/internalversion/printers.go findNodeRoles (node-role.kubernetes.io/<role>, any value)";
const CITE_TKE: &str =
    "tkestack/gpu-manager README (DaemonSet nodeSelector nvidia-device-enable=enable)";
const CITE_DOKS: &str = "DigitalOcean Kubernetes GPU node pools (doks.digitalocean.com/gpu-brand=nvidia|amd, doks.digitalocean.com/gpu-model)";
const CITE_TALOS: &str = "siderolabs/talos (a node carries extensions.talos.dev/<extension>=<version> for each installed system extension); siderolabs/extensions nvidia-gpu/ (nonfree-kmod-nvidia-lts|production, nvidia-open-gpu-kernel-modules-lts|production, nvidia-container-toolkit-lts|production, nvidia-fabricmanager-lts|production, nvidia-driver)";
const CITE_INSTANCE: &str = "cloud GPU instance families: AWS EC2 accelerated computing (g*, p*), Azure N-series (NC, ND, NV, NG), GCP accelerator-optimized (a2, a3, a4, g2), Alibaba ECS gn*, Oracle BM/VM.GPU, IBM Cloud VPC gx2/gx3";

impl GpuVocabulary {
    /// The built-in vocabulary (built once).
    pub fn builtin() -> &'static GpuVocabulary {
        static V: OnceLock<GpuVocabulary> = OnceLock::new();
        V.get_or_init(|| GpuVocabulary {
            markers: builtin_markers(),
        })
    }
    /// `extra` (a user's markers) in front of the built-in ones.
    pub fn with_extra(extra: &[GpuMarker]) -> GpuVocabulary {
        let mut markers = extra.to_vec();
        markers.extend(GpuVocabulary::builtin().markers.iter().cloned());
        GpuVocabulary { markers }
    }
    /// The first marker of `kind` matching `key`/`value`.
    pub fn find(&self, kind: MarkerKind, key: &str, value: &str) -> Option<&GpuMarker> {
        self.markers
            .iter()
            .find(|m| m.kind == kind && m.matches(key, value))
            .filter(|m| !m.exclude)
    }
    /// The first taint marker matching `taint` (key and value).
    pub fn find_taint(&self, taint: &Taint) -> Option<&GpuMarker> {
        self.markers
            .iter()
            .find(|m| {
                m.kind == MarkerKind::Taint
                    && glob(&m.key, &taint.key)
                    && m.value.as_deref().is_none_or(|p| glob(p, &taint.value))
            })
            .filter(|m| !m.exclude)
    }
    /// Sources read from the node object alone: labels, annotations, taints and advertised GPU
    /// resources (no pods, no siblings; see [`cluster_gpu_evidence`]).
    pub fn node_sources(&self, node: &Node) -> Vec<GpuSource> {
        let mut out = Vec::new();
        for (kind, map) in [
            (MarkerKind::Label, &node.metadata.labels),
            (MarkerKind::Annotation, &node.metadata.annotations),
        ] {
            for (k, v) in map {
                if kind == MarkerKind::Annotation
                    && let Some(vendor) = crate::smi::tool_output_vendor(k)
                {
                    out.push(GpuSource {
                        kind: GpuSourceKind::ToolOutput,
                        vendor: Some(vendor),
                        family: GpuEvidenceSource::ToolOutput,
                        key: crate::smi::tool_name(k).to_owned(),
                        value: v.to_owned(),
                        node: None,
                        weak: false,
                    });
                    continue;
                }
                if let Some(m) = self.find(kind, k, v) {
                    out.push(GpuSource {
                        kind: if kind == MarkerKind::Label {
                            GpuSourceKind::Label
                        } else {
                            GpuSourceKind::Annotation
                        },
                        vendor: m.vendor,
                        family: m.family,
                        key: k.to_owned(),
                        value: v.to_owned(),
                        node: None,
                        weak: false,
                    });
                } else if kind == MarkerKind::Label
                    && !self
                        .markers
                        .iter()
                        .any(|m| m.kind == kind && m.matches(k, v))
                    && let Some(vendor) = organisation_gpu_label(k, v)
                {
                    // an organisation's own GPU label no vocabulary entry names
                    out.push(GpuSource {
                        kind: GpuSourceKind::Label,
                        vendor,
                        family: GpuEvidenceSource::GenericLabel,
                        key: k.to_owned(),
                        value: v.to_owned(),
                        node: None,
                        weak: false,
                    });
                }
            }
        }
        for t in &node.spec.taints {
            if let Some(m) = self.find_taint(t) {
                out.push(GpuSource {
                    kind: GpuSourceKind::Taint,
                    vendor: m.vendor,
                    family: m.family,
                    key: t.key.clone(),
                    value: format!("{}:{}", t.value, t.effect),
                    node: None,
                    weak: false,
                });
            }
        }
        // a node of another accelerator (it advertises huawei.com/Ascend910, carries
        // accelerator=huawei-Ascend910, ...; crate::accelerator): the claims that name no GPU
        // vendor (`accelerator=...`, `gpu=true`, instance GPU labels) are about that
        // accelerator, not a GPU
        if crate::accelerator::other_node(node).is_some() {
            out.retain(|s| s.vendor.is_some());
        }
        let (capacity, allocatable) = gpu_resources(node);
        for (n, q) in capacity.iter().chain(allocatable.iter()) {
            if q.is_zero() || q.is_negative() {
                continue;
            }
            if out
                .iter()
                .any(|s| s.kind == GpuSourceKind::AdvertisedResource && s.key == n.as_str())
            {
                continue;
            }
            out.push(GpuSource {
                kind: GpuSourceKind::AdvertisedResource,
                vendor: gpu_resource_vendor(n.as_str()),
                family: GpuEvidenceSource::AdvertisedResource,
                key: n.to_string(),
                value: q.to_string(),
                node: None,
                weak: false,
            });
        }
        // a key listed at 0: a device plugin registered it here (kubernetes/kubernetes
        // pkg/kubelet/nodestatus/setters.go MachineInfo sets a removed plugin's resource to 0 in
        // capacity; a plugin that finds no healthy device reports 0 allocatable). Kubelets before
        // 1.10 listed alpha.kubernetes.io/nvidia-gpu: 0 on every node: not evidence.
        for (n, q) in capacity.iter().chain(allocatable.iter()) {
            if !q.is_zero() || n.as_str() == crate::resource::names::LEGACY_NVIDIA_GPU {
                continue;
            }
            if out.iter().any(|s| {
                matches!(
                    s.kind,
                    GpuSourceKind::AdvertisedResource | GpuSourceKind::RegisteredResource
                ) && s.key == n.as_str()
            }) {
                continue;
            }
            out.push(GpuSource {
                kind: GpuSourceKind::RegisteredResource,
                vendor: gpu_resource_vendor(n.as_str()),
                family: GpuEvidenceSource::RegisteredResource,
                key: n.to_string(),
                value: q.to_string(),
                node: None,
                weak: false,
            });
        }
        out
    }
}

/// Label keys whose value names the node's pool, group or role (a pool named `gpu-a100`, a
/// node type `gpu`).
const POOL_OR_ROLE_KEYS: &[&str] = &[
    "node-type",
    "nodetype",
    "node.kubernetes.io/node-type",
    "node-role",
    "role",
    "workload",
    "workload-type",
    "purpose",
    "pool",
    "nodepool",
    "node-pool",
    "nodegroup",
    "node-group",
    "instance-group",
    "eks.amazonaws.com/nodegroup",
    "alpha.eksctl.io/nodegroup-name",
    "cloud.google.com/gke-nodepool",
    "kubernetes.azure.com/agentpool",
    "agentpool",
    "karpenter.sh/nodepool",
    "karpenter.sh/provisioner-name",
];

/// An organisation's own GPU label that no vocabulary entry names, with the vendor it names
/// (`None`: unknown): a key whose name says GPU with a value that says yes (`NVIDIAGPU=1`, the
/// label aws-samples' EKS reference architecture puts on GPU instances; `hasGPU=true`,
/// `gpu-node=yes`, `sap.com/nvidia-gpu=present`), or a pool / role / node-type key whose value
/// says GPU (`eks.amazonaws.com/nodegroup=gpu-a100`, `node-type=gpu`). Keys or values that
/// deny it (`no-gpu`, `nongpu`, `cpu-only`, `gpu=false`) are not evidence. `Config` adds an
/// organisation's exact labels to the vocabulary instead.
fn organisation_gpu_label(key: &str, value: &str) -> Option<Option<GpuVendor>> {
    let k = key.to_ascii_lowercase();
    let v = value.to_ascii_lowercase();
    let denies = |t: &str| {
        [
            "nogpu", "no-gpu", "no_gpu", "nongpu", "non-gpu", "non_gpu", "without", "disable",
            "cpu-only", "cpuonly",
        ]
        .iter()
        .any(|d| t.contains(d))
    };
    let vendor = |t: &str| {
        if t.contains("nvidia") {
            Some(GpuVendor::Nvidia)
        } else if t.contains("amd") || t.contains("radeon") {
            Some(GpuVendor::Amd)
        } else if t.contains("intel") {
            Some(GpuVendor::Intel)
        } else {
            None
        }
    };
    let name = k.rsplit('/').next().unwrap_or(&k);
    if name.contains("gpu") && !denies(&k) {
        let yes = matches!(
            v.as_str(),
            "true" | "yes" | "y" | "1" | "on" | "present" | "enabled" | "enable" | "available"
        ) || vendor(&v).is_some();
        return yes.then(|| vendor(&k).or_else(|| vendor(&v)));
    }
    if POOL_OR_ROLE_KEYS.contains(&k.as_str()) && v.contains("gpu") && !denies(&v) {
        return Some(vendor(&v));
    }
    None
}

#[allow(clippy::too_many_lines)]
fn builtin_markers() -> Vec<GpuMarker> {
    use GpuEvidenceSource as F;
    let nv = Some(GpuVendor::Nvidia);
    let amd = Some(GpuVendor::Amd);
    let intel = Some(GpuVendor::Intel);
    let l = GpuMarker::label;
    let mut m = vec![
        // NVIDIA GPU Operator: common label and per-operand state labels
        l(
            "nvidia.com/gpu.present",
            None,
            nv,
            F::GpuOperator,
            CITE_OPERATOR,
        ),
        l(
            "nvidia.com/gpu.deploy.*",
            None,
            nv,
            F::GpuOperator,
            CITE_OPERATOR,
        ),
        l(
            "nvidia.com/gpu.workload.config",
            None,
            nv,
            F::GpuOperator,
            CITE_OPERATOR,
        ),
        // NVIDIA GPU feature discovery
        l(
            "nvidia.com/gpu.*",
            None,
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        l(
            "nvidia.com/mig.capable",
            None,
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        l(
            "nvidia.com/mig.strategy",
            None,
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        l(
            "nvidia.com/mig-*",
            None,
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        l(
            "nvidia.com/cuda.*",
            None,
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        l(
            "nvidia.com/vgpu.*",
            None,
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        l(
            "nvidia.com/gfd.timestamp",
            None,
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        l(
            "nvidia.com/mps.capable",
            Some("true"),
            nv,
            F::GpuFeatureDiscovery,
            CITE_GFD,
        ),
        // a label named after the resource (EKS / autoscaler node-template convention)
        l("nvidia.com/gpu", None, nv, F::GenericLabel, ""),
        // node feature discovery PCI labels: vendor alone, or class(es) and vendor
        l(
            "feature.node.kubernetes.io/pci-10de.present",
            None,
            nv,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        l(
            "feature.node.kubernetes.io/pci-*_10de.present",
            None,
            nv,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        l(
            "feature.node.kubernetes.io/pci-*_10de_*.present",
            None,
            nv,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        l(
            "feature.node.kubernetes.io/pci-1002.present",
            None,
            amd,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        l(
            "feature.node.kubernetes.io/pci-*_1002.present",
            None,
            amd,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        l(
            "feature.node.kubernetes.io/pci-*_1002_*.present",
            None,
            amd,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        // Intel's vendor id 8086 is on most boards: only display classes (03xx) count
        l(
            "feature.node.kubernetes.io/pci-03??_8086.present",
            None,
            intel,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        l(
            "feature.node.kubernetes.io/pci-03??_8086_*.present",
            None,
            intel,
            F::NodeFeatureDiscovery,
            CITE_NFD,
        ),
        l(
            "feature.node.kubernetes.io/amd-gpu",
            None,
            amd,
            F::NodeFeatureDiscovery,
            "ROCm/gpu-operator NodeFeatureRule amd-gpu",
        ),
        l(
            "feature.node.kubernetes.io/amd-vgpu",
            None,
            amd,
            F::NodeFeatureDiscovery,
            "ROCm/gpu-operator NodeFeatureRule amd-vgpu",
        ),
        // AMD node labeller
        l("amd.com/gpu.*", None, amd, F::AmdLabeller, CITE_AMD),
        l("beta.amd.com/gpu.*", None, amd, F::AmdLabeller, CITE_AMD),
        l("amd.com/gpu", None, amd, F::GenericLabel, ""),
        // Intel
        l(
            "intel.feature.node.kubernetes.io/gpu",
            None,
            intel,
            F::IntelLabeller,
            CITE_INTEL,
        ),
        l("gpu.intel.com/*", None, intel, F::IntelLabeller, CITE_INTEL),
        // cloud providers
        l(
            "cloud.google.com/gke-accelerator",
            None,
            nv,
            F::CloudProvider,
            CITE_GKE,
        ),
        l(
            "cloud.google.com/gke-accelerator-count",
            None,
            nv,
            F::CloudProvider,
            CITE_GKE,
        ),
        l(
            "cloud.google.com/gke-gpu*",
            None,
            nv,
            F::CloudProvider,
            CITE_GKE,
        ),
        l(
            "cloud.google.com/gke-max-shared-clients-per-gpu",
            None,
            nv,
            F::CloudProvider,
            CITE_GKE,
        ),
        l(
            "kubernetes.azure.com/accelerator",
            None,
            nv,
            F::CloudProvider,
            "Azure/AKS GPU node pools",
        ),
        l(
            "k8s.amazonaws.com/accelerator",
            None,
            nv,
            F::CloudProvider,
            "kubernetes/autoscaler cloudprovider/aws (GPU label)",
        ),
        l(
            "karpenter.k8s.aws/instance-gpu-manufacturer",
            Some("nvidia"),
            nv,
            F::CloudProvider,
            CITE_KARPENTER,
        ),
        l(
            "karpenter.k8s.aws/instance-gpu-manufacturer",
            Some("amd"),
            amd,
            F::CloudProvider,
            CITE_KARPENTER,
        ),
        l(
            "karpenter.k8s.aws/instance-gpu-*",
            None,
            None,
            F::CloudProvider,
            CITE_KARPENTER,
        ),
        l(
            "eks.amazonaws.com/instance-gpu-manufacturer",
            Some("nvidia"),
            nv,
            F::CloudProvider,
            "EKS Auto Mode well-known labels",
        ),
        l(
            "eks.amazonaws.com/instance-gpu-manufacturer",
            Some("amd"),
            amd,
            F::CloudProvider,
            "EKS Auto Mode well-known labels",
        ),
        l(
            "eks.amazonaws.com/instance-gpu-*",
            None,
            None,
            F::CloudProvider,
            "EKS Auto Mode well-known labels",
        ),
        l(
            "karpenter.azure.com/sku-gpu-manufacturer",
            Some("nvidia"),
            nv,
            F::CloudProvider,
            "Azure/karpenter-provider-azure pkg/apis/v1beta1/labels.go",
        ),
        l(
            "karpenter.azure.com/sku-gpu-*",
            None,
            None,
            F::CloudProvider,
            "Azure/karpenter-provider-azure pkg/apis/v1beta1/labels.go",
        ),
        l(
            "aliyun.accelerator/nvidia*",
            None,
            nv,
            F::CloudProvider,
            "Alibaba Cloud ACK GPU node labels",
        ),
        l(
            "ack.node.gpu.schedule",
            None,
            nv,
            F::CloudProvider,
            "Alibaba Cloud ACK GPU sharing",
        ),
        l(
            "gpushare",
            Some("true"),
            nv,
            F::CloudProvider,
            "AliyunContainerService/gpushare-device-plugin",
        ),
        // cluster-autoscaler's GPULabel of the other cloud providers
        l("aliyun.accelerator/*", None, nv, F::CloudProvider, CITE_CA),
        l("baidu/nvidia_name", None, nv, F::CloudProvider, CITE_CA),
        l(
            "cloud.tencent.com/tke-accelerator",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l(
            "node.kubernetes.ovhcloud.com/gpu",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l("k8s.scw.cloud/gpu", None, None, F::CloudProvider, CITE_CA),
        l(
            "magnum.openstack.org/gpu",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l(
            "cloud.digitalocean.com/gpu-node",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l("hcloud/gpu-node", None, None, F::CloudProvider, CITE_CA),
        l("civo.com/gpu-node", None, None, F::CloudProvider, CITE_CA),
        l(
            "cloud.brightbox.com/gpu-node",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l(
            "bke.bizflycloud.vn/gpu-node",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l(
            "cherryservers.com/gpu",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l(
            "cluster-api/accelerator",
            None,
            None,
            F::CloudProvider,
            CITE_CA,
        ),
        l(
            "doks.digitalocean.com/gpu-brand",
            Some("amd"),
            amd,
            F::CloudProvider,
            CITE_DOKS,
        ),
        l(
            "doks.digitalocean.com/gpu-brand",
            Some("nvidia"),
            nv,
            F::CloudProvider,
            CITE_DOKS,
        ),
        l(
            "doks.digitalocean.com/gpu-*",
            None,
            None,
            F::CloudProvider,
            CITE_DOKS,
        ),
        // Talos Linux: the NVIDIA system extensions (kernel modules, container toolkit, fabric
        // manager) are installed only into the images of NVIDIA GPU nodes. The AMD (amdgpu) and
        // Intel (i915) driver extensions are left out: image schematics often carry them for
        // integrated GPUs, so they do not say that a node has an accelerator.
        l(
            "extensions.talos.dev/nonfree-kmod-nvidia*",
            None,
            nv,
            F::OsExtension,
            CITE_TALOS,
        ),
        l(
            "extensions.talos.dev/nvidia-*",
            None,
            nv,
            F::OsExtension,
            CITE_TALOS,
        ),
        // CoreWeave
        l(
            "gpu.nvidia.com/*",
            None,
            nv,
            F::CloudProvider,
            CITE_COREWEAVE,
        ),
        // SkyPilot's own label (its GPU labeller writes it; values h100, a100, l4, ...)
        l(
            "skypilot.co/accelerator",
            None,
            None,
            F::Orchestrator,
            CITE_SKYPILOT,
        ),
        // the GKE 1.8 era label and Tencent's GPU manager
        l(
            "alpha.kubernetes.io/nvidia-gpu-name",
            None,
            nv,
            F::CloudProvider,
            CITE_LEGACY,
        ),
        l(
            "nvidia-device-enable",
            Some("enable"),
            nv,
            F::GenericLabel,
            CITE_TKE,
        ),
        // a node role named after GPUs (node-role.kubernetes.io/gpu=, any value)
        l(
            "node-role.kubernetes.io/gpu*",
            Some("*"),
            None,
            F::GenericLabel,
            CITE_ROLE,
        ),
        // accelerators that are not GPUs (AWS Inferentia / Trainium, TPUs, FPGAs, Gaudi)
        l(
            "accelerator",
            Some("*inferentia*"),
            None,
            F::GenericLabel,
            "",
        )
        .excluding(),
        l("accelerator", Some("*trainium*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*neuron*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*tpu*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*fpga*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*gaudi*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*habana*"), None, F::GenericLabel, "").excluding(),
        // the accelerators of crate::accelerator outside the GPU model (Huawei's
        // accelerator=huawei-Ascend910 of its device plugin's nodeSelector, Cambricon MLUs,
        // Hygon DCUs, Kunlunxin, Enflame GCUs, and the GPUs whose resources the model does not
        // count: Iluvatar, MetaX, Moore Threads)
        l("accelerator", Some("*ascend*"), None, F::GenericLabel, "Ascend/mind-cluster ascend-device-plugin (nodeSelector accelerator=huawei-Ascend910|310|310P)").excluding(),
        l("accelerator", Some("*npu*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*mlu*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*cambricon*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*dcu*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*hygon*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*kunlun*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*enflame*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*gcu*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*iluvatar*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*metax*"), None, F::GenericLabel, "").excluding(),
        l("accelerator", Some("*mthreads*"), None, F::GenericLabel, "").excluding(),
        // generic accelerator labels (the seed case; AKS / KAITO docs use accelerator=nvidia)
        l(
            "accelerator",
            Some("*nvidia*"),
            nv,
            F::GenericLabel,
            "kaito-project/kaito charts nvidia-device-plugin-ds.yaml (accelerator In [nvidia])",
        ),
        l("accelerator", Some("*tesla*"), nv, F::GenericLabel, ""),
        l("accelerator", Some("*amd*"), amd, F::GenericLabel, ""),
        l("accelerator", Some("*radeon*"), amd, F::GenericLabel, ""),
        l("accelerator", Some("*instinct*"), amd, F::GenericLabel, ""),
        l("accelerator", Some("*intel*"), intel, F::GenericLabel, ""),
        l("accelerator", None, None, F::GenericLabel, ""),
        // HAMi: its device plugin selects gpu=on
        l("gpu", Some("on"), None, F::HamiAnnotation, CITE_HAMI),
        // CubeStudio
        l("gpu", Some("true"), None, F::CubeStudio, CITE_CUBE),
        l("gpu-type", None, None, F::CubeStudio, CITE_CUBE),
        l("vgpu", Some("true"), None, F::CubeStudio, CITE_CUBE),
        l("gpu", None, None, F::GenericLabel, ""),
    ];
    // GPU instance types (first match wins: the AMD families before the NVIDIA catch-alls)
    let families: &[(&str, Option<GpuVendor>)] = &[
        // AWS
        ("g4ad.*", amd),
        ("g3.*", nv),
        ("g3s.*", nv),
        ("g4dn.*", nv),
        ("g5.*", nv),
        ("g5g.*", nv),
        ("g6.*", nv),
        ("g6e.*", nv),
        ("g6f.*", nv),
        ("gr6.*", nv),
        ("gr6f.*", nv),
        ("p2.*", nv),
        ("p3.*", nv),
        ("p3dn.*", nv),
        ("p4d.*", nv),
        ("p4de.*", nv),
        ("p5.*", nv),
        ("p5e.*", nv),
        ("p5en.*", nv),
        ("p6-*", nv),
        ("p6e-*", nv),
        // Azure N-series (NVv4 and NGads V620 are AMD Radeon; ND MI300X is AMD Instinct)
        ("Standard_NV*as_v4", amd),
        ("Standard_NG*", amd),
        ("Standard_ND*MI300X*", amd),
        ("Standard_NC*", nv),
        ("Standard_ND*", nv),
        ("Standard_NV*", nv),
        // GCP accelerator-optimized
        ("a2-*", nv),
        ("a3-*", nv),
        ("a4-*", nv),
        ("a4x-*", nv),
        ("g2-*", nv),
        // Alibaba Cloud ECS GPU families
        ("ecs.gn*", nv),
        ("ecs.ebmgn*", nv),
        ("ecs.sgn*", nv),
        ("ecs.vgn*", nv),
        // Oracle Cloud
        ("BM.GPU*", nv),
        ("VM.GPU*", nv),
        // IBM Cloud VPC GPU profiles (gx2 V100, gx3 L4 / L40S, gx3d H100)
        ("gx2-*", nv),
        ("gx3-*", nv),
        ("gx3d-*", nv),
    ];
    for key in [
        "node.kubernetes.io/instance-type",
        "beta.kubernetes.io/instance-type",
    ] {
        for (value, vendor) in families {
            m.push(l(key, Some(value), *vendor, F::InstanceType, CITE_INSTANCE));
        }
    }
    // annotations
    let a = |key: &str, vendor: Option<GpuVendor>, family: F, cite: &str| {
        l(key, None, vendor, family, cite).of_kind(MarkerKind::Annotation)
    };
    m.extend([
        a(
            "hami.io/node-nvidia-register",
            nv,
            F::HamiAnnotation,
            CITE_HAMI,
        ),
        a("hami.io/node-handshake", nv, F::HamiAnnotation, CITE_HAMI),
        a(
            "4pd.io/node-nvidia-register",
            nv,
            F::HamiAnnotation,
            CITE_HAMI,
        ),
        a("4pd.io/node-handshake", nv, F::HamiAnnotation, CITE_HAMI),
        a(
            "volcano.sh/node-vgpu-register",
            nv,
            F::HamiAnnotation,
            "volcano-sh/volcano pkg/scheduler/api/devices/config (VolcanoVGPURegister)",
        ),
    ]);
    // taints (any effect)
    let t = |key: &str, value: Option<&str>, vendor: Option<GpuVendor>, cite: &str| {
        l(key, value, vendor, F::Taint, cite).of_kind(MarkerKind::Taint)
    };
    m.extend([
        t(
            "nvidia.com/gpu",
            None,
            nv,
            "NVIDIA/k8s-device-plugin deployments (toleration nvidia.com/gpu Exists)",
        ),
        t(
            "amd.com/gpu",
            None,
            amd,
            "ROCm/gpu-operator DeviceConfig tolerations",
        ),
        t("gpu.intel.com/*", None, intel, ""),
        t(
            "sku",
            Some("gpu"),
            None,
            "AKS GPU node pools (--node-taints sku=gpu:NoSchedule)",
        ),
        t("*gpu*", None, None, ""),
        t("*", Some("*gpu*"), None, ""),
    ]);
    m
}

/// The vendor of an advertised GPU resource (`nvidia.com/gpu`, `nvidia.com/mig-1g.10gb`,
/// `nvidia.com/gpu.shared`, `amd.com/gpu`, `gpu.intel.com/i915`, Alibaba's `aliyun.com/gpu-*`,
/// Tencent's `tencent.com/vcuda-core`, Volcano's `volcano.sh/vgpu-number`); `None` for other resources and for HAMi's per-GPU
/// attributes (`nvidia.com/gpumem`, `nvidia.com/gpucores`), which count no devices.
pub fn gpu_resource_vendor(name: &str) -> Option<GpuVendor> {
    // native resources (cpu, memory, pods, ...) have no domain: the common case, no allocation
    if !name.contains('/') {
        return None;
    }
    let rn = crate::ResourceName::from(name);
    if rn.is_gpu() {
        return GpuVendor::from_resource_name(name);
    }
    if rn.is_gpu_share_attribute() {
        return None;
    }
    if name.starts_with("aliyun.com/gpu")
        || name.starts_with("tencent.com/vcuda-core")
        || name == "volcano.sh/vgpu-number"
    {
        return Some(GpuVendor::Nvidia);
    }
    // KubeVirt GPU passthrough / vGPU: NVIDIA/kubevirt-gpu-device-plugin registers one resource
    // per device model, `nvidia.com/<PCI device name>` with spaces as underscores
    // (`nvidia.com/GA100_A100_SXM4_40GB`, `nvidia.com/TU104GL_Tesla_T4`); the plugins' own
    // names are lower case
    if let Some(model) = name.strip_prefix("nvidia.com/")
        && model.contains('_')
        && model.chars().any(|c| c.is_ascii_uppercase())
        && model
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    {
        return Some(GpuVendor::Nvidia);
    }
    None
}

/// The GPU resources of a node: (capacity, allocatable), each only GPU device resources (see
/// [`gpu_resource_vendor`]). An empty allocatable takes the capacity, as API defaulting does.
pub fn gpu_resources(node: &Node) -> (ResourceList, ResourceList) {
    let pick = |l: &ResourceList| -> ResourceList {
        l.iter()
            .filter(|(k, _)| gpu_resource_vendor(k.as_str()).is_some())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let capacity = pick(&node.status.capacity);
    let allocatable = if node.status.allocatable.is_empty() {
        capacity.clone()
    } else {
        pick(&node.status.allocatable)
    };
    (capacity, allocatable)
}

/// One fact saying a node has GPUs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GpuSource {
    /// Where it was read.
    pub kind: GpuSourceKind,
    /// The vendor it implies, if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vendor: Option<GpuVendor>,
    /// Who writes it.
    pub family: GpuEvidenceSource,
    /// Label / annotation / taint key, `namespace/pod` name, pool key, or resource name.
    pub key: String,
    /// Label / annotation value, `value:effect` of a taint, the pod's image, the pool value, or
    /// the advertised quantity.
    pub value: String,
    /// For a pool sibling: the sibling node that advertises GPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// True when the fact alone does not make the node a GPU node (a device-plugin pod of a
    /// DaemonSet that runs on every node).
    #[serde(default)]
    pub weak: bool,
}

impl fmt::Display for GpuSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            GpuSourceKind::Label | GpuSourceKind::Annotation => {
                write!(f, "{} {}={}", self.kind.as_str(), self.key, self.value)
            }
            GpuSourceKind::Taint if self.value.starts_with(':') => {
                write!(f, "taint {}{}", self.key, self.value)
            }
            GpuSourceKind::Taint => write!(f, "taint {}={}", self.key, self.value),
            GpuSourceKind::PodOnNode if self.value.is_empty() => write!(f, "pod {}", self.key),
            GpuSourceKind::PodOnNode => write!(f, "pod {} ({})", self.key, self.value),
            GpuSourceKind::PoolSibling => write!(
                f,
                "from sibling {} ({}={}) which advertises GPUs",
                self.node.as_deref().unwrap_or("?"),
                self.key,
                self.value
            ),
            GpuSourceKind::AdvertisedResource => {
                write!(f, "advertises {}: {}", self.key, self.value)
            }
            GpuSourceKind::RegisteredResource => write!(
                f,
                "{} registered at {} (a device plugin ran here)",
                self.key, self.value
            ),
            GpuSourceKind::HardwareSibling => write!(
                f,
                "from identical-hardware sibling {} ({}) which advertises GPUs",
                self.node.as_deref().unwrap_or("?"),
                self.value
            ),
            GpuSourceKind::ToolOutput => write!(f, "{} in the input: {}", self.key, self.value),
            GpuSourceKind::GpuPodOnNode => write!(
                f,
                "pod {} bound to the node requests {} (admitted while the node advertised it)",
                self.key, self.value
            ),
        }?;
        if !matches!(
            self.family,
            GpuEvidenceSource::AdvertisedResource
                | GpuEvidenceSource::PoolSibling
                | GpuEvidenceSource::RegisteredResource
                | GpuEvidenceSource::HardwareSibling
                | GpuEvidenceSource::ToolOutput
                | GpuEvidenceSource::GpuWorkload
        ) {
            write!(f, " [{}]", self.family.as_str())?;
        }
        Ok(())
    }
}

/// Every GPU fact of one node, and the GPU resources it advertises.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeGpuEvidence {
    /// `metadata.name`.
    pub node: String,
    /// Every source, in order: labels, annotations, taints, advertised resources, pods,
    /// siblings.
    pub sources: Vec<GpuSource>,
    /// GPU device resources in `status.capacity`.
    pub capacity: ResourceList,
    /// GPU device resources in `status.allocatable` (capacity when allocatable is empty).
    pub allocatable: ResourceList,
}

impl NodeGpuEvidence {
    /// True when some non-weak source says the node has GPUs.
    pub fn has_gpus(&self) -> bool {
        self.sources.iter().any(|s| !s.weak)
    }
    /// True when the node's GPU facts come only from siblings (pool or identical hardware).
    pub fn from_siblings_only(&self) -> bool {
        self.has_gpus()
            && self.sources.iter().filter(|s| !s.weak).all(|s| {
                matches!(
                    s.kind,
                    GpuSourceKind::PoolSibling | GpuSourceKind::HardwareSibling
                )
            })
    }
    /// True when the node's GPU facts come only from identical-hardware siblings (the weakest
    /// evidence: no label ties the nodes).
    pub fn from_hardware_siblings_only(&self) -> bool {
        self.has_gpus()
            && self
                .sources
                .iter()
                .filter(|s| !s.weak)
                .all(|s| s.kind == GpuSourceKind::HardwareSibling)
    }
    /// Sources that are not advertised resources (what says the node *should* have GPUs).
    pub fn claims(&self) -> impl Iterator<Item = &GpuSource> {
        self.sources
            .iter()
            .filter(|s| s.kind != GpuSourceKind::AdvertisedResource && !s.weak)
    }
    /// The vendor: that of advertised GPU resources above zero when there are any, else the
    /// vendor most sources name (ties: NVIDIA, AMD, Intel); `None` when no source names one.
    pub fn vendor(&self) -> Option<GpuVendor> {
        if let Some(v) = self
            .sources
            .iter()
            .find(|s| s.kind == GpuSourceKind::AdvertisedResource)
            .and_then(|s| s.vendor)
        {
            return Some(v);
        }
        let mut tally: BTreeMap<GpuVendor, usize> = BTreeMap::new();
        for s in self.sources.iter().filter(|s| !s.weak) {
            if let Some(v) = s.vendor {
                *tally.entry(v).or_default() += 1;
            }
        }
        let max = tally.values().copied().max()?;
        // BTreeMap order is Nvidia, Amd, Intel: the first with the top count wins ties
        tally.into_iter().find(|(_, n)| *n == max).map(|(v, _)| v)
    }
    /// GPU device resources of `vendor` (any vendor when `None`) advertised above zero in
    /// allocatable, as (name, quantity). The legacy `alpha.kubernetes.io/nvidia-gpu` (the
    /// kubelet's removed Accelerators feature gate) is left out: no device plugin registers it
    /// and pods asking for `nvidia.com/gpu` cannot use it.
    pub fn allocatable_of(&self, vendor: Option<GpuVendor>) -> Vec<(&str, &crate::Quantity)> {
        of_vendor(&self.allocatable, vendor)
    }
    /// As [`NodeGpuEvidence::allocatable_of`] for capacity.
    pub fn capacity_of(&self, vendor: Option<GpuVendor>) -> Vec<(&str, &crate::Quantity)> {
        of_vendor(&self.capacity, vendor)
    }
}

fn of_vendor(l: &ResourceList, vendor: Option<GpuVendor>) -> Vec<(&str, &crate::Quantity)> {
    l.iter()
        .filter(|(k, q)| {
            !q.is_zero()
                && !q.is_negative()
                && k.as_str() != crate::resource::names::LEGACY_NVIDIA_GPU
                && vendor.is_none_or(|v| gpu_resource_vendor(k.as_str()) == Some(v))
        })
        .map(|(k, q)| (k.as_str(), q))
        .collect()
}

/// The role of a GPU component (DaemonSet or pod), recognised by name and image.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum GpuComponentRole {
    /// A device plugin (registers the GPU resource with the kubelet).
    DevicePlugin,
    /// Node feature discovery's worker (writes `feature.node.kubernetes.io/*`).
    NfdWorker,
    /// NVIDIA GPU feature discovery (writes `nvidia.com/gpu.*`).
    FeatureDiscovery,
    /// A driver installer or driver container.
    Driver,
    /// Another GPU Operator operand (toolkit, validator, DCGM, MIG manager).
    Operand,
}

/// Recognises a GPU component by its name (`nvidia-device-plugin-daemonset`,
/// `nfd-worker`, ...) and container images; returns its role and vendor. Order matters: NFD
/// workers bundled by the device plugin chart are named `nvidia-device-plugin-node-feature-
/// discovery-worker` and are NFD workers, not plugins; the MPS control daemon is not a plugin.
///
/// Names from NVIDIA/k8s-device-plugin deployments/, NVIDIA/gpu-operator assets/,
/// GoogleCloudPlatform/container-engine-accelerators, Project-HAMi/HAMi charts, ROCm/
/// k8s-device-plugin, intel/intel-device-plugins-for-kubernetes.
pub fn classify_component(
    name: &str,
    images: &[&str],
) -> Option<(GpuComponentRole, Option<GpuVendor>)> {
    // object names are lowercase DNS names and image repositories are lowercase: no folding.
    // Most pods are no GPU component: a cheap first test on a few fragments.
    const HINTS: &[&str] = &[
        "nvidia",
        "nvcr",
        "gpu",
        "amd",
        "rocm",
        "intel",
        "hami",
        "4pd",
        "nfd",
        "feature-discovery",
        "device-plugin",
        "deviceplugin",
        "dcgm",
        "volcano",
        "driver",
        "installer",
    ];
    if !HINTS
        .iter()
        .any(|h| name.contains(h) || images.iter().any(|i| i.contains(h)))
    {
        return None;
    }
    // another accelerator's plugin (Ascend, Neuron, Gaudi, Cambricon, ...;
    // crate::accelerator): not a GPU component, whatever its name shares with one
    if crate::accelerator::other_component(name, images).is_some() {
        return None;
    }
    let any = |pats: &[&str]| {
        pats.iter()
            .any(|p| name.contains(p) || images.iter().any(|i| i.contains(p)))
    };
    let vendor = if any(&["rocm/", "amdgpu", "amd-gpu", "amd.com"]) {
        Some(GpuVendor::Amd)
    } else if any(&["intel-gpu", "intel/intel"]) {
        Some(GpuVendor::Intel)
    } else if any(&[
        "nvidia",
        "nvcr.io",
        "hami",
        "4pd",
        "vgpu",
        "gpushare",
        "volcano-device-plugin",
        "metagpu",
    ]) {
        Some(GpuVendor::Nvidia)
    } else {
        None
    };
    let in_name = |pats: &[&str]| pats.iter().any(|p| name.contains(p));
    let in_image = |pats: &[&str]| pats.iter().any(|p| images.iter().any(|i| i.contains(p)));
    const NFD: &[&str] = &["node-feature-discovery", "nfd-worker", "nfd-node"];
    const MPS: &[&str] = &["mps-control-daemon"];
    const GFD: &[&str] = &["gpu-feature-discovery"];
    // GPU Operator validators (nvidia-operator-validator, nvidia-cuda-validator and the
    // nvidia-device-plugin-validator pod, which is no plugin)
    const VALIDATOR: &[&str] = &["-validator", "-validation"];
    const PLUGIN: &[&str] = &[
        "device-plugin",
        "deviceplugin",
        "intel-gpu-plugin",
        "gpushare",
    ];
    const DRIVER: &[&str] = &[
        "driver-installer",
        "nvidia-driver",
        "gpu-installer",
        "nvidia-installer",
    ];
    const OPERAND: &[&str] = &[
        "nvidia-container-toolkit",
        "nvidia-operator-validator",
        "nvidia-dcgm",
        "dcgm-exporter",
        "nvidia-mig-manager",
        "gpu-operator",
    ];
    let order: [(&[&str], GpuComponentRole); 7] = [
        (NFD, GpuComponentRole::NfdWorker),
        (MPS, GpuComponentRole::Operand),
        (GFD, GpuComponentRole::FeatureDiscovery),
        (VALIDATOR, GpuComponentRole::Operand),
        (PLUGIN, GpuComponentRole::DevicePlugin),
        (DRIVER, GpuComponentRole::Driver),
        (OPERAND, GpuComponentRole::Operand),
    ];
    // the name decides first (GKE's plugin pod has a driver-installer init container), then
    // the images
    let role = order
        .iter()
        .find(|(p, _)| in_name(p))
        .or_else(|| order.iter().find(|(p, _)| in_image(p)))
        .map(|(_, r)| *r)?;
    if role == GpuComponentRole::NfdWorker && (in_name(&["nfd-master", "nfd-gc"])) {
        return None;
    }
    if role == GpuComponentRole::NfdWorker {
        return Some((role, None));
    }
    Some((role, vendor))
}

/// The role and vendor of a DaemonSet (see [`classify_component`]).
pub fn classify_daemon_set(ds: &DaemonSet) -> Option<(GpuComponentRole, Option<GpuVendor>)> {
    let images: Vec<&str> = ds
        .spec
        .template
        .spec
        .containers
        .iter()
        .chain(&ds.spec.template.spec.init_containers)
        .map(|c| c.image.as_str())
        .collect();
    classify_component(&ds.metadata.name, &images)
}

/// The role and vendor of a pod (see [`classify_component`]); the owning DaemonSet's name counts
/// as the name when the pod has one.
pub fn classify_pod(pod: &Pod) -> Option<(GpuComponentRole, Option<GpuVendor>)> {
    let images: Vec<&str> = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .map(|c| c.image.as_str())
        .collect();
    let owner = pod
        .metadata
        .owner_references
        .iter()
        .find(|o| o.kind == "DaemonSet")
        .map_or(pod.metadata.name.as_str(), |o| o.name.as_str());
    classify_component(owner, &images)
}

/// The first GPU device resource a pod's containers (or init containers) request or limit
/// above zero (limits count: the API server copies them into missing requests).
fn gpu_request(p: &Pod) -> Option<(&str, &crate::Quantity)> {
    p.spec
        .containers
        .iter()
        .chain(&p.spec.init_containers)
        .flat_map(|c| c.resources.requests.iter().chain(c.resources.limits.iter()))
        .find(|(k, q)| {
            k.as_str().contains('/')
                && !q.is_zero()
                && !q.is_negative()
                && k.as_str() != crate::resource::names::LEGACY_NVIDIA_GPU
                && gpu_resource_vendor(k.as_str()).is_some()
        })
        .map(|(k, q)| (k.as_str(), q))
}

/// True when a pod spec restricts its nodes by label: a non-empty `nodeSelector`, or a required
/// node affinity with `matchExpressions` (a DaemonSet pod's `matchFields metadata.name` term,
/// added by the DaemonSet controller, does not count).
pub fn selects_nodes_by_label(spec: &crate::objects::PodSpec) -> bool {
    !spec.node_selector.is_empty()
        || spec
            .affinity
            .as_ref()
            .and_then(|a| a.node_affinity.as_ref())
            .and_then(|na| {
                na.required_during_scheduling_ignored_during_execution
                    .as_ref()
            })
            .is_some_and(|r| {
                r.node_selector_terms
                    .iter()
                    .any(|t| !t.match_expressions.is_empty())
            })
}

/// Labels that group nodes of one hardware shape (same instance type, same managed node pool).
pub const POOL_KEYS: &[&str] = &[
    "node.kubernetes.io/instance-type",
    "beta.kubernetes.io/instance-type",
    "eks.amazonaws.com/nodegroup",
    "alpha.eksctl.io/nodegroup-name",
    "cloud.google.com/gke-nodepool",
    "kubernetes.azure.com/agentpool",
    "agentpool",
    "alibabacloud.com/nodepool-id",
];

/// GPU evidence of every node of `snapshot`, in node order: the node's own sources, GPU
/// component pods bound to it, and pool siblings that advertise GPUs (see [`POOL_KEYS`]; only
/// for nodes that advertise none themselves). O(nodes + pods).
pub fn cluster_gpu_evidence(
    vocab: &GpuVocabulary,
    snapshot: &ClusterSnapshot,
) -> Vec<NodeGpuEvidence> {
    let mut out: Vec<NodeGpuEvidence> = snapshot
        .nodes
        .iter()
        .map(|n| {
            let (capacity, allocatable) = gpu_resources(n);
            NodeGpuEvidence {
                node: n.metadata.name.clone(),
                sources: vocab.node_sources(n),
                capacity,
                allocatable,
            }
        })
        .collect();
    let index: HashMap<&str, usize> = snapshot
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.metadata.name.as_str(), i))
        .collect();
    // nodes that advertise a GPU resource above zero (a GPU pod there proves nothing new)
    let advertising: Vec<bool> = out
        .iter()
        .map(|e| {
            e.sources
                .iter()
                .any(|s| s.kind == GpuSourceKind::AdvertisedResource)
        })
        .collect();
    for p in &snapshot.pods {
        if p.spec.node_name.is_empty() || p.is_terminal() {
            continue;
        }
        if let Some(&i) = index.get(p.spec.node_name.as_str())
            && !advertising[i]
            && !out[i]
                .sources
                .iter()
                .any(|s| s.kind == GpuSourceKind::GpuPodOnNode)
            && let Some((res, q)) = gpu_request(p)
        {
            out[i].sources.push(GpuSource {
                kind: GpuSourceKind::GpuPodOnNode,
                vendor: gpu_resource_vendor(res),
                family: GpuEvidenceSource::GpuWorkload,
                key: format!("{}/{}", p.metadata.namespace, p.metadata.name),
                value: format!("{res}: {q}"),
                node: None,
                weak: false,
            });
        }
        // GPU components run as DaemonSet pods (or pasted bare pods): skip the rest cheaply
        if p.metadata
            .owner_references
            .iter()
            .any(|o| o.kind != "DaemonSet")
        {
            continue;
        }
        let Some(&i) = index.get(p.spec.node_name.as_str()) else {
            continue;
        };
        let Some((role, vendor)) = classify_pod(p) else {
            continue;
        };
        if role == GpuComponentRole::NfdWorker {
            continue;
        }
        // operands and drivers only run where the operator / cloud found GPUs; a device
        // plugin counts when its template selects nodes (otherwise it runs everywhere)
        let weak = role == GpuComponentRole::DevicePlugin && !selects_nodes_by_label(&p.spec);
        // the component's own image, not a pause container's (GKE's driver installer runs in
        // an init container in front of `pause`)
        let image = p
            .spec
            .containers
            .iter()
            .chain(&p.spec.init_containers)
            .map(|c| c.image.as_str())
            .find(|i| !i.is_empty() && !i.contains("/pause:") && !i.starts_with("pause:"))
            .unwrap_or_default()
            .to_owned();
        out[i].sources.push(GpuSource {
            kind: GpuSourceKind::PodOnNode,
            vendor,
            family: GpuEvidenceSource::GpuComponentPod,
            key: format!("{}/{}", p.metadata.namespace, p.metadata.name),
            value: image,
            node: None,
            weak,
        });
    }
    // pool siblings
    let advertises: Vec<Option<GpuVendor>> = out
        .iter()
        .map(|e| {
            e.capacity
                .iter()
                .chain(e.allocatable.iter())
                .filter(|(_, q)| !q.is_zero() && !q.is_negative())
                .find_map(|(k, _)| gpu_resource_vendor(k.as_str()))
        })
        .collect();
    for key in POOL_KEYS {
        let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, n) in snapshot.nodes.iter().enumerate() {
            if let Some(v) = n.metadata.labels.get(key).filter(|v| !v.is_empty()) {
                groups.entry(v).or_default().push(i);
            }
        }
        for (value, members) in groups {
            let Some(&adv) = members.iter().find(|&&i| advertises[i].is_some()) else {
                continue;
            };
            for &i in &members {
                if advertises[i].is_some()
                    || out[i]
                        .sources
                        .iter()
                        .any(|s| s.kind == GpuSourceKind::PoolSibling)
                {
                    continue;
                }
                out[i].sources.push(GpuSource {
                    kind: GpuSourceKind::PoolSibling,
                    vendor: advertises[adv],
                    family: GpuEvidenceSource::PoolSibling,
                    key: (*key).to_owned(),
                    value: value.to_owned(),
                    node: Some(snapshot.nodes[adv].metadata.name.clone()),
                    weak: false,
                });
            }
        }
    }
    hardware_siblings(snapshot, &advertises, &mut out);
    out
}

/// Identical-hardware siblings (kubernetes/kubernetes#94926: nine identical nodes, four
/// advertise their GPUs, no label says which belong together). Nodes are grouped by the same
/// CPU capacity, pods capacity, kernel, container runtime, kubelet, OS image and architecture
/// (every one present) and memory capacity within 1 %; control-plane nodes and nodes whose
/// instance types differ are never siblings. A node with no other GPU evidence gets a
/// [`GpuSourceKind::HardwareSibling`] source only when at least two of its identical siblings
/// advertise GPUs and they are at least a third of its group (one odd node with a GPU card
/// does not make its identical neighbours GPU nodes). Advertising siblings that carry a GPU
/// label, annotation or taint do not count: the cluster marks its GPU nodes, and an unmarked
/// node of the same chassis is a CPU node (fresh-user report F25). O(n log n).
fn hardware_siblings(
    snapshot: &ClusterSnapshot,
    advertises: &[Option<GpuVendor>],
    out: &mut [NodeGpuEvidence],
) {
    const CONTROL_PLANE: &[&str] = &[
        "node-role.kubernetes.io/control-plane",
        "node-role.kubernetes.io/master",
    ];
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, n) in snapshot.nodes.iter().enumerate() {
        let info = &n.status.node_info;
        let cap = &n.status.capacity;
        let (Some(cpu), Some(_)) = (cap.get("cpu"), cap.get("memory")) else {
            continue;
        };
        if [
            &info.kernel_version,
            &info.container_runtime_version,
            &info.kubelet_version,
            &info.os_image,
        ]
        .iter()
        .any(|v| v.is_empty())
            || CONTROL_PLANE
                .iter()
                .any(|k| n.metadata.labels.contains_key(k))
            || n.spec
                .taints
                .iter()
                .any(|t| CONTROL_PLANE.contains(&t.key.as_str()))
        {
            continue;
        }
        let key = format!(
            "{cpu}|{}|{}|{}|{}|{}|{}|{}",
            cap.get("pods").map(ToString::to_string).unwrap_or_default(),
            info.kernel_version,
            info.container_runtime_version,
            info.kubelet_version,
            info.os_image,
            info.architecture,
            n.metadata
                .labels
                .get("node.kubernetes.io/instance-type")
                .or_else(|| n.metadata.labels.get("beta.kubernetes.io/instance-type"))
                .unwrap_or(""),
        );
        groups.entry(key).or_default().push(i);
    }
    let memory = |i: usize| {
        snapshot.nodes[i]
            .status
            .capacity
            .get("memory")
            .map_or(0, crate::Quantity::value)
    };
    for members in groups.values() {
        let mut adv: Vec<(i64, usize)> = members
            .iter()
            .filter(|&&i| advertises[i].is_some())
            .map(|&i| (memory(i), i))
            .collect();
        if adv.len() < 2 || adv.len() * 3 < members.len() {
            continue;
        }
        // The cluster's own marking tells the nodes apart (fresh-user report F25: on-prem
        // fleets buy one chassis with and without GPUs): when the advertising siblings carry a
        // GPU label, annotation or taint and this node none, identical CPU / memory / kernel is
        // no evidence that it has GPUs. Only unmarked advertising nodes (kubernetes#94926) count.
        adv.retain(|&(_, i)| {
            !out[i].sources.iter().any(|s| {
                !s.weak
                    && matches!(
                        s.kind,
                        GpuSourceKind::Label | GpuSourceKind::Annotation | GpuSourceKind::Taint
                    )
            })
        });
        if adv.len() < 2 || adv.len() * 3 < members.len() {
            continue;
        }
        adv.sort_unstable();
        for &i in members {
            if advertises[i].is_some() || out[i].has_gpus() {
                continue;
            }
            let m = memory(i);
            let tolerance = m / 100;
            let lo = adv.partition_point(|(x, _)| *x < m - tolerance);
            let hi = adv.partition_point(|(x, _)| *x <= m + tolerance);
            if hi.saturating_sub(lo) < 2 {
                continue;
            }
            let sib = adv[lo].1;
            let n = &snapshot.nodes[i];
            let info = &n.status.node_info;
            out[i].sources.push(GpuSource {
                kind: GpuSourceKind::HardwareSibling,
                vendor: advertises[sib],
                family: GpuEvidenceSource::HardwareSibling,
                key: "identical hardware".to_owned(),
                value: format!(
                    "cpu {}, memory {}, kernel {}, {}, kubelet {}; {} of {} identical nodes advertise GPUs",
                    n.status
                        .capacity
                        .get("cpu")
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    n.status
                        .capacity
                        .get("memory")
                        .map(ToString::to_string)
                        .unwrap_or_default(),
                    info.kernel_version,
                    info.container_runtime_version,
                    info.kubelet_version,
                    adv.len(),
                    members.len()
                ),
                node: Some(snapshot.nodes[sib].metadata.name.clone()),
                weak: false,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Talos Linux's NVIDIA system-extension labels claim an NVIDIA GPU; its AMD/Intel driver
    /// extensions (often present for integrated GPUs) do not.
    #[test]
    fn talos_extension_labels() {
        let v = GpuVocabulary::builtin();
        for key in [
            "extensions.talos.dev/nonfree-kmod-nvidia-production",
            "extensions.talos.dev/nonfree-kmod-nvidia-lts",
            "extensions.talos.dev/nvidia-open-gpu-kernel-modules-production",
            "extensions.talos.dev/nvidia-container-toolkit-lts",
            "extensions.talos.dev/nvidia-fabricmanager-production",
        ] {
            let m = v
                .find(MarkerKind::Label, key, "570.172.08-v1.11.3")
                .unwrap_or_else(|| panic!("{key}"));
            assert_eq!(m.vendor, Some(GpuVendor::Nvidia), "{key}");
            assert_eq!(m.family, GpuEvidenceSource::OsExtension, "{key}");
        }
        for key in [
            "extensions.talos.dev/i915",
            "extensions.talos.dev/amdgpu",
            "extensions.talos.dev/iscsi-tools",
            "extensions.talos.dev/schematic",
        ] {
            assert!(v.find(MarkerKind::Label, key, "v1.0").is_none(), "{key}");
        }
    }

    fn node(labels: &[(&str, &str)]) -> Node {
        let mut n = Node::default();
        n.metadata.name = "n".into();
        n.metadata.labels = labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        n
    }

    #[test]
    fn globs() {
        assert!(glob("nvidia.com/gpu.*", "nvidia.com/gpu.product"));
        assert!(!glob("nvidia.com/gpu.*", "nvidia.com/gpu"));
        assert!(glob("g5.*", "G5.XLarge"));
        assert!(!glob("g5.*", "g5g.xlarge"));
        assert!(glob(
            "feature.node.kubernetes.io/pci-*_10de.present",
            "feature.node.kubernetes.io/pci-0302_10de.present"
        ));
        assert!(!glob(
            "feature.node.kubernetes.io/pci-03??_8086.present",
            "feature.node.kubernetes.io/pci-0600_8086.present"
        ));
        assert!(glob("Standard_NV*as_v4", "Standard_NV32as_v4"));
        assert!(glob("*", ""));
    }

    #[test]
    fn organisation_labels_that_say_gpu() {
        for (k, v, yes) in [
            ("NVIDIAGPU", "1", true),
            ("hasGPU", "true", true),
            ("example.com/gpu-node", "yes", true),
            ("sap.com/nvidia-gpu", "present", true),
            ("eks.amazonaws.com/nodegroup", "gpu-a100", true),
            ("node-type", "gpu", true),
            ("NVIDIAGPU", "0", false),
            ("gpu-enabled", "false", false),
            ("no-gpu", "true", false),
            ("eks.amazonaws.com/nodegroup", "cpu-general", false),
            ("node-type", "non-gpu", false),
            ("team", "gpu-research", false),
        ] {
            assert_eq!(organisation_gpu_label(k, v).is_some(), yes, "{k}={v}");
        }
        assert_eq!(
            organisation_gpu_label("sap.com/nvidia-gpu", "present"),
            Some(Some(GpuVendor::Nvidia))
        );
    }

    #[test]
    fn sources_of_every_family() {
        let v = GpuVocabulary::builtin();
        let cases: &[(&str, &str, Option<GpuVendor>)] = &[
            ("accelerator", "gpu", None),
            ("accelerator", "nvidia", Some(GpuVendor::Nvidia)),
            (
                "cloud.google.com/gke-accelerator",
                "nvidia-l4",
                Some(GpuVendor::Nvidia),
            ),
            ("karpenter.k8s.aws/instance-gpu-count", "1", None),
            (
                "karpenter.k8s.aws/instance-gpu-manufacturer",
                "nvidia",
                Some(GpuVendor::Nvidia),
            ),
            (
                "node.kubernetes.io/instance-type",
                "g4dn.xlarge",
                Some(GpuVendor::Nvidia),
            ),
            (
                "node.kubernetes.io/instance-type",
                "g4ad.xlarge",
                Some(GpuVendor::Amd),
            ),
            (
                "beta.kubernetes.io/instance-type",
                "Standard_NC6",
                Some(GpuVendor::Nvidia),
            ),
            (
                "node.kubernetes.io/instance-type",
                "a2-highgpu-1g",
                Some(GpuVendor::Nvidia),
            ),
            (
                "node.kubernetes.io/instance-type",
                "ecs.gn6i-c4g1.xlarge",
                Some(GpuVendor::Nvidia),
            ),
            ("gpu", "on", None),
            ("gpu", "true", None),
            (
                "intel.feature.node.kubernetes.io/gpu",
                "true",
                Some(GpuVendor::Intel),
            ),
            (
                "kubernetes.azure.com/accelerator",
                "nvidia",
                Some(GpuVendor::Nvidia),
            ),
        ];
        for (k, val, vendor) in cases {
            let s = v.node_sources(&node(&[(k, val)]));
            assert_eq!(s.len(), 1, "{k}={val}");
            assert_eq!(s[0].vendor, *vendor, "{k}={val}");
        }
        for (k, val) in [
            ("node.kubernetes.io/instance-type", "m5.xlarge"),
            ("node.kubernetes.io/instance-type", "Standard_D4s_v3"),
            ("gpu", "false"),
            ("org", "public"),
            (
                "cloud.google.com/gke-tpu-accelerator",
                "tpu-v5-lite-podslice",
            ),
            ("karpenter.k8s.aws/instance-accelerator-name", "inferentia"),
            ("nvidia.com/mig.strategy", "none"),
            ("accelerator", "aws-inferentia2"),
            ("accelerator", "tpu-v4"),
        ] {
            assert!(v.node_sources(&node(&[(k, val)])).is_empty(), "{k}={val}");
        }
        let mut n = node(&[]);
        n.spec.taints.push(Taint {
            key: "nvidia.com/gpu".into(),
            value: "present".into(),
            effect: "NoSchedule".into(),
            time_added: None,
        });
        n.metadata.annotations.insert(
            "hami.io/node-handshake".into(),
            "Requesting_2024.01.02 15:04:05".into(),
        );
        let s = v.node_sources(&n);
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|s| s.vendor == Some(GpuVendor::Nvidia)));
    }

    #[test]
    fn third_party_and_legacy_sources() {
        let v = GpuVocabulary::builtin();
        for (k, val, vendor) in [
            ("skypilot.co/accelerator", "h100", None),
            (
                "gpu.nvidia.com/class",
                "A100_NVLINK_80GB",
                Some(GpuVendor::Nvidia),
            ),
            ("gpu.nvidia.com/model", "H200", Some(GpuVendor::Nvidia)),
            (
                "alpha.kubernetes.io/nvidia-gpu-name",
                "Tesla-K80",
                Some(GpuVendor::Nvidia),
            ),
            ("k8s.scw.cloud/gpu", "true", None),
            ("cloud.tencent.com/tke-accelerator", "nvidia-tesla-t4", None),
            (
                "doks.digitalocean.com/gpu-brand",
                "amd",
                Some(GpuVendor::Amd),
            ),
            ("nvidia-device-enable", "enable", Some(GpuVendor::Nvidia)),
            ("node-role.kubernetes.io/gpu", "", None),
        ] {
            let s = v.node_sources(&node(&[(k, val)]));
            assert_eq!(s.len(), 1, "{k}={val}");
            assert_eq!(s[0].vendor, vendor, "{k}={val}");
        }
        // a resource registered at 0 is evidence; the legacy alpha resource at 0 (every node of
        // a pre-1.10 cluster) is not
        let mut n = node(&[]);
        n.status.capacity = [
            ("nvidia.com/gpu", "0".parse().unwrap()),
            ("cpu", "8".parse().unwrap()),
        ]
        .into_iter()
        .collect();
        let s = v.node_sources(&n);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].kind, GpuSourceKind::RegisteredResource);
        assert_eq!(s[0].vendor, Some(GpuVendor::Nvidia));
        assert!(s[0].to_string().contains("registered at 0"), "{}", s[0]);
        n.status.capacity = [(
            crate::resource::names::LEGACY_NVIDIA_GPU,
            "0".parse().unwrap(),
        )]
        .into_iter()
        .collect();
        assert!(v.node_sources(&n).is_empty());
        // pasted nvidia-smi
        let mut n = node(&[]);
        n.metadata.annotations.insert(
            crate::smi::NVIDIA_SMI_ANNOTATION.into(),
            "2 GPU(s): Tesla P4 x2".into(),
        );
        let s = v.node_sources(&n);
        assert_eq!(s[0].kind, GpuSourceKind::ToolOutput);
        assert_eq!(
            s[0].to_string(),
            "nvidia-smi in the input: 2 GPU(s): Tesla P4 x2"
        );
    }

    fn machine(name: &str, gpus: &str, memory: &str) -> Node {
        let mut n = node(&[]);
        n.metadata.name = name.into();
        n.status.capacity = [
            ("cpu", "16".parse().unwrap()),
            ("memory", memory.parse().unwrap()),
            ("pods", "110".parse().unwrap()),
            ("nvidia.com/gpu", gpus.parse().unwrap()),
        ]
        .into_iter()
        .filter(|(k, q): &(&str, crate::Quantity)| *k != "nvidia.com/gpu" || !q.is_zero())
        .collect();
        let i = &mut n.status.node_info;
        i.kernel_version = "4.15.0-117-generic".into();
        i.container_runtime_version = "docker://19.3.12".into();
        i.kubelet_version = "v1.19.0".into();
        i.os_image = "Ubuntu 18.04.4 LTS".into();
        i.architecture = "amd64".into();
        n
    }

    #[test]
    fn identical_hardware_siblings() {
        let ev = |nodes: Vec<Node>| {
            let snap = ClusterSnapshot {
                nodes,
                ..ClusterSnapshot::default()
            };
            cluster_gpu_evidence(GpuVocabulary::builtin(), &snap)
        };
        // kubernetes/kubernetes#94926: 4 of 9 identical nodes advertise
        let nodes: Vec<Node> = (1..=9)
            .map(|i| {
                let gpus = if [1, 2, 4, 6].contains(&i) { "2" } else { "0" };
                machine(&format!("node-0{i}"), gpus, "65850304Ki")
            })
            .collect();
        let e = ev(nodes.clone());
        assert!(e[2].from_hardware_siblings_only(), "{:?}", e[2]);
        assert_eq!(e[2].vendor(), Some(GpuVendor::Nvidia));
        assert!(
            e[2].sources[0]
                .to_string()
                .contains("4 of 9 identical nodes")
        );
        assert!(!e[0].from_siblings_only());
        // memory within 1 % still identical; 10 % is other hardware
        let mut other = nodes.clone();
        other[2] = machine("node-03", "0", "65800000Ki");
        other[4] = machine("node-05", "0", "59000000Ki");
        let e = ev(other);
        assert!(e[2].has_gpus() && !e[4].has_gpus());
        // one odd node with a GPU among identical CPU nodes: no evidence for the others
        let mut few: Vec<Node> = (1..=9)
            .map(|i| machine(&format!("n{i}"), "0", "65850304Ki"))
            .collect();
        few[0] = machine("n1", "1", "65850304Ki");
        few[1] = machine("n2", "1", "65850304Ki");
        assert!(ev(few).iter().skip(2).all(|e| !e.has_gpus()));
        // fresh-user report F25: advertising siblings marked by a GPU label make the unmarked
        // nodes of the same chassis CPU nodes, not GPU nodes
        let mut marked = nodes.clone();
        for i in [0, 1, 3, 5] {
            marked[i]
                .metadata
                .labels
                .insert("nvidia.com/gpu.present".into(), "true".into());
        }
        assert!(ev(marked).iter().all(|e| !e.from_hardware_siblings_only()));
        // a control-plane node or another kernel is no sibling
        let mut cp = nodes;
        cp[2].metadata.labels.insert(
            "node-role.kubernetes.io/control-plane".into(),
            String::new(),
        );
        cp[4].status.node_info.kernel_version = "5.4.0-1-generic".into();
        let e = ev(cp);
        assert!(!e[2].has_gpus() && !e[4].has_gpus() && e[6].has_gpus());
    }

    #[test]
    fn gpu_pods_bound_to_a_node() {
        let mut n = node(&[]);
        n.metadata.name = "n".into();
        let mut p = Pod::default();
        p.metadata.name = "train".into();
        p.metadata.namespace = "ml".into();
        p.spec.node_name = "n".into();
        p.status.phase = "Running".into();
        let mut c = crate::objects::Container::default();
        c.resources.limits = [("nvidia.com/gpu", "1".parse().unwrap())]
            .into_iter()
            .collect();
        p.spec.containers.push(c);
        let mut snap = ClusterSnapshot {
            nodes: vec![n],
            pods: vec![p],
            ..ClusterSnapshot::default()
        };
        let e = cluster_gpu_evidence(GpuVocabulary::builtin(), &snap);
        assert!(e[0].has_gpus());
        assert_eq!(e[0].sources[0].kind, GpuSourceKind::GpuPodOnNode);
        assert_eq!(e[0].vendor(), Some(GpuVendor::Nvidia));
        // a finished pod says nothing
        snap.pods[0].status.phase = "Failed".into();
        assert!(!cluster_gpu_evidence(GpuVocabulary::builtin(), &snap)[0].has_gpus());
    }

    #[test]
    fn user_markers_come_first() {
        let m: GpuMarker =
            serde_json::from_str(r#"{"key":"org","value":"gpu-pool","vendor":"amd"}"#).unwrap();
        let v = GpuVocabulary::with_extra(&[m]);
        let s = v.node_sources(&node(&[("org", "gpu-pool")]));
        assert_eq!(s[0].vendor, Some(GpuVendor::Amd));
        assert_eq!(s[0].family, GpuEvidenceSource::Custom);
        assert!(serde_json::from_str::<GpuMarker>(r#"{"key":"a","valu":"b"}"#).is_err());
    }

    #[test]
    fn siblings_and_pods() {
        let mut snap = ClusterSnapshot::default();
        // pools named without "gpu" (a pool named gpu-... says it by itself)
        let mut a = node(&[("eks.amazonaws.com/nodegroup", "ng-accel")]);
        a.metadata.name = "a".into();
        a.status.capacity = [("nvidia.com/gpu", "1".parse().unwrap())]
            .into_iter()
            .collect();
        let mut b = node(&[("eks.amazonaws.com/nodegroup", "ng-accel")]);
        b.metadata.name = "b".into();
        let mut c = node(&[("eks.amazonaws.com/nodegroup", "ng-general")]);
        c.metadata.name = "c".into();
        snap.nodes = vec![a, b, c];
        let mut p = Pod::default();
        p.metadata.name = "nvidia-device-plugin-daemonset-x".into();
        p.metadata.namespace = "kube-system".into();
        p.spec.node_name = "c".into();
        p.spec.containers.push(crate::objects::Container {
            name: "c".into(),
            image: "nvcr.io/nvidia/k8s-device-plugin:v0.17.0".into(),
            ..Default::default()
        });
        snap.pods.push(p);
        let e = cluster_gpu_evidence(GpuVocabulary::builtin(), &snap);
        assert!(e[0].has_gpus() && !e[0].from_siblings_only());
        assert!(e[1].from_siblings_only());
        assert_eq!(e[1].vendor(), Some(GpuVendor::Nvidia));
        assert!(e[1].sources[0].to_string().contains("from sibling a"));
        // a plugin pod from an unselective DaemonSet does not make c a GPU node
        assert_eq!(e[2].sources.len(), 1);
        assert!(!e[2].has_gpus());
    }

    #[test]
    fn components() {
        use GpuComponentRole as R;
        let c = |n: &str, i: &str| classify_component(n, &[i]).map(|x| x.0);
        assert_eq!(
            c(
                "nvidia-device-plugin-daemonset",
                "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"
            ),
            Some(R::DevicePlugin)
        );
        assert_eq!(
            c(
                "nvidia-device-plugin-node-feature-discovery-worker",
                "registry.k8s.io/nfd/node-feature-discovery:v0.16.0"
            ),
            Some(R::NfdWorker)
        );
        assert_eq!(
            c(
                "nvidia-device-plugin-mps-control-daemon",
                "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"
            ),
            Some(R::Operand)
        );
        assert_eq!(
            c("hami-device-plugin", "projecthami/hami:v2.4.0"),
            Some(R::DevicePlugin)
        );
        assert_eq!(
            c("amdgpu-device-plugin-daemonset", "rocm/k8s-device-plugin"),
            Some(R::DevicePlugin)
        );
        assert_eq!(
            classify_component(
                "amdgpu-device-plugin-daemonset",
                &["rocm/k8s-device-plugin"]
            )
            .unwrap()
            .1,
            Some(GpuVendor::Amd)
        );
        assert_eq!(
            c("intel-gpu-plugin", "intel/intel-gpu-plugin:0.30.0"),
            Some(R::DevicePlugin)
        );
        assert_eq!(
            c(
                "nvidia-gpu-device-plugin-small-cos",
                "gcr.io/gke-release/nvidia-gpu-device-plugin"
            ),
            Some(R::DevicePlugin)
        );
        assert_eq!(
            c("nvidia-driver-installer", "cos-nvidia-installer:fixed"),
            Some(R::Driver)
        );
        assert_eq!(
            c("coredns", "registry.k8s.io/coredns/coredns:v1.11.1"),
            None
        );
        // the GPU Operator's plugin validator is no plugin
        assert_eq!(
            c(
                "nvidia-device-plugin-validator",
                "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v23.9.1"
            ),
            Some(R::Operand)
        );
        assert_eq!(
            c(
                "nvidia-device-plugin-daemonset",
                "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v23.9.1"
            ),
            Some(R::DevicePlugin)
        );
    }
}
