//! Resource names (`cpu`, `memory`, `nvidia.com/gpu`, `requests.cpu`, ...) and resource lists.
//!
//! - [`ResourceName`]: classification as upstream `k8s.io/kubernetes/pkg/apis/core/helper`
//!   (`IsNativeResource`, `IsExtendedResourceName`, `IsHugePageResourceName`, quota forms
//!   `requests.X` / `limits.X`), validation as upstream `ValidateResourceName`,
//!   `ValidateContainerResourceName` and `ValidateResourceQuotaResourceName`, and [`ResourceName::is_gpu`].
//! - [`names`]: well-known names as `&str` constants.
//! - [`ResourceList`]: exact add, sub (upstream `quota.Add` / `quota.Subtract`), per-resource max
//!   (`quota.Max`) and a fit check naming every resource that does not fit.

use std::borrow::{Borrow, Cow};
use std::fmt;

use crate::Quantity;
use crate::error::{ResourceError, ResourceNameError};
use crate::selector::validate_qualified_name;

/// Well-known resource names (`&str`, so they work with [`ResourceList::get`]).
pub mod names {
    /// `cpu`, in cores (requests often in millicores: `250m`).
    pub const CPU: &str = "cpu";
    /// `memory`, in bytes.
    pub const MEMORY: &str = "memory";
    /// `ephemeral-storage`, in bytes.
    pub const EPHEMERAL_STORAGE: &str = "ephemeral-storage";
    /// `storage` (PVC requests), in bytes.
    pub const STORAGE: &str = "storage";
    /// `pods`: the pod-count limit in node allocatable and quota.
    pub const PODS: &str = "pods";
    /// Quota key `requests.cpu`.
    pub const REQUESTS_CPU: &str = "requests.cpu";
    /// Quota key `requests.memory`.
    pub const REQUESTS_MEMORY: &str = "requests.memory";
    /// Quota key `requests.ephemeral-storage`.
    pub const REQUESTS_EPHEMERAL_STORAGE: &str = "requests.ephemeral-storage";
    /// Quota key `limits.cpu`.
    pub const LIMITS_CPU: &str = "limits.cpu";
    /// Quota key `limits.memory`.
    pub const LIMITS_MEMORY: &str = "limits.memory";
    /// Quota key `limits.ephemeral-storage`.
    pub const LIMITS_EPHEMERAL_STORAGE: &str = "limits.ephemeral-storage";
    /// Quota key `requests.storage`.
    pub const REQUESTS_STORAGE: &str = "requests.storage";
    /// Quota key `count/pods`.
    pub const COUNT_PODS: &str = "count/pods";
    /// Prefix of hugepage resources (`hugepages-2Mi`, `hugepages-1Gi`).
    pub const HUGEPAGES_PREFIX: &str = "hugepages-";
    /// Prefix of quota request keys (`requests.nvidia.com/gpu`).
    pub const REQUESTS_PREFIX: &str = "requests.";
    /// Prefix of quota limit keys (`limits.cpu`).
    pub const LIMITS_PREFIX: &str = "limits.";
    /// NVIDIA GPUs (NVIDIA device plugin, also HAMi's vGPU count).
    pub const NVIDIA_GPU: &str = "nvidia.com/gpu";
    /// NVIDIA GPUs renamed by the device plugin's sharing config (`renameByDefault: true`).
    pub const NVIDIA_GPU_SHARED: &str = "nvidia.com/gpu.shared";
    /// Prefix of NVIDIA MIG profile resources under the mixed strategy (`nvidia.com/mig-1g.10gb`).
    pub const NVIDIA_MIG_PREFIX: &str = "nvidia.com/mig-";
    /// vGPUs under a renamed HAMi `resourceName` (HAMi's default is `nvidia.com/gpu`).
    pub const NVIDIA_VGPU: &str = "nvidia.com/vgpu";
    /// Tencent gpu-manager: GPU core share in percent of one GPU (not a device count).
    pub const TENCENT_VCUDA_CORE: &str = "tencent.com/vcuda-core";
    /// Tencent gpu-manager: GPU memory share in 256 MiB units (not a device count).
    pub const TENCENT_VCUDA_MEMORY: &str = "tencent.com/vcuda-memory";
    /// HAMi: GPU memory per vGPU, in MiB (not a device count).
    pub const HAMI_GPU_MEM: &str = "nvidia.com/gpumem";
    /// HAMi: GPU memory per vGPU as a percentage (not a device count).
    pub const HAMI_GPU_MEM_PERCENTAGE: &str = "nvidia.com/gpumem-percentage";
    /// HAMi: GPU core share per vGPU, in percent (not a device count).
    pub const HAMI_GPU_CORES: &str = "nvidia.com/gpucores";
    /// AMD GPUs (ROCm device plugin).
    pub const AMD_GPU: &str = "amd.com/gpu";
    /// Intel GPUs (Intel GPU plugin, i915 driver).
    pub const INTEL_GPU_I915: &str = "gpu.intel.com/i915";
    /// Intel GPUs (Intel GPU plugin, xe driver).
    pub const INTEL_GPU_XE: &str = "gpu.intel.com/xe";
    /// The pre-device-plugin NVIDIA name (Kubernetes up to 1.9, removed in 1.11).
    pub const LEGACY_NVIDIA_GPU: &str = "alpha.kubernetes.io/nvidia-gpu";
}

