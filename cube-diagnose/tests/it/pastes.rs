//! Pastes as people paste them (issue 8, deliverable 5): one test per class, on the smallest
//! input that shows it. Each goes through `Inputs::add` exactly as `cluster_diagnose` does.

use cube_diagnose::input::InputFormat;
use cube_diagnose::{Context, Engine, Evidence, Inputs, Report};

fn run(inputs: &Inputs) -> Report {
    let ctx = Context::new(&inputs.snapshot).with_logs(inputs.logs.clone());
    Engine::new()
        .run(&ctx)
        .with_input_problems(inputs.input_problems())
}

pub(super) fn one(name: &str, text: &str) -> (Inputs, Report) {
    let mut i = Inputs::new();
    i.add(name, text);
    let r = run(&i);
    (i, r)
}

pub(super) fn summary(r: &Report) -> String {
    let mut s: Vec<String> = r
        .findings
        .iter()
        .map(|f| format!("{} {} {}: {}", f.severity, f.rule_id, f.subject, f.message))
        .collect();
    s.extend(r.input_problems.iter().map(|p| format!("problem: {p}")));
    s.join("\n")
}

/// The log evidence lines (source, line) of the findings of `rule`.
fn log_lines(r: &Report, rule: &str) -> Vec<(String, usize)> {
    r.by_rule(rule)
        .flat_map(|f| f.evidence.iter())
        .filter_map(|e| match e {
            Evidence::Log { source, line, .. } => Some((source.clone(), *line)),
            _ => None,
        })
        .collect()
}

#[track_caller]
fn no_problems(r: &Report) {
    assert!(r.input_problems.is_empty(), "{}", summary(r));
}

const JWS: &str = "error execution phase preflight: couldn't validate the identity of the API Server: could not find a JWS signature in the cluster-info ConfigMap for token ID \"abcdef\"";

#[test]
fn bracketed_timestamps_are_a_log_never_json() {
    // before: "invalid JSON" and exit 2
    let text = format!(
        "[2021-05-08 12:20:58] [preflight] Running pre-flight checks\n[2021-05-08 12:20:58] {JWS}\n"
    );
    let (_, r) = one("join.log", &text);
    no_problems(&r);
    assert_eq!(r.exit_code(), 1, "{}", summary(&r));
    assert_eq!(
        log_lines(&r, "join-token-invalid"),
        [("join.log".to_owned(), 2)]
    );
    // the other bracketed prefixes: dmesg, `-T`, time only, ISO with zone
    for prefix in [
        "[   12.345678]",
        "[Sat May  8 12:20:58 2021]",
        "[12:20:58]",
        "[2021-05-08T12:20:58Z]",
        "[2021-05-08 12:20:58.123]",
    ] {
        let text = format!("{prefix} {JWS}\n");
        assert_eq!(
            cube_diagnose::input::detect_format(text.as_bytes()),
            InputFormat::Text,
            "{prefix}"
        );
        let (_, r) = one("j.log", &text);
        assert!(
            r.by_rule("join-token-invalid").next().is_some() && r.input_problems.is_empty(),
            "{prefix}: {}",
            summary(&r)
        );
    }
    // a JSON array is still JSON, and broken JSON is still broken JSON (exit 2)
    let (i, r) = one(
        "a.json",
        "[{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n\"}}]",
    );
    assert_eq!(i.snapshot.nodes.len(), 1);
    no_problems(&r);
    let (_, r) = one("b.json", "{\"kind\": \"Node\", \"metadata\": {\"name\": ");
    assert_eq!(r.exit_code(), 2, "{}", summary(&r));
}

#[test]
fn broken_json_is_reported_once_from_the_first_parse() {
    // no second parse: the loader's message is the only one
    let text = r#"{"kind":"List","apiVersion":"v1","items":[{"kind":"Node","apiVersion":"v1","metadata":{"name":"a"}},{"kind":"Node","apiVersion":"v1","metadata":{"name":"b"}},{"kind":"Node","#;
    let (i, r) = one("cut.json", text);
    assert_eq!(i.snapshot.nodes.len(), 2);
    let invalid: Vec<_> = r
        .input_problems
        .iter()
        .filter(|p| p.message.contains("invalid JSON"))
        .collect();
    assert_eq!(invalid.len(), 1, "{}", summary(&r));
    assert!(!invalid[0].fatal);
    assert!(i.logs.is_empty(), "a dump is never a log");
}

#[test]
fn journald_forms_keep_the_host_and_the_line_number() {
    let msg = "E0305 10:00:00.000000    4242 bootstrap.go:265] part of the existing bootstrap client certificate in /etc/kubernetes/kubelet.conf is expired: 2024-03-01 00:00:00 +0000 UTC, currently active client certificate has expired and server is not responsive";
    for (form, line) in [
        (
            "short",
            format!("Mar 05 10:00:00 node-07 kubelet[4242]: {msg}"),
        ),
        (
            "short-precise",
            format!("Mar  5 10:00:00.123456 node-07 kubelet[4242]: {msg}"),
        ),
        (
            "short-iso",
            format!("2024-03-05T10:00:00+0000 node-07 kubelet[4242]: {msg}"),
        ),
        (
            "short-iso-precise",
            format!("2024-03-05T10:00:00.123456+00:00 node-07 kubelet[4242]: {msg}"),
        ),
        (
            "short-full",
            format!("Tue 2024-03-05 10:00:00 UTC node-07 kubelet[4242]: {msg}"),
        ),
        (
            "short-unix",
            format!("1709632800.123456 node-07 kubelet[4242]: {msg}"),
        ),
    ] {
        let text = format!("-- Logs begin at Mon 2024-03-04 --\n{line}\n");
        let (_, r) = one("kubelet.journal", &text);
        // whichever rule concludes (the message catalog's), the finding is about the node the
        // journald prefix names, cites line 2 of the file, and quotes the kubelet's own line
        let f = r
            .findings
            .iter()
            .find(|f| {
                f.evidence.iter().any(|e| {
                    matches!(e, Evidence::Log { source, line: 2, .. } if source == "kubelet.journal")
                })
            })
            .unwrap_or_else(|| panic!("{form}: {}", summary(&r)));
        assert_eq!(f.subject.display_name(), "Node/node-07", "{form}");
        assert!(
            f.evidence.iter().any(|e| {
                let t = e.to_string();
                t.contains("E0305 10:00:00.000000    4242 bootstrap.go:265] part of the existing")
                    && !t.contains("kubelet[4242]")
            }),
            "{form}: {:?}",
            f.evidence
        );
    }
}

