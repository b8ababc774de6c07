//! cube-model integration tests, one binary (modules by area). `quantity_alloc` stays a binary of its own: it installs a counting global allocator.

mod api_stability;
mod node_fixtures;
mod node_text_fixtures;
mod quantity_props;
mod quantity_vectors;
mod resource_group_example;
mod snapshot_describe;
mod snapshot_fixtures;
mod snapshot_gpu_cluster;
mod snapshot_hostile;
mod snapshot_problems;
mod snapshot_salvage;
mod support;
