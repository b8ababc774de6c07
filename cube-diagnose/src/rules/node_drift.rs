//! `node-drift`: nodes of one pool differ in OS image, kernel, container runtime, kubelet minor,
//! GPU driver or CUDA version; or a kubelet and its runtime disagree on the cgroup driver.

use std::collections::BTreeMap;

use cube_model::objects::Node;

use crate::classify::{Signal, SignalKind};
use crate::rules::{obj, signal_subject, signals};
use crate::{Context, Evidence, Finding, Severity, Subject};

declare_rule!(
    NodeDrift,
    "node-drift",
    Node,
    Warning,
    "Nodes of one pool differ in OS release (distribution and major.minor: warning; a point release of one release: info), kernel (major.minor: warning; patch only: info), container runtime (name: error in a GPU pool, since operators configure one runtime for the toolkit; release line major.minor: warning), kubelet minor, GPU driver or CUDA version labels. Pools come from pool labels (cube.example/pool, node.kubernetes.io/pool, cloud node-group labels); without them the whole cluster is one pool. Also fires when a kubelet journal shows the kubelet's cgroup driver differs from the runtime's.",
    check
);

const POOL_LABELS: &[&str] = &[
    "cube.example/pool",
    "node.kubernetes.io/pool",
    "cloud.google.com/gke-nodepool",
    "eks.amazonaws.com/nodegroup",
    "kubernetes.azure.com/agentpool",
    "agentpool",
    "node-pool",
    "pool",
];

const DRIVER_LABELS: &[&str] = &[
    "nvidia.com/cuda.driver.major",
    "nvidia.com/cuda.driver-version.major",
    "nvidia.com/gpu.driver.major",
];
const CUDA_LABELS: &[&str] = &[
    "nvidia.com/cuda.runtime.major",
    "nvidia.com/cuda.runtime-version.major",
];

fn pool_of(n: &Node) -> String {
    POOL_LABELS
        .iter()
        .find_map(|k| n.metadata.labels.get(k).map(str::to_owned))
        .unwrap_or_else(|| "(cluster)".to_owned())
}

fn is_gpu_node(n: &Node) -> bool {
    n.status
        .allocatable
        .names()
        .chain(n.status.capacity.names())
        .any(|r| crate::resources::is_gpu_resource(r.as_str()))
        || n.metadata
            .labels
            .keys()
            .any(|k| k.starts_with("nvidia.com/gpu") || k.contains("amd.com/gpu"))
}

/// An OS image (`status.nodeInfo.osImage`, the node's /etc/os-release PRETTY_NAME as the
/// kubelet reports it: pkg/kubelet/nodestatus/setters.go `MachineInfo`) reduced to its
/// distribution and release line: the words before the first version-like token and that
/// token's first two numeric parts (`Ubuntu 22.04.3 LTS` -> `Ubuntu 22.04`, `Red Hat Enterprise
/// Linux CoreOS 414.92.202310210434-0 (Plow)` -> `Red Hat Enterprise Linux CoreOS 414.92`,
/// `Talos (v1.6.0)` -> `Talos 1.6`); an image without a version stays whole.
fn os_release(image: &str) -> String {
    let mut name: Vec<&str> = Vec::new();
    for w in image.split_whitespace() {
        let v = w.trim_matches(['(', ')']);
        let v = v.strip_prefix('v').unwrap_or(v);
        if v.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            let line: Vec<&str> = v
                .split(['.', '-', '+'])
                .take_while(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
                .take(2)
                .collect();
            if !line.is_empty() {
                name.push("");
                return format!("{}{}", name.join(" "), line.join("."));
            }
        }
        name.push(w);
    }
    image.to_owned()
}

fn release_line(v: &str) -> String {
    v.split('.').take(2).collect::<Vec<_>>().join(".")
}

type Attr = (
    &'static str,
    &'static str,
    fn(&Node) -> Option<String>,
    Severity,
);

