//! cube-diagnose
