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
    "kubeadm join cannot use the API endpoint: connection refused (nothing listening, wrong port, or the control plane advertised an address others cannot reach such as VirtualBox's NAT 10.0.2.15), timeout (firewall, security group, routing), no route to host, or the API server certificate's SANs do not include the address used to join. Each case names its own fix.",
    check
);

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let kinds = [
        SignalKind::Refused,
        SignalKind::Timeout,
        SignalKind::NoRoute,
        SignalKind::NoSuchHost,
        SignalKind::TlsNameMismatch,
    ];
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for s in signals(ctx, &kinds).filter(|s| s.join) {
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
        out.push(signal_error(
            JoinApiserverUnreachable::ID,
            Subject::log(&s.source),
            s,
            message,
            remedy,
        ));
    }
    out
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
    fn kubectl_refusal_is_not_a_join_problem() {
        assert!(run_log("join-apiserver-unreachable", "The connection to the server 10.0.0.5:6443 was refused - did you specify the right host or port?").is_empty());
    }
}