/// Names whose quantity counts whole GPU devices or GPU slices (see [`ResourceName::is_gpu`]).
const GPU_DEVICE_NAMES: &[&str] = &[
    names::NVIDIA_GPU,
    names::NVIDIA_GPU_SHARED,
    names::NVIDIA_VGPU,
    names::AMD_GPU,
    names::INTEL_GPU_I915,
    names::INTEL_GPU_XE,
    names::LEGACY_NVIDIA_GPU,
];

/// Names that qualify a shared GPU without counting devices (HAMi memory and cores).
const GPU_SHARE_ATTRIBUTE_NAMES: &[&str] = &[
    names::HAMI_GPU_MEM,
    names::HAMI_GPU_MEM_PERCENTAGE,
    names::HAMI_GPU_CORES,
    names::TENCENT_VCUDA_CORE,
    names::TENCENT_VCUDA_MEMORY,
    // The other per-device attributes of the HAMi chart's defaults (Project-HAMi/HAMi
    // charts/hami/values.yaml resourcePriority, mluResourceMem/Cores, hcuResourceMem/Cores,
    // metaxResourceCore/Mem, enflameResourceNameGCUMemory/Core, kunlunResourceVMemoryName):
    // the hami-scheduler extender manages them (`managedResources`, `ignoredByScheduler: true`)
    // and no node advertises them.
    "nvidia.com/priority",
    "cambricon.com/mlu.smlu.vmemory",
    "cambricon.com/mlu.smlu.vcore",
    "hygon.com/hcumem",
    "hygon.com/hcucores",
    "metax-tech.com/vcore",
    "metax-tech.com/vmemory",
    "enflame.com/gcu-memory",
    "enflame.com/gcu-core",
    "kunlunxin.com/vxpu-memory",
];

/// Standard (non-prefixed) names valid in a ResourceQuota's `hard` (upstream
/// `standardQuotaResources`), besides `hugepages-*` and `requests.hugepages-*`.
const STANDARD_QUOTA_NAMES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.storage",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "services",
    "replicationcontrollers",
    "resourcequotas",
    "secrets",
    "persistentvolumeclaims",
    "configmaps",
    "services.nodeports",
    "services.loadbalancers",
];

/// The fixed quota names the pod evaluator tracks (upstream `podResources` in
/// `pkg/quota/v1/evaluator/core/pods.go`, same order): besides these, pod quota also tracks
/// `hugepages-*`, `requests.hugepages-*` and `requests.<extended>` (see
/// [`ResourceName::is_tracked_by_pod_quota`]).
pub const POD_QUOTA_RESOURCES: [&str; 11] = [
    names::COUNT_PODS,
    names::CPU,
    names::MEMORY,
    names::EPHEMERAL_STORAGE,
    names::REQUESTS_CPU,
    names::REQUESTS_MEMORY,
    names::REQUESTS_EPHEMERAL_STORAGE,
    names::LIMITS_CPU,
    names::LIMITS_MEMORY,
    names::LIMITS_EPHEMERAL_STORAGE,
    names::PODS,
];

/// Standard names valid in container `requests`/`limits` (upstream
/// `standardContainerResources`), besides `hugepages-*`.
const STANDARD_CONTAINER_NAMES: &[&str] = &["cpu", "memory", "ephemeral-storage"];

/// Which quota form a name has (see [`ResourceName::quota_form`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum QuotaForm<'a> {
    /// A plain name (`cpu`, `nvidia.com/gpu`, `pods`).
    Plain(&'a str),
    /// `requests.<name>`; holds `<name>`.
    Requests(&'a str),
    /// `limits.<name>`; holds `<name>`.
    Limits(&'a str),
}

impl<'a> QuotaForm<'a> {
    /// The resource the key is about (`requests.nvidia.com/gpu` -> `nvidia.com/gpu`).
    pub fn resource(self) -> &'a str {
        match self {
            QuotaForm::Plain(n) | QuotaForm::Requests(n) | QuotaForm::Limits(n) => n,
        }
    }
}

/// A Kubernetes resource name such as `cpu`, `memory`, `nvidia.com/gpu`,
/// `hugepages-2Mi`, or a quota key such as `requests.nvidia.com/gpu`.
///
/// Ordered and compared as the plain string (upstream sorts names as strings).
///
/// Memory: a well-known name (`cpu`, `memory`, `nvidia.com/gpu`, the quota keys of the pod
/// evaluator, ...) is held as a static string, with no allocation per object (issue 12: the
/// snapshot's resident size); other names own their text.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct ResourceName(Cow<'static, str>);

/// Names held without an allocation (see [`ResourceName`]).
const INTERNED_NAMES: &[&str] = &[
    names::CPU,
    names::MEMORY,
    names::EPHEMERAL_STORAGE,
    names::STORAGE,
    names::PODS,
    names::REQUESTS_CPU,
    names::REQUESTS_MEMORY,
    names::REQUESTS_EPHEMERAL_STORAGE,
    names::REQUESTS_STORAGE,
    names::LIMITS_CPU,
    names::LIMITS_MEMORY,
    names::LIMITS_EPHEMERAL_STORAGE,
    names::COUNT_PODS,
    names::NVIDIA_GPU,
    names::NVIDIA_GPU_SHARED,
    names::NVIDIA_VGPU,
    names::AMD_GPU,
    names::INTEL_GPU_I915,
    names::INTEL_GPU_XE,
    names::HAMI_GPU_MEM,
    names::HAMI_GPU_MEM_PERCENTAGE,
    names::HAMI_GPU_CORES,
    "hugepages-1Gi",
    "hugepages-2Mi",
    "requests.nvidia.com/gpu",
    "limits.nvidia.com/gpu",
    "services",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "replicationcontrollers",
    "resourcequotas",
    "services.nodeports",
    "services.loadbalancers",
];

fn interned(name: &str) -> Option<&'static str> {
    INTERNED_NAMES.iter().copied().find(|n| *n == name)
}

