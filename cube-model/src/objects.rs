//! Slim, typed Kubernetes objects: only the fields the analyses of this workspace read.
//!
//! Field names follow the Kubernetes API (camelCase on the wire); every field is optional on
//! input (`#[serde(default)]`), unknown fields are skipped, so `kubectl get -o json` output of
//! any version loads. Quantities are parsed into exact [`Quantity`](crate::Quantity) values at load time.
//! Each type converts from its `k8s_openapi` counterpart (see [`crate::convert`]).
//!
//! Why our own types and not `k8s_openapi`'s: a 150,000-pod snapshot must fit in memory and load
//! faster than deserializing into the full API types (issue 2); we keep what quota, fit,
//! preemption and the diagnosis rules need.

use serde::{Deserialize, Serialize};

use crate::ResourceList;

/// A timestamp as Kubernetes writes it (RFC 3339, UTC).
pub type Time = jiff::Timestamp;

/// String-keyed labels or annotations, in key order: a compact sorted map (see
/// [`crate::labels::Labels`]) with the API and JSON shape of a `BTreeMap<String, String>`.
pub use crate::labels::Labels;

pub use crate::sparse::{Sparse, SparseFields};

/// `metav1.ObjectMeta`, reduced.
///
/// Memory (issue 9): the fields every object has are held inline; the fields most objects of a
/// dump leave empty (`generateName`, `annotations`, `deletionTimestamp`,
/// `deletionGracePeriodSeconds`, `ownerReferences`) are in [`ObjectMetaMore`], allocated only
/// when one of them is set. They are read and written as fields of `ObjectMeta` all the same
/// (`meta.annotations`, `meta.owner_references.push(..)`: `ObjectMeta` dereferences to
/// [`ObjectMetaMore`]); only a struct literal names them through [`ObjectMeta::more`] /
/// [`Sparse::new`]. Equality, JSON and YAML are those of one flat object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectMeta {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`; empty for cluster-scoped objects.
    pub namespace: String,
    /// `metadata.uid`.
    pub uid: String,
    /// `metadata.labels` (`null` reads as empty).
    pub labels: Labels,
    /// `metadata.creationTimestamp`.
    pub creation_timestamp: Option<Time>,
    /// The fields most objects leave empty (read them as fields of `ObjectMeta`).
    pub more: Sparse<ObjectMetaMore>,
}

/// The fields of [`ObjectMeta`] most objects leave empty, out of line (see [`Sparse`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectMetaMore {
    /// `metadata.generateName` (used in messages when `name` is empty).
    pub generate_name: String,
    /// `metadata.annotations` (`null` reads as empty).
    ///
    /// `kubectl.kubernetes.io/last-applied-configuration` is dropped while reading, without
    /// being allocated: it is a full copy of the object as last applied (often the largest field
    /// of a pod) and no analysis reads it.
    pub annotations: Labels,
    /// `metadata.deletionTimestamp`.
    pub deletion_timestamp: Option<Time>,
    /// `metadata.deletionGracePeriodSeconds`.
    pub deletion_grace_period_seconds: Option<i64>,
    /// `metadata.ownerReferences`.
    pub owner_references: Vec<OwnerReference>,
}

impl SparseFields for ObjectMetaMore {
    fn empty() -> &'static Self {
        static EMPTY: std::sync::OnceLock<ObjectMetaMore> = std::sync::OnceLock::new();
        EMPTY.get_or_init(Self::default)
    }
    fn is_empty(&self) -> bool {
        self.generate_name.is_empty()
            && self.annotations.is_empty()
            && self.deletion_timestamp.is_none()
            && self.deletion_grace_period_seconds.is_none()
            && self.owner_references.is_empty()
    }
}

impl std::ops::Deref for ObjectMeta {
    type Target = ObjectMetaMore;
    fn deref(&self) -> &ObjectMetaMore {
        self.more.get()
    }
}

impl std::ops::DerefMut for ObjectMeta {
    fn deref_mut(&mut self) -> &mut ObjectMetaMore {
        self.more.get_mut()
    }
}

/// `ObjectMeta` as it reads and writes (one flat object, field order of the API).
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct ObjectMetaWire {
    name: String,
    generate_name: String,
    namespace: String,
    uid: String,
    #[serde(deserialize_with = "de::labels")]
    labels: Labels,
    #[serde(deserialize_with = "de::annotations")]
    annotations: Labels,
    #[serde(deserialize_with = "crate::timestamp::option")]
    creation_timestamp: Option<Time>,
    #[serde(deserialize_with = "crate::timestamp::option")]
    deletion_timestamp: Option<Time>,
    deletion_grace_period_seconds: Option<i64>,
    #[serde(deserialize_with = "crate::projection::owner_references")]
    owner_references: Vec<OwnerReference>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ObjectMetaRef<'a> {
    name: &'a String,
    #[serde(skip_serializing_if = "skip::string")]
    generate_name: &'a String,
    #[serde(skip_serializing_if = "skip::string")]
    namespace: &'a String,
    #[serde(skip_serializing_if = "skip::string")]
    uid: &'a String,
    #[serde(skip_serializing_if = "skip::labels")]
    labels: &'a Labels,
    #[serde(skip_serializing_if = "skip::labels")]
    annotations: &'a Labels,
    #[serde(skip_serializing_if = "skip::none")]
    creation_timestamp: &'a Option<Time>,
    #[serde(skip_serializing_if = "skip::none")]
    deletion_timestamp: &'a Option<Time>,
    #[serde(skip_serializing_if = "skip::none")]
    deletion_grace_period_seconds: &'a Option<i64>,
    #[serde(skip_serializing_if = "skip::vec")]
    owner_references: &'a Vec<OwnerReference>,
}

impl<'de> Deserialize<'de> for ObjectMeta {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = ObjectMetaWire::deserialize(d)?;
        Ok(ObjectMeta {
            name: w.name,
            namespace: w.namespace,
            uid: w.uid,
            labels: w.labels,
            creation_timestamp: w.creation_timestamp,
            more: Sparse::new(ObjectMetaMore {
                generate_name: w.generate_name,
                annotations: w.annotations,
                deletion_timestamp: w.deletion_timestamp,
                deletion_grace_period_seconds: w.deletion_grace_period_seconds,
                owner_references: w.owner_references,
            }),
        })
    }
}

impl Serialize for ObjectMeta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let more = self.more.get();
        ObjectMetaRef {
            name: &self.name,
            generate_name: &more.generate_name,
            namespace: &self.namespace,
            uid: &self.uid,
            labels: &self.labels,
            annotations: &more.annotations,
            creation_timestamp: &self.creation_timestamp,
            deletion_timestamp: &more.deletion_timestamp,
            deletion_grace_period_seconds: &more.deletion_grace_period_seconds,
            owner_references: &more.owner_references,
        }
        .serialize(s)
    }
}

