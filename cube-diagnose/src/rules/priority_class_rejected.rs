//! `priority-class-rejected`: the Priority admission plugin (or the PriorityClass validation)
//! rejects a pod or a PriorityClass, so the controller creates no pod.
//!
//! Upstream texts (kubernetes/kubernetes):
//! - `plugin/pkg/admission/priority/admission.go` `admitPod`: `no PriorityClass with name %v was
//!   found` (v1.8+); `pods with %v priorityClass is not permitted in %v namespace`
//!   (`priorityClassPermittedInNamespace`, v1.11-v1.16: the two `system-*` classes only in
//!   kube-system; since v1.17 the API server's ResourceQuota admission configuration limits
//!   them instead, `insufficient quota to match these scopes`, read by
//!   `priority-without-quota`); `the integer value of priority (%d) must not be provided in pod
//!   spec; priority admission controller computed %d from the given PriorityClass name` (v1.12+;
//!   v1.8-v1.11 `the integer value of priority must not be provided in pod spec. ...`); `the
//!   string value of PreemptionPolicy (%s) must not be provided in pod spec; ...` (v1.19+).
//! - `validatePriorityClass` and `pkg/apis/scheduling/validation/validation.go`
//!   `ValidatePriorityClass`: `PriorityClass %v is already marked as default. Only one default
//!   can exist`, `maximum allowed value of a user defined priority is %v`, `priority class names
//!   with 'system-' prefix are reserved for system use only` (v1.8-v1.10: `the name of the
//!   priority class is a reserved name for system use only: %v`).
//!
//! The built-in classes `system-cluster-critical` and `system-node-critical` are created by the
//! API server itself (post-start hook `scheduling/bootstrap-system-priority-classes`,
//! `pkg/registry/scheduling/rest/storage_scheduling.go`) only while it serves the
//! `scheduling.k8s.io` API group (alpha v1alpha1 in v1.8-v1.10, off unless
//! `--runtime-config=scheduling.k8s.io/v1alpha1=true`; beta v1.11-v1.13; GA v1.14): a "not
//! found" for one of them means that group is not served (or the hook failed), not a typo.

use std::collections::BTreeMap;

use crate::classify::{Signal, SignalKind};
use crate::rules::{obj, shell_word, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    PriorityClassRejected,
    "priority-class-rejected",
    Quota,
    Error,
    "The Priority admission plugin rejects the workload's pods (or a PriorityClass): priorityClassName names a class that does not exist ('no PriorityClass with name X was found'; for the built-in system-cluster-critical / system-node-critical this means the API server does not serve the scheduling.k8s.io group that creates them), a system-* class used outside kube-system on v1.11-v1.16 ('pods with system-cluster-critical priorityClass is not permitted in default namespace'), a pod template that sets spec.priority or spec.preemptionPolicy itself, or a PriorityClass that takes a reserved name, a value above 1000000000 or a second globalDefault (plugin/pkg/admission/priority/admission.go, pkg/apis/scheduling/validation). No pod is created until the template or the classes change; the finding names the workload, the class and the one fix.",
    check
);

/// The two classes the API server creates itself (kubernetes/kubernetes
/// `pkg/apis/scheduling/types.go` `SystemClusterCritical`, `SystemNodeCritical`).
const SYSTEM_CLASSES: [&str; 2] = ["system-cluster-critical", "system-node-critical"];

