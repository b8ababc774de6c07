//! API `Status` bodies in every shape people paste them, and inputs that are host facts only
//! (issue 8 "Pastes", issue 9 "nothing dropped without a word"). Each goes through
//! `Inputs::add` exactly as `cluster_diagnose` does.

use cube_diagnose::{Evidence, Report, Severity};

// the helpers shared with pastes.rs: one input through `Inputs::add` and the engine
use super::pastes::{one, summary};

fn lines_of(r: &Report, rule: &str) -> Vec<usize> {
    r.by_rule(rule)
        .flat_map(|f| f.evidence.iter())
        .filter_map(|e| match e {
            Evidence::Log { line, .. } => Some(*line),
            _ => None,
        })
        .collect()
}

const QUOTA_MSG: &str = r#"pods \"jupyter-x\" is forbidden: failed quota: compute-resources: must specify limits.memory"#;

/// The one conclusion of a quota Status, whatever its shape: `quota-without-limitrange` on
/// `line`, nothing about a kind that could not be read, nothing unrecognised.
#[track_caller]
fn quota_status_read(name: &str, text: &str, line: usize) {
    let (i, r) = one(name, text);
    assert!(
        i.snapshot.missing_kinds.is_empty(),
        "{name}: a rejected write is not an unread kind: {:?}",
        i.snapshot.missing_kinds
    );
    assert_eq!(
        lines_of(&r, "quota-without-limitrange"),
        [line],
        "{name}: {}",
        summary(&r)
    );
    for rule in [
        "snapshot-incomplete",
        "log-line-unrecognised",
        "cluster-forbidden",
    ] {
        assert!(r.by_rule(rule).next().is_none(), "{name}: {}", summary(&r));
    }
    assert_eq!(r.exit_code(), 1, "{name}: {}", summary(&r));
}

#[test]
fn status_bodies_in_every_shape_are_read_as_what_they_say() {
    let one_line = format!(
        r#"{{"kind":"Status","apiVersion":"v1","metadata":{{}},"status":"Failure","message":"{QUOTA_MSG}","reason":"Forbidden","details":{{"name":"jupyter-x","kind":"pods"}},"code":403}}"#
    );
    quota_status_read("status.json", &format!("{one_line}\n"), 1);
    let pretty = format!(
        "{{\n  \"kind\": \"Status\",\n  \"apiVersion\": \"v1\",\n  \"metadata\": {{}},\n  \"status\": \"Failure\",\n  \"message\": \"{QUOTA_MSG}\",\n  \"reason\": \"Forbidden\",\n  \"details\": {{\n    \"name\": \"jupyter-x\",\n    \"kind\": \"pods\"\n  }},\n  \"code\": 403\n}}\n"
    );
    quota_status_read("pretty.json", &pretty, 6);
    let yaml = "apiVersion: v1\nkind: Status\nmetadata: {}\nstatus: Failure\nmessage: 'pods \"jupyter-x\" is forbidden: failed quota: compute-resources: must specify limits.memory'\nreason: Forbidden\ndetails:\n  name: jupyter-x\n  kind: pods\ncode: 403\n";
    quota_status_read("status.yaml", yaml, 5);
    // kubectl -v=8: the body after `Response Body: ` (client-go transport/round_trippers.go)
    let verbose = format!(
        "I0301 10:00:00.000000   12345 round_trippers.go:463] POST https://10.0.0.1:6443/api/v1/namespaces/hub/pods 403 Forbidden in 12 milliseconds\nI0301 10:00:00.000100   12345 round_trippers.go:553] Response Body: {one_line}\n"
    );
    quota_status_read("kubectl-v8.log", &verbose, 2);
    // curl -i: status line, headers, blank line, pretty body
    let curl = format!(
        "$ curl -k -i -X POST https://10.0.0.1:6443/api/v1/namespaces/hub/pods -d @pod.json\nHTTP/1.1 403 Forbidden\nAudit-Id: 00000000-0000-0000-0000-000000000000\nCache-Control: no-cache, private\nContent-Type: application/json\nDate: Fri, 01 Mar 2024 10:00:00 GMT\nContent-Length: 250\n\n{pretty}"
    );
    quota_status_read("curl.txt", &curl, 14);
    // a Status among the items of a List, next to an object
    let list = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"hub"}}}},{one_line}]}}"#
    );
    let (i, r) = one("list.json", &list);
    assert_eq!(i.snapshot.namespaces.len(), 1);
    assert_eq!(
        r.by_rule("quota-without-limitrange").count(),
        1,
        "{}",
        summary(&r)
    );
    // kubectl's own line (k8s.io/kubectl pkg/cmd/util/helpers.go StandardErrorMessage)
    let (_, r) = one(
        "kubectl.txt",
        "Error from server (Forbidden): error when creating \"pod.yaml\": pods \"jupyter-x\" is forbidden: failed quota: compute-resources: must specify limits.memory\n",
    );
    assert_eq!(
        r.by_rule("quota-without-limitrange").count(),
        1,
        "{}",
        summary(&r)
    );
}

