//! The what-if pipeline with fit and preemption as its scheduling stage.

use cube_model::objects::{Container, Node, Pod, ResourceRequirements};
use cube_model::{ClusterSnapshot, Quantity, ResourceList};
use cube_quota::preemption::FitScheduler;
use cube_quota::whatif::{AdmitOptions, Submission, Verdict, admit};

fn q(s: &str) -> Quantity {
    s.parse().expect("quantity")
}

fn snapshot() -> ClusterSnapshot {
    let mut n = Node::default();
    n.metadata.name = "gpu-1".into();
    n.status.allocatable = [
        ("cpu", q("16")),
        ("memory", q("64Gi")),
        ("nvidia.com/gpu", q("4")),
        ("pods", q("110")),
    ]
    .into_iter()
    .collect();
    let mut low = Pod::default();
    low.metadata.namespace = "batch".into();
    low.metadata.name = "low".into();
    low.spec.node_name = "gpu-1".into();
    low.spec.priority = Some(0);
    low.status.phase = "Running".into();
    let req: ResourceList = [("nvidia.com/gpu", q("2"))].into_iter().collect();
    low.spec.containers.push(Container {
        name: "c".into(),
        resources: ResourceRequirements {
            requests: req.clone(),
            limits: req,
        },
        ..Container::default()
    });
    let mut s = ClusterSnapshot::default();
    s.nodes = vec![n];
    s.pods = vec![low];
    s
}

const DEPLOYMENT: &str = r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: train, namespace: team}
spec:
  replicas: 3
  selector: {matchLabels: {app: train}}
  template:
    metadata: {labels: {app: train}}
    spec:
      containers:
        - name: main
          resources:
            limits: {nvidia.com/gpu: "1"}
"#;

#[test]
fn replicas_fill_the_node_then_stay_pending() {
    let s = snapshot();
    let sched = FitScheduler::default();
    let opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    let sub = Submission::parse(DEPLOYMENT).expect("deployment");
    let out = admit(&sub, "", &s, &opts);
    let sched: Vec<(bool, Option<String>, String)> = out
        .replicas
        .iter()
        .map(|r| {
            let s = r.scheduling.clone().expect("scheduled");
            (s.schedulable, s.node, s.message)
        })
        .collect();
    assert_eq!(sched.len(), 3);
    assert_eq!(sched[0], (true, Some("gpu-1".into()), String::new()));
    assert_eq!(sched[1], (true, Some("gpu-1".into()), String::new()));
    // Third replica: 2 + 2 GPUs in use; the low pod has the same priority (0): no victims.
    assert!(!sched[2].0);
    assert_eq!(
        sched[2].2,
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
    );
    assert_eq!(
        out.verdict,
        Verdict::Admitted {
            admitted: 3,
            pending: 1
        }
    );
}

#[test]
fn high_priority_pod_preempts_the_low_one() {
    let mut s = snapshot();
    let mut pc = cube_model::objects::PriorityClass {
        value: 1000,
        ..Default::default()
    };
    pc.metadata.name = "high".into();
    s.priority_classes.push(pc);
    let sched = FitScheduler::default();
    let opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    let sub = Submission::parse(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: big, namespace: team}\nspec:\n  priorityClassName: high\n  containers:\n    - name: c\n      resources:\n        limits: {nvidia.com/gpu: \"4\"}\n",
    )
    .expect("pod");
    let out = admit(&sub, "", &s, &opts);
    let r = out.replicas[0].scheduling.clone().expect("scheduling");
    assert!(r.schedulable);
    assert_eq!(r.node.as_deref(), Some("gpu-1"));
    assert_eq!(r.victims, vec!["batch/low"]);
    assert_eq!(
        r.message,
        "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."
    );
}
