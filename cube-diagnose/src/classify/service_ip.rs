//! Who is dialling: a client inside the cluster (a pod: a CSI provisioner, CoreDNS, metrics
//! server, an operator) reaches the API server through the `kubernetes` Service's cluster IP on
//! port 443 and the cluster DNS through the `kube-dns` Service's cluster IP on port 53; a user's
//! kubectl, a join or an agent elsewhere reaches the API server's own address (6443 for
//! kubeadm and k3s). A connection failure to such a cluster IP is the Service routing of the
//! node the pod runs on (kube-proxy's iptables/IPVS rules, or the CNI that replaces it) or its
//! pod network, never the user's kubeconfig.
//!
//! The `kubernetes` Service gets the first address of the service CIDR (kubernetes
//! pkg/controlplane/services.go `ServiceIPRange`: `APIServerServiceIP` is the range's first
//! address; `default/kubernetes` port 443, pkg/controlplane/controller/kubernetesservice);
//! kube-dns is conventionally the tenth (kubeadm cmd/kubeadm/app/constants `GetDNSIP`,
//! k3s `--cluster-dns` 10.43.0.10). Service CIDRs by distribution defaults: kubeadm
//! 10.96.0.0/12, k3s/rke2 10.43.0.0/16, microk8s 10.152.183.0/24, kubespray 10.233.0.0/18, EKS
//! 10.100.0.0/16 or 172.20.0.0/16, AKS 10.0.0.0/16, OpenShift 172.30.0.0/16, DigitalOcean
//! 10.245.0.0/16, Huawei CCE 10.247.0.0/16, old kube-up 10.0.0.0/24 and 10.254.0.0/16, CoreOS
//! 10.3.0.0/24, weave-era kubeadm guides 10.32.0.0/12.

/// First addresses of the service CIDRs of common distributions (the `kubernetes` Service).
/// 10.0.0.1 (AKS, kube-up) is left out: it is also a common host address (and this
/// repository's anonymised host addresses are 10.0.0.x), so it counts only with in-cluster
/// context ([`service_vip`]).
const KNOWN_API_VIPS: &[&str] = &[
    "10.96.0.1",
    "10.43.0.1",
    "10.152.183.1",
    "10.233.0.1",
    "10.100.0.1",
    "172.20.0.1",
    "172.30.0.1",
    "10.245.0.1",
    "10.247.0.1",
    "10.254.0.1",
    "10.3.0.1",
    "10.32.0.1",
];

/// The cluster DNS Service addresses of the same distributions.
const KNOWN_DNS_VIPS: &[&str] = &[
    "10.96.0.10",
    "10.43.0.10",
    "10.152.183.10",
    "10.233.0.3",
    "10.100.0.10",
    "172.20.0.10",
    "172.30.0.10",
    "10.245.0.10",
    "10.247.3.10",
    "10.254.0.10",
    "10.3.0.10",
    "10.32.0.10",
];

/// Markers of a log written by a client running in a pod: client-go's reflector and leader
/// election (`reflector.go`, `Failed to list *v1.X`, `Failed to watch *v1.X`,
/// `leaderelection.go`), the in-cluster config (`InClusterConfig`, `Building kube configs for
/// running in cluster`, KUBERNETES_SERVICE_HOST), CoreDNS's kubernetes plugin, a CSI sidecar,
/// and `kubectl logs` of a pod.
pub(crate) fn in_cluster_line(l: &str) -> bool {
    [
        "reflector.go",
        "Failed to list *",
        "Failed to watch *",
        "failed to list *",
        "failed to watch *",
        "leaderelection.go",
        "leader_election.go",
        "error retrieving resource lock",
        "Failed to update lock",
        "InClusterConfig",
        "running in cluster",
        "in-cluster",
        "KUBERNETES_SERVICE_HOST",
        "plugin/kubernetes",
        "plugin/ready",
        "csi-provisioner",
        "external-provisioner",
        "csi-attacher",
        "csi-resizer",
        "csi-snapshotter",
        "kubectl logs",
        " logs -n ",
        "/var/run/secrets/kubernetes.io/serviceaccount",
        "serviceaccounts/",
    ]
    .iter()
    .any(|m| l.contains(m))
        || (l.contains("kubectl") && l.contains(" logs "))
}

