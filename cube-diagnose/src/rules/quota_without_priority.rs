//! `quota-without-priority`: a group has a quota but no PriorityClass.

use std::collections::BTreeMap;

use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    QuotaWithoutPriority,
    "quota-without-priority",
    Quota,
    Info,
    "A resource group (given with --groups, or a namespace with a ResourceQuota and pods) has a quota but its workloads use no PriorityClass: quota caps how much it may use, but nothing orders it against other groups when the cluster is full, so its pods neither preempt nor are protected. Informational: assign a PriorityClass per group if contention matters.",
    check
);

/// The two controls of one group.
#[derive(Debug, Clone, Default)]
pub(crate) struct GroupControls {
    pub name: String,
    pub namespaces: Vec<String>,
    pub priority_classes: Vec<String>,
    pub quotas: Vec<String>,
}

fn is_system_class(name: &str) -> bool {
    name.starts_with("system-")
}

/// Groups from the context (explicit), or one implicit group per namespace with pods or quotas.
pub(crate) fn groups(ctx: &Context<'_>) -> Vec<GroupControls> {
    let snap = ctx.snapshot();
    let mut quotas_by_ns: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for q in &snap.resource_quotas {
        quotas_by_ns
            .entry(&q.metadata.namespace)
            .or_default()
            .push(q.metadata.name.clone());
    }
    let classes_in = |ns: &str| -> Vec<String> {
        let set: std::collections::BTreeSet<&str> = ctx
            .pods_in_namespace(ns)
            .iter()
            .map(|&i| ctx.pod(i).spec.priority_class_name.as_str())
            .filter(|c| !c.is_empty() && !is_system_class(c))
            .collect();
        set.into_iter().map(str::to_owned).collect::<Vec<String>>()
    };
    if !ctx.groups().is_empty() {
        return ctx
            .groups()
            .iter()
            .map(|g| {
                let mut pcs: Vec<String> =
                    g.namespaces.iter().flat_map(|ns| classes_in(ns)).collect();
                if !g.priority_class_name.is_empty() {
                    pcs.insert(0, g.priority_class_name.clone());
                }
                pcs.dedup();
                let mut quotas: Vec<String> = g
                    .namespaces
                    .iter()
                    .flat_map(|ns| quotas_by_ns.get(ns.as_str()).cloned().unwrap_or_default())
                    .collect();
                if !g.quota.is_empty() {
                    quotas.push("(declared)".into());
                }
                GroupControls {
                    name: g.name.clone(),
                    namespaces: g.namespaces.clone(),
                    priority_classes: pcs,
                    quotas,
                }
            })
            .collect();
    }
    let mut names: Vec<&str> = snap
        .namespaces
        .iter()
        .map(|n| n.metadata.name.as_str())
        .collect();
    names.extend(ctx.namespaces_with_pods());
    names.extend(quotas_by_ns.keys().copied());
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .filter(|ns| !ns.starts_with("kube-") && !ctx.pods_in_namespace(ns).is_empty())
        .map(|ns| GroupControls {
            name: ns.to_owned(),
            namespaces: vec![ns.to_owned()],
            priority_classes: classes_in(ns),
            quotas: quotas_by_ns.get(ns).cloned().unwrap_or_default(),
        })
        .collect()
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    if crate::rules::unread(ctx, "Pod").is_some() {
        // "its workloads use no PriorityClass" needs the pods: snapshot-incomplete says why
        return Vec::new();
    }
    groups(ctx)
        .into_iter()
        .filter(|g| g.priority_classes.is_empty() && !g.quotas.is_empty())
        // "its workloads use no PriorityClass" needs a pod whose spec the input shows: pods
        // from `kubectl get pods` rows or `describe node` lists do not show priorityClassName
        // (K8: an absence only from an input that could show it)
        .filter(|g| {
            g.namespaces.iter().any(|ns| {
                ctx.pods_in_namespace(ns).iter().any(|&i| {
                    !ctx
                        .pod(i)
                        .metadata
                        .annotations
                        .contains_key(cube_model::describe::PARTIAL_ANNOTATION)
                })
            })
        })
        .map(|g| {
            Finding::new(QuotaWithoutPriority::ID, Severity::Info, Subject::cluster_scoped("ResourceGroup", &g.name), format!("group {} has quota {} but its workloads use no PriorityClass: nothing orders it against other groups under contention", g.name, g.quotas.join(", ")))
                .with_evidences(g.quotas.iter().map(|q| Evidence::field(format!("ResourceGroup/{}", g.name), "resourceQuota", q)))
                .with_remedy(format!("create a PriorityClass for the group (`kubectl create priorityclass {}-priority --value=1000`) and set priorityClassName on its workloads", g.name))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    #[test]
    fn quota_without_priority_is_info() {
        let s = r#"{"kind":"List","items":[{"kind":"ResourceQuota","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"pods":"5"}}},{"kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"containers":[{"name":"c"}]}}]}"#;
        assert_eq!(run_rule("quota-without-priority", s).len(), 1);
        let with = s.replace(
            r#""spec":{"containers""#,
            r#""spec":{"priorityClassName":"high","containers""#,
        );
        assert!(run_rule("quota-without-priority", &with).is_empty());
    }
}
