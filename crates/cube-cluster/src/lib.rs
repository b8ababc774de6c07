//! cube-cluster
pub mod join;
pub mod profiles;
pub mod rbac;
