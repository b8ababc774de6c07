//! `cube-quota`: Kubernetes-exact pod requests, ResourceQuota, LimitRange, priority and
//! admission math, without I/O.
//!
//! Module map:
//! - [`requests`]: pod effective requests/limits (`PodRequests`/`PodLimits`), QoS class.
//! - [`error`]: the crate's error enum.
//! - [`fit`]: node fit with the scheduler's reasons and summary, GPU fragmentation, the `NodeUsage` index.
//! - [`preemption`]: preemption victims and candidate node, as the default scheduler.

pub mod error;
pub mod fit;
pub mod preemption;
pub mod requests;

pub use error::{Error, Result};
pub mod limitrange;
pub mod priority;
pub mod quota;
pub mod validation;
pub mod whatif;
