//! Exactness gaps found against a real API server (issue 12), each closed as upstream does:
//! milli rounding in API defaulting, pod-level resources in LimitRange `Pod` checks and in
//! quota, NamespaceLifecycle, and the stored pod as the server would store it.

use cube_model::ClusterSnapshot;
use cube_model::objects::{Namespace, ObjectMeta};
use cube_quota::admission::NamespaceAdmission;
use cube_quota::preemption::FitScheduler;
use cube_quota::quota::QuotaAdmissionConfig;
use cube_quota::schedmsg::SchedulerVersion;
use cube_quota::whatif::{AdmitOptions, Stage, StepStatus, Submission, admit};

fn snapshot(objects: &str) -> ClusterSnapshot {
    let s = ClusterSnapshot::from_slice("test.yaml", objects.as_bytes());
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    s
}

fn pod(spec: &str) -> Submission {
    Submission::parse(&format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: team}}\nspec:\n{spec}"
    ))
    .expect("pod")
}

/// `pkg/apis/core/v1/defaults.go` `SetDefaults_ResourceList`: a cpu request of `0.0005` is
/// stored as `1m` (the server rounds every value up to milli scale); `0.3` is `300m` and
/// `1024Ki` is `1Mi` in the server's spelling.
#[test]
fn api_defaulting_rounds_up_to_milli_scale() {
    let sub = pod(
        "  containers:\n  - name: c\n    resources:\n      requests: {cpu: \"0.0005\", memory: 1024Ki}\n      limits: {cpu: \"0.3\"}\n",
    );
    let out = admit(
        &sub,
        "",
        &ClusterSnapshot::default(),
        &AdmitOptions::default(),
    );
    let r = &out.replicas[0];
    let stored = r.stored_pod().expect("admitted");
    let c = &stored.containers[0].resources;
    assert_eq!(c.requests.get("cpu").map(String::as_str), Some("1m"));
    assert_eq!(c.requests.get("memory").map(String::as_str), Some("1Mi"));
    assert_eq!(c.limits.get("cpu").map(String::as_str), Some("300m"));
    let step = &r.steps[0];
    assert_eq!(step.stage, Stage::ApiDefaulting);
    assert_eq!(step.status, StepStatus::Changed);
    assert!(
        step.detail
            .contains("cpu request of container c: 500u -> 1m"),
        "{}",
        step.detail
    );
    // A request copied from a sub-milli limit is rounded as well.
    let sub = pod("  containers:\n  - name: c\n    resources:\n      limits: {cpu: 1500u}\n");
    let out = admit(
        &sub,
        "",
        &ClusterSnapshot::default(),
        &AdmitOptions::default(),
    );
    let stored = out.replicas[0].stored_pod().expect("admitted");
    assert_eq!(stored.containers[0].resources.requests["cpu"], "2m");
    assert_eq!(stored.containers[0].resources.limits["cpu"], "2m");
    // The rounded value is what quota charges: 1m, not 500u.
    let snap = snapshot(
        "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: team}\nspec:\n  hard: {requests.cpu: 1m}\nstatus:\n  hard: {requests.cpu: 1m}\n  used: {requests.cpu: 1m}\n",
    );
    let sub =
        pod("  containers:\n  - name: c\n    resources:\n      requests: {cpu: \"0.0005\"}\n");
    let out = admit(&sub, "", &snap, &AdmitOptions::default());
    assert_eq!(
        out.rejection().map(|r| r.message.as_str()),
        Some(
            "pods \"p\" is forbidden: exceeded quota: q, requested: requests.cpu=1m, used: requests.cpu=1m, limited: requests.cpu=1m"
        )
    );
}

/// LimitRange values are stored rounded too (the generated `SetObjectDefaults_LimitRange`).
#[test]
fn limit_range_defaults_are_rounded_when_stored() {
    let snap = snapshot(
        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: team}\nspec:\n  limits:\n  - type: Container\n    defaultRequest: {cpu: 100u}\n    default: {cpu: \"0.0101\"}\n",
    );
    let sub = pod("  containers:\n  - name: c\n");
    let out = admit(&sub, "", &snap, &AdmitOptions::default());
    let stored = out.replicas[0].stored_pod().expect("admitted");
    assert_eq!(stored.containers[0].resources.requests["cpu"], "1m");
    assert_eq!(stored.containers[0].resources.limits["cpu"], "11m");
}

const POD_MAX: &str = "apiVersion: v1\nkind: LimitRange\nmetadata: {name: pod-max, namespace: team}\nspec:\n  limits:\n  - type: Pod\n    max: {cpu: \"2\"}\n";

