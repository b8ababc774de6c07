//! The built-in rule catalog, one module per rule id (see `ARCHITECTURE.md`, "Rule catalog").
//! Ids are stable API: add, never rename.

use cube_model::objects::{Node, Pod, Taint, Toleration};

use crate::classify::{Signal, SignalKind};
use crate::{Context, Finding, Rule, Severity, Subject};

macro_rules! declare_rule {
    ($ty:ident, $id:literal, $cat:ident, $sev:ident, $doc:literal, $check:path) => {
        declare_rule!(@rule $ty, $id, $cat, $sev, $doc, {
            fn check(&self, ctx: &crate::Context<'_>) -> Vec<crate::Finding> {
                $check(ctx)
            }
        });
    };
    // a rule that hands each finding over as it is made (`Rule::check_each`)
    ($ty:ident, $id:literal, $cat:ident, $sev:ident, $doc:literal, each = $each:path) => {
        declare_rule!(@rule $ty, $id, $cat, $sev, $doc, {
            fn check(&self, ctx: &crate::Context<'_>) -> Vec<crate::Finding> {
                let mut out = Vec::new();
                $each(ctx, &mut |f| out.push(f));
                out
            }
            fn check_each(&self, ctx: &crate::Context<'_>, emit: &mut dyn FnMut(crate::Finding)) {
                $each(ctx, emit)
            }
        });
    };
    // the rule type, its id and the `Rule` methods both forms share, with `$checks`
    (@rule $ty:ident, $id:literal, $cat:ident, $sev:ident, $doc:literal, { $($checks:tt)* }) => {
        #[doc = concat!("`", $id, "`: ", $doc)]
        #[derive(Debug, Default, Clone, Copy)]
        pub struct $ty;
        impl $ty {
            /// The rule id.
            pub const ID: &'static str = $id;
        }
        impl crate::Rule for $ty {
            fn id(&self) -> &str {
                $id
            }
            fn category(&self) -> crate::Category {
                crate::Category::$cat
            }
            fn default_severity(&self) -> crate::Severity {
                crate::Severity::$sev
            }
            fn documentation(&self) -> &str {
                $doc
            }
            $($checks)*
        }
    };
}

pub(crate) mod absence;
pub mod backends;
pub mod cert_expiry;
pub mod cluster_forbidden;
pub mod cluster_kubeconfig;
pub mod cluster_over_privileged;
pub mod cluster_tls_untrusted;
pub mod cluster_unauthorized;
pub mod cluster_unreachable;
pub mod device_plugin_not_scheduled;
pub(crate) mod distro;
pub mod gpu_mig_misconfigured;
pub mod gpu_not_advertised;
pub(crate) mod gpu_queried;
pub mod gpu_resource_name_mismatch;
pub mod gpu_resource_renamed;
pub mod image_pull;
pub mod join_apiserver_unreachable;
pub mod join_ca_hash_mismatch;
pub mod join_csr_not_approved;
pub mod join_token_invalid;
pub mod kubeadm_phase;
pub(crate) mod kubelet_admission;
pub mod limitrange_gpu_default;
pub mod limitrange_rejected;
pub mod log_catalog;
pub mod namespace_terminating;
pub mod node_clock_skew;
pub(crate) mod node_conditions;
pub mod node_cordoned;
pub mod node_drift;
pub mod node_duplicate_hostname;
pub mod node_not_ready;
pub mod node_overcommitted;
pub mod pod_crashlooping;
pub mod pod_extended_resource_invalid;
pub mod pod_missing_requests;
pub(crate) mod pod_roles;
pub mod pod_stuck;
pub mod pod_unschedulable;
pub mod priority_class_rejected;
pub mod priority_unguarded;
pub mod priority_without_quota;
pub mod quota_near_limit;
pub mod quota_not_enforced;
pub mod quota_without_limitrange;
pub mod quota_without_priority;
pub mod rbac_dangling_roleref;
pub mod snapshot_incomplete;
pub mod snapshot_mixed_clusters;
pub mod storage_mount_failed;
pub mod storage_no_default_class;
pub mod storage_node_local;
mod storage_pending;
pub mod workload_unavailable;

