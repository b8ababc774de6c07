//! cube-cluster
pub mod rbac;
