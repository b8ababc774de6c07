//! `cube-quota`: Kubernetes-exact pod requests, ResourceQuota, LimitRange, priority and
//! admission math, without I/O.
//!
//! Module map:
//! - [`requests`]: pod effective requests/limits (`PodRequests`/`PodLimits`: sidecars, init
//!   containers, pod-level resources, overhead), request-from-limit defaulting, QoS class.
//! - [`quota`]: ResourceQuota usage per pod/claim, scopes, "must specify", namespace usage and
//!   admission (`CheckRequest`) with upstream's messages.
//! - [`limitrange`]: LimitRange API defaulting, LimitRanger defaulting and validation.
//! - [`priority`]: priority admission and PriorityClass validation.
//! - [`validation`]: the API server's 422 validation of pod resources, quotas and LimitRanges.
//! - [`workload_validation`]: the API server's 400/422 checks of a controller object's spec
//!   (negative replicas, Job restart policy, selectors) before admission.
//! - [`whatif`]: the admission pipeline for a pod, a workload's replicas, a claim or a policy
//!   object, with a pluggable scheduling step.
//! - [`fit`]: node fit with the scheduler's reasons and summary, GPU fragmentation, the `NodeUsage` index.
//! - [`podfilters`]: the scheduler filters that read other pods and objects (NodePorts,
//!   VolumeBinding, PodTopologySpread, InterPodAffinity), used by the what-if's scheduler.
//! - [`preemption`]: preemption victims and candidate node, as the default scheduler.
//! - [`schedmsg`]: the scheduler's FailedScheduling grammar (v1.20–v1.36): parse a message into
//!   its parts, predict one in a version's wording.
//! - [`msgtemplate`]: message templates with `{name}` placeholders, rendered and read back.
//! - [`report`]: capacity (overcommit per pool) and usage reports for resource groups.
//! - [`plan`]: resource-group manifests (Namespace, ResourceQuota, LimitRange, PriorityClass, RBAC)
//!   and the re-split check.
//! - [`split`]: a resource group across several clusters: each cluster's share of every bucket,
//!   its plan, and the proof that the rendered quotas add up to no more than the group.
//! - [`error`]: the crate's error enum.
//! - `proptest` (crate feature `proptest`): strategies for workloads and submissions, on top of
//!   `cube_model::proptest`.
//!
//! ```
//! use cube_model::ClusterSnapshot;
//! use cube_quota::whatif::{admit, AdmitOptions, Submission};
//!
//! let mut snapshot = ClusterSnapshot::default();
//! snapshot.resource_quotas.push(serde_json::from_str(
//!     r#"{"metadata":{"name":"gpu","namespace":"ml"},"spec":{"hard":{"requests.nvidia.com/gpu":"2"}}}"#,
//! )?);
//! let job = Submission::parse(
//!     "kind: Job\nmetadata: {name: train, namespace: ml}\nspec:\n  parallelism: 3\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n        resources: {limits: {nvidia.com/gpu: 1}}\n",
//! )?;
//! let outcome = admit(&job, "", &snapshot, &AdmitOptions::default());
//! assert_eq!(outcome.admitted, 2);
//! assert!(outcome.rejection().unwrap().message.ends_with(
//!     "is forbidden: exceeded quota: gpu, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=2"
//! ));
//!
//! // Without a scheduler, admission stops at ResourceQuota: `pending: 0` then says nothing
//! // about node fit. Pass the default scheduler's fit and preemption to check it.
//! assert_eq!(outcome.schedulable_now(), None);
//! let scheduler = cube_quota::preemption::FitScheduler::default();
//! let opts = AdmitOptions { scheduler: Some(&scheduler), ..AdmitOptions::default() };
//! let outcome = admit(&job, "", &snapshot, &opts);
//! assert!(outcome.scheduling_checked);
//! assert_eq!(outcome.schedulable_now(), Some(false)); // no node in this snapshot
//!
//! // The replica pods of a parsed workload, e.g. for `fit` or a scheduler of your own.
//! if let Submission::Workload(w) = &job {
//!     assert_eq!(w.replica_pods("").len(), 3);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod admission;
pub mod error;
pub mod fit;
pub mod limitrange;
pub mod msgtemplate;
pub mod plan;
pub mod podfilters;
pub mod preemption;
pub mod priority;
#[cfg(feature = "proptest")]
pub mod proptest;
pub mod quota;
pub mod report;
pub mod requests;
pub mod schedmsg;
pub mod split;
pub mod validation;
pub mod whatif;
pub mod workload_validation;

pub use error::{Error, Result};