/// Every built-in rule, in catalog order.
pub fn catalog() -> Vec<Box<dyn Rule>> {
    vec![
        Box::new(node_not_ready::NodeNotReady),
        Box::new(node_duplicate_hostname::NodeDuplicateHostname),
        Box::new(node_drift::NodeDrift),
        Box::new(node_clock_skew::NodeClockSkew),
        Box::new(node_cordoned::NodeCordoned),
        Box::new(join_token_invalid::JoinTokenInvalid),
        Box::new(join_ca_hash_mismatch::JoinCaHashMismatch),
        Box::new(join_apiserver_unreachable::JoinApiserverUnreachable),
        Box::new(join_csr_not_approved::JoinCsrNotApproved),
        Box::new(gpu_not_advertised::GpuNotAdvertised),
        Box::new(device_plugin_not_scheduled::DevicePluginNotScheduled),
        Box::new(gpu_resource_name_mismatch::GpuResourceNameMismatch),
        Box::new(gpu_resource_renamed::GpuResourceRenamed),
        Box::new(gpu_mig_misconfigured::GpuMigMisconfigured),
        Box::new(quota_not_enforced::QuotaNotEnforced),
        Box::new(pod_missing_requests::PodMissingRequests),
        Box::new(quota_without_limitrange::QuotaWithoutLimitRange),
        Box::new(limitrange_rejected::LimitRangeRejected),
        Box::new(pod_extended_resource_invalid::PodExtendedResourceInvalid),
        Box::new(limitrange_gpu_default::LimitRangeGpuDefault),
        Box::new(quota_near_limit::QuotaNearLimit),
        Box::new(priority_without_quota::PriorityWithoutQuota),
        Box::new(priority_unguarded::PriorityUnguarded),
        Box::new(priority_class_rejected::PriorityClassRejected),
        Box::new(quota_without_priority::QuotaWithoutPriority),
        Box::new(pod_unschedulable::PodUnschedulable),
        Box::new(workload_unavailable::WorkloadUnavailable),
        Box::new(namespace_terminating::NamespaceTerminating),
        Box::new(pod_crashlooping::PodCrashLooping),
        Box::new(pod_crashlooping::ContainerOomKilled),
        Box::new(pod_crashlooping::PodFailed),
        Box::new(pod_stuck::PodStuck),
        Box::new(image_pull::ImagePullFailed),
        Box::new(image_pull::PodProbeFailed),
        Box::new(node_overcommitted::NodeOvercommitted),
        Box::new(rbac_dangling_roleref::RbacDanglingRoleRef),
        Box::new(storage_no_default_class::StorageNoDefaultClass),
        Box::new(storage_node_local::StorageNodeLocal),
        Box::new(storage_mount_failed::StorageMountFailed),
        Box::new(backends::StorageProvisioningFailed),
        Box::new(backends::AdmissionWebhookUnreachable),
        Box::new(backends::AdmissionWebhookDenied),
        Box::new(backends::ApiServiceUnavailable),
        Box::new(backends::ApiResourceMissing),
        Box::new(backends::EtcdSpaceExceeded),
        Box::new(backends::EtcdUnhealthy),
        Box::new(backends::ApiserverKubeletUnreachable),
        Box::new(cluster_unreachable::ClusterUnreachable),
        Box::new(cluster_kubeconfig::ClusterKubeconfigInvalid),
        Box::new(cluster_kubeconfig::ClusterInsecureTls),
        Box::new(cluster_kubeconfig::ClusterKubeconfigWarning),
        Box::new(cluster_tls_untrusted::ClusterTlsUntrusted),
        Box::new(cluster_unauthorized::ClusterUnauthorized),
        Box::new(cluster_forbidden::ClusterForbidden),
        Box::new(cluster_over_privileged::ClusterOverPrivileged),
        Box::new(snapshot_incomplete::SnapshotIncomplete),
        Box::new(snapshot_incomplete::SnapshotCoverage),
        Box::new(snapshot_mixed_clusters::SnapshotMixedClusters),
        // conclusions drawn from the message catalog
        Box::new(log_catalog::JoinPreflightFailed),
        Box::new(log_catalog::JoinClusterInfoInvalid),
        Box::new(log_catalog::NodeKubeletCertExpired),
        Box::new(log_catalog::NodeRuntimeUnhealthy),
        Box::new(log_catalog::GpuPluginLogError),
        Box::new(log_catalog::AgentRegistrationFailed),
        Box::new(log_catalog::PodResourceClaimsDropped),
        Box::new(kubeadm_phase::KubeadmPhaseFailed),
        Box::new(cert_expiry::CertificateExpired),
        Box::new(log_catalog::CliUsageError),
        Box::new(log_catalog::LogLineUnrecognised),
    ]
}

