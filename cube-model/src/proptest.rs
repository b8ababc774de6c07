//! Property-test strategies for the model types (crate feature `proptest`).
//!
//! Downstream crates enable the feature and write property tests over our types the same way we
//! do:
//!
//! ```toml
//! [dev-dependencies]
//! cube-model = { version = "0.1", features = ["proptest"] }
//! proptest = "1"
//! ```
//!
//! ```
//! use cube_model::proptest::{SnapshotParams, cluster_snapshot, quantity};
//! use proptest::prelude::*;
//!
//! proptest! {
//!     #![proptest_config(ProptestConfig::with_cases(8))]
//!     // `#[test]` in a real test file
//!     fn every_bound_pod_is_on_a_node(s in cluster_snapshot(SnapshotParams::small())) {
//!         for p in &s.pods {
//!             prop_assert!(s.nodes.iter().any(|n| n.metadata.name == p.spec.node_name));
//!         }
//!     }
//!     fn printed_quantities_parse(q in quantity(12)) {
//!         prop_assert!(q.to_string().parse::<cube_model::Quantity>().is_ok());
//!     }
//! }
//! # fn main() { every_bound_pod_is_on_a_node(); printed_quantities_parse(); }
//! ```
//!
//! What is here:
//! - [`Quantity`]: [`quantity_string`] (upstream's grammar, permissive corners included; may
//!   overflow), [`quantity`] (parsed, valid), [`canonical_quantity_string`] (the canonical form
//!   of a valid quantity), [`raw_quantity_string`] (anything from the quantity alphabet, mostly
//!   invalid: for parsers that must never panic), [`resource_amount`] (realistic amounts per
//!   resource: millicores, `Mi`/`Gi`, whole GPUs).
//! - [`ResourceName`] ([`resource_name`], [`container_resource_name`]) and [`ResourceList`]
//!   ([`resource_list`], [`small_resource_list`]).
//! - The slim objects: [`pod`] ([`PodParams`]), [`node`] ([`NodeParams`]), [`resource_quota`],
//!   [`limit_range`], [`priority_class`], and [`resource_group`] ([`GroupParams`]).
//! - [`cluster_snapshot`] ([`SnapshotParams`]): consistent snapshots. Every pod is bound to a
//!   node that exists and fits its allocatable; quotas and LimitRanges sit in namespaces that
//!   exist and their `status.used` is the namespace's real usage, below 90% of `hard`; GPU nodes
//!   carry coherent GPU feature discovery labels (`nvidia.com/gpu.present`, `.product`, `.count`,
//!   driver and CUDA labels, the same on every GPU node) and advertise `nvidia.com/gpu` in
//!   capacity and allocatable; a device-plugin DaemonSet selects exactly the GPU nodes; every
//!   node is Ready with one heartbeat time and one kubelet/runtime/OS line. Such a snapshot has
//!   no planted problem, so `cube-diagnose` reports no error finding on it.
//!
//! Every type with a strategy also implements [`proptest::arbitrary::Arbitrary`], so
//! `any::<Pod>()` and `any_with::<ClusterSnapshot>(SnapshotParams::small())` work.
//!
//! Generated object names are DNS-1123 labels; quantities use the units Kubernetes writes
//! (`500m`, `4Gi`, `2`).

use std::collections::BTreeMap;

use ::proptest::arbitrary::Arbitrary;
use ::proptest::prelude::*;
use ::proptest::sample::{Index, select};
use ::proptest::strategy::BoxedStrategy;

use crate::group::{GroupNamespace, GroupPriority, Member, QuotaBucket, ResourceGroup};
use crate::objects::{
    Container, DaemonSet, LimitRange, LimitRangeItem, Namespace, Node, NodeAddress, NodeCondition,
    ObjectMeta, Pod, PriorityClass, ResourceQuota, ResourceQuotaStatus, Time,
};
use crate::snapshot::ClusterSnapshot;
use crate::{Format, Quantity, ResourceList, ResourceName};

/// Suffixes of upstream's quantity grammar (decimal SI and binary SI); exponents (`e3`, `E-2`)
/// are generated separately by [`quantity_string`].
pub const QUANTITY_SUFFIXES: &[&str] = &[
    "", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
];

/// Strings in upstream's quantity grammar (`[+-]digits[.digits](suffix|exponent)`), including the
/// permissive corners upstream accepts (empty mantissa, `1.`, leading zeros, `+`), with up to
/// `max_digits` digits before and after the point so the big-decimal path is reached. Most parse;
/// some overflow or are refused (e.g. a lone sign), which is what a parser test wants.
pub fn quantity_string(max_digits: usize) -> impl Strategy<Value = String> {
    let suffix = prop_oneof![
        3 => select(QUANTITY_SUFFIXES).prop_map(str::to_string),
        1 => ("[eE]", "[+-]?", 0i32..25).prop_map(|(e, s, n)| format!("{e}{s}{n}")),
    ];
    let digits = format!("[0-9]{{0,{max_digits}}}");
    (
        "[+-]?",
        ::proptest::string::string_regex(&digits).unwrap_or_else(|_| unreachable_regex()),
        ::proptest::option::of(
            ::proptest::string::string_regex(&digits).unwrap_or_else(|_| unreachable_regex()),
        ),
        suffix,
    )
        .prop_map(|(sign, int, frac, suf)| match frac {
            Some(f) => format!("{sign}{int}.{f}{suf}"),
            None => format!("{sign}{int}{suf}"),
        })
}

/// The regex above is built from a fixed pattern and a number; it always compiles.
fn unreachable_regex() -> ::proptest::string::RegexGeneratorStrategy<String> {
    ::proptest::string::string_regex("[0-9]{0,1}").expect("fixed pattern compiles")
}

