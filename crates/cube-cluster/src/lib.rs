//! cube-cluster
pub mod join;
pub mod rbac;
