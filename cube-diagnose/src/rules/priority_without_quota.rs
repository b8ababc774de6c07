//! `priority-without-quota`: a group has a PriorityClass but no quota.

use crate::rules::quota_without_priority::{GroupControls, groups};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    PriorityWithoutQuota,
    "priority-without-quota",
    Quota,
    Warning,
    "A resource group (given with --groups, or a namespace whose pods use a non-system PriorityClass) has a PriorityClass but no ResourceQuota: priority and quota are independent controls, and a high-priority group without a quota can preempt everyone else's pods without bound. Give the group a quota (a PriorityClass-scoped quota caps exactly that class). Also fires when the API server rejects pods with 'insufficient quota to match these scopes' (its ResourceQuota admission configuration limits a PriorityClass, GKE does for the critical classes, to namespaces with a quota whose scopeSelector covers it).",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let unread = crate::rules::unread(ctx, "ResourceQuota");
    // the API server's own configuration says it: `insufficient quota to match these scopes`
    let mut out = crate::rules::log_catalog::catalog_findings(ctx, PriorityWithoutQuota::ID);
    scope_quota_manifests(ctx, &mut out);
    out.extend(groups(ctx)
        .into_iter()
        .filter(|g: &GroupControls| !g.priority_classes.is_empty() && g.quotas.is_empty())
        // no ResourceQuota given at all (pods pasted alone): "has no ResourceQuota" would be a
        // guess (K8); one that could not be read is said below. Groups given with --groups
        // declare their quota (an empty one is the plan's own absence)
        .filter(|_| {
            unread.is_some()
                || !ctx.groups().is_empty()
                || !crate::rules::absence::not_given(ctx, "ResourceQuota")
        })
        .map(|g| {
            if let Some(why) = unread {
                // absence of a kind that could not be read proves nothing
                return Finding::new(PriorityWithoutQuota::ID, Severity::Info, Subject::cluster_scoped("ResourceGroup", &g.name), format!("group {} uses PriorityClass {}; whether it has a ResourceQuota in {} is unknown: ResourceQuotas could not be read ({why})", g.name, g.priority_classes.join(", "), g.namespaces.join(", ")))
                    .with_evidence(Evidence::field("ResourceQuota", "list", format!("could not be read: {why}")))
                    .with_remedy("grant list on resourcequotas to the account that reads the cluster (or dump them with `kubectl get resourcequotas -A -o json`) and diagnose again");
            }
            Finding::new(PriorityWithoutQuota::ID, Severity::Warning, Subject::cluster_scoped("ResourceGroup", &g.name), format!("group {} uses PriorityClass {} but has no ResourceQuota in {}: it can take (and preempt) capacity without limit", g.name, g.priority_classes.join(", "), g.namespaces.join(", ")))
                .with_evidences(g.priority_classes.iter().map(|p| Evidence::field(format!("ResourceGroup/{}", g.name), "priorityClassName", p)))
                .with_remedy(format!("kubectl -n {} create quota {}-quota --hard=requests.cpu=<n>,requests.memory=<m>,requests.nvidia.com/gpu=<g>", g.namespaces.first().cloned().unwrap_or_default(), g.name))
        }));
    out
}

/// The scopes of `insufficient quota to match these scopes: [{PriorityClass In [a b]}]` (Go's
/// `%v` of `[]corev1.ScopedResourceSelectorRequirement`: `{ScopeName Operator [Values]}`,
/// staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go `CheckRequest`)
/// as (scope name, operator, values); `None` when the text is not of that shape.
fn parse_scopes(text: &str) -> Option<Vec<(String, String, Vec<String>)>> {
    let inner = text.trim().strip_prefix('[')?.strip_suffix(']')?;
    let mut out = Vec::new();
    for part in inner.split('}').map(str::trim).filter(|p| !p.is_empty()) {
        let part = part.trim_start_matches(',').trim().strip_prefix('{')?;
        let (head, values) = match part.split_once('[') {
            Some((h, v)) => (h, v.trim_end_matches(']')),
            None => (part, ""),
        };
        let mut words = head.split_whitespace();
        let (scope, op) = (words.next()?, words.next()?);
        let known = scope.chars().all(|c| c.is_ascii_alphanumeric())
            && matches!(op, "In" | "NotIn" | "Exists" | "DoesNotExist");
        if !known {
            return None;
        }
        out.push((
            scope.to_owned(),
            op.to_owned(),
            values.split_whitespace().map(str::to_owned).collect(),
        ));
    }
    (!out.is_empty()).then_some(out)
}