#[test]
fn klog_text_structured_and_json_forms_read_the_same() {
    let plain = "E0101 10:00:00.000000    1234 server.go:302] \"Failed to run kubelet\" err=\"failed to run Kubelet: misconfiguration: kubelet cgroup driver: \\\"systemd\\\" is different from docker cgroup driver: \\\"cgroupfs\\\"\"";
    let klogr = "\"msg\"=\"Failed to run kubelet\" \"err\"=\"failed to run Kubelet: misconfiguration: kubelet cgroup driver: \\\"systemd\\\" is different from docker cgroup driver: \\\"cgroupfs\\\"\"";
    let json = r#"{"ts":1704103200000.1,"caller":"app/server.go:302","msg":"Failed to run kubelet","err":"failed to run Kubelet: misconfiguration: kubelet cgroup driver: \"systemd\" is different from docker cgroup driver: \"cgroupfs\""}"#;
    for (form, line) in [("klog", plain), ("klogr", klogr), ("json", json)] {
        let (_, r) = one("kubelet.log", &format!("{line}\n"));
        let f = r
            .by_rule("node-drift")
            .next()
            .unwrap_or_else(|| panic!("{form}: {}", summary(&r)));
        assert!(
            f.message.contains("\"systemd\"") && f.message.contains("\"cgroupfs\""),
            "{form}: {}",
            f.message
        );
    }
}

#[test]
fn container_log_prefixes_are_removed() {
    let nvml = "Failed to initialize NVML: could not load NVML library.";
    for (form, text) in [
        (
            "cri",
            format!(
                "2024-01-01T00:00:00.000000000Z stderr F I0101 00:00:00.000000       1 main.go:1] Loading NVML\n2024-01-01T00:00:00.000000001Z stderr F E0101 00:00:00.000000       1 main.go:2] {nvml}\n"
            ),
        ),
        (
            "kubectl logs --timestamps",
            format!("2024-01-01T00:00:00.123456789Z {nvml}\n"),
        ),
        (
            "go log",
            format!("2024/01/01 00:00:00 Loading NVML\n2024/01/01 00:00:00 {nvml}\n"),
        ),
        (
            "docker json-file",
            format!(
                "{{\"log\":\"{nvml}\\n\",\"stream\":\"stderr\",\"time\":\"2024-01-01T00:00:00Z\"}}\n"
            ),
        ),
        (
            "logrus",
            format!("time=\"2024-01-01T00:00:00Z\" level=error msg=\"{nvml}\"\n"),
        ),
    ] {
        let (_, r) = one("plugin.log", &text);
        assert!(
            r.by_rule("gpu-not-advertised").next().is_some(),
            "{form}: {}",
            summary(&r)
        );
        no_problems(&r);
    }
}

const DESCRIBE_NODE: &str = "Name:               gpu-01
Roles:              <none>
Labels:             kubernetes.io/hostname=gpu-01
                    nvidia.com/gpu.present=true
Taints:             <none>
Unschedulable:      false
Capacity:
  cpu:             32
  nvidia.com/gpu:  4
Allocatable:
  cpu:             31500m
  nvidia.com/gpu:  4
System Info:
  Kernel Version:             5.15.0-105-generic
  Container Runtime Version:  containerd://1.7.12
Events:             <none>
";

#[test]
fn ansi_colours_crlf_and_tabs() {
    // CRLF (Windows), colour codes around keys and values, the escape byte lost on the way
    let crlf = DESCRIBE_NODE
        .replace("Capacity:", "\u{1b}[1mCapacity:\u{1b}[0m")
        .replace("31500m", "\u{1b}[32m31500m\u{1b}[0m")
        .replace("Taints:  ", "[1mTaints:[0m  ")
        .replace('\n', "\r\n");
    let (i, r) = one("node.txt", &crlf);
    no_problems(&r);
    let n = &i.snapshot.nodes[0];
    assert_eq!(n.metadata.name, "gpu-01");
    assert_eq!(
        n.status.allocatable.get("cpu").map(|q| q.milli_value()),
        Some(31500)
    );
    assert_eq!(
        n.status.capacity.get("nvidia.com/gpu").map(|q| q.value()),
        Some(4)
    );
    assert_eq!(n.status.node_info.kernel_version, "5.15.0-105-generic");
    // a table whose columns were turned into tabs
    let tabs = "NAME\tSTATUS\tROLES\tAGE\tVERSION\ncp-01\tReady\tcontrol-plane\t10d\tv1.30.2\n";
    let (i, _) = one("nodes.txt", tabs);
    assert_eq!(i.snapshot.nodes.len(), 1);
    assert_eq!(i.snapshot.nodes[0].metadata.name, "cp-01");
    assert_eq!(
        i.snapshot.nodes[0].status.node_info.kubelet_version,
        "v1.30.2"
    );
}