/// The annotation that `kubectl apply` writes: a copy of the whole object as last applied.
pub const LAST_APPLIED_ANNOTATION: &str = "kubectl.kubernetes.io/last-applied-configuration";

pub(crate) use de::exact_vec;

/// Field deserializers shared by the object types.
mod de {
    use std::fmt;

    use serde::de::{Deserializer, Visitor};

    use super::{LAST_APPLIED_ANNOTATION, Labels};
    use crate::labels::MapVisitor;

    /// A list read into a vector of exactly its length (`null` as empty).
    ///
    /// serde's `Vec` grows by doubling because JSON gives no length up front: a pod's one
    /// container would keep room for four. Items are gathered on the stack (up to four) and then
    /// moved into an exact allocation, which saves about a fifth of a 150,000-pod snapshot.
    pub(crate) fn exact_vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: serde::Deserialize<'de>,
    {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list or null")
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Vec<T>, E> {
                Ok(Vec::new())
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Vec<T>, E> {
                Ok(Vec::new())
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
                d.deserialize_seq(self)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Vec<T>, A::Error> {
                let mut items: smallvec::SmallVec<[T; 4]> = smallvec::SmallVec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(if items.spilled() {
                    let mut v = items.into_vec();
                    v.shrink_to_fit();
                    v
                } else {
                    let mut v = Vec::with_capacity(items.len());
                    v.extend(items);
                    v
                })
            }
        }
        d.deserialize_option(V(std::marker::PhantomData))
    }

    /// Labels: a string map, `null` as empty.
    pub(super) fn labels<'de, D: Deserializer<'de>>(d: D) -> Result<Labels, D::Error> {
        d.deserialize_option(MapVisitor {
            lenient: true,
            skip_key: None,
        })
    }

    /// Annotations: as [`labels`], without the last-applied-configuration copy.
    pub(super) fn annotations<'de, D: Deserializer<'de>>(d: D) -> Result<Labels, D::Error> {
        let visitor = MapVisitor {
            lenient: true,
            skip_key: Some(LAST_APPLIED_ANNOTATION),
        };
        // (checked but not kept when a what-if reads the snapshot's pods)
        crate::projection::annotations(d, visitor)
    }
}

/// `metav1.OwnerReference`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OwnerReference {
    /// `apiVersion` of the owner.
    pub api_version: String,
    /// Kind of the owner (`ReplicaSet`, `DaemonSet`, `Job`, ...).
    pub kind: String,
    /// Name of the owner.
    pub name: String,
    /// UID of the owner.
    pub uid: String,
    /// True for the managing controller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
}

/// `metav1.LabelSelector`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelSelector {
    /// Exact key=value matches, ANDed.
    #[serde(skip_serializing_if = "Labels::is_empty")]
    pub match_labels: Labels,
    /// Set-based requirements, ANDed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

/// `metav1.LabelSelectorRequirement` (operators `In`, `NotIn`, `Exists`, `DoesNotExist`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelSelectorRequirement {
    /// Label key.
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: String,
    /// Values for `In` / `NotIn`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// `v1.Taint`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Taint {
    /// Taint key.
    pub key: String,
    /// Taint value (may be empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// `NoSchedule`, `PreferNoSchedule` or `NoExecute`.
    pub effect: String,
    /// `timeAdded` (NoExecute taints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_added: Option<Time>,
}

/// `v1.Toleration`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Toleration {
    /// Key; empty with operator `Exists` tolerates every taint.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// `Equal` (default when empty) or `Exists`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub operator: String,
    /// Value for `Equal`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// Effect to match; empty matches all effects.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub effect: String,
    /// For `NoExecute`: seconds the pod stays bound after the taint appears.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

// ---------------------------------------------------------------- Node

/// `v1.Node`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Node {
    /// Metadata (labels carry GPU feature discovery facts).
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: NodeSpec,
    /// `status`.
    pub status: NodeStatus,
}

/// `v1.NodeSpec`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSpec {
    /// `spec.unschedulable` (cordoned).
    pub unschedulable: bool,
    /// `spec.taints`.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "de::exact_vec"
    )]
    pub taints: Vec<Taint>,
    /// `spec.podCIDR`.
    #[serde(rename = "podCIDR", skip_serializing_if = "String::is_empty")]
    pub pod_cidr: String,
    /// `spec.providerID`.
    #[serde(rename = "providerID", skip_serializing_if = "String::is_empty")]
    pub provider_id: String,
}

/// `v1.NodeStatus`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeStatus {
    /// `status.capacity`.
    pub capacity: ResourceList,
    /// `status.allocatable` (what the scheduler uses).
    pub allocatable: ResourceList,
    /// `status.conditions`.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "de::exact_vec"
    )]
    pub conditions: Vec<NodeCondition>,
    /// `status.addresses`.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "de::exact_vec"
    )]
    pub addresses: Vec<NodeAddress>,
    /// `status.nodeInfo`.
    pub node_info: NodeSystemInfo,
}

/// `v1.NodeCondition`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeCondition {
    /// `Ready`, `MemoryPressure`, `DiskPressure`, `PIDPressure`, `NetworkUnavailable`, ...
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    pub status: String,
    /// Machine-readable reason.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Human-readable message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// `lastHeartbeatTime`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::timestamp::option"
    )]
    pub last_heartbeat_time: Option<Time>,
    /// `lastTransitionTime`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::timestamp::option"
    )]
    pub last_transition_time: Option<Time>,
}

/// `v1.NodeAddress`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeAddress {
    /// `InternalIP`, `ExternalIP`, `Hostname`, ...
    #[serde(rename = "type")]
    pub type_: String,
    /// The address.
    pub address: String,
}

/// `v1.NodeSystemInfo`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSystemInfo {
    /// `osImage`, e.g. `Ubuntu 22.04.4 LTS`.
    pub os_image: String,
    /// `kernelVersion`.
    pub kernel_version: String,
    /// `containerRuntimeVersion`, e.g. `containerd://1.7.12`.
    pub container_runtime_version: String,
    /// `kubeletVersion`, e.g. `v1.30.2`.
    pub kubelet_version: String,
    /// `kubeProxyVersion`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kube_proxy_version: String,
    /// `operatingSystem` (`linux`).
    pub operating_system: String,
    /// `architecture` (`amd64`).
    pub architecture: String,
    /// `machineID`.
    #[serde(rename = "machineID", skip_serializing_if = "String::is_empty")]
    pub machine_id: String,
    /// `systemUUID`.
    #[serde(rename = "systemUUID", skip_serializing_if = "String::is_empty")]
    pub system_uuid: String,
    /// `bootID`.
    #[serde(rename = "bootID", skip_serializing_if = "String::is_empty")]
    pub boot_id: String,
}