/// For a scope-quota rejection about a namespaced object (the event's workload), a
/// ResourceQuota manifest for its namespace whose scopeSelector covers the rejected scopes, as a
/// command that runs as printed (the documented way to allow the limited classes in a
/// namespace: kubernetes.io "Limit Priority Class consumption by default").
fn scope_quota_manifests(ctx: &Context<'_>, out: &mut [crate::Finding]) {
    for s in crate::rules::signals(ctx, &[crate::classify::SignalKind::Known])
        .filter(|s| s.detail("entry") == "quota.insufficient-scopes")
    {
        let subject = crate::rules::signal_subject(s);
        if subject.namespace.is_empty() {
            continue;
        }
        let Some(scopes) = parse_scopes(s.detail("scopes")) else {
            continue;
        };
        let Some(f) = out
            .iter_mut()
            .find(|f| f.subject == subject && !f.remedy.contains("kind: ResourceQuota"))
        else {
            continue;
        };
        let ns = crate::rules::shell_word(&subject.namespace);
        let mut exprs = String::new();
        for (scope, op, values) in &scopes {
            exprs.push_str(&format!("    - scopeName: {scope}\n      operator: {op}\n"));
            if !values.is_empty() {
                exprs.push_str(&format!("      values: [{}]\n", values.join(", ")));
            }
        }
        f.message.push_str(&format!(
            " (namespace {}, {} {})",
            subject.namespace, subject.kind, subject.name
        ));
        f.remedy = format!(
            "{}: `kubectl -n {ns} apply -f - <<'EOF'\napiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: critical-pods\nspec:\n  hard:\n    pods: \"1000\"\n  scopeSelector:\n    matchExpressions:\n{exprs}EOF`",
            f.remedy
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;
    use crate::{Context, Engine, GroupSpec};

    /// GKE (openebs-archive/cstor-operators#196): the API server's ResourceQuota admission
    /// configuration limits the critical PriorityClasses to namespaces with a covering quota.
    #[test]
    fn scope_quota_rejection_names_the_scope_selector() {
        let f = crate::rules::testutil::run_log(
            "priority-without-quota",
            "Warning  FailedCreate  2m  daemonset-controller  Error creating: insufficient quota to match these scopes: [{PriorityClass In [system-node-critical system-cluster-critical]}]",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("system-node-critical"));
        assert!(f[0].remedy.contains("scopeSelector"), "{}", f[0].remedy);
        // tied to the DaemonSet its describe names, with a manifest for its namespace
        let ds = "$ kubectl describe ds openebs-cstor-csi-node -n openebs | tail -4\nEvents:\n  Type     Reason        Age                From                  Message\n  ----     ------        ----               ----                  -------\n  Warning  FailedCreate  2m (x19 over 14m)  daemonset-controller  Error creating: insufficient quota to match these scopes: [{PriorityClass In [system-node-critical system-cluster-critical]}]\n";
        let f = run_rule("priority-without-quota", ds);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].subject.display_name(),
            "DaemonSet/openebs/openebs-cstor-csi-node"
        );
        let commands = f[0].remedy_commands.join("\n");
        assert!(
            commands.contains("kubectl -n openebs apply -f - <<'EOF'")
                && commands.contains("values: [system-node-critical, system-cluster-critical]"),
            "{f:#?}"
        );
        assert_eq!(
            super::parse_scopes("[{PriorityClass In [a b]} {PriorityClass Exists []}]"),
            Some(vec![
                (
                    "PriorityClass".into(),
                    "In".into(),
                    vec!["a".into(), "b".into()]
                ),
                ("PriorityClass".into(), "Exists".into(), vec![])
            ])
        );
        assert_eq!(super::parse_scopes("[oops]"), None);
    }

    #[test]
    fn explicit_groups_from_the_model() {
        let g = cube_model::group::ResourceGroup::from_yaml(
            "name: vision\nnamespaces:\n- name: team-vision\npriority:\n  className: training-high-priority\n  value: 1000000\n",
        )
        .expect("group");
        let spec = GroupSpec::from(&g);
        assert_eq!(spec.namespaces, vec!["team-vision".to_owned()]);
        let snap = cube_model::ClusterSnapshot::default();
        let r = Engine::new().run(&Context::new(&snap).with_groups([spec]));
        assert_eq!(r.by_rule("priority-without-quota").count(), 1);
        assert_eq!(r.by_rule("quota-without-priority").count(), 0);
    }

    #[test]
    fn priority_pods_without_quota() {
        let pc = r#"{"kind":"PriorityClass","metadata":{"name":"high"},"value":1000}"#;
        let pod = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"priorityClassName":"high","containers":[{"name":"c"}]}}"#;
        let s = format!(r#"{{"kind":"List","items":[{pc},{pod}]}}"#);
        // no ResourceQuota given at all: nothing concluded (K8, rules::absence); with the
        // quotas listed (an empty ResourceQuotaList) the absence is real
        assert!(run_rule("priority-without-quota", &s).is_empty());
        let mut i = crate::Inputs::new();
        i.add("all.json", &s);
        i.add(
            "q.json",
            r#"{"kind":"ResourceQuotaList","apiVersion":"v1","items":[]}"#,
        );
        assert_eq!(
            crate::rules::testutil::run_inputs("priority-without-quota", &i).len(),
            1
        );
        let q = r#"{"kind":"ResourceQuota","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"pods":"5"}}}"#;
        let s = format!(r#"{{"kind":"List","items":[{pc},{pod},{q}]}}"#);
        assert!(run_rule("priority-without-quota", &s).is_empty());
    }
}