/// kubeadm's success lines (cmd/kubeadm/app/cmd/join.go `This node has joined the cluster`,
/// cmd/kubeadm/app/cmd/init.go `Your Kubernetes control-plane has initialized successfully!`,
/// `master` before v1.13).
const KUBEADM_SUCCESS: &[&str] = &[
    "This node has joined the cluster",
    "control-plane has initialized successfully",
    "master has initialized successfully",
];

/// A join/init failure of a log whose text shows kubeadm succeeding on a later line (a retry
/// of the playbook or of the user worked) is past: info, saying so.
pub(crate) fn superseded_by_kubeadm_success(ctx: &Context<'_>, findings: &mut [Finding]) {
    for f in findings.iter_mut() {
        if f.severity <= Severity::Info {
            continue;
        }
        let Some((source, line)) = f.evidence.iter().find_map(|e| match e {
            crate::Evidence::Log { source, line, .. } => Some((source.clone(), *line)),
            _ => None,
        }) else {
            continue;
        };
        let Some(log) = ctx.logs().iter().find(|l| l.source == source) else {
            continue;
        };
        let success = log
            .text
            .lines()
            .enumerate()
            .filter(|(_, l)| KUBEADM_SUCCESS.iter().any(|s| l.contains(s)))
            .map(|(j, _)| log.origins.get(j).map_or(j + 1, |o| o.line))
            .max();
        if success.is_some_and(|s| s > line) {
            f.severity = Severity::Info;
            f.message.push_str(
                "; kubeadm succeeded later in the same text (a retry worked), so this failure is past",
            );
            continue;
        }
        // a line of an Ansible task result (`fatal: [host]: FAILED! => ...` above it) whose
        // host's PLAY RECAP counts no failure (rescued, retried) or that the playbook ignored
        // (`...ignoring` after it): ansible/ansible lib/ansible/plugins/callback/default.py
        let lines: Vec<&str> = log.text.lines().collect();
        if lines.is_empty() {
            continue;
        }
        let at = (0..lines.len())
            .rfind(|&j| log.origins.get(j).map_or(j + 1, |o| o.line) <= line)
            .unwrap_or(0);
        let Some((head, host)) = (0..=at.min(lines.len() - 1))
            .rev()
            .find_map(|j| crate::ansible::failed_head(lines[j]).map(|(h, _)| (j, h)))
        else {
            continue;
        };
        let ignored = crate::ansible::ignored_after(&lines, head);
        let recap_ok = crate::ansible::recap(&log.text).get(host) == Some(&0);
        if ignored || recap_ok {
            f.severity = Severity::Info;
            f.message.push_str(&format!(
                "; the playbook {} on {host}, so this failure is past",
                if ignored {
                    "ignored this task's failure (`...ignoring`)"
                } else {
                    "ended without a failed task (PLAY RECAP failed=0: rescued or retried)"
                }
            ));
        }
    }
}

/// Why `kind` could not be read, when the snapshot says so: a rule must not conclude anything
/// from its absence then ("no ResourceQuota", "no StorageClass at all"), and says "could not be
/// read" instead.
pub(crate) fn unread<'c>(ctx: &Context<'c>, kind: &str) -> Option<&'c str> {
    match ctx.snapshot().kind_status(kind) {
        cube_model::snapshot::KindStatus::Missing(why) => Some(why),
        _ => None,
    }
}

/// One finding for each run of equal findings (same subject, severity, message and remedy):
/// a log that repeats the same error every few seconds (a retry loop) is one cause, told once
/// with the number of lines (` (N lines)`) and its first three lines as evidence. Order is
/// kept (first occurrence).
pub(crate) fn merge_repeats(findings: Vec<Finding>) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::new();
    let mut count: Vec<usize> = Vec::new();
    for f in findings {
        if let Some(i) = out.iter().position(|o| {
            o.subject == f.subject
                && o.severity == f.severity
                && o.message == f.message
                && o.remedy == f.remedy
        }) {
            count[i] += 1;
            if out[i].evidence.len() < 3 {
                for e in f.evidence {
                    if out[i].evidence.len() < 3 && !out[i].evidence.contains(&e) {
                        out[i].evidence.push(e);
                    }
                }
            }
        } else {
            out.push(f);
            count.push(1);
        }
    }
    for (f, n) in out.iter_mut().zip(count) {
        if n > 1 {
            f.message = format!("{} ({n} lines)", f.message);
        }
    }
    out
}