/// The workload (`Kind/namespace/name`) an OpenShift e2e monitor or event-timeline line names
/// before its message: `W ns/<namespace> <kind>/<name> Error creating: ...`
/// (openshift/origin `pkg/monitor`), or a controller's klog `Error syncing <Kind> <ns>/<name>`
/// (kubernetes `pkg/controller/*`: `Error syncing StatefulSet ns/name, requeuing: ...`).
fn named_workload(text: &str) -> Option<Subject> {
    let kind_of = |k: &str| -> Option<&'static str> {
        Some(match k.to_ascii_lowercase().as_str() {
            "daemonset" | "daemonsets" | "ds" => "DaemonSet",
            "deployment" | "deployments" | "deploy" => "Deployment",
            "replicaset" | "replicasets" | "rs" => "ReplicaSet",
            "statefulset" | "statefulsets" | "sts" => "StatefulSet",
            "job" | "jobs" => "Job",
            "replicationcontroller" | "replicationcontrollers" | "rc" => "ReplicationController",
            _ => return None,
        })
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    // `ns/<ns> <kind>/<name>`
    for w in words.windows(2) {
        if let (Some(ns), Some((k, name))) = (w[0].strip_prefix("ns/"), w[1].split_once('/'))
            && let Some(kind) = kind_of(k)
            && !ns.is_empty()
            && !name.is_empty()
        {
            return Some(Subject::namespaced(kind, ns, name.trim_end_matches(':')));
        }
    }
    // `Error syncing <Kind> <ns>/<name>,`
    for w in words.windows(4) {
        if w[0] == "Error" && w[1] == "syncing" {
            let kind = kind_of(w[2].trim_end_matches(['"', ':']))?;
            let (ns, name) = w[3].trim_matches(['"', ',', ':']).split_once('/')?;
            return Some(Subject::namespaced(kind, ns, name));
        }
    }
    None
}

/// The rejected pod's name (`pods "kubeip-7545b86569-" is forbidden`): the controller asks for
/// its generateName, `<controller>-`.
fn rejected_pod(text: &str) -> Option<&str> {
    let at = text.find("\" is forbidden")?;
    let start = text[..at].rfind('"')? + 1;
    Some(&text[start..at]).filter(|p| !p.is_empty())
}

/// The controller a generateName belongs to: a Deployment's ReplicaSet asks for
/// `<deployment>-<pod-template-hash>-` (the hash 5-10 lower-case alphanumerics holding a digit;
/// kubernetes `pkg/controller/deployment/sync.go` names the ReplicaSet
/// `<deployment>-<hash>`), so the Deployment is the prefix before the hash; a DaemonSet's,
/// StatefulSet's or Job's `<name>-` says no kind, and gives `None`.
fn controller_of(pod: &str, namespace: &str) -> Option<Subject> {
    let prefix = pod.strip_suffix('-')?;
    if prefix.is_empty() || namespace.is_empty() {
        return None;
    }
    let (_, last) = prefix.rsplit_once('-')?;
    let hashy = (5..=10).contains(&last.len())
        && last
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && last.chars().any(|c| c.is_ascii_digit());
    let deployment = &prefix[..prefix.len() - last.len() - 1];
    (hashy && !deployment.is_empty())
        .then(|| Subject::namespaced("Deployment", namespace, deployment))
}

/// The subject of one rejection: the workload of the input that owns the pod, the workload the
/// line names, the ReplicaSet of the pod's generateName, else the line's own object or source.
fn subject_of(ctx: &Context<'_>, s: &Signal, class: &str) -> Subject {
    if let Some(owner) = crate::rules::limitrange_rejected::owner_of_rejected(ctx, s) {
        return owner;
    }
    if let Some(w) = named_workload(&s.text) {
        return w;
    }
    // a workload of the input whose template names the class (the line may name no pod)
    if !class.is_empty() {
        let snap = ctx.snapshot();
        let users: Vec<Subject> = snap
            .workloads
            .iter()
            .filter(|w| w.spec.template.spec.priority_class_name == class)
            .map(|w| Subject::namespaced(&w.kind, &w.metadata.namespace, &w.metadata.name))
            .chain(
                snap.daemon_sets
                    .iter()
                    .filter(|d| d.spec.template.spec.priority_class_name == class)
                    .map(|d| {
                        Subject::namespaced("DaemonSet", &d.metadata.namespace, &d.metadata.name)
                    }),
            )
            .collect();
        if let [one] = users.as_slice() {
            return one.clone();
        }
    }
    let own = signal_subject(s);
    if own.kind != "Log" {
        return own;
    }
    if let Some(pod) = bare_pod(ctx, s) {
        return pod;
    }
    rejected_pod(&s.text)
        .and_then(|p| controller_of(p, s.detail("namespace")))
        .unwrap_or(own)
}

