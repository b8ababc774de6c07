//! Faults of the API server's backends seen through it: an admission webhook it cannot call
//! (`admission-webhook-unreachable`), etcd out of space (`etcd-space-exceeded`) or slow and
//! without a leader (`etcd-unhealthy`), and a CSI driver that cannot create a claim's volume
//! (`storage-provisioning-failed`). In each the API server answered: the client's connection
//! works, so none of them is `cluster-unreachable`. The texts are catalog entries
//! (`webhook.*`, `etcd.*`, `provision.*`, with their upstream files); the inner error's meaning
//! is derived by `classify::backends`.

use crate::classify::SignalKind;
use crate::rules::log_catalog::{catalog_findings, catalog_findings_of};
use crate::rules::signals;
use crate::{Context, Finding};

declare_rule!(
    AdmissionWebhookUnreachable,
    "admission-webhook-unreachable",
    Import,
    Error,
    "The API server answered but cannot call an admission webhook (`Internal error occurred: failed calling webhook \"<name>\": failed to call webhook: Post \"https://<service>.<namespace>.svc:443/...\": <error>`, or its own log `Failed calling webhook, failing open|closed ...`): the webhook's pods are not Ready or its Service has no endpoints, the control plane cannot reach the pod network (firewall, security group, private-cluster rules, CNI), a NetworkPolicy blocks it, or TLS to it fails (caBundle, expired serving certificate). With failurePolicy Fail every request the webhook matches is rejected; with Ignore requests pass without it. A webhook that answered and refused (`admission webhook \"x\" denied the request`) is cluster-forbidden, not this.",
    check_webhook
);

declare_rule!(
    AdmissionWebhookDenied,
    "admission-webhook-denied",
    Import,
    Warning,
    "An admission webhook answered and refused the request (`admission webhook \"<name>\" denied the request: <reason>`, staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go): a policy (Gatekeeper, Kyverno, a product's validating webhook) rejects the object as written; the API server and the webhook both work. Not RBAC (cluster-forbidden) and not a webhook the API server cannot call (admission-webhook-unreachable). A managed service's own webhook (GKE's `warden-validating` / `gkepolicy` common-webhooks, managed OpenShift's `*.managed.openshift.io`, Azure Policy's `azurepolicy-*` constraints) is named as the platform's policy, with the platform's way out instead of an exception request.",
    check_denied
);

declare_rule!(
    ApiServiceUnavailable,
    "apiservice-unavailable",
    Import,
    Warning,
    "The API server answered 503 for an aggregated API (an APIService such as metrics-server's v1beta1.metrics.k8s.io): `the server is currently unable to handle the request (get nodes.metrics.k8s.io)`, discovery's `couldn't get resource list for metrics.k8s.io/v1beta1` / `unable to retrieve the complete list of server APIs`, or the aggregator's `failing or missing response from ...`. The APIService's pods are not Ready, the control plane cannot reach them, or the APIService is left from an uninstalled component. Not cluster-unreachable: the API server itself works. Karmada's own aggregated APIs get Karmada's remedy: cluster.karmada.io (karmada-aggregated-apiserver; `karmadactl join` fails with `the server is currently unable to handle the request (get clusters.cluster.karmada.io ...)`, an error) and search.karmada.io (karmada-search).",
    check_apiservice
);

declare_rule!(
    EtcdSpaceExceeded,
    "etcd-space-exceeded",
    Import,
    Error,
    "etcd's backend database reached its quota and raised the NOSPACE alarm (`etcdserver: mvcc: database space exceeded`, passed on by the API server to kubectl, the kubelet and controllers; `alarm:NOSPACE` in `etcdctl alarm list`): etcd refuses every write until it is compacted, defragmented on every member and the alarm disarmed.",
    check_space
);

declare_rule!(
    EtcdUnhealthy,
    "etcd-unhealthy",
    Import,
    Warning,
    "etcd errors passed on by the API server (etcd api/v3rpc/rpctypes/error.go): requests timed out, leader changed or no leader, too many requests, request too large, corrupt cluster. `mvcc: required revision has been compacted` is routine for watches and reported as information only.",
    check_etcd
);

declare_rule!(
    ApiserverKubeletUnreachable,
    "apiserver-kubelet-unreachable",
    Import,
    Warning,
    "The API server answered but cannot connect to a backend it proxies to: a node's kubelet on port 10250 (`kubectl logs`, `exec`, `attach`, `port-forward`: `Error from server: Get \"https://<node>:10250/containerLogs/...\": dial tcp <node>:10250: i/o timeout`, `error dialing backend: dial tcp ...`, k8s.io/apimachinery pkg/util/proxy/upgradeaware.go) or an aggregated API's Service. The client's own connection works, so this is not cluster-unreachable: the path from the control plane to the nodes (firewall, security group, a wrong node InternalIP, konnectivity agents) is broken or the kubelet does not listen.",
    check_kubelet_path
);

declare_rule!(
    StorageProvisioningFailed,
    "storage-provisioning-failed",
    Storage,
    Error,
    "A PersistentVolumeClaim's volume cannot be provisioned (`failed to provision volume with StorageClass \"x\": rpc error: code = ... desc = ...` from the CSI external-provisioner or the in-tree PersistentVolume controller): the driver's inner error decides the cause (the CSI controller's cloud identity lacks permission, CreateVolume timed out, quota exhausted, topology, data source, driver down, invalid parameters), or the class does not exist, or the claim waits for an external provisioner that the input never shows working.",
    check_provisioning
);

fn check_webhook(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = catalog_findings(ctx, AdmissionWebhookUnreachable::ID);
    out.extend(webhook_timeouts(ctx, &out));
    out
}