impl ResourceName {
    /// Wraps a name without checking it (see `validate` for the upstream rules).
    pub fn new(name: impl Into<String>) -> Self {
        Self::from(name.into())
    }
    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The quota key `requests.<name>` for a resource name.
    pub fn requests_of(name: &str) -> ResourceName {
        ResourceName::from(format!("{}{name}", names::REQUESTS_PREFIX))
    }

    /// The quota key `limits.<name>` for a resource name.
    pub fn limits_of(name: &str) -> ResourceName {
        ResourceName::from(format!("{}{name}", names::LIMITS_PREFIX))
    }

    /// Upstream `IsNativeResource`: no `/` in the name, or a `kubernetes.io/` domain
    /// (`cpu`, `hugepages-2Mi`, `requests.cpu`, `kubernetes.io/foo`, `x.kubernetes.io/foo`).
    pub fn is_native(&self) -> bool {
        !self.0.contains('/') || self.0.contains("kubernetes.io/")
    }

    /// Upstream `IsExtendedResourceName`: not native, not starting with `requests.`, and
    /// `requests.<name>` is a valid qualified name (`nvidia.com/gpu`, `amd.com/gpu`, and also
    /// `limits.nvidia.com/gpu`, which upstream counts as an extended name).
    pub fn is_extended(&self) -> bool {
        if self.is_native() || self.0.starts_with(names::REQUESTS_PREFIX) {
            return false;
        }
        validate_qualified_name(&format!("{}{}", names::REQUESTS_PREFIX, self.0)).is_empty()
    }

    /// Upstream `IsHugePageResourceName`: starts with `hugepages-`.
    pub fn is_hugepages(&self) -> bool {
        self.0.starts_with(names::HUGEPAGES_PREFIX)
    }

    /// The page size of a `hugepages-<size>` name (`hugepages-2Mi` -> 2Mi), as upstream
    /// `HugePageSizeFromResourceName`; `None` when not a hugepage name or the size does not parse.
    pub fn hugepage_size(&self) -> Option<Quantity> {
        self.0
            .strip_prefix(names::HUGEPAGES_PREFIX)
            .and_then(|s| s.parse().ok())
    }