#[test]
fn a_refused_list_is_still_an_unread_kind_and_causes_are_read() {
    let (i, r) = one(
        "nodes.json",
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes is forbidden: User \"system:serviceaccount:ci:runner\" cannot list resource \"nodes\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"kind":"nodes"},"code":403}"#,
    );
    assert!(
        i.snapshot.missing_kinds.contains_key("Node"),
        "{:?}",
        i.snapshot.missing_kinds
    );
    assert!(
        r.by_rule("snapshot-incomplete").next().is_some(),
        "{}",
        summary(&r)
    );
    // details.causes[]: each cause not already in the message is a line of its own
    let (i, _) = one(
        "invalid.json",
        r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"admission webhook \"validate.example.com\" denied the request","reason":"Invalid","details":{"name":"train-0","kind":"Pod","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"8\": must be less than or equal to nvidia.com/gpu limit","field":"spec.containers[0].resources.requests"}]},"code":422}"#,
    );
    assert!(i.snapshot.missing_kinds.is_empty());
    let text: String = i.logs.iter().map(|l| l.text.clone()).collect();
    assert!(
        text.contains("spec.containers[0].resources.requests: Invalid value: \"8\""),
        "{text}"
    );
}

#[test]
fn host_facts_alone_are_read_and_nothing_is_concluded() {
    for (name, text) in [
        (
            "lspci.txt",
            "PCI device detection:\n\n```bash\nbash-5.1# lspci -d 1002:75a3\n51:00.0 Processing accelerators: Advanced Micro Devices, Inc. [AMD/ATI] Device 75a3\n52:00.0 Processing accelerators: Advanced Micro Devices, Inc. [AMD/ATI] Device 75a3\n```\n",
        ),
        (
            "env.md",
            "**Environmental Info:**\nK3s Version:\n```\nk3s version v1.28.7+k3s1 (051b14b2)\ngo version go1.21.7\n```\n\nNode(s) CPU architecture, OS, and Version:\n`Linux node-01 6.5.0-25-generic #25~22.04.1-Ubuntu SMP PREEMPT_DYNAMIC Tue Feb 20 15:25:15 UTC 2 x86_64 x86_64 x86_64 GNU/Linux`\n\nCluster Configuration:\n1 server, 2 agents\n",
        ),
        (
            "versions.txt",
            "$ kubectl version\nClient Version: v1.29.2\nKustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3\nServer Version: v1.29.2\n$ cat /etc/os-release\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\n$ free -g\n               total        used        free      shared  buff/cache   available\nMem:             503          40         400           0          62         460\n",
        ),
    ] {
        let (_, r) = one(name, text);
        assert!(
            r.findings.iter().all(|f| f.severity == Severity::Info),
            "{name}: {}",
            summary(&r)
        );
        assert_eq!(r.exit_code(), 0, "{name}: {}", summary(&r));
        assert!(
            r.input_problems.iter().any(|p| p
                .message
                .starts_with("read as host facts: nothing to diagnose")),
            "{name}: {}",
            summary(&r)
        );
    }
}

