//! `cube-model`: exact, serde-ready models for a shared Kubernetes GPU/CPU compute pool.
//!
//! Module map:
//! - [`quantity`]: [`Quantity`] with Kubernetes' exact `resource.Quantity` semantics.
//! - [`resource`]: [`ResourceName`] and [`ResourceList`].
//! - [`objects`]: slim typed Kubernetes objects (Node, Pod, ResourceQuota, ...).
//! - [`snapshot`]: [`ClusterSnapshot`], loaded from `kubectl get -o json|yaml` output.
//! - [`describe`]: readers for `kubectl describe node|pod` text and `kubectl get` tables.
//!
//! No network I/O and no async runtime here.

pub mod describe;
pub mod objects;
pub mod quantity;
pub mod resource;
pub mod snapshot;

pub use quantity::{Format, ParseQuantityError, Quantity};
pub use resource::{ResourceList, ResourceName};
pub use snapshot::{
    ClusterSnapshot, InputFormat, LoadOutcome, LoadProblem, NotSnapshot, detect_format,
};
