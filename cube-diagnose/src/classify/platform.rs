//! Platform policies that refuse a request whatever the cluster's own RBAC or admission setup
//! says: a managed Kubernetes service's authorizer or admission webhook, which no Role,
//! RoleBinding or policy exception of the cluster's users can lift.
//!
//! Recognised from the reason the API server passes on (the line's own text):
//! - GKE's authorizer for its platform policies appends `GKE Warden authz [denied by
//!   <policy>]: <detail>` to the Forbidden status (Autopilot: managed namespaces such as
//!   kube-system and gke-*; since GKE 1.32 also on Standard clusters: `rbac-binding-limitation`
//!   for bindings to system:anonymous / system:unauthenticated / system:authenticated);
//! - GKE's admission webhooks `warden-validating.common-webhooks.networking.gke.io` (`GKE
//!   Warden rejected the request because it violates one or more constraints`) and
//!   `gkepolicy.common-webhooks.networking.gke.io` (`GKE Policy Controller rejected the request
//!   because it violates one or more policies`), each with `[denied by <policy>]`;
//! - managed OpenShift's (OpenShift Dedicated, ROSA) validating webhooks, registered as
//!   `<name>.managed.openshift.io` (openshift/managed-cluster-validating-webhooks
//!   build/resources.go `fmt.Sprintf("%s.managed.openshift.io", hook.Name())`; reasons such
//!   as `Prevented from accessing Red Hat managed namespaces` in pkg/webhooks/namespace);
//! - Azure Policy for AKS (the Azure Policy add-on and AKS deployment safeguards), whose
//!   Gatekeeper constraints are named `azurepolicy-<name>-<hash>` in the
//!   `validation.gatekeeper.sh` refusal.

/// A platform policy found in a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformPolicy {
    /// The platform (`GKE`, `managed OpenShift`, `AKS (Azure Policy)`).
    pub platform: &'static str,
    /// The policy's name as the platform prints it (`managed-namespaces-limitation`, the
    /// webhook name, the Azure Policy constraint); empty when the text names none.
    pub policy: String,
}

impl PlatformPolicy {
    /// Rebuilt from a signal's `platform` and `policy` details (set by the classifier from
    /// [`platform_policy`]); `None` when `platform` is not one of this module's names.
    pub fn from_details(platform: &str, policy: &str) -> Option<Self> {
        let platform = ["GKE", "managed OpenShift", "AKS (Azure Policy)"]
            .into_iter()
            .find(|p| *p == platform)?;
        Some(PlatformPolicy {
            platform,
            policy: policy.to_owned(),
        })
    }
}

