//! `cube-model`: exact, serde-ready models for a shared Kubernetes GPU/CPU compute pool.
//!
//! Module map:
//! - [`quantity`]: [`Quantity`] with Kubernetes' exact `resource.Quantity` semantics.
//! - [`resource`]: [`ResourceName`] and [`ResourceList`].
//! - [`objects`]: slim typed Kubernetes objects (Node, Pod, ResourceQuota, ...).
//! - [`import`]: [`import::ImportReport`], plain data of a cluster import.
//! - [`snapshot`]: [`ClusterSnapshot`], loaded from `kubectl get -o json|yaml` output.
//!
//! No network I/O and no async runtime here.

pub mod import;
pub mod objects;
pub mod quantity;
pub mod resource;
pub mod snapshot;

pub use quantity::{Format, ParseQuantityError, Quantity};
pub use resource::{ResourceList, ResourceName};
pub use snapshot::{ClusterSnapshot, LoadProblem};