/// A Pod created on its own (not by a controller) that admission rejected: kubectl's `error
/// when creating "<file>": pods "<name>" is forbidden` (`kubectl apply` / `create -f`,
/// staging/src/k8s.io/kubectl/pkg/cmd/apply), or a rejected name without a controller's
/// generateName dash that a Pod of the input without ownerReferences has. The namespace is the
/// input Pod's, else the one the line names.
fn bare_pod(ctx: &Context<'_>, s: &Signal) -> Option<Subject> {
    let name = rejected_pod(&s.text)?;
    if name.ends_with('-') {
        return None;
    }
    let input_pod = ctx
        .snapshot()
        .pods
        .iter()
        .find(|p| p.metadata.name == name && p.metadata.owner_references.is_empty());
    if !(s.text.contains("error when creating") || input_pod.is_some()) {
        return None;
    }
    let ns = input_pod
        .map(|p| p.metadata.namespace.as_str())
        .filter(|n| !n.is_empty())
        .unwrap_or(s.detail("namespace"));
    Some(Subject::namespaced("Pod", ns, name))
}

/// The `-n` / `--namespace` of a pasted kubectl command line that names `file`.
fn command_namespace(ctx: &Context<'_>, file: &str) -> Option<String> {
    for log in ctx.logs() {
        for l in log.text.lines() {
            if !(l.contains("kubectl") && l.contains(file)) {
                continue;
            }
            let words: Vec<&str> = l.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                if *w == "-n" || *w == "--namespace" {
                    return words.get(i + 1).map(|v| (*v).to_owned());
                }
                if let Some(v) = w
                    .strip_prefix("--namespace=")
                    .or_else(|| w.strip_prefix("-n="))
                {
                    return Some(v.to_owned());
                }
            }
        }
    }
    None
}

/// The manifest file kubectl names (`error when creating "<file>":`).
fn manifest_file(text: &str) -> Option<&str> {
    let rest = &text[text.find("error when creating \"")? + "error when creating \"".len()..];
    Some(&rest[..rest.find('"')?]).filter(|f| !f.is_empty())
}

/// The namespace to name in a remedy (`-n <ns>`), from the subject or the message.
fn namespace_of<'a>(subject: &'a Subject, s: &'a Signal) -> &'a str {
    if subject.namespace.is_empty() {
        s.detail("namespace")
    } else {
        subject.namespace.as_str()
    }
}

