//! `cube-model`: exact, serde-ready models for a shared Kubernetes GPU/CPU compute pool.
//!
//! Module map:
//! - [`quantity`]: [`Quantity`] with Kubernetes' exact `resource.Quantity` semantics.
//! - [`resource`]: [`ResourceName`] and [`ResourceList`].
//! - [`selector`]: label selector strings and objects, node selectors and affinity, taints and
//!   tolerations, name validation, with upstream semantics.
//! - [`objects`]: slim typed Kubernetes objects (Node, Pod, ResourceQuota, ...).
//! - [`snapshot`]: [`ClusterSnapshot`], loaded from `kubectl get -o json|yaml` output.
//! - [`error`]: the crate's [`Error`] and per-operation error enums.
//!
//! No network I/O and no async runtime here.

pub mod error;
pub mod objects;
pub mod quantity;
pub mod resource;
pub mod selector;
pub mod snapshot;

pub use error::{Error, ResourceError, ResourceNameError, SelectorError};
pub use quantity::{Format, ParseQuantityError, Quantity};
pub use resource::{Insufficient, QuotaForm, ResourceList, ResourceName};
pub use selector::{
    Selector, parse_label_selector, parse_selector, pod_matches_node_selector_and_affinity,
};
pub use snapshot::{ClusterSnapshot, LoadProblem};
