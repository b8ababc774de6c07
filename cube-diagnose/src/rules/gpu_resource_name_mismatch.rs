//! `gpu-resource-name-mismatch`: a quota, a LimitRange or pods use a GPU resource name that no
//! node advertises; legacy names; capacity renamed by a sharing config.

use std::collections::{BTreeMap, BTreeSet};

use crate::classify::SignalKind;
use crate::resources::{is_gpu_resource, quota_key_resource};
use crate::rules::{node_subject, obj, pod_subject, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    GpuResourceNameMismatch,
    "gpu-resource-name-mismatch",
    Gpu,
    Warning,
    "A ResourceQuota, LimitRange or pod names a GPU resource that no node advertises (nvidia.com/gpu vs amd.com/gpu, MIG profiles, nvidia.com/gpu.shared from time-slicing, vGPU names): the quota constrains nothing or the pod never schedules. Legacy alpha.kubernetes.io/nvidia-gpu in a quota is an error (quota status stays unknown and every pod in the namespace is rejected). Also warns when a node advertises nvidia.com/gpu as 0 next to a renamed shared resource while a pod, quota, LimitRange or scheduler message asks for the old name (nobody asking: the rename is the configuration working, no finding).",
    check
);

const LEGACY: &[(&str, &str)] = &[("alpha.kubernetes.io/nvidia-gpu", "nvidia.com/gpu")];

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    if crate::rules::unread(ctx, "Node").is_some() {
        // "no node advertises it" needs the nodes: snapshot-incomplete says why
        return Vec::new();
    }
    let mut out = Vec::new();
    let snap = ctx.snapshot();
    let advertised: BTreeSet<&str> = snap
        .nodes
        .iter()
        .flat_map(|n| n.status.allocatable.iter().chain(n.status.capacity.iter()))
        .filter(|(k, _)| is_gpu_resource(k.as_str()))
        .map(|(k, _)| k.as_str())
        .collect();
    let know_nodes = !advertised.is_empty();
    // a node whose pre-v1.10 kubelet serves the legacy name above zero (the Accelerators
    // feature gate, no device plugin): there pods and LimitRanges use that name as they must;
    // quotas still cannot evaluate it
    let legacy_served = snap.nodes.iter().any(crate::gpu::legacy_gpu_served);
    let unknown = |what: Subject, field: String, key: &str, res: &str, out: &mut Vec<Finding>| {
        if legacy_served
            && what.kind != "ResourceQuota"
            && LEGACY.iter().any(|(old, _)| *old == res)
        {
            return;
        }
        if let Some((_, modern)) = LEGACY.iter().find(|(old, _)| *old == res) {
            out.push(
                Finding::new(GpuResourceNameMismatch::ID, Severity::Error, what.clone(), format!("{} uses the legacy resource name {key}: the quota system cannot evaluate it, so admission fails closed ('status unknown for quota') for every pod in the namespace", what.display_name()))
                    .with_evidence(Evidence::field(what.display_name(), field, key))
                    .with_remedy(format!("replace {res} with {modern} (quota key requests.{modern})")),
            );
        } else if know_nodes && !advertised.contains(res) {
            out.push(
                Finding::new(GpuResourceNameMismatch::ID, Severity::Warning, what.clone(), format!("{} uses {res}, which no node advertises (nodes advertise: {})", what.display_name(), advertised.iter().copied().collect::<Vec<_>>().join(", ")))
                    .with_evidence(Evidence::field(what.display_name(), field, key))
                    .with_remedy("use a resource name from the nodes' status.allocatable (`kubectl get nodes -o jsonpath='{.items[*].status.allocatable}'`)"),
            );
        }
    };
    for q in &snap.resource_quotas {
        let subj = Subject::namespaced("ResourceQuota", &q.metadata.namespace, &q.metadata.name);
        for k in q.spec.hard.names() {
            let res = quota_key_resource(k.as_str());
            if is_gpu_resource(res) {
                unknown(
                    subj.clone(),
                    format!("spec.hard.{k}"),
                    k.as_str(),
                    res,
                    &mut out,
                );
            }
        }
    }
    for lr in &snap.limit_ranges {
        let subj = Subject::namespaced("LimitRange", &lr.metadata.namespace, &lr.metadata.name);
        let mut names = BTreeSet::new();
        for item in &lr.spec.limits {
            for l in [&item.max, &item.min, &item.default, &item.default_request] {
                names.extend(l.names().map(|n| n.as_str()).filter(|n| is_gpu_resource(n)));
            }
        }
        for n in names {
            unknown(subj.clone(), "spec.limits".into(), n, n, &mut out);
        }
    }
    for p in &snap.pods {
        if ctx.pod_finished(p) {
            continue;
        }
        let any_gpu = p
            .spec
            .containers
            .iter()
            .chain(&p.spec.init_containers)
            .any(|c| {
                c.resources
                    .requests
                    .names()
                    .chain(c.resources.limits.names())
                    .any(|n| is_gpu_resource(n.as_str()))
            });
        if !any_gpu {
            continue;
        }
        let mut names = BTreeSet::new();
        for c in p.spec.containers.iter().chain(&p.spec.init_containers) {
            names.extend(
                c.resources
                    .requests
                    .names()
                    .chain(c.resources.limits.names())
                    .map(|n| n.as_str())
                    .filter(|n| is_gpu_resource(n)),
            );
        }
        for n in names.clone() {
            // a per-device attribute of a device the pod asks for (HAMi nvidia.com/gpumem next
            // to nvidia.com/gpu): managed by the scheduler extender, never advertised
            if crate::resources::is_device_attribute(n, names.iter().copied(), |o| {
                advertised.contains(o)
            }) {
                continue;
            }
            unknown(
                pod_subject(p),
                "spec.containers[].resources".into(),
                n,
                n,
                &mut out,
            );
        }
    }
    // who asks for a GPU resource by name: pods (requests or limits), quotas, LimitRanges and
    // scheduler texts (`Insufficient <name>`); a renamed shared resource matters only to them
    let mut asked: BTreeMap<String, String> = BTreeMap::new();
    for p in snap.pods.iter().filter(|p| !ctx.pod_finished(p)) {
        for c in p.spec.containers.iter().chain(&p.spec.init_containers) {
            for n in c
                .resources
                .requests
                .names()
                .chain(c.resources.limits.names())
            {
                asked
                    .entry(n.as_str().to_owned())
                    .or_insert_with(|| format!("pod {}", p.key()));
            }
        }
    }
    for q in &snap.resource_quotas {
        for k in q.spec.hard.names() {
            asked
                .entry(quota_key_resource(k.as_str()).to_owned())
                .or_insert_with(|| {
                    format!("ResourceQuota {}/{}", q.metadata.namespace, q.metadata.name)
                });
        }
    }
    for lr in &snap.limit_ranges {
        for item in &lr.spec.limits {
            for l in [&item.max, &item.min, &item.default, &item.default_request] {
                for n in l.names() {
                    asked.entry(n.as_str().to_owned()).or_insert_with(|| {
                        format!("LimitRange {}/{}", lr.metadata.namespace, lr.metadata.name)
                    });
                }
            }
        }
    }
    let scheduler_asks = |res: &str| {
        signals(ctx, &[SignalKind::FailedScheduling])
            .any(|s| s.text.contains(&format!("Insufficient {res}")))
    };
    for n in &snap.nodes {
        let a = &n.status.allocatable;
        for (k, q) in a.iter() {
            let Some(base) = k.as_str().strip_suffix(".shared") else {
                continue;
            };
            if q.is_zero() {
                continue;
            }
            // nobody asks for the old name: the rename is the configuration working
            // (NVIDIA/k8s-device-plugin `renameByDefault: true`, k8s-device-plugin#732)
            let consumer = match asked.get(base) {
                Some(who) => who.clone(),
                None if scheduler_asks(base) => {
                    format!("a scheduler message (Insufficient {base})")
                }
                None => continue,
            };
            if a.get(base).is_none_or(|b| b.is_zero()) {
                let o = obj("Node", "", &n.metadata.name);
                out.push(
                    Finding::new(GpuResourceNameMismatch::ID, Severity::Warning, node_subject(n), format!("node {} advertises its GPUs as {k} ({q}) and {base} as {}: the sharing config renamed the resource, so pods and quotas asking for {base} see 0 (Insufficient {base}) and requests.{base} does not limit shared use; {consumer} asks for {base}", n.metadata.name, a.get(base).map(ToString::to_string).unwrap_or_else(|| "absent".into())))
                        .with_evidence(Evidence::field(&o, format!("status.allocatable.{k}"), q.to_string()))
                        .with_evidence(Evidence::field(&o, format!("status.allocatable.{base}"), a.get(base).map(ToString::to_string).unwrap_or_else(|| "<absent>".into())))
                        .with_remedy(format!("request {k} in pods and quota it as requests.{k}, or set `renameByDefault: false` in the device plugin's sharing config to keep the name {base}")),
                );
            }
        }
    }
    // a scheduler that says no node has the GPU resource the pod asks for (catalog entries
    // concluding this rule: KAI's MaxNodePoolResources text)
    let mut said = BTreeSet::new();
    for s in signals(ctx, &[SignalKind::Known]) {
        let Some(e) = crate::catalog::entry(s.detail("entry")) else {
            continue;
        };
        if e.rule != GpuResourceNameMismatch::ID || !said.insert((signal_subject(s), e.id)) {
            continue;
        }
        let (cause, remedy) = e.cause_and_remedy(s);
        out.push(
            Finding::new(
                GpuResourceNameMismatch::ID,
                e.severity,
                signal_subject(s),
                cause,
            )
            .with_evidence(s.evidence())
            .with_remedy(remedy),
        );
    }
    for s in signals(ctx, &[SignalKind::QuotaStatusUnknown]).take(1) {
        // v1.0-v1.1 refused pods while the quota controller had not computed usage (those
        // releases tracked only counts, cpu and memory: no resource name to blame)
        if s.detail("entry").starts_with("quota.v1.0-")
            && let Some(e) = crate::catalog::entry(s.detail("entry"))
        {
            let (cause, remedy) = e.cause_and_remedy(s);
            out.push(
                Finding::new(
                    GpuResourceNameMismatch::ID,
                    Severity::Warning,
                    signal_subject(s),
                    cause,
                )
                .with_evidence(s.evidence())
                .with_remedy(remedy),
            );
            continue;
        }
        out.push(
            Finding::new(GpuResourceNameMismatch::ID, Severity::Error, signal_subject(s), format!("quota {} has unknown status: admission rejects every pod; the quota names a resource the quota system cannot evaluate (for example the legacy alpha.kubernetes.io/nvidia-gpu)", s.detail("quota")))
                .with_evidence(s.evidence())
                .with_remedy("`kubectl get resourcequota -o yaml` and replace legacy/unknown resource names (alpha.kubernetes.io/nvidia-gpu -> requests.nvidia.com/gpu)"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    /// A pre-v1.10 kubelet serves alpha.kubernetes.io/nvidia-gpu itself (Accelerators gate):
    /// pods asking for it there are right; from v1.10 the name alone is the old mistake.
    #[test]
    fn legacy_name_served_by_an_old_kubelet_is_not_a_mismatch() {
        let case = |version: &str| {
            format!(
                r#"{{"kind":"List","items":[{{"kind":"Node","metadata":{{"name":"n"}},"status":{{"capacity":{{"alpha.kubernetes.io/nvidia-gpu":"2"}},"allocatable":{{"alpha.kubernetes.io/nvidia-gpu":"2"}},"nodeInfo":{{"kubeletVersion":"{version}"}}}}}},
                {{"kind":"Pod","metadata":{{"name":"p","namespace":"a"}},"spec":{{"nodeName":"n","containers":[{{"name":"c","image":"x","resources":{{"limits":{{"alpha.kubernetes.io/nvidia-gpu":"1"}}}}}}]}},"status":{{"phase":"Running"}}}}]}}"#
            )
        };
        assert!(run_rule("gpu-resource-name-mismatch", &case("v1.7.5")).is_empty());
        assert!(run_rule("gpu-not-advertised", &case("v1.7.5")).is_empty());
        assert!(!run_rule("gpu-resource-name-mismatch", &case("v1.11.2")).is_empty());
    }

    /// HAMi's per-vGPU attributes (default and chart-renamed names) qualify the GPU the pod asks
    /// for: no node advertises them, which is no mismatch; an unadvertised device name still is.
    #[test]
    fn hami_attributes_next_to_an_advertised_gpu_are_no_mismatch() {
        let case = |limits: &str| {
            format!(
                r#"{{"kind":"List","items":[{{"kind":"Node","metadata":{{"name":"n","annotations":{{"hami.io/node-handshake":"Reported"}}}},"status":{{"allocatable":{{"nvidia.com/gpu":"20"}}}}}},
                {{"kind":"Pod","metadata":{{"name":"p","namespace":"a"}},"spec":{{"nodeName":"n","schedulerName":"hami-scheduler","containers":[{{"name":"c","image":"x","resources":{{"limits":{{{limits}}}}}}}]}},"status":{{"phase":"Running"}}}}]}}"#
            )
        };
        for limits in [
            r#""nvidia.com/gpu":"1","nvidia.com/gpumem":"3000","nvidia.com/gpucores":"30""#,
            r#""nvidia.com/gpu":"1","nvidia.com/gpumem-percentage":"50""#,
            r#""nvidia.com/gpu":"1","nvidia.com/gpu-memory":"3000""#,
        ] {
            let f = run_rule("gpu-resource-name-mismatch", &case(limits));
            assert!(f.is_empty(), "{limits}: {f:#?}");
        }
        let f = run_rule(
            "gpu-resource-name-mismatch",
            &case(r#""amd.com/gpu":"1","nvidia.com/gpumem":"3000""#),
        );
        assert!(
            f.iter().any(|f| f.message.contains("uses amd.com/gpu")),
            "{f:#?}"
        );
    }

    #[test]
    fn renamed_shared_resource_only_when_someone_asks_for_the_old_name() {
        let node = r#"{"kind":"Node","metadata":{"name":"n"},"status":{"allocatable":{"nvidia.com/gpu":"0","nvidia.com/gpu.shared":"50"}}}"#;
        let alone = format!(r#"{{"kind":"List","items":[{node}]}}"#);
        assert!(run_rule("gpu-resource-name-mismatch", &alone).is_empty());
        let asked = format!(
            r#"{{"kind":"List","items":[{node},{{"kind":"Pod","metadata":{{"name":"p","namespace":"a"}},"spec":{{"containers":[{{"name":"c","resources":{{"limits":{{"nvidia.com/gpu":"1"}}}}}}]}},"status":{{"phase":"Pending"}}}}]}}"#
        );
        let f = run_rule("gpu-resource-name-mismatch", &asked);
        assert!(
            f.iter()
                .any(|f| f.subject.kind == "Node" && f.message.contains("pod a/p asks")),
            "{f:#?}"
        );
    }

    #[test]
    fn legacy_alpha_name() {
        let q = "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\n  namespace: t\nspec:\n  hard:\n    requests.alpha.kubernetes.io/nvidia-gpu: \"1\"\n";
        let f = run_rule("gpu-resource-name-mismatch", q);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, crate::Severity::Error);
    }

    #[test]
    fn advertised_name_is_fine_and_amd_vs_nvidia_is_not() {
        let s = r#"{"kind":"List","items":[{"kind":"Node","metadata":{"name":"n"},"status":{"allocatable":{"nvidia.com/gpu":"8"}}},
          {"kind":"ResourceQuota","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"requests.nvidia.com/gpu":"4"}}}]}"#;
        assert!(run_rule("gpu-resource-name-mismatch", s).is_empty());
        let amd = s.replace("requests.nvidia.com/gpu", "requests.amd.com/gpu");
        assert_eq!(run_rule("gpu-resource-name-mismatch", &amd).len(), 1);
    }
}
