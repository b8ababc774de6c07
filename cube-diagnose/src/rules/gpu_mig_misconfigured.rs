//! `gpu-mig-misconfigured`: a node advertises both whole GPUs and MIG slices (the mixed
//! strategy), or an advertised MIG profile with no instances.

use crate::rules::{node_subject, obj};
use crate::{Context, Evidence, Finding, Severity};

declare_rule!(
    GpuMigMisconfigured,
    "gpu-mig-misconfigured",
    Gpu,
    Warning,
    "A node advertises whole GPUs (nvidia.com/gpu above 0) next to MIG slices (nvidia.com/mig-*): under the MIG mixed strategy the non-MIG GPUs are exposed as nvidia.com/gpu, so a pod asking for nvidia.com/gpu lands on a GPU that is not partitioned (or, if that GPU is in MIG mode without instances, gets no device) while quotas and dashboards count both names (NVIDIA/gpu-operator#637; k8s-device-plugin docs/mig-strategies). Also warns for every MIG profile advertised with capacity or allocatable 0: the MIG config creates no instance of it, so pods requesting it never schedule; and reports a node GPU feature discovery labels `<model>-MIG-INVALID` under the single strategy (mixed profiles such as all-balanced, MIG without instances, MIG next to non-MIG GPUs): an error when the node then advertises no GPU.",
    check
);