fn attrs(gpu_pool: bool) -> Vec<Attr> {
    vec![
        // the OS release (distribution and major.minor: Ubuntu 20.04 vs 22.04 changes glibc,
        // the kernel series, cgroup defaults and the driver packages) is a warning; a point
        // release of the same one (22.04.3 vs 22.04.4, rolling maintenance) only an info
        (
            "OS release",
            "status.nodeInfo.osImage",
            |n| non_empty(&n.status.node_info.os_image).map(|o| os_release(&o)),
            Severity::Warning,
        ),
        (
            "OS point release",
            "status.nodeInfo.osImage",
            |n| non_empty(&n.status.node_info.os_image),
            Severity::Info,
        ),
        (
            "kernel release line",
            "status.nodeInfo.kernelVersion",
            |n| non_empty(&n.status.node_info.kernel_version).map(|k| release_line(&k)),
            Severity::Warning,
        ),
        (
            "kernel patch level",
            "status.nodeInfo.kernelVersion",
            |n| non_empty(&n.status.node_info.kernel_version),
            Severity::Info,
        ),
        (
            "container runtime",
            "status.nodeInfo.containerRuntimeVersion",
            |n| {
                non_empty(&n.status.node_info.container_runtime_version)
                    .map(|r| r.split("://").next().unwrap_or("").to_owned())
            },
            if gpu_pool {
                Severity::Error
            } else {
                Severity::Warning
            },
        ),
        (
            "container runtime release line",
            "status.nodeInfo.containerRuntimeVersion",
            |n| {
                non_empty(&n.status.node_info.container_runtime_version).map(|r| {
                    r.split("://")
                        .map(release_line)
                        .collect::<Vec<_>>()
                        .join("://")
                })
            },
            Severity::Warning,
        ),
        (
            "kubelet minor version",
            "status.nodeInfo.kubeletVersion",
            |n| non_empty(&n.status.node_info.kubelet_version).map(|v| release_line(&v)),
            Severity::Warning,
        ),
        (
            "GPU driver",
            "metadata.labels[nvidia.com/cuda.driver.major]",
            |n| {
                DRIVER_LABELS
                    .iter()
                    .find_map(|k| n.metadata.labels.get(k).map(str::to_owned))
            },
            Severity::Warning,
        ),
        (
            "CUDA version",
            "metadata.labels[nvidia.com/cuda.runtime.major]",
            |n| {
                CUDA_LABELS
                    .iter()
                    .find_map(|k| n.metadata.labels.get(k).map(str::to_owned))
            },
            Severity::Warning,
        ),
    ]
}

/// The field's full value for evidence (the compared value may be reduced to a release line).
fn raw(n: &Node, path: &str) -> String {
    let i = &n.status.node_info;
    match path {
        "status.nodeInfo.osImage" => i.os_image.clone(),
        "status.nodeInfo.kernelVersion" => i.kernel_version.clone(),
        "status.nodeInfo.containerRuntimeVersion" => i.container_runtime_version.clone(),
        "status.nodeInfo.kubeletVersion" => i.kubelet_version.clone(),
        _ => DRIVER_LABELS
            .iter()
            .chain(CUDA_LABELS)
            .find_map(|k| n.metadata.labels.get(k).map(str::to_owned))
            .unwrap_or_default(),
    }
}

/// A version value as its text before the first digit and its numeric parts in order
/// (`containerd://1.7.2` -> (`containerd://`, [1, 7, 2]); `6.8.0-51-generic` -> (``, [6, 8,
/// 0, 51])); `None` without a digit.
fn version_key(v: &str) -> Option<(&str, Vec<u64>)> {
    let start = v.find(|c: char| c.is_ascii_digit())?;
    let nums = v[start..]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse::<u64>().ok())
        .collect();
    Some((&v[..start], nums))
}

/// The remedy of one drift: toward the newest value when all values are versions of the same
/// thing (an upgrade of the older nodes, never a "majority" that may be the older one:
/// fresh-user report F30), else the nodes that differ and a target to choose.
fn drift_remedy(pool: &str, what: &str, values: &BTreeMap<String, Vec<&str>>) -> String {
    let keys: Vec<Option<(&str, Vec<u64>)>> = values.keys().map(|v| version_key(v)).collect();
    let comparable = keys.iter().all(Option::is_some)
        && keys
            .iter()
            .flatten()
            .all(|(p, _)| Some(*p) == keys[0].as_ref().map(|(p, _)| *p));
    if comparable && what != "container runtime" {
        let newest = values
            .keys()
            .max_by(|a, b| {
                version_key(a)
                    .map(|k| k.1)
                    .cmp(&version_key(b).map(|k| k.1))
            })
            .cloned()
            .unwrap_or_default();
        let older: Vec<&str> = values
            .iter()
            .filter(|(v, _)| **v != newest)
            .flat_map(|(_, ns)| ns.iter().copied())
            .collect();
        let shown: Vec<&str> = older.iter().take(5).copied().collect();
        return format!(
            "bring every node of pool {pool} to one {what}: the newest in the pool is {newest} ({} node(s) run older ones: {}{}); if {newest} is supported for this pool (the distribution's and Kubernetes' support policy, the GPU driver's), drain and upgrade the older nodes one at a time (`kubectl drain <node> --ignore-daemonsets --delete-emptydir-data`, upgrade, `kubectl uncordon <node>`); if it is not, hold the upgrade back instead of rolling it further",
            older.len(),
            shown.join(", "),
            if older.len() > shown.len() {
                ", ..."
            } else {
                ""
            }
        );
    }
    let listing: Vec<String> = values
        .iter()
        .map(|(v, ns)| format!("{v} on {}", ns.join(", ")))
        .collect();
    format!(
        "choose one supported {what} for pool {pool} ({}) and move the other nodes to it, one at a time (`kubectl drain <node> --ignore-daemonsets --delete-emptydir-data`, change, `kubectl uncordon <node>`)",
        listing.join("; ")
    )
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}

