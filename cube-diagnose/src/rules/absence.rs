//! Conclusions from absence ("no LimitRange", "no StorageClass at all", "no ResourceQuota")
//! only from inputs that could have shown the thing (fresh-user K8: `kubectl describe quota`
//! pasted alone gave "the namespace has no LimitRange").
//!
//! A kind could have been shown when the snapshot holds it: its complete list was read
//! ([`KindStatus::Listed`]: a typed `<Kind>List`, every page of a live list) or objects of it were
//! given ([`KindStatus::Present`]: the user pasted that kind, e.g. `kubectl get limitranges -A`).
//! A kind that could not be read ([`KindStatus::Missing`]) is said so by each rule ("could not
//! be read", [`crate::rules::unread`]); a kind the input never gave ([`KindStatus::NotGiven`]:
//! a paste of one quota, a PVC table alone) supports no conclusion about its absence, and the
//! rule stays quiet (`snapshot-coverage` lists the kinds the input lacks).

use cube_model::snapshot::KindStatus;

use crate::Context;

/// True when the input never gave `kind` and nothing says it could not be read: an absence of
/// it means nothing (see the module documentation).
pub(crate) fn not_given(ctx: &Context<'_>, kind: &str) -> bool {
    matches!(ctx.snapshot().kind_status(kind), KindStatus::NotGiven)
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_rule;

    const QUOTA: &str = "Name:            team-a-quota\nNamespace:       team-a\nResource         Used   Hard\n--------         ----   ----\nlimits.cpu       4      32\nrequests.cpu     2      16\nrequests.memory  4Gi    64Gi\n";

    /// `kubectl describe quota` pasted alone: no "no LimitRange" (K8); with an empty
    /// `LimitRangeList` the absence is real; with the quota's rejections in the input it is
    /// proven.
    #[test]
    fn quota_alone_says_nothing_about_limitranges() {
        assert!(run_rule("quota-without-limitrange", QUOTA).is_empty());
        let listed = r#"{"kind":"List","items":[{"kind":"ResourceQuota","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"requests.cpu":"4"}}}]}"#;
        assert!(run_rule("quota-without-limitrange", listed).is_empty());
        let mut i = crate::Inputs::new();
        i.add("q.json", listed);
        i.add(
            "lr.json",
            r#"{"kind":"LimitRangeList","apiVersion":"v1","items":[]}"#,
        );
        assert_eq!(
            crate::rules::testutil::run_inputs("quota-without-limitrange", &i).len(),
            1
        );
        let events = format!(
            "{QUOTA}\n$ kubectl get events -n team-a\nLAST SEEN   TYPE      REASON         OBJECT                   MESSAGE\n1m          Warning   FailedCreate   replicaset/web-5d8f9c7b6   Error creating: pods \"web-5d8f9c7b6-x2k8q\" is forbidden: failed quota: team-a-quota: must specify limits.cpu\n"
        );
        assert!(!run_rule("quota-without-limitrange", &events).is_empty());
    }

    /// A PVC manifest alone: no "no StorageClass at all"; the same claim as the API server
    /// stores it (Pending, no class) shows there is no default.
    #[test]
    fn claim_manifest_alone_says_nothing_about_storage_classes() {
        let manifest = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\n  namespace: ml\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 10Gi\n";
        assert!(run_rule("storage-no-default-class", manifest).is_empty());
        let stored = format!("{manifest}status:\n  phase: Pending\n");
        assert_eq!(run_rule("storage-no-default-class", &stored).len(), 1);
    }

    /// Pods with a PriorityClass pasted alone: no "has no ResourceQuota"; with an empty
    /// `ResourceQuotaList` the absence is real.
    #[test]
    fn pods_alone_say_nothing_about_quotas() {
        let pods = r#"{"kind":"List","items":[{"kind":"Pod","metadata":{"name":"p","namespace":"a","uid":"u1"},"spec":{"priorityClassName":"high","containers":[{"name":"c","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}]},"status":{"phase":"Running"}}]}"#;
        assert!(run_rule("priority-without-quota", pods).is_empty());
        let mut i = crate::Inputs::new();
        i.add("p.json", pods);
        i.add(
            "q.json",
            r#"{"kind":"ResourceQuotaList","apiVersion":"v1","items":[]}"#,
        );
        assert_eq!(
            crate::rules::testutil::run_inputs("priority-without-quota", &i).len(),
            1
        );
    }

    /// A quota with `kubectl get pods` rows (which do not show priorityClassName): no "its
    /// workloads use no PriorityClass".
    #[test]
    fn pod_rows_do_not_show_priority_classes() {
        let text = format!(
            "{QUOTA}\n$ kubectl get pods -n team-a\nNAME      READY   STATUS    RESTARTS   AGE\ntrain-0   1/1     Running   0          3h\n"
        );
        assert!(
            run_rule("quota-without-priority", &text).is_empty(),
            "{text}"
        );
    }

    /// A pod manifest without requests and no LimitRange given: a LimitRange may default it at
    /// admission, nothing is concluded; the same pod as stored (a phase) lacks them.
    #[test]
    fn pod_manifest_alone_says_nothing_about_limitrange_defaults() {
        let manifest = r#"{"kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"containers":[{"name":"c","image":"x"}]}}"#;
        assert!(run_rule("pod-missing-requests", manifest).is_empty());
        let stored = manifest.replace(
            r#""spec""#,
            r#""status":{"phase":"Running","qosClass":"BestEffort"},"spec""#,
        );
        assert_eq!(run_rule("pod-missing-requests", &stored).len(), 1);
    }
}