// ---------------------------------------------------------------- Pod

/// `v1.Pod`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Pod {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: PodSpec,
    /// `status`.
    pub status: PodStatus,
}

/// `v1.PodSpec`, reduced.
///
/// Memory (issue 9): `containers`, `nodeName`, `priorityClassName` and `volumes` are held
/// inline; the fields the API server fills on every pod it stores but a pod written by hand
/// often leaves out (`schedulerName`, `restartPolicy`, `tolerations`, `priority`, ...) and the
/// rare ones are in [`PodSpecMore`], allocated only when one is set, and read and written as
/// fields of `PodSpec` (it dereferences to [`PodSpecMore`]). Equality, JSON and YAML are those of
/// one flat object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodSpec {
    /// App containers.
    pub containers: Vec<Container>,
    /// `spec.nodeName`: set when bound (or bound by hand, bypassing the scheduler).
    pub node_name: String,
    /// `spec.priorityClassName`.
    pub priority_class_name: String,
    /// `spec.volumes`.
    pub volumes: Vec<Volume>,
    /// The other fields (read them as fields of `PodSpec`).
    pub more: Sparse<PodSpecMore>,
}

/// The fields of [`PodSpec`] held out of line (see [`Sparse`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodSpecMore {
    /// Init containers, in declaration order (`restartPolicy: Always` marks a sidecar).
    pub init_containers: Vec<Container>,
    /// `spec.overhead` (RuntimeClass overhead).
    pub overhead: Option<Box<ResourceList>>,
    /// Pod-level `spec.resources` (PodLevelResources).
    pub resources: Option<Box<ResourceRequirements>>,
    /// `spec.nodeSelector`.
    pub node_selector: Labels,
    /// `spec.affinity`.
    pub affinity: Option<Box<Affinity>>,
    /// `spec.tolerations`.
    pub tolerations: Vec<Toleration>,
    /// `spec.priority` (filled by priority admission).
    pub priority: Option<i32>,
    /// `spec.preemptionPolicy`: `PreemptLowerPriority` or `Never`.
    pub preemption_policy: Option<String>,
    /// `spec.activeDeadlineSeconds` (quota scope Terminating).
    pub active_deadline_seconds: Option<i64>,
    /// `spec.schedulerName`.
    pub scheduler_name: String,
    /// `spec.restartPolicy`.
    pub restart_policy: String,
    /// `spec.runtimeClassName`.
    pub runtime_class_name: Option<String>,
    /// `spec.serviceAccountName`.
    pub service_account_name: String,
    /// `spec.topologySpreadConstraints`.
    pub topology_spread_constraints: Vec<TopologySpreadConstraint>,
    /// `spec.hostNetwork` (a DaemonSet's pods then also tolerate
    /// `node.kubernetes.io/network-unavailable`).
    pub host_network: bool,
    /// `spec.resourceClaims` (Dynamic Resource Allocation).
    pub resource_claims: Vec<PodResourceClaim>,
}

/// `v1.PodResourceClaim`: a DRA claim the pod's containers may use, from a ResourceClaim or a
/// ResourceClaimTemplate.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodResourceClaim {
    /// The name the containers use (`resources.claims[].name`).
    pub name: String,
    /// `resourceClaimName`: an existing ResourceClaim of the pod's namespace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_claim_name: Option<String>,
    /// `resourceClaimTemplateName`: a ResourceClaim is generated for the pod from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_claim_template_name: Option<String>,
}

/// `v1.TopologySpreadConstraint`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TopologySpreadConstraint {
    /// `maxSkew` (at least 1).
    pub max_skew: i32,
    /// `topologyKey`: the node label whose values are the domains.
    pub topology_key: String,
    /// `DoNotSchedule` (a filter) or `ScheduleAnyway` (a score only).
    pub when_unsatisfiable: String,
    /// The pods counted in each domain (in the pod's namespace).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// `minDomains`: fewer eligible domains than this make the global minimum 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_domains: Option<i32>,
    /// `nodeAffinityPolicy`: `Honor` (default) or `Ignore`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_affinity_policy: Option<String>,
    /// `nodeTaintsPolicy`: `Ignore` (default) or `Honor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_taints_policy: Option<String>,
    /// `matchLabelKeys`: the pod's values of these labels are ANDed into the selector.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_label_keys: Vec<String>,
}

impl SparseFields for PodSpecMore {
    fn empty() -> &'static Self {
        static EMPTY: std::sync::OnceLock<PodSpecMore> = std::sync::OnceLock::new();
        EMPTY.get_or_init(Self::default)
    }
    fn is_empty(&self) -> bool {
        self.init_containers.is_empty()
            && self.overhead.is_none()
            && self.resources.is_none()
            && self.node_selector.is_empty()
            && self.affinity.is_none()
            && self.tolerations.is_empty()
            && self.priority.is_none()
            && self.preemption_policy.is_none()
            && self.active_deadline_seconds.is_none()
            && self.scheduler_name.is_empty()
            && self.restart_policy.is_empty()
            && self.runtime_class_name.is_none()
            && self.service_account_name.is_empty()
            && self.topology_spread_constraints.is_empty()
            && !self.host_network
            && self.resource_claims.is_empty()
    }
}

impl std::ops::Deref for PodSpec {
    type Target = PodSpecMore;
    fn deref(&self) -> &PodSpecMore {
        self.more.get()
    }
}

