//! cube-diagnose integration tests as modules of one test binary (one link instead of one per file).

mod fixtures;
mod hostile;
mod input_problems;
mod output_formats;
mod pastes;
mod sarif_schema;
mod scaling;
mod status_and_host_facts;
mod subjects_and_layout;
mod suppressions;
