//! cube-cluster
pub mod join;
pub mod manifests;
pub mod profiles;
pub mod rbac;
