//! cube-cluster integration tests as modules of one test binary (one link instead of one per file).

mod api_seams;
mod apply_plan;
mod classify_props;
mod classify_texts;
mod connect_classes;
mod connect_double;
mod connect_import_flow;
mod connect_live;
mod fleet_probe;
mod hostile_server;
mod join_commands;
mod join_props;
mod kubeconfig_edges;
mod kubeconfig_fixtures;
mod kubeconfig_import;
mod kubeconfig_props;
mod manifests_least_privilege;
mod probe_many;
mod profiles_checks;
mod profiles_live;
mod rbac_fixtures;
mod rbac_snapshot;
mod rbac_vectors;
mod registry_file;
mod snapshot_collect;
mod support;