    /// The quota form of the name: `requests.X`, `limits.X` or plain.
    pub fn quota_form(&self) -> QuotaForm<'_> {
        if let Some(rest) = self.0.strip_prefix(names::REQUESTS_PREFIX) {
            QuotaForm::Requests(rest)
        } else if let Some(rest) = self.0.strip_prefix(names::LIMITS_PREFIX) {
            QuotaForm::Limits(rest)
        } else {
            QuotaForm::Plain(&self.0)
        }
    }

    /// True for names whose quantity counts GPU devices or GPU slices that a pod requests:
    /// `nvidia.com/gpu` (also HAMi's vGPU count), `nvidia.com/gpu.shared` (time-slicing or MPS
    /// with `renameByDefault`), `nvidia.com/mig-<profile>` (MIG mixed strategy),
    /// `nvidia.com/vgpu` (a renamed HAMi resource), `amd.com/gpu`, `gpu.intel.com/i915`,
    /// `gpu.intel.com/xe` and the legacy `alpha.kubernetes.io/nvidia-gpu`. A known list, not a
    /// guess: third-party names that merely contain `gpu` (`cerit.io/gpu-count`) are not GPU names.
    ///
    /// Decision: HAMi's `nvidia.com/gpumem`, `nvidia.com/gpumem-percentage` and
    /// `nvidia.com/gpucores`, and Tencent gpu-manager's `tencent.com/vcuda-core` and
    /// `tencent.com/vcuda-memory`, are NOT GPU names: they size a slice (MiB, percent) rather
    /// than count devices; see
    /// [`ResourceName::is_gpu_share_attribute`]. Quota keys (`requests.nvidia.com/gpu`) are not GPU
    /// names themselves: use `quota_form().resource()` first.
    pub fn is_gpu(&self) -> bool {
        GPU_DEVICE_NAMES.contains(&self.as_str())
            || self
                .0
                .strip_prefix(names::NVIDIA_MIG_PREFIX)
                .is_some_and(|p| !p.is_empty())
    }

    /// True for GPU-slice attributes that count no devices: HAMi's (`nvidia.com/gpumem`,
    /// `nvidia.com/gpumem-percentage`, `nvidia.com/gpucores`, `nvidia.com/priority` and the other
    /// vendors' memory/core names of its chart defaults) and Tencent gpu-manager's `vcuda-*`.
    pub fn is_gpu_share_attribute(&self) -> bool {
        GPU_SHARE_ATTRIBUTE_NAMES.contains(&self.as_str())
    }

    /// The GPU vendor of a GPU name (`nvidia`, `amd`, `intel`); `None` for non-GPU names.
    pub fn gpu_vendor(&self) -> Option<&'static str> {
        if !self.is_gpu() {
            return None;
        }
        Some(if self.0.starts_with("amd.com/") {
            "amd"
        } else if self.0.starts_with("gpu.intel.com/") {
            "intel"
        } else {
            "nvidia"
        })
    }

    /// Upstream `ValidateResourceName`: a qualified name (optional DNS prefix and `/`); a name
    /// without `/` must be a standard resource (any quota or container standard name,
    /// `hugepages-<size>`, `requests.hugepages-<size>`).
    ///
    /// # Errors
    /// [`ResourceNameError`] with every reason found.
    pub fn validate(&self) -> Result<(), ResourceNameError> {
        let mut reasons = validate_qualified_name(&self.0);
        if !self.0.contains('/') && !self.is_standard() {
            reasons.push("must be a standard resource type or fully qualified".to_owned());
        }
        self.finish(reasons, "resource")
    }

    /// Upstream `ValidateContainerResourceName` (container `requests`/`limits`): a name
    /// without `/` must be `cpu`, `memory`, `ephemeral-storage` or `hugepages-<size>`; a
    /// non-native name must be a valid extended resource name.
    ///
    /// # Errors
    /// [`ResourceNameError`] with every reason found.
    pub fn validate_for_container(&self) -> Result<(), ResourceNameError> {
        let mut reasons = validate_qualified_name(&self.0);
        if !self.0.contains('/') {
            if !(STANDARD_CONTAINER_NAMES.contains(&self.as_str()) || self.is_hugepages()) {
                reasons.push("must be a standard resource for containers".to_owned());
            }
        } else if !self.is_native() && !self.is_extended() {
            reasons.push("doesn't follow extended resource name standard".to_owned());
        }
        self.finish(reasons, "container")
    }

    /// Upstream `ValidateResourceQuotaResourceName` (a ResourceQuota's `hard`): a name without
    /// `/` must be a standard quota resource (`cpu`, `requests.memory`, `pods`, `services`,
    /// `hugepages-*`, `requests.hugepages-*`, ...); anything with a `/` that is a qualified name
    /// is accepted, including `nvidia.com/gpu` and `limits.nvidia.com/gpu`, which quota then
    /// never tracks (see K8S-SEMANTICS.md section 3.1).
    ///
    /// # Errors
    /// [`ResourceNameError`] with every reason found.
    pub fn validate_for_quota(&self) -> Result<(), ResourceNameError> {
        let mut reasons = validate_qualified_name(&self.0);
        if !self.0.contains('/') && !self.is_standard_quota_name() {
            reasons.push("must be a standard resource for quota".to_owned());
        }
        self.finish(reasons, "quota")
    }

    /// True when a ResourceQuota with this key in `hard` charges pods for it: the fixed pod
    /// names, `hugepages-*`, `requests.hugepages-*`, `requests.<extended>` and (newer upstream,
    /// DRA) `requests.deviceclass.resource.kubernetes.io/<class>`; false for a bare extended name
    /// and `limits.<extended>` (accepted by validation, never tracked).
    pub fn is_tracked_by_pod_quota(&self) -> bool {
        if POD_QUOTA_RESOURCES.contains(&self.as_str()) || self.is_hugepages() {
            return true;
        }
        match self.quota_form() {
            QuotaForm::Requests(inner) => {
                let inner = ResourceName::from(inner);
                inner.is_hugepages()
                    || inner.is_extended()
                    || inner
                        .as_str()
                        .strip_prefix("deviceclass.resource.kubernetes.io/")
                        .is_some_and(|c| !c.is_empty())
            }
            _ => false,
        }
    }

    /// Upstream `IsStandardQuotaResourceName`: a standard ResourceQuota name (`cpu`,
    /// `requests.memory`, `limits.cpu`, `pods`, `services`, `hugepages-*`,
    /// `requests.hugepages-*`, ...). Extended names and `count/*` are not standard.
    pub fn is_standard_quota_name(&self) -> bool {
        STANDARD_QUOTA_NAMES.contains(&self.as_str())
            || self.is_hugepages()
            || self
                .0
                .strip_prefix(names::REQUESTS_PREFIX)
                .is_some_and(|r| r.starts_with(names::HUGEPAGES_PREFIX))
    }

    /// Upstream `IsStandardResourceName`: a standard container or quota name, or `storage`.
    fn is_standard(&self) -> bool {
        self.is_standard_quota_name()
            || STANDARD_CONTAINER_NAMES.contains(&self.as_str())
            || self.0 == names::STORAGE
    }

    fn finish(&self, reasons: Vec<String>, context: &'static str) -> Result<(), ResourceNameError> {
        if reasons.is_empty() {
            Ok(())
        } else {
            Err(ResourceNameError {
                name: self.as_str().to_owned(),
                context,
                reasons,
            })
        }
    }
}