/// The log sources a finding's evidence cites.
fn evidence_sources(f: &Finding) -> Vec<&str> {
    f.evidence
        .iter()
        .filter_map(|e| match e {
            crate::Evidence::Log { source, .. } => Some(source.as_str()),
            _ => None,
        })
        .collect()
}

/// A request timeout inside the API server in a text about admission webhooks: the webhooks'
/// timeouts are what it waited for. One finding per timeout finding; none for a text whose
/// webhook call failures are already read (`calls`: those findings carry the cause).
fn webhook_timeouts(ctx: &Context<'_>, calls: &[Finding]) -> Vec<Finding> {
    let called: Vec<&str> = calls.iter().flat_map(evidence_sources).collect();
    request_timeouts(ctx)
        .into_iter()
        .filter_map(|f| {
            let sources = evidence_sources(&f);
            if sources.iter().any(|s| called.contains(s)) {
                return None;
            }
            let c = sources.iter().find_map(|s| webhook_context(ctx, s))?;
            Some(webhook_timeout_finding(f, &c))
        })
        .collect()
}

/// The request-timeout findings of the catalog (`apiserver.request-timeout*`, concluded by
/// `etcd-unhealthy` unless the text names admission webhooks).
fn request_timeouts(ctx: &Context<'_>) -> Vec<Finding> {
    catalog_findings_of(ctx, EtcdUnhealthy::ID, |e| e.group == "apiserver-timeout")
}