/// Cause and remedy of one rejection.
fn explain(ctx: &Context<'_>, s: &Signal, subject: &Subject) -> (String, String) {
    let snap = ctx.snapshot();
    let class = s.detail("class");
    let ns = namespace_of(subject, s);
    let kubectl_ns = if ns.is_empty() {
        "-n <namespace>".to_owned()
    } else {
        format!("-n {}", shell_word(ns))
    };
    let bare = subject.kind == "Pod";
    let who = if subject.kind == "Log" {
        "the workload's pod template".to_owned()
    } else if bare {
        if subject.namespace.is_empty() {
            format!("the pod {}", subject.name)
        } else {
            format!("the pod {}/{}", subject.namespace, subject.name)
        }
    } else {
        format!(
            "the pod template of {}",
            obj(&subject.kind, &subject.namespace, &subject.name)
        )
    };
    let edit = if subject.kind == "Log" {
        format!("kubectl {kubectl_ns} edit <deployment|daemonset|statefulset>/<name>")
    } else if bare {
        // a rejected Pod was never created: its manifest is fixed and applied again (a Pod's
        // spec fields are immutable anyway), in the namespace of the pasted command that
        // applied it when the input shows one (`kubectl apply -f <file> -n <ns>`: a manifest
        // without metadata.namespace is read into `default`)
        let file = manifest_file(&s.text);
        let ns = file
            .and_then(|f| command_namespace(ctx, f))
            .map_or(kubectl_ns.clone(), |n| format!("-n {}", shell_word(&n)));
        format!(
            "kubectl {ns} apply -f {}",
            shell_word(file.unwrap_or("<file>"))
        )
    } else {
        format!(
            "kubectl -n {} edit {}/{}",
            shell_word(&subject.namespace),
            subject.kind.to_ascii_lowercase(),
            shell_word(&subject.name)
        )
    };
    match s.detail("entry") {
        "priority.class-not-found" if SYSTEM_CLASSES.contains(&class) => (
            format!(
                "admission (Priority) rejects the pods: {who} names priorityClassName {class}, one of the two built-in classes, and the cluster has no such PriorityClass. The API server creates system-cluster-critical and system-node-critical itself at start (post-start hook scheduling/bootstrap-system-priority-classes) only while it serves the scheduling.k8s.io API group: that group is not enabled on this API server (v1.8-v1.10 it is alpha and off by default; clusters built with a restricted --runtime-config), or the hook failed. No pod is created until the class exists"
            ),
            format!(
                "check `kubectl api-versions | grep scheduling.k8s.io` and `kubectl get priorityclass`; enable the group on every kube-apiserver (`--runtime-config=scheduling.k8s.io/v1alpha1=true` on v1.8-v1.10, `scheduling.k8s.io/v1beta1=true` on v1.11-v1.13, `scheduling.k8s.io/v1=true` later; with --feature-gates=PodPriority=true before v1.11) and restart it, so it creates the built-in classes; until then remove priorityClassName from {who} (`{edit}`)"
            ),
        ),
        "priority.class-not-found" => {
            let listed = !snap.priority_classes.is_empty()
                || matches!(
                    snap.kind_status("PriorityClass"),
                    cube_model::snapshot::KindStatus::Listed
                );
            let have: Vec<&str> = snap
                .priority_classes
                .iter()
                .map(|p| p.metadata.name.as_str())
                .collect();
            let known = if listed {
                format!(
                    " (the input's PriorityClasses: {})",
                    if have.is_empty() {
                        "none".to_owned()
                    } else {
                        have.join(", ")
                    }
                )
            } else {
                String::new()
            };
            (
                format!(
                    "admission (Priority) rejects the pods: {who} names priorityClassName {class}, and no PriorityClass of that name exists{known} (PriorityClasses are cluster-scoped; a name that differs in case or spelling does not match). No pod is created until the class exists or the name changes"
                ),
                format!(
                    "create the class (`kubectl create priorityclass {} --value=<priority> --description=<why>`), or set priorityClassName in {who} to an existing class (`kubectl get priorityclass`; `{edit}`); the controller retries on its own",
                    shell_word(class)
                ),
            )
        }
        "priority.not-permitted-in-namespace" => (
            format!(
                "admission (Priority) rejects the pods: {who} uses the system class {class} in namespace {}, and Kubernetes v1.11-v1.16 admit system-cluster-critical and system-node-critical only in kube-system (so that nothing else can preempt the control plane). Since v1.17 other namespaces may use them unless the API server's ResourceQuota admission configuration limits them (GKE: only in namespaces with a ResourceQuota whose scopeSelector names the class)",
                s.detail("namespace")
            ),
            format!(
                "run the workload in kube-system, or give it a PriorityClass of its own (`kubectl create priorityclass <name> --value=1000000`, then set priorityClassName in {who}: `{edit}`); on v1.17+ clusters that limit the class, create in {} a ResourceQuota with spec.scopeSelector PriorityClass In [{class}]",
                s.detail("namespace")
            ),
        ),
        "priority.value-in-spec" | "priority.value-in-spec-v1.8" => (
            format!(
                "admission (Priority) rejects the pods: {who} sets spec.priority{} itself, which only the Priority admission plugin may fill from priorityClassName{} (a manifest copied from a running pod's `kubectl get pod -o yaml` carries it)",
                match s.detail("given") {
                    "" => String::new(),
                    g => format!(" ({g})"),
                },
                match s.detail("computed") {
                    "" => String::new(),
                    c => format!(" (it computed {c})"),
                }
            ),
            format!(
                "remove spec.priority from {who} and set spec.priorityClassName to the class that gives the priority wanted (`kubectl get priorityclass`; `{edit}`)"
            ),
        ),
        "priority.preemption-policy-in-spec" => {
            let given = s.detail("given");
            let wanted = if given.is_empty() { "Never" } else { given };
            (
                format!(
                    "admission (Priority) rejects the pods: {who} sets spec.preemptionPolicy {given}, while its PriorityClass{} gives {}: the plugin fills spec.preemptionPolicy from the PriorityClass that spec.priorityClassName names (the globalDefault class, else PreemptLowerPriority, when it names none) and refuses a pod spec that sets another value",
                    if class.is_empty() {
                        String::new()
                    } else {
                        format!(" {class}")
                    },
                    s.detail("computed")
                ),
                format!(
                    "remove spec.preemptionPolicy from {who} and take it from a PriorityClass instead: create one with the policy wanted (`kubectl create priorityclass <name> --value=<priority> --preemption-policy={wanted} --description=<why>`) and reference it with spec.priorityClassName: <name> in {who} (`{edit}`)"
                ),
            )
        }
        "priority.class-lookup-failed" | "priority.default-class-lookup-failed" => (
            format!(
                "admission (Priority) could not decide the pods' priority: {who} {}, and the plugin's lookup failed ({}): an internal error of the API server (its PriorityClass informer or its storage, etcd), not a fault of the manifest; nothing is created while it lasts",
                if class.is_empty() {
                    "names no priorityClassName, so the plugin looks for the globalDefault PriorityClass".to_owned()
                } else {
                    format!("names priorityClassName {class}")
                },
                s.detail("error")
            ),
            "check the API server and its storage (`kubectl get --raw='/readyz?verbose'`, the kube-apiserver log for the PriorityClass informer or etcd errors; `kubectl get priorityclass` must answer), then retry: controllers retry on their own".to_owned(),
        ),
        "priority.feature-gate-disabled-kubelet" => (
            format!(
                "the kubelet refuses every pod it receives ({}: `Error validating pod ... from {}, ignoring`): the Priority admission plugin of the API server (PodPriority on there) fills spec.priority of every pod, and this kubelet runs without the PodPriority feature gate, so its pod validation forbids spec.priority and spec.priorityClassName (v1.8-v1.9 alpha: pkg/kubelet/config/config.go filterInvalidPods, pkg/api/validation ValidatePodSpec). The gate must be on in every component, kubelets included",
                s.detail("pod"),
                s.detail("source")
            ),
            "add `--feature-gates=PodPriority=true` to every kubelet (kubelet flags or KubeletConfiguration featureGates, then `systemctl restart kubelet`), as already on kube-apiserver and kube-scheduler; or remove Priority from the API server's --admission-control / --enable-admission-plugins (and the gate) until every node has it; pods the kubelets ignored are then started".to_owned(),
        ),
        "priority.feature-gate-disabled" => (
            format!(
                "the pod is refused because it sets {} while the PodPriority feature gate (alpha in v1.8-v1.10, off by default) is off in the component that validates it: the API server (`The Pod is invalid`) or a kubelet (`Error validating pod`); the Priority admission plugin fills spec.priority only where the gate is on",
                s.detail("field")
            ),
            format!(
                "turn `--feature-gates=PodPriority=true` on in kube-apiserver, kube-scheduler and every kubelet together (v1.8-v1.10), or remove priorityClassName/priority from {who} (`{edit}`) and the Priority admission plugin"
            ),
        ),
        "priority.api-not-served" | "priority.api-not-served-post" => {
            let version = s.detail("version");
            (
                format!(
                    "the API server does not serve PriorityClass in {}: scheduling.k8s.io/v1alpha1 exists in v1.8-v1.10 (off unless --runtime-config enables it, with the PodPriority gate), v1beta1 from v1.11, v1 from v1.14 (the betas were later removed), so the manifest's apiVersion and the cluster's version do not fit",
                    if version.is_empty() { "the manifest's API version" } else { version }
                ),
                "use the apiVersion the cluster serves (`kubectl api-versions | grep scheduling.k8s.io`): scheduling.k8s.io/v1 on v1.14 and later, v1beta1 on v1.11-v1.13; on v1.8-v1.10 start kube-apiserver with `--runtime-config=scheduling.k8s.io/v1alpha1=true --feature-gates=PodPriority=true`".to_owned(),
            )
        }
        _ => {
            let (cause, remedy) = crate::catalog::entry(s.detail("entry"))
                .map(|e| e.cause_and_remedy(s))
                .unwrap_or_default();
            (
                format!(
                    "the API server refuses the PriorityClass: {cause} (pkg/apis/scheduling/validation, Priority admission)"
                ),
                format!(
                    "{remedy}, then apply it again (`kubectl get priorityclass` lists the existing classes)"
                ),
            )
        }
    }
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut by_subject: BTreeMap<(Subject, String), Vec<&Signal>> = BTreeMap::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        if !s.detail("entry").starts_with("priority.") {
            continue;
        }
        let subject = subject_of(ctx, s, s.detail("class"));
        by_subject
            .entry((subject, s.detail("entry").to_owned()))
            .or_default()
            .push(s);
    }
    let mut out = Vec::new();
    for ((subject, _), lines) in by_subject {
        let newest = lines[lines.len() - 1];
        let (mut cause, remedy) = explain(ctx, newest, &subject);
        if subject.kind == "Pod" {
            cause = cause.replacen("rejects the pods:", "rejects the pod:", 1);
            cause.push_str(
                "; a Pod created on its own is not created at all when admission rejects it: its manifest is fixed and applied again",
            );
        }
        let repeated = if lines.len() > 1 {
            format!(" ({} lines)", lines.len())
        } else {
            String::new()
        };
        let mut f = Finding::new(
            PriorityClassRejected::ID,
            Severity::Error,
            subject,
            format!("{cause}{repeated}"),
        )
        .with_evidences(lines.iter().rev().take(3).map(|s| s.evidence()))
        .with_remedy(remedy);
        let class = newest.detail("class");
        if let Some(pc) = ctx
            .snapshot()
            .priority_classes
            .iter()
            .find(|p| !class.is_empty() && p.metadata.name == class)
        {
            f = f.with_evidence(Evidence::field(
                obj("PriorityClass", "", &pc.metadata.name),
                "value",
                pc.value.to_string(),
            ));
        }
        out.push(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_log, run_rule};

    #[test]
    fn a_bare_pod_is_told_as_the_pod_and_gets_a_priority_class_name() {
        // kubernetes/kubernetes#123882 (v1.29): `kubectl apply` of a Pod setting
        // spec.preemptionPolicy itself
        let text = "root@node-01:~# kubectl apply -f pp.yaml -n k8s\nError from server (Forbidden): error when creating \"pp.yaml\": pods \"nginx-pod\" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name\n";
        let f = run_rule("priority-class-rejected", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.kind, "Pod");
        assert_eq!(f[0].subject.name, "nginx-pod");
        assert!(
            f[0].message.contains("rejects the pod:"),
            "{}",
            f[0].message
        );
        assert!(!f[0].message.contains("pod template"), "{}", f[0].message);
        assert!(f[0].remedy.contains("priorityClassName"), "{}", f[0].remedy);
        assert!(
            f[0].remedy.contains("--preemption-policy=Never"),
            "{}",
            f[0].remedy
        );
        assert!(f[0].remedy.contains("apply -f pp.yaml"), "{}", f[0].remedy);
        // in the namespace of the command that applied it
        assert!(
            f[0].remedy.contains("kubectl -n k8s apply"),
            "{}",
            f[0].remedy
        );
        // a controller's generateName stays the workload's pod template
        let f = run_log(
            "priority-class-rejected",
            "Error creating: pods \"web-7d9f8b6c5d-\" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_ne!(f[0].subject.kind, "Pod");
        assert!(f[0].message.contains("pod template"), "{}", f[0].message);
        assert!(f[0].remedy.contains("priorityClassName"), "{}", f[0].remedy);
    }

    #[test]
    fn every_upstream_wording_is_read() {
        for (line, entry) in [
            (
                "Error creating: pods \"apiserver-\" is forbidden: no PriorityClass with name test was found",
                "priority.class-not-found",
            ),
            (
                "Error creating: pods \"istio-cni-node-\" is forbidden: pods with system-node-critical priorityClass is not permitted in istio-system namespace",
                "priority.not-permitted-in-namespace",
            ),
            (
                "pods \"p\" is forbidden: the integer value of priority (1000) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name",
                "priority.value-in-spec",
            ),
            (
                "pods \"p\" is forbidden: the integer value of priority must not be provided in pod spec. Priority admission controller populates the value from the given PriorityClass name",
                "priority.value-in-spec-v1.8",
            ),
            (
                "pods \"p\" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name",
                "priority.preemption-policy-in-spec",
            ),
            (
                "The PriorityClass \"system-mine\" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: priority class system-mine is not a known system priority class",
                "priority.class-reserved-name",
            ),
            (
                "The PriorityClass \"huge\" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000",
                "priority.class-value-too-high",
            ),
            (
                "priorityclasses.scheduling.k8s.io \"b\" is forbidden: PriorityClass a is already marked as default. Only one default can exist",
                "priority.class-second-default",
            ),
        ] {
            let f = run_log("priority-class-rejected", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            let m = crate::catalog::match_line(line);
            assert!(m.iter().any(|m| m.entry.id == entry), "{line}: {m:#?}");
            assert!(!f[0].remedy.is_empty());
        }
    }

    #[test]
    fn a_missing_builtin_class_names_the_api_group() {
        let f = run_log(
            "priority-class-rejected",
            "Error creating: pods \"kube-dns-autoscaler-57d99c679-\" is forbidden: no PriorityClass with name system-cluster-critical was found",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("scheduling.k8s.io"),
            "{}",
            f[0].message
        );
        assert!(f[0].remedy.contains("--runtime-config"), "{}", f[0].remedy);
    }

    #[test]
    fn the_e2e_monitor_line_names_the_daemonset() {
        let f = run_log(
            "priority-class-rejected",
            "Nov 29 10:29:19.104 W ns/openshift-service-catalog-apiserver daemonset/apiserver Error creating: pods \"apiserver-\" is forbidden: no PriorityClass with name test was found (2 times)\nNov 29 10:29:19.105 W ns/openshift-service-catalog-apiserver daemonset/apiserver Error creating: pods \"apiserver-\" is forbidden: no PriorityClass with name test was found (3 times)",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].subject,
            Subject::namespaced(
                "DaemonSet",
                "openshift-service-catalog-apiserver",
                "apiserver"
            )
        );
        assert!(
            f[0].message.contains("priorityClassName test"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("kubectl create priorityclass test"),
            "{}",
            f[0].remedy
        );
    }

    #[test]
    fn outside_kube_system_names_the_deployment_and_the_namespace() {
        let f = run_log(
            "priority-class-rejected",
            "`pods \"kubeip-7545b86569-\" is forbidden: pods with system-cluster-critical priorityClass is not permitted in default namespace`",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].subject,
            Subject::namespaced("Deployment", "default", "kubeip")
        );
        assert!(f[0].remedy.contains("kube-system"), "{}", f[0].remedy);
        // a StatefulSet controller's klog line names its object
        let f = run_log(
            "priority-class-rejected",
            "E0506 12:05:14.362447 1 stateful_set.go:400] Error syncing StatefulSet juicefs/juicefs-csi-controller, requeuing: pods \"juicefs-csi-controller-0\" is forbidden: pods with system-cluster-critical priorityClass is not permitted in juicefs namespace",
        );
        assert_eq!(
            f[0].subject,
            Subject::namespaced("StatefulSet", "juicefs", "juicefs-csi-controller")
        );
    }

    #[test]
    fn the_input_s_classes_and_workloads_are_used() {
        let s = r#"{"kind":"List","items":[
          {"kind":"PriorityClass","metadata":{"name":"high-priority"},"value":1000},
          {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"trainer","namespace":"ml"},"spec":{"template":{"spec":{"priorityClassName":"high-prio","containers":[{"name":"c"}]}}}},
          {"kind":"Event","metadata":{"name":"e","namespace":"ml"},"involvedObject":{"kind":"ReplicaSet","namespace":"ml","name":"trainer-5d8f9c7b6"},"reason":"FailedCreate","type":"Warning","message":"Error creating: pods \"trainer-5d8f9c7b6-\" is forbidden: no PriorityClass with name high-prio was found"}
        ]}"#;
        let f = run_rule("priority-class-rejected", s);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("high-priority"), "{}", f[0].message);
    }
}
