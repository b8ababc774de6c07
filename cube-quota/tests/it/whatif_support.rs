//! Helpers shared by the what-if pipeline tests (`daemonset_whatif`, `podfilters_whatif`): run a
//! manifest through `whatif::admit` with the default `FitScheduler`, and read where the replicas
//! went.

use cube_model::ClusterSnapshot;
use cube_quota::preemption::FitScheduler;
use cube_quota::schedmsg::SchedulerVersion;
use cube_quota::whatif::{AdmissionOutcome, AdmitOptions, Submission, admit};

/// `manifest` (YAML or JSON, one workload) admitted into `snapshot` with a `FitScheduler` that
/// mirrors the scheduler of `version`; the namespace is the manifest's own.
pub fn run_version(
    snapshot: &ClusterSnapshot,
    manifest: &str,
    version: SchedulerVersion,
) -> AdmissionOutcome {
    let sched = FitScheduler {
        version,
        ..FitScheduler::default()
    };
    let opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    let sub = Submission::parse(manifest).expect("manifest");
    admit(&sub, "", snapshot, &opts)
}

/// [`run_version`] with the newest scheduler.
pub fn run(snapshot: &ClusterSnapshot, manifest: &str) -> AdmissionOutcome {
    run_version(snapshot, manifest, SchedulerVersion::LATEST)
}

/// The nodes the schedulable replicas were placed on, in replica order.
pub fn placed_nodes(out: &AdmissionOutcome) -> Vec<String> {
    out.replicas
        .iter()
        .filter_map(|r| r.scheduling.as_ref())
        .filter(|s| s.schedulable)
        .filter_map(|s| s.node.clone())
        .collect()
}
