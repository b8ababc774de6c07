//! Every version's wording of the admission, scheduler and kubelet-admission messages, read
//! from the exact upstream texts (as printed, with the API server's or controller's wrapper)
//! to the entry and the rule that concludes from it. Sources: each entry's `repo`/`file`.

use super::match_line;
use crate::rules::testutil::run_log;

/// (exact text, catalog entry, rule that must fire on the line alone, a word of its finding).
const WORDINGS: &[(&str, &str, &str, &str)] = &[
    // ResourceQuota admission, v1.0-v1.1.0 (plugin/pkg/admission/resourcequota/admission.go)
    (
        "Error from server: pods \"web\" is forbidden: limited to 10 pods",
        "quota.v1.0-count",
        "quota-near-limit",
        "pods: 1 requested, 10 used of 10",
    ),
    (
        "Error from server: pods \"web\" is forbidden: unable to admit pod without exceeding quota for resource cpu:  limited to 2 but require 2500m to succeed.",
        "quota.v1.0-exceeding",
        "quota-near-limit",
        "2500m needed",
    ),
    (
        "Error from server: pods \"web\" is forbidden: must make a non-zero request for memory since it is tracked by quota.",
        "quota.v1.0-must-request",
        "quota-without-limitrange",
        "must specify memory",
    ),
    (
        "Error from server: pods \"web\" is forbidden: unable to admit pod until quota usage stats are calculated.",
        "quota.v1.0-stats-unknown-pod",
        "gpu-resource-name-mismatch",
        "kube-controller-manager",
    ),
    (
        "Error from server: services \"web\" is forbidden: quota usage stats are not yet known, unable to admit resource until an accurate count is completed.",
        "quota.v1.0-stats-unknown",
        "gpu-resource-name-mismatch",
        "kube-controller-manager",
    ),
    // v1.1.x after kubernetes#16941
    (
        "Error creating: Pod \"nginx-\" is forbidden: cpu is limited by quota, must make explicit request.",
        "quota.v1.1-explicit-request",
        "quota-without-limitrange",
        "must specify cpu",
    ),
    (
        "Error creating: Pod \"nginx-\" is forbidden: cpu quota is 200m, current usage is 200m, requesting 100m.",
        "quota.v1.1-exceeded",
        "quota-near-limit",
        "cpu: 100m requested, 200m used of 200m",
    ),
    (
        "Error creating: Pod \"nginx-\" is forbidden: Limited to 3 pods",
        "quota.v1.1-count",
        "quota-near-limit",
        "pods: 1 requested, 3 used of 3",
    ),
    // v1.2-v1.5 capitalised, v1.6+ lower case (controller.go)
    (
        "Error creating: pods \"nginx-2040093540-\" is forbidden: Failed quota: quota: must specify cpu,memory",
        "quota.must-specify-capitalised",
        "quota-without-limitrange",
        "cpu,memory",
    ),
    (
        "Error creating: pods \"nginx-3137573019-\" is forbidden: Exceeded quota: compute-resources, requested: pods=1, used: pods=4, limited: pods=4",
        "quota.exceeded-capitalised",
        "quota-near-limit",
        "compute-resources",
    ),
    (
        "Error creating: pods \"web-1\" is forbidden: failed quota: compute-resources: must specify limits.cpu for: app; limits.memory for: app",
        "quota.must-specify",
        "quota-without-limitrange",
        "compute-resources",
    ),
    (
        "Error creating: pods \"x-\" is forbidden: insufficient quota to consume: requests.nvidia.com/gpu",
        "quota.insufficient-to-consume",
        "priority-without-quota",
        "limitedResources",
    ),
    (
        "Error creating: pods \"x-\" is forbidden: quota usage is negative for resource(s): memory",
        "quota.usage-negative",
        "quota-without-limitrange",
        "negative",
    ),
    // LimitRanger: v1.0 (PodLimitFunc), v1.1-v1.10 capitalised with a dot, later lower case
    (
        "Error from server: pods \"mypod\" is forbidden: Maximum memory usage per pod is 500Mi",
        "limitrange.v1.0-max",
        "limitrange-rejected",
        "maximum memory per Pod is 500Mi",
    ),
    (
        "Error from server: pods \"mypod\" is forbidden: Maximum CPU usage per pod is 2, but requested 3",
        "limitrange.v1.0-cpu-per-pod",
        "limitrange-rejected",
        "maximum cpu per Pod is 2, but the limit is 3",
    ),
    (
        "Error from server: Pod \"invalid-pod\" is forbidden: [Maximum cpu usage per Pod is 2, but limit is 3., Maximum cpu usage per Container is 2, but limit is 3.]",
        "limitrange.maximum-capitalised",
        "limitrange-rejected",
        "maximum cpu per Container is 2",
    ),
    (
        "Error creating: pods \"web-1\" is forbidden: Minimum cpu usage per Container is 100m, but request is 50m.",
        "limitrange.minimum-capitalised",
        "limitrange-rejected",
        "minimum cpu per Container is 100m",
    ),
    (
        "Error from server: Pod \"nginx\" is forbidden: Minimum cpu usage per Container is 100m.  No request is specified.",
        "limitrange.minimum-unset-capitalised",
        "limitrange-rejected",
        "no request is set",
    ),
    (
        "Error from server (Forbidden): pods \"nginx\" is forbidden: maximum memory usage per Pod is 500Mi.  No limit is specified",
        "limitrange.maximum-unset",
        "limitrange-rejected",
        "no limit is set",
    ),
    (
        "Error from server: Pod \"nginx\" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000.",
        "limitrange.ratio",
        "limitrange-rejected",
        "at most 2",
    ),
    (
        "The Pod \"nginx\" is invalid: spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit",
        "validation.request-above-limit",
        "limitrange-rejected",
        "default limit",
    ),
    // Priority
    (
        "Error validating pod nginx_default(8e139687-c655-11e7-9114-246e967a4158) from api, ignoring: [spec.priorityClassName: Forbidden: Pod priority is disabled by feature-gate, spec.priority: Forbidden: Pod priority is disabled by feature-gate]",
        "priority.feature-gate-disabled-kubelet",
        "priority-class-rejected",
        "kubelet",
    ),
    (
        "The Pod \"nginx\" is invalid: spec.priorityClassName: Forbidden: Pod priority is disabled by feature-gate",
        "priority.feature-gate-disabled",
        "priority-class-rejected",
        "PodPriority",
    ),
    (
        "error: unable to recognize \"pc.yaml\": no matches for kind \"PriorityClass\" in version \"scheduling.k8s.io/v1alpha1\"",
        "priority.api-not-served",
        "priority-class-rejected",
        "--runtime-config=scheduling.k8s.io/v1alpha1=true",
    ),
    (
        "Error from server (NotFound): error when creating \"pc.yaml\": the server could not find the requested resource (post priorityclasses.scheduling.k8s.io)",
        "priority.api-not-served-post",
        "priority-class-rejected",
        "api-versions",
    ),
    (
        "Error creating: pods \"x-\" is forbidden: no PriorityClass with name high-priority was found",
        "priority.class-not-found",
        "priority-class-rejected",
        "high-priority",
    ),
    (
        "Error creating: pods \"x-\" is forbidden: the integer value of priority must not be provided in pod spec. Priority admission controller populates the value from the given PriorityClass name",
        "priority.value-in-spec-v1.8",
        "priority-class-rejected",
        "spec.priority",
    ),
    // kubelet admission (pkg/kubelet/lifecycle/predicate.go)
    (
        "Warning  OutOfnvidia.com/gpu  2m  kubelet, node-01  Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 0, capacity: 0",
        "kubelet.admit.not-advertised",
        "node-overcommitted",
        "device plugin",
    ),
    (
        "Warning  OutOfcpu  2m  kubelet, node-01  Node didn't have enough resource: cpu, requested: 4000, used: 7200, capacity: 8000",
        "kubelet.admit.insufficient",
        "node-overcommitted",
        "7200 of its 8000 cpu",
    ),
    (
        "Warning  MatchNodeSelector  2m  kubelet, node-01  Predicate MatchNodeSelector failed",
        "kubelet.admit.predicate-failed",
        "pod-unschedulable",
        "MatchNodeSelector",
    ),
    (
        "Warning  UnexpectedAdmissionError  2m  kubelet, node-01  Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected.",
        "kubelet.devices-unavailable",
        "gpu-plugin-log-error",
        "re-)registered",
    ),
    // kube-scheduler FitErrors of v1.0-v1.9 (read by the scheduler grammar, cube_quota::schedmsg;
    // plugin/pkg/scheduler/generic_scheduler.go, later core/generic_scheduler.go)
    (
        "  Fri, 17 Jul 2015 10:30:55 -0700\tFri, 17 Jul 2015 10:31:10 -0700\t5\t{scheduler }\t\t\tfailedScheduling\t\t\tFailed for reason PodFitsResources and possibly others",
        "scheduler.v1.0-failed-for-reason",
        "pod-unschedulable",
        "PodFitsResources",
    ),
    (
        "Failed for reason PodExceedsFreeCPU and possibly others",
        "scheduler.v1.0-failed-for-reason",
        "pod-unschedulable",
        "lack free cpu",
    ),
    (
        "Failed for reason PodExceedsFreeMemory and possibly others",
        "scheduler.v1.0-failed-for-reason",
        "pod-unschedulable",
        "lack free memory",
    ),
    (
        "Failed for reason PodFitsPorts and possibly others",
        "scheduler.v1.0-failed-for-reason",
        "pod-unschedulable",
        "hostPort",
    ),
    (
        "Failed for reason MatchNodeSelector and possibly others",
        "scheduler.v1.0-failed-for-reason",
        "pod-unschedulable",
        "nodeSelector",
    ),
    (
        "Failed for reason NoDiskConflict and possibly others",
        "scheduler.v1.0-failed-for-reason",
        "pod-unschedulable",
        "volume",
    ),
    (
        "pod (web-1) failed to fit in any node\nfit failure on node (node-01): PodExceedsFreeCPU,PodFitsHostPorts\n",
        "scheduler.v1.2-failed-to-fit",
        "pod-unschedulable",
        "Kubernetes 1.2 wording",
    ),
    (
        "pod (gpu-job) failed to fit in any node\nfit failure on node (n1): Insufficient alpha.kubernetes.io/nvidia-gpu\nfit failure on node (n2): PodToleratesNodeTaints\n",
        "scheduler.v1.2-fit-failure-on-node",
        "pod-unschedulable",
        "Accelerators",
    ),
    (
        "pod (x) failed to fit in any node\nfit failure summary on nodes : Insufficient pods (2), PodToleratesNodeTaints (1)",
        "scheduler.v1.5-fit-failure-summary",
        "pod-unschedulable",
        "maxPods",
    ),
    (
        "get `pod failed to fit in any node` on 1.0.0 when deploying an app",
        "scheduler.v1.2-failed-to-fit-quoted",
        "pod-unschedulable",
        "cpu",
    ),
    (
        "No nodes are available that match all of the following predicates:: Insufficient cpu (18), MatchNodeSelector (18).",
        "scheduler.v1.6-no-nodes-match-following",
        "pod-unschedulable",
        "lack free cpu",
    ),
    (
        "No nodes are available that match all of the predicates: Insufficient alpha.kubernetes.io/nvidia-gpu (3), PodToleratesNodeTaints (1).",
        "scheduler.v1.8-no-nodes-match",
        "pod-unschedulable",
        "Accelerators",
    ),
    (
        "no nodes available to schedule pods",
        "scheduler.no-nodes-available",
        "pod-unschedulable",
        "no nodes",
    ),
    // Priority admission: the bare Pod of `kubectl apply` (v1.19+ wording)
    (
        "Error from server (Forbidden): error when creating \"pod.yaml\": pods \"nginx-pod\" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name",
        "priority.preemption-policy-in-spec",
        "priority-class-rejected",
        "priorityClassName",
    ),
    (
        "Error from server (Forbidden): error when creating \"pod.yaml\": pods \"nginx\" is forbidden: the integer value of priority (10) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name",
        "priority.value-in-spec",
        "priority-class-rejected",
        "the pod nginx",
    ),
    (
        "Failed for reason HostName and possibly others",
        "scheduler.v1.0-failed-for-reason",
        "pod-unschedulable",
        "spec.nodeName",
    ),
    (
        "Error creating: pods \"web-7d9f8b6c5d-\" is forbidden: failed to get PriorityClass with name high-priority: informer not synced",
        "priority.class-lookup-failed",
        "priority-class-rejected",
        "internal error",
    ),
    (
        "Error from server: error when creating \"pod.yaml\": failed to get default priority class: informer not synced",
        "priority.default-class-lookup-failed",
        "priority-class-rejected",
        "globalDefault",
    ),
    // kube-scheduler sentences without the histogram header
    (
        "Warning  FailedScheduling  2m  default-scheduler  PersistentVolumeClaim is not bound: \"data-0\" (repeated 2 times)",
        "scheduler.pvc-not-bound",
        "pod-unschedulable",
        "\"data-0\"",
    ),
    (
        "Warning  FailedScheduling  2m  default-scheduler  pod has unbound immediate PersistentVolumeClaims (repeated 3 times)",
        "scheduler.unbound-immediate-claims",
        "pod-unschedulable",
        "Immediate",
    ),
    (
        "Warning  FailedScheduling  2m  default-scheduler  pod has unbound PersistentVolumeClaims",
        "scheduler.unbound-claims",
        "pod-unschedulable",
        "unbound",
    ),
    // extended resources (pkg/apis/core/validation/validation.go ValidateResourceRequirements):
    // v1.6-v1.7 of the alpha GPU only, v1.8+ any non-overcommitable resource, `of <n>` later
    (
        "The Pod \"cuda\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to alpha.kubernetes.io/nvidia-gpu limit",
        "validation.extended-request-not-limit",
        "pod-extended-resource-invalid",
        "alpha.kubernetes.io/nvidia-gpu",
    ),
    (
        "Error from server (Invalid): error when creating \"gpu.yaml\": Pod \"cuda\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit",
        "validation.extended-request-not-limit",
        "pod-extended-resource-invalid",
        "containers[0]",
    ),
    (
        "Warning  FailedCreate  5s (x12 over 16s)  replicaset-controller  Error creating: Pod \"infer-5d8f9-\" is invalid: spec.containers[0].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2",
        "validation.extended-request-not-limit",
        "pod-extended-resource-invalid",
        "LimitRange",
    ),
    (
        "The Deployment \"infer\" is invalid: spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources",
        "validation.extended-limit-required",
        "pod-extended-resource-invalid",
        "limits",
    ),
    (
        "The Pod \"cuda\" is invalid: spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer",
        "validation.extended-not-integer",
        "pod-extended-resource-invalid",
        "whole devices",
    ),
    // DRA fields the server does not know (apimachinery strict decoding / Warn mode, kubectl's
    // pre-1.25 client validation) and API versions it does not serve
    (
        "Error from server (BadRequest): error when creating \"gpu-test1.yaml\": Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.resourceClaims\"",
        "dra.unknown-field-resource-claims",
        "pod-resource-claims-dropped",
        "v1.26",
    ),
    (
        "Warning: unknown field \"spec.containers[0].resources.claims\"",
        "dra.unknown-field-container-claims",
        "pod-resource-claims-dropped",
        "resources.claims",
    ),
    (
        "error: error validating \"gpu-test1.yaml\": error validating data: ValidationError(Pod.spec): unknown field \"resourceClaims\" in io.k8s.api.core.v1.PodSpec; if you choose to ignore these errors, turn validation off with --validate=false",
        "dra.unknown-field-resource-claims-client",
        "pod-resource-claims-dropped",
        "v1.26",
    ),
    (
        "error: resource mapping not found for name: \"single-gpu\" namespace: \"gpu-test1\" from \"gpu-test1.yaml\": no matches for kind \"ResourceClaimTemplate\" in version \"resource.k8s.io/v1beta1\"",
        "dra.kind-not-served",
        "pod-resource-claims-dropped",
        "api-versions",
    ),
    (
        "The Pod \"pod1\" is invalid: spec.containers[0].resources.claims[0]: Not found: \"gpu\": must be one of the names in pod.spec.resourceClaims which is empty",
        "dra.claim-not-in-pod",
        "pod-resource-claims-dropped",
        "webhook",
    ),
    (
        "plugin name gpu.nvidia.com not found in the list of registered DRA plugins",
        "dra.kubelet-driver-not-registered",
        "pod-resource-claims-dropped",
        "kubelet-plugin",
    ),
    (
        "plugin gpu.nvidia.com not found in the list of registered DRA plugins or not connected",
        "dra.kubelet-driver-not-registered",
        "pod-resource-claims-dropped",
        "gpu.nvidia.com",
    ),
];

#[test]
fn every_versions_wording_reads_to_its_entry_and_rule() {
    check_lines(WORDINGS);
}

/// Each (exact line, catalog entry, rule, word) reads to its entry, and the rule fires on the
/// line alone with `word` in its message or remedy (shared with `sweep.rs`).
pub(super) fn check_lines(lines: &[(&str, &str, &str, &str)]) {
    for (text, entry, rule, word) in lines {
        let ids: Vec<&str> = match_line(text).iter().map(|m| m.entry.id).collect();
        assert!(ids.contains(entry), "{text}: read as {ids:?}");
        let f = run_log(rule, text);
        assert!(!f.is_empty(), "{text}: {rule} did not fire");
        assert!(
            f.iter()
                .any(|f| f.message.contains(word) || f.remedy.contains(word)),
            "{text}: {rule} says {:?}",
            f.iter()
                .map(|f| (&f.message, &f.remedy))
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_histogram_reason_is_not_a_standalone_scheduler_sentence() {
    // inside `0/N nodes are available` the grammar reads it; no second finding from the
    // catalog's standalone entry
    let f = run_log(
        "pod-unschedulable",
        "0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.",
    );
    assert_eq!(f.len(), 1, "{f:#?}");
}
