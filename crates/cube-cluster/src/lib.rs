//! cube-cluster