fn check(ctx: &Context<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut pools: BTreeMap<String, Vec<&Node>> = BTreeMap::new();
    for n in &ctx.snapshot().nodes {
        pools.entry(pool_of(n)).or_default().push(n);
    }
    for (pool, nodes) in pools {
        if nodes.len() < 2 {
            continue;
        }
        // nodes without a pool label are one pseudo-pool: a GPU pool only when all of them
        // are GPU nodes (the control plane and CPU nodes are no GPU pool)
        let gpu_pool = if pool == "(cluster)" {
            nodes.iter().all(|n| is_gpu_node(n))
        } else {
            nodes.iter().any(|n| is_gpu_node(n))
        };
        let mut already_major: Vec<&str> = Vec::new();
        for (what, path, get, sev) in attrs(gpu_pool) {
            let mut values: BTreeMap<String, Vec<&str>> = BTreeMap::new();
            for n in &nodes {
                if let Some(v) = get(n) {
                    values.entry(v).or_default().push(&n.metadata.name);
                }
            }
            if values.len() < 2 {
                continue;
            }
            // report the kernel patch level (the OS point release) only when the release
            // lines agree
            if (what == "kernel patch level" && already_major.contains(&"kernel release line"))
                || (what == "OS point release" && already_major.contains(&"OS release"))
            {
                continue;
            }
            already_major.push(what);
            let listing: Vec<String> = values
                .iter()
                .map(|(v, ns)| format!("{v} ({})", ns.join(", ")))
                .collect();
            let full: &str = path;
            let mut f = Finding::new(
                NodeDrift::ID,
                sev,
                Subject::cluster_scoped("NodePool", &pool),
                format!(
                    "{what} differs across {} pool {pool}: {}",
                    if gpu_pool { "GPU" } else { "node" },
                    listing.join(" vs ")
                ),
            );
            for n in &nodes {
                if get(n).is_some() {
                    f = f.with_evidence(Evidence::field(
                        obj("Node", "", &n.metadata.name),
                        full,
                        raw(n, full),
                    ));
                }
            }
            out.push(f.with_remedy(drift_remedy(&pool, what, &values)));
        }
    }
    for s in signals(ctx, &[SignalKind::CgroupDriverMismatch]) {
        let (k, r, rd) = (
            s.detail("kubelet_driver"),
            s.detail("runtime"),
            s.detail("runtime_driver"),
        );
        let (message, remedy) = cgroup_mismatch_text(k, r, rd);
        // the kubelet's reflectors failing to reach the control plane it ran: consequences
        let consequences: Vec<Evidence> = ctx
            .signals()
            .iter()
            .filter(|c| {
                crate::rules::kubelet_exit_consequence(ctx, c).is_some_and(|f| f.line == s.line)
            })
            .take(2)
            .map(Signal::evidence)
            .collect();
        let message = if consequences.is_empty() {
            message
        } else {
            format!(
                "{message}; the connection failures to the local API server in the same log follow from it (this kubelet ran the control plane's static pods)"
            )
        };
        out.push(
            Finding::new(NodeDrift::ID, Severity::Error, signal_subject(s), message)
                .with_evidence(s.evidence())
                .with_evidences(consequences)
                .with_remedy(remedy),
        );
    }
    out
}

/// A cgroup-driver value as the driver name it stands for: quote characters and blanks
/// around it removed (`--cgroup-driver='systemd'` in a file that does not strip quotes gives
/// the kubelet the value `'systemd'`, which it prints with Go's %q as `"'systemd'"`).
fn bare_driver(v: &str) -> &str {
    v.trim_matches(|c: char| c == '\'' || c == '"' || c == '\\' || c.is_whitespace())
}