impl Borrow<str> for ResourceName {
    fn borrow(&self) -> &str {
        &self.0
    }
}
impl fmt::Display for ResourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl fmt::Debug for ResourceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
impl From<&str> for ResourceName {
    fn from(s: &str) -> Self {
        ResourceName(match interned(s) {
            Some(n) => Cow::Borrowed(n),
            None => Cow::Owned(s.to_owned()),
        })
    }
}
impl From<String> for ResourceName {
    fn from(s: String) -> Self {
        ResourceName(match interned(&s) {
            Some(n) => Cow::Borrowed(n),
            None => Cow::Owned(s),
        })
    }
}
impl<'de> serde::Deserialize<'de> for ResourceName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = ResourceName;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ResourceName, E> {
                Ok(ResourceName::from(v))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<ResourceName, E> {
                Ok(ResourceName::from(v))
            }
        }
        d.deserialize_string(V)
    }
}

/// A map from resource name to quantity, as `v1.ResourceList` (`requests`, `limits`,
/// `capacity`, `allocatable`, quota `hard` / `used`). Iterates in name order.
///
/// Memory: the entries sit in one vector sorted by name (a list holds a handful; a B-tree node
/// took about 450 bytes even for one entry), so a pod's `requests` and `limits` cost a few
/// dozen bytes each (issue 12).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ResourceList(Entries);

/// `(name, quantity)` pairs, sorted by name, names unique.
#[derive(Clone, Default, PartialEq, Eq)]
struct Entries(Vec<(ResourceName, Quantity)>);

impl Entries {
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(name))
    }
    fn get(&self, name: &str) -> Option<&Quantity> {
        self.find(name).ok().map(|i| &self.0[i].1)
    }
    fn get_mut(&mut self, name: &str) -> Option<&mut Quantity> {
        self.find(name).ok().map(|i| &mut self.0[i].1)
    }
    fn contains_key(&self, name: &str) -> bool {
        self.find(name).is_ok()
    }
    fn insert(&mut self, name: ResourceName, q: Quantity) -> Option<Quantity> {
        // names usually come in order (kubectl sorts keys): append without a search
        if self.0.last().is_none_or(|(last, _)| *last < name) {
            self.0.push((name, q));
            return None;
        }
        match self.find(name.as_str()) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, q)),
            Err(i) => {
                self.0.insert(i, (name, q));
                None
            }
        }
    }
    fn remove(&mut self, name: &str) -> Option<Quantity> {
        self.find(name).ok().map(|i| self.0.remove(i).1)
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn iter(&self) -> Iter<'_> {
        Iter(self.0.iter())
    }
    fn keys(&self) -> impl Iterator<Item = &ResourceName> {
        self.0.iter().map(|(k, _)| k)
    }
    fn values(&self) -> impl Iterator<Item = &Quantity> {
        self.0.iter().map(|(_, v)| v)
    }
    fn iter_mut(&mut self) -> impl Iterator<Item = (&ResourceName, &mut Quantity)> {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }
}

impl FromIterator<(ResourceName, Quantity)> for Entries {
    fn from_iter<T: IntoIterator<Item = (ResourceName, Quantity)>>(iter: T) -> Self {
        let mut out = Entries::default();
        for (k, v) in iter {
            out.insert(k, v);
        }
        out
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = (&'a ResourceName, &'a Quantity);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The entries of a [`ResourceList`] in name order.
#[derive(Debug, Clone)]
pub struct Iter<'a>(std::slice::Iter<'a, (ResourceName, Quantity)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a ResourceName, &'a Quantity);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl serde::Serialize for ResourceList {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter())
    }
}