impl std::ops::DerefMut for PodSpec {
    fn deref_mut(&mut self) -> &mut PodSpecMore {
        self.more.get_mut()
    }
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct PodSpecWire {
    #[serde(deserialize_with = "de::exact_vec")]
    containers: Vec<Container>,
    #[serde(deserialize_with = "de::exact_vec")]
    init_containers: Vec<Container>,
    overhead: Option<Box<ResourceList>>,
    resources: Option<Box<ResourceRequirements>>,
    node_name: String,
    node_selector: Labels,
    affinity: Option<Box<Affinity>>,
    #[serde(deserialize_with = "de::exact_vec")]
    tolerations: Vec<Toleration>,
    priority: Option<i32>,
    priority_class_name: String,
    preemption_policy: Option<String>,
    active_deadline_seconds: Option<i64>,
    // (the fields read with `crate::projection` are checked but not kept when a what-if reads
    // the snapshot's pods)
    #[serde(deserialize_with = "crate::projection::string")]
    scheduler_name: String,
    #[serde(deserialize_with = "crate::projection::string")]
    restart_policy: String,
    runtime_class_name: Option<String>,
    #[serde(deserialize_with = "crate::projection::string")]
    service_account_name: String,
    #[serde(deserialize_with = "crate::projection::volumes")]
    volumes: Vec<Volume>,
    #[serde(deserialize_with = "de::exact_vec")]
    topology_spread_constraints: Vec<TopologySpreadConstraint>,
    host_network: bool,
    #[serde(deserialize_with = "de::exact_vec")]
    resource_claims: Vec<PodResourceClaim>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PodSpecRef<'a> {
    containers: &'a Vec<Container>,
    #[serde(skip_serializing_if = "skip::vec")]
    init_containers: &'a Vec<Container>,
    #[serde(skip_serializing_if = "skip::none")]
    overhead: &'a Option<Box<ResourceList>>,
    #[serde(skip_serializing_if = "skip::none")]
    resources: &'a Option<Box<ResourceRequirements>>,
    #[serde(skip_serializing_if = "skip::string")]
    node_name: &'a String,
    #[serde(skip_serializing_if = "skip::labels")]
    node_selector: &'a Labels,
    #[serde(skip_serializing_if = "skip::none")]
    affinity: &'a Option<Box<Affinity>>,
    #[serde(skip_serializing_if = "skip::vec")]
    tolerations: &'a Vec<Toleration>,
    #[serde(skip_serializing_if = "skip::none")]
    priority: &'a Option<i32>,
    #[serde(skip_serializing_if = "skip::string")]
    priority_class_name: &'a String,
    #[serde(skip_serializing_if = "skip::none")]
    preemption_policy: &'a Option<String>,
    #[serde(skip_serializing_if = "skip::none")]
    active_deadline_seconds: &'a Option<i64>,
    #[serde(skip_serializing_if = "skip::string")]
    scheduler_name: &'a String,
    #[serde(skip_serializing_if = "skip::string")]
    restart_policy: &'a String,
    #[serde(skip_serializing_if = "skip::none")]
    runtime_class_name: &'a Option<String>,
    #[serde(skip_serializing_if = "skip::string")]
    service_account_name: &'a String,
    #[serde(skip_serializing_if = "skip::vec")]
    volumes: &'a Vec<Volume>,
    #[serde(skip_serializing_if = "skip::vec")]
    topology_spread_constraints: &'a Vec<TopologySpreadConstraint>,
    #[serde(skip_serializing_if = "skip::falsy")]
    host_network: &'a bool,
    #[serde(skip_serializing_if = "skip::vec")]
    resource_claims: &'a Vec<PodResourceClaim>,
}

impl<'de> Deserialize<'de> for PodSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = PodSpecWire::deserialize(d)?;
        Ok(PodSpec {
            containers: w.containers,
            node_name: w.node_name,
            priority_class_name: w.priority_class_name,
            volumes: w.volumes,
            more: Sparse::new(PodSpecMore {
                init_containers: w.init_containers,
                overhead: w.overhead,
                resources: w.resources,
                node_selector: w.node_selector,
                affinity: w.affinity,
                tolerations: w.tolerations,
                priority: w.priority,
                preemption_policy: w.preemption_policy,
                active_deadline_seconds: w.active_deadline_seconds,
                scheduler_name: w.scheduler_name,
                restart_policy: w.restart_policy,
                runtime_class_name: w.runtime_class_name,
                service_account_name: w.service_account_name,
                topology_spread_constraints: w.topology_spread_constraints,
                host_network: w.host_network,
                resource_claims: w.resource_claims,
            }),
        })
    }
}

impl Serialize for PodSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let more = self.more.get();
        PodSpecRef {
            containers: &self.containers,
            init_containers: &more.init_containers,
            overhead: &more.overhead,
            resources: &more.resources,
            node_name: &self.node_name,
            node_selector: &more.node_selector,
            affinity: &more.affinity,
            tolerations: &more.tolerations,
            priority: &more.priority,
            priority_class_name: &self.priority_class_name,
            preemption_policy: &more.preemption_policy,
            active_deadline_seconds: &more.active_deadline_seconds,
            scheduler_name: &more.scheduler_name,
            restart_policy: &more.restart_policy,
            runtime_class_name: &more.runtime_class_name,
            service_account_name: &more.service_account_name,
            volumes: &self.volumes,
            topology_spread_constraints: &more.topology_spread_constraints,
            host_network: &more.host_network,
            resource_claims: &more.resource_claims,
        }
        .serialize(s)
    }
}

/// `v1.Container`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Container {
    /// Container name.
    pub name: String,
    /// Image reference.
    #[serde(
        skip_serializing_if = "String::is_empty",
        deserialize_with = "crate::projection::string"
    )]
    pub image: String,
    /// `resources.requests` / `resources.limits`.
    pub resources: ResourceRequirements,
    /// `Always` on an init container makes it a restartable sidecar.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    /// `ports`, reduced to the entries with a `hostPort` (the only ones the scheduler's
    /// NodePorts filter and the kubelet's admission read): a `containerPort`-only entry is
    /// checked and dropped, so the common case allocates nothing.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "host_ports_only"
    )]
    pub ports: Vec<ContainerPort>,
}

/// `v1.ContainerPort`, reduced to what the NodePorts filter reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerPort {
    /// `containerPort`.
    pub container_port: i32,
    /// `hostPort` (0: none).
    #[serde(skip_serializing_if = "is_zero_i32")]
    pub host_port: i32,
    /// `protocol` (`TCP` when empty, as API defaulting sets it).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub protocol: String,
    /// `hostIP` (empty: every address, `0.0.0.0`).
    #[serde(rename = "hostIP", skip_serializing_if = "String::is_empty")]
    pub host_ip: String,
}

/// `containers[].ports` keeping only the entries with a `hostPort` (see [`Container::ports`]).
fn host_ports_only<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<ContainerPort>, D::Error> {
    let all: Option<Vec<ContainerPort>> = Option::deserialize(d)?;
    Ok(all
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.host_port != 0)
        .collect())
}

impl Container {
    /// True for a restartable init container (`restartPolicy: Always`), a "sidecar".
    pub fn is_sidecar(&self) -> bool {
        self.restart_policy.as_deref() == Some("Always")
    }
}

/// `v1.ResourceRequirements` (requests and limits; `claims` are not kept).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceRequirements {
    /// Requests: what the scheduler and quota count.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub requests: ResourceList,
    /// Limits.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub limits: ResourceList,
}