/// Valid quantities: [`quantity_string`]s that parse.
pub fn quantity(max_digits: usize) -> impl Strategy<Value = Quantity> {
    quantity_string(max_digits).prop_filter_map("not a valid quantity", |s| s.parse().ok())
}

/// The canonical form (`Quantity::to_canonical_string`) of a valid quantity: what the API server
/// stores and prints.
pub fn canonical_quantity_string(max_digits: usize) -> impl Strategy<Value = String> {
    quantity(max_digits).prop_map(|q| q.to_canonical_string())
}

/// Raw strings of up to `max_len` characters from the quantity alphabet (digits, signs, `.`,
/// `e`/`E`, suffix letters, blanks): mostly invalid, for "never panics, always a typed error"
/// properties.
pub fn raw_quantity_string(max_len: usize) -> impl Strategy<Value = String> {
    ::proptest::string::string_regex(&format!("[-+0-9.eEinumkKMGTPi ]{{0,{max_len}}}"))
        .unwrap_or_else(|_| unreachable_regex())
}

/// Realistic amounts for `resource` as a user or kubelet writes them: cpu in millicores up to
/// 64 cores, memory and storage in `Mi` up to 512 Gi, `pods` up to 250, GPUs and other extended
/// resources as whole numbers up to 16 (extended resources must be integers).
pub fn resource_amount(resource: &str) -> BoxedStrategy<Quantity> {
    let base = resource
        .strip_prefix("requests.")
        .or_else(|| resource.strip_prefix("limits."))
        .unwrap_or(resource);
    match base {
        "cpu" => (1i64..=64_000).prop_map(Quantity::from_millis).boxed(),
        "memory" | "ephemeral-storage" | "storage" => (1i64..=512 * 1024)
            .prop_map(|mi| Quantity::from_value(mi << 20, Format::BinarySI))
            .boxed(),
        "pods" => (1i64..=250)
            .prop_map(|n| Quantity::from_value(n, Format::DecimalSI))
            .boxed(),
        _ if base.starts_with("hugepages-") => (0i64..=64)
            .prop_map(|n| Quantity::from_value(n << 21, Format::BinarySI))
            .boxed(),
        _ => (0i64..=16)
            .prop_map(|n| Quantity::from_value(n, Format::DecimalSI))
            .boxed(),
    }
}

/// Resource names valid in a container's requests and limits: native (`cpu`, `memory`,
/// `ephemeral-storage`), hugepages and GPU extended resources of three vendors.
pub const CONTAINER_RESOURCES: &[&str] = &[
    "cpu",
    "memory",
    "ephemeral-storage",
    "hugepages-2Mi",
    "nvidia.com/gpu",
    "amd.com/gpu",
    "gpu.intel.com/i915",
];

/// Names of [`CONTAINER_RESOURCES`].
pub fn container_resource_name() -> impl Strategy<Value = ResourceName> {
    select(CONTAINER_RESOURCES).prop_map(ResourceName::new)
}

/// Quota forms of resource names.
const QUOTA_RESOURCES: &[&str] = &[
    "requests.cpu",
    "requests.memory",
    "limits.cpu",
    "limits.memory",
    "requests.nvidia.com/gpu",
    "pods",
    "count/jobs.batch",
    "requests.storage",
];

/// MIG, shared-GPU and other extended names.
const OTHER_RESOURCES: &[&str] = &[
    "nvidia.com/mig-1g.5gb",
    "nvidia.com/gpu.shared",
    "example.com/fpga",
];

/// Resources of [`small_resource_list`].
const SMALL_RESOURCES: &[&str] = &["cpu", "memory", "nvidia.com/gpu"];

/// Keys of generated quotas.
const QUOTA_HARD_KEYS: &[&str] = &[
    "requests.cpu",
    "requests.memory",
    "requests.nvidia.com/gpu",
    "pods",
];

/// Any resource name a list may hold: container names, quota forms (`requests.cpu`,
/// `limits.memory`, `requests.nvidia.com/gpu`, `pods`, `count/jobs.batch`) and MIG / shared GPU
/// names.
pub fn resource_name() -> impl Strategy<Value = ResourceName> {
    prop_oneof![
        3 => container_resource_name(),
        2 => select(QUOTA_RESOURCES).prop_map(ResourceName::new),
        1 => select(OTHER_RESOURCES).prop_map(ResourceName::new),
    ]
}

/// Lists of up to `max_len` entries named by `names`, each with a [`resource_amount`] for its
/// name (duplicates collapse, so lists may be shorter).
pub fn resource_list(
    names: impl Strategy<Value = ResourceName> + 'static,
    max_len: usize,
) -> BoxedStrategy<ResourceList> {
    ::proptest::collection::vec(
        names.prop_flat_map(|n| {
            let amount = resource_amount(n.as_str());
            (Just(n), amount)
        }),
        0..=max_len,
    )
    .prop_map(|entries| entries.into_iter().collect())
    .boxed()
}

/// Small container lists: any of `cpu`, `memory` and `nvidia.com/gpu` with amounts up to 5
/// cores, 5000 Mi and 4 GPUs (the shape the LimitRange and quota property tests use).
pub fn small_resource_list() -> BoxedStrategy<ResourceList> {
    ::proptest::collection::btree_map(select(SMALL_RESOURCES), 1i64..5000, 0..=3)
        .prop_map(|m| {
            m.into_iter()
                .map(|(k, v)| match k {
                    "cpu" => (k, Quantity::from_millis(v)),
                    "memory" => (k, Quantity::from_value(v << 20, Format::BinarySI)),
                    _ => (k, Quantity::from_value(v % 5, Format::DecimalSI)),
                })
                .collect()
        })
        .boxed()
}

/// DNS-1123 label names such as the API accepts for namespaces and most objects.
pub fn dns_label() -> impl Strategy<Value = String> {
    "[a-z]([a-z0-9-]{0,14}[a-z0-9])?"
}

