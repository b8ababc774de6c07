//! A resource-group plan applied with server-side apply to the in-memory API server behind a
//! real `kube::Client` (kube's mock-service pattern), asserting the requests on the wire
//! (method, path, content type, field manager, dry run, force, order) and the handling of each
//! answer: applied, applied again (nothing changes on the server), changed (quota lowered,
//! member removed, a namespace dropped) and diffed, drift made by another manager (409 unless
//! forced), and the server's own dry-run rejections.

use crate::support;

use std::sync::Arc;

use cube_cluster::api::{APPLY_PATCH_CONTENT_TYPE, ClusterApi, ObjectRef, ResourceType};
use cube_cluster::apply::{
    Action, ApplyOptions, ApplyOutcome, DriftState, FieldChange, PlanObjects, apply_plan, diff_plan,
};
use cube_cluster::memory::{AdmissionOperation, MemoryCluster, RecordedRequest, webhook_denial};
use cube_model::ResourceGroup;
use cube_quota::plan::plan_group;
use serde_json::{Value, json};

const TIME: &str = "2026-12-01T10:00:00Z";

const GROUP: &str = r#"
name: nlp
owner: alice
members:
  - {name: alice, role: admin}
  - {name: bob, role: developer}
  - {name: carol, role: viewer}
quota:
  - name: compute
    hard:
      requests.cpu: "16"
      requests.memory: 64Gi
      requests.nvidia.com/gpu: "8"
      pods: "40"
namespaces:
  - {name: nlp-train, sharePercent: 50}
  - {name: nlp-serve, sharePercent: 50}
priority: {className: nlp-normal, value: 1000}
containerDefaults:
  defaultRequest: {cpu: 500m, memory: 1Gi}
  defaultLimit: {cpu: "2", memory: 4Gi}
"#;

fn plan_of(yaml: &str) -> PlanObjects {
    let g = ResourceGroup::from_yaml(yaml).unwrap();
    let plan = plan_group(&g, None).unwrap();
    PlanObjects::from_manifests(std::slice::from_ref(&g.name), &plan.manifests).unwrap()
}

fn cluster() -> Arc<MemoryCluster> {
    Arc::new(MemoryCluster::new().with_fixed_time(TIME))
}

fn patches(reqs: &[RecordedRequest]) -> Vec<&RecordedRequest> {
    reqs.iter().filter(|r| r.method == "PATCH").collect()
}

fn kind_of_path(path: &str) -> &str {
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    match segs.as_slice() {
        ["api", "v1", "namespaces", _] => "namespaces",
        [.., plural, _] => plural,
        _ => "",
    }
}

fn quota_ref(ns: &str) -> ObjectRef {
    ObjectRef::new(
        ResourceType::of_kind("ResourceQuota").unwrap(),
        Some(ns),
        "nlp-compute",
    )
}

fn snapshot_of(c: &MemoryCluster) -> Vec<Value> {
    let mut all = Vec::new();
    for k in [
        "Namespace",
        "PriorityClass",
        "LimitRange",
        "ResourceQuota",
        "Role",
        "RoleBinding",
    ] {
        all.extend(c.objects_of(k));
    }
    all
}