#[test]
fn host_facts_with_anything_else_stay_an_incomplete_picture() {
    for (name, text) in [
        // a device that fell off the bus
        (
            "rev-ff.txt",
            "$ lspci | grep -i nvidia\n3b:00.0 3D controller: NVIDIA Corporation Device 20b5 (rev ff)\n",
        ),
        // the bug description of the template is not host facts
        (
            "template.md",
            "**Environmental Info:**\nK3s Version: v1.28.7+k3s1\n\n**Describe the bug:**\nthe agent never shows up in the node list\n",
        ),
        // an unknown line among the facts
        (
            "mixed.txt",
            "$ uname -a\nLinux node-01 6.5.0-25-generic #25-Ubuntu SMP x86_64 GNU/Linux\nsome output nobody knows\n",
        ),
    ] {
        let (_, r) = one(name, text);
        assert!(
            r.findings
                .iter()
                .any(|f| f.rule_id == "snapshot-incomplete" && f.severity == Severity::Warning),
            "{name}: {}",
            summary(&r)
        );
        assert_eq!(r.exit_code(), 3, "{name}: {}", summary(&r));
    }
}

/// CI runners' and multiplexers' line prefixes: the program's line is read, runner noise is
/// blank, and a runner's failure summary is explained by the error the same log shows.
#[test]
fn ci_prefixes_are_read_through_and_summaries_explained() {
    let preflight = "[ERROR FileAvailable--etc-kubernetes-kubelet.conf]: /etc/kubernetes/kubelet.conf already exists";
    for (name, text) in [
        (
            "github-actions.log",
            format!(
                "2024-01-01T10:00:00.1000000Z ##[group]Run sudo kubeadm join 10.0.0.1:6443\n2024-01-01T10:00:00.2000000Z [preflight] Running pre-flight checks\n2024-01-01T10:00:01.3000000Z error execution phase preflight: [preflight] Some fatal errors occurred:\n2024-01-01T10:00:01.3000000Z \t{preflight}\n2024-01-01T10:00:01.4000000Z ##[endgroup]\n2024-01-01T10:00:01.5000000Z ##[error]Process completed with exit code 1.\n"
            ),
        ),
        (
            "gitlab.log",
            format!(
                "section_start:1700000000:step_script\r\x1b[0KExecuting \"step_script\" stage of the job script\n$ kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef\n[preflight] Running pre-flight checks\nerror execution phase preflight: [preflight] Some fatal errors occurred:\n\t{preflight}\nsection_end:1700000001:step_script\r\x1b[0K\nERROR: Job failed: exit code 1\n"
            ),
        ),
        (
            "jenkins.log",
            format!(
                "[Pipeline] stage\n[Pipeline] {{ (Join)\n[Pipeline] sh\n+ kubeadm join 10.0.0.1:6443\n[preflight] Running pre-flight checks\nerror execution phase preflight: [preflight] Some fatal errors occurred:\n\t{preflight}\n[Pipeline] }}\n[Pipeline] // stage\nERROR: script returned exit code 1\nFinished: FAILURE\n"
            ),
        ),
        (
            "pdsh.log",
            format!(
                "worker-01: [preflight] Running pre-flight checks\nworker-02: [preflight] Running pre-flight checks\nworker-02: error execution phase preflight: [preflight] Some fatal errors occurred:\nworker-02: {preflight}\nERROR: at least one worker failed to join the cluster\n"
            ),
        ),
    ] {
        let (_, r) = one(name, &text);
        assert_eq!(
            r.by_rule("join-preflight-failed").count(),
            1,
            "{name}: {}",
            summary(&r)
        );
        assert!(
            r.by_rule("log-line-unrecognised").next().is_none()
                && r.by_rule("snapshot-incomplete").next().is_none(),
            "{name}: {}",
            summary(&r)
        );
        if name == "pdsh.log" {
            let f = r.by_rule("join-preflight-failed").next().unwrap();
            assert_eq!(f.subject.to_string(), "Node/worker-02", "{}", summary(&r));
        }
    }
}

