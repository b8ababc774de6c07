//! `cube-downstream`: stands for a service team's crate that links cube-rs and tests against it
//! in its own CI. Its property tests (`tests/properties.rs`) use only the published surface of
//! `cube-model`, `cube-quota` and `cube-diagnose`, with the `proptest` feature
//! (`cube_model::proptest`, `cube_quota::proptest`). Not published.
//!
//! The crate's documentation is `docs/embedding.md`, so its examples (a console backend, an
//! operator loop, a CI check) compile and run as this crate's doctests in
//! `cargo test --workspace`.
#![doc = include_str!("../../../docs/embedding.md")]