#[test]
fn shell_prompts_and_the_commands_themselves() {
    for prompt in [
        "$ ",
        "# ",
        "user@host:~$ ",
        "root@node-01:/# ",
        "[root@node-01 ~]# ",
        "PS C:\\> ",
        "C:\\Users\\me>",
        "(base) me@laptop:~/k8s$ ",
    ] {
        let text = format!("{prompt}kubectl describe node gpu-01\n{DESCRIBE_NODE}{prompt}\n");
        let (i, r) = one("paste.txt", &text);
        assert_eq!(i.snapshot.nodes.len(), 1, "{prompt:?}: {}", summary(&r));
        assert_eq!(i.snapshot.nodes[0].metadata.name, "gpu-01", "{prompt:?}");
        no_problems(&r);
    }
    // the command line of a join is evidence: its pins are read from it
    let text = format!(
        "$ sudo kubeadm join 10.0.0.10:6443 --token abcdef.0123456789abcdef \\\n    --discovery-token-ca-cert-hash sha256:{}\n[preflight] Running pre-flight checks\n{JWS}\n",
        "a".repeat(64)
    );
    let (_, r) = one("join.txt", &text);
    assert_eq!(
        log_lines(&r, "join-token-invalid"),
        [("join.txt".to_owned(), 4)],
        "{}",
        summary(&r)
    );
}

#[test]
fn several_commands_in_one_file_each_read_as_what_it_is() {
    let text = format!(
        "$ kubectl describe node gpu-01
{DESCRIBE_NODE}
$ kubectl get events -n team-a
LAST SEEN   TYPE      REASON             OBJECT        MESSAGE
2m          Warning   FailedScheduling   pod/train-0   0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.
$ kubectl get pod train-0 -n team-a -o json
{{
    \"apiVersion\": \"v1\",
    \"kind\": \"Pod\",
    \"metadata\": {{\"name\": \"train-0\", \"namespace\": \"team-a\"}},
    \"spec\": {{\"containers\": [{{\"name\": \"main\", \"image\": \"train:1\", \"resources\": {{\"limits\": {{\"nvidia.com/gpu\": \"8\"}}}}}}]}},
    \"status\": {{\"phase\": \"Pending\"}}
}}
$ journalctl -u kubelet --no-pager | tail -1
Dec 01 10:00:00 gpu-01 kubelet[1234]: E1201 10:00:00.000000    1234 run.go:74] \"command failed\" err=\"failed to run Kubelet: misconfiguration: kubelet cgroup driver: \\\"systemd\\\" is different from docker cgroup driver: \\\"cgroupfs\\\"\"
"
    );
    let mut i = Inputs::new();
    assert_eq!(i.add("session.txt", &text), InputFormat::Paste);
    let r = run(&i);
    no_problems(&r);
    assert_eq!(i.snapshot.nodes.len(), 1);
    assert_eq!(i.snapshot.events.len(), 1);
    assert_eq!(i.snapshot.pods.len(), 1);
    assert_eq!(i.snapshot.pods[0].metadata.name, "train-0");
    let drift = r
        .by_rule("node-drift")
        .next()
        .unwrap_or_else(|| panic!("{}", summary(&r)));
    assert_eq!(drift.subject.display_name(), "Node/gpu-01");
    // the line number is the line in the user's file
    let line = text
        .lines()
        .position(|l| l.contains("cgroup driver"))
        .map(|p| p + 1);
    assert_eq!(log_lines(&r, "node-drift").first().map(|(_, l)| *l), line);
}

const WIDE: &str = "NAME     STATUS     ROLES           AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION       CONTAINER-RUNTIME
cp-01    Ready      control-plane   10d   v1.30.2   10.0.0.10     <none>        Ubuntu 22.04.4 LTS   5.15.0-105-generic   containerd://1.7.12
gpu-01   NotReady   <none>          1h    v1.30.2   10.0.0.21     <none>        Ubuntu 22.04.4 LTS   5.15.0-105-generic   containerd://1.7.12
";

#[test]
fn stacked_or_repeated_tables_never_make_a_node_called_name() {
    for text in [
        format!("{WIDE}{WIDE}"),
        format!("$ kubectl get nodes -o wide\n{WIDE}$ kubectl get nodes -o wide\n{WIDE}"),
        format!("{WIDE}\n{WIDE}"),
        // spaces collapsed on the way (one space between columns)
        WIDE.split('\n')
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n")
            .repeat(2),
    ] {
        let (i, r) = one("nodes.txt", &text);
        let names: Vec<&str> = i
            .snapshot
            .nodes
            .iter()
            .map(|n| n.metadata.name.as_str())
            .collect();
        assert_eq!(names, ["cp-01", "gpu-01"], "{text}\n{}", summary(&r));
        assert!(
            i.snapshot
                .nodes
                .iter()
                .all(
                    |n| n.status.node_info.kernel_version == "5.15.0-105-generic"
                        && n.status.node_info.os_image == "Ubuntu 22.04.4 LTS"
                ),
            "{text}"
        );
        assert!(r.by_rule("node-duplicate-hostname").next().is_none());
    }
}

#[test]
fn describe_and_a_wide_row_of_one_node_make_one_node() {
    let text = format!("{DESCRIBE_NODE}\n{WIDE}");
    let (i, _) = one("both.txt", &text);
    assert_eq!(i.snapshot.nodes.len(), 2);
    let n = &i.snapshot.nodes[0];
    assert_eq!(n.metadata.name, "gpu-01");
    assert_eq!(
        n.status
            .allocatable
            .get("nvidia.com/gpu")
            .map(|q| q.value()),
        Some(4),
        "the describe block's fields are kept"
    );
    assert_eq!(
        n.status.addresses[0].address, "10.0.0.21",
        "the row's fields are added"
    );
    assert!(
        !n.metadata
            .annotations
            .contains_key(cube_model::describe::PARTIAL_ANNOTATION)
    );
    // the table-only node is marked partial: its allocatable is unknown, never "absent"
    assert!(cube_model::describe::is_unknown(
        &i.snapshot.nodes[1].metadata,
        "allocatable"
    ));
}

