//! `device-plugin-not-scheduled`: a device-plugin DaemonSet's nodeSelector/affinity/tolerations
//! exclude GPU nodes (including NFD label variants).

use crate::gpu::gpu_labels;
use crate::rules::{node_matches, node_subject, obj, untolerated};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    DevicePluginNotScheduled,
    "device-plugin-not-scheduled",
    Gpu,
    Error,
    "A device-plugin DaemonSet (NVIDIA, AMD, HAMi, Intel) cannot place a pod on some GPU nodes: its nodeSelector or required node affinity names a label those nodes lack, or its tolerations miss their taints; desiredNumberScheduled stays below the number of GPU nodes. Also warns when NFD labelled a node's NVIDIA device with the PCI class in the key (pci-0302_10de.present) but not pci-10de.present, which GPU Operator operands select.",
    check
);

fn is_device_plugin(name: &str, images: &[&str]) -> bool {
    let hay = |s: &str| {
        s.contains("device-plugin")
            || s.contains("deviceplugin")
            || s.contains("gpu-operator")
            || s.contains("hami-device")
    };
    hay(name) || images.iter().any(|i| hay(i))
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let snap = ctx.snapshot();
    let gpu_nodes: Vec<_> = snap
        .nodes
        .iter()
        .filter(|n| {
            !gpu_labels(n).is_empty()
                || crate::gpu::gpu_allocatable(n).iter().any(|(_, q)| q != "0")
        })
        .collect();
    for ds in &snap.daemon_sets {
        let images: Vec<&str> = ds
            .spec
            .template
            .spec
            .containers
            .iter()
            .map(|c| c.image.as_str())
            .collect();
        if !is_device_plugin(&ds.metadata.name, &images) || gpu_nodes.is_empty() {
            continue;
        }
        let spec = &ds.spec.template.spec;
        let mut excluded = Vec::new();
        for n in &gpu_nodes {
            let why = match node_matches(n, spec) {
                Err(_) => {
                    let missing: Vec<String> = spec
                        .node_selector
                        .iter()
                        .filter(|(k, v)| n.metadata.labels.get(*k) != Some(*v))
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect();
                    Some(if missing.is_empty() {
                        "required node affinity does not match".to_owned()
                    } else {
                        format!("lacks label {}", missing.join(", "))
                    })
                }
                Ok(()) => {
                    let t = untolerated(n, &spec.tolerations);
                    (!t.is_empty()).then(|| {
                        format!(
                            "taint {} not tolerated",
                            t.iter()
                                .map(|t| format!("{}={}:{}", t.key, t.value, t.effect))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
                }
            };
            if let Some(why) = why {
                excluded.push((n.metadata.name.as_str(), why));
            }
        }
        if excluded.is_empty() {
            continue;
        }
        let o = obj("DaemonSet", &ds.metadata.namespace, &ds.metadata.name);
        let mut f = Finding::new(
            DevicePluginNotScheduled::ID,
            Severity::Error,
            Subject::namespaced("DaemonSet", &ds.metadata.namespace, &ds.metadata.name),
            format!("device plugin {}/{} cannot run on {} of {} GPU nodes ({}); desiredNumberScheduled is {}", ds.metadata.namespace, ds.metadata.name, excluded.len(), gpu_nodes.len(), excluded.iter().map(|(n, w)| format!("{n}: {w}")).collect::<Vec<_>>().join("; "), ds.status.desired_number_scheduled),
        )
        .with_evidence(Evidence::field(&o, "status.desiredNumberScheduled", ds.status.desired_number_scheduled.to_string()));
        for (k, v) in &spec.node_selector {
            f = f.with_evidence(Evidence::field(
                &o,
                format!("spec.template.spec.nodeSelector.{k}"),
                v,
            ));
        }
        let label_fix: Vec<String> = spec
            .node_selector
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let remedy = if label_fix.is_empty() {
            "add tolerations for the GPU nodes' taints to the DaemonSet's pod template (e.g. `- key: nvidia.com/gpu\n  operator: Exists\n  effect: NoSchedule`)".to_owned()
        } else {
            format!(
                "either label the GPU nodes (`kubectl label node {} {}`) or change the DaemonSet's nodeSelector to a label the GPU nodes carry (e.g. nvidia.com/gpu.present=true or feature.node.kubernetes.io/pci-10de.present=true)",
                excluded
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(" "),
                label_fix.join(" ")
            )
        };
        out.push(f.with_remedy(remedy));
    }
    for n in &snap.nodes {
        let labels = &n.metadata.labels;
        let class_prefixed: Vec<&String> = labels
            .keys()
            .filter(|k| {
                k.starts_with("feature.node.kubernetes.io/pci-") && k.ends_with("_10de.present")
            })
            .collect();
        if !class_prefixed.is_empty()
            && !labels.contains_key("feature.node.kubernetes.io/pci-10de.present")
        {
            let o = obj("Node", "", &n.metadata.name);
            out.push(
                Finding::new(DevicePluginNotScheduled::ID, Severity::Warning, node_subject(n), format!("NFD found an NVIDIA device (vendor 10de) on {} but labelled it with the PCI class in the key ({}); operands selecting feature.node.kubernetes.io/pci-10de.present=true will not schedule here", n.metadata.name, class_prefixed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")))
                    .with_evidences(class_prefixed.iter().map(|k| Evidence::field(&o, format!("metadata.labels[{k}]"), "true")))
                    .with_evidence(Evidence::field(&o, "metadata.labels[feature.node.kubernetes.io/pci-10de.present]", "<absent>"))
                    .with_remedy(format!("configure NFD's pci source with `deviceLabelFields: [vendor]` (so it writes pci-10de.present), or label the node by hand: `kubectl label node {} feature.node.kubernetes.io/pci-10de.present=true`", n.metadata.name)),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    const NODE: &str = r#"{"kind":"Node","metadata":{"name":"g1","labels":{"nvidia.com/gpu.present":"true"}},"spec":{"taints":[{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"}]}}"#;

    fn ds(selector: &str) -> String {
        format!(
            r#"{{"kind":"DaemonSet","metadata":{{"name":"nvidia-device-plugin-daemonset","namespace":"kube-system"}},"spec":{{"template":{{"spec":{{"nodeSelector":{selector},"tolerations":[{{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}}],"containers":[{{"name":"c","image":"nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}}]}}}}}}}}"#
        )
    }

    #[test]
    fn selector_label_missing() {
        let s = format!(
            r#"{{"kind":"List","items":[{NODE},{}]}}"#,
            ds(r#"{"nvidia.com/gpu.deploy.device-plugin":"true"}"#)
        );
        let f = run_rule("device-plugin-not-scheduled", &s);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message
                .contains("lacks label nvidia.com/gpu.deploy.device-plugin=true")
        );
    }

    #[test]
    fn matching_selector_and_toleration() {
        let s = format!(
            r#"{{"kind":"List","items":[{NODE},{}]}}"#,
            ds(r#"{"nvidia.com/gpu.present":"true"}"#)
        );
        assert!(run_rule("device-plugin-not-scheduled", &s).is_empty());
    }

    #[test]
    fn nfd_class_prefixed_label() {
        let s = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    feature.node.kubernetes.io/pci-0302_10de.present: \"true\"\n";
        assert_eq!(run_rule("device-plugin-not-scheduled", s).len(), 1);
        let ok = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n  labels:\n    feature.node.kubernetes.io/pci-0302_10de.present: \"true\"\n    feature.node.kubernetes.io/pci-10de.present: \"true\"\n";
        assert!(run_rule("device-plugin-not-scheduled", ok).is_empty());
    }
}
