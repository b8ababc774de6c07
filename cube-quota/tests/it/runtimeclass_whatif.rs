//! H17: RuntimeClass admission (kubernetes/kubernetes
//! `plugin/pkg/admission/runtimeclass/admission.go` and its `admission_test.go`: `setOverhead`,
//! `setScheduling`, `validateOverhead`) through the what-if pipeline: the class's
//! `overhead.podFixed` becomes the pod's `spec.overhead`, which quota and the scheduler add to
//! the pod's requests (component-helpers `PodRequests`, pods.go quota usage, NodeResourcesFit).

use cube_model::ClusterSnapshot;
use cube_quota::preemption::FitScheduler;
use cube_quota::whatif::{
    AdmissionOutcome, AdmitOptions, Stage, StepStatus, Submission, Verdict, admit,
};

const KATA: &str = r#"{"apiVersion":"node.k8s.io/v1","kind":"RuntimeClass","metadata":{"name":"kata"},"handler":"kata","overhead":{"podFixed":{"cpu":"250m","memory":"120Mi"}},"scheduling":{"nodeSelector":{"runtime":"kata"},"tolerations":[{"key":"kata","operator":"Exists","effect":"NoSchedule"}]}}"#;

fn snapshot(with_classes: bool) -> ClusterSnapshot {
    let mut s = ClusterSnapshot::default();
    let mut docs = vec![
        r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"node-0","labels":{"runtime":"kata"}},"spec":{"taints":[{"key":"kata","effect":"NoSchedule"}]},"status":{"allocatable":{"cpu":"1","memory":"4Gi","pods":"110"}}}"#.to_owned(),
    ];
    if with_classes {
        docs.push(KATA.to_owned());
    }
    let text = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{}]}}"#,
        docs.join(",")
    );
    let _ = s.add_bytes("test.json", text.as_bytes());
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    s
}

fn pod(cpu: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n{extra}  containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu}}}}}}}]\n"
    )
}

fn run(s: &ClusterSnapshot, manifest: &str) -> AdmissionOutcome {
    let sched = FitScheduler::default();
    let opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    admit(
        &Submission::parse(manifest).expect("manifest"),
        "",
        s,
        &opts,
    )
}

fn rejection(out: &AdmissionOutcome) -> String {
    out.rejection()
        .map(|r| r.message.clone())
        .unwrap_or_default()
}

/// The overhead is set from the class, with its node selector and toleration; the pod that
/// would fit the 1-cpu node alone (800m) no longer does (1050m).
#[test]
fn overhead_counts_for_scheduling() {
    let s = snapshot(true);
    let out = run(&s, &pod("800m", "  runtimeClassName: kata\n"));
    let stored = out.replicas[0].stored.as_ref().expect("admitted");
    assert_eq!(
        stored
            .spec
            .overhead
            .as_deref()
            .map(cube_quota::quota::pretty_print),
        Some("cpu=250m,memory=120Mi".to_owned())
    );
    assert_eq!(stored.spec.node_selector.get("runtime"), Some("kata"));
    assert!(stored.spec.tolerations.iter().any(|t| t.key == "kata"));
    let step = out.replicas[0]
        .steps
        .iter()
        .find(|st| st.stage == Stage::RuntimeClass)
        .expect("step");
    assert_eq!(step.status, StepStatus::Changed);
    assert!(matches!(
        out.verdict,
        Verdict::Admitted {
            admitted: 1,
            pending: 1
        }
    ));
    let sched = out.replicas[0].scheduling.as_ref().expect("scheduled");
    assert!(
        sched
            .message
            .starts_with("0/1 nodes are available: 1 Insufficient cpu."),
        "{}",
        sched.message
    );
    // without the overhead it fits
    let out = run(&s, &pod("700m", "  runtimeClassName: kata\n"));
    assert!(matches!(
        out.verdict,
        Verdict::Admitted {
            admitted: 1,
            pending: 0
        }
    ));
}

/// Quota charges the overhead (pods.go: requests include `spec.overhead`).
#[test]
fn overhead_counts_for_quota() {
    let mut s = snapshot(true);
    s.resource_quotas.push(
        serde_json::from_str(
            r#"{"metadata":{"name":"q","namespace":"default"},"spec":{"hard":{"requests.cpu":"1"}},"status":{"hard":{"requests.cpu":"1"},"used":{"requests.cpu":"0"}}}"#,
        )
        .unwrap(),
    );
    let out = run(&s, &pod("800m", "  runtimeClassName: kata\n"));
    assert_eq!(
        rejection(&out),
        "pods \"p\" is forbidden: exceeded quota: q, requested: requests.cpu=1050m, used: requests.cpu=0, limited: requests.cpu=1"
    );
}

/// The plugin's refusals, word for word.
#[test]
fn refusals() {
    let s = snapshot(true);
    assert_eq!(
        rejection(&run(&s, &pod("100m", "  runtimeClassName: gvisor\n"))),
        "pods \"p\" is forbidden: pod rejected: RuntimeClass \"gvisor\" not found"
    );
    assert_eq!(
        rejection(&run(&s, &pod("100m", "  overhead: {cpu: 10m}\n"))),
        "pods \"p\" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"
    );
    assert_eq!(
        rejection(&run(
            &s,
            &pod("100m", "  runtimeClassName: kata\n  overhead: {cpu: 10m}\n")
        )),
        "pods \"p\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
    );
    // the same overhead, written another way, is accepted
    let out = run(
        &s,
        &pod(
            "100m",
            "  runtimeClassName: kata\n  overhead: {cpu: \"0.25\", memory: 120Mi}\n",
        ),
    );
    assert!(out.rejection().is_none(), "{}", rejection(&out));
    assert_eq!(
        rejection(&run(
            &s,
            &pod(
                "100m",
                "  runtimeClassName: kata\n  nodeSelector: {runtime: runc}\n"
            )
        )),
        "pods \"p\" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; pod.spec.nodeSelector[runtime] = runc"
    );
}

/// No RuntimeClass in the snapshot: the step says it was not checked (never a silent yes).
#[test]
fn unknown_classes_are_not_checked() {
    let s = snapshot(false);
    let out = run(&s, &pod("100m", "  runtimeClassName: kata\n"));
    let step = out.replicas[0]
        .steps
        .iter()
        .find(|st| st.stage == Stage::RuntimeClass)
        .expect("step");
    assert_eq!(step.status, StepStatus::Skipped);
    assert!(step.detail.starts_with("not checked: "), "{}", step.detail);
}
