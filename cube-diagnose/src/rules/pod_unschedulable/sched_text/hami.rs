//! HAMi's reason codes behind a pending pod (see [`crate::classify::hami`]): the codes in the
//! FailedScheduling histogram (`1 1/1 CardInsufficientMemory`) and in the pod's
//! `FilteringFailed` events (`2 nodes CardInsufficientMemory(node-01,node-02)`), each with its
//! cause and remedy; `NodeUnfitPod` alone (HAMi's per-node summary) names where the per-card
//! reason is.

use cube_quota::schedmsg::SchedulerMessage;

use super::{Explained, stale, subject_of};
use crate::classify::SignalKind;
use crate::classify::hami::{HamiReason, code_of, reason, virtual_resource};
use crate::rules::signals;
use crate::{Context, Evidence, Subject};

/// The HAMi explanation of `m` for `subject`, when the message or the subject's events carry
/// HAMi's reasons.
pub(super) fn explain(
    ctx: &Context<'_>,
    subject: &Subject,
    m: Option<&SchedulerMessage>,
) -> Option<Explained> {
    // (count, reason, nodes)
    let mut found: Vec<(usize, &'static HamiReason, String)> = Vec::new();
    let mut evidence = Vec::new();
    for r in m.iter().flat_map(|m| m.reasons.iter()) {
        if let Some(h) = code_of(&r.reason.text) {
            found.push((r.count, h, String::new()));
        }
    }
    for s in signals(ctx, &[SignalKind::HamiFilterFailed]) {
        let own = subject_of(s);
        if (own != *subject && super::resolve_pod(ctx, s, own) != *subject)
            || stale(ctx, s).is_some()
        {
            continue;
        }
        let Some(h) = reason(s.detail("code")) else {
            continue;
        };
        let count = s.detail("count").parse().unwrap_or(1);
        match found.iter_mut().find(|(_, r, _)| r.code == h.code) {
            Some(f) => {
                if f.2.is_empty() {
                    f.2 = s.detail("nodes").to_owned();
                }
                f.0 = f.0.max(count);
            }
            None => found.push((count, h, s.detail("nodes").to_owned())),
        }
        evidence.push(s.evidence());
    }
    let unfit = m.is_some_and(|m| {
        m.reasons
            .iter()
            .any(|r| r.reason.text.trim() == "NodeUnfitPod")
    });
    if found.is_empty() {
        if !unfit {
            return None;
        }
        let n = m.map_or(0, |m| m.nodes);
        return Some(Explained::new(
            format!(
                "HAMi's scheduler extender rejected all {n} node(s) ('NodeUnfitPod' is its per-node summary); the per-card reason code is not in the input"
            ),
            "read the pod's FilteringFailed events (one per reason code: `kubectl get events --field-selector reason=FilteringFailed`) or the extender's log (`kubectl -n kube-system logs deploy/hami-scheduler -c vgpu-scheduler-extender | grep NodeUnfitPod`): the code there (CardInsufficientMemory, CardInsufficientCore, CardTypeMismatch, NumaNotFit, ...) is the cause",
        ));
    }
    let causes: Vec<String> = found
        .iter()
        .map(|(count, h, nodes)| {
            let on = if nodes.is_empty() {
                String::new()
            } else {
                format!(" ({nodes})")
            };
            format!("{count} node(s) {}{on}: {}", h.code, h.cause)
        })
        .collect();
    let mut remedies: Vec<&str> = Vec::new();
    for (_, h, _) in &found {
        if !remedies.contains(&h.remedy) {
            remedies.push(h.remedy);
        }
    }
    let asks = device_requests(ctx, subject);
    let mut e = Explained::new(
        format!(
            "HAMi's scheduler extender found no card that fits{asks}: {}",
            causes.join("; ")
        ),
        remedies.join("; "),
    );
    e.evidence = evidence;
    Some(e)
}

/// HAMi's virtual resources (`nvidia.com/gpumem`, `gpucores`, ...) reported Insufficient by a
/// scheduler that is not HAMi's: no node advertises them, only hami-scheduler (kube-scheduler
/// with HAMi's extender, which manages them) can place the pod, so the pod went to the wrong
/// scheduler (Project-HAMi/HAMi#1429). The scheduler is the event's From (`default-scheduler`);
/// without one, Ascend's `-memory`/`-core` are left to the generic reading (HAMi's Ascend
/// plugin may advertise them).
pub(super) fn wrong_scheduler(
    ctx: &Context<'_>,
    s: &crate::classify::Signal,
    m: &SchedulerMessage,
) -> Option<Explained> {
    let virtuals: Vec<(&str, &str)> = m
        .insufficient()
        .filter_map(|(r, _)| virtual_resource(r).map(|v| (r, v)))
        .collect();
    if virtuals.is_empty() {
        return None;
    }
    let from = match s.detail("from") {
        "" => super::event_of(ctx, s)
            .map(|(_, e)| e.source.component.clone())
            .unwrap_or_default(),
        f => f.to_owned(),
    };
    let names: Vec<&str> = virtuals.iter().map(|(r, _)| *r).collect();
    if from.contains("hami") && virtuals.iter().any(|(_, v)| *v != "Ascend") {
        // HAMi's own kube-scheduler counted them: its configuration does not mark them
        // ignoredByScheduler (charts/hami/templates/scheduler/configmap.yaml managedResources)
        return Some(Explained::new(
            format!(
                "{from} reports Insufficient {}: HAMi's kube-scheduler counted these virtual resources as node capacity, which no node has; its scheduler configuration does not list them under the extender's managedResources with ignoredByScheduler: true (the chart values resourceMem / resourceCores / resourceMemPercentage name other resources than the pod asks for, or a hand-written scheduler config)",
                names.join(", ")
            ),
            "compare the pod's resource names with the chart values (`helm get values hami -n kube-system`: resourceName, resourceMem, resourceCores) and the managedResources in the hami-scheduler ConfigMap; ask for the names HAMi manages, or fix the values and restart hami-scheduler",
        ));
    }
    if from.contains("hami") || (from.is_empty() && virtuals.iter().all(|(_, v)| *v == "Ascend")) {
        return None;
    }
    let mut vendors: Vec<&str> = virtuals.iter().map(|(_, v)| *v).collect();
    vendors.dedup();
    let who = if from.is_empty() {
        "the scheduler that wrote this message".to_owned()
    } else {
        from.clone()
    };
    Some(Explained::new(
        format!(
            "{who} reports Insufficient {}: these are HAMi's virtual {} resources, which no node advertises (HAMi's scheduler extender accounts them from the node's HAMi annotations; its kube-scheduler configuration marks them ignoredByScheduler), so only hami-scheduler can place the pod; the pod was handled by {who} because its spec.schedulerName is not hami-scheduler: HAMi's mutating webhook (vgpu.hami.io) did not set it (HAMi not installed, the webhook not called for this pod or namespace, e.g. a hami.io/webhook=ignore label, or another schedulerName already set)",
            names.join(", "),
            vendors.join("/")
        ),
        "`kubectl get pod <pod> -o jsonpath='{.spec.schedulerName}'` must print hami-scheduler: check HAMi runs (`kubectl get pods -A | grep hami`) and its webhook exists (`kubectl get mutatingwebhookconfigurations | grep hami`), then recreate the pod; or set spec.schedulerName: hami-scheduler in the pod template",
    ))
}

/// ` for the pod's <resource>: <n>, ...`: the pod's device requests (every resource but cpu,
/// memory, storage and pods, after limits default requests), when the input holds the pod.
fn device_requests(ctx: &Context<'_>, subject: &Subject) -> String {
    let Some(i) = super::pod_of(ctx, subject) else {
        return String::new();
    };
    let asks: Vec<String> = ctx
        .pod_requests(i)
        .iter()
        .filter(|(r, _)| {
            !matches!(
                r.as_str(),
                "cpu" | "memory" | "ephemeral-storage" | "pods" | "storage"
            ) && !r.as_str().starts_with("hugepages-")
        })
        .map(|(r, q)| format!("{r}: {q}"))
        .collect();
    if asks.is_empty() {
        String::new()
    } else {
        format!(" for {}'s {}", subject.name, asks.join(", "))
    }
}

/// Subjects whose only scheduler text is HAMi's `FilteringFailed` events (no FailedScheduling
/// in the input): one explanation each, with the signal the finding cites.
pub(super) fn alone(
    ctx: &Context<'_>,
    explained: &std::collections::BTreeSet<Subject>,
) -> Vec<(Subject, Evidence, Explained)> {
    let mut out: Vec<(Subject, Evidence, Explained)> = Vec::new();
    for s in signals(ctx, &[SignalKind::HamiFilterFailed]) {
        let subject = super::resolve_pod(ctx, s, subject_of(s));
        if explained.contains(&subject)
            || out.iter().any(|(x, _, _)| *x == subject)
            || stale(ctx, s).is_some()
        {
            continue;
        }
        if let Some(e) = explain(ctx, &subject, None) {
            out.push((subject, s.evidence(), e));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn hami_codes_explain_the_pending_pod() {
        let text = "$ kubectl describe pod llm-infer-0 -n ai | sed -n '/Events:/,$p'\nEvents:\n  Type     Reason           Age   From            Message\n  ----     ------           ----  ----            -------\n  Warning  FilteringFailed  16s   hami-scheduler  2 nodes CardInsufficientMemory(node-01,node-02)\n  Warning  FilteringFailed  16s   hami-scheduler  1 nodes NumaNotFit(node-03)\n  Warning  FailedScheduling 16s   hami-scheduler  0/3 nodes are available: 3 NodeUnfitPod. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n";
        let f = run_rule("pod-unschedulable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = &f[0].message;
        assert!(
            m.contains("CardInsufficientMemory (node-01,node-02)")
                && m.contains("free device memory")
                && m.contains("NumaNotFit"),
            "{m}"
        );
        assert!(f[0].remedy.contains("nvidia.com/gpumem") && f[0].remedy.contains("numa-bind"));
        // the extender's codes inside the histogram (`1 1/1 CardInsufficientCore`)
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  15s  hami-scheduler  0/1 nodes are available: 1 1/1 CardInsufficientCore. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
        );
        assert!(f[0].message.contains("gpucores"), "{f:#?}");
        // NodeUnfitPod alone: where the per-card reason is
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  15s  hami-scheduler  0/2 nodes are available: 2 NodeUnfitPod.",
        );
        assert!(f[0].remedy.contains("FilteringFailed"), "{f:#?}");
        // the summary event alone, and beside the per-code events (no second finding)
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FilteringFailed  16s  hami-scheduler  no available node, 3 nodes do not meet",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].remedy.contains("NodeUnfitPod"), "{f:#?}");
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FilteringFailed  16s  hami-scheduler  no available node, all node scores do not meet\nWarning  FilteringFailed  16s  hami-scheduler  1 nodes CardInsufficientCore(gpu-1)",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        // hami-scheduler itself counting gpumem: its managedResources
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  1s  hami-scheduler  0/1 nodes are available: 1 Insufficient nvidia.com/gpumem.",
        );
        assert!(f[0].message.contains("ignoredByScheduler"), "{f:#?}");
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FailedScheduling  1s  default-scheduler  0/1 nodes are available: 1 Insufficient cambricon.com/mlu.smlu.vmemory.",
        );
        assert!(f[0].message.contains("hami-scheduler"), "{f:#?}");
        // FilteringFailed events alone still explain the pod
        let f = run_rule(
            "pod-unschedulable",
            "Warning  FilteringFailed  16s  hami-scheduler  1 nodes CardUuidMismatch(gpu-node-b)",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("use-gpuuuid"), "{f:#?}");
    }
}