#[test]
fn get_tables_of_every_kind_the_rules_read() {
    let text = "$ kubectl get pods -A -o wide
NAMESPACE     NAME                                   READY   STATUS    RESTARTS   AGE   IP            NODE     NOMINATED NODE   READINESS GATES
kube-system   nvidia-device-plugin-daemonset-x7k2p   1/1     Running   0          5d    10.244.1.5    gpu-01   <none>           <none>
team-a        train-0                                0/1     Pending   0          2m    <none>        <none>   <none>           <none>
team-a        eval-0                                 0/1     Evicted   0          1h    <none>        gpu-01   <none>           <none>
$ kubectl get ds -A -o wide
NAMESPACE     NAME                             DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                   AGE   CONTAINERS                 IMAGES                                      SELECTOR
kube-system   nvidia-device-plugin-daemonset   0         0         0       0            0           nvidia.com/gpu.present=true    5d    nvidia-device-plugin-ctr   nvcr.io/nvidia/k8s-device-plugin:v0.14.1   name=nvidia-device-plugin-ds
$ kubectl get quota -n team-a
NAME          AGE   REQUEST                                                   LIMIT
compute-gpu   5d    requests.cpu: 500m/8, requests.nvidia.com/gpu: 15/16      limits.memory: 0/64Gi
$ kubectl get pc
NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY
system-node-critical      2000001000   false            10d   PreemptLowerPriority
training-high             100000       false            5d    PreemptLowerPriority
$ kubectl get pvc -n team-a
NAME            STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE
imagenet-data   Pending                                                     <unset>                 5d
$ kubectl get pv
NAME                  CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS   CLAIM                 STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE
scratch-hostpath-01   100Gi      RWO            Retain           Bound    team-nlp/checkpoints                  <unset>                          5d
$ kubectl get sc
NAME       PROVISIONER                                RECLAIMPOLICY   VOLUMEBINDINGMODE   ALLOWVOLUMEEXPANSION   AGE
fast-nfs   nfs.csi.k8s.io                             Delete          Immediate           true                   5d
local      rancher.io/local-path                      Delete          WaitForFirstConsumer   false               5d
";
    let (i, r) = one("tables.txt", text);
    no_problems(&r);
    let s = &i.snapshot;
    assert_eq!(s.pods.len(), 3);
    let train = s
        .pods
        .iter()
        .find(|p| p.metadata.name == "train-0")
        .expect("train-0");
    assert_eq!(
        (
            train.metadata.namespace.as_str(),
            train.status.phase.as_str(),
            train.spec.node_name.as_str()
        ),
        ("team-a", "Pending", "")
    );
    let evicted = s
        .pods
        .iter()
        .find(|p| p.metadata.name == "eval-0")
        .expect("eval-0");
    assert_eq!(
        (
            evicted.status.phase.as_str(),
            evicted.status.reason.as_str()
        ),
        ("Failed", "Evicted")
    );
    // thin pods are never reported as unschedulable from what the table does not show
    assert!(
        r.by_rule("pod-unschedulable").next().is_none(),
        "{}",
        summary(&r)
    );
    let ds = &s.daemon_sets[0];
    assert_eq!(ds.metadata.namespace, "kube-system");
    assert_eq!(ds.status.desired_number_scheduled, 0);
    assert_eq!(
        ds.spec
            .template
            .spec
            .node_selector
            .get("nvidia.com/gpu.present"),
        Some("true")
    );
    assert_eq!(
        ds.spec.template.spec.containers[0].image,
        "nvcr.io/nvidia/k8s-device-plugin:v0.14.1"
    );
    let q = &s.resource_quotas[0];
    assert_eq!(q.metadata.name, "compute-gpu");
    // the table has no NAMESPACE column: the command's `-n team-a` says it
    assert_eq!(q.metadata.namespace, "team-a");
    assert_eq!(s.persistent_volume_claims[0].metadata.namespace, "team-a");
    assert_eq!(
        q.spec
            .hard
            .get("requests.nvidia.com/gpu")
            .map(|v| v.value()),
        Some(16)
    );
    assert_eq!(
        q.status
            .as_ref()
            .and_then(|st| st.used.get("requests.nvidia.com/gpu"))
            .map(|v| v.value()),
        Some(15)
    );
    assert_eq!(
        q.spec
            .hard
            .get("limits.memory")
            .map(ToString::to_string)
            .as_deref(),
        Some("64Gi")
    );
    assert_eq!(s.priority_classes.len(), 2);
    assert_eq!(s.priority_classes[1].value, 100000);
    assert_eq!(s.persistent_volume_claims[0].status.phase, "Pending");
    assert_eq!(s.persistent_volume_claims[0].spec.storage_class_name, None);
    let pv = &s.persistent_volumes[0];
    assert_eq!(
        pv.spec.claim_ref.as_ref().map(|c| c.name.as_str()),
        Some("checkpoints")
    );
    assert_eq!(s.storage_classes.len(), 2);
    assert!(s.storage_classes.iter().all(|c| !c.is_default()));
    // no default class and a Pending claim without class: the rule reads the tables
    assert!(
        r.by_rule("storage-no-default-class").next().is_some(),
        "{}",
        summary(&r)
    );
}

