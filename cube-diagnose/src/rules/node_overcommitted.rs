//! `node-overcommitted`: pods bound to a node request more of a resource than it allocates, or a
//! resource it does not advertise at all.

use crate::resources::add_into;
use crate::rules::obj;
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    NodeOvercommitted,
    "node-overcommitted",
    Scheduling,
    Error,
    "The non-terminal pods bound to a node (for example through spec.nodeName, which bypasses the scheduler) request more of a resource than the node's status.allocatable, or a resource the node does not advertise at all (a GPU pod on a node without nvidia.com/gpu). The kubelet rejects or cannot serve such pods (OutOfnvidia.com/gpu, UnexpectedAdmissionError).",
    check
);

/// Pods named in one finding's message and evidence; the others requesting the resource are
/// counted ("and N more pod(s)"), so a finding stays small however many pods are bound.
const MAX_LISTED_PODS: usize = 20;

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut nodes: Vec<(&str, &[usize])> = ctx.bound_nodes().collect();
    nodes.sort_unstable_by_key(|(n, _)| *n);
    for (name, pods) in nodes {
        let Some(node) = ctx.node(name) else { continue };
        let live: Vec<usize> = pods
            .iter()
            .copied()
            .filter(|&i| !ctx.pod_finished(ctx.pod(i)))
            .collect();
        let alloc = &node.status.allocatable;
        if alloc.is_empty() {
            continue; // partial object: nothing to compare with
        }
        // Fast pass without allocations: millis per resource name (borrowed); exact sums are
        // only built for the resources that exceed allocatable.
        let mut millis: std::collections::HashMap<&str, i128> = std::collections::HashMap::new();
        for &i in &live {
            for (r, q) in ctx.pod_requests(i) {
                *millis.entry(r.as_str()).or_default() += i128::from(q.milli_value());
            }
        }
        let suspects: Vec<&str> = millis
            .iter()
            .filter(|(r, m)| {
                **m > 0
                    && alloc
                        .get(r)
                        .is_none_or(|a| **m > i128::from(a.milli_value()))
            })
            .map(|(r, _)| *r)
            .collect();
        if suspects.is_empty() {
            continue;
        }
        let mut sum = cube_model::ResourceList::new();
        for &i in &live {
            let only: cube_model::ResourceList = ctx
                .pod_requests(i)
                .iter()
                .filter(|(r, _)| suspects.contains(&r.as_str()))
                .map(|(r, q)| (r.clone(), q.clone()))
                .collect();
            add_into(&mut sum, &only);
        }
        for (res, want) in &sum {
            if want.is_zero() {
                continue;
            }
            let have = alloc.get(res.as_str());
            let over = match have {
                Some(h) => want > h,
                // a per-device attribute (HAMi nvidia.com/gpumem, ...) next to a device the
                // node advertises: the scheduler extender counts it, the kubelet ignores it
                None => !live.iter().any(|&i| {
                    let asks = ctx.pod_requests(i);
                    asks.get(res.as_str()).is_some_and(|q| !q.is_zero())
                        && crate::resources::is_device_attribute(
                            res.as_str(),
                            asks.names().map(|n| n.as_str()),
                            |o| alloc.get(o).is_some_and(|q| !q.is_zero()),
                        )
                }),
            };
            if !over {
                continue;
            }
            let o = obj("Node", "", name);
            // the pods requesting it, in the order read; only the first MAX_LISTED_PODS are named
            // (a node with thousands of pods bound would otherwise carry a finding the size of
            // its pod list: issue 9's memory bound), the rest counted
            let requesting = live.iter().filter(|&&i| {
                ctx.pod_requests(i)
                    .get(res.as_str())
                    .is_some_and(|q| !q.is_zero())
            });
            let total = requesting.clone().count();
            let users: Vec<(String, String)> = requesting
                .take(MAX_LISTED_PODS)
                .map(|&i| {
                    let q = ctx
                        .pod_requests(i)
                        .get(res.as_str())
                        .map(ToString::to_string);
                    (ctx.pod(i).key(), q.unwrap_or_default())
                })
                .collect();
            let more = match total - users.len() {
                0 => String::new(),
                n => format!(" and {n} more pod(s)"),
            };
            let message = match have {
                Some(h) => format!(
                    "pods bound to {name} request {want} {res} but it allocates {h} ({}{more})",
                    users
                        .iter()
                        .map(|(p, q)| format!("{p} {q}"))
                        .collect::<Vec<_>>()
                        .join(" + ")
                ),
                None => format!(
                    "pods bound to {name} request {want} {res}, which the node does not advertise at all ({}{more}){}",
                    users
                        .iter()
                        .map(|(p, _)| p.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    // one root cause: a GPU node whose chain breaks is reported by gpu-not-advertised
                    if cube_model::gpu::gpu_resource_vendor(res.as_str()).is_some()
                        && ctx
                            .gpu_evidence()
                            .iter()
                            .any(|e| e.node == name && e.has_gpus())
                    {
                        "; why the node has no GPUs is reported by gpu-not-advertised"
                    } else {
                        ""
                    }
                ),
            };
            out.push(
                Finding::new(NodeOvercommitted::ID, Severity::Error, Subject::cluster_scoped("Node", name), message)
                    .with_evidence(Evidence::field(&o, format!("status.allocatable.{res}"), have.map(ToString::to_string).unwrap_or_else(|| "<absent>".into())))
                    .with_evidences(users.iter().map(|(p, q)| Evidence::field(format!("Pod/{p}"), format!("requests.{res}"), q)))
                    .with_remedy(format!("do not bind pods with spec.nodeName; delete the excess pods and let the scheduler place them (remove spec.nodeName, use nodeSelector/affinity), e.g. `kubectl delete pod -n <ns> <pod>` for {}", users.last().map(|(p, _)| p.as_str()).unwrap_or(""))),
            );
        }
        if let Some(maxp) = alloc.get("pods") {
            let n = i64::try_from(live.len()).unwrap_or(i64::MAX);
            if n > maxp.value() {
                out.push(
                    Finding::new(
                        NodeOvercommitted::ID,
                        Severity::Error,
                        Subject::cluster_scoped("Node", name),
                        format!("{n} pods bound to {name}, allocatable pods is {maxp}"),
                    )
                    .with_evidence(Evidence::field(
                        obj("Node", "", name),
                        "status.allocatable.pods",
                        maxp.to_string(),
                    ))
                    .with_remedy("raise the kubelet's maxPods or move pods elsewhere"),
                );
            }
        }
    }
    // the kubelet's refusal of a bound pod (`Node didn't have enough resource: ...`, reason
    // OutOf<resource>) read from a pasted event or pod status
    out.extend(crate::rules::log_catalog::catalog_findings(
        ctx,
        NodeOvercommitted::ID,
    ));
    out.extend(crate::rules::kubelet_admission::refused_pods(
        ctx,
        NodeOvercommitted::ID,
    ));
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    fn s(gpus: &str) -> String {
        format!(
            r#"{{"kind":"List","items":[{{"kind":"Node","metadata":{{"name":"g"}},"status":{{"allocatable":{{"cpu":"8","nvidia.com/gpu":"8"}}}}}},
         {{"kind":"Pod","metadata":{{"name":"a","namespace":"x"}},"spec":{{"nodeName":"g","containers":[{{"name":"c","resources":{{"requests":{{"nvidia.com/gpu":"{gpus}"}}}}}}]}}}},
         {{"kind":"Pod","metadata":{{"name":"b","namespace":"x"}},"spec":{{"nodeName":"g","containers":[{{"name":"c","resources":{{"requests":{{"nvidia.com/gpu":"4"}}}}}}]}}}}]}}"#
        )
    }

    #[test]
    fn over_and_within() {
        assert_eq!(run_rule("node-overcommitted", &s("6")).len(), 1);
        assert!(run_rule("node-overcommitted", &s("4")).is_empty());
    }

    fn shared(node_res: &str, pod_res: &str) -> String {
        format!(
            r#"{{"kind":"List","items":[{{"kind":"Node","metadata":{{"name":"g"}},"status":{{"allocatable":{{"cpu":"8"{node_res}}}}}}},
         {{"kind":"Pod","metadata":{{"name":"a","namespace":"x"}},"spec":{{"nodeName":"g","schedulerName":"hami-scheduler","containers":[{{"name":"c","resources":{{"limits":{{{pod_res}}}}}}}]}}}}]}}"#
        )
    }

    #[test]
    fn per_device_attributes_are_no_overcommit() {
        // HAMi's default names, and names renamed in its chart (resourceMem, resourceCores)
        for pod in [
            r#""nvidia.com/gpu":"1","nvidia.com/gpumem":"3000","nvidia.com/gpucores":"30""#,
            r#""nvidia.com/gpu":"1","nvidia.com/gpumem-percentage":"50""#,
            r#""nvidia.com/gpu":"1","nvidia.com/vgpu-mem":"3000","nvidia.com/vgpu-core":"30""#,
        ] {
            let f = run_rule(
                "node-overcommitted",
                &shared(r#","nvidia.com/gpu":"20""#, pod),
            );
            assert!(f.is_empty(), "{pod}: {f:#?}");
        }
        // the device itself missing from the node still fires, attributes or not
        let f = run_rule(
            "node-overcommitted",
            &shared("", r#""nvidia.com/gpu":"1","nvidia.com/gpumem":"3000""#),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("1 nvidia.com/gpu,"),
            "{}",
            f[0].message
        );
        // a device count above allocatable still fires next to its attributes
        let f = run_rule(
            "node-overcommitted",
            &shared(
                r#","nvidia.com/gpu":"1""#,
                r#""nvidia.com/gpu":"2","nvidia.com/gpumem":"3000""#,
            ),
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("but it allocates 1"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_node_with_many_pods_names_the_first_and_counts_the_rest() {
        let pods: Vec<String> = (0..50)
            .map(|i| format!(r#"{{"kind":"Pod","metadata":{{"name":"p{i}","namespace":"x"}},"spec":{{"nodeName":"g","containers":[{{"name":"c","resources":{{"requests":{{"nvidia.com/gpu":"1"}}}}}}]}}}}"#))
            .collect();
        let s = format!(
            r#"{{"kind":"List","items":[{{"kind":"Node","metadata":{{"name":"g"}},"status":{{"allocatable":{{"cpu":"8","nvidia.com/gpu":"8"}}}}}},{}]}}"#,
            pods.join(",")
        );
        let f = run_rule("node-overcommitted", &s);
        assert_eq!(f.len(), 1, "{f:?}");
        let m = &f[0].message;
        assert!(
            m.contains("request 50 nvidia.com/gpu but it allocates 8"),
            "{m}"
        );
        assert!(m.contains("x/p0 1 + ") && m.contains("x/p19 1"), "{m}");
        assert!(!m.contains("x/p20 "), "{m}");
        assert!(m.contains("and 30 more pod(s)"), "{m}");
        // the node's allocatable and the 20 pods named
        assert_eq!(f[0].evidence.len(), 1 + super::MAX_LISTED_PODS);
    }
}
