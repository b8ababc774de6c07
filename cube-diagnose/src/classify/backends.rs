//! What the API server's backends say through it: an admission webhook it cannot call
//! (`failed calling webhook "x": ...`) and a CSI driver that cannot create a volume (`failed to
//! provision volume with StorageClass "x": ...`). Both lines wrap an inner error (a Go dial or
//! TLS error, a gRPC status, a cloud API's refusal) that says why; the catalog entry gives the
//! frame and this module derives the details its cause and remedy are filled with:
//!
//! - webhooks (`webhook.*` entries): `target` (the host the API server called, from `Post
//!   "https://<svc>.<ns>.svc:443/<path>"` with or without quotes), `webhook_service` and
//!   `webhook_namespace` (from a `.svc` host, `no endpoints available for service "x"` or
//!   `service "x" not found`), `why` and `fix`;
//! - provisioning (`provision.failed*` entries): `code` (the gRPC code), `why` and `fix`.

use std::collections::BTreeMap;

use crate::catalog::Match;

/// Fills the details of a `webhook.*` or `provision.*` match; other matches are left alone.
pub(crate) fn refine(m: &Match, d: &mut BTreeMap<String, String>) {
    let id = m.entry.id;
    if id == "webhook.conversion-failed" {
        webhook(m.value("gvk"), m.value("error"), true, d);
    } else if id.starts_with("webhook.") {
        webhook(m.value("webhook"), m.value("error"), false, d);
    } else if matches!(
        id,
        "provision.failed" | "provision.failed-intree" | "provision.createvolume-failed"
    ) {
        provisioning(m.value("error"), d);
    }
}

/// The host (and port) of the URL the API server posted to: `Post "https://h:443/p?x": ...`
/// (Go 1.14+ quotes it in url.Error) or `Post https://h:443/p: ...` (before).
pub(crate) fn posted_host(error: &str) -> Option<String> {
    let at = error.find("Post ")? + "Post ".len();
    let url = error[at..]
        .trim_start_matches(['"', '\\', ' '])
        .split(['"', '\\', ' '])
        .next()?
        .trim_end_matches(':');
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?']).next()?;
    (!host.is_empty()).then(|| host.to_owned())
}

/// `name` and `namespace` of a Service DNS name (`name.ns.svc[:port]`,
/// `name.ns.svc.cluster.local[:port]`).
fn service_of_host(host: &str) -> Option<(String, String)> {
    let h = host.rsplit_once(':').map_or(host, |(h, p)| {
        if p.chars().all(|c| c.is_ascii_digit()) {
            h
        } else {
            host
        }
    });
    let labels: Vec<&str> = h.split('.').collect();
    let svc = labels.iter().position(|l| *l == "svc")?;
    (svc == 2).then(|| (labels[0].to_owned(), labels[1].to_owned()))
}

