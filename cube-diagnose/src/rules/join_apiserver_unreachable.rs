//! `join-apiserver-unreachable`: join output shows refused/timeout/no route to the API endpoint,
//! or a serving certificate that does not cover the address used.

use crate::classify::SignalKind;
use crate::rules::{signal_error, signals};
use crate::{Context, Finding, Subject};

declare_rule!(
    JoinApiserverUnreachable,
    "join-apiserver-unreachable",
    Join,
    Error,
    "kubeadm join cannot use the API endpoint: connection refused (nothing listening, wrong port, or the control plane advertised an address others cannot reach such as VirtualBox's NAT 10.0.2.15), timeout (firewall, security group, routing), no route to host, or the API server certificate's SANs do not include the address used to join; a k3s/rke2 agent whose server answers with an HTTP error (503 while the server is not ready; a 401 is join-token-invalid's); the connection closed before any answer (EOF). Each case names its own fix.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = check_all(ctx);
    crate::rules::superseded_by_kubeadm_success(ctx, &mut out);
    out
}

fn check_all(ctx: &Context<'_>) -> Vec<Finding> {
    let kinds = [
        SignalKind::Refused,
        SignalKind::Timeout,
        SignalKind::NoRoute,
        SignalKind::NoSuchHost,
        SignalKind::TlsNameMismatch,
        SignalKind::JoinServerNotReady,
        SignalKind::ConnectionClosed,
    ];
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    // a pod dialling a Service cluster IP is node-runtime-unhealthy's (classify::service_ip)
    for s in signals(ctx, &kinds).filter(|s| s.join && s.detail("service_ip").is_empty()) {
        if !seen.insert((
            s.source.clone(),
            s.kind,
            s.detail("endpoint").to_owned(),
            s.detail("wanted").to_owned(),
        )) {
            continue;
        }
        let ep = s.detail("endpoint");
        let (message, remedy) = match s.kind {
            SignalKind::JoinServerNotReady => supervisor_status(ctx, s),
            SignalKind::ConnectionClosed => closed_before_answer(ctx, s),
            SignalKind::Refused if !s.detail("unroutable_address").is_empty() => (
                format!("connection refused at {ep}: {} is VirtualBox's NAT/loopback address, which the control plane advertised and other machines cannot reach", s.detail("unroutable_address")),
                "re-initialise (or reconfigure) the control plane on a routable interface: `kubeadm init --apiserver-advertise-address=<host-only/LAN IP>` (or set controlPlaneEndpoint), then create a new join command".to_owned(),
            ),
            SignalKind::Refused => (
                format!("connection refused at {ep}: the host answers but nothing listens on that port (API server down or wrong address/port)"),
                format!("on the control plane check `crictl ps | grep kube-apiserver` and `ss -ltnp | grep 6443`; join with the address the API server listens on (not {ep} if that is wrong)"),
            ),
            SignalKind::Timeout => (
                format!("timeout reaching the API server{}: packets are dropped (firewall, security group, routing, wrong IP)", if ep.is_empty() { String::new() } else { format!(" at {ep}") }),
                "open TCP 6443 from the joining node to the control plane (security group / firewalld / ufw) and test with `nc -vz <ip> 6443` or `curl -k https://<ip>:6443/healthz`".to_owned(),
            ),
            SignalKind::NoSuchHost => (
                format!("the control-plane name {} does not resolve on the joining node", s.detail("host")),
                format!("add a DNS record (or an /etc/hosts entry on every node) for {}, or join with the control plane's IP address", s.detail("host")),
            ),
            SignalKind::NoRoute => (format!("no route to the API server {ep}"), "fix routing/firewall between the node and the control plane (a REJECT rule also shows as no route)".to_owned()),
            _ => (
                format!("the API server certificate is valid for {} but the join used {}: its SANs do not include that address", s.detail("valid_for"), s.detail("wanted")),
                format!("re-issue the API server certificate with the address as a SAN: add `{}` to ClusterConfiguration apiServer.certSANs, remove /etc/kubernetes/pki/apiserver.{{crt,key}}, run `kubeadm init phase certs apiserver --config <file>` and restart the API server; or join via an address already in the certificate", s.detail("wanted")),
            ),
        };
        // a proxy in the path is named as such (classify::proxy)
        let url = ["url", "address", "endpoint"]
            .iter()
            .map(|k| s.detail(k))
            .find(|v| !v.is_empty())
            .unwrap_or("")
            .trim_matches(['"', '\\'])
            .to_owned();
        let (message, remedy) = match k3s_through_proxy(ctx, s, &url) {
            Some(p) => p,
            None => match crate::classify::proxy::explain(s, "the control plane") {
                Some((pm, pr)) if s.detail("proxy_weak") != "true" => {
                    (format!("{pm}; what the join reported: {message}"), pr)
                }
                _ => (message, remedy),
            },
        };
        let mut f = signal_error(
            JoinApiserverUnreachable::ID,
            Subject::log(&s.source),
            s,
            message,
            remedy,
        );
        if let Some(line) = s
            .detail("proxy_line")
            .parse::<usize>()
            .ok()
            .filter(|l| *l != s.line && s.detail("proxy_weak") != "true")
        {
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

/// The join server closed the connection before any HTTP answer (EOF, connection reset). A k3s
/// or rke2 agent talks to its own client-side load balancer on 127.0.0.1 (`Running load
/// balancer <name> 127.0.0.1:6444 -> [<server>:<port>]`, k3s-io/k3s
/// pkg/agent/loadbalancer/loadbalancer.go): the server it names is the real upstream, and a
/// port other than the supervisor's (rke2 9345, k3s 6443: rancher/rke2 pkg/cli/defaults,
/// k3s-io/k3s pkg/cli/cmds/server.go) is the likely cause.
fn closed_before_answer(ctx: &Context<'_>, s: &crate::classify::Signal) -> (String, String) {
    let addr = ["address", "endpoint", "url"]
        .iter()
        .map(|k| s.detail(k))
        .find(|v| !v.is_empty())
        .unwrap_or("")
        .trim_matches(['"', '\\']);
    let url = if addr.contains("://") {
        addr.to_owned()
    } else {
        format!("https://{addr}")
    };
    let (servers, note) = supervisor_servers(ctx, &s.source, &url);
    let Some(list) = servers.filter(|_| !note.is_empty()) else {
        return (
            "the join server closed the connection before any HTTP answer (EOF or reset): a load balancer, proxy or firewall in the path ends the TLS session, or the address and port are not the server's".to_owned(),
            "from the joining node `curl -vk https://<server>:<port>/` (kubeadm: 6443, k3s/rke2 supervisor: 6443/9345); check the load balancer's backends and health checks and any proxy (HTTPS_PROXY/NO_PROXY) in the path".to_owned(),
        );
    };
    let rke2 = join_program(ctx, &s.source, &url) == "rke2";
    let (program, port) = if rke2 {
        ("rke2", "9345")
    } else {
        ("k3s", "6443")
    };
    let odd: Vec<&str> = list
        .split([',', ' '])
        .map(str::trim)
        .filter(|a| !a.is_empty() && !a.ends_with(&format!(":{port}")))
        .collect();
    let message = if odd.is_empty() {
        format!(
            "the {program} agent's load balancer at {addr} forwards to {list}, which closes the connection before any HTTP answer (EOF or reset){note}: the server's supervisor is not up yet, or a proxy or firewall in the path ends the session"
        )
    } else {
        format!(
            "the {program} agent's load balancer at {addr} forwards to {list}, which closes the connection before any HTTP answer (EOF or reset){note}: {} is not {program}'s supervisor port {port}, so the agent's `server:` address is most likely mistyped",
            odd.join(", ")
        )
    };
    let remedy = format!(
        "set `server: https://<server>:{port}` in the agent's config (/etc/rancher/{program}/config.yaml) or its --server flag, then `systemctl restart {program}-agent`; test with `curl -vk https://<server>:{port}/cacerts` from the node"
    );
    (message, remedy)
}

/// The program (`k3s` or `rke2`) and its server unit of a supervisor URL (rke2 serves
/// `/v1-rke2/...`, k3s `/v1-k3s/...`: pkg/agent/config/config.go `"/v1-"+version.Program`).
pub(crate) fn supervisor_program(url: &str) -> (&'static str, &'static str) {
    if url.contains("/v1-rke2/") || url.contains(":9345") {
        ("rke2", "rke2-server")
    } else {
        ("k3s", "k3s")
    }
}

/// The program (`k3s` or `rke2`) of a join log: the supervisor URL first
/// ([`supervisor_program`]), else what the log `source` shows of rke2 (its process name
/// `rke2[pid]`, `RKE2_URL`/`RKE2_TOKEN`, `/etc/rancher/rke2/`, `/var/lib/rancher/rke2/`, the
/// `rke2-agent`/`rke2-server` units, `/v1-rke2/`, port 9345). rke2 keeps its config in
/// /etc/rancher/rke2/config.yaml and its supervisor on 9345 (rancher/rke2 docs
/// install/configuration and requirements); k3s in /etc/rancher/k3s/config.yaml on 6443.
pub(crate) fn join_program(ctx: &Context<'_>, source: &str, url: &str) -> &'static str {
    if supervisor_program(url).0 == "rke2" {
        return "rke2";
    }
    let rke2 = ctx.logs().iter().filter(|l| l.source == source).any(|l| {
        let t = &l.text;
        t.contains("rke2[")
            || t.contains("RKE2_")
            || t.contains("rancher/rke2")
            || t.contains("rke2-agent")
            || t.contains("rke2-server")
            || t.contains("/v1-rke2/")
            || t.contains("Starting rke2 ")
    });
    if rke2 { "rke2" } else { "k3s" }
}

/// The systemd unit of a k3s/rke2 node: a server joining (`preparing server`, `failed to
/// validate server configuration`: k3s-io/k3s pkg/cluster) runs `k3s` / `rke2-server`, an
/// agent `k3s-agent` / `rke2-agent` (the install scripts' unit names).
pub(crate) fn join_unit(program: &str, server: bool) -> &'static str {
    match (program, server) {
        ("rke2", true) => "rke2-server",
        ("rke2", false) => "rke2-agent",
        (_, true) => "k3s",
        _ => "k3s-agent",
    }
}

/// The environment file of that unit, where the install scripts put HTTP_PROXY, HTTPS_PROXY
/// and NO_PROXY (k3s docs "Configuring an HTTP proxy": /etc/systemd/system/k3s.service.env,
/// k3s-agent.service.env; rke2 docs "Configuring an HTTP proxy": /etc/default/rke2-server,
/// /etc/default/rke2-agent, /etc/sysconfig/... on RPM systems).
fn unit_env_file(unit: &str) -> String {
    if unit.starts_with("rke2") {
        format!("/etc/default/{unit}")
    } else {
        format!("/etc/systemd/system/{unit}.service.env")
    }
}

/// Message and remedy for a k3s/rke2 join failure whose text shows a proxy in the agent's
/// path (classify::proxy): the agent's requests (and its load balancer's upstream connection)
/// go through the proxy, which breaks them; the fix is NO_PROXY in the unit's environment.
fn k3s_through_proxy(
    ctx: &Context<'_>,
    s: &crate::classify::Signal,
    url: &str,
) -> Option<(String, String)> {
    if s.detail("proxy").is_empty() || s.detail("proxy_weak") == "true" {
        return None;
    }
    let k3s_like = ctx
        .logs()
        .iter()
        .filter(|l| l.source == s.source)
        .any(|l| l.text.contains("k3s") || l.text.contains("rke2"));
    if !k3s_like {
        return None;
    }
    let program = join_program(ctx, &s.source, url);
    let unit = join_unit(program, false);
    let (servers, _) = supervisor_servers(ctx, &s.source, url);
    let server_hosts: Vec<String> = servers
        .as_deref()
        .unwrap_or("")
        .split([',', ' '])
        .filter(|a| !a.is_empty())
        .map(|a| crate::classify::address_host(a).to_owned())
        .collect();
    let hosts = if server_hosts.is_empty() {
        "<server-address>".to_owned()
    } else {
        server_hosts.join(",")
    };
    let env = unit_env_file(unit);
    Some((
        format!(
            "the {program} agent's connection to {url} fails inside a proxy: {} shows the node's HTTPS_PROXY/https_proxy is used for this traffic, including the agent's own load balancer and the server address, and the proxy breaks the session; not a token or CA problem",
            s.detail("proxy")
        ),
        format!(
            "exempt local and cluster addresses from the proxy in the {unit} service environment, then restart it: `echo 'NO_PROXY=127.0.0.0/8,localhost,{hosts},10.42.0.0/16,10.43.0.0/16,.svc,.cluster.local' | sudo tee -a {env} && sudo systemctl restart {unit}` (10.42/10.43 are the default cluster and service CIDRs: use yours; a NO_PROXY line already in that file is overridden by the new one, so merge its entries{})",
            if unit.starts_with("rke2") {
                format!("; RPM installs read /etc/sysconfig/{unit} instead")
            } else {
                String::new()
            }
        ),
    ))
}

/// The servers behind the agent's own client-side load balancer (`Running load balancer
/// <name> 127.0.0.1:6444 -> [10.0.0.10:9345]`, k3s-io/k3s pkg/agent/loadbalancer) in the log
/// `source`, and a note when `url` is that load balancer.
pub(crate) fn supervisor_servers(
    ctx: &Context<'_>,
    source: &str,
    url: &str,
) -> (Option<String>, String) {
    let servers = ctx
        .logs()
        .iter()
        .filter(|l| l.source == source)
        .find_map(|l| {
            let t = &l.text[l.text.find("Running load balancer ")?..];
            let start = t.find("-> [")? + 4;
            let end = start + t[start..].find(']')?;
            Some(t[start..end].to_owned())
        });
    let lb_note = match (&servers, url.contains("://127.0.0.1:")) {
        (Some(list), true) => {
            format!("; 127.0.0.1 is the agent's own load balancer in front of the server(s) {list}")
        }
        _ => String::new(),
    };
    (servers, lb_note)
}

/// The k3s/rke2 supervisor's HTTP answer to an agent (`<url>: <code> <status>`, k3s-io/k3s
/// pkg/clientaccess and pkg/agent/config): 5xx while the server's own core is not ready (the
/// supervisor answers 503 until its API server and the node-password secrets can be used,
/// pkg/server/router.go); a 401 (token not accepted) is `join-token-invalid`'s.
fn supervisor_status(ctx: &Context<'_>, s: &crate::classify::Signal) -> (String, String) {
    let (url, code, status) = (s.detail("url"), s.detail("code"), s.detail("status"));
    let program = join_program(ctx, &s.source, url);
    let unit = join_unit(program, true);
    let (servers, lb_note) = supervisor_servers(ctx, &s.source, url);
    let on = servers
        .as_deref()
        .map_or_else(|| "the server".to_owned(), |l| format!("the server ({l})"));
    if code == "401" && url.ends_with("/cacerts") {
        // the supervisor serves /cacerts to anyone (k3s-io/k3s pkg/clientaccess/token.go
        // getCACerts sends no credentials): a 401 there comes from an API server that is not
        // a k3s/rke2 supervisor
        return (
            format!(
                "the address the agent joins answers {code} {status} for {url}: a k3s/rke2 supervisor serves /cacerts without credentials, so this is another server (a plain Kubernetes API server such as an RKE or kubeadm cluster's, rke2's API server port 6443 instead of its supervisor port 9345, or a proxy){lb_note}"
            ),
            format!(
                "point the agent at the {program} server's supervisor: `server:` in /etc/rancher/{program}/config.yaml (or {}_URL) must be https://<server>:{} of a {program} server, then `systemctl restart {program}-agent`",
                program.to_uppercase(),
                if program == "rke2" { "9345" } else { "6443" }
            ),
        );
    }
    if code.starts_with('4') && url.ends_with("/cacerts") {
        // the supervisor always serves /cacerts (200, no credentials: pkg/server/router.go
        // `cacerts` handler): a 403/404 there is another HTTP server answering, most often a
        // load balancer or ingress that terminates TLS and routes by path (k3s-io/k3s#1211)
        let lb = crate::rules::join_ca_hash_mismatch::external_load_balancer(ctx, &s.source);
        return (
            format!(
                "the address the agent joins answers {code} {status} for {url}: a k3s/rke2 supervisor always serves /cacerts, so something else answers there: a load balancer, ingress or proxy that terminates TLS (and routes by path or host){}, or a server that is not {program}'s{lb_note}",
                lb.map(|h| format!(" (the text shows {h})"))
                    .unwrap_or_default()
            ),
            format!(
                "make the load balancer pass TLS through to the {program} servers (TCP / layer 4: HAProxy `mode tcp`, nginx `stream {{}}`, an NLB with TCP listeners on {port}), not terminate it: agents authenticate with client certificates and check the server's certificate against /cacerts; or point `server:` in /etc/rancher/{program}/config.yaml at a server directly; `curl -vk https://<server-url>/cacerts` must return the cluster CA (issuer `{program}-server-ca@...`)",
                port = if program == "rke2" {
                    "9345 and 6443"
                } else {
                    "6443"
                }
            ),
        );
    }
    if code.starts_with('5') {
        (
            format!(
                "the {program} server answers the agent with {code} {status} for {url}: it is reachable but not ready (the supervisor answers 503 until the server's own Kubernetes core, its API server and the node-password secrets, is up){lb_note}"
            ),
            format!(
                "look at the server, not the agent: on {on} `journalctl -u {unit}` shows why it is not ready (etcd quorum or datastore, API server start, certificates, disk full) and `kubectl get --raw='/readyz?verbose'` there names the failing check; the agent retries by itself once the server is ready"
            ),
        )
    } else {
        (
            format!(
                "the {program} server answers the agent with {code} {status} for {url}{lb_note}"
            ),
            format!(
                "read the server's log at that time (`journalctl -u {unit}` on {on}) for the request's error"
            ),
        )
    }
}

#[cfg(test)]
mod load_balancer_tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn the_agents_load_balancer_names_the_real_upstream_and_its_port() {
        let text = "Feb 13 09:18:41 node-02 rke2[3644]: time=\"2023-02-13T09:18:41Z\" level=info msg=\"Running load balancer rke2-agent-load-balancer 127.0.0.1:6444 -> [10.0.0.66:9435]\"\nFeb 13 09:18:41 node-02 rke2[3644]: time=\"2023-02-13T09:18:41Z\" level=error msg=\"failed to get CA certs: Get \\\"https://127.0.0.1:6444/cacerts\\\": read tcp 127.0.0.1:52510->127.0.0.1:6444: read: connection reset by peer\"\nFeb 13 09:18:43 node-02 rke2[3644]: time=\"2023-02-13T09:18:43Z\" level=error msg=\"failed to get CA certs: Get \\\"https://127.0.0.1:6444/cacerts\\\": EOF\"\n";
        let f = run_log("join-apiserver-unreachable", text);
        assert!(!f.is_empty());
        assert!(
            f.iter()
                .all(|f| f.message.contains("10.0.0.66:9435") && f.message.contains("9345")),
            "{f:#?}"
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::testutil::run_log;

    #[test]
    fn refused_nat_and_timeout() {
        let f = run_log(
            "join-apiserver-unreachable",
            "error execution phase preflight: couldn't validate the identity of the API Server: Get \"https://10.0.2.15:6443/api/v1/namespaces/kube-public/configmaps/cluster-info?timeout=10s\": dial tcp 10.0.2.15:6443: connect: connection refused",
        );
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("NAT"));
    }

    #[test]
    fn rke2_supervisor_not_ready() {
        let f = run_log(
            "join-apiserver-unreachable",
            "Jul 07 10:14:02 node-02 rke2[1841]: time=\"2022-07-07T10:14:02Z\" level=info msg=\"Running load balancer rke2-agent-load-balancer 127.0.0.1:6444 -> [10.0.0.10:9345]\"\nJul 07 10:14:07 node-02 rke2[1841]: time=\"2022-07-07T10:14:07Z\" level=info msg=\"Waiting to retrieve agent configuration; server is not ready: https://127.0.0.1:6444/v1-rke2/serving-kubelet.crt: 503 Service Unavailable\"\nJul 07 10:14:12 node-02 rke2[1841]: time=\"2022-07-07T10:14:12Z\" level=info msg=\"Waiting to retrieve agent configuration; server is not ready: https://127.0.0.1:6444/v1-rke2/serving-kubelet.crt: 503 Service Unavailable\"",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("503 Service Unavailable")
                && f[0].message.contains("10.0.0.10:9345")
        );
        assert!(f[0].remedy.contains("journalctl -u rke2-server"));
        // a 401 is the token's (join-token-invalid), not reachability
        assert!(run_log(
            "join-apiserver-unreachable",
            "level=info msg=\"Waiting to retrieve agent configuration; server is not ready: https://10.0.0.10:6443/v1-k3s/client-kubelet.crt: 401 Unauthorized\"",
        )
        .is_empty());
    }

    #[test]
    fn cacerts_401_is_not_a_supervisor() {
        for line in [
            "level=error msg=\"failed to get CA certs: https://127.0.0.1:6444/cacerts: 401 Unauthorized\"",
            "level=error msg=\"failed to get CA certs at https://127.0.0.1:40649/cacerts: 401 Unauthorized\"",
            "level=info msg=\"Waiting to retrieve agent configuration; server is not ready: failed to get CA certs: https://127.0.0.1:6444/cacerts: 401 Unauthorized\"",
        ] {
            let f = run_log("join-apiserver-unreachable", line);
            assert_eq!(f.len(), 1, "{line}");
            assert!(
                f[0].message.contains("not a k3s/rke2 supervisor")
                    || f[0].message.contains("serves /cacerts"),
                "{}",
                f[0].message
            );
            assert!(run_log("join-token-invalid", line).is_empty(), "{line}");
        }
        // rke2 (its process name, RKE2_URL): rke2's config path and supervisor port
        let f = run_log(
            "join-apiserver-unreachable",
            "Aug 07 18:00:14 node-02 rke2[1470]: time=\"2020-08-07T18:00:14Z\" level=error msg=\"failed to get CA certs at https://127.0.0.1:38853/cacerts: https://127.0.0.1:38853/cacerts: 401 Unauthorized\"",
        );
        assert!(
            f[0].remedy.contains("/etc/rancher/rke2/config.yaml")
                && f[0].remedy.contains(":9345")
                && !f[0].remedy.contains("k3s"),
            "{}",
            f[0].remedy
        );
    }

    /// A k3s agent whose text shows a proxy (curl's trace, an env assignment, kubeadm's
    /// HTTPProxy warning for kubeadm): the proxy is named, with NO_PROXY in the unit's env file.
    #[test]
    fn a_proxy_in_the_agents_path() {
        let text = "level=info msg=\"Running load balancer k3s-agent-load-balancer 127.0.0.1:6444 -> [10.0.0.163:6443]\"\nlevel=error msg=\"failed to get CA certs: Get \\\"https://127.0.0.1:6444/cacerts\\\": read tcp 127.0.0.1:42113->127.0.0.1:6444: read: connection reset by peer\"\n* Uses proxy env variable https_proxy == 'http://127.0.0.1:7890'\n*   Trying 127.0.0.1:7890...\n* error:0A000126:SSL routines::unexpected eof while reading\ncurl: (35) error:0A000126:SSL routines::unexpected eof while reading\n";
        let f = run_log("join-apiserver-unreachable", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.contains("https_proxy=http://127.0.0.1:7890"),
            "{}",
            f[0].message
        );
        assert!(
            f[0].remedy.contains("10.0.0.163")
                && f[0]
                    .remedy
                    .contains("/etc/systemd/system/k3s-agent.service.env")
                && f[0].remedy.contains("systemctl restart k3s-agent"),
            "{}",
            f[0].remedy
        );
        // curl's trace and failure line are read, not unrecognised
        assert!(
            run_log("log-line-unrecognised", text).is_empty(),
            "{:#?}",
            run_log("log-line-unrecognised", text)
        );
        // rke2: its env file and unit
        let r = run_log(
            "join-apiserver-unreachable",
            &format!(
                "Environment=\"HTTPS_PROXY=http://10.0.0.2:3128\"\n{}",
                text.replace("k3s-agent-load-balancer", "rke2-agent-load-balancer")
                    .replace(":6443]", ":9345]")
            ),
        );
        assert!(
            r[0].remedy.contains("/etc/default/rke2-agent")
                && r[0].remedy.contains("systemctl restart rke2-agent"),
            "{}",
            r[0].remedy
        );
        // kubeadm's preflight warning names the proxy of a join that times out
        let k = run_log(
            "join-apiserver-unreachable",
            "\t[WARNING HTTPProxy]: Connection to \"https://10.0.0.10:6443\" uses proxy \"http://10.0.0.2:3128\". If that is not intended, adjust your proxy settings\nerror execution phase preflight: couldn't validate the identity of the API Server: Get \"https://10.0.0.10:6443/api/v1/namespaces/kube-public/configmaps/cluster-info?timeout=10s\": dial tcp 10.0.0.10:6443: i/o timeout",
        );
        assert_eq!(k.len(), 1, "{k:#?}");
        assert!(
            k[0].message.contains("uses proxy http://10.0.0.2:3128")
                && k[0].remedy.contains("NO_PROXY"),
            "{k:#?}"
        );
    }

    #[test]
    fn kubectl_refusal_is_not_a_join_problem() {
        assert!(run_log("join-apiserver-unreachable", "The connection to the server 10.0.0.5:6443 was refused - did you specify the right host or port?").is_empty());
    }
}