/// Read as a map (a name given twice keeps its last value, as a map does).
impl<'de> serde::Deserialize<'de> for ResourceList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ResourceList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<ResourceList, A::Error> {
                // JSON gives no length up front: the entries are gathered on the stack and
                // then moved into one exact allocation (a vector grown by doubling and shrunk
                // took two allocator calls per list; a snapshot reads hundreds of thousands)
                let mut items: smallvec::SmallVec<[(ResourceName, Quantity); 6]> =
                    smallvec::SmallVec::new();
                while let Some((k, v)) = map.next_entry::<ResourceName, Quantity>()? {
                    // as `Entries::insert`: in name order, a repeated name keeps its last value
                    if items.last().is_none_or(|(last, _)| *last < k) {
                        items.push((k, v));
                        continue;
                    }
                    match items.binary_search_by(|(n, _)| n.as_str().cmp(k.as_str())) {
                        Ok(i) => items[i].1 = v,
                        Err(i) => items.insert(i, (k, v)),
                    }
                }
                let mut out = Vec::with_capacity(items.len());
                out.extend(items);
                Ok(ResourceList(Entries(out)))
            }
        }
        d.deserialize_map(V)
    }
}

impl ResourceList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }
    /// The quantity for `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Quantity> {
        self.0.get(name)
    }
    /// Sets `name` to `quantity`, returning the previous value.
    pub fn insert(
        &mut self,
        name: impl Into<ResourceName>,
        quantity: Quantity,
    ) -> Option<Quantity> {
        self.0.insert(name.into(), quantity)
    }
    /// Removes `name`.
    pub fn remove(&mut self, name: &str) -> Option<Quantity> {
        self.0.remove(name)
    }
    /// True when `name` is present.
    pub fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Entries in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&ResourceName, &Quantity)> {
        self.0.iter()
    }
    /// Names in order.
    pub fn names(&self) -> impl Iterator<Item = &ResourceName> {
        self.0.keys()
    }

    /// Entries in name order, values mutable (names stay as they are).
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&ResourceName, &mut Quantity)> {
        self.0.iter_mut()
    }

    /// The quantity for `name`, mutable, if present.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Quantity> {
        self.0.get_mut(name)
    }

    /// The quantity for `name`, or zero when absent (a node that lacks a resource has 0 of it).
    pub fn get_or_zero(&self, name: &str) -> Quantity {
        self.0.get(name).cloned().unwrap_or(Quantity::ZERO)
    }

    /// Adds `other` into `self` per resource, exactly (upstream `quota.Add`: union of names,
    /// values summed).
    ///
    /// # Errors
    /// [`ResourceError::Overflow`] naming the resource whose sum is not representable; `self`
    /// keeps the entries added before it.
    pub fn add_assign(&mut self, other: &ResourceList) -> Result<(), ResourceError> {
        for (name, q) in &other.0 {
            let sum = match self.0.get(name.as_str()) {
                Some(mine) => mine.checked_add(q).ok_or_else(|| ResourceError::Overflow {
                    resource: name.to_string(),
                    operation: "add",
                })?,
                None => q.clone(),
            };
            self.0.insert(name.clone(), sum);
        }
        Ok(())
    }

    /// `self + other` per resource (see [`ResourceList::add_assign`]).
    ///
    /// # Errors
    /// [`ResourceError::Overflow`].
    pub fn add(&self, other: &ResourceList) -> Result<ResourceList, ResourceError> {
        let mut out = self.clone();
        out.add_assign(other)?;
        Ok(out)
    }

    /// Sums many lists (an empty iterator gives the empty list).
    ///
    /// # Errors
    /// [`ResourceError::Overflow`].
    pub fn sum<'a>(
        lists: impl IntoIterator<Item = &'a ResourceList>,
    ) -> Result<ResourceList, ResourceError> {
        let mut out = ResourceList::new();
        for l in lists {
            out.add_assign(l)?;
        }
        Ok(out)
    }

    /// `self - other` per resource, exactly, as upstream `quota.Subtract`: every name of `self`
    /// minus the same name of `other` (absent = 0), and names only in `other` appear negated.
    /// Results may be negative (an over-committed node); callers decide what that means.
    ///
    /// # Errors
    /// [`ResourceError::Overflow`].
    pub fn sub(&self, other: &ResourceList) -> Result<ResourceList, ResourceError> {
        let overflow = |name: &ResourceName| ResourceError::Overflow {
            resource: name.to_string(),
            operation: "sub",
        };
        let mut out = self.clone();
        for (name, q) in &other.0 {
            let base = self.0.get(name.as_str()).unwrap_or(&Quantity::ZERO);
            let diff = base.checked_sub(q).ok_or_else(|| overflow(name))?;
            out.0.insert(name.clone(), diff);
        }
        Ok(out)
    }

    /// Per-resource maximum over the union of names (upstream `quota.Max`; a name present on one
    /// side only keeps its value).
    pub fn max(&self, other: &ResourceList) -> ResourceList {
        let mut out = self.clone();
        for (name, q) in &other.0 {
            match out.0.get(name.as_str()) {
                Some(mine) if mine >= q => {}
                _ => {
                    out.0.insert(name.clone(), q.clone());
                }
            }
        }
        out
    }

    /// True when every quantity is zero (also for the empty list).
    pub fn is_all_zero(&self) -> bool {
        self.0.values().all(Quantity::is_zero)
    }

    /// The entries whose name satisfies `keep`.
    pub fn filtered(&self, keep: impl Fn(&ResourceName) -> bool) -> ResourceList {
        ResourceList(
            self.0
                .iter()
                .filter(|(k, _)| keep(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )
    }

    /// Checks that every resource requested in `self` fits in `available`: a requested quantity
    /// greater than zero must be at most the available one (absent = 0). Zero requests always
    /// fit, as in the scheduler's NodeResourcesFit filter.
    ///
    /// # Errors
    /// Every resource that does not fit, in name order, each with requested and available.
    pub fn fits_within(&self, available: &ResourceList) -> Result<(), Vec<Insufficient>> {
        let short: Vec<Insufficient> = self
            .0
            .iter()
            .filter(|(_, req)| !req.is_zero() && !req.is_negative())
            .filter_map(|(name, req)| {
                let avail = available.get_or_zero(name.as_str());
                (*req > avail).then(|| Insufficient {
                    resource: name.clone(),
                    requested: req.clone(),
                    available: avail,
                })
            })
            .collect();
        if short.is_empty() { Ok(()) } else { Err(short) }
    }
}

/// One resource that does not fit (see [`ResourceList::fits_within`]). `Display` reads
/// `Insufficient nvidia.com/gpu (requested 2, available 1)`; the scheduler's own reason text is
/// the part before the parenthesis.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Insufficient {
    /// The resource.
    pub resource: ResourceName,
    /// What was asked for.
    pub requested: Quantity,
    /// What is available (zero when the resource is absent).
    pub available: Quantity,
}