/// Subject of a node.
pub(crate) fn node_subject(n: &Node) -> Subject {
    Subject::cluster_scoped("Node", &n.metadata.name)
}

/// Subject of a pod.
pub(crate) fn pod_subject(p: &Pod) -> Subject {
    Subject::namespaced("Pod", &p.metadata.namespace, &p.metadata.name)
}

/// `Kind/namespace/name` or `Kind/name` for evidence.
pub(crate) fn obj(kind: &str, ns: &str, name: &str) -> String {
    if ns.is_empty() {
        format!("{kind}/{name}")
    } else {
        format!("{kind}/{ns}/{name}")
    }
}

/// A word as a POSIX shell reads it back (remedies are pasted as printed): as is when it holds
/// only name characters, else single-quoted (a name read from a paste may hold anything).
pub(crate) fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '/'))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Signals of the given kinds.
pub(crate) fn signals<'c>(
    ctx: &'c Context<'_>,
    kinds: &'c [SignalKind],
) -> impl Iterator<Item = &'c Signal> + 'c {
    ctx.signals()
        .iter()
        .filter(move |s| kinds.contains(&s.kind))
}

/// A later success supersedes an earlier failure of the same object: true when, after the
/// failure `s`, an event of the snapshot about the same object (source `events`, whose line is
/// the event's index + 1) or a later line of the same log text holds one of `successes` (the
/// kubelet's `Started container`, `Successfully pulled image`, `MountVolume.SetUp succeeded`,
/// ...). Events are in the input's order (`describe` and `kubectl get events` list them oldest
/// first, kubectl's `SortableEvents`).
pub(crate) fn superseded(ctx: &Context<'_>, s: &Signal, successes: &[&str]) -> bool {
    superseded_where(ctx, s, |text| successes.iter().any(|m| text.contains(m)))
}

/// [`superseded`] with the success told by `says` (an event message or a log line): true when
/// a later event about the same object, or a later line of the same log text, says it.
pub(crate) fn superseded_where(ctx: &Context<'_>, s: &Signal, says: impl Fn(&str) -> bool) -> bool {
    if s.source == "events" {
        let Some(subject) = s.object.as_ref() else {
            return false;
        };
        return ctx.snapshot().events.iter().skip(s.line).any(|e| {
            e.involved_object.name == subject.name
                && (e.involved_object.namespace.is_empty()
                    || subject.namespace.is_empty()
                    || e.involved_object.namespace == subject.namespace)
                && says(&e.message)
        });
    }
    ctx.logs()
        .iter()
        .filter(|l| l.source == s.source)
        .any(|l| l.text.lines().skip(s.line).any(&says))
}

/// True when the input holds the pod of `subject` in phase Running or Succeeded: its volumes
/// were mounted and its containers started (the kubelet starts no container before every
/// volume is mounted: pkg/kubelet/kubelet.go `SyncPod` waits in `WaitForAttachAndMount`).
pub(crate) fn pod_running_now(ctx: &Context<'_>, subject: &Subject) -> bool {
    subject.kind == "Pod"
        && ctx.snapshot().pods.iter().any(|p| {
            pod_subject(p) == *subject && matches!(p.status.phase.as_str(), "Running" | "Succeeded")
        })
}

/// The kubelet's own fatal error in the log `source` (a klog `F` line, or `failed to run
/// Kubelet`: kubernetes `cmd/kubelet/app/server.go` exits with it) that some rule concludes
/// from: the kubelet exited for that cause.
pub(crate) fn kubelet_fatal<'c>(ctx: &'c Context<'_>, source: &str) -> Option<&'c Signal> {
    ctx.signals().iter().find(|s| {
        s.source == source
            && !is_connection(s.kind)
            && s.kind != SignalKind::Unrecognised
            && (s.text.contains("failed to run Kubelet") || klog_fatal(&s.text))
    })
}

/// A connection failure signal (what `cluster-unreachable` reads).
pub(crate) fn is_connection(kind: SignalKind) -> bool {
    matches!(
        kind,
        SignalKind::Refused
            | SignalKind::Timeout
            | SignalKind::NoRoute
            | SignalKind::NoSuchHost
            | SignalKind::ProtocolMismatch
            | SignalKind::ConnectionClosed
    )
}

/// A klog fatal line (`F0207 12:25:38.672092 ...`), after any cleaned prefix.
fn klog_fatal(text: &str) -> bool {
    let b = text.trim_start().as_bytes();
    b.len() > 6 && b[0] == b'F' && b[1..5].iter().all(u8::is_ascii_digit) && b[5] == b' '
}