/// `v1.Affinity`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Affinity {
    /// Node affinity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<NodeAffinity>,
    /// Pod affinity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pod_affinity: Option<PodAffinity>,
    /// Pod anti-affinity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pod_anti_affinity: Option<PodAffinity>,
}

/// `v1.NodeAffinity`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeAffinity {
    /// Hard requirement: a node must match one of the terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
    /// Soft preferences.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredSchedulingTerm>,
}

/// `v1.NodeSelector`: terms ORed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelector {
    /// Terms, ORed.
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

/// `v1.NodeSelectorTerm`: requirements ANDed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    /// Requirements on node labels.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    /// Requirements on node fields (`metadata.name`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_fields: Vec<NodeSelectorRequirement>,
}

/// `v1.NodeSelectorRequirement` (`In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelectorRequirement {
    /// Label (or field) key.
    pub key: String,
    /// Operator.
    pub operator: String,
    /// Values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// `v1.PreferredSchedulingTerm`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PreferredSchedulingTerm {
    /// Weight 1..100.
    pub weight: i32,
    /// The term.
    pub preference: NodeSelectorTerm,
}

/// `v1.PodAffinity` / `v1.PodAntiAffinity`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAffinity {
    /// Hard terms.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required_during_scheduling_ignored_during_execution: Vec<PodAffinityTerm>,
    /// Soft terms.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preferred_during_scheduling_ignored_during_execution: Vec<WeightedPodAffinityTerm>,
}

/// `v1.PodAffinityTerm`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAffinityTerm {
    /// Pods this term is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// Namespaces named explicitly.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub namespaces: Vec<String>,
    /// Namespaces picked by labels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<LabelSelector>,
    /// Topology key.
    pub topology_key: String,
}

/// `v1.WeightedPodAffinityTerm`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WeightedPodAffinityTerm {
    /// Weight 1..100.
    pub weight: i32,
    /// The term.
    pub pod_affinity_term: PodAffinityTerm,
}

/// `v1.Volume`, reduced to the sources the storage rules look at.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Volume {
    /// Volume name.
    pub name: String,
    /// `hostPath`: node-local.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_path: Option<Box<HostPathVolumeSource>>,
    /// `persistentVolumeClaim`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persistent_volume_claim: Option<Box<PvcVolumeSource>>,
    /// `nfs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nfs: Option<Box<NfsVolumeSource>>,
    /// True when `emptyDir` is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_dir: Option<Box<serde_json::Value>>,
}

/// `v1.HostPathVolumeSource`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct HostPathVolumeSource {
    /// Path on the node.
    pub path: String,
    /// `type` (`Directory`, `DirectoryOrCreate`, ...).
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_: String,
}

/// `v1.PersistentVolumeClaimVolumeSource`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PvcVolumeSource {
    /// Claim name in the pod's namespace.
    pub claim_name: String,
    /// Read-only mount.
    pub read_only: bool,
}

/// `v1.NFSVolumeSource`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NfsVolumeSource {
    /// NFS server.
    pub server: String,
    /// Exported path.
    pub path: String,
    /// Read-only mount.
    pub read_only: bool,
}

/// `v1.PodStatus`, reduced.
///
/// Memory (issue 9): `phase` and `conditions` are held inline, the other fields in
/// [`PodStatusMore`], allocated only when one is set, and read and written as fields of
/// `PodStatus` (it dereferences to [`PodStatusMore`]). Equality, JSON and YAML are those of one
/// flat object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodStatus {
    /// `Pending`, `Running`, `Succeeded`, `Failed`, `Unknown`.
    pub phase: String,
    /// Conditions (`PodScheduled` with reason `Unschedulable`, ...).
    pub conditions: Vec<PodCondition>,
    /// The other fields (read them as fields of `PodStatus`).
    pub more: Sparse<PodStatusMore>,
}

/// The fields of [`PodStatus`] held out of line (see [`Sparse`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodStatusMore {
    /// `qosClass` as computed by the API server.
    pub qos_class: String,
    /// `nominatedNodeName` (set on a preemptor).
    pub nominated_node_name: String,
    /// `startTime`.
    pub start_time: Option<Time>,
    /// `reason` (e.g. `Evicted`).
    pub reason: String,
    /// `message`.
    pub message: String,
    /// `containerStatuses`, reduced to what in-place resize accounting reads.
    pub container_statuses: Vec<ContainerStatus>,
    /// `initContainerStatuses`, reduced likewise.
    pub init_container_statuses: Vec<ContainerStatus>,
}

impl SparseFields for PodStatusMore {
    fn empty() -> &'static Self {
        static EMPTY: std::sync::OnceLock<PodStatusMore> = std::sync::OnceLock::new();
        EMPTY.get_or_init(Self::default)
    }
    fn is_empty(&self) -> bool {
        self.qos_class.is_empty()
            && self.nominated_node_name.is_empty()
            && self.start_time.is_none()
            && self.reason.is_empty()
            && self.message.is_empty()
            && self.container_statuses.is_empty()
            && self.init_container_statuses.is_empty()
    }
}

impl std::ops::Deref for PodStatus {
    type Target = PodStatusMore;
    fn deref(&self) -> &PodStatusMore {
        self.more.get()
    }
}

impl std::ops::DerefMut for PodStatus {
    fn deref_mut(&mut self) -> &mut PodStatusMore {
        self.more.get_mut()
    }
}

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct PodStatusWire {
    phase: String,
    // (only the conditions a what-if reads are kept when it reads the snapshot's pods)
    #[serde(deserialize_with = "crate::projection::pod_conditions")]
    conditions: Vec<PodCondition>,
    qos_class: String,
    nominated_node_name: String,
    #[serde(deserialize_with = "crate::timestamp::option")]
    start_time: Option<Time>,
    reason: String,
    message: String,
    #[serde(deserialize_with = "de::exact_vec")]
    container_statuses: Vec<ContainerStatus>,
    #[serde(deserialize_with = "de::exact_vec")]
    init_container_statuses: Vec<ContainerStatus>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PodStatusRef<'a> {
    #[serde(skip_serializing_if = "skip::string")]
    phase: &'a String,
    #[serde(skip_serializing_if = "skip::vec")]
    conditions: &'a Vec<PodCondition>,
    #[serde(skip_serializing_if = "skip::string")]
    qos_class: &'a String,
    #[serde(skip_serializing_if = "skip::string")]
    nominated_node_name: &'a String,
    #[serde(skip_serializing_if = "skip::none")]
    start_time: &'a Option<Time>,
    #[serde(skip_serializing_if = "skip::string")]
    reason: &'a String,
    #[serde(skip_serializing_if = "skip::string")]
    message: &'a String,
    #[serde(skip_serializing_if = "skip::vec")]
    container_statuses: &'a Vec<ContainerStatus>,
    #[serde(skip_serializing_if = "skip::vec")]
    init_container_statuses: &'a Vec<ContainerStatus>,
}