/// The platform policy a refusal's text names, if any.
pub fn platform_policy(l: &str) -> Option<PlatformPolicy> {
    let denied_by = || {
        l.find("[denied by ").map(|i| {
            l[i + "[denied by ".len()..]
                .chars()
                .take_while(|c| *c != ']' && !c.is_whitespace())
                .collect::<String>()
        })
    };
    if l.contains("GKE Warden")
        || l.contains("GKE Policy Controller rejected")
        || l.contains("common-webhooks.networking.gke.io")
    {
        return Some(PlatformPolicy {
            platform: "GKE",
            policy: denied_by().unwrap_or_default(),
        });
    }
    if let Some(i) = l.find(".managed.openshift.io") {
        // the webhook's own name: the word before the suffix, after the opening quote
        let name: String = l[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        return Some(PlatformPolicy {
            platform: "managed OpenShift",
            policy: format!("{name}.managed.openshift.io"),
        });
    }
    if let Some(i) = l.find("[azurepolicy-") {
        let name: String = l[i + 1..].chars().take_while(|c| *c != ']').collect();
        return Some(PlatformPolicy {
            platform: "AKS (Azure Policy)",
            policy: name,
        });
    }
    None
}

/// Cause and remedy for a request `platform` refuses. `what` says what was refused (`create
/// serviceaccounts in namespace kube-system`), `namespace` is the namespace of the request
/// (empty at the cluster scope) and `agent` the cluster-join tool the text shows.
pub fn explain(p: &PlatformPolicy, what: &str, namespace: &str, agent: &str) -> (String, String) {
    let policy = if p.policy.is_empty() {
        String::new()
    } else {
        format!(" {}", p.policy)
    };
    let cause = format!(
        "the {} platform policy{policy} refuses to {what}: a rule of the managed service itself, applied whatever the cluster's RBAC grants, so no Role, ClusterRole or binding (and no cluster-admin) can allow it; the request is not missing a permission",
        p.platform
    );
    let other_ns = match agent {
        "Argo CD" => format!(
            "register the cluster with the ServiceAccount in a namespace of your own: `kubectl create namespace argocd-system && argocd cluster add <context> --system-namespace argocd-system` (argocd-manager is created in kube-system by default){}",
            if namespace.is_empty() || namespace == "kube-system" {
                String::new()
            } else {
                format!("; here the namespace is {namespace}")
            }
        ),
        "" => format!(
            "create the objects in a namespace of your own instead of {}",
            if namespace.is_empty() {
                "the managed one"
            } else {
                namespace
            }
        ),
        a => format!(
            "configure {a} to create its objects in a namespace of your own instead of {}",
            if namespace.is_empty() {
                "the managed one"
            } else {
                namespace
            }
        ),
    };
    let remedy = match (p.platform, p.policy.as_str()) {
        ("GKE", "managed-namespaces-limitation") => format!(
            "{other_ns}; GKE manages kube-system and the gke-* namespaces (Autopilot, and GKE 1.32+ on every cluster) and refuses writes there"
        ),
        ("GKE", "rbac-binding-limitation") => "bind the role to named users, groups or ServiceAccounts instead of system:anonymous, system:unauthenticated or system:authenticated (GKE refuses bindings to those groups); a Google group works for 'all of us'".to_owned(),
        ("GKE", _) => format!(
            "change the object to what GKE allows (the policy{policy} is listed in GKE's Autopilot security documentation: host paths, privileged containers, node selectors and affinities on labels other than GKE's), or run the workload on a GKE Standard cluster; {other_ns} when the refusal is about a managed namespace"
        ),
        ("managed OpenShift", _) => format!(
            "Red Hat's SRE team owns the managed namespaces and objects (openshift-*, kube-*, default, redhat-*): {other_ns}; a change to a managed object itself needs a Red Hat support case"
        ),
        _ => format!(
            "the constraint{policy} comes from an Azure Policy assignment (AKS deployment safeguards or the Azure Policy add-on): change the object to satisfy it, or have the owner of the Azure policy exclude the namespace (`az aks safeguards update --excluded-ns <namespace>` for safeguards, an exclusion in the policy assignment otherwise)"
        ),
    };
    (cause, remedy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_platform_wording_is_recognised_and_plain_rbac_is_not() {
        let gke = "serviceaccounts is forbidden: User \"u@example.com\" cannot create resource \"serviceaccounts\" in API group \"\" in the namespace \"kube-system\": GKE Warden authz [denied by managed-namespaces-limitation]: the namespace \"kube-system\" is managed and the request's verb \"create\" is denied";
        assert_eq!(
            platform_policy(gke),
            Some(PlatformPolicy {
                platform: "GKE",
                policy: "managed-namespaces-limitation".to_owned()
            })
        );
        let gke_hook = "admission webhook \"gkepolicy.common-webhooks.networking.gke.io\" denied the request: GKE Policy Controller rejected the request because it violates one or more policies: {\"[denied by autogke-node-affinity-selector-limitation]\":[\"...\"]}";
        assert_eq!(
            platform_policy(gke_hook).map(|p| p.policy),
            Some("autogke-node-affinity-selector-limitation".to_owned())
        );
        let osd = "admission webhook \"namespace-validation.managed.openshift.io\" denied the request: Prevented from accessing Red Hat managed namespaces.";
        assert_eq!(
            platform_policy(osd).map(|p| (p.platform, p.policy)),
            Some((
                "managed OpenShift",
                "namespace-validation.managed.openshift.io".to_owned()
            ))
        );
        let aks = "admission webhook \"validation.gatekeeper.sh\" denied the request: [azurepolicy-k8sazurev2noprivilege-1a2b3c] Privileged container is not allowed: nginx";
        assert_eq!(
            platform_policy(aks).map(|p| p.policy),
            Some("azurepolicy-k8sazurev2noprivilege-1a2b3c".to_owned())
        );
        // RBAC and an ordinary Gatekeeper constraint: the cluster's own rules
        for plain in [
            "pods is forbidden: User \"jane\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"",
            "admission webhook \"validation.gatekeeper.sh\" denied the request: [must-have-owner] you must provide labels: {\"owner\"}",
        ] {
            assert_eq!(platform_policy(plain), None, "{plain}");
        }
    }

    #[test]
    fn the_remedy_never_grants_rbac() {
        let p = platform_policy("GKE Warden authz [denied by managed-namespaces-limitation]: x")
            .expect("gke");
        let (cause, remedy) = explain(
            &p,
            "create serviceaccounts in namespace kube-system",
            "kube-system",
            "Argo CD",
        );
        assert!(cause.contains("no Role"));
        assert!(remedy.contains("--system-namespace"));
        assert!(!remedy.contains("create rolebinding") && !remedy.contains("create role "));
    }
}