/// A connection failure that is the consequence of the kubelet's exit in the same log: its
/// target is a loopback API server (the control plane this kubelet runs as static pods, or a
/// local proxy it runs) and the log shows the kubelet's fatal error; `Some(that error)`.
pub(crate) fn kubelet_exit_consequence<'c>(ctx: &'c Context<'_>, s: &Signal) -> Option<&'c Signal> {
    if !is_connection(s.kind) || s.join {
        return None;
    }
    let addr = ["endpoint", "address", "server"]
        .iter()
        .map(|k| s.detail(k))
        .find(|v| !v.is_empty())?;
    let host = addr
        .trim_matches(['"', '['])
        .split("://")
        .last()
        .unwrap_or(addr);
    let loopback = host.starts_with("127.")
        || host.starts_with("localhost")
        || host.starts_with("::1")
        || host.starts_with("[::1");
    if !loopback {
        return None;
    }
    kubelet_fatal(ctx, &s.source).filter(|f| f.line != s.line)
}

/// The subject a text signal is about: its object, else its log source.
pub(crate) fn signal_subject(s: &Signal) -> Subject {
    s.object.clone().unwrap_or_else(|| Subject::log(&s.source))
}

/// An [`Severity::Error`] finding of rule `rule_id` about `subject`, raised by the text signal
/// `s`: its evidence is the signal's (source, line, text), then `message` and `remedy`.
pub(crate) fn signal_error(
    rule_id: &str,
    subject: Subject,
    s: &Signal,
    message: impl Into<String>,
    remedy: impl Into<String>,
) -> Finding {
    Finding::new(rule_id, Severity::Error, subject, message)
        .with_evidence(s.evidence())
        .with_remedy(remedy)
}

/// Whether `tols` tolerate `taint` (upstream `Toleration.ToleratesTaint`).
pub(crate) fn tolerates(tols: &[Toleration], taint: &Taint) -> bool {
    // upstream `TolerationsTolerateTaint`, shared with the scheduler model in cube-model
    cube_model::selector::tolerations_tolerate_taint(tols, taint)
}

/// Taints with NoSchedule/NoExecute that `tols` do not tolerate.
pub(crate) fn untolerated<'n>(node: &'n Node, tols: &[Toleration]) -> Vec<&'n Taint> {
    node.spec
        .taints
        .iter()
        .filter(|t| t.effect == "NoSchedule" || t.effect == "NoExecute")
        .filter(|t| !tolerates(tols, t))
        .collect()
}

/// Whether `node` satisfies a pod spec's nodeSelector and required node affinity (the scheduler's
/// NodeAffinity filter, via [`cube_model::selector::pod_matches_node_selector_and_affinity`]); on
/// failure the scheduler-style reason.
pub(crate) fn node_matches(
    node: &Node,
    spec: &cube_model::objects::PodSpec,
) -> Result<(), &'static str> {
    if cube_model::selector::pod_matches_node_selector_and_affinity(spec, node) {
        Ok(())
    } else {
        Err("node(s) didn't match Pod's node affinity/selector")
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Helpers for rule tests: build snapshots from JSON/YAML text.
    use crate::{Context, Engine, Finding, Inputs, LogText};

    /// Loads `text` as a pasted input and runs only `rule_id`.
    pub fn run_rule(rule_id: &str, text: &str) -> Vec<Finding> {
        let mut i = Inputs::new();
        i.add("test", text);
        run_inputs(rule_id, &i)
    }

    /// Runs only `rule_id` over inputs.
    pub fn run_inputs(rule_id: &str, i: &Inputs) -> Vec<Finding> {
        let ctx = Context::new(&i.snapshot).with_logs(i.logs.clone());
        let rules = crate::rules::catalog()
            .into_iter()
            .filter(|r| r.id() == rule_id);
        let mut e = Engine::empty();
        for r in rules {
            e = e.with_rule(r);
        }
        e.run(&ctx).findings
    }

    /// Runs only `rule_id` over a log text.
    pub fn run_log(rule_id: &str, text: &str) -> Vec<Finding> {
        let snap = cube_model::ClusterSnapshot::default();
        let ctx = Context::new(&snap).with_logs([LogText::new("test.log", text)]);
        crate::rules::catalog()
            .into_iter()
            .filter(|r| r.id() == rule_id)
            .flat_map(|r| r.check(&ctx))
            .collect()
    }
}