/// Message and remedy of a kubelet / runtime cgroup-driver mismatch (the kubelet's
/// `misconfiguration: kubelet cgroup driver: %q is different from docker cgroup driver: %q`,
/// kubernetes `pkg/kubelet/dockershim/docker_service.go`, cri-dockerd `core/docker_service.go`):
/// values that differ only by quoting are one driver written with literal quotes.
fn cgroup_mismatch_text(kubelet: &str, runtime: &str, runtime_driver: &str) -> (String, String) {
    let (k, rd) = (bare_driver(kubelet), bare_driver(runtime_driver));
    let quoted = k != kubelet || rd != runtime_driver;
    if quoted && k == rd {
        return (
            format!(
                "kubelet cgroup driver \"{kubelet}\" differs from the {runtime} cgroup driver \"{runtime_driver}\" only by literal quote characters: both are {k}, but the kubelet received the value with the quotes ({kubelet}), written as --cgroup-driver='{k}' inside a file that passes quotes on (KUBELET_EXTRA_ARGS in /etc/sysconfig/kubelet or /etc/default/kubelet, KUBELET_KUBEADM_ARGS in /var/lib/kubelet/kubeadm-flags.env) or quoted twice in the config file; the kubelet exits and the node cannot join"
            ),
            format!(
                "remove the quote characters around the value: `--cgroup-driver={k}` (or `cgroupDriver: {k}` in /var/lib/kubelet/config.yaml), then `systemctl daemon-reload && systemctl restart kubelet`; the {runtime} side needs no change"
            ),
        );
    }
    let note = if quoted {
        format!(" (the kubelet's value also carries literal quote characters: {kubelet})")
    } else {
        String::new()
    };
    (
        format!(
            "kubelet cgroup driver \"{kubelet}\" differs from the {runtime} cgroup driver \"{runtime_driver}\"{note}: the kubelet exits and the node cannot join"
        ),
        format!(
            "use the same driver on both sides (systemd recommended): set `cgroupDriver: {rd}` in /var/lib/kubelet/config.yaml (KubeletConfiguration, or `--cgroup-driver={rd}` without quotes) or change {runtime}'s driver to {k}, then `systemctl restart kubelet`"
        ),
    )
}

#[cfg(test)]
mod os_release_tests {
    use super::os_release;

