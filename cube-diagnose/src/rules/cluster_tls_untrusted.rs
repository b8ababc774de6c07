//! `cluster-tls-untrusted`: the API server's certificate is not trusted, not valid for the name,
//! or outside its validity window.

use cube_model::import::ConnectionClass;

use crate::classify::SignalKind;
use crate::rules::{signal_error, signal_subject, signals};
use crate::{Context, Evidence, Finding, Rule, Severity, Subject};

declare_rule!(
    ClusterTlsUntrusted,
    "cluster-tls-untrusted",
    Import,
    Error,
    "TLS to the API server fails: certificate signed by an unknown authority (wrong or missing CA in the kubeconfig, or a proxy presenting its own certificate), certificate not valid for the server name (tls-server-name or address not in the SANs), or expired / not yet valid (check clocks first). Reported from import reports and client texts.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let what = match r.connection.class {
            ConnectionClass::TlsUntrusted => "certificate signed by an unknown authority",
            ConnectionClass::TlsNameMismatch => "certificate not valid for the server name",
            ConnectionClass::TlsExpired => {
                "certificate expired or not yet valid (check the clocks of client and control plane before renewing)"
            }
            _ => continue,
        };
        out.push(
            Finding::new(ClusterTlsUntrusted::ID, Severity::Error, Subject::cluster(&r.cluster_name), format!("cluster {} at {}: {what}", r.cluster_name, r.server))
                .with_evidence(Evidence::field(format!("Cluster/{}", r.cluster_name), "connection.message", &r.connection.message))
                .with_remedy("put the cluster's CA in certificate-authority-data (`kubectl config view --raw`), use a server name in the certificate's SANs, and check clocks"),
        );
    }
    // TLS from the API server to an admission webhook (`failed calling webhook "x": ... x509:
    // ...`): the webhook's certificate or caBundle, never the client's; the cause and remedy
    // are admission-webhook-unreachable's, this finding points to it
    let mut webhooks = std::collections::BTreeSet::new();
    for s in signals(ctx, &[SignalKind::Known])
        .filter(|s| s.detail("entry").starts_with("webhook.") && s.detail("tls") == "true")
    {
        if !webhooks.insert((s.source.clone(), s.detail("webhook").to_owned())) {
            continue;
        }
        out.push(signal_error(
            ClusterTlsUntrusted::ID,
            signal_subject(s),
            s,
            format!(
                "TLS fails between the API server and the admission webhook {} ({}), not between the client and the API server: {} (the cause and remedy are in the admission-webhook-unreachable finding)",
                s.detail("webhook"),
                s.detail("target"),
                s.detail("why")
            ),
            s.detail("fix"),
        ));
    }
    let kinds = [
        SignalKind::TlsUntrusted,
        SignalKind::TlsNameMismatch,
        SignalKind::TlsExpired,
    ];
    // clock skew anywhere in the input is the root cause of validity-window failures
    let clock_skew = !crate::rules::node_clock_skew::NodeClockSkew
        .check(ctx)
        .is_empty();
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &kinds).filter(|s| !(s.join && s.kind == SignalKind::TlsNameMismatch)) {
        if !seen.insert((s.source.clone(), s.kind, s.line)) {
            continue;
        }
        let (msg, remedy) = match s.kind {
            SignalKind::TlsUntrusted if candidate_authority(&s.text).is_some() => {
                let name = candidate_authority(&s.text).unwrap_or_default();
                (
                    format!("the client's CA is named {name:?} like the API server's issuer but is another key (`crypto/rsa: verification error` / ECDSA verification failure against candidate authority {name:?}): the cluster's CA was regenerated (`kubeadm reset` + `kubeadm init`, or a rebuilt cluster of the same name) and this kubeconfig is from the previous cluster"),
                    "copy the new cluster's admin kubeconfig: `mkdir -p $HOME/.kube && sudo cp /etc/kubernetes/admin.conf $HOME/.kube/config && sudo chown $(id -u):$(id -g) $HOME/.kube/config` (on other machines replace the kubeconfig with the new one); nodes joined before the rebuild must be reset and joined again".to_owned(),
                )
            }
            // a k3s/rke2 agent validating its server's certificate with the CA the server
            // itself served on /cacerts (k3s-io/k3s pkg/clientaccess/token.go getCACerts: the
            // bundle is fetched without verification, then the same URL is fetched again
            // trusting only that bundle, `CA cert validation failed`): the certificate
            // presented is not the k3s server's, so something between terminates TLS
            SignalKind::TlsUntrusted
                if s.text.contains("CA cert validation failed") || s.text.contains("/cacerts") =>
            {
                let lb = crate::rules::join_ca_hash_mismatch::external_load_balancer(ctx, &s.source);
                (
                    format!(
                        "the k3s/rke2 agent got the cluster CA from its server URL's /cacerts, but the certificate that same address presents is not signed by it: something between the agent and the k3s/rke2 server terminates TLS with its own certificate{}: a load balancer in HTTP/TLS mode (HAProxy `mode http`, nginx `proxy_pass https://`, a cloud application load balancer, an ingress) or an intercepting proxy; k3s serves its own certificates and authenticates agents with client certificates, which a terminating proxy cannot pass on",
                        lb.map(|h| format!(" (the text shows {h} in front of the server)")).unwrap_or_default()
                    ),
                    "make the load balancer pass TLS through to the servers (TCP / layer 4: HAProxy `mode tcp`, nginx `stream {}` instead of `http {}`, an NLB with TCP listeners) on 6443 (and the supervisor port 9345 for rke2), add its name or address to every server's `tls-san` (/etc/rancher/k3s/config.yaml, then restart the servers), or point the agent's `server:` at a server directly; check with `curl -vk https://<server-url>/cacerts` that the presented certificate's issuer is `k3s-server-ca@...` (rke2: `rke2-server-ca@...`)".to_owned(),
                )
            }
            // a proxy shown in the client's path (classify::proxy): a TLS-intercepting proxy
            // presents its own certificate for every host
            SignalKind::TlsUntrusted
                if !s.detail("proxy").is_empty() && s.detail("proxy_weak") != "true" =>
            {
                (
                    format!(
                        "the certificate the client gets is signed by an authority it does not trust, and its requests go through a proxy ({}): a TLS-intercepting proxy presents its own certificate instead of the API server's",
                        s.detail("proxy")
                    ),
                    "exempt the API server from the proxy where the client runs (add its host to NO_PROXY/no_proxy: `export NO_PROXY=$NO_PROXY,<api-server-host>`); if the traffic must go through it, check the certificate it presents (`curl -v <server>/version` shows the issuer) and never replace the cluster's CA with the proxy's in the kubeconfig".to_owned(),
                )
            }
            // a certificate without the SANs Go needs, or with the wrong key usage: the
            // catalog entry (crypto/x509 verify.go) names which
            _ if matches!(
                s.detail("entry"),
                "go.x509-no-ip-sans" | "go.x509-no-names" | "go.x509-legacy-cn" | "go.x509-key-usage"
            ) =>
            {
                crate::catalog::entry(s.detail("entry")).map_or_else(
                    || (String::new(), String::new()),
                    |e| e.cause_and_remedy(s),
                )
            }
            // `argocd cluster add`: argocd-server's own check of the member (classify::join_agent)
            SignalKind::TlsUntrusted if s.detail("dialer") == "argocd-server" => {
                let m = s.detail("member");
                let m = if m.is_empty() { "the cluster" } else { m };
                (
                    format!("the TLS check that fails is the Argo CD API's check of the cluster (argocd-server, or with `--core` the CLI's in-process server), not the CLI's kubeconfig connection: `argocd cluster add` sent it the server address and CA of the kubeconfig context for {m}, and from where it runs the certificate that address presents is not signed by that CA: the context trusts the server without a CA of its own (insecure-skip-tls-verify, or a CA in the CLI machine's system store that the Argo CD pods lack), or a proxy or load balancer between Argo CD and {m} presents its own certificate"),
                    format!("give the kubeconfig context of {m} the CA that issued the API server's certificate as certificate-authority-data (`kubectl config view --raw --minify --flatten --context <context>` shows what is sent), check from the Argo CD cluster what certificate the address presents (`kubectl -n argocd run tls-check --rm -it --restart=Never --image=curlimages/curl -- curl -v https://<api-server>/version`), then add it again: `argocd cluster add <context> --name {m} --upsert`"),
                )
            }
            SignalKind::TlsUntrusted => ("the API server certificate is signed by an authority the client does not trust".to_owned(), "use the cluster's CA (`certificate-authority-data`); behind a proxy (Rancher /k8s/clusters/) use the proxy's CA".to_owned()),
            SignalKind::TlsNameMismatch => (format!("the API server certificate is valid for {} but the client used {}", s.detail("valid_for"), s.detail("wanted")), "connect with a name in the SANs (or set tls-server-name), or re-issue the serving certificate with the name".to_owned()),
            // an admission plugin of the API server reading objects through its own loopback
            // client: the API server's in-memory loopback certificate, not the client's
            SignalKind::TlsExpired
                if s.detail("relation") != "before" && loopback_admission(&s.text).is_some() =>
            {
                let resource = loopback_admission(&s.text).unwrap_or_default();
                (
                    format!("the API server rejected the request because its own admission step could not read {resource} from itself: the x509 error is inside the API server's answer (`... is forbidden: Get \"https://.../{resource}\": x509: ...`), on the loopback connection kube-apiserver makes to itself, whose self-signed certificate it generates in memory at start with a validity of one year (k8s.io/apiserver pkg/server/options/serving_with_loopback.go, client-go util/cert GenerateSelfSignedCertKey); the process has run longer than that. The client's kubeconfig and the certificate files on disk are not involved"),
                    "restart kube-apiserver on every control-plane node so it generates a new loopback certificate (kubeadm static pod: `sudo mv /etc/kubernetes/manifests/kube-apiserver.yaml /tmp/ && sleep 20 && sudo mv /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/`; a systemd service: `sudo systemctl restart kube-apiserver`); renewing certificate files does not replace it; later Kubernetes releases give the loopback certificate a longer validity, so upgrade, or restart the API server at least once a year".to_owned(),
                )
            }
            // karmada-apiserver's own certificate expired, seen by karmada-agent or another
            // Karmada component (classify::join_agent)
            SignalKind::TlsExpired
                if s.detail("karmada_apiserver") == "true"
                    && s.detail("relation") != "before"
                    && !clock_skew =>
            {
                (
                    "the certificate karmada-apiserver presents has expired: the Karmada control plane's certificates are issued once at install (`karmadactl init --cert-validity-period`, 365 days by default) and no Karmada component renews them, so karmada-agent and the other components stop reaching karmada-apiserver; the member clusters and the user's kubeconfig are not the cause".to_owned(),
                    "check the dates first (`openssl s_client -connect <karmada-apiserver>:5443 </dev/null | openssl x509 -noout -dates`, and that the clocks agree); then issue new control-plane certificates from the Karmada CA (the `karmada-cert` Secret in karmada-system of the host cluster, /etc/karmada/pki for `karmadactl init`; karmada-operator re-issues them from its Karmada resource), update that Secret, restart karmada-apiserver and the Karmada components, and refresh the karmada-apiserver kubeconfig of the agents if it embeds the certificate".to_owned(),
                )
            }
            _ if s.detail("relation") == "before" || clock_skew => {
                // one root cause: the clock, reported by node-clock-skew; renewing certificates
                // would not help (and a certificate issued by a skewed clock is wrong too)
                let mut f = signal_error(
                    ClusterTlsUntrusted::ID,
                    signal_subject(s),
                    s,
                    if s.detail("relation") == "before" {
                        "the certificate is not yet valid at the client's current time: the client's clock is behind; the root cause is the clock skew reported by node-clock-skew, not the certificate"
                    } else {
                        "the certificate is outside its validity window while the input shows clock skew: the root cause is the clock reported by node-clock-skew; check it before touching certificates"
                    },
                    "fix the clock first (see the node-clock-skew finding: `timedatectl set-ntp true` and `chronyc makestep` on the skewed host); do not renew or re-issue certificates for this, they are valid once the clocks agree",
                );
                f.severity = Severity::Warning;
                out.push(f);
                continue;
            }
            // no times in the text and no clock evidence: two candidates, neither asserted
            // (fresh-user report F32; Go's crypto/x509 CertificateInvalidError prints
            // `x509: certificate has expired or is not yet valid` alone before Go 1.11 and when
            // the message is cut)
            _ if s.detail("relation").is_empty() => (
                format!(
                    "the certificate {}is outside its validity window and the input shows neither its dates nor the clocks, so two causes remain: the certificate has expired (kubeadm's certificates last a year from kubeadm init or the last renewal), or the clock of the client or the control plane is off",
                    if s.detail("kubeadm") == "true" { "the joining node got from the control plane " } else { "" }
                ),
                "tell them apart first: `date -u` on this machine and on a control-plane node (clocks that disagree: enable time sync, `timedatectl set-ntp true; chronyc makestep`, and retry); `sudo kubeadm certs check-expiration` on a control-plane node or `openssl s_client -connect <host:6443> </dev/null | openssl x509 -noout -dates` (an expired certificate while the clocks agree: `sudo kubeadm certs renew all` on the control plane, then restart the control-plane components)".to_owned(),
            ),
            _ => ("the certificate has expired or is not yet valid (check both clocks before renewing)".to_owned(), "compare clocks (`date -u` on client and control plane); only if they agree, check NotBefore/NotAfter (`openssl s_client -connect <host:6443> | openssl x509 -noout -dates`) and renew an expired certificate (`kubeadm certs renew all` on the control plane)".to_owned()),
        };
        out.push(signal_error(
            ClusterTlsUntrusted::ID,
            signal_subject(s),
            s,
            msg,
            remedy,
        ));
    }
    // the same error repeated by a retry loop is one finding with its count
    crate::rules::merge_repeats(out)
}