impl<'de> Deserialize<'de> for PodStatus {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = PodStatusWire::deserialize(d)?;
        Ok(PodStatus {
            phase: w.phase,
            conditions: w.conditions,
            more: Sparse::new(PodStatusMore {
                qos_class: w.qos_class,
                nominated_node_name: w.nominated_node_name,
                start_time: w.start_time,
                reason: w.reason,
                message: w.message,
                container_statuses: w.container_statuses,
                init_container_statuses: w.init_container_statuses,
            }),
        })
    }
}

impl Serialize for PodStatus {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let more = self.more.get();
        PodStatusRef {
            phase: &self.phase,
            conditions: &self.conditions,
            qos_class: &more.qos_class,
            nominated_node_name: &more.nominated_node_name,
            start_time: &more.start_time,
            reason: &more.reason,
            message: &more.message,
            container_statuses: &more.container_statuses,
            init_container_statuses: &more.init_container_statuses,
        }
        .serialize(s)
    }
}

/// `skip_serializing_if` tests for the borrowed views above.
mod skip {
    use super::Labels;

    pub(super) fn string(s: &&String) -> bool {
        s.is_empty()
    }
    pub(super) fn labels(l: &&Labels) -> bool {
        l.is_empty()
    }
    pub(super) fn none<T>(o: &&Option<T>) -> bool {
        o.is_none()
    }
    pub(super) fn vec<T>(v: &&Vec<T>) -> bool {
        v.is_empty()
    }
    pub(super) fn falsy(b: &&bool) -> bool {
        !**b
    }
}

/// `v1.ContainerStatus`, reduced to the resources an in-place resize reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerStatus {
    /// Container name.
    pub name: String,
    /// `allocatedResources`: what the kubelet admitted for the container.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub allocated_resources: ResourceList,
    /// `resources`: what the runtime actually applied (actuated); `None` when not reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<Box<ResourceRequirements>>,
    /// `ready`: the container passes its readiness probe.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ready: bool,
    /// `restartCount`.
    #[serde(skip_serializing_if = "is_zero_i32")]
    pub restart_count: i32,
    /// `state` (waiting, running or terminated); `None` when not reported.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::projection::container_state"
    )]
    pub state: Option<ContainerState>,
    /// `lastState`: the previous run's state (a `terminated` with its reason, `OOMKilled` or
    /// `Error`, and exit code, while the kubelet restarts the container); `None` when not
    /// reported. `kubectl describe pod` prints it as `Last State:`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::projection::container_state"
    )]
    pub last_state: Option<ContainerState>,
}

fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

/// `v1.ContainerState`, reduced to reasons and messages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerState {
    /// `waiting` (`CrashLoopBackOff`, `ContainerCreating`, `ImagePullBackOff`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waiting: Option<Box<ContainerStateDetail>>,
    /// `running`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<ContainerStateRunning>,
    /// `terminated` (`Error`, `Completed`, `OOMKilled`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminated: Option<Box<ContainerStateDetail>>,
}

/// `v1.ContainerStateRunning`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerStateRunning {
    /// `startedAt`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::timestamp::option"
    )]
    pub started_at: Option<Time>,
}

/// The reason, message and exit code of a waiting or terminated container state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerStateDetail {
    /// Reason.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// `exitCode` of a terminated container.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
}