/// Size and shape of generated pods.
#[derive(Debug, Clone)]
pub struct PodParams {
    /// Namespaces to pick from (`default` when empty).
    pub namespaces: Vec<String>,
    /// At most this many containers (at least one).
    pub max_containers: usize,
    /// Phases to pick from (`""` is a pod never reported on).
    pub phases: Vec<String>,
    /// PriorityClass names to pick from (`""` = none).
    pub priority_classes: Vec<String>,
    /// GPU resource the pods may request (`None`: no GPU requests).
    pub gpu_resource: Option<String>,
    /// Whether containers may have limits (cpu limit above the request) and pods an
    /// `activeDeadlineSeconds`.
    pub limits_and_deadlines: bool,
}

impl Default for PodParams {
    fn default() -> Self {
        PodParams {
            namespaces: vec!["default".into()],
            max_containers: 3,
            phases: ["", "Pending", "Running", "Succeeded", "Failed"]
                .map(String::from)
                .to_vec(),
            priority_classes: vec![String::new()],
            gpu_resource: Some("nvidia.com/gpu".into()),
            limits_and_deadlines: true,
        }
    }
}

/// Unbound pods (no `nodeName`) with 1..=`max_containers` containers. Each container may request
/// cpu (millicores) and memory (`Mi`), may have a cpu limit above its request, and may ask for
/// whole GPUs (request equal to limit, as the API requires for extended resources).
pub fn pod(params: PodParams) -> BoxedStrategy<Pod> {
    let namespaces = if params.namespaces.is_empty() {
        vec!["default".to_owned()]
    } else {
        params.namespaces.clone()
    };
    let phases = if params.phases.is_empty() {
        vec![String::new()]
    } else {
        params.phases.clone()
    };
    let classes = if params.priority_classes.is_empty() {
        vec![String::new()]
    } else {
        params.priority_classes.clone()
    };
    let gpu = params.gpu_resource.clone();
    let limits = params.limits_and_deadlines;
    (
        dns_label(),
        select(namespaces),
        ::proptest::collection::vec(
            (0u32..4000, 0u32..4096, any::<bool>(), 0u32..3),
            1..=params.max_containers.max(1),
        ),
        ::proptest::option::of(0i64..100),
        select(phases),
        select(classes),
    )
        .prop_map(
            move |(name, namespace, containers, deadline, phase, class)| {
                let mut pod = Pod::default();
                pod.metadata.name = name;
                pod.metadata.namespace = namespace;
                if limits {
                    pod.spec.active_deadline_seconds = deadline;
                }
                pod.status.phase = phase;
                pod.spec.priority_class_name = class;
                for (i, (cpu, mem, limit, gpus)) in containers.into_iter().enumerate() {
                    let mut c = Container {
                        name: format!("c{i}"),
                        ..Default::default()
                    };
                    if cpu > 0 {
                        c.resources
                            .requests
                            .insert("cpu", Quantity::from_millis(i64::from(cpu)));
                    }
                    if mem > 0 {
                        c.resources.requests.insert(
                            "memory",
                            Quantity::from_value(i64::from(mem) << 20, Format::BinarySI),
                        );
                    }
                    if limit && limits {
                        c.resources
                            .limits
                            .insert("cpu", Quantity::from_millis(i64::from(cpu) * 2 + 1));
                    }
                    if let (Some(g), true) = (&gpu, gpus > 0) {
                        let q = Quantity::from_value(i64::from(gpus), Format::DecimalSI);
                        c.resources.requests.insert(g.as_str(), q.clone());
                        c.resources.limits.insert(g.as_str(), q);
                    }
                    pod.spec.containers.push(c);
                }
                pod
            },
        )
        .boxed()
}

impl Arbitrary for Pod {
    type Parameters = PodParams;
    type Strategy = BoxedStrategy<Pod>;
    fn arbitrary_with(params: PodParams) -> Self::Strategy {
        pod(params)
    }
}

/// GPU models, as GPU feature discovery writes `nvidia.com/gpu.product`, with memory in MiB.
pub const GPU_PRODUCTS: &[(&str, u32)] = &[
    ("NVIDIA-A100-SXM4-80GB", 81920),
    ("NVIDIA-H100-80GB-HBM3", 81559),
    ("Tesla-V100-SXM2-16GB", 16384),
    ("NVIDIA-L4", 23034),
];

/// The heartbeat time every generated node reports (one time: no clock skew).
pub const HEARTBEAT: &str = "2026-01-01T00:00:00Z";

/// Shape of generated nodes.
#[derive(Debug, Clone)]
pub struct NodeParams {
    /// Probability (0.0..=1.0) that a node has GPUs.
    pub gpu_probability: f64,
    /// At most this many GPUs per GPU node (at least 1).
    pub max_gpus: u32,
    /// At most this many cores per node (at least 1).
    pub max_cores: u32,
    /// The GPU model every GPU node carries, as in `nvidia.com/gpu.product` (`None`: the first
    /// of [`GPU_PRODUCTS`]).
    pub gpu_product: Option<String>,
}

impl Default for NodeParams {
    fn default() -> Self {
        NodeParams {
            gpu_probability: 0.5,
            max_gpus: 8,
            max_cores: 64,
            gpu_product: None,
        }
    }
}

/// What a generated node looks like before it is named: cores, memory in GiB, GPUs.
#[derive(Debug, Clone, Copy)]
struct NodeShape {
    cores: u32,
    memory_gi: u32,
    gpus: u32,
}

fn node_shape(params: &NodeParams) -> impl Strategy<Value = NodeShape> + use<> {
    let p = params.gpu_probability.clamp(0.0, 1.0);
    (
        1u32..=params.max_cores.max(1),
        1u32..=16,
        ::proptest::bool::weighted(p),
        1u32..=params.max_gpus.max(1),
    )
        .prop_map(|(cores, mem_per_core, gpu, gpus)| NodeShape {
            cores,
            memory_gi: cores * mem_per_core.max(2),
            gpus: if gpu { gpus } else { 0 },
        })
}