#[tokio::test]
async fn apply_then_apply_again_changes_nothing() {
    let mem = cluster();
    let client = support::memory_client(mem.clone());
    let plan = plan_of(GROUP);
    let n = plan.objects.len();
    assert_eq!(
        n,
        2 + 1 + 2 + 2 + 6 + 6,
        "2 namespaces, a PriorityClass, 2 LimitRanges, 2 quotas, 3 roles and 3 bindings per namespace"
    );

    let drift = diff_plan(&client, &plan, "cube-rs").await.unwrap();
    assert!(drift.iter().all(|d| d.state == DriftState::Missing));
    mem.clear_requests();

    let report = apply_plan(&client, &plan, &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(report.outcome, ApplyOutcome::Applied, "{report:#?}");
    assert!(report.rejections.is_empty());
    // Namespaced objects wait for their namespace before their dry run.
    assert_eq!(report.deferred.len(), n - 3);
    assert!(report.actions.iter().all(|a| a.action == Action::Created));

    let reqs = mem.requests();
    let p = patches(&reqs);
    for r in &p {
        assert_eq!(
            r.content_type.as_deref(),
            Some(APPLY_PATCH_CONTENT_TYPE),
            "{r}"
        );
        assert_eq!(r.field_manager(), Some("cube-rs"), "{r}");
        assert!(!r.force(), "{r}");
    }
    // The dry run of everything comes first; the namespaced ones answer 404 namespace not found.
    let dry: Vec<&&RecordedRequest> = p.iter().take(n).collect();
    assert!(dry.iter().all(|r| r.dry_run()));
    assert_eq!(dry.iter().filter(|r| r.code == 404).count(), n - 3);
    // Then the writes in a safe order; each deferred object is dry-run again just before.
    let writes: Vec<&str> = p
        .iter()
        .skip(n)
        .filter(|r| !r.dry_run())
        .map(|r| kind_of_path(&r.path))
        .collect();
    let mut expected = vec![
        "namespaces",
        "namespaces",
        "priorityclasses",
        "limitranges",
        "limitranges",
        "resourcequotas",
        "resourcequotas",
    ];
    expected.extend(["roles"; 6]);
    expected.extend(["rolebindings"; 6]);
    assert_eq!(writes, expected);
    let after: Vec<&RecordedRequest> = p.iter().skip(n).copied().collect();
    for (i, r) in after.iter().enumerate() {
        if !r.dry_run() && !matches!(kind_of_path(&r.path), "namespaces" | "priorityclasses") {
            let prev = after[i - 1];
            assert!(prev.dry_run() && prev.path == r.path, "{prev} before {r}");
            assert_eq!(prev.code, 201, "a create, in a dry run");
        }
    }
    // Usage read back from the quotas' status.
    let rows: Vec<String> = report
        .usage
        .iter()
        .map(|u| {
            format!(
                "{} {} gpu hard {} used {}",
                u.namespace.as_deref().unwrap_or("(total)"),
                u.quota,
                u.hard.get_or_zero("requests.nvidia.com/gpu"),
                u.used
                    .as_ref()
                    .map(|x| x.get_or_zero("requests.nvidia.com/gpu").to_string())
                    .unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            "nlp-train nlp-compute gpu hard 4 used 0",
            "nlp-serve nlp-compute gpu hard 4 used 0",
            "(total) nlp-compute gpu hard 8 used 0"
        ]
    );

    // Applying the same plan again changes nothing on the server.
    let before = snapshot_of(&mem);
    mem.clear_requests();
    let again = apply_plan(&client, &plan, &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(again.outcome, ApplyOutcome::Applied);
    assert!(again.in_sync(), "{:#?}", again.drift);
    assert!(again.deferred.is_empty());
    assert_eq!(again.actions.len(), n);
    assert!(
        again.actions.iter().all(|a| a.action == Action::Unchanged),
        "{:#?}",
        again.actions
    );
    assert_eq!(
        snapshot_of(&mem),
        before,
        "objects, resourceVersions and managed fields unchanged"
    );
    let p2 = mem.requests();
    assert_eq!(
        patches(&p2).len(),
        2 * n,
        "one dry run and one apply per object"
    );
    assert!(p2.iter().all(|r| r.method != "DELETE"));
}

#[tokio::test]
async fn a_changed_plan_lowers_first_removes_a_member_and_prunes_only_when_asked() {
    let mem = cluster();
    let client = support::memory_client(mem.clone());
    apply_plan(&client, &plan_of(GROUP), &ApplyOptions::default())
        .await
        .unwrap();

    // v2: GPUs lowered (8 -> 4), cpu raised (16 -> 32), carol (the only viewer) removed.
    let v2 = GROUP
        .replace(
            "requests.nvidia.com/gpu: \"8\"",
            "requests.nvidia.com/gpu: \"4\"",
        )
        .replace("requests.cpu: \"16\"", "requests.cpu: \"32\"")
        .replace("  - {name: carol, role: viewer}\n", "");
    let plan2 = plan_of(&v2);
    let drift = diff_plan(&client, &plan2, "cube-rs").await.unwrap();
    let quota = drift
        .iter()
        .find(|d| d.object == "ResourceQuota/nlp-train/nlp-compute")
        .unwrap();
    assert_eq!(quota.state, DriftState::Drifted);
    let lines: Vec<String> = quota.fields.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "~ .spec.hard.requests.cpu: 8 -> 16",
            "~ .spec.hard.requests.nvidia.com/gpu: 4 -> 2"
        ]
    );
    let orphans: Vec<&str> = drift
        .iter()
        .filter(|d| d.state == DriftState::Orphaned)
        .map(|d| d.object.as_str())
        .collect();
    assert_eq!(
        orphans,
        [
            "Role/nlp-serve/nlp-viewer",
            "Role/nlp-train/nlp-viewer",
            "RoleBinding/nlp-serve/nlp-viewer",
            "RoleBinding/nlp-train/nlp-viewer"
        ]
    );
    assert!(
        drift
            .iter()
            .filter(|d| d.object.starts_with("LimitRange/") || d.object.starts_with("Namespace/"))
            .all(|d| d.state == DriftState::InSync)
    );

    // Without prune the orphans stay, with a warning.
    mem.clear_requests();
    let r = apply_plan(&client, &plan2, &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied);
    assert_eq!(
        r.warnings
            .iter()
            .filter(|w| w.ends_with("kept (prune deletes it)"))
            .count(),
        4
    );
    // Each quota: first lowered (gpu to 2, cpu kept at 8), the raise only after every lowering.
    let writes: Vec<RecordedRequest> = mem
        .requests()
        .into_iter()
        .filter(|q| q.method == "PATCH" && !q.dry_run() && q.path.contains("resourcequotas"))
        .collect();
    let hards: Vec<(String, String, String)> = writes
        .iter()
        .map(|w| {
            let b = w.body.as_ref().unwrap();
            (
                b["metadata"]["namespace"].as_str().unwrap().to_owned(),
                b["spec"]["hard"]["requests.cpu"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                b["spec"]["hard"]["requests.nvidia.com/gpu"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            )
        })
        .collect();
    let t = |a: &str, b: &str, c: &str| (a.to_owned(), b.to_owned(), c.to_owned());
    assert_eq!(
        hards,
        [
            t("nlp-train", "8", "2"),
            t("nlp-serve", "8", "2"),
            t("nlp-train", "16", "2"),
            t("nlp-serve", "16", "2")
        ]
    );
    let quota_actions: Vec<Action> = r
        .actions
        .iter()
        .filter(|a| a.object.starts_with("ResourceQuota/"))
        .map(|a| a.action)
        .collect();
    assert_eq!(
        quota_actions,
        [
            Action::Lowered,
            Action::Lowered,
            Action::Configured,
            Action::Configured
        ]
    );
    let bob = mem
        .object(&ObjectRef::new(
            ResourceType::of_kind("RoleBinding").unwrap(),
            Some("nlp-train"),
            "nlp-viewer",
        ))
        .expect("not pruned without prune");
    assert_eq!(bob["subjects"][0]["name"], "carol");

    // With prune: dry-run deletes, then bindings before roles; namespaces never deleted.
    mem.clear_requests();
    let r = apply_plan(
        &client,
        &plan2,
        &ApplyOptions {
            prune: true,
            ..ApplyOptions::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied);
    let deletes: Vec<String> = mem
        .requests()
        .into_iter()
        .filter(|q| q.method == "DELETE")
        .map(|q| format!("{}{}", if q.dry_run() { "dry " } else { "" }, q.path))
        .collect();
    assert_eq!(
        deletes,
        [
            "dry /apis/rbac.authorization.k8s.io/v1/namespaces/nlp-serve/roles/nlp-viewer",
            "dry /apis/rbac.authorization.k8s.io/v1/namespaces/nlp-train/roles/nlp-viewer",
            "dry /apis/rbac.authorization.k8s.io/v1/namespaces/nlp-serve/rolebindings/nlp-viewer",
            "dry /apis/rbac.authorization.k8s.io/v1/namespaces/nlp-train/rolebindings/nlp-viewer",
            "/apis/rbac.authorization.k8s.io/v1/namespaces/nlp-serve/rolebindings/nlp-viewer",
            "/apis/rbac.authorization.k8s.io/v1/namespaces/nlp-train/rolebindings/nlp-viewer",
            "/apis/rbac.authorization.k8s.io/v1/namespaces/nlp-serve/roles/nlp-viewer",
            "/apis/rbac.authorization.k8s.io/v1/namespaces/nlp-train/roles/nlp-viewer",
        ]
    );
    assert!(mem.objects_of("RoleBinding").len() == 4);

    // v3 drops a namespace: its objects are pruned, the namespace itself is kept.
    let v3 = v2.replace("  - {name: nlp-serve, sharePercent: 50}\n", "");
    let r = apply_plan(
        &client,
        &plan_of(&v3),
        &ApplyOptions {
            prune: true,
            ..ApplyOptions::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied);
    assert!(
        r.warnings.iter().any(|w| w
            == "Namespace/nlp-serve is no longer planned: kept (namespaces are never deleted)"),
        "{:?}",
        r.warnings
    );
    assert_eq!(mem.objects_of("Namespace").len(), 2);
    assert!(mem.object(&quota_ref("nlp-serve")).is_none());
}

#[tokio::test]
async fn drift_by_another_manager_conflicts_unless_forced() {
    let mem = cluster();
    let api: Arc<dyn ClusterApi> = mem.clone();
    let plan = plan_of(GROUP);
    apply_plan(&*api, &plan, &ApplyOptions::default())
        .await
        .unwrap();
    assert!(mem.edit_as("kubectl-edit", &quota_ref("nlp-train"), |q| {
        q["spec"]["hard"]["requests.nvidia.com/gpu"] = json!("6");
    }));

    let drift = diff_plan(&*api, &plan, "cube-rs").await.unwrap();
    let d = drift
        .iter()
        .find(|d| d.object == "ResourceQuota/nlp-train/nlp-compute")
        .unwrap();
    assert_eq!(d.fields.len(), 1);
    assert_eq!(d.fields[0].change, FieldChange::Changed);
    assert_eq!(
        d.fields[0].to_string(),
        format!(
            "~ .spec.hard.requests.nvidia.com/gpu: 6 -> 4 (owned by \"kubectl-edit\" using v1 at {TIME}: the apply conflicts unless forced)"
        )
    );

    mem.clear_requests();
    let r = apply_plan(&*api, &plan, &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::DryRunRejected);
    assert_eq!(r.rejections.len(), 1);
    let rej = &r.rejections[0];
    assert_eq!(
        (rej.code, rej.reason.as_str(), rej.dry_run),
        (409, "Conflict", true)
    );
    assert_eq!(
        rej.message,
        format!(
            "Apply failed with 1 conflict: conflict with \"kubectl-edit\" using v1 at {TIME}: .spec.hard.requests.nvidia.com/gpu"
        )
    );
    assert_eq!(
        rej.causes,
        [format!(
            ".spec.hard.requests.nvidia.com/gpu: conflict with \"kubectl-edit\" using v1 at {TIME}"
        )]
    );
    assert!(
        mem.requests()
            .iter()
            .all(|q| q.method != "PATCH" || q.dry_run()),
        "nothing written after a rejected dry run"
    );

    mem.clear_requests();
    let r = apply_plan(
        &*api,
        &plan,
        &ApplyOptions {
            force_conflicts: true,
            ..ApplyOptions::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied);
    assert!(
        mem.requests()
            .iter()
            .filter(|q| q.method == "PATCH")
            .all(|q| q.force())
    );
    let q = mem.object(&quota_ref("nlp-train")).unwrap();
    assert_eq!(q["spec"]["hard"]["requests.nvidia.com/gpu"], "4");
    let managers: Vec<&str> = q["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["manager"].as_str().unwrap())
        .collect();
    assert_eq!(
        managers,
        ["cube-rs"],
        "the forced field left kubectl-edit's set"
    );
}

#[tokio::test]
async fn the_servers_dry_run_rejections_are_findings() {
    // An immutable field: a PriorityClass value change is refused by validation.
    let mem = cluster();
    let client = support::memory_client(mem.clone());
    apply_plan(&client, &plan_of(GROUP), &ApplyOptions::default())
        .await
        .unwrap();
    mem.clear_requests();
    let r = apply_plan(
        &client,
        &plan_of(&GROUP.replace("value: 1000", "value: 2000")),
        &ApplyOptions::default(),
    )
    .await
    .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::DryRunRejected);
    assert_eq!(r.rejections.len(), 1);
    assert_eq!(r.rejections[0].object, "PriorityClass/nlp-normal");
    assert_eq!(r.rejections[0].code, 422);
    assert_eq!(
        r.rejections[0].message,
        "PriorityClass.scheduling.k8s.io \"nlp-normal\" is invalid: value: Forbidden: may not be changed in an update."
    );
    assert!(
        mem.requests()
            .iter()
            .all(|q| q.method != "PATCH" || q.dry_run())
    );

    // A validating webhook denying LimitRanges: refused at the dry run, before any write of it.
    let mem = Arc::new(
        MemoryCluster::new()
            .with_fixed_time(TIME)
            .admit_with(|req| {
                (req.target.resource.kind == "LimitRange"
                    && req.operation == AdmissionOperation::Create)
                    .then(|| {
                        webhook_denial(
                            "limits.policy.example.com",
                            "LimitRanges are managed by the platform team",
                        )
                    })
            }),
    );
    let client = support::memory_client(mem.clone());
    // Namespaces exist already (created by someone else), so every dry run can run up front.
    for ns in ["nlp-train", "nlp-serve"] {
        mem.insert(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}))
            .unwrap();
    }
    let r = apply_plan(&client, &plan_of(GROUP), &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::DryRunRejected);
    assert!(r.deferred.is_empty());
    let msgs: Vec<String> = r.rejections.iter().map(ToString::to_string).collect();
    assert_eq!(
        msgs,
        [
            "LimitRange/nlp-train/nlp-defaults: dry run refused 400 (): admission webhook \"limits.policy.example.com\" denied the request: LimitRanges are managed by the platform team",
            "LimitRange/nlp-serve/nlp-defaults: dry run refused 400 (): admission webhook \"limits.policy.example.com\" denied the request: LimitRanges are managed by the platform team"
        ]
    );
    assert!(
        mem.objects_of("ResourceQuota").is_empty(),
        "nothing written"
    );
    assert!(
        mem.requests()
            .iter()
            .all(|q| q.method != "PATCH" || q.dry_run())
    );
}

/// Live (writes to the cluster, so also needs `CUBE_E2E_ALLOW_WRITE=1`): a throw-away group
/// `cube-e2e-<pid>` applied, applied again (nothing changes: same resourceVersions), changed
/// (quota lowered, member removed, pruned), a PriorityClass value change refused by the real
/// server's validation in the dry run; then its namespaces and PriorityClass are deleted.
#[tokio::test]
#[ignore = "needs cluster"]
async fn live_apply_reapply_change_and_dry_run_rejection() {
    if std::env::var("CUBE_E2E_ALLOW_WRITE").ok().as_deref() != Some("1") {
        return;
    }
    let Some(client) = support::live::live_client() else {
        return;
    };
    let name = format!("cube-e2e-{}", std::process::id());
    let yaml = GROUP
        .replace("name: nlp\n", &format!("name: {name}\n"))
        .replace("nlp-train", &format!("{name}-a"))
        .replace("nlp-serve", &format!("{name}-b"))
        .replace("nlp-normal", &format!("{name}-normal"));
    let plan = plan_of(&yaml);
    let first = apply_plan(&client, &plan, &ApplyOptions::default())
        .await
        .unwrap();
    let cleanup = || async {
        for o in &plan.objects {
            if matches!(o["kind"].as_str(), Some("Namespace" | "PriorityClass")) {
                let r = ObjectRef::of(o).unwrap();
                let _ = cube_cluster::api::ObjectApplier::delete_object(&client, &r, false).await;
            }
        }
    };
    if first.outcome != ApplyOutcome::Applied {
        cleanup().await;
        panic!("{first:#?}");
    }
    let again = apply_plan(&client, &plan, &ApplyOptions::default())
        .await
        .unwrap();
    let unchanged = again.in_sync() && again.actions.iter().all(|a| a.action == Action::Unchanged);
    let v2 = yaml
        .replace(
            "requests.nvidia.com/gpu: \"8\"",
            "requests.nvidia.com/gpu: \"4\"",
        )
        .replace("  - {name: carol, role: viewer}\n", "");
    let changed = apply_plan(
        &client,
        &plan_of(&v2),
        &ApplyOptions {
            prune: true,
            ..ApplyOptions::default()
        },
    )
    .await
    .unwrap();
    let rejected = apply_plan(
        &client,
        &plan_of(&v2.replace("value: 1000", "value: 2000")),
        &ApplyOptions::default(),
    )
    .await
    .unwrap();
    cleanup().await;
    assert!(unchanged, "{:#?}", again);
    assert_eq!(changed.outcome, ApplyOutcome::Applied, "{changed:#?}");
    assert!(changed.actions.iter().any(|a| a.action == Action::Deleted));
    assert_eq!(
        rejected.outcome,
        ApplyOutcome::DryRunRejected,
        "{rejected:#?}"
    );
    assert_eq!(rejected.rejections[0].code, 422);
    assert!(
        rejected.rejections[0]
            .message
            .ends_with("value: Forbidden: may not be changed in an update."),
        "{:?}",
        rejected.rejections[0]
    );
}

/// H29: a namespace is never without the LimitRange or quota the plan keeps, not even for a
/// moment. A replaced quota (bucket renamed) is created before the old one is deleted; when a
/// namespace leaves the group, its quota goes before its LimitRange (the LimitRange's defaults
/// are what let pods pass the quota's "must specify" rule); a LimitRange kept by the plan is
/// never deleted.
#[tokio::test]
async fn prune_never_leaves_a_kept_namespace_without_limits_or_quota() {
    let mem = cluster();
    let client = support::memory_client(mem.clone());
    let r = apply_plan(&client, &plan_of(GROUP), &ApplyOptions::default())
        .await
        .unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied);
    let prune = ApplyOptions {
        prune: true,
        ..ApplyOptions::default()
    };
    // (order of the real writes: PATCH = apply, DELETE = prune; dry runs left out)
    let writes = |mem: &MemoryCluster| -> Vec<String> {
        mem.requests()
            .into_iter()
            .filter(|q| !q.dry_run() && matches!(q.method.as_str(), "PATCH" | "DELETE"))
            .map(|q| format!("{} {}", q.method, q.path))
            .collect()
    };
    let at = |w: &[String], s: &str| -> usize {
        w.iter()
            .position(|x| x == s)
            .unwrap_or_else(|| panic!("{s} not in {w:#?}"))
    };

    // the bucket renamed: the new quota exists before the old one goes
    mem.clear_requests();
    let v2 = GROUP.replace("  - name: compute\n", "  - name: gpu\n");
    let r = apply_plan(&client, &plan_of(&v2), &prune).await.unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied, "{r:#?}");
    let w = writes(&mem);
    for ns in ["nlp-train", "nlp-serve"] {
        let created = at(
            &w,
            &format!("PATCH /api/v1/namespaces/{ns}/resourcequotas/nlp-gpu"),
        );
        let deleted = at(
            &w,
            &format!("DELETE /api/v1/namespaces/{ns}/resourcequotas/nlp-compute"),
        );
        assert!(created < deleted, "{w:#?}");
        // the LimitRange the plan keeps is applied, never deleted
        assert!(!w.contains(&format!(
            "DELETE /api/v1/namespaces/{ns}/limitranges/nlp-defaults"
        )));
    }

    // a namespace leaves the group: its quota is deleted before its LimitRange
    mem.clear_requests();
    let v3 = v2.replace("  - {name: nlp-serve, sharePercent: 50}\n", "");
    let r = apply_plan(&client, &plan_of(&v3), &prune).await.unwrap();
    assert_eq!(r.outcome, ApplyOutcome::Applied, "{r:#?}");
    let w = writes(&mem);
    let quota = at(
        &w,
        "DELETE /api/v1/namespaces/nlp-serve/resourcequotas/nlp-gpu",
    );
    let limits = at(
        &w,
        "DELETE /api/v1/namespaces/nlp-serve/limitranges/nlp-defaults",
    );
    assert!(quota < limits, "{w:#?}");
    // every delete comes after every apply
    let last_patch = w.iter().rposition(|x| x.starts_with("PATCH ")).unwrap_or(0);
    let first_delete = w
        .iter()
        .position(|x| x.starts_with("DELETE "))
        .unwrap_or(usize::MAX);
    assert!(last_patch < first_delete, "{w:#?}");
}