/// `v1.PodCondition`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodCondition {
    /// `PodScheduled`, `Ready`, `DisruptionTarget`, ...
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False`, `Unknown`.
    pub status: String,
    /// Reason (`Unschedulable`, ...).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Message (the scheduler's `0/N nodes are available: ...`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// `lastTransitionTime`.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::timestamp::option"
    )]
    pub last_transition_time: Option<Time>,
}

/// `v1.PodTemplateSpec`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodTemplateSpec {
    /// Template metadata.
    pub metadata: ObjectMeta,
    /// Template spec.
    pub spec: PodSpec,
}

// ---------------------------------------------------------------- namespaces and policy

/// `v1.Namespace`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Namespace {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `status.phase` (`Active`, `Terminating`).
    pub status: NamespaceStatus,
}

/// `v1.NamespaceStatus`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NamespaceStatus {
    /// `Active` or `Terminating`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
}

/// `v1.ResourceQuota`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuota {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: ResourceQuotaSpec,
    /// `status`; `None` until the quota controller first syncs it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ResourceQuotaStatus>,
}

/// `v1.ResourceQuotaSpec`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuotaSpec {
    /// `hard` limits by quota key (`requests.cpu`, `requests.nvidia.com/gpu`, `count/pods`, ...).
    pub hard: ResourceList,
    /// `scopes` (each behaves as `{scopeName, operator: Exists}`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// `scopeSelector`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope_selector: Option<ScopeSelector>,
}

/// `v1.ScopeSelector`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScopeSelector {
    /// Requirements, ANDed.
    pub match_expressions: Vec<ScopedResourceSelectorRequirement>,
}

/// `v1.ScopedResourceSelectorRequirement`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScopedResourceSelectorRequirement {
    /// `Terminating`, `NotTerminating`, `BestEffort`, `NotBestEffort`, `PriorityClass`,
    /// `CrossNamespacePodAffinity`, `VolumeAttributesClass`.
    pub scope_name: String,
    /// `In`, `NotIn`, `Exists`, `DoesNotExist`.
    pub operator: String,
    /// Values for `In` / `NotIn`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// `v1.ResourceQuotaStatus`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuotaStatus {
    /// `status.hard` as last synced.
    pub hard: ResourceList,
    /// `status.used` as last synced.
    pub used: ResourceList,
}

/// `v1.LimitRange`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRange {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: LimitRangeSpec,
}

/// `v1.LimitRangeSpec`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRangeSpec {
    /// Items.
    pub limits: Vec<LimitRangeItem>,
}

/// `v1.LimitRangeItem`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRangeItem {
    /// `Container`, `Pod` or `PersistentVolumeClaim`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `max`.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub max: ResourceList,
    /// `min`.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub min: ResourceList,
    /// `default` (default limits).
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub default: ResourceList,
    /// `defaultRequest`.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub default_request: ResourceList,
    /// `maxLimitRequestRatio`.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub max_limit_request_ratio: ResourceList,
}

/// `scheduling.k8s.io/v1` `PriorityClass`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityClass {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// Priority value.
    pub value: i32,
    /// `globalDefault`.
    pub global_default: bool,
    /// `preemptionPolicy` (`PreemptLowerPriority` when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preemption_policy: Option<String>,
    /// `description`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// `node.k8s.io/v1` `RuntimeClass`: the container runtime handler a pod runs with, the
/// overhead that handler adds to every pod (added to the pod's requests for scheduling and
/// quota by the RuntimeClass admission plugin) and the nodes it is available on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RuntimeClass {
    /// Metadata (cluster-scoped: the name pods put in `spec.runtimeClassName`).
    pub metadata: ObjectMeta,
    /// `handler`: the CRI runtime handler (`nvidia`, `runc`, `kata`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub handler: String,
    /// `overhead`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overhead: Option<RuntimeClassOverhead>,
    /// `scheduling`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduling: Option<RuntimeClassScheduling>,
}

/// `node.k8s.io/v1` `Overhead`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RuntimeClassOverhead {
    /// `podFixed`: what every pod of the class costs on top of its containers; `None` when
    /// the field is absent (the pod then gets no overhead).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pod_fixed: Option<ResourceList>,
}

/// `node.k8s.io/v1` `Scheduling`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RuntimeClassScheduling {
    /// `nodeSelector`, merged into the pod's.
    #[serde(skip_serializing_if = "Labels::is_empty")]
    pub node_selector: Labels,
    /// `tolerations`, added to the pod's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tolerations: Vec<Toleration>,
}

/// `policy/v1` `PodDisruptionBudget`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudget {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: PodDisruptionBudgetSpec,
    /// `status`.
    pub status: PodDisruptionBudgetStatus,
}

/// `policy/v1` `PodDisruptionBudgetSpec`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudgetSpec {
    /// `minAvailable` (an int or a percentage string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_available: Option<serde_json::Value>,
    /// `maxUnavailable` (an int or a percentage string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<serde_json::Value>,
    /// Pods covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
}

/// `policy/v1` `PodDisruptionBudgetStatus`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudgetStatus {
    /// How many more pods may be disrupted now.
    pub disruptions_allowed: i32,
    /// Healthy pods now.
    pub current_healthy: i32,
    /// Healthy pods needed.
    pub desired_healthy: i32,
    /// Pods counted.
    pub expected_pods: i32,
}

// ---------------------------------------------------------------- workloads and events

/// `apps/v1` `DaemonSet`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DaemonSet {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: DaemonSetSpec,
    /// `status`.
    pub status: DaemonSetStatus,
}

/// `apps/v1` `DaemonSetSpec`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DaemonSetSpec {
    /// Pod selector.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// Pod template (its nodeSelector, affinity and tolerations decide where it runs).
    pub template: PodTemplateSpec,
}

/// `apps/v1` `DaemonSetStatus`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DaemonSetStatus {
    /// Nodes that should run the daemon pod.
    pub desired_number_scheduled: i32,
    /// Nodes that run it.
    pub current_number_scheduled: i32,
    /// Nodes where it is ready.
    pub number_ready: i32,
    /// Nodes where it is available.
    pub number_available: i32,
    /// Nodes that run it but should not.
    pub number_misscheduled: i32,
}

/// A workload controller, reduced to the counts its `kubectl get` row shows: `apps/v1`
/// `Deployment`, `StatefulSet`, `ReplicaSet`, core `ReplicationController` and `batch/v1` `Job`
/// (their `spec.replicas` / `spec.completions` and status counts share one shape; the
/// printers are in kubernetes `pkg/printers/internalversion/printers.go`). Read from `kubectl
/// get` tables (such objects carry [`crate::describe::PARTIAL_ANNOTATION`]) and from JSON/YAML
/// dumps (`kind` taken from the object; API groups `apps`/`extensions`, `batch`, core).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Workload {
    /// `Deployment`, `StatefulSet`, `ReplicaSet`, `ReplicationController` or `Job`.
    pub kind: String,
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: WorkloadSpec,
    /// `status`.
    pub status: WorkloadStatus,
}

/// The spec fields of a [`Workload`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadSpec {
    /// Desired replicas (`None`: not shown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// A Job's desired completions (`None`: not shown, or a work-queue Job).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completions: Option<i32>,
    /// Pod selector (`-o wide` `SELECTOR` column).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// Pod template (with `-o wide`, its containers' names and images).
    pub template: PodTemplateSpec,
}

/// The status counts of a [`Workload`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadStatus {
    /// Pods created (ReplicaSet `CURRENT`).
    pub replicas: i32,
    /// Ready pods.
    pub ready_replicas: i32,
    /// Pods of the current template (Deployment `UP-TO-DATE`).
    pub updated_replicas: i32,
    /// Available pods (ready for `minReadySeconds`).
    pub available_replicas: i32,
    /// A Job's succeeded pods.
    pub succeeded: i32,
    /// A Job's failed pods.
    pub failed: i32,
    /// A Job's running pods.
    pub active: i32,
    /// Conditions (a Job's `Complete` / `Failed` / `Suspended` from its `STATUS` column).
    pub conditions: Vec<WorkloadCondition>,
}

/// One condition of a [`Workload`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadCondition {
    /// `Complete`, `Failed`, `Available`, ...
    #[serde(rename = "type")]
    pub type_: String,
    /// `True`, `False`, `Unknown`.
    pub status: String,
    /// Machine-readable reason.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Message.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}

/// Core `v1.Event` (also read from `events.k8s.io/v1`: `regarding` and `note` map to
/// `involvedObject` and `message`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Event {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// The object the event is about.
    #[serde(alias = "regarding")]
    pub involved_object: ObjectReference,
    /// `FailedScheduling`, `FailedMount`, `FailedCreate`, ...
    pub reason: String,
    /// The message text.
    #[serde(alias = "note")]
    pub message: String,
    /// `Normal` or `Warning`.
    #[serde(rename = "type")]
    pub type_: String,
    /// How often it happened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<i32>,
    /// First seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_timestamp: Option<Time>,
    /// Last seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_timestamp: Option<Time>,
    /// Reporting source.
    pub source: EventSource,
}

/// `v1.ObjectReference`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectReference {
    /// Kind.
    pub kind: String,
    /// Namespace.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Name.
    pub name: String,
    /// UID.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// `fieldPath`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field_path: String,
}

/// `v1.EventSource`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EventSource {
    /// Component (`default-scheduler`, `kubelet`, ...).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub component: String,
    /// Host.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub host: String,
}

// ---------------------------------------------------------------- storage