/// The Service cluster IP (`host:port`) a failed connection of line `l` targets, when it is
/// the `kubernetes` Service (port 443) or the cluster DNS Service (port 53): a distribution's
/// known address always, any other private `a.b.0.1:443` / `a.b.0.10:53` when the line or
/// its text shows an in-cluster client (`in_cluster`). `addr` is the address a catalog
/// placeholder captured (`endpoint`, `dns`, `server`); without it the first URL or `dial tcp`
/// address of the line is read.
pub(crate) fn service_vip(addr: Option<&str>, l: &str, in_cluster: bool) -> Option<String> {
    let candidates: Vec<String> = match addr {
        Some(a) if !a.is_empty() => vec![a.to_owned()],
        _ => line_addresses(l),
    };
    let in_cluster = in_cluster || in_cluster_line(l);
    candidates.into_iter().find_map(|a| {
        let a = a.trim_matches(|c: char| matches!(c, '"' | '\'' | '[' | ']' | '(' | ')' | ','));
        let a = a.split_once("://").map_or(a, |(_, r)| r);
        let a = a.split(['/', '?']).next().unwrap_or(a);
        let (host, port) = a.rsplit_once(':')?;
        let octets: Vec<u8> = host.split('.').filter_map(|o| o.parse().ok()).collect();
        if octets.len() != 4 || host.split('.').count() != 4 {
            return None;
        }
        let private = octets[0] == 10
            || (octets[0] == 172 && (16..=31).contains(&octets[1]))
            || (octets[0] == 192 && octets[1] == 168);
        let known = match port {
            "443" => KNOWN_API_VIPS.contains(&host),
            "53" => KNOWN_DNS_VIPS.contains(&host),
            _ => false,
        };
        let shaped = private
            && match port {
                "443" => octets[2] == 0 && octets[3] == 1,
                "53" => octets[3] == 10 || (octets[2] == 0 && octets[3] == 3),
                _ => false,
            };
        (known || (shaped && in_cluster)).then(|| format!("{host}:{port}"))
    })
}

/// Addresses a line dials: `dial tcp <addr>:`, `dial udp <addr>:`, `https://<host:port>`.
fn line_addresses(l: &str) -> Vec<String> {
    let mut out = Vec::new();
    for mark in ["dial tcp ", "dial udp ", "https://", "->"] {
        for (p, _) in l.match_indices(mark) {
            let rest = &l[p + mark.len()..];
            let a: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '[' | ']'))
                .collect();
            let a = a.trim_end_matches(':').to_owned();
            if a.contains(':') && !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_ips_by_distribution_and_context() {
        let l = "E1006 06:14:22.699034 1 reflector.go:153] Failed to list *v1.Endpoints: Get \"https://10.43.0.1:443/api/v1/endpoints?limit=500\": dial tcp 10.43.0.1:443: i/o timeout";
        assert_eq!(
            service_vip(None, l, false).as_deref(),
            Some("10.43.0.1:443")
        );
        assert_eq!(
            service_vip(
                Some("10.96.0.1:443"),
                "dial tcp 10.96.0.1:443: i/o timeout",
                false
            )
            .as_deref(),
            Some("10.96.0.1:443")
        );
        // an API server's own address (6443), a public or host address: not a Service IP
        assert!(service_vip(Some("10.96.0.1:6443"), "", true).is_none());
        assert!(service_vip(Some("10.0.0.12:443"), "", true).is_none());
        assert!(service_vip(Some("8.8.0.1:443"), "", true).is_none());
        // AKS's 10.0.0.1 only with in-cluster context
        assert!(
            service_vip(
                Some("10.0.0.1:443"),
                "dial tcp 10.0.0.1:443: i/o timeout",
                false
            )
            .is_none()
        );
        assert_eq!(
            service_vip(Some("10.0.0.1:443"), "", true).as_deref(),
            Some("10.0.0.1:443")
        );
        // the cluster DNS
        assert_eq!(
            service_vip(Some("10.96.0.10:53"), "", false).as_deref(),
            Some("10.96.0.10:53")
        );
        assert!(service_vip(Some("127.0.0.53:53"), "", true).is_none());
    }
}