/// The quoted name after `marker` (`no endpoints available for service "x"`).
fn quoted_after(text: &str, marker: &str) -> Option<String> {
    let at = text.find(marker)? + marker.len();
    let rest = text[at..].trim_start_matches('\\').strip_prefix('"')?;
    let name: String = rest
        .chars()
        .take_while(|c| *c != '"' && *c != '\\')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Commands that show the webhook's Service and pods.
fn service_commands(ns: &str, svc: &str) -> String {
    if ns.is_empty() || svc.is_empty() {
        "find the webhook's Service in its configuration (`kubectl get mutatingwebhookconfigurations,validatingwebhookconfigurations -o yaml`, field clientConfig.service), then check its pods and endpoints (`kubectl -n <namespace> get pods,endpoints`)".to_owned()
    } else {
        let ns = crate::rules::shell_word(ns);
        let svc = crate::rules::shell_word(svc);
        format!(
            "check the webhook's pods and the Service's endpoints: `kubectl -n {ns} get endpoints {svc}` must list a ready address and `kubectl -n {ns} get pods` the webhook pod Running and Ready"
        )
    }
}

/// The webhook details: target, Service, and cause and remedy from the inner error.
fn webhook(name: &str, error: &str, conversion: bool, d: &mut BTreeMap<String, String>) {
    let host = posted_host(error);
    let (mut svc, mut ns) = host
        .as_deref()
        .and_then(service_of_host)
        .unwrap_or_default();
    for marker in ["no endpoints available for service ", "services "] {
        if let Some(s) = quoted_after(error, marker) {
            match s.split_once('/') {
                Some((n, s)) => {
                    ns = n.to_owned();
                    svc = s.to_owned();
                }
                None => svc = s,
            }
        }
    }
    if let Some(s) = quoted_after(error, "service ")
        && error.contains("not found")
    {
        svc = s;
    }
    let target = match (&host, svc.is_empty(), ns.is_empty()) {
        (Some(h), _, _) => h.clone(),
        (None, false, false) => format!("Service {ns}/{svc}"),
        (None, false, true) => format!("Service {svc}"),
        _ => "its Service".to_owned(),
    };
    if !svc.is_empty() {
        d.insert("webhook_service".to_owned(), svc.clone());
    }
    if !ns.is_empty() {
        d.insert("webhook_namespace".to_owned(), ns.clone());
    }
    d.insert("target".to_owned(), target.clone());
    // TLS from the API server to the webhook: cluster-tls-untrusted points to this finding
    if error.contains("x509: ") || error.contains("tls: ") {
        d.insert("tls".to_owned(), "true".to_owned());
    }
    let check = service_commands(&ns, &svc);
    let config = if conversion {
        format!(
            "the CustomResourceDefinition of {name} names the webhook's Service in spec.conversion.webhook.clientConfig (`kubectl get crd -o yaml`)"
        )
    } else {
        format!(
            "the configuration holding the webhook {name} is listed by `kubectl get mutatingwebhookconfigurations,validatingwebhookconfigurations` (its failurePolicy and timeoutSeconds decide whether requests fail or pass without it)"
        )
    };
    let e = error;
    // (`no endpoints available` alone: the message cut or wrapped before the Service's name)
    let (why, fix) = if e.contains("no endpoints available") {
        (
            "the webhook's Service has no ready endpoints: its pods are not running or not Ready (an install that registered the webhook before its Deployment was up, a crash loop, a pod that cannot be scheduled)".to_owned(),
            format!("{check}; start or fix the webhook's Deployment (its pods' events and logs say why they are not Ready); if the webhook was uninstalled, delete its left-over configuration: {config}"),
        )
    } else if e.contains("not found") && e.contains("service") {
        (
            "the Service named in the webhook's configuration does not exist: the webhook was uninstalled (or its namespace deleted) and its MutatingWebhookConfiguration or ValidatingWebhookConfiguration was left behind, so every request it matches fails".to_owned(),
            format!("reinstall the webhook, or delete its left-over configuration: {config}"),
        )
    } else if e.contains("x509: certificate signed by unknown authority")
        || e.contains("certificate signed by unknown authority")
    {
        (
            "TLS to the webhook fails: its serving certificate is not signed by the caBundle of the webhook configuration (the CA was not injected yet, or the certificate was re-issued and the caBundle is stale: cert-manager's cainjector, the chart's certificate job)".to_owned(),
            format!("compare the configuration's clientConfig.caBundle with the CA of the webhook's serving certificate Secret; let the injector update it (cert-manager: the cert-manager-cainjector pod must run) or re-run the chart's certificate job, then retry; {config}"),
        )
    } else if e.contains("x509: certificate is valid for") {
        (
            format!(
                "TLS to the webhook fails: its serving certificate does not name the host the API server calls ({target})"
            ),
            format!(
                "re-issue the webhook's serving certificate with the Service's DNS names (<service>.<namespace>.svc and <service>.<namespace>.svc.cluster.local) and restart the webhook pod; {config}"
            ),
        )
    } else if e.contains("x509: certificate has expired") {
        (
            "TLS to the webhook fails: its serving certificate has expired (or the clocks of the control plane and the certificate's issuer disagree)".to_owned(),
            format!("renew the webhook's serving certificate (cert-manager renews its own when its controller runs; otherwise the chart's certificate job or a re-install) and restart the webhook pod; {config}"),
        )
    } else if e.contains("connection refused") {
        (
            "the webhook's pod address answers but nothing listens on the Service's targetPort (the webhook is starting or crashed, or targetPort is wrong)".to_owned(),
            format!("{check}; compare the Service's targetPort with the port the webhook container listens on; {config}"),
        )
    } else if e.contains("no such host") || e.contains("lookup ") {
        (
            "the API server cannot resolve the webhook's host name: a webhook configured by url (not service) with a name only the cluster's DNS knows, or an HTTP proxy in the API server's environment resolving it".to_owned(),
            format!("configure the webhook by clientConfig.service (the API server then resolves the Service itself), or use a name the control plane's resolver knows; with HTTPS_PROXY set for kube-apiserver add .svc,.cluster.local and the service CIDR to its NO_PROXY; {config}"),
        )
    } else if e.contains("Service Unavailable")
        || e.contains("proxyconnect")
        || e.contains("Bad Gateway")
        || e.contains("Proxy Authentication Required")
    {
        (
            "the call to the webhook went through an HTTP proxy (HTTPS_PROXY in kube-apiserver's environment), which cannot reach cluster Services".to_owned(),
            format!("add .svc,.cluster.local, the service CIDR and the pod CIDR to NO_PROXY of kube-apiserver (its static pod manifest or systemd unit) and restart it; {config}"),
        )
    } else if e.contains("received invalid webhook response")
        || e.contains("AdmissionReview")
        || e.contains("expected response.uid")
    {
        (
            "the webhook answered, but with a response the API server cannot use (an admissionReviewVersions it does not speak, or a response without the request's uid)".to_owned(),
            format!("set the configuration's admissionReviewVersions to versions the webhook serves (upgrade the webhook if it only knows v1beta1); {config}"),
        )
    } else if e.contains("EOF") || e.contains("connection reset by peer") {
        (
            "the webhook closed the connection before answering (TLS it does not accept, a handler that crashes on the request, or a proxy or mesh sidecar in front of it)".to_owned(),
            format!("{check}; read the webhook pod's log at the time of the request; {config}"),
        )
    } else if e.contains("context deadline exceeded")
        || e.contains("Client.Timeout exceeded")
        || e.contains("i/o timeout")
        || e.contains("timeout awaiting response headers")
        || e.contains("request canceled")
        || e.contains("no route to host")
        || e.contains("network is unreachable")
        || e.contains("deadline")
    {
        (
            "no answer within the webhook's timeout: the API server's packets to the webhook pod are dropped, or the webhook hangs. The API server itself answered (the error is its own InternalError), so this is not the client's connection: the control plane cannot reach the pod network (a firewall or security group between the control-plane nodes and the pods: GKE private clusters allow only ports 443 and 10250 from the control plane, EKS/AKS security groups, a CNI route or overlay port missing on a control-plane node, a hostNetwork webhook blocked by the host firewall), a NetworkPolicy denies ingress to the webhook pod, or the webhook pod is not Ready".to_owned(),
            format!("{check}; then open the path from the control plane to the webhook pod on its container port (firewall or security-group rule from the control plane to the pod CIDR, e.g. a GKE private cluster firewall rule for the webhook's port; a NetworkPolicy allowing ingress to the webhook pod; on k3s/kubeadm a working CNI on the server node); with HTTPS_PROXY set for kube-apiserver add .svc and the service CIDR to NO_PROXY; {config}"),
        )
    } else {
        (
            format!("the call failed: {}", error.trim()),
            format!("{check}; {config}"),
        )
    };
    d.insert("why".to_owned(), why);
    d.insert("fix".to_owned(), fix);
}

/// The member a `karmada join <name>` / `karmadactl join <name>` command names.
fn karmada_joined_member(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words
            .windows(2)
            .position(|w| (w[0] == "karmada" || w[0].ends_with("karmadactl")) && w[1] == "join")?;
        words[at + 2..]
            .iter()
            .find(|w| !w.starts_with('-'))
            .map(|w| w.trim_matches(['`', '"', '\'']).to_owned())
            .filter(|w| !w.is_empty())
    })
}

