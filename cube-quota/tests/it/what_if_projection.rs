//! A snapshot read with `PodFields::WhatIf` (the fields of its pods no what-if step reads
//! checked but not kept, as `pod_admit` reads a large dump) gives the same what-if answers as
//! the same snapshot read whole, and takes or refuses the same inputs.

use cube_model::{ClusterSnapshot, PodFields, StreamOutcome};
use cube_quota::preemption::FitScheduler;
use cube_quota::whatif::{AdmitOptions, Submission, admit};

/// A pod as the API server stores it, with every field a what-if drops set (volumes, images,
/// owner references, annotations, service account, scheduler, restart policy, container states,
/// conditions no what-if step reads; some pods also have the two it reads).
fn pod(i: usize, node: usize, priority: i32, gpus: u32) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"annotations":{{"kubectl.kubernetes.io/last-applied-configuration":"{{\"kind\":\"Pod\"}}","prometheus.io/scrape":"true"}},"creationTimestamp":"2026-11-30T12:02:27Z","generateName":"train-","labels":{{"app":"train","team":"t{team}"}},"name":"train-{i}","namespace":"team-{team}","ownerReferences":[{{"apiVersion":"apps/v1","controller":true,"kind":"ReplicaSet","name":"train-rs","uid":"u-rs"}}],"uid":"u-{i}"}},"spec":{{"affinity":{{"podAntiAffinity":{{"requiredDuringSchedulingIgnoredDuringExecution":[{{"labelSelector":{{"matchLabels":{{"app":"exclusive"}}}},"topologyKey":"kubernetes.io/hostname"}}]}}}},"containers":[{{"image":"ml/train:2.4.1","name":"main","resources":{{"limits":{{"nvidia.com/gpu":"{gpus}"}},"requests":{{"cpu":"{cpu}m","memory":"1Gi","nvidia.com/gpu":"{gpus}"}}}}}}],"initContainers":[{{"image":"busybox","name":"init","resources":{{"requests":{{"cpu":"100m"}}}}}}],"nodeName":"node-{node}","preemptionPolicy":"PreemptLowerPriority","priority":{priority},"priorityClassName":"p{priority}","restartPolicy":"Always","schedulerName":"default-scheduler","serviceAccountName":"default","tolerations":[{{"effect":"NoSchedule","key":"nvidia.com/gpu","operator":"Exists"}}],"volumes":[{{"name":"data","persistentVolumeClaim":{{"claimName":"data-{i}"}}}},{{"emptyDir":{{}},"name":"scratch"}},{{"hostPath":{{"path":"/dev/shm","type":"Directory"}},"name":"shm"}},{{"name":"nfs","nfs":{{"path":"/x","server":"s"}}}}]}},"status":{{"conditions":[{{"lastTransitionTime":"2026-11-30T12:03:01Z","status":"True","type":"Ready"}}{conditions}],"containerStatuses":[{{"allocatedResources":{{"cpu":"{cpu}m"}},"name":"main","ready":true,"restartCount":2,"state":{{"running":{{"startedAt":"2026-11-30T12:03:00Z"}}}}}}],"initContainerStatuses":[{{"name":"init","state":{{"terminated":{{"exitCode":0,"reason":"Completed"}}}}}}],"phase":"Running","qosClass":"Burstable","startTime":"2026-11-30T12:02:{sec:02}Z"}}}}"#,
        team = i % 3,
        conditions = match i % 9 {
            0 => r#",{"reason":"PreemptionByScheduler","status":"True","type":"DisruptionTarget"}"#,
            4 =>
                r#",{"message":"Node didn't have enough capacity","reason":"Infeasible","status":"True","type":"PodResizePending"}"#,
            _ => "",
        },
        cpu = 250 + 50 * (i % 7),
        sec = i % 60,
    )
}

fn node(n: usize) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"labels":{{"kubernetes.io/hostname":"node-{n}","zone":"z{z}"}},"name":"node-{n}"}},"spec":{{"taints":[{{"effect":"NoSchedule","key":"nvidia.com/gpu","value":"present"}}]}},"status":{{"allocatable":{{"cpu":"32","memory":"256Gi","nvidia.com/gpu":"8","pods":"110"}},"conditions":[{{"status":"True","type":"Ready"}}]}}}}"#,
        z = n % 2
    )
}