/// The resource an admission plugin of the API server read through its loopback client when
/// TLS failed: an admission rejection (`pods "x" is forbidden: `) whose cause is a request of
/// the API server to itself (`Get "https://<host>/api/v1/namespaces/<ns>/limitranges": x509:
/// ...`; LimitRanger, ResourceQuota, ServiceAccount and NamespaceLifecycle list objects through
/// the loopback client, kubernetes#121580).
fn loopback_admission(text: &str) -> Option<String> {
    let at = text.find(" is forbidden: ")? + " is forbidden: ".len();
    let rest = &text[at..];
    let get = rest.find("Get ")? + "Get ".len();
    let url = rest[get..]
        .trim_start_matches(['"', '\\'])
        .split(['"', '\\', ' '])
        .next()?
        .trim_end_matches(':');
    if !rest[get..].contains("x509:") {
        return None;
    }
    let path = url.split_once("://").map_or(url, |(_, r)| r);
    let path = &path[path.find('/')?..];
    if !(path.starts_with("/api/") || path.starts_with("/apis/")) {
        return None;
    }
    path.split('?')
        .next()?
        .rsplit('/')
        .find(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The issuer name Go's verifier tried and rejected by signature: `x509: certificate signed by
/// unknown authority (possibly because of "crypto/rsa: verification error" while trying to
/// verify candidate authority certificate "kubernetes")` (golang/go src/crypto/x509/verify.go,
/// UnknownAuthorityError.Error: a CA of the same subject name whose key did not verify the
/// certificate).
fn candidate_authority(text: &str) -> Option<String> {
    const MARK: &str = "while trying to verify candidate authority certificate ";
    let p = text.find(MARK)? + MARK.len();
    let rest = text[p..].trim_start_matches(['"', '\\']);
    let name: String = rest
        .chars()
        .take_while(|c| *c != '"' && *c != '\\')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn not_yet_valid_defers_to_clock_skew() {
        let f = run_log(
            "cluster-tls-untrusted",
            "Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2024-01-01T00:00:00Z is before 2024-03-01T00:00:00Z",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("node-clock-skew"), "{}", f[0].message);
        assert!(!f[0].remedy.contains("certs renew"), "{}", f[0].remedy);
        assert_eq!(f[0].severity, crate::Severity::Warning);
    }

    #[test]
    fn expired_loopback_certificate_inside_an_admission_rejection() {
        // kubernetes/kubernetes#121580: LimitRanger reads limitranges through the API server's
        // own loopback client
        let f = run_log(
            "cluster-tls-untrusted",
            "Warning  FailedCreate  8m4s (x8 over 8m4s)  replicaset-controller  Error creating: pods \"test-5c644fc9cc-\" is forbidden: Get \"https://10.0.0.55:4443/api/v1/namespaces/fst-manage/limitranges\": x509: certificate has expired or is not yet valid: current time 2033-03-10T14:43:23+08:00 is after 2032-03-08T15:05:21Z",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("loopback") && f[0].message.contains("limitranges"));
        assert!(f[0].remedy.contains("restart kube-apiserver"));
        assert!(!f[0].remedy.contains("certs renew"), "{}", f[0].remedy);
        // the client's own connection keeps the renewal remedy
        let c = run_log(
            "cluster-tls-untrusted",
            "Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2033-03-10T14:43:23+08:00 is after 2032-03-08T15:05:21Z",
        );
        assert!(!c[0].message.contains("loopback"));
    }

    #[test]
    fn regenerated_ca_of_the_same_name_means_a_stale_kubeconfig() {
        let f = run_log(
            "cluster-tls-untrusted",
            "Unable to connect to the server: x509: certificate signed by unknown authority (possibly because of \"crypto/rsa: verification error\" while trying to verify candidate authority certificate \"kubernetes\")",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].remedy.contains("admin.conf"), "{}", f[0].remedy);
        assert!(!f[0].remedy.contains("proxy"), "{}", f[0].remedy);
    }

    /// A client retrying every ten seconds repeats one error: one finding with the count and
    /// three of its lines, not one finding per line.
    #[test]
    fn a_repeated_error_is_one_finding_with_its_count() {
        let text: Vec<String> = (0..5)
            .map(|i| format!("E1202 10:00:{:02}.000000       1 reflector.go:138] failed to list *v1.Pod: Get \"https://10.0.0.1:6443/api/v1/pods\": x509: certificate signed by unknown authority", i * 10))
            .collect();
        let f = run_log("cluster-tls-untrusted", &text.join("\n"));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.ends_with("(5 lines)"), "{}", f[0].message);
        assert_eq!(f[0].evidence.len(), 3);
    }

    #[test]
    fn unknown_authority() {
        assert_eq!(
            run_log(
                "cluster-tls-untrusted",
                "Unable to connect to the server: x509: certificate signed by unknown authority"
            )
            .len(),
            1
        );
        assert!(
            run_log(
                "cluster-tls-untrusted",
                "error: You must be logged in to the server (Unauthorized)"
            )
            .is_empty()
        );
    }
}