/// A report in prose (any language) that Karmada's controllers get `Unauthorized` from a member
/// joined with `karmada join <name>` (karmada-io/karmada#3771: `controller manager报Unauthorized`
/// next to the join command): the member's API server rejects the credentials Karmada stored at
/// join. One [`SignalKind::Unauthorized`](super::SignalKind::Unauthorized) about
/// `Cluster/<name>` (detail `karmada_member`) for the first such line that no catalog entry
/// read already (`signals`).
pub(crate) fn karmada_unauthorized_prose(
    source: &str,
    text: &str,
    signals: &[super::Signal],
) -> Option<super::Signal> {
    let member = karmada_joined_member(text)?;
    if signals
        .iter()
        .any(|s| s.kind == super::SignalKind::Unauthorized)
    {
        return None;
    }
    let (i, line) = text.lines().enumerate().find(|(_, l)| {
        l.match_indices("Unauthorized").any(|(p, w)| {
            let before = l[..p].chars().next_back();
            let after = l[p + w.len()..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric())
                && !after.is_some_and(|c| c.is_ascii_alphanumeric())
        })
    })?;
    let mut details = BTreeMap::new();
    details.insert("karmada_member".to_owned(), member.clone());
    Some(super::Signal {
        kind: super::SignalKind::Unauthorized,
        source: source.to_owned(),
        line: i + 1,
        text: crate::finding::redact(line.trim()),
        join: false,
        object: Some(crate::Subject::cluster(&member)),
        details,
    })
}