/// Builds node number `index` of a snapshot: unique name, hostname label and InternalIP; Ready
/// since [`HEARTBEAT`]; kubelet v1.36.0 on Ubuntu with containerd; capacity equal to allocatable
/// (cores, memory, 110 pods, and `nvidia.com/gpu` with coherent GFD labels on GPU nodes).
fn build_node(index: usize, shape: NodeShape, product: &str) -> Node {
    let name = format!("node-{index}");
    let mut n = Node::default();
    n.metadata.name = name.clone();
    n.metadata.uid = format!("00000000-0000-4000-8000-{index:012}");
    let labels = &mut n.metadata.labels;
    labels.insert("kubernetes.io/hostname".into(), name.clone());
    labels.insert("kubernetes.io/os".into(), "linux".into());
    labels.insert("kubernetes.io/arch".into(), "amd64".into());
    let mut alloc = ResourceList::new();
    alloc.insert(
        "cpu",
        Quantity::from_value(i64::from(shape.cores), Format::DecimalSI),
    );
    alloc.insert(
        "memory",
        Quantity::from_value(i64::from(shape.memory_gi) << 30, Format::BinarySI),
    );
    alloc.insert("pods", Quantity::from_value(110, Format::DecimalSI));
    if shape.gpus > 0 {
        let mem = GPU_PRODUCTS
            .iter()
            .find(|(p, _)| *p == product)
            .map_or(16384, |(_, m)| *m);
        for (k, v) in [
            ("nvidia.com/gpu.present", "true".to_owned()),
            ("nvidia.com/gpu.product", product.to_owned()),
            ("nvidia.com/gpu.count", shape.gpus.to_string()),
            ("nvidia.com/gpu.memory", mem.to_string()),
            ("nvidia.com/cuda.driver.major", "570".to_owned()),
            ("nvidia.com/cuda.driver.minor", "133".to_owned()),
            ("nvidia.com/cuda.driver.rev", "20".to_owned()),
            ("nvidia.com/cuda.runtime.major", "12".to_owned()),
            ("nvidia.com/cuda.runtime.minor", "8".to_owned()),
        ] {
            labels.insert(k.into(), v);
        }
        alloc.insert(
            "nvidia.com/gpu",
            Quantity::from_value(i64::from(shape.gpus), Format::DecimalSI),
        );
    }
    n.status.capacity = alloc.clone();
    n.status.allocatable = alloc;
    let heartbeat: Option<Time> = HEARTBEAT.parse().ok();
    n.status.conditions.push(NodeCondition {
        type_: "Ready".into(),
        status: "True".into(),
        reason: "KubeletReady".into(),
        message: "kubelet is posting ready status".into(),
        last_heartbeat_time: heartbeat,
        last_transition_time: heartbeat,
    });
    n.status.addresses = vec![
        NodeAddress {
            type_: "InternalIP".into(),
            address: format!(
                "10.{}.{}.{}",
                1 + index / 65536,
                (index / 256) % 256,
                index % 256
            ),
        },
        NodeAddress {
            type_: "Hostname".into(),
            address: name,
        },
    ];
    let info = &mut n.status.node_info;
    info.os_image = "Ubuntu 24.04.3 LTS".into();
    info.kernel_version = "6.8.0-87-generic".into();
    info.container_runtime_version = "containerd://2.1.4".into();
    info.kubelet_version = "v1.36.0".into();
    info.operating_system = "linux".into();
    info.architecture = "amd64".into();
    n
}

/// Ready nodes named `node-<n>` (see [`cluster_snapshot`] for what "coherent" means); GPU nodes
/// with probability `gpu_probability`.
pub fn node(params: NodeParams) -> BoxedStrategy<Node> {
    let product = params
        .gpu_product
        .clone()
        .unwrap_or_else(|| GPU_PRODUCTS[0].0.to_owned());
    (0usize..10_000, node_shape(&params))
        .prop_map(move |(i, shape)| build_node(i, shape, &product))
        .boxed()
}

impl Arbitrary for Node {
    type Parameters = NodeParams;
    type Strategy = BoxedStrategy<Node>;
    fn arbitrary_with(params: NodeParams) -> Self::Strategy {
        node(params)
    }
}

/// The quota keys the generators use, with the matching pod resource.
const QUOTA_KEYS: &[(&str, &str)] = &[
    ("requests.cpu", "cpu"),
    ("requests.memory", "memory"),
    ("requests.nvidia.com/gpu", "nvidia.com/gpu"),
];

/// ResourceQuotas named `quota-<n>` in `namespace` (a random DNS label when `None`) with `hard`
/// on any of `requests.cpu`, `requests.memory`, `requests.nvidia.com/gpu` and `pods`, and a
/// `status` whose `used` is at most `hard` (or no status at all).
pub fn resource_quota(namespace: Option<String>) -> BoxedStrategy<ResourceQuota> {
    let ns = match namespace {
        Some(ns) => Just(ns).boxed(),
        None => dns_label().boxed(),
    };
    (
        ns,
        0u32..100,
        resource_list(select(QUOTA_HARD_KEYS).prop_map(ResourceName::new), 4),
        ::proptest::option::of(0u32..=100),
    )
        .prop_map(|(namespace, n, hard, used_percent)| {
            let mut q = ResourceQuota::default();
            q.metadata.name = format!("quota-{n}");
            q.metadata.namespace = namespace;
            q.spec.hard = hard.clone();
            q.status = used_percent.map(|pct| ResourceQuotaStatus {
                used: hard
                    .iter()
                    .map(|(k, v)| {
                        let used = v
                            .checked_mul_ratio(i64::from(pct), 100, -3)
                            .filter(|u| u <= v)
                            .unwrap_or(Quantity::ZERO);
                        (k.clone(), used.with_format(v.format()))
                    })
                    .collect(),
                hard,
            });
            q
        })
        .boxed()
}