/// `storage.k8s.io/v1` `StorageClass`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StorageClass {
    /// Metadata (annotation `storageclass.kubernetes.io/is-default-class` marks the default).
    pub metadata: ObjectMeta,
    /// Provisioner (`kubernetes.io/no-provisioner`, `rancher.io/local-path`, ...).
    pub provisioner: String,
    /// `reclaimPolicy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reclaim_policy: Option<String>,
    /// `volumeBindingMode` (`Immediate`, `WaitForFirstConsumer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume_binding_mode: Option<String>,
    /// `parameters`.
    #[serde(skip_serializing_if = "Labels::is_empty")]
    pub parameters: Labels,
}

impl StorageClass {
    /// True when annotated as the default class (`storageclass.kubernetes.io/is-default-class`
    /// or the beta annotation, value `true`).
    pub fn is_default(&self) -> bool {
        [
            "storageclass.kubernetes.io/is-default-class",
            "storageclass.beta.kubernetes.io/is-default-class",
        ]
        .iter()
        .any(|k| self.metadata.annotations.get(k) == Some("true"))
    }
}

/// `v1.PersistentVolume`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolume {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: PersistentVolumeSpec,
    /// `status.phase`.
    pub status: PersistentVolumeStatus,
}

/// `v1.PersistentVolumeSpec`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeSpec {
    /// `capacity.storage`.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub capacity: ResourceList,
    /// `ReadWriteOnce`, `ReadWriteMany`, ...
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    /// `storageClassName`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub storage_class_name: String,
    /// `hostPath` source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_path: Option<HostPathVolumeSource>,
    /// `local` source (path on one node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local: Option<LocalVolumeSource>,
    /// `nfs` source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nfs: Option<NfsVolumeSource>,
    /// `csi.driver`, when a CSI volume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub csi: Option<CsiVolumeSource>,
    /// `nodeAffinity` pinning the volume to nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<VolumeNodeAffinity>,
    /// `claimRef`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_ref: Option<ObjectReference>,
    /// `persistentVolumeReclaimPolicy`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub persistent_volume_reclaim_policy: String,
}

/// `v1.LocalVolumeSource`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LocalVolumeSource {
    /// Path on the node.
    pub path: String,
}

/// `v1.CSIPersistentVolumeSource`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiVolumeSource {
    /// Driver name.
    pub driver: String,
    /// Volume handle.
    pub volume_handle: String,
}

/// `v1.VolumeNodeAffinity`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VolumeNodeAffinity {
    /// Nodes the volume can be reached from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required: Option<NodeSelector>,
}

/// `v1.PersistentVolumeStatus`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeStatus {
    /// `Available`, `Bound`, `Released`, `Failed`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
}

/// `v1.PersistentVolumeClaim`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaim {
    /// Metadata.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: PersistentVolumeClaimSpec,
    /// `status`.
    pub status: PersistentVolumeClaimStatus,
}

/// `v1.PersistentVolumeClaimSpec`, reduced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaimSpec {
    /// Access modes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    /// `storageClassName`: `None` = use the default class; `Some("")` = no class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_class_name: Option<String>,
    /// Bound volume.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub volume_name: String,
    /// `resources.requests.storage` and limits.
    pub resources: ResourceRequirements,
}

/// `v1.PersistentVolumeClaimStatus`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaimStatus {
    /// `Pending`, `Bound`, `Lost`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// Actual capacity.
    #[serde(skip_serializing_if = "ResourceList::is_empty")]
    pub capacity: ResourceList,
}

// ---------------------------------------------------------------- RBAC

/// `rbac.authorization.k8s.io/v1` `Role` or `ClusterRole` (`kind` tells which).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Role {
    /// `Role` or `ClusterRole`.
    pub kind: String,
    /// Metadata (namespace empty for a ClusterRole).
    pub metadata: ObjectMeta,
    /// Rules.
    pub rules: Vec<PolicyRule>,
    /// ClusterRole aggregation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aggregation_rule: Option<AggregationRule>,
}

/// `rbac/v1` `PolicyRule`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PolicyRule {
    /// Verbs (`get`, `list`, `*`).
    pub verbs: Vec<String>,
    /// API groups (`""` = core, `*`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// Resources (`pods`, `pods/log`, `*`, `*/scale`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// Resource names; empty = all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    /// Non-resource URLs (`/healthz`, `/apis/*`).
    #[serde(rename = "nonResourceURLs", skip_serializing_if = "Vec::is_empty")]
    pub non_resource_urls: Vec<String>,
}

/// `rbac/v1` `AggregationRule`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AggregationRule {
    /// Selectors of ClusterRoles whose rules are aggregated.
    pub cluster_role_selectors: Vec<LabelSelector>,
}

/// `rbac/v1` `RoleBinding` or `ClusterRoleBinding` (`kind` tells which).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RoleBinding {
    /// `RoleBinding` or `ClusterRoleBinding`.
    pub kind: String,
    /// Metadata (namespace empty for a ClusterRoleBinding).
    pub metadata: ObjectMeta,
    /// Who is bound.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<Subject>,
    /// The role granted.
    pub role_ref: RoleRef,
}

/// `rbac/v1` `Subject`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Subject {
    /// `User`, `Group` or `ServiceAccount`.
    pub kind: String,
    /// Name.
    pub name: String,
    /// Namespace (ServiceAccount).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// `rbac.authorization.k8s.io` for users and groups.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub api_group: String,
}

/// `rbac/v1` `RoleRef`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RoleRef {
    /// `rbac.authorization.k8s.io`.
    pub api_group: String,
    /// `Role` or `ClusterRole`.
    pub kind: String,
    /// Name of the role.
    pub name: String,
}

/// A kubeadm bootstrap token as read from a `kube-system/bootstrap-token-<id>` Secret.
///
/// Only the public part is kept: the token secret is dropped at load time, so it can never
/// appear in Debug, Display, logs or errors.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BootstrapToken {
    /// Secret name (`bootstrap-token-<id>`).
    pub secret_name: String,
    /// `token-id` (six characters `[a-z0-9]`).
    pub token_id: String,
    /// `expiration` (RFC 3339), if set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiration: Option<Time>,
    /// `usage-bootstrap-*` keys set to `true` (`authentication`, `signing`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub usages: Vec<String>,
    /// `auth-extra-groups`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub auth_extra_groups: String,
    /// `description`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
}

impl Pod {
    /// `namespace/name` (the generateName prefix when the name is empty).
    pub fn key(&self) -> String {
        let name = if self.metadata.name.is_empty() {
            &self.metadata.generate_name
        } else {
            &self.metadata.name
        };
        format!("{}/{}", self.metadata.namespace, name)
    }
    /// True for phase `Succeeded` or `Failed` (terminal pods hold no node resources).
    pub fn is_terminal(&self) -> bool {
        matches!(self.status.phase.as_str(), "Succeeded" | "Failed")
    }
}
