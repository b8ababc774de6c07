//! Property-test strategies for admission inputs (crate feature `proptest`, which also enables
//! `cube-model/proptest`: snapshots, pods, quotas and groups come from
//! [`cube_model::proptest`]).
//!
//! ```
//! use cube_model::proptest::{SnapshotParams, cluster_snapshot};
//! use cube_quota::proptest::{WorkloadParams, submission};
//! use cube_quota::whatif::{AdmitOptions, admit};
//! use proptest::prelude::*;
//!
//! proptest! {
//!     #![proptest_config(ProptestConfig::with_cases(8))]
//!     // `#[test]` in a real test file
//!     fn admitted_never_exceeds_requested(
//!         s in cluster_snapshot(SnapshotParams::small()),
//!         job in submission(WorkloadParams::in_namespaces(&["team-0"])),
//!     ) {
//!         let out = admit(&job, "", &s, &AdmitOptions::default());
//!         prop_assert!(out.admitted <= out.requested);
//!     }
//! }
//! # fn main() { admitted_never_exceeds_requested(); }
//! ```

use ::proptest::arbitrary::Arbitrary;
use ::proptest::prelude::*;
use ::proptest::sample::select;
use ::proptest::strategy::BoxedStrategy;
use cube_model::objects::PodTemplateSpec;
use cube_model::proptest::{PodParams, pod};

use crate::whatif::{Submission, Workload, WorkloadKind};

/// Shape of generated workloads.
#[derive(Debug, Clone)]
pub struct WorkloadParams {
    /// The pods' shape (namespaces, containers, GPU resource, priority classes).
    pub pod: PodParams,
    /// At most this many replicas (at least 1).
    pub max_replicas: u32,
    /// Kinds to pick from (`Pod` when empty). `DaemonSet` is left out by default: its replica
    /// count depends on the snapshot's nodes.
    pub kinds: Vec<WorkloadKind>,
}

impl WorkloadParams {
    /// Workloads whose pods land in one of `namespaces`, with requests only (no limits or
    /// deadlines) and phase unset, as a user submits them.
    pub fn in_namespaces(namespaces: &[&str]) -> Self {
        WorkloadParams {
            pod: PodParams {
                namespaces: namespaces.iter().map(|s| (*s).to_owned()).collect(),
                phases: vec![String::new()],
                limits_and_deadlines: false,
                ..PodParams::default()
            },
            ..Self::default()
        }
    }
}

impl Default for WorkloadParams {
    fn default() -> Self {
        WorkloadParams {
            pod: PodParams::default(),
            max_replicas: 4,
            kinds: vec![
                WorkloadKind::Pod,
                WorkloadKind::Job,
                WorkloadKind::Deployment,
                WorkloadKind::StatefulSet,
            ],
        }
    }
}

/// Workloads built from a generated pod ([`cube_model::proptest::pod`]): a bare Pod (one
/// replica) or a controller with 1..=`max_replicas` replicas of that pod template.
pub fn workload(params: WorkloadParams) -> BoxedStrategy<Workload> {
    let kinds = if params.kinds.is_empty() {
        vec![WorkloadKind::Pod]
    } else {
        params.kinds.clone()
    };
    (
        pod(params.pod.clone()),
        select(kinds),
        1..=params.max_replicas.max(1),
    )
        .prop_map(|(p, kind, replicas)| Workload {
            kind,
            name: p.metadata.name.clone(),
            namespace: p.metadata.namespace.clone(),
            replicas: Some(if kind == WorkloadKind::Pod {
                1
            } else {
                replicas
            }),
            template: PodTemplateSpec {
                metadata: p.metadata,
                spec: p.spec,
            },
        })
        .boxed()
}

/// [`workload`]s as [`Submission`]s, ready for [`crate::whatif::admit`].
pub fn submission(params: WorkloadParams) -> BoxedStrategy<Submission> {
    workload(params)
        .prop_map(|w| Submission::Workload(Box::new(w)))
        .boxed()
}

impl Arbitrary for Submission {
    type Parameters = WorkloadParams;
    type Strategy = BoxedStrategy<Submission>;
    fn arbitrary_with(params: WorkloadParams) -> Self::Strategy {
        submission(params)
    }
}
