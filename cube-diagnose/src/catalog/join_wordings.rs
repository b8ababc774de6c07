//! Every wording of the cluster-join and client-connection class read from the exact upstream
//! texts (each version's, each platform's) to its entry and the rule that concludes, with the
//! conclusion's key word: ServiceAccount token Secrets that Kubernetes 1.24+ no longer creates
//! (Argo CD, Karmada, Rancher), Karmada commands sent to an API server that does not serve
//! Karmada's API, platform policies refusing a request (GKE Warden, managed OpenShift, Azure
//! Policy), Argo CD's connection wordings and the Windows Winsock wordings of Go's dial
//! errors. Sources: each entry's `repo`/`file`.

use super::version_wordings::check_lines;
use crate::rules::testutil::run_log;

/// (exact text, catalog entry, rule that must fire on the line alone, a word of its finding).
const WORDINGS: &[(&str, &str, &str, &str)] = &[
    // Argo CD CLI v0.10-v2.3.6 (util/clusterauth/clusterauth.go, common/installer.go)
    (
        "FATA[0032] Failed to wait for service account secret: timed out waiting for the condition",
        "argocd.sa-secret-wait-timeout",
        "agent-registration-failed",
        "1.24",
    ),
    // Argo CD v2.4+ creates the Secret, then waits for the token controller to fill it
    (
        "FATA[0035] failed to get token for serviceaccount \"argocd-manager\": timed out waiting for the condition",
        "argocd.sa-token-not-filled",
        "agent-registration-failed",
        "--service-account-private-key-file",
    ),
    // karmadactl join v1.0-v1.2 (pkg/util/serviceaccount.go, pkg/util/secret.go)
    (
        "Error: failed to get serviceAccount secret from cluster(member2), error: failed to get serviceAccount secret, error: no specific secret found in namespace: karmada-cluster",
        "karmada.join.sa-secret-missing",
        "agent-registration-failed",
        "karmadactl / kubectl-karmada v1.3",
    ),
    (
        "Error: failed to get serviceAccount secret for impersonation from cluster(member2), error: failed to get serviceAccount secret, error: no specific secret found in namespace: karmada-cluster",
        "karmada.join.sa-secret-missing",
        "agent-registration-failed",
        "1.24",
    ),
    // karmadactl v0.x klog line (pkg/karmadactl/join.go, two spaces as printed)
    (
        "E0605 15:40:36.710384  374049 join.go:230] Failed to get service account secret from  cluster. error: no specific secret found in namespace: karmada-cluster",
        "karmada.sa-secret-missing",
        "agent-registration-failed",
        "karmada-cluster",
    ),
    (
        "Error: failed to get serviceAccount secret from cluster(member2), error: failed to get serviceAccount secret, error: timed out waiting for the condition",
        "karmada.sa-token-not-filled",
        "agent-registration-failed",
        "token controller",
    ),
    // Rancher v2.5-v2.6.6: cattle-cluster-agent, the server itself, hosted-cluster drivers
    (
        "time=\"2022-05-24T10:00:00Z\" level=fatal msg=\"looking up cattle-system/cattle ca/token: no secret exists for service account cattle-system/cattle\"",
        "rancher.agent-no-sa-secret",
        "agent-registration-failed",
        "v2.6.7",
    ),
    (
        "2022/05/04 00:20:42 [FATAL] no secret assigned to service account cattle-system/rancher",
        "rancher.server-no-sa-secret",
        "agent-registration-failed",
        "v2.6.7",
    ),
    (
        "error generating service account token: failed to fetch serviceAccountToken",
        "rancher.hosted-sa-token",
        "agent-registration-failed",
        "1.24",
    ),
    // kubefedctl join v0.1-v0.9 at -v 2 (pkg/kubefedctl/join.go)
    (
        "I0523 10:00:00.000000    4321 join.go:869] Could not get service account secret from joining cluster: timed out waiting for the condition",
        "kubefed.join.sa-secret-timeout",
        "agent-registration-failed",
        "v0.10.0",
    ),
    // Karmada's API asked of another API server: join (list, create), unjoin (delete), get,
    // and kubectl's kind mapping in both wordings (`unable to recognize` before kubectl 1.19)
    (
        "Error from server (NotFound): the server could not find the requested resource (get clusters.cluster.karmada.io)",
        "karmada.api-not-served",
        "agent-registration-failed",
        "karmada-apiserver",
    ),
    (
        "Error: failed to create cluster(member1) object. error: the server could not find the requested resource (post clusters.cluster.karmada.io)",
        "karmada.api-not-served",
        "agent-registration-failed",
        "karmada-apiserver",
    ),
    (
        "E1130 10:00:00.000000   12345 unjoin.go:174] Failed to delete cluster object. cluster name: member1, error: the server could not find the requested resource (delete clusters.cluster.karmada.io member1)",
        "karmada.api-not-served",
        "agent-registration-failed",
        "karmada-apiserver",
    ),
    (
        "error: resource mapping not found for name: \"nginx-propagation\" namespace: \"\" from \"propagationpolicy.yaml\": no matches for kind \"PropagationPolicy\" in version \"policy.karmada.io/v1alpha1\"",
        "karmada.kind-not-served",
        "agent-registration-failed",
        "karmada-apiserver",
    ),
    (
        "error: unable to recognize \"samples/nginx/propagationpolicy.yaml\": no matches for kind \"PropagationPolicy\" in version \"policy.karmada.io/v1alpha1",
        "karmada.kind-not-served",
        "agent-registration-failed",
        "karmada-apiserver",
    ),
    // platform policies: GKE Warden authz (Autopilot managed namespaces; RBAC bindings to
    // system groups since GKE 1.32)
    (
        "FATA[0008] Failed to create service account \"argocd-manager\" in namespace \"kube-system\": serviceaccounts is forbidden: User \"user@example.com\" cannot create resource \"serviceaccounts\" in API group \"\" in the namespace \"kube-system\": GKE Warden authz [denied by managed-namespaces-limitation]: the namespace \"kube-system\" is managed and the request's verb \"create\" is denied",
        "apiserver.forbidden",
        "cluster-forbidden",
        "--system-namespace",
    ),
    (
        "Error from server (Forbidden): clusterrolebindings.rbac.authorization.k8s.io \"sealed-secrets-service-proxier\" is forbidden: User \"user@example.com\" cannot create resource \"clusterrolebindings\" in API group \"rbac.authorization.k8s.io\" at the cluster scope: GKE Warden authz [denied by rbac-binding-limitation]: the subject \"system:authenticated\" is not allowed",
        "apiserver.forbidden",
        "cluster-forbidden",
        "named users, groups or ServiceAccounts",
    ),
    // GKE's and managed OpenShift's admission webhooks, Azure Policy's Gatekeeper constraints
    (
        "Error from server (Forbidden): error when creating \"deploy.yaml\": admission webhook \"warden-validating.common-webhooks.networking.gke.io\" denied the request: GKE Warden rejected the request because it violates one or more constraints. Violations details: {\"[denied by autogke-no-write-mode-hostpath]\":[\"hostPath volume var-lib in container agent is accessed in write mode; disallowed in Autopilot.\"]}",
        "apiserver.webhook-denied",
        "admission-webhook-denied",
        "autogke-no-write-mode-hostpath",
    ),
    (
        "Error from server (Forbidden): error when creating \"sa.yaml\": admission webhook \"namespace-validation.managed.openshift.io\" denied the request: Prevented from accessing Red Hat managed namespaces. Customer workloads should be placed in customer namespaces, and should not match an entry in this list of regular expressions: [^kube-.* ^openshift.*]",
        "apiserver.webhook-denied",
        "admission-webhook-denied",
        "Red Hat",
    ),
    (
        "Error from server (Forbidden): admission webhook \"validation.gatekeeper.sh\" denied the request: [azurepolicy-k8sazurev2noprivilege-1a2b3c4d5e6f] Privileged container is not allowed: agent, securityContext: {\"privileged\": true}",
        "apiserver.webhook-denied",
        "admission-webhook-denied",
        "Azure Policy",
    ),
    // Argo CD v1: argocd-server's dial cut before an answer
    (
        "FATA[0031] rpc error: code = Unknown desc = unexpected EOF",
        "argocd.rpc-unexpected-eof",
        "cluster-unreachable",
        "EOF",
    ),
    // Go on Windows (Winsock texts from FormatMessage): kubectl's default server = no
    // kubeconfig, in each spelling of the address
    (
        "Unable to connect to the server: dial tcp [::1]:8080: connectex: No connection could be made because the target machine actively refused it.",
        "go.dial-refused-windows",
        "cluster-unreachable",
        "no kubeconfig",
    ),
    (
        "Unable to connect to the server: dial tcp 127.0.0.1:8080: connectex: No connection could be made because the target machine actively refused it.",
        "go.dial-refused-windows",
        "cluster-unreachable",
        "no kubeconfig",
    ),
    (
        "Unable to connect to the server: dial tcp 10.0.0.4:6443: connectex: No connection could be made because the target machine actively refused it.",
        "go.dial-refused-windows",
        "cluster-unreachable",
        "connection refused",
    ),
    (
        "Unable to connect to the server: dial tcp 10.0.0.4:443: connectex: A connection attempt failed because the connected party did not properly respond after a period of time, or established connection failed because connected host has failed to respond.",
        "go.dial-timeout-windows",
        "cluster-unreachable",
        "timeout",
    ),
    (
        "Unable to connect to the server: read tcp 192.168.1.5:50437->10.0.0.4:443: wsarecv: An existing connection was forcibly closed by the remote host.",
        "go.connection-reset-windows",
        "cluster-unreachable",
        "EOF",
    ),
    (
        "Unable to connect to the server: write tcp 192.168.1.5:50437->10.0.0.4:443: wsasend: An existing connection was forcibly closed by the remote host.",
        "go.connection-reset-windows",
        "cluster-unreachable",
        "EOF",
    ),
    (
        "Unable to connect to the server: dial tcp 10.0.0.4:443: connectex: A socket operation was attempted to an unreachable network.",
        "go.no-route-windows",
        "cluster-unreachable",
        "no route",
    ),
];