impl Arbitrary for ResourceQuota {
    type Parameters = Option<String>;
    type Strategy = BoxedStrategy<ResourceQuota>;
    fn arbitrary_with(namespace: Option<String>) -> Self::Strategy {
        resource_quota(namespace)
    }
}

/// Valid LimitRanges named `limits` in `namespace` (a random DNS label when `None`): one
/// `Container` item with `min <= defaultRequest <= default <= max` for cpu and memory, the shape
/// the API server and the LimitRanger accept.
pub fn limit_range(namespace: Option<String>) -> BoxedStrategy<LimitRange> {
    let ns = match namespace {
        Some(ns) => Just(ns).boxed(),
        None => dns_label().boxed(),
    };
    (
        ns,
        ::proptest::collection::vec(1i64..=8000, 4),
        ::proptest::collection::vec(1i64..=16384, 4),
        any::<[bool; 2]>(),
    )
        .prop_map(|(namespace, mut cpu, mut mem, [with_min, with_max])| {
            cpu.sort_unstable();
            mem.sort_unstable();
            let mut item = LimitRangeItem {
                type_: "Container".into(),
                ..Default::default()
            };
            let mem_q = |mi: i64| Quantity::from_value(mi << 20, Format::BinarySI);
            item.default_request
                .insert("cpu", Quantity::from_millis(cpu[1]));
            item.default_request.insert("memory", mem_q(mem[1]));
            item.default.insert("cpu", Quantity::from_millis(cpu[2]));
            item.default.insert("memory", mem_q(mem[2]));
            if with_min {
                item.min.insert("cpu", Quantity::from_millis(cpu[0]));
                item.min.insert("memory", mem_q(mem[0]));
            }
            if with_max {
                item.max.insert("cpu", Quantity::from_millis(cpu[3]));
                item.max.insert("memory", mem_q(mem[3]));
            }
            let mut lr = LimitRange::default();
            lr.metadata.name = "limits".into();
            lr.metadata.namespace = namespace;
            lr.spec.limits.push(item);
            lr
        })
        .boxed()
}

impl Arbitrary for LimitRange {
    type Parameters = Option<String>;
    type Strategy = BoxedStrategy<LimitRange>;
    fn arbitrary_with(namespace: Option<String>) -> Self::Strategy {
        limit_range(namespace)
    }
}

/// Valid user PriorityClasses: a DNS-1123 name not starting with `system-`, a value in
/// `-1000..=1_000_000_000`, not the global default, preemption policy unset,
/// `PreemptLowerPriority` or `Never`.
pub fn priority_class() -> BoxedStrategy<PriorityClass> {
    (
        dns_label().prop_filter("reserved prefix", |n| !n.starts_with("system-")),
        -1000i32..=1_000_000_000,
        prop_oneof![
            Just(None),
            Just(Some("PreemptLowerPriority".to_owned())),
            Just(Some("Never".to_owned())),
        ],
    )
        .prop_map(|(name, value, policy)| PriorityClass {
            metadata: ObjectMeta {
                name,
                ..Default::default()
            },
            value,
            global_default: false,
            preemption_policy: policy,
            description: String::new(),
        })
        .boxed()
}

impl Arbitrary for PriorityClass {
    type Parameters = ();
    type Strategy = BoxedStrategy<PriorityClass>;
    fn arbitrary_with((): ()) -> Self::Strategy {
        priority_class()
    }
}

/// Size of generated resource groups.
#[derive(Debug, Clone)]
pub struct GroupParams {
    /// At most this many namespaces (at least 1).
    pub max_namespaces: usize,
    /// At most this many members.
    pub max_members: usize,
    /// When true, namespaces may also carry explicit per-bucket amounts and percentages that
    /// together exceed the bucket (groups `validate()` refuses); when false every group is valid
    /// (shares add up to at most 100% and no explicit amounts).
    pub allow_invalid_shares: bool,
}

impl Default for GroupParams {
    fn default() -> Self {
        GroupParams {
            max_namespaces: 4,
            max_members: 3,
            allow_invalid_shares: false,
        }
    }
}

