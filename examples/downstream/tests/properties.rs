//! Property tests a downstream team writes against cube-rs, using only the published surface and
//! the `proptest` feature's generators:
//! - quota admission: what admission lets in never takes a quota past `hard`, and a quota with
//!   room for the whole pod never refuses it;
//! - group plans: a valid group always plans, and the namespaces' quotas never add up to more
//!   than the group's bucket;
//! - diagnosis: a snapshot with no planted problem gets no error finding, and the same snapshot
//!   with one planted problem (a node that stopped being Ready) gets exactly that error.

use cube_diagnose::{Context, Engine, Severity};
use cube_model::proptest::{GroupParams, SnapshotParams, cluster_snapshot, resource_group};
use cube_model::{ClusterSnapshot, Quantity, ResourceList};
use cube_quota::plan::plan_group;
use cube_quota::proptest::{WorkloadParams, submission};
use cube_quota::whatif::{AdmitOptions, Submission, admit};
use proptest::prelude::*;

/// Sum of the container requests of every replica pod of `s` (after no defaulting).
fn requested(s: &Submission) -> Option<ResourceList> {
    let Submission::Workload(w) = s else {
        return None;
    };
    let mut total = ResourceList::new();
    for c in &w.template.spec.containers {
        total.add_assign(&c.resources.requests).ok()?;
    }
    Some(total)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Admission never over-commits a quota: after the admitted replicas are charged, every
    /// quota of the namespace still has `used <= hard`; and when every quota has room for all
    /// replicas (and no LimitRange can change the pod), nothing is refused for quota.
    #[test]
    fn quota_admission_never_exceeds_hard(
        snapshot in cluster_snapshot(SnapshotParams { limit_ranges: false, ..SnapshotParams::small() }),
        job in submission(WorkloadParams::in_namespaces(&["team-0"])),
    ) {
        let outcome = admit(&job, "", &snapshot, &AdmitOptions::default());
        prop_assert!(outcome.admitted <= outcome.requested);
        for q in &outcome.quotas_after {
            for (key, used) in &q.used {
                if let Some(hard) = q.hard.get(key.as_str()) {
                    prop_assert!(used <= hard, "{}/{}: {key} used {used} > hard {hard}", q.namespace, q.name);
                }
            }
        }
        let quotas: Vec<_> = snapshot.resource_quotas.iter().filter(|q| q.metadata.namespace == "team-0").collect();
        let has_limit_range = snapshot.limit_ranges.iter().any(|l| l.metadata.namespace == "team-0");
        if let (Some(req), false) = (requested(&job), has_limit_range) {
            let replicas = i64::from(outcome.requested);
            let fits_all = quotas.iter().all(|q| {
                let status = q.status.as_ref();
                q.spec.hard.iter().all(|(key, hard)| {
                    let resource = key.as_str().strip_prefix("requests.").unwrap_or(key.as_str());
                    let want = req.get(resource).and_then(|r| r.checked_mul(replicas)).unwrap_or(Quantity::ZERO);
                    let used = status.and_then(|s| s.used.get(key.as_str())).cloned().unwrap_or(Quantity::ZERO);
                    used.checked_add(&want).is_some_and(|total| &total <= hard)
                })
            });
            let every_container_states_cpu_and_memory = matches!(&job, Submission::Workload(w)
                if w.template.spec.containers.iter().all(|c| c.resources.requests.contains("cpu") && c.resources.requests.contains("memory")));
            if fits_all && (quotas.is_empty() || every_container_states_cpu_and_memory) {
                prop_assert!(
                    outcome.rejection().is_none_or(|r| !r.message.contains("quota")),
                    "refused although every quota has room: {:?}", outcome.rejection()
                );
            }
        }
    }

    /// A valid resource group always plans, with one quota per namespace that never exceeds the
    /// group's bucket for any resource, even summed over the namespaces.
    #[test]
    fn group_plans_stay_within_the_bucket(group in resource_group(GroupParams::default())) {
        prop_assert_eq!(group.validate(None), Ok(()));
        let plan = plan_group(&group, None).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(plan.quotas.len(), group.namespaces.len());
        for (key, hard) in &group.quota[0].hard {
            let mut sum = Quantity::ZERO;
            for q in &plan.quotas {
                let v = q.hard.get(key.as_str()).cloned().unwrap_or(Quantity::ZERO);
                prop_assert!(!v.is_negative());
                sum = sum.checked_add(&v).expect("sum fits");
            }
            prop_assert!(&sum <= hard, "{key}: namespaces get {sum}, the group has {hard}");
        }
    }

    /// A consistent snapshot with no planted problem gets no error finding; making one node
    /// NotReady gets a `node-not-ready` error about that node.
    #[test]
    fn diagnosis_has_no_error_without_a_planted_problem(
        snapshot in cluster_snapshot(SnapshotParams::with_nodes(6)),
        broken in any::<prop::sample::Index>(),
    ) {
        let report = Engine::new().run(&Context::new(&snapshot));
        let errors: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .map(|f| format!("{} {}: {}", f.rule_id, f.subject, f.message))
            .collect();
        prop_assert!(errors.is_empty(), "error findings on a healthy snapshot: {errors:#?}");
        prop_assert_eq!(report.exit_code(), 0);

        let mut planted: ClusterSnapshot = snapshot.clone();
        let node = broken.index(planted.nodes.len());
        let ready = planted.nodes[node]
            .status
            .conditions
            .iter_mut()
            .find(|c| c.type_ == "Ready")
            .expect("generated nodes have a Ready condition");
        ready.status = "False".into();
        ready.reason = "KubeletNotReady".into();
        ready.message = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized".into();
        let report = Engine::new().run(&Context::new(&planted));
        let name = planted.nodes[node].metadata.name.clone();
        prop_assert!(
            report.by_rule("node-not-ready").any(|f| f.severity == Severity::Error && f.subject.name == name),
            "no node-not-ready error for {name}: {:#?}", report.findings
        );
        prop_assert_eq!(report.exit_code(), 1);
    }
}

/// What a service holds across `.await` in a spawned task is `Send + Sync` (compile-time checks).
fn send_sync<T: Send + Sync + ?Sized>() {}

#[test]
fn seams_and_values_a_service_holds_are_send_and_sync() {
    send_sync::<cube_quota::whatif::AdmitOptions<'static>>();
    send_sync::<dyn cube_quota::whatif::SchedulingStep>();
    send_sync::<cube_diagnose::Engine>();
    send_sync::<cube_diagnose::Report>();
    send_sync::<cube_model::ClusterSnapshot>();
    send_sync::<dyn cube_cluster::api::ClusterApi>();
    send_sync::<dyn cube_cluster::api::ServerInfo>();
    send_sync::<dyn cube_cluster::api::ObjectReader>();
    send_sync::<dyn cube_cluster::api::ObjectApplier>();
    send_sync::<dyn cube_cluster::profiles::AccessReviewer>();
    let _held: std::sync::Arc<dyn cube_cluster::api::ClusterApi> =
        std::sync::Arc::new(cube_cluster::memory::MemoryCluster::new());
}
