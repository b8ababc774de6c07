//! `priority-unguarded`: a high PriorityClass any namespace may use, with no quota scoped to it.

use std::collections::BTreeSet;

use cube_model::objects::{PriorityClass, ResourceQuota};

use crate::rules::quota_without_priority::groups;
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    PriorityUnguarded,
    "priority-unguarded",
    Quota,
    Warning,
    "A PriorityClass above the classes the groups' quotas are scoped to (or, with no scoped quota, above the highest non-system class the groups use; `thresholds.priorityUnguardedAbove` sets the value) that no ResourceQuota scoped to it (`scopeSelector` PriorityClass In) limits in some namespace: PriorityClasses are cluster-wide, so any team there can create pods of that class and preempt every other team's pods without bound. Kubernetes documents the guard (\"Limit Priority Class consumption by default\", <https://kubernetes.io/docs/concepts/policy/resource-quotas/#limit-priority-class-consumption-by-default>): a quota scoped to the class in every namespace that may use it, and the ResourceQuota admission configuration's `limitedResources` (plugin/pkg/admission/resourcequota/apis/resourcequota, `ResourceQuotaConfiguration`) so that namespaces without such a quota cannot use it at all. `system-*` classes and classes listed in `thresholds.limitedPriorityClasses` (limited by that configuration) are not reported.",
    check
);

/// Namespaces listed in the evidence at most.
const MAX_NAMESPACES: usize = 10;

/// True when `quota` caps pods of PriorityClass `class`: each of its scope selectors matches a
/// pod of that class (a `PriorityClass` requirement `In` naming it, `NotIn` not naming it, or
/// `Exists`; no other scope), and it limits something a pod consumes.
fn quota_limits_class(quota: &ResourceQuota, class: &str) -> bool {
    let sels = cube_quota::quota::scope_selectors(&quota.spec);
    let mut names_class = false;
    for s in &sels {
        if s.scope_name != "PriorityClass" {
            return false;
        }
        let ok = match s.operator.as_str() {
            "In" => s.values.iter().any(|v| v == class),
            "NotIn" => !s.values.is_empty() && !s.values.iter().any(|v| v == class),
            "Exists" => s.values.is_empty(),
            _ => false,
        };
        if !ok {
            return false;
        }
        names_class = true;
    }
    names_class
        && quota
            .spec
            .hard
            .names()
            .any(|n| cube_quota::quota::pod_tracks(n.as_str()))
}

/// Classes named by `PriorityClass In` scopes of any quota.
fn scoped_classes(quotas: &[ResourceQuota]) -> BTreeSet<String> {
    quotas
        .iter()
        .flat_map(|q| cube_quota::quota::scope_selectors(&q.spec))
        .filter(|s| s.scope_name == "PriorityClass" && s.operator == "In")
        .flat_map(|s| s.values)
        .collect()
}