/// `plugin/pkg/admission/limitranger/admission.go` (`podRequests`/`podLimits` with
/// PodLevelResources on): the `Pod` maximum is checked against pod-level cpu/memory when the
/// pod sets them, not against the sum of its containers.
#[test]
fn limit_range_pod_max_uses_pod_level_resources() {
    let snap = snapshot(POD_MAX);
    // containers sum to 3 cpu, but the pod-level limit (2) is what counts: admitted
    let sub = pod(
        "  resources:\n    requests: {cpu: \"2\"}\n    limits: {cpu: \"2\"}\n  containers:\n  - name: a\n    resources: {requests: {cpu: \"1\"}}\n  - name: b\n    resources: {requests: {cpu: \"1\"}}\n",
    );
    let out = admit(&sub, "", &snap, &AdmitOptions::default());
    assert!(out.rejection().is_none(), "{:?}", out.rejection());
    // the pod-level limit above the maximum is refused with the pod-level value
    let sub = pod(
        "  resources:\n    limits: {cpu: \"3\"}\n  containers:\n  - name: a\n    resources: {requests: {cpu: \"1\"}, limits: {cpu: \"1\"}}\n",
    );
    let out = admit(&sub, "", &snap, &AdmitOptions::default());
    assert_eq!(
        out.rejection().map(|r| r.message.as_str()),
        Some("pods \"p\" is forbidden: maximum cpu usage per Pod is 2, but limit is 3")
    );
    // without pod-level resources the container sum still counts
    let sub = pod(
        "  containers:\n  - name: a\n    resources: {limits: {cpu: \"2\"}}\n  - name: b\n    resources: {limits: {cpu: \"1\"}}\n",
    );
    let out = admit(&sub, "", &snap, &AdmitOptions::default());
    assert_eq!(
        out.rejection().map(|r| r.message.as_str()),
        Some("pods \"p\" is forbidden: maximum cpu usage per Pod is 2, but limit is 3")
    );
}

/// Quota charges pod-level requests and limits when the pod sets them
/// (`pkg/quota/v1/evaluator/core/pods.go` `PodUsageFunc` with PodLevelResources on).
#[test]
fn quota_charges_pod_level_resources() {
    let snap = snapshot(
        "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: team}\nspec:\n  hard: {requests.cpu: \"10\", limits.cpu: \"10\"}\nstatus:\n  hard: {requests.cpu: \"10\", limits.cpu: \"10\"}\n  used: {requests.cpu: \"0\", limits.cpu: \"0\"}\n",
    );
    let sub = pod(
        "  resources:\n    requests: {cpu: \"4\"}\n    limits: {cpu: \"6\"}\n  containers:\n  - name: a\n    resources: {requests: {cpu: \"1\"}}\n",
    );
    let out = admit(&sub, "", &snap, &AdmitOptions::default());
    let charge = &out.replicas[0].charges[0].requested;
    assert_eq!(
        charge
            .get("requests.cpu")
            .map(ToString::to_string)
            .as_deref(),
        Some("4")
    );
    assert_eq!(
        charge.get("limits.cpu").map(ToString::to_string).as_deref(),
        Some("6")
    );
}

fn with_namespaces(phases: &[(&str, &str)]) -> ClusterSnapshot {
    let mut s = ClusterSnapshot::default();
    for (name, phase) in phases {
        let mut n = Namespace {
            metadata: ObjectMeta {
                name: (*name).into(),
                ..ObjectMeta::default()
            },
            ..Namespace::default()
        };
        n.status.phase = (*phase).into();
        s.namespaces.push(n);
    }
    s
}

/// `staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go`: a
/// create in a namespace that does not exist is `namespaces "x" not found` (404); in a
/// terminating one, 403 `unable to create new content in namespace x because it is being
/// terminated`. Checked only when the snapshot holds Namespace objects; the namespaces the API
/// server always has are never missing.
#[test]
fn namespace_lifecycle() {
    let snap = with_namespaces(&[("team", "Active"), ("old", "Terminating")]);
    let sub = pod("  containers:\n  - name: c\n");
    let ok = admit(&sub, "", &snap, &AdmitOptions::default());
    assert!(ok.rejection().is_none());
    let missing = admit(&sub, "ghost", &snap, &AdmitOptions::default());
    let r = missing.rejection().expect("refused");
    assert_eq!(
        (r.stage, r.code, r.reason, r.message.as_str()),
        (
            Stage::NamespaceLifecycle,
            404,
            "NotFound",
            "namespaces \"ghost\" not found"
        )
    );
    let old = admit(&sub, "old", &snap, &AdmitOptions::default());
    let r = old.rejection().expect("refused");
    assert_eq!(
        (r.code, r.message.as_str()),
        (
            403,
            "pods \"p\" is forbidden: unable to create new content in namespace old because it is being terminated"
        )
    );
    assert!(
        admit(&sub, "default", &snap, &AdmitOptions::default())
            .rejection()
            .is_none()
    );
    assert!(
        admit(&sub, "kube-system", &snap, &AdmitOptions::default())
            .rejection()
            .is_none()
    );
    // without Namespace objects in the snapshot, nothing is checked
    assert!(
        admit(
            &sub,
            "ghost",
            &ClusterSnapshot::default(),
            &AdmitOptions::default()
        )
        .rejection()
        .is_none()
    );
    // other namespaced objects too
    let pvc = Submission::parse(
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  resources: {requests: {storage: 1Gi}}\n",
    )
    .expect("pvc");
    let r = admit(&pvc, "ghost", &snap, &AdmitOptions::default());
    assert_eq!(r.rejection().map(|r| r.code), Some(404));
    let lr = Submission::parse(
        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits: []\n",
    )
    .expect("lr");
    let r = admit(&lr, "old", &snap, &AdmitOptions::default());
    assert_eq!(
        r.rejection().map(|r| r.message.as_str()),
        Some(
            "limitranges \"lr\" is forbidden: unable to create new content in namespace old because it is being terminated"
        )
    );
    // the fast path refuses the same way
    let mut ns = NamespaceAdmission::new(&snap, "ghost", &QuotaAdmissionConfig::default(), None);
    let p = match &sub {
        Submission::Workload(w) => w.template_pod("ghost"),
        _ => unreachable!(),
    };
    assert_eq!(ns.admit_pod(&p).map_err(|r| r.code), Err(404));
}