/// Resource groups with one quota bucket `compute` on `requests.cpu`, `requests.memory` and
/// `requests.nvidia.com/gpu`, 1..=`max_namespaces` namespaces `<group>-<n>` with share
/// percentages, members with valid roles and an optional PriorityClass. With
/// `allow_invalid_shares` false every group passes `ResourceGroup::validate(None)`.
pub fn resource_group(params: GroupParams) -> BoxedStrategy<ResourceGroup> {
    let invalid = params.allow_invalid_shares;
    (
        "[a-z][a-z0-9]{0,9}",
        (0i64..=200_000, 0i64..=1_000_000, 0i64..=64),
        ::proptest::collection::vec(
            (
                0u32..=100,
                ::proptest::option::of((0i64..=100_000, 0i64..=500_000, 0i64..=32)),
            ),
            1..=params.max_namespaces.max(1),
        ),
        ::proptest::collection::vec(
            ("[a-z][a-z0-9]{0,7}", select(crate::group::MEMBER_ROLES)),
            0..=params.max_members,
        ),
        ::proptest::option::of(0i64..=1_000_000_000),
    )
        .prop_map(
            move |(name, (cpu_m, mem_mi, gpus), shares, members, prio)| {
                let hard: ResourceList = [
                    ("requests.cpu", Quantity::from_millis(cpu_m)),
                    (
                        "requests.memory",
                        Quantity::from_value(mem_mi << 20, Format::BinarySI),
                    ),
                    (
                        "requests.nvidia.com/gpu",
                        Quantity::from_value(gpus, Format::DecimalSI),
                    ),
                ]
                .into_iter()
                .collect();
                // valid shares: scale the raw weights so they add up to at most 100
                let total: u32 = shares.iter().map(|(p, _)| *p).sum();
                let mut namespaces = Vec::new();
                for (i, (pct, explicit)) in shares.into_iter().enumerate() {
                    let mut ns = GroupNamespace {
                        name: format!("{name}-{i}"),
                        ..Default::default()
                    };
                    if invalid {
                        ns.share_percent = Some(pct);
                        if let Some((c, m, g)) = explicit {
                            let list: ResourceList = [
                                ("requests.cpu", Quantity::from_millis(c)),
                                (
                                    "requests.memory",
                                    Quantity::from_value(m << 20, Format::BinarySI),
                                ),
                                (
                                    "requests.nvidia.com/gpu",
                                    Quantity::from_value(g, Format::DecimalSI),
                                ),
                            ]
                            .into_iter()
                            .collect();
                            ns.buckets.insert("compute".into(), list);
                        }
                    } else {
                        ns.share_percent = Some(if total > 100 { pct * 100 / total } else { pct });
                    }
                    namespaces.push(ns);
                }
                let mut seen = std::collections::BTreeSet::new();
                let members = members
                    .into_iter()
                    .filter(|(m, _)| seen.insert(m.clone()))
                    .map(|(m, role)| Member {
                        name: m,
                        kind: String::new(),
                        role: role.to_owned(),
                    })
                    .collect();
                ResourceGroup {
                    owner: format!("{name}-owner"),
                    members,
                    quota: vec![QuotaBucket {
                        name: "compute".into(),
                        hard,
                        ..Default::default()
                    }],
                    namespaces,
                    priority: prio.map(|value| GroupPriority {
                        class_name: format!("{name}-priority"),
                        value,
                        preemption_policy: None,
                    }),
                    name,
                    ..Default::default()
                }
            },
        )
        .boxed()
}

impl Arbitrary for ResourceGroup {
    type Parameters = GroupParams;
    type Strategy = BoxedStrategy<ResourceGroup>;
    fn arbitrary_with(params: GroupParams) -> Self::Strategy {
        resource_group(params)
    }
}

impl Arbitrary for Quantity {
    type Parameters = ();
    type Strategy = BoxedStrategy<Quantity>;
    fn arbitrary_with((): ()) -> Self::Strategy {
        prop_oneof![
            3 => resource_amount("cpu"),
            3 => resource_amount("memory"),
            2 => resource_amount("nvidia.com/gpu"),
            2 => quantity(18),
        ]
        .boxed()
    }
}

impl Arbitrary for ResourceName {
    type Parameters = ();
    type Strategy = BoxedStrategy<ResourceName>;
    fn arbitrary_with((): ()) -> Self::Strategy {
        resource_name().boxed()
    }
}

impl Arbitrary for ResourceList {
    type Parameters = ();
    type Strategy = BoxedStrategy<ResourceList>;
    fn arbitrary_with((): ()) -> Self::Strategy {
        resource_list(resource_name(), 6)
    }
}

/// Size of generated cluster snapshots.
#[derive(Debug, Clone)]
pub struct SnapshotParams {
    /// At least this many nodes.
    pub min_nodes: usize,
    /// At most this many nodes.
    pub max_nodes: usize,
    /// Shape of each node (GPU probability, cores, GPUs).
    pub node: NodeParams,
    /// At most this many workload namespaces (at least 1).
    pub max_namespaces: usize,
    /// At most this many pods tried per node (pods that would not fit are left out).
    pub max_pods_per_node: usize,
    /// At most this many PriorityClasses.
    pub max_priority_classes: usize,
    /// Give some namespaces a ResourceQuota (with `status.used` below 90% of `hard`).
    pub quotas: bool,
    /// Give every namespace that has a quota a LimitRange with defaults for cpu and memory.
    pub limit_ranges: bool,
}

impl SnapshotParams {
    /// A few nodes and pods: fast enough for hundreds of cases.
    pub fn small() -> Self {
        SnapshotParams {
            min_nodes: 1,
            max_nodes: 4,
            node: NodeParams::default(),
            max_namespaces: 3,
            max_pods_per_node: 4,
            max_priority_classes: 2,
            quotas: true,
            limit_ranges: true,
        }
    }
    /// Up to `nodes` nodes and 8 pods per node, 6 namespaces.
    pub fn with_nodes(nodes: usize) -> Self {
        SnapshotParams {
            max_nodes: nodes.max(1),
            max_namespaces: 6,
            max_pods_per_node: 8,
            max_priority_classes: 4,
            ..Self::small()
        }
    }
}

impl Default for SnapshotParams {
    fn default() -> Self {
        Self::small()
    }
}

/// One generated pod before placement: node pick, namespace pick, requests, GPUs, class pick.
type PodDraft = (Index, Index, u32, u32, u32, Option<Index>);

/// The device-plugin DaemonSet in `kube-system`, selecting the GPU nodes by
/// `nvidia.com/gpu.present=true` (the NVIDIA GPU Operator's selector), fully scheduled.
fn device_plugin(gpu_nodes: i32) -> DaemonSet {
    let mut ds = DaemonSet::default();
    ds.metadata.name = "nvidia-device-plugin-daemonset".into();
    ds.metadata.namespace = "kube-system".into();
    ds.spec
        .template
        .spec
        .node_selector
        .insert("nvidia.com/gpu.present".into(), "true".into());
    ds.spec.template.spec.containers.push(Container {
        name: "nvidia-device-plugin-ctr".into(),
        image: "nvcr.io/nvidia/k8s-device-plugin:v0.17.0".into(),
        ..Default::default()
    });
    let st = &mut ds.status;
    st.desired_number_scheduled = gpu_nodes;
    st.current_number_scheduled = gpu_nodes;
    st.number_ready = gpu_nodes;
    st.number_available = gpu_nodes;
    ds
}