fn value_of(classes: &[PriorityClass], name: &str) -> Option<i32> {
    classes
        .iter()
        .find(|c| c.metadata.name == name)
        .map(|c| c.value)
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let snap = ctx.snapshot();
    let th = ctx.thresholds();
    let classes = &snap.priority_classes;
    // The reference value for a class: explicit, else the highest other class a quota is
    // scoped to, else the highest other non-system class the groups use.
    let scoped: Vec<(i32, String)> = scoped_classes(&snap.resource_quotas)
        .into_iter()
        .filter_map(|c| value_of(classes, &c).map(|v| (v, c)))
        .collect();
    let used: Vec<(i32, String)> = groups(ctx)
        .into_iter()
        .flat_map(|g| g.priority_classes)
        .filter(|c| !c.starts_with("system-"))
        .collect::<BTreeSet<String>>()
        .into_iter()
        .filter_map(|c| value_of(classes, &c).map(|v| (v, c)))
        .collect();
    let reference = |class: &str| -> Option<(i32, String)> {
        if let Some(v) = th.priority_unguarded_above {
            return Some((v, "thresholds.priorityUnguardedAbove".to_owned()));
        }
        let highest =
            |list: &[(i32, String)]| list.iter().filter(|(_, c)| c != class).max().cloned();
        highest(&scoped)
            .map(|(v, c)| {
                (
                    v,
                    format!("{c}, the highest other class a quota is scoped to"),
                )
            })
            .or_else(|| {
                highest(&used)
                    .map(|(v, c)| (v, format!("{c}, the highest other class the groups use")))
            })
    };
    // The namespaces that may use a class: every namespace the snapshot shows, but the
    // system ones.
    let mut namespaces: BTreeSet<&str> = snap
        .namespaces
        .iter()
        .map(|n| n.metadata.name.as_str())
        .collect();
    namespaces.extend(ctx.namespaces_with_pods());
    namespaces.extend(
        snap.resource_quotas
            .iter()
            .map(|q| q.metadata.namespace.as_str()),
    );
    namespaces.retain(|n| !n.is_empty() && !n.starts_with("kube-"));
    if namespaces.is_empty() {
        return Vec::new();
    }
    let limited: BTreeSet<&str> = th
        .limited_priority_classes
        .iter()
        .map(String::as_str)
        .collect();
    let mut out = Vec::new();
    for pc in classes {
        let name = pc.metadata.name.as_str();
        if name.starts_with("system-") || limited.contains(name) {
            continue;
        }
        // nothing to compare with: no group context to judge "high" by
        let Some((threshold, basis)) = reference(name) else {
            continue;
        };
        if pc.value <= threshold {
            continue;
        }
        let unguarded: Vec<&str> = namespaces
            .iter()
            .copied()
            .filter(|ns| {
                !snap
                    .resource_quotas
                    .iter()
                    .filter(|q| q.metadata.namespace == *ns)
                    .any(|q| quota_limits_class(q, name))
            })
            .collect();
        if unguarded.is_empty() {
            continue;
        }
        let shown: Vec<&str> = unguarded.iter().copied().take(MAX_NAMESPACES).collect();
        let more = unguarded.len().saturating_sub(shown.len());
        let list = if more > 0 {
            format!("{} and {more} more", shown.join(", "))
        } else {
            shown.join(", ")
        };
        let example = shown.first().copied().unwrap_or("<namespace>");
        out.push(
            Finding::new(
                PriorityUnguarded::ID,
                Severity::Warning,
                Subject::cluster_scoped("PriorityClass", name),
                format!(
                    "PriorityClass {name} (value {}) is above {threshold} ({basis}) and no ResourceQuota scoped to it limits its use in {list}: pods of that class created there can preempt every other team's pods without bound",
                    pc.value
                ),
            )
            .with_evidence(Evidence::field(
                format!("PriorityClass/{name}"),
                "value",
                pc.value.to_string(),
            ))
            .with_evidences(shown.iter().map(|ns| {
                Evidence::field(
                    format!("Namespace/{ns}"),
                    "resourceQuota",
                    format!("none scoped to PriorityClass {name}"),
                )
            }))
            .with_remedy(format!(
                "in every namespace that may use {name}, create a quota scoped to it (e.g. `kubectl -n {example} apply -f -` with `apiVersion: v1, kind: ResourceQuota, metadata: {{name: {name}-quota}}, spec: {{hard: {{pods: \"0\"}}, scopeSelector: {{matchExpressions: [{{scopeName: PriorityClass, operator: In, values: [{name}]}}]}}}}`, raising `hard` where the class is allowed), and limit the class by default in the API server's admission configuration (`--admission-control-config-file`: ResourceQuota plugin, `kind: ResourceQuotaConfiguration`, `limitedResources: [{{resource: pods, matchScopes: [{{scopeName: PriorityClass, operator: In, values: [{name}]}}]}}]`), as the Kubernetes docs' \"Limit Priority Class consumption by default\" shows; then list {name} in `thresholds.limitedPriorityClasses`"
            )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;
    use crate::{Config, Context, Engine};

    fn class(name: &str, value: i32) -> String {
        format!(
            r#"{{"kind":"PriorityClass","apiVersion":"scheduling.k8s.io/v1","metadata":{{"name":"{name}"}},"value":{value}}}"#
        )
    }
    fn ns(name: &str) -> String {
        format!(r#"{{"kind":"Namespace","apiVersion":"v1","metadata":{{"name":"{name}"}}}}"#)
    }
    fn scoped_quota(ns: &str, class: &str) -> String {
        format!(
            r#"{{"kind":"ResourceQuota","apiVersion":"v1","metadata":{{"name":"{class}-quota","namespace":"{ns}"}},"spec":{{"hard":{{"pods":"10","requests.cpu":"8"}},"scopeSelector":{{"matchExpressions":[{{"scopeName":"PriorityClass","operator":"In","values":["{class}"]}}]}}}}}}"#
        )
    }
    fn pod(ns: &str, class: &str) -> String {
        format!(
            r#"{{"kind":"Pod","apiVersion":"v1","metadata":{{"name":"p-{class}","namespace":"{ns}"}},"spec":{{"priorityClassName":"{class}","containers":[{{"name":"c"}}]}}}}"#
        )
    }
    fn list(items: &[String]) -> String {
        format!(r#"{{"kind":"List","items":[{}]}}"#, items.join(","))
    }

    #[test]
    fn high_class_without_scoped_quota_is_reported() {
        let s = list(&[
            class("team-a", 1000),
            class("urgent", 1_000_000),
            class("system-cluster-critical", 2_000_000_000),
            ns("a"),
            ns("b"),
            scoped_quota("a", "team-a"),
            pod("a", "team-a"),
        ]);
        let f = run_rule("priority-unguarded", &s);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message
                .contains("PriorityClass urgent (value 1000000) is above 1000"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.contains("in a, b"), "{}", f[0].message);
        let remedy = f[0].remedy.clone();
        assert!(
            remedy.contains("limitedResources") && remedy.contains("scopeName: PriorityClass"),
            "{remedy}"
        );
    }

    #[test]
    fn guarded_everywhere_or_by_configuration_is_quiet() {
        let guarded = list(&[
            class("team-a", 1000),
            class("urgent", 1_000_000),
            ns("a"),
            ns("b"),
            scoped_quota("a", "team-a"),
            scoped_quota("a", "urgent"),
            scoped_quota("b", "urgent"),
        ]);
        assert!(run_rule("priority-unguarded", &guarded).is_empty());
        // one namespace lacks the scoped quota: reported for that namespace only
        let half = list(&[
            class("team-a", 1000),
            class("urgent", 1_000_000),
            ns("a"),
            ns("b"),
            scoped_quota("a", "team-a"),
            scoped_quota("a", "urgent"),
        ]);
        let f = run_rule("priority-unguarded", &half);
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("in b:"), "{}", f[0].message);
        // limited by the admission configuration: said in Config
        let snap = cube_model::ClusterSnapshot::from_slice("s.json", half.as_bytes());
        let cfg =
            Config::from_yaml("thresholds: {limitedPriorityClasses: [urgent]}\n").expect("config");
        let ctx = Context::new(&snap).with_thresholds(cfg.thresholds.clone());
        let r = Engine::new().with_config(cfg).run(&ctx);
        assert_eq!(r.by_rule("priority-unguarded").count(), 0);
    }

    #[test]
    fn default_threshold_from_the_classes_groups_use() {
        // no scoped quota: the reference is the highest non-system class in use (mid, 500)
        let s = list(&[
            class("mid", 500),
            class("urgent", 1_000_000),
            class("low", 10),
            ns("a"),
            pod("a", "mid"),
            pod("a", "system-node-critical"),
        ]);
        let f = run_rule("priority-unguarded", &s);
        assert_eq!(f.len(), 1);
        assert!(
            f[0].message.starts_with("PriorityClass urgent"),
            "{}",
            f[0].message
        );
        // no reference at all: nothing said
        let s = list(&[class("urgent", 1_000_000), ns("a")]);
        assert!(run_rule("priority-unguarded", &s).is_empty());
        // an explicit threshold
        let snap = cube_model::ClusterSnapshot::from_slice("s.json", s.as_bytes());
        let cfg = Config::from_yaml("thresholds: {priorityUnguardedAbove: 100}\n").expect("config");
        let ctx = Context::new(&snap).with_thresholds(cfg.thresholds.clone());
        let r = Engine::new().with_config(cfg).run(&ctx);
        assert_eq!(r.by_rule("priority-unguarded").count(), 1);
    }
}