    /// Point releases of one OS are one release; another release line or distribution is not.
    #[test]
    fn os_release_lines() {
        assert_eq!(os_release("Ubuntu 22.04.3 LTS"), "Ubuntu 22.04");
        assert_eq!(os_release("Ubuntu 22.04.4 LTS"), "Ubuntu 22.04");
        assert_eq!(os_release("Ubuntu 20.04.6 LTS"), "Ubuntu 20.04");
        assert_eq!(
            os_release("Debian GNU/Linux 12 (bookworm)"),
            "Debian GNU/Linux 12"
        );
        assert_eq!(
            os_release("Red Hat Enterprise Linux CoreOS 414.92.202310210434-0 (Plow)"),
            "Red Hat Enterprise Linux CoreOS 414.92"
        );
        assert_eq!(os_release("Talos (v1.6.0)"), "Talos 1.6");
        assert_eq!(os_release("Amazon Linux 2"), "Amazon Linux 2");
        assert_eq!(
            os_release("Bottlerocket OS 1.19.2 (aws-k8s-1.28)"),
            "Bottlerocket OS 1.19"
        );
        assert_eq!(
            os_release("Container-Optimized OS from Google"),
            "Container-Optimized OS from Google"
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::Severity;
    use crate::rules::testutil::{run_log, run_rule};

    fn node(name: &str, kernel: &str, rt: &str) -> String {
        format!(
            r#"{{"kind":"Node","metadata":{{"name":"{name}","labels":{{"cube.example/pool":"p","nvidia.com/gpu.present":"true"}}}},"status":{{"nodeInfo":{{"kernelVersion":"{kernel}","containerRuntimeVersion":"{rt}","osImage":"u","kubeletVersion":"v1.30.1"}}}}}}"#
        )
    }

    #[test]
    fn runtime_name_drift_in_gpu_pool_is_error() {
        let s = format!(
            r#"{{"kind":"List","items":[{},{}]}}"#,
            node("a", "5.4.0-144-generic", "docker://20.10.20"),
            node("b", "5.4.0-144-generic", "containerd://1.6.4")
        );
        let f = run_rule("node-drift", &s);
        assert!(
            f.iter().any(|f| f.severity == Severity::Error
                && f.message.contains("container runtime differs"))
        );
        assert!(!f.iter().any(|f| f.message.contains("kernel")));
    }

    /// Fresh-user report F30: the majority may run the older version; the remedy names the
    /// newest as the target and the older nodes, never "upgrade" toward an older majority.
    #[test]
    fn remedy_targets_the_newest_version_not_the_majority() {
        let s = format!(
            r#"{{"kind":"List","items":[{},{},{}]}}"#,
            node("a", "6.8.0-49-generic", "containerd://1.6.28"),
            node("b", "6.8.0-49-generic", "containerd://1.6.28"),
            node("c", "6.8.0-51-generic", "containerd://1.7.12")
        );
        let f = run_rule("node-drift", &s);
        let rt = f
            .iter()
            .find(|f| f.message.contains("container runtime release line"))
            .expect("runtime drift");
        assert!(
            rt.remedy
                .contains("the newest in the pool is containerd://1.7")
                && rt.remedy.contains("older ones: a, b"),
            "{}",
            rt.remedy
        );
        assert!(!rt.remedy.contains("majority"), "{}", rt.remedy);
        let k = f
            .iter()
            .find(|f| f.message.contains("kernel"))
            .expect("kernel drift");
        assert!(k.remedy.contains("6.8.0-51-generic"), "{}", k.remedy);
        // versions of different runtimes are not ordered: the nodes are named instead
        let s = format!(
            r#"{{"kind":"List","items":[{},{}]}}"#,
            node("a", "6.8.0-49-generic", "docker://20.10.20"),
            node("b", "6.8.0-49-generic", "containerd://1.6.4")
        );
        let f = run_rule("node-drift", &s);
        assert!(
            f.iter()
                .any(|f| f.remedy.contains("choose one supported")
                    && f.remedy.contains("docker on a")),
            "{f:#?}"
        );
    }

    #[test]
    fn identical_pool_is_clean() {
        let s = format!(
            r#"{{"kind":"List","items":[{},{}]}}"#,
            node("a", "5.4.0-144-generic", "containerd://1.6.4"),
            node("b", "5.4.0-144-generic", "containerd://1.6.4")
        );
        assert!(run_rule("node-drift", &s).is_empty());
    }

    #[test]
    fn cgroup_driver_values_that_differ_only_by_quotes() {
        let text = "Feb 07 12:25:38 node-01 kubelet[21652]: E0207 12:25:38.628063   21652 reflector.go:153] k8s.io/kubernetes/pkg/kubelet/kubelet.go:458: Failed to list *v1.Node: Get https://localhost:8443/api/v1/nodes?limit=500&resourceVersion=0: dial tcp [::1]:8443: connect: connection refused\nFeb 07 12:25:38 node-01 kubelet[21652]: F0207 12:25:38.672092   21652 server.go:273] failed to run Kubelet: failed to create kubelet: misconfiguration: kubelet cgroup driver: \"'systemd'\" is different from docker cgroup driver: \"systemd\"\n";
        let f = run_log("node-drift", text);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.contains("quote"), "{}", f[0].message);
        assert!(
            f[0].remedy.contains("--cgroup-driver=systemd") && !f[0].remedy.contains("'systemd'\""),
            "{}",
            f[0].remedy
        );
        // the refused connections to the local API server are its consequence, not a cause
        assert_eq!(f[0].evidence.len(), 2, "{f:#?}");
        assert!(run_log("cluster-unreachable", text).is_empty());
        // real mismatch: named both ways
        let (m, r) = super::cgroup_mismatch_text("cgroupfs", "docker", "systemd");
        assert!(!m.contains("quote") && r.contains("cgroupDriver: systemd"));
        let (m, _) = super::cgroup_mismatch_text("'cgroupfs'", "docker", "systemd");
        assert!(m.contains("literal quote characters"), "{m}");
    }

    #[test]
    fn cgroup_driver_line() {
        let f = run_log(
            "node-drift",
            "Oct 14 19:15:43 node-03 kubelet[27956]: F1014 server.go:271] failed to run Kubelet: misconfiguration: kubelet cgroup driver: \"cgroupfs\" is different from docker cgroup driver: \"systemd\"",
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].subject.name, "node-03");
    }
}