/// Consistent cluster snapshots with no planted problem (see the module docs for the
/// invariants). Sizes come from `params`; node names are `node-<n>`, namespaces `team-<n>`, pods
/// `<namespace>-<n>`, PriorityClasses `tier-<n>` with distinct values.
pub fn cluster_snapshot(params: SnapshotParams) -> BoxedStrategy<ClusterSnapshot> {
    let min_nodes = params.min_nodes.max(1);
    let max_nodes = params.max_nodes.max(min_nodes);
    let product = params
        .node
        .gpu_product
        .clone()
        .unwrap_or_else(|| GPU_PRODUCTS[0].0.to_owned());
    let quotas = params.quotas;
    let limit_ranges = params.limit_ranges;
    let max_ns = params.max_namespaces.max(1);
    let max_pods_per_node = params.max_pods_per_node;
    let max_classes = params.max_priority_classes;
    let shape = node_shape(&params.node);
    (
        ::proptest::collection::vec(shape, min_nodes..=max_nodes),
        1usize..=max_ns,
        ::proptest::collection::vec(any::<bool>(), max_ns),
        ::proptest::collection::btree_set(0i32..=1_000_000, 0..=max_classes),
    )
        .prop_flat_map(move |(shapes, namespaces, with_quota, class_values)| {
            let max_pods = shapes.len() * max_pods_per_node;
            let draft = (
                any::<Index>(),
                any::<Index>(),
                0u32..=4000,
                0u32..=8192,
                0u32..=2,
                ::proptest::option::of(any::<Index>()),
            );
            (
                Just(shapes),
                Just(namespaces),
                Just(with_quota),
                Just(class_values),
                ::proptest::collection::vec(draft, 0..=max_pods),
            )
        })
        .prop_map(
            move |(shapes, namespaces, with_quota, class_values, drafts)| {
                build_snapshot(
                    &shapes,
                    namespaces,
                    &with_quota,
                    &class_values,
                    drafts,
                    &product,
                    quotas,
                    limit_ranges,
                )
            },
        )
        .boxed()
}

#[allow(clippy::too_many_arguments)]
fn build_snapshot(
    shapes: &[NodeShape],
    namespaces: usize,
    with_quota: &[bool],
    class_values: &std::collections::BTreeSet<i32>,
    drafts: Vec<PodDraft>,
    product: &str,
    quotas: bool,
    limit_ranges: bool,
) -> ClusterSnapshot {
    let mut s = ClusterSnapshot {
        nodes: shapes
            .iter()
            .enumerate()
            .map(|(i, sh)| build_node(i, *sh, product))
            .collect(),
        ..Default::default()
    };
    let ns_names: Vec<String> = (0..namespaces).map(|i| format!("team-{i}")).collect();
    for ns in &ns_names {
        let mut n = Namespace::default();
        n.metadata.name = ns.clone();
        n.status.phase = "Active".into();
        s.namespaces.push(n);
    }
    s.priority_classes = class_values
        .iter()
        .enumerate()
        .map(|(i, v)| PriorityClass {
            metadata: ObjectMeta {
                name: format!("tier-{i}"),
                ..Default::default()
            },
            value: *v,
            ..Default::default()
        })
        .collect();
    // free (millicores, MiB, GPUs, pod slots) per node
    let mut free: Vec<(i64, i64, i64, i64)> = shapes
        .iter()
        .map(|sh| {
            (
                i64::from(sh.cores) * 1000,
                i64::from(sh.memory_gi) * 1024,
                i64::from(sh.gpus),
                110,
            )
        })
        .collect();
    let gpu_nodes: Vec<usize> = (0..shapes.len()).filter(|i| shapes[*i].gpus > 0).collect();
    let mut per_ns: BTreeMap<usize, usize> = BTreeMap::new();
    for (node_pick, ns_pick, cpu_m, mem_mi, gpus, class_pick) in drafts {
        let (cpu_m, mem_mi) = (i64::from(cpu_m.max(10)), i64::from(mem_mi.max(16)));
        let gpus = i64::from(gpus);
        let node = if gpus > 0 {
            if gpu_nodes.is_empty() {
                continue;
            }
            gpu_nodes[node_pick.index(gpu_nodes.len())]
        } else {
            node_pick.index(shapes.len())
        };
        let f = &mut free[node];
        if f.0 < cpu_m || f.1 < mem_mi || f.2 < gpus || f.3 < 1 {
            continue;
        }
        *f = (f.0 - cpu_m, f.1 - mem_mi, f.2 - gpus, f.3 - 1);
        let ns_index = ns_pick.index(ns_names.len());
        let n = per_ns.entry(ns_index).or_default();
        let mut pod = Pod::default();
        pod.metadata.name = format!("{}-{n}", ns_names[ns_index]);
        *n += 1;
        pod.metadata.namespace = ns_names[ns_index].clone();
        pod.metadata.uid = format!("00000000-0000-4000-9000-{:012}", s.pods.len());
        pod.spec.node_name = s.nodes[node].metadata.name.clone();
        pod.spec.scheduler_name = "default-scheduler".into();
        pod.spec.restart_policy = "Always".into();
        if let (Some(pick), false) = (class_pick, s.priority_classes.is_empty()) {
            let pc = &s.priority_classes[pick.index(s.priority_classes.len())];
            pod.spec.priority_class_name = pc.metadata.name.clone();
            pod.spec.priority = Some(pc.value);
        } else {
            pod.spec.priority = Some(0);
        }
        let mut c = Container {
            name: "main".into(),
            image: "registry.example/train:1.0".into(),
            ..Default::default()
        };
        c.resources
            .requests
            .insert("cpu", Quantity::from_millis(cpu_m));
        c.resources.requests.insert(
            "memory",
            Quantity::from_value(mem_mi << 20, Format::BinarySI),
        );
        c.resources.limits.insert(
            "memory",
            Quantity::from_value(mem_mi << 20, Format::BinarySI),
        );
        if gpus > 0 {
            let g = Quantity::from_value(gpus, Format::DecimalSI);
            c.resources.requests.insert("nvidia.com/gpu", g.clone());
            c.resources.limits.insert("nvidia.com/gpu", g);
        }
        pod.spec.containers.push(c);
        pod.status.phase = "Running".into();
        pod.status.qos_class = "Burstable".into();
        pod.status.start_time = HEARTBEAT.parse().ok();
        s.pods.push(pod);
    }
    if !gpu_nodes.is_empty() {
        s.daemon_sets.push(device_plugin(
            i32::try_from(gpu_nodes.len()).unwrap_or(i32::MAX),
        ));
        let mut ks = Namespace::default();
        ks.metadata.name = "kube-system".into();
        ks.status.phase = "Active".into();
        s.namespaces.push(ks);
    }
    if quotas {
        for (i, ns) in ns_names.iter().enumerate() {
            if !with_quota.get(i).copied().unwrap_or(false) {
                continue;
            }
            let mut used = ResourceList::new();
            for (key, resource) in QUOTA_KEYS {
                if *resource == "nvidia.com/gpu" && gpu_nodes.is_empty() {
                    continue;
                }
                let sum = Quantity::checked_sum(
                    s.pods
                        .iter()
                        .filter(|p| &p.metadata.namespace == ns)
                        .flat_map(|p| &p.spec.containers)
                        .filter_map(|c| c.resources.requests.get(resource)),
                )
                .unwrap_or(Quantity::ZERO);
                used.insert(*key, sum);
            }
            // hard = 2 * used + one unit: used stays below 90% of hard
            let hard: ResourceList = used
                .iter()
                .map(|(k, u)| {
                    let unit = match k.as_str() {
                        "requests.cpu" => Quantity::from_value(1, Format::DecimalSI),
                        "requests.memory" => Quantity::from_value(1 << 30, Format::BinarySI),
                        _ => Quantity::from_value(1, Format::DecimalSI),
                    };
                    let format = unit.format();
                    let h = u
                        .checked_mul(2)
                        .and_then(|d| d.checked_add(&unit))
                        .unwrap_or(unit);
                    (k.clone(), h.with_format(format))
                })
                .collect();
            let mut q = ResourceQuota::default();
            q.metadata.name = "compute".into();
            q.metadata.namespace = ns.clone();
            q.spec.hard = hard.clone();
            q.status = Some(ResourceQuotaStatus { hard, used });
            s.resource_quotas.push(q);
            if limit_ranges {
                let mut item = LimitRangeItem {
                    type_: "Container".into(),
                    ..Default::default()
                };
                item.default_request
                    .insert("cpu", Quantity::from_millis(100));
                item.default_request
                    .insert("memory", Quantity::from_value(128 << 20, Format::BinarySI));
                item.default.insert("cpu", Quantity::from_millis(500));
                item.default
                    .insert("memory", Quantity::from_value(512 << 20, Format::BinarySI));
                let mut lr = LimitRange::default();
                lr.metadata.name = "defaults".into();
                lr.metadata.namespace = ns.clone();
                lr.spec.limits.push(item);
                s.limit_ranges.push(lr);
            }
        }
    }
    s
}

