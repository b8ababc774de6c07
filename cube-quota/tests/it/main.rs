//! cube-quota integration tests as modules of one test binary (one link instead of one per file).

mod admission_fast_path;
mod admission_gaps;
mod admission_messages;
mod admission_parse;
mod daemonset_whatif;
mod fit_scheduler_messages;
mod incremental_whatif;
mod limitrange_vectors;
mod must_specify_whatif;
mod plan_groups;
mod plan_reports;
mod plan_split;
mod pod_requests_vectors;
mod podfilters_whatif;
mod preemption_victims;
mod preemption_whatif;
mod quota_usage_fixtures;
mod quota_usage_vectors;
mod runtimeclass_whatif;
mod sched_grammar;
mod volume_filters_whatif;
mod what_if_projection;