/// What a text says about admission webhooks, when it names them (`webhook`, `failurePolicy`,
/// `timeoutSeconds`, `admission controller`): the words found, and whether a NetworkPolicy
/// (default deny) is named too. `None` when the text does not talk about webhooks.
fn webhook_context(ctx: &Context<'_>, source: &str) -> Option<WebhookContext> {
    let text: String = ctx
        .logs()
        .iter()
        .filter(|l| l.source == source)
        .map(|l| l.text.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("\n");
    let webhooks = [
        "webhook",
        "failurepolicy",
        "timeoutseconds",
        "admission controller",
    ]
    .iter()
    .any(|w| text.contains(w));
    if !webhooks {
        return None;
    }
    Some(WebhookContext {
        ignore: text.contains("failurepolicy: ignore")
            || text.contains("failurepolicy=ignore")
            || text.contains("failurepolicy ignore")
            || text.contains("failing open"),
        network_policy: text.contains("networkpolic")
            || text.contains("network polic")
            || text.contains("default deny")
            || text.contains("default-deny"),
    })
}

/// The facts about webhooks a text states next to a request timeout.
#[derive(Debug, Default, Clone, Copy)]
struct WebhookContext {
    /// The webhooks are said to fail open (failurePolicy Ignore).
    ignore: bool,
    /// A NetworkPolicy (default deny) is named.
    network_policy: bool,
}

/// The admission-webhook finding for a request timeout in a text about webhooks.
fn webhook_timeout_finding(f: Finding, c: &WebhookContext) -> Finding {
    let ignore = if c.ignore {
        " failurePolicy Ignore does not help here: Ignore only decides what happens after a call failed, and each unreachable webhook first waits its full timeoutSeconds;"
    } else {
        ""
    };
    let netpol = if c.network_policy {
        " The text names a NetworkPolicy (default deny): unless a policy allows ingress to the webhook pods from the control plane, every call times out."
    } else {
        ""
    };
    Finding::new(
        AdmissionWebhookUnreachable::ID,
        crate::Severity::Error,
        f.subject.clone(),
        format!(
            "the API server answered 504 Timeout (`request did not complete within requested timeout`) while admitting the request: it waited for admission webhooks it cannot reach.{ignore} the mutating webhooks are called one after the other and every validating webhook in parallel, so the timeoutSeconds of the webhooks the request matches (10s by default, at most 30s each) add up, and once their sum passes the request deadline (the API server's --request-timeout, 60s by default, or the client's shorter timeout) the whole request fails with this timeout, naming no webhook.{netpol}"
        ),
    )
    .with_evidences(f.evidence)
    .with_remedy(
        "list the webhooks with their timeouts and policies (`kubectl get mutatingwebhookconfigurations,validatingwebhookconfigurations -o custom-columns=NAME:.metadata.name,TIMEOUT:.webhooks[*].timeoutSeconds,POLICY:.webhooks[*].failurePolicy,SERVICE:.webhooks[*].clientConfig.service.name`); make each reachable from the control plane: its Service must have ready endpoints (`kubectl -n <namespace> get endpoints <service>`) and, under a default-deny NetworkPolicy, a policy must allow ingress to the webhook pods on their port (from the control plane's addresses, or from anywhere on managed clusters whose control plane has no pod IP); keep the sum of the timeoutSeconds of the webhooks one request matches below the request deadline (lower timeoutSeconds, narrow rules/namespaceSelector/objectSelector so they do not match every pod), and delete the configurations of a webhook that was uninstalled",
    )
}

fn check_denied(ctx: &Context<'_>) -> Vec<Finding> {
    let mut seen = std::collections::BTreeSet::new();
    signals(ctx, &[SignalKind::WebhookDenied])
        .filter(|s| seen.insert((crate::rules::signal_subject(s), s.detail("webhook").to_owned())))
        .map(|s| {
            let (cause, remedy) = crate::catalog::entry(s.detail("entry"))
                .map(|e| e.cause_and_remedy(s))
                .unwrap_or_else(|| {
                    (
                        "an admission webhook denied the request".to_owned(),
                        "change the object to satisfy the policy, or ask the policy owner for an exception".to_owned(),
                    )
                });
            // a managed service's own webhook (classify::platform): no exception to ask for
            let (cause, remedy) = match crate::classify::platform::PlatformPolicy::from_details(s.detail("platform"), s.detail("policy")) {
                Some(p) => {
                    let (pc, pr) = crate::classify::platform::explain(
                        &p,
                        "admit this request",
                        s.detail("namespace"),
                        s.detail("agent"),
                    );
                    (format!("{cause}; {pc}"), pr)
                }
                None => (cause, remedy),
            };
            Finding::new(
                AdmissionWebhookDenied::ID,
                crate::Severity::Warning,
                crate::rules::signal_subject(s),
                format!("{cause} (the API server and the webhook work: a policy refuses the object as written)"),
            )
            .with_evidence(s.evidence())
            .with_remedy(remedy)
        })
        .collect()
}

fn check_apiservice(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = catalog_findings(ctx, ApiServiceUnavailable::ID);
    for f in &mut out {
        if let Some(api) = karmada_api(ctx, f) {
            karmada_remedy(f, api);
        }
    }
    out
}

/// One of Karmada's aggregated APIs in its API server: the group, the APIService, the
/// component (Deployment and Service in karmada-system) that serves it, and what fails when it
/// is down (karmada-io/karmada pkg/karmadactl/cmdinit/karmada/deploy.go
/// initAggregatedAPIService: `Create Service 'karmada-aggregated-apiserver' and APIService
/// 'v1alpha1.cluster.karmada.io'`; artifacts/deploy/karmada-search-apiservice.yaml,
/// karmada-metrics-adapter-apiservice.yaml).
struct KarmadaApi {
    group: &'static str,
    apiservice: &'static str,
    component: &'static str,
    fails: &'static str,
}

static KARMADA_APIS: [KarmadaApi; 2] = [
    KarmadaApi {
        group: "search.karmada.io",
        apiservice: "v1alpha1.search.karmada.io",
        component: "karmada-search",
        fails: "the search and proxy APIs (ResourceRegistry, `karmadactl get` through the proxy) answer 503; member clusters and joins are not affected",
    },
    KarmadaApi {
        group: "cluster.karmada.io",
        apiservice: "v1alpha1.cluster.karmada.io",
        component: "karmada-aggregated-apiserver",
        fails: "every request for Cluster objects answers 503, so `karmadactl join` / `register` cannot read or create the member's Cluster object and `kubectl get clusters` fails; the member cluster and its kubeconfig are not the problem",
    },
];

/// Which of Karmada's aggregated APIs an unavailable-APIService finding is about: its evidence
/// names the group, APIService or component, or (a 503 line naming none) the same text does.
fn karmada_api(ctx: &Context<'_>, f: &Finding) -> Option<&'static KarmadaApi> {
    let texts: Vec<&str> = f
        .evidence
        .iter()
        .filter_map(|e| match e {
            crate::Evidence::Log { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let named = |t: &str| {
        KARMADA_APIS
            .iter()
            .find(|a| t.contains(a.group) || t.contains(a.component))
    };
    if let Some(a) = texts.iter().find_map(|t| named(t)) {
        return Some(a);
    }
    // a 503 that names no group (`the server is currently unable to handle the request`) in a
    // Karmada text: the group the text names elsewhere
    if texts.iter().any(|t| t.contains(".k8s.io")) {
        return None;
    }
    let sources = evidence_sources(f);
    ctx.logs()
        .iter()
        .filter(|l| sources.contains(&l.source.as_str()))
        .find_map(|l| named(&l.text))
}

/// The Karmada-specific cause and remedy: the APIService in the Karmada API server names a
/// Service karmada-system/<component> that is an ExternalName Service pointing at the
/// component's Service in the host cluster, whose Deployment must be Ready.
fn karmada_remedy(f: &mut Finding, api: &KarmadaApi) {
    let KarmadaApi {
        group,
        apiservice,
        component,
        fails,
    } = api;
    if *component == "karmada-aggregated-apiserver" {
        f.severity = crate::Severity::Error;
    }
    f.message = format!(
        "karmada: the Karmada API server cannot reach {component}, which serves the {group} API (APIService {apiservice}): {fails} (what the text shows: {})",
        f.message.trim_start_matches("client: ")
    );
    f.remedy = format!(
        "on the host cluster that runs Karmada's control plane: `kubectl -n karmada-system get deploy,pods,svc -o wide | grep {component}`: the {component} Deployment must have a Ready pod (its log names why not: etcd, certificates, or the Karmada API server it cannot reach) behind its Service; against the Karmada API server (`kubectl --kubeconfig <karmada-apiserver kubeconfig> get apiservices | grep karmada`) its APIService must be Available: False (ServiceNotFound) means the Service karmada-system/{component} inside the Karmada API server (an ExternalName Service naming {component}.karmada-system.svc of the host cluster) is missing and must be re-created, False (MissingEndpoints) that the pods are not Ready, False (FailedDiscoveryCheck) that the Karmada API server cannot reach them (the ExternalName's DNS name from the karmada-apiserver pod, a NetworkPolicy, the front-proxy CA); a join run right after `karmadactl init` or a Helm install may only have come too early: wait until the APIService is Available, then `karmadactl unjoin <member>` if the failed join left its secrets in karmada-cluster, and join again"
    );
}

fn check_space(ctx: &Context<'_>) -> Vec<Finding> {
    catalog_findings(ctx, EtcdSpaceExceeded::ID)
}

fn check_etcd(ctx: &Context<'_>) -> Vec<Finding> {
    // the NOSPACE alarm explains the other etcd errors of the same input (one cause)
    let nospace = !check_space(ctx).is_empty();
    let etcd: Vec<Finding> =
        catalog_findings_of(ctx, EtcdUnhealthy::ID, |e| e.group != "apiserver-timeout")
            .into_iter()
            .filter(|f| !nospace || f.severity == crate::Severity::Info)
            .collect();
    // a request timeout: the webhooks of a text about webhooks (admission-webhook-unreachable
    // carries it), etcd's own errors of the same text, or, alone, the backend slowness it is
    let calls = catalog_findings(ctx, AdmissionWebhookUnreachable::ID);
    let called: Vec<&str> = calls.iter().flat_map(evidence_sources).collect();
    let timeouts: Vec<Finding> = request_timeouts(ctx)
        .into_iter()
        .filter(|f| {
            let sources = evidence_sources(f);
            // the webhooks' finding carries it: calls that failed in the same text, or a text
            // about webhooks
            let webhooks = sources
                .iter()
                .any(|s| called.contains(s) || webhook_context(ctx, s).is_some());
            !nospace
                && !webhooks
                && !etcd
                    .iter()
                    .any(|e| e.subject == f.subject && e.severity > crate::Severity::Info)
        })
        .collect();
    etcd.into_iter().chain(timeouts).collect()
}

fn check_kubelet_path(ctx: &Context<'_>) -> Vec<Finding> {
    catalog_findings(ctx, ApiserverKubeletUnreachable::ID)
}

/// Whether the input shows an external provisioner working on claims (its own events, or a
/// claim's volume provisioned): then `waiting for a volume to be created` is the normal wait.
fn provisioner_active(ctx: &Context<'_>) -> bool {
    const ACTIVE: [&str; 3] = [
        "External provisioner is provisioning volume",
        "Successfully provisioned volume",
        "ProvisioningSucceeded",
    ];
    ctx.logs()
        .iter()
        .any(|l| ACTIVE.iter().any(|a| l.text.contains(a)))
        || ctx.snapshot().events.iter().any(|e| {
            ACTIVE
                .iter()
                .any(|a| e.message.contains(a) || e.reason.contains(a))
        })
}

fn check_provisioning(ctx: &Context<'_>) -> Vec<Finding> {
    // a provisioning line whose inner error is a mount (csi-driver-nfs mounts the share in its
    // controller to create the volume's directory): storage-mount-failed reads the mount error
    // with its remedies; one finding carries the cause
    let mounts: Vec<(&str, usize)> = signals(ctx, &[SignalKind::MountFailed])
        .map(|s| (s.source.as_str(), s.line))
        .collect();
    let active = provisioner_active(ctx);
    let mut findings = catalog_findings(ctx, StorageProvisioningFailed::ID);
    findings.retain(|f| {
        let waiting = f.message.contains("waits for the external provisioner");
        let on_mount_line = f.evidence.iter().any(|e| {
            matches!(e, crate::Evidence::Log { source, line, .. }
                if mounts.iter().any(|(src, l)| source == src && line == l))
        });
        !(on_mount_line || (waiting && active))
    });
    // a claim the input shows Bound: the wait is over
    let bound = |subject: &crate::Subject| {
        subject.kind == "PersistentVolumeClaim"
            && ctx.snapshot().persistent_volume_claims.iter().any(|c| {
                c.metadata.name == subject.name
                    && (subject.namespace.is_empty() || c.metadata.namespace == subject.namespace)
                    && c.status.phase == "Bound"
            })
    };
    findings.retain(|f| {
        !(f.message.contains("waits for the external provisioner") && bound(&f.subject))
    });
    // a claim with a failure of its own: the wait is its consequence
    let failed: Vec<crate::Subject> = findings
        .iter()
        .filter(|f| !f.message.contains("waits for the external provisioner"))
        .map(|f| f.subject.clone())
        .collect();
    findings.retain(|f| {
        !(f.message.contains("waits for the external provisioner") && failed.contains(&f.subject))
    });
    // Pending claims whose objects (tables, describe, YAML) show the cause
    let explained: Vec<crate::Subject> = findings.iter().map(|f| f.subject.clone()).collect();
    findings.extend(crate::rules::storage_pending::pending_claims(
        ctx,
        StorageProvisioningFailed::ID,
        &explained,
    ));
    findings
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::run_log;

    /// Karmada's aggregated APIs get Karmada's remedy, the component named: the Cluster API
    /// (a join fails: an error), karmada-search (a warning); metrics-server keeps the generic one.
    #[test]
    fn karmada_aggregated_apis_name_their_component() {
        let join = run_log(
            "apiservice-unavailable",
            "Error: failed to create cluster(member1) object. error: the server is currently unable to handle the request (get clusters.cluster.karmada.io member1)",
        );
        assert_eq!(join.len(), 1, "{join:#?}");
        assert_eq!(join[0].severity, Severity::Error);
        assert!(join[0].remedy.contains("karmada-aggregated-apiserver"));
        let operator = run_log(
            "apiservice-unavailable",
            "E0101 00:00:00.000000 1 init.go:1] waiting for karmada-aggregated-apiserver to ready timeout, err: context deadline exceeded",
        );
        assert!(operator[0].remedy.contains("APIService"), "{operator:#?}");
        let search = run_log(
            "apiservice-unavailable",
            "v1alpha1.search.karmada.io             karmada-system/karmada-search                  False (FailedDiscoveryCheck)   10d",
        );
        assert_eq!(search.len(), 1, "{search:#?}");
        assert!(
            search[0].remedy.contains("karmada-search") && search[0].severity == Severity::Warning
        );
        let metrics = run_log(
            "apiservice-unavailable",
            "E0101 00:00:00.000000 1 memcache.go:255] couldn't get resource list for metrics.k8s.io/v1beta1: the server is currently unable to handle the request",
        );
        assert!(!metrics[0].remedy.contains("karmada"), "{metrics:#?}");
    }

    #[test]
    fn webhook_timeout_is_not_an_unreachable_api_server() {
        // intel/intel-device-plugins-for-kubernetes#811 (v1.22+ wording)
        let text = "namespace/intelfpgawebhook-system created\nError from server (InternalError): error when creating \"deployments/fpga_admissionwebhook/default/\": Internal error occurred: failed calling webhook \"webhook.cert-manager.io\": failed to call webhook: Post \"https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s\": context deadline exceeded\n";
        let f = run_log("admission-webhook-unreachable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.kind, "Service");
        assert_eq!(f[0].subject.namespace, "cert-manager");
        assert_eq!(f[0].subject.name, "cert-manager-webhook");
        assert!(f[0].message.contains("webhook.cert-manager.io"));
        assert!(
            f[0].remedy
                .contains("kubectl -n cert-manager get endpoints cert-manager-webhook")
        );
        assert!(run_log("cluster-unreachable", text).is_empty());
        assert!(run_log("log-line-unrecognised", text).is_empty());
        // an x509 inside is the webhook's certificate, not the API server's
        let x509 = "Internal error occurred: failed calling webhook \"validate.nginx.ingress.kubernetes.io\": failed to call webhook: Post \"https://ingress-nginx-controller-admission.ingress-nginx.svc:443/networking/v1/ingresses?timeout=10s\": x509: certificate signed by unknown authority";
        let tls = run_log("cluster-tls-untrusted", x509);
        assert_eq!(tls.len(), 1, "{tls:#?}");
        assert!(tls[0].message.contains("admission-webhook-unreachable"));
        assert!(!tls[0].remedy.contains("kubeconfig"), "{}", tls[0].remedy);
        assert!(
            run_log("admission-webhook-unreachable", x509)[0]
                .message
                .contains("caBundle")
        );
        // failing open: the request passed without the webhook
        let open = run_log(
            "admission-webhook-unreachable",
            "W0718 11:24:23.417416       1 dispatcher.go:170] Failed calling webhook, failing open webhook-server-svc.devops.svc: failed calling webhook \"webhook-server-svc.devops.svc\": Post \"https://webhook-server-svc.devops.svc:8080/mutating?timeout=10s\": x509: certificate signed by unknown authority",
        );
        assert_eq!(open[0].severity, Severity::Warning);
        // a denial is the webhook's answer, not this rule
        let denied = "Error from server (Forbidden): admission webhook \"validation.gatekeeper.sh\" denied the request: [must-have-owner] you must provide labels: {\"owner\"}";
        assert!(run_log("admission-webhook-unreachable", denied).is_empty());
        let d = run_log("admission-webhook-denied", denied);
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("validation.gatekeeper.sh"));
        let silent = run_log(
            "admission-webhook-denied",
            "Error from server: admission webhook \"policy.example.com\" denied the request without explanation",
        );
        assert!(silent[0].message.contains("gave no reason"), "{silent:#?}");
    }

    #[test]
    fn request_timeouts_are_answers_of_the_api_server() {
        // every wording of the API server's 504 (finisher.go v1.23+, rest.go before, the
        // webhook dispatchers / etcd3 store, filters/timeout.go, a 504 without a Status body,
        // NewServerTimeout, the server's own log)
        for line in [
            "Error from server (Timeout): Timeout: request did not complete within requested timeout - context deadline exceeded",
            "Error updating KubeFedConfig \"kube-federation-system/kubefed\": Timeout: request did not complete within requested timeout 30s",
            "Error from server (Timeout): error when creating \"deployment.yaml\": Timeout: request did not complete within requested timeout",
            "Error from server (Timeout): Timeout: request did not complete within 1m0s",
            "E0101 00:00:00.000000 1 reflector.go:1] Failed to watch *v1.Service: the server was unable to return a response in the time allotted, but may still be processing the request (get services)",
            "Error from server (ServerTimeout): The POST operation against pods could not be completed at this time, please try again.",
            "E1017 10:00:00.000000 1 writers.go:122] apiserver was unable to write a JSON response: http: Handler timeout",
        ] {
            let f = run_log("etcd-unhealthy", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert_eq!(f[0].severity, Severity::Warning);
            assert!(
                f[0].message.contains("not a connection problem")
                    || f[0].message.contains("server is up"),
                "{f:#?}"
            );
            assert!(f[0].remedy.contains("timeoutSeconds") && f[0].remedy.contains("etcdctl"));
            assert!(run_log("cluster-unreachable", line).is_empty(), "{line}");
            assert!(
                run_log("admission-webhook-unreachable", line).is_empty(),
                "{line}"
            );
        }
        // throttling and a quota evaluation that timed out are answers too
        for line in [
            "Error from server (TooManyRequests): the server has received too many requests and has asked us to try again later (get pods)",
            "Error from server (InternalError): Internal error occurred: resource quota evaluation timed out",
        ] {
            let f = run_log("etcd-unhealthy", line);
            assert_eq!(f.len(), 1, "{line}: {f:#?}");
            assert!(run_log("cluster-unreachable", line).is_empty(), "{line}");
            assert!(run_log("log-line-unrecognised", line).is_empty(), "{line}");
        }
        // a service-account token the kubelet could not fetch is the API server's answer
        let token = "Warning  FailedMount  44h  kubelet  MountVolume.SetUp failed for volume \"kube-api-access-sql6q\" : [failed to fetch token: the server was unable to return a response in the time allotted, but may still be processing the request (post serviceaccounts sa), failed to sync configmap cache: timed out waiting for the condition]";
        let m = run_log("storage-mount-failed", token);
        assert_eq!(m.len(), 1, "{m:#?}");
        assert_eq!(m[0].severity, Severity::Warning);
        assert!(
            m[0].message.contains("TokenRequest") && !m[0].remedy.contains("NFS"),
            "{m:#?}"
        );
        assert_eq!(run_log("etcd-unhealthy", token).len(), 1);
    }

    #[test]
    fn request_timeout_in_a_text_about_webhooks_names_their_timeouts() {
        // kubernetes/kubernetes#128162 (v1.31): four failurePolicy Ignore webhooks behind a
        // default-deny NetworkPolicy, no `failed calling webhook` text at all
        let text = "Pod admission failed with the error \"Timeout: request did not complete within requested timeout - context deadline exceeded\"\nThis occurred with an admission controller, when a default deny policy was applied and the network policy allowing ingress to the admission controller was missing, although each of the webhook configurations specifies `failurePolicy: Ignore`.\n";
        let f = run_log("admission-webhook-unreachable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Error);
        assert!(
            f[0].message.contains("timeoutSeconds")
                && f[0].message.contains("failurePolicy Ignore does not help")
        );
        assert!(f[0].message.contains("NetworkPolicy"));
        assert!(f[0].remedy.contains("webhooks[*].timeoutSeconds"));
        assert!(run_log("etcd-unhealthy", text).is_empty());
        assert!(run_log("cluster-unreachable", text).is_empty());
        // the webhook's own call failure in the same text carries the cause: one finding
        let both = "Internal error occurred: failed calling webhook \"mutate.example.com\": failed to call webhook: Post \"https://hook.example.svc:443/mutate?timeout=10s\": context deadline exceeded\nError from server (Timeout): Timeout: request did not complete within requested timeout - context deadline exceeded\n";
        let w = run_log("admission-webhook-unreachable", both);
        assert_eq!(w.len(), 1, "{w:#?}");
        assert_eq!(w[0].subject.name, "hook");
        assert!(run_log("etcd-unhealthy", both).is_empty());
        // etcd's own errors in the same text explain the timeout
        let etcd = "Error from server: etcdserver: request timed out\nError from server (Timeout): Timeout: request did not complete within requested timeout - context deadline exceeded\n";
        let e = run_log("etcd-unhealthy", etcd);
        assert_eq!(e.len(), 1, "{e:#?}");
        assert!(e[0].message.contains("etcd did not commit"));
    }

    #[test]
    fn etcd_client_port_unreachable_is_etcd() {
        for text in [
            "Error from server (InternalError): Internal error occurred: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing dial tcp 127.0.0.1:2379: connect: connection refused\"",
            "W1010 08:12:01.100000       1 clientconn.go:1331] [core] grpc: addrConn.createTransport failed to connect to {127.0.0.1:2379 127.0.0.1 <nil> 0 <nil>}. Err: connection error: desc = \"transport: Error while dialing dial tcp 127.0.0.1:2379: connect: connection refused\". Reconnecting...",
            "{\"level\":\"warn\",\"msg\":\"retrying of unary invoker failed\",\"error\":\"rpc error: code = DeadlineExceeded desc = latest balancer error: last connection error: connection error: desc = \\\"transport: Error while dialing dial tcp 10.0.0.3:2379: i/o timeout\\\"\"}",
        ] {
            let f = run_log("etcd-unhealthy", text);
            assert_eq!(f.len(), 1, "{text}: {f:#?}");
            assert_eq!(f[0].severity, Severity::Error);
            assert!(f[0].remedy.contains("crictl"));
            assert!(run_log("cluster-unreachable", text).is_empty(), "{text}");
        }
    }

    #[test]
    fn kubelet_behind_the_api_server() {
        // `kubectl logs` / `exec` through the API server: the client's connection works
        for text in [
            "Error from server: Get \"https://10.0.0.5:10250/containerLogs/default/web-0/web\": dial tcp 10.0.0.5:10250: i/o timeout",
            "Error from server: error dialing backend: dial tcp 10.0.0.6:10250: connect: connection refused",
            "Error from server: Get https://10.0.0.7:10250/containerLogs/kube-system/coredns-1/coredns: dial tcp 10.0.0.7:10250: connect: no route to host",
        ] {
            let f = run_log("apiserver-kubelet-unreachable", text);
            assert_eq!(f.len(), 1, "{text}: {f:#?}");
            assert!(f[0].remedy.contains("10250"));
            assert!(run_log("cluster-unreachable", text).is_empty(), "{text}");
        }
        // the client's own dial is still the client's
        assert!(
            run_log(
                "apiserver-kubelet-unreachable",
                "Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout"
            )
            .is_empty()
        );
        assert_eq!(
            run_log(
                "cluster-unreachable",
                "Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout"
            )
            .len(),
            1
        );
    }

    #[test]
    fn pending_claims_read_from_tables() {
        use crate::rules::testutil::run_rule;
        // epinio/epinio#1809: `kubectl get pv,pvc,sc -A` in a CI DEBUG block, EKS 1.23 gp2
        let tables = "DEBUG check pv, pvc, sc here:\n  NAMESPACE   NAME                                  STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\n  epinio      persistentvolumeclaim/epinio-binary   Pending                                      gp2            105s\n\n  NAMESPACE   NAME                                        PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\n              storageclass.storage.k8s.io/gp2 (default)   kubernetes.io/aws-ebs   Delete          WaitForFirstConsumer   false                  35m\n";
        let f = run_rule("storage-provisioning-failed", tables);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            (f[0].subject.namespace.as_str(), f[0].subject.name.as_str()),
            ("epinio", "epinio-binary")
        );
        assert!(f[0].message.contains("ebs.csi.aws.com") && f[0].message.contains("CSI migration"));
        assert!(f[0].remedy.contains("IAM") && f[0].remedy.contains("AmazonEBSCSIDriverPolicy"));
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(run_rule("storage-no-default-class", tables).is_empty());
        // every in-tree plugin of csi-translation-lib, Immediate binding: an error
        for (in_tree, driver) in [
            ("kubernetes.io/gce-pd", "pd.csi.storage.gke.io"),
            ("kubernetes.io/azure-disk", "disk.csi.azure.com"),
            ("kubernetes.io/cinder", "cinder.csi.openstack.org"),
            ("kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com"),
        ] {
            let t = format!(
                "$ kubectl get pvc\nNAME     STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\ndata-0   Pending                                      std            5m\n$ kubectl get sc\nNAME            PROVISIONER    RECLAIMPOLICY   VOLUMEBINDINGMODE   ALLOWVOLUMEEXPANSION   AGE\nstd (default)   {in_tree}   Delete          Immediate           true                   40d\n"
            );
            let f = run_rule("storage-provisioning-failed", &t);
            assert_eq!(f.len(), 1, "{in_tree}: {f:#?}");
            assert_eq!(f[0].severity, Severity::Error);
            assert!(f[0].message.contains(driver), "{f:#?}");
        }
        // the driver's controller runs: the migration is served
        let running = format!(
            "{tables}$ kubectl get pods -A\nNAMESPACE     NAME                                  READY   STATUS    RESTARTS   AGE\nkube-system   ebs-csi-controller-6d5b8b9f8c-abcde   6/6     Running   0          10m\n"
        );
        assert!(run_rule("storage-provisioning-failed", &running).is_empty());
        // Bound is healthy; a Bound claim of the class shows the provisioner works
        let bound = "NAME     STATUS    VOLUME                                     CAPACITY   ACCESS MODES   STORAGECLASS   AGE\ndata-0   Bound     pvc-0a1b2c3d-1111-2222-3333-444455556666   10Gi       RWO            gp2            3d\ndata-1   Pending                                                                        gp2            1m\n\nNAME            PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\ngp2 (default)   kubernetes.io/aws-ebs   Delete          WaitForFirstConsumer   false                  40d\n";
        assert!(run_rule("storage-provisioning-failed", bound).is_empty());
        // a claim naming a class the listing does not hold
        let missing = "NAMESPACE   NAME        STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\ndefault     data-db-0   Pending                                      standard       5m\n\nNAME            PROVISIONER          RECLAIMPOLICY   VOLUMEBINDINGMODE   ALLOWVOLUMEEXPANSION   AGE\nlocal-path (default)   rancher.io/local-path   Delete   WaitForFirstConsumer   false   40d\n";
        let m = run_rule("storage-provisioning-failed", missing);
        assert_eq!(m.len(), 1, "{m:#?}");
        assert!(m[0].message.contains("standard") && m[0].message.contains("not found"));
        // an external provisioner with no pod in a cluster-wide listing
        let nopod = "$ kubectl get pvc -n ml\nNAME     STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\nmodels   Pending                                      nfs-client     3h\n$ kubectl get sc\nNAME                   PROVISIONER                                   RECLAIMPOLICY   VOLUMEBINDINGMODE   ALLOWVOLUMEEXPANSION   AGE\nnfs-client (default)   k8s-sigs.io/nfs-subdir-external-provisioner   Delete          Immediate           true                   20d\n$ kubectl get pods -A\nNAMESPACE     NAME                       READY   STATUS    RESTARTS   AGE\nkube-system   coredns-5d78c9869d-abcde   1/1     Running   0          20d\nml            trainer-0                  0/1     Pending   0          3h\n";
        let n = run_rule("storage-provisioning-failed", nopod);
        assert_eq!(n.len(), 1, "{n:#?}");
        assert!(n[0].message.contains("runs no pod"));
        let other_name = nopod.replace("ml            trainer-0 ", "default       nfs-client-provisioner-7b9d-xk2lp   1/1     Running   0          20d\nml            trainer-0 ");
        assert!(run_rule("storage-provisioning-failed", &other_name).is_empty());
        let withpod = nopod.replace("ml            trainer-0 ", "default       nfs-subdir-external-provisioner-7b9d-xk2lp   1/1     Running   0          20d\nml            trainer-0 ");
        assert!(run_rule("storage-provisioning-failed", &withpod).is_empty());
    }

    #[test]
    fn a_claim_waiting_for_its_first_consumer_is_normal() {
        use crate::rules::testutil::run_rule;
        let text = "$ kubectl get sc\nNAME            PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\ngp2 (default)   kubernetes.io/aws-ebs   Delete          WaitForFirstConsumer   false                  40d\n$ kubectl describe pvc data-0\nName:          data-0\nNamespace:     default\nStorageClass:  gp2\nStatus:        Pending\nVolume:\nLabels:        <none>\nAnnotations:   <none>\nFinalizers:    [kubernetes.io/pvc-protection]\nCapacity:\nAccess Modes:\nVolumeMode:    Filesystem\nUsed By:       <none>\nEvents:\n  Type    Reason                Age                From                         Message\n  ----    ------                ----               ----                         -------\n  Normal  WaitForFirstConsumer  12s (x3 over 40s)  persistentvolume-controller  waiting for first consumer to be created before binding\n";
        assert!(
            run_rule("storage-provisioning-failed", text).is_empty(),
            "{:#?}",
            run_rule("storage-provisioning-failed", text)
        );
        assert!(run_rule("log-line-unrecognised", text).is_empty());
    }

    #[test]
    fn conversion_webhook_and_aggregated_apis() {
        let conv = "Error from server: conversion webhook for cert-manager.io/v1alpha2, Kind=Certificate failed: Post \"https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s\": context deadline exceeded";
        let f = run_log("admission-webhook-unreachable", conv);
        assert_eq!(f.len(), 1);
        assert!(f[0].remedy.contains("spec.conversion.webhook"));
        assert!(run_log("cluster-unreachable", conv).is_empty());
        let metrics = "E0321 10:12:30.123456   12345 memcache.go:287] couldn't get resource list for metrics.k8s.io/v1beta1: the server is currently unable to handle the request\nError from server (ServiceUnavailable): the server is currently unable to handle the request (get nodes.metrics.k8s.io)\n";
        let a = run_log("apiservice-unavailable", metrics);
        assert_eq!(a.len(), 1, "{a:#?}");
        assert!(a[0].remedy.contains("kubectl get apiservices"));
        let agg = "E0101 00:00:00.000000 1 available_controller.go:508] v1beta1.metrics.k8s.io failed with: failing or missing response from https://10.0.0.5:443/apis/metrics.k8s.io/v1beta1: Get \"https://10.0.0.5:443/apis/metrics.k8s.io/v1beta1\": dial tcp 10.0.0.5:443: i/o timeout";
        assert_eq!(run_log("apiservice-unavailable", agg).len(), 1);
        assert!(run_log("cluster-unreachable", agg).is_empty());
    }

    #[test]
    fn etcd_nospace_through_any_client() {
        // kubernetes/kops#4005: the kubelet's status manager
        let text = "kubelet[1495]: W1204 11:17:02.533588    1495 status_manager.go:446] Failed to update status for pod \"custom-pod-A\": etcdserver: mvcc: database space exceeded\n";
        let f = run_log("etcd-space-exceeded", text);
        assert_eq!(f.len(), 1);
        assert!(f[0].remedy.contains("defrag") && f[0].remedy.contains("alarm disarm"));
        assert!(run_log("cluster-unreachable", text).is_empty());
        let alarm = run_log(
            "etcd-space-exceeded",
            "memberID:8e9e05c52164694d alarm:NOSPACE\n",
        );
        assert_eq!(alarm.len(), 1);
        // a compacted revision is routine for watches
        let c = run_log(
            "etcd-unhealthy",
            "W0101 00:00:00.000000 1 reflector.go:1] watch chan error: etcdserver: mvcc: required revision has been compacted\n",
        );
        assert_eq!(c[0].severity, Severity::Info);
        // etcd's own slowness warnings are information
        let slow = run_log(
            "etcd-unhealthy",
            "2020-05-11 08:03:36.812178 W | etcdserver: read-only range request \"key:\\\"/registry/services/endpoints/kube-system/kube-scheduler\\\" \" with result \"range_response_count:1 size:587\" took too long (132.458467ms) to execute\n{\"level\":\"warn\",\"ts\":\"2022-03-17T17:23:36.482-0700\",\"caller\":\"etcdserver/util.go:166\",\"msg\":\"apply request took too long\",\"took\":\"2.9s\"}\n",
        );
        assert!(
            !slow.is_empty() && slow.iter().all(|f| f.severity == Severity::Info),
            "{slow:#?}"
        );
        let t = run_log(
            "etcd-unhealthy",
            "Error from server: etcdserver: request timed out\nError from server: etcdserver: leader changed\n",
        );
        assert_eq!(t.len(), 1, "one finding per group: {t:#?}");
        assert_eq!(t[0].severity, Severity::Warning);
        assert!(
            run_log(
                "cluster-unreachable",
                "Error from server: etcdserver: request timed out"
            )
            .is_empty()
        );
    }

    #[test]
    fn provisioning_failures_and_waits() {
        // kubernetes-sigs/aws-ebs-csi-driver#963
        let text = "Warning   ProvisioningFailed     persistentvolumeclaim/ebs-claim   failed to provision volume with StorageClass \"ebs-sc\": rpc error: code = Internal desc = Could not create volume \"pvc-xyz\": could not create volume in EC2: UnauthorizedOperation: You are not authorized to perform this operation.\n";
        let f = run_log("storage-provisioning-failed", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("ebs-sc") && f[0].remedy.contains("IAM"));
        assert!(run_log("cluster-forbidden", text).is_empty());
        // a wait with the provisioner working is normal; alone it is the missing provisioner
        let wait = "Normal  ExternalProvisioning  4s (x2 over 5s)  persistentvolume-controller  waiting for a volume to be created, either by external provisioner \"ebs.csi.aws.com\" or manually created by system administrator\n";
        let w = run_log("storage-provisioning-failed", wait);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].severity, Severity::Warning);
        let busy = format!(
            "{wait}Normal  Provisioning  5s  ebs.csi.aws.com_ebs-csi-controller-1  External provisioner is provisioning volume for claim \"default/ebs-claim\"\n"
        );
        assert!(run_log("storage-provisioning-failed", &busy).is_empty());
        let v2 = run_log(
            "storage-provisioning-failed",
            "Normal ExternalProvisioning persistentvolumeclaim/data-0 Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.\n",
        );
        assert_eq!(v2.len(), 1);
        let missing = run_log(
            "storage-provisioning-failed",
            "Warning  ProvisioningFailed  15s  Failed to provision volume with StorageClass \"fast-ssd\": storageclass.storage.k8s.io \"fast-ssd\" not found\n",
        );
        assert_eq!(missing.len(), 1);
        assert!(
            missing[0].message.contains("does not exist"),
            "{missing:#?}"
        );
        // nfs-client-provisioner on v1.20+ (old library reading selfLink)
        let selflink = run_log(
            "storage-provisioning-failed",
            "E0101 00:00:00.000000 1 controller.go:1004] provision \"default/test-claim\" class \"managed-nfs-storage\": unexpected error getting claim reference: selfLink was empty, can't make reference\n",
        );
        assert!(
            selflink[0]
                .remedy
                .contains("nfs-subdir-external-provisioner")
        );
        let aborted = run_log(
            "storage-provisioning-failed",
            "Warning ProvisioningFailed failed to provision volume with StorageClass \"rook-ceph-block\": rpc error: code = Aborted desc = an operation with the given Volume ID pvc-1 already exists\n",
        );
        assert!(aborted[0].message.contains("still running"), "{aborted:#?}");
    }
}