impl Arbitrary for ClusterSnapshot {
    type Parameters = SnapshotParams;
    type Strategy = BoxedStrategy<ClusterSnapshot>;
    fn arbitrary_with(params: SnapshotParams) -> Self::Strategy {
        cluster_snapshot(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    ::proptest::proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn snapshots_are_consistent(s in cluster_snapshot(SnapshotParams::small())) {
            let names: std::collections::BTreeSet<&str> =
                s.nodes.iter().map(|n| n.metadata.name.as_str()).collect();
            prop_assert_eq!(names.len(), s.nodes.len());
            let namespaces: std::collections::BTreeSet<&str> =
                s.namespaces.iter().map(|n| n.metadata.name.as_str()).collect();
            for p in &s.pods {
                prop_assert!(names.contains(p.spec.node_name.as_str()));
                prop_assert!(namespaces.contains(p.metadata.namespace.as_str()));
            }
            for q in &s.resource_quotas {
                prop_assert!(namespaces.contains(q.metadata.namespace.as_str()));
                let st = q.status.as_ref().expect("status");
                for (k, used) in &st.used {
                    let hard = q.spec.hard.get(k.as_str()).expect("hard");
                    prop_assert!(used.checked_mul(10).expect("fits") < hard.checked_mul(9).expect("fits"));
                }
            }
            for n in &s.nodes {
                let mut req = ResourceList::new();
                for p in s.pods.iter().filter(|p| p.spec.node_name == n.metadata.name) {
                    for c in &p.spec.containers {
                        req.add_assign(&c.resources.requests).expect("sum");
                    }
                }
                prop_assert!(req.fits_within(&n.status.allocatable).is_ok());
                let gpus = n.status.allocatable.get("nvidia.com/gpu");
                let label = n.metadata.labels.get("nvidia.com/gpu.count");
                prop_assert_eq!(gpus.map(|q| q.value().to_string()), label.map(str::to_owned));
            }
        }

        #[test]
        fn valid_groups_validate(g in resource_group(GroupParams::default())) {
            prop_assert_eq!(g.validate(None), Ok(()));
        }

        #[test]
        fn limit_ranges_are_ordered(lr in limit_range(None)) {
            let item = &lr.spec.limits[0];
            for k in ["cpu", "memory"] {
                prop_assert!(item.default_request.get(k) <= item.default.get(k));
            }
        }
    }
}