/// The stored pod: requests and limits after both defaulting steps, priority with its class and
/// preemption policy, QoS class.
#[test]
fn stored_pod_shows_what_the_server_stores() {
    let snap = snapshot(
        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr, namespace: team}\nspec:\n  limits:\n  - type: Container\n    default: {memory: 512Mi}\n    defaultRequest: {memory: 256Mi}\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\npreemptionPolicy: Never\n",
    );
    let sub = pod(
        "  priorityClassName: high\n  containers:\n  - name: main\n    resources: {limits: {cpu: \"0.5\"}}\n",
    );
    let out = admit(&sub, "", &snap, &AdmitOptions::default());
    let s = out.replicas[0].stored_pod().expect("admitted");
    assert_eq!(
        s.compact(),
        "main: requests cpu=500m,memory=256Mi limits cpu=500m,memory=512Mi; priority 1000 (class high, Never), QoS Burstable"
    );
    let json = serde_json::to_value(&s).expect("json");
    assert_eq!(json["containers"][0]["requests"]["cpu"], "500m");
    assert_eq!(json["qosClass"], "Burstable");
    assert_eq!(json["priorityClassName"], "high");
}

/// The predicted FailedScheduling message of a pod whose PriorityClass has
/// `preemptionPolicy: Never` (priority admission copies it into the pod), through the
/// what-if as `pod_admit` runs it. v1.36: `FitError.Error()` (`pkg/scheduler/framework/types.go`)
/// ends the filter part with one `.`, then the PostFilter messages joined: DynamicResources'
/// `no new claims to deallocate` (`pkg/scheduler/framework/plugins/dynamicresources/
/// dynamicresources.go`) and DefaultPreemption's `preemption: not eligible due to
/// preemptionPolicy=Never.` (`pkg/scheduler/framework/preemption/preemption.go`
/// `PodEligibleToPreemptOthers`). Older releases stay selectable: v1.24-v1.31 end in `..`
/// (the separator's `.` after the preemption message's own) and v1.20-v1.23 print no
/// preemption part.
#[test]
fn scheduler_wording_is_v136_with_older_releases_selectable() {
    let snap = snapshot(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  allocatable: {cpu: \"2\", memory: 8Gi, pods: \"110\"}\n  capacity: {cpu: \"2\", memory: 8Gi, pods: \"110\"}\n  conditions: [{type: Ready, status: \"True\"}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: busy, namespace: team}\nspec:\n  nodeName: n1\n  containers:\n  - name: c\n    resources: {requests: {cpu: \"2\"}}\nstatus: {phase: Running}\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: batch-low}\nvalue: 100\npreemptionPolicy: Never\n",
    );
    let sub = pod(
        "  priorityClassName: batch-low\n  containers:\n  - name: c\n    resources: {requests: {cpu: \"1\"}}\n",
    );
    let message = |version: SchedulerVersion| {
        let scheduler = FitScheduler {
            version,
            ..FitScheduler::default()
        };
        let opts = AdmitOptions {
            scheduler: Some(&scheduler),
            ..AdmitOptions::default()
        };
        let out = admit(&sub, "", &snap, &opts);
        let s = out.replicas[0]
            .scheduling
            .as_ref()
            .unwrap_or_else(|| panic!("{:?}", out.replicas[0].steps));
        assert!(!s.schedulable);
        s.message.clone()
    };
    assert_eq!(
        message(SchedulerVersion::default()),
        "0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
    );
    let v = |minor| SchedulerVersion::new(minor).expect("1.20-1.36");
    assert_eq!(
        message(v(28)),
        "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.."
    );
    assert_eq!(
        message(v(22)),
        "0/1 nodes are available: 1 Insufficient cpu."
    );
}