#[test]
fn describe_of_every_kind_the_rules_read() {
    let text = "Name:           nvidia-device-plugin-daemonset
Namespace:      kube-system
Selector:       name=nvidia-device-plugin-ds
Node-Selector:  nvidia.com/gpu.present=true
Labels:         <none>
Annotations:    deprecated.daemonset.template.generation: 1
Desired Number of Nodes Scheduled: 0
Current Number of Nodes Scheduled: 0
Number of Nodes Scheduled with Up-to-date Pods: 0
Number of Nodes Scheduled with Available Pods: 0
Number of Nodes Misscheduled: 0
Pods Status:  0 Running / 0 Waiting / 0 Succeeded / 0 Failed
Pod Template:
  Labels:  name=nvidia-device-plugin-ds
  Containers:
   nvidia-device-plugin-ctr:
    Image:      nvcr.io/nvidia/k8s-device-plugin:v0.14.1
    Port:       <none>
    Host Port:  <none>
    Environment:
      FAIL_ON_INIT_ERROR:  false
    Mounts:
      /var/lib/kubelet/device-plugins from device-plugin (rw)
  Volumes:
   device-plugin:
    Type:               HostPath (bare host directory volume)
    Path:               /var/lib/kubelet/device-plugins
    HostPathType:
  Priority Class Name:  system-node-critical
  Node-Selectors:       nvidia.com/gpu.present=true
  Tolerations:          CriticalAddonsOnly op=Exists
                        nvidia.com/gpu:NoSchedule op=Exists
Events:                 <none>

Name:            compute-gpu
Namespace:       team-a
Resource         Used   Hard
--------         ----   ----
limits.memory    0      64Gi
requests.cpu     500m   8
requests.nvidia.com/gpu  15  16

Name:       defaults
Namespace:  team-a
Type        Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
----        --------  ---  ---  ---------------  -------------  -----------------------
Container   cpu       -    -    100m             -              -
Container   memory    -    -    128Mi            -              -

Name:         team-b
Labels:       kubernetes.io/metadata.name=team-b
Annotations:  <none>
Status:       Active

Resource Quotas
  Name:                    gpu
  Resource                 Used  Hard
  --------                 ---   ---
  requests.nvidia.com/gpu  2     4

Resource Limits
 Type       Resource  Min  Max  Default Request  Default Limit  Max Limit/Request Ratio
 ----       --------  ---  ---  ---------------  -------------  -----------------------
 Container  memory    -    -    1Gi              2Gi            -

Name:              training-high
Value:             100000
GlobalDefault:     false
PreemptionPolicy:  PreemptLowerPriority
Description:       training jobs
Annotations:       <none>
Events:            <none>

Name:            scratch-hostpath-01
Labels:          <none>
Annotations:     <none>
Finalizers:      [kubernetes.io/pv-protection]
StorageClass:
Status:          Bound
Claim:           team-nlp/checkpoints
Reclaim Policy:  Retain
Access Modes:    RWO
VolumeMode:      Filesystem
Capacity:        100Gi
Node Affinity:   <none>
Message:
Source:
    Type:          HostPath (bare host directory volume)
    Path:          /data/checkpoints
    HostPathType:
Events:            <none>

Name:                  local-path
IsDefaultClass:        Yes
Annotations:           storageclass.kubernetes.io/is-default-class=true
Provisioner:           rancher.io/local-path
Parameters:            <none>
AllowVolumeExpansion:  <unset>
MountOptions:          <none>
ReclaimPolicy:         Delete
VolumeBindingMode:     WaitForFirstConsumer
Events:                <none>
";
    let (i, r) = one("describe.txt", text);
    no_problems(&r);
    let s = &i.snapshot;
    let ds = &s.daemon_sets[0];
    assert_eq!(ds.metadata.name, "nvidia-device-plugin-daemonset");
    assert_eq!(ds.spec.template.spec.tolerations.len(), 2);
    assert_eq!(ds.spec.template.spec.tolerations[1].key, "nvidia.com/gpu");
    assert_eq!(
        ds.spec.template.spec.containers[0].name,
        "nvidia-device-plugin-ctr"
    );
    assert_eq!(
        ds.spec.template.spec.priority_class_name,
        "system-node-critical"
    );
    assert_eq!(
        ds.spec.selector.as_ref().map(|l| l.match_labels.len()),
        Some(1)
    );
    assert_eq!(s.resource_quotas.len(), 2);
    let q = &s.resource_quotas[0];
    assert_eq!(
        (q.metadata.namespace.as_str(), q.metadata.name.as_str()),
        ("team-a", "compute-gpu")
    );
    assert_eq!(
        q.spec
            .hard
            .get("requests.nvidia.com/gpu")
            .map(|v| v.value()),
        Some(16)
    );
    let nsq = &s.resource_quotas[1];
    assert_eq!(
        (nsq.metadata.namespace.as_str(), nsq.metadata.name.as_str()),
        ("team-b", "gpu")
    );
    assert_eq!(s.limit_ranges.len(), 2);
    let lr = &s.limit_ranges[0];
    assert_eq!(lr.spec.limits[0].type_, "Container");
    assert_eq!(
        lr.spec.limits[0]
            .default_request
            .get("memory")
            .map(ToString::to_string)
            .as_deref(),
        Some("128Mi")
    );
    assert!(lr.spec.limits[0].default.is_empty());
    assert_eq!(s.limit_ranges[1].metadata.namespace, "team-b");
    assert_eq!(s.priority_classes[0].value, 100000);
    let pv = &s.persistent_volumes[0];
    assert_eq!(
        pv.spec.host_path.as_ref().map(|h| h.path.as_str()),
        Some("/data/checkpoints")
    );
    assert!(pv.spec.node_affinity.is_none());
    assert!(s.storage_classes[0].is_default());
    assert_eq!(s.storage_classes[0].provisioner, "rancher.io/local-path");
}

