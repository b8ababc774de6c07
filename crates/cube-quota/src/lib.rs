//! cube-quota
