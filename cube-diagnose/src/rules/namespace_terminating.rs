//! `namespace-terminating`: namespaces whose phase is `Terminating` (`kubectl get ns` STATUS,
//! `status.phase`).
//!
//! Upstream: a deleted namespace keeps phase `Terminating` until the namespace controller has
//! deleted every object in it and removed the `kubernetes` finalizer
//! (kubernetes/kubernetes `pkg/controller/namespace/deletion/namespaced_resources_deleter.go`);
//! it stays there when discovery of an aggregated API fails
//! (`NamespaceDeletionDiscoveryFailure`: an APIService is unavailable), when an object's
//! finalizer is never removed (`NamespaceFinalizersRemaining`: its controller is gone), or
//! when content remains (`NamespaceContentRemaining`). While it terminates, the API server
//! refuses new objects in it (`unable to create new content in namespace <ns> because it is
//! being terminated`, k8s.io/apiserver `pkg/admission/plugin/namespace/lifecycle`). kubectl
//! prints the phase in STATUS (`printNamespace`, pkg/printers/internalversion/printers.go).

use crate::rules::{obj, shell_word};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    NamespaceTerminating,
    "namespace-terminating",
    Scheduling,
    Warning,
    "A namespace is Terminating (`kubectl get ns` STATUS, `status.phase`): it was deleted and nothing new can be created in it until the namespace controller has removed all its objects; one that stays Terminating is held by an unavailable APIService (discovery fails) or by a finalizer whose controller is gone. Remedy: read the namespace's conditions (`kubectl get ns <ns> -o jsonpath='{.status.conditions}'`), fix the unavailable APIService (`kubectl get apiservice | grep False`) or remove the stuck finalizer of the object named there.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for ns in &ctx.snapshot().namespaces {
        if ns.status.phase != "Terminating" {
            continue;
        }
        let name = &ns.metadata.name;
        let word = shell_word(name);
        out.push(
            Finding::new(
                NamespaceTerminating::ID,
                Severity::Warning,
                Subject::cluster_scoped("Namespace", name),
                format!(
                    "namespace {name} is Terminating: it was deleted, the API server refuses new objects in it (`unable to create new content in namespace {name} because it is being terminated`), and it stays until the namespace controller has removed everything in it; a namespace that stays Terminating is held by an unavailable APIService (discovery fails) or by an object's finalizer whose controller is gone"
                ),
            )
            .with_evidence(Evidence::field(
                obj("Namespace", "", name),
                "status.phase",
                "Terminating",
            ))
            .with_remedy(format!(
                "`kubectl get ns {word} -o jsonpath='{{.status.conditions}}'` names what holds it: for NamespaceDeletionDiscoveryFailure fix or delete the unavailable APIService (`kubectl get apiservice | grep False`); for NamespaceFinalizersRemaining / NamespaceContentRemaining find the objects left (`kubectl api-resources --verbs=list --namespaced -o name | xargs -n1 kubectl get -n {word} --ignore-not-found --show-kind`) and restore their controller or remove their finalizers"
            )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_rule;

    #[test]
    fn terminating_namespaces_from_get_ns_and_objects() {
        let text = "$ kubectl get ns\nNAME              STATUS        AGE\ndefault           Active        3d\nteam-a            Terminating   2d\n";
        let f = run_rule("namespace-terminating", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert_eq!(f[0].subject.name, "team-a");
        let json =
            r#"{"kind":"Namespace","metadata":{"name":"ml"},"status":{"phase":"Terminating"}}"#;
        assert_eq!(run_rule("namespace-terminating", json).len(), 1);
        let healthy = "NAME              STATUS   AGE\ndefault           Active   3d\nkube-system       Active   3d\n";
        assert!(run_rule("namespace-terminating", healthy).is_empty());
    }
}