const MIG: &str = "nvidia.com/mig-";

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    // texts: a MIG strategy next to a GPU without MIG devices, the MIG manager's failed state
    // (catalog `nvidia.mig-*`, read together by classify::mig)
    let mut out = crate::rules::log_catalog::catalog_findings(ctx, GpuMigMisconfigured::ID);
    for n in &ctx.snapshot().nodes {
        let name = &n.metadata.name;
        let o = obj("Node", "", name);
        let (cap, alloc) = cube_model::gpu::gpu_resources(n);
        let strategy = n.metadata.labels.get("nvidia.com/mig.strategy");
        let slices: Vec<(String, String)> = alloc
            .iter()
            .chain(cap.iter().filter(|(k, _)| !alloc.contains(k.as_str())))
            .filter(|(k, q)| k.as_str().starts_with(MIG) && !q.is_zero())
            .map(|(k, q)| (k.to_string(), q.to_string()))
            .collect();
        let whole = alloc
            .get("nvidia.com/gpu")
            .or_else(|| cap.get("nvidia.com/gpu"))
            .filter(|q| !q.is_zero());
        if let Some(whole) = whole
            && !slices.is_empty()
            && strategy.is_none_or(|s| s == "mixed")
        {
            out.push(
                Finding::new(GpuMigMisconfigured::ID, Severity::Warning, node_subject(n), format!(
                    "node {name} advertises {whole} whole GPU(s) as nvidia.com/gpu next to MIG slices ({}){}: pods asking for nvidia.com/gpu get a GPU outside the MIG layout (and none at all if that GPU is in MIG mode without instances)",
                    slices.iter().map(|(k, q)| format!("{k}: {q}")).collect::<Vec<_>>().join(", "),
                    if strategy.is_some() { " under mig.strategy=mixed" } else { " (the mixed strategy)" }
                ))
                .with_evidence(Evidence::field(&o, "status.allocatable.nvidia.com/gpu", whole.to_string()))
                .with_evidences(slices.iter().map(|(k, q)| Evidence::field(&o, format!("status.allocatable.{k}"), q)))
                .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/mig.strategy]", strategy.unwrap_or("<absent>")))
                .with_remedy(format!("if every GPU on {name} should be partitioned, apply a MIG layout that covers all of them (`kubectl label node {name} nvidia.com/mig.config=<profile layout> --overwrite` with the GPU Operator's MIG manager); if the whole GPUs are intended, make workloads request a MIG profile or nvidia.com/gpu explicitly and quota both names")),
            );
        }
        // GFD's single MIG strategy labels the product `<model>-MIG-INVALID` (and gpu.count 0)
        // when the GPUs are not all MIG-enabled with instances of one profile: MIG enabled
        // without instances, mixed profiles (a layout such as all-balanced), or MIG-enabled
        // next to non-MIG GPUs (NVIDIA/gpu-feature-discovery internal/lm, the single
        // strategy's labeler and its tests; now NVIDIA/k8s-device-plugin internal/lm)
        if let Some(product) = n
            .metadata
            .labels
            .get("nvidia.com/gpu.product")
            .filter(|p| p.ends_with("-MIG-INVALID"))
        {
            let advertised = whole.is_some() || !slices.is_empty();
            let layout = n.metadata.labels.get("nvidia.com/mig.config");
            let mut f = Finding::new(
                GpuMigMisconfigured::ID,
                if advertised { Severity::Warning } else { Severity::Error },
                node_subject(n),
                format!(
                    "GPU feature discovery labels node {name}'s GPUs {product} under mig.strategy={}: the single strategy needs every GPU MIG-enabled with instances of one profile, and {} (mixed profiles, a MIG-enabled GPU without instances, or MIG and non-MIG GPUs together), so the plugin {}",
                    strategy.unwrap_or("single"),
                    match layout {
                        Some(l) => format!("the MIG layout {l} does not give that"),
                        None => "the node's MIG layout does not give that".to_owned(),
                    },
                    if advertised { "advertises a layout pods cannot rely on" } else { "advertises no GPU (nvidia.com/gpu 0)" }
                ),
            )
            .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/gpu.product]", product))
            .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/mig.strategy]", strategy.unwrap_or("<absent>")));
            if let Some(l) = layout {
                f = f.with_evidence(Evidence::field(
                    &o,
                    "metadata.labels[nvidia.com/mig.config]",
                    l,
                ));
            }
            out.push(f.with_remedy(format!(
                "either keep mig.strategy=single and give every GPU one profile (`kubectl label node {name} nvidia.com/mig.config=all-1g.10gb --overwrite`, a layout named after one profile of your GPU), or switch the device plugin and GFD to the mixed strategy (GPU Operator: `kubectl patch clusterpolicies.nvidia.com/cluster-policy --type merge -p '{{\"spec\":{{\"mig\":{{\"strategy\":\"mixed\"}}}}}}'`) and request nvidia.com/mig-<profile>"
            )));
        }
        if let Some(f) = layout_not_applied(n, strategy, &slices) {
            out.push(f);
        }
        let mut empty: Vec<(String, String, String)> = Vec::new();
        for (k, _) in cap.iter().chain(alloc.iter()) {
            if !k.as_str().starts_with(MIG) || empty.iter().any(|(e, _, _)| e == k.as_str()) {
                continue;
            }
            let c = cap.get(k.as_str());
            let a = alloc.get(k.as_str());
            let zero_cap = c.is_some_and(|c| c.is_zero());
            let zero_alloc_no_cap = c.is_none() && a.is_some_and(|a| a.is_zero());
            if zero_cap || zero_alloc_no_cap {
                empty.push((
                    k.to_string(),
                    c.map_or("<absent>".into(), ToString::to_string),
                    a.map_or("<absent>".into(), ToString::to_string),
                ));
            }
        }
        if !empty.is_empty() {
            // a profile at 0 next to profiles with instances is a leftover of an earlier
            // layout: the kubelet sets a resource a device plugin once registered to 0 instead
            // of removing it when the plugin stops advertising it (kubernetes
            // pkg/kubelet/nodestatus/setters.go MachineInfo, `Set capacity for removed resource
            // to 0 on device removal`, from devicemanager GetCapacity's deleted resources). It
            // matters only to a pod that requests it.
            let wanted: Vec<String> = ctx
                .snapshot()
                .pods
                .iter()
                .enumerate()
                .filter(|(_, p)| !matches!(p.status.phase.as_str(), "Succeeded" | "Failed"))
                .filter(|(i, _)| {
                    ctx.pod_requests(*i)
                        .iter()
                        .any(|(k, q)| !q.is_zero() && empty.iter().any(|(e, _, _)| e == k.as_str()))
                })
                .map(|(_, p)| format!("{}/{}", p.metadata.namespace, p.metadata.name))
                .take(3)
                .collect();
            // every GPU partitioned (no whole GPU advertised) with instances of other
            // profiles: the layout was applied (a failed one is layout_not_applied's); whole
            // GPUs next to slices are a partial layout, where a profile at 0 may be the part
            // that failed (NVIDIA/gpu-operator#637)
            let leftover = !slices.is_empty() && whole.is_none() && wanted.is_empty();
            let (severity, why) = if leftover {
                (
                    Severity::Info,
                    format!(
                        "next to profiles with instances ({}) these are most likely left from an earlier MIG layout (the kubelet keeps a resource a device plugin once advertised, at 0); only a pod requesting them would wait",
                        slices
                            .iter()
                            .map(|(k, q)| format!("{k}: {q}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
            } else if wanted.is_empty() {
                (
                    Severity::Warning,
                    "the MIG config creates none, so pods requesting them never schedule"
                        .to_owned(),
                )
            } else {
                (
                    Severity::Warning,
                    format!(
                        "the MIG config creates none, so pods requesting them never schedule: {} request(s) them",
                        wanted.join(", ")
                    ),
                )
            };
            out.push(
                Finding::new(GpuMigMisconfigured::ID, severity, node_subject(n), format!(
                    "node {name} advertises MIG profile(s) with no instances ({}): {why}",
                    empty.iter().map(|(k, _, a)| format!("{k}: {a}")).collect::<Vec<_>>().join(", ")
                ))
                .with_evidences(empty.iter().flat_map(|(k, c, a)| [
                    Evidence::field(&o, format!("status.capacity.{k}"), c),
                    Evidence::field(&o, format!("status.allocatable.{k}"), a),
                ]))
                .with_remedy(format!("check the MIG layout on {name} (`nvidia-smi mig -lgi`; label nvidia.com/mig.config and nvidia.com/mig.config.state) and request a profile the node has instances of (`kubectl get node {name} -o jsonpath='{{.status.allocatable}}'`)")),
            );
        }
    }
    out
}

/// The MIG layout of a node that is not applied: the MIG manager's state label says `failed`
/// (NVIDIA/mig-parted deployments/gpu-operator/reconfigure-mig.sh `set_state_label`: pending,
/// rebooting, success, failed), or GPU feature discovery labels the GPUs MIG-capable
/// (`nvidia.com/mig.capable=true`, NVIDIA/k8s-device-plugin internal/lm) under the mixed
/// strategy while the node has no `nvidia.com/mig.config` label and advertises no MIG device
/// (the operator's MIG manager applies a layout only from that label; the mixed strategy
/// advertises MIG resources only for MIG devices that exist). A node without capacity in the
/// input (labels only) is not judged on advertising.
fn layout_not_applied(
    n: &cube_model::objects::Node,
    strategy: Option<&str>,
    slices: &[(String, String)],
) -> Option<Finding> {
    let name = &n.metadata.name;
    let o = obj("Node", "", name);
    let labels = &n.metadata.labels;
    let layout = labels.get("nvidia.com/mig.config");
    let state = labels.get("nvidia.com/mig.config.state");
    let remedy = format!(
        "label the node with the MIG layout you want: `kubectl label node {name} nvidia.com/mig.config=<profile> --overwrite` (a profile of the MIG manager's config that fits the GPU, e.g. all-1g.10gb or all-balanced, or your own entry in a custom mig-parted ConfigMap); the GPU operator's MIG manager enables MIG mode, creates the instances and sets nvidia.com/mig.config.state=success, then nvidia.com/mig-<profile> resources appear; if the label is set, read the MIG manager's log (`kubectl -n gpu-operator logs -l app=nvidia-mig-manager`)"
    );
    if state == Some("failed") {
        return Some(
            Finding::new(GpuMigMisconfigured::ID, Severity::Error, node_subject(n), format!(
                "the GPU operator's MIG manager reports nvidia.com/mig.config.state=failed on node {name}: it could not apply the MIG layout {} (a profile the GPU does not support or that is missing from its config, GPU clients that keep the GPU busy during the reset, or a MIG mode change that needs a reboot), so the node does not advertise that layout's MIG devices",
                layout.unwrap_or("<no nvidia.com/mig.config label>")
            ))
            .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/mig.config.state]", "failed"))
            .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/mig.config]", layout.unwrap_or("<absent>")))
            .with_remedy(remedy),
        );
    }
    let capacity_known = !n.status.capacity.is_empty() || !n.status.allocatable.is_empty();
    if strategy == Some("mixed")
        && labels.get("nvidia.com/mig.capable") == Some("true")
        && layout.is_none()
        && slices.is_empty()
        && capacity_known
    {
        return Some(
            Finding::new(GpuMigMisconfigured::ID, Severity::Warning, node_subject(n), format!(
                "node {name}'s GPUs are MIG-capable and the MIG strategy is mixed, but the node has no nvidia.com/mig.config label and advertises no MIG device: no MIG layout was applied (MIG mode off or no instances), so no nvidia.com/mig-<profile> resource exists{}",
                state.map(|s| format!(" (nvidia.com/mig.config.state={s})")).unwrap_or_default()
            ))
            .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/mig.strategy]", "mixed"))
            .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/mig.capable]", "true"))
            .with_evidence(Evidence::field(&o, "metadata.labels[nvidia.com/mig.config]", "<absent>"))
            .with_remedy(remedy),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn mixed_and_empty_profiles() {
        let node = |alloc: &str, strategy: &str| {
            format!(
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: a100\n  labels:\n    nvidia.com/mig.strategy: {strategy}\nstatus:\n  allocatable:\n{alloc}"
            )
        };
        let f = run_rule(
            "gpu-mig-misconfigured",
            &node(
                "    nvidia.com/gpu: \"2\"\n    nvidia.com/mig-1g.10gb: \"6\"\n    nvidia.com/mig-3g.40gb: \"0\"\n",
                "mixed",
            ),
        );
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(f.iter().any(|f| f.message.contains("mig-3g.40gb: 0")));
        // all GPUs partitioned: nvidia.com/gpu 0 is fine
        assert!(
            run_rule(
                "gpu-mig-misconfigured",
                &node(
                    "    nvidia.com/gpu: \"0\"\n    nvidia.com/mig-1g.10gb: \"7\"\n",
                    "mixed"
                )
            )
            .is_empty()
        );
        assert!(
            run_rule(
                "gpu-mig-misconfigured",
                &node("    nvidia.com/gpu: \"8\"\n", "none")
            )
            .is_empty()
        );
    }

    /// Hold-out case (cocalc #8161): a profile at 0 next to profiles with instances is a
    /// leftover of an earlier layout (info); a pod that requests it makes it a warning.
    #[test]
    fn a_zero_profile_next_to_instances_is_a_leftover_unless_a_pod_wants_it() {
        let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: a100\n  labels:\n    nvidia.com/mig.strategy: mixed\n    nvidia.com/mig.config.state: success\nstatus:\n  capacity:\n    nvidia.com/gpu: \"0\"\n    nvidia.com/mig-1g.5gb: \"5\"\n    nvidia.com/mig-3g.20gb: \"0\"\n  allocatable:\n    nvidia.com/gpu: \"0\"\n    nvidia.com/mig-1g.5gb: \"5\"\n    nvidia.com/mig-3g.20gb: \"0\"\n";
        let f = run_rule("gpu-mig-misconfigured", node);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Info);
        assert!(
            f[0].message.contains("earlier MIG layout"),
            "{}",
            f[0].message
        );
        let pod = "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  namespace: ml\nspec:\n  containers:\n  - name: c\n    resources:\n      limits:\n        nvidia.com/mig-3g.20gb: \"1\"\nstatus:\n  phase: Pending\n";
        let f = run_rule("gpu-mig-misconfigured", &format!("{node}{pod}"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Warning);
        assert!(f[0].message.contains("ml/big"), "{}", f[0].message);
    }

    #[test]
    fn mig_invalid_product_under_single_strategy() {
        let n = "apiVersion: v1\nkind: Node\nmetadata:\n  name: a100\n  labels:\n    nvidia.com/mig.strategy: single\n    nvidia.com/mig.config: all-balanced\n    nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB-MIG-INVALID\nstatus:\n  allocatable:\n    nvidia.com/gpu: \"0\"\n";
        let f = run_rule("gpu-mig-misconfigured", n);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, crate::Severity::Error);
        assert!(f[0].message.contains("single") && f[0].message.contains("all-balanced"));
    }

    #[test]
    fn layout_not_applied_on_a_node() {
        let node = |labels: &str, alloc: &str| {
            format!(
                "apiVersion: v1\nkind: Node\nmetadata:\n  name: a30\n  labels:\n{labels}status:\n  allocatable:\n    cpu: \"8\"\n{alloc}"
            )
        };
        let failed = run_rule(
            "gpu-mig-misconfigured",
            &node(
                "    nvidia.com/mig.strategy: mixed\n    nvidia.com/mig.config: all-1g.6gb\n    nvidia.com/mig.config.state: failed\n",
                "",
            ),
        );
        assert_eq!(failed.len(), 1, "{failed:#?}");
        assert_eq!(failed[0].severity, crate::Severity::Error);
        assert!(failed[0].message.contains("all-1g.6gb"));
        let unlabelled = run_rule(
            "gpu-mig-misconfigured",
            &node(
                "    nvidia.com/mig.strategy: mixed\n    nvidia.com/mig.capable: \"true\"\n",
                "    nvidia.com/gpu: \"0\"\n",
            ),
        );
        assert_eq!(unlabelled.len(), 1, "{unlabelled:#?}");
        assert!(unlabelled[0].remedy.contains("nvidia.com/mig.config="));
        // applied: MIG devices advertised, or the layout chosen as all-disabled
        for (labels, alloc) in [
            (
                "    nvidia.com/mig.strategy: mixed\n    nvidia.com/mig.capable: \"true\"\n",
                "    nvidia.com/mig-1g.6gb: \"4\"\n",
            ),
            (
                "    nvidia.com/mig.strategy: mixed\n    nvidia.com/mig.capable: \"true\"\n    nvidia.com/mig.config: all-disabled\n",
                "    nvidia.com/gpu: \"1\"\n",
            ),
            (
                "    nvidia.com/mig.strategy: single\n    nvidia.com/mig.capable: \"true\"\n",
                "    nvidia.com/gpu: \"1\"\n",
            ),
        ] {
            assert!(
                run_rule("gpu-mig-misconfigured", &node(labels, alloc)).is_empty(),
                "{labels}"
            );
        }
    }
}