impl fmt::Display for Insufficient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Insufficient {} (requested {}, available {})",
            self.resource, self.requested, self.available
        )
    }
}

impl fmt::Debug for ResourceList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k.as_str(), v.to_string())))
            .finish()
    }
}

impl<N: Into<ResourceName>> FromIterator<(N, Quantity)> for ResourceList {
    fn from_iter<T: IntoIterator<Item = (N, Quantity)>>(iter: T) -> Self {
        ResourceList(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl<'a> IntoIterator for &'a ResourceList {
    type Item = (&'a ResourceName, &'a Quantity);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        s.parse().unwrap()
    }
    fn list(pairs: &[(&str, &str)]) -> ResourceList {
        pairs.iter().map(|(k, v)| (*k, q(v))).collect()
    }

    #[track_caller]
    fn check_class(name: &str, native: bool, extended: bool, gpu: bool) {
        let n = ResourceName::from(name);
        assert_eq!(n.is_native(), native, "{name} native");
        assert_eq!(n.is_extended(), extended, "{name} extended");
        assert_eq!(n.is_gpu(), gpu, "{name} gpu");
    }

    #[test]
    fn classification_follows_upstream() {
        check_class("cpu", true, false, false);
        check_class("hugepages-2Mi", true, false, false);
        check_class("requests.cpu", true, false, false);
        check_class("kubernetes.io/foo", true, false, false);
        check_class("example.kubernetes.io/foo", true, false, false);
        check_class("nvidia.com/gpu", false, true, true);
        check_class("amd.com/gpu", false, true, true);
        check_class("nvidia.com/gpu.shared", false, true, true);
        check_class("nvidia.com/mig-1g.10gb", false, true, true);
        check_class("nvidia.com/mig-", false, false, false);
        check_class("nvidia.com/gpumem", false, true, false);
        check_class("requests.nvidia.com/gpu", false, false, false);
        check_class("limits.nvidia.com/gpu", false, true, false);
        check_class("cerit.io/gpu-count", false, true, false);
        check_class("nvidia.com/vgpu", false, true, true);
        check_class("tencent.com/vcuda-core", false, true, false);
        assert!(ResourceName::from("tencent.com/vcuda-memory").is_gpu_share_attribute());
        assert!(ResourceName::from("nvidia.com/gpucores").is_gpu_share_attribute());
        assert_eq!(
            ResourceName::from("hugepages-2Mi").hugepage_size(),
            Some(q("2Mi"))
        );
        assert_eq!(ResourceName::from("hugepages-x").hugepage_size(), None);
        assert_eq!(
            ResourceName::from("requests.nvidia.com/gpu").quota_form(),
            QuotaForm::Requests("nvidia.com/gpu")
        );
        assert_eq!(
            ResourceName::from("limits.cpu").quota_form().resource(),
            "cpu"
        );
        assert_eq!(
            ResourceName::requests_of(names::NVIDIA_GPU).as_str(),
            "requests.nvidia.com/gpu"
        );
        assert_eq!(ResourceName::from("amd.com/gpu").gpu_vendor(), Some("amd"));
        assert_eq!(ResourceName::from("cpu").gpu_vendor(), None);
    }

    #[test]
    fn quota_tracking_matches_semantics_section_3_1() {
        for (name, tracked) in [
            ("requests.nvidia.com/gpu", true),
            ("nvidia.com/gpu", false),
            ("limits.nvidia.com/gpu", false),
            ("cpu", true),
            ("limits.memory", true),
            ("count/pods", true),
            ("hugepages-2Mi", true),
            ("requests.hugepages-1Gi", true),
            ("services", false),
            ("requests.storage", false),
            (
                "requests.deviceclass.resource.kubernetes.io/gpu.example.com",
                true,
            ),
        ] {
            assert_eq!(
                ResourceName::from(name).is_tracked_by_pod_quota(),
                tracked,
                "{name}"
            );
        }
    }

    #[test]
    fn validation() {
        assert!(ResourceName::from("cpu").validate().is_ok());
        assert!(ResourceName::from("nvidia.com/gpu").validate().is_ok());
        assert!(ResourceName::from("gpu").validate().is_err());
        let e = ResourceName::from("Nvidia.com/gpu").validate().unwrap_err();
        assert!(e.to_string().contains("prefix part"), "{e}");
        assert!(ResourceName::from("cpu").validate_for_container().is_ok());
        assert!(ResourceName::from("pods").validate_for_container().is_err());
        assert!(
            ResourceName::from("hugepages-2Mi")
                .validate_for_container()
                .is_ok()
        );
        assert!(
            ResourceName::from("nvidia.com/gpu")
                .validate_for_container()
                .is_ok()
        );
        assert!(
            ResourceName::from("requests.nvidia.com/gpu")
                .validate_for_container()
                .is_err()
        );
        assert!(
            ResourceName::from("requests.nvidia.com/gpu")
                .validate_for_quota()
                .is_ok()
        );
        assert!(
            ResourceName::from("limits.nvidia.com/gpu")
                .validate_for_quota()
                .is_ok()
        );
        assert!(
            ResourceName::from("requests.hugepages-2Mi")
                .validate_for_quota()
                .is_ok()
        );
        assert!(ResourceName::from("gpu").validate_for_quota().is_err());
        assert!(ResourceName::from("storage").validate_for_quota().is_err());
        assert!(ResourceName::from("a/b/c").validate().is_err());
    }

    #[test]
    fn add_sub_max_are_exact() {
        let a = list(&[("cpu", "500m"), ("memory", "1Gi")]);
        let b = list(&[("cpu", "0.5"), ("nvidia.com/gpu", "1")]);
        let sum = a.add(&b).unwrap();
        assert_eq!(sum.get("cpu"), Some(&q("1")));
        assert_eq!(sum.get("memory"), Some(&q("1Gi")));
        assert_eq!(sum.get("nvidia.com/gpu"), Some(&q("1")));
        let diff = a.sub(&b).unwrap();
        assert!(diff.get("cpu").unwrap().is_zero());
        assert_eq!(diff.get("nvidia.com/gpu"), Some(&q("-1")));
        assert_eq!(
            sum.sub(&b)
                .unwrap()
                .filtered(|n| n.as_str() != "nvidia.com/gpu"),
            a
        );
        let m = a.max(&list(&[("cpu", "2"), ("memory", "1G")]));
        assert_eq!(m.get("cpu"), Some(&q("2")));
        assert_eq!(m.get("memory"), Some(&q("1Gi")));
        let total = ResourceList::sum([&a, &a, &a]).unwrap();
        assert_eq!(total.get("cpu"), Some(&q("1500m")));
        assert!(ResourceList::new().is_all_zero());
    }

    #[test]
    fn fits_within_names_every_shortfall() {
        let req = list(&[
            ("cpu", "4"),
            ("memory", "1Gi"),
            ("nvidia.com/gpu", "2"),
            ("amd.com/gpu", "0"),
        ]);
        let avail = list(&[("cpu", "2"), ("memory", "2Gi"), ("nvidia.com/gpu", "1")]);
        let short = req.fits_within(&avail).unwrap_err();
        let names: Vec<&str> = short.iter().map(|s| s.resource.as_str()).collect();
        assert_eq!(names, ["cpu", "nvidia.com/gpu"]);
        assert_eq!(short[0].requested, q("4"));
        assert_eq!(short[0].available, q("2"));
        assert_eq!(
            short[1].to_string(),
            "Insufficient nvidia.com/gpu (requested 2, available 1)"
        );
        let missing = list(&[("example.com/fpga", "1")])
            .fits_within(&avail)
            .unwrap_err();
        assert!(missing[0].available.is_zero());
        assert!(list(&[("cpu", "2")]).fits_within(&avail).is_ok());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        #[test]
        fn add_then_sub_round_trips(a in 0i64..1_000_000, b in 0i64..1_000_000, c in 0i64..1_000) {
            let x: ResourceList = [("cpu", Quantity::from_millis(a)), ("memory", Quantity::from_value(b, crate::Format::BinarySI))].into_iter().collect();
            let y: ResourceList = [("cpu", Quantity::from_millis(c))].into_iter().collect();
            let back = x.add(&y).unwrap().sub(&y).unwrap();
            proptest::prop_assert_eq!(back, x.clone());
            proptest::prop_assert!(x.fits_within(&x.add(&y).unwrap()).is_ok());
        }
    }
}
