//! `cube-quota`: Kubernetes-exact pod requests, ResourceQuota, LimitRange, priority and
//! admission math, without I/O.
//!
//! Module map:
//! - [`requests`]: pod effective requests/limits (`PodRequests`/`PodLimits`), QoS class.
//! - [`error`]: the crate's error enum.

pub mod error;
pub mod requests;

pub use error::{Error, Result};
pub mod limitrange;
pub mod priority;
pub mod quota;
pub mod validation;