#[test]
fn every_join_and_connection_wording_reads_to_its_entry_and_rule() {
    check_lines(WORDINGS);
}

/// A platform's refusal is never answered with an RBAC grant, and a plain RBAC refusal still
/// is (the healthy neighbour of the platform class: the cluster's own rules).
#[test]
fn platform_refusals_get_no_rbac_remedy_and_plain_rbac_keeps_it() {
    for (text, _, rule, _) in WORDINGS.iter().filter(|(t, ..)| {
        t.contains("GKE ") || t.contains("managed.openshift.io") || t.contains("azurepolicy-")
    }) {
        for f in run_log(rule, text) {
            assert!(
                !f.remedy.contains("create role") && !f.remedy.contains("create clusterrole"),
                "{text}: {}",
                f.remedy
            );
        }
    }
    let plain = "Error from server (Forbidden): serviceaccounts is forbidden: User \"jane\" cannot create resource \"serviceaccounts\" in API group \"\" in the namespace \"kube-system\"";
    let f = run_log("cluster-forbidden", plain);
    assert!(f.iter().any(|f| f.remedy.contains("create role")), "{f:#?}");
    assert!(f.iter().all(|f| !f.message.contains("platform")), "{f:#?}");
}

/// The healthy neighbours stay quiet: a successful `argocd cluster add` on 1.24+ (v2.4+
/// creates the token Secret), a successful karmadactl join, and a Windows client whose
/// connection works.
#[test]
fn successful_joins_and_windows_clients_stay_quiet() {
    let healthy = [
        "INFO[0000] ServiceAccount \"argocd-manager\" created in namespace \"kube-system\"\nINFO[0000] ClusterRole \"argocd-manager-role\" created\nINFO[0000] ClusterRoleBinding \"argocd-manager-role-binding\" created\nINFO[0005] Created bearer token secret for ServiceAccount \"argocd-manager\"\nCluster 'https://10.0.0.10:6443' added",
        "cluster(member1) is joined successfully",
    ];
    for text in healthy {
        for rule in [
            "agent-registration-failed",
            "cluster-unreachable",
            "cluster-forbidden",
        ] {
            assert!(run_log(rule, text).is_empty(), "{rule} on {text}");
        }
    }
}
