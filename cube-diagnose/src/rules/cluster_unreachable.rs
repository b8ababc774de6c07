//! `cluster-unreachable`: import report or client texts show the API server cannot be reached or
//! the kubeconfig is unusable.

use cube_model::import::ConnectionClass;

use crate::classify::SignalKind;
use crate::rules::{signal_error, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    ClusterUnreachable,
    "cluster-unreachable",
    Import,
    Error,
    "Importing or using a cluster fails before authentication: connection refused, timeout, DNS, the connection closed before any answer (`EOF`: a proxy, load balancer or firewall in the path), an agent (Argo CD, Karmada, Rancher) told to reach a loopback address, protocol mismatch (http to an https port or the reverse), an unusable kubeconfig (dangling context, CA together with insecure-skip-tls-verify, unparseable server), an exec credential plugin that gave no credential (`exec-plugin-failed`), or kubectl falling back to localhost:8080 because no kubeconfig resolved. A multi-cluster member reported ClusterNotReachable is included; a Rancher proxy endpoint (/k8s/clusters/) is named because its certificate is Rancher's.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in ctx.imports() {
        let c = &r.connection;
        // Problems of the file found offline have rules of their own (cluster-kubeconfig-*):
        // nothing was contacted, so nothing is unreachable.
        let typed = !r.kubeconfig_problems.is_empty();
        let offline_error = r
            .kubeconfig_problems
            .iter()
            .any(|p| p.severity == cube_model::import::ProblemSeverity::Error);
        let what = match c.class {
            ConnectionClass::Refused => "connection refused",
            ConnectionClass::Timeout => "timeout",
            ConnectionClass::Dns => "host name does not resolve",
            ConnectionClass::Protocol => "protocol mismatch (http vs https)",
            ConnectionClass::ConfigInvalid if offline_error => continue,
            ConnectionClass::ConfigInvalid => "the client refuses the kubeconfig",
            ConnectionClass::ExecPluginFailed => {
                "exec-plugin-failed: the kubeconfig's exec credential plugin gave no credential"
            }
            ConnectionClass::Other => "connection failed",
            ConnectionClass::Ok if !typed && !r.config_problems.is_empty() => {
                "the kubeconfig loads but has problems"
            }
            _ => continue,
        };
        let severity = if c.class == ConnectionClass::Ok {
            Severity::Warning
        } else {
            Severity::Error
        };
        let server = if r.server.is_empty() {
            String::new()
        } else {
            format!(" at {}", r.server)
        };
        let detail = if c.message.is_empty() {
            r.config_problems.first().cloned().unwrap_or_default()
        } else {
            c.message.clone()
        };
        let remedy = match c.class {
            // client-go runs the plugin the same way: its own login expired or it is not
            // installed where the client runs (k8s.io/client-go/plugin/pkg/client/auth/exec)
            ConnectionClass::ExecPluginFailed => {
                "run the exec plugin's command by hand where the client runs (`kubectl config view --minify` shows it): renew its login (`aws sso login`, `gcloud auth login`, the OIDC provider's) or install it; the kubeconfig itself is valid"
            }
            ConnectionClass::ConfigInvalid | ConnectionClass::Ok => {
                "`kubectl config view --minify` and fix the kubeconfig field named in the evidence (CA, client certificate and key, server URL)"
            }
            _ => {
                "check the server URL, port and network path from where the client runs (`curl -vk <server>/version`), then the kubeconfig problems listed as evidence"
            }
        };
        let mut f = Finding::new(
            ClusterUnreachable::ID,
            severity,
            Subject::cluster(&r.cluster_name),
            format!("cluster {}{server}: {what}: {detail}", r.cluster_name),
        )
        .with_evidence(Evidence::field(
            format!("Cluster/{}", r.cluster_name),
            "connection.class",
            c.class.id(),
        ));
        if !typed {
            f =
                f.with_evidences(r.config_problems.iter().map(|p| {
                    Evidence::field(format!("Cluster/{}", r.cluster_name), "kubeconfig", p)
                }));
        }
        out.push(f.with_remedy(remedy));
    }
    let kinds = [
        SignalKind::Refused,
        SignalKind::Timeout,
        SignalKind::NoRoute,
        SignalKind::NoSuchHost,
        SignalKind::ProtocolMismatch,
        SignalKind::NoUsableKubeconfig,
        SignalKind::ConfigInvalid,
        SignalKind::ClusterNotReachable,
        SignalKind::ConnectionClosed,
    ];
    let skewed = crate::rules::node_clock_skew::skewed_sources(ctx);
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &kinds).filter(|s| !s.join) {
        // a pod dialling a Service cluster IP (the `kubernetes` Service, the cluster DNS): its
        // node's Service routing or pod network, concluded by node-runtime-unhealthy; the
        // API server's address and the user's kubeconfig are not involved
        if !s.detail("service_ip").is_empty() {
            continue;
        }
        // the kubelet of this log exited for a cause some rule concludes, and these are its
        // reflectors failing to reach the control plane it ran: evidence of that cause
        if crate::rules::kubelet_exit_consequence(ctx, s).is_some() {
            continue;
        }
        // a control plane brought up with certificates that a skewed clock rejects: its
        // timeouts and EOFs are consequences, carried by node-clock-skew
        if matches!(
            s.kind,
            SignalKind::Timeout | SignalKind::ConnectionClosed | SignalKind::Refused
        ) && skewed.contains(s.source.as_str())
        {
            continue;
        }
        // one finding per text and kind, and per member cluster of a hub's table
        if !seen.insert((s.source.clone(), s.kind, s.detail("cluster").to_owned())) {
            continue;
        }
        let proxied = ctx
            .logs()
            .iter()
            .any(|l| l.source == s.source && l.text.contains("/k8s/clusters/"));
        let loopback = s.detail("loopback");
        let (msg, remedy) = match s.kind {
            // classify: an agent that runs elsewhere (Argo CD, Karmada, Rancher, OCM) told to
            // reach 127.0.0.1/localhost/::1 reaches itself
            _ if !loopback.is_empty() => {
                let agent = s.detail("agent");
                (format!("{loopback} is a loopback address: {agent} connects from its own pod or cluster, where {loopback} is {agent} itself, so it never reaches this cluster's API server (a kubeconfig of a local cluster such as kind, minikube, k3d or Docker Desktop)"),
                 format!("register the cluster with an API server address reachable from {agent}: replace server: in the kubeconfig context with the API server's LAN or DNS address (kind: `kind get kubeconfig --internal --name <cluster>` gives the address on the docker network, with {agent} attached to that network; minikube: `minikube ip` with port 8443; k3d: the server container's IP), keep that address in the API server certificate's SANs, then add the cluster again"))
            }
            // kubectl's kubeconfig names a loopback API server (classify: the text shows it)
            _ if !s.detail("kubeconfig_loopback").is_empty() => {
                let api = s.detail("kubeconfig_loopback");
                let copied = s.detail("copied") == "true";
                let what = match s.kind {
                    SignalKind::ConnectionClosed => "the connection closed without an answer (EOF)",
                    SignalKind::Refused => "the connection was refused",
                    SignalKind::Timeout => "the connection timed out",
                    _ => "the address did not answer as an API server",
                };
                (format!("{what}, and the kubeconfig in use names the API server {api}, a loopback address{}: on any machine but the API server's own, {api} is that machine itself, so kubectl talks to whatever listens there (on a k3s/rke2 agent its local load balancer or nothing) and never to the cluster's API server", if copied { " (the server's kubeconfig was copied to another machine)" } else { "" }),
                 format!("on the machine where kubectl runs, point the kubeconfig at the API server's real address: `kubectl config set-cluster $(kubectl config view --minify -o jsonpath='{{.clusters[0].name}}') --server=https://<server-ip>:6443` (k3s: `sed -i 's#{api}#https://<server-ip>:6443#' ~/.kube/config`); that address must be among the API server certificate's names (k3s/rke2: add it with the server's --tls-san flag); on the server itself {api} is right and the API server is not running"))
            }
            // argocd-server's own dial (classify: an `rpc error` reply in an Argo CD text)
            _ if s.detail("dialer") == "argocd-server" => argocd_server_dial(s),
            SignalKind::ProtocolMismatch => match s.detail("entry") {
                "go.http-to-https" => ("protocol mismatch: plain http was sent to a port that speaks https (the API server's secure port)".to_owned(), "use https:// in the kubeconfig's server URL (`kubectl config view --minify`)".to_owned()),
                _ => ("protocol mismatch: https was sent to a port that does not speak TLS (a plain-http port: a proxy, another service, the removed insecure port 8080, or the kubelet's read-only port 10255)".to_owned(), "point the kubeconfig's server at the API server's TLS port (6443 by default; `kubectl config view --minify`, and on the control plane `ss -ltnp | grep kube-apiserver`)".to_owned()),
            },
            SignalKind::ConnectionClosed => {
                // a URL pasted through Markdown (`[https://x](https://x)`): the link text
                let address = s.detail("address");
                let at = address.split_once("](").map_or(address, |(text, _)| text).trim_matches('"');
                // ECONNRESET / WSAECONNRESET / WSAECONNABORTED entries: a reset, not an EOF
                let how = if s.detail("entry").contains("reset") || s.detail("entry").contains("aborted") { "reset (connection reset by peer: an RST)" } else { "closed" };
                (format!("the connection was {how} before any HTTP answer{}{}: something in the path ends the exchange: a load balancer or proxy without a healthy backend, a firewall or middlebox dropping the TLS session, or an address and port that are not the API server's", if how == "closed" { " (EOF)" } else { "" }, if at.is_empty() { String::new() } else { format!(" at {}://{at}", s.detail("scheme").trim_start_matches(['"', '['])) }),
                 "from where the client runs (Argo CD: the argocd-server and argocd-application-controller pods; an agent: its pod) run `curl -vk <server>/version`: when the TLS handshake is cut, check the load balancer's backends and health checks, a proxy (HTTPS_PROXY/NO_PROXY) or firewall in the path, and that a private API endpoint (AKS/EKS/GKE private clusters) is reachable from that network".to_owned())
            }
            SignalKind::NoUsableKubeconfig => ("kubectl fell back to localhost:8080: no kubeconfig was found or the selected context does not resolve to a cluster (not an outage of a real API server)".to_owned(), "point kubectl at the cluster's kubeconfig: set KUBECONFIG or pass --kubeconfig (the default file is ~/.kube/config, %USERPROFILE%\\.kube\\config on Windows; `kubectl config view` printing `clusters: []` means none was found); with a kubeconfig, `kubectl config get-contexts` and fix the context's cluster name (a typo leaves it dangling)".to_owned()),
            // the client cannot read its kubeconfig or run its credential plugin: the
            // catalog entry names which (client-go clientcmd/loader.go, plugin/pkg/client/auth/exec)
            SignalKind::ConfigInvalid
                if s.detail("entry").starts_with("client.exec-plugin")
                    || s.detail("entry") == "client.kubeconfig-load-failed"
                    || s.detail("entry") == "client.kubeconfig-file-unreadable" =>
            {
                crate::catalog::entry(s.detail("entry")).map_or_else(
                    || (String::new(), String::new()),
                    |e| e.cause_and_remedy(s),
                )
            }
            SignalKind::ConfigInvalid => ("the kubeconfig is unusable as written (for example certificate-authority-data together with insecure-skip-tls-verify, a dangling context, or an unparseable server URL)".to_owned(), "`kubectl config view --minify` and fix the named field: drop insecure-skip-tls-verify when a CA is given, correct the context's cluster reference or the server URL".to_owned()),
            // Rancher's cattle-cluster-agent (rancher/rancher package/run.sh `curl` of
            // <server-url>/ping before the agent starts): the agent, in the downstream
            // cluster's pod network, cannot resolve Rancher's name; the user's cluster and
            // kubeconfig are not involved
            SignalKind::NoSuchHost if s.detail("entry") == "rancher.ping-dns" => {
                let host = s.detail("host");
                (
                    format!("Rancher's cattle-cluster-agent cannot reach Rancher to register this cluster: the name {host} of Rancher's server-url does not resolve from the agent's pod (the cluster's in-cluster DNS, CoreDNS, and its upstream), so the agent stops before connecting; the cluster's own API server and your kubeconfig are not involved"),
                    format!("make {host} resolvable from the cluster's pods: test with `kubectl -n cattle-system run dns-check --rm -it --restart=Never --image=busybox -- nslookup {host}`, then fix the DNS the pods use (CoreDNS's `forward` upstream in `kubectl -n kube-system get configmap coredns -o yaml`, or a record for {host} in that upstream), or add hostAliases with Rancher's address to the cattle-cluster-agent Deployment"),
                )
            }
            SignalKind::NoSuchHost => (format!("the name {} does not resolve where the client runs (DNS)", s.detail("host")), format!("fix the DNS record of {} (for pods: CoreDNS's upstream, or hostAliases on the agent's pod spec), or use an address that resolves", s.detail("host"))),
            // golang/go src/net/http/transport.go: `net/http: TLS handshake timeout` is
            // TLSHandshakeTimeout (10s in client-go) running out after the TCP connect
            SignalKind::Timeout if s.detail("entry") == "go.tls-handshake-timeout" => ("TLS handshake timeout: the TCP connection was made (the port is open and answers), then the TLS session stalled: a proxy or TLS-inspecting middlebox in the path (HTTPS_PROXY where the client runs), a path MTU that loses the large TLS records (VPN, overlay, tunnel), or an API server too overloaded to finish handshakes".to_owned(), "from where the client runs `curl -vk --max-time 15 <server>/version`: a `Uses proxy env variable` or `CONNECT` line shows a proxy in the path: add the API server's host to NO_PROXY/no_proxy (EKS: the cluster endpoint's host or `.eks.amazonaws.com`, and the VPC CIDR) or unset HTTPS_PROXY for the client; if it stops after `Client hello`, test the path MTU (`ping -M do -s 1400 <api-host>`); otherwise check the API server's load".to_owned()),
            SignalKind::Timeout => ("timeout reaching the API server: packets are dropped (firewall, routing, black-holed port); classified from the text, not the elapsed time".to_owned(), "test the path with `curl -vk --max-time 5 <server>/version`; open the port in firewalls/security groups".to_owned()),
            SignalKind::NoRoute => (format!("no route to the API server{}: a router or a host firewall's REJECT rule answers that it cannot be reached", match s.detail("endpoint") { "" => String::new(), e => format!(" {e}") }), "fix routing or the firewall between the client and the API server (`ip route get <api-ip>` where the client runs; a REJECT rule on the control plane also shows as no route)".to_owned()),
            // a member-cluster table of a hub (classify::multicluster)
            SignalKind::ClusterNotReachable if !s.detail("ready_column").is_empty() => {
                member_table(s)
            }
            SignalKind::ClusterNotReachable => (format!("a multi-cluster controller reports the member cluster not reachable{}", if proxied { "; its API endpoint is a Rancher proxy URL (/k8s/clusters/), which presents Rancher's certificate, so a CA bundle stored for the downstream cluster does not validate it" } else { "" }), if proxied { "store the Rancher server's CA in the member's caBundle (or use the downstream cluster's direct endpoint) and re-join".to_owned() } else { "check the member's endpoint, CA bundle and credentials from the hub (`curl --cacert ca.crt <endpoint>/version`)".to_owned() }),
            _ => ("connection refused: nothing listens at the API endpoint (wrong host/port, API server down)".to_owned(), "check the server URL and that kube-apiserver runs (`ss -ltnp | grep 6443` on the control plane)".to_owned()),
        };
        // a proxy in the path (classify::proxy) is named as such: the failing hop is the
        // proxy's, and the fix is the proxy setting; not for the loopback stories (Go never
        // proxies loopback addresses) nor for argocd-server's dial (its own environment)
        let loopback_story = !loopback.is_empty() || !s.detail("kubeconfig_loopback").is_empty();
        let (msg, remedy, proxy_line) = match crate::classify::proxy::explain(s, "") {
            Some((pm, pr)) if !loopback_story && s.detail("dialer") != "argocd-server" => {
                let line = s.detail("proxy_line").parse::<usize>().ok();
                if s.detail("proxy_weak") == "true" {
                    (format!("{msg}; {pm}"), format!("{remedy}; {pr}"), line)
                } else if s.detail("proxy_hop") == "true" {
                    // what the client saw is about the proxy's address, not the API server's
                    (pm, pr, line)
                } else {
                    (format!("{pm}; what the client reported: {msg}"), pr, line)
                }
            }
            _ => (msg, remedy, None),
        };
        let mut f = signal_error(ClusterUnreachable::ID, signal_subject(s), s, msg, remedy);
        if let Some(line) = proxy_line.filter(|l| *l != s.line) {
            f = f.with_evidence(crate::Evidence::log(
                s.source.clone(),
                line,
                s.detail("proxy_text"),
            ));
        }
        out.push(f);
    }
    out
}