/// The gRPC code of `rpc error: code = X desc = ...`.
fn grpc_code(error: &str) -> Option<&str> {
    let at = error.find("code = ")? + "code = ".len();
    error[at..].split_whitespace().next()
}

/// The provisioning details: gRPC code, cause and remedy from the driver's inner error.
fn provisioning(error: &str, d: &mut BTreeMap<String, String>) {
    let code = grpc_code(error).unwrap_or_default().to_owned();
    if !code.is_empty() {
        d.insert("code".to_owned(), code.clone());
    }
    let e = error;
    let lower = e.to_ascii_lowercase();
    let inner = e.trim();
    let (why, fix): (String, String) = if e.contains("UnauthorizedOperation")
        || e.contains("AccessDenied")
        || e.contains("not authorized to perform")
        || e.contains("AuthorizationFailed")
        || e.contains("PERMISSION_DENIED")
        || code == "PermissionDenied"
        || lower.contains("permission denied")
        || (lower.contains("required '") && lower.contains("permission"))
        || e.contains("status code: 403")
        || e.contains("Error 403")
        || e.contains("WebIdentityErr")
        || e.contains("NoCredentialProviders")
    {
        (
            format!("the CSI driver's controller asked the cloud to create the volume and the cloud refused it for lack of permission ({inner}): the controller's cloud identity (IAM role, workload identity, managed identity) lacks the volume permissions"),
            "give the CSI controller's identity the driver's policy, then restart the controller pods: EKS: the ebs-csi-controller-sa ServiceAccount's IAM role (IRSA annotation eks.amazonaws.com/role-arn, or an EKS Pod Identity association) with the AmazonEBSCSIDriverPolicy (ec2:CreateVolume, ec2:CreateTags, ec2:AttachVolume, ...; for encrypted volumes also the KMS key's kms:CreateGrant) - `kubectl -n kube-system get sa ebs-csi-controller-sa -o yaml` shows the role, `aws sts decode-authorization-message` decodes the refusal; GKE: the node or workload-identity service account needs compute.disks.create; AKS: the cluster's managed identity needs Contributor on the node resource group; then `kubectl -n kube-system rollout restart deployment ebs-csi-controller` (or the driver's controller)".to_owned(),
        )
    } else if code == "DeadlineExceeded" || e.contains("context deadline exceeded") {
        (
            "the CSI driver's controller did not answer CreateVolume within the csi-provisioner's --timeout: the driver is slow or stuck, its cloud or storage API is throttled or unreachable from the controller pod; the provisioner retries with backoff".to_owned(),
            "read the driver's controller log (`kubectl logs <controller pod> -c csi-provisioner` and the driver container) for the call that hangs; check the storage backend is reachable from the controller pod and not throttling; a backend that needs longer may need a larger --timeout on the csi-provisioner sidecar".to_owned(),
        )
    } else if code == "ResourceExhausted"
        || lower.contains("quota")
        || e.contains("VolumeLimitExceeded")
        || e.contains("LimitExceeded")
        || lower.contains("insufficient capacity")
        || lower.contains("no space left")
    {
        (
            format!("the storage backend has no room for the volume: a quota or capacity limit is reached ({inner})"),
            "raise the cloud or storage quota named in the error (volumes, total size, IOPS) or free capacity, or request a smaller volume; then the provisioner's retry succeeds".to_owned(),
        )
    } else if lower.contains("topology") || lower.contains("accessibility") {
        (
            format!("the provisioner could not work out where the volume may live ({inner}): the node chosen for the pod (WaitForFirstConsumer) has no topology labels of this driver because its node plugin is not registered there, or the class's allowedTopologies names zones no node is in"),
            "`kubectl get csinode <node> -o yaml` must list the driver with its topologyKeys on the pod's node (run the driver's node DaemonSet there); compare the StorageClass's allowedTopologies with the nodes' topology labels".to_owned(),
        )
    } else if lower.contains("datasource")
        || lower.contains("data source")
        || lower.contains("snapshot")
    {
        (
            format!("the claim's dataSource (a VolumeSnapshot or a claim to clone) cannot be used ({inner})"),
            "check the claim's dataSource exists in the claim's namespace and is ready (`kubectl get volumesnapshot`, readyToUse true), that the snapshot CRDs and snapshot controller are installed, and that the driver supports the restore or clone".to_owned(),
        )
    } else if code == "Aborted" || e.contains("already exists") && e.contains("operation") {
        (
            format!("an earlier CreateVolume for this claim is still running in the driver ({inner}): the storage backend is slow or hung (for Ceph: the cluster is not healthy, placement groups not active)"),
            "check the storage backend's health first (Ceph: `ceph status` from the rook-ceph-tools pod); then the driver's controller log for the call that never finishes; the provisioner retries once the earlier call ends".to_owned(),
        )
    } else if e.contains("no volume plugin matched") {
        (
            "no in-tree volume plugin serves the StorageClass's provisioner, and no external provisioner of that name is installed".to_owned(),
            "`kubectl get storageclass <class> -o yaml` shows the provisioner: install the CSI driver or external provisioner of that name, or use a class whose provisioner runs in the cluster".to_owned(),
        )
    } else if code == "Unavailable"
        || e.contains("connection refused")
        || e.contains("transport is closing")
        || e.contains("connection error")
    {
        (
            format!("the csi-provisioner sidecar cannot reach the CSI driver's controller on its socket ({inner}): the driver container is down or restarting"),
            "`kubectl get pods -A | grep -i csi` and the logs of the driver's controller pod (all its containers) show why the driver does not serve its socket; fix it and the provisioner retries".to_owned(),
        )
    } else if code == "InvalidArgument"
        || lower.contains("invalid parameter")
        || e.contains("InvalidParameter")
    {
        (
            format!("the driver rejects the volume request as invalid ({inner}): a StorageClass parameter, the size or the access mode is not one the driver accepts"),
            "compare the StorageClass's parameters and the claim's size and accessModes with the driver's documentation; a StorageClass cannot be edited: create a corrected one and re-create the claim with it".to_owned(),
        )
    } else if e.contains("storageclass.storage.k8s.io") && e.contains("not found") {
        (
            "the StorageClass does not exist".to_owned(),
            "list the classes (`kubectl get storageclass`) and re-create the claim with an existing class, or create the class".to_owned(),
        )
    } else {
        (
            format!("the driver's CreateVolume failed: {inner}"),
            "read the CSI driver's controller log (`kubectl logs <controller pod> -c csi-provisioner` and the driver container) and fix what the error names; the provisioner retries the claim".to_owned(),
        )
    };
    d.insert("why".to_owned(), why);
    d.insert("fix".to_owned(), fix);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details(line: &str, id: &str) -> BTreeMap<String, String> {
        let matches = crate::catalog::match_line(line);
        let m = matches
            .iter()
            .find(|m| m.entry.id == id)
            .unwrap_or_else(|| {
                panic!(
                    "{id} not in {:?}",
                    matches.iter().map(|m| m.entry.id).collect::<Vec<_>>()
                )
            });
        let mut d = BTreeMap::new();
        refine(m, &mut d);
        d
    }

    #[test]
    fn webhook_service_and_cause_from_every_inner_error() {
        // v1.22+ wording (intel/intel-device-plugins-for-kubernetes#811)
        let d = details(
            "Error from server (InternalError): error when creating \"x/\": Internal error occurred: failed calling webhook \"webhook.cert-manager.io\": failed to call webhook: Post \"https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s\": context deadline exceeded",
            "webhook.call-failed",
        );
        assert_eq!(d["webhook_service"], "cert-manager-webhook");
        assert_eq!(d["webhook_namespace"], "cert-manager");
        assert_eq!(d["target"], "cert-manager-webhook.cert-manager.svc:443");
        assert!(d["why"].contains("pod network"), "{}", d["why"]);
        // v1.17 wording, unquoted URL
        let d = details(
            "Internal error occurred: failed calling webhook \"webhook.cert-manager.io\": Post https://cert-manager-webhook.kube-system.svc:443/mutate?timeout=30s: context deadline exceeded",
            "webhook.call-failed",
        );
        assert_eq!(d["target"], "cert-manager-webhook.kube-system.svc:443");
        assert_eq!(d["webhook_namespace"], "kube-system");
        for (inner, word) in [
            (
                "Post \"https://w.ns.svc:443/m?timeout=10s\": dial tcp 10.96.1.2:443: connect: connection refused",
                "targetPort",
            ),
            (
                "Post \"https://w.ns.svc:443/m?timeout=10s\": no endpoints available for service \"w\"",
                "no ready endpoints",
            ),
            (
                "Post \"https://w.ns.svc:443/m?timeout=10s\": service \"w\" not found",
                "left behind",
            ),
            (
                "Post \"https://w.ns.svc:443/m?timeout=10s\": x509: certificate signed by unknown authority",
                "caBundle",
            ),
            (
                "Post \"https://w.ns.svc:443/m?timeout=10s\": x509: certificate has expired or is not yet valid: current time 2024-01-01T00:00:00Z is after 2023-12-01T00:00:00Z",
                "expired",
            ),
            (
                "Post \"https://w.ns.svc:443/m?timeout=10s\": x509: certificate is valid for a.b, not w.ns.svc",
                "does not name",
            ),
            (
                "Post \"https://w.ns.svc:443/m?timeout=10s\": EOF",
                "closed the connection",
            ),
            ("Post https://w.ns.svc:443/m: Service Unavailable", "proxy"),
        ] {
            let d = details(
                &format!(
                    "failed calling webhook \"w.example.com\": failed to call webhook: {inner}"
                ),
                "webhook.call-failed",
            );
            assert!(d["why"].contains(word), "{inner}: {}", d["why"]);
            assert_eq!(d["webhook_service"], "w", "{inner}");
        }
        // the API server's own log line (failurePolicy Ignore), and the v1.9-v1.10 wording
        let d = details(
            "W1127 13:26:10.911971    3402 dispatcher.go:142] Failed calling webhook, failing open kube-audit-rest.kube-audit-rest.svc.cluster.local: failed calling webhook \"kube-audit-rest.kube-audit-rest.svc.cluster.local\": failed to call webhook: Post \"https://kube-audit-rest.kube-audit-rest.svc:443/log-request?timeout=1s\": x509: certificate signed by unknown authority",
            "webhook.failing-open",
        );
        assert!(d["why"].contains("caBundle"));
        let d = details(
            "W0227 21:51:03.156818       1 admission.go:257] Failed calling webhook, failing open sidecar-injector.istio.io: failed calling admission webhook \"sidecar-injector.istio.io\": Post https://istio-sidecar-injector.istio-system.svc:443/inject: Service Unavailable",
            "webhook.failing-open",
        );
        assert_eq!(d["webhook_service"], "istio-sidecar-injector");
        assert!(d["fix"].contains("NO_PROXY"));
    }

    #[test]
    fn karmada_member_unauthorized_in_prose() {
        // karmada-io/karmada#3771
        let t = "现象是join集群后，member集群的状态一直是False，controller manager报Unauthorized\n```shell\nkubectl karmada join dev --kubeconfig=/etc/karmada/karmada-apiserver.config --cluster-kubeconfig=path/member.config\n```\n";
        let s = karmada_unauthorized_prose("x", t, &[]).expect("signal");
        assert_eq!(s.detail("karmada_member"), "dev");
        assert_eq!(s.line, 1);
        assert!(
            karmada_unauthorized_prose("x", "UnauthorizedOperation\nkarmada join dev", &[])
                .is_none()
        );
        assert!(karmada_unauthorized_prose("x", "controller报Unauthorized", &[]).is_none());
    }

    #[test]
    fn provisioning_inner_errors_classified() {
        for (inner, word) in [
            (
                "rpc error: code = Internal desc = Could not create volume \"pvc-1\": could not create volume in EC2: UnauthorizedOperation: You are not authorized to perform this operation.",
                "IAM",
            ),
            (
                "rpc error: code = DeadlineExceeded desc = context deadline exceeded",
                "--timeout",
            ),
            (
                "rpc error: code = ResourceExhausted desc = quota exceeded",
                "quota",
            ),
            (
                "error generating accessibility requirements: no topology key found on CSINode node-01",
                "csinode",
            ),
            (
                "error getting handle for DataSource Type VolumeSnapshot by Name snap-1: snapshot snap-1 not bound",
                "dataSource",
            ),
            (
                "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing dial unix /csi/csi.sock: connect: connection refused\"",
                "socket",
            ),
        ] {
            let d = details(
                &format!("failed to provision volume with StorageClass \"sc\": {inner}"),
                "provision.failed",
            );
            assert!(
                d["why"].contains(word) || d["fix"].contains(word),
                "{inner}: {d:?}"
            );
        }
    }
}