/// A runner's summary with no cause in the log stays an unread error (never an all-clear),
/// and a mask command never shows its secret.
#[test]
fn an_unexplained_runner_summary_stays_incomplete() {
    let (_, r) = one(
        "ci.log",
        "2024-01-01T10:00:00.1000000Z ##[group]Run ./deploy.sh\n2024-01-01T10:00:00.2000000Z ::add-mask::hunter2-very-secret\n2024-01-01T10:00:00.3000000Z ##[endgroup]\n2024-01-01T10:00:01.5000000Z ##[error]Process completed with exit code 1.\n",
    );
    assert!(
        r.findings
            .iter()
            .any(|f| f.rule_id == "log-line-unrecognised" && f.severity == Severity::Warning),
        "{}",
        summary(&r)
    );
    assert_eq!(r.exit_code(), 3, "{}", summary(&r));
    assert!(!summary(&r).contains("hunter2"), "{}", summary(&r));
}

const DESCRIBE_CPU_NODE: &str = "root@node-02:~# kubectl describe node node-02\nName:               node-02\nRoles:              <none>\nLabels:             kubernetes.io/hostname=node-02\n                    kubernetes.io/os=linux\nTaints:             <none>\nUnschedulable:      false\nConditions:\n  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----             ------  -----------------                 ------------------                ------                       -------\n  Ready            True    Fri, 19 Jul 2024 03:20:41 +0000   Thu, 18 Jul 2024 02:13:48 +0000   KubeletReady                 kubelet is posting ready status\nCapacity:\n  cpu:                48\n  memory:             263603720Ki\n  pods:               110\nAllocatable:\n  cpu:                48\n  memory:             263501320Ki\n  pods:               110\nEvents:              <none>\n";

/// An `lspci` listing pasted with the node is GPU evidence of that node (the reporting chain
/// then names what is missing); on-board VGA is not.
#[test]
fn lspci_gpus_pasted_with_the_node_are_gpu_evidence() {
    let text = format!(
        "{DESCRIBE_CPU_NODE}root@node-02:~# lspci | grep -i nvidia\n3b:00.0 3D controller: NVIDIA Corporation GP104GL [Tesla P4] (rev a1)\nd8:00.0 3D controller: NVIDIA Corporation GP104GL [Tesla P4] (rev a1)\n"
    );
    let (i, r) = one("paste.txt", &text);
    let node = &i.snapshot.nodes[0];
    assert!(
        node.metadata
            .annotations
            .get(cube_model::smi::LSPCI_NVIDIA_ANNOTATION)
            .is_some_and(|a| a.contains("2 GPU(s)")),
        "{:?}",
        node.metadata.annotations
    );
    let f = r
        .by_rule("gpu-not-advertised")
        .find(|f| f.subject.to_string() == "Node/node-02");
    assert!(f.is_some(), "{}", summary(&r));
    // a server's on-board graphics is no GPU node
    let text = format!(
        "{DESCRIBE_CPU_NODE}root@node-02:~# lspci | grep -i vga\n03:00.0 VGA compatible controller: ASPEED Technology, Inc. ASPEED Graphics Family (rev 41)\n00:02.0 VGA compatible controller: Intel Corporation UHD Graphics 630 (rev 02)\n"
    );
    let (_, r) = one("paste.txt", &text);
    assert!(
        r.findings.iter().all(|f| !f.rule_id.starts_with("gpu-")),
        "{}",
        summary(&r)
    );
}