/// `argocd cluster add` (argoproj/argo-cd `cmd/argocd/commands/cluster.go`) creates the
/// `argocd-manager` ServiceAccount and its RBAC with the local kubeconfig, then asks
/// argocd-server to create the cluster; argocd-server checks the cluster by connecting to it
/// from its own pod, and a failure comes back to the CLI as a gRPC status (`rpc error: code =
/// Unknown desc = <error>`). That dial runs in the Argo CD cluster's network, with the
/// cluster config Argo CD stores: a kubeconfig's `proxy-url` is not carried over
/// (argoproj/argo-cd#8314, #6043), nor is the CLI machine's route or VPN.
fn argocd_server_dial(s: &crate::classify::Signal) -> (String, String) {
    let ep = ["endpoint", "address", "host"]
        .iter()
        .map(|k| s.detail(k))
        .find(|v| !v.is_empty())
        .unwrap_or("the cluster's API server");
    // a URL pasted through Markdown (`[https://x](https://x)`): the link text; then host and
    // port only (the address of `Get "https://host:443/version?timeout=32s": EOF` holds the path)
    let ep = ep.split_once("](").map_or(ep, |(text, _)| text);
    let ep = ep.trim_matches(['"', '[', ']']);
    let ep = ep.split_once("://").map_or(ep, |(_, rest)| rest);
    let ep = ep.split(['/', '?']).next().unwrap_or(ep);
    let what = match s.kind {
        SignalKind::Timeout => "timed out",
        SignalKind::Refused => "was refused",
        SignalKind::NoRoute => "found no route",
        SignalKind::NoSuchHost => "could not resolve the name",
        // Argo CD v1 passes the bare `unexpected EOF` on, later versions `Get "...": EOF`
        _ => {
            "was closed before any answer (EOF): the API server's network allow-list (GKE master authorized networks, an EKS public-access CIDR list, AKS authorized IP ranges) or a firewall does not admit the Argo CD cluster's egress address, or a proxy or load balancer in that path cuts it"
        }
    };
    let proxy = if s.detail("proxy_kubeconfig") == "true" {
        format!(
            "; the kubeconfig sends the CLI through {}, but argocd-server does not use a kubeconfig's proxy-url: it dials {ep} directly from its pod",
            s.detail("proxy").trim_start_matches("the kubeconfig's ")
        )
    } else {
        String::new()
    };
    let url = if ep == "the cluster's API server" {
        "https://<api-server>".to_owned()
    } else if ep.contains("://") {
        ep.to_owned()
    } else {
        format!("https://{ep}")
    };
    (
        format!(
            "the connection that fails is argocd-server's, not the CLI's: `argocd cluster add` created the ServiceAccount and RBAC with the local kubeconfig, then argocd-server, inside the Argo CD cluster, connected to {ep} to check the cluster and {what} (the `rpc error` is argocd-server's reply){proxy}"
        ),
        format!(
            "give the Argo CD pods (argocd-server, argocd-application-controller) a path to {ep}: test it from their namespace with `kubectl -n argocd run api-check --rm -it --restart=Never --image=curlimages/curl -- curl -vk --max-time 5 {url}/version`, then open the route/firewall from the Argo CD cluster's nodes (for a cloud API server with an allow-list add the Argo CD cluster's egress/NAT IP to it: GKE master authorized networks, EKS publicAccessCidrs, AKS --api-server-authorized-ip-ranges), or set HTTPS_PROXY/NO_PROXY on those Deployments (or a per-cluster proxy URL where the Argo CD version supports one), and add the cluster again"
        ),
    )
}