/// A List of 6 nodes and 60 pods (priorities 0, 100 and 1000), every GPU taken; in pod 7,
/// the first `from` replaced with `to`.
fn dump((from, to): (&str, &str)) -> String {
    let mut items: Vec<String> = (0..6).map(node).collect();
    for i in 0..60 {
        let priority = [0, 100, 1000][i % 3];
        let mut pod = pod(i, i % 6, priority, if i % 10 < 8 { 1 } else { 0 });
        if i == 7 {
            assert!(pod.contains(from), "{from}");
            pod = pod.replacen(from, to, 1);
        }
        items.push(pod);
    }
    items.push(
        r#"{"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"high"},"value":100000}"#
            .to_owned(),
    );
    items.push(
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"team-0"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","name":"web"}],"volumes":[{"name":"v","emptyDir":{}}]}}}}"#
            .to_owned(),
    );
    format!(
        "{{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n{}\n    ],\n    \"kind\": \"List\"\n}}\n",
        items.join(",\n")
    )
}

fn read(text: &str, fields: PodFields) -> (ClusterSnapshot, StreamOutcome) {
    let mut s = ClusterSnapshot::new();
    let outcome = s
        .add_json_reader_with("dump.json", &mut text.as_bytes(), fields)
        .expect("no io error");
    (s, outcome)
}

const SUBMISSIONS: &[&str] = &[
    // every GPU is taken: preemption of lower-priority pods, and the message of the rest
    r#"
apiVersion: apps/v1
kind: Deployment
metadata: {name: train, namespace: team-1}
spec:
  replicas: 12
  selector: {matchLabels: {app: exclusive}}
  template:
    metadata: {labels: {app: exclusive}}
    spec:
      priorityClassName: high
      tolerations: [{key: nvidia.com/gpu, operator: Exists}]
      containers:
      - name: main
        image: ml/train:2.4.1
        resources:
          limits: {cpu: "2", memory: 8Gi, nvidia.com/gpu: "1"}
"#,
    // CPU only, placed replica after replica
    r#"
apiVersion: batch/v1
kind: Job
metadata: {name: etl, namespace: team-2}
spec:
  parallelism: 20
  template:
    spec:
      restartPolicy: Never
      tolerations: [{key: nvidia.com/gpu, operator: Exists}]
      containers:
      - name: etl
        image: etl:1
        resources:
          requests: {cpu: "3", memory: 4Gi}
"#,
    // a pod that no node tolerates
    r#"
apiVersion: v1
kind: Pod
metadata: {name: lone, namespace: team-0}
spec:
  containers:
  - name: c
    image: c:1
    resources: {requests: {cpu: "1"}}
"#,
];

#[test]
fn what_if_answers_equal_those_of_a_snapshot_read_whole() {
    let text = dump(("", ""));
    let (all, all_outcome) = read(&text, PodFields::All);
    let (what_if, what_if_outcome) = read(&text, PodFields::WhatIf);
    assert!(
        matches!(all_outcome, StreamOutcome::Loaded(_)),
        "{all_outcome:?}"
    );
    assert_eq!(what_if_outcome, all_outcome);
    assert_eq!(what_if.pods.len(), 60);
    let kept = |s: &ClusterSnapshot| {
        s.pods
            .iter()
            .map(|p| p.status.conditions.len())
            .sum::<usize>()
    };
    assert_eq!((kept(&all), kept(&what_if)), (60 + 7 + 7, 7 + 7));

    // only the dropped fields differ, and only in pods
    let mut cleared = all.clone();
    for p in &mut cleared.pods {
        p.metadata.annotations = Default::default();
        p.status
            .conditions
            .retain(|c| cube_model::projection::WHAT_IF_POD_CONDITIONS.contains(&c.type_.as_str()));
        p.metadata.owner_references.clear();
        p.spec.volumes.clear();
        p.spec.scheduler_name.clear();
        p.spec.restart_policy.clear();
        p.spec.service_account_name.clear();
        for c in &mut p.spec.containers {
            c.image.clear();
        }
        for c in &mut p.spec.init_containers {
            c.image.clear();
        }
        for st in &mut p.status.container_statuses {
            st.state = None;
        }
        for st in &mut p.status.init_container_statuses {
            st.state = None;
        }
    }
    assert_ne!(cleared, all, "the dump sets every dropped field");
    assert_eq!(what_if, cleared);
    assert_eq!(
        what_if.workloads, all.workloads,
        "workload templates keep every field"
    );

    let sched = FitScheduler::default();
    let opts = AdmitOptions {
        scheduler: Some(&sched),
        ..AdmitOptions::default()
    };
    let mut preempted = false;
    for text in SUBMISSIONS {
        let sub = Submission::parse(text).expect("submission");
        let want = admit(&sub, "", &all, &opts);
        let got = admit(&sub, "", &what_if, &opts);
        assert_eq!(got, want);
        preempted |= want
            .replicas
            .iter()
            .any(|r| r.scheduling.as_ref().is_some_and(|s| !s.victims.is_empty()));
    }
    assert!(
        preempted,
        "the GPU Deployment preempts (victims chosen from the read pods)"
    );
}