/// Rows aligned as kubectl's tabwriter prints them (cells padded, three spaces between
/// columns; the last column is not padded).
fn tabwrite(rows: &[&[&str]]) -> String {
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c + 1 == r.len() {
                line.push_str(cell);
            } else {
                line.push_str(&format!("{cell:<w$}   ", w = width[c]));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn events_tables_with_and_without_namespace_and_old_columns() {
    let msg = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";
    for (form, text) in [
        (
            "-n",
            tabwrite(&[
                &["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
                &["2m", "Warning", "FailedScheduling", "pod/train-0", msg],
            ]),
        ),
        (
            "-A",
            tabwrite(&[
                &[
                    "NAMESPACE",
                    "LAST SEEN",
                    "TYPE",
                    "REASON",
                    "OBJECT",
                    "MESSAGE",
                ],
                &[
                    "team-a",
                    "2m",
                    "Warning",
                    "FailedScheduling",
                    "pod/train-0",
                    msg,
                ],
            ]),
        ),
        // `kubectl get events -o wide`: MESSAGE is not the last column
        (
            "-o wide",
            tabwrite(&[
                &[
                    "LAST SEEN",
                    "TYPE",
                    "REASON",
                    "OBJECT",
                    "SUBOBJECT",
                    "SOURCE",
                    "MESSAGE",
                    "FIRST SEEN",
                    "COUNT",
                    "NAME",
                ],
                &[
                    "2m",
                    "Warning",
                    "FailedScheduling",
                    "pod/train-0",
                    "",
                    "default-scheduler",
                    msg,
                    "5m",
                    "7",
                    "train-0.17a3bc4d5e6f7a8b",
                ],
            ]),
        ),
        (
            "kubectl < 1.14",
            tabwrite(&[
                &[
                    "LAST SEEN",
                    "FIRST SEEN",
                    "COUNT",
                    "NAME",
                    "KIND",
                    "SUBOBJECT",
                    "TYPE",
                    "REASON",
                    "SOURCE",
                    "MESSAGE",
                ],
                &[
                    "2m",
                    "5m",
                    "7",
                    "train-0.17a3bc4d5e6f7a8b",
                    "Pod",
                    "",
                    "Warning",
                    "FailedScheduling",
                    "default-scheduler",
                    msg,
                ],
            ]),
        ),
    ] {
        let (i, r) = one("events.txt", &text);
        assert_eq!(i.snapshot.events.len(), 1, "{form}");
        let e = &i.snapshot.events[0];
        assert_eq!(e.involved_object.name, "train-0", "{form}");
        assert_eq!(e.involved_object.kind, "Pod", "{form}");
        assert_eq!(e.reason, "FailedScheduling", "{form}");
        assert!(e.message.starts_with("0/2 nodes"), "{form}: {}", e.message);
        assert!(
            r.by_rule("pod-unschedulable").next().is_some(),
            "{form}: {}",
            summary(&r)
        );
        if form == "-o wide" || form.starts_with("kubectl") {
            assert_eq!(e.count, Some(7), "{form}");
            assert_eq!(e.source.component, "default-scheduler", "{form}");
        }
    }
}

#[test]
fn yaml_with_markers_comments_and_lists_and_json_lines() {
    let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n";
    for (form, text) in [
        ("leading ---", format!("---\n{node}")),
        (
            "comments",
            format!("# kubectl get node n1 -o yaml\n# (trimmed)\n{node}"),
        ),
        (
            "List",
            format!(
                "apiVersion: v1\nitems:\n- {}\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
                node.replace('\n', "\n  ").trim_end()
            ),
        ),
        ("fenced", format!("```yaml\n{node}```\n")),
        ("prompt", format!("$ kubectl get node n1 -o yaml\n{node}")),
    ] {
        let (i, r) = one("node.yaml", &text);
        assert_eq!(i.snapshot.nodes.len(), 1, "{form}: {}", summary(&r));
        assert_eq!(i.snapshot.nodes[0].metadata.name, "n1", "{form}");
        no_problems(&r);
    }
    // JSON Lines of error texts stay a log, read line by line
    let jl = "{\"text\":\"error: You must be logged in to the server (Unauthorized)\"}\n{\"text\":\"The connection to the server localhost:8080 was refused - did you specify the right host or port?\"}\n";
    let (i, r) = one("errors.jsonl", jl);
    assert!(i.snapshot.is_empty());
    assert!(
        r.by_rule("cluster-unauthorized").next().is_some(),
        "{}",
        summary(&r)
    );
    assert!(
        r.by_rule("cluster-unreachable").next().is_some(),
        "{}",
        summary(&r)
    );
}

#[test]
fn markdown_fences_and_issue_prose_around_pastes() {
    let text = format!(
        "**What happened**:\n\nThe GPU node joined but shows no GPUs.\n\n<details>\n<summary>describe node</summary>\n\n```console\n$ kubectl describe node gpu-01\n{DESCRIBE_NODE}```\n</details>\n\n~~~\n$ kubectl get nodes -o wide\n{WIDE}~~~\n"
    );
    let (i, r) = one("issue.md", &text);
    no_problems(&r);
    assert_eq!(i.snapshot.nodes.len(), 2, "{}", summary(&r));
    assert!(
        i.snapshot.nodes[0]
            .status
            .capacity
            .contains("nvidia.com/gpu")
    );
}

fn case(rel: &str) -> String {
    let path = format!(
        "{}/../testdata/fixtures/cases/paste/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn html_coloured_terminal_copy_is_describe_output() {
    let (i, r) = one(
        "k3ai.txt",
        &case("k3ai-html-coloured-prompt-describe-nodes.txt"),
    );
    no_problems(&r);
    assert_eq!(i.snapshot.nodes.len(), 1);
    let n = &i.snapshot.nodes[0];
    assert_eq!(n.metadata.name, "demo-win-kind-control-plane");
    assert!(
        n.spec.taints.is_empty(),
        "&lt;none&gt; is <none>: {:?}",
        n.spec.taints
    );
    assert_eq!(n.status.allocatable.get("cpu").map(|q| q.value()), Some(12));
}

#[test]
fn a_table_ended_by_a_prompt_and_the_describe_of_one_node_merge() {
    let (i, r) = one(
        "pai.txt",
        &case("pai-get-nodes-then-prompt-describe-unreachable.txt"),
    );
    no_problems(&r);
    let names: Vec<&str> = i
        .snapshot
        .nodes
        .iter()
        .map(|n| n.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["p100", "ubuntu"]);
    let p100 = &i.snapshot.nodes[0];
    assert_eq!(p100.spec.taints.len(), 2);
    assert!(
        !p100
            .metadata
            .annotations
            .contains_key(cube_model::describe::PARTIAL_ANNOTATION)
    );
}

#[test]
fn wrapped_lines_old_headers_and_ansible_results() {
    // a describe line wrapped by the editor (`(ro)` alone) does not end the pod's block
    let text = "Name:         gpu-pod
Namespace:    default
Node:         <none>
Status:       Pending
Containers:
  cuda-container:
    Image:      nvidia/cuda:9.0-base
    Limits:
      nvidia.com/gpu:  1
    Mounts:
      /var/run/secrets/kubernetes.io/serviceaccount from default-token-k95tg
(ro)
Conditions:
  Type           Status
  PodScheduled   False
QoS Class:       BestEffort
Events:
  Type     Reason            Age   From               Message
  ----     ------            ----  ----               -------
  Warning  FailedScheduling  1m    default-scheduler  0/2 nodes are available: 2 Insufficient nvidia.com/gpu.
";
    let (i, _) = one("pod.txt", text);
    assert_eq!(i.snapshot.pods.len(), 1);
    assert_eq!(i.snapshot.pods[0].status.qos_class, "BestEffort");
    assert_eq!(i.snapshot.events.len(), 1);
    assert_eq!(i.snapshot.events[0].involved_object.name, "gpu-pod");
    // kubectl 1.4's one-word LASTSEEN / FIRSTSEEN headers, with a root prompt
    let old = "[root@cloud kubernetes]# kubectl get events --namespace=kube-system
LASTSEEN   FIRSTSEEN   COUNT     NAME                        KIND      SUBOBJECT   TYPE      REASON             SOURCE              MESSAGE
1s         16h         26052     kube-dns-2247936740-j6pq1   Pod                   Warning   FailedScheduling   {default-scheduler }   0/1 nodes are available: 1 Insufficient cpu.
";
    let (i, _) = one("old.txt", old);
    assert_eq!(i.snapshot.events.len(), 1, "{:?}", i.snapshot.events);
    assert_eq!(i.snapshot.events[0].count, Some(26052));
    assert_eq!(
        i.snapshot.events[0].involved_object.name,
        "kube-dns-2247936740-j6pq1"
    );
    // an Ansible task result: kubeadm's stderr inside the JSON is read
    let (_, r) = one(
        "kubespray.txt",
        &case("kubespray-ansible-fatal-join-timeout.txt"),
    );
    assert!(
        r.by_rule("join-apiserver-unreachable").next().is_some(),
        "{}",
        summary(&r)
    );
    no_problems(&r);
}

/// Two `describe` outputs indented by 4 spaces (Markdown code) between lines of prose: each
/// block is read, with the container states describe prints (issue 8 red-team class P).
#[test]
fn indented_describes_between_prose_with_container_states() {
    let pod = "Name:           nvidia-driver-installer-p8qqj
Namespace:      kube-system
Node:           gke-node-03/10.0.0.30
Status:         Pending
Controlled By:  DaemonSet/nvidia-driver-installer
Init Containers:
  nvidia-driver-installer:
    Image:          cos-gpu-installer:fixed
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    32
    Ready:          False
    Restart Count:  22
Containers:
  pause:
    Image:          pause:2.0
    State:          Waiting
      Reason:       PodInitializing
    Ready:          False
    Restart Count:  0
Conditions:
  Type              Status
  Initialized       False
  Ready             False
Events:
  Type     Reason   Age                    From                          Message
  ----     ------   ----                   ----                          -------
  Warning  BackOff  2m (x431 over 1h45m)   kubelet, gke-node-03         Back-off restarting failed container
";
    let node = "Name:               gke-node-03
Roles:              <none>
Labels:             cloud.google.com/gke-accelerator=nvidia-tesla-k80
                    kubernetes.io/hostname=gke-node-03
Taints:             nvidia.com/gpu=present:NoSchedule
Capacity:
 cpu:                2
 pods:               110
Allocatable:
 cpu:                1930m
 pods:               110
";
    for indent in ["    ", "\t"] {
        let block = |t: &str| -> String { t.lines().map(|l| format!("{indent}{l}\n")).collect() };
        let text = format!(
            "Added the installer log. Describing the pod: `kubectl describe pods nvidia-driver-installer-p8qqj -n=kube-system`\n\n{}\nand `kubectl describe node gke-node-03`:\n\n{}",
            block(pod),
            block(node)
        );
        let (i, r) = one("issue.txt", &text);
        let s = &i.snapshot;
        assert_eq!(s.nodes.len(), 1, "{indent:?}: {}", summary(&r));
        assert_eq!(s.pods.len(), 1, "{indent:?}: {}", summary(&r));
        let p = &s.pods[0];
        let init = &p.status.init_container_statuses;
        assert_eq!(init.len(), 1);
        assert_eq!(
            init[0]
                .state
                .as_ref()
                .and_then(|st| st.waiting.as_ref())
                .map(|w| w.reason.as_str()),
            Some("CrashLoopBackOff")
        );
        assert_eq!(init[0].restart_count, 22);
        assert_eq!(s.events.len(), 1);
        // the GPU node that advertises nothing is found, with the installer pod on it
        let f = r
            .by_rule("gpu-not-advertised")
            .find(|f| f.subject.name == "gke-node-03")
            .unwrap_or_else(|| panic!("{indent:?}: {}", summary(&r)));
        assert!(
            f.evidence
                .iter()
                .any(|e| format!("{e:?}").contains("nvidia-driver-installer-p8qqj")),
            "{f:?}"
        );
    }
}

/// `kubectl get pods` and `get ds` copied from a coloured terminal on Windows: ANSI codes,
/// CRLF, tabs between cells, the `-A` NAMESPACE column; the states kubectl prints
/// (`Init:CrashLoopBackOff`, `Init:0/1`, `CrashLoopBackOff`) are kept as the pods' reasons and
/// READY gives their Ready condition.
#[test]
fn pods_and_daemon_sets_tables_from_a_coloured_windows_terminal() {
    let text = "PS C:\\Users\\dev> kubectl get pods -A -o wide\r\n\
\x1b[1mNAMESPACE\tNAME\tREADY\tSTATUS\tRESTARTS\tAGE\tIP\tNODE\tNOMINATED NODE\tREADINESS GATES\x1b[0m\r\n\
gpu-operator\tnvidia-device-plugin-daemonset-qwl7d\t0/1\tInit:0/1\t0\t25m\t10.244.1.14\tnode-02\t<none>\t<none>\r\n\
gpu-operator\tnvidia-operator-validator-d5c26\t0/1\t\x1b[31mInit:CrashLoopBackOff\x1b[0m\t4 (24s ago)\t25m\t10.244.1.15\tnode-02\t<none>\t<none>\r\n\
kube-system\tcoredns-5d78c9869d-abcde\t1/1\tRunning\t0\t5d\t10.244.0.2\tnode-01\t<none>\t<none>\r\n\
PS C:\\Users\\dev> kubectl get ds -n gpu-operator\r\n\
NAME                             DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR                                      AGE\r\n\
nvidia-device-plugin-daemonset   1         1         0       1            0           nvidia.com/gpu.deploy.device-plugin=true           25m\r\n\
nvidia-operator-validator        1         1         0       1            0           nvidia.com/gpu.deploy.operator-validator=true      25m\r\n";
    let (i, r) = one("win.txt", text);
    no_problems(&r);
    let s = &i.snapshot;
    let pod = |n: &str| {
        s.pods
            .iter()
            .find(|p| p.metadata.name == n)
            .unwrap_or_else(|| panic!("{n}: {}", summary(&r)))
    };
    let validator = pod("nvidia-operator-validator-d5c26");
    assert_eq!(
        (
            validator.metadata.namespace.as_str(),
            validator.status.phase.as_str(),
            validator.status.reason.as_str(),
            validator.spec.node_name.as_str()
        ),
        (
            "gpu-operator",
            "Pending",
            "Init:CrashLoopBackOff",
            "node-02"
        )
    );
    assert_eq!(
        pod("nvidia-device-plugin-daemonset-qwl7d").status.reason,
        "Init:0/1"
    );
    let ready = |n: &str| {
        pod(n)
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Ready")
            .map(|c| c.status.clone())
    };
    assert_eq!(ready("coredns-5d78c9869d-abcde").as_deref(), Some("True"));
    assert_eq!(
        ready("nvidia-operator-validator-d5c26").as_deref(),
        Some("False")
    );
    assert_eq!(s.daemon_sets.len(), 2);
    let ds = &s.daemon_sets[0];
    assert_eq!(ds.metadata.namespace, "gpu-operator");
    assert_eq!(
        (
            ds.status.desired_number_scheduled,
            ds.status.current_number_scheduled,
            ds.status.number_ready
        ),
        (1, 1, 0)
    );
    assert_eq!(
        ds.spec
            .template
            .spec
            .node_selector
            .get("nvidia.com/gpu.deploy.device-plugin"),
        Some("true")
    );
    assert!(cube_model::describe::is_unknown(
        &ds.metadata,
        "tolerations"
    ));
}

/// A JSON log record cut short, then klog lines; JSON lines after a line of text; `{}` at the
/// start of log lines: all logs, never broken JSON (no fatal problem, exit 0 or 1).
#[test]
fn logs_that_start_like_json_are_never_broken_json() {
    for text in [
        "{\"level\":\"error\",\"msg\":\"Failed to initialize NVML: could not load NVML library\", \"err\":\"boom\"\nI1201 10:00:00.000000       1 main.go:1] next\n",
        "Starting plugin\n{\"level\":\"error\",\"msg\":\"failed to initialize NVML: ERROR_LIBRARY_NOT_FOUND\"}\n",
        "{} [INFO] starting\n{} [ERROR] Failed to initialize NVML: could not load NVML library\n",
        "{\"level\":\"info\",\"msg\":\"Starting\"}\nE1201 10:00:00.000000       1 main.go:12] Failed to initialize NVML: could not load NVML library\n",
    ] {
        let (i, r) = one("plugin.log", text);
        assert!(!i.has_fatal_problem(), "{text}: {}", summary(&r));
        assert!(
            r.input_problems
                .iter()
                .all(|p| !p.message.contains("invalid JSON")),
            "{text}: {}",
            summary(&r)
        );
        assert_eq!(i.logs.len(), 1, "{text}");
    }
}

/// Hostile pastes through the whole input path: huge and ragged tables, control characters,
/// lone CRs, NULs removed by the caller, wide characters, a prompt per line. Nothing panics and
/// the valid rows are read.
#[test]
fn hostile_pastes_never_panic() {
    let mut huge = String::from(
        "$ kubectl get pods -A\n\x1b[1mNAMESPACE   NAME   READY   STATUS   RESTARTS   AGE\x1b[0m\r\n",
    );
    for k in 0..30_000 {
        huge.push_str(&format!(
            "ns-{}   pod-{k}   0/1   CrashLoopBackOff   {k} (1m ago)   1d\r\n",
            k % 7
        ));
    }
    let (i, _) = one("huge.txt", &huge);
    assert_eq!(i.snapshot.pods.len(), 30_000);
    for text in [
        "NAME   READY   STATUS   RESTARTS   AGE\npod-a\npod-b 1/1\n\t\t\t\n\u{3000}日本語   1/1   Running   0   1d   extra   cells   here\n",
        "    Name: x\n\tRoles: y\n  \n\u{1b}[0m\r\r\r\n      Type  Status\n",
        "$ \n$ $ $\n# \n```\n```\n~~~\n",
        "NAME STATUS ROLES AGE VERSION\r\nNAME STATUS ROLES AGE VERSION\r\n\r\n",
        "Name: n\nConditions:\n  Ready\n  Ready False\n  ----\n",
        "LAST SEEN   TYPE   REASON   OBJECT   MESSAGE\n1m   Warning\n",
        "{\n\"kind\": \"Pod\",\nI1201 broken\n",
    ] {
        let (_i, _r) = one("h.txt", text);
    }
}
