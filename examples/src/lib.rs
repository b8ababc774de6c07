//! Shared helpers for the cube-rs example programs.