/// A dropped field of the wrong shape is refused in both modes (the input is then read whole,
/// which reports it), so reading for a what-if never takes an input the full read refuses; a
/// shape the full read takes is taken alike.
#[test]
fn dropped_fields_are_checked_as_they_are_read() {
    for change in [
        (r#""volumes":["#, r#""volumes":5,"x":["#),
        (r#"{"name":"data","#, r#"{"name":7,"#),
        (
            r#""claimName":"data-7""#,
            r#""claimName":"data-7","readOnly":"yes""#,
        ),
        (r#""path":"/dev/shm""#, r#""path":null"#),
        (r#"{"name":"data","#, r#"{"name":"data","name":"w","#),
        (
            r#""serviceAccountName":"default""#,
            r#""serviceAccountName":null"#,
        ),
        (
            r#""schedulerName":"default-scheduler""#,
            r#""schedulerName":["a"]"#,
        ),
        (r#""restartPolicy":"Always""#, r#""restartPolicy":7"#),
        (r#""image":"ml/train:2.4.1""#, r#""image":1"#),
        (r#""controller":true"#, r#""controller":"yes""#),
        (r#""uid":"u-rs""#, r#""uid":{}"#),
        (
            r#""prometheus.io/scrape":"true""#,
            r#""prometheus.io/scrape":{"a":1}"#,
        ),
        (
            r#""startedAt":"2026-11-30T12:03:00Z""#,
            r#""startedAt":"2026-02-30T12:03:00Z""#,
        ),
        (r#""exitCode":0"#, r#""exitCode":"0""#),
        (r#""running":{"#, r#""running":5,"x":{"#),
        (r#""type":"Ready""#, r#""type":5"#),
        (
            r#""status":"True","type":"Ready""#,
            r#""status":null,"type":"Ready""#,
        ),
        (
            r#""lastTransitionTime":"2026-11-30T12:03:01Z""#,
            r#""lastTransitionTime":"noon""#,
        ),
        (r#""conditions":["#, r#""conditions":{},"x":["#),
    ] {
        let text = dump(change);
        let (_, all) = read(&text, PodFields::All);
        let (_, what_if) = read(&text, PodFields::WhatIf);
        assert_eq!(all, StreamOutcome::ReadWhole, "{change:?}");
        assert_eq!(what_if, StreamOutcome::ReadWhole, "{change:?}");
    }
    for change in [
        (r#""volumes":["#, r#""volumes":null,"x":["#),
        (
            r#"{"name":"data","#,
            r#"{"name":"data","csi":{"driver":"d"},"#,
        ),
        (
            r#""prometheus.io/scrape":"true""#,
            r#""prometheus.io/scrape":true"#,
        ),
        (
            r#""serviceAccountName":"default""#,
            r#""serviceAccountName":"d\u00e9faut""#,
        ),
        (r#""ownerReferences":["#, r#""ownerReferences":null,"x":["#),
        (r#""state":{"#, r#""state":null,"x":{"#),
        (r#""conditions":["#, r#""conditions":null,"x":["#),
        (r#""type":"Ready""#, r#""type":"Re\u0061dy""#),
    ] {
        let text = dump(change);
        let (all_read, all) = read(&text, PodFields::All);
        let (what_if_read, what_if) = read(&text, PodFields::WhatIf);
        assert!(matches!(all, StreamOutcome::Loaded(_)), "{change:?}");
        assert_eq!(what_if, all, "{change:?}");
        assert_eq!(what_if_read.pods.len(), all_read.pods.len(), "{change:?}");
    }
}
