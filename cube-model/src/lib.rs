//! `cube-model`: exact, serde-ready models for a shared Kubernetes GPU/CPU compute pool.
//!
//! Module map:
//! - [`quantity`]: [`Quantity`] with Kubernetes' exact `resource.Quantity` semantics.
//! - [`resource`]: [`ResourceName`] and [`ResourceList`].
//! - [`selector`]: label selector strings and objects, node selectors and affinity, taints and
//!   tolerations, name validation, with upstream semantics.
//! - [`node`]: [`NodeInfo`]: identity, readiness, versions and GPU facts of one node.
//! - [`pool`]: [`NodePool`]: nodes picked by a selector, totals, free capacity, consistency.
//! - [`cluster`]: [`Cluster`] and [`ClusterRegistry`]: target-cluster selection with labels, taints
//!   and a default cluster.
//! - [`placement`]: cluster placement with a reason per cluster (labels, taints, health, free
//!   GPUs) and a policy over task templates (selector required, production default fallback).
//! - [`group`]: [`ResourceGroup`]: a team's members, quota buckets, namespaces, placement,
//!   priority and GPU names, with `validate()` reporting every problem.
//! - [`cubestudio`]: CubeStudio GPU request strings ([`GpuRequest`]) and project expand JSON.
//! - [`convert`]: conversions from `k8s_openapi` objects.
//! - [`objects`]: slim typed Kubernetes objects (Node, Pod, ResourceQuota, ...).
//! - [`import`]: [`import::ImportReport`], plain data of a cluster import.
//! - [`snapshot`]: [`ClusterSnapshot`], loaded from `kubectl get -o json|yaml` output.
//! - [`describe`]: readers for `kubectl describe` text and `kubectl get` tables.
//! - [`paste`]: terminal and issue pastes cut into sections (prompts, fences) and cleaned lines
//!   (ANSI, CRLF, journald/klog/CRI/timestamp prefixes).
//! - [`error`]: the crate's [`Error`] and per-operation error enums.
//! - `proptest` (crate feature `proptest`): public property-test strategies and
//!   `proptest::arbitrary::Arbitrary` impls for quantities, resource lists, the slim objects,
//!   resource groups and consistent [`ClusterSnapshot`]s.
//! - [`limits`]: [`Limits`], every bound on input size and work, and [`LimitExceeded`].
//! - [`io`]: the one bounded file reader (refuses FIFOs, devices and directories).
//! - [`redact`]: [`redact::Secret`] and [`redact::redact`], the one redactor.
//! - [`terminal`]: escaping control and bidirectional characters for human-readable output.
//! - [`yaml`]: YAML reading with one alias-expansion budget per file ([`yaml::AliasBudget`]).
//!
//! No network I/O and no async runtime here.

pub mod accelerator;
pub mod cloudpool;
pub mod cluster;
pub mod convert;
pub mod cubestudio;
pub mod describe;
pub mod error;
pub mod gpu;
pub mod group;
pub mod hostfacts;
pub mod import;
pub mod io;
pub mod labels;
pub mod limits;
pub mod node;
pub mod objects;
pub mod paste;
pub mod placement;
pub mod pool;
pub mod projection;
#[cfg(feature = "proptest")]
pub mod proptest;
pub mod quantity;
pub mod redact;
pub mod resource;
pub mod selector;
pub mod smi;
pub mod snapshot;
pub mod sparse;
pub mod status;
pub mod terminal;
mod timestamp;
pub mod yaml;

pub use cluster::{Cluster, ClusterRegistry, KubeconfigRef, KubeconfigSource, SecretKeyRef};
pub use cubestudio::{GpuRequest, ProjectExpand};
pub use error::{
    ClusterSelectError, Error, ExpandError, GpuRequestError, ResourceError, ResourceNameError,
    SelectorError,
};
pub use group::{GroupProblem, GroupProblemKind, ResourceGroup};
pub use limits::{Limit, LimitExceeded, Limits};
pub use node::{GpuFacts, GpuVendor, NodeAttribute, NodeInfo};
pub use pool::{ConsistencyReport, NodePool, PoolUsage};
pub use projection::PodFields;
pub use quantity::{Format, ParseQuantityError, Quantity};
pub use resource::{Insufficient, QuotaForm, ResourceList, ResourceName};
pub use selector::{
    Selector, parse_label_selector, parse_selector, pod_matches_node_selector_and_affinity,
};
pub use snapshot::{
    ClusterSnapshot, ConflictNote, DuplicateNote, InputFormat, LoadOutcome, LoadProblem,
    NotSnapshot, StreamOutcome, detect_format,
};