/// Message and remedy for a member cluster whose readiness is `False` / `Unknown` in a hub's
/// `kubectl get clusters` table (Karmada: `pkg/controllers/status/cluster_status_controller.go`
/// sets Ready from the member's `/readyz` (`/healthz` before) in Push mode; in Pull mode the
/// karmada-agent in the member posts the status and renews the cluster lease, and the cluster
/// controller `pkg/controllers/cluster/cluster_controller.go` turns Ready `Unknown` when the
/// lease runs out; OCM's AVAILABLE and KubeFed's READY are the same kind of lease/probe).
fn member_table(s: &crate::classify::Signal) -> (String, String) {
    let cluster = s.detail("cluster");
    let program = s.detail("program");
    let ready = s.detail("ready");
    let col = s.detail("ready_column");
    let never = if s.detail("never_collected") == "true" {
        " and its VERSION is empty: no status was ever collected from it"
    } else {
        ""
    };
    match (program, s.detail("mode")) {
        ("Karmada", "Pull") => (
            format!(
                "{program} member cluster {cluster} (Pull mode) is {col} {ready}{never}: in Pull mode the karmada-agent inside {cluster} reports its status and renews its lease; {} the agent is not running or cannot reach the Karmada API server",
                if ready == "Unknown" {
                    "Unknown means the lease ran out:"
                } else {
                    "False means"
                }
            ),
            format!(
                "in the member cluster {cluster}: `kubectl -n karmada-system get pods -l app=karmada-agent` and `kubectl -n karmada-system logs deploy/karmada-agent`; the agent's karmada-kubeconfig secret must name a Karmada API server address reachable from {cluster} (not 127.0.0.1 / localhost) with a valid certificate; on the hub `kubectl describe cluster {cluster}` shows the condition's reason"
            ),
        ),
        ("Karmada", _) => (
            format!(
                "{program} member cluster {cluster} (Push mode) is {col} {ready}{never}: karmada-controller-manager on the hub cannot reach the member's API server (its health probe fails: address, network, CA bundle or the token in the cluster's secret)"
            ),
            format!(
                "on the hub: `kubectl describe cluster {cluster}` (the Ready condition's reason and message), then from the karmada-controller-manager's network `curl --cacert member-ca.crt <apiEndpoint>/readyz`; fix spec.apiEndpoint, the CA bundle or the credentials in the secret named by spec.secretRef (or re-join with `karmadactl join {cluster} --cluster-kubeconfig=member.kubeconfig`)"
            ),
        ),
        _ => (
            format!(
                "{program} member cluster {cluster} is {col} {ready}{never}: the hub does not hear from it (its agent's lease or the hub's probe fails)"
            ),
            format!(
                "on the hub describe the member cluster object ({cluster}) for the condition's reason; in the member check the agent pods and their logs, and that the address of the hub they use is reachable from there"
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    /// A k3s server's kubeconfig (server https://127.0.0.1:6443) copied to an agent: kubectl
    /// there says EOF; every wording of the connection failure names the loopback cause.
    #[test]
    fn loopback_kubeconfig_copied_to_another_machine() {
        for failure in [
            "Unable to connect to the server: EOF",
            "Unable to connect to the server: read tcp 127.0.0.1:52000->127.0.0.1:6443: read: connection reset by peer",
            "The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?",
        ] {
            let text = format!(
                "master node\n$ k3s kubectl cluster-info\nKubernetes master is running at https://127.0.0.1:6443\n\nagent node\n$ kubectl cluster-info\n{failure}\n\ni copied /etc/rancher/k3s/k3s.yaml from the master to the agent\n"
            );
            let f = run_log("cluster-unreachable", &text);
            assert_eq!(f.len(), 1, "{failure}: {f:#?}");
            assert!(
                f[0].message.contains("https://127.0.0.1:6443") && f[0].message.contains("copied"),
                "{}",
                f[0].message
            );
            assert!(
                f[0].remedy.contains("--server=https://<server-ip>:6443"),
                "{}",
                f[0].remedy
            );
        }
        // a remote address failing is not the loopback story
        let f = run_log(
            "cluster-unreachable",
            "server: https://127.0.0.1:6443\ndial tcp 10.0.0.9:6443: connect: connection refused\n",
        );
        assert!(!f[0].message.contains("loopback"), "{f:#?}");
        // protocol mismatches name their direction
        let h = run_log(
            "cluster-unreachable",
            "Unable to connect to the server: http: server gave HTTP response to HTTPS client",
        );
        assert!(h[0].message.contains("does not speak TLS"), "{h:#?}");
        let t = run_log(
            "cluster-unreachable",
            "Unable to connect to the server: tls: first record does not look like a TLS handshake",
        );
        assert!(t[0].message.contains("does not speak TLS"), "{t:#?}");
    }

    #[test]
    fn member_clusters_of_a_hub_table() {
        let f = run_log(
            "cluster-unreachable",
            "NAME     VERSION   MODE   READY     AGE\n251k8s             Push   Unknown   76m\nk8s81              Pull   Unknown   2d1h\nok1      v1.30.1   Push   True      1d\n",
        );
        assert_eq!(f.len(), 2, "{f:#?}");
        assert_eq!(f[0].subject.to_string(), "Cluster/251k8s");
        assert!(
            f[0].message.contains("Push mode")
                && f[0].remedy.contains("kubectl describe cluster 251k8s"),
            "{f:#?}"
        );
        assert!(
            f[1].message.contains("karmada-agent") && f[1].message.contains("lease"),
            "{f:#?}"
        );
    }

    #[test]
    fn eof_and_loopback_agents() {
        let f = run_log(
            "cluster-unreachable",
            "FATA[0013] rpc error: code = Unknown desc = Get \"[https://cluster-2.example.io:443/version?timeout=32s](https://cluster-2.example.io/version?timeout=32s)\": EOF",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("EOF"));
        assert!(
            f[0].message
                .contains("at https://cluster-2.example.io:443/version?timeout=32s:"),
            "{}",
            f[0].message
        );
        let l = run_log(
            "cluster-unreachable",
            "$ argocd cluster add minikube --insecure\nFATA[0001] rpc error: code = Unknown desc = Get \"https://127.0.0.1:32768/version?timeout=32s\": dial tcp 127.0.0.1:32768: connect: connection refused",
        );
        assert!(
            l[0].message.contains("loopback") && l[0].remedy.contains("reachable from Argo CD"),
            "{l:#?}"
        );
        assert!(!l[0].remedy.contains("ss -ltnp"));
        // an API server's own handshake noise is not a client's problem
        assert!(run_log("cluster-unreachable", "I0101 00:00:00.000000 1 log.go:245] http: TLS handshake error from 10.0.0.5:51234: EOF").is_empty());
    }

    /// A proxy in the client's path, in every form a paste shows it (net/http's `proxyconnect`,
    /// the SOCKS5 dialer, an HTTPS_PROXY assignment, curl's trace, kubeadm's preflight
    /// warning), is named as the failing hop with NO_PROXY in the remedy; a mere mention only
    /// adds a hint, and `kube-proxy` is no proxy.
    #[test]
    fn a_proxy_in_the_path_is_named() {
        for (text, want) in [
            // golang/go src/net/http/transport.go: the dial to the proxy failed
            (
                "Unable to connect to the server: proxyconnect tcp: dial tcp 10.1.2.3:3128: connect: connection refused",
                "the one to the proxy itself",
            ),
            (
                "Unable to connect to the server: proxyconnect tcp: dial tcp 10.1.2.3:3128: i/o timeout",
                "the one to the proxy itself",
            ),
            // golang.org/x/net internal/socks: the proxy was reached, the target was not
            (
                "Get \"https://10.0.0.1:6443/api\": socks connect tcp 127.0.0.1:1080->10.0.0.1:6443: unknown error general SOCKS server failure",
                "could not connect to 10.0.0.1:6443",
            ),
            // Go's proxy parser re-reads an unknown scheme as a host name
            (
                "Unable to connect to the server: proxyconnect tcp: dial tcp: lookup socks5h on 127.0.0.53:53: server misbehaving",
                "scheme socks5h://",
            ),
            (
                "Unable to connect to the server: proxyconnect tcp: dial tcp: lookup socks4 on 127.0.0.53:53: no such host",
                "scheme socks4://",
            ),
            // an https:// proxy URL for a proxy that speaks http
            (
                "Unable to connect to the server: proxyconnect tcp: tls: first record does not look like a TLS handshake",
                "proxy URL says https://",
            ),
            (
                "Unable to connect to the server: proxyconnect tcp: EOF",
                "the one to the proxy itself",
            ),
            // an environment that sets a proxy, then a stalled handshake
            (
                "$ export HTTPS_PROXY=http://proxy.corp.example:3128\n$ kubectl get nodes\nUnable to connect to the server: net/http: TLS handshake timeout",
                "a proxy is in the path: HTTPS_PROXY=http://proxy.corp.example:3128",
            ),
            (
                "* Uses proxy env variable https_proxy == 'http://127.0.0.1:7890'\nUnable to connect to the server: EOF",
                "a proxy is in the path: https_proxy=http://127.0.0.1:7890",
            ),
        ] {
            let f = run_log("cluster-unreachable", text);
            assert_eq!(f.len(), 1, "{text}: {f:#?}");
            assert!(f[0].message.contains(want), "{text}: {}", f[0].message);
            assert!(f[0].remedy.contains("NO_PROXY"), "{text}: {}", f[0].remedy);
            // never the API server's firewall or a DNS record of the proxy's scheme
            assert!(
                !f[0].remedy.starts_with("fix the DNS record"),
                "{}",
                f[0].remedy
            );
        }
        // a proxy that wants credentials (407 is only a proxy's answer)
        let a = run_log(
            "cluster-unreachable",
            "export https_proxy=http://10.0.0.2:3128\nUnable to connect to the server: Proxy Authentication Required",
        );
        assert!(
            a[0].message.contains("407")
                && a[0]
                    .remedy
                    .contains("HTTPS_PROXY=http://<user>:<password>@"),
            "{a:#?}"
        );
        // an unknown authority behind a proxy is the proxy's certificate
        let t = crate::rules::testutil::run_log(
            "cluster-tls-untrusted",
            "* Uses proxy env variable https_proxy == 'http://10.0.0.2:3128'\nUnable to connect to the server: x509: certificate signed by unknown authority",
        );
        assert!(
            t[0].message.contains("TLS-intercepting proxy") && t[0].remedy.contains("NO_PROXY"),
            "{t:#?}"
        );
        // credentials of a proxy URL never reach the output
        let f = run_log(
            "cluster-unreachable",
            "HTTPS_PROXY=http://alice:s3cret@10.0.0.2:3128\nUnable to connect to the server: net/http: TLS handshake timeout",
        );
        assert!(
            !f[0].message.contains("s3cret") && f[0].message.contains("***@10.0.0.2:3128"),
            "{}",
            f[0].message
        );
        // a TLS handshake timeout alone: the port is open, a proxy or middlebox stalls it
        let t = run_log(
            "cluster-unreachable",
            "Unable to connect to the server: net/http: TLS handshake timeout",
        );
        assert!(
            t[0].message.contains("TCP connection was made") && t[0].remedy.contains("NO_PROXY"),
            "{t:#?}"
        );
        // a mention of a proxy is a hint after the client's own story, kube-proxy none
        let w = run_log(
            "cluster-unreachable",
            "\"LogicalResourceId\": \"ConfigureProxy\",\nUnable to connect to the server: dial tcp 10.0.0.1:443: i/o timeout",
        );
        assert!(
            w[0].message.starts_with("timeout reaching the API server")
                && w[0].message.contains("ConfigureProxy"),
            "{w:#?}"
        );
        let k = run_log(
            "cluster-unreachable",
            "kube-proxy-x7k2p   1/1   Running\nUnable to connect to the server: dial tcp 10.0.0.1:443: i/o timeout",
        );
        assert!(!k[0].message.contains("proxy"), "{k:#?}");
        // a DNS failure without a proxy is the name's
        let d = run_log(
            "cluster-unreachable",
            "Unable to connect to the server: dial tcp: lookup api.example.com on 10.0.0.2:53: server misbehaving",
        );
        assert!(
            d[0].message.contains("api.example.com does not resolve")
                && !d[0].message.contains("proxy"),
            "{d:#?}"
        );
    }

    /// `argocd cluster add`: the CLI's steps succeed with the local kubeconfig, the error in
    /// the `rpc error` reply is argocd-server's own dial, which ignores a kubeconfig proxy-url.
    #[test]
    fn argocd_server_dials_on_its_own() {
        let text = "clusters:\n- cluster:\n    proxy-url: http://192.0.2.176:3128\n    server: https://10.0.0.10:6443\n$ argocd cluster add prod --kubeconfig prod.yaml\nINFO[0000] ServiceAccount \"argocd-manager\" created in namespace \"kube-system\"\nFATA[0030] rpc error: code = Unknown desc = Get \"https://10.0.0.10:6443/version?timeout=32s\": dial tcp 10.0.0.10:6443: i/o timeout\n";
        let f = run_log("cluster-unreachable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("argocd-server")
                && f[0]
                    .message
                    .contains("does not use a kubeconfig's proxy-url"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("kubectl -n argocd run api-check")
                && f[0].remedy.contains("https://10.0.0.10:6443/version"),
            "{}",
            f[0].remedy
        );
        // without a proxy-url: still argocd-server's dial, no proxy story
        let f = run_log(
            "cluster-unreachable",
            "$ argocd cluster add prod\nFATA[0030] rpc error: code = Unknown desc = Get \"https://10.0.0.10:6443/version?timeout=32s\": dial tcp 10.0.0.10:6443: connect: no route to host\n",
        );
        assert!(
            f[0].message.contains("argocd-server")
                && f[0].message.contains("found no route")
                && !f[0].message.contains("proxy-url"),
            "{}",
            f[0].message
        );
    }

    /// A pretty-printed JSON record (CloudWatch, `jq .`): the level member marks the record,
    /// the message member is read unescaped.
    #[test]
    fn pretty_printed_json_records() {
        let text = "{\n    \"level\": \"ERROR\",\n    \"message\": \"Command failed with exit code 1, stderr: Unable to connect to the server: net/http: TLS handshake timeout\\n\"\n}\n";
        let all = crate::classify::classify_all("cw", text);
        assert!(
            all.iter()
                .all(|s| s.kind != crate::classify::SignalKind::Unrecognised),
            "{all:#?}"
        );
        assert_eq!(run_log("cluster-unreachable", text).len(), 1);
    }

    #[test]
    fn localhost_fallback_and_404_control() {
        let f = run_log(
            "cluster-unreachable",
            "The connection to the server localhost:8080 was refused - did you specify the right host or port?",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("localhost:8080"));
        assert!(
            run_log(
                "cluster-unreachable",
                "Error from server (NotFound): pods \"no-such-pod\" not found"
            )
            .is_empty()
        );
    }
}
